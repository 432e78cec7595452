/* hr-weights.c — bytes of a model's weights at one quantization
 *
 * Preference order: exact tensor bytes from a GGUF header, a measured file of that quant, the
 * official checkpoint (native dtype: 2 bytes per parameter for BF16), and last a per-tensor
 * derivation that walks the tensors the architecture implies, in llama.cpp's order, and gives
 * each the ggml type llama-quantize would (hr_quant_tensor_type), with its counters.
 *
 * The derivation costs a few thousand rule evaluations for a large model, far more than the
 * rest of an estimate, so its result is cached per (model, quant) in the model itself.
 */
#include <gio/gio.h>

#include "hr-estimate.h"
#include "hr-quant.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const char *mix;
  HrWeightLayout format;
  int n_blocks;        /* blocks in the file, MTP layers included (llama-quantize's n_layer_all) */
  int n_experts;
  int n_gqa;
  gboolean iq2_family; /* IQ1/IQ2 mixes count ffn_down tensors, not blocks */
  gboolean mxfp4_experts; /* gpt-oss: every GGUF mix keeps the experts MXFP4 */
  /* llama-quantize's running counters */
  int i_attn_v, n_attn_v;
  int i_ffn_down;
  /* results */
  double bytes, params, expert_bytes, embd_bytes, output_bytes, mtp_bytes;
} Acc;

static double
bytes_for_format (Acc          *acc,
                  HrTensorKind  kind,
                  int           layer,
                  int           n_layers,
                  double        n,
                  gint64        row_len)
{
  gboolean linear = kind != HR_TENSOR_NORM && kind != HR_TENSOR_FFN_GATE_INP &&
                    kind != HR_TENSOR_TOKEN_EMBD && kind != HR_TENSOR_OUTPUT;
  gboolean expert = kind == HR_TENSOR_FFN_GATE_EXPS || kind == HR_TENSOR_FFN_UP_EXPS ||
                    kind == HR_TENSOR_FFN_DOWN_EXPS;

  switch (acc->format)
    {
    case HR_WEIGHT_LAYOUT_FLOAT16:
      return kind == HR_TENSOR_NORM || kind == HR_TENSOR_FFN_GATE_INP ? n * 4 : n * 2;
    case HR_WEIGHT_LAYOUT_FP8_BLOCK:
      /* 1 byte per weight plus one fp32 scale per 128×128 block (DeepSeek-V3 style). */
      return linear ? n * (1.0 + 4.0 / 16384.0) : n * 2;
    case HR_WEIGHT_LAYOUT_MXFP4_MOE:
      /* vLLM's MXFP4 MoE kernels pad each expert matrix's rows to a multiple of 256
       * (gpt-oss: 2880 → 3072): 64.38 GiB loaded for gpt-oss-120b on an H100 (vLLM 0.14,
       * vllm-project/vllm#33155) against 60.8 GiB of checkpoint */
      if (expert && row_len > 0)
        return n * 17.0 / 32.0 * (double) (((row_len + 255) / 256) * 256) / (double) row_len;
      return expert ? n * 17.0 / 32.0 : n * 2;
    case HR_WEIGHT_LAYOUT_INT8_GROUP:
      /* GPTQ-style 8-bit: 1 byte per weight, an fp16 scale and an 8-bit zero per group of 128 */
      return linear ? n * (1.0 + (2.0 + 1.0) / 128.0) : n * 2;
    case HR_WEIGHT_LAYOUT_INT4_GROUP:
      return linear ? n * (0.5 + (2.0 + 0.5) / 128.0) : n * 2;
    case HR_WEIGHT_LAYOUT_NVFP4:
      return linear ? n * (0.5 + 1.0 / 16.0) : n * 2;
    case HR_WEIGHT_LAYOUT_GGUF_MIX:
    default:
      {
        const HrGgmlType *t = hr_quant_tensor_type (expert && acc->mxfp4_experts ? "MXFP4_MOE"
                                                    : acc->mix, kind, layer, n_layers,
                                                    acc->n_experts, acc->n_gqa, row_len);
        if (t == NULL)
          return n * 2;
        return hr_ggml_type_bytes (t, n);
      }
    }
}

