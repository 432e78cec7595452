/* hr-userdata.c — the user's own models and GPUs, saved between runs
 *
 * The catalog parsers are the only readers: a file is valid exactly when
 * hr_catalog_load_models()/_gpus() accept it, and a save is refused unless the document about to
 * be written passes the same parser, so nothing is ever written that the next start could not
 * read back.  Ids and the JSON of one entry are hr-userdata-json.c.
 */
#include "hr-userdata-private.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "hr-file.h"
#include "hr-json.h"
#include "hr-text.h"
#include "hr-units.h"

#define MODELS_FILE    "models.json"
#define GPUS_FILE      "gpus.json"
#define MAX_PATH_CHARS 4096
/* The catalog parser's own limit; a larger file is damaged by definition. */
#define MAX_FILE_BYTES (32 * 1024 * 1024)

struct _HrUserData
{
  char *dir;
  char *models_path;
  char *gpus_path;
  gboolean read_only;   /* hr_userdata_set_read_only(): never writes, moves or locks */
};

/* What differs between models.json and gpus.json. */
typedef struct
{
  const char *file;     /* "models.json" */
  const char *member;   /* the list in the document */
  gboolean (*parse) (HrCatalog *catalog, const char *json, gssize length, GError **error);
  guint (*n_entries) (const HrCatalog *catalog);
  gpointer (*copy_entry) (const HrCatalog *catalog, guint index);
  GDestroyNotify free_entry;
  void (*write_entry) (HrJsonWriter *w, gconstpointer entry);
  char **(*id_of) (gpointer entry);
  /* Members of our own the catalog parser skips (origin, exact counts, GGUF bytes). */
  void (*read_extras) (gpointer entry, JsonObject *object);
} Kind;

G_DEFINE_QUARK (hr-userdata-error-quark, hr_userdata_error)

/* ------------------------------------------------------------------------------------------ */
/* The two kinds of file                                                                        */

static gpointer
copy_model_at (const HrCatalog *catalog,
               guint            index)
{
  return hr_model_copy (hr_catalog_get_model (catalog, index));
}

static gpointer
copy_gpu_at (const HrCatalog *catalog,
             guint            index)
{
  return hr_gpu_copy (hr_catalog_get_gpu (catalog, index));
}

static void
write_model (HrJsonWriter  *w,
             gconstpointer  entry)
{
  hr_model_write_json (w, entry);
}

static void
write_gpu (HrJsonWriter  *w,
           gconstpointer  entry)
{
  hr_gpu_write_json (w, entry);
}

static char **
model_id_of (gpointer entry)
{
  return &((HrModel *) entry)->id;
}

static char **
gpu_id_of (gpointer entry)
{
  return &((HrGpu *) entry)->id;
}

static gboolean
get_int_member (JsonObject *object,
                const char *name,
                gint64      min,
                gint64      max,
                gint64     *out)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (node);
  return *out >= min && *out <= max;
}

/* A string member, or NULL when absent or not a string (never a critical on odd input). */
static const char *
get_string_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
read_model_extras (gpointer    entry,
                   JsonObject *object)
{
  HrModel *model = entry;
  const char *origin;
  JsonNode *node;
  gint64 value;

  /* Malformed extras are ignored: the catalog fields alone describe a usable model. */
  origin = get_string_member (object, "origin");
  if (g_strcmp0 (origin, "config") == 0)
    model->origin = HR_MODEL_ORIGIN_CONFIG;
  else if (g_strcmp0 (origin, "gguf") == 0)
    model->origin = HR_MODEL_ORIGIN_GGUF;

  /* The exact counts, when they agree with the rounded billions the catalog parser read. */
  if (get_int_member (object, "total_params", 1, (gint64) MAX_EXACT, &value) &&
      isfinite (model->total_params) && fabs ((double) value - model->total_params) < 1e3)
    model->total_params = (double) value;
  if (get_int_member (object, "active_params", 1, (gint64) MAX_EXACT, &value) &&
      isfinite (model->active_params) && fabs ((double) value - model->active_params) < 1e3)
    model->active_params = (double) value;

  node = json_object_get_member (object, "gguf");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *gguf = json_node_get_object (node);
      const char *quant = get_string_member (gguf, "quant");
      const char *path;

      if (quant != NULL && g_utf8_validate (quant, -1, NULL) && strlen (quant) <= 32)
        {
          g_free (model->gguf_quant);
          model->gguf_quant = g_strdup (quant);
        }
      if (get_int_member (gguf, "bytes", 0, G_MAXINT64, &value))
        model->gguf_bytes = (guint64) value;
      if (get_int_member (gguf, "expert_bytes", 0, (gint64) model->gguf_bytes, &value))
        model->gguf_expert_bytes = (guint64) value;
      if (get_int_member (gguf, "file_type", -1, G_MAXINT32, &value))
        model->gguf_file_type = (int) value;
      path = get_string_member (gguf, "path");
      if (path != NULL && g_path_is_absolute (path) && strlen (path) <= MAX_PATH_CHARS)
        {
          g_free (model->gguf_path);
          model->gguf_path = g_strdup (path);
        }
    }
}

