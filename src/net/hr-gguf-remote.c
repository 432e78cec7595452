/* hr-gguf-remote.c — a GGUF header over HTTP, without downloading the weights
 *
 * One part at a time: ask for bytes 0 … 1 MiB − 1, hand what arrived to hr_gguf_parse(), and
 * while it wants a longer prefix ask for the next range (it grows the prefix at least
 * geometrically, so a 20 MiB tokenizer takes five round trips, not twenty).  A server that
 * ignores Range answers 200 with the whole file: then the same answer is read on until the
 * header parses, and the connection is dropped there.  Everything is bounded by
 * HR_GGUF_REMOTE_MAX_BYTES, whatever the server says or sends.
 */
#include "hr-gguf-remote.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>
#include <unistd.h>

#include "hr-http.h"
#include "hr-net-reader.h"

typedef struct
{
  char *url;               /* as given (after the blob → resolve rewrite) */
  HrNetBudget budget;      /* for the whole load, every part and request included */

  /* A split model; n_parts is 0 until the given file's header is read. */
  guint n_parts;
  guint given_part;        /* 1-based */
  GPtrArray *part_urls;    /* char *, part order */
  GPtrArray *prefixes;     /* GBytes, part order: each part's header bytes */
  guint64 *part_sizes;     /* 0 when the server did not say */
  guint part;              /* 1-based, the part being read */

  /* The file being read. */
  const char *cur_url;
  char *cur_name;          /* its file name, for messages */
  GByteArray *buf;         /* the prefix read so far */
  gsize want;              /* the prefix length the current request asks for */
  HrNetReader *reader;
  gboolean whole_body;     /* the server ignored Range: buf grows from one 200 answer */
  guint64 cur_size;        /* the file's size when the server said, else 0 */
  HrGgufPrefix prefix;     /* what the parse of buf needs to know, set before it runs */

  guint64 done_bytes;      /* body bytes of finished requests */
  gboolean size_unknown;
  HrGgufRemoteStats stats;
} Load;

static void
load_free (Load *load)
{
  g_clear_pointer (&load->reader, hr_net_reader_free);
  g_free (load->url);
  g_clear_pointer (&load->part_urls, g_ptr_array_unref);
  g_clear_pointer (&load->prefixes, g_ptr_array_unref);
  g_free (load->part_sizes);
  g_free (load->cur_name);
  g_clear_pointer (&load->buf, g_byte_array_unref);
  g_free (load);
}

static void
update_stats (Load *load)
{
  load->stats.bytes_fetched = load->done_bytes +
                              (load->reader != NULL ? hr_net_reader_get_bytes_read (load->reader)
                                                    : 0);
}

static void
drop_reader (Load *load)
{
  if (load->reader == NULL)
    return;
  load->done_bytes += hr_net_reader_get_bytes_read (load->reader);
  g_clear_pointer (&load->reader, hr_net_reader_free);
  update_stats (load);
}

/* The last path segment, unescaped: "Model-Q4_K_M-00001-of-00003.gguf". */
static char *
url_file_name (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  const char *path = uri != NULL ? g_uri_get_path (uri) : NULL;
  const char *slash;
  char *name;

  if (path == NULL || *path == '\0' || g_str_has_suffix (path, "/"))
    return g_strdup (url);
  slash = strrchr (path, '/');
  name = g_uri_unescape_string (slash != NULL ? slash + 1 : path, NULL);
  return name != NULL ? name : g_strdup (slash != NULL ? slash + 1 : path);
}

/* People paste the page address (…/blob/main/x.gguf); the file itself is at …/resolve/…. */
static char *
resolve_hub_page (GUri *uri)
{
  const char *host = g_uri_get_host (uri);
  g_auto(GStrv) segments = NULL;
  g_autofree char *path = NULL;

  if (host == NULL || (g_ascii_strcasecmp (host, "huggingface.co") != 0 &&
                       g_ascii_strcasecmp (host, "hf.co") != 0))
    return NULL;
  segments = g_strsplit (g_uri_get_path (uri), "/", 5);
  /* "", org, repo, "blob", rest */
  if (g_strv_length (segments) != 5 || strcmp (segments[3], "blob") != 0)
    return NULL;
  path = g_strdup_printf ("/%s/%s/resolve/%s", segments[1], segments[2], segments[4]);
  return g_uri_join (SOUP_HTTP_URI_FLAGS, g_uri_get_scheme (uri), g_uri_get_userinfo (uri),
                     host, g_uri_get_port (uri), path, g_uri_get_query (uri),
                     g_uri_get_fragment (uri));
}

