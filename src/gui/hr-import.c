/* hr-import.c — bring your own model and GPU: the "import.*" actions, saving, the catalog
 *
 * Every flow ends in hr_import_add_model() or the GPU editor's save: save with hr_userdata (a
 * damaged file is moved aside and named in a toast, then the save starts a new file), put the
 * entry in the catalog through the session (which waits for its advice worker and tells every
 * view), choose it in the session's scenario.  The flows that read files and fetch from the
 * network are in hr-import-flows.c.
 */
#include "hr-import-private.h"
#include "hr-engine-load.h"
#include "hr-hub-id.h"
#include "hr-hub-size.h"

#include <glib/gi18n-lib.h>

#include "hr-import-state.h"
#include "hr-toast.h"
#include "hr-userdata.h"

G_DEFINE_FINAL_TYPE (HrImport, hr_import, G_TYPE_OBJECT)

/* Where things are ------------------------------------------------------------------------ */

static HrSession *
session (HrImport *self)
{
  return self->window ? hr_window_get_session (self->window) : NULL;
}

HrCatalog *
hr_import_catalog (HrImport *self)
{
  return self->window ? hr_window_get_catalog (self->window) : NULL;
}

static HrUserData *
userdata (HrImport *self)
{
  GtkApplication *app = self->window ? gtk_window_get_application (GTK_WINDOW (self->window)) : NULL;

  return HR_IS_APPLICATION (app) ? hr_application_get_userdata (HR_APPLICATION (app)) : NULL;
}

/* Dialogs open from the list of the user's entries stay above it. */
GtkWindow *
hr_import_dialog_parent (HrImport *self)
{
  return self->manage ? GTK_WINDOW (self->manage) : GTK_WINDOW (self->window);
}

/* Messages ---------------------------------------------------------------------------------- */

static void
undo_clicked_cb (HrImport *self)
{
  if (self->actions != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (self->actions), "undo-remove", NULL);
}

/* Shows @toast (taken) for @message; returns it, borrowed (NULL when there is nowhere to show
 * it). */
AdwToast *
hr_import_add_toast (HrImport   *self,
                     AdwToast   *toast,
                     const char *message)
{
  g_free (self->last_message);
  self->last_message = g_strdup (message);
  if (self->manage != NULL)
    return hr_toast_show (GTK_WIDGET (self->manage), toast) ? toast : NULL;
  if (self->window != NULL)
    {
      hr_window_add_toast (self->window, toast);
      return toast;
    }
  g_object_unref (toast);
  return NULL;
}

void
hr_import_show_toast (HrImport   *self,
                      const char *message,
                      gboolean    error,
                      gboolean    undo)
{
  AdwToast *toast = hr_toast_new (message, error ? HR_TOAST_ERROR : HR_TOAST_INFO);

  if (undo)
    {
      hr_toast_set_button (toast, _("_Undo"));
      /* not an action name: a toast's button leaves the window before its action is looked up */
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (undo_clicked_cb), self, G_CONNECT_SWAPPED);
    }
  hr_import_add_toast (self, toast, message);
}

/* A failure goes inline in @dialog when it is still open, otherwise into a toast. */
void
hr_import_report_error (HrImport      *self,
              HrFetchDialog *dialog,
              const char    *message)
{
  if (dialog != NULL)
    {
      g_free (self->last_message);
      self->last_message = g_strdup (message);
      hr_fetch_dialog_set_busy (dialog, NULL);
      hr_fetch_dialog_set_error (dialog, message);
    }
  else
    hr_import_show_toast (self, message, TRUE, FALSE);
}

/* The catalog ------------------------------------------------------------------------------- */

/* The session's "catalog-changed": the list of the user's entries, when it is open. */
static void
catalog_changed_cb (HrImport *self)
{
  if (self->manage != NULL && hr_import_catalog (self) != NULL)
    hr_manage_dialog_refresh (self->manage, hr_import_catalog (self));
}

/* Saves @model or @gpu (the other NULL) into @saved_model or @saved_gpu; a damaged file is
 * set aside (the toast names the copy) and the save starts anew. */
