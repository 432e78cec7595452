/* test-gguf.c — the GGUF header reader: exact bytes, mapping to HrModel, hostile files
 *
 * The files are written here by a small GGUF v3 writer (header only, no weights).
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "hr-gguf.h"
#include "hr-quant.h"

#include "hostile-gen.h"

/* The time one hostile input may take: generous, minutes before the fix (issue #27). */
#define HOSTILE_SECONDS 10.0

/* ---- a tiny GGUF writer ---------------------------------------------------------------- */

typedef struct
{
  GByteArray *kv;
  guint64 n_kv;
  GByteArray *ti;
  guint64 n_tensors;
  guint64 offset;
  guint32 alignment;
  guint64 param_sum;
  guint64 byte_sum;
} Builder;

static void
put_u32 (GByteArray *b,
         guint32     v)
{
  guint8 bytes[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };

  g_byte_array_append (b, bytes, 4);
}

static void
put_u64 (GByteArray *b,
         guint64     v)
{
  guint8 bytes[8];

  for (int i = 0; i < 8; i++)
    bytes[i] = (v >> (8 * i)) & 0xff;
  g_byte_array_append (b, bytes, 8);
}

static void
put_str (GByteArray *b,
         const char *s)
{
  put_u64 (b, strlen (s));
  g_byte_array_append (b, (const guint8 *) s, strlen (s));
}

static Builder *
builder_new (void)
{
  Builder *b = g_new0 (Builder, 1);

  b->kv = g_byte_array_new ();
  b->ti = g_byte_array_new ();
  b->alignment = 32;
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
  put_u32 (b->kv, HR_GGUF_TYPE_UINT32);
  put_u32 (b->kv, v);
  b->n_kv++;
}

static void
kv_f32 (Builder    *b,
        const char *key,
        float       v)
{
  guint32 bits;

  memcpy (&bits, &v, 4);
  put_str (b->kv, key);
  put_u32 (b->kv, HR_GGUF_TYPE_FLOAT32);
  put_u32 (b->kv, bits);
  b->n_kv++;
}

static void
kv_str (Builder    *b,
        const char *key,
        const char *v)
{
  put_str (b->kv, key);
  put_u32 (b->kv, HR_GGUF_TYPE_STRING);
  put_str (b->kv, v);
  b->n_kv++;
}

static void
kv_arr_i32 (Builder      *b,
            const char   *key,
            const gint32 *v,
            guint         n)
{
  put_str (b->kv, key);
  put_u32 (b->kv, HR_GGUF_TYPE_ARRAY);
  put_u32 (b->kv, HR_GGUF_TYPE_INT32);
  put_u64 (b->kv, n);
  for (guint i = 0; i < n; i++)
    put_u32 (b->kv, (guint32) v[i]);
  b->n_kv++;
}

/* A tokenizer-like array of @n short strings. */
static void
kv_arr_tokens (Builder    *b,
               const char *key,
               guint       n)
{
  put_str (b->kv, key);
  put_u32 (b->kv, HR_GGUF_TYPE_ARRAY);
  put_u32 (b->kv, HR_GGUF_TYPE_STRING);
  put_u64 (b->kv, n);
  for (guint i = 0; i < n; i++)
    {
      char tok[16];

      g_snprintf (tok, sizeof tok, "t%u", i);
      put_str (b->kv, tok);
    }
  b->n_kv++;
}

static void
kv_arr_f32_zero (Builder    *b,
                 const char *key,
                 guint       n)
{
  put_str (b->kv, key);
  put_u32 (b->kv, HR_GGUF_TYPE_ARRAY);
  put_u32 (b->kv, HR_GGUF_TYPE_FLOAT32);
  put_u64 (b->kv, n);
  for (guint i = 0; i < n; i++)
    put_u32 (b->kv, 0);
  b->n_kv++;
}

static guint64
tensor_bytes (int      type,
              guint64  n_elements)
{
  const HrGgmlType *t = hr_ggml_type_lookup_id (type);

  g_assert_nonnull (t);
  return n_elements / t->block_size * t->bytes_per_block;
}

static void
tensor (Builder    *b,
        const char *name,
        int         type,
        guint64     d0,
        guint64     d1,
        guint64     d2)
{
  int n_dims = d2 > 1 ? 3 : d1 > 1 ? 2 : 1;
  guint64 n = d0 * d1 * d2;
  guint64 bytes = tensor_bytes (type, n);

  put_str (b->ti, name);
  put_u32 (b->ti, n_dims);
  put_u64 (b->ti, d0);
  if (n_dims > 1)
    put_u64 (b->ti, d1);
  if (n_dims > 2)
    put_u64 (b->ti, d2);
  put_u32 (b->ti, type);
  put_u64 (b->ti, b->offset);
  b->offset += (bytes + b->alignment - 1) / b->alignment * b->alignment;
  b->n_tensors++;
  b->param_sum += n;
  b->byte_sum += bytes;
}

/* The header bytes; *@end is where the tensor infos end (before the padding). */
static GBytes *
builder_finish (Builder *b,
                gsize   *end)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) "GGUF", 4);
  put_u32 (out, 3);
  put_u64 (out, b->n_tensors);
  put_u64 (out, b->n_kv);
  g_byte_array_append (out, b->kv->data, b->kv->len);
  g_byte_array_append (out, b->ti->data, b->ti->len);
  if (end != NULL)
    *end = out->len;
  while (out->len % b->alignment != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  return g_byte_array_free_to_bytes (out);
}

static HrGguf *
parse_bytes (GBytes  *bytes,
             GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return hr_gguf_parse (data, len, NULL, NULL, error);
}

/* Raw header bytes for hand-made hostile files. */
static GByteArray *
raw_header (guint32 version,
            guint64 n_tensors,
            guint64 n_kv)
{
  GByteArray *b = g_byte_array_new ();

  g_byte_array_append (b, (const guint8 *) "GGUF", 4);
  put_u32 (b, version);
  put_u64 (b, n_tensors);
  put_u64 (b, n_kv);
  return b;
}

static void
assert_parse_error (GByteArray *b,
                    int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = hr_gguf_parse (b->data, b->len, NULL, NULL, &error);
  gboolean need_more = FALSE;
  gsize needed = 0;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(HrGguf) gguf2 = NULL;

  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, code);
  g_test_message ("%s", error->message);

  /* As a prefix: either the same error, or a request for more (never a crash). */
  gguf2 = hr_gguf_parse (b->data, b->len, &need_more, &needed, &error2);
  g_assert_null (gguf2);
  if (code == HR_GGUF_ERROR_TRUNCATED)
    {
      g_assert_no_error (error2);
      g_assert_true (need_more);
      g_assert_cmpuint (needed, >, b->len);
    }
  else
    g_assert_error (error2, HR_GGUF_ERROR, code);
}

/* ---- models ---------------------------------------------------------------------------- */

#define Q4_K 12
#define Q6_K 14
#define F32  0
#define F16  1
#define Q8_0 8
#define MXFP4 39
#define BF16 30

/* A two-layer Llama-3-8B-shaped file at Q4_K_M with a full tokenizer. */
static Builder *
llama_builder (void)
{
  Builder *b = builder_new ();

  kv_str (b, "general.architecture", "llama");
  kv_str (b, "general.name", "Test Llama 8B");
  kv_u32 (b, "general.file_type", 15);
  kv_u32 (b, "llama.block_count", 2);
  kv_u32 (b, "llama.context_length", 131072);
  kv_u32 (b, "llama.embedding_length", 4096);
  kv_u32 (b, "llama.feed_forward_length", 14336);
  kv_u32 (b, "llama.attention.head_count", 32);
  kv_u32 (b, "llama.attention.head_count_kv", 8);
  kv_f32 (b, "llama.rope.freq_base", 500000.0f);
  kv_str (b, "tokenizer.ggml.model", "gpt2");
  kv_arr_tokens (b, "tokenizer.ggml.tokens", 128256);
  kv_arr_f32_zero (b, "tokenizer.ggml.scores", 128256);

  tensor (b, "token_embd.weight", Q4_K, 4096, 128256, 1);
  tensor (b, "output_norm.weight", F32, 4096, 1, 1);
  tensor (b, "output.weight", Q6_K, 4096, 128256, 1);
  for (int i = 0; i < 2; i++)
    {
      char name[64];

#define T(suffix, type, d0, d1) \
      g_snprintf (name, sizeof name, "blk.%d." suffix, i); tensor (b, name, type, d0, d1, 1)
      T ("attn_norm.weight", F32, 4096, 1);
      T ("attn_q.weight", Q4_K, 4096, 4096);
      T ("attn_k.weight", Q4_K, 4096, 1024);
      T ("attn_v.weight", Q6_K, 4096, 1024);
      T ("attn_output.weight", Q4_K, 4096, 4096);
      T ("ffn_norm.weight", F32, 4096, 1);
      T ("ffn_gate.weight", Q4_K, 4096, 14336);
      T ("ffn_up.weight", Q4_K, 4096, 14336);
      T ("ffn_down.weight", Q6_K, 14336, 4096);
#undef T
    }
  return b;
}

