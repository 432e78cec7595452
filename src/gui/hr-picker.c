/* hr-picker.c — a button that opens a searchable, grouped list
 *
 * GTK 4.8 has no list sections, so the group headings are items of their own: a heading
 * stays visible while any entry of its group matches the query.
 */
#include "hr-picker.h"

#include <glib/gi18n-lib.h>

#include "hr-hub-search.h"
#include "hr-picker-items.h"

struct _HrPicker
{
  GtkWidget parent_instance;

  /* template */
  GtkMenuButton *button;
  GtkPopover *popover;
  GtkSearchEntry *search_entry;
  GtkListView *list_view;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkLabel *empty_label;
  GtkScrolledWindow *scroller;
  GtkWidget *footer_separator;
  GtkWidget *footer;
  GtkMenuButton *add_menu_button;
  GtkButton *add_button;
  GtkButton *manage_button;

  GListStore *store;           /* HrPickerItem, headings included; then the extras */
  guint n_base;                /* the store's items before the extras */
  char *extra_group;           /* the extras' group, NULL when there are none */
  GtkFilterListModel *filtered;
  GtkCustomFilter *filter;
  char **words;                /* case-folded query */
  GHashTable *matched_groups;  /* groups with at least one match */

  HrPickerItem *selected;
  char *title;
  guint scroll_id;
  gboolean compact;            /* at the end of a row: the choice's title alone */
  HrHubSearch *hub_search;     /* "search-hub": the Hugging Face Hub answers the query too */
};

enum
{
  PROP_0,
  PROP_SELECTED_ID,
  PROP_TITLE,
  PROP_SEARCH_HUB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PICKED,
  SIGNAL_EXTRA_PICKED,
  SIGNAL_QUERY_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HrPicker, hr_picker, GTK_TYPE_WIDGET)

static gboolean
query_empty (HrPicker *self)
{
  return self->words == NULL || self->words[0] == NULL;
}

static gboolean
is_extra (HrPicker     *self,
          HrPickerItem *it)
{
  return self->extra_group != NULL && g_strcmp0 (hr_picker_item_get_group (it), self->extra_group) == 0;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  HrPicker *self = user_data;
  HrPickerItem *it = item;

  if (is_extra (self, it))
    return !query_empty (self);
  if (query_empty (self))
    return TRUE;
  if (hr_picker_item_is_header (it))
    return g_hash_table_contains (self->matched_groups, hr_picker_item_get_group (it));
  return hr_picker_item_matches (it, (const char * const *) self->words);
}

static guint
count_matches (HrPicker *self)
{
  GListModel *model = G_LIST_MODEL (self->filtered);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (model, i);
      if (!hr_picker_item_is_header (it))
        n++;
    }
  return n;
}

static guint
apply_query (HrPicker   *self,
             const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text ? text : "", -1);
  GListModel *model = G_LIST_MODEL (self->store);
  guint n;

  g_clear_pointer (&self->words, g_strfreev);
  self->words = g_strsplit_set (g_strstrip (folded), " \t", -1);
  if (self->words[0] != NULL && self->words[0][0] == '\0' && self->words[1] == NULL)
    g_clear_pointer (&self->words, g_strfreev);

  g_hash_table_remove_all (self->matched_groups);
  if (!query_empty (self))
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(HrPickerItem) it = g_list_model_get_item (model, i);
        if (hr_picker_item_matches (it, (const char * const *) self->words))
          g_hash_table_add (self->matched_groups, g_strdup (hr_picker_item_get_group (it)));
      }
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);

  n = count_matches (self);
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), n == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->scroller), n > 0);
  return n;
}

static void
update_button (HrPicker *self)
{
  g_autofree char *a11y = NULL;
  const char *title = self->selected ? hr_picker_item_get_title (self->selected) : _("None");
  const char *subtitle = self->selected ? hr_picker_item_get_subtitle (self->selected) : "";
  GtkWidget *toggle = gtk_widget_get_first_child (GTK_WIDGET (self->button));

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), !self->compact && subtitle[0] != '\0');

  /* TRANSLATORS: accessible name of a picker: "<what>: <current choice>", e.g. "Model: GLM-4.5-Air" */
  a11y = g_strdup_printf (_("%s: %s"), self->title ? self->title : "", title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, a11y,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle,
                                  -1);
  if (toggle != NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, a11y,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle,
                                      -1);
      /* GtkMenuButton (4.8) also labels and describes its toggle by itself: a screen reader
       * read "Model: X Model: X" */
      gtk_accessible_reset_relation (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
      gtk_accessible_reset_relation (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY);
    }
}