static gboolean
save_entry (HrImport       *self,
            const HrModel  *model,
            const HrGpu    *gpu,
            HrModel       **saved_model,
            HrGpu         **saved_gpu,
            GError        **error)
{
  HrUserData *ud = userdata (self);

  if (ud == NULL)
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO, _("There is nowhere to save it"));
      return FALSE;
    }
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      gboolean ok = model != NULL ? hr_userdata_save_model (ud, model, saved_model, &local)
                                  : hr_userdata_save_gpu (ud, gpu, saved_gpu, &local);

      if (ok)
        return TRUE;
      if (attempt > 0 || !g_error_matches (local, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      hr_import_show_toast (self, local->message, TRUE, FALSE);
    }
}

/* Takes @model.  @dialog: the fetch dialog to report to and close, may be NULL.  @restoring:
 * an "Undo" puts it back, without choosing it. */
void
hr_import_add_model (HrImport      *self,
           HrModel       *model,
           HrFetchDialog *dialog,
           const char    *detail,
           gboolean       restoring)
{
  g_autoptr(HrModel) owned = model;
  g_autoptr(HrModel) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *message = NULL;
  HrCatalog *cat = hr_import_catalog (self);
  gboolean replaces = FALSE;

  if (cat == NULL)
    return;
  /* another file or repository of the same name gets an id of its own */
  id = hr_import_model_id (owned, cat, &replaces);
  g_free (owned->id);
  owned->id = g_steal_pointer (&id);
  if (!save_entry (self, owned, NULL, &saved, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save “%s”: %s"),
                                               owned->name ? owned->name : owned->id, error->message);
      hr_import_report_error (self, dialog, text);
      return;
    }

  id = g_strdup (saved->id);
  if (restoring)
    message = g_strdup_printf (_("Restored “%s”"), saved->name);
  else if (replaces)
    message = detail ? g_strdup_printf (_("Updated “%s” — %s"), saved->name, detail)
                     : g_strdup_printf (_("Updated “%s”"), saved->name);
  else
    message = detail ? g_strdup_printf (_("Added “%s” to your models — %s"), saved->name, detail)
                     : g_strdup_printf (_("Added “%s” to your models"), saved->name);
  hr_session_add_model (session (self), g_steal_pointer (&saved));
  if (!restoring)
    hr_session_set_model (session (self), id);

  if (dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (dialog));
  hr_import_show_toast (self, message, FALSE, FALSE);
}

static void
add_gpu (HrImport    *self,
         const HrGpu *gpu,
         const char  *replaces,
         gboolean     select,
         GError     **error)
{
  g_autoptr(HrGpu) saved = NULL;
  g_autofree char *id = NULL;
  HrCatalog *cat = hr_import_catalog (self);

  if (cat == NULL || !save_entry (self, NULL, gpu, NULL, &saved, error))
    return;
  id = g_strdup (saved->id);
  /* an entry of the user's that was never saved under a "user:" id (older data) */
  hr_session_add_gpu (session (self), g_steal_pointer (&saved),
                      replaces != NULL && g_strcmp0 (replaces, id) != 0 ? replaces : NULL);
  if (select)
    hr_session_set_gpu (session (self), id);
}

/* The GPU editor and the list ----------------------------------------------------------------- */

static void
editor_save_cb (HrGpuEditor *editor,
                HrImport    *self)
{
  g_autoptr(HrGpu) gpu = hr_gpu_editor_build (editor);
  g_autoptr(GError) error = NULL;
  const char *editing = hr_gpu_editor_get_editing_id (editor);
  g_autofree char *message = NULL;

  if (gpu == NULL)
    return;
  add_gpu (self, gpu, editing, editing == NULL, &error);
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not save “%s”: %s"), gpu->name, error->message);

      g_free (self->last_message);
      self->last_message = g_strdup (text);
      hr_gpu_editor_set_error (editor, text);
      return;
    }
  message = editing ? g_strdup_printf (_("Saved “%s”"), gpu->name)
                    : g_strdup_printf (_("Added “%s” to your GPUs"), gpu->name);
  gtk_window_destroy (GTK_WINDOW (editor));
  hr_import_show_toast (self, message, FALSE, FALSE);
}

static void
open_editor (HrImport    *self,
             const HrGpu *gpu)
{
  if (self->editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->editor));
  self->editor = hr_gpu_editor_new (hr_import_dialog_parent (self), hr_import_catalog (self), gpu);
  g_object_add_weak_pointer (G_OBJECT (self->editor), (gpointer *) &self->editor);
  gtk_widget_insert_action_group (GTK_WIDGET (self->editor), "import", G_ACTION_GROUP (self->actions));
  g_signal_connect_object (self->editor, "save", G_CALLBACK (editor_save_cb), self, 0);
  gtk_window_present (GTK_WINDOW (self->editor));
}

