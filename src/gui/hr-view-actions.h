/* hr-view-actions.h — the "view.*" actions every view has, installed by one call each
 *
 * The window's Ctrl+F, Ctrl+G and Ctrl+Shift+C reach whichever view is visible through these
 * actions.  "view.find-model" and "view.find-gpu" open the search of one of the view's widgets:
 * an HrPicker's popover, or a menu button's (Compare's "Add GPUs").  "view.copy-json" puts the
 * view's figures on the clipboard as JSON.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The figures @view shows as JSON (transfer full), NULL when it has none to copy. */
typedef char *(*HrViewJsonFunc) (GtkWidget *view);

/* Installs both find actions on @widget_class: they open the widget found at @model_offset and
 * @gpu_offset in the instance struct (G_STRUCT_OFFSET of an HrPicker * or GtkMenuButton *). */
void            hr_view_class_install_find  (GtkWidgetClass *widget_class,
                                             goffset         model_offset,
                                             goffset         gpu_offset);
/* Installs "view.copy-json" on @widget_class: it copies what @json returns and says so with
 * @message, a static string marked with N_() (translated when shown). */
void            hr_view_class_install_copy_json (GtkWidgetClass *widget_class,
                                                 HrViewJsonFunc  json,
                                                 const char     *message);

G_END_DECLS
