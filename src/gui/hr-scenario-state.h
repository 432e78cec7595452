/* hr-scenario-state.h — what the Size view shows, as plain strings and numbers
 *
 * The core computes; this module only words and formats.  Every function here is a pure
 * mapping from core results (HrScenario, HrEstimate, advice) to a plain struct of strings the
 * widgets apply as they are, so the whole text of the view is tested without a display
 * (tests/test-size-state.c).  No GTK in here.
 */
#pragma once

#include <glib.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-launch.h"

G_BEGIN_DECLS

typedef enum
{
  HR_SIZE_CARD_REQUIRED,  /* required memory, GiB and GB */
  HR_SIZE_CARD_USABLE,    /* usable memory and the physical size */
  HR_SIZE_CARD_MARGIN,    /* margin and utilisation */
  HR_SIZE_CARD_DECODE,    /* decode tok/s, range and basis */
  HR_SIZE_CARD_PREFILL,   /* prefill tok/s and the TTFT */
  HR_SIZE_CARD_COST,      /* cost per 1M tokens or why there is none */
  HR_SIZE_N_CARDS
} HrSizeCardId;

typedef struct
{
  char *caption;  /* "Required memory" */
  char *value;    /* "69.96 GiB" */
  char *detail;   /* "75.12 GB (decimal)" */
  char *note;     /* a longer explanation (decode basis…); may be NULL */
  gboolean not_this_setup;  /* the figure is not what this setup does (a fix applied, or none) */
} HrSizeCard;

typedef struct
{
  gboolean ok;               /* FALSE: the scenario could not be sized; error_text says why */
  HrVerdict verdict;
  const char *verdict_css;   /* "verdict-fits", "verdict-tight", "verdict-exceeds", "verdict-error" */
  const char *verdict_icon;  /* a symbolic icon name, so colour is never the only cue */
  char *verdict_title;       /* "Does not fit" */
  char *verdict_detail;      /* "Needs 70.15 GiB, 60.8 GiB usable …" */
  char *title;               /* "GLM-4.5-Air (110B-A12B) on RTX PRO 6000 Blackwell 96GB" */
  char *subtitle;            /* "Q4_K_M · 8K context · 1 sequence · llama.cpp · ROCm" */
  char *breakdown;           /* "Weights 67.96 GiB · KV cache & state 1.44 GiB · …" */
  char *projector;           /* "Vision projector 0.91 GiB on GPU 1 · RTX 4090: 0.8 GiB weights +
                              * 0.11 GiB image-encode buffer"; NULL without one (#31) */
  char *weights_source;      /* "Weights: measured file size — …" */
  HrSizeCard cards[HR_SIZE_N_CARDS];
  char *simulator_status;    /* "TTFT ~772 ms · ~40.2 tok/s" */
  double simulator_ttft_ms;  /* NAN when unknown */
  double simulator_tps;      /* NAN when unknown */
  char *simulator_note;      /* why the simulator runs something else, or not at all; may be NULL */
} HrSizeState;

void            hr_size_state_init          (HrSizeState       *state);
void            hr_size_state_clear         (HrSizeState       *state);
void            hr_size_state_from_estimate (HrSizeState       *state,
                                             const HrScenario  *scenario,
                                             const HrEstimate  *estimate);
/* A scenario that does not fit does not run: its speed, cost and simulator show @fix's
 * scenario instead, labelled as the suggested fix, or nothing when @fix is NULL or has no
 * fix (the detail says why).  No-op for a scenario that fits. */
void            hr_size_state_apply_fix     (HrSizeState       *state,
                                             const HrFix       *fix);
/* The scenario could not be sized (unknown quant for the model, bad input): the banner says
 * why and the cards show dashes. */
void            hr_size_state_from_error    (HrSizeState       *state,
                                             const HrScenario  *scenario,
                                             const GError      *error);

/* One row of the quantization matrix. */
typedef struct
{
  char *quant;          /* "Q4_K_M" */
  char *label;          /* "4-bit — recommended" */
  char *weights;        /* "67.96 GiB" */
  char *kv;             /* "1.44 GiB" */
  char *total;          /* "70.1 GiB" */
  char *total_gb;       /* "75.27 GB" */
  char *decode;         /* "~143.6 tok/s" */
  HrVerdict verdict;
  char *verdict_text;   /* "Fits with margin" */
  const char *verdict_css;
  const char *verdict_icon;
  char *smallest;       /* "RTX PRO 6000 Blackwell 96GB", "2× A100 80GB SXM", "None" */
  char *smallest_id;    /* GPU id, NULL when none */
  char *source;         /* "Measured", "Derived", "Checkpoint", "GGUF header" */
  gboolean current;     /* the scenario's quant */
} HrMatrixRowState;

void            hr_matrix_row_state_free    (HrMatrixRowState  *row);

