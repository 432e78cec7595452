/* test-cloud-window.c — the Cloud & TCO view and the pricing refresh, under Xvfb
 *
 * A local SoupServer on 127.0.0.1 in its own thread (hr-test-server.c) plays
 * the pricing feed.  XDG_CACHE_HOME is a temporary directory, so the cache the application
 * writes is this test's.  Run through `xvfb-run -a` with GTK_A11Y=none,
 * GSETTINGS_BACKEND=memory and GSETTINGS_SCHEMA_DIR=<build>/data (tests/meson.build).
 */
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>
#include <utime.h>

#include "hr-advice.h"
#include "hr-application.h"
#include "hr-cloud-view.h"
#include "hr-pricing-client.h"
#include "hr-pricing-manager.h"
#include "hr-scenario-state.h"
#include "hr-test-server.h"
#include "hr-test-window.h"
#include "hr-window.h"

#define FEED_HEAD "{\"schema\": 1, \"updated\": \"2026-12-01\", \"currency\": \"USD\", \"offers\": ["

/* A new date, an offer of the Size view's own GPU (so its cost card changes), one that fits,
 * one too small, and one bad offer that is skipped. */
#define GOOD_FEED FEED_HEAD \
  "{\"provider\": \"TestCloud\", \"gpu_id\": \"rtx-pro-6000-blackwell-96gb\", " \
  "\"gpu\": \"RTX PRO 6000 Blackwell 96GB\", \"count\": 1, \"vram_gb\": 96, \"usd_per_hour\": 0.5, " \
  "\"billing\": \"per-second\", \"tier\": \"Test tier\", \"url\": \"https://example.com/pricing\"}, " \
  "{\"provider\": \"RunPod\", \"gpu_id\": \"a100-80gb-sxm\", \"gpu\": \"A100 80GB SXM\", \"count\": 1, " \
  "\"vram_gb\": 80, \"usd_per_hour\": 1.19, \"billing\": \"per-second\", \"url\": \"https://www.runpod.io/pricing\"}, " \
  "{\"provider\": \"Tiny\", \"gpu_id\": \"rtx-4090-24gb\", \"gpu\": \"RTX 4090 24GB\", \"count\": 1, " \
  "\"vram_gb\": 24, \"usd_per_hour\": 0.3, \"billing\": \"per-hour\"}, " \
  "{\"provider\": \"Evil\", \"gpu\": \"A100\", \"count\": 0, \"vram_gb\": 80, \"usd_per_hour\": 1}]}"

static HrTestServer *server;

static HrApplication *app;
static char *cache_home;

/* "Prices from SkyPilot catalog, <today>": what the catalog files this server serves say */
static char *
catalog_source_today (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");

  return g_strdup_printf ("Prices from SkyPilot catalog, %s", today);
}

/* Server thread ------------------------------------------------------------------------------ */

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *body)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body != NULL)
    soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  if (g_str_has_prefix (path, "/v7/runpod/") || g_str_has_prefix (path, "/v7/lambda/"))
    {
      g_autofree char *cloud = g_strndup (path + 4, strchr (path + 4, '/') - (path + 4));
      g_autofree char *file = g_test_build_filename (G_TEST_DIST, "fixtures", "skypilot", cloud, "vms.csv", NULL);
      char *text = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (file, &text, &length, NULL));
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/csv", SOUP_MEMORY_TAKE, text, length);
    }
  else if (g_str_equal (path, "/good"))
    respond (msg, SOUP_STATUS_OK, GOOD_FEED);
  else if (g_str_equal (path, "/500"))
    respond (msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
  else if (g_str_equal (path, "/malformed"))
    respond (msg, SOUP_STATUS_OK, "{\"schema\": 1, \"updated\": \"2026-12-01\", \"offers\": [{");
  else if (g_str_equal (path, "/schema"))
    respond (msg, SOUP_STATUS_OK, "{\"schema\": 2, \"updated\": \"2026-12-01\", \"offers\": []}");
  else
    respond (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

/* Helpers ------------------------------------------------------------------------------------ */

/* The Size view or the pricing still working: hr_test_wait_while() waits for both. */
static gboolean
view_or_prices_busy (gpointer view)
{
  return hr_size_view_is_busy (view) || hr_pricing_manager_get_busy (hr_application_get_pricing_manager (app));
}

static void
wait_idle (HrSizeView *view)
{
  hr_test_wait_while (view_or_prices_busy, view);
}

static HrWindow *
open_window (HrCloudView **cloud)
{
  HrWindow *window = hr_test_window_open (app);

  wait_idle (hr_window_get_size_view (window));
  g_assert_true (hr_window_set_visible_view (window, "cloud"));
  wait_idle (hr_window_get_size_view (window));
  *cloud = HR_CLOUD_VIEW (hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_CLOUD_VIEW));
  g_assert_nonnull (*cloud);
  g_assert_nonnull (gtk_widget_get_ancestor (GTK_WIDGET (*cloud), ADW_TYPE_TOAST_OVERLAY));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (*cloud)));
  return window;
}

