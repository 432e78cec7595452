/* hr-finetune.c — memory for QLoRA, LoRA and full fine-tuning
 *
 * Per-GPU memory = weights + gradients + optimizer states + activations + buffers.
 *
 * Model states follow the mixed-precision accounting of Rajbhandari et al. 2020, "ZeRO: Memory
 * Optimizations Toward Training Trillion Parameter Models" (arXiv:1910.02054, §3.1): for Ψ
 * trainable parameters, 2Ψ bytes of bf16 weights, 2Ψ of bf16 gradients and KΨ of optimizer
 * state, K = 12 for Adam (fp32 master copy, momentum and variance, 4 bytes each), i.e. 16 bytes
 * per parameter.  ZeRO stage 2 partitions gradients and optimizer states across the N
 * data-parallel GPUs; stage 3 (and FSDP full sharding) partitions the weights as well.  8-bit
 * AdamW keeps m and v in one byte each (Dettmers et al. 2022, "8-bit Optimizers via Block-wise
 * Quantization", arXiv:2110.02861) next to the fp32 master copy: 2 + 4 bytes; SGD with momentum
 * keeps the momentum and the master copy: 4 + 4 bytes.
 *
 * LoRA (Hu et al. 2021, arXiv:2106.09685) freezes the base weights (bf16, 2 bytes/param) and
 * trains rank-r adapters, r × (d_in + d_out) parameters per adapted matrix.  The adapters are kept
 * in fp32 and trained with fp32 gradients and AdamW: 4 + 4 + 8 = 16 bytes per adapter parameter.
 * QLoRA (Dettmers et al. 2023, arXiv:2305.14314, §3) stores the frozen linear weights as NF4 in
 * blocks of 64 with double quantization: 4 + 8/64 + 32/(64 · 256) = 4.127 bits per parameter;
 * bitsandbytes leaves the token embedding (not a Linear) and the output head in bf16.
 *
 * Activations follow Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models" (arXiv:2205.05198, §4): one transformer layer stores s·b·h·(34 + 5·a·s/h)
 * bytes in 16-bit training (s sequence, b micro-batch, h hidden, a heads); the output layer adds
 * 4·s·b·h·(1 + v/h) (final norm, projection input and fp32 logits for the loss, v vocabulary).
 * With full activation recomputation (gradient checkpointing) only each layer's input, 2·s·b·h
 * bytes, is kept, plus one layer's full activations while it is recomputed.  Fused attention
 * (Dao et al. 2022, "FlashAttention", arXiv:2205.14135; PyTorch SDPA, the default of current
 * training stacks) never materialises the a·s² score, softmax and dropout tensors, so the
 * 5·a·s term drops out; HrFtScenario.flash_attention (on by default) chooses.  Data
 * parallelism does not shard activations: each GPU runs its own micro-batch.
 */
#include "hr-finetune.h"
#include "hr-advice.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "hr-scenario.h"
#include "hr-text.h"
#include "hr-units.h"

#define FT_MAX_FIT_GPUS    8

#define NF4_DQ_BITS        (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0))  /* 4.127 */
#define BUFFERS_BYTES      (1.0 * HR_GIB)   /* CUDA context and temporaries */
#define MAX_LORA_RANK      8192

static const char * const method_names[] = { "qlora", "lora", "full" };
static const char * const optimizer_names[] = { "adamw", "adamw-8bit", "sgd" };
static const char * const sharding_names[] = { "none", "zero2", "zero3" };

static int
model_head_dim (const HrModel *model)
{
  if (model->head_dim > 0)
    return model->head_dim;
  if (model->n_heads > 0 && model->hidden > 0)
    return model->hidden / model->n_heads;
  return 0;
}

static double
embedding_params (const HrModel *model)
{
  return (double) model->vocab * model->hidden;
}

static double
output_params (const HrModel *model)
{
  return model->tie_embeddings ? 0.0 : (double) model->vocab * model->hidden;
}

