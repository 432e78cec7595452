/* test-estimate.c — the sizing model against the seed figures and hand-computed values
 *
 * The seed figures (SPEC §2) are facts of the model: exact to the printed digit.
 */
#include <math.h>
#include <string.h>

#include "hr-advice.h"
#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-units.h"

static HrCatalog *catalog;

static void
scenario (HrScenario *s,
          const char *model_id,
          const char *gpu_id)
{
  const HrModel *m = hr_catalog_find_model (catalog, model_id);
  const HrGpu *g = hr_catalog_find_gpu (catalog, gpu_id);

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  hr_scenario_init (s, m, g);
}

static double
gib2 (double bytes)
{
  return hr_round (hr_to_gib (bytes), 2);
}

static void
test_seed_glm45_air (void)
{
  HrScenario s;
  HrEstimate e;
  HrWeights w;
  g_autoptr(GError) error = NULL;

  scenario (&s, "glm-4.5-air", "dcu-k100-ai-64gb");
  g_assert_cmpfloat (s.model->total_params, ==, 110.47e9);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (gib2 (e.weights.bytes), ==, 67.96);
  g_assert_cmpint (e.weights.source, ==, HR_WEIGHTS_MEASURED);
  g_assert_cmpfloat (gib2 (e.kv_bytes), ==, 1.44);
  g_assert_cmpfloat (gib2 (e.usable_bytes), ==, 60.80);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpfloat (e.margin_bytes, <, 0);

  s.context = 32768;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (gib2 (e.kv_bytes), ==, 5.75);
  /* FP8 KV halves the cache: 5.75 → 2.875 GiB */
  g_assert_cmpfloat (hr_to_gib (hr_estimate_kv_at (&s, 32768, HR_KV_FP8)), ==, 2.875);

  /* the 80 GB MLU590: 76 GiB usable, fits with margin at 8K */
  scenario (&s, "glm-4.5-air", "mlu590-80gb");
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (gib2 (e.usable_bytes), ==, 76.00);
  g_assert_cmpfloat (gib2 (e.physical_bytes), ==, 80.00);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);

  /* BF16: 2 bytes per parameter of the official checkpoint */
  g_assert_true (hr_weights_compute (s.model, "BF16", &w, NULL));
  g_assert_cmpfloat (gib2 (w.bytes), ==, 205.77);
  g_assert_cmpint (w.source, ==, HR_WEIGHTS_CHECKPOINT);
}

static void
test_seed_glm45 (void)
{
  HrScenario s;
  HrEstimate e;

  scenario (&s, "glm-4.5", "dcu-k100-ai-64gb");
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (gib2 (e.kv_bytes), ==, 2.88);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  s.context = 32768;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (gib2 (e.kv_bytes), ==, 11.50);
}

/* llama.cpp corners of issue 15, each against a real allocation. */

/* llama-server --parallel N: every slot's stream keeps its own sliding-window cache.  Gemma 3
 * 270M (3 global + 15 sliding layers of one 256-wide KV head, window 512), KV buffers that
 * llama-server logged for -c / -np (unsloth PR #5225, verified against llama-server):
 *   -c 4096 -np 1: 27 MiB   -np 2: 42 MiB   -np 4: 72 MiB   -np 8: 72 MiB
 *   -c 8192 -np 1: 39 MiB   -np 2: 54 MiB */
static void
test_llama_swa_per_stream (void)
{
  g_autoptr(HrModel) m = hr_model_new ();
  HrScenario s;
  const HrGpu *g = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
  struct { gint64 ctx; int np; double mib; } runs[] = {
    { 4096, 1, 27 }, { 4096, 2, 42 }, { 4096, 4, 72 }, { 4096, 8, 72 }, { 8192, 1, 39 }, { 8192, 2, 54 },
  };

  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_FULL, 3, 1, 256, 256, 0, 0 });
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_SLIDING, 15, 1, 256, 256, 512, 0 });
  hr_scenario_init (&s, m, g);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      s.batch = runs[i].np;
      /* -c is the whole cache; a slot holds -c / -np */
      g_assert_cmpfloat (hr_estimate_kv_at (&s, runs[i].ctx / runs[i].np, HR_KV_F16), ==,
                         runs[i].mib * HR_MIB);
    }
}

/* llama.cpp keeps the recurrent convolution state in F32: Qwen3.5 4B (24 Gated-DeltaNet
 * layers) logs "RS buffer size = 50.25 MiB (1 seqs), R (f32): 2.25 MiB, S (f32): 48.00 MiB"
 * (JamePeng/llama-cpp-python#78).  vLLM keeps it in BF16 (the catalog's 2,146,304 B/layer). */
static void
test_llama_recurrent_f32 (void)
{
  HrScenario s;
  double attn;

  scenario (&s, "qwen3.5-4b", "rtx-4090-24gb");
  /* 8 attention layers × 4 KV heads × 256 × 2 × 2 B per token */
  attn = 8.0 * 4 * 256 * 2 * 2 * 4096;
  g_assert_cmpfloat (hr_estimate_kv_at (&s, 4096, HR_KV_F16) - attn, ==, 50.25 * HR_MIB);
  s.engine = HR_ENGINE_VLLM;
  g_assert_cmpfloat (hr_estimate_kv_at (&s, 4096, HR_KV_F16) - attn, ==, 24.0 * 2146304);
}

/* Without flash attention llama.cpp's compute buffer holds the KQ scores (n_kv × ubatch × heads
 * F32; the softmax runs in place), the F32 mask and four hidden-state rows per token: Llama 3.1
 * 405B, -c 4096 -ub 512, logged "compute buffer size = 1160.00 MiB" on each RPC worker
 * (ArmDeveloperEcosystem/arm-learning-paths, distributed-inference-with-llama-cpp, b5935).
 * The KQ scores alone (the earlier estimate) left it 6 % short. */
static void
test_llama_compute_no_flash_attn (void)
{
  HrScenario s;
  HrEstimate e;

  scenario (&s, "llama-3.1-405b", "rtx-4090-24gb");
  s.backend = HR_BACKEND_CPU;
  s.backend_set = TRUE;
  s.context = 4096;
  s.ubatch = 512;
  s.flash_attn = FALSE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.compute_bytes / (1160.00 * HR_MIB) - 1), <, 0.005);
  /* the CPU backend has one compute buffer: no host-side one beside it */
  g_assert_cmpfloat (e.host_compute_bytes, ==, 0);
  /* with flash attention the scores are never materialised: the logits decide */
  s.flash_attn = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.compute_bytes, <, 300 * HR_MIB);
}

/* Apple GPUs: prefill is the GPU cores × a rate per core of the chip's generation (read from its
 * name), so an M4 and an M1 with the same core count differ by the generations' rates
 * (1.193 / 0.876 of an M3 core), and a chip with no generation in its name keeps the M3 rate. */
static void
test_metal_prefill_per_generation (void)
{
  HrScenario s;
  HrEstimate m1, m4, m3;
  HrGpu *g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "m4-32gb"));

  g_assert_nonnull (g);
  g_assert_cmpint (g->gpu_cores, ==, 10);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_assert_true (hr_estimate_compute (&s, NULL, &m4, NULL));
  /* without a generation (a device of the user's), the chip's name tells it */
  g->generation = HR_GEN_UNKNOWN;
  g_free (g->name);
  g->name = g_strdup ("Apple M1 (10-core GPU)");
  g_assert_true (hr_estimate_compute (&s, NULL, &m1, NULL));
  g_free (g->name);
  g->name = g_strdup ("Custom Metal GPU");
  g_assert_true (hr_estimate_compute (&s, NULL, &m3, NULL));
  g_assert_cmpfloat (fabs (m4.prefill_tps / m1.prefill_tps / (1.193 / 0.876) - 1), <, 0.02);
  g_assert_cmpfloat (m4.prefill_tps, >, m3.prefill_tps);
  g_assert_cmpfloat (m3.prefill_tps, >, m1.prefill_tps);
  hr_gpu_free (g);
}

/* The loss moe_expert_rate_seconds() adds to a step, in seconds, read back from the basis:
 * the fixed milliseconds less the per-layer cost of CUDA current builds (25 µs). */
static double
moe_loss_seconds (const HrEstimate *e,
                  int               n_layers)
{
  return (e->decode_basis.figures[3] - n_layers * 25e-3) * 1e-3;
}

/* The batch-1 expert mat-vecs of a MoE layer (ggml_mul_mat_id through ggml-cuda's ids-indexed
 * MMVQ: one 128-thread block per expert row, which reads its expert id and then the row in
 * passes of 2048 weights at 4-5 bits) cost each dependent step of a block the DRAM time of a
 * full pass.  gpt-oss-20b's 2880-column rows take 3 steps for 1.4 passes of bytes (×2.133);
 * Qwen3-30B-A3B's 2048-column gate/up rows 2 steps for 1 pass (×2), its 768-column down rows 2
 * for 0.375 (×5.33): the shorter rows lose more per byte.  The loss scales with the card's
 * bandwidth (its blocks in flight): an RTX 5090 loses 1008/1792 of what a 4090 does.  An RTX
 * 4090 decodes Qwen3-30B-A3B Q4_0 at 194 t/s with -ub 1 (ggml-org/llama.cpp#15631), the bytes
 * alone predicting 294.  Unified memory (DGX Spark: Qwen3-Coder-30B-A3B Q8_0 at its measured
 * 60.9 t/s, benches/dgx-spark.md) loses nothing; Metal keeps its ceiling (M3 Ultra gpt-oss-20b
 * 115 t/s, geerlingguy/ai-benchmarks); a dense model and a server batch past the mat-vec
 * kernels' 8 tokens pay none. */
static void
test_moe_expert_rate (void)
{
  HrScenario s;
  HrEstimate e, e5090, dense;
  double qwen_experts, oss_experts, rate4090 = 1008e9 * 0.92;

  scenario (&s, "qwen3-30b-a3b", "rtx-4090-24gb");
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.context = 4096;
  s.prompt_tokens = 2048;
  s.depth = 2048;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_tps / 194.24 - 1), <, 0.12);
  /* (2 × 2 + 5.333) / 3 − 1 of the experts' bytes at the card's rate */
  qwen_experts = e.weights.expert_bytes * 8 / 128;
  g_assert_cmpfloat (fabs (moe_loss_seconds (&e, 48) * rate4090 / qwen_experts - (2 * 2 + 2 * 2048.0 / 768) / 3 + 1), <, 1e-3);

  scenario (&s, "gpt-oss-20b", "rtx-4090-24gb");
  g_strlcpy (s.quant, "MXFP4_MOE", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.context = 4096;
  s.prompt_tokens = 64;
  s.depth = 64;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  oss_experts = e.weights.expert_bytes * 4 / 32;
  g_assert_cmpfloat (fabs (moe_loss_seconds (&e, 24) * rate4090 / oss_experts - (3 * 2048.0 / 2880 - 1)), <, 1e-3);
  /* longer rows: less lost per expert byte than Qwen3-30B-A3B's */
  g_assert_cmpfloat (3 * 2048.0 / 2880 - 1, <, (2 * 2 + 2 * 2048.0 / 768) / 3 - 1);

  /* the same rows on a card with 1.78 × the bandwidth lose 1 / 1.78 of the time */
  scenario (&s, "gpt-oss-20b", "rtx-5090-32gb");
  g_strlcpy (s.quant, "MXFP4_MOE", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.context = 4096;
  s.prompt_tokens = 64;
  s.depth = 64;
  g_assert_true (hr_estimate_compute (&s, NULL, &e5090, NULL));
  g_assert_cmpfloat (fabs (moe_loss_seconds (&e5090, 24) / moe_loss_seconds (&e, 24) - 1008.0 / 1792), <, 1e-3);

  scenario (&s, "gpt-oss-20b", "m3-ultra-512gb");
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.context = 4096;
  s.prompt_tokens = 64;
  s.depth = 64;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_tps / 115.3 - 1), <, 0.10);

  scenario (&s, "qwen3-coder-30b-a3b", "dgx-spark-128gb");
  g_strlcpy (s.quant, "Q8_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.flash_attn = TRUE;
  s.context = 4096;
  s.prompt_tokens = 16;
  s.depth = 16;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_tps / 60.9 - 1), <, 0.10);
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 48 * 25e-3), <, 1e-9);

  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &dense, NULL));
  g_assert_cmpfloat (fabs (dense.decode_basis.figures[3] - 32 * 25e-3), <, 1e-9);

  /* 16 sequences: the tiled MMQ kernels, no loss */
  scenario (&s, "qwen3-30b-a3b", "rtx-4090-24gb");
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.batch = 16;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 48 * 25e-3), <, 1e-9);
}

/* A decode scenario at a short depth on @gpu_id under @backend (llama.cpp, current builds). */
static void
decode_on (HrScenario *s,
           const char *model_id,
           const char *gpu_id,
           const char *quant,
           HrBackend   backend)
{
  scenario (s, model_id, gpu_id);
  g_strlcpy (s->quant, quant, sizeof s->quant);
  s->engine_version = HR_ENGINE_VERSION_CURRENT;
  s->backend = backend;
  s->backend_set = TRUE;
  s->context = 4096;
  s->prompt_tokens = 64;
  s->depth = 64;
}

/* ggml-vulkan's batch-1 MUL_MAT_ID (ggml_vk_mul_mat_vec_id_q_f16) gives each workgroup rows of
 * one chosen expert: it reads the expert id, then walks the rows in passes of BLOCK_SIZE × 8
 * weights (mul_mat_vec.comp, MXFP4 and legacy quants) or BLOCK_SIZE / 16 super-blocks (k-quant
 * shaders).  BLOCK_SIZE is 128 on NVIDIA from Turing on for matrices of ≤ 8192 rows and ≥ 1024
 * columns, else one subgroup (NVIDIA 32, AMD 64).  Each dependent step costs a full pass of DRAM
 * time, as in ggml-cuda (moe_expert_rate_seconds), on the generations whose Vulkan rows show it
 * (Ampere, RDNA): gpt-oss-20b's 2880-column MXFP4 rows on an RTX 3090 take 1 + 3 steps for
 * 2880 / 1024 passes (×1.422), on an RX 9070 XT (64 threads, 512 a pass) 1 + 6 for 5.625
 * (×1.244); Qwen3-30B-A3B Q4_K_M on the RTX 3090: 2048-column gate/up rows 2 steps for one pass
 * of 2048, its 768-column down rows (one subgroup: 512 a pass) 3 for 1.5 (×2 all).  An RTX 4090
 * (Ada) streams the same kernel at the DRAM rate: nothing but the per-layer cost. */
