/* test-finetune.c — fine-tuning memory against hand-computed figures */
#include <math.h>
#include <string.h>

#include "hr-finetune.h"
#include "hr-scenario.h"
#include "hr-units.h"

#define NF4_DQ_BYTES ((4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0)

/* A Llama-2-7B-shaped dense model with exactly 7e9 parameters (for round figures). */
static HrModel *
make_dense_7b (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("dense-7b");
  m->name = g_strdup ("Dense 7B");
  m->total_params = 7e9;
  m->active_params = 7e9;
  m->n_layers = 32;
  m->hidden = 4096;
  m->n_heads = 32;
  m->head_dim = 128;
  m->vocab = 32000;
  m->intermediate = 11008;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_FULL, 32, 32, 128, 128, 0, 0 });
  return m;
}

static HrModel *
make_glm_air (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("glm-4.5-air");
  m->name = g_strdup ("GLM-4.5-Air");
  m->total_params = 110.47e9;
  m->active_params = 12e9;
  m->n_layers = 46;
  m->hidden = 4096;
  m->n_heads = 96;
  m->head_dim = 128;
  m->vocab = 151552;
  m->intermediate = 10944;
  m->n_experts = 128;
  m->n_experts_used = 8;
  m->n_shared_experts = 1;
  m->moe_intermediate = 1408;
  m->shared_intermediate = 1408;
  m->n_dense_layers = 1;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_FULL, 46, 8, 128, 128, 0, 0 });
  return m;
}

static HrModel *
make_deepseek_v3 (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("deepseek-v3");
  m->name = g_strdup ("DeepSeek-V3");
  m->total_params = 671e9;
  m->n_layers = 61;
  m->hidden = 7168;
  m->n_heads = 128;
  m->head_dim = 192;
  m->vocab = 129280;
  m->intermediate = 18432;
  m->n_experts = 256;
  m->n_experts_used = 8;
  m->n_shared_experts = 1;
  m->moe_intermediate = 2048;
  m->n_dense_layers = 3;
  m->q_lora_rank = 1536;
  m->kv_lora_rank = 512;
  m->qk_rope_dim = 64;
  m->qk_nope_dim = 128;
  m->v_head_dim = 128;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_MLA, 61, 1, 576, 0, 0, 0 });
  return m;
}

static void
assert_close (double got,
              double want)
{
  g_assert_cmpfloat_with_epsilon (got, want, fabs (want) * 1e-12 + 1e-6);
}

/* Korthikanti et al. 2022 with checkpointing, by hand, per token. */
static double
acts_ckpt (double s, double b, double h, double a, double L, double v)
{
  return s * b * (2 * h * L + 34 * h + 5 * a * s + 4 * h + 4 * v);
}

static void
test_full_adamw (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  g_autoptr(GError) error = NULL;
  HrFtScenario ft;
  HrFtEstimate e;
  double states;

  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  g_assert_cmpint (ft.seq_len, ==, 2048);
  g_assert_cmpint (ft.micro_batch, ==, 1);
  g_assert_true (ft.grad_checkpointing);
  g_assert_cmpint (ft.lora_rank, ==, 16);
  g_assert_cmpint (ft.n_gpus, ==, 1);
  /* current training stacks use fused attention (FlashAttention/SDPA) by default */
  g_assert_true (ft.flash_attention);

  g_assert_true (hr_finetune_compute (&ft, &e, &error));
  g_assert_no_error (error);

  /* 2 + 2 + 12 bytes per parameter: 112e9 B = 104.31 GiB before activations. */
  assert_close (e.trainable_params, 7e9);
  assert_close (e.weights_bytes, 14e9);
  assert_close (e.gradients_bytes, 14e9);
  assert_close (e.optimizer_bytes, 84e9);
  states = e.weights_bytes + e.gradients_bytes + e.optimizer_bytes;
  assert_close (states, 112e9);
  g_assert_cmpfloat (fabs (hr_to_gib (states) - 104.31), <, 0.005);

  /* no 5·a·s attention-score term with flash attention */
  assert_close (e.activations_bytes, acts_ckpt (2048, 1, 4096, 32, 32, 32000) - 2048.0 * 5 * 32 * 2048);
  assert_close (e.buffers_bytes, HR_GIB);
  assert_close (e.total_bytes, states + e.activations_bytes + e.buffers_bytes);

  /* eager attention: the published figure */
  ft.flash_attention = FALSE;
  g_assert_true (hr_finetune_compute (&ft, &e, &error));
  assert_close (e.activations_bytes, acts_ckpt (2048, 1, 4096, 32, 32, 32000));
}

