/* hr-catalog-parse.c — models.json, gpus.json and quants.json entries into structs
 *
 * One function per kind of entry reads every field through the checked readers of
 * hr-catalog-read.c.  A file is parsed completely into a scratch list first, so a bad entry
 * anywhere leaves the catalog as it was (load_entries, hr_catalog_load_quants).
 */
#include "hr-catalog-private.h"

#include "hr-hash.h"
#include "hr-estimate.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_GROUPS       64
#define MAX_SIZES        256
#define MAX_NAME_CHARS   200
#define MAX_SHORT_CHARS  100
#define MAX_SOURCE_CHARS 16384

/* Where a field goes, for the field tables below. */
#define MODEL(member) G_STRUCT_OFFSET (HrModel, member)
#define GROUP(member) G_STRUCT_OFFSET (HrLayerGroup, member)
#define SIZE(member)  G_STRUCT_OFFSET (HrQuantSize, member)
#define GPU(member)   G_STRUCT_OFFSET (HrGpu, member)
#define MIX(member)   G_STRUCT_OFFSET (HrQuantMix, member)
#define TYPE(member)  G_STRUCT_OFFSET (FileType, member)

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
            HrModel       *model,
            GError       **error)
{
  static const HrField layers[] = {
    { "layers", HR_FIELD_COUNT, MODEL (n_layers), TRUE, 1, 10000 },
  };
  g_autofree char *label = g_strdup_printf ("%s, arch", model_entry->label);
  HrEntry arch = { model_entry->file, label, NULL };
  const HrEntry *entry = &arch;
  JsonNode *node;

  if (!hr_entry_read_node (model_entry, "arch", TRUE, JSON_NODE_OBJECT, &node, error))
    return FALSE;
  arch.object = json_node_get_object (node);
  if (!hr_entry_read_fields (entry, layers, G_N_ELEMENTS (layers), model, error))
    return FALSE;

  {
    /* Dense and FFN-only blocks are some of the model's layers. */
    const double n_layers = model->n_layers;
    const HrField fields[] = {
      { "hidden", HR_FIELD_COUNT, MODEL (hidden), FALSE, 1, 1 << 20 },
      { "heads", HR_FIELD_COUNT, MODEL (n_heads), FALSE, 1, 65536 },
      { "head_dim", HR_FIELD_COUNT, MODEL (head_dim), FALSE, 1, 65536 },
      { "vocab", HR_FIELD_COUNT, MODEL (vocab), FALSE, 1, 1 << 24 },
      { "intermediate", HR_FIELD_COUNT, MODEL (intermediate), FALSE, 0, 1 << 24 },
      { "experts", HR_FIELD_COUNT, MODEL (n_experts), FALSE, 0, 65536 },
      { "experts_used", HR_FIELD_COUNT, MODEL (n_experts_used), FALSE, 0, 65536 },
      { "shared_experts", HR_FIELD_COUNT, MODEL (n_shared_experts), FALSE, 0, 1024 },
      { "moe_intermediate", HR_FIELD_COUNT, MODEL (moe_intermediate), FALSE, 0, 1 << 24 },
      { "shared_intermediate", HR_FIELD_COUNT, MODEL (shared_intermediate), FALSE, 0, 1 << 24 },
      { "dense_layers", HR_FIELD_COUNT, MODEL (n_dense_layers), FALSE, 0, n_layers },
      { "q_lora_rank", HR_FIELD_COUNT, MODEL (q_lora_rank), FALSE, 0, 65536 },
      { "kv_lora_rank", HR_FIELD_COUNT, MODEL (kv_lora_rank), FALSE, 0, 65536 },
      { "qk_rope_dim", HR_FIELD_COUNT, MODEL (qk_rope_dim), FALSE, 0, 65536 },
      { "qk_nope_dim", HR_FIELD_COUNT, MODEL (qk_nope_dim), FALSE, 0, 65536 },
      { "v_head_dim", HR_FIELD_COUNT, MODEL (v_head_dim), FALSE, 0, 65536 },
      { "mtp_layers", HR_FIELD_COUNT, MODEL (mtp_layers), FALSE, 0, 64 },
      { "ffn_layers", HR_FIELD_COUNT, MODEL (n_ffn_layers), FALSE, 0, n_layers },
      { "tie_embeddings", HR_FIELD_BOOL, MODEL (tie_embeddings) },
      { "ffn_ungated", HR_FIELD_BOOL, MODEL (ffn_ungated) },
      { "extra_block_kernels", HR_FIELD_COUNT, MODEL (extra_block_kernels), FALSE, 0, 256 },
    };

    if (!hr_entry_read_fields (entry, fields, G_N_ELEMENTS (fields), model, error))
      return FALSE;
  }

  if (model->n_experts_used > MAX (model->n_experts, 0) && model->n_experts > 0)
    {
      hr_entry_error (error, entry, "experts_used", _("exceeds experts (%d)"),
                      model->n_experts);
      return FALSE;
    }
  return TRUE;
}

