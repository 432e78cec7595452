/* test-window.c — the main window under Xvfb: controls in, the core's numbers out
 *
 * Run through `xvfb-run -a` with GTK_A11Y=none, GSETTINGS_BACKEND=memory and
 * GSETTINGS_SCHEMA_DIR=<build>/data (tests/meson.build sets them).
 */
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-advice.h"
#include "hr-application.h"
#include "hr-chart-data.h"
#include "hr-draft-group.h"
#include "hr-fit-view.h"
#include "hr-scenario-state.h"
#include "hr-size-view-private.h"
#include "hr-speed-simulator.h"
#include "hr-toast.h"
#include "hr-units.h"
#include "hr-test-window.h"
#include "hr-window.h"

static HrApplication *app;

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The same scenario computed straight from the core. */
static void
expected_for (HrSizeView *view,
              HrScenario *s,
              HrEstimate *e,
              HrSizeState *st)
{
  HrCatalog *catalog = hr_size_view_get_catalog (view);
  const HrScenario *shown = hr_size_view_get_scenario (view);

  g_assert_nonnull (shown);
  hr_scenario_init (s, shown->model, shown->gpu);
  g_strlcpy (s->quant, shown->quant, sizeof s->quant);
  s->context = shown->context;
  s->n_gpus = shown->n_gpus;
  s->batch = shown->batch;
  s->kv_type = shown->kv_type;
  s->engine = shown->engine;
  s->offload_pct = shown->offload_pct;
  s->n_cpu_moe = shown->n_cpu_moe;
  g_assert_true (hr_estimate_compute (s, hr_catalog_get_pricing (catalog), e, NULL));
  hr_advice_fill_cost (s, catalog, hr_catalog_get_pricing (catalog), e);
  hr_size_state_init (st);
  hr_size_state_from_estimate (st, s, e);
  if (e->verdict == HR_VERDICT_EXCEEDS)
    {
      /* a setup that does not fit shows the suggested fix's speed and cost */
      HrFix fix;
      hr_advice_fix (s, catalog, hr_catalog_get_pricing (catalog), &fix);
      hr_size_state_apply_fix (st, &fix);
    }
}

static void
assert_shows (HrSizeView       *view,
              const HrScenario *s,
              const HrEstimate *e,
              const HrSizeState *st)
{
  const HrChartBreakdown *bd = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN));
  const HrChartContext *cx = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_CONTEXT));
  HrChartBreakdown expected_bd;

  for (guint i = 0; i < HR_SIZE_N_CARDS; i++)
    g_assert_cmpstr (hr_size_view_get_card_text (view, i), ==, st->cards[i].value);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), ==, hr_verdict_display (e->verdict));

  g_assert_nonnull (bd);
  hr_chart_breakdown_from_estimate (s, e, &expected_bd);
  g_assert_cmpfloat_with_epsilon (bd->required_gib, hr_to_gib (e->required_bytes), 1e-9);
  g_assert_cmpfloat_with_epsilon (bd->usable_gib, hr_to_gib (e->usable_bytes), 1e-9);
  g_assert_cmpfloat_with_epsilon (bd->physical_gib, hr_to_gib (e->physical_bytes), 1e-9);
  g_assert_cmpint (bd->verdict, ==, hr_chart_verdict_from_core (e->verdict));
  g_assert_cmpint (bd->n_devices, ==, expected_bd.n_devices);
  g_assert_cmpfloat_with_epsilon (bd->devices[0].weights_gib, expected_bd.devices[0].weights_gib, 1e-9);
  g_assert_cmpfloat_with_epsilon (bd->devices[0].kv_gib, expected_bd.devices[0].kv_gib, 1e-9);

  g_assert_nonnull (cx);
  g_assert_cmpfloat (cx->current_context, ==, (double) s->context);
  g_assert_cmpfloat_with_epsilon (cx->usable_gib, hr_to_gib (e->usable_bytes) / s->n_gpus, 1e-6);
  g_assert_cmpint (cx->verdict, ==, hr_chart_verdict_from_core (e->verdict));
}

static void
test_default_scenario (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  const HrScenario *s = hr_size_view_get_scenario (view);
  HrScenario es;
  HrEstimate ee;
  g_auto(HrSizeState) st;

  g_assert_nonnull (s);
  g_assert_cmpstr (s->model->id, ==, "glm-4.5-air");
  g_assert_cmpstr (s->gpu->id, ==, "rtx-pro-6000-blackwell-96gb");
  g_assert_cmpstr (s->quant, ==, "Q4_K_M");
  g_assert_cmpint (s->context, ==, 8192);
  g_assert_cmpint (s->n_gpus, ==, 1);

  expected_for (view, &es, &ee, &st);
  assert_shows (view, &es, &ee, &st);
  g_assert_cmpuint (hr_size_view_get_n_matrix_rows (view), >=, 7);

  /* one view: no switcher until Compare & co. exist */
  g_assert_cmpstr (hr_window_get_visible_view (window), ==, "size");
  g_test_message ("recompute: %" G_GINT64_FORMAT " µs; advice: %.1f ms",
                  hr_size_view_get_last_recompute_us (view), hr_size_view_get_last_advice_ms (view));
  hr_test_window_close (window);
}

static void
test_change_controls (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrScenario es;
  HrEstimate ee;
  g_auto(HrSizeState) st;

  /* model */
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_model_picker (view), "qwen3-32b"));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->model->id, ==, "qwen3-32b");
  expected_for (view, &es, &ee, &st);
  assert_shows (view, &es, &ee, &st);

  /* GPU */
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "rtx-4090-24gb"));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, "rtx-4090-24gb");
  hr_size_state_clear (&st);
  expected_for (view, &es, &ee, &st);
  assert_shows (view, &es, &ee, &st);

  /* context */
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 32768);
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->context, ==, 32768);
  hr_size_state_clear (&st);
  expected_for (view, &es, &ee, &st);
  assert_shows (view, &es, &ee, &st);

  /* quant */
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_quant_picker (view), "Q8_0"));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "Q8_0");
  hr_size_state_clear (&st);
  expected_for (view, &es, &ee, &st);
  assert_shows (view, &es, &ee, &st);
  /* Qwen3-32B at Q8_0 with 32K of context is more than a 24 GB card holds */
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), ==, "Does not fit");

  /* GPUs and batch */
  gtk_adjustment_set_value (hr_size_view_get_gpus_adjustment (view), 2);
  gtk_adjustment_set_value (hr_size_view_get_batch_adjustment (view), 4);
  hr_test_wait_size_view (view);
  hr_size_state_clear (&st);
  expected_for (view, &es, &ee, &st);
  g_assert_cmpint (es.n_gpus, ==, 2);
  g_assert_cmpint (es.batch, ==, 4);
  assert_shows (view, &es, &ee, &st);

  hr_test_window_close (window);
}

