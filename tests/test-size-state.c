/* test-size-state.c — the Size view's words and numbers, without a display */
#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-launch.h"
#include "hr-chart-data.h"
#include "hr-scenario-state.h"
#include "hr-units.h"

static HrCatalog *catalog;

static void
scenario_for (HrScenario *s,
              const char *model,
              const char *gpu,
              const char *quant,
              gint64      context)
{
  const HrModel *m = hr_catalog_find_model (catalog, model);
  const HrGpu *g = hr_catalog_find_gpu (catalog, gpu);

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  hr_scenario_init (s, m, g);
  g_strlcpy (s->quant, quant, sizeof s->quant);
  s->context = context;
}

static void
test_format (void)
{
  g_autofree char *a = hr_size_format_gib (67.96 * HR_GIB);
  g_autofree char *b = hr_size_format_gib (60.8 * HR_GIB);
  g_autofree char *c = hr_size_format_gib (76 * HR_GIB);
  g_autofree char *d = hr_size_format_margin (6.04 * HR_GIB);
  g_autofree char *e = hr_size_format_margin (-9.16 * HR_GIB);
  g_autofree char *f = hr_size_format_gib (NAN);
  g_autofree char *g = hr_size_format_gb (75.12e9);
  g_autofree char *h = hr_size_format_context (131072);
  g_autofree char *i = hr_size_format_context (5000);
  g_autofree char *j = hr_size_format_tps (40.2);
  g_autofree char *j2 = hr_size_format_tps (2712.4);   /* a prefill speed: grouped (not in C) */
  g_autofree char *j3 = hr_size_format_number (12345.678, 2);
  g_autofree char *k = hr_size_format_tps (NAN);
  g_autofree char *l = hr_size_format_usd (8500, 0);
  g_autofree char *m = hr_size_format_margin (0.001 * HR_GIB);
  g_autofree char *n = hr_size_format_number (-0.001, 2);

  g_assert_cmpstr (a, ==, "67.96 GiB");
  g_assert_cmpstr (b, ==, "60.8 GiB");
  g_assert_cmpstr (c, ==, "76 GiB");
  g_assert_cmpstr (d, ==, "+6.04 GiB");
  g_assert_cmpstr (e, ==, "−9.16 GiB");
  g_assert_cmpstr (f, ==, "—");
  g_assert_cmpstr (g, ==, "75.12 GB");
  g_assert_cmpstr (h, ==, "128K (131072 tokens)");
  g_assert_cmpstr (i, ==, "5000 tokens");
  g_assert_cmpstr (j, ==, "~40.2 tok/s");
  g_assert_cmpstr (j2, ==, "~2712 tok/s");
  g_assert_cmpstr (j3, ==, "12345.68");
  g_assert_cmpstr (k, ==, "unknown");
  g_assert_cmpstr (l, ==, "$8500");  /* the C locale groups no digits, as in the CLI */
  g_assert_cmpstr (m, ==, "0 GiB");
  g_assert_cmpstr (n, ==, "0");
  {
    g_autofree char *big = hr_size_format_usd (30000, 0);
    g_autofree char *cents = hr_size_format_usd (1234567.891, 2);
    g_autofree char *small = hr_size_format_usd (0.44, 2);
    g_assert_cmpstr (big, ==, "$30000");
    g_assert_cmpstr (cents, ==, "$1234567.89");
    g_assert_cmpstr (small, ==, "$0.44");
  }
}

/* The Size view groups numbers by one rule with the CLI (hr_format_number_locale_buf): as
 * LC_NUMERIC says, and nothing in the C locale (#18: the view wrote "1,792" where the CLI
 * wrote "1792"). */
