/* hr-draft.c — speculative decoding (#31): the draft's memory and the expected speed-up
 *
 * The speed model is the standard expectation of speculative decoding (Leviathan, Kalman and
 * Matias, "Fast Inference from Transformers via Speculative Decoding", ICML 2023, §3.1): with
 * k drafted tokens each accepted with probability α (while the ones before it were), a target
 * pass yields (1 − α^(k+1)) / (1 − α) tokens.  A pass costs the target's verify pass over
 * k + 1 tokens (hr-estimate.c: one decode step whose compute and MoE expert reads grow with
 * the tokens) plus the draft's steps: k decodes under vLLM and SGLang; under llama.cpp k + 1
 * decodes and k host samplings over the vocabulary (hr_draft_add ()).  The engines run that loop: llama.cpp's
 * common_speculative_draft () then one llama_decode () of the drafted batch
 * (common/speculative.cpp, tools/server/server-context.cpp), vLLM's proposer then its
 * rejection sampler (vllm/v1/spec_decode/), SGLang's draft worker then verify
 * (python/sglang/srt/speculative/).
 */
#include "hr-draft.h"
#include "hr-catalog.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Default acceptance, per drafted token (Leviathan's α), from published measurements:
 *
 * MTP: DeepSeek-V3 Technical Report (arXiv:2412.19437, §5.4.3): "the acceptance rate of the
 * second token prediction ranges between 85% and 90% across various generation topics", which
 * gives "1.8 times TPS".  One MTP token drafted a pass (k = 1), so that rate is α itself; the
 * low end is taken.  https://arxiv.org/abs/2412.19437
 *
 * Draft model: llama.cpp issue #5877, comment of 2024-11-19 (Llama 3.1 8B Q8_0 with a Llama
 * 3.2 1B Q8_0 draft on an RTX 3060, llama-speculative, n_draft = 5): n_predict = 673,
 * n_drafted = 730, n_accept = 526 ("accept = 72.055%", accepted ÷ drafted), so 673 − 526 =
 * 147 target passes of 730 / 147 = 4.97 drafted tokens yielded 673 / 147 = 4.58 tokens each;
 * (1 − α^6) / (1 − α) = 4.58 gives α = 0.89.  It ran 32.49 → 55.47 tok/s (1.71×).
 * https://github.com/ggml-org/llama.cpp/issues/5877 */
#define DEFAULT_ACCEPT_MTP   0.85
#define DEFAULT_ACCEPT_MODEL 0.89

#define MAX_ACCEPT 0.99

/* llama.cpp samples every drafted token on the host: common_sampler_sample () calls
 * llama_get_logits_ith (), which waits for the draft's decode and copies its vocabulary-sized
 * logits row to the host, then fills an n_vocab candidate array and runs the sampler chain
 * (a top-k over the whole vocabulary first) on the CPU; only then is the next draft decode
 * submitted (common/speculative.cpp, common_speculative_impl_draft_simple::draft ();
 * examples/speculative/speculative.cpp).  The GPU waits meanwhile, so the time adds to each
 * drafted token.  Its cost per vocabulary entry: llama.cpp issue #5877, comment of
 * 2024-11-19, llama-cli on the RTX 3060 rig of DEFAULT_ACCEPT_MODEL's run, "sampling time =
 * 601.84 ms / 913 runs" with Llama 3.1's 128256-token vocabulary (the default chain, top-k 40
 * first, as llama-speculative then gave its drafts): 0.659 ms a token, 5.14 ns an entry.
 * https://github.com/ggml-org/llama.cpp/issues/5877 */
#define HOST_SAMPLE_SECONDS_PER_VOCAB (601.84e-3 / 913 / 128256)

double
hr_draft_default_accept (HrDraftKind kind)
{
  switch (kind)
    {
    case HR_DRAFT_MTP:
      return DEFAULT_ACCEPT_MTP;
    case HR_DRAFT_MODEL:
      return DEFAULT_ACCEPT_MODEL;
    case HR_DRAFT_NONE:
    default:
      return NAN;
    }
}

