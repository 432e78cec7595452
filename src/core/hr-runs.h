/* hr-runs.h — what an engine measured: llama-bench results and engine startup logs
 *
 * A user pastes or drops what their engine printed; the readers here turn it into runs, each a
 * scenario as far as the text says it plus the figures the engine measured.  hr-runs-check.c
 * maps a run onto the catalog and puts Headroom's prediction beside each figure.
 *
 * Plain data, no GObject.  Every reader refuses what it cannot read with a one-line reason and
 * never trusts a length, count or number from the text.
 */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-estimate.h"

G_BEGIN_DECLS

#define HR_RUNS_ERROR (hr_runs_error_quark ())
GQuark hr_runs_error_quark (void);

typedef enum
{
  HR_RUNS_ERROR_FORMAT,    /* not an output Headroom reads */
  HR_RUNS_ERROR_INVALID,   /* recognised, but a figure is missing, malformed or out of range */
  HR_RUNS_ERROR_LIMIT,     /* larger than any real output */
} HrRunsError;

/* What printed the text. */
typedef enum
{
  HR_RUN_BENCH_MARKDOWN,   /* llama-bench, its default markdown table */
  HR_RUN_BENCH_CSV,        /* llama-bench -o csv */
  HR_RUN_BENCH_JSON,       /* llama-bench -o json (or jsonl) */
  HR_RUN_LLAMA_LOG,        /* llama.cpp / llama-server load log */
  HR_RUN_VLLM_LOG,         /* vLLM startup log */
  HR_RUN_SGLANG_LOG,       /* SGLang startup log */
  HR_N_RUN_FORMATS
} HrRunFormat;

/* The figures a run can measure; each is compared with the estimate's own. */
typedef enum
{
  HR_MEASURE_DECODE,      /* tokens/s per sequence (llama-bench tgN) */
  HR_MEASURE_PREFILL,     /* prompt tokens/s (llama-bench ppN) */
  HR_MEASURE_WEIGHTS,     /* bytes of weights on the accelerators (all of them) */
  HR_MEASURE_KV,          /* bytes of KV cache on the accelerators */
  HR_MEASURE_BUFFERS,     /* bytes of the engine's compute buffers on the accelerators */
  HR_MEASURE_KV_TOKENS,   /* tokens the vLLM/SGLang KV pool holds */
  HR_N_MEASURES
} HrMeasure;

/* Longest input the readers take: real outputs are kilobytes, a long log a few megabytes. */
#define HR_RUNS_MAX_BYTES  (16 * 1024 * 1024)
#define HR_RUNS_MAX_RUNS   4096

typedef struct
{
  HrRunFormat format;
  int line;             /* 1-based line (markdown, CSV, logs) or object index + 1 (JSON) */
  char *model;          /* as the run names it: file name, repo or path; NULL when unsaid */
  char *model_type;     /* llama.cpp's description, "qwen2 7B Q4_K - Medium"; NULL */
  char *quant;          /* the catalog's quant id when the run says which ("Q4_K_M"); NULL */
  char *quant_method;   /* vLLM/SGLang: a --quantization that does not name the format by
                         * itself ("compressed-tensors"), when nothing else names it; NULL */
  char *device;         /* the accelerator as named ("NVIDIA GeForce RTX 4080"); NULL */
  char *backend;        /* "CUDA", "Vulkan", "Metal,BLAS" …; NULL */
  char *build;          /* "8cf427ff (5163)", "vLLM 0.10.2"; NULL */
  double model_bytes;   /* llama.cpp's model size (tensor bytes); NAN */
  double params;        /* parameter count; NAN */
  int ngl;              /* layers on the GPU; -1 when unsaid or "all" */
  int n_ubatch;         /* 0 when unsaid */
  int n_cpu_moe;
  int flash_attn;       /* -1 unsaid/auto, 0 off, 1 on */
  char type_k[12];      /* "f16", "q8_0" …; "" when unsaid */
  char type_v[12];
  int n_prompt;         /* llama-bench test: ppN … */
  int n_gen;            /* … or tgN */
  gint64 depth;         /* "@ dN": tokens already in the context */
  gint64 n_ctx;         /* logs: the context (vLLM: max_model_len); 0 when unsaid */
  int n_seq;            /* logs: sequences (llama.cpp n_seq_max); 0 when unsaid */
  int n_devices;        /* accelerators the run used (log devices, vLLM/SGLang TP); 0 unsaid */
  double gpu_mem_util;  /* vLLM --gpu-memory-utilization / SGLang mem_fraction_static; NAN */
  double measured[HR_N_MEASURES];  /* NAN where the run does not say */
} HrRun;

