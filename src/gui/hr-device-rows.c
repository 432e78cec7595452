/* hr-device-rows.c — the other GPUs of a mixed setup (hr-device-rows.h, #31) */
#include "hr-device-rows.h"

#include <glib/gi18n-lib.h>

#include "hr-picker.h"
#include "hr-picker-items.h"

struct _HrDeviceRows
{
  AdwBin parent_instance;

  HrSession *session;
  GtkBox *entries;          /* one vertical box per other GPU */
  GtkButton *add_button;
  GPtrArray *pickers;       /* HrPicker*, borrowed: the entries' */
  GPtrArray *adjustments;   /* GtkAdjustment*, borrowed */
  GPtrArray *removes;       /* GtkButton*, borrowed */
  gboolean syncing;         /* the session is being followed: no writing back */
};

G_DEFINE_FINAL_TYPE (HrDeviceRows, hr_device_rows, ADW_TYPE_BIN)

static guint
entry_index (GObject *object)
{
  return GPOINTER_TO_UINT (g_object_get_data (object, "hr-device-index"));
}

static void
picked_cb (HrPicker     *picker,
           const char   *id,
           HrDeviceRows *self)
{
  if (!self->syncing)
    hr_session_set_extra_gpu (self->session, entry_index (G_OBJECT (picker)), id, 0 /* below: kept */);
}

static void
count_changed_cb (GtkAdjustment *adjustment,
                  HrDeviceRows  *self)
{
  guint index = entry_index (G_OBJECT (adjustment));

  if (!self->syncing && hr_session_get_extra_gpu (self->session, index, NULL) != NULL)
    hr_session_set_extra_gpu (self->session, index, NULL, (int) gtk_adjustment_get_value (adjustment));
}

static void
remove_clicked_cb (GtkButton    *button,
                   HrDeviceRows *self)
{
  hr_session_remove_extra_gpu (self->session, entry_index (G_OBJECT (button)));
}

/* A GPU for a new entry: the next in the catalog after the first that is not it (nor a CPU). */
static const char *
another_gpu (HrDeviceRows *self)
{
  HrCatalog *catalog = hr_session_get_catalog (self->session);
  const char *first = hr_session_get_gpu (self->session);
  guint n = hr_catalog_n_gpus (catalog);
  guint start = 0;

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (hr_catalog_get_gpu (catalog, i)->id, first) == 0)
      start = i + 1;
  for (guint k = 0; k < n; k++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, (start + k) % n);

      if (g_strcmp0 (gpu->id, first) != 0 && gpu->backend != HR_BACKEND_CPU)
        return gpu->id;
    }
  return NULL;
}

static void
add_clicked_cb (HrDeviceRows *self)
{
  const char *id = another_gpu (self);
  guint n = hr_session_get_n_extra_gpus (self->session);

  if (id == NULL)
    return;
  hr_session_add_extra_gpu (self->session, id, 1);
  /* the new entry's picker opens: choosing its GPU is the next step */
  if (n < self->pickers->len)
    gtk_widget_grab_focus (g_ptr_array_index (self->pickers, n));
}

