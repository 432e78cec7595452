/* hr-weights.c — bytes of a model's weights at one quantization
 *
 * Preference order: exact tensor bytes from a GGUF header, a measured file of that quant, the
 * official checkpoint (native dtype: 2 bytes per parameter for BF16), and last a per-tensor
 * derivation that applies llama-quantize's rules (hr_quant_tensor_type) to the tensors the
 * architecture implies.
 */
#include <gio/gio.h>

#include "hr-estimate.h"
#include "hr-quant.h"

#include <math.h>
#include <string.h>

typedef enum
{
  FMT_GGUF,     /* a llama-quantize mix */
  FMT_BF16,     /* 16-bit checkpoint */
  FMT_FP8,      /* FP8 block-quantized linear weights, 16-bit embeddings */
  FMT_MXFP4,    /* MXFP4 experts (gpt-oss), 16-bit everything else */
  FMT_INT4,     /* AWQ/GPTQ: 4-bit weights, fp16 scale + 4-bit zero per group of 128 */
  FMT_NVFP4,    /* NVFP4: 4-bit, fp8 scale per 16 and a global scale */
} Format;

typedef struct
{
  const char *mix;
  Format format;
  int n_layers;
  int n_experts;
  int n_gqa;
  /* running counters, as llama-quantize keeps them */
  int i_attn_v, n_attn_v;
  int i_ffn_down, n_ffn_down;
  /* results */
  double bytes, params, expert_bytes, embd_bytes, output_bytes, shexp_bytes;
} Acc;

