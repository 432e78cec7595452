/* hr-view-find.c — the "view.find-model" and "view.find-gpu" actions every view has */
#include "hr-view-find.h"

#include "hr-picker.h"

typedef struct
{
  goffset model;
  goffset gpu;
} FindOffsets;

static GQuark
offsets_quark (void)
{
  return g_quark_from_static_string ("hr-view-find-offsets");
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  const FindOffsets *offsets = NULL;
  GtkWidget *target;

  /* the offsets are those of the class that installed the actions (or of its parent) */
  for (GType type = G_OBJECT_TYPE (widget); offsets == NULL && type != 0; type = g_type_parent (type))
    offsets = g_type_get_qdata (type, offsets_quark ());
  g_return_if_fail (offsets != NULL);

  target = G_STRUCT_MEMBER (GtkWidget *, widget,
                            g_str_equal (action_name, "view.find-gpu") ? offsets->gpu : offsets->model);
  if (HR_IS_PICKER (target))
    hr_picker_popup (HR_PICKER (target));
  else if (GTK_IS_MENU_BUTTON (target))
    gtk_menu_button_popup (GTK_MENU_BUTTON (target));
}

void
hr_view_class_install_find (GtkWidgetClass *widget_class,
                            goffset         model_offset,
                            goffset         gpu_offset)
{
  FindOffsets *offsets = g_new (FindOffsets, 1);   /* lives as long as the class */

  offsets->model = model_offset;
  offsets->gpu = gpu_offset;
  g_type_set_qdata (G_TYPE_FROM_CLASS (widget_class), offsets_quark (), offsets);
  gtk_widget_class_install_action (widget_class, "view.find-model", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "view.find-gpu", NULL, find_action);
}
