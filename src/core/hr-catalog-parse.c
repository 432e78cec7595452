/* hr-catalog-parse.c — models.json, gpus.json and quants.json entries into structs
 *
 * One function per kind of entry reads every field through the checked readers of
 * hr-catalog-read.c.  A file is parsed completely into a scratch list first, so a bad entry
 * anywhere leaves the catalog as it was (load_entries, hr_catalog_load_quants).
 */
#include "hr-catalog-private.h"

#include "hr-estimate.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_GROUPS       64
#define MAX_SIZES        256
#define MAX_NAME_CHARS   200
#define MAX_SHORT_CHARS  100
#define MAX_SOURCE_CHARS 16384

/* A ggml type as a quants.json file declares it. */
typedef struct
{
  char *name;
  int id;
  int block_size;
  int bytes_per_block;
} FileType;

static void
file_type_clear (gpointer data)
{
  FileType *type = data;

  g_free (type->name);
}

/* ------------------------------------------------------------------------------------------ */
/* models.json                                                                                 */

static gboolean
parse_arch (const HrEntry *model_entry,
            JsonObject    *arch,
            HrModel       *model,
            GError       **error)
{
  g_autofree char *label = g_strdup_printf ("%s, arch", model_entry->label);
  const HrEntry sub = { model_entry->file, label };
  const HrEntry *entry = &sub;
  gint64 n_layers;

  if (!hr_entry_read_int (entry, arch, "layers", TRUE, 1, 10000, 0, &n_layers, error))
    return FALSE;
  model->n_layers = (int) n_layers;

  if (!hr_entry_read_count (entry, arch, "hidden", FALSE, 1, 1 << 20, &model->hidden, error) ||
      !hr_entry_read_count (entry, arch, "heads", FALSE, 1, 65536, &model->n_heads, error) ||
      !hr_entry_read_count (entry, arch, "head_dim", FALSE, 1, 65536, &model->head_dim, error) ||
      !hr_entry_read_count (entry, arch, "vocab", FALSE, 1, 1 << 24, &model->vocab, error) ||
      !hr_entry_read_count (entry, arch, "intermediate", FALSE, 0, 1 << 24, &model->intermediate,
                            error) ||
      !hr_entry_read_count (entry, arch, "experts", FALSE, 0, 65536, &model->n_experts, error) ||
      !hr_entry_read_count (entry, arch, "experts_used", FALSE, 0, 65536, &model->n_experts_used,
                            error) ||
      !hr_entry_read_count (entry, arch, "shared_experts", FALSE, 0, 1024, &model->n_shared_experts,
                            error) ||
      !hr_entry_read_count (entry, arch, "moe_intermediate", FALSE, 0, 1 << 24,
                            &model->moe_intermediate, error) ||
      !hr_entry_read_count (entry, arch, "shared_intermediate", FALSE, 0, 1 << 24,
                            &model->shared_intermediate, error) ||
      !hr_entry_read_count (entry, arch, "dense_layers", FALSE, 0, n_layers, &model->n_dense_layers,
                            error) ||
      !hr_entry_read_count (entry, arch, "q_lora_rank", FALSE, 0, 65536, &model->q_lora_rank,
                            error) ||
      !hr_entry_read_count (entry, arch, "kv_lora_rank", FALSE, 0, 65536, &model->kv_lora_rank,
                            error) ||
      !hr_entry_read_count (entry, arch, "qk_rope_dim", FALSE, 0, 65536, &model->qk_rope_dim,
                            error) ||
      !hr_entry_read_count (entry, arch, "qk_nope_dim", FALSE, 0, 65536, &model->qk_nope_dim,
                            error) ||
      !hr_entry_read_count (entry, arch, "v_head_dim", FALSE, 0, 65536, &model->v_head_dim,
                            error) ||
      !hr_entry_read_count (entry, arch, "mtp_layers", FALSE, 0, 64, &model->mtp_layers, error) ||
      !hr_entry_read_count (entry, arch, "ffn_layers", FALSE, 0, n_layers, &model->n_ffn_layers,
                            error) ||
      !hr_entry_read_bool (entry, arch, "tie_embeddings", FALSE, &model->tie_embeddings, error) ||
      !hr_entry_read_bool (entry, arch, "ffn_ungated", FALSE, &model->ffn_ungated, error))
    return FALSE;

  if (model->n_experts_used > MAX (model->n_experts, 0) && model->n_experts > 0)
    {
      hr_entry_error (error, entry, "experts_used", _("exceeds experts (%d)"),
                      model->n_experts);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_kv_groups (const HrEntry *entry,
                 JsonObject    *object,
                 HrModel       *model,
                 GError       **error)
{
  JsonNode *node = hr_catalog_member (object, "kv_groups");
  JsonArray *array;
  guint n;
  gint64 layer_sum = 0;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      hr_entry_error (error, entry, "kv_groups",
                      node == NULL ? _("is missing") : _("must be an array"));
      return FALSE;
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n == 0 || n > MAX_GROUPS)
    {
      hr_entry_error (error, entry, "kv_groups", _("must hold 1 to %d groups"), MAX_GROUPS);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      JsonNode *gnode = json_array_get_element (array, i);
      g_autofree char *kind_str = NULL;
      JsonObject *g;
      HrLayerKind kind;
      gint64 count, kv_heads = 0, k_dim = 0, v_dim = 0, window = 0;
      double state = 0, conv = 0;
      HrEntry sub = { entry->file, NULL };

      sub.label = g_strdup_printf ("%s, kv_groups[%u]", entry->label, i);

      if (gnode == NULL || !JSON_NODE_HOLDS_OBJECT (gnode))
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       _("%s: %s must be an object"), sub.file, sub.label);
          g_free (sub.label);
          return FALSE;
        }
      g = json_node_get_object (gnode);

      if (!hr_entry_read_string (&sub, g, "kind", TRUE, 16, &kind_str, error))
        goto fail;
      if (!hr_layer_kind_from_string (kind_str, &kind))
        {
          hr_entry_error (error, &sub, "kind",
                          _("must be full, sliding, chunked, mla or recurrent, not “%s”"),
                          kind_str);
          goto fail;
        }
      if (!hr_entry_read_int (&sub, g, "layers", TRUE, 1, 10000, 0, &count, error))
        goto fail;

      if (kind == HR_LAYER_RECURRENT)
        {
          double st;

          if (!hr_entry_read_number (&sub, g, "state_bytes", TRUE, 0, FALSE, 1e12, &st, error) ||
              !hr_entry_read_number (&sub, g, "conv_bytes", FALSE, 0, FALSE, st, &conv, error))
            goto fail;
          state = st;
        }
      else
        {
          if (!hr_entry_read_int (&sub, g, "kv_heads", TRUE, 1, 65536, 0, &kv_heads, error) ||
              !hr_entry_read_int (&sub, g, "k_dim", TRUE, 1, 65536, 0, &k_dim, error) ||
              !hr_entry_read_int (&sub, g, "v_dim", kind != HR_LAYER_MLA, 0, 65536, 0, &v_dim,
                                  error))
            goto fail;
          if (kind == HR_LAYER_SLIDING || kind == HR_LAYER_CHUNKED)
            {
              if (!hr_entry_read_int (&sub, g, "window", TRUE, 1, G_MAXINT32, 0, &window, error))
                goto fail;
            }
        }

      layer_sum += count;
      hr_model_add_layers (model, kind, (int) count, (int) kv_heads, (int) k_dim, (int) v_dim,
                           (int) window, state);
      if (conv > 0)
        g_array_index (model->layers, HrLayerGroup, model->layers->len - 1).conv_bytes = conv;
      g_free (sub.label);
      continue;

    fail:
      g_free (sub.label);
      return FALSE;
    }

  /* Hybrid Mamba models count their MoE blocks as layers too, so the groups may cover fewer
   * layers than arch.layers, never more. */
  if (layer_sum > model->n_layers)
    {
      hr_entry_error (error, entry, "kv_groups",
                      _("cover %lld layers, more than the model has (%d)"),
                      (long long) layer_sum, model->n_layers);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_sizes (const HrEntry *entry,
             JsonObject    *object,
             HrModel       *model,
             GError       **error)
{
  JsonNode *node = hr_catalog_member (object, "sizes");
  JsonArray *array;
  guint n;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      hr_entry_error (error, entry, "sizes", _("must be an array"));
      return FALSE;
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > MAX_SIZES)
    {
      hr_entry_error (error, entry, "sizes", _("holds more than %d entries"), MAX_SIZES);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      JsonNode *snode = json_array_get_element (array, i);
      g_autofree char *quant = NULL;
      g_autofree char *source = NULL;
      gint64 bytes;
      HrEntry sub = { entry->file, NULL };
      gboolean ok;

      sub.label = g_strdup_printf ("%s, sizes[%u]", entry->label, i);
      if (snode == NULL || !JSON_NODE_HOLDS_OBJECT (snode))
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       _("%s: %s must be an object"), sub.file, sub.label);
          g_free (sub.label);
          return FALSE;
        }

      ok = hr_entry_read_string (&sub, json_node_get_object (snode), "quant", TRUE, 32, &quant,
                                 error);
      if (ok && !hr_catalog_is_slug (quant, TRUE))
        {
          hr_entry_error (error, &sub, "quant", _("must be letters, digits and - . _ + only"));
          ok = FALSE;
        }
      if (ok && hr_model_find_size (model, quant) != NULL)
        {
          hr_entry_error (error, &sub, "quant", _("“%s” is listed twice"), quant);
          ok = FALSE;
        }
      /* Whole files in bytes: at most 10 PB, and exact as a double. */
      ok = ok && hr_entry_read_int (&sub, json_node_get_object (snode), "bytes", TRUE, 1,
                                    G_GINT64_CONSTANT (10000000000000000), 0, &bytes, error);
      ok = ok && hr_entry_read_string (&sub, json_node_get_object (snode), "source", FALSE,
                                       MAX_SOURCE_CHARS, &source, error);
      g_free (sub.label);
      if (!ok)
        return FALSE;
      hr_model_add_size (model, quant, (guint64) bytes, source);
    }
  return TRUE;
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

