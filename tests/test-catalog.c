/* test-catalog.c — the bundled catalogs, their parsers on hostile input, and --gpu-custom */
#include "hr-catalog.h"
#include "hr-estimate.h"

#include <math.h>
#include <string.h>

/* GPU ids the seed sizing pages list ("Evaluate this model on other GPUs"), minus the
 * Mac Studio M4 Ultra, which does not exist. */
static const char *seed_gpu_ids[] = {
  "rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-5060-ti-16gb", "rtx-4070-ti-super-16gb",
  "rtx-4080-super-16gb", "rtx-5070-12gb", "rtx-5070-ti-16gb", "rtx-5080-16gb",
  "rtx-3090-24gb", "rtx-4090-24gb", "rtx-4090-d-24gb", "rtx-5090-32gb", "rtx-5090-d-32gb",
  "rtx-a6000-48gb", "rtx-6000-ada-48gb", "rtx-pro-6000-blackwell-96gb", "dgx-spark-128gb",
  "l4-24gb", "a40-48gb", "l20-48gb", "l40s-48gb", "a800-80gb-sxm", "a100-80gb-sxm",
  "h800-80gb-sxm", "h100-80gb-sxm", "h20-96gb", "h20-141gb", "h200-141gb", "b200-180gb",
  "b300-288gb", "ascend-910b-64gb", "ascend-910c-128gb", "atlas-300i-duo-96gb",
  "mlu590-80gb", "dcu-k100-ai-64gb", "metax-c500-64gb", "kunlunxin-p800-64gb",
  "mtt-s4000-48gb", "rx-7900-xtx-24gb", "radeon-ai-pro-r9700-32gb", "ryzen-ai-max-395-128gb",
  "mi300x-192gb", "mi325x-256gb", "mi355x-288gb", "arc-pro-b60-24gb", "gaudi3-128gb",
  "m4-pro-64gb", "m4-max-128gb", "m3-ultra-512gb",
};

/* Models the seed pages list that have a sourced architecture. */
static const char *seed_model_ids[] = {
  "glm-4.5", "glm-4.5-air", "glm-5", "glm-4-32b-0414", "qwen3-30b-a3b", "qwen3-235b-a22b",
  "qwen3-coder-480b-a35b", "qwen3-coder-30b-a3b", "qwen3-next-80b-a3b", "qwen3.5-27b",
  "qwen3.5-35b-a3b", "qwen3.5-122b-a10b", "qwen3.5-397b-a17b", "qwen3.6-35b-a3b",
  "qwen3-32b", "qwen3-14b", "qwen3-8b", "qwen3-1.7b", "qwen3-0.6b", "qwen2.5-72b",
  "qwen2.5-coder-32b", "qwq-32b", "deepseek-v3", "deepseek-r1", "deepseek-v3.2",
  "deepseek-r1-distill-llama-70b", "deepseek-r1-distill-qwen-32b",
  "deepseek-r1-distill-qwen-14b", "deepseek-r1-distill-llama-8b", "gpt-oss-20b",
  "gpt-oss-120b", "gemma-4-31b", "gemma-4-26b-a4b", "gemma-3-27b", "gemma-3-12b",
  "gemma-3-4b", "kimi-k2", "minimax-m2.5", "step-3.5-flash", "ernie-4.5-300b-a47b",
  "ernie-4.5-21b-a3b", "hunyuan-a13b", "llama-4-maverick", "llama-4-scout", "llama-3.1-405b",
  "llama-3.3-70b", "llama-3.1-8b", "llama-3.2-3b", "mistral-large-2", "mixtral-8x22b",
  "mixtral-8x7b", "mistral-small-3.2-24b", "devstral-small-2505",
  "nemotron-3-ultra-550b-a55b", "nemotron-3-super-120b-a12b", "nemotron-3-nano-30b-a3b",
  "phi-4",
};

static const char *matrix_quants[] = {
  "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS", "Q3_K_M", "UD-Q2_K_XL",
};

static HrCatalog *
load_default (void)
{
  g_autoptr(GError) error = NULL;
  HrCatalog *catalog = hr_catalog_new_default (&error);

  g_assert_no_error (error);
  g_assert_nonnull (catalog);
  return catalog;
}

static double
round2 (double value)
{
  return round (value * 100.0) / 100.0;
}

static void
test_bundled_counts (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();

  g_assert_cmpuint (hr_catalog_n_models (catalog), >=, 70);
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), >=, 55);
  g_assert_cmpuint (hr_catalog_n_quants (catalog), >=, 25);
  g_assert_nonnull (hr_catalog_get_pricing (catalog));
}

static void
test_bundled_models (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *model = hr_catalog_get_model (catalog, i);
      int attention = 0;
      gboolean recurrent = FALSE;

      g_test_message ("model %s", model->id);
      g_assert_nonnull (model->name);
      g_assert_true (hr_catalog_find_model (catalog, model->id) == model);
      g_assert_cmpint (model->n_layers, >, 0);
      g_assert_cmpuint (model->layers->len, >=, 1);
      g_assert_true (isnan (model->total_params) || model->total_params > 0);
      if (!isnan (model->total_params) && !isnan (model->active_params))
        g_assert_cmpfloat (model->active_params, <=, model->total_params);

      for (guint j = 0; j < model->layers->len; j++)
        {
          const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, j);

          g_assert_cmpint (g->count, >, 0);
          attention += g->count;
          if (g->kind == HR_LAYER_RECURRENT)
            {
              recurrent = TRUE;
              g_assert_cmpfloat (g->state_bytes, >, 0);
            }
          else
            {
              g_assert_cmpint (g->kv_heads, >=, 1);
              g_assert_cmpint (g->k_dim, >=, 1);
            }
          if (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
            g_assert_cmpint (g->window, >, 0);
          if (g->kind == HR_LAYER_MLA)
            {
              g_assert_cmpint (g->kv_heads, ==, 1);
              g_assert_cmpint (g->v_dim, ==, 0);
            }
        }

      /* Every layer is accounted for, except in hybrid Mamba models whose MoE blocks count
       * as layers of their own and hold no state. */
      if (recurrent && strstr (model->arch_label, "Mamba") != NULL)
        g_assert_cmpint (attention, <, model->n_layers);
      else
        g_assert_cmpint (attention, ==, model->n_layers);

      for (guint j = 0; j < model->sizes->len; j++)
        {
          const HrQuantSize *size = g_ptr_array_index (model->sizes, j);

          g_assert_cmpuint (size->bytes, >, 0);
          g_assert_nonnull (size->source);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (seed_model_ids); i++)
    {
      g_test_message ("seed model %s", seed_model_ids[i]);
      g_assert_nonnull (hr_catalog_find_model (catalog, seed_model_ids[i]));
    }
}