static void
refresh_from (const char *path)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *url = path ? hr_test_server_url_for (server, path) : g_strdup ("");

  g_settings_set_string (settings, "pricing-url", url);
  g_action_group_activate_action (G_ACTION_GROUP (app), "refresh-prices", NULL);
}

/* The Size view's cost card, recomputed from the core with the catalog's current prices. */
static char *
expected_cost_card (HrSizeView *view)
{
  HrCatalog *catalog = hr_size_view_get_catalog (view);
  const HrScenario *s = hr_size_view_get_scenario (view);
  g_auto(HrSizeState) st;
  HrEstimate e;

  g_assert_nonnull (s);
  g_assert_true (hr_estimate_compute (s, hr_catalog_get_pricing (catalog), &e, NULL));
  hr_advice_fill_cost (s, catalog, hr_catalog_get_pricing (catalog), &e);
  hr_size_state_init (&st);
  hr_size_state_from_estimate (&st, s, &e);
  return g_strdup (st.cards[HR_SIZE_CARD_COST].value);
}

static char *
cache_path (void)
{
  return g_build_filename (cache_home, "headroom", "pricing.json", NULL);
}

static gboolean
has_provider (HrCloudView *cloud,
              const char  *provider)
{
  const HrCloudState *st = hr_cloud_view_get_state (cloud);

  for (guint i = 0; i < st->offers->len; i++)
    if (g_str_equal (((HrCloudOffer *) g_ptr_array_index (st->offers, i))->provider, provider))
      return TRUE;
  return FALSE;
}

static int
find_row (HrCloudView *cloud,
          const char  *provider,
          double       usd_per_hour)
{
  const HrCloudState *st = hr_cloud_view_get_state (cloud);

  for (guint i = 0; i < st->offers->len; i++)
    {
      const HrCloudOffer *o = g_ptr_array_index (st->offers, i);
      if (g_str_equal (o->provider, provider) && fabs (o->usd_per_hour - usd_per_hour) < 1e-9)
        return (int) i;
    }
  return -1;
}

/* The temporary cache home and whatever went into it (the cache, Mesa's shader cache…). */
static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

/* Tests --------------------------------------------------------------------------------------- */

/* On a fresh install the catalog is fetched at start-up (from this test's server: RunPod and
 * Lambda, spot prices); its table and the seed pages' rent-versus-buy figures, whose RunPod
 * $1.19/h is RunPod's spot price for one A100 80GB in the catalog. */
