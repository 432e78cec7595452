/* test-hfconfig.c — config.json import: layers, KV groups, parameter counts, hostile input
 *
 * Fixtures in tests/fixtures/hfconfig/ are written from the public config values collected in
 * reference/model_specs.csv; published totals are the vendors' figures.
 */
#include <math.h>
#include <string.h>

#include "hr-hfconfig.h"

static HrModel *
load_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *repo = g_strdup_printf ("test/%s", name);
  gsize len = 0;
  HrModel *model;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  repo[strlen (repo) - 5] = '\0';   /* drop ".json" */
  model = hr_hfconfig_parse (contents, (gssize) len, repo, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_cmpint (model->origin, ==, HR_MODEL_ORIGIN_CONFIG);
  g_assert_true (hr_model_validate (model, NULL));
  return model;
}

static const HrLayerGroup *
find_group (const HrModel *model,
            HrLayerKind    kind)
{
  for (guint i = 0; i < model->layers->len; i++)
    if (g_array_index (model->layers, HrLayerGroup, i).kind == kind)
      return &g_array_index (model->layers, HrLayerGroup, i);
  return NULL;
}

static int
count_layers (const HrModel *model,
              HrLayerKind    kind)
{
  int n = 0;

  for (guint i = 0; i < model->layers->len; i++)
    if (g_array_index (model->layers, HrLayerGroup, i).kind == kind)
      n += g_array_index (model->layers, HrLayerGroup, i).count;
  return n;
}

static void
assert_within (double      value,
               double      expected,
               double      tolerance,
               const char *what)
{
  double rel = fabs (value - expected) / expected;

  g_test_message ("%s: %.4g vs %.4g (%.2f %%)", what, value, expected, rel * 100);
  g_assert_cmpfloat (rel, <=, tolerance);
}

static void
test_llama (void)
{
  g_autoptr(HrModel) m = load_fixture ("llama-3.1-8b.json");
  const HrLayerGroup *g = find_group (m, HR_LAYER_FULL);

  g_assert_cmpint (m->n_layers, ==, 32);
  g_assert_cmpint (m->hidden, ==, 4096);
  g_assert_cmpint (m->n_heads, ==, 32);
  g_assert_cmpint (m->head_dim, ==, 128);
  g_assert_cmpint (m->vocab, ==, 128256);
  g_assert_cmpint (m->intermediate, ==, 14336);
  g_assert_cmpint (m->max_context, ==, 131072);
  g_assert_false (hr_model_is_moe (m));
  g_assert_false (m->tie_embeddings);
  g_assert_cmpstr (m->native_dtype, ==, "BF16");
  g_assert_cmpstr (m->hf_repo, ==, "test/llama-3.1-8b");
  g_assert_cmpstr (m->id, ==, "llama-3.1-8b");
  g_assert_cmpuint (m->layers->len, ==, 1);
  g_assert_nonnull (g);
  g_assert_cmpint (g->count, ==, 32);
  g_assert_cmpint (g->kv_heads, ==, 8);
  g_assert_cmpint (g->k_dim, ==, 128);
  g_assert_cmpint (g->v_dim, ==, 128);
  assert_within (m->total_params, 8.03e9, 0.01, "Llama 3.1 8B total");
  g_assert_cmpfloat (m->active_params, ==, m->total_params);
  /* 32 layers × K,V × 8 heads × 128 × 2 bytes */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 131072);
  g_assert_cmpfloat (hr_model_kv_bytes (m, 8192, 2), ==, 131072.0 * 8192);
}

static void
test_qwen3_moe (void)
{
  g_autoptr(HrModel) m = load_fixture ("qwen3-30b-a3b.json");

  g_assert_cmpint (m->n_layers, ==, 48);
  g_assert_cmpint (m->n_experts, ==, 128);
  g_assert_cmpint (m->n_experts_used, ==, 8);
  g_assert_cmpint (m->moe_intermediate, ==, 768);
  g_assert_cmpint (m->n_dense_layers, ==, 0);
  g_assert_cmpint (m->n_shared_experts, ==, 0);
  g_assert_true (hr_model_is_moe (m));
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 48);
  g_assert_cmpint (count_layers (m, HR_LAYER_SLIDING), ==, 0);  /* use_sliding_window false */
  assert_within (m->total_params, 30.53e9, 0.01, "Qwen3-30B-A3B total");
  /* 3.3 B published (A3B); ours counts the embedding and the output head too: 3.35 B */
  assert_within (m->active_params, 3.3e9, 0.02, "Qwen3-30B-A3B active");
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 98304);
}

