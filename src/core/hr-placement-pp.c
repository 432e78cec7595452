/* hr-placement-pp.c — vLLM and SGLang on different GPUs: one pipeline stage per device (#31)
 *
 * Tensor parallelism shards every layer alike over its GPUs, so different GPUs run as pipeline
 * stages instead (vLLM `--tensor-parallel-size 1 --pipeline-parallel-size N`, SGLang
 * `--tp 1 --pp-size N`): each stage holds whole layers and their KV cache, the first the token
 * embedding, the last the final norm and the output head (and, with tied embeddings, the
 * embedding again: vLLM's LlamaModel keeps embed_tokens on the first rank and, when
 * tie_word_embeddings, on the last, where lm_head.tie_weights () shares it).
 *
 * What each stage holds comes from the estimate of the whole model on one device of its kind
 * (hr_estimate_compute () with one GPU), as hr-placement.c does for llama.cpp: the bytes of one
 * layer, of the embedding and the head, one layer's KV cache, the profile memory.  Then:
 *  - its KV pool is what its own worker finds free after its stage's weights and profile run
 *    (vLLM gpu_worker.determine_available_memory), and every stage keeps the same number of
 *    blocks, the smallest (vllm/v1/core/kv_cache_utils.py get_kv_cache_configs: "Change the
 *    num_blocks of each rank to the smallest among all ranks"); a request's tokens occupy a
 *    block on every stage, so SGLang's requests are bounded by its smallest stage alike;
 *  - the sampler's profile run is the last stage's only (GPUModelRunner.profile_run), and each
 *    stage captures CUDA graphs of its own layers;
 *  - the stages are the engine's own even partition (vllm/distributed/utils.py
 *    get_pp_indices: num_hidden_layers // pp_size each, the remainder one more each on the
 *    stages before the last, partitions[-i] for i in 2 … remainder + 1; SGLang's copy in
 *    python/sglang/srt/distributed/utils.py gives the remainder to the last stages), unless
 *    that does not fit: then the partition that holds the most KV blocks on every stage,
 *    which the launch sets with VLLM_PP_LAYER_PARTITION / SGLANG_PP_LAYER_PARTITION.
 */
#include "hr-placement.h"
#include "hr-calibration.h"
#include "hr-estimate-private.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const HrScenario *s;
  int n, L;
  int kind[HR_MAX_PLAN_DEVICES];          /* index into s->kinds */
  HrScenario one[HR_MAX_DEVICE_KINDS];    /* one device of each kind */
  HrEstimate *base;                       /* per kind: the whole model on one such device */
  double layer, embd, head, kv_layer, kv_token_layer;
  double expert_layer;                    /* routed experts of a layer that has them */
  int moe_first;                          /* the first layer with routed experts */
  double page;                            /* tokens per KV block */
} Pipe;

void
hr_placement_pp_default (HrEngine  engine,
                         int       n_layer,
                         int       pp_size,
                         int      *parts)
{
  int each, rem;

  g_return_if_fail (pp_size > 0 && n_layer >= 0);

  each = n_layer / pp_size;
  rem = n_layer % pp_size;
  for (int i = 0; i < pp_size; i++)
    parts[i] = each;
  if (engine == HR_ENGINE_SGLANG)
    {
      /* "the last N partitions will have one extra layer, where N = remainder" */
      for (int i = pp_size - rem; i < pp_size; i++)
        parts[i]++;
    }
  else
    {
      /* for i in range(2, remaining_layers + 2): partitions[-i] += 1 */
      for (int i = 2; i < rem + 2; i++)
        parts[pp_size - i]++;
    }
}

static const HrEstimate *
base_of (const Pipe *x,
         int         j)
{
  return &x->base[x->kind[j]];
}

/* Stage @j's profile memory: the whole model's less the sampler (not the last stage) and the
 * CUDA graphs of the layers it does not hold (vLLM).  SGLang keeps activations and graphs in
 * its reserve, sized by the fraction alike on every stage. */
static double
stage_compute (const Pipe *x,
               int         j,
               int         layers)
{
  const HrScenario *one = &x->one[x->kind[j]];
  double c = base_of (x, j)->compute_bytes;

  if (x->s->engine != HR_ENGINE_VLLM)
    return c;
  if (j != x->n - 1)
    c -= hr_estimate_server_sampler_bytes (one);
  c += hr_estimate_server_graph_bytes (one, layers) - hr_estimate_server_graph_bytes (one, x->L);
  return MAX (c, 0);
}