/* A blank parameter count in the source tables is not a fact we may invent, but it is one we
 * can count: the tensor shapes in config.json determine it.  The entry's source says so. */
static void
fill_unknown_params (HrModel *model)
{
  HrWeights w;
  gboolean counted = FALSE;

  if (!isfinite (model->total_params) && hr_weights_derive (model, "BF16", &w, NULL) && w.params > 0)
    {
      model->total_params = w.params;
      counted = TRUE;
    }
  if (!isfinite (model->active_params) && isfinite (model->total_params))
    {
      if (!hr_model_is_moe (model))
        model->active_params = model->total_params;
      else if (hr_weights_derive (model, "BF16", &w, NULL))
        {
          double expert_params = w.expert_bytes / 2.0;
          model->active_params = model->total_params -
                                 expert_params * (1.0 - (double) model->n_experts_used / model->n_experts);
        }
      counted = TRUE;
    }
  if (counted)
    {
      char *source = g_strdup_printf ("%s; parameter count derived from the config's tensor shapes",
                                      model->source ? model->source : "");
      g_free (model->source);
      model->source = source;
    }
}

static HrModel *
parse_model (const char  *file,
             JsonArray   *array,
             guint        index,
             GError     **error)
{
  g_autoptr(HrModel) model = hr_model_new ();
  HrEntry entry = { file, NULL };
  JsonObject *object;
  JsonObject *arch;
  double total_b, active_b, vision_b;
  gint64 max_context;
  gboolean ok;

  hr_entry_set_label (&entry, "model", index, NULL);
  object = hr_entry_array_object (&entry, array, index, error);
  ok = object != NULL;

  ok = ok && hr_entry_read_id (&entry, "model", index, object, FALSE, &model->id, error);
  ok = ok && hr_entry_read_string (&entry, object, "name", TRUE, MAX_NAME_CHARS, &model->name,
                                   error);
  ok = ok && hr_entry_read_string (&entry, object, "family", FALSE, MAX_SHORT_CHARS, &model->family,
                                   error);
  ok = ok && hr_entry_read_string (&entry, object, "vendor", FALSE, MAX_SHORT_CHARS, &model->vendor,
                                   error);
  ok = ok && hr_entry_read_string (&entry, object, "hf_repo", FALSE, MAX_NAME_CHARS,
                                   &model->hf_repo, error);
  ok = ok && hr_entry_read_string (&entry, object, "gguf_repo", FALSE, MAX_NAME_CHARS,
                                   &model->gguf_repo, error);
  ok = ok && hr_entry_read_string (&entry, object, "license", FALSE, MAX_NAME_CHARS,
                                   &model->license, error);
  ok = ok && hr_entry_read_string (&entry, object, "native_dtype", FALSE, 32, &model->native_dtype,
                                   error);
  ok = ok && hr_entry_read_string (&entry, object, "arch_label", FALSE, MAX_SHORT_CHARS,
                                   &model->arch_label, error);
  translate_label (&model->arch_label);
  ok = ok && hr_entry_read_string (&entry, object, "confidence", FALSE, 16, &model->confidence,
                                   error);
  ok = ok && hr_entry_check_confidence (&entry, model->confidence, error);
  ok = ok && hr_entry_read_string (&entry, object, "source", FALSE, MAX_SOURCE_CHARS,
                                   &model->source, error);

  /* Billions of parameters: the largest open model is a few trillion; 10^5 B leaves room. */
  ok = ok && hr_entry_read_number (&entry, object, "total_params_b", FALSE, 0, TRUE, 1e5, &total_b,
                                   error);
  ok = ok && hr_entry_read_number (&entry, object, "active_params_b", FALSE, 0, TRUE, 1e5,
                                   &active_b, error);
  if (ok && isfinite (total_b) && isfinite (active_b) && active_b > total_b)
    {
      hr_entry_error (error, &entry, "active_params_b", _("exceeds total_params_b"));
      ok = FALSE;
    }
  ok = ok && hr_entry_read_number (&entry, object, "vision_params_b", FALSE, 0, TRUE, 1e3,
                                   &vision_b, error);
  ok = ok && hr_entry_read_int (&entry, object, "max_context", FALSE, 1,
                                G_GINT64_CONSTANT (1) << 32, 0, &max_context, error);

  ok = ok && hr_entry_read_object (&entry, object, "arch", &arch, error);
  ok = ok && parse_arch (&entry, arch, model, error);
  ok = ok && parse_kv_groups (&entry, object, model, error);
  ok = ok && parse_sizes (&entry, object, model, error);

  g_free (entry.label);
  if (!ok)
    return NULL;

  model->origin = HR_MODEL_ORIGIN_CATALOG;
  model->total_params = isfinite (total_b) ? total_b * 1e9 : NAN;
  model->active_params = isfinite (active_b) ? active_b * 1e9 : NAN;
  model->vision_params = isfinite (vision_b) ? vision_b * 1e9 : 0;
  model->max_context = max_context;
  fill_unknown_params (model);
  return g_steal_pointer (&model);
}