static void
test_glm_seed_figures (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  const HrModel *air = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrModel *glm = hr_catalog_find_model (catalog, "glm-4.5");
  const HrQuantSize *q4;
  const HrLayerGroup *g;

  g_assert_nonnull (air);
  g_assert_nonnull (glm);

  g_assert_cmpfloat_with_epsilon (air->total_params, 110.47e9, 1e3);
  g_assert_cmpfloat (round2 (air->total_params * 2 / (1 << 30)), ==, 205.77);
  g_assert_cmpfloat_with_epsilon (air->active_params, 12e9, 1e3);

  q4 = hr_model_find_size (air, "Q4_K_M");
  g_assert_nonnull (q4);
  g_assert_cmpfloat (round2 ((double) q4->bytes / (1 << 30)), ==, 67.96);
  g_assert_cmpfloat (round2 ((double) hr_model_find_size (air, "UD-Q2_K_XL")->bytes / (1 << 30)),
                     ==, 44.19);

  /* 46 × 8 × 128 and 92 × 8 × 128, full attention. */
  g_assert_cmpuint (air->layers->len, ==, 1);
  g = &g_array_index (air->layers, HrLayerGroup, 0);
  g_assert_cmpint (g->kind, ==, HR_LAYER_FULL);
  g_assert_cmpint (g->count, ==, 46);
  g_assert_cmpint (g->kv_heads, ==, 8);
  g_assert_cmpint (g->k_dim, ==, 128);
  g_assert_cmpint (g->v_dim, ==, 128);
  g = &g_array_index (glm->layers, HrLayerGroup, 0);
  g_assert_cmpint (g->count, ==, 92);
  g_assert_cmpint (g->kv_heads, ==, 8);
  g_assert_cmpint (g->k_dim, ==, 128);

  /* KV at 8K in F16: 1.44 and 2.88 GiB (by the group numbers, independent of hr-model.c). */
  g_assert_cmpfloat (round2 (46.0 * 2 * 8 * 128 * 2 * 8192 / (1 << 30)), ==, 1.44);
  g_assert_cmpfloat (round2 (92.0 * 2 * 8 * 128 * 2 * 8192 / (1 << 30)), ==, 2.88);
  g_assert_cmpfloat_with_epsilon (glm->total_params, 355e9, 1e3);
}

static void
test_special_attention (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  const HrModel *m;
  const HrLayerGroup *g;

  /* MLA: one 576-wide latent per token and layer. */
  m = hr_catalog_find_model (catalog, "deepseek-v3");
  g = &g_array_index (m->layers, HrLayerGroup, 0);
  g_assert_cmpint (g->kind, ==, HR_LAYER_MLA);
  g_assert_cmpint (g->count, ==, 61);
  g_assert_cmpint (g->k_dim, ==, 576);

  /* gpt-oss alternates 128-token sliding and full layers. */
  m = hr_catalog_find_model (catalog, "gpt-oss-120b");
  g_assert_cmpuint (m->layers->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g = &g_array_index (m->layers, HrLayerGroup, i);
      g_assert_cmpint (g->count, ==, 18);
      if (g->kind == HR_LAYER_SLIDING)
        g_assert_cmpint (g->window, ==, 128);
      else
        g_assert_cmpint (g->kind, ==, HR_LAYER_FULL);
    }

  /* Gemma 4: global layers store K once (K == V), 512 wide. */
  m = hr_catalog_find_model (catalog, "gemma-4-31b");
  for (guint i = 0; i < m->layers->len; i++)
    {
      g = &g_array_index (m->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_FULL)
        {
          g_assert_cmpint (g->k_dim, ==, 512);
          g_assert_cmpint (g->v_dim, ==, 0);
          g_assert_cmpint (g->kv_heads, ==, 4);
        }
      else
        g_assert_cmpint (g->window, ==, 1024);
    }

  /* Llama 4: 36 chunked layers of 8192. */
  m = hr_catalog_find_model (catalog, "llama-4-scout");
  g = &g_array_index (m->layers, HrLayerGroup, 1);
  g_assert_cmpint (g->kind, ==, HR_LAYER_CHUNKED);
  g_assert_cmpint (g->count, ==, 36);
  g_assert_cmpint (g->window, ==, 8192);

  /* Qwen3-Next: 12 attention layers + 36 Gated DeltaNet layers sharing 77,266,944 B. */
  m = hr_catalog_find_model (catalog, "qwen3-next-80b-a3b");
  g = &g_array_index (m->layers, HrLayerGroup, 1);
  g_assert_cmpint (g->kind, ==, HR_LAYER_RECURRENT);
  g_assert_cmpfloat (g->count * g->state_bytes, ==, 77266944.0);
}

/* Every catalog GPU of NVIDIA, AMD (Radeon, Instinct), Intel Arc and Apple names its
 * generation; an Apple chip's is the M generation of its name; a generation's id reads back. */
