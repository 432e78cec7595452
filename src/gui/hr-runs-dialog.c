/* hr-runs-dialog.c — Import Measurements: the runs and devices shown, calibrating */
#include "hr-runs-dialog-private.h"

#include <glib/gi18n-lib.h>

#include "hr-picker-items.h"

G_DEFINE_FINAL_TYPE (HrRunsDialog, hr_runs_dialog, ADW_TYPE_WINDOW)

/* Applying the state ------------------------------------------------------------------------- */

static void
clear_box (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    {
      if (GTK_IS_LIST_BOX (box))
        gtk_list_box_remove (GTK_LIST_BOX (box), child);
      else
        gtk_box_remove (GTK_BOX (box), child);
    }
}

static GtkWidget *
wrapped_label (const char *text,
               const char *css)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  return label;
}

static GtkWidget *
figure_row (const HrRunFigureState *f)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *sub = NULL;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), f->quantity);
  if (f->predicted != NULL)
    /* TRANSLATORS: one figure of a run, "Measured 45.2 tok/s · predicted 48.1 tok/s" */
    sub = g_strdup_printf (_("Measured %s · predicted %s"), f->measured, f->predicted);
  else
    /* TRANSLATORS: one figure of a run Headroom could not predict, "Measured 45.2 tok/s" */
    sub = g_strdup_printf (_("Measured %s"), f->measured);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), sub);
  if (f->error != NULL)
    {
      GtkWidget *badge = gtk_label_new (f->error);

      gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (badge, "fit-badge");
      gtk_widget_add_css_class (badge, f->error_css);
      gtk_widget_add_css_class (badge, "numeric");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
    }
  {
    /* one name for the whole row: the quantity, both figures and the error */
    g_autofree char *name = f->error != NULL
      /* TRANSLATORS: a run's figure read aloud, "Decode: Measured 45.2 tok/s · predicted 48.1 tok/s, error +6.4 %" */
      ? g_strdup_printf (_("%s: %s, error %s"), f->quantity, sub, f->error)
      : g_strdup_printf (_("%s · %s"), f->quantity, sub);
    gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  }
  return row;
}

static GtkWidget *
run_widget (const HrRunRowState *r)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_list_box_new ();

  gtk_box_append (GTK_BOX (box), wrapped_label (r->title, "heading"));
  gtk_box_append (GTK_BOX (box), wrapped_label (r->subtitle, "dim-label"));
  if (r->reason != NULL)
    {
      /* TRANSLATORS: why a run has no prediction, "No prediction: the GPU “…” is not in the catalog" */
      g_autofree char *why = g_strdup_printf (_("No prediction: %s"), r->reason);
      gtk_box_append (GTK_BOX (box), wrapped_label (why, "warning"));
    }
  else if (r->calibrated)
    gtk_box_append (GTK_BOX (box), wrapped_label (_("Predicted with your calibration"), "dim-label"));
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_margin_top (list, 6);
  for (guint i = 0; i < r->figures->len; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), figure_row (g_ptr_array_index (r->figures, i)));
  gtk_box_append (GTK_BOX (box), list);
  return box;
}

static void calibrate_clicked_cb (GtkButton *button, HrRunsDialog *self);
static void remove_clicked_cb (GtkButton *button, HrRunsDialog *self);

static GtkWidget *
device_button (HrRunsDialog           *self,
               const HrRunDeviceState *d,
               const char             *label,
               const char             *name,
               GCallback               clicked)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_set_tooltip_text (button, name);
  g_object_set_data_full (G_OBJECT (button), "gpu-id", g_strdup (d->gpu_id), g_free);
  g_object_set_data (G_OBJECT (button), "backend", GINT_TO_POINTER (d->backend));
  g_signal_connect (button, "clicked", clicked, self);
  return button;
}

static GtkWidget *
device_row (HrRunsDialog           *self,
            const HrRunDeviceState *d)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autofree char *sub = d->fit ? g_strdup_printf ("%s\n%s", d->status, d->fit) : g_strdup (d->status);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), d->title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), sub);
  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  if (d->can_calibrate)
    {
      /* TRANSLATORS: %s is the device, "RTX 4090 · CUDA" */
      g_autofree char *name = g_strdup_printf (_("Calibrate %s from these runs"), d->title);
      GtkWidget *b = device_button (self, d, _("_Calibrate"), name, G_CALLBACK (calibrate_clicked_cb));
      gtk_widget_add_css_class (b, "suggested-action");
      gtk_box_append (GTK_BOX (buttons), b);
    }
  if (d->saved)
    {
      /* TRANSLATORS: %s is the device, "RTX 4090 · CUDA" */
      g_autofree char *name = g_strdup_printf (_("Remove the calibration of %s"), d->title);
      gtk_box_append (GTK_BOX (buttons), device_button (self, d, _("_Remove"), name, G_CALLBACK (remove_clicked_cb)));
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), buttons);
  return row;
}