/* One of kv_groups: its kind, layer count and cache shape. */
static gboolean
parse_kv_group (const HrEntry *entry,
                HrLayerGroup  *group,
                GError       **error)
{
  static const HrField layers[] = {
    { "layers", HR_FIELD_COUNT, GROUP (count), TRUE, 1, 10000 },
  };
  static const HrField window[] = {
    { "window", HR_FIELD_COUNT, GROUP (window), TRUE, 1, G_MAXINT32 },
  };
  g_autofree char *kind = NULL;

  if (!hr_entry_read_string (entry, "kind", TRUE, 16, &kind, error))
    return FALSE;
  if (!hr_layer_kind_from_string (kind, &group->kind))
    {
      hr_entry_error (error, entry, "kind",
                      _("must be full, sliding, chunked, mla or recurrent, not “%s”"), kind);
      return FALSE;
    }
  if (!hr_entry_read_fields (entry, layers, G_N_ELEMENTS (layers), group, error))
    return FALSE;

  if (group->kind == HR_LAYER_RECURRENT)
    {
      static const HrField state[] = {
        { "state_bytes", HR_FIELD_BYTES, GROUP (state_bytes), TRUE, 0, 1e12 },
      };

      if (!hr_entry_read_fields (entry, state, G_N_ELEMENTS (state), group, error))
        return FALSE;
      {
        /* Part of the state; absent (NAN) is the model's 0, not known. */
        const HrField conv[] = {
          { "conv_bytes", HR_FIELD_BYTES, GROUP (conv_bytes), FALSE, 0, group->state_bytes },
        };

        if (!hr_entry_read_fields (entry, conv, G_N_ELEMENTS (conv), group, error))
          return FALSE;
        if (!isfinite (group->conv_bytes))
          group->conv_bytes = 0;
        return TRUE;
      }
    }
  {
    const HrField shape[] = {
      { "kv_heads", HR_FIELD_COUNT, GROUP (kv_heads), TRUE, 1, 65536 },
      { "k_dim", HR_FIELD_COUNT, GROUP (k_dim), TRUE, 1, 65536 },
      { "v_dim", HR_FIELD_COUNT, GROUP (v_dim), group->kind != HR_LAYER_MLA, 0, 65536 },
    };

    if (!hr_entry_read_fields (entry, shape, G_N_ELEMENTS (shape), group, error))
      return FALSE;
  }
  if (group->kind == HR_LAYER_SLIDING || group->kind == HR_LAYER_CHUNKED)
    return hr_entry_read_fields (entry, window, G_N_ELEMENTS (window), group, error);
  return TRUE;
}

