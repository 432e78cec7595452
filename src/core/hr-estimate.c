/* hr-estimate.c — the sizing model (SPEC §2): memory, verdict, speed and cost of a scenario */
#include "hr-estimate.h"
#include "hr-projector.h"
#include "hr-calibration.h"
#include "hr-draft.h"
#include "hr-estimate-cpu.h"
#include "hr-estimate-private.h"
#include "hr-placement.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LLAMA_CTX_PAD      256    /* llama.cpp pads n_ctx (and the KV cache) to 256 */
#define PCIE_GBS           HR_PCIE_GBS
#define CPU_BW_EFF         HR_CPU_BW_EFF
#define LLAMA_COMPUTE_SLACK (1.0 * 1024 * 1024) /* ggml-alloc alignment and small tensors */
#define LLAMA_N_BATCH      2048   /* llama.cpp's logical batch (-b): ubatches pipelined across
                                   * devices in a layer split */

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
      n_ctx = hr_pad_up (context, LLAMA_CTX_PAD) * batch;
      tokens_full = n_ctx;
    }
  else if (hr_engine_is_llama_like (s->engine))
    {
      n_ctx = hr_pad_up (context, LLAMA_CTX_PAD);
      tokens_full = n_ctx;
    }
  else if (hr_engine_is_server_like (s->engine))
    {
      n_ctx = hr_pad_up (context, HR_VLLM_BLOCK) * batch;
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
            tokens_swa = MIN (n_ctx / batch, hr_pad_up ((gint64) g->window + s->ubatch, LLAMA_CTX_PAD)) *
                         batch;
          else if (hr_engine_is_server_like (s->engine))
            tokens_swa = MIN (hr_pad_up (context, HR_VLLM_BLOCK),
                              hr_pad_up (g->window, HR_VLLM_BLOCK) + HR_VLLM_BLOCK) * batch;
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

/* Cache bytes one decoded token moves at depth @depth (one sequence): the KV cache it reads
 * and the recurrent state of a hybrid model (Gated DeltaNet, Mamba2), which every token reads
 * and writes back whole.  llama.cpp: build_recurrent_attn() (src/models/delta-net-base.cpp)
 * takes the state from llm_graph_context::build_rs() (a ggml_get_rows of the cache row),
 * ggml_gated_delta_net() returns the new state in its dst, and a ggml_cpy() writes it into
 * ssm_states_all; nemotron-h's build_mamba2_layer() (graph-context-mamba.cpp) has
 * GGML_OP_SSM_SCAN read the cache rows (get_ssm_rows) and stores the last state with a ggml_cpy().
 * vLLM's fused_recurrent_gated_delta_rule loads the state and stores the final one in place.
 * Counted here: one read and one write of the state in DRAM (the get_rows copy and the op's
 * dst are read back right after they are written, from the last-level cache).  Until #28 the
 * write was not counted: a Qwen3.5-4B step moves 24 × 2.1 MB twice, not once. */
static double
kv_read_bytes (const HrModel *m,
               gint64         depth,
               double         bpe)
{
  return hr_model_kv_bytes (m, MAX (depth, 1), bpe) + hr_model_state_bytes (m);
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
      cells = MAX (cells, swa ? MIN ((double) n_ctx, (double) hr_pad_up ((gint64) g->window + s->ubatch,
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
  gint64 n_ctx = hr_pad_up (s->context * s->batch, LLAMA_CTX_PAD);
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
      gint64 n_ctx = hr_pad_up (s->context * s->batch, LLAMA_CTX_PAD);
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
    return hr_estimate_server_compute (s);
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

/* What the steps of hr_estimate_compute() share: the scenario's facts, and what an earlier step
 * leaves for a later one. */
typedef struct
{
  const HrScenario *s;
  const HrModel *m;
  const HrGpu *gpu;
  const HrCalibration *cal;
  HrBackend backend;
  double n;                   /* devices */
  gboolean unified, llama, server, on_cpu, current;
  double bw;                  /* memory bandwidth the weights stream from, bytes/s */
  double tflops;              /* achievable prefill FLOPS of one device */
  double cpu_layers_frac;     /* the share of layers offloaded to system RAM */
  double cpu_weight_bytes;    /* weights in system RAM: offloaded layers and CPU experts */
  double gpu_expert_bytes;    /* routed experts kept on the devices */
  double expert_bpw;          /* bits per weight of the routed experts (0: unknown) */
  double moe_id_factor;       /* an expert byte's cost in the ids-indexed mat-vec (moe_id_step_factor) */
  double peak_flops;          /* the device's dense tensor peak (NAN: none published) */
  HrComputePath path;         /* the ALUs tflops and peak_flops describe (pascal_compute_path) */
  double int8_peak;           /* quantized prefill's int8 MMQ peak (prefill_int8_peak), NAN: another path */
  double tile_peak;           /* the peak of a tensor path quantized prefill reaches a fixed share of:
                               * the int8 MMQ's or Vulkan's coopmat2 (NAN: the blend) */
  double tile_share;          /* that share (HR_CAL_MMQ_INT8_SHARE, HR_CAL_VK_CM2_SHARE) */
  gboolean sycl_xmx_gemm;     /* prompt products as oneDNN FP16 GEMMs on XMX (sycl_xmx_gemm_path) */
  double host_embd;           /* llama.cpp's input embedding, kept in system RAM */
  double kv_per_gpu;
  double compute_per_gpu, runtime_gpu;
  double active_params;
} Sizing;

/* The dp4a MMQ path's share of the int8 dot-product peak: HR_CAL_VECTOR_PREFILL_SHARE of an
 * FP16 vector rate whose int8 dot products run twice as fast (gfx906's sdot4, the fitted rows),
 * i.e. a quarter.  Checked on a Tesla P40, not fitted: Llama 7B Q4_0 pp512 at 912 t/s
 * (llama.cpp PR #4766, 2024 builds) is 12.3 TFLOPS, 0.26 of its 47 int8 TOPS; Llama 8B Q5_0
 * pp2048 at 818 t/s (PR #7716) about the same. */
#define PASCAL_DP4A_SHARE (HR_CAL_VECTOR_PREFILL_SHARE / 2.0)

/* A Pascal card of compute capability 6.1 publishes FP16 at 1/64 of its FP32 rate, and
 * llama.cpp never runs FP16 math there (ggml-cuda common.cuh: fast_fp16_available() and
 * fast_fp16_hardware_available() exclude cc 610): quantized weights go through MMQ / MMVQ's
 * int8 __dp4a dot products (mmq.cu ggml_cuda_should_use_mmq(): no FP16 MMA hardware before
 * Volta, so MMQ at every batch size from GGML_CUDA_CC_DP4A on), F16 / F32 weights are
 * dequantized to FP32 for cublasSgemm (ggml_cuda_op_mul_mat_cublas(), its last branch), BF16
 * through cublasGemmEx computing in FP32.  The rates follow those paths, from the FP16 figure
 * by the die's published ratios (hr-gpu.h); the vector share is the one no-matrix-unit devices
 * get (HR_CAL_VECTOR_PREFILL_SHARE).  GP100 (6.0: fast FP16, no dp4a, dequantize + cuBLAS
 * FP16) keeps the FP16 figure.  Other backends and engines on such a card: unknown. */
static void
pascal_compute_path (Sizing *z)
{
  double fp32;

  if (z->on_cpu || !hr_gpu_pascal_slow_fp16 (z->gpu))
    return;
  fp32 = z->gpu->fp16_tflops * 1e12 * HR_PASCAL_FP32_PER_FP16;
  if (z->backend != HR_BACKEND_CUDA || !z->llama)
    {
      z->tflops = z->peak_flops = NAN;
      return;
    }
  if (hr_quant_is_unquantized (z->s->quant))
    {
      z->path = HR_COMPUTE_PATH_FP32;
      z->peak_flops = fp32;
      z->tflops = fp32 * HR_CAL_VECTOR_PREFILL_SHARE;
    }
  else
    {
      z->path = HR_COMPUTE_PATH_DP4A;
      z->peak_flops = fp32 * HR_PASCAL_DP4A_PER_FP32;
      z->tflops = z->peak_flops * PASCAL_DP4A_SHARE;
    }
}

/* Current llama.cpp SYCL builds on an Intel GPU with XMX engines (Xe-HPG, Xe2) run a prompt
 * ubatch's matrix products as FP16 GEMMs in oneDNN.  ggml-sycl.cpp, ggml_sycl_mul_mat: past
 * MMVQ_MAX_BATCH_SIZE (8) columns a quantized matrix takes neither DMMV nor MMVQ, and never
 * MMQ (ggml_sycl_supports_mmq returns false: "TODO: accuracy issues in MMQ"), so it goes to
 * ggml_sycl_op_mul_mat_sycl, which in a GGML_SYCL_F16 build converts the weights to FP16 with
 * to_fp16_sycl into a pool buffer (prefill_dequant_bytes counts that traffic) and multiplies
 * them with DnnlGemmWrapper::row_gemm (oneMKL's dpct::gemm when GGML_SYCL_DISABLE_DNN is set),
 * FP16 in, FP32 out, on the XMX engines; F16 / BF16 weights take the same GEMM without the
 * conversion.  The dequantization is its own kernel, not work interleaved with the matrix
 * engines as in ggml-cuda's MMQ tiles, so the product runs at a share of the XMX FP16 peak
 * (HR_CAL_SYCL_XMX_GEMM_SHARE) instead of the square-root blend that describes those.  Every
 * SYCL prefill row measured ran this path: their dense rates (Arc B580 29 TFLOPS on 20 Xe
 * cores, Arc Pro B70 47 on 32; 128 FP32 lanes a core, 8 vector engines of 16) would need
 * vector clocks above 5.6 GHz as FP32 FMAs.  A build without GGML_SYCL_F16 (CMake's default;
 * examples/sycl/build.sh: "faster for long-prompt inference" with it) converts to FP32 and runs
 * an FP32 GEMM on the vector engines instead: not modelled. */
static void
sycl_xmx_gemm_path (Sizing *z)
{
  if (z->on_cpu || z->backend != HR_BACKEND_SYCL || !z->current || !z->llama || !isfinite (z->peak_flops) ||
      (z->gpu->generation != HR_GEN_XE_HPG && z->gpu->generation != HR_GEN_XE2))
    return;
  z->sycl_xmx_gemm = TRUE;
  z->tflops = z->peak_flops * HR_CAL_SYCL_XMX_GEMM_SHARE;
}

/* The int8 tensor rate (OP/s) quantized prefill runs at on current CUDA builds, NAN when
 * another path runs.  ggml-cuda (mmq.cu, ggml_cuda_should_use_mmq) sends every quantized type
 * of a prompt batch to MMQ when turing_mma_available(); MMQ quantizes the activations to q8_1
 * and multiplies int8 tiles with mma.sync m16n8k32 s8 (mmq.cuh, vec_dot_*_mma; mma.cuh), so the
 * path's peak is the int8 tensor rate: twice the FP16 rate with FP16 accumulate on Turing,
 * Ampere, Ada and Blackwell (NVIDIA's architecture whitepapers: RTX 3090 284 / 142, RTX 4090
 * 660.6 / 330.3 — https://hmc-tech.com/gpus/nvidia-geforce-rtx-4090-vs-nvidia-rtx-pro-5000-blackwell
 * —, RTX 5090 838 / 419 dense TOPS / TFLOPS — https://analysis.castromedia.org/analysis/compute/entities/rtx-5090.html,
 * https://www.spheron.network/blog/nvidia-rtx-5090-specs/ ) — twice
 * hr_calibration_tensor_flops().  Volta has no int8 MMA: from MMQ_DP4A_MAX_BATCH_SIZE (64)
 * tokens on it dequantizes to FP16 for cuBLAS (ggml_cuda_should_use_mmq: NVIDIA with
 * fp16_mma_hardware_available), the FP16 blend.  Taken for the GA10x / AD10x / GB20x dies of
 * GeForce and RTX workstation cards (the rows measured: RTX 3090, RTX 4090).  Kept on the
 * blend: datacenter dies (GA100, GH100: other SMs, no current row), Turing (half the FP32
 * lanes per SM for the tiles' dequantization, hr_calibration_prefill_flops; its one current
 * row, an RTX 2080 Ti, reaches 0.19 of the int8 rate) and the unified GB10 (a shared power
 * budget; its Qwen2.5 7B and gpt-oss rows sit within −5…+9 % of the blend, its Gemma 3 4B and
 * Qwen3-Coder rows 22–47 % under it, unexplained). */
/* The GA10x / AD10x / GB20x dies of GeForce and RTX workstation cards, the ones the tensor
 * prefill paths below are taken for. */
static gboolean
geforce_class_die (const HrGpu *gpu)
{
  return (gpu->form == HR_FORM_CONSUMER || gpu->form == HR_FORM_WORKSTATION) &&
         (gpu->generation == HR_GEN_AMPERE || gpu->generation == HR_GEN_ADA ||
          gpu->generation == HR_GEN_BLACKWELL);
}

static double
prefill_int8_peak (const Sizing *z)
{
  if (z->backend != HR_BACKEND_CUDA || !z->current || z->on_cpu || z->unified ||
      hr_quant_is_16bit (z->s->quant) || !isfinite (z->peak_flops) || !geforce_class_die (z->gpu))
    return NAN;
  return 2.0 * z->peak_flops;
}

/* The tensor rate (FLOP/s) quantized prefill runs at under Vulkan on NVIDIA's coopmat2 path,
 * NAN when another path runs.  Which matrix-multiply shader ggml-vulkan gives a quantized prompt
 * batch (ggml-vulkan.cpp, ggml_vk_mul_mat_q_f16 and ggml_vk_get_mul_mat_mat_pipeline; ggml-org/ggml
 * mirror, 2025-12 and 2026-08 alike):
 *  - device->coopmat2 (VK_NV_cooperative_matrix2 with workgroup scope, flexible dimensions,
 *    reductions, conversions and 256-invocation FP16 shapes: NVIDIA's driver; "matrix cores:
 *    NV_coopmat2"): y_non_contig is forced for F32 activations, so quantize_y (the int8 MMQ) is
 *    never taken, and the weights go to pipeline_dequant_mul_mat_mat_f16[type].f16acc
 *    (mul_mm_cm2.comp), which decodes each quantized block inside the tensor load
 *    (dequant_funcs_cm2.glsl) and multiplies FP16 with FP16 accumulation under GGML_PREC_DEFAULT
 *    — the tensor cores at the rate hr_calibration_tensor_flops() credits a GeForce card;
 *  - otherwise, with device->integer_dot_product (integerDotProduct4x8BitPackedSignedAccelerated),
 *    the legacy quants, MXFP4 and (llama.cpp PR #16536, 2025-10-29) the k-quants take
 *    mul_mmq.comp — dotPacked4x8EXT on the vector ALUs, no cooperative matrix — even on a
 *    KHR_coopmat device (RDNA 3/3.5/4 under RADV, NVIDIA without coopmat2, Xe2);
 *  - the IQ types there, and every type without integer dot, the dequantizing mul_mm.comp: with
 *    KHR_cooperative_matrix (ggml_vk_khr_cooperative_matrix_support: NVIDIA always, AMD's own
 *    drivers only on RDNA 3, Intel Xe2) on the matrix units, else scalar.
 * The coopmat2 path has no separate tile unpack on the vector lanes beside the tensor cores, so
 * it scales with the tensor peak as ggml-cuda's int8 MMQ does (prefill_int8_peak), not with the
 * square-root blend: the RTX 3090 dense rows sit at 0.54 of its 142 TFLOPS FP16-accumulate peak,
 * the RTX 4090 Llama 3.2 3B row at 0.54 of 330 × the width factor.  The share,
 * HR_CAL_VK_CM2_SHARE, is not fitted on these rows: it is the coopmat2 / CUDA ratio of one public
 * table times CUDA's MMQ share.  Taken for the dies prefill_int8_peak() takes (GA10x / AD10x /
 * GB20x GeForce and RTX workstation cards); Turing stays on the blend (half the FP32 lanes per
 * tensor rate: HR_CAL_TURING_VECTOR_SHARE), as do datacenter and unified parts, and every
 * non-NVIDIA device (no coopmat2).  Headroom cannot see the driver: a card whose driver or
 * glslc lacks coopmat2 (the RTX 5090 row of llama.cpp PR #18352's base, "matrix cores:
 * KHR_coopmat") runs MMQ and reads high (+30 % -> +53 %).  Routed experts take mul_mm_cm2 with
 * MUL_MAT_ID, whose tiles (l_mmqid_wg_denoms: 128 tokens past a 64-token ubatch) run partly
 * empty as in moe_mmq_tile_share(); builds before PR #15546 (2025-08-24, "mul_mat_id coopmat2
 * optimizations") were slower there (the RTX 5090 gpt-oss-20b row before it: +21 % -> +43 %;
 * the one of 2025-12 before PR #18332: -8 % -> +9 %).  Checked, not an accuracy row: PR #23541's
 * RTX 5090 (2026, coopmat2 with decode_vector) runs Llama 3B Q8_0 pp512 at 26.5 k t/s, where
 * this path says 21.7 k and the blend said about 11 k; its 7B Q4_0 at 13.3 k is 0.43 of the
 * 419 TFLOPS peak, under the 0.55 share — the share may not hold whole on GB20x.  PR #12833's
 * RTX 3070 ("matrix cores: NV_coopmat2", 2025-04) ran Llama 3 8B Q4_K_M pp512 at 2607 t/s,
 * 0.52 of its 81 TFLOPS.  ggml-vulkan itself names no NVIDIA generation for coopmat2: the
 * driver exposes the extension and the features checked above or not; Turing is left on the
 * blend for the vector-lane reason, not because the code excludes it (its rows: TinyLlama
 * pp512 / pp4096 +14 %, Llama 3.2 3B -6 %; on this path at half the share they read -14 % /
 * -9 % and -29 %, worse on the whole). */
static double
vk_cm2_peak (const Sizing *z)
{
  const HrGpu *gpu = z->gpu;

  if (z->backend != HR_BACKEND_VULKAN || !z->current || !z->llama || z->on_cpu || z->unified ||
      hr_quant_is_16bit (z->s->quant) || !isfinite (z->peak_flops) || gpu->vendor == NULL ||
      g_ascii_strcasecmp (gpu->vendor, "NVIDIA") != 0 || !geforce_class_die (gpu))
    return NAN;
  return z->peak_flops;
}

/* RDNA 3.5 (gfx1150/1151: Strix Point, Strix Halo) runs prefill on the CU design of RDNA 3:
 * ggml-cuda counts gfx115x as RDNA 3 (common.cuh: GGML_CUDA_CC_IS_RDNA3() holds for
 * GGML_CUDA_CC_IS_RDNA3_5()), so amd_wmma_available() is true and ggml_cuda_should_use_mmq()
 * (mmq.cu) takes the same WMMA MMQ branch for the 4-5-bit and k-quant types as on Navi 31;
 * under Vulkan, ggml-vulkan reports "RADV GFX1151 ... int dot: 1 | matrix cores: KHR_coopmat"
 * (public llama-bench logs) and ggml_vk_mul_mat_q_f16() runs the MMQ shader on q8_1
 * activations where the type has one, else the dequantizing coopmat mul_mm — on the same CUs
 * either way.  The WMMA rate per CU per clock is
 * RDNA 3's (512 dense FP16 FLOPs with WMMA: https://llm-tracker.info/_TOORG/Strix-Halo, after
 * https://gpuopen.com/learn/wmma_on_rdna3/ for gfx11; AMD's RX 7900 XTX 122.8 TFLOPS = 96 CU
 * x 512 x 2.5 GHz), and so are the vector ALUs per
 * CU that run the non-tensor work (tile dequantization, q8_1 quantization, norms, softmax).
 * The prefill blend's reference (hr_calibration_prefill_flops: √(peak × reference), the
 * reference standing for that non-tensor work) was fitted for ROCm on the 96-CU Navi 31 (RX
 * 7900 XTX, Radeon PRO W7900; hr-calibration.c), where it credits 0.54 of the peak; with a
 * fixed reference, a device of the same CUs with a third of the CU-clocks would be credited
 * 0.96 of its peak, as if its non-tensor work had not shrunk with its CU count.  Scaling the
 * reference by the device's CU-clocks against Navi 31's — the vector-lane argument the blend
 * already makes for Turing (HR_CAL_TURING_VECTOR_SHARE) — gives the same share of the peak
 * as Navi 31: peak × √(reference / Navi 31's peak).  Checked on the Strix Halo rows of
 * tests/accuracy/bench_public.csv (kyuz0's toolboxes, ROCm and Vulkan), with the catalog's
 * FP16 figure taken at the clock the chip holds under matrix load (data/gpus.json: 1.91 GHz,
 * not 2.9): the kyuz0 rows' estimates went from about 2x the measured speed (59.4 TFLOPS and
 * the plain blend) to −8…+14 % (pp512 and pp2048, dense and MoE, both backends), but for
 * ROCm gpt-oss (−40 %, −66 %: moe_mmq_tile_share() charges 32- and 128-expert MXFP4 layers
 * whole 128-token tiles, as ggml-cuda computes them on gfx1151; without that term they land at
 * −9 % and +22 %; checked against the code there, not changed).
 * Vulkan's reference comes from other devices (RTX 30/40/50, RDNA 4) and is used as it
 * stands.  Current builds only (the WMMA MMQ is llama.cpp PR #17576; the 2024 table was not
 * fitted on Navi 31).  Smaller RDNA 3 dies (Navi 32 / 33) would follow by the same argument;
 * no row of them is in the accuracy set, so they keep the blend. */
#define RDNA3_NAVI31_FP16_TFLOPS 122.8

static void
rdna35_prefill_share (Sizing *z)
{
  double peak = z->peak_flops, ref = z->cal->prefill_util * 1e12;

  if (z->on_cpu || !z->llama || !z->current || z->gpu->generation != HR_GEN_RDNA3_5 ||
      !isfinite (peak) || (z->backend != HR_BACKEND_ROCM && z->backend != HR_BACKEND_VULKAN))
    return;
  z->tflops = MIN (peak, peak * sqrt (ref / (RDNA3_NAVI31_FP16_TFLOPS * 1e12)));
}

static void
sizing_init (Sizing           *z,
             const HrScenario *s)
{
  memset (z, 0, sizeof *z);
  z->s = s;
  z->m = s->model;
  z->gpu = s->gpu;
  z->backend = hr_scenario_backend (s);
  z->cal = hr_calibration_speed (z->backend, s->engine_version);
  z->n = s->n_gpus;
  z->unified = hr_gpu_is_unified (z->gpu);
  z->llama = hr_engine_is_llama_like (s->engine);
  z->server = hr_engine_is_server_like (s->engine);
  z->on_cpu = hr_estimate_cpu_backend (s);
  z->current = s->engine_version == HR_ENGINE_VERSION_CURRENT;
  z->bw = z->on_cpu ? hr_estimate_cpu_bandwidth (s)
          : isfinite (z->gpu->bandwidth_gbs) ? z->gpu->bandwidth_gbs * 1e9 : NAN;
  z->tflops = z->on_cpu ? hr_estimate_cpu_flops (s) : hr_calibration_prefill_flops (z->gpu, z->cal);
  z->peak_flops = !z->on_cpu && isfinite (z->gpu->fp16_tflops) && z->gpu->fp16_tflops > 0
                  ? hr_calibration_tensor_flops (z->gpu) : NAN;
  pascal_compute_path (z);
  rdna35_prefill_share (z);
  sycl_xmx_gemm_path (z);
  z->int8_peak = prefill_int8_peak (z);
  z->tile_peak = isfinite (z->int8_peak) ? z->int8_peak : vk_cm2_peak (z);
  z->tile_share = isfinite (z->int8_peak) ? HR_CAL_MMQ_INT8_SHARE : HR_CAL_VK_CM2_SHARE;
}

static double moe_id_step_factor (const Sizing *z);

/* The weights the engine loads. */
static gboolean
load_weights (const Sizing  *z,
              HrEstimate    *out,
              GError       **error)
{
  /* vLLM/SGLang load gpt-oss's checkpoint, not a GGUF of it */
  if (!hr_weights_compute (z->m, z->server && g_ascii_strcasecmp (z->s->quant, "MXFP4") == 0
                                 ? HR_QUANT_MXFP4_CHECKPOINT : z->s->quant,
                           &out->weights, error))
    return FALSE;
  /* vLLM and SGLang load a multimodal checkpoint's vision (and audio) encoder with it, in 16
   * bits; llama.cpp only with --mmproj.  Not read when decoding text. */
  if (z->server && z->m->vision_params > 0)
    out->weights.bytes += z->m->vision_params * 2;
  return TRUE;
}

/* Where the weights live: the device, system RAM (offloaded layers, CPU experts, the input
 * embedding), or nowhere (MTP blocks llama.cpp skips). */
static void
place_weights (Sizing     *z,
               HrEstimate *out)
{
  const HrScenario *s = z->s;
  const HrModel *m = z->m;
  double cpu_experts = 0;

  if (s->offload_pct > 0)
    {
      int cpu_layers = (int) floor (m->n_layers * s->offload_pct / 100.0 + 0.5);
      z->cpu_layers_frac = (double) cpu_layers / MAX (m->n_layers, 1);
      z->cpu_weight_bytes = out->weights.layer_bytes * cpu_layers;
      if (s->offload_pct >= 100)
        z->cpu_weight_bytes = out->weights.bytes;
    }
  if (s->n_cpu_moe > 0 && hr_model_is_moe (m))
    {
      int moe_layers = hr_model_moe_layers (m);
      int k = MIN (s->n_cpu_moe, moe_layers);
      /* experts of layers already on the CPU are not counted twice */
      cpu_experts = out->weights.expert_bytes / moe_layers * k * (1.0 - z->cpu_layers_frac);
      z->cpu_weight_bytes += cpu_experts;
    }
  z->cpu_weight_bytes = MIN (z->cpu_weight_bytes, out->weights.bytes);
  z->gpu_expert_bytes = s->offload_pct >= 100 ? 0
                        : MAX (0, out->weights.expert_bytes * (1.0 - z->cpu_layers_frac) - cpu_experts);
  if (hr_model_is_moe (m) && m->hidden > 0 && m->moe_intermediate > 0)
    {
      double expert_params = (double) hr_model_moe_layers (m) * m->n_experts * (m->ffn_ungated ? 2 : 3) *
                             m->hidden * m->moe_intermediate;

      z->expert_bpw = expert_params > 0 ? out->weights.expert_bytes * 8 / expert_params : 0;
    }
  z->moe_id_factor = moe_id_step_factor (z);
  /* llama.cpp keeps the input embedding on the CPU ("very little benefit to offloading the
   * input layer"): one row is looked up per token.  A tied table is duplicated as the output
   * head on the device.  On unified memory it is the same pool either way.  llama.cpp also
   * skips MTP/NextN blocks when loading. */
  if (z->llama && !z->unified && z->gpu->backend != HR_BACKEND_CPU &&
      z->cpu_weight_bytes < out->weights.bytes)
    z->host_embd = m->tie_embeddings ? 0 : out->weights.embd_bytes;
  out->weights_ram_bytes = z->cpu_weight_bytes + z->host_embd;
  out->weights_skipped_bytes = z->llama ? MAX (0, MIN (out->weights.mtp_bytes,
                                                       out->weights.bytes - out->weights_ram_bytes)) : 0;
  out->weights_gpu = out->weights.bytes - out->weights_ram_bytes - out->weights_skipped_bytes;
  out->weights_gpu = MAX (out->weights_gpu, 0);
}

static gboolean
has_mla (const HrModel *m)
{
  for (guint i = 0; i < m->layers->len; i++)
    if (g_array_index (m->layers, HrLayerGroup, i).kind == HR_LAYER_MLA)
      return TRUE;
  return FALSE;
}

static void
size_kv_cache (Sizing     *z,
               HrEstimate *out)
{
  const HrScenario *s = z->s;
  double kv_per_token, kv_total, cpu_kv_bytes;

  kv_total = engine_kv_bytes (s, s->context, s->kv_type, &kv_per_token);
  out->kv_bytes_per_token = kv_per_token;
  cpu_kv_bytes = kv_total * z->cpu_layers_frac;   /* llama.cpp keeps a CPU layer's cache in RAM */
  out->kv_bytes = kv_total - cpu_kv_bytes;
  out->system_ram_bytes = z->cpu_weight_bytes + cpu_kv_bytes + z->host_embd;

  /* Under tensor parallelism vLLM/SGLang shard KV heads across ranks but replicate the MLA
   * latent cache. */
  z->kv_per_gpu = out->kv_bytes / z->n;
  if (z->server && z->n > 1 && has_mla (z->m))
    z->kv_per_gpu = out->kv_bytes;
}

/* Compute buffers and the backend's runtime, then the memory required in all and on the
 * fullest device. */
static void
size_buffers (Sizing     *z,
              HrEstimate *out)
{
  const HrScenario *s = z->s;
  double n = z->n, weights_per_gpu_max;

  z->compute_per_gpu = engine_compute_per_gpu (s);
  /* the backend's context is memory: one figure whatever the build's speed */
  z->runtime_gpu = runtime_per_gpu (s, hr_calibration_for (z->backend), z->backend);
  /* every device reserves its own compute buffer; with llama.cpp's pipeline parallelism the
   * scheduler sizes them alike (logged as equal per CUDA device), so count the peak on each */
  out->compute_bytes = z->compute_per_gpu * n;
  out->runtime_bytes = z->runtime_gpu * n;
  /* llama.cpp's host compute buffer: system RAM beside a discrete GPU, the same pool on
   * unified memory (one per process); the CPU backend has the one buffer above */
  if (z->llama && !z->on_cpu)
    {
      out->host_compute_bytes = llama_host_compute (s);
      if (z->unified)
        z->runtime_gpu += out->host_compute_bytes / n;
      else
        out->system_ram_bytes += out->host_compute_bytes;
    }
  out->overhead_bytes = out->compute_bytes + out->runtime_bytes +
                        (z->unified ? out->host_compute_bytes : 0);

  out->required_bytes = out->weights_gpu + z->kv_per_gpu * n + out->overhead_bytes;
  /* The fullest device is the last one (see hr_estimate_device_weights()). */
  weights_per_gpu_max = hr_estimate_device_weights (s, out, (int) n - 1);
  out->per_gpu_required = weights_per_gpu_max + z->kv_per_gpu + z->compute_per_gpu + z->runtime_gpu;
}

/* What the devices hold and the verdict; vLLM/SGLang's KV pool and concurrency. */
static void
check_capacity (const Sizing *z,
                HrEstimate   *out)
{
  const HrScenario *s = z->s;
  double gpu_mem = z->gpu->memory_gib * HR_GIB, usable_per_gpu;

  if (z->unified)
    usable_per_gpu = gpu_mem * hr_gpu_unified_share (z->gpu, s->unified_share);
  else
    usable_per_gpu = gpu_mem * (1.0 - s->reserve);
  if (z->server)
    usable_per_gpu = MIN (usable_per_gpu, gpu_mem * hr_estimate_mem_fraction (s));

  out->physical_bytes = gpu_mem * z->n;
  out->usable_bytes = usable_per_gpu * z->n;
  out->margin_bytes = out->usable_bytes - out->required_bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  out->verdict = hr_verdict_for (out->per_gpu_required, gpu_mem, usable_per_gpu);
  /* On a unified-memory machine what is moved "to system RAM" (--offload, --n-cpu-moe) stays in
   * the same memory: the GPU's part must fit its share and the machine both parts, short of the
   * reserve left to the system (the CPU's part is not bound by the GPU's share: GTT on Linux,
   * the working-set limit on macOS). */
  out->machine_bytes = 0;
  if (z->unified && (s->offload_pct > 0 || s->n_cpu_moe > 0))
    {
      double machine = out->physical_bytes * (1.0 - s->reserve);
      double total = out->required_bytes + out->system_ram_bytes;

      out->machine_bytes = machine;
      out->margin_bytes = MIN (out->margin_bytes, machine - total);
      if (total > machine)
        out->verdict = HR_VERDICT_EXCEEDS;
    }
  if (hr_estimate_serving_applies (s))
    hr_estimate_server_capacity (s, out->weights_gpu, out);
  else if (z->server)
    {
      out->max_num_seqs = hr_estimate_max_num_seqs (s);
      out->driver_memory_bytes = out->kv_pool_bytes = NAN;
      out->kv_capacity_tokens = out->max_concurrency = NAN;
    }
}

/* The parameters one token multiplies by. */
static double
active_params (const HrModel    *m,
               const HrEstimate *out)
{
  double active = isfinite (m->active_params) ? m->active_params : m->total_params;

  if (!isfinite (active) || active <= 0)
    /* no published count: what the derivation walked, experts scaled to the active share */
    active = out->weights.params * (out->weights.bytes > 0
                                    ? out->weights.active_bytes / out->weights.bytes : 1);
  return active;
}

/* The share of a MoE layer's routed experts that @tokens tokens read together: each token
 * picks k of E, so the layer reads the union, E × (1 − (1 − k/E)^tokens) on average (1 for a
 * dense model). */
static double
expert_union_share (const HrModel *m,
                    double         tokens)
{
  double kf;

  if (!hr_model_is_moe (m))
    return 1.0;
  kf = (double) m->n_experts_used / m->n_experts;
  return 1.0 - pow (1.0 - kf, MAX (tokens, 1));
}

/* Weight bytes a decode step reads.  MoE with B sequences touches more experts: each layer
 * reads the union of the experts the B tokens chose. */
static double
decode_weights_read (const Sizing     *z,
                     const HrEstimate *out,
                     double            tokens)
{
  double kf = hr_model_is_moe (z->m) ? (double) z->m->n_experts_used / z->m->n_experts : 1.0;

  return out->weights.active_bytes + out->weights.expert_bytes * (expert_union_share (z->m, tokens) - kf);
}

/* Weight bytes a llama.cpp decode step that asks for no output does not read
 * (HrScenario.decode_no_output).  llama.cpp runs the output only for the tokens that ask for
 * it: a batch without a logits array (llama_batch_get_one(), which llama-bench's test_prompt
 * and test_gen both use) has only its last token marked (llama_batch_allocr::init(),
 * src/llama-batch.cpp: "return the output only for the last token"), so of a ppN run with
 * -ub 1 every ubatch but the last outputs nothing, while each tgN step outputs its one token.
 * Every model builder gathers the outputting rows right after the last layer's attention
 * (src/models/<arch>.cpp, e.g. llama.cpp: "if (il == n_layer - 1 && inp_out_ids) cur = ggml_get_rows (ctx0, cur,
 * inp_out_ids)", a tensor of n_outputs rows from llm_graph_context::build_inp_out_ids(),
 * src/llama-graph.cpp), so with none the last layer's FFN and the output head multiply zero
 * rows: empty tensors every backend skips without touching their weights (ggml_is_empty (node)
 * in ggml-cuda.cu's graph evaluation, ggml_vk_build_graph(), ggml_metal_op_encode_impl(), the
 * SYCL graph loop).  Skipped: the output head (a tied table included) and the last layer's FFN
 * — a dense one at the layer's average bytes per parameter, of a MoE layer the routed experts
 * @tokens tokens read (its router and shared expert, small, are left in).  Nemotron-H-like stacks
 * (n_ffn_layers): the head only.
 * Such a step keeps a tg step's fixed cost (step_fixed_seconds()), no more: llama_context::
 * process_ubatch() reuses the graph across the ubatches of one llama_decode() call
 * (llm_graph_result::can_reuse(): same n_tokens and n_outputs), ggml-cuda's
 * ggml_cuda_graph_update_required() then sees the same uid and replays the CUDA graph (its
 * warm-up resets only when the graph changes: the one outputting ubatch, a new n_kv), and
 * ggml_backend_sched_compute_splits() synchronizes the device before copying each ubatch's
 * user inputs, as every tg step does.  (Checked for #28: the CUDA rows that sit high, +20 %, are
 * fast small steps with and without -ub 1 alike, e.g. the RTX 4090 gpt-oss-20b tg128 row.) */
static double
no_output_skipped_bytes (const Sizing     *z,
                         const HrEstimate *out,
                         double            tokens)
{
  const HrModel *m = z->m;
  const HrWeights *w = &out->weights;
  double ffn = 0;

  if (m->n_ffn_layers > 0 || m->n_layers <= 0)
    ffn = 0;
  else if (hr_model_is_moe (m))
    ffn = w->expert_bytes * expert_union_share (m, tokens) / MAX (hr_model_moe_layers (m), 1);
  else if (m->intermediate > 0 && m->hidden > 0)
    {
      double params = isfinite (m->total_params) && m->total_params > 0 ? m->total_params : w->params;
      double layer_params = (params - (double) m->vocab * m->hidden * (m->tie_embeddings ? 1 : 2)) /
                            (m->n_layers + MAX (m->mtp_layers, 0));
      double ffn_params = (m->ffn_ungated ? 2.0 : 3.0) * m->hidden * m->intermediate;

      if (layer_params > 0)
        ffn = w->layer_bytes * MIN (1.0, ffn_params / layer_params);
    }
  return w->output_bytes + ffn;
}

/* Whether llama.cpp's CUDA backend runs this card without CUDA graphs: ggml-cuda.cu,
 * ggml_cuda_graph_set_enabled(), sets disable_due_to_gpu_arch for a device below
 * GGML_CUDA_CC_VOLTA (7.0), so a Pascal card launches each kernel of the step from the host.
 * (The gate was GGML_CUDA_CC_AMPERE until llama.cpp PR #25749, 2026-07, enabled graphs on
 * Volta and Turing; Headroom's current builds follow the newest code.  PR #27721, still open,
 * would enable them on Pascal: a GTX 1080 went from 26.3 to 28.0 t/s on a dense 9B, from 41
 * to 74 t/s on a small MoE.) */
static gboolean
cuda_graphs_off (const Sizing *z)
{
  return z->current && z->llama && !z->on_cpu && z->backend == HR_BACKEND_CUDA && z->gpu != NULL &&
         z->gpu->generation == HR_GEN_PASCAL;
}

/* ggml-vulkan records every node of the step into command buffers (ggml_backend_vk_graph_compute
 * → ggml_vk_build_graph, submitted every ~100 nodes or share of the step's FLOPs) and puts a
 * pipeline barrier (ggml_vk_sync_buffers) before a dispatch that touches memory an unsynced
 * earlier one wrote (ggml-org/llama.cpp PR #15489, 2025-08; ggml_vk_graph_optimize reorders
 * independent nodes next to each other); the fixed cost of a layer is that chain of dependent
 * dispatches, so it follows the kernels the layer runs, not the layer count.  The calibration's
 * t_layer_us (58 µs) is that of a transformer block: two residual sub-blocks, each one norm →
 * op → residual add (attention: RMS_NORM+MUL, Q/K/V MUL_MAT, ROPE, ROPE+SET_ROWS, SET_ROWS,
 * FLASH_ATTN_EXT, MUL_MAT+ADD — about 9 dispatches after the fusions in graph_compute; the FFN:
 * RMS_NORM+MUL, gate/up, GLU, MUL_MAT+ADD, a MoE's router and TOPK_MOE besides), counted as
 * halves.  Two kinds of block differ:
 *  - Nemotron-H blocks (src/models/nemotron-h.cpp: each block is norm → one of Mamba2 mixer,
 *    attention or FFN/MoE → residual add; HrModel.n_ffn_layers counts the FFN ones) carry one
 *    sub-block each: half a transformer block, the Mamba2 ones a recurrent mixer's share;
 *  - a linear-attention / SSM mixer (HR_LAYER_RECURRENT groups: Qwen3.5 / Qwen3-Next Gated
 *    DeltaNet in qwen35moe.cpp build_layer_attn_linear: qkv and z projections, beta/alpha,
 *    the conv-state concat, SSM_CONV, SILU, two L2_NORMs, GATED_DELTA_NET, the state copies,
 *    the gated RMS_NORM·SILU(z) and the output MUL_MAT — about twice an attention half's
 *    dispatches) costs HR_CAL_VK_RECURRENT_MIXER transformer blocks in place of the
 *    attention half.
 * Returns the step's fixed cost in transformer-block equivalents.
 *
 * The Gated DeltaNet mixer is modelled as the newest code runs it: one GGML_OP_GATED_DELTA_NET
 * (delta-net-base.cpp, build_delta_net_fused; CPU/CUDA from PR #19504, 2026-02; Vulkan from
 * PR #20334, 2026-03-10; Metal in b8192, its state reads made coalesced in b8333, per
 * ggml-org/Llama-macOS issue #67; PR #27877,
 * 2026-08, removed the unfused paths, a backend without the op falls back to the CPU).  Older
 * builds ran more, and Headroom, which has no build number, does not model them:
 *  - from PR #17996 (2025-12-13/16) to the fused op, build_delta_net_autoregressive(): about a
 *    dozen kernels over the [S_v, S_v, H_v] F32 state (EXP, MUL by the gate, MUL·k + SUM_ROWS,
 *    SUB, MUL by beta, REPEAT, MUL, ADD, MUL·q + SUM_ROWS: ~13 state-sized passes against the
 *    fused op's read and write; PR #20091: "12 ops saved" a layer).  A GGML_VULKAN_PERF profile
 *    of that path (Qwen3-Next-80B-A3B Q8_0 on Strix Halo, tg256 = 1281 tokens, a comment of
 *    2026-01-01 on PR #18467) shows 312 MUL a token at 10.1 µs (3.1 ms), 600 CONT at 2.7 µs
 *    (1.6 ms), 144 CONCAT (0.9 ms), 110 ADD (0.7 ms): ~7 ms of a ~44 ms step.  The fused
 *    Vulkan op took Qwen3-Coder-Next (the same qwen3next graph) on Strix Halo from 38.0 to
 *    46.6 t/s (PR #20334);
 *  - before PR #17996 a one-token step ran build_delta_net_chunking(): the token padded to a
 *    64-token chunk (CS = 64) through CUMSUM, TRI, SOLVE_TRI and the chunk mat-muls; #17996
 *    ("short circuits all the recurrent computations for n_seq_tokens == 1") gave "roughly a
 *    40 % bump in token generation".
 * The held-out Qwen3-Next-80B-A3B Q4_K_M row on Strix Halo Vulkan (28.4 t/s, build c6f7a423c
 * (7189) of 2025-11-28, PR #16095) is of that first kind: +91 % against the newest code's
 * estimate.  Carried forward by the two published speed-ups (× 1.4 × 1.226 ≈ 48.8 t/s) it sits
 * ~10 % under the estimate (53.8 t/s).  Not fitted; the accuracy harness counts it (and the
 * build's pp512 row) apart by build, as it does every Gated DeltaNet row of a build before the
 * fused op (tests/accuracy/accuracy.c, delta_net_build_before_fused_op()). */
static double
vk_layer_dispatch_equivalents (const HrModel *m)
{
  double recurrent = 0, blocks = m->n_layers;

  for (guint i = 0; m->layers != NULL && i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);

      if (g->kind == HR_LAYER_RECURRENT)
        recurrent += g->count;
    }
  recurrent = MIN (recurrent, blocks);
  if (m->n_ffn_layers > 0 && m->n_ffn_layers < m->n_layers)
    {
      /* one sub-block a block: FFN and attention blocks half a transformer block each */
      double attention = MAX (blocks - m->n_ffn_layers - recurrent, 0);

      return 0.5 * (m->n_ffn_layers + attention) + HR_CAL_VK_RECURRENT_MIXER * recurrent;
    }
  /* a recurrent mixer in place of the attention half */
  return (blocks - recurrent) + recurrent * (HR_CAL_VK_RECURRENT_MIXER + 0.5);
}

/* Checked for #28, Vulkan decode on NVIDIA (no term added; what a term would need): on the
 * geerlingguy/ai-benchmarks Intel 265K PC (one host, llama-bench tg128, builds of 2025-11-28 …
 * 2025-12-18; the issues name builds 7340 for the RTX 4090 and 7474 for the RTX 2080 Ti), solving
 * each card's tinyllama / Llama 3.2 3B / DeepSeek-R1-Distill-Qwen-14B rows for a per-layer cost
 * and a streaming share gives Ada (RTX 4090, 4070 Ti) 23–28 µs a layer at ~89 % of peak, Turing
 * and Ampere (RTX 2080 Ti, 3060, 3080 Ti) 45–60 µs at 65–74 % for the 14B (which is why one
 * t_layer_us of 58 µs under-predicts Ada's small models and over-predicts the Turing/Ampere 14B
 * rows).  ggml-vulkan.cpp has no code path that tells Ampere from Ada:
 * get_device_architecture() knows NVIDIA_PRE_TURING (no VK_KHR_cooperative_matrix) and
 * NVIDIA_TURING (shaderWarpsPerSM 32); GA10x and AD10x (48 warps) are both OTHER.  Rows per
 * mat-vec workgroup (rm_stdq 1, rm_kq 2 on NVIDIA), the workgroup size rule
 * (ggml_vk_get_dequantize_mul_mat_vec: four subgroups when m ≤ 8192 and k ≥ 1024, Q6_K only
 * below m 4096), the integer-dot choice (ggml_vk_should_use_mmvq on NVIDIA: Q2_K / Q3_K always,
 * otherwise k > 4096, never Q6_K, Q8_0 / MXFP4 only before Turing), flash attention at N = 1
 * (get_fa_tuning_params: scalar) and submission (ggml_backend_vk_graph_compute: every 100 nodes
 * or a FLOP share) are the same on both.  Hardware candidates not modelled: resident workgroups
 * per SM for the one-subgroup mat-vecs (16 on compute capability 7.5 and 8.6, 24 on 8.9 and
 * 12.x, 32 on 8.0, 9.0 and 10.0; CUDA Programming Guide, technical specifications per compute
 * capability) needs SM counts the catalog lacks and does not order Turing below Ampere as the
 * rows do; the GPU clock (dispatch latency in cycles) is not in the catalog either.  The RTX
 * 3090 rows of 2026-05 (llama.cpp PR #21024, Llama 3 8B Q8_0 at 95 t/s: 98 % of peak with 58 µs
 * a layer, 88 % with 25 µs) contradict a blanket Ampere streaming penalty.  The RTX 3090 rows
 * at +34 / +37 % were another era: the PR #13506 branch of 2025-05-14, before the summer-2025
 * fusions; the accuracy test replays those with the 2024 constants (tests/accuracy/accuracy.c,
 * vulkan_build_before_fusions). */

/* Checked for #28, AMD RDNA under Vulkan; no term added, for want of a code path that differs:
 *  - The RX 9070 XT dense rows of b9174 (2026-06, RADV Mesa 26.1.2; maeddesg/vulkanforge wiki,
 *    Benchmarks) are all estimated 15 % low: Llama 3.1 8B Q4_K_M at 119.6 t/s is 8.36 ms a
 *    token, of which 4.63 GB take 7.23 ms at the full 640 GB/s — at bw_eff 0.90 the rest is
 *    10–16 µs a layer, not the table's 58.  The same die (Radeon AI PRO R9700,
 *    geerlingguy/ai-benchmarks#35, an older build, driver not stated) runs at the 58–79 µs the
 *    table holds, an RTX 3090 of PR #21024 (2026-05) at ~51.  ggml-vulkan does the same on RDNA
 *    3 and 4 (get_device_architecture() has no RDNA 4; the mat-vec pipelines are created with
 *    full subgroups of the device's size, RADV's 64, so gpu_pipeline_configs' wave32 default
 *    does not reach them): one subgroup a mat-vec
 *    workgroup on AMD (ggml_vk_get_dequantize_mul_mat_vec; DMMV_WG_SIZE_LARGE is NVIDIA's and
 *    Intel's), rm_kq 2 / rm_stdq 1 rows on every non-GCN AMD (ggml_vk_load_shaders), the
 *    integer-dot MMVQ from k ≥ 2048 (ggml_vk_should_use_mmvq; PR #16900 measured +2 % tg on an
 *    8060S), vendor-neutral fusions and submits (ggml_backend_vk_graph_compute; only AMD cards
 *    under 24 CUs submit more often).  What a dispatch and barrier cost is the driver's and the
 *    card's, not something the code says; the rows disagree by build and driver era, not by
 *    generation.
 *  - Strix Halo (RDNA 3.5) Vulkan rows ran above HR_CAL_LPDDR_PEAK_SHARE (fitted on GB10 under
 *    CUDA) whatever the fixed cost: Llama 8B Q4_0 at 45.4 t/s (PR #18280) is 198 GB/s with
 *    none, 0.78 of 256; a memory controller's figure (rocm_bandwidth_test 212 GB/s, 0.83), not
 *    a path — now the machine's ceiling from the catalog (lpddr_factor()).
 *  - Gemma 4 26B-A4B decodes slower than estimated on every backend (RX 9070 XT Vulkan Q3_K_M
 *    +24 %, held out; RTX 3090 CUDA Q4_0 +12 %, +24 % at depth 32768): its block
 *    (src/models/gemma4-iswa.cpp) adds Q/K/V norms, a post-attention norm, a dense GEGLU MLP
 *    beside the routed experts, pre/post norms of each, the router's own RMS_NORM·SCALE·MUL and
 *    an out_scale MUL — about 31 dispatches after graph_compute's fusions against a llama
 *    block's 14.  Now counted: HrModel.extra_block_kernels (step_fixed_seconds()).
 *  - ROCm rows left high: the W7900 Llama 8B Q6_K -ub 1 row (+28 %, master of PR #17576,
 *    2025-11) streamed at 0.46 of 864 GB/s even with no fixed cost, with the one warp a block
 *    Q6_K had on RDNA 3 until PR #23349 (2026-05, two warps); the MI50 row at depth 32768
 *    (+29 %) is the master column of the gfx906 flash-attention PR #17505.  Older code than
 *    Headroom's current builds describe. */
/* Seconds of fixed cost per decode step or ubatch: kernel launches and syncs per layer, graph
 * launch and sampling per token (the calibration's t_layer_us, t_token_us).  The current CUDA
 * figure (25 µs a layer) is that of cards that replay the step as one CUDA graph.  A card
 * without graphs (cuda_graphs_off()) pays the host launch of every kernel of the layer: the
 * per-layer cost of the CUDA table fitted on 2023–24 builds, most of them from before graphs
 * (hr_calibration_for(), 121 µs).  Not fitted on a Pascal row of current builds: the one
 * there, a Tesla P40, is held out. */
/* The calibrated t_layer_us is that of a llama block's ~14 kernels
 * (hr_model_llama_extra_block_kernels()): on every llama.cpp GPU backend of current builds a
 * block that runs more (Gemma 4: 2 dense, 11 MoE) pays each of them a fourteenth of it — the
 * launch (or dispatch and barrier) and the tail of one dependent small kernel, which is what
 * the per-layer cost is.  Not fitted: the
 * counts are read from the graph builders, the per-kernel cost is the calibration's.  Checked
 * for #28: Gemma 4 26B-A4B decoded 21–64 % slower than estimated on ROCm (RX 7900 XTX, R9700,
 * Strix Halo) and Vulkan (RX 9070 XT, Strix Halo) while Llama 3.1 8B on the same ROCm cards
 * sat within ±5 % and the RX 9070 XT's dense Vulkan rows 15 % under; with the count they are
 * +2 % (Vulkan, RX 9070 XT) to +26 % (ROCm, RX 7900 XTX).  The RTX 3090 CUDA table
 * (+12 % → 0 %) misses alike on Llama 3.1 8B Q4_0 (+22 %), so it shows little. */
#define HR_LLAMA_BLOCK_KERNELS 14.0

/* SYCL MoE decode, the experts' sum, checked for #28 (Intel Xe2 MoE decode rows 55–86 % high on
 * SYCL and Vulkan while the dense rows of the same cards fit).  llama.cpp's build_moe_ffn
 * (src/llama-graph.cpp) adds the n_used weighted expert outputs with n_used − 1 ADD nodes, their
 * views ordered first so the ADDs stand next to each other.  ggml-cuda runs such a chain as one
 * kernel (ggml_cuda_graph_evaluate_and_capture, "multi-(add or mul)": up to eight ADDs,
 * ggml_cuda_op_fused_add), ggml-vulkan too (multi_add, MAX_FUSED_ADDS); ggml-sycl has no such
 * fusion — its graph_compute fuses only what ggml_sycl_fuse (fusion.cpp: MUL_MAT·MUL_MAT·GLU,
 * RMS_NORM·MUL, UNARY·MUL) and the top-k MoE (topk-moe.cpp, llama.cpp PR #25217) take, as of
 * ggml-org/ggml of 2026-08-21 — so each ADD is a kernel of its own: n_used − 2 more than a
 * calibrated MoE block (hr_model_llama_extra_block_kernels()) on every MoE layer, each a
 * fourteenth of SYCL's t_layer_us (6 for Qwen3's and Qwen3.5's eight experts: 1.0 ms a token on
 * an Arc Pro B60, Qwen3.6-35B-A3B).  Counted, not fitted; no fitted row is a current SYCL MoE
 * decode row.  Builds before PR #25217 (merged 2026-07-13) also ran the routing that it fuses
 * (SOFT_MAX, ARGSORT, GET_ROWS, SUM_ROWS, CLAMP, DIV: 6 kernels for its one): the accuracy
 * harness replays rows of such builds with those 5 more (tests/accuracy/accuracy.c,
 * sycl_build_before_topk_moe).  With both, the Arc Pro B60 Qwen3.6-35B-A3B Q4_K_M tg128 rows
 * of the same tester go from +36 / +49 % to +16 / +26 % (llama.cpp PR #24452, 2026-06-13: 68.79
 * t/s on the PR's branch, 62.84 on master before it, whose experts still ran the non-reordered
 * MMVQ layout — the PR reorders Q4_K/Q5_K/Q6_K experts for the fused MUL_MAT_ID as dense
 * weights are; that era is not modelled) and the b9159 row from +86 % to +58 % (50.29 t/s on a
 * build whose log warns "asserts enabled, performance may be affected"). */
static double
sycl_moe_unfused_kernels (const Sizing *z)
{
  if (!(z->current && z->llama && !z->on_cpu && z->backend == HR_BACKEND_SYCL) || !hr_model_is_moe (z->m))
    return 0;
  return (double) hr_model_moe_layers (z->m) * MAX (z->m->n_experts_used - 2, 0);
}

static double
step_fixed_seconds (const Sizing *z)
{
  double t_layer = cuda_graphs_off (z) ? hr_calibration_for (HR_BACKEND_CUDA)->t_layer_us : z->cal->t_layer_us;
  double layers = z->m->n_layers;

  if (z->current && z->llama && !z->on_cpu && z->backend == HR_BACKEND_VULKAN)
    layers = vk_layer_dispatch_equivalents (z->m);
  if (z->current && z->llama && !z->on_cpu && z->m->extra_block_kernels > 0)
    layers += (double) z->m->n_layers * z->m->extra_block_kernels / HR_LLAMA_BLOCK_KERNELS;
  layers += sycl_moe_unfused_kernels (z) / HR_LLAMA_BLOCK_KERNELS;
  return (t_layer * layers + z->cal->t_token_us) * 1e-6;
}

/* llama.cpp runs a MUL_MAT_ID of up to this many tokens through its mat-vec kernels (ggml-cuda
 * mmvq.cuh, MMVQ_MAX_BATCH_SIZE), larger ones through the tiled MMQ / GEMM kernels. */
#define LLAMA_MMVQ_MAX_TOKENS 8

/* The weights' main type as a llama-quantize mix names it: "Q4_K" of "Q4_K_M" and
 * "UD-Q4_K_XL", "Q6_K" of "Q6_K", "IQ4_XS" of "IQ4_XS", "MXFP4" of "MXFP4_MOE". */
static gboolean
quant_main_type_is (const char *quant,
                    const char *type)
{
  gsize n = strlen (type);

  if (quant == NULL)
    return FALSE;
  if (g_str_has_prefix (quant, "UD-"))
    quant += 3;
  return g_ascii_strncasecmp (quant, type, n) == 0 && (quant[n] == '\0' || quant[n] == '_');
}

/* How many warps of 32 ggml-cuda's mul_mat_vec_q gives a block for one token on an AMD RDNA
 * card under ROCm (mmvq.cu, calc_nwarps() with ncols_dst 1; the ids-indexed MUL_MAT_ID of a
 * decode step takes the same kernel):
 *  - RDNA 4 (MMVQ_PARAMETERS_RDNA4, ggml-org/llama.cpp PR #19478, 2026-03): 8 for the types
 *    with a simple vec_dot — Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q4_K, Q5_K, Q6_K, IQ4_NL,
 *    IQ4_XS — and 1 for the others ("Q3_K, IQ2_*, IQ3_* regress due to register pressure"),
 *    MXFP4 among them;
 *  - RDNA 3 (gfx1100-1102, MMVQ_PARAMETERS_RDNA3_0, same PR): 8 for Q4_0, Q4_1, Q5_0, Q5_1,
 *    Q8_0 and IQ4_NL, 2 for Q6_K (PR #23349, 2026-05), 1 otherwise;
 *  - RDNA 2 and RDNA 3.5 (MMVQ_PARAMETERS_RDNA2): 1.
 * 0 for a card that is not RDNA. */
static int
rdna_mmvq_warps (const HrGpu *gpu,
                 const char  *quant)
{
  static const char *const rdna4_wide[] = { "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q4_K",
                                            "Q5_K", "Q6_K", "IQ4_NL", "IQ4_XS" };
  static const char *const rdna3_wide[] = { "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "IQ4_NL" };

  if (gpu == NULL)
    return 0;
  switch (gpu->generation)
    {
    case HR_GEN_RDNA4:
      for (guint i = 0; i < G_N_ELEMENTS (rdna4_wide); i++)
        if (quant_main_type_is (quant, rdna4_wide[i]))
          return 8;
      return 1;
    case HR_GEN_RDNA3:
      for (guint i = 0; i < G_N_ELEMENTS (rdna3_wide); i++)
        if (quant_main_type_is (quant, rdna3_wide[i]))
          return 8;
      return quant_main_type_is (quant, "Q6_K") ? 2 : 1;
    case HR_GEN_RDNA2:
    case HR_GEN_RDNA3_5:
      return 1;
    default:
      return 0;
    }
}

/* Weight columns one block of ggml-cuda's mul_mat_vec_q covers per pass of its loop over a row
 * (mmvq.cu: blocks_per_iter = vdr × nwarps × warp_size / qi quant blocks of qk weights), for
 * experts of @bpw bits per weight run in blocks of @warps warps of 32: each warp covers 512
 * weights for the 4- and 5-bit types (Q4_0, Q4_K, Q5_K, MXFP4: vdr 2, 8 weights an int; Q2_K/
 * Q3_K vdr 1, 16) and 256 for Q6_K (vdr 1, VDR_Q6_K_Q8_1_MMVQ on every target) and Q8_0 (4
 * weights an int).  With one token (ncols_dst 1) calc_nwarps() gives 4 warps of 32 on NVIDIA
 * and GCN/CDNA (2 of 64): 2048 and 1024 weights.  AMD RDNA: mmvq_block_warps(). */
static double
mmvq_cols_per_pass (double bpw,
                    int    warps)
{
  return (bpw >= 6.0 ? 256 : 512) * warps;
}

/* The warps of 32 in a block of ggml-cuda's batch-1 mul_mat_vec_q for weights of @type_name
 * (a ggml type, or a mix whose main type it is).  calc_nwarps() picks them by type, one-token
 * width and the device's table (get_device_table_id()) and nothing else: the ids-indexed
 * MUL_MAT_ID of a decode step (ncols_dst 1, one channel per chosen expert) launches the same
 * block shape (calc_launch_params(); the small-K widening is never taken on RDNA,
 * should_use_small_k()).  4 on NVIDIA and GCN/CDNA (the generic table; GCN's 2 of 64; Turing's
 * table gives the k-quants 2, not counted: no row to check it on), rdna_mmvq_warps() on RDNA:
 * RDNA 4 runs Q6_K, Q8_0 and the 4-bit k-quants in eight warps, RDNA 3 Q8_0 in eight and Q6_K
 * in two, RDNA 2 and RDNA 3.5 in one.  ggml_cuda_mul_mat_id() takes this kernel for one token
 * on every AMD type (get_mmvq_mmid_max_batch() is 4 or more; the multi-token MoE kernel
 * mul_mat_vec_q_moe only from two).
 *
 * Checked for #28 on the fitted ROCm MoE rows of PR #26284's master column (Gemma 4 26B-A4B
 * Q6_K, tg64): the RX 7900 XTX (88.5 t/s) was estimated +23 % with one warp counted for every
 * type, −8 % with these blocks; the R9700 (81.1 t/s) +18.5 % → −21 %: its eight-warp blocks
 * lose less on the short rows than a full pass a step says — not fitted away, there is one
 * row.  Checked again for #28 against mmvq.cu (ggml-org/ggml d99724f, 2026-08-21; the RDNA 4
 * table since PR #19478): the code gives the R9700 the step counts counted here, so the gap
 * stays unexplained.  A pass is blocks_per_iter = vdr × nwarps × warp_size / qi quant blocks:
 * Q6_K (qk 256, qi 32, vdr 1) and Q8_0 (qk 32, qi 8, vdr 2) 256 weights a warp, 2048 with
 * eight; calc_rows_per_block() is 1 on every RDNA table (the small-K rows_per_block = nwarps
 * is for the generic / GCN / Turing / GB10 tables only, and should_use_small_k() refuses RDNA).
 * The 26B-A4B Q6_K file's gate/up experts (Q6_K, 2816 columns = 11 super-blocks) take two
 * passes on RDNA 4 (all eight warps, then three; ×2.18) and six on RDNA 3's two (×1.27); its
 * down experts (Q8_0: 704 columns are no multiple of 256) take one pass of 22 of 64 blocks,
 * 88 of 256 threads, on both (Q8_0 has eight warps in both tables; ×5.82).  Even RDNA 3's
 * ×1.27 on the R9700's gate/up leaves its rows at −15 % / −13 % (held out; tried, not kept), so
 * the loss the rows do not show is not in the pass width; no code path found makes RDNA 4's
 * idle warps cheaper than RDNA 3's.  On NVIDIA small-K (PR #20635, 2026-03; narrowed by PR
 * #20905) does reach the ids path: rows shorter than one four-warp pass (Gemma 4's 704-column,
 * Qwen3-30B-A3B's 768-column down experts) run four rows a block, each busy thread reading all
 * four, but the idle share of each pass is the same per row: with a step costing the block's
 * full pass (now four rows' worth) the factor is unchanged, so nothing is charged for it.
 * GB10's eight-warp halve_iters is never taken with ids (should_halve_iters()): no NVIDIA
 * device runs the ids-indexed kernel in eight warps.
 * Strix Halo (RDNA 3.5, unified) runs the same one-warp kernel under ROCm and Vulkan's
 * mul_mat_vec_id (64-lane workgroups, passes as wide or wider: vk_mat_vec_cols_per_pass())
 * reads its id first too, so no code path makes ROCm pay id steps that Vulkan does not; both
 * keep the unified rule (DGX Spark's rows) and the ROCm Qwen3.6-35B-A3B row stays +21 % (Vulkan
 * +10 %), ROCm's dense row there +6.5 % (Vulkan +2 %). */
static int
mmvq_block_warps (const HrGpu *gpu,
                  const char  *type_name)
{
  int rdna = rdna_mmvq_warps (gpu, type_name);

  return rdna > 0 ? rdna : 4;
}

/* ggml-vulkan's batch-1 MUL_MAT_ID (ggml_vk_mul_mat_vec_id_q_f16) is built the same way as
 * ggml-cuda's: one dispatch, grid.y over the chosen experts, one workgroup per rm rows of one
 * expert that first reads its expert id (mul_mat_vec_base.glsl, data_ids) and then walks its rows
 * in passes.  A pass is BLOCK_SIZE threads × K_PER_ITER 8 weights for the legacy quants and MXFP4
 * (vulkan-shaders/mul_mat_vec.comp) or BLOCK_SIZE / 16 super-blocks of 256 for the k-quants
 * (mul_mat_vec_q*_k.comp: 16 threads a super-block).  BLOCK_SIZE is one subgroup (NVIDIA 32,
 * AMD 64, Intel forced to 16), or four of them on NVIDIA Turing and later and on Intel when the
 * matrix has at most 8192 rows of at least 1024 columns (ggml_vk_get_dequantize_mul_mat_vec_id:
 * "prefer larger workgroups when M is small"; 4096 rows for Q6_K, which the experts' bits per
 * weight do not tell apart here).  gpt-oss-20b's 2880-column MXFP4 rows on NVIDIA: 128 × 8 =
 * 1024 weights a pass; Qwen3-30B-A3B's Q4_K gate/up (2048 columns): 2048 a pass, its 768-column
 * down rows (under 1024 columns: one subgroup) 512.  The integer-dot variant (B quantized to
 * Q8_1: ggml_vk_should_use_mmvq, e.g. Q2_K/Q3_K on NVIDIA, k ≥ 2048 on AMD) has its own shader
 * (mul_mat_vecq.comp) and is counted with the same widths. */
static double
vk_mat_vec_cols_per_pass (const HrGpu *gpu,
                          gboolean     kquant,
                          double       ncols,
                          double       nrows)
{
  const char *vendor = gpu->vendor != NULL ? gpu->vendor : "";
  gboolean nvidia = g_ascii_strcasecmp (vendor, "NVIDIA") == 0;
  gboolean intel = g_ascii_strcasecmp (vendor, "Intel") == 0;
  double subgroup, threads;

  switch (gpu->generation)
    {
    case HR_GEN_TURING: case HR_GEN_AMPERE: case HR_GEN_ADA: case HR_GEN_HOPPER: case HR_GEN_BLACKWELL:
      nvidia = TRUE;
      break;
    case HR_GEN_PASCAL: case HR_GEN_VOLTA:
      /* NVIDIA_PRE_TURING keeps one subgroup a workgroup */
      nvidia = FALSE;
      break;
    case HR_GEN_XE_LPG: case HR_GEN_XE_HPG: case HR_GEN_XE2:
      intel = TRUE;
      break;
    default:
      break;
    }
  subgroup = intel ? 16 : nvidia ? 32 : 64;
  threads = subgroup;
  if ((nvidia || intel) && nrows <= 8192 && ncols >= 1024)
    threads = 4 * subgroup;
  return kquant ? threads / 16 * 256 : threads * 8;
}

/* The generations whose Vulkan expert mat-vecs pay the dependent steps the way ggml-cuda's do
 * (moe_expert_rate_seconds): NVIDIA Turing and Ampere and AMD RDNA discrete cards.  The fitted
 * dev rows decide this, not a documented difference: gpt-oss-20b under Vulkan loses about the
 * step model's ×2.1 per expert byte on an RTX 3060, RTX A4000 and RTX 3090 (Ampere) and on
 * RDNA 4 (RX 9070 XT, Radeon AI PRO R9700), while an RTX 4090 and RTX 4070 Ti (Ada) stream the
 * same kernel nearly at the DRAM rate (a fifth to a third of the loss) and an RTX 5090
 * (Blackwell) runs Qwen3-30B-A3B and Nemotron-3-Nano faster than the bytes alone predict.  The
 * code path is the same on all NVIDIA parts from Turing on; Ada and Blackwell hide the
 * dependent id read and the short rows' partial passes, for a reason we have not pinned down
 * (the RTX 4080's CUDA row, −20 % with the step model, points the same way).  Unknown and
 * other generations: no loss claimed.
 *
 * Intel Xe2, checked for #28 and left out: the code gives it NVIDIA's structure — the f32-B
 * mul_mat_vec_id workgroups of four 16-lane subgroups for ≤ 8192 rows of ≥ 1024 columns
 * (ggml_vk_get_dequantize_mul_mat_vec_id), one subgroup for the integer-dot variant on Intel,
 * which ggml_vk_should_use_mmvq gives Xe2 for Q2_K / Q3_K / Q6_K and, on the Windows
 * proprietary driver, nothing else (llama.cpp issue #17628, PR #23056) — so nothing in it puts
 * Xe2 with Ampere rather than Ada; by this list's rule its rows would have to show the step
 * model's loss, and the one fitted Xe2 Vulkan MoE row does not single it out: the Arc Pro B60
 * Qwen3-30B-A3B Q4_K_M tg128 (b9837, Windows prebuilt; 83.4 t/s) is +60 % without the steps
 * and still +38 % with them (115.4 t/s), a gap of ~3 ms a token the expert bytes do not
 * explain.  Nor does the routing: ggml-vulkan fuses it for every vendor since PR #16641
 * (2025-10-18, ggml_vk_can_fuse_topk_moe); its multi-ADD of the experts' sum needs
 * shaderRoundingModeRTEFloat16 (device->multi_add), a driver property no source here states
 * for Intel's Windows driver.  No dense Xe2 Vulkan row of current builds exists to size
 * that driver's per-dispatch cost, the other candidate. */
static gboolean
vk_id_steps_exposed (const HrGpu *gpu)
{
  switch (gpu->generation)
    {
    case HR_GEN_TURING:
    case HR_GEN_AMPERE:
    case HR_GEN_RDNA2:
    case HR_GEN_RDNA3:
    case HR_GEN_RDNA4:
      return TRUE;
    default:
      return FALSE;
    }
}

/* How many times its bytes an expert matrix costs in the ids-indexed mat-vec: each row is one
 * block whose dependent steps are the id read and then ceil(@ncols / pass) passes over the
 * row, and every step costs as much as a full pass (1 + ceil(ncols / pass)) × pass / ncols. */
static double
mmvq_id_row_factor (double ncols,
                    double pass)
{
  if (!(ncols > 0) || !(pass > 0))
    return 1.0;
  return (1.0 + ceil (ncols / pass)) * pass / ncols;
}

/* ggml-cuda's expert factor for moe_id_step_factor(): each expert
 * matrix costs mmvq_id_row_factor() times its bytes with the pass of its own ggml type
 * (llama-quantize's, hr_quant_tensor_type(), block by block: Q4_K_M gives some blocks' down
 * experts Q6_K, and rows that are no multiple of 256 fall back to a 32-weight type — Gemma 4
 * 26B-A4B's 704-column down experts are Q8_0 in its Q6_K file) and the block its type gets
 * (mmvq_block_warps()).  gpt-oss keeps its experts MXFP4 in every mix; a mix the table does
 * not know (Unsloth's UD-) is counted at the experts' mean bits per weight and its main type. */
static double
mmvq_id_expert_factor (const Sizing *z)
{
  const HrModel *m = z->m;
  gboolean mxfp4 = fabs (z->expert_bpw - 4.25) <= 0.01;
  double num = 0, den = 0, factor;

  for (int b = 0; b < m->n_layers && !mxfp4; b++)
    {
      const HrGgmlType *in = hr_quant_tensor_type (z->s->quant, HR_TENSOR_FFN_UP_EXPS, b, m->n_layers,
                                                   m->n_experts, 1, m->hidden);
      const HrGgmlType *out = hr_quant_tensor_type (z->s->quant, HR_TENSOR_FFN_DOWN_EXPS, b, m->n_layers,
                                                    m->n_experts, 1, m->moe_intermediate);
      double bpw_in, bpw_out, f_in, f_out;

      if (in == NULL || out == NULL || in->name == NULL || out->name == NULL)
        {
          num = den = 0;
          break;
        }
      bpw_in = hr_ggml_type_bpw (in);
      bpw_out = hr_ggml_type_bpw (out);
      f_in = mmvq_id_row_factor (m->hidden, mmvq_cols_per_pass (bpw_in, mmvq_block_warps (z->gpu, in->name)));
      f_out = mmvq_id_row_factor (m->moe_intermediate,
                                  mmvq_cols_per_pass (bpw_out, mmvq_block_warps (z->gpu, out->name)));
      /* gate and up: moe_intermediate rows of n_embd; down: n_embd rows of moe_intermediate */
      if (m->ffn_ungated)
        {
          num += bpw_in * f_in + bpw_out * f_out;
          den += bpw_in + bpw_out;
        }
      else
        {
          num += 2 * bpw_in * f_in + bpw_out * f_out;
          den += 2 * bpw_in + bpw_out;
        }
    }
  if (den > 0)
    factor = num / den;
  else
    {
      const char *type = mxfp4 ? "MXFP4" : z->s->quant;
      double pass = mmvq_cols_per_pass (z->expert_bpw, mmvq_block_warps (z->gpu, type));
      double f_in = mmvq_id_row_factor (m->hidden, pass);
      double f_out = mmvq_id_row_factor (m->moe_intermediate, pass);

      factor = m->ffn_ungated ? (f_in + f_out) / 2 : (2 * f_in + f_out) / 3;
    }
  return factor;
}

/* What one byte of a routed expert costs in bytes' time in the ids-indexed mat-vec of a step
 * of a few tokens (moe_expert_rate_seconds()), from the experts' types, shapes and the device:
 * the same for every step of one estimate, so it is worked out once, when the experts' bits per
 * weight are known (a ggml-cuda estimate walks every block's tensor types).  1: no loss; 0: the step model does not
 * apply (unified memory, unknown expert shapes, a calibration without it: the ceiling rule). */
static double
moe_id_step_factor (const Sizing *z)
{
  const HrModel *m = z->m;
  double f_in, f_out, factor;

  if (!hr_model_is_moe (m) || !z->llama || !(z->cal->moe_step > 0) || z->unified ||
      !(z->expert_bpw > 0) || m->hidden <= 0 || m->moe_intermediate <= 0)
    return 0;
  if (z->backend != HR_BACKEND_VULKAN)
    factor = mmvq_id_expert_factor (z);
  else
    {
      /* the experts' type: MXFP4 (4.25 bits, gpt-oss in every GGUF mix) and the legacy
       * quants run mul_mat_vec.comp, the k-quant mixes their own shaders */
      gboolean kquant = fabs (z->expert_bpw - 4.25) > 0.01 && strstr (z->s->quant, "_K") != NULL;

      if (!vk_id_steps_exposed (z->gpu))
        return 1;
      /* gate and up: moe_intermediate rows of n_embd; down: n_embd rows of moe_intermediate */
      f_in = mmvq_id_row_factor (m->hidden, vk_mat_vec_cols_per_pass (z->gpu, kquant, m->hidden,
                                                                      m->moe_intermediate));
      f_out = mmvq_id_row_factor (m->moe_intermediate, vk_mat_vec_cols_per_pass (z->gpu, kquant,
                                                                                 m->moe_intermediate,
                                                                                 m->hidden));
      factor = m->ffn_ungated ? (f_in + f_out) / 2 : (2 * f_in + f_out) / 3;
    }
  return MAX (factor * z->cal->moe_step, 1.0);
}

/* What a step loses to the expert mat-vecs of its MoE layers.  llama.cpp's MoE FFN
 * (build_moe_ffn in src/llama-graph.cpp) reads the chosen experts through ggml_mul_mat_id for
 * up/gate and down; with a few tokens in the step ggml-cuda runs each as one ids-indexed MMVQ
 * launch (ggml_cuda_mul_mat_vec_q with ids, mmvq.cu mul_mat_vec_q: one block per expert row —
 * 128 threads on NVIDIA, by type on RDNA, mmvq_block_warps() — grid.y over the k chosen
 * experts; the block first reads its expert id (ids[channel_dst]), only then its row, in passes
 * of mmvq_cols_per_pass() weights).  The
 * expert rows are short — gate/up rows are n_embd long, down rows the expert width (768 for
 * Qwen3-30B-A3B: 432 bytes at Q4_0, less than a quarter of a pass; 2880 for gpt-oss-20b: one
 * pass and a half) — so a block spends as many dependent memory latencies on the id read and
 * on a half-empty last pass as on full passes.  A discrete card keeps just enough blocks in
 * flight to stream full passes at its DRAM rate (dense mat-vecs reach bw_eff), so each
 * dependent step costs the DRAM time of a full pass: an expert matrix of rows @ncols long
 * costs mmvq_id_row_factor() times its bytes (Qwen3-30B-A3B at Q4_0: gate/up ×2, down ×5.3;
 * gpt-oss-20b ×2.1; GLM-4.5-Air's 4096-column gate/up ×1.5, its 1408-column down ×2.9).
 * Longer rows fill their passes: the loss shrinks toward the one id read.  The card's
 * parallelism enters through its bandwidth: the number of blocks a discrete card keeps in
 * flight (SMs × resident blocks) is sized to its memory bus (RTX 3090 82 SMs at 936 GB/s, 4090
 * 128 at 1008, 5090 170 at 1792), so the latency-bound rate scales with the bandwidth and the
 * row shape, not a constant.  Unified-memory parts (GB10, Strix Halo, Apple) carry more SMs
 * per GB/s of LPDDR (GB10: 48 at 273 GB/s) and stream their experts at the DRAM rate (the DGX
 * Spark rows); Metal keeps its measured ceiling moe_gbs (kernel_mul_mv_id_*).  The
 * calibration's moe_step scales the step cost (1.0: the kernel's own; 0: none).  Larger steps
 * (a prefill ubatch, a server batch past LLAMA_MMVQ_MAX_TOKENS tokens) run the tiled kernels
 * instead. */
static double
moe_expert_rate_seconds (const Sizing *z,
                         double        tokens,
                         double        rate)
{
  const HrModel *m = z->m;
  double ceiling = z->cal->moe_gbs * 1e9, expert_bytes;

  if (!hr_model_is_moe (m) || !z->llama || tokens > LLAMA_MMVQ_MAX_TOKENS || !(rate > 0))
    return 0;
  /* the experts one step reads on the device */
  expert_bytes = z->gpu_expert_bytes * expert_union_share (m, tokens);
  if (z->moe_id_factor > 0)
    return expert_bytes * (z->moe_id_factor - 1) / rate;
  if (!(ceiling > 0) || !(rate > ceiling))
    return 0;
  return expert_bytes / ceiling - expert_bytes / rate;
}

/* The fraction of peak bandwidth the decode mat-vecs reach: the backend's, except on Intel
 * Xe-HPG (Arc A-series, Alchemist) under SYCL and Vulkan, where llama.cpp's mat-vec kernels run
 * each weight row on one 16-lane subgroup (ggml-sycl mmvq.cpp: block_dims (1, GGML_SYCL_MMV_Y = 1,
 * WARP_SIZE = 16) per row; ggml-vulkan.cpp: Intel's subgroup forced to 16, and the
 * integer-dot mat-vec kept at one subgroup a workgroup on Intel in
 * ggml_vk_get_dequantize_mul_mat_vec(_id)) and Alchemist's vector engines are 8 wide (Xe2's
 * are 16): the row loop, not the DRAM, sets the pace (ggml-org/llama.cpp PR #21995: spreading a
 * Q4_0 row over more subgroups lifts an A770's decode by 50 %).  HR_CAL_XE_HPG_DECODE_EFF
 * (hr-calibration.h) is that pace as a share of the datasheet bandwidth. */
static double
decode_bw_eff (const Sizing *z)
{
  if (z->backend == HR_BACKEND_ROCM && z->current && !z->on_cpu && rdna_mmvq_warps (z->gpu, z->s->quant) >= 4)
    /* ROCm's 0.80 stands for the one-warp block of the RDNA 2 table (lpddr_factor()); a type
     * the RDNA 4 / RDNA 3 tables give eight warps (rdna_mmvq_warps()) runs more loads in
     * flight a block than CUDA's four on NVIDIA, so it streams at CUDA's bw_eff — not a fit:
     * the R9700 Q6_K row (ggml-org/llama.cpp PR #18816, 80.1 t/s, a build from before the RDNA 4
     * table) already streamed its weights at ≥ 0.9 of the peak with one warp */
    return MAX (z->cal->bw_eff, hr_calibration_speed (HR_BACKEND_CUDA, HR_ENGINE_VERSION_CURRENT)->bw_eff);
  if ((z->backend == HR_BACKEND_SYCL || z->backend == HR_BACKEND_VULKAN) && !z->on_cpu &&
      z->gpu->generation == HR_GEN_XE_HPG)
    return MIN (z->cal->bw_eff, HR_CAL_XE_HPG_DECODE_EFF);
  return z->cal->bw_eff;
}

/* Current builds on LPDDR5X unified memory other than Apple's (GB10, Strix Halo) stream weights
 * at no more than HR_CAL_LPDDR_PEAK_SHARE of the memory's peak: decode steps, and the prefill
 * ubatches that stream the weights once each (with -ub 1 each is a decode step); the factor
 * on the backend's bw_eff (the KV reads scale with it).  It is a ceiling, not a factor on
 * every backend: a backend whose kernels reach less than 0.92 of a discrete card's GDDR is
 * held back there by its own kernel, and multiplying both counted that limit twice.  ROCm's
 * 0.80 is its mat-vec on RDNA: mmvq.cu runs one warp of 32 per block there (calc_nwarps(),
 * MMVQ_PARAMETERS_RDNA2; 4 warps on NVIDIA), a quarter of the loads in flight per block, a
 * limit that binds on a 7900 XTX's 960 GB/s over 96 CUs (10 GB/s a CU) more than on Strix
 * Halo's 256 GB/s over 40 CUs (6.4); the types the RDNA 4 / RDNA 3 tables give eight warps
 * stream at CUDA's rate (decode_bw_eff()).
 *
 * The ceiling is the memory subsystem's, not the engine's: where the catalog records what a
 * public memory benchmark reached on the device's GPU (bandwidth_measured_gbs, with its source
 * in data/gpus.json: Strix Halo's rocm_bandwidth_test, 212 of 256 GB/s), the share of the peak
 * it measured; HR_CAL_LPDDR_PEAK_SHARE (fitted on GB10 under CUDA) only where no measurement is
 * known — GB10 / DGX Spark among them: no public GPU memory-bandwidth test of it was found.  On
 * Strix Halo ROCm's one-warp 0.80 then binds below the memory's 0.83: the Strix Halo ROCm row
 * of current builds (Llama 3.2 3B Q4_K_M, 75.0 t/s), at the 0.736 ceiling before, is estimated
 * 6.5 % high; Vulkan's dense rows, 9–18 % low under 0.736, come within a few percent. */
static double
lpddr_peak_share (const HrGpu *gpu)
{
  if (gpu->bandwidth_measured_gbs > 0 && gpu->bandwidth_gbs > 0
      && gpu->bandwidth_measured_gbs <= gpu->bandwidth_gbs)
    return gpu->bandwidth_measured_gbs / gpu->bandwidth_gbs;
  return HR_CAL_LPDDR_PEAK_SHARE;
}

static double
lpddr_factor (const Sizing *z)
{
  double bw_eff = decode_bw_eff (z);

  if (!(z->current && z->unified && !z->on_cpu && z->backend != HR_BACKEND_METAL) || !(bw_eff > 0))
    return 1.0;
  return MIN (1.0, lpddr_peak_share (z->gpu) / bw_eff);
}

/* The parts of one decode step for this scenario (decode_step() adds them up). */
static void
decode_step_setup (const Sizing     *z,
                   const HrEstimate *out,
                   double            weights_read,
                   double            tokens,
                   DecodeStep       *d)
{
  const HrScenario *s = z->s;
  const HrCalibration *cal = z->cal;
  double resident = out->weights.bytes - out->weights.mtp_bytes - out->weights.embd_bytes;
  double gpu_share = resident > 0 ? CLAMP (1.0 - z->cpu_weight_bytes / resident, 0, 1) : 1;
  double bw_eff = decode_bw_eff (z);
  double kv_eff = MIN (bw_eff, s->flash_attn ? MIN (cal->bw_eff, cal->kv_eff * HR_CAL_FA_KV_GAIN) : cal->kv_eff);
  double lpddr = lpddr_factor (z);

  memset (d, 0, sizeof *d);
  d->w_gpu = weights_read * gpu_share;
  d->w_cpu = weights_read * (1 - gpu_share);
  d->cpu_layers_frac = z->cpu_layers_frac;
  d->par = z->server ? z->n : 1; /* TP reads in parallel; a layer split runs the devices in turn */
  d->w_rate = z->bw * bw_eff * lpddr;
  d->kv_rate = z->bw * kv_eff * lpddr;
  d->cpu_rate = hr_estimate_host_bandwidth (s) * CPU_BW_EFF;
  d->t_fixed = step_fixed_seconds (z);
  d->t_fixed += moe_expert_rate_seconds (z, tokens, d->w_rate);
  if (z->server)
    /* the engine's host work between steps (hr_estimate_step_host_seconds) */
    d->t_fixed += hr_estimate_step_host_seconds (s);
  if (z->server && z->n > 1)
    /* two all-reduces per layer */
    d->t_fixed += 2.0 * z->m->n_layers * (z->gpu->form == HR_FORM_DATACENTER ? 8e-6 : 25e-6);
  else if (z->n > 1)
    d->t_fixed += (z->n - 1) * cal->t_hop_us * 1e-6;
  d->t_compute = isfinite (z->tflops) ? 2.0 * z->active_params * tokens / (z->tflops * d->par) : 0;
}

/* @format with the ' flag (group thousands) added to every number conversion: "%.0f GB/s" →
 * "%'.0f GB/s", also after a translator's "%2$". */
static char *
grouped_format (const char *format)
{
  GString *out = g_string_new (NULL);

  for (const char *p = format; *p; p++)
    {
      g_string_append_c (out, *p);
      if (*p != '%')
        continue;
      if (p[1] == '%')
        {
          g_string_append_c (out, *++p);
          continue;
        }
      {
        gsize digits = strspn (p + 1, "0123456789");
        gsize spec;

        if (digits > 0 && p[1 + digits] == '$')
          {
            g_string_append_len (out, p + 1, digits + 1);
            p += digits + 1;
          }
        spec = strspn (p + 1, "-+ #0'.123456789hlLqjzt");
        if (p[1 + spec] != '\0' && strchr ("dfiuFgG", p[1 + spec]) != NULL)
          g_string_append_c (out, '\'');
      }
    }
  return g_string_free (out, FALSE);
}

/* @format printed with its arguments, the thousands grouped when @grouped. */
static char * G_GNUC_PRINTF (2, 3)
basis_printf (gboolean    grouped,
              const char *format,
              ...)
{
  g_autofree char *with_groups = grouped ? grouped_format (format) : NULL;
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (with_groups != NULL ? with_groups : format, args);
  va_end (args);
  return text;
}

static char *
basis_format (const HrBasis *b,
              gboolean       grouped)
{
  const double *f = b->figures;

  switch (b->kind)
    {
    case HR_BASIS_DECODE_RAM_UNKNOWN:
      return g_strdup (_("unknown: the system RAM bandwidth is not known"));
    case HR_BASIS_DECODE_DEVICE_UNKNOWN:
      return g_strdup (_("unknown: the device's memory bandwidth is not published"));
    case HR_BASIS_DECODE_COMPUTE:
      if (b->path == HR_COMPUTE_PATH_DP4A)
        return basis_printf (grouped, _("compute-bound: %d sequences × %.1f B active parameters at %.1f TOPS achieved (int8 dp4a)"),
                             b->count, f[0], f[1]);
      if (b->path == HR_COMPUTE_PATH_FP32)
        return basis_printf (grouped, _("compute-bound: %d sequences × %.1f B active parameters at %.1f TFLOPS achieved (FP32)"),
                             b->count, f[0], f[1]);
      return basis_printf (grouped, _("compute-bound: %d sequences × %.1f B active parameters at %.0f TFLOPS achieved"),
                           b->count, f[0], f[1]);
    case HR_BASIS_DECODE_MEMORY:
      return basis_printf (grouped, _("memory-bound: %.2f GiB read per token at %.0f%% of %.0f GB/s + %.1f ms fixed%s"),
                           f[0], f[1], f[2], f[3], b->system_ram ? _(" (+ system RAM)") : "");
    case HR_BASIS_PREFILL_CORES_UNKNOWN:
      return g_strdup (_("unknown: the number of CPU cores is not known"));
    case HR_BASIS_PREFILL_DEVICE_UNKNOWN:
      return g_strdup (_("unknown: the device's FP16 throughput is not published"));
    case HR_BASIS_PREFILL_CPU:
      return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token on %d CPU cores at %.0f GFLOPS each"),
                           f[0], b->count, f[1]);
    case HR_BASIS_PREFILL_GPU_CORES:
      return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token on %d GPU cores at %.2f TFLOPS each (fitted)"),
                           f[0], b->count, f[1]);
    case HR_BASIS_PREFILL_PATH_UNKNOWN:
      return g_strdup (_("unknown: on a Pascal card without fast FP16 only llama.cpp's CUDA paths (int8 dp4a, FP32) are modelled"));
    case HR_BASIS_PREFILL_TENSOR:
      if (b->path == HR_COMPUTE_PATH_DP4A)
        return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token at %.1f of %.1f peak TOPS (int8 dp4a)"),
                             f[0], f[1], f[2]);
      if (b->path == HR_COMPUTE_PATH_FP32)
        return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token at %.1f of %.1f peak TFLOPS (FP32)"),
                             f[0], f[1], f[2]);
      return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token at %.0f of %.0f peak TFLOPS"),
                           f[0], f[1], f[2]);
    case HR_BASIS_PREFILL_INT8:
      /* TRANSLATORS: quantized prefill on NVIDIA int8 tensor cores (llama.cpp's MMQ kernels),
       * e.g. "compute-bound: 16.2 GFLOP per token on int8 tensor cores (MMQ) at 218 of 661
       * peak TOPS" */
      return basis_printf (grouped, _("compute-bound: %.1f GFLOP per token on int8 tensor cores (MMQ) at %.0f of %.0f peak TOPS"),
                           f[0], f[1], f[2]);
    case HR_BASIS_DECODE_DEVICES:
      if (b->count == 1)
        /* TRANSLATORS: a setup of several GPUs whose layers all sit on one of them (the model
         * fits on the fastest), e.g. "one device holds the layers, the RTX 4090 24GB: 16.43 GiB
         * read per token; it takes 100% of the time at 1008 GB/s; + 1.6 ms fixed" */
        return basis_printf (grouped, _("one device holds the layers, the %s: %.2f GiB read per token; it takes %.0f%% of the time at %.0f GB/s; + %.1f ms fixed%s"),
                             b->device, f[0], f[1], f[2], f[3], b->system_ram ? _(" (+ system RAM)") : "");
      /* TRANSLATORS: e.g. "layer split over 2 devices in turn: 39.12 GiB read per token; the
       * RTX 3090 takes 52% of the time at 936 GB/s; + 3.1 ms fixed" */
      return basis_printf (grouped, _("layer split over %d devices in turn: %.2f GiB read per token; the %s takes %.0f%% of the time at %.0f GB/s; + %.1f ms fixed%s"),
                           b->count, f[0], b->device, f[1], f[2], f[3], b->system_ram ? _(" (+ system RAM)") : "");
    case HR_BASIS_NONE:
    default:
      return g_strdup ("");
    }
}