static void
apply_state (HrRunsDialog *self)
{
  HrRunsState *st = self->state;

  gtk_label_set_text (self->error_label, st->error ? st->error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), st->error != NULL);
  gtk_label_set_text (self->summary_label, st->summary ? st->summary : "");
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), st->summary != NULL);

  {
    gboolean any = FALSE;

    for (int w = HR_RUN_MISSING_MODEL; w < HR_RUN_MISSING_OTHER; w++)
      {
        /* a choice stays shown while a run uses it, so it can be changed */
        gboolean shown = st->missing[w];

        gtk_widget_set_visible (GTK_WIDGET (self->pickers[w]), shown);
        any |= shown;
      }
    gtk_widget_set_visible (GTK_WIDGET (self->hints_group), any);
  }

  clear_box (GTK_WIDGET (self->devices_list));
  for (guint i = 0; i < st->devices->len; i++)
    gtk_list_box_append (self->devices_list, device_row (self, g_ptr_array_index (st->devices, i)));
  gtk_widget_set_visible (GTK_WIDGET (self->devices_list), st->devices->len > 0);

  clear_box (GTK_WIDGET (self->runs_box));
  for (guint i = 0; i < st->rows->len; i++)
    gtk_box_append (self->runs_box, run_widget (g_ptr_array_index (st->rows, i)));
}

/* The predictions follow the session's calibrations and switch. */
void
hr_runs_dialog_refresh (HrRunsDialog *self)
{
  GArray *saved = hr_session_get_calibrations (self->session);

  hr_runs_state_update (self->state, hr_session_get_catalog (self->session),
                        hr_session_get_use_calibration (self->session) ? saved : NULL, saved);
  apply_state (self);
}

void
hr_runs_dialog_show_error (HrRunsDialog *self,
                           const char   *message)
{
  hr_runs_state_set_error (self->state, message);
  hr_runs_dialog_refresh (self);
}

void
hr_runs_dialog_set_busy (HrRunsDialog *self,
                         const char   *status)
{
  gboolean busy = status != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), busy);
  gtk_label_set_text (self->status_label, busy ? status : "");
  if (busy)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
  if (!busy)
    {
      g_clear_handle_id (&self->tick_id, g_source_remove);
      g_clear_object (&self->cancellable);
      g_clear_object (&self->bench);
    }
}

static void
fill_pickers (HrRunsDialog *self)
{
  HrCatalog *catalog = hr_session_get_catalog (self->session);
  g_autoptr(GPtrArray) models = hr_picker_items_models (catalog);
  g_autoptr(GPtrArray) gpus = hr_picker_items_gpus (catalog);
  g_autoptr(GPtrArray) quants = hr_picker_items_quants (catalog);

  hr_picker_set_items (self->pickers[HR_RUN_MISSING_MODEL], models);
  hr_picker_set_items (self->pickers[HR_RUN_MISSING_GPU], gpus);
  hr_picker_set_items (self->pickers[HR_RUN_MISSING_QUANT], quants);
  for (int w = HR_RUN_MISSING_MODEL; w < HR_RUN_MISSING_OTHER; w++)
    if (self->state->hints[w] != NULL)
      hr_picker_set_selected_id (self->pickers[w], self->state->hints[w]);
}

static void
catalog_changed_cb (HrRunsDialog *self)
{
  fill_pickers (self);
  hr_runs_dialog_refresh (self);
}

static void
picker_changed_cb (HrPicker     *picker,
                   GParamSpec   *pspec,
                   HrRunsDialog *self)
{
  for (int w = HR_RUN_MISSING_MODEL; w < HR_RUN_MISSING_OTHER; w++)
    if (self->pickers[w] == picker)
      {
        if (g_strcmp0 (self->state->hints[w], hr_picker_get_selected_id (picker)) == 0)
          return;
        hr_runs_state_set_hint (self->state, w, hr_picker_get_selected_id (picker));
      }
  hr_runs_dialog_refresh (self);
}

/* Callbacks ------------------------------------------------------------------------------------ */

static void
open_activated_cb (HrRunsDialog *self)
{
  hr_runs_dialog_choose_file (self, FALSE);
}

static void
bench_activated_cb (HrRunsDialog *self)
{
  hr_runs_dialog_choose_file (self, TRUE);
}

static void
paste_activated_cb (HrRunsDialog *self)
{
  hr_runs_dialog_paste (self);
}

static void
paste_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  paste_activated_cb (HR_RUNS_DIALOG (widget));
}

static void
cancel_clicked_cb (HrRunsDialog *self)
{
  hr_runs_dialog_cancel (self);
}

static void
calibrate_clicked_cb (GtkButton    *button,
                      HrRunsDialog *self)
{
  hr_runs_dialog_calibrate (self, g_object_get_data (G_OBJECT (button), "gpu-id"),
                            GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "backend")));
}

static void
remove_clicked_cb (GtkButton    *button,
                   HrRunsDialog *self)
{
  hr_runs_dialog_remove (self, g_object_get_data (G_OBJECT (button), "gpu-id"));
}

/* GObject -------------------------------------------------------------------------------------- */

