/* hr-scenario.h — what the user asked: one model on N accelerators with these settings */
#pragma once

#include <glib.h>
#include "hr-model.h"
#include "hr-gpu.h"
#include "hr-quant.h"
#include "hr-engine.h"

G_BEGIN_DECLS

/* Which builds of the engine the figures describe: speeds (llama.cpp) and engine memory (vLLM)
 * changed enough between 2024 and current releases that both stay selectable. */
typedef enum
{
  HR_ENGINE_VERSION_CURRENT = 0,   /* 2025 on: CUDA graphs, flash attention by default, … */
  HR_ENGINE_VERSION_2024,          /* the 2023–24 builds of the first calibration */
  HR_N_ENGINE_VERSIONS
} HrEngineVersion;

#define HR_SCENARIO_ERROR (hr_scenario_error_quark ())
typedef enum
{
  HR_SCENARIO_ERROR_INVALID,   /* a parameter is out of range */
  HR_SCENARIO_ERROR_UNSUPPORTED, /* the engine cannot run this setup (a mixed set under vLLM) */
} HrScenarioError;

#define HR_MIN_CONTEXT     256
#define HR_MAX_CONTEXT     (1 << 24)   /* 16M tokens */
#define HR_MAX_GPUS        1024
#define HR_MAX_BATCH       4096
#define HR_DEFAULT_RESERVE 0.05
#define HR_DEFAULT_GPU_MEM_UTIL 0.90   /* vLLM's --gpu-memory-utilization default */
#define HR_DEFAULT_PROMPT  4096
#define HR_MAX_NUM_SEQS    65536
#define HR_MAX_DEVICE_KINDS 8      /* different GPUs in one setup */
#define HR_MAX_MIXED_GPUS   16     /* devices of a mixed setup, all kinds together */
#define HR_MAX_DRAFT_TOKENS 64     /* speculative decoding: tokens drafted per target pass */

/* Speculative decoding (#31): who drafts the tokens the model verifies (hr-draft.h). */
typedef enum
{
  HR_DRAFT_NONE = 0,
  HR_DRAFT_MODEL,    /* a smaller model of the same tokenizer (draft_model) */
  HR_DRAFT_MTP,      /* the model's own multi-token-prediction layers */
} HrDraftKind;

/* Which vision projector the scenario counts (#31).  llama.cpp keeps a multimodal model's
 * vision tower in a file of its own (an mmproj GGUF) that `llama-server -hf` downloads and loads
 * beside the model unless told --no-mmproj (docs/multimodal.md,
 * https://raw.githubusercontent.com/ggml-org/llama.cpp/master/docs/multimodal.md); vLLM and
 * SGLang build the vision tower from the checkpoint itself and load its weights with the rest
 * (vllm/model_executor/models/gemma3_mm.py and python/sglang/srt/models/gemma3_mm.py:
 * Gemma3ForConditionalGeneration.__init__ makes self.vision_tower = SiglipVisionModel (…),
 * load_weights fills it), so there it is part of the model's weights (vision_params), never a
 * projector of its own. */
typedef enum
{
  HR_MMPROJ_FILE = 0,  /* exactly the projector in mmproj_bytes / mmproj_encoder / mmproj_path
                        * (a file the user named, a Hub repo's); mmproj_bytes 0: none */
  HR_MMPROJ_AUTO,      /* the projector of whatever model this is: its catalog/Hub/beside-the-GGUF
                        * projector (model->mmproj_bytes) where the engine loads one (llama.cpp);
                        * the ranking applies it model by model */
  HR_MMPROJ_NONE,      /* no projector (llama-server --no-mmproj) */
} HrMmprojMode;

/* One kind of device in a setup: a catalog/custom GPU and how many of it (hr-placement.h). */
typedef struct
{
  const HrGpu *gpu;         /* borrowed */
  int count;
} HrDeviceKind;