static void
test_bundled (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const HrCloudState *st = hr_cloud_view_get_state (cloud);
  g_autofree char *subtitle = g_strdup (st->subtitle);
  g_autofree char *source = catalog_source_today ();
  const HrTcoState *tco;
  const HrChartTco *chart;
  int runpod;

  g_assert_cmpstr (hr_cloud_view_get_source_text (cloud), ==, source);
  g_assert_nonnull (st);
  g_assert_cmpuint (st->offers->len, ==, 2);   /* RunPod's 1x and 8x A100 80GB have spot prices */
  g_assert_cmpuint (hr_cloud_view_get_n_rows (cloud), ==, st->offers->len);
  /* the cheapest is chosen at first */
  g_assert_cmpint (hr_cloud_view_get_selected (cloud), ==, 0);
  g_assert_cmpstr (hr_cloud_view_get_buy (cloud)->gpu_id, ==, "rtx-pro-6000-blackwell-96gb");
  g_assert_cmpfloat (gtk_adjustment_get_value (hr_cloud_view_get_power_adjustment (cloud)), ==, 600);
  g_assert_cmpfloat (gtk_adjustment_get_value (hr_cloud_view_get_budget_adjustment (cloud)), ==,
                     hr_cloud_view_get_buy (cloud)->price_usd);

  /* the seed pages: RunPod at $1.19/h against $8,500 and 600 W, 4 h a day at $0.175/kWh */
  runpod = find_row (cloud, "RunPod", 1.19);
  g_assert_cmpint (runpod, >=, 0);
  g_assert_true (hr_cloud_view_select_offer (cloud, runpod));
  g_assert_cmpint (hr_cloud_view_get_selected (cloud), ==, runpod);
  gtk_adjustment_set_value (hr_cloud_view_get_budget_adjustment (cloud), 8500);
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpfloat (g_settings_get_double (settings, "hardware-budget"), ==, 8500);
  tco = hr_cloud_view_get_tco (cloud);
  g_assert_cmpstr (tco->cloud_monthly, ==, "$144.70/month");
  g_assert_cmpstr (tco->electricity_monthly, ==, "$12.77/month");
  g_assert_cmpstr (hr_cloud_view_get_payback_text (cloud), ==, "~64.4 months");
  chart = hr_chart_widget_get_data (hr_cloud_view_get_chart (cloud));
  g_assert_nonnull (chart);
  g_assert_cmpfloat_with_epsilon (chart->break_even_month, tco->result.months_to_amortise, 1e-9);
  g_assert_cmpfloat_with_epsilon (chart->hardware_usd, 8500, 1e-9);

  /* hours per day change the table's monthly column and the answer */
  g_settings_set_double (settings, "hours-per-day", 8);
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpstr (((HrCloudOffer *) g_ptr_array_index (hr_cloud_view_get_state (cloud)->offers, runpod))->monthly,
                   ==, "$289.41/month");
  g_assert_cmpstr (hr_cloud_view_get_tco (cloud)->cloud_monthly, ==, "$289.41/month");
  g_settings_reset (settings, "hours-per-day");

  /* back to the recommended hardware's price */
  g_settings_reset (settings, "hardware-budget");
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpfloat (gtk_adjustment_get_value (hr_cloud_view_get_budget_adjustment (cloud)), ==,
                     hr_cloud_view_get_buy (cloud)->price_usd);

  /* a scenario change in the Size view reaches the table: nothing fits a 4090 */
  g_assert_true (hr_size_view_select_gpu (hr_window_get_size_view (window), "rtx-4090-24gb", 1));
  g_assert_true (hr_size_view_select_quant (hr_window_get_size_view (window), "Q8_0"));
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpstr (hr_cloud_view_get_state (cloud)->subtitle, !=, subtitle);
  g_assert_nonnull (strstr (hr_cloud_view_get_state (cloud)->subtitle, "Q8_0"));
  g_settings_reset (settings, "gpu");
  g_settings_reset (settings, "quant");
  wait_idle (hr_window_get_size_view (window));
  hr_test_window_close (window);
}

