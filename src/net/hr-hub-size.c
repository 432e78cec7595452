/* hr-hub-size.c — a Hub repository as one sized model
 *
 * GGUF headers are read here with the HrHub's byte ranges and the core's hr_gguf_parse() /
 * hr_gguf_merge_split(), the same growing-prefix loop as hr-gguf-remote.c (1 MiB, then at least
 * double, at most HR_GGUF_REMOTE_MAX_BYTES over all parts), so that the access token reaches a
 * gated GGUF repo and the whole sizing runs on one worker thread's session in the app.
 */
#include "hr-hub-size.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-gguf.h"
#include "hr-hfconfig.h"
#include "hr-http.h"
#include "hr-hub-id.h"
#include "hr-projector.h"
#include "hr-quant-format.h"

static const char * const preferred_quants[] = {
  "Q4_K_M", "UD-Q4_K_XL", "Q4_K_S", "IQ4_XS", "Q4_0", "MXFP4", "Q5_K_M", "Q6_K", "Q8_0",
};

void
hr_hub_sized_free (HrHubSized *s)
{
  if (s == NULL)
    return;
  g_free (s->repo);
  g_free (s->revision);
  hr_hub_tree_free (s->tree);
  g_clear_pointer (&s->model, hr_model_free);
  g_free (s->quant);
  g_clear_pointer (&s->gguf_models, g_ptr_array_unref);
  g_free (s->gguf_path);
  g_clear_pointer (&s->weights, hr_safetensors_free);
  g_strfreev (s->shards);
  g_free (s->quant_method);
  g_free (s);
}

/* One GGUF file's header: ranges from byte 0 (a server without Range serves too, and the cache
 * keeps one answer per file), growing as hr_gguf_remote_parse_prefix() says until it parses. */
static HrGguf *
read_gguf_part (HrHub         *hub,
                HrHubSized    *s,
                const char    *path,
                guint64        size,
                GCancellable  *cancellable,
                GError       **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) hr_http_get_timeout () * G_USEC_PER_SEC;
  gsize want = HR_GGUF_REMOTE_FIRST_BYTES;

  while (TRUE)
    {
      g_autoptr(GBytes) bytes = NULL;
      gsize len;
      const guint8 *data;
      HrGguf *gguf;

      if (size > 0)
        want = (gsize) MIN ((guint64) want, size);
      bytes = hr_hub_read_range (hub, s->repo, s->revision, path, want, cancellable, error);
      if (bytes == NULL)
        return NULL;
      data = g_bytes_get_data (bytes, &len);
      s->stats.bytes_fetched += len;
      s->stats.n_requests++;
      gguf = hr_gguf_remote_parse_prefix (&(HrGgufPrefix) {
                                            .name = path,
                                            .file_size = size,
                                            .fetched = s->stats.bytes_fetched,
                                            .ended = len < want,
                                            .from_start = TRUE,
                                            .deadline = deadline,
                                          }, data, len, &want, error);
      if (gguf != NULL)
        {
          if (size > 0)
            hr_gguf_set_file_size (gguf, size);
          return gguf;
        }
      if (want == 0)
        return NULL;
    }
}

static HrGguf *
read_gguf (HrHub                *hub,
           HrHubSized           *s,
           const HrHubGgufModel *m,
           GCancellable         *cancellable,
           GError              **error)
{
  g_autofree char *prefix = NULL;
  guint no, of;
  g_autofree HrGguf **parts = NULL;

  if (!hr_gguf_split_name_parse (m->path, &prefix, &no, &of))
    {
      const HrHubFile *f = hr_hub_tree_find (s->tree, m->path);

      s->gguf_parts = 1;
      return read_gguf_part (hub, s, m->path, f != NULL ? f->size : 0, cancellable, error);
    }
  if (!m->complete)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   _("%s lists %u of the %u parts of %s"), s->repo, m->n_parts, of, m->path);
      return NULL;
    }
  parts = g_new0 (HrGguf *, of);
  for (guint i = 1; i <= of; i++)
    {
      g_autofree char *path = hr_gguf_split_name (prefix, i, of);
      const HrHubFile *f = hr_hub_tree_find (s->tree, path);

      parts[i - 1] = f != NULL ? read_gguf_part (hub, s, path, f->size, cancellable, error) : NULL;
      if (parts[i - 1] == NULL)
        {
          if (f == NULL)
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                         _("Part %u of %u of the model (%s) was not found"), i, of, path);
          for (guint j = 0; j + 1 < i; j++)
            hr_gguf_free (parts[j]);
          return NULL;
        }
    }
  s->gguf_parts = of;
  return hr_gguf_merge_split (parts, of, error);
}

