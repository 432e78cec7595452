/* hr-calibration.h — the few measured constants behind the speed and buffer estimates
 *
 * Fitted against reference/bench_dev.csv and memory_dev.csv by tests/accuracy; see README
 * "How accurate is it?" for the resulting errors.  One set per llama.cpp backend family.
 */
#pragma once

#include "hr-gpu.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  double bw_eff;          /* fraction of peak DRAM bandwidth reached when decoding */
  double t_layer_us;      /* fixed cost per layer per decoded token (kernel launches, sync) */
  double t_token_us;      /* fixed cost per decoded token (sampling, graph launch) */
  double prefill_util;    /* prefill: reference tensor rate in TFLOPS; the achieved dense rate is
                           * √(peak × reference) (Metal: per-core rate × this factor) */
  double runtime_mib;     /* the backend's own context on the device (CUDA context …) */
  double decode_low;      /* multiplicative range around the decode estimate */
  double decode_high;
  double prefill_low;
  double prefill_high;
  double kv_eff;          /* fraction of peak bandwidth reached reading the KV cache in decode
                           * without flash attention (separate KQ / softmax / KQV kernels) */
  double attn_util;       /* prefill attention (KQ, softmax, KQV) without flash attention, as a
                           * fraction of the achieved dense rate */
  double t_hop_us;        /* Current CUDA builds, quantized weights on the GA10x / AD10x / GB20x dies: the MMQ kernels
 * reach this share of the int8 tensor rate (hr-estimate.c, prefill_int8_peak).  Fitted on the
 * RTX 4090 dense rows marked fit in tests/accuracy/bench_public.csv (Llama 3.1 8B Q4_K_S,
 * IQ3_XXS, Q5_1, pp512/pp2048); the IQ4_NL and gpt-oss-20b ubatch-2048 rows are held out. */
#define HR_CAL_MMQ_INT8_SHARE 0.33
/* llama.cpp layer split: hand-over cost per extra device per token */
  double moe_gbs;         /* MoE decode: the rate (GB/s) the batch-1 expert mat-vecs
                           * (MUL_MAT_ID) cannot exceed, whatever the bandwidth; 0: none */
  double moe_step;        /* MoE decode on discrete cards: the DRAM time of one dependent step
                           * of an ids-indexed mat-vec block, in full block iterations (see
                           * hr-estimate.c, moe_expert_rate_seconds); 0: none */
} HrCalibration;

/* The 2024 fit; its runtime_mib is the backend context for every engine version. */
const HrCalibration *hr_calibration_for       (HrBackend        backend);
/* The speed constants for builds of @version (current: 2025 on). */
const HrCalibration *hr_calibration_speed     (HrBackend        backend,
                                               HrEngineVersion  version);
/* System-RAM bandwidth (GB/s) assumed for offloaded weights when the user gives none. */
double               hr_calibration_sysram_gbs (const HrGpu     *gpu);
/* Effective prefill FLOP/s per GPU core of @gpu, an Apple M-series chip (no tensor TFLOPS
 * published): one rate fitted on Metal llama-bench pp512 rows of 15 chips (M1 … M4 Max),
 * scaled by the chip's generation (read from its name). */
double               hr_calibration_metal_pp_per_core (const HrGpu *gpu);
/* The dense FP16 tensor rate (FLOP/s) llama.cpp's matrix multiplications run against: the
 * published FP32-accumulate figure, doubled on GeForce cards (llama.cpp's GEMMs accumulate in
 * FP16 / INT32, which GeForce runs at full rate), or Apple GPU cores × the per-core rate.
 * NAN when unknown. */
double               hr_calibration_tensor_flops (const HrGpu     *gpu);
/* The dense rate (FLOP/s) llama.cpp-style prefill achieves on @gpu with @cal: on a device whose
 * generation has no matrix units, HR_CAL_VECTOR_PREFILL_SHARE of its vector rate; on other
 * devices with a published tensor rate, √(peak × reference) — measured prefill grows with the square root
 * of the tensor peak across 20 NVIDIA parts (big datacenter parts are held back by the
 * non-tensor work of dequantization, norms and softmax), never more than that peak; on Apple
 * GPUs, cores × the per-core rate.  NAN when unknown. */