/* A draft model: llama.cpp's --spec-draft-n-max, default 3 (tools/server/README.md; the older
 * --draft-max, default 16, "has been removed"); vLLM's num_speculative_tokens has no default,
 * its docs draft 5 (docs/features/speculative_decoding/draft_model.md); SGLang's STANDALONE
 * auto-sets --speculative-num-steps 3 (docs/advanced_features/speculative_decoding.md).
 * MTP: 1 on every engine — the depth DeepSeek measured its acceptance at (one extra token),
 * vLLM's "good default" (mtp.md) and SGLang's MTP example; an MTP layer reused for later
 * positions is accepted less often (nebius/MTP-DeepSeek-V3-0324: 3.20 tokens a pass at K = 7,
 * where α = 0.85 would give 4.5), so a deeper draft would need its own measured rate. */
int
hr_draft_default_max (HrEngine    engine,
                      HrDraftKind kind)
{
  if (kind == HR_DRAFT_NONE)
    return 0;
  if (kind == HR_DRAFT_MTP)
    return 1;
  if (engine == HR_ENGINE_VLLM)
    return 5;
  return 3;
}

double
hr_draft_accept (const HrScenario *s)
{
  return isfinite (s->draft_accept) ? s->draft_accept : hr_draft_default_accept (s->draft_kind);
}

int
hr_draft_max (const HrScenario *s)
{
  return s->draft_max > 0 ? s->draft_max : hr_draft_default_max (s->engine, s->draft_kind);
}

double
hr_draft_tokens_per_pass (double alpha,
                          int    k)
{
  if (k <= 0 || !(alpha > 0))
    return 1.0;
  if (alpha >= 1.0)
    return k + 1.0;
  return (1.0 - pow (alpha, k + 1)) / (1.0 - alpha);
}

double
hr_draft_sample_seconds (int n_vocab)
{
  return n_vocab > 0 ? n_vocab * HOST_SAMPLE_SECONDS_PER_VOCAB : 0;
}

gboolean
hr_draft_model_has_mtp (const HrModel *m)
{
  return m != NULL && m->mtp_layers > 0;
}

static const char *
model_name (const HrModel *m)
{
  return m->name ? m->name : m->id;
}

/* The architectures llama.cpp's --spec-type draft-mtp has an MTP graph for: qwen35 and
 * qwen35moe (Qwen3.5/3.6, PR #22673), step35 (Step-3.5), GLM_DSA (GLM-5, PR #25980), which
 * lists those as the in-tree draft-mtp implementations.  Others (DeepSeek V3's deepseek2,
 * GLM-4.5's glm4moe, MiniMax, Nemotron) skip their NextN blocks when loading. */
static gboolean
llama_runs_mtp (const HrModel *m)
{
  static const char *const prefixes[] = { "qwen3.5-", "qwen3.6-", "step-3.5", "glm-5", NULL };

  for (int i = 0; prefixes[i] != NULL; i++)
    if (m->id != NULL && g_str_has_prefix (m->id, prefixes[i]))
      return TRUE;
  return FALSE;
}

gboolean
hr_draft_engine_runs_mtp (HrEngine       engine,
                          const HrModel *m,
                          char         **reason)
{
  if (!hr_draft_model_has_mtp (m))
    {
      if (reason)
        *reason = g_strdup_printf (_("%s has no multi-token-prediction layers"), model_name (m));
      return FALSE;
    }
  if (engine == HR_ENGINE_VLLM || engine == HR_ENGINE_SGLANG)
    return TRUE;
  if (engine == HR_ENGINE_LLAMA_CPP && llama_runs_mtp (m))
    return TRUE;
  if (reason)
    *reason = engine == HR_ENGINE_LLAMA_CPP
              ? g_strdup_printf (_("llama.cpp skips %s’s MTP layers when loading (its draft-mtp "
                                   "runs Qwen3.5/3.6, Step-3.5 and GLM-5): use vLLM or SGLang"),
                                 model_name (m))
              : g_strdup_printf (_("%s runs no speculative decoding here: use llama.cpp, vLLM or SGLang"),
                                 hr_engine_display_name (engine));
  return FALSE;
}