static void
add (Acc          *acc,
     HrTensorKind  kind,
     int           layer,
     int           n_layers,
     double        n_elements,
     gint64        row_len)
{
  double b;

  if (n_elements <= 0)
    return;
  b = bytes_for_format (acc, kind, layer, n_layers, n_elements, row_len);
  acc->bytes += b;
  acc->params += n_elements;
  switch (kind)
    {
    case HR_TENSOR_FFN_GATE_EXPS:
    case HR_TENSOR_FFN_UP_EXPS:
    case HR_TENSOR_FFN_DOWN_EXPS:
      acc->expert_bytes += b;
      break;
    case HR_TENSOR_TOKEN_EMBD:
      acc->embd_bytes += b;
      break;
    case HR_TENSOR_OUTPUT:
      acc->output_bytes += b;
      break;
    default:
      break;
    }
}

static void
add_ffn_down (Acc          *acc,
              HrTensorKind  kind,
              int           block,
              double        n,
              gint64        row_len)
{
  /* Dense models: the running counter, which equals the block.  MoE models: layer_info()
   * parses the block from the name, so a layer's expert and shared-expert ffn_down share it;
   * except in the IQ1/IQ2 branch, which compares the counter itself with n/8. */
  int i = (acc->n_experts > 1 && !acc->iq2_family) ? block : acc->i_ffn_down;

  add (acc, kind, i, acc->n_blocks, n, row_len);
  acc->i_ffn_down++;
}

static const HrLayerGroup *
attention_group_for_block (const HrModel *m,
                           int            block)
{
  /* Layer groups are listed in no particular order; blocks are assigned group by group,
   * which is exact for the per-tensor types except for where the first attn_v tensors fall. */
  int seen = 0;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      if (block < seen + g->count)
        return g;
      seen += g->count;
    }
  return m->layers->len > 0 ? &g_array_index (m->layers, HrLayerGroup, 0) : NULL;
}

static void
add_attention (Acc                *acc,
               const HrModel      *m,
               const HrLayerGroup *g)
{
  double h = m->hidden;

  add (acc, HR_TENSOR_NORM, 0, acc->n_blocks, h, 0);      /* attn_norm */
  if (g == NULL || g->kind == HR_LAYER_RECURRENT)
    return;   /* recurrent projections: counted with the residual parameters */

  if (g->kind == HR_LAYER_MLA)
    {
      int nope = m->qk_nope_dim > 0 ? m->qk_nope_dim : 128;
      int rope = m->qk_rope_dim > 0 ? m->qk_rope_dim : 64;
      int vdim = m->v_head_dim > 0 ? m->v_head_dim : 128;
      double qk = (double) m->n_heads * (nope + rope);

      if (m->q_lora_rank > 0)
        {
          add (acc, HR_TENSOR_ATTN_Q_A, 0, acc->n_blocks, h * m->q_lora_rank, (gint64) h);
          add (acc, HR_TENSOR_NORM, 0, acc->n_blocks, m->q_lora_rank, 0);
          add (acc, HR_TENSOR_ATTN_Q_B, 0, acc->n_blocks, (double) m->q_lora_rank * qk,
               m->q_lora_rank);
        }
      else
        add (acc, HR_TENSOR_ATTN_Q, 0, acc->n_blocks, h * qk, (gint64) h);
      add (acc, HR_TENSOR_ATTN_KV_A, 0, acc->n_blocks, h * (m->kv_lora_rank + rope), (gint64) h);
      add (acc, HR_TENSOR_NORM, 0, acc->n_blocks, m->kv_lora_rank, 0);
      add (acc, HR_TENSOR_ATTN_KV_B, acc->i_attn_v++, acc->n_attn_v,
           (double) m->kv_lora_rank * m->n_heads * (nope + vdim), m->kv_lora_rank);
      add (acc, HR_TENSOR_ATTN_OUTPUT, 0, acc->n_blocks, (double) m->n_heads * vdim * h,
           (gint64) m->n_heads * vdim);
      return;
    }
  else
    {
      int qdim = g->k_dim > 0 ? g->k_dim : m->head_dim;
      int vdim = g->v_dim > 0 ? g->v_dim : g->k_dim;
      double q = (double) m->n_heads * qdim;

      add (acc, HR_TENSOR_ATTN_Q, 0, acc->n_blocks, h * q, (gint64) h);
      add (acc, HR_TENSOR_ATTN_K, 0, acc->n_blocks, h * g->kv_heads * g->k_dim, (gint64) h);
      if (g->v_dim > 0)
        add (acc, HR_TENSOR_ATTN_V, acc->i_attn_v++, acc->n_attn_v,
             h * g->kv_heads * g->v_dim, (gint64) h);
      add (acc, HR_TENSOR_ATTN_OUTPUT, 0, acc->n_blocks, q / qdim * vdim * h,
           (gint64) (q / qdim * vdim));
    }
}