/* Σ (d_in + d_out) of the attention projections LoRA adapts in one MLA layer
 * (DeepSeek-V2/V3, Kimi K2). q,v-only: the query path and kv_b (which produces V). */
static double
mla_layer_in_out (const HrModel *model,
                  gboolean       all_linear)
{
  double h = model->hidden;
  double a = model->n_heads;
  double qk = model->qk_nope_dim + model->qk_rope_dim;
  double v = model->v_head_dim > 0 ? model->v_head_dim : model_head_dim (model);
  double q, kv_a, kv_b, o;

  if (model->q_lora_rank > 0)
    q = (h + model->q_lora_rank) + (model->q_lora_rank + a * qk);  /* q_a_proj + q_b_proj */
  else
    q = h + a * qk;                                                 /* q_proj */
  kv_a = h + model->kv_lora_rank + model->qk_rope_dim;              /* kv_a_proj_with_mqa */
  kv_b = model->kv_lora_rank + a * (model->qk_nope_dim + v);        /* kv_b_proj */
  o = a * v + h;                                                    /* o_proj */

  return all_linear ? q + kv_a + kv_b + o : q + kv_b;
}

/* Σ (d_in + d_out) of the attention projections LoRA adapts, over all layers. */
static double
attention_in_out (const HrModel *model,
                  gboolean       all_linear)
{
  double h = model->hidden;
  double q_width = (double) model->n_heads * model_head_dim (model);
  double total = 0.0;
  int covered = 0;
  int fallback_kv = model->n_heads;

  if (model->kv_lora_rank > 0)
    return model->n_layers * mla_layer_in_out (model, all_linear);

  for (guint i = 0; model->layers != NULL && i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      double k_width, v_width;

      if (g->kind == HR_LAYER_RECURRENT || g->kind == HR_LAYER_MLA)
        {
          /* Linear-attention/SSM projections differ per family; counted as wide as full
           * attention (q,k,v,o all h → a·d), an approximation for hybrids. */
          k_width = q_width;
          v_width = q_width;
        }
      else
        {
          k_width = (double) g->kv_heads * g->k_dim;
          v_width = (double) g->kv_heads * (g->v_dim > 0 ? g->v_dim : g->k_dim);
          fallback_kv = g->kv_heads;
        }
      if (all_linear)
        total += g->count * ((h + q_width) + (h + k_width) + (h + v_width) + (q_width + h));
      else
        total += g->count * ((h + q_width) + (h + v_width));
      covered += g->count;
    }

  /* Layers the groups do not describe: full attention with the last known KV width. */
  if (covered < model->n_layers)
    {
      double kv_width = (double) fallback_kv * model_head_dim (model);
      int rest = model->n_layers - covered;

      if (all_linear)
        total += rest * ((h + q_width) + 2 * (h + kv_width) + (q_width + h));
      else
        total += rest * ((h + q_width) + (h + kv_width));
    }

  return total;
}

/* Σ (d_in + d_out) of gate, up and down over the FFNs LoRA adapts. */
static double
mlp_in_out (const HrModel *model,
            gboolean       include_experts)
{
  double h = model->hidden;
  double total = 0.0;
  int dense_layers, moe_layers;

  if (!hr_model_is_moe (model))
    return model->n_layers * 3.0 * (h + model->intermediate);

  dense_layers = CLAMP (model->n_dense_layers, 0, model->n_layers);
  moe_layers = model->n_layers - dense_layers;
  total += dense_layers * 3.0 * (h + model->intermediate);

  /* Shared experts run for every token and are one MLP module (DeepSeek, GLM, Qwen2-MoE):
   * shared_intermediate is its whole width; otherwise n_shared × moe_intermediate. */
  if (model->shared_intermediate > 0 || model->n_shared_experts > 0)
    {
      double width = model->shared_intermediate > 0
                     ? model->shared_intermediate
                     : (double) model->n_shared_experts * model->moe_intermediate;
      total += moe_layers * 3.0 * (h + width);
    }

  if (include_experts)
    total += moe_layers * (double) model->n_experts * 3.0 * (h + model->moe_intermediate);

  return total;
}

