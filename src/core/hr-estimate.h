/* hr-estimate.h — the sizing model: memory, verdict and speed for one scenario
 *
 * Pure function of an HrScenario: no globals, no allocation on the hot path, microseconds.
 */
#pragma once

#include <glib.h>
#include "hr-scenario.h"
#include "hr-pricing.h"
#include "hr-engine-load.h"

G_BEGIN_DECLS

typedef enum
{
  HR_VERDICT_FITS,      /* required <= 92 % of physical */
  HR_VERDICT_TIGHT,     /* above 92 % of physical but within usable */
  HR_VERDICT_EXCEEDS,   /* above usable */
} HrVerdict;

typedef enum
{
  HR_WEIGHTS_MEASURED,    /* measured file size of that quant */
  HR_WEIGHTS_GGUF,        /* exact tensor bytes from a GGUF header */
  HR_WEIGHTS_DERIVED,     /* derived per tensor from the architecture and the mix */
  HR_WEIGHTS_CHECKPOINT,  /* official checkpoint (native dtype) */
  HR_WEIGHTS_UNKNOWN,
} HrWeightsSource;

#define HR_FIT_FRACTION 0.92

/* Which sentence explains a speed; the figures it names are in HrBasis. */
typedef enum
{
  HR_BASIS_NONE,
  HR_BASIS_DECODE_RAM_UNKNOWN,      /* the system RAM bandwidth is not known */
  HR_BASIS_DECODE_DEVICE_UNKNOWN,   /* the device's memory bandwidth is not published */
  HR_BASIS_DECODE_COMPUTE,          /* count sequences × [0] B active at [1] TFLOPS */
  HR_BASIS_DECODE_MEMORY,           /* [0] GiB per token at [1] % of [2] GB/s + [3] ms fixed */
  HR_BASIS_PREFILL_CORES_UNKNOWN,   /* the number of CPU cores is not known */
  HR_BASIS_PREFILL_DEVICE_UNKNOWN,  /* the device's FP16 throughput is not published */
  HR_BASIS_PREFILL_CPU,             /* [0] GFLOP per token on count cores at [1] GFLOPS each */
  HR_BASIS_PREFILL_GPU_CORES,       /* [0] GFLOP per token on count GPU cores at [1] TFLOPS each */
  HR_BASIS_PREFILL_TENSOR,          /* [0] GFLOP per token at [1] of [2] peak TFLOPS */
  HR_BASIS_DECODE_DEVICES,          /* a layer split over count devices in turn: [0] GiB per
                                     * token, the slowest (device) [1] % of the time at [2] GB/s,
                                     * [3] ms fixed */
  HR_BASIS_PREFILL_INT8,            /* [0] GFLOP per token on int8 tensor cores (MMQ) at [1] of
                                     * [2] peak TOPS */
  HR_BASIS_PREFILL_PATH_UNKNOWN,    /* a Pascal card without fast FP16 off llama.cpp's CUDA
                                     * paths: which ALUs run the matrices is not known */
} HrBasisKind;

/* The ALU path a compute-bound speed ran on, when it is not the device's published FP16 /
 * tensor rate: on a Pascal card without fast FP16 (hr_gpu_pascal_slow_fp16()) llama.cpp's CUDA
 * backend runs quantized weights through MMQ / MMVQ's int8 dp4a dot products and 16/32-bit
 * weights through cuBLAS in FP32. */
typedef enum
{
  HR_COMPUTE_PATH_DEFAULT,
  HR_COMPUTE_PATH_DP4A,
  HR_COMPUTE_PATH_FP32,
} HrComputePath;

/* The basis of a speed ("memory-bound: 7.40 GiB read per token at 80% of 1008 GB/s + …"),
 * kept as parts so that the estimate formats nothing: the sentence is written only where it
 * is shown. */
typedef struct
{
  HrBasisKind kind;
  int count;          /* sequences, CPU cores or GPU cores */
  double figures[4];
  gboolean system_ram; /* decode also streams weights from system RAM */
  int calibrated_runs; /* > 0: the figures come from the user's runs (hr-user-calibration.h) */
  char calibrated_date[11];
  char device[64];     /* HR_BASIS_DECODE_DEVICES: the device that takes the longest */
  HrComputePath path;  /* HR_BASIS_DECODE_COMPUTE, HR_BASIS_PREFILL_TENSOR: the ALUs named */
} HrBasis;

