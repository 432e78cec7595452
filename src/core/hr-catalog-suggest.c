/* hr-catalog-suggest.c — "did you mean": catalog ids close to what someone typed
 *
 * Squashed equality ("GLM-4.5 Air" for "glm-4.5-air") first, then substrings, then a small
 * edit distance; the CLI names these when an id is not found.
 */
#include "hr-catalog-private.h"
#include "hr-text.h"

#include <string.h>

#define MAX_QUERY_CHARS  128

/* Lower case without punctuation: "GLM-4.5 Air" and "glm-45-air" both become "glm45air". */
static char *
squash (const char *str)
{
  GString *out = g_string_new (NULL);

  for (const char *p = str; *p; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (out, g_ascii_tolower (*p));
  return g_string_free (out, FALSE);
}

typedef struct
{
  const char *id;
  guint tier;      /* 0 same once squashed, 1 substring, 2 close by edit distance */
  guint distance;
} Suggestion;

static int
suggestion_compare (gconstpointer a,
                    gconstpointer b)
{
  const Suggestion *x = a;
  const Suggestion *y = b;

  if (x->tier != y->tier)
    return x->tier < y->tier ? -1 : 1;
  if (x->distance != y->distance)
    return x->distance < y->distance ? -1 : 1;
  return strcmp (x->id, y->id);
}

static void
consider (GArray     *found,
          const char *query,
          const char *query_squashed,
          const char *id,
          const char *name)
{
  g_autofree char *id_lower = g_ascii_strdown (id, -1);
  g_autofree char *name_lower = g_ascii_strdown (name != NULL ? name : id, -1);
  g_autofree char *id_squashed = squash (id);
  g_autofree char *name_squashed = squash (name != NULL ? name : id);
  Suggestion s = { id, 2, 0 };
  gsize qlen = strlen (query);

  s.distance = MIN (hr_text_edit_distance (query, id_lower), hr_text_edit_distance (query, name_lower));
  if (*query_squashed != '\0' &&
      (strcmp (query_squashed, id_squashed) == 0 || strcmp (query_squashed, name_squashed) == 0))
    s.tier = 0;
  else if (strstr (id_lower, query) != NULL || strstr (name_lower, query) != NULL ||
           (*query_squashed != '\0' && (strstr (id_squashed, query_squashed) != NULL ||
                                        strstr (name_squashed, query_squashed) != NULL)))
    s.tier = 1;
  else if (s.distance > MAX (2, qlen / 3))
    return;
  g_array_append_val (found, s);
}

static GPtrArray *
suggest (GPtrArray  *items,
         const char *(*get_name) (gconstpointer),
         const char *query,
         guint       max)
{
  GPtrArray *result = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) found = NULL;
  g_autofree char *lower = NULL;
  g_autofree char *squashed = NULL;

  if (query == NULL || *query == '\0' || max == 0 || strlen (query) > MAX_QUERY_CHARS)
    return result;

  lower = g_ascii_strdown (query, -1);
  squashed = squash (query);
  found = g_array_new (FALSE, FALSE, sizeof (Suggestion));
  for (guint i = 0; i < items->len; i++)
    {
      gconstpointer item = g_ptr_array_index (items, i);
      consider (found, lower, squashed, hr_catalog_entry_id (item), get_name (item));
    }
  g_array_sort (found, suggestion_compare);
  for (guint i = 0; i < found->len && result->len < max; i++)
    g_ptr_array_add (result, g_strdup (g_array_index (found, Suggestion, i).id));
  return result;
}

static const char *
model_name (gconstpointer item)
{
  return ((const HrModel *) item)->name;
}

static const char *
gpu_name (gconstpointer item)
{
  return ((const HrGpu *) item)->name;
}

GPtrArray *
hr_catalog_suggest_models (const HrCatalog *catalog,
                           const char      *id,
                           guint            max)
{
  g_return_val_if_fail (catalog != NULL, NULL);

  return suggest (catalog->models.items, model_name, id, max);
}

GPtrArray *
hr_catalog_suggest_gpus (const HrCatalog *catalog,
                         const char      *id,
                         guint            max)
{
  g_return_val_if_fail (catalog != NULL, NULL);

  return suggest (catalog->gpus.items, gpu_name, id, max);
}

/* The entry of @items whose id, else whose display name, is @text without ASCII case: one
 * match only (two entries sharing a name answer nothing). */
static gconstpointer
lookup (GPtrArray    *items,
        const char *(*get_name) (gconstpointer),
        const char   *text)
{
  gconstpointer by_name = NULL;
  guint n_by_name = 0;

  if (text == NULL)
    return NULL;
  for (guint i = 0; i < items->len; i++)
    {
      gconstpointer item = g_ptr_array_index (items, i);

      if (g_ascii_strcasecmp (hr_catalog_entry_id (item), text) == 0)
        return item;
      if (get_name (item) != NULL && g_ascii_strcasecmp (get_name (item), text) == 0)
        {
          by_name = item;
          n_by_name++;
        }
    }
  return n_by_name == 1 ? by_name : NULL;
}

const HrModel *
hr_catalog_lookup_model (const HrCatalog *catalog,
                         const char      *text)
{
  const HrModel *model;

  g_return_val_if_fail (catalog != NULL, NULL);

  if ((model = hr_catalog_find_model (catalog, text)) != NULL)
    return model;
  return lookup (catalog->models.items, model_name, text);
}

const HrGpu *
hr_catalog_lookup_gpu (const HrCatalog *catalog,
                       const char      *text)
{
  const HrGpu *gpu;

  g_return_val_if_fail (catalog != NULL, NULL);

  if ((gpu = hr_catalog_find_gpu (catalog, text)) != NULL)
    return gpu;
  return lookup (catalog->gpus.items, gpu_name, text);
}
