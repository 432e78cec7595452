/* hr-runs-dialog.c — Import Measurements: read, show, calibrate */
#include "hr-runs-dialog.h"

#include <glib/gi18n-lib.h>

#include "hr-file.h"
#include "hr-picker.h"
#include "hr-picker-items.h"

/* What llama-bench is asked to measure: short, the figures Headroom predicts (README) */
static const char * const bench_args[] = { "-p", "512", "-n", "128", "-r", "2", "-o", "json" };

struct _HrRunsDialog
{
  AdwWindow parent_instance;

  /* template */
  GtkBox *content_box;
  GtkWidget *bench_button;
  GtkWidget *source_box;
  GtkBox *progress_box;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  GtkLabel *error_label;
  AdwPreferencesGroup *hints_group;
  HrPicker *pickers[HR_RUN_MISSING_OTHER];   /* model, GPU, quant */
  GtkSwitch *use_switch;
  GtkListBox *devices_list;
  GtkLabel *summary_label;
  GtkBox *runs_box;

  HrSession *session;
  HrRunsState *state;
  char *bench_program;
  GCancellable *cancellable;   /* the read or run under way; NULL when idle */
  GSubprocess *bench;
  char *bench_name;
  gint64 bench_start;
  guint tick_id;
  GtkFileChooserNative *chooser;
};

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
static void
refresh (HrRunsDialog *self)
{
  GArray *saved = hr_session_get_calibrations (self->session);

  hr_runs_state_update (self->state, hr_session_get_catalog (self->session),
                        hr_session_get_use_calibration (self->session) ? saved : NULL, saved);
  apply_state (self);
}

static void
show_error (HrRunsDialog *self,
            const char   *message)
{
  hr_runs_state_set_error (self->state, message);
  refresh (self);
}

static void
set_busy (HrRunsDialog *self,
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
  refresh (self);
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
  refresh (self);
}

/* Reading a file --------------------------------------------------------------------------- */

static void
read_file_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  /* one byte more than a reader takes: a longer file is refused by the reader, with its reason */
  if (!hr_file_read_regular (path, HR_RUNS_MAX_BYTES + 1, &contents, &length, NULL, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_bytes_new_take (contents, length), (GDestroyNotify) g_bytes_unref);
}

static void
read_file_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_task_propagate_pointer (G_TASK (result), &error);
  HrRunsDialog *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = HR_RUNS_DIALOG (object);
  set_busy (self, NULL);
  if (bytes == NULL)
    {
      const char *path = g_task_get_task_data (G_TASK (result));
      g_autofree char *base = g_path_get_basename (path);
      /* TRANSLATORS: a file that could not be read, "runs.txt cannot be read: not a regular file" */
      g_autofree char *msg = g_strdup_printf (_("%s cannot be read: %s"), base, error->message);
      show_error (self, msg);
      return;
    }
  hr_runs_state_set_text (self->state, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  refresh (self);
}

/* Running llama-bench -------------------------------------------------------------------------- */

static gboolean
bench_tick_cb (gpointer user_data)
{
  HrRunsDialog *self = user_data;
  int seconds = (int) ((g_get_monotonic_time () - self->bench_start) / G_USEC_PER_SEC);
  /* TRANSLATORS: llama-bench running, "Running llama-bench on qwen2.5-7b-q4_k_m.gguf… 12 s" */
  g_autofree char *text = g_strdup_printf (_("Running llama-bench on %s… %d s"), self->bench_name, seconds);

  gtk_label_set_text (self->status_label, text);
  return G_SOURCE_CONTINUE;
}

/* The last line llama-bench wrote to its error output: what went wrong */
static char *
last_line (GBytes *bytes)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    return NULL;
  text = g_utf8_make_valid (g_bytes_get_data (bytes, NULL), MIN (g_bytes_get_size (bytes), 1 << 20));
  lines = g_strsplit (g_strstrip (text), "\n", -1);
  for (int i = g_strv_length (lines) - 1; i >= 0; i--)
    if (*g_strstrip (lines[i]) != '\0')
      return g_strdup (lines[i]);
  return NULL;
}

static void
bench_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(HrRunsDialog) self = user_data;
  GSubprocess *proc = G_SUBPROCESS (object);
  g_autoptr(GBytes) out = NULL, err = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_communicate_finish (proc, result, &out, &err, &error) || self->session == NULL)
    {
      if (self->session == NULL)
        return;   /* closed meanwhile */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* hr_runs_dialog_cancel () stopped it and said so */
      set_busy (self, NULL);
      show_error (self, error->message);
      return;
    }
  set_busy (self, NULL);
  if (!g_subprocess_get_successful (proc))
    {
      g_autofree char *why = last_line (err);
      /* TRANSLATORS: llama-bench ended with an error; %s is the last line it printed */
      g_autofree char *msg = g_strdup_printf (_("llama-bench failed: %s"),
                                              why ? why : _("it printed no reason"));
      show_error (self, msg);
      return;
    }
  hr_runs_state_set_text (self->state, out ? g_bytes_get_data (out, NULL) : "",
                          out ? (gssize) g_bytes_get_size (out) : 0);
  refresh (self);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     HrRunsDialog    *self)
{
  g_autoptr(GFile) file = NULL;
  gboolean bench = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "bench"));

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
  if (file == NULL)
    return;
  if (!bench)
    {
      hr_runs_dialog_read_file (self, file);
      return;
    }
  {
    g_autofree char *path = g_file_get_path (file);
    if (path == NULL)
      show_error (self, _("llama-bench reads only files on this computer."));
    else
      hr_runs_dialog_run_bench (self, path);
  }
}