typedef struct
{
  const HrModel *model;     /* borrowed */
  const HrGpu *gpu;         /* borrowed */
  int n_gpus;               /* tensor-parallel group size (>= 1) */
  char quant[32];           /* quant id, "Q4_K_M" */
  gint64 context;           /* tokens per sequence */
  gint64 depth;             /* tokens already in the context while decoding; -1: the context */
  int batch;                /* concurrent sequences */
  HrKvType kv_type;
  HrEngine engine;
  HrEngineVersion engine_version; /* CURRENT */
  /* vLLM minor release whose memory profiler sizes the KV pool (10: 0.10, 21: 0.21); 0: the
   * newest modelled.  Only under engine_version CURRENT; no knob sets it, the accuracy replay
   * does from a startup log's version (hr-estimate-server.c says what changed when). */
  int server_release;
  HrBackend backend;        /* llama.cpp backend; default from the GPU */
  gboolean backend_set;     /* FALSE: use gpu->backend */
  double offload_pct;       /* percent of layers kept in system RAM (0..100) */
  int n_cpu_moe;            /* MoE: layers whose experts stay on the CPU */
  double reserve;           /* fraction of physical memory held back (0.05) */
  double unified_share;     /* 0: the GPU's default share; else the user's override */
  int prompt_tokens;        /* for TTFT (4096) */
  /* tokens already in the cache when the prompt arrives (0): a follow-up turn, llama-bench's
   * ppN @ dD.  The prompt's tokens attend over them; its ubatches still hold the prompt only. */
  gint64 prompt_depth;
  int ubatch;               /* llama.cpp -ub (512) */
  /* each decode step asks for no output: llama-bench's ppN with -ub 1, N one-token ubatches of
   * which only the batch's last computes logits (hr-estimate.c, no_output_skipped_bytes()).
   * llama.cpp only, one sequence; no knob sets it, the accuracy replay does. */
  gboolean decode_no_output;
  gboolean flash_attn;      /* llama.cpp --flash-attn (TRUE) */
  double gpu_mem_util;      /* vLLM/SGLang --gpu-memory-utilization; 0: the engine's default
                             * (hr_estimate_mem_fraction) */
  int max_num_seqs;         /* vLLM/SGLang --max-num-seqs; 0: the engine's default */
  gboolean enforce_eager;   /* vLLM --enforce-eager / SGLang --disable-cuda-graph: no CUDA graphs */
  gboolean weights_named;   /* the weights are named outside the catalog (a run's log, a repo the
                             * user gives): the engine loads the scenario's quant as such, what
                             * the catalog knows of the model's checkpoints aside (hr_engine_load ()) */
  double sysram_bandwidth_gbs; /* system RAM bandwidth for offload (NAN: default per platform) */
  /* the user's calibration of this device (hr-user-calibration.h), borrowed; NULL: none.  It
   * applies only where its GPU and backend are the scenario's. */
  const struct _HrDeviceCalibration *calibration;
  /* the setup's devices in launch order when they are not alike (hr_scenario_is_mixed ()):
   * gpu is kinds[0].gpu and n_gpus their total count; 0 kinds: n_gpus × gpu */
  HrDeviceKind kinds[HR_MAX_DEVICE_KINDS];
  int n_kinds;
  /* a vision projector (llama.cpp --mmproj, #31): its weights' bytes, exact from its GGUF
   * header (or its file's size from the catalog); 0: none.  Its image encoder's shape sizes
   * the buffer it encodes images in (hr-projector.h); patches 0: that buffer is unknown. */
  HrMmprojMode mmproj_mode; /* FILE (0): the members below as they are; read the projector
                             * counted through hr_scenario_mmproj () */
  double mmproj_bytes;
  HrVisionEncoder mmproj_encoder;
  const char *mmproj_path;  /* borrowed; NULL: none (or llama.cpp fetches it with -hf); under
                             * AUTO, the file beside the model's local GGUF */
  gboolean mmproj_cpu;      /* --no-mmproj-offload: the projector stays in system RAM */
  /* the user's llama.cpp --tensor-split (#31): one proportion per device in launch order, which
   * the layer split follows instead of the plan's own; 0 values: none */
  double tensor_split[HR_MAX_MIXED_GPUS];
  int n_tensor_split;
  /* speculative decoding (#31, hr-draft.h): the draft's weights and KV beside the model's,
   * and the decode speed expected at an acceptance rate, never promised */
  HrDraftKind draft_kind;
  const HrModel *draft_model; /* borrowed; HR_DRAFT_MODEL only */
  double draft_accept;      /* per-token acceptance probability; NAN: the published default */
  int draft_max;            /* tokens drafted per target pass; 0: the engine's default */
} HrScenario;

void            hr_scenario_init            (HrScenario      *scenario,
                                             const HrModel   *model,
                                             const HrGpu     *gpu);
/* Range checks with a message naming the bad value. */
gboolean        hr_scenario_validate        (const HrScenario *scenario,
                                             GError         **error);
HrBackend       hr_scenario_backend         (const HrScenario *scenario);
/* TRUE when the scenario's devices are not all the same GPU (a mixed setup). */
gboolean        hr_scenario_is_mixed        (const HrScenario *scenario);
/* Sets the scenario's devices from @kinds (@n_kinds entries, repeats of one GPU merged): gpu
 * and n_gpus follow, and a single kind is the plain n_gpus × gpu.  FALSE with an error when
 * there are too many kinds or devices. */
gboolean        hr_scenario_set_devices     (HrScenario         *scenario,
                                             const HrDeviceKind *kinds,
                                             int                 n_kinds,
                                             GError            **error);
/* The vision projector the scenario counts (#31): its weights' bytes (0: none) and, when
 * @encoder is not NULL, its image encoder's shape.  FILE: mmproj_bytes as set; AUTO: the
 * model's own projector (model->mmproj_bytes) under llama.cpp, none under vLLM/SGLang (the
 * vision tower is in the checkpoint's weights); NONE: none. */
double          hr_scenario_mmproj          (const HrScenario *scenario,
                                             HrVisionEncoder  *encoder);
/* The file llama-server is told with --mmproj, or NULL (none, or -hf fetches the repo's own). */
const char     *hr_scenario_mmproj_path     (const HrScenario *scenario);
/* "auto", "none" or "file"; and back (FALSE for anything else) */
const char     *hr_mmproj_mode_to_string    (HrMmprojMode     mode);
gboolean        hr_mmproj_mode_from_string  (const char      *str,
                                             HrMmprojMode    *mode);
/* The depth decode speed is given at: the user's, or the full context window. */
gint64          hr_scenario_depth           (const HrScenario *scenario);

const char     *hr_engine_version_to_string (HrEngineVersion  version);
gboolean        hr_engine_version_from_string (const char    *str,
                                             HrEngineVersion *version);
/* Every version's id in HrEngineVersion's order, NULL-terminated: the "engine-version" key's
 * choices, as the Preferences row lists them. */
const char * const *hr_engine_version_ids   (void);
/* What the user reads for @version ("Current (2025 on)"), translated. */
const char     *hr_engine_version_display   (HrEngineVersion  version);

GQuark          hr_scenario_error_quark     (void);

G_END_DECLS
