/* test-skypilot-net.c — the SkyPilot catalog client against a local SoupServer
 *
 * The server (127.0.0.1, its own thread) serves the trimmed real catalog files of
 * tests/fixtures/skypilot/ under /v7/<cloud>/vms.csv, and for the other clouds the ways a
 * download goes wrong: gcp is missing (404), cudo is cut off in the middle of a row, vast is
 * larger than HR_SKYPILOT_MAX_BYTES (chunked, no length given).  With server.hold set, that
 * cloud's answer waits until every other cloud's answer has been sent, so the downloads end in
 * an order the test chooses.  With server.broken set, that cloud is missing too; /feed.json is
 * a schema-1 pricing feed of one offer.
 */
#include <glib/gstdio.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <libsoup/soup.h>
#include <locale.h>
#include <string.h>
#include <time.h>
#include <utime.h>

#include <json-glib/json-glib.h>

#include "hr-skypilot-client.h"
#include "hr-test-server.h"

#define HUGE_CHUNK (1024 * 1024)

static struct
{
  HrTestServer *http;
  char         *base;        /* "http://127.0.0.1:PORT/v7" */
  GMutex        mutex;
  char         *huge_chunk;  /* HUGE_CHUNK bytes of CPU rows */
  guint         requests;    /* under mutex */
  /* under mutex: the cloud answered last, its waiting message, the other answers still unsent */
  char              *hold;
  SoupServerMessage *held;
  guint              others_left;
  char              *broken;  /* under mutex: a cloud answered 404 */
} server;

#define FEED "{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"USD\", \"offers\": [" \
  "{\"provider\": \"FeedCloud\", \"gpu_id\": \"a100-80gb-sxm\", \"gpu\": \"A100 80GB SXM\", " \
  "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1.19, \"billing\": \"per-second\"}]}"

static HrCatalog *catalog;

static char *
fixture (const char *cloud,
         gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "skypilot", cloud,
                                                 "vms.csv", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, length, NULL));
  return text;
}

static void
serve_huge (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_response_body (msg);
  static const char header[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n";

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                     SOUP_ENCODING_CHUNKED);
  soup_message_body_append (body, SOUP_MEMORY_STATIC, header, strlen (header));
  for (gsize sent = 0; sent <= HR_SKYPILOT_MAX_BYTES; sent += HUGE_CHUNK)
    soup_message_body_append (body, SOUP_MEMORY_STATIC, server.huge_chunk, HUGE_CHUNK);
  soup_message_body_complete (body);
}

static gboolean
release_held (gpointer data)
{
  g_mutex_lock (&server.mutex);
  if (server.held != NULL)
    {
      soup_server_message_unpause (server.held);
      g_clear_object (&server.held);
    }
  g_mutex_unlock (&server.mutex);
  return G_SOURCE_REMOVE;
}

/* Another cloud's answer is written: once all are, the held one follows a little later (the
 * client has by then read the others). */
static void
other_finished (SoupServerMessage *msg)
{
  g_mutex_lock (&server.mutex);
  if (server.others_left > 0 && --server.others_left == 0)
    {
      g_autoptr(GSource) later = g_timeout_source_new (100);

      g_source_set_callback (later, release_held, NULL, NULL);
      g_source_attach (later, g_main_context_get_thread_default ());
    }
  g_mutex_unlock (&server.mutex);
}

/* With server.hold set: that cloud waits, the others are counted as they are sent.  When the
 * held cloud's request only arrives after every other answer is out (the client opens two
 * connections at a time), it is already the last and goes at once: paused then, nothing would
 * release it. */
