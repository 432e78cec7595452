/* hr-size-view-actions.c — the Size view's actions: search, export, copy
 *
 * "view.*" actions, so the window's shortcuts and menu reach whichever view is visible.
 */
#include "hr-size-view-private.h"

#include <glib/gi18n-lib.h>

#include "hr-export-dialog.h"
#include "hr-size-load.h"
#include "hr-report.h"
#include "hr-units.h"
#include "hr-view-actions.h"

/* Export ------------------------------------------------------------------------------------ */

static HrChartWidget *
visible_chart (HrSizeView *self)
{
  HrChartWidget *charts[] = { self->breakdown_chart, self->context_chart };
  HrChartWidget *best = self->breakdown_chart;
  double best_visible = 0;
  int viewport_h = gtk_widget_get_height (GTK_WIDGET (self->results_scroller));

  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      graphene_rect_t bounds;
      double visible;

      if (!gtk_widget_compute_bounds (GTK_WIDGET (charts[i]), GTK_WIDGET (self->results_scroller), &bounds))
        continue;
      visible = MIN (bounds.origin.y + bounds.size.height, viewport_h) - MAX (bounds.origin.y, 0);
      if (visible > best_visible)
        {
          best_visible = visible;
          best = charts[i];
        }
    }
  return best;
}

/* Actions ----------------------------------------------------------------------------------- */

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrSizeView *self = HR_SIZE_VIEW (widget);
  const char *target = parameter ? g_variant_get_string (parameter, NULL) : "";
  g_auto(GStrv) parts = g_strsplit (target, ".", 2);
  HrChartWidget *chart = NULL;
  HrChartKind kind;
  g_autofree char *model = NULL, *gpu = NULL, *name = NULL;
  HrExportRequest request = { HR_EXPORT_CHART, hr_export_target_format (parameter), hr_export_write_chart, NULL };

  if (parts[0] != NULL && hr_chart_kind_from_string (parts[0], &kind))
    chart = kind == HR_CHART_LOAD && self->load != NULL ? hr_size_load_get_chart (self->load)
            : kind == HR_CHART_CONTEXT ? self->context_chart : self->breakdown_chart;
  if (chart == NULL)
    chart = visible_chart (self);
  model = hr_slugify (self->scenario.model ? self->scenario.model->id : NULL, 60, "model");
  gpu = hr_slugify (self->scenario.gpu ? self->scenario.gpu->id : NULL, 60, "gpu");
  name = g_strdup_printf ("%s-%s-%s", model, gpu, hr_chart_kind_to_string (hr_chart_widget_get_kind (chart)));
  request.data = chart;
  hr_export_dialog_show (widget, &request, name);
}

static char *
scenario_json (GtkWidget *widget)
{
  HrSizeView *self = HR_SIZE_VIEW (widget);

  return self->estimate_ok ? hr_report_estimate_json (&self->scenario, &self->estimate) : NULL;
}

void
hr_size_view_install_actions (GtkWidgetClass *widget_class)
{
  hr_view_class_install_find (widget_class, G_STRUCT_OFFSET (HrSizeView, model_picker), G_STRUCT_OFFSET (HrSizeView, gpu_picker));
  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);
  hr_view_class_install_copy_json (widget_class, scenario_json, N_("Scenario copied as JSON"));
}