static gboolean
parse_kv_groups (const HrEntry *entry,
                 HrModel       *model,
                 GError       **error)
{
  JsonNode *node;
  JsonArray *array;
  guint n;
  gint64 layer_sum = 0;

  if (!hr_entry_read_node (entry, "kv_groups", TRUE, JSON_NODE_ARRAY, &node, error))
    return FALSE;
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n == 0 || n > MAX_GROUPS)
    {
      hr_entry_error (error, entry, "kv_groups", _("must hold 1 to %d groups"), MAX_GROUPS);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = g_strdup_printf ("%s, kv_groups[%u]", entry->label, i);
      HrEntry sub = { entry->file, label, NULL };
      HrLayerGroup group = { 0 };

      if (!hr_entry_at (&sub, array, i, error) || !parse_kv_group (&sub, &group, error))
        return FALSE;
      layer_sum += group.count;
      hr_model_add_layers (model, &group);
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

static const HrField size_fields[] = {
  /* Whole files in bytes: at most 10 PB, and exact as a double. */
  { "bytes", HR_FIELD_INT64, SIZE (bytes), TRUE, 1, 1e16 },
  { "source", HR_FIELD_STRING, SIZE (source), FALSE, 0, MAX_SOURCE_CHARS },
};

static gboolean
parse_sizes (const HrEntry *entry,
             HrModel       *model,
             GError       **error)
{
  JsonNode *node;
  JsonArray *array;
  guint n;

  if (!hr_entry_read_node (entry, "sizes", FALSE, JSON_NODE_ARRAY, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > MAX_SIZES)
    {
      hr_entry_error (error, entry, "sizes", _("holds more than %d entries"), MAX_SIZES);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = g_strdup_printf ("%s, sizes[%u]", entry->label, i);
      HrEntry sub = { entry->file, label, NULL };
      g_autofree char *quant = NULL;
      HrQuantSize found = { NULL };
      gboolean ok;

      if (!hr_entry_at (&sub, array, i, error))
        return FALSE;
      ok = hr_entry_read_string (&sub, "quant", TRUE, 32, &quant, error);
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
      ok = ok && hr_entry_read_fields (&sub, size_fields, G_N_ELEMENTS (size_fields), &found,
                                       error);
      if (ok)
        hr_model_add_size (model, quant, found.bytes, found.source);
      g_free (found.source);
      if (!ok)
        return FALSE;
    }
  return TRUE;
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

/* "mmproj": the llama.cpp vision projector of the model's GGUF repos (#31): the file, and its
 * encoder's shape for the image-encode buffer (hr-projector.h) */
typedef struct
{
  gint64 bytes;
  char *dtype;
  char *source;
  HrVisionEncoder encoder;
} Mmproj;

#define MMPROJ(member) G_STRUCT_OFFSET (Mmproj, member)

static const HrField mmproj_fields[] = {
  /* a projector is a few GB at most; 1 TB leaves room */
  { "bytes", HR_FIELD_INT64, MMPROJ (bytes), TRUE, 1, 1e12 },
  { "dtype", HR_FIELD_STRING, MMPROJ (dtype), TRUE, 0, 32 },
  { "source", HR_FIELD_STRING, MMPROJ (source), FALSE, 0, MAX_SOURCE_CHARS },
  { "patches", HR_FIELD_COUNT, MMPROJ (encoder.patches), FALSE, 1, 1 << 20 },
  { "hidden", HR_FIELD_COUNT, MMPROJ (encoder.hidden), FALSE, 1, 1 << 16 },
  { "ff", HR_FIELD_COUNT, MMPROJ (encoder.ff), FALSE, 1, 1 << 18 },
  { "heads", HR_FIELD_COUNT, MMPROJ (encoder.heads), FALSE, 1, 4096 },
  { "gated", HR_FIELD_BOOL, MMPROJ (encoder.gated) },
  { "windowed", HR_FIELD_BOOL, MMPROJ (encoder.windowed) },
};

static gboolean
parse_mmproj (const HrEntry *entry,
              HrModel       *model,
              GError       **error)
{
  g_autofree char *label = NULL;
  JsonNode *node;
  Mmproj found = { 0 };
  HrEntry sub = { entry->file, NULL, NULL };
  gboolean ok;

  if (!hr_entry_read_node (entry, "mmproj", FALSE, JSON_NODE_OBJECT, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  label = g_strdup_printf ("%s, mmproj", entry->label);
  sub.label = label;
  sub.object = json_node_get_object (node);
  ok = hr_entry_read_fields (&sub, mmproj_fields, G_N_ELEMENTS (mmproj_fields), &found, error);
  if (ok && !hr_catalog_is_slug (found.dtype, TRUE))
    {
      hr_entry_error (error, &sub, "dtype", _("must be letters, digits and - . _ + only"));
      ok = FALSE;
    }
  if (ok)
    {
      model->mmproj_bytes = (double) found.bytes;
      model->mmproj_dtype = g_steal_pointer (&found.dtype);
      model->mmproj_source = g_steal_pointer (&found.source);
      model->mmproj_encoder = found.encoder;
    }
  g_free (found.dtype);
  g_free (found.source);
  return ok;
}

static const HrField model_fields[] = {
  { "name", HR_FIELD_STRING, MODEL (name), TRUE, 0, MAX_NAME_CHARS },
  { "family", HR_FIELD_STRING, MODEL (family), FALSE, 0, MAX_SHORT_CHARS },
  { "vendor", HR_FIELD_STRING, MODEL (vendor), FALSE, 0, MAX_SHORT_CHARS },
  { "hf_repo", HR_FIELD_STRING, MODEL (hf_repo), FALSE, 0, MAX_NAME_CHARS },
  { "gguf_repo", HR_FIELD_STRING, MODEL (gguf_repo), FALSE, 0, MAX_NAME_CHARS },
  { "license", HR_FIELD_STRING, MODEL (license), FALSE, 0, MAX_NAME_CHARS },
  { "native_dtype", HR_FIELD_STRING, MODEL (native_dtype), FALSE, 0, 32 },
  { "arch_label", HR_FIELD_LABEL, MODEL (arch_label), FALSE, 0, MAX_SHORT_CHARS },
  { "confidence", HR_FIELD_CONFIDENCE, MODEL (confidence) },
  { "source", HR_FIELD_STRING, MODEL (source), FALSE, 0, MAX_SOURCE_CHARS },
};

/* Billions of parameters: the largest open model is a few trillion; 10^5 B leaves room. */
static const HrField model_params[] = {
  { "total_params_b", HR_FIELD_NUMBER, MODEL (total_params), FALSE, 0, 1e5 },
  { "active_params_b", HR_FIELD_NUMBER, MODEL (active_params), FALSE, 0, 1e5 },
};

static const HrField model_extent[] = {
  { "vision_params_b", HR_FIELD_NUMBER, MODEL (vision_params), FALSE, 0, 1e3 },
  { "max_context", HR_FIELD_INT64, MODEL (max_context), FALSE, 1, 4294967296.0 },
};

static gpointer
parse_model (GArray          *types,
             const HrEntry   *entry,
             char            *id,
             GError         **error)
{
  g_autoptr(HrModel) model = hr_model_new ();
  gboolean ok;

  model->id = id;
  ok = hr_entry_read_fields (entry, model_fields, G_N_ELEMENTS (model_fields), model, error);

  ok = ok && hr_entry_read_fields (entry, model_params, G_N_ELEMENTS (model_params), model, error);
  if (ok && isfinite (model->total_params) && isfinite (model->active_params) &&
      model->active_params > model->total_params)
    {
      hr_entry_error (error, entry, "active_params_b", _("exceeds total_params_b"));
      ok = FALSE;
    }
  ok = ok && hr_entry_read_fields (entry, model_extent, G_N_ELEMENTS (model_extent), model, error);

  ok = ok && parse_arch (entry, model, error);
  ok = ok && parse_kv_groups (entry, model, error);
  ok = ok && parse_sizes (entry, model, error);
  ok = ok && parse_mmproj (entry, model, error);

  if (!ok)
    return NULL;

  model->origin = HR_MODEL_ORIGIN_CATALOG;
  /* Billions in the file; unknown (NAN) stays unknown, no vision tower is 0. */
  model->total_params *= 1e9;
  model->active_params *= 1e9;
  model->vision_params = isfinite (model->vision_params) ? model->vision_params * 1e9 : 0;
  fill_unknown_params (model);
  return g_steal_pointer (&model);
}

/* ------------------------------------------------------------------------------------------ */
/* gpus.json                                                                                   */

static const HrField gpu_names[] = {
  { "name", HR_FIELD_STRING, GPU (name), TRUE, 0, MAX_NAME_CHARS },
  { "vendor", HR_FIELD_STRING, GPU (vendor), FALSE, 0, MAX_SHORT_CHARS },
};

/* Marketed GB, treated as GiB; 64 TiB is beyond any single device or machine. */
static const HrField gpu_specs[] = {
  { "memory_gb", HR_FIELD_NUMBER, GPU (memory_gib), TRUE, 0, 65536 },
  { "bandwidth_gbs", HR_FIELD_NUMBER, GPU (bandwidth_gbs), FALSE, 0, 1e6 },
  { "fp16_tflops", HR_FIELD_NUMBER, GPU (fp16_tflops), FALSE, 0, 1e6 },
  { "fp8_tflops", HR_FIELD_NUMBER, GPU (fp8_tflops), FALSE, 0, 1e6 },
  { "tdp_w", HR_FIELD_NUMBER, GPU (tdp_w), FALSE, 0, 1e5 },
  { "price_usd", HR_FIELD_NUMBER, GPU (price_usd), FALSE, 0, 1e9 },
  { "price_note", HR_FIELD_STRING, GPU (price_note), FALSE, 0, MAX_SOURCE_CHARS },
  { "used_market", HR_FIELD_BOOL, GPU (used_market) },
  { "memory_type", HR_FIELD_STRING, GPU (memory_type), FALSE, 0, MAX_SHORT_CHARS },
  { "interconnect", HR_FIELD_STRING, GPU (interconnect), FALSE, 0, MAX_NAME_CHARS },
  { "stack", HR_FIELD_STRING, GPU (stack), FALSE, 0, MAX_NAME_CHARS },
  { "unified_share", HR_FIELD_NUMBER, GPU (unified_share), FALSE, 0, 1 },
  { "bandwidth_measured_gbs", HR_FIELD_NUMBER, GPU (bandwidth_measured_gbs), FALSE, 0, 1e6 },
  { "bandwidth_measured_source", HR_FIELD_STRING, GPU (bandwidth_measured_source), FALSE, 0,
    MAX_SOURCE_CHARS },
};

/* "bandwidth_measured_gbs": what a public memory benchmark reached on a unified machine's GPU
 * (hr-estimate.c, lpddr_factor(), takes it as that machine's streaming ceiling), never above
 * the peak it measures against, and always with the page it comes from. */
static gboolean
check_measured_bandwidth (const HrEntry  *entry,
                          const HrGpu    *gpu,
                          GError        **error)
{
  if (!isfinite (gpu->bandwidth_measured_gbs))
    return TRUE;
  if (gpu->form != HR_FORM_UNIFIED)
    {
      hr_entry_error (error, entry, "bandwidth_measured_gbs", _("is only for unified-memory machines"));
      return FALSE;
    }
  if (!(gpu->bandwidth_measured_gbs <= gpu->bandwidth_gbs))
    {
      hr_entry_error (error, entry, "bandwidth_measured_gbs", _("is %g, out of range (%s%g … %g)"),
                      gpu->bandwidth_measured_gbs, "> ", 0.0,
                      isfinite (gpu->bandwidth_gbs) ? gpu->bandwidth_gbs : 0.0);
      return FALSE;
    }
  if (gpu->bandwidth_measured_source == NULL)
    {
      hr_entry_error (error, entry, "bandwidth_measured_source", _("is missing"));
      return FALSE;
    }
  return TRUE;
}

static const HrField gpu_sources[] = {
  { "gpu_cores", HR_FIELD_COUNT, GPU (gpu_cores), FALSE, 0, 100000 },
  { "confidence", HR_FIELD_CONFIDENCE, GPU (confidence) },
  { "source", HR_FIELD_STRING, GPU (source), FALSE, 0, MAX_SOURCE_CHARS },
};

/* "generation": one of hr_gpu_generation_ids (); absent or null when not known.  A name this
 * version does not know (a newer generation, written by a newer Headroom or by hand into the
 * user's gpus.json) reads as not known: the generation only refines an estimate, so the GPU
 * stays usable, where an unknown backend sets it aside. */
static gboolean
parse_generation (const HrEntry  *entry,
                  HrGpu          *gpu,
                  GError        **error)
{
  g_autofree char *generation = NULL;

  if (!hr_entry_read_string (entry, "generation", FALSE, 32, &generation, error))
    return FALSE;
  if (generation == NULL || !hr_gpu_generation_from_string (generation, &gpu->generation))
    gpu->generation = HR_GEN_UNKNOWN;
  return TRUE;
}

static gpointer
parse_gpu (GArray          *types,
           const HrEntry   *entry,
           char            *id,
           GError         **error)
{
  g_autoptr(HrGpu) gpu = hr_gpu_new ();
  g_autofree char *form = NULL;
  g_autofree char *backend = NULL;
  gboolean ok;

  gpu->id = id;
  ok = hr_entry_read_fields (entry, gpu_names, G_N_ELEMENTS (gpu_names), gpu, error);

  ok = ok && hr_entry_read_string (entry, "form", TRUE, 32, &form, error);
  if (ok && !hr_gpu_form_from_string (form, &gpu->form))
    {
      hr_entry_error (error, entry, "form",
                      _("must be consumer, workstation, datacenter or unified, not “%s”"), form);
      ok = FALSE;
    }
  ok = ok && hr_entry_read_string (entry, "backend", TRUE, 32, &backend, error);
  if (ok && !hr_backend_from_string (backend, &gpu->backend))
    {
      hr_entry_error (error, entry, "backend", _("“%s” is not a known backend"), backend);
      ok = FALSE;
    }

  ok = ok && hr_entry_read_fields (entry, gpu_specs, G_N_ELEMENTS (gpu_specs), gpu, error);
  if (ok && isfinite (gpu->unified_share) && gpu->form != HR_FORM_UNIFIED)
    {
      hr_entry_error (error, entry, "unified_share", _("is only for unified-memory machines"));
      ok = FALSE;
    }
  ok = ok && check_measured_bandwidth (entry, gpu, error);
  ok = ok && hr_entry_read_fields (entry, gpu_sources, G_N_ELEMENTS (gpu_sources), gpu, error);
  ok = ok && parse_generation (entry, gpu, error);

  if (!ok)
    return NULL;

  /* 0 on a unified machine means the share is not known (DGX Spark). */
  if (!isfinite (gpu->unified_share))
    gpu->unified_share = 0;
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

static const HrField type_fields[] = {
  { "id", HR_FIELD_COUNT, TYPE (id), TRUE, 0, 1023 },
  { "block_size", HR_FIELD_COUNT, TYPE (block_size), TRUE, 1, 4096 },
  { "bytes_per_block", HR_FIELD_COUNT, TYPE (bytes_per_block), TRUE, 1, 65536 },
};

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
      HrEntry entry = { file, NULL, NULL };
      gboolean ok;

      hr_entry_set_label (&entry, "ggml type", i, NULL);
      ok = hr_entry_at (&entry, array, i, error);
      ok = ok && hr_entry_read_string (&entry, "name", TRUE, 16, &type.name, error);
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
      ok = ok && hr_entry_read_fields (&entry, type_fields, G_N_ELEMENTS (type_fields),
                                       &type, error);
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

static const HrField mix_fields[] = {
  { "label", HR_FIELD_LABEL, MIX (label), TRUE, 0, MAX_SHORT_CHARS },
  { "default_type", HR_FIELD_STRING, MIX (default_type), FALSE, 0, 16 },
  { "nominal_bpw", HR_FIELD_NUMBER, MIX (nominal_bpw), FALSE, 0, 64 },
  { "gguf", HR_FIELD_BOOL, MIX (gguf) },
  { "in_matrix", HR_FIELD_BOOL, MIX (in_matrix) },
  { "source", HR_FIELD_STRING, MIX (source), FALSE, 0, MAX_SOURCE_CHARS },
};

static gpointer
parse_mix (GArray          *types,
           const HrEntry   *entry,
           char            *id,
           GError         **error)
{
  g_autoptr(HrQuantMix) mix = g_new0 (HrQuantMix, 1);
  gboolean ok;

  mix->id = id;
  ok = hr_entry_read_fields (entry, mix_fields, G_N_ELEMENTS (mix_fields), mix, error);

  if (ok && mix->default_type != NULL)
    {
      const FileType *ftype = find_file_type (types, mix->default_type);
      const HrGgmlType *gtype = ftype == NULL ? hr_ggml_type_lookup (mix->default_type) : NULL;

      if (ftype == NULL && gtype == NULL)
        {
          hr_entry_error (error, entry, "default_type", _("“%s” is not a known ggml type"),
                          mix->default_type);
          ok = FALSE;
        }
      else if (!isfinite (mix->nominal_bpw))
        mix->nominal_bpw = ftype != NULL ? 8.0 * ftype->bytes_per_block / ftype->block_size
                                         : 8.0 * gtype->bytes_per_block / gtype->block_size;
    }
  if (ok && !isfinite (mix->nominal_bpw))
    {
      hr_entry_error (error, entry, "nominal_bpw", _("is needed when there is no default_type"));
      ok = FALSE;
    }

  if (!ok)
    return NULL;
  return g_steal_pointer (&mix);
}

/* ------------------------------------------------------------------------------------------ */
/* Loading a whole file                                                                        */

/* Checks a freshly parsed list for ids given twice. */
static gboolean
check_duplicates (const char  *file,
                  const char  *what,
                  GPtrArray   *items,
                  GError     **error)
{
  g_autoptr(GHashTable) seen = hr_name_table_new (NULL, NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const char *id = hr_catalog_entry_id (g_ptr_array_index (items, i));

      if (!g_hash_table_add (seen, (gpointer) id))
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       _("%s: %s “%s” is listed twice (duplicate id)"), file, what, id);
          return FALSE;
        }
    }
  return TRUE;
}

/* How to read one kind of entry: the fields of @entry, already opened with its @id (taken);
 * @types are the FileType the document declares (quants.json). */
typedef gpointer (*ParseFunc) (GArray          *types,
                               const HrEntry   *entry,
                               char            *id,
                               GError         **error);

typedef struct
{
  const char *file;
  const char *member;      /* the array in the document */
  const char *what;        /* for messages */
  gboolean upper_ids;      /* ids keep their case ("UD-Q2_K_XL") */
  ParseFunc parse;
  GDestroyNotify free;
  gsize list;              /* G_STRUCT_OFFSET in HrCatalog of the list the entries go to */
  gboolean ggml_types;     /* the document declares ggml types before the entries */
} EntryKind;

static const EntryKind models_kind = {
  "models.json", "models", "model", FALSE, parse_model, (GDestroyNotify) hr_model_free,
  G_STRUCT_OFFSET (HrCatalog, models),
};
static const EntryKind gpus_kind = {
  "gpus.json", "gpus", "GPU", FALSE, parse_gpu, (GDestroyNotify) hr_gpu_free,
  G_STRUCT_OFFSET (HrCatalog, gpus),
};
static const EntryKind quants_kind = {
  "quants.json", "mixes", "quant", TRUE, parse_mix, (GDestroyNotify) hr_quant_mix_free,
  G_STRUCT_OFFSET (HrCatalog, quants), TRUE,
};

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
  g_autoptr(GArray) types = NULL;
  JsonObject *root;
  JsonArray *array;

  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  array = hr_catalog_parse_document (kind->file, json, length, kind->member, &parser, error);
  if (array == NULL)
    return FALSE;

  types = g_array_new (FALSE, TRUE, sizeof (FileType));
  g_array_set_clear_func (types, file_type_clear);
  root = json_node_get_object (json_parser_get_root (parser));
  if (kind->ggml_types && !parse_ggml_types (kind->file, root, types, error))
    return FALSE;

  parsed = g_ptr_array_new_with_free_func (kind->free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      HrEntry entry = { kind->file, NULL, NULL };
      char *id = NULL;
      gpointer item = NULL;

      if (hr_entry_open (&entry, kind->what, array, i, kind->upper_ids, &id, error))
        item = kind->parse (types, &entry, id, error);
      g_free (entry.label);
      if (item == NULL)
        return FALSE;
      g_ptr_array_add (parsed, item);
    }
  if (!check_duplicates (kind->file, kind->what, parsed, error))
    return FALSE;

  for (guint i = 0; i < parsed->len; i++)
    {
      gpointer item = g_ptr_array_index (parsed, i);

      parsed->pdata[i] = NULL;
      hr_catalog_list_put (G_STRUCT_MEMBER_P (catalog, kind->list), item);
    }
  return TRUE;
}

/* hr_catalog_load_models (), hr_catalog_load_gpus (), hr_catalog_load_quants (): one loader,
 * three kinds of entry. */
#define DEFINE_LOADER(many)                                                 \
  gboolean                                                                  \
  hr_catalog_load_##many (HrCatalog  *catalog,                              \
                          const char *json,                                 \
                          gssize      length,                               \
                          GError    **error)                                \
  {                                                                         \
    return load_entries (catalog, &many##_kind, json, length, error);       \
  }

DEFINE_LOADER (models)
DEFINE_LOADER (gpus)
DEFINE_LOADER (quants)
