/* hr-size-view.c — the Size view: one scenario, sized live
 *
 * The scenario is the session's (hr-session.h): the controls are bound to its properties
 * (hr-size-view-bind.c).  Any change of the scenario schedules one recompute before the next
 * frame (an idle above GTK's redraw priority, so many changes in one main-loop turn cost one
 * recompute and the frame never shows stale numbers).  The recompute runs hr_estimate_compute()
 * (µs) and applies the cards and charts at once: well under a millisecond in all.  The
 * whole-catalog part — quant matrix, reverse answers, recommendations, diagnosis, launch
 * commands — runs hundreds of estimates (1–10 ms, more on slow machines) in the session's
 * worker thread, asked for after the frame; "advice-changed" brings it back.
 */
#include "hr-size-view-private.h"
#include "hr-draft-group.h"
#include "hr-device-rows.h"
#include "hr-size-load.h"
#include "hr-fit-others.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-navigation.h"
#include "hr-picker-items.h"
#include "hr-runs-state.h"
#include "hr-units.h"

#define MIN_SCALE_CONTEXT 2048
#define MAX_UI_CONTEXT (1 << 20)   /* 1M tokens when the model does not say */

G_DEFINE_FINAL_TYPE (HrSizeView, hr_size_view, GTK_TYPE_WIDGET)

