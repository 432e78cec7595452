/* test-this-computer-mixed.c — the app opens on every GPU of a mixed machine (#31, under Xvfb)
 *
 * A fake machine with an RTX 4090 and an RTX 3090 (a fake nvidia-smi first on PATH): on the
 * first launch the Size view sizes against "This computer" (the 3090: of two kinds of one card
 * each, the one with more memory, 24576 MiB against 24564) with the 4090 beside it, llama.cpp's
 * split over both; the breakdown chart draws a bar for each.  Choosing another GPU and then
 * "This computer" again brings the 4090 back.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "hr-application.h"
#include "hr-chart-data.h"
#include "hr-chart-widget.h"
#include "hr-picker.h"
#include "hr-session.h"
#include "hr-size-view.h"
#include "hr-test-machine.h"
#include "hr-test-window.h"
#include "hr-window.h"

static HrApplication *app;
static char *root;

static void
make_machine (void)
{
  root = hr_test_gpu_machine ("headroom-mixed", "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n"
                                                 "1, NVIDIA GeForce RTX 3090, 0x220410DE, 24576, 8\\n");
}

static void
test_opens_on_both (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  const HrChartBreakdown *chart;
  const HrScenario *s;

  hr_test_wait_size_view (view);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpstr (s->gpu->id, ==, "this");
  g_assert_cmpstr (s->gpu->name, ==, "RTX 3090 24GB");
  g_assert_cmpint (s->n_kinds, ==, 2);
  g_assert_cmpstr (s->kinds[1].gpu->id, ==, "rtx-4090-24gb");
  g_assert_cmpint (s->kinds[1].count, ==, 1);
  g_assert_cmpint (s->n_gpus, ==, 2);
  chart = hr_chart_widget_get_data (hr_size_view_get_chart (view, HR_CHART_BREAKDOWN));
  g_assert_nonnull (chart);
  g_assert_cmpint (chart->n_devices, ==, 2);
  g_assert_cmpstr (chart->devices[1].label, ==, "RTX 4090 24GB");

  /* another GPU alone, then this computer again: both again */
  g_object_set (hr_size_view_get_session (view), "extra-gpus", (const char * const []) { NULL }, NULL);
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "a100-80gb-sxm"));
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->n_kinds, ==, 0);
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "this"));
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->n_kinds, ==, 2);
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

  g_test_add_func ("/this-computer/mixed", test_opens_on_both);
  ret = g_test_run ();

  g_object_unref (app);
  argv_rm[2] = root;
  g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (root);
  return ret;
}