static void
test_bundled_generations (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  static const struct { const char *id; HrGpuGeneration gen; } known[] = {
    { "rtx-4090-24gb", HR_GEN_ADA }, { "rtx-3090-24gb", HR_GEN_AMPERE },
    { "rtx-5090-32gb", HR_GEN_BLACKWELL }, { "dgx-spark-128gb", HR_GEN_BLACKWELL },
    { "h100-80gb-sxm", HR_GEN_HOPPER }, { "t4-16gb", HR_GEN_TURING }, { "v100-32gb-sxm", HR_GEN_VOLTA },
    { "rx-7900-xtx-24gb", HR_GEN_RDNA3 }, { "rx-9070-xt-16gb", HR_GEN_RDNA4 },
    { "ryzen-ai-max-395-128gb", HR_GEN_RDNA3_5 }, { "mi300x-192gb", HR_GEN_CDNA3 },
    { "arc-pro-b60-24gb", HR_GEN_XE2 }, { "arc-pro-b70-32gb", HR_GEN_XE2 }, { "arc-a770-16gb", HR_GEN_XE_HPG }, { "arc-a750-8gb", HR_GEN_XE_HPG },
    { "m3-ultra-512gb", HR_GEN_APPLE_M3 },
    { "ascend-910b-64gb", HR_GEN_UNKNOWN },
  };

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      const HrGpuGenerationInfo *info = hr_gpu_generation_info (gpu->generation);
      HrGpuGeneration back = HR_GEN_UNKNOWN;

      g_test_message ("gpu %s", gpu->id);
      if (g_strcmp0 (gpu->vendor, "NVIDIA") == 0 || g_strcmp0 (gpu->vendor, "Apple") == 0 ||
          (g_strcmp0 (gpu->vendor, "AMD") == 0) || strstr (gpu->name, "Arc") != NULL)
        g_assert_nonnull (info);
      if (info == NULL)
        continue;
      g_assert_true (hr_gpu_generation_from_string (info->id, &back));
      g_assert_cmpint (back, ==, gpu->generation);
      g_assert_true (g_str_has_prefix (info->source, "https://"));
      if (info->apple > 0)
        {
          g_autofree char *m = g_strdup_printf ("M%d", info->apple);
          g_assert_nonnull (strstr (gpu->name, m));
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    g_assert_cmpint (hr_catalog_find_gpu (catalog, known[i].id)->generation, ==, known[i].gen);
  /* matrix units as the architectures have them */
  g_assert_false (hr_gpu_generation_info (HR_GEN_PASCAL)->matrix_units);
  g_assert_false (hr_gpu_generation_info (HR_GEN_GFX906)->matrix_units);
  g_assert_false (hr_gpu_generation_info (HR_GEN_RDNA2)->matrix_units);
  g_assert_true (hr_gpu_generation_info (HR_GEN_RDNA3)->matrix_units);
  g_assert_null (hr_gpu_generation_info (HR_GEN_UNKNOWN));
  g_assert_null (hr_gpu_generation_info (HR_N_GENERATIONS));
}

/* A generation this version does not know reads as not known, and the GPU loads (a newer
 * Headroom's file, or a hand-edited one); a generation that is not a string, or longer than
 * any id, is a malformed entry as before.  The hostile fuzz seed
 * tests/fuzz/corpus/catalog/gpus-generation-hostile.json holds the same values. */
static void
test_generation_unknown_string (void)
{
  static const struct { const char *value; gboolean ok; HrGpuGeneration gen; } cases[] = {
    { "\"kepler-2030\"", TRUE, HR_GEN_UNKNOWN }, { "\" PASCAL\"", TRUE, HR_GEN_UNKNOWN },
    { "\"\"", TRUE, HR_GEN_UNKNOWN }, { "\"\\uff50ascal\"", TRUE, HR_GEN_UNKNOWN },
    { "null", TRUE, HR_GEN_UNKNOWN }, { "\"PASCAL\"", TRUE, HR_GEN_PASCAL },
    { "\"rdna2\"", TRUE, HR_GEN_RDNA2 },
    { "2", FALSE, HR_GEN_UNKNOWN }, { "\"rdna2rdna2rdna2rdna2rdna2rdna2rdna2\"", FALSE, HR_GEN_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
      g_autoptr(GError) error = NULL;
      g_autofree char *json = g_strdup_printf (
        "{\"schema\": 1, \"gpus\": [{\"id\": \"x\", \"name\": \"X\", \"form\": \"consumer\", "
        "\"memory_gb\": 16, \"backend\": \"rocm\", \"generation\": %s}]}", cases[i].value);
      gboolean ok = hr_catalog_load_gpus (catalog, json, -1, &error);

      g_test_message ("generation %s", cases[i].value);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (!ok)
        {
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, "generation"));
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpint (hr_catalog_find_gpu (catalog, "x")->generation, ==, cases[i].gen);
    }
}

static void
test_bundled_gpus (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  const HrGpu *gpu;

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      gpu = hr_catalog_get_gpu (catalog, i);
      g_test_message ("gpu %s", gpu->id);
      g_assert_true (hr_catalog_find_gpu (catalog, gpu->id) == gpu);
      g_assert_cmpfloat (gpu->memory_gib, >, 0);
      g_assert_null (strstr (gpu->name, "M4 Ultra"));
      g_assert_true (isnan (gpu->price_usd) || gpu->price_usd > 0);
      if (gpu->form == HR_FORM_UNIFIED && g_strcmp0 (gpu->vendor, "Apple") == 0)
        {
          g_assert_cmpint (gpu->backend, ==, HR_BACKEND_METAL);
          g_assert_cmpfloat (gpu->unified_share, ==, gpu->memory_gib > 36 ? 0.75 : 0.66);
        }
      if (gpu->form != HR_FORM_UNIFIED)
        g_assert_cmpfloat (gpu->unified_share, ==, 0);
      /* a measured bandwidth is a unified machine's, below its peak, and cited */
      if (!isnan (gpu->bandwidth_measured_gbs))
        {
          g_assert_cmpint (gpu->form, ==, HR_FORM_UNIFIED);
          g_assert_cmpfloat (gpu->bandwidth_measured_gbs, <=, gpu->bandwidth_gbs);
          g_assert_nonnull (strstr (gpu->bandwidth_measured_source, "https://"));
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (seed_gpu_ids); i++)
    {
      g_test_message ("seed gpu %s", seed_gpu_ids[i]);
      g_assert_nonnull (hr_catalog_find_gpu (catalog, seed_gpu_ids[i]));
    }

  /* Strix Halo is AMD, not Apple; Chinese accelerators get their own stacks. */
  gpu = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  g_assert_cmpstr (gpu->vendor, ==, "AMD");
  g_assert_cmpint (gpu->form, ==, HR_FORM_UNIFIED);
  g_assert_cmpint (gpu->backend, ==, HR_BACKEND_ROCM);
  g_assert_cmpfloat_with_epsilon (gpu->unified_share, 108.0 / 128.0, 1e-9);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "dcu-k100-ai-64gb")->backend, ==,
                   HR_BACKEND_ROCM);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "ascend-910b-64gb")->backend, ==,
                   HR_BACKEND_CANN);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "mtt-s4000-48gb")->backend, ==,
                   HR_BACKEND_MUSA);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "mlu590-80gb")->backend, ==, HR_BACKEND_OTHER);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "arc-pro-b60-24gb")->backend, ==,
                   HR_BACKEND_SYCL);
  g_assert_cmpint (hr_catalog_find_gpu (catalog, "dgx-spark-128gb")->form, ==, HR_FORM_UNIFIED);
  g_assert_true (hr_catalog_find_gpu (catalog, "rtx-3090-24gb")->used_market);
  g_assert_false (hr_catalog_find_gpu (catalog, "rtx-4090-24gb")->used_market);
  g_assert_cmpfloat (hr_catalog_find_gpu (catalog, "h100-80gb-sxm")->memory_gib, ==, 80);
}

