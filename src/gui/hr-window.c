/* hr-window.c — the main window: a header bar with a view switcher over the views
 *
 * Each view (Size, Compare, Fine-tune, Cloud & TCO, What Runs Here) is a page of one AdwViewStack, added by
 * hr_window_add_view().  Every view is built from the application's session (hr-session.h),
 * never from another view.  Only the page in view is built at start-up: the others are built
 * the first time they are shown (or asked for), so the first frame costs one view.  The
 * window's shortcuts forward to the visible view's "view.*" actions.
 */
#include "hr-window.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-cloud-view.h"
#include "hr-compare-view.h"
#include "hr-finetune-view.h"
#include "hr-fit-view.h"
#include "hr-import.h"
#include "hr-navigation.h"
#include "hr-runs-dialog.h"

struct _HrWindow
{
  AdwApplicationWindow parent_instance;

  /* template */
  AdwToastOverlay *toast_overlay;
  AdwHeaderBar *header_bar;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar *switcher_bar;
  AdwViewStack *stack;
  HrSizeView *size_view;
  GtkMenuButton *menu_button;
  GMenuModel *primary_menu;
  GtkToggleButton *sidebar_button;

  AdwFlap *flap;              /* the visible view's scenario sidebar, if it has one */
  GBinding *flap_binding;     /* its reveal-flap <-> sidebar_button:active */
  gboolean narrow;            /* rows marked "adaptive-row" are stacked */
  guint narrow_idle_id;
  guint sidebar_idle_id;
  gulong first_paint_id;      /* the frame clock's "after-paint", until the first frame is drawn */
  guint first_frame_idle_id;

  HrSession *session;         /* the application's, once it is set */
  GSettings *settings;
  gboolean restoring;
  GCancellable *cancellable;  /* the window's async work; cancelled on close */
  HrImport *import;           /* "import.*": your own models and GPUs */
};

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

typedef GtkWidget *(*HrViewNew) (HrSession *session);

/* The views built on first use, in the switcher's order after Size. */
static const struct
{
  const char *name;
  const char *title;
  const char *icon_name;
  HrViewNew view_new;
} lazy_views[] = {
  { "compare", N_("Compare"), "view-dual-symbolic", hr_compare_view_new },
  { "finetune", N_("Fine-tune"), "applications-engineering-symbolic", hr_finetune_view_new },
  /* the last page: it prices the session's scenario */
  { "cloud", N_("Cloud & TCO"), "weather-overcast-symbolic", hr_cloud_view_new },
  /* the reverse question: every model on the session's hardware */
  { "fit", N_("Runs Here"), "view-list-ordered-symbolic", hr_fit_view_new },
};

/* Below this width, rows of side-by-side parts (style class "adaptive-row") stack; it lies
 * above every such row's own width side by side, so a window can always shrink past it. */
#define NARROW_WIDTH 800

static guint
count_views (HrWindow *self)
{
  g_autoptr(GtkSelectionModel) pages = adw_view_stack_get_pages (self->stack);

  return g_list_model_get_n_items (G_LIST_MODEL (pages));
}

static void
update_switcher (HrWindow *self)
{
  gboolean several = count_views (self) > 1;
  gboolean bar = several && adw_view_switcher_title_get_title_visible (self->switcher_title);

  /* one view needs no switcher: the title says "Headroom" */
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, several);
  /* the bottom bar gets its buttons when it is first shown (a narrow window): hidden, they
   * would still be built, styled and measured for every first frame */
  if (bar && adw_view_switcher_bar_get_stack (self->switcher_bar) == NULL)
    adw_view_switcher_bar_set_stack (self->switcher_bar, self->stack);
  adw_view_switcher_bar_set_reveal (self->switcher_bar, bar);
}

static void update_sidebar_button (HrWindow *self);
static void apply_adaptive_rows (GtkWidget *widget, gboolean narrow);

/* The view on page @page: a lazy page is an AdwBin, empty until its view is built. */
static GtkWidget *
page_view (GtkWidget *page)
{
  return ADW_IS_BIN (page) ? adw_bin_get_child (ADW_BIN (page)) : page;
}

