/* hr-cli-fit.c — `headroom-cli fit`: what runs on this hardware, best first */
#include "hr-cli-fit.h"
#include "hr-cli-common.h"
#include "hr-chart-data.h"
#include "hr-chart-export.h"
#include "hr-json-writer.h"
#include "hr-units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>

void
hr_cli_fit_args_init (HrCliFitArgs *a)
{
  memset (a, 0, sizeof *a);
  a->gpus = -1;
  a->batch = 1;
  a->reserve_pct = HR_DEFAULT_RESERVE * 100;
  a->limit = 0;
}

void
hr_cli_fit_args_clear (HrCliFitArgs *a)
{
  g_free (a->gpu);
  g_free (a->gpu_custom);
  g_free (a->context);
  g_free (a->use_case);
  g_free (a->engine);
  g_free (a->sort);
  g_free (a->kv_type);
  g_free (a->mmproj);
  g_free (a->out);
  memset (a, 0, sizeof *a);
}

void
hr_cli_fit_add_options (GOptionContext *ctx,
                        HrCliFitArgs   *a)
{
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &a->gpu, "GPU id (see: list gpus), or this", "ID|this" },
    { "gpu-custom", 0, 0, G_OPTION_ARG_STRING, &a->gpu_custom,
      "Custom GPU: memory_gib=..,bandwidth_gbs=..,fp16_tflops=..[,unified=true]", "SPEC" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &a->gpus, "Number of GPUs (tensor parallel)", "N" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &a->context, "Minimum context in tokens (8192, 32k)", "N" },
    { "min-tps", 0, 0, G_OPTION_ARG_DOUBLE, &a->min_tps, "Minimum decode tokens/s per sequence", "N" },
    { "batch", 0, 0, G_OPTION_ARG_INT, &a->batch, "Concurrent sequences (1)", "N" },
    { "use-case", 0, 0, G_OPTION_ARG_STRING, &a->use_case, "general|coding|chat: which quality figure ranks", "U" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &a->engine, hr_cli_engine_choices (), "E" },
    { "kv-type", 0, 0, G_OPTION_ARG_STRING, &a->kv_type, "KV cache: f16|fp8|q8_0|q4_0", "T" },
    { "mmproj", 0, 0, G_OPTION_ARG_STRING, &a->mmproj,
      "Vision projectors: auto (default: count each model's own where llama.cpp loads one) or none", "auto|none" },
    { "reserve-pct", 0, 0, G_OPTION_ARG_DOUBLE, &a->reserve_pct, "Memory held back, percent (5)", "P" },
    { "ram", 0, 0, G_OPTION_ARG_DOUBLE, &a->ram_gib,
      "System RAM beside the GPU, GiB, for MoE expert offload (--gpu this: detected)", "GIB" },
    { "free-memory", 0, 0, G_OPTION_ARG_NONE, &a->free_memory,
      "With --gpu this: rank against the memory free now, not the total", NULL },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &a->sort, "quality|speed|size|context (quality)", "S" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &a->limit, "Show at most N models that fit", "N" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &a->csv, "CSV output", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
}

#define usage(error, ...) \
  (g_set_error ((error), HR_CLI_ERROR, HR_CLI_ERROR_USAGE, __VA_ARGS__), FALSE)

