/* hr-runs-private.h — what the readers of engine output share (hr-runs*.c) */
#pragma once

#include "hr-runs.h"

G_BEGIN_DECLS

/* A line longer than this is not one the readers look for: skipped, never copied whole. */
#define HR_RUNS_MAX_LINE 8192
/* llama-bench's JSON: one object per run, ~45 members, two sample arrays */
#define HR_RUNS_JSON_MAX_VALUES (HR_RUNS_MAX_RUNS * 80)

typedef gboolean (*LineFunc) (const char *line,
                              int         number,
                              gpointer    data,
                              GError    **error);

HrRun       *hr_runs_run_new             (HrRunFormat      format,
                                          int              line);
/* Text from outside kept for display: valid UTF-8 without controls or bidi overrides, at most
 * 200 bytes; NULL for anything else.  @len < 0: NUL-terminated. */
char        *hr_runs_clean_text          (const char      *s,
                                          gssize           len);
/* A strict decimal (no hex, "inf", trailing junk); ',' as a thousands separator if @grouped. */
gboolean     hr_runs_parse_decimal       (const char      *s,
                                          gboolean         grouped,
                                          double          *out);
gboolean     hr_runs_parse_count         (const char      *s,
                                          gboolean         grouped,
                                          gint64           max,
                                          gint64          *out);
/* The number after @key ("n_ctx = 4096", "avail mem=63.72 GB", "size: 922,496 tokens"). */
gboolean     hr_runs_number_after        (const char      *line,
                                          const char      *key,
                                          gboolean         grouped,
                                          double          *out);
/* The whole number after @key, grouped digits allowed; -1 when absent or above @max. */
gint64       hr_runs_int_after           (const char      *line,
                                          const char      *key,
                                          gint64           max);
/* "key=value" or "key='value'" in a Python repr; newly allocated or NULL. */
char        *hr_runs_value_after         (const char      *line,
                                          const char      *key);
/* 'key': value in a Python dict; newly allocated or NULL. */
char        *hr_runs_dict_value          (const char      *line,
                                          const char      *key);
/* "4.36 GiB", "512.00 MiB" in bytes; "7.62 B", "1.24 M" as counts; NAN otherwise. */
double       hr_runs_scaled_value        (const char      *cell);
/* The quant the tail of llama.cpp's model description names ("qwen2 7B Q4_K - Medium"). */
const char  *hr_runs_quant_from_model_type (const char    *type);
/* The quant a file or repo name carries ("…-Q4_K_M.gguf", "…-AWQ"); newly allocated or NULL. */
char        *hr_runs_quant_from_file_name (const char     *name);
/* vLLM/SGLang --quantization → catalog quant; NULL when the method does not name the format. */
const char  *hr_runs_quant_from_method   (const char      *method);
void         hr_runs_set_kv_type         (char            *dst,
                                          const char      *src);
/* Replaces *@dst with @value (taken) unless @value is NULL. */
void         hr_runs_set_string          (char           **dst,
                                          char            *value);
/* Calls @func on each line (its own copy, '\r' dropped); lines over HR_RUNS_MAX_LINE are
 * skipped whole. */
gboolean     hr_runs_each_line           (const char      *text,
                                          gsize            length,
                                          LineFunc         func,
                                          gpointer         data,
                                          GError         **error);

GPtrArray   *hr_runs_parse_markdown      (const char      *text,
                                          gsize            length,
                                          GError         **error);
GPtrArray   *hr_runs_parse_csv           (const char      *text,
                                          gsize            length,
                                          GError         **error);
GPtrArray   *hr_runs_parse_json          (const char      *text,
                                          gsize            length,
                                          gboolean         lines,
                                          GError         **error);
GPtrArray   *hr_runs_parse_log           (const char      *text,
                                          gsize            length,
                                          HrRunFormat      format,
                                          GError         **error);

G_END_DECLS
