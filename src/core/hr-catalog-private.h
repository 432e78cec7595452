/* hr-catalog-private.h — what the catalog's own files share, and nothing else includes
 *
 * hr-catalog.c is the store and the lookups, hr-catalog-read.c reads one document and its
 * fields, hr-catalog-parse.c turns each file's entries into structs, hr-catalog-suggest.c finds
 * ids close to a typo.
 */
#pragma once

#include "hr-catalog.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One kind of entry: the list in catalog order and its index by id. */
typedef struct
{
  GPtrArray *items;         /* owned */
  GHashTable *index;        /* id → item, borrowed */
} HrCatalogList;

struct _HrCatalog
{
  HrCatalogList models;     /* HrModel */
  HrCatalogList gpus;       /* HrGpu */
  HrCatalogList quants;     /* HrQuantMix */
  HrPricing *pricing;
};

/* The entry being read: its object, and its name for error messages. */
typedef struct
{
  const char *file;   /* "models.json" */
  char *label;        /* "model “glm-4.5-air”", or "model #3" before the id is known */
  JsonObject *object; /* borrowed from the document; NULL until opened */
} HrEntry;

/* Models, GPUs and quantizations all begin with their id. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (HrModel, id) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (HrGpu, id) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (HrQuantMix, id) == 0);

static inline const char *
hr_catalog_entry_id (gconstpointer item)
{
  return *(char * const *) item;
}

/* hr-catalog.c: adds @item (owned), or replaces the entry with its id in place. */
void        hr_catalog_list_put        (HrCatalogList *list,
                                        gpointer       item);

/* hr-catalog-read.c: a document.  Parses @json and returns its root object's @list_member
 * array (a new reference to the parser in @parser_out keeps it and the root alive). */
JsonArray  *hr_catalog_parse_document  (const char    *file,
                                        const char    *json,
                                        gssize         length,
                                        const char    *list_member,
                                        JsonParser   **parser_out,
                                        GError       **error);
/* The member, or NULL when it is absent or JSON null (both mean "unknown"). */
JsonNode   *hr_catalog_member          (JsonObject    *object,
                                        const char    *name);
/* Ids are lower-case slugs ("glm-4.5-air"); quant ids keep their case ("UD-Q2_K_XL"). */
gboolean    hr_catalog_is_slug         (const char    *str,
                                        gboolean       allow_upper);

/* hr-catalog-read.c: the fields of one entry; each error names the file, entry and field. */
void        hr_entry_set_label         (HrEntry       *entry,
                                        const char    *what,
                                        guint          index,
                                        const char    *id);
void        hr_entry_error             (GError       **error,
                                        const HrEntry *entry,
                                        const char    *field,
                                        const char    *format,
                                        ...) G_GNUC_PRINTF (4, 5);
/* Points @entry at element @index of @array, which must be an object. */
gboolean    hr_entry_at                (HrEntry       *entry,
                                        JsonArray     *array,
                                        guint          index,
                                        GError       **error);
/* One field of an entry for hr_entry_read_fields(): where it goes in the struct being filled
 * and what it may hold.  Absent optional fields leave NULL, NAN, 0 or FALSE. */
typedef enum
{
  HR_FIELD_STRING,      /* char *, at most max characters */
  HR_FIELD_LABEL,       /* char *, shown translated (listed in data/catalog-strings.c) */
  HR_FIELD_CONFIDENCE,  /* char *: sourced, partly, inferred or user */
  HR_FIELD_NUMBER,      /* double, above 0 and at most max */
  HR_FIELD_BYTES,       /* double, 0 to max */
  HR_FIELD_COUNT,       /* int in [min, max] */
  HR_FIELD_INT64,       /* gint64 in [min, max] */
  HR_FIELD_BOOL,        /* gboolean */
} HrFieldType;

typedef struct
{
  const char *name;
  HrFieldType type;
  gsize offset;         /* G_STRUCT_OFFSET in the struct filled */
  gboolean required;
  gint64 min;
  double max;
} HrField;

/* Reads @fields of @entry's object in order into @target; the first bad one is the error. */
gboolean    hr_entry_read_fields       (const HrEntry *entry,
                                        const HrField *fields,
                                        guint          n_fields,
                                        gpointer       target,
                                        GError       **error);
gboolean    hr_entry_read_string       (const HrEntry *entry,
                                        const char    *field,
                                        gboolean       required,
                                        guint          max_chars,
                                        char         **out,
                                        GError       **error);
/* The member @field as a JSON object or array (@type) in *@out; NULL when absent and not
 * @required. */
gboolean    hr_entry_read_node         (const HrEntry *entry,
                                        const char    *field,
                                        gboolean       required,
                                        JsonNodeType   type,
                                        JsonNode     **out,
                                        GError       **error);
/* Points @entry at entry @index of @array, labelled "@what #n" until its "id" is read into
 * *@id, then "@what “id”".  FALSE when it is not an object or the id is missing or not a slug. */
gboolean    hr_entry_open              (HrEntry       *entry,
                                        const char    *what,
                                        JsonArray     *array,
                                        guint          index,
                                        gboolean       allow_upper,
                                        char         **id,
                                        GError       **error);

G_END_DECLS