static void
read_gpu_extras (gpointer    entry,
                 JsonObject *object)
{
  ((HrGpu *) entry)->user_defined = TRUE;
}

static const Kind model_kind = {
  MODELS_FILE, "models", hr_catalog_load_models, hr_catalog_n_models, copy_model_at,
  (GDestroyNotify) hr_model_free, write_model, model_id_of, read_model_extras,
};

static const Kind gpu_kind = {
  GPUS_FILE, "gpus", hr_catalog_load_gpus, hr_catalog_n_gpus, copy_gpu_at,
  (GDestroyNotify) hr_gpu_free, write_gpu, gpu_id_of, read_gpu_extras,
};

static const char *
kind_path (const HrUserData *userdata,
           const Kind       *kind)
{
  return kind == &model_kind ? userdata->models_path : userdata->gpus_path;
}

static const char *
kind_label (const Kind *kind)
{
  return kind == &model_kind ? _("models") : _("GPUs");
}

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                      */

/* A stamp for the copies of a file set aside: "PATH.WHAT-YYYYmmdd-HHMMSS", -2, -3 … when that
 * exists. */
static char *
aside_path (const char *path,
            const char *what)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  char *aside = g_strdup_printf ("%s.%s-%s", path, what, stamp);

  for (guint n = 2; g_file_test (aside, G_FILE_TEST_EXISTS) && n < 1000; n++)
    {
      g_free (aside);
      aside = g_strdup_printf ("%s.%s-%s-%u", path, what, stamp, n);
    }
  return aside;
}

/* Renames a damaged file to "PATH.corrupt-YYYYmmdd-HHMMSS" (-2, -3 … when that exists) and
 * reports it; if even the rename fails the file stays, and every later save is refused. */
static void
move_aside (const HrUserData *userdata,
            const Kind       *kind,
            const char       *problem,
            GError          **error)
{
  const char *path = kind_path (userdata, kind);
  g_autofree char *aside = aside_path (path, "corrupt");
  int saved_errno;

  if (g_rename (path, aside) == 0)
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT,
                   _("Your saved %s could not be read (%s). The damaged file has been kept as "
                     "%s; new entries will be saved to a fresh file."),
                   kind_label (kind), problem, aside);
      return;
    }
  saved_errno = errno;
  g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT,
               _("Your saved %s could not be read (%s), and the damaged file %s could not be "
                 "moved aside (%s); it is left untouched and nothing will be saved over it."),
               kind_label (kind), problem, path, g_strerror (saved_errno));
}

/* A damaged file, read by a reader that only reads (hr_userdata_set_read_only ()): it stays
 * where it is, as it is, for the app to deal with. */
static void
report_damaged (const Kind  *kind,
                const char  *path,
                const char  *problem,
                GError     **error)
{
  g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT,
               _("Your saved %s could not be read (%s); the file %s is left as it is."),
               kind_label (kind), problem, path);
}

/* A file written by a newer Headroom ("schema" above 1) is not damaged: renaming it would hide
 * the user's entries after a downgrade.  It stays where it is and nothing is saved over it. */
