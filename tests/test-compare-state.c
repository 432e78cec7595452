/* test-compare-state.c — the Compare and Fine-tune views' words and numbers, without a display
 *
 * The table is the CLI's: for the same scenario the view's CSV is byte for byte what
 * `headroom-cli compare --csv` prints, and every number on screen is one of those.  The
 * Fine-tune state is what `headroom-cli finetune --json` prints.  HEADROOM_CLI names the
 * binary (tests/meson.build sets it).
 */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-compare-state.h"
#include "hr-finetune-state.h"
#include "hr-scenario-state.h"
#include "hr-units.h"

static HrCatalog *catalog;

/* The "done when": six accelerators for GLM-4.5-Air at 32K. */
static const char * const done_when_gpus[] = {
  "rtx-5090-32gb", "rtx-pro-6000-blackwell-96gb", "h100-80gb-sxm", "h200-141gb",
  "mi300x-192gb", "m3-ultra-512gb",
};

static char *
run_cli (const char * const *args)
{
  const char *cli = g_getenv ("HEADROOM_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("headroom-cli failed: %s", err);
  return out;
}

static GPtrArray *
entries_for (const char * const *ids,
             guint               n,
             int                 count)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (entries, hr_compare_entry_new (ids[i], count));
  return entries;
}

static void
glm_at (HrScenario *s,
        gint64      context)
{
  const HrModel *m = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrGpu *g = hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb");

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  hr_scenario_init (s, m, g);
  s->context = context;
}

/* The view's CSV and the CLI's, for the same scenario and GPUs. */
static void
assert_csv_matches_cli (const HrScenario   *s,
                        const char * const *ids,
                        guint               n,
                        const char * const *extra)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  g_autoptr(GPtrArray) entries = entries_for (ids, n, s->n_gpus);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *csv = NULL;
  g_autofree char *cli = NULL;

  hr_compare_state_compute (st, s, entries, catalog, hr_catalog_get_pricing (catalog));
  g_assert_cmpuint (st->columns->len, ==, n);
  csv = hr_compare_state_csv (st);

  g_ptr_array_add (args, g_strdup ("compare"));
  g_ptr_array_add (args, g_strdup ("--model"));
  g_ptr_array_add (args, g_strdup (s->model->id));
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (args, g_strdup ("--gpu"));
      g_ptr_array_add (args, g_strdup (ids[i]));
    }
  g_ptr_array_add (args, g_strdup_printf ("--context=%" G_GINT64_FORMAT, s->context));
  g_ptr_array_add (args, g_strdup_printf ("--quant=%s", s->quant));
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (extra[i]));
  g_ptr_array_add (args, g_strdup ("--csv"));
  g_ptr_array_add (args, NULL);
  cli = run_cli ((const char * const *) args->pdata);

  g_assert_cmpstr (csv, ==, cli);
}

/* "72.50" as the screen writes it: "72.5" */
static char *
trimmed (const char *field)
{
  char *t = g_strdup (field);
  gsize len = strlen (t);

  if (strchr (t, '.') != NULL)
    {
      while (len > 0 && t[len - 1] == '0')
        t[--len] = '\0';
      if (len > 0 && t[len - 1] == '.')
        t[--len] = '\0';
    }
  return t;
}

static double
csv_number (const char *field)
{
  return field[0] == '\0' ? NAN : g_ascii_strtod (field, NULL);
}

static void
assert_near (double got,
             double want,
             double tolerance)
{
  if (isnan (want))
    g_assert_true (isnan (got));
  else
    g_assert_cmpfloat_with_epsilon (got, want, tolerance);
}

