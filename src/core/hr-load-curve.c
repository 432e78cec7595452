/* hr-load-curve.c — decode throughput under load (hr-load-curve.h)
 *
 * The model of a serving engine under a closed loop of N clients (vllm bench serve
 * --max-concurrency N, SGLang bench_serving alike): each client sends a request of
 * prompt_tokens, reads output_tokens back and sends the next.
 *
 * One engine step carries every running decode (one token each) and, in what is left of the
 * step's token budget, a chunk of an arriving request's prompt.  That is vLLM's scheduler
 * (vllm/v1/core/sched/scheduler.py, Scheduler.schedule(): token_budget starts at
 * max_num_scheduled_tokens, the RUNNING requests are scheduled first, then the WAITING ones
 * take what budget is left, a long prompt in chunks), SGLang's chunked prefill mixed with
 * decode, and llama-server's update_slots() (sampled tokens first, prompt tokens up to
 * n_batch).  So:
 *   - a decode step at batch d is the estimate's own batched decode step (hr_estimate_compute()
 *     at --batch d, depth prompt + output / 2): the weight read shared by the d sequences,
 *     each sequence's KV read, the compute roof;
 *   - a step that also carries c prompt tokens takes c × the estimate's prefill time per
 *     token longer;
 *   - in a steady state the prompt tokens per step are d × prompt / output (every output
 *     token a request yields pays for prompt / output of its prompt), at most the budget left;
 *     a client's own prompt runs before its first token, so its TPOT sees the others' prompts
 *     only, (N − 1) / N of them;
 *   - the requests decoding, d, are the clients less those whose prompt is still running.
 * The curve ends where the KV pool holds no more requests of prompt + output tokens (vLLM
 * admits a waiting request only when allocate_slots() finds its blocks), or at llama-server's
 * slots.
 */
#include "hr-load-curve.h"
#include "hr-estimate-private.h"
#include "hr-calibration.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define LLAMA_SERVER_N_BATCH 2048  /* llama-server's -b: tokens per update_slots() batch */

/* vLLM's per-step host time (scheduling, input preparation, output processing: 1.3 ms; SGLang
 * overlaps it, 0) is part of the estimate's decode step, hr_estimate_step_host_seconds() in
 * hr-estimate-server.c: each decode step here is the estimate's, so the curve's first point
 * and the Decode card are one figure. */

/* A serving engine runs a prompt chunk as one GEMM over up to the step's whole token budget
 * (2048–8192 rows), not in llama.cpp's 512-token ubatches, so its tensor cores reach the
 * usual large-GEMM share of their dense peak (cuBLAS BF16 at M >= 2048 on Ampere/Hopper).
 * The estimate's prefill figure is llama.cpp's; the curve takes whichever is faster. */
#define SERVER_GEMM_UTIL 0.60

gboolean
hr_load_curve_applies (const HrScenario *s)
{
  if (s == NULL || s->model == NULL || s->gpu == NULL)
    return FALSE;
  if (hr_engine_is_server_like (s->engine))
    return hr_estimate_serving_applies (s);
  return hr_engine_is_llama_like (s->engine) && s->batch > 1;
}

typedef struct
{
  const HrScenario *s;
  HrScenario step;        /* the scenario at the step's batch */
  double t_prefill;       /* seconds per prompt token */
  double host;            /* seconds per step of host work, inside the estimate's step */
  double budget;          /* tokens per step */
  double prompt, output;
  int cached_batch;
  double cached_t;
  gboolean cached_compute;
} Load;

/* Seconds of one decode step at @d sequences (the estimate's batched decode). */
static gboolean
decode_step (Load     *l,
             double    d,
             double   *t,
             gboolean *compute_bound)
{
  int batch = (int) CLAMP (lround (d), 1, HR_MAX_BATCH);
  HrEstimate e;

  if (batch != l->cached_batch)
    {
      l->step.batch = batch;
      if (!hr_estimate_compute (&l->step, NULL, &e, NULL) || !isfinite (e.decode_tps) || e.decode_tps <= 0)
        return FALSE;
      l->cached_batch = batch;
      l->cached_t = 1.0 / e.decode_tps;
      l->cached_compute = e.compute_bound;
    }
  *t = l->cached_t;
  *compute_bound = l->cached_compute;
  return TRUE;
}