/* The context entry shows its count grouped by the locale like the labels beside it, as the
 * CLI writes it ("16384" in the C locale, "16.384" in German), and reads back what it shows or
 * what people type: "16,384" and "16.384" alike in German, "32K" (#18). */
static void
test_context_entry_grouped (void)
{
  static const struct { const char *locale; const char *shown; } cases[] = {
    { "C.UTF-8", "16384" },
    { "en_US.UTF-8", "16,384" },
    { "de_DE.UTF-8", "16.384" },
  };
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  GtkSpinButton *spin = view->context_spin;
  GtkAdjustment *adj = hr_size_view_get_context_adjustment (view);
  char buf[64];

  /* a model that holds 128K, whatever an earlier test left */
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_model_picker (view), "glm-4.5-air"));
  hr_test_wait_size_view (view);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      gtk_adjustment_set_value (adj, 16384);
      gtk_spin_button_update (spin);
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, cases[i].shown);
      gtk_editable_set_text (GTK_EDITABLE (spin), "32.768");
      gtk_spin_button_update (spin);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 32768);
      gtk_editable_set_text (GTK_EDITABLE (spin), "12,288");
      gtk_spin_button_update (spin);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 12288);
      gtk_editable_set_text (GTK_EDITABLE (spin), "8K");
      gtk_spin_button_update (spin);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 8192);
      /* garbage leaves the value as it was */
      gtk_editable_set_text (GTK_EDITABLE (spin), "1,5K");
      gtk_spin_button_update (spin);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 8192);
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==,
                       hr_format_number_locale_buf (buf, sizeof buf, 8192, 0));
      hr_test_wait_size_view (view);
      g_assert_cmpint (hr_size_view_get_scenario (view)->context, ==, 8192);
    }
  setlocale (LC_NUMERIC, "C.UTF-8");
  hr_test_window_close (window);
}

/* The quantization picker at the end of its row shows its title alone, centred on its drop-down
 * arrow like a combo row's value (#18: the arrow sat ~3 px below the title's middle). */
/* The drop-down arrow (pan-down-symbolic) under ROOT, or NULL. */
static GtkWidget *
find_arrow (GtkWidget *root)
{
  if (GTK_IS_IMAGE (root) && g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (root)), "pan-down-symbolic") == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_arrow (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_quant_arrow_centred (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  GtkWidget *picker = GTK_WIDGET (hr_size_view_get_quant_picker (view));
  GtkWidget *title = hr_test_find_child_of_type (picker, GTK_TYPE_LABEL);
  GtkWidget *arrow = hr_test_find_child_of_type (picker, GTK_TYPE_IMAGE);
  GtkWidget *kv_arrow;
  graphene_rect_t t, a, k;

  hr_test_wait_size_view (view);
  g_assert_nonnull (title);
  g_assert_nonnull (arrow);
  g_assert_true (gtk_widget_compute_bounds (title, picker, &t));
  g_assert_true (gtk_widget_compute_bounds (arrow, picker, &a));
  g_assert_cmpfloat (t.size.height, >, 0);
  g_assert_cmpfloat (fabs ((t.origin.y + t.size.height / 2) - (a.origin.y + a.size.height / 2)), <=, 1);
  /* and in the same column as the arrows of the combo rows below it (it sat 8 px left of them) */
  kv_arrow = find_arrow (GTK_WIDGET (hr_size_view_get_kv_row (view)));
  g_assert_nonnull (kv_arrow);
  g_assert_true (gtk_widget_compute_bounds (arrow, GTK_WIDGET (window), &a));
  g_assert_true (gtk_widget_compute_bounds (kv_arrow, GTK_WIDGET (window), &k));
  g_test_message ("arrow x: quantization %.0f, KV-cache %.0f", a.origin.x, k.origin.x);
  g_assert_cmpfloat (fabs (a.origin.x - k.origin.x), <=, 1);
  hr_test_window_close (window);
}

/* Many changes in one main-loop turn cost one recompute. */
static void
test_coalesce (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  guint before = hr_size_view_get_n_recomputes (view);

  hr_size_view_select_model (view, "llama-3.1-8b");
  hr_size_view_select_gpu (view, "h100-80gb-sxm", 1);
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 65536);
  hr_size_view_select_quant (view, "Q6_K");
  adw_combo_row_set_selected (hr_size_view_get_kv_row (view), HR_KV_Q8_0);
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_size_view_get_n_recomputes (view), ==, before + 1);
  g_assert_cmpint (hr_size_view_get_scenario (view)->kv_type, ==, HR_KV_Q8_0);
  g_assert_cmpint (hr_size_view_get_scenario (view)->context, ==, 65536);
  /* visible without delay: a few hundred µs on the main thread; the bound leaves room for a
   * loaded test machine */
  g_test_message ("recompute after 5 changes: %" G_GINT64_FORMAT " µs", hr_size_view_get_last_recompute_us (view));
  g_assert_cmpint (hr_size_view_get_last_recompute_us (view), <, 50000);
  hr_test_window_close (window);
}

/* The verdict banner wears the verdict's style and no other. */
static void
assert_verdict_style (HrSizeView *view)
{
  const char *want = hr_size_verdict_css (hr_size_view_get_estimate (view)->verdict);
  static const char * const all[] = { "verdict-fits", "verdict-tight", "verdict-exceeds", "verdict-error" };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    g_assert_cmpint (gtk_widget_has_css_class (view->verdict_banner, all[i]), ==, g_str_equal (all[i], want));
}

static void
test_verdict_style (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);

  assert_verdict_style (view);
  g_assert_true (hr_size_view_select_gpu (view, "rtx-4090-24gb", 1));
  g_assert_true (hr_size_view_select_model (view, "qwen3-32b"));
  hr_size_view_select_quant (view, "Q8_0");
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 32768);
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), ==, "Does not fit");
  assert_verdict_style (view);
  g_assert_true (hr_size_view_select_model (view, "llama-3.1-8b"));
  hr_size_view_select_quant (view, "Q4_K_M");
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 8192);
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), !=, "Does not fit");
  assert_verdict_style (view);
  hr_test_window_close (window);
}

