/* hr-test-hub.c — a local Hugging Face Hub for the tests (hr-test-hub.h) */
#include "hr-test-hub.h"

#include <stdlib.h>
#include <string.h>

#include "gguf-writer.h"
#include "safetensors-writer.h"


#define TINY_LLAMA_CONFIG(extra) \
  "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":256," \
  "\"intermediate_size\":512,\"num_attention_heads\":4,\"num_hidden_layers\":2," \
  "\"num_key_value_heads\":2,\"vocab_size\":1024,\"max_position_embeddings\":65536," \
  "\"rms_norm_eps\":1e-05,\"tie_word_embeddings\":false" extra "}"

HrTestHub H;

static void
repo_file_free (RepoFile *f)
{
  g_free (f->path);
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_free (f);
}

static Repo *
repo_add (const char *name)
{
  Repo *r = g_new0 (Repo, 1);

  r->repo = name;
  r->files = g_ptr_array_new_with_free_func ((GDestroyNotify) repo_file_free);
  g_ptr_array_add (H.repos, r);
  return r;
}

static void
file_add (Repo       *r,
          const char *path,
          GBytes     *bytes,
          guint64     size)
{
  RepoFile *f = g_new0 (RepoFile, 1);

  f->path = g_strdup (path);
  f->bytes = bytes;
  /* a header may stand for a bigger file (its listed size) */
  f->size = size > 0 ? size : bytes != NULL ? g_bytes_get_size (bytes) : 0;
  g_ptr_array_add (r->files, f);
}

static void
text_add (Repo       *r,
          const char *path,
          const char *text)
{
  file_add (r, path, g_bytes_new (text, strlen (text)), 0);
}

/* A safetensors file: the header written by st_write, then zeros for the data. */
static guint64
st_add (Repo           *r,
        const char     *path,
        const StTensor *t,
        guint           n)
{
  StWritten w = st_write (t, n, "{\"format\":\"pt\"}");
  guint64 data = w.data_bytes;

  g_byte_array_set_size (w.file, (guint) w.file_size);
  memset (w.file->data + w.file_size - data, 0, data);
  file_add (r, path, g_byte_array_free_to_bytes (w.file), 0);
  return data;
}

static Repo *
find_repo (const char *path,
           const char **rest)
{
  for (guint i = 0; i < H.repos->len; i++)
    {
      Repo *r = g_ptr_array_index (H.repos, i);
      gsize n = strlen (r->repo);

      if (strncmp (path, r->repo, n) == 0 && path[n] == '/')
        {
          *rest = path + n + 1;
          return r;
        }
    }
  return NULL;
}

static RepoFile *
find_file (Repo       *r,
           const char *path)
{
  for (guint i = 0; i < r->files->len; i++)
    {
      RepoFile *f = g_ptr_array_index (r->files, i);

      if (strcmp (f->path, path) == 0)
        return f;
    }
  return NULL;
}

/* ---- the servers ------------------------------------------------------------------------ */

static void
set_json (SoupServerMessage *msg,
          GString           *json)
{
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, json->str, json->len);
}

/* A page of @items (JSON texts) from ?cursor=N, with Link rel="next" when more follow. */
static void
serve_page (SoupServerMessage *msg,
            GPtrArray         *items,
            GHashTable        *query,
            const char        *base)
{
  const char *cursor = query != NULL ? g_hash_table_lookup (query, "cursor") : NULL;
  guint from = cursor != NULL ? (guint) atoi (cursor) : 0;
  g_autoptr(GString) json = g_string_new ("[");

  for (guint i = from; i < items->len && i < from + PAGE_SIZE; i++)
    g_string_append_printf (json, "%s%s", i > from ? "," : "", (char *) g_ptr_array_index (items, i));
  g_string_append_c (json, ']');
  if (from + PAGE_SIZE < items->len)
    {
      g_autofree char *link = g_strdup_printf ("<%s%scursor=%u>; rel=\"next\"", base,
                                               strchr (base, '?') ? "&" : "?", from + PAGE_SIZE);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Link", link);
    }
  set_json (msg, json);
}

