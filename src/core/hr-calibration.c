/* hr-calibration.c — fitted constants per backend family (see hr-calibration.h) */
#include "hr-calibration.h"

#include <math.h>

/* Initial values from the physics (peak bandwidth is never reached: ~70-85 % on GDDR/HBM with
 * good kernels); refined by the fit in tests/accuracy. */
static const HrCalibration calibrations[HR_N_BACKENDS] = {
  [HR_BACKEND_CUDA]   = { "CUDA",   0.78, 6.0, 300, 0.45, 350, 0.85, 1.15, 0.70, 1.30 },
  [HR_BACKEND_ROCM]   = { "ROCm",   0.62, 9.0, 400, 0.30, 400, 0.80, 1.20, 0.60, 1.40 },
  [HR_BACKEND_METAL]  = { "Metal",  0.75, 6.0, 400, 0.50, 0,   0.85, 1.15, 0.70, 1.30 },
  [HR_BACKEND_VULKAN] = { "Vulkan", 0.65, 9.0, 500, 0.30, 300, 0.80, 1.20, 0.60, 1.40 },
  [HR_BACKEND_SYCL]   = { "SYCL",   0.50, 12.0, 600, 0.25, 400, 0.75, 1.25, 0.55, 1.45 },
  [HR_BACKEND_CPU]    = { "CPU",    0.60, 2.0, 200, 0.50, 0,   0.75, 1.25, 0.60, 1.40 },
  [HR_BACKEND_CANN]   = { "CANN",   0.45, 15.0, 800, 0.25, 500, 0.70, 1.30, 0.50, 1.50 },
  [HR_BACKEND_MUSA]   = { "MUSA",   0.50, 12.0, 600, 0.25, 400, 0.70, 1.30, 0.50, 1.50 },
  [HR_BACKEND_OTHER]  = { "vendor stack", 0.50, 12.0, 600, 0.25, 500, 0.65, 1.35, 0.50, 1.50 },
};

const HrCalibration *
hr_calibration_for (HrBackend backend)
{
  if ((guint) backend >= HR_N_BACKENDS)
    backend = HR_BACKEND_OTHER;
  return &calibrations[backend];
}

double
hr_calibration_sysram_gbs (const HrGpu *gpu)
{
  /* Offloaded layers run at the host's DRAM speed: dual-channel DDR5 desktops (~80 GB/s
   * peak) behind consumer cards, 8–12-channel servers (~300 GB/s) behind datacenter parts.
   * Unified machines have no separate system RAM: offload reads the same memory. */
  if (gpu == NULL)
    return 80;
  switch (gpu->form)
    {
    case HR_FORM_DATACENTER:
      return 300;
    case HR_FORM_WORKSTATION:
      return 150;
    case HR_FORM_UNIFIED:
      return isfinite (gpu->bandwidth_gbs) ? gpu->bandwidth_gbs : 100;
    case HR_FORM_CONSUMER:
    default:
      return 80;
    }
}

double
hr_calibration_metal_pp_per_core (void)
{
  return NAN;
}
