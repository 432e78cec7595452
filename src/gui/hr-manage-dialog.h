/* hr-manage-dialog.h — the user's own models and GPUs, to edit and remove
 *
 * A view only: its buttons activate the "import.*" actions (edit-gpu, remove-model,
 * remove-gpu, add-gpu and the model imports) of the action group HrImport inserts into it.
 */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

#define HR_TYPE_MANAGE_DIALOG (hr_manage_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HrManageDialog, hr_manage_dialog, HR, MANAGE_DIALOG, AdwPreferencesWindow)

/* @add_model_menu: the "Add Model" menu (may be NULL). */
HrManageDialog *hr_manage_dialog_new        (GtkWindow       *parent,
                                             GMenuModel      *add_model_menu);
/* Lists the user's entries of @catalog again. */
void            hr_manage_dialog_refresh    (HrManageDialog  *self,
                                             const HrCatalog *catalog);
guint           hr_manage_dialog_get_n_models (HrManageDialog *self);
guint           hr_manage_dialog_get_n_gpus   (HrManageDialog *self);

G_END_DECLS