/* The KV-cache and backend rows list core's tables, and a position is the id at it. */
static void
test_choice_rows (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  GListModel *kv = adw_combo_row_get_model (hr_size_view_get_kv_row (view));
  GListModel *backends = adw_combo_row_get_model (view->backend_row);
  g_autofree char *backend = NULL;
  guint n = 0;
  const HrBackend *choices = hr_backend_choices (&n);

  g_assert_cmpuint (g_list_model_get_n_items (kv), ==, HR_N_KV_TYPES);
  for (guint i = 0; i < HR_N_KV_TYPES; i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (kv), i), ==, hr_kv_type_display_name (i));
  g_assert_cmpuint (g_list_model_get_n_items (backends), ==, n + 1);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (backends), 0), ==, "Automatic");
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (backends), i + 1), ==,
                     hr_backend_display_name (choices[i]));

  adw_combo_row_set_selected (hr_size_view_get_kv_row (view), HR_KV_Q4_0);
  adw_combo_row_set_selected (view->backend_row, n);
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->kv_type, ==, HR_KV_Q4_0);
  g_object_get (hr_size_view_get_session (view), "backend", &backend, NULL);
  g_assert_cmpstr (backend, ==, hr_backend_to_string (choices[n - 1]));
  g_assert_cmpint (hr_size_view_get_scenario (view)->backend, ==, choices[n - 1]);

  adw_combo_row_set_selected (hr_size_view_get_kv_row (view), HR_KV_F16);
  adw_combo_row_set_selected (view->backend_row, 0);
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* Two windows, two Size views on one session: a change is advised on once, and both views
 * show the answers. */
static void
test_advice_once (void)
{
  HrWindow *first = hr_test_window_open (app);
  HrWindow *second = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (first);
  HrSession *session = hr_size_view_get_session (view);
  guint before = hr_session_get_n_advice_runs (session);

  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 16384);
  hr_test_wait_size_view (view);
  hr_test_wait_size_view (hr_window_get_size_view (second));
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, before + 1);
  g_assert_true (hr_size_view_get_advice (view) == hr_session_get_advice (session));
  g_assert_true (hr_size_view_get_advice (hr_window_get_size_view (second)) == hr_session_get_advice (session));
  hr_test_window_close (second);
  hr_test_window_close (first);
}

/* The last scenario comes back in a new window (GSettings memory backend). */
static void
test_settings_restore (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  const HrScenario *s;

  hr_size_view_select_model (view, "gemma-3-27b");
  hr_size_view_select_gpu (view, "mi300x-192gb", 2);
  hr_size_view_select_quant (view, "IQ4_XS");
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 16384);
  adw_combo_row_set_selected (hr_size_view_get_engine_row (view), HR_ENGINE_VLLM);
  hr_test_wait_size_view (view);

  g_assert_cmpstr (g_settings_get_string (settings, "model"), ==, "gemma-3-27b");
  g_assert_cmpstr (g_settings_get_string (settings, "gpu"), ==, "mi300x-192gb");
  g_assert_cmpstr (g_settings_get_string (settings, "quant"), ==, "IQ4_XS");
  g_assert_cmpint (g_settings_get_int64 (settings, "context"), ==, 16384);
  g_assert_cmpint (g_settings_get_int (settings, "gpus"), ==, 2);
  g_assert_cmpstr (g_settings_get_string (settings, "engine"), ==, "vllm");
  hr_test_window_close (window);

  /* a stale id falls back to the default model, the rest stays */
  g_settings_set_string (settings, "gpu", "no-such-gpu");
  window = hr_test_window_open (app);
  view = hr_window_get_size_view (window);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpstr (s->model->id, ==, "gemma-3-27b");
  g_assert_cmpstr (s->gpu->id, ==, "rtx-pro-6000-blackwell-96gb");
  g_assert_cmpstr (s->quant, ==, "IQ4_XS");
  g_assert_cmpint (s->context, ==, 16384);
  g_assert_cmpint (s->n_gpus, ==, 2);
  g_assert_cmpint (s->engine, ==, HR_ENGINE_VLLM);
  hr_test_window_close (window);

  /* a context beyond the model's maximum is clamped to it */
  g_settings_set_string (settings, "model", "qwen3-8b");
  g_settings_set_int64 (settings, "context", 1 << 20);
  window = hr_test_window_open (app);
  view = hr_window_get_size_view (window);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpint (s->context, ==, s->model->max_context);
  hr_test_window_close (window);

  g_settings_reset (settings, "model");
  g_settings_reset (settings, "gpu");
  g_settings_reset (settings, "quant");
  g_settings_reset (settings, "context");
  g_settings_reset (settings, "gpus");
  g_settings_reset (settings, "engine");
}

static void
test_picker_search (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPicker *models = hr_size_view_get_model_picker (view);
  HrPicker *gpus = hr_size_view_get_gpu_picker (view);
  GListModel *shown;
  guint n;

  /* by family, case-insensitively */
  n = hr_picker_search (models, "GLM");
  g_assert_cmpuint (n, >=, 3);
  shown = hr_picker_get_shown (models);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);
      g_autofree char *t = g_ascii_strdown (hr_picker_item_get_title (it), -1);
      if (!hr_picker_item_is_header (it))
        g_assert_nonnull (strstr (t, "glm"));
    }

  /* by vendor: one heading, all NVIDIA */
  n = hr_picker_search (gpus, "nvidia 80gb");
  g_assert_cmpuint (n, >=, 3);
  shown = hr_picker_get_shown (gpus);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);
      g_assert_cmpstr (hr_picker_item_get_group (it), ==, "NVIDIA");
      g_assert_true (hr_picker_item_is_header (it) == (i == 0));
    }
  g_assert_cmpuint (hr_picker_search (gpus, "no such accelerator"), ==, 0);

  /* the whole list is grouped by vendor, with headings */
  n = hr_picker_search (gpus, "");
  g_assert_cmpuint (n, >=, 50);
  g_assert_cmpuint (g_list_model_get_n_items (hr_picker_get_shown (gpus)), >, n);

  /* Ctrl+F opens the model search */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.find-model", NULL));
  hr_test_wait_settled (GTK_WIDGET (window));
  hr_picker_popdown (models);
  hr_test_window_close (window);
}

static gboolean
search_focused (gpointer data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (data));

  return GTK_IS_TEXT (focus) && gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY) != NULL;
}

/* The quantization picker: every quant once, grouped by format family; typing "q5" leaves
 * the Q5 mixes, Enter picks the first, and the session and the scenario follow. */
