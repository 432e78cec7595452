/* hr-picker-item.h — one entry of a searchable picker (a model, a GPU, or a group header) */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define HR_TYPE_PICKER_ITEM (hr_picker_item_get_type ())
G_DECLARE_FINAL_TYPE (HrPickerItem, hr_picker_item, HR, PICKER_ITEM, GObject)

/* An entry: @search_text is matched against the query (name, family, vendor…). */
HrPickerItem   *hr_picker_item_new          (const char   *id,
                                             const char   *title,
                                             const char   *subtitle,
                                             const char   *group,
                                             const char   *search_text);
/* A non-selectable heading for @group. */
HrPickerItem   *hr_picker_item_new_header   (const char   *group);
/* …with a dim line under it (a status: "Searching…", why it failed). */
HrPickerItem   *hr_picker_item_new_header_full (const char *group,
                                             const char   *subtitle);

const char     *hr_picker_item_get_id       (HrPickerItem *self);
const char     *hr_picker_item_get_title    (HrPickerItem *self);
const char     *hr_picker_item_get_subtitle (HrPickerItem *self);
const char     *hr_picker_item_get_group    (HrPickerItem *self);
gboolean        hr_picker_item_is_header    (HrPickerItem *self);
/* TRUE when every word of @words (already case-folded) occurs in the item's search text. */
gboolean        hr_picker_item_matches      (HrPickerItem *self,
                                             const char * const *words);

G_END_DECLS
