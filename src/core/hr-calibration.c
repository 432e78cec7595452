/* hr-calibration.c — fitted constants per backend family (see hr-calibration.h)
 *
 * Each constant is a physical quantity, fitted by tests/accuracy (--dump) on
 * reference/bench_dev.csv, serving_throughput_dev.csv and memory_dev.csv; the resulting
 * errors are in tests/accuracy/REPORT.md.  No constant is specific to one device.
 *
 *   bw_eff       fraction of peak DRAM bandwidth the decode mat-vec kernels reach
 *   t_layer_us   fixed cost per layer per token (kernel launches and syncs)
 *   t_token_us   fixed cost per token (graph build, sampling, host round trip)
 *   prefill_util reference rate (TFLOPS) of the prefill law √(peak × reference), for
 *                quantized weights (16-bit weights get HR_CAL_F16_PREFILL_GAIN more);
 *                Metal: a factor on the per-core rate
 *   runtime_mib  the backend's own context per device (CUDA context, cuBLAS workspaces)
 *   low / high   the range around each estimate, sized to hold ~80 % of measurements
 *   kv_eff       bandwidth fraction reached reading the KV cache without flash attention
 *   attn_util    tensor-rate fraction of prefill attention without flash attention
 *   t_hop_us     layer split: per extra device per token
 *   moe_gbs      current builds: the rate (GB/s) the batch-1 expert mat-vecs of a MoE layer
 *                cannot exceed (0: none; Metal; see below)
 *   moe_step     current builds, discrete CUDA/ROCm cards: the DRAM cost of one dependent step
 *                of an ids-indexed mat-vec block, in full passes (0: none; see below)
 */
#include "hr-calibration.h"

#include <math.h>

static const HrCalibration calibrations[HR_N_BACKENDS] = {
  /*                     name      bw    t_layer t_tok  ppref rt_MiB dlo   dhi   plo   phi   kv    attn  hop */
  [HR_BACKEND_CUDA]   = { "CUDA",   0.92, 121.0, 0,    24.5, 350,   0.75, 1.15, 0.62, 1.55, 0.92, 0.20, 71 },
  [HR_BACKEND_ROCM]   = { "ROCm",   0.80, 121.0, 0,    20.0, 400,   0.70, 1.20, 0.55, 1.60, 0.80, 0.20, 71 },
  [HR_BACKEND_METAL]  = { "Metal",  0.90, 208.0, 0,    1.00, 0,     0.55, 1.12, 0.80, 1.20, 0.90, 1.00, 159 },
  [HR_BACKEND_VULKAN] = { "Vulkan", 0.80, 121.0, 0,    20.0, 300,   0.70, 1.20, 0.55, 1.60, 0.80, 0.20, 71 },
  [HR_BACKEND_SYCL]   = { "SYCL",   0.60, 160.0, 0,    12.0, 400,   0.60, 1.25, 0.50, 1.60, 0.60, 0.15, 150 },
  [HR_BACKEND_CPU]    = { "CPU",    0.60, 2.0,   200,  1.00, 0,     0.60, 1.25, 0.50, 1.50, 0.60, 0.30, 0 },
  [HR_BACKEND_CANN]   = { "CANN",   0.50, 160.0, 0,    12.0, 500,   0.55, 1.30, 0.45, 1.60, 0.50, 0.15, 150 },
  [HR_BACKEND_MUSA]   = { "MUSA",   0.55, 160.0, 0,    12.0, 400,   0.55, 1.30, 0.45, 1.60, 0.55, 0.15, 150 },
  [HR_BACKEND_OTHER]  = { "vendor stack", 0.50, 160.0, 0, 12.0, 500, 0.50, 1.35, 0.40, 1.60, 0.50, 0.15, 150 },
};

