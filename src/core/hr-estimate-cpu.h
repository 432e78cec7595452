/* hr-estimate-cpu.h — llama.cpp's CPU backend: decode from RAM bandwidth, prefill from cores
 *
 * Kept apart from hr-estimate.c so the GPU speed laws and these can be refitted separately.
 */
#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Dense FLOP/s one CPU core reaches in llama.cpp's prefill (quantized mat-muls), fitted on
 * public CPU llama-bench pp512 rows (see hr-estimate-cpu.c). */
#define HR_CPU_PREFILL_FLOPS_PER_CORE 60e9

/* TRUE when the scenario runs on llama.cpp's CPU backend. */
gboolean        hr_estimate_cpu_backend     (const HrScenario *scenario);
/* Bytes/s the decode streams weights at: the CPU device's RAM bandwidth, or — when a GPU's
 * scenario is forced to the CPU backend — the system RAM's (the scenario's, else the default
 * for the platform).  NAN when unknown. */
double          hr_estimate_cpu_bandwidth   (const HrScenario *scenario);
/* Achieved prefill FLOP/s from the device's cores; NAN when its cores are unknown. */
double          hr_estimate_cpu_flops       (const HrScenario *scenario);

G_END_DECLS