/* The sentence, and where its figures come from when the user's runs gave them */
static char *
basis_format_calibrated (const HrBasis *b,
                         gboolean       grouped)
{
  g_autofree char *text = basis_format (b, grouped);

  if (b->calibrated_runs <= 0)
    return g_steal_pointer (&text);
  return g_strdup_printf (ngettext ("%s; calibrated from %d run of yours, %s",
                                    "%s; calibrated from %d runs of yours, %s", b->calibrated_runs),
                          text, b->calibrated_runs, b->calibrated_date);
}

char *
hr_basis_text (const HrBasis *basis)
{
  return basis_format_calibrated (basis, TRUE);
}

char *
hr_basis_json (const HrBasis *basis)
{
  HrCNumeric c;
  char *text;

  hr_c_numeric_begin (&c);
  text = basis_format_calibrated (basis, FALSE);
  hr_c_numeric_end (&c);
  return text;
}

static void
write_decode_basis (const Sizing     *z,
                    const DecodeStep *d,
                    HrEstimate       *out)
{
  if (!isfinite (z->bw))
    {
      out->decode_tps = out->decode_tps_low = out->decode_tps_high = out->aggregate_tps = NAN;
      out->decode_tps_empty = NAN;
      out->decode_basis.kind = z->on_cpu ? HR_BASIS_DECODE_RAM_UNKNOWN : HR_BASIS_DECODE_DEVICE_UNKNOWN;
    }
  else if (out->compute_bound)
    out->decode_basis = (HrBasis) {
      .kind = HR_BASIS_DECODE_COMPUTE, .count = z->s->batch, .path = z->path,
      .figures = { z->active_params / 1e9, z->tflops * d->par / 1e12 },
    };
  else
    out->decode_basis = (HrBasis) {
      .kind = HR_BASIS_DECODE_MEMORY, .system_ram = d->w_cpu > 0,
      .figures = { hr_to_gib (out->bytes_per_token), out->decode_efficiency * 100, z->bw / 1e9 * d->par,
                   d->t_fixed * 1e3 },
    };
}