static void
test_llama_bytes (void)
{
  g_autoptr(Builder) b = llama_builder ();
  g_autoptr(GBytes) bytes = builder_finish (b, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = parse_bytes (bytes, &error);
  g_autoptr(HrModel) model = NULL;
  const HrGgufTensor *q;
  const GArray *by_type;
  guint64 q4k = 0, q6k = 0, f32 = 0, sum = 0;

  g_assert_no_error (error);
  g_assert_nonnull (gguf);
  g_assert_cmpuint (hr_gguf_get_version (gguf), ==, 3);
  g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
  g_assert_cmpstr (hr_gguf_get_name (gguf), ==, "Test Llama 8B");
  g_assert_cmpint (hr_gguf_get_file_type (gguf), ==, 15);
  g_assert_cmpstr (hr_gguf_file_type_to_string (15), ==, "Q4_K_M");
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 3 + 2 * 9);

  /* A 4096 × 4096 Q4_K tensor: 4096·4096/256 blocks of 144 bytes. */
  q = hr_gguf_find_tensor (gguf, "blk.1.attn_q.weight");
  g_assert_nonnull (q);
  g_assert_cmpuint (q->bytes, ==, 4096ull * 4096 / 256 * 144);
  g_assert_cmpuint (q->n_elements, ==, 4096ull * 4096);
  g_assert_cmpstr (q->type_name, ==, "Q4_K");
  g_assert_cmpint (q->n_dims, ==, 2);

  /* Hand sums. */
  q4k = 4096ull * 128256 / 256 * 144 +
        2 * (4096ull * 4096 * 2 + 4096ull * 1024 + 2 * 4096ull * 14336) / 256 * 144;
  q6k = 4096ull * 128256 / 256 * 210 + 2 * (4096ull * 1024 + 14336ull * 4096) / 256 * 210;
  f32 = (4096 + 2 * 2 * 4096) * 4;
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, q4k + q6k + f32);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, b->byte_sum);
  g_assert_cmpuint (hr_gguf_get_n_params (gguf), ==, b->param_sum);
  g_assert_cmpuint (hr_gguf_get_expert_bytes (gguf), ==, 0);

  by_type = hr_gguf_get_bytes_by_type (gguf);
  g_assert_cmpuint (by_type->len, ==, 3);
  /* largest first: the Q6_K output head outweighs the Q4_K tensors here */
  g_assert_cmpstr (g_array_index (by_type, HrGgufTypeTotal, 0).type_name, ==, "Q6_K");
  g_assert_cmpuint (g_array_index (by_type, HrGgufTypeTotal, 0).bytes, ==, q6k);
  g_assert_cmpstr (g_array_index (by_type, HrGgufTypeTotal, 1).type_name, ==, "Q4_K");
  g_assert_cmpuint (g_array_index (by_type, HrGgufTypeTotal, 1).bytes, ==, q4k);
  g_assert_cmpuint (g_array_index (by_type, HrGgufTypeTotal, 1).n_tensors, ==, 1 + 2 * 5);
  for (guint i = 0; i < by_type->len; i++)
    sum += g_array_index (by_type, HrGgufTypeTotal, i).bytes;
  g_assert_cmpuint (sum, ==, hr_gguf_get_tensor_bytes (gguf));

  /* Metadata accessors; the 128256-token vocab is skipped, its length kept. */
  {
    HrGgufType elem;
    guint64 n;
    gint64 v;
    double d;
    g_autofree char *shown = hr_gguf_value_to_string (gguf, "tokenizer.ggml.tokens");

    g_assert_true (hr_gguf_get_array_info (gguf, "tokenizer.ggml.tokens", &elem, &n));
    g_assert_cmpint (elem, ==, HR_GGUF_TYPE_STRING);
    g_assert_cmpuint (n, ==, 128256);
    g_assert_false (hr_gguf_get_array_int (gguf, "tokenizer.ggml.scores", 0, &v));
    g_assert_true (hr_gguf_get_double (gguf, "llama.rope.freq_base", &d));
    g_assert_cmpfloat (d, ==, 500000.0);
    g_assert_false (hr_gguf_get_int (gguf, "llama.rope.freq_base", &v));
    g_assert_cmpstr (shown, ==, "[string × 128256]");
    g_assert_cmpuint (hr_gguf_get_n_kv (gguf), ==, 13);
    g_assert_cmpstr (hr_gguf_get_key (gguf, 0), ==, "general.architecture");
  }

  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  g_assert_cmpint (model->origin, ==, HR_MODEL_ORIGIN_GGUF);
  g_assert_cmpint (model->n_layers, ==, 2);
  g_assert_cmpint (model->hidden, ==, 4096);
  g_assert_cmpint (model->n_heads, ==, 32);
  g_assert_cmpint (model->head_dim, ==, 128);
  g_assert_cmpint (model->vocab, ==, 128256);
  g_assert_cmpint (model->intermediate, ==, 14336);
  g_assert_cmpint (model->max_context, ==, 131072);
  g_assert_false (model->tie_embeddings);
  g_assert_cmpstr (model->gguf_quant, ==, "Q4_K_M");
  g_assert_cmpint (model->gguf_file_type, ==, 15);
  g_assert_cmpuint (model->gguf_bytes, ==, q4k + q6k + f32);
  g_assert_cmpfloat (model->total_params, ==, (double) b->param_sum);
  g_assert_cmpfloat (model->active_params, ==, (double) b->param_sum);
  g_assert_cmpstr (model->id, ==, "test-llama-8b-q4_k_m");
  g_assert_cmpuint (model->layers->len, ==, 1);
  {
    const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, 0);

    g_assert_cmpint (g->kind, ==, HR_LAYER_FULL);
    g_assert_cmpint (g->count, ==, 2);
    g_assert_cmpint (g->kv_heads, ==, 8);
    g_assert_cmpint (g->k_dim, ==, 128);
    g_assert_cmpint (g->v_dim, ==, 128);
  }
  /* 2 layers × K and V × 8 heads × 128 × 2 bytes */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (model, 2), ==, 2 * 2 * 8 * 128 * 2);
}

