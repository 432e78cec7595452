/* hr-fit-view.c — What Runs Here: the session's hardware, the user's needs, every model ranked
 *
 * The hardware is the Size view's (the session's GPU, count, engine, KV type, sequences,
 * reserve); the view's own controls are the needs: minimum context, minimum speed, use case
 * and the order.  The ranking and its words come from hr-fit-state.c (hr_fit_rank(), the rows
 * `headroom-cli fit` prints); this file only applies them: the scatter chart, the ranked list
 * and the models left out.  Activating a row opens that model, quant and context in the Size
 * view through the session's properties.
 */
#include "hr-fit-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-chart-data.h"
#include "hr-export-dialog.h"
#include "hr-text.h"
#include "hr-units.h"

struct _HrFitView
{
  GtkWidget parent_instance;

  /* template */
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  AdwComboRow *context_row;
  AdwComboRow *speed_row;
  AdwComboRow *use_case_row;
  AdwComboRow *sort_row;
  HrChartWidget *chart;
  AdwPreferencesGroup *fits_group;
  GtkListBox *fits_list;
  AdwPreferencesGroup *out_group;
  GtkListBox *out_list;
  GtkLabel *empty_label;

  GSettings *settings;
  HrSession *session;
  HrFitState *state;
  HrFitNeeds needs;
  gboolean dirty;
  guint update_id;
};

G_DEFINE_FINAL_TYPE (HrFitView, hr_fit_view, GTK_TYPE_WIDGET)

/* Building the rows ---------------------------------------------------------------------------- */

static GtkWidget *
item_row (const HrFitItem *it,
          guint            index)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *badge = gtk_label_new (it->badge);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *title = g_markup_escape_text (it->title, -1);
  g_autofree char *subtitle = g_markup_escape_text (it->subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (badge, "fit-badge");
  gtk_widget_add_css_class (badge, it->badge_css);
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), badge);
  if (it->listed)
    {
      g_autofree char *rank = g_strdup_printf ("%u", it->rank);
      GtkWidget *rank_label = gtk_label_new (rank);
      GtkWidget *quality = gtk_label_new (it->quality);

      gtk_widget_add_css_class (rank_label, "numeric");
      gtk_widget_add_css_class (rank_label, "dim-label");
      gtk_label_set_width_chars (GTK_LABEL (rank_label), 2);
      gtk_label_set_xalign (GTK_LABEL (rank_label), 1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), rank_label);
      gtk_widget_add_css_class (quality, "numeric");
      gtk_widget_set_tooltip_text (quality, _("Published quality at this quant"));
      gtk_box_append (GTK_BOX (box), quality);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_widget_set_tooltip_text (row, _("Open in the Size view"));
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "index", GUINT_TO_POINTER (index));
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  it->description, -1);
  return row;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static void
apply_state (HrFitView *self)
{
  const HrFitState *st = self->state;
  HrChartFit *chart = g_new0 (HrChartFit, 1);
  const HrScenario *s = hr_session_get_scenario (self->session);
  guint n_out = 0;

  clear_list (self->fits_list);
  clear_list (self->out_list);
  if (st == NULL || s == NULL)
    {
      gtk_label_set_text (self->title_label, _("What Runs Here"));
      gtk_label_set_text (self->subtitle_label, _("Choose a GPU in the Size view."));
      hr_chart_widget_set_data (self->chart, HR_CHART_FIT, NULL);
      g_free (chart);
      return;
    }
  gtk_label_set_text (self->title_label, st->title);
  gtk_label_set_text (self->subtitle_label, st->subtitle);
  for (guint i = 0; i < st->items->len; i++)
    {
      const HrFitItem *it = g_ptr_array_index (st->items, i);

      if (it->listed)
        gtk_list_box_append (self->fits_list, item_row (it, i));
      else
        {
          gtk_list_box_append (self->out_list, item_row (it, i));
          n_out++;
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->fits_list), st->n_listed > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), st->n_listed == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->out_group), n_out > 0);
  hr_chart_fit_from_rows (st->rows, s, st->quality_name, chart);
  hr_chart_widget_set_data (self->chart, HR_CHART_FIT, chart);
  g_free (chart);
}