static GtkWidget *
build_entry (HrDeviceRows *self,
             guint         index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *picker = hr_picker_new ();
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *row = adw_action_row_new ();
  GtkAdjustment *adjustment = gtk_adjustment_new (1, 1, HR_MAX_MIXED_GPUS, 1, 1, 0);
  GtkWidget *spin = gtk_spin_button_new (adjustment, 1, 0);
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  g_autoptr(GPtrArray) items = hr_picker_items_gpus (hr_session_get_catalog (self->session));
  /* TRANSLATORS: the picker of a GPU of a mixed setup besides the first; %u counts from 1 */
  g_autofree char *title = g_strdup_printf (_("Other GPU %u"), index + 1);
  /* TRANSLATORS: the accessible name of the button removing it, "Remove Other GPU 1" */
  g_autofree char *remove_name = g_strdup_printf (_("Remove Other GPU %u"), index + 1);

  gtk_widget_set_margin_top (box, 12);
  hr_picker_set_items (HR_PICKER (picker), items);
  hr_picker_set_title (HR_PICKER (picker), title);
  hr_picker_set_placeholder (HR_PICKER (picker), _("Search GPUs by name or vendor"));
  g_object_set_data (G_OBJECT (picker), "hr-device-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (picker, "picked", G_CALLBACK (picked_cb), self, 0);
  gtk_box_append (GTK_BOX (box), picker);

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  /* built after hr_window_name_controls() named the view's lists: named here */
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Number of These"));
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  g_object_set_data (G_OBJECT (adjustment), "hr-device-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (count_changed_cb), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, remove_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_name, -1);
  g_object_set_data (G_OBJECT (remove), "hr-device-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (remove, "clicked", G_CALLBACK (remove_clicked_cb), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_box_append (GTK_BOX (box), list);

  g_ptr_array_add (self->pickers, picker);
  g_ptr_array_add (self->adjustments, adjustment);
  g_ptr_array_add (self->removes, remove);
  return box;
}

/* The entries follow the session: rebuilt when their number or the catalog changes, else
 * updated in place (a spin button is not destroyed under the user's click). */
static void
sync_rows (HrDeviceRows *self,
           gboolean      rebuild)
{
  guint n = hr_session_get_n_extra_gpus (self->session);
  GtkWidget *child;

  self->syncing = TRUE;
  if (rebuild || n != self->pickers->len)
    {
      while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->entries))) != NULL)
        gtk_box_remove (self->entries, child);
      g_ptr_array_set_size (self->pickers, 0);
      g_ptr_array_set_size (self->adjustments, 0);
      g_ptr_array_set_size (self->removes, 0);
      for (guint i = 0; i < n; i++)
        gtk_box_append (self->entries, build_entry (self, i));
    }
  for (guint i = 0; i < n; i++)
    {
      int count = 1;
      const char *id = hr_session_get_extra_gpu (self->session, i, &count);

      hr_picker_set_selected_id (g_ptr_array_index (self->pickers, i), id);
      gtk_adjustment_set_value (g_ptr_array_index (self->adjustments, i), count);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->entries), n > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), n < HR_MAX_DEVICE_KINDS - 1);
  self->syncing = FALSE;
}

static void
extra_gpus_changed_cb (HrDeviceRows *self)
{
  sync_rows (self, FALSE);
}

static void
catalog_changed_cb (HrDeviceRows *self)
{
  sync_rows (self, TRUE);
}

static void
hr_device_rows_dispose (GObject *object)
{
  HrDeviceRows *self = HR_DEVICE_ROWS (object);

  g_clear_object (&self->session);
  G_OBJECT_CLASS (hr_device_rows_parent_class)->dispose (object);
}

static void
hr_device_rows_finalize (GObject *object)
{
  HrDeviceRows *self = HR_DEVICE_ROWS (object);

  g_ptr_array_unref (self->pickers);
  g_ptr_array_unref (self->adjustments);
  g_ptr_array_unref (self->removes);
  G_OBJECT_CLASS (hr_device_rows_parent_class)->finalize (object);
}

static void
hr_device_rows_class_init (HrDeviceRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_device_rows_dispose;
  object_class->finalize = hr_device_rows_finalize;
}

static void
hr_device_rows_init (HrDeviceRows *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *content = adw_button_content_new ();

  self->pickers = g_ptr_array_new ();
  self->adjustments = g_ptr_array_new ();
  self->removes = g_ptr_array_new ();
  self->entries = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entries));

  self->add_button = GTK_BUTTON (gtk_button_new ());
  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "list-add-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("_Add Another GPU"));
  adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (content), TRUE);
  gtk_button_set_child (self->add_button, content);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->add_button),
                               _("Size the model on different GPUs together (llama.cpp’s layer split)"));
  gtk_widget_set_halign (GTK_WIDGET (self->add_button), GTK_ALIGN_START);
  gtk_widget_set_margin_top (GTK_WIDGET (self->add_button), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self->add_button), "flat");
  g_signal_connect_object (self->add_button, "clicked", G_CALLBACK (add_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->add_button));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
hr_device_rows_new (HrSession *session)
{
  HrDeviceRows *self = g_object_new (HR_TYPE_DEVICE_ROWS, NULL);

  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::extra-gpus", G_CALLBACK (extra_gpus_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "catalog-changed", G_CALLBACK (catalog_changed_cb), self,
                           G_CONNECT_SWAPPED);
  sync_rows (self, TRUE);
  return GTK_WIDGET (self);
}

guint
hr_device_rows_get_n_rows (HrDeviceRows *self)
{
  g_return_val_if_fail (HR_IS_DEVICE_ROWS (self), 0);
  return self->pickers->len;
}

GtkButton *
hr_device_rows_get_add_button (HrDeviceRows *self)
{
  g_return_val_if_fail (HR_IS_DEVICE_ROWS (self), NULL);
  return self->add_button;
}

GtkButton *
hr_device_rows_get_remove_button (HrDeviceRows *self,
                                  guint         index)
{
  g_return_val_if_fail (HR_IS_DEVICE_ROWS (self), NULL);
  return index < self->removes->len ? g_ptr_array_index (self->removes, index) : NULL;
}