enum
{
  SCENARIO_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void schedule_recompute (HrSizeView *self);
/* Small helpers --------------------------------------------------------------------------- */

static const HrModel *
selected_model (HrSizeView *self)
{
  const char *id = self->session ? hr_session_get_model (self->session) : NULL;

  return id ? hr_catalog_find_model (self->catalog, id) : NULL;
}

static const HrGpu *
selected_gpu (HrSizeView *self)
{
  const char *id = self->session ? hr_session_get_gpu (self->session) : NULL;

  return id ? hr_catalog_find_gpu (self->catalog, id) : NULL;
}

static gint64
round_context (double tokens)
{
  /* the log scale lands on round numbers: 1K steps above 4K, 256 below */
  gint64 step = tokens >= 4096 ? 1024 : 256;
  gint64 t = (gint64) floor (tokens / step + 0.5) * step;

  return MAX (t, HR_MIN_CONTEXT);
}

/* Pickers and lists ----------------------------------------------------------------------- */

/* The user's own entries first, under "Yours", then the catalog's by vendor. */
static void
fill_pickers (HrSizeView *self)
{
  g_autoptr(GPtrArray) models = hr_picker_items_models (self->catalog);
  g_autoptr(GPtrArray) gpus = hr_picker_items_gpus (self->catalog);

  hr_picker_set_items (self->model_picker, models);
  hr_picker_set_items (self->gpu_picker, gpus);
}

/* The quantizations by format family; the row names the current one's precision. */
static void
fill_quants (HrSizeView *self)
{
  g_autoptr(GPtrArray) quants = hr_picker_items_quants (self->catalog);

  hr_picker_set_items (self->quant_picker, quants);
}

static void
quant_picked_cb (HrSizeView *self)
{
  HrPickerItem *it = hr_picker_get_selected_item (self->quant_picker);

  adw_action_row_set_subtitle (self->quant_row, it ? hr_picker_item_get_subtitle (it) : "");
}

static void
quant_row_activated_cb (HrSizeView *self)
{
  hr_picker_popup (self->quant_picker);
}

/* Model-dependent limits ------------------------------------------------------------------ */

static void
set_context_marks (HrSizeView *self,
                   gint64      lo,
                   gint64      hi)
{
  int octaves = 0;

  gtk_scale_clear_marks (self->context_scale);
  for (gint64 t = lo; t <= hi; t *= 2)
    octaves++;
  for (gint64 t = lo, i = 0; t <= hi; t *= 2, i++)
    {
      g_autofree char *label = hr_format_context_short (t);
      gboolean labelled = octaves <= 8 || i % 2 == 0 || t == hi;
      gtk_scale_add_mark (self->context_scale, log2 ((double) t), GTK_POS_BOTTOM, labelled ? label : NULL);
    }
}

static void
update_model_limits (HrSizeView *self)
{
  const HrModel *m = selected_model (self);
  gint64 max = MAX_UI_CONTEXT;
  gint64 lo = MIN_SCALE_CONTEXT;
  gboolean moe;

  if (m == NULL)
    return;
  if (m->max_context > 0)
    max = MIN (m->max_context, HR_MAX_CONTEXT);
  if (max < lo * 2)
    lo = HR_MIN_CONTEXT;

  self->syncing_context = TRUE;
  gtk_adjustment_set_upper (self->context_log_adjustment, log2 ((double) max));
  gtk_adjustment_set_lower (self->context_log_adjustment, log2 ((double) lo));
  self->syncing_context = FALSE;
  /* the spin clamps the context to the new maximum, which then reaches the scale and
   * GSettings through the usual signals */
  gtk_adjustment_set_upper (self->context_adjustment, (double) max);
  if (gtk_adjustment_get_value (self->context_adjustment) > max)
    gtk_adjustment_set_value (self->context_adjustment, (double) max);
  self->syncing_context = TRUE;
  gtk_adjustment_set_value (self->context_log_adjustment,
                            log2 (MAX (gtk_adjustment_get_value (self->context_adjustment), 1)));
  self->syncing_context = FALSE;
  set_context_marks (self, lo, max);

  moe = hr_model_is_moe (m);
  gtk_widget_set_visible (GTK_WIDGET (self->moe_row), moe);
  /* the layers whose experts can stay on the CPU: core's rule, as the CLI's */
  gtk_adjustment_set_upper (self->moe_adjustment, hr_model_moe_layers (m));
  if (!moe)
    gtk_adjustment_set_value (self->moe_adjustment, 0);
}

/* The "Vision projector" switch: for a model whose projector the catalog knows, under llama.cpp
 * (vLLM and SGLang count the vision tower in the checkpoint's weights) (#31). */
static void
update_mmproj_row (HrSizeView *self)
{
  const HrModel *m = selected_model (self);
  g_autofree char *engine = NULL;
  gboolean show;

  if (self->session != NULL)
    g_object_get (self->session, "engine", &engine, NULL);
  show = m != NULL && m->mmproj_bytes > 0
         && g_strcmp0 (engine, hr_engine_to_string (HR_ENGINE_LLAMA_CPP)) == 0;

  gtk_widget_set_visible (GTK_WIDGET (self->mmproj_row), show);
  if (show)
    {
      g_autofree char *size = hr_size_format_gib (m->mmproj_bytes);
      g_autofree char *subtitle = NULL;

      if (m->gguf_path != NULL)
        /* TRANSLATORS: the vision projector switch's subtitle for a local GGUF: "0.8 GiB F16
         * mmproj beside the GGUF" */
        subtitle = g_strdup_printf (_("%s %s mmproj beside the GGUF"), size,
                                    m->mmproj_dtype ? m->mmproj_dtype : "");
      else
        /* TRANSLATORS: the vision projector switch's subtitle: "0.8 GiB F16 mmproj, loaded by -hf" */
        subtitle = g_strdup_printf (_("%s %s mmproj, loaded by -hf"), size,
                                    m->mmproj_dtype ? m->mmproj_dtype : "");

      adw_action_row_set_subtitle (self->mmproj_row, subtitle);
    }
}

static void
update_backend_subtitle (HrSizeView *self)
{
  const HrGpu *gpu = selected_gpu (self);
  g_autofree char *subtitle = NULL;

  if (adw_combo_row_get_selected (self->backend_row) == 0 && gpu != NULL)
    /* TRANSLATORS: the backend chosen automatically, e.g. "From the GPU: ROCm" */
    subtitle = g_strdup_printf (_("From the GPU: %s"), hr_size_backend_display (gpu->backend));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->backend_row), subtitle ? subtitle : "");
  /* "CPU + system RAM" is one machine: no count of GPUs to choose */
  gtk_widget_set_visible (GTK_WIDGET (self->gpus_row), gpu == NULL || gpu->backend != HR_BACKEND_CPU);
  /* with other GPUs beside it (#31) the count is the first GPU's, and llama.cpp splits layers */
  if (gpu != NULL && self->session != NULL && hr_session_get_n_extra_gpus (self->session) > 0)
    {
      /* TRANSLATORS: the "Number of GPUs" row's subtitle in a mixed setup: the count is the first GPU's */
      g_autofree char *of_first = g_strdup_printf (_("Of the %s"), gpu->name);
      adw_action_row_set_subtitle (self->gpus_row, of_first);
    }
  else
    adw_action_row_set_subtitle (self->gpus_row, _("Tensor parallel"));
}

