/* hr-hub-repo.c — Hub listings and search results as plain structs, each file's role, and a
 * checkpoint's quantization */
#include "hr-hub-repo.h"

#include <string.h>

#include "hr-gguf.h"
#include "hr-json.h"
#include "hr-json-scan.h"
#include "hr-quant-format.h"

/* The Hub's entries have a dozen members; no object of a page needs more than this.  Checked
 * before json-glib hashes the member names (hr-json-scan.h). */
#define PAGE_MAX_MEMBERS  256
#define PAGE_MAX_DEPTH    16
#define MAX_PATH_LEN      1024

static const char * const role_names[HR_HUB_N_ROLES] = {
  "gguf", "projector", "safetensors", "index", "config", "tokenizer", "other-weights", "other",
};

G_DEFINE_QUARK (hr-hub-parse-error-quark, hr_hub_parse_error)

const char *
hr_hub_role_to_string (HrHubRole role)
{
  return (guint) role < HR_HUB_N_ROLES ? role_names[role] : "other";
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

HrHubRole
hr_hub_role_for_path (const char *path)
{
  const char *base = base_name (path);
  gboolean top = base == path;
  g_autofree char *lower = g_ascii_strdown (base, -1);

  if (g_str_has_suffix (lower, ".gguf"))
    return strstr (lower, "mmproj") != NULL ? HR_HUB_ROLE_PROJECTOR : HR_HUB_ROLE_GGUF;
  if (top && strcmp (base, "model.safetensors.index.json") == 0)
    return HR_HUB_ROLE_INDEX;
  if (top && strcmp (base, "config.json") == 0)
    return HR_HUB_ROLE_CONFIG;
  if (top && (strcmp (base, "tokenizer.json") == 0 || strcmp (base, "tokenizer.model") == 0 ||
              strcmp (base, "tokenizer_config.json") == 0))
    return HR_HUB_ROLE_TOKENIZER;
  if (g_str_has_suffix (lower, ".safetensors"))
    return top && !g_str_has_prefix (lower, "consolidated") ? HR_HUB_ROLE_SAFETENSORS
                                                             : HR_HUB_ROLE_OTHER_WEIGHTS;
  if (g_str_has_suffix (lower, ".bin") || g_str_has_suffix (lower, ".pt") ||
      g_str_has_suffix (lower, ".pth") || g_str_has_suffix (lower, ".ckpt"))
    return HR_HUB_ROLE_OTHER_WEIGHTS;
  return HR_HUB_ROLE_OTHER;
}

/* The quant names llama-quantize and Unsloth give files, matched at the end of the name
 * (after the split suffix is removed): "…-Q4_K_M", "….UD-IQ2_XXS", "…-BF16", "…-MXFP4_MOE". */
static GRegex *
quant_regex (void)
{
  static gsize re = 0;

  if (g_once_init_enter (&re))
    {
      GRegex *r = g_regex_new ("(?:^|[-._])((?:UD-)?(?:I?Q[1-8]_(?:K_(?:XXS|XS|XL|S|M|L)|K|[01]|NL|XXS|XS|S|M|L)"
                               "|TQ[12]_0|BF16|F16|F32|MXFP4(?:_MOE)?))$",
                               G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&re, (gsize) r);
    }
  return (GRegex *) re;
}

char *
hr_hub_quant_from_name (const char *path)
{
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *prefix = NULL;
  const char *base;
  guint no, of;
  char *quant;

  g_return_val_if_fail (path != NULL, NULL);

  base = base_name (path);
  if (hr_gguf_split_name_parse (base, &prefix, &no, &of))
    stem = g_strdup (prefix);
  else if (g_str_has_suffix (base, ".gguf") || g_str_has_suffix (base, ".GGUF"))
    stem = g_strndup (base, strlen (base) - 5);
  else
    return NULL;
  if (!g_regex_match (quant_regex (), stem, 0, &match))
    return NULL;
  quant = g_match_info_fetch (match, 1);
  for (char *c = quant; *c != '\0'; c++)
    *c = g_ascii_toupper (*c);
  return quant;
}

/* ------------------------------------------------------------------------------------------ */
/* Pages                                                                                        */

static JsonParser *
parse_page (const char  *json,
            gsize        len,
            const char  *what,
            GError     **error)
{
  g_autoptr(GError) local = NULL;
  JsonParser *parser;

  if (len > HR_HUB_PAGE_MAX_SIZE)
    {
      g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_LIMIT,
                   "the %s is larger than %d MiB", what, HR_HUB_PAGE_MAX_SIZE >> 20);
      return NULL;
    }
  if (!hr_json_scan_check (json, len, PAGE_MAX_DEPTH, PAGE_MAX_MEMBERS, &local) ||
      (parser = hr_json_parse (json, (gssize) len, PAGE_MAX_DEPTH, HR_JSON_DEFAULT_VALUES,
                               &local)) == NULL)
    {
      g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
                   "the %s is not JSON the Hub sends: %s", what, local->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
                   "the %s is not a JSON array", what);
      g_object_unref (parser);
      return NULL;
    }
  return parser;
}