static void
add_ffn (Acc           *acc,
         const HrModel *m,
         int            block)
{
  double h = m->hidden;
  gboolean moe_layer = hr_model_is_moe (m) && block >= m->n_dense_layers;

  add (acc, HR_TENSOR_NORM, 0, acc->n_blocks, h, 0);    /* ffn_norm */
  if (!moe_layer)
    {
      int ff = m->intermediate > 0 ? m->intermediate : m->moe_intermediate;
      if (!m->ffn_ungated)
        add (acc, HR_TENSOR_FFN_GATE, block, acc->n_blocks, h * ff, (gint64) h);
      add_ffn_down (acc, HR_TENSOR_FFN_DOWN, block, h * ff, ff);
      add (acc, HR_TENSOR_FFN_UP, block, acc->n_blocks, h * ff, (gint64) h);
      return;
    }
  else
    {
      double e = m->n_experts;
      int ff = m->moe_intermediate > 0 ? m->moe_intermediate : m->intermediate;
      int sh = m->shared_intermediate > 0 ? m->shared_intermediate
               : m->n_shared_experts * ff;

      add (acc, HR_TENSOR_FFN_GATE_INP, block, acc->n_blocks, h * e, (gint64) h);
      if (!m->ffn_ungated)
        add (acc, HR_TENSOR_FFN_GATE_EXPS, block, acc->n_blocks, e * h * ff, (gint64) h);
      add_ffn_down (acc, HR_TENSOR_FFN_DOWN_EXPS, block, e * h * ff, ff);
      add (acc, HR_TENSOR_FFN_UP_EXPS, block, acc->n_blocks, e * h * ff, (gint64) h);
      if (sh > 0)
        {
          if (!m->ffn_ungated)
            add (acc, HR_TENSOR_FFN_GATE_SHEXP, block, acc->n_blocks, h * sh, (gint64) h);
          add_ffn_down (acc, HR_TENSOR_FFN_DOWN_SHEXP, block, h * sh, sh);
          add (acc, HR_TENSOR_FFN_UP_SHEXP, block, acc->n_blocks, h * sh, (gint64) h);
        }
    }
}

/* Unsloth dynamic mixes (UD-Q2_K_XL, UD-Q4_K_XL…) keep attention, shared experts and the dense
 * layers at higher precision than the routed experts.  Their exact per-tensor recipe is not
 * published, so they are derived as: routed experts at the named mix, everything else one
 * step up (Q2→Q4_K_M-like, Q3→Q5_K_M-like, Q4→Q6_K-like); a dense model at the named mix. */
static const char *
ud_base_mix (const char *quant,
             const char **other_mix)
{
  if (g_ascii_strncasecmp (quant, "UD-", 3) != 0)
    return NULL;
  quant += 3;
  if (g_ascii_strncasecmp (quant, "Q2_K", 4) == 0 || g_ascii_strncasecmp (quant, "IQ2", 3) == 0 ||
      g_ascii_strncasecmp (quant, "IQ1", 3) == 0)
    {
      *other_mix = "Q4_K_M";
      return g_ascii_strncasecmp (quant, "IQ1_M", 5) == 0 ? "IQ1_M"
             : g_ascii_strncasecmp (quant, "IQ1", 3) == 0 ? "IQ1_S"
             : g_ascii_strncasecmp (quant, "IQ2_XXS", 7) == 0 ? "IQ2_XXS"
             : g_ascii_strncasecmp (quant, "IQ2_M", 5) == 0 ? "IQ2_M" : "Q2_K";
    }
  if (g_ascii_strncasecmp (quant, "Q3", 2) == 0 || g_ascii_strncasecmp (quant, "IQ3", 3) == 0)
    {
      *other_mix = "Q5_K_M";
      return "Q3_K_M";
    }
  if (g_ascii_strncasecmp (quant, "Q4", 2) == 0 || g_ascii_strncasecmp (quant, "IQ4", 3) == 0)
    {
      *other_mix = "Q6_K";
      return "Q4_K_M";
    }
  if (g_ascii_strncasecmp (quant, "Q5", 2) == 0)
    {
      *other_mix = "Q6_K";
      return "Q5_K_M";
    }
  if (g_ascii_strncasecmp (quant, "Q6", 2) == 0)
    {
      *other_mix = "Q8_0";
      return "Q6_K";
    }
  if (g_ascii_strncasecmp (quant, "Q8", 2) == 0)
    {
      *other_mix = "Q8_0";
      return "Q8_0";
    }
  return NULL;
}

