/* hr-compare-view.c — the Compare view: GPUs side by side for the session's scenario
 *
 * One scenario in the whole application: the model, quant, context, batch, KV cache, engine
 * and offload are the session's (its "scenario-changed" signal), and this view's model picker
 * is bound to the session's "model", as the Size view's is — choosing one here chooses it
 * everywhere.  What this
 * view adds is the list of GPUs (2–8 picked from a searchable list, or a preset), each × N.
 *
 * A recomputation (hr_compare_state_compute(): per GPU one estimate, the longest context and
 * the best quant by bisection, the cheapest fitting offer — about a millisecond for eight)
 * runs in an idle before the next frame, and only while the view is on screen: a scenario
 * changed elsewhere is recomputed when the view is shown again.
 */
#include "hr-compare-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-chart-data.h"
#include "hr-export-dialog.h"
#include "hr-picker-items.h"
#include "hr-table-cells.h"
#include "hr-toast.h"
#include "hr-units.h"
#include "hr-view-actions.h"

G_DEFINE_FINAL_TYPE (HrCompareView, hr_compare_view, GTK_TYPE_WIDGET)

static void schedule_recompute (HrCompareView *self);

/* Small helpers -------------------------------------------------------------------------- */

static GPtrArray *
entries_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);
}

static HrCompareEntry *
find_entry (HrCompareView *self,
            const char    *id,
            guint         *index)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      HrCompareEntry *e = g_ptr_array_index (self->entries, i);
      if (g_strcmp0 (e->gpu_id, id) == 0)
        {
          if (index != NULL)
            *index = i;
          return e;
        }
    }
  return NULL;
}

#define MIN_COLUMN_CHARS 13
#define MAX_COLUMN_CHARS 22
#define PAGE_MARGINS     (2 * 18 + 2)  /* the page's margins and the card's border */
#define METRIC_COLUMN    140           /* the row names */
#define CELL_PADDING     16

static int
column_chars_for (HrCompareView *self,
                  int            width)
{
  guint n = MAX (self->state ? self->state->columns->len : 0, 1);
  int per = (width - PAGE_MARGINS - METRIC_COLUMN) / (int) n - CELL_PADDING;

  /* GTK counts about 9 px a character in the table's font; 10 to be safe */
  return CLAMP (per / 10, MIN_COLUMN_CHARS, MAX_COLUMN_CHARS);
}

/* The GPU list of the "Add GPUs" popover --------------------------------------------------- */

static gboolean
add_filter_func (GtkListBoxRow *row,
                 gpointer       user_data)
{
  HrCompareView *self = user_data;
  HrPickerItem *item = g_object_get_data (G_OBJECT (row), "item");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->add_search));
  g_autofree char *folded = g_utf8_casefold (text ? text : "", -1);
  g_auto(GStrv) words = g_strsplit_set (g_strstrip (folded), " \t", -1);

  if (item == NULL || words[0] == NULL || words[0][0] == '\0')
    return TRUE;
  return hr_picker_item_matches (item, (const char * const *) words);
}

static void
add_header_func (GtkListBoxRow *row,
                 GtkListBoxRow *before,
                 gpointer       user_data)
{
  HrPickerItem *item = g_object_get_data (G_OBJECT (row), "item");
  HrPickerItem *prev = before ? g_object_get_data (G_OBJECT (before), "item") : NULL;
  const char *group = item ? hr_picker_item_get_group (item) : NULL;
  GtkWidget *header;

  if (prev != NULL && g_strcmp0 (hr_picker_item_get_group (prev), group) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  header = gtk_label_new (group);
  gtk_label_set_xalign (GTK_LABEL (header), 0);
  gtk_widget_add_css_class (header, "heading");
  gtk_widget_add_css_class (header, "compare-add-header");
  gtk_list_box_row_set_header (row, header);
}

static void
update_add_list (HrCompareView *self)
{
  guint picked = self->entries->len;
  gboolean full = picked >= HR_COMPARE_MAX_PICKED;
  g_autofree char *hint = NULL;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->add_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      HrPickerItem *item = g_object_get_data (G_OBJECT (row), "item");
      GtkWidget *check = g_object_get_data (G_OBJECT (row), "check");
      gboolean in = item != NULL && find_entry (self, hr_picker_item_get_id (item), NULL) != NULL;

      if (check == NULL)
        continue;
      gtk_widget_set_visible (check, in);
      /* at the limit only removing is possible */
      gtk_widget_set_sensitive (row, in || !full);
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_CHECKED,
                                   in ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
    }

  if (full)
    hint = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU compared, the most one by one. Click one to remove it.",
                                         "%u GPUs compared, the most one by one. Click one to remove it.", picked),
                            picked);
  else
    hint = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU compared. Click a GPU to add or remove it (2 to %d).",
                                         "%u GPUs compared. Click a GPU to add or remove it (2 to %d).", picked),
                            picked, HR_COMPARE_MAX_PICKED);
  gtk_label_set_label (self->add_hint, hint);
}