gboolean
hr_cli_fit_resolve (const HrCliFitArgs *a,
                    const HrCatalog    *catalog,
                    HrCliFit           *out,
                    GError            **error)
{
  const HrGpu *gpu = NULL;
  int n_this = 1;
  g_autoptr(GError) local = NULL;
  HrScenario *s = &out->base;

  memset (out, 0, sizeof *out);
  out->this_used = NAN;
  hr_fit_needs_init (&out->needs);
  if ((a->gpu != NULL) == (a->gpu_custom != NULL))
    return usage (error, "choose the hardware with --gpu ID|this or --gpu-custom SPEC");
  if (a->gpu_custom != NULL)
    {
      if ((out->owned_gpu = hr_gpu_new_from_spec (a->gpu_custom, &local)) == NULL)
        return usage (error, "%s", local->message);
      gpu = out->owned_gpu;
    }
  else if (g_str_equal (a->gpu, "this"))
    {
      if ((out->owned_gpu = hr_cli_detect_device (catalog, a->free_memory, &n_this, &out->this_used,
                                                  error)) == NULL)
        return FALSE;
      out->this_gpu = TRUE;
      gpu = out->owned_gpu;
    }
  else if ((gpu = hr_cli_find_gpu (catalog, a->gpu, error)) == NULL)
    return FALSE;

  /* the hardware and engine of every row; the model, quant and context are the rows' own */
  hr_scenario_init (s, hr_catalog_get_model (catalog, 0), gpu);
  s->n_gpus = a->gpus >= 0 ? a->gpus : out->this_gpu ? MAX (n_this, 1) : 1;
  s->batch = a->batch;
  s->reserve = a->reserve_pct / 100.0;
  if (a->engine && !hr_cli_engine_parse (a->engine, &s->engine, error))
    return FALSE;
  /* every model with its own vision projector, as `estimate` and the Size view count it (#31) */
  s->mmproj_mode = HR_MMPROJ_AUTO;
  if (a->mmproj != NULL && (!hr_mmproj_mode_from_string (a->mmproj, &s->mmproj_mode)
                            || s->mmproj_mode == HR_MMPROJ_FILE))
    return usage (error, "--mmproj: “%s” is not auto or none", a->mmproj);
  if (a->kv_type && !hr_kv_type_from_string (a->kv_type, &s->kv_type))
    return usage (error, "--kv-type: unknown type “%s” (f16, fp8, q8_0, q4_0)", a->kv_type);
  if (a->context && !hr_parse_context (a->context, &out->needs.min_context))
    return usage (error, "--context: “%s” is not a token count (e.g. 8192 or 32k)", a->context);
  s->context = out->needs.min_context;
  if (!hr_scenario_validate (s, &local))
    return usage (error, "%s", local->message);
  if (!(a->min_tps >= 0) || !isfinite (a->min_tps))
    return usage (error, "--min-tps must be a speed of 0 or more tokens/s");
  out->needs.min_decode_tps = a->min_tps;
  if (a->use_case && !hr_use_case_from_string (a->use_case, &out->needs.use_case))
    return usage (error, "--use-case: unknown use case “%s” (general, coding, chat)", a->use_case);
  if (a->sort && !hr_fit_sort_from_string (a->sort, &out->needs.sort))
    return usage (error, "--sort: unknown order “%s” (quality, speed, size, context)", a->sort);
  if (a->limit < 0)
    return usage (error, "--limit must be 0 (all) or more");
  if (!(a->ram_gib >= 0) || a->ram_gib > 1e6)
    return usage (error, "--ram must be a size in GiB");
  out->needs.host_ram_gib = a->ram_gib;
  return TRUE;
}

void
hr_cli_fit_clear (HrCliFit *f)
{
  g_clear_pointer (&f->owned_gpu, hr_gpu_free);
  g_clear_pointer (&f->rows, g_array_unref);
}

GArray *
hr_cli_fit_rank (HrCliFit        *f,
                 const HrCatalog *catalog,
                 GError         **error)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  const HrQuality *quality = hr_quality_get_default (error);

  if (quality == NULL)
    return NULL;
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  f->quality = quality;
  f->rows = hr_fit_rank (&f->base, models, catalog, quality, &f->needs);
  return f->rows;
}

/* ---- output ------------------------------------------------------------------------------ */

static const char *
fit_word (const HrFitChoice *c)
{
  if (c->scenario.n_cpu_moe > 0)
    return "offload";
  return hr_verdict_to_string (c->estimate.verdict);
}

static void
json_choice (HrJsonWriter      *w,
             const char        *key,
             const HrFitChoice *c)
{
  hr_json_key (w, key);
  if (c->quant == NULL)
    {
      hr_json_null (w);
      return;
    }
  hr_json_begin_object (w);
  hr_json_member_string (w, "quant", c->quant->id);
  hr_json_member_int (w, "context", c->scenario.context);
  hr_json_member_int (w, "n_cpu_moe", c->scenario.n_cpu_moe);
  hr_json_member_string (w, "verdict", hr_verdict_to_string (c->estimate.verdict));
  hr_json_gib_bytes (w, "required", c->estimate.required_bytes);
  hr_json_gib_bytes (w, "usable", c->estimate.usable_bytes);
  hr_json_gib_bytes (w, "margin", c->estimate.margin_bytes);
  hr_json_gib_bytes (w, "system_ram", c->estimate.system_ram_bytes);
  hr_json_member_int (w, "max_context", c->max_context);
  hr_json_member_number (w, "decode_tps", c->estimate.decode_tps, 1);
  hr_json_member_number (w, "prefill_tps", c->estimate.prefill_tps, 0);
  hr_json_member_number (w, "quality", c->quality, 2);
  hr_json_end_object (w);
}

