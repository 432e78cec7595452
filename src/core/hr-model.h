/* hr-model.h — an open-weight model's architecture, as the sizing core needs it
 *
 * Plain data: no GObject.  Every model, whether it comes from the bundled catalog, a Hugging
 * Face config.json or a GGUF header, ends up as one HrModel.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How one group of layers holds its attention state. */
typedef enum
{
  HR_LAYER_FULL,      /* full/global attention: K and V for every token of the context */
  HR_LAYER_SLIDING,   /* sliding-window attention: min (context, window) tokens */
  HR_LAYER_CHUNKED,   /* chunked local attention (Llama 4): the current chunk only */
  HR_LAYER_MLA,       /* multi-head latent attention: one latent of k_dim per token */
  HR_LAYER_RECURRENT, /* linear attention / SSM / short conv: fixed state per sequence */
} HrLayerKind;

typedef struct
{
  HrLayerKind kind;
  int count;           /* number of layers in this group */
  int kv_heads;        /* KV heads (1 for MLA) */
  int k_dim;           /* per-head K width; MLA: kv_lora_rank + qk_rope_head_dim */
  int v_dim;           /* per-head V width; 0 when V is a view of K (MLA, K == V) */
  int window;          /* sliding window or chunk size in tokens; 0 otherwise */
  double state_bytes;  /* HR_LAYER_RECURRENT: bytes of state per sequence per layer */
  double conv_bytes;   /* of state_bytes: the convolution state, at 2 bytes per element as vLLM
                        * keeps it; llama.cpp keeps it in F32 (twice that); 0: unknown */
} HrLayerGroup;

/* A vision projector's image encoder (its mmproj GGUF's clip.vision.* keys), as far as
 * llama.cpp's clip.cpp sizes the buffer it encodes an image in (hr-projector.h). */
typedef struct
{
  int patches;         /* patches of the image clip.cpp's warmup encodes, the largest it
                        * reserves for; 0: unknown */
  int hidden;          /* n_embd */
  int ff;              /* n_ff */
  int heads;           /* n_head */
  gboolean gated;      /* a gated FFN (SwiGLU: up and gate both live) */
  gboolean windowed;   /* window attention with an n_pos × n_pos mask (Qwen2.5-VL) */
} HrVisionEncoder;

/* A measured file size for one quantization (or the official checkpoint). */
typedef struct
{
  char *quant;    /* quant id, e.g. "Q4_K_M", "UD-Q2_K_XL", "BF16" */
  guint64 bytes;  /* exact bytes when known */
  char *source;   /* where the figure comes from */
} HrQuantSize;

/* The ids of the user's own models and GPUs (hr-userdata.h) start with this, so they never
 * clash with a catalog id. */
#define HR_USERDATA_ID_PREFIX "user:"

typedef enum
{
  HR_MODEL_ORIGIN_CATALOG,
  HR_MODEL_ORIGIN_CONFIG,  /* imported from a Hugging Face config.json */
  HR_MODEL_ORIGIN_GGUF,    /* read from a GGUF header: exact tensor bytes */
} HrModelOrigin;

typedef struct
{
  char *id;            /* stable lower-case slug */
  char *name;          /* display name */
  char *family;        /* "GLM", "Qwen3", … */
  char *vendor;
  char *hf_repo;       /* "zai-org/GLM-4.5-Air" */
  char *gguf_repo;     /* "unsloth/GLM-4.5-Air-GGUF", may be NULL */
  char *license;       /* NULL when unknown */
  char *native_dtype;  /* "BF16", "FP8", "MXFP4", NULL when unknown */
  char *arch_label;    /* human description: "Sparse MoE + GQA" */
  char *source;        /* where the architecture numbers come from */
  char *confidence;    /* "sourced", "partly", "inferred" */
  HrModelOrigin origin;

  double total_params;   /* parameter count (not billions); NAN when unknown */
  double active_params;  /* parameters used per token (MoE: shared + active experts) */
  double vision_params;  /* vision/audio encoder the checkpoint ships beside total_params (0: none
                          * known); vLLM and SGLang load it, llama.cpp only with --mmproj */
  /* the llama.cpp vision projector (mmproj GGUF) of the model's GGUF repos (#31): its file's
   * bytes, dtype ("F16") and where the size comes from; 0 bytes: none known */
  double mmproj_bytes;
  char *mmproj_dtype;
  char *mmproj_source;
  HrVisionEncoder mmproj_encoder;

  int n_layers;        /* transformer blocks (excluding MTP layers) */
  int hidden;
  int n_heads;
  int head_dim;
  int vocab;
  int intermediate;    /* dense FFN width */
  int n_experts;       /* routed experts per MoE layer; 0 for dense */
  int n_experts_used;  /* experts per token */
  int n_shared_experts;
  int moe_intermediate;
  int shared_intermediate;
  int n_dense_layers;  /* leading dense-FFN layers in an MoE model */
  int n_ffn_layers;    /* blocks that carry only an FFN/MoE (Nemotron-H "E" blocks, whose
                        * attention/Mamba mixers sit in blocks of their own); 0 = every block
                        * has a mixer and an FFN */
  int q_lora_rank;     /* MLA */
  int kv_lora_rank;
  int qk_rope_dim;
  int qk_nope_dim;
  int v_head_dim;
  int mtp_layers;      /* multi-token-prediction layers shipped with the weights */
  gboolean tie_embeddings;
  gboolean ffn_ungated;  /* FFN/experts without a gate projection (squared-ReLU MLPs of
                          * Nemotron-H: up and down only) */
  int extra_block_kernels; /* kernels a decode block of llama.cpp's graph runs beyond a llama
                            * block of its kind (hr_model_llama_extra_block_kernels()); 0: none */
  gint64 max_context;

  GArray *layers;      /* HrLayerGroup */
  GPtrArray *sizes;    /* HrQuantSize, measured files per quant */

  /* Set when the model comes from a GGUF header: the file's exact tensor bytes. */
  char *gguf_quant;        /* the file's mix, e.g. "Q4_K_M" */
  guint64 gguf_bytes;      /* sum of all tensor bytes */
  guint64 gguf_expert_bytes; /* of which routed-expert tensors */
  int gguf_file_type;      /* general.file_type, -1 when absent */
  char *gguf_path;         /* the local file it was opened from (launch commands load it);
                            * NULL for a remote header or when unknown */

  /* private: derived weights per quant, filled by hr_weights_compute() (hr-weights.c) under
   * its own lock; keyed by a fingerprint of the fields above, never copied */
  gpointer weights_cache;
} HrModel;