/* The GGUF model @selector names (a quant, or a file path or name), else the default. */
static const HrHubGgufModel *
choose_gguf (GPtrArray  *models,
             const char *selector)
{
  const HrHubGgufModel *smallest = NULL;

  for (guint i = 0; selector != NULL && i < models->len; i++)
    {
      const HrHubGgufModel *m = g_ptr_array_index (models, i);
      const char *base = strrchr (m->path, '/');

      if ((m->quant != NULL && g_ascii_strcasecmp (m->quant, selector) == 0) ||
          strcmp (m->path, selector) == 0 || (base != NULL && strcmp (base + 1, selector) == 0))
        return m;
    }
  /* a part other than the first named */
  if (selector != NULL && g_str_has_suffix (selector, ".gguf"))
    {
      g_autofree char *prefix = NULL;
      guint no, of;

      if (hr_gguf_split_name_parse (selector, &prefix, &no, &of))
        {
          g_autofree char *first = hr_gguf_split_name (prefix, 1, of);

          for (guint i = 0; i < models->len; i++)
            {
              const HrHubGgufModel *m = g_ptr_array_index (models, i);

              if (g_str_has_suffix (m->path, first))
                return m;
            }
        }
      return NULL;
    }
  if (selector != NULL)
    return NULL;
  for (guint q = 0; q < G_N_ELEMENTS (preferred_quants); q++)
    for (guint i = 0; i < models->len; i++)
      {
        const HrHubGgufModel *m = g_ptr_array_index (models, i);

        if (m->complete && m->quant != NULL && g_ascii_strcasecmp (m->quant, preferred_quants[q]) == 0)
          return m;
      }
  for (guint i = 0; i < models->len; i++)
    {
      const HrHubGgufModel *m = g_ptr_array_index (models, i);

      if (m->complete)
        smallest = m;
    }
  return smallest;
}

static void
add_gguf_sizes (HrHubSized *s)
{
  for (guint i = 0; i < s->gguf_models->len; i++)
    {
      const HrHubGgufModel *m = g_ptr_array_index (s->gguf_models, i);

      if (m->complete && m->quant != NULL && hr_model_find_size (s->model, m->quant) == NULL)
        hr_model_add_size (s->model, m->quant, m->bytes, HR_HUB_SIZE_SOURCE);
    }
}

static void
name_model (HrHubSized *s)
{
  HrModel *m = s->model;

  g_free (m->id);
  m->id = g_strdup_printf ("hf:%s", s->repo);
  g_free (m->name);
  m->name = g_strdup (s->repo);
  g_free (m->source);
  m->source = g_strcmp0 (s->revision, "main") == 0
              ? g_strdup_printf (HR_HUB_SOURCE_PREFIX "%s", s->repo)
              : g_strdup_printf (HR_HUB_SOURCE_PREFIX "%s@%s", s->repo, s->revision);
}

