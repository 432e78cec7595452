/* hr-gguf-remote.h — a GGUF header over HTTP, without downloading the weights
 *
 * Reads the start of the file with Range requests (1 MiB first, then geometrically more while
 * hr_gguf_parse() asks for it), so sizing a 200 GiB model costs a few MiB of traffic.  Follows
 * redirects (Hugging Face's /resolve/ answers with its CDN), copes with servers that ignore
 * Range (reads what it needs of the full answer, then hangs up), and for a split model
 * (NAME-00001-of-0000N.gguf, any part may be given) reads every part's header and sums their
 * tensors.
 */
#pragma once

#include <gio/gio.h>

#include "hr-gguf.h"

G_BEGIN_DECLS

/* The first request of the given file, and of each further part of a split model. */
#define HR_GGUF_REMOTE_FIRST_BYTES  (1024 * 1024)
#define HR_GGUF_REMOTE_PART_BYTES   (256 * 1024)
/* At most this much is read over all requests and parts (tokenizer arrays can take tens of
 * MiB); a header that needs more fails with HR_GGUF_ERROR_LIMIT. */
#define HR_GGUF_REMOTE_MAX_BYTES    (64 * 1024 * 1024)

typedef struct
{
  guint64 bytes_fetched;  /* body bytes received, over all requests and parts */
  guint64 file_size;      /* size of the remote file(s) when the server said; 0 when unknown */
  guint   n_requests;
  guint   n_parts;        /* 1, or the number of parts of a split model */
} HrGgufRemoteStats;

/* @url: http(s) address of a .gguf file (a huggingface.co …/blob/… page address is read as the
 * matching …/resolve/… file).  Each request gets hr_http_get_timeout().
 * Errors: HR_HTTP_ERROR for the transfer (bad address, network, 4xx/5xx with a message naming
 * the status, timeout); HR_GGUF_ERROR for the contents (NOT_GGUF, TRUNCATED when the file ends
 * inside its header, LIMIT beyond HR_GGUF_REMOTE_MAX_BYTES, SPLIT when parts are missing or
 * disagree, and the parser's own); G_IO_ERROR_CANCELLED. */
void            hr_gguf_remote_load_async   (const char          *url,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* @stats may be NULL; it is filled on failure too (what was fetched before the error).
 * hr_gguf_get_file_size() of the result is not the remote size: see @stats. */
HrGguf         *hr_gguf_remote_load_finish  (GAsyncResult        *result,
                                             HrGgufRemoteStats   *stats,
                                             GError             **error);

/* For the command line: runs the thread-default main context until the load is done (libsoup
 * 3.2 binds the shared session to the context it was made in, so a private context cannot be
 * used).  Not from inside a running main loop.  @timeout_s bounds each request
 * (0: hr_http_get_timeout()). */
HrGguf         *hr_gguf_remote_load_sync    (const char          *url,
                                             guint                timeout_s,
                                             HrGgufRemoteStats   *stats,
                                             GError             **error);

/* One step of the growing-prefix read that every GGUF header over HTTP goes through (this
 * file's reader, for any address, and the Hub's, hr-hub-size.c). */
typedef struct
{
  const char *name;        /* the file, for messages */
  guint64 file_size;       /* its size when known, else 0 */
  guint64 fetched;         /* bytes fetched so far over every request and part, these included */
  gboolean ended;          /* the file ended where the bytes do (the server sent less, or all) */
  gboolean from_start;     /* each read fetches the whole prefix again, not only what it lacks */
  gboolean split;          /* one part of several: the limit is for them all together */
  gint64 deadline;         /* the parse gives up at this g_get_monotonic_time(); 0: never */
} HrGgufPrefix;

/* Parses the first @len bytes of the file and returns its header; or NULL with *@next_len the
 * prefix length to read next (more than @len, at least what the parser asked for, at least
 * twice @len); or NULL with *@next_len 0 and @error: the parser's (prefixed with the name),
 * HR_GGUF_ERROR_NOT_GGUF for an empty file, TRUNCATED when it ends inside its header, LIMIT
 * when reading on would fetch more than HR_GGUF_REMOTE_MAX_BYTES in all. */
HrGguf         *hr_gguf_remote_parse_prefix (const HrGgufPrefix  *prefix,
                                             const guint8        *data,
                                             gsize                len,
                                             gsize               *next_len,
                                             GError             **error);

/* TRUE when @str looks like an http(s) address rather than a local path. */
gboolean        hr_gguf_remote_is_url       (const char          *str);

G_END_DECLS