static gboolean
check_model (const HrModel *model,
             GError       **error)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  if (!isfinite (model->total_params) || model->total_params <= 0)
    g_string_append (missing, " total_params");
  if (model->n_layers <= 0)
    g_string_append (missing, " n_layers");
  if (model->hidden <= 0)
    g_string_append (missing, " hidden");
  if (model->n_heads <= 0)
    g_string_append (missing, " n_heads");
  if (model->vocab <= 0)
    g_string_append (missing, " vocab");

  if (missing->len > 0)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   _("Model “%s” lacks what fine-tuning memory needs:%s"),
                   model->name ? model->name : (model->id ? model->id : "?"), missing->str);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_scenario (const HrFtScenario *ft,
                GError            **error)
{
  const char *what = NULL;
  gint64 value = 0;

  if ((guint) ft->method > HR_FT_FULL)
    what = "method", value = ft->method;
  else if ((guint) ft->optimizer > HR_OPT_SGD)
    what = "optimizer", value = ft->optimizer;
  else if ((guint) ft->sharding > HR_SHARD_ZERO3)
    what = "sharding", value = ft->sharding;
  else if (ft->seq_len < 1 || ft->seq_len > HR_MAX_CONTEXT)
    what = "sequence length", value = ft->seq_len;
  else if (ft->micro_batch < 1 || ft->micro_batch > HR_MAX_BATCH)
    what = "micro-batch", value = ft->micro_batch;
  else if (ft->n_gpus < 1 || ft->n_gpus > HR_MAX_GPUS)
    what = "number of GPUs", value = ft->n_gpus;
  else if (ft->method != HR_FT_FULL && (ft->lora_rank < 1 || ft->lora_rank > MAX_LORA_RANK))
    what = "LoRA rank", value = ft->lora_rank;

  if (what != NULL)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   _("Invalid %s: %lld"), what, (long long) value);
      return FALSE;
    }
  return TRUE;
}

/* Bytes of optimizer state per trainable parameter.  @master: full fine-tuning keeps an fp32
 * master copy of bf16 weights; LoRA adapters already are fp32. */
static double
optimizer_bytes_per_param (HrOptimizer opt,
                           gboolean    master)
{
  double states;

  switch (opt)
    {
    case HR_OPT_ADAMW_8BIT:
      states = 2.0;   /* m, v: 1 byte each (block-wise quantized) */
      break;
    case HR_OPT_SGD:
      states = 4.0;   /* fp32 momentum */
      break;
    case HR_OPT_ADAMW:
    default:
      states = 8.0;   /* fp32 m, v */
      break;
    }
  return states + (master ? 4.0 : 0.0);
}

double
hr_finetune_lora_params (const HrModel *model,
                         int            rank,
                         gboolean       all_linear,
                         gboolean       include_experts)
{
  double in_out;

  g_return_val_if_fail (model != NULL, 0.0);

  if (rank <= 0 || model->hidden <= 0 || model->n_layers <= 0 || model->n_heads <= 0)
    return 0.0;

  in_out = attention_in_out (model, all_linear);
  if (all_linear)
    in_out += mlp_in_out (model, include_experts);

  return rank * in_out;
}