static void
fill_add_list (HrCompareView *self)
{
  g_autoptr(GPtrArray) items = hr_picker_items_gpus (self->catalog);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->add_list))) != NULL)
    gtk_list_box_remove (self->add_list, child);

  for (guint i = 0; i < items->len; i++)
    {
      HrPickerItem *item = g_ptr_array_index (items, i);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = hr_picker_row_new (hr_picker_item_get_title (item), hr_picker_item_get_subtitle (item),
                                          _("Compared"));
      GtkWidget *check = hr_picker_row_get_check (box);

      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      hr_picker_item_get_title (item), -1);
      g_object_set_data_full (G_OBJECT (row), "item", g_object_ref (item), g_object_unref);
      g_object_set_data (G_OBJECT (row), "check", check);
      gtk_list_box_append (self->add_list, row);
    }
  update_add_list (self);
}

/* Presets menu ----------------------------------------------------------------------------- */

static void
fill_presets_menu (HrCompareView *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) sets = g_menu_new ();
  g_autoptr(GMenu) vendors = g_menu_new ();
  g_autoptr(GMenu) other = g_menu_new ();
  g_autoptr(GPtrArray) names = hr_compare_vendors (self->catalog);

  g_menu_append (sets, _("Every GPU That _Fits"), "compare.preset::fits");
  g_menu_append (sets, _("_My GPUs"), "compare.preset::mine");
  for (guint i = 0; i < names->len; i++)
    {
      const char *vendor = g_ptr_array_index (names, i);
      g_autofree char *action = g_strdup_printf ("compare.preset::vendor:%s", vendor);
      g_autoptr(GMenuItem) item = g_menu_item_new (vendor, NULL);

      /* a vendor name may hold anything: set the target as a value, not parsed */
      g_menu_item_set_action_and_target_value (item, "compare.preset",
                                               g_variant_new_take_string (g_strdup_printf ("vendor:%s", vendor)));
      g_menu_append_item (vendors, item);
    }
  g_menu_append_submenu (sets, _("Every GPU of a _Vendor"), G_MENU_MODEL (vendors));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (sets));
  g_menu_append (other, _("_Starting Set"), "compare.preset::default");
  /* the Size view's devices as one column, mixed GPUs too (#31) */
  g_menu_append (other, _("The Size View’s _Setup"), "compare.preset::setup");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (other));
  gtk_menu_button_set_menu_model (self->presets_button, G_MENU_MODEL (menu));
}

/* Catalog and scenario ------------------------------------------------------------------------ */

/* A GPU the catalog knows, or a mixed setup of such GPUs (#31: "ID:N+ID:N") */
static gboolean
entry_known (HrCompareView *self,
             const char    *id)
{
  HrDeviceKind kinds[HR_MAX_DEVICE_KINDS];

  if (self->catalog == NULL || id == NULL)
    return FALSE;
  if (strchr (id, '+') != NULL)
    return hr_compare_setup_parse (id, self->catalog, kinds, HR_MAX_DEVICE_KINDS) > 1;
  return hr_catalog_find_gpu (self->catalog, id) != NULL;
}