/* Stage @j's weights with @layers layers from layer @start: the experts in the layers that
 * have them (hr-placement.c mixed_init ()). */
static double
stage_weights (const Pipe *x,
               int         j,
               int         start,
               int         layers)
{
  int moe = MAX (start + layers - MAX (start, x->moe_first), 0);

  return layers * x->layer + moe * x->expert_layer + (j == 0 ? x->embd : 0) + (j == x->n - 1 ? x->head : 0);
}

/* KV blocks stage @j's pool holds with @layers layers from layer @start (real-valued). */
static double
stage_blocks (const Pipe *x,
              int         j,
              int         start,
              int         layers)
{
  const HrScenario *one = &x->one[x->kind[j]];
  double pool = hr_estimate_server_stage_pool (one, stage_weights (x, j, start, layers),
                                               stage_compute (x, j, layers));
  double block = layers * x->kv_token_layer * x->page;

  return block > 0 ? pool / block : G_MAXDOUBLE;
}

/* Fills @p's stages for @parts; the common blocks in @blocks_out. */
static void
evaluate (const Pipe   *x,
          const int    *parts,
          HrPlacement  *p,
          double       *blocks_out)
{
  double blocks = G_MAXDOUBLE;
  int start = 0;

  memset (p, 0, sizeof *p);
  p->split = HR_SPLIT_PIPELINE;
  p->n_devices = x->n;
  p->gpu_layers = -1;
  p->slowest = -1;
  for (int j = 0; j < x->n; start += parts[j], j++)
    blocks = MIN (blocks, floor (stage_blocks (x, j, start, parts[j])));
  start = 0;
  for (int j = 0; j < x->n; start += parts[j], j++)
    {
      HrDevicePlan *d = &p->devices[j];
      const HrEstimate *b = base_of (x, j);
      const HrScenario *one = &x->one[x->kind[j]];
      double phys = one->gpu->memory_gib * HR_GIB;

      d->gpu = one->gpu;
      d->layers = parts[j];
      d->output = j == x->n - 1;
      d->weights_bytes = stage_weights (x, j, start, parts[j]);
      d->kv_bytes = x->kv_layer * parts[j];
      d->compute_bytes = stage_compute (x, j, parts[j]);
      d->runtime_bytes = b->runtime_bytes;
      d->required_bytes = d->weights_bytes + d->kv_bytes + d->compute_bytes + d->runtime_bytes;
      d->physical_bytes = phys;
      /* what check_capacity () gives one device of a server engine */
      d->usable_bytes = MIN (phys * (1.0 - x->s->reserve), phys * hr_estimate_mem_fraction (one));
      d->margin_bytes = d->usable_bytes - d->required_bytes;
      d->verdict = hr_verdict_for (d->required_bytes, phys, d->usable_bytes);
      d->kv_pool_bytes = blocks < G_MAXDOUBLE ? blocks * parts[j] * x->kv_token_layer * x->page : 0;
      d->decode_seconds = NAN;
    }
  *blocks_out = blocks < G_MAXDOUBLE ? blocks : 0;
}

static gboolean
all_fit (const HrPlacement *p)
{
  for (int j = 0; j < p->n_devices; j++)
    if (p->devices[j].verdict == HR_VERDICT_EXCEEDS)
      return FALSE;
  return TRUE;
}

/* The partition with the most common KV blocks: each stage one layer, then every further
 * layer to the stage that keeps the most blocks after taking it (the smallest stage's count
 * is what every stage gets, so this raises the minimum). */
static void
most_blocks (const Pipe *x,
             int        *parts)
{
  for (int j = 0; j < x->n; j++)
    parts[j] = 1;
  for (int left = x->L - x->n; left > 0; left--)
    {
      int best = 0;
      double most = -G_MAXDOUBLE;

      for (int j = 0, start = 0; j < x->n; start += parts[j], j++)
        {
          double b = stage_blocks (x, j, start, parts[j] + 1);

          if (b > most)
            {
              most = b;
              best = j;
            }
        }
      parts[best]++;
    }
}

/* One decode step passes the stages in turn: each reads its layers (and the head on the
 * last) at its own rate, the estimate's memory time on that GPU; one token's host work; a
 * hand-over per extra stage, llama.cpp's measured one (no vLLM figure is published). */
