/* hr-projector.c — a vision projector's image-encode buffer (hr-projector.h) */
#include "hr-projector.h"
#include "hr-gguf.h"

#include <math.h>
#include <string.h>

gboolean
hr_projector_encoder_known (const HrVisionEncoder *encoder)
{
  return encoder != NULL && encoder->patches > 0 && encoder->hidden > 0 && encoder->ff > 0;
}

double
hr_projector_encode_bytes (const HrVisionEncoder *encoder,
                           gboolean               flash_attn)
{
  double n_pos, bytes;

  if (!hr_projector_encoder_known (encoder))
    return NAN;
  n_pos = encoder->patches;
  /* clip_graph::build_vit: F32 activations of every position.  At a layer's peak the FFN's
   * hidden activation (up, and gate beside it when gated: build_ffn keeps both until they are
   * multiplied) and about HR_PROJECTOR_EMBD_LIVE n_embd-wide tensors are live; ggml's graph
   * allocator reuses the rest from layer to layer. */
  bytes = 4.0 * n_pos * ((encoder->gated ? 2.0 : 1.0) * encoder->ff
                         + HR_PROJECTOR_EMBD_LIVE * encoder->hidden);
  /* clip_graph::build_attn without flash attention: kq = mul_mat (k, q) and its soft_max,
   * n_pos × n_pos × n_head in F32 ("SOFT_MAX: type = f32, ne = [8464 8464 16 1]" in the
   * warmup's list of ops when the backend lacks flash attention) */
  if (!flash_attn)
    bytes += 4.0 * MAX (encoder->heads, 1) * n_pos * n_pos;
  /* models/qwen2vl.cpp (Qwen2.5-VL's window attention): window_mask is an F32 n_pos × n_pos
   * input, cast to F16 when flash attention is on */
  if (encoder->windowed)
    bytes += n_pos * n_pos * (4.0 + (flash_attn ? 2.0 : 0.0));
  return bytes;
}

static int
strcmp_p (gconstpointer a,
          gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

char *
hr_projector_find_beside (const char *gguf_path)
{
  g_autofree char *dir = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (gguf_path != NULL, NULL);
  dir = g_path_get_dirname (gguf_path);
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "mmproj") && g_str_has_suffix (name, ".gguf"))
      g_ptr_array_add (found, g_strdup (name));
  if (found->len == 0)
    return NULL;
  g_ptr_array_sort (found, strcmp_p);
  return g_build_filename (dir, g_ptr_array_index (found, 0), NULL);
}

gboolean
hr_projector_attach_beside (HrModel *model)
{
  g_autofree char *path = NULL, *base = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  const char *dtype;
  guint64 bytes;

  g_return_val_if_fail (model != NULL, FALSE);
  if (model->gguf_path == NULL || (path = hr_projector_find_beside (model->gguf_path)) == NULL)
    return FALSE;
  gguf = hr_gguf_load_file (path, NULL);
  if (gguf == NULL || (bytes = hr_gguf_get_tensor_bytes (gguf)) == 0)
    return FALSE;
  dtype = hr_gguf_get_file_type (gguf) >= 0 ? hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf)) : NULL;
  base = g_path_get_basename (path);
  model->mmproj_bytes = (double) bytes;
  g_free (model->mmproj_dtype);
  /* the catalog's format wants a dtype: a header without general.file_type says GGUF */
  model->mmproj_dtype = g_strdup (dtype != NULL ? dtype : "GGUF");
  g_free (model->mmproj_source);
  model->mmproj_source = g_strdup_printf ("%s beside the model: its tensors, from its header", base);
  hr_projector_encoder_from_gguf (gguf, &model->mmproj_encoder);
  return TRUE;
}

/* clip.cpp's warmup image for the Qwen-VL mergers: set_warmup_n_tokens (46 * 46) merged
 * tokens of n_merge × n_merge patches each ("warmup with image size = 1472 x 1472" at patch 16) */
#define QWEN_WARMUP_TOKENS (46 * 46)

static gint64
get_int (const HrGguf *gguf,
         const char   *key)
{
  gint64 v = 0;

  return hr_gguf_get_int (gguf, key, &v) ? v : 0;
}

gboolean
hr_projector_encoder_from_gguf (const HrGguf    *gguf,
                                HrVisionEncoder *out)
{
  const char *type;
  gint64 image, patch, merge;

  g_return_val_if_fail (gguf != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  out->hidden = (int) CLAMP (get_int (gguf, "clip.vision.embedding_length"), 0, 1 << 16);
  out->ff = (int) CLAMP (get_int (gguf, "clip.vision.feed_forward_length"), 0, 1 << 18);
  out->heads = (int) CLAMP (get_int (gguf, "clip.vision.attention.head_count"), 0, 1 << 12);
  out->gated = hr_gguf_find_tensor (gguf, "v.blk.0.ffn_gate.weight") != NULL;
  out->windowed = get_int (gguf, "clip.vision.n_wa_pattern") > 0;
  image = get_int (gguf, "clip.vision.image_size");
  patch = get_int (gguf, "clip.vision.patch_size");
  merge = get_int (gguf, "clip.vision.spatial_merge_size");
  type = hr_gguf_get_string (gguf, "clip.projector_type");
  if (type == NULL || patch <= 0 || patch > 1024)
    return FALSE;
  if (g_str_has_prefix (type, "qwen") && g_str_has_suffix (type, "_merger"))
    out->patches = QWEN_WARMUP_TOKENS * (int) (merge > 0 && merge <= 8 ? merge * merge : 4);
  else if (g_strcmp0 (type, "gemma3") == 0 || g_strcmp0 (type, "mlp") == 0
           || g_strcmp0 (type, "ldp") == 0 || g_strcmp0 (type, "ldpv2") == 0)
    {
      /* fixed-resolution encoders warm up at their image size; LLaVA's CLIP adds a class token */
      if (image <= 0 || image > 16384)
        return FALSE;
      out->patches = (int) ((image / patch) * (image / patch))
                     + (hr_gguf_find_tensor (gguf, "v.class_embd") != NULL ? 1 : 0);
    }
  return hr_projector_encoder_known (out);
}
