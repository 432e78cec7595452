/* test-remote.c — remote GGUF headers (HTTP Range) and hub config.json against a local server
 *
 * The server runs on 127.0.0.1, port 0, in its own thread with its own main context; the GGUF
 * files it serves are written here, in memory (a small GGUF v3 writer, header only, followed by
 * zeros standing in for the weights).  Nothing here reaches the outside network.
 */
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "hr-gguf-remote.h"
#include "hr-hfconfig.h"
#include "hr-http.h"
#include "hr-hub-client.h"
#include "hr-net-reader.h"
#include "hr-test-server.h"

#include "hostile-gen.h"

#define GGML_F32 0
#define GGML_F16 1
#define MiB (1024 * 1024)

#define HUB_TOKEN "hf_secret_token"

#define LLAMA_CONFIG \
  "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", " \
  "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_attention_heads\": 32, " \
  "\"num_hidden_layers\": 32, \"num_key_value_heads\": 8, \"vocab_size\": 128256, " \
  "\"max_position_embeddings\": 131072, \"rms_norm_eps\": 1e-05, \"rope_theta\": 500000.0, " \
  "\"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\"}"

/* ---- a tiny GGUF v3 writer ------------------------------------------------------------- */

typedef struct
{
  GByteArray *kv;
  guint64 n_kv;
  GByteArray *ti;
  guint64 n_tensors;
  guint64 offset;
  guint64 tensor_bytes;
} Builder;

static void
put_u32 (GByteArray *b,
         guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  g_byte_array_append (b, (const guint8 *) &le, 4);
}

static void
put_u64 (GByteArray *b,
         guint64     v)
{
  guint64 le = GUINT64_TO_LE (v);

  g_byte_array_append (b, (const guint8 *) &le, 8);
}

static void
put_str (GByteArray *b,
         const char *s)
{
  put_u64 (b, strlen (s));
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

static Builder *
builder_new (void)
{
  Builder *b = g_new0 (Builder, 1);

  b->kv = g_byte_array_new ();
  b->ti = g_byte_array_new ();
  return b;
}

static void
builder_free (Builder *b)
{
  g_byte_array_unref (b->kv);
  g_byte_array_unref (b->ti);
  g_free (b);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Builder, builder_free)

static void
kv_u32 (Builder    *b,
        const char *key,
        guint32     v)
{
  put_str (b->kv, key);
  put_u32 (b->kv, 4);  /* uint32 */
  put_u32 (b->kv, v);
  b->n_kv++;
}

static void
kv_u16 (Builder    *b,
        const char *key,
        guint16     v)
{
  guint16 le = GUINT16_TO_LE (v);

  put_str (b->kv, key);
  put_u32 (b->kv, 2);  /* uint16 */
  g_byte_array_append (b->kv, (const guint8 *) &le, 2);
  b->n_kv++;
}

static void
kv_str (Builder    *b,
        const char *key,
        const char *v)
{
  put_str (b->kv, key);
  put_u32 (b->kv, 8);  /* string */
  put_str (b->kv, v);
  b->n_kv++;
}

/* A tokenizer-like array of @n strings of @len characters: 8 + @len bytes each. */
static void
kv_tokens (Builder    *b,
           const char *key,
           guint       n,
           guint       len)
{
  char *tok = g_malloc (len + 1);

  put_str (b->kv, key);
  put_u32 (b->kv, 9);  /* array */
  put_u32 (b->kv, 8);  /* of strings */
  put_u64 (b->kv, n);
  for (guint i = 0; i < n; i++)
    {
      memset (tok, 'a' + i % 26, len);
      tok[len] = '\0';
      put_str (b->kv, tok);
    }
  g_free (tok);
  b->n_kv++;
}

static void
tensor (Builder    *b,
        const char *name,
        int         type,
        guint64     d0,
        guint64     d1)
{
  guint64 bytes = d0 * d1 * (type == GGML_F32 ? 4 : 2);

  put_str (b->ti, name);
  put_u32 (b->ti, d1 > 1 ? 2 : 1);
  put_u64 (b->ti, d0);
  if (d1 > 1)
    put_u64 (b->ti, d1);
  put_u32 (b->ti, (guint32) type);
  put_u64 (b->ti, b->offset);
  b->offset += (bytes + 31) / 32 * 32;
  b->n_tensors++;
  b->tensor_bytes += bytes;
}

/* The header, padded to the alignment, then @zeros bytes standing in for the weights. */
static GBytes *
builder_finish (Builder *b,
                gsize    zeros,
                gsize   *header_len)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) "GGUF", 4);
  put_u32 (out, 3);
  put_u64 (out, b->n_tensors);
  put_u64 (out, b->n_kv);
  g_byte_array_append (out, b->kv->data, b->kv->len);
  g_byte_array_append (out, b->ti->data, b->ti->len);
  while (out->len % 32 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  if (header_len != NULL)
    *header_len = out->len;
  g_byte_array_set_size (out, out->len + (guint) zeros);
  memset (out->data + out->len - zeros, 0, zeros);
  return g_byte_array_free_to_bytes (out);
}

static void
llama_keys (Builder *b,
            guint    n_layers)
{
  kv_str (b, "general.architecture", "llama");
  kv_str (b, "general.name", "Remote Test");
  kv_u32 (b, "general.file_type", 1);
  kv_u32 (b, "llama.block_count", n_layers);
  kv_u32 (b, "llama.context_length", 8192);
  kv_u32 (b, "llama.embedding_length", 256);
  kv_u32 (b, "llama.feed_forward_length", 512);
  kv_u32 (b, "llama.attention.head_count", 4);
  kv_u32 (b, "llama.attention.head_count_kv", 2);
}

static void
block_tensors (Builder *b,
               guint    first,
               guint    last)
{
  for (guint i = first; i < last; i++)
    {
      char name[64];

#define T(suffix, type, d0, d1) \
      g_snprintf (name, sizeof name, "blk.%u." suffix, i); tensor (b, name, type, d0, d1)
      T ("attn_norm.weight", GGML_F32, 256, 1);
      T ("attn_q.weight", GGML_F16, 256, 256);
      T ("attn_k.weight", GGML_F16, 256, 128);
      T ("attn_v.weight", GGML_F16, 256, 128);
      T ("attn_output.weight", GGML_F16, 256, 256);
      T ("ffn_norm.weight", GGML_F32, 256, 1);
      T ("ffn_gate.weight", GGML_F16, 256, 512);
      T ("ffn_up.weight", GGML_F16, 256, 512);
      T ("ffn_down.weight", GGML_F16, 512, 256);
#undef T
    }
}