static gboolean
is_newer_schema (const char  *contents,
                 gsize        length,
                 GError     **error,
                 const Kind  *kind,
                 const char  *path)
{
  g_autoptr(JsonParser) parser = hr_json_parse (contents, (gssize) length, HR_JSON_DEFAULT_DEPTH,
                                                HR_JSON_DEFAULT_VALUES, NULL);
  JsonNode *root = parser != NULL ? json_parser_get_root (parser) : NULL;
  JsonNode *schema;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  schema = json_object_get_member (json_node_get_object (root), "schema");
  if (schema == NULL || json_node_get_value_type (schema) != G_TYPE_INT64
      || json_node_get_int (schema) <= 1)
    return FALSE;
  g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NEWER,
               _("Your saved %s (%s) were written by a newer version of Headroom (format %lld). "
                 "The file is kept as it is; this version cannot read or change it."),
               kind_label (kind), path, (long long) json_node_get_int (schema));
  return TRUE;
}

/* @path itself, or the file a symlink at @path points to; a dangling link is refused. */
static gboolean
resolve_link (const char  *path,
              char       **target,
              GError     **error)
{
  char *real;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      *target = g_strdup (path);
      return TRUE;
    }
  real = realpath (path, NULL);
  if (real == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot save: %s is a link to a file that cannot be reached (%s)"),
                   path, g_strerror (saved_errno));
      return FALSE;
    }
  *target = g_strdup (real);
  free (real);
  return TRUE;
}

/* {"schema": 1, "MEMBER": [ENTRIES…]}, pretty-printed. */
static char *
document_of (const Kind *kind,
             GPtrArray  *nodes)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, kind->member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < nodes->len; i++)
    json_builder_add_value (builder, json_node_copy (g_ptr_array_index (nodes, i)));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

/* How a rejected entry is named in the notice: its name, else its id, else its place. */
static char *
entry_label (JsonNode *node,
             guint     index)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *name = object != NULL ? get_string_member (object, "name") : NULL;

  if (name == NULL && object != NULL)
    name = get_string_member (object, "id");
  if (name == NULL)
    /* TRANSLATORS: an entry of a saved list without a name or id, by its place (1, 2, …) */
    return g_strdup_printf (_("entry %u"), index + 1);
  return hr_text_sanitize (name, 60);
}

/* A file the catalog parser refused as a whole, entry by entry: the entries it reads are kept,
 * the others written to PATH.rejected-STAMP (atomically, before the file is rewritten with only
 * the good ones, also atomically), so one entry a newer Headroom wrote (an unknown backend, a
 * new form) does not hide all the others.  The caller holds the lock.  FALSE when the document
 * is not a list of entries, when no single entry is to blame (two entries with one id) or when
 * a file cannot be written: the whole file is then moved aside as before.  *@kept_contents: the
 * document that remains; *@notice: what was set aside, for the user. */
