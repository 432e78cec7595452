/* test-draft.c — speculative decoding (#31): the draft's memory, the speed model, the checks */
#include <math.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-draft.h"
#include "hr-hfconfig.h"
#include "hr-estimate.h"
#include "hr-launch.h"

static HrCatalog *catalog;

static void
scenario (HrScenario *s,
          const char *model,
          const char *gpu,
          int         n_gpus,
          const char *quant,
          HrEngine    engine)
{
  const HrModel *m = hr_catalog_find_model (catalog, model);
  const HrGpu *g = hr_catalog_find_gpu (catalog, gpu);

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  hr_scenario_init (s, m, g);
  s->n_gpus = n_gpus;
  g_strlcpy (s->quant, quant, sizeof s->quant);
  s->context = 8192;
  s->engine = engine;
}

static void
estimate (const HrScenario *s,
          HrEstimate       *e)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_estimate_compute (s, NULL, e, &error));
  g_assert_no_error (error);
}

/* Leviathan et al. (2023): (1 − α^(k+1)) / (1 − α) tokens a target pass. */
static void
test_tokens_per_pass (void)
{
  g_assert_cmpfloat_with_epsilon (hr_draft_tokens_per_pass (0.89, 3), 3.387069, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_draft_tokens_per_pass (0.85, 1), 1.85, 1e-12);
  g_assert_cmpfloat_with_epsilon (hr_draft_tokens_per_pass (0.7, 16), 3.3255789828670927, 1e-12);
  g_assert_cmpfloat_with_epsilon (hr_draft_tokens_per_pass (0.5, 2), 1.75, 1e-12);
  /* nothing accepted: the target's own token; all accepted: k + 1 */
  g_assert_cmpfloat (hr_draft_tokens_per_pass (0, 16), ==, 1.0);
  g_assert_cmpfloat (hr_draft_tokens_per_pass (1.0, 5), ==, 6.0);
  /* the llama.cpp measurement the default comes from: 673 tokens in 147 passes of 5 drafted */
  g_assert_cmpfloat_with_epsilon (hr_draft_tokens_per_pass (hr_draft_default_accept (HR_DRAFT_MODEL), 5),
                                  673.0 / 147, 0.01);
  g_assert_cmpfloat (hr_draft_default_accept (HR_DRAFT_MTP), ==, 0.85);
  g_assert_cmpint (hr_draft_default_max (HR_ENGINE_LLAMA_CPP, HR_DRAFT_MODEL), ==, 3);
  g_assert_cmpint (hr_draft_default_max (HR_ENGINE_VLLM, HR_DRAFT_MODEL), ==, 5);
  g_assert_cmpint (hr_draft_default_max (HR_ENGINE_VLLM, HR_DRAFT_MTP), ==, 1);
  g_assert_cmpint (hr_draft_default_max (HR_ENGINE_SGLANG, HR_DRAFT_MODEL), ==, 3);
  g_assert_cmpint (hr_draft_default_max (HR_ENGINE_LLAMA_CPP, HR_DRAFT_MTP), ==, 1);
}

/* A draft model adds its weights, KV cache and (llama.cpp) compute buffer, each the draft's
 * own estimate at the same context; the plain decode speed stays. */
