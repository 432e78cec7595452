/* hr-estimate-cpu.h — llama.cpp's CPU backend: decode from RAM bandwidth, prefill from cores
 *
 * Kept apart from hr-estimate.c so the GPU speed laws and these can be refitted separately.
 */
#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Dense FLOP/s one CPU core reaches in llama.cpp's prefill (quantized mat-muls): the middle
 * of public CPU llama-bench pp512 rows of Llama-3.2-3B Q4_K_M (6.5 GFLOP per token), per
 * thread used: Core i5-4278U 2 threads 17.70 t/s = 57 GFLOPS (geerlingguy/ai-benchmarks#53),
 * Core i3-1315U 2 threads 28.67 t/s = 93 (geerlingguy/sbc-reviews#107), Radxa Dragon Q8B 8
 * threads 72.31 t/s = 59 (geerlingguy/ai-benchmarks#54), Cix CP8180 12 threads 81.27 t/s = 44
 * (geerlingguy/ai-benchmarks#51); 2025-26 builds. */
#define HR_CPU_PREFILL_FLOPS_PER_CORE 60e9

/* TRUE when the scenario runs on llama.cpp's CPU backend. */
gboolean        hr_estimate_cpu_backend     (const HrScenario *scenario);
/* Bytes/s the decode streams weights at: the CPU device's RAM bandwidth, or — when a GPU's
 * scenario is forced to the CPU backend — the system RAM's (the scenario's, else the default
 * for the platform).  NAN when unknown. */
double          hr_estimate_cpu_bandwidth   (const HrScenario *scenario);
/* System-RAM bandwidth (bytes/s) for offloaded weights: the scenario's, the detected host's,
 * else the default for the platform. */
double          hr_estimate_host_bandwidth  (const HrScenario *scenario);
/* Achieved prefill FLOP/s from the device's cores; NAN when its cores are unknown. */
double          hr_estimate_cpu_flops       (const HrScenario *scenario);

G_END_DECLS
