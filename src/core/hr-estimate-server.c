/* hr-estimate-server.c — vLLM and SGLang: the memory outside weights and KV, the KV pool and
 * the requests it serves (hr_estimate_compute() asks; hr-estimate-private.h)
 *
 * What the engine measures when it sizes its KV pool (vllm/v1/worker/gpu_worker.py,
 * Worker.determine_available_memory, with vllm/utils/mem_utils.py memory_profiling):
 *   pool = total the driver exposes × gpu_memory_utilization − weights − torch peak of the
 *          profile run (the larger of the forward and the sampler) − non-torch memory
 *          − CUDA graphs (0.21 on: profile_cudagraph_memory)
 * Which release: scenario->server_release (0 = the newest modelled).  The 2024 versions
 * (0.5–0.7, V0) profiled max(max_model_len, 2048) tokens at once and no sampler.
 */
#include "hr-estimate.h"
#include "hr-estimate-private.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

#define VLLM_BATCHED_TOKENS 8192  /* vLLM's default max_num_batched_tokens for the profile run */
#define VLLM_BATCHED_TOKENS_SMALL 2048 /* the same below 70 GiB and on A100 */
#define VLLM_SEQS_CURRENT  1024   /* vLLM ≥ 0.10 default --max-num-seqs (OpenAI server) */
#define VLLM_SEQS_SMALL    256    /* the same below 70 GiB and on A100 */
#define VLLM_SEQS_2024     256    /* vLLM 0.5–0.7 default --max-num-seqs */
#define VLLM_LARGE_GIB     70.0   /* vLLM's threshold for its larger scheduler defaults */

/* What the driver reports as total memory: CUDA shows an "80 GB" H100 as 79.19 GiB and a
 * "24 GB" RTX 3090 as 23.58 GiB (vLLM logs); unified memory is shared as a whole.  Data-center
 * cards with GDDR memory run with ECC on, which the memory controller keeps inline: 1/16 of it
 * holds the check bits, and the driver shows the rest (an A40 as 46,068 MiB of 49,152,
 * guqiong96/Lvllm#35). */
static double
driver_memory_bytes (const HrGpu *gpu)
{
  gboolean inline_ecc = gpu->form == HR_FORM_DATACENTER && gpu->backend == HR_BACKEND_CUDA &&
                        gpu->memory_type != NULL && g_str_has_prefix (gpu->memory_type, "GDDR");
  double ratio = inline_ecc ? 15.0 / 16.0
                 : gpu->form == HR_FORM_DATACENTER ? 79.19 / 80.0
                 : gpu->form == HR_FORM_UNIFIED ? 1.0 : 23.58 / 24.0;

  return gpu->memory_gib * HR_GIB * ratio;
}

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

/* vLLM releases whose memory profiler sized the pool differently (scenario->server_release):
 * 0.17 brought the sampler's dummy run down from ~38 to ~15 bytes per row and vocabulary entry
 * (llm-d-planner's sweep: Qwen3-14B's "torch peak memory increase" 5.64 GiB in 0.15/0.16,
 * 2.23 GiB in 0.17/0.18 on an H100), 0.21 turned on the CUDA graph estimate
 * (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, "default since v0.21.0" as 0.27 logs it). */
#define VLLM_RELEASE_LEAN_SAMPLER 17
#define VLLM_RELEASE_GRAPHS_PROFILED 21

/* The release a CURRENT scenario follows: the replay's, else the newest modelled. */
static int
vllm_release (const HrScenario *s)
{
  return s->server_release > 0 ? s->server_release : G_MAXINT;
}

/* One layer's feed-forward intermediates per token, in 16 bits and sharded by tensor
 * parallelism.  Dense: gate, up and the activated product (MergedColumnParallelLinear and
 * SiluAndMul in vllm/model_executor/models/llama.py).  MoE: fused_experts' workspaces for
 * the top-k copies of every token, gate_up (2N) and the activated half (N) beside the down
 * projection's output (K, the hidden size), N the expert's intermediate size per rank
 * (vllm/model_executor/layers/fused_moe/fused_moe.py, fused_experts_impl: intermediate_cache1..3);
 * a shared or dense MLP beside them counts as dense. */
static double
ffn_bytes_per_token (const HrScenario *s)
{
  const HrModel *m = s->model;
  double dense = 3.0 * m->intermediate * 2 / s->n_gpus;

  if (hr_model_is_moe (m) && m->moe_intermediate > 0 && m->n_experts_used > 0)
    {
      double n = (double) m->moe_intermediate / s->n_gpus;
      double moe = m->n_experts_used * (2 * n + n + m->hidden) * 2.0;

      return MAX (moe, dense);
    }
  return dense;
}

