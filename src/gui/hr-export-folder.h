/* hr-export-folder.h — where an export dialog opens and what file it writes (no display)
 *
 * The export dialogs of every view (hr-export-dialog.c) ask these; they are plain string
 * functions so the tests check them without a display.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_EXPORT_CHART,   /* PNG, SVG or PDF */
  HR_EXPORT_TABLE,   /* CSV */
} HrExportKind;

/* The folder an export dialog opens in: @remembered (the folder of the last export, may be
 * NULL or "") while it is still a folder; else the user's Pictures folder for a chart, their
 * Documents folder for a table, when it exists; else their home folder.  Never the working
 * directory. */
char           *hr_export_start_folder      (const char    *remembered,
                                             HrExportKind   kind);
/* @path as written: unchanged when it ends in one of @extensions ("png", …, any case),
 * otherwise with ".@fallback" added (a name typed without one takes the chosen format's). */
char           *hr_export_complete_path     (const char          *path,
                                             const char * const  *extensions,
                                             const char          *fallback);

G_END_DECLS
