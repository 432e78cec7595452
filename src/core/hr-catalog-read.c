/* hr-catalog-read.c — one catalog document and its fields, checked
 *
 * The same readers serve the bundled catalogs, the user's own models and GPUs, and whatever a
 * fuzzer throws at them, so they trust nothing: the text is checked (size, UTF-8, long
 * integers) before json-glib sees it, the nesting is limited, every field is type- and
 * range-checked, and an error names the file, the entry and the field.
 */
#include "hr-catalog-private.h"

#include "hr-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The catalogs need five levels (hr-json.c says why there is a limit). */
#define MAX_DEPTH        32
#define MAX_TEXT_BYTES   (32 * 1024 * 1024)
#define MAX_ENTRIES      10000
#define MAX_ID_CHARS     64

void
hr_entry_set_label (HrEntry    *entry,
                    const char *what,
                    guint       index,
                    const char *id)
{
  g_free (entry->label);
  if (id != NULL)
    entry->label = g_strdup_printf ("%s “%s”", what, id);
  else
    entry->label = g_strdup_printf ("%s #%u", what, index + 1);
}

void
hr_entry_error (GError       **error,
                const HrEntry *entry,
                const char    *field,
                const char    *format,
                ...)
{
  g_autofree char *problem = NULL;
  va_list args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
               "%s: %s: “%s” %s", entry->file, entry->label, field, problem);
}

/* Size, UTF-8 and long integers, checked on the raw text; hr_json_parse() then settles the
 * syntax and the nesting. */
static gboolean
check_text (const char  *file,
            const char  *json,
            gsize        length,
            GError     **error)
{
  gboolean in_string = FALSE;
  gboolean escaped = FALSE;
  gboolean fraction = FALSE;
  guint digits = 0;

  if (length == 0)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, _("%s: empty file"), file);
      return FALSE;
    }
  if (length > MAX_TEXT_BYTES)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: file too large (%llu bytes, at most %d)"),
                   file, (unsigned long long) length, MAX_TEXT_BYTES);
      return FALSE;
    }
  if (!g_utf8_validate (json, length, NULL))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: not valid UTF-8 text"), file);
      return FALSE;
    }

  for (gsize i = 0; i < length; i++)
    {
      char c = json[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (g_ascii_isdigit (c))
        {
          /* json-glib wraps integers beyond 64 bits to -1 without a word; refuse them here so
           * the message says what is wrong.  Long fractions are harmless. */
          if (digits++ == 0)
            fraction = i > 0 && json[i - 1] == '.';
          if (digits > 18 && !fraction)
            {
              g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                           _("%s: a number with more than 18 digits at byte %llu"),
                           file, (unsigned long long) i);
              return FALSE;
            }
          continue;
        }
      else if (c == '"')
        in_string = TRUE;
      digits = 0;
    }
  return TRUE;
}

/* Parses @json and returns its root object's @list_member array (a new reference to the parser
 * in @parser_out keeps it, and the root object, alive). */
JsonArray *
hr_catalog_parse_document (const char   *file,
                           const char   *json,
                           gssize        length,
                           const char   *list_member,
                           JsonParser  **parser_out,
                           GError      **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  JsonObject *object;
  JsonNode *node;
  gsize len;

  if (json == NULL)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, _("%s: no data"), file);
      return NULL;
    }
  len = length < 0 ? strlen (json) : (gsize) length;
  if (!check_text (file, json, len, error))
    return NULL;

  parser = hr_json_parse (json, (gssize) len, MAX_DEPTH, HR_JSON_DEFAULT_VALUES, &local_error);
  if (parser == NULL)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: not valid JSON: %s"), file, local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: the top level must be a JSON object"), file);
      return NULL;
    }
  object = json_node_get_object (root);

  node = json_object_get_member (object, "schema");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) != 1)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: “schema” must be 1"), file);
      return NULL;
    }

  node = json_object_get_member (object, list_member);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: “%s” must be an array"), file, list_member);
      return NULL;
    }
  if (json_array_get_length (json_node_get_array (node)) > MAX_ENTRIES)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: more than %d entries in “%s”"), file, MAX_ENTRIES, list_member);
      return NULL;
    }

  *parser_out = g_steal_pointer (&parser);
  return json_node_get_array (node);
}

/* The member, or NULL when it is absent or JSON null (both mean "unknown"). */
JsonNode *
hr_catalog_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

