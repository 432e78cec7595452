/* hr-net-reader.h — one HTTP exchange on the shared session, read as far as the caller wants
 *
 * Private to src/net.  hr_http_get_bytes_async() is a plain bounded GET made with it; the GGUF
 * reader and the hub client need more: request headers (Range, Authorization), the status and headers before any body,
 * reading the body a piece at a time, and hanging up in the middle of a body that is larger
 * than what it wants (a server that ignores Range sends the whole multi-GiB file).
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _HrNetReader HrNetReader;

/* The time a user action made of several requests (a split model's parts, redirect hops) may
 * take in all: each request's message is given @timeout, and none runs past @deadline. */
typedef struct
{
  guint  timeout;    /* seconds */
  gint64 deadline;   /* the g_get_monotonic_time() at which the time is up */
} HrNetBudget;

/* A budget of @timeout_s (0: hr_http_get_timeout()) from now. */
HrNetBudget     hr_net_budget_new           (guint                timeout_s);
/* The whole seconds left before @deadline (rounded up), 0 when it has passed. */
guint           hr_net_deadline_left        (gint64               deadline);

/* Sends @msg on hr_http_get_session().  @timeout_s (0: hr_http_get_timeout()) bounds the whole
 * exchange, from connecting to the last byte read.  Completes once the status and headers are
 * in; any status is a success here.  Errors are HR_HTTP_ERROR, or G_IO_ERROR_CANCELLED. */
void            hr_net_reader_send_async    (SoupMessage         *msg,
                                             guint                timeout_s,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* The same, ending at @deadline (an HrNetBudget's) rather than after its own timeout;
 * @timeout_s is the operation's, for the message.  A @deadline already passed fails with
 * HR_HTTP_ERROR_TIMEOUT without sending. */
void            hr_net_reader_send_until_async (SoupMessage      *msg,
                                                guint             timeout_s,
                                                gint64            deadline,
                                                GCancellable     *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer          user_data);
HrNetReader    *hr_net_reader_send_finish   (GAsyncResult        *result,
                                             GError             **error);

SoupMessage    *hr_net_reader_get_message   (HrNetReader         *reader);
guint           hr_net_reader_get_status    (HrNetReader         *reader);
/* Body bytes read so far. */
guint64         hr_net_reader_get_bytes_read (HrNetReader        *reader);
gboolean        hr_net_reader_is_eof        (HrNetReader         *reader);

/* What follows one step of an exchange (a send, or a read), run by callbacks on @data: @data is
 * a GTask, or the caller's own state.  When the step succeeds, @next (@data) runs; else @fail
 * (@data, the error, taken), or when @fail is NULL and @data is a GTask,
 * hr_net_task_return_error().  Never before the call that starts the step has returned. */
typedef void (*HrNetNextFunc) (gpointer  data);
typedef void (*HrNetFailFunc) (gpointer  data,
                               GError   *error);
typedef struct
{
  HrNetReader   **reader;   /* the exchange's reader: a send sets it, a read reads from it */
  HrNetNextFunc   next;
  HrNetFailFunc   fail;
  gpointer        data;
} HrNetStep;

/* hr_net_reader_send_until_async() within @budget as a step: *reader is the answer's reader
 * (NULL on failure) when @step's functions run. */
void            hr_net_step_send            (SoupMessage         *msg,
                                             HrNetBudget          budget,
                                             GCancellable        *cancellable,
                                             const HrNetStep     *step);
/* Appends body bytes to @buf until it holds at least @until bytes or the body ends (reads go
 * by whole 64 KiB chunks, so @buf may end up to one chunk past @until).  One read at a time. */
void            hr_net_step_read            (GByteArray          *buf,
                                             gsize                until,
                                             const HrNetStep     *step);
/* Reads the whole body into @buf, refusing more than @max_bytes: a declared Content-Length
 * over that fails before a byte is read, a longer body as soon as it shows, both with
 * HR_HTTP_ERROR_TOO_LARGE ("The answer from HOST is larger than LIMIT"). */
void            hr_net_step_read_body       (GByteArray          *buf,
                                             gsize                max_bytes,
                                             const HrNetStep     *step);
/* Hangs up on *@reader (when @reader is not NULL), returns @error on @task and drops the
 * chain's reference to @task. */
void            hr_net_task_return_error    (GTask               *task,
                                             HrNetReader        **reader,
                                             GError              *error);

/* Hangs up on whatever is left of the body (without draining it) and frees the reader.  Not
 * while a read is pending. */
void            hr_net_reader_free          (HrNetReader         *reader);

/* A message a person can act on for a non-2xx answer: HR_HTTP_ERROR_STATUS naming @what ("the
 * file X") and the host. */
GError         *hr_net_status_error         (SoupMessage         *msg,
                                             const char          *what);

/* The _sync variants (for the CLI) run an async call to its end on the thread-default context:
 * libsoup 3.2 binds a session to the main context that was the thread's default when the
 * session was made, so a private context would leave the request waiting for a context nobody
 * runs.  hr_net_sync_prepare() makes the session before the call starts; pass hr_net_sync_cb
 * with a GAsyncResult * (NULL) as the call's callback, then hr_net_sync_wait() on it. */
void            hr_net_sync_prepare         (void);
void            hr_net_sync_cb              (GObject             *source,
                                             GAsyncResult        *result,
                                             gpointer             user_data);
void            hr_net_sync_wait            (GAsyncResult       **result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrNetReader, hr_net_reader_free)

G_END_DECLS