static gboolean
set_aside_rejected (const HrUserData  *userdata,
                    const Kind        *kind,
                    const char        *contents,
                    gsize              length,
                    char             **kept_contents,
                    char             **notice)
{
  const char *path = kind_path (userdata, kind);
  g_autoptr(JsonParser) parser = hr_json_parse (contents, (gssize) length, HR_JSON_DEFAULT_DEPTH,
                                                HR_JSON_DEFAULT_VALUES, NULL);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autoptr(GPtrArray) rejected = g_ptr_array_new ();
  g_autoptr(GString) reasons = g_string_new (NULL);
  g_autoptr(HrCatalog) check = hr_catalog_new_empty ();
  g_autofree char *kept_json = NULL;
  g_autofree char *rejected_json = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *target = NULL;
  JsonNode *root = parser != NULL ? json_parser_get_root (parser) : NULL;
  JsonObject *object;
  JsonNode *schema, *list;
  JsonArray *array;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  object = json_node_get_object (root);
  schema = json_object_get_member (object, "schema");
  list = json_object_get_member (object, kind->member);
  if (schema == NULL || json_node_get_value_type (schema) != G_TYPE_INT64 ||
      json_node_get_int (schema) != 1 || list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return FALSE;
  array = json_node_get_array (list);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      g_autoptr(HrCatalog) scratch = hr_catalog_new_empty ();
      g_autoptr(GError) entry_error = NULL;
      g_autofree char *json = NULL;

      g_ptr_array_add (one, node);
      json = document_of (kind, one);
      if (kind->parse (scratch, json, -1, &entry_error))
        {
          g_ptr_array_add (kept, node);
          continue;
        }
      g_ptr_array_add (rejected, node);
      if (rejected->len <= 3)
        {
          g_autofree char *label = entry_label (node, i);

          g_string_append_printf (reasons, "%s“%s” (%s)", reasons->len > 0 ? "; " : "", label,
                                  entry_error->message);
        }
    }
  if (rejected->len == 0)
    return FALSE;
  if (rejected->len > 3)
    g_string_append (reasons, "; …");
  kept_json = document_of (kind, kept);
  if (!kind->parse (check, kept_json, -1, NULL))
    return FALSE;   /* the good entries do not go together (duplicates): no one entry is to blame */

  rejected_json = document_of (kind, rejected);
  aside = aside_path (path, "rejected");
  if (!g_file_set_contents_full (aside, rejected_json, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, NULL))
    return FALSE;
  if (!resolve_link (path, &target, NULL) ||
      !g_file_set_contents_full (target, kept_json, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, NULL))
    return FALSE;

  *notice = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u saved entry of your %s could not be read and has been "
                                          "set aside in %s: %s. The others are loaded.",
                                          "%u saved entries of your %s could not be read and have been "
                                          "set aside in %s: %s. The others are loaded.",
                                          rejected->len),
                             rejected->len, kind_label (kind), aside, reasons->str);
  *kept_contents = g_steal_pointer (&kept_json);
  return TRUE;
}

static int lock_dir (const HrUserData  *userdata,
                     GError           **error);

/* Reads one file into a new list of entries with user ids.  A missing file is an empty
 * list.  Entries the catalog parser does not read are set aside (set_aside_rejected ()), under
 * the lock unless the caller holds it (@locked); *@notice (may be NULL) then says which. */
static GPtrArray *
read_entries_noting (const HrUserData *userdata,
                     const Kind       *kind,
                     gboolean          locked,
                     char            **notice,
                     GError          **error)
{
  const char *path = kind_path (userdata, kind);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (kind->free_entry);
  g_autoptr(HrCatalog) scratch = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GHashTable) objects = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *contents = NULL;
  GStatBuf st;
  gsize length;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        return g_steal_pointer (&entries);
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot read your saved %s (%s): %s"), kind_label (kind), path,
                   g_strerror (saved_errno));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot read your saved %s: %s is not a regular file"),
                   kind_label (kind), path);
      return NULL;
    }
  if (st.st_size > MAX_FILE_BYTES)
    {
      if (userdata->read_only)
        report_damaged (kind, path, _("the file is far too large"), error);
      else
        move_aside (userdata, kind, _("the file is far too large"), error);
      return NULL;
    }
  if (!hr_file_read_regular (path, MAX_FILE_BYTES, &contents, &length, NULL, &local_error))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot read your saved %s: %s"), kind_label (kind), local_error->message);
      return NULL;
    }

  if (is_newer_schema (contents, length, error, kind, path))
    return NULL;
  scratch = hr_catalog_new_empty ();
  if (!kind->parse (scratch, contents, (gssize) length, &local_error))
    {
      g_autofree char *kept = NULL;
      g_autofree char *said = NULL;

      if (userdata->read_only)
        {
          report_damaged (kind, path, local_error->message, error);
          return NULL;
        }
      if (!locked)
        {
          /* set aside under the lock, from the file as it is then */
          int lock = lock_dir (userdata, NULL);

          if (lock >= 0)
            {
              GPtrArray *entries_now = read_entries_noting (userdata, kind, TRUE, notice, error);

              close (lock);
              return entries_now;
            }
          /* no lock: set aside all the same (the lock only keeps concurrent saves apart) */
        }
      if (!set_aside_rejected (userdata, kind, contents, length, &kept, &said))
        {
          move_aside (userdata, kind, local_error->message, error);
          return NULL;
        }
      /* what remains is what the parser read, entry by entry */
      g_free (contents);
      contents = g_steal_pointer (&kept);
      length = strlen (contents);
      g_clear_pointer (&scratch, hr_catalog_free);
      scratch = hr_catalog_new_empty ();
      if (!kind->parse (scratch, contents, (gssize) length, NULL))
        g_return_val_if_reached (NULL);
      if (notice != NULL)
        *notice = g_steal_pointer (&said);
    }

  /* The text passed the catalog parser, so it reads again for our own members. */
  parser = hr_json_parse (contents, (gssize) length, HR_JSON_DEFAULT_DEPTH,
                          HR_JSON_DEFAULT_VALUES, NULL);
  if (parser != NULL)
    {
      JsonObject *root = json_node_get_object (json_parser_get_root (parser));
      JsonArray *array = json_object_get_array_member (root, kind->member);

      for (guint j = 0; j < json_array_get_length (array); j++)
        {
          JsonObject *object = json_array_get_object_element (array, j);
          const char *id = get_string_member (object, "id");

          if (id != NULL)
            g_hash_table_insert (objects, (gpointer) id, object);
        }
    }

  for (guint i = 0; i < kind->n_entries (scratch); i++)
    {
      gpointer entry = kind->copy_entry (scratch, i);
      char **id = kind->id_of (entry);
      g_autofree char *file_id = *id;
      JsonObject *object = g_hash_table_lookup (objects, file_id);

      if (object != NULL)
        kind->read_extras (entry, object);
      *id = g_strconcat (HR_USERDATA_ID_PREFIX, file_id, NULL);
      g_ptr_array_add (entries, entry);
    }
  return g_steal_pointer (&entries);
}