HrModel        *hr_model_new                (void);
HrModel        *hr_model_copy               (const HrModel   *model);
void            hr_model_free               (HrModel         *model);

/* Appends a copy of @group. */
void            hr_model_add_layers         (HrModel         *model,
                                             const HrLayerGroup *group);
void            hr_model_add_size           (HrModel         *model,
                                             const char      *quant,
                                             guint64          bytes,
                                             const char      *source);
/* Adds one layer shaped as @layer (its count and conv_bytes are not read), merged into an
 * identical group when there is one (importers walk layers one by one; the groups read as a
 * summary). */
void            hr_model_add_layer_merged   (HrModel         *model,
                                             const HrLayerGroup *layer);
const HrQuantSize *hr_model_find_size       (const HrModel   *model,
                                             const char      *quant);

gboolean        hr_model_is_moe             (const HrModel   *model);
/* Blocks with routed experts (for --n-cpu-moe and expert offload). */
int             hr_model_moe_layers         (const HrModel   *model);
/* Kernels a decode block of llama.cpp's graph for @arch (general.architecture, or a config's
 * model_type) runs beyond a llama block of its kind; 0 for a llama-like block. */
int             hr_model_llama_extra_block_kernels (const char *arch,
                                                    gboolean    moe);
/* Checks the fields the memory model needs; sets a message naming the missing ones. */
gboolean        hr_model_validate           (const HrModel   *model,
                                             GError         **error);

/* One attention layer's heads as a model file gives them, with the names of its keys for the
 * message: the facts every model reader (config.json, GGUF) checks before sizing. */
typedef struct
{
  int heads;                 /* query heads */
  int kv_heads;              /* key/value heads */
  int hidden;                /* the model's hidden size */
  int head_dim;              /* the head size the file gives, when has_head_dim */
  gboolean has_head_dim;     /* FALSE: the heads split the hidden size evenly */
  gboolean latent;           /* MLA: the heads share one latent, they need not group */
  const char *heads_key;     /* "num_attention_heads", "llama.attention.head_count" */
  const char *kv_heads_key;
  const char *hidden_key;    /* "hidden_size", "llama.embedding_length" */
  const char *head_dim_key;  /* "head_dim", "llama.attention.key_length" */
} HrHeadShape;

/* NULL when such a layer can be; else why not, one line without the file's name ("7
 * key/value heads do not divide 32 attention heads").  A shape that fails here divided by
 * zero in the sizing (a head of hidden / 0 dimensions) or described no real attention. */
char           *hr_head_shape_problem       (const HrHeadShape *shape);

/* Bytes of KV cache / state for one sequence of @context tokens with @bytes_per_elem
 * (2 for F16/BF16, 1 for FP8, 34/32 for Q8_0, 18/32 for Q4_0).  Engine effects (padding,
 * blocks) are applied by the caller. */
double          hr_model_kv_bytes           (const HrModel   *model,
                                             gint64           context,
                                             double           bytes_per_elem);
/* Bytes per token of the layers whose cache grows with the full context. */
double          hr_model_kv_bytes_per_token (const HrModel   *model,
                                             double           bytes_per_elem);
/* Marks @conv_bytes of every recurrent group holding @state_bytes as convolution state. */
void            hr_model_set_conv_bytes     (HrModel         *model,
                                             double           state_bytes,
                                             double           conv_bytes);
/* Fixed recurrent state per sequence. */
double          hr_model_state_bytes        (const HrModel   *model);

/* Frees a model's weights cache (hr-weights.c); hr_model_free() calls it. */
void            hr_weights_cache_free       (gpointer         cache);

const char     *hr_layer_kind_to_string     (HrLayerKind      kind);
gboolean        hr_layer_kind_from_string   (const char      *str,
                                             HrLayerKind     *kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrModel, hr_model_free)

G_END_DECLS
