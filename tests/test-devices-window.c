/* test-devices-window.c — a mixed setup in the Size view under Xvfb (#31): "Add Another GPU"
 * adds an entry of its own, the RTX 4090 + RTX 3090 setup shows the Placement card with a row
 * per device and one bar per device in the breakdown, the entry is removed, the view still
 * fits 360 px, and vLLM's refusal reaches the banner.
 *
 * With HEADROOM_SHOT_DIR set it also captures the screen (ImageMagick's import) as
 * devices.png at 1280×800 and devices-narrow.png at 360 px, for the README. */
#include <string.h>

#include "hr-test-window.h"
#include "hr-chart-widget.h"
#include "hr-device-rows.h"
#include "hr-placement-card.h"
#include "hr-size-view.h"
#include "hr-verdict-banner.h"

static HrApplication *app;

static void
capture (HrWindow   *window,
         const char *name)
{
  const char *dir = g_getenv ("HEADROOM_SHOT_DIR");
  g_autofree char *path = NULL;
  g_autofree char *geometry = NULL;
  g_autofree char *cmd = NULL;

  if (dir == NULL)
    return;
  hr_test_spin (800);
  path = g_build_filename (dir, name, NULL);
  geometry = g_strdup_printf ("%dx%d+0+0", gtk_widget_get_width (GTK_WIDGET (window)),
                              gtk_widget_get_height (GTK_WIDGET (window)));
  cmd = g_strdup_printf ("sh -c 'import -window root -crop %s +repage %s'", geometry, path);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  g_test_message ("captured %s", path);
}

static GtkWidget *
find (HrWindow *window,
      GType     type)
{
  GtkWidget *w = hr_test_find_child_of_type (GTK_WIDGET (hr_window_get_size_view (window)), type);

  g_assert_nonnull (w);
  return w;
}

