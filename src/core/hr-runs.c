/* hr-runs.c — readers of what engines print: llama-bench (markdown, CSV, JSON/JSONL) and the
 * startup logs of llama.cpp, vLLM and SGLang
 *
 * The formats, as their programs write them:
 * - llama-bench: tools/llama-bench/llama-bench.cpp and its README (ggml-org/llama.cpp): the
 *   markdown table "| model | size | params | backend | ngl | … | test | t/s |" with tests
 *   "pp512", "tg128", "pp512 @ d4096" (older builds "pp 512") and "t/s" as "mean ± sd", then
 *   "build: COMMIT (NUMBER)"; -o csv/json/jsonl carry the same fields by name (model_filename,
 *   model_type, model_size, model_n_params, n_ubatch, type_k, n_gpu_layers, n_prompt, n_gen,
 *   n_depth, avg_ts …).
 * - llama.cpp load logs: "load_tensors: CUDA0 model buffer size = 4403.49 MiB",
 *   "llama_kv_cache: CUDA0 KV buffer size = …", "llama_context: CUDA0 compute buffer size = …",
 *   "llama_context: n_ctx = 4096", "print_info: file type = Q4_K - Medium" (llm_load_print_meta
 *   "model ftype" before 2025) and the devices ggml prints when it starts.
 * - vLLM: "Model loading took 14.99 GiB" (V0 "Loading model weights took … GB", GiB despite the
 *   unit: the value is bytes / 2^30), "Available KV cache memory: … GiB", "GPU KV cache size:
 *   922,496 tokens" (V0 "# GPU blocks: N" of 16 tokens each), "Maximum concurrency for 40,000
 *   tokens per request", the engine's config line (model=, tensor_parallel_size=, max_seq_len=).
 * - SGLang: "Load weight end. … mem usage=15.09 GB", "KV Cache is allocated. #tokens: 442750,
 *   K size: 27.02 GB, V size: 27.02 GB" (SGLang's GB are bytes / 2^30 too), server_args
 *   (model_path=, tp_size=, mem_fraction_static=).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-runs-private.h"
#include "hr-text.h"
#include "hr-units.h"

G_DEFINE_QUARK (hr-runs-error-quark, hr_runs_error)


static const char * const format_ids[] = {
  "llama-bench-markdown", "llama-bench-csv", "llama-bench-json",
  "llama.cpp-log", "vllm-log", "sglang-log",
};
G_STATIC_ASSERT (G_N_ELEMENTS (format_ids) == HR_N_RUN_FORMATS);

static const char * const measure_ids[] = {
  "decode_tps", "prefill_tps", "weights_bytes", "kv_cache_bytes", "buffers_bytes", "kv_tokens",
};
G_STATIC_ASSERT (G_N_ELEMENTS (measure_ids) == HR_N_MEASURES);

const char *
hr_run_format_to_string (HrRunFormat format)
{
  return (guint) format < HR_N_RUN_FORMATS ? format_ids[format] : "unknown";
}

const char *
hr_run_format_display (HrRunFormat format)
{
  switch (format)
    {
    case HR_RUN_BENCH_MARKDOWN:
      return _("llama-bench table");
    case HR_RUN_BENCH_CSV:
      return _("llama-bench CSV");
    case HR_RUN_BENCH_JSON:
      return _("llama-bench JSON");
    case HR_RUN_LLAMA_LOG:
      return _("llama.cpp log");
    case HR_RUN_VLLM_LOG:
      return _("vLLM log");
    case HR_RUN_SGLANG_LOG:
      return _("SGLang log");
    case HR_N_RUN_FORMATS:
    default:
      return _("Unknown");
    }
}

const char *
hr_measure_to_string (HrMeasure measure)
{
  return (guint) measure < HR_N_MEASURES ? measure_ids[measure] : "unknown";
}

const char *
hr_measure_display (HrMeasure measure)
{
  switch (measure)
    {
    case HR_MEASURE_DECODE:
      return _("Decode");
    case HR_MEASURE_PREFILL:
      return _("Prefill");
    case HR_MEASURE_WEIGHTS:
      return _("Weights");
    case HR_MEASURE_KV:
      return _("KV cache");
    case HR_MEASURE_BUFFERS:
      return _("Compute buffers");
    case HR_MEASURE_KV_TOKENS:
      return _("KV tokens");
    case HR_N_MEASURES:
    default:
      return _("Unknown");
    }
}

void
hr_run_free (HrRun *run)
{
  if (run == NULL)
    return;
  g_free (run->model);
  g_free (run->model_type);
  g_free (run->quant);
  g_free (run->device);
  g_free (run->backend);
  g_free (run->build);
  g_free (run->quant_method);
  g_free (run);
}

HrRun *
hr_runs_run_new (HrRunFormat format,
         int         line)
{
  HrRun *run = g_new0 (HrRun, 1);

  run->format = format;
  run->line = line;
  run->model_bytes = NAN;
  run->params = NAN;
  run->ngl = -1;
  run->flash_attn = -1;
  run->gpu_mem_util = NAN;
  for (int i = 0; i < HR_N_MEASURES; i++)
    run->measured[i] = NAN;
  return run;
}

/* ---- small text helpers ------------------------------------------------------------------ */