static gboolean
unpause_cb (gpointer msg)
{
  soup_server_message_unpause (msg);
  return G_SOURCE_REMOVE;
}

static gboolean
release_cb (gpointer msg)
{
  int ticks = GPOINTER_TO_INT (g_object_get_data (msg, "hr-held-since")) + 1;

  g_object_set_data (msg, "hr-held-since", GINT_TO_POINTER (ticks));
  if (!g_atomic_int_get (&H.release_slow) && ticks < 600)
    return G_SOURCE_CONTINUE;
  soup_server_message_unpause (msg);
  return G_SOURCE_REMOVE;
}

static void
serve_search (SoupServerMessage *msg,
              GHashTable        *query)
{
  static const struct { const char *id; gint64 downloads; gboolean gguf; } models[] = {
    { "demo/Demo-ST", 900000, FALSE },
    { "demo-org/Demo-GGUF", 500000, TRUE },
    { "demo/Demo-FP8", 70000, FALSE },
    { "other/demo-tune-GGUF", 4000, TRUE },
    { "other/demo-notes", 12, FALSE },
  };
  const char *search = g_hash_table_lookup (query, "search");
  const char *filter = g_hash_table_lookup (query, "filter");
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = NULL;

  g_assert_cmpstr (g_hash_table_lookup (query, "sort"), ==, "downloads");
  g_assert_nonnull (g_hash_table_lookup (query, "limit"));
  g_atomic_int_inc (&H.search_requests);
  /* a slow answer (nothing found), held until the test releases it (H.release_slow) or 30 s
   * have passed: for a search that the next one cancels */
  if (g_strcmp0 (search, "slowpoke") == 0)
    {
      GSource *poll = g_timeout_source_new (50);

      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, "[]", 2);
      soup_server_message_pause (msg);
      g_object_set_data (G_OBJECT (msg), "hr-held-since", GINT_TO_POINTER (0));
      g_source_set_callback (poll, release_cb, g_object_ref (msg), g_object_unref);
      g_source_attach (poll, g_main_context_get_thread_default ());
      g_source_unref (poll);
      return;
    }
  /* rate limited as the Hub says it today: the IETF RateLimit headers, no Retry-After */
  if (g_strcmp0 (search, "ratelimited") == 0)
    {
      SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);

      soup_message_headers_replace (resp, "RateLimit", "\"api\";r=0;t=42");
      soup_message_headers_replace (resp, "RateLimit-Policy", "\"fixed window\";\"api\";q=500;w=300");
      soup_server_message_set_status (msg, 429, NULL);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *id = g_ascii_strdown (models[i].id, -1);
      g_autofree char *q = g_ascii_strdown (search != NULL ? search : "", -1);

      if (search == NULL || strstr (id, q) == NULL)
        continue;
      if (g_strcmp0 (filter, "gguf") == 0 && !models[i].gguf)
        continue;
      g_ptr_array_add (items, g_strdup_printf (
        "{\"_id\":\"%u\",\"id\":\"%s\",\"likes\":%u,\"private\":false,\"downloads\":%" G_GINT64_FORMAT ","
        "\"tags\":[\"%s\",\"text-generation\"],\"pipeline_tag\":\"text-generation\","
        "\"library_name\":\"%s\",\"createdAt\":\"2026-01-01T00:00:00.000Z\","
        "\"lastModified\":\"2026-11-0%uT10:00:00.000Z\"}", i, models[i].id, 10 * i,
        models[i].downloads, models[i].gguf ? "gguf" : "safetensors",
        models[i].gguf ? "gguf" : "transformers", i + 1));
    }
  base = g_strdup_printf ("%s/api/models?search=%s&limit=%s&sort=downloads%s",
                          hr_test_server_get_url (H.hub), search,
                          (char *) g_hash_table_lookup (query, "limit"),
                          filter != NULL ? "&filter=gguf" : "");
  serve_page (msg, items, query, base);
}

