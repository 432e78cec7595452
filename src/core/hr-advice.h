/* hr-advice.h — the reverse questions, hardware recommendations, the quant matrix and the
 * written diagnosis, all derived from hr_estimate_compute() */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-estimate.h"

G_BEGIN_DECLS

/* Longest context (tokens, multiple of 256, up to the model's maximum) whose estimate is not
 * "exceeds"; 0 when even HR_MIN_CONTEXT does not fit. */
gint64          hr_advice_max_context       (const HrScenario *scenario);
/* Highest-precision quant of @catalog that fits (GGUF mixes for llama.cpp/Ollama, checkpoint
 * formats for vLLM/SGLang/MLX); NULL when none. */
const HrQuantMix *hr_advice_best_quant      (const HrScenario *scenario,
                                             const HrCatalog *catalog);
/* The quants hr_advice_best_quant() tries for @engine, highest precision first: the engine
 * loads them, and a GGUF mix is one of the matrix's.  Free with g_ptr_array_unref(). */
GPtrArray      *hr_advice_quant_candidates  (HrEngine         engine,
                                             const HrCatalog *catalog);
/* Fewest GPUs of the scenario's kind (1..max_gpus) that fit; 0 when none does. */
int             hr_advice_min_gpus          (const HrScenario *scenario,
                                             int              max_gpus);

/* The three reverse answers together: the diagnosis suggests them as fixes and the Size view
 * shows them as cards, so a caller that needs both computes them once. */
typedef struct
{
  gint64 max_context;           /* hr_advice_max_context() */
  const HrQuantMix *best_quant; /* hr_advice_best_quant(); NULL without a catalog */
  int min_gpus;                 /* hr_advice_min_gpus (scenario, 64) */
} HrReverse;

void            hr_advice_reverse           (const HrScenario *scenario,
                                             const HrCatalog *catalog,
                                             HrReverse       *out);

typedef struct
{
  const HrGpu *gpu;     /* borrowed from the catalog */
  int count;
  double price_usd;     /* count × price; NAN when unknown */
  double decode_tps;
  double required_gib;
  double usable_gib;
  HrVerdict verdict;
} HrPick;

typedef struct
{
  HrPick best_single;    /* cheapest single device that fits with margin, else the largest */
  HrPick best_value;     /* cheapest known price (incl. multi-GPU up to 8 and used cards) */
  HrPick unified;        /* cheapest unified-memory machine that fits */
  const HrOffer *cloud;  /* cheapest cloud offer that fits; NULL when none */
  gboolean have_single, have_value, have_unified;
} HrRecommendations;

void            hr_advice_recommend         (const HrScenario *scenario,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing,
                                             HrRecommendations *out);

/* One hardware configuration: @count devices of one kind. */
typedef struct
{
  const HrGpu *gpu;     /* borrowed from the catalog */
  int count;
  double mem;           /* GiB in all */
  double price;         /* USD in all; NAN when the device has no price */
} HrGpuConfig;

/* Every catalog device with a memory size (user-defined ones and this computer — the ids
 * hr_system_add_to_catalog() adds — left out) × 1, 2, 4 and 8 up to
 * @max_count, a unified-memory machine once; smallest total memory first, at equal memory
 * fewer devices, then priced before unpriced and cheaper first.  Free with g_array_unref(). */
GArray         *hr_advice_gpu_configs       (const HrCatalog *catalog,
                                             int              max_count);

/* The smallest catalog device (single, or ×N up to 8) that fits the scenario; count 0 when none.
 * Every suggestion here (this, the matrix, hr_advice_recommend(), hr_advice_fill_cost()) sizes
 * the scenario as that hardware would run it: the whole model on the GPUs, no offload. */
HrPick          hr_advice_smallest_fit      (const HrScenario *scenario,
                                             const HrCatalog *catalog);

typedef struct
{
  const HrQuantMix *quant;
  HrEstimate estimate;
  HrPick smallest;       /* smallest catalog GPU that fits this quant */
} HrMatrixRow;

/* When the estimate found no cloud offer for the scenario's own GPU, finds the offer for another
 * GPU that runs the scenario cheapest per token (its speed estimated on that hardware) and fills
 * the estimate's suggested_* fields — a suggestion to show as such, never the hardware's own
 * cost_per_mtok_usd.  No-op when the GPU has its own price or no offer fits. */
void            hr_advice_fill_cost         (const HrScenario *scenario,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing,
                                             HrEstimate      *estimate);

/* One row per quant in the matrix (in_matrix quants plus those with a measured size). */
GArray         *hr_advice_quant_matrix      (const HrScenario *scenario,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing);

/* What the Size view shows instead of a run that cannot happen: the first fix the diagnosis
 * suggests (more GPUs, then a smaller quant, a shorter context, offloading layers), applied. */
typedef enum
{
  HR_FIX_NONE,
  HR_FIX_GPUS,
  HR_FIX_QUANT,
  HR_FIX_CONTEXT,
  HR_FIX_OFFLOAD,
} HrFixKind;

typedef struct
{
  HrFixKind kind;
  char label[96];        /* the diagnosis's words for it, translated: "use 2 GPUs", "IQ4_XS" */
  HrScenario scenario;   /* the scenario with the fix applied */
  HrEstimate estimate;   /* its estimate, cost filled as hr_advice_fill_cost() does */
} HrFix;

/* For a scenario that does not fit, the first suggested fix and its estimate; FALSE (kind
 * HR_FIX_NONE) when the scenario fits or nothing suggested makes it fit. */
gboolean        hr_advice_fix               (const HrScenario *scenario,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing,
                                             HrFix           *out);

/* Short written diagnosis lines (translated), e.g. "Does not fit: use 2 GPUs, IQ4_XS, or
 * offload 20 % of layers" and "FP8 KV cache saves 2.87 GiB at 32K". */
GPtrArray      *hr_advice_diagnosis         (const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             const HrCatalog *catalog);
/* The same with the reverse answers already computed by hr_advice_reverse(). */
GPtrArray      *hr_advice_diagnosis_with    (const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             const HrReverse *reverse);

G_END_DECLS