static gboolean
find_item (HrPicker     *self,
           const char   *id,
           HrPickerItem *item,
           guint        *position)
{
  GListModel *model = G_LIST_MODEL (self->store);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (model, i);
      if (hr_picker_item_is_header (it))
        continue;
      if ((item != NULL && it == item) || (id != NULL && g_strcmp0 (hr_picker_item_get_id (it), id) == 0))
        {
          *position = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* Rebinds the rows of the previous and the new choice so their check marks move. */
static void
refresh_item (HrPicker     *self,
              HrPickerItem *item)
{
  guint pos;

  if (item != NULL && find_item (self, NULL, item, &pos))
    g_list_model_items_changed (G_LIST_MODEL (self->store), pos, 1, 1);
}

static void
select_item (HrPicker     *self,
             HrPickerItem *item)
{
  g_autoptr(HrPickerItem) old = NULL;

  if (item == self->selected)
    return;
  old = g_steal_pointer (&self->selected);
  self->selected = item ? g_object_ref (item) : NULL;
  refresh_item (self, old);
  refresh_item (self, self->selected);
  update_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ID]);
}

static void
activate_position (HrPicker *self,
                   guint     position)
{
  g_autoptr(HrPickerItem) it = g_list_model_get_item (G_LIST_MODEL (self->filtered), position);

  if (it == NULL || hr_picker_item_is_header (it))
    return;
  gtk_popover_popdown (self->popover);
  if (is_extra (self, it))
    {
      const char *id = hr_picker_item_get_id (it);

      g_signal_emit (self, signals[SIGNAL_EXTRA_PICKED], 0, id);
      /* a Hub repository: sized and added like an imported model (hr-import-hub.c) */
      if (self->hub_search != NULL && g_str_has_prefix (id, "hf:"))
        gtk_widget_activate_action (GTK_WIDGET (self), "import.hub-repo", "s", id + 3);
      return;
    }
  if (it != self->selected)
    g_signal_emit (self, signals[SIGNAL_PICKED], 0, hr_picker_item_get_id (it));
  select_item (self, it);
}

/* Row factory ------------------------------------------------------------------------------ */

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  gtk_list_item_set_child (list_item, hr_picker_row_new (NULL, NULL, _("Current choice")));
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  HrPicker *self = user_data;
  HrPickerItem *it = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *title = hr_picker_row_get_title (box);
  GtkWidget *subtitle = gtk_widget_get_next_sibling (title);
  GtkWidget *check = hr_picker_row_get_check (box);
  gboolean header = hr_picker_item_is_header (it);

  gtk_label_set_label (GTK_LABEL (title), hr_picker_item_get_title (it));
  gtk_label_set_label (GTK_LABEL (subtitle), hr_picker_item_get_subtitle (it));
  gtk_widget_set_visible (subtitle, hr_picker_item_get_subtitle (it)[0] != '\0');
  gtk_widget_set_visible (check, !header && it == self->selected);
  if (header)
    {
      gtk_widget_add_css_class (title, "heading");
      gtk_widget_add_css_class (box, "picker-header");
    }
  else
    {
      gtk_widget_remove_css_class (title, "heading");
      gtk_widget_remove_css_class (box, "picker-header");
    }
  gtk_list_item_set_activatable (list_item, !header);
  gtk_list_item_set_selectable (list_item, !header);
}

/* Callbacks -------------------------------------------------------------------------------- */

/* The Hub's answer to the query, under its own heading. */
static void
hub_changed_cb (HrPicker *self)
{
  g_autoptr(GPtrArray) items = hr_picker_items_hub (self->hub_search);

  hr_picker_set_extras (self, items);
}

static void
hub_query (HrPicker   *self,
           const char *text)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source != NULL
                                      ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;

  /* Preferences' hub address (HF_ENDPOINT still comes first) */
  if (schema != NULL)
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);
      g_autofree char *endpoint = g_settings_get_string (settings, "hub-endpoint");

      hr_hub_search_set_endpoint (self->hub_search, endpoint);
    }
  hr_hub_search_set_query (self->hub_search, text);
}