static void
hr_runs_dialog_dispose (GObject *object)
{
  HrRunsDialog *self = HR_RUNS_DIALOG (object);

  hr_runs_dialog_cancel (self);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_RUNS_DIALOG);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (hr_runs_dialog_parent_class)->dispose (object);
}

static void
hr_runs_dialog_finalize (GObject *object)
{
  HrRunsDialog *self = HR_RUNS_DIALOG (object);

  g_clear_pointer (&self->state, hr_runs_state_free);
  g_free (self->bench_program);
  g_free (self->bench_name);

  G_OBJECT_CLASS (hr_runs_dialog_parent_class)->finalize (object);
}

static void
hr_runs_dialog_class_init (HrRunsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_runs_dialog_dispose;
  object_class->finalize = hr_runs_dialog_finalize;

  g_type_ensure (HR_TYPE_PICKER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-runs-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, content_box);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, bench_button);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, source_box);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, progress_box);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, use_switch);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, hints_group);
  gtk_widget_class_bind_template_child_full (widget_class, "model_picker", FALSE,
                                             G_STRUCT_OFFSET (HrRunsDialog, pickers[HR_RUN_MISSING_MODEL]));
  gtk_widget_class_bind_template_child_full (widget_class, "gpu_picker", FALSE,
                                             G_STRUCT_OFFSET (HrRunsDialog, pickers[HR_RUN_MISSING_GPU]));
  gtk_widget_class_bind_template_child_full (widget_class, "quant_picker", FALSE,
                                             G_STRUCT_OFFSET (HrRunsDialog, pickers[HR_RUN_MISSING_QUANT]));
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, devices_list);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, HrRunsDialog, runs_box);
  gtk_widget_class_bind_template_callback (widget_class, open_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, paste_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, bench_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_install_action (widget_class, "runs.paste", NULL, paste_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "runs.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hr_runs_dialog_init (HrRunsDialog *self)
{
  GtkDropTarget *drop;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_STRING };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->state = hr_runs_state_new ();
  self->bench_program = g_find_program_in_path ("llama-bench");
  gtk_widget_set_visible (self->bench_button, self->bench_program != NULL);
  /* the flow box only wraps the buttons: Tab goes from button to button, not to its cells */
  for (GtkWidget *c = gtk_widget_get_first_child (self->source_box); c != NULL; c = gtk_widget_get_next_sibling (c))
    gtk_widget_set_focusable (c, FALSE);

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect (drop, "drop", G_CALLBACK (hr_runs_dialog_drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->content_box), GTK_EVENT_CONTROLLER (drop));
}

/* Public API ---------------------------------------------------------------------------------- */

HrRunsDialog *
hr_runs_dialog_new (GtkWindow *parent,
                    HrSession *session)
{
  HrRunsDialog *self;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_RUNS_DIALOG, "transient-for", parent, NULL);
  self->session = g_object_ref (session);
  g_object_bind_property (session, "use-calibration", self->use_switch, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (session, "calibration-changed", G_CALLBACK (hr_runs_dialog_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::use-calibration", G_CALLBACK (hr_runs_dialog_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "catalog-changed", G_CALLBACK (catalog_changed_cb), self, G_CONNECT_SWAPPED);
  fill_pickers (self);
  for (int w = HR_RUN_MISSING_MODEL; w < HR_RUN_MISSING_OTHER; w++)
    g_signal_connect (self->pickers[w], "notify::selected-id", G_CALLBACK (picker_changed_cb), self);
  hr_runs_dialog_refresh (self);
  return self;
}

void
hr_runs_dialog_set_hint (HrRunsDialog *self,
                         HrRunMissing  what,
                         const char   *id)
{
  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (what > HR_RUN_MISSING_NONE && what < HR_RUN_MISSING_OTHER);

  hr_picker_set_selected_id (self->pickers[what], id);
}

const HrRunsState *
hr_runs_dialog_get_state (HrRunsDialog *self)
{
  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), NULL);
  return self->state;
}

gboolean
hr_runs_dialog_calibrate (HrRunsDialog *self,
                          const char   *gpu_id,
                          HrBackend     backend)
{
  g_autoptr(GArray) fit = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), FALSE);
  g_return_val_if_fail (gpu_id != NULL, FALSE);

  fit = hr_runs_state_fit_for (self->state, gpu_id, backend);
  if (fit == NULL)
    return FALSE;
  if (!hr_session_save_calibrations (self->session, fit, &error))
    {
      /* TRANSLATORS: the calibration could not be saved; %s says why */
      g_autofree char *msg = g_strdup_printf (_("The calibration could not be saved: %s"), error->message);
      gtk_label_set_text (self->error_label, msg);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_runs_dialog_remove (HrRunsDialog *self,
                       const char   *gpu_id)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), FALSE);
  g_return_val_if_fail (gpu_id != NULL, FALSE);

  if (hr_session_remove_calibration (self->session, gpu_id, &error) < 0)
    {
      /* TRANSLATORS: the calibration could not be removed; %s says why */
      g_autofree char *msg = g_strdup_printf (_("The calibration could not be removed: %s"), error->message);
      gtk_label_set_text (self->error_label, msg);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return FALSE;
    }
  return TRUE;
}