static GtkWidget *
ensure_view (HrWindow   *self,
             const char *name)
{
  GtkWidget *page = name ? adw_view_stack_get_child_by_name (self->stack, name) : NULL;
  GtkWidget *view;

  if (page == NULL || page_view (page) != NULL || self->session == NULL)
    return page ? page_view (page) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (lazy_views); i++)
    if (g_str_equal (lazy_views[i].name, name))
      {
        g_debug ("building the %s view", name);
        view = lazy_views[i].view_new (self->session);
        adw_bin_set_child (ADW_BIN (page), view);
        apply_adaptive_rows (view, self->narrow);
        hr_window_name_controls (view);
        update_sidebar_button (self);
        return view;
      }
  return NULL;
}

static void
forward_to_view (HrWindow   *self,
                 const char *action,
                 GVariant   *parameter)
{
  GtkWidget *page = adw_view_stack_get_visible_child (self->stack);
  GtkWidget *view = page ? page_view (page) : NULL;

  if (view != NULL)
    gtk_widget_activate_action_variant (view, action, parameter);
}

/* The first AdwFlap in @widget: a view's scenario beside its results. */
static AdwFlap *
find_flap (GtkWidget *widget)
{
  if (ADW_IS_FLAP (widget))
    return ADW_FLAP (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      AdwFlap *flap = find_flap (c);
      if (flap != NULL)
        return flap;
    }
  return NULL;
}

static gboolean
sidebar_idle_cb (gpointer user_data)
{
  HrWindow *self = user_data;

  self->sidebar_idle_id = 0;
  update_sidebar_button (self);
  return G_SOURCE_REMOVE;
}

/* A flap folds while the window is being laid out: the header bar changes after that. */
static void
flap_folded_cb (HrWindow *self)
{
  if (self->sidebar_idle_id == 0)
    self->sidebar_idle_id = g_idle_add (sidebar_idle_cb, self);
}

/* A narrow window folds the visible view's scenario over its results: the header bar's
 * sidebar button shows and hides it then. */
static void
update_sidebar_button (HrWindow *self)
{
  GtkWidget *view = adw_view_stack_get_visible_child (self->stack);
  AdwFlap *flap = view ? find_flap (view) : NULL;

  if (flap != self->flap)
    {
      g_clear_pointer (&self->flap_binding, g_binding_unbind);
      if (self->flap != NULL)
        g_signal_handlers_disconnect_by_func (self->flap, flap_folded_cb, self);
      self->flap = flap;
      if (flap != NULL)
        {
          self->flap_binding = g_object_bind_property (flap, "reveal-flap", self->sidebar_button, "active",
                                                       G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
          g_signal_connect_object (flap, "notify::folded", G_CALLBACK (flap_folded_cb), self,
                                   G_CONNECT_SWAPPED);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_button), flap != NULL && adw_flap_get_folded (flap));
}

/* Whether @widget shows words (a label), not only an icon or a spinner; a menu's popover,
 * shown elsewhere, does not count. */
static gboolean
shows_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (!GTK_IS_POPOVER (c) && shows_text (c))
      return TRUE;
  return FALSE;
}

/* A section's labelled header button goes under its title in a narrow window: beside it, the
 * title ("Memory per GPU") was cut to "Memory …" and the description wrapped in a thin column.
 * One that shows only an icon (a chart's export) or a spinner is small and cuts nothing: it
 * stays beside its title. */
static void
stack_group_header (AdwPreferencesGroup *group,
                    gboolean             narrow)
{
  GtkWidget *suffix = adw_preferences_group_get_header_suffix (group);
  GtkWidget *header = suffix ? gtk_widget_get_parent (suffix) : NULL;
  gboolean under = narrow && suffix != NULL && shows_text (suffix);

  if (!GTK_IS_BOX (header))
    return;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (header),
                                  under ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_halign (suffix, under ? GTK_ALIGN_START : GTK_ALIGN_FILL);
}

static char *
strip_underscores (const char *text)
{
  g_autoptr(GString) clean = g_string_new (NULL);

  for (const char *p = text ? text : ""; *p; p++)
    if (*p != '_')
      g_string_append_c (clean, *p);
  return g_string_free (g_steal_pointer (&clean), FALSE);
}

static GtkWidget *
first_list_box (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = GTK_IS_LIST_BOX (c) ? c : first_list_box (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A row of a GtkListView (GTK's private GtkListItemWidget): GTK 4.8 gives it no name. */
static gboolean
is_list_item_widget (GtkWidget *widget)
{
  static GType type;

  if (type == 0)
    type = g_type_from_name ("GtkListItemWidget");
  return type != 0 && G_TYPE_CHECK_INSTANCE_TYPE (widget, type);
}

static GtkLabel *
first_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && *gtk_label_get_text (GTK_LABEL (widget)) != '\0')
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *label = first_label (c);

      if (label != NULL)
        return label;
    }
  return NULL;
}

