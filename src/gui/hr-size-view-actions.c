/* hr-size-view-actions.c — the Size view's actions: search, export, copy
 *
 * "view.*" actions, so the window's shortcuts and menu reach whichever view is visible.
 */
#include "hr-size-view-private.h"
#include "hr-window.h"

#include <glib/gi18n-lib.h>

#include "hr-report.h"

static gboolean
format_known (const char *format)
{
  return g_strcmp0 (format, "png") == 0 || g_strcmp0 (format, "svg") == 0 || g_strcmp0 (format, "pdf") == 0;
}

/* Feedback ----------------------------------------------------------------------------------- */

void
hr_size_view_toast (HrSizeView *self,
                    const char *title)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  AdwToast *toast;

  if (overlay == NULL)
    return;
  toast = hr_toast_new_text (title);
  adw_toast_set_timeout (toast, 3);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}

void
hr_size_view_copy_text (HrSizeView *self,
                        const char *text,
                        const char *toast)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  hr_size_view_toast (self, toast);
}

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

static char *
slug (const char *s)
{
  GString *out = g_string_new (NULL);

  for (const char *p = s; p && *p; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '.' || *p == '-')
        g_string_append_c (out, g_ascii_tolower (*p));
      else if (out->len > 0 && out->str[out->len - 1] != '-')
        g_string_append_c (out, '-');
    }
  return g_string_free (out, FALSE);
}

static void
export_response_cb (HrSizeView           *self,
                    int                   response,
                    GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  HrChartWidget *chart = g_object_get_data (G_OBJECT (chooser), "chart");
  const char *format = g_object_get_data (G_OBJECT (chooser), "format");
  HrChartFormat fmt;
  int width, height;

  /* the chooser stays alive until the end: self->export_chooser holds it */
  g_autoptr(GtkFileChooserNative) owned = g_steal_pointer (&self->export_chooser);

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file == NULL || chart == NULL)
    return;

  path = g_file_get_path (file);
  if (path == NULL)
    {
      hr_size_view_toast (self, _("Charts can only be exported to local files"));
      return;
    }
  if (!hr_chart_format_from_path (path, &fmt))
    {
      /* no extension: the filter the user left selected names the format */
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
      const char *chosen = filter ? g_object_get_data (G_OBJECT (filter), "format") : NULL;
      char *with_ext = g_strdup_printf ("%s.%s", path, chosen ? chosen : format ? format : "png");
      g_free (path);
      path = with_ext;
    }
  width = 1200;
  height = hr_chart_info (hr_chart_widget_get_kind (chart))->export_height;
  if (hr_chart_widget_export (chart, path, width, height, 2.0, &error))
    {
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *msg = g_strdup_printf (_("Exported “%s”"), base);
      hr_size_view_toast (self, msg);
    }
  else
    {
      g_autofree char *msg = g_strdup_printf (_("Could not export the chart: %s"), error->message);
      hr_size_view_toast (self, msg);
    }
}

static void
export_chart (HrSizeView    *self,
              HrChartWidget *chart,
              const char    *format)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;
  g_autofree char *model = slug (self->scenario.model ? self->scenario.model->id : "model");
  g_autofree char *gpu = slug (self->scenario.gpu ? self->scenario.gpu->id : "gpu");
  g_autofree char *name = NULL;
  static const char * const formats[] = { "png", "svg", "pdf" };
  const char *names[] = { N_("PNG Image"), N_("SVG Image"), N_("PDF Document") };
  const char *mimes[] = { "image/png", "image/svg+xml", "application/pdf" };

  if (self->export_chooser != NULL || chart == NULL)
    return;
  if (!format_known (format))
    format = "png";

  chooser = gtk_file_chooser_native_new (_("Export Chart"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _(names[i]));
      gtk_file_filter_add_mime_type (filter, mimes[i]);
      g_object_set_data (G_OBJECT (filter), "format", (gpointer) formats[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      if (g_str_equal (formats[i], format))
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  name = g_strdup_printf ("%s-%s-%s.%s", model, gpu, hr_chart_kind_to_string (hr_chart_widget_get_kind (chart)), format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_object_set_data (G_OBJECT (chooser), "chart", chart);
  g_object_set_data_full (G_OBJECT (chooser), "format", g_strdup (format), g_free);
  g_signal_connect_object (chooser, "response", G_CALLBACK (export_response_cb), self, G_CONNECT_SWAPPED);
  self->export_chooser = chooser;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Actions ----------------------------------------------------------------------------------- */

static void
find_model_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  hr_picker_popup (HR_SIZE_VIEW (widget)->model_picker);
}

static void
find_gpu_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  hr_picker_popup (HR_SIZE_VIEW (widget)->gpu_picker);
}

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

  if (parts[0] != NULL && hr_chart_kind_from_string (parts[0], &kind))
    chart = kind == HR_CHART_CONTEXT ? self->context_chart : self->breakdown_chart;
  if (chart == NULL)
    chart = visible_chart (self);
  export_chart (self, chart, parts[0] ? parts[1] : NULL);
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrSizeView *self = HR_SIZE_VIEW (widget);
  g_autofree char *json = NULL;

  if (!self->estimate_ok)
    return;
  json = hr_report_estimate_json (&self->scenario, &self->estimate);
  hr_size_view_copy_text (self, json, _("Scenario copied as JSON"));
}

void
hr_size_view_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.find-model", NULL, find_model_action);
  gtk_widget_class_install_action (widget_class, "view.find-gpu", NULL, find_gpu_action);
  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);
  gtk_widget_class_install_action (widget_class, "view.copy-json", NULL, copy_json_action);
}
