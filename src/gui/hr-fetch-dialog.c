/* hr-fetch-dialog.c — asks for a hub repository id or a GGUF address, then shows the fetch */
#include "hr-fetch-dialog.h"

#include <glib/gi18n-lib.h>

#include "hr-gguf-remote.h"
#include "hr-hub-client.h"

struct _HrFetchDialog
{
  AdwWindow parent_instance;

  /* template */
  AdwWindowTitle *window_title;
  GtkButton *cancel_button;
  GtkButton *submit_button;
  AdwPreferencesGroup *group;
  AdwEntryRow *entry_row;
  GtkLabel *error_label;
  GtkBox *progress_box;
  GtkSpinner *spinner;
  GtkLabel *status_label;

  HrFetchKind kind;
  char *input_error;   /* what is wrong with the text, NULL when it is fine */
  char *fetch_error;   /* the last fetch's failure */
  gboolean busy;
};

enum
{
  SIGNAL_SUBMIT,
  SIGNAL_CANCELLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HrFetchDialog, hr_fetch_dialog, ADW_TYPE_WINDOW)

static char *
trimmed_text (HrFetchDialog *self)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry_row))));
}

/* The input's own error: NULL when it may be fetched (or is still empty). */
static char *
check_input (HrFetchDialog *self,
             const char    *text)
{
  g_autoptr(GError) error = NULL;

  if (*text == '\0')
    return NULL;
  switch (self->kind)
    {
    case HR_FETCH_HUB:
      {
        /* a pasted https://huggingface.co/org/name/… reads as org/name */
        g_autofree char *id = hr_hub_repo_id_from_text (text);

        if (!hr_hub_check_repo_id (id, &error))
          return g_strdup (error->message);
        return NULL;
      }
    case HR_FETCH_GGUF_URL:
      if (!hr_gguf_remote_is_url (text))
        return g_strdup (_("Enter an http:// or https:// address of a .gguf file"));
      return NULL;
    default:
      g_assert_not_reached ();
    }
}

static void
update (HrFetchDialog *self)
{
  const char *shown = self->input_error ? self->input_error : self->fetch_error;

  gtk_label_set_label (self->error_label, shown ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), shown != NULL);
  if (self->input_error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry_row), "error");
  gtk_widget_set_sensitive (GTK_WIDGET (self->submit_button), hr_fetch_dialog_can_submit (self));
  /* not insensitive: a focused entry made insensitive never gets its focus-out */
  gtk_editable_set_editable (GTK_EDITABLE (self->entry_row), !self->busy);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), self->busy);
  if (self->busy)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
}

/* Callbacks ---------------------------------------------------------------------------------- */

static void
entry_changed_cb (HrFetchDialog *self)
{
  g_autofree char *text = trimmed_text (self);

  g_free (self->input_error);
  self->input_error = check_input (self, text);
  g_clear_pointer (&self->fetch_error, g_free);
  update (self);
}

static void
entry_activated_cb (HrFetchDialog *self)
{
  hr_fetch_dialog_submit (self);
}

static void
submit_clicked_cb (HrFetchDialog *self)
{
  hr_fetch_dialog_submit (self);
}

static void
cancel_clicked_cb (HrFetchDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

/* GtkWindow ------------------------------------------------------------------------------------ */

static gboolean
hr_fetch_dialog_close_request (GtkWindow *window)
{
  HrFetchDialog *self = HR_FETCH_DIALOG (window);

  if (self->busy)
    {
      self->busy = FALSE;
      g_signal_emit (self, signals[SIGNAL_CANCELLED], 0);
    }
  return GTK_WINDOW_CLASS (hr_fetch_dialog_parent_class)->close_request (window);
}

/* GtkWidget ------------------------------------------------------------------------------------ */

/* A focused entry keeps its cursor blinking until it loses focus: let it go before the window
 * goes, or GTK warns that the entry never saw its focus-out. */
static void
hr_fetch_dialog_unmap (GtkWidget *widget)
{
  gtk_window_set_focus (GTK_WINDOW (widget), NULL);
  GTK_WIDGET_CLASS (hr_fetch_dialog_parent_class)->unmap (widget);
}

/* GObject -------------------------------------------------------------------------------------- */

static void
hr_fetch_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_FETCH_DIALOG);
  G_OBJECT_CLASS (hr_fetch_dialog_parent_class)->dispose (object);
}

