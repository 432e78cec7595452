/* hr-draft-group.c — the Size view's speculative-decoding controls (#31)
 *
 * A list of the drafts this model can use on this engine — none, its own MTP layers where the
 * engine runs them, and the catalog's smaller models of the same tokenizer
 * (hr_draft_candidates ()) — and the acceptance the expected speed assumes, shown as the
 * published default until the user changes it.  Both move the session's "draft" and
 * "draft-accept"; the list is rebuilt when the model, the engine or the catalog changes.
 */
#include "hr-draft-group.h"

#include "hr-draft.h"

#include <glib/gi18n.h>
#include <math.h>

struct _HrDraftGroup
{
  AdwPreferencesGroup parent_instance;

  HrSession *session;
  AdwComboRow *draft_row;
  AdwActionRow *accept_row;
  GtkSpinButton *accept_spin;
  GtkAdjustment *accept_adjustment;
  GPtrArray *ids;          /* char*, the list's ids by position: "none", "mtp", model ids */
  gboolean updating;       /* the rows are being set from the session */
};

G_DEFINE_FINAL_TYPE (HrDraftGroup, hr_draft_group, ADW_TYPE_PREFERENCES_GROUP)

static HrDraftKind
kind_of (const char *id)
{
  if (id == NULL || g_strcmp0 (id, "none") == 0)
    return HR_DRAFT_NONE;
  return g_strcmp0 (id, "mtp") == 0 ? HR_DRAFT_MTP : HR_DRAFT_MODEL;
}

/* The rows from the session: the chosen draft's position (none when the list has it not) and
 * the acceptance, the published one while the user gave none. */
static void
sync_from_session (HrDraftGroup *self)
{
  g_autofree char *draft = NULL;
  double accept = 0;
  guint pos = 0;
  HrDraftKind kind;

  g_object_get (self->session, "draft", &draft, "draft-accept", &accept, NULL);
  for (guint i = 0; i < self->ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->ids, i), draft) == 0)
      pos = i;
  kind = kind_of (g_ptr_array_index (self->ids, pos));
  self->updating = TRUE;
  adw_combo_row_set_selected (self->draft_row, pos);
  gtk_adjustment_set_value (self->accept_adjustment,
                            accept > 0 ? accept
                            : kind != HR_DRAFT_NONE ? round (hr_draft_default_accept (kind) * 100) : 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->accept_row), kind != HR_DRAFT_NONE);
  self->updating = FALSE;
}

/* The drafts this model can use on this engine. */
static void
refill (HrDraftGroup *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GPtrArray) models = NULL;
  g_autofree char *model_id = NULL, *engine_id = NULL;
  const HrModel *model;
  HrEngine engine = HR_ENGINE_LLAMA_CPP;

  /* the properties themselves: a notify comes before the session's scenario is read again */
  g_object_get (self->session, "model", &model_id, "engine", &engine_id, NULL);
  model = model_id != NULL ? hr_catalog_find_model (hr_session_get_catalog (self->session), model_id) : NULL;
  if (engine_id == NULL || !hr_engine_from_string (engine_id, &engine))
    engine = HR_ENGINE_LLAMA_CPP;

  g_ptr_array_set_size (self->ids, 0);
  g_ptr_array_add (self->ids, g_strdup ("none"));
  gtk_string_list_append (names, _("None"));
  if (model != NULL && hr_draft_engine_runs_mtp (engine, model, NULL))
    {
      g_ptr_array_add (self->ids, g_strdup ("mtp"));
      /* TRANSLATORS: speculative decoding with the model's own multi-token-prediction layers */
      gtk_string_list_append (names, _("Its own MTP layers"));
    }
  if (model != NULL && (engine == HR_ENGINE_LLAMA_CPP || engine == HR_ENGINE_VLLM ||
                        engine == HR_ENGINE_SGLANG))
    {
      models = hr_draft_candidates (hr_session_get_catalog (self->session), model);
      for (guint i = 0; i < models->len; i++)
        {
          const HrModel *m = g_ptr_array_index (models, i);

          g_ptr_array_add (self->ids, g_strdup (m->id));
          gtk_string_list_append (names, m->name ? m->name : m->id);
        }
    }
  self->updating = TRUE;
  adw_combo_row_set_model (self->draft_row, G_LIST_MODEL (names));
  self->updating = FALSE;
  /* in the group's description, so that the row leaves its width to the chosen name */
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self),
                                         self->ids->len > 1 ? _("Same tokenizer, or the model’s MTP layers")
                                                            : _("No draft for this model and engine"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->draft_row), self->ids->len > 1);
  sync_from_session (self);
}