/* The first frame --------------------------------------------------------------------------- */

/* Everything from the quantization matrix down (what fits, recommendations, diagnosis, launch
 * commands, the simulator) is below the fold and waits for the advice: the first frame
 * neither measures nor draws it (a sixth of the work before it).  It appears once that frame
 * is painted, or with the advice should that come first. */
static void
stop_waiting_for_paint (HrSizeView *self)
{
  if (self->frame_clock != NULL)
    g_clear_signal_handler (&self->after_paint_id, self->frame_clock);
  g_clear_object (&self->frame_clock);
}

static void
show_below_fold (HrSizeView *self)
{
  stop_waiting_for_paint (self);
  if (self->below_fold_shown)
    return;
  self->below_fold_shown = TRUE;
  for (GtkWidget *c = GTK_WIDGET (self->matrix_group); c != NULL; c = gtk_widget_get_next_sibling (c))
    gtk_widget_set_visible (c, TRUE);
  if (self->offscreen != NULL)
    for (guint i = 0; i < self->offscreen->len; i++)
      gtk_widget_set_visible (self->offscreen->pdata[i], TRUE);
  g_clear_pointer (&self->offscreen, g_ptr_array_unref);
}

/* A window no taller than this (its default size; 800 px unless the user made it taller) shows
 * neither the scenario's System-RAM Offload group (it starts below the Backend row, at ~786 px
 * in a 1280 × 800 window) nor the context chart (its card starts at ~818 px; a narrower window
 * puts it lower still).  Measured, shaped and drawn for a first frame that cannot show them, they
 * cost a sixteenth of it (callgrind, main thread): they wait for the frame as the rest below the
 * fold does.  A taller or maximized window has them from the start. */
#define SHORT_WINDOW 800

static void
hide_offscreen (HrSizeView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *parts[] = {
    gtk_widget_get_ancestor (GTK_WIDGET (self->offload_value_label), ADW_TYPE_PREFERENCES_GROUP),
    gtk_widget_get_parent (GTK_WIDGET (self->context_chart)),
  };
  int width, height;

  if (self->below_fold_shown || self->offscreen != NULL || !GTK_IS_WINDOW (root))
    return;
  gtk_window_get_default_size (GTK_WINDOW (root), &width, &height);
  if (height <= 0 || height > SHORT_WINDOW || gtk_window_is_maximized (GTK_WINDOW (root)) ||
      gtk_window_is_fullscreen (GTK_WINDOW (root)))
    return;
  self->offscreen = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL && gtk_widget_get_visible (parts[i]))
      {
        gtk_widget_set_visible (parts[i], FALSE);
        g_ptr_array_add (self->offscreen, parts[i]);
      }
}

static void
hide_below_fold (HrSizeView *self)
{
  for (GtkWidget *c = GTK_WIDGET (self->matrix_group); c != NULL; c = gtk_widget_get_next_sibling (c))
    gtk_widget_set_visible (c, FALSE);
}