static void
test_quant_search (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPicker *quants = hr_size_view_get_quant_picker (view);
  HrCatalog *catalog = hr_size_view_get_catalog (view);
  const char *q5[] = { "Q5_K_M", "Q5_K_S", "Q5_1", "Q5_0" };
  const char *groups[] = { "16-bit", "GGUF k-quants", "GGUF legacy" };
  GListModel *shown = hr_picker_get_shown (quants);
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (quants), ADW_TYPE_ACTION_ROW);
  GtkWidget *focus;
  guint n_headers = 0, n_seen = 0;

  /* the whole list: each quant of the catalog once, under its family's heading */
  g_assert_cmpuint (hr_picker_search (quants, ""), ==, hr_catalog_n_quants (catalog));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);
      const char *id = hr_picker_item_get_id (it);
      const char *group = hr_picker_item_get_group (it);

      if (hr_picker_item_is_header (it))
        {
          n_headers++;
          continue;
        }
      if (g_str_equal (id, "BF16"))
        g_assert_cmpstr (group, ==, groups[0]);
      else if (g_str_equal (id, "Q4_K_M") || g_str_equal (id, "Q6_K"))
        g_assert_cmpstr (group, ==, groups[1]);
      else if (g_str_equal (id, "Q8_0") || g_str_equal (id, "Q4_0"))
        g_assert_cmpstr (group, ==, groups[2]);
      else if (g_str_has_prefix (id, "IQ"))
        g_assert_cmpstr (group, ==, "GGUF i-quants");
      else if (g_str_has_prefix (id, "UD-"))
        g_assert_cmpstr (group, ==, "GGUF Unsloth dynamic");
      g_assert_nonnull (hr_catalog_find_quant (catalog, id));
      g_assert_cmpstr (hr_picker_item_get_subtitle (it), ==, hr_catalog_find_quant (catalog, id)->label);
    }
  g_assert_cmpuint (n_headers, >=, 6);

  /* the row opens the list with the search entry focused (Alt+Q, Enter or a click on the row) */
  g_assert_nonnull (row);
  g_signal_emit_by_name (row, "activated");
  hr_test_wait_until (search_focused, window, "the quantization search entry to take the focus");
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (GTK_IS_TEXT (focus));
  g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY));

  /* typing "q5": the four Q5 mixes, under two headings, the 5.5-bit K-quants first */
  gtk_editable_set_text (GTK_EDITABLE (focus), "q5");
  g_assert_cmpuint (hr_picker_search (quants, "q5"), ==, G_N_ELEMENTS (q5));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);
      if (hr_picker_item_is_header (it))
        continue;
      g_assert_cmpuint (n_seen, <, G_N_ELEMENTS (q5));
      g_assert_cmpstr (hr_picker_item_get_id (it), ==, q5[n_seen++]);
    }
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, G_N_ELEMENTS (q5) + 2);

  /* Enter picks the first, the list closes; the session, the scenario and the row follow */
  g_signal_emit_by_name (focus, "activate");   /* what Enter does in the entry */
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_session_get_quant (hr_size_view_get_session (view)), ==, "Q5_K_M");
  g_assert_false (gtk_widget_get_mapped (focus));
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "Q5_K_M");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                   hr_catalog_find_quant (catalog, "Q5_K_M")->label);

  /* a quant chosen elsewhere (the session, in any case) moves the picker */
  g_assert_true (hr_size_view_select_quant (view, "iq4_xs"));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_picker_get_selected_id (quants), ==, "IQ4_XS");
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "IQ4_XS");
  g_assert_false (hr_size_view_select_quant (view, "Q9_Z"));
  g_assert_cmpstr (hr_picker_get_selected_id (quants), ==, "IQ4_XS");

  hr_size_view_select_quant (view, "Q4_K_M");
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

static void
count_paint_cb (GdkFrameClock *clock,
                guint         *n)
{
  (*n)++;
}

typedef struct
{
  HrSizeView *view;
  guint recomputes;  /* the view's recomputes when its first frame was painted */
  char *title;       /* its title then */
} FirstPaint;

static void
first_paint_cb (GdkFrameClock *clock,
                FirstPaint    *first)
{
  if (first->title != NULL)
    return;
  first->recomputes = hr_size_view_get_n_recomputes (first->view);
  first->title = g_strdup (gtk_label_get_text (first->view->title_label));
}

/* The first frame shows the figures (not empty cards filled a frame later), and leaves out
 * what lies below the fold (the quantization matrix down to the simulator): hidden while it
 * is built and painted, shown after it, once the frame is on screen. */
static void
test_first_frame_defers (void)
{
  HrWindow *window = hr_window_new (app);
  HrSizeView *view = hr_window_get_size_view (window);
  GtkWidget *below = GTK_WIDGET (view->matrix_group);
  GtkWidget *simulator = gtk_widget_get_ancestor (GTK_WIDGET (view->simulator), ADW_TYPE_PREFERENCES_GROUP);
  GdkFrameClock *clock;
  FirstPaint first = { view, 0, NULL };
  guint painted = 0;
  gulong id, first_id;

  g_assert_false (gtk_widget_get_visible (below));
  g_assert_false (gtk_widget_get_visible (simulator));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view->context_chart)));   /* above it */
  gtk_widget_realize (GTK_WIDGET (window));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  first_id = g_signal_connect (clock, "after-paint", G_CALLBACK (first_paint_cb), &first);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), &painted);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_false (gtk_widget_get_visible (below));
  while (painted == 0)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
  g_signal_handler_disconnect (clock, first_id);
  g_test_message ("first frame: %u recomputes, title “%s”", first.recomputes, first.title);
  g_assert_cmpuint (first.recomputes, ==, 1);
  g_assert_true (g_str_has_prefix (first.title, "GLM-4.5-Air"));
  g_free (first.title);
  g_assert_true (gtk_widget_get_visible (below));
  g_assert_true (gtk_widget_get_visible (simulator));
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_size_view_get_n_matrix_rows (view), >=, 7);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view->matrix_list)));
  hr_test_window_close (window);
}

static gboolean
shows_a_token (gpointer data)
{
  return hr_speed_simulator_get_n_shown (data) > 0;
}

