/* test-fit.c — "what runs here": the ranking against hr_estimate_compute(), the reasons, the
 * frontier and the bundled quality data */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-fit.h"
#include "hr-quality.h"
#include "hr-units.h"

static HrCatalog *catalog;

static GPtrArray *
all_models (void)
{
  GPtrArray *models = g_ptr_array_new ();

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  return models;
}

static GArray *
rank_on (const char       *gpu_id,
         int               n_gpus,
         HrEngine          engine,
         const HrFitNeeds *needs_in)
{
  g_autoptr(GPtrArray) models = all_models ();
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, gpu_id);
  HrFitNeeds needs;
  HrScenario base;

  g_assert_nonnull (gpu);
  if (needs_in)
    needs = *needs_in;
  else
    hr_fit_needs_init (&needs);
  hr_scenario_init (&base, hr_catalog_get_model (catalog, 0), gpu);
  base.n_gpus = n_gpus;
  base.engine = engine;
  return hr_fit_rank (&base, models, catalog, hr_quality_get_default (NULL), &needs);
}

static const HrFitRow *
find_row (GArray     *rows,
          const char *model_id)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_str_equal (g_array_index (rows, HrFitRow, i).model->id, model_id))
      return &g_array_index (rows, HrFitRow, i);
  g_assert_not_reached ();
  return NULL;
}

/* A choice against `estimate` for the same model, quant, context and hardware: a scenario built
 * from scratch as the CLI builds one, estimated again. */
static void
check_choice (const HrFitChoice *c,
              const HrModel     *model,
              const char        *gpu_id,
              int                n_gpus,
              HrEngine           engine,
              gint64             context)
{
  HrScenario s;
  HrEstimate e;

  if (c->quant == NULL)
    return;
  hr_scenario_init (&s, model, hr_catalog_find_gpu (catalog, gpu_id));
  s.n_gpus = n_gpus;
  s.engine = engine;
  s.context = context;
  s.n_cpu_moe = c->scenario.n_cpu_moe;
  g_strlcpy (s.quant, c->quant->id, sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, ==, c->estimate.verdict);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpfloat (e.required_bytes, ==, c->estimate.required_bytes);
  g_assert_cmpfloat (e.usable_bytes, ==, c->estimate.usable_bytes);
  g_assert_cmpfloat (e.decode_tps, ==, c->estimate.decode_tps);
  g_assert_true (e.prefill_tps == c->estimate.prefill_tps ||
                 (isnan (e.prefill_tps) && isnan (c->estimate.prefill_tps)));
  g_assert_cmpint (c->scenario.context, ==, context);
  g_assert_true (c->scenario.model == model);
  g_assert_cmpint (c->max_context, ==, hr_advice_max_context (&s));
  g_assert_cmpint (c->max_context, >=, context);
}

static void
check_setup (const char *gpu_id,
             int         n_gpus,
             HrEngine    engine)
{
  g_autoptr(GArray) rows = rank_on (gpu_id, n_gpus, engine, NULL);
  g_autoptr(GPtrArray) quants = hr_advice_quant_candidates (engine, catalog);
  gboolean seen_out = FALSE;
  guint listed = 0;

  g_assert_cmpuint (rows->len, ==, hr_catalog_n_models (catalog));
  for (guint i = 0; i < rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (rows, HrFitRow, i);

      if (!hr_fit_row_listed (r))
        {
          seen_out = TRUE;
          g_assert_cmpint (r->why, !=, HR_FIT_WHY_NONE);
          continue;
        }
      /* every listed row comes before every row left out */
      g_assert_false (seen_out);
      listed++;
      g_assert_cmpint (r->why, ==, HR_FIT_WHY_NONE);
      check_choice (&r->choice, r->model, gpu_id, n_gpus, engine, HR_FIT_DEFAULT_CONTEXT);
      check_choice (&r->tight, r->model, gpu_id, n_gpus, engine, HR_FIT_DEFAULT_CONTEXT);
      check_choice (&r->offload, r->model, gpu_id, n_gpus, engine, HR_FIT_DEFAULT_CONTEXT);
      if (r->tight.quant != NULL)
        {
          g_assert_cmpint (r->tight.estimate.verdict, ==, HR_VERDICT_TIGHT);
          g_assert_cmpfloat (r->tight.quant->nominal_bpw, >, r->choice.quant->nominal_bpw);
        }
      /* the choice is the highest quant that fits with margin: every higher one does not */
      if (r->choice.scenario.n_cpu_moe == 0 && r->choice.estimate.verdict == HR_VERDICT_FITS)
        for (guint q = 0; q < quants->len; q++)
          {
            const HrQuantMix *mix = g_ptr_array_index (quants, q);
            HrScenario s = r->choice.scenario;
            HrEstimate e;

            if (mix->nominal_bpw <= r->choice.quant->nominal_bpw)
              break;
            g_strlcpy (s.quant, mix->id, sizeof s.quant);
            g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
            g_assert_cmpint (e.verdict, !=, HR_VERDICT_FITS);
          }
    }
  g_assert_cmpuint (listed, >, 0);
}