static void
json_row (HrJsonWriter     *w,
          const HrFitRow   *r,
          const HrFitNeeds *needs)
{
  g_autofree char *why = NULL;
  HrCNumeric cn;

  hr_c_numeric_begin (&cn);
  why = hr_fit_reason_text (r, needs);
  hr_c_numeric_end (&cn);
  hr_json_begin_object (w);
  hr_json_member_string (w, "model", r->model->id);
  hr_json_member_string (w, "name", r->model->name);
  hr_json_member_number (w, "total_params_b", r->model->total_params / 1e9, 2);
  hr_json_member_bool (w, "fits", hr_fit_row_listed (r));
  json_choice (w, "choice", &r->choice);
  json_choice (w, "tight", &r->tight);
  json_choice (w, "offload", &r->offload);
  hr_json_key (w, "published_quality");
  if (r->score == NULL)
    hr_json_null (w);
  else
    {
      hr_json_begin_object (w);
      hr_json_member_number_g (w, "value", r->score->value);
      hr_json_member_string (w, "metric", r->score->metric);
      hr_json_member_string (w, "variant", r->score->variant);
      hr_json_member_string (w, "source", r->score->source);
      hr_json_member_string (w, "date", r->score->date);
      hr_json_end_object (w);
    }
  hr_json_member_string (w, "left_out_because", why);
  hr_json_end_object (w);
}

static void
write_json (GString        *out,
            const HrCliFit *f,
            int             limit)
{
  HrJsonWriter w;
  int shown = 0;
  g_autofree char *gpu_name = hr_gpu_data_name (f->base.gpu);

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "gpu", f->base.gpu->id);
  hr_json_member_string (&w, "gpu_name", gpu_name);
  hr_json_member_int (&w, "gpus", f->base.n_gpus);
  hr_json_member_string (&w, "engine", hr_engine_to_string (f->base.engine));
  hr_json_member_int (&w, "min_context", f->needs.min_context);
  hr_json_member_number (&w, "min_decode_tps", f->needs.min_decode_tps, 1);
  hr_json_member_int (&w, "batch", f->base.batch);
  hr_json_member_string (&w, "use_case", hr_use_case_to_string (f->needs.use_case));
  hr_json_member_string (&w, "sort", hr_fit_sort_to_string (f->needs.sort));
  hr_json_member_string (&w, "quality_note",
                         "published figure × (1 + mean Δp of the quant against FP16, llama.cpp's "
                         "LLaMA 3 8B scoreboard); null when the model or the quant has none");
  hr_json_key (&w, "models");
  hr_json_begin_array (&w);
  for (guint i = 0; i < f->rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (f->rows, HrFitRow, i);

      if (hr_fit_row_listed (r) && limit > 0 && shown++ >= limit)
        continue;
      json_row (&w, r, &f->needs);
    }
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  g_string_append_c (out, '\n');
}

static void
csv_field (GString    *out,
           const char *text)
{
  gboolean quote = text != NULL && strpbrk (text, ",\"\n") != NULL;

  if (text == NULL)
    return;
  if (quote)
    g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  if (quote)
    g_string_append_c (out, '"');
}

static void
csv_number (GString *out,
            double   value,
            int      decimals)
{
  char buf[64];

  if (isfinite (value))
    g_string_append (out, hr_format_number_c_buf (buf, sizeof buf, value, decimals));
}