/* The family's name up to its first non-letter: "Qwen3-Coder" and "Qwen3.5" → "Qwen". */
static gboolean
same_family_stem (const char *a,
                  const char *b)
{
  gsize i = 0;

  if (a == NULL || b == NULL)
    return FALSE;
  while (g_ascii_isalpha (a[i]) && g_ascii_tolower (a[i]) == g_ascii_tolower (b[i]))
    i++;
  return i > 0 && !g_ascii_isalpha (a[i]) && !g_ascii_isalpha (b[i]);
}

/* The catalog has no tokenizer field: the vocabulary size (config.json's vocab_size) and the
 * family's name stand for it.  vLLM requires draft and target to share the vocabulary
 * (draft_model.md: "requires the draft and target models to share the same vocabulary");
 * llama.cpp's common_speculative_are_compatible () checks the vocabulary type, the special
 * tokens and the tokens' text. */
gboolean
hr_draft_model_fits (const HrModel *target,
                     const HrModel *draft,
                     char         **reason)
{
  if (draft == target || g_strcmp0 (draft->id, target->id) == 0)
    {
      if (reason)
        *reason = g_strdup_printf (_("%s cannot draft for itself"), model_name (draft));
      return FALSE;
    }
  if (draft->vocab <= 0 || target->vocab <= 0 || draft->vocab != target->vocab)
    {
      if (reason)
        *reason = g_strdup_printf (_("%s cannot draft for %s: their vocabularies differ (%d and %d "
                                     "tokens), a draft needs the model’s tokenizer"),
                                   model_name (draft), model_name (target), draft->vocab, target->vocab);
      return FALSE;
    }
  if (!same_family_stem (draft->family, target->family))
    {
      if (reason)
        *reason = g_strdup_printf (_("%s cannot draft for %s: different families (%s, %s), a draft "
                                     "needs the model’s tokenizer"),
                                   model_name (draft), model_name (target),
                                   draft->family ? draft->family : "?", target->family ? target->family : "?");
      return FALSE;
    }
  if (isfinite (draft->total_params) && isfinite (target->total_params) &&
      draft->total_params >= target->total_params)
    {
      if (reason)
        *reason = g_strdup_printf (_("%s is not smaller than %s: a draft must be"),
                                   model_name (draft), model_name (target));
      return FALSE;
    }
  return TRUE;
}

static int
by_params (gconstpointer a,
           gconstpointer b)
{
  const HrModel *ma = *(const HrModel * const *) a, *mb = *(const HrModel * const *) b;
  double pa = isfinite (ma->total_params) ? ma->total_params : 0;
  double pb = isfinite (mb->total_params) ? mb->total_params : 0;

  return pa < pb ? -1 : pa > pb ? 1 : g_strcmp0 (ma->id, mb->id);
}

GPtrArray *
hr_draft_candidates (const HrCatalog *catalog,
                     const HrModel   *model)
{
  GPtrArray *out = g_ptr_array_new ();

  if (catalog == NULL || model == NULL)
    return out;
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *m = hr_catalog_get_model (catalog, i);

      if (hr_draft_model_fits (model, m, NULL))
        g_ptr_array_add (out, (gpointer) m);
    }
  g_ptr_array_sort (out, by_params);
  return out;
}

