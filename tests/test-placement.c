/* test-placement.c — different GPUs in one setup (#31): llama.cpp's layer split, each device's
 * memory and verdict, decode through the devices in turn, the placement search, and the
 * --tensor-split every multi-device llama.cpp command carries */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-launch.h"
#include "hr-placement.h"
#include "hr-units.h"

static HrCatalog *catalog;

static const char *command_of (GPtrArray *cmds,
                               HrEngine   engine);

/* @model on the devices "id" or "id:N", in launch order (NULL-terminated). */
static void
setup (HrScenario *s,
       const char *model_id,
       ...)
{
  HrDeviceKind kinds[HR_MAX_DEVICE_KINDS];
  g_autoptr(GError) error = NULL;
  const HrModel *m = hr_catalog_find_model (catalog, model_id);
  const char *id;
  int n = 0;
  va_list ap;

  g_assert_nonnull (m);
  va_start (ap, model_id);
  while ((id = va_arg (ap, const char *)) != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (id, ":", 2);
      const HrGpu *g = hr_catalog_find_gpu (catalog, parts[0]);

      g_assert_nonnull (g);
      kinds[n++] = (HrDeviceKind) { g, parts[1] != NULL ? atoi (parts[1]) : 1 };
    }
  va_end (ap);
  hr_scenario_init (s, m, kinds[0].gpu);
  g_strlcpy (s->quant, "Q4_K_M", sizeof s->quant);
  s->context = 8192;
  g_assert_true (hr_scenario_set_devices (s, kinds, n, &error));
  g_assert_no_error (error);
}

static void
estimate (const HrScenario *s,
          HrEstimate       *e)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_estimate_compute (s, NULL, e, &error));
  g_assert_no_error (error);
}

/* Every device figure adds up to the estimate's total (to a byte per device). */
static void
assert_sums (const HrEstimate *e)
{
  const HrPlacement *p = &e->placement;
  double w = 0, kv = 0, c = 0, rt = 0, req = 0, usable = 0, phys = 0, most = 0;
  HrVerdict worst = HR_VERDICT_FITS;

  g_assert_cmpint (p->n_devices, >, 0);
  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];

      g_assert_cmpfloat_with_epsilon (d->required_bytes,
                                      d->weights_bytes + d->kv_bytes + d->compute_bytes + d->runtime_bytes, 1);
      g_assert_cmpfloat_with_epsilon (d->margin_bytes, d->usable_bytes - d->required_bytes, 1);
      w += d->weights_bytes;
      kv += d->kv_bytes;
      c += d->compute_bytes;
      rt += d->runtime_bytes;
      req += d->required_bytes;
      usable += d->usable_bytes;
      phys += d->physical_bytes;
      most = MAX (most, d->required_bytes);
      worst = MAX (worst, d->verdict);
    }
  /* the vision projector (#31) is among its device's weights, apart from the model's */
  g_assert_cmpfloat_with_epsilon (w, e->weights_gpu + (e->mmproj_device >= 0 ? e->mmproj_bytes : 0),
                                  p->n_devices);
  g_assert_cmpfloat_with_epsilon (kv, e->kv_bytes, p->n_devices);
  g_assert_cmpfloat_with_epsilon (c + rt, e->overhead_bytes
                                  + (e->mmproj_device >= 0 ? e->mmproj_encode_bytes : 0), p->n_devices);
  g_assert_cmpfloat_with_epsilon (req, e->required_bytes, p->n_devices);
  g_assert_cmpfloat_with_epsilon (usable, e->usable_bytes, p->n_devices);
  g_assert_cmpfloat_with_epsilon (phys, e->physical_bytes, p->n_devices);
  g_assert_cmpfloat_with_epsilon (most, e->per_gpu_required, 1);
  g_assert_cmpint (worst, ==, e->verdict);
}

static int
device_units (const HrDevicePlan *d)
{
  return d->layers + (d->output ? 1 : 0);
}