static void
open_manage (HrImport *self)
{
  if (self->manage == NULL)
    {
      self->manage = hr_manage_dialog_new (GTK_WINDOW (self->window), G_MENU_MODEL (self->add_model_menu));
      g_object_add_weak_pointer (G_OBJECT (self->manage), (gpointer *) &self->manage);
      gtk_widget_insert_action_group (GTK_WIDGET (self->manage), "import", G_ACTION_GROUP (self->actions));
    }
  if (hr_import_catalog (self) != NULL)
    hr_manage_dialog_refresh (self->manage, hr_import_catalog (self));
  gtk_window_present (GTK_WINDOW (self->manage));
}

/* Actions -------------------------------------------------------------------------------------- */

static void
config_file_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  hr_import_open_chooser (user_data, HR_IMPORT_CHOOSE_CONFIG);
}

static void
gguf_file_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  hr_import_open_chooser (user_data, HR_IMPORT_CHOOSE_GGUF);
}

static void
open_file_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  hr_import_open_chooser (user_data, HR_IMPORT_CHOOSE_ANY);
}

static void
hub_action (GSimpleAction *action,
            GVariant      *parameter,
            gpointer       user_data)
{
  hr_import_open_fetch_dialog (user_data, HR_FETCH_HUB);
}

static void
gguf_url_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  hr_import_open_fetch_dialog (user_data, HR_FETCH_GGUF_URL);
}

static void
add_gpu_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  open_editor (user_data, NULL);
}

static void
edit_gpu_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  HrImport *self = user_data;
  const HrGpu *gpu = hr_import_catalog (self) ? hr_catalog_find_gpu (hr_import_catalog (self), g_variant_get_string (parameter, NULL)) : NULL;

  if (gpu != NULL && hr_import_gpu_is_yours (gpu))
    open_editor (self, gpu);
}

static void
remove_model_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  hr_import_remove_model (user_data, g_variant_get_string (parameter, NULL));
}

static void
remove_gpu_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  hr_import_remove_gpu (user_data, g_variant_get_string (parameter, NULL));
}

static void
rename_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    HrImport         *self)
{
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  const char *id = g_object_get_data (G_OBJECT (dialog), "model-id");

  if (g_strcmp0 (response, "rename") == 0)
    hr_import_rename_model (self, id, gtk_editable_get_text (entry));
}

/* "Rename Model": the name in an entry, Enter renames. */
static void
rename_model_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  HrImport *self = user_data;
  const char *id = g_variant_get_string (parameter, NULL);
  const HrModel *model = hr_import_catalog (self) ? hr_catalog_find_model (hr_import_catalog (self), id) : NULL;
  GtkWidget *dialog, *entry;

  if (model == NULL || !hr_import_model_is_yours (model))
    return;
  dialog = adw_message_dialog_new (hr_import_dialog_parent (self), _("Rename Model"), NULL);
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), model->name ? model->name : "");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Name"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "rename", _("_Rename"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "model-id", g_strdup (id), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (rename_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

static void
manage_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  open_manage (user_data);
}

static void
undo_remove_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  HrImport *self = user_data;
  g_autoptr(HrGpu) gpu = g_steal_pointer (&self->removed_gpu);
  g_autoptr(GError) error = NULL;

  if (self->removed_model != NULL)
    hr_import_add_model (self, g_steal_pointer (&self->removed_model), NULL, NULL, TRUE);
  if (gpu != NULL)
    {
      add_gpu (self, gpu, NULL, FALSE, &error);
      if (error != NULL)
        hr_import_show_toast (self, error->message, TRUE, FALSE);
      else
        {
          g_autofree char *text = g_strdup_printf (_("Restored “%s”"), gpu->name);
          hr_import_show_toast (self, text, FALSE, FALSE);
        }
    }
}

static void
hub_repo_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  hr_import_size_hub (user_data, g_variant_get_string (parameter, NULL));
}

