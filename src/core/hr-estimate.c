/* hr-estimate.c — the sizing model (SPEC §2): memory, verdict, speed and cost of a scenario */
#include "hr-estimate.h"
#include "hr-calibration.h"
#include "hr-estimate-cpu.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define LLAMA_CTX_PAD      256    /* llama.cpp pads n_ctx (and the KV cache) to 256 */
#define VLLM_BLOCK         16     /* vLLM/SGLang page size in tokens */
#define VLLM_BATCHED_TOKENS 8192  /* vLLM's default max_num_batched_tokens for the profile run */
#define VLLM_BATCHED_TOKENS_SMALL 2048 /* the same below 70 GiB and on A100 */
#define VLLM_SEQS_CURRENT  1024   /* vLLM ≥ 0.10 default --max-num-seqs (OpenAI server) */
#define VLLM_SEQS_SMALL    256    /* the same below 70 GiB and on A100 */
#define VLLM_SEQS_2024     256    /* vLLM 0.5–0.7 default --max-num-seqs */
#define VLLM_LARGE_GIB     70.0   /* vLLM's threshold for its larger scheduler defaults */
#define PCIE_GBS           25.0   /* host→device copies of offloaded weights during prefill */
#define CPU_BW_EFF         0.60   /* fraction of DRAM bandwidth a CPU decode reaches */
#define LLAMA_COMPUTE_SLACK (1.0 * 1024 * 1024) /* ggml-alloc alignment and small tensors */
#define LLAMA_N_BATCH      2048   /* llama.cpp's logical batch (-b): ubatches pipelined across
                                   * devices in a layer split */

static gint64
pad_up (gint64 value,
        gint64 to)
{
  return (value + to - 1) / to * to;
}

/* KV cache and recurrent state for all sequences, the way the engine allocates it. */
static double
engine_kv_bytes (const HrScenario *s,
                 gint64            context,
                 HrKvType          kv_type,
                 double           *per_token_out)
{
  const HrModel *m = s->model;
  double bpe = hr_kv_type_bytes_per_elem (kv_type);
  double total = 0, per_token = 0;
  gint64 batch = s->batch;
  gint64 n_ctx, tokens_full, tokens_swa;

  if (hr_engine_is_llama_like (s->engine) && batch > 1)
    {
      /* llama-server with --parallel N: one cache stream per slot of ctx-size / N cells
       * (padded), and each stream's sliding-window cache keeps window + one ubatch
       * (llama_kv_cache_iswa), so the SWA part grows with the slots. */
      n_ctx = pad_up (context, LLAMA_CTX_PAD) * batch;
      tokens_full = n_ctx;
    }
  else if (hr_engine_is_llama_like (s->engine))
    {
      n_ctx = pad_up (context, LLAMA_CTX_PAD);
      tokens_full = n_ctx;
    }
  else if (hr_engine_is_server_like (s->engine))
    {
      n_ctx = pad_up (context, VLLM_BLOCK) * batch;
      tokens_full = n_ctx;
    }
  else
    {
      n_ctx = context * batch;
      tokens_full = n_ctx;
    }

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double per_tok = (double) g->count * MAX (g->kv_heads, 1) * (g->k_dim + g->v_dim) * bpe;

      switch (g->kind)
        {
        case HR_LAYER_FULL:
        case HR_LAYER_MLA:
          total += per_tok * (double) tokens_full;
          per_token += per_tok;
          break;
        case HR_LAYER_SLIDING:
        case HR_LAYER_CHUNKED:
          if (hr_engine_is_llama_like (s->engine))
            tokens_swa = MIN (n_ctx / batch, pad_up ((gint64) g->window + s->ubatch, LLAMA_CTX_PAD)) *
                         batch;
          else if (hr_engine_is_server_like (s->engine))
            tokens_swa = MIN (pad_up (context, VLLM_BLOCK),
                              pad_up (g->window, VLLM_BLOCK) + VLLM_BLOCK) * batch;
          else
            tokens_swa = MIN (context, (gint64) g->window) * batch;
          total += per_tok * (double) tokens_swa;
          break;
        case HR_LAYER_RECURRENT:
          /* llama.cpp keeps the convolution state in F32 (its r_l tensors), twice the 16-bit
           * figure the catalog counts */
          total += g->count * (g->state_bytes + (hr_engine_is_llama_like (s->engine) ? g->conv_bytes : 0)) *
                   (double) batch;
          break;
        default:
          break;
        }
    }
  if (per_token_out)
    *per_token_out = per_token;
  return total;
}

/* KV bytes one decoded token reads at depth @depth (one sequence). */
static double
kv_read_bytes (const HrModel *m,
               gint64         depth,
               double         bpe)
{
  /* includes the recurrent state, which is read and written every token */
  return hr_model_kv_bytes (m, MAX (depth, 1), bpe);
}

/* One decode step's parts: bytes read on the device and in system RAM at their rates, the
 * fixed launch cost and the compute roof. */
typedef struct
{
  double w_gpu, w_cpu;      /* weight bytes read per step */
  double cpu_layers_frac;   /* the part of the KV cache in system RAM */
  double par;               /* devices reading in parallel */
  double w_rate, kv_rate, cpu_rate; /* bytes/s */
  double t_fixed, t_compute;
  double t_mem;             /* out: the device's memory time of the last step */
} DecodeStep;