/* A model or GPU was added or removed (the session's "catalog-changed"). */
static void
catalog_refresh (HrCompareView *self)
{
  g_autoptr(GPtrArray) models = hr_picker_items_models (self->catalog);

  /* a GPU of the user's own that was deleted leaves the comparison */
  for (guint i = 0; i < self->entries->len;)
    {
      const HrCompareEntry *e = g_ptr_array_index (self->entries, i);

      if (!entry_known (self, e->gpu_id))
        g_ptr_array_remove_index (self->entries, i);
      else
        i++;
    }
  /* the picker's list in between never reaches the session */
  g_clear_pointer (&self->model_binding, g_binding_unbind);
  hr_picker_set_items (self->model_picker, models);
  self->model_binding = g_object_bind_property (self->session, "model", self->model_picker, "selected-id",
                                                G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  fill_add_list (self);
  fill_presets_menu (self);
}

static void
scenario_changed_cb (HrCompareView *self)
{
  const HrScenario *s = hr_session_get_scenario (self->session);

  if (s == NULL)
    return;
  self->scenario = *s;
  self->have_scenario = TRUE;

  if (!self->entries_set)
    {
      g_autoptr(GPtrArray) start = hr_compare_default_entries (self->catalog, s->gpu->id, s->n_gpus);

      g_ptr_array_extend_and_steal (self->entries, g_steal_pointer (&start));
      self->entries_set = TRUE;
      update_add_list (self);
    }

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    schedule_recompute (self);
  else
    self->dirty = TRUE;
}

/* Recompute ---------------------------------------------------------------------------------- */

static void
update_chart (HrCompareView *self)
{
  g_autofree HrChartCompare *data = g_new0 (HrChartCompare, 1);
  guint n = 0;

  hr_chart_compare_init (data, &self->scenario);
  /* the table's order: the chart and the table read the same way */
  data->sort = HR_CHART_SORT_NONE;
  for (guint i = 0; i < self->state->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (self->state->columns, i);

      if (hr_chart_compare_add (data, &col->row.scenario, col->ok ? &col->row.estimate : NULL))
        n++;
    }
  /* a row per GPU: the chart grows with them */
  gtk_widget_set_size_request (GTK_WIDGET (self->chart), -1, MAX (240, 120 + 34 * (int) n));
  hr_chart_widget_set_data (self->chart, HR_CHART_COMPARE, data);
  {
    g_autofree char *desc = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "Comparison chart of %u GPU: memory, decode speed and cost per token",
                                                          "Comparison chart of %u GPUs: memory, decode speed and cost per token", n),
                                             n);
    hr_chart_widget_set_description (self->chart, desc);
  }
}

static void
update_labels (HrCompareView *self)
{
  const HrCompareState *st = self->state;
  guint n = st->columns->len;
  g_autofree char *caption = NULL;
  const char *status = NULL;

  gtk_label_set_label (self->scenario_label, st->subtitle);

  if (n < HR_COMPARE_MIN_PICKED)
    status = _("Add at least two GPUs to compare them: “Add GPUs” above, or a whole set from “Choose”.");
  else if (st->n_fitting == 0)
    status = _("The scenario fits none of these GPUs. Use more of them (× N in each column), a smaller quantization or a shorter context.");
  gtk_label_set_label (self->status_label, status ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);

  caption = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u of %u GPU fits. Each row’s best value is marked, the others show how far they are from it. Click a row’s name to sort by it.",
                                          "%u of %u GPUs fit. Each row’s best value is marked, the others show how far they are from it. Click a row’s name to sort by it.",
                                          n),
                             st->n_fitting, n);
  gtk_label_set_label (self->table_caption, caption);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-table", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", n > 0);
}

static gboolean
recompute_cb (gpointer user_data)
{
  HrCompareView *self = user_data;
  gint64 start = g_get_monotonic_time ();

  self->recompute_id = 0;
  self->dirty = FALSE;
  if (!self->have_scenario || self->catalog == NULL)
    return G_SOURCE_REMOVE;

  hr_compare_state_compute (self->state, &self->scenario, self->entries, self->catalog,
                            hr_catalog_get_pricing (self->catalog));
  hr_compare_view_table_apply (self);
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    hr_compare_view_table_set_chars (self, column_chars_for (self, gtk_widget_get_width (GTK_WIDGET (self))));
  update_chart (self);
  update_labels (self);
  self->n_recomputes++;
  g_debug ("compare: %u GPUs in %" G_GINT64_FORMAT " µs", self->state->columns->len,
           g_get_monotonic_time () - start);
  return G_SOURCE_REMOVE;
}