static void
realize_cb (HrSizeView *self)
{
  if (self->below_fold_shown || self->frame_clock != NULL)
    return;
  self->frame_clock = g_object_ref (gtk_widget_get_frame_clock (GTK_WIDGET (self)));
  self->after_paint_id = g_signal_connect_swapped (self->frame_clock, "after-paint",
                                                   G_CALLBACK (show_below_fold), self);
}

/* The advice ---------------------------------------------------------------------------------- */

static void
advice_changed_cb (HrSizeView *self)
{
  self->advice = hr_session_get_advice (self->session);
  self->last_advice_ms = self->advice->elapsed_ms;
  show_below_fold (self);
  hr_size_view_apply_advice (self);
}

static void
advising_changed_cb (HrSizeView *self)
{
  if (hr_session_get_advising (self->session))
    gtk_spinner_start (self->advice_spinner);
  else
    gtk_spinner_stop (self->advice_spinner);
}

/* Recompute --------------------------------------------------------------------------------- */

static gboolean
start_advice_idle_cb (gpointer user_data)
{
  HrSizeView *self = user_data;

  self->advice_idle_id = 0;
  hr_session_request_advice (self->session);
  return G_SOURCE_REMOVE;
}

static gboolean
recompute_cb (gpointer user_data)
{
  HrSizeView *self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  const HrScenario *scenario;

  self->recompute_id = 0;
  scenario = self->session ? hr_session_get_scenario (self->session) : NULL;
  self->have_scenario = scenario != NULL;
  if (!self->have_scenario)
    return G_SOURCE_REMOVE;
  self->scenario = *scenario;

  {
    g_autofree char *cal = hr_runs_calibration_summary (&self->scenario,
                                                        hr_session_get_calibrations (self->session),
                                                        hr_session_get_use_calibration (self->session));
    adw_action_row_set_subtitle (self->measurements_row, cal);
  }

  self->estimate_ok = hr_estimate_compute (&self->scenario, hr_catalog_get_pricing (self->catalog),
                                           &self->estimate, &error);
  if (self->estimate_ok)
    {
      /* no offer for this very GPU: price it on the cheapest offer that fits (~10 µs) */
      hr_advice_fill_cost (&self->scenario, self->catalog, hr_catalog_get_pricing (self->catalog),
                           &self->estimate);
      hr_size_state_from_estimate (&self->state, &self->scenario, &self->estimate);
      if (self->estimate.verdict == HR_VERDICT_EXCEEDS)
        {
          /* it does not run: show the first suggested fix instead (a few estimates, µs) */
          HrFix fix;
          hr_advice_fix (&self->scenario, self->catalog, hr_catalog_get_pricing (self->catalog), &fix);
          hr_size_state_apply_fix (&self->state, &fix);
        }
    }
  else
    hr_size_state_from_error (&self->state, &self->scenario, error);
  hr_size_view_apply_state (self);
  hr_size_view_update_charts (self);
  /* the worker starts after this frame is drawn: spawning a thread is no business of the
   * frame that shows the new numbers */
  if (self->advice_idle_id == 0)
    self->advice_idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, start_advice_idle_cb, self, NULL);

  self->n_recomputes++;
  self->last_recompute_us = g_get_monotonic_time () - start;
  g_debug ("recompute #%u: %" G_GINT64_FORMAT " µs", self->n_recomputes, self->last_recompute_us);
  /* for the benchmark and the tests: the figures on screen are new */
  g_signal_emit (self, signals[SCENARIO_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
schedule_recompute (HrSizeView *self)
{
  if (self->recompute_id != 0 || self->session == NULL)
    return;
  /* above GDK_PRIORITY_REDRAW: the next frame already shows the new numbers */
  self->recompute_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute_cb, self, NULL);
}

/* The session ------------------------------------------------------------------------------- */

/* The lists and the limits from the session's catalog; the lists' bindings wait meanwhile. */
static void
refill (HrSizeView *self)
{
  hr_size_view_unbind_lists (self);
  fill_quants (self);
  fill_pickers (self);
  hr_size_view_bind_lists (self);
  update_model_limits (self);
  update_mmproj_row (self);
  update_backend_subtitle (self);
  schedule_recompute (self);
}

/* Callbacks --------------------------------------------------------------------------------- */

static void
model_changed_cb (HrSizeView *self)
{
  update_model_limits (self);
  update_mmproj_row (self);
}

static void
gpu_changed_cb (HrSizeView *self)
{
  update_backend_subtitle (self);
}

/* A GPU the user picks starts as one card (This Computer then gets its own count). */
static void
gpu_picked_cb (HrSizeView *self)
{
  gtk_adjustment_set_value (self->gpus_adjustment, 1);
}

static void
context_changed_cb (HrSizeView    *self,
                    GtkAdjustment *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);

  /* the spin button's +/− (and Up/Down) step by half a token: they go on by a power of two */
  if (value != floor (value))
    {
      gint64 next = hr_context_step (self->context_tokens, value > self->context_tokens);

      gtk_adjustment_set_value (adjustment, CLAMP ((double) next, gtk_adjustment_get_lower (adjustment),
                                                   gtk_adjustment_get_upper (adjustment)));
      return;
    }
  self->context_tokens = (gint64) value;
  if (!self->syncing_context)
    {
      self->syncing_context = TRUE;
      gtk_adjustment_set_value (self->context_log_adjustment,
                                log2 (MAX (gtk_adjustment_get_value (adjustment), 1)));
      self->syncing_context = FALSE;
    }
}