/* One point of the curve at @n clients. */
static gboolean
load_point (Load        *l,
            int          n,
            HrLoadPoint *p)
{
  double P = l->prompt, O = l->output, B = l->budget;
  /* the most requests that can decode while the prompts still keep up: d × P / O ≤ B − d */
  double d_sat = B * O / (O + P);
  double d = n, t_d = 0, t_user = 0, life = 0, pre_tokens = 0, chunk;
  gboolean compute = FALSE, saturated = FALSE;

  for (int i = 0; i < 30; i++)
    {
      double t_pre, d_next;

      d = MIN (d, d_sat);
      if (!decode_step (l, d, &t_d, &compute))
        return FALSE;
      chunk = MIN (P, MAX (B - d, 1));
      pre_tokens = MIN (d * P / O, MAX (B - d, 0));
      t_user = t_d + (n - 1.0) / n * pre_tokens * l->t_prefill;
      /* a request's own prompt: ceil (P / chunk) steps, each a decode step with a chunk */
      t_pre = ceil (P / chunk) * (t_d + chunk * l->t_prefill);
      life = t_pre + O * t_user;
      d_next = n * O * t_user / life;
      if (fabs (d_next - d) < 1e-3)
        {
          d = d_next;
          break;
        }
      d = 0.5 * (d + d_next);
    }
  if (d >= d_sat - 1e-9)
    saturated = TRUE;
  p->concurrency = n;
  p->decoding = d;
  p->per_user_tps = 1.0 / t_user;
  /* clients each get O tokens per life; when prompts saturate the budget, the steps carry
   * d_sat decodes and fill the rest with prompt */
  p->total_tps = saturated ? MIN (n * O / life, d / (t_d + (B - d) * l->t_prefill)) : n * O / life;
  /* the prompts' matrix work outweighs the step's reads: compute-bound too */
  p->bound = compute || saturated || pre_tokens * l->t_prefill > t_d ? HR_LOAD_BOUND_COMPUTE
                                                                       : HR_LOAD_BOUND_MEMORY;
  return TRUE;
}

/* Sets @l up for @s; the KV bound in *@limit. */
static gboolean
load_setup (Load             *l,
            const HrScenario *s,
            const HrEstimate *base,
            int               output_tokens,
            int              *limit,
            GError          **error)
{
  double per_request;

  if (!hr_load_curve_applies (s))
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "throughput under load needs vLLM or SGLang, or llama.cpp serving more than one sequence");
      return FALSE;
    }
  if (base->verdict == HR_VERDICT_EXCEEDS || !isfinite (base->decode_tps))
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   base->verdict == HR_VERDICT_EXCEEDS ? "the model does not fit: no load to serve"
                                                       : "the decode speed is not known here");
      return FALSE;
    }

  memset (l, 0, sizeof *l);
  l->s = s;
  l->step = *s;
  l->prompt = MAX (s->prompt_tokens, 1);
  l->output = CLAMP (output_tokens, 1, HR_MAX_CONTEXT);
  per_request = MIN ((double) s->context, l->prompt + l->output);
  /* decode at the middle of a request's output */
  l->step.depth = MIN (s->context, (gint64) (l->prompt + l->output / 2));
  l->t_prefill = isfinite (base->prefill_tps) && base->prefill_tps > 0 ? 1.0 / base->prefill_tps : 0;
  if (hr_engine_is_server_like (s->engine))
    {
      double peak = hr_calibration_tensor_flops (s->gpu) * MAX (s->n_gpus, 1);

      l->budget = hr_estimate_batched_tokens (s);
      l->host = hr_estimate_step_host_seconds (s);
      if (isfinite (peak) && peak > 0 && base->flops_per_token > 0)
        l->t_prefill = l->t_prefill > 0 ? MIN (l->t_prefill, base->flops_per_token / (peak * SERVER_GEMM_UTIL))
                                        : base->flops_per_token / (peak * SERVER_GEMM_UTIL);
      if (!(base->kv_capacity_tokens > 0))
        {
          g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                       "the KV-cache pool holds no request");
          return FALSE;
        }
      *limit = (int) MIN (floor (base->kv_capacity_tokens / per_request), (double) hr_estimate_max_num_seqs (s));
    }
  else
    {
      /* llama-server: each slot has its own cells; the slots are the bound */
      l->budget = LLAMA_SERVER_N_BATCH;
      *limit = s->batch;
    }
  *limit = MIN (*limit, HR_MAX_BATCH);
  if (*limit < 1)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "the KV-cache pool holds no request of %.0f tokens", per_request);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_load_curve_point (const HrScenario *s,
                     const HrEstimate *base,
                     int               output_tokens,
                     int               concurrency,
                     HrLoadPoint      *out,
                     GError          **error)
{
  Load l;
  int limit;

  g_return_val_if_fail (s != NULL && base != NULL && out != NULL, FALSE);
  if (!load_setup (&l, s, base, output_tokens, &limit, error))
    return FALSE;
  if (concurrency < 1 || concurrency > limit || !load_point (&l, concurrency, out))
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "no decode speed at %d requests (the KV cache holds %d)", concurrency, limit);
      return FALSE;
    }
  if (concurrency == limit)
    out->bound = HR_LOAD_BOUND_KV;
  return TRUE;
}