static void
hr_fetch_dialog_finalize (GObject *object)
{
  HrFetchDialog *self = HR_FETCH_DIALOG (object);

  g_clear_pointer (&self->input_error, g_free);
  g_clear_pointer (&self->fetch_error, g_free);

  G_OBJECT_CLASS (hr_fetch_dialog_parent_class)->finalize (object);
}

static void
hr_fetch_dialog_class_init (HrFetchDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = hr_fetch_dialog_dispose;
  object_class->finalize = hr_fetch_dialog_finalize;
  widget_class->unmap = hr_fetch_dialog_unmap;
  window_class->close_request = hr_fetch_dialog_close_request;

  /**
   * HrFetchDialog::submit:
   * @text: the repository id or address, trimmed
   */
  signals[SIGNAL_SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /* closed while a fetch was running */
  signals[SIGNAL_CANCELLED] =
    g_signal_new ("cancelled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-fetch-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, submit_button);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, group);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, entry_row);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, progress_box);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrFetchDialog, status_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, submit_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hr_fetch_dialog_init (HrFetchDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* Public API ----------------------------------------------------------------------------------- */

HrFetchDialog *
hr_fetch_dialog_new (GtkWindow   *parent,
                     HrFetchKind  kind,
                     const char  *description)
{
  HrFetchDialog *self = g_object_new (HR_TYPE_FETCH_DIALOG, "transient-for", parent, NULL);

  self->kind = kind;
  switch (kind)
    {
    case HR_FETCH_HUB:
      gtk_window_set_title (GTK_WINDOW (self), _("Fetch config.json"));
      adw_preferences_group_set_title (self->group, _("Hugging Face repository"));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->entry_row), _("Repository id, such as Qwen/Qwen3-8B"));
      gtk_button_set_label (self->submit_button, _("_Fetch"));
      break;
    case HR_FETCH_GGUF_URL:
      gtk_window_set_title (GTK_WINDOW (self), _("Open GGUF URL"));
      adw_preferences_group_set_title (self->group, _("GGUF file on the web"));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->entry_row), _("Address of a .gguf file"));
      adw_entry_row_set_input_purpose (self->entry_row, GTK_INPUT_PURPOSE_URL);
      gtk_button_set_label (self->submit_button, _("_Open"));
      break;
    default:
      g_assert_not_reached ();
    }
  adw_window_title_set_title (self->window_title, gtk_window_get_title (GTK_WINDOW (self)));
  adw_preferences_group_set_description (self->group, description);
  update (self);
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->entry_row));
  return self;
}

HrFetchKind
hr_fetch_dialog_get_kind (HrFetchDialog *self)
{
  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), HR_FETCH_HUB);
  return self->kind;
}

const char *
hr_fetch_dialog_get_text (HrFetchDialog *self)
{
  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->entry_row));
}

void
hr_fetch_dialog_set_text (HrFetchDialog *self,
                          const char    *text)
{
  g_return_if_fail (HR_IS_FETCH_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->entry_row), text ? text : "");
}

gboolean
hr_fetch_dialog_can_submit (HrFetchDialog *self)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), FALSE);

  text = trimmed_text (self);
  return !self->busy && *text != '\0' && self->input_error == NULL;
}

gboolean
hr_fetch_dialog_submit (HrFetchDialog *self)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), FALSE);

  if (!hr_fetch_dialog_can_submit (self))
    return FALSE;
  text = trimmed_text (self);
  g_clear_pointer (&self->fetch_error, g_free);
  g_signal_emit (self, signals[SIGNAL_SUBMIT], 0, text);
  return TRUE;
}

void
hr_fetch_dialog_set_busy (HrFetchDialog *self,
                          const char    *status)
{
  g_return_if_fail (HR_IS_FETCH_DIALOG (self));

  self->busy = status != NULL;
  gtk_label_set_label (self->status_label, status ? status : "");
  update (self);
}

gboolean
hr_fetch_dialog_is_busy (HrFetchDialog *self)
{
  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), FALSE);
  return self->busy;
}

void
hr_fetch_dialog_set_error (HrFetchDialog *self,
                           const char    *message)
{
  g_return_if_fail (HR_IS_FETCH_DIALOG (self));

  g_free (self->fetch_error);
  self->fetch_error = g_strdup (message);
  update (self);
  if (message != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->entry_row));
}

const char *
hr_fetch_dialog_get_error (HrFetchDialog *self)
{
  g_return_val_if_fail (HR_IS_FETCH_DIALOG (self), NULL);
  return self->input_error ? self->input_error : self->fetch_error;
}