/* A list view's row by the text it shows (a combo row's item: "Q4_K_M"); again when a
 * scrolled list reuses the row for another item and relabels it. */
static void
name_list_item (GtkWidget *item)
{
  GtkLabel *label = first_label (item);

  if (label == NULL)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_label_get_text (label), -1);
  if (g_object_get_data (G_OBJECT (label), "hr-names-item") == NULL)
    {
      g_object_set_data (G_OBJECT (label), "hr-names-item", item);
      g_signal_connect_object (label, "notify::label", G_CALLBACK (name_list_item), item, G_CONNECT_SWAPPED);
    }
}

/* Names for screen readers that GTK 4.8 gets wrong, under @widget: a button with a mnemonic
 * ("_Change in the Size View") was named by its raw label, underscore included, and again by
 * its label child ("_Change in the Size View Change in the Size View"); an icon-only button
 * with a tooltip was "GtkImage".  A name given explicitly stays. */
static void
name_controls (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget) && !GTK_IS_MENU_BUTTON (gtk_widget_get_parent (widget)))
    {
      const char *label = gtk_button_get_label (GTK_BUTTON (widget));
      GtkWidget *child = gtk_button_get_child (GTK_BUTTON (widget));

      if (label != NULL && gtk_button_get_use_underline (GTK_BUTTON (widget)) && strchr (label, '_') != NULL)
        {
          g_autoptr(GString) clean = g_string_new (NULL);

          for (const char *p = label; *p; p++)
            if (*p != '_' || p[1] == '_')
              g_string_append_c (clean, *p == '_' ? *++p : *p);
          gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, clean->str, -1);
          gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
        }
      else if (label == NULL && GTK_IS_IMAGE (child) && gtk_widget_get_tooltip_text (widget) != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        gtk_widget_get_tooltip_text (widget), -1);
    }
  /* a search entry by what it searches (its placeholder: "Search preferences") */
  if (GTK_IS_SEARCH_ENTRY (widget))
    {
      g_autofree char *placeholder = NULL;

      g_object_get (widget, "placeholder-text", &placeholder, NULL);
      gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      placeholder != NULL && *placeholder ? placeholder : _("Search"), -1);
    }
  /* a switch in a row by the row's title */
  if (GTK_IS_SWITCH (widget))
    {
      GtkWidget *row = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_ROW);

      if (row != NULL)
        {
          const char *title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));
          g_autoptr(GString) clean = g_string_new (NULL);

          for (const char *p = title ? title : ""; *p; p++)
            if (*p != '_')
              g_string_append_c (clean, *p);
          /* the name once: a row whose activatable widget it is also labels it by its title */
          if (clean->len > 0)
            {
              gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, clean->str, -1);
              gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
            }
        }
    }
  /* a list was "GtkListBox" unless its group labelled it: named by its group's title, or
   * without one by what its first rows set */
  if (GTK_IS_LIST_BOX (widget))
    {
      GtkWidget *group = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_GROUP);
      const char *title = group ? adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (group)) : NULL;

      if (title != NULL && *title != '\0' && gtk_widget_get_ancestor (widget, ADW_TYPE_EXPANDER_ROW) == NULL)
        {
          g_autofree char *clean = strip_underscores (title);

          gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, clean, -1);
          /* once: GTK 4.8 joins a label and the group's labelled-by relation on its own list */
          if (first_list_box (group) == widget)
            gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
        }
      else
        {
          g_autoptr(GString) names = g_string_new (NULL);
          guint n = 0;

          for (GtkWidget *r = gtk_widget_get_first_child (widget); r && n < 3; r = gtk_widget_get_next_sibling (r))
            if (ADW_IS_PREFERENCES_ROW (r) && gtk_widget_get_visible (r))
              {
                g_autofree char *clean = strip_underscores (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (r)));

                if (*clean == '\0')
                  continue;
                g_string_append_printf (names, "%s%s", n++ > 0 ? ", " : "", clean);
              }
          /* no rows to name it by (an empty list): by what holds it, an expander row, a
           * group or a page */
          if (names->len == 0)
            {
              GtkWidget *expander = gtk_widget_get_ancestor (widget, ADW_TYPE_EXPANDER_ROW);
              GtkWidget *page = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_PAGE);
              g_autofree char *clean = NULL;

              if (expander != NULL)
                clean = strip_underscores (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (expander)));
              else if (title != NULL && *title != '\0')
                clean = strip_underscores (title);
              else if (page != NULL)
                clean = strip_underscores (adw_preferences_page_get_title (ADW_PREFERENCES_PAGE (page)));
              /* a preferences window's own untitled page: what its search found */
              if ((clean == NULL || *clean == '\0') && gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_WINDOW) != NULL)
                {
                  g_free (clean);
                  clean = g_strdup (_("Search Results"));
                }
              g_string_append (names, clean ? clean : "");
            }
          if (names->len > 0)
            gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, names->str, -1);
        }
    }
  /* an expander row was unnamed in libadwaita 1.2 (its title is a label deep inside) */
  if (ADW_IS_EXPANDER_ROW (widget))
    {
      g_autofree char *clean = strip_underscores (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)));

      if (*clean != '\0')
        gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, clean, -1);
    }
  /* a combo row's drop-down list by the row's title, its items by their text */
  if (GTK_IS_LIST_VIEW (widget))
    {
      GtkWidget *row = gtk_widget_get_ancestor (widget, ADW_TYPE_COMBO_ROW);

      if (row != NULL)
        {
          g_autofree char *clean = strip_underscores (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));

          gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, clean, -1);
        }
    }
  if (is_list_item_widget (widget))
    name_list_item (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    name_controls (c);
}

