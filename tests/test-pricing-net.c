/* test-pricing-net.c — hr-http and the pricing client against a local SoupServer
 *
 * The server runs on 127.0.0.1, port 0, in its own thread with its own main context (the
 * pattern of gnome-calendar's tests/gcal-simple-server.c); the client runs in the test's main
 * context.  Nothing here reaches the outside network.
 */
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-http.h"
#include "hr-pricing-client.h"
#include "hr-test-server.h"

#include "hostile-gen.h"

#define FEED_HEAD "{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"USD\", \"offers\": ["

#define GOOD_FEED FEED_HEAD \
  "{\"provider\": \"RunPod\", \"gpu_id\": \"a100-80gb-sxm\", \"gpu\": \"A100 80GB SXM\", " \
  "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1.19, \"billing\": \"per-second\", " \
  "\"tier\": \"Community Cloud\", \"url\": \"https://www.runpod.io/pricing\"}, " \
  "{\"provider\": \"DigitalOcean\", \"gpu_id\": \"mi325x-256gb\", \"gpu\": \"Instinct MI325X 256GB\", " \
  "\"count\": 1, \"vram_gb\": 256, \"usd_per_hour\": 3.80, \"billing\": \"per-second\", " \
  "\"url\": \"https://www.digitalocean.com/pricing/gpu-droplets\"}]}"

#define BAD_OFFERS_FEED FEED_HEAD \
  "{\"provider\": \"RunPod\", \"gpu\": \"A100 80GB SXM\", \"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1.19}, " \
  "{\"provider\": \"\", \"gpu\": \"A100 80GB SXM\", \"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1.19}, " \
  "{\"provider\": \"Evil\", \"gpu\": \"A100\", \"count\": 0, \"vram_gb\": 80, \"usd_per_hour\": 1.19}, " \
  "{\"provider\": \"Evil\", \"gpu\": \"A100\", \"count\": 1, \"vram_gb\": -1, \"usd_per_hour\": 1.19}, " \
  "{\"provider\": \"Evil\", \"gpu\": \"A100\", \"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1e400}, " \
  "{\"provider\": \"Evil\", \"gpu\": \"A100\", \"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1, \"url\": \"file:///etc/passwd\"}, " \
  "{\"provider\": \"Vast.ai\", \"gpu\": \"H200 141GB SXM\", \"count\": 2, \"vram_gb\": 282, \"usd_per_hour\": 7.738}]}"

#define CHUNK_SIZE (64 * 1024)

/* The server, shared by every test. */
static struct
{
  HrTestServer   *http;
  GMutex          mutex;
  GSocketService *raw;
  GSocketService *cut;
  char           *user_agent;  /* of the last request; under mutex */
  char       *raw_url;     /* "127.0.0.1:PORT" of a TCP server that answers plain text */
  char       *cut_url;     /* "127.0.0.1:PORT" of one that promises 1000 bytes and sends 10 */
} server;

/* Server thread */

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *body)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body != NULL)
    soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                      body, strlen (body));
}

static void
respond_chunked (SoupServerMessage *msg,
                 const char        *text,
                 gsize              total)
{
  SoupMessageBody *body = soup_server_message_get_response_body (msg);
  gsize len = strlen (text);
  gsize sent;

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                     SOUP_ENCODING_CHUNKED);
  soup_message_body_append (body, SOUP_MEMORY_COPY, text, len);
  for (sent = len; sent < total; sent += CHUNK_SIZE)
    {
      g_autofree char *pad = g_strnfill (MIN (CHUNK_SIZE, total - sent), ' ');

      soup_message_body_append (body, SOUP_MEMORY_COPY, pad, strlen (pad));
    }
  soup_message_body_complete (body);
}

/* An endless body: each chunk written asks for the next one. */
static void
endless_wrote_chunk_cb (SoupServerMessage *msg,
                        gpointer           user_data)
{
  static char pad[CHUNK_SIZE];

  memset (pad, ' ', sizeof pad);
  soup_message_body_append (soup_server_message_get_response_body (msg),
                            SOUP_MEMORY_COPY, pad, sizeof pad);
}