/* Every number the table shows (the cells' keys) is the CSV's, and the words carry it. */
static void
test_table_is_the_csv (void)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  g_autoptr(GPtrArray) entries = entries_for (done_when_gpus, G_N_ELEMENTS (done_when_gpus), 1);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  HrScenario s;

  glm_at (&s, 32768);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  csv = hr_compare_state_csv (st);
  lines = g_strsplit (csv, "\n", -1);
  /* no '#' line a spreadsheet would read as data: the header first, how each row was made in
   * its last column */
  g_assert_true (g_str_has_prefix (lines[0], "gpu,gpu_name,gpus,verdict,required_gib,"));
  g_assert_true (g_str_has_suffix (lines[0], ",power_w,scenario"));

  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      g_auto(GStrv) f = g_strsplit (lines[i + 1], ",", -1);

      g_assert_cmpuint (g_strv_length (f), ==, 20);
      g_assert_true (g_str_has_prefix (f[19], "model=glm-4.5-air quant=Q4_K_M context=32768 "));
      g_assert_cmpstr (f[0], ==, col->gpu_id);
      g_assert_cmpstr (f[3], ==, hr_verdict_to_string (col->verdict));
      g_assert_cmpstr (col->cells[HR_COMPARE_VERDICT].value, ==, hr_verdict_display (col->verdict));
      assert_near (col->cells[HR_COMPARE_MEMORY].key, csv_number (f[5]), 0.005);
      assert_near (col->cells[HR_COMPARE_MARGIN].key, csv_number (f[6]), 0.005);
      assert_near (col->cells[HR_COMPARE_CONTEXT].key, csv_number (f[8]), 0.5);
      g_assert_cmpstr (col->row.best_quant ? col->row.best_quant->id : "", ==, f[9]);
      if (f[9][0] != '\0')
        g_assert_cmpstr (col->cells[HR_COMPARE_QUANT].value, ==, f[9]);
      assert_near (col->cells[HR_COMPARE_DECODE].key, csv_number (f[10]), 0.05);
      assert_near (col->cells[HR_COMPARE_PREFILL].key, csv_number (f[13]), 0.5);
      assert_near (col->cells[HR_COMPARE_COST].key, csv_number (f[15]), 0.005);
      assert_near (col->cells[HR_COMPARE_PRICE].key, csv_number (f[16]), 0.5);
      assert_near (col->cells[HR_COMPARE_PRICE_PER_TPS].key, csv_number (f[17]), 0.005);
      assert_near (col->cells[HR_COMPARE_POWER].key, csv_number (f[18]), 0.5);

      /* the words show the same figures */
      {
        g_autofree char *required = trimmed (f[4]);
        g_autofree char *decode = trimmed (f[10]);

        g_assert_true (g_str_has_prefix (col->cells[HR_COMPARE_MEMORY].value, required));
        if (f[10][0] != '\0')
          g_assert_nonnull (strstr (col->cells[HR_COMPARE_DECODE].value, decode));
        if (f[15][0] != '\0')
          g_assert_nonnull (strstr (col->cells[HR_COMPARE_COST].value, f[15]));
      }
      g_assert_nonnull (col->launch_command);
      g_assert_nonnull (strstr (col->launch_command, "llama-server"));
    }
}

static void
test_csv_matches_cli (void)
{
  HrScenario s;

  /* the six GPUs at 32K */
  glm_at (&s, 32768);
  assert_csv_matches_cli (&s, done_when_gpus, G_N_ELEMENTS (done_when_gpus), NULL);

  /* vLLM, FP8 KV cache, 4 sequences, 2 GPUs each */
  {
    static const char * const ids[] = { "h100-80gb-sxm", "a100-80gb-sxm", "l40s-48gb" };
    static const char * const extra[] = { "--engine=vllm", "--kv-type=fp8", "--batch=4", "--gpus=2", NULL };

    glm_at (&s, 16384);
    g_strlcpy (s.quant, "FP8", sizeof s.quant);
    s.engine = HR_ENGINE_VLLM;
    s.kv_type = HR_KV_FP8;
    s.batch = 4;
    s.n_gpus = 2;
    assert_csv_matches_cli (&s, ids, G_N_ELEMENTS (ids), extra);
  }

  /* a dense model, offload and a forced backend */
  {
    static const char * const ids[] = { "rtx-4090-24gb", "rx-7900-xtx-24gb", "m4-max-128gb" };
    static const char * const extra[] = { "--offload-pct=20", "--backend=vulkan", NULL };

    hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-32b"),
                      hr_catalog_find_gpu (catalog, "rtx-4090-24gb"));
    s.context = 8192;
    s.offload_pct = 20;
    s.backend = HR_BACKEND_VULKAN;
    s.backend_set = TRUE;
    assert_csv_matches_cli (&s, ids, G_N_ELEMENTS (ids), extra);
  }
}