static void
choose_file (HrRunsDialog *self,
             gboolean      bench)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (bench ? _("Run llama-bench -p 512 -n 128 -r 2 on a GGUF File") : _("Open Measurements"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, NULL, NULL);
  if (bench)
    {
      gtk_file_filter_set_name (filter, _("GGUF Models"));
      gtk_file_filter_add_pattern (filter, "*.gguf");
      gtk_file_filter_add_pattern (filter, "*.GGUF");
    }
  else
    {
      gtk_file_filter_set_name (filter, _("Text, CSV and JSON Files"));
      gtk_file_filter_add_mime_type (filter, "text/plain");
      gtk_file_filter_add_mime_type (filter, "text/csv");
      gtk_file_filter_add_mime_type (filter, "application/json");
      gtk_file_filter_add_pattern (filter, "*.log");
      gtk_file_filter_add_pattern (filter, "*.md");
      gtk_file_filter_add_pattern (filter, "*.jsonl");
    }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_set_data (G_OBJECT (self->chooser), "bench", GINT_TO_POINTER (bench));
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Callbacks ------------------------------------------------------------------------------------ */

static void
open_activated_cb (HrRunsDialog *self)
{
  choose_file (self, FALSE);
}

static void
bench_activated_cb (HrRunsDialog *self)
{
  choose_file (self, TRUE);
}

static void
paste_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(HrRunsDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);

  if (self->session == NULL)
    return;   /* closed meanwhile */
  if (text == NULL)
    {
      show_error (self, _("The clipboard holds no text."));
      return;
    }
  hr_runs_dialog_read_text (self, text);
}

static void
paste_activated_cb (HrRunsDialog *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));

  gdk_clipboard_read_text_async (clipboard, NULL, paste_done_cb, g_object_ref (self));
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

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         HrRunsDialog  *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      if (files == NULL)
        return FALSE;
      hr_runs_dialog_read_file (self, files->data);
      g_slist_free (files);
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_STRING) && g_value_get_string (value) != NULL)
    {
      hr_runs_dialog_read_text (self, g_value_get_string (value));
      return TRUE;
    }
  return FALSE;
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
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
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
  g_signal_connect_object (session, "calibration-changed", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::use-calibration", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "catalog-changed", G_CALLBACK (catalog_changed_cb), self, G_CONNECT_SWAPPED);
  fill_pickers (self);
  for (int w = HR_RUN_MISSING_MODEL; w < HR_RUN_MISSING_OTHER; w++)
    g_signal_connect (self->pickers[w], "notify::selected-id", G_CALLBACK (picker_changed_cb), self);
  refresh (self);
  return self;
}

void
hr_runs_dialog_read_text (HrRunsDialog *self,
                          const char   *text)
{
  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (text != NULL);

  hr_runs_dialog_cancel (self);
  hr_runs_state_set_text (self->state, text, -1);
  refresh (self);
}

void
hr_runs_dialog_read_file (HrRunsDialog *self,
                          GFile        *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *status = NULL;

  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (G_IS_FILE (file));

  hr_runs_dialog_cancel (self);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      show_error (self, _("Only files on this computer can be read."));
      return;
    }
  base = g_path_get_basename (path);
  /* TRANSLATORS: a file being read, "Reading runs.txt…" */
  status = g_strdup_printf (_("Reading %s…"), base);
  self->cancellable = g_cancellable_new ();
  set_busy (self, status);
  task = g_task_new (self, self->cancellable, read_file_done_cb, NULL);
  g_task_set_source_tag (task, hr_runs_dialog_read_file);
  g_task_set_task_data (task, g_steal_pointer (&path), g_free);
  g_task_run_in_thread (task, read_file_thread);
}

const char *
hr_runs_dialog_get_bench_program (HrRunsDialog *self)
{
  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), NULL);
  return self->bench_program;
}

void
hr_runs_dialog_run_bench (HrRunsDialog *self,
                          const char   *gguf)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (gguf != NULL);

  hr_runs_dialog_cancel (self);
  if (self->bench_program == NULL)
    {
      show_error (self, _("llama-bench is not installed: it was not found on PATH."));
      return;
    }
  g_ptr_array_add (argv, self->bench_program);
  g_ptr_array_add (argv, (char *) "-m");
  g_ptr_array_add (argv, (char *) gguf);
  for (guint i = 0; i < G_N_ELEMENTS (bench_args); i++)
    g_ptr_array_add (argv, (char *) bench_args[i]);
  g_ptr_array_add (argv, NULL);

  self->bench = g_subprocess_newv ((const char * const *) argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (self->bench == NULL)
    {
      /* TRANSLATORS: llama-bench could not be started; %s says why */
      g_autofree char *msg = g_strdup_printf (_("llama-bench could not be started: %s"), error->message);
      show_error (self, msg);
      return;
    }
  g_free (self->bench_name);
  self->bench_name = g_path_get_basename (gguf);
  self->bench_start = g_get_monotonic_time ();
  self->cancellable = g_cancellable_new ();
  set_busy (self, "");
  bench_tick_cb (self);
  self->tick_id = g_timeout_add_seconds (1, bench_tick_cb, self);
  g_subprocess_communicate_async (self->bench, NULL, self->cancellable, bench_done_cb, g_object_ref (self));
}

void
hr_runs_dialog_cancel (HrRunsDialog *self)
{
  g_return_if_fail (HR_IS_RUNS_DIALOG (self));

  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  if (self->bench != NULL)
    g_subprocess_force_exit (self->bench);
  set_busy (self, NULL);
}

gboolean
hr_runs_dialog_is_busy (HrRunsDialog *self)
{
  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), FALSE);
  return self->cancellable != NULL;
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