static void
test_bundled_quants (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  const HrQuantMix *mix;

  for (guint i = 0; i < G_N_ELEMENTS (matrix_quants); i++)
    {
      mix = hr_catalog_find_quant (catalog, matrix_quants[i]);
      g_assert_nonnull (mix);
      g_assert_true (mix->in_matrix);
    }
  for (guint i = 0; i < hr_catalog_n_quants (catalog); i++)
    {
      mix = hr_catalog_get_quant (catalog, i);
      g_assert_cmpfloat (mix->nominal_bpw, >, 0);
      g_assert_nonnull (mix->label);
    }

  mix = hr_catalog_find_quant (catalog, "q4_k_m");
  g_assert_nonnull (mix);
  g_assert_cmpstr (mix->default_type, ==, "Q4_K");
  g_assert_cmpfloat (mix->nominal_bpw, ==, 4.5);
  mix = hr_catalog_find_quant (catalog, "FP8");
  g_assert_nonnull (mix);
  g_assert_null (mix->default_type);
  g_assert_false (mix->gguf);
  g_assert_null (hr_catalog_find_quant (catalog, "Q9_Z"));
}

static void
test_suggestions (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  g_autoptr(GPtrArray) models = hr_catalog_suggest_models (catalog, "glm-45-air", 5);
  g_autoptr(GPtrArray) upper = hr_catalog_suggest_models (catalog, "GLM-4.5 Air", 5);
  g_autoptr(GPtrArray) gpus = hr_catalog_suggest_gpus (catalog, "rtx4090", 5);
  g_autoptr(GPtrArray) none = hr_catalog_suggest_models (catalog, "zzzzzzzzzzzzzzzz", 5);
  g_autoptr(GPtrArray) zero = hr_catalog_suggest_gpus (catalog, "h100", 0);
  g_autofree char *huge = g_strnfill (100000, 'a');
  g_autoptr(GPtrArray) big = hr_catalog_suggest_models (catalog, huge, 5);
  gboolean found = FALSE;

  g_assert_cmpuint (models->len, >=, 1);
  g_assert_cmpuint (models->len, <=, 5);
  for (guint i = 0; i < models->len; i++)
    found |= g_strcmp0 (g_ptr_array_index (models, i), "glm-4.5-air") == 0;
  g_assert_true (found);
  g_assert_cmpstr (g_ptr_array_index (models, 0), ==, "glm-4.5-air");
  g_assert_cmpstr (g_ptr_array_index (upper, 0), ==, "glm-4.5-air");
  g_assert_cmpstr (g_ptr_array_index (gpus, 0), ==, "rtx-4090-24gb");
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (zero->len, ==, 0);
  g_assert_cmpuint (big->len, ==, 0);
}

static void
test_add_replace_remove (void)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  HrGpu *a = hr_gpu_new ();
  HrGpu *b = hr_gpu_new ();

  a->id = g_strdup ("x");
  a->memory_gib = 8;
  b->id = g_strdup ("x");
  b->memory_gib = 16;
  hr_catalog_add_gpu (catalog, a);
  hr_catalog_add_gpu (catalog, b);
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 1);
  g_assert_cmpfloat (hr_catalog_find_gpu (catalog, "x")->memory_gib, ==, 16);
  g_assert_true (hr_catalog_remove_gpu (catalog, "x"));
  g_assert_false (hr_catalog_remove_gpu (catalog, "x"));
  g_assert_null (hr_catalog_find_gpu (catalog, "x"));
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 0);
  g_assert_null (hr_catalog_get_pricing (catalog));
}

/* ------------------------------------------------------------------------------------------ */
/* Hostile input                                                                               */

#define GOOD_MODEL \
  "{\"id\":\"m\",\"name\":\"M\",\"total_params_b\":1,\"arch\":{\"layers\":2}," \
  "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,\"v_dim\":64}]}"

#define GOOD_GPU \
  "{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\",\"backend\":\"cuda\",\"memory_gb\":24}"

typedef gboolean (*LoadFunc) (HrCatalog *, const char *, gssize, GError **);

/* Expects @json to be refused with an error (and to leave the catalog empty). */
static void
expect_error (LoadFunc    load,
              const char *json,
              gssize      length,
              const char *needle)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;

  g_assert_false (load (catalog, json, length, &error));
  g_assert_error (error, HR_CATALOG_ERROR, error->code);
  g_assert_nonnull (error->message);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("“%s” not in error “%s”", needle, error->message);
  g_assert_cmpuint (hr_catalog_n_models (catalog), ==, 0);
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 0);
  g_assert_cmpuint (hr_catalog_n_quants (catalog), ==, 0);
}