static void
schedule_recompute (HrCompareView *self)
{
  if (self->recompute_id != 0)
    return;
  /* above GDK_PRIORITY_REDRAW: the next frame shows the new numbers */
  self->recompute_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute_cb, self, NULL);
}

/* The GPUs chosen, as the "compare-gpus" key: the next start compares them again. */
static void
save_entries (HrCompareView *self)
{
  GVariantBuilder builder;

  if (self->settings == NULL)
    return;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(si)"));
  for (guint i = 0; i < self->entries->len; i++)
    {
      const HrCompareEntry *e = g_ptr_array_index (self->entries, i);

      g_variant_builder_add (&builder, "(si)", e->gpu_id, e->count);
    }
  g_settings_set_value (self->settings, "compare-gpus", g_variant_builder_end (&builder));
}

/* The GPUs of the last run, those the catalog still has; none kept: the starting set. */
static void
load_entries (HrCompareView *self)
{
  g_autoptr(GVariant) saved = g_settings_get_value (self->settings, "compare-gpus");
  GVariantIter iter;
  const char *id;
  int count;

  g_variant_iter_init (&iter, saved);
  while (g_variant_iter_next (&iter, "(&si)", &id, &count))
    {
      const HrGpu *gpu = hr_catalog_find_gpu (self->catalog, id);

      if (gpu == NULL || find_entry (self, id, NULL) != NULL || self->entries->len >= HR_COMPARE_MAX_COLUMNS)
        continue;
      g_ptr_array_add (self->entries,
                       hr_compare_entry_new (id, hr_gpu_is_unified (gpu) ? 1 : CLAMP (count, 1, HR_COMPARE_MAX_COUNT)));
    }
  self->entries_set = self->entries->len > 0;
}

static void
entries_changed (HrCompareView *self)
{
  self->entries_set = TRUE;
  save_entries (self);
  update_add_list (self);
  schedule_recompute (self);
}

/* Export ------------------------------------------------------------------------------------- */

static void
export (HrCompareView *self,
        HrExportKind   kind,
        const char    *format)
{
  HrExportRequest request = {
    kind, format,
    kind == HR_EXPORT_TABLE ? (HrExportWriteFunc) hr_compare_view_export_table
                            : (HrExportWriteFunc) hr_compare_view_export_chart,
    self,
  };
  g_autofree char *model = NULL;
  g_autofree char *name = NULL;

  if (self->state == NULL || self->state->columns->len == 0)
    return;
  model = hr_slugify (self->have_scenario ? self->scenario.model->id : NULL, 60, "model");
  name = g_strconcat (model, "-compare", NULL);
  hr_export_dialog_show (GTK_WIDGET (self), &request, name);
}

/* Callbacks ------------------------------------------------------------------------------------ */

static void
open_size_view_cb (HrCompareView *self)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_VIEW_STACK);

  if (stack != NULL)
    adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "size");
}

static void
add_popover_show_cb (HrCompareView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->add_search), "");
  gtk_list_box_invalidate_filter (self->add_list);
  update_add_list (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->add_search));
}

static void
add_search_changed_cb (HrCompareView *self)
{
  gtk_list_box_invalidate_filter (self->add_list);
}

static void
toggle_gpu (HrCompareView *self,
            const char    *id)
{
  if (find_entry (self, id, NULL) != NULL)
    hr_compare_view_remove_gpu (self, id);
  else if (!hr_compare_view_add_gpu (self, id, self->have_scenario ? self->scenario.n_gpus : 1))
    hr_toast_show_text (GTK_WIDGET (self), _("Eight GPUs at most: remove one first"), HR_TOAST_INFO);
}

