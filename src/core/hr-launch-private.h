/* hr-launch-private.h — what the per-engine launch builders (hr-launch-*.c) share */
#pragma once

#include "hr-launch.h"

G_BEGIN_DECLS

/* Pending separator before the next word of a shell text. */
typedef enum
{
  SEP_NONE,
  SEP_SPACE,
  SEP_CONTINUE,   /* " \\\n  " */
  SEP_NEWLINE,
} HrShellSep;

/* A shell text being written: one command per line, continuations, "# …" comments. */
typedef struct
{
  GString *out;
  HrShellSep sep;
} HrShell;

/* What every engine's builder needs about the scenario. */
typedef struct
{
  const HrScenario *sc;
  const HrEstimate *est;    /* what this command loads, sized for its engine; may be NULL */
  const char *loaded;       /* the weights it loads when not the scenario's quant, else NULL */
  HrEngineLoad load;        /* what it loads (hr_engine_load ()): est->load when sized */
  const char *gguf_file;    /* local GGUF the model came from, may be NULL */
  const HrModel *model;
  const HrGpu *gpu;
  HrBackend backend;
  const char *quant;        /* scenario quant, "BF16" when unset */
  HrQuantFormat format;     /* hr_quant_format (quant) */
  int n_gpus;
  int batch;
  gint64 context;
  double util;              /* --gpu-memory-utilization / --mem-fraction-static */
} HrLaunchCtx;

/* An engine's launch builder (named in hr-engine-list.h): its single-node command, or with
 * @plan its multi-node command; NULL when it has none for this hardware. */
typedef HrLaunchCommand *(*HrLaunchBuilder) (const HrLaunchCtx    *c,
                                             const HrParallelPlan *plan);

#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) \
  HrLaunchCommand *builder (const HrLaunchCtx *c, const HrParallelPlan *plan);
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY


/* ---- shell text (hr-launch-shell.c) ---- */

void              hr_sh_init          (HrShell    *sh);
/* Appends @text (already shell-safe) as the next word. */
void              hr_sh_raw           (HrShell    *sh,
                                       const char *text);
void              hr_sh_rawf          (HrShell    *sh,
                                       const char *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* Appends @word quoted as needed. */
void              hr_sh_arg           (HrShell    *sh,
                                       const char *word);
/* Appends "@flag @value" with @value quoted. */
void              hr_sh_opt           (HrShell    *sh,
                                       const char *flag,
                                       const char *value);
/* The next word starts a continuation line of the same command. */
void              hr_sh_break         (HrShell    *sh);
/* The next word starts a new command. */
void              hr_sh_end           (HrShell    *sh);
void              hr_sh_comment       (HrShell    *sh,
                                       const char *text);
char             *hr_sh_free          (HrShell    *sh);

void              hr_launch_note_add  (GString    *notes,
                                       const char *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* A figure for a command-line flag: two decimals and '.' in every locale ("0.90"). */
const char       *hr_launch_fmt2      (char       *buf,
                                       gsize       size,
                                       double      value);
HrLaunchCommand  *hr_launch_command_new (HrEngine    engine,
                                         const char *title,
                                         char       *command,
                                         GString    *notes);
gboolean          hr_launch_has_prefix_ci (const char *str,
                                           const char *prefix);

/* ---- what every builder asks about the scenario (hr-launch.c) ---- */

/* The GGUF tag llama.cpp and Ollama load for the scenario's quant. */
const char       *hr_launch_gguf_tag  (const HrLaunchCtx *c);
void              hr_launch_note_gguf_substitute (const HrLaunchCtx *c,
                                                  GString           *notes,
                                                  const char        *engine);
const char       *hr_launch_model_short_name (const HrModel *m);
/* The local GGUF file for -m (*@is_real_file: the user's own file). */
char             *hr_launch_gguf_path (const HrLaunchCtx *c,
                                       gboolean          *is_real_file);
/* Pull the GGUF from its Hugging Face repository, unless the user opened a local file. */
gboolean          hr_launch_use_gguf_repo (const HrLaunchCtx *c);
gboolean          hr_launch_has_hf_repo (const HrModel *m);
gboolean          hr_launch_native_is_fp8 (const HrModel *m);
gboolean          hr_launch_kv_quantized (HrKvType kv);
/* The context note and the "it will not load" note every command carries. */
void              hr_launch_note_common (const HrLaunchCtx *c,
                                         GString           *notes);
/* GiB per GPU vLLM/SGLang should keep in CPU memory (--cpu-offload-gb); 0 for none. */
int               hr_launch_cpu_offload_gib_per_gpu (const HrLaunchCtx *c);

G_END_DECLS