/* Splits "…/NAME-00002-of-00005.gguf?q" into the address of every part.  FALSE when the path
 * does not follow the scheme or disagrees with @count. */
static gboolean
split_urls (const char  *url,
            guint        count,
            guint       *given,
            GPtrArray  **urls_out)
{
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  g_autoptr(GPtrArray) urls = NULL;
  g_autofree char *prefix = NULL;
  guint no, of;

  if (uri == NULL || !hr_gguf_split_name_parse (g_uri_get_path (uri), &prefix, &no, &of) ||
      of != count)
    return FALSE;

  urls = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 1; i <= count; i++)
    {
      g_autofree char *part_path = hr_gguf_split_name (prefix, i, count);

      g_ptr_array_add (urls, g_uri_join (SOUP_HTTP_URI_FLAGS, g_uri_get_scheme (uri),
                                         g_uri_get_userinfo (uri), g_uri_get_host (uri),
                                         g_uri_get_port (uri), part_path, g_uri_get_query (uri),
                                         g_uri_get_fragment (uri)));
    }
  *given = no;
  *urls_out = g_steal_pointer (&urls);
  return TRUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Merging the parts of a split model                                                           */

/* Parses each fetched header prefix and merges the parts in memory (the reported file size of
 * each part is the remote one, so completeness means what it does for a local copy). */
static HrGguf *
merge_parts (GPtrArray      *prefixes,
             const guint64  *sizes,
             gint64          deadline,
             GError        **error)
{
  guint n = prefixes->len;
  g_autofree HrGguf **parts = g_new0 (HrGguf *, n);

  for (guint i = 0; i < n; i++)
    {
      GBytes *bytes = g_ptr_array_index (prefixes, i);
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);
      gboolean need_more = FALSE;
      gsize needed = 0;

      /* the metadata is the first part's: the others keep no values (one budget for all) */
      parts[i] = hr_gguf_parse_until (data, len, deadline,
                                      i > 0 ? HR_GGUF_PARSE_LATER_PART : HR_GGUF_PARSE_DEFAULT,
                                      &need_more, &needed, error);
      if (parts[i] == NULL)
        {
          if (need_more && error && *error == NULL)
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                         "part %u of %u ends inside its GGUF header", i + 1, n);
          for (guint j = 0; j < i; j++)
            hr_gguf_free (parts[j]);
          return NULL;
        }
      if (sizes[i] > 0)
        hr_gguf_set_file_size (parts[i], sizes[i]);
    }
  return hr_gguf_merge_split (parts, n, error);
}

static void
merge_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Load *load = task_data;
  GError *error = NULL;
  HrGguf *gguf = merge_parts (load->prefixes, load->part_sizes, load->budget.deadline, &error);

  if (gguf == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, gguf, (GDestroyNotify) hr_gguf_free);
}

static void
merge_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  HrGguf *gguf = g_task_propagate_pointer (G_TASK (result), &error);

  if (gguf == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, gguf, (GDestroyNotify) hr_gguf_free);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading one file's header                                                                    */

static void request_range (GTask *task);
static void read_more (GTask *task);

/* Takes the chain's reference to @task. */
static void
fail (GTask  *task,
      GError *error)
{
  Load *load = g_task_get_task_data (task);

  drop_reader (load);
  g_task_return_error (task, error);
  g_object_unref (task);
}

static void
part_begin (GTask      *task,
            const char *url,
            gsize       first)
{
  Load *load = g_task_get_task_data (task);

  load->cur_url = url;
  g_free (load->cur_name);
  load->cur_name = url_file_name (url);
  g_clear_pointer (&load->buf, g_byte_array_unref);
  load->buf = g_byte_array_new ();
  load->want = first;
  load->whole_body = FALSE;
  load->cur_size = 0;
  request_range (task);
}