double               hr_calibration_prefill_flops (const HrGpu         *gpu,
                                                   const HrCalibration *cal);
/* Flash attention: KV-read and attention efficiencies are this much closer to the weights'. */
#define HR_CAL_FA_KV_GAIN 2.0
/* 16-bit weights in prefill: cuBLAS / MPS GEMMs reach this much more of the tensor rate than
 * the dequantizing kernels of quantized weights. */
#define HR_CAL_F16_PREFILL_GAIN 1.30
/* A device without matrix units (a generation whose matrix_units is FALSE: Pascal, gfx906,
 * RDNA 2, Xe-LPG) runs prefill's quantized matrix multiplications on its vector ALUs (MMQ's
 * dp4a path) at this share of the FP16 vector rate it publishes.  Fitted on the two Instinct
 * MI50 rows of current builds marked fit in tests/accuracy/bench_public.csv (llama.cpp PR
 * #27841: Llama 8B Q4_0 reaches 0.67 of the vector rate, IQ4_XS 0.39; 0.50 balances them);
 * the RX 6800 and MI50 IQ4_NL rows are held out. */
#define HR_CAL_VECTOR_PREFILL_SHARE 0.50
/* llama.cpp's CUDA/ROCm MMQ on such a device (its dp4a path: Pascal, gfx906, RDNA 2; mmq.cu,
 * ggml_cuda_should_use_mmq() sends RDNA 2 and GCN there at every batch size) unpacks each
 * weight tile into shared memory on the same vector ALUs that run the __dp4a / sdot4 dot
 * products, so a type's unpack cost shows.  A type looked up in a table or grid
 * (load_tiles_iq4_nl / _iq4_xs via get_int_from_table_16, the iq2/iq3 grids) or assembled from
 * three bit planes (load_tiles_q3_K) reaches HR_CAL_DP4A_LOOKUP_SHARE of the FP16 vector rate
 * (the MI50 IQ4_XS fit row of PR #27841: 0.39); the 4-8-bit types (a mask and a shift) keep
 * HR_CAL_VECTOR_PREFILL_SHARE, the centre of their fitted rows (MI50 Q4_0 and Q4_K_S, RX 6800
 * Q4_0 from several sources: 0.45-0.66).  The same split shows within one source: a Tesla P40
 * (dp4a, llama.cpp PR #4766, 2024) ran Llama 7B Q3_K_S pp512 at 0.64 of Q4_0 (Q4_K_S 0.93,
 * Q5_0 0.94), the MI50 of PR #27841 IQ4_XS at 0.59 of Q4_0.  Vulkan's shaders keep the one
 * share. */
#define HR_CAL_DP4A_LOOKUP_SHARE 0.39
/* Current builds, Vulkan on NVIDIA's coopmat2 path (hr-estimate.c, vk_cm2_peak): the share of the
 * FP16-accumulate tensor rate the dequantizing mul_mm_cm2 shaders reach.  Not fitted on the
 * accuracy rows: llama.cpp PR #12767 (0cc4m, 2025-04-05, RTX 3090, Llama 8B Q4_0 pp512) measured
 * 4247.01 t/s with coopmat2 against 5069.38 with CUDA on one machine and build, and CUDA's MMQ
 * reaches HR_CAL_MMQ_INT8_SHARE of the int8 rate, twice the FP16-accumulate one:
 * 4247.01 / 5069.38 × 2 × 0.33 = 0.553. */
#define HR_CAL_VK_CM2_SHARE (4247.01 / 5069.38 * 2.0 * HR_CAL_MMQ_INT8_SHARE)
/* Intel Xe-HPG (Arc A-series) under SYCL and Vulkan: the share of the datasheet bandwidth the
 * one-subgroup-per-row mat-vecs reach (hr-estimate.c, decode_bw_eff).  Derived from a public
 * figure that is not an accuracy row: llama.cpp's SYCL guide (docs/backend/SYCL.md, release notes
 * "2024.5": "34 -> 37 tokens/s of llama-2-7b.Q4_0 on Arc A770"): 3.79 GB read a token at
 * 37 t/s less 32 layers × 60 µs is 0.27 of 560 GB/s.  An A770's Qwen3.5-9B Q4_K_M at 31.5 t/s
 * under SYCL (ggml-org/llama.cpp PR #22066, a comment of 2026-04-21; ~5.1 GB a token counted by
 * hand) gives 0.31.  The A770 rows of the accuracy set (SYCL with the reorder optimisation off,
 * PR #13536; Vulkan gpt-oss-20b, PR #15355, held out) were not used. */