static void
expect_ok (LoadFunc    load,
           const char *json)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;

  g_assert_true (load (catalog, json, -1, &error));
  g_assert_no_error (error);
}

static void
test_hostile_models (void)
{
  const char *cases[][2] = {
    { "", "empty" },
    { "{", "JSON" },
    { "[]", "object" },
    { "{\"schema\":2,\"models\":[]}", "schema" },
    { "{\"schema\":\"1\",\"models\":[]}", "schema" },
    { "{\"schema\":1}", "models" },
    { "{\"schema\":1,\"models\":{}}", "models" },
    { "{\"schema\":1,\"models\":[1]}", "model #1" },
    { "{\"schema\":1,\"models\":[{}]}", "“id”" },
    { "{\"schema\":1,\"models\":[{\"id\":7}]}", "“id”" },
    { "{\"schema\":1,\"models\":[{\"id\":\"Bad Id\"}]}", "“id”" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2}}]}",
      "kv_groups" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":-2},"
      "\"kv_groups\":[]}]}", "layers" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"total_params_b\":\"NaN\","
      "\"arch\":{\"layers\":2},\"kv_groups\":[]}]}", "total_params_b" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"total_params_b\":1e999,"
      "\"arch\":{\"layers\":2},\"kv_groups\":[]}]}", NULL },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"total_params_b\":-3,"
      "\"arch\":{\"layers\":2},\"kv_groups\":[]}]}", "total_params_b" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":3,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}]}]}", "kv_groups" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"warp\",\"layers\":2}]}]}", "kind" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"sliding\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}]}]}", "window" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"recurrent\",\"layers\":2}]}]}", "state_bytes" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2.5},"
      "\"kv_groups\":[]}]}", "whole number" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":"
      "99999999999999999999999999},\"kv_groups\":[]}]}", NULL },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"sizes\":[{\"quant\":\"Q4_K_M\",\"bytes\":-1}]}]}", "bytes" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"sizes\":[{\"quant\":\"Q4\",\"bytes\":1},{\"quant\":\"Q4\","
      "\"bytes\":2}]}]}", "twice" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"total_params_b\":1,"
      "\"active_params_b\":2,\"arch\":{\"layers\":2},\"kv_groups\":[]}]}", "active" },
    { "{\"schema\":1,\"models\":[" GOOD_MODEL "," GOOD_MODEL "]}", "duplicate" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"\\ud800\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}]}]}", NULL },
    /* kernels beyond a llama block's: a small count */
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2,"
      "\"extra_block_kernels\":-5},\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,"
      "\"k_dim\":64,\"v_dim\":64}]}]}", "extra_block_kernels" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2,"
      "\"extra_block_kernels\":1e300},\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,"
      "\"kv_heads\":1,\"k_dim\":64,\"v_dim\":64}]}]}", "extra_block_kernels" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2,"
      "\"extra_block_kernels\":\"many\"},\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,"
      "\"kv_heads\":1,\"k_dim\":64,\"v_dim\":64}]}]}", "extra_block_kernels" },
    /* a vision projector (#31): an object with its file's bytes and dtype */
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":[]}]}", "mmproj" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"bytes\":1}}]}", "dtype" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F16\"}}]}", "bytes" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F16\",\"bytes\":-5}}]}", "bytes" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F 16\",\"bytes\":5}}]}", "dtype" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F16\",\"bytes\":5,\"patches\":0}}]}", "patches" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F16\",\"bytes\":5,\"hidden\":1e30}}]}", "hidden" },
    { "{\"schema\":1,\"models\":[{\"id\":\"m\",\"name\":\"M\",\"arch\":{\"layers\":2},"
      "\"kv_groups\":[{\"kind\":\"full\",\"layers\":2,\"kv_heads\":1,\"k_dim\":64,"
      "\"v_dim\":64}],\"mmproj\":{\"dtype\":\"F16\",\"bytes\":5,\"gated\":\"yes\"}}]}", "gated" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u: %s", i, cases[i][0]);
      expect_error (hr_catalog_load_models, cases[i][0], -1, cases[i][1]);
    }

  expect_ok (hr_catalog_load_models, "{\"schema\":1,\"models\":[" GOOD_MODEL "]}");
  expect_ok (hr_catalog_load_models, "{\"schema\":1,\"models\":[]}");

  /* Truncated at every length: never a crash, never a half-loaded catalog. */
  {
    const char *good = "{\"schema\":1,\"models\":[" GOOD_MODEL "]}";
    gsize len = strlen (good);

    for (gsize cut = 0; cut < len; cut++)
      expect_error (hr_catalog_load_models, good, (gssize) cut, NULL);
  }

  /* Bytes that are not UTF-8, and an embedded NUL. */
  expect_error (hr_catalog_load_models, "{\"schema\":1,\"models\":[{\"id\":\"\xff\xfe\"}]}", -1,
                "UTF-8");
  expect_error (hr_catalog_load_models, "{\"schema\":1,\0\"models\":[]}", 25, NULL);
  expect_error (hr_catalog_load_models, NULL, -1, NULL);
}