static void
test_rows_match_estimate (void)
{
  check_setup ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP);
  check_setup ("h100-80gb-sxm", 2, HR_ENGINE_VLLM);
  check_setup ("m3-max-128gb", 1, HR_ENGINE_LLAMA_CPP);
}

static void
test_lower_quant_and_reasons (void)
{
  g_autoptr(GArray) rows = rank_on ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, NULL);
  const HrFitRow *r = find_row (rows, "qwen3-32b");
  const HrFitRow *big = find_row (rows, "deepseek-v3");
  g_autofree char *why = NULL;
  HrScenario s;
  HrEstimate e;

  /* a 32B model does not fit at Q8_0 on 24 GiB: listed at a lower quant */
  g_assert_true (hr_fit_row_listed (r));
  g_assert_cmpfloat (r->choice.quant->nominal_bpw, <, 8);
  s = r->choice.scenario;
  g_strlcpy (s.quant, "Q8_0", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);

  /* a 671B model fits nowhere: left out, with the figures of its smallest quant */
  g_assert_false (hr_fit_row_listed (big));
  g_assert_cmpint (big->why, ==, HR_FIT_WHY_MEMORY);
  g_assert_cmpfloat (big->why_required_gib, >, big->why_usable_gib);
  why = hr_fit_reason_text (big, &(HrFitNeeds) { .min_context = 8192 });
  g_assert_true (g_str_has_prefix (why, "needs "));
  g_assert_nonnull (strstr (why, big->why_quant->id));
  g_assert_nonnull (strstr (why, "GiB usable"));
  g_assert_null (hr_fit_reason_text (r, &(HrFitNeeds) { .min_context = 8192 }));
}

static void
test_unknown_quality (void)
{
  g_autoptr(GArray) rows = rank_on ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, NULL);
  /* Qwen3.5 27B: no figure in the one source the general ranking uses (data/CATALOG-FORMAT.md) */
  const HrFitRow *unknown = find_row (rows, "qwen3.5-27b");
  const HrFitRow *known = find_row (rows, "qwen3.6-27b");
  gboolean seen_unknown = FALSE;

  g_assert_null (unknown->score);
  g_assert_true (isnan (unknown->choice.quality));
  g_assert_nonnull (known->score);
  g_assert_cmpfloat (known->score->value, ==, 45.8);
  /* the quant costs quality: the published figure × the quant's factor */
  g_assert_cmpfloat (known->choice.quality, ==,
                     hr_quality_at_quant (hr_quality_get_default (NULL), known->model,
                                          known->choice.quant->id, 45.8));
  g_assert_cmpfloat (known->choice.quality, <, 45.8);
  /* ranked apart: every known quality before every unknown one, best first */
  for (guint i = 0; i < rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (rows, HrFitRow, i);
      if (!hr_fit_row_listed (r))
        break;
      if (isnan (r->choice.quality))
        seen_unknown = TRUE;
      else
        {
          g_assert_false (seen_unknown);
          if (i > 0)
            g_assert_cmpfloat (r->choice.quality, <=, g_array_index (rows, HrFitRow, i - 1).choice.quality);
        }
    }
  g_assert_true (seen_unknown);
}

static void
test_needs (void)
{
  HrFitNeeds needs;
  g_autoptr(GArray) fast = NULL;
  g_autoptr(GArray) longctx = NULL;
  const HrFitRow *r;

  /* a minimum speed: a 32B dense model decodes at about 40 tokens/s on a 4090 */
  hr_fit_needs_init (&needs);
  needs.min_decode_tps = 100;
  fast = rank_on ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, &needs);
  r = find_row (fast, "qwen3-32b");
  g_assert_false (hr_fit_row_listed (r));
  g_assert_cmpint (r->why, ==, HR_FIT_WHY_SPEED);
  g_assert_cmpfloat (r->why_decode_tps, <, 100);
  for (guint i = 0; i < fast->len; i++)
    {
      const HrFitRow *x = &g_array_index (fast, HrFitRow, i);
      if (hr_fit_row_listed (x))
        g_assert_cmpfloat (x->choice.estimate.decode_tps, >=, 100);
    }

  /* a minimum context longer than a model's window: left out for that */
  hr_fit_needs_init (&needs);
  needs.min_context = 65536;
  needs.sort = HR_FIT_SORT_CONTEXT;
  longctx = rank_on ("h100-80gb-sxm", 1, HR_ENGINE_LLAMA_CPP, &needs);
  r = find_row (longctx, "phi-4");
  g_assert_cmpint (r->why, ==, HR_FIT_WHY_CONTEXT);
  for (guint i = 1; i < longctx->len; i++)
    {
      const HrFitRow *a = &g_array_index (longctx, HrFitRow, i - 1);
      const HrFitRow *b = &g_array_index (longctx, HrFitRow, i);
      if (hr_fit_row_listed (b))
        g_assert_cmpint (a->choice.max_context, >=, b->choice.max_context);
    }
}

