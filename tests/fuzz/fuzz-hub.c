/* fuzz-hub.c — libFuzzer entry point for the Hub's JSON: tree listings (with the GGUF models and
 * safetensors weights made of them), search results, a config.json's quantization and repo
 * references.  The first byte picks. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-hub-repo.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  const char *text = (const char *) data + 1;
  gsize len = size - 1;

  if (size < 1 || size > HR_HUB_PAGE_MAX_SIZE)
    return 0;
  switch (data[0] % 4)
    {
    case 0:
      {
        g_autoptr(HrHubTree) tree = hr_hub_tree_new ();
        g_autoptr(GPtrArray) models = NULL;
        g_auto(GStrv) shards = NULL;
        guint64 gguf_bytes = 0, listed = 0;

        if (!hr_hub_tree_add_page (tree, text, len, &error))
          {
            g_assert (error != NULL);
            break;
          }
        models = hr_hub_tree_gguf_models (tree);
        for (guint i = 0; i < models->len; i++)
          {
            const HrHubGgufModel *m = g_ptr_array_index (models, i);

            g_assert (m->n_parts >= 1);
            g_assert (hr_hub_tree_find (tree, m->path) != NULL);
            gguf_bytes += m->bytes;
          }
        for (guint i = 0; i < tree->files->len; i++)
          {
            const HrHubFile *f = g_ptr_array_index (tree->files, i);

            g_assert (f->path[0] != '/' && strcmp (f->path, "..") != 0 &&
                      !g_str_has_prefix (f->path, "../") && strstr (f->path, "/../") == NULL &&
                      !g_str_has_suffix (f->path, "/.."));
            if (f->role == HR_HUB_ROLE_GGUF)
              listed += f->size;
          }
        g_assert (gguf_bytes == listed);
        shards = hr_hub_tree_safetensors (tree);
        for (guint i = 0; shards != NULL && shards[i] != NULL; i++)
          g_assert (hr_hub_tree_find (tree, shards[i]) != NULL);
        break;
      }
    case 1:
      {
        g_autoptr(GPtrArray) hits = hr_hub_hits_new ();

        if (!hr_hub_search_add_page (hits, text, len, &error))
          g_assert (error != NULL);
        for (guint i = 0; i < hits->len; i++)
          g_assert (strchr (((HrHubModelHit *) g_ptr_array_index (hits, i))->id, '/') != NULL);
        break;
      }
    case 2:
      {
        g_autofree char *method = NULL;
        g_autofree char *quant = hr_hub_checkpoint_quant (text, len, &method);

        (void) quant;
        break;
      }
    default:
      {
        g_autofree char *s = g_strndup (text, len);
        g_autofree char *repo = NULL, *rev = NULL, *sel = NULL;
        g_autofree char *q = NULL;

        if (hr_hub_ref_parse (s, &repo, &rev, &sel, &error))
          g_assert (repo != NULL && rev != NULL);
        else
          g_assert (error != NULL);
        q = hr_hub_quant_from_name (s);
        (void) hr_hub_role_for_path (s);
        break;
      }
    }
  return 0;
}