/* Every label under @widget that is shown with "…" in place of part of its text. */
static guint
count_ellipsized (GtkWidget *widget)
{
  guint n = 0;

  if (!gtk_widget_get_mapped (widget))
    return 0;
  if (GTK_IS_LABEL (widget) && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    {
      g_test_message ("cut: “%s”", gtk_label_get_label (GTK_LABEL (widget)));
      n++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_ellipsized (c);
  return n;
}

/* Whether a label under @widget shows @text whole. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && g_str_equal (gtk_label_get_label (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_label (c, text))
      return TRUE;
  return FALSE;
}

typedef struct {
  GtkWidget *window;
  int width;
} Width;

static gboolean
has_width (gpointer data)
{
  Width *w = data;

  /* ask for the frame that lays the window out at its new size */
  gtk_widget_queue_resize (w->window);
  return ABS (gtk_widget_get_width (w->window) - w->width) <= 20;
}

static gboolean
is_stacked (gpointer cloud)
{
  return hr_cloud_view_get_stacked (cloud);
}

static gboolean
is_table (gpointer cloud)
{
  return !hr_cloud_view_get_stacked (cloud);
}

/* Resizes @window and waits until it has the new width, the offers their layout for it (the
 * window restacks in an idle after the allocation that crossed its narrow width) and the
 * layout has settled. */
static void
resize (HrWindow    *window,
        int          width,
        int          height,
        HrCloudView *cloud)
{
  Width w = { GTK_WIDGET (window), width };

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  hr_test_wait_until (has_width, &w, "the window's new width");
  hr_test_wait_until (width < 800 ? is_stacked : is_table, cloud, "the offers' layout for the new width");
  hr_test_wait_settled (GTK_WIDGET (cloud));
}

/* #26 item 4: at 360 px each offer reads as a whole — "Provider · instance" on one line, its
 * terms and cost per 1M tokens under it, nothing cut to "…" — and the view still fits; a wide
 * window keeps the table (its header row), and back. */
static void
test_narrow (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  GtkWidget *list = hr_cloud_view_get_offers_list (cloud);
  const HrCloudOffer *first;
  g_autofree char *title = NULL;
  int min_w;

  resize (window, 360, 740, cloud);
  g_assert_true (hr_cloud_view_get_stacked (cloud));
  first = g_ptr_array_index (hr_cloud_view_get_state (cloud)->offers, 0);
  title = g_strdup_printf ("%s · %s", first->provider, first->instance);
  g_assert_true (shows_label (list, title));
  g_assert_cmpuint (count_ellipsized (list), ==, 0);
  /* no header row: one row per offer */
  g_assert_cmpuint (hr_cloud_view_get_n_rows (cloud), ==, hr_cloud_view_get_state (cloud)->offers->len);
  g_assert_false (shows_label (list, "Provider"));
  gtk_widget_measure (GTK_WIDGET (cloud), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_test_message ("Cloud & TCO needs %d px", min_w);
  g_assert_cmpint (min_w, <=, 360);
  g_assert_cmpint (gtk_widget_get_width (list), <=, 360);

  resize (window, 1200, 760, cloud);
  g_assert_false (hr_cloud_view_get_stacked (cloud));
  g_assert_true (shows_label (list, "Provider"));
  g_assert_true (shows_label (list, first->provider));
  g_assert_cmpuint (count_ellipsized (list), ==, 0);

  resize (window, 360, 740, cloud);
  g_assert_true (hr_cloud_view_get_stacked (cloud));
  g_assert_true (shows_label (list, title));
  hr_test_window_close (window);
}

static gboolean
sorted_by (HrCloudView *cloud,
           HrCloudSort  sort)
{
  const HrCloudState *st = hr_cloud_view_get_state (cloud);

  for (guint i = 1; i < st->offers->len; i++)
    {
      const HrCloudOffer *a = g_ptr_array_index (st->offers, i - 1);
      const HrCloudOffer *b = g_ptr_array_index (st->offers, i);
      double ca = isfinite (a->cost_per_mtok_usd) ? a->cost_per_mtok_usd : INFINITY;
      double cb = isfinite (b->cost_per_mtok_usd) ? b->cost_per_mtok_usd : INFINITY;

      if (sort == HR_CLOUD_SORT_PER_MTOK ? ca > cb : a->usd_per_hour > b->usd_per_hour)
        return FALSE;
    }
  return TRUE;
}

/* #26 item 7: the table sorts by cost per 1M tokens (the header's menu, kept in the settings). */
static void
test_sort (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkDropDown *sort;

  refresh_from ("/good");
  wait_idle (hr_window_get_size_view (window));
  sort = GTK_DROP_DOWN (hr_test_find_child_of_type (GTK_WIDGET (cloud), GTK_TYPE_DROP_DOWN));
  g_assert_nonnull (sort);
  g_assert_cmpuint (hr_cloud_view_get_state (cloud)->offers->len, >=, 3);
  g_assert_cmpint (hr_cloud_view_get_state (cloud)->sort, ==, HR_CLOUD_SORT_HOURLY);
  g_assert_true (sorted_by (cloud, HR_CLOUD_SORT_HOURLY));

  gtk_drop_down_set_selected (sort, 1);
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpstr (g_settings_get_string (settings, "cloud-sort"), ==, "per-mtok");
  g_assert_cmpint (hr_cloud_view_get_state (cloud)->sort, ==, HR_CLOUD_SORT_PER_MTOK);
  g_assert_true (sorted_by (cloud, HR_CLOUD_SORT_PER_MTOK));

  g_settings_reset (settings, "cloud-sort");
  wait_idle (hr_window_get_size_view (window));
  g_assert_cmpuint (gtk_drop_down_get_selected (sort), ==, 0);
  g_assert_true (sorted_by (cloud, HR_CLOUD_SORT_HOURLY));
  refresh_from (NULL);
  wait_idle (hr_window_get_size_view (window));
  hr_test_window_close (window);
}

/* 500, malformed, wrong schema, no feed set: a toast each, the prices and the cache stay. */
static void
test_refresh_failures (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autofree char *card = g_strdup (hr_size_view_get_card_text (size, HR_SIZE_CARD_COST));
  g_autofree char *source = g_strdup (hr_cloud_view_get_source_text (cloud));
  g_autofree char *path = cache_path ();
  const char *paths[] = { "/500", "/malformed", "/schema", "/missing" };
  const char *words[] = { "HTTP 500", "not valid JSON", "schema", "HTTP 404" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      refresh_from (paths[i]);
      g_assert_true (hr_pricing_manager_get_busy (hr_application_get_pricing_manager (app)));
      wait_idle (size);
      g_test_message ("%s: %s", paths[i], hr_cloud_view_get_last_toast (cloud));
      g_assert_nonnull (hr_cloud_view_get_last_toast (cloud));
      /* a few words in the toast (#26: it must fit 360 px), the reason in its Details */
      g_assert_cmpstr (hr_cloud_view_get_last_toast (cloud), ==, "Prices could not be refreshed");
      g_assert_nonnull (hr_cloud_view_get_last_details (cloud));
      g_assert_nonnull (strstr (hr_cloud_view_get_last_details (cloud), words[i]));
      g_assert_cmpstr (hr_cloud_view_get_source_text (cloud), ==, source);
      g_assert_cmpstr (hr_size_view_get_card_text (size, HR_SIZE_CARD_COST), ==, card);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }

  /* no feed: the catalog alone, which refreshes (#18: Refresh Prices worked only with a feed) */
  refresh_from (NULL);
  wait_idle (size);
  g_assert_true (g_str_has_prefix (hr_cloud_view_get_last_toast (cloud), "Prices updated: 2 offers verified "));
  g_assert_cmpstr (hr_cloud_view_get_source_text (cloud), ==, source);
  hr_test_window_close (window);
}

/* One cloud fails (gcp: 404): one toast names it with its reason; the Details say more than the
 * toast — what was updated, and what is in use. */
static void
test_refresh_partial (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *clouds[] = { "gcp", "lambda", "runpod", NULL };
  const char *details;

  g_settings_set_strv (settings, "catalog-clouds", clouds);
  refresh_from (NULL);
  wait_idle (size);
  g_assert_cmpstr (hr_cloud_view_get_last_toast (cloud), ==, "Prices could not be refreshed");
  details = hr_cloud_view_get_last_details (cloud);
  g_assert_nonnull (details);
  g_assert_nonnull (strstr (details, "Google Cloud: "));
  g_assert_nonnull (strstr (details, "HTTP 404"));
  g_assert_nonnull (strstr (details, "Updated: Lambda, RunPod"));
  /* Google Cloud has nothing saved and nothing bundled: it is left out, and said so */
  g_assert_nonnull (strstr (details, "\nNot updated and left out of the offers, as no prices were saved or bundled:\n"
                                     "Google Cloud: "));
  g_assert_null (strstr (details, "last good prices"));
  g_assert_nonnull (strstr (details, "In use: Prices from SkyPilot catalog, "));
  /* the others still updated: RunPod's rows are there */
  g_assert_true (has_provider (cloud, "RunPod"));
  g_settings_set_strv (settings, "catalog-clouds", clouds + 1);
  hr_test_window_close (window);
}

/* Every cloud fails (the server is down): each is named with what it is priced with now —
 * Lambda and RunPod their saved prices, AWS its bundled ones, Google Cloud nothing (left out). */
static void
test_refresh_fallbacks (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strdup (g_getenv ("HEADROOM_CATALOG_BASE"));
  g_autofree char *gone = hr_test_server_url_for (server, "/gone");
  const char *clouds[] = { "aws", "gcp", "lambda", "runpod", NULL };
  const char *details;

  g_settings_set_strv (settings, "catalog-clouds", clouds);
  g_setenv ("HEADROOM_CATALOG_BASE", gone, TRUE);
  refresh_from (NULL);
  wait_idle (size);
  g_assert_cmpstr (hr_cloud_view_get_last_toast (cloud), ==, "Prices could not be refreshed");
  details = hr_cloud_view_get_last_details (cloud);
  g_assert_nonnull (strstr (details, "\nNot updated, the prices saved before stay in use:\nLambda: "));
  g_assert_nonnull (strstr (details, "\nRunPod: "));
  g_assert_nonnull (strstr (details, "\nNot updated, the prices bundled with Headroom are in use:\nAWS: "));
  g_assert_nonnull (strstr (details, "\nNot updated and left out of the offers, as no prices were saved or bundled:\n"
                                     "Google Cloud: "));
  g_assert_true (has_provider (cloud, "RunPod"));
  g_assert_false (has_provider (cloud, "Google Cloud"));

  g_setenv ("HEADROOM_CATALOG_BASE", base, TRUE);
  g_settings_set_strv (settings, "catalog-clouds", clouds + 2);
  hr_test_window_close (window);
}

static gboolean
dialog_laid_out (gpointer dialog)
{
  return gtk_widget_get_mapped (dialog) && gtk_widget_get_height (dialog) > 0;
}

/* The dialog's height once it is laid out (the screen is 800 px tall). */
static int
dialog_height (GtkWindow *dialog)
{
  int h;

  g_assert_nonnull (dialog);
  hr_test_wait_until (dialog_laid_out, dialog, "the Details dialog");
  hr_test_wait_settled (GTK_WIDGET (dialog));
  h = gtk_widget_get_height (GTK_WIDGET (dialog));
  g_test_message ("Details dialog: %d px tall", h);
  hr_test_window_close (dialog);
  return h;
}

/* #26 item 6: offline, every cloud fails for the same reason: one line says it for all of
 * them ("×N"), and the Details dialog fits the screen — also with 200 different lines. */
static void
test_details_grouped (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strdup (g_getenv ("HEADROOM_CATALOG_BASE"));
  g_autoptr(GString) many = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  const char *details;
  const char *clouds[] = { "lambda", "runpod", NULL };

  /* nothing listens on port 1: "Could not connect …" for every cloud alike */
  g_settings_reset (settings, "catalog-clouds");
  g_setenv ("HEADROOM_CATALOG_BASE", "http://127.0.0.1:1/v7", TRUE);
  refresh_from (NULL);
  wait_idle (size);
  details = hr_cloud_view_get_last_details (cloud);
  g_test_message ("%s", details);
  g_assert_nonnull (details);
  lines = g_strsplit (details, "\n", -1);
  /* the address, the reason once for the ten clouds, three headings with the names under
   * each, the blank line and "In use" */
  g_assert_cmpstr (lines[1], ==, "Could not connect to 127.0.0.1: Connection refused (×10)");
  g_assert_cmpuint (g_strv_length (lines), ==, 10);
  for (guint i = 2; lines[i] != NULL; i++)
    g_assert_null (strstr (lines[i], "Connection refused"));
  g_assert_nonnull (strstr (details, "\nAWS, Nebius, Hyperbolic\n"));
  g_assert_cmpint (dialog_height (hr_cloud_view_show_details (cloud)), <=, 800);

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (many, "Source %u: a reason of its own, number %u\n", i, i);
  hr_cloud_view_toast_with_details (cloud, "Prices could not be refreshed", many->str);
  g_assert_cmpint (dialog_height (hr_cloud_view_show_details (cloud)), <=, 800);

  g_setenv ("HEADROOM_CATALOG_BASE", base, TRUE);
  g_settings_set_strv (settings, "catalog-clouds", clouds);
  refresh_from (NULL);
  wait_idle (size);
  hr_test_window_close (window);
}

/* #26 item 6: the start-up refresh failing as it did before is not toasted again (offline,
 * its toast covered the chart legend at every launch); a new failure, or a refresh the user
 * asked for, is. The last failure is kept in the settings, so it outlives the launch. */
static void
test_failure_once (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  HrPricingManager *manager = hr_application_get_pricing_manager (app);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strdup (g_getenv ("HEADROOM_CATALOG_BASE"));
  g_autofree char *gone = hr_test_server_url_for (server, "/gone");
  g_autofree char *failure = NULL;
  const char *clouds[] = { "gcp", "lambda", "runpod", NULL };
  guint n = hr_cloud_view_get_n_toasts (cloud);

  g_settings_set_strv (settings, "catalog-clouds", clouds);   /* gcp has no cache: due */
  g_setenv ("HEADROOM_CATALOG_BASE", "http://127.0.0.1:1/v7", TRUE);
  g_assert_true (hr_pricing_manager_is_due (manager));
  hr_pricing_manager_refresh_when_due (manager);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 1);
  failure = g_settings_get_string (settings, "pricing-failure");
  /* the failure kept is the one told: the toast says it in a few words, its Details in full */
  g_assert_cmpstr (hr_cloud_view_get_last_toast (cloud), ==, "Prices could not be refreshed");
  g_assert_cmpstr (failure, !=, "");
  g_assert_nonnull (strstr (hr_cloud_view_get_last_details (cloud), "Could not connect to 127.0.0.1"));

  /* the next launch, the same failure: nothing said */
  hr_pricing_manager_refresh_when_due (manager);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 1);
  hr_pricing_manager_refresh_when_due (manager);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 1);

  /* asked for (Refresh Prices): said */
  refresh_from (NULL);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 2);

  /* another failure: said, once */
  g_setenv ("HEADROOM_CATALOG_BASE", gone, TRUE);
  hr_pricing_manager_refresh_when_due (manager);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 3);
  hr_pricing_manager_refresh_when_due (manager);
  wait_idle (size);
  g_assert_cmpuint (hr_cloud_view_get_n_toasts (cloud), ==, n + 3);

  /* a refresh that works forgets it: the next failure is news again */
  g_setenv ("HEADROOM_CATALOG_BASE", base, TRUE);
  g_settings_set_strv (settings, "catalog-clouds", clouds + 1);
  refresh_from (NULL);
  wait_idle (size);
  g_assert_cmpstr (g_settings_get_string (settings, "pricing-failure"), ==, "");
  hr_test_window_close (window);
}