static void
test_expert_offload (void)
{
  HrFitNeeds needs;
  g_autoptr(GArray) none = NULL;
  g_autoptr(GArray) rows = NULL;
  const HrFitRow *r;
  HrScenario s;
  HrEstimate e;

  /* gpt-oss-120b (MoE) does not fit on 24 GiB; with 128 GiB of RAM its experts can move there */
  none = rank_on ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_false (hr_fit_row_listed (find_row (none, "gpt-oss-120b")));
  hr_fit_needs_init (&needs);
  needs.host_ram_gib = 128;
  rows = rank_on ("rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, &needs);
  r = find_row (rows, "gpt-oss-120b");
  g_assert_true (hr_fit_row_listed (r));
  g_assert_cmpint (r->choice.scenario.n_cpu_moe, >, 0);
  g_assert_cmpint (r->choice.estimate.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpfloat (r->choice.estimate.system_ram_bytes, <=, 128 * HR_GIB);
  check_choice (&r->choice, r->model, "rtx-4090-24gb", 1, HR_ENGINE_LLAMA_CPP, 8192);
  /* the fewest layers: one fewer does not fit with margin */
  s = r->choice.scenario;
  s.n_cpu_moe--;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_FITS);
  /* a dense model is never offered an expert offload */
  g_assert_null (find_row (rows, "qwen3-32b")->offload.quant);
}

/* #31/#26: the ranking sizes each model with its own vision projector when the base's mode is
 * auto (as the Size view's switch and `estimate` do by default), without it when none: Gemma 3
 * 27B on an RTX 5090 32GB is Q6_K with its 0.91 GiB projector and Q8_0 without; a text model is
 * the same either way; vLLM loads no projector of its own; a projector file the base named is
 * its model's, never another's. */
static void
test_projector (void)
{
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-5090-32gb");
  const HrModel *gemma = hr_catalog_find_model (catalog, "gemma-3-27b");
  g_autoptr(GPtrArray) models = all_models ();
  HrFitNeeds needs;
  HrScenario base;
  g_autoptr(GArray) autos = NULL;
  g_autoptr(GArray) nones = NULL;
  g_autoptr(GArray) files = NULL;
  g_autoptr(GArray) served = NULL;
  const HrFitRow *a, *n;
  HrScenario t;
  HrEstimate e;

  g_assert_nonnull (gpu);
  g_assert_nonnull (gemma);
  g_assert_cmpfloat (gemma->mmproj_bytes, ==, 858000000);
  hr_fit_needs_init (&needs);
  hr_scenario_init (&base, hr_catalog_get_model (catalog, 0), gpu);
  base.mmproj_mode = HR_MMPROJ_AUTO;
  autos = hr_fit_rank (&base, models, catalog, hr_quality_get_default (NULL), &needs);
  base.mmproj_mode = HR_MMPROJ_NONE;
  nones = hr_fit_rank (&base, models, catalog, hr_quality_get_default (NULL), &needs);

  a = find_row (autos, "gemma-3-27b");
  n = find_row (nones, "gemma-3-27b");
  g_assert_cmpfloat (a->choice.estimate.mmproj_bytes, ==, 858000000);
  g_assert_cmpfloat (a->choice.estimate.mmproj_encode_bytes, >, 100 << 20);
  g_assert_cmpfloat (n->choice.estimate.mmproj_bytes, ==, 0);
  g_assert_cmpstr (a->choice.quant->id, ==, "Q6_K");
  g_assert_cmpstr (n->choice.quant->id, ==, "Q8_0");
  /* the row is `estimate --model gemma-3-27b` with the default --mmproj auto */
  t = a->choice.scenario;
  g_assert_cmpint (t.mmproj_mode, ==, HR_MMPROJ_AUTO);
  g_assert_true (hr_estimate_compute (&t, NULL, &e, NULL));
  g_assert_cmpfloat (e.required_bytes, ==, a->choice.estimate.required_bytes);
  t.mmproj_mode = HR_MMPROJ_NONE;
  g_assert_true (hr_estimate_compute (&t, NULL, &e, NULL));
  g_assert_cmpfloat_with_epsilon (a->choice.estimate.required_bytes - e.required_bytes,
                                  858000000 + a->choice.estimate.mmproj_encode_bytes, 1);

  /* a text-only model: no projector either way */
  g_assert_cmpfloat (find_row (autos, "llama-3.1-8b")->choice.estimate.mmproj_bytes, ==, 0);
  g_assert_cmpfloat (find_row (autos, "llama-3.1-8b")->choice.estimate.required_bytes, ==,
                     find_row (nones, "llama-3.1-8b")->choice.estimate.required_bytes);

  /* a file named for the base's model stays with it */
  base.model = gemma;
  base.mmproj_mode = HR_MMPROJ_FILE;
  base.mmproj_bytes = 5e8;
  base.mmproj_path = "/models/mmproj-gemma.gguf";
  files = hr_fit_rank (&base, models, catalog, hr_quality_get_default (NULL), &needs);
  g_assert_cmpfloat (find_row (files, "gemma-3-27b")->choice.estimate.mmproj_bytes, ==, 5e8);
  g_assert_cmpfloat (find_row (files, "gemma-3-4b")->choice.estimate.mmproj_bytes, ==, 0);
  g_assert_null (hr_scenario_mmproj_path (&find_row (files, "gemma-3-4b")->choice.scenario));

  /* vLLM builds the vision tower from the checkpoint: no projector of its own */
  hr_scenario_init (&base, hr_catalog_get_model (catalog, 0), hr_catalog_find_gpu (catalog, "h100-80gb-sxm"));
  base.engine = HR_ENGINE_VLLM;
  base.mmproj_mode = HR_MMPROJ_AUTO;
  served = hr_fit_rank (&base, models, catalog, hr_quality_get_default (NULL), &needs);
  g_assert_cmpfloat (find_row (served, "gemma-3-27b")->choice.estimate.mmproj_bytes, ==, 0);
}

static void
test_frontier (void)
{
  /*            A     B     C     D     E     F (unknown)  G (= C) */
  double q[] = { 40,   30,   20,   35,   10,   NAN,         20 };
  double v[] = { 10,   50,   60,   20,   55,   100,         60 };
  gboolean on[7];

  hr_fit_frontier (q, v, 7, on);
  g_assert_true (on[0]);   /* best quality */
  g_assert_true (on[1]);
  g_assert_true (on[2]);   /* fastest known */
  g_assert_true (on[3]);   /* 35 at 20: nothing is better on both */
  g_assert_false (on[4]);  /* C beats it on both */
  g_assert_false (on[5]);  /* unknown quality is never on it */
  g_assert_true (on[6]);   /* a tie is not beaten */
}

static gboolean
known_model (const char *id,
             gpointer    data)
{
  return hr_catalog_find_model (data, id) != NULL;
}

static void
test_quality_file (void)
{
  g_autoptr(GBytes) bytes = g_resources_lookup_data (HR_QUALITY_RESOURCE_PATH, 0, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrQuality) q = NULL;
  gsize size;
  const char *text;
  const char *metric_of[HR_N_USE_CASES] = { NULL };

  g_assert_nonnull (bytes);
  text = g_bytes_get_data (bytes, &size);
  q = hr_quality_parse (text, (gssize) size, "quality.json", known_model, catalog, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_quality_n_scores (q), >, 0);
  for (guint i = 0; i < hr_quality_n_scores (q); i++)
    {
      const HrQualityScore *s = hr_quality_get_score (q, i);
      const HrQualityMetric *m = hr_quality_metric (q, s->metric);

      /* one scale per ranking: every figure of a use case is of the same metric */
      if (metric_of[s->use_case] == NULL)
        metric_of[s->use_case] = s->metric;
      g_assert_cmpstr (s->metric, ==, metric_of[s->use_case]);
      g_assert_nonnull (s->variant);

      g_assert_nonnull (hr_catalog_find_model (catalog, s->model));
      g_assert_nonnull (m);
      g_assert_cmpfloat (s->value, >=, m->min);
      g_assert_cmpfloat (s->value, <=, m->max);
      g_assert_true (g_str_has_prefix (s->source, "https://"));
      g_assert_cmpuint (strlen (s->date), ==, 10);
    }
  /* every use case the view offers has published figures */
  for (int u = 0; u < HR_N_USE_CASES; u++)
    g_assert_nonnull (metric_of[u]);
  for (guint i = 0; i < hr_quality_n_costs (q); i++)
    {
      const HrQuantCost *c = hr_quality_get_cost (q, i);
      g_assert_nonnull (hr_catalog_find_quant (catalog, c->quant));
      g_assert_cmpfloat (c->factor, >, 0);
      g_assert_cmpfloat (c->factor, <=, 1);
      g_assert_true (g_str_has_prefix (c->source, "https://"));
      g_assert_cmpuint (strlen (c->date), ==, 10);
    }
  /* lower bits cost more */
  g_assert_cmpfloat (hr_quality_quant_cost (q, "Q2_K")->factor, <, hr_quality_quant_cost (q, "Q4_K_M")->factor);
  g_assert_cmpfloat (hr_quality_quant_cost (q, "Q4_K_M")->factor, <, hr_quality_quant_cost (q, "Q8_0")->factor);
  /* 16 bits and the model's own format cost nothing; an unmeasured quant is unknown */
  g_assert_cmpfloat (hr_quality_at_quant (q, hr_catalog_find_model (catalog, "qwen3-8b"), "BF16", 40), ==, 40);
  g_assert_cmpfloat (hr_quality_at_quant (q, hr_catalog_find_model (catalog, "gpt-oss-20b"), "MXFP4", 40), ==, 40);
  g_assert_true (isnan (hr_quality_at_quant (q, hr_catalog_find_model (catalog, "qwen3-8b"), "UD-Q2_K_XL", 40)));
}

static void
test_quality_hostile (void)
{
  static const char head[] = "{\"schema\":1,\"metrics\":[{\"id\":\"m\",\"name\":\"M\",\"min\":0,\"max\":100}],\"quant_costs\":[],\"scores\":[";
  static const struct { const char *score; const char *field; } bad[] = {
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":101,\"source\":\"https://x.example/a\",\"date\":\"2026-01-01\"}", "value" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"date\":\"2026-01-01\"}", "source" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"source\":\"http://x.example/a\",\"date\":\"2026-01-01\"}", "source" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"source\":\"https://x.example/a\",\"date\":\"2026-13-01\"}", "date" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"source\":\"https://x.example/a\"}", "date" },
    { "{\"model\":\"no-such-model\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"source\":\"https://x.example/a\",\"date\":\"2026-01-01\"}", "model" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"other\",\"variant\":\"v\",\"value\":50,\"source\":\"https://x.example/a\",\"date\":\"2026-01-01\"}", "metric" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"poetry\",\"metric\":\"m\",\"variant\":\"v\",\"value\":50,\"source\":\"https://x.example/a\",\"date\":\"2026-01-01\"}", "use_case" },
    { "{\"model\":\"qwen3-8b\",\"use_case\":\"general\",\"metric\":\"m\",\"variant\":\"v\",\"value\":\"50\",\"source\":\"https://x.example/a\",\"date\":\"2026-01-01\"}", "value" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *doc = g_strconcat (head, bad[i].score, "]}", NULL);
      g_autofree char *quoted = g_strdup_printf ("“%s”", bad[i].field);
      g_autoptr(GError) error = NULL;
      HrQuality *q = hr_quality_parse (doc, -1, "t.json", known_model, catalog, &error);

      g_assert_null (q);
      g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, quoted));
    }
  {
    g_autoptr(GError) error = NULL;
    g_assert_null (hr_quality_parse ("{\"schema\":1}", -1, "t.json", NULL, NULL, &error));
    g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE);
  }
  {
    g_autoptr(GError) error = NULL;
    g_assert_null (hr_quality_parse ("[1,", -1, "t.json", NULL, NULL, &error));
    g_assert_nonnull (error);
  }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_unpriced (&error);
  g_assert_no_error (error);
  g_test_add_func ("/fit/rows-match-estimate", test_rows_match_estimate);
  g_test_add_func ("/fit/lower-quant-and-reasons", test_lower_quant_and_reasons);
  g_test_add_func ("/fit/unknown-quality", test_unknown_quality);
  g_test_add_func ("/fit/needs", test_needs);
  g_test_add_func ("/fit/expert-offload", test_expert_offload);
  g_test_add_func ("/fit/frontier", test_frontier);
  g_test_add_func ("/fit/projector", test_projector);
  g_test_add_func ("/fit/quality-file", test_quality_file);
  g_test_add_func ("/fit/quality-hostile", test_quality_hostile);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