static void
test_sums (void)
{
  const char *const setups[][3] = {
    { "rtx-4090-24gb", "rtx-3090-24gb", NULL },
    { "rtx-4090-24gb", "rtx-3060-12gb", NULL },
    { "rtx-3060-12gb", "rtx-3090-24gb:2", NULL },
    { "rtx-3090-24gb", "rtx-4060-ti-16gb", "rtx-3060-12gb" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (setups); i++)
    {
      HrScenario s;
      HrEstimate e;

      setup (&s, "llama-3.3-70b", setups[i][0], setups[i][1], setups[i][2], NULL);
      g_assert_true (hr_scenario_is_mixed (&s));
      estimate (&s, &e);
      g_assert_cmpint (e.placement.split, ==, HR_SPLIT_LAYER);
      g_assert_cmpint (e.placement.n_devices, ==, s.n_gpus);
      assert_sums (&e);
      /* every layer somewhere, the output layer on the last device with layers */
      {
        int layers = e.placement.ram_layers, last = -1;

        for (int j = 0; j < e.placement.n_devices; j++)
          {
            layers += e.placement.devices[j].layers;
            if (device_units (&e.placement.devices[j]) > 0)
              last = j;
          }
        g_assert_cmpint (layers, ==, s.model->n_layers);
        g_assert_true (e.placement.devices[last].output);
      }
      /* a MoE model with experts in RAM adds up too */
      setup (&s, "qwen3-30b-a3b", setups[i][0], setups[i][1], setups[i][2], NULL);
      s.n_cpu_moe = 10;
      s.offload_pct = 10;
      estimate (&s, &e);
      assert_sums (&e);
    }
}

/* Alike devices keep the estimate of n_gpus × gpu exactly, and list their devices too. */
static void
test_alike_unchanged (void)
{
  HrScenario listed, counted;
  HrEstimate a, b;

  setup (&listed, "llama-3.3-70b", "rtx-3090-24gb", "rtx-3090-24gb", NULL);
  g_assert_false (hr_scenario_is_mixed (&listed));
  g_assert_cmpint (listed.n_gpus, ==, 2);
  setup (&counted, "llama-3.3-70b", "rtx-3090-24gb", NULL);
  counted.n_gpus = 2;
  estimate (&listed, &a);
  estimate (&counted, &b);
  g_assert_cmpfloat (a.required_bytes, ==, b.required_bytes);
  g_assert_cmpfloat (a.per_gpu_required, ==, b.per_gpu_required);
  g_assert_cmpfloat (a.decode_tps, ==, b.decode_tps);
  g_assert_cmpfloat (a.prefill_tps, ==, b.prefill_tps);
  g_assert_cmpint (a.verdict, ==, b.verdict);
  g_assert_cmpint (a.placement.n_devices, ==, 2);
  assert_sums (&a);

  /* vLLM's tensor parallelism: a shard of every layer on each */
  counted.engine = HR_ENGINE_VLLM;
  estimate (&counted, &b);
  g_assert_cmpint (b.placement.split, ==, HR_SPLIT_TENSOR);
  assert_sums (&b);
}

/* Llama 3.3 70B Q4_K_M at 8K: 48 GB of RTX 4090 + RTX 3090 holds it, 36 GB of RTX 4090 +
 * RTX 3060 does not. */
static void
test_fits (void)
{
  HrScenario s;
  HrEstimate e;

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
  estimate (&s, &e);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  for (int j = 0; j < 2; j++)
    g_assert_cmpint (e.placement.devices[j].verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (e.placement.ram_layers, ==, 0);
  g_assert_cmpint (e.placement.gpu_layers, ==, 81);

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
  estimate (&s, &e);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpfloat (e.required_bytes, >, e.usable_bytes);
}

/* llama.cpp's own split (load_tensors): units at the running sums of --tensor-split or free
 * memory, the output layer the last unit. */
static void
test_llama_split (void)
{
  int units[3];

  /* 24 GB beside 12 GB: two thirds of 80 layers + output */
  hr_placement_llama_split (80, 81, (double[]) { 24, 12 }, 2, units);
  g_assert_cmpint (units[0], ==, 54);
  g_assert_cmpint (units[1], ==, 27);
  /* an even split gives the first device the odd unit */
  hr_placement_llama_split (80, 81, (double[]) { 1, 1 }, 2, units);
  g_assert_cmpint (units[0], ==, 41);
  g_assert_cmpint (units[1], ==, 40);
  /* -ngl 61: the first 20 layers stay on the CPU */
  hr_placement_llama_split (80, 61, (double[]) { 42, 19 }, 2, units);
  g_assert_cmpint (units[0], ==, 42);
  g_assert_cmpint (units[1], ==, 19);
  /* a device given 0 takes nothing */
  hr_placement_llama_split (32, 33, (double[]) { 0, 33, 0 }, 3, units);
  g_assert_cmpint (units[0], ==, 0);
  g_assert_cmpint (units[1], ==, 33);
  g_assert_cmpint (units[2], ==, 0);
}

/* The plan follows memory: of a model both devices must hold, the 24 GB card takes more layers
 * than the 12 GB one, in either order; where no split fits, llama.cpp's own split by free
 * memory is shown. */
static void
test_split_follows_memory (void)
{
  HrScenario s;
  HrEstimate e;

  setup (&s, "qwen3-32b", "rtx-3090-24gb", "rtx-3060-12gb", NULL);
  g_strlcpy (s.quant, "Q6_K", sizeof s.quant);
  estimate (&s, &e);
  /* and with margin on every card: a tight card hands a layer to its neighbour */
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpint (e.placement.devices[0].layers, >, e.placement.devices[1].layers);
  g_assert_cmpint (e.placement.devices[1].layers, >, 0);

  setup (&s, "qwen3-32b", "rtx-3060-12gb", "rtx-3090-24gb", NULL);
  g_strlcpy (s.quant, "Q6_K", sizeof s.quant);
  estimate (&s, &e);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (e.placement.devices[1].layers, >, e.placement.devices[0].layers);
  g_assert_true (e.placement.devices[1].output);

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
  estimate (&s, &e);
  g_assert_cmpint (device_units (&e.placement.devices[0]), ==, 54);
  g_assert_cmpint (device_units (&e.placement.devices[1]), ==, 27);
}

/* A token passes through the devices in turn: the RTX 3090's share is the larger, it is named
 * in the basis, and the speed lies between two 3090s' and two 4090s'. */
static void
test_slowest_bounds_decode (void)
{
  HrScenario s, alike;
  HrEstimate e, fast, slow;
  const HrDevicePlan *d4090, *d3090;
  g_autofree char *basis = NULL;

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
  estimate (&s, &e);
  d4090 = &e.placement.devices[0];
  d3090 = &e.placement.devices[1];
  g_assert_cmpint (e.placement.slowest, ==, 1);
  g_assert_cmpint (e.decode_basis.kind, ==, HR_BASIS_DECODE_DEVICES);
  g_assert_cmpstr (e.decode_basis.device, ==, "RTX 3090 24GB");
  /* per layer, the 3090 is the slower */
  g_assert_cmpfloat (d3090->decode_seconds / device_units (d3090), >, d4090->decode_seconds / device_units (d4090));
  /* the step is the devices' parts and the fixed per-token costs, no more */
  g_assert_cmpfloat (d3090->decode_seconds + d4090->decode_seconds, <, 1.0 / e.decode_tps);
  g_assert_cmpfloat (d3090->decode_seconds + d4090->decode_seconds, >, 0.95 / e.decode_tps);

  setup (&alike, "llama-3.3-70b", "rtx-4090-24gb:2", NULL);
  estimate (&alike, &fast);
  setup (&alike, "llama-3.3-70b", "rtx-3090-24gb:2", NULL);
  estimate (&alike, &slow);
  g_assert_cmpfloat (e.decode_tps, <, fast.decode_tps);
  g_assert_cmpfloat (e.decode_tps, >, slow.decode_tps);
  g_assert_cmpfloat (e.prefill_tps, <, fast.prefill_tps);
  g_assert_cmpfloat (e.prefill_tps, >, slow.prefill_tps);

  basis = hr_basis_json (&e.decode_basis);
  g_assert_nonnull (strstr (basis, "RTX 3090 24GB takes"));
  {
    /* #31: Gemma 3 27B Q4_K_M fits on the RTX 4090 alone, which holds every layer: no "layer
     * split over 1 devices" */
    g_autofree char *one = NULL;

    setup (&s, "gemma-3-27b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
    estimate (&s, &e);
    g_assert_cmpint (e.placement.devices[1].layers, ==, 0);
    g_assert_cmpint (e.decode_basis.kind, ==, HR_BASIS_DECODE_DEVICES);
    one = hr_basis_text (&e.decode_basis);
    g_test_message ("%s", one);
    g_assert_null (strstr (one, "1 devices"));
    g_assert_true (g_str_has_prefix (one, "one device holds the layers, the RTX 4090 24GB: "));
  }

  /* with a third, slow card: the basis names the device that takes the longest in all, and
   * the 3060 is the slowest per layer */
  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", "rtx-3060-12gb", NULL);
  s.context = 32768;
  estimate (&s, &e);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (e.placement.devices[2].layers, >, 0);
  for (int j = 0; j < 3; j++)
    g_assert_cmpfloat (e.placement.devices[j].decode_seconds, <=,
                       e.placement.devices[e.placement.slowest].decode_seconds);
  g_assert_cmpfloat (e.placement.devices[2].decode_seconds / device_units (&e.placement.devices[2]), >,
                     e.placement.devices[1].decode_seconds / device_units (&e.placement.devices[1]));
  g_assert_cmpstr (e.decode_basis.device, ==, e.placement.devices[e.placement.slowest].gpu->name);
}

/* vLLM and SGLang shard every layer: a mixed set is refused with the reason and the pipeline
 * parallel alternative. */
/* vLLM and SGLang run different GPUs as pipeline stages (#31): one per device, the engine's
 * own even partition when it fits, each stage its layers' weights and KV cache, the first the
 * embedding, the last the head; the same KV blocks on every stage. */
static void
test_server_pipeline (void)
{
  const HrEngine engines[] = { HR_ENGINE_VLLM, HR_ENGINE_SGLANG };

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      HrScenario s, one;
      HrEstimate e, whole;
      const HrPlacement *p = &e.placement;
      double layer, embd;

      setup (&s, "qwen3-8b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
      g_strlcpy (s.quant, "BF16", sizeof s.quant);
      s.engine = engines[i];
      estimate (&s, &e);
      assert_sums (&e);
      g_assert_cmpint (p->split, ==, HR_SPLIT_PIPELINE);
      g_assert_cmpint (p->n_devices, ==, 2);
      /* 36 layers: 18 + 18, the engine's own partition, nothing to set at launch */
      g_assert_cmpint (p->devices[0].layers, ==, 18);
      g_assert_cmpint (p->devices[1].layers, ==, 18);
      g_assert_false (p->custom_stages);
      g_assert_false (p->devices[0].output);
      g_assert_true (p->devices[1].output);

      /* the stages' weights: the whole model's on one GPU, split at the layers; Qwen3-8B's
       * embedding and head are separate tensors of the same size */
      one = s;
      one.n_kinds = 0;
      one.gpu = s.kinds[0].gpu;
      one.n_gpus = 1;
      estimate (&one, &whole);
      embd = whole.weights.embd_bytes;
      layer = (whole.weights_gpu - embd - whole.weights.output_bytes) / 36;
      g_assert_cmpfloat_with_epsilon (p->devices[0].weights_bytes, 18 * layer + embd, 1);
      g_assert_cmpfloat_with_epsilon (p->devices[1].weights_bytes, 18 * layer + whole.weights.output_bytes, 1);
      g_assert_cmpfloat_with_epsilon (p->devices[0].kv_bytes, whole.kv_bytes / 2, 1);
      /* the same blocks on both stages: equal layers, equal pools, and the tokens they hold */
      g_assert_cmpfloat (p->devices[0].kv_pool_bytes, >, 0);
      g_assert_cmpfloat_with_epsilon (p->devices[0].kv_pool_bytes, p->devices[1].kv_pool_bytes, 1);
      g_assert_cmpfloat_with_epsilon (e.kv_capacity_tokens,
                                      p->devices[0].kv_pool_bytes / (whole.kv_bytes_per_token / 2), 16);
      if (engines[i] == HR_ENGINE_VLLM)
        {
          /* vLLM profiles the sampler on the last stage only, and each stage captures graphs
           * of its 18 layers (0.015 GiB a layer).  The profile's peak is the larger of the
           * forward over 2048 batched tokens (feed-forward intermediates 3 × 12288 and three
           * hidden copies, 16 bits) and the sampler's run (15 B × 256 sequences × 151936
           * tokens of vocabulary beside 2048 hidden states): the first stage is spared the
           * sampler's excess over the forward */
          g_assert_cmpfloat_with_epsilon (p->devices[1].compute_bytes,
                                          whole.compute_bytes - 18 * 0.015 * HR_GIB, 1);
          g_assert_cmpfloat_with_epsilon (p->devices[0].compute_bytes,
                                          whole.compute_bytes - 18 * 0.015 * HR_GIB -
                                          ((2048.0 * 4096 * 2 + 15.0 * 256 * 151936) -
                                           2048.0 * (3 * 12288 * 2 + 3 * 4096 * 2)), 1);
          g_assert_cmpfloat (fmod (e.kv_capacity_tokens, 16), ==, 0);
        }
      /* a token passes both stages: slower than the faster card alone */
      g_assert_cmpfloat (e.decode_tps, <, whole.decode_tps);
      g_assert_cmpfloat (e.decode_tps, >, 0);
    }
}

/* Tied embeddings under pipeline stages: the first stage embeds, the last holds the same
 * matrix again as its head (vLLM's models keep embed_tokens on the last rank too when
 * tie_word_embeddings): the stages together hold the model and one more embedding. */
static void
test_server_pipeline_tied (void)
{
  HrScenario s, one;
  HrEstimate e, whole;

  setup (&s, "qwen3-4b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (s.model->tie_embeddings);
  estimate (&s, &e);
  one = s;
  one.n_kinds = 0;
  one.gpu = s.kinds[0].gpu;
  one.n_gpus = 1;
  estimate (&one, &whole);
  g_assert_cmpint (e.placement.split, ==, HR_SPLIT_PIPELINE);
  g_assert_cmpfloat_with_epsilon (e.placement.devices[0].weights_bytes + e.placement.devices[1].weights_bytes,
                                  whole.weights_gpu + whole.weights.embd_bytes, 2);
}

/* The engines' even partitions, as their get_pp_indices () split the layers (the goldens of
 * vLLM's tests/distributed/test_pipeline_partition.py and SGLang's rule). */
static void
test_pp_default (void)
{
  int parts[4];

  hr_placement_pp_default (HR_ENGINE_VLLM, 22, 4, parts);
  g_assert_cmpint (parts[0], ==, 5);
  g_assert_cmpint (parts[1], ==, 6);
  g_assert_cmpint (parts[2], ==, 6);
  g_assert_cmpint (parts[3], ==, 5);
  hr_placement_pp_default (HR_ENGINE_VLLM, 5, 3, parts);
  g_assert_cmpint (parts[0], ==, 2);
  g_assert_cmpint (parts[1], ==, 2);
  g_assert_cmpint (parts[2], ==, 1);
  hr_placement_pp_default (HR_ENGINE_VLLM, 3, 2, parts);
  g_assert_cmpint (parts[0], ==, 2);
  g_assert_cmpint (parts[1], ==, 1);
  /* SGLang: the remainder to the last stages */
  hr_placement_pp_default (HR_ENGINE_SGLANG, 22, 4, parts);
  g_assert_cmpint (parts[0], ==, 5);
  g_assert_cmpint (parts[1], ==, 5);
  g_assert_cmpint (parts[2], ==, 6);
  g_assert_cmpint (parts[3], ==, 6);
}

/* The even partition does not fit the smaller card: the plan gives the larger one more
 * layers, every stage fits, and the launch sets the stages. */
static void
test_server_uneven (void)
{
  HrScenario s;
  HrEstimate e;
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *want = NULL;
  const HrPlacement *p = &e.placement;
  const char *cmd;

  setup (&s, "qwen3-8b", "rtx-3060-12gb", "rtx-3090-24gb", NULL);
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.engine = HR_ENGINE_SGLANG;
  estimate (&s, &e);
  assert_sums (&e);
  g_assert_true (p->custom_stages);
  g_assert_cmpint (p->devices[0].layers + p->devices[1].layers, ==, 36);
  g_assert_cmpint (p->devices[0].layers, <, p->devices[1].layers);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  cmds = hr_launch_commands (&s, &e);
  cmd = command_of (cmds, HR_ENGINE_SGLANG);
  g_assert_nonnull (cmd);
  want = g_strdup_printf ("SGLANG_PP_LAYER_PARTITION=%d,%d python -m sglang.launch_server",
                          p->devices[0].layers, p->devices[1].layers);
  g_assert_true (g_str_has_prefix (cmd, want));
  g_assert_nonnull (strstr (cmd, "--tp 1 --pp-size 2"));

  /* vLLM's even 18 + 18 does not fit a 12 GB card beside a 24 GB one at 32K either: its
   * variable, before the command */
  setup (&s, "qwen3-8b", "rtx-3060-12gb", "rtx-3090-24gb", NULL);
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.engine = HR_ENGINE_VLLM;
  s.context = 32768;
  estimate (&s, &e);
  g_assert_true (p->custom_stages);
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_EXCEEDS);
  g_clear_pointer (&cmds, g_ptr_array_unref);
  g_clear_pointer (&want, g_free);
  cmds = hr_launch_commands (&s, &e);
  cmd = command_of (cmds, HR_ENGINE_VLLM);
  want = g_strdup_printf ("VLLM_PP_LAYER_PARTITION=%d,%d vllm serve Qwen/Qwen3-8B",
                          p->devices[0].layers, p->devices[1].layers);
  g_assert_true (g_str_has_prefix (cmd, want));
  /* vLLM's CPU offload across stages is not sized: refused with the reason, not guessed */
  {
    g_autoptr(GError) error = NULL;

    s.offload_pct = 25;
    g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
    g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "--cpu-offload-gb"));
  }
}

/* The user's --tensor-split: llama.cpp's split of the running sums, whatever the memory says,
 * and each device's verdict follows it. */
static void
test_user_split (void)
{
  HrScenario s;
  HrEstimate e;
  g_autofree char *split = NULL;
  g_autoptr(GPtrArray) cmds = NULL;
  const HrPlacement *p = &e.placement;

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
  s.tensor_split[0] = 3;
  s.tensor_split[1] = 1;
  s.n_tensor_split = 2;
  estimate (&s, &e);
  assert_sums (&e);
  /* 81 units at the points 0.75 and 1: units 0 … 60 (il / 81 < 0.75) to the first device */
  g_assert_cmpint (p->devices[0].layers, ==, 61);
  g_assert_false (p->devices[0].output);
  g_assert_cmpint (p->devices[1].layers, ==, 19);
  g_assert_true (p->devices[1].output);
  g_assert_true (p->user_split);
  /* 61 layers of a 70B at Q4_K_M do not fit 24 GB; 19 and the head fit easily */
  g_assert_cmpint (p->devices[0].verdict, ==, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (p->devices[1].verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  split = hr_placement_tensor_split (&s, &e);
  g_assert_cmpstr (split, ==, "3,1");
  cmds = hr_launch_commands (&s, &e);
  g_assert_nonnull (strstr (command_of (cmds, HR_ENGINE_LLAMA_CPP), "--tensor-split 3,1 --split-mode layer"));

  /* alike devices follow it too: 2× RTX 3090 at 1,1 is llama.cpp's even split, 1,3 is not */
  setup (&s, "llama-3.3-70b", "rtx-3090-24gb:2", NULL);
  s.tensor_split[0] = 1;
  s.tensor_split[1] = 3;
  s.n_tensor_split = 2;
  estimate (&s, &e);
  assert_sums (&e);
  g_assert_cmpint (p->n_devices, ==, 2);
  /* points 0.25 and 1: il / 81 < 0.25 → units 0 … 20 */
  g_assert_cmpint (p->devices[0].layers, ==, 21);
  g_assert_cmpint (p->devices[1].layers, ==, 59);
  g_assert_cmpint (p->devices[1].verdict, ==, HR_VERDICT_EXCEEDS);

  /* bad values are refused, not sized */
  {
    const double bad[][2] = { { -1, 2 }, { 0, 0 }, { NAN, 1 } };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) error = NULL;

        setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
        s.tensor_split[0] = bad[i][0];
        s.tensor_split[1] = bad[i][1];
        s.n_tensor_split = 2;
        g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
        g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
      }
  }
  {
    g_autoptr(GError) error = NULL;

    /* three values for two devices */
    setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
    s.tensor_split[0] = s.tensor_split[1] = s.tensor_split[2] = 1;
    s.n_tensor_split = 3;
    g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
    g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID);
  }
}