/* Weights of one model at one quant. */
typedef struct
{
  double bytes;           /* all weights */
  double expert_bytes;    /* of which routed experts (MoE) */
  double embd_bytes;      /* token embedding (looked up, not streamed, per token) */
  double output_bytes;    /* output head */
  double layer_bytes;     /* average bytes of one repeating block */
  double active_bytes;    /* read per token: non-expert + active experts (excl. embedding) */
  double mtp_bytes;       /* MTP/NextN blocks shipped in the file (llama.cpp skips them) */
  double derived_bytes;   /* the per-tensor derivation, even when a measured size is used */
  double params;          /* parameters the derivation counted (MTP blocks included) */
  HrWeightsSource source;
  const char *source_detail;  /* e.g. the measured file's source; borrowed */
} HrWeights;

#define HR_MAX_PLAN_DEVICES HR_MAX_MIXED_GPUS

typedef enum
{
  HR_SPLIT_NONE,     /* one device, or too many to list */
  HR_SPLIT_LAYER,    /* llama.cpp's layer split: each device its own layers, in turn */
  HR_SPLIT_TENSOR,   /* tensor parallelism: every device a shard of every layer */
  HR_SPLIT_PIPELINE, /* vLLM/SGLang pipeline stages: each device its own layers, in turn (#31) */
} HrSplitKind;

/* What one device of the setup holds (hr-placement.h); bytes. */
typedef struct
{
  const HrGpu *gpu;       /* borrowed */
  int layers;             /* repeating layers it holds (a shard of each under tensor parallelism) */
  gboolean output;        /* it holds the output layer (llama.cpp: the last device with layers) */
  double weights_bytes;
  double kv_bytes;
  double compute_bytes;   /* its compute buffer */
  double runtime_bytes;   /* its runtime context (and, on unified memory, the host buffer) */
  double required_bytes;  /* the sum of the four (and of draft_bytes) */
  double physical_bytes;
  double usable_bytes;
  double margin_bytes;    /* usable − required */
  HrVerdict verdict;
  double decode_seconds;  /* its part of one decode step (NAN: unknown) */
  double kv_pool_bytes;   /* a pipeline stage's KV pool as the engine allocates it (the same
                           * blocks on every stage); 0 otherwise */
  double draft_bytes;     /* its share of a speculative draft (#31, hr-draft.c), in required */
} HrDevicePlan;

/* The setup's devices and what each holds; their sums are the estimate's device totals. */
typedef struct
{
  HrSplitKind split;
  int n_devices;          /* 0 with HR_SPLIT_NONE beyond HR_MAX_PLAN_DEVICES alike devices */
  int gpu_layers;         /* llama.cpp -ngl: layers on the devices, the output layer counted */
  int ram_layers;         /* layers in system RAM (llama.cpp: the first ones) */
  int n_cpu_moe;          /* layers whose experts stay in system RAM (the first ones) */
  int slowest;            /* the device with the largest part of a decode step; -1: unknown */
  gboolean user_split;    /* the layers follow the user's --tensor-split */
  gboolean custom_stages; /* pipeline stages other than the engine's own even partition: the
                           * launch sets them (VLLM_PP_LAYER_PARTITION) */
  const HrGpu *left_out;  /* an integrated GPU of the setup the engine leaves out; NULL: none */
  int n_left_out;
  HrDevicePlan devices[HR_MAX_PLAN_DEVICES];
} HrPlacement;