static void
test_format_grouping (void)
{
  static const struct { const char *locale, *context, *count, *usd, *tps, *gib; } cases[] = {
    { "C", "128K (131072 tokens)", "1234567", "$30000.5", "~2712 tok/s", "1792.5 GiB" },
    { "en_US.UTF-8", "128K (131,072 tokens)", "1,234,567", "$30,000.5", "~2,712 tok/s", "1,792.5 GiB" },
    { "de_DE.UTF-8", "128K (131.072 tokens)", "1.234.567", "$30.000,5", "~2.712 tok/s", "1.792,5 GiB" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *context = NULL, *count = NULL, *usd = NULL, *tps = NULL, *gib = NULL;
      char cli[64];

      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      context = hr_size_format_context (131072);
      count = hr_size_format_count (1234567.4);
      usd = hr_size_format_usd (30000.5, 1);
      tps = hr_size_format_tps (2712.4);
      gib = hr_size_format_gib (1792.5 * HR_GIB);
      g_assert_cmpstr (context, ==, cases[i].context);
      g_assert_cmpstr (count, ==, cases[i].count);
      g_assert_cmpstr (count, ==, hr_format_number_locale_buf (cli, sizeof cli, 1234567.4, 0));
      g_assert_cmpstr (usd, ==, cases[i].usd);
      g_assert_cmpstr (tps, ==, cases[i].tps);
      g_assert_cmpstr (gib, ==, cases[i].gib);
    }
  setlocale (LC_NUMERIC, "C");
}

/* The number (C locale, as the tests run) that follows @label in @text. */
static double
number_after (const char *text,
              const char *label)
{
  const char *p = strstr (text, label);

  if (p == NULL)
    g_error ("“%s” not in “%s”", label, text);
  return g_ascii_strtod (p + strlen (label), NULL);
}

/* Every figure of the breakdown line adds up to the required card, and the file's weights to
 * what is on the GPU, in system RAM and not loaded (issue 18, item 6). */
static void
check_breakdown_reconciles (const HrSizeState *st)
{
  double w = number_after (st->breakdown, "Weights ");
  double kv = number_after (st->breakdown, "KV cache & state ");
  double buf = number_after (st->breakdown, "Engine & activation buffers ");
  double total = number_after (st->breakdown, "= ");

  g_assert_cmpfloat_with_epsilon (w + kv + buf, total, 0.0151);
  g_assert_cmpfloat (total, ==, g_ascii_strtod (st->cards[HR_SIZE_CARD_REQUIRED].value, NULL));
}

/* A detected device's memory is not a round number (this computer: 23.54 GiB): the card says
 * the same "physical" figure as the chart's line, not 24. */
static void
test_physical_not_rounded (void)
{
  HrScenario s;
  HrEstimate e;
  HrGpu gpu;
  g_auto(HrSizeState) st;
  g_autoptr(GError) error = NULL;

  scenario_for (&s, "llama-3.1-8b", "rtx-4090-24gb", "Q4_K_M", 8192);
  gpu = *s.gpu;
  gpu.memory_gib = 23.54;
  s.gpu = &gpu;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  g_assert_no_error (error);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_USABLE].detail, ==, "23.54 GiB physical");
}

/* Seed page 000: GLM-4.5-Air Q4_K_M at 8K on a 64 GB DCU K100-AI does not fit. */
static void
test_seed_dcu (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  g_autoptr(GError) error = NULL;
  g_autofree char *required = NULL;

  scenario_for (&s, "glm-4.5-air", "dcu-k100-ai-64gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  g_assert_no_error (error);

  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (st.ok);
  g_assert_cmpint (st.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpstr (st.verdict_title, ==, "Does not fit");
  g_assert_cmpstr (st.verdict_css, ==, "verdict-exceeds");
  g_assert_cmpstr (st.verdict_icon, ==, "dialog-error-symbolic");
  g_assert_nonnull (strstr (st.verdict_detail, "60.8 GiB"));
  /* llama.cpp loads 66.03 GiB of the 67.96 GiB file: the line counts what the total counts
   * and the source line says where the rest is */
  g_assert_nonnull (strstr (st.breakdown, "Weights 66.04 GiB"));
  g_assert_nonnull (strstr (st.breakdown, "KV cache & state 1.44 GiB"));
  check_breakdown_reconciles (&st);
  g_assert_nonnull (strstr (st.weights_source, "Of the file’s 67.96 GiB, 0.33 GiB stay in system RAM and "));
  g_assert_true (g_str_has_suffix (st.weights_source, " GiB (MTP layers) are not loaded by llama.cpp."));
  g_assert_cmpfloat_with_epsilon (number_after (st.breakdown, "Weights ") + 0.33 +
                                  number_after (st.weights_source, "system RAM and "), 67.96, 0.0151);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_USABLE].value, ==, "60.8 GiB");
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_USABLE].detail, ==, "64 GiB physical");
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_MARGIN].value, "−"));
  g_assert_nonnull (strstr (st.cards[HR_SIZE_CARD_MARGIN].detail, "% utilisation"));

  /* the required card gives GiB and, beside it, decimal GB */
  required = hr_size_format_gib (e.required_bytes);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_REQUIRED].value, ==, required);
  g_assert_true (g_str_has_suffix (st.cards[HR_SIZE_CARD_REQUIRED].value, " GiB"));
  g_assert_true (g_str_has_suffix (st.cards[HR_SIZE_CARD_REQUIRED].detail, " GB (decimal)"));

  /* a scenario that does not fit has no cost per token */
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_COST].value, ==, "—");
  g_assert_nonnull (strstr (st.weights_source, "measured"));
  g_assert_nonnull (strstr (st.title, "DCU K100-AI"));
  g_assert_nonnull (strstr (st.subtitle, "Q4_K_M"));
  g_assert_nonnull (strstr (st.subtitle, "8K context"));
}

/* A setup that does not fit does not run: speed, cost and the simulator show the first
 * suggested fix, labelled, or nothing and why (issue 18, item 3). */
