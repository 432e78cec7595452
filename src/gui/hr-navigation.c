/* hr-navigation.c — the mouse wheel scrolls pages, F6 moves between panes */
#include "hr-navigation.h"

#include <math.h>

#define PANE_CLASS "f6-pane"

#define GUARDED_KEY "hr-wheel-guarded"

/* Whether the wheel would edit @widget's value: a slider, a spin button, a drop-down. */
static gboolean
is_value_control (GtkWidget *widget)
{
  return GTK_IS_SCALE (widget) || GTK_IS_SPIN_BUTTON (widget) || GTK_IS_DROP_DOWN (widget);
}

/* The slider or spin button @widget is part of, or NULL (a scrollbar's own range is not one). */
static GtkWidget *
value_control_of (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      if (GTK_IS_SCROLLBAR (w) || GTK_IS_SCROLLED_WINDOW (w))
        return NULL;
      if (is_value_control (w))
        return w;
    }
  return NULL;
}

static void
scroll_adjustment (GtkAdjustment *adjustment,
                   double         delta,
                   GdkScrollUnit  unit)
{
  double page = gtk_adjustment_get_page_size (adjustment);

  if (delta == 0)
    return;
  /* the step GtkScrolledWindow takes for one wheel click */
  if (unit == GDK_SCROLL_UNIT_WHEEL)
    delta *= pow (page, 2.0 / 3.0);
  gtk_adjustment_set_value (adjustment,
                            CLAMP (gtk_adjustment_get_value (adjustment) + delta,
                                   gtk_adjustment_get_lower (adjustment),
                                   gtk_adjustment_get_upper (adjustment) - page));
}

/* Callbacks --------------------------------------------------------------------------------- */

/* The wheel over a guarded control, focused or not: the page moves, never the value. */
static gboolean
control_scroll_cb (GtkEventControllerScroll *controller,
                   double                    dx,
                   double                    dy,
                   gpointer                  user_data)
{
  GtkWidget *control = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  hr_navigation_scroll_instead (control, dx, dy, gtk_event_controller_scroll_get_unit (controller));
  /* claimed even with no page to scroll (a spin button in a popover): the value stays */
  return TRUE;
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           gpointer                  user_data)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (window));
  GdkDevice *device = seat ? gdk_seat_get_pointer (seat) : NULL;
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  double x, y, sx, sy;
  GtkWidget *target;

  /* a scroll event carries no position (GTK 4.8): ask where the pointer is */
  if (device == NULL || surface == NULL || !gdk_surface_get_device_position (surface, device, &x, &y, NULL))
    return FALSE;
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  target = gtk_widget_pick (window, x - sx, y - sy, GTK_PICK_DEFAULT);
  /* a value control has its own guard (hr_navigation_guard_controls) */
  return target != NULL && value_control_of (target) == NULL
         && hr_navigation_scroll_instead (target, dx, dy,
                                          gtk_event_controller_scroll_get_unit (controller));
}

/* Public API ---------------------------------------------------------------------------------- */

void
hr_navigation_guard_wheel (GtkWindow *window)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_WINDOW (window));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  /* capture: seen before the slider under the pointer takes the event */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), NULL);
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}

void
hr_navigation_guard_controls (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (is_value_control (root) && g_object_get_data (G_OBJECT (root), GUARDED_KEY) == NULL)
    {
      GtkEventController *controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

      /* capture: before the control's own scroll handler, on its inner parts too (a spin
       * button's text and buttons) */
      gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
      g_signal_connect (controller, "scroll", G_CALLBACK (control_scroll_cb), NULL);
      gtk_widget_add_controller (root, controller);
      g_object_set_data (G_OBJECT (root), GUARDED_KEY, GINT_TO_POINTER (TRUE));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    hr_navigation_guard_controls (c);
}

/* The nearest scrolled window above @widget that scrolls up and down. */
static GtkWidget *
vertical_scroller_of (GtkWidget *widget)
{
  GtkWidget *w = widget;
  GtkPolicyType vpolicy;

  while ((w = gtk_widget_get_ancestor (w, GTK_TYPE_SCROLLED_WINDOW)) != NULL)
    {
      gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (w), NULL, &vpolicy);
      if (vpolicy != GTK_POLICY_NEVER)
        return w;
      w = gtk_widget_get_parent (w);
    }
  return NULL;
}