static void
derive (const HrModel   *m,
        const char      *mix,
        HrWeightLayout   format,
        Acc             *acc)
{
  int mtp = MAX (m->mtp_layers, 0);
  double before;

  memset (acc, 0, sizeof *acc);
  acc->mix = mix;
  acc->format = format;
  acc->n_blocks = m->n_layers + mtp;
  acc->n_experts = m->n_experts;
  acc->iq2_family = mix != NULL && (g_ascii_strncasecmp (mix, "IQ1", 3) == 0 ||
                                    g_ascii_strncasecmp (mix, "IQ2", 3) == 0);
  /* llama-quantize leaves gpt-oss's MXFP4 experts as they are in every mix (unsloth's
   * gpt-oss-20b-GGUF: Q2_K … Q5_K_M all 11.5–11.7 GB; bartowski's README: "all FFN kept at
   * MXFP4_MOE") */
  acc->mxfp4_experts = format == HR_WEIGHT_LAYOUT_GGUF_MIX &&
                       g_strcmp0 (m->native_dtype, "MXFP4") == 0;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_RECURRENT)
        continue;
      if (g->kind == HR_LAYER_MLA || g->v_dim > 0)
        acc->n_attn_v += g->count;
      if (acc->n_gqa == 0 && g->kind != HR_LAYER_MLA && g->kv_heads > 0 && m->n_heads > 0)
        acc->n_gqa = m->n_heads / g->kv_heads;
    }
  if (acc->n_gqa == 0)
    acc->n_gqa = 1;

  /* token_embd; a tied table is quantized with the output rules (llama-quantize assumes tied
   * embeddings until it sees output.weight). */
  add (acc, m->tie_embeddings ? HR_TENSOR_OUTPUT : HR_TENSOR_TOKEN_EMBD, 0, acc->n_blocks,
       (double) m->vocab * m->hidden, m->hidden);
  if (m->tie_embeddings)
    {
      acc->embd_bytes = acc->output_bytes;
      acc->output_bytes = 0;
    }
  else
    add (acc, HR_TENSOR_OUTPUT, 0, acc->n_blocks, (double) m->vocab * m->hidden, m->hidden);
  add (acc, HR_TENSOR_NORM, 0, acc->n_blocks, m->hidden, 0);   /* output_norm */

  if (m->n_ffn_layers > 0)
    {
      /* Nemotron-H: every block is one thing — attention, Mamba-2 or MoE FFN. */
      int mixers = 0;
      for (guint i = 0; i < m->layers->len; i++)
        mixers += g_array_index (m->layers, HrLayerGroup, i).count;
      for (int b = 0; b < m->n_layers; b++)
        {
          if (b < mixers)
            add_attention (acc, m, attention_group_for_block (m, b));
          else
            add_ffn (acc, m, b);
        }
    }
  else
    for (int b = 0; b < m->n_layers; b++)
      {
        add_attention (acc, m, attention_group_for_block (m, b));
        add_ffn (acc, m, b);
      }

  /* MTP / NextN blocks ship in the file (blk.N…) with an MoE layer's tensors; llama.cpp
   * does not load them. */
  before = acc->bytes;
  for (int b = m->n_layers; b < m->n_layers + mtp; b++)
    {
      add_attention (acc, m, attention_group_for_block (m, 0));
      add_ffn (acc, m, b);
    }
  acc->mtp_bytes = acc->bytes - before;
}

