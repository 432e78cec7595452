/* hr-navigation.h — moving around the window without surprises: the mouse wheel over a slider
 * or spin button scrolls the page instead of editing it, and F6 moves between a view's panes */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes the wheel over every slider, spin button and drop-down under @root (focused or not)
 * scroll the page that holds it: a page scrolled past a control must not change it (the
 * keyboard and a drag still do).  Call it on whatever is built, once a view or a dialog has
 * its controls; a control already guarded is skipped. */
void       hr_navigation_guard_controls (GtkWidget     *root);
/* Makes an up-down wheel over a table in @window that only scrolls sideways scroll the page
 * instead (such a scrolled window would swallow it). */
void       hr_navigation_guard_wheel    (GtkWindow     *window);
/* What the guard does for a wheel turn over @target: when @target is (in) a slider or spin
 * button inside a scrolled window, scrolls that window by (@dx, @dy) in @unit and returns TRUE;
 * likewise for an up-down turn over a table that only scrolls sideways (the page scrolls);
 * otherwise FALSE (the event goes on as usual). */
gboolean   hr_navigation_scroll_instead (GtkWidget     *target,
                                         double         dx,
                                         double         dy,
                                         GdkScrollUnit  unit);

/* Marks @widget as one pane (a sidebar, a result list) for F6: the style class "f6-pane",
 * which a .ui file may set as well. */
void       hr_navigation_mark_pane      (GtkWidget     *widget);
/* Moves the focus to the first control of the next (or previous) pane under @root that is
 * shown and has something to focus, after the one holding the focus; wraps around.  Returns
 * the pane focused, or NULL when there is none. */
GtkWidget *hr_navigation_cycle_panes    (GtkWidget     *root,
                                         gboolean       backward);

/* A menu button's tooltip is not shown while its own menu is open (it would cover the first
 * item).  For every GtkMenuButton of the process; call once, before the first window. */
void       hr_navigation_quiet_menu_tooltips (void);

/* Gives @button the menu @model when it is first opened: a menu built at start-up is a
 * popover of a few dozen widgets that no frame shows until then. */
void       hr_navigation_menu_on_demand (GtkMenuButton *button,
                                         GMenuModel    *model);

G_END_DECLS