static void
test_vulkan_moe_id_steps (void)
{
  HrScenario s;
  HrEstimate e;
  double oss_experts, qwen_experts;

  decode_on (&s, "gpt-oss-20b", "rtx-3090-24gb", "MXFP4_MOE", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  oss_experts = e.weights.expert_bytes * 4 / 32;
  g_assert_cmpfloat (fabs ((e.decode_basis.figures[3] - 24 * 58e-3) * 1e-3 * 936e9 * 0.90 / oss_experts
                           - (4 * 1024.0 / 2880 - 1)), <, 1e-3);

  decode_on (&s, "gpt-oss-20b", "rx-9070-xt-16gb", "MXFP4_MOE", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs ((e.decode_basis.figures[3] - 24 * 58e-3) * 1e-3 * 640e9 * 0.90 / oss_experts
                           - (7 * 512.0 / 2880 - 1)), <, 1e-3);

  decode_on (&s, "qwen3-30b-a3b", "rtx-3090-24gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  qwen_experts = e.weights.expert_bytes * 8 / 128;
  g_assert_cmpfloat (fabs ((e.decode_basis.figures[3] - 48 * 58e-3) * 1e-3 * 936e9 * 0.90 / qwen_experts - 1), <, 1e-3);

  /* Ada: no loss; a dense model: none either */
  decode_on (&s, "gpt-oss-20b", "rtx-4090-24gb", "MXFP4_MOE", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 24 * 58e-3), <, 1e-9);
  decode_on (&s, "llama-3.1-8b", "rtx-3090-24gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 32 * 58e-3), <, 1e-9);
}

/* Gemma 4's block (llama.cpp src/models/gemma4-iswa.cpp) runs 11 kernels beyond a llama MoE
 * block's 14 (a dense GEGLU MLP beside the experts with its two norms, the router's own
 * RMS_NORM·SCALE·MUL, the experts' post norm, the ADD of both, V's RMS_NORM, out_scale), 2 in
 * its dense form: each costs a fourteenth of the calibrated per-layer cost on every llama.cpp
 * GPU backend; a llama or Gemma 3 block none. */
static void
test_block_extra_kernels (void)
{
  static const struct
  {
    HrBackend backend;
    const char *gpu;
    const char *quant;
    double t_layer_ms;
  } cases[] = {
    { HR_BACKEND_CUDA, "rtx-3090-24gb", "Q4_0", 25e-3 },
    { HR_BACKEND_ROCM, "rx-7900-xtx-24gb", "Q6_K", 95e-3 },
    { HR_BACKEND_VULKAN, "rx-9070-xt-16gb", "Q3_K_M", 58e-3 },
    { HR_BACKEND_METAL, "m3-ultra-512gb", "Q4_K_M", 146e-3 },
  };
  HrScenario s;
  HrEstimate e, plain;

  g_assert_cmpint (hr_catalog_find_model (catalog, "gemma-4-26b-a4b")->extra_block_kernels, ==, 11);
  g_assert_cmpint (hr_catalog_find_model (catalog, "gemma-4-31b")->extra_block_kernels, ==, 2);
  g_assert_cmpint (hr_model_llama_extra_block_kernels ("gemma4", TRUE), ==, 11);
  g_assert_cmpint (hr_model_llama_extra_block_kernels ("gemma4_text", FALSE), ==, 2);
  g_assert_cmpint (hr_model_llama_extra_block_kernels ("gemma3", FALSE), ==, 0);
  g_assert_cmpint (hr_model_llama_extra_block_kernels ("llama", FALSE), ==, 0);

  /* 16 sequences on CUDA: the tiled kernels, no MUL_MAT_ID loss; only the blocks' launches */
  scenario (&s, "gemma-4-26b-a4b", "rtx-3090-24gb");
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.batch = 16;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 30 * 25e-3 * (14 + 11) / 14.0), <, 1e-9);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (HrModel) llama_like = NULL;

      decode_on (&s, "gemma-4-26b-a4b", cases[i].gpu, cases[i].quant, cases[i].backend);
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      llama_like = hr_model_copy (s.model);
      llama_like->extra_block_kernels = 0;
      s.model = llama_like;
      g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
      g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - plain.decode_basis.figures[3] -
                               30 * cases[i].t_layer_ms * 11 / 14.0), <, 1e-9);
      g_assert_cmpfloat (e.decode_tps, <, plain.decode_tps);
    }

  /* the dense Gemma 4: 2 more a block; Gemma 3: none */
  decode_on (&s, "gemma-4-31b", "rtx-3090-24gb", "Q4_K_M", HR_BACKEND_CUDA);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 60 * 25e-3 * 16 / 14.0), <, 1e-9);
  decode_on (&s, "gemma-3-4b", "rtx-3090-24gb", "Q4_0", HR_BACKEND_CUDA);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - s.model->n_layers * 25e-3), <, 1e-9);
}

/* Intel Xe-HPG (Arc A-series) under SYCL and Vulkan: llama.cpp's mat-vecs run each row on one
 * 16-lane subgroup on 8-wide vector engines and reach 0.27 of the bandwidth (SYCL guide: an
 * A770 decodes llama-2-7b Q4_0 at 37 t/s), where the same card named Xe2 keeps the backend's
 * fraction (SYCL 0.62, Vulkan 0.90) and CUDA's is untouched. */
static void
test_xe_hpg_decode (void)
{
  g_autoptr(HrGpu) arc = hr_gpu_new_from_spec ("memory_gib=16,bandwidth_gbs=560,backend=sycl,generation=xe-hpg", NULL);
  const HrModel *m = hr_catalog_find_model (catalog, "llama-3.1-8b");
  HrScenario s;
  HrEstimate e, xe2;

  g_assert_nonnull (arc);
  g_assert_cmpint (arc->generation, ==, HR_GEN_XE_HPG);
  hr_scenario_init (&s, m, arc);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.decode_basis.figures[1], ==, 27);
  g_assert_cmpfloat (e.decode_efficiency, ==, 0.27);
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.decode_basis.figures[1], ==, 27);

  arc->generation = HR_GEN_XE2;
  g_assert_true (hr_estimate_compute (&s, NULL, &xe2, NULL));
  g_assert_cmpfloat (xe2.decode_basis.figures[1], ==, 90);
  /* the weights at 0.27 instead of 0.90 of the bandwidth: over three times the step */
  g_assert_cmpfloat (xe2.decode_tps / e.decode_tps, >, 2.5);
  s.backend = HR_BACKEND_SYCL;
  g_assert_true (hr_estimate_compute (&s, NULL, &xe2, NULL));
  g_assert_cmpfloat (xe2.decode_basis.figures[1], ==, 62);
  arc->generation = HR_GEN_XE_HPG;
  s.backend = HR_BACKEND_CUDA;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.decode_basis.figures[1], ==, 92);
}

/* The generation decides what the datasheet's FP16 figure means.  A GeForce card's tensor cores
 * run FP16-accumulate GEMMs at twice the FP32-accumulate figure the catalog gives; a Pascal card
 * has no tensor cores, so its figure is all there is: the same card as Pascal prefills at half
 * the tensor rate.  An Apple chip's per-core rate follows its catalog generation, not only its
 * name. */
static void
test_generation_mechanisms (void)
{
  HrGpu *g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "rtx-3090-24gb"));
  HrScenario s;
  HrEstimate ampere, pascal, named, m1;

  g_assert_cmpint (g->generation, ==, HR_GEN_AMPERE);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  /* 16-bit weights: cuBLAS on the FP16 tensor rate (quantized ones take the int8 MMQ path,
   * test_prefill_int8_mmq) */
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &ampere, NULL));
  g->generation = HR_GEN_PASCAL;
  g_assert_true (hr_estimate_compute (&s, NULL, &pascal, NULL));
  g_assert_cmpfloat (ampere.prefill_basis.figures[2], ==, 2 * pascal.prefill_basis.figures[2]);
  g_assert_cmpfloat (pascal.prefill_tps, <, ampere.prefill_tps);
  hr_gpu_free (g);

  g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "m4-32gb"));
  g_assert_cmpint (g->generation, ==, HR_GEN_APPLE_M4);
  g_free (g->name);
  g->name = g_strdup ("My Mac");
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_assert_true (hr_estimate_compute (&s, NULL, &named, NULL));
  g->generation = HR_GEN_APPLE_M1;
  g_assert_true (hr_estimate_compute (&s, NULL, &m1, NULL));
  g_assert_cmpfloat (fabs (named.prefill_tps / m1.prefill_tps / (1.193 / 0.876) - 1), <, 0.02);
  hr_gpu_free (g);
}

/* Without matrix units llama.cpp's CUDA/ROCm MMQ runs its dp4a path, where unpacking the
 * weight tile shares the vector ALUs with the dot products: a table-looked-up IQ type or Q3_K
 * reaches 0.39 of the FP16 vector rate, the 4-8-bit types keep the generic 0.50.  An Instinct
 * MI50 (gfx906) prefilled Llama 8B IQ4_XS at 590 t/s (llama.cpp PR #27841) where one share
 * gave 761.  Vulkan's shaders keep the one share, and a card with matrix units is not
 * affected. */
static void
test_prefill_dp4a_types (void)
{
  static const struct { const char *quant; double share; } types[] = {
    { "Q4_0", 0.50 }, { "Q4_K_M", 0.50 }, { "Q5_0", 0.50 }, { "Q8_0", 0.50 },
    { "IQ4_XS", 0.39 }, { "IQ4_NL", 0.39 }, { "Q3_K_S", 0.39 }, { "IQ2_XS", 0.39 },
  };
  HrGpu *g = hr_gpu_new_from_spec ("memory_gib=32,bandwidth_gbs=1024,fp16_tflops=26.8,backend=rocm,generation=gfx906", NULL);
  HrScenario s;
  HrEstimate e, q4, iq4;

  g_assert_nonnull (g);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 1024;
  s.ubatch = 512;
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_strlcpy (s.quant, types[i].quant, sizeof s.quant);
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
      g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - types[i].share * 26.8), <, 1e-9);
    }
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &q4, NULL));
  g_strlcpy (s.quant, "IQ4_XS", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &iq4, NULL));
  /* the MI50 IQ4_XS row of PR #27841 within 10 %; the lookup type at about 0.78 of Q4_0 */
  g_assert_cmpfloat (fabs (iq4.prefill_tps / 590.40 - 1), <, 0.10);
  g_assert_cmpfloat (iq4.prefill_tps / q4.prefill_tps, >, 0.75);
  g_assert_cmpfloat (iq4.prefill_tps / q4.prefill_tps, <, 0.85);

  /* Vulkan on the same card: one share for every type */
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - 0.5 * 26.8), <, 1e-9);
  /* a generation with matrix units: the type does not move the dense rate */
  s.backend = HR_BACKEND_ROCM;
  g->generation = HR_GEN_CDNA2;
  g_assert_true (hr_estimate_compute (&s, NULL, &iq4, NULL));
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &q4, NULL));
  g_assert_cmpfloat (q4.prefill_basis.figures[1], ==, iq4.prefill_basis.figures[1]);
  hr_gpu_free (g);
}

/* llama.cpp's CUDA backend turns CUDA graphs off below compute capability 7.0
 * (ggml-cuda.cu, ggml_cuda_graph_set_enabled(): disable_due_to_gpu_arch), so a Pascal card
 * launches every kernel of a decode step from the host: the per-layer fixed cost of the
 * builds before graphs (121 µs) instead of 25 µs.  A Tesla P40 decoded Llama 8B Q4_0 at
 * 56.2 t/s (b6341) where 68.5 was estimated.  Volta and Turing have graphs since llama.cpp
 * PR #25749; the same card as Ampere keeps the graph figure; so do 2024 builds (their table
 * already is the launch-bound one) and the other backends. */
static void
test_cuda_graphs_by_generation (void)
{
  static const HrGpuGeneration with[] = { HR_GEN_VOLTA, HR_GEN_TURING, HR_GEN_ADA, HR_GEN_BLACKWELL };
  HrGpu *g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "rtx-3090-24gb"));
  HrScenario s;
  HrEstimate ampere, old, e;

  g_assert_cmpint (g->generation, ==, HR_GEN_AMPERE);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &ampere, NULL));
  g_assert_cmpint (ampere.decode_basis.kind, ==, HR_BASIS_DECODE_MEMORY);
  g_assert_cmpfloat (fabs (ampere.decode_basis.figures[3] - 32 * 25e-3), <, 1e-9);
  g->generation = HR_GEN_PASCAL;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 32 * 121e-3), <, 1e-9);
  /* 3.1 ms more a token on a ~6 ms step */
  g_assert_cmpfloat (e.decode_tps, <, 0.7 * ampere.decode_tps);
  /* the weights stream as before: only the fixed part changed */
  g_assert_cmpfloat (e.bytes_per_token, ==, ampere.bytes_per_token);
  for (guint i = 0; i < G_N_ELEMENTS (with); i++)
    {
      g->generation = with[i];
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_cmpfloat (e.decode_basis.figures[3], ==, ampere.decode_basis.figures[3]);
    }

  /* 2024 builds: one table for every generation */
  s.engine_version = HR_ENGINE_VERSION_2024;
  g->generation = HR_GEN_AMPERE;
  g_assert_true (hr_estimate_compute (&s, NULL, &old, NULL));
  g->generation = HR_GEN_PASCAL;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.decode_basis.figures[3], ==, old.decode_basis.figures[3]);

  /* Vulkan on the same Pascal card has no CUDA graphs to lose */
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g->generation = HR_GEN_PASCAL;
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 32 * 58e-3), <, 1e-9);
  hr_gpu_free (g);
}

/* A Pascal card of compute capability 6.1 publishes FP16 at 1/64 of FP32 (Tesla P40: 0.18
 * TFLOPS), and llama.cpp runs no FP16 math on it (ggml-cuda: fast_fp16_available() excludes
 * 610): quantized weights go through MMQ / MMVQ's int8 dp4a (4 × FP32 = 46 TOPS), F16 weights
 * through cuBLAS in FP32 (11.5 TFLOPS).  Given its FP16 figure, the P40 was called
 * compute-bound at 5.5 t/s on Llama 8B with a 13-minute first token; it decodes Llama 8B Q4_0
 * at 56.2 t/s (llama.cpp PR #15715, b6341) and prefills Llama 7B Q4_0 at 912 t/s (PR #4766).
 * Prefill never exceeds the peak of the path it names; a GP100 (fast FP16, 18.7 TFLOPS) keeps
 * its FP16 figure, and the card under Vulkan says its prefill is unknown. */
static void
test_pascal_slow_fp16 (void)
{
  static const char * const spec = "name=P40,memory_gib=24,bandwidth_gbs=347,fp16_tflops=0.18,generation=pascal";
  g_autoptr(HrGpu) g = hr_gpu_new_from_spec (spec, NULL);
  g_autoptr(HrGpu) p100 = hr_gpu_new_from_spec ("memory_gib=16,bandwidth_gbs=732,fp16_tflops=18.7,generation=pascal", NULL);
  HrScenario s;
  HrEstimate q4, f16, batch, e;
  g_autofree char *q4_text = NULL, *f16_text = NULL, *batch_text = NULL, *unknown_text = NULL;

  g_assert_nonnull (g);
  g_assert_true (hr_gpu_pascal_slow_fp16 (g));
  /* an NVIDIA generation without backend= runs CUDA */
  g_assert_cmpint (g->backend, ==, HR_BACKEND_CUDA);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &q4, NULL));

  /* decode streams the weights: memory-bound, near the P40's 56.2 t/s */
  g_assert_false (q4.compute_bound);
  g_assert_cmpint (q4.decode_basis.kind, ==, HR_BASIS_DECODE_MEMORY);
  g_assert_cmpfloat (fabs (q4.decode_tps_empty / 56.22 - 1), <, 0.15);
  /* prefill on the int8 dp4a path: a quarter of 0.18 × 64 × 4 TOPS, within 20 % of 912 t/s
   * scaled to the 8B's FLOPs */
  g_assert_cmpint (q4.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpint (q4.prefill_basis.path, ==, HR_COMPUTE_PATH_DP4A);
  g_assert_cmpfloat (fabs (q4.prefill_basis.figures[2] - 0.18 * 64 * 4), <, 1e-9);
  g_assert_cmpfloat (fabs (q4.prefill_basis.figures[1] - 0.25 * 0.18 * 64 * 4), <, 1e-9);
  g_assert_cmpfloat (q4.prefill_tps, <=, 0.18e12 * 64 * 4 / (2.0 * s.model->active_params));
  g_assert_cmpfloat (q4.prefill_tps, >, 500);
  g_assert_cmpfloat (q4.ttft_ms, <, 5000);
  q4_text = hr_basis_text (&q4.prefill_basis);
  g_assert_nonnull (strstr (q4_text, "of 46.1 peak TOPS (int8 dp4a)"));

  /* F16 weights: cuBLAS in FP32, under the FP32 peak */
  g_strlcpy (s.quant, "F16", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &f16, NULL));
  g_assert_false (f16.compute_bound);
  g_assert_cmpint (f16.prefill_basis.path, ==, HR_COMPUTE_PATH_FP32);
  g_assert_cmpfloat (fabs (f16.prefill_basis.figures[2] - 0.18 * 64), <, 1e-9);
  g_assert_cmpfloat (f16.prefill_basis.figures[1], <=, f16.prefill_basis.figures[2]);
  g_assert_cmpfloat (f16.prefill_tps, <=, 0.18e12 * 64 / (2.0 * s.model->active_params));
  f16_text = hr_basis_text (&f16.prefill_basis);
  g_assert_nonnull (strstr (f16_text, "peak TFLOPS (FP32)"));

  /* a batch that does reach the compute roof names the path it runs on */
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.batch = 256;
  s.context = 512;
  s.depth = 64;
  g_assert_true (hr_estimate_compute (&s, NULL, &batch, NULL));
  g_assert_true (batch.compute_bound);
  g_assert_cmpint (batch.decode_basis.path, ==, HR_COMPUTE_PATH_DP4A);
  batch_text = hr_basis_text (&batch.decode_basis);
  g_assert_nonnull (strstr (batch_text, "TOPS achieved (int8 dp4a)"));
  s.batch = 1;

  /* Vulkan on the card: which ALUs run the matrices is not modelled */
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_false (e.compute_bound);
  g_assert_true (isnan (e.prefill_tps));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_PATH_UNKNOWN);
  unknown_text = hr_basis_text (&e.prefill_basis);
  g_assert_nonnull (strstr (unknown_text, "int8 dp4a"));

  /* GP100: fast FP16, the figure given is the rate its cuBLAS FP16 GEMMs run at */
  g_assert_false (hr_gpu_pascal_slow_fp16 (p100));
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), p100);
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.path, ==, HR_COMPUTE_PATH_DEFAULT);
  g_assert_cmpfloat (e.prefill_basis.figures[2], ==, 18.7);
}