/* Seconds per decode step when @kv_read bytes of KV cache are read. */
static double
decode_step (DecodeStep *d,
             double      kv_read)
{
  double kv_gpu = kv_read * (1 - d->cpu_layers_frac);
  double kv_cpu = kv_read * d->cpu_layers_frac;
  double t_cpu = (d->w_cpu + kv_cpu) / d->cpu_rate;

  d->t_mem = (d->w_gpu / d->w_rate + kv_gpu / d->kv_rate) / d->par;
  return MAX (d->t_mem, d->t_compute) + t_cpu + d->t_fixed;
}

/* The largest single weight matrix, in elements (the FFN projection, or one expert's). */
static double
largest_matrix (const HrModel *m)
{
  double ff = MAX ((double) m->intermediate, (double) m->moe_intermediate);
  double attn = (double) m->n_heads * MAX (m->head_dim, 1);

  return (double) m->hidden * MAX (ff, attn);
}

/* ---- vLLM / SGLang: the memory outside weights and KV, per GPU, as the engine measures it
 * when it sizes its KV pool (gpu_worker.determine_available_memory):
 *   pool = total the driver exposes × gpu_memory_utilization − weights − activation peak of
 *          the profile run − non-torch memory − CUDA graphs (current versions)
 * The 2024 versions (0.5–0.7, V0) profiled max(max_model_len, 2048) tokens at once and left
 * CUDA graphs to the (1 − utilization) margin. */

static double driver_memory_bytes (const HrGpu *gpu);

/* vLLM's larger scheduler defaults (1024 sequences, 8192 batched tokens for the OpenAI server)
 * apply to devices showing at least 70 GiB that are not an A100; the rest get 256 and 2048
 * (EngineArgs defaults, asserted by vLLM's tests/engine/test_arg_utils.py
 * test_defaults_with_usage_context). */
static gboolean
vllm_large_defaults (const HrScenario *s)
{
  const HrGpu *g = s->gpu;

  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return FALSE;
  if ((g->name != NULL && strstr (g->name, "A100") != NULL) ||
      (g->id != NULL && strstr (g->id, "a100") != NULL))
    return FALSE;
  return driver_memory_bytes (g) >= VLLM_LARGE_GIB * HR_GIB;
}

/* SGLang's --mem-fraction-static when the user sets none (ServerArgs._handle_gpu_memory_settings,
 * sglang main since PR #10975, 2025): the GPU's memory in MiB (nvidia-smi's total, the
 * datasheet figure here) less a reserve for activations of a chunked prefill
 * (1.5 MiB × max(chunk, 2048)), CUDA graphs (2 MiB per graph batch), 512 MiB of metadata and
 * 128 MiB per tensor-parallel rank, at least 10 GiB on cards above 60 GiB.  The chunk and the
 * graph batch follow from the memory and TP degree. */
static double
sglang_default_fraction (const HrScenario *s)
{
  double mib = s->gpu->memory_gib * 1024;
  int tp = MAX (s->n_gpus, 1);
  double chunk, graph_bs, reserved;

  if (mib < 20 * 1024)
    chunk = 2048, graph_bs = 8;
  else if (mib < 35 * 1024)
    chunk = 2048, graph_bs = tp < 4 ? 24 : 80;
  else if (mib < 60 * 1024)
    chunk = 4096, graph_bs = tp < 4 ? 32 : 160;
  else if (mib < 160 * 1024)
    chunk = 8192, graph_bs = tp < 4 ? 256 : 512;
  else
    chunk = 16384, graph_bs = 512;
  reserved = 512 + MAX (chunk, 2048) * 1.5 + graph_bs * 2 + tp / 8.0 * 1024;
  if (mib > 60 * 1024)
    reserved = MAX (reserved, 10 * 1024);
  return round ((mib - reserved) / mib * 1000) / 1000;
}

double
hr_estimate_mem_fraction (const HrScenario *s)
{
  if (s->gpu_mem_util > 0)
    return s->gpu_mem_util;
  if (s->engine == HR_ENGINE_SGLANG && s->engine_version == HR_ENGINE_VERSION_CURRENT &&
      s->gpu != NULL && s->gpu->memory_gib > 0)
    return sglang_default_fraction (s);
  return HR_DEFAULT_GPU_MEM_UTIL;
}

gboolean
hr_estimate_serving_applies (const HrScenario *s)
{
  /* vLLM and SGLang have no Metal backend: there is no KV pool to size on an Apple GPU */
  return hr_engine_is_server_like (s->engine) && hr_scenario_backend (s) != HR_BACKEND_METAL;
}

int
hr_estimate_max_num_seqs (const HrScenario *s)
{
  if (s->max_num_seqs > 0)
    return s->max_num_seqs;
  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return VLLM_SEQS_2024;
  return vllm_large_defaults (s) ? VLLM_SEQS_CURRENT : VLLM_SEQS_SMALL;
}

/* The profile run: one layer's activations for the batched tokens (gate, up and activated
 * MLP intermediates in 16 bits, sharded by tensor parallelism, and three hidden-state
 * copies: 110.6 KB per token for Llama 3.1 8B, as vLLM 0.6 logged 2.07 GiB at 20,000 and
 * 2.99 GiB at 29,000 tokens, vllm-project/vllm#10517) and, in current versions, the sampler's
 * dummy run over max_num_seqs rows of logits on every rank: float32 logits and their copy,
 * the top-k/top-p sort (values and int64 indices) and the probabilities, about 24 bytes ×
 * sequences × vocabulary (the 16 B left two current logs 1.5 GiB short). */
