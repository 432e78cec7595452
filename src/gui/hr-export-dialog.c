/* hr-export-dialog.c — the one "Export Chart" / "Export Table" dialog every view uses */
#include "hr-export-dialog.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-chart-widget.h"
#include "hr-toast.h"

#define CHOOSER_KEY "hr-export-chooser"

typedef struct
{
  const char *ext;
  const char *name;   /* N_() */
  const char *mime;
} Format;

static const Format chart_formats[] = {
  { "png", N_("PNG Image"), "image/png" },
  { "svg", N_("SVG Image"), "image/svg+xml" },
  { "pdf", N_("PDF Document"), "application/pdf" },
};
static const char * const chart_exts[] = { "png", "svg", "pdf", NULL };
static const char * const table_exts[] = { "csv", NULL };

/* The request kept with the dialog, its format a copy */
typedef struct
{
  HrExportRequest request;
  char *format;
} Pending;

static void
pending_free (Pending *pending)
{
  g_free (pending->format);
  g_free (pending);
}

static void
chooser_destroy (GtkFileChooserNative *chooser)
{
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_object_unref (chooser);
}

static const char *
chart_format (const char *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (chart_formats); i++)
    if (g_strcmp0 (format, chart_formats[i].ext) == 0)
      return chart_formats[i].ext;
  return "png";
}

static void
add_filters (GtkFileChooser *chooser,
             HrExportKind    kind,
             const char     *format)
{
  if (kind == HR_EXPORT_TABLE)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _("CSV Table"));
      gtk_file_filter_add_mime_type (filter, "text/csv");
      gtk_file_filter_add_pattern (filter, "*.csv");
      gtk_file_chooser_add_filter (chooser, filter);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (chart_formats); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(chart_formats[i].name));
      gtk_file_filter_add_mime_type (filter, chart_formats[i].mime);
      g_object_set_data (G_OBJECT (filter), "format", (gpointer) chart_formats[i].ext);
      gtk_file_chooser_add_filter (chooser, filter);
      if (g_str_equal (chart_formats[i].ext, format))
        gtk_file_chooser_set_filter (chooser, filter);
    }
}

static void
remember_folder (const char *path)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *folder = g_path_get_dirname (path);

  g_settings_set_string (settings, "export-folder", folder);
}

static void
start_in_folder (GtkFileChooser *chooser,
                 HrExportKind    kind)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *remembered = g_settings_get_string (settings, "export-folder");
  g_autofree char *folder = hr_export_start_folder (remembered, kind);
  g_autoptr(GFile) file = g_file_new_for_path (folder);

  gtk_file_chooser_set_current_folder (chooser, file, NULL);
}

/* the view goes away (its window closed): so does its dialog, not left writing a dead chart */
static void
view_destroy_cb (GtkWidget *view)
{
  g_object_set_data (G_OBJECT (view), CHOOSER_KEY, NULL);
}

static void
response_cb (GtkWidget            *view,
             int                   response,
             GtkFileChooserNative *chooser)
{
  /* the view's data held the chooser: it lives until the end of this function */
  g_autoptr(GtkFileChooserNative) owned = g_object_steal_data (G_OBJECT (view), CHOOSER_KEY);
  Pending *pending = g_object_get_data (G_OBJECT (chooser), "request");
  HrExportRequest request = pending->request;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file == NULL)
    return;
  path = g_file_get_path (file);
  if (path == NULL)
    {
      hr_toast_show_text (view, request.kind == HR_EXPORT_TABLE ? _("Only local files can be written")
                                                                 : _("Charts can only be exported to local files"),
                          HR_TOAST_ERROR);
      return;
    }
  if (request.kind == HR_EXPORT_CHART)
    {
      /* a name without extension: the filter the user left selected names the format */
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
      const char *chosen = filter ? g_object_get_data (G_OBJECT (filter), "format") : NULL;

      request.format = chosen ? chosen : request.format;
    }
  hr_export_dialog_save (view, &request, path);
}

void
hr_export_dialog_show (GtkWidget             *view,
                       const HrExportRequest *request,
                       const char            *name)
{
  HrExportKind kind;
  const char *format;
  GtkRoot *root;
  GtkFileChooserNative *chooser;
  Pending *pending;
  g_autofree char *file_name = NULL;

  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (request != NULL && request->write != NULL && name != NULL);

  if (g_object_get_data (G_OBJECT (view), CHOOSER_KEY) != NULL)
    return;
  kind = request->kind;
  format = kind == HR_EXPORT_TABLE ? "csv" : chart_format (request->format);
  root = gtk_widget_get_root (view);
  chooser = gtk_file_chooser_native_new (kind == HR_EXPORT_TABLE ? _("Export Table") : _("Export Chart"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  add_filters (GTK_FILE_CHOOSER (chooser), kind, format);
  start_in_folder (GTK_FILE_CHOOSER (chooser), kind);
  file_name = g_strdup_printf ("%s.%s", name, format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), file_name);

  pending = g_new0 (Pending, 1);
  pending->request = *request;
  pending->format = g_strdup (format);
  pending->request.format = pending->format;
  g_object_set_data_full (G_OBJECT (chooser), "request", pending, (GDestroyNotify) pending_free);
  g_signal_connect_object (chooser, "response", G_CALLBACK (response_cb), view, G_CONNECT_SWAPPED);
  g_object_set_data_full (G_OBJECT (view), CHOOSER_KEY, chooser, (GDestroyNotify) chooser_destroy);
  g_signal_connect_object (view, "destroy", G_CALLBACK (view_destroy_cb), chooser, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
hr_export_write_chart (gpointer     data,
                       const char  *path,
                       GError     **error)
{
  HrChartWidget *chart = HR_CHART_WIDGET (data);
  const HrChartInfo *info = hr_chart_info (hr_chart_widget_get_kind (chart));

  return hr_chart_widget_export (chart, path, 1200, info->export_height, 2.0, error);
}

const char *
hr_export_target_format (GVariant *target)
{
  const char *dot = target != NULL ? strchr (g_variant_get_string (target, NULL), '.') : NULL;

  return dot != NULL ? dot + 1 : NULL;
}

gboolean
hr_export_dialog_save (GtkWidget             *view,
                       const HrExportRequest *request,
                       const char            *path)
{
  HrExportKind kind;
  g_autoptr(GError) error = NULL;
  g_autofree char *full = NULL;
  g_autofree char *msg = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GFile) file = NULL;
  AdwToast *toast;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (request != NULL && request->write != NULL && path != NULL, FALSE);

  kind = request->kind;
  full = kind == HR_EXPORT_TABLE ? hr_export_complete_path (path, table_exts, "csv")
                                 : hr_export_complete_path (path, chart_exts, chart_format (request->format));
  if (!request->write (request->data, full, &error))
    {
      msg = g_strdup_printf (kind == HR_EXPORT_TABLE ? _("Could not export the table: %s")
                                                     : _("Could not export the chart: %s"), error->message);
      hr_toast_show_text (view, msg, HR_TOAST_ERROR);
      return FALSE;
    }
  remember_folder (full);
  base = g_path_get_basename (full);
  msg = g_strdup_printf (_("Exported “%s”"), base);
  file = g_file_new_for_path (full);
  toast = hr_toast_new (msg, HR_TOAST_INFO);
  hr_toast_add_open_button (toast, view, file);
  hr_toast_show (view, toast);
  return TRUE;
}

GtkFileChooser *
hr_export_dialog_get_chooser (GtkWidget *view)
{
  g_return_val_if_fail (GTK_IS_WIDGET (view), NULL);
  return g_object_get_data (G_OBJECT (view), CHOOSER_KEY);
}