/* One of the user's models sized from the Hub, sized again: the Hub is asked again past the
 * day-long cache (hr-import-hub.c), and the saved entry is updated in place (same_source in
 * hr-import-state.c matches it by its reference, whatever its files hold now). */
static void
refresh_model_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  HrImport *self = user_data;
  HrCatalog *cat = hr_import_catalog (self);
  const HrModel *model = cat ? hr_catalog_find_model (cat, g_variant_get_string (parameter, NULL)) : NULL;
  g_autofree char *ref = NULL;

  if (model == NULL || !hr_import_model_is_yours (model))
    return;
  ref = hr_hub_model_ref (model);
  if (ref != NULL)
    hr_import_size_hub (self, ref);
}

static const GActionEntry action_entries[] = {
  { .name = "config-file", .activate = config_file_action },
  { .name = "hub", .activate = hub_action },
  { .name = "gguf-file", .activate = gguf_file_action },
  { .name = "gguf-url", .activate = gguf_url_action },
  { .name = "hub-repo", .activate = hub_repo_action, .parameter_type = "s" },
  { .name = "refresh-model", .activate = refresh_model_action, .parameter_type = "s" },
  { .name = "open-file", .activate = open_file_action },
  { .name = "add-gpu", .activate = add_gpu_action },
  { .name = "edit-gpu", .activate = edit_gpu_action, .parameter_type = "s" },
  { .name = "remove-model", .activate = remove_model_action, .parameter_type = "s" },
  { .name = "remove-gpu", .activate = remove_gpu_action, .parameter_type = "s" },
  { .name = "rename-model", .activate = rename_model_action, .parameter_type = "s" },
  { .name = "manage", .activate = manage_action },
  { .name = "undo-remove", .activate = undo_remove_action },
};

/* Callbacks ------------------------------------------------------------------------------------ */

/* A model read from a GGUF file is sized at the file's own mix: choosing it chooses that. */
static void
model_selected_cb (HrImport *self)
{
  const char *id = hr_session_get_model (session (self));
  const HrModel *model;
  const HrQuantMix *quant;

  if (g_strcmp0 (id, self->last_model_id) == 0)
    return;
  g_free (self->last_model_id);
  self->last_model_id = g_strdup (id);
  model = id && hr_import_catalog (self) ? hr_catalog_find_model (hr_import_catalog (self), id) : NULL;
  quant = model && model->origin == HR_MODEL_ORIGIN_GGUF && model->gguf_quant != NULL
          ? hr_catalog_find_quant (hr_import_catalog (self), hr_quant_catalog_id (model->gguf_quant)) : NULL;
  /* a checkpoint sized from the Hub's safetensors headers: at the format it is in */
  if (quant == NULL && model != NULL && model->native_dtype != NULL &&
      hr_model_find_size (model, model->native_dtype) != NULL &&
      g_strcmp0 (hr_model_find_size (model, model->native_dtype)->source, HR_HUB_HEADERS_SOURCE) == 0)
    {
      g_autofree char *engine_id = NULL;
      HrEngine engine, loads;

      quant = hr_catalog_find_quant (hr_import_catalog (self), model->native_dtype);
      /* …on an engine that loads it: an FP8, AWQ or GPTQ checkpoint is vLLM's, not llama.cpp's
       * (which would size a GGUF it does not have) */
      g_object_get (session (self), "engine", &engine_id, NULL);
      if (quant != NULL && hr_engine_from_string (engine_id, &engine) &&
          (loads = hr_engine_load_pick (engine, model, quant->id)) != engine)
        g_object_set (session (self), "engine", hr_engine_to_string (loads), NULL);
    }
  if (quant != NULL)
    hr_session_set_quant (session (self), quant->id);
}