/* A good feed: the table, the source line, the Size view's cost card and the cache. */
static void
test_refresh_good (void)
{
  HrCloudView *cloud;
  HrWindow *window = open_window (&cloud);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autofree char *before = g_strdup (hr_size_view_get_card_text (size, HR_SIZE_CARD_COST));
  g_autofree char *after = NULL;
  g_autofree char *path = cache_path ();
  g_autoptr(HrPricing) cached = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *again = NULL;
  g_autofree char *catalog_source = catalog_source_today ();
  g_autofree char *source = NULL;

  g_assert_false (has_provider (cloud, "TestCloud"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  refresh_from ("/good");
  wait_idle (size);
  g_assert_true (g_str_has_prefix (hr_cloud_view_get_last_toast (cloud), "Prices updated: 5 offers verified "));
  g_assert_true (g_str_has_suffix (hr_cloud_view_get_last_toast (cloud), " · 1 offer was skipped"));
  source = g_strconcat (catalog_source, " · pricing feed 2026-12-01", NULL);
  g_assert_cmpstr (hr_cloud_view_get_source_text (cloud), ==, source);
  /* the table: the catalog's two and the feed's three; all but the 4090 hold the scenario */
  g_assert_cmpuint (hr_cloud_view_get_state (cloud)->n_total, ==, 5);
  g_assert_cmpuint (hr_cloud_view_get_n_rows (cloud), ==, 4);
  g_assert_cmpstr (((HrCloudOffer *) g_ptr_array_index (hr_cloud_view_get_state (cloud)->offers, 0))->provider,
                   ==, "TestCloud");
  g_assert_true (has_provider (cloud, "RunPod"));
  g_assert_false (has_provider (cloud, "Tiny"));
  g_assert_false (has_provider (cloud, "Vast.ai"));

  /* the Size view prices with the new feed too */
  after = expected_cost_card (size);
  g_assert_cmpstr (hr_size_view_get_card_text (size, HR_SIZE_CARD_COST), ==, after);
  g_assert_cmpstr (after, !=, before);

  /* cached, atomically, from the good fetch only */
  cached = hr_pricing_cache_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cached->updated, ==, "2026-12-01");
  g_assert_cmpuint (cached->offers->len, ==, 3);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));

  /* a failure after it: the feed's prices stay, the cache is untouched */
  refresh_from ("/500");
  wait_idle (size);
  g_assert_cmpstr (hr_cloud_view_get_last_toast (cloud), ==, "Prices could not be refreshed");
  g_assert_nonnull (strstr (hr_cloud_view_get_last_details (cloud), "HTTP 500"));
  g_assert_cmpstr (hr_cloud_view_get_source_text (cloud), ==, source);
  g_assert_cmpstr (hr_size_view_get_card_text (size, HR_SIZE_CARD_COST), ==, after);
  g_assert_true (g_file_get_contents (path, &again, NULL, NULL));
  g_assert_cmpstr (again, ==, contents);
  hr_test_window_close (window);
}