static const char *
member_string (JsonObject *o,
               const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* A non-negative whole number, else -1. */
static gint64
member_count (JsonObject *o,
              const char *key)
{
  JsonNode *n = json_object_get_member (o, key);
  double v;

  if (n == NULL || !hr_json_node_get_number (n, &v) || v < 0 || v > 9e15 || v != (gint64) v)
    return -1;
  return (gint64) v;
}

/* A path as the Hub lists it: relative, '/'-separated, no "..", no control characters. */
static gboolean
path_ok (const char *path)
{
  g_auto(GStrv) parts = NULL;

  if (path == NULL || *path == '\0' || strlen (path) > MAX_PATH_LEN || *path == '/' ||
      strchr (path, '\\') != NULL)
    return FALSE;
  for (const char *c = path; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      return FALSE;
  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] == '\0' || strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
      return FALSE;
  return TRUE;
}

static void
hub_file_free (HrHubFile *f)
{
  g_free (f->path);
  g_free (f->quant);
  g_free (f);
}

HrHubTree *
hr_hub_tree_new (void)
{
  HrHubTree *tree = g_new0 (HrHubTree, 1);

  tree->files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  return tree;
}

void
hr_hub_tree_free (HrHubTree *tree)
{
  if (tree == NULL)
    return;
  g_ptr_array_unref (tree->files);
  g_free (tree);
}

gboolean
hr_hub_tree_add_page (HrHubTree   *tree,
                      const char  *json,
                      gsize        len,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonArray *array;

  g_return_val_if_fail (tree != NULL, FALSE);

  if ((parser = parse_page (json, len, "file listing", error)) == NULL)
    return FALSE;
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o;
      JsonNode *lfs;
      const char *type, *path;
      gint64 size;
      HrHubFile *f;
      guint no, of;
      g_autofree char *prefix = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        goto bad;
      o = json_node_get_object (node);
      type = member_string (o, "type");
      path = member_string (o, "path");
      if (type == NULL || !path_ok (path))
        goto bad;
      if (strcmp (type, "file") != 0)
        continue;
      size = member_count (o, "size");
      lfs = json_object_get_member (o, "lfs");
      if (lfs != NULL && JSON_NODE_HOLDS_OBJECT (lfs) &&
          member_count (json_node_get_object (lfs), "size") >= 0)
        size = member_count (json_node_get_object (lfs), "size");
      if (size < 0)
        goto bad;
      if (tree->files->len >= HR_HUB_MAX_FILES)
        {
          g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_LIMIT,
                       "the repository lists more than %d files", HR_HUB_MAX_FILES);
          return FALSE;
        }
      f = g_new0 (HrHubFile, 1);
      f->path = g_strdup (path);
      f->size = (guint64) size;
      f->role = hr_hub_role_for_path (path);
      if (f->role == HR_HUB_ROLE_GGUF)
        {
          f->quant = hr_hub_quant_from_name (path);
          if (hr_gguf_split_name_parse (base_name (path), &prefix, &no, &of))
            {
              f->split_no = no;
              f->split_of = of;
            }
        }
      g_ptr_array_add (tree->files, f);
    }
  return TRUE;

bad:
  g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
               "the file listing has an entry without a type, a valid path or a size");
  return FALSE;
}