static void
update (HrFitView *self)
{
  const HrScenario *s = hr_session_get_scenario (self->session);
  HrCatalog *catalog = hr_session_get_catalog (self->session);
  g_autoptr(GPtrArray) models = g_ptr_array_new ();

  self->dirty = FALSE;
  g_clear_pointer (&self->state, hr_fit_state_free);
  if (s != NULL && catalog != NULL)
    {
      /* the session's model list: bundled, saved and Hub models alike */
      for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
        g_ptr_array_add (models, (gpointer) hr_catalog_get_model (catalog, i));
      self->state = hr_fit_state_new (s, models, catalog, hr_quality_get_default (NULL), &self->needs);
    }
  apply_state (self);
}

static gboolean
update_idle_cb (gpointer data)
{
  HrFitView *self = data;

  self->update_id = 0;
  update (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_update (HrFitView *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, update_idle_cb, self, NULL);
}

static void
scenario_changed_cb (HrFitView *self)
{
  schedule_update (self);
}

/* The filters ---------------------------------------------------------------------------------- */

static void
fill_combo (AdwComboRow       *row,
            const char *const *labels,
            guint              selected)
{
  GtkStringList *list = gtk_string_list_new (labels);

  adw_combo_row_set_model (row, G_LIST_MODEL (list));
  adw_combo_row_set_selected (row, selected);
  g_object_unref (list);
}

static void
fill_filters (HrFitView *self)
{
  g_autoptr(GPtrArray) ctx = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) speed = g_ptr_array_new_with_free_func (g_free);
  const char *use_cases[HR_N_USE_CASES + 1] = { NULL };
  const char *sorts[] = { _("Quality"), _("Speed"), _("Size"), _("Context"), NULL };
  guint ctx_sel = 0;

  for (guint i = 0; hr_fit_context_choices[i] > 0; i++)
    {
      g_ptr_array_add (ctx, hr_format_context_short (hr_fit_context_choices[i]));
      if (hr_fit_context_choices[i] == HR_FIT_DEFAULT_CONTEXT)
        ctx_sel = i;
    }
  g_ptr_array_add (ctx, NULL);
  for (guint i = 0; hr_fit_speed_choices[i] >= 0; i++)
    g_ptr_array_add (speed, hr_fit_speed_choices[i] == 0
                              ? g_strdup (_("Any"))
                              : g_strdup_printf (_("%.0f tokens/s"), hr_fit_speed_choices[i]));
  g_ptr_array_add (speed, NULL);
  for (int i = 0; i < HR_N_USE_CASES; i++)
    use_cases[i] = hr_use_case_display (i);
  fill_combo (self->context_row, (const char *const *) ctx->pdata, ctx_sel);
  fill_combo (self->speed_row, (const char *const *) speed->pdata, 0);
  fill_combo (self->use_case_row, use_cases, 0);
  fill_combo (self->sort_row, sorts, 0);
}

/* The filters are kept in GSettings (fit-context, fit-min-tps, fit-use-case, fit-sort) as the
 * values they stand for, not as positions, so a choice added later does not shift them. */
static gboolean
get_context_index (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  gint64 ctx = g_variant_get_int64 (variant);
  guint sel = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; hr_fit_context_choices[i] > 0; i++)
    if (hr_fit_context_choices[i] == ctx || (sel == GTK_INVALID_LIST_POSITION &&
                                             hr_fit_context_choices[i] == HR_FIT_DEFAULT_CONTEXT))
      sel = i;
  g_value_set_uint (value, sel);
  return sel != GTK_INVALID_LIST_POSITION;
}

static GVariant *
set_context_index (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  guint sel = g_value_get_uint (value);

  for (guint i = 0; hr_fit_context_choices[i] > 0; i++)
    if (i == sel)
      return g_variant_new_int64 (hr_fit_context_choices[i]);
  return NULL;
}

static gboolean
get_speed_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  double tps = g_variant_get_double (variant);

  g_value_set_uint (value, 0);
  for (guint i = 0; hr_fit_speed_choices[i] >= 0; i++)
    if (hr_fit_speed_choices[i] == tps)
      g_value_set_uint (value, i);
  return TRUE;
}

