/* hr-picker-items.c — the catalog's models and GPUs as picker entries */
#include "hr-picker-items.h"

#include "hr-hub-repo.h"
#include "hr-hub-search.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-detect.h"
#include "hr-quant-format.h"
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

/* One entry of the catalog's @i-th model or GPU; "Yours" is @yours. */
typedef HrPickerItem *(*ItemFunc) (const HrCatalog *catalog,
                                   guint            i,
                                   const char      *yours);

/* @n entries, grouped. */
static GPtrArray *
collect (const HrCatalog *catalog,
         guint            n,
         ItemFunc         item)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  const char *yours = _("Yours");

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, item (catalog, i, yours));
  sort_by_group (items, yours);
  return items;
}

static HrPickerItem *
model_item (const HrCatalog *catalog,
            guint            i,
            const char      *yours)
{
  const HrModel *m = hr_catalog_get_model (catalog, i);
  g_autofree char *summary = hr_size_model_summary (m);
  g_autofree char *search = g_strjoin (" ", m->family ? m->family : "", m->vendor ? m->vendor : "",
                                       m->hf_repo ? m->hf_repo : "", m->arch_label ? m->arch_label : "",
                                       NULL);
  const char *group = m->origin != HR_MODEL_ORIGIN_CATALOG ? yours
                      : m->vendor ? m->vendor : _("Other");

  return hr_picker_item_new (m->id, m->name ? m->name : m->id, summary, group, search);
}

GPtrArray *
hr_picker_items_models (const HrCatalog *catalog)
{
  g_return_val_if_fail (catalog != NULL, g_ptr_array_new_with_free_func (g_object_unref));
  return collect (catalog, hr_catalog_n_models (catalog), model_item);
}

/* The detected device sized against the free memory names what is already in use. */
static char *
this_summary (const HrCatalog *catalog,
              const HrGpu     *gpu)
{
  const HrGpu *total = hr_catalog_find_gpu (catalog, "this");
  g_autofree char *used = NULL;

  if (g_strcmp0 (gpu->id, "this") == 0 && gpu->backend != HR_BACKEND_CPU)
    {
      g_autofree char *figures = hr_size_gpu_summary (gpu);
      const HrGpu *entry = gpu->detected_as ? hr_catalog_find_gpu (catalog, gpu->detected_as) : NULL;

      if (entry != NULL)
        /* TRANSLATORS: "This Computer" in the GPU list: the figures, then the entry of the list
         * detection recognized it as, e.g. "31 GB unified · 256 GB/s · recognized as Ryzen AI
         * Max+ 395 128GB (Strix Halo) in the list" */
        return g_strdup_printf (_("%s · recognized as %s in the list"), figures,
                                entry->name ? entry->name : entry->id);
      /* TRANSLATORS: "This Computer" in the GPU list: no entry of the list is this GPU, so only
       * what detection read is known, e.g. "31 GB unified · 256 GB/s · not in the list: …" */
      return g_strdup_printf (_("%s · not in the list: detected figures only"), figures);
    }
  if (g_strcmp0 (gpu->id, "this-free") != 0 || total == NULL)
    return hr_size_gpu_summary (gpu);
  used = hr_size_format_number (total->memory_gib - gpu->memory_gib, 1);
  if (total->backend == HR_BACKEND_CPU)
    /* TRANSLATORS: %s is a size in GiB, e.g. "1.3" */
    return g_strdup_printf (_("The desktop already uses %s GiB of the system RAM"), used);
  /* TRANSLATORS: %s is a size in GiB, e.g. "1.3" */
  return g_strdup_printf (_("The desktop already uses %s GiB of this GPU"), used);
}

static HrPickerItem *
gpu_item (const HrCatalog *catalog,
          guint            i,
          const char      *yours)
{
  const HrGpu *g = hr_catalog_get_gpu (catalog, i);
  g_autofree char *summary = this_summary (catalog, g);
  g_autofree char *search = g_strjoin (" ", g->vendor ? g->vendor : "", g->stack ? g->stack : "",
                                       g->memory_type ? g->memory_type : "",
                                       hr_gpu_form_to_string (g->form), NULL);
  const char *group = hr_detect_is_this_id (g->id) ? _("This Computer")
                      : g->user_defined ? yours : g->vendor ? g->vendor : _("Other");

  return hr_picker_item_new (g->id, g->name ? g->name : g->id, summary, group, search);
}

GPtrArray *
hr_picker_items_gpus (const HrCatalog *catalog)
{
  g_return_val_if_fail (catalog != NULL, g_ptr_array_new_with_free_func (g_object_unref));
  return collect (catalog, hr_catalog_n_gpus (catalog), gpu_item);
}

/* Quantizations --------------------------------------------------------------------------- */

typedef enum
{
  QUANT_GROUP_FLOAT16,
  QUANT_GROUP_K,
  QUANT_GROUP_I,
  QUANT_GROUP_DYNAMIC,
  QUANT_GROUP_LEGACY,
  QUANT_GROUP_LOW_FLOAT,
  QUANT_GROUP_INTEGER,
  N_QUANT_GROUPS
} QuantGroup;