/* The context spin shows its count grouped as the labels around it are ("16.384" in German,
 * "16384" in the C locale, as the CLI writes it)... */
static gboolean
context_output_cb (GtkSpinButton *spin)
{
  char buf[64];

  hr_format_number_locale_buf (buf, sizeof buf, gtk_spin_button_get_value (spin), 0);
  if (g_strcmp0 (buf, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), buf);
  return TRUE;
}

/* ... and reads back what it shows, or what people type: "16,384" or "16.384" alike, "32K";
 * anything else keeps the value it had (GTK would take the lowest). */
static int
context_input_cb (GtkSpinButton *spin,
                  double        *value)
{
  gint64 tokens;

  if (!hr_parse_context_locale (gtk_editable_get_text (GTK_EDITABLE (spin)), &tokens))
    {
      *value = gtk_spin_button_get_value (spin);
      return GTK_INPUT_ERROR;
    }
  *value = (double) tokens;
  return TRUE;
}

static void
context_log_changed_cb (HrSizeView    *self,
                        GtkAdjustment *adjustment)
{
  gint64 tokens;

  if (self->syncing_context)
    return;
  tokens = round_context (exp2 (gtk_adjustment_get_value (adjustment)));
  tokens = MIN (tokens, (gint64) gtk_adjustment_get_upper (self->context_adjustment));
  self->syncing_context = TRUE;
  gtk_adjustment_set_value (self->context_adjustment, (double) tokens);
  self->syncing_context = FALSE;
}

static void
offload_changed_cb (HrSizeView    *self,
                    GtkAdjustment *adjustment)
{
  g_autofree char *text = g_strdup_printf (_("%.0f%%"), gtk_adjustment_get_value (adjustment));

  gtk_label_set_label (self->offload_value_label, text);
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_size_view_dispose (GObject *object)
{
  HrSizeView *self = HR_SIZE_VIEW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->recompute_id, g_source_remove);
  g_clear_handle_id (&self->advice_idle_id, g_source_remove);
  stop_waiting_for_paint (self);
  g_clear_pointer (&self->offscreen, g_ptr_array_unref);
  hr_size_view_unbind_lists (self);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SIZE_VIEW);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  for (guint i = 0; i < G_N_ELEMENTS (self->matrix_columns); i++)
    g_clear_object (&self->matrix_columns[i]);

  G_OBJECT_CLASS (hr_size_view_parent_class)->dispose (object);
}