static void
search_changed_cb (HrPicker       *self,
                   GtkSearchEntry *entry)
{
  apply_query (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  if (self->hub_search != NULL)
    hub_query (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_signal_emit (self, signals[SIGNAL_QUERY_CHANGED], 0, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
search_activate_cb (HrPicker       *self,
                    GtkSearchEntry *entry)
{
  GListModel *model = G_LIST_MODEL (self->filtered);

  /* the search may not have run yet when Enter follows typing at once */
  apply_query (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (model, i);
      if (!hr_picker_item_is_header (it))
        {
          activate_position (self, i);
          return;
        }
    }
}

static void
stop_search_cb (HrPicker       *self,
                GtkSearchEntry *entry)
{
  gtk_popover_popdown (self->popover);
}

static gboolean
search_key_pressed_cb (HrPicker              *self,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       GtkEventControllerKey *controller)
{
  if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
    {
      gtk_widget_child_focus (GTK_WIDGET (self->list_view), GTK_DIR_TAB_FORWARD);
      return TRUE;
    }
  return FALSE;
}

static void
list_activate_cb (HrPicker    *self,
                  guint        position,
                  GtkListView *list_view)
{
  activate_position (self, position);
}

static void
footer_clicked_cb (HrPicker  *self,
                   GtkButton *button)
{
  /* the button's action opens a dialog: the list gets out of its way */
  gtk_popover_popdown (self->popover);
}

static gboolean
scroll_to_selected_cb (gpointer user_data)
{
  HrPicker *self = user_data;
  guint pos;

  self->scroll_id = 0;
  if (self->selected != NULL && find_item (self, NULL, self->selected, &pos))
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", pos);
  return G_SOURCE_REMOVE;
}

/* The list gets its entries when it is first shown: a list view makes rows for its model at
 * once, shown or not, and no one sees them before the popover opens (the window's first
 * frame has three pickers). */
static void
attach_list (HrPicker *self)
{
  GtkNoSelection *selection;

  if (gtk_list_view_get_model (self->list_view) != NULL)
    return;
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->filtered)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

/* The list is 400 px wide, less in a narrower window (a phone's 360 px), where the footer's
 * buttons are stacked: the popover must not need more than the window has (GDK shrinks a
 * popup to the screen down to its minimum, never below). */
#define LIST_WIDTH        400
#define LIST_WIDTH_MIN    240
#define POPOVER_FRAME     64    /* Adwaita's popover padding and shadow, both sides */

static void
fit_list_width (HrPicker *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  int avail = root != NULL ? gtk_widget_get_width (GTK_WIDGET (root)) : 0;
  int width = avail > 0 ? CLAMP (avail - POPOVER_FRAME, LIST_WIDTH_MIN, LIST_WIDTH) : LIST_WIDTH;
  gboolean narrow = width < LIST_WIDTH;

  gtk_widget_set_size_request (GTK_WIDGET (self->scroller), width, -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->footer),
                                  narrow ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
}

static void
popover_show_cb (HrPicker   *self,
                 GtkPopover *popover)
{
  fit_list_width (self);
  attach_list (self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  apply_query (self, "");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  /* the list has no size before the popover's first layout: scroll once it has one */
  g_clear_handle_id (&self->scroll_id, g_source_remove);
  self->scroll_id = g_timeout_add (30, scroll_to_selected_cb, self);
}

/* GObject ---------------------------------------------------------------------------------- */

static void
hr_picker_dispose (GObject *object)
{
  HrPicker *self = HR_PICKER (object);
  GtkWidget *child;

  g_clear_handle_id (&self->scroll_id, g_source_remove);
  if (self->hub_search != NULL)
    g_signal_handlers_disconnect_by_data (self->hub_search, self);
  g_clear_object (&self->hub_search);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_PICKER);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selected);
  g_clear_object (&self->filtered);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (hr_picker_parent_class)->dispose (object);
}

static void
hr_picker_finalize (GObject *object)
{
  HrPicker *self = HR_PICKER (object);

  g_clear_pointer (&self->words, g_strfreev);
  g_clear_pointer (&self->matched_groups, g_hash_table_unref);
  g_clear_pointer (&self->title, g_free);

  g_free (self->extra_group);
  G_OBJECT_CLASS (hr_picker_parent_class)->finalize (object);
}

static void
hr_picker_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  HrPicker *self = HR_PICKER (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ID:
      g_value_set_string (value, hr_picker_get_selected_id (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SEARCH_HUB:
      g_value_set_boolean (value, hr_picker_get_search_hub (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_picker_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  HrPicker *self = HR_PICKER (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ID:
      hr_picker_set_selected_id (self, g_value_get_string (value));
      break;
    case PROP_TITLE:
      hr_picker_set_title (self, g_value_get_string (value));
      break;
    case PROP_SEARCH_HUB:
      hr_picker_set_search_hub (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_picker_class_init (HrPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_picker_dispose;
  object_class->finalize = hr_picker_finalize;
  object_class->get_property = hr_picker_get_property;
  object_class->set_property = hr_picker_set_property;

  properties[PROP_SELECTED_ID] =
    g_param_spec_string ("selected-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* HrPicker:search-hub: the query also searches the Hugging Face Hub (a model picker) */
  properties[PROP_SEARCH_HUB] =
    g_param_spec_boolean ("search-hub", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* HrPicker::picked (id): the user chose another entry; emitted before it is the selection */
  signals[SIGNAL_PICKED] = g_signal_new ("picked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* HrPicker::extra-picked (id): an entry of hr_picker_set_extras () was activated */
  signals[SIGNAL_EXTRA_PICKED] = g_signal_new ("extra-picked", G_TYPE_FROM_CLASS (klass),
                                               G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                               G_TYPE_NONE, 1, G_TYPE_STRING);
  /* HrPicker::query-changed (text): the search text changed */
  signals[SIGNAL_QUERY_CHANGED] = g_signal_new ("query-changed", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, HrPicker, button);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, popover);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, list_view);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, empty_label);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, scroller);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, footer_separator);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, footer);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, add_menu_button);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, add_button);
  gtk_widget_class_bind_template_child (widget_class, HrPicker, manage_button);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, footer_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "picker");
}

static void
hr_picker_init (HrPicker *self)
{
  GtkListItemFactory *factory;
  GtkEventController *keys;
  GtkWidget *content, *wrapper;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* GtkMenuButton wraps its child in a box of its own that centres it; a picker reads like a
   * row, left-aligned with the arrow at the end */
  content = gtk_menu_button_get_child (self->button);
  wrapper = content ? gtk_widget_get_parent (content) : NULL;
  if (wrapper != NULL && GTK_IS_BOX (wrapper))
    {
      gtk_widget_set_halign (wrapper, GTK_ALIGN_FILL);
      gtk_widget_set_hexpand (wrapper, TRUE);
    }

  self->matched_groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->store = g_list_store_new (HR_TYPE_PICKER_ITEM);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                              GTK_FILTER (self->filter));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);

  keys = gtk_event_controller_key_new ();
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (search_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->popover));

  update_button (self);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
hr_picker_row_new (const char *title,
                   const char *subtitle,
                   const char *check_label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title_label = gtk_label_new (title);
  GtkWidget *subtitle_label = gtk_label_new (subtitle);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle_label), 0);
  /* two lines before it is cut: "This Computer" names the list's entry it was recognized as */
  gtk_label_set_wrap (GTK_LABEL (subtitle_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (subtitle_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (subtitle_label), 2);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle_label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle_label, "caption");
  gtk_widget_add_css_class (subtitle_label, "dim-label");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, check_label, -1);
  gtk_box_append (GTK_BOX (text), title_label);
  gtk_box_append (GTK_BOX (text), subtitle_label);
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), check);
  return box;
}