static void
test_sort (void)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  g_autoptr(GPtrArray) entries = entries_for (done_when_gpus, G_N_ELEMENTS (done_when_gpus), 1);
  HrScenario s;
  double last = -INFINITY;
  gboolean seen_unknown = FALSE;

  glm_at (&s, 32768);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));

  /* cheapest per 1M tokens first, unknown last, ties as chosen */
  hr_compare_state_sort (st, HR_COMPARE_COST, FALSE);
  g_assert_cmpint (st->sort, ==, HR_COMPARE_COST);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      double k = col->cells[HR_COMPARE_COST].key;

      /* a cost on a GPU the model does not fit is no candidate: it goes last too */
      if (isnan (k) || col->cells[HR_COMPARE_COST].muted)
        {
          seen_unknown = TRUE;
          continue;
        }
      g_assert_false (seen_unknown);
      g_assert_cmpfloat (k, >=, last);
      if (i > 0 && k == last)
        g_assert_cmpuint (col->index, >, ((HrCompareColumn *) g_ptr_array_index (st->columns, i - 1))->index);
      last = k;
    }

  g_assert_true (seen_unknown);
  g_assert_cmpstr (((HrCompareColumn *) g_ptr_array_index (st->columns, st->columns->len - 1))->gpu_id, ==,
                   "rtx-5090-32gb");

  /* fastest first; reversed: slowest first */
  hr_compare_state_sort (st, HR_COMPARE_DECODE, FALSE);
  g_assert_cmpstr (((HrCompareColumn *) g_ptr_array_index (st->columns, 0))->gpu_id, ==, "h200-141gb");
  hr_compare_state_sort (st, HR_COMPARE_DECODE, TRUE);
  g_assert_cmpstr (((HrCompareColumn *) g_ptr_array_index (st->columns, 0))->gpu_id, ==, "m3-ultra-512gb");

  /* verdict: fitting GPUs first, the one that does not fit last */
  hr_compare_state_sort (st, HR_COMPARE_VERDICT, FALSE);
  g_assert_cmpstr (((HrCompareColumn *) g_ptr_array_index (st->columns, st->columns->len - 1))->gpu_id, ==,
                   "rtx-5090-32gb");

  /* the launch command is not a sort key; "none" is the order as chosen */
  hr_compare_state_sort (st, HR_COMPARE_LAUNCH, FALSE);
  g_assert_cmpint (st->sort, ==, HR_COMPARE_SORT_NONE);
  for (guint i = 0; i < st->columns->len; i++)
    g_assert_cmpstr (((HrCompareColumn *) g_ptr_array_index (st->columns, i))->gpu_id, ==, done_when_gpus[i]);

  /* a recomputation keeps the sort */
  hr_compare_state_sort (st, HR_COMPARE_PRICE, FALSE);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  g_assert_cmpint (st->sort, ==, HR_COMPARE_PRICE);
  /* the cheapest card does not hold the model: its price is no candidate, it sorts last,
   * greyed, and says why (issue 18, item 3) */
  {
    HrCompareColumn *first = g_ptr_array_index (st->columns, 0);
    HrCompareColumn *end = g_ptr_array_index (st->columns, st->columns->len - 1);
    g_assert_cmpstr (end->gpu_id, ==, "rtx-5090-32gb");
    g_assert_cmpint (first->verdict, !=, HR_VERDICT_EXCEEDS);
    g_assert_true (first->cells[HR_COMPARE_PRICE].best);
    g_assert_false (end->cells[HR_COMPARE_PRICE].best);
  }
  /* the CSV follows the order on screen */
  {
    g_autofree char *csv = hr_compare_state_csv (st);
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
    g_assert_true (g_str_has_prefix (lines[1], ((HrCompareColumn *) g_ptr_array_index (st->columns, 0))->gpu_id));
  }
}

static void
test_best_and_diffs (void)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  g_autoptr(GPtrArray) entries = entries_for (done_when_gpus, G_N_ELEMENTS (done_when_gpus), 1);
  const HrCompareColumn *h100 = NULL, *h200 = NULL, *rtx5090 = NULL;
  HrScenario s;

  glm_at (&s, 32768);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  g_assert_cmpuint (st->n_fitting, ==, 5);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      if (g_str_equal (col->gpu_id, "h100-80gb-sxm"))
        h100 = col;
      else if (g_str_equal (col->gpu_id, "h200-141gb"))
        h200 = col;
      else if (g_str_equal (col->gpu_id, "rtx-5090-32gb"))
        rtx5090 = col;
    }
  g_assert_nonnull (h100);
  g_assert_nonnull (h200);
  g_assert_nonnull (rtx5090);

  /* the fastest decode is the best of its row; the others are a percentage below it */
  g_assert_true (h200->cells[HR_COMPARE_DECODE].best);
  g_assert_cmpstr (h200->cells[HR_COMPARE_DECODE].diff, ==, "best");
  {
    double pct = (h100->cells[HR_COMPARE_DECODE].key - h200->cells[HR_COMPARE_DECODE].key)
                 / h200->cells[HR_COMPARE_DECODE].key * 100;
    g_autofree char *want = g_strdup_printf ("−%.0f%%", fabs (pct));
    g_assert_cmpstr (h100->cells[HR_COMPARE_DECODE].diff, ==, want);
  }
  /* a GPU the model does not fit on is shown, muted, and not compared for speed or cost */
  g_assert_cmpint (rtx5090->verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_true (rtx5090->cells[HR_COMPARE_DECODE].muted);
  g_assert_cmpstr (rtx5090->cells[HR_COMPARE_DECODE].diff, ==, "does not fit");
  g_assert_false (rtx5090->cells[HR_COMPARE_DECODE].best);
  /* … nor for price and power: the cheapest card is no "best price" when it cannot run the
   * model (issue 18, item 3) */
  g_assert_false (rtx5090->cells[HR_COMPARE_PRICE].best);
  g_assert_true (rtx5090->cells[HR_COMPARE_PRICE].muted);
  g_assert_cmpstr (rtx5090->cells[HR_COMPARE_PRICE].diff, ==, "does not fit");
  g_assert_false (rtx5090->cells[HR_COMPARE_POWER].best);
  /* margins differ in GiB, not percent; the number and its unit on one line */
  g_assert_true (g_str_has_suffix (h100->cells[HR_COMPARE_MARGIN].diff, "\u00a0GiB"));
  /* #26 item 7: the memory row says how much less usable memory, not "usable −33%" */
  {
    const HrCompareColumn *most = NULL;
    g_autofree char *gib = NULL, *want = NULL;

    for (guint i = 0; i < st->columns->len; i++)
      {
        const HrCompareColumn *col = g_ptr_array_index (st->columns, i);

        if (col->cells[HR_COMPARE_MEMORY].best)
          most = col;
      }
    g_assert_nonnull (most);
    gib = hr_size_format_number (most->cells[HR_COMPARE_MEMORY].key - h100->cells[HR_COMPARE_MEMORY].key, 1);
    want = g_strdup_printf ("%s\u00a0GiB less usable", gib);
    g_assert_cmpstr (h100->cells[HR_COMPARE_MEMORY].diff, ==, want);
  }
  /* #26 item 7: "896 GB/s" broke as "896 GB/" "s" in a header: no break inside a number and
   * its unit, in the headers and the cells */
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);

      g_assert_null (strstr (col->subtitle, " GB"));
      g_assert_null (strstr (col->subtitle, "GB/s"));
      g_assert_nonnull (strstr (col->subtitle, "\u00a0GB/\u2060s"));
      for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
        if (m != HR_COMPARE_LAUNCH)
          {
            const char *texts[] = { col->cells[m].value, col->cells[m].detail, col->cells[m].diff };

            for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
              if (texts[t] != NULL)
                {
                  g_assert_null (strstr (texts[t], " GiB"));
                  g_assert_null (strstr (texts[t], "tok/s"));
                }
          }
    }
  /* no "best" verdict */
  for (guint i = 0; i < st->columns->len; i++)
    g_assert_null (((HrCompareColumn *) g_ptr_array_index (st->columns, i))->cells[HR_COMPARE_VERDICT].diff);

  /* exactly the best values are marked, in every compared row */
  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      guint n_best = 0, n_known = 0;

      for (guint i = 0; i < st->columns->len; i++)
        {
          const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
          n_best += col->cells[m].best;
          n_known += isfinite (col->cells[m].key) && !col->cells[m].muted;
        }
      /* one value is no comparison (e.g. only one GPU here is rented out): no best either */
      if (m == HR_COMPARE_VERDICT || m == HR_COMPARE_LAUNCH || n_known < 2)
        g_assert_cmpuint (n_best, ==, 0);
      else
        g_assert_cmpuint (n_best, >=, 1);
    }
}