static void
test_not_fitting_runs_the_fix (void)
{
  HrScenario s;
  HrEstimate e;
  HrFix fix;
  g_auto(HrSizeState) st;
  g_autofree char *tps = NULL;

  scenario_for (&s, "glm-4.5-air", "dcu-k100-ai-64gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, NULL));
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (hr_advice_fix (&s, catalog, hr_catalog_get_pricing (catalog), &fix));
  g_assert_cmpint (fix.kind, ==, HR_FIX_GPUS);
  g_assert_cmpint (fix.scenario.n_gpus, ==, 2);
  g_assert_cmpstr (fix.label, ==, "use 2 GPUs");
  g_assert_cmpint (fix.estimate.verdict, !=, HR_VERDICT_EXCEEDS);
  hr_size_state_apply_fix (&st, &fix);

  tps = hr_size_format_tps (fix.estimate.decode_tps);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].value, ==, tps);
  for (int id = HR_SIZE_CARD_DECODE; id <= HR_SIZE_CARD_COST; id++)
    {
      g_assert_true (st.cards[id].not_this_setup);
      g_assert_true (g_str_has_prefix (st.cards[id].detail, "With the suggested fix (use 2 GPUs)"));
    }
  /* the memory cards stay this setup's */
  g_assert_false (st.cards[HR_SIZE_CARD_REQUIRED].not_this_setup);
  g_assert_cmpfloat (st.simulator_tps, ==, fix.estimate.decode_tps);
  g_assert_cmpfloat (st.simulator_tps, !=, e.decode_tps);
  g_assert_nonnull (strstr (st.simulator_note, "does not fit"));
  g_assert_true (g_str_has_prefix (st.simulator_status, "With the suggested fix (use 2 GPUs): TTFT"));

  /* nothing makes DeepSeek V3 fit an 8 GB card under vLLM: no figures, and why */
  scenario_for (&s, "deepseek-v3", "rtx-3070-8gb", "BF16", 8192);
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_false (hr_advice_fix (&s, catalog, NULL, &fix));
  g_assert_cmpint (fix.kind, ==, HR_FIX_NONE);
  hr_size_state_apply_fix (&st, &fix);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].value, ==, "—");
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_COST].value, ==, "—");
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_PREFILL].detail, "Does not run"));
  g_assert_false (isfinite (st.simulator_tps));

  /* a setup that fits is left as it is */
  scenario_for (&s, "glm-4.5-air", "rtx-pro-6000-blackwell-96gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_false (hr_advice_fix (&s, catalog, NULL, &fix));
  hr_size_state_apply_fix (&st, &fix);
  g_assert_false (st.cards[HR_SIZE_CARD_DECODE].not_this_setup);
  g_assert_cmpfloat (st.simulator_tps, ==, e.decode_tps);
  g_assert_null (st.simulator_note);
}

/* Seed page 001: the same on an 80 GB MLU590 fits, 76 GiB usable. */
static void
test_seed_mlu (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  g_autofree char *basis = NULL;

  scenario_for (&s, "glm-4.5-air", "mlu590-80gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));

  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpint (st.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpstr (st.verdict_title, ==, "Fits with margin");
  g_assert_cmpstr (st.verdict_css, ==, "verdict-fits");
  g_assert_cmpstr (st.verdict_icon, ==, "emblem-ok-symbolic");
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_USABLE].value, ==, "76 GiB");
  g_assert_nonnull (strstr (st.breakdown, "KV cache & state 1.44 GiB"));
  check_breakdown_reconciles (&st);
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_MARGIN].value, "+"));
  /* the catalog has no sourced bandwidth for the MLU590: the speed is unknown, and says so */
  g_assert_false (isfinite (e.decode_tps));
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].value, ==, "unknown");
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].detail, ==, "range unknown");
  basis = hr_basis_text (&e.decode_basis);
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].note, ==, basis);
}

static void
test_speed_cards (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;

  scenario_for (&s, "glm-4.5-air", "rtx-pro-6000-blackwell-96gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, NULL));
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_DECODE].value, "~"));
  g_assert_true (g_str_has_suffix (st.cards[HR_SIZE_CARD_DECODE].value, " tok/s"));
  /* the speed with the context window full, and with it empty */
  {
    g_autofree char *empty_tps = hr_size_format_tps (e.decode_tps_empty);
    g_autofree char *empty = g_strdup_printf ("with the 8K context full · %s when empty", empty_tps);
    g_autofree char *full = hr_size_format_tps (e.decode_tps);
    g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].detail, ==, empty);
    g_assert_cmpstr (st.cards[HR_SIZE_CARD_DECODE].value, ==, full);
    g_assert_cmpfloat (e.decode_tps_empty, >, e.decode_tps);
  }
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_DECODE].note, "range "));
  g_assert_nonnull (strstr (st.cards[HR_SIZE_CARD_DECODE].note, "memory-bound: "));
  /* a depth of the user's: the card says how many tokens are in the context */
  s.depth = 2048;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  hr_size_state_clear (&st);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_DECODE].detail, "with 2K tokens in context · ~"));
  g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_PREFILL].value, "~"));
  g_assert_nonnull (strstr (st.cards[HR_SIZE_CARD_PREFILL].detail, "TTFT for a 4K prompt: ~"));
  g_assert_cmpfloat (st.simulator_tps, ==, e.decode_tps);
  g_assert_cmpfloat (st.simulator_ttft_ms, ==, e.ttft_ms);
  g_assert_nonnull (strstr (st.simulator_status, "tok/s"));
  if (isfinite (e.cost_per_mtok_usd))
    g_assert_true (g_str_has_prefix (st.cards[HR_SIZE_CARD_COST].value, "$"));
  else
    g_assert_cmpstr (st.cards[HR_SIZE_CARD_COST].detail, ==, "No cloud offer for this GPU");
}