static void
serve_tree (SoupServerMessage *msg,
            Repo              *r,
            GHashTable        *query,
            const char        *path)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = NULL;
  g_autoptr(GHashTable) dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_atomic_int_inc (&H.tree_requests);
  g_assert_cmpstr (g_hash_table_lookup (query, "recursive"), ==, "true");
  for (guint i = 0; i < r->files->len; i++)
    {
      RepoFile *f = g_ptr_array_index (r->files, i);
      const char *slash = strrchr (f->path, '/');

      if (slash != NULL)
        {
          char *dir = g_strndup (f->path, (gsize) (slash - f->path));

          if (!g_hash_table_contains (dirs, dir))
            {
              g_ptr_array_add (items, g_strdup_printf ("{\"type\":\"directory\",\"oid\":\"d%u\","
                                                       "\"size\":0,\"path\":\"%s\"}", i, dir));
              g_hash_table_add (dirs, dir);
            }
          else
            g_free (dir);
        }
      if (f->size > 1000)
        g_ptr_array_add (items, g_strdup_printf (
          "{\"type\":\"file\",\"oid\":\"o%u\",\"size\":%" G_GUINT64_FORMAT ",\"path\":\"%s\","
          "\"lfs\":{\"oid\":\"sha%u\",\"size\":%" G_GUINT64_FORMAT ",\"pointerSize\":134}}",
          i, f->size, f->path, i, f->size));
      else
        g_ptr_array_add (items, g_strdup_printf (
          "{\"type\":\"file\",\"oid\":\"o%u\",\"size\":%" G_GUINT64_FORMAT ",\"path\":\"%s\"}",
          i, f->size, f->path));
    }
  base = g_strdup_printf ("%s%s?recursive=true", hr_test_server_get_url (H.hub), path);
  serve_page (msg, items, query, base);
}

/* Bytes of @f, honouring a Range from the start ("bytes=0-N"). */
static void
serve_bytes (SoupServerMessage *msg,
             RepoFile          *f)
{
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  gsize len;
  const char *data = g_bytes_get_data (f->bytes, &len);
  goffset start = 0, end = -1;
  SoupRange *ranges = NULL;
  int n = 0;

  if (soup_message_headers_get_ranges (req, (goffset) len, &ranges, &n) && n == 1)
    {
      start = ranges[0].start;
      end = ranges[0].end < 0 || ranges[0].end >= (goffset) len ? (goffset) len - 1 : ranges[0].end;
      soup_message_headers_free_ranges (req, ranges);
      soup_message_headers_set_content_range (resp, start, end, (goffset) len);
      soup_server_message_set_status (msg, 206, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY,
                                        data + start, (gsize) (end - start + 1));
      return;
    }
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY, data, len);
}

