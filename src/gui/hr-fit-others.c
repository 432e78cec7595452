/* hr-fit-others.c — the Size view's last section: other models on this hardware
 *
 * The top of What Runs Here's ranking (hr-fit-state.c, the same rows) for the session's
 * hardware at the scenario's context, without the model being sized; each row a click away:
 * activating it makes that model, its quant and the context the session's scenario.  Ranked
 * only when shown, in an idle after the Size view's own recompute.  The use case, minimum speed
 * and order are What Runs Here's (its GSettings keys), so both lists rank alike.
 */
#include "hr-fit-others.h"

#include <glib/gi18n-lib.h>

#include "hr-fit-state.h"

#define N_OTHERS 5

struct _HrFitOthers
{
  AdwBin parent_instance;

  AdwPreferencesGroup *group;
  GtkListBox *list;
  HrSession *session;
  GSettings *settings;
  HrFitState *state;
  GPtrArray *shown;          /* HrFitItem *, borrowed from state */
  guint update_id;
};

G_DEFINE_FINAL_TYPE (HrFitOthers, hr_fit_others, ADW_TYPE_BIN)

static GtkWidget *
other_row (const HrFitItem *it,
           guint            index)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *badge = gtk_label_new (it->badge);
  GtkWidget *quality = gtk_label_new (it->quality);
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");
  g_autofree char *title = g_markup_escape_text (it->title, -1);
  g_autofree char *subtitle = g_markup_escape_text (it->subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (badge, "fit-badge");
  gtk_widget_add_css_class (badge, it->badge_css);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (quality, "numeric");
  gtk_widget_set_tooltip_text (quality, _("Published quality at this quant"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (arrow), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), quality);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_widget_set_tooltip_text (row, _("Size this model on this hardware"));
  g_object_set_data (G_OBJECT (row), "index", GUINT_TO_POINTER (index));
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  it->description, -1);
  return row;
}

static void
update (HrFitOthers *self)
{
  const HrScenario *s = hr_session_get_scenario (self->session);
  HrCatalog *catalog = hr_session_get_catalog (self->session);
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  GtkWidget *child;
  HrFitNeeds needs;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->state, hr_fit_state_free);
  if (s == NULL || catalog == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->group), FALSE);
      return;
    }
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
  hr_fit_needs_init (&needs);
  needs.min_context = s->context;
  if (self->settings != NULL)
    {
      g_autofree char *use_case = g_settings_get_string (self->settings, "fit-use-case");
      g_autofree char *sort = g_settings_get_string (self->settings, "fit-sort");

      hr_use_case_from_string (use_case, &needs.use_case);
      hr_fit_sort_from_string (sort, &needs.sort);
      needs.min_decode_tps = g_settings_get_double (self->settings, "fit-min-tps");
    }
  self->state = hr_fit_state_new (s, models, catalog, hr_quality_get_default (NULL), &needs);
  self->shown = hr_fit_state_top (self->state, s->model->id, N_OTHERS);
  for (guint i = 0; i < self->shown->len; i++)
    gtk_list_box_append (self->list, other_row (self->shown->pdata[i], i));
  gtk_widget_set_visible (GTK_WIDGET (self->group), self->shown->len > 0);
}

static gboolean
update_idle_cb (gpointer data)
{
  HrFitOthers *self = data;

  self->update_id = 0;
  update (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_update (HrFitOthers *self)
{
  /* after the Size view's recompute, before the next frame */
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, update_idle_cb, self, NULL);
}

gboolean
hr_fit_others_open (HrFitOthers *self,
                    guint        index)
{
  const HrFitItem *it;

  g_return_val_if_fail (HR_IS_FIT_OTHERS (self), FALSE);

  if (self->update_id != 0)
    {
      g_clear_handle_id (&self->update_id, g_source_remove);
      update (self);
    }
  if (self->shown == NULL || index >= self->shown->len)
    return FALSE;
  it = self->shown->pdata[index];
  g_object_set (self->session, "model", it->model->id, "quant", it->quant, "n-cpu-moe", it->n_cpu_moe,
                "offload", 0.0, NULL);
  return TRUE;
}

static void
row_activated_cb (HrFitOthers   *self,
                  GtkListBoxRow *row)
{
  hr_fit_others_open (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "index")));
}

static void
hr_fit_others_dispose (GObject *object)
{
  HrFitOthers *self = HR_FIT_OTHERS (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->state, hr_fit_state_free);
  G_OBJECT_CLASS (hr_fit_others_parent_class)->dispose (object);
}

static void
hr_fit_others_class_init (HrFitOthersClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hr_fit_others_dispose;
}

static void
hr_fit_others_init (HrFitOthers *self)
{
  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("Other Models on This Hardware"));
  adw_preferences_group_set_description (self->group,
                                         _("The best that fit here at this context, from What Runs Here."));
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Other models on this hardware"), -1);
  g_signal_connect_object (self->list, "row-activated", G_CALLBACK (row_activated_cb), self, G_CONNECT_SWAPPED);
  adw_preferences_group_add (self->group, GTK_WIDGET (self->list));
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->group));
  gtk_widget_set_visible (GTK_WIDGET (self->group), FALSE);
}

GtkWidget *
hr_fit_others_new (HrSession *session)
{
  HrFitOthers *self = g_object_new (HR_TYPE_FIT_OTHERS, NULL);

  self->session = g_object_ref (session);
  self->settings = g_settings_new (APP_ID);
  hr_session_watch (session, self, G_CALLBACK (schedule_update), G_CALLBACK (schedule_update));
  g_signal_connect_object (self->settings, "changed::fit-use-case", G_CALLBACK (schedule_update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::fit-min-tps", G_CALLBACK (schedule_update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::fit-sort", G_CALLBACK (schedule_update), self,
                           G_CONNECT_SWAPPED);
  schedule_update (self);
  return GTK_WIDGET (self);
}

guint
hr_fit_others_get_n_rows (HrFitOthers *self)
{
  g_return_val_if_fail (HR_IS_FIT_OTHERS (self), 0);

  if (self->update_id != 0)
    {
      g_clear_handle_id (&self->update_id, g_source_remove);
      update (self);
    }
  return self->shown != NULL ? self->shown->len : 0;
}