static void
copy_fixture (const char *cloud,
              const char *dir)
{
  g_autofree char *from = g_test_build_filename (G_TEST_DIST, "fixtures", "skypilot", cloud, "vms.csv", NULL);
  g_autofree char *name = g_strconcat (cloud, ".csv", NULL);
  g_autofree char *to = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (from, &text, &length, NULL));
  g_assert_true (g_file_set_contents (to, text, length, NULL));
}

/* The manager at start-up: the catalog's cache over its snapshot, the extra feed's cache, a
 * damaged feed cache set aside, when to fetch. */
static void
test_manager_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_default (&error);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *dir = g_dir_make_tmp ("headroom-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pricing.json", NULL);
  g_autofree char *corrupt = g_strconcat (path, ".corrupt", NULL);
  g_autofree char *catalog_dir = g_build_filename (dir, "skypilot", NULL);
  g_autofree char *runpod = g_build_filename (catalog_dir, "runpod.csv", NULL);
  g_autofree char *lambda = g_build_filename (catalog_dir, "lambda.csv", NULL);
  g_autoptr(HrPricingManager) manager = NULL;
  g_autoptr(HrPricing) feed = NULL;
  g_autoptr(GError) load_error = NULL;
  struct utimbuf old = { 0, 0 };

  g_assert_no_error (error);
  g_settings_reset (settings, "pricing-url");
  manager = hr_pricing_manager_new (catalog, settings, path);

  /* no cache: the bundled catalog snapshot, no error, and a fetch is due */
  g_assert_true (hr_pricing_manager_load (manager, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (hr_catalog_get_pricing (catalog)->source, ==, "catalog-snapshot");
  g_assert_true (hr_pricing_manager_is_due (manager));

  /* fresh catalog files in the cache replace it; nothing is due without a feed */
  g_assert_cmpint (g_mkdir_with_parents (catalog_dir, 0700), ==, 0);
  copy_fixture ("runpod", catalog_dir);
  copy_fixture ("lambda", catalog_dir);
  g_assert_true (hr_pricing_manager_load (manager, &error));
  g_assert_cmpstr (hr_catalog_get_pricing (catalog)->source, ==, "catalog-cache");
  g_assert_false (hr_pricing_manager_is_due (manager));
  g_settings_set_string (settings, "pricing-url", "https://example.com/feed.json");
  g_assert_true (hr_pricing_manager_is_due (manager));    /* no feed cache */

  /* a good feed cache adds its offers */
  feed = hr_pricing_parse (GOOD_FEED, -1, "feed", &error);
  g_assert_no_error (error);
  g_assert_true (hr_pricing_cache_save (feed, path, &error));
  g_assert_true (hr_pricing_manager_load (manager, &error));
  g_assert_cmpstr (hr_catalog_get_pricing (catalog)->feed_updated, ==, "2026-12-01");
  g_assert_cmpuint (hr_catalog_get_pricing (catalog)->offers->len, ==, 2 + 3);
  g_assert_false (hr_pricing_manager_is_due (manager));   /* fresh */
  g_assert_cmpint (g_utime (path, &old), ==, 0);
  g_assert_true (hr_pricing_manager_is_due (manager));    /* the feed is a day old */

  /* a damaged feed cache is moved aside and reported; the prices in use stay */
  g_assert_true (g_file_set_contents (path, "{\"schema\": 1, \"offers\": [", -1, NULL));
  g_assert_false (hr_pricing_manager_load (manager, &error));
  g_assert_nonnull (error);
  g_assert_true (g_file_test (corrupt, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (hr_catalog_get_pricing (catalog)->feed_updated, ==, "2026-12-01");
  load_error = hr_pricing_manager_take_load_error (manager);
  g_assert_nonnull (load_error);
  g_assert_cmpstr (load_error->message, ==, error->message);
  g_assert_null (hr_pricing_manager_take_load_error (manager));

  /* a catalog file a day old is due again */
  g_settings_reset (settings, "pricing-url");
  g_assert_false (hr_pricing_manager_is_due (manager));
  g_assert_cmpint (g_utime (lambda, &old), ==, 0);
  g_assert_true (hr_pricing_manager_is_due (manager));

  g_unlink (corrupt);
  g_unlink (runpod);
  g_unlink (lambda);
  g_rmdir (catalog_dir);
  g_rmdir (dir);
  g_assert_finalize_object (g_steal_pointer (&manager));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* Talk to 127.0.0.1 directly whatever proxy the desktop names (see test-pricing-net.c). */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("https_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("HTTPS_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  /* the application's cache is this test's */
  cache_home = g_dir_make_tmp ("headroom-cloud-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  /* Mesa would fill it with shaders, from threads that outlive the clean-up */
  g_setenv ("MESA_SHADER_CACHE_DISABLE", "true", TRUE);
  hr_test_init (&argc, &argv);

  server = hr_test_server_start (server_cb, NULL);
  /* the catalog comes from this test's server: RunPod and Lambda, at spot prices */
  {
    g_autofree char *base = hr_test_server_url_for (server, "/v7");
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    const char *clouds[] = { "lambda", "runpod", NULL };

    g_setenv ("HEADROOM_CATALOG_BASE", base, TRUE);
    g_settings_set_strv (settings, "catalog-clouds", clouds);
    g_settings_set_boolean (settings, "price-spot", TRUE);
  }
  app = hr_test_app_new ();

  g_test_add_func ("/cloud-window/bundled", test_bundled);
  g_test_add_func ("/cloud-window/narrow", test_narrow);
  g_test_add_func ("/cloud-window/refresh-failures", test_refresh_failures);
  g_test_add_func ("/cloud-window/refresh-partial", test_refresh_partial);
  g_test_add_func ("/cloud-window/refresh-fallbacks", test_refresh_fallbacks);
  g_test_add_func ("/cloud-window/details-grouped", test_details_grouped);
  g_test_add_func ("/cloud-window/failure-once", test_failure_once);
  g_test_add_func ("/cloud-window/refresh-good", test_refresh_good);
  g_test_add_func ("/cloud-window/sort", test_sort);
  g_test_add_func ("/cloud-window/manager-load", test_manager_load);

  ret = g_test_run ();
  g_clear_object (&app);
  hr_test_server_stop (server);

  remove_tree (cache_home);
  g_free (cache_home);
  return ret;
}