/* ---- the files the server holds -------------------------------------------------------- */

typedef enum
{
  SERVE_RANGE,          /* honours Range: 206 with Content-Range */
  SERVE_RANGE_NO_TOTAL, /* honours Range, but the total in Content-Range is "*" */
  SERVE_WHOLE,          /* ignores Range: 200 with the whole body, chunked */
  SERVE_LENGTH,         /* 200 with Content-Length (SoupServer itself honours Range then) */
  SERVE_REDIRECT,       /* 302 to location (a path, or on "localhost" when other_host) */
  SERVE_STATUS,         /* status, empty body */
  SERVE_NEVER,          /* never answers */
  SERVE_NEEDS_TOKEN,    /* 401 unless "Authorization: Bearer HUB_TOKEN", then the body */
} ServeMode;

typedef struct
{
  ServeMode mode;
  GBytes *body;
  const char *location;
  gboolean other_host;
  guint status;
} Route;

typedef struct
{
  char *path;
  char *range;
  char *accept_encoding;
  char *authorization;
} LogEntry;

static struct
{
  HrTestServer *http;
  GMutex      mutex;
  GHashTable *routes;   /* path → Route; read-only once the server runs */
  GPtrArray  *log;      /* LogEntry; under mutex */
} server;

/* What the tests check against. */
static struct
{
  GBytes *model;
  gsize model_header;
  guint64 model_tensor_bytes;
  guint model_tensors;
  guint64 split_tensor_bytes;
  guint split_tensors;
  gsize split_size;
} files;

static void
log_entry_free (gpointer data)
{
  LogEntry *e = data;

  g_free (e->path);
  g_free (e->range);
  g_free (e->accept_encoding);
  g_free (e->authorization);
  g_free (e);
}

static void
add_route (const char *path,
           ServeMode   mode,
           GBytes     *body)
{
  Route *route = g_new0 (Route, 1);

  route->mode = mode;
  route->body = body != NULL ? g_bytes_ref (body) : NULL;
  g_hash_table_insert (server.routes, g_strdup (path), route);
}

static void
add_redirect (const char *path,
              const char *location,
              gboolean    other_host,
              guint       status)
{
  Route *route = g_new0 (Route, 1);

  route->mode = SERVE_REDIRECT;
  route->location = location;
  route->other_host = other_host;
  route->status = status;
  g_hash_table_insert (server.routes, g_strdup (path), route);
}

static void
add_status (const char *path,
            guint       status)
{
  Route *route = g_new0 (Route, 1);

  route->mode = SERVE_STATUS;
  route->status = status;
  g_hash_table_insert (server.routes, g_strdup (path), route);
}

static void
route_free (gpointer data)
{
  Route *route = data;

  g_clear_pointer (&route->body, g_bytes_unref);
  g_free (route);
}

/* "bytes=A-B" or "bytes=A-" */
static gboolean
parse_range (const char *value,
             guint64     size,
             guint64    *start,
             guint64    *end)
{
  char *rest;

  if (value == NULL || !g_str_has_prefix (value, "bytes="))
    return FALSE;
  *start = g_ascii_strtoull (value + 6, &rest, 10);
  if (*rest != '-')
    return FALSE;
  if (rest[1] == '\0')
    *end = size > 0 ? size - 1 : 0;
  else
    *end = g_ascii_strtoull (rest + 1, NULL, 10);
  if (*end >= size)
    *end = size > 0 ? size - 1 : 0;
  return TRUE;
}

static void
serve_range (SoupServerMessage *msg,
             const Route       *route)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);
  gsize size;
  const guint8 *data = g_bytes_get_data (route->body, &size);
  guint64 start, end;

  if (!parse_range (soup_message_headers_get_one (request, "Range"), size, &start, &end))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_STATIC,
                                        (const char *) data, size);
      return;
    }
  if (start >= size)
    {
      g_autofree char *value = g_strdup_printf ("bytes */%" G_GSIZE_FORMAT, size);

      soup_server_message_set_status (msg, SOUP_STATUS_REQUESTED_RANGE_NOT_SATISFIABLE, NULL);
      soup_message_headers_replace (response, "Content-Range", value);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_PARTIAL_CONTENT, NULL);
  if (route->mode == SERVE_RANGE_NO_TOTAL)
    {
      g_autofree char *value = g_strdup_printf ("bytes %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
                                                "/*", start, end);

      soup_message_headers_replace (response, "Content-Range", value);
    }
  else
    soup_message_headers_set_content_range (response, (goffset) start, (goffset) end,
                                            (goffset) size);
  soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_STATIC,
                                    (const char *) data + start, end - start + 1);
}

/* The whole body with status 200, whatever the request's Range says.  SoupServer answers Range
 * by itself for a complete body of known length, so this one is sent chunked. */
static void
serve_whole (SoupServerMessage *msg,
             GBytes            *body)
{
  SoupMessageBody *response = soup_server_message_get_response_body (msg);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                     SOUP_ENCODING_CHUNKED);
  if (g_bytes_get_size (body) > 0)
    soup_message_body_append_bytes (response, body);
  soup_message_body_complete (response);
}

static void
serve_route (SoupServerMessage *msg,
             const Route       *route)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);

  switch (route->mode)
    {
    case SERVE_RANGE:
    case SERVE_RANGE_NO_TOTAL:
      serve_range (msg, route);
      break;
    case SERVE_WHOLE:
      serve_whole (msg, route->body);
      break;
    case SERVE_LENGTH:
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        g_bytes_get_data (route->body, NULL),
                                        g_bytes_get_size (route->body));
      break;
    case SERVE_REDIRECT:
      {
        g_autofree char *location = route->other_host
          ? g_strdup_printf ("http://localhost:%u%s", hr_test_server_get_port (server.http),
                             route->location)
          : g_strdup (route->location);

        soup_server_message_set_redirect (msg, route->status, location);
      }
      break;
    case SERVE_STATUS:
      soup_server_message_set_status (msg, route->status, NULL);
      break;
    case SERVE_NEVER:
      soup_server_message_pause (msg);
      break;
    case SERVE_NEEDS_TOKEN:
      if (g_strcmp0 (soup_message_headers_get_one (request, "Authorization"),
                     "Bearer " HUB_TOKEN) != 0)
        soup_server_message_set_status (msg, SOUP_STATUS_UNAUTHORIZED, NULL);
      else
        serve_whole (msg, route->body);
      break;
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  SoupServerMessage *msg;
  const Route *route;
} Delayed;