static gboolean
size_gguf (HrHub                *hub,
           HrHubSized           *s,
           const HrHubGgufModel *chosen,
           GCancellable         *cancellable,
           GError              **error)
{
  g_autoptr(HrGguf) gguf = NULL;

  s->kind = HR_HUB_KIND_GGUF;
  gguf = read_gguf (hub, s, chosen, cancellable, error);
  if (gguf == NULL)
    return FALSE;
  s->model = hr_gguf_to_model (gguf, error);
  if (s->model == NULL)
    {
      g_prefix_error (error, "%s (%s): ", chosen->path, s->repo);
      return FALSE;
    }
  s->gguf_path = g_strdup (chosen->path);
  s->stats.n_parts = s->gguf_parts;
  s->stats.file_size = chosen->bytes;
  g_free (s->model->gguf_repo);
  s->model->gguf_repo = g_strdup (s->repo);
  /* the quant the name gives (what `llama-server -hf REPO:QUANT` asks for) */
  if (chosen->quant != NULL)
    {
      g_free (s->model->gguf_quant);
      s->model->gguf_quant = g_strdup (chosen->quant);
    }
  s->quant = g_strdup (s->model->gguf_quant != NULL ? s->model->gguf_quant
                                                    : hr_gguf_fallback_quant (gguf));
  s->weight_bytes = s->model->gguf_bytes;
  name_model (s);
  add_gguf_sizes (s);
  return TRUE;
}

static gboolean
size_safetensors (HrHub         *hub,
                  HrHubSized    *s,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(GBytes) config = NULL;
  g_autoptr(GError) local = NULL;
  const HrHubFile *index = NULL;
  const char *data;
  gsize len;

  s->kind = HR_HUB_KIND_SAFETENSORS;
  if (hr_hub_tree_find (s->tree, "config.json") == NULL)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                   _("%s has safetensors weights but no config.json: Headroom cannot tell its "
                     "architecture"), s->repo);
      return FALSE;
    }
  config = hr_hub_read_file (hub, s->repo, s->revision, "config.json", HR_HFCONFIG_MAX_SIZE,
                             cancellable, error);
  if (config == NULL)
    return FALSE;
  data = g_bytes_get_data (config, &len);
  s->model = hr_hfconfig_parse (data, (gssize) len, s->repo, &local);
  if (s->model == NULL)
    {
      g_set_error (error, local->domain, local->code, _("The config.json of %s: %s"), s->repo,
                   local->message);
      return FALSE;
    }

  if ((index = hr_hub_tree_find (s->tree, "model.safetensors.index.json")) != NULL &&
      hr_hub_tree_find (s->tree, "model.safetensors") == NULL)
    {
      g_autoptr(GBytes) bytes = hr_hub_read_file (hub, s->repo, s->revision, index->path,
                                                  HR_SAFETENSORS_INDEX_MAX_SIZE, cancellable,
                                                  error);
      guint64 total = 0;

      if (bytes == NULL)
        return FALSE;
      data = g_bytes_get_data (bytes, &len);
      s->shards = hr_safetensors_index_parse (data, len, &total, &local);
      if (s->shards == NULL)
        {
          g_set_error (error, local->domain, local->code, "%s (%s): %s", index->path, s->repo,
                       local->message);
          return FALSE;
        }
    }
  else
    s->shards = hr_hub_tree_safetensors (s->tree);

  s->weights = hr_safetensors_new_empty ();
  for (guint i = 0; s->shards[i] != NULL; i++)
    {
      const HrHubFile *f = hr_hub_tree_find (s->tree, s->shards[i]);
      g_autoptr(HrSafetensors) part = NULL;

      if (f == NULL)
        {
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                       _("%s: the index names %s, which the repository does not have"),
                       s->repo, s->shards[i]);
          return FALSE;
        }
      part = hr_hub_read_safetensors (hub, s->repo, s->revision, f->path, f->size, cancellable,
                                      error);
      if (part == NULL)
        return FALSE;
      hr_safetensors_add (s->weights, part);
    }

  s->quant = hr_hub_checkpoint_quant (g_bytes_get_data (config, NULL), g_bytes_get_size (config),
                                      &s->quant_method);
  if (s->quant == NULL)
    {
      if (s->quant_method != NULL)
        {
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                       _("%s is quantized with “%s”, which Headroom does not know how to size"),
                       s->repo, s->quant_method);
          return FALSE;
        }
      /* no dtype given: the dtype most of the bytes are in */
      s->quant = g_strdup (s->weights->dtypes->len > 0 &&
                           strcmp (g_array_index (s->weights->dtypes, HrSafetensorsDtype, 0).dtype,
                                   "F16") == 0 ? "F16" : "BF16");
    }
  s->weight_bytes = s->weights->data_bytes;
  g_free (s->model->hf_repo);
  s->model->hf_repo = g_strdup (s->repo);
  g_free (s->model->native_dtype);
  s->model->native_dtype = g_strdup (s->quant);
  name_model (s);
  hr_model_add_size (s->model, s->quant, s->weight_bytes, HR_HUB_HEADERS_SOURCE);
  if (s->gguf_models->len > 0)
    {
      g_free (s->model->gguf_repo);
      s->model->gguf_repo = g_strdup (s->repo);
      add_gguf_sizes (s);
    }
  return TRUE;
}