static GVariant *
set_speed_index (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  guint sel = g_value_get_uint (value);

  for (guint i = 0; hr_fit_speed_choices[i] >= 0; i++)
    if (i == sel)
      return g_variant_new_double (hr_fit_speed_choices[i]);
  return NULL;
}

static gboolean
get_use_case_index (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  HrUseCase use_case = HR_USE_CASE_GENERAL;

  hr_use_case_from_string (g_variant_get_string (variant, NULL), &use_case);
  g_value_set_uint (value, use_case);
  return TRUE;
}

static GVariant *
set_use_case_index (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  guint sel = g_value_get_uint (value);

  return sel < HR_N_USE_CASES ? g_variant_new_string (hr_use_case_to_string (sel)) : NULL;
}

static gboolean
get_sort_index (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  HrFitSort sort = HR_FIT_SORT_QUALITY;

  hr_fit_sort_from_string (g_variant_get_string (variant, NULL), &sort);
  g_value_set_uint (value, sort);
  return TRUE;
}

static GVariant *
set_sort_index (const GValue       *value,
                const GVariantType *expected_type,
                gpointer            user_data)
{
  guint sel = g_value_get_uint (value);

  return sel < HR_N_FIT_SORTS ? g_variant_new_string (hr_fit_sort_to_string (sel)) : NULL;
}

static void
bind_filters (HrFitView *self)
{
  self->settings = g_settings_new (APP_ID);
  g_settings_bind_with_mapping (self->settings, "fit-context", self->context_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_context_index, set_context_index, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "fit-min-tps", self->speed_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_speed_index, set_speed_index, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "fit-use-case", self->use_case_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_use_case_index, set_use_case_index, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "fit-sort", self->sort_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_sort_index, set_sort_index, NULL, NULL);
}

static void
needs_from_filters (HrFitView *self)
{
  guint c = adw_combo_row_get_selected (self->context_row);
  guint v = adw_combo_row_get_selected (self->speed_row);
  guint u = adw_combo_row_get_selected (self->use_case_row);
  guint o = adw_combo_row_get_selected (self->sort_row);

  if (c != GTK_INVALID_LIST_POSITION)
    self->needs.min_context = hr_fit_context_choices[c];
  if (v != GTK_INVALID_LIST_POSITION)
    self->needs.min_decode_tps = hr_fit_speed_choices[v];
  if (u != GTK_INVALID_LIST_POSITION && u < HR_N_USE_CASES)
    self->needs.use_case = u;
  if (o != GTK_INVALID_LIST_POSITION && o < HR_N_FIT_SORTS)
    self->needs.sort = o;
}

static void
filter_changed_cb (HrFitView *self)
{
  needs_from_filters (self);
  schedule_update (self);
}

/* Opening a row ------------------------------------------------------------------------------ */

gboolean
hr_fit_view_open_item (HrFitView *self,
                       guint      index)
{
  const HrFitItem *it;
  GtkWidget *stack;

  g_return_val_if_fail (HR_IS_FIT_VIEW (self), FALSE);

  if (self->state == NULL || index >= self->state->items->len)
    return FALSE;
  it = g_ptr_array_index (self->state->items, index);
  if (!it->listed)
    return FALSE;
  /* the session's properties: the Size view and every other view follow them */
  g_object_set (self->session, "model", it->model->id, "quant", it->quant, "context", it->context,
                "n-cpu-moe", it->n_cpu_moe, "offload", 0.0, NULL);
  stack = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_VIEW_STACK);
  if (stack != NULL)
    adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "size");
  return TRUE;
}

