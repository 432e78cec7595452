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
/* The Hub search's state as picker extras (hr_picker_set_extras): the "Hugging Face" heading
 * (its line says "Searching…", why it failed, or that nothing was found) and one entry per
 * repository, id "hf:ORG/NAME", with what it holds, its downloads and last change.  Empty
 * when nothing is asked. */
struct _HrHubSearch;
GPtrArray      *hr_picker_items_hub         (struct _HrHubSearch *search);

G_END_DECLS