static double
server_activation_peak (const HrScenario *s)
{
  const HrModel *m = s->model;
  double vocab = m->vocab > 0 ? m->vocab : 32000;
  double ff = hr_model_is_moe (m) ? MAX ((double) m->moe_intermediate * m->n_experts_used,
                                         (double) m->intermediate)
                                  : (double) m->intermediate;
  double tokens, sampler;

  if (s->engine_version == HR_ENGINE_VERSION_2024)
    {
      tokens = MAX ((double) MIN (s->context, (gint64) 32768), 2048);
      sampler = 0;
    }
  else
    {
      tokens = vllm_large_defaults (s) ? VLLM_BATCHED_TOKENS : VLLM_BATCHED_TOKENS_SMALL;
      sampler = 24.0 * hr_estimate_max_num_seqs (s) * vocab;
    }
  return tokens * (3.0 * ff * 2 / s->n_gpus + 3.0 * m->hidden * 2) + sampler;
}

/* CUDA graphs captured for the decode batch sizes: 0.6–1.8 GiB in current logs, growing with
 * the layers captured; counted against the pool since vLLM profiles them (current only). */
static double
server_cuda_graphs (const HrScenario *s)
{
  if (s->engine_version == HR_ENGINE_VERSION_2024 || s->enforce_eager)
    return 0;
  return (0.4 + 0.015 * s->model->n_layers) * HR_GIB;
}

/* Memory torch does not see: cuBLAS and CUDA workspaces (0.25–0.43 GiB in vLLM 0.6–0.8
 * logs on RTX 3090/4090 and A100), and under tensor parallelism on NVLink parts NCCL and the
 * custom all-reduce buffers (about 2.1 GiB per GPU; 3.58 GiB on 2× H100 in
 * vllm-project/vllm#10511).  PCIe consumer cards run without the custom all-reduce. */
static double
server_non_torch (const HrScenario *s)
{
  if (s->n_gpus > 1 && s->gpu->form == HR_FORM_DATACENTER)
    return 2.1 * HR_GIB;
  return 0.35 * HR_GIB;
}

/* What the driver reports as total memory: CUDA shows an "80 GB" H100 as 79.19 GiB and a
 * "24 GB" RTX 3090 as 23.58 GiB (vLLM logs); unified memory is shared as a whole. */
static double
driver_memory_bytes (const HrGpu *gpu)
{
  double ratio = gpu->form == HR_FORM_DATACENTER ? 79.19 / 80.0
                 : gpu->form == HR_FORM_UNIFIED ? 1.0 : 23.58 / 24.0;

  return gpu->memory_gib * HR_GIB * ratio;
}

/* KV bytes per token on one GPU: KV heads shard across tensor-parallel ranks (at least one
 * per rank), the MLA latent is replicated.  Sliding layers count as full when @swa_full. */
static double
server_kv_per_token_gpu (const HrScenario *s,
                         gboolean          swa_full)
{
  const HrModel *m = s->model;
  double bpe = hr_kv_type_bytes_per_elem (s->kv_type), total = 0;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double heads = g->kind == HR_LAYER_MLA ? 1 : MAX (1, MAX (g->kv_heads, 1) / s->n_gpus);

      if (g->kind == HR_LAYER_RECURRENT ||
          (!swa_full && (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)))
        continue;
      total += g->count * heads * (g->k_dim + g->v_dim) * bpe;
    }
  return total;
}

/* KV bytes one request of @context tokens holds on one GPU. */
static double
server_request_bytes_gpu (const HrScenario *s)
{
  const HrModel *m = s->model;
  gint64 tokens = pad_up (s->context, VLLM_BLOCK);
  double total = server_kv_per_token_gpu (s, FALSE) * (double) tokens;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double bpe = hr_kv_type_bytes_per_elem (s->kv_type);
      double heads = MAX (1, MAX (g->kv_heads, 1) / s->n_gpus);

      if (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
        total += g->count * heads * (g->k_dim + g->v_dim) * bpe *
                 (double) MIN (tokens, pad_up (g->window, VLLM_BLOCK) + VLLM_BLOCK);
      else if (g->kind == HR_LAYER_RECURRENT)
        total += g->count * g->state_bytes / s->n_gpus;
    }
  return total;
}

/* The pool per GPU, the tokens it holds and the requests it serves at once. */
static void
server_capacity (const HrScenario *s,
                 double            weights_gpu,
                 HrEstimate       *out)
{
  double per_token = server_kv_per_token_gpu (s, TRUE);
  double request = server_request_bytes_gpu (s);

  double page = s->engine == HR_ENGINE_SGLANG ? 1 : VLLM_BLOCK;

  out->driver_memory_bytes = driver_memory_bytes (s->gpu);
  out->max_num_seqs = hr_estimate_max_num_seqs (s);
  if (s->engine == HR_ENGINE_SGLANG)
    /* SGLang (ModelRunner.profile_max_num_token): the memory free after loading the weights
     * less (1 − mem_fraction_static) × the memory free before loading them, which the CUDA
     * context and, under tensor parallelism, NCCL and the all-reduce buffers already hold.
     * Activations and CUDA graphs live in that reserve, not in the pool. */
    out->kv_pool_bytes = MAX (0, (out->driver_memory_bytes - server_non_torch (s)) * hr_estimate_mem_fraction (s) -
                                 weights_gpu / s->n_gpus);
  else
    out->kv_pool_bytes = MAX (0, out->driver_memory_bytes * hr_estimate_mem_fraction (s) - weights_gpu / s->n_gpus -
                                 out->compute_bytes / s->n_gpus);
  out->kv_capacity_tokens = per_token > 0 ? floor (out->kv_pool_bytes / (per_token * page)) * page : 0;
  out->max_concurrency = request > 0 ? out->kv_pool_bytes / request : 0;
}