gboolean
hr_load_curve_compute (const HrScenario *s,
                       const HrEstimate *base,
                       double            min_user_tps,
                       HrLoadCurve      *out,
                       GError          **error)
{
  return hr_load_curve_compute_output (s, base, min_user_tps, HR_LOAD_DEFAULT_OUTPUT, out, error);
}

gboolean
hr_load_curve_compute_output (const HrScenario *s,
                              const HrEstimate *base,
                              double            min_user_tps,
                              int               output_tokens,
                              HrLoadCurve      *out,
                              GError          **error)
{
  Load l;
  int limit, lo, hi;

  g_return_val_if_fail (s != NULL && base != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  out->min_user_tps = min_user_tps;
  out->target_per_user_tps = out->target_total_tps = out->target_cost_per_mtok_usd = NAN;
  if (!load_setup (&l, s, base, output_tokens, &limit, error))
    return FALSE;
  out->prompt_tokens = (int) l.prompt;
  out->output_tokens = (int) l.output;
  out->step_tokens = (int) l.budget;
  out->kv_limit = limit;
  out->step_host_ms = l.host * 1e3;

  for (int n = 1; out->n_points < HR_LOAD_MAX_POINTS; n = n >= limit ? limit + 1 : MIN (n * 2, limit))
    {
      HrLoadPoint *p = &out->points[out->n_points];

      if (n > limit)
        break;
      if (!load_point (&l, n, p))
        {
          g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                       "the decode speed at %d requests is not known", n);
          return FALSE;
        }
      if (n == limit)
        p->bound = HR_LOAD_BOUND_KV;
      out->n_points++;
    }

  /* the most clients at >= the target each: per-user speed falls with n, so bisect */
  if (isfinite (min_user_tps) && min_user_tps > 0 && out->points[0].per_user_tps >= min_user_tps)
    {
      HrLoadPoint p;

      lo = 1, hi = limit;
      while (lo < hi)
        {
          int mid = lo + (hi - lo + 1) / 2;

          if (load_point (&l, mid, &p) && p.per_user_tps >= min_user_tps)
            lo = mid;
          else
            hi = mid - 1;
        }
      load_point (&l, lo, &p);
      out->target_concurrency = lo;
      out->target_per_user_tps = p.per_user_tps;
      out->target_total_tps = p.total_tps;
      if (isfinite (base->offer_usd_per_hour) && p.total_tps > 0)
        out->target_cost_per_mtok_usd = base->offer_usd_per_hour / (p.total_tps * 3600.0) * 1e6;
    }
  return TRUE;
}

const char *
hr_load_bound_to_string (HrLoadBound bound)
{
  switch (bound)
    {
    case HR_LOAD_BOUND_COMPUTE:
      return "compute";
    case HR_LOAD_BOUND_KV:
      return "kv";
    case HR_LOAD_BOUND_MEMORY:
    default:
      return "memory";
    }
}

const char *
hr_load_bound_display (HrLoadBound bound)
{
  switch (bound)
    {
    case HR_LOAD_BOUND_COMPUTE:
      return _("compute-bound");
    case HR_LOAD_BOUND_KV:
      return _("KV cache full");
    case HR_LOAD_BOUND_MEMORY:
    default:
      return _("memory-bound");
    }
}