/* A tight fit: within usable memory but above 92 % of physical. */
static void
test_tight (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  gboolean found = FALSE;

  scenario_for (&s, "glm-4.5-air", "mlu590-80gb", "Q4_K_M", 8192);
  for (gint64 ctx = 8192; ctx <= 131072 && !found; ctx += 1024)
    {
      s.context = ctx;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      found = e.verdict == HR_VERDICT_TIGHT;
    }
  g_assert_true (found);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpstr (st.verdict_title, ==, "Tight fit");
  g_assert_cmpstr (st.verdict_css, ==, "verdict-tight");
  g_assert_cmpstr (st.verdict_icon, ==, "dialog-warning-symbolic");
}

/* Unified memory with layers in system RAM (the same memory): the banner says why a GPU part
 * that fits its share still does not fit the machine (DeepSeek R1 Q4_K_M on a 128 GB Strix
 * Halo with 75 % of its layers offloaded: 94.38 GiB on the GPU, 282.94 GiB in RAM). */
static void
test_unified_offload_banner (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;

  scenario_for (&s, "deepseek-r1", "ryzen-ai-max-395-128gb", "Q4_K_M", 8192);
  s.offload_pct = 75;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpstr (st.verdict_title, ==, "Does not fit");
  g_assert_true (g_str_has_prefix (st.verdict_detail, "The GPU’s 94.38 GiB fit in 108 GiB usable, ")
                 || g_str_has_prefix (st.verdict_detail, "The GPU's 94.38 GiB fit in 108 GiB usable, "));
  g_assert_nonnull (strstr (st.verdict_detail, "same memory on this machine"));
}

static void
test_error (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  g_autoptr(GError) error = NULL;

  scenario_for (&s, "glm-4.5-air", "mlu590-80gb", "NOT-A-QUANT", 8192);
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_nonnull (error);
  hr_size_state_init (&st);
  hr_size_state_from_error (&st, &s, error);
  g_assert_false (st.ok);
  g_assert_cmpstr (st.verdict_css, ==, "verdict-error");
  g_assert_cmpstr (st.verdict_detail, ==, error->message);
  for (guint i = 0; i < HR_SIZE_N_CARDS; i++)
    g_assert_cmpstr (st.cards[i].value, ==, "—");
}

static void
test_multi_gpu (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;

  scenario_for (&s, "glm-4.5-air", "dcu-k100-ai-64gb", "Q4_K_M", 8192);
  s.n_gpus = 2;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_nonnull (strstr (st.title, "2× DCU K100-AI"));
  g_assert_cmpstr (st.cards[HR_SIZE_CARD_USABLE].detail, ==, "2 × 64 GiB physical");
  g_assert_nonnull (st.cards[HR_SIZE_CARD_REQUIRED].note);
  check_breakdown_reconciles (&st);
  /* the sum is over both GPUs, not "on the GPU" (issue 26), and the fullest one's share is said */
  g_test_message ("%s", st.breakdown);
  g_assert_null (strstr (st.breakdown, "on the GPU "));
  g_assert_nonnull (strstr (st.breakdown, " on 2 GPUs in all ("));
  g_assert_cmpfloat_with_epsilon (number_after (st.breakdown, "GPUs in all ("), hr_round (hr_to_gib (e.per_gpu_required), 2),
                                  0.0051);

  /* "… on the fullest GPU" is the fullest bar of the breakdown chart */
  for (int n = 2; n <= 4; n++)
    {
      g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
      double fullest = 0;

      s.n_gpus = n;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      hr_size_state_from_estimate (&st, &s, &e);
      hr_chart_breakdown_from_estimate (&s, &e, b);
      for (int i = 0; i < b->n_devices; i++)
        fullest = MAX (fullest, b->devices[i].weights_gib + b->devices[i].kv_gib + b->devices[i].buffers_gib);
      g_assert_cmpfloat_with_epsilon (number_after (st.cards[HR_SIZE_CARD_REQUIRED].note, ""), fullest, 0.0051);
    }
}

