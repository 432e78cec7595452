/* gguf-writer.h — a small GGUF v3 writer for the import tests (header only, then zeros)
 *
 * Writes a tiny Llama in the Q4_K_M mix (Q4_K, Q6_K for attn_v/ffn_down/output, F32 norms),
 * so a file opened in the app and by `headroom-cli inspect` takes the same exact bytes.
 */
#pragma once

#include <glib.h>
#include <string.h>

#define GGML_F32  0
#define GGML_F16  1
#define GGML_Q4_K 12
#define GGML_Q6_K 14

typedef struct
{
  GByteArray *kv;
  guint64 n_kv;
  GByteArray *ti;
  guint64 n_tensors;
  guint64 offset;
  guint64 tensor_bytes;
} GgufWriter;

static inline void
gw_u32 (GByteArray *b,
        guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  g_byte_array_append (b, (const guint8 *) &le, 4);
}

static inline void
gw_u64 (GByteArray *b,
        guint64     v)
{
  guint64 le = GUINT64_TO_LE (v);

  g_byte_array_append (b, (const guint8 *) &le, 8);
}

static inline void
gw_str (GByteArray *b,
        const char *s)
{
  gw_u64 (b, strlen (s));
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

static inline GgufWriter *
gguf_writer_new (void)
{
  GgufWriter *w = g_new0 (GgufWriter, 1);

  w->kv = g_byte_array_new ();
  w->ti = g_byte_array_new ();
  return w;
}

static inline void
gguf_writer_free (GgufWriter *w)
{
  g_byte_array_unref (w->kv);
  g_byte_array_unref (w->ti);
  g_free (w);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GgufWriter, gguf_writer_free)

static inline void
gguf_kv_u32 (GgufWriter *w,
             const char *key,
             guint32     v)
{
  gw_str (w->kv, key);
  gw_u32 (w->kv, 4);  /* uint32 */
  gw_u32 (w->kv, v);
  w->n_kv++;
}

static inline void
gguf_kv_str (GgufWriter *w,
             const char *key,
             const char *v)
{
  gw_str (w->kv, key);
  gw_u32 (w->kv, 8);  /* string */
  gw_str (w->kv, v);
  w->n_kv++;
}

static inline guint64
gguf_type_bytes (int     type,
                 guint64 n)
{
  switch (type)
    {
    case GGML_F32:
      return n * 4;
    case GGML_F16:
      return n * 2;
    case GGML_Q4_K:
      return n / 256 * 144;
    case GGML_Q6_K:
      return n / 256 * 210;
    default:
      g_assert_not_reached ();
    }
}

static inline void
gguf_tensor (GgufWriter *w,
             const char *name,
             int         type,
             guint64     d0,
             guint64     d1)
{
  guint64 bytes = gguf_type_bytes (type, d0 * d1);

  gw_str (w->ti, name);
  gw_u32 (w->ti, d1 > 1 ? 2 : 1);
  gw_u64 (w->ti, d0);
  if (d1 > 1)
    gw_u64 (w->ti, d1);
  gw_u32 (w->ti, (guint32) type);
  gw_u64 (w->ti, w->offset);
  w->offset += (bytes + 31) / 32 * 32;
  w->n_tensors++;
  w->tensor_bytes += bytes;
}

/* The header padded to 32 bytes, then @zeros bytes standing in for the weights. */
static inline GBytes *
gguf_writer_finish (GgufWriter *w,
                    gsize       zeros)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) "GGUF", 4);
  gw_u32 (out, 3);
  gw_u64 (out, w->n_tensors);
  gw_u64 (out, w->n_kv);
  g_byte_array_append (out, w->kv->data, w->kv->len);
  g_byte_array_append (out, w->ti->data, w->ti->len);
  while (out->len % 32 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  g_byte_array_set_size (out, out->len + (guint) zeros);
  memset (out->data + out->len - zeros, 0, zeros);
  return g_byte_array_free_to_bytes (out);
}

/* A two-block Llama, hidden 256, in the Q4_K_M mix's tensor types, labelled with
 * general.file_type @file_type; the whole file, its weights as zeros.  @tensor_bytes: the exact
 * sum of the tensors. */
static inline GBytes *
gguf_tiny_llama_typed (const char *name,
                       guint32     file_type,
                       guint64    *tensor_bytes)
{
  g_autoptr(GgufWriter) w = gguf_writer_new ();

  gguf_kv_str (w, "general.architecture", "llama");
  gguf_kv_str (w, "general.name", name);
  gguf_kv_u32 (w, "general.file_type", file_type);
  gguf_kv_u32 (w, "llama.block_count", 2);
  gguf_kv_u32 (w, "llama.context_length", 65536);
  gguf_kv_u32 (w, "llama.embedding_length", 256);
  gguf_kv_u32 (w, "llama.feed_forward_length", 512);
  gguf_kv_u32 (w, "llama.attention.head_count", 4);
  gguf_kv_u32 (w, "llama.attention.head_count_kv", 2);
  gguf_kv_u32 (w, "llama.vocab_size", 1024);

  gguf_tensor (w, "token_embd.weight", GGML_Q4_K, 256, 1024);
  for (guint i = 0; i < 2; i++)
    {
      char t[64];

#define T(suffix, type, d0, d1) \
      g_snprintf (t, sizeof t, "blk.%u." suffix, i); gguf_tensor (w, t, type, d0, d1)
      T ("attn_norm.weight", GGML_F32, 256, 1);
      T ("attn_q.weight", GGML_Q4_K, 256, 256);
      T ("attn_k.weight", GGML_Q4_K, 256, 128);
      T ("attn_v.weight", GGML_Q6_K, 256, 128);
      T ("attn_output.weight", GGML_Q4_K, 256, 256);
      T ("ffn_norm.weight", GGML_F32, 256, 1);
      T ("ffn_gate.weight", GGML_Q4_K, 256, 512);
      T ("ffn_up.weight", GGML_Q4_K, 256, 512);
      T ("ffn_down.weight", GGML_Q6_K, 512, 256);
#undef T
    }
  gguf_tensor (w, "output_norm.weight", GGML_F32, 256, 1);
  gguf_tensor (w, "output.weight", GGML_Q6_K, 256, 1024);
  if (tensor_bytes != NULL)
    *tensor_bytes = w->tensor_bytes;
  return gguf_writer_finish (w, (gsize) w->offset);
}

/* …in the Q4_K_M mix (general.file_type 15) */
static inline GBytes *
gguf_tiny_llama (const char *name,
                 guint64    *tensor_bytes)
{
  return gguf_tiny_llama_typed (name, 15, tensor_bytes);
}
