/* hr-quant-format.h — what kind of weights a quant id names, asked by weights, launch, advice
 * and estimate alike */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The format family of a quant id: which engines load it, and how a launch command names it. */
typedef enum
{
  HR_QUANT_FORMAT_GGUF,    /* a llama-quantize / Unsloth mix: Q4_K_M, IQ4_XS, UD-Q2_K_XL … */
  HR_QUANT_FORMAT_FLOAT,   /* unquantized: BF16 / F16 (a checkpoint or a GGUF), F32 */
  HR_QUANT_FORMAT_FP8,     /* FP8 checkpoints */
  HR_QUANT_FORMAT_INT8,    /* INT8 / W8A8 / GPTQ-Int8 checkpoints */
  HR_QUANT_FORMAT_INT4,    /* AWQ / GPTQ / W4A16 checkpoints */
  HR_QUANT_FORMAT_MXFP4,   /* gpt-oss style MXFP4 (a GGUF and a checkpoint) */
  HR_QUANT_FORMAT_NVFP4,   /* NVIDIA ModelOpt NVFP4 checkpoints */
  HR_N_QUANT_FORMATS
} HrQuantFormat;

#define HR_QUANT_FORMAT_BIT(f) (1u << (f))

/* How the weights of a quant are sized (hr-weights.c). */
typedef enum
{
  HR_WEIGHT_LAYOUT_GGUF_MIX,     /* per-tensor ggml types from the llama-quantize rules */
  HR_WEIGHT_LAYOUT_FLOAT16,      /* 2 bytes per parameter, norms and router in F32 */
  HR_WEIGHT_LAYOUT_FP8_BLOCK,    /* 1 byte + an fp32 scale per 128×128 block */
  HR_WEIGHT_LAYOUT_MXFP4_MOE,    /* MXFP4 experts (padded as vLLM loads them), 16-bit rest */
  HR_WEIGHT_LAYOUT_INT8_GROUP,   /* 8-bit weights, fp16 scale + 8-bit zero per group of 128 */
  HR_WEIGHT_LAYOUT_INT4_GROUP,   /* 4-bit weights, fp16 scale + 4-bit zero per group of 128 */
  HR_WEIGHT_LAYOUT_NVFP4,        /* 4-bit, an fp8 scale per 16 and a global scale */
} HrWeightLayout;

/* The vLLM-style MXFP4 checkpoint (experts MXFP4, the rest 16-bit); "MXFP4" alone is the GGUF
 * file llama.cpp loads (the rest at Q8_0). */
#define HR_QUANT_MXFP4_CHECKPOINT "MXFP4-checkpoint"

HrQuantFormat   hr_quant_format             (const char     *quant);
HrWeightLayout  hr_quant_weight_layout      (const char     *quant);
/* Unquantized weights (BF16, F16, F32): they run through the dense BLAS GEMMs, with no
 * dequantizing kernels or buffers. */
gboolean        hr_quant_is_unquantized     (const char     *quant);
/* 16-bit weights (BF16, F16): the dense FP16/BF16 tensor-core GEMMs; not F32. */
gboolean        hr_quant_is_16bit           (const char     *quant);
const char     *hr_quant_format_to_string   (HrQuantFormat   format);

/* The mix to size a GGUF file by when it names none (no general.file_type): the mix of its
 * dominant ggml type @type_name when every tensor of that mix has that type, else Q4_K_M. */
const char     *hr_quant_fallback_mix       (const char     *type_name);
/* hr_quant_fallback_mix() of @gguf's dominant tensor type: the app and the CLI size a file
 * without a mix name alike. */
struct _HrGguf;
const char     *hr_gguf_fallback_quant      (const struct _HrGguf *gguf);

G_END_DECLS
