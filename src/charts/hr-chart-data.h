/* hr-chart-data.h — fills the charts' plain structs from the sizing core's results
 *
 * The only part of src/charts/ that knows the core.  Titles and subtitles are filled too
 * (translated); callers may overwrite them.
 */
#pragma once

#include <glib.h>
#include "hr-chart.h"
#include "hr-fit.h"
#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-finetune.h"
#include "hr-tco.h"
#include "hr-load-curve.h"

G_BEGIN_DECLS

HrChartVerdict  hr_chart_verdict_from_core  (HrVerdict               verdict);

/* One bar per device of the tensor-parallel group, the system-RAM part beside them. */
void            hr_chart_breakdown_from_estimate (const HrScenario *scenario,
                                                  const HrEstimate *estimate,
                                                  HrChartBreakdown *out);

/* Required memory per device from 4K to 128K tokens (or the model's maximum when smaller;
 * widened to include the scenario's context), for F16 and the quantized KV precisions the
 * engine supports, with the largest context that fits.  @max_context > 0 overrides the upper
 * end.  FALSE when the scenario cannot be estimated. */
gboolean        hr_chart_context_from_scenario (const HrScenario  *scenario,
                                                gint64             max_context,
                                                HrChartContext    *out,
                                                GError           **error);

/* From hr_advice_quant_matrix(): one column per HrMatrixRow. */
void            hr_chart_quant_from_matrix  (const HrScenario       *scenario,
                                             GArray                 *rows,
                                             HrChartQuant           *out);

/* Compare: start empty, add one GPU (scenario + its estimate) at a time. */
void            hr_chart_compare_init       (HrChartCompare         *out,
                                             const HrScenario       *base);
gboolean        hr_chart_compare_add        (HrChartCompare         *out,
                                             const HrScenario       *scenario,
                                             const HrEstimate       *estimate);
/* Estimates @base on each GPU of @gpus (const HrGpu *) with @base's GPU count and adds them.
 * GPUs whose estimate fails are added as unknown. */
void            hr_chart_compare_from_gpus  (const HrScenario       *base,
                                             GPtrArray              *gpus,
                                             const HrPricing        *pricing,
                                             HrChartCompare         *out);

/* @estimates: QLoRA, LoRA, full, in HrFtMethod order, computed with @ft's other settings.
 * @gpu (nullable) is the capacity drawn against; @catalog (nullable) gives each method the
 * smallest single GPU that holds it. */
void            hr_chart_finetune_from_estimates (const HrFtScenario *ft,
                                                  const HrFtEstimate  estimates[3],
                                                  const HrGpu        *gpu,
                                                  const HrCatalog    *catalog,
                                                  HrChartFinetune    *out);

/* Cumulative cost, month by month, over @horizon_months (0: long enough to show the
 * break-even with room after it, 5 years when there is none).  A NAN price draws as unknown.
 * @cloud_label / @buy_label may be NULL. */
/* The throughput-under-load chart of @curve (hr_load_curve_compute () for @scenario). */
void            hr_chart_load_from_curve    (const HrScenario       *scenario,
                                             const HrLoadCurve      *curve,
                                             HrChartLoad            *out);
void            hr_chart_tco_from_input     (const HrTcoInput       *input,
                                             const char             *cloud_label,
                                             const char             *buy_label,
                                             int                     horizon_months,
                                             HrChartTco             *out);

/* What Runs Here: one point per model of @rows (hr_fit_rank()) that fits, the frontier marked,
 * the counts of the models left out and without a published quality. */
void            hr_chart_fit_from_rows      (GArray                 *rows,
                                             const HrScenario       *base,
                                             const char             *quality_name,
                                             HrChartFit             *out);

G_END_DECLS