double
hr_finetune_activation_bytes (const HrModel *model,
                              int            seq_len,
                              int            micro_batch,
                              gboolean       grad_checkpointing,
                              gboolean       flash_attention)
{
  double s, b, h, a, L, v;
  double layer_per_token, per_token;

  g_return_val_if_fail (model != NULL, 0.0);

  if (seq_len <= 0 || micro_batch <= 0)
    return 0.0;

  s = seq_len;
  b = micro_batch;
  h = model->hidden;
  a = model->n_heads;
  L = model->n_layers;
  v = model->vocab;

  /* One layer, per token: 34·h (attention 11h, MLP 19h, norms 4h) + 5·a·s for the attention
   * scores, softmax and dropout mask, which fused (Flash) attention never materialises. */
  layer_per_token = 34.0 * h + (flash_attention ? 0.0 : 5.0 * a * s);

  if (grad_checkpointing)
    per_token = 2.0 * h * L + layer_per_token;
  else
    per_token = L * layer_per_token;

  /* Output layer: final norm and projection input (4h) and the fp32 logits (4v). */
  per_token += 4.0 * h + 4.0 * v;

  return s * b * per_token;
}

void
hr_ft_scenario_init (HrFtScenario  *ft,
                     const HrModel *model,
                     HrFtMethod     method)
{
  g_return_if_fail (ft != NULL);

  memset (ft, 0, sizeof *ft);
  ft->model = model;
  ft->method = method;
  ft->seq_len = 2048;
  ft->micro_batch = 1;
  ft->grad_checkpointing = TRUE;
  ft->optimizer = HR_OPT_ADAMW;
  ft->lora_rank = 16;
  ft->lora_all_linear = TRUE;
  ft->n_gpus = 1;
  ft->sharding = HR_SHARD_NONE;
  ft->flash_attention = TRUE;
}

/* Weights, gradients and optimizer states per GPU, and the trainable parameters they come
 * from.  ZeRO-2 partitions gradients and optimizer states; ZeRO-3/FSDP also the weights.
 * Without sharding every data-parallel replica holds everything. */
static void
training_state_bytes (const HrFtScenario *ft,
                      HrFtEstimate       *out)
{
  const HrModel *model = ft->model;
  double P = model->total_params;
  double shard_weights = ft->sharding == HR_SHARD_ZERO3 ? ft->n_gpus : 1.0;
  double shard_states = ft->sharding >= HR_SHARD_ZERO2 ? ft->n_gpus : 1.0;
  double embd_out, frozen;

  if (ft->method == HR_FT_FULL)
    {
      out->trainable_params = P;
      out->weights_bytes = 2.0 * P / shard_weights;
      out->gradients_bytes = 2.0 * P / shard_states;
      out->optimizer_bytes = optimizer_bytes_per_param (ft->optimizer, TRUE) * P / shard_states;
      return;
    }

  embd_out = embedding_params (model) + output_params (model);
  out->trainable_params = hr_finetune_lora_params (model, ft->lora_rank, ft->lora_all_linear, FALSE);
  if (ft->method == HR_FT_QLORA)
    frozen = MAX (P - embd_out, 0.0) * NF4_DQ_BITS / 8.0 + MIN (embd_out, P) * 2.0;
  else
    frozen = 2.0 * P;
  /* The fp32 adapters count as weights; they shard with the frozen ones under ZeRO-3. */
  out->weights_bytes = (frozen + 4.0 * out->trainable_params) / shard_weights;
  out->gradients_bytes = 4.0 * out->trainable_params / shard_states;
  out->optimizer_bytes = optimizer_bytes_per_param (ft->optimizer, FALSE) * out->trainable_params
                         / shard_states;
}

/* CUDA context and temporaries; ZeRO-3/FSDP also all-gathers one layer (one FSDP unit) at a
 * time for its forward and backward: that layer's 16-bit weights are whole on every GPU while
 * it runs. */
static double
buffer_bytes (const HrFtScenario *ft)
{
  const HrModel *model = ft->model;
  double layer_params, bytes_per;

  if (ft->sharding != HR_SHARD_ZERO3 || ft->n_gpus <= 1)
    return BUFFERS_BYTES;
  layer_params = MAX (model->total_params - embedding_params (model) - output_params (model), 0.0)
                 / model->n_layers;
  bytes_per = ft->method == HR_FT_QLORA ? NF4_DQ_BITS / 8.0 : 2.0;
  return BUFFERS_BYTES + layer_params * bytes_per;
}