/* A MoE model's leading dense layers hold no routed experts: DeepSeek-V3's first 3 layers
 * alone on one device (--tensor-split 3,59: units 0 … 2) weigh 3 layers without experts, the
 * rest hold the experts and the head. */
static void
test_dense_layers_lighter (void)
{
  HrScenario s;
  HrEstimate e;
  const HrPlacement *p = &e.placement;
  double base;

  setup (&s, "deepseek-v3", "rtx-3090-24gb:2", NULL);
  g_strlcpy (s.quant, "UD-Q2_K_XL", sizeof s.quant);
  s.tensor_split[0] = 3;
  s.tensor_split[1] = 59;
  s.n_tensor_split = 2;
  estimate (&s, &e);
  assert_sums (&e);
  g_assert_cmpint (p->devices[0].layers, ==, 3);
  g_assert_cmpint (p->devices[1].layers, ==, 58);
  base = (e.weights_gpu - e.weights.output_bytes - e.weights.expert_bytes) / 61;
  g_assert_cmpfloat_with_epsilon (p->devices[0].weights_bytes, 3 * base, 4);
  g_assert_cmpfloat_with_epsilon (p->devices[1].weights_bytes,
                                  58 * base + e.weights.expert_bytes + e.weights.output_bytes, 64);
}