static void
order_answer (SoupServerMessage *msg,
              const char        *cloud)
{
  g_mutex_lock (&server.mutex);
  if (server.hold != NULL && g_str_equal (cloud, server.hold) && server.others_left > 0)
    {
      server.held = g_object_ref (msg);
      soup_server_message_pause (msg);
    }
  else if (server.hold != NULL)
    g_signal_connect (msg, "finished", G_CALLBACK (other_finished), NULL);
  g_mutex_unlock (&server.mutex);
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  const char *cloud = g_strv_length (parts) == 4 ? parts[2] : "";
  gsize length;
  char *text;
  gboolean broken;

  g_mutex_lock (&server.mutex);
  server.requests++;
  broken = g_strcmp0 (cloud, server.broken) == 0;
  g_mutex_unlock (&server.mutex);

  if (g_str_equal (path, "/feed.json"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, FEED, strlen (FEED));
    }
  else if (broken || g_strv_length (parts) != 4 || !g_str_equal (parts[1], "v7") || !g_str_equal (parts[3], "vms.csv"))
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
  else if (g_str_equal (cloud, "vast"))
    serve_huge (msg);
  else if (g_str_equal (cloud, "cudo"))
    {
      /* a real file cut off in the middle of its last row */
      text = fixture ("lambda", &length);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/csv", SOUP_MEMORY_TAKE, text, length - 30);
    }
  else if (g_strv_contains ((const char *const[]) { "aws", "lambda", "runpod", "nebius", "hyperbolic", NULL }, cloud))
    {
      text = fixture (cloud, &length);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/csv", SOUP_MEMORY_TAKE, text, length);
    }
  else
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
  order_answer (msg, cloud);
}

/* The next downloads of @n clouds end with @cloud's. */
static void
answer_last (const char *cloud,
             guint       n)
{
  g_mutex_lock (&server.mutex);
  g_free (server.hold);
  server.hold = g_strdup (cloud);
  server.others_left = cloud != NULL ? n - 1 : 0;
  g_mutex_unlock (&server.mutex);
}

/* Client ------------------------------------------------------------------------------------ */