/* vLLM/SGLang: a serving-capacity row keyed by the requests the KV pool serves at once, the
 * core's figure; llama.cpp has none (issue 15). */
static void
test_serving_capacity (void)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  g_autoptr(HrCompareState) st2 = hr_compare_state_new ();
  g_autoptr(GPtrArray) entries = entries_for (done_when_gpus, G_N_ELEMENTS (done_when_gpus), 1);
  HrScenario s;
  guint n_exceeds = 0, n_fits = 0;

  glm_at (&s, 32768);
  hr_compare_state_compute (st2, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  for (guint i = 0; i < st2->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st2->columns, i);
      g_assert_false (isfinite (col->cells[HR_COMPARE_CAPACITY].key));
    }
  s.engine = HR_ENGINE_VLLM;
  /* FP8, which vLLM makes from the BF16 checkpoint (the Q4_K_M GGUF of GLM-4.5-Air it cannot
   * read: it would serve the 206 GiB BF16 checkpoint, which no single GPU holds) */
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      const HrCompareCell *cell = &col->cells[HR_COMPARE_CAPACITY];
      const HrEstimate *e = &col->row.estimate;
      g_autofree char *tokens = NULL;

      if (!col->ok)
        continue;
      if (col->row.scenario.gpu->backend == HR_BACKEND_METAL)
        {
          /* vLLM does not run on a Mac: no "× 32K" figure, a reason instead */
          g_assert_cmpstr (cell->value, ==, "Not applicable");
          g_assert_nonnull (strstr (cell->detail, "Apple"));
          g_assert_false (isfinite (cell->key));
          continue;
        }
      if (e->verdict == HR_VERDICT_EXCEEDS)
        {
          /* not "0 × 32K  −100%" */
          n_exceeds++;
          g_assert_cmpstr (cell->value, ==, "Does not fit");
          g_assert_false (isfinite (cell->key));
          g_assert_null (cell->diff);
          continue;
        }
      n_fits++;
      g_assert_cmpfloat (cell->key, ==, e->max_concurrency);
      g_assert_nonnull (strstr (cell->detail, "GiB"));
      /* the tokens the pool holds, grouped as the locale says ("189,712 tokens" in English,
       * "189712" in the C locale, as in the CLI) */
      g_assert_cmpfloat (e->kv_capacity_tokens, >=, 1000);
      tokens = hr_size_format_count (e->kv_capacity_tokens);
      g_assert_cmpint (strspn (tokens, "0123456789"), ==, strlen (tokens));
      g_assert_true (g_str_has_prefix (cell->detail, tokens));
    }
  g_assert_cmpuint (n_exceeds, >=, 1);
  g_assert_cmpuint (n_fits, >=, 1);
  /* the C locale groups nothing (hr_format_number_locale_buf, as the CLI) */
  {
    g_autofree char *n = hr_size_format_count (131072);
    g_autofree char *big = hr_size_format_count (1234567.4);
    g_autofree char *small = hr_size_format_count (999);

    g_assert_cmpstr (n, ==, "131072");
    g_assert_cmpstr (big, ==, "1234567");
    g_assert_cmpstr (small, ==, "999");
  }
}