static void
test_simulator (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSpeedSimulator *sim = hr_size_view_get_simulator (hr_window_get_size_view (window));
  g_autoptr(GPtrArray) tokens = hr_speed_simulator_tokenize ("Memory is the first wall");
  gboolean timed_out = FALSE;
  guint id, all, shown;
  gint64 start;

  g_assert_cmpuint (tokens->len, ==, 7);
  g_assert_cmpstr (g_ptr_array_index (tokens, 0), ==, "Memo");
  g_assert_cmpstr (g_ptr_array_index (tokens, 1), ==, "ry");
  g_assert_cmpstr (g_ptr_array_index (tokens, 2), ==, " is");

  hr_speed_simulator_set_rate (sim, 20, 2000, "test");
  hr_speed_simulator_start (sim);
  g_assert_true (hr_speed_simulator_get_running (sim));
  id = g_timeout_add_seconds (10, timeout_cb, &timed_out);
  while (!timed_out && hr_speed_simulator_get_running (sim))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
  all = hr_speed_simulator_get_n_shown (sim);
  g_assert_cmpuint (all, >, 200);

  /* stop halfway, at 10 tokens a second: no more than the time it ran allows (give or take
   * a frame), and nothing more once stopped */
  hr_speed_simulator_set_rate (sim, 10, 5, "slow");
  start = g_get_monotonic_time ();
  hr_speed_simulator_start (sim);
  hr_test_wait_until (shows_a_token, sim, "the simulator's first token");
  hr_speed_simulator_stop (sim);
  g_assert_false (hr_speed_simulator_get_running (sim));
  shown = hr_speed_simulator_get_n_shown (sim);
  g_assert_cmpuint (shown, <=, floor ((g_get_monotonic_time () - start) / 1e6 * 10 + 1) + 1);
  g_assert_cmpuint (shown, <, all);
  hr_test_wait_settled (GTK_WIDGET (sim));
  g_assert_cmpuint (hr_speed_simulator_get_n_shown (sim), ==, shown);
  hr_test_window_close (window);
}

/* The reverse answers and the recommendations apply what they say. */
static void
test_apply_answers (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  const HrAdviceState *adv;
  char expected[64];
  int min_gpus;

  hr_size_view_select_model (view, "glm-4.5-air");
  hr_size_view_select_gpu (view, "dcu-k100-ai-64gb", 1);
  hr_size_view_select_quant (view, "Q4_K_M");
  adw_combo_row_set_selected (hr_size_view_get_engine_row (view), HR_ENGINE_LLAMA_CPP);
  adw_combo_row_set_selected (hr_size_view_get_kv_row (view), HR_KV_F16);
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 8192);
  gtk_adjustment_set_value (hr_size_view_get_batch_adjustment (view), 1);
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), ==, "Does not fit");

  adv = hr_size_view_get_advice (view);
  g_assert_nonnull (adv);
  g_strlcpy (expected, adv->reverse[HR_REVERSE_QUANT].quant, sizeof expected);
  min_gpus = adv->reverse[HR_REVERSE_GPUS].gpus;
  g_assert_true (hr_size_view_apply_reverse (view, HR_REVERSE_QUANT));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, expected);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), !=, "Does not fit");

  hr_size_view_select_quant (view, "Q4_K_M");
  hr_test_wait_size_view (view);
  g_assert_true (hr_size_view_apply_reverse (view, HR_REVERSE_GPUS));
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->n_gpus, ==, min_gpus);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), !=, "Does not fit");

  /* already fits: nothing to apply for the GPU count */
  g_assert_false (hr_size_view_apply_reverse (view, HR_REVERSE_GPUS));
  gtk_adjustment_set_value (hr_size_view_get_gpus_adjustment (view), 1);
  hr_test_wait_size_view (view);

  adv = hr_size_view_get_advice (view);
  g_assert_nonnull (adv->picks[HR_PICK_SINGLE].gpu_id);
  g_strlcpy (expected, adv->picks[HR_PICK_SINGLE].gpu_id, sizeof expected);
  g_assert_true (hr_size_view_apply_pick (view, HR_PICK_SINGLE));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, expected);
  g_assert_cmpstr (hr_size_view_get_verdict_text (view), ==, "Fits with margin");
  hr_test_window_close (window);
}

/* A GPU added to the catalog (the user's own) shows in the picker, grouped as custom. */
static void
test_catalog_changed (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  g_autoptr(GError) error = NULL;
  HrGpu *gpu = hr_gpu_new_from_spec ("memory_gib=48,bandwidth_gbs=900,fp16_tflops=100,name=Lab card", &error);
  const HrScenario *s;

  g_assert_no_error (error);
  g_free (gpu->id);
  gpu->id = g_strdup ("user-lab-card");
  hr_session_add_gpu (session, gpu, NULL);
  hr_test_wait_size_view (view);

  g_assert_cmpuint (hr_picker_search (hr_size_view_get_gpu_picker (view), "lab card"), ==, 1);
  g_assert_true (hr_size_view_select_gpu (view, "user-lab-card", 1));
  hr_test_wait_size_view (view);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpstr (s->gpu->id, ==, "user-lab-card");
  g_assert_nonnull (hr_size_view_get_estimate (view));

  /* and goes again: the scenario falls back to the default GPU */
  hr_size_view_select_gpu (view, "rtx-pro-6000-blackwell-96gb", 1);
  hr_test_wait_size_view (view);
  g_assert_true (hr_session_remove_gpu (session, "user-lab-card"));
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_picker_search (hr_size_view_get_gpu_picker (view), "lab card"), ==, 0);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, "rtx-pro-6000-blackwell-96gb");
  hr_test_window_close (window);
}

/* The "experts on the CPU" control goes as far as core's count of MoE layers: Nemotron 3 Nano
 * has 52 layers but experts in 23 of them, as `headroom-cli` counts them. */
static void
test_moe_limit (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  const HrScenario *s;

  g_assert_true (hr_size_view_select_model (view, "nemotron-3-nano-30b-a3b"));
  g_object_set (session, "n-cpu-moe", 52, NULL);
  hr_test_wait_size_view (view);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpint (hr_model_moe_layers (s->model), ==, 23);
  g_assert_cmpint (s->n_cpu_moe, ==, 23);

  g_object_set (session, "n-cpu-moe", 0, NULL);
  hr_size_view_select_model (view, "glm-4.5-air");
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* The position of @name in the draft row's list, or -1. */
static int
draft_position (AdwComboRow *row,
                const char  *name)
{
  GListModel *list = adw_combo_row_get_model (row);

  for (guint i = 0; list != NULL && i < g_list_model_get_n_items (list); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (list), i), name) == 0)
      return (int) i;
  return -1;
}

/* Speculative decoding (#31): the sidebar lists the drafts this model and engine take — the
 * catalog's models of its tokenizer, its own MTP layers where the engine runs them — and a
 * chosen draft becomes its own part of the memory breakdown, the acceptance showing the
 * published default. */