/* Decode speed: memory-bound, up to the compute roof when batching. */
static void
estimate_decode (Sizing     *z,
                 HrEstimate *out)
{
  const HrScenario *s = z->s;
  double bpe = hr_kv_type_bytes_per_elem (s->kv_type);
  double weights_read, kv_read, kv_empty, step;
  DecodeStep d;

  z->active_params = active_params (z->m, out);
  out->depth = hr_scenario_depth (s);
  weights_read = decode_weights_read (z, out, s->batch);
  if (s->decode_no_output && z->llama && s->batch == 1)
    weights_read = MAX (0, weights_read - no_output_skipped_bytes (z, out, 1));
  kv_read = kv_read_bytes (z->m, out->depth, bpe) * s->batch;
  kv_empty = kv_read_bytes (z->m, 0, bpe) * s->batch;
  out->kv_read_bytes = kv_read;

  decode_step_setup (z, out, weights_read, s->batch, &d);
  step = decode_step (&d, kv_read);
  out->bytes_per_token = (weights_read + kv_read) / s->batch;
  out->compute_bound = d.t_compute > d.t_mem;
  /* the share of the peak the weights stream at, unified memory's ceiling included */
  out->decode_efficiency = decode_bw_eff (z) * lpddr_factor (z);
  out->decode_tps = 1.0 / step;
  out->decode_tps_empty = 1.0 / decode_step (&d, kv_empty);
  out->aggregate_tps = s->batch / step;
  out->decode_tps_low = out->decode_tps * z->cal->decode_low;
  out->decode_tps_high = out->decode_tps * z->cal->decode_high;
  write_decode_basis (z, &d, out);
  if (s->draft_kind != HR_DRAFT_NONE)
    {
      /* speculative decoding (#31): the target verifies k drafted tokens and samples one more
       * in one pass over k + 1 tokens a sequence — the weights are read once, the KV cache
       * once, but the compute grows k + 1 fold and a MoE layer reads the union of the experts
       * the k + 1 tokens chose (vLLM's rejection sampler and llama.cpp's
       * common_speculative batch: one forward pass over the drafted tokens).  Kept as a
       * ratio to the plain step, applied to the final decode speed (hr-draft.c). */
      double tokens = (double) s->batch * (hr_draft_max (s) + 1);
      DecodeStep v;

      decode_step_setup (z, out, decode_weights_read (z, out, tokens), tokens, &v);
      out->draft_verify_ratio = decode_step (&v, kv_read) / step;
    }
}

