/* test-load-window.c — the Size view's Throughput Under Load section (#28): shown with its
 * chart for vLLM, hidden for llama.cpp with one sequence, and no wider than 360 px */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "hr-test-window.h"
#include "hr-chart-widget.h"
#include "hr-size-view.h"

static HrApplication *app;

/* The load chart among the view's chart widgets. */
static HrChartWidget *
load_chart (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      HrChartWidget *found;

      if (HR_IS_CHART_WIDGET (c) && hr_chart_widget_get_kind (HR_CHART_WIDGET (c)) == HR_CHART_LOAD)
        return HR_CHART_WIDGET (c);
      if ((found = load_chart (c)) != NULL)
        return found;
    }
  return NULL;
}

static void
test_section (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  HrChartWidget *chart;
  const HrChartLoad *data;
  GtkWidget *group;
  int min_w;

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  g_object_set (session, "gpu", "h100-80gb-sxm", "gpus", 1, "model", "qwen3-8b", "quant", "BF16",
                "context", (gint64) 16384, "engine", "vllm", NULL);
  hr_test_wait_size_view (view);
  chart = load_chart (GTK_WIDGET (view));
  g_assert_nonnull (chart);
  group = gtk_widget_get_ancestor (GTK_WIDGET (chart), ADW_TYPE_PREFERENCES_GROUP);
  g_assert_true (gtk_widget_get_visible (group));
  data = hr_chart_widget_get_data (chart);
  g_assert_nonnull (data);
  g_assert_cmpint (data->n_points, >=, 2);
  g_assert_true (data->kv_bound);
  g_assert_cmpfloat (data->target_tps, ==, 20);
  g_assert_cmpint (data->target_users, >, 1);

  g_assert_true (hr_size_view_get_chart (view, HR_CHART_LOAD) == chart);
  /* exported like the others */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("headroom-load-XXXXXX", &error);
    g_autofree char *png = g_build_filename (dir, "load.png", NULL);
    g_autofree char *svg = g_build_filename (dir, "load.svg", NULL);

    g_assert_no_error (error);
    g_assert_true (hr_chart_widget_export (chart, png, 1200, 720, 1, &error));
    g_assert_no_error (error);
    g_assert_true (hr_chart_widget_export (chart, svg, 1200, 720, 1, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
    g_unlink (png);
    g_unlink (svg);
    g_rmdir (dir);
  }

  hr_test_wait_settled (GTK_WIDGET (view));
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_test_message ("Size view with the load section needs %d px", min_w);
  g_assert_cmpint (min_w, <=, 360);

  /* llama.cpp, one sequence: no load to show */
  g_object_set (session, "engine", "llama.cpp", "quant", "Q4_K_M", NULL);
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (group));
  hr_test_window_close (window);
}

int
main (int    argc,
      char **argv)
{
  app = hr_test_app_init (&argc, &argv);
  g_test_add_func ("/load-window/section", test_section);
  return g_test_run ();
}