/* The CPU and system RAM are no device of a split: refused, never sized as a card. */
static void
test_not_devices (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "qwen3-8b");
  const HrGpu *card = hr_catalog_find_gpu (catalog, "rtx-3060-12gb");
  g_autoptr(HrGpu) cpu = hr_gpu_copy (card);
  g_autoptr(GError) error = NULL;
  HrDeviceKind kinds[] = { { cpu, 1 }, { card, 1 } };
  HrScenario s;
  HrEstimate e;

  g_free (cpu->id);
  cpu->id = g_strdup ("this");
  cpu->backend = HR_BACKEND_CPU;
  hr_scenario_init (&s, m, card);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, NULL));
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
}

/* A laptop's discrete GPU beside its integrated one (RTX 4060 Ti 16GB standing in for the
 * laptop card, beside a Radeon 780M whose memory is the system RAM): llama.cpp uses the
 * integrated GPU only when there is no other, so the setup is sized as the discrete card
 * alone, its memory never counted twice; vLLM is told to leave it out. */
static void
test_integrated_left_out (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "qwen3-14b");
  const HrGpu *card = hr_catalog_find_gpu (catalog, "rtx-4060-ti-16gb");
  g_autoptr(HrGpu) igpu = hr_gpu_copy (card);
  HrDeviceKind kinds[] = { { card, 1 }, { igpu, 1 } };
  g_autoptr(GPtrArray) cmds = NULL;
  g_autoptr(GError) error = NULL;
  HrScenario s, alone;
  HrEstimate e, a;
  const char *cmd;

  g_free (igpu->id);
  igpu->id = g_strdup ("radeon-780m");
  g_free (igpu->name);
  igpu->name = g_strdup ("Radeon 780M");
  igpu->form = HR_FORM_UNIFIED;
  igpu->memory_gib = 32;
  igpu->backend = HR_BACKEND_VULKAN;
  hr_scenario_init (&s, m, card);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, NULL));
  estimate (&s, &e);
  hr_scenario_init (&alone, m, card);
  g_strlcpy (alone.quant, "Q4_K_M", sizeof alone.quant);
  estimate (&alone, &a);
  /* the 4060 Ti's 16 GiB, not 16 + 32 */
  g_assert_cmpfloat (e.physical_bytes, ==, 16 * HR_GIB);
  g_assert_cmpfloat (e.required_bytes, ==, a.required_bytes);
  g_assert_cmpfloat (e.system_ram_bytes, ==, a.system_ram_bytes);
  g_assert_true (e.placement.left_out == igpu);
  g_assert_cmpint (e.placement.n_left_out, ==, 1);
  cmds = hr_launch_commands (&s, &e);
  cmd = command_of (cmds, HR_ENGINE_LLAMA_CPP);
  g_assert_nonnull (cmd);
  g_assert_null (strstr (cmd, "--tensor-split"));

  /* vLLM's stages need discrete GPUs */
  s.engine = HR_ENGINE_VLLM;
  g_assert_false (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "Radeon 780M"));
}