/* The window gets its application after it is made: then the start-up news can be told. */
static void
application_changed_cb (HrImport *self)
{
  GtkApplication *app = self->window ? gtk_window_get_application (GTK_WINDOW (self->window)) : NULL;
  g_autofree char *warning = NULL;

  if (!HR_IS_APPLICATION (app) || session (self) == NULL)
    return;
  g_signal_connect_object (session (self), "notify::model", G_CALLBACK (model_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session (self), "catalog-changed", G_CALLBACK (catalog_changed_cb), self,
                           G_CONNECT_SWAPPED);
  warning = hr_application_take_userdata_warning (HR_APPLICATION (app));
  if (warning != NULL)
    hr_import_show_toast (self, warning, TRUE, FALSE);
}

/* GObject -------------------------------------------------------------------------------------- */

static void
hr_import_dispose (GObject *object)
{
  HrImport *self = HR_IMPORT (object);

  hr_import_drop_fetch (self, TRUE);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  if (self->fetch_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->fetch_dialog));
  if (self->editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->editor));
  if (self->manage != NULL)
    gtk_window_destroy (GTK_WINDOW (self->manage));
  if (self->window != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->window, self);
      if (session (self) != NULL)
        g_signal_handlers_disconnect_by_data (session (self), self);
      g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
      self->window = NULL;
    }
  g_clear_object (&self->cancellable);
  g_clear_object (&self->actions);
  g_clear_object (&self->add_model_menu);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_import_parent_class)->dispose (object);
}

static void
hr_import_finalize (GObject *object)
{
  HrImport *self = HR_IMPORT (object);

  g_clear_pointer (&self->removed_model, hr_model_free);
  g_clear_pointer (&self->removed_gpu, hr_gpu_free);
  g_clear_pointer (&self->last_model_id, g_free);
  g_clear_pointer (&self->last_message, g_free);
  g_clear_object (&self->progress_toast);

  G_OBJECT_CLASS (hr_import_parent_class)->finalize (object);
}

static void
hr_import_class_init (HrImportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_import_dispose;
  object_class->finalize = hr_import_finalize;
}

static void
hr_import_init (HrImport *self)
{
  g_autoptr(GMenu) config = g_menu_new ();
  g_autoptr(GMenu) gguf = g_menu_new ();

  self->settings = g_settings_new (APP_ID);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), action_entries,
                                   G_N_ELEMENTS (action_entries), self);

  self->add_model_menu = g_menu_new ();
  g_menu_append (config, _("Import _config.json…"), "import.config-file");
  g_menu_append (config, _("From _Hugging Face…"), "import.hub");
  g_menu_append (gguf, _("Open _GGUF File…"), "import.gguf-file");
  g_menu_append (gguf, _("Open GGUF _URL…"), "import.gguf-url");
  g_menu_append_section (self->add_model_menu, NULL, G_MENU_MODEL (config));
  g_menu_append_section (self->add_model_menu, NULL, G_MENU_MODEL (gguf));
}

/* Public API ----------------------------------------------------------------------------------- */

HrImport *
hr_import_new (HrWindow *window)
{
  HrImport *self;
  HrSizeView *view;

  g_return_val_if_fail (HR_IS_WINDOW (window), NULL);

  self = g_object_new (HR_TYPE_IMPORT, NULL);
  self->window = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
  self->cancellable = g_object_ref (hr_window_get_cancellable (window));
  gtk_widget_insert_action_group (GTK_WIDGET (window), "import", G_ACTION_GROUP (self->actions));

  view = hr_window_get_size_view (window);
  hr_picker_set_footer (hr_size_view_get_model_picker (view), _("Add _Model…"),
                        G_MENU_MODEL (self->add_model_menu), NULL, "import.manage");
  hr_picker_set_footer (hr_size_view_get_gpu_picker (view), _("Add _GPU…"), NULL,
                        "import.add-gpu", "import.manage");
  g_signal_connect_object (window, "notify::application", G_CALLBACK (application_changed_cb),
                           self, G_CONNECT_SWAPPED);
  return self;
}

/* After the user file refused a removal: an entry that was never saved, or a damaged file
 * that was just set aside, still goes from the catalog; any other failure keeps it. */
static gboolean
removal_may_proceed (HrImport     *self,
                     const char   *name,
                     const GError *error)
{
  if (g_error_matches (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT))
    hr_import_show_toast (self, error->message, TRUE, FALSE);
  else if (!g_error_matches (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NOT_FOUND))
    {
      g_autofree char *text = g_strdup_printf (_("Could not remove “%s”: %s"), name, error->message);
      hr_import_show_toast (self, text, TRUE, FALSE);
      return FALSE;
    }
  return TRUE;
}

