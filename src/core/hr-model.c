/* hr-model.c — an open-weight model's architecture */
#include <gio/gio.h>

#include "hr-model.h"
#include "hr-struct.h"
#include "hr-text.h"

#include <math.h>
#include <string.h>

/* The strings an HrQuantSize owns */
static const gsize size_strings[] = {
  G_STRUCT_OFFSET (HrQuantSize, quant),
  G_STRUCT_OFFSET (HrQuantSize, source),
};

/* The strings an HrModel owns; its arrays and weights cache are handled on their own. */
static const gsize model_strings[] = {
  G_STRUCT_OFFSET (HrModel, id),
  G_STRUCT_OFFSET (HrModel, name),
  G_STRUCT_OFFSET (HrModel, family),
  G_STRUCT_OFFSET (HrModel, vendor),
  G_STRUCT_OFFSET (HrModel, hf_repo),
  G_STRUCT_OFFSET (HrModel, gguf_repo),
  G_STRUCT_OFFSET (HrModel, license),
  G_STRUCT_OFFSET (HrModel, native_dtype),
  G_STRUCT_OFFSET (HrModel, arch_label),
  G_STRUCT_OFFSET (HrModel, source),
  G_STRUCT_OFFSET (HrModel, confidence),
  G_STRUCT_OFFSET (HrModel, gguf_quant),
  G_STRUCT_OFFSET (HrModel, gguf_path),
  G_STRUCT_OFFSET (HrModel, mmproj_dtype),
  G_STRUCT_OFFSET (HrModel, mmproj_source),
};

static gpointer
quant_size_copy (gconstpointer src,
                 gpointer      user_data)
{
  return hr_struct_copy (src, sizeof (HrQuantSize), size_strings, G_N_ELEMENTS (size_strings));
}

static void
quant_size_free (gpointer data)
{
  hr_struct_free (data, size_strings, G_N_ELEMENTS (size_strings));
}

HrModel *
hr_model_new (void)
{
  HrModel *model = g_new0 (HrModel, 1);

  model->total_params = NAN;
  model->active_params = NAN;
  model->gguf_file_type = -1;
  model->layers = g_array_new (FALSE, TRUE, sizeof (HrLayerGroup));
  model->sizes = g_ptr_array_new_with_free_func (quant_size_free);
  return model;
}

void
hr_model_free (HrModel *model)
{
  if (model == NULL)
    return;
  g_clear_pointer (&model->layers, g_array_unref);
  g_clear_pointer (&model->sizes, g_ptr_array_unref);
  g_clear_pointer (&model->weights_cache, hr_weights_cache_free);
  hr_struct_free (model, model_strings, G_N_ELEMENTS (model_strings));
}

HrModel *
hr_model_copy (const HrModel *model)
{
  HrModel *copy;

  g_return_val_if_fail (model != NULL, NULL);

  copy = hr_struct_copy (model, sizeof *model, model_strings, G_N_ELEMENTS (model_strings));
  copy->weights_cache = NULL;
  copy->layers = g_array_copy (model->layers);
  copy->sizes = g_ptr_array_copy (model->sizes, quant_size_copy, NULL);
  return copy;
}

void
hr_model_add_layers (HrModel            *model,
                     const HrLayerGroup *group)
{
  g_return_if_fail (model != NULL);
  g_return_if_fail (group != NULL);

  g_array_append_val (model->layers, *group);
}

void
hr_model_add_layer_merged (HrModel            *model,
                           const HrLayerGroup *layer)
{
  HrLayerGroup one = *layer;

  for (guint i = 0; i < model->layers->len; i++)
    {
      HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);

      if (g->kind == layer->kind && g->kv_heads == layer->kv_heads && g->k_dim == layer->k_dim &&
          g->v_dim == layer->v_dim && g->window == layer->window &&
          g->state_bytes == layer->state_bytes)
        {
          g->count++;
          return;
        }
    }
  one.count = 1;
  one.conv_bytes = 0;
  hr_model_add_layers (model, &one);
}

void
hr_model_add_size (HrModel    *model,
                   const char *quant,
                   guint64     bytes,
                   const char *source)
{
  HrQuantSize *size;

  g_return_if_fail (model != NULL);
  g_return_if_fail (quant != NULL);

  size = g_new0 (HrQuantSize, 1);
  size->quant = g_strdup (quant);
  size->bytes = bytes;
  size->source = g_strdup (source);
  g_ptr_array_add (model->sizes, size);
}