typedef struct
{
  /* what the engine loads for the scenario's quant (hr_engine_load ()): every figure below is
   * of load.quant, which differs from the scenario's quant when the engine cannot load that */
  HrEngineLoad load;
  /* memory, bytes; totals over the tensor-parallel group */
  HrWeights weights;
  double weights_gpu;      /* part of the weights in device memory */
  double weights_ram_bytes;     /* part of the weights in system RAM (offload, llama.cpp's embedding) */
  double weights_skipped_bytes; /* in the file but not loaded (llama.cpp skips MTP blocks) */
  double kv_bytes;         /* KV cache and recurrent state, all sequences */
  double overhead_bytes;   /* engine & activation buffers, runtime context (all GPUs) */
  double compute_bytes;    /* of which the engine's compute/activation buffers (all GPUs) */
  double runtime_bytes;    /* of which the backend's own context (CUDA context …, all GPUs) */
  double system_ram_bytes; /* system RAM: offloaded weights and KV, llama.cpp's embedding and
                            * host compute buffer (beside a discrete GPU) */
  double host_compute_bytes; /* llama.cpp's host-side compute buffer (graph inputs): in
                              * system_ram_bytes, or in overhead_bytes on unified memory */
  double required_bytes;   /* device memory needed: weights_gpu + kv + overhead */
  double per_gpu_required; /* the largest single device's share */
  double physical_bytes;   /* n_gpus × physical */
  double usable_bytes;     /* n_gpus × physical × (1 − reserve), or the unified share */
  double margin_bytes;     /* usable − required; with offload on unified memory, at most what
                            * the machine has left (machine_bytes − required − system RAM) */
  double utilization;      /* required / physical */
  /* unified memory with layers, experts or KV moved to system RAM (the same memory): what the
   * machine holds for the model, physical less the reserve; 0 otherwise */
  double machine_bytes;
  HrVerdict verdict;
  double kv_bytes_per_token; /* growing part, for one sequence */
  /* vLLM/SGLang serving capacity (0 for other engines) */
  double driver_memory_bytes; /* per GPU, what the driver exposes ("80 GB" H100: 79.19 GiB) */
  double kv_pool_bytes;       /* per GPU: the KV-cache pool the engine pre-allocates */
  double kv_capacity_tokens;  /* tokens the pool holds (vLLM's "GPU KV cache size: N tokens") */
  double max_concurrency;     /* requests of the chosen context the pool serves at once */
  int max_num_seqs;           /* the --max-num-seqs the activation peak was sized for */

  /* speed */
  double decode_tps;       /* tokens/s per sequence (single stream when batch == 1) */
  double decode_tps_low;
  double decode_tps_high;
  double decode_tps_empty; /* per sequence with an empty context (the range scales alike) */
  gint64 depth;            /* tokens in the context decode_tps is given at */
  double aggregate_tps;    /* decode tokens/s over all sequences */
  double prefill_tps;      /* NAN when the device's compute is unknown */
  double prefill_tps_low;
  double prefill_tps_high;
  double ttft_ms;          /* for scenario->prompt_tokens */
  double bytes_per_token;  /* bytes read per decoded token */
  double kv_read_bytes;    /* of which KV cache (all sequences, at the depth) */
  double flops_per_token;  /* prefill FLOPs per prompt token, attention included */
  double decode_efficiency;/* fraction of peak bandwidth assumed */
  gboolean compute_bound;  /* batched decode hits the compute roof */
  gboolean calibrated;     /* a speed follows the user's own runs (scenario->calibration) */
  /* where the speeds come from, as parts: hr_basis_text () / hr_basis_json () write them */
  HrBasis decode_basis;
  HrBasis prefill_basis;

  /* cost */
  double cost_per_mtok_usd; /* at an offer for this very GPU and count; NAN when none */
  double offer_usd_per_hour;
  char offer_label[96];     /* "RunPod 1x_A100-80GB_SECURE · 1x A100 80GB SXM" */
  /* another GPU's offer, only as a labelled suggestion (hr_advice_fill_cost); NAN when none */
  double suggested_cost_per_mtok_usd;
  double suggested_usd_per_hour;
  char suggested_label[96];

  /* where everything lives, device by device (hr-placement.h) */
  HrPlacement placement;

  /* the vision projector (#31): its weights (scenario->mmproj_bytes) and the buffer it encodes
   * an image in (hr_projector_encode_bytes (); 0 when its encoder is unknown), both in
   * required_bytes on the device that holds it or in system_ram_bytes; neither is in
   * weights_gpu or overhead_bytes (a device plan counts them in its weights and compute) */
  double mmproj_bytes;
  double mmproj_encode_bytes;
  int mmproj_device;       /* index into placement.devices (0: the first GPU); -1: system RAM */

  /* speculative decoding (#31, hr-draft.h): 0 (bytes) and NAN (speeds) without a draft.  The
   * draft's memory is in required_bytes, spread over the devices like the model's own
   * (llama.cpp's draft follows --device, vLLM/SGLang shard it over the tensor-parallel group);
   * decode_tps stays the plain speed and draft_decode_tps is only an expectation */
  double draft_weights_bytes;  /* the draft model's weights, or the MTP layers' */
  double draft_kv_bytes;       /* its KV cache */
  double draft_compute_bytes;  /* its compute buffer (llama.cpp's second context) */
  double draft_bytes;          /* the three together */
  double draft_accept;         /* the per-token acceptance the speed assumes */
  int draft_max;               /* tokens drafted a target pass */
  double draft_tokens_per_pass;/* expected tokens a target pass yields */
  double draft_verify_ratio;   /* the verify pass over k + 1 tokens ÷ a plain decode step */
  double draft_verify_ms;      /* the target's verify pass */
  double draft_step_ms;        /* one drafted token */
  double draft_speedup;        /* expected decode speed-up (NAN: unknown) */
  double draft_decode_tps;     /* decode_tps × draft_speedup */
} HrEstimate;

