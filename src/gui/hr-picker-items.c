/* hr-picker-items.c — the catalog's models and GPUs as picker entries */
#include "hr-picker-items.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-detect.h"
#include "hr-scenario-state.h"
#include "hr-units.h"

/* Groups that come before the vendors: "This Computer", then "Yours". */
static int
group_rank (const char *group,
            const char *yours,
            const char *here)
{
  return g_strcmp0 (group, here) == 0 ? 0 : g_strcmp0 (group, yours) == 0 ? 1 : 2;
}

/* Groups in order: "This Computer", "Yours", then the vendors by the user's collation; inside
 * a group the catalog's order (g_ptr_array_sort is not stable, so this sorts by hand). */
static void
sort_by_group (GPtrArray  *items,
               const char *yours)
{
  const char *here = _("This Computer");
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (items->len);

  for (guint i = 0; i < items->len; i++)
    {
      const char *g = hr_picker_item_get_group (g_ptr_array_index (items, i));
      gboolean seen = FALSE;

      for (guint j = 0; j < groups->len && !seen; j++)
        seen = g_strcmp0 (g_ptr_array_index (groups, j), g) == 0;
      if (!seen)
        g_ptr_array_add (groups, (gpointer) g);
    }
  for (guint i = 1; i < groups->len; i++)
    for (guint j = i; j > 0; j--)
      {
        const char *a = g_ptr_array_index (groups, j - 1), *b = g_ptr_array_index (groups, j);
        int ra = group_rank (a, yours, here), rb = group_rank (b, yours, here);
        gboolean swap = rb < ra || (ra == rb && ra == 2 && g_utf8_collate (a, b) > 0);

        if (!swap)
          break;
        groups->pdata[j] = (gpointer) a;
        groups->pdata[j - 1] = (gpointer) b;
      }
  for (guint j = 0; j < groups->len; j++)
    for (guint i = 0; i < items->len; i++)
      if (g_strcmp0 (hr_picker_item_get_group (g_ptr_array_index (items, i)), g_ptr_array_index (groups, j)) == 0)
        g_ptr_array_add (sorted, g_ptr_array_index (items, i));
  memcpy (items->pdata, sorted->pdata, sizeof (gpointer) * sorted->len);
}

GPtrArray *
hr_picker_items_models (const HrCatalog *catalog)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  const char *yours = _("Yours");

  g_return_val_if_fail (catalog != NULL, items);

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *m = hr_catalog_get_model (catalog, i);
      g_autofree char *summary = hr_size_model_summary (m);
      g_autofree char *search = g_strjoin (" ", m->family ? m->family : "", m->vendor ? m->vendor : "",
                                           m->hf_repo ? m->hf_repo : "", m->arch_label ? m->arch_label : "",
                                           NULL);
      const char *group = m->origin != HR_MODEL_ORIGIN_CATALOG ? yours
                          : m->vendor ? m->vendor : _("Other");

      g_ptr_array_add (items, hr_picker_item_new (m->id, m->name ? m->name : m->id, summary, group, search));
    }
  sort_by_group (items, yours);
  return items;
}

/* The detected device sized against the free memory names what is already in use. */
static char *
this_summary (const HrCatalog *catalog,
              const HrGpu     *gpu)
{
  const HrGpu *total = hr_catalog_find_gpu (catalog, "this");
  g_autofree char *used = NULL;

  if (g_strcmp0 (gpu->id, "this-free") != 0 || total == NULL)
    return hr_size_gpu_summary (gpu);
  used = hr_size_format_number (total->memory_gib - gpu->memory_gib, 1);
  if (total->backend == HR_BACKEND_CPU)
    /* TRANSLATORS: %s is a size in GiB, e.g. "1.3" */
    return g_strdup_printf (_("The desktop already uses %s GiB of the system RAM"), used);
  /* TRANSLATORS: %s is a size in GiB, e.g. "1.3" */
  return g_strdup_printf (_("The desktop already uses %s GiB of this GPU"), used);
}

GPtrArray *
hr_picker_items_gpus (const HrCatalog *catalog)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  const char *yours = _("Yours");

  g_return_val_if_fail (catalog != NULL, items);

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *g = hr_catalog_get_gpu (catalog, i);
      g_autofree char *summary = this_summary (catalog, g);
      g_autofree char *search = g_strjoin (" ", g->vendor ? g->vendor : "", g->stack ? g->stack : "",
                                           g->memory_type ? g->memory_type : "",
                                           hr_gpu_form_to_string (g->form), NULL);
      const char *group = hr_detect_is_this_id (g->id) ? _("This Computer")
                          : g->user_defined ? yours : g->vendor ? g->vendor : _("Other");

      g_ptr_array_add (items, hr_picker_item_new (g->id, g->name ? g->name : g->id, summary, group, search));
    }
  sort_by_group (items, yours);
  return items;
}