/* A body that never stops and never stalls: one byte every 300 ms, so no single read waits
 * long enough for libsoup's socket timeout; only the request deadline ends it. */
static gboolean
drip_cb (gpointer data)
{
  SoupServerMessage *msg = data;

  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC, " ", 1);
  soup_server_message_unpause (msg);
  return G_SOURCE_CONTINUE;
}

static void
drip_finished_cb (SoupServerMessage *msg,
                  gpointer           data)
{
  g_source_destroy (data);
}

static void
start_drip (SoupServerMessage *msg)
{
  GSource *source = g_timeout_source_new (300);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                     SOUP_ENCODING_CHUNKED);
  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC, "{", 1);
  g_source_set_callback (source, drip_cb, g_object_ref (msg), g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
  g_signal_connect_data (msg, "finished", G_CALLBACK (drip_finished_cb),
                         source, (GClosureNotify) (void (*) (void)) g_source_unref, 0);
}

static char *heavy_feed;   /* /heavy's body */

/* /heavy-late: the heavy feed, sent 950 ms after the request (the tests' timeout is then 1 s) */
static gboolean
heavy_late_cb (gpointer data)
{
  SoupServerMessage *msg = data;

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, heavy_feed,
                                    strlen (heavy_feed));
  soup_server_message_unpause (msg);
  return G_SOURCE_REMOVE;
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  const char *ua = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                 "User-Agent");

  g_mutex_lock (&server.mutex);
  g_free (server.user_agent);
  server.user_agent = g_strdup (ua);
  g_mutex_unlock (&server.mutex);

  if (g_str_equal (path, "/good"))
    respond (msg, SOUP_STATUS_OK, GOOD_FEED);
  else if (g_str_equal (path, "/good-chunked"))
    respond_chunked (msg, GOOD_FEED, 0);
  else if (g_str_equal (path, "/404"))
    respond (msg, SOUP_STATUS_NOT_FOUND, "{\"error\": \"no such feed\"}");
  else if (g_str_equal (path, "/evil-reason"))
    soup_server_message_set_status (msg, 503, "Busy\033]0;owned\007 \342\200\256gnp.exe");
  else if (g_str_equal (path, "/500"))
    respond (msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
  else if (g_str_equal (path, "/malformed"))
    respond (msg, SOUP_STATUS_OK, "{\"schema\": 1, \"updated\": \"2026-11-05\", \"offers\": [{");
  else if (g_str_equal (path, "/html"))
    respond (msg, SOUP_STATUS_OK, "<html><body>Gateway login</body></html>");
  else if (g_str_equal (path, "/schema"))
    respond (msg, SOUP_STATUS_OK, "{\"schema\": 2, \"updated\": \"2026-11-05\", \"offers\": []}");
  else if (g_str_equal (path, "/empty"))
    respond (msg, SOUP_STATUS_OK, FEED_HEAD "]}");
  else if (g_str_equal (path, "/empty-body"))
    respond (msg, SOUP_STATUS_OK, "");
  else if (g_str_equal (path, "/bad-offers"))
    respond (msg, SOUP_STATUS_OK, BAD_OFFERS_FEED);
  else if (g_str_equal (path, "/colliding"))
    {
      /* 150 000 member names that share one g_str_hash value: 4 MB, under the feed's limit */
      char *feed = hostile_feed_colliding (150000);

      g_assert_cmpuint (strlen (feed), <=, HR_PRICING_FEED_MAX_BYTES);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, feed,
                                        strlen (feed));
    }
  else if (g_str_equal (path, "/heavy"))
    {
      /* made by the test before it starts timing the main loop */
      g_assert_nonnull (heavy_feed);
      g_assert_cmpuint (strlen (heavy_feed), <=, HR_PRICING_FEED_MAX_BYTES);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, heavy_feed,
                                        strlen (heavy_feed));
    }
  else if (g_str_equal (path, "/heavy-late"))
    {
      g_autoptr(GSource) later = g_timeout_source_new (950);

      g_assert_nonnull (heavy_feed);
      soup_server_message_pause (msg);
      g_source_set_callback (later, heavy_late_cb, msg, NULL);
      g_source_attach (later, g_main_context_get_thread_default ());
    }
  else if (g_str_equal (path, "/huge"))
    {
      /* A valid feed padded past the limit, with a Content-Length. */
      GString *s = g_string_new (GOOD_FEED);
      gsize len;

      while (s->len <= HR_PRICING_FEED_MAX_BYTES)
        g_string_append_c (s, ' ');
      len = s->len;
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                        g_string_free (s, FALSE), len);
    }
  else if (g_str_equal (path, "/huge-chunked"))
    respond_chunked (msg, GOOD_FEED, HR_PRICING_FEED_MAX_BYTES + 1);
  else if (g_str_equal (path, "/exact-limit"))
    respond_chunked (msg, GOOD_FEED, HR_PRICING_FEED_MAX_BYTES);
  else if (g_str_equal (path, "/endless"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                         SOUP_ENCODING_CHUNKED);
      g_signal_connect (msg, "wrote-chunk", G_CALLBACK (endless_wrote_chunk_cb), NULL);
      endless_wrote_chunk_cb (msg, NULL);
    }
  else if (g_str_equal (path, "/drip"))
    start_drip (msg);
  else if (g_str_equal (path, "/hang"))
    soup_server_message_pause (msg);   /* never answered */
  else
    respond (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

/* Whatever the client says (a TLS hello), answer in plain HTTP and hang up. */
static gboolean
raw_incoming_cb (GSocketService    *service,
                 GSocketConnection *connection,
                 GObject           *source,
                 gpointer           user_data)
{
  static const char answer[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             answer, sizeof answer - 1, NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* A connection that succeeds, an answer that begins, and then nothing: the body is cut. */
static gboolean
cut_incoming_cb (GSocketService    *service,
                 GSocketConnection *connection,
                 GObject           *source,
                 gpointer           user_data)
{
  static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"schema\":";

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             answer, sizeof answer - 1, NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static char *
raw_server_start (GSocketService *service,
                  GCallback       incoming)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GError) error = NULL;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &effective, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", incoming, NULL);
  g_socket_service_start (service);
  return g_strdup_printf ("127.0.0.1:%u",
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective)));
}