static void
refresh_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static HrSkypilotRefresh *
refresh (const char *const *clouds,
         const char        *cache_dir,
         GCancellable      *cancellable,
         GError           **error)
{
  GAsyncResult *result = NULL;
  HrSkypilotRefresh *r;

  hr_skypilot_refresh_async (server.base, clouds, catalog, cache_dir, cancellable, refresh_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  r = hr_skypilot_refresh_finish (result, error);
  g_object_unref (result);
  return r;
}

static char *
make_cache_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("headroom-skypilot-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* A home for one run of the CLI: its cache holds headroom/skypilot/. */
typedef struct
{
  char *home;
  char *sub;   /* home/headroom */
  char *dir;   /* home/headroom/skypilot */
} CliHome;

static CliHome *
cli_home_new (void)
{
  CliHome *h = g_new0 (CliHome, 1);

  h->home = make_cache_dir ();
  h->sub = g_build_filename (h->home, "headroom", NULL);
  h->dir = g_build_filename (h->sub, "skypilot", NULL);
  return h;
}

static void
cli_home_free (CliHome *h)
{
  remove_dir (h->dir);
  g_rmdir (h->sub);
  g_rmdir (h->home);
  g_free (h->dir);
  g_free (h->sub);
  g_free (h->home);
  g_free (h);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliHome, cli_home_free)

/* The CLI tests need the built CLI (HEADROOM_CLI); without it they are skipped. */
static gboolean
cli_missing (void)
{
  if (g_getenv ("HEADROOM_CLI") != NULL)
    return FALSE;
  g_test_skip ("HEADROOM_CLI is not set");
  return TRUE;
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static const HrSkypilotCloud *
find_cloud (const HrSkypilotRefresh *r,
            const char              *cloud)
{
  for (guint i = 0; i < r->clouds->len; i++)
    if (g_str_equal (((HrSkypilotCloud *) g_ptr_array_index (r->clouds, i))->cloud, cloud))
      return g_ptr_array_index (r->clouds, i);
  return NULL;
}

static gboolean
failed_has (const HrSkypilotRefresh *r,
            const char              *cloud,
            const char              *words)
{
  for (guint i = 0; i < r->failed->len; i++)
    if (g_str_equal (g_ptr_array_index (r->failed_ids, i), cloud))
      return strstr (g_ptr_array_index (r->failed, i), words) != NULL;
  return FALSE;
}

static void
test_refresh (void)
{
  const char *clouds[] = { "aws", "lambda", "runpod", "nebius", "hyperbolic", "gcp", "cudo", "vast", NULL };
  g_autofree char *dir = make_cache_dir ();
  g_autoptr(HrSkypilotRefresh) r = NULL;
  g_autoptr(GError) error = NULL;
  const HrSkypilotCloud *aws;

  r = refresh (clouds, dir, NULL, &error);
  g_assert_no_error (error);

  /* five clouds parse; the other three fail, each named with its reason */
  g_assert_cmpuint (r->clouds->len, ==, 5);
  g_assert_cmpuint (r->failed->len, ==, 3);
  g_assert_true (failed_has (r, "gcp", "Google Cloud: "));
  g_assert_true (failed_has (r, "gcp", "404"));
  g_assert_true (failed_has (r, "cudo", "cut off"));
  g_assert_true (failed_has (r, "vast", "larger than 64"));

  aws = find_cloud (r, "aws");
  g_assert_cmpstr (aws->source, ==, "network");
  g_assert_true (g_str_has_suffix (aws->url, "/v7/aws/vms.csv"));
  g_assert_cmpuint (aws->offers->len, ==, 11);
  g_assert_cmpuint (find_cloud (r, "runpod")->offers->len, ==, 4);

  /* only the good files were cached, no temporary file is left */
  g_assert_cmpuint (count_files (dir), ==, 5);
  g_assert_cmpint (hr_skypilot_cache_age (dir, "aws"), <, 600);
  g_assert_cmpint (hr_skypilot_cache_age (dir, "gcp"), ==, G_MAXINT64);
  remove_dir (dir);
}

/* A download killed mid-way left its temporary file (aws.csv.XXXXXX) for ever: the next
 * refresh removes those more than an hour old and leaves a younger one (another process's
 * download may be writing it) and the cached files alone. */
static void
test_stale_tmp (void)
{
  const char *clouds[] = { "lambda", NULL };
  g_autofree char *dir = make_cache_dir ();
  g_autofree char *old_tmp = g_build_filename (dir, "aws.csv.Ab3xYz", NULL);
  g_autofree char *young_tmp = g_build_filename (dir, "runpod.csv.Qq9w2E", NULL);
  g_autofree char *old_csv = g_build_filename (dir, "aws.csv", NULL);
  g_autoptr(HrSkypilotRefresh) r = NULL;
  g_autoptr(GError) error = NULL;
  struct utimbuf two_hours_ago;

  g_assert_true (g_file_set_contents (old_tmp, "InstanceType,Accel", -1, NULL));
  g_assert_true (g_file_set_contents (young_tmp, "InstanceType,Accel", -1, NULL));
  g_assert_true (g_file_set_contents (old_csv, "kept", -1, NULL));
  two_hours_ago.actime = two_hours_ago.modtime = time (NULL) - 7200;
  g_assert_cmpint (g_utime (old_tmp, &two_hours_ago), ==, 0);
  g_assert_cmpint (g_utime (old_csv, &two_hours_ago), ==, 0);

  r = refresh (clouds, dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (old_tmp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (young_tmp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (old_csv, G_FILE_TEST_EXISTS));
  remove_dir (dir);
}

/* A cloud whose download fails keeps the file it had. */
static void
test_failure_keeps_cache (void)
{
  const char *clouds[] = { "cudo", "lambda", NULL };
  g_autofree char *dir = make_cache_dir ();
  g_autofree char *old_path = g_build_filename (dir, "cudo.csv", NULL);
  g_autofree char *after = NULL;
  g_autoptr(HrSkypilotRefresh) r = NULL;
  g_autoptr(HrSkypilotCloud) cached = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  g_autofree char *good = fixture ("nebius", &length);

  g_assert_true (g_file_set_contents (old_path, good, length, NULL));
  r = refresh (clouds, dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->failed->len, ==, 1);
  g_assert_true (g_file_get_contents (old_path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, good);

  cached = hr_skypilot_cache_load (dir, "cudo", catalog, server.base, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cached->source, ==, "cache");
  g_assert_cmpuint (strlen (cached->date), ==, 20);
  g_assert_cmpuint (cached->offers->len, ==, 7);
  remove_dir (dir);
}

static void
test_cancel (void)
{
  const char *clouds[] = { "aws", "vast", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *dir = make_cache_dir ();
  g_autoptr(HrSkypilotRefresh) r = NULL;
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  r = refresh (clouds, dir, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_files (dir), ==, 0);
  remove_dir (dir);
}

static void
test_base_url (void)
{
  g_autofree char *configured = NULL;
  g_autofree char *fallback = NULL;
  g_autofree char *env = NULL;

  g_unsetenv ("HEADROOM_CATALOG_BASE");
  configured = hr_skypilot_base_url (" http://example.test/v7// ");
  g_assert_cmpstr (configured, ==, "http://example.test/v7");
  fallback = hr_skypilot_base_url ("");
  g_assert_cmpstr (fallback, ==, HR_SKYPILOT_DEFAULT_BASE);
  g_setenv ("HEADROOM_CATALOG_BASE", "http://127.0.0.1:1/v7", TRUE);
  env = hr_skypilot_base_url ("http://example.test/v7");
  g_assert_cmpstr (env, ==, "http://127.0.0.1:1/v7");
  g_unsetenv ("HEADROOM_CATALOG_BASE");
}

static char *
cloud_order (const HrSkypilotRefresh *r)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < r->clouds->len; i++)
    g_string_append_printf (out, "%s ", ((HrSkypilotCloud *) g_ptr_array_index (r->clouds, i))->cloud);
  g_string_append (out, "| failed:");
  for (guint i = 0; i < r->failed_ids->len; i++)
    g_string_append_printf (out, " %s", (char *) g_ptr_array_index (r->failed_ids, i));
  return g_string_free (out, FALSE);
}

/* A refresh lists its clouds, and the failures, in the order asked for, whichever download
 * ends first (it listed them as they ended, so two refreshes could differ). */
static void
test_asked_order (void)
{
  const char *clouds[] = { "aws", "lambda", "gcp", "runpod", "cudo", "hyperbolic", NULL };
  const char *last[] = { "aws", "runpod", "gcp", "hyperbolic" };

  for (guint i = 0; i < G_N_ELEMENTS (last); i++)
    {
      g_autofree char *dir = make_cache_dir ();
      g_autoptr(HrSkypilotRefresh) r = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *order = NULL;

      answer_last (last[i], g_strv_length ((char **) clouds));
      r = refresh (clouds, dir, NULL, &error);
      g_assert_no_error (error);
      order = cloud_order (r);
      g_test_message ("%s answered last: %s", last[i], order);
      g_assert_cmpstr (order, ==, "aws lambda runpod hyperbolic | failed: gcp cudo");
      g_assert_true (g_str_has_prefix (g_ptr_array_index (r->failed, 0), "Google Cloud: "));
      remove_dir (dir);
    }
  answer_last (NULL, 0);
}

/* headroom-cli pricing against the server: the offers, the one line naming what failed, and the
 * cache that estimate then prices with. */
static char *
run_cli (const char  *cache_home,
         int         *status,
         char       **err,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  const char *arg;
  va_list ap;
  int wait_status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("HEADROOM_CLI"));
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache_home, TRUE);
  envp = g_environ_unsetenv (envp, "HEADROOM_CATALOG_BASE");
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  *status = WEXITSTATUS (wait_status);
  return out;
}

static void
test_cli (void)
{
  g_autoptr(CliHome) h = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *estimate = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *err3 = NULL;
  const char *nl;
  int status = -1;

  if (cli_missing ())
    return;
  h = cli_home_new ();
  out = run_cli (h->home, &status, &err, "pricing", "--catalog-base", server.base,
                 "--clouds", "aws,runpod,gcp", "--spot", "--region", "us", "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "\"source\": \"catalog-network\""));
  g_assert_nonnull (strstr (out, "\"instance\": \"p5.48xlarge\", \"gpu_id\": \"h100-80gb-sxm\", \"gpu\": \"H100 80GB SXM\", "
                                 "\"count\": 8, \"vram_gb\": 640, \"usd_per_hour\": 98.32, \"spot_usd_per_hour\": 14.3773, "
                                 "\"region\": \"us-east-2\"}"));
  g_assert_nonnull (strstr (out, "\"unmapped\": [\"V100\"]"));
  g_assert_null (strstr (out, "ap-southeast-3"));
  /* one line on stderr names the cloud that failed */
  g_assert_nonnull (strstr (err, "Google Cloud: "));
  nl = strchr (err, '\n');
  g_assert_true (nl != NULL && nl[1] == '\0');
  g_assert_cmpint (hr_skypilot_cache_age (h->dir, "aws"), <, 600);

  /* estimate prices with the cache pricing wrote: RunPod's 1x A100 80GB, on demand */
  estimate = run_cli (h->home, &status, &err2, "estimate", "--model", "glm-4.5-air", "--gpu", "a100-80gb-sxm",
                      "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (estimate, "\"cost_offer\": \"RunPod 1x_A100-80GB_SECURE · 1x A100 80GB SXM\""));

  bad = run_cli (h->home, &status, &err3, "pricing", "--clouds", "aws,azure", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err3, "unknown cloud “azure”"));
}