static void
write_csv (GString        *out,
           const HrCliFit *f,
           int             limit)
{
  int shown = 0;

  g_string_append (out, "model,fits,quant,context,n_cpu_moe,verdict,required_gib,usable_gib,margin_gib,"
                        "max_context,decode_tps,prefill_tps,quality,left_out_because\n");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (f->rows, HrFitRow, i);
      const HrFitChoice *c = &r->choice;
      g_autofree char *why = NULL;
      HrCNumeric cn;

      if (hr_fit_row_listed (r) && limit > 0 && shown++ >= limit)
        continue;
      hr_c_numeric_begin (&cn);
      why = hr_fit_reason_text (r, &f->needs);
      hr_c_numeric_end (&cn);
      csv_field (out, r->model->id);
      g_string_append (out, hr_fit_row_listed (r) ? ",true," : ",false,");
      if (c->quant != NULL)
        {
          g_string_append_printf (out, "%s,%" G_GINT64_FORMAT ",%d,%s,", c->quant->id, c->scenario.context,
                                  c->scenario.n_cpu_moe, hr_verdict_to_string (c->estimate.verdict));
          csv_number (out, hr_to_gib (c->estimate.required_bytes), 2);
          g_string_append_c (out, ',');
          csv_number (out, hr_to_gib (c->estimate.usable_bytes), 2);
          g_string_append_c (out, ',');
          csv_number (out, hr_to_gib (c->estimate.margin_bytes), 2);
          g_string_append_printf (out, ",%" G_GINT64_FORMAT ",", c->max_context);
          csv_number (out, c->estimate.decode_tps, 1);
          g_string_append_c (out, ',');
          csv_number (out, c->estimate.prefill_tps, 0);
          g_string_append_c (out, ',');
          csv_number (out, c->quality, 2);
          g_string_append_c (out, ',');
        }
      else
        g_string_append (out, ",,,,,,,,,,,");
      csv_field (out, why);
      g_string_append_c (out, '\n');
    }
}

static void
text_choice_line (GString           *out,
                  int                rank,
                  const HrFitRow    *r,
                  const HrFitChoice *c,
                  gboolean           alternative)
{
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], d[HR_CLI_NUM_SIZE], e[HR_CLI_NUM_SIZE];
  char q[HR_CLI_NUM_SIZE], rk[16];
  /* whole K as the Size view's cards show a context; the JSON keeps the exact tokens */
  g_autofree char *ctx = hr_format_context_short (c->max_context >= 2048 ? c->max_context / 1024 * 1024
                                                                         : c->max_context);
  g_autofree char *quant = c->scenario.n_cpu_moe > 0
    ? g_strdup_printf ("%s --n-cpu-moe %d", c->quant->id, c->scenario.n_cpu_moe)
    : g_strdup (c->quant->id);

  if (alternative)
    g_snprintf (rk, sizeof rk, "%4s", "");
  else
    g_snprintf (rk, sizeof rk, "%3d.", rank);
  g_string_append_printf (out, "%s ", rk);
  hr_cli_append_padded (out, alternative ? (c->scenario.n_cpu_moe > 0 ? "  or, experts in RAM:" : "  or, tight:")
                                         : r->model->name, -30);
  g_string_append_c (out, ' ');
  hr_cli_append_padded (out, quant, -24);
  g_string_append_printf (out, " %-7s %s %s %s %s %s\n", fit_word (c), hr_cli_pad (q, sizeof q, ctx, 7),
                          hr_cli_number (a, c->estimate.decode_tps, 1, 7),
                          hr_cli_number (b, c->estimate.prefill_tps, 0, 8),
                          hr_cli_number (d, hr_to_gib (c->estimate.margin_bytes), 1, 7),
                          isfinite (c->quality) ? hr_cli_number (e, c->quality, 1, 7)
                                                : hr_cli_pad (e, sizeof e, "unknown", 7));
}