/* As read_entries_noting (); what was set aside is already in its own file, and told by
 * hr_userdata_load () at start-up. */
static GPtrArray *
read_entries (const HrUserData *userdata,
              const Kind       *kind,
              gboolean          locked,
              GError          **error)
{
  return read_entries_noting (userdata, kind, locked, NULL, error);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                      */

static char *
serialize (const Kind *kind,
           GPtrArray  *entries)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_key (&w, "schema");
  hr_json_int (&w, 1);
  hr_json_key (&w, kind->member);
  hr_json_begin_array (&w);
  for (guint i = 0; i < entries->len; i++)
    kind->write_entry (&w, g_ptr_array_index (entries, i));
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

/* Writes @entries atomically, after checking the catalog parser reads the document back. */
static gboolean
write_entries (const HrUserData *userdata,
               const Kind       *kind,
               GPtrArray        *entries,
               GError          **error)
{
  const char *path = kind_path (userdata, kind);
  g_autofree char *json = serialize (kind, entries);
  g_autoptr(HrCatalog) check = hr_catalog_new_empty ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *target = NULL;

  if (!kind->parse (check, json, -1, &local_error))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID,
                   _("Cannot save: %s"), local_error->message);
      return FALSE;
    }

  if (g_mkdir_with_parents (userdata->dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot create the folder %s: %s"), userdata->dir,
                   g_strerror (saved_errno));
      return FALSE;
    }
  /* A symlinked file (dotfiles kept in a repository) is written through to its target, not
   * replaced by a regular file. */
  if (!resolve_link (path, &target, error))
    return FALSE;
  /* A temporary file in the same directory, then rename (and fsync): a crash leaves either
   * the old file or the new one, never half of each. */
  if (!g_file_set_contents_full (target, json, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                 &local_error))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot save your %s: %s"), kind_label (kind), local_error->message);
      return FALSE;
    }
  return TRUE;
}

static gint
find_entry (const Kind *kind,
            GPtrArray  *entries,
            const char *id)
{
  for (guint i = 0; i < entries->len; i++)
    if (g_strcmp0 (*kind->id_of (g_ptr_array_index (entries, i)), id) == 0)
      return (gint) i;
  return -1;
}

/* Serialises read-change-write between processes (two windows, the app and the CLI): without
 * it two saves at once each write the file they read, and one entry is lost.  The lock is an
 * flock() on dir/.lock, released by closing the returned descriptor; -1 on error. */