void         hr_run_free                (HrRun           *run);

/* Reads every run in @text (@length bytes; NUL-terminated when negative), recognising the
 * format itself.  Returns an array of HrRun (owning), or NULL with @error set: the text is not
 * an output Headroom reads, says no figure, or is malformed (the message names the line). */
GPtrArray   *hr_runs_parse              (const char      *text,
                                         gssize           length,
                                         GError         **error);

const char  *hr_run_format_to_string    (HrRunFormat      format);  /* "llama-bench-markdown" … */
const char  *hr_run_format_display      (HrRunFormat      format);  /* translated */
const char  *hr_measure_to_string       (HrMeasure        measure); /* "decode_tps" … */
const char  *hr_measure_display         (HrMeasure        measure); /* translated */
/* The catalog quant a llama.cpp file-type description names: "Q4_K - Medium" → "Q4_K_M",
 * "BF16" → "BF16"; NULL when not one llama.cpp prints. */
const char  *hr_run_quant_from_ftype    (const char      *ftype);

/* What the user tells about runs whose text does not say it (vLLM rarely names the GPU). */
typedef struct
{
  const char *model_id;   /* catalog id or name; NULL: from the run */
  const char *gpu_id;     /* catalog id or name; NULL: from the run */
  int n_gpus;             /* 0: from the run */
  const char *quant;      /* catalog quant id; NULL: from the run */
  GArray *calibrations;   /* the user's HrDeviceCalibration (hr-user-calibration.h), borrowed;
                           * NULL: predict without */
} HrRunHints;

/* What a run left unsaid that kept it from being predicted: the hint that would map it. */
typedef enum
{
  HR_RUN_MISSING_NONE,
  HR_RUN_MISSING_MODEL,   /* give HrRunHints.model_id (CLI --model) */
  HR_RUN_MISSING_GPU,     /* give HrRunHints.gpu_id (CLI --gpu) */
  HR_RUN_MISSING_QUANT,   /* give HrRunHints.quant (CLI --quant) */
  HR_RUN_MISSING_OTHER,   /* nothing the user can add: the reason says why */
} HrRunMissing;

/* One run set against Headroom's prediction for the same scenario. */
typedef struct
{
  HrRun *run;                 /* borrowed */
  gboolean mapped;            /* a scenario could be built; otherwise @reason says why */
  char *reason;               /* NULL when mapped; translated */
  HrRunMissing missing;       /* what would map it */
  const HrModel *model;       /* borrowed from the catalog */
  const HrGpu *gpu;           /* borrowed */
  HrScenario scenario;
  HrEstimate estimate;
  double predicted[HR_N_MEASURES];  /* NAN where the run measured nothing to compare */
  double error[HR_N_MEASURES];      /* predicted / measured − 1; NAN likewise */
} HrRunCheck;

void         hr_run_check_free          (HrRunCheck      *check);

/* Maps @run to a scenario on @catalog (with @hints, may be NULL) and predicts it.  Never fails:
 * a run it cannot map fully comes back with mapped FALSE and the reason, the measured figures
 * kept. */
HrRunCheck  *hr_run_check               (HrRun           *run,
                                         const HrCatalog *catalog,
                                         const HrRunHints *hints);

/* The catalog model a run's name points at: its file or repo name ("Qwen2.5-7B-Instruct-
 * Q4_K_M.gguf", "Qwen/Qwen2.5-7B-Instruct") against every model's id, name and repos, and its
 * parameter count when the run gives one (within 6 %).  NULL when none or several match. */
const HrModel *hr_run_find_model        (const HrCatalog *catalog,
                                         const char      *name,
                                         double           params);
/* The catalog GPU an engine's device name points at ("NVIDIA GeForce RTX 4090",
 * "Radeon RX 7900 XTX", "Apple M2 Max"); NULL when none or several match. */
const HrGpu *hr_run_find_gpu            (const HrCatalog *catalog,
                                         const char      *device);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrRun, hr_run_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrRunCheck, hr_run_check_free)

G_END_DECLS