static void
test_deepseek_v3 (void)
{
  g_autoptr(HrModel) m = load_fixture ("deepseek-v3.json");
  const HrLayerGroup *g = find_group (m, HR_LAYER_MLA);

  g_assert_cmpint (m->n_layers, ==, 61);
  g_assert_cmpint (m->kv_lora_rank, ==, 512);
  g_assert_cmpint (m->q_lora_rank, ==, 1536);
  g_assert_cmpint (m->qk_rope_dim, ==, 64);
  g_assert_cmpint (m->qk_nope_dim, ==, 128);
  g_assert_cmpint (m->v_head_dim, ==, 128);
  g_assert_cmpint (m->n_dense_layers, ==, 3);
  g_assert_cmpint (m->n_shared_experts, ==, 1);
  g_assert_cmpint (m->shared_intermediate, ==, 2048);
  g_assert_cmpint (m->mtp_layers, ==, 1);
  g_assert_cmpstr (m->native_dtype, ==, "FP8");
  g_assert_cmpuint (m->layers->len, ==, 1);
  g_assert_nonnull (g);
  g_assert_cmpint (g->count, ==, 61);
  g_assert_cmpint (g->kv_heads, ==, 1);
  g_assert_cmpint (g->k_dim, ==, 576);
  g_assert_cmpint (g->v_dim, ==, 0);
  /* 671 B without the MTP layer; 37 B active */
  assert_within (m->total_params, 671e9, 0.01, "DeepSeek-V3 total");
  assert_within (m->active_params, 37e9, 0.02, "DeepSeek-V3 active");
  /* 61 × 576 × 2 bytes */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 70272);
}

static void
test_gemma3 (void)
{
  g_autoptr(HrModel) m = load_fixture ("gemma-3-27b.json");
  const HrLayerGroup *full = find_group (m, HR_LAYER_FULL);
  const HrLayerGroup *swa = find_group (m, HR_LAYER_SLIDING);

  /* text_config values; vocab and context from Gemma3TextConfig's defaults */
  g_assert_cmpint (m->n_layers, ==, 62);
  g_assert_cmpint (m->hidden, ==, 5376);
  g_assert_cmpint (m->n_heads, ==, 32);
  g_assert_cmpint (m->vocab, ==, 262208);
  g_assert_cmpint (m->max_context, ==, 131072);
  g_assert_true (m->tie_embeddings);
  g_assert_cmpint (m->extra_block_kernels, ==, 0);  /* Gemma 3: a llama block's kernels */
  g_assert_nonnull (full);
  g_assert_nonnull (swa);
  g_assert_cmpint (full->count, ==, 10);   /* layer i global when (i + 1) % 6 == 0 */
  g_assert_cmpint (swa->count, ==, 52);
  g_assert_cmpint (swa->window, ==, 1024);
  g_assert_cmpint (swa->kv_heads, ==, 16);
  /* 27.43 B published (HF count, with the SigLIP vision tower) */
  assert_within (m->total_params, 27.43e9, 0.01, "Gemma 3 27B total");
  g_assert_cmpfloat (m->active_params, <, m->total_params);  /* text only */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 81920);
  /* at 32K: the 52 sliding layers hold 1024 tokens each */
  g_assert_cmpfloat (hr_model_kv_bytes (m, 32768, 2), ==, 81920.0 * 32768 + 52 * 8192.0 * 1024);
}

