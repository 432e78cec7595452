/* hr-userdata-json.c — the ids of the user's entries, and one model or GPU as JSON
 *
 * A user entry is stored under a slug and known to the program as "user:slug".  The writers
 * put down exactly the fields the catalog parser (hr-catalog-parse.c) reads, with numbers in
 * their shortest exact form, so a saved file reads back to the same values.
 */
#include "hr-userdata-private.h"

#include <math.h>
#include <string.h>

#include "hr-units.h"

#define MAX_SLUG_CHARS 64

static gboolean
is_slug (const char *str)
{
  if (str == NULL || *str == '\0' || strlen (str) > MAX_SLUG_CHARS || !g_ascii_isalnum (*str))
    return FALSE;
  for (const char *p = str; *p; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && strchr ("-._+", *p) == NULL)
      return FALSE;
  return TRUE;
}

const char *
hr_userdata_strip_prefix (const char *id)
{
  if (id != NULL && g_str_has_prefix (id, HR_USERDATA_ID_PREFIX))
    return id + strlen (HR_USERDATA_ID_PREFIX);
  return id;
}

static char *
slugify (const char *text)
{
  return hr_slugify (text, MAX_SLUG_CHARS, NULL);
}

/* The slug an entry is stored under in the file. */
char *
hr_userdata_file_slug (const char *id,
                       const char *name,
                       const char *fallback)
{
  g_autofree char *slug = NULL;

  id = hr_userdata_strip_prefix (id);
  if (is_slug (id))
    return g_strdup (id);
  slug = slugify (id != NULL && *id ? id : name);
  if (*slug == '\0')
    {
      g_free (slug);
      slug = slugify (name);
    }
  if (*slug == '\0')
    return g_strdup (fallback);
  return g_steal_pointer (&slug);
}