/* Readies the controls of a view or dialog just built: names for screen readers, and the
 * wheel that scrolls the page over a slider or spin button instead of editing it (#26). */
void
hr_window_name_controls (GtkWidget *widget)
{
  name_controls (widget);
  hr_navigation_guard_controls (widget);
}

/* libadwaita 1.2's toasts are built when shown, after any view: their "_Details" button was
 * announced "_Details Details" and their icon-only close button, without a tooltip,
 * "GtkImage".  Named as each toast widget is mapped. */
static gboolean
toast_mapped_hook (GSignalInvocationHint *hint,
                   guint                  n_params,
                   const GValue          *params,
                   gpointer               user_data)
{
  static GType toast_widget_type;
  GtkWidget *widget = g_value_get_object (&params[0]);

  /* a private type, registered when the first toast is shown */
  if (toast_widget_type == 0)
    toast_widget_type = g_type_from_name ("AdwToastWidget");
  /* a list view's rows are made when it is first shown, and rebound as it scrolls */
  if (is_list_item_widget (widget))
    {
      name_list_item (widget);
      return TRUE;
    }
  if (toast_widget_type == 0 || !G_TYPE_CHECK_INSTANCE_TYPE (widget, toast_widget_type))
    return TRUE;
  name_controls (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_BUTTON (c) && GTK_IS_IMAGE (gtk_button_get_child (GTK_BUTTON (c)))
        && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (c)), "window-close-symbolic") == 0)
      {
        gtk_accessible_update_property (GTK_ACCESSIBLE (c), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _("Close Notification"), -1);
        gtk_widget_set_tooltip_text (c, _("Close Notification"));
      }
  return TRUE;
}

static void
apply_adaptive_rows (GtkWidget *widget,
                     gboolean   narrow)
{
  if (GTK_IS_BOX (widget) && gtk_widget_has_css_class (widget, "adaptive-row"))
    {
      /* equal widths side by side; stacked, each part only as tall as it needs */
      if (g_object_get_data (G_OBJECT (widget), "hr-homogeneous") == NULL)
        g_object_set_data (G_OBJECT (widget), "hr-homogeneous",
                           GINT_TO_POINTER (gtk_box_get_homogeneous (GTK_BOX (widget)) ? 2 : 1));
      gtk_box_set_homogeneous (GTK_BOX (widget),
                               !narrow && GPOINTER_TO_INT (g_object_get_data (G_OBJECT (widget), "hr-homogeneous")) == 2);
      gtk_orientable_set_orientation (GTK_ORIENTABLE (widget),
                                      narrow ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
    }
  if (GTK_IS_FLOW_BOX (widget) && gtk_widget_has_css_class (widget, "adaptive-cards"))
    gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (widget), !narrow);
  if (ADW_IS_PREFERENCES_GROUP (widget))
    stack_group_header (ADW_PREFERENCES_GROUP (widget), narrow);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    apply_adaptive_rows (c, narrow);
}

