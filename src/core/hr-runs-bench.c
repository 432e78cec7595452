/* hr-runs-bench.c — llama-bench's output: the markdown table, -o csv, -o json and jsonl
 *
 * Formats as tools/llama-bench/llama-bench.cpp writes them (see hr-runs.c).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-json.h"
#include "hr-runs-private.h"
#include "hr-text.h"
#include "hr-units.h"

/* ---- llama-bench: markdown -------------------------------------------------------------- */

typedef struct
{
  GPtrArray *runs;
  GStrv columns;        /* of the table being read, NULL between tables */
  gboolean separator;   /* the "| --- |" line has been seen */
  char *device;         /* from ggml's start-up lines: one device name, or NULL */
  int n_devices;
  gboolean several_names;
  char *build;
} Markdown;

/* "|  a |  b |" → { "a", "b" } (NULL when not a table row) */
static GStrv
split_row (const char *line)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) parts = NULL;
  const char *s = line;
  gsize n;

  while (*s == ' ')
    s++;
  if (*s != '|')
    return NULL;
  parts = g_strsplit (s + 1, "|", 128);
  n = g_strv_length (parts);
  /* the text after the last '|' is empty on a well-formed row */
  if (n < 2 || g_strstrip (parts[n - 1])[0] != '\0')
    return NULL;
  for (gsize i = 0; i + 1 < n; i++)
    g_strv_builder_add (b, g_strstrip (parts[i]));
  return g_strv_builder_end (b);
}

static int
column_index (GStrv        columns,
              const char  *name)
{
  for (int i = 0; columns[i]; i++)
    if (g_str_equal (columns[i], name))
      return i;
  return -1;
}

static const char *
cell (GStrv        columns,
      GStrv        row,
      const char  *name)
{
  int i = column_index (columns, name);

  if (i < 0 || i >= (int) g_strv_length (row))
    return NULL;
  return row[i];
}

/* "pp512", "tg128", "pp 512", "pp512 @ d4096", "tg128 @ d32768"; pg tests are left out */
static gboolean
parse_test (const char *test,
            HrRun      *run)
{
  gint64 n, depth = 0;
  const char *at;
  g_autofree char *head = NULL;
  gboolean prefill;

  if (test == NULL)
    return FALSE;
  if (g_str_has_prefix (test, "pp"))
    prefill = TRUE;
  else if (g_str_has_prefix (test, "tg"))
    prefill = FALSE;
  else
    return FALSE;
  at = strstr (test, "@");
  head = g_strndup (test + 2, at ? (gsize) (at - test - 2) : strlen (test + 2));
  if (!hr_runs_parse_count (head, FALSE, 1 << 24, &n) || n == 0)
    return FALSE;
  if (at != NULL)
    {
      const char *d = at + 1;
      while (*d == ' ')
        d++;
      if (*d != 'd' || !hr_runs_parse_count (d + 1, FALSE, HR_MAX_CONTEXT, &depth))
        return FALSE;
    }
  if (prefill)
    run->n_prompt = (int) n;
  else
    run->n_gen = (int) n;
  run->depth = depth;
  return TRUE;
}

/* Fills @run from the named columns of a markdown row or a CSV/JSON object; @get returns a
 * column's text or NULL.  Returns FALSE with the reason when a needed column is bad. */
typedef const char *(*FieldFunc) (gpointer data, const char *name);

static gboolean
bench_fields (HrRun     *run,
              FieldFunc  get,
              gpointer   data,
              GError   **error)
{
  const char *v;
  double d;
  gint64 n;

  if ((v = get (data, "model_filename")) != NULL)
    run->model = hr_runs_clean_text (v, -1);
  if ((v = get (data, "model_type")) != NULL || (v = get (data, "model")) != NULL)
    run->model_type = hr_runs_clean_text (v, -1);
  if ((v = get (data, "model_size")) != NULL && hr_runs_parse_decimal (v, FALSE, &d) && d > 0)
    run->model_bytes = d;
  else if ((v = get (data, "size")) != NULL)
    run->model_bytes = hr_runs_scaled_value (v);
  if ((v = get (data, "model_n_params")) != NULL && hr_runs_parse_decimal (v, FALSE, &d) && d > 0)
    run->params = d;
  else if ((v = get (data, "params")) != NULL)
    run->params = hr_runs_scaled_value (v);
  if ((v = get (data, "gpu_info")) != NULL && *v)
    run->device = hr_runs_clean_text (v, -1);
  if ((v = get (data, "backends")) != NULL || (v = get (data, "backend")) != NULL)
    run->backend = hr_runs_clean_text (v, -1);
  if ((v = get (data, "n_gpu_layers")) != NULL || (v = get (data, "ngl")) != NULL)
    {
      if (!hr_runs_parse_decimal (v, FALSE, &d) || d < -1 || d > 100000 || d != floor (d))
        {
          g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID, "ngl “%s” is not a layer count", v);
          return FALSE;
        }
      run->ngl = (int) d;
    }
  if (((v = get (data, "n_ubatch")) != NULL) && hr_runs_parse_count (v, FALSE, 1 << 20, &n))
    run->n_ubatch = (int) n;
  if (((v = get (data, "n_cpu_moe")) != NULL) && hr_runs_parse_count (v, FALSE, 100000, &n))
    run->n_cpu_moe = (int) n;
  if ((v = get (data, "flash_attn")) != NULL || (v = get (data, "fa")) != NULL)
    {
      if (g_str_equal (v, "1") || g_ascii_strcasecmp (v, "true") == 0 || g_str_equal (v, "on"))
        run->flash_attn = 1;
      else if (g_str_equal (v, "0") || g_ascii_strcasecmp (v, "false") == 0 || g_str_equal (v, "off"))
        run->flash_attn = 0;
    }
  hr_runs_set_kv_type (run->type_k, get (data, "type_k"));
  hr_runs_set_kv_type (run->type_v, get (data, "type_v"));
  run->quant = g_strdup (hr_runs_quant_from_model_type (run->model_type));
  if (run->quant == NULL)
    run->quant = hr_runs_quant_from_file_name (run->model);
  return TRUE;
}