/* Attention FLOPs of one prompt token: its score span over every layer, on average the tokens
 * already in the cache (HrScenario.prompt_depth) and half the prompt's own.
 *
 * Without flash attention llama.cpp multiplies each ubatch's queries by every cell of the KV
 * view it attends to, masked afterwards (llama-graph.cpp build_attn_mha: kq = ggml_mul_mat (k,
 * q) over the cache's n_kv cells, then ggml_soft_max_ext with the KQ mask): the span of a
 * ubatch is n_kv, the cells in use up to and including its own tokens
 * (llama_kv_cache::get_n_kv), not the causal half.  A sliding-window layer's cache holds
 * n_swa + n_ubatch cells (llama-kv-cache-iswa.cpp, size_swa, since PR #13194), so its span is
 * up to the window plus the whole ubatch, not the window.  Averaged over the ubatches of the
 * prompt: depth + (prompt + ubatch) / 2 for a full layer, at most window + ubatch for a
 * windowed one.  Flash attention skips the fully masked KV tiles (ggml-cuda fattn-common.cuh
 * flash_attn_mask_to_KV_max; the Vulkan and Metal kernels' masked-block skips) and keeps the
 * causal spans.  Taken for llama.cpp engines of current builds; the 2024 constants were
 * fitted on the causal spans and keep them. */