static const char *
command_of (GPtrArray *cmds,
            HrEngine   engine)
{
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (c->engine == engine)
        return c->command;
    }
  return NULL;
}

/* The number after @flag in @command, -2 when the flag is absent. */
static int
flag_int (const char *command,
          const char *flag)
{
  const char *at = strstr (command, flag);

  return at != NULL ? atoi (at + strlen (flag)) : -2;
}

/* Every multi-device llama.cpp command carries the plan's --tensor-split, and llama.cpp's own
 * rule turns it back into exactly the plan's layers; -ngl and --n-cpu-moe match too. */
static void
test_launch_matches_plan (void)
{
  const char *const setups[][3] = {
    { "rtx-4090-24gb", "rtx-3090-24gb", NULL },
    { "rtx-4090-24gb", "rtx-3060-12gb", NULL },
    { "rtx-3060-12gb", "rtx-3090-24gb:2", NULL },
    { "rtx-3090-24gb", "rtx-4060-ti-16gb", "rtx-3060-12gb" },
  };
  const char *const models[] = { "llama-3.3-70b", "qwen3-32b", "qwen3-30b-a3b", "llama-3.1-8b" };

  for (guint i = 0; i < G_N_ELEMENTS (setups); i++)
    for (guint k = 0; k < G_N_ELEMENTS (models); k++)
      for (int offload = 0; offload <= 1; offload++)
        {
          HrScenario s;
          HrEstimate e;
          g_autoptr(GPtrArray) cmds = NULL;
          g_autofree char *split = NULL;
          g_autofree char *flag = NULL;
          g_auto(GStrv) parts = NULL;
          const char *cmd;
          double values[HR_MAX_PLAN_DEVICES];
          int units[HR_MAX_PLAN_DEVICES];
          int n = 0;

          setup (&s, models[k], setups[i][0], setups[i][1], setups[i][2], NULL);
          if (offload)
            {
              s.offload_pct = 25;
              if (hr_model_is_moe (s.model))
                s.n_cpu_moe = 8;
            }
          estimate (&s, &e);
          split = hr_placement_tensor_split (&s, &e);
          g_assert_nonnull (split);
          cmds = hr_launch_commands (&s, &e);
          cmd = command_of (cmds, HR_ENGINE_LLAMA_CPP);
          g_assert_nonnull (cmd);
          flag = g_strdup_printf ("--tensor-split %s ", split);
          g_assert_nonnull (strstr (cmd, flag));
          /* the server engines, when offered, run pipeline stages, never tensor parallelism */
          if (command_of (cmds, HR_ENGINE_VLLM) != NULL)
            {
              g_autofree char *pp = g_strdup_printf ("--tensor-parallel-size 1 --pipeline-parallel-size %d",
                                                     e.placement.n_devices);

              g_assert_nonnull (strstr (command_of (cmds, HR_ENGINE_VLLM), pp));
            }

          parts = g_strsplit (split, ",", -1);
          for (; parts[n] != NULL; n++)
            values[n] = g_ascii_strtod (parts[n], NULL);
          g_assert_cmpint (n, ==, e.placement.n_devices);
          hr_placement_llama_split (s.model->n_layers, e.placement.gpu_layers, values, n, units);
          for (int j = 0; j < n; j++)
            g_assert_cmpint (units[j], ==, device_units (&e.placement.devices[j]));
          if (e.placement.gpu_layers > s.model->n_layers)
            g_assert_cmpint (flag_int (cmd, "-ngl "), ==, 999);
          else
            g_assert_cmpint (flag_int (cmd, "-ngl "), ==, e.placement.gpu_layers);
          g_assert_cmpint (flag_int (cmd, "--n-cpu-moe "), ==, e.placement.n_cpu_moe > 0 ? e.placement.n_cpu_moe : -2);
        }
}