static void
test_model_adds_weights_and_kv (void)
{
  HrScenario s, d;
  HrEstimate plain, with, alone;

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 1, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  estimate (&s, &plain);
  g_assert_cmpfloat (plain.draft_bytes, ==, 0);
  g_assert_true (isnan (plain.draft_speedup));

  d = s;
  d.model = hr_catalog_find_model (catalog, "llama-3.2-3b");
  estimate (&d, &alone);

  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = d.model;
  estimate (&s, &with);
  g_assert_cmpfloat (with.draft_weights_bytes, ==, alone.weights_gpu);
  g_assert_cmpfloat (with.draft_kv_bytes, ==, alone.kv_bytes);
  g_assert_cmpfloat (with.draft_compute_bytes, ==, alone.compute_bytes);
  /* Llama 3.2 3B: 28 layers × 8 KV heads × (128 + 128) × 2 bytes × 8192 tokens */
  g_assert_cmpfloat (with.draft_kv_bytes, ==, 28.0 * 8 * 256 * 2 * 8192);
  g_assert_cmpfloat (with.draft_bytes, ==, with.draft_weights_bytes + with.draft_kv_bytes
                                           + with.draft_compute_bytes);
  g_assert_cmpfloat_with_epsilon (with.required_bytes - plain.required_bytes, with.draft_bytes, 1);
  g_assert_cmpfloat_with_epsilon (plain.margin_bytes - with.margin_bytes, with.draft_bytes, 1);
  g_assert_cmpfloat_with_epsilon (with.per_gpu_required - plain.per_gpu_required, with.draft_bytes, 1);
  g_assert_cmpfloat (with.weights_gpu, ==, plain.weights_gpu);
  /* the device's plan: its parts still make up its required memory */
  g_assert_cmpint (with.placement.n_devices, ==, 1);
  g_assert_cmpfloat (with.placement.devices[0].draft_bytes, ==, with.draft_bytes);
  g_assert_cmpfloat_with_epsilon (with.placement.devices[0].weights_bytes + with.placement.devices[0].kv_bytes +
                                  with.placement.devices[0].compute_bytes + with.placement.devices[0].runtime_bytes +
                                  with.placement.devices[0].draft_bytes,
                                  with.placement.devices[0].required_bytes, 1);
  g_assert_cmpfloat (with.kv_bytes, ==, plain.kv_bytes);
  g_assert_cmpfloat (with.decode_tps, ==, plain.decode_tps);
}

/* The speed-up under llama.cpp: E tokens a pass of one verify pass (a dense model: one decode
 * step), k + 1 decodes of the draft alone (it mirrors the verify batch or decodes the sampled
 * seed, then decodes after each drafted token but the last) and k host samplings over the
 * vocabulary, one a drafted token (hr-draft.c). */
static void
test_speedup_formula (void)
{
  HrScenario s, d;
  HrEstimate with, alone;
  double t, td, ts, e;

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 1, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  d = s;
  d.model = hr_catalog_find_model (catalog, "llama-3.2-3b");
  estimate (&d, &alone);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = d.model;
  s.draft_accept = 0.7;
  s.draft_max = 16;
  estimate (&s, &with);

  t = 1.0 / with.decode_tps;
  td = 1.0 / alone.decode_tps;
  /* Llama 3's 128256-token vocabulary at #5877's 601.84 ms / 913 samplings of it */
  ts = 128256 * (601.84e-3 / 913 / 128256);
  g_assert_cmpfloat_with_epsilon (hr_draft_sample_seconds (128256), ts, 1e-15);
  g_assert_cmpfloat_with_epsilon (hr_draft_sample_seconds (128256) * 1e3, 0.659189, 1e-6);
  e = (1 - pow (0.7, 17)) / 0.3;
  g_assert_cmpint (with.draft_max, ==, 16);
  g_assert_cmpfloat (with.draft_accept, ==, 0.7);
  g_assert_cmpfloat_with_epsilon (with.draft_tokens_per_pass, e, 1e-12);
  /* 17 tokens of a dense 70B on an H100 stay memory-bound: the verify pass is one step */
  g_assert_cmpfloat_with_epsilon (with.draft_verify_ms, t * 1e3, 1e-9);
  g_assert_cmpfloat_with_epsilon (with.draft_step_ms, (td + ts) * 1e3, 1e-9);
  g_assert_cmpfloat_with_epsilon (with.draft_speedup, e * t / (t + 17 * td + 16 * ts), 1e-12);
  g_assert_cmpfloat_with_epsilon (with.draft_decode_tps, with.decode_tps * with.draft_speedup, 1e-9);
  /* 16 drafted at 70 % no longer pays under llama.cpp: 17 draft decodes and 16 samplings of a
   * 128K vocabulary cost more than the 3.3 tokens a pass save (it did with 16 decodes and no
   * sampling: 1.14×) */
  g_assert_cmpfloat (with.draft_speedup, <, 1.0);

  /* llama.cpp's default 3 drafted does pay; lower acceptance, smaller gain */
  s.draft_max = 3;
  estimate (&s, &with);
  g_assert_cmpfloat_with_epsilon (with.draft_speedup, (1 - pow (0.7, 4)) / 0.3 * t / (t + 4 * td + 3 * ts), 1e-12);
  g_assert_cmpfloat (with.draft_speedup, >, 1.0);
  g_assert_cmpfloat (with.draft_speedup, <, with.draft_tokens_per_pass);
  s.draft_accept = 0.3;
  estimate (&s, &alone);
  g_assert_cmpfloat (alone.draft_speedup, <, with.draft_speedup);
}