static void
test_presets (void)
{
  g_autoptr(GPtrArray) fits = NULL, nvidia = NULL, mine = NULL, vendors = NULL, start = NULL;
  HrGpu *own = hr_gpu_new ();
  HrScenario s;

  glm_at (&s, 32768);
  fits = hr_compare_preset_entries (HR_COMPARE_PRESET_FITS, NULL, &s, catalog);
  g_assert_cmpuint (fits->len, >, 5);
  for (guint i = 0; i < fits->len; i++)
    {
      const HrCompareEntry *e = g_ptr_array_index (fits, i);
      HrScenario t = s;
      HrEstimate est;

      t.gpu = hr_catalog_find_gpu (catalog, e->gpu_id);
      t.backend = t.gpu->backend;
      t.n_gpus = e->count;
      g_assert_true (hr_estimate_compute (&t, NULL, &est, NULL));
      g_assert_cmpint (est.verdict, !=, HR_VERDICT_EXCEEDS);
    }

  nvidia = hr_compare_preset_entries (HR_COMPARE_PRESET_VENDOR, "NVIDIA", &s, catalog);
  g_assert_cmpuint (nvidia->len, >=, 20);
  for (guint i = 0; i < nvidia->len; i++)
    g_assert_cmpstr (hr_catalog_find_gpu (catalog, ((HrCompareEntry *) g_ptr_array_index (nvidia, i))->gpu_id)->vendor,
                     ==, "NVIDIA");

  vendors = hr_compare_vendors (catalog);
  g_assert_cmpuint (vendors->len, >=, 5);
  for (guint i = 1; i < vendors->len; i++)
    g_assert_cmpint (g_utf8_collate (g_ptr_array_index (vendors, i - 1), g_ptr_array_index (vendors, i)), <, 0);

  mine = hr_compare_preset_entries (HR_COMPARE_PRESET_MINE, NULL, &s, catalog);
  g_assert_cmpuint (mine->len, ==, 0);
  own->id = g_strdup ("user:lab-card");
  own->name = g_strdup ("Lab card 48GB");
  own->vendor = g_strdup ("Lab");
  own->memory_gib = 48;
  own->bandwidth_gbs = 900;
  own->fp16_tflops = 150;
  own->tdp_w = NAN;
  own->price_usd = NAN;
  own->user_defined = TRUE;
  hr_catalog_add_gpu (catalog, own);
  g_clear_pointer (&mine, g_ptr_array_unref);
  mine = hr_compare_preset_entries (HR_COMPARE_PRESET_MINE, NULL, &s, catalog);
  g_assert_cmpuint (mine->len, ==, 1);
  g_assert_cmpstr (((HrCompareEntry *) g_ptr_array_index (mine, 0))->gpu_id, ==, "user:lab-card");
  g_assert_true (hr_catalog_remove_gpu (catalog, "user:lab-card"));

  /* the starting set: the Size view's GPU first, then the six, at most eight */
  start = hr_compare_default_entries (catalog, "a100-80gb-sxm", 2);
  g_assert_cmpuint (start->len, ==, 7);
  g_assert_cmpstr (((HrCompareEntry *) g_ptr_array_index (start, 0))->gpu_id, ==, "a100-80gb-sxm");
  g_assert_cmpint (((HrCompareEntry *) g_ptr_array_index (start, 0))->count, ==, 2);
}

/* A GPU that cannot be sized (an id gone from the catalog is skipped; a broken scenario is
 * worded, not fatal). */
static void
test_unknown_and_errors (void)
{
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  static const char * const ids[] = { "h100-80gb-sxm", "no-such-gpu", "h200-141gb" };
  g_autoptr(GPtrArray) entries = entries_for (ids, G_N_ELEMENTS (ids), 1);
  g_autofree char *csv = NULL;
  HrScenario s;

  glm_at (&s, 32768);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  g_assert_cmpuint (st->columns->len, ==, 2);

  g_strlcpy (s.quant, "NO_SUCH_QUANT", sizeof s.quant);
  hr_compare_state_compute (st, &s, entries, catalog, hr_catalog_get_pricing (catalog));
  g_assert_cmpuint (st->columns->len, ==, 2);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      g_assert_false (col->ok);
      g_assert_cmpstr (col->verdict_css, ==, "verdict-error");
      g_assert_nonnull (col->cells[HR_COMPARE_VERDICT].detail);
    }
  /* nothing sized, nothing written but the header */
  csv = hr_compare_state_csv (st);
  {
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 2);
    g_assert_true (g_str_has_prefix (lines[0], "gpu,"));
  }
}

