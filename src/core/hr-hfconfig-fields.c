/* hr-hfconfig-fields.c — typed fields of a config.json, looked up in text_config first
 *
 * Each reader checks the type and the range; the first wrong field becomes the error, absent
 * required fields are collected into one "missing" list so a message names them all.
 */
#include "hr-hfconfig-private.h"
#include "hr-json.h"

#include <math.h>
#include <string.h>

JsonNode *
hr_cfg_lookup (Cfg        *cfg,
               const char *key)
{
  JsonNode *node = NULL;

  if (json_object_has_member (cfg->text, key))
    node = json_object_get_member (cfg->text, key);
  else if (cfg->root != cfg->text && json_object_has_member (cfg->root, key))
    node = json_object_get_member (cfg->root, key);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

gboolean
hr_cfg_has (Cfg        *cfg,
            const char *key)
{
  return hr_cfg_lookup (cfg, key) != NULL;
}

void
hr_cfg_invalid (Cfg        *cfg,
                const char *format,
                ...)
{
  va_list args;

  /* The first wrong field is the error. */
  if (cfg->error != NULL)
    return;
  va_start (args, format);
  cfg->error = g_error_new_valist (HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID, format, args);
  va_end (args);
}

void
hr_cfg_type_error (Cfg        *cfg,
                   const char *key,
                   const char *what)
{
  hr_cfg_invalid (cfg, "config.json: %s is not %s", key, what);
}

void
hr_cfg_note_missing (Cfg        *cfg,
                     const char *key)
{
  /* Each name once. */
  g_autofree char *needle = g_strdup_printf (", %s,", key);
  g_autofree char *hay = g_strdup_printf (", %s,", cfg->missing->str);

  if (strstr (hay, needle) == NULL)
    g_string_append_printf (cfg->missing, "%s%s", cfg->missing->len ? ", " : "", key);
}

/* An integer field in [min, max], the first of @keys (NULL-terminated aliases) present;
 * @def when none is present (then noted as missing when @required). */
gint64
hr_cfg_get_int_v (Cfg                *cfg,
                  const char * const *keys,
                  gint64              min,
                  gint64              max,
                  gint64              def,
                  gboolean            required)
{
  for (const char * const *k = keys; *k != NULL; k++)
    {
      JsonNode *node = hr_cfg_lookup (cfg, *k);
      double v;

      if (node == NULL)
        continue;
      if (!hr_json_node_get_number (node, &v) || v != floor (v))
        {
          hr_cfg_type_error (cfg, *k, "an integer");
          return def;
        }
      if (v < (double) min || v > (double) max)
        {
          hr_cfg_invalid (cfg, "config.json: %s is out of range (%.15g; expected %" G_GINT64_FORMAT
                          " to %" G_GINT64_FORMAT ")", *k, v, min, max);
          return def;
        }
      return (gint64) v;
    }
  if (required)
    hr_cfg_note_missing (cfg, keys[0]);
  return def;
}

int
hr_cfg_get_int (Cfg        *cfg,
                const char *key,
                int         min,
                int         max,
                int         def,
                gboolean    required)
{
  const char *keys[] = { key, NULL };

  return (int) hr_cfg_get_int_v (cfg, keys, min, max, def, required);
}

/* The member @key when it holds a @type (a value's GType, or JSON_TYPE_ARRAY); NULL when it
 * is absent, or is something else (then a type error naming @what). */
static JsonNode *
lookup_typed (Cfg        *cfg,
              const char *key,
              GType       type,
              const char *what)
{
  JsonNode *node = hr_cfg_lookup (cfg, key);

  if (node != NULL && json_node_get_value_type (node) != type)
    {
      hr_cfg_type_error (cfg, key, what);
      return NULL;
    }
  return node;
}

gboolean
hr_cfg_get_bool (Cfg        *cfg,
                 const char *key,
                 gboolean    def)
{
  JsonNode *node = lookup_typed (cfg, key, G_TYPE_BOOLEAN, "true or false");

  return node != NULL ? json_node_get_boolean (node) : def;
}

const char *
hr_cfg_get_string (Cfg        *cfg,
                   const char *key)
{
  JsonNode *node = lookup_typed (cfg, key, G_TYPE_STRING, "a string");

  return node != NULL ? json_node_get_string (node) : NULL;
}

JsonArray *
hr_cfg_get_array (Cfg        *cfg,
                  const char *key)
{
  JsonNode *node = lookup_typed (cfg, key, JSON_TYPE_ARRAY, "a list");

  return node != NULL ? json_node_get_array (node) : NULL;
}
