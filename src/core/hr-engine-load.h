/* hr-engine-load.h — what an engine really loads for the quant the user picked: one table for
 * the estimate, the launch commands, the matrix, compare and the CLI alike */
#pragma once

#include <glib.h>
#include "hr-engine.h"
#include "hr-model.h"

G_BEGIN_DECLS

typedef enum
{
  HR_LOAD_AS_CHOSEN,    /* the engine loads the chosen quant (from @repo when one is known) */
  HR_LOAD_SUBSTITUTE,   /* it loads another file or checkpoint of the model: @quant */
  HR_LOAD_UNSIZED,      /* it loads the official checkpoint, whose format Headroom cannot size:
                         * the chosen quant is sized and the text says so */
} HrLoadKind;

/* Why the engine does not load the chosen quant as such. */
typedef enum
{
  HR_LOAD_REASON_NONE,
  HR_LOAD_REASON_GGUF_ONLY,        /* llama.cpp/Ollama load GGUF files, not checkpoints */
  HR_LOAD_REASON_NO_GGUF_LOADER,   /* the engine has no GGUF loader for this architecture */
  HR_LOAD_REASON_NO_CHECKPOINT,    /* no checkpoint of that format is known for the model */
} HrLoadReason;

typedef struct
{
  HrEngine engine;
  HrLoadKind kind;
  HrLoadReason reason;
  char chosen[32];      /* the quant the user picked */
  char quant[32];       /* the quant sized: what the engine loads */
  const char *repo;     /* the repository holding it, borrowed from the model; NULL: none known */
  gboolean gguf;        /* a server engine loads a GGUF file (vLLM's GGUF loader) */
  gboolean online_fp8;  /* vLLM/SGLang quantize a 16-bit checkpoint to FP8 while loading */
} HrEngineLoad;

/* What @engine loads for @quant of @model. */
void            hr_engine_load              (HrEngine         engine,
                                             const HrModel   *model,
                                             const char      *quant,
                                             HrEngineLoad    *out);
/* The engine that loads @quant of @model as such: @engine when it does, else the first server
 * engine of the table that does (vLLM for an FP8, AWQ, GPTQ… checkpoint, which llama.cpp cannot
 * load); @engine when none does.  For a checkpoint read from the Hub when no engine was named. */
HrEngine        hr_engine_load_pick         (HrEngine         engine,
                                             const HrModel   *model,
                                             const char      *quant);
/* Makes @load the chosen quant, loaded as such from @repo (NULL: not known): for weights named
 * outside the catalog (HrScenario.weights_named). */
void            hr_engine_load_as_chosen    (HrEngineLoad    *load,
                                             const char      *repo);
/* Whether vLLM's GGUF loader maps @model's architecture (vllm/model_executor/model_loader/
 * gguf_loader.py): the table in hr-engine-load.c. */
gboolean        hr_engine_gguf_maps_model   (const HrModel   *model);
/* The sentence that says what is loaded instead and why ("vLLM has no GGUF loader for this
 * model's architecture: it serves the official BF16 checkpoint, sized here."), translated;
 * NULL when the chosen quant is loaded as such.  Newly allocated. */
char           *hr_engine_load_text         (const HrEngineLoad *load);

G_END_DECLS