const HrHubFile *
hr_hub_tree_find (const HrHubTree *tree,
                  const char      *path)
{
  for (guint i = 0; i < tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (tree->files, i);

      if (strcmp (f->path, path) == 0)
        return f;
    }
  return NULL;
}

void
hr_hub_gguf_model_free (HrHubGgufModel *model)
{
  if (model == NULL)
    return;
  g_free (model->quant);
  g_free (model->path);
  g_free (model);
}

static int
by_bytes (gconstpointer a,
          gconstpointer b)
{
  const HrHubGgufModel *x = *(HrHubGgufModel * const *) a;
  const HrHubGgufModel *y = *(HrHubGgufModel * const *) b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return strcmp (x->path, y->path);
}

/* The directory and split prefix that the parts of one split model share. */
static char *
split_key (const HrHubFile *f)
{
  g_autofree char *prefix = NULL;
  guint no, of;
  const char *base = base_name (f->path);

  if (!hr_gguf_split_name_parse (base, &prefix, &no, &of))
    return g_strdup (f->path);
  return g_strdup_printf ("%.*s%s/%u", (int) (base - f->path), f->path, prefix, of);
}

GPtrArray *
hr_hub_tree_gguf_models (const HrHubTree *tree)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_hub_gguf_model_free);

  for (guint i = 0; i < tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (tree->files, i);
      char *key;
      HrHubGgufModel *m;

      if (f->role != HR_HUB_ROLE_GGUF)
        continue;
      key = split_key (f);
      m = g_hash_table_lookup (by_key, key);
      if (m == NULL)
        {
          m = g_new0 (HrHubGgufModel, 1);
          m->quant = g_strdup (f->quant);
          m->path = g_strdup (f->path);
          g_ptr_array_add (models, m);
          g_hash_table_insert (by_key, key, m);
        }
      else
        g_free (key);
      m->bytes += f->size;
      m->n_parts++;
      if (f->split_no == 1)
        {
          g_free (m->path);
          m->path = g_strdup (f->path);
        }
      m->complete = f->split_of == 0 || m->n_parts == f->split_of;
    }
  g_ptr_array_sort (models, by_bytes);
  return models;
}

GStrv
hr_hub_tree_safetensors (const HrHubTree *tree)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  gboolean any = FALSE;

  if (hr_hub_tree_find (tree, "model.safetensors") != NULL)
    {
      g_strv_builder_add (builder, "model.safetensors");
      return g_strv_builder_end (builder);
    }
  for (guint i = 0; i < tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (tree->files, i);

      if (f->role == HR_HUB_ROLE_SAFETENSORS)
        {
          g_strv_builder_add (builder, f->path);
          any = TRUE;
        }
    }
  if (!any)
    return NULL;
  return g_strv_builder_end (builder);
}

/* ------------------------------------------------------------------------------------------ */
/* Search results                                                                               */

void
hr_hub_model_hit_free (HrHubModelHit *hit)
{
  if (hit == NULL)
    return;
  g_free (hit->id);
  g_free (hit->last_modified);
  g_free (hit->library);
  g_free (hit->pipeline);
  g_free (hit);
}

GPtrArray *
hr_hub_hits_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) hr_hub_model_hit_free);
}

