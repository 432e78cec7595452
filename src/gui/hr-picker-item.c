/* hr-picker-item.c — one entry of a searchable picker */
#include "hr-picker-item.h"

#include <string.h>

struct _HrPickerItem
{
  GObject parent_instance;

  char *id;
  char *title;
  char *subtitle;
  char *group;
  char *search;     /* case-folded, for matching */
  gboolean header;
};

G_DEFINE_FINAL_TYPE (HrPickerItem, hr_picker_item, G_TYPE_OBJECT)

static void
hr_picker_item_finalize (GObject *object)
{
  HrPickerItem *self = HR_PICKER_ITEM (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->group, g_free);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (hr_picker_item_parent_class)->finalize (object);
}

static void
hr_picker_item_class_init (HrPickerItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_picker_item_finalize;
}

static void
hr_picker_item_init (HrPickerItem *self)
{
}

HrPickerItem *
hr_picker_item_new (const char *id,
                    const char *title,
                    const char *subtitle,
                    const char *group,
                    const char *search_text)
{
  HrPickerItem *self;
  g_autofree char *all = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  self = g_object_new (HR_TYPE_PICKER_ITEM, NULL);
  self->id = g_strdup (id);
  self->title = g_strdup (title ? title : id);
  self->subtitle = g_strdup (subtitle ? subtitle : "");
  self->group = g_strdup (group ? group : "");
  all = g_strjoin (" ", self->title, self->id, self->group, search_text ? search_text : "", NULL);
  self->search = g_utf8_casefold (all, -1);
  return self;
}

HrPickerItem *
hr_picker_item_new_header_full (const char *group,
                                const char *subtitle)
{
  HrPickerItem *self = hr_picker_item_new_header (group);

  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle ? subtitle : "");
  return self;
}

HrPickerItem *
hr_picker_item_new_header (const char *group)
{
  HrPickerItem *self = g_object_new (HR_TYPE_PICKER_ITEM, NULL);

  self->id = g_strdup ("");
  self->title = g_strdup (group ? group : "");
  self->subtitle = g_strdup ("");
  self->group = g_strdup (group ? group : "");
  self->search = g_strdup ("");
  self->header = TRUE;
  return self;
}

const char *
hr_picker_item_get_id (HrPickerItem *self)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), NULL);
  return self->id;
}

const char *
hr_picker_item_get_title (HrPickerItem *self)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), NULL);
  return self->title;
}

const char *
hr_picker_item_get_subtitle (HrPickerItem *self)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), NULL);
  return self->subtitle;
}

const char *
hr_picker_item_get_group (HrPickerItem *self)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), NULL);
  return self->group;
}

gboolean
hr_picker_item_is_header (HrPickerItem *self)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), FALSE);
  return self->header;
}

gboolean
hr_picker_item_matches (HrPickerItem       *self,
                        const char * const *words)
{
  g_return_val_if_fail (HR_IS_PICKER_ITEM (self), FALSE);

  if (self->header)
    return FALSE;
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (self->search, words[i]) == NULL)
      return FALSE;
  return TRUE;
}
