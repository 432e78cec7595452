/* hr-http.c — the one SoupSession, and bounded GETs over it
 *
 * hr_http_get_bytes_async() is the plain bounded GET: it reads the body into memory with a hard
 * byte limit (a hostile server cannot make us allocate more than asked) through HrNetReader,
 * which puts a deadline on the whole request (libsoup's own timeout only covers each socket
 * operation, so a server dripping one byte every nine seconds would otherwise never time out)
 * and turns GIO's, GLib's and libsoup's errors into a few messages a person can act on.
 */
#include "hr-http.h"
#include "hr-net-reader.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  char         *host;
  HrNetReader  *reader;
  GByteArray   *body;
  gsize         max_bytes;
} Request;

G_DEFINE_QUARK (hr-http-error-quark, hr_http_error)

static SoupSession *default_session;
static guint timeout_seconds = HR_HTTP_DEFAULT_TIMEOUT;

static void
request_free (Request *req)
{
  g_clear_pointer (&req->reader, hr_net_reader_free);
  g_clear_pointer (&req->body, g_byte_array_unref);
  g_free (req->host);
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

  /* libsoup's "Header too big" and "Connection terminated unexpectedly" come after the
   * connection was made: the server answered something that could not be read */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK,
                        _("%s answered, but its answer could not be read: %s"), host, error->message);

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

static void
body_read (GTask *task)
{
  Request *req = g_task_get_task_data (task);

  g_clear_pointer (&req->reader, hr_net_reader_free);
  g_task_return_pointer (task,
                         g_byte_array_free_to_bytes (g_steal_pointer (&req->body)),
                         (GDestroyNotify) g_bytes_unref);
  g_object_unref (task);
}

/* Errors end the task through hr_net_task_return_error(): freeing the reader hangs up on what
 * is left of the answer, so an endless body is not drained. */
static void
answered (GTask *task)
{
  Request *req = g_task_get_task_data (task);
  SoupMessage *msg = hr_net_reader_get_message (req->reader);
  guint status = hr_net_reader_get_status (req->reader);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *reason = hr_http_reason_phrase (msg);

      hr_net_task_return_error (task, &req->reader,
                                g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                                             _("%s answered HTTP %u %s"), req->host, status,
                                             reason));
      return;
    }
  hr_net_step_read_body (req->body, req->max_bytes,
                         &(HrNetStep) { .reader = &req->reader,
                                        .next = (HrNetNextFunc) body_read, .data = task });
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

guint
hr_http_timeout_or_default (guint timeout_s)
{
  return timeout_s > 0 ? MIN (timeout_s, HR_HTTP_MAX_TIMEOUT) : timeout_seconds;
}

GUri *
hr_http_parse_web_url (const char  *url,
                       GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  if (uri == NULL || (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0)
      || host == NULL || host[0] == '\0')
    {
      g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_INVALID_URL,
                   _("“%s” is not a web address (http:// or https://)"), url);
      return NULL;
    }
  return g_steal_pointer (&uri);
}

char *
hr_http_reason_phrase (SoupMessage *msg)
{
  char *reason = hr_text_sanitize (soup_message_get_reason_phrase (msg), 80);

  if (reason == NULL || reason[0] == '\0')
    {
      g_free (reason);
      reason = g_strdup (soup_status_get_phrase (soup_message_get_status (msg)));
    }
  return reason;
}

gboolean
hr_http_declares_over (SoupMessage *msg,
                       guint64      max_bytes)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (msg);

  return soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH
         && (guint64) MAX (soup_message_headers_get_content_length (headers), 0) > max_bytes;
}

void
hr_http_get_bytes_async (const char          *url,
                         gsize                max_bytes,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  GError *error = NULL;
  GTask *task;
  Request *req;

  g_return_if_fail (url != NULL);
  g_return_if_fail (max_bytes > 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  uri = hr_http_parse_web_url (url, &error);
  if (uri == NULL)
    {
      g_task_report_error (NULL, callback, user_data, hr_http_get_bytes_async, error);
      return;
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_http_get_bytes_async);
  req = g_new0 (Request, 1);
  req->host = g_strdup (g_uri_get_host (uri));
  req->body = g_byte_array_new ();
  req->max_bytes = max_bytes;
  g_task_set_task_data (task, req, (GDestroyNotify) request_free);

  msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  soup_message_headers_replace (soup_message_get_request_headers (msg),
                                "Accept", "application/json");
  hr_net_step_send (msg, hr_net_budget_new (0), cancellable,
                    &(HrNetStep) { .reader = &req->reader,
                                   .next = (HrNetNextFunc) answered, .data = task });
}

GBytes *
hr_http_get_bytes_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_http_get_bytes_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
hr_http_url_for_display (const char *url)
{
  const char *scheme_end, *host_start, *at, *end;

  if (url == NULL)
    return NULL;
  /* by hand, not by GUri: also an address GUri would refuse is shown without its password */
  scheme_end = strstr (url, "://");
  if (scheme_end == NULL)
    return g_strdup (url);
  host_start = scheme_end + 3;
  end = host_start + strcspn (host_start, "/?#");
  at = NULL;
  for (const char *p = host_start; p < end; p++)
    if (*p == '@')
      at = p;
  if (at == NULL)
    return g_strdup (url);
  return g_strdup_printf ("%.*s%s", (int) (host_start - url), url, at + 1);
}
