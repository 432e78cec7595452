/* hr-calibration.h — the few measured constants behind the speed and buffer estimates
 *
 * Fitted against reference/bench_dev.csv and memory_dev.csv by tests/accuracy; see README
 * "How accurate is it?" for the resulting errors.  One set per llama.cpp backend family.
 */
#pragma once

#include "hr-gpu.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  double bw_eff;          /* fraction of peak DRAM bandwidth reached when decoding */
  double t_layer_us;      /* fixed cost per layer per decoded token (kernel launches, sync) */
  double t_token_us;      /* fixed cost per decoded token (sampling, graph launch) */
  double prefill_util;    /* fraction of dense FP16 tensor TFLOPS reached in prefill */
  double runtime_mib;     /* the backend's own context on the device (CUDA context …) */
  double decode_low;      /* multiplicative range around the decode estimate */
  double decode_high;
  double prefill_low;
  double prefill_high;
} HrCalibration;

const HrCalibration *hr_calibration_for       (HrBackend        backend);
/* System-RAM bandwidth (GB/s) assumed for offloaded weights when the user gives none. */
double               hr_calibration_sysram_gbs (const HrGpu     *gpu);
/* Prefill rate per GPU core per billion active parameters for devices that publish no
 * tensor TFLOPS (Apple): fitted on Metal llama-bench pp512 rows. */
double               hr_calibration_metal_pp_per_core (void);

G_END_DECLS