/* In the server's thread, beside the SoupServer: the two raw TCP servers. */
static void
raw_servers_start (gpointer data)
{
  server.raw = g_socket_service_new ();
  server.raw_url = raw_server_start (server.raw, G_CALLBACK (raw_incoming_cb));
  server.cut = g_socket_service_new ();
  server.cut_url = raw_server_start (server.cut, G_CALLBACK (cut_incoming_cb));
}

static void
raw_servers_stop (gpointer data)
{
  g_socket_service_stop (server.raw);
  g_socket_listener_close (G_SOCKET_LISTENER (server.raw));
  g_socket_service_stop (server.cut);
  g_socket_listener_close (G_SOCKET_LISTENER (server.cut));
  g_clear_object (&server.raw);
  g_clear_object (&server.cut);
}

static void
server_start (void)
{
  server.http = hr_test_server_start_full (server_cb, raw_servers_start, raw_servers_stop, NULL);
}

static void
server_stop (void)
{
  g_clear_pointer (&server.http, hr_test_server_stop);
  g_clear_pointer (&server.user_agent, g_free);
  g_clear_pointer (&server.raw_url, g_free);
  g_clear_pointer (&server.cut_url, g_free);
}

/* Client helpers: run the test's main context until the callback has run. */

typedef struct
{
  gboolean   done;
  HrPricing *pricing;
  GBytes    *bytes;
  GError    *error;
} Result;

static char *
url_for (const char *path)
{
  return hr_test_server_url_for (server.http, path);
}