static void
test_full_sharding (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  HrFtScenario ft;
  HrFtEstimate one, e;
  double layer_params = (7e9 - 2.0 * 32000 * 4096) / 32;

  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  g_assert_true (hr_finetune_compute (&ft, &one, NULL));

  /* ZeRO-3 on 8 GPUs: every model state / 8; one gathered layer in the buffers. */
  ft.n_gpus = 8;
  ft.sharding = HR_SHARD_ZERO3;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.weights_bytes, 14e9 / 8);
  assert_close (e.gradients_bytes, 14e9 / 8);
  assert_close (e.optimizer_bytes, 84e9 / 8);
  assert_close (e.weights_bytes + e.gradients_bytes + e.optimizer_bytes, 112e9 / 8);
  assert_close (e.activations_bytes, one.activations_bytes);
  assert_close (e.buffers_bytes, HR_GIB + 2 * layer_params);

  /* ZeRO-2: weights whole, gradients and optimizer / 8. */
  ft.sharding = HR_SHARD_ZERO2;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.weights_bytes, 14e9);
  assert_close (e.gradients_bytes + e.optimizer_bytes, 98e9 / 8);
  assert_close (e.buffers_bytes, HR_GIB);

  /* Data parallel without sharding: every GPU holds everything. */
  ft.sharding = HR_SHARD_NONE;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.total_bytes, one.total_bytes);
}

static void
test_full_optimizers (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  HrFtScenario ft;
  HrFtEstimate e;

  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  ft.optimizer = HR_OPT_ADAMW_8BIT;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.optimizer_bytes, 6 * 7e9);   /* m, v 1 B each + fp32 master */

  ft.optimizer = HR_OPT_SGD;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.optimizer_bytes, 8 * 7e9);   /* momentum + fp32 master */
}

static void
test_activations (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  HrFtScenario ft;
  HrFtEstimate e;
  double s = 4096, b = 2, h = 4096, a = 32, L = 32, v = 32000;

  hr_ft_scenario_init (&ft, m, HR_FT_LORA);
  ft.seq_len = 4096;
  ft.micro_batch = 2;
  ft.flash_attention = FALSE;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.activations_bytes, acts_ckpt (s, b, h, a, L, v));

  ft.grad_checkpointing = FALSE;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.activations_bytes, s * b * (L * (34 * h + 5 * a * s) + 4 * h + 4 * v));

  /* Fused attention drops the 5·a·s term, with or without checkpointing. */
  assert_close (hr_finetune_activation_bytes (m, 4096, 2, TRUE, TRUE),
                s * b * (2 * h * L + 34 * h + 4 * h + 4 * v));
  ft.flash_attention = TRUE;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.activations_bytes, s * b * (L * 34 * h + 4 * h + 4 * v));
}