static void
hr_size_view_finalize (GObject *object)
{
  HrSizeView *self = HR_SIZE_VIEW (object);

  hr_size_state_clear (&self->state);

  G_OBJECT_CLASS (hr_size_view_parent_class)->finalize (object);
}

/* The charts' export buttons, each with its menu (built when first opened) */
static const struct
{
  const char *button;
  const char *menu;
} export_menus[] = {
  { "breakdown_export_button", "breakdown_export_menu" },
  { "context_export_button", "context_export_menu" },
};

static gpointer
template_child (HrSizeView *self,
                const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (self), HR_TYPE_SIZE_VIEW, name);
}

static void
hr_size_view_class_init (HrSizeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_size_view_dispose;
  object_class->finalize = hr_size_view_finalize;

  /**
   * HrSizeView::scenario-changed:
   *
   * The scenario on screen was read and sized again (hr_size_view_get_scenario()).
   */
  signals[SCENARIO_CHANGED] =
    g_signal_new ("scenario-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CHART_WIDGET);
  g_type_ensure (HR_TYPE_SPEED_SIMULATOR);
  g_type_ensure (HR_TYPE_VERDICT_BANNER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-size-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpu_picker);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, measurements_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpus_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, quant_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, quant_picker);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, engine_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, backend_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_spin);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_scale);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_log_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpus_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, batch_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, offload_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, moe_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, offload_value_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, moe_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, mmproj_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, mmproj_switch);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, results_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, results_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, verdict_banner);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, cards_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, breakdown_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, projector_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, source_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, breakdown_chart);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_chart);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, matrix_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, advice_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, matrix_list);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, reverse_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, picks_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, diagnosis_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, launch_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, simulator);
  for (guint i = 0; i < G_N_ELEMENTS (export_menus); i++)
    {
      gtk_widget_class_bind_template_child_full (widget_class, export_menus[i].button, FALSE, 0);
      gtk_widget_class_bind_template_child_full (widget_class, export_menus[i].menu, FALSE, 0);
    }
  gtk_widget_class_bind_template_callback_full (widget_class, "matrix_row_activated_cb",
                                                G_CALLBACK (hr_size_view_matrix_row_activated));
  gtk_widget_class_bind_template_callback (widget_class, quant_row_activated_cb);

  /* "view." actions: the window forwards its shortcuts (Ctrl+F, Ctrl+G, Ctrl+E) to the
   * visible view, whichever it is. */
  hr_size_view_install_actions (widget_class);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_size_view_init (HrSizeView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  hr_size_view_fill_choice_rows (self);

  hr_size_state_init (&self->state);
  for (guint i = 0; i < G_N_ELEMENTS (self->matrix_columns); i++)
    self->matrix_columns[i] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  hr_picker_set_placeholder (self->model_picker, _("Search models by name, family or vendor"));
  hr_picker_set_placeholder (self->gpu_picker, _("Search GPUs by name or vendor"));
  hr_picker_set_placeholder (self->quant_picker, _("Search quantizations, e.g. Q5 or 4-bit"));
  hr_picker_set_compact (self->quant_picker, TRUE);
  g_signal_connect_object (self->quant_picker, "notify::selected-id", G_CALLBACK (quant_picked_cb),
                           self, G_CONNECT_SWAPPED);

  hr_size_view_build_results (self);
  hide_below_fold (self);
  for (guint i = 0; i < G_N_ELEMENTS (export_menus); i++)
    hr_navigation_menu_on_demand (template_child (self, export_menus[i].button),
                                  template_child (self, export_menus[i].menu));
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);

  self->context_tokens = (gint64) gtk_adjustment_get_value (self->context_adjustment);
  g_signal_connect_object (self->gpu_picker, "picked", G_CALLBACK (gpu_picked_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->context_adjustment, "value-changed", G_CALLBACK (context_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->context_log_adjustment, "value-changed", G_CALLBACK (context_log_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self->context_spin, "output", G_CALLBACK (context_output_cb), NULL);
  g_signal_connect (self->context_spin, "input", G_CALLBACK (context_input_cb), NULL);
  g_signal_connect_object (self->offload_adjustment, "value-changed", G_CALLBACK (offload_changed_cb),
                           self, G_CONNECT_SWAPPED);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", FALSE);
}

/* Public API -------------------------------------------------------------------------------- */

GtkWidget *
hr_size_view_new (void)
{
  return g_object_new (HR_TYPE_SIZE_VIEW, NULL);
}

void
hr_size_view_set_session (HrSizeView *self,
                          HrSession  *session)
{
  g_return_if_fail (HR_IS_SIZE_VIEW (self));
  g_return_if_fail (HR_IS_SESSION (session));
  g_return_if_fail (self->session == NULL);

  self->session = g_object_ref (session);
  self->catalog = hr_session_get_catalog (session);
  fill_quants (self);
  fill_pickers (self);
  hr_size_view_bind_session (self);
  hr_size_view_bind_lists (self);
  /* the other GPUs of a mixed setup, right under the first's picker */
  self->device_rows = hr_device_rows_new (session);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->gpu_picker))),
                              self->device_rows, GTK_WIDGET (self->gpu_picker));
  /* speculative decoding's draft (#31): a group of its own after the offload's */
  {
    GtkWidget *offload = gtk_widget_get_ancestor (GTK_WIDGET (self->moe_row), ADW_TYPE_PREFERENCES_GROUP);
    GtkWidget *draft = hr_draft_group_new ();

    hr_draft_group_set_session (HR_DRAFT_GROUP (draft), session);
    gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (offload)), draft, offload);
  }
  update_model_limits (self);
  update_mmproj_row (self);
  update_backend_subtitle (self);

  hr_session_watch (session, self, G_CALLBACK (schedule_recompute), G_CALLBACK (refill));
  /* the last section: other models on this hardware (What Runs Here's top rows) */
  gtk_box_append (GTK_BOX (self->results_box), hr_fit_others_new (session));
  g_signal_connect_object (session, "notify::model", G_CALLBACK (model_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::gpu", G_CALLBACK (gpu_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::engine", G_CALLBACK (update_mmproj_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::backend", G_CALLBACK (gpu_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::extra-gpus", G_CALLBACK (gpu_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "advice-changed", G_CALLBACK (advice_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::advising", G_CALLBACK (advising_changed_cb), self, G_CONNECT_SWAPPED);
  /* the first figures now, before the window is first laid out: its first frame shows them */
  g_clear_handle_id (&self->recompute_id, g_source_remove);
  recompute_cb (self);
  hide_offscreen (self);
}

HrSession *
hr_size_view_get_session (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->session;
}

HrCatalog *
hr_size_view_get_catalog (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->catalog;
}

const HrScenario *
hr_size_view_get_scenario (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->have_scenario ? &self->scenario : NULL;
}

const HrEstimate *
hr_size_view_get_estimate (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->have_scenario && self->estimate_ok ? &self->estimate : NULL;
}

const HrSizeState *
hr_size_view_get_state (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return &self->state;
}

gboolean
hr_size_view_select_model (HrSizeView *self,
                           const char *id)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);
  return hr_picker_set_selected_id (self->model_picker, id);
}

gboolean
hr_size_view_select_gpu (HrSizeView *self,
                         const char *id,
                         int         count)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (!hr_picker_set_selected_id (self->gpu_picker, id))
    return FALSE;
  if (count > 0)
    gtk_adjustment_set_value (self->gpus_adjustment, count);
  /* a pick is the whole hardware: no other GPUs of a mixed setup beside it (#31) */
  if (self->session != NULL)
    while (hr_session_get_n_extra_gpus (self->session) > 0)
      hr_session_remove_extra_gpu (self->session, 0);
  return TRUE;
}

gboolean
hr_size_view_select_quant (HrSizeView *self,
                           const char *quant)
{
  const HrQuantMix *q;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  /* "q4_k_m" names Q4_K_M too */
  q = self->catalog != NULL ? hr_catalog_find_quant (self->catalog, quant) : NULL;
  return q != NULL && hr_picker_set_selected_id (self->quant_picker, q->id);
}

gboolean
hr_size_view_apply_reverse (HrSizeView  *self,
                            HrReverseId  which)
{
  const HrReverseState *r;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (self->advice == NULL || (guint) which >= HR_N_REVERSE)
    return FALSE;
  r = &self->advice->reverse[which];
  if (!r->applicable)
    return FALSE;
  switch (which)
    {
    case HR_REVERSE_CONTEXT:
      gtk_adjustment_set_value (self->context_adjustment, (double) r->context);
      return TRUE;
    case HR_REVERSE_QUANT:
      return hr_size_view_select_quant (self, r->quant);
    case HR_REVERSE_GPUS:
      gtk_adjustment_set_value (self->gpus_adjustment, r->gpus);
      return TRUE;
    case HR_N_REVERSE:
    default:
      return FALSE;
    }
}

gboolean
hr_size_view_apply_pick (HrSizeView *self,
                         HrPickId    which)
{
  const HrPickState *p;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (self->advice == NULL || (guint) which >= HR_N_PICKS)
    return FALSE;
  p = &self->advice->picks[which];
  return p->gpu_id != NULL && hr_size_view_select_gpu (self, p->gpu_id, MAX (p->count, 1));
}

const HrAdviceState *
hr_size_view_get_advice (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->advice;
}

GtkWidget *
hr_size_view_get_hub_files (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->hub_files;
}

HrPicker *
hr_size_view_get_model_picker (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->model_picker;
}

HrPicker *
hr_size_view_get_gpu_picker (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->gpu_picker;
}

HrPicker *
hr_size_view_get_quant_picker (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->quant_picker;
}

AdwComboRow *
hr_size_view_get_kv_row (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->kv_row;
}

AdwComboRow *
hr_size_view_get_engine_row (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->engine_row;
}

GtkAdjustment *
hr_size_view_get_context_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->context_adjustment;
}