static void
pipe_decode (const Pipe *x,
             HrEstimate *out)
{
  const HrScenario *s = x->s;
  HrPlacement *p = &out->placement;
  double step = 0, read = 0, worst = -1, host = 0, fixed;

  for (int j = 0; j < x->n; j++)
    {
      HrDevicePlan *d = &p->devices[j];
      const HrEstimate *b = base_of (x, j);
      double whole = b->bytes_per_token * s->batch;
      double kv_r = b->kv_read_bytes / x->L;
      double layer_r = (whole - b->kv_read_bytes - x->head) / x->L;
      double bytes = d->layers * (layer_r + kv_r) + (d->output ? x->head : 0);

      host = hr_estimate_step_host_seconds (&x->one[x->kind[j]]);
      d->decode_seconds = (1.0 / b->decode_tps - host) * bytes / whole;
      step += d->decode_seconds;
      read += bytes;
      if (d->decode_seconds > worst)
        {
          worst = d->decode_seconds;
          p->slowest = j;
        }
    }
  fixed = host + (x->n - 1) * hr_calibration_speed (hr_scenario_backend (&x->one[x->kind[0]]),
                                                     s->engine_version)->t_hop_us * 1e-6;
  step += fixed;
  out->bytes_per_token = read / s->batch;
  hr_placement_write_decode (out, p->slowest >= 0 ? base_of (x, p->slowest) : NULL, step, fixed,
                             s->batch, x->n, FALSE);
}

/* One prompt passes the stages in turn, each its layers' share at its own rate. */
static void
pipe_prefill (const Pipe *x,
              HrEstimate *out)
{
  const HrPlacement *p = &out->placement;
  double t = 0, most = -1;

  for (int j = 0; j < x->n; j++)
    {
      double part = (double) p->devices[j].layers / x->L / base_of (x, j)->prefill_tps;

      t += part;
      if (part > most)
        {
          most = part;
          out->prefill_basis = base_of (x, j)->prefill_basis;
        }
    }
  if (isfinite (t) && t > 0)
    {
      const HrEstimate *b = base_of (x, 0);

      out->prefill_tps = 1.0 / t;
      out->prefill_tps_low = out->prefill_tps * b->prefill_tps_low / b->prefill_tps;
      out->prefill_tps_high = out->prefill_tps * b->prefill_tps_high / b->prefill_tps;
    }
  else
    out->prefill_tps = out->prefill_tps_low = out->prefill_tps_high = NAN;
  out->ttft_ms = isfinite (out->prefill_tps)
                 ? x->s->prompt_tokens / out->prefill_tps * 1000.0 +
                   (isfinite (out->decode_tps) ? 1000.0 / out->decode_tps : 0)
                 : NAN;
}

/* The totals are the sums of the stages'; the pool and the requests are the common blocks'. */
static void
pipe_sum (const Pipe *x,
          double      blocks,
          HrEstimate *out)
{
  const HrPlacement *p = &out->placement;
  double pool = 0, concurrency = G_MAXDOUBLE;
  HrVerdict worst;

  worst = hr_placement_sum_devices (out);
  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];

      pool += d->kv_pool_bytes;
      /* a request of the context on this stage: its share of the asked sequences' cache */
      if (d->kv_bytes > 0)
        concurrency = MIN (concurrency, d->kv_pool_bytes / (d->kv_bytes / x->s->batch));
    }
  out->overhead_bytes = out->compute_bytes + out->runtime_bytes;
  out->system_ram_bytes = out->weights_ram_bytes = 0;
  out->host_compute_bytes = 0;
  out->margin_bytes = out->usable_bytes - out->required_bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  out->verdict = worst;
  /* per GPU: the stages' pools on average; the tokens and requests they hold together */
  out->kv_pool_bytes = pool / p->n_devices;
  out->kv_capacity_tokens = blocks * x->page;
  out->max_concurrency = concurrency < G_MAXDOUBLE ? concurrency : 0;
  out->cost_per_mtok_usd = out->offer_usd_per_hour = NAN;
  out->offer_label[0] = '\0';
  out->suggested_cost_per_mtok_usd = out->suggested_usd_per_hour = NAN;
  out->suggested_label[0] = '\0';
}