/* The most KV cells one attention layer reads in llama.cpp's reserve pass: the whole cache
 * for a global layer, the window plus one ubatch (padded) for a sliding one. */
static double
llama_kv_cells (const HrScenario *s,
                gint64            n_ctx,
                gboolean          sliding)
{
  const HrModel *m = s->model;
  double cells = 0;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      gboolean swa = g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED;

      if (g->kind == HR_LAYER_RECURRENT || swa != sliding)
        continue;
      cells = MAX (cells, swa ? MIN ((double) n_ctx, (double) pad_up ((gint64) g->window + s->ubatch,
                                                                      LLAMA_CTX_PAD) * s->batch)
                              : (double) n_ctx);
    }
  /* a model without layer groups reads the whole cache */
  return m->layers->len == 0 && !sliding ? (double) n_ctx : cells;
}

/* llama.cpp's host-side compute buffer (logged as "CUDA_Host/CPU compute buffer size"): the
 * graph inputs it fills each ubatch, the F32 attention mask of each cache (n_kv × ubatch) and
 * the embedded tokens (hidden × ubatch).  gpt-oss-20b, -c 131072 -ub 512, on an RTX 3070:
 * 256 + 1.5 + 5.6 = 263.1 MiB, logged 263.15 (ikawrakow/ik_llama.cpp#822, llama.cpp b6699).
 * With the CPU backend it is part of the one compute buffer. */
static double
llama_host_compute (const HrScenario *s)
{
  gint64 n_ctx = pad_up (s->context * s->batch, LLAMA_CTX_PAD);
  double ub = MIN ((double) s->ubatch, (double) n_ctx);

  return 4.0 * ub * (llama_kv_cells (s, n_ctx, FALSE) + llama_kv_cells (s, n_ctx, TRUE) +
                     (double) s->model->hidden);
}

/* The engine's compute / activation buffers on one device (not its runtime context). */
static double
engine_compute_per_gpu (const HrScenario *s)
{
  const HrModel *m = s->model;
  double vocab = m->vocab > 0 ? m->vocab : 32000;
  double hidden = m->hidden;
  double ff = hr_model_is_moe (m) ? MAX ((double) m->moe_intermediate * m->n_experts_used,
                                         (double) m->intermediate)
                                  : (double) m->intermediate;

  if (hr_engine_is_llama_like (s->engine))
    {
      gint64 n_ctx = pad_up (s->context * s->batch, LLAMA_CTX_PAD);
      double ub = MIN ((double) s->ubatch, (double) n_ctx);
      double heads = MAX (m->n_heads, 1);
      double n_kv = MAX (llama_kv_cells (s, n_ctx, FALSE), llama_kv_cells (s, n_ctx, TRUE));
      double q_dim = heads * (m->head_dim > 0 ? m->head_dim : hidden / heads);
      double logits, ffn, attn;

      /* ggml's graph allocator keeps the peak of live F32 tensors while the ubatch runs
       * (llama.cpp's reserve pass; checked against its logged compute buffers):
       *   output: the logits (vocab × ubatch) next to one hidden-state row per token;
       *   FFN:    gate and up intermediates (2 × ff × ubatch) and two hidden-state copies;
       *   attention without flash attention: the KQ scores (n_kv × ubatch × heads; the
       *           softmax runs in place), the F32 mask (n_kv × ubatch), the residual, the
       *           normed input, Q and the attention output (Llama 3.1 405B, -c 4096: 1024 +
       *           8 + 128 = 1160 MiB, logged 1160.00; Mistral 7B v0.3 on the CPU: 256 + 8 +
       *           32 = 296, logged 300.01); 2023–24 builds kept the scores and two hidden-state
       *           copies (their logged "VRAM scratch"); with flash attention only a tile. */
      logits = 4.0 * ub * (vocab + hidden);
      ffn = 4.0 * ub * (2.0 * ff + 2.0 * hidden);
      if (s->flash_attn)
        attn = 4.0 * ub * 4.0 * hidden;
      else if (s->engine_version == HR_ENGINE_VERSION_2024)
        attn = 4.0 * ub * (double) n_ctx * heads + 4.0 * ub * 2.0 * hidden;
      else
        attn = 4.0 * ub * (n_kv * heads + n_kv + 3.0 * hidden + q_dim);
      return MAX (logits, MAX (ffn, attn)) + LLAMA_COMPUTE_SLACK;
    }
  if (hr_engine_is_server_like (s->engine))
    return server_activation_peak (s) + server_cuda_graphs (s) + server_non_torch (s);
  /* MLX: lazy evaluation keeps one layer's activations and the logits. */
  return 4.0 * MIN ((double) s->ubatch, (double) s->context) * (vocab + 4 * hidden + 2 * ff) +
         0.25 * HR_GIB;
}

/* The backend's own footprint on one device: its context, library workspaces and, for
 * quantized weights on GPU backends, the pool that holds one weight matrix dequantized to
 * F16 when a prompt goes through the BLAS path. */
