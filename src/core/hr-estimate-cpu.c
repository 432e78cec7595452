/* hr-estimate-cpu.c — llama.cpp's CPU backend speeds (see hr-estimate-cpu.h)
 *
 * Weights, KV cache and buffers all live in system RAM, so a decoded token streams the active
 * weights from DRAM: the RAM bandwidth sets the rate, not the GPU's.  Prefill is compute-bound
 * on the cores.
 */
#include "hr-estimate-cpu.h"
#include "hr-calibration.h"

#include <math.h>

gboolean
hr_estimate_cpu_backend (const HrScenario *s)
{
  return hr_scenario_backend (s) == HR_BACKEND_CPU;
}

double
hr_estimate_host_bandwidth (const HrScenario *s)
{
  if (isfinite (s->sysram_bandwidth_gbs) && s->sysram_bandwidth_gbs > 0)
    return s->sysram_bandwidth_gbs * 1e9;
  if (s->gpu->host_ram_gbs > 0)
    return s->gpu->host_ram_gbs * 1e9;
  return hr_calibration_sysram_gbs (s->gpu) * 1e9;
}

double
hr_estimate_cpu_bandwidth (const HrScenario *s)
{
  const HrGpu *gpu = s->gpu;

  if (gpu->backend == HR_BACKEND_CPU)
    return isfinite (gpu->bandwidth_gbs) && gpu->bandwidth_gbs > 0 ? gpu->bandwidth_gbs * 1e9 : NAN;
  return hr_estimate_host_bandwidth (s);
}

double
hr_estimate_cpu_flops (const HrScenario *s)
{
  if (s->gpu->cpu_cores <= 0)
    return NAN;
  return s->gpu->cpu_cores * HR_CPU_PREFILL_FLOPS_PER_CORE;
}