static void
fetch_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Result *r = user_data;

  r->pricing = hr_pricing_client_fetch_finish (result, &r->error);
  r->done = TRUE;
}

static void
refresh_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Result *r = user_data;

  r->pricing = hr_pricing_client_refresh_finish (result, &r->error);
  r->done = TRUE;
}

static void
bytes_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Result *r = user_data;

  r->bytes = hr_http_get_bytes_finish (result, &r->error);
  r->done = TRUE;
}

static void
wait_for (Result *r)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
  /* Exactly one of them. */
  g_assert_true ((r->error == NULL) != (r->pricing == NULL && r->bytes == NULL));
}

static HrPricing *
fetch (const char    *path,
       GCancellable  *cancellable,
       GError       **error)
{
  g_autofree char *url = url_for (path);
  Result r = { 0 };

  hr_pricing_client_fetch_async (url, cancellable, fetch_cb, &r);
  wait_for (&r);
  if (r.error != NULL)
    g_propagate_error (error, r.error);
  return r.pricing;
}

static HrPricing *
refresh (const char  *path,
         GError     **error)
{
  g_autofree char *url = url_for (path);
  Result r = { 0 };

  hr_pricing_client_refresh_async (url, NULL, NULL, refresh_cb, &r);
  wait_for (&r);
  if (r.error != NULL)
    g_propagate_error (error, r.error);
  return r.pricing;
}

static GBytes *
get_bytes (const char  *url,
           gsize        max_bytes,
           GError     **error)
{
  Result r = { 0 };

  hr_http_get_bytes_async (url, max_bytes, NULL, bytes_cb, &r);
  wait_for (&r);
  if (r.error != NULL)
    g_propagate_error (error, r.error);
  return r.bytes;
}

static void
assert_fetch_fails (const char *path,
                    GQuark      domain,
                    int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = fetch (path, NULL, &error);

  g_assert_null (pricing);
  g_assert_error (error, domain, code);
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("%s: %s", path, error->message);
}

/* Tests */

static void
test_fetch_good (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = fetch ("/good", NULL, &error);
  g_autoptr(HrPricing) chunked = NULL;
  const HrOffer *offer;

  g_assert_no_error (error);
  g_assert_cmpstr (pricing->source, ==, "feed");
  g_assert_cmpstr (pricing->updated, ==, "2026-11-05");
  g_assert_cmpuint (pricing->offers->len, ==, 2);
  g_assert_cmpuint (pricing->skipped, ==, 0);
  offer = g_ptr_array_index (pricing->offers, 1);
  g_assert_cmpstr (offer->provider, ==, "DigitalOcean");
  g_assert_cmpfloat (offer->usd_per_hour, ==, 3.80);

  chunked = fetch ("/good-chunked", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chunked->offers->len, ==, 2);

  g_mutex_lock (&server.mutex);
  g_assert_cmpstr (server.user_agent, ==, "Headroom/" PACKAGE_VERSION);
  g_mutex_unlock (&server.mutex);
}

static void
test_fetch_status (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = fetch ("/404", NULL, &error);

  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS);
  g_assert_nonnull (strstr (error->message, "404"));
  g_assert_nonnull (strstr (error->message, "Not Found"));
  g_clear_error (&error);

  pricing = fetch ("/500", NULL, &error);
  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS);
  g_assert_nonnull (strstr (error->message, "500"));
  g_assert_nonnull (strstr (error->message, "Internal Server Error"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* The server's reason phrase reaches the user escaped: no terminal command, no bidi override. */
  pricing = fetch ("/evil-reason", NULL, &error);
  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS);
  g_test_message ("%s", error->message);
  g_assert_null (strchr (error->message, '\033'));
  g_assert_null (strstr (error->message, "\342\200\256"));
  g_assert_nonnull (strstr (error->message, "Busy\\x1B]0;owned\\x07 \\u{202E}gnp.exe"));
}