/* Text from outside kept for display: valid UTF-8 without controls or bidi overrides, at most
 * 200 bytes; NULL for anything else. */
char *
hr_runs_clean_text (const char *s,
            gssize      len)
{
  g_autofree char *copy = NULL;

  if (s == NULL)
    return NULL;
  if (len < 0)
    len = strlen (s);
  while (len > 0 && g_ascii_isspace (*s))
    s++, len--;
  while (len > 0 && g_ascii_isspace (s[len - 1]))
    len--;
  if (len == 0 || len > 200)
    return NULL;
  copy = g_strndup (s, len);
  if (!hr_text_is_clean (copy))
    return NULL;
  return g_steal_pointer (&copy);
}

/* A strict decimal: optional sign, digits, one '.', digits, an optional exponent; thousands
 * separators (',') only when @grouped.  No hex, no "inf", no trailing junk but spaces. */
gboolean
hr_runs_parse_decimal (const char *s,
               gboolean    grouped,
               double     *out)
{
  char buf[64];
  guint n = 0;
  char *end;
  double v;

  if (s == NULL)
    return FALSE;
  while (g_ascii_isspace (*s))
    s++;
  for (const char *p = s; *p && !g_ascii_isspace (*p); p++)
    {
      if (*p == ',' && grouped)
        continue;
      if (!(g_ascii_isdigit (*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' || *p == 'E'))
        return FALSE;
      if (n + 1 >= sizeof buf)
        return FALSE;
      buf[n++] = *p;
    }
  buf[n] = '\0';
  if (n == 0 || !(g_ascii_isdigit (buf[0]) || ((buf[0] == '-' || buf[0] == '+') && g_ascii_isdigit (buf[1]))))
    return FALSE;
  v = g_ascii_strtod (buf, &end);
  if (*end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
hr_runs_parse_count (const char *s,
             gboolean    grouped,
             gint64      max,
             gint64     *out)
{
  double v;

  if (!hr_runs_parse_decimal (s, grouped, &v) || v < 0 || v > (double) max || v != floor (v))
    return FALSE;
  *out = (gint64) v;
  return TRUE;
}

/* The number after @key in @line ("n_ctx = 4096", "avail mem=63.72 GB"): after the key, spaces,
 * '=' or ':' and spaces. */
gboolean
hr_runs_number_after (const char *line,
              const char *key,
              gboolean    grouped,
              double     *out)
{
  const char *p = strstr (line, key);
  char buf[48];
  guint n = 0;

  if (p == NULL)
    return FALSE;
  p += strlen (key);
  while (*p == ' ' || *p == '=' || *p == ':' || *p == '\t')
    p++;
  while (n + 1 < sizeof buf && (g_ascii_isdigit (*p) || *p == '.' || (grouped && *p == ',') ||
                                (n == 0 && *p == '-')))
    buf[n++] = *p++;
  buf[n] = '\0';
  /* "1,234." at the end of a sentence: the period is not a decimal point */
  while (n > 0 && (buf[n - 1] == '.' || buf[n - 1] == ','))
    buf[--n] = '\0';
  return hr_runs_parse_decimal (buf, grouped, out);
}

gint64
hr_runs_int_after (const char *line,
           const char *key,
           gint64      max)
{
  double v;

  if (!hr_runs_number_after (line, key, TRUE, &v) || v < 0 || v > (double) max || v != floor (v))
    return -1;
  return (gint64) v;
}

/* The quoted or bare value after "key=" in a Python repr ("model='Qwen/Qwen3-8B'",
 * "tp_size=4,"); newly allocated, NULL when absent. */
char *
hr_runs_value_after (const char *line,
             const char *key)
{
  const char *p = strstr (line, key);
  const char *end;
  char quote = 0;

  while (p != NULL && p > line && (g_ascii_isalnum (p[-1]) || p[-1] == '_'))
    p = strstr (p + 1, key);
  if (p == NULL)
    return NULL;
  p += strlen (key);
  if (*p == '\'' || *p == '"')
    quote = *p++;
  end = p;
  while (*end && (quote ? *end != quote : (*end != ',' && *end != ')' && *end != ' ' && *end != '}')))
    end++;
  if (quote && *end != quote)
    return NULL;
  return hr_runs_clean_text (p, end - p);
}

/* The value of 'key' in a Python dict as vLLM logs its arguments ("non-default args: {'model':
 * 'Qwen/Qwen3-8B', 'max_model_len': 16384, …}"); newly allocated, NULL when absent. */
char *
hr_runs_dict_value (const char *line,
            const char *key)
{
  g_autofree char *needle = g_strdup_printf ("'%s': ", key);
  const char *p = strstr (line, needle);
  const char *end;
  char quote = 0;

  if (p == NULL)
    return NULL;
  p += strlen (needle);
  if (*p == '\'' || *p == '"')
    quote = *p++;
  end = p;
  while (*end && (quote ? *end != quote : (*end != ',' && *end != '}')))
    end++;
  if (quote && *end != quote)
    return NULL;
  return hr_runs_clean_text (p, end - p);
}

/* "4.36 GiB", "512.00 MiB", "7.62 B", "1.24 M" as llama-bench prints sizes and counts */
double
hr_runs_scaled_value (const char *cell)
{
  double v;
  char unit[8] = "";
  const char *p;
  g_autofree char *num = NULL;

  if (cell == NULL)
    return NAN;
  while (g_ascii_isspace (*cell))
    cell++;
  for (p = cell; *p && !g_ascii_isspace (*p); p++)
    ;
  num = g_strndup (cell, p - cell);
  if (!hr_runs_parse_decimal (num, FALSE, &v) || v < 0)
    return NAN;
  while (g_ascii_isspace (*p))
    p++;
  g_strlcpy (unit, p, sizeof unit);
  g_strchomp (unit);
  if (g_str_equal (unit, "GiB"))
    return v * HR_GIB;
  if (g_str_equal (unit, "MiB"))
    return v * HR_MIB;
  if (g_str_equal (unit, "KiB"))
    return v * 1024;
  if (g_str_equal (unit, "B"))
    return v * 1e9;   /* params: "7.62 B" */
  if (g_str_equal (unit, "M"))
    return v * 1e6;
  if (g_str_equal (unit, "T"))
    return v * 1e12;
  if (g_str_equal (unit, "K"))
    return v * 1e3;
  return NAN;
}

/* ---- quantization names ------------------------------------------------------------------- */

/* llama_model_ftype_name() (src/llama-model-loader.cpp) → the catalog's quant ids */
static const struct
{
  const char *ftype;
  const char *quant;
} ftypes[] = {
  { "all F32", "F32" },
  { "F16", "F16" },
  { "BF16", "BF16" },
  { "Q4_0", "Q4_0" },
  { "Q4_1", "Q4_1" },
  { "Q5_0", "Q5_0" },
  { "Q5_1", "Q5_1" },
  { "Q8_0", "Q8_0" },
  { "MXFP4 MoE", "MXFP4" },
  { "Q2_K - Medium", "Q2_K" },
  { "Q2_K - Small", "Q2_K_S" },
  { "Q3_K - Small", "Q3_K_S" },
  { "Q3_K - Medium", "Q3_K_M" },
  { "Q3_K - Large", "Q3_K_L" },
  { "Q4_K - Small", "Q4_K_S" },
  { "Q4_K - Medium", "Q4_K_M" },
  { "Q5_K - Small", "Q5_K_S" },
  { "Q5_K - Medium", "Q5_K_M" },
  { "Q6_K", "Q6_K" },
  { "TQ1_0 - 1.69 bpw ternary", "TQ1_0" },
  { "TQ2_0 - 2.06 bpw ternary", "TQ2_0" },
  { "IQ2_XXS - 2.0625 bpw", "IQ2_XXS" },
  { "IQ2_XS - 2.3125 bpw", "IQ2_XS" },
  { "IQ2_S - 2.5 bpw", "IQ2_S" },
  { "IQ2_M - 2.7 bpw", "IQ2_M" },
  { "IQ3_XS - 3.3 bpw", "IQ3_XS" },
  { "IQ3_XXS - 3.0625 bpw", "IQ3_XXS" },
  { "IQ1_S - 1.5625 bpw", "IQ1_S" },
  { "IQ1_M - 1.75 bpw", "IQ1_M" },
  { "IQ4_NL - 4.5 bpw", "IQ4_NL" },
  { "IQ4_XS - 4.25 bpw", "IQ4_XS" },
  { "IQ3_S - 3.4375 bpw", "IQ3_S" },
  { "IQ3_M - 3.66 bpw", "IQ3_M" },
};

const char *
hr_run_quant_from_ftype (const char *ftype)
{
  if (ftype == NULL)
    return NULL;
  while (g_ascii_isspace (*ftype))
    ftype++;
  /* 2023 builds: "mostly Q4_0" */
  if (g_str_has_prefix (ftype, "mostly "))
    ftype += strlen ("mostly ");
  for (guint i = 0; i < G_N_ELEMENTS (ftypes); i++)
    if (g_ascii_strcasecmp (ftype, ftypes[i].ftype) == 0)
      return ftypes[i].quant;
  return NULL;
}

/* llama-bench's "model" / model_type cell: "<arch> <size> <ftype>" ("qwen2 7B Q4_K - Medium",
 * "llama 7B mostly Q4_0", "gpt-oss 20B MXFP4 MoE"): the quant its tail names. */
const char *
hr_runs_quant_from_model_type (const char *type)
{
  const char *p;

  if (type == NULL)
    return NULL;
  for (p = type; *p; p++)
    if (p == type || p[-1] == ' ')
      {
        const char *q = hr_run_quant_from_ftype (p);
        if (q != NULL)
          return q;
      }
  return NULL;
}

static gboolean
quant_token_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The quant a GGUF file name carries ("Qwen2.5-7B-Instruct-Q4_K_M.gguf",
 * "gpt-oss-20b-mxfp4.gguf", "model-UD-Q2_K_XL-00001-of-00002.gguf"). */
char *
hr_runs_quant_from_file_name (const char *name)
{
  static const char * const plain[] = { "BF16", "F16", "F32", "MXFP4", "NVFP4", "FP8", "AWQ", "GPTQ" };
  g_autofree char *base = NULL;
  g_autofree char *up = NULL;

  if (name == NULL)
    return NULL;
  base = g_path_get_basename (name);
  up = g_ascii_strup (base, -1);
  for (char *p = up; *p; p++)
    {
      gsize n;

      if (p != up && quant_token_char (p[-1]))
        continue;
      for (n = 0; quant_token_char (p[n]); n++)
        ;
      if (n >= 4 && (p[0] == 'Q' || (p[0] == 'I' && p[1] == 'Q') || (p[0] == 'T' && p[1] == 'Q')))
        {
          const char *d = p[0] == 'Q' ? p + 1 : p + 2;
          if (g_ascii_isdigit (d[0]) && d[1] == '_')
            {
              g_autofree char *tok = g_strndup (p, n);
              if (p - up >= 3 && g_str_has_prefix (p - 3, "UD-"))
                return g_strconcat ("UD-", tok, NULL);
              return g_steal_pointer (&tok);
            }
        }
      for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
        if (n == strlen (plain[i]) && strncmp (p, plain[i], n) == 0)
          return g_strdup (g_str_equal (plain[i], "AWQ") ? "AWQ-INT4"
                           : g_str_equal (plain[i], "GPTQ") ? "GPTQ-INT4" : plain[i]);
    }
  return NULL;
}

/* vLLM's and SGLang's --quantization methods → the catalog's quants; NULL for a method that
 * does not say the format by itself (compressed-tensors, modelopt, bitsandbytes …) */
const char *
hr_runs_quant_from_method (const char *method)
{
  static const struct { const char *method; const char *quant; } methods[] = {
    { "fp8", "FP8" }, { "fbgemm_fp8", "FP8" }, { "awq", "AWQ-INT4" }, { "awq_marlin", "AWQ-INT4" },
    { "gptq", "GPTQ-INT4" }, { "gptq_marlin", "GPTQ-INT4" }, { "mxfp4", "MXFP4" },
    { "modelopt_fp4", "NVFP4" }, { "nvfp4", "NVFP4" }, { "gguf", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (g_ascii_strcasecmp (method, methods[i].method) == 0)
      return methods[i].quant;
  return NULL;
}

void
hr_runs_set_kv_type (char       *dst,
             const char *src)
{
  if (src != NULL && strlen (src) < 12 && hr_text_is_clean (src))
    g_strlcpy (dst, src, 12);
}

void
hr_runs_set_string (char      **dst,
            char       *value)
{
  if (value == NULL)
    return;
  g_free (*dst);
  *dst = value;
}

/* ---- lines ------------------------------------------------------------------------------- */


/* Calls @func on each line (its own NUL-terminated copy, '\r' dropped); lines over HR_RUNS_MAX_LINE are
 * skipped whole. */
gboolean
hr_runs_each_line (const char *text,
           gsize       length,
           LineFunc    func,
           gpointer    data,
           GError    **error)
{
  const char *p = text, *end = text + length;
  int number = 0;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl ? nl : end;
      gsize n = stop - p;

      number++;
      if (n > 0 && stop[-1] == '\r')
        n--;
      if (n <= HR_RUNS_MAX_LINE)
        {
          g_autofree char *line = g_strndup (p, n);
          if (!func (line, number, data, error))
            return FALSE;
        }
      p = nl ? nl + 1 : end;
    }
  return TRUE;
}

/* ---- recognising the format --------------------------------------------------------------- */

static gboolean
contains (const char *text,
          gsize       length,
          const char *needle)
{
  return g_strstr_len (text, length, needle) != NULL;
}

static gboolean
is_bench_json (const char *text,
               gsize       length)
{
  const char *p = text, *end = text + length;

  while (p < end && g_ascii_isspace (*p))
    p++;
  return p < end && (*p == '[' || *p == '{') && contains (text, length, "\"avg_ts\"");
}

GPtrArray *
hr_runs_parse (const char *text,
               gssize      length,
               GError    **error)
{
  GPtrArray *runs = NULL;
  gsize len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  if (len > HR_RUNS_MAX_BYTES)
    {
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_LIMIT, "larger than %d MiB",
                   HR_RUNS_MAX_BYTES / (1024 * 1024));
      return NULL;
    }
  if (memchr (text, '\0', len) != NULL)
    {
      g_set_error_literal (error, HR_RUNS_ERROR, HR_RUNS_ERROR_FORMAT, "binary data, not text");
      return NULL;
    }

  if (is_bench_json (text, len))
    {
      const char *p = text;
      while (g_ascii_isspace (*p))
        p++;
      /* JSONL: objects one per line; JSON: one array */
      runs = hr_runs_parse_json (text, len, *p == '{', error);
    }
  else if (contains (text, len, "build_commit,") && contains (text, len, "avg_ts"))
    runs = hr_runs_parse_csv (text, len, error);
  else if (contains (text, len, "| t/s") || contains (text, len, "t/s |"))
    runs = hr_runs_parse_markdown (text, len, error);
  else if (contains (text, len, "KV Cache is allocated") || contains (text, len, "max_total_num_tokens=") ||
           contains (text, len, "Load weight end.") || contains (text, len, "server_args=ServerArgs("))
    runs = hr_runs_parse_log (text, len, HR_RUN_SGLANG_LOG, error);
  else if (contains (text, len, "GPU KV cache size") || contains (text, len, "vLLM API server version") ||
           contains (text, len, "# GPU blocks") || contains (text, len, "Model loading took") ||
           contains (text, len, "Available KV cache memory") || contains (text, len, "LLM engine (v") ||
           contains (text, len, "Loading model weights took"))
    runs = hr_runs_parse_log (text, len, HR_RUN_VLLM_LOG, error);
  else if (contains (text, len, "buffer size =") || contains (text, len, "llama_context") ||
           contains (text, len, "llama_model_loader"))
    runs = hr_runs_parse_log (text, len, HR_RUN_LLAMA_LOG, error);
  else
    {
      g_set_error_literal (error, HR_RUNS_ERROR, HR_RUNS_ERROR_FORMAT,
                           "not a llama-bench table, CSV or JSON, nor a llama.cpp, vLLM or SGLang log");
      return NULL;
    }
  if (runs != NULL && runs->len == 0)
    {
      g_ptr_array_unref (runs);
      g_set_error_literal (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                           "no pp or tg result in the llama-bench output");
      return NULL;
    }
  return runs;
}