const HrQuantSize *
hr_model_find_size (const HrModel *model,
                    const char    *quant)
{
  g_return_val_if_fail (model != NULL, NULL);

  if (quant == NULL)
    return NULL;
  for (guint i = 0; i < model->sizes->len; i++)
    {
      const HrQuantSize *size = g_ptr_array_index (model->sizes, i);
      if (g_ascii_strcasecmp (size->quant, quant) == 0)
        return size;
    }
  return NULL;
}

gboolean
hr_model_is_moe (const HrModel *model)
{
  return model->n_experts > 1 && model->n_experts_used > 0;
}

int
hr_model_moe_layers (const HrModel *model)
{
  int ffn_blocks = model->n_ffn_layers > 0 ? model->n_ffn_layers : model->n_layers;

  if (!hr_model_is_moe (model))
    return 0;
  return MAX (ffn_blocks - model->n_dense_layers, 1);
}

/* A llama block runs about 14 kernels a decode step after the fusions of ggml-cuda
 * (ggml_cuda_graph_evaluate_and_capture: RMS_NORM·MUL(·ADD)(·ROPE(·SET_ROWS)), ROPE·SET_ROWS,
 * the gate·up·GLU mat-vec, TOPK_MOE) and ggml-vulkan (ggml_backend_vk_graph_compute: the same
 * norm and rope chains, MUL_MAT·ADD, multi-ADD): RMS_NORM·MUL, Q, K, V, ROPE, ROPE·SET_ROWS,
 * SET_ROWS, FLASH_ATTN_EXT, the output MUL_MAT, ADD, RMS_NORM·MUL, gate·up·GLU, down, ADD.  A
 * Qwen3-style block is the same count (its Q/K norms fuse into the ROPEs) and an MoE block with
 * one router and TOPK_MOE in place of the FFN is counted as one such block by the calibration.
 * Gemma 4 (ggml-org/llama.cpp src/models/gemma4-iswa.cpp, llm_build_gemma4_iswa) runs, beyond
 * that:
 *  - a bare RMS_NORM of V (no weight; nothing fuses it with the cache's SET_ROWS): 1;
 *  - the layer_scalar MUL (out_scale) at the block's end: 1;
 *  - MoE blocks (enable_moe_block): a dense GEGLU MLP beside the routed experts, with its own
 *    ffn_norm and ffn_post_norm_1 (RMS_NORM·MUL, gate·up·GEGLU, down, RMS_NORM·MUL: 4), the
 *    router's own RMS_NORM, SCALE and MUL on attn_out (3), the experts' ffn_post_norm_2 (1)
 *    and the ADD of the two branches (1): 9 more.
 * Its post-attention and post-FFN norms end in the residual ADD (RMS_NORM·MUL·ADD on CUDA);
 * ggml-vulkan has no such fusion and runs two or three more, which are not counted here.  So
 * 2 for a dense Gemma 4 block, 11 for an MoE one; Gemma 3 (gemma3.cpp) has Q/K norms and the
 * post norms only: 0. */
int
hr_model_llama_extra_block_kernels (const char *arch,
                                    gboolean    moe)
{
  if (arch == NULL || !g_str_has_prefix (arch, "gemma4"))
    return 0;
  return moe ? 11 : 2;
}

char *
hr_head_shape_problem (const HrHeadShape *s)
{
  g_return_val_if_fail (s != NULL, NULL);

  if (s->heads < 1)
    return g_strdup_printf ("%s is %d: an attention layer needs at least one head",
                            s->heads_key, s->heads);
  if (s->kv_heads < 1)
    return g_strdup_printf ("%s is %d: an attention layer needs at least one key/value head",
                            s->kv_heads_key, s->kv_heads);
  /* each key/value head serves a whole group of query heads */
  if (!s->latent && s->heads % s->kv_heads != 0)
    return g_strdup_printf ("%d key/value heads do not divide %d attention heads",
                            s->kv_heads, s->heads);
  if (s->has_head_dim && s->head_dim < 1)
    return g_strdup_printf ("%s is %d: a head needs at least one dimension", s->head_dim_key,
                            s->head_dim);
  if (s->heads > s->hidden)
    return g_strdup_printf ("%d attention heads are more than %s %d", s->heads, s->hidden_key,
                            s->hidden);
  if (!s->has_head_dim && !s->latent && s->hidden % s->heads != 0)
    return g_strdup_printf ("%d attention heads do not divide %s %d, and there is no %s",
                            s->heads, s->hidden_key, s->hidden, s->head_dim_key);
  return NULL;
}

