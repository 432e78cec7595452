/* hr-quant.h — ggml tensor types, llama-quantize mixes and per-tensor type rules */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *name;       /* "Q4_K" */
  int id;                 /* ggml_type enum value */
  int block_size;         /* weights per block */
  int bytes_per_block;
} HrGgmlType;

/* A quantization the user can choose: a llama-quantize mix (Q4_K_M), an Unsloth dynamic
 * mix (UD-Q2_K_XL), or a checkpoint format (BF16, FP8, MXFP4, AWQ-INT4). */
typedef struct
{
  char *id;              /* "Q4_K_M" */
  char *label;           /* "4-bit — recommended" */
  char *default_type;    /* ggml type most tensors get, e.g. "Q4_K"; NULL for checkpoint formats */
  double nominal_bpw;    /* bits per weight of the default type (for ordering and fallbacks) */
  gboolean gguf;         /* a GGUF mix llama.cpp/Ollama load */
  gboolean in_matrix;    /* shown in the quantization matrix by default */
  char *source;
} HrQuantMix;

/* What a tensor is, for the mix rules. */
typedef enum
{
  HR_TENSOR_TOKEN_EMBD,
  HR_TENSOR_OUTPUT,
  HR_TENSOR_ATTN_Q,
  HR_TENSOR_ATTN_K,
  HR_TENSOR_ATTN_V,
  HR_TENSOR_ATTN_QKV,
  HR_TENSOR_ATTN_OUTPUT,
  HR_TENSOR_ATTN_Q_A,      /* MLA low-rank projections */
  HR_TENSOR_ATTN_Q_B,
  HR_TENSOR_ATTN_KV_A,
  HR_TENSOR_ATTN_KV_B,     /* k_b + v_b */
  HR_TENSOR_FFN_GATE,
  HR_TENSOR_FFN_UP,
  HR_TENSOR_FFN_DOWN,
  HR_TENSOR_FFN_GATE_EXPS,
  HR_TENSOR_FFN_UP_EXPS,
  HR_TENSOR_FFN_DOWN_EXPS,
  HR_TENSOR_FFN_GATE_SHEXP,
  HR_TENSOR_FFN_UP_SHEXP,
  HR_TENSOR_FFN_DOWN_SHEXP,
  HR_TENSOR_FFN_GATE_INP,  /* router: kept F32 */
  HR_TENSOR_NORM,          /* norms, biases: F32 */
  HR_TENSOR_SSM,           /* recurrent-layer projections */
  HR_TENSOR_OTHER,         /* anything else counted in the parameter total */
  HR_N_TENSOR_KINDS
} HrTensorKind;

const HrGgmlType  *hr_ggml_type_lookup      (const char      *name);
const HrGgmlType  *hr_ggml_type_lookup_id   (int              id);
/* Bytes for @n_elements of @type (rounded up to whole blocks per row of @row_len). */
double             hr_ggml_type_bytes       (const HrGgmlType *type,
                                             double           n_elements);
double             hr_ggml_type_bpw         (const HrGgmlType *type);

/* The ggml type llama-quantize gives a tensor of @kind in layer @layer (of @n_layers) under
 * mix @mix_id, for a model with @n_experts routed experts and GQA factor @n_gqa; @row_len is
 * the tensor's first dimension, for the shape fallbacks (e.g. K-quants need 256 | row_len).
 * Returns NULL when @mix_id is not a GGUF mix.  Mirrors llama_tensor_get_type(). */
const HrGgmlType  *hr_quant_tensor_type     (const char      *mix_id,
                                             HrTensorKind     kind,
                                             int              layer,
                                             int              n_layers,
                                             int              n_experts,
                                             int              n_gqa,
                                             gint64           row_len);

/* The catalog's quantization for a GGUF file type's name: llama.cpp's "MXFP4_MOE" file type
 * is the catalog's "MXFP4" (the experts in MXFP4); every other name is its own. */
const char        *hr_quant_catalog_id      (const char      *gguf_mix);
/* @a and @b name the same quantization (case aside, through hr_quant_catalog_id()). */
gboolean           hr_quant_same            (const char      *a,
                                             const char      *b);

/* KV cache element types. */
typedef enum
{
  HR_KV_F16,    /* F16 or BF16: 2 bytes */
  HR_KV_FP8,    /* 1 byte (vLLM/SGLang fp8) */
  HR_KV_Q8_0,   /* 34 bytes / 32 values */
  HR_KV_Q4_0,   /* 18 bytes / 32 values */
  HR_N_KV_TYPES
} HrKvType;

double             hr_kv_type_bytes_per_elem (HrKvType        kv);
const char        *hr_kv_type_to_string      (HrKvType        kv);
/* As a list shows it (translated): "F16 / BF16", "FP8", "Q8_0", "Q4_0". */
const char        *hr_kv_type_display_name   (HrKvType        kv);
gboolean           hr_kv_type_from_string    (const char     *str,
                                              HrKvType       *kv);

void               hr_quant_mix_free         (HrQuantMix     *mix);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrQuantMix, hr_quant_mix_free)

G_END_DECLS