static void
test_lora_params (void)
{
  g_autoptr(HrModel) dense = make_dense_7b ();
  g_autoptr(HrModel) glm = make_glm_air ();
  g_autoptr(HrModel) ds = make_deepseek_v3 ();

  /* PEFT's print_trainable_parameters() for Llama-2-7B: r=16 on all linear layers
   * 39,976,960; r=8 on q_proj, v_proj 4,194,304. */
  assert_close (hr_finetune_lora_params (dense, 16, TRUE, FALSE), 39976960);
  assert_close (hr_finetune_lora_params (dense, 8, FALSE, FALSE), 4194304);
  /* Dense models have no experts to include. */
  assert_close (hr_finetune_lora_params (dense, 16, TRUE, TRUE), 39976960);

  /* GLM-4.5-Air, r=16: attention 46 × 16·(16384 + 5120 + 5120 + 16384), dense FFN of layer 0
   * 16·3·(4096 + 10944), the shared expert of 45 MoE layers 45 × 16·3·(4096 + 1408). */
  assert_close (hr_finetune_lora_params (glm, 16, TRUE, FALSE),
                46.0 * 688128 + 721920 + 45.0 * 264192);
  assert_close (hr_finetune_lora_params (glm, 16, TRUE, FALSE), 44264448);
  /* … plus 128 routed experts per MoE layer when they are adapted too. */
  assert_close (hr_finetune_lora_params (glm, 16, TRUE, TRUE),
                44264448 + 45.0 * 128 * 264192);
  /* q,v only: 46 × 16·(16384 + 5120). */
  assert_close (hr_finetune_lora_params (glm, 16, FALSE, FALSE), 46.0 * 16 * 21504);

  /* DeepSeek-V3 (MLA), r=16: q_a 7168+1536, q_b 1536+128·192, kv_a 7168+576,
   * kv_b 512+128·256, o 128·128+7168 per layer; 3 dense FFNs; 58 shared experts. */
  assert_close (hr_finetune_lora_params (ds, 16, TRUE, FALSE),
                61.0 * 16 * 99392 + 3.0 * 16 * 3 * (7168 + 18432)
                + 58.0 * 16 * 3 * (7168 + 2048));
  assert_close (hr_finetune_lora_params (ds, 16, TRUE, FALSE), 126350336);
}

static void
test_lora (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  HrFtScenario ft;
  HrFtEstimate e;
  double A = 39976960;

  hr_ft_scenario_init (&ft, m, HR_FT_LORA);
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.trainable_params, A);
  assert_close (e.weights_bytes, 2 * 7e9 + 4 * A);
  assert_close (e.gradients_bytes, 4 * A);
  assert_close (e.optimizer_bytes, 8 * A);
  /* fp32 adapter + gradient + Adam m, v: 16 bytes per adapter parameter. */
  assert_close (e.weights_bytes - 2 * 7e9 + e.gradients_bytes + e.optimizer_bytes, 16 * A);

  ft.optimizer = HR_OPT_ADAMW_8BIT;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.optimizer_bytes, 2 * A);
  ft.optimizer = HR_OPT_SGD;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.optimizer_bytes, 4 * A);
}

static void
test_qlora (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  HrFtScenario ft;
  HrFtEstimate e;
  double A = 39976960;
  double embd_out = 2.0 * 32000 * 4096;   /* untied embedding + output head, kept bf16 */
  double frozen = (7e9 - embd_out) * NF4_DQ_BYTES + embd_out * 2;

  hr_ft_scenario_init (&ft, m, HR_FT_QLORA);
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.weights_bytes, frozen + 4 * A);
  /* ≈ 7e9 × 4.127 / 8 bytes: within the bf16 embedding's share. */
  g_assert_cmpfloat (fabs (e.weights_bytes - 7e9 * 4.127 / 8), <, 0.6e9);
  assert_close (e.gradients_bytes, 4 * A);
  assert_close (e.optimizer_bytes, 8 * A);
  assert_close (e.total_bytes, e.weights_bytes + e.gradients_bytes + e.optimizer_bytes
                               + e.activations_bytes + HR_GIB);

  /* Tied embeddings: only one bf16 matrix. */
  m->tie_embeddings = TRUE;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));
  assert_close (e.weights_bytes,
                (7e9 - embd_out / 2) * NF4_DQ_BYTES + embd_out / 2 * 2 + 4 * A);
}