static void
test_prefix_and_file (void)
{
  g_autoptr(Builder) b = llama_builder ();
  gsize end = 0;
  g_autoptr(GBytes) bytes = builder_finish (b, &end);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-gguf-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "llama.gguf", NULL);
  g_autoptr(HrGguf) whole = NULL;
  g_autoptr(HrGguf) file = NULL;
  gsize have = 4096;
  guint rounds = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 2 << 20);  /* the vocab makes the header a few MiB */

  /* A remote reader: start with 4 KiB and fetch what the parser asks for. */
  for (;;)
    {
      gboolean need_more = FALSE;
      gsize needed = 0;

      whole = hr_gguf_parse (data, MIN (have, len), &need_more, &needed, &error);
      g_assert_no_error (error);
      if (whole != NULL)
        break;
      g_assert_true (need_more);
      g_assert_cmpuint (needed, >, MIN (have, len));
      have = needed;
      g_assert_cmpuint (++rounds, <, 20);
    }
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (whole), ==, b->byte_sum);
  g_assert_cmpuint (hr_gguf_get_data_offset (whole), ==, len);

  /* From disk, header only: the file has no weights, so it is incomplete. */
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, &error));
  g_assert_no_error (error);
  file = hr_gguf_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (file), ==, b->byte_sum);
  g_assert_cmpuint (hr_gguf_get_file_size (file), ==, len);
  g_assert_false (hr_gguf_is_complete (file));
  g_assert_cmpuint (hr_gguf_get_data_size (file), >=, b->byte_sum);

  /* A truncated file on disk is an error naming the file. */
  g_clear_pointer (&file, hr_gguf_free);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) end - 1, &error));
  file = hr_gguf_load_file (path, &error);
  g_assert_null (file);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "llama.gguf"));
  g_clear_error (&error);

  file = hr_gguf_load_file ("/nonexistent/x.gguf", &error);
  g_assert_null (file);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_moe (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  guint64 expert_bytes, expert_params;

  kv_str (b, "general.architecture", "qwen3moe");
  kv_str (b, "general.name", "Qwen3 30B A3B");
  kv_u32 (b, "general.file_type", 38);
  kv_u32 (b, "qwen3moe.block_count", 2);
  kv_u32 (b, "qwen3moe.embedding_length", 2048);
  kv_u32 (b, "qwen3moe.feed_forward_length", 6144);
  kv_u32 (b, "qwen3moe.attention.head_count", 32);
  kv_u32 (b, "qwen3moe.attention.head_count_kv", 4);
  kv_u32 (b, "qwen3moe.attention.key_length", 128);
  kv_u32 (b, "qwen3moe.attention.value_length", 128);
  kv_u32 (b, "qwen3moe.expert_count", 128);
  kv_u32 (b, "qwen3moe.expert_used_count", 8);
  kv_u32 (b, "qwen3moe.expert_feed_forward_length", 768);
  kv_u32 (b, "qwen3moe.vocab_size", 151936);
  tensor (b, "token_embd.weight", Q8_0, 2048, 151936, 1);
  tensor (b, "output.weight", Q8_0, 2048, 151936, 1);
  for (int i = 0; i < 2; i++)
    {
      char name[64];

      g_snprintf (name, sizeof name, "blk.%d.attn_q.weight", i);
      tensor (b, name, Q8_0, 2048, 4096, 1);
      g_snprintf (name, sizeof name, "blk.%d.ffn_gate_inp.weight", i);
      tensor (b, name, F32, 2048, 128, 1);
      g_snprintf (name, sizeof name, "blk.%d.ffn_gate_exps.weight", i);
      tensor (b, name, MXFP4, 2048, 768, 128);
      g_snprintf (name, sizeof name, "blk.%d.ffn_up_exps.weight", i);
      tensor (b, name, MXFP4, 2048, 768, 128);
      g_snprintf (name, sizeof name, "blk.%d.ffn_down_exps.weight", i);
      tensor (b, name, MXFP4, 768, 2048, 128);
    }
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);

  expert_params = 2ull * 3 * 2048 * 768 * 128;
  expert_bytes = expert_params / 32 * 17;
  g_assert_cmpuint (hr_gguf_get_expert_bytes (gguf), ==, expert_bytes);
  g_assert_cmpuint (hr_gguf_get_expert_params (gguf), ==, expert_params);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, b->byte_sum);

  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (model->gguf_quant, ==, "MXFP4_MOE");
  g_assert_cmpuint (model->gguf_expert_bytes, ==, expert_bytes);
  g_assert_cmpint (model->n_experts, ==, 128);
  g_assert_cmpint (model->n_experts_used, ==, 8);
  g_assert_cmpint (model->moe_intermediate, ==, 768);
  g_assert_cmpint (model->vocab, ==, 151936);
  g_assert_true (hr_model_is_moe (model));
  g_assert_cmpfloat (model->total_params, ==, (double) b->param_sum);
  g_assert_cmpfloat (fabs (model->active_params -
                           ((double) b->param_sum - expert_params + expert_params * 8.0 / 128)),
                     <, 1.0);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (model, 2), ==, 2 * 2 * 4 * 128 * 2);
}

static void
test_mla (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  const HrLayerGroup *g;

  kv_str (b, "general.architecture", "deepseek2");
  kv_str (b, "general.name", "DeepSeek V3 0324");
  kv_u32 (b, "general.file_type", 12);
  kv_u32 (b, "deepseek2.block_count", 4);
  kv_u32 (b, "deepseek2.context_length", 163840);
  kv_u32 (b, "deepseek2.embedding_length", 7168);
  kv_u32 (b, "deepseek2.feed_forward_length", 18432);
  kv_u32 (b, "deepseek2.attention.head_count", 128);
  kv_u32 (b, "deepseek2.attention.head_count_kv", 1);
  kv_u32 (b, "deepseek2.attention.key_length", 576);
  kv_u32 (b, "deepseek2.attention.value_length", 512);
  kv_u32 (b, "deepseek2.attention.key_length_mla", 192);
  kv_u32 (b, "deepseek2.attention.value_length_mla", 128);
  kv_u32 (b, "deepseek2.attention.q_lora_rank", 1536);
  kv_u32 (b, "deepseek2.attention.kv_lora_rank", 512);
  kv_u32 (b, "deepseek2.rope.dimension_count", 64);
  kv_u32 (b, "deepseek2.leading_dense_block_count", 3);
  kv_u32 (b, "deepseek2.expert_count", 256);
  kv_u32 (b, "deepseek2.expert_used_count", 8);
  kv_u32 (b, "deepseek2.expert_shared_count", 1);
  kv_u32 (b, "deepseek2.expert_feed_forward_length", 2048);
  kv_u32 (b, "deepseek2.vocab_size", 129280);
  tensor (b, "token_embd.weight", Q4_K, 7168, 129280, 1);
  tensor (b, "blk.0.attn_kv_a_mqa.weight", Q6_K, 7168, 576, 1);
  tensor (b, "blk.3.ffn_down_exps.weight", Q4_K, 2048, 7168, 256);
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (model->gguf_quant, ==, "Q3_K_M");
  g_assert_cmpint (model->n_layers, ==, 4);
  g_assert_cmpint (model->kv_lora_rank, ==, 512);
  g_assert_cmpint (model->q_lora_rank, ==, 1536);
  g_assert_cmpint (model->qk_rope_dim, ==, 64);
  g_assert_cmpint (model->qk_nope_dim, ==, 128);
  g_assert_cmpint (model->v_head_dim, ==, 128);
  g_assert_cmpint (model->n_dense_layers, ==, 3);
  g_assert_cmpint (model->n_shared_experts, ==, 1);
  g_assert_cmpint (model->shared_intermediate, ==, 2048);
  g_assert_true (model->tie_embeddings);  /* no output.weight in this file */
  g_assert_cmpuint (model->layers->len, ==, 1);
  g = &g_array_index (model->layers, HrLayerGroup, 0);
  g_assert_cmpint (g->kind, ==, HR_LAYER_MLA);
  g_assert_cmpint (g->count, ==, 4);
  g_assert_cmpint (g->kv_heads, ==, 1);
  g_assert_cmpint (g->k_dim, ==, 576);
  g_assert_cmpint (g->v_dim, ==, 0);
  /* one 576-wide latent per layer and token */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (model, 2), ==, 4 * 576 * 2);
  g_assert_cmpuint (model->gguf_expert_bytes, ==, 2048ull * 7168 * 256 / 256 * 144);
}

static const HrLayerGroup *
find_group (const HrModel *model,
            HrLayerKind    kind)
{
  for (guint i = 0; i < model->layers->len; i++)
    if (g_array_index (model->layers, HrLayerGroup, i).kind == kind)
      return &g_array_index (model->layers, HrLayerGroup, i);
  return NULL;
}