static void
hub_cb (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  const char *auth = soup_message_headers_get_one (req, "Authorization");
  gboolean token_ok = g_strcmp0 (auth, "Bearer " TOKEN) == 0;
  const char *rest = NULL;
  const char *file = NULL;
  gboolean tree, resolve;
  Repo *r;

  if (auth != NULL)
    g_atomic_int_inc (&H.hub_saw_token);
  if (strcmp (path, "/api/models") == 0)
    {
      serve_search (msg, query);
      return;
    }
  if (g_str_has_prefix (path, "/api/models/"))
    r = find_repo (path + strlen ("/api/models/"), &rest);
  else
    r = find_repo (path + 1, &rest);
  if (r == NULL)
    {
      soup_server_message_set_status (msg, 404, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        "{\"error\":\"Repository not found\"}", 32);
      return;
    }
  if (r->status != 0)
    {
      if (r->status == 429)
        soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", "30");
      soup_server_message_set_status (msg, r->status, NULL);
      return;
    }
  if (r->needs_token && !token_ok)
    {
      soup_server_message_set_status (msg, 401, NULL);
      return;
    }
  /* {tree|resolve}/{revision}/…: any revision, one path segment (huggingface_hub quotes a '/'
   * in it), noted for the tests */
  tree = g_str_has_prefix (path, "/api/models/") && g_str_has_prefix (rest, "tree/");
  resolve = !g_str_has_prefix (path, "/api/") && g_str_has_prefix (rest, "resolve/");
  if (tree || resolve)
    {
      /* SoupServer hands the path decoded: a revision's %2F is a '/' again, so a file is told
       * from the revision by being one of the repo's (huggingface_hub quotes the revision) */
      const char *rev = strchr (rest, '/') + 1;
      const char *end = NULL;

      if (resolve)
        for (end = strchr (rev, '/'); end != NULL && find_file (r, end + 1) == NULL; end = strchr (end + 1, '/'))
          ;
      g_mutex_lock (&H.lock);
      g_free (H.last_revision);
      H.last_revision = end != NULL ? g_strndup (rev, (gsize) (end - rev)) : g_strdup (rev);
      g_mutex_unlock (&H.lock);
      file = end != NULL ? end + 1 : NULL;
    }
  if (tree)
    {
      serve_tree (msg, r, query, path);
      if (r->delay_ms > 0)
        {
          GSource *later = g_timeout_source_new (r->delay_ms);

          soup_server_message_pause (msg);
          g_source_set_callback (later, unpause_cb, g_object_ref (msg), g_object_unref);
          g_source_attach (later, g_main_context_get_thread_default ());
          g_source_unref (later);
        }
      return;
    }
  if (resolve && file != NULL)
    {
      RepoFile *f = find_file (r, file);

      if (f == NULL || f->bytes == NULL)
        {
          soup_server_message_set_status (msg, 404, NULL);
          return;
        }
      /* big files come from the CDN, on another origin */
      if (g_str_has_suffix (f->path, ".safetensors"))
        {
          g_autofree char *to = g_strdup_printf ("%s/cdn/%s/%s", hr_test_server_get_url (H.cdn),
                                                 r->repo, f->path);

          soup_server_message_set_redirect (msg, 302, to);
          return;
        }
      serve_bytes (msg, f);
      return;
    }
  soup_server_message_set_status (msg, 404, NULL);
}