static void
test_advice (void)
{
  HrScenario s;
  g_autoptr(HrAdviceState) adv = NULL;
  guint current = 0;

  scenario_for (&s, "glm-4.5-air", "dcu-k100-ai-64gb", "Q4_K_M", 8192);
  adv = hr_advice_state_compute (&s, catalog, hr_catalog_get_pricing (catalog));

  g_assert_cmpuint (adv->matrix->len, >=, 7);
  for (guint i = 0; i < adv->matrix->len; i++)
    {
      HrMatrixRowState *row = g_ptr_array_index (adv->matrix, i);
      g_assert_true (g_str_has_suffix (row->weights, " GiB"));
      /* a row's total is never below its weights (BF16 was 202.26 under 205.77) */
      g_assert_cmpfloat (g_ascii_strtod (row->total, NULL), >=,
                         g_ascii_strtod (row->weights, NULL) + g_ascii_strtod (row->kv, NULL));
      g_assert_nonnull (row->verdict_text);
      g_assert_nonnull (row->smallest);
      if (row->current)
        {
          current++;
          g_assert_cmpstr (row->quant, ==, "Q4_K_M");
          g_assert_cmpstr (row->weights, ==, "66.04 GiB");
          g_assert_cmpstr (row->kv, ==, "1.44 GiB");
          g_assert_cmpstr (row->source, ==, "Measured, 67.96 GiB file");
          g_assert_cmpstr (row->verdict_css, ==, "verdict-exceeds");
        }
    }
  g_assert_cmpuint (current, ==, 1);

  /* it does not fit: the reverse answers offer something else */
  g_assert_true (adv->reverse[HR_REVERSE_QUANT].applicable);
  g_assert_cmpstr (adv->reverse[HR_REVERSE_QUANT].quant, !=, "Q4_K_M");
  g_assert_true (adv->reverse[HR_REVERSE_GPUS].applicable);
  g_assert_cmpint (adv->reverse[HR_REVERSE_GPUS].gpus, >=, 2);
  g_assert_false (adv->reverse[HR_REVERSE_CONTEXT].applicable);

  g_assert_nonnull (adv->picks[HR_PICK_SINGLE].gpu_id);
  g_assert_nonnull (hr_catalog_find_gpu (catalog, adv->picks[HR_PICK_SINGLE].gpu_id));
  g_assert_nonnull (adv->picks[HR_PICK_UNIFIED].title);
  g_assert_cmpuint (adv->diagnosis->len, >=, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (adv->diagnosis, 0), "Does not fit"));
  /* the diagnosis writes numbers as the cards do: "60.8", not "60.80"; "15%" in English */
  g_assert_nonnull (strstr (g_ptr_array_index (adv->diagnosis, 0), ", 60.8 GiB usable"));
  g_assert_null (strstr (g_ptr_array_index (adv->diagnosis, 0), " %"));
  g_assert_cmpuint (adv->launch->len, >=, 2);
  g_test_message ("advice for GLM-4.5-Air on DCU K100-AI: %.1f ms", adv->elapsed_ms);
}