static const char *
markdown_get (gpointer    data,
              const char *name)
{
  gpointer *pair = data;
  return cell (pair[0], pair[1], name);
}

static gboolean
markdown_line (const char *line,
               int         number,
               gpointer    data,
               GError    **error)
{
  Markdown *md = data;
  g_auto(GStrv) row = split_row (line);
  const char *s = line;

  while (*s == ' ')
    s++;
  /* ggml's start-up lines name the devices */
  if (row == NULL)
    {
      const char *dev = strstr (line, "Device ");
      const char *vk = strstr (line, "ggml_vulkan: ");

      if (md->columns != NULL)
        {
          g_clear_pointer (&md->columns, g_strfreev);
          md->separator = FALSE;
        }
      if (g_str_has_prefix (s, "build: "))
        {
          g_free (md->build);
          md->build = hr_runs_clean_text (s + 7, -1);
          return TRUE;
        }
      /* CUDA "Device 0: NAME, compute capability …", Vulkan "ggml_vulkan: 0 = NAME (…" */
      if (dev != NULL && !(g_ascii_isdigit (dev[7]) && strstr (dev, ": ") != NULL))
        dev = NULL;
      if (vk != NULL && !(g_ascii_isdigit (vk[13]) && strstr (vk, " = ") != NULL))
        vk = NULL;
      if (dev != NULL || vk != NULL)
        {
          const char *name = dev ? strstr (dev, ": ") + 2 : strstr (vk, " = ") + 3;
          const char *stop = dev ? strchr (name, ',') : strstr (name, " (");
          g_autofree char *n = stop ? hr_runs_clean_text (name, stop - name) : NULL;

          if (n != NULL)
            {
              md->n_devices++;
              if (md->device == NULL)
                md->device = g_steal_pointer (&n);
              else if (!g_str_equal (md->device, n))
                md->several_names = TRUE;
            }
        }
      return TRUE;
    }

  if (md->columns == NULL)
    {
      if (column_index (row, "test") >= 0 && column_index (row, "t/s") >= 0 &&
          column_index (row, "model") >= 0)
        {
          md->columns = g_steal_pointer (&row);
          md->separator = FALSE;
        }
      return TRUE;
    }
  if (!md->separator)
    {
      md->separator = row[0] != NULL && strstr (row[0], "---") != NULL;
      if (!md->separator)
        g_clear_pointer (&md->columns, g_strfreev);
      return TRUE;
    }
  if (g_strv_length (row) != g_strv_length (md->columns))
    {
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                   "line %d: %u cells where the table has %u columns", number,
                   g_strv_length (row), g_strv_length (md->columns));
      return FALSE;
    }
  {
    g_autoptr(HrRun) run = hr_runs_run_new (HR_RUN_BENCH_MARKDOWN, number);
    gpointer pair[2] = { md->columns, row };
    const char *ts = cell (md->columns, row, "t/s");
    const char *test = cell (md->columns, row, "test");
    g_autofree char *mean = NULL;
    const char *pm;
    double value;

    if (!parse_test (test, run))
      return TRUE;   /* pg tests and others: not a figure Headroom predicts */
    pm = strstr (ts, "±");
    mean = g_strndup (ts, pm ? (gsize) (pm - ts) : strlen (ts));
    if (!hr_runs_parse_decimal (mean, FALSE, &value) || !(value > 0) || value > 1e9)
      {
        g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                     "line %d: t/s “%s” is not a speed", number, ts);
        return FALSE;
      }
    if (!bench_fields (run, markdown_get, pair, error))
      {
        g_prefix_error (error, "line %d: ", number);
        return FALSE;
      }
    run->measured[run->n_prompt > 0 ? HR_MEASURE_PREFILL : HR_MEASURE_DECODE] = value;
    if (md->runs->len >= HR_RUNS_MAX_RUNS)
      {
        g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_LIMIT, "more than %d runs", HR_RUNS_MAX_RUNS);
        return FALSE;
      }
    g_ptr_array_add (md->runs, g_steal_pointer (&run));
  }
  return TRUE;
}