static void
test_gpt_oss (void)
{
  g_autoptr(HrModel) m = load_fixture ("gpt-oss-120b.json");
  const HrLayerGroup *full = find_group (m, HR_LAYER_FULL);
  const HrLayerGroup *swa = find_group (m, HR_LAYER_SLIDING);

  g_assert_cmpint (m->n_layers, ==, 36);
  g_assert_cmpint (m->n_experts, ==, 128);
  g_assert_cmpint (m->n_experts_used, ==, 4);
  g_assert_cmpint (m->moe_intermediate, ==, 2880);
  g_assert_cmpstr (m->native_dtype, ==, "MXFP4");
  g_assert_nonnull (full);
  g_assert_nonnull (swa);
  g_assert_cmpint (full->count, ==, 18);
  g_assert_cmpint (swa->count, ==, 18);
  g_assert_cmpint (swa->window, ==, 128);
  g_assert_cmpint (full->k_dim, ==, 64);
  assert_within (m->total_params, 116.8e9, 0.01, "gpt-oss-120b total");
  /* OpenAI's 5.1 B active leaves the embedding out; ours counts it (+0.58 B). */
  g_assert_cmpfloat (m->active_params, >, 5.1e9);
  g_assert_cmpfloat (m->active_params, <, 5.8e9);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 36864);
}

static void
test_qwen3_next (void)
{
  g_autoptr(HrModel) m = load_fixture ("qwen3-next-80b-a3b.json");
  const HrLayerGroup *full = find_group (m, HR_LAYER_FULL);
  const HrLayerGroup *rec = find_group (m, HR_LAYER_RECURRENT);

  g_assert_cmpint (m->n_layers, ==, 48);
  g_assert_nonnull (full);
  g_assert_nonnull (rec);
  g_assert_cmpint (full->count, ==, 12);
  g_assert_cmpint (rec->count, ==, 36);
  g_assert_cmpint (full->kv_heads, ==, 2);
  g_assert_cmpint (full->k_dim, ==, 256);
  /* conv (128·16·2 + 128·32) × 3 × 2 B + 32 × 128 × 128 × 4 B per layer */
  g_assert_cmpfloat (rec->state_bytes, ==, 2146304);
  g_assert_cmpfloat (hr_model_state_bytes (m), ==, 77266944);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 24576);
  g_assert_cmpint (m->n_experts, ==, 512);
  g_assert_cmpint (m->shared_intermediate, ==, 512);
  /* 80 B from the name; Qwen3-Coder-Next (same shapes) publishes 79,674,391,296 */
  assert_within (m->total_params, 80e9, 0.01, "Qwen3-Next total");
  assert_within (m->total_params, 79674391296.0, 0.001, "Qwen3-Next vs Qwen3-Coder-Next count");
}

static void
test_qwen35_nested (void)
{
  g_autoptr(HrModel) m = load_fixture ("qwen3.5-35b-a3b.json");
  const HrLayerGroup *rec = find_group (m, HR_LAYER_RECURRENT);

  /* values from text_config; layer_types with linear_attention */
  g_assert_cmpint (m->n_layers, ==, 40);
  g_assert_cmpint (m->vocab, ==, 248320);
  g_assert_cmpint (m->mtp_layers, ==, 1);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 10);
  g_assert_nonnull (rec);
  g_assert_cmpint (rec->count, ==, 30);
  g_assert_cmpfloat (hr_model_state_bytes (m), ==, 64389120);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 20480);
  /* 35.95 B is the HF count with the vision tower and the MTP layer, which this config
   * (no vision_config here) and our count leave out */
  assert_within (m->total_params, 35.95e9, 0.04, "Qwen3.5-35B-A3B total");
}

static void
test_glm_air (void)
{
  g_autoptr(HrModel) m = load_fixture ("glm-4.5-air.json");

  g_assert_cmpint (m->n_layers, ==, 46);
  g_assert_cmpint (m->head_dim, ==, 128);
  g_assert_cmpint (m->n_heads, ==, 96);
  g_assert_cmpint (m->n_dense_layers, ==, 1);
  g_assert_cmpint (m->n_experts, ==, 128);
  g_assert_cmpint (m->n_shared_experts, ==, 1);
  g_assert_cmpint (m->shared_intermediate, ==, 1408);
  g_assert_cmpint (m->mtp_layers, ==, 1);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 46);
  assert_within (m->total_params, 106e9, 0.01, "GLM-4.5-Air total");
  /* the seed figures: 1.44 GiB at 8K, 5.75 GiB at 32K in F16 */
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 188416);
  g_assert_cmpfloat (fabs (hr_model_kv_bytes (m, 32768, 2) / (1 << 30) - 5.75), <, 0.001);
}

