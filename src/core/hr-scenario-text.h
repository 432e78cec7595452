/* hr-scenario-text.h — a scenario in words, the same in every view and chart */
#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* "Q4_K_M · 8K context · 1 sequence · F16 KV cache · llama.cpp (ROCm)", then, when set,
 * "· 20% of layers in system RAM" and "· experts of 4 layers on the CPU": the line under a
 * scenario's title in the Size, Compare and Cloud views and on every chart. */
char           *hr_scenario_summary         (const HrScenario *scenario);

G_END_DECLS