GPtrArray *
hr_runs_parse_markdown (const char *text,
                gsize       length,
                GError    **error)
{
  Markdown md = { .runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free) };
  g_autoptr(GPtrArray) runs = md.runs;
  gboolean ok = hr_runs_each_line (text, length, markdown_line, &md, error);

  if (ok)
    for (guint i = 0; i < runs->len; i++)
      {
        HrRun *run = g_ptr_array_index (runs, i);

        run->build = g_strdup (md.build);
        if (run->device == NULL && md.device != NULL && !md.several_names)
          run->device = g_strdup (md.device);
        run->n_devices = md.n_devices;
      }
  g_strfreev (md.columns);
  g_free (md.device);
  g_free (md.build);
  if (!ok)
    return NULL;
  return g_steal_pointer (&runs);
}

/* ---- llama-bench: CSV ------------------------------------------------------------------- */

/* One CSV record of llama-bench (every field quoted, no newline inside a field). */
static GStrv
split_csv (const char *line)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  const char *p = line;
  guint n = 0;

  for (;;)
    {
      g_autoptr(GString) f = g_string_new (NULL);

      if (++n > 256)
        return NULL;
      if (*p == '"')
        {
          for (p++;; p++)
            {
              if (*p == '\0')
                return NULL;
              if (*p == '"')
                {
                  if (p[1] == '"')
                    {
                      g_string_append_c (f, '"');
                      p++;
                      continue;
                    }
                  p++;
                  break;
                }
              g_string_append_c (f, *p);
            }
        }
      else
        while (*p && *p != ',')
          g_string_append_c (f, *p++);
      g_strv_builder_add (b, f->str);
      if (*p == '\0')
        break;
      if (*p != ',')
        return NULL;
      p++;
    }
  return g_strv_builder_end (b);
}

typedef struct
{
  GStrv header;
  GStrv row;
} CsvRow;

static const char *
csv_get (gpointer    data,
         const char *name)
{
  CsvRow *r = data;
  return cell (r->header, r->row, name);
}

/* n_prompt/n_gen/n_depth and avg_ts, as CSV and JSON both carry them */
static gboolean
bench_test_fields (HrRun     *run,
                   FieldFunc  get,
                   gpointer   data,
                   GError   **error)
{
  gint64 np = 0, ng = 0, nd = 0;
  const char *v;
  g_autofree char *commit = NULL;
  double value = NAN;

  /* @get may hand out one buffer for every field: each value is read before the next get */
  if ((v = get (data, "avg_ts")) == NULL || !hr_runs_parse_decimal (v, FALSE, &value) ||
      !(value > 0) || value > 1e9)
    {
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID, "avg_ts “%s” is not a speed",
                   v ? v : "");
      return FALSE;
    }
  if (((v = get (data, "n_prompt")) && !hr_runs_parse_count (v, FALSE, 1 << 24, &np)) ||
      ((v = get (data, "n_gen")) && !hr_runs_parse_count (v, FALSE, 1 << 24, &ng)) ||
      ((v = get (data, "n_depth")) && !hr_runs_parse_count (v, FALSE, HR_MAX_CONTEXT, &nd)))
    {
      g_set_error_literal (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                           "n_prompt, n_gen or n_depth is not a token count");
      return FALSE;
    }
  if ((v = get (data, "build_commit")) != NULL)
    commit = g_strdup (v);
  if (commit != NULL && (v = get (data, "build_number")) != NULL)
    {
      g_autofree char *b = g_strdup_printf ("%s (%s)", commit, v);
      run->build = hr_runs_clean_text (b, -1);
    }
  run->n_prompt = (int) np;
  run->n_gen = (int) ng;
  run->depth = nd;
  /* pg tests (both set) and empty ones are no figure Headroom predicts */
  if ((np > 0) == (ng > 0))
    return TRUE;
  run->measured[np > 0 ? HR_MEASURE_PREFILL : HR_MEASURE_DECODE] = value;
  return bench_fields (run, get, data, error);
}