static void
test_hostile_gpus (void)
{
  const char *cases[][2] = {
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":-24}]}", "memory_gb" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":0}]}", "memory_gb" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":\"24\"}]}", "memory_gb" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":1e300}]}", "memory_gb" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\"}]}", "memory_gb" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"laptop\","
      "\"backend\":\"cuda\",\"memory_gb\":24}]}", "form" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"glide\",\"memory_gb\":24}]}", "backend" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":24,\"unified_share\":0.7}]}", "unified_share" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":24,\"used_market\":1}]}", "used_market" },
    /* a measured bandwidth: unified machines only, at most the peak, with its source */
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":24,\"bandwidth_gbs\":1008,"
      "\"bandwidth_measured_gbs\":900,\"bandwidth_measured_source\":\"x\"}]}",
      "bandwidth_measured_gbs" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
      "\"backend\":\"rocm\",\"memory_gb\":128,\"bandwidth_gbs\":256,"
      "\"bandwidth_measured_gbs\":300,\"bandwidth_measured_source\":\"x\"}]}",
      "bandwidth_measured_gbs" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
      "\"backend\":\"rocm\",\"memory_gb\":128,"
      "\"bandwidth_measured_gbs\":200,\"bandwidth_measured_source\":\"x\"}]}",
      "bandwidth_measured_gbs" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
      "\"backend\":\"rocm\",\"memory_gb\":128,\"bandwidth_gbs\":256,"
      "\"bandwidth_measured_gbs\":-1,\"bandwidth_measured_source\":\"x\"}]}",
      "bandwidth_measured_gbs" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
      "\"backend\":\"rocm\",\"memory_gb\":128,\"bandwidth_gbs\":256,"
      "\"bandwidth_measured_gbs\":212}]}", "bandwidth_measured_source" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
      "\"backend\":\"rocm\",\"memory_gb\":128,\"bandwidth_gbs\":256,"
      "\"bandwidth_measured_gbs\":212,\"bandwidth_measured_source\":7}]}",
      "bandwidth_measured_source" },
    { "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":[],\"form\":\"consumer\","
      "\"backend\":\"cuda\",\"memory_gb\":24}]}", "name" },
    { "{\"schema\":1,\"gpus\":[" GOOD_GPU "," GOOD_GPU "]}", "“g”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u: %s", i, cases[i][0]);
      expect_error (hr_catalog_load_gpus, cases[i][0], -1, cases[i][1]);
    }
  expect_ok (hr_catalog_load_gpus, "{\"schema\":1,\"gpus\":[" GOOD_GPU "]}");
  expect_ok (hr_catalog_load_gpus,
             "{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"G\",\"form\":\"unified\","
             "\"backend\":\"rocm\",\"memory_gb\":128,\"bandwidth_gbs\":256,"
             "\"bandwidth_measured_gbs\":212,\"bandwidth_measured_source\":\"https://x\"}]}");
}

static void
test_hostile_quants (void)
{
  expect_error (hr_catalog_load_quants,
                "{\"schema\":1,\"mixes\":[{\"id\":\"X\",\"label\":\"x\",\"default_type\":"
                "\"Q99_K\"}]}", -1, "default_type");
  expect_error (hr_catalog_load_quants,
                "{\"schema\":1,\"mixes\":[{\"id\":\"X\",\"label\":\"x\"}]}", -1, "nominal_bpw");
  expect_error (hr_catalog_load_quants,
                "{\"schema\":1,\"ggml_types\":[{\"name\":\"T\",\"id\":1,\"block_size\":0,"
                "\"bytes_per_block\":2}],\"mixes\":[]}", -1, "block_size");
  expect_error (hr_catalog_load_quants,
                "{\"schema\":1,\"mixes\":[{\"id\":\"X\",\"label\":\"x\",\"nominal_bpw\":4},"
                "{\"id\":\"X\",\"label\":\"y\",\"nominal_bpw\":4}]}", -1, "duplicate");
  expect_ok (hr_catalog_load_quants,
             "{\"schema\":1,\"ggml_types\":[{\"name\":\"T\",\"id\":99,\"block_size\":32,"
             "\"bytes_per_block\":18}],\"mixes\":[{\"id\":\"X\",\"label\":\"x\","
             "\"default_type\":\"T\"}]}");
}

static void
test_hostile_huge (void)
{
  GString *nested = g_string_new ("{\"schema\":1,\"models\":");
  GString *big = g_string_new ("{\"schema\":1,\"gpus\":[{\"id\":\"g\",\"name\":\"");
  g_autofree char *nested_str = NULL;
  g_autofree char *big_str = NULL;

  /* 10 000 nested arrays: refused before json-glib recurses into them. */
  for (guint i = 0; i < 10000; i++)
    g_string_append_c (nested, '[');
  for (guint i = 0; i < 10000; i++)
    g_string_append_c (nested, ']');
  g_string_append_c (nested, '}');
  nested_str = g_string_free (nested, FALSE);
  expect_error (hr_catalog_load_models, nested_str, -1, "nested");

  /* A 10 MB name. */
  for (guint i = 0; i < 10 * 1000 * 1000 / 10; i++)
    g_string_append (big, "abcdefghij");
  g_string_append (big, "\",\"form\":\"consumer\",\"backend\":\"cuda\",\"memory_gb\":24}]}");
  big_str = g_string_free (big, FALSE);
  expect_error (hr_catalog_load_gpus, big_str, -1, "name");
}

static void
test_load_is_atomic (void)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_catalog_load_gpus (catalog, "{\"schema\":1,\"gpus\":[" GOOD_GPU "]}", -1,
                                       &error));
  /* A good entry followed by a bad one: nothing of the second file is added. */
  g_assert_false (hr_catalog_load_gpus (catalog,
                                        "{\"schema\":1,\"gpus\":[{\"id\":\"ok\",\"name\":\"O\","
                                        "\"form\":\"consumer\",\"backend\":\"cuda\","
                                        "\"memory_gb\":8},{\"id\":\"bad\"}]}", -1, &error));
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 1);
  g_assert_null (hr_catalog_find_gpu (catalog, "ok"));
  g_assert_nonnull (hr_catalog_find_gpu (catalog, "g"));
}

/* ------------------------------------------------------------------------------------------ */
/* --gpu-custom                                                                                */

