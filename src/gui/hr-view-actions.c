/* hr-view-actions.c — the "view.*" actions every view has: find-model, find-gpu, copy-json */
#include "hr-view-actions.h"

#include <glib/gi18n-lib.h>

#include "hr-picker.h"
#include "hr-toast.h"

typedef struct
{
  goffset model;
  goffset gpu;
} FindOffsets;

typedef struct
{
  HrViewJsonFunc json;
  const char *message;
} CopyJson;

static GQuark
offsets_quark (void)
{
  return g_quark_from_static_string ("hr-view-find-offsets");
}

static GQuark
copy_json_quark (void)
{
  return g_quark_from_static_string ("hr-view-copy-json");
}

/* What the class of @widget that installed an action (or its parent) gave it, under @quark. */
static gconstpointer
class_data (GtkWidget *widget,
            GQuark     quark)
{
  gconstpointer data = NULL;

  for (GType type = G_OBJECT_TYPE (widget); data == NULL && type != 0; type = g_type_parent (type))
    data = g_type_get_qdata (type, quark);
  return data;
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  const FindOffsets *offsets = class_data (widget, offsets_quark ());
  GtkWidget *target;

  g_return_if_fail (offsets != NULL);

  target = G_STRUCT_MEMBER (GtkWidget *, widget,
                            g_str_equal (action_name, "view.find-gpu") ? offsets->gpu : offsets->model);
  if (HR_IS_PICKER (target))
    hr_picker_popup (HR_PICKER (target));
  else if (GTK_IS_MENU_BUTTON (target))
    gtk_menu_button_popup (GTK_MENU_BUTTON (target));
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  const CopyJson *copy = class_data (widget, copy_json_quark ());
  g_autofree char *json = NULL;

  g_return_if_fail (copy != NULL);

  json = copy->json (widget);
  if (json != NULL)
    hr_toast_copied (widget, json, _(copy->message));
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

void
hr_view_class_install_copy_json (GtkWidgetClass *widget_class,
                                 HrViewJsonFunc  json,
                                 const char     *message)
{
  CopyJson *copy = g_new (CopyJson, 1);   /* lives as long as the class */

  copy->json = json;
  copy->message = message;
  g_type_set_qdata (G_TYPE_FROM_CLASS (widget_class), copy_json_quark (), copy);
  gtk_widget_class_install_action (widget_class, "view.copy-json", NULL, copy_json_action);
}