/* On LPDDR5X unified memory (GB10, Strix Halo) the decode mat-vecs stream at no more than
 * HR_CAL_LPDDR_PEAK_SHARE (0.736) of the peak: a ceiling, not a factor of 0.80 on every
 * backend's discrete-card rate.  ROCm, held to 0.80 by its RDNA mat-vec on wide GDDR6 buses,
 * was put at 0.80 × 0.80 = 0.64 of Strix Halo's 256 GB/s (gpt-oss-120b 39.5 t/s estimated,
 * 45.4 measured; Llama 3.2 3B −11 %); CUDA on GB10 keeps 0.92 × 0.80.  The basis says the
 * share the weights really stream at, not the discrete-card figure. */
/* ggml-vulkan's per-layer fixed cost is a chain of dependent dispatches, so it follows the
 * kernels a layer runs: Nemotron-H blocks (nemotron-h.cpp) hold one sub-block each — 6
 * attention and 23 FFN blocks at half a transformer block, 23 Mamba2 mixers at
 * HR_CAL_VK_RECURRENT_MIXER — and a Gated DeltaNet layer (Qwen3.5) runs its mixer in place of
 * the attention half.  Standard blocks keep 58 µs each; CUDA is untouched. */
static void
test_vulkan_dispatch_chain (void)
{
  HrScenario s;
  HrEstimate e;

  decode_on (&s, "nemotron-3-nano-30b-a3b", "rtx-5090-32gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 58e-3 * (0.5 * (23 + 6) + HR_CAL_VK_RECURRENT_MIXER * 23)), <, 1e-9);
  /* the held-out RTX 5090 row (273.3 t/s) was −22 % with 52 full blocks */
  g_assert_cmpfloat (e.decode_tps, >, 240);

  decode_on (&s, "nemotron-3-nano-30b-a3b", "rtx-5090-32gb", "Q4_K_M", HR_BACKEND_CUDA);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  /* every block at CUDA's 25 µs, its expert mat-vec steps on top */
  g_assert_cmpfloat (e.decode_basis.figures[3], >, 52 * 25e-3);

  decode_on (&s, "qwen3.5-35b-a3b", "ryzen-ai-max-395-128gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 58e-3 * (10 + 30 * (HR_CAL_VK_RECURRENT_MIXER + 0.5))), <, 1e-9);
  /* the fit row: 64.85 t/s (llama.cpp issue #22375, b8460), checked under the default LPDDR
   * ceiling (0.736) the mixer figure was chosen with; at Strix Halo's measured 212 of 256 GB/s
   * the row is estimated 8 % high (70.3 t/s) */
  g_assert_cmpfloat (e.decode_tps / 64.85 - 1, >, 0.05);
  g_assert_cmpfloat (e.decode_tps / 64.85 - 1, <, 0.10);
  {
    g_autoptr(HrGpu) unmeasured = hr_gpu_copy (s.gpu);
    HrEstimate d;

    unmeasured->bandwidth_measured_gbs = NAN;
    s.gpu = unmeasured;
    g_assert_true (hr_estimate_compute (&s, NULL, &d, NULL));
    g_assert_cmpfloat (fabs (d.decode_tps / 64.85 - 1), <, 0.03);
  }

  /* a transformer model keeps one block a layer */
  decode_on (&s, "qwen3-30b-a3b", "rtx-5090-32gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 48 * 58e-3), <, 1e-9);
}

/* ggml-cuda's mat-vec on RDNA under ROCm: calc_nwarps() (mmvq.cu) gives the RDNA 4 table
 * (MMVQ_PARAMETERS_RDNA4, llama.cpp PR #19478) eight warps of 32 a block for the types with a
 * simple vec_dot (Q4_0 … Q8_0, Q2_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS), and the RDNA 3 table
 * eight for the legacy quants and IQ4_NL, two for Q6_K; everything else keeps the one warp of
 * the RDNA 2 table that ROCm's bw_eff 0.80 stands for.  Eight warps put more loads in flight a
 * block than CUDA's four on NVIDIA: those types stream at CUDA's 0.92.  The R9700 Llama 8B
 * Q6_K row (PR #18816, 80.1 t/s) was 70.4 estimated (−12 %), 78.2 now (−2.4 %); the RX 9070
 * Qwen3-8B Q4_K_M row of PR #24386 (89.0 t/s) is estimated at 87.9. */
static void
test_rocm_rdna_mmvq_warps (void)
{
  static const struct { const char *model, *gpu, *quant; double eff; } cases[] = {
    { "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "Q6_K", 0.92 },
    { "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "Q4_K_M", 0.92 },
    { "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "IQ4_XS", 0.92 },
    /* Q3_K and MXFP4 are not in the RDNA 4 table: one warp */
    { "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "Q3_K_M", 0.80 },
    { "gpt-oss-20b", "rx-9070-xt-16gb", "MXFP4_MOE", 0.80 },
    /* RDNA 3: legacy quants eight warps, Q6_K two, the k-quants one */
    { "llama-3.1-8b", "w7900-48gb", "Q4_0", 0.92 },
    { "llama-3.1-8b", "w7900-48gb", "Q6_K", 0.80 },
    { "llama-3.1-8b", "rx-7900-xtx-24gb", "Q4_K_M", 0.80 },
  };
  HrScenario s;
  HrEstimate e;
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      decode_on (&s, cases[i].model, cases[i].gpu, cases[i].quant, HR_BACKEND_ROCM);
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_cmpfloat (fabs (e.decode_efficiency - cases[i].eff), <, 1e-12);
    }

  decode_on (&s, "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "Q6_K", HR_BACKEND_ROCM);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  text = hr_basis_text (&e.decode_basis);
  g_assert_nonnull (strstr (text, "at 92% of 640 GB/s"));

  /* 2024 builds, Vulkan on the same card and RDNA 3.5 (Strix Halo: the RDNA 2 table) keep
   * their own figures */
  s.engine_version = HR_ENGINE_VERSION_2024;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_efficiency - 0.80), <, 1e-12);
  decode_on (&s, "llama-3.1-8b", "radeon-ai-pro-r9700-32gb", "Q6_K", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_efficiency - 0.90), <, 1e-12);
  decode_on (&s, "llama-3.1-8b", "ryzen-ai-max-395-128gb", "Q4_K_M", HR_BACKEND_ROCM);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  /* the one-warp 0.80, below the 212 of 256 GB/s the memory reaches */
  g_assert_cmpfloat (fabs (e.decode_efficiency - 0.80), <, 1e-12);
}

/* ggml-cuda's batch-1 MUL_MAT_ID under ROCm (ggml_cuda_mul_mat_id: one token →
 * ggml_cuda_mul_mat_vec_q with ids) launches the blocks calc_nwarps() gives the expert type on
 * the device's table, ncols_dst 1 — the same as a dense mat-vec (mmvq.cu, calc_launch_params;
 * no small-K widening on RDNA).  Gemma 4 26B-A4B Q6_K: gate/up experts Q6_K (2816 columns),
 * down experts Q8_0 (704 columns, no multiple of 256: llama-quantize's fallback).  RDNA 4
 * (R9700): eight warps for both, 2048 weights a pass; RDNA 3 (RX 7900 XTX): Q6_K two warps (512),
 * Q8_0 eight (2048); RDNA 2: one (256).  Each expert matrix costs (1 + passes) full passes,
 * averaged over the experts' bytes; Strix Halo (unified) none.  The fitted rows of PR #26284's
 * master column: RX 7900 XTX 88.5 t/s (was estimated +23 %), R9700 81.1 (+18.5 %). */
static void
test_rocm_rdna_moe_id_blocks (void)
{
  static const struct { const char *gpu; int generation; double pass_in, pass_out, eff, bw; } cases[] = {
    { "radeon-ai-pro-r9700-32gb", -1, 2048, 2048, 0.92, 640e9 },
    { "rx-7900-xtx-24gb", -1, 512, 2048, 0.80, 960e9 },
    { "rx-7900-xtx-24gb", HR_GEN_RDNA2, 256, 256, 0.80, 960e9 },
  };
  const double bpw_in = 210 * 8 / 256.0, bpw_out = 34 * 8 / 32.0;
  HrScenario s;
  HrEstimate e;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HrGpu) gpu = hr_gpu_copy (hr_catalog_find_gpu (catalog, cases[i].gpu));
      double f_in = (1 + ceil (2816 / cases[i].pass_in)) * cases[i].pass_in / 2816;
      double f_out = (1 + ceil (704 / cases[i].pass_out)) * cases[i].pass_out / 704;
      double factor = (2 * bpw_in * f_in + bpw_out * f_out) / (2 * bpw_in + bpw_out);
      double experts, loss;

      if (cases[i].generation >= 0)
        gpu->generation = cases[i].generation;
      decode_on (&s, "gemma-4-26b-a4b", cases[i].gpu, "Q6_K", HR_BACKEND_ROCM);
      s.gpu = gpu;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_cmpfloat (fabs (e.decode_efficiency - cases[i].eff), <, 1e-12);
      experts = e.weights.expert_bytes * 8 / 128;
      loss = (e.decode_basis.figures[3] - 30 * 95e-3 * (14 + 11) / 14.0) * 1e-3;
      g_assert_cmpfloat (fabs (loss * cases[i].bw * cases[i].eff / experts / (factor - 1) - 1), <, 1e-3);
    }
  /* RDNA 4's eight-warp passes lose more on these short rows than RDNA 3's */
  g_assert_cmpfloat ((2 * bpw_in * 3 * 2048 / 2816 + bpw_out * 2 * 2048 / 704),
                     >, (2 * bpw_in * 7 * 512 / 2816 + bpw_out * 2 * 2048 / 704));

  /* unified memory (Strix Halo, RDNA 3.5): the experts at the DRAM rate, no step loss */
  decode_on (&s, "gemma-4-26b-a4b", "ryzen-ai-max-395-128gb", "Q6_K", HR_BACKEND_ROCM);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 30 * 95e-3 * (14 + 11) / 14.0), <, 1e-9);
}

/* RDNA 4 cards prefill on their matrix rate (#28): with the R9700's and RX 9070 XT's FP16
 * matrix figures in the catalog, prefill there is a compute-bound estimate on ROCm and Vulkan
 * (unknown before), never above the card's peak.  Replay (tests/accuracy): R9700 ROCm Llama
 * 3.1 8B Q4_K_M pp2048 3854 t/s (PR #26284) estimated 4031; RX 9070 XT Vulkan Llama 3.1 8B
 * Q4_K_M pp512 4802 t/s estimated 4341. */
static void
test_rdna4_prefill_known (void)
{
  static const struct { const char *gpu; HrBackend backend; double peak; } cases[] = {
    { "radeon-ai-pro-r9700-32gb", HR_BACKEND_ROCM, 191 },
    { "radeon-ai-pro-r9700-32gb", HR_BACKEND_VULKAN, 191 },
    { "rx-9070-xt-16gb", HR_BACKEND_VULKAN, 194.64 },
  };
  HrScenario s;
  HrEstimate e;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      decode_on (&s, "llama-3.1-8b", cases[i].gpu, "Q4_K_M", cases[i].backend);
      s.prompt_tokens = 512;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_true (isfinite (e.prefill_tps));
      g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
      g_assert_cmpfloat (fabs (e.prefill_basis.figures[2] - cases[i].peak), <, 1e-9);
      g_assert_cmpfloat (e.prefill_basis.figures[1], <=, e.prefill_basis.figures[2]);
      g_assert_cmpfloat (e.prefill_tps, >, 1000);
    }
}

/* Strix Halo (RDNA 3.5) prefills on the share of its matrix peak that the ROCm blend's Navi 31
 * cards reach (hr-estimate.c, rdna35_prefill_share): the catalog's 39.1 TFLOPS (40 CU × 512
 * FLOPs × the 1.91 GHz held under GEMM load) × √(reference / 122.8), on ROCm and on Vulkan.
 * Prefill was unknown before (no FP16 figure); the datasheet-clock 59.4 with the plain blend
 * came out about twice every kyuz0 row.  kyuz0's toolboxes (tests/accuracy/bench_public.csv,
 * build 9187): Gemma 4 31B UD-Q4_K_XL pp512 322.69 t/s on ROCm, 301.53 on Vulkan.  The same
 * figure on a device named RDNA 3 keeps the blend (√(39.1 × 36) = 37.5, near the peak). */
static void
test_rdna35_prefill_share (void)
{
  static const struct { HrBackend backend; double ref, measured; } cases[] = {
    { HR_BACKEND_ROCM, 36.0, 322.69 },
    { HR_BACKEND_VULKAN, 31.0, 301.53 },
  };
  const HrGpu *halo = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  g_autoptr(HrGpu) rdna3 = hr_gpu_copy (halo);
  HrScenario s;
  HrEstimate e, r3;

  g_assert_cmpfloat (halo->fp16_tflops, ==, 39.1);
  g_assert_cmpint (halo->generation, ==, HR_GEN_RDNA3_5);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double share = sqrt (cases[i].ref / 122.8);

      decode_on (&s, "gemma-4-31b", "ryzen-ai-max-395-128gb", "UD-Q4_K_XL", cases[i].backend);
      s.prompt_tokens = 512;
      s.depth = 0;
      s.flash_attn = TRUE;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_true (isfinite (e.prefill_tps));
      g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
      g_assert_cmpfloat (fabs (e.prefill_basis.figures[2] - 39.1), <, 1e-9);
      g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - 39.1 * share), <, 1e-9);
      g_assert_cmpfloat (fabs (e.prefill_tps / cases[i].measured - 1), <, 0.10);

      /* the same chip named RDNA 3: the blend, not the Navi 31 share */
      s.gpu = rdna3;
      rdna3->generation = HR_GEN_RDNA3;
      g_assert_true (hr_estimate_compute (&s, NULL, &r3, NULL));
      g_assert_cmpfloat (fabs (r3.prefill_basis.figures[1] - MIN (39.1, sqrt (39.1 * cases[i].ref))), <, 1e-9);
      g_assert_cmpfloat (r3.prefill_tps, >, 1.5 * e.prefill_tps);
    }
}

/* The LPDDR ceiling is the memory's, so it follows the machine's measured bandwidth where the
 * catalog cites one: Strix Halo's rocm_bandwidth_test, 212 of 256 GB/s (data/gpus.json,
 * bandwidth_measured_source).  Vulkan (bw_eff 0.90 on a discrete card) streams at that 0.828;
 * ROCm's one-warp RDNA mat-vec (0.80) stays below it, its own limit.  The ROCm Llama 3.2 3B
 * row (75.0 t/s, current build) the 0.736 was checked on is now estimated 6.5 % high (79.9).
 * GB10 has no measurement in the catalog and keeps the default 0.736 (0.92 × 0.80). */
static void
test_lpddr_ceiling (void)
{
  HrScenario s;
  HrEstimate rocm, vulkan, spark, e;
  g_autofree char *text = NULL;
  const HrGpu *halo = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  g_autoptr(HrGpu) unmeasured = hr_gpu_copy (halo);
  g_autoptr(HrGpu) slower = hr_gpu_copy (halo);

  g_assert_cmpfloat (halo->bandwidth_measured_gbs, ==, 212);
  g_assert_nonnull (strstr (halo->bandwidth_measured_source, "rocm_bandwidth_test"));
  g_assert_nonnull (strstr (halo->bandwidth_measured_source, "https://llm-tracker.info/"));

  scenario (&s, "llama-3.2-3b", "ryzen-ai-max-395-128gb");
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.flash_attn = TRUE;
  s.context = 4096;
  s.prompt_tokens = 64;
  s.depth = 64;
  s.backend = HR_BACKEND_ROCM;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &rocm, NULL));
  s.backend = HR_BACKEND_VULKAN;
  g_assert_true (hr_estimate_compute (&s, NULL, &vulkan, NULL));
  g_assert_cmpfloat (fabs (vulkan.decode_efficiency - 212.0 / 256.0), <, 1e-12);
  g_assert_cmpfloat (fabs (rocm.decode_efficiency - 0.80), <, 1e-12);
  g_assert_cmpint (vulkan.decode_basis.kind, ==, HR_BASIS_DECODE_MEMORY);
  g_assert_cmpfloat (fabs (vulkan.decode_basis.figures[1] - 100 * 212.0 / 256.0), <, 1e-9);
  text = hr_basis_text (&vulkan.decode_basis);
  g_assert_nonnull (strstr (text, "at 83% of 256 GB/s"));
  g_assert_cmpfloat (rocm.bytes_per_token, ==, vulkan.bytes_per_token);
  g_assert_cmpfloat (rocm.decode_tps, <, vulkan.decode_tps);
  /* the Llama 3.2 3B rows: ROCm 75.0 t/s, Vulkan 88.1 (current builds) */
  g_assert_cmpfloat (fabs (rocm.decode_tps / 74.98 - 1), <, 0.07);
  g_assert_cmpfloat (fabs (vulkan.decode_tps / 88.14 - 1), <, 0.03);

  /* the ceiling follows the cited figure, and the default stands where none is known */
  slower->bandwidth_measured_gbs = 128;
  s.gpu = slower;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_efficiency - 0.5), <, 1e-12);
  g_assert_cmpfloat (e.decode_tps, <, vulkan.decode_tps);
  unmeasured->bandwidth_measured_gbs = NAN;
  s.gpu = unmeasured;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_efficiency - HR_CAL_LPDDR_PEAK_SHARE), <, 1e-12);
  s.backend = HR_BACKEND_ROCM;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.decode_efficiency - HR_CAL_LPDDR_PEAK_SHARE), <, 1e-12);

  /* CUDA on GB10: no measurement cited, 0.92 × 0.80 as before */
  scenario (&s, "llama-3.2-3b", "dgx-spark-128gb");
  g_assert_false (s.gpu->bandwidth_measured_gbs > 0);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &spark, NULL));
  g_assert_cmpfloat (fabs (spark.decode_efficiency - 0.92 * 0.80), <, 1e-12);
}