static QuantGroup
quant_group (const HrQuantMix *q)
{
  switch (hr_quant_format (q->id))
    {
    case HR_QUANT_FORMAT_FLOAT:
      return QUANT_GROUP_FLOAT16;
    case HR_QUANT_FORMAT_FP8:
    case HR_QUANT_FORMAT_MXFP4:
    case HR_QUANT_FORMAT_NVFP4:
      return QUANT_GROUP_LOW_FLOAT;
    case HR_QUANT_FORMAT_INT8:
    case HR_QUANT_FORMAT_INT4:
      return QUANT_GROUP_INTEGER;
    case HR_QUANT_FORMAT_GGUF:
    case HR_N_QUANT_FORMATS:
    default:
      break;
    }
  if (g_str_has_prefix (q->id, "UD-"))
    return QUANT_GROUP_DYNAMIC;
  if (g_str_has_prefix (q->id, "IQ"))
    return QUANT_GROUP_I;
  if (q->default_type != NULL && g_str_has_suffix (q->default_type, "_K"))
    return QUANT_GROUP_K;
  return QUANT_GROUP_LEGACY;
}

static const char *
quant_group_name (QuantGroup group)
{
  switch (group)
    {
    /* TRANSLATORS: a group of the quantization picker: BF16, F16 */
    case QUANT_GROUP_FLOAT16: return _("16-bit");
    /* TRANSLATORS: a group of the quantization picker: Q6_K, Q5_K_M, Q4_K_M … */
    case QUANT_GROUP_K: return _("GGUF k-quants");
    /* TRANSLATORS: a group of the quantization picker: IQ4_XS, IQ3_M, IQ2_XXS … */
    case QUANT_GROUP_I: return _("GGUF i-quants");
    /* TRANSLATORS: a group of the quantization picker: UD-Q4_K_XL, UD-Q2_K_XL */
    case QUANT_GROUP_DYNAMIC: return _("GGUF Unsloth dynamic");
    /* TRANSLATORS: a group of the quantization picker: Q8_0, Q5_1, Q4_0 … */
    case QUANT_GROUP_LEGACY: return _("GGUF legacy");
    /* TRANSLATORS: a group of the quantization picker: FP8, MXFP4, NVFP4 */
    case QUANT_GROUP_LOW_FLOAT: return _("8- and 4-bit float");
    /* TRANSLATORS: a group of the quantization picker: AWQ-INT4, GPTQ-INT4 */
    case QUANT_GROUP_INTEGER: return _("Integer checkpoints");
    case N_QUANT_GROUPS:
    default:
      return _("Other");
    }
}

GPtrArray *
hr_picker_items_quants (const HrCatalog *catalog)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (catalog != NULL, items);

  for (guint g = 0; g < N_QUANT_GROUPS; g++)
    {
      g_autoptr(GPtrArray) mixes = g_ptr_array_new ();

      /* stable insertion by bits per weight: the most precise first, catalog order among equals */
      for (guint i = 0; i < hr_catalog_n_quants (catalog); i++)
        {
          const HrQuantMix *q = hr_catalog_get_quant (catalog, i);
          guint at = mixes->len;

          if (quant_group (q) != g)
            continue;
          while (at > 0 && ((const HrQuantMix *) g_ptr_array_index (mixes, at - 1))->nominal_bpw < q->nominal_bpw)
            at--;
          g_ptr_array_insert (mixes, at, (gpointer) q);
        }
      for (guint i = 0; i < mixes->len; i++)
        {
          const HrQuantMix *q = g_ptr_array_index (mixes, i);
          g_ptr_array_add (items, hr_picker_item_new (q->id, q->id, q->label, quant_group_name (g), q->label));
        }
    }
  return items;
}

GPtrArray *
hr_picker_items_hub (HrHubSearch *search)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *hits = hr_hub_search_get_hits (search);
  const char *group = _("Hugging Face");
  const char *line = NULL;

  switch (hr_hub_search_get_state (search))
    {
    case HR_HUB_SEARCH_IDLE:
      return items;
    case HR_HUB_SEARCH_BUSY:
      line = _("Searching the Hub…");
      break;
    case HR_HUB_SEARCH_FAILED:
      line = hr_hub_search_get_message (search);
      break;
    case HR_HUB_SEARCH_DONE:
    default:
      line = hits->len == 0 ? _("No repository on the Hub has that name") : NULL;
      break;
    }
  g_ptr_array_add (items, hr_picker_item_new_header_full (group, line));
  for (guint i = 0; hr_hub_search_get_state (search) == HR_HUB_SEARCH_DONE && i < hits->len; i++)
    {
      const HrHubModelHit *h = g_ptr_array_index (hits, i);
      const char *kind = h->gguf && h->safetensors ? "GGUF, safetensors"
                         : h->gguf ? "GGUF" : h->safetensors ? "safetensors" : _("other files");
      char downloads[64];
      g_autofree char *day = h->last_modified != NULL ? g_strndup (h->last_modified, 10) : NULL;
      g_autofree char *id = g_strconcat ("hf:", h->id, NULL);
      g_autofree char *subtitle = NULL;

      if (h->downloads >= 0)
        hr_format_number_locale_buf (downloads, sizeof downloads, (double) h->downloads, 0);
      else
        g_strlcpy (downloads, "?", sizeof downloads);
      /* TRANSLATORS: "GGUF · 183,502 downloads · updated 2026-11-20" */
      subtitle = g_strdup_printf (_("%s · %s downloads · updated %s"), kind, downloads,
                                  day != NULL ? day : "?");
      g_ptr_array_add (items, hr_picker_item_new (id, h->id, subtitle, group, NULL));
    }
  return items;
}
