/* hr-finetune-view.h — the Fine-tune view: QLoRA, LoRA and full fine-tuning memory */
#pragma once

#include <adwaita.h>

#include "hr-chart-widget.h"
#include "hr-finetune-state.h"
#include "hr-picker.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_FINETUNE_VIEW (hr_finetune_view_get_type ())
G_DECLARE_FINAL_TYPE (HrFinetuneView, hr_finetune_view, HR, FINETUNE_VIEW, GtkWidget)

/* The model and the GPU are @session's (the pickers here choose them everywhere); the GPU
 * count starts as the session's and is this view's own from then on. */
GtkWidget      *hr_finetune_view_new        (HrSession      *session);

/* What is on screen (NULL before the first computation). */
const HrFtState *hr_finetune_view_get_state (HrFinetuneView *self);
gboolean        hr_finetune_view_is_busy    (HrFinetuneView *self);

/* For tests: the controls and what they show. */
HrPicker       *hr_finetune_view_get_model_picker (HrFinetuneView *self);
HrPicker       *hr_finetune_view_get_gpu_picker   (HrFinetuneView *self);
AdwComboRow    *hr_finetune_view_get_method_row   (HrFinetuneView *self);
AdwComboRow    *hr_finetune_view_get_optimizer_row (HrFinetuneView *self);
AdwComboRow    *hr_finetune_view_get_sharding_row (HrFinetuneView *self);
AdwComboRow    *hr_finetune_view_get_targets_row  (HrFinetuneView *self);
GtkAdjustment  *hr_finetune_view_get_seq_adjustment   (HrFinetuneView *self);
GtkAdjustment  *hr_finetune_view_get_micro_adjustment (HrFinetuneView *self);
GtkAdjustment  *hr_finetune_view_get_rank_adjustment  (HrFinetuneView *self);
GtkAdjustment  *hr_finetune_view_get_gpus_adjustment  (HrFinetuneView *self);
GtkSwitch      *hr_finetune_view_get_checkpointing_switch (HrFinetuneView *self);
GtkSwitch      *hr_finetune_view_get_flash_switch     (HrFinetuneView *self);
HrChartWidget  *hr_finetune_view_get_chart        (HrFinetuneView *self);
/* The breakdown's label for @method and @row as shown. */
const char     *hr_finetune_view_get_cell_text    (HrFinetuneView *self,
                                                   HrFtMethod      method,
                                                   HrFtRowId       row);
const char     *hr_finetune_view_get_smallest_text (HrFinetuneView *self,
                                                   HrFtMethod      method);
const char     *hr_finetune_view_get_verdict_text (HrFinetuneView *self);

G_END_DECLS
