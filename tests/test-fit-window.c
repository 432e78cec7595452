/* test-fit-window.c — the What Runs Here view under Xvfb: the same rows as the core ranking for
 * the session's hardware, the scatter chart, a row opening in the Size view, the keyboard, the
 * narrow window, and the Size view's "other models on this hardware". */
#include <math.h>
#include <string.h>

#include "hr-test-window.h"
#include "hr-fit-others.h"
#include "hr-fit-view.h"
#include "hr-size-view.h"

static HrApplication *app;

static void
reset_filters (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  g_settings_reset (settings, "fit-context");
  g_settings_reset (settings, "fit-min-tps");
  g_settings_reset (settings, "fit-use-case");
  g_settings_reset (settings, "fit-sort");
}

static HrFitView *
show_fit_view (HrWindow *window)
{
  GtkWidget *view;

  g_assert_true (hr_window_set_visible_view (window, "fit"));
  view = hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_FIT_VIEW);
  g_assert_nonnull (view);
  hr_test_wait_settled (view);
  return HR_FIT_VIEW (view);
}

static void
test_rows_and_chart (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *size = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (size);
  HrFitView *view;
  const HrFitState *st;
  const HrScenario *s;
  const HrChartFit *chart;
  GtkListBox *list;
  guint n_rows = 0;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, "engine", "llama.cpp", "batch", 1, NULL);
  view = show_fit_view (window);
  st = hr_fit_view_get_state (view);
  s = hr_session_get_scenario (session);
  g_assert_nonnull (st);
  g_assert_cmpstr (st->title, ==, "What runs on 1× RTX 4090 24GB");
  /* the list: one row per model that fits, in the state's order, each described for screen
   * readers */
  list = hr_fit_view_get_list (view);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list)); row; row = gtk_widget_get_next_sibling (row))
    {
      const HrFitItem *it = g_ptr_array_index (st->items, n_rows);

      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, it->title);
      g_assert_true (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
      n_rows++;
    }
  g_assert_cmpuint (n_rows, ==, st->n_listed);
  /* every row is the core's ranking of the session's hardware: the estimate of its scenario */
  for (guint i = 0; i < st->n_listed; i++)
    {
      const HrFitRow *r = &g_array_index (st->rows, HrFitRow, i);
      HrScenario t = *s;
      HrEstimate e;

      t.model = r->model;
      t.context = 8192;
      t.n_cpu_moe = r->choice.scenario.n_cpu_moe;
      t.offload_pct = 0;
      g_strlcpy (t.quant, r->choice.quant->id, sizeof t.quant);
      g_assert_true (hr_estimate_compute (&t, NULL, &e, NULL));
      g_assert_cmpint (e.verdict, ==, r->choice.estimate.verdict);
      g_assert_cmpfloat (e.required_bytes, ==, r->choice.estimate.required_bytes);
      g_assert_cmpfloat (e.decode_tps, ==, r->choice.estimate.decode_tps);
    }
  /* the scatter: one point per model that fits, the frontier marked */
  chart = hr_chart_widget_get_data (hr_fit_view_get_chart (view));
  g_assert_nonnull (chart);
  g_assert_cmpint (chart->n_fitting, ==, (int) st->n_listed);
  g_assert_cmpint (chart->n_unknown, ==, (int) st->n_unknown);
  g_assert_true (chart->points[0].frontier);
  hr_test_window_close (window);
}

static void
test_open_in_size_view (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSession *session = hr_size_view_get_session (hr_window_get_size_view (window));
  HrFitView *view;
  const HrFitState *st;
  const HrFitItem *it;
  GtkWidget *row;
  g_autofree char *model_id = NULL;
  g_autofree char *quant = NULL;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, "model", "qwen3-8b", NULL);
  view = show_fit_view (window);
  st = hr_fit_view_get_state (view);
  it = g_ptr_array_index (st->items, 1);
  /* the state is ranked again once the scenario changes: keep what the row opens */
  model_id = g_strdup (it->model->id);
  quant = g_strdup (it->quant);
  /* by keyboard: the second row focused, Enter */
  row = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (hr_fit_view_get_list (view))));
  gtk_widget_grab_focus (row);
  g_assert_true (gtk_widget_has_focus (row));
  g_signal_emit_by_name (row, "activate");
  hr_test_flush ();
  g_assert_cmpstr (hr_window_get_visible_view (window), ==, "size");
  g_assert_cmpstr (hr_session_get_model (session), ==, model_id);
  g_assert_cmpstr (hr_session_get_quant (session), ==, quant);
  g_assert_cmpint (hr_session_get_scenario (session)->context, ==, 8192);
  hr_test_window_close (window);
}

static void
test_filters (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSession *session = hr_size_view_get_session (hr_window_get_size_view (window));
  HrFitView *view;
  const HrFitState *st;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, NULL);
  view = show_fit_view (window);
  hr_fit_view_set_needs (view, 8192, 100, HR_USE_CASE_GENERAL);
  st = hr_fit_view_get_state (view);
  g_assert_cmpfloat (st->needs.min_decode_tps, ==, 100);
  for (guint i = 0; i < st->n_listed; i++)
    g_assert_cmpfloat (((HrFitItem *) st->items->pdata[i])->decode_tps, >=, 100);
  hr_fit_view_set_needs (view, 1048576, 0, HR_USE_CASE_GENERAL);
  st = hr_fit_view_get_state (view);
  g_assert_cmpint (st->needs.min_context, ==, 1048576);
  hr_test_window_close (window);
  reset_filters ();
}

/* The filters are kept across restarts: what the user chose is in GSettings, and a new window
 * (a new view, as after starting the app again) ranks with it. */
