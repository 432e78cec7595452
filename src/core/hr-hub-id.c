/* hr-hub-id.c — the repository id in what someone pasted: "org/name" or a hub address
 *
 * The hub's repository pages are https://huggingface.co/{org}/{name}, its files
 * …/{org}/{name}/blob/{revision}/{path} and …/resolve/{revision}/{path}, its folders
 * …/tree/{revision}/{path}; datasets and spaces live under /datasets/ and /spaces/ (the URL
 * scheme of huggingface_hub's hf_hub_url() and the hub's web pages).  hf.co is the hub's short
 * domain.
 */
#include "hr-hub-id.h"

#include <string.h>

static const char *const hub_hosts[] = { "huggingface.co/", "www.huggingface.co/", "hf.co/" };

/* @text after a hub host (the scheme optional), or NULL when it names no hub page. */
static const char *
after_hub_host (const char *text)
{
  if (g_ascii_strncasecmp (text, "https://", 8) == 0)
    text += 8;
  else if (g_ascii_strncasecmp (text, "http://", 7) == 0)
    text += 7;
  for (guint i = 0; i < G_N_ELEMENTS (hub_hosts); i++)
    if (g_ascii_strncasecmp (text, hub_hosts[i], strlen (hub_hosts[i])) == 0)
      return text + strlen (hub_hosts[i]);
  return NULL;
}

char *
hr_hub_repo_id_from_text (const char *text)
{
  g_autofree char *trimmed = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) parts = NULL;
  const char *rest;

  if (text == NULL || strlen (text) > HR_HUB_ID_MAX_TEXT)
    return NULL;
  trimmed = g_strstrip (g_strdup (text));
  rest = after_hub_host (trimmed);
  if (rest == NULL)
    return g_steal_pointer (&trimmed);
  /* the path only: no ?query or #fragment */
  path = g_strndup (rest, strcspn (rest, "?#"));
  parts = g_strsplit (path, "/", 4);
  if (g_strv_length (parts) < 2 || parts[0][0] == '\0' || parts[1][0] == '\0' ||
      g_ascii_strcasecmp (parts[0], "datasets") == 0 || g_ascii_strcasecmp (parts[0], "spaces") == 0)
    return g_steal_pointer (&trimmed);
  /* {org}/{name} alone, or followed by a page of it (tree, blob, resolve, …) */
  return g_strdup_printf ("%s/%s", parts[0], parts[1]);
}

char *
hr_hub_model_ref (const HrModel *model)
{
  const char *repo;

  g_return_val_if_fail (model != NULL, NULL);

  if (model->source == NULL || !g_str_has_prefix (model->source, HR_HUB_SOURCE_PREFIX))
    return NULL;
  repo = model->source + strlen (HR_HUB_SOURCE_PREFIX);
  if (*repo == '\0' || strchr (repo, ':') != NULL)
    return NULL;
  /* a GGUF repo was sized at one of its files; a safetensors one at its own format */
  if (model->origin == HR_MODEL_ORIGIN_GGUF && model->gguf_quant != NULL && *model->gguf_quant != '\0')
    return g_strdup_printf ("%s:%s", repo, model->gguf_quant);
  return g_strdup (repo);
}