/* headroom-cli pricing prints the same offers in the same order whichever cloud answers last:
 * cheapest first, as the app's Cloud table lists them, then by provider and instance. */
static void
test_cli_order (void)
{
  const char *last[] = { "aws", "runpod", "lambda" };
  g_autofree char *first_json = NULL, *first_text = NULL;

  if (cli_missing ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (last); i++)
    {
      g_autoptr(CliHome) h = cli_home_new ();
      g_autofree char *json = NULL, *text = NULL, *err = NULL, *err2 = NULL, *offers_json = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonArray *offers;
      int status = -1;

      answer_last (last[i], 3);
      json = run_cli (h->home, &status, &err, "pricing", "--catalog-base", server.base,
                      "--clouds", "aws,lambda,runpod", "--json", NULL);
      g_assert_cmpint (status, ==, 0);
      answer_last (last[i], 3);
      text = run_cli (h->home, &status, &err2, "pricing", "--catalog-base", server.base,
                      "--clouds", "aws,lambda,runpod", NULL);
      g_assert_cmpint (status, ==, 0);
      g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
      offers = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "offers");
      g_assert_cmpuint (json_array_get_length (offers), >, 10);
      for (guint k = 1; k < json_array_get_length (offers); k++)
        g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (offers, k - 1), "usd_per_hour"),
                           <=,
                           json_object_get_double_member (json_array_get_object_element (offers, k), "usd_per_hour"));
      /* the same list; only the download time in "fetched_at" and the title may differ */
      offers_json = json_to_string (json_object_get_member (json_node_get_object (json_parser_get_root (parser)),
                                                            "offers"), TRUE);
      g_assert_nonnull (strchr (text, '\n'));
      if (first_json == NULL)
        {
          first_json = g_steal_pointer (&offers_json);
          first_text = g_strdup (strchr (text, '\n'));
        }
      else
        {
          g_assert_cmpstr (offers_json, ==, first_json);
          g_assert_cmpstr (strchr (text, '\n'), ==, first_text);
        }
    }
  answer_last (NULL, 0);
}