/* The peak torch allocates in the profile run above the weights (memory_profiling's
 * torch_peak_increase, vllm/utils/mem_utils.py).  GPUModelRunner.profile_run runs the model
 * over max_num_batched_tokens (_dummy_run) and then the sampler over one row per request
 * (_dummy_sampler_run) while the forward's hidden states stay alive: the two peaks follow
 * one another, so the larger counts, not their sum.  The forward: one layer's feed-forward
 * intermediates and three hidden-state copies per token (110.6 KB per token for Llama 3.1 8B,
 * as vLLM 0.6 logged 2.07 GiB at 20,000 and 2.99 GiB at 29,000 tokens, vllm-project/vllm#10517).
 * The sampler, on every tensor-parallel rank (logits are all-gathered): float32 logits, the
 * top-k/top-p sort and the penalties' buffers of the dummy sampling metadata
 * (_dummy_sampler_run, penalties since vllm-project/vllm#13594), max_num_seqs × vocabulary
 * entries of ~38 bytes until 0.16 and ~15 from 0.17 (Llama 3.1 8B: 1.89 GiB, Llama 3.3 70B:
 * 1.96 GiB at 1024 sequences in 0.19, llm-d-planner#205).  The 2024 versions (V0) profiled
 * max(max_model_len, 2048) tokens at once and no sampler. */
static double
server_sampler_run (const HrScenario *s,
                    double            tokens)
{
  double vocab = s->model->vocab > 0 ? s->model->vocab : 32000;

  return (vllm_release (s) >= VLLM_RELEASE_LEAN_SAMPLER ? 15.0 : 38.0) *
         MIN (hr_estimate_max_num_seqs (s), tokens) * vocab;
}

static double
server_batched_tokens (const HrScenario *s)
{
  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return MAX ((double) MIN (s->context, (gint64) 32768), 2048);
  return vllm_large_defaults (s) ? VLLM_BATCHED_TOKENS : VLLM_BATCHED_TOKENS_SMALL;
}

static double
server_forward_peak (const HrScenario *s)
{
  return server_batched_tokens (s) * (ffn_bytes_per_token (s) + 3.0 * s->model->hidden * 2);
}

static double
server_activation_peak (const HrScenario *s)
{
  double tokens = server_batched_tokens (s);

  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return server_forward_peak (s);
  return MAX (server_forward_peak (s),
              tokens * s->model->hidden * 2.0 + server_sampler_run (s, tokens));
}

/* CUDA graphs captured for the decode batch sizes: 0.5–1.9 GiB on an H100 ("Estimated CUDA
 * graph memory: 0.84 GiB" for Llama 3.1 8B, 1.82 GiB for Llama 3.3 70B over two GPUs in 0.19,
 * llm-d-planner#205), growing with the layers captured.  Until 0.20 vLLM captured them after
 * sizing the pool (Worker.compile_or_warm_up_model → capture_model), out of the
 * (1 − utilization) margin; from 0.21 GPUModelRunner.profile_cudagraph_memory estimates them
 * and determine_available_memory takes them off the pool. */
static double
server_cuda_graphs (const HrScenario *s)
{
  return hr_estimate_server_graph_bytes (s, s->model->n_layers);
}

/* Memory torch does not see, grown during the profile run ("non-torch forward increase
 * memory"): cuBLAS and CUDA workspaces, 0.25–0.43 GiB in vLLM 0.6–0.8 logs on RTX 3090/4090
 * and A100 (0.13–0.25 GiB on one H100 in 0.15–0.19, llm-d-planner#205); under tensor parallelism on
 * NVLink parts NCCL and the custom all-reduce buffers, which take their memory at the first
 * collective of the profile run, not at init_device: 2.07–2.13 GiB per GPU at TP 2 and 4 in
 * 0.19 (llm-d-planner#205), 3.58 GiB on 2× H100 in vllm-project/vllm#10511 (0.6).  PCIe
 * consumer cards run without the custom all-reduce. */
