/* hr-picker-items.h — the catalog's models, GPUs and quantizations as picker entries, for the
 * views that pick them (Size, Compare, Fine-tune) */
#pragma once

#include "hr-catalog.h"
#include "hr-picker-item.h"

G_BEGIN_DECLS

/* HrPickerItem*: the user's own first, under "Yours", then by vendor (catalog order inside a
 * vendor).  Free with g_ptr_array_unref. */
GPtrArray      *hr_picker_items_models      (const HrCatalog *catalog);
GPtrArray      *hr_picker_items_gpus        (const HrCatalog *catalog);
/* The catalog's quantizations by format family (16-bit, GGUF k-quants, i-quants, Unsloth
 * dynamic, legacy, low-bit float, integer checkpoints), the most precise first inside each. */
GPtrArray      *hr_picker_items_quants      (const HrCatalog *catalog);

G_END_DECLS