static void
test_hybrid (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  const HrLayerGroup *full, *rec;

  /* Qwen3-Next shapes: 8 layers, every 4th full attention, Gated DeltaNet elsewhere. */
  kv_str (b, "general.architecture", "qwen3next");
  kv_u32 (b, "general.file_type", 7);
  kv_u32 (b, "qwen3next.block_count", 8);
  kv_u32 (b, "qwen3next.embedding_length", 2048);
  kv_u32 (b, "qwen3next.attention.head_count", 16);
  kv_u32 (b, "qwen3next.attention.head_count_kv", 2);
  kv_u32 (b, "qwen3next.attention.key_length", 256);
  kv_u32 (b, "qwen3next.attention.value_length", 256);
  kv_u32 (b, "qwen3next.full_attention_interval", 4);
  kv_u32 (b, "qwen3next.ssm.conv_kernel", 4);
  kv_u32 (b, "qwen3next.ssm.inner_size", 4096);
  kv_u32 (b, "qwen3next.ssm.state_size", 128);
  kv_u32 (b, "qwen3next.ssm.group_count", 16);
  kv_u32 (b, "qwen3next.ssm.time_step_rank", 32);
  tensor (b, "token_embd.weight", Q8_0, 2048, 151936, 1);
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (model->gguf_quant, ==, "Q8_0");

  full = find_group (model, HR_LAYER_FULL);
  rec = find_group (model, HR_LAYER_RECURRENT);
  g_assert_nonnull (full);
  g_assert_nonnull (rec);
  g_assert_cmpint (full->count, ==, 2);
  g_assert_cmpint (full->kv_heads, ==, 2);
  g_assert_cmpint (full->k_dim, ==, 256);
  g_assert_cmpint (rec->count, ==, 6);
  /* conv (128·16·2 + 128·32) × 3 × 2 B + 32 × 128 × 128 × 4 B (model_specs.md §3.5) */
  g_assert_cmpfloat (rec->state_bytes, ==, 8192.0 * 3 * 2 + 32.0 * 128 * 128 * 4);
  g_assert_cmpfloat (hr_model_state_bytes (model), ==, 6 * 2146304.0);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (model, 2), ==, 2 * 2 * 2 * 256 * 2);
}

static void
test_hybrid_kv_array (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  /* Nemotron-H blocks "M*EM-M": Mamba, attention, MoE, Mamba, MLP, Mamba */
  const gint32 kv[] = { 0, 2, 0, 0, 0, 0 };
  const gint32 ff[] = { 0, 0, 1856, 0, 1856, 0 };
  const HrLayerGroup *rec, *full;

  kv_str (b, "general.architecture", "nemotron_h_moe");
  kv_u32 (b, "nemotron_h_moe.block_count", 6);
  kv_u32 (b, "nemotron_h_moe.embedding_length", 2688);
  kv_u32 (b, "nemotron_h_moe.attention.head_count", 32);
  kv_arr_i32 (b, "nemotron_h_moe.attention.head_count_kv", kv, 6);
  kv_arr_i32 (b, "nemotron_h_moe.feed_forward_length", ff, 6);
  kv_u32 (b, "nemotron_h_moe.attention.key_length", 128);
  kv_u32 (b, "nemotron_h_moe.ssm.conv_kernel", 4);
  kv_u32 (b, "nemotron_h_moe.ssm.inner_size", 4096);
  kv_u32 (b, "nemotron_h_moe.ssm.state_size", 128);
  kv_u32 (b, "nemotron_h_moe.ssm.group_count", 8);
  kv_u32 (b, "nemotron_h_moe.ssm.time_step_rank", 64);
  tensor (b, "token_embd.weight", F16, 2688, 1024, 1);
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);

  rec = find_group (model, HR_LAYER_RECURRENT);
  full = find_group (model, HR_LAYER_FULL);
  g_assert_nonnull (rec);
  g_assert_nonnull (full);
  g_assert_cmpint (rec->count, ==, 3);
  g_assert_cmpint (full->count, ==, 1);
  g_assert_cmpint (full->kv_heads, ==, 2);
  /* Mamba-2: conv 3 × (4096 + 2·8·128) × 2 B + 4096 × 128 × 4 B */
  g_assert_cmpfloat (rec->state_bytes, ==, 3.0 * 6144 * 2 + 4096.0 * 128 * 4);
  g_assert_null (hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf)));
  g_assert_null (model->gguf_quant);
}

static void
test_sliding (void)
{
  struct
  {
    const char *arch;
    int layers;
    guint32 window;
    int pattern;       /* 0: the arch default */
    int expect_full;
    HrLayerKind kind;
  } cases[] = {
    { "gemma3", 12, 1024, 0, 2, HR_LAYER_SLIDING },   /* 5:1 */
    { "gpt-oss", 6, 128, 0, 3, HR_LAYER_SLIDING },    /* alternating, sliding first */
    { "cohere2", 8, 4096, 0, 2, HR_LAYER_SLIDING },   /* 3:1 */
    { "llama4", 8, 0, -1, 2, HR_LAYER_CHUNKED },      /* 3 chunked : 1 global, 8192 */
    { "mistral3", 4, 4096, 0, 4, HR_LAYER_SLIDING },  /* window without a pattern: ignored */
    { "exaone4", 8, 4096, 2, 4, HR_LAYER_SLIDING },   /* explicit period */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(Builder) b = builder_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) gguf = NULL;
      g_autoptr(HrModel) model = NULL;
      g_autofree char *k = NULL;
      const HrLayerGroup *full, *swa;

      kv_str (b, "general.architecture", cases[c].arch);
#define AK(s) (g_free (k), k = g_strdup_printf ("%s.%s", cases[c].arch, s))
      kv_u32 (b, AK ("block_count"), cases[c].layers);
      kv_u32 (b, AK ("embedding_length"), 1024);
      kv_u32 (b, AK ("attention.head_count"), 8);
      kv_u32 (b, AK ("attention.head_count_kv"), 4);
      if (cases[c].window > 0)
        kv_u32 (b, AK ("attention.sliding_window"), cases[c].window);
      if (cases[c].pattern > 0)
        kv_u32 (b, AK ("attention.sliding_window_pattern"), cases[c].pattern);
#undef AK
      tensor (b, "token_embd.weight", F16, 1024, 256, 1);
      bytes = builder_finish (b, NULL);
      gguf = parse_bytes (bytes, &error);
      g_assert_no_error (error);
      model = hr_gguf_to_model (gguf, &error);
      g_assert_no_error (error);

      full = find_group (model, HR_LAYER_FULL);
      swa = find_group (model, cases[c].kind);
      g_test_message ("%s", cases[c].arch);
      g_assert_nonnull (full);
      g_assert_cmpint (full->count, ==, cases[c].expect_full);
      if (cases[c].expect_full < cases[c].layers)
        {
          g_assert_nonnull (swa);
          g_assert_cmpint (swa->count, ==, cases[c].layers - cases[c].expect_full);
          g_assert_cmpint (swa->window, ==, cases[c].window > 0 ? (int) cases[c].window : 8192);
        }
    }
}

static void
test_gemma4_pattern_array (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  const gint32 kv[] = { 8, 8, 2, 8, 8, 2 };
  const HrLayerGroup *full, *swa;

  kv_str (b, "general.architecture", "gemma4");
  kv_u32 (b, "gemma4.block_count", 6);
  kv_u32 (b, "gemma4.embedding_length", 2816);
  kv_u32 (b, "gemma4.attention.head_count", 16);
  kv_arr_i32 (b, "gemma4.attention.head_count_kv", kv, 6);
  kv_u32 (b, "gemma4.attention.key_length", 512);
  kv_u32 (b, "gemma4.attention.value_length", 512);
  kv_u32 (b, "gemma4.attention.key_length_swa", 256);
  kv_u32 (b, "gemma4.attention.value_length_swa", 256);
  kv_u32 (b, "gemma4.attention.sliding_window", 1024);
  {
    /* a per-layer bool array, as the Gemma 4 converter writes it */
    put_str (b->kv, "gemma4.attention.sliding_window_pattern");
    put_u32 (b->kv, HR_GGUF_TYPE_ARRAY);
    put_u32 (b->kv, HR_GGUF_TYPE_BOOL);
    put_u64 (b->kv, 6);
    g_byte_array_append (b->kv, (const guint8 *) "\1\1\0\1\1\0", 6);
    b->n_kv++;
  }
  tensor (b, "token_embd.weight", BF16, 2816, 256, 1);
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  full = find_group (model, HR_LAYER_FULL);
  swa = find_group (model, HR_LAYER_SLIDING);
  g_assert_nonnull (full);
  g_assert_nonnull (swa);
  g_assert_cmpint (full->count, ==, 2);
  g_assert_cmpint (full->kv_heads, ==, 2);
  g_assert_cmpint (full->k_dim, ==, 512);
  g_assert_cmpint (swa->count, ==, 4);
  g_assert_cmpint (swa->kv_heads, ==, 8);
  g_assert_cmpint (swa->k_dim, ==, 256);
  g_assert_cmpint (swa->window, ==, 1024);
  /* no expert_count: the dense Gemma 4 block, V's RMS_NORM and out_scale beyond a llama one's */
  g_assert_cmpint (model->extra_block_kernels, ==, 2);
}