static void
test_gpu_spec_good (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGpu) gpu = NULL;
  g_autoptr(HrGpu) mac = NULL;
  g_autoptr(HrGpu) copy = NULL;

  gpu = hr_gpu_new_from_spec ("memory_gib=24, bandwidth_gbs=1008,fp16_tflops=165.2,"
                              "name=My card,price_usd=1599,tdp_w=450", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gpu->memory_gib, ==, 24);
  g_assert_cmpfloat (gpu->bandwidth_gbs, ==, 1008);
  g_assert_cmpfloat (gpu->fp16_tflops, ==, 165.2);
  g_assert_cmpfloat (gpu->price_usd, ==, 1599);
  g_assert_cmpfloat (gpu->tdp_w, ==, 450);
  g_assert_cmpstr (gpu->name, ==, "My card");
  g_assert_true (gpu->user_defined);
  g_assert_false (hr_gpu_is_unified (gpu));
  g_assert_true (isnan (gpu->fp8_tflops));

  mac = hr_gpu_new_from_spec ("memory_gib=128,bandwidth_gbs=546,unified=true", &error);
  g_assert_no_error (error);
  g_assert_true (hr_gpu_is_unified (mac));
  g_assert_cmpfloat (mac->unified_share, ==, 0.75);
  g_assert_true (isnan (mac->fp16_tflops));
  g_assert_nonnull (mac->name);

  copy = hr_gpu_copy (gpu);
  g_assert_cmpstr (copy->name, ==, gpu->name);
  g_assert_true (copy->name != gpu->name);
}

/* A model copy owns all of its strings, layer groups and sizes: freeing the original (and
 * its weights cache) leaves the copy whole, and the copy does not share the cache. */
static void
test_model_copy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_unpriced (&error);
  HrModel *orig;
  g_autoptr(HrModel) copy = NULL;
  const HrQuantSize *size;
  HrWeights w;

  g_assert_no_error (error);
  orig = hr_model_copy (hr_catalog_find_model (catalog, "glm-4.5-air"));
  g_assert_cmpuint (orig->sizes->len, >, 0);
  orig->gguf_quant = g_strdup ("Q4_K_M");
  orig->gguf_path = g_strdup ("/models/glm.gguf");
  g_assert_true (hr_weights_derive (orig, "BF16", &w, NULL));
  g_assert_nonnull (orig->weights_cache);

  copy = hr_model_copy (orig);
  g_assert_null (copy->weights_cache);
  g_assert_true (copy->name != orig->name && copy->source != orig->source &&
                 copy->gguf_path != orig->gguf_path);
  g_assert_true (copy->layers != orig->layers && copy->sizes != orig->sizes);
  size = g_ptr_array_index (copy->sizes, 0);
  g_assert_true (size != g_ptr_array_index (orig->sizes, 0));
  hr_model_free (orig);

  g_assert_cmpstr (copy->id, ==, "glm-4.5-air");
  g_assert_cmpstr (copy->name, ==, "GLM-4.5-Air (110B-A12B)");
  g_assert_cmpstr (copy->hf_repo, ==, "zai-org/GLM-4.5-Air");
  g_assert_cmpstr (copy->gguf_quant, ==, "Q4_K_M");
  g_assert_cmpstr (copy->gguf_path, ==, "/models/glm.gguf");
  g_assert_cmpint (copy->n_layers, ==, 46);
  g_assert_cmpuint (copy->layers->len, ==, 1);
  g_assert_cmpint (g_array_index (copy->layers, HrLayerGroup, 0).count, ==, 46);
  g_assert_cmpstr (size->quant, ==, "Q8_0");
  g_assert_true (hr_model_find_size (copy, "Q4_K_M") != NULL);
  g_assert_nonnull (size->source);
  g_assert_true (hr_weights_derive (copy, "BF16", &w, NULL));
}

/* A unified-memory device without a share of its own gets the same default whether it comes
 * from --gpu-custom or is sized as it is: 0.66 below 64 GiB, 0.75 from 64 GiB (--gpu-custom
 * gave a 48 GiB machine 0.75 while sizing gave it 2/3). */
static void
test_gpu_unified_share_default (void)
{
  static const struct { double gib; double share; } cases[] = {
    { 16, 0.66 }, { 36, 0.66 }, { 48, 0.66 }, { 63, 0.66 }, { 64, 0.75 }, { 128, 0.75 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *spec = g_strdup_printf ("memory_gib=%g,unified=true", cases[i].gib);
      g_autoptr(HrGpu) custom = NULL;
      g_autoptr(HrGpu) bare = hr_gpu_new ();
      GError *error = NULL;

      g_test_message ("%g GiB", cases[i].gib);
      custom = hr_gpu_new_from_spec (spec, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (custom->unified_share, ==, cases[i].share);

      bare->form = HR_FORM_UNIFIED;
      bare->memory_gib = cases[i].gib;
      g_assert_cmpfloat (hr_gpu_unified_share (bare, 0), ==, cases[i].share);
      g_assert_cmpfloat (hr_gpu_unified_share (bare, 0.5), ==, 0.5);
    }
}

static void
test_gpu_spec_bad (void)
{
  const char *cases[][2] = {
    { "", "memory_gib" },
    { "bandwidth_gbs=100", "memory_gib" },
    { "memory_gib=abc", "memory_gib" },
    { "memory_gib=-8", "memory_gib" },
    { "memory_gib=0", "memory_gib" },
    { "memory_gib=nan", "memory_gib" },
    { "memory_gib=inf", "memory_gib" },
    { "memory_gib=1e999", "memory_gib" },
    { "memory_gib=0x10", "memory_gib" },
    { "memory_gib=24,bandwidth_gbs=", "bandwidth_gbs" },
    { "memory_gib=24,fp16_tflops=1.2.3", "fp16_tflops" },
    { "memory_gib=24,colour=red", "colour" },
    { "memory_gib=24,memory_gib=48", "memory_gib" },
    { "memory_gib=24,,bandwidth_gbs=5", "empty" },
    { "memory_gib=24,unified=maybe", "unified" },
    { "memory_gib=24,price_usd=-1", "price_usd" },
    { "memory_gib=24,tdp_w=NaN", "tdp_w" },
    { "memory_gib", "memory_gib" },
    { "memory_gib=24,unified_share=0.8", "unified_share" },
    { "memory_gib=99999999", "memory_gib" },
    { "memory_gib=24,generation=kepler", "generation" },
    { "memory_gib=24,generation=", "generation" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGpu) gpu = hr_gpu_new_from_spec (cases[i][0], &error);

      g_test_message ("spec “%s”", cases[i][0]);
      g_assert_null (gpu);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i][1]) == NULL)
        g_error ("“%s” not in error “%s”", cases[i][1], error->message);
    }
}