static void
row_activated_cb (HrFitView     *self,
                  GtkListBoxRow *row,
                  GtkListBox    *box)
{
  hr_fit_view_open_item (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "index")));
}

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrFitView *self = HR_FIT_VIEW (widget);
  HrExportRequest request = { HR_EXPORT_CHART, hr_export_target_format (parameter), hr_export_write_chart,
                              self->chart };
  const HrScenario *s = hr_session_get_scenario (self->session);
  g_autofree char *slug = hr_slugify (s && s->gpu ? s->gpu->id : NULL, 60, "hardware");
  g_autofree char *name = g_strconcat (slug, "-what-runs-here", NULL);

  if (hr_chart_widget_get_data (self->chart) == NULL)
    return;
  hr_export_dialog_show (widget, &request, name);
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_fit_view_map (GtkWidget *widget)
{
  HrFitView *self = HR_FIT_VIEW (widget);

  GTK_WIDGET_CLASS (hr_fit_view_parent_class)->map (widget);
  if (self->dirty || self->state == NULL)
    schedule_update (self);
}

static void
hr_fit_view_dispose (GObject *object)
{
  HrFitView *self = HR_FIT_VIEW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->settings != NULL)
    {
      g_settings_unbind (self->context_row, "selected");
      g_settings_unbind (self->speed_row, "selected");
      g_settings_unbind (self->use_case_row, "selected");
      g_settings_unbind (self->sort_row, "selected");
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_FIT_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_fit_view_parent_class)->dispose (object);
}

static void
hr_fit_view_finalize (GObject *object)
{
  HrFitView *self = HR_FIT_VIEW (object);

  g_clear_pointer (&self->state, hr_fit_state_free);
  G_OBJECT_CLASS (hr_fit_view_parent_class)->finalize (object);
}

static void
hr_fit_view_class_init (HrFitViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_fit_view_dispose;
  object_class->finalize = hr_fit_view_finalize;
  widget_class->map = hr_fit_view_map;

  g_type_ensure (HR_TYPE_CHART_WIDGET);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-fit-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrFitView, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, context_row);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, speed_row);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, use_case_row);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, sort_row);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, chart);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, fits_group);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, fits_list);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, out_group);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, out_list);
  gtk_widget_class_bind_template_child (widget_class, HrFitView, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_fit_view_init (HrFitView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  hr_fit_needs_init (&self->needs);
  fill_filters (self);
  bind_filters (self);
  needs_from_filters (self);
  g_signal_connect_object (self->context_row, "notify::selected", G_CALLBACK (filter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->speed_row, "notify::selected", G_CALLBACK (filter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->use_case_row, "notify::selected", G_CALLBACK (filter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sort_row, "notify::selected", G_CALLBACK (filter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  self->dirty = TRUE;
}

GtkWidget *
hr_fit_view_new (HrSession *session)
{
  HrFitView *self;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_FIT_VIEW, NULL);
  self->session = g_object_ref (session);
  hr_session_watch (session, self, G_CALLBACK (scenario_changed_cb), G_CALLBACK (scenario_changed_cb));
  schedule_update (self);
  return GTK_WIDGET (self);
}

const HrFitState *
hr_fit_view_get_state (HrFitView *self)
{
  g_return_val_if_fail (HR_IS_FIT_VIEW (self), NULL);

  if (self->dirty || self->state == NULL)
    update (self);
  return self->state;
}

HrChartWidget *
hr_fit_view_get_chart (HrFitView *self)
{
  g_return_val_if_fail (HR_IS_FIT_VIEW (self), NULL);
  return self->chart;
}

GtkListBox *
hr_fit_view_get_list (HrFitView *self)
{
  g_return_val_if_fail (HR_IS_FIT_VIEW (self), NULL);
  return self->fits_list;
}

void
hr_fit_view_set_needs (HrFitView *self,
                       gint64     min_context,
                       double     min_tps,
                       HrUseCase  use_case)
{
  g_return_if_fail (HR_IS_FIT_VIEW (self));

  for (guint i = 0; hr_fit_context_choices[i] > 0; i++)
    if (hr_fit_context_choices[i] == min_context)
      adw_combo_row_set_selected (self->context_row, i);
  for (guint i = 0; hr_fit_speed_choices[i] >= 0; i++)
    if (hr_fit_speed_choices[i] == min_tps)
      adw_combo_row_set_selected (self->speed_row, i);
  adw_combo_row_set_selected (self->use_case_row, use_case);
  filter_changed_cb (self);
  update (self);
}
