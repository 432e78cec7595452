/* hr-device-rows.h — the other GPUs of a mixed setup, under the Size view's GPU picker (#31)
 *
 * One entry per GPU besides the first (the session's "extra-gpus"): its own GPU picker, its
 * count and a remove button; an "Add Another GPU" button under them.  Alike GPUs keep the
 * view's single picker and its "Number of GPUs".  Follows the session both ways.
 */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_DEVICE_ROWS (hr_device_rows_get_type ())
G_DECLARE_FINAL_TYPE (HrDeviceRows, hr_device_rows, HR, DEVICE_ROWS, AdwBin)

GtkWidget      *hr_device_rows_new          (HrSession     *session);
/* For the tests: the entries shown, and the add button. */
guint           hr_device_rows_get_n_rows   (HrDeviceRows  *self);
GtkButton      *hr_device_rows_get_add_button (HrDeviceRows *self);
/* The @index'th entry's remove button, count and picker (NULL past the end). */
GtkButton      *hr_device_rows_get_remove_button (HrDeviceRows *self,
                                             guint          index);

G_END_DECLS
