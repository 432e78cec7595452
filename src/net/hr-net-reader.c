/* hr-net-reader.c — one HTTP exchange on the shared session, read as far as the caller wants
 *
 * The same rules as hr_http_get_bytes_async(): one deadline for the whole exchange (libsoup's
 * own timeout only covers each socket operation), reads by whole chunks (libsoup 3.2's chunked
 * decoder asserts when asked for fewer bytes than its boundary), and GIO's, GLib's and
 * libsoup's errors turned into a few messages a person can act on.
 */
#include "hr-net-reader.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-http.h"

#define READ_CHUNK (64 * 1024)
/* A GByteArray counts in guint, and a read may go one chunk past what it asks for. */
#define MAX_BODY   ((gsize) G_MAXUINT32 - 2 * READ_CHUNK)

struct _HrNetReader
{
  SoupMessage  *msg;
  char         *host;                /* as asked, for messages */
  GCancellable *cancellable;         /* ours: cancelled by the caller's, the deadline or free */
  GCancellable *caller_cancellable;
  gulong        cancelled_id;
  GSource      *deadline;
  guint         timeout;
  gboolean      timed_out;
  GInputStream *stream;
  guint64       bytes_read;
  gboolean      eof;
  gboolean      reading;
  GByteArray   *buf;                 /* the current read's, borrowed */
  gsize         until;
  gsize         limit;               /* reading a whole body: more fails; else 0 */
};

static GError *
map_error (HrNetReader  *reader,
           const GError *error)
{
  if (reader->stream != NULL)
    return hr_http_map_read_error (error, reader->host, reader->timeout, reader->timed_out);
  return hr_http_map_error (error, reader->host, reader->timeout, reader->timed_out);
}

static gboolean
deadline_cb (gpointer user_data)
{
  HrNetReader *reader = user_data;

  reader->timed_out = TRUE;
  g_clear_pointer (&reader->deadline, g_source_unref);
  g_cancellable_cancel (reader->cancellable);
  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *caller,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static GError *
too_large_error (HrNetReader *reader)
{
  g_autofree char *limit = g_format_size_full (reader->limit, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                      _("The answer from %s is larger than %s"), reader->host, limit);
}

/* Ends the current read of @task with @error (taken), or else with the reader, unless it read
 * a whole body past its limit. */
static void
read_end (GTask  *task,
          GError *error)
{
  HrNetReader *reader = g_task_get_task_data (task);

  reader->reading = FALSE;
  if (error == NULL && reader->limit > 0 && reader->buf->len > reader->limit)
    error = too_large_error (reader);
  reader->buf = NULL;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reader, NULL);
}

static void read_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
read_next (GTask *task)
{
  HrNetReader *reader = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (reader->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   reader->cancellable, read_cb, task);
}

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrNetReader *reader = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (chunk == NULL)
    {
      read_end (task, map_error (reader, error));
      return;
    }

  size = g_bytes_get_size (chunk);
  reader->eof = size == 0;
  g_byte_array_append (reader->buf, g_bytes_get_data (chunk, NULL), (guint) size);
  reader->bytes_read += size;
  if (reader->eof || reader->buf->len >= reader->until)
    read_end (task, NULL);
  else
    read_next (g_steal_pointer (&task));
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrNetReader *reader = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  reader->stream = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (reader->stream == NULL)
    {
      GError *mapped = map_error (reader, error);

      hr_net_reader_free (reader);
      g_task_return_error (task, mapped);
      return;
    }
  g_task_return_pointer (task, reader, (GDestroyNotify) hr_net_reader_free);
}

HrNetBudget
hr_net_budget_new (guint timeout_s)
{
  guint timeout = hr_http_timeout_or_default (timeout_s);

  return (HrNetBudget) { timeout, g_get_monotonic_time () + (gint64) timeout * G_USEC_PER_SEC };
}

guint
hr_net_deadline_left (gint64 deadline)
{
  gint64 left = deadline - g_get_monotonic_time ();

  return left > 0 ? (guint) ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC) : 0;
}

void
hr_net_reader_send_async (SoupMessage         *msg,
                          guint                timeout_s,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  HrNetBudget budget = hr_net_budget_new (timeout_s);

  hr_net_reader_send_until_async (msg, budget.timeout, budget.deadline, cancellable, callback,
                                  user_data);
}

