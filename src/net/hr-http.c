/* hr-http.c — the one SoupSession, and bounded GETs over it
 *
 * Every download in Headroom goes through hr_http_get_bytes_async(): it streams the body into
 * memory with a hard byte limit (a hostile server cannot make us allocate more than asked), puts
 * a deadline on the whole request (libsoup's own timeout only covers each socket operation, so
 * a server dripping one byte every nine seconds would otherwise never time out), and turns
 * GIO's, GLib's and libsoup's errors into a few messages a person can act on.
 */
#include "hr-http.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define READ_CHUNK   (64 * 1024)
/* GByteArray counts in guint. */
#define MAX_BODY     ((gsize) G_MAXUINT32 - READ_CHUNK)

typedef struct
{
  SoupMessage  *msg;
  GUri         *uri;
  GCancellable *cancellable;         /* ours: cancelled by the caller's or by the deadline */
  GCancellable *caller_cancellable;
  gulong        cancelled_id;
  GSource      *deadline;
  GInputStream *stream;
  GByteArray   *body;
  gsize         max_bytes;
  guint         timeout;
  gboolean      timed_out;
} Request;

G_DEFINE_QUARK (hr-http-error-quark, hr_http_error)

static SoupSession *default_session;
static guint timeout_seconds = HR_HTTP_DEFAULT_TIMEOUT;

/* Stops the deadline and forgets the caller's cancellable; idempotent. */
static void
request_stop (Request *req)
{
  if (req->deadline != NULL)
    {
      g_source_destroy (req->deadline);
      g_clear_pointer (&req->deadline, g_source_unref);
    }
  if (req->cancelled_id != 0)
    {
      g_cancellable_disconnect (req->caller_cancellable, req->cancelled_id);
      req->cancelled_id = 0;
    }
}

static void
request_free (Request *req)
{
  request_stop (req);
  g_clear_object (&req->stream);
  g_clear_object (&req->msg);
  g_clear_pointer (&req->uri, g_uri_unref);
  g_clear_object (&req->cancellable);
  g_clear_object (&req->caller_cancellable);
  g_clear_pointer (&req->body, g_byte_array_unref);
  g_free (req);
}

GError *
hr_http_map_error (const GError *error,
                   const char   *host,
                   guint         timeout_s,
                   gboolean      timed_out)
{
  if (host == NULL)
    host = "?";
  if (timed_out || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT,
                        ngettext ("%s did not answer within %u second",
                                  "%s did not answer within %u seconds", timeout_s),
                        host, timeout_s);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  if (error->domain == G_RESOLVER_ERROR)
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK,
                        _("Could not look up %s — offline, or no such host (%s)"),
                        host, error->message);

  if (error->domain == G_TLS_ERROR)
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TLS,
                        _("Secure connection to %s failed: %s"), host, error->message);

  if (g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS))
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                        _("%s redirected too many times (a redirect loop)"), host);

  if (error->domain == SOUP_SESSION_ERROR)
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                        _("%s sent an invalid HTTP answer: %s"), host, error->message);

  /* GIO's own messages often name the host already ("Could not connect to h: refused"). */
  if (strstr (error->message, host) != NULL)
    return g_error_new_literal (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK, error->message);
  return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK,
                      _("Could not connect to %s: %s"), host, error->message);
}

GError *
hr_http_map_read_error (const GError *error,
                        const char   *host,
                        guint         timeout_s,
                        gboolean      timed_out)
{
  GError *mapped = hr_http_map_error (error, host, timeout_s, timed_out);

  /* The server answered, so "Could not connect" would be untrue: it stopped mid-answer. */
  if (g_error_matches (mapped, HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK))
    {
      g_clear_error (&mapped);
      mapped = g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK,
                            _("The connection to %s broke off: %s"), host != NULL ? host : "?",
                            error->message);
    }
  return mapped;
}

static GError *
map_error (Request      *req,
           const GError *error)
{
  if (req->stream != NULL)
    return hr_http_map_read_error (error, g_uri_get_host (req->uri), req->timeout,
                                   req->timed_out);
  return hr_http_map_error (error, g_uri_get_host (req->uri), req->timeout, req->timed_out);
}

static GError *
too_large_error (Request *req)
{
  g_autofree char *limit = g_format_size_full (req->max_bytes, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                      _("The answer from %s is larger than %s"), g_uri_get_host (req->uri), limit);
}

/* Both take the chain's reference to @task. */
static void
return_error (GTask  *task,
              GError *error)
{
  Request *req = g_task_get_task_data (task);

  request_stop (req);
  /* Abort what is left of the message before dropping the body stream, so closing the stream
   * does not try to drain an endless body. */
  g_cancellable_cancel (req->cancellable);
  g_clear_object (&req->stream);
  g_task_return_error (task, error);
  g_object_unref (task);
}

static void
return_body (GTask *task)
{
  Request *req = g_task_get_task_data (task);

  request_stop (req);
  g_clear_object (&req->stream);
  g_task_return_pointer (task,
                         g_byte_array_free_to_bytes (g_steal_pointer (&req->body)),
                         (GDestroyNotify) g_bytes_unref);
  g_object_unref (task);
}