static gboolean
delayed_serve_cb (gpointer data)
{
  Delayed *d = data;

  soup_server_message_unpause (d->msg);
  serve_route (d->msg, d->route);
  g_object_unref (d->msg);
  g_free (d);
  return G_SOURCE_REMOVE;
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  const Route *route = g_hash_table_lookup (server.routes, path);
  LogEntry *entry = g_new0 (LogEntry, 1);

  entry->path = g_strdup (path);
  entry->range = g_strdup (soup_message_headers_get_one (request, "Range"));
  entry->accept_encoding = g_strdup (soup_message_headers_get_one (request, "Accept-Encoding"));
  entry->authorization = g_strdup (soup_message_headers_get_one (request, "Authorization"));
  g_mutex_lock (&server.mutex);
  g_ptr_array_add (server.log, entry);
  g_mutex_unlock (&server.mutex);

  if (route == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  /* A slow server: every answer under /slow-split/ or /slow-hop/ comes 1.2 s late. */
  if (g_str_has_prefix (path, "/slow-split/") || g_str_has_prefix (path, "/slow-hop/"))
    {
      Delayed *d = g_new0 (Delayed, 1);
      GSource *source = g_timeout_source_new (1200);

      d->msg = g_object_ref (msg);
      d->route = route;
      soup_server_message_pause (msg);
      g_source_set_callback (source, delayed_serve_cb, d, NULL);
      g_source_attach (source, g_main_context_get_thread_default ());
      g_source_unref (source);
      return;
    }

  serve_route (msg, route);
}

static void
make_files (void)
{
  g_autoptr(GBytes) truncated = NULL;
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GBytes) html = NULL;
  g_autoptr(GBytes) config = g_bytes_new_static (LLAMA_CONFIG, strlen (LLAMA_CONFIG));
  g_autoptr(GBytes) huge_config = NULL;
  g_autoptr(GBytes) huge_header = NULL;
  const char *page = "<!DOCTYPE html><html><body>Not a model</body></html>";

  /* The model: a 2 MiB tokenizer (65536 strings of 24 characters), two blocks, 12 MiB of
   * "weights" after the header. */
  {
    g_autoptr(Builder) b = builder_new ();

    llama_keys (b, 2);
    kv_str (b, "tokenizer.ggml.model", "gpt2");
    kv_tokens (b, "tokenizer.ggml.tokens", 65536, 24);
    tensor (b, "token_embd.weight", GGML_F16, 256, 65536);
    tensor (b, "output_norm.weight", GGML_F32, 256, 1);
    tensor (b, "output.weight", GGML_F16, 256, 65536);
    block_tensors (b, 0, 2);
    files.model = builder_finish (b, 12 * MiB, &files.model_header);
    files.model_tensor_bytes = b->tensor_bytes;
    files.model_tensors = (guint) b->n_tensors;
    g_assert_cmpuint (files.model_header, >, 2 * MiB);
  }
  add_route ("/model.gguf", SERVE_RANGE, files.model);
  add_route ("/no-total/model.gguf", SERVE_RANGE_NO_TOTAL, files.model);
  add_route ("/whole/model.gguf", SERVE_WHOLE, files.model);
  add_redirect ("/redirect/model.gguf", "/model.gguf", FALSE, SOUP_STATUS_FOUND);
  add_redirect ("/cdn-redirect/model.gguf", "/model.gguf", TRUE, SOUP_STATUS_TEMPORARY_REDIRECT);
  add_redirect ("/loop.gguf", "/loop.gguf", FALSE, SOUP_STATUS_FOUND);
  add_status ("/error.gguf", SOUP_STATUS_INTERNAL_SERVER_ERROR);
  add_status ("/gated.gguf", SOUP_STATUS_FORBIDDEN);
  add_route ("/slow.gguf", SERVE_NEVER, NULL);

  /* Cut off 1.5 MiB in, inside the tokenizer. */
  truncated = g_bytes_new_from_bytes (files.model, 0, 3 * MiB / 2);
  add_route ("/short.gguf", SERVE_RANGE, truncated);
  add_route ("/no-total/short.gguf", SERVE_RANGE_NO_TOTAL, truncated);
  add_route ("/whole/short.gguf", SERVE_WHOLE, truncated);
  add_route ("/empty.gguf", SERVE_RANGE, empty);
  add_route ("/whole/empty.gguf", SERVE_WHOLE, empty);
  html = g_bytes_new_static (page, strlen (page));
  add_route ("/page.gguf", SERVE_RANGE, html);
  add_route ("/whole/page.gguf", SERVE_WHOLE, html);

  /* A split model: part 1 holds the metadata and block 0, part 2 blocks 1 and 2. */
  {
    g_autoptr(Builder) b1 = builder_new ();
    g_autoptr(Builder) b2 = builder_new ();
    g_autoptr(GBytes) part1 = NULL;
    g_autoptr(GBytes) part2 = NULL;

    llama_keys (b1, 3);
    kv_tokens (b1, "tokenizer.ggml.tokens", 4096, 16);
    kv_u16 (b1, "split.no", 0);
    kv_u16 (b1, "split.count", 2);
    kv_u32 (b1, "split.tensors.count", 3 + 3 * 9);
    tensor (b1, "token_embd.weight", GGML_F16, 256, 4096);
    tensor (b1, "output_norm.weight", GGML_F32, 256, 1);
    tensor (b1, "output.weight", GGML_F16, 256, 4096);
    block_tensors (b1, 0, 1);
    part1 = builder_finish (b1, 2 * MiB, NULL);

    kv_u16 (b2, "split.no", 1);
    kv_u16 (b2, "split.count", 2);
    kv_u32 (b2, "split.tensors.count", 3 + 3 * 9);
    block_tensors (b2, 1, 3);
    part2 = builder_finish (b2, 3 * MiB, NULL);

    files.split_tensor_bytes = b1->tensor_bytes + b2->tensor_bytes;
    files.split_tensors = (guint) (b1->n_tensors + b2->n_tensors);
    files.split_size = g_bytes_get_size (part1) + g_bytes_get_size (part2);

    add_route ("/split/Model-F16-00001-of-00002.gguf", SERVE_RANGE, part1);
    add_route ("/split/Model-F16-00002-of-00002.gguf", SERVE_RANGE, part2);
    add_route ("/slow-split/Model-F16-00001-of-00002.gguf", SERVE_RANGE, part1);
    add_route ("/slow-split/Model-F16-00002-of-00002.gguf", SERVE_RANGE, part2);
    /* Part 2 missing. */
    add_route ("/split-missing/Model-F16-00001-of-00002.gguf", SERVE_RANGE, part1);
    /* Renamed: the other part cannot be found. */
    add_route ("/split/renamed.gguf", SERVE_RANGE, part1);
    /* Part 2 served under part 1's name and the other way round. */
    add_route ("/split-swapped/Model-F16-00001-of-00002.gguf", SERVE_RANGE, part2);
    add_route ("/split-swapped/Model-F16-00002-of-00002.gguf", SERVE_RANGE, part1);
    /* Part 1 answered in full (no Range), part 2 with ranges. */
    add_route ("/split-mixed/Model-F16-00001-of-00002.gguf", SERVE_WHOLE, part1);
    add_route ("/split-mixed/Model-F16-00002-of-00002.gguf", SERVE_RANGE, part2);
  }

  /* A header larger than HR_GGUF_REMOTE_MAX_BYTES: 70 MiB of tokenizer. */
  {
    g_autoptr(Builder) b = builder_new ();

    llama_keys (b, 1);
    kv_tokens (b, "tokenizer.ggml.tokens", 70 * MiB / 64, 56);
    tensor (b, "token_embd.weight", GGML_F16, 256, 1024);
    huge_header = builder_finish (b, 0, NULL);
  }
  add_route ("/huge-header.gguf", SERVE_RANGE, huge_header);

  /* 65 536 tensor names that collide under g_str_hash (3.8 MB), and a million ordinary tensors
   * (40 MB of header, seconds to read). */
  {
    g_autoptr(GBytes) colliding = hostile_gguf_colliding (65536, FALSE);
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) million = NULL;

    add_route ("/colliding.gguf", SERVE_RANGE, colliding);
    llama_keys (b, 1);
    for (guint i = 0; i < 1000000; i++)
      {
        char name[32];

        g_snprintf (name, sizeof name, "t%u", i);
        tensor (b, name, GGML_F32, 8, 1);
      }
    million = builder_finish (b, 0, NULL);
    add_route ("/million-tensors.gguf", SERVE_RANGE, million);
  }

  /* The hub. */
  add_route ("/hub/org/model/resolve/main/config.json", SERVE_LENGTH, config);
  add_route ("/hub/org/gated/resolve/main/config.json", SERVE_NEEDS_TOKEN, config);
  add_redirect ("/hub/org/renamed/resolve/main/config.json",
                "/hub/org/gated/resolve/main/config.json", FALSE, SOUP_STATUS_TEMPORARY_REDIRECT);
  add_redirect ("/hub/org/cdn/resolve/main/config.json", "/cdn/config.json", TRUE,
                SOUP_STATUS_FOUND);
  add_route ("/cdn/config.json", SERVE_WHOLE, config);
  /* Two redirect hops and the answer, each 1.2 s late. */
  add_redirect ("/hub/org/slowhops/resolve/main/config.json", "/slow-hop/1", FALSE,
                SOUP_STATUS_FOUND);
  add_redirect ("/slow-hop/1", "/slow-hop/2", FALSE, SOUP_STATUS_FOUND);
  add_route ("/slow-hop/2", SERVE_WHOLE, config);
  add_redirect ("/hub/org/loop/resolve/main/config.json",
                "/hub/org/loop/resolve/main/config.json", FALSE, SOUP_STATUS_FOUND);
  add_route ("/hub/org/page/resolve/main/config.json", SERVE_WHOLE, html);
  add_status ("/hub/org/down/resolve/main/config.json", SOUP_STATUS_BAD_GATEWAY);
  add_route ("/hub/org/slow/resolve/main/config.json", SERVE_NEVER, NULL);
  {
    GByteArray *big = g_byte_array_sized_new (5 * MiB);

    g_byte_array_set_size (big, 5 * MiB);
    memset (big->data, ' ', big->len);
    big->data[0] = '{';
    big->data[big->len - 1] = '}';
    huge_config = g_byte_array_free_to_bytes (big);
  }
  add_route ("/hub/org/huge/resolve/main/config.json", SERVE_LENGTH, huge_config);
  add_route ("/hub/org/huge-chunked/resolve/main/config.json", SERVE_WHOLE, huge_config);
}