static void
test_file_types (void)
{
  g_assert_cmpstr (hr_gguf_file_type_to_string (0), ==, "F32");
  g_assert_cmpstr (hr_gguf_file_type_to_string (1), ==, "F16");
  g_assert_cmpstr (hr_gguf_file_type_to_string (7), ==, "Q8_0");
  g_assert_cmpstr (hr_gguf_file_type_to_string (18), ==, "Q6_K");
  g_assert_cmpstr (hr_gguf_file_type_to_string (30), ==, "IQ4_XS");
  g_assert_cmpstr (hr_gguf_file_type_to_string (32), ==, "BF16");
  g_assert_cmpstr (hr_gguf_file_type_to_string (15 | 1024), ==, "Q4_K_M");
  g_assert_null (hr_gguf_file_type_to_string (4));
  g_assert_null (hr_gguf_file_type_to_string (-1));
  g_assert_null (hr_gguf_file_type_to_string (99999));
}

static void
write_split_part (const char *path,
                  int         no,
                  int         count,
                  int         total_tensors,
                  int         first_tensor,
                  int         n_tensors,
                  guint64    *bytes_out)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (no == 0)
    {
      kv_str (b, "general.architecture", "llama");
      kv_u32 (b, "llama.block_count", 4);
      kv_u32 (b, "llama.embedding_length", 1024);
      kv_u32 (b, "llama.attention.head_count", 8);
    }
  put_str (b->kv, "split.no");
  put_u32 (b->kv, HR_GGUF_TYPE_UINT16);
  g_byte_array_append (b->kv, (const guint8 []) { no, 0 }, 2);
  put_str (b->kv, "split.count");
  put_u32 (b->kv, HR_GGUF_TYPE_UINT16);
  g_byte_array_append (b->kv, (const guint8 []) { count, 0 }, 2);
  b->n_kv += 2;
  put_str (b->kv, "split.tensors.count");
  put_u32 (b->kv, HR_GGUF_TYPE_INT32);
  put_u32 (b->kv, total_tensors);
  b->n_kv++;
  for (int i = first_tensor; i < first_tensor + n_tensors; i++)
    {
      char name[64];

      g_snprintf (name, sizeof name, "blk.%d.attn_q.weight", i);
      tensor (b, name, Q4_K, 1024, 1024, 1);
    }
  bytes = builder_finish (b, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  *bytes_out += b->byte_sum;
}

static void
test_split (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-gguf-split-XXXXXX", &error);
  g_autofree char *p1 = g_build_filename (dir, "Model-Q4_K_M-00001-of-00003.gguf", NULL);
  g_autofree char *p2 = g_build_filename (dir, "Model-Q4_K_M-00002-of-00003.gguf", NULL);
  g_autofree char *p3 = g_build_filename (dir, "Model-Q4_K_M-00003-of-00003.gguf", NULL);
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrGguf) single = NULL;
  guint64 total = 0;

  g_assert_no_error (error);
  write_split_part (p1, 0, 3, 4, 0, 2, &total);
  write_split_part (p2, 1, 3, 4, 2, 1, &total);
  write_split_part (p3, 2, 3, 4, 3, 1, &total);

  /* From any part. */
  gguf = hr_gguf_load_split (p2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_splits (gguf), ==, 3);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 4);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, total);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (gguf), ==, 4 * 1024 * 1024 / 256 * 144);
  g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
  g_assert_nonnull (hr_gguf_find_tensor (gguf, "blk.3.attn_q.weight"));

  /* One part alone is still readable as a file. */
  single = hr_gguf_load_file (p3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_tensors (single), ==, 1);

  /* A missing part. */
  g_clear_pointer (&gguf, hr_gguf_free);
  g_unlink (p3);
  gguf = hr_gguf_load_split (p1, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* A part that lies about its number. */
  write_split_part (p3, 1, 3, 4, 3, 1, &total);
  gguf = hr_gguf_load_split (p1, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT);
  g_clear_error (&error);

  g_unlink (p1);
  g_unlink (p2);
  g_unlink (p3);
  g_rmdir (dir);
}

/* Peak resident memory since the last reset_peak_rss(), in KiB (Linux: VmHWM; writing 5 to
 * clear_refs resets it).  FALSE where it cannot be reset, and under AddressSanitizer: freed
 * blocks wait in its quarantine (256 MiB by default) instead of going back to malloc, so the
 * peak there counts what the sanitizer keeps, not what the reader keeps. */
static gboolean
reset_peak_rss (void)
{
#if defined(__SANITIZE_ADDRESS__)
  return FALSE;
#else
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (f == NULL)
    return FALSE;
  ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
#endif
}

static gint64
peak_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return g_ascii_strtoll (line + strlen ("VmHWM:"), NULL, 10);
}

/* A part of a split model whose metadata holds @n_strings strings of 1 MiB (the most a header
 * keeps of one string), then one tensor, "blk.@no.attn_q.weight". */
static void
write_heavy_part (const char *path,
                  int         no,
                  int         count,
                  guint       n_strings)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *big = g_malloc (1024 * 1024 + 1);
  char name[64];

  memset (big, 'x', 1024 * 1024);
  big[1024 * 1024] = '\0';
  kv_str (b, "general.architecture", "llama");
  kv_u32 (b, "llama.block_count", 4);
  kv_u32 (b, "llama.embedding_length", 1024);
  kv_u32 (b, "llama.attention.head_count", 8);
  kv_u32 (b, "split.no", (guint32) no);
  kv_u32 (b, "split.count", (guint32) count);
  for (guint i = 0; i < n_strings; i++)
    {
      g_snprintf (name, sizeof name, "heavy.%u", i);
      kv_str (b, name, big);
    }
  g_snprintf (name, sizeof name, "blk.%d.attn_q.weight", no);
  tensor (b, name, Q4_K, 1024, 1024, 1);
  bytes = builder_finish (b, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
}

/* The set, scaled down: one part with 4 MiB of strings that says it is part 1 of 4096,
 * linked under all 4096 names.  Every part was read (and kept) before split.no was checked:
 * 2.6 GB at 40 parts, an abort at 4096.  Part 2 is refused now, the moment it is read. */
static void
test_split_lying_parts (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-gguf-split-XXXXXX", &error);
  g_autofree char *target = g_build_filename (dir, "part.gguf", NULL);
  g_autofree char *first = g_build_filename (dir, "Model-00001-of-04096.gguf", NULL);
  g_autoptr(HrGguf) gguf = NULL;
  gboolean measured;
  gint64 start, base_kib, grown_kib;
  double seconds;

  g_assert_no_error (error);
  write_heavy_part (target, 0, 4096, 4);
  for (guint i = 1; i <= 4096; i++)
    {
      g_autofree char *name = g_strdup_printf ("Model-%05u-of-04096.gguf", i);
      g_autofree char *link = g_build_filename (dir, name, NULL);

      g_assert_cmpint (symlink ("part.gguf", link), ==, 0);
    }

  measured = reset_peak_rss ();
  base_kib = peak_rss_kib ();
  start = g_get_monotonic_time ();
  gguf = hr_gguf_load_split (first, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  grown_kib = peak_rss_kib () - base_kib;
  g_test_message ("%.2f s, peak memory +%" G_GINT64_FORMAT " KiB: %s", seconds, grown_kib,
                  error != NULL ? error->message : "read");
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT);
  g_assert_cmpstr (error->message, ==,
                   "Model-00002-of-04096.gguf is part 2 of 4096 but says it is part 1 of 4096");
  g_assert_cmpfloat (seconds, <, HOSTILE_SECONDS);
  /* two parts' headers at most, not 4096 × 4 MiB */
  if (measured)
    g_assert_cmpint (grown_kib, <, 32 * 1024);

  for (guint i = 1; i <= 4096; i++)
    {
      g_autofree char *name = g_strdup_printf ("Model-%05u-of-04096.gguf", i);
      g_autofree char *link = g_build_filename (dir, name, NULL);

      g_unlink (link);
    }
  g_unlink (target);
  g_rmdir (dir);
}