/* Current builds (2025 on): CUDA graphs and fused kernels cut the per-layer cost to tens of
 * µs, flash attention is on by default, quantized prefill runs int8 tensor-core MMQ kernels;
 * fitted on bench_dev_modern.csv and tests/accuracy/bench_public.csv.  SYCL from the Arc B580
 * and Arc Pro B70 runs of 2025–26 (reordered MMVQ kernels: ~62 % of peak bandwidth, ~60 µs per
 * layer; llama.cpp prefill on XMX devices runs oneDNN GEMMs at HR_CAL_SYCL_XMX_GEMM_SHARE of
 * the peak, so SYCL's 12 TFLOPS reference and 0.15 attention share serve only other SYCL
 * devices and engines: hr-estimate.c, sycl_xmx_gemm_path); Vulkan prefill from
 * coopmat/coopmat2 runs on RTX 3090/4090/5090 and AMD (since #28 quantized weights on NVIDIA
 * GA10x / AD10x / GB20x take the coopmat2 path's own share, HR_CAL_VK_CM2_SHARE, hr-estimate.c
 * vk_cm2_peak; Vulkan's 31 still serves their attention, Turing, AMD and Intel, and was not
 * refitted: of the 13 dev rows only the two RTX 2080 Ti ones remain on it); ROCm prefill from
 * RX 7900 XTX and Radeon PRO W7900 runs.  Vulkan decode re-fitted once gpt-oss GGUF
 * mixes counted their experts at MXFP4 (29 rows: ~90 % of peak bandwidth, ~58 µs per layer
 * without CUDA graphs; the low end of the range at 0.70 as in 2024 builds).  Two of those
 * rows, an RTX 3090 on the PR #13506 branch of 2025-05-14, ran a Vulkan step of the 2024 kind
 * (before the summer-2025 fusions; tests/accuracy/accuracy.c, vulkan_build_before_fusions)
 * and are now replayed as such: the other 27 sit at a median 7.2 %, bias −1.6 %, with the
 * constants unchanged.  CPU, CANN, MUSA
 * and vendor stacks were not fitted again: they have no row here and keep the table above.
 * CUDA prefill attention runs through the mma flash-attention kernels at 70 % of the matmul
 * rate (attn 0.35 × the flash-attention gain): fitted on llama.cpp's benches/dgx-spark.md
 * (GB10, pp2048 at depth 0 and 16384, build 6918) and an RTX 3090 pp512 at depth 32768.
 * ROCm's attn 0.20 was not refitted for #28, though the RX 7900 XTX pairs at depth 0 and 4096
 * of llama.cpp PR #26284 (flash attention off; -ub 512 Q4_K_M, -ub 64 Q5_K_M) put its
 * attention, with the dense n_kv spans, at 31–36 TFLOPS, about 0.5 of the 66 TFLOPS blend:
 * ROCm's rows run three attention paths (rocBLAS batched GEMMs without flash attention, the
 * mma kernel on RDNA 3 since PR #22880, the tile kernel on RDNA 2 and gfx906), and 0.5 for all
 * of them put the RX 6800 pp16384 flash-attention rows from +12 % to +46 %.  Also checked,
 * not modelled: RDNA's MMQ runs without stream-k (every mmq-config-rdna*.cuh entry has
 * stream_k false, so a small ubatch leaves CUs idle); counting whole waves of tiles predicts
 * 1.17–1.19x from -ub 512 to 1024 for Llama 8B on the RX 7900 XTX, against 1.03x measured. */
static const HrCalibration calibrations_current[HR_N_BACKENDS] = {
  /*                     name      bw    t_layer t_tok  ppref rt_MiB dlo   dhi   plo   phi   kv    attn  hop  moe_gbs moe_step */
  [HR_BACKEND_CUDA]   = { "CUDA",   0.92, 25.0,  0,    31.0, 350,   0.80, 1.15, 0.62, 1.55, 0.92, 0.35, 71, 0,  1.0 },
  [HR_BACKEND_ROCM]   = { "ROCm",   0.80, 95.0,  0,    36.0, 400,   0.80, 1.15, 0.55, 1.60, 0.80, 0.20, 71, 0,  1.0 },
  [HR_BACKEND_METAL]  = { "Metal",  0.85, 146.0, 0,    1.20, 0,     0.80, 1.15, 0.60, 1.40, 0.85, 1.00, 159, 400 },
  [HR_BACKEND_VULKAN] = { "Vulkan", 0.90, 58.0,  0,    31.0, 300,   0.70, 1.20, 0.55, 1.60, 0.80, 0.20, 71, 0,  1.0 },
  [HR_BACKEND_SYCL]   = { "SYCL",   0.62, 60.0,  0,    12.0, 400,   0.60, 1.25, 0.50, 1.60, 0.60, 0.15, 150 },
};