static void
server_start (void)
{
  server.routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, route_free);
  server.log = g_ptr_array_new_with_free_func (log_entry_free);
  make_files ();
  server.http = hr_test_server_start (server_cb, NULL);
}

static void
server_stop (void)
{
  g_clear_pointer (&server.http, hr_test_server_stop);
  g_clear_pointer (&server.routes, g_hash_table_unref);
  g_clear_pointer (&server.log, g_ptr_array_unref);
  g_clear_pointer (&files.model, g_bytes_unref);
}

/* ---- client helpers -------------------------------------------------------------------- */

static char *
url_for (const char *path)
{
  return hr_test_server_url_for (server.http, path);
}

static void
log_clear (void)
{
  g_mutex_lock (&server.mutex);
  g_ptr_array_set_size (server.log, 0);
  g_mutex_unlock (&server.mutex);
}

/* A copy of the requests made to @path since the last log_clear(). */
static GPtrArray *
log_for (const char *path)
{
  GPtrArray *out = g_ptr_array_new ();

  g_mutex_lock (&server.mutex);
  for (guint i = 0; i < server.log->len; i++)
    {
      LogEntry *e = g_ptr_array_index (server.log, i);

      if (path == NULL || strcmp (e->path, path) == 0)
        g_ptr_array_add (out, e);
    }
  g_mutex_unlock (&server.mutex);
  return out;
}

static HrGguf *
load (const char        *path,
      HrGgufRemoteStats *stats,
      GError           **error)
{
  g_autofree char *url = url_for (path);

  return hr_gguf_remote_load_sync (url, 10, stats, error);
}

static void
assert_load_error (const char *path,
                   GQuark      domain,
                   int         code,
                   const char *in_message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  HrGgufRemoteStats stats;

  gguf = load (path, &stats, &error);
  g_assert_null (gguf);
  g_assert_error (error, domain, code);
  g_test_message ("%s → %s (%" G_GUINT64_FORMAT " bytes fetched)", path, error->message,
                  stats.bytes_fetched);
  if (in_message != NULL)
    g_assert_nonnull (strstr (error->message, in_message));
  /* Whatever went wrong, it never read far. */
  g_assert_cmpuint (stats.bytes_fetched, <=, HR_GGUF_REMOTE_MAX_BYTES + 64 * 1024);
}