GtkWidget *
hr_picker_row_get_title (GtkWidget *row)
{
  return gtk_widget_get_first_child (gtk_widget_get_first_child (row));
}

GtkWidget *
hr_picker_row_get_check (GtkWidget *row)
{
  return gtk_widget_get_last_child (row);
}

GtkWidget *
hr_picker_new (void)
{
  return g_object_new (HR_TYPE_PICKER, NULL);
}

void
hr_picker_set_items (HrPicker  *self,
                     GPtrArray *items)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *selected_id = NULL;
  const char *group = NULL;

  g_return_if_fail (HR_IS_PICKER (self));
  g_return_if_fail (items != NULL);

  selected_id = g_strdup (hr_picker_get_selected_id (self));
  for (guint i = 0; i < items->len; i++)
    {
      HrPickerItem *it = g_ptr_array_index (items, i);
      const char *g = hr_picker_item_get_group (it);

      if (g != NULL && g[0] != '\0' && g_strcmp0 (g, group) != 0)
        g_ptr_array_add (all, hr_picker_item_new_header (g));
      group = g;
      g_ptr_array_add (all, g_object_ref (it));
    }
  g_clear_object (&self->selected);
  g_list_store_splice (self->store, 0, self->n_base, all->pdata, all->len);
  self->n_base = all->len;
  if (selected_id == NULL || !hr_picker_set_selected_id (self, selected_id))
    {
      update_button (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ID]);
    }
  apply_query (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

gboolean
hr_picker_set_selected_id (HrPicker   *self,
                           const char *id)
{
  guint pos;
  g_autoptr(HrPickerItem) it = NULL;

  g_return_val_if_fail (HR_IS_PICKER (self), FALSE);

  if (id == NULL || !find_item (self, id, NULL, &pos))
    return FALSE;
  it = g_list_model_get_item (G_LIST_MODEL (self->store), pos);
  select_item (self, it);
  return TRUE;
}

const char *
hr_picker_get_selected_id (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->selected ? hr_picker_item_get_id (self->selected) : NULL;
}

HrPickerItem *
hr_picker_get_selected_item (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->selected;
}

void
hr_picker_set_title (HrPicker   *self,
                     const char *title)
{
  g_return_if_fail (HR_IS_PICKER (self));

  if (g_strcmp0 (title, self->title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), title);
  update_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
hr_picker_get_title (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->title;
}

void
hr_picker_set_placeholder (HrPicker   *self,
                           const char *text)
{
  g_return_if_fail (HR_IS_PICKER (self));

  g_object_set (self->search_entry, "placeholder-text", text, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

void
hr_picker_set_compact (HrPicker *self,
                       gboolean  compact)
{
  GtkWidget *button;

  g_return_if_fail (HR_IS_PICKER (self));

  self->compact = compact;
  button = GTK_WIDGET (self->button);
  if (compact)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self), "compact");
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_remove_css_class (GTK_WIDGET (self->title_label), "heading");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), "compact");
      gtk_widget_remove_css_class (button, "flat");
      gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
    }
  gtk_widget_set_hexpand (button, !compact);
  gtk_widget_set_valign (GTK_WIDGET (self), compact ? GTK_ALIGN_CENTER : GTK_ALIGN_FILL);
  update_button (self);
}