/* ------------------------------------------------------------------------------------------ */
/* gpus.json                                                                                   */

static HrGpu *
parse_gpu (const char  *file,
           JsonArray   *array,
           guint        index,
           GError     **error)
{
  g_autoptr(HrGpu) gpu = hr_gpu_new ();
  g_autofree char *form = NULL;
  g_autofree char *backend = NULL;
  HrEntry entry = { file, NULL };
  JsonObject *object;
  double share;
  gint64 cores;
  gboolean ok;

  hr_entry_set_label (&entry, "GPU", index, NULL);
  object = hr_entry_array_object (&entry, array, index, error);
  ok = object != NULL;

  ok = ok && hr_entry_read_id (&entry, "GPU", index, object, FALSE, &gpu->id, error);
  ok = ok && hr_entry_read_string (&entry, object, "name", TRUE, MAX_NAME_CHARS, &gpu->name, error);
  ok = ok && hr_entry_read_string (&entry, object, "vendor", FALSE, MAX_SHORT_CHARS, &gpu->vendor,
                                   error);

  ok = ok && hr_entry_read_string (&entry, object, "form", TRUE, 32, &form, error);
  if (ok && !hr_gpu_form_from_string (form, &gpu->form))
    {
      hr_entry_error (error, &entry, "form",
                      _("must be consumer, workstation, datacenter or unified, not “%s”"), form);
      ok = FALSE;
    }
  ok = ok && hr_entry_read_string (&entry, object, "backend", TRUE, 32, &backend, error);
  if (ok && !hr_backend_from_string (backend, &gpu->backend))
    {
      hr_entry_error (error, &entry, "backend", _("“%s” is not a known backend"), backend);
      ok = FALSE;
    }

  /* Marketed GB, treated as GiB; 64 TiB is beyond any single device or machine. */
  ok = ok && hr_entry_read_number (&entry, object, "memory_gb", TRUE, 0, TRUE, 65536,
                                   &gpu->memory_gib, error);
  ok = ok && hr_entry_read_number (&entry, object, "bandwidth_gbs", FALSE, 0, TRUE, 1e6,
                                   &gpu->bandwidth_gbs, error);
  ok = ok && hr_entry_read_number (&entry, object, "fp16_tflops", FALSE, 0, TRUE, 1e6,
                                   &gpu->fp16_tflops, error);
  ok = ok && hr_entry_read_number (&entry, object, "fp8_tflops", FALSE, 0, TRUE, 1e6,
                                   &gpu->fp8_tflops, error);
  ok = ok && hr_entry_read_number (&entry, object, "tdp_w", FALSE, 0, TRUE, 1e5, &gpu->tdp_w,
                                   error);
  ok = ok && hr_entry_read_number (&entry, object, "price_usd", FALSE, 0, TRUE, 1e9,
                                   &gpu->price_usd, error);
  ok = ok && hr_entry_read_string (&entry, object, "price_note", FALSE, MAX_SOURCE_CHARS,
                                   &gpu->price_note, error);
  ok = ok && hr_entry_read_bool (&entry, object, "used_market", FALSE, &gpu->used_market, error);
  ok = ok && hr_entry_read_string (&entry, object, "memory_type", FALSE, MAX_SHORT_CHARS,
                                   &gpu->memory_type, error);
  ok = ok && hr_entry_read_string (&entry, object, "interconnect", FALSE, MAX_NAME_CHARS,
                                   &gpu->interconnect, error);
  ok = ok && hr_entry_read_string (&entry, object, "stack", FALSE, MAX_NAME_CHARS, &gpu->stack,
                                   error);
  ok = ok && hr_entry_read_number (&entry, object, "unified_share", FALSE, 0, TRUE, 1, &share,
                                   error);
  if (ok && isfinite (share) && gpu->form != HR_FORM_UNIFIED)
    {
      hr_entry_error (error, &entry, "unified_share", _("is only for unified-memory machines"));
      ok = FALSE;
    }
  ok = ok && hr_entry_read_int (&entry, object, "gpu_cores", FALSE, 0, 100000, 0, &cores, error);
  ok = ok && hr_entry_read_string (&entry, object, "confidence", FALSE, 16, &gpu->confidence,
                                   error);
  ok = ok && hr_entry_check_confidence (&entry, gpu->confidence, error);
  ok = ok && hr_entry_read_string (&entry, object, "source", FALSE, MAX_SOURCE_CHARS, &gpu->source,
                                   error);

  g_free (entry.label);
  if (!ok)
    return NULL;

  /* 0 on a unified machine means the share is not known (DGX Spark). */
  gpu->unified_share = isfinite (share) ? share : 0;
  gpu->gpu_cores = (int) cores;
  return g_steal_pointer (&gpu);
}