/* ---- per-model cache -------------------------------------------------------------------- */

#define CACHE_SLOTS 48

typedef struct
{
  guint64 key;
  char quant[32];
  HrWeights weights;
} CacheSlot;

typedef struct
{
  GMutex lock;
  CacheSlot slots[CACHE_SLOTS];
  guint n_used;
  guint next;
} WeightsCache;

void
hr_weights_cache_free (gpointer data)
{
  WeightsCache *cache = data;

  if (cache == NULL)
    return;
  g_mutex_clear (&cache->lock);
  g_free (cache);
}

static inline guint64
mix64 (guint64 h,
       guint64 v)
{
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

static guint64
dbits (double d)
{
  guint64 u;
  memcpy (&u, &d, sizeof u);
  return u;
}

/* A fingerprint of everything hr_weights_compute() reads, so an edited model (the CLI's and
 * the GUI's custom models are mutable) never gets a stale figure. */
static guint64
model_fingerprint (const HrModel *m)
{
  guint64 h = 1469598103934665603ULL;
  const int ints[] = { m->n_layers, m->hidden, m->n_heads, m->head_dim, m->vocab,
                       m->intermediate, m->n_experts, m->n_experts_used, m->n_shared_experts,
                       m->moe_intermediate, m->shared_intermediate, m->n_dense_layers,
                       m->q_lora_rank, m->kv_lora_rank, m->qk_rope_dim, m->qk_nope_dim,
                       m->v_head_dim, m->mtp_layers, m->tie_embeddings, (int) m->origin,
                       m->gguf_file_type };

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    h = mix64 (h, (guint64) (guint32) ints[i]);
  h = mix64 (h, dbits (m->total_params));
  h = mix64 (h, dbits (m->active_params));
  h = mix64 (h, m->gguf_bytes);
  h = mix64 (h, m->gguf_expert_bytes);
  h = mix64 (h, g_str_hash (m->gguf_quant ? m->gguf_quant : ""));
  h = mix64 (h, GPOINTER_TO_SIZE (m->layers->data));
  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      h = mix64 (h, ((guint64) g->kind << 48) ^ ((guint64) g->count << 24) ^ (guint64) g->kv_heads);
      h = mix64 (h, ((guint64) g->k_dim << 32) ^ (guint64) g->v_dim);
    }
  for (guint i = 0; i < m->sizes->len; i++)
    {
      const HrQuantSize *s = g_ptr_array_index (m->sizes, i);
      h = mix64 (h, GPOINTER_TO_SIZE (s));
      h = mix64 (h, s->bytes);
      h = mix64 (h, GPOINTER_TO_SIZE (s->source));
    }
  return h;
}

static WeightsCache *
cache_for (const HrModel *model)
{
  HrModel *m = (HrModel *) model;   /* the cache is the only mutable part, behind its lock */
  WeightsCache *cache = g_atomic_pointer_get (&m->weights_cache);

  if (cache == NULL)
    {
      WeightsCache *fresh = g_new0 (WeightsCache, 1);
      g_mutex_init (&fresh->lock);
      if (g_atomic_pointer_compare_and_exchange (&m->weights_cache, NULL, fresh))
        cache = fresh;
      else
        {
          hr_weights_cache_free (fresh);
          cache = g_atomic_pointer_get (&m->weights_cache);
        }
    }
  return cache;
}

/* ---- computation ------------------------------------------------------------------------ */