/* Prefill never runs above the device's tensor peak.  The blend √(peak × reference) lies above
 * the peak when the peak is below the backend's reference rate (CUDA: 31 TFLOPS): a GeForce
 * card of 13 TFLOPS FP16 (FP32 accumulate), 26 with FP16 accumulate, was credited "29 of 26
 * peak TFLOPS"; 16-bit weights add their GEMM gain on top. */
/* Quantized prefill on current CUDA builds runs ggml-cuda's MMQ kernels on the int8 tensor
 * cores of Ampere / Ada / Blackwell GeForce cards (ggml_cuda_should_use_mmq, mmq.cuh): the
 * basis names that path and its int8 peak, the rate lies under it, and an RTX 4090 prefills
 * Llama 3.1 8B Q4_K_S near the ~12,400 t/s measured (llama.cpp PR #24127), not the 5,800 of the
 * FP16 blend.  16-bit weights keep cuBLAS and the FP16 tensor peak; a Volta card (no int8 MMA:
 * cuBLAS from 64 tokens on) keeps the FP16 blend. */
static void
test_prefill_int8_mmq (void)
{
  const HrGpu *rtx4090 = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
  const HrModel *m = hr_catalog_find_model (catalog, "llama-3.1-8b");
  HrGpu *volta;
  HrScenario s;
  HrEstimate e;

  g_assert_nonnull (rtx4090);
  g_assert_nonnull (m);
  hr_scenario_init (&s, m, rtx4090);
  g_strlcpy (s.quant, "Q4_K_S", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_INT8);
  /* 4 × the FP16-with-FP32-accumulate figure: 660.8 int8 TOPS */
  g_assert_cmpfloat_with_epsilon (e.prefill_basis.figures[2], 4 * rtx4090->fp16_tflops, 1e-6);
  g_assert_cmpfloat (e.prefill_basis.figures[1], <=, e.prefill_basis.figures[2]);
  g_assert_cmpfloat (e.prefill_tps, <=, e.prefill_basis.figures[2] * 1e12 / (2.0 * m->total_params));
  g_assert_cmpfloat (e.prefill_tps, >, 10000);
  g_assert_cmpfloat (e.prefill_tps, <, 14000);
  {
    g_autofree char *text = hr_basis_json (&e.prefill_basis);
    g_assert_nonnull (strstr (text, "int8 tensor cores (MMQ)"));
  }

  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);

  /* builds of 2024 are fitted as they were */
  g_strlcpy (s.quant, "Q4_K_S", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_2024;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);

  volta = hr_gpu_copy (rtx4090);
  volta->generation = HR_GEN_VOLTA;
  hr_scenario_init (&s, m, volta);
  g_strlcpy (s.quant, "Q4_K_S", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  hr_gpu_free (volta);
}

/* Vulkan on NVIDIA GA10x / AD10x / GB20x runs quantized prompt batches through coopmat2's
 * mul_mm_cm2 (FP16 with FP16 accumulation, the blocks decoded in the tensor loads), which scales
 * with the FP16-accumulate tensor peak: HR_CAL_VK_CM2_SHARE of it, times the width factor, not
 * the square-root blend.  Turing and AMD (RDNA 4 under RADV: int-dot MMQ) keep the blend, and so
 * does the CUDA backend's int8 MMQ path on the same card. */
static void
prefill_vulkan_on (const char *gpu_id,
                   const char *quant,
                   int         generation,
                   int         backend,
                   HrEstimate *e)
{
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, gpu_id);
  HrGpu *copy;
  HrScenario s;

  g_assert_nonnull (gpu);
  copy = hr_gpu_copy (gpu);
  if (generation >= 0)
    copy->generation = generation;
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), copy);
  g_assert_nonnull (s.model);
  g_strlcpy (s.quant, quant, sizeof s.quant);
  s.backend = backend;
  s.backend_set = TRUE;
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, e, NULL));
  hr_gpu_free (copy);
}

static void
test_prefill_vulkan_coopmat2 (void)
{
  const HrGpu *rtx3090 = hr_catalog_find_gpu (catalog, "rtx-3090-24gb");
  const HrGpu *rtx4090 = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
  const HrGpu *rx9070 = hr_catalog_find_gpu (catalog, "rx-9070-xt-16gb");
  const HrCalibration *vk = hr_calibration_speed (HR_BACKEND_VULKAN, HR_ENGINE_VERSION_CURRENT);
  HrEstimate a, b;
  double peak3090, peak4090;

  g_assert_nonnull (rtx3090);
  g_assert_nonnull (rtx4090);
  g_assert_nonnull (rx9070);
  peak3090 = hr_calibration_tensor_flops (rtx3090) / 1e12;
  peak4090 = hr_calibration_tensor_flops (rtx4090) / 1e12;

  /* Llama 3.1 8B (hidden 4096: width factor 1) Q4_0 on an RTX 3090: 0.553 of 142 TFLOPS, where
   * the blend gave 66 and the estimate 3.8 k t/s against 4.3–4.8 k measured */
  prefill_vulkan_on ("rtx-3090-24gb", "Q4_0", -1, HR_BACKEND_VULKAN, &a);
  g_assert_cmpint (a.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat_with_epsilon (a.prefill_basis.figures[2], peak3090, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.prefill_basis.figures[1], peak3090 * HR_CAL_VK_CM2_SHARE, 1e-6);
  g_assert_cmpfloat (a.prefill_tps, >, 4200);
  g_assert_cmpfloat (a.prefill_tps, <, 5200);

  /* linear in the peak: the RTX 4090 runs 330 / 142 times the rate, not the square root */
  prefill_vulkan_on ("rtx-4090-24gb", "Q4_0", -1, HR_BACKEND_VULKAN, &b);
  g_assert_cmpfloat_with_epsilon (b.prefill_basis.figures[1] / a.prefill_basis.figures[1],
                                  peak4090 / peak3090, 1e-9);

  /* Turing keeps the blend with its halved reference */
  prefill_vulkan_on ("rtx-3090-24gb", "Q4_0", HR_GEN_TURING, HR_BACKEND_VULKAN, &b);
  g_assert_cmpfloat_with_epsilon (b.prefill_basis.figures[1],
                                  sqrt (peak3090 * vk->prefill_util * HR_CAL_TURING_VECTOR_SHARE), 1e-6);

  /* RDNA 4 under Vulkan: the blend, as before */
  prefill_vulkan_on ("rx-9070-xt-16gb", "Q4_K_M", -1, HR_BACKEND_VULKAN, &b);
  g_assert_cmpfloat_with_epsilon (b.prefill_basis.figures[1],
                                  hr_calibration_prefill_flops (rx9070, vk) / 1e12, 1e-6);

  /* the CUDA backend on the same card: int8 MMQ */
  prefill_vulkan_on ("rtx-3090-24gb", "Q4_0", -1, HR_BACKEND_CUDA, &b);
  g_assert_cmpint (b.prefill_basis.kind, ==, HR_BASIS_PREFILL_INT8);
}

/* Prefill of a 2048-token prompt by @model at -ub @ub_small and @ub_big on @gpu (current
 * builds; @backend -1: the GPU's own), into @small and @big. */
static void
prefill_at_ubatches (const char  *model,
                     const HrGpu *gpu,
                     const char  *quant,
                     int          backend,
                     int          ub_small,
                     int          ub_big,
                     HrEstimate  *small,
                     HrEstimate  *big)
{
  HrScenario s;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, model), gpu);
  g_assert_nonnull (s.model);
  g_strlcpy (s.quant, quant, sizeof s.quant);
  if (backend >= 0)
    {
      s.backend = backend;
      s.backend_set = TRUE;
    }
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 2048;
  s.ubatch = ub_small;
  g_assert_true (hr_estimate_compute (&s, NULL, small, NULL));
  s.ubatch = ub_big;
  g_assert_true (hr_estimate_compute (&s, NULL, big, NULL));
}

/* MoE prefill on the int8 MMQ path: each expert gets ubatch × top-k / experts tokens and runs
 * whole tiles of up to 128 of them (mmq.cuh, mul_mat_q_case / launch_mul_mat_q), so a
 * 128-expert top-8 model at ubatch 512 (32 tokens an expert: a quarter of each tile) prefills
 * far slower than at ubatch 2048, where a dense model of the same card barely changes (RTX 3090
 * Gemma 4 26B-A4B: 3,488 t/s at -ub 512, 5,212 at -ub 2048, llama.cpp PR #22298). */
static void
test_prefill_moe_tiles (void)
{
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-3090-24gb");
  const char *ids[] = { "qwen3-30b-a3b", "llama-3.1-8b" };
  double ratio[2];

  g_assert_nonnull (gpu);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      HrEstimate small, big;

      prefill_at_ubatches (ids[i], gpu, "Q4_K_M", -1, 512, 2048, &small, &big);
      ratio[i] = big.prefill_tps / small.prefill_tps;
      g_test_message ("%s: %.0f t/s at -ub 512, %.0f at -ub 2048", ids[i], small.prefill_tps, big.prefill_tps);
    }
  g_assert_cmpfloat (ratio[0], >, 1.4);
  g_assert_cmpfloat (ratio[1], <, 1.1);
}

/* A MoE model's routed experts under ROCm on RDNA 3: ggml_cuda_should_use_mmq sends
 * MUL_MAT_ID with 64 experts or more to MMQ (mmq.cu, PR #18202), whose tiles of up to 128
 * tokens run partly empty when an expert holds fewer (moe_mmq_tile_share), as on CUDA.  The
 * RX 7900 XTX ran Gemma 4 26B-A4B Q6_K (128 experts, top 8) at pp2048 at 2448 t/s with -ub 512
 * and 3302 t/s with -ub 1024 (llama.cpp PR #26284, master column); the experts' full tiles
 * alone put -ub 512 at 3632 t/s and -ub 1024 at under 1.1 times that.  A dense model on the
 * same card gains under 10 %. */
static void
test_prefill_moe_tiles_rocm (void)
{
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rx-7900-xtx-24gb");
  const char *ids[] = { "gemma-4-26b-a4b", "llama-3.1-8b" };
  double ratio[2], at512[2];

  g_assert_nonnull (gpu);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      HrEstimate small, big;

      prefill_at_ubatches (ids[i], gpu, "Q6_K", HR_BACKEND_ROCM, 512, 1024, &small, &big);
      ratio[i] = big.prefill_tps / small.prefill_tps;
      at512[i] = small.prefill_tps;
      g_test_message ("ROCm RX 7900 XTX %s Q6_K: %.0f t/s at -ub 512, %.0f at -ub 1024",
                      ids[i], small.prefill_tps, big.prefill_tps);
    }
  g_assert_cmpfloat (ratio[0], >, 1.25);
  g_assert_cmpfloat (fabs (at512[0] / 2448.18 - 1), <, 0.2);
  g_assert_cmpfloat (ratio[1], <, 1.1);
}

/* ggml-cuda's CDNA and RDNA 2 MMQ tables stop at tiles of 64 tokens (mmq-config-cdna.cuh,
 * mmq-config-rdna2.cuh), RDNA 3's at 128: an expert holding 32 tokens of a -ub 512 batch of
 * Qwen3-30B-A3B (128 experts, top 8) fills half a CDNA tile, a quarter of an RDNA 3 one.  The
 * same datasheet named CDNA 2 prefills faster at -ub 512 and gains less from -ub 2048. */
static void
test_prefill_moe_tiles_cdna (void)
{
  HrGpu *g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "rx-7900-xtx-24gb"));
  double tps[2][2];

  for (guint k = 0; k < 2; k++)
    {
      HrScenario s;
      HrEstimate e;

      g->generation = k == 0 ? HR_GEN_RDNA3 : HR_GEN_CDNA2;
      hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-30b-a3b"), g);
      g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
      s.backend = HR_BACKEND_ROCM;
      s.backend_set = TRUE;
      s.engine_version = HR_ENGINE_VERSION_CURRENT;
      s.prompt_tokens = 2048;
      s.ubatch = 512;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      tps[k][0] = e.prefill_tps;
      s.ubatch = 2048;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      tps[k][1] = e.prefill_tps;
      g_test_message ("%s: %.0f t/s at -ub 512, %.0f at -ub 2048", k == 0 ? "RDNA 3" : "CDNA 2",
                      tps[k][0], tps[k][1]);
    }
  g_assert_cmpfloat (tps[1][0], >, 1.2 * tps[0][0]);
  g_assert_cmpfloat (tps[1][1] / tps[1][0], <, tps[0][1] / tps[0][0]);
  hr_gpu_free (g);
}

/* Without flash attention llama.cpp multiplies a ubatch's queries by all n_kv cells in use
 * (llama-graph.cpp build_attn_mha), and a sliding-window layer's cache holds n_swa + n_ubatch
 * cells (llama-kv-cache-iswa.cpp): gpt-oss-20b's 12 windowed layers (128 tokens) span the
 * whole ubatch.  An RTX 4090 ran its pp4096 at 11078 t/s with -ub 1024 and 8951 t/s with
 * -ub 4096 (llama.cpp PR #15631, master, flash attention off): fewer tokens a second with the
 * bigger ubatch.  Counting the window alone put -ub 4096 at 15150 t/s, above -ub 1024.  With
 * flash attention the masked tiles are skipped and the bigger ubatch stays the faster. */
static void
test_prefill_dense_kq_spans (void)
{
  HrScenario s;
  HrEstimate small, big, fa_small, fa_big;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "gpt-oss-20b"),
                    hr_catalog_find_gpu (catalog, "rtx-4090-24gb"));
  g_assert_nonnull (s.model);
  g_assert_nonnull (s.gpu);
  g_strlcpy (s.quant, "MXFP4", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 4096;
  s.flash_attn = FALSE;
  s.ubatch = 1024;
  g_assert_true (hr_estimate_compute (&s, NULL, &small, NULL));
  s.ubatch = 4096;
  g_assert_true (hr_estimate_compute (&s, NULL, &big, NULL));
  s.flash_attn = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &fa_big, NULL));
  s.ubatch = 1024;
  g_assert_true (hr_estimate_compute (&s, NULL, &fa_small, NULL));
  g_test_message ("RTX 4090 gpt-oss-20b pp4096 without FA: %.0f t/s at -ub 1024 (measured 11078), "
                  "%.0f at -ub 4096 (8951); with FA %.0f / %.0f",
                  small.prefill_tps, big.prefill_tps, fa_small.prefill_tps, fa_big.prefill_tps);
  g_assert_cmpfloat (big.prefill_tps, <, small.prefill_tps);
  g_assert_cmpfloat (fabs (big.prefill_tps / 8951 - 1), <, 0.15);
  g_assert_cmpfloat (fa_big.prefill_tps, >, fa_small.prefill_tps);
}

/* Prefill attention on a GeForce card: ggml-cuda's mma flash-attention kernel accumulates KQ
 * in FP32 (fattn-mma-f16.cuh, T_C_KQ = tile<16, 16, float>), which GeForce tensor cores run at
 * half their FP16-accumulate rate.  An RTX 3090 at pp512 with 32768 tokens in the cache (17 of
 * its 33 GFLOP a token are attention) measured 1471 t/s (llama.cpp PR #17505, -ub 512, -fa 1);
 * crediting the attention the FP16-accumulate rate put it 22 % high. */