static void
next_part (GTask *task)
{
  Load *load = g_task_get_task_data (task);
  GTask *merge;

  do
    load->part++;
  while (load->part == load->given_part);

  if (load->part <= load->n_parts)
    {
      part_begin (task, g_ptr_array_index (load->part_urls, load->part - 1),
                  HR_GGUF_REMOTE_PART_BYTES);
      return;
    }

  merge = g_task_new (NULL, g_task_get_cancellable (task), merge_done_cb, task);
  g_task_set_source_tag (merge, merge_thread);
  g_task_set_task_data (merge, load, NULL);
  g_task_run_in_thread (merge, merge_thread);
  g_object_unref (merge);
}

/* The header of the current file parsed. */
static void
part_done (GTask  *task,
           HrGguf *gguf)
{
  Load *load = g_task_get_task_data (task);
  gint64 count = 1, no = 0;

  drop_reader (load);
  load->stats.file_size += load->cur_size;
  load->size_unknown = load->size_unknown || load->cur_size == 0;

  hr_gguf_get_int (gguf, "split.count", &count);
  hr_gguf_get_int (gguf, "split.no", &no);

  if (load->n_parts == 0)
    {
      /* The given file. */
      if (count <= 1)
        {
          load->stats.n_parts = 1;
          g_task_return_pointer (task, gguf, (GDestroyNotify) hr_gguf_free);
          g_object_unref (task);
          return;
        }
      hr_gguf_free (gguf);
      if (count > HR_GGUF_MAX_SPLITS)
        {
          fail (task, g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                                   _("%s: split.count is %lld (at most %d parts)"),
                                   load->cur_name, (long long) count, HR_GGUF_MAX_SPLITS));
          return;
        }
      if (!split_urls (load->url, (guint) count, &load->given_part, &load->part_urls))
        {
          fail (task, g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                                   _("%s is part of a %lld-part model, but its "
                                     "address does not end in -NNNNN-of-%05lld"
                                     ".gguf, so the other parts cannot be found"),
                                   load->cur_name, (long long) count, (long long) count));
          return;
        }
      load->n_parts = (guint) count;
      load->stats.n_parts = load->n_parts;
      load->prefixes = g_ptr_array_new_full (load->n_parts, (GDestroyNotify) g_bytes_unref);
      g_ptr_array_set_size (load->prefixes, (gint) load->n_parts);
      load->part_sizes = g_new0 (guint64, load->n_parts);
      load->part = load->given_part;
    }
  else
    hr_gguf_free (gguf);

  if (no != (gint64) load->part - 1 || count != (gint64) load->n_parts)
    {
      fail (task, g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                               _("%s says it is part %d of %d, but its name says part %u of %u"),
                               load->cur_name, (int) CLAMP (no + 1, G_MININT, G_MAXINT),
                               (int) CLAMP (count, G_MININT, G_MAXINT), load->part, load->n_parts));
      return;
    }

  g_ptr_array_index (load->prefixes, load->part - 1) =
    g_byte_array_free_to_bytes (g_steal_pointer (&load->buf));
  load->part_sizes[load->part - 1] = load->cur_size;

  if (load->part == load->given_part)
    load->part = 0;
  next_part (task);
}

/* The file ended with its header still going on. */
static GError *
prefix_ended_error (const char *name,
                    gsize       len)
{
  if (len == 0)
    return g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, _("%s is empty, not a GGUF file"), name);
  return g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                      _("%s ends inside its GGUF header (after %u bytes): the file is cut off "
                        "or not a complete GGUF"), name, (guint) len);
}

/* What hr_gguf_remote_parse_prefix() made of the prefix read so far. */
typedef struct
{
  HrGguf *gguf;
  gsize next;
} Parsed;

static void
parsed_free (Parsed *parsed)
{
  g_clear_pointer (&parsed->gguf, hr_gguf_free);
  g_free (parsed);
}

/* The parse runs in a worker, within the load's deadline: a header of a million names takes
 * seconds, which the main loop (the window) must not wait for, and which the deadline of the
 * transfer bounds as it bounds the transfer. */
static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Load *load = task_data;
  Parsed *parsed = g_new0 (Parsed, 1);
  GError *error = NULL;

  parsed->gguf = hr_gguf_remote_parse_prefix (&load->prefix, load->buf->data, load->buf->len,
                                              &parsed->next, &error);
  if (error != NULL)
    {
      parsed_free (parsed);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, parsed, (GDestroyNotify) parsed_free);
}

static void range_parsed_cb (GObject      *source,
                             GAsyncResult *result,
                             gpointer      user_data);