static double
prefill_attention_flops (const Sizing *z)
{
  const HrModel *m = z->m;
  double prompt_half = (double) z->s->prompt_depth + (double) z->s->prompt_tokens / 2, attn_span_sum = 0;
  double ub = MAX (MIN ((double) z->s->ubatch, (double) z->s->prompt_tokens), 1);
  gboolean dense_kq = z->llama && z->current && !z->on_cpu && !z->s->flash_attn;
  double full_span = dense_kq ? prompt_half + ub / 2 : prompt_half;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double span = (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
                    ? (dense_kq ? MIN (full_span, (double) g->window + ub) : MIN (prompt_half, (double) g->window))
                    : (g->kind == HR_LAYER_RECURRENT ? 0 : full_span);
      double qk = g->kind == HR_LAYER_MLA ? (double) g->k_dim : (double) MAX (g->k_dim, m->head_dim);
      attn_span_sum += g->count * span * m->n_heads * qk;
    }
  return 4.0 * attn_span_sum;
}

/* The peak of the path prefill's matrix multiplications take: int8 MMQ, Vulkan's coopmat2 or
 * the 16-bit tensor rate (NAN: none published). */
static double
prefill_path_peak (const Sizing *z)
{
  return isfinite (z->tile_peak) ? z->tile_peak : z->peak_flops;
}

