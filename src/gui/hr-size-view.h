/* hr-size-view.h — the Size view: one scenario, sized live */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"
#include "hr-chart-widget.h"
#include "hr-estimate.h"
#include "hr-picker.h"
#include "hr-scenario-state.h"
#include "hr-session.h"
#include "hr-speed-simulator.h"

G_BEGIN_DECLS

#define HR_TYPE_SIZE_VIEW (hr_size_view_get_type ())
G_DECLARE_FINAL_TYPE (HrSizeView, hr_size_view, HR, SIZE_VIEW, GtkWidget)

GtkWidget      *hr_size_view_new            (void);

/* The view sizes @session's scenario, its controls bound to the session's properties: fills
 * the pickers from its catalog and follows it (once, before the view is shown). */
void            hr_size_view_set_session    (HrSizeView     *self,
                                             HrSession      *session);
HrSession      *hr_size_view_get_session    (HrSizeView     *self);
/* The session's catalog (NULL before it is set). */
HrCatalog      *hr_size_view_get_catalog    (HrSizeView     *self);

/* The scenario on screen and its estimate (NULL when it could not be sized).  The
 * "scenario-changed" signal tells after each recompute. */
const HrScenario *hr_size_view_get_scenario (HrSizeView     *self);
const HrEstimate *hr_size_view_get_estimate (HrSizeView     *self);
const HrSizeState *hr_size_view_get_state   (HrSizeView     *self);

/* Choosing things the way the controls do. */
gboolean        hr_size_view_select_model   (HrSizeView     *self,
                                             const char     *id);
gboolean        hr_size_view_select_gpu     (HrSizeView     *self,
                                             const char     *id,
                                             int             count);
gboolean        hr_size_view_select_quant   (HrSizeView     *self,
                                             const char     *quant);

/* What the "Apply" and "Select" buttons do: FALSE when there is nothing to apply. */
gboolean        hr_size_view_apply_reverse  (HrSizeView     *self,
                                             HrReverseId     which);
gboolean        hr_size_view_apply_pick     (HrSizeView     *self,
                                             HrPickId        which);
/* The whole-catalog answers on screen; NULL until the first are computed. */
const HrAdviceState *hr_size_view_get_advice (HrSizeView    *self);

/* For tests: the controls and what they show. */
HrPicker       *hr_size_view_get_model_picker (HrSizeView   *self);
/* HrHubFiles (hr-hub-files.h): the files of the Hub repository the model came from. */
GtkWidget      *hr_size_view_get_hub_files  (HrSizeView   *self);
HrPicker       *hr_size_view_get_gpu_picker   (HrSizeView   *self);
HrPicker       *hr_size_view_get_quant_picker (HrSizeView   *self);
AdwComboRow    *hr_size_view_get_kv_row       (HrSizeView   *self);
AdwComboRow    *hr_size_view_get_engine_row   (HrSizeView   *self);
GtkAdjustment  *hr_size_view_get_context_adjustment (HrSizeView *self);
GtkAdjustment  *hr_size_view_get_gpus_adjustment    (HrSizeView *self);
GtkAdjustment  *hr_size_view_get_batch_adjustment   (HrSizeView *self);
const char     *hr_size_view_get_card_text    (HrSizeView   *self,
                                               HrSizeCardId  card);
const char     *hr_size_view_get_verdict_text (HrSizeView   *self);
HrChartWidget  *hr_size_view_get_chart        (HrSizeView   *self,
                                               HrChartKind   kind);
HrSpeedSimulator *hr_size_view_get_simulator  (HrSizeView   *self);
guint           hr_size_view_get_n_matrix_rows (HrSizeView  *self);
/* TRUE while a recompute or the whole-catalog advice is still to come. */
gboolean        hr_size_view_is_busy          (HrSizeView   *self);
/* How many recomputes ran, and how long the last one took (µs, main thread). */
guint           hr_size_view_get_n_recomputes (HrSizeView   *self);
gint64          hr_size_view_get_last_recompute_us (HrSizeView *self);
double          hr_size_view_get_last_advice_ms    (HrSizeView *self);

G_END_DECLS