/* ------------------------------------------------------------------------------------------ */
/* quants.json                                                                                 */

static const FileType *
find_file_type (GArray     *types,
                const char *name)
{
  for (guint i = 0; i < types->len; i++)
    {
      const FileType *type = &g_array_index (types, FileType, i);
      if (strcmp (type->name, name) == 0)
        return type;
    }
  return NULL;
}

static gboolean
parse_ggml_types (const char  *file,
                  JsonObject  *root,
                  GArray      *types,
                  GError     **error)
{
  JsonNode *node = hr_catalog_member (root, "ggml_types");
  JsonArray *array;
  guint n;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: “ggml_types” must be an array"), file);
      return FALSE;
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > 1024)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   _("%s: more than 1024 ggml types"), file);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      FileType type = { NULL, 0, 0, 0 };
      HrEntry entry = { file, NULL };
      JsonObject *object;
      gboolean ok;

      hr_entry_set_label (&entry, "ggml type", i, NULL);
      object = hr_entry_array_object (&entry, array, i, error);
      ok = object != NULL;
      ok = ok && hr_entry_read_string (&entry, object, "name", TRUE, 16, &type.name, error);
      if (ok && !hr_catalog_is_slug (type.name, TRUE))
        {
          hr_entry_error (error, &entry, "name", _("must be letters, digits and - . _ + only"));
          ok = FALSE;
        }
      if (ok)
        hr_entry_set_label (&entry, "ggml type", i, type.name);
      if (ok && find_file_type (types, type.name) != NULL)
        {
          hr_entry_error (error, &entry, "name", _("is listed twice"));
          ok = FALSE;
        }
      ok = ok && hr_entry_read_count (&entry, object, "id", TRUE, 0, 1023, &type.id, error);
      ok = ok && hr_entry_read_count (&entry, object, "block_size", TRUE, 1, 4096, &type.block_size,
                                      error);
      ok = ok && hr_entry_read_count (&entry, object, "bytes_per_block", TRUE, 1, 65536,
                                      &type.bytes_per_block, error);
      g_free (entry.label);
      if (!ok)
        {
          g_free (type.name);
          return FALSE;
        }
      g_array_append_val (types, type);
    }
  return TRUE;
}