/* Sixteen honest parts with 4 MiB of strings each share one memory budget: the later parts
 * keep no values (only the first part's metadata is used), so reading the set costs about
 * one part, not sixteen (64 MiB kept before). */
static void
test_split_one_budget (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-gguf-split-XXXXXX", &error);
  g_autofree char *given = g_build_filename (dir, "Model-00005-of-00016.gguf", NULL);
  g_autoptr(HrGguf) gguf = NULL;
  gboolean measured;
  gint64 base_kib, grown_kib;

  g_assert_no_error (error);
  for (int i = 1; i <= 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("Model-%05d-of-00016.gguf", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      write_heavy_part (path, i - 1, 16, 4);
    }

  measured = reset_peak_rss ();
  base_kib = peak_rss_kib ();
  gguf = hr_gguf_load_split (given, &error);
  grown_kib = peak_rss_kib () - base_kib;
  g_test_message ("16 parts, peak memory +%" G_GINT64_FORMAT " KiB%s", grown_kib,
                  measured ? "" : " (peak not resettable here)");
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_splits (gguf), ==, 16);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 16);
  g_assert_nonnull (hr_gguf_find_tensor (gguf, "blk.15.attn_q.weight"));
  /* the first part's metadata, whole */
  g_assert_cmpuint (strlen (hr_gguf_get_string (gguf, "heavy.3")), ==, 1024 * 1024);
  if (measured)
    g_assert_cmpint (grown_kib, <, 32 * 1024);

  g_clear_pointer (&gguf, hr_gguf_free);
  for (int i = 1; i <= 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("Model-%05d-of-00016.gguf", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* The pieces a remote reader uses: names, per-part sizes and an in-memory merge. */
static void
test_split_in_memory (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *name = NULL;
  g_autoptr(HrGguf) merged = NULL;
  HrGguf *parts[2] = { NULL, NULL };
  guint no = 0, count = 0;

  g_assert_true (hr_gguf_split_name_parse ("https://h/x/Model-Q8_0-00002-of-00005.gguf", &prefix,
                                           &no, &count));
  g_assert_cmpstr (prefix, ==, "https://h/x/Model-Q8_0");
  g_assert_cmpuint (no, ==, 2);
  g_assert_cmpuint (count, ==, 5);
  name = hr_gguf_split_name (prefix, 3, 5);
  g_assert_cmpstr (name, ==, "https://h/x/Model-Q8_0-00003-of-00005.gguf");
  g_assert_false (hr_gguf_split_name_parse ("model.gguf", NULL, NULL, NULL));
  g_assert_false (hr_gguf_split_name_parse ("m-00006-of-00005.gguf", NULL, NULL, NULL));
  g_assert_false (hr_gguf_split_name_parse ("m-00000-of-00005.gguf", NULL, NULL, NULL));
  g_assert_false (hr_gguf_split_name_parse ("m-0001-of-00005.gguf", NULL, NULL, NULL));

  for (int i = 0; i < 2; i++)
    {
      g_autoptr(Builder) b = builder_new ();
      g_autoptr(GBytes) bytes = NULL;
      char tname[32];

      if (i == 0)
        kv_str (b, "general.architecture", "llama");
      put_str (b->kv, "split.no");
      put_u32 (b->kv, HR_GGUF_TYPE_UINT16);
      g_byte_array_append (b->kv, (const guint8 []) { i, 0 }, 2);
      put_str (b->kv, "split.count");
      put_u32 (b->kv, HR_GGUF_TYPE_UINT16);
      g_byte_array_append (b->kv, (const guint8 []) { 2, 0 }, 2);
      b->n_kv += 2;
      g_snprintf (tname, sizeof tname, "t%d", i);
      tensor (b, tname, F32, 64, 1, 1);
      bytes = builder_finish (b, NULL);
      parts[i] = parse_bytes (bytes, &error);
      g_assert_no_error (error);
      g_assert_cmpint (hr_gguf_get_split_count (parts[i]), ==, 2);
      /* the remote file is complete: header plus 256 bytes of tensor data */
      hr_gguf_set_file_size (parts[i], hr_gguf_get_data_offset (parts[i]) + 256);
      g_assert_true (hr_gguf_is_complete (parts[i]));
    }
  merged = hr_gguf_merge_split (parts, 2, &error);
  g_assert_no_error (error);
  g_assert_null (parts[0]);
  g_assert_null (parts[1]);
  g_assert_cmpuint (hr_gguf_get_n_tensors (merged), ==, 2);
  g_assert_cmpuint (hr_gguf_get_tensor_bytes (merged), ==, 2 * 64 * 4);
  g_assert_cmpuint (hr_gguf_get_n_splits (merged), ==, 2);
  g_assert_true (hr_gguf_is_complete (merged));
  g_assert_cmpstr (hr_gguf_get_architecture (merged), ==, "llama");

  /* wrong order: an error, and both parts freed */
  {
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) bytes = NULL;
    HrGguf *bad[2];

    kv_str (b, "general.architecture", "llama");
    bytes = builder_finish (b, NULL);
    bad[0] = parse_bytes (bytes, NULL);
    bad[1] = parse_bytes (bytes, NULL);
    g_assert_null (hr_gguf_merge_split (bad, 2, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT);
    g_assert_null (bad[0]);
    g_assert_null (bad[1]);
  }
}

/* ---- hostile files --------------------------------------------------------------------- */

static void
test_truncated_everywhere (void)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  const gint32 arr[] = { 1, 2, 3 };
  gsize end = 0, len;
  const guint8 *data;

  kv_str (b, "general.architecture", "llama");
  kv_u32 (b, "llama.block_count", 3);
  kv_f32 (b, "x.f", 1.5f);
  kv_arr_i32 (b, "llama.attention.head_count_kv", arr, 3);
  kv_arr_tokens (b, "tokenizer.ggml.tokens", 5);
  tensor (b, "token_embd.weight", Q4_K, 256, 4, 1);
  tensor (b, "blk.0.ffn_up_exps.weight", Q8_0, 64, 2, 3);
  bytes = builder_finish (b, &end);
  data = g_bytes_get_data (bytes, &len);

  for (gsize cut = 0; cut < end; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error2 = NULL;
      g_autoptr(HrGguf) whole = hr_gguf_parse (data, cut, NULL, NULL, &error);
      gboolean need_more = FALSE;
      gsize needed = 0;
      g_autoptr(HrGguf) prefix = hr_gguf_parse (data, cut, &need_more, &needed, &error2);

      g_assert_null (whole);
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
      g_assert_null (prefix);
      g_assert_no_error (error2);
      g_assert_true (need_more);
      g_assert_cmpuint (needed, >, cut);
    }
  for (gsize cut = end; cut <= len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) whole = hr_gguf_parse (data, cut, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_nonnull (whole);
      g_assert_cmpuint (hr_gguf_get_n_tensors (whole), ==, 2);
    }
}

static void
test_hostile (void)
{
  g_autoptr(GByteArray) b = NULL;

  /* Wrong magic, version 1, big-endian, version 4. */
  b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "GGML\3\0\0\0", 8);
  assert_parse_error (b, HR_GGUF_ERROR_NOT_GGUF);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (1, 0, 0);
  assert_parse_error (b, HR_GGUF_ERROR_VERSION);
  g_clear_pointer (&b, g_byte_array_unref);

  b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "GGUF\0\0\0\3", 8);
  put_u64 (b, 0);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_VERSION);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (4, 0, 0);
  assert_parse_error (b, HR_GGUF_ERROR_VERSION);
  g_clear_pointer (&b, g_byte_array_unref);

  /* Counts of 2^63. */
  b = raw_header (3, G_GUINT64_CONSTANT (1) << 63, 0);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, G_GUINT64_CONSTANT (1) << 63);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 1000001, 0);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  /* A key string longer than the file, and one of 2^63 bytes. */
  b = raw_header (3, 0, 1);
  put_u64 (b, 1000);
  g_byte_array_append (b, (const guint8 *) "abc", 3);
  assert_parse_error (b, HR_GGUF_ERROR_TRUNCATED);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 63);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  /* A value string of 2^62 bytes. */
  b = raw_header (3, 0, 1);
  put_str (b, "general.name");
  put_u32 (b, HR_GGUF_TYPE_STRING);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 62);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  /* Non-UTF-8 key, empty key, a NUL inside a key. */
  b = raw_header (3, 0, 1);
  put_u64 (b, 4);
  g_byte_array_append (b, (const guint8 *) "a\xff\xfe" "b", 4);
  put_u32 (b, HR_GGUF_TYPE_UINT8);
  g_byte_array_append (b, (const guint8 *) "\1", 1);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_u64 (b, 0);
  put_u32 (b, HR_GGUF_TYPE_UINT8);
  g_byte_array_append (b, (const guint8 *) "\1", 1);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_u64 (b, 3);
  g_byte_array_append (b, (const guint8 *) "a\0b", 3);
  put_u32 (b, HR_GGUF_TYPE_UINT8);
  g_byte_array_append (b, (const guint8 *) "\1", 1);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  /* An unknown value type, and a duplicate key. */
  b = raw_header (3, 0, 1);
  put_str (b, "k");
  put_u32 (b, 13);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 2);
  for (int i = 0; i < 2; i++)
    {
      put_str (b, "k");
      put_u32 (b, HR_GGUF_TYPE_UINT32);
      put_u32 (b, 1);
    }
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  /* 100,000 arrays of arrays, and arrays that claim too much. */
  b = raw_header (3, 0, 1);
  put_str (b, "nested");
  put_u32 (b, HR_GGUF_TYPE_ARRAY);
  for (int i = 0; i < 100000; i++)
    {
      put_u32 (b, HR_GGUF_TYPE_ARRAY);
      put_u64 (b, 1);
    }
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_str (b, "tokens");
  put_u32 (b, HR_GGUF_TYPE_ARRAY);
  put_u32 (b, HR_GGUF_TYPE_STRING);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 62);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_str (b, "scores");
  put_u32 (b, HR_GGUF_TYPE_ARRAY);
  put_u32 (b, HR_GGUF_TYPE_FLOAT64);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 61);
  assert_parse_error (b, HR_GGUF_ERROR_LIMIT);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 0, 1);
  put_str (b, "bad");
  put_u32 (b, HR_GGUF_TYPE_ARRAY);
  put_u32 (b, 77);
  put_u64 (b, 1);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  /* Alignment: not a power of two, zero, a string. */
  {
    const guint32 bad[] = { 3, 0, 48 };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        b = raw_header (3, 0, 1);
        put_str (b, "general.alignment");
        put_u32 (b, HR_GGUF_TYPE_UINT32);
        put_u32 (b, bad[i]);
        assert_parse_error (b, HR_GGUF_ERROR_INVALID);
        g_clear_pointer (&b, g_byte_array_unref);
      }
  }
  b = raw_header (3, 0, 1);
  put_str (b, "general.alignment");
  put_u32 (b, HR_GGUF_TYPE_STRING);
  put_str (b, "64");
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  /* Tensors: n_dims 5, unknown type, dims whose product overflows, a negative dimension, a
   * row not a multiple of the block, a wrong offset, a duplicate name. */
  b = raw_header (3, 1, 0);
  put_str (b, "t");
  put_u32 (b, 5);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  {
    const guint32 unknown[] = { 4, 5, 31, 200, 0xffffffffu };

    for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
      {
        b = raw_header (3, 1, 0);
        put_str (b, "t");
        put_u32 (b, 1);
        put_u64 (b, 256);
        put_u32 (b, unknown[i]);
        put_u64 (b, 0);
        assert_parse_error (b, HR_GGUF_ERROR_UNSUPPORTED);
        g_clear_pointer (&b, g_byte_array_unref);
      }
  }

  b = raw_header (3, 1, 0);
  put_str (b, "t");
  put_u32 (b, 4);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 32);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 32);
  put_u64 (b, 2);
  put_u64 (b, 1);
  put_u32 (b, F32);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 1, 0);
  put_str (b, "t");
  put_u32 (b, 1);
  put_u64 (b, G_GUINT64_CONSTANT (1) << 63);
  put_u32 (b, F32);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 1, 0);
  put_str (b, "t");
  put_u32 (b, 2);
  put_u64 (b, 100);
  put_u64 (b, 4);
  put_u32 (b, Q4_K);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 1, 0);
  put_str (b, "t");
  put_u32 (b, 1);
  put_u64 (b, 32);
  put_u32 (b, F32);
  put_u64 (b, 64);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 2, 0);
  for (int i = 0; i < 2; i++)
    {
      put_str (b, "t");
      put_u32 (b, 1);
      put_u64 (b, 32);
      put_u32 (b, F32);
      put_u64 (b, i * 128);
    }
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  /* A tensor name that is not UTF-8, and an empty one. */
  b = raw_header (3, 1, 0);
  put_u64 (b, 2);
  g_byte_array_append (b, (const guint8 *) "\xc0\xaf", 2);
  put_u32 (b, 1);
  put_u64 (b, 32);
  put_u32 (b, F32);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);

  b = raw_header (3, 1, 0);
  put_str (b, "");
  put_u32 (b, 1);
  put_u64 (b, 32);
  put_u32 (b, F32);
  put_u64 (b, 0);
  assert_parse_error (b, HR_GGUF_ERROR_INVALID);
  g_clear_pointer (&b, g_byte_array_unref);
}