/* The dense matrix rate prefill reaches with @util (FLOP/s): never above the peak of the path
 * it runs, whatever the 16-bit gain on top of the blend.  The int8 MMQ and coopmat2 paths reach
 * a share of their peak (the tiles dequantize on the same SMs that run the mma: one share for one
 * SM design). */
static double
prefill_dense_rate (const Sizing *z,
                    double        util)
{
  double rate = isfinite (z->tile_peak) ? z->tile_peak * z->tile_share * util : z->tflops * util;
  double peak = prefill_path_peak (z);

  return isfinite (peak) ? MIN (rate, peak) : rate;
}

/* The share of the MMQ tile work of a MoE layer's routed experts that holds tokens.
 * ggml_cuda_mul_mat_q with ids (mmq.cu) sorts a ubatch's tokens by expert
 * (ggml_cuda_launch_mm_ids_helper) and launches each expert over tiles of mmq_x tokens, mmq_x
 * chosen for the whole ubatch (mmq.cuh, mul_mat_q_case: the fewest tiles of ncols_max = the
 * ubatch's tokens, up to get_mmq_x_max_host() = 128 with int8 MMA, in steps of the
 * granularity 16 from 48 on); an expert's tiles past its own tokens are skipped
 * (launch_mul_mat_q: expert_bounds), its last tile is computed whole.  An expert receives
 * ubatch × top-k / experts tokens on average; with random routing its count is Poisson, and
 * the share is that mean over mmq_x × E[⌈tokens / mmq_x⌉].  @x_max is the widest tile the
 * device's MMQ configuration has (mmq_x_max()).
 *
 * Checked for #28 on gfx1151 (Radeon 8060S), whose ROCm gpt-oss pp512 rows this term puts at
 * −40 % (20b) and −66 % (120b) where without it they land at −9 % and +22 %: ggml-cuda gives
 * gfx1151 no cheaper path, so the term stays.  At the rows' build (b9187, May 2026; the ggml
 * mirror's mmq.cu / mmq.cuh after llama/22298): ggml_cuda_should_use_mmq lists MXFP4 as an MMQ
 * type, and gfx1151 is amd_wmma_available (GGML_CUDA_CC_IS_RDNA3 covers RDNA 3.5) — 64 experts
 * or more always, below that the type switch's default (true) for MXFP4, so gpt-oss-20b's 32
 * experts take MMQ too; ggml_cuda_mul_mat_id sends a ubatch of more than MMVQ_MAX_BATCH_SIZE
 * tokens to ggml_cuda_mul_mat_q with ids, whose mul_mat_q_case picks mmq_x from ncols_max =
 * ne12 (the ubatch, 512) up to get_mmq_x_max_host() = 128 (amd_wmma_available; granularity 32
 * at 128: mmq_get_granularity_host) — no RDNA 3.5 case; HIP runs non-CDNA devices with
 * conventional tiling (use_stream_k false), a block past its expert's expert_bounds returns,
 * and the last one computes all mmq_x columns (mul_mat_q_process_tile → vec_dot_q8_0_q8_1_mma
 * loops j0 < mmq_x).  Current master chooses J the same way (mul_mat_q_switch_J over the
 * mmq-config-rdna3-5.cuh table, MXFP4 J up to 128, PRs #24127 / #26199); PR #28552 (2026-09)
 * sizes J from ne12 × n_expert_used / ne02 on RDNA 3.0 and RDNA 4 only, and PR #28924, which
 * would add RDNA 3.5, was closed unmerged.  #28552 postdates every ROCm MoE row here (the
 * RX 7900 XTX / R9700 Gemma 4 26B-A4B Q6_K rows are "master before PR #26284", July 2026, and
 * sit at −8…−15 % with this term, +31…+43 % without), so it is not modelled until rows of such
 * a build exist.  What the gfx1151 rows show is unexplained by the code: no MoE row of that
 * chip shows the whole-tile cost (its UD-Q4_K_XL Gemma 4 26B-A4B and Qwen3.6-35B-A3B rows,
 * 128 / 256 experts and MMQ by the code, escape the term only because hr_quant_tensor_type()
 * resolves no UD mix, and land at +2…+14 % without it); the baseline of a tile-sizing patch
 * measured on gfx1151 outside master (AMD-Ecosystem/llama.cpp PR #39: Qwen3.6-35B-A3B Q4_K_M
 * pp1024 1133.77 t/s with whole 128-token tiles, 1580.15 with tiles sized to the experts'
 * tokens) is estimated at 473 t/s with this term.  Charging the padded columns at the path's
 * peak instead (they add mma work, not x-tile dequantization or q8_1 quantization) was tried:
 * the gpt-oss rows moved only to −24 / −38 %, while the RTX PRO 6000 gpt-oss-20b rows went from
 * −16 to +58 %, one RTX 3090 Gemma 4 26B-A4B row from −11 to +31 % and the RX 7900 XTX / R9700
 * Gemma rows to +9…+19 % — not taken.  (mul_mat_q_case's search — the smallest mmq_x with the
 * fewest tiles, in AMD's granularity of 16 below 128 and 32 at it, 8 on dp4a devices — differs
 * from the steps above only for ubatches that are not a multiple of 128 tokens: 200 takes
 * mmq_x 112; every ROCm MoE row here runs 512-token ubatches.) */