#define HR_CAL_XE_HPG_DECODE_EFF 0.27
/* Turing: FP32 lanes per tensor-core rate against GA10x / AD10x (64 against 128 lanes per SM
 * beside equal tensor throughput per clock; the whitepapers' ratio, not a fit).  The three
 * RTX 2080 Ti rows of current builds (CUDA, Vulkan) sit at 0.60–0.73 of the blend without it. */
#define HR_CAL_TURING_VECTOR_SHARE 0.5
/* Current builds on LPDDR5X unified memory other than Apple's (GB10, Strix Halo): the decode
 * mat-vecs stream weights at no more than this fraction of the memory's peak, whatever the
 * backend reaches on a discrete card — the default, for a machine whose catalog entry carries
 * no measured bandwidth (bandwidth_measured_gbs; Strix Halo has one, GB10 none found: see
 * lpddr_factor() in hr-estimate.c).  0.736 = 0.80 × CUDA's bw_eff 0.92, as fitted on the
 * GB10 rows of current builds (the figure was a factor of 0.80 on every backend's rate); below
 * what a copy test reaches on Strix Halo (rocm_bandwidth_test ~212 of 256 GB/s, 0.83:
 * https://llm-tracker.info/_TOORG/Strix-Halo). */
#define HR_CAL_LPDDR_PEAK_SHARE 0.736
/* Current builds, Vulkan: the fixed (dispatch-chain) cost of one linear-attention / SSM mixer
 * sub-block, in transformer blocks of t_layer_us (hr-estimate.c, vk_layer_dispatch_equivalents;
 * an attention sub-block is 0.5).  Its Gated DeltaNet mixer runs about twice the dispatches of
 * an attention half (qwen35moe.cpp, build_layer_attn_linear), which says 1.0.  The one fit row
 * with such layers (Strix Halo, Qwen3.5-35B-A3B Q4_K_M, b8460, 64.85 t/s: ggml-org/llama.cpp
 * issue #22375; 10 attention + 30 Gated DeltaNet layers) gave 1.085 while the state's write-back
 * was not counted (hr-estimate.c, kv_read_bytes); counting it, that row says 0.88 and lands at
 * −1.2 % with the code's 1.0, which is kept.  Held out and not looked at when choosing: the
 * b8933 run of the same model, Qwen3-Next-80B-A3B (Strix Halo) and Nemotron-3-Nano-30B-A3B
 * (RTX 5090). */
#define HR_CAL_VK_RECURRENT_MIXER 1.0
/* Current builds on discrete GPUs: quantized prefill kernels fill the device from this hidden
 * size on; narrower models (1–3B) run proportionally fewer tiles per matrix and reach less. */
#define HR_CAL_PREFILL_FULL_WIDTH 4096.0
/* Current llama.cpp SYCL builds on an Intel GPU with XMX engines (Xe-HPG, Xe2): a prompt
 * ubatch's matrix products run as oneDNN FP16 GEMMs on the XMX engines (hr-estimate.c,
 * sycl_xmx_gemm_path), at this share of the FP16 XMX peak.  Fitted, with the FP16 conversion
 * traffic counted (prefill_dequant_bytes), on the current SYCL prefill rows not held out:
 * Arc B580 Llama 2 7B Q4_0 pp512 (+2.6 %), Arc Pro B70 Gemma 4 31B UD-Q4_K_XL pp512 / pp16384
 * (−7.4 / +2.2 %) and Qwen2.5 1.5B Q4_K_M pp512 (−13.1 %); 0.45 and 0.55 put them at
 * −3…−19 % and −7…+8 %.  The held-out Qwen2.5 1.5B Q8_0 row (−20 %) was not looked at. */
#define HR_CAL_SYCL_XMX_GEMM_SHARE 0.50
/* llama.cpp layer split: each further device in the pipeline adds this fraction of one
 * device's prefill rate (when the logical batch holds enough ubatches). */
#define HR_CAL_PIPELINE_EFF 0.44

G_END_DECLS