static void
test_enum_strings (void)
{
  HrBackend backend;
  HrGpuForm form;

  for (int i = 0; i < HR_N_BACKENDS; i++)
    {
      g_assert_true (hr_backend_from_string (hr_backend_to_string (i), &backend));
      g_assert_cmpint (backend, ==, i);
    }
  for (int i = HR_FORM_CONSUMER; i <= HR_FORM_UNIFIED; i++)
    {
      g_assert_true (hr_gpu_form_from_string (hr_gpu_form_to_string (i), &form));
      g_assert_cmpint (form, ==, i);
    }
  g_assert_true (hr_gpu_form_from_string ("unified-memory", &form));
  g_assert_cmpint (form, ==, HR_FORM_UNIFIED);
  g_assert_false (hr_backend_from_string ("opencl", &backend));
  g_assert_false (hr_backend_from_string (NULL, &backend));
  g_assert_false (hr_gpu_form_from_string ("", &form));
  g_assert_cmpstr (hr_backend_to_string (HR_N_BACKENDS), ==, "unknown");
}

/* The lists the GUI fills from core: the backends one picks (SPEC's --backend list) and every
 * KV-cache type. */
static void
test_choice_lists (void)
{
  static const char * const spec_backends[] = { "cuda", "rocm", "metal", "vulkan", "sycl", "cpu" };
  static const char * const kv_labels[] = { "F16 / BF16", "FP8", "Q8_0", "Q4_0" };
  guint n = 0;
  const HrBackend *choices = hr_backend_choices (&n);
  HrKvType kv;

  g_assert_cmpuint (n, ==, G_N_ELEMENTS (spec_backends));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (hr_backend_to_string (choices[i]), ==, spec_backends[i]);
      g_assert_nonnull (hr_backend_display_name (choices[i]));
    }
  g_assert_cmpuint (HR_N_KV_TYPES, ==, G_N_ELEMENTS (kv_labels));
  for (guint i = 0; i < HR_N_KV_TYPES; i++)
    {
      g_assert_cmpstr (hr_kv_type_display_name (i), ==, kv_labels[i]);
      g_assert_true (hr_kv_type_from_string (hr_kv_type_to_string (i), &kv));
      g_assert_cmpint (kv, ==, i);
    }
  g_assert_null (hr_kv_type_display_name (HR_N_KV_TYPES));
}

/* RDNA 4 matrix rates (#28): AMD's R9700 page gives the dense FP16 matrix figure (191, not the
 * 95.7 vector one); the RX 9070 XT's follows from its 64 CUs, 2.97 GHz and RDNA 4's 1024 FP16
 * FLOPS per clock per CU (GPUOpen).  Each figure carries its source in the entry; before, both
 * were null and prefill on them was unknown. */
static void
test_rdna4_tensor_rates (void)
{
  g_autoptr(HrCatalog) catalog = load_default ();
  const HrGpu *r9700, *xt;

  r9700 = hr_catalog_find_gpu (catalog, "radeon-ai-pro-r9700-32gb");
  xt = hr_catalog_find_gpu (catalog, "rx-9070-xt-16gb");
  g_assert_nonnull (r9700);
  g_assert_nonnull (xt);
  g_assert_cmpfloat (r9700->fp16_tflops, ==, 191);
  g_assert_nonnull (strstr (r9700->source, "fp16_tflops 191: AMD product page"));
  g_assert_nonnull (strstr (r9700->source, "https://www.amd.com/"));
  g_assert_cmpfloat (xt->fp16_tflops, ==, 194.64);
  g_assert_nonnull (strstr (xt->source, "https://gpuopen.com/learn/using_matrix_core_amd_rdna4"));
  /* the vector rate is not the matrix rate on RDNA 4 */
  g_assert_cmpfloat (r9700->fp16_tflops, >, 2 * 95.7 - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/catalog/bundled/counts", test_bundled_counts);
  g_test_add_func ("/catalog/bundled/models", test_bundled_models);
  g_test_add_func ("/catalog/bundled/glm-seed-figures", test_glm_seed_figures);
  g_test_add_func ("/catalog/bundled/special-attention", test_special_attention);
  g_test_add_func ("/catalog/bundled/gpus", test_bundled_gpus);
  g_test_add_func ("/catalog/bundled/generations", test_bundled_generations);
  g_test_add_func ("/catalog/bundled/rdna4-tensor-rates", test_rdna4_tensor_rates);
  g_test_add_func ("/catalog/generation/unknown-string", test_generation_unknown_string);
  g_test_add_func ("/catalog/bundled/quants", test_bundled_quants);
  g_test_add_func ("/catalog/suggestions", test_suggestions);
  g_test_add_func ("/catalog/add-replace-remove", test_add_replace_remove);
  g_test_add_func ("/catalog/hostile/models", test_hostile_models);
  g_test_add_func ("/catalog/hostile/gpus", test_hostile_gpus);
  g_test_add_func ("/catalog/hostile/quants", test_hostile_quants);
  g_test_add_func ("/catalog/hostile/huge", test_hostile_huge);
  g_test_add_func ("/catalog/hostile/atomic", test_load_is_atomic);
  g_test_add_func ("/catalog/gpu-spec/good", test_gpu_spec_good);
  g_test_add_func ("/catalog/gpu-spec/bad", test_gpu_spec_bad);
  g_test_add_func ("/catalog/gpu-spec/unified-share-default", test_gpu_unified_share_default);
  g_test_add_func ("/catalog/model-copy", test_model_copy);
  g_test_add_func ("/catalog/enum-strings", test_enum_strings);
  g_test_add_func ("/catalog/choice-lists", test_choice_lists);

  return g_test_run ();
}