static void
range_read (GTask *task)
{
  Load *load = g_task_get_task_data (task);
  GTask *parse;

  update_stats (load);
  load->prefix = (HrGgufPrefix) {
    .name = load->cur_name,
    .file_size = load->cur_size,
    .fetched = load->stats.bytes_fetched,
    .ended = load->whole_body && hr_net_reader_is_eof (load->reader),
    .from_start = FALSE,
    .split = load->n_parts > 1,
    .deadline = load->budget.deadline,
  };
  /* Nothing touches load->buf until range_parsed_cb runs. */
  parse = g_task_new (NULL, g_task_get_cancellable (task), range_parsed_cb, task);
  g_task_set_source_tag (parse, parse_thread);
  g_task_set_task_data (parse, load, NULL);
  g_task_run_in_thread (parse, parse_thread);
  g_object_unref (parse);
}

/* Takes the chain's reference to the load's task, @user_data. */
static void
range_parsed_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  Load *load = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  Parsed *parsed = g_task_propagate_pointer (G_TASK (result), &error);

  /* the file ended inside its header, the limit, the parser's own: they name the file */
  if (parsed == NULL)
    {
      fail (task, g_steal_pointer (&error));
      return;
    }
  if (parsed->gguf != NULL)
    {
      HrGguf *gguf = g_steal_pointer (&parsed->gguf);

      parsed_free (parsed);
      part_done (task, gguf);
      return;
    }
  load->want = parsed->next;
  parsed_free (parsed);

  if (load->whole_body)
    read_more (task);
  else
    {
      drop_reader (load);
      request_range (task);
    }
}

static void
read_more (GTask *task)
{
  Load *load = g_task_get_task_data (task);

  /* A 206 answer holds exactly the range: read one past it to see its end, so the connection
   * is left clean for the next request. */
  hr_net_step_read (load->buf, load->whole_body ? load->want : load->want + 1,
                    &(HrNetStep) { &load->reader, (HrNetNextFunc) range_read,
                                   (HrNetFailFunc) fail, task });
}

static void
answered (GTask *task)
{
  Load *load = g_task_get_task_data (task);
  SoupMessage *msg = hr_net_reader_get_message (load->reader);
  SoupMessageHeaders *headers = soup_message_get_response_headers (msg);
  goffset start = -1, end = -1, total = -1;


  switch (hr_net_reader_get_status (load->reader))
    {
    case SOUP_STATUS_PARTIAL_CONTENT:
      if (!soup_message_headers_get_content_range (headers, &start, &end, &total) ||
          start != (goffset) load->buf->len)
        {
          fail (task, g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                                   _("%s: the server sent a different byte range than asked "
                                     "for"), load->cur_name));
          return;
        }
      if (total > 0)
        load->cur_size = (guint64) total;
      break;

    case SOUP_STATUS_OK:
      /* No Range support: the answer is the whole file from its first byte. */
      load->whole_body = TRUE;
      g_byte_array_set_size (load->buf, 0);
      if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH)
        load->cur_size = (guint64) soup_message_headers_get_content_length (headers);
      break;

    case SOUP_STATUS_REQUESTED_RANGE_NOT_SATISFIABLE:
      /* Asked to start at or past the end of the file. */
      fail (task, prefix_ended_error (load->cur_name, load->buf->len));
      return;

    case SOUP_STATUS_NOT_FOUND:
      if (load->n_parts > 1)
        {
          fail (task, g_error_new (HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                                   _("Part %u of %u of the model (%s) was not found"),
                                   load->part, load->n_parts, load->cur_name));
          return;
        }
      G_GNUC_FALLTHROUGH;

    default:
      {
        g_autofree char *what = g_strdup_printf (_("The file %s"), load->cur_name);

        fail (task, hr_net_status_error (msg, what));
        return;
      }
    }

  read_more (task);
}

static void
request_range (GTask *task)
{
  Load *load = g_task_get_task_data (task);
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, load->cur_url);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);

  /* Byte ranges of the file itself, not of a compressed rendering of it. */
  soup_message_headers_replace (headers, "Accept-Encoding", "identity");
  soup_message_disable_feature (msg, SOUP_TYPE_CONTENT_DECODER);
  soup_message_headers_set_range (headers, load->buf->len, (goffset) load->want - 1);
  load->stats.n_requests++;
  hr_net_step_send (msg, load->budget, g_task_get_cancellable (task),
                    &(HrNetStep) { &load->reader, (HrNetNextFunc) answered,
                                   (HrNetFailFunc) fail, task });
}

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                   */