/* Keeps @model or @gpu (transfer full), about to leave the catalog, for Undo, and says so. */
static void
keep_for_undo (HrImport   *self,
               HrModel    *model,
               HrGpu      *gpu,
               const char *name)
{
  g_autofree char *message = g_strdup_printf (_("Removed “%s”"), name);

  g_clear_pointer (&self->removed_model, hr_model_free);
  g_clear_pointer (&self->removed_gpu, hr_gpu_free);
  self->removed_model = model;
  self->removed_gpu = gpu;
  hr_import_show_toast (self, message, FALSE, TRUE);
}

gboolean
hr_import_remove_model (HrImport   *self,
                        const char *id)
{
  HrCatalog *cat;
  const HrModel *model;
  g_autoptr(GError) error = NULL;
  HrUserData *ud;

  g_return_val_if_fail (HR_IS_IMPORT (self), FALSE);

  cat = hr_import_catalog (self);
  model = cat && id ? hr_catalog_find_model (cat, id) : NULL;
  if (model == NULL || !hr_import_model_is_yours (model))
    return FALSE;
  ud = userdata (self);
  if (ud != NULL && !hr_userdata_remove_model (ud, id, &error) &&
      !removal_may_proceed (self, model->name, error))
    return FALSE;

  keep_for_undo (self, hr_model_copy (model), NULL, model->name);
  hr_session_remove_model (session (self), id);
  return TRUE;
}

gboolean
hr_import_rename_model (HrImport   *self,
                        const char *id,
                        const char *name)
{
  HrCatalog *cat;
  HrModel *model;
  g_autoptr(HrModel) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  HrUserData *ud;

  g_return_val_if_fail (HR_IS_IMPORT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  cat = hr_import_catalog (self);
  model = cat && id ? (HrModel *) hr_catalog_find_model (cat, id) : NULL;
  ud = userdata (self);
  if (model == NULL || !hr_import_model_is_yours (model) || ud == NULL)
    return FALSE;
  if (!hr_userdata_rename_model (ud, id, name, &saved, &error))
    {
      message = g_strdup_printf (_("Could not rename “%s”: %s"), model->name, error->message);
      hr_import_show_toast (self, message, TRUE, FALSE);
      return FALSE;
    }
  /* in place: the views hold this model */
  hr_session_rename_model (session (self), id, saved->name);
  message = g_strdup_printf (_("Renamed to “%s”"), saved->name);
  hr_import_show_toast (self, message, FALSE, FALSE);
  return TRUE;
}

gboolean
hr_import_remove_gpu (HrImport   *self,
                      const char *id)
{
  HrCatalog *cat;
  const HrGpu *gpu;
  g_autoptr(GError) error = NULL;
  HrUserData *ud;

  g_return_val_if_fail (HR_IS_IMPORT (self), FALSE);

  cat = hr_import_catalog (self);
  gpu = cat && id ? hr_catalog_find_gpu (cat, id) : NULL;
  if (gpu == NULL || !hr_import_gpu_is_yours (gpu))
    return FALSE;
  ud = userdata (self);
  if (ud != NULL && !hr_userdata_remove_gpu (ud, id, &error) &&
      !removal_may_proceed (self, gpu->name, error))
    return FALSE;

  keep_for_undo (self, NULL, hr_gpu_copy (gpu), gpu->name);
  hr_session_remove_gpu (session (self), id);
  return TRUE;
}

gboolean
hr_import_is_busy (HrImport *self)
{
  g_return_val_if_fail (HR_IS_IMPORT (self), FALSE);
  return self->n_running > 0;
}

AdwToast *
hr_import_get_progress_toast (HrImport *self)
{
  g_return_val_if_fail (HR_IS_IMPORT (self), NULL);
  return self->progress_toast;
}

const char *
hr_import_get_last_message (HrImport *self)
{
  g_return_val_if_fail (HR_IS_IMPORT (self), NULL);
  return self->last_message;
}

GtkWindow *
hr_import_get_dialog (HrImport *self)
{
  g_return_val_if_fail (HR_IS_IMPORT (self), NULL);

  if (self->fetch_dialog != NULL)
    return GTK_WINDOW (self->fetch_dialog);
  if (self->editor != NULL)
    return GTK_WINDOW (self->editor);
  return self->manage ? GTK_WINDOW (self->manage) : NULL;
}

GtkFileChooser *
hr_import_get_chooser (HrImport *self)
{
  g_return_val_if_fail (HR_IS_IMPORT (self), NULL);
  return self->chooser ? GTK_FILE_CHOOSER (self->chooser) : NULL;
}