static void
test_summaries (void)
{
  g_autofree char *model = hr_size_model_summary (hr_catalog_find_model (catalog, "glm-4.5-air"));
  g_autofree char *gpu = hr_size_gpu_summary (hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb"));

  g_assert_true (g_str_has_prefix (model, "110.47 B total · 12 B active"));
  g_assert_true (g_str_has_prefix (gpu, "96 GB · "));
  g_assert_true (g_str_has_suffix (gpu, " GB/s"));
}

/* A tiny model is not "0 B total" (issue 26): parameters and sizes below 1 B / 1 GiB take the
 * unit that shows them ("1.7 M", "3.24 MiB"); zero stays "0 GiB". */
static void
test_small_units (void)
{
  g_autoptr(HrModel) tiny = hr_model_copy (hr_catalog_find_model (catalog, "glm-4.5-air"));
  g_autofree char *summary = NULL;
  g_autofree char *mib = hr_size_format_gib (3.4e6);
  g_autofree char *kib = hr_size_format_gib (12800);
  g_autofree char *zero = hr_size_format_gib (0);
  g_autofree char *gib = hr_size_format_gib (67.96 * 1073741824.0);
  g_autofree char *k = hr_size_format_params (260000);

  tiny->total_params = 1.7e6;
  tiny->active_params = 0.9e6;
  summary = hr_size_model_summary (tiny);
  g_test_message ("%s", summary);
  g_assert_true (g_str_has_prefix (summary, "1.7 M total · 900 K active"));
  g_assert_null (strstr (summary, "0 B"));
  g_assert_cmpstr (mib, ==, "3.24 MiB");
  g_assert_cmpstr (kib, ==, "12.5 KiB");
  g_assert_cmpstr (zero, ==, "0 GiB");
  g_assert_cmpstr (gib, ==, "67.96 GiB");
  g_assert_cmpstr (k, ==, "260 K");
}

/* The simulator writes its times as every other time of the app (issue 26: "~2097 ms" beside
 * "~2.097 ms" in German): hr_format_duration_ms, in the locale's numbers. */
static void
test_simulator_times (void)
{
  static const struct { const char *locale; const char *idle; const char *done; } cases[] = {
    { "C", "TTFT ~2097 ms · ~40.2 tok/s", "Done: 256 tokens in ~12.5 s (TTFT ~2097 ms, ~40.2 tok/s)" },
    { "de_DE.UTF-8", "TTFT ~2.097 ms · ~40,2 tok/s", "Done: 256 tokens in ~12,5 s (TTFT ~2.097 ms, ~40,2 tok/s)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *idle = NULL, *prompt = NULL, *done = NULL;

      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        continue;
      idle = hr_size_simulator_text (HR_SIMULATOR_IDLE, 2097, 40.2, 0, 0);
      prompt = hr_size_simulator_text (HR_SIMULATOR_PROMPT, 2097, 40.2, 1500, 0);
      done = hr_size_simulator_text (HR_SIMULATOR_DONE, 2097, 40.2, 12500, 256);
      g_assert_cmpstr (idle, ==, cases[i].idle);
      g_assert_cmpstr (done, ==, cases[i].done);
      g_assert_nonnull (strstr (prompt, i == 0 ? "~1500 ms of ~2097 ms" : "~1.500 ms of ~2.097 ms"));
    }
  setlocale (LC_NUMERIC, "C");
}

/* `headroom-cli launch --json` prints, for the same scenario, exactly the commands and notes
 * the Size view shows (hr_advice_state_compute()'s launch list). */
static void
check_cli_launch (const char *model,
                  const char *gpu,
                  const char *quant,
                  int         n_gpus,
                  double      offload_pct,
                  const char *engine)    /* NULL: every engine */
{
  g_autofree char *gpus = g_strdup_printf ("%d", n_gpus);
  g_autofree char *offload = g_strdup_printf ("%g", offload_pct);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(HrAdviceState) adv = NULL;
  const char *argv[] = { g_getenv ("HEADROOM_CLI"), "launch", "--model", model, "--gpu", gpu,
                         "--quant", quant, "--gpus", gpus, "--offload-pct", offload, "--json",
                         engine ? "--engine" : NULL, engine, NULL };
  JsonArray *arr;
  HrScenario s;
  guint j = 0;
  int status = 0;

  if (argv[0] == NULL)
    {
      g_test_skip ("HEADROOM_CLI not set");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  scenario_for (&s, model, gpu, quant, 8192);
  s.n_gpus = n_gpus;
  s.offload_pct = offload_pct;
  if (engine != NULL)
    g_assert_true (hr_engine_from_string (engine, &s.engine));
  adv = hr_advice_state_compute (&s, catalog, hr_catalog_get_pricing (catalog));

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  arr = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < adv->launch->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (adv->launch, i);
      JsonObject *o;
      const char *note;

      if (engine != NULL && c->engine != s.engine)
        continue;
      g_assert_cmpuint (j, <, json_array_get_length (arr));
      o = json_array_get_object_element (arr, j++);
      g_assert_cmpstr (json_object_get_string_member (o, "engine"), ==, hr_engine_to_string (c->engine));
      g_assert_cmpstr (json_object_get_string_member (o, "title"), ==, c->title);
      g_assert_cmpstr (json_object_get_string_member (o, "command"), ==, c->command);
      note = json_object_get_null_member (o, "note") ? NULL : json_object_get_string_member (o, "note");
      g_assert_cmpstr (note, ==, c->note);
    }
  g_assert_cmpuint (j, ==, json_array_get_length (arr));
  g_assert_cmpuint (j, >=, 1);
}

static void
test_cli_launch (void)
{
  check_cli_launch ("glm-4.5-air", "rtx-pro-6000-blackwell-96gb", "Q4_K_M", 1, 0, NULL);
  check_cli_launch ("glm-4.5-air", "rtx-pro-6000-blackwell-96gb", "Q4_K_M", 1, 0, "vllm");
  check_cli_launch ("glm-4.5-air", "rtx-4090-24gb", "Q4_K_M", 2, 40, NULL);
  /* more than one node: the Ray, multi-node SGLang and RPC plans too */
  check_cli_launch ("deepseek-v3", "h100-80gb-sxm", "BF16", 8, 0, NULL);
}

/* On "CPU + system RAM" the summary line says where the memory is: system RAM, not "the GPU". */
static void
test_cpu_wording (void)
{
  g_autoptr(HrGpu) cpu = hr_gpu_copy (hr_catalog_find_gpu (catalog, "dcu-k100-ai-64gb"));
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  g_autoptr(GError) error = NULL;

  cpu->backend = HR_BACKEND_CPU;
  g_free (cpu->name);
  cpu->name = g_strdup ("CPU + system RAM");
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), cpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  g_assert_no_error (error);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (st.ok);
  g_test_message ("%s", st.breakdown);
  g_assert_null (strstr (st.breakdown, "GPU"));
  g_assert_true (g_str_has_suffix (st.breakdown, " in system RAM"));
  check_breakdown_reconciles (&st);
}

/* The context spin button's +/− go by powers of two, as the slider does. */
static void
test_context_step (void)
{
  g_assert_cmpint (hr_context_step (8192, TRUE), ==, 16384);
  g_assert_cmpint (hr_context_step (8192, FALSE), ==, 4096);
  g_assert_cmpint (hr_context_step (10000, TRUE), ==, 16384);
  g_assert_cmpint (hr_context_step (10000, FALSE), ==, 8192);
  g_assert_cmpint (hr_context_step (256, FALSE), ==, HR_MIN_CONTEXT);
  g_assert_cmpint (hr_context_step (300, FALSE), ==, 256);
  g_assert_cmpint (hr_context_step (255, TRUE), ==, 256);
  g_assert_cmpint (hr_context_step (131072, TRUE), ==, 262144);
  g_assert_cmpint (hr_context_step (HR_MAX_CONTEXT, TRUE), ==, HR_MAX_CONTEXT);
  g_assert_cmpint (hr_context_step (HR_MAX_CONTEXT, FALSE), ==, HR_MAX_CONTEXT / 2);
}

/* The speed cards write the basis sentences where they show them, grouped as LC_NUMERIC says
 * ("of 7.700 GB/s" in German, "7700" in the C locale); the estimate holds only their parts, and
 * the JSON's sentence stays ungrouped whatever the locale (issue 18). */
static void
test_basis_grouped (void)
{
  static const struct { const char *locale; const char *decode; const char *prefill; } cases[] = {
    { "C", "memory-bound: 16.90 GiB read per token at 92% of 7700 GB/s + 1.7 ms fixed",
      "compute-bound: 28.6 GFLOP per token at 264 of 2250 peak TFLOPS" },
    { "en_US.UTF-8", "memory-bound: 16.90 GiB read per token at 92% of 7,700 GB/s + 1.7 ms fixed",
      "compute-bound: 28.6 GFLOP per token at 264 of 2,250 peak TFLOPS" },
    { "de_DE.UTF-8", "memory-bound: 16,90 GiB read per token at 92% of 7.700 GB/s + 1,7 ms fixed",
      "compute-bound: 28,6 GFLOP per token at 264 of 2.250 peak TFLOPS" },
  };
  HrScenario s;
  HrEstimate e;

  scenario_for (&s, "glm-4.5-air", "b200-180gb", "Q4_K_M", 52480);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(HrSizeState) st;
      g_autofree char *json = NULL;

      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("locale %s not installed", cases[i].locale);
          continue;
        }
      hr_size_state_init (&st);
      hr_size_state_from_estimate (&st, &s, &e);
      if (!g_str_has_suffix (st.cards[HR_SIZE_CARD_DECODE].note, cases[i].decode))
        g_error ("[%s] decode note “%s”", cases[i].locale, st.cards[HR_SIZE_CARD_DECODE].note);
      g_assert_cmpstr (st.cards[HR_SIZE_CARD_PREFILL].note, ==, cases[i].prefill);
      json = hr_basis_json (&e.decode_basis);
      g_assert_nonnull (strstr (json, " 7700 GB/s"));
    }
  setlocale (LC_NUMERIC, "C");
}