/* A MoE model's verify pass reads the experts every one of its k + 1 tokens chose: longer than a
 * plain step (under vLLM; llama.cpp's per-layer expert-chain floor on a fast card absorbs the
 * extra reads, hr-estimate.c moe_chain_floor_seconds ()). */
static void
test_moe_verify_longer (void)
{
  HrScenario s;
  HrEstimate e;

  scenario (&s, "qwen3-30b-a3b", "h100-80gb-sxm", 1, "BF16", HR_ENGINE_VLLM);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "qwen3-0.6b");
  estimate (&s, &e);
  g_assert_cmpint (e.draft_max, ==, 5);
  g_assert_cmpfloat (e.draft_verify_ratio, >, 1.5);
  g_assert_cmpfloat_with_epsilon (e.draft_verify_ms, 1e3 / e.decode_tps * e.draft_verify_ratio, 1e-9);

  /* vLLM proposes on the GPU: k draft forward passes, no host sampling (llama.cpp's k + 1 and
   * its sampling are llama.cpp's own, hr-draft.c) */
  {
    HrScenario d = s;
    HrEstimate alone;

    d.model = s.draft_model;
    d.draft_kind = HR_DRAFT_NONE;
    d.draft_model = NULL;
    estimate (&d, &alone);
    g_assert_cmpfloat_with_epsilon (e.draft_step_ms, 1e3 / alone.decode_tps, 1e-9);
    g_assert_cmpfloat_with_epsilon (e.draft_speedup, e.draft_tokens_per_pass * (1e3 / e.decode_tps) /
                                    (e.draft_verify_ms + 5 * e.draft_step_ms), 1e-12);
  }
}

/* MTP: vLLM counts the layers among the weights already, so only their KV is added; shown as
 * the draft's.  llama.cpp skips GLM-4.5's, refused with the reason. */
static void
test_mtp (void)
{
  g_autoptr(GError) error = NULL;
  HrScenario s;
  HrEstimate plain, with;

  scenario (&s, "glm-4.5-air", "h100-80gb-sxm", 2, "FP8", HR_ENGINE_VLLM);
  estimate (&s, &plain);
  s.draft_kind = HR_DRAFT_MTP;
  estimate (&s, &with);
  g_assert_cmpfloat (with.draft_weights_bytes, ==, with.weights.mtp_bytes);
  g_assert_cmpfloat (with.draft_weights_bytes, >, 1e9);
  /* one GQA layer's cache: 8 KV heads × (128 + 128) × 2 bytes (F16) × 8192 tokens */
  g_assert_cmpfloat (with.draft_kv_bytes, ==, 8.0 * 256 * 2 * 8192);
  g_assert_cmpfloat_with_epsilon (with.required_bytes - plain.required_bytes, with.draft_kv_bytes, 1);
  g_assert_cmpfloat_with_epsilon (plain.weights_gpu - with.weights_gpu, with.draft_weights_bytes, 1);
  g_assert_cmpint (with.draft_max, ==, 1);
  g_assert_cmpfloat_with_epsilon (with.draft_tokens_per_pass, 1.85, 1e-12);
  g_assert_cmpfloat (with.kv_capacity_tokens, <, plain.kv_capacity_tokens);

  s.engine = HR_ENGINE_LLAMA_CPP;
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.n_gpus = 1;
  g_assert_false (hr_estimate_compute (&s, NULL, &with, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "llama.cpp skips"));
  g_assert_nonnull (strstr (error->message, "vLLM or SGLang"));
  g_clear_error (&error);

  /* a model without MTP layers */
  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 1, "FP8", HR_ENGINE_VLLM);
  s.draft_kind = HR_DRAFT_MTP;
  g_assert_false (hr_estimate_compute (&s, NULL, &with, &error));
  g_assert_nonnull (strstr (error->message, "no multi-token-prediction layers"));
}