void
hr_net_reader_send_until_async (SoupMessage         *msg,
                                guint                timeout_s,
                                gint64               deadline,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  gint64 left_ms = MAX (deadline - g_get_monotonic_time (), 0) / 1000;
  HrNetReader *reader;
  const char *host;
  GTask *task;
  GUri *uri;

  g_return_if_fail (SOUP_IS_MESSAGE (msg));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  uri = soup_message_get_uri (msg);
  host = uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "?";
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_net_reader_send_async);
  /* The last request of a user action whose time is up is not sent at all. */
  if (hr_net_deadline_left (deadline) == 0)
    {
      g_task_return_error (task, hr_http_map_error (NULL, host,
                                                  hr_http_timeout_or_default (timeout_s), TRUE));
      g_object_unref (task);
      return;
    }

  reader = g_new0 (HrNetReader, 1);
  reader->msg = g_object_ref (msg);
  reader->host = g_strdup (host);
  reader->cancellable = g_cancellable_new ();
  reader->timeout = hr_http_timeout_or_default (timeout_s);
  /* Not freed with the task: send_cb frees it on failure, the caller owns it on success. */
  g_task_set_task_data (task, reader, NULL);

  if (cancellable != NULL)
    {
      reader->caller_cancellable = g_object_ref (cancellable);
      /* Runs at once when @cancellable is already cancelled; the send then fails right away. */
      reader->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                                    g_object_ref (reader->cancellable),
                                                    g_object_unref);
    }

  /* To the millisecond: a seconds source may fire up to a second late, and the deadline of a
   * user action's last request is often a fraction of one. */
  reader->deadline = g_timeout_source_new ((guint) MIN (left_ms, (gint64) G_MAXUINT));
  g_source_set_callback (reader->deadline, deadline_cb, reader, NULL);
  g_source_set_name (reader->deadline, "[headroom] http reader deadline");
  g_source_attach (reader->deadline, g_task_get_context (task));

  soup_session_send_async (hr_http_get_session (), msg, G_PRIORITY_DEFAULT, reader->cancellable,
                           send_cb, task);
}

HrNetReader *
hr_net_reader_send_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_net_reader_send_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SoupMessage *
hr_net_reader_get_message (HrNetReader *reader)
{
  g_return_val_if_fail (reader != NULL, NULL);
  return reader->msg;
}

guint
hr_net_reader_get_status (HrNetReader *reader)
{
  g_return_val_if_fail (reader != NULL, 0);
  return soup_message_get_status (reader->msg);
}

guint64
hr_net_reader_get_bytes_read (HrNetReader *reader)
{
  g_return_val_if_fail (reader != NULL, 0);
  return reader->bytes_read;
}

gboolean
hr_net_reader_is_eof (HrNetReader *reader)
{
  g_return_val_if_fail (reader != NULL, TRUE);
  return reader->eof;
}

/* Reads into @buf until @until bytes, or to the end of the body; @limit as reader->limit. */
static void
read_async (HrNetReader         *reader,
            GByteArray          *buf,
            gsize                until,
            gsize                limit,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (reader != NULL);
  g_return_if_fail (buf != NULL);
  g_return_if_fail (!reader->reading);

  task = g_task_new (NULL, NULL, callback, user_data);
  g_task_set_source_tag (task, read_async);
  g_task_set_task_data (task, reader, NULL);
  reader->buf = buf;
  reader->until = until;
  reader->limit = limit;

  if (limit > 0 && hr_http_declares_over (reader->msg, limit))
    read_end (task, too_large_error (reader));
  else if (reader->eof || buf->len >= until)
    read_end (task, NULL);
  /* A GByteArray counts in guint. */
  else if (until > G_MAXUINT32 - READ_CHUNK)
    read_end (task, g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                                 _("The answer from %s is too large"), reader->host));
  else
    {
      reader->reading = TRUE;
      read_next (g_object_ref (task));
    }
  g_object_unref (task);
}

/* A step being taken: a copy of the caller's. */
static HrNetStep *
step_copy (const HrNetStep *step)
{
  return g_memdup2 (step, sizeof *step);
}