static void
test_prefill_fa_accumulate (void)
{
  HrGpu *g = hr_gpu_copy (hr_catalog_find_gpu (catalog, "rtx-3090-24gb"));
  HrScenario s;
  HrEstimate geforce;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.flash_attn = TRUE;
  s.ubatch = 512;
  /* as tests/accuracy replays pp512 at depth 32768: a prompt that attends over d + N/2 */
  s.prompt_tokens = 512 + 2 * 32768;
  s.context = 32768 + 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &geforce, NULL));
  g_test_message ("RTX 3090 pp512@d32768: %.0f t/s (measured 1471)", geforce.prefill_tps);
  g_assert_cmpfloat (fabs (geforce.prefill_tps / 1471 - 1), <, 0.12);
  hr_gpu_free (g);
}

/* A custom NVIDIA card of @form from a --gpu-custom @spec, run under CUDA. */
static HrGpu *
nvidia_card (const char *spec,
             HrGpuForm   form)
{
  HrGpu *g = hr_gpu_new_from_spec (spec, NULL);

  g_assert_nonnull (g);
  g_free (g->vendor);
  g->vendor = g_strdup ("NVIDIA");
  g->form = form;
  g->backend = HR_BACKEND_CUDA;
  return g;
}

/* A Turing SM has half the FP32 lanes of a GA10x SM beside tensor cores as fast per clock:
 * the non-tensor half of prefill's blend runs at half the reference there.  An RTX 2080 Ti
 * (GeForce: 107.6 FP16-accumulate TFLOPS) prefilled Llama 2 13B Q4_K_M at 1494 t/s (CUDA, -fa 1,
 * geerlingguy/ai-benchmarks#46, 39 TFLOPS of matrix work); the T4 is credited
 * √(65 × 31 × 0.5) = 32 TFLOPS, not 45. */
static void
test_prefill_turing_vector (void)
{
  HrGpu *g = nvidia_card ("memory_gib=11,bandwidth_gbs=616,fp16_tflops=53.8,generation=turing", HR_FORM_CONSUMER);
  const HrGpu *t4 = hr_catalog_find_gpu (catalog, "t4-16gb");
  HrScenario s;
  HrEstimate e;

  g_assert_nonnull (t4);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  /* 2 × 53.8 peak, half the 31 TFLOPS reference: 40.8 TFLOPS (the 1494 t/s of Llama 2 13B
   * Q4_K_M measured is 39 TFLOPS of dense matrix work) */
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat (e.prefill_basis.figures[2], ==, 107.6);
  g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - sqrt (107.6 * 31 * 0.5)), <, 0.5);
  hr_gpu_free (g);

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), t4);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - sqrt (65 * 31 * 0.5)), <, 0.5);
}

/* A Volta card has FP16 but no int8 MMA: from 64 tokens on ggml-cuda dequantizes each weight
 * matrix to FP16 for cuBLAS (ggml_cuda_should_use_mmq, ggml_cuda_op_mul_mat_cublas:
 * to_fp16_cuda into a pool buffer), writing and re-reading 4 bytes a weight every ubatch.  A
 * Tesla V100 PCIe (897 GB/s, 113 FP16 tensor TFLOPS) prefilled Llama 3.1 8B IQ4_XS at 2959 t/s
 * (pp512, llama.cpp PR #24127); without the conversion traffic it was credited 3456. */
static void
test_prefill_volta_dequant (void)
{
  HrGpu *g = nvidia_card ("memory_gib=32,bandwidth_gbs=897,fp16_tflops=113,generation=volta", HR_FORM_DATACENTER);
  HrScenario s;
  HrEstimate e;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "IQ4_XS", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_test_message ("V100 Llama 3.1 8B IQ4_XS pp512: %.0f t/s (measured 2959)", e.prefill_tps);
  g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat (fabs (e.prefill_tps / 2959 - 1), <, 0.12);
  hr_gpu_free (g);
}

/* Current llama.cpp SYCL builds run a prompt's matrix products on Intel's XMX engines as oneDNN
 * FP16 GEMMs after converting the weights to FP16 (ggml_sycl_op_mul_mat_sycl), and KQ / KQV as
 * batched oneDNN FP16 GEMMs (ggml_sycl_mul_mat_batched_sycl): a share of the XMX FP16 peak for
 * both, plus 4 bytes a weight of conversion traffic a ubatch.  An Arc Pro B70 (608 GB/s, 183.5
 * FP16 XMX TFLOPS) prefilled Gemma 4 31B UD-Q4_K_XL at 759 t/s (pp512) and 656 (pp16384, 0.86 of
 * it; llama.cpp PR #22078, flash attention off); the square-root blend and SYCL's 0.15
 * attention share gave 633 and 392, 0.62 of it.  The same card under Vulkan keeps its blend. */
static void
test_prefill_sycl_xmx_gemm (void)
{
  g_autoptr(HrGpu) b70 = hr_gpu_new_from_spec ("memory_gib=32,bandwidth_gbs=608,fp16_tflops=183.5,backend=sycl,generation=xe2", NULL);
  HrScenario s;
  HrEstimate pp512, pp16k, e;

  g_assert_nonnull (b70);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "gemma-4-31b"), b70);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.flash_attn = FALSE;
  s.context = 32768;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &pp512, NULL));
  s.prompt_tokens = 16384;
  g_assert_true (hr_estimate_compute (&s, NULL, &pp16k, NULL));
  g_test_message ("B70 Gemma 4 31B Q4_K_M: pp512 %.0f t/s (measured 759), pp16384 %.0f (656)",
                  pp512.prefill_tps, pp16k.prefill_tps);
  g_assert_cmpint (pp512.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat (fabs (pp512.prefill_basis.figures[1] - 183.5 * 0.5), <, 0.05);
  g_assert_cmpfloat (fabs (pp512.prefill_tps / 759.1 - 1), <, 0.12);
  g_assert_cmpfloat (fabs (pp16k.prefill_tps / 655.6 - 1), <, 0.12);
  g_assert_cmpfloat (pp16k.prefill_tps / pp512.prefill_tps, >, 0.8);

  /* BF16 weights take the same GEMM without the conversion: the same rate, faster per token */
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 4096;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - 183.5 * 0.5), <, 0.05);

  /* Vulkan on the same card: the blend with Vulkan's 31 TFLOPS reference, as before */
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.prefill_basis.figures[1] - sqrt (183.5 * 31)), <, 0.05);
}

/* SYCL's MUL_MAT_ID runs one queued matmul per expert holding tokens, without a host wait, so
 * on current builds its prefill costs the work the FLOPs and the FP16 conversion count, nothing
 * per launch.  An Arc Pro B60 prefilled Qwen3.6-35B-A3B Q4_K_M at 722.87 t/s on master of
 * 2026-06-13 (pp512, fa 0; llama.cpp PR #24452's review).  Charging three kernel-equivalents an
 * expert gave 473; before the XMX GEMM path the estimate was about 1935. */
static void
test_prefill_sycl_moe_expert_loop (void)
{
  HrScenario s;
  HrEstimate e;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3.6-35b-a3b"),
                    hr_catalog_find_gpu (catalog, "arc-pro-b60-24gb"));
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  s.flash_attn = FALSE;
  s.prompt_tokens = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_test_message ("B60 Qwen3.6-35B-A3B Q4_K_M pp512: %.0f t/s (measured 722.87)", e.prefill_tps);
  g_assert_cmpfloat (fabs (e.prefill_tps / 722.87 - 1), <, 0.10);
}

/* ggml-sycl runs the n_used − 1 ADDs that sum an MoE layer's experts (build_moe_ffn, views
 * ordered before the ADDs) as one kernel each: its graph_compute fuses no ADD chain
 * (ggml_sycl_fuse: MUL_MAT·MUL_MAT·GLU, RMS_NORM·MUL, UNARY·MUL; the top-k MoE), where ggml-cuda
 * and ggml-vulkan run the chain as one kernel.  Qwen3.6-35B-A3B (40 MoE layers, 8 experts a
 * token) on an Arc Pro B60 under SYCL pays n_used − 2 = 6 kernels more a layer, each a
 * fourteenth of SYCL's 60 µs; a dense model, the same MoE model under Vulkan and one of two
 * experts a token pay none. */
static void
test_sycl_moe_expert_sum (void)
{
  HrScenario s;
  HrEstimate e, two, dense, vk, vk_copy;
  g_autoptr (HrModel) two_used = NULL;
  g_autoptr (HrModel) vk_more = NULL;

  decode_on (&s, "qwen3.6-35b-a3b", "arc-pro-b60-24gb", "Q4_K_M", HR_BACKEND_SYCL);
  g_assert_cmpint (s.model->n_experts_used, ==, 8);
  g_assert_cmpint (s.model->extra_block_kernels, ==, 0);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_test_message ("B60 SYCL Qwen3.6-35B-A3B Q4_K_M decode: %.1f t/s, fixed %.3f ms", e.decode_tps,
                  e.decode_basis.figures[3]);
  g_assert_cmpfloat (fabs (e.decode_basis.figures[3] - 60e-3 * (40 + 40 * 6 / 14.0)), <, 1e-9);

  two_used = hr_model_copy (s.model);
  two_used->n_experts_used = 2;
  s.model = two_used;
  g_assert_true (hr_estimate_compute (&s, NULL, &two, NULL));
  g_assert_cmpfloat (fabs (two.decode_basis.figures[3] - 60e-3 * 40), <, 1e-9);

  decode_on (&s, "llama-3.1-8b", "arc-pro-b60-24gb", "Q4_K_M", HR_BACKEND_SYCL);
  g_assert_true (hr_estimate_compute (&s, NULL, &dense, NULL));
  g_assert_cmpfloat (fabs (dense.decode_basis.figures[3] - 60e-3 * 32), <, 1e-9);

  /* Vulkan's multi-ADD: the MoE model costs what its blocks do, nothing for the sum */
  decode_on (&s, "qwen3.6-35b-a3b", "arc-pro-b60-24gb", "Q4_K_M", HR_BACKEND_VULKAN);
  g_assert_true (hr_estimate_compute (&s, NULL, &vk, NULL));
  vk_more = hr_model_copy (s.model);
  vk_more->n_experts_used = 2;
  s.model = vk_more;
  g_assert_true (hr_estimate_compute (&s, NULL, &vk_copy, NULL));
  g_assert_cmpfloat (fabs (vk.decode_basis.figures[3] - vk_copy.decode_basis.figures[3]), <, 1e-9);
}

static void
test_prefill_capped_at_peak (void)
{
  static const char * const quants[] = { "Q4_K_M", "BF16" };
  HrGpu *g = nvidia_card ("memory_gib=24,bandwidth_gbs=500,fp16_tflops=13", HR_FORM_CONSUMER);
  HrScenario s;
  HrEstimate e;

  for (guint i = 0; i < G_N_ELEMENTS (quants); i++)
    {
      hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
      g_strlcpy (s.quant, quants[i], sizeof s.quant);
      s.engine_version = HR_ENGINE_VERSION_CURRENT;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_assert_cmpint (e.prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
      g_assert_cmpfloat (e.prefill_basis.figures[2], ==, 26.0);
      g_assert_cmpfloat (e.prefill_basis.figures[1], <=, e.prefill_basis.figures[2]);
      /* the rate cannot beat the dense FLOPs at the peak either */
      g_assert_cmpfloat (e.prefill_tps, <=, 26e12 / (2.0 * s.model->total_params));
    }
  hr_gpu_free (g);
}

/* A generation without matrix units (RDNA 2, gfx906, Pascal) runs prefill's quantized matrix
 * multiplications on its vector ALUs: HR_CAL_VECTOR_PREFILL_SHARE (0.50) of the FP16 rate it
 * publishes, where the square-root blend credited the whole vector peak.  An RX 6800 (32.3
 * TFLOPS packed FP16) was estimated at 1851 t/s on Llama 8B Q3_K_S against 649 measured
 * (llama.cpp PR #24127).  The same card named RDNA 3 (WMMA) keeps the blend, capped at the
 * peak; with 16-bit weights the vector path gets its GEMM gain and still stays under the peak. */
static void
test_prefill_without_matrix_units (void)
{
  HrGpu *g = hr_gpu_new_from_spec ("memory_gib=16,bandwidth_gbs=512,fp16_tflops=32.3,backend=rocm", NULL);
  HrScenario s;
  HrEstimate rdna2, rdna3, unknown, f16;

  g_assert_nonnull (g);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), g);
  g_strlcpy (s.quant, "Q3_K_S", sizeof s.quant);
  s.engine_version = HR_ENGINE_VERSION_CURRENT;
  g->generation = HR_GEN_RDNA2;
  g_assert_true (hr_estimate_compute (&s, NULL, &rdna2, NULL));
  g->generation = HR_GEN_RDNA3;
  g_assert_true (hr_estimate_compute (&s, NULL, &rdna3, NULL));
  g->generation = HR_GEN_UNKNOWN;
  g_assert_true (hr_estimate_compute (&s, NULL, &unknown, NULL));

  /* the dense rate: Q3_K's share of the vector peak on ROCm's dp4a MMQ (0.39, see
   * test_prefill_dp4a_types), against the peak itself (√(32.3 × 36) > 32.3) */
  g_assert_cmpfloat (fabs (rdna2.prefill_basis.figures[1] - 0.39 * 32.3), <, 1e-9);
  g_assert_cmpfloat (fabs (rdna3.prefill_basis.figures[1] - 32.3), <, 1e-9);
  g_assert_cmpfloat (unknown.prefill_basis.figures[1], ==, rdna3.prefill_basis.figures[1]);
  g_assert_cmpfloat (rdna2.prefill_basis.figures[2], ==, 32.3);
  /* prefill is compute-bound: about 0.39 of the speed, a little more for the fixed costs */
  g_assert_cmpfloat (rdna2.prefill_tps / rdna3.prefill_tps, >, 0.39);
  g_assert_cmpfloat (rdna2.prefill_tps / rdna3.prefill_tps, <, 0.5);
  /* the RX 6800 row of llama.cpp PR #24127 (649 t/s) now lies within the range */
  g_assert_cmpfloat (rdna2.prefill_tps_low, <=, 649.16);
  g_assert_cmpfloat (rdna2.prefill_tps_high, >=, 649.16);
  g_assert_cmpfloat (rdna3.prefill_tps_low, >, 649.16);

  /* the CLI's custom GPU names it the same way (--gpu-custom …,generation=rdna2) */
  {
    HrGpu *named = hr_gpu_new_from_spec ("memory_gib=16,bandwidth_gbs=512,fp16_tflops=32.3,backend=rocm,generation=rdna2", NULL);
    HrEstimate cli;

    g_assert_nonnull (named);
    g_assert_cmpint (named->generation, ==, HR_GEN_RDNA2);
    s.gpu = named;
    g_assert_true (hr_estimate_compute (&s, NULL, &cli, NULL));
    g_assert_cmpfloat (cli.prefill_tps, ==, rdna2.prefill_tps);
    s.gpu = g;
    hr_gpu_free (named);
  }

  g->generation = HR_GEN_RDNA2;
  g_strlcpy (s.quant, "F16", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &f16, NULL));
  g_assert_cmpfloat (f16.prefill_basis.figures[1], <=, f16.prefill_basis.figures[2]);
  g_assert_cmpfloat (f16.prefill_tps, <=, 32.3e12 / (2.0 * s.model->total_params));
  hr_gpu_free (g);
}

/* Gemma 3's interleaved sliding window in llama.cpp (#28 item 2, checked against the engine):
 * llama_kv_cache_iswa sizes the SWA cache GGML_PAD(min(n_ctx, n_swa·(unified ? n_seq : 1) +
 * n_ubatch), 256) cells (src/llama-kv-cache-iswa.cpp; the padding to 256 since issue #17037),
 * the other cache n_ctx = GGML_PAD(-c, 256).  Gemma 3 4B: 29 sliding layers and 5 global ones,
 * 4 KV heads of 256, window 1024.  The r/LocalLLaMA table of the iSWA pull request
 * (https://www.reddit.com/r/LocalLLaMA/comments/1krr7hn/how_to_get_the_most_from_llamacpps_iswa_support/,
 * seen at https://rl.fish.zip/r/LocalLLaMA/comments/1krr7hn/…): F16, -ub 512: "kv_size 1536",
 * local 174 MiB; global at 4k 80 MiB.  At -ub 64 that table had 1088 cells (123.25 MiB, the
 * older padding to 32); current builds pad 1088 to 1280 cells, 145 MiB.  A context below the
 * window keeps min(n_ctx, …): -c 1000 is 1024 cells in both caches.  (PR #21277 kept the SWA
 * cache in F16 under a quantized KV type for one day; #21332 reverted it, so q8_0 applies to
 * both caches.) */