/* The per-tensor derivation of @quant, UD mixes and MXFP4 files included. */
static void
derive_quant (const HrModel  *model,
              const char     *quant,
              HrWeightLayout  format,
              const char     *ud_mix,
              const char     *ud_other,
              Acc            *acc)
{
  if (ud_mix != NULL)
    {
      Acc other;
      derive (model, ud_mix, HR_WEIGHT_LAYOUT_GGUF_MIX, acc);
      derive (model, ud_other, HR_WEIGHT_LAYOUT_GGUF_MIX, &other);
      /* experts from the low mix, all the rest from the higher one */
      if (hr_model_is_moe (model))
        {
          double low_expert_share = acc->expert_bytes;
          *acc = other;
          acc->bytes = other.bytes - other.expert_bytes + low_expert_share;
          acc->expert_bytes = low_expert_share;
        }
      /* a dense model has no routed experts: its UD file is the named mix (unsloth's
       * gemma-4-31B-it UD-Q4_K_XL: llama-bench prints "Q4_K - Medium", 17.46 GiB — llama.cpp
       * PR #22078) */
    }
  else if (g_ascii_strcasecmp (quant, "MXFP4") == 0)
    /* a GGUF file of the MXFP4 checkpoint (convert_hf_to_gguf, llama-quantize MXFP4_MOE):
     * experts MXFP4, every other matrix Q8_0 */
    derive (model, "MXFP4_MOE", HR_WEIGHT_LAYOUT_GGUF_MIX, acc);
  else
    derive (model, quant, format, acc);
}

/* Parameters the architecture does not show (vision towers, recurrent-layer projections,
 * biases of some families) still ship in the file: when they are more than rounding of the
 * published total, count them at the mix's average width of the repeating layers.  Adds
 * their bytes to @acc; returns their count and sets @residual_bytes. */
static double
add_residual (const HrModel *model,
              Acc           *acc,
              double        *residual_bytes)
{
  double residual = 0;

  *residual_bytes = 0;
  if (isfinite (model->total_params) && acc->params > 0 &&
      model->total_params > acc->params * 1.02)
    {
      double body = acc->bytes - acc->embd_bytes - acc->output_bytes;
      double body_params = acc->params - (double) model->vocab * model->hidden *
                           (model->tie_embeddings ? 1 : 2);
      residual = model->total_params - acc->params;
      *residual_bytes = residual * body / MAX (body_params, 1);
      acc->bytes += *residual_bytes;
    }
  return residual;
}

/* The derived parts scaled to a known total of @bytes. */
static void
scale_to (HrWeights *out,
          double     bytes)
{
  double scale = bytes / MAX (out->bytes, 1);

  out->bytes = bytes;
  out->expert_bytes *= scale;
  out->embd_bytes *= scale;
  out->output_bytes *= scale;
  out->mtp_bytes *= scale;
}

/* A size known better than the derivation: the official 16-bit checkpoint (exactly 2 bytes
 * per parameter), the GGUF file being sized, or a measured file of the quant. */
static void
use_known_size (const HrModel  *model,
                const char     *quant,
                HrWeightLayout  format,
                HrWeights      *out)
{
  const HrQuantSize *measured;

  if (format == HR_WEIGHT_LAYOUT_FLOAT16 && isfinite (model->total_params))
    {
      scale_to (out, model->total_params * 2);
      out->source = HR_WEIGHTS_CHECKPOINT;
    }

  if (model->origin == HR_MODEL_ORIGIN_GGUF && model->gguf_bytes > 0 &&
      (model->gguf_quant == NULL || hr_quant_same (model->gguf_quant, quant)))
    {
      scale_to (out, (double) model->gguf_bytes);
      out->expert_bytes = (double) model->gguf_expert_bytes;
      out->source = HR_WEIGHTS_GGUF;
    }
  else if ((measured = hr_model_find_size (model, quant)) != NULL && measured->bytes > 0)
    {
      scale_to (out, (double) measured->bytes);
      out->source = format == HR_WEIGHT_LAYOUT_GGUF_MIX ? HR_WEIGHTS_MEASURED : HR_WEIGHTS_CHECKPOINT;
      out->source_detail = measured->source;
    }
}

/* Read per decoded token: everything but the embedding table (one row is looked up), the
 * experts not chosen and the MTP blocks (not run without speculative decoding); and the bytes
 * of one repeating layer. */
static void
set_read_per_token (const HrModel *model,
                    double         residual_bytes,
                    double         derived_bytes,
                    HrWeights     *out)
{
  double k_frac = hr_model_is_moe (model) ? (double) model->n_experts_used / model->n_experts : 1.0;
  double mtp = MIN (out->mtp_bytes, out->bytes * 0.5);

  out->active_bytes = out->bytes - out->embd_bytes - mtp -
                      (out->expert_bytes * (1.0 - k_frac)) * (1.0 - mtp / MAX (out->bytes, 1));
  if (model->tie_embeddings)
    out->active_bytes += out->embd_bytes; /* the tied table is the output head too */
  if (residual_bytes > 0 && hr_model_state_bytes (model) <= 0)
    {
      /* residual tensors of non-hybrid models are mostly vision towers: not read when
       * decoding text */
      double res = residual_bytes * (out->bytes / MAX (derived_bytes, 1));
      out->active_bytes -= MIN (res, out->active_bytes * 0.5);
    }
  out->layer_bytes = (out->bytes - out->embd_bytes - mtp -
                      (model->tie_embeddings ? 0 : out->output_bytes)) / MAX (model->n_layers, 1);
}