char *
hr_userdata_user_id (const char *id,
                     const char *name,
                     const char *fallback)
{
  g_autofree char *slug = hr_userdata_file_slug (id, name, fallback);

  return g_strconcat (HR_USERDATA_ID_PREFIX, slug, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing entries                                                                              */

/* The shortest '.'-decimal form (at most 12 places) that reads back as the same double, so a
 * saved model computes exactly what it computed before. */
static void
json_exact (HrJsonWriter *w,
            double        value)
{
  char buf[64];
  int decimals = 0;

  if (isfinite (value))
    for (; decimals < 12; decimals++)
      {
        hr_format_number_c_buf (buf, sizeof buf, value, decimals);
        if (g_ascii_strtod (buf, NULL) == value)
          break;
      }
  hr_json_number (w, value, decimals);
}

/* A count where 0 means "unknown" or "none": written as null. */
static void
json_count (HrJsonWriter *w,
            const char   *key,
            gint64        value)
{
  hr_json_key (w, key);
  if (value > 0)
    hr_json_int (w, value);
  else
    hr_json_null (w);
}

static void
json_opt_string (HrJsonWriter *w,
                 const char   *key,
                 const char   *value)
{
  if (value == NULL)
    return;
  hr_json_key (w, key);
  hr_json_string (w, value);
}

static gboolean
is_exact_count (double value)
{
  return isfinite (value) && value > 0 && value == floor (value) && value <= MAX_EXACT;
}

static void
write_layer_group (HrJsonWriter       *w,
                   const HrLayerGroup *g)
{
  hr_json_begin_object (w);
  hr_json_key (w, "kind");
  hr_json_string (w, hr_layer_kind_to_string (g->kind));
  hr_json_key (w, "layers");
  hr_json_int (w, g->count);
  if (g->kind == HR_LAYER_RECURRENT)
    {
      hr_json_key (w, "state_bytes");
      json_exact (w, g->state_bytes);
      if (g->conv_bytes > 0)
        {
          hr_json_key (w, "conv_bytes");
          json_exact (w, g->conv_bytes);
        }
    }
  else
    {
      hr_json_key (w, "kv_heads");
      hr_json_int (w, g->kv_heads);
      hr_json_key (w, "k_dim");
      hr_json_int (w, g->k_dim);
      hr_json_key (w, "v_dim");
      hr_json_int (w, g->v_dim);
      if (g->kind == HR_LAYER_SLIDING || g->kind == HR_LAYER_CHUNKED)
        json_count (w, "window", g->window);
    }
  hr_json_end_object (w);
}

static const char *
origin_to_string (HrModelOrigin origin)
{
  switch (origin)
    {
    case HR_MODEL_ORIGIN_CONFIG: return "config";
    case HR_MODEL_ORIGIN_GGUF: return "gguf";
    case HR_MODEL_ORIGIN_CATALOG:
    default: return "catalog";
    }
}

/* Opens an entry's object with its file id (the slug) and its name (the id when it has none);
 * returns the id for the caller to free. */
static char *
begin_entry (HrJsonWriter *w,
             const char   *id,
             const char   *name,
             const char   *fallback)
{
  char *slug = hr_userdata_file_slug (id, name, fallback);

  hr_json_begin_object (w);
  hr_json_key (w, "id");
  hr_json_string (w, slug);
  hr_json_key (w, "name");
  hr_json_string (w, name != NULL && *name ? name : slug);
  return slug;
}

void
hr_model_write_json (HrJsonWriter  *w,
                     const HrModel *m)
{
  g_autofree char *id = NULL;

  g_return_if_fail (w != NULL);
  g_return_if_fail (m != NULL);

  id = begin_entry (w, m->id, m->name, "model");
  json_opt_string (w, "family", m->family);
  json_opt_string (w, "vendor", m->vendor);
  json_opt_string (w, "hf_repo", m->hf_repo);
  json_opt_string (w, "gguf_repo", m->gguf_repo);
  json_opt_string (w, "license", m->license);
  json_opt_string (w, "native_dtype", m->native_dtype);
  json_opt_string (w, "arch_label", m->arch_label);
  hr_json_key (w, "total_params_b");
  json_exact (w, m->total_params / 1e9);
  hr_json_key (w, "active_params_b");
  json_exact (w, m->active_params / 1e9);
  json_count (w, "max_context", m->max_context);

  hr_json_key (w, "arch");
  hr_json_begin_object (w);
  hr_json_key (w, "layers");
  hr_json_int (w, m->n_layers);
  json_count (w, "hidden", m->hidden);
  json_count (w, "heads", m->n_heads);
  json_count (w, "head_dim", m->head_dim);
  json_count (w, "vocab", m->vocab);
  json_count (w, "intermediate", m->intermediate);
  json_count (w, "experts", m->n_experts);
  json_count (w, "experts_used", m->n_experts_used);
  json_count (w, "shared_experts", m->n_shared_experts);
  json_count (w, "moe_intermediate", m->moe_intermediate);
  json_count (w, "shared_intermediate", m->shared_intermediate);
  json_count (w, "dense_layers", m->n_dense_layers);
  json_count (w, "q_lora_rank", m->q_lora_rank);
  json_count (w, "kv_lora_rank", m->kv_lora_rank);
  json_count (w, "qk_rope_dim", m->qk_rope_dim);
  json_count (w, "qk_nope_dim", m->qk_nope_dim);
  json_count (w, "v_head_dim", m->v_head_dim);
  json_count (w, "mtp_layers", m->mtp_layers);
  hr_json_key (w, "tie_embeddings");
  hr_json_bool (w, m->tie_embeddings);
  hr_json_end_object (w);

  hr_json_key (w, "kv_groups");
  hr_json_begin_array (w);
  for (guint i = 0; m->layers != NULL && i < m->layers->len; i++)
    write_layer_group (w, &g_array_index (m->layers, HrLayerGroup, i));
  hr_json_end_array (w);

  hr_json_key (w, "sizes");
  hr_json_begin_array (w);
  for (guint i = 0; m->sizes != NULL && i < m->sizes->len; i++)
    {
      const HrQuantSize *size = g_ptr_array_index (m->sizes, i);

      hr_json_begin_object (w);
      hr_json_key (w, "quant");
      hr_json_string (w, size->quant);
      hr_json_key (w, "bytes");
      hr_json_int (w, (gint64) MIN (size->bytes, (guint64) G_MAXINT64));
      json_opt_string (w, "source", size->source);
      hr_json_end_object (w);
    }
  hr_json_end_array (w);

  json_opt_string (w, "confidence", m->confidence);
  json_opt_string (w, "source", m->source);

  /* Ours: ignored by the catalog parser, read back by read_model_extras(). */
  hr_json_key (w, "origin");
  hr_json_string (w, origin_to_string (m->origin));
  if (is_exact_count (m->total_params))
    {
      hr_json_key (w, "total_params");
      hr_json_int (w, (gint64) m->total_params);
    }
  if (is_exact_count (m->active_params))
    {
      hr_json_key (w, "active_params");
      hr_json_int (w, (gint64) m->active_params);
    }
  if (m->gguf_bytes > 0 || m->gguf_quant != NULL || m->gguf_file_type >= 0)
    {
      hr_json_key (w, "gguf");
      hr_json_begin_object (w);
      hr_json_key (w, "quant");
      hr_json_string (w, m->gguf_quant);
      hr_json_key (w, "bytes");
      hr_json_int (w, (gint64) MIN (m->gguf_bytes, (guint64) G_MAXINT64));
      hr_json_key (w, "expert_bytes");
      hr_json_int (w, (gint64) MIN (m->gguf_expert_bytes, (guint64) G_MAXINT64));
      hr_json_key (w, "file_type");
      hr_json_int (w, m->gguf_file_type);
      if (m->gguf_path != NULL && g_utf8_validate (m->gguf_path, -1, NULL))
        {
          hr_json_key (w, "path");
          hr_json_string (w, m->gguf_path);
        }
      hr_json_end_object (w);
    }
  hr_json_end_object (w);
}

void
hr_gpu_write_json (HrJsonWriter *w,
                   const HrGpu  *gpu)
{
  g_autofree char *id = NULL;

  g_return_if_fail (w != NULL);
  g_return_if_fail (gpu != NULL);

  id = begin_entry (w, gpu->id, gpu->name, "gpu");
  json_opt_string (w, "vendor", gpu->vendor);
  hr_json_key (w, "form");
  hr_json_string (w, hr_gpu_form_to_string (gpu->form));
  hr_json_key (w, "memory_gb");
  json_exact (w, gpu->memory_gib);
  json_opt_string (w, "memory_type", gpu->memory_type);
  hr_json_key (w, "bandwidth_gbs");
  json_exact (w, gpu->bandwidth_gbs);
  hr_json_key (w, "fp16_tflops");
  json_exact (w, gpu->fp16_tflops);
  hr_json_key (w, "fp8_tflops");
  json_exact (w, gpu->fp8_tflops);
  hr_json_key (w, "tdp_w");
  json_exact (w, gpu->tdp_w);
  hr_json_key (w, "price_usd");
  json_exact (w, gpu->price_usd);
  json_opt_string (w, "price_note", gpu->price_note);
  hr_json_key (w, "used_market");
  hr_json_bool (w, gpu->used_market);
  json_opt_string (w, "interconnect", gpu->interconnect);
  json_opt_string (w, "stack", gpu->stack);
  hr_json_key (w, "backend");
  hr_json_string (w, hr_backend_to_string (gpu->backend));
  hr_json_key (w, "unified_share");
  /* 0 on a unified machine means "not known"; other forms have no share at all. */
  json_exact (w, gpu->form == HR_FORM_UNIFIED && gpu->unified_share > 0 ? gpu->unified_share
                                                                        : NAN);
  json_count (w, "gpu_cores", gpu->gpu_cores);
  json_opt_string (w, "confidence", gpu->confidence);
  json_opt_string (w, "source", gpu->source);
  hr_json_end_object (w);
}

char *
hr_model_to_json (const HrModel *model)
{
  HrJsonWriter w;

  g_return_val_if_fail (model != NULL, NULL);

  hr_json_document_begin (&w);
  hr_model_write_json (&w, model);
  return hr_json_document_end (&w);
}

char *
hr_gpu_to_json (const HrGpu *gpu)
{
  HrJsonWriter w;

  g_return_val_if_fail (gpu != NULL, NULL);

  hr_json_document_begin (&w);
  hr_gpu_write_json (&w, gpu);
  return hr_json_document_end (&w);
}