/* A sparse file whose header declares a 1 GiB array of (empty) strings: the declared size is
 * refused before any of it is read, so memory stays near the header's real size (it was read
 * into a 1 GiB buffer, 1.06 GB peak). */
static void
test_huge_string_array_file (void)
{
  g_autoptr(GByteArray) b = raw_header (3, 0, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-gguf-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "strings.gguf", NULL);
  g_autoptr(HrGguf) gguf = NULL;
  FILE *f;

  g_assert_no_error (error);
  put_u64 (b, 1);
  g_byte_array_append (b, (const guint8 *) "k", 1);
  put_u32 (b, 9);   /* array */
  put_u32 (b, 8);   /* of strings */
  put_u64 (b, (G_GUINT64_CONSTANT (1) << 30) / 8 - 64);
  f = fopen (path, "wb");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (b->data, 1, b->len, f), ==, b->len);
  g_assert_cmpint (fseeko (f, (off_t) 1 << 30, SEEK_SET), ==, 0);
  fputc (0, f);
  fclose (f);

  gguf = hr_gguf_load_file (path, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT);
  g_unlink (path);
  g_rmdir (dir);
}

/* 65 536 tensor names that share one g_str_hash value (3.8 MB): 56 s in the issue, 243 s on
 * the build machine, a third of a second with ordinary names. */