/* MoE decode, the batch-1 expert mat-vecs (ggml_mul_mat_id) of current builds.
 * CUDA and ROCm (moe_step, see hr-estimate.c, moe_expert_rate_seconds): ggml-cuda's
 * ids-indexed MMVQ gives each expert row one block that reads its id, then the row in passes
 * (mmvq.cu, calc_nwarps / blocks_per_iter); each dependent step costs the DRAM time of a full
 * pass.  1.0 is that kernel's own value, not a fit: scanning 0.8–1.1 on the fitted CUDA MoE
 * rows of current builds (RTX 3090 gpt-oss-20b and Gemma 4 26B-A4B, RTX 4090 gpt-oss-20b and
 * Qwen3-30B-A3B) puts 1.0 at their centre (−10…+22 %, median +3 %); the held-out RTX 4080
 * gpt-oss-20b row (−20 %) was not looked at.  It replaces a flat 340 GB/s ceiling that held
 * every card to the same rate (an RTX 5090 at 1792 GB/s would decode gpt-oss-20b at 195 t/s;
 * the step model says 329) and every row length alike.  Unified memory (GB10, Strix Halo)
 * is left out (see hr-estimate.c).  ROCm runs the same code through HIP with RDNA's blocks by
 * type (hr-estimate.c, mmvq_block_warps: RDNA 4 eight warps for Q6_K/Q8_0/4-bit k-quants,
 * RDNA 3 eight for Q8_0, two for Q6_K, one otherwise); moe_step 1.0 too, not fitted: its two
 * discrete MoE rows (Gemma 4 26B-A4B Q6_K, PR #26284) come to −8 % (RX 7900 XTX) and −21 %
 * (R9700).
 * Metal keeps moe_gbs 400 GB/s, a ceiling on kernel_mul_mv_id_*: M3 Ultra gpt-oss-20b and
 * M2 Ultra Qwen3-Coder-30B-A3B (300: −15 / −6 %, 400: −5 / +6 %); chips under ~470 GB/s (M4
 * Max and below) are not affected.  Vulkan takes moe_step 1.0 too: ggml-vulkan's
 * mul_mat_vec_id has the same id-then-passes workgroups, with its own pass widths
 * (hr-estimate.c, vk_mat_vec_cols_per_pass), on the generations whose rows show the loss
 * (Turing/Ampere, RDNA: vk_id_steps_exposed) — RTX 3060 gpt-oss-20b +40 → +17 %, RTX A4000
 * +51 → +27 %, RTX 3090 +24 → +8 %, RX 9070 XT +13 → +4 %, R9700 +14 → +3 %; the held-out RX
 * 9070 XT Gemma 4 26B-A4B +53 → +24 %; Ada and Blackwell (RTX 4090 −9 %, 4070 Ti −5 %, 5090
 * −8 / −22 %) stream it at the DRAM rate and are left alone.  SYCL keeps none: since
 * llama.cpp PR #21920 (merged 2026-04-22) ggml_sycl_mul_mat_id runs one token's experts as one
 * ids-indexed launch (ggml_sycl_mul_mat_id_mmvq_fused, mul_mat_vec_q_moe), no longer one
 * mat-vec per chosen expert after a host copy of the ids, and no row sizes its id steps
 * (hr-estimate.c, "SYCL MoE decode, checked for #28").  Intel Xe-HPG decode under SYCL and
 * Vulkan: HR_CAL_XE_HPG_DECODE_EFF. */