/* Reverse answers: longest context, best quant, fewest GPUs. */
typedef enum
{
  HR_REVERSE_CONTEXT,
  HR_REVERSE_QUANT,
  HR_REVERSE_GPUS,
  HR_N_REVERSE
} HrReverseId;

typedef struct
{
  char *title;          /* "Longest context that fits" */
  char *value;          /* "128K (131,072 tokens)" or "Nothing fits" */
  gboolean applicable;  /* there is an answer and it differs from the scenario */
  gint64 context;       /* HR_REVERSE_CONTEXT */
  char quant[32];       /* HR_REVERSE_QUANT */
  int gpus;             /* HR_REVERSE_GPUS */
} HrReverseState;

/* Hardware recommendations. */
typedef enum
{
  HR_PICK_SINGLE,
  HR_PICK_VALUE,
  HR_PICK_UNIFIED,
  HR_PICK_CLOUD,
  HR_N_PICKS
} HrPickId;

typedef struct
{
  char *title;          /* "Best single GPU" */
  char *value;          /* "RTX PRO 6000 Blackwell 96GB" */
  char *detail;         /* "96 GB · ~$8,500 · ~143.6 tok/s" */
  char *gpu_id;         /* what clicking selects; NULL when nothing */
  int count;            /* how many of them */
} HrPickState;

/* Everything the slow, whole-catalog part of the view shows.  Computed off the main thread
 * by hr_advice_state_compute(): it touches only the (read-only) catalog. */
typedef struct
{
  GPtrArray *matrix;      /* HrMatrixRowState* */
  HrReverseState reverse[HR_N_REVERSE];
  HrPickState picks[HR_N_PICKS];
  GPtrArray *diagnosis;   /* char*, translated sentences */
  GPtrArray *launch;      /* HrLaunchCommand* */
  double elapsed_ms;      /* how long the computation took */
} HrAdviceState;

HrAdviceState  *hr_advice_state_compute     (const HrScenario  *scenario,
                                             const HrCatalog   *catalog,
                                             const HrPricing   *pricing);
void            hr_advice_state_free        (HrAdviceState     *state);

/* The context window one power of two up or down from @tokens (the next one past it), as the
 * slider moves by octaves: 8192 → 16384 / 4096; 10000 → 16384 / 8192.  Kept within
 * [HR_MIN_CONTEXT, HR_MAX_CONTEXT]. */
gint64          hr_context_step             (gint64             tokens,
                                             gboolean           up);

/* Formatting shared by the view (display strings in the user's locale) ------------------- */

/* "67.96 GiB", trailing zeros dropped ("60.8 GiB", "76 GiB"); "—" for NAN. */
char           *hr_size_format_gib          (double             bytes);
/* The speed simulator's status line, its times as every other time in the app
 * (hr_format_duration_ms: "~2,097 ms", "~2.097 ms" in German, "~12.5 s"). */
typedef enum
{
  HR_SIMULATOR_IDLE,     /* before a run: the TTFT and the rate */
  HR_SIMULATOR_PROMPT,   /* the prompt being processed: @elapsed_ms of the TTFT */
  HR_SIMULATOR_DONE,     /* @tokens shown in @elapsed_ms */
} HrSimulatorPhase;

char           *hr_size_simulator_text      (HrSimulatorPhase   phase,
                                             double             ttft_ms,
                                             double             tps,
                                             double             elapsed_ms,
                                             guint              tokens);
/* A parameter count with its unit: "110.47 B", "1.7 M", "260 K", "512"; a dash when unknown. */
char           *hr_size_format_params       (double             params);
/* "75.12 GB" */
char           *hr_size_format_gb           (double             bytes);
/* "+6.04 GiB" / "-9.16 GiB" */
char           *hr_size_format_margin       (double             bytes);
/* "~40.2 tok/s" */
char           *hr_size_format_tps          (double             tps);
/* "8K (8,192 tokens)" */
char           *hr_size_format_context      (gint64             tokens);
/* A number with @decimals places, trailing zeros dropped, in the user's locale. */
char           *hr_size_format_number       (double             value,
                                             int                decimals);
/* A whole count grouped in the user's locale: "131,072", "131.072"; "—" for NAN. */
char           *hr_size_format_count        (double             value);
/* "$8,500", "$0.44" */
char           *hr_size_format_usd          (double             usd,
                                             int                decimals);

/* "CUDA", "ROCm", "Metal"… */
const char     *hr_size_backend_display     (HrBackend          backend);
const char     *hr_size_verdict_css         (HrVerdict          verdict);
const char     *hr_size_verdict_icon        (HrVerdict          verdict);

/* Model and GPU one-liners for the pickers. */
char           *hr_size_model_summary       (const HrModel     *model);  /* "110.47 B total · 12 B active · MoE" */
char           *hr_size_gpu_summary         (const HrGpu       *gpu);    /* "96 GB · 1792 GB/s" */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrAdviceState, hr_advice_state_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrSizeState, hr_size_state_clear)

G_END_DECLS
