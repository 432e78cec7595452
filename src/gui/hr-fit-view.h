/* hr-fit-view.h — What Runs Here: every model ranked for the session's hardware */
#pragma once

#include <adwaita.h>

#include "hr-chart-widget.h"
#include "hr-fit-state.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_FIT_VIEW (hr_fit_view_get_type ())
G_DECLARE_FINAL_TYPE (HrFitView, hr_fit_view, HR, FIT_VIEW, GtkWidget)

GtkWidget      *hr_fit_view_new             (HrSession      *session);

/* For tests and the window: the state shown (computed now when out of date). */
const HrFitState *hr_fit_view_get_state     (HrFitView      *self);
HrChartWidget  *hr_fit_view_get_chart       (HrFitView      *self);
GtkListBox     *hr_fit_view_get_list        (HrFitView      *self);
/* The filters, as the drop-downs set them. */
void            hr_fit_view_set_needs       (HrFitView      *self,
                                             gint64          min_context,
                                             double          min_tps,
                                             HrUseCase       use_case);
/* Opens listed item @index in the Size view (what activating its row does). */
gboolean        hr_fit_view_open_item       (HrFitView      *self,
                                             guint           index);

G_END_DECLS