static void
add_search_activate_cb (HrCompareView *self)
{
  /* Enter takes the first match */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->add_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      HrPickerItem *item = g_object_get_data (G_OBJECT (row), "item");

      if (item != NULL && gtk_widget_get_child_visible (row) && add_filter_func (GTK_LIST_BOX_ROW (row), self))
        {
          toggle_gpu (self, hr_picker_item_get_id (item));
          return;
        }
    }
}

static void
add_stop_search_cb (HrCompareView *self)
{
  gtk_popover_popdown (self->add_popover);
}

static void
add_row_activated_cb (HrCompareView *self,
                      GtkListBoxRow *row)
{
  HrPickerItem *item = g_object_get_data (G_OBJECT (row), "item");

  if (item != NULL)
    toggle_gpu (self, hr_picker_item_get_id (item));
}

static void
map_cb (HrCompareView *self)
{
  if (self->dirty)
    schedule_recompute (self);
}

/* Actions ------------------------------------------------------------------------------------ */

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  export (HR_COMPARE_VIEW (widget), HR_EXPORT_CHART, hr_export_target_format (parameter));
}

static void
export_table_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  export (HR_COMPARE_VIEW (widget), HR_EXPORT_TABLE, NULL);
}

static char *
comparison_json (GtkWidget *widget)
{
  HrCompareView *self = HR_COMPARE_VIEW (widget);

  if (self->state == NULL || self->state->columns->len == 0)
    return NULL;
  return hr_compare_state_json (self->state);
}

static void
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrCompareView *self = HR_COMPARE_VIEW (widget);
  const char *which = g_variant_get_string (parameter, NULL);

  if (g_str_equal (which, "fits"))
    hr_compare_view_apply_preset (self, HR_COMPARE_PRESET_FITS, NULL);
  else if (g_str_equal (which, "mine"))
    hr_compare_view_apply_preset (self, HR_COMPARE_PRESET_MINE, NULL);
  else if (g_str_has_prefix (which, "vendor:"))
    hr_compare_view_apply_preset (self, HR_COMPARE_PRESET_VENDOR, which + strlen ("vendor:"));
  else if (g_str_equal (which, "setup") && self->have_scenario)
    {
      g_autofree char *spec = hr_compare_setup_spec (&self->scenario);

      hr_compare_view_add_gpu (self, spec != NULL ? spec : self->scenario.gpu->id, self->scenario.n_gpus);
    }
  else if (g_str_equal (which, "default") && self->catalog != NULL)
    {
      g_autoptr(GPtrArray) start = hr_compare_default_entries (self->catalog,
                                                               self->have_scenario ? self->scenario.gpu->id : NULL,
                                                               self->have_scenario ? self->scenario.n_gpus : 1);
      hr_compare_view_set_entries (self, start);
    }
}

/* GtkWidget ---------------------------------------------------------------------------------- */

static gboolean
apply_chars_cb (gpointer user_data)
{
  HrCompareView *self = user_data;

  self->chars_idle_id = 0;
  hr_compare_view_table_set_chars (self, column_chars_for (self, gtk_widget_get_width (GTK_WIDGET (self))));
  return G_SOURCE_REMOVE;
}

/* No layout manager: GTK would not call size_allocate() with one, and the view needs to know
 * its width; it lays out its one child (the template's box) itself. */
static GtkSizeRequestMode
hr_compare_view_get_request_mode (GtkWidget *widget)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  return child ? gtk_widget_get_request_mode (child) : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
hr_compare_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  HrCompareView *self = HR_COMPARE_VIEW (widget);
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);
  /* wider columns when the window is wider; changed after this allocation, not during it */
  if (column_chars_for (self, width) != self->table_chars && self->chars_idle_id == 0)
    self->chars_idle_id = g_idle_add (apply_chars_cb, self);
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_compare_view_dispose (GObject *object)
{
  HrCompareView *self = HR_COMPARE_VIEW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->recompute_id, g_source_remove);
  g_clear_handle_id (&self->chars_idle_id, g_source_remove);
  g_clear_pointer (&self->model_binding, g_binding_unbind);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_COMPARE_VIEW);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  hr_compare_view_table_clear (self);

  G_OBJECT_CLASS (hr_compare_view_parent_class)->dispose (object);
}