static void
test_kv_gemma3_iswa_cells (void)
{
  static const struct { gint64 context; int ubatch; HrKvType kv; double swa_cells, full_cells; } cases[] = {
    { 4096, 512, HR_KV_F16, 1536, 4096 },
    { 4096, 64, HR_KV_F16, 1280, 4096 },
    { 1000, 512, HR_KV_F16, 1024, 1024 },
    { 4096, 512, HR_KV_Q8_0, 1536, 4096 },
  };
  const double per_cell_layer = 4 * 256 * 2;   /* K and V of 4 heads of 256 */
  HrScenario s;
  HrEstimate e;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double bpe = cases[i].kv == HR_KV_F16 ? 2.0 : 34.0 / 32.0;
      double want = (cases[i].swa_cells * 29 + cases[i].full_cells * 5) * per_cell_layer * bpe;

      hr_scenario_init (&s, hr_catalog_find_model (catalog, "gemma-3-4b"), hr_catalog_find_gpu (catalog, "rtx-3090-24gb"));
      s.context = cases[i].context;
      s.ubatch = cases[i].ubatch;
      s.kv_type = cases[i].kv;
      s.engine_version = HR_ENGINE_VERSION_CURRENT;
      g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
      g_test_message ("-c %" G_GINT64_FORMAT " -ub %d: %.2f MiB", cases[i].context, cases[i].ubatch, e.kv_bytes / 1048576.0);
      g_assert_cmpfloat (e.kv_bytes, ==, want);
    }
  /* the table's figures, in MiB */
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "gemma-3-4b"), hr_catalog_find_gpu (catalog, "rtx-3090-24gb"));
  s.context = 4096;
  s.ubatch = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.kv_bytes / 1048576.0, ==, 174.0 + 80.0);
}

/* One token per ubatch (-ub 1) reads each MoE layer's active experts only, as a decode step
 * does: Qwen3-30B-A3B on an RTX 4090 predicted 50 t/s for such a prefill (every expert read
 * per token) against a 306 t/s decode from an empty cache.  A dense model is unchanged.  Each
 * such step streams the weights at the decode rate: on the DGX Spark's LPDDR5X too (the prefill
 * path left out the LPDDR factor and predicted Qwen3-30B-A3B's -ub 1 prefill 9 % above its
 * decode from an empty cache, though every step also reads a growing cache).  Of a prompt's
 * one-token ubatches only the last asks for logits: the others are decode steps without
 * output (HrScenario.decode_no_output), which skip the output head and the last layer's FFN. */
static void
test_ubatch_one_reads_active_experts (void)
{
  static const char * const models[] = { "qwen3-30b-a3b", "llama-3.1-8b" };
  static const char * const gpus[] = { "rtx-4090-24gb", "dgx-spark-128gb" };
  HrScenario s;
  HrEstimate e, none;

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    for (guint j = 0; j < G_N_ELEMENTS (gpus); j++)
      {
        scenario (&s, models[i], gpus[j]);
        s.engine_version = HR_ENGINE_VERSION_CURRENT;
        s.ubatch = 1;
        g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
        s.decode_no_output = TRUE;
        g_assert_true (hr_estimate_compute (&s, NULL, &none, NULL));
        /* prefill at -ub 1 is a decode step without output and without the KV read of a deep
         * cache: faster than a decode step that outputs its token */
        g_assert_cmpfloat (e.prefill_tps, >, e.decode_tps_empty);
        g_assert_cmpfloat (e.prefill_tps, >, 0.85 * none.decode_tps_empty);
        g_assert_cmpfloat (e.prefill_tps, <=, 1.01 * none.decode_tps_empty);
      }
}

/* A decode step that asks for no output (llama-bench's ppN with -ub 1: test_prompt's
 * llama_batch_get_one() marks only the batch's last token, llama_batch_allocr::init()) runs the
 * last layer's FFN and the output head over zero rows, which no backend computes: it reads
 * the head and that FFN less than a tgN step.  Llama 3.1 8B Q4_0 (untied Q6_K head of 128256
 * × 4096, a dense 14336-wide FFN), Llama 3.2 3B (tied: the table is the head) and
 * Qwen3-30B-A3B (the last layer's 8 of 128 routed experts).  Only llama.cpp, one sequence. */
static void
test_decode_no_output (void)
{
  static const char * const models[] = { "llama-3.1-8b", "llama-3.2-3b", "qwen3-30b-a3b" };
  HrScenario s;
  HrEstimate plain, none;

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      const HrModel *m;
      double skipped, head, ffn;

      scenario (&s, models[i], "rtx-3090-24gb");
      m = s.model;
      g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
      s.engine_version = HR_ENGINE_VERSION_CURRENT;
      s.context = 4096;
      s.depth = 0;
      g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
      s.decode_no_output = TRUE;
      g_assert_true (hr_estimate_compute (&s, NULL, &none, NULL));

      head = plain.weights.output_bytes;
      skipped = plain.bytes_per_token - none.bytes_per_token;
      ffn = skipped - head;
      g_test_message ("%s: head %.0f MiB, last FFN %.0f MiB, %.1f → %.1f t/s", models[i],
                      head / HR_MIB, ffn / HR_MIB, plain.decode_tps, none.decode_tps);
      g_assert_cmpfloat (head, >, 0);
      if (m->tie_embeddings)
        g_assert_cmpfloat (head, ==, plain.weights.embd_bytes);
      if (hr_model_is_moe (m))
        g_assert_cmpfloat (fabs (ffn - plain.weights.expert_bytes * m->n_experts_used / m->n_experts /
                                 hr_model_moe_layers (m)), <, 1.0);
      else
        {
          /* the FFN's share of a layer: SwiGLU 3 × hidden × intermediate of its parameters */
          g_assert_cmpfloat (ffn, >, 0.6 * plain.weights.layer_bytes);
          g_assert_cmpfloat (ffn, <, plain.weights.layer_bytes);
        }
      g_assert_cmpfloat (none.decode_tps, >, plain.decode_tps);
      /* nothing else of the step changes */
      g_assert_cmpfloat (none.kv_read_bytes, ==, plain.kv_read_bytes);
      g_assert_cmpfloat (none.prefill_tps, ==, plain.prefill_tps);
    }
  /* llama 8B Q4_0: the head is 0.4 GB of the 4.3 GB a tg step reads */
  scenario (&s, "llama-3.1-8b", "rtx-3090-24gb");
  g_strlcpy (s.quant, "Q4_0", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
  g_assert_cmpfloat (fabs (plain.weights.output_bytes / (128256.0 * 4096 * 210 / 256) - 1), <, 0.001);

  /* a server step and a batch of sequences always output: no change */
  scenario (&s, "llama-3.1-8b", "rtx-3090-24gb");
  s.batch = 4;
  g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
  s.decode_no_output = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &none, NULL));
  g_assert_cmpfloat (none.decode_tps, ==, plain.decode_tps);
  scenario (&s, "llama-3.1-8b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
  s.decode_no_output = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &none, NULL));
  g_assert_cmpfloat (none.decode_tps, ==, plain.decode_tps);
}

/* llama.cpp's host-side compute buffer holds the graph inputs: the F32 mask of each cache and
 * the embedded tokens.  gpt-oss-20b, -c 131072 -ub 512 -fa on, RTX 3070: "CUDA_Host compute
 * buffer size = 263.15 MiB" (ikawrakow/ik_llama.cpp#822, llama.cpp b6699).  It is system RAM
 * beside a discrete GPU and the same memory on a unified one (DGX Spark), where the token
 * embedding llama.cpp keeps on the host counts in the total too. */
static void
test_llama_host_buffers (void)
{
  HrScenario s;
  HrEstimate e;

  scenario (&s, "gpt-oss-20b", "rtx-3070-8gb");
  s.context = 131072;
  s.ubatch = 512;
  s.flash_attn = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.host_compute_bytes / (263.15 * HR_MIB) - 1), <, 0.005);
  /* discrete: the embedding and the host buffer are system RAM, not device memory */
  g_assert_cmpfloat (e.weights_ram_bytes, ==, e.weights.embd_bytes);
  g_assert_cmpfloat (e.system_ram_bytes, ==, e.weights.embd_bytes + e.host_compute_bytes);
  g_assert_cmpfloat (e.overhead_bytes, ==, e.compute_bytes + e.runtime_bytes);

  /* unified memory: one pool holds both, and the verdict sees them */
  scenario (&s, "gpt-oss-20b", "dgx-spark-128gb");
  s.context = 131072;
  s.ubatch = 512;
  s.flash_attn = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.system_ram_bytes, ==, 0);
  g_assert_cmpfloat (e.weights_gpu, ==, e.weights.bytes - e.weights.mtp_bytes);
  g_assert_cmpfloat (e.host_compute_bytes, >, 250 * HR_MIB);
  g_assert_cmpfloat (e.overhead_bytes, ==, e.compute_bytes + e.runtime_bytes + e.host_compute_bytes);
  g_assert_cmpfloat (e.required_bytes, ==, e.weights_gpu + e.kv_bytes + e.overhead_bytes);
}

/* A GGUF of gpt-oss keeps the non-expert matrices at Q8_0: gpt-oss-20b-mxfp4.gguf holds
 * 11.27 GiB ("file size = 11.27 GiB", issue 15); the 16-bit layout gave 12.80.  vLLM loads
 * the checkpoint, 16-bit outside the experts, with padded expert rows. */
static void
test_gpt_oss_mxfp4_gguf (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "gpt-oss-20b");
  HrWeights w, ckpt;

  g_assert_true (hr_weights_derive (m, "MXFP4", &w, NULL));
  g_assert_cmpfloat (fabs (hr_to_gib (w.bytes) / 11.27 - 1), <, 0.01);
  g_assert_true (hr_weights_derive (m, HR_QUANT_MXFP4_CHECKPOINT, &ckpt, NULL));
  g_assert_cmpfloat (ckpt.bytes, >, w.bytes + 1.0 * HR_GIB);
  /* vLLM pads the expert rows 2880 → 3072 */
  g_assert_cmpfloat (fabs (ckpt.expert_bytes / w.expert_bytes - 3072.0 / 2880.0), <, 1e-9);
}

/* llama-quantize leaves gpt-oss's MXFP4 experts alone in every mix: unsloth/gpt-oss-20b-GGUF
 * (https://huggingface.co/unsloth/gpt-oss-20b-GGUF/tree/main, file listing, in data/models.json)
 * gpt-oss-20b-Q4_K_M.gguf is 11.6 GB; with the experts at the mix's own width it came out 15.8.
 * A Q8_0 mix is then the MXFP4 file's layout (experts MXFP4, every other matrix Q8_0):
 * gpt-oss-20b-mxfp4.gguf, "file size = 11.27 GiB" (issue 15), 12.1 GB in bartowski's
 * openai_gpt-oss-20b-GGUF listing; it came out 22.2 GB. */
static void
test_gpt_oss_gguf_mixes_keep_mxfp4_experts (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "gpt-oss-20b");
  HrWeights q4, q8, mx;

  g_assert_true (hr_weights_derive (m, "Q4_K_M", &q4, NULL));
  g_assert_true (hr_weights_derive (m, "Q8_0", &q8, NULL));
  g_assert_true (hr_weights_derive (m, "MXFP4", &mx, NULL));
  g_test_message ("Q4_K_M %.3f GB, Q8_0 %.3f GB", q4.derived_bytes / 1e9, q8.derived_bytes / 1e9);
  g_assert_cmpfloat (fabs (q4.derived_bytes / 11.6e9 - 1), <, 0.01);
  g_assert_cmpfloat (fabs (hr_to_gib (q8.derived_bytes) / 11.27 - 1), <, 0.01);
  /* same experts in every mix */
  g_assert_cmpfloat (q4.expert_bytes, ==, mx.expert_bytes);
  g_assert_cmpfloat (q8.expert_bytes, ==, mx.expert_bytes);
}

/* A dense model's Unsloth dynamic file is its named mix: gemma-4-31B-it-UD-Q4_K_XL.gguf is
 * "gemma4 31B Q4_K - Medium 17.46 GiB" in llama-bench (llama.cpp PR #22078); every tensor one
 * step up (as for an MoE's non-expert part) gave 23.45 GiB. */
static void
test_ud_dense (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "gemma-4-31b");
  HrWeights ud, q4;

  g_assert_true (hr_weights_derive (m, "UD-Q4_K_XL", &ud, NULL));
  g_assert_true (hr_weights_derive (m, "Q4_K_M", &q4, NULL));
  g_assert_cmpfloat (fabs (hr_to_gib (ud.bytes) / 17.46 - 1), <, 0.01);
  g_assert_cmpfloat (ud.bytes, ==, q4.bytes);
}

/* With no fraction set, SGLang uses its own (ServerArgs._handle_gpu_memory_settings): the GPU's
 * MiB less 512 + 1.5 × chunk + 2 × graph batch + 128 per TP rank, at least 10 GiB above 60 GiB;
 * vLLM 0.90.  A fraction the user gives is used as given. */
static void
test_sglang_default_fraction (void)
{
  HrScenario s;
  HrEstimate e, e90;

  scenario (&s, "llama-3.1-8b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_SGLANG;
  /* (81920 − 13440) / 81920 */
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.836);
  s.n_gpus = 4;
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.825);
  s.n_gpus = 1;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  s.gpu_mem_util = 0.90;
  g_assert_true (hr_estimate_compute (&s, NULL, &e90, NULL));
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.90);
  g_assert_cmpfloat (fabs (e90.kv_pool_bytes - e.kv_pool_bytes -
                           (e.driver_memory_bytes - 0.35 * HR_GIB) * (0.90 - 0.836)), <, 1.0);
  s.gpu_mem_util = 0;
  s.engine_version = HR_ENGINE_VERSION_2024;
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.90);

  /* (24576 − 3760) / 24576: chunk 2048, 24 graph batches */
  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.engine = HR_ENGINE_SGLANG;
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.847);
  s.engine = HR_ENGINE_VLLM;
  g_assert_cmpfloat (hr_estimate_mem_fraction (&s), ==, 0.90);
}

/* vLLM and SGLang load a multimodal checkpoint's vision encoder: Gemma 4 26B-A4B's ~550M beside
 * its 25.2B, "Model loading took 48.5 GiB memory" in vLLM 0.19 with --enforce-eager
 * (myoceane.fr, 2026-04-17); the text model alone is 46.94 GiB.  llama.cpp loads it only with
 * --mmproj. */
static void
test_vision_tower (void)
{
  HrScenario s;
  HrEstimate e, llama;

  scenario (&s, "gemma-4-26b-a4b", "a100-80gb-sxm");
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 131072;
  s.engine = HR_ENGINE_VLLM;
  s.enforce_eager = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (hr_to_gib (e.weights_gpu) / 48.5 - 1), <, 0.015);
  /* --enforce-eager: no CUDA graphs; "Available KV cache memory: 21.5 GiB" (0.5 GiB less than
   * the estimate: profile_run's dummy pass of the vision encoder is not counted) */
  g_assert_cmpfloat (fabs (hr_to_gib (e.kv_pool_bytes) / 21.5 - 1), <, 0.03);
  s.engine = HR_ENGINE_LLAMA_CPP;
  g_assert_true (hr_estimate_compute (&s, NULL, &llama, NULL));
  g_assert_cmpfloat (fabs (e.weights.bytes - llama.weights.bytes - 0.55e9 * 2), <, 1.0);
}

/* vLLM and SGLang have no Metal backend: on a Mac there is no pool to size (issue 15: Compare
 * showed a vLLM capacity for the M3 Ultra). */
static void
test_serving_not_on_metal (void)
{
  HrScenario s;
  HrEstimate e;

  scenario (&s, "glm-4.5-air", "m3-ultra-512gb");
  s.engine = HR_ENGINE_VLLM;
  g_assert_false (hr_estimate_serving_applies (&s));
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_false (isfinite (e.kv_pool_bytes));
  g_assert_false (isfinite (e.kv_capacity_tokens));
  g_assert_false (isfinite (e.max_concurrency));
  /* llama.cpp on the same Mac, and vLLM on a CUDA card, are sized as before */
  s.engine = HR_ENGINE_LLAMA_CPP;
  g_assert_false (hr_estimate_serving_applies (&s));
  scenario (&s, "glm-4.5-air", "h200-141gb");
  s.engine = HR_ENGINE_VLLM;
  /* FP8, which vLLM makes from the BF16 checkpoint as it loads (a Q4_K_M GGUF it would swap
   * for the 206 GiB BF16 checkpoint) */
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  g_assert_true (hr_estimate_serving_applies (&s));
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.kv_capacity_tokens, >, 90000);
}