static void
test_add_and_remove (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  HrDeviceRows *rows = HR_DEVICE_ROWS (find (window, HR_TYPE_DEVICE_ROWS));
  HrPlacementCard *card = HR_PLACEMENT_CARD (find (window, HR_TYPE_PLACEMENT_CARD));
  int min_w;

  g_object_set (session, "model", "llama-3.3-70b", "gpu", "rtx-4090-24gb", "gpus", 1, "engine", "llama.cpp", NULL);
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpuint (hr_device_rows_get_n_rows (rows), ==, 0);

  /* the button adds an entry with a GPU of its own, not the first one */
  g_signal_emit_by_name (hr_device_rows_get_add_button (rows), "clicked");
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_device_rows_get_n_rows (rows), ==, 1);
  g_assert_cmpuint (hr_session_get_n_extra_gpus (session), ==, 1);
  g_assert_cmpstr (hr_session_get_extra_gpu (session, 0, NULL), !=, "rtx-4090-24gb");

  /* the RTX 3090 as the second GPU: two rows in the Placement card */
  hr_session_set_extra_gpu (session, 0, "rtx-3090-24gb", 1);
  hr_test_wait_size_view (view);
  g_assert_true (hr_scenario_is_mixed (hr_session_get_scenario (session)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpuint (hr_placement_card_get_n_rows (card), ==, 2);
  {
    /* the breakdown chart: a bar per device, each with its own usable line */
    HrChartWidget *chart = HR_CHART_WIDGET (find (window, HR_TYPE_CHART_WIDGET));
    const HrChartBreakdown *b = hr_chart_widget_get_data (chart);

    g_assert_nonnull (b);
    g_assert_cmpint (b->n_devices, ==, 2);
    g_assert_cmpfloat (b->devices[0].usable_gib, >, 0);
    g_assert_cmpfloat (b->devices[1].usable_gib, >, 0);
  }
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  hr_test_wait_settled (GTK_WIDGET (view));
  capture (window, "devices.png");
  if (g_getenv ("HEADROOM_SHOT_DIR") != NULL)
    {
      GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (card), GTK_TYPE_SCROLLED_WINDOW);

      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 500);
      capture (window, "devices-chart.png");
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 1300);
      capture (window, "devices-below.png");
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 0);
    }

  /* 360 px: the entry and the card wrap */
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  hr_test_wait_settled (GTK_WIDGET (view));
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_test_message ("the Size view with two GPUs needs %d px", min_w);
  g_assert_cmpint (min_w, <=, 360);
  capture (window, "devices-narrow.png");
  {
    /* the sidebar over the results, as the header's button shows it: the other GPU's entry fits */
    AdwFlap *flap = ADW_FLAP (find (window, ADW_TYPE_FLAP));
    GtkWidget *sidebar = adw_flap_get_flap (flap);

    adw_flap_set_reveal_flap (flap, TRUE);
    hr_test_wait_settled (GTK_WIDGET (view));
    gtk_widget_measure (GTK_WIDGET (rows), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
    g_test_message ("the other GPU's entry needs %d px", min_w);
    g_assert_cmpint (min_w, <=, 336);
    gtk_widget_measure (sidebar, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
    g_assert_cmpint (min_w, <=, 360);
    capture (window, "devices-narrow-sidebar.png");
    adw_flap_set_reveal_flap (flap, FALSE);
    hr_test_wait_settled (GTK_WIDGET (view));
  }

  /* removed: one GPU again, no card */
  g_signal_emit_by_name (hr_device_rows_get_remove_button (rows, 0), "clicked");
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_device_rows_get_n_rows (rows), ==, 0);
  g_assert_cmpuint (hr_session_get_n_extra_gpus (session), ==, 0);
  g_assert_false (hr_scenario_is_mixed (hr_session_get_scenario (session)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (card)));

  /* a pick (Best single GPU…) is the whole hardware: the other GPUs go */
  hr_session_add_extra_gpu (session, "rtx-3090-24gb", 1);
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_device_rows_get_n_rows (rows), ==, 1);
  g_assert_true (hr_size_view_select_gpu (view, "rtx-4090-24gb", 2));
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_session_get_n_extra_gpus (session), ==, 0);
  g_assert_cmpuint (hr_device_rows_get_n_rows (rows), ==, 0);
  hr_test_window_close (window);
}

/* vLLM cannot run a GPU beside a machine whose memory is the system's: the banner says so,
 * the card is gone, no crash; beside another GPU it runs pipeline stages, which the card
 * shows */