/* llama.cpp's draft-mtp runs Qwen3.5's: the NextN blocks it skips are now loaded. */
static void
test_mtp_llama (void)
{
  HrScenario s;
  HrEstimate plain, with;

  scenario (&s, "qwen3.5-27b", "rtx-4090-24gb", 2, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  estimate (&s, &plain);
  g_assert_cmpfloat (plain.weights_skipped_bytes, >, 0);
  s.draft_kind = HR_DRAFT_MTP;
  estimate (&s, &with);
  g_assert_cmpfloat (with.draft_weights_bytes, ==, plain.weights.mtp_bytes);
  g_assert_cmpfloat (with.weights_skipped_bytes, ==, 0);
  g_assert_cmpfloat_with_epsilon (with.required_bytes - plain.required_bytes,
                                  with.draft_weights_bytes + with.draft_kv_bytes, 1);
  g_assert_cmpint (with.draft_max, ==, 1);
}

/* The tokenizer: the vocabulary and the family's name; a draft must be smaller. */
static void
test_tokenizer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) drafts = NULL;
  g_autofree char *reason = NULL;
  HrScenario s;
  HrEstimate e;
  const HrModel *llama70 = hr_catalog_find_model (catalog, "llama-3.3-70b");

  g_assert_false (hr_draft_model_fits (llama70, hr_catalog_find_model (catalog, "qwen3-0.6b"), &reason));
  g_assert_nonnull (strstr (reason, "vocabularies differ (151936 and 128256 tokens)"));
  g_clear_pointer (&reason, g_free);
  /* the same vocabulary, another family */
  g_assert_false (hr_draft_model_fits (hr_catalog_find_model (catalog, "deepseek-r1-distill-qwen-32b"),
                                       hr_catalog_find_model (catalog, "qwen3-0.6b"), &reason));
  g_clear_pointer (&reason, g_free);
  g_assert_true (hr_draft_model_fits (hr_catalog_find_model (catalog, "qwen3-coder-30b-a3b"),
                                      hr_catalog_find_model (catalog, "qwen3-0.6b"), NULL));
  g_assert_false (hr_draft_model_fits (hr_catalog_find_model (catalog, "llama-3.2-3b"), llama70, &reason));
  g_assert_nonnull (strstr (reason, "not smaller"));

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 1, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "qwen3-0.6b");
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "tokenizer"));

  /* the catalog's drafts for Llama 3.3 70B: the Llama 3 family, smallest first */
  drafts = hr_draft_candidates (catalog, llama70);
  g_assert_cmpuint (drafts->len, >=, 2);
  g_assert_cmpstr (((const HrModel *) g_ptr_array_index (drafts, 0))->id, ==, "llama-3.2-3b");
  for (guint i = 0; i < drafts->len; i++)
    {
      const HrModel *m = g_ptr_array_index (drafts, i);

      g_assert_cmpint (m->vocab, ==, 128256);
      g_assert_cmpfloat (m->total_params, <, llama70->total_params);
    }
}

/* Out of range, and engines without speculative decoding here. */
static void
test_refused (void)
{
  g_autoptr(GError) error = NULL;
  HrScenario s;
  HrEstimate e;

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 1, "Q4_K_M", HR_ENGINE_OLLAMA);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "llama-3.2-3b");
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  s.engine = HR_ENGINE_LLAMA_CPP;
  s.draft_accept = 1.0;
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
  g_clear_error (&error);
  s.draft_accept = NAN;
  s.draft_max = HR_MAX_DRAFT_TOKENS + 1;
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
}