static void
test_glm_air (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  HrFtEstimate q, l, f;
  HrFtScenario ft;
  double P = 110.47e9;
  double A = 44264448;
  double embd_out = 2.0 * 151552 * 4096;
  double acts = acts_ckpt (2048, 1, 4096, 96, 46, 151552) - 2048.0 * 5 * 96 * 2048;

  hr_ft_scenario_init (&ft, m, HR_FT_QLORA);
  g_assert_true (hr_finetune_compute (&ft, &q, NULL));
  hr_ft_scenario_init (&ft, m, HR_FT_LORA);
  g_assert_true (hr_finetune_compute (&ft, &l, NULL));
  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  g_assert_true (hr_finetune_compute (&ft, &f, NULL));

  assert_close (q.weights_bytes, (P - embd_out) * NF4_DQ_BYTES + embd_out * 2 + 4 * A);
  assert_close (q.activations_bytes, acts);
  /* LoRA's frozen weights are the 205.77 GiB BF16 checkpoint. */
  g_assert_cmpfloat (fabs (hr_to_gib (l.weights_bytes - 4 * A) - 205.77), <, 0.005);
  assert_close (f.weights_bytes + f.gradients_bytes + f.optimizer_bytes, 16 * P);

  g_test_message ("GLM-4.5-Air QLoRA: weights %.2f, grads+opt %.2f, act %.2f, buffers %.2f, "
                  "total %.2f GiB",
                  hr_to_gib (q.weights_bytes), hr_to_gib (q.gradients_bytes + q.optimizer_bytes),
                  hr_to_gib (q.activations_bytes), hr_to_gib (q.buffers_bytes),
                  hr_to_gib (q.total_bytes));
  g_test_message ("GLM-4.5-Air LoRA: weights %.2f, grads+opt %.2f, act %.2f, total %.2f GiB",
                  hr_to_gib (l.weights_bytes), hr_to_gib (l.gradients_bytes + l.optimizer_bytes),
                  hr_to_gib (l.activations_bytes), hr_to_gib (l.total_bytes));
  g_test_message ("GLM-4.5-Air full: weights %.2f, grads+opt %.2f, act %.2f, total %.2f GiB",
                  hr_to_gib (f.weights_bytes), hr_to_gib (f.gradients_bytes + f.optimizer_bytes),
                  hr_to_gib (f.activations_bytes), hr_to_gib (f.total_bytes));
}

static void
test_invalid (void)
{
  g_autoptr(HrModel) m = make_dense_7b ();
  g_autoptr(HrModel) bare = hr_model_new ();
  HrFtScenario ft;
  HrFtEstimate e;
  struct { int seq, mb, gpus, rank; } bad[] = {
    { 0, 1, 1, 16 }, { -5, 1, 1, 16 }, { 2048, 0, 1, 16 }, { 2048, 1, 0, 16 },
    { 2048, 1, 1, 0 }, { 2048, 1, 100000, 16 }, { G_MAXINT, 1, 1, 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      hr_ft_scenario_init (&ft, m, HR_FT_LORA);
      ft.seq_len = bad[i].seq;
      ft.micro_batch = bad[i].mb;
      ft.n_gpus = bad[i].gpus;
      ft.lora_rank = bad[i].rank;
      g_assert_false (hr_finetune_compute (&ft, &e, &error));
      g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
    }

  /* Full fine-tuning ignores the rank. */
  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  ft.lora_rank = 0;
  g_assert_true (hr_finetune_compute (&ft, &e, NULL));

  /* A model without the architecture numbers is refused with their names. */
  {
    g_autoptr(GError) error = NULL;

    bare->name = g_strdup ("Bare");
    bare->total_params = NAN;
    hr_ft_scenario_init (&ft, bare, HR_FT_FULL);
    g_assert_false (hr_finetune_compute (&ft, &e, &error));
    g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "hidden"));
    g_assert_nonnull (strstr (error->message, "total_params"));
  }
}

