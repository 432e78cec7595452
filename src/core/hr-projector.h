/* hr-projector.h — a vision projector's image-encode buffer, as llama.cpp's mtmd reserves it
 *
 * llama.cpp's clip.cpp (tools/mtmd/clip.cpp) builds the encoder's graph once at load time for
 * the largest image it will encode (warmup(): hparams.warmup_image_size, the model's own image
 * size, or 46 × 46 merged tokens for the dynamic-resolution Qwen-VL encoders) and reserves its
 * compute buffer on the projector's device (alloc_compute_meta: "CUDA0 compute buffer size =
 * N MiB").  That buffer stays allocated beside the projector's weights.
 */
#pragma once

#include <glib.h>
#include "hr-model.h"

G_BEGIN_DECLS

/* The n_embd-wide activations live at the peak of a ViT layer besides the FFN's n_ff-wide one
 * (the residual, the normed input and the FFN's output in clip_graph::build_vit), fitted on
 * public logs (tests/data/mmproj-encode-logs.csv, held-out rows never fitted). */
#define HR_PROJECTOR_EMBD_LIVE 2.77

/* Bytes of the image-encode compute buffer of @encoder on its device; NAN when the encoder's
 * shape is unknown (encoder->patches or hidden is 0).  @flash_attn: clip.cpp runs attention
 * with flash attention (llama.cpp's default wherever the backend supports it); without it each
 * layer materialises the n_head × n_pos × n_pos attention scores in F32. */
double          hr_projector_encode_bytes   (const HrVisionEncoder *encoder,
                                             gboolean               flash_attn);
/* TRUE when hr_projector_encode_bytes () has what it needs. */
gboolean        hr_projector_encoder_known  (const HrVisionEncoder *encoder);

/* --mmproj auto beside a local GGUF: the first mmproj*.gguf in its folder, by name; NULL when
 * there is none (g_free). */
char           *hr_projector_find_beside    (const char            *gguf_path);
/* A model read from a local GGUF (model->gguf_path) takes the projector beside it (#31): its
 * tensor bytes, dtype (general.file_type) and encoder, from its header.  FALSE, the model
 * untouched, when there is none or it cannot be read. */
gboolean        hr_projector_attach_beside  (HrModel               *model);

/* The encoder of an mmproj GGUF from its clip.vision.* keys and tensors; FALSE (patches 0)
 * when clip.cpp's warmup size for its projector type is not known here. */
struct _HrGguf;
gboolean        hr_projector_encoder_from_gguf (const struct _HrGguf *gguf,
                                                HrVisionEncoder      *out);

G_END_DECLS