static void
test_draft (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  GtkWidget *group = hr_test_find_child_of_type (GTK_WIDGET (view), HR_TYPE_DRAFT_GROUP);
  AdwComboRow *row;
  GtkSpinButton *spin;
  const HrChartBreakdown *bd;
  HrChartBreakdown expected_bd;
  const HrScenario *s;
  HrScenario es;
  HrEstimate ee;
  g_auto(HrSizeState) st;
  g_autofree char *draft = NULL;
  int pos;

  g_assert_nonnull (group);
  g_assert_true (gtk_widget_get_mapped (group));
  row = ADW_COMBO_ROW (hr_test_find_child_of_type (group, ADW_TYPE_COMBO_ROW));
  spin = GTK_SPIN_BUTTON (hr_test_find_child_of_type (group, GTK_TYPE_SPIN_BUTTON));

  /* GLM-4.5-Air on llama.cpp: no MTP (llama.cpp skips it), no smaller GLM of its vocabulary */
  g_object_set (session, "engine", "llama.cpp", NULL);
  g_assert_true (hr_size_view_select_model (view, "glm-4.5-air"));
  hr_test_wait_size_view (view);
  g_assert_cmpint (draft_position (row, "None"), ==, 0);
  g_assert_cmpint (draft_position (row, "Its own MTP layers"), ==, -1);
  g_object_set (session, "engine", "vllm", NULL);
  hr_test_wait_size_view (view);
  g_assert_cmpint (draft_position (row, "Its own MTP layers"), ==, 1);
  g_object_set (session, "engine", "llama.cpp", NULL);
  hr_test_wait_size_view (view);

  g_assert_true (hr_size_view_select_model (view, "llama-3.3-70b"));
  hr_test_wait_size_view (view);
  pos = draft_position (row, "Llama 3.2 3B Instruct");
  g_assert_cmpint (pos, ==, 1);
  g_assert_cmpint (draft_position (row, "Qwen3 0.6B"), ==, -1);
  g_assert_false (gtk_widget_get_sensitive (gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_ACTION_ROW)));

  adw_combo_row_set_selected (row, pos);
  hr_test_wait_size_view (view);
  g_object_get (session, "draft", &draft, NULL);
  g_assert_cmpstr (draft, ==, "llama-3.2-3b");
  s = hr_size_view_get_scenario (view);
  g_assert_cmpint (s->draft_kind, ==, HR_DRAFT_MODEL);
  g_assert_cmpstr (s->draft_model->id, ==, "llama-3.2-3b");
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 89);
  g_assert_true (gtk_widget_get_sensitive (gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_ACTION_ROW)));

  /* the breakdown's own part: the draft's weights, KV and buffers */
  es = *s;
  g_assert_true (hr_estimate_compute (&es, NULL, &ee, NULL));
  g_assert_cmpfloat (ee.draft_bytes, >, 0);
  bd = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN));
  hr_chart_breakdown_from_estimate (&es, &ee, &expected_bd);
  g_assert_cmpfloat_with_epsilon (bd->devices[0].draft_gib, expected_bd.devices[0].draft_gib, 1e-9);
  g_assert_cmpfloat_with_epsilon (bd->devices[0].draft_gib * bd->n_devices, hr_to_gib (ee.draft_bytes), 1e-9);
  g_assert_cmpfloat_with_epsilon (bd->required_gib, hr_to_gib (ee.required_bytes), 1e-9);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, &es, &ee);
  g_assert_nonnull (strstr (st.breakdown, "Draft model"));
  g_assert_nonnull (strstr (st.cards[HR_SIZE_CARD_DECODE].note, "at 89 % acceptance, 3 drafted: ~"));

  /* the acceptance moves the session's figure */
  gtk_spin_button_set_value (spin, 60);
  hr_test_wait_size_view (view);
  g_assert_cmpfloat (hr_size_view_get_scenario (view)->draft_accept, ==, 0.6);

  /* back to none: no part */
  adw_combo_row_set_selected (row, 0);
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->draft_kind, ==, HR_DRAFT_NONE);
  bd = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN));
  g_assert_cmpfloat (bd->devices[0].draft_gib, ==, 0);
  hr_size_view_select_model (view, "glm-4.5-air");
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* #31: Gemma 3 27B on RTX 4090 + RTX 3090 under llama.cpp: the "Vision projector" switch shows,
 * the projector is its own part (the line under the breakdown, the chart's first bar, the
 * chart's description); switched off, it is gone and the total drops by it; a model without a
 * known projector hides the switch. */
static void
test_projector (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  const char *extra[] = { "rtx-3090-24gb:1", NULL };
  const char *none[] = { NULL };
  AdwActionRow *row = view->mmproj_row;
  GtkSwitch *sw = view->mmproj_switch;
  const HrChartBreakdown *chart;
  double with, without;

  g_object_set (session, "engine", "llama.cpp", "gpus", 1, NULL);
  g_assert_true (hr_size_view_select_model (view, "gemma-3-27b"));
  g_assert_true (hr_size_view_select_gpu (view, "rtx-4090-24gb", 1));
  g_object_set (session, "extra-gpus", extra, NULL);
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (row)));
  g_assert_true (hr_size_view_get_scenario (view)->n_kinds == 2);
  g_assert_nonnull (hr_size_view_get_state (view)->projector);
  g_assert_true (g_str_has_prefix (hr_size_view_get_state (view)->projector,
                                   "Vision projector 0.91 GiB on GPU 1 · RTX 4090 24GB"));
  chart = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN));
  g_assert_nonnull (chart);
  g_assert_cmpint (chart->n_devices, ==, 2);
  g_assert_cmpfloat (chart->devices[0].projector_gib, >, 0.9);
  g_assert_cmpfloat (chart->devices[1].projector_gib, ==, 0);
  with = hr_size_view_get_estimate (view)->required_bytes;

  /* the switch off: no projector */
  g_assert_true (gtk_switch_get_active (sw));
  gtk_switch_set_active (sw, FALSE);
  hr_test_wait_size_view (view);
  g_assert_null (hr_size_view_get_state (view)->projector);
  without = hr_size_view_get_estimate (view)->required_bytes;
  g_assert_cmpfloat_with_epsilon (with - without, 0.9135 * HR_GIB, 0.001 * HR_GIB);
  gtk_switch_set_active (sw, TRUE);

  /* no projector known: no switch */
  g_assert_true (hr_size_view_select_model (view, "glm-4.5-air"));
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (row)));
  g_object_set (session, "extra-gpus", none, NULL);
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* #31/#26: one answer for Gemma 3 27B on one RTX 5090 32GB (llama.cpp, 8K), where its projector
 * (0.91 GiB) decides the quant.  The Size view's "Vision projector" switch on: What Runs Here
 * ranks it with the projector (Q6_K; at Q8_0 the projector leaves too little margin) and the
 * Size view at that quant shows the same memory and verdict; the switch off: both size it
 * without (Q8_0 fits). */
