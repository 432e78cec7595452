/* hr-compare-view-private.h — the Compare view's instance struct, shared by its two files
 *
 * hr-compare-view.c        controls, the GPU list, scheduling, actions, export, GObject
 * hr-compare-view-table.c  the table: one column per GPU, built from the HrCompareState
 */
#pragma once

#include "hr-compare-view.h"

G_BEGIN_DECLS

typedef struct _HrCompareColumnWidgets HrCompareColumnWidgets;

struct _HrCompareView
{
  GtkWidget parent_instance;

  /* template */
  HrPicker *model_picker;
  GtkLabel *scenario_label;
  GtkMenuButton *add_button;
  GtkPopover *add_popover;
  GtkSearchEntry *add_search;
  GtkListBox *add_list;
  GtkLabel *add_hint;
  GtkMenuButton *presets_button;
  GtkLabel *status_label;
  HrChartWidget *chart;
  GtkLabel *table_caption;
  GtkGrid *table;              /* column 0 the row names, 1… the GPUs */

  /* the table, built in code (hr-compare-view-table.c) */
  GtkWidget *metric_buttons[HR_COMPARE_N_METRICS];
  GtkWidget *metric_icons[HR_COMPARE_N_METRICS];
  GtkWidget *corner;
  GPtrArray *column_widgets;   /* HrCompareColumnWidgets*, display order */
  int table_chars;             /* a column's width in characters */
  guint chars_idle_id;

  HrSession *session;
  GSettings *settings;         /* "compare-gpus": the GPUs chosen, kept across restarts */
  HrCatalog *catalog;          /* the session's */
  GBinding *model_binding;     /* the picker and the session's "model" */

  GPtrArray *entries;          /* HrCompareEntry*, as chosen */
  gboolean entries_set;        /* FALSE until the default set was taken */
  HrCompareState *state;
  HrScenario scenario;         /* copied from the session */
  gboolean have_scenario;
  gboolean dirty;              /* the scenario changed while hidden */
  guint recompute_id;
  guint n_recomputes;
};

/* hr-compare-view-table.c */
void            hr_compare_view_table_init  (HrCompareView  *self);
void            hr_compare_view_table_apply (HrCompareView  *self);
void            hr_compare_view_table_clear (HrCompareView  *self);
void            hr_compare_view_table_set_chars (HrCompareView *self,
                                             int             chars);
const char     *hr_compare_view_table_text  (HrCompareView  *self,
                                             guint           column,
                                             HrCompareMetric metric,
                                             gboolean        diff);

G_END_DECLS
