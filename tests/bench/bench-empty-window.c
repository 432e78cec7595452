/* bench-empty-window.c — bench-gui's reference: an empty AdwApplicationWindow
 *
 * The same application setup as Headroom (libadwaita's AdwApplication, default flags, a
 * 1280×800 window presented on activate) with nothing in the window, and the same hook as
 * src/gui/main.c: it prints "first-frame-us N" (the monotonic time of the window's first painted
 * frame) and quits.  bench-gui launches it alternately with headroom and reports the ratio of
 * their medians, which the machine's speed and load largely cancel out of.
 */
#include <adwaita.h>
#include <stdio.h>

static void
after_paint_cb (GdkFrameClock *clock,
                GApplication  *app)
{
  printf ("first-frame-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, app);
  g_application_quit (app);
}

static void
realize_cb (GtkWidget    *window,
            GApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (after_paint_cb), app);
}

static void
activate_cb (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect_after (window, "realize", G_CALLBACK (realize_cb), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.headroomapp.BenchEmptyWindow",
                                                       G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