/* Callbacks --------------------------------------------------------------------------------- */

static void
visible_view_changed_cb (HrWindow     *self,
                         GParamSpec   *pspec,
                         AdwViewStack *stack)
{
  const char *name = adw_view_stack_get_visible_child_name (stack);

  if (!self->restoring && self->settings != NULL && name != NULL)
    g_settings_set_string (self->settings, "last-view", name);
  ensure_view (self, name);
  update_sidebar_button (self);
}

/* A price refresh running, or a damaged cache to report: the Cloud view says so in a toast. */
static gboolean
pricing_has_news (HrSession *session)
{
  HrPricingManager *manager = hr_session_get_pricing_manager (session);

  return manager != NULL && (hr_pricing_manager_get_busy (manager) || hr_pricing_manager_has_load_error (manager));
}

static void
pricing_busy_cb (HrWindow *self)
{
  if (pricing_has_news (self->session))
    ensure_view (self, "cloud");
}

/* GObject sets GtkWindow:application after constructed(): take the session when it comes. */
static void
application_changed_cb (HrWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  HrPricingManager *manager;

  if (!HR_IS_APPLICATION (app) || self->session != NULL)
    return;
  self->session = g_object_ref (hr_application_get_session (HR_APPLICATION (app)));
  hr_size_view_set_session (self->size_view, self->session);
  /* the names and the wheel guard of what the window holds so far wait for its first frame
   * (first_frame_idle_cb): walking every widget of it is no business of that frame */
  ensure_view (self, adw_view_stack_get_visible_child_name (self->stack));
  manager = hr_session_get_pricing_manager (self->session);
  if (manager != NULL)
    g_signal_connect_object (manager, "notify::busy", G_CALLBACK (pricing_busy_cb), self, G_CONNECT_SWAPPED);
  pricing_busy_cb (self);
}

static void
title_visible_cb (HrWindow *self)
{
  update_switcher (self);
}

/* Actions ----------------------------------------------------------------------------------- */

/* The window's actions each view has: "win.find-model" activates the visible view's
 * "view.find-model", and so on. */
static const char * const forwarded_actions[] = {
  "win.find-model", "win.find-gpu", "win.export-chart", "win.copy-json",
};

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  g_autofree char *view_action = g_strconcat ("view.", action_name + strlen ("win."), NULL);

  /* "" lets the view pick the chart that is most in view */
  if (g_str_equal (action_name, "win.export-chart"))
    parameter = g_variant_new_string ("");
  forward_to_view (HR_WINDOW (widget), view_action, parameter);
}

static void
cycle_panes_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  hr_navigation_cycle_panes (widget, g_variant_get_boolean (parameter));
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  /* only a folded scenario hides; beside the results it is always there */
  if (self->flap != NULL && adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

/* Import Measurements: the user's runs beside Headroom's figures, a dialog of its own */
static void
import_measurements_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  if (self->session == NULL)
    return;
  gtk_window_present (GTK_WINDOW (hr_runs_dialog_new (GTK_WINDOW (self), self->session)));
}

/* Alt+1…5: the views in the switcher's order. */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  g_autoptr(GtkSelectionModel) pages = adw_view_stack_get_pages (self->stack);
  g_autoptr(AdwViewStackPage) page = g_list_model_get_item (G_LIST_MODEL (pages),
                                                             (guint) g_variant_get_int32 (parameter));

  if (page != NULL)
    adw_view_stack_set_visible_child (self->stack, adw_view_stack_page_get_child (page));
}

/* Ctrl+?: the keyboard shortcuts, built when first asked for */
static void
show_shortcuts_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  GtkApplicationWindow *window = user_data;
  GtkShortcutsWindow *shortcuts = gtk_application_window_get_help_overlay (window);

  if (shortcuts == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/headroomapp/Headroom/hr-shortcuts-window.ui");

      shortcuts = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* modal over this window, hidden (not destroyed) when closed */
      gtk_application_window_set_help_overlay (window, shortcuts);
    }
  gtk_window_present (GTK_WINDOW (shortcuts));
}

static void
set_narrow (HrWindow *self,
            gboolean  narrow)
{
  if (narrow == self->narrow)
    return;
  self->narrow = narrow;
  apply_adaptive_rows (GTK_WIDGET (self->stack), narrow);
}