static HrQuantMix *
parse_mix (const char  *file,
           JsonArray   *array,
           guint        index,
           GArray      *types,
           GError     **error)
{
  g_autoptr(HrQuantMix) mix = g_new0 (HrQuantMix, 1);
  HrEntry entry = { file, NULL };
  JsonObject *object;
  double bpw;
  gboolean ok;

  hr_entry_set_label (&entry, "quant", index, NULL);
  object = hr_entry_array_object (&entry, array, index, error);
  ok = object != NULL;

  ok = ok && hr_entry_read_id (&entry, "quant", index, object, TRUE, &mix->id, error);
  ok = ok && hr_entry_read_string (&entry, object, "label", TRUE, MAX_SHORT_CHARS, &mix->label,
                                   error);
  translate_label (&mix->label);
  ok = ok && hr_entry_read_string (&entry, object, "default_type", FALSE, 16, &mix->default_type,
                                   error);
  ok = ok && hr_entry_read_number (&entry, object, "nominal_bpw", FALSE, 0, TRUE, 64, &bpw, error);
  ok = ok && hr_entry_read_bool (&entry, object, "gguf", FALSE, &mix->gguf, error);
  ok = ok && hr_entry_read_bool (&entry, object, "in_matrix", FALSE, &mix->in_matrix, error);
  ok = ok && hr_entry_read_string (&entry, object, "source", FALSE, MAX_SOURCE_CHARS, &mix->source,
                                   error);

  if (ok && mix->default_type != NULL)
    {
      const FileType *ftype = find_file_type (types, mix->default_type);
      const HrGgmlType *gtype = ftype == NULL ? hr_ggml_type_lookup (mix->default_type) : NULL;

      if (ftype == NULL && gtype == NULL)
        {
          hr_entry_error (error, &entry, "default_type", _("“%s” is not a known ggml type"),
                          mix->default_type);
          ok = FALSE;
        }
      else if (!isfinite (bpw))
        bpw = ftype != NULL ? 8.0 * ftype->bytes_per_block / ftype->block_size
                            : 8.0 * gtype->bytes_per_block / gtype->block_size;
    }
  if (ok && !isfinite (bpw))
    {
      hr_entry_error (error, &entry, "nominal_bpw", _("is needed when there is no default_type"));
      ok = FALSE;
    }

  g_free (entry.label);
  if (!ok)
    return NULL;
  mix->nominal_bpw = bpw;
  return g_steal_pointer (&mix);
}