gboolean
hr_model_validate (const HrModel  *model,
                   GError        **error)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  int layer_sum = 0;

#define NEED(cond, name) G_STMT_START { if (!(cond)) g_string_append_printf (missing, "%s%s", missing->len ? ", " : "", name); } G_STMT_END
  NEED (model->id != NULL && *model->id, "id");
  NEED (model->n_layers > 0 && model->n_layers <= 10000, "layers");
  NEED (model->hidden > 0 && model->hidden <= 1 << 20, "hidden size");
  NEED (isfinite (model->total_params) && model->total_params > 0 && model->total_params < 1e15,
        "total parameters");
  NEED (model->layers->len > 0, "attention layers");
#undef NEED

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);

      /* an attention group (anything but recurrent state) has heads of some size: the
       * weights divide by them (hr_head_shape_problem() says why in the file's words) */
      gboolean attention = g->kind != HR_LAYER_RECURRENT;

      if (g->count <= 0 || g->count > 10000 || g->kv_heads < 0 || g->kv_heads > 65536 ||
          g->k_dim < 0 || g->k_dim > 65536 || g->v_dim < 0 || g->v_dim > 65536 ||
          g->window < 0 || !(g->state_bytes >= 0 && g->state_bytes < 1e12) ||
          (attention && (g->kv_heads < 1 || g->k_dim < 1 || model->n_heads < 1)))
        {
          g_string_append_printf (missing, "%svalid layer group %u", missing->len ? ", " : "", i);
          break;
        }
      layer_sum += g->count;
    }

  if (missing->len > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "model “%s” lacks %s", model->id ? model->id : "?", missing->str);
      return FALSE;
    }
  if (layer_sum > model->n_layers * 4 + 8)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "model “%s”: attention layer groups (%d) exceed the layer count (%d)",
                   model->id, layer_sum, model->n_layers);
      return FALSE;
    }
  return TRUE;
}

static double
group_bytes_per_token (const HrLayerGroup *g,
                       double              bpe)
{
  /* MLA caches one latent of k_dim per token and layer, shared by all heads; everything else
   * stores K and V per KV head (v_dim 0 when V is a view of K). */
  return (double) g->count * MAX (g->kv_heads, 1) * (g->k_dim + g->v_dim) * bpe;
}

double
hr_model_kv_bytes (const HrModel *model,
                   gint64         context,
                   double         bytes_per_elem)
{
  double total = 0;

  g_return_val_if_fail (model != NULL, 0);

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);

      switch (g->kind)
        {
        case HR_LAYER_FULL:
        case HR_LAYER_MLA:
          total += group_bytes_per_token (g, bytes_per_elem) * (double) context;
          break;
        case HR_LAYER_SLIDING:
        case HR_LAYER_CHUNKED:
          total += group_bytes_per_token (g, bytes_per_elem) *
                   (double) (g->window > 0 ? MIN (context, g->window) : context);
          break;
        case HR_LAYER_RECURRENT:
          total += g->count * g->state_bytes;
          break;
        default:
          break;
        }
    }
  return total;
}

double
hr_model_kv_bytes_per_token (const HrModel *model,
                             double         bytes_per_elem)
{
  double total = 0;

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_FULL || g->kind == HR_LAYER_MLA)
        total += group_bytes_per_token (g, bytes_per_elem);
    }
  return total;
}

void
hr_model_set_conv_bytes (HrModel *model,
                         double   state_bytes,
                         double   conv_bytes)
{
  g_return_if_fail (model != NULL);
  for (guint i = 0; i < model->layers->len; i++)
    {
      HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_RECURRENT && g->state_bytes == state_bytes)
        g->conv_bytes = CLAMP (conv_bytes, 0, state_bytes);
    }
}

double
hr_model_state_bytes (const HrModel *model)
{
  double total = 0;

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_RECURRENT)
        total += g->count * g->state_bytes;
    }
  return total;
}

static const char * const layer_kind_names[] = { "full", "sliding", "chunked", "mla", "recurrent" };

const char *
hr_layer_kind_to_string (HrLayerKind kind)
{
  if ((guint) kind < G_N_ELEMENTS (layer_kind_names))
    return layer_kind_names[kind];
  return "unknown";
}

gboolean
hr_layer_kind_from_string (const char  *str,
                           HrLayerKind *kind)
{
  int i = hr_text_find_name (layer_kind_names, G_N_ELEMENTS (layer_kind_names), str);

  if (i >= 0)
    *kind = (HrLayerKind) i;
  return i >= 0;
}