static void
test_mixtral (void)
{
  g_autoptr(HrModel) m = load_fixture ("mixtral-8x7b.json");

  g_assert_cmpint (m->n_experts, ==, 8);
  g_assert_cmpint (m->n_experts_used, ==, 2);
  g_assert_cmpint (m->moe_intermediate, ==, 14336);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 32);   /* sliding_window null */
  assert_within (m->total_params, 46.7e9, 0.01, "Mixtral 8x7B total");
  assert_within (m->active_params, 12.9e9, 0.01, "Mixtral 8x7B active");
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 131072);
}

static void
test_nemotron_h (void)
{
  g_autoptr(HrModel) m = load_fixture ("nemotron-3-nano-30b-a3b.json");
  const HrLayerGroup *rec = find_group (m, HR_LAYER_RECURRENT);

  g_assert_cmpint (m->n_layers, ==, 52);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 6);
  g_assert_nonnull (rec);
  g_assert_cmpint (rec->count, ==, 23);
  /* Mamba-2: conv 3 × (4096 + 2·8·128) × 2 B + 64 × 64 × 128 × 4 B */
  g_assert_cmpfloat (rec->state_bytes, ==, 2134016);
  g_assert_cmpfloat (hr_model_state_bytes (m), ==, 49082368);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 6144);
  assert_within (m->total_params, 31.58e9, 0.01, "Nemotron 3 Nano total");
}

static void
test_llama4 (void)
{
  g_autoptr(HrModel) m = load_fixture ("llama-4-scout.json");
  const HrLayerGroup *chunked = find_group (m, HR_LAYER_CHUNKED);

  g_assert_cmpint (m->n_layers, ==, 48);
  g_assert_cmpint (m->n_experts, ==, 16);
  g_assert_cmpint (m->n_experts_used, ==, 1);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 12);
  g_assert_nonnull (chunked);
  g_assert_cmpint (chunked->count, ==, 36);
  g_assert_cmpint (chunked->window, ==, 8192);
  g_assert_cmpfloat (hr_model_kv_bytes_per_token (m, 2), ==, 49152);
  assert_within (m->total_params, 109e9, 0.01, "Llama 4 Scout total");
  assert_within (m->active_params, 17e9, 0.02, "Llama 4 Scout active");
}

/* ---- errors ---------------------------------------------------------------------------- */

static void
assert_error (const char *json,
              int         code,
              const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) m = hr_hfconfig_parse (json, -1, NULL, &error);

  g_assert_null (m);
  g_assert_error (error, HR_HFCONFIG_ERROR, code);
  g_test_message ("%s", error->message);
  if (needle != NULL)
    g_assert_nonnull (strstr (error->message, needle));
}

#define BASE "\"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 32, " \
             "\"vocab_size\": 32000, \"intermediate_size\": 11008"

static void
test_missing (void)
{
  assert_error ("{\"hidden_size\": 4096}", HR_HFCONFIG_ERROR_MISSING,
                "config.json lacks num_hidden_layers, num_attention_heads, vocab_size");
  assert_error ("{\"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 32, "
                "\"vocab_size\": 32000}", HR_HFCONFIG_ERROR_MISSING, "intermediate_size");
  assert_error ("{" BASE ", \"num_local_experts\": 8}", HR_HFCONFIG_ERROR_MISSING,
                "num_experts_per_tok");
  assert_error ("{" BASE ", \"kv_lora_rank\": 512}", HR_HFCONFIG_ERROR_MISSING,
                "qk_rope_head_dim");
  assert_error ("{" BASE ", \"full_attention_interval\": 4}", HR_HFCONFIG_ERROR_MISSING,
                "linear_num_key_heads");
  assert_error ("{\"text_config\": {\"hidden_size\": 1}}", HR_HFCONFIG_ERROR_MISSING,
                "num_hidden_layers");
}