gboolean
hr_navigation_scroll_instead (GtkWidget     *target,
                              double         dx,
                              double         dy,
                              GdkScrollUnit  unit)
{
  GtkWidget *control, *inner, *scroller;
  GtkPolicyType vpolicy = GTK_POLICY_AUTOMATIC;

  g_return_val_if_fail (GTK_IS_WIDGET (target), FALSE);

  control = value_control_of (target);
  if (control == NULL)
    {
      /* a table that only scrolls sideways would swallow the wheel: the page takes it */
      inner = gtk_widget_get_ancestor (target, GTK_TYPE_SCROLLED_WINDOW);
      if (inner != NULL)
        gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (inner), NULL, &vpolicy);
      if (inner == NULL || vpolicy != GTK_POLICY_NEVER || fabs (dy) <= fabs (dx))
        return FALSE;
      dx = 0;
    }
  scroller = vertical_scroller_of (control ? control : target);
  if (scroller == NULL)
    return FALSE;
  scroll_adjustment (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), dy, unit);
  scroll_adjustment (gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller)), dx, unit);
  return TRUE;
}

void
hr_navigation_mark_pane (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  gtk_widget_add_css_class (widget, PANE_CLASS);
}

static void
collect_panes (GtkWidget *widget,
               GPtrArray *panes)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (gtk_widget_has_css_class (widget, PANE_CLASS))
    {
      g_ptr_array_add (panes, widget);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_panes (c, panes);
}

/* Reading order on screen: top to bottom, then left to right (a flap's children are not in
 * that order in the widget tree). */
static int
compare_position (gconstpointer a,
                  gconstpointer b,
                  gpointer      root)
{
  graphene_rect_t ra, rb;

  if (!gtk_widget_compute_bounds (*(GtkWidget **) a, root, &ra)
      || !gtk_widget_compute_bounds (*(GtkWidget **) b, root, &rb))
    return 0;
  if ((int) ra.origin.y != (int) rb.origin.y)
    return (int) ra.origin.y - (int) rb.origin.y;
  return (int) ra.origin.x - (int) rb.origin.x;
}

GtkWidget *
hr_navigation_cycle_panes (GtkWidget *root,
                           gboolean   backward)
{
  g_autoptr(GPtrArray) panes = g_ptr_array_new ();
  GtkRoot *window;
  GtkWidget *focus;
  guint current = 0;

  g_return_val_if_fail (GTK_IS_WIDGET (root), NULL);

  window = gtk_widget_get_root (root);
  focus = window ? gtk_root_get_focus (window) : NULL;
  collect_panes (root, panes);
  g_ptr_array_sort_with_data (panes, compare_position, root);
  if (panes->len == 0)
    return NULL;
  /* start from the pane holding the focus; from none, the first pane is the next one */
  current = backward ? 0 : panes->len - 1;
  for (guint i = 0; i < panes->len; i++)
    if (focus != NULL && gtk_widget_is_ancestor (focus, panes->pdata[i]))
      current = i;

  for (guint step = 1; step <= panes->len; step++)
    {
      guint i = (current + (backward ? panes->len - step : step)) % panes->len;
      GtkWidget *pane = panes->pdata[i];

      if (focus != NULL && (focus == pane || gtk_widget_is_ancestor (focus, pane)))
        continue;
      /* a pane is entered at its first control, whichever way F6 went */
      if (gtk_widget_child_focus (pane, GTK_DIR_TAB_FORWARD))
        return pane;
    }
  return NULL;
}

static gboolean
menu_button_query_tooltip (GtkWidget  *widget,
                           int         x,
                           int         y,
                           gboolean    keyboard,
                           GtkTooltip *tooltip)
{
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (widget));
  gboolean shown = FALSE;

  if (popover != NULL && gtk_widget_get_visible (GTK_WIDGET (popover)))
    return FALSE;
  g_signal_chain_from_overridden_handler (widget, x, y, keyboard, tooltip, &shown);
  return shown;
}

void
hr_navigation_quiet_menu_tooltips (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      g_type_class_ref (GTK_TYPE_MENU_BUTTON);
      g_signal_override_class_handler ("query-tooltip", GTK_TYPE_MENU_BUTTON,
                                       G_CALLBACK (menu_button_query_tooltip));
      g_once_init_leave (&done, 1);
    }
}

static void
create_menu_cb (GtkMenuButton *button,
                gpointer       model)
{
  if (gtk_menu_button_get_menu_model (button) == NULL)
    gtk_menu_button_set_menu_model (button, model);
}

void
hr_navigation_menu_on_demand (GtkMenuButton *button,
                              GMenuModel    *model)
{
  g_return_if_fail (GTK_IS_MENU_BUTTON (button));
  g_return_if_fail (G_IS_MENU_MODEL (model));

  gtk_menu_button_set_create_popup_func (button, create_menu_cb, g_object_ref (model), g_object_unref);
}