/* Metal decode of small models, checked for #28 and left as it is.  ggml-metal splits a step's
 * graph over n_cb command buffers encoded on host threads (ggml-metal-context.m,
 * ggml_metal_set_n_cb / encode_async), fuses neighbours in ggml_metal_op_encode() (n_fuse) and
 * lets nodes run without a barrier while their memory ranges do not overlap
 * (ggml-metal-ops.cpp, ggml_metal_op_concurrency_check; ggml_metal_op_concurrency_reset puts a
 * memory barrier otherwise): the per-layer cost is a chain of dependent kernels, as on Vulkan,
 * and t_layer_us 146 is that of a transformer block.  The small-model rows of current builds do
 * not sit high as a group (Llama 3.2 3B Q4_K_M: M1 Ultra +11 %, M3 Ultra −7 %, M4 +2 %;
 * TinyLlama on M1 Ultra −0.5 %; Qwen3.5 0.8B on M4 +2 / −3.5 %), so neither t_layer_us nor bw_eff
 * is wrong for them: the same model on M1 Ultra and M3 Ultra (800 / 819 GB/s) misses in
 * opposite directions, which a chip-dependent cost (host encoding on older cores?) could explain
 * but two rows cannot size.  Qwen3.5 4B on the M4 (+16 %, same post as the 0.8B rows) stays
 * unexplained: counting its Gated DeltaNet mixer at Vulkan's 1.5 blocks would bring it to +9.5 %
 * but the 0.8B rows to −10 / −13 %; the state's write-back (hr-estimate.c, kv_read_bytes) is
 * counted. */

/* Effective dense FLOP/s per Apple GPU core in prefill, M3 generation (see
 * hr_calibration_metal_pp_per_core) */
#define METAL_FLOPS_PER_CORE 0.25e12

/* Each Apple GPU generation runs llama.cpp's Metal matrix kernels at its own rate per core
 * (clock and ALU issue: M2 raised the clock over M1, M3's Apple9 cores added dynamic caching,
 * M4 a higher clock again), relative to M3.  Fitted on the Metal pp512 rows of 2023–24 builds
 * per chip (reference/bench_dev.csv, 52 rows of 15 chips: M1 family +14 % over the one
 * per-core rate, M2 +5 %, M3 −1 %, M4 −16 %); current builds (bench_public.csv) show the same
 * order.  Index: the generation's number; 0 when the chip is not known. */
static const double metal_generation_rate[] = { 1.00, 0.876, 0.948, 1.00, 1.193 };

const HrCalibration *
hr_calibration_for (HrBackend backend)
{
  if ((guint) backend >= HR_N_BACKENDS)
    backend = HR_BACKEND_OTHER;
  return &calibrations[backend];
}

const HrCalibration *
hr_calibration_speed (HrBackend       backend,
                      HrEngineVersion version)
{
  if (version != HR_ENGINE_VERSION_CURRENT || (guint) backend >= HR_N_BACKENDS ||
      calibrations_current[backend].name == NULL)
    return hr_calibration_for (backend);
  return &calibrations_current[backend];
}

double
hr_calibration_sysram_gbs (const HrGpu *gpu)
{
  /* Offloaded layers run at the host's DRAM speed: dual-channel DDR5 desktops (~80 GB/s
   * peak) behind consumer cards, 8–12-channel servers (~300 GB/s) behind datacenter parts.
   * Unified machines have no separate system RAM: offload reads the same memory. */
  if (gpu == NULL)
    return 80;
  switch (gpu->form)
    {
    case HR_FORM_DATACENTER:
      return 300;
    case HR_FORM_WORKSTATION:
      return 150;
    case HR_FORM_UNIFIED:
      return isfinite (gpu->bandwidth_gbs) ? gpu->bandwidth_gbs : 100;
    case HR_FORM_CONSUMER:
    default:
      return 80;
    }
}

/* The generation of an Apple chip: the catalog's (or the user's) generation, else read from
 * its name ("Apple M4 Pro", "Mac Studio M3 Ultra"): the digit after a word-initial "M"; 0
 * when there is none. */
static int
apple_generation (const HrGpu *gpu)
{
  const HrGpuGenerationInfo *info = hr_gpu_generation_info (gpu->generation);
  const char *name = gpu->name != NULL ? gpu->name : "";

  if (info != NULL && info->apple > 0)
    return info->apple;

  for (const char *p = name; *p != '\0'; p++)
    if (*p == 'M' && (p == name || p[-1] == ' ') && g_ascii_isdigit (p[1]) && !g_ascii_isdigit (p[2]))
      return p[1] - '0';
  return 0;
}