static void
test_vllm_refusal (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  HrPlacementCard *card = HR_PLACEMENT_CARD (find (window, HR_TYPE_PLACEMENT_CARD));
  const char *const extra[] = { "dgx-spark-128gb:1", NULL };
  const char *const stages[] = { "rtx-3090-24gb:1", NULL };

  g_object_set (session, "model", "qwen3-8b", "gpu", "rtx-4090-24gb", "gpus", 1,
                "extra-gpus", stages, "engine", "vllm", NULL);
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpuint (hr_placement_card_get_n_rows (card), ==, 2);
  capture (window, "devices-vllm-stages.png");

  g_object_set (session, "model", "llama-3.3-70b", "extra-gpus", extra, NULL);
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpstr (hr_verdict_banner_get_title (HR_VERDICT_BANNER (find (window, HR_TYPE_VERDICT_BANNER))), !=, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  hr_test_wait_settled (GTK_WIDGET (view));
  capture (window, "devices-vllm.png");
  if (g_getenv ("HEADROOM_SHOT_DIR") != NULL)
    {
      /* the matrix and the advice under the charts, to look at */
      GtkWidget *card_w = GTK_WIDGET (find (window, HR_TYPE_PLACEMENT_CARD));
      GtkWidget *scroller = gtk_widget_get_ancestor (card_w, GTK_TYPE_SCROLLED_WINDOW);
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

      gtk_adjustment_set_value (adj, 1000);
      capture (window, "devices-vllm-below.png");
    }
  /* llama.cpp leaves an integrated GPU beside a discrete one out: the card says so, no rows */
  g_object_set (session, "model", "qwen3-14b", "gpu", "rtx-4060-ti-16gb", "engine", "llama.cpp",
                "extra-gpus", (const char *const[]) { "ryzen-ai-max-395-128gb:1", NULL }, NULL);
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpuint (hr_placement_card_get_n_rows (card), ==, 0);
  if (g_getenv ("HEADROOM_SHOT_DIR") != NULL)
    {
      GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (card), GTK_TYPE_SCROLLED_WINDOW);
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
      graphene_rect_t r;

      if (gtk_widget_compute_bounds (GTK_WIDGET (card), gtk_widget_get_parent (GTK_WIDGET (card)), &r))
        gtk_adjustment_set_value (adj, MAX (r.origin.y - 400, 0));
      hr_test_wait_settled (GTK_WIDGET (view));
    }
  capture (window, "devices-left-out.png");

  g_object_set (session, "engine", "llama.cpp", "extra-gpus", (const char *const[]) { NULL }, NULL);
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

/* An RTX 4090 + RTX 3060 does not hold Llama 3.3 70B Q4_K_M: the card shows what each
 * device would need and the devices that overflow */
static void
test_does_not_fit (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_size_view_get_session (view);
  HrPlacementCard *card = HR_PLACEMENT_CARD (find (window, HR_TYPE_PLACEMENT_CARD));
  const char *const extra[] = { "rtx-3060-12gb:1", NULL };

  g_object_set (session, "model", "llama-3.3-70b", "gpu", "rtx-4090-24gb", "gpus", 1,
                "extra-gpus", extra, "engine", "llama.cpp", "offload", 0.0, NULL);
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (card)));
  g_assert_cmpuint (hr_placement_card_get_n_rows (card), ==, 2);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  hr_test_wait_settled (GTK_WIDGET (view));
  capture (window, "devices-3060.png");
  if (g_getenv ("HEADROOM_SHOT_DIR") != NULL)
    {
      GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (card), GTK_TYPE_SCROLLED_WINDOW);

      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 450);
      capture (window, "devices-3060-card.png");
    }

  /* the placement search's row at 360 px */
  {
    int min_w;

    gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
    hr_test_wait_settled (GTK_WIDGET (view));
    gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
    g_assert_cmpint (min_w, <=, 360);
  }

  /* the placement search's answer, applied: layers in system RAM, and it fits */
  {
    double offload = -1;
    int n_cpu_moe = -1;
    g_autofree HrEstimate *e = g_new0 (HrEstimate, 1);

    hr_placement_card_get_search (card, &offload, &n_cpu_moe);
    g_assert_cmpfloat (offload, >, 0);
    g_signal_emit_by_name (card, "apply-search");
    hr_test_wait_size_view (view);
    g_object_get (session, "offload", &offload, NULL);
    g_assert_cmpfloat (offload, >, 0);
    g_assert_true (hr_estimate_compute (hr_session_get_scenario (session), NULL, e, NULL));
    g_assert_cmpint (e->verdict, !=, HR_VERDICT_EXCEEDS);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (card)));
    capture (window, "devices-3060-applied.png");
    g_object_set (session, "offload", 0.0, NULL);
  }
  g_object_set (session, "extra-gpus", (const char *const[]) { NULL }, NULL);
  hr_test_wait_size_view (view);
  hr_test_window_close (window);
}

int
main (int   argc,
      char *argv[])
{
  app = hr_test_app_init (&argc, &argv);
  if (g_getenv ("HEADROOM_SHOT_DIR") != NULL)
    {
      /* the README's picture: no price refresh, and so no toast over it */
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      g_settings_set_strv (settings, "catalog-clouds", (const char * const[]) { NULL });
    }
  g_test_add_func ("/devices-window/add-and-remove", test_add_and_remove);
  g_test_add_func ("/devices-window/vllm-refusal", test_vllm_refusal);
  g_test_add_func ("/devices-window/does-not-fit", test_does_not_fit);
  return g_test_run ();
}