/* A short printable string from outside, else NULL. */
static char *
clean_dup (const char *s,
           gsize       max)
{
  if (s == NULL || strlen (s) > max || !g_utf8_validate (s, -1, NULL))
    return NULL;
  for (const char *c = s; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      return NULL;
  return g_strdup (s);
}

gboolean
hr_hub_search_add_page (GPtrArray   *hits,
                        const char  *json,
                        gsize        len,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonArray *array;

  g_return_val_if_fail (hits != NULL, FALSE);

  if ((parser = parse_page (json, len, "search result", error)) == NULL)
    return FALSE;
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array) && hits->len < HR_HUB_MAX_RESULTS; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o;
      JsonNode *tags, *gated;
      const char *id;
      HrHubModelHit *hit;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        goto bad;
      o = json_node_get_object (node);
      id = member_string (o, "id");
      if (id == NULL || strchr (id, '/') == NULL || strlen (id) > 200 || !path_ok (id))
        goto bad;
      hit = g_new0 (HrHubModelHit, 1);
      hit->id = g_strdup (id);
      hit->downloads = member_count (o, "downloads");
      hit->likes = member_count (o, "likes");
      hit->last_modified = clean_dup (member_string (o, "lastModified"), 64);
      hit->library = clean_dup (member_string (o, "library_name"), 64);
      hit->pipeline = clean_dup (member_string (o, "pipeline_tag"), 64);
      gated = json_object_get_member (o, "gated");
      hit->gated = gated != NULL && JSON_NODE_HOLDS_VALUE (gated) &&
                   json_node_get_value_type (gated) == G_TYPE_STRING;
      tags = json_object_get_member (o, "tags");
      if (tags != NULL && JSON_NODE_HOLDS_ARRAY (tags))
        {
          JsonArray *t = json_node_get_array (tags);

          for (guint k = 0; k < json_array_get_length (t); k++)
            {
              JsonNode *tn = json_array_get_element (t, k);
              const char *tag;

              if (!JSON_NODE_HOLDS_VALUE (tn) || json_node_get_value_type (tn) != G_TYPE_STRING)
                continue;
              tag = json_node_get_string (tn);
              if (strcmp (tag, "gguf") == 0)
                hit->gguf = TRUE;
              else if (strcmp (tag, "safetensors") == 0)
                hit->safetensors = TRUE;
            }
        }
      if (g_strcmp0 (hit->library, "gguf") == 0)
        hit->gguf = TRUE;
      g_ptr_array_add (hits, hit);
    }
  return TRUE;

bad:
  g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
               "a search result has no valid model id");
  return FALSE;
}

/* ------------------------------------------------------------------------------------------ */
/* Quantization                                                                                 */

static gint64
object_int (JsonObject *o,
            const char *key)
{
  return o != NULL ? member_count (o, key) : -1;
}

static gboolean
object_true (JsonObject *o,
             const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) &&
         json_node_get_value_type (n) == G_TYPE_BOOLEAN && json_node_get_boolean (n);
}

/* compressed-tensors (llm-compressor): the weights of the first config group. */
static const char *
compressed_tensors_quant (JsonObject *q)
{
  const char *format = member_string (q, "format");
  JsonNode *groups = json_object_get_member (q, "config_groups");
  JsonObject *weights = NULL;
  const char *type = NULL;
  gint64 bits = -1;

  if (groups != NULL && JSON_NODE_HOLDS_OBJECT (groups))
    {
      g_autoptr(GList) values = json_object_get_values (json_node_get_object (groups));

      for (GList *l = values; l != NULL && weights == NULL; l = l->next)
        if (JSON_NODE_HOLDS_OBJECT (l->data))
          {
            JsonNode *w = json_object_get_member (json_node_get_object (l->data), "weights");

            if (w != NULL && JSON_NODE_HOLDS_OBJECT (w))
              weights = json_node_get_object (w);
          }
    }
  if (weights != NULL)
    {
      bits = object_int (weights, "num_bits");
      type = member_string (weights, "type");
    }
  if (g_strcmp0 (format, "nvfp4-pack-quantized") == 0 ||
      (bits == 4 && g_strcmp0 (type, "float") == 0))
    return "NVFP4";
  if (g_strcmp0 (format, "float-quantized") == 0 || (bits == 8 && g_strcmp0 (type, "float") == 0))
    return "FP8";
  if (bits == 8)
    return "INT8";
  if (bits == 4 || g_strcmp0 (format, "pack-quantized") == 0)
    return "INT4";
  return NULL;
}