static void
test_strings (void)
{
  HrFtMethod method;
  HrOptimizer opt;
  HrSharding sharding;

  for (int i = HR_FT_QLORA; i <= HR_FT_FULL; i++)
    {
      g_assert_true (hr_ft_method_from_string (hr_ft_method_to_string (i), &method));
      g_assert_cmpint (method, ==, i);
      g_assert_nonnull (hr_finetune_formula_text (i));
    }
  for (int i = HR_OPT_ADAMW; i <= HR_OPT_SGD; i++)
    {
      g_assert_true (hr_optimizer_from_string (hr_optimizer_to_string (i), &opt));
      g_assert_cmpint (opt, ==, i);
    }
  for (int i = HR_SHARD_NONE; i <= HR_SHARD_ZERO3; i++)
    {
      g_assert_true (hr_sharding_from_string (hr_sharding_to_string (i), &sharding));
      g_assert_cmpint (sharding, ==, i);
    }
  g_assert_cmpstr (hr_ft_method_to_string (HR_FT_QLORA), ==, "qlora");
  g_assert_true (hr_sharding_from_string ("fsdp", &sharding));
  g_assert_cmpint (sharding, ==, HR_SHARD_ZERO3);
  g_assert_true (hr_optimizer_from_string ("adamw_8bit", &opt));
  g_assert_cmpint (opt, ==, HR_OPT_ADAMW_8BIT);
  g_assert_false (hr_ft_method_from_string ("dpo", &method));
  g_assert_false (hr_ft_method_from_string (NULL, &method));

  g_assert_nonnull (strstr (hr_finetune_formula_text (HR_FT_QLORA), "4.127"));
  g_assert_nonnull (strstr (hr_finetune_formula_text (HR_FT_FULL), "12 B"));
  g_assert_nonnull (strstr (hr_finetune_formula_text (HR_FT_LORA), "Korthikanti"));
}

static void
test_usable_verdict (void)
{
  g_autoptr(HrGpu) card = hr_gpu_new ();
  g_autoptr(HrGpu) mac = hr_gpu_new ();
  HrFtEstimate e = { 0 };

  card->memory_gib = 80;
  card->form = HR_FORM_DATACENTER;
  mac->memory_gib = 128;
  mac->form = HR_FORM_UNIFIED;

  /* the same capacity as inference: 5 % reserve, or 3/4 of unified memory */
  assert_close (hr_finetune_usable_bytes (card, HR_DEFAULT_RESERVE, 0), 76 * HR_GIB);
  assert_close (hr_finetune_usable_bytes (card, 0.10, 0), 72 * HR_GIB);
  assert_close (hr_finetune_usable_bytes (mac, HR_DEFAULT_RESERVE, 0), 96 * HR_GIB);
  assert_close (hr_finetune_usable_bytes (mac, HR_DEFAULT_RESERVE, 0.5), 64 * HR_GIB);

  e.total_bytes = 70 * HR_GIB;
  g_assert_cmpint (hr_finetune_verdict (&e, card, HR_DEFAULT_RESERVE, 0), ==, HR_VERDICT_FITS);
  e.total_bytes = 75 * HR_GIB;
  g_assert_cmpint (hr_finetune_verdict (&e, card, HR_DEFAULT_RESERVE, 0), ==, HR_VERDICT_TIGHT);
  e.total_bytes = 77 * HR_GIB;
  g_assert_cmpint (hr_finetune_verdict (&e, card, HR_DEFAULT_RESERVE, 0), ==, HR_VERDICT_EXCEEDS);
}

/* The smallest catalog configuration is the first, by memory, that holds the run: check it
 * against every configuration by brute force. */