static gboolean
add_bench_run (GPtrArray *runs,
               HrRun     *run,
               GError   **error)
{
  if (!isfinite (run->measured[HR_MEASURE_DECODE]) && !isfinite (run->measured[HR_MEASURE_PREFILL]))
    {
      hr_run_free (run);
      return TRUE;
    }
  if (runs->len >= HR_RUNS_MAX_RUNS)
    {
      hr_run_free (run);
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_LIMIT, "more than %d runs", HR_RUNS_MAX_RUNS);
      return FALSE;
    }
  g_ptr_array_add (runs, run);
  return TRUE;
}

typedef struct
{
  GPtrArray *runs;
  GStrv header;
} Csv;

static gboolean
csv_line (const char *line,
          int         number,
          gpointer    data,
          GError    **error)
{
  Csv *csv = data;
  g_auto(GStrv) row = NULL;
  CsvRow r;
  HrRun *run;

  if (*line == '\0')
    return TRUE;
  row = split_csv (line);
  if (row == NULL)
    {
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID, "line %d: not a CSV record", number);
      return FALSE;
    }
  if (csv->header == NULL)
    {
      csv->header = g_steal_pointer (&row);
      return TRUE;
    }
  if (g_strv_length (row) != g_strv_length (csv->header))
    {
      g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                   "line %d: %u fields where the header has %u", number, g_strv_length (row),
                   g_strv_length (csv->header));
      return FALSE;
    }
  r.header = csv->header;
  r.row = row;
  run = hr_runs_run_new (HR_RUN_BENCH_CSV, number);
  if (!bench_test_fields (run, csv_get, &r, error))
    {
      hr_run_free (run);
      g_prefix_error (error, "line %d: ", number);
      return FALSE;
    }
  return add_bench_run (csv->runs, run, error);
}

GPtrArray *
hr_runs_parse_csv (const char *text,
           gsize       length,
           GError    **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  Csv csv = { runs, NULL };
  gboolean ok = hr_runs_each_line (text, length, csv_line, &csv, error);

  g_strfreev (csv.header);
  return ok ? g_steal_pointer (&runs) : NULL;
}

/* ---- llama-bench: JSON and JSONL -------------------------------------------------------- */

typedef struct
{
  JsonObject *object;
  char buf[64];
} JsonRow;

static const char *
json_get (gpointer    data,
          const char *name)
{
  JsonRow *r = data;
  JsonNode *node = json_object_get_member (r->object, name);
  double v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return json_node_get_string (node);
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (node) ? "true" : "false";
    default:
      if (!hr_json_node_get_number (node, &v))
        return NULL;
      /* integers as integers ("-1", "4677120000"), fractions with their digits */
      if (v == floor (v) && fabs (v) < 1e15)
        g_snprintf (r->buf, sizeof r->buf, "%.0f", v);
      else
        g_ascii_formatd (r->buf, sizeof r->buf, "%.17g", v);
      return r->buf;
    }
}

static gboolean
json_runs (JsonNode   *root,
           GPtrArray  *runs,
           int         base,
           GError    **error)
{
  JsonArray *array = NULL;
  guint n;

  if (JSON_NODE_HOLDS_ARRAY (root))
    array = json_node_get_array (root);
  n = array ? json_array_get_length (array) : 1;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = array ? json_array_get_element (array, i) : root;
      JsonRow r;
      HrRun *run;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID, "run %u is not an object", base + i + 1);
          return FALSE;
        }
      r.object = json_node_get_object (node);
      run = hr_runs_run_new (HR_RUN_BENCH_JSON, base + i + 1);
      if (!bench_test_fields (run, json_get, &r, error))
        {
          hr_run_free (run);
          g_prefix_error (error, "run %u: ", base + i + 1);
          return FALSE;
        }
      if (!add_bench_run (runs, run, error))
        return FALSE;
    }
  return TRUE;
}

GPtrArray *
hr_runs_parse_json (const char *text,
            gsize       length,
            gboolean    lines,
            GError    **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  const char *p = text, *end = text + length;
  int index = 0;

  while (p < end)
    {
      const char *stop = lines ? memchr (p, '\n', end - p) : NULL;
      g_autoptr(JsonParser) parser = NULL;
      g_autoptr(GError) local = NULL;
      gsize n;

      if (stop == NULL)
        stop = end;
      n = stop - p;
      while (n > 0 && g_ascii_isspace (p[n - 1]))
        n--;
      if (n > 0)
        {
          parser = hr_json_parse (p, n, 8, HR_RUNS_JSON_MAX_VALUES, &local);
          if (parser == NULL)
            {
              g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID, "not llama-bench JSON: %s",
                           local->message);
              return NULL;
            }
          if (!json_runs (json_parser_get_root (parser), runs, index, error))
            return NULL;
          index = runs->len;
        }
      p = stop < end ? stop + 1 : end;
    }
  return g_steal_pointer (&runs);
}