static void
test_filters_kept (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  HrWindow *window = hr_test_window_open (app);
  HrSession *session = hr_size_view_get_session (hr_window_get_size_view (window));
  HrFitView *view;
  const HrFitState *st;
  g_autofree char *use_case = NULL;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, NULL);
  view = show_fit_view (window);
  st = hr_fit_view_get_state (view);
  g_assert_cmpint (st->needs.min_context, ==, 8192);
  /* chosen in the view: written to GSettings as the values, not as positions */
  hr_fit_view_set_needs (view, 32768, 20, HR_USE_CASE_CODING);
  g_assert_cmpint (g_settings_get_int64 (settings, "fit-context"), ==, 32768);
  g_assert_cmpfloat (g_settings_get_double (settings, "fit-min-tps"), ==, 20);
  use_case = g_settings_get_string (settings, "fit-use-case");
  g_assert_cmpstr (use_case, ==, "coding");
  g_settings_set_string (settings, "fit-sort", "speed");
  hr_test_window_close (window);

  /* the next start: the view comes up with them, and ranks with them */
  window = hr_test_window_open (app);
  session = hr_size_view_get_session (hr_window_get_size_view (window));
  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, NULL);
  view = show_fit_view (window);
  st = hr_fit_view_get_state (view);
  g_assert_cmpint (st->needs.min_context, ==, 32768);
  g_assert_cmpfloat (st->needs.min_decode_tps, ==, 20);
  g_assert_cmpint (st->needs.use_case, ==, HR_USE_CASE_CODING);
  g_assert_cmpint (st->needs.sort, ==, HR_FIT_SORT_SPEED);
  for (guint i = 1; i < st->n_listed; i++)
    g_assert_cmpfloat (((HrFitItem *) st->items->pdata[i])->decode_tps, <=,
                       ((HrFitItem *) st->items->pdata[i - 1])->decode_tps);
  hr_test_window_close (window);

  /* a value the view does not offer (set by hand) falls back to the default choice */
  g_settings_set_int64 (settings, "fit-context", 12345);
  window = hr_test_window_open (app);
  view = show_fit_view (window);
  g_assert_cmpint (hr_fit_view_get_state (view)->needs.min_context, ==, 8192);
  hr_test_window_close (window);
  reset_filters ();
}

static void
test_narrow (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrFitView *view;
  int min_w;

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  view = show_fit_view (window);
  hr_test_wait_settled (GTK_WIDGET (view));
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_test_message ("What Runs Here needs %d px", min_w);
  g_assert_cmpint (min_w, <=, 360);
  hr_test_window_close (window);
}

static void
test_other_models (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *size = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (size);
  GtkWidget *others;
  const char *before;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, "model", "qwen3.6-27b", "context", (gint64) 8192, NULL);
  others = hr_test_find_child_of_type (GTK_WIDGET (size), HR_TYPE_FIT_OTHERS);
  g_assert_nonnull (others);
  g_assert_cmpuint (hr_fit_others_get_n_rows (HR_FIT_OTHERS (others)), ==, 5);
  before = hr_session_get_model (session);
  g_assert_cmpstr (before, ==, "qwen3.6-27b");
  /* one click away: the first other model (Qwen3.6 35B-A3B, the next by quality) becomes the
   * scenario */
  g_assert_true (hr_fit_others_open (HR_FIT_OTHERS (others), 0));
  g_assert_cmpstr (hr_session_get_model (session), ==, "qwen3.6-35b-a3b");
  hr_test_window_close (window);
}

/* The Size view's list is What Runs Here's ranking: with the use case chosen there (kept in
 * GSettings), its first row is that ranking's best other model. */
static void
test_other_models_follow_use_case (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *size = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (size);
  GtkWidget *others;
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  g_autoptr(HrFitState) st = NULL;
  g_autoptr(GPtrArray) top = NULL;
  HrCatalog *catalog = hr_session_get_catalog (session);
  HrFitNeeds needs;
  const char *expected;

  g_settings_set_string (settings, "fit-use-case", "chat");
  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, "model", "qwen3.6-27b", "context", (gint64) 8192, NULL);
  others = hr_test_find_child_of_type (GTK_WIDGET (size), HR_TYPE_FIT_OTHERS);
  g_assert_cmpuint (hr_fit_others_get_n_rows (HR_FIT_OTHERS (others)), ==, 5);
  /* the chat ranking of the same hardware and context, the model being sized left out */
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  hr_fit_needs_init (&needs);
  needs.use_case = HR_USE_CASE_CHAT;
  st = hr_fit_state_new (hr_session_get_scenario (session), models, catalog, hr_quality_get_default (NULL), &needs);
  top = hr_fit_state_top (st, "qwen3.6-27b", 1);
  expected = ((HrFitItem *) top->pdata[0])->model->id;
  /* the general ranking's next (Qwen3.6 35B-A3B) has no arena score, so the lists differ */
  g_assert_cmpstr (expected, !=, "qwen3.6-35b-a3b");
  g_assert_true (hr_fit_others_open (HR_FIT_OTHERS (others), 0));
  g_assert_cmpstr (hr_session_get_model (session), ==, expected);
  hr_test_window_close (window);
  reset_filters ();
}

int
main (int    argc,
      char **argv)
{
  app = hr_test_app_init (&argc, &argv);
  g_test_add_func ("/fit-window/rows-and-chart", test_rows_and_chart);
  g_test_add_func ("/fit-window/open-in-size-view", test_open_in_size_view);
  g_test_add_func ("/fit-window/filters", test_filters);
  g_test_add_func ("/fit-window/filters-kept", test_filters_kept);
  g_test_add_func ("/fit-window/narrow", test_narrow);
  g_test_add_func ("/fit-window/other-models", test_other_models);
  g_test_add_func ("/fit-window/other-models-follow-use-case", test_other_models_follow_use_case);
  return g_test_run ();
}