/* Takes @step; @error when the step failed. */
static void
step_end (HrNetStep *step,
          GError    *error)
{
  HrNetStep s = *step;

  g_free (step);
  if (error == NULL)
    s.next (s.data);
  else if (s.fail != NULL)
    s.fail (s.data, error);
  else
    hr_net_task_return_error (s.data, s.reader, error);
}

/* A send and a read both end with the exchange's reader: a send's is new, a read's the same. */
static void
step_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  HrNetStep *step = user_data;
  GError *error = NULL;
  HrNetReader *reader = g_task_propagate_pointer (G_TASK (result), &error);

  if (reader != NULL)
    *step->reader = reader;
  step_end (step, error);
}

void
hr_net_step_send (SoupMessage     *msg,
                  HrNetBudget      budget,
                  GCancellable    *cancellable,
                  const HrNetStep *step)
{
  g_return_if_fail (step != NULL && step->reader != NULL && step->next != NULL);

  hr_net_reader_send_until_async (msg, budget.timeout, budget.deadline, cancellable, step_cb,
                                  step_copy (step));
}

void
hr_net_step_read (GByteArray      *buf,
                  gsize            until,
                  const HrNetStep *step)
{
  g_return_if_fail (step != NULL && step->reader != NULL && step->next != NULL);

  read_async (*step->reader, buf, until, 0, step_cb, step_copy (step));
}

void
hr_net_step_read_body (GByteArray      *buf,
                       gsize            max_bytes,
                       const HrNetStep *step)
{
  gsize limit = MIN (max_bytes, MAX_BODY);

  g_return_if_fail (step != NULL && step->reader != NULL && step->next != NULL);

  /* One byte past the limit tells "exactly at the limit" from "over it". */
  read_async (*step->reader, buf, limit + 1, limit, step_cb, step_copy (step));
}

void
hr_net_task_return_error (GTask        *task,
                          HrNetReader **reader,
                          GError       *error)
{
  if (reader != NULL)
    g_clear_pointer (reader, hr_net_reader_free);
  g_task_return_error (task, error);
  g_object_unref (task);
}

void
hr_net_reader_free (HrNetReader *reader)
{
  if (reader == NULL)
    return;
  g_return_if_fail (!reader->reading);

  if (reader->deadline != NULL)
    {
      g_source_destroy (reader->deadline);
      g_clear_pointer (&reader->deadline, g_source_unref);
    }
  if (reader->cancelled_id != 0)
    g_cancellable_disconnect (reader->caller_cancellable, reader->cancelled_id);
  /* Closing a body stream reads the rest of the body first; cancelling the message beforehand
   * hangs up instead, which is the point when the rest is a multi-GiB file. */
  if (reader->stream != NULL && !reader->eof)
    g_cancellable_cancel (reader->cancellable);
  g_clear_object (&reader->stream);
  g_clear_object (&reader->msg);
  g_clear_object (&reader->cancellable);
  g_clear_object (&reader->caller_cancellable);
  g_free (reader->host);
  g_free (reader);
}

GError *
hr_net_status_error (SoupMessage *msg,
                     const char  *what)
{
  guint status = soup_message_get_status (msg);
  GUri *uri = soup_message_get_uri (msg);
  const char *host = uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "?";
  g_autofree char *reason = hr_http_reason_phrase (msg);

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
      return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                          _("%s on %s needs an access token (HTTP 401): it is private or "
                            "gated, or does not exist"), what, host);
    case SOUP_STATUS_FORBIDDEN:
      return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                          _("%s on %s: access refused (HTTP 403)"), what, host);
    case SOUP_STATUS_NOT_FOUND:
    case 410:
      return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                          _("%s was not found on %s (HTTP %u)"), what, host, status);
    case 429:  /* Too Many Requests; libsoup 3.2 has no name for it */
      return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                          _("%s is limiting requests (HTTP 429); try again in a while"), host);
    default:
      if (status >= 500 && status < 600)
        return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                            _("%s had a server error (HTTP %u %s); try again later"),
                            host, status, reason);
      return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                          _("%s: %s answered HTTP %u %s"), what, host, status, reason);
    }
}

void
hr_net_sync_prepare (void)
{
  hr_http_get_session ();
}

void
hr_net_sync_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

void
hr_net_sync_wait (GAsyncResult **result)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

  while (*result == NULL)
    g_main_context_iteration (context, TRUE);
}