/* Not one cloud readable (Google Cloud fails on the server and has no bundled snapshot): an
 * empty table that says so and the line naming the failure, as --json gives, not a crash. */
static void
test_cli_no_cloud (void)
{
  g_autoptr(CliHome) h = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (cli_missing ())
    return;
  h = cli_home_new ();
  out = run_cli (h->home, &status, &err, "pricing", "--catalog-base", server.base, "--clouds", "gcp", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Cloud GPU offers (SkyPilot catalog, no date, no cloud readable, "
                                        "on demand)\nProvider"));
  g_assert_nonnull (strstr (err, "Google Cloud: "));
}

/* What a cloud that was not updated is priced with is said as it is, on one line: its saved
 * file (Google Cloud, saved here before), the bundled snapshot (AWS, broken on the server), or
 * nothing (Cudo Compute, cut off, neither saved nor bundled: left out of the offers). */
static void
test_cli_not_updated (void)
{
  g_autoptr(CliHome) h = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *lambda = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize length;
  int status = -1;

  if (cli_missing ())
    return;
  h = cli_home_new ();
  saved = g_build_filename (h->dir, "gcp.csv", NULL);
  lambda = fixture ("lambda", &length);
  g_assert_cmpint (g_mkdir_with_parents (h->dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (saved, lambda, (gssize) length, NULL));
  g_mutex_lock (&server.mutex);
  server.broken = g_strdup ("aws");
  g_mutex_unlock (&server.mutex);

  out = run_cli (h->home, &status, &err, "pricing", "--catalog-base", server.base, "--clouds", "aws,gcp,cudo", NULL);
  g_test_message ("%s", err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Cloud GPU offers (SkyPilot catalog, "));
  g_assert_nonnull (strstr (out, "partly bundled snapshot, on demand)\nProvider"));
  g_assert_nonnull (strstr (out, "\nGoogle Cloud "));
  g_assert_nonnull (strstr (out, "\nAWS "));
  g_assert_null (strstr (out, "Cudo"));
  g_assert_true (g_str_has_prefix (err, "headroom-cli pricing: not updated, saved prices used: Google Cloud: "));
  g_assert_nonnull (strstr (err, "; not updated, bundled prices used: AWS: "));
  g_assert_nonnull (strstr (err, "; not updated, no saved or bundled prices, left out: Cudo Compute: "));
  g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);

  g_mutex_lock (&server.mutex);
  g_clear_pointer (&server.broken, g_free);
  g_mutex_unlock (&server.mutex);
}

/* Only a feed readable (Google Cloud fails and has no saved or bundled prices): the title says
 * no cloud was readable and the offers are the feed's, not "partly bundled snapshot". */
static void
test_cli_feed_only (void)
{
  g_autoptr(CliHome) h = NULL;
  g_autofree char *feed = hr_test_server_url_for (server.http, "/feed.json");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (cli_missing ())
    return;
  h = cli_home_new ();
  out = run_cli (h->home, &status, &err, "pricing", "--catalog-base", server.base, "--clouds", "gcp",
                 "--url", feed, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Cloud GPU offers (SkyPilot catalog, no date, no cloud readable + feed "
                                        "2026-11-05, on demand)\nProvider"));
  g_assert_nonnull (strstr (out, "\nFeedCloud "));
  g_assert_nonnull (strstr (out, "\n1 offers\n"));
  g_assert_true (g_str_has_prefix (err, "headroom-cli pricing: not updated, no saved or bundled prices, left out: "
                                        "Google Cloud: "));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  server.huge_chunk = g_malloc (HUGE_CHUNK);
  for (gsize i = 0; i < HUGE_CHUNK; i += 32)
    memcpy (server.huge_chunk + i, "cpu-x,,,0.1,us-east-1-aaaaaaaaa\n", 32);
  server.http = hr_test_server_start (server_cb, NULL);
  server.base = hr_test_server_url_for (server.http, "/v7");

  g_test_add_func ("/skypilot-net/refresh", test_refresh);
  g_test_add_func ("/skypilot-net/failure-keeps-cache", test_failure_keeps_cache);
  g_test_add_func ("/skypilot-net/stale-tmp", test_stale_tmp);
  g_test_add_func ("/skypilot-net/cancel", test_cancel);
  g_test_add_func ("/skypilot-net/base-url", test_base_url);
  g_test_add_func ("/skypilot-net/cli", test_cli);
  g_test_add_func ("/skypilot-net/asked-order", test_asked_order);
  g_test_add_func ("/skypilot-net/cli-order", test_cli_order);
  g_test_add_func ("/skypilot-net/cli-no-cloud", test_cli_no_cloud);
  g_test_add_func ("/skypilot-net/cli-not-updated", test_cli_not_updated);
  g_test_add_func ("/skypilot-net/cli-feed-only", test_cli_feed_only);
  ret = g_test_run ();

  hr_test_server_stop (server.http);
  g_free (server.huge_chunk);
  g_free (server.base);
  hr_catalog_free (catalog);
  return ret;
}