void
hr_picker_popup (HrPicker *self)
{
  g_return_if_fail (HR_IS_PICKER (self));
  gtk_menu_button_popup (self->button);
}

void
hr_picker_popdown (HrPicker *self)
{
  g_return_if_fail (HR_IS_PICKER (self));
  gtk_menu_button_popdown (self->button);
}

guint
hr_picker_search (HrPicker   *self,
                  const char *text)
{
  g_return_val_if_fail (HR_IS_PICKER (self), 0);

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  return apply_query (self, text);
}

GListModel *
hr_picker_get_shown (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return G_LIST_MODEL (self->filtered);
}

void
hr_picker_set_footer (HrPicker   *self,
                      const char *add_label,
                      GMenuModel *add_menu,
                      const char *add_action,
                      const char *manage_action)
{
  gboolean menu, button, manage;

  g_return_if_fail (HR_IS_PICKER (self));
  g_return_if_fail (add_menu == NULL || G_IS_MENU_MODEL (add_menu));

  menu = add_label != NULL && add_menu != NULL;
  button = add_label != NULL && add_menu == NULL && add_action != NULL;
  manage = manage_action != NULL;

  gtk_menu_button_set_menu_model (self->add_menu_button, menu ? add_menu : NULL);
  if (menu)
    gtk_menu_button_set_label (self->add_menu_button, add_label);
  gtk_widget_set_visible (GTK_WIDGET (self->add_menu_button), menu);
  if (button)
    gtk_button_set_label (self->add_button, add_label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->add_button), button ? add_action : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->add_button), button);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->manage_button), manage_action);
  gtk_widget_set_visible (GTK_WIDGET (self->manage_button), manage);
  gtk_widget_set_visible (self->footer, menu || button || manage);
  gtk_widget_set_visible (self->footer_separator, menu || button || manage);
}

void
hr_picker_set_extras (HrPicker  *self,
                      GPtrArray *items)
{
  guint n;

  g_return_if_fail (HR_IS_PICKER (self));
  g_return_if_fail (items != NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_free (self->extra_group);
  self->extra_group = items->len > 0 ? g_strdup (hr_picker_item_get_group (g_ptr_array_index (items, 0)))
                                     : NULL;
  g_list_store_splice (self->store, self->n_base, n - self->n_base, items->pdata, items->len);
  apply_query (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

void
hr_picker_set_search_hub (HrPicker *self,
                          gboolean  search_hub)
{
  g_return_if_fail (HR_IS_PICKER (self));

  search_hub = !!search_hub;
  if (search_hub == (self->hub_search != NULL))
    return;
  if (search_hub)
    {
      self->hub_search = hr_hub_search_new ();
      g_signal_connect_object (self->hub_search, "changed", G_CALLBACK (hub_changed_cb), self,
                               G_CONNECT_SWAPPED);
      hub_query (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
    }
  else
    {
      g_autoptr(GPtrArray) none = g_ptr_array_new ();

      g_signal_handlers_disconnect_by_data (self->hub_search, self);
      g_clear_object (&self->hub_search);
      hr_picker_set_extras (self, none);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_HUB]);
}

gboolean
hr_picker_get_search_hub (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), FALSE);
  return self->hub_search != NULL;
}

void
hr_picker_activate_shown (HrPicker *self,
                          guint     position)
{
  g_return_if_fail (HR_IS_PICKER (self));
  activate_position (self, position);
}