gboolean
hr_finetune_compute (const HrFtScenario *ft,
                     HrFtEstimate       *out,
                     GError            **error)
{
  g_return_val_if_fail (ft != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (ft->model == NULL)
    {
      g_set_error_literal (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                           _("No model to fine-tune"));
      return FALSE;
    }
  if (!check_scenario (ft, error) || !check_model (ft->model, error))
    return FALSE;

  training_state_bytes (ft, out);
  out->activations_bytes = hr_finetune_activation_bytes (ft->model, ft->seq_len, ft->micro_batch,
                                                         ft->grad_checkpointing,
                                                         ft->flash_attention);
  out->buffers_bytes = buffer_bytes (ft);
  out->total_bytes = out->weights_bytes + out->gradients_bytes + out->optimizer_bytes
                     + out->activations_bytes + out->buffers_bytes;
  return TRUE;
}

double
hr_finetune_usable_bytes (const HrGpu *gpu,
                          double       reserve,
                          double       unified_share)
{
  double mem;

  g_return_val_if_fail (gpu != NULL, 0.0);

  if (!isfinite (gpu->memory_gib) || gpu->memory_gib <= 0)
    return 0.0;
  mem = gpu->memory_gib * HR_GIB;
  if (hr_gpu_is_unified (gpu))
    return mem * CLAMP (hr_gpu_unified_share (gpu, unified_share), 0.0, 1.0);
  if (!isfinite (reserve) || reserve < 0)
    reserve = HR_DEFAULT_RESERVE;
  return mem * (1.0 - CLAMP (reserve, 0.0, 1.0));
}

HrVerdict
hr_finetune_verdict (const HrFtEstimate *estimate,
                     const HrGpu        *gpu,
                     double              reserve,
                     double              unified_share)
{
  g_return_val_if_fail (estimate != NULL, HR_VERDICT_EXCEEDS);
  g_return_val_if_fail (gpu != NULL, HR_VERDICT_EXCEEDS);

  return hr_verdict_for (estimate->total_bytes, MAX (gpu->memory_gib, 0) * HR_GIB,
                         hr_finetune_usable_bytes (gpu, reserve, unified_share));
}

gboolean
hr_finetune_smallest_fit (const HrFtScenario *ft,
                          const HrCatalog    *catalog,
                          int                 max_gpus,
                          double              reserve,
                          double              unified_share,
                          HrFtFit            *out)
{
  g_autoptr(GArray) configs = NULL;
  HrFtEstimate one;

  g_return_val_if_fail (ft != NULL, FALSE);
  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  out->verdict = HR_VERDICT_EXCEEDS;
  max_gpus = CLAMP (max_gpus, 1, FT_MAX_FIT_GPUS);

  /* a run that cannot be computed has no answer; checked once, not per device */
  {
    HrFtScenario s = *ft;

    s.n_gpus = 1;
    if (!hr_finetune_compute (&s, &one, NULL))
      return FALSE;
  }

  configs = hr_advice_gpu_configs (catalog, max_gpus);

  for (guint i = 0; i < configs->len; i++)
    {
      const HrGpuConfig *cfg = &g_array_index (configs, HrGpuConfig, i);
      HrFtScenario s = *ft;
      HrFtEstimate e;
      HrVerdict v;

      s.n_gpus = cfg->count;
      if (cfg->count == 1)
        e = one;
      else
        {
          if (s.sharding == HR_SHARD_NONE)
            s.sharding = HR_SHARD_ZERO3;
          if (!hr_finetune_compute (&s, &e, NULL))
            continue;
        }
      v = hr_finetune_verdict (&e, cfg->gpu, reserve, unified_share);
      if (v == HR_VERDICT_EXCEEDS)
        continue;
      out->gpu = cfg->gpu;
      out->count = cfg->count;
      out->sharding = cfg->count > 1 ? s.sharding : ft->sharding;
      out->estimate = e;
      out->verdict = v;
      return TRUE;
    }
  return FALSE;
}

const char *
hr_finetune_formula_text (HrFtMethod method)
{
  switch (method)
    {
    case HR_FT_FULL:
      return _("Full fine-tuning, mixed precision (per GPU; P parameters, N GPUs):\n"
               "• weights = 2 B × P (bf16); ÷ N with ZeRO-3/FSDP\n"
               "• gradients = 2 B × P (bf16); ÷ N with ZeRO-2 or ZeRO-3\n"
               "• optimizer = AdamW 12 B × P (fp32 master 4 + m 4 + v 4); 8-bit AdamW 6 B "
               "(master 4 + m, v 1 + 1); SGD with momentum 8 B (master 4 + momentum 4); "
               "÷ N with ZeRO-2 or ZeRO-3\n"
               "• activations (s sequence, b micro-batch, h hidden, a heads, L layers, "
               "v vocabulary): with gradient checkpointing s·b·(2·h·L + 34·h + 5·a·s), "
               "without s·b·L·(34·h + 5·a·s); plus s·b·(4·h + 4·v) for the output layer; "
               "with flash attention (FlashAttention/SDPA) the 5·a·s attention-score term is "
               "never stored and drops out\n"
               "• buffers = 1 GiB (CUDA context, temporaries); ZeRO-3 adds one gathered "
               "layer of bf16 weights\n"
               "References: Rajbhandari et al. 2020, “ZeRO” (arXiv:1910.02054) §3.1; "
               "Korthikanti et al. 2022, “Reducing Activation Recomputation in Large "
               "Transformer Models” (arXiv:2205.05198) §4; Dettmers et al. 2022, “8-bit "
               "Optimizers via Block-wise Quantization” (arXiv:2110.02861).");
    case HR_FT_LORA:
      return _("LoRA, 16-bit (per GPU; P parameters, A adapter parameters, N GPUs):\n"
               "• weights = 2 B × P frozen (bf16) + 4 B × A (fp32 adapters); ÷ N with "
               "ZeRO-3/FSDP\n"
               "• A = r × (d_in + d_out) per adapted matrix per layer: q, k, v, o, gate, up, "
               "down (all linear; MLA: q_a, q_b, kv_a, kv_b, o) or q and v only; dense FFNs "
               "and shared experts are adapted, routed MoE experts and the router stay "
               "frozen\n"
               "• gradients = 4 B × A; optimizer = AdamW 8 B × A (m, v), 8-bit AdamW 2 B × A, "
               "SGD with momentum 4 B × A; ÷ N with ZeRO-2 or ZeRO-3\n"
               "• activations: as for full fine-tuning (the backward pass still runs through "
               "every layer): with gradient checkpointing s·b·(2·h·L + 34·h + 5·a·s), without "
               "s·b·L·(34·h + 5·a·s); plus s·b·(4·h + 4·v); flash attention drops the 5·a·s "
               "term\n"
               "• buffers = 1 GiB (CUDA context, temporaries)\n"
               "References: Hu et al. 2021, “LoRA” (arXiv:2106.09685); Korthikanti et al. "
               "2022 (arXiv:2205.05198) §4.");
    case HR_FT_QLORA:
    default:
      return _("QLoRA, 4-bit (per GPU; P parameters, E embedding + output-head parameters, "
               "A adapter parameters, N GPUs):\n"
               "• weights = (P − E) × 4.127 bits (NF4, blocks of 64, double quantization: "
               "4 + 8/64 + 32/(64·256) bits) + 2 B × E (bf16) + 4 B × A (fp32 adapters); ÷ N "
               "with ZeRO-3/FSDP\n"
               "• A = r × (d_in + d_out) per adapted matrix per layer: q, k, v, o, gate, up, "
               "down (all linear) or q and v only; routed MoE experts and the router stay "
               "frozen\n"
               "• gradients = 4 B × A; optimizer = AdamW 8 B × A, 8-bit AdamW 2 B × A, SGD "
               "with momentum 4 B × A\n"
               "• activations: with gradient checkpointing s·b·(2·h·L + 34·h + 5·a·s), without "
               "s·b·L·(34·h + 5·a·s); plus s·b·(4·h + 4·v); flash attention drops the 5·a·s "
               "term\n"
               "• buffers = 1 GiB (CUDA context, temporaries)\n"
               "References: Dettmers et al. 2023, “QLoRA” (arXiv:2305.14314) §3; Hu et al. "
               "2021, “LoRA” (arXiv:2106.09685); Korthikanti et al. 2022 (arXiv:2205.05198) "
               "§4.");
    }
}

const char *
hr_ft_method_to_string (HrFtMethod method)
{
  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (method_names), NULL);
  return method_names[method];
}