/* Fine-tuning ----------------------------------------------------------------------------------- */

typedef struct
{
  const char *model;
  HrFtMethod method;
  int seq, micro, gpus, rank;
  HrOptimizer optimizer;
  HrSharding sharding;
  gboolean ckpt, flash, all_linear;
  const char *gpu;
} FtCase;

static void
assert_finetune_matches_cli (const FtCase *c)
{
  g_auto(HrFtState) st;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *json = NULL;
  g_autofree char *cli = NULL;
  const HrGpu *gpu = c->gpu ? hr_catalog_find_gpu (catalog, c->gpu) : NULL;
  HrFtScenario ft;

  hr_ft_scenario_init (&ft, hr_catalog_find_model (catalog, c->model), c->method);
  ft.seq_len = c->seq;
  ft.micro_batch = c->micro;
  ft.n_gpus = c->gpus;
  ft.lora_rank = c->rank;
  ft.optimizer = c->optimizer;
  ft.sharding = c->sharding;
  ft.grad_checkpointing = c->ckpt;
  ft.flash_attention = c->flash;
  ft.lora_all_linear = c->all_linear;
  hr_ft_state_init (&st);
  hr_ft_state_compute (&st, &ft, gpu, catalog, HR_DEFAULT_RESERVE, 0);
  g_assert_true (st.ok);
  json = hr_ft_state_json (&st);

  g_ptr_array_add (args, g_strdup ("finetune"));
  g_ptr_array_add (args, g_strdup_printf ("--model=%s", c->model));
  g_ptr_array_add (args, g_strdup_printf ("--method=%s", hr_ft_method_to_string (c->method)));
  g_ptr_array_add (args, g_strdup_printf ("--seq=%d", c->seq));
  g_ptr_array_add (args, g_strdup_printf ("--micro-batch=%d", c->micro));
  g_ptr_array_add (args, g_strdup_printf ("--gpus=%d", c->gpus));
  g_ptr_array_add (args, g_strdup_printf ("--lora-rank=%d", c->rank));
  g_ptr_array_add (args, g_strdup_printf ("--optimizer=%s", hr_optimizer_to_string (c->optimizer)));
  g_ptr_array_add (args, g_strdup_printf ("--sharding=%s", hr_sharding_to_string (c->sharding)));
  if (!c->all_linear)
    g_ptr_array_add (args, g_strdup ("--lora-targets=attention"));
  if (!c->ckpt)
    g_ptr_array_add (args, g_strdup ("--no-checkpointing"));
  if (!c->flash)
    g_ptr_array_add (args, g_strdup ("--no-flash-attention"));
  if (c->gpu)
    g_ptr_array_add (args, g_strdup_printf ("--gpu=%s", c->gpu));
  g_ptr_array_add (args, g_strdup ("--json"));
  g_ptr_array_add (args, NULL);
  cli = run_cli ((const char * const *) args->pdata);

  g_assert_cmpstr (json, ==, cli);
  /* and the table's words are those numbers */
  {
    const HrFtMethodState *m = &st.methods[c->method];
    g_autofree char *total = g_strdup_printf ("\"total_per_gpu_gib\": %.2f", hr_to_gib (m->estimate.total_bytes));
    g_autofree char *shown = hr_size_format_gib (m->estimate.total_bytes);

    g_assert_nonnull (strstr (cli, total));
    g_assert_cmpstr (m->cells[HR_FT_ROW_TOTAL], ==, shown);
  }
}

