/* hr-export-dialog.h — the one "Export Chart" / "Export Table" dialog every view uses
 *
 * A GtkFileChooserNative (the portal's dialog when there is one) that opens in the folder of
 * the last export (GSettings "export-folder"; at first the user's Pictures or Documents
 * folder), adds the extension of the chosen format to a name typed without one, writes
 * atomically through the view's writer, and toasts the outcome with an "Open" button.
 */
#pragma once

#include <adwaita.h>

#include "hr-export-folder.h"

G_BEGIN_DECLS

/* Writes the export to @path (atomically); @data is what was given to hr_export_dialog_show(). */
typedef gboolean (*HrExportWriteFunc) (gpointer     data,
                                       const char  *path,
                                       GError     **error);

/* What to export and how to write it. */
typedef struct
{
  HrExportKind kind;
  const char *format;        /* a chart's: "png", "svg" or "pdf" (anything else is PNG) */
  HrExportWriteFunc write;
  gpointer data;             /* for @write: it must live as long as the view */
} HrExportRequest;

/* Opens the save dialog for @request over @view, suggesting @name (a slug, without extension)
 * plus the format's extension.  One dialog per view at a time: while one is open this does
 * nothing. */
void            hr_export_dialog_show       (GtkWidget             *view,
                                             const HrExportRequest *request,
                                             const char            *name);
/* The format of a "view.export-chart" target: "breakdown.svg" → "svg"; NULL when it names none. */
const char     *hr_export_target_format     (GVariant              *target);

/* A writer for hr_export_dialog_show(): @data is an HrChartWidget, exported 1200 px wide at its
 * kind's export height, at 2× for print. */
gboolean        hr_export_write_chart       (gpointer            data,
                                             const char         *path,
                                             GError            **error);

/* What the dialog does with an accepted @path: completes its extension, writes it, remembers
 * its folder and toasts over @view.  TRUE when the file was written. */
gboolean        hr_export_dialog_save       (GtkWidget             *view,
                                             const HrExportRequest *request,
                                             const char            *path);

/* For tests: the dialog open over @view, NULL when none. */
GtkFileChooser *hr_export_dialog_get_chooser (GtkWidget         *view);

G_END_DECLS