gboolean
hr_draft_check (const HrScenario *s,
                GError          **error)
{
  g_autofree char *reason = NULL;
  double accept = s->draft_accept;

  if (s->draft_kind == HR_DRAFT_NONE)
    return TRUE;
  if (s->model == NULL)
    return TRUE; /* hr_scenario_validate () says so */
  if (isfinite (accept) && !(accept >= 0 && accept <= MAX_ACCEPT))
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "draft acceptance must be between 0 and %.2f (got %g)", MAX_ACCEPT, accept);
      return FALSE;
    }
  if (s->draft_max < 0 || s->draft_max > HR_MAX_DRAFT_TOKENS)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "drafted tokens must be between 1 and %d (got %d)", HR_MAX_DRAFT_TOKENS, s->draft_max);
      return FALSE;
    }
  if (s->engine != HR_ENGINE_LLAMA_CPP && s->engine != HR_ENGINE_VLLM && s->engine != HR_ENGINE_SGLANG)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED,
                   _("%s runs no speculative decoding here: use llama.cpp, vLLM or SGLang"),
                   hr_engine_display_name (s->engine));
      return FALSE;
    }
  if (s->draft_kind == HR_DRAFT_MTP && !hr_draft_engine_runs_mtp (s->engine, s->model, &reason))
    {
      g_set_error_literal (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED, reason);
      return FALSE;
    }
  if (s->draft_kind == HR_DRAFT_MODEL &&
      (s->draft_model == NULL || !hr_draft_model_fits (s->model, s->draft_model, &reason)))
    {
      g_set_error_literal (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED,
                           reason ? reason : "no draft model chosen");
      return FALSE;
    }
  return TRUE;
}

/* Adds @bytes to the memory required, spread evenly over the devices: llama.cpp's draft
 * follows --device (--spec-draft-device: "default: follows --device") and splits by layer,
 * vLLM and SGLang shard it over the tensor-parallel group. */
static void
spread_over_devices (const HrScenario *s,
                     HrEstimate       *out,
                     double            bytes)
{
  int n = out->placement.n_devices;

  if (!(bytes > 0))
    return;
  out->required_bytes += bytes;
  out->margin_bytes -= bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  if (n > 0)
    {
      out->per_gpu_required = 0;
      out->verdict = HR_VERDICT_FITS;
      for (int i = 0; i < n; i++)
        {
          HrDevicePlan *d = &out->placement.devices[i];

          d->draft_bytes += bytes / n;
          d->required_bytes += bytes / n;
          d->margin_bytes -= bytes / n;
          d->verdict = hr_verdict_for (d->required_bytes, d->physical_bytes, d->usable_bytes);
          out->per_gpu_required = MAX (out->per_gpu_required, d->required_bytes);
          out->verdict = MAX (out->verdict, d->verdict);
        }
    }
  else
    {
      int g = MAX (s->n_gpus, 1);

      out->per_gpu_required += bytes / g;
      out->verdict = MAX (out->verdict, hr_verdict_for (out->per_gpu_required,
                                                        out->physical_bytes / g, out->usable_bytes / g));
    }
}

/* KV cache of the model's MTP layers: shaped as its first full-attention (or MLA) layers, one
 * group of mtp_layers; the engine's padding as for the model (hr_estimate_kv_at ()).  vLLM
 * and SGLang give the MTP layer its own cache in the pool; llama.cpp's MTP context allocates
 * KV only for the NextN layer (PR #25980). */
static double
mtp_kv_bytes (const HrScenario *s)
{
  HrModel *copy;
  HrScenario sub;
  double bytes = 0;

  for (guint i = 0; i < s->model->layers->len; i++)
    {
      HrLayerGroup g = g_array_index (s->model->layers, HrLayerGroup, i);

      if (g.kind != HR_LAYER_FULL && g.kind != HR_LAYER_MLA)
        continue;
      copy = hr_model_copy (s->model);
      g_array_set_size (copy->layers, 0);
      g.count = s->model->mtp_layers;
      g_array_append_val (copy->layers, g);
      sub = *s;
      sub.model = copy;
      bytes = hr_estimate_kv_at (&sub, s->context, s->kv_type);
      hr_model_free (copy);
      break;
    }
  return bytes;
}

/* vLLM/SGLang carve the draft out of the KV pool they pre-allocate: the pool per GPU shrinks
 * by the draft's weights, and every token now also holds the draft's KV. */
