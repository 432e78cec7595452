/* hr-size-load.h — the Size view's "Throughput Under Load" section (#28)
 *
 * For vLLM/SGLang, and llama.cpp serving more than one sequence: the load curve's chart, a
 * per-user speed to meet and the sentence "N users at ≥ X tok/s each, $Y per 1M tokens".
 * Built in code and put after the context chart's group; hidden where the curve does not
 * apply. */
#pragma once

#include <adwaita.h>

#include "hr-estimate.h"
#include "hr-chart-widget.h"

G_BEGIN_DECLS

typedef struct _HrSizeLoad HrSizeLoad;

/* The section, inserted into @box after @sibling; owned by the widget tree (freed with it). */
HrSizeLoad     *hr_size_load_new            (GtkBox          *box,
                                             GtkWidget       *sibling);
/* Shows the curve of @scenario (estimate @estimate), or hides the section (@ok FALSE, or
 * the curve does not apply). */
void            hr_size_load_update         (HrSizeLoad      *load,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             gboolean         ok);
HrChartWidget  *hr_size_load_get_chart      (HrSizeLoad      *load);

G_END_DECLS
