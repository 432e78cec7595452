/* hr-manage-dialog.c — the user's own models and GPUs, to edit and remove */
#include "hr-manage-dialog.h"

#include <glib/gi18n-lib.h>

#include "hr-hub-id.h"
#include "hr-import-state.h"
#include "hr-scenario-state.h"

struct _HrManageDialog
{
  AdwPreferencesWindow parent_instance;

  AdwPreferencesGroup *models_group;
  AdwPreferencesGroup *gpus_group;
  GPtrArray *rows;   /* the rows refresh() put in, to take out again */
  guint n_models;
  guint n_gpus;
};

G_DEFINE_FINAL_TYPE (HrManageDialog, hr_manage_dialog, ADW_TYPE_PREFERENCES_WINDOW)

static GtkWidget *
row_button (const char *icon_name,
            const char *tooltip,
            const char *action,
            const char *id,
            gboolean    destructive)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_add_css_class (button, "flat");
  if (destructive)
    gtk_widget_add_css_class (button, "error");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
  return button;
}

static void
add_row (HrManageDialog      *self,
         AdwPreferencesGroup *group,
         GtkWidget           *row)
{
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->rows, row);
}

static void
add_empty_row (HrManageDialog      *self,
               AdwPreferencesGroup *group,
               const char          *text)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  gtk_widget_add_css_class (row, "dim-label");
  add_row (self, group, row);
}

static const char *
origin_text (const HrModel *model)
{
  g_autofree char *ref = hr_hub_model_ref (model);

  if (ref != NULL)
    return _("Hugging Face Hub");
  switch (model->origin)
    {
    case HR_MODEL_ORIGIN_GGUF:
      return model->gguf_path ? _("GGUF file") : _("GGUF header on the web");
    case HR_MODEL_ORIGIN_CONFIG:
      return _("config.json");
    case HR_MODEL_ORIGIN_CATALOG:
    default:
      return _("Catalog entry");
    }
}

/* GObject -------------------------------------------------------------------------------------- */

static void
hr_manage_dialog_finalize (GObject *object)
{
  HrManageDialog *self = HR_MANAGE_DIALOG (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_manage_dialog_parent_class)->finalize (object);
}

static void
hr_manage_dialog_class_init (HrManageDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_manage_dialog_finalize;
}

static void
hr_manage_dialog_init (HrManageDialog *self)
{
  GtkWidget *page = adw_preferences_page_new ();

  self->rows = g_ptr_array_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Your Models and GPUs"));
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 640, 560);
  adw_preferences_window_set_search_enabled (ADW_PREFERENCES_WINDOW (self), FALSE);

  self->models_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->models_group, _("Models"));
  adw_preferences_group_set_description (self->models_group,
                                         _("Imported from config.json files, the Hugging Face hub and GGUF headers"));
  self->gpus_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->gpus_group, _("GPUs"));
  adw_preferences_group_set_description (self->gpus_group, _("Accelerators you described yourself"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->models_group);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->gpus_group);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), ADW_PREFERENCES_PAGE (page));
}

/* Public API ----------------------------------------------------------------------------------- */

HrManageDialog *
hr_manage_dialog_new (GtkWindow  *parent,
                      GMenuModel *add_model_menu)
{
  HrManageDialog *self = g_object_new (HR_TYPE_MANAGE_DIALOG, "transient-for", parent, NULL);
  GtkWidget *add_gpu = gtk_button_new_with_mnemonic (_("_Add GPU…"));

  if (add_model_menu != NULL)
    {
      GtkWidget *add_model = gtk_menu_button_new ();

      gtk_menu_button_set_label (GTK_MENU_BUTTON (add_model), _("Add _Model…"));
      gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (add_model), TRUE);
      gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (add_model), add_model_menu);
      gtk_widget_add_css_class (add_model, "flat");
      gtk_widget_set_valign (add_model, GTK_ALIGN_CENTER);
      adw_preferences_group_set_header_suffix (self->models_group, add_model);
    }
  gtk_widget_add_css_class (add_gpu, "flat");
  gtk_widget_set_valign (add_gpu, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add_gpu), "import.add-gpu");
  adw_preferences_group_set_header_suffix (self->gpus_group, add_gpu);
  return self;
}

void
hr_manage_dialog_refresh (HrManageDialog  *self,
                          const HrCatalog *catalog)
{
  g_return_if_fail (HR_IS_MANAGE_DIALOG (self));
  g_return_if_fail (catalog != NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);
      GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);

      if (group != NULL)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->rows, 0);
  self->n_models = 0;
  self->n_gpus = 0;

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *m = hr_catalog_get_model (catalog, i);
      g_autofree char *summary = NULL;
      g_autofree char *subtitle = NULL;
      g_autofree char *hub_ref = NULL;
      GtkWidget *row;

      if (!hr_import_model_is_yours (m))
        continue;
      hub_ref = hr_hub_model_ref (m);
      summary = hr_size_model_summary (m);
      /* a GGUF model's summary already says which file it is */
      subtitle = m->origin == HR_MODEL_ORIGIN_GGUF && m->gguf_quant != NULL && hub_ref == NULL
                 ? g_strdup (summary) : g_strdup_printf ("%s · %s", origin_text (m), summary);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), m->name ? m->name : m->id);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
      if (m->gguf_path != NULL)
        gtk_widget_set_tooltip_text (row, m->gguf_path);
      else if (hub_ref != NULL)
        gtk_widget_set_tooltip_text (row, hub_ref);
      /* sized from the Hub: asked again, past the cache */
      if (hub_ref != NULL)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   row_button ("view-refresh-symbolic", _("Refresh From the Hub"),
                                               "import.refresh-model", m->id, FALSE));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 row_button ("document-edit-symbolic", _("Rename Model"),
                                             "import.rename-model", m->id, FALSE));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 row_button ("user-trash-symbolic", _("Remove Model"),
                                             "import.remove-model", m->id, TRUE));
      add_row (self, self->models_group, row);
      self->n_models++;
    }
  if (self->n_models == 0)
    add_empty_row (self, self->models_group, _("No models of your own yet"));

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *g = hr_catalog_get_gpu (catalog, i);
      g_autofree char *summary = NULL;
      GtkWidget *row;

      if (!hr_import_gpu_is_yours (g))
        continue;
      summary = hr_size_gpu_summary (g);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g->name ? g->name : g->id);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), summary);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 row_button ("document-edit-symbolic", _("Edit GPU"),
                                             "import.edit-gpu", g->id, FALSE));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 row_button ("user-trash-symbolic", _("Remove GPU"),
                                             "import.remove-gpu", g->id, TRUE));
      add_row (self, self->gpus_group, row);
      self->n_gpus++;
    }
  if (self->n_gpus == 0)
    add_empty_row (self, self->gpus_group, _("No GPUs of your own yet"));
}

guint
hr_manage_dialog_get_n_models (HrManageDialog *self)
{
  g_return_val_if_fail (HR_IS_MANAGE_DIALOG (self), 0);
  return self->n_models;
}

guint
hr_manage_dialog_get_n_gpus (HrManageDialog *self)
{
  g_return_val_if_fail (HR_IS_MANAGE_DIALOG (self), 0);
  return self->n_gpus;
}