/* Issue #26 item 1: GLM-4.5-Air on 2× DCU K100, vLLM, Q4_K_M said "Fits with margin" (the
 * GGUF) above a vLLM launch card saying the BF16 checkpoint "will not load".  The banner is now
 * of the BF16 checkpoint vLLM serves, says so, and agrees with the card. */
static void
test_engine_loads_banner (void)
{
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cmds = NULL;
  gboolean card_found = FALSE;

  scenario_for (&s, "glm-4.5-air", "dcu-k100-ai-64gb", "Q4_K_M", 8192);
  s.n_gpus = 2;
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  g_assert_no_error (error);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpint (st.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpstr (st.verdict_title, ==, "Does not fit");
  g_assert_true (g_str_has_prefix (st.verdict_detail, "vLLM does not load a Q4_K_M GGUF of this model’s "
                                   "architecture: it serves the official BF16 checkpoint, sized here. "));
  /* the launch cards the Size view shows for this estimate */
  cmds = hr_launch_commands (&s, &e);
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (c->engine != HR_ENGINE_VLLM)
        continue;
      g_assert_nonnull (strstr (c->note, "will not load"));
      card_found = TRUE;
      break;
    }
  g_assert_true (card_found);
  /* llama.cpp loads that GGUF: its banner names no substitute */
  s.engine = HR_ENGINE_LLAMA_CPP;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_cmpint (st.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_null (strstr (st.verdict_detail, "does not load"));
}

/* #31: Gemma 3 27B on RTX 4090 + RTX 3090 with its catalog projector: the projector is a part of
 * the breakdown of its own, named with its device, and the chart draws it on that device's bar
 * apart from the weights and buffers; in system RAM it says so; without one, no such line. */
static void
test_projector (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "gemma-3-27b");
  HrDeviceKind kinds[2] = {
    { hr_catalog_find_gpu (catalog, "rtx-4090-24gb"), 1 },
    { hr_catalog_find_gpu (catalog, "rtx-3090-24gb"), 1 },
  };
  g_autoptr(GError) error = NULL;
  g_auto(HrSizeState) st = { 0 };
  HrChartBreakdown plain, with;
  HrScenario s;
  HrEstimate e0, e;
  double proj_gib;

  scenario_for (&s, "gemma-3-27b", "rtx-4090-24gb", "Q4_K_M", 8192);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, &error));
  g_assert_true (hr_estimate_compute (&s, NULL, &e0, &error));
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e0);
  g_assert_null (st.projector);
  g_assert_null (strstr (st.breakdown, "Vision projector"));
  hr_chart_breakdown_from_estimate (&s, &e0, &plain);

  s.mmproj_bytes = m->mmproj_bytes;
  s.mmproj_encoder = m->mmproj_encoder;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_no_error (error);
  hr_size_state_from_estimate (&st, &s, &e);
  g_test_message ("%s\n%s", st.breakdown, st.projector);
  g_assert_nonnull (st.projector);
  g_assert_true (g_str_has_prefix (st.projector, "Vision projector 0.91 GiB on GPU 1 · RTX 4090 24GB: 0.8 GiB weights + 0.11 GiB image-encode buffer"));
  g_assert_nonnull (strstr (st.breakdown, " · Vision projector 0.91 GiB = "));

  /* the chart: the projector on the first bar, the weights and buffers as without it */
  hr_chart_breakdown_from_estimate (&s, &e, &with);
  g_assert_cmpint (with.n_devices, ==, 2);
  proj_gib = (e.mmproj_bytes + e.mmproj_encode_bytes) / HR_GIB;
  g_assert_cmpfloat_with_epsilon (with.devices[0].projector_gib, proj_gib, 1e-9);
  g_assert_cmpfloat (with.devices[1].projector_gib, ==, 0);
  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpfloat_with_epsilon (with.devices[i].weights_gib, plain.devices[i].weights_gib, 1e-6);
      g_assert_cmpfloat_with_epsilon (with.devices[i].buffers_gib, plain.devices[i].buffers_gib, 1e-6);
      g_assert_cmpfloat_with_epsilon (with.devices[i].kv_gib, plain.devices[i].kv_gib, 1e-6);
      g_assert_cmpfloat (with.devices[i].usable_gib, ==, plain.devices[i].usable_gib);
    }
  g_assert_cmpfloat_with_epsilon (with.required_gib, plain.required_gib + proj_gib, 1e-6);

  /* one GPU: the same part, the KV cache not inflated by it */
  scenario_for (&s, "gemma-3-27b", "rtx-4090-24gb", "Q4_K_M", 8192);
  g_assert_true (hr_estimate_compute (&s, NULL, &e0, &error));
  hr_chart_breakdown_from_estimate (&s, &e0, &plain);
  s.mmproj_bytes = m->mmproj_bytes;
  s.mmproj_encoder = m->mmproj_encoder;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  hr_chart_breakdown_from_estimate (&s, &e, &with);
  g_assert_cmpfloat_with_epsilon (with.devices[0].kv_gib, plain.devices[0].kv_gib, 1e-6);
  g_assert_cmpfloat_with_epsilon (with.devices[0].projector_gib, proj_gib, 1e-9);
  {
    /* the quantization matrix's KV column is the cache alone: not the projector's 0.91 GiB */
    g_autoptr(HrAdviceState) adv = hr_advice_state_compute (&s, catalog, NULL);
    g_autofree char *kv0 = hr_size_format_gib (MAX (0, e0.required_bytes - e0.weights_gpu
                                                       - e0.overhead_bytes));
    gboolean seen = FALSE;

    for (guint i = 0; i < adv->matrix->len; i++)
      {
        HrMatrixRowState *row = g_ptr_array_index (adv->matrix, i);

        if (!row->current)
          continue;
        seen = TRUE;
        g_test_message ("matrix KV %s, without the projector %s", row->kv, kv0);
        g_assert_cmpstr (row->kv, ==, kv0);
      }
    g_assert_true (seen);
  }

  /* kept in system RAM */
  s.mmproj_cpu = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  hr_size_state_from_estimate (&st, &s, &e);
  g_assert_true (g_str_has_prefix (st.projector, "Vision projector 0.91 GiB in system RAM: "));
  g_assert_null (strstr (st.breakdown, "Vision projector"));
  hr_chart_breakdown_from_estimate (&s, &e, &with);
  g_assert_cmpfloat (with.devices[0].projector_gib, ==, 0);
}

