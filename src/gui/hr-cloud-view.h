/* hr-cloud-view.h — the Cloud & TCO view: cloud offers that fit, and rent versus buy */
#pragma once

#include <adwaita.h>

#include "hr-chart-widget.h"
#include "hr-cloud-state.h"
#include "hr-pricing-manager.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_CLOUD_VIEW (hr_cloud_view_get_type ())
G_DECLARE_FINAL_TYPE (HrCloudView, hr_cloud_view, HR, CLOUD_VIEW, GtkWidget)

/* The view prices @session's scenario.  With the session's pricing manager, it shows the
 * manager's start-up error, if any, and toasts every refresh's outcome. */
GtkWidget      *hr_cloud_view_new           (HrSession        *session);

/* Chooses the offer at @index of the table for rent versus buy (what clicking a row does). */
gboolean        hr_cloud_view_select_offer  (HrCloudView      *self,
                                             guint             index);

/* For tests: what the view shows. */
const HrCloudState *hr_cloud_view_get_state (HrCloudView      *self);
const HrTcoState *hr_cloud_view_get_tco     (HrCloudView      *self);
const HrBuyChoice *hr_cloud_view_get_buy    (HrCloudView      *self);
/* Index of the offer used for rent versus buy, -1 when none. */
int             hr_cloud_view_get_selected  (HrCloudView      *self);
guint           hr_cloud_view_get_n_rows    (HrCloudView      *self);
/* Whether the offers are stacked rows (a narrow window) rather than table cells. */
gboolean        hr_cloud_view_get_stacked   (HrCloudView      *self);
GtkWidget      *hr_cloud_view_get_offers_list (HrCloudView    *self);
const char     *hr_cloud_view_get_source_text (HrCloudView    *self);
const char     *hr_cloud_view_get_payback_text (HrCloudView   *self);
/* The title of the last toast the view showed, NULL when none. */
const char     *hr_cloud_view_get_last_toast (HrCloudView     *self);
/* Toasts shown so far. */
guint           hr_cloud_view_get_n_toasts  (HrCloudView      *self);
/* Presents the dialog of the last toast's Details button; NULL when it had none. */
GtkWindow      *hr_cloud_view_show_details  (HrCloudView      *self);
/* What the last toast's Details button shows; NULL when it had none. */
const char     *hr_cloud_view_get_last_details (HrCloudView   *self);
void            hr_cloud_view_toast_with_details (HrCloudView *self,
                                                  const char  *title,
                                                  const char  *details);
GtkAdjustment  *hr_cloud_view_get_budget_adjustment (HrCloudView *self);
GtkAdjustment  *hr_cloud_view_get_power_adjustment  (HrCloudView *self);
HrChartWidget  *hr_cloud_view_get_chart     (HrCloudView      *self);

G_END_DECLS