/* vLLM's serving capacity against its own startup logs (tests/accuracy/vllm_logs.csv). */
static void
test_vllm_capacity (void)
{
  HrScenario s;
  HrEstimate e, e256;

  /* the driver shows an "80 GB" H100 as 79.19 GiB; the datasheet figure stays the physical */
  scenario (&s, "llama-3.1-8b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (gib2 (e.driver_memory_bytes), ==, 79.19);
  g_assert_cmpfloat (gib2 (e.physical_bytes), ==, 80.00);
  g_assert_cmpint (e.max_num_seqs, ==, 1024);

  /* the profile run's peak is the larger of the forward over 8192 tokens (110.6 KB a token for
   * Llama 3.1 8B) and the sampler over max_num_seqs rows, 15 B × rows × vocabulary in current
   * vLLM, with the forward's hidden states alive: the sampler at 1024 sequences, the forward
   * at 256 (they followed one another, not added up) */
  s.max_num_seqs = 256;
  g_assert_true (hr_estimate_compute (&s, NULL, &e256, NULL));
  {
    double forward = 8192.0 * (3.0 * 14336 * 2 + 3.0 * 4096 * 2);
    double sampler = 8192.0 * 4096 * 2 + 15.0 * 1024 * s.model->vocab;

    g_assert_cmpfloat (fabs (e256.kv_pool_bytes - e.kv_pool_bytes - (sampler - forward)), <, 1.0);
  }
  /* until 0.16 the dummy sampler's penalties made it ~38 B a row and vocabulary entry
   * (Qwen3-14B: 5.64 GiB of torch peak in 0.16, 2.23 GiB in 0.17, llm-d-planner#205); until
   * 0.20 the CUDA graphs were captured after sizing the pool, outside it */
  s.max_num_seqs = 0;
  s.server_release = 19;
  g_assert_true (hr_estimate_compute (&s, NULL, &e256, NULL));
  g_assert_cmpfloat (fabs (e256.kv_pool_bytes - e.kv_pool_bytes - (0.4 + 0.015 * 32) * HR_GIB), <, 1.0);
  s.server_release = 16;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e256.kv_pool_bytes - e.kv_pool_bytes - 23.0 * 1024 * s.model->vocab), <, 1.0);
  /* vLLM 0.19 at 0.95: "Available KV cache memory: 58.11 GiB", 476,000 tokens
   * (llm-d-planner#205) */
  s.server_release = 19;
  s.gpu_mem_util = 0.95;
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 8192;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / 476000 - 1), <, 0.01);

  /* below 70 GiB and on an A100 current vLLM defaults to 256 sequences and 2048 batched tokens
   * (EngineArgs; vLLM's test_defaults_with_usage_context) */
  scenario (&s, "gpt-oss-20b", "a100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  g_strlcpy (s.quant, "MXFP4", sizeof s.quant);
  s.context = 131072;
  s.gpu_mem_util = 0.65;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.max_num_seqs, ==, 256);
  /* vLLM 0.19 on an A100: "Available KV cache memory: 36.56 GiB" (myoceane.fr, 2026-04-18) */
  g_assert_cmpfloat (fabs (hr_to_gib (e.kv_pool_bytes) / 36.56 - 1), <, 0.05);
  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.max_num_seqs, ==, 256);

  /* SGLang sizes its pool as mem_fraction_static × the memory free before loading, less the
   * weights; activations and CUDA graphs stay in the reserve: Qwen3-235B-A22B-FP8 on 4× H100 at
   * 0.93, "KV Cache is allocated. #tokens: 367404" (vllm-project/vllm#21348) */
  scenario (&s, "qwen3-235b-a22b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_SGLANG;
  s.n_gpus = 4;
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.context = 40960;
  s.gpu_mem_util = 0.93;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / 367404 - 1), <, 0.03);
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_estimate_compute (&s, NULL, &e256, NULL));
  g_assert_cmpfloat (e.kv_pool_bytes, >, e256.kv_pool_bytes + 4.0 * HR_GIB);

  /* vLLM 0.6 (V0), Llama 3.1 8B on an RTX 3090 at 0.90: "kv_cache_size=3.81GiB, # GPU blocks:
   * 1952" (31,232 tokens), "Maximum concurrency for 20000 tokens per request: 1.56x"
   * (vllm-project/vllm#10517) */
  scenario (&s, "llama-3.1-8b", "rtx-3090-24gb");
  s.engine = HR_ENGINE_VLLM;
  s.engine_version = HR_ENGINE_VERSION_2024;
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 20000;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / 31232 - 1), <, 0.05);
  g_assert_cmpfloat (fabs (e.max_concurrency / 1.56 - 1), <, 0.05);

  /* vLLM 0.9 (V1, July 2025), Qwen3-235B-A22B-FP8 on 4× H100: "Available KV cache memory:
   * 8.11 GiB, GPU KV cache size: 178,880 tokens" (vllm-project/vllm#21348) */
  scenario (&s, "qwen3-235b-a22b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  s.n_gpus = 4;
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.context = 40960;
  s.server_release = 9;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / 178880 - 1), <, 0.10);

  /* gpt-oss-120b as vLLM lays it out: "Model loading took 64.38 GiB" on an H100
   * (vllm-project/vllm#33155); one 128K request does not fit, as vLLM 0.11 refused (#27508) */
  scenario (&s, "gpt-oss-120b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  g_strlcpy (s.quant, "MXFP4", sizeof s.quant);
  s.context = 131072;
  s.gpu_mem_util = 0.95;
  s.server_release = 11;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (hr_to_gib (e.weights.bytes) / 64.38 - 1), <, 0.01);
  g_assert_cmpfloat (e.max_concurrency, <, 1.0);

  /* Qwen2.5-72B in BF16 on 2× H100 at 0.95 starts in vLLM 0.19 with 2.29 GiB of torch peak and
   * 2.09 GiB of NCCL and workspaces per GPU: a 3.14 GiB pool, about 20,600 tokens
   * (llm-d-planner#205; issue 28: Headroom had 8.6 GiB of buffers and said it did not fit) */
  scenario (&s, "qwen2.5-72b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  s.n_gpus = 2;
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 8192;
  s.gpu_mem_util = 0.95;
  s.server_release = 19;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.max_concurrency, >=, 1.0);
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / (3.14 * HR_GIB / (80 * 4 * 256 * 2)) - 1), <, 0.05);
  /* the newest vLLM also takes its CUDA graph estimate off the pool: still one 8K request */
  s.server_release = 0;
  g_assert_true (hr_estimate_compute (&s, NULL, &e256, NULL));
  g_assert_cmpfloat (e256.max_concurrency, >=, 1.0);
  g_assert_cmpfloat (e256.kv_pool_bytes, <, e.kv_pool_bytes - 1.0 * HR_GIB);

  /* Qwen3-30B-A3B on one H100 at 0.95, vLLM 0.19: 2.68 GiB of torch peak, a 15.41 GiB pool,
   * about 168,000 tokens of 96 KiB (llm-d-planner#205; Headroom said 142,000) */
  scenario (&s, "qwen3-30b-a3b", "h100-80gb-sxm");
  s.engine = HR_ENGINE_VLLM;
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 8192;
  s.gpu_mem_util = 0.95;
  s.server_release = 19;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_capacity_tokens / (15.41 * HR_GIB / (96 * 1024)) - 1), <, 0.05);

  /* llama.cpp has no pool */
  s.engine = HR_ENGINE_LLAMA_CPP;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.kv_pool_bytes, ==, 0);
}

/* One model of each attention kind against values computed by hand from config.json. */
static void
test_kv_per_kind (void)
{
  const HrModel *m;

  /* GQA, Llama 3.1 8B: 32 layers × 2 (K,V) × 8 KV heads × 128 × 2 bytes */
  m = hr_catalog_find_model (catalog, "llama-3.1-8b");
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 32.0 * 2 * 8 * 128 * 2);

  /* MLA, DeepSeek-V3: 61 layers × (512 latent + 64 rope) × 2 bytes, no separate V */
  m = hr_catalog_find_model (catalog, "deepseek-v3");
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 61.0 * 576 * 2);

  /* sliding window, gpt-oss-120b: 18 full + 18 sliding (window 128), 8 KV heads × 64 */
  m = hr_catalog_find_model (catalog, "gpt-oss-120b");
  g_assert_cmpfloat (hr_model_kv_bytes (m, 8192, 2), ==,
                     18.0 * 2 * 8 * 64 * 2 * 8192 + 18.0 * 2 * 8 * 64 * 2 * 128);

  /* hybrid, Qwen3-Next-80B-A3B: 12 attention layers (2 KV heads × 256) grow with the
   * context; 36 Gated-DeltaNet layers hold a fixed state per sequence:
   * conv (128·16·2 + 128·32) × 3 × 2 B + ssm 32 × 128 × 128 × 4 B = 2,146,304 B */
  m = hr_catalog_find_model (catalog, "qwen3-next-80b-a3b");
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 12.0 * 2 * 2 * 256 * 2);
  g_assert_cmpfloat (hr_model_state_bytes (m), ==, 36.0 * 2146304);
  g_assert_cmpfloat (hr_model_kv_bytes (m, 4096, 2), ==, 12.0 * 2 * 2 * 256 * 2 * 4096 + 36.0 * 2146304);
}

/* A hybrid model's recurrent state is read and written back every decoded token: llama.cpp's
 * build_recurrent_attn() (delta-net-base.cpp) takes it from the cache row (build_rs), the fused
 * GATED_DELTA_NET returns the new state and a ggml_cpy() stores it in ssm_states_all (Mamba2:
 * build_mamba2_layer around SSM_SCAN).  Qwen3.5 4B moves its 24 × 2.1 MB of state twice a step;
 * a transformer has none.  Until #28 the step counted the read only. */
static void
test_recurrent_state_write_back (void)
{
  HrScenario s;
  HrEstimate e;
  const HrModel *m;
  double bpe, state;

  decode_on (&s, "qwen3.5-4b", "m4-32gb", "Q4_K_M", HR_BACKEND_METAL);
  m = s.model;
  bpe = hr_kv_type_bytes_per_elem (s.kv_type);
  state = hr_model_state_bytes (m);
  g_assert_cmpfloat (state, ==, 24.0 * 2146304);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.depth, ==, 64);
  g_assert_cmpfloat (fabs (e.kv_read_bytes - (hr_model_kv_bytes (m, 64, bpe) + state)), <, 1);
  /* the state is in the bytes a token moves, twice */
  g_assert_cmpfloat (e.kv_read_bytes - hr_model_kv_bytes_per_token (m, bpe) * 64, >=, 2 * state - 1);

  decode_on (&s, "llama-3.2-3b", "m4-32gb", "Q4_K_M", HR_BACKEND_METAL);
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (fabs (e.kv_read_bytes - hr_model_kv_bytes (s.model, 64, hr_kv_type_bytes_per_elem (s.kv_type))), <, 1);
}

static void
test_quantized_kv (void)
{
  HrScenario s;
  double f16, q8, q4;

  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
  f16 = hr_estimate_kv_at (&s, 32768, HR_KV_F16);
  q8 = hr_estimate_kv_at (&s, 32768, HR_KV_Q8_0);
  q4 = hr_estimate_kv_at (&s, 32768, HR_KV_Q4_0);
  g_assert_cmpfloat (f16, ==, 131072.0 * 32768);
  g_assert_cmpfloat (q8, ==, f16 / 2 * 34 / 32);
  g_assert_cmpfloat (q4, ==, f16 / 2 * 18 / 32);
  /* concurrent sequences multiply the cache */
  s.batch = 4;
  g_assert_cmpfloat (hr_estimate_kv_at (&s, 32768, HR_KV_F16), ==, 4 * f16);
}

static void
test_every_entry (void)
{
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    for (guint j = 0; j < hr_catalog_n_gpus (catalog); j++)
      {
        HrScenario s;
        HrEstimate e;
        g_autoptr(GError) error = NULL;
        const HrModel *m = hr_catalog_get_model (catalog, i);
        const HrGpu *g = hr_catalog_get_gpu (catalog, j);

        hr_scenario_init (&s, m, g);
        if (!hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error))
          g_error ("%s on %s: %s", m->id, g->id, error->message);
        g_assert_true (isfinite (e.weights.bytes) && e.weights.bytes > 0);
        g_assert_true (isfinite (e.kv_bytes) && e.kv_bytes >= 0);
        g_assert_true (isfinite (e.overhead_bytes) && e.overhead_bytes > 0);
        g_assert_true (isfinite (e.required_bytes) && e.required_bytes > e.weights.bytes * 0.5);
        g_assert_true (isfinite (e.usable_bytes) && e.usable_bytes > 0);
        g_assert_true (isfinite (e.utilization) && e.utilization > 0);
        /* speed may be unknown (no published bandwidth), never negative or NaN-by-accident */
        if (isfinite (g->bandwidth_gbs))
          {
            g_assert_true (isfinite (e.decode_tps) && e.decode_tps > 0);
            g_assert_cmpfloat (e.decode_tps_low, <=, e.decode_tps);
            g_assert_cmpfloat (e.decode_tps_high, >=, e.decode_tps);
          }
        else
          g_assert_true (isnan (e.decode_tps));
        if (isfinite (e.prefill_tps))
          g_assert_cmpfloat (e.prefill_tps, >, 0);
      }
}

static void
test_bad_arguments (void)
{
  HrScenario s;
  HrEstimate e;
  struct { const char *what; void (*apply) (HrScenario *); } cases[] = { { NULL, NULL } };
  (void) cases;

  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
#define REJECT(stmt) G_STMT_START { HrScenario t = s; g_autoptr(GError) err = NULL; stmt; \
    g_assert_false (hr_estimate_compute (&t, NULL, &e, &err)); g_assert_nonnull (err); } G_STMT_END
  REJECT (t.context = 0);
  REJECT (t.context = -5);
  REJECT (t.context = (gint64) 1e12);
  REJECT (t.n_gpus = 0);
  REJECT (t.n_gpus = 10000);
  REJECT (t.batch = 0);
  REJECT (t.batch = -1);
  REJECT (t.offload_pct = -1);
  REJECT (t.offload_pct = NAN);
  REJECT (t.offload_pct = 101);
  REJECT (t.n_cpu_moe = 3);  /* Llama is dense */
  REJECT (t.reserve = NAN);
  REJECT (g_strlcpy (t.quant, "Q9_Z", sizeof t.quant));
  REJECT (t.model = NULL);
  REJECT (t.depth = -2);
  REJECT (t.depth = t.context + 1);
  REJECT (t.engine_version = (HrEngineVersion) 7);
#undef REJECT
}

/* Decode reads the KV cache at the depth: by default the full context, and at an empty
 * context too; memory does not depend on it.  Hand-computed: bytes ÷ (1008 GB/s × 0.92) +
 * 32 layers × the fixed per-layer cost of the build (current 25 µs, 2024 121 µs). */
static void
test_depth (void)
{
  HrScenario s;
  HrEstimate full, mid, empty, old;

  scenario (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.context = 32768;
  g_assert_true (hr_estimate_compute (&s, NULL, &full, NULL));
  g_assert_cmpint (full.depth, ==, 32768);
  g_assert_cmpfloat (full.decode_tps, <, full.decode_tps_empty);

  s.depth = 8192;
  g_assert_true (hr_estimate_compute (&s, NULL, &mid, NULL));
  g_assert_cmpint (mid.depth, ==, 8192);
  g_assert_cmpfloat (mid.decode_tps, >, full.decode_tps);
  g_assert_cmpfloat (mid.decode_tps, <, mid.decode_tps_empty);
  g_assert_cmpfloat (mid.required_bytes, ==, full.required_bytes);
  g_assert_cmpfloat (mid.decode_tps_empty, ==, full.decode_tps_empty);

  s.depth = 0;
  g_assert_true (hr_estimate_compute (&s, NULL, &empty, NULL));
  g_assert_cmpfloat_with_epsilon (empty.decode_tps, full.decode_tps_empty, 1e-9);
  g_assert_cmpfloat_with_epsilon (1.0 / empty.decode_tps,
                                  empty.bytes_per_token / (1008e9 * 0.92) + 32 * 25e-6, 1e-12);

  s.engine_version = HR_ENGINE_VERSION_2024;
  g_assert_true (hr_estimate_compute (&s, NULL, &old, NULL));
  g_assert_cmpfloat_with_epsilon (1.0 / old.decode_tps,
                                  old.bytes_per_token / (1008e9 * 0.92) + 32 * 121e-6, 1e-12);
  /* current builds decode and prefill faster; the memory is the same */
  g_assert_cmpfloat (empty.decode_tps, >, old.decode_tps * 1.3);
  g_assert_cmpfloat (empty.prefill_tps, >, old.prefill_tps);
  g_assert_cmpfloat (old.required_bytes, ==, empty.required_bytes);
}

/* A prompt after tokens already in the cache (llama-bench ppN @ dD, a follow-up turn): its
 * tokens attend over the earlier ones, but its ubatches hold the prompt only, so the fixed cost
 * of each ubatch and the weights it streams are shared by the prompt's tokens, not by a prompt
 * as long as the span. */
static void
test_prompt_depth (void)
{
  HrScenario s;
  HrEstimate fresh, later, span;

  scenario (&s, "gpt-oss-20b", "rtx-4090-24gb");
  s.context = 8192;
  s.ubatch = 2048;
  s.prompt_tokens = 128;
  g_assert_true (hr_estimate_compute (&s, NULL, &fresh, NULL));

  s.prompt_depth = 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &later, NULL));
  /* each token attends over 512 + 64 instead of 64: more FLOPs, slower */
  g_assert_cmpfloat (later.flops_per_token, >, fresh.flops_per_token);
  g_assert_cmpfloat (later.prefill_tps, <, fresh.prefill_tps);

  /* the same attention span as a 1152-token prompt from an empty cache, which shares one
   * ubatch's weight reads and launches over 1152 tokens: far faster per token */
  s.prompt_depth = 0;
  s.prompt_tokens = 128 + 2 * 512;
  g_assert_true (hr_estimate_compute (&s, NULL, &span, NULL));
  g_assert_cmpfloat_with_epsilon (span.flops_per_token, later.flops_per_token, later.flops_per_token * 1e-9);
  g_assert_cmpfloat (span.prefill_tps, >, 2.0 * later.prefill_tps);

  s.prompt_depth = -1;
  g_assert_false (hr_estimate_compute (&s, NULL, &span, NULL));
}