static int
lock_dir (const HrUserData  *userdata,
          GError           **error)
{
  g_autofree char *path = g_build_filename (userdata->dir, ".lock", NULL);
  int saved_errno;
  int fd;

  if (userdata->read_only)
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Your saved data is open read-only here; nothing can be changed"));
      return -1;
    }
  if (g_mkdir_with_parents (userdata->dir, 0700) != 0)
    {
      saved_errno = errno;
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot create the folder %s: %s"), userdata->dir, g_strerror (saved_errno));
      return -1;
    }
  fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  while (fd >= 0 && flock (fd, LOCK_EX) != 0)
    if (errno != EINTR)
      {
        saved_errno = errno;
        close (fd);
        errno = saved_errno;
        fd = -1;
      }
  if (fd < 0)
    {
      saved_errno = errno;
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO,
                   _("Cannot lock your saved data (%s): %s"), path, g_strerror (saved_errno));
    }
  return fd;
}

static gboolean save_entry_locked (HrUserData  *userdata,
                                   const Kind  *kind,
                                   gpointer     entry,
                                   gpointer    *saved,
                                   GError     **error);
static gboolean remove_entry_locked (HrUserData  *userdata,
                                     const Kind  *kind,
                                     const char  *id,
                                     GError     **error);

static gboolean
save_entry (HrUserData  *userdata,
            const Kind  *kind,
            gpointer     entry,
            gpointer    *saved,
            GError     **error)
{
  int lock = lock_dir (userdata, error);
  gboolean ok;

  if (lock < 0)
    {
      kind->free_entry (entry);
      return FALSE;
    }
  ok = save_entry_locked (userdata, kind, entry, saved, error);
  close (lock);
  return ok;
}

static gboolean
remove_entry (HrUserData  *userdata,
              const Kind  *kind,
              const char  *id,
              GError     **error)
{
  int lock = lock_dir (userdata, error);
  gboolean ok;

  if (lock < 0)
    return FALSE;
  ok = remove_entry_locked (userdata, kind, id, error);
  close (lock);
  return ok;
}

/* Adds or replaces @entry (owned, with its user id) and writes the file; on success
 * *@saved is the entry as the next load will return it. */
static gboolean
save_entry_locked (HrUserData  *userdata,
                   const Kind  *kind,
                   gpointer     entry,
                   gpointer    *saved,
                   GError     **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autofree char *id = g_strdup (*kind->id_of (entry));
  gint index;

  entries = read_entries (userdata, kind, TRUE, error);
  if (entries == NULL)
    {
      kind->free_entry (entry);
      return FALSE;
    }

  index = find_entry (kind, entries, id);
  if (index >= 0)
    {
      kind->free_entry (g_ptr_array_index (entries, index));
      g_ptr_array_index (entries, index) = entry;
    }
  else
    g_ptr_array_add (entries, entry);

  if (!write_entries (userdata, kind, entries, error))
    return FALSE;

  if (saved != NULL)
    {
      g_autoptr(GPtrArray) reread = read_entries (userdata, kind, TRUE, error);

      if (reread == NULL)
        return FALSE;
      index = find_entry (kind, reread, id);
      g_assert (index >= 0);
      *saved = g_ptr_array_steal_index (reread, index);
    }
  return TRUE;
}

/* The saved entries of @kind as the file holds them now, and in @index the one saved as @id
 * (with or without the user prefix); NULL with HR_USERDATA_ERROR_NOT_FOUND when it is not
 * there. */
static GPtrArray *
read_entries_with (HrUserData  *userdata,
                   const Kind  *kind,
                   const char  *id,
                   guint       *index,
                   GError     **error)
{
  g_autoptr(GPtrArray) entries = read_entries (userdata, kind, TRUE, error);
  g_autofree char *full_id = g_strconcat (HR_USERDATA_ID_PREFIX, hr_userdata_strip_prefix (id),
                                          NULL);
  gint i;

  if (entries == NULL)
    return NULL;
  i = find_entry (kind, entries, full_id);
  if (i < 0)
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NOT_FOUND,
                   _("There is no saved entry “%s” among your %s"), id, kind_label (kind));
      return NULL;
    }
  *index = (guint) i;
  return g_steal_pointer (&entries);
}