static void
hr_compare_view_finalize (GObject *object)
{
  HrCompareView *self = HR_COMPARE_VIEW (object);

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->state, hr_compare_state_free);

  G_OBJECT_CLASS (hr_compare_view_parent_class)->finalize (object);
}

static void
hr_compare_view_class_init (HrCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_compare_view_dispose;
  object_class->finalize = hr_compare_view_finalize;
  widget_class->size_allocate = hr_compare_view_size_allocate;
  widget_class->measure = hr_table_view_measure;
  widget_class->get_request_mode = hr_compare_view_get_request_mode;

  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CHART_WIDGET);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, scenario_label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, add_button);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, add_popover);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, add_search);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, add_list);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, add_hint);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, presets_button);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, chart);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, table_caption);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, table);
  gtk_widget_class_bind_template_callback (widget_class, open_size_view_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_row_activated_cb);

  /* "view." actions: the window forwards Ctrl+F, Ctrl+G, Ctrl+E and Ctrl+Shift+C here */
  hr_view_class_install_find (widget_class, G_STRUCT_OFFSET (HrCompareView, model_picker), G_STRUCT_OFFSET (HrCompareView, add_button));
  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);
  hr_view_class_install_copy_json (widget_class, comparison_json, N_("Comparison copied as JSON"));
  gtk_widget_class_install_action (widget_class, "compare.export-table", NULL, export_table_action);
  gtk_widget_class_install_action (widget_class, "compare.preset", "s", preset_action);

}

static void
hr_compare_view_init (HrCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->entries = entries_new ();
  self->state = hr_compare_state_new ();
  self->table_chars = MIN_COLUMN_CHARS;
  hr_picker_set_placeholder (self->model_picker, _("Search models by name, family or vendor"));
  gtk_list_box_set_filter_func (self->add_list, add_filter_func, self, NULL);
  gtk_list_box_set_header_func (self->add_list, add_header_func, self, NULL);
  hr_compare_view_table_init (self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-table", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", FALSE);
}

/* Public API ------------------------------------------------------------------------------------ */

GtkWidget *
hr_compare_view_new (HrSession *session)
{
  HrCompareView *self;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_COMPARE_VIEW, NULL);
  self->session = g_object_ref (session);
  self->catalog = hr_session_get_catalog (session);
  self->settings = g_settings_new (APP_ID);
  load_entries (self);
  catalog_refresh (self);
  /* prices change the cheapest offers */
  hr_session_watch (session, self, G_CALLBACK (scenario_changed_cb), G_CALLBACK (catalog_refresh));
  scenario_changed_cb (self);
  return GTK_WIDGET (self);
}

GPtrArray *
hr_compare_view_get_entries (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->entries;
}

void
hr_compare_view_set_entries (HrCompareView *self,
                             GPtrArray     *entries)
{
  g_return_if_fail (HR_IS_COMPARE_VIEW (self));
  g_return_if_fail (entries != NULL);

  g_ptr_array_set_size (self->entries, 0);
  for (guint i = 0; i < entries->len && self->entries->len < HR_COMPARE_MAX_COLUMNS; i++)
    {
      const HrCompareEntry *e = g_ptr_array_index (entries, i);

      if (find_entry (self, e->gpu_id, NULL) == NULL)
        g_ptr_array_add (self->entries, hr_compare_entry_new (e->gpu_id, e->count));
    }
  entries_changed (self);
}

gboolean
hr_compare_view_add_gpu (HrCompareView *self,
                         const char    *id,
                         int            count)
{
  const HrGpu *gpu;

  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (strchr (id, '+') != NULL)
    {
      /* a mixed setup (#31): its counts are in its spec */
      if (!entry_known (self, id) || find_entry (self, id, NULL) != NULL
          || self->entries->len >= HR_COMPARE_MAX_PICKED)
        return FALSE;
      g_ptr_array_add (self->entries, hr_compare_entry_new (id, 1));
      entries_changed (self);
      return TRUE;
    }
  gpu = self->catalog ? hr_catalog_find_gpu (self->catalog, id) : NULL;
  if (gpu == NULL || find_entry (self, id, NULL) != NULL || self->entries->len >= HR_COMPARE_MAX_PICKED)
    return FALSE;
  g_ptr_array_add (self->entries, hr_compare_entry_new (id, hr_gpu_is_unified (gpu) ? 1 : count));
  entries_changed (self);
  return TRUE;
}