gboolean
hr_ft_method_from_string (const char *str,
                          HrFtMethod *method)
{
  int i = hr_text_find_name (method_names, G_N_ELEMENTS (method_names), str);

  g_return_val_if_fail (method != NULL, FALSE);

  if (i >= 0)
    *method = (HrFtMethod) i;
  return i >= 0;
}

/* The names the training libraries use for an optimizer or a sharding strategy. */
typedef struct
{
  const char *name;
  int value;
} Alias;

static gboolean
find_alias (const Alias *aliases,
            gsize        n_aliases,
            const char  *str,
            int         *value)
{
  if (str == NULL)
    return FALSE;
  for (gsize i = 0; i < n_aliases; i++)
    if (g_ascii_strcasecmp (str, aliases[i].name) == 0)
      {
        *value = aliases[i].value;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_optimizer_to_string (HrOptimizer opt)
{
  g_return_val_if_fail ((guint) opt < G_N_ELEMENTS (optimizer_names), NULL);
  return optimizer_names[opt];
}

gboolean
hr_optimizer_from_string (const char  *str,
                          HrOptimizer *opt)
{
  static const Alias aliases[] = {
    { "adamw", HR_OPT_ADAMW },
    { "adam", HR_OPT_ADAMW },
    { "adamw-8bit", HR_OPT_ADAMW_8BIT },
    { "adamw_8bit", HR_OPT_ADAMW_8BIT },
    { "adamw8bit", HR_OPT_ADAMW_8BIT },
    { "paged_adamw_8bit", HR_OPT_ADAMW_8BIT },
    { "sgd", HR_OPT_SGD },
  };
  int value;

  g_return_val_if_fail (opt != NULL, FALSE);

  if (!find_alias (aliases, G_N_ELEMENTS (aliases), str, &value))
    return FALSE;
  *opt = (HrOptimizer) value;
  return TRUE;
}

const char *
hr_sharding_to_string (HrSharding sharding)
{
  g_return_val_if_fail ((guint) sharding < G_N_ELEMENTS (sharding_names), NULL);
  return sharding_names[sharding];
}

gboolean
hr_sharding_from_string (const char *str,
                         HrSharding *sharding)
{
  static const Alias aliases[] = {
    { "none", HR_SHARD_NONE },
    { "ddp", HR_SHARD_NONE },
    { "zero2", HR_SHARD_ZERO2 },
    { "zero-2", HR_SHARD_ZERO2 },
    { "zero3", HR_SHARD_ZERO3 },
    { "zero-3", HR_SHARD_ZERO3 },
    { "fsdp", HR_SHARD_ZERO3 },
  };
  int value;

  g_return_val_if_fail (sharding != NULL, FALSE);

  if (!find_alias (aliases, G_N_ELEMENTS (aliases), str, &value))
    return FALSE;
  *sharding = (HrSharding) value;
  return TRUE;
}