/* The basis sentence for people, translated, its figures grouped as LC_NUMERIC says
 * ("of 1.792 GB/s" in German, "1792" in the C locale).  Newly allocated. */
char           *hr_basis_text               (const HrBasis   *basis);
/* The same sentence for JSON: no thousands grouping, and '.' as the decimal mark whatever
 * LC_NUMERIC says ("9.13 GiB" in German JSON too, SPEC §4). */
char           *hr_basis_json               (const HrBasis   *basis);

/* "RunPod 1x_A100-80GB_SECURE · 1x A100 80GB SXM" (the instance type when the offer has one). */
void            hr_offer_label              (const HrOffer   *offer,
                                             char            *buf,
                                             gsize            size);

/* Weights of @model at @quant ("Q4_K_M"). FALSE with an error for an unknown quant. */
gboolean        hr_weights_compute          (const HrModel   *model,
                                             const char      *quant,
                                             HrWeights       *out,
                                             GError         **error);

/* The per-tensor derivation alone (llama-quantize's rules), ignoring measured sizes, GGUF
 * bytes and the checkpoint; what tests/accuracy checks against real files. */
gboolean        hr_weights_derive           (const HrModel   *model,
                                             const char      *quant,
                                             HrWeights       *out,
                                             GError         **error);

/* Runs the whole model.  @pricing may be NULL (then cost is NAN). */
gboolean        hr_estimate_compute         (const HrScenario *scenario,
                                             const HrPricing *pricing,
                                             HrEstimate      *out,
                                             GError         **error);

/* Weights device @device (0 … n_gpus − 1) of the group holds; the last is the fullest, the
 * one per_gpu_required counts.  weights_gpu in all. */
double          hr_estimate_device_weights  (const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             int              device);

/* vLLM/SGLang memory fraction in effect: the scenario's, or the engine's default (vLLM 0.90;
 * current SGLang's own rule by GPU memory and tensor-parallel degree). */
double          hr_estimate_mem_fraction    (const HrScenario *scenario);
/* Whether vLLM/SGLang serving capacity means anything here: not on Apple GPUs (no Metal
 * backend), where the pool, tokens and concurrency are NAN. */
gboolean        hr_estimate_serving_applies (const HrScenario *scenario);
/* vLLM/SGLang --max-num-seqs in effect: the scenario's, or the engine version's default. */
int             hr_estimate_max_num_seqs    (const HrScenario *scenario);
/* vLLM max_num_batched_tokens / SGLang --chunked-prefill-size in effect: the tokens one
 * scheduler step carries, decodes and prompt chunks together. */
int             hr_estimate_batched_tokens  (const HrScenario *scenario);

/* KV cache bytes for the scenario at a different context / kv type (for charts). */
double          hr_estimate_kv_at           (const HrScenario *scenario,
                                             gint64           context,
                                             HrKvType         kv_type);

const char     *hr_verdict_to_string        (HrVerdict        verdict);  /* fits|tight|exceeds */
const char     *hr_verdict_display          (HrVerdict        verdict);  /* translated */
const char     *hr_weights_source_to_string (HrWeightsSource  source);   /* measured|gguf|derived|checkpoint */
HrVerdict       hr_verdict_for              (double           required,
                                             double           physical,
                                             double           usable);

G_END_DECLS
