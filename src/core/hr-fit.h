/* hr-fit.h — "what runs here": every model ranked for one hardware setup
 *
 * The reverse of an estimate: given the hardware (the scenario's GPU × count, engine, KV type,
 * reserve …) and the user's needs (a minimum context, a minimum decode speed, concurrent
 * sequences, a use case), each model's best quant that fits, the longest context at it, its
 * speeds and its published quality.  Every figure of a row is the HrEstimate of the row's own
 * scenario, computed by hr_estimate_compute(): `headroom-cli estimate` with the same model,
 * quant, context and hardware gives the same numbers.
 */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-quality.h"

G_BEGIN_DECLS

#define HR_FIT_DEFAULT_CONTEXT 8192

typedef enum
{
  HR_FIT_SORT_QUALITY,   /* published quality at the quant, best first (default) */
  HR_FIT_SORT_SPEED,     /* decode tokens/s, fastest first */
  HR_FIT_SORT_SIZE,      /* parameters, largest model first */
  HR_FIT_SORT_CONTEXT,   /* longest context that fits first */
  HR_N_FIT_SORTS
} HrFitSort;

const char     *hr_fit_sort_to_string       (HrFitSort        sort);   /* quality|speed|size|context */
gboolean        hr_fit_sort_from_string     (const char      *str,
                                             HrFitSort       *sort);

/* What the user needs from a model. */
typedef struct
{
  gint64 min_context;     /* tokens per sequence; HR_FIT_DEFAULT_CONTEXT */
  double min_decode_tps;  /* per sequence; 0: any */
  HrUseCase use_case;
  double host_ram_gib;    /* system RAM beside the GPU for expert offload; 0: the GPU's
                           * host_ram_gib (this computer), else no offload is tried */
  HrFitSort sort;
} HrFitNeeds;

void            hr_fit_needs_init           (HrFitNeeds      *needs);

/* One way to run a model. */
typedef struct
{
  const HrQuantMix *quant;   /* NULL: there is no such choice */
  HrScenario scenario;       /* exactly what was estimated (model, quant, context, n_cpu_moe) */
  HrEstimate estimate;       /* hr_estimate_compute (&scenario) */
  gint64 max_context;        /* hr_advice_max_context (&scenario) */
  double quality;            /* the published figure after the quant's cost; NAN: unknown */
} HrFitChoice;

/* Why a model is left out. */
typedef enum
{
  HR_FIT_WHY_NONE,          /* it is listed */
  HR_FIT_WHY_MEMORY,        /* even the smallest quant needs more than is usable */
  HR_FIT_WHY_SPEED,         /* fits, but slower than the minimum at every quant */
  HR_FIT_WHY_CONTEXT,       /* the model's own context window is shorter than the minimum */
  HR_FIT_WHY_NO_QUANT,      /* the engine loads none of the quants it could be sized at */
} HrFitWhy;

typedef struct
{
  const HrModel *model;      /* borrowed from the caller's list */
  HrFitChoice choice;        /* the listed choice: the highest quant that fits with margin and
                              * is fast enough, else one that fits only tight, else the
                              * expert-offload setup; quant NULL when the model is left out */
  HrFitChoice tight;         /* a higher quant than the choice that fits only tight */
  HrFitChoice offload;       /* MoE: the expert offload (n_cpu_moe > 0) at a higher quant
                              * than the dense choice, or when no dense one fits */
  const HrQualityScore *score; /* the published figure; NULL: unknown */
  HrFitWhy why;
  /* the figures of the reason: at the smallest quant tried */
  const HrQuantMix *why_quant;
  double why_required_gib;
  double why_usable_gib;
  double why_decode_tps;
} HrFitRow;

/* The listed choice fits (fits or tight, dense or offload). */
gboolean        hr_fit_row_listed           (const HrFitRow  *row);

/* Ranks @models (const HrModel *, e.g. the session's model list) for @base's hardware and
 * engine (its model, quant and context are ignored) and @needs.  @catalog gives the quants;
 * @quality may be NULL (every quality unknown).  Listed rows first in @needs->sort's order
 * (with a known quality before an unknown one when sorting by quality), then the models left
 * out, largest first.  Returns an array of HrFitRow. */
GArray         *hr_fit_rank                 (const HrScenario *base,
                                             GPtrArray       *models,
                                             const HrCatalog *catalog,
                                             const HrQuality *quality,
                                             const HrFitNeeds *needs);

/* Sorts @rows (from hr_fit_rank) again by @sort. */
void            hr_fit_sort                 (GArray          *rows,
                                             HrFitSort        sort);

/* "needs 41.2 GiB at Q2_K; 24.0 GiB usable" — the reason a row is left out, translated;
 * NULL for a listed row. */
char           *hr_fit_reason_text          (const HrFitRow  *row,
                                             const HrFitNeeds *needs);

/* The Pareto frontier of quality against decode speed: for each of @n points, whether no other
 * point is at least as good on both and better on one.  Points with a NAN coordinate are
 * never on it.  @on_frontier gets @n booleans. */
void            hr_fit_frontier             (const double    *quality,
                                             const double    *speed,
                                             guint            n,
                                             gboolean        *on_frontier);

G_END_DECLS