static void
shrink_kv_pool (const HrScenario *s,
                HrEstimate       *out,
                double            weights_bytes)
{
  double pool = out->kv_pool_bytes, scale;
  double per_token = out->kv_bytes > 0 ? out->kv_bytes : 0;

  if (!hr_engine_is_server_like (s->engine) || !isfinite (pool) || !(pool > 0))
    return;
  out->kv_pool_bytes = MAX (0, pool - weights_bytes / MAX (s->n_gpus, 1));
  scale = out->kv_pool_bytes / pool;
  if (per_token > 0)
    scale *= per_token / (per_token + out->draft_kv_bytes);
  if (isfinite (out->kv_capacity_tokens))
    out->kv_capacity_tokens = floor (out->kv_capacity_tokens * scale);
  if (isfinite (out->max_concurrency))
    out->max_concurrency *= scale;
}

static void
clear (HrEstimate *out)
{
  out->draft_weights_bytes = out->draft_kv_bytes = out->draft_compute_bytes = out->draft_bytes = 0;
  out->draft_accept = out->draft_tokens_per_pass = NAN;
  out->draft_verify_ms = out->draft_step_ms = NAN;
  out->draft_speedup = out->draft_decode_tps = NAN;
  out->draft_max = 0;
}

gboolean
hr_draft_add (const HrScenario *s,
              const HrPricing  *pricing,
              HrEstimate       *out,
              GError          **error)
{
  double t_target, t_verify, t_draft = NAN, t_sample = 0, ratio = out->draft_verify_ratio;
  double added;
  int k, n_decodes;

  clear (out);
  if (s->draft_kind == HR_DRAFT_NONE)
    return TRUE;

  k = hr_draft_max (s);
  n_decodes = k;
  out->draft_max = k;
  out->draft_accept = hr_draft_accept (s);
  out->draft_tokens_per_pass = hr_draft_tokens_per_pass (out->draft_accept, k);
  t_target = out->decode_tps > 0 ? 1.0 / out->decode_tps : NAN;

  if (s->draft_kind == HR_DRAFT_MTP)
    {
      const HrWeights *w = &out->weights;
      double layer, frac;

      out->draft_weights_bytes = w->mtp_bytes;
      out->draft_kv_bytes = mtp_kv_bytes (s);
      if (hr_engine_is_llama_like (s->engine))
        {
          /* llama.cpp loads the NextN blocks it otherwise skips */
          out->weights_skipped_bytes = MAX (0, out->weights_skipped_bytes - w->mtp_bytes);
          added = out->draft_weights_bytes + out->draft_kv_bytes;
        }
      else
        {
          /* vLLM and SGLang count them among the weights already: shown as the draft's */
          out->weights_gpu = MAX (0, out->weights_gpu - w->mtp_bytes);
          added = out->draft_kv_bytes;
        }
      /* one MTP step reads its layers and the shared output head, against the target's
       * layers and head (hr_weights: active_bytes leaves out the embedding and MTP) */
      layer = s->model->n_layers > 0 ? (w->active_bytes - w->output_bytes) / s->model->n_layers : 0;
      frac = w->active_bytes > 0 ? (s->model->mtp_layers * layer + w->output_bytes) / w->active_bytes : NAN;
      t_draft = t_target * frac;
    }
  else
    {
      HrScenario sub = *s;
      HrEstimate d;

      sub.model = s->draft_model;
      /* a draft read from a GGUF file is sized as that file (its mix, its exact bytes); a
       * catalog draft at the model's quant */
      if (s->draft_model->gguf_quant != NULL)
        g_strlcpy (sub.quant, s->draft_model->gguf_quant, sizeof sub.quant);
      sub.draft_kind = HR_DRAFT_NONE;
      sub.draft_model = NULL;
      sub.mmproj_mode = HR_MMPROJ_NONE;  /* the draft loads no projector of its own */
      sub.mmproj_bytes = 0;
      sub.mmproj_path = NULL;
      sub.calibration = NULL;
      sub.offload_pct = 0;
      sub.n_cpu_moe = 0;
      sub.weights_named = FALSE;
      if (!hr_estimate_compute (&sub, pricing, &d, error))
        return FALSE;
      out->draft_weights_bytes = d.weights_gpu;
      out->draft_kv_bytes = d.kv_bytes;
      /* llama.cpp makes the draft a context of its own, with its compute buffer; vLLM and
       * SGLang run it inside the activation peak they profile */
      out->draft_compute_bytes = hr_engine_is_llama_like (s->engine) ? d.compute_bytes : 0;
      added = out->draft_weights_bytes + out->draft_kv_bytes + out->draft_compute_bytes;
      t_draft = d.decode_tps > 0 ? 1.0 / d.decode_tps : NAN;
      if (hr_engine_is_llama_like (s->engine))
        {
          /* llama.cpp's draft decodes k + 1 times a target pass, not k: the draft context
           * mirrors the target's verify batch (common_speculative_impl_draft_simple::process (),
           * one forward pass over its k + 1 rows) and decodes the token the target sampled
           * (the seed in ::draft ()), then one decode per drafted token but the last;
           * llama-speculative decoded the seed and then after every drafted token, the last
           * too (examples/speculative/speculative.cpp: "evaluate the drafted tokens on the
           * draft model").  Each drafted token is sampled on the host (t_sample, above).
           * vLLM and SGLang propose on the GPU with k forward passes: neither term. */
          n_decodes = k + 1;
          t_sample = hr_draft_sample_seconds (s->draft_model->vocab);
        }
      shrink_kv_pool (s, out, out->draft_weights_bytes);
    }
  out->draft_bytes = out->draft_weights_bytes + out->draft_kv_bytes + out->draft_compute_bytes;
  spread_over_devices (s, out, added);
  if (s->draft_kind == HR_DRAFT_MTP)
    shrink_kv_pool (s, out, 0);

  /* a layer split or different GPUs: no verify figure of their own, one decode step */
  t_verify = t_target * (ratio > 0 ? ratio : 1.0);
  out->draft_verify_ms = t_verify * 1e3;
  /* one drafted token: its decode and its host sampling */
  out->draft_step_ms = (t_draft + t_sample) * 1e3;
  if (isfinite (t_verify) && isfinite (t_draft) && t_verify > 0)
    {
      double pass = t_verify + n_decodes * t_draft + k * t_sample;

      out->draft_speedup = out->draft_tokens_per_pass / pass * t_target;
      out->draft_decode_tps = out->decode_tps * out->draft_speedup;
    }
  return TRUE;
}