/* vLLM carves a draft model out of its KV pool. */
static void
test_kv_pool (void)
{
  HrScenario s;
  HrEstimate plain, with;

  scenario (&s, "qwen3-32b", "h100-80gb-sxm", 1, "BF16", HR_ENGINE_VLLM);
  estimate (&s, &plain);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "qwen3-0.6b");
  estimate (&s, &with);
  g_assert_cmpfloat_with_epsilon (plain.kv_pool_bytes - with.kv_pool_bytes, with.draft_weights_bytes, 1);
  g_assert_cmpfloat (with.kv_capacity_tokens, <, plain.kv_capacity_tokens);
  g_assert_cmpfloat (with.draft_compute_bytes, ==, 0);
  g_assert_cmpint (with.draft_max, ==, 5);
}

/* Launch lines carry each engine's flags. */
static const HrLaunchCommand *
command (GPtrArray *cmds,
         HrEngine   engine)
{
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (c->engine == engine)
        return c;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_launch (void)
{
  g_autoptr(GPtrArray) cmds = NULL;
  g_autoptr(GPtrArray) mtp = NULL;
  HrScenario s;
  HrEstimate e;
  const char *cmd;

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm", 2, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "llama-3.2-3b");
  s.draft_max = 8;
  s.kv_type = HR_KV_Q8_0;
  estimate (&s, &e);
  cmds = hr_launch_commands (&s, &e);
  cmd = command (cmds, HR_ENGINE_LLAMA_CPP)->command;
  g_assert_nonnull (strstr (cmd, "--spec-type draft-simple -hfd unsloth/Llama-3.2-3B-Instruct-GGUF:Q4_K_M -ngld 999 "
                                 "--spec-draft-n-max 8 -ctkd q8_0 -ctvd q8_0"));
  cmd = command (cmds, HR_ENGINE_VLLM)->command;
  g_assert_nonnull (strstr (cmd, "--speculative-config '{\"model\": \"meta-llama/Llama-3.2-3B-Instruct\", "
                                 "\"method\": \"draft_model\", \"num_speculative_tokens\": 8}'"));
  cmd = command (cmds, HR_ENGINE_SGLANG)->command;
  g_assert_nonnull (strstr (cmd, "--speculative-algorithm STANDALONE --speculative-draft-model-path "
                                 "meta-llama/Llama-3.2-3B-Instruct"));
  g_assert_nonnull (strstr (cmd, "--speculative-num-steps 8 --speculative-eagle-topk 1 "
                                 "--speculative-num-draft-tokens 9"));
  /* Ollama runs no speculative decoding: said, not launched */
  g_assert_nonnull (strstr (command (cmds, HR_ENGINE_OLLAMA)->note, "decodes without the draft"));

  /* MTP: each engine's default depth; llama.cpp leaves GLM-4.5's out and says so */
  scenario (&s, "glm-4.5-air", "h100-80gb-sxm", 2, "FP8", HR_ENGINE_VLLM);
  s.draft_kind = HR_DRAFT_MTP;
  estimate (&s, &e);
  mtp = hr_launch_commands (&s, &e);
  cmd = command (mtp, HR_ENGINE_VLLM)->command;
  g_assert_nonnull (strstr (cmd, "--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'"));
  cmd = command (mtp, HR_ENGINE_SGLANG)->command;
  g_assert_nonnull (strstr (cmd, "--speculative-algorithm EAGLE"));
  g_assert_nonnull (strstr (cmd, "--speculative-num-steps 1 --speculative-eagle-topk 1 "
                                 "--speculative-num-draft-tokens 2"));
  g_assert_null (strstr (command (mtp, HR_ENGINE_LLAMA_CPP)->command, "--spec-type"));
  g_assert_nonnull (strstr (command (mtp, HR_ENGINE_LLAMA_CPP)->note, "MTP"));
}

static void
test_launch_mtp_llama (void)
{
  g_autoptr(GPtrArray) cmds = NULL;
  HrScenario s;
  HrEstimate e;
  const char *cmd;

  scenario (&s, "qwen3.5-27b", "rtx-4090-24gb", 2, "Q4_K_M", HR_ENGINE_LLAMA_CPP);
  s.draft_kind = HR_DRAFT_MTP;
  estimate (&s, &e);
  cmds = hr_launch_commands (&s, &e);
  cmd = command (cmds, HR_ENGINE_LLAMA_CPP)->command;
  g_assert_nonnull (strstr (cmd, "--spec-type draft-mtp --spec-draft-n-max 1"));
  g_assert_null (strstr (cmd, "-md"));
}

/* meta-llama/Llama-3.2-1B's config.json (https://huggingface.co/meta-llama/Llama-3.2-1B):
 * 16 layers, hidden 2048, tied embeddings, the Llama 3 vocabulary */
static const char llama_32_1b[] =
  "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": 2048,"
  " \"intermediate_size\": 8192, \"num_hidden_layers\": 16, \"num_attention_heads\": 32,"
  " \"num_key_value_heads\": 8, \"head_dim\": 64, \"max_position_embeddings\": 131072,"
  " \"rope_theta\": 500000.0, \"tie_word_embeddings\": true, \"torch_dtype\": \"bfloat16\","
  " \"vocab_size\": 128256}";

/* llama.cpp issue #5877, comment of 2024-11-19 (https://github.com/ggml-org/llama.cpp/issues/5877):
 * an RTX 3060 12 GB, Llama 3.1 8B Q8_0 with a Llama 3.2 1B Q8_0 draft, llama-speculative with
 * n_draft 5, all layers offloaded (-ngl 33, -ngld 17), a 14-token prompt: 673 tokens in 147 target
 * passes, 12.132 s (55.47 tok/s) against 32.49 tok/s without a draft. */
static void
test_llama_issue_5877 (void)
{
  g_autoptr(GError) error = NULL;
  HrModel *draft = hr_hfconfig_parse (llama_32_1b, -1, "meta-llama/Llama-3.2-1B", &error);
  HrScenario s;
  HrEstimate e;
  double pass_ms;

  g_assert_no_error (error);
  scenario (&s, "llama-3.1-8b", "rtx-3060-12gb", 1, "Q8_0", HR_ENGINE_LLAMA_CPP);
  s.context = 4096;
  s.depth = 400;
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = draft;
  s.draft_max = 5;
  estimate (&s, &e);
  pass_ms = e.draft_tokens_per_pass / e.draft_decode_tps * 1e3;
  g_test_message ("5877: plain %.2f tok/s, verify %.2f ms, step %.2f ms, pass %.2f ms (measured 82.5), "
                  "%.2f tok/s (measured 55.47), x%.3f (measured 1.707)",
                  e.decode_tps, e.draft_verify_ms, e.draft_step_ms, pass_ms, e.draft_decode_tps, e.draft_speedup);
  /* within a quarter of the measured 1.707× (55.47 / 32.49); 2.43× before the draft's
   * k + 1 decodes and host sampling were counted.  Most of what is left is the plain step:
   * 39.9 tok/s modelled, 32.49 measured on that card. */
  g_assert_cmpint (e.draft_max, ==, 5);
  g_assert_cmpfloat (fabs (e.draft_speedup / (55.473 / 32.49) - 1), <, 0.25);
  hr_model_free (draft);
}

/* Held out (no constant comes from it): llama.cpp issue #3649, ggerganov's comment of
 * 2023-10-17 (https://github.com/ggml-org/llama.cpp/issues/3649): a V100 16 GB (900 GB/s, as
 * the catalog's V100 SXM2), OpenLLaMA 7B v2 F16 with llama-160m F16 as the draft,
 * llama-speculative --draft 5, greedy: 261 tokens, 208 accepted (53 target passes, 4.92 tokens
 * each: α = 0.920), 87.95 tok/s against 52.5 tok/s plain (1.675×). */
static const char open_llama_7b[] =
  "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": 4096,"
  " \"intermediate_size\": 11008, \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
  " \"num_key_value_heads\": 32, \"max_position_embeddings\": 2048, \"tie_word_embeddings\": false,"
  " \"torch_dtype\": \"float16\", \"vocab_size\": 32000}";
/* JackFram/llama-160m's config.json (https://huggingface.co/JackFram/llama-160m) */
static const char llama_160m[] =
  "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": 768,"
  " \"intermediate_size\": 3072, \"num_hidden_layers\": 12, \"num_attention_heads\": 12,"
  " \"num_key_value_heads\": 12, \"max_position_embeddings\": 2048, \"tie_word_embeddings\": false,"
  " \"torch_dtype\": \"float32\", \"vocab_size\": 32000}";

static void
test_llama_issue_3649 (void)
{
  g_autoptr(GError) error = NULL;
  HrModel *target = hr_hfconfig_parse (open_llama_7b, -1, "openlm-research/open_llama_7b_v2", &error);
  HrModel *draft = hr_hfconfig_parse (llama_160m, -1, "JackFram/llama-160m", &error);
  HrScenario s;
  HrEstimate e;

  g_assert_no_error (error);
  hr_scenario_init (&s, target, hr_catalog_find_gpu (catalog, "v100-32gb-sxm"));
  g_strlcpy (s.quant, "F16", sizeof s.quant);
  s.context = 2048;
  s.depth = 200;
  s.engine = HR_ENGINE_LLAMA_CPP;
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = draft;
  s.draft_max = 5;
  s.draft_accept = 0.920;
  estimate (&s, &e);
  g_test_message ("3649: plain %.2f tok/s (measured 52.5), verify %.2f ms, step %.2f ms, %.2f tok/s "
                  "(measured 87.95), x%.3f (measured 1.675)",
                  e.decode_tps, e.draft_verify_ms, e.draft_step_ms, e.draft_decode_tps, e.draft_speedup);
  /* a drafted token: the 160M draft's decode and a host sampling of its 32000-token vocabulary */
  {
    HrScenario d = s;
    HrEstimate alone;

    d.model = draft;
    d.draft_kind = HR_DRAFT_NONE;
    d.draft_model = NULL;
    estimate (&d, &alone);
    g_assert_cmpfloat_with_epsilon (e.draft_step_ms, 1e3 / alone.decode_tps + hr_draft_sample_seconds (32000) * 1e3,
                                    1e-9);
    g_assert_cmpfloat_with_epsilon (e.draft_speedup, e.draft_tokens_per_pass * (1e3 / e.decode_tps) /
                                    (e.draft_verify_ms + 6 * 1e3 / alone.decode_tps +
                                     5 * hr_draft_sample_seconds (32000) * 1e3), 1e-12);
  }
  hr_model_free (draft);
  hr_model_free (target);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/draft/tokens-per-pass", test_tokens_per_pass);
  g_test_add_func ("/draft/model-adds-weights-and-kv", test_model_adds_weights_and_kv);
  g_test_add_func ("/draft/speedup-formula", test_speedup_formula);
  g_test_add_func ("/draft/moe-verify-longer", test_moe_verify_longer);
  g_test_add_func ("/draft/mtp", test_mtp);
  g_test_add_func ("/draft/mtp-llama", test_mtp_llama);
  g_test_add_func ("/draft/tokenizer", test_tokenizer);
  g_test_add_func ("/draft/refused", test_refused);
  g_test_add_func ("/draft/kv-pool", test_kv_pool);
  g_test_add_func ("/draft/launch", test_launch);
  g_test_add_func ("/draft/launch-mtp-llama", test_launch_mtp_llama);
  g_test_add_func ("/draft/llama-issue-5877", test_llama_issue_5877);
  g_test_add_func ("/draft/llama-issue-3649", test_llama_issue_3649);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