/* The Size view's llama.cpp launch command, or NULL. */
static const char *
llama_launch (HrSizeView *view)
{
  const HrAdviceState *advice = hr_size_view_get_advice (view);

  for (guint i = 0; advice != NULL && advice->launch != NULL && i < advice->launch->len; i++)
    {
      const HrLaunchCommand *cmd = g_ptr_array_index (advice->launch, i);

      if (cmd->engine == HR_ENGINE_LLAMA_CPP)
        return cmd->command;
    }
  return NULL;
}

static const HrFitRow *
fit_row_of (const HrFitState *st,
            const char       *model_id)
{
  for (guint i = 0; i < st->rows->len; i++)
    if (g_str_equal (g_array_index (st->rows, HrFitRow, i).model->id, model_id))
      return &g_array_index (st->rows, HrFitRow, i);
  return NULL;
}

static void
test_projector_fit_agrees (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  GtkSwitch *sw = view->mmproj_switch;
  double required[2] = { 0, 0 };
  /* the tests after this one read the scenario the tests before left */
  g_autofree char *was_model = g_strdup (hr_session_get_model (session));
  g_autofree char *was_gpu = g_strdup (hr_session_get_gpu (session));
  g_autofree char *was_quant = g_strdup (hr_session_get_quant (session));
  g_autofree char *was_engine = NULL;
  gint64 was_context = 0;
  int was_gpus = 1, was_batch = 1;

  g_object_get (session, "engine", &was_engine, "context", &was_context, "gpus", &was_gpus,
                "batch", &was_batch, NULL);
  g_object_set (session, "engine", "llama.cpp", "gpus", 1, "batch", 1, "context", (gint64) 8192,
                NULL);
  g_assert_true (hr_size_view_select_model (view, "gemma-3-27b"));
  g_assert_true (hr_size_view_select_gpu (view, "rtx-5090-32gb", 1));
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view->mmproj_row)));
  for (int on = 1; on >= 0; on--)
    {
      GtkWidget *fit;
      const HrFitState *st;
      const HrFitRow *row;
      const HrEstimate *e;
      g_autofree char *quant = NULL;
      double fit_required;
      HrVerdict fit_verdict;

      gtk_switch_set_active (sw, on);
      hr_test_wait_size_view (view);
      g_assert_true (hr_window_set_visible_view (window, "fit"));
      fit = hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_FIT_VIEW);
      g_assert_nonnull (fit);
      hr_test_wait_settled (fit);
      st = hr_fit_view_get_state (HR_FIT_VIEW (fit));
      g_assert_nonnull (st);
      row = fit_row_of (st, "gemma-3-27b");
      g_assert_nonnull (row);
      g_assert_nonnull (row->choice.quant);
      g_assert_cmpstr (row->choice.quant->id, ==, on ? "Q6_K" : "Q8_0");
      g_assert_cmpfloat (row->choice.estimate.mmproj_bytes, ==, on ? 858000000 : 0);
      /* the Size view's model's projector is its own: a text model is ranked without one */
      g_assert_nonnull (fit_row_of (st, "llama-3.1-8b"));
      g_assert_cmpfloat (fit_row_of (st, "llama-3.1-8b")->choice.estimate.mmproj_bytes, ==, 0);
      quant = g_strdup (row->choice.quant->id);
      fit_required = row->choice.estimate.required_bytes;
      fit_verdict = row->choice.estimate.verdict;

      g_assert_true (hr_window_set_visible_view (window, "size"));
      g_assert_true (hr_size_view_select_quant (view, quant));
      hr_test_wait_size_view (view);
      e = hr_size_view_get_estimate (view);
      g_assert_cmpfloat (e->required_bytes, ==, fit_required);
      g_assert_cmpint (e->verdict, ==, fit_verdict);
      g_assert_cmpint (e->verdict, ==, HR_VERDICT_FITS);
      g_assert_cmpint (on ? e->mmproj_bytes > 0 : e->mmproj_bytes == 0, ==, TRUE);
      /* and the command launches what was counted: -hf loads the projector unless --no-mmproj */
      g_assert_nonnull (llama_launch (view));
      g_assert_nonnull (strstr (llama_launch (view), "-hf "));
      g_assert_true ((strstr (llama_launch (view), "--no-mmproj") == NULL) == on);
      /* at Q8_0 with the projector the Size view does not say "fits" either */
      g_assert_true (hr_size_view_select_quant (view, "Q8_0"));
      hr_test_wait_size_view (view);
      required[on] = hr_size_view_get_estimate (view)->required_bytes;
      if (on)
        g_assert_cmpint (hr_size_view_get_estimate (view)->verdict, !=, HR_VERDICT_FITS);
    }
  /* the difference the two answers used to disagree by */
  g_assert_cmpfloat_with_epsilon (required[1] - required[0], 0.9135 * HR_GIB, 0.001 * HR_GIB);
  gtk_switch_set_active (sw, TRUE);

  /* a text model in the Size view (its switch hidden, the setting still auto): What Runs Here
   * still sizes Gemma 3 27B with its own projector, as the Size view does when it is opened */
  g_assert_true (hr_size_view_select_model (view, "qwen3-8b"));
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view->mmproj_row)));
  {
    GtkWidget *fit;
    const HrFitRow *row;

    g_assert_true (hr_window_set_visible_view (window, "fit"));
    fit = hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_FIT_VIEW);
    hr_test_wait_settled (fit);
    row = fit_row_of (hr_fit_view_get_state (HR_FIT_VIEW (fit)), "gemma-3-27b");
    g_assert_nonnull (row);
    g_assert_cmpstr (row->choice.quant->id, ==, "Q6_K");
    g_assert_cmpfloat (row->choice.estimate.mmproj_bytes, ==, 858000000);
    g_assert_true (hr_window_set_visible_view (window, "size"));
  }
  g_object_set (session, "model", was_model, "gpu", was_gpu, "quant", was_quant, "engine", was_engine,
                "context", was_context, "gpus", was_gpus, "batch", was_batch, NULL);
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* Closing saves the window size; the view comes back as it was. */
static void
test_window_state (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");

  g_assert_cmpstr (hr_window_get_visible_view (window), ==, "size");
  g_assert_false (hr_window_set_visible_view (window, "no-such-view"));
  g_assert_true (hr_window_set_visible_view (window, "compare"));
  g_assert_true (hr_window_set_visible_view (window, "size"));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  hr_test_wait_settled (GTK_WIDGET (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 760);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_cmpstr (g_settings_get_string (settings, "last-view"), ==, "size");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
read_text_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  *(char **) data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*(char **) data == NULL)
    *(char **) data = g_strdup ("");
}