static void
selected_cb (HrDraftGroup *self)
{
  guint pos = adw_combo_row_get_selected (self->draft_row);

  if (self->updating || self->session == NULL || pos >= self->ids->len)
    return;
  /* another draft: its own published acceptance until the user sets one */
  g_object_set (self->session, "draft-accept", 0.0, "draft", g_ptr_array_index (self->ids, pos), NULL);
}

static void
accept_cb (HrDraftGroup *self)
{
  HrDraftKind kind;
  double v = gtk_adjustment_get_value (self->accept_adjustment);
  guint pos = adw_combo_row_get_selected (self->draft_row);

  if (self->updating || self->session == NULL || pos >= self->ids->len)
    return;
  kind = kind_of (g_ptr_array_index (self->ids, pos));
  if (kind == HR_DRAFT_NONE)
    return;
  /* the published figure itself stays "the default" */
  g_object_set (self->session, "draft-accept",
                fabs (v - round (hr_draft_default_accept (kind) * 100)) < 0.5 ? 0.0 : v, NULL);
}

static void
session_changed_cb (HrDraftGroup *self,
                    GParamSpec   *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_strcmp0 (name, "draft") == 0 || g_strcmp0 (name, "draft-accept") == 0)
    sync_from_session (self);
  else
    refill (self);
}

static void
hr_draft_group_dispose (GObject *object)
{
  HrDraftGroup *self = HR_DRAFT_GROUP (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->ids, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_draft_group_parent_class)->dispose (object);
}

static void
hr_draft_group_class_init (HrDraftGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hr_draft_group_dispose;
}

static void
hr_draft_group_init (HrDraftGroup *self)
{
  GtkWidget *spin;

  self->ids = g_ptr_array_new_with_free_func (g_free);
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self), _("Speculative Decoding"));

  self->draft_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->draft_row), _("_Draft"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->draft_row), TRUE);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (self->draft_row));
  g_signal_connect_swapped (self->draft_row, "notify::selected", G_CALLBACK (selected_cb), self);

  self->accept_adjustment = gtk_adjustment_new (0, 0, 99, 1, 5, 0);
  spin = gtk_spin_button_new (self->accept_adjustment, 1, 0);
  self->accept_spin = GTK_SPIN_BUTTON (spin);
  gtk_spin_button_set_numeric (self->accept_spin, TRUE);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Draft acceptance in percent"), -1);
  self->accept_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->accept_row), _("_Acceptance (%)"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->accept_row), TRUE);
  /* TRANSLATORS: under the acceptance of speculative decoding: what the number means */
  adw_action_row_set_subtitle (self->accept_row, _("Each drafted token; the default is a published measurement"));
  adw_action_row_add_suffix (self->accept_row, spin);
  adw_action_row_set_activatable_widget (self->accept_row, spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (self->accept_row));
  g_signal_connect_swapped (self->accept_adjustment, "value-changed", G_CALLBACK (accept_cb), self);
}

GtkWidget *
hr_draft_group_new (void)
{
  return g_object_new (HR_TYPE_DRAFT_GROUP, NULL);
}

void
hr_draft_group_set_session (HrDraftGroup *self,
                            HrSession    *session)
{
  g_return_if_fail (HR_IS_DRAFT_GROUP (self));
  g_return_if_fail (HR_IS_SESSION (session));

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_signal_connect_swapped (session, "notify::model", G_CALLBACK (session_changed_cb), self);
  g_signal_connect_swapped (session, "notify::engine", G_CALLBACK (session_changed_cb), self);
  g_signal_connect_swapped (session, "notify::draft", G_CALLBACK (session_changed_cb), self);
  g_signal_connect_swapped (session, "notify::draft-accept", G_CALLBACK (session_changed_cb), self);
  g_signal_connect_swapped (session, "catalog-changed", G_CALLBACK (refill), self);
  refill (self);
}