static double
runtime_per_gpu (const HrScenario    *s,
                 const HrCalibration *cal,
                 HrBackend            backend)
{
  double rt = cal->runtime_mib * HR_MIB;

  if (hr_engine_is_llama_like (s->engine) && !hr_quant_is_unquantized (s->quant) &&
      (backend == HR_BACKEND_CUDA || backend == HR_BACKEND_ROCM || backend == HR_BACKEND_MUSA))
    rt += 2.0 * largest_matrix (s->model);
  return rt;
}

HrVerdict
hr_verdict_for (double required,
                double physical,
                double usable)
{
  if (required > usable)
    return HR_VERDICT_EXCEEDS;
  if (required > HR_FIT_FRACTION * physical)
    return HR_VERDICT_TIGHT;
  return HR_VERDICT_FITS;
}

double
hr_estimate_kv_at (const HrScenario *scenario,
                   gint64            context,
                   HrKvType          kv_type)
{
  g_return_val_if_fail (scenario != NULL && scenario->model != NULL, 0);
  return engine_kv_bytes (scenario, context, kv_type, NULL);
}

static const HrOffer *
offer_for_gpu (const HrPricing *pricing,
               const HrGpu     *gpu,
               int              n_gpus)
{
  const HrOffer *best = NULL;

  if (pricing == NULL || pricing->offers == NULL || gpu == NULL || gpu->id == NULL)
    return NULL;
  for (guint i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *o = g_ptr_array_index (pricing->offers, i);
      if (o->gpu_id == NULL || strcmp (o->gpu_id, gpu->id) != 0 || o->count != n_gpus)
        continue;
      if (best == NULL || o->usd_per_hour < best->usd_per_hour)
        best = o;
    }
  return best;
}

double
hr_estimate_device_weights (const HrScenario *s,
                            const HrEstimate *e,
                            int               device)
{
  int n = MAX (s->n_gpus, 1), layers = MAX (s->model->n_layers, 1);
  double head, per_layer, share;

  g_return_val_if_fail (device >= 0 && device < n, NAN);

  if (!hr_engine_is_llama_like (s->engine) || n == 1)
    return e->weights_gpu / n;
  /* A layer split hands out whole layers, the extra ones to the last devices, and puts the
   * output head on the last device; tensor parallelism shards evenly. */
  head = s->model->tie_embeddings ? e->weights.embd_bytes : e->weights.output_bytes;
  per_layer = (e->weights_gpu - head) / layers;
  share = per_layer * (layers / n + (device >= n - layers % n ? 1 : 0));
  if (device == n - 1)
    share += head;
  return MIN (share, e->weights_gpu);
}

void
hr_offer_label (const HrOffer *offer,
                char          *buf,
                gsize          size)
{
  if (offer->instance != NULL)
    g_snprintf (buf, size, "%s %s · %dx %s", offer->provider, offer->instance, offer->count, offer->gpu);
  else
    g_snprintf (buf, size, "%s · %dx %s", offer->provider, offer->count, offer->gpu);
}