static void
test_finetune_matches_cli (void)
{
  const FtCase cases[] = {
    /* the defaults both start from: QLoRA, 2048, flash attention on */
    { "glm-4.5-air", HR_FT_QLORA, 2048, 1, 1, 16, HR_OPT_ADAMW, HR_SHARD_NONE, TRUE, TRUE, TRUE,
      "rtx-pro-6000-blackwell-96gb" },
    { "glm-4.5-air", HR_FT_LORA, 4096, 2, 4, 64, HR_OPT_ADAMW_8BIT, HR_SHARD_ZERO3, TRUE, FALSE, FALSE,
      "h200-141gb" },
    { "glm-4.5-air", HR_FT_FULL, 8192, 1, 8, 16, HR_OPT_SGD, HR_SHARD_ZERO2, FALSE, TRUE, TRUE,
      "mi300x-192gb" },
    { "qwen3-32b", HR_FT_QLORA, 1024, 4, 1, 8, HR_OPT_ADAMW, HR_SHARD_NONE, FALSE, FALSE, TRUE,
      "m3-ultra-512gb" },
    { "qwen3-32b", HR_FT_LORA, 2048, 1, 1, 16, HR_OPT_ADAMW, HR_SHARD_NONE, TRUE, TRUE, TRUE, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_finetune_matches_cli (&cases[i]);
}

static void
test_finetune_state (void)
{
  g_auto(HrFtState) st;
  HrFtScenario ft;
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb");
  HrFtFit fit;

  hr_ft_state_init (&st);
  hr_ft_scenario_init (&ft, hr_catalog_find_model (catalog, "glm-4.5-air"), HR_FT_QLORA);
  g_assert_true (ft.flash_attention);
  hr_ft_state_compute (&st, &ft, gpu, catalog, HR_DEFAULT_RESERVE, 0);
  g_assert_true (st.ok);
  /* QLoRA fits the 96 GB card; LoRA and full do not */
  g_assert_cmpint (st.methods[HR_FT_QLORA].verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpint (st.methods[HR_FT_LORA].verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (st.methods[HR_FT_FULL].verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_nonnull (strstr (st.verdict_title, gpu->name));
  g_assert_cmpstr (st.formula, ==, hr_finetune_formula_text (HR_FT_QLORA));

  /* each method's smallest configuration is the core's answer */
  for (int m = HR_FT_QLORA; m <= HR_FT_FULL; m++)
    {
      HrFtScenario s = ft;

      s.method = m;
      if (hr_finetune_smallest_fit (&s, catalog, 8, HR_DEFAULT_RESERVE, 0, &fit))
        {
          g_assert_true (st.methods[m].fit.gpu == fit.gpu);
          g_assert_cmpint (st.methods[m].fit.count, ==, fit.count);
          g_assert_nonnull (strstr (st.methods[m].smallest, fit.gpu->name));
        }
      else
        g_assert_cmpint (st.methods[m].fit.count, ==, 0);
      g_test_message ("GLM-4.5-Air %s: %s per GPU; smallest %s (%s)", hr_ft_method_to_string (m),
                      st.methods[m].cells[HR_FT_ROW_TOTAL], st.methods[m].smallest,
                      st.methods[m].smallest_detail ? st.methods[m].smallest_detail : "");
    }

  /* eager attention stores the scores: more activations */
  {
    g_auto(HrFtState) eager;

    hr_ft_state_init (&eager);
    ft.flash_attention = FALSE;
    hr_ft_state_compute (&eager, &ft, gpu, catalog, HR_DEFAULT_RESERVE, 0);
    g_assert_cmpfloat (eager.methods[HR_FT_QLORA].estimate.activations_bytes, >,
                       st.methods[HR_FT_QLORA].estimate.activations_bytes);
  }

  /* a bad setting is worded, not fatal */
  {
    g_auto(HrFtState) bad;

    hr_ft_state_init (&bad);
    ft.seq_len = 0;
    hr_ft_state_compute (&bad, &ft, gpu, catalog, HR_DEFAULT_RESERVE, 0);
    g_assert_false (bad.ok);
    g_assert_cmpstr (bad.verdict_css, ==, "verdict-error");
    g_assert_null (hr_ft_state_json (&bad));
  }
}

/* Several GPUs without sharding read "2 GPUs (data parallel)" in the subtitle: the sharding's
 * name inside the parentheses carried its own ("(None (data parallel))", in German "(Keins
 * (Data Parallel))"), issue 26 */
static void
test_finetune_subtitle_parentheses (void)
{
  HrFtScenario ft;
  g_auto(HrFtState) st;

  hr_ft_scenario_init (&ft, hr_catalog_find_model (catalog, "llama-3.1-8b"), HR_FT_LORA);
  ft.n_gpus = 2;
  ft.sharding = HR_SHARD_NONE;
  hr_ft_state_init (&st);
  hr_ft_state_compute (&st, &ft, NULL, catalog, HR_DEFAULT_RESERVE, 0);
  g_test_message ("%s", st.subtitle);
  g_assert_true (g_str_has_suffix (st.subtitle, "2 GPUs (data parallel)"));
  for (const char *p = strchr (st.subtitle, '('); p != NULL; p = strchr (p + 1, '('))
    g_assert_true (strchr (p + 1, '(') == NULL || strchr (p + 1, '(') > strchr (p, ')'));
}

/* #31: a column may be a mixed setup, "RTX 4090 + RTX 3090", sized with llama.cpp's split over
 * its devices (the placement), named after them and priced as both; a Size view setup of mixed
 * GPUs gives its spec; a spec naming an unknown GPU is no column. */
/* #31/#26: Compare sizes the model with its projector under the Size view's mode, on every
 * column, as `headroom-cli compare` does by default (auto) and with --mmproj none. */
static void
test_projector (void)
{
  const char * const ids[] = { "rtx-5090-32gb", "rtx-4090-24gb" };
  const char * const none_args[] = { "--mmproj=none", NULL };
  g_autoptr(GPtrArray) entries = entries_for (ids, G_N_ELEMENTS (ids), 1);
  g_autoptr(HrCompareState) on = hr_compare_state_new ();
  g_autoptr(HrCompareState) off = hr_compare_state_new ();
  HrScenario base;

  hr_scenario_init (&base, hr_catalog_find_model (catalog, "gemma-3-27b"),
                    hr_catalog_find_gpu (catalog, "rtx-5090-32gb"));
  g_strlcpy (base.quant, "Q6_K", sizeof base.quant);
  base.context = 8192;
  base.mmproj_mode = HR_MMPROJ_AUTO;
  hr_compare_state_compute (on, &base, entries, catalog, NULL);
  assert_csv_matches_cli (&base, ids, G_N_ELEMENTS (ids), NULL);
  base.mmproj_mode = HR_MMPROJ_NONE;
  hr_compare_state_compute (off, &base, entries, catalog, NULL);
  assert_csv_matches_cli (&base, ids, G_N_ELEMENTS (ids), none_args);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const HrCompareColumn *a = g_ptr_array_index (on->columns, i);
      const HrCompareColumn *b = g_ptr_array_index (off->columns, i);

      g_assert_cmpfloat (a->row.estimate.mmproj_bytes, ==, 858000000);
      g_assert_cmpfloat (b->row.estimate.mmproj_bytes, ==, 0);
      g_assert_cmpfloat_with_epsilon (a->row.estimate.required_bytes - b->row.estimate.required_bytes,
                                      0.9135 * HR_GIB, 0.001 * HR_GIB);
    }
}

static void
test_mixed_column (void)
{
  const char * const ids[] = { "rtx-4090-24gb:1+rtx-3090-24gb:1", "rtx-4090-24gb", "nope:1+rtx-3090-24gb:1" };
  g_autoptr(GPtrArray) entries = entries_for (ids, G_N_ELEMENTS (ids), 2);
  g_autoptr(HrCompareState) st = hr_compare_state_new ();
  const HrGpu *g4090 = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
  const HrGpu *g3090 = hr_catalog_find_gpu (catalog, "rtx-3090-24gb");
  const HrCompareColumn *mixed, *two;
  HrDeviceKind kinds[HR_MAX_DEVICE_KINDS];
  g_autofree char *spec = NULL;
  HrScenario base;

  hr_scenario_init (&base, hr_catalog_find_model (catalog, "llama-3.3-70b"), g4090);
  g_strlcpy (base.quant, "Q4_K_M", sizeof base.quant);
  base.context = 8192;
  hr_compare_state_compute (st, &base, entries, catalog, NULL);
  g_assert_cmpuint (st->columns->len, ==, 2);
  mixed = g_ptr_array_index (st->columns, 0);
  two = g_ptr_array_index (st->columns, 1);
  g_assert_true (mixed->ok);
  g_assert_cmpstr (mixed->title, ==, "RTX 4090 24GB + RTX 3090 24GB");
  g_assert_cmpint (mixed->count, ==, 2);
  g_assert_true (hr_scenario_is_mixed (&mixed->row.scenario));
  g_assert_cmpint (mixed->row.estimate.placement.n_devices, ==, 2);
  g_assert_cmpfloat_with_epsilon (mixed->row.price_usd, g4090->price_usd + g3090->price_usd, 0.01);
  g_assert_cmpfloat_with_epsilon (mixed->row.power_w, g4090->tdp_w + g3090->tdp_w, 0.01);
  /* 2× RTX 4090 beside it: a plain group, not the mixed one */
  g_assert_cmpstr (two->title, ==, "RTX 4090 24GB");
  g_assert_false (hr_scenario_is_mixed (&two->row.scenario));
  g_assert_cmpint (two->row.scenario.n_gpus, ==, 2);

  g_assert_cmpint (hr_compare_setup_parse ("rtx-4090-24gb:1+rtx-3090-24gb:2", catalog, kinds, HR_MAX_DEVICE_KINDS), ==, 2);
  g_assert_cmpint (kinds[1].count, ==, 2);
  g_assert_cmpint (hr_compare_setup_parse ("rtx-4090-24gb:0+rtx-3090-24gb", catalog, kinds, HR_MAX_DEVICE_KINDS), ==, 0);
  spec = hr_compare_setup_spec (&mixed->row.scenario);
  g_assert_cmpstr (spec, ==, "rtx-4090-24gb:1+rtx-3090-24gb:1");
  g_assert_null (hr_compare_setup_spec (&two->row.scenario));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int rc;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/compare-state/table-is-the-csv", test_table_is_the_csv);
  g_test_add_func ("/compare-state/projector", test_projector);
  g_test_add_func ("/compare-state/csv-matches-cli", test_csv_matches_cli);
  g_test_add_func ("/compare-state/sort", test_sort);
  g_test_add_func ("/compare-state/best-and-diffs", test_best_and_diffs);
  g_test_add_func ("/compare-state/presets", test_presets);
  g_test_add_func ("/compare-state/serving-capacity", test_serving_capacity);
  g_test_add_func ("/compare-state/unknown-and-errors", test_unknown_and_errors);
  g_test_add_func ("/compare-state/mixed-column", test_mixed_column);
  g_test_add_func ("/finetune-state/matches-cli", test_finetune_matches_cli);
  g_test_add_func ("/finetune-state/state", test_finetune_state);
  g_test_add_func ("/finetune-state/subtitle-parentheses", test_finetune_subtitle_parentheses);

  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
