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

/* Each member writer puts down "key": value. */

/* The shortest '.'-decimal form (at most 12 places) that reads back as the same double, so a
 * saved model computes exactly what it computed before. */
static void
json_exact (HrJsonWriter *w,
            const char   *key,
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
  hr_json_key (w, key);
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

/* File sizes are unsigned; JSON integers here are signed 64-bit. */
static void
json_bytes (HrJsonWriter *w,
            const char   *key,
            guint64       value)
{
  hr_json_member_int (w, key, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
json_opt_string (HrJsonWriter *w,
                 const char   *key,
                 const char   *value)
{
  if (value != NULL)
    hr_json_member_string (w, key, value);
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
  hr_json_member_string (w, "kind", hr_layer_kind_to_string (g->kind));
  hr_json_member_int (w, "layers", g->count);
  if (g->kind == HR_LAYER_RECURRENT)
    {
      json_exact (w, "state_bytes", g->state_bytes);
      if (g->conv_bytes > 0)
        json_exact (w, "conv_bytes", g->conv_bytes);
    }
  else
    {
      hr_json_member_int (w, "kv_heads", g->kv_heads);
      hr_json_member_int (w, "k_dim", g->k_dim);
      hr_json_member_int (w, "v_dim", g->v_dim);
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

/* Opens an entry's object with its file id (the slug) and its name (the id when it has none). */
static void
begin_entry (HrJsonWriter *w,
             const char   *id,
             const char   *name,
             const char   *fallback)
{
  g_autofree char *slug = hr_userdata_file_slug (id, name, fallback);

  hr_json_begin_object (w);
  hr_json_member_string (w, "id", slug);
  hr_json_member_string (w, "name", name != NULL && *name ? name : slug);
}

/* The catalog's "arch" object. */
static void
write_arch (HrJsonWriter  *w,
            const HrModel *m)
{
  hr_json_key (w, "arch");
  hr_json_begin_object (w);
  hr_json_member_int (w, "layers", m->n_layers);
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
  /* Only when set, so files of models without them read as before. */
  if (m->n_ffn_layers > 0)
    hr_json_member_int (w, "ffn_layers", m->n_ffn_layers);
  hr_json_member_bool (w, "tie_embeddings", m->tie_embeddings);
  if (m->ffn_ungated)
    hr_json_member_bool (w, "ffn_ungated", TRUE);
  if (m->extra_block_kernels > 0)
    hr_json_member_int (w, "extra_block_kernels", m->extra_block_kernels);
  hr_json_end_object (w);
}

/* The catalog's "kv_groups" and "sizes" arrays. */
static void
write_groups_and_sizes (HrJsonWriter  *w,
                        const HrModel *m)
{
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
      hr_json_member_string (w, "quant", size->quant);
      json_bytes (w, "bytes", size->bytes);
      json_opt_string (w, "source", size->source);
      hr_json_end_object (w);
    }
  hr_json_end_array (w);
}

/* Ours: ignored by the catalog parser, read back by read_model_extras(). */
static void
write_model_extras (HrJsonWriter  *w,
                    const HrModel *m)
{
  hr_json_member_string (w, "origin", origin_to_string (m->origin));
  if (is_exact_count (m->total_params))
    hr_json_member_int (w, "total_params", (gint64) m->total_params);
  if (is_exact_count (m->active_params))
    hr_json_member_int (w, "active_params", (gint64) m->active_params);
  if (m->gguf_bytes > 0 || m->gguf_quant != NULL || m->gguf_file_type >= 0)
    {
      hr_json_key (w, "gguf");
      hr_json_begin_object (w);
      hr_json_member_string (w, "quant", m->gguf_quant);
      json_bytes (w, "bytes", m->gguf_bytes);
      json_bytes (w, "expert_bytes", m->gguf_expert_bytes);
      hr_json_member_int (w, "file_type", m->gguf_file_type);
      if (m->gguf_path != NULL && g_utf8_validate (m->gguf_path, -1, NULL))
        hr_json_member_string (w, "path", m->gguf_path);
      hr_json_end_object (w);
    }
}

/* The vision projector (#31), as the catalog reads it (hr-catalog-parse.c's "mmproj") */
static void
write_mmproj (HrJsonWriter  *w,
              const HrModel *m)
{
  const HrVisionEncoder *e = &m->mmproj_encoder;

  if (!(m->mmproj_bytes > 0) || m->mmproj_dtype == NULL)
    return;
  hr_json_key (w, "mmproj");
  hr_json_begin_object (w);
  hr_json_member_string (w, "dtype", m->mmproj_dtype);
  json_bytes (w, "bytes", (guint64) m->mmproj_bytes);
  if (m->mmproj_source != NULL && g_utf8_validate (m->mmproj_source, -1, NULL))
    hr_json_member_string (w, "source", m->mmproj_source);
  if (e->patches > 0)
    hr_json_member_int (w, "patches", e->patches);
  if (e->hidden > 0)
    hr_json_member_int (w, "hidden", e->hidden);
  if (e->ff > 0)
    hr_json_member_int (w, "ff", e->ff);
  if (e->heads > 0)
    hr_json_member_int (w, "heads", e->heads);
  hr_json_member_bool (w, "gated", e->gated);
  hr_json_member_bool (w, "windowed", e->windowed);
  hr_json_end_object (w);
}

void
hr_model_write_json (HrJsonWriter  *w,
                     const HrModel *m)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (m != NULL);

  begin_entry (w, m->id, m->name, "model");
  json_opt_string (w, "family", m->family);
  json_opt_string (w, "vendor", m->vendor);
  json_opt_string (w, "hf_repo", m->hf_repo);
  json_opt_string (w, "gguf_repo", m->gguf_repo);
  json_opt_string (w, "license", m->license);
  json_opt_string (w, "native_dtype", m->native_dtype);
  json_opt_string (w, "arch_label", m->arch_label);
  json_exact (w, "total_params_b", m->total_params / 1e9);
  json_exact (w, "active_params_b", m->active_params / 1e9);
  if (m->vision_params > 0)
    json_exact (w, "vision_params_b", m->vision_params / 1e9);
  json_count (w, "max_context", m->max_context);
  write_mmproj (w, m);
  write_arch (w, m);
  write_groups_and_sizes (w, m);
  json_opt_string (w, "confidence", m->confidence);
  json_opt_string (w, "source", m->source);
  write_model_extras (w, m);
  hr_json_end_object (w);
}

void
hr_gpu_write_json (HrJsonWriter *w,
                   const HrGpu  *gpu)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (gpu != NULL);

  begin_entry (w, gpu->id, gpu->name, "gpu");
  json_opt_string (w, "vendor", gpu->vendor);
  hr_json_member_string (w, "form", hr_gpu_form_to_string (gpu->form));
  json_exact (w, "memory_gb", gpu->memory_gib);
  json_opt_string (w, "memory_type", gpu->memory_type);
  json_exact (w, "bandwidth_gbs", gpu->bandwidth_gbs);
  json_exact (w, "fp16_tflops", gpu->fp16_tflops);
  json_exact (w, "fp8_tflops", gpu->fp8_tflops);
  json_exact (w, "tdp_w", gpu->tdp_w);
  json_exact (w, "price_usd", gpu->price_usd);
  json_opt_string (w, "price_note", gpu->price_note);
  hr_json_member_bool (w, "used_market", gpu->used_market);
  json_opt_string (w, "interconnect", gpu->interconnect);
  json_opt_string (w, "stack", gpu->stack);
  hr_json_member_string (w, "backend", hr_backend_to_string (gpu->backend));
  /* 0 on a unified machine means "not known"; other forms have no share at all. */
  json_exact (w, "unified_share",
              gpu->form == HR_FORM_UNIFIED && gpu->unified_share > 0 ? gpu->unified_share : NAN);
  /* only a known measurement, and only one the catalog reader takes back (unified, ≤ peak, with its source) */
  if (gpu->form == HR_FORM_UNIFIED && gpu->bandwidth_measured_gbs > 0
      && gpu->bandwidth_measured_gbs <= gpu->bandwidth_gbs && gpu->bandwidth_measured_source != NULL)
    {
      json_exact (w, "bandwidth_measured_gbs", gpu->bandwidth_measured_gbs);
      json_opt_string (w, "bandwidth_measured_source", gpu->bandwidth_measured_source);
    }
  json_count (w, "gpu_cores", gpu->gpu_cores);
  if (hr_gpu_generation_info (gpu->generation) != NULL)
    hr_json_member_string (w, "generation", hr_gpu_generation_info (gpu->generation)->id);
  json_opt_string (w, "confidence", gpu->confidence);
  json_opt_string (w, "source", gpu->source);
  hr_json_end_object (w);
}

typedef void (*WriteFunc) (HrJsonWriter *w,
                           gconstpointer entry);

/* One entry as a whole JSON document. */
static char *
entry_to_json (WriteFunc     write,
               gconstpointer entry)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  write (&w, entry);
  return hr_json_document_end (&w);
}

char *
hr_model_to_json (const HrModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);

  return entry_to_json ((WriteFunc) hr_model_write_json, model);
}

char *
hr_gpu_to_json (const HrGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);

  return entry_to_json ((WriteFunc) hr_gpu_write_json, gpu);
}
