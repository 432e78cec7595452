/* main.c — the headroom desktop application */
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "hr-application.h"

/* HEADROOM_BENCH_FIRST_FRAME=1 (tests/bench/bench-gui.c): print the monotonic time of the first
 * window's first painted frame ("first-frame-us N", comparable across processes) and quit.
 * Only the binary has this hook; the application and its tests know nothing of it. */
static void
bench_after_paint_cb (GdkFrameClock *clock,
                      GApplication  *app)
{
  printf ("first-frame-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, bench_after_paint_cb, app);
  g_application_quit (app);
}

static void
bench_window_realize_cb (GtkWidget    *window,
                         GApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (bench_after_paint_cb), app);
}

static void
bench_window_added_cb (GtkApplication *app,
                       GtkWindow      *window)
{
  g_signal_handlers_disconnect_by_func (app, bench_window_added_cb, NULL);
  g_signal_connect_after (window, "realize", G_CALLBACK (bench_window_realize_cb), app);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* HEADROOM_LOCALEDIR lets tests and uninstalled runs use the build tree's catalogs */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("HEADROOM_LOCALEDIR") ? g_getenv ("HEADROOM_LOCALEDIR")
                                                                   : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = hr_application_new ();
  if (g_getenv ("HEADROOM_BENCH_FIRST_FRAME") != NULL)
    g_signal_connect (app, "window-added", G_CALLBACK (bench_window_added_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