static void
test_colliding_tensor_names (void)
{
  g_autoptr(GBytes) bytes = hostile_gguf_colliding (65536, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(GString) name = g_string_new ("blk.");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gint64 start = g_get_monotonic_time ();
  double seconds;

  gguf = hr_gguf_parse (data, len, NULL, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%zu bytes, 65536 colliding tensor names: %.3f s", len, seconds);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 65536);
  hostile_colliding_name (name, 40000, 11);
  g_assert_nonnull (hr_gguf_find_tensor (gguf, name->str));
  g_assert_cmpstr (hr_gguf_find_tensor (gguf, name->str)->name, ==, name->str);
  g_assert_cmpfloat (seconds, <, HOSTILE_SECONDS);
}

/* hr_gguf_parse_until() gives up at its deadline, inside the header (it looks at the clock
 * every 1024 tensors), and reads the whole header without one. */
static void
test_parse_deadline (void)
{
  g_autoptr(GBytes) bytes = hostile_gguf_colliding (65536, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  gguf = hr_gguf_parse_until (data, len, g_get_monotonic_time () - 1, 0, NULL, NULL, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TIMEOUT);
  g_clear_error (&error);

  /* 65 536 tensors are not read in a millisecond */
  gguf = hr_gguf_parse_until (data, len, g_get_monotonic_time () + 1000, 0, NULL, NULL,
                              &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TIMEOUT);
  g_clear_error (&error);

  gguf = hr_gguf_parse_until (data, len, g_get_monotonic_time () + 600 * G_USEC_PER_SEC, 0,
                              NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 65536);
  g_clear_pointer (&gguf, hr_gguf_free);
  gguf = hr_gguf_parse_until (data, len, 0, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_tensors (gguf), ==, 65536);
}

/* A two-block Llama whose heads are @heads (and @kv_heads, @key_length when not -1): the shapes
 * a model cannot have are refused with a reason (they divided by zero in the sizing and were
 * called "Fits with margin"), the ones it can have are read. */
static char *
heads_error (int heads,
             int kv_heads,
             int hidden,
             int key_length,
             int value_length)
{
  g_autoptr(Builder) b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;

  kv_str (b, "general.architecture", "llama");
  kv_u32 (b, "llama.block_count", 2);
  kv_u32 (b, "llama.embedding_length", (guint32) hidden);
  kv_u32 (b, "llama.feed_forward_length", 512);
  kv_u32 (b, "llama.attention.head_count", (guint32) heads);
  if (kv_heads >= 0)
    kv_u32 (b, "llama.attention.head_count_kv", (guint32) kv_heads);
  if (key_length >= 0)
    kv_u32 (b, "llama.attention.key_length", (guint32) key_length);
  if (value_length >= 0)
    kv_u32 (b, "llama.attention.value_length", (guint32) value_length);
  tensor (b, "token_embd.weight", F32, 256, 64, 1);
  bytes = builder_finish (b, NULL);
  gguf = parse_bytes (bytes, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  if (model != NULL)
    return NULL;
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
  g_assert_null (strchr (error->message, '\n'));
  return g_strdup (error->message);
}

static void
test_impossible_heads (void)
{
  struct
  {
    int heads, kv, hidden, key_length, value_length;
    const char *message;   /* NULL: read */
  } cases[] = {
    { 0, 2, 256, -1, -1, "llama.attention.head_count is 0: an attention layer needs at least one head" },
    { 300, 300, 256, -1, -1, "300 attention heads are more than llama.embedding_length 256" },
    { 300, 300, 256, 64, -1, "300 attention heads are more than llama.embedding_length 256" },
    { 4, 2, 256, 0, -1, "llama.attention.key_length is 0: a head needs at least one dimension" },
    { 4, 2, 256, 64, 0, "llama.attention.value_length is 0: a head needs at least one dimension" },
    { 4, 3, 256, -1, -1, "3 key/value heads do not divide 4 attention heads" },
    { 4, 8, 256, -1, -1, "8 key/value heads do not divide 4 attention heads" },
    { 3, 3, 256, -1, -1, "3 attention heads do not divide llama.embedding_length 256, and there is "
                         "no llama.attention.key_length" },
    { 4, 0, 256, -1, -1, "lacks attention layers" },
    { 4, 2, 256, -1, -1, NULL },
    { 3, 1, 256, 64, -1, NULL },   /* an explicit head size need not split the width (Gemma) */
    { 4, -1, 256, -1, -1, NULL },  /* no head_count_kv: one per head */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *message = heads_error (cases[c].heads, cases[c].kv, cases[c].hidden,
                                              cases[c].key_length, cases[c].value_length);

      g_test_message ("heads %d, kv %d, hidden %d, key_length %d: %s", cases[c].heads,
                      cases[c].kv, cases[c].hidden, cases[c].key_length,
                      message != NULL ? message : "read");
      if (cases[c].message == NULL)
        g_assert_null (message);
      else
        {
          g_assert_nonnull (message);
          g_assert_nonnull (strstr (message, cases[c].message));
        }
    }

  /* Per-layer head counts: a layer with attention and no head is named. */
  {
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(HrGguf) gguf = NULL;
    g_autoptr(HrModel) model = NULL;
    const gint32 heads[] = { 4, 0 };
    const gint32 kv[] = { 2, 2 };

    kv_str (b, "general.architecture", "llama");
    kv_u32 (b, "llama.block_count", 2);
    kv_u32 (b, "llama.embedding_length", 256);
    kv_arr_i32 (b, "llama.attention.head_count", heads, 2);
    kv_arr_i32 (b, "llama.attention.head_count_kv", kv, 2);
    bytes = builder_finish (b, NULL);
    gguf = parse_bytes (bytes, &error);
    g_assert_no_error (error);
    model = hr_gguf_to_model (gguf, &error);
    g_assert_null (model);
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
    g_assert_cmpstr (error->message, ==, "llama.attention.head_count is 0: an attention layer "
                     "needs at least one head (layer 1)");
  }
}

static void
test_model_errors (void)
{
  struct
  {
    const char *arch;
    const char *missing;
  } cases[] = {
    { NULL, "general.architecture" },
    { "llama", "llama.block_count" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(Builder) b = builder_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) gguf = NULL;
      g_autoptr(HrModel) model = NULL;

      if (cases[c].arch != NULL)
        kv_str (b, "general.architecture", cases[c].arch);
      bytes = builder_finish (b, NULL);
      gguf = parse_bytes (bytes, &error);
      g_assert_no_error (error);
      model = hr_gguf_to_model (gguf, &error);
      g_assert_null (model);
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
      g_assert_nonnull (strstr (error->message, cases[c].missing));
    }

  /* Out-of-range values and a per-layer array of the wrong length. */
  {
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(HrGguf) gguf = NULL;
    g_autoptr(HrModel) model = NULL;
    const gint32 kv[] = { 8, 8 };

    kv_str (b, "general.architecture", "llama");
    kv_u32 (b, "llama.block_count", 4);
    kv_u32 (b, "llama.embedding_length", 4096);
    kv_u32 (b, "llama.attention.head_count", 32);
    kv_arr_i32 (b, "llama.attention.head_count_kv", kv, 2);
    bytes = builder_finish (b, NULL);
    gguf = parse_bytes (bytes, &error);
    g_assert_no_error (error);
    model = hr_gguf_to_model (gguf, &error);
    g_assert_null (model);
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
    g_test_message ("%s", error->message);
  }
  {
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(HrGguf) gguf = NULL;
    g_autoptr(HrModel) model = NULL;

    kv_str (b, "general.architecture", "llama");
    kv_u32 (b, "llama.block_count", 0xffffffffu);
    kv_u32 (b, "llama.embedding_length", 4096);
    bytes = builder_finish (b, NULL);
    gguf = parse_bytes (bytes, &error);
    g_assert_no_error (error);
    model = hr_gguf_to_model (gguf, &error);
    g_assert_null (model);
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
    g_assert_nonnull (strstr (error->message, "llama.block_count"));
  }
  {
    /* No tensors: nothing to size. */
    g_autoptr(Builder) b = builder_new ();
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(HrGguf) gguf = NULL;
    g_autoptr(HrModel) model = NULL;

    kv_str (b, "general.architecture", "llama");
    kv_u32 (b, "llama.block_count", 2);
    kv_u32 (b, "llama.embedding_length", 4096);
    kv_u32 (b, "llama.attention.head_count", 32);
    bytes = builder_finish (b, NULL);
    gguf = parse_bytes (bytes, &error);
    g_assert_no_error (error);
    model = hr_gguf_to_model (gguf, &error);
    g_assert_null (model);
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gguf/llama-bytes", test_llama_bytes);
  g_test_add_func ("/gguf/prefix-and-file", test_prefix_and_file);
  g_test_add_func ("/gguf/moe", test_moe);
  g_test_add_func ("/gguf/mla", test_mla);
  g_test_add_func ("/gguf/hybrid", test_hybrid);
  g_test_add_func ("/gguf/hybrid-kv-array", test_hybrid_kv_array);
  g_test_add_func ("/gguf/sliding", test_sliding);
  g_test_add_func ("/gguf/gemma4-pattern-array", test_gemma4_pattern_array);
  g_test_add_func ("/gguf/file-types", test_file_types);
  g_test_add_func ("/gguf/split", test_split);
  g_test_add_func ("/gguf/split-in-memory", test_split_in_memory);
  g_test_add_func ("/gguf/split-lying-parts", test_split_lying_parts);
  g_test_add_func ("/gguf/split-one-budget", test_split_one_budget);
  g_test_add_func ("/gguf/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/gguf/hostile", test_hostile);
  g_test_add_func ("/gguf/huge-string-array-file", test_huge_string_array_file);
  g_test_add_func ("/gguf/model-errors", test_model_errors);
  g_test_add_func ("/gguf/colliding-tensor-names", test_colliding_tensor_names);
  g_test_add_func ("/gguf/parse-deadline", test_parse_deadline);
  g_test_add_func ("/gguf/impossible-heads", test_impossible_heads);

  return g_test_run ();
}