static void
assert_model_header (const HrGguf *gguf)
{
  g_assert_nonnull (gguf);
  g_assert_cmpuint (hr_gguf_get_version (gguf), ==, 3);
  g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, files.model_tensors);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, files.model_tensor_bytes);
  g_assert_cmpuint (hr_gguf_get_data_offset (gguf), ==, files.model_header);
}

/* ---- GGUF tests ------------------------------------------------------------------------ */

static void
test_range (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  HrGgufRemoteStats stats;
  gsize file_size = g_bytes_get_size (files.model);

  log_clear ();
  gguf = load ("/model.gguf", &stats, &error);
  g_assert_no_error (error);
  assert_model_header (gguf);

  g_test_message ("header %" G_GSIZE_FORMAT " bytes of a %" G_GSIZE_FORMAT "-byte file: fetched "
                  "%" G_GUINT64_FORMAT " bytes in %u requests",
                  files.model_header, file_size, stats.bytes_fetched, stats.n_requests);
  g_assert_cmpuint (stats.file_size, ==, file_size);
  g_assert_cmpuint (stats.n_parts, ==, 1);
  /* 1 MiB, then 2, then 4: a 2.1 MiB header costs at most twice itself, never the file. */
  g_assert_cmpuint (stats.bytes_fetched, >=, files.model_header);
  g_assert_cmpuint (stats.bytes_fetched, <=, 2 * files.model_header);
  g_assert_cmpuint (stats.bytes_fetched, <, file_size / 3);
  g_assert_cmpuint (stats.n_requests, >=, 2);
  g_assert_cmpuint (stats.n_requests, <=, 4);

  /* Every request asked for a range of the uncompressed file. */
  requests = log_for ("/model.gguf");
  g_assert_cmpuint (requests->len, ==, stats.n_requests);
  for (guint i = 0; i < requests->len; i++)
    {
      LogEntry *e = g_ptr_array_index (requests, i);

      g_assert_nonnull (e->range);
      g_assert_cmpstr (e->accept_encoding, ==, "identity");
    }
  g_assert_cmpstr (((LogEntry *) g_ptr_array_index (requests, 0))->range, ==,
                   "bytes=0-1048575");

  /* And the header is a model. */
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (model->gguf_bytes, ==, files.model_tensor_bytes);
  g_assert_cmpint (model->n_layers, ==, 2);
}

static void
test_no_total (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  HrGgufRemoteStats stats;

  gguf = load ("/no-total/model.gguf", &stats, &error);
  g_assert_no_error (error);
  assert_model_header (gguf);
  g_assert_cmpuint (stats.file_size, ==, 0);
}

static void
test_whole_body (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  HrGgufRemoteStats stats;
  gsize file_size = g_bytes_get_size (files.model);

  log_clear ();
  gguf = load ("/whole/model.gguf", &stats, &error);
  g_assert_no_error (error);
  assert_model_header (gguf);
  g_test_message ("a server without Range: fetched %" G_GUINT64_FORMAT " of %" G_GSIZE_FORMAT
                  " bytes, %u request(s)", stats.bytes_fetched, file_size, stats.n_requests);
  /* One answer, read only as far as the header needed, then dropped. */
  g_assert_cmpuint (stats.n_requests, ==, 1);
  g_assert_cmpuint (stats.bytes_fetched, <=, 2 * files.model_header + 64 * 1024);
  g_assert_cmpuint (stats.bytes_fetched, <, file_size / 2);
  /* Sent chunked: no size known. */
  g_assert_cmpuint (stats.file_size, ==, 0);
}

static void
test_redirect (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  HrGgufRemoteStats stats;

  log_clear ();
  gguf = load ("/redirect/model.gguf", &stats, &error);
  g_assert_no_error (error);
  assert_model_header (gguf);
  /* The Range header went along to where the redirect led. */
  requests = log_for ("/model.gguf");
  g_assert_cmpuint (requests->len, >=, 2);
  for (guint i = 0; i < requests->len; i++)
    g_assert_nonnull (((LogEntry *) g_ptr_array_index (requests, i))->range);
  g_clear_pointer (&gguf, hr_gguf_free);

  /* To another host name, as Hugging Face sends /resolve/ to its CDN. */
  gguf = load ("/cdn-redirect/model.gguf", &stats, &error);
  g_assert_no_error (error);
  assert_model_header (gguf);
  g_clear_pointer (&gguf, hr_gguf_free);

  assert_load_error ("/loop.gguf", HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL, NULL);
}

static void
test_http_errors (void)
{
  assert_load_error ("/nothing-here.gguf", HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS, "404");
  assert_load_error ("/nothing-here.gguf", HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS,
                     "nothing-here.gguf");
  assert_load_error ("/error.gguf", HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS, "500");
  assert_load_error ("/gated.gguf", HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS, "403");

  {
    g_autoptr(GError) error = NULL;
    HrGgufRemoteStats stats;

    g_assert_null (hr_gguf_remote_load_sync ("not a url", 5, &stats, &error));
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_INVALID_URL);
    g_assert_cmpuint (stats.bytes_fetched, ==, 0);
    g_clear_error (&error);
    g_assert_null (hr_gguf_remote_load_sync ("ftp://example.com/x.gguf", 5, NULL, &error));
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_INVALID_URL);
    g_clear_error (&error);
    /* Nothing listens on port 1. */
    g_assert_null (hr_gguf_remote_load_sync ("http://127.0.0.1:1/x.gguf", 5, NULL, &error));
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK);
    g_test_message ("%s", error->message);
  }
  g_assert_true (hr_gguf_remote_is_url ("HTTPS://huggingface.co/x"));
  g_assert_false (hr_gguf_remote_is_url ("/home/me/x.gguf"));
  g_assert_false (hr_gguf_remote_is_url (NULL));
}