static gboolean
remove_entry_locked (HrUserData  *userdata,
                     const Kind  *kind,
                     const char  *id,
                     GError     **error)
{
  guint index;
  g_autoptr(GPtrArray) entries = read_entries_with (userdata, kind, id, &index, error);

  if (entries == NULL)
    return FALSE;
  g_ptr_array_remove_index (entries, index);
  return write_entries (userdata, kind, entries, error);
}

static gboolean
has_control (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

static gboolean
rename_model_locked (HrUserData  *userdata,
                     const char  *id,
                     const char  *name,
                     HrModel    **saved,
                     GError     **error)
{
  guint index;
  g_autoptr(GPtrArray) entries = read_entries_with (userdata, &model_kind, id, &index, error);
  HrModel *model;

  if (entries == NULL)
    return FALSE;
  model = g_ptr_array_steal_index (entries, index);
  g_free (model->name);
  model->name = g_strdup (name);
  return save_entry_locked (userdata, &model_kind, model, (gpointer *) saved, error);
}

gboolean
hr_userdata_rename_model (HrUserData  *userdata,
                          const char  *id,
                          const char  *name,
                          HrModel    **saved,
                          GError     **error)
{
  g_autofree char *clean = NULL;
  int lock;
  gboolean ok;

  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (id != NULL && name != NULL, FALSE);
  g_return_val_if_fail (saved == NULL || *saved == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  clean = g_strstrip (g_strdup (name));
  if (*clean == '\0' || !g_utf8_validate (clean, -1, NULL) || has_control (clean))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID,
                   _("A model needs a name on one line"));
      return FALSE;
    }
  lock = lock_dir (userdata, error);
  if (lock < 0)
    return FALSE;
  ok = rename_model_locked (userdata, id, clean, saved, error);
  close (lock);
  return ok;
}

/* Keeps the first error; a second one is appended to its message. */
static void
merge_error (GError **error,
             GError  *next)
{
  if (next == NULL)
    return;
  if (error == NULL)
    {
      g_error_free (next);
      return;
    }
  if (*error == NULL)
    {
      *error = next;
      return;
    }
  g_prefix_error (error, "%s\n", next->message);
  g_error_free (next);
}

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                   */

HrUserData *
hr_userdata_new (const char *dir)
{
  HrUserData *userdata = g_new0 (HrUserData, 1);

  if (dir != NULL)
    userdata->dir = g_strdup (dir);
  else
    userdata->dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);
  userdata->models_path = g_build_filename (userdata->dir, MODELS_FILE, NULL);
  userdata->gpus_path = g_build_filename (userdata->dir, GPUS_FILE, NULL);
  return userdata;
}

void
hr_userdata_free (HrUserData *userdata)
{
  if (userdata == NULL)
    return;
  g_free (userdata->dir);
  g_free (userdata->models_path);
  g_free (userdata->gpus_path);
  g_free (userdata);
}

void
hr_userdata_set_read_only (HrUserData *userdata,
                           gboolean    read_only)
{
  g_return_if_fail (userdata != NULL);
  userdata->read_only = !!read_only;
}

const char *
hr_userdata_get_dir (const HrUserData *userdata)
{
  g_return_val_if_fail (userdata != NULL, NULL);
  return userdata->dir;
}

const char *
hr_userdata_get_models_path (const HrUserData *userdata)
{
  g_return_val_if_fail (userdata != NULL, NULL);
  return userdata->models_path;
}

const char *
hr_userdata_get_gpus_path (const HrUserData *userdata)
{
  g_return_val_if_fail (userdata != NULL, NULL);
  return userdata->gpus_path;
}