static void
test_copy_json (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  g_autofree char *text = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-json", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (view)), NULL, read_text_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (text, "\"model\": \"glm-4.5-air\""));
  g_assert_nonnull (strstr (text, "\"verdict\": "));
  hr_test_window_close (window);
}

static void
test_export (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  g_autofree char *dir = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "breakdown.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "context.svg", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (hr_chart_widget_export (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN), png, 600, 300, 1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (png, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 8);
  g_assert_cmpint (memcmp (contents, "\x89PNG", 4), ==, 0);
  g_clear_pointer (&contents, g_free);

  g_assert_true (hr_chart_widget_export (hr_size_view_get_chart (view, HR_CHART_CONTEXT), svg, 600, 400, 1, &error));
  g_assert_true (g_file_get_contents (svg, &contents, &length, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));

  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);
  hr_test_window_close (window);
}

static void
collect_commands (GtkWidget *widget,
                  GPtrArray *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "command") && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_commands (c, out);
}

static gboolean
window_narrow (gpointer window)
{
  return gtk_widget_get_width (window) <= 370;
}

/* #26 item 7: at 360 px a launch command wraps between its arguments only: no flag is cut
 * ("--ctx-" / "size"), no flag is parted from its value ("--ctx-size" / "8192"), and the
 * Size view still fits the window. */
static void
test_narrow_commands (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint n_wrapped = 0;
  int min_w;

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  hr_test_wait_until (window_narrow, window, "a 360 px window");
  hr_test_wait_settled (GTK_WIDGET (view));
  collect_commands (GTK_WIDGET (view), labels);
  g_assert_cmpuint (labels->len, >=, 2);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = labels->pdata[i];
      const char *text = pango_layout_get_text (gtk_label_get_layout (label));
      PangoLayout *layout = gtk_label_get_layout (label);
      g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
      const char *line_start = text;

      if (pango_layout_get_line_count (layout) > (int) g_strv_length (lines))
        n_wrapped++;
      /* every flag with its value (or a lone argument) on one line of the layout */
      for (guint l = 0; lines[l] != NULL; line_start += strlen (lines[l]) + 1, l++)
        {
          g_auto(GStrv) words = g_strsplit (lines[l], " ", -1);
          const char *p = line_start;

          for (guint w = 0; words[w] != NULL; w++)
            {
              const char *word = words[w];
              int first, last, x;

              p = strstr (p, word);
              if (*word == '\0' || p == NULL)
                continue;
              /* "--ctx-size 8192": the flag and the value that follows it, when they are
               * short enough together to keep whole; else each on its own */
              if (word[0] == '-' && words[w + 1] != NULL && words[w + 1][0] != '-' && words[w + 1][0] != '\\'
                  && g_utf8_strlen (word, -1) + 1 + g_utf8_strlen (words[w + 1], -1) <= 28)
                {
                  pango_layout_index_to_line_x (layout, p - text, FALSE, &first, &x);
                  pango_layout_index_to_line_x (layout, p - text + strlen (word) + strlen (words[w + 1]), FALSE, &last, &x);
                }
              else
                {
                  pango_layout_index_to_line_x (layout, p - text, FALSE, &first, &x);
                  pango_layout_index_to_line_x (layout, p - text + strlen (word) - 1, FALSE, &last, &x);
                }
              if (g_utf8_strlen (word, -1) <= 28 && first != last)
                g_error ("“%s…” breaks at 360 px between lines %d and %d of “%s”", word, first, last, text);
              p += strlen (word);
            }
        }
    }
  g_test_message ("%u of %u commands wrap", n_wrapped, labels->len);
  g_assert_cmpuint (n_wrapped, >=, 1);
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_assert_cmpint (min_w, <=, 360);
  hr_test_window_close (window);
}

/* Toast titles are markup: a file named R&D.png made GTK refuse the text (a warning, fatal
 * here) and show an empty toast. */
static void
test_toast_markup (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  AdwToast *toast = hr_toast_new_text ("Exported to /tmp/R&D <b>.png\033[2J");

  g_assert_cmpstr (adw_toast_get_title (toast), ==,
                   "Exported to /tmp/R&amp;D &lt;b&gt;.png\\x1B[2J");
  g_object_unref (g_object_ref_sink (toast));
  hr_toast_show_text (GTK_WIDGET (view), "Exported to /tmp/R&D.png", HR_TOAST_INFO);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  hr_test_window_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/window/default-scenario", test_default_scenario);
  g_test_add_func ("/window/change-controls", test_change_controls);
  g_test_add_func ("/window/draft", test_draft);
  g_test_add_func ("/window/context-entry-grouped", test_context_entry_grouped);
  g_test_add_func ("/window/quant-arrow-centred", test_quant_arrow_centred);
  g_test_add_func ("/window/coalesce", test_coalesce);
  g_test_add_func ("/window/advice-once", test_advice_once);
  g_test_add_func ("/window/choice-rows", test_choice_rows);
  g_test_add_func ("/window/verdict-style", test_verdict_style);
  g_test_add_func ("/window/settings-restore", test_settings_restore);
  g_test_add_func ("/window/picker-search", test_picker_search);
  g_test_add_func ("/window/quant-search", test_quant_search);
  g_test_add_func ("/window/first-frame-defers", test_first_frame_defers);
  g_test_add_func ("/window/simulator", test_simulator);
  g_test_add_func ("/window/apply-answers", test_apply_answers);
  g_test_add_func ("/window/window-state", test_window_state);
  g_test_add_func ("/window/catalog-changed", test_catalog_changed);
  g_test_add_func ("/window/moe-limit", test_moe_limit);
  g_test_add_func ("/window/projector", test_projector);
  g_test_add_func ("/window/projector-fit-agrees", test_projector_fit_agrees);
  g_test_add_func ("/window/copy-json", test_copy_json);
  g_test_add_func ("/window/export", test_export);
  g_test_add_func ("/window/toast-markup", test_toast_markup);
  g_test_add_func ("/window/narrow-commands", test_narrow_commands);

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}