static double
moe_mmq_tile_share (const HrModel *m,
                    double         ubatch,
                    double         x_max)
{
  double lambda, mmq_x, tiles = 0, p, hi;

  /* up to LLAMA_MMVQ_MAX_TOKENS tokens run the mat-vec kernels, one expert row at a time */
  if (!hr_model_is_moe (m) || m->n_experts <= 0 || m->n_experts_used <= 0 || ubatch <= LLAMA_MMVQ_MAX_TOKENS)
    return 1.0;
  lambda = ubatch * m->n_experts_used / m->n_experts;
  mmq_x = ubatch >= 128 ? 128 : ceil (ubatch / (ubatch >= 48 ? 16.0 : 8.0)) * (ubatch >= 48 ? 16.0 : 8.0);
  mmq_x = MIN (mmq_x, x_max);
  /* E[⌈t / mmq_x⌉] over t ~ Poisson(lambda), summed to far past the mean */
  p = exp (-lambda);
  hi = lambda + 12 * sqrt (lambda) + 20;
  for (double t = 0; t <= hi; t++)
    {
      if (t > 0)
        p *= lambda / t;
      tiles += p * ceil (t / mmq_x);
    }
  return tiles > 0 ? MIN (1.0, lambda / (mmq_x * tiles)) : 1.0;
}

/* The widest MMQ tile (tokens, J) of the device's configuration: 128 with NVIDIA's int8 MMA
 * and on RDNA 3 / 3.5 / 4; 64 in ggml-cuda's RDNA 2 table (which every other non-CDNA AMD
 * device, gfx906 included, takes) and its CDNA table (mmq.cuh ggml_cuda_mmq_get_config;
 * mmq-config-rdna2.cuh, mmq-config-cdna.cuh). */
static double
mmq_x_max (const Sizing *z)
{
  if (z->backend != HR_BACKEND_ROCM || z->gpu == NULL)
    return 128;
  switch (z->gpu->generation)
    {
    case HR_GEN_RDNA3:
    case HR_GEN_RDNA3_5:
    case HR_GEN_RDNA4:
      return 128;
    default:
      return 64;
    }
}

/* Whether a HIP device of current builds multiplies a MoE layer's routed experts of a ubatch of
 * @ub tokens with MMQ (so that moe_mmq_tile_share() applies, as on the CUDA int8 path): the
 * MUL_MAT_ID branch of ggml_cuda_mul_mat_id (ggml-cuda.cu) calls
 * ggml_cuda_should_use_mmq (src0->type, cc, ne12 = the ubatch's tokens, n_experts = ne02) and
 * takes ggml_cuda_mul_mat_q with ids when it says so, whose tiles are the ones
 * moe_mmq_tile_share() counts (mmq.cu: ncols_max = ne12; mul_mat_q_switch_J).  The decision on
 * AMD (mmq.cu, ggml_cuda_should_use_mmq): RDNA 3 / 3.5 with WMMA-MMQ (llama.cpp PR #17576)
 * always for 64 experts or more (PR #18202), below that per type (Q2_K up to 128 tokens, Q6_K up
 * to 128 on RDNA 3 / 256 on RDNA 3.5, IQ2_XS / IQ2_S up to 128 on RDNA 3; the rest always,
 * PR #18537); RDNA 4 and CDNA 3 always; CDNA 1 / 2 above 64 experts, up to 128 tokens, for
 * Q4_0 / Q4_1 / Q5_0 / Q5_1, or up to 256 tokens for Q4_K / Q5_K; every other AMD device
 * (RDNA 2, gfx906: the dp4a MMQ) always.  Types MMQ has no kernel for (16-bit) never. */
static gboolean
hip_moe_runs_mmq (const Sizing *z,
                  double        ub)
{
  const HrModel *m = z->m;
  const HrGgmlType *type;
  const char *t;
  static const char *const mmq_types[] = {
    "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "IQ1_S",
    "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS", "IQ3_S", "IQ4_XS", "IQ4_NL", "MXFP4",
  };
  gboolean supported = FALSE;

  if (z->backend != HR_BACKEND_ROCM || !z->current || !z->llama || z->on_cpu || z->gpu == NULL ||
      !hr_model_is_moe (m) || m->n_experts <= 0 || m->n_experts_used <= 0)
    return FALSE;
  type = hr_quant_tensor_type (z->s->quant, HR_TENSOR_FFN_UP_EXPS, m->n_layers / 2, m->n_layers,
                               m->n_experts, 1, m->hidden);
  if (type == NULL || type->name == NULL)
    return FALSE;
  t = type->name;
  for (gsize i = 0; i < G_N_ELEMENTS (mmq_types); i++)
    supported = supported || strcmp (t, mmq_types[i]) == 0;
  if (!supported)
    return FALSE;
  switch (z->gpu->generation)
    {
    case HR_GEN_RDNA3:
    case HR_GEN_RDNA3_5:
      if (m->n_experts >= 64)
        return TRUE;
      if (strcmp (t, "Q2_K") == 0)
        return ub <= 128;
      if (strcmp (t, "Q6_K") == 0)
        return ub <= (z->gpu->generation == HR_GEN_RDNA3 ? 128 : 256);
      if (strcmp (t, "IQ2_XS") == 0 || strcmp (t, "IQ2_S") == 0)
        return z->gpu->generation == HR_GEN_RDNA3_5 || ub <= 128;
      return TRUE;
    case HR_GEN_CDNA3:
    case HR_GEN_RDNA4:
      return TRUE;
    case HR_GEN_CDNA1:
    case HR_GEN_CDNA2:
    case HR_GEN_CDNA4:
      /* gfx950 is MFMA but not GGML_CUDA_CC_IS_CDNA3: the CDNA 1 / 2 rule */
      return m->n_experts > 64 || ub <= 128 ||
             strcmp (t, "Q4_0") == 0 || strcmp (t, "Q4_1") == 0 || strcmp (t, "Q5_0") == 0 ||
             strcmp (t, "Q5_1") == 0 ||
             (ub <= 256 && (strcmp (t, "Q4_K") == 0 || strcmp (t, "Q5_K") == 0));
    case HR_GEN_RDNA2:
    case HR_GEN_GFX906:
      return TRUE;
    default:
      return FALSE;
    }
}

/* FLOPs per token of the routed experts (gate, up and down of the top-k experts of every MoE
 * layer); 0 for a dense model. */
static double
prefill_expert_flops (const HrModel *m)
{
  if (!hr_model_is_moe (m) || m->hidden <= 0 || m->moe_intermediate <= 0)
    return 0;
  return 2.0 * hr_model_moe_layers (m) * m->n_experts_used * (m->ffn_ungated ? 2 : 3) *
         (double) m->hidden * m->moe_intermediate;
}

/* On a device without matrix units, llama.cpp's CUDA/ROCm MMQ runs its dp4a path, where the
 * weight type's tile unpack shares the vector ALUs with the dot products: for the FFN's type
 * looked up in a table (the IQ types) or assembled from bit planes (Q3_K),
 * HR_CAL_DP4A_LOOKUP_SHARE of the vector rate, relative to the HR_CAL_VECTOR_PREFILL_SHARE
 * that hr_calibration_prefill_flops() gave the device.  1 for every other type, device and
 * backend. */
static double
mmq_dp4a_type_factor (const Sizing *z)
{
  const HrGpuGenerationInfo *gen = z->gpu != NULL ? hr_gpu_generation_info (z->gpu->generation) : NULL;
  const HrModel *m = z->m;
  const HrGgmlType *type;
  gboolean lookup;

  if (!z->current || !z->llama || z->on_cpu || gen == NULL || gen->matrix_units || gen->apple > 0 ||
      (z->backend != HR_BACKEND_CUDA && z->backend != HR_BACKEND_ROCM))
    return 1.0;
  type = hr_quant_tensor_type (z->s->quant, hr_model_is_moe (m) ? HR_TENSOR_FFN_UP_EXPS : HR_TENSOR_FFN_UP,
                               m->n_layers / 2, m->n_layers, hr_model_is_moe (m) ? m->n_experts : 0, 1,
                               m->hidden);
  if (type == NULL || type->name == NULL)
    return 1.0;
  lookup = g_str_has_prefix (type->name, "IQ") || strcmp (type->name, "Q3_K") == 0;
  return lookup ? HR_CAL_DP4A_LOOKUP_SHARE / HR_CAL_VECTOR_PREFILL_SHARE : 1.0;
}

/* 16-bit weights go through cuBLAS / MPS GEMMs, quantized ones through dequantizing kernels
 * that reach less. */
static double
prefill_utilization (const Sizing *z)
{
  if (hr_quant_is_16bit (z->s->quant))
    /* on SYCL's XMX path 16-bit weights take the GEMM quantized ones take (sycl_xmx_gemm_path) */
    return z->sycl_xmx_gemm ? 1.0 : HR_CAL_F16_PREFILL_GAIN;
  if (z->current && z->backend != HR_BACKEND_METAL && z->backend != HR_BACKEND_CPU && z->m->hidden > 0)
    return MIN (1.0, z->m->hidden / HR_CAL_PREFILL_FULL_WIDTH) * mmq_dp4a_type_factor (z);
  return 1.0;
}

/* The share of the dense 16-bit rate prefill attention reaches in ggml-cuda's mma
 * flash-attention kernel on a GeForce card.  fattn-mma-f16.cuh (mma_tile_sizes) accumulates
 * KQ in FP32 (T_C_KQ = tile<16, 16, float>) and VKQ in FP16 (T_C_VKQ = tile<16, 8, half2>);
 * GeForce tensor cores run FP32 accumulation at half their FP16-accumulate rate — the rate
 * hr_calibration_tensor_flops() credits them — so half of the attention FLOPs run at half the
 * rate: 1 / (0.5 / 0.5 + 0.5 / 1) = 2/3.  Other cards run both at one rate: 1. */
static double
prefill_fa_accumulate_share (const Sizing *z)
{
  const HrGpu *gpu = z->gpu;
  const HrGpuGenerationInfo *gen = hr_gpu_generation_info (gpu->generation);

  if (z->backend != HR_BACKEND_CUDA || !z->current || z->on_cpu || !z->s->flash_attn ||
      !isfinite (z->peak_flops) || gpu->form != HR_FORM_CONSUMER || gpu->vendor == NULL ||
      g_ascii_strcasecmp (gpu->vendor, "NVIDIA") != 0 || (gen != NULL && !gen->matrix_units))
    return 1.0;
  return 2.0 / 3.0;
}

/* Bytes per ubatch a Volta card moves to dequantize quantized weights for cuBLAS on current
 * builds, and an Intel GPU for oneDNN (0 elsewhere).  ggml_cuda_should_use_mmq sends a batch of
 * MMQ_DP4A_MAX_BATCH_SIZE (64) tokens or more on a card with FP16 MMA but no int8 MMA to cuBLAS,
 * and ggml_cuda_op_mul_mat_cublas converts src0 to FP16 first (to_fp16_cuda into a pool buffer);
 * ggml-sycl's ggml_sycl_op_mul_mat_sycl does the same with to_fp16_sycl past
 * MMVQ_MAX_BATCH_SIZE (8) columns (sycl_xmx_gemm_path): every matrix of the ubatch is written
 * once in FP16 and read once by the GEMM, 4 bytes a weight on top of the quantized read the
 * weight stream already counts.  A MoE layer converts the experts its tokens chose (SYCL's
 * ggml_sycl_mul_mat_id runs one ggml_sycl_mul_mat per expert that holds tokens). */
static double
prefill_dequant_bytes (const Sizing *z,
                       double        ub)
{
  const HrModel *m = z->m;
  double params = z->active_params;
  gboolean volta = z->backend == HR_BACKEND_CUDA && z->current && !z->on_cpu &&
                   z->gpu->generation == HR_GEN_VOLTA && ub >= 64;
  gboolean sycl = z->sycl_xmx_gemm && ub > LLAMA_MMVQ_MAX_TOKENS;

  if ((!volta && !sycl) || hr_quant_is_16bit (z->s->quant))
    return 0;
  if (hr_model_is_moe (m) && m->hidden > 0 && m->moe_intermediate > 0 && m->n_experts > 0)
    params += prefill_expert_flops (m) / 2 / m->n_experts_used * m->n_experts *
              (expert_union_share (m, ub) - (double) m->n_experts_used / m->n_experts);
  return 4.0 * params * (1.0 - z->cpu_layers_frac);
}