static void read_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
read_next (GTask *task)
{
  Request *req = g_task_get_task_data (task);

  /* Always a whole chunk, even when only a few bytes are left before the limit: libsoup 3.2's
   * chunked decoder fails an assertion when asked for fewer bytes than its "\r\n" boundary.
   * The limit is checked on what arrives, so we hold at most one chunk over it. */
  g_input_stream_read_bytes_async (req->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   req->cancellable, read_cb, task);
}

static gboolean
deadline_cb (gpointer user_data)
{
  Request *req = user_data;

  req->timed_out = TRUE;
  g_clear_pointer (&req->deadline, g_source_unref);
  g_cancellable_cancel (req->cancellable);
  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *caller,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  Request *req = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (chunk == NULL)
    {
      return_error (task, map_error (req, error));
      return;
    }

  size = g_bytes_get_size (chunk);
  if (size == 0)
    {
      return_body (task);
      return;
    }
  if (size > req->max_bytes - req->body->len)
    {
      return_error (task, too_large_error (req));
      return;
    }

  g_byte_array_append (req->body, g_bytes_get_data (chunk, NULL), size);
  read_next (task);
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  Request *req = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  guint status;

  req->stream = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (req->stream == NULL)
    {
      return_error (task, map_error (req, error));
      return;
    }

  status = soup_message_get_status (req->msg);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      /* The server's own words: escaped and short before they reach a label or terminal. */
      g_autofree char *reason = hr_text_sanitize (soup_message_get_reason_phrase (req->msg), 80);

      if (reason == NULL || reason[0] == '\0')
        {
          g_free (reason);
          reason = g_strdup (soup_status_get_phrase (status));
        }
      return_error (task, g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                                       _("%s answered HTTP %u %s"),
                                       g_uri_get_host (req->uri), status, reason));
      return;
    }

  /* A declared length over the limit fails before a byte of the body is read. */
  headers = soup_message_get_response_headers (req->msg);
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH
      && soup_message_headers_get_content_length (headers) > (goffset) req->max_bytes)
    {
      return_error (task, too_large_error (req));
      return;
    }

  read_next (task);
}

SoupSession *
hr_http_get_session (void)
{
  if (default_session == NULL)
    default_session = soup_session_new_with_options ("user-agent", "Headroom/" PACKAGE_VERSION,
                                                     "timeout", timeout_seconds,
                                                     NULL);
  return default_session;
}

void
hr_http_set_timeout (guint seconds)
{
  timeout_seconds = CLAMP (seconds, 1, HR_HTTP_MAX_TIMEOUT);
  if (default_session != NULL)
    soup_session_set_timeout (default_session, timeout_seconds);
}

guint
hr_http_get_timeout (void)
{
  return timeout_seconds;
}

void
hr_http_get_bytes_async (const char          *url,
                         gsize                max_bytes,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GUri) uri = NULL;
  GTask *task;
  Request *req;
  const char *scheme = NULL;
  const char *host = NULL;

  g_return_if_fail (url != NULL);
  g_return_if_fail (max_bytes > 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri != NULL)
    {
      scheme = g_uri_get_scheme (uri);
      host = g_uri_get_host (uri);
    }
  if (uri == NULL
      || (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0)
      || host == NULL || host[0] == '\0')
    {
      g_task_report_new_error (NULL, callback, user_data, hr_http_get_bytes_async,
                               HR_HTTP_ERROR, HR_HTTP_ERROR_INVALID_URL,
                               _("“%s” is not a web address (http:// or https://)"), url);
      return;
    }

  req = g_new0 (Request, 1);
  req->uri = g_steal_pointer (&uri);
  req->msg = soup_message_new_from_uri (SOUP_METHOD_GET, req->uri);
  req->cancellable = g_cancellable_new ();
  req->body = g_byte_array_new ();
  req->max_bytes = MIN (max_bytes, MAX_BODY);
  req->timeout = timeout_seconds;
  soup_message_headers_replace (soup_message_get_request_headers (req->msg),
                                "Accept", "application/json");

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_http_get_bytes_async);
  g_task_set_task_data (task, req, (GDestroyNotify) request_free);

  if (cancellable != NULL)
    {
      req->caller_cancellable = g_object_ref (cancellable);
      /* Runs at once when @cancellable is already cancelled; then the send fails right away. */
      req->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                                 g_object_ref (req->cancellable), g_object_unref);
    }

  req->deadline = g_timeout_source_new (req->timeout * 1000);
  g_source_set_callback (req->deadline, deadline_cb, req, NULL);
  g_source_set_name (req->deadline, "[headroom] http deadline");
  g_source_attach (req->deadline, g_task_get_context (task));

  soup_session_send_async (hr_http_get_session (), req->msg, G_PRIORITY_DEFAULT,
                           req->cancellable, send_cb, task);
}

GBytes *
hr_http_get_bytes_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_http_get_bytes_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
