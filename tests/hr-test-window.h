/* hr-test-window.h — what the window tests under Xvfb share
 *
 * Spinning the main loop until a view is idle, a condition holds or the layout has settled
 * (with a 60 s limit that fails the test rather than hanging it), opening and closing a
 * window, finding a widget by type.
 */
#pragma once

#include <gtk/gtk.h>

#include "hr-application.h"
#include "hr-window.h"

G_BEGIN_DECLS

typedef gboolean (*HrTestBusyFunc) (gpointer data);

/* gtk_test_init() with the memory GSettings backend, no accessibility bus and the C.UTF-8
 * locale. */
void       hr_test_init                (int            *argc,
                                        char         ***argv);
/* A registered, non-unique application. */
HrApplication *hr_test_app_new         (void);
/* hr_test_init(), then hr_test_app_new(). */
HrApplication *hr_test_app_init        (int            *argc,
                                        char         ***argv);

/* Runs the main loop for @ms milliseconds. */
void       hr_test_spin                (guint           ms);
/* Runs whatever is pending, without blocking. */
void       hr_test_flush               (void);
/* Iterates while @busy (@data) says so, then lays out the frame that shows the result; fails
 * the test after 60 s. */
void       hr_test_wait_while          (HrTestBusyFunc  busy,
                                        gpointer        data);
/* Iterates until @ready (@data) says so; fails the test after 60 s, naming @what. */
void       hr_test_wait_until          (HrTestBusyFunc  ready,
                                        gpointer        data,
                                        const char     *what);
/* Iterates until @widget is mapped and its window's layout has settled: frames drawn in a
 * row with every widget where the frame before left it (what a fixed wait only hopes for on
 * a loaded machine); fails the test after 60 s. Asks for the frames it watches. */
void       hr_test_wait_settled        (GtkWidget      *widget);
/* Until the Size view has recomputed everything. */
void       hr_test_wait_size_view      (HrSizeView     *view);
/* A new window of @app, presented, its Size view idle. */
HrWindow  *hr_test_window_open         (HrApplication  *app);
/* Destroys @window (any GtkWindow: a dialog too) and runs what that leaves pending. */
void       hr_test_window_close        (gpointer        window);
/* @root or the first widget under it (depth first) of @type, NULL when there is none. */
GtkWidget *hr_test_find_child_of_type  (GtkWidget      *root,
                                        GType           type);

G_END_DECLS
