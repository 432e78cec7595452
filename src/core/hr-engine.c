/* hr-engine.c — lookups in the engine table (hr-engine-list.h) */
#include "hr-engine.h"

#include <string.h>

static const HrEngineInfo engines[] = {
#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) \
  { HR_ENGINE_##e, id, name, family, loads, kv },
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY
};

G_STATIC_ASSERT (G_N_ELEMENTS (engines) == HR_N_ENGINES);

static const char * const engine_ids[] = {
#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) id,
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY
  NULL
};

static const char * const engine_names[] = {
#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) name,
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY
  NULL
};

const HrEngineInfo *
hr_engine_info (HrEngine engine)
{
  if ((guint) engine < G_N_ELEMENTS (engines))
    return &engines[engine];
  return NULL;
}

const char *
hr_engine_to_string (HrEngine engine)
{
  const HrEngineInfo *info = hr_engine_info (engine);

  return info != NULL ? info->id : "unknown";
}

const char *
hr_engine_display_name (HrEngine engine)
{
  const HrEngineInfo *info = hr_engine_info (engine);

  return info != NULL ? info->name : "?";
}

/* @str lower-cased without '.', '-' and '_'. */
static char *
plain_id (const char *str)
{
  GString *out = g_string_new (NULL);

  for (const char *p = str; *p != '\0'; p++)
    if (strchr (".-_", *p) == NULL)
      g_string_append_c (out, g_ascii_tolower (*p));
  return g_string_free (out, FALSE);
}

gboolean
hr_engine_from_string (const char *str,
                       HrEngine   *engine)
{
  g_autofree char *want = NULL;

  if (str == NULL || *str == '\0')
    return FALSE;
  want = plain_id (str);
  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      g_autofree char *id = plain_id (engines[i].id);

      if (strcmp (want, id) == 0)
        {
          *engine = engines[i].engine;
          return TRUE;
        }
    }
  return FALSE;
}

char *
hr_engine_list_ids (const char *separator)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      if (i > 0)
        g_string_append (out, separator);
      g_string_append (out, engines[i].id);
    }
  return g_string_free (out, FALSE);
}

const char * const *
hr_engine_ids (void)
{
  return engine_ids;
}

const char * const *
hr_engine_names (void)
{
  return engine_names;
}

static gboolean
in_family (HrEngine       engine,
           HrEngineFamily family)
{
  const HrEngineInfo *info = hr_engine_info (engine);

  return info != NULL && info->family == family;
}

gboolean
hr_engine_is_llama_like (HrEngine engine)
{
  return in_family (engine, HR_ENGINE_FAMILY_LLAMA);
}

gboolean
hr_engine_is_server_like (HrEngine engine)
{
  return in_family (engine, HR_ENGINE_FAMILY_SERVER);
}

gboolean
hr_engine_loads_format (HrEngine      engine,
                        HrQuantFormat format)
{
  const HrEngineInfo *info = hr_engine_info (engine);

  return info != NULL && (info->loads & HR_QUANT_FORMAT_BIT (format)) != 0;
}

gboolean
hr_engine_loads_quant (HrEngine    engine,
                       const char *quant)
{
  return quant != NULL && hr_engine_loads_format (engine, hr_quant_format (quant));
}

char *
hr_engine_list_loading (const char *quant,
                        const char *separator)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      if (!hr_engine_loads_quant ((HrEngine) i, quant))
        continue;
      if (out->len > 0)
        g_string_append (out, separator);
      g_string_append (out, engines[i].id);
    }
  return g_string_free (out, FALSE);
}

gboolean
hr_engine_has_kv_type (HrEngine engine,
                       HrKvType kv)
{
  const HrEngineInfo *info = hr_engine_info (engine);

  return info != NULL && (guint) kv < 32 && (info->kv_types & HR_KV_BIT (kv)) != 0;
}

HrKvType
hr_engine_kv_8bit (HrEngine engine)
{
  return hr_engine_has_kv_type (engine, HR_KV_FP8) ? HR_KV_FP8 : HR_KV_Q8_0;
}
