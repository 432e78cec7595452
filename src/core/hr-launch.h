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
  char loaded_quant[32]; /* what it loads (hr_engine_load ()): the quant its notes size */
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

#define HR_LAUNCH_DEFAULT_GPUS_PER_NODE 8

/* hr_launch_commands() for a model opened from a local GGUF file: llama.cpp and Ollama load
 * @gguf_file (quoted as needed; may be NULL).  @estimate may be NULL in both. */
GPtrArray      *hr_launch_commands_for_file (const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             const char       *gguf_file);

/* @word quoted for a POSIX shell: returned as is when it holds only [A-Za-z0-9_@%+=:,./-],
 * otherwise in single quotes (an embedded ' becomes '\''). Never NULL. */
char           *hr_launch_shell_quote       (const char      *word);
/* @cmd's command with the line continuations (" \\\n  ") replaced by single spaces. */
char           *hr_launch_command_one_line  (const HrLaunchCommand *cmd);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrLaunchCommand, hr_launch_command_free)

G_END_DECLS