static double
bytes_for_format (Acc          *acc,
                  HrTensorKind  kind,
                  int           layer,
                  double        n,
                  gint64        row_len)
{
  gboolean linear = kind != HR_TENSOR_NORM && kind != HR_TENSOR_FFN_GATE_INP &&
                    kind != HR_TENSOR_TOKEN_EMBD && kind != HR_TENSOR_OUTPUT;
  gboolean expert = kind == HR_TENSOR_FFN_GATE_EXPS || kind == HR_TENSOR_FFN_UP_EXPS ||
                    kind == HR_TENSOR_FFN_DOWN_EXPS;

  switch (acc->format)
    {
    case FMT_BF16:
      return n * 2;
    case FMT_FP8:
      /* 1 byte per weight plus one fp32 scale per 128×128 block (DeepSeek-V3 style). */
      return linear ? n * (1.0 + 4.0 / 16384.0) : n * 2;
    case FMT_MXFP4:
      return expert ? n * 17.0 / 32.0 : n * 2;
    case FMT_INT4:
      return linear ? n * (0.5 + (2.0 + 0.5) / 128.0) : n * 2;
    case FMT_NVFP4:
      return linear ? n * (0.5 + 1.0 / 16.0) : n * 2;
    case FMT_GGUF:
    default:
      {
        const HrGgmlType *t = hr_quant_tensor_type (acc->mix, kind, layer, acc->n_layers,
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
     double        n_elements,
     gint64        row_len)
{
  double b;

  if (n_elements <= 0)
    return;
  b = bytes_for_format (acc, kind, layer, n_elements, row_len);
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

static int
ffn_down_index (Acc *acc,
                int  block)
{
  /* Dense models: llama-quantize counts ffn_down tensors in order.  MoE models: it parses the
   * block number from the tensor name (layer_info()), while n stays the tensor count. */
  int i = acc->n_experts > 1 ? block : acc->i_ffn_down;
  acc->i_ffn_down++;
  return i;
}

static void
add_ffn_down (Acc          *acc,
              HrTensorKind  kind,
              int           block,
              double        n,
              gint64        row_len)
{
  int i = ffn_down_index (acc, block);
  int saved = acc->n_layers;

  acc->n_layers = acc->n_ffn_down;
  add (acc, kind, i, n, row_len);
  acc->n_layers = saved;
}

static void
add_attention (Acc                *acc,
               const HrModel      *m,
               const HrLayerGroup *g)
{
  double h = m->hidden;

  if (g->kind == HR_LAYER_MLA)
    {
      int nope = m->qk_nope_dim > 0 ? m->qk_nope_dim : 128;
      int rope = m->qk_rope_dim > 0 ? m->qk_rope_dim : 64;
      int vdim = m->v_head_dim > 0 ? m->v_head_dim : 128;
      double qk = (double) m->n_heads * (nope + rope);

      if (m->q_lora_rank > 0)
        {
          add (acc, HR_TENSOR_ATTN_Q_A, 0, h * m->q_lora_rank, (gint64) h);
          add (acc, HR_TENSOR_NORM, 0, m->q_lora_rank, 0);
          add (acc, HR_TENSOR_ATTN_Q_B, 0, (double) m->q_lora_rank * qk, m->q_lora_rank);
        }
      else
        add (acc, HR_TENSOR_ATTN_Q, 0, h * qk, (gint64) h);
      add (acc, HR_TENSOR_ATTN_KV_A, 0, h * (m->kv_lora_rank + rope), (gint64) h);
      add (acc, HR_TENSOR_NORM, 0, m->kv_lora_rank, 0);
      add (acc, HR_TENSOR_ATTN_KV_B, acc->i_attn_v, (double) m->kv_lora_rank * m->n_heads * (nope + vdim),
           m->kv_lora_rank);
      add (acc, HR_TENSOR_ATTN_OUTPUT, 0, (double) m->n_heads * vdim * h, (gint64) m->n_heads * vdim);
      return;
    }
  else
    {
      int qdim = g->k_dim > 0 ? g->k_dim : m->head_dim;
      int vdim = g->v_dim > 0 ? g->v_dim : g->k_dim;
      double q = (double) m->n_heads * qdim;

      add (acc, HR_TENSOR_ATTN_Q, 0, h * q, (gint64) h);
      add (acc, HR_TENSOR_ATTN_K, 0, h * g->kv_heads * g->k_dim, (gint64) h);
      if (g->v_dim > 0)
        {
          int saved = acc->n_layers;
          acc->n_layers = acc->n_attn_v;
          add (acc, HR_TENSOR_ATTN_V, acc->i_attn_v, h * g->kv_heads * g->v_dim, (gint64) h);
          acc->n_layers = saved;
          acc->i_attn_v++;
        }
      add (acc, HR_TENSOR_ATTN_OUTPUT, 0, (double) m->n_heads * vdim * h, (gint64) ((double) m->n_heads * vdim));
      add (acc, HR_TENSOR_NORM, 0, 2 * h, 0);
    }
}

static void
add_ffn (Acc           *acc,
         const HrModel *m,
         int            block)
{
  double h = m->hidden;
  gboolean moe_layer = hr_model_is_moe (m) && block >= m->n_dense_layers;

  add (acc, HR_TENSOR_NORM, 0, h, 0);
  if (!moe_layer)
    {
      int ff = m->intermediate > 0 ? m->intermediate : m->moe_intermediate;
      add (acc, HR_TENSOR_FFN_GATE, block, h * ff, (gint64) h);
      add (acc, HR_TENSOR_FFN_UP, block, h * ff, (gint64) h);
      add_ffn_down (acc, HR_TENSOR_FFN_DOWN, block, h * ff, ff);
      return;
    }
  else
    {
      double e = m->n_experts;
      int ff = m->moe_intermediate > 0 ? m->moe_intermediate : m->intermediate;
      int sh = m->shared_intermediate > 0 ? m->shared_intermediate
               : m->n_shared_experts * ff;
      double before;

      add (acc, HR_TENSOR_FFN_GATE_INP, block, h * e, (gint64) h);
      add (acc, HR_TENSOR_FFN_GATE_EXPS, block, e * h * ff, (gint64) h);
      add_ffn_down (acc, HR_TENSOR_FFN_DOWN_EXPS, block, e * h * ff, ff);
      add (acc, HR_TENSOR_FFN_UP_EXPS, block, e * h * ff, (gint64) h);
      if (sh > 0)
        {
          before = acc->bytes;
          add (acc, HR_TENSOR_FFN_GATE_SHEXP, block, h * sh, (gint64) h);
          add_ffn_down (acc, HR_TENSOR_FFN_DOWN_SHEXP, block, h * sh, sh);
          add (acc, HR_TENSOR_FFN_UP_SHEXP, block, h * sh, (gint64) h);
          acc->shexp_bytes += acc->bytes - before;
        }
    }
}

static Format
format_for (const char *quant)
{
  if (g_ascii_strcasecmp (quant, "BF16") == 0 || g_ascii_strcasecmp (quant, "F16") == 0 ||
      g_ascii_strcasecmp (quant, "FP16") == 0 || g_ascii_strcasecmp (quant, "native") == 0)
    return FMT_BF16;
  if (g_ascii_strcasecmp (quant, "FP8") == 0)
    return FMT_FP8;
  if (g_ascii_strcasecmp (quant, "MXFP4") == 0)
    return FMT_MXFP4;
  if (g_ascii_strncasecmp (quant, "AWQ", 3) == 0 || g_ascii_strncasecmp (quant, "GPTQ", 4) == 0 ||
      g_ascii_strcasecmp (quant, "INT4") == 0)
    return FMT_INT4;
  if (g_ascii_strcasecmp (quant, "NVFP4") == 0)
    return FMT_NVFP4;
  return FMT_GGUF;
}

/* Unsloth dynamic mixes (UD-Q2_K_XL, UD-Q4_K_XL…) keep attention, shared experts and the dense
 * layers at higher precision than the routed experts.  Their exact per-tensor recipe is not
 * published, so they are derived as: routed experts at the named mix, everything else one
 * step up (Q2→Q4_K_M-like, Q3→Q5_K_M-like, Q4→Q6_K-like). */
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
derive (const HrModel *m,
        const char    *mix,
        Format         format,
        Acc           *acc)
{
  int n_attn_layers = 0;

  memset (acc, 0, sizeof *acc);
  acc->mix = mix;
  acc->format = format;
  acc->n_layers = m->n_layers;
  acc->n_experts = m->n_experts;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      if (g->kind != HR_LAYER_RECURRENT)
        {
          n_attn_layers += g->count;
          if (g->kind != HR_LAYER_MLA && g->v_dim > 0)
            acc->n_attn_v += g->count;
          if (acc->n_gqa == 0 && g->kv_heads > 0 && m->n_heads > 0)
            acc->n_gqa = m->n_heads / g->kv_heads;
        }
    }
  acc->n_ffn_down = m->n_layers;
  if (hr_model_is_moe (m))
    {
      int moe_layers = MAX (m->n_layers - m->n_dense_layers, 0);
      gboolean shared = m->shared_intermediate > 0 || m->n_shared_experts > 0;
      acc->n_ffn_down = m->n_dense_layers + moe_layers * (shared ? 2 : 1);
    }

  add (acc, HR_TENSOR_TOKEN_EMBD, 0, (double) m->vocab * m->hidden, m->hidden);
  /* With tied embeddings llama-quantize applies the output rules to token_embd. */
  if (!m->tie_embeddings)
    add (acc, HR_TENSOR_OUTPUT, 0, (double) m->vocab * m->hidden, m->hidden);
  add (acc, HR_TENSOR_NORM, 0, m->hidden, 0);

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_RECURRENT)
        continue;
      for (int l = 0; l < g->count; l++)
        add_attention (acc, m, g);
    }
  for (int b = 0; b < m->n_layers; b++)
    add_ffn (acc, m, b);
}

gboolean
hr_weights_compute (const HrModel  *model,
                    const char     *quant,
                    HrWeights      *out,
                    GError        **error)
{
  Format format;
  const char *ud_other = NULL;
  const char *ud_mix;
  const HrQuantSize *measured;
  Acc acc;
  double residual = 0, scale;
  double k_frac;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (quant == NULL || *quant == '\0')
    quant = model->gguf_quant ? model->gguf_quant : "Q4_K_M";

  format = format_for (quant);
  ud_mix = ud_base_mix (quant, &ud_other);
  if (format == FMT_GGUF && ud_mix == NULL &&
      hr_quant_tensor_type (quant, HR_TENSOR_FFN_UP, 0, 1, 0, 1, 4096) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "unknown quantization “%s”", quant);
      return FALSE;
    }

  if (ud_mix != NULL)
    {
      Acc other;
      derive (model, ud_mix, FMT_GGUF, &acc);
      derive (model, ud_other, FMT_GGUF, &other);
      /* experts from the low mix, all the rest from the higher one */
      acc.bytes = acc.expert_bytes + (other.bytes - other.expert_bytes);
      acc.embd_bytes = other.embd_bytes;
      acc.output_bytes = other.output_bytes;
      acc.shexp_bytes = other.shexp_bytes;
      if (!hr_model_is_moe (model))
        acc = other;
    }
  else
    derive (model, quant, format, &acc);

  /* Parameters the architecture does not show (MTP layers, vision towers, recurrent-layer
   * projections) still ship in the file: count them at the mix's typical width. */
  if (isfinite (model->total_params) && model->total_params > acc.params && acc.params > 0)
    {
      residual = model->total_params - acc.params;
      acc.bytes += residual * (acc.bytes - acc.embd_bytes - acc.output_bytes) /
                   MAX (acc.params - (double) model->vocab * model->hidden *
                        (model->tie_embeddings ? 1 : 2), 1);
    }

  out->bytes = acc.bytes;
  out->expert_bytes = acc.expert_bytes;
  out->embd_bytes = acc.embd_bytes;
  out->output_bytes = model->tie_embeddings ? acc.embd_bytes : acc.output_bytes;
  out->source = HR_WEIGHTS_DERIVED;
  out->source_detail = NULL;

  /* 16-bit: the official checkpoint is exactly 2 bytes per parameter. */
  if (format == FMT_BF16 && isfinite (model->total_params))
    {
      scale = model->total_params * 2 / MAX (out->bytes, 1);
      out->bytes = model->total_params * 2;
      out->expert_bytes *= scale;
      out->embd_bytes *= scale;
      out->output_bytes *= scale;
      out->source = HR_WEIGHTS_CHECKPOINT;
    }

  if (model->origin == HR_MODEL_ORIGIN_GGUF && model->gguf_bytes > 0 &&
      (model->gguf_quant == NULL || g_ascii_strcasecmp (model->gguf_quant, quant) == 0))
    {
      scale = (double) model->gguf_bytes / MAX (out->bytes, 1);
      out->bytes = (double) model->gguf_bytes;
      out->expert_bytes = (double) model->gguf_expert_bytes;
      out->embd_bytes *= scale;
      out->output_bytes *= scale;
      out->source = HR_WEIGHTS_GGUF;
    }
  else if ((measured = hr_model_find_size (model, quant)) != NULL && measured->bytes > 0)
    {
      scale = (double) measured->bytes / MAX (out->bytes, 1);
      out->bytes = (double) measured->bytes;
      out->expert_bytes *= scale;
      out->embd_bytes *= scale;
      out->output_bytes *= scale;
      out->source = format == FMT_GGUF ? HR_WEIGHTS_MEASURED : HR_WEIGHTS_CHECKPOINT;
      out->source_detail = measured->source;
    }

  /* Read per token: everything but the embedding table (one row is looked up) and the
   * experts not chosen. */
  k_frac = hr_model_is_moe (model) ? (double) model->n_experts_used / model->n_experts : 1.0;
  out->active_bytes = out->bytes - out->embd_bytes - out->expert_bytes * (1.0 - k_frac);
  if (model->tie_embeddings)
    out->active_bytes += out->embd_bytes; /* the tied table is the output head too */
  if (residual > 0 && hr_model_state_bytes (model) <= 0)
    {
      /* residual tensors of non-hybrid models are mostly MTP/vision: not read when decoding */
      double res_bytes = residual * (acc.bytes - acc.embd_bytes - acc.output_bytes) /
                         MAX (acc.params, 1);
      out->active_bytes -= MIN (res_bytes * (out->bytes / MAX (acc.bytes, 1)), out->active_bytes * 0.5);
    }
  out->layer_bytes = (out->bytes - out->embd_bytes - (model->tie_embeddings ? 0 : out->output_bytes)) /
                     MAX (model->n_layers, 1);
  return TRUE;
}