/* ------------------------------------------------------------------------------------------ */
/* Loading a whole file                                                                        */

/* Checks a freshly parsed list for ids given twice. */
static gboolean
check_duplicates (const char  *file,
                  const char  *what,
                  GPtrArray   *items,
                  const char *(*get_id) (gconstpointer),
                  GError     **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < items->len; i++)
    {
      const char *id = get_id (g_ptr_array_index (items, i));

      if (!g_hash_table_add (seen, (gpointer) id))
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       _("%s: %s “%s” is listed twice (duplicate id)"), file, what, id);
          return FALSE;
        }
    }
  return TRUE;
}



static const char *
mix_id (gconstpointer item)
{
  return ((const HrQuantMix *) item)->id;
}

/* How to read one kind of entry: models.json and gpus.json share everything else. */
typedef struct
{
  const char *file;
  const char *member;      /* the array in the document */
  const char *what;        /* for messages */
  gpointer (*parse) (const char *file, JsonArray *array, guint index, GError **error);
  GDestroyNotify free;
  const char *(*get_id) (gconstpointer item);
  void (*add) (HrCatalog *catalog, gpointer item);
} EntryKind;

static gpointer
parse_model_entry (const char *file, JsonArray *array, guint index, GError **error)
{
  return parse_model (file, array, index, error);
}