void
hr_load_curve_json_members (HrJsonWriter      *w,
                            const HrLoadCurve *c)
{
  gboolean met = c != NULL && c->target_concurrency > 0;

  hr_json_key (w, "load_curve");
  if (c == NULL)
    hr_json_null (w);
  else
    {
      hr_json_begin_array (w);
      for (int i = 0; i < c->n_points; i++)
        {
          const HrLoadPoint *p = &c->points[i];

          hr_json_begin_object_inline (w);
          hr_json_member_int (w, "concurrency", p->concurrency);
          hr_json_member_number (w, "per_user_tps", p->per_user_tps, 1);
          hr_json_member_number (w, "total_tps", p->total_tps, 1);
          hr_json_member_string (w, "bound", hr_load_bound_to_string (p->bound));
          hr_json_end_object (w);
        }
      hr_json_end_array (w);
    }
  hr_json_key (w, "load_prompt_tokens");
  c != NULL ? hr_json_int (w, c->prompt_tokens) : hr_json_null (w);
  hr_json_key (w, "load_output_tokens");
  c != NULL ? hr_json_int (w, c->output_tokens) : hr_json_null (w);
  hr_json_key (w, "load_step_tokens");
  c != NULL ? hr_json_int (w, c->step_tokens) : hr_json_null (w);
  hr_json_key (w, "load_kv_limit");
  c != NULL ? hr_json_int (w, c->kv_limit) : hr_json_null (w);
  hr_json_member_number (w, "min_user_tps", c != NULL ? c->min_user_tps : NAN, 1);
  hr_json_key (w, "load_users");
  met ? hr_json_int (w, c->target_concurrency) : hr_json_null (w);
  hr_json_member_number (w, "load_per_user_tps", met ? c->target_per_user_tps : NAN, 1);
  hr_json_member_number (w, "load_total_tps", met ? c->target_total_tps : NAN, 1);
  hr_json_member_number (w, "load_cost_per_mtok_usd", met ? c->target_cost_per_mtok_usd : NAN, 2);
}

char *
hr_load_curve_target_text (const HrLoadCurve *c)
{
  char a[64], d[64];

  if (c == NULL || c->target_concurrency <= 0)
    return NULL;
  hr_format_number_locale_buf (a, sizeof a, c->min_user_tps, 0);
  if (isfinite (c->target_cost_per_mtok_usd))
    {
      hr_format_number_locale_buf (d, sizeof d, c->target_cost_per_mtok_usd, 2);
      /* TRANSLATORS: "12 users at ≥ 30 tok/s each, $0.41 per 1M tokens" */
      return g_strdup_printf (ngettext ("%d user at ≥ %s tok/s each, $%s per 1M tokens",
                                        "%d users at ≥ %s tok/s each, $%s per 1M tokens",
                                        c->target_concurrency),
                              c->target_concurrency, a, d);
    }
  return g_strdup_printf (ngettext ("%d user at ≥ %s tok/s each",
                                    "%d users at ≥ %s tok/s each", c->target_concurrency),
                          c->target_concurrency, a);
}

void
hr_load_curve_text (const HrLoadCurve *c,
                    GString           *out)
{
  g_autofree char *target = NULL;
  char a[64], b[64];

  if (c == NULL || c->n_points == 0)
    return;
  g_string_append_printf (out, _("Throughput under load (%d-token prompts, %d-token answers):"),
                          c->prompt_tokens, c->output_tokens);
  g_string_append_c (out, '\n');
  g_string_append_printf (out, "  %8s  %12s  %12s  %s\n", _("Users"), _("Per user"), _("Total"), _("Bound"));
  for (int i = 0; i < c->n_points; i++)
    {
      const HrLoadPoint *p = &c->points[i];

      hr_format_number_locale_buf (a, sizeof a, p->per_user_tps, 1);
      hr_format_number_locale_buf (b, sizeof b, p->total_tps, 0);
      g_string_append_printf (out, "  %8d  %12s  %12s  %s\n", p->concurrency, a, b,
                              hr_load_bound_display (p->bound));
    }
  if ((target = hr_load_curve_target_text (c)) != NULL)
    g_string_append_printf (out, "  %s\n", target);
  else if (isfinite (c->min_user_tps))
    {
      hr_format_number_locale_buf (a, sizeof a, c->min_user_tps, 0);
      g_string_append_printf (out, _("  Not even one user gets %s tok/s here"), a);
      g_string_append_c (out, '\n');
    }
}