static void
test_fetch_bad_content (void)
{
  assert_fetch_fails ("/malformed", HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  assert_fetch_fails ("/html", HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  assert_fetch_fails ("/empty-body", HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  assert_fetch_fails ("/schema", HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA);
  assert_fetch_fails ("/empty", HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY);
}

/* A feed of member names that collide in json-glib's hash table is refused at once: it took
 * 214 s to parse, after a transfer bounded by a 10 s timeout. */
static void
test_fetch_colliding (void)
{
  gint64 start = g_get_monotonic_time ();

  assert_fetch_fails ("/colliding", HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  g_test_message ("%.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

static gboolean
spin_done_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, spin_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* The main loop's longest wait between two ticks of a 5 ms timer while a fetch runs. */
typedef struct
{
  gint64 last;
  gint64 longest;
} Ticks;

static gboolean
tick_cb (gpointer data)
{
  Ticks *t = data;
  gint64 now = g_get_monotonic_time ();

  t->longest = MAX (t->longest, now - t->last);
  t->last = now;
  return G_SOURCE_CONTINUE;
}

/* A feed as heavy as its limits allow (4 MB, 10 000 valid offers with colliding extra names):
 * it is read, within a generous bound, and read off the main loop, which keeps iterating
 * (the longest gap between two ticks stays far below the parse; it was the whole parse
 * when the feed was parsed in the main loop's callback). */
static void
test_fetch_heavy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *url = url_for ("/heavy");
  Ticks ticks = { 0, 0 };
  gint64 start, parse;
  guint id;

  heavy_feed = hostile_feed_heavy (HR_PRICING_MAX_OFFERS, 200);
  /* what the parse alone takes here, for the bound below */
  bytes = get_bytes (url, HR_PRICING_FEED_MAX_BYTES, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  pricing = hr_pricing_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "feed", &error);
  parse = g_get_monotonic_time () - start;
  g_assert_no_error (error);
  g_assert_cmpuint (pricing->offers->len, ==, HR_PRICING_MAX_OFFERS);
  g_clear_pointer (&pricing, hr_pricing_free);

  start = ticks.last = g_get_monotonic_time ();
  id = g_timeout_add (5, tick_cb, &ticks);
  pricing = fetch ("/heavy", NULL, &error);
  tick_cb (&ticks);   /* the stretch since the last tick counts too */
  g_source_remove (id);
  g_test_message ("parse %.3f s; fetch %.3f s, longest main-loop gap %.3f s", parse / 1e6,
                  (g_get_monotonic_time () - start) / 1e6, ticks.longest / 1e6);
  g_assert_no_error (error);
  g_assert_cmpuint (pricing->offers->len, ==, HR_PRICING_MAX_OFFERS);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  g_assert_cmpint (ticks.longest, <, MAX (parse / 2, 50000));
  g_clear_pointer (&pricing, hr_pricing_free);

  /* The parse has the transfer's deadline: a feed that arrives 50 ms before a 1 s timeout
   * cannot be read in time (4 MB take far longer), and the fetch ends at the deadline with a
   * timeout, whichever step it was in, instead of parsing on past it. */
  hr_http_set_timeout (1);
  start = g_get_monotonic_time ();
  pricing = fetch ("/heavy-late", NULL, &error);
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);
  g_test_message ("late heavy feed: %.3f s: %s", (g_get_monotonic_time () - start) / 1e6,
                  error ? error->message : "read");
  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 1500 * 1000);
  /* the worker's late answer is dropped (the loop runs on while it finishes) */
  spin_ms (parse * 3 / 1000 + 100);
  g_clear_pointer (&heavy_feed, g_free);
}

static void
test_fetch_bad_offers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = fetch ("/bad-offers", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (pricing->offers->len, ==, 2);
  g_assert_cmpuint (pricing->skipped, ==, 5);
  g_assert_cmpstr (((HrOffer *) g_ptr_array_index (pricing->offers, 0))->provider, ==, "RunPod");
  g_assert_cmpstr (((HrOffer *) g_ptr_array_index (pricing->offers, 1))->provider, ==, "Vast.ai");
}

static void
test_fetch_too_large (void)
{
  gint64 start;

  /* Declared by Content-Length, streamed in chunks, and never ending. */
  assert_fetch_fails ("/huge", HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  assert_fetch_fails ("/huge-chunked", HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);

  start = g_get_monotonic_time ();
  assert_fetch_fails ("/endless", HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  g_test_message ("endless body refused after %.3f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  /* The server is still usable afterwards. */
  {
    g_autoptr(HrPricing) pricing = fetch ("/good", NULL, NULL);

    g_assert_nonnull (pricing);
  }
}

static void
test_bytes_limit_boundary (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *good = url_for ("/good");
  g_autofree char *good_chunked = url_for ("/good-chunked");
  gsize size = strlen (GOOD_FEED);
  GBytes *bytes;

  /* Exactly the limit passes; one byte less fails, both with and without Content-Length. */
  bytes = get_bytes (good, size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, size);
  g_bytes_unref (bytes);
  bytes = get_bytes (good, size - 1, &error);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  g_assert_null (bytes);
  g_clear_error (&error);

  bytes = get_bytes (good_chunked, size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, size);
  g_bytes_unref (bytes);
  bytes = get_bytes (good_chunked, size - 1, &error);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  g_assert_null (bytes);
  g_clear_error (&error);

  /* A feed of exactly 4 MiB is accepted. */
  {
    g_autoptr(HrPricing) pricing = fetch ("/exact-limit", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (pricing->offers->len, ==, 2);
  }
}

static void
test_fetch_timeout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  gint64 start, elapsed;

  hr_http_set_timeout (1);
  g_assert_cmpuint (hr_http_get_timeout (), ==, 1);
  start = g_get_monotonic_time ();
  pricing = fetch ("/hang", NULL, &error);
  elapsed = g_get_monotonic_time () - start;
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);

  g_test_message ("timeout after %.3f s: %s", elapsed / 1e6, error ? error->message : "-");
  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_assert_cmpint (elapsed, >=, 900 * 1000);
  g_assert_cmpint (elapsed, <, 3 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* A server that keeps sending, too slowly to finish, meets the same deadline. */
  hr_http_set_timeout (1);
  start = g_get_monotonic_time ();
  pricing = fetch ("/drip", NULL, &error);
  elapsed = g_get_monotonic_time () - start;
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);

  g_test_message ("dripping body cut after %.3f s: %s", elapsed / 1e6, error ? error->message : "-");
  g_assert_null (pricing);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_assert_cmpint (elapsed, <, 3 * G_USEC_PER_SEC);
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
  return G_SOURCE_REMOVE;
}

static void
test_fetch_cancel (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  gint64 start, elapsed;

  /* Cancelled while the server says nothing (the 10 s timeout is far away). */
  g_assert_cmpuint (hr_http_get_timeout (), ==, HR_HTTP_DEFAULT_TIMEOUT);
  g_timeout_add (200, cancel_cb, cancellable);
  start = g_get_monotonic_time ();
  pricing = fetch ("/hang", cancellable, &error);
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("cancelled after %.3f s", elapsed / 1e6);
  g_assert_null (pricing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (elapsed, <, 2 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* Cancelled before it starts. */
  g_cancellable_cancel (cancelled);
  pricing = fetch ("/good", cancelled, &error);
  g_assert_null (pricing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_http_errors (void)
{
  const char *invalid[] = { "", "not a url", "ftp://example.com/pricing.json",
                            "file:///etc/passwd", "http:///pricing.json", "javascript:alert(1)" };
  g_autoptr(GError) error = NULL;
  g_autofree char *https_to_http = NULL;
  GBytes *bytes;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      bytes = get_bytes (invalid[i], 1024, &error);
      g_assert_null (bytes);
      g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_INVALID_URL);
      g_clear_error (&error);
    }

  /* Nothing listens on port 1. */
  bytes = get_bytes ("http://127.0.0.1:1/pricing.json", 1024, &error);
  g_assert_null (bytes);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK);
  g_test_message ("refused: %s", error->message);
  g_clear_error (&error);

  /* Connected, then the answer stops: never reported as "Could not connect". */
  {
    g_autofree char *cut_url = g_strconcat ("http://", server.cut_url, "/pricing.json", NULL);

    bytes = get_bytes (cut_url, 4096, &error);
    g_assert_null (bytes);
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK);
    g_test_message ("cut: %s", error->message);
    g_assert_null (strstr (error->message, "Could not connect"));
    g_assert_nonnull (strstr (error->message, "broke off"));
    g_clear_error (&error);
  }

  /* A server answering a TLS hello in plain text fails the handshake (or, without a TLS
   * backend, TLS is unavailable): a TLS error either way. */
  https_to_http = g_strconcat ("https://", server.raw_url, "/pricing.json", NULL);
  hr_http_set_timeout (3);
  bytes = get_bytes (https_to_http, 1024, &error);
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);
  g_assert_null (bytes);
  g_test_message ("https to http: %s", error->message);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TLS);
  g_clear_error (&error);

  /* .invalid never resolves (RFC 2606); without DNS at all the lookup may time out instead. */
  hr_http_set_timeout (3);
  bytes = get_bytes ("http://headroom-test.invalid/pricing.json", 1024, &error);
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);
  g_assert_null (bytes);
  g_test_message ("no such host: %s", error->message);
  g_assert_true (g_error_matches (error, HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK)
                 || g_error_matches (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT));
}

static gboolean
file_equals (const char *path,
             const char *expected)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && g_strcmp0 (contents, expected) == 0;
}

static void
test_cache_only_after_good_fetch (void)
{
  g_autofree char *path = hr_pricing_cache_default_path ();
  g_autofree char *expected_dir = g_build_filename (g_get_user_cache_dir (), "headroom", NULL);
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(HrPricing) cached = NULL;
  const char *bad[] = { "/500", "/404", "/malformed", "/schema", "/empty", "/huge" };
  guint i;

  /* The cache lives in XDG_CACHE_HOME, which g_test isolates in a temporary directory. */
  g_test_message ("cache: %s", path);
  g_assert_true (g_str_has_prefix (path, expected_dir));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* A failed refresh writes nothing. */
  pricing = refresh ("/500", &error);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS);
  g_assert_null (pricing);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* A good one writes the cache. */
  pricing = refresh ("/good", &error);
  g_assert_no_error (error);
  g_assert_nonnull (pricing);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));

  cached = hr_pricing_cache_load (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cached->source, ==, "cache");
  g_assert_cmpstr (cached->updated, ==, "2026-11-05");
  g_assert_cmpuint (cached->offers->len, ==, 2);
  g_clear_pointer (&cached, hr_pricing_free);
  g_clear_pointer (&pricing, hr_pricing_free);

  /* Later bad fetches leave it exactly as it was. */
  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      pricing = refresh (bad[i], &error);
      g_assert_null (pricing);
      g_assert_nonnull (error);
      g_clear_error (&error);
      g_assert_true (file_equals (path, saved));
    }

  cached = hr_pricing_cache_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cached->offers->len, ==, 2);

  /* The save is atomic: no temporary file is left beside it. */
  {
    g_autoptr(GDir) dir = g_dir_open (expected_dir, 0, NULL);
    const char *name;
    guint n = 0;

    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_test_message ("cache dir: %s", name);
        n++;
      }
    g_assert_cmpuint (n, ==, 1);
  }
}