static void
test_hostile (void)
{
  g_autoptr(GString) deep = g_string_new ("{\"a\": ");
  g_autofree char *huge_layers = NULL;

  assert_error ("", HR_HFCONFIG_ERROR_PARSE, NULL);
  assert_error ("not json", HR_HFCONFIG_ERROR_PARSE, NULL);
  assert_error ("[1, 2, 3]", HR_HFCONFIG_ERROR_PARSE, "not a JSON object");
  assert_error ("{\"num_hidden_layers\": ", HR_HFCONFIG_ERROR_PARSE, NULL);

  /* wrong types */
  assert_error ("{\"num_hidden_layers\": \"32\", \"hidden_size\": 4096}", HR_HFCONFIG_ERROR_INVALID,
                "num_hidden_layers is not an integer");
  assert_error ("{\"num_hidden_layers\": 32.5, \"hidden_size\": 4096}", HR_HFCONFIG_ERROR_INVALID,
                "num_hidden_layers");
  assert_error ("{\"num_hidden_layers\": [32], \"hidden_size\": 4096}", HR_HFCONFIG_ERROR_INVALID,
                "num_hidden_layers");
  assert_error ("{" BASE ", \"tie_word_embeddings\": \"yes\"}", HR_HFCONFIG_ERROR_INVALID,
                "tie_word_embeddings");
  assert_error ("{" BASE ", \"layer_types\": 7}", HR_HFCONFIG_ERROR_INVALID, "layer_types");
  assert_error ("{" BASE ", \"sliding_window\": 128, \"layer_types\": [1, 2]}",
                HR_HFCONFIG_ERROR_INVALID, "layer_types");

  /* shapes no attention layer can have, and a context past any integer (issue 13) */
  assert_error ("{\"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 32, "
                "\"num_key_value_heads\": 7, \"intermediate_size\": 14336, \"vocab_size\": 32000}",
                HR_HFCONFIG_ERROR_INVALID, "7 key/value heads do not divide 32 attention heads");
  assert_error ("{\"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 30, "
                "\"num_key_value_heads\": 6, \"intermediate_size\": 14336, \"vocab_size\": 32000}",
                HR_HFCONFIG_ERROR_INVALID, "30 attention heads do not divide hidden_size 4096");
  /* more heads than the hidden size has dimensions, even with a head_dim (issue 27; the GGUF
   * reader answers the same hr_head_shape_problem()) */
  assert_error ("{\"num_hidden_layers\": 32, \"hidden_size\": 256, \"num_attention_heads\": 512, "
                "\"num_key_value_heads\": 8, \"head_dim\": 64, \"intermediate_size\": 1024, "
                "\"vocab_size\": 32000}",
                HR_HFCONFIG_ERROR_INVALID, "512 attention heads are more than hidden_size 256");
  assert_error ("{" BASE ", \"max_position_embeddings\": 1e300}", HR_HFCONFIG_ERROR_INVALID,
                "max_position_embeddings is out of range");
  {
    /* an explicit head_dim makes a non-dividing head count legitimate (Gemma-style) */
    g_autoptr(GError) error = NULL;
    g_autoptr(HrModel) m = hr_hfconfig_parse (
        "{\"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 30, "
        "\"num_key_value_heads\": 6, \"head_dim\": 128, \"intermediate_size\": 14336, "
        "\"vocab_size\": 32000}", -1, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (m);
  }

  /* negative, huge, absurd */
  assert_error ("{\"num_hidden_layers\": -1, \"hidden_size\": 4096}", HR_HFCONFIG_ERROR_INVALID,
                "num_hidden_layers is out of range");
  assert_error ("{\"num_hidden_layers\": 1000000000000, \"hidden_size\": 4096, "
                "\"num_attention_heads\": 32, \"vocab_size\": 32000}",
                HR_HFCONFIG_ERROR_INVALID, "num_hidden_layers is out of range");
  assert_error ("{\"num_hidden_layers\": 1e308, \"hidden_size\": 4096}", HR_HFCONFIG_ERROR_INVALID,
                "num_hidden_layers");
  assert_error ("{\"num_hidden_layers\": 32, \"hidden_size\": 0, \"num_attention_heads\": 32, "
                "\"vocab_size\": 32000}", HR_HFCONFIG_ERROR_INVALID, "hidden_size");
  assert_error ("{" BASE ", \"num_key_value_heads\": -8}", HR_HFCONFIG_ERROR_INVALID,
                "num_key_value_heads");
  assert_error ("{" BASE ", \"num_local_experts\": 8, \"num_experts_per_tok\": 9}",
                HR_HFCONFIG_ERROR_INVALID, "experts per token");
  assert_error ("{\"num_hidden_layers\": 4, \"hidden_size\": 64, \"num_attention_heads\": 4, "
                "\"vocab_size\": 100, \"hybrid_override_pattern\": \"M*\"}",
                HR_HFCONFIG_ERROR_INVALID, "hybrid_override_pattern");
  assert_error ("{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, "
                "\"vocab_size\": 100, \"hybrid_override_pattern\": \"M?\"}",
                HR_HFCONFIG_ERROR_INVALID, "hybrid_override_pattern");
  /* 2^20 hidden × 2^24 vocab × 10^4 layers would be ~10^17 parameters */
  huge_layers = g_strdup ("{\"num_hidden_layers\": 10000, \"hidden_size\": 1048576, "
                          "\"num_attention_heads\": 1, \"vocab_size\": 16777216, "
                          "\"intermediate_size\": 1048576}");
  assert_error (huge_layers, HR_HFCONFIG_ERROR_INVALID, NULL);

  /* deep nesting */
  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  assert_error (deep->str, HR_HFCONFIG_ERROR_PARSE, "nested deeper");
}

static void
test_tolerant (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) m = NULL;

  /* null fields, unknown fields, a head_dim of null, no name */
  m = hr_hfconfig_parse ("{" BASE ", \"head_dim\": null, \"sliding_window\": null, "
                         "\"rope_scaling\": {\"x\": [1, {}]}, \"architectures\": [\"FooForCausalLM\"]}",
                         -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (m->head_dim, ==, 128);
  g_assert_cmpint (m->n_layers, ==, 32);
  g_assert_cmpstr (m->name, ==, "FooForCausalLM");
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 32);
  g_assert_cmpint (find_group (m, HR_LAYER_FULL)->kv_heads, ==, 32);  /* MHA by default */
  g_clear_pointer (&m, hr_model_free);

  /* Mistral 7B v0.1: a 4096 window on every layer */
  m = hr_hfconfig_parse ("{" BASE ", \"model_type\": \"mistral\", \"sliding_window\": 4096, "
                         "\"num_key_value_heads\": 8}", -1, "mistralai/Mistral-7B-v0.1", &error);
  g_assert_no_error (error);
  g_assert_cmpint (count_layers (m, HR_LAYER_SLIDING), ==, 32);
  g_assert_cmpint (find_group (m, HR_LAYER_SLIDING)->window, ==, 4096);
  g_assert_cmpstr (m->hf_repo, ==, "mistralai/Mistral-7B-v0.1");
  g_assert_cmpstr (m->name, ==, "Mistral-7B-v0.1");
  g_clear_pointer (&m, hr_model_free);

  /* Phi-3 mini: a 2047 window over a 4K context; a window as long as the context is none */
  m = hr_hfconfig_parse ("{" BASE ", \"model_type\": \"phi3\", \"sliding_window\": 2047, "
                         "\"max_position_embeddings\": 4096}", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (count_layers (m, HR_LAYER_SLIDING), ==, 32);
  g_clear_pointer (&m, hr_model_free);
  m = hr_hfconfig_parse ("{" BASE ", \"model_type\": \"phi3\", \"sliding_window\": 16384, "
                         "\"max_position_embeddings\": 16384}", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 32);
  g_clear_pointer (&m, hr_model_free);

  /* Qwen2: sliding_window present but off */
  m = hr_hfconfig_parse ("{" BASE ", \"model_type\": \"qwen2\", \"sliding_window\": 4096, "
                         "\"use_sliding_window\": false}", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (count_layers (m, HR_LAYER_FULL), ==, 32);
  g_clear_pointer (&m, hr_model_free);

  /* Llama 4 Maverick: MoE every other layer, the rest dense (intermediate_size_mlp) */
  m = hr_hfconfig_parse ("{\"text_config\": {\"num_hidden_layers\": 4, \"hidden_size\": 64, "
                         "\"num_attention_heads\": 4, \"vocab_size\": 100, \"model_type\": \"llama4_text\", "
                         "\"intermediate_size\": 32, \"intermediate_size_mlp\": 128, "
                         "\"num_local_experts\": 8, \"num_experts_per_tok\": 1, "
                         "\"interleave_moe_layer_step\": 2, \"attention_chunk_size\": 8192}}",
                         -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (m->n_dense_layers, ==, 2);
  g_assert_cmpint (m->intermediate, ==, 128);
  g_assert_cmpint (m->moe_intermediate, ==, 32);
  g_assert_cmpint (count_layers (m, HR_LAYER_CHUNKED), ==, 3);
}

static void
test_load_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig",
                                                 "mixtral-8x7b.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) m = hr_hfconfig_load_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (m->name, ==, "mixtral-8x7b");
  g_assert_null (m->hf_repo);
  g_clear_pointer (&m, hr_model_free);

  /* a bare config.json names nothing: the architecture does */
  {
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    m = hr_hfconfig_parse (contents, (gssize) len, "config.json", &error);
    g_assert_no_error (error);
    g_assert_cmpstr (m->name, ==, "MixtralForCausalLM");
    g_assert_null (m->hf_repo);
    g_clear_pointer (&m, hr_model_free);
  }

  m = hr_hfconfig_load_file ("/nonexistent/config.json", &error);
  g_assert_null (m);
  g_assert_nonnull (error);
}

/* A whole number beyond 64 bits was wrapped by json-glib: -18446744073709551584 layers
 * (-(2^64 - 32)) read as 32, and the config sized as Llama 3.1 8B.  It is refused, naming
 * the member. */
static void
test_int_overflow (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", "llama-3.1-8b.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = NULL;
  gsize len = 0;
  char *at;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  text = g_string_new (contents);
  at = strstr (text->str, "\"num_hidden_layers\": 32");
  g_assert_nonnull (at);
  g_string_erase (text, at - text->str + strlen ("\"num_hidden_layers\": "), 2);
  g_string_insert (text, at - text->str + strlen ("\"num_hidden_layers\": "), "-18446744073709551584");
  model = hr_hfconfig_parse (text->str, (gssize) text->len, "test/overflow", &error);
  g_assert_null (model);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "num_hidden_layers"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hfconfig/llama-3.1-8b", test_llama);
  g_test_add_func ("/hfconfig/int-overflow", test_int_overflow);
  g_test_add_func ("/hfconfig/qwen3-30b-a3b", test_qwen3_moe);
  g_test_add_func ("/hfconfig/deepseek-v3", test_deepseek_v3);
  g_test_add_func ("/hfconfig/gemma-3-27b", test_gemma3);
  g_test_add_func ("/hfconfig/gpt-oss-120b", test_gpt_oss);
  g_test_add_func ("/hfconfig/qwen3-next", test_qwen3_next);
  g_test_add_func ("/hfconfig/qwen3.5-nested", test_qwen35_nested);
  g_test_add_func ("/hfconfig/glm-4.5-air", test_glm_air);
  g_test_add_func ("/hfconfig/mixtral-8x7b", test_mixtral);
  g_test_add_func ("/hfconfig/nemotron-h", test_nemotron_h);
  g_test_add_func ("/hfconfig/llama-4-scout", test_llama4);
  g_test_add_func ("/hfconfig/missing", test_missing);
  g_test_add_func ("/hfconfig/hostile", test_hostile);
  g_test_add_func ("/hfconfig/tolerant", test_tolerant);
  g_test_add_func ("/hfconfig/load-file", test_load_file);

  return g_test_run ();
}
