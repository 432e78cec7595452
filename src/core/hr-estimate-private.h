/* hr-estimate-private.h — what hr-estimate.c and hr-estimate-server.c share */
#pragma once

#include "hr-estimate.h"

G_BEGIN_DECLS

#define HR_VLLM_BLOCK 16   /* vLLM/SGLang page size in tokens */
#define HR_PCIE_GBS   25.0 /* host→device copies of offloaded weights during prefill */
#define HR_CPU_BW_EFF 0.60 /* fraction of DRAM bandwidth a CPU decode reaches */

static inline gint64
hr_pad_up (gint64 value,
           gint64 to)
{
  return (value + to - 1) / to * to;
}

/* vLLM/SGLang's memory on one device beside weights and KV: the profile run's activation
 * peak, CUDA graphs and what torch does not see. */
double          hr_estimate_server_compute  (const HrScenario *s);
/* Seconds of host work each vLLM/SGLang decode step adds to its forward pass (scheduling,
 * input preparation, output processing not overlapped with the GPU; see
 * hr-estimate-server.c): in the estimate's decode and the load curve's steps alike. */
double          hr_estimate_step_host_seconds (const HrScenario *s);
/* The pool per GPU, the tokens it holds and the requests it serves at once: fills
 * @out's driver_memory_bytes, max_num_seqs, kv_pool_bytes, kv_capacity_tokens and
 * max_concurrency (compute_bytes must be set). */
void            hr_estimate_server_capacity (const HrScenario *s,
                                             double            weights_gpu,
                                             HrEstimate       *out);

/* The parts of hr_estimate_server_compute () a pipeline stage holds or not: the sampler's
 * profile run (the last stage's), the CUDA graphs of @n_layers layers; and a stage's KV
 * pool for its weights and profile memory (one GPU: @s->n_gpus 1). */
double          hr_estimate_server_sampler_bytes (const HrScenario *s);
double          hr_estimate_server_graph_bytes (const HrScenario *s,
                                                int               n_layers);
double          hr_estimate_server_stage_pool (const HrScenario *s,
                                               double            weights_stage,
                                               double            compute_stage);

/* A multi-device estimate's totals from its devices' plans; the worst verdict (hr-placement.c) */
HrVerdict       hr_placement_sum_devices    (HrEstimate       *out);
/* A multi-device decode written into the estimate (hr-placement.c) */
void            hr_placement_write_decode   (HrEstimate       *out,
                                             const HrEstimate *slowest_base,
                                             double            step,
                                             double            fixed,
                                             int               batch,
                                             int               n_devices,
                                             gboolean          system_ram);

G_END_DECLS