static void
test_smallest_fit (void)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new_default (NULL);
  const HrModel *m = hr_catalog_find_model (catalog, "glm-4.5-air");
  HrFtScenario ft;
  HrFtFit fit;

  g_assert_nonnull (m);
  for (int method = HR_FT_QLORA; method <= HR_FT_FULL; method++)
    {
      hr_ft_scenario_init (&ft, m, (HrFtMethod) method);
      if (!hr_finetune_smallest_fit (&ft, catalog, 8, HR_DEFAULT_RESERVE, 0, &fit))
        {
          g_assert_cmpint (fit.count, ==, 0);
          g_test_message ("GLM-4.5-Air %s: nothing up to 8 GPUs", hr_ft_method_to_string (method));
          continue;
        }
      g_assert_nonnull (fit.gpu);
      g_assert_cmpint (fit.count, >=, 1);
      g_assert_cmpint (fit.count, <=, 8);
      g_assert_cmpint (fit.verdict, !=, HR_VERDICT_EXCEEDS);
      g_assert_cmpfloat (fit.estimate.total_bytes, <=,
                         hr_finetune_usable_bytes (fit.gpu, HR_DEFAULT_RESERVE, 0));
      if (fit.count > 1)
        g_assert_cmpint (fit.sharding, ==, HR_SHARD_ZERO3);
      g_test_message ("GLM-4.5-Air %s: %d× %s (%.2f GiB per GPU)", hr_ft_method_to_string (method),
                      fit.count, fit.gpu->name, hr_to_gib (fit.estimate.total_bytes));

      /* nothing with less memory in all fits */
      for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
        {
          const HrGpu *g = hr_catalog_get_gpu (catalog, i);

          for (int n = 1; n <= 8; n *= 2)
            {
              HrFtScenario s = ft;
              HrFtEstimate e;

              if (g->user_defined || (hr_gpu_is_unified (g) && n > 1))
                continue;
              if (g->memory_gib * n >= fit.gpu->memory_gib * fit.count)
                continue;
              s.n_gpus = n;
              if (n > 1)
                s.sharding = HR_SHARD_ZERO3;
              g_assert_true (hr_finetune_compute (&s, &e, NULL));
              g_assert_cmpint (hr_finetune_verdict (&e, g, HR_DEFAULT_RESERVE, 0), ==, HR_VERDICT_EXCEEDS);
            }
        }
    }

  /* QLoRA of GLM-4.5-Air fits one device */
  hr_ft_scenario_init (&ft, m, HR_FT_QLORA);
  g_assert_true (hr_finetune_smallest_fit (&ft, catalog, 8, HR_DEFAULT_RESERVE, 0, &fit));
  g_assert_cmpint (fit.count, ==, 1);
  /* at most one GPU allowed: full fine-tuning (1.7 TiB) has no answer */
  hr_ft_scenario_init (&ft, m, HR_FT_FULL);
  g_assert_false (hr_finetune_smallest_fit (&ft, catalog, 1, HR_DEFAULT_RESERVE, 0, &fit));
  g_assert_null (fit.gpu);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/finetune/full/adamw", test_full_adamw);
  g_test_add_func ("/finetune/full/sharding", test_full_sharding);
  g_test_add_func ("/finetune/full/optimizers", test_full_optimizers);
  g_test_add_func ("/finetune/activations", test_activations);
  g_test_add_func ("/finetune/lora/params", test_lora_params);
  g_test_add_func ("/finetune/lora", test_lora);
  g_test_add_func ("/finetune/qlora", test_qlora);
  g_test_add_func ("/finetune/glm-4.5-air", test_glm_air);
  g_test_add_func ("/finetune/invalid", test_invalid);
  g_test_add_func ("/finetune/strings", test_strings);
  g_test_add_func ("/finetune/usable-verdict", test_usable_verdict);
  g_test_add_func ("/finetune/smallest-fit", test_smallest_fit);

  return g_test_run ();
}