static const char *
quant_of_method (const char *method,
                 JsonObject *q)
{
  gint64 bits = object_int (q, "bits");

  if (g_ascii_strcasecmp (method, "fp8") == 0 || g_ascii_strcasecmp (method, "fbgemm_fp8") == 0)
    return "FP8";
  if (g_ascii_strcasecmp (method, "mxfp4") == 0)
    return HR_QUANT_MXFP4_CHECKPOINT;
  if (g_ascii_strcasecmp (method, "awq") == 0)
    return bits == 8 ? "INT8" : "AWQ-INT4";
  if (g_ascii_strcasecmp (method, "gptq") == 0)
    return bits == 8 ? "GPTQ-INT8" : "GPTQ-INT4";
  if (g_ascii_strcasecmp (method, "auto-round") == 0 || g_ascii_strcasecmp (method, "autoround") == 0)
    return bits == 8 ? "INT8" : "INT4";
  if (g_ascii_strcasecmp (method, "bitsandbytes") == 0)
    return object_true (q, "load_in_8bit") ? "INT8" : "INT4";
  if (g_ascii_strcasecmp (method, "compressed-tensors") == 0)
    return compressed_tensors_quant (q);
  if (g_ascii_strcasecmp (method, "modelopt") == 0)
    {
      const char *algo = member_string (q, "quant_algo");

      if (algo != NULL && g_ascii_strncasecmp (algo, "NVFP4", 5) == 0)
        return "NVFP4";
      if (algo != NULL && g_ascii_strncasecmp (algo, "FP8", 3) == 0)
        return "FP8";
    }
  return NULL;
}

char *
hr_hub_checkpoint_quant (const char  *config_json,
                         gsize        len,
                         char       **method)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *root, *q = NULL;
  JsonNode *qnode;
  const char *m = NULL, *dtype;

  if (method != NULL)
    *method = NULL;
  if (config_json == NULL || len > 4 * 1024 * 1024 ||
      !hr_json_scan_check (config_json, len, 64, 4096, NULL))
    return NULL;
  parser = hr_json_parse (config_json, (gssize) len, 64, HR_JSON_DEFAULT_VALUES, NULL);
  if (parser == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  qnode = json_object_get_member (root, "quantization_config");
  if (qnode == NULL)
    {
      JsonNode *text = json_object_get_member (root, "text_config");

      if (text != NULL && JSON_NODE_HOLDS_OBJECT (text))
        qnode = json_object_get_member (json_node_get_object (text), "quantization_config");
    }
  if (qnode != NULL && JSON_NODE_HOLDS_OBJECT (qnode))
    {
      q = json_node_get_object (qnode);
      m = member_string (q, "quant_method");
      if (m != NULL && method != NULL)
        *method = clean_dup (m, 64);
      if (m != NULL)
        {
          const char *quant = quant_of_method (m, q);

          return quant != NULL ? g_strdup (quant) : NULL;
        }
    }
  dtype = member_string (root, "torch_dtype");
  if (dtype == NULL)
    dtype = member_string (root, "dtype");
  if (g_strcmp0 (dtype, "bfloat16") == 0)
    return g_strdup ("BF16");
  if (g_strcmp0 (dtype, "float16") == 0)
    return g_strdup ("F16");
  if (g_strcmp0 (dtype, "float32") == 0)
    return g_strdup ("F32");
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* References                                                                                   */

gboolean
hr_hub_ref_parse (const char  *ref,
                  char       **repo,
                  char       **revision,
                  char       **selector,
                  GError     **error)
{
  g_autofree char *r = NULL;
  g_autofree char *rev = NULL;
  char *colon, *at;

  g_return_val_if_fail (ref != NULL, FALSE);

  r = g_strdup (ref);
  colon = strchr (r, ':');
  *selector = NULL;
  if (colon != NULL)
    {
      *colon = '\0';
      if (colon[1] == '\0')
        {
          g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
                       "“%s” ends with “:”: give a quant (ORG/REPO:Q4_K_M) or a file, or no colon",
                       ref);
          return FALSE;
        }
      *selector = g_strdup (colon + 1);
    }
  at = strchr (r, '@');
  if (at != NULL)
    {
      *at = '\0';
      rev = g_strdup (at + 1);
      if (*rev == '\0' || strlen (rev) > 255 || strstr (rev, "..") != NULL)
        goto bad_rev;
      for (const char *c = rev; *c != '\0'; c++)
        if (!g_ascii_isalnum (*c) && strchr ("-_./", *c) == NULL)
          goto bad_rev;
    }
  *repo = g_strdup (r);
  *revision = rev != NULL ? g_steal_pointer (&rev) : g_strdup ("main");
  return TRUE;

bad_rev:
  g_clear_pointer (selector, g_free);
  g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID,
               "“%s”: the revision after “@” must be a branch, tag or commit (letters, digits, "
               "“-_./”)", ref);
  return FALSE;
}
