/* hr-catalog-suggest.c — "did you mean": catalog ids close to what someone typed
 *
 * Squashed equality ("GLM-4.5 Air" for "glm-4.5-air") first, then substrings, then a small
 * edit distance; the CLI names these when an id is not found.
 */
#include "hr-catalog-private.h"

#include <string.h>

#define MAX_QUERY_CHARS  128

/* Edit distance between two short byte strings (ids and names are mostly ASCII). */
static guint
levenshtein (const char *a,
             const char *b)
{
  gsize la = strlen (a);
  gsize lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diag = row[0];

      row[0] = (guint) i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint up = row[j];
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diag + cost);
          diag = up;
        }
    }
  return row[lb];
}

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

  s.distance = MIN (levenshtein (query, id_lower), levenshtein (query, name_lower));
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