gboolean
hr_estimate_compute (const HrScenario  *s,
                     const HrPricing   *pricing,
                     HrEstimate        *out,
                     GError           **error)
{
  const HrModel *m;
  const HrGpu *gpu;
  const HrCalibration *cal;
  HrBackend backend;
  double n = 0;
  double gpu_mem, usable_per_gpu, share;
  double cpu_layers_frac = 0, cpu_weight_bytes = 0, cpu_kv_bytes = 0, host_embd = 0;
  double kv_total, kv_per_token, kv_per_gpu, compute_per_gpu, runtime_gpu;
  double weights_per_gpu_max;
  double bw, sysram_bw, active_params, k_frac, kf;
  double weights_read, kv_read, step;
  double tflops, flops_dense, flops_attn, attn_span_sum = 0;
  double kv_eff, attn_util;
  gboolean unified, llama, server, on_cpu, current;
  double lpddr;
  gint64 depth;
  const HrOffer *offer;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!hr_scenario_validate (s, error))
    return FALSE;

  m = s->model;
  gpu = s->gpu;
  backend = hr_scenario_backend (s);
  cal = hr_calibration_speed (backend, s->engine_version);
  n = s->n_gpus;
  unified = hr_gpu_is_unified (gpu);
  llama = hr_engine_is_llama_like (s->engine);
  server = hr_engine_is_server_like (s->engine);
  on_cpu = hr_estimate_cpu_backend (s);

  /* vLLM/SGLang load gpt-oss's checkpoint, not a GGUF of it */
  if (!hr_weights_compute (m, server && g_ascii_strcasecmp (s->quant, "MXFP4") == 0
                              ? HR_QUANT_MXFP4_CHECKPOINT : s->quant,
                           &out->weights, error))
    return FALSE;
  /* vLLM and SGLang load a multimodal checkpoint's vision (and audio) encoder with it, in 16
   * bits; llama.cpp only with --mmproj.  Not read when decoding text. */
  if (server && m->vision_params > 0)
    out->weights.bytes += m->vision_params * 2;

  /* ---- where the weights live ---- */
  if (s->offload_pct > 0)
    {
      int cpu_layers = (int) floor (m->n_layers * s->offload_pct / 100.0 + 0.5);
      cpu_layers_frac = (double) cpu_layers / MAX (m->n_layers, 1);
      cpu_weight_bytes = out->weights.layer_bytes * cpu_layers;
      if (s->offload_pct >= 100)
        cpu_weight_bytes = out->weights.bytes;
    }
  if (s->n_cpu_moe > 0 && hr_model_is_moe (m))
    {
      int moe_layers = hr_model_moe_layers (m);
      int k = MIN (s->n_cpu_moe, moe_layers);
      /* experts of layers already on the CPU are not counted twice */
      cpu_weight_bytes += out->weights.expert_bytes / moe_layers * k * (1.0 - cpu_layers_frac);
    }
  cpu_weight_bytes = MIN (cpu_weight_bytes, out->weights.bytes);
  /* llama.cpp keeps the input embedding on the CPU ("very little benefit to offloading the
   * input layer"): one row is looked up per token.  A tied table is duplicated as the output
   * head on the device.  On unified memory it is the same pool either way.  llama.cpp also
   * skips MTP/NextN blocks when loading. */
  if (llama && !unified && gpu->backend != HR_BACKEND_CPU && cpu_weight_bytes < out->weights.bytes)
    host_embd = m->tie_embeddings ? 0 : out->weights.embd_bytes;
  out->weights_ram_bytes = cpu_weight_bytes + host_embd;
  out->weights_skipped_bytes = llama ? MAX (0, MIN (out->weights.mtp_bytes,
                                                    out->weights.bytes - out->weights_ram_bytes)) : 0;
  out->weights_gpu = out->weights.bytes - out->weights_ram_bytes - out->weights_skipped_bytes;
  out->weights_gpu = MAX (out->weights_gpu, 0);

  /* ---- KV cache ---- */
  kv_total = engine_kv_bytes (s, s->context, s->kv_type, &kv_per_token);
  out->kv_bytes_per_token = kv_per_token;
  cpu_kv_bytes = kv_total * cpu_layers_frac;   /* llama.cpp keeps a CPU layer's cache in RAM */
  out->kv_bytes = kv_total - cpu_kv_bytes;
  out->system_ram_bytes = cpu_weight_bytes + cpu_kv_bytes + host_embd;

  /* Under tensor parallelism vLLM/SGLang shard KV heads across ranks but replicate the MLA
   * latent cache. */
  kv_per_gpu = out->kv_bytes / n;
  if (server && n > 1)
    {
      for (guint i = 0; i < m->layers->len; i++)
        {
          const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
          if (g->kind == HR_LAYER_MLA)
            {
              kv_per_gpu = out->kv_bytes;
              break;
            }
        }
    }

  /* ---- buffers ---- */
  compute_per_gpu = engine_compute_per_gpu (s);
  /* the backend's context is memory: one figure whatever the build's speed */
  runtime_gpu = runtime_per_gpu (s, hr_calibration_for (backend), backend);
  /* every device reserves its own compute buffer; with llama.cpp's pipeline parallelism the
   * scheduler sizes them alike (logged as equal per CUDA device), so count the peak on each */
  out->compute_bytes = compute_per_gpu * n;
  out->runtime_bytes = runtime_gpu * n;
  /* llama.cpp's host compute buffer: system RAM beside a discrete GPU, the same pool on
   * unified memory (one per process); the CPU backend has the one buffer above */
  if (llama && !on_cpu)
    {
      out->host_compute_bytes = llama_host_compute (s);
      if (unified)
        runtime_gpu += out->host_compute_bytes / n;
      else
        out->system_ram_bytes += out->host_compute_bytes;
    }
  out->overhead_bytes = out->compute_bytes + out->runtime_bytes + (unified ? out->host_compute_bytes : 0);

  out->required_bytes = out->weights_gpu + kv_per_gpu * n + out->overhead_bytes;
  /* The fullest device is the last one (see hr_estimate_device_weights()). */
  weights_per_gpu_max = hr_estimate_device_weights (s, out, (int) n - 1);
  out->per_gpu_required = weights_per_gpu_max + kv_per_gpu + compute_per_gpu + runtime_gpu;

  /* ---- capacity ---- */
  gpu_mem = gpu->memory_gib * HR_GIB;
  if (unified)
    {
      /* macOS lets the GPU wire about 2/3 of RAM on smaller Macs and 3/4 from 64 GB up
       * (recommendedMaxWorkingSetSize; reference/gpu_specs.md §3) */
      share = s->unified_share > 0 ? s->unified_share
              : gpu->unified_share > 0 ? gpu->unified_share
              : gpu->memory_gib < 64 ? 2.0 / 3.0 : 0.75;
      usable_per_gpu = gpu_mem * share;
    }
  else
    usable_per_gpu = gpu_mem * (1.0 - s->reserve);
  if (server)
    usable_per_gpu = MIN (usable_per_gpu, gpu_mem * hr_estimate_mem_fraction (s));

  out->physical_bytes = gpu_mem * n;
  out->usable_bytes = usable_per_gpu * n;
  out->margin_bytes = out->usable_bytes - out->required_bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  out->verdict = hr_verdict_for (out->per_gpu_required, gpu_mem, usable_per_gpu);
  if (hr_estimate_serving_applies (s))
    server_capacity (s, out->weights_gpu, out);
  else if (server)
    {
      out->max_num_seqs = hr_estimate_max_num_seqs (s);
      out->driver_memory_bytes = out->kv_pool_bytes = NAN;
      out->kv_capacity_tokens = out->max_concurrency = NAN;
    }

  /* ---- decode speed (memory-bound, up to the compute roof when batching) ---- */
  bw = on_cpu ? hr_estimate_cpu_bandwidth (s)
       : isfinite (gpu->bandwidth_gbs) ? gpu->bandwidth_gbs * 1e9 : NAN;
  sysram_bw = hr_estimate_host_bandwidth (s);
  active_params = isfinite (m->active_params) ? m->active_params : m->total_params;
  if (!isfinite (active_params) || active_params <= 0)
    /* no published count: what the derivation walked, experts scaled to the active share */
    active_params = out->weights.params * (out->weights.bytes > 0
                                           ? out->weights.active_bytes / out->weights.bytes : 1);
  depth = hr_scenario_depth (s);
  out->depth = depth;
  kv_eff = s->flash_attn ? MIN (cal->bw_eff, cal->kv_eff * HR_CAL_FA_KV_GAIN) : cal->kv_eff;
  current = s->engine_version == HR_ENGINE_VERSION_CURRENT;
  lpddr = current && unified && !on_cpu && backend != HR_BACKEND_METAL ? HR_CAL_LPDDR_BW_EFF : 1.0;
  attn_util = s->flash_attn ? MIN (1.0, cal->attn_util * HR_CAL_FA_KV_GAIN) : cal->attn_util;

  /* MoE with B sequences touches more experts: each layer reads the union of the experts the
   * B tokens chose, E × (1 − (1 − k/E)^B) on average. */
  k_frac = 1.0;
  kf = 1.0;
  if (hr_model_is_moe (m))
    {
      kf = (double) m->n_experts_used / m->n_experts;
      k_frac = 1.0 - pow (1.0 - kf, s->batch);
    }
  weights_read = out->weights.active_bytes + out->weights.expert_bytes * (k_frac - kf);
  kv_read = kv_read_bytes (m, depth, hr_kv_type_bytes_per_elem (s->kv_type)) * s->batch;
  out->kv_read_bytes = kv_read;

  {
    double resident = out->weights.bytes - out->weights.mtp_bytes - out->weights.embd_bytes;
    double gpu_share = resident > 0 ? CLAMP (1.0 - cpu_weight_bytes / resident, 0, 1) : 1;
    DecodeStep d = { 0 };
    double kv_empty = kv_read_bytes (m, 0, hr_kv_type_bytes_per_elem (s->kv_type)) * s->batch;

    d.w_gpu = weights_read * gpu_share;
    d.w_cpu = weights_read * (1 - gpu_share);
    d.cpu_layers_frac = cpu_layers_frac;
    d.par = server ? n : 1; /* TP reads in parallel; a layer split runs the devices in turn */
    d.w_rate = bw * cal->bw_eff * lpddr;
    d.kv_rate = bw * kv_eff * lpddr;
    d.cpu_rate = sysram_bw * CPU_BW_EFF;
    d.t_fixed = (cal->t_layer_us * m->n_layers + cal->t_token_us) * 1e-6;
    if (server && n > 1)
      /* two all-reduces per layer */
      d.t_fixed += 2.0 * m->n_layers * (gpu->form == HR_FORM_DATACENTER ? 8e-6 : 25e-6);
    else if (n > 1)
      d.t_fixed += (n - 1) * cal->t_hop_us * 1e-6;

    tflops = on_cpu ? hr_estimate_cpu_flops (s) : hr_calibration_prefill_flops (gpu, cal);
    d.t_compute = isfinite (tflops) ? 2.0 * active_params * s->batch / (tflops * d.par) : 0;
    step = decode_step (&d, kv_read);
    out->bytes_per_token = (weights_read + kv_read) / s->batch;
    out->compute_bound = d.t_compute > d.t_mem;
    out->decode_efficiency = cal->bw_eff;
    out->decode_tps = 1.0 / step;
    out->decode_tps_empty = 1.0 / decode_step (&d, kv_empty);
    out->aggregate_tps = s->batch / step;
    out->decode_tps_low = out->decode_tps * cal->decode_low;
    out->decode_tps_high = out->decode_tps * cal->decode_high;
    if (!isfinite (bw))
      {
        out->decode_tps = out->decode_tps_low = out->decode_tps_high = out->aggregate_tps = NAN;
        out->decode_tps_empty = NAN;
        g_snprintf (out->decode_basis, sizeof out->decode_basis, "%s",
                    on_cpu ? _("unknown: the system RAM bandwidth is not known")
                           : _("unknown: the device's memory bandwidth is not published"));
      }
    else if (out->compute_bound)
      g_snprintf (out->decode_basis, sizeof out->decode_basis,
                  _("compute-bound: %d sequences × %.1f B active parameters at %.0f TFLOPS achieved"),
                  s->batch, active_params / 1e9, tflops * d.par / 1e12);
    else
      g_snprintf (out->decode_basis, sizeof out->decode_basis,
                  _("memory-bound: %.2f GiB read per token at %.0f%% of %.0f GB/s + %.1f ms fixed%s"),
                  hr_to_gib (out->bytes_per_token), cal->bw_eff * 100, bw / 1e9 * d.par,
                  d.t_fixed * 1e3, d.w_cpu > 0 ? _(" (+ system RAM)") : "");
  }

  /* ---- prefill (compute-bound) ---- */
  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double span = (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
                    ? MIN ((double) s->prompt_tokens / 2, (double) g->window)
                    : (g->kind == HR_LAYER_RECURRENT ? 0 : (double) s->prompt_tokens / 2);
      double qk = g->kind == HR_LAYER_MLA ? (double) g->k_dim : (double) MAX (g->k_dim, m->head_dim);
      attn_span_sum += g->count * span * m->n_heads * qk;
    }
  flops_dense = 2.0 * active_params;
  flops_attn = 4.0 * attn_span_sum;
  out->flops_per_token = flops_dense + flops_attn;
  if (isfinite (tflops))
    {
      double par = server ? n : 1;
      double t_tok, ubatches, pipe = 1;
      double util = 1.0;

      /* 16-bit weights go through cuBLAS / MPS GEMMs, quantized ones through dequantizing
       * kernels that reach less */
      if (hr_quant_is_16bit (s->quant))
        util = HR_CAL_F16_PREFILL_GAIN;
      else if (current && backend != HR_BACKEND_METAL && backend != HR_BACKEND_CPU && m->hidden > 0)
        util = MIN (1.0, m->hidden / HR_CAL_PREFILL_FULL_WIDTH);
      t_tok = flops_dense / (tflops * par * util) + flops_attn / (tflops * par * attn_util);
      /* every ubatch streams the device's weights once */
      if (isfinite (bw))
        t_tok += out->weights_gpu / n / (bw * cal->bw_eff) / MAX (MIN (s->ubatch, s->prompt_tokens), 1);
      /* a layer split pipelines the ubatches of one logical batch across the devices */
      if (llama && n > 1)
        {
          ubatches = ceil (MIN ((double) s->prompt_tokens, LLAMA_N_BATCH) / MAX (s->ubatch, 1));
          pipe = 1.0 + (MIN (n, ubatches) - 1.0) * HR_CAL_PIPELINE_EFF;
          t_tok /= pipe;
        }
      /* llama.cpp streams offloaded weights to the GPU once per ubatch */
      t_tok += cpu_weight_bytes / (PCIE_GBS * 1e9) / MAX (s->ubatch, 1);
      out->prefill_tps = 1.0 / t_tok;
      out->prefill_tps_low = out->prefill_tps * cal->prefill_low;
      out->prefill_tps_high = out->prefill_tps * cal->prefill_high;
      if (on_cpu)
        g_snprintf (out->prefill_basis, sizeof out->prefill_basis,
                    _("compute-bound: %.1f GFLOP per token on %d CPU cores at %.0f GFLOPS each"),
                    out->flops_per_token / 1e9, gpu->cpu_cores, HR_CPU_PREFILL_FLOPS_PER_CORE / 1e9);
      else if (backend == HR_BACKEND_METAL && !isfinite (gpu->fp16_tflops))
        g_snprintf (out->prefill_basis, sizeof out->prefill_basis,
                    _("compute-bound: %.1f GFLOP per token on %d GPU cores at %.2f TFLOPS each (fitted)"),
                    out->flops_per_token / 1e9, gpu->gpu_cores,
                    tflops * util / MAX (gpu->gpu_cores, 1) / 1e12);
      else
        g_snprintf (out->prefill_basis, sizeof out->prefill_basis,
                    _("compute-bound: %.1f GFLOP per token at %.0f of %.0f peak TFLOPS"),
                    out->flops_per_token / 1e9, tflops * util * par / 1e12,
                    hr_calibration_tensor_flops (gpu) * par / 1e12);
    }
  else
    {
      out->prefill_tps = out->prefill_tps_low = out->prefill_tps_high = NAN;
      g_snprintf (out->prefill_basis, sizeof out->prefill_basis, "%s",
                  on_cpu ? _("unknown: the number of CPU cores is not known")
                         : _("unknown: the device's FP16 throughput is not published"));
    }
  out->ttft_ms = isfinite (out->prefill_tps)
                 ? s->prompt_tokens / out->prefill_tps * 1000.0 + (isfinite (out->decode_tps) ? 1000.0 / out->decode_tps : 0)
                 : NAN;

  /* ---- cost ---- */
  out->cost_per_mtok_usd = NAN;
  out->offer_usd_per_hour = NAN;
  out->suggested_cost_per_mtok_usd = NAN;
  out->suggested_usd_per_hour = NAN;
  out->suggested_label[0] = '\0';
  offer = offer_for_gpu (pricing, gpu, s->n_gpus);
  if (offer != NULL && isfinite (out->aggregate_tps) && out->aggregate_tps > 0 &&
      out->verdict != HR_VERDICT_EXCEEDS)
    {
      out->offer_usd_per_hour = offer->usd_per_hour;
      out->cost_per_mtok_usd = offer->usd_per_hour / (out->aggregate_tps * 3600.0) * 1e6;
      hr_offer_label (offer, out->offer_label, sizeof out->offer_label);
    }
  return TRUE;
}

const char *
hr_verdict_to_string (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return "fits";
    case HR_VERDICT_TIGHT:
      return "tight";
    case HR_VERDICT_EXCEEDS:
    default:
      return "exceeds";
    }
}

const char *
hr_verdict_display (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return _("Fits with margin");
    case HR_VERDICT_TIGHT:
      return _("Tight fit");
    case HR_VERDICT_EXCEEDS:
    default:
      return _("Does not fit");
    }
}

const char *
hr_weights_source_to_string (HrWeightsSource source)
{
  switch (source)
    {
    case HR_WEIGHTS_MEASURED:
      return "measured";
    case HR_WEIGHTS_GGUF:
      return "gguf";
    case HR_WEIGHTS_DERIVED:
      return "derived";
    case HR_WEIGHTS_CHECKPOINT:
      return "checkpoint";
    case HR_WEIGHTS_UNKNOWN:
    default:
      return "unknown";
    }
}