gboolean
hr_placement_pipeline (const HrScenario *s,
                       HrEstimate       *out,
                       GError          **error)
{
  Pipe x;
  int parts[HR_MAX_PLAN_DEVICES], even[HR_MAX_PLAN_DEVICES];
  HrPlacement p;
  double blocks, util;
  int seqs;
  const HrEstimate *b;
  const HrModel *m = s->model;

  g_return_val_if_fail (hr_scenario_is_mixed (s) && hr_engine_is_server_like (s->engine), FALSE);

  if (s->offload_pct > 0 || s->n_cpu_moe > 0)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED,
                   "%s's CPU offload (--cpu-offload-gb) is not sized across pipeline stages of different "
                   "GPUs: set the offload to 0, or use llama.cpp's layer split (--engine llama.cpp)",
                   hr_engine_display_name (s->engine));
      return FALSE;
    }
  memset (&x, 0, sizeof x);
  x.s = s;
  x.base = g_new0 (HrEstimate, HR_MAX_DEVICE_KINDS);
  {
    HrScenario first = *s;

    /* one memory fraction and one scheduler for every stage, as the engine's arguments are
     * one for all its workers: the first GPU's (without tensor parallelism) when the user
     * sets none */
    first.n_kinds = 0;
    first.n_gpus = 1;
    util = hr_estimate_mem_fraction (&first);
    seqs = hr_estimate_max_num_seqs (&first);
  }
  for (int k = 0; k < s->n_kinds; k++)
    {
      HrScenario *one = &x.one[k];

      *one = *s;
      one->n_kinds = 0;
      memset (one->kinds, 0, sizeof one->kinds);
      one->gpu = s->kinds[k].gpu;
      one->n_gpus = 1;
      one->gpu_mem_util = util;
      one->max_num_seqs = seqs;
      if (!hr_estimate_compute (one, NULL, &x.base[k], error))
        {
          g_free (x.base);
          return FALSE;
        }
      for (int c = 0; c < s->kinds[k].count; c++)
        x.kind[x.n++] = k;
    }
  if (m->n_layers < x.n)
    {
      g_free (x.base);
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "%s has %d layers: too few for %d pipeline stages", m->name ? m->name : m->id,
                   m->n_layers, x.n);
      return FALSE;
    }

  /* the layers' bytes as one device holds the whole model */
  b = &x.base[0];
  x.L = m->n_layers;
  x.embd = b->weights.embd_bytes;
  x.head = m->tie_embeddings ? b->weights.embd_bytes : b->weights.output_bytes;
  {
    int moe_layers = hr_model_is_moe (m) ? MIN (hr_model_moe_layers (m), x.L) : 0;
    double rest = MAX (b->weights_gpu - x.embd - (m->tie_embeddings ? 0 : x.head), 0);
    double experts = moe_layers > 0 ? MIN (b->weights.expert_bytes, rest) : 0;

    x.moe_first = x.L - moe_layers;
    x.expert_layer = moe_layers > 0 ? experts / moe_layers : 0;
    x.layer = (rest - experts) / x.L;
  }
  x.kv_layer = b->kv_bytes / x.L;
  x.kv_token_layer = b->kv_bytes_per_token / x.L;
  x.page = s->engine == HR_ENGINE_SGLANG ? 1 : HR_VLLM_BLOCK;

  hr_placement_pp_default (s->engine, x.L, x.n, even);
  memcpy (parts, even, sizeof parts);
  evaluate (&x, parts, &p, &blocks);
  if (!all_fit (&p))
    {
      HrPlacement q;
      double q_blocks;

      most_blocks (&x, parts);
      evaluate (&x, parts, &q, &q_blocks);
      if (all_fit (&q))
        {
          p = q;
          blocks = q_blocks;
          p.custom_stages = memcmp (parts, even, x.n * sizeof *parts) != 0;
        }
      else
        memcpy (parts, even, sizeof parts);
    }

  *out = x.base[x.kind[x.n - 1]];
  out->placement = p;
  pipe_sum (&x, blocks, out);
  pipe_decode (&x, out);
  pipe_prefill (&x, out);
  g_free (x.base);
  return TRUE;
}

char *
hr_placement_pp_partition (const HrEstimate *e)
{
  GString *parts;

  if (e->placement.split != HR_SPLIT_PIPELINE || e->placement.n_devices < 2)
    return NULL;
  parts = g_string_new (NULL);
  for (int j = 0; j < e->placement.n_devices; j++)
    g_string_append_printf (parts, "%s%d", j > 0 ? "," : "", e->placement.devices[j].layers);
  return g_string_free (parts, FALSE);
}
