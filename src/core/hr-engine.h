/* hr-engine.h — the inference engines, looked up in one table (hr-engine-list.h) */
#pragma once

#include <glib.h>
#include "hr-quant.h"
#include "hr-quant-format.h"

G_BEGIN_DECLS

typedef enum
{
#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) HR_ENGINE_##e,
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY
  HR_N_ENGINES
} HrEngine;

/* How an engine runs a model, which decides how its memory is accounted. */
typedef enum
{
  HR_ENGINE_FAMILY_LLAMA,    /* ggml engines: llama.cpp's KV cells, backends, layer offload */
  HR_ENGINE_FAMILY_SERVER,   /* PyTorch servers: a pre-allocated KV pool of paged blocks */
  HR_ENGINE_FAMILY_MLX,      /* Apple MLX: lazy evaluation, a rotating or quantized cache */
} HrEngineFamily;

#define HR_KV_BIT(k) (1u << (k))

/* Sets of formats and KV types the table's entries share. */
#define HR_LOADS_GGUF_FILES (HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_GGUF) |   \
                             HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_FLOAT) |  \
                             HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_MXFP4))
#define HR_LOADS_CHECKPOINTS (HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_FLOAT) | \
                              HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_FP8) |   \
                              HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_INT8) |  \
                              HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_INT4) |  \
                              HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_MXFP4) | \
                              HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_NVFP4))
#define HR_KV_GGML_TYPES (HR_KV_BIT (HR_KV_F16) | HR_KV_BIT (HR_KV_Q8_0) | HR_KV_BIT (HR_KV_Q4_0))
#define HR_KV_FP8_TYPES  (HR_KV_BIT (HR_KV_F16) | HR_KV_BIT (HR_KV_FP8))

typedef struct
{
  HrEngine engine;
  const char *id;           /* "llama.cpp", "vllm" … */
  const char *name;         /* "vLLM" */
  HrEngineFamily family;
  guint loads;              /* HR_QUANT_FORMAT_BIT set */
  guint kv_types;           /* HR_KV_BIT set */
} HrEngineInfo;

/* The table entry of @engine; NULL when it is out of range. */
const HrEngineInfo *hr_engine_info            (HrEngine        engine);

const char     *hr_engine_to_string         (HrEngine         engine);
const char     *hr_engine_display_name      (HrEngine         engine);
/* Accepts an id in any case, and without its punctuation ("llamacpp", "llama-cpp"). */
gboolean        hr_engine_from_string       (const char      *str,
                                             HrEngine        *engine);
/* Every id / display name in table order, NULL-terminated: for combo rows and their
 * GSettings mappings. */
const char * const *hr_engine_ids           (void);
const char * const *hr_engine_names         (void);
/* Every id joined with @separator, in table order: "llama.cpp|vllm|…". */
char           *hr_engine_list_ids          (const char      *separator);

/* llama-like: a ggml engine (llama.cpp, Ollama): per-slot KV cells, a llama.cpp backend,
 * layers and experts offloadable to system RAM. */
gboolean        hr_engine_is_llama_like     (HrEngine         engine);
/* server-like: pre-allocates --gpu-memory-utilization and fills it with a KV pool. */
gboolean        hr_engine_is_server_like    (HrEngine         engine);
gboolean        hr_engine_loads_format      (HrEngine         engine,
                                             HrQuantFormat    format);
/* Whether @engine loads quant @quant as such (not a substitute of another format). */
gboolean        hr_engine_loads_quant       (HrEngine         engine,
                                             const char      *quant);
/* The ids of the engines that load @quant, joined with @separator, in table order:
 * "llama.cpp,ollama" for Q4_K_M.  This is what `list quants` shows; the catalog does not
 * say it, so the two cannot disagree. */
char           *hr_engine_list_loading      (const char      *quant,
                                             const char      *separator);
gboolean        hr_engine_has_kv_type       (HrEngine         engine,
                                             HrKvType         kv);
/* Its 8-bit KV cache: FP8 where it has one, else q8_0. */
HrKvType        hr_engine_kv_8bit           (HrEngine         engine);

G_END_DECLS