/* A window opened narrow starts stacked: side by side, it could not be that narrow. */
static void
default_width_cb (HrWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0 && !gtk_widget_get_realized (GTK_WIDGET (self)))
    set_narrow (self, width < NARROW_WIDTH);
}

static gboolean
apply_narrow_cb (gpointer user_data)
{
  HrWindow *self = user_data;

  self->narrow_idle_id = 0;
  set_narrow (self, gtk_widget_get_width (GTK_WIDGET (self)) < NARROW_WIDTH);
  return G_SOURCE_REMOVE;
}

/* The first frame is drawn: what waited for it (the start-up price refresh) starts now. */
static gboolean
first_frame_idle_cb (gpointer user_data)
{
  HrWindow *self = user_data;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  self->first_frame_idle_id = 0;
  /* for screen readers and the wheel, a few milliseconds after the window is on screen (the
   * views built later are readied as they are built, ensure_view ()) */
  hr_window_name_controls (GTK_WIDGET (self->header_bar));
  hr_window_name_controls (GTK_WIDGET (self->size_view));
  if (HR_IS_APPLICATION (app))
    hr_application_refresh_when_due (HR_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                HrWindow      *self)
{
  g_clear_signal_handler (&self->first_paint_id, clock);
  if (self->first_frame_idle_id == 0)
    self->first_frame_idle_id = g_idle_add (first_frame_idle_cb, self);
}

/* GtkWidget ----------------------------------------------------------------------------------- */

static void
hr_window_realize (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);

  GTK_WIDGET_CLASS (hr_window_parent_class)->realize (widget);
  if (self->first_paint_id == 0 && self->first_frame_idle_id == 0)
    self->first_paint_id = g_signal_connect (gtk_widget_get_frame_clock (widget), "after-paint",
                                             G_CALLBACK (after_paint_cb), self);
}

static void
hr_window_unrealize (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);

  g_clear_signal_handler (&self->first_paint_id, gtk_widget_get_frame_clock (widget));
  GTK_WIDGET_CLASS (hr_window_parent_class)->unrealize (widget);
}

static void
hr_window_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  HrWindow *self = HR_WINDOW (widget);

  GTK_WIDGET_CLASS (hr_window_parent_class)->size_allocate (widget, width, height, baseline);
  /* restacked after this allocation, not during it */
  if ((width < NARROW_WIDTH) != self->narrow && self->narrow_idle_id == 0)
    self->narrow_idle_id = g_idle_add (apply_narrow_cb, self);
}

/* GtkWindow ----------------------------------------------------------------------------------- */