/* #31: an integrated GPU the engine leaves out holds nothing, so the breakdown does not count it
 * among the GPUs ("on 2 GPUs in all" was said of an RTX 4060 Ti beside a Ryzen AI Max). */
static void
test_left_out_breakdown (void)
{
  const HrGpu *card = hr_catalog_find_gpu (catalog, "rtx-4060-ti-16gb");
  const HrGpu *apu = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  HrDeviceKind kinds[] = { { card, 1 }, { apu, 1 } };
  HrScenario s;
  HrEstimate e;
  g_auto(HrSizeState) st;

  g_assert_nonnull (card);
  g_assert_nonnull (apu);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-14b"), card);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, NULL));
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.placement.n_left_out, ==, 1);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &s, &e);
  g_test_message ("%s", st.breakdown);
  g_assert_null (strstr (st.breakdown, "GPUs in all"));
  g_assert_nonnull (strstr (st.breakdown, " on the GPU "));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/size-state/format", test_format);
  g_test_add_func ("/size-state/unified-offload-banner", test_unified_offload_banner);
  g_test_add_func ("/size-state/engine-loads-banner", test_engine_loads_banner);
  g_test_add_func ("/size-state/format-grouping", test_format_grouping);
  g_test_add_func ("/size-state/context-step", test_context_step);
  g_test_add_func ("/size-state/physical-not-rounded", test_physical_not_rounded);
  g_test_add_func ("/size-state/cpu-wording", test_cpu_wording);
  g_test_add_func ("/size-state/seed-dcu-k100", test_seed_dcu);
  g_test_add_func ("/size-state/seed-mlu590", test_seed_mlu);
  g_test_add_func ("/size-state/not-fitting-runs-the-fix", test_not_fitting_runs_the_fix);
  g_test_add_func ("/size-state/speed-cards", test_speed_cards);
  g_test_add_func ("/size-state/basis-grouped", test_basis_grouped);
  g_test_add_func ("/size-state/tight", test_tight);
  g_test_add_func ("/size-state/error", test_error);
  g_test_add_func ("/size-state/multi-gpu", test_multi_gpu);
  g_test_add_func ("/size-state/advice", test_advice);
  g_test_add_func ("/size-state/summaries", test_summaries);
  g_test_add_func ("/size-state/small-units", test_small_units);
  g_test_add_func ("/size-state/simulator-times", test_simulator_times);
  g_test_add_func ("/size-state/cli-launch", test_cli_launch);
  g_test_add_func ("/size-state/projector", test_projector);
  g_test_add_func ("/size-state/left-out-breakdown", test_left_out_breakdown);

  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
