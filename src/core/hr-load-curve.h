/* hr-load-curve.h — decode throughput under load: N concurrent requests on a serving engine
 *
 * Per-user and total tokens/s as concurrency doubles, until the KV pool (or llama-server's
 * slots) holds no more requests; what a per-user speed target allows and what a million
 * tokens costs at that load.  Built on hr_estimate_compute(): each point is the estimate's
 * own batched decode step, with the prompts of arriving requests sharing the steps (the
 * engine's per-step token budget, chunked prefill). */
#pragma once

#include <glib.h>
#include "hr-estimate.h"
#include "hr-json-writer.h"

G_BEGIN_DECLS

#define HR_LOAD_DEFAULT_OUTPUT 128   /* tokens per request: vllm bench serve's random dataset
                                      * (--random-output-len 128, with --random-input-len 1024) */
#define HR_LOAD_MAX_POINTS     24

typedef enum
{
  HR_LOAD_BOUND_MEMORY,   /* the step reads weights and KV cache: memory-bound */
  HR_LOAD_BOUND_COMPUTE,  /* the step's matrix work hits the compute roof */
  HR_LOAD_BOUND_KV,       /* the KV pool (or the slots) holds no more requests */
} HrLoadBound;

typedef struct
{
  int concurrency;        /* requests in flight (vllm bench serve --max-concurrency) */
  double per_user_tps;    /* one request's decode speed, 1000 / TPOT */
  double total_tps;       /* output tokens/s over all requests */
  double decoding;        /* of the requests, those decoding (the rest are in prefill) */
  HrLoadBound bound;
} HrLoadPoint;

typedef struct
{
  int n_points;
  HrLoadPoint points[HR_LOAD_MAX_POINTS];
  int prompt_tokens;      /* per arriving request (the scenario's prompt) */
  int output_tokens;      /* per request */
  int step_tokens;        /* the engine's token budget per step */
  int kv_limit;           /* requests the KV pool holds at prompt + output tokens each (or the
                           * llama-server slots); the curve's last point */
  double step_host_ms;    /* the engine's per-step host time, in every step (and in the
                           * estimate's decode: hr-estimate-server.c) */
  /* the target */
  double min_user_tps;    /* NAN: none */
  int target_concurrency; /* the most requests at >= min_user_tps each; 0: not even one */
  double target_per_user_tps;
  double target_total_tps;
  double target_cost_per_mtok_usd; /* at the estimate's offer; NAN when none */
} HrLoadCurve;

/* Whether the curve means anything: vLLM/SGLang with a KV pool, or llama.cpp/Ollama serving
 * more than one sequence (--parallel). */
gboolean        hr_load_curve_applies       (const HrScenario *scenario);

/* The curve for @scenario, whose estimate @base is (hr_estimate_compute () with the same
 * scenario).  @min_user_tps: the per-user speed to meet, or NAN.  FALSE with an error when
 * the curve does not apply or the speeds are unknown. */
gboolean        hr_load_curve_compute       (const HrScenario *scenario,
                                             const HrEstimate *base,
                                             double           min_user_tps,
                                             HrLoadCurve     *out,
                                             GError         **error);

/* `estimate --json`'s members: "load_curve" (an array of {concurrency, per_user_tps,
 * total_tps, bound}) and the target's, written into the object the writer is in; @curve
 * NULL (the curve does not apply) writes them as null, so the keys stay. */
void            hr_load_curve_json_members  (HrJsonWriter    *w,
                                             const HrLoadCurve *curve);
/* The text report's table and the target's sentence, translated. */
void            hr_load_curve_text          (const HrLoadCurve *curve,
                                             GString         *out);
/* "12 users at ≥ 30 tok/s each, $0.41 per 1M tokens" (translated; newly allocated), or NULL
 * when the curve has no target met. */
char           *hr_load_curve_target_text   (const HrLoadCurve *curve);

/* The same with @output_tokens per request instead of HR_LOAD_DEFAULT_OUTPUT (a benchmark's
 * --random-output-len). */
gboolean        hr_load_curve_compute_output (const HrScenario *scenario,
                                             const HrEstimate *base,
                                             double           min_user_tps,
                                             int              output_tokens,
                                             HrLoadCurve     *out,
                                             GError         **error);
/* One point at @concurrency clients (1 … the curve's kv_limit), as the curve computes them. */
gboolean        hr_load_curve_point         (const HrScenario *scenario,
                                             const HrEstimate *base,
                                             int              output_tokens,
                                             int              concurrency,
                                             HrLoadPoint     *out,
                                             GError         **error);

const char     *hr_load_bound_to_string     (HrLoadBound      bound);  /* memory|compute|kv */
const char     *hr_load_bound_display       (HrLoadBound      bound);  /* translated */

G_END_DECLS