gboolean
hr_compare_view_remove_gpu (HrCompareView *self,
                            const char    *id)
{
  guint index;

  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);

  if (find_entry (self, id, &index) == NULL)
    return FALSE;
  g_ptr_array_remove_index (self->entries, index);
  entries_changed (self);
  return TRUE;
}

gboolean
hr_compare_view_set_count (HrCompareView *self,
                           const char    *id,
                           int            count)
{
  HrCompareEntry *e;

  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);

  e = find_entry (self, id, NULL);
  if (e == NULL || count < 1 || count > HR_COMPARE_MAX_COUNT)
    return FALSE;
  if (e->count == count)
    return TRUE;
  e->count = count;
  entries_changed (self);
  return TRUE;
}

void
hr_compare_view_apply_preset (HrCompareView   *self,
                              HrComparePreset  preset,
                              const char      *vendor)
{
  g_autoptr(GPtrArray) entries = NULL;

  g_return_if_fail (HR_IS_COMPARE_VIEW (self));

  if (self->catalog == NULL)
    return;
  entries = hr_compare_preset_entries (preset, vendor, self->have_scenario ? &self->scenario : NULL,
                                       self->catalog);
  if (entries->len == 0)
    {
      hr_toast_show_text (GTK_WIDGET (self),
                          preset == HR_COMPARE_PRESET_MINE ? _("You have no GPUs of your own yet")
                          : preset == HR_COMPARE_PRESET_FITS ? _("The scenario fits no GPU in the catalog")
                          : _("No GPU of that vendor"), HR_TOAST_INFO);
      return;
    }
  hr_compare_view_set_entries (self, entries);
}

void
hr_compare_view_sort (HrCompareView   *self,
                      HrCompareMetric  metric,
                      gboolean         reversed)
{
  g_return_if_fail (HR_IS_COMPARE_VIEW (self));

  hr_compare_state_sort (self->state, metric, reversed);
  if (self->recompute_id != 0)
    return;
  hr_compare_view_table_apply (self);
  if (self->have_scenario)
    update_chart (self);
}

const HrCompareState *
hr_compare_view_get_state (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->n_recomputes > 0 ? self->state : NULL;
}

HrChartWidget *
hr_compare_view_get_chart (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->chart;
}

HrPicker *
hr_compare_view_get_model_picker (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->model_picker;
}

const char *
hr_compare_view_get_cell_text (HrCompareView   *self,
                               guint            column,
                               HrCompareMetric  metric)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return hr_compare_view_table_text (self, column, metric, FALSE);
}

const char *
hr_compare_view_get_diff_text (HrCompareView   *self,
                               guint            column,
                               HrCompareMetric  metric)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return hr_compare_view_table_text (self, column, metric, TRUE);
}

const char *
hr_compare_view_get_column_title (HrCompareView *self,
                                  guint          column)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return hr_compare_view_table_text (self, column, HR_COMPARE_N_METRICS, FALSE);
}

guint
hr_compare_view_get_n_columns (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), 0);
  return self->column_widgets ? self->column_widgets->len : 0;
}

gboolean
hr_compare_view_is_busy (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);
  return self->recompute_id != 0 || self->dirty;
}

gboolean
hr_compare_view_export_table (HrCompareView  *self,
                              const char     *path,
                              GError        **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  csv = hr_compare_state_csv (self->state);
  /* g_file_set_contents() writes a temporary file and renames it: never half a file */
  return g_file_set_contents (path, csv, -1, error);
}

gboolean
hr_compare_view_export_chart (HrCompareView  *self,
                              const char     *path,
                              GError        **error)
{
  const HrChartCompare *data;

  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = hr_chart_widget_get_data (self->chart);
  return hr_chart_widget_export (self->chart, path, 1200,
                                 MAX (480, 150 + 40 * (data ? data->n_items : 0)), 2.0, error);
}