/* The prefix grows at least geometrically, so a 20 MiB tokenizer takes five round trips, not
 * twenty; and never past HR_GGUF_REMOTE_MAX_BYTES fetched in all, whatever the file says. */
HrGguf *
hr_gguf_remote_parse_prefix (const HrGgufPrefix *prefix,
                             const guint8       *data,
                             gsize               len,
                             gsize              *next_len,
                             GError            **error)
{
  g_autoptr(GError) local = NULL;
  gboolean need_more = FALSE;
  gsize needed = 0;
  guint64 budget, next;
  HrGguf *gguf;

  g_return_val_if_fail (prefix != NULL && prefix->name != NULL, NULL);
  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (next_len != NULL, NULL);

  *next_len = 0;
  gguf = hr_gguf_parse_until (data, len, prefix->deadline, HR_GGUF_PARSE_DEFAULT, &need_more,
                              &needed, &local);
  if (gguf != NULL)
    return gguf;
  if (local != NULL)
    {
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&local, "%s: ", prefix->name);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!need_more || prefix->ended || (prefix->file_size > 0 && len >= prefix->file_size))
    {
      g_propagate_error (error, prefix_ended_error (prefix->name, len));
      return NULL;
    }

  budget = HR_GGUF_REMOTE_MAX_BYTES - MIN (prefix->fetched, (guint64) HR_GGUF_REMOTE_MAX_BYTES);
  next = MAX ((guint64) needed, (guint64) len * 2);
  /* what the next read fetches: all of it again, or only what the prefix lacks */
  next = MIN (next, prefix->from_start ? budget : len + budget);
  next = MIN (next, (guint64) HR_GGUF_REMOTE_MAX_BYTES);
  if (prefix->file_size > 0)
    next = MIN (next, prefix->file_size);
  if (next <= len)
    {
      g_autofree char *limit = g_format_size_full (HR_GGUF_REMOTE_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   _("%s: read %s without reaching the end of the GGUF header%s; "
                     "Headroom reads no more than that"),
                   prefix->name, limit, prefix->split ? _(" (all parts together)") : "");
      return NULL;
    }
  *next_len = (gsize) next;
  return NULL;
}

gboolean
hr_gguf_remote_is_url (const char *str)
{
  return str != NULL && (g_ascii_strncasecmp (str, "http://", 7) == 0 ||
                         g_ascii_strncasecmp (str, "https://", 8) == 0);
}

static void
load_start (const char          *url,
            guint                timeout_s,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  g_autoptr(GUri) uri = NULL;
  GError *error = NULL;
  GTask *task;
  Load *load;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_gguf_remote_load_async);
  load = g_new0 (Load, 1);
  load->budget = hr_net_budget_new (timeout_s);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);

  uri = hr_http_parse_web_url (url, &error);
  if (uri == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  load->url = resolve_hub_page (uri);
  if (load->url == NULL)
    load->url = g_strdup (url);
  part_begin (task, load->url, HR_GGUF_REMOTE_FIRST_BYTES);
}

void
hr_gguf_remote_load_async (const char          *url,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  load_start (url, 0, cancellable, callback, user_data);
}

HrGguf *
hr_gguf_remote_load_finish (GAsyncResult       *result,
                            HrGgufRemoteStats  *stats,
                            GError            **error)
{
  Load *load;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_gguf_remote_load_async,
                        NULL);

  load = g_task_get_task_data (G_TASK (result));
  if (stats != NULL)
    {
      update_stats (load);
      *stats = load->stats;
      if (load->size_unknown)
        stats->file_size = 0;
    }
  return g_task_propagate_pointer (G_TASK (result), error);
}

HrGguf *
hr_gguf_remote_load_sync (const char         *url,
                          guint               timeout_s,
                          HrGgufRemoteStats  *stats,
                          GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  hr_net_sync_prepare ();
  load_start (url, timeout_s, NULL, hr_net_sync_cb, &result);
  hr_net_sync_wait (&result);

  return hr_gguf_remote_load_finish (result, stats, error);
}