static void
write_text (GString        *out,
            const HrCliFit *f,
            int             limit)
{
  g_autofree char *ctx = hr_format_context_short (f->needs.min_context);
  char u[HR_CLI_NUM_SIZE], t[HR_CLI_NUM_SIZE];
  const HrQualityMetric *metric = NULL;
  int shown = 0, rank = 0;
  gboolean any_out = FALSE;
  double usable = NAN;
  g_autofree char *speed = NULL;

  for (guint i = 0; i < f->rows->len && !isfinite (usable); i++)
    {
      const HrFitRow *r = &g_array_index (f->rows, HrFitRow, i);
      if (r->choice.quant != NULL)
        usable = hr_to_gib (r->choice.estimate.usable_bytes);
      else if (r->why == HR_FIT_WHY_MEMORY)
        usable = r->why_usable_gib;
    }
  speed = f->needs.min_decode_tps > 0
    ? g_strdup_printf (", at least %s tokens/s", hr_cli_number (t, f->needs.min_decode_tps, 1, 0))
    : g_strdup ("");

  g_string_append_printf (out, "What runs on %d× %s (%s, at least %s of context, %d sequence%s%s; %s GiB usable)\n",
                          f->base.n_gpus, f->base.gpu->name, hr_engine_display_name (f->base.engine), ctx,
                          f->base.batch, f->base.batch == 1 ? "" : "s", speed,
                          hr_cli_number (u, usable, 1, 0));
  for (guint i = 0; i < hr_quality_n_scores (f->quality) && metric == NULL; i++)
    {
      const HrQualityScore *s = hr_quality_get_score (f->quality, i);
      if (s->use_case == f->needs.use_case)
        metric = hr_quality_metric (f->quality, s->metric);
    }
  g_string_append_printf (out, "Quality (%s): %s, × the quant's cost (1 + mean Δp against FP16, llama.cpp's LLaMA 3 8B scoreboard); unknown where none is published.\n\n",
                          hr_use_case_to_string (f->needs.use_case), metric ? metric->name : "no published figures");
  g_string_append_printf (out, "%4s %-30s %-24s %-7s %7s %7s %8s %7s %7s\n", "#", "model", "quant", "fit",
                          "max ctx", "tok/s", "prefill", "margin", "quality");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (f->rows, HrFitRow, i);

      if (!hr_fit_row_listed (r))
        {
          any_out = TRUE;
          continue;
        }
      if (limit > 0 && shown++ >= limit)
        continue;
      text_choice_line (out, ++rank, r, &r->choice, FALSE);
      if (r->tight.quant != NULL)
        text_choice_line (out, rank, r, &r->tight, TRUE);
      if (r->offload.quant != NULL)
        text_choice_line (out, rank, r, &r->offload, TRUE);
    }
  if (rank == 0)
    g_string_append (out, "     (no model fits)\n");
  if (!any_out)
    return;
  g_string_append (out, "\nDoes not fit:\n");
  for (guint i = 0; i < f->rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (f->rows, HrFitRow, i);
      g_autofree char *why = NULL;

      if (hr_fit_row_listed (r))
        continue;
      why = hr_fit_reason_text (r, &f->needs);
      g_string_append (out, "     ");
      hr_cli_append_padded (out, r->model->name, -30);
      g_string_append_printf (out, " %s\n", why);
    }
}

int
hr_cli_fit (int              argc,
            char           **argv,
            const HrCatalog *catalog)
{
  HrCliFitArgs a;
  HrCliFit f = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GOptionContext) ctx = g_option_context_new ("");
  int rc = 0;

  hr_cli_fit_args_init (&a);
  g_option_context_set_summary (ctx, "The catalog's models that run on this hardware, best first.");
  {
    const GOptionEntry json[] = { HR_CLI_JSON_OPTION (a.json), { NULL } };
    g_option_context_add_main_entries (ctx, json, NULL);
  }
  hr_cli_fit_add_options (ctx, &a);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    rc = hr_cli_usage_error ("headroom-cli", "%s", error->message);
  else if (argc > 1)
    rc = hr_cli_usage_error ("headroom-cli", "unexpected argument “%s”", argv[1]);
  else if (a.json && a.csv)
    rc = hr_cli_usage_error ("headroom-cli", "--json and --csv exclude each other");
  else if (!hr_cli_fit_resolve (&a, catalog, &f, &error) || hr_cli_fit_rank (&f, catalog, &error) == NULL)
    rc = hr_cli_fail (error);
  else
    {
      if (a.json)
        write_json (out, &f, a.limit);
      else if (a.csv)
        write_csv (out, &f, a.limit);
      else
        {
          g_autofree char *note = NULL;
          write_text (out, &f, a.limit);
          if (f.this_gpu && isfinite (f.this_used) && f.this_used > 0)
            {
              char used[HR_CLI_NUM_SIZE];
              g_string_append_printf (out, "\nThis computer: the desktop and other programs already use %s GiB%s.\n",
                                      hr_cli_number (used, hr_to_gib (f.this_used), 2, 0),
                                      a.free_memory ? " (ranked against the memory free now)"
                                                    : "; --free-memory ranks against the memory free now");
            }
        }
      fputs (out->str, stdout);
    }
  hr_cli_fit_clear (&f);
  hr_cli_fit_args_clear (&a);
  return rc;
}