/* SYCL's MUL_MAT_ID in prefill, checked for #28: ggml-sycl.cpp, ggml_sycl_mul_mat_id, with
 * more than one token (ne12 > 1), copies the ids to the host once, sorts the routed rows there
 * and runs one ggml_sycl_mul_mat per expert that holds tokens (to_fp16_sycl of the weights and
 * of the gathered rows, the oneDNN GEMM: sycl_xmx_gemm_path) — hundreds of small queued
 * operations a layer.  Current builds charge them nothing beyond the work the FLOPs and the
 * conversion traffic count: the matmuls are enqueued without a host wait (ggml_sycl_op_mul_mat
 * does none on a single device, and the graph loop none between nodes — llama.cpp PR #24635,
 * 2026-06, describes them piling up in flight), so their submission overlaps the device's
 * work.  The Arc Pro B60 Qwen3.6-35B-A3B Q4_K_M pp512 rows of master after PR #23142
 * (llama.cpp PR #24452's review, 2026-06-13: 722.87 and 722.62 t/s) sit +3 % from the estimate
 * without a loop term; counting three kernel-equivalents an expert (t_layer_us / 14 each, as
 * extra block kernels) put them at −35 %.  Builds before PR #23142 (merged 2026-05-22, release
 * b9291: "[SYCL] improve MoE prefill throughput (+70 % with Qwen3.6-35B)") also ran a
 * row-counter memset and a gather and a scatter kernel per expert and measured far slower —
 * the same card and model at 373.5 t/s on b9159 (issue #22413), about 22 µs an expert — which
 * current code does not do; such rows read high here. */

/* Prefill attention's share of the achieved dense rate.  Without flash attention SYCL's XMX
 * path runs KQ and KQV as batched FP16 GEMMs in oneDNN (ggml-sycl.cpp, ggml_sycl_mul_mat: F16
 * K / V views with more than one batch go to ggml_sycl_mul_mat_batched_sycl, which converts Q
 * to FP16 and calls DnnlGemmWrapper::gemm), the GEMM the weights take: the dense rate.  The
 * Arc Pro B70's Gemma 4 31B pp16384 row (655.6 t/s against 759.1 at pp512, 0.86) puts the
 * attention of its 16384-token spans at 33 TFLOPS, where SYCL's 0.15 of the blend gave 7 and
 * 0.62 of the pp512 rate.  Elsewhere the backend's calibration, doubled with flash attention. */
static double
prefill_attn_util (const Sizing *z)
{
  if (z->sycl_xmx_gemm && !z->s->flash_attn)
    return 1.0;
  return z->s->flash_attn ? MIN (1.0, z->cal->attn_util * HR_CAL_FA_KV_GAIN) : z->cal->attn_util;
}

/* Seconds per prompt token. */
static double
prefill_seconds_per_token (const Sizing     *z,
                           const HrEstimate *out,
                           double            flops_dense,
                           double            flops_attn,
                           double            util)
{
  const HrScenario *s = z->s;
  const HrCalibration *cal = z->cal;
  double n = z->n, par = z->server ? n : 1, t_tok, ubatches, pipe;
  double attn_util = prefill_attn_util (z);
  double ub = MAX (MIN (s->ubatch, s->prompt_tokens), 1);
  double streamed;

  /* on the int8 MMQ path, wherever a HIP device runs the experts through MMQ
   * (hip_moe_runs_mmq), and on Vulkan's coopmat2 path (vk_cm2_peak: 128-token MUL_MAT_ID tiles,
   * mmq_x_max()'s 128), the routed experts' tiles run partly empty (moe_mmq_tile_share) */
  if (isfinite (z->tile_peak) || hip_moe_runs_mmq (z, ub))
    {
      double f_exp = MIN (prefill_expert_flops (z->m), flops_dense);

      flops_dense += f_exp * (1.0 / moe_mmq_tile_share (z->m, ub, mmq_x_max (z)) - 1.0);
    }
  t_tok = flops_dense / (prefill_dense_rate (z, util) * par) +
          flops_attn / (z->tflops * par * attn_util * prefill_fa_accumulate_share (z));
  /* every ubatch streams the device's weights once: of a MoE layer's routed experts only those
   * its tokens chose (with -ub 1 the active experts, as a decode step), and pays the per-step
   * launch cost a decode step pays */
  streamed = out->weights_gpu - z->gpu_expert_bytes * (1.0 - expert_union_share (z->m, ub));
  if (z->llama)
    {
      /* of the ubatches of one llama_decode() call only the last asks for logits (a batch
       * without a logits array, llama_batch_get_one(): llama-bench's test_prompt), the others
       * skip the output head and the last layer's FFN (no_output_skipped_bytes()): ub of each
       * min(prompt, n_batch) tokens read them */
      double with_output = MIN (1.0, ub / MAX (1.0, MIN ((double) s->prompt_tokens, LLAMA_N_BATCH)));

      streamed = MAX (0, streamed - no_output_skipped_bytes (z, out, ub) * (1.0 - with_output));
    }
  if (isfinite (z->bw))
    t_tok += (streamed + prefill_dequant_bytes (z, ub)) / n / (z->bw * cal->bw_eff * lpddr_factor (z)) / ub;
  if (z->llama && isfinite (z->bw))
    t_tok += (step_fixed_seconds (z) + moe_expert_rate_seconds (z, ub, z->bw * cal->bw_eff * lpddr_factor (z))) / ub;
  else if (z->llama)
    t_tok += step_fixed_seconds (z) / ub;
  /* a layer split pipelines the ubatches of one logical batch across the devices */
  if (z->llama && n > 1)
    {
      ubatches = ceil (MIN ((double) s->prompt_tokens, LLAMA_N_BATCH) / MAX (s->ubatch, 1));
      pipe = 1.0 + (MIN (n, ubatches) - 1.0) * HR_CAL_PIPELINE_EFF;
      t_tok /= pipe;
    }
  /* llama.cpp streams offloaded weights to the GPU once per ubatch */
  t_tok += z->cpu_weight_bytes / (PCIE_GBS * 1e9) / MAX (s->ubatch, 1);
  return t_tok;
}

static void
write_prefill_basis (const Sizing *z,
                     double        util,
                     HrEstimate   *out)
{
  const HrGpu *gpu = z->gpu;
  double par = z->server ? z->n : 1, gflop = out->flops_per_token / 1e9;

  if (!isfinite (z->tflops))
    out->prefill_basis.kind = z->on_cpu ? HR_BASIS_PREFILL_CORES_UNKNOWN
                              : hr_gpu_pascal_slow_fp16 (gpu) ? HR_BASIS_PREFILL_PATH_UNKNOWN
                              : HR_BASIS_PREFILL_DEVICE_UNKNOWN;
  else if (z->on_cpu)
    out->prefill_basis = (HrBasis) {
      .kind = HR_BASIS_PREFILL_CPU, .count = gpu->cpu_cores,
      .figures = { gflop, HR_CPU_PREFILL_FLOPS_PER_CORE / 1e9 },
    };
  else if (z->backend == HR_BACKEND_METAL && !isfinite (gpu->fp16_tflops))
    out->prefill_basis = (HrBasis) {
      .kind = HR_BASIS_PREFILL_GPU_CORES, .count = gpu->gpu_cores,
      .figures = { gflop, z->tflops * util / MAX (gpu->gpu_cores, 1) / 1e12 },
    };
  else if (isfinite (z->int8_peak))
    out->prefill_basis = (HrBasis) {
      .kind = HR_BASIS_PREFILL_INT8,
      .figures = { gflop, prefill_dense_rate (z, util) * par / 1e12, z->int8_peak * par / 1e12 },
    };
  else
    out->prefill_basis = (HrBasis) {
      .kind = HR_BASIS_PREFILL_TENSOR, .path = z->path,
      .figures = { gflop, prefill_dense_rate (z, util) * par / 1e12,
                   (z->path != HR_COMPUTE_PATH_DEFAULT ? z->peak_flops : hr_calibration_tensor_flops (gpu)) * par / 1e12 },
    };
}

/* Prefill speed (compute-bound) and the time to the first token.
 *
 * The dense FLOPs charged here are 2 × the published active parameters for every prompt token,
 * input embedding and output head included.  Checked for #28, not modelled: the engines pay
 * neither for every token — the embedding is a row lookup (llama.cpp
 * llm_graph_context::build_inp_embd(), src/llama-graph.cpp: ggml_get_rows of tok_embd), and the
 * head and the last layer's FFN run only for the outputting rows (no_output_skipped_bytes(): one
 * token per llama_decode() call of min(prompt, n_batch) tokens; vLLM's model runner takes
 * logits_indices = query_start_loc[1:] - 1 before compute_logits, vllm/v1/worker/
 * gpu_model_runner.py, and SGLang's LogitsProcessor._get_pruned_states the last index of each
 * extend, both running every layer on every token).  Charging 2 × (body − FFN_last) +
 * 2 × (head + FFN_last) / tokens-per-call on current builds, with vocab × hidden taken off the
 * count once per table, cuts Llama 3.1 8B from 16.3 to 13.9 GFLOP a token and gpt-oss-20b from
 * 7.3 to 4.8.  Refitting the existing constants on their own development rows to keep each
 * backend's dev bias (MMQ int8 share 0.33 → 0.28, prefill reference CUDA 31 → 26, ROCm 36 → 27,
 * Vulkan 31 → 20, Metal 1.20 → 0.89, SYCL XMX share 0.50 → 0.46, CPU 60 → 52 GFLOPS a core)
 * left every dev prefill median worse (all 11.6 → 15.7 %, CUDA 8.4 → 15.7 %, Vulkan 14.0 →
 * 20.6 %), MoE rows above dense ones (dev bias +4.0 → +15.0 % against −1.1 → −2.8 %), small
 * models (< 4B active) further above large ones (+3.0 / −1.9 → +7.5 / −4.2 %), and the #28
 * held-out prefill rows worse (median 14.0 → 15.4 %, bias −8.4 → −11.9 %); a refit of
 * HR_CAL_PREFILL_FULL_WIDTH (2048–8192) did not bring the dev median under 15.6 %.  The
 * large-vocabulary MoE rows (gpt-oss, Qwen3.x-A3B on Vulkan, ROCm, GB10) carry a cost the
 * head's FLOPs stood in for — small expert GEMMs, not modelled outside the int8 MMQ path
 * (moe_mmq_tile_share) — so the count stays as fitted until such a term has its own mechanism. */
static void
estimate_prefill (const Sizing *z,
                  HrEstimate   *out)
{
  double flops_dense = 2.0 * z->active_params, flops_attn = prefill_attention_flops (z);
  double util = prefill_utilization (z);

  out->flops_per_token = flops_dense + flops_attn;
  if (isfinite (z->tflops))
    {
      out->prefill_tps = 1.0 / prefill_seconds_per_token (z, out, flops_dense, flops_attn, util);
      out->prefill_tps_low = out->prefill_tps * z->cal->prefill_low;
      out->prefill_tps_high = out->prefill_tps * z->cal->prefill_high;
    }
  else
    out->prefill_tps = out->prefill_tps_low = out->prefill_tps_high = NAN;
  write_prefill_basis (z, util, out);
  out->ttft_ms = isfinite (out->prefill_tps)
                 ? z->s->prompt_tokens / out->prefill_tps * 1000.0 + (isfinite (out->decode_tps) ? 1000.0 / out->decode_tps : 0)
                 : NAN;
}

/* Cost per million tokens on the cheapest cloud offer of this GPU and count. */
static void
estimate_cost (const Sizing    *z,
               const HrPricing *pricing,
               HrEstimate      *out)
{
  const HrOffer *offer = offer_for_gpu (pricing, z->gpu, z->s->n_gpus);

  out->cost_per_mtok_usd = NAN;
  out->offer_usd_per_hour = NAN;
  out->suggested_cost_per_mtok_usd = NAN;
  out->suggested_usd_per_hour = NAN;
  out->suggested_label[0] = '\0';
  if (offer != NULL && isfinite (out->aggregate_tps) && out->aggregate_tps > 0 &&
      out->verdict != HR_VERDICT_EXCEEDS)
    {
      out->offer_usd_per_hour = offer->usd_per_hour;
      out->cost_per_mtok_usd = offer->usd_per_hour / (out->aggregate_tps * 3600.0) * 1e6;
      hr_offer_label (offer, out->offer_label, sizeof out->offer_label);
    }
}

/* The vision projector (#31): llama.cpp's mtmd loads it on the first GPU unless
 * --no-mmproj-offload keeps it in system RAM (clip_ctx: the GPU backend, else the CPU's), and
 * reserves the buffer it encodes the largest image in on the same backend (hr-projector.h). */
static void
add_projector (const HrScenario *s,
               HrEstimate       *out)
{
  HrVisionEncoder encoder;
  double b = hr_scenario_mmproj (s, &encoder), enc;
  HrDevicePlan *d;
  int i;

  out->mmproj_bytes = 0;
  out->mmproj_encode_bytes = 0;
  out->mmproj_device = -1;
  if (!(b > 0))
    return;
  out->mmproj_bytes = b;
  enc = hr_projector_encode_bytes (&encoder, s->flash_attn);
  out->mmproj_encode_bytes = isfinite (enc) ? enc : 0;
  if (s->mmproj_cpu)
    {
      out->system_ram_bytes += b + out->mmproj_encode_bytes;
      return;
    }
  out->mmproj_device = 0;
  out->required_bytes += b + out->mmproj_encode_bytes;
  out->margin_bytes -= b + out->mmproj_encode_bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  if (out->placement.n_devices > 0)
    {
      d = &out->placement.devices[0];
      d->weights_bytes += b;
      d->compute_bytes += out->mmproj_encode_bytes;
      d->required_bytes += b + out->mmproj_encode_bytes;
      d->margin_bytes -= b + out->mmproj_encode_bytes;
      d->verdict = hr_verdict_for (d->required_bytes, d->physical_bytes, d->usable_bytes);
      out->per_gpu_required = 0;
      out->verdict = HR_VERDICT_FITS;
      for (i = 0; i < out->placement.n_devices; i++)
        {
          out->per_gpu_required = MAX (out->per_gpu_required, out->placement.devices[i].required_bytes);
          out->verdict = MAX (out->verdict, out->placement.devices[i].verdict);
        }
    }
  else
    {
      /* many alike devices: the fullest one may be the first */
      out->per_gpu_required += b + out->mmproj_encode_bytes;
      out->verdict = MAX (out->verdict,
                          hr_verdict_for (out->per_gpu_required,
                                          out->physical_bytes / MAX (s->n_gpus, 1),
                                          out->usable_bytes / MAX (s->n_gpus, 1)));
    }
}

static gboolean
estimate_compute (const HrScenario  *s,
                  const HrPricing   *pricing,
                  HrEstimate        *out,
                  GError           **error)
{
  HrScenario loaded;
  Sizing z;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!hr_scenario_validate (s, error))
    return FALSE;
  /* different GPUs: each device's share, sized from this model's figures on each kind */
  if (hr_scenario_is_mixed (s) || s->n_tensor_split > 0)
    return hr_placement_estimate (s, pricing, out, error);

  /* Size what the engine loads: vLLM serves the BF16 checkpoint of a model whose GGUF it
   * cannot read, llama.cpp the Q8_0 GGUF for FP8 (hr-engine-load.c). */
  hr_engine_load (s->engine, s->model, s->quant, &out->load);
  if (s->weights_named)
    hr_engine_load_as_chosen (&out->load, NULL);
  if (out->load.kind == HR_LOAD_SUBSTITUTE && g_ascii_strcasecmp (out->load.quant, s->quant) != 0)
    {
      loaded = *s;
      g_strlcpy (loaded.quant, out->load.quant, sizeof loaded.quant);
      s = &loaded;
    }

  sizing_init (&z, s);
  if (!load_weights (&z, out, error))
    return FALSE;
  place_weights (&z, out);
  size_kv_cache (&z, out);
  size_buffers (&z, out);
  check_capacity (&z, out);
  estimate_decode (&z, out);
  estimate_prefill (&z, out);
  estimate_cost (&z, pricing, out);
  if (s->calibration != NULL)
    hr_user_calibration_apply (s->calibration, s, out);
  hr_placement_fill_alike (s, out);
  return TRUE;
}

gboolean
hr_estimate_compute (const HrScenario  *s,
                     const HrPricing   *pricing,
                     HrEstimate        *out,
                     GError           **error)
{
  if (s != NULL && !hr_draft_check (s, error))
    return FALSE;
  if (!estimate_compute (s, pricing, out, error))
    return FALSE;
  add_projector (s, out);
  return hr_draft_add (s, pricing, out, error);
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