static double
server_non_torch (const HrScenario *s)
{
  if (s->n_gpus > 1 && s->gpu->form == HR_FORM_DATACENTER)
    return 2.1 * HR_GIB;
  return 0.35 * HR_GIB;
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
  gint64 tokens = hr_pad_up (s->context, HR_VLLM_BLOCK);
  double total = server_kv_per_token_gpu (s, FALSE) * (double) tokens;

  for (guint i = 0; i < m->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (m->layers, HrLayerGroup, i);
      double bpe = hr_kv_type_bytes_per_elem (s->kv_type);
      double heads = MAX (1, MAX (g->kv_heads, 1) / s->n_gpus);

      if (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
        total += g->count * heads * (g->k_dim + g->v_dim) * bpe *
                 (double) MIN (tokens, hr_pad_up (g->window, HR_VLLM_BLOCK) + HR_VLLM_BLOCK);
      else if (g->kind == HR_LAYER_RECURRENT)
        total += g->count * g->state_bytes / s->n_gpus;
    }
  return total;
}

void
hr_estimate_server_capacity (const HrScenario *s,
                             double            weights_gpu,
                             HrEstimate       *out)
{
  double per_token = server_kv_per_token_gpu (s, TRUE);
  double request = server_request_bytes_gpu (s);
  double page = s->engine == HR_ENGINE_SGLANG ? 1 : HR_VLLM_BLOCK;

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

double
hr_estimate_server_compute (const HrScenario *s)
{
  return server_activation_peak (s) + server_cuda_graphs (s) + server_non_torch (s);
}

/* vLLM's engine core does its host work between GPU steps: Scheduler.schedule(), the model
 * runner's input preparation and the sampler's sync, then update_from_output() and the
 * output processor streaming tokens to the API server over ZMQ.  Without async scheduling
 * (off by default through 0.11) none of it overlaps the GPU, so every step pays it on top of
 * the forward pass.  That is why vLLM at one request runs Qwen3-8B BF16 on an H100 at ~139
 * tok/s, not the ~171 of its forward alone: 1/139 − 1/171 s = 1.3 ms a step.  Fitted on that
 * development row only (tests/accuracy/serve_bench.csv); the other rows are held out.
 * SGLang's overlap scheduler (on by default since 0.4, Scheduler.event_loop_overlap) prepares
 * the next batch and processes the previous step's output while the GPU runs the current
 * one, so its host work hides under the forward pass: 0.  llama.cpp's per-token host cost is
 * the calibration's t_token_us instead.  The 2024 versions (V0) paid host time too, but
 * there the 2024 calibration's fixed cost (121 µs a layer, llama.cpp without CUDA graphs:
 * 3.9 ms a step for Llama 3.1 8B) already exceeds it: the only vLLM decode rows of those
 * versions (serving_throughput_dev.csv, H200 latency at batch 8) are predicted 11 and 14 %
 * slow without it and 19 and 24 % slow with it, so it is not added there.  The estimate's
 * decode step and the load curve's both take it from here. */
#define VLLM_STEP_HOST_S 1.3e-3

double
hr_estimate_step_host_seconds (const HrScenario *s)
{
  return s->engine == HR_ENGINE_VLLM && s->engine_version == HR_ENGINE_VERSION_CURRENT ? VLLM_STEP_HOST_S : 0;
}

/* The tokens one scheduler step may carry, running decodes and prompt chunks together (the
 * load curve, hr-load-curve.c): vLLM's max_num_batched_tokens (Scheduler.schedule() starts
 * each step from token_budget = max_num_scheduled_tokens), 8192 with the larger defaults and
 * 2048 otherwise; SGLang's --chunked-prefill-size, by GPU memory as in
 * sglang_default_fraction(). */
int
hr_estimate_batched_tokens (const HrScenario *s)
{
  if (s->engine == HR_ENGINE_SGLANG && s->gpu != NULL && s->gpu->memory_gib > 0)
    {
      double gib = s->gpu->memory_gib;

      return gib < 35 ? 2048 : gib < 60 ? 4096 : gib < 160 ? 8192 : 16384;
    }
  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return VLLM_BATCHED_TOKENS_SMALL;
  return vllm_large_defaults (s) ? VLLM_BATCHED_TOKENS : VLLM_BATCHED_TOKENS_SMALL;
}

/* What the sampler's dummy run adds to the profile's peak above the forward's
 * (server_activation_peak ()), none in the 2024 versions.  vLLM runs it on the last pipeline
 * stage only (GPUModelRunner.profile_run: `if get_pp_group().is_last_rank:
 * self._dummy_sampler_run (…)`), so the other stages' peak is the forward's. */
double
hr_estimate_server_sampler_bytes (const HrScenario *s)
{
  if (s->engine_version == HR_ENGINE_VERSION_2024)
    return 0;
  return MAX (server_activation_peak (s) - server_forward_peak (s), 0);
}

/* CUDA graphs of a device holding @n_layers layers (server_cuda_graphs ()): a pipeline stage
 * captures the graphs of its own layers. */
double
hr_estimate_server_graph_bytes (const HrScenario *s,
                                int               n_layers)
{
  if (s->engine_version == HR_ENGINE_VERSION_2024 || s->enforce_eager ||
      vllm_release (s) < VLLM_RELEASE_GRAPHS_PROFILED)
    return 0;
  return (0.4 + 0.015 * n_layers) * HR_GIB;
}

/* One pipeline stage's KV pool on @s's GPU (hr-placement-pp.c), as hr_estimate_server_capacity ()
 * sizes a whole GPU's: vLLM's worker measures its own free memory after its stage's weights
 * and profile run (gpu_worker.determine_available_memory); SGLang's ModelRunner.
 * profile_max_num_token its own after its weights. */
double
hr_estimate_server_stage_pool (const HrScenario *s,
                               double            weights_stage,
                               double            compute_stage)
{
  double driver = driver_memory_bytes (s->gpu);

  if (s->engine == HR_ENGINE_SGLANG)
    return MAX (0, (driver - server_non_torch (s)) * hr_estimate_mem_fraction (s) - weights_stage);
  return MAX (0, driver * hr_estimate_mem_fraction (s) - weights_stage - compute_stage);
}