static gpointer
parse_gpu_entry (const char *file, JsonArray *array, guint index, GError **error)
{
  return parse_gpu (file, array, index, error);
}

static void
add_model_entry (HrCatalog *catalog, gpointer item)
{
  hr_catalog_add_model (catalog, item);
}

static void
add_gpu_entry (HrCatalog *catalog, gpointer item)
{
  hr_catalog_add_gpu (catalog, item);
}

/* Parses every entry first and adds them only when all are valid: on error nothing is added. */
static gboolean
load_entries (HrCatalog         *catalog,
              const EntryKind   *kind,
              const char        *json,
              gssize             length,
              GError           **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  JsonObject *root = NULL;
  JsonArray *array;

  array = hr_catalog_parse_document (kind->file, json, length, kind->member, TRUE, &parser,
                                     &root, error);
  if (array == NULL)
    return FALSE;

  parsed = g_ptr_array_new_with_free_func (kind->free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      gpointer item = kind->parse (kind->file, array, i, error);

      if (item == NULL)
        return FALSE;
      g_ptr_array_add (parsed, item);
    }
  if (!check_duplicates (kind->file, kind->what, parsed, kind->get_id, error))
    return FALSE;

  for (guint i = 0; i < parsed->len; i++)
    {
      gpointer item = g_ptr_array_index (parsed, i);

      parsed->pdata[i] = NULL;
      kind->add (catalog, item);
    }
  return TRUE;
}

gboolean
hr_catalog_load_models (HrCatalog   *catalog,
                        const char  *json,
                        gssize       length,
                        GError     **error)
{
  static const EntryKind kind = { "models.json", "models", "model", parse_model_entry,
                                  (GDestroyNotify) hr_model_free, hr_catalog_model_id,
                                  add_model_entry };

  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return load_entries (catalog, &kind, json, length, error);
}

gboolean
hr_catalog_load_gpus (HrCatalog   *catalog,
                      const char  *json,
                      gssize       length,
                      GError     **error)
{
  static const EntryKind kind = { "gpus.json", "gpus", "GPU", parse_gpu_entry,
                                  (GDestroyNotify) hr_gpu_free, hr_catalog_gpu_id, add_gpu_entry };

  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return load_entries (catalog, &kind, json, length, error);
}

gboolean
hr_catalog_load_quants (HrCatalog   *catalog,
                        const char  *json,
                        gssize       length,
                        GError     **error)
{
  const char *file = "quants.json";
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(GArray) types = NULL;
  JsonObject *root = NULL;
  JsonArray *array;

  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  array = hr_catalog_parse_document (file, json, length, "mixes", TRUE, &parser, &root, error);
  if (array == NULL)
    return FALSE;

  types = g_array_new (FALSE, TRUE, sizeof (FileType));
  g_array_set_clear_func (types, file_type_clear);
  if (!parse_ggml_types (file, root, types, error))
    return FALSE;

  parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_quant_mix_free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      HrQuantMix *mix = parse_mix (file, array, i, types, error);

      if (mix == NULL)
        return FALSE;
      g_ptr_array_add (parsed, mix);
    }
  if (!check_duplicates (file, "quant", parsed, mix_id, error))
    return FALSE;

  for (guint i = 0; i < parsed->len; i++)
    {
      HrQuantMix *mix = g_ptr_array_index (parsed, i);

      parsed->pdata[i] = NULL;
      hr_catalog_add_quant (catalog, mix);
    }
  return TRUE;
}