double
hr_calibration_metal_pp_per_core (const HrGpu *gpu)
{
  int gen = gpu != NULL ? apple_generation (gpu) : 0;

  if (gen <= 0)
    return METAL_FLOPS_PER_CORE;
  /* a newer generation than the table knows: at least the newest rate */
  return METAL_FLOPS_PER_CORE * metal_generation_rate[MIN (gen, (int) G_N_ELEMENTS (metal_generation_rate) - 1)];
}

double
hr_calibration_tensor_flops (const HrGpu *gpu)
{
  if (gpu == NULL)
    return NAN;
  if (isfinite (gpu->fp16_tflops) && gpu->fp16_tflops > 0)
    {
      /* GeForce halves FP16 with FP32 accumulate (the catalog's figure) but not FP16 / INT8
       * accumulation, which llama.cpp's cuBLAS F16 GEMMs and MMQ kernels use
       * (reference/gpu_specs.md §2).  That is a property of the tensor cores: a generation
       * without them (Pascal) has only its vector rate, the figure given. */
      const HrGpuGenerationInfo *gen = hr_gpu_generation_info (gpu->generation);
      gboolean geforce = gpu->form == HR_FORM_CONSUMER && gpu->vendor != NULL &&
                         g_ascii_strcasecmp (gpu->vendor, "NVIDIA") == 0 &&
                         (gen == NULL || gen->matrix_units);
      return gpu->fp16_tflops * 1e12 * (geforce ? 2.0 : 1.0);
    }
  if (gpu->backend == HR_BACKEND_METAL && gpu->gpu_cores > 0)
    return gpu->gpu_cores * hr_calibration_metal_pp_per_core (gpu);
  return NAN;
}

double
hr_calibration_prefill_flops (const HrGpu         *gpu,
                              const HrCalibration *cal)
{
  const HrGpuGenerationInfo *gen;
  double peak, ref;

  if (gpu == NULL || cal == NULL)
    return NAN;
  if (!(isfinite (gpu->fp16_tflops) && gpu->fp16_tflops > 0))
    {
      if (gpu->backend == HR_BACKEND_METAL && gpu->gpu_cores > 0)
        return gpu->gpu_cores * hr_calibration_metal_pp_per_core (gpu) * cal->prefill_util;
      return NAN;
    }
  peak = hr_calibration_tensor_flops (gpu);
  gen = hr_gpu_generation_info (gpu->generation);
  if (gen != NULL && !gen->matrix_units && gen->apple == 0)
    /* no matrix units: the figure given is the vector ALUs' FP16 rate, and the quantized
     * matrix multiplications run there (llama.cpp ggml-cuda/mmq.cuh: without int8 MMA —
     * turing_mma_available(), amd_mfma_available(), amd_wmma_available() all false — each MMQ
     * tile is computed by the vec_dot_*_dp4a functions with __dp4a / AMD sdot4; Vulkan devices
     * with "matrix cores: none" run the scalar mul_mm shaders).  The square-root blend, which
     * describes tensor-core devices held back by their non-tensor work, would credit such a
     * device its whole vector peak. */
    return peak * HR_CAL_VECTOR_PREFILL_SHARE;
  /* the blend lies above the peak when the peak is below the reference rate (a 26 TFLOPS card
   * would be credited 28): no kernel runs faster than the device's tensor peak.  The reference
   * stands for the non-tensor work (dequantization, norms, softmax) beside the tensor cores:
   * a Turing SM has 64 FP32 lanes beside tensor cores as fast per clock as those of a GA10x /
   * AD10x SM, which has 128 (NVIDIA Turing architecture whitepaper: 64 FP32 and 64 INT32 cores
   * per SM, RTX 2080 Ti 13.4 TFLOPS FP32 against 107.6 FP16-accumulate tensor TFLOPS; GA102
   * whitepaper: 128 FP32 cores per SM, RTX 3090 35.6 against 142), so that work runs at half
   * the rate for the tensor peak: HR_CAL_TURING_VECTOR_SHARE. */
  ref = cal->prefill_util * 1e12;
  if (gpu->generation == HR_GEN_TURING)
    ref *= HR_CAL_TURING_VECTOR_SHARE;
  return MIN (peak, sqrt (peak * ref));
}