gboolean
hr_userdata_load (HrUserData  *userdata,
                  HrCatalog   *into,
                  GError     **error)
{
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(GPtrArray) gpus = NULL;
  g_autofree char *models_notice = NULL;
  g_autofree char *gpus_notice = NULL;
  GError *models_error = NULL;
  GError *gpus_error = NULL;

  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (into != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Each file on its own: a damaged models.json does not hide the user's GPUs. */
  models = read_entries_noting (userdata, &model_kind, FALSE, &models_notice, &models_error);
  gpus = read_entries_noting (userdata, &gpu_kind, FALSE, &gpus_notice, &gpus_error);

  /* The catalog takes the entries over. */
  if (models != NULL)
    {
      g_ptr_array_set_free_func (models, NULL);
      for (guint i = 0; i < models->len; i++)
        hr_catalog_add_model (into, g_ptr_array_index (models, i));
    }
  if (gpus != NULL)
    {
      g_ptr_array_set_free_func (gpus, NULL);
      for (guint i = 0; i < gpus->len; i++)
        hr_catalog_add_gpu (into, g_ptr_array_index (gpus, i));
    }

  /* entries set aside are told like a damaged file, after it */
  if (models_notice != NULL)
    merge_error (&models_error, g_error_new_literal (HR_USERDATA_ERROR, HR_USERDATA_ERROR_SET_ASIDE, models_notice));
  if (gpus_notice != NULL)
    merge_error (&gpus_error, g_error_new_literal (HR_USERDATA_ERROR, HR_USERDATA_ERROR_SET_ASIDE, gpus_notice));
  merge_error (error, models_error);
  merge_error (error, gpus_error);
  return models_error == NULL && gpus_error == NULL;
}

GPtrArray *
hr_userdata_list_models (HrUserData  *userdata,
                         GError     **error)
{
  g_return_val_if_fail (userdata != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return read_entries (userdata, &model_kind, FALSE, error);
}

GPtrArray *
hr_userdata_list_gpus (HrUserData  *userdata,
                       GError     **error)
{
  g_return_val_if_fail (userdata != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return read_entries (userdata, &gpu_kind, FALSE, error);
}

char *
hr_userdata_model_id (const HrModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);
  return hr_userdata_user_id (model->id, model->name, "model");
}

char *
hr_userdata_gpu_id (const HrGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  return hr_userdata_user_id (gpu->id, gpu->name, "gpu");
}

gboolean
hr_userdata_is_user_id (const char *id)
{
  return id != NULL && g_str_has_prefix (id, HR_USERDATA_ID_PREFIX);
}

gboolean
hr_userdata_save_model (HrUserData     *userdata,
                        const HrModel  *model,
                        HrModel       **saved,
                        GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  HrModel *copy;

  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (saved == NULL || *saved == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  copy = hr_model_copy (model);
  g_free (copy->id);
  copy->id = hr_userdata_model_id (model);
  if (copy->confidence == NULL)
    copy->confidence = g_strdup ("user");

  if (!hr_model_validate (copy, &local_error))
    {
      g_set_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID,
                   _("Cannot save: %s"), local_error->message);
      hr_model_free (copy);
      return FALSE;
    }
  return save_entry (userdata, &model_kind, copy, (gpointer *) saved, error);
}

gboolean
hr_userdata_save_gpu (HrUserData   *userdata,
                      const HrGpu  *gpu,
                      HrGpu       **saved,
                      GError      **error)
{
  HrGpu *copy;

  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (gpu != NULL, FALSE);
  g_return_val_if_fail (saved == NULL || *saved == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  copy = hr_gpu_copy (gpu);
  g_free (copy->id);
  copy->id = hr_userdata_gpu_id (gpu);
  copy->user_defined = TRUE;
  if (copy->confidence == NULL)
    copy->confidence = g_strdup ("user");
  return save_entry (userdata, &gpu_kind, copy, (gpointer *) saved, error);
}

gboolean
hr_userdata_remove_model (HrUserData  *userdata,
                          const char  *id,
                          GError     **error)
{
  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return remove_entry (userdata, &model_kind, id, error);
}

gboolean
hr_userdata_remove_gpu (HrUserData  *userdata,
                        const char  *id,
                        GError     **error)
{
  g_return_val_if_fail (userdata != NULL, FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return remove_entry (userdata, &gpu_kind, id, error);
}