static void
test_cache_corrupt (void)
{
  g_autofree char *path = hr_pricing_cache_default_path ();
  g_autofree char *corrupt = g_strconcat (path, ".corrupt", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  const char *garbage = "{\"schema\": 1, \"updated\": \"2026-11-05\", \"offers\": [{\"prov";

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, garbage, -1, NULL));

  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_null (pricing);
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, corrupt));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* Moved aside, intact, not deleted. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (file_equals (corrupt, garbage));

  /* Now there is simply no cache; a good refresh makes a new one. */
  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);
  pricing = refresh ("/good", &error);
  g_assert_no_error (error);
  g_clear_pointer (&pricing, hr_pricing_free);
  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pricing->offers->len, ==, 2);
  g_clear_pointer (&pricing, hr_pricing_free);

  /* Valid JSON of the wrong shape, and an oversized file, are damaged too. */
  g_assert_true (g_file_set_contents (path, "{\"schema\": 99}", -1, NULL));
  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA);
  g_clear_error (&error);
  g_assert_true (file_equals (corrupt, "{\"schema\": 99}"));

  {
    g_autofree char *big = g_strnfill (3 * HR_PRICING_FEED_MAX_BYTES, ' ');

    g_assert_true (g_file_set_contents (path, big, -1, NULL));
    pricing = hr_pricing_cache_load (NULL, &error);
    g_assert_null (pricing);
    g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
    g_clear_error (&error);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }

  /* A FIFO (would block the start for ever) and /dev/zero through a symlink (would be read
   * until memory runs out) in the cache's place: refused unread, left where they are. */
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_null (pricing);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_assert_cmpint (g_unlink (path), ==, 0);

  g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
  pricing = hr_pricing_cache_load (NULL, &error);
  g_assert_null (pricing);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_cache_save (void)
{
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "deep", "er", "p.json", NULL);
  g_autoptr(HrPricing) empty = hr_pricing_new ();
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(HrPricing) back = NULL;
  g_autoptr(GError) error = NULL;

  /* Nothing worth caching. */
  g_assert_false (hr_pricing_cache_save (empty, path, &error));
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* Creates the directories; replaces an older cache. */
  pricing = fetch ("/bad-offers", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hr_pricing_cache_save (pricing, path, &error));
  g_assert_no_error (error);
  g_clear_pointer (&pricing, hr_pricing_free);
  pricing = fetch ("/good", NULL, &error);
  g_assert_true (hr_pricing_cache_save (pricing, path, &error));
  g_assert_no_error (error);

  back = hr_pricing_cache_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->offers->len, ==, 2);
  g_assert_cmpstr (((HrOffer *) g_ptr_array_index (back->offers, 1))->provider, ==, "DigitalOcean");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* Talk to 127.0.0.1 directly, whatever proxy the environment or the desktop names; the
   * desktop's proxy settings would also need GSettings schemas, which the isolated
   * XDG_DATA_DIRS below do not have. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  setlocale (LC_ALL, "");
  g_unsetenv ("http_proxy");
  g_unsetenv ("https_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("HTTPS_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/net/fetch/good", test_fetch_good);
  g_test_add_func ("/net/fetch/http-status", test_fetch_status);
  g_test_add_func ("/net/fetch/bad-content", test_fetch_bad_content);
  g_test_add_func ("/net/fetch/bad-offers", test_fetch_bad_offers);
  g_test_add_func ("/net/fetch/too-large", test_fetch_too_large);
  g_test_add_func ("/net/fetch/limit-boundary", test_bytes_limit_boundary);
  g_test_add_func ("/net/fetch/timeout", test_fetch_timeout);
  g_test_add_func ("/net/fetch/cancel", test_fetch_cancel);
  g_test_add_func ("/net/http/errors", test_http_errors);
  g_test_add_func ("/net/cache/only-after-good-fetch", test_cache_only_after_good_fetch);
  g_test_add_func ("/net/fetch/colliding-names", test_fetch_colliding);
  g_test_add_func ("/net/fetch/heavy-feed", test_fetch_heavy);
  g_test_add_func ("/net/cache/corrupt", test_cache_corrupt);
  g_test_add_func ("/net/cache/save", test_cache_save);

  server_start ();
  ret = g_test_run ();
  server_stop ();

  return ret;
}
