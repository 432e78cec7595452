/* test-fit-state.c — the What Runs Here view's items without a display: the words of each row
 * and the Size view's "other models on this hardware" */
#include <math.h>
#include <string.h>

#include "hr-fit-state.h"

static HrCatalog *catalog;

static HrFitState *
state_on (const char *gpu_id,
          gint64      min_context)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  HrScenario base;
  HrFitNeeds needs;

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  hr_scenario_init (&base, hr_catalog_get_model (catalog, 0), hr_catalog_find_gpu (catalog, gpu_id));
  hr_fit_needs_init (&needs);
  needs.min_context = min_context;
  return hr_fit_state_new (&base, models, catalog, hr_quality_get_default (NULL), &needs);
}

/* #31: the subtitle says whether vision models are ranked with their projector (the Size
 * view's switch), and the rows follow it */
static void
test_projector_subtitle (void)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  HrFitNeeds needs;
  HrScenario base;

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  hr_scenario_init (&base, hr_catalog_get_model (catalog, 0), hr_catalog_find_gpu (catalog, "rtx-5090-32gb"));
  hr_fit_needs_init (&needs);
  for (int on = 0; on < 2; on++)
    {
      g_autoptr(HrFitState) st = NULL;
      const HrFitItem *gemma = NULL;

      base.mmproj_mode = on ? HR_MMPROJ_AUTO : HR_MMPROJ_NONE;
      st = hr_fit_state_new (&base, models, catalog, hr_quality_get_default (NULL), &needs);
      g_assert_true (g_str_has_suffix (st->subtitle, on ? " · vision models counted with their projector"
                                                        : " · vision projectors left out"));
      for (guint i = 0; i < st->items->len; i++)
        if (g_str_equal (((const HrFitItem *) g_ptr_array_index (st->items, i))->model->id, "gemma-3-27b"))
          gemma = g_ptr_array_index (st->items, i);
      g_assert_nonnull (gemma);
      g_assert_cmpstr (gemma->quant, ==, on ? "Q6_K" : "Q8_0");
    }
}

static void
test_items (void)
{
  g_autoptr(HrFitState) st = state_on ("rtx-4090-24gb", 8192);
  guint listed = 0;
  gboolean seen_out = FALSE;

  g_assert_cmpuint (st->items->len, ==, hr_catalog_n_models (catalog));
  g_assert_cmpstr (st->title, ==, "What runs on 1× RTX 4090 24GB");
  g_assert_nonnull (strstr (st->subtitle, "22.8 GiB usable"));
  g_assert_nonnull (strstr (st->subtitle, "Artificial Analysis Intelligence Index v4"));
  /* a scenario that names no projector mode says nothing of projectors */
  g_assert_null (strstr (st->subtitle, "projector"));
  for (guint i = 0; i < st->items->len; i++)
    {
      const HrFitItem *it = g_ptr_array_index (st->items, i);
      const HrFitRow *r = &g_array_index (st->rows, HrFitRow, i);

      g_assert_true (it->model == r->model);
      g_assert_cmpstr (it->title, ==, r->model->name);
      g_assert_nonnull (strstr (it->description, it->title));
      if (!it->listed)
        {
          seen_out = TRUE;
          g_assert_cmpstr (it->badge, ==, "Does not fit");
          g_assert_cmpstr (it->badge_css, ==, "verdict-exceeds");
          g_assert_true (g_str_has_prefix (it->subtitle, "needs "));
          continue;
        }
      g_assert_false (seen_out);
      g_assert_cmpuint (it->rank, ==, ++listed);
      /* the row opens what was estimated */
      g_assert_cmpstr (it->quant, ==, r->choice.quant->id);
      g_assert_cmpint (it->context, ==, 8192);
      g_assert_cmpint (it->n_cpu_moe, ==, r->choice.scenario.n_cpu_moe);
      g_assert_true (g_str_has_prefix (it->subtitle, r->choice.quant->id));
      g_assert_nonnull (strstr (it->subtitle, "tokens/s"));
      if (r->choice.estimate.verdict == HR_VERDICT_TIGHT)
        g_assert_cmpstr (it->badge, ==, "Tight");
      else if (r->choice.scenario.n_cpu_moe == 0)
        g_assert_cmpstr (it->badge, ==, "Fits");
      if (isnan (it->quality_value))
        g_assert_cmpstr (it->quality, ==, "unknown");
    }
  g_assert_cmpuint (listed, ==, st->n_listed);
  g_assert_cmpuint (st->n_listed, >, 20);
  /* the best-known first: Qwen3.6 27B at 45.8 (× Q6_K's 0.99993) */
  g_assert_cmpstr (((HrFitItem *) st->items->pdata[0])->model->id, ==, "qwen3.6-27b");
  g_assert_cmpstr (((HrFitItem *) st->items->pdata[0])->quality, ==, "45.8");
  g_assert_nonnull (strstr (((HrFitItem *) st->items->pdata[0])->description, "1. Qwen3.6 27B: Fits, quality 45.8."));
}

static void
test_top (void)
{
  g_autoptr(HrFitState) st = state_on ("rtx-4090-24gb", 8192);
  g_autoptr(GPtrArray) top = hr_fit_state_top (st, "qwen3.6-27b", 4);
  g_autoptr(GPtrArray) all = hr_fit_state_top (st, NULL, 1000);

  g_assert_cmpuint (top->len, ==, 4);
  for (guint i = 0; i < top->len; i++)
    {
      const HrFitItem *it = top->pdata[i];
      g_assert_true (it->listed);
      g_assert_cmpstr (it->model->id, !=, "qwen3.6-27b");
      /* in rank order: the first is the second of the whole list */
      g_assert_cmpuint (it->rank, ==, i + 2);
    }
  g_assert_cmpuint (all->len, ==, st->n_listed);
}

static void
test_nothing_fits (void)
{
  /* a context no model holds on 24 GiB: every item is left out, with its reason */
  g_autoptr(HrFitState) st = state_on ("rtx-4090-24gb", 1048576);
  g_autoptr(GPtrArray) top = hr_fit_state_top (st, NULL, 4);

  g_assert_cmpuint (top->len, ==, st->n_listed);
  for (guint i = 0; i < st->items->len; i++)
    {
      const HrFitItem *it = g_ptr_array_index (st->items, i);
      if (!it->listed)
        g_assert_cmpstr (it->subtitle, !=, "");
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
  g_test_add_func ("/fit-state/items", test_items);
  g_test_add_func ("/fit-state/projector-subtitle", test_projector_subtitle);
  g_test_add_func ("/fit-state/top", test_top);
  g_test_add_func ("/fit-state/nothing-fits", test_nothing_fits);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
