/* hr-view-find.h — the "view.find-model" and "view.find-gpu" actions every view has
 *
 * The window's Ctrl+F and Ctrl+G reach whichever view is visible through these two actions;
 * each opens the search of one of the view's widgets: an HrPicker's popover, or a menu
 * button's (Compare's "Add GPUs").
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Installs both actions on @widget_class: they open the widget found at @model_offset and
 * @gpu_offset in the instance struct (G_STRUCT_OFFSET of an HrPicker * or GtkMenuButton *). */
void            hr_view_class_install_find  (GtkWidgetClass *widget_class,
                                             goffset         model_offset,
                                             goffset         gpu_offset);

G_END_DECLS
