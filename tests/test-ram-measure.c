/* test-ram-measure.c — this computer's RAM bandwidth, measured in the background (under Xvfb)
 *
 * A fake machine whose CPU the bandwidth table does not know, no GPU: the app sizes against
 * its CPU and system RAM, whose bandwidth must be measured.  The first launch does not wait
 * for it (startup returns while it runs in a worker; the figure is unknown until then), the
 * estimate takes it when it is in, and Preferences' "Measure Again" measures once more in the
 * background with a spinner and the button insensitive meanwhile.  HEADROOM_RAM_MEASURE_MIB
 * lets the measurement run under the fake root (64 MiB).
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "hr-application.h"
#include "hr-preferences-window.h"
#include "hr-size-view.h"
#include "hr-test-machine.h"
#include "hr-test-window.h"
#include "hr-window.h"

static HrApplication *app;
static char *root;
static gboolean measuring_at_startup;
static gboolean unknown_at_startup;

static void
make_machine (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bin = NULL, *cache = NULL;

  root = g_dir_make_tmp ("headroom-ram-XXXXXX", &error);
  g_assert_no_error (error);
  hr_test_put (root, "proc/cpuinfo", "processor\t: 0\nmodel name\t: Mystery CPU 9000\n"
                                     "processor\t: 1\nmodel name\t: Mystery CPU 9000\n", 0644);
  hr_test_put (root, "proc/meminfo", "MemTotal:       16777216 kB\nMemAvailable:   15000000 kB\n", 0644);
  bin = g_build_filename (root, "bin", NULL);
  cache = g_build_filename (root, "cache", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  g_setenv ("HEADROOM_SYSROOT", root, TRUE);
  g_setenv ("PATH", bin, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("HEADROOM_RAM_MEASURE_MIB", "64", TRUE);
}

static char *
read_cache (void)
{
  g_autofree char *path = g_build_filename (root, "cache", "headroom", "ram-bandwidth", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static gboolean
measuring (gpointer data)
{
  return hr_application_get_measuring_ram (data);
}

/* measuring now, or done: the figure is in */
static gboolean
measuring_or_measured (gpointer data)
{
  return hr_application_get_measuring_ram (data) ||
         !isnan (hr_application_get_system (data)->ram_bandwidth_gbs);
}

static void
test_in_the_background (void)
{
  HrCatalog *catalog = hr_application_get_catalog (app);
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "this");
  HrWindow *window;
  HrSizeView *view;
  const HrScenario *s;
  g_autofree char *cache = NULL;
  g_auto(GStrv) lines = NULL;

  /* startup returned with the figure not known and the measurement not started: it waits for
   * the window's first frame, so that it does not slow the start-up down */
  g_assert_true (unknown_at_startup);
  g_assert_false (measuring_at_startup);
  g_assert_nonnull (gpu);
  g_assert_cmpint (gpu->backend, ==, HR_BACKEND_CPU);

  window = hr_test_window_open (app);
  hr_test_wait_until (measuring_or_measured, app, "the measurement to start after the first frame");
  view = hr_window_get_size_view (window);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, "this");
  hr_test_wait_while (measuring, app);
  hr_test_wait_size_view (view);

  /* the catalog's entry and the estimate have the measured figure */
  g_assert_cmpfloat (hr_application_get_system (app)->ram_bandwidth_gbs, >, 0.1);
  gpu = hr_catalog_find_gpu (catalog, "this");
  g_assert_cmpfloat (gpu->bandwidth_gbs, ==, hr_application_get_system (app)->ram_bandwidth_gbs);
  g_assert_cmpfloat (gpu->host_ram_gbs, ==, gpu->bandwidth_gbs);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpfloat (s->gpu->bandwidth_gbs, ==, gpu->bandwidth_gbs);
  g_assert_true (isfinite (hr_size_view_get_estimate (view)->decode_tps));

  /* cached with its date */
  cache = read_cache ();
  lines = g_strsplit (cache, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "Mystery CPU 9000|2|16384");
  g_assert_true (g_str_has_prefix (lines[2], "20"));
  g_assert_cmpint (hr_application_get_system (app)->ram_bandwidth_measured_at, >, 0);
  hr_test_window_close (window);
}

static void
test_measure_again (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autofree char *path = g_build_filename (root, "cache", "headroom", "ram-bandwidth", NULL);
  g_autofree char *cache = NULL;
  GtkWindow *prefs = NULL;
  GtkWidget *row, *button, *spinner;

  hr_test_wait_while (measuring, app);
  /* a figure from long ago: measuring again replaces it */
  g_assert_true (g_file_set_contents (path, "Mystery CPU 9000|2|16384\n1.5\n2020-01-01T00:00:00Z\n", -1, NULL));

  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  hr_test_flush ();
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (HR_IS_PREFERENCES_WINDOW (l->data))
      prefs = l->data;
  g_assert_nonnull (prefs);
  row = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (prefs), HR_TYPE_PREFERENCES_WINDOW, "ram_row"));
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (prefs), HR_TYPE_PREFERENCES_WINDOW, "ram_button"));
  spinner = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (prefs), HR_TYPE_PREFERENCES_WINDOW, "ram_spinner"));
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_get_sensitive (button));
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "GB/s, measured on "));

  /* while it runs: the spinner, the button insensitive, "Measuring…"; nothing waits */
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (hr_application_get_measuring_ram (app));
  g_assert_false (gtk_widget_get_sensitive (button));
  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Measuring…");
  /* a second click while it runs starts nothing */
  g_assert_false (hr_application_measure_ram (app));

  hr_test_wait_while (measuring, app);
  g_assert_true (gtk_widget_get_sensitive (button));
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "GB/s, measured on "));
  cache = read_cache ();
  g_assert_null (strstr (cache, "2020-01-01"));
  g_assert_null (strstr (cache, "\n1.5\n"));

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

int
main (int   argc,
      char *argv[])
{
  const char *argv_rm[] = { "/bin/rm", "-rf", NULL, NULL };
  int ret;

  make_machine ();
  app = hr_test_app_init (&argc, &argv);
  /* before the main loop ran once: the worker's answer cannot have been taken yet */
  measuring_at_startup = hr_application_get_measuring_ram (app);
  unknown_at_startup = isnan (hr_catalog_find_gpu (hr_application_get_catalog (app), "this")->bandwidth_gbs);

  g_test_add_func ("/ram-measure/in-the-background", test_in_the_background);
  g_test_add_func ("/ram-measure/measure-again", test_measure_again);
  ret = g_test_run ();

  g_object_unref (app);
  argv_rm[2] = root;
  g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (root);
  return ret;
}