char *
hr_draft_basis_text (const HrEstimate *e)
{
  char pct[16], speedup[16], tps[16];

  if (e->draft_max <= 0)
    return NULL;
  g_snprintf (pct, sizeof pct, "%.0f", e->draft_accept * 100);
  if (!isfinite (e->draft_speedup))
    /* TRANSLATORS: speculative decoding without a known speed: "at 85 % acceptance, 1 drafted" */
    return g_strdup_printf (_("at %s %% acceptance, %d drafted: speed unknown"), pct, e->draft_max);
  g_snprintf (speedup, sizeof speedup, "%.1f", e->draft_speedup);
  g_snprintf (tps, sizeof tps, "%.0f", e->draft_decode_tps);
  /* TRANSLATORS: the expected speed-up of speculative decoding and its basis, never a promise:
   * "at 89 % acceptance, 3 drafted: ~1.8× → 45 tok/s; measured speed-ups vary" */
  return g_strdup_printf (_("at %s %% acceptance, %d drafted: ~%s× → %s tok/s; measured speed-ups vary"),
                          pct, e->draft_max, speedup, tps);
}

char *
hr_draft_basis_json (const HrEstimate *e)
{
  HrCNumeric c;
  char *text;

  hr_c_numeric_begin (&c);
  text = hr_draft_basis_text (e);
  hr_c_numeric_end (&c);
  return text;
}

const char *
hr_draft_to_string (const HrScenario *s)
{
  switch (s->draft_kind)
    {
    case HR_DRAFT_MTP:
      return "mtp";
    case HR_DRAFT_MODEL:
      return s->draft_model ? s->draft_model->id : "none";
    case HR_DRAFT_NONE:
    default:
      return "none";
    }
}
