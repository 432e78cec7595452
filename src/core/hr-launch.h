/* hr-launch.h — launch commands for the scenario, per engine, incl. multi-node plans */
#pragma once

#include <glib.h>
#include "hr-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  HrEngine engine;
  char *title;      /* "llama.cpp (llama-server)" */
  char *command;    /* shell text, lines joined with " \\\n  " */
  char *note;       /* caveat, may be NULL */
} HrLaunchCommand;

/* A parallel plan when one node is not enough: nodes × (tensor-parallel per node). */
typedef struct
{
  int nodes;
  int gpus_per_node;
  int tensor_parallel;
  int pipeline_parallel;
} HrParallelPlan;

/* Plans TP × PP for the scenario when the model does not fit one node of @gpus_per_node
 * devices; returns FALSE when one node suffices. */
gboolean        hr_launch_plan              (const HrScenario *scenario,
                                             int              gpus_per_node,
                                             HrParallelPlan  *plan);

/* Every engine's command (llama.cpp, vLLM, SGLang, Ollama, MLX where it runs, and the
 * multi-node variants when needed). Array of HrLaunchCommand*, free with
 * g_ptr_array_unref. */
GPtrArray      *hr_launch_commands          (const HrScenario *scenario,
                                             const HrEstimate *estimate);
void            hr_launch_command_free      (HrLaunchCommand *cmd);

G_END_DECLS