static gboolean
compute_uncached (const HrModel  *model,
                  const char     *quant,
                  gboolean        derived_only,
                  HrWeights      *out,
                  GError        **error)
{
  HrWeightLayout format;
  const char *ud_other = NULL;
  const char *ud_mix;
  Acc acc;
  double residual, residual_bytes;

  memset (out, 0, sizeof *out);
  format = hr_quant_weight_layout (quant);
  ud_mix = ud_base_mix (quant, &ud_other);
  if (format == HR_WEIGHT_LAYOUT_GGUF_MIX && ud_mix == NULL && g_ascii_strcasecmp (quant, "MXFP4") != 0 &&
      hr_quant_tensor_type (quant, HR_TENSOR_FFN_UP, 0, 1, 0, 1, 4096) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "unknown quantization “%s”", quant);
      return FALSE;
    }

  derive_quant (model, quant, format, ud_mix, ud_other, &acc);
  residual = add_residual (model, &acc, &residual_bytes);

  out->bytes = acc.bytes;
  out->derived_bytes = acc.bytes;
  out->params = acc.params + residual;
  out->expert_bytes = acc.expert_bytes;
  out->embd_bytes = acc.embd_bytes;
  out->output_bytes = model->tie_embeddings ? acc.embd_bytes : acc.output_bytes;
  out->mtp_bytes = acc.mtp_bytes;
  out->source = HR_WEIGHTS_DERIVED;
  out->source_detail = NULL;
  if (!derived_only)
    use_known_size (model, quant, format, out);
  set_read_per_token (model, residual_bytes, acc.bytes, out);
  return TRUE;
}

static gboolean
compute_cached (const HrModel  *model,
                const char     *quant,
                gboolean        derived_only,
                HrWeights      *out,
                GError        **error)
{
  WeightsCache *cache;
  guint64 key;
  gboolean ok;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (quant == NULL || *quant == '\0')
    quant = model->gguf_quant ? model->gguf_quant : "Q4_K_M";
  if (strlen (quant) >= sizeof ((CacheSlot *) NULL)->quant)
    return compute_uncached (model, quant, derived_only, out, error);

  cache = cache_for (model);
  key = mix64 (model_fingerprint (model), derived_only);

  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_used; i++)
    {
      CacheSlot *slot = &cache->slots[i];
      if (slot->key == key && strcmp (slot->quant, quant) == 0)
        {
          *out = slot->weights;
          g_mutex_unlock (&cache->lock);
          return TRUE;
        }
    }
  g_mutex_unlock (&cache->lock);

  /* computed outside the lock: two threads may both compute, which is harmless */
  ok = compute_uncached (model, quant, derived_only, out, error);
  if (!ok)
    return FALSE;

  g_mutex_lock (&cache->lock);
  {
    CacheSlot *slot = &cache->slots[cache->n_used < CACHE_SLOTS ? cache->n_used++ : cache->next];
    if (cache->n_used == CACHE_SLOTS)
      cache->next = (cache->next + 1) % CACHE_SLOTS;
    slot->key = key;
    g_strlcpy (slot->quant, quant, sizeof slot->quant);
    slot->weights = *out;
  }
  g_mutex_unlock (&cache->lock);
  return TRUE;
}

gboolean
hr_weights_compute (const HrModel  *model,
                    const char     *quant,
                    HrWeights      *out,
                    GError        **error)
{
  return compute_cached (model, quant, FALSE, out, error);
}

gboolean
hr_weights_derive (const HrModel  *model,
                   const char     *quant,
                   HrWeights      *out,
                   GError        **error)
{
  return compute_cached (model, quant, TRUE, out, error);
}