/* ---- chart fit ----------------------------------------------------------------------------- */

int
hr_cli_fit_chart (int              argc,
                  char           **argv,
                  const HrCatalog *catalog)
{
  HrCliFitArgs a;
  HrCliFit f = { 0 };
  int width = 1200, height = 760;
  double scale = 1.0;
  char *theme = NULL;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Output file (.png, .svg, .pdf)", "FILE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Logical width (1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Logical height (760)", "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "PNG pixels per logical unit (1)", "S" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, "light|dark", "T" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) ctx = g_option_context_new ("fit");
  g_autofree HrChartFit *data = g_new0 (HrChartFit, 1);
  HrChartFormat format;
  const HrQualityMetric *metric = NULL;
  int rc = 0;

  hr_cli_fit_args_init (&a);
  g_option_context_set_summary (ctx, "Quality against decode speed of every catalog model that runs on "
                                     "this hardware, the frontier drawn.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  hr_cli_fit_add_options (ctx, &a);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    rc = hr_cli_usage_error ("headroom-cli", "%s", error->message);
  else if (argc > 2)
    rc = hr_cli_usage_error ("headroom-cli", "chart: unexpected argument “%s”", argv[2]);
  else if (a.out == NULL)
    rc = hr_cli_usage_error ("headroom-cli", "chart: --out FILE is required (.png, .svg or .pdf)");
  else if (!hr_chart_format_from_path (a.out, &format))
    rc = hr_cli_usage_error ("headroom-cli", "--out: “%s” does not end in .png, .svg or .pdf", a.out);
  else if (width < 1 || width > HR_CHART_EXPORT_MAX_SIDE || height < 1 || height > HR_CHART_EXPORT_MAX_SIDE)
    rc = hr_cli_usage_error ("headroom-cli", "--width and --height must be 1 to %d", HR_CHART_EXPORT_MAX_SIDE);
  else if (!isfinite (scale) || scale <= 0 || scale > HR_CHART_EXPORT_MAX_SCALE ||
           (format == HR_CHART_FORMAT_PNG && round (width * scale) * round (height * scale) > HR_CHART_EXPORT_MAX_PIXELS))
    rc = hr_cli_usage_error ("headroom-cli", "--scale: %g is out of range", scale);
  else if (theme != NULL && !g_str_equal (theme, "light") && !g_str_equal (theme, "dark"))
    rc = hr_cli_usage_error ("headroom-cli", "--theme: unknown theme “%s” (light, dark)", theme);
  else if (!hr_cli_fit_resolve (&a, catalog, &f, &error) || hr_cli_fit_rank (&f, catalog, &error) == NULL)
    rc = hr_cli_fail (error);
  else
    {
      for (guint i = 0; i < hr_quality_n_scores (f.quality) && metric == NULL; i++)
        {
          const HrQualityScore *s = hr_quality_get_score (f.quality, i);
          if (s->use_case == f.needs.use_case)
            metric = hr_quality_metric (f.quality, s->metric);
        }
      hr_chart_fit_from_rows (f.rows, &f.base, metric ? metric->name : NULL, data);
      if (!hr_chart_export (&(HrChartPage) { HR_CHART_FIT, data,
                                             g_strcmp0 (theme, "dark") == 0 ? hr_chart_theme_dark ()
                                                                            : hr_chart_theme_light (),
                                             width, height, scale },
                            a.out, &error))
        {
          hr_cli_print_error ("headroom-cli", error->message);
          rc = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT) ? 2 : 1;
        }
    }
  pango_cairo_font_map_set_default (NULL);
  g_free (theme);
  hr_cli_fit_clear (&f);
  hr_cli_fit_args_clear (&a);
  return rc;
}