/* The member @field in *@out, NULL when absent: an error only when it is @required. */
static gboolean
read_member (const HrEntry *entry,
             const char    *field,
             gboolean       required,
             JsonNode     **out,
             GError       **error)
{
  *out = hr_catalog_member (entry->object, field);
  if (*out == NULL && required)
    {
      hr_entry_error (error, entry, field, _("is missing"));
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_entry_read_string (const HrEntry *entry,
                      const char    *field,
                      gboolean       required,
                      guint          max_chars,
                      char         **out,
                      GError       **error)
{
  JsonNode *node;
  const char *str;

  *out = NULL;
  if (!read_member (entry, field, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    {
      hr_entry_error (error, entry, field, _("must be a string"));
      return FALSE;
    }
  str = json_node_get_string (node);
  /* \u escapes can spell lone surrogates, which are not UTF-8 once decoded. */
  if (!g_utf8_validate (str, -1, NULL))
    {
      hr_entry_error (error, entry, field, _("is not valid UTF-8"));
      return FALSE;
    }
  if (required && *str == '\0')
    {
      hr_entry_error (error, entry, field, _("must not be empty"));
      return FALSE;
    }
  if (g_utf8_strlen (str, -1) > (glong) max_chars)
    {
      hr_entry_error (error, entry, field, _("is longer than %u characters"), max_chars);
      return FALSE;
    }
  *out = g_strdup (str);
  return TRUE;
}

/* A whole number for a COUNT or INT64 field, in [min, max]. */
static gboolean
read_whole (const HrEntry *entry,
            const HrField *field,
            JsonNode      *node,
            gint64        *out,
            GError       **error)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *out = json_node_get_int (node);
  else
    {
      double value = json_node_get_double (node);

      /* "46.0" is still 46; anything fractional or beyond 2^53 is not a count. */
      if (!isfinite (value) || value != floor (value) || fabs (value) > 9007199254740992.0)
        {
          hr_entry_error (error, entry, field->name, _("must be a whole number"));
          return FALSE;
        }
      *out = (gint64) value;
    }
  if (*out < field->min || *out > (gint64) field->max)
    {
      hr_entry_error (error, entry, field->name,
                      _("is %lld, out of range (%lld … %lld)"),
                      (long long) *out, (long long) field->min, (long long) field->max);
      return FALSE;
    }
  return TRUE;
}

/* A finite number for a NUMBER field (above 0) or a BYTES field (from 0), at most max. */
static gboolean
read_real (const HrEntry *entry,
           const HrField *field,
           JsonNode      *node,
           double        *out,
           GError       **error)
{
  gboolean above_zero = field->type == HR_FIELD_NUMBER;
  /* json-glib converts an integer to a double here. */
  double value = json_node_get_double (node);

  if (!isfinite (value))
    {
      hr_entry_error (error, entry, field->name, _("must be a finite number"));
      return FALSE;
    }
  if (value < 0 || (above_zero && value <= 0) || value > field->max)
    {
      hr_entry_error (error, entry, field->name, _("is %g, out of range (%s%g … %g)"),
                      value, above_zero ? "> " : "", 0.0, field->max);
      return FALSE;
    }
  *out = value;
  return TRUE;
}

/* A NUMBER or BYTES field into a double (absent: NAN), a COUNT into an int or an INT64 into a
 * gint64 (absent: 0). */
static gboolean
read_numeric (const HrEntry *entry,
              const HrField *field,
              gpointer       out,
              GError       **error)
{
  gboolean whole = field->type == HR_FIELD_COUNT || field->type == HR_FIELD_INT64;
  gint64 count = 0;
  JsonNode *node;
  GType type;

  if (!read_member (entry, field->name, field->required, &node, error))
    return FALSE;
  type = node != NULL ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (node != NULL && type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    {
      hr_entry_error (error, entry, field->name,
                      whole ? _("must be a whole number") : _("must be a number"));
      return FALSE;
    }
  if (!whole)
    {
      *(double *) out = NAN;
      return node == NULL || read_real (entry, field, node, out, error);
    }
  if (node != NULL && !read_whole (entry, field, node, &count, error))
    return FALSE;
  if (field->type == HR_FIELD_COUNT)
    *(int *) out = (int) count;
  else
    *(gint64 *) out = count;
  return TRUE;
}

static gboolean
read_bool (const HrEntry *entry,
           const HrField *field,
           gboolean      *out,
           GError       **error)
{
  JsonNode *node = hr_catalog_member (entry->object, field->name);

  *out = FALSE;
  if (node == NULL)
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      hr_entry_error (error, entry, field->name, _("must be true or false"));
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* The member @field as a JSON object or array (@type) in *@out; NULL when absent and not
 * @required. */
gboolean
hr_entry_read_node (const HrEntry *entry,
                    const char    *field,
                    gboolean       required,
                    JsonNodeType   type,
                    JsonNode     **out,
                    GError       **error)
{
  if (!read_member (entry, field, required, out, error))
    return FALSE;
  if (*out != NULL && JSON_NODE_TYPE (*out) != type)
    {
      hr_entry_error (error, entry, field,
                      type == JSON_NODE_ARRAY ? _("must be an array") : _("must be an object"));
      return FALSE;
    }
  return TRUE;
}

/* Ids are lower-case slugs ("glm-4.5-air"); quant ids keep their case ("UD-Q2_K_XL"). */
gboolean
hr_catalog_is_slug (const char *str,
                    gboolean    allow_upper)
{
  if (str == NULL || *str == '\0' || strlen (str) > MAX_ID_CHARS)
    return FALSE;
  if (!g_ascii_isalnum (*str))
    return FALSE;
  for (const char *p = str; *p; p++)
    {
      if (g_ascii_islower (*p) || g_ascii_isdigit (*p) || strchr ("-._+", *p) != NULL)
        continue;
      if (allow_upper && g_ascii_isupper (*p))
        continue;
      return FALSE;
    }
  return TRUE;
}

/* Points @entry at entry @index of @array, labelled "@what #n" until its "id" is read into
 * *@id, then "@what “id”".  FALSE when it is not an object or the id is missing or not a slug. */
gboolean
hr_entry_open (HrEntry     *entry,
               const char  *what,
               JsonArray   *array,
               guint        index,
               gboolean     allow_upper,
               char       **id,
               GError     **error)
{
  g_autofree char *read = NULL;

  hr_entry_set_label (entry, what, index, NULL);
  if (!hr_entry_at (entry, array, index, error) ||
      !hr_entry_read_string (entry, "id", TRUE, MAX_ID_CHARS, &read, error))
    return FALSE;
  if (!hr_catalog_is_slug (read, allow_upper))
    {
      hr_entry_error (error, entry, "id",
                      allow_upper ? _("must be letters, digits and - . _ + only")
                                  : _("must be a lower-case slug (a-z, 0-9, - . _ +)"));
      return FALSE;
    }
  hr_entry_set_label (entry, what, index, read);
  *id = g_steal_pointer (&read);
  return TRUE;
}

gboolean
hr_entry_at (HrEntry   *entry,
             JsonArray *array,
             guint      index,
             GError   **error)
{
  JsonNode *node = json_array_get_element (array, index);

  entry->object = NULL;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   _("%s: %s must be an object"), entry->file, entry->label);
      return FALSE;
    }
  entry->object = json_node_get_object (node);
  return TRUE;
}

static gboolean
check_confidence (const HrEntry *entry,
                  const char    *confidence,
                  GError       **error)
{
  static const char *known[] = { "sourced", "partly", "inferred", "user" };

  if (confidence == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (strcmp (confidence, known[i]) == 0)
      return TRUE;
  hr_entry_error (error, entry, "confidence", _("must be sourced, partly, inferred or user"));
  return FALSE;
}

/* Catalog labels are English in the JSON and listed for translation in
 * data/catalog-strings.c; the user sees them in their language. */
static void
translate_label (char **label)
{
  const char *translated;

  if (*label == NULL || **label == '\0')
    return;
  translated = g_dgettext (GETTEXT_PACKAGE, *label);
  if (translated != *label)
    {
      char *copy = g_strdup (translated);
      g_free (*label);
      *label = copy;
    }
}

static gboolean
read_field (const HrEntry *entry,
            const HrField *field,
            gpointer       out,
            GError       **error)
{
  switch (field->type)
    {
    case HR_FIELD_STRING:
      return hr_entry_read_string (entry, field->name, field->required, (guint) field->max, out,
                                   error);
    case HR_FIELD_LABEL:
      if (!hr_entry_read_string (entry, field->name, field->required, (guint) field->max, out,
                                 error))
        return FALSE;
      translate_label (out);
      return TRUE;
    case HR_FIELD_CONFIDENCE:
      return hr_entry_read_string (entry, field->name, FALSE, 16, out, error) &&
             check_confidence (entry, *(char **) out, error);
    case HR_FIELD_NUMBER:
    case HR_FIELD_BYTES:
    case HR_FIELD_COUNT:
    case HR_FIELD_INT64:
      return read_numeric (entry, field, out, error);
    case HR_FIELD_BOOL:
      return read_bool (entry, field, out, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

gboolean
hr_entry_read_fields (const HrEntry *entry,
                      const HrField *fields,
                      guint          n_fields,
                      gpointer       target,
                      GError       **error)
{
  for (guint i = 0; i < n_fields; i++)
    if (!read_field (entry, &fields[i], (guint8 *) target + fields[i].offset, error))
      return FALSE;
  return TRUE;
}