static void
cdn_cb (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  const char *rest = NULL;
  Repo *r;
  RepoFile *f;

  g_atomic_int_inc (&H.cdn_requests);
  if (soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization"))
    g_atomic_int_inc (&H.cdn_saw_token);
  if (!g_str_has_prefix (path, "/cdn/") || (r = find_repo (path + 5, &rest)) == NULL ||
      (f = find_file (r, rest)) == NULL)
    {
      soup_server_message_set_status (msg, 404, NULL);
      return;
    }
  serve_bytes (msg, f);
}

/* ---- the repos -------------------------------------------------------------------------- */

static void
build_repos (void)
{
  Repo *r;

  H.repos = g_ptr_array_new ();

  /* GGUF: one real Q4_K_M file, a BF16 split in two parts, a Q8_0 and a projector */
  r = repo_add ("demo-org/Demo-GGUF");
  text_add (r, "README.md", "# Demo");
  file_add (r, "Demo-Q4_K_M.gguf", gguf_tiny_llama ("Demo", &H.gguf_tensor_bytes), 0);
  file_add (r, "Demo-Q8_0.gguf", gguf_tiny_llama_typed ("Demo", 7, NULL), 0);
  file_add (r, "BF16/Demo-BF16-00001-of-00002.gguf", NULL, 9000000000);
  file_add (r, "BF16/Demo-BF16-00002-of-00002.gguf", NULL, 6000000000);
  {
    /* the projector: its header alone is served, the file listed at its full size */
    g_autoptr(GgufWriter) w = gguf_writer_new ();

    gguf_kv_str (w, "general.architecture", "clip");
    /* a Gemma 3 encoder's keys (#31): the image-encode buffer is sized from them */
    gguf_kv_str (w, "clip.projector_type", "gemma3");
    gguf_kv_u32 (w, "clip.vision.image_size", 896);
    gguf_kv_u32 (w, "clip.vision.patch_size", 14);
    gguf_kv_u32 (w, "clip.vision.embedding_length", 1152);
    gguf_kv_u32 (w, "clip.vision.feed_forward_length", 4304);
    gguf_kv_u32 (w, "clip.vision.attention.head_count", 16);
    gguf_tensor (w, "v.patch_embd.weight", GGML_F16, 1024, 768);
    gguf_tensor (w, "v.blk.0.attn_q.weight", GGML_F16, 4096, 4096);
    gguf_tensor (w, "mm.0.weight", GGML_F32, 4096, 1024);
    H.mmproj_tensor_bytes = w->tensor_bytes;
    file_add (r, "mmproj-Demo-F16.gguf", gguf_writer_finish (w, 0), 876000000);
  }

  /* a GGUF split in two parts with real headers: part 1 the metadata, the embedding and block
   * 0, part 2 block 1 and the output (llama.cpp's split.* keys) */
  r = repo_add ("demo-org/Split-GGUF");
  {
    g_autoptr(GgufWriter) a = gguf_writer_new ();
    g_autoptr(GgufWriter) b = gguf_writer_new ();

    gguf_kv_str (a, "general.architecture", "llama");
    gguf_kv_str (a, "general.name", "Split");
    gguf_kv_u32 (a, "general.file_type", 7);
    gguf_kv_u32 (a, "llama.block_count", 2);
    gguf_kv_u32 (a, "llama.context_length", 65536);
    gguf_kv_u32 (a, "llama.embedding_length", 256);
    gguf_kv_u32 (a, "llama.feed_forward_length", 512);
    gguf_kv_u32 (a, "llama.attention.head_count", 4);
    gguf_kv_u32 (a, "llama.attention.head_count_kv", 2);
    gguf_kv_u32 (a, "llama.vocab_size", 1024);
    gguf_kv_u32 (a, "split.no", 0);
    gguf_kv_u32 (a, "split.count", 2);
    gguf_kv_u32 (a, "split.tensors.count", 1 + 2 * 9 + 2);
    gguf_kv_u32 (b, "split.no", 1);
    gguf_kv_u32 (b, "split.count", 2);
    gguf_kv_u32 (b, "split.tensors.count", 1 + 2 * 9 + 2);
    gguf_tensor (a, "token_embd.weight", GGML_F16, 256, 1024);
    for (guint i = 0; i < 2; i++)
      {
        GgufWriter *w = i == 0 ? a : b;
        char t[64];

#define T(suffix, type, d0, d1) \
        g_snprintf (t, sizeof t, "blk.%u." suffix, i); gguf_tensor (w, t, type, d0, d1)
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
    gguf_tensor (b, "output_norm.weight", GGML_F32, 256, 1);
    gguf_tensor (b, "output.weight", GGML_F16, 256, 1024);
    H.split_tensor_bytes = a->tensor_bytes + b->tensor_bytes;
    file_add (r, "Q8_0/Split-Q8_0-00001-of-00002.gguf", gguf_writer_finish (a, (gsize) a->offset), 0);
    file_add (r, "Q8_0/Split-Q8_0-00002-of-00002.gguf", gguf_writer_finish (b, (gsize) b->offset), 0);
  }

  /* safetensors in two shards with an index */
  r = repo_add ("demo/Demo-ST");
  text_add (r, "config.json", TINY_LLAMA_CONFIG (",\"torch_dtype\":\"bfloat16\""));
  text_add (r, "tokenizer.json", "{}");
  text_add (r, "model.safetensors.index.json",
            "{\"metadata\":{\"total_size\":0},\"weight_map\":{"
            "\"model.embed_tokens.weight\":\"model-00001-of-00002.safetensors\","
            "\"model.layers.0.self_attn.q_proj.weight\":\"model-00001-of-00002.safetensors\","
            "\"model.layers.1.self_attn.q_proj.weight\":\"model-00002-of-00002.safetensors\","
            "\"lm_head.weight\":\"model-00002-of-00002.safetensors\"}}");
  {
    const StTensor a[] = {
      { "model.embed_tokens.weight", "BF16", 16, { 1024, 256, -1 } },
      { "model.layers.0.self_attn.q_proj.weight", "BF16", 16, { 256, 256, -1 } },
      { "model.layers.0.mlp.down_proj.weight", "BF16", 16, { 256, 512, -1 } },
      { "model.layers.0.input_layernorm.weight", "BF16", 16, { 256, -1 } },
    };
    const StTensor b[] = {
      { "model.layers.1.self_attn.q_proj.weight", "BF16", 16, { 256, 256, -1 } },
      { "model.layers.1.mlp.down_proj.weight", "BF16", 16, { 256, 512, -1 } },
      { "model.norm.weight", "F32", 32, { 256, -1 } },
      { "lm_head.weight", "BF16", 16, { 1024, 256, -1 } },
    };

    H.st_bytes = st_add (r, "model-00001-of-00002.safetensors", a, G_N_ELEMENTS (a));
    H.st_bytes += st_add (r, "model-00002-of-00002.safetensors", b, G_N_ELEMENTS (b));
  }

  /* an FP8 checkpoint in one file */
  r = repo_add ("demo/Demo-FP8");
  text_add (r, "config.json", TINY_LLAMA_CONFIG (",\"torch_dtype\":\"bfloat16\",\"quantization_config\":"
                                                 "{\"quant_method\":\"fp8\",\"fmt\":\"e4m3\","
                                                 "\"weight_block_size\":[128,128]}"));
  {
    const StTensor t[] = {
      { "model.embed_tokens.weight", "BF16", 16, { 1024, 256, -1 } },
      { "model.layers.0.self_attn.q_proj.weight", "F8_E4M3", 8, { 256, 256, -1 } },
      { "model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", 32, { 2, 2, -1 } },
      { "model.layers.1.self_attn.q_proj.weight", "F8_E4M3", 8, { 256, 256, -1 } },
      { "model.layers.1.self_attn.q_proj.weight_scale_inv", "F32", 32, { 2, 2, -1 } },
      { "lm_head.weight", "BF16", 16, { 1024, 256, -1 } },
    };

    H.fp8_bytes = st_add (r, "model.safetensors", t, G_N_ELEMENTS (t));
  }

  /* gated: 401 without the token */
  r = repo_add ("gated/Secret");
  r->needs_token = TRUE;
  text_add (r, "config.json", TINY_LLAMA_CONFIG (",\"torch_dtype\":\"bfloat16\""));
  {
    const StTensor t[] = { { "model.embed_tokens.weight", "BF16", 16, { 1024, 256, -1 } } };

    st_add (r, "model.safetensors", t, 1);
  }

  /* gated with terms not accepted: 403 */
  r = repo_add ("gated/Terms");
  r->status = 403;

  /* rate limited */
  r = repo_add ("busy/Model");
  r->status = 429;

  /* a GGUF whose header is longer than the first read (a 3 MiB name): read in growing prefixes */
  r = repo_add ("demo-org/Long-GGUF");
  {
    g_autofree char *name = g_strnfill (3 * 1024 * 1024, 'x');

    file_add (r, "Long-Q4_K_M.gguf", gguf_tiny_llama (name, &H.long_tensor_bytes), 0);
  }
  /* safetensors and GGUF files in one repository */
  r = repo_add ("demo/Both");
  text_add (r, "config.json", TINY_LLAMA_CONFIG (",\"torch_dtype\":\"bfloat16\""));
  {
    const StTensor t[] = {
      { "model.embed_tokens.weight", "BF16", 16, { 1024, 256, -1 } },
      { "model.layers.0.self_attn.q_proj.weight", "BF16", 16, { 256, 256, -1 } },
      { "lm_head.weight", "BF16", 16, { 1024, 256, -1 } },
    };

    H.both_st_bytes = st_add (r, "model.safetensors", t, G_N_ELEMENTS (t));
  }
  file_add (r, "gguf/Both-Q4_K_M.gguf", gguf_tiny_llama ("Both", &H.both_gguf_bytes), 0);
  file_add (r, "gguf/Both-Q8_0.gguf", gguf_tiny_llama_typed ("Both", 7, NULL), 0);

  /* a GGUF repo whose listing takes 1.5 s */
  r = repo_add ("slow/Slow-GGUF");
  r->delay_ms = 1500;
  file_add (r, "Slow-Q4_K_M.gguf", gguf_tiny_llama ("Slow", NULL), 0);

  /* slow listings whose GGUF is cut inside its header: a failure after "Sizing it…" is shown,
   * and one while it is still animated in */
  {
    const char *const slow[] = { "slow/Slow-Broken", "slow/Soon-Broken" };

    for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
      {
        g_autoptr(GBytes) whole = gguf_tiny_llama ("Cut", NULL);

        r = repo_add (slow[i]);
        r->delay_ms = i == 0 ? 1500 : 1100;
        file_add (r, "Cut-Q4_K_M.gguf", g_bytes_new_from_bytes (whole, 0, 200), 0);
      }
  }

  /* a GGUF cut inside its header, and an empty one */
  r = repo_add ("broken/GGUF");
  {
    g_autoptr(GBytes) whole = gguf_tiny_llama ("Cut", NULL);

    file_add (r, "Cut-Q4_K_M.gguf", g_bytes_new_from_bytes (whole, 0, 200), 0);
  }
  file_add (r, "Empty-Q8_0.gguf", g_bytes_new (NULL, 0), 0);

  /* a good model beside a projector cut inside its header (#31) */
  r = repo_add ("broken/Projector");
  file_add (r, "Proj-Q4_K_M.gguf", gguf_tiny_llama ("Proj", NULL), 0);
  {
    g_autoptr(GgufWriter) w = gguf_writer_new ();
    g_autoptr(GBytes) whole = NULL;

    gguf_kv_str (w, "general.architecture", "clip");
    gguf_tensor (w, "v.patch_embd.weight", GGML_F16, 1024, 768);
    whole = gguf_writer_finish (w, 0);
    file_add (r, "mmproj-Proj-F16.gguf", g_bytes_new_from_bytes (whole, 0, 40), 0);
  }

  /* a header longer than the file; a header declaring 10 GiB of JSON */
  r = repo_add ("broken/Truncated");
  text_add (r, "config.json", TINY_LLAMA_CONFIG (""));
  {
    g_autoptr(GByteArray) b = st_raw (5000, "{\"a\":{\"dtype\":\"BF16\",\"shape\":[4],");

    file_add (r, "model.safetensors", g_bytes_new (b->data, b->len), 0);
  }
  r = repo_add ("broken/Huge");
  text_add (r, "config.json", TINY_LLAMA_CONFIG (""));
  {
    g_autoptr(GByteArray) b = st_raw (G_GUINT64_CONSTANT (10) << 30, "{}");

    file_add (r, "model.safetensors", g_bytes_new (b->data, b->len), 0);
  }
}

void
hr_test_hub_start (void)
{
  build_repos ();
  H.hub = hr_test_server_start (hub_cb, NULL);
  H.cdn = hr_test_server_start (cdn_cb, NULL);
}

void
hr_test_hub_stop (void)
{
  hr_test_server_stop (H.cdn);
  hr_test_server_stop (H.hub);
}