GtkAdjustment *
hr_size_view_get_gpus_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->gpus_adjustment;
}

GtkAdjustment *
hr_size_view_get_batch_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->batch_adjustment;
}

const char *
hr_size_view_get_card_text (HrSizeView   *self,
                            HrSizeCardId  card)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  g_return_val_if_fail ((guint) card < HR_SIZE_N_CARDS, NULL);
  return gtk_label_get_label (self->card_values[card]);
}

const char *
hr_size_view_get_verdict_text (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return hr_verdict_banner_get_title (HR_VERDICT_BANNER (self->verdict_banner));
}

HrChartWidget *
hr_size_view_get_chart (HrSizeView  *self,
                        HrChartKind  kind)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  if (kind == HR_CHART_LOAD)
    return self->load != NULL ? hr_size_load_get_chart (self->load) : NULL;
  return kind == HR_CHART_CONTEXT ? self->context_chart : self->breakdown_chart;
}

HrSpeedSimulator *
hr_size_view_get_simulator (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->simulator;
}

guint
hr_size_view_get_n_matrix_rows (HrSizeView *self)
{
  guint n = 0;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->matrix_list)); c; c = gtk_widget_get_next_sibling (c))
    if (g_object_get_data (G_OBJECT (c), "quant") != NULL)
      n++;
  return n;
}

gboolean
hr_size_view_is_busy (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);
  return self->recompute_id != 0 || self->advice_idle_id != 0 ||
         (self->session != NULL && hr_session_get_advising (self->session));
}

guint
hr_size_view_get_n_recomputes (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->n_recomputes;
}

gint64
hr_size_view_get_last_recompute_us (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->last_recompute_us;
}

double
hr_size_view_get_last_advice_ms (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->last_advice_ms;
}
