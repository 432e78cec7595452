/* hr-compare-view.h — the Compare view: GPUs side by side for the session's scenario */
#pragma once

#include <adwaita.h>

#include "hr-chart-widget.h"
#include "hr-compare-state.h"
#include "hr-picker.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_COMPARE_VIEW (hr_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (HrCompareView, hr_compare_view, HR, COMPARE_VIEW, GtkWidget)

/* The view follows @session's scenario (model, quant, context, engine …): one scenario in
 * the whole application.  Its own model picker is bound to the session's model. */
GtkWidget      *hr_compare_view_new         (HrSession      *session);

/* The GPUs compared (HrCompareEntry*), in the order chosen. */
GPtrArray      *hr_compare_view_get_entries (HrCompareView  *self);
/* Replaces them (copied). */
void            hr_compare_view_set_entries (HrCompareView  *self,
                                             GPtrArray      *entries);
/* FALSE when @id is unknown, already compared, or HR_COMPARE_MAX_PICKED are. */
gboolean        hr_compare_view_add_gpu     (HrCompareView  *self,
                                             const char     *id,
                                             int             count);
gboolean        hr_compare_view_remove_gpu  (HrCompareView  *self,
                                             const char     *id);
gboolean        hr_compare_view_set_count   (HrCompareView  *self,
                                             const char     *id,
                                             int             count);
void            hr_compare_view_apply_preset (HrCompareView *self,
                                             HrComparePreset preset,
                                             const char     *vendor);
void            hr_compare_view_sort        (HrCompareView  *self,
                                             HrCompareMetric metric,
                                             gboolean        reversed);

/* What is on screen (NULL before the first computation). */
const HrCompareState *hr_compare_view_get_state (HrCompareView *self);
HrChartWidget  *hr_compare_view_get_chart   (HrCompareView  *self);
HrPicker       *hr_compare_view_get_model_picker (HrCompareView *self);
/* The labels of the table as shown, display order: column @column's cell for @metric. */
const char     *hr_compare_view_get_cell_text (HrCompareView *self,
                                             guint           column,
                                             HrCompareMetric metric);
const char     *hr_compare_view_get_diff_text (HrCompareView *self,
                                             guint           column,
                                             HrCompareMetric metric);
const char     *hr_compare_view_get_column_title (HrCompareView *self,
                                             guint           column);
guint           hr_compare_view_get_n_columns (HrCompareView *self);
/* TRUE while a recomputation is still to come. */
gboolean        hr_compare_view_is_busy     (HrCompareView  *self);

/* What "Export Table…" and "Export Chart…" write once a file is chosen. */
gboolean        hr_compare_view_export_table (HrCompareView *self,
                                             const char     *path,
                                             GError        **error);
gboolean        hr_compare_view_export_chart (HrCompareView *self,
                                             const char     *path,
                                             GError        **error);

G_END_DECLS