static gboolean
hr_window_close_request (GtkWindow *window)
{
  HrWindow *self = HR_WINDOW (window);
  int width, height;

  g_cancellable_cancel (self->cancellable);
  if (self->settings != NULL)
    {
      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (hr_window_parent_class)->close_request (window);
}

/* GObject ------------------------------------------------------------------------------------- */

static void
hr_window_constructed (GObject *object)
{
  HrWindow *self = HR_WINDOW (object);
  g_autofree char *last = NULL;

  G_OBJECT_CLASS (hr_window_parent_class)->constructed (object);

  self->settings = g_settings_new (APP_ID);
  self->import = hr_import_new (self);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               MAX (g_settings_get_int (self->settings, "window-width"), 360),
                               MAX (g_settings_get_int (self->settings, "window-height"), 360));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* the other views' pages, empty until each is first shown */
  for (guint i = 0; i < G_N_ELEMENTS (lazy_views); i++)
    hr_window_add_view (self, adw_bin_new (), lazy_views[i].name, _(lazy_views[i].title),
                        lazy_views[i].icon_name);

  update_switcher (self);
  update_sidebar_button (self);
  last = g_settings_get_string (self->settings, "last-view");
  self->restoring = TRUE;
  hr_window_set_visible_view (self, last);
  self->restoring = FALSE;
}

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = HR_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->narrow_idle_id, g_source_remove);
  g_clear_handle_id (&self->sidebar_idle_id, g_source_remove);
  g_clear_handle_id (&self->first_frame_idle_id, g_source_remove);
  g_clear_pointer (&self->flap_binding, g_binding_unbind);
  if (self->flap != NULL)
    g_signal_handlers_disconnect_by_func (self->flap, flap_folded_cb, self);
  self->flap = NULL;
  /* a flow still finishing holds the importer: it lets go of this window now */
  if (self->import != NULL)
    g_object_run_dispose (G_OBJECT (self->import));
  g_clear_object (&self->import);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_WINDOW);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = hr_window_constructed;
  object_class->dispose = hr_window_dispose;
  window_class->close_request = hr_window_close_request;
  widget_class->size_allocate = hr_window_size_allocate;
  widget_class->realize = hr_window_realize;
  widget_class->unrealize = hr_window_unrealize;

  g_type_ensure (HR_TYPE_SIZE_VIEW);
  /* every window's toasts, once for the process */
  g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, toast_mapped_hook, NULL, NULL);
  hr_navigation_quiet_menu_tooltips ();

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, size_view);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, sidebar_button);
  gtk_widget_class_bind_template_callback (widget_class, visible_view_changed_cb);

  for (guint i = 0; i < G_N_ELEMENTS (forwarded_actions); i++)
    gtk_widget_class_install_action (widget_class, forwarded_actions[i], NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.cycle-panes", "b", cycle_panes_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "i", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.import-measurements", NULL, import_measurements_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find-model", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.find-gpu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-chart", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "win.import-measurements", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.copy-json", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  for (int i = 0; i < 5; i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK, "win.show-view", "i", i);
  /* F6 moves between the header bar and the visible view's panes (hr-navigation.h) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F6, 0, "win.cycle-panes", "b", FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F6, GDK_SHIFT_MASK, "win.cycle-panes", "b", TRUE);
}

static void
hr_window_init (HrWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  hr_navigation_guard_wheel (GTK_WINDOW (self));
  hr_navigation_mark_pane (GTK_WIDGET (self->header_bar));
  hr_navigation_mark_pane (GTK_WIDGET (self->switcher_bar));
  hr_navigation_menu_on_demand (self->menu_button, self->primary_menu);
  {
    /* GtkApplicationWindow keeps this action when the shortcuts window comes */
    g_autoptr(GSimpleAction) shortcuts = g_simple_action_new ("show-help-overlay", NULL);

    g_signal_connect_object (shortcuts, "activate", G_CALLBACK (show_shortcuts_activated), self, 0);
    g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (shortcuts));
  }

  g_signal_connect_object (self->switcher_title, "notify::title-visible",
                           G_CALLBACK (title_visible_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::application", G_CALLBACK (application_changed_cb), NULL);
  g_signal_connect (self, "notify::default-width", G_CALLBACK (default_width_cb), NULL);
}

/* Public API ---------------------------------------------------------------------------------- */

HrWindow *
hr_window_new (HrApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

void
hr_window_add_view (HrWindow   *self,
                    GtkWidget  *view,
                    const char *name,
                    const char *title,
                    const char *icon_name)
{
  AdwViewStackPage *page;
  g_autofree char *last = NULL;

  g_return_if_fail (HR_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (name != NULL && title != NULL);

  page = adw_view_stack_add_titled (self->stack, view, name, title);
  apply_adaptive_rows (view, self->narrow);
  if (icon_name != NULL)
    adw_view_stack_page_set_icon_name (page, icon_name);
  update_switcher (self);

  /* a view added after start-up may be the one the user left open */
  last = self->settings ? g_settings_get_string (self->settings, "last-view") : NULL;
  if (g_strcmp0 (last, name) == 0)
    {
      self->restoring = TRUE;
      adw_view_stack_set_visible_child (self->stack, view);
      self->restoring = FALSE;
    }
}

const char *
hr_window_get_visible_view (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

gboolean
hr_window_set_visible_view (HrWindow   *self,
                            const char *name)
{
  GtkWidget *child;

  g_return_val_if_fail (HR_IS_WINDOW (self), FALSE);

  child = name ? adw_view_stack_get_child_by_name (self->stack, name) : NULL;
  if (child == NULL)
    return FALSE;
  adw_view_stack_set_visible_child (self->stack, child);
  return TRUE;
}

HrSizeView *
hr_window_get_size_view (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->size_view;
}

HrCatalog *
hr_window_get_catalog (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->session ? hr_session_get_catalog (self->session) : NULL;
}

HrSession *
hr_window_get_session (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->session;
}

GtkWidget *
hr_window_get_view (HrWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return ensure_view (self, name);
}

void
hr_window_add_toast (HrWindow *self,
                     AdwToast *toast)
{
  g_return_if_fail (HR_IS_WINDOW (self));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

GCancellable *
hr_window_get_cancellable (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->cancellable;
}

HrImport *
hr_window_get_import (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->import;
}
