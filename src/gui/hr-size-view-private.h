/* hr-size-view-private.h — the Size view's instance struct, shared by its three files
 *
 * hr-size-view.c         controls, scheduling, GObject and public API
 * hr-size-view-bind.c    the controls bound to the session's scenario properties
 * hr-size-view-results.c applies the computed states to the result widgets
 * hr-size-view-actions.c the view.* actions: search, export, copy
 */
#pragma once

#include "hr-size-view.h"
#include "hr-verdict-banner.h"

G_BEGIN_DECLS

struct _HrSizeView
{
  GtkWidget parent_instance;

  /* template: controls */
  HrPicker *model_picker;
  HrPicker *gpu_picker;
  AdwActionRow *measurements_row;
  AdwActionRow *gpus_row;
  AdwActionRow *quant_row;
  HrPicker *quant_picker;
  AdwComboRow *kv_row;
  AdwComboRow *engine_row;
  AdwComboRow *backend_row;
  GtkSpinButton *context_spin;
  GtkScale *context_scale;
  GtkAdjustment *context_adjustment;
  GtkAdjustment *context_log_adjustment;
  GtkAdjustment *gpus_adjustment;
  GtkAdjustment *batch_adjustment;
  GtkAdjustment *offload_adjustment;
  GtkAdjustment *moe_adjustment;
  GtkLabel *offload_value_label;
  AdwActionRow *moe_row;
  AdwActionRow *mmproj_row;      /* the vision projector switch (#31) */
  GtkSwitch *mmproj_switch;

  /* template: results */
  GtkScrolledWindow *results_scroller;
  GtkWidget *results_box;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkWidget *verdict_banner;   /* HrVerdictBanner */
  GtkFlowBox *cards_box;
  GtkLabel *breakdown_label;
  GtkLabel *projector_label;     /* where the vision projector is (#31) */
  GtkLabel *source_label;
  HrChartWidget *breakdown_chart;
  HrChartWidget *context_chart;
  AdwPreferencesGroup *matrix_group;
  GtkSpinner *advice_spinner;
  GtkListBox *matrix_list;
  AdwPreferencesGroup *reverse_group;
  AdwPreferencesGroup *picks_group;
  GtkBox *diagnosis_box;
  GtkBox *launch_box;
  HrSpeedSimulator *simulator;
  struct _HrSizeLoad *load;    /* throughput under load (hr-size-load.h), after the context chart */
  GtkWidget *hub_files;        /* HrHubFiles: a Hub model's files, before the matrix */
  GtkWidget *placement_card;   /* HrPlacementCard, after the cards (#31) */
  GtkWidget *device_rows;      /* HrDeviceRows: the other GPUs, under the GPU picker (#31) */

  /* built in code */
  GtkLabel *card_values[HR_SIZE_N_CARDS];
  GtkLabel *card_captions[HR_SIZE_N_CARDS];
  GtkLabel *card_details[HR_SIZE_N_CARDS];
  GtkLabel *card_notes[HR_SIZE_N_CARDS];
  AdwActionRow *reverse_rows[HR_N_REVERSE];
  GtkButton *reverse_buttons[HR_N_REVERSE];
  AdwActionRow *pick_rows[HR_N_PICKS];
  GtkButton *pick_buttons[HR_N_PICKS];
  GtkSizeGroup *matrix_columns[6];
  GtkWidget *matrix_header;

  HrSession *session;
  HrCatalog *catalog;        /* the session's */
  GBinding *list_bindings[3]; /* model, GPU, quant: rebound around a refill */

  /* what is on screen */
  HrScenario scenario;
  HrEstimate estimate;
  gboolean have_scenario;
  gboolean estimate_ok;
  HrSizeState state;
  const HrAdviceState *advice; /* the session's, once applied */

  /* scheduling */
  GdkFrameClock *frame_clock;  /* until the first frame is painted */
  gulong after_paint_id;
  gboolean below_fold_shown;
  GPtrArray *offscreen;        /* also hidden until then: what a short window cannot show */
  guint recompute_id;
  guint advice_idle_id;
  gboolean syncing_context;   /* the log scale and the spin move each other */
  gint64 context_tokens;      /* the context before a +/− step */
  guint n_recomputes;
  gint64 last_recompute_us;
  double last_advice_ms;
};

/* hr-size-view-results.c */
void            hr_size_view_build_results  (HrSizeView     *self);
void            hr_size_view_apply_state    (HrSizeView     *self);
void            hr_size_view_update_charts  (HrSizeView     *self);
void            hr_size_view_apply_advice   (HrSizeView     *self);
void            hr_size_view_matrix_row_activated (HrSizeView    *self,
                                                   GtkListBoxRow *row,
                                                   GtkListBox    *box);

/* hr-size-view-bind.c */
void            hr_size_view_fill_choice_rows (HrSizeView   *self);
void            hr_size_view_bind_session   (HrSizeView     *self);
void            hr_size_view_bind_lists     (HrSizeView     *self);
void            hr_size_view_unbind_lists   (HrSizeView     *self);

/* hr-size-view-actions.c */
void            hr_size_view_install_actions (GtkWidgetClass *widget_class);

G_END_DECLS
