/* hr-http.h — the one SoupSession, and bounded GETs over it */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

#define HR_HTTP_ERROR (hr_http_error_quark ())
typedef enum
{
  HR_HTTP_ERROR_INVALID_URL,  /* not an http(s) URL with a host */
  HR_HTTP_ERROR_NETWORK,      /* DNS failure, no route, connection refused or reset */
  HR_HTTP_ERROR_TLS,          /* handshake failed or the certificate was refused */
  HR_HTTP_ERROR_STATUS,       /* the server answered with a non-2xx status */
  HR_HTTP_ERROR_TIMEOUT,      /* no complete answer within the timeout */
  HR_HTTP_ERROR_TOO_LARGE,    /* the body is longer than the caller's limit */
  HR_HTTP_ERROR_PROTOCOL,     /* malformed HTTP, redirect loop */
} HrHttpError;

#define HR_HTTP_DEFAULT_TIMEOUT 10   /* seconds */
#define HR_HTTP_MAX_TIMEOUT     600

GQuark          hr_http_error_quark         (void);

/* The application's session (User-Agent "Headroom/VERSION"), made on first use.  Like every
 * SoupSession, use it from one thread only: the one that first asked for it. */
SoupSession    *hr_http_get_session         (void);

/* Seconds allowed for a whole request, from connecting to the last byte (1 … 600). */
void            hr_http_set_timeout         (guint                seconds);
/* Turns a transport error into an HR_HTTP_ERROR naming @host (cancellation is copied as is). */
GError         *hr_http_map_error           (const GError        *error,
                                             const char          *host,
                                             guint                timeout_s,
                                             gboolean             timed_out);
/* The same for an error while reading an answer that had begun: never "Could not connect". */
GError         *hr_http_map_read_error      (const GError        *error,
                                             const char          *host,
                                             guint                timeout_s,
                                             gboolean             timed_out);
guint           hr_http_get_timeout         (void);
/* @timeout_s when given (at most HR_HTTP_MAX_TIMEOUT), else hr_http_get_timeout(). */
guint           hr_http_timeout_or_default  (guint                timeout_s);

/* @url parsed, when it is an http:// or https:// address with a host; else NULL and
 * HR_HTTP_ERROR_INVALID_URL. */
GUri           *hr_http_parse_web_url       (const char          *url,
                                             GError             **error);
/* @url as it may be shown or printed: without the "user:password@" of its authority, if it
 * has one (a copy; NULL stays NULL). */
char           *hr_http_url_for_display     (const char          *url);
/* The reason of an answer's status line, for a message a person reads: the server's own
 * words, escaped and short, or else libsoup's phrase for the status. */
char           *hr_http_reason_phrase       (SoupMessage         *msg);
/* TRUE when the answer to @msg declares a Content-Length over @max_bytes: such a body fails
 * before a byte of it is read. */
gboolean        hr_http_declares_over       (SoupMessage         *msg,
                                             guint64              max_bytes);

/* GETs @url (http or https) and returns its body, failing with HR_HTTP_ERROR_TOO_LARGE as soon
 * as it exceeds @max_bytes, without reading the rest.  Errors are in HR_HTTP_ERROR, except a
 * cancelled @cancellable, which gives G_IO_ERROR_CANCELLED. */
void            hr_http_get_bytes_async     (const char          *url,
                                             gsize                max_bytes,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
GBytes         *hr_http_get_bytes_finish    (GAsyncResult        *result,
                                             GError             **error);

G_END_DECLS