/* The placement search: 4090 + 3060 holds the 70B with the least in system RAM, and sizing
 * its answer gives back the same plan. */
static void
test_search (void)
{
  HrScenario s, best;
  HrEstimate e, found, again;

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
  g_assert_true (hr_placement_search (&s, &best, &found));
  g_assert_cmpint (found.verdict, !=, HR_VERDICT_EXCEEDS);
  g_assert_cmpint (found.placement.ram_layers, >, 0);
  estimate (&best, &again);
  g_assert_cmpint (again.placement.ram_layers, ==, found.placement.ram_layers);
  for (int j = 0; j < 2; j++)
    g_assert_cmpint (again.placement.devices[j].layers, ==, found.placement.devices[j].layers);
  /* one layer fewer in RAM does not fit */
  best.offload_pct = 100.0 * (found.placement.ram_layers - 1) / s.model->n_layers;
  estimate (&best, &e);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_EXCEEDS);
  /* the faster card is filled first */
  g_assert_cmpint (found.placement.devices[0].layers, >, found.placement.devices[1].layers);

  /* a MoE model moves experts before whole layers */
  setup (&s, "qwen3-235b-a22b", "rtx-3090-24gb", "rtx-3060-12gb", NULL);
  g_assert_true (hr_placement_search (&s, &best, &found));
  g_assert_cmpint (found.placement.ram_layers, ==, 0);
  g_assert_cmpint (found.placement.n_cpu_moe, >, 0);
  g_assert_cmpint (found.verdict, !=, HR_VERDICT_EXCEEDS);

  /* layers whose experts stay in RAM are light: the first card takes many of them, and a
   * split that fits is found (the even-layer guess alone overfilled the 4060 Ti) */
  setup (&s, "qwen3-235b-a22b", "rtx-3090-24gb:2", "rtx-4060-ti-16gb", NULL);
  s.n_cpu_moe = 60;
  s.context = 16384;
  estimate (&s, &e);
  /* and with margin on every card: a tight card hands a layer to its neighbour */
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpint (e.placement.devices[0].layers, >, e.placement.devices[1].layers);
  assert_sums (&e);

  /* nothing to search when it fits */
  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3090-24gb", NULL);
  g_assert_false (hr_placement_search (&s, &best, &found));
}