static void
test_bad_content (void)
{
  /* Cut off inside the header: the server's size shows it, or the answer ends, or it has no
   * bytes left to give (416). */
  assert_load_error ("/short.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED, "short.gguf");
  assert_load_error ("/whole/short.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED, NULL);
  assert_load_error ("/no-total/short.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED, NULL);
  /* Empty: 416 for bytes=0-…, or a 200 with no body. */
  assert_load_error ("/empty.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, "empty");
  assert_load_error ("/whole/empty.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, "empty");
  /* A web page where a model was expected. */
  assert_load_error ("/page.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, "page.gguf");
  assert_load_error ("/whole/page.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, NULL);
}

static void
test_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  HrGgufRemoteStats stats;

  gguf = load ("/huge-header.gguf", &stats, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT);
  g_test_message ("%s (%" G_GUINT64_FORMAT " bytes in %u requests)", error->message,
                  stats.bytes_fetched, stats.n_requests);
  g_assert_cmpuint (stats.bytes_fetched, <=, HR_GGUF_REMOTE_MAX_BYTES);
}

static void
test_split (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  HrGgufRemoteStats stats;

  /* From either part. */
  for (int given = 1; given <= 2; given++)
    {
      g_autofree char *path = g_strdup_printf ("/split/Model-F16-%05d-of-00002.gguf", given);

      gguf = load (path, &stats, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (hr_gguf_get_n_splits (gguf), ==, 2);
      g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, files.split_tensors);
      g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, files.split_tensor_bytes);
      g_assert_nonnull (hr_gguf_find_tensor (gguf, "blk.2.ffn_down.weight"));
      g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
      g_assert_cmpuint (stats.n_parts, ==, 2);
      g_assert_cmpuint (stats.file_size, ==, files.split_size);
      g_assert_cmpuint (stats.bytes_fetched, <, files.split_size / 4);
      g_test_message ("split, given part %d: %" G_GUINT64_FORMAT " bytes fetched of %"
                      G_GSIZE_FORMAT ", %u requests", given, stats.bytes_fetched,
                      files.split_size, stats.n_requests);

      model = hr_gguf_to_model (gguf, &error);
      g_assert_no_error (error);
      g_assert_cmpint (model->n_layers, ==, 3);
      g_assert_cmpuint (model->gguf_bytes, ==, files.split_tensor_bytes);
      g_clear_pointer (&model, hr_model_free);
      g_clear_pointer (&gguf, hr_gguf_free);
    }

  gguf = load ("/split-mixed/Model-F16-00001-of-00002.gguf", &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, files.split_tensor_bytes);
  g_clear_pointer (&gguf, hr_gguf_free);

  assert_load_error ("/split-missing/Model-F16-00001-of-00002.gguf", HR_GGUF_ERROR,
                     HR_GGUF_ERROR_SPLIT, "Part 2 of 2");
  assert_load_error ("/split/renamed.gguf", HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT, "-of-00002");
  assert_load_error ("/split-swapped/Model-F16-00001-of-00002.gguf", HR_GGUF_ERROR,
                     HR_GGUF_ERROR_SPLIT, NULL);
}

static void
test_timeout (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = url_for ("/slow.gguf");
  gint64 start = g_get_monotonic_time ();
  HrGguf *gguf;

  gguf = hr_gguf_remote_load_sync (url, 1, NULL, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_test_message ("%s", error->message);
}

/* A header whose tensor names collide under g_str_hash reads in linear time: it kept the main
 * loop parsing for minutes, long past the load's deadline. */
static void
test_colliding_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *url = url_for ("/colliding.gguf");
  gint64 start = g_get_monotonic_time ();

  gguf = hr_gguf_remote_load_sync (url, 10, NULL, &error);
  g_test_message ("65536 colliding names: %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 65536);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

/* Reading the header counts against the load's time like the transfer: a million tensors
 * (seconds of parsing, in a worker) under a 1 s budget end with a timeout, soon after it. */
static void
test_parse_deadline (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *url = url_for ("/million-tensors.gguf");
  gint64 start = g_get_monotonic_time ();
  double seconds;

  gguf = hr_gguf_remote_load_sync (url, 1, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("a million tensors, 1 s budget: %.2f s: %s", seconds,
                  error != NULL ? error->message : "read");
  if (gguf == NULL)
    g_assert_true (g_error_matches (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TIMEOUT) ||
                   g_error_matches (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT));
  /* The clock is read every 1024 tensors: the parse stops within moments of the deadline. */
  g_assert_cmpfloat (seconds, <, 1 + 3);
}

/* One deadline for the whole load: each request of a split model answered 1.2 s late fits a
 * 2 s timeout on its own, but the parts together do not.  It used to take n × 1.2 s (48 s for
 * six parts 8 s late each) and succeed. */
static void
test_timeout_whole_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = url_for ("/slow-split/Model-F16-00001-of-00002.gguf");
  HrGgufRemoteStats stats = { 0 };
  HrGguf *gguf;

  gguf = hr_gguf_remote_load_sync (url, 2, &stats, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_test_message ("%s after %u requests", error->message, stats.n_requests);
}

/* A user action whose time is up sends no further request: the reader fails at once. */
static void
test_deadline_passed (void)
{
  g_autofree char *url = url_for ("/model.gguf");
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, url);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(HrNetReader) reader = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  g_autoptr(GError) error = NULL;

  log_clear ();
  hr_net_sync_prepare ();
  hr_net_reader_send_until_async (msg, 3, g_get_monotonic_time () - 1, NULL, hr_net_sync_cb,
                                  &result);
  hr_net_sync_wait (&result);
  reader = hr_net_reader_send_finish (result, &error);
  g_assert_null (reader);
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "127.0.0.1"));
  g_assert_nonnull (strstr (error->message, "3 seconds"));
  requests = log_for (NULL);
  g_assert_cmpuint (requests->len, ==, 0);
}

/* A user action's time budget: the timeout given, at most HR_HTTP_MAX_TIMEOUT, 0 for the
 * configured one, and a deadline that many seconds after the moment it was made. */
static void
test_budget (void)
{
  const struct { guint asked, timeout; } cases[] = {
    { 3, 3 }, { 0, HR_HTTP_DEFAULT_TIMEOUT }, { 100000, HR_HTTP_MAX_TIMEOUT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 before = g_get_monotonic_time ();
      HrNetBudget budget = hr_net_budget_new (cases[i].asked);
      gint64 after = g_get_monotonic_time ();

      g_assert_cmpuint (budget.timeout, ==, cases[i].timeout);
      g_assert_cmpint (budget.deadline, >=, before + cases[i].timeout * G_USEC_PER_SEC);
      g_assert_cmpint (budget.deadline, <=, after + cases[i].timeout * G_USEC_PER_SEC);
    }
}

typedef struct
{
  gboolean done;
  HrGguf *gguf;
  HrModel *model;
  HrGgufRemoteStats stats;
  GError *error;
} Result;

static void
gguf_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *r = user_data;

  r->gguf = hr_gguf_remote_load_finish (result, &r->stats, &r->error);
  r->done = TRUE;
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* The GUI's way: the default main context, a cancellable. */
static void
test_async (void)
{
  g_autofree char *url = url_for ("/split/Model-F16-00002-of-00002.gguf");
  g_autofree char *slow = url_for ("/slow.gguf");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result r = { 0 };

  hr_gguf_remote_load_async (url, cancellable, gguf_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (r.gguf), ==, files.split_tensor_bytes);
  g_clear_pointer (&r.gguf, hr_gguf_free);

  /* Cancelled while waiting for an answer: G_IO_ERROR_CANCELLED, at once. */
  memset (&r, 0, sizeof r);
  hr_gguf_remote_load_async (slow, cancellable, gguf_cb, &r);
  g_timeout_add (100, cancel_cb, cancellable);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (r.gguf);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&r.error);

  /* Already cancelled. */
  memset (&r, 0, sizeof r);
  hr_gguf_remote_load_async (url, cancellable, gguf_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&r.error);
}

/* A server that answers with a header larger than libsoup reads ("Header too big"): the
 * connection succeeded, so the message says the answer could not be read, not "Could not
 * connect". */
static void
big_header_cb (SoupServer        *soup_server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  g_autofree char *big = g_strnfill (256 * 1024, 'x');

  soup_message_headers_append (soup_server_message_get_response_headers (msg), "X-Big", big);
  /* a 206 of its own: SoupServer cuts a 200 to the asked Range itself */
  soup_message_headers_set_content_range (soup_server_message_get_response_headers (msg), 0, 3, 4);
  soup_server_message_set_status (msg, SOUP_STATUS_PARTIAL_CONTENT, NULL);
  soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_STATIC, "GGUF", 4);
}

static void
test_header_too_big (void)
{
  HrTestServer *big = hr_test_server_start (big_header_cb, NULL);
  g_autofree char *url = hr_test_server_url_for (big, "/m.gguf");
  g_autoptr(GError) error = NULL;
  HrGguf *gguf = hr_gguf_remote_load_sync (url, 0, NULL, &error);

  g_assert_null (gguf);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_null (strstr (error->message, "Could not connect"));
  g_assert_nonnull (strstr (error->message, "127.0.0.1 answered, but its answer could not be read"));
  hr_test_server_stop (big);
}

/* ---- hub tests ------------------------------------------------------------------------- */

static HrModel *
hub (const char  *repo,
     const char  *token,
     GError     **error)
{
  g_autofree char *endpoint = url_for ("/hub");

  return hr_hub_fetch_config_sync (endpoint, repo, token, 5, error);
}

static void
test_hub_fetch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GPtrArray) requests = NULL;

  log_clear ();
  model = hub ("org/model", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (model->n_layers, ==, 32);
  g_assert_cmpint (model->hidden, ==, 4096);
  g_assert_cmpstr (model->hf_repo, ==, "org/model");
  g_assert_cmpint (model->origin, ==, HR_MODEL_ORIGIN_CONFIG);
  requests = log_for ("/hub/org/model/resolve/main/config.json");
  g_assert_cmpuint (requests->len, ==, 1);
  g_assert_null (((LogEntry *) g_ptr_array_index (requests, 0))->authorization);
}

static void
hub_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  Result *r = user_data;

  r->model = hr_hub_fetch_config_finish (result, &r->error);
  r->done = TRUE;
}

static void
test_hub_async (void)
{
  g_autofree char *endpoint = url_for ("/hub/");
  Result r = { 0 };

  hr_hub_fetch_config_async (endpoint, "org/model", NULL, NULL, hub_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);
  g_assert_cmpint (r.model->n_layers, ==, 32);
  g_clear_pointer (&r.model, hr_model_free);
}

static void
test_hub_token (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GPtrArray) requests = NULL;

  /* A token never goes in clear text across a network: refused before any request (.invalid
   * never resolves, RFC 2606); plain http to this machine stays allowed. */
  g_assert_null (hr_hub_fetch_config_sync ("http://headroom-test.invalid", "org/gated", "hf_secret",
                                           1, &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT);
  g_assert_nonnull (strstr (error->message, "https"));
  g_clear_error (&error);

  /* A token with a line break inside (set by hand in the key): refused with a message before
   * any request; libsoup dropped it with a critical before. */
  g_assert_null (hub ("org/gated", "hf_abc\ndef", &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_TOKEN);
  g_assert_nonnull (strstr (error->message, "line break"));
  g_clear_error (&error);

  /* Gated: refused without a token or with a wrong one. */
  g_assert_null (hub ("org/gated", NULL, &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_null (hub ("org/gated", "hf_wrong", &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED);
  g_assert_nonnull (strstr (error->message, "token"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* The right token is sent as a bearer token. */
  log_clear ();
  model = hub ("org/gated", HUB_TOKEN, &error);
  g_assert_no_error (error);
  g_assert_cmpint (model->n_layers, ==, 32);
  requests = log_for ("/hub/org/gated/resolve/main/config.json");
  g_assert_cmpuint (requests->len, ==, 1);
  g_assert_cmpstr (((LogEntry *) g_ptr_array_index (requests, 0))->authorization, ==,
                   "Bearer " HUB_TOKEN);
  g_clear_pointer (&model, hr_model_free);
  g_clear_pointer (&requests, g_ptr_array_unref);

  /* A redirect on the same host keeps it (a renamed repo). */
  model = hub ("org/renamed", HUB_TOKEN, &error);
  g_assert_no_error (error);
  g_clear_pointer (&model, hr_model_free);

  /* A redirect to another host does not get it. */
  log_clear ();
  model = hub ("org/cdn", HUB_TOKEN, &error);
  g_assert_no_error (error);
  g_assert_cmpint (model->n_layers, ==, 32);
  requests = log_for ("/hub/org/cdn/resolve/main/config.json");
  g_assert_cmpuint (requests->len, ==, 1);
  g_assert_nonnull (((LogEntry *) g_ptr_array_index (requests, 0))->authorization);
  g_clear_pointer (&requests, g_ptr_array_unref);
  requests = log_for ("/cdn/config.json");
  g_assert_cmpuint (requests->len, ==, 1);
  g_assert_null (((LogEntry *) g_ptr_array_index (requests, 0))->authorization);
}

static void
test_hub_errors (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (hub ("org/missing", NULL, &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "org/missing"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_null (hub ("org/down", NULL, &error));
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_STATUS);
  g_assert_nonnull (strstr (error->message, "502"));
  g_clear_error (&error);

  /* Too large, by its Content-Length or as it streams in. */
  g_assert_null (hub ("org/huge", NULL, &error));
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_null (hub ("org/huge-chunked", NULL, &error));
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE);
  g_clear_error (&error);

  g_assert_null (hub ("org/page", NULL, &error));
  g_assert_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "org/page"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_null (hub ("org/loop", NULL, &error));
  g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL);
  g_clear_error (&error);

  {
    g_autofree char *endpoint = url_for ("/hub");

    g_assert_null (hr_hub_fetch_config_sync (endpoint, "org/slow", NULL, 1, &error));
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
    g_clear_error (&error);

    /* One deadline for the fetch, not one per redirect hop (each hop used to get 10 s). */
    g_assert_null (hr_hub_fetch_config_sync (endpoint, "org/slowhops", NULL, 2, &error));
    g_assert_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT);
    g_clear_error (&error);
  }

  /* Bad input never reaches the network. */
  g_assert_null (hub ("../../etc/passwd", NULL, &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO);
  g_clear_error (&error);
  g_assert_null (hr_hub_fetch_config_sync ("ftp://example.com", "org/model", NULL, 1, &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT);
}

static void
test_hub_repo_ids (void)
{
  static const char *good[] = {
    "Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "unsloth/GLM-4.5-Air-GGUF", "a/b",
    "org_1/model.v2",
  };
  static const char *bad[] = {
    "", "org", "org/", "/name", "a/b/c", "../etc", "org/..", "org/a..b", "org/na me", " org/name",
    "https://huggingface.co/org/name", "huggingface.co/org/name", "org/.hidden", "org/name-",
    "org/name\n", "org\\name", "org/näme", "/etc/passwd",
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *long_id = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_assert_true (hr_hub_check_repo_id (good[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (hr_hub_check_repo_id (bad[i], &error));
      g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO);
      g_test_message ("“%s”: %s", bad[i], error->message);
      g_clear_error (&error);
    }
  g_assert_false (hr_hub_check_repo_id (NULL, &error));
  g_clear_error (&error);
  long_id = g_strdup_printf ("org/%0100d", 7);
  g_assert_false (hr_hub_check_repo_id (long_id, &error));
  g_clear_error (&error);

  /* what people paste: the hub's pages and files read as the id, the rest is left to the check */
  {
    static const struct { const char *text; const char *id; } pasted[] = {
      { "https://huggingface.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B" },
      { "https://huggingface.co/Qwen/Qwen3-8B/", "Qwen/Qwen3-8B" },
      { "https://huggingface.co/zai-org/GLM-4.5-Air/tree/main", "zai-org/GLM-4.5-Air" },
      { "https://huggingface.co/zai-org/GLM-4.5-Air/blob/main/config.json", "zai-org/GLM-4.5-Air" },
      { "https://huggingface.co/org/name/resolve/main/model.gguf?download=true", "org/name" },
      { "http://www.huggingface.co/org/name#model-card", "org/name" },
      { " huggingface.co/org/name ", "org/name" },
      { "HTTPS://HF.CO/org/name", "org/name" },
      { "Qwen/Qwen3-8B", "Qwen/Qwen3-8B" },
      { "https://huggingface.co/datasets/org/name", "https://huggingface.co/datasets/org/name" },
      { "https://huggingface.co/org", "https://huggingface.co/org" },
      { "https://example.com/org/name", "https://example.com/org/name" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (pasted); i++)
      {
        g_autofree char *id = hr_hub_repo_id_from_text (pasted[i].text);

        g_assert_cmpstr (id, ==, pasted[i].id);
        if (!g_str_equal (id, pasted[i].text) && !g_str_has_prefix (pasted[i].text, " "))
          g_assert_true (hr_hub_check_repo_id (id, NULL));
      }
    g_assert_null (hr_hub_repo_id_from_text (NULL));
  }

  url = hr_hub_config_url (NULL, "Qwen/Qwen3-8B", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json");
  g_clear_pointer (&url, g_free);
  url = hr_hub_config_url ("https://hf-mirror.com//", "a/b", &error);
  g_assert_cmpstr (url, ==, "https://hf-mirror.com/a/b/resolve/main/config.json");
  g_clear_pointer (&url, g_free);
  url = hr_hub_config_url ("http://10.0.0.2:8080/hub", "a/b", &error);
  g_assert_cmpstr (url, ==, "http://10.0.0.2:8080/hub/a/b/resolve/main/config.json");
  g_clear_pointer (&url, g_free);
  g_assert_null (hr_hub_config_url ("huggingface.co", "a/b", &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT);
  g_clear_error (&error);
  g_assert_null (hr_hub_config_url ("https://h.example/?x=1", "a/b", &error));
  g_assert_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* Talk to 127.0.0.1 directly, whatever proxy the environment names. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  setlocale (LC_ALL, "");
  g_unsetenv ("http_proxy");
  g_unsetenv ("https_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("HTTPS_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_unsetenv ("no_proxy");

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/remote/gguf/range", test_range);
  g_test_add_func ("/remote/gguf/range-without-total", test_no_total);
  g_test_add_func ("/remote/gguf/server-ignores-range", test_whole_body);
  g_test_add_func ("/remote/gguf/redirect", test_redirect);
  g_test_add_func ("/remote/gguf/http-errors", test_http_errors);
  g_test_add_func ("/remote/gguf/bad-content", test_bad_content);
  g_test_add_func ("/remote/gguf/limit", test_limit);
  g_test_add_func ("/remote/gguf/split", test_split);
  g_test_add_func ("/remote/gguf/timeout", test_timeout);
  g_test_add_func ("/remote/gguf/timeout-whole-load", test_timeout_whole_load);
  g_test_add_func ("/remote/gguf/colliding-names", test_colliding_names);
  g_test_add_func ("/remote/gguf/parse-deadline", test_parse_deadline);
  g_test_add_func ("/remote/reader/budget", test_budget);
  g_test_add_func ("/remote/reader/deadline-passed", test_deadline_passed);
  g_test_add_func ("/remote/gguf/async", test_async);
  g_test_add_func ("/remote/header-too-big", test_header_too_big);
  g_test_add_func ("/remote/hub/fetch", test_hub_fetch);
  g_test_add_func ("/remote/hub/async", test_hub_async);
  g_test_add_func ("/remote/hub/token", test_hub_token);
  g_test_add_func ("/remote/hub/errors", test_hub_errors);
  g_test_add_func ("/remote/hub/repo-ids", test_hub_repo_ids);

  server_start ();
  ret = g_test_run ();
  server_stop ();

  return ret;
}