gboolean
hr_hub_size_projector (HrHub         *hub,
                       HrHubSized    *s,
                       GCancellable  *cancellable,
                       char         **path,
                       guint64       *bytes,
                       HrVisionEncoder *encoder,
                       GError       **error)
{
  g_return_val_if_fail (hub != NULL && s != NULL && path != NULL && bytes != NULL, FALSE);

  *path = NULL;
  *bytes = 0;
  if (encoder != NULL)
    memset (encoder, 0, sizeof *encoder);
  for (guint i = 0; s->tree != NULL && i < s->tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (s->tree->files, i);
      g_autoptr(HrGguf) gguf = NULL;

      if (f->role != HR_HUB_ROLE_PROJECTOR)
        continue;
      gguf = read_gguf_part (hub, s, f->path, f->size, cancellable, error);
      if (gguf == NULL)
        return FALSE;
      *bytes = hr_gguf_get_tensor_bytes (gguf);
      if (encoder != NULL)
        hr_projector_encoder_from_gguf (gguf, encoder);
      *path = g_strdup (f->path);
      return TRUE;
    }
  return TRUE;
}

HrHubSized *
hr_hub_size_repo (HrHub         *hub,
                  const char    *ref,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(HrHubSized) s = g_new0 (HrHubSized, 1);
  g_autofree char *selector = NULL;
  g_auto(GStrv) safetensors = NULL;
  const HrHubGgufModel *chosen;

  g_return_val_if_fail (hub != NULL && ref != NULL, NULL);

  if (!hr_hub_ref_parse (ref, &s->repo, &s->revision, &selector, error) ||
      !hr_hub_check_repo_id (s->repo, error))
    return NULL;
  s->tree = hr_hub_list_files (hub, s->repo, s->revision, cancellable, error);
  if (s->tree == NULL)
    return NULL;
  s->gguf_models = hr_hub_tree_gguf_models (s->tree);
  safetensors = hr_hub_tree_safetensors (s->tree);

  if (selector != NULL || safetensors == NULL)
    {
      if (s->gguf_models->len == 0)
        {
          if (safetensors != NULL)
            g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                         _("%s has no GGUF files; leave out “:%s” to size its safetensors "
                           "weights"), s->repo, selector);
          else
            g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                         _("%s has neither GGUF files nor safetensors weights to size"), s->repo);
          return NULL;
        }
      chosen = choose_gguf (s->gguf_models, selector);
      if (chosen == NULL)
        {
          g_autoptr(GString) quants = g_string_new (NULL);

          for (guint i = 0; i < s->gguf_models->len; i++)
            {
              const HrHubGgufModel *m = g_ptr_array_index (s->gguf_models, i);

              g_string_append_printf (quants, "%s%s", quants->len ? ", " : "",
                                      m->quant != NULL ? m->quant : m->path);
            }
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                       _("%s has no GGUF file “%s” (it has: %s)"), s->repo,
                       selector != NULL ? selector : "", quants->str);
          return NULL;
        }
      if (!size_gguf (hub, s, chosen, cancellable, error))
        return NULL;
      /* its checkpoint is in the same repository: what vLLM and SGLang serve */
      if (safetensors != NULL)
        {
          g_free (s->model->hf_repo);
          s->model->hf_repo = g_strdup (s->repo);
        }
    }
  else if (!size_safetensors (hub, s, cancellable, error))
    return NULL;

  if (!hr_model_validate (s->model, error))
    return NULL;
  return g_steal_pointer (&s);
}