/* A copy whose GPU or count was changed (the advice's what-ifs) is alike devices again. */
/* #31: a vision projector's weights go on the first device (its plan, the totals and the
 * fullest device), or to system RAM with mmproj_cpu; the other devices are untouched. */
static void
test_mmproj (void)
{
  const double b = 1.25 * (1 << 30);

  for (int mixed = 0; mixed < 2; mixed++)
    {
      HrScenario s;
      HrEstimate e0, e1, e2;

      if (mixed)
        setup (&s, "qwen3-8b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
      else
        setup (&s, "qwen3-8b", "rtx-4090-24gb", NULL);
      estimate (&s, &e0);
      g_assert_cmpfloat (e0.mmproj_bytes, ==, 0);
      g_assert_cmpint (e0.mmproj_device, ==, -1);

      s.mmproj_bytes = b;
      estimate (&s, &e1);
      assert_sums (&e1);
      g_assert_cmpfloat (e1.mmproj_bytes, ==, b);
      g_assert_cmpint (e1.mmproj_device, ==, 0);
      g_assert_cmpfloat_with_epsilon (e1.required_bytes, e0.required_bytes + b, 1);
      g_assert_cmpfloat_with_epsilon (e1.placement.devices[0].required_bytes,
                                      e0.placement.devices[0].required_bytes + b, 1);
      g_assert_cmpfloat_with_epsilon (e1.margin_bytes, e0.margin_bytes - b, 1);
      g_assert_cmpfloat (e1.system_ram_bytes, ==, e0.system_ram_bytes);
      if (mixed)
        g_assert_cmpfloat (e1.placement.devices[1].required_bytes, ==,
                           e0.placement.devices[1].required_bytes);

      s.mmproj_cpu = TRUE;
      estimate (&s, &e2);
      assert_sums (&e2);
      g_assert_cmpint (e2.mmproj_device, ==, -1);
      g_assert_cmpfloat (e2.required_bytes, ==, e0.required_bytes);
      g_assert_cmpfloat_with_epsilon (e2.system_ram_bytes, e0.system_ram_bytes + b, 1);
    }
}

static void
test_what_if_copy (void)
{
  HrScenario s;
  HrEstimate e;

  setup (&s, "llama-3.3-70b", "rtx-4090-24gb", "rtx-3060-12gb", NULL);
  s.n_gpus = 3;
  g_assert_false (hr_scenario_is_mixed (&s));
  estimate (&s, &e);
  g_assert_cmpfloat (e.physical_bytes, ==, 3 * 24 * HR_GIB);
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

  g_test_add_func ("/placement/sums", test_sums);
  g_test_add_func ("/placement/alike-unchanged", test_alike_unchanged);
  g_test_add_func ("/placement/fits", test_fits);
  g_test_add_func ("/placement/llama-split", test_llama_split);
  g_test_add_func ("/placement/split-follows-memory", test_split_follows_memory);
  g_test_add_func ("/placement/slowest-bounds-decode", test_slowest_bounds_decode);
  g_test_add_func ("/placement/server-pipeline", test_server_pipeline);
  g_test_add_func ("/placement/pp-default", test_pp_default);
  g_test_add_func ("/placement/server-pipeline-tied", test_server_pipeline_tied);
  g_test_add_func ("/placement/server-uneven", test_server_uneven);
  g_test_add_func ("/placement/user-split", test_user_split);
  g_test_add_func ("/placement/dense-layers-lighter", test_dense_layers_lighter);
  g_test_add_func ("/placement/integrated-left-out", test_integrated_left_out);
  g_test_add_func ("/placement/not-devices", test_not_devices);
  g_test_add_func ("/placement/launch-matches-plan", test_launch_matches_plan);
  g_test_add_func ("/placement/search", test_search);
  g_test_add_func ("/placement/what-if-copy", test_what_if_copy);
  g_test_add_func ("/placement/mmproj", test_mmproj);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
