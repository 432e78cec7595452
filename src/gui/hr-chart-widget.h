/* hr-chart-widget.h — a widget that draws any of Headroom's charts (src/charts) */
#pragma once

#include <gtk/gtk.h>

#include "hr-chart.h"
#include "hr-chart-export.h"

G_BEGIN_DECLS

#define HR_TYPE_CHART_WIDGET (hr_chart_widget_get_type ())
G_DECLARE_FINAL_TYPE (HrChartWidget, hr_chart_widget, HR, CHART_WIDGET, GtkWidget)

GtkWidget      *hr_chart_widget_new         (HrChartKind     kind);

HrChartKind     hr_chart_widget_get_kind    (HrChartWidget  *self);
/* Copies @data (the struct that goes with @kind) and redraws. NULL clears the chart. */
void            hr_chart_widget_set_data    (HrChartWidget  *self,
                                             HrChartKind     kind,
                                             gconstpointer   data);
/* The data drawn, NULL before the first hr_chart_widget_set_data(). */
gconstpointer   hr_chart_widget_get_data    (HrChartWidget  *self);
/* The theme the widget draws with: the light or dark chart theme, adjusted to the widget's
 * style (transparent background, text in the widget's colour). */
const HrChartTheme *hr_chart_widget_get_theme (HrChartWidget *self);
/* Short description of the data for screen readers and tooltips. */
void            hr_chart_widget_set_description (HrChartWidget *self,
                                                 const char    *description);

/* Writes the chart to @path with hr_chart_export(), the CLI's own export, in the light
 * theme with an opaque background (files are read outside the app's theme). */
gboolean        hr_chart_widget_export      (HrChartWidget  *self,
                                             const char     *path,
                                             int             width,
                                             int             height,
                                             double          scale,
                                             GError        **error);

gsize           hr_chart_kind_data_size     (HrChartKind     kind);

G_END_DECLS