static void
test_multi_gpu_and_offload (void)
{
  HrScenario s;
  HrEstimate one, two, off;

  scenario (&s, "llama-3.1-70b", "rtx-4090-24gb");
  g_assert_true (hr_estimate_compute (&s, NULL, &one, NULL));
  g_assert_cmpint (one.verdict, ==, HR_VERDICT_EXCEEDS);
  /* memory is never simply summed: each card carries its own buffers */
  s.n_gpus = 2;
  g_assert_true (hr_estimate_compute (&s, NULL, &two, NULL));
  g_assert_cmpfloat (two.overhead_bytes, >, one.overhead_bytes * 1.9);
  g_assert_cmpfloat (two.per_gpu_required, <, one.per_gpu_required);
  g_assert_cmpint (hr_advice_min_gpus (&s, 16), >=, 2);

  s.n_gpus = 1;
  s.offload_pct = 50;
  g_assert_true (hr_estimate_compute (&s, NULL, &off, NULL));
  g_assert_cmpfloat (off.system_ram_bytes, >, 0);
  g_assert_cmpfloat (off.required_bytes, <, one.required_bytes);
  /* offloaded layers run at system-RAM speed: slower than all-in-VRAM on the same GPU */
  g_assert_cmpfloat (off.decode_tps, <, one.decode_tps);
}

static void
test_reverse_questions (void)
{
  HrScenario s;
  gint64 max_ctx;
  const HrQuantMix *q;

  scenario (&s, "glm-4.5-air", "mlu590-80gb");
  max_ctx = hr_advice_max_context (&s);
  g_assert_cmpint (max_ctx, >, 8192);
  g_assert_cmpint (max_ctx % 256, ==, 0);
  s.context = max_ctx;
  {
    HrEstimate e;
    g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
    g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
    s.context = max_ctx + 256;
    g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
    g_assert_true (e.verdict == HR_VERDICT_EXCEEDS || max_ctx == s.model->max_context);
  }

  scenario (&s, "glm-4.5-air", "dcu-k100-ai-64gb");
  q = hr_advice_best_quant (&s, catalog);
  g_assert_nonnull (q);
  g_strlcpy (s.quant, q->id, sizeof s.quant);
  {
    HrEstimate e;
    g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
    g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  }
}

/* The reverse answers come together, and the diagnosis suggests exactly the ones it is given:
 * a caller showing both (the Size view's advice) computes them once. */
static void
test_reverse_in_diagnosis (void)
{
  HrScenario s;
  HrEstimate e;
  HrReverse r, given = { .max_context = 0, .best_quant = NULL, .min_gpus = 7 };
  g_autoptr(GPtrArray) plain = NULL;
  g_autoptr(GPtrArray) with = NULL;
  g_autoptr(GPtrArray) told = NULL;

  scenario (&s, "llama-3.1-70b", "rtx-4090-24gb");
  hr_advice_reverse (&s, catalog, &r);
  g_assert_cmpint (r.max_context, ==, hr_advice_max_context (&s));
  g_assert_true (r.best_quant == hr_advice_best_quant (&s, catalog));
  g_assert_cmpint (r.min_gpus, ==, hr_advice_min_gpus (&s, 64));

  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  plain = hr_advice_diagnosis (&s, &e, catalog);
  with = hr_advice_diagnosis_with (&s, &e, &r);
  g_assert_cmpuint (plain->len, ==, with->len);
  for (guint i = 0; i < plain->len; i++)
    g_assert_cmpstr (g_ptr_array_index (plain, i), ==, g_ptr_array_index (with, i));

  told = hr_advice_diagnosis_with (&s, &e, &given);
  g_assert_nonnull (strstr (g_ptr_array_index (told, 0), "use 7 GPUs"));
  if (r.best_quant != NULL)
    g_assert_null (strstr (g_ptr_array_index (told, 0), r.best_quant->id));
}

/* A unified-memory machine that cannot hold the model: its GPU comes with the machine, so "use
 * 4 GPUs" is no answer (the hardware picks leave out sets of them too), and layers or experts
 * "in system RAM" stay in the same memory: DeepSeek R1 (377 GiB at Q4_K_M) on a 128 GB Strix
 * Halo was told "use 4 GPUs or offload 75 % of layers to system RAM" and "--n-cpu-moe 42 makes
 * it fit".  An offload the machine does hold is still offered (Llama 3.1 70B Q8_0 at 128K). */
static void
test_unified_advice (void)
{
  HrScenario s;
  HrEstimate e;
  HrFix fix;
  g_autoptr(GPtrArray) lines = NULL;

  scenario (&s, "deepseek-r1", "ryzen-ai-max-395-128gb");
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (hr_advice_min_gpus (&s, 64), ==, 0);
  g_assert_false (hr_advice_fix (&s, catalog, NULL, &fix));
  lines = hr_advice_diagnosis (&s, &e, catalog);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);

      g_assert_null (strstr (line, "GPUs"));
      g_assert_null (strstr (line, "offload"));
      g_assert_null (strstr (line, "--n-cpu-moe"));
    }

  /* set by hand, the offload keeps the verdict: the machine holds 0.95 × 128 GiB */
  s.offload_pct = 75;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.required_bytes, <, e.usable_bytes);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpfloat (e.machine_bytes, ==, 128 * HR_GIB * 0.95);
  g_assert_cmpfloat_with_epsilon (e.margin_bytes, e.machine_bytes - e.required_bytes - e.system_ram_bytes, 1);
  g_clear_pointer (&lines, g_ptr_array_unref);
  lines = hr_advice_diagnosis (&s, &e, catalog);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (lines, 0), "Does not fit: the GPU"));
  g_assert_nonnull (strstr (g_ptr_array_index (lines, 0), "same memory on this machine"));

  scenario (&s, "llama-3.1-70b", "ryzen-ai-max-395-128gb");
  g_strlcpy (s.quant, "Q8_0", sizeof s.quant);
  s.context = 131072;
  g_assert_true (hr_advice_fix (&s, catalog, NULL, &fix));
  g_assert_cmpint (fix.kind, !=, HR_FIX_GPUS);
  g_assert_cmpint (hr_advice_min_gpus (&s, 64), ==, 0);
  /* an offload the machine holds fits */
  s.offload_pct = 5;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpfloat (e.machine_bytes, >, 0);

  /* a discrete card's offload goes to RAM of its own: no machine figure */
  scenario (&s, "llama-3.1-70b", "rtx-4090-24gb");
  s.offload_pct = 50;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (e.machine_bytes, ==, 0);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
}

static void
test_recommendations (void)
{
  HrScenario s;
  HrRecommendations r;

  scenario (&s, "glm-4.5-air", "dcu-k100-ai-64gb");
  hr_advice_recommend (&s, catalog, hr_catalog_get_pricing (catalog), &r);
  g_assert_true (r.have_single);
  g_assert_cmpint (r.best_single.verdict, ==, HR_VERDICT_FITS);
  g_assert_true (r.have_unified);
  g_assert_true (hr_gpu_is_unified (r.unified.gpu));
  g_assert_nonnull (r.cloud);
  g_assert_cmpfloat (r.cloud->vram_gb, >=, 70);
}

/* A GPU the advice suggests is costed for the setup it would run (issue 26, item 7): the whole
 * model on it.  The current hardware's offload (--n-cpu-moe, --offload-pct) answers its own
 * shortage; carried over, it slowed the suggested H100 and raised its cost per 1M tokens. */
static void
test_suggested_cost_without_offload (void)
{
  HrScenario s;
  HrEstimate plain, offloaded;

  scenario (&s, "glm-4.5-air", "dcu-k100-ai-64gb");
  s.n_gpus = 2;
  g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
  g_assert_false (isfinite (plain.cost_per_mtok_usd));
  hr_advice_fill_cost (&s, catalog, hr_catalog_get_pricing (catalog), &plain);
  g_assert_true (isfinite (plain.suggested_cost_per_mtok_usd));

  s.n_cpu_moe = 20;
  s.offload_pct = 10;
  g_assert_true (hr_estimate_compute (&s, NULL, &offloaded, NULL));
  hr_advice_fill_cost (&s, catalog, hr_catalog_get_pricing (catalog), &offloaded);
  g_assert_cmpfloat (offloaded.suggested_cost_per_mtok_usd, ==, plain.suggested_cost_per_mtok_usd);
  g_assert_cmpstr (offloaded.suggested_label, ==, plain.suggested_label);
}

/* The smallest GPU that fits is chosen for the whole model on it, whatever the current offload. */
static void
test_smallest_fit_without_offload (void)
{
  HrScenario s;
  HrPick plain, offloaded;

  scenario (&s, "glm-4.5-air", "rtx-4090-24gb");
  plain = hr_advice_smallest_fit (&s, catalog);
  g_assert_cmpint (plain.count, >, 0);
  s.n_cpu_moe = 40;
  offloaded = hr_advice_smallest_fit (&s, catalog);
  g_assert_true (offloaded.gpu == plain.gpu);
  g_assert_cmpint (offloaded.count, ==, plain.count);
  g_assert_cmpfloat (offloaded.required_gib, ==, plain.required_gib);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/estimate/seed/glm-4.5-air", test_seed_glm45_air);
  g_test_add_func ("/estimate/seed/glm-4.5", test_seed_glm45);
  g_test_add_func ("/estimate/llama/compute-no-flash-attn", test_llama_compute_no_flash_attn);
  g_test_add_func ("/estimate/llama/host-buffers", test_llama_host_buffers);
  g_test_add_func ("/estimate/metal/prefill-per-generation", test_metal_prefill_per_generation);
  g_test_add_func ("/estimate/prefill/capped-at-peak", test_prefill_capped_at_peak);
  g_test_add_func ("/estimate/prefill/int8-mmq", test_prefill_int8_mmq);
  g_test_add_func ("/estimate/prefill/vulkan-coopmat2", test_prefill_vulkan_coopmat2);
  g_test_add_func ("/estimate/prefill/moe-tiles", test_prefill_moe_tiles);
  g_test_add_func ("/estimate/prefill/moe-tiles-rocm", test_prefill_moe_tiles_rocm);
  g_test_add_func ("/estimate/prefill/moe-tiles-cdna", test_prefill_moe_tiles_cdna);
  g_test_add_func ("/estimate/prefill/dense-kq-spans", test_prefill_dense_kq_spans);
  g_test_add_func ("/estimate/prefill/fa-accumulate", test_prefill_fa_accumulate);
  g_test_add_func ("/estimate/prefill/turing-vector", test_prefill_turing_vector);
  g_test_add_func ("/estimate/prefill/volta-dequant", test_prefill_volta_dequant);
  g_test_add_func ("/estimate/prefill/sycl-xmx-gemm", test_prefill_sycl_xmx_gemm);
  g_test_add_func ("/estimate/prefill/sycl-moe-expert-loop", test_prefill_sycl_moe_expert_loop);
  g_test_add_func ("/estimate/decode/sycl-moe-expert-sum", test_sycl_moe_expert_sum);
  g_test_add_func ("/estimate/generation/mechanisms", test_generation_mechanisms);
  g_test_add_func ("/estimate/vulkan/moe-id-steps", test_vulkan_moe_id_steps);
  g_test_add_func ("/estimate/generation/xe-hpg-decode", test_xe_hpg_decode);
  g_test_add_func ("/estimate/generation/cuda-graphs", test_cuda_graphs_by_generation);
  g_test_add_func ("/estimate/generation/pascal-slow-fp16", test_pascal_slow_fp16);
  g_test_add_func ("/estimate/decode/lpddr-ceiling", test_lpddr_ceiling);
  g_test_add_func ("/estimate/decode/rocm-rdna-mmvq-warps", test_rocm_rdna_mmvq_warps);
  g_test_add_func ("/estimate/decode/rocm-rdna-moe-id-blocks", test_rocm_rdna_moe_id_blocks);
  g_test_add_func ("/estimate/prefill/dp4a-types", test_prefill_dp4a_types);
  g_test_add_func ("/estimate/decode/moe-expert-rate", test_moe_expert_rate);
  g_test_add_func ("/estimate/prefill/without-matrix-units", test_prefill_without_matrix_units);
  g_test_add_func ("/estimate/prefill/ubatch-one-moe", test_ubatch_one_reads_active_experts);
  g_test_add_func ("/estimate/decode/no-output", test_decode_no_output);
  g_test_add_func ("/estimate/llama/swa-per-stream", test_llama_swa_per_stream);
  g_test_add_func ("/estimate/llama/recurrent-f32", test_llama_recurrent_f32);
  g_test_add_func ("/estimate/llama/gpt-oss-mxfp4-gguf", test_gpt_oss_mxfp4_gguf);
  g_test_add_func ("/estimate/llama/gpt-oss-gguf-mixes", test_gpt_oss_gguf_mixes_keep_mxfp4_experts);
  g_test_add_func ("/estimate/weights/ud-dense", test_ud_dense);
  g_test_add_func ("/estimate/sglang/default-fraction", test_sglang_default_fraction);
  g_test_add_func ("/estimate/vllm/vision-tower", test_vision_tower);
  g_test_add_func ("/estimate/vllm/capacity", test_vllm_capacity);
  g_test_add_func ("/estimate/vllm/not-on-metal", test_serving_not_on_metal);
  g_test_add_func ("/estimate/kv/per-kind", test_kv_per_kind);
  g_test_add_func ("/estimate/kv/quantized", test_quantized_kv);
  g_test_add_func ("/estimate/kv/gemma3-iswa-cells", test_kv_gemma3_iswa_cells);
  g_test_add_func ("/estimate/catalog/every-entry", test_every_entry);
  g_test_add_func ("/estimate/vulkan/dispatch-chain", test_vulkan_dispatch_chain);
  g_test_add_func ("/estimate/decode/recurrent-state-write-back", test_recurrent_state_write_back);
  g_test_add_func ("/estimate/bad-arguments", test_bad_arguments);
  g_test_add_func ("/estimate/multi-gpu-offload", test_multi_gpu_and_offload);
  g_test_add_func ("/estimate/depth", test_depth);
  g_test_add_func ("/estimate/prompt-depth", test_prompt_depth);
  g_test_add_func ("/estimate/block-extra-kernels", test_block_extra_kernels);
  g_test_add_func ("/estimate/rdna4-prefill-known", test_rdna4_prefill_known);
  g_test_add_func ("/estimate/reverse", test_reverse_questions);
  g_test_add_func ("/estimate/reverse/in-diagnosis", test_reverse_in_diagnosis);
  g_test_add_func ("/estimate/recommendations", test_recommendations);
  g_test_add_func ("/estimate/advice/unified-machine", test_unified_advice);
  g_test_add_func ("/estimate/prefill/rdna35-share", test_rdna35_prefill_share);
  g_test_add_func ("/estimate/advice/suggested-cost-without-offload", test_suggested_cost_without_offload);
  g_test_add_func ("/estimate/advice/smallest-fit-without-offload", test_smallest_fit_without_offload);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
