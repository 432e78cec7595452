/* hr-quant-format.c — the quant format table: one row per quant id pattern, first match wins.
 *
 * Every part of the core that must know what a quant id is asks this table: the weights
 * derivation (its layout), the launch builders (which file or checkpoint an engine loads), the
 * engine table (which formats an engine loads, hence what advice may suggest) and the estimate
 * (unquantized weights take the dense GEMM path).
 */
#include "hr-quant-format.h"
#include "hr-gguf.h"

#include <string.h>

typedef struct
{
  const char *pattern;
  gboolean prefix;          /* match the start of the id, else the whole id */
  HrQuantFormat format;
  HrWeightLayout layout;
  gboolean unquantized;
} FormatRow;

static const FormatRow rows[] = {
  { "BF16", FALSE, HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
  { "F16", FALSE, HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
  { "FP16", FALSE, HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
  { "native", FALSE, HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
  /* an F32 GGUF: llama-quantize's F32 "mix", 4 bytes per weight */
  { "F32", FALSE, HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_GGUF_MIX, TRUE },
  { HR_QUANT_MXFP4_CHECKPOINT, FALSE, HR_QUANT_FORMAT_MXFP4, HR_WEIGHT_LAYOUT_MXFP4_MOE, FALSE },
  /* the GGUF llama.cpp loads: MXFP4 experts, the rest Q8_0 (hr-weights.c) */
  { "MXFP4", FALSE, HR_QUANT_FORMAT_MXFP4, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE },
  { "FP8", TRUE, HR_QUANT_FORMAT_FP8, HR_WEIGHT_LAYOUT_FP8_BLOCK, FALSE },
  { "F8", TRUE, HR_QUANT_FORMAT_FP8, HR_WEIGHT_LAYOUT_FP8_BLOCK, FALSE },
  { "NVFP4", TRUE, HR_QUANT_FORMAT_NVFP4, HR_WEIGHT_LAYOUT_NVFP4, FALSE },
  { "INT8", TRUE, HR_QUANT_FORMAT_INT8, HR_WEIGHT_LAYOUT_INT8_GROUP, FALSE },
  { "W8A", TRUE, HR_QUANT_FORMAT_INT8, HR_WEIGHT_LAYOUT_INT8_GROUP, FALSE },
  { "GPTQ-INT8", TRUE, HR_QUANT_FORMAT_INT8, HR_WEIGHT_LAYOUT_INT8_GROUP, FALSE },
  { "AWQ", TRUE, HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
  { "GPTQ", TRUE, HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
  { "INT4", TRUE, HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
  { "W4A", TRUE, HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
};

/* Anything else is a GGUF mix name (hr-weights.c refuses the ones it does not know). */
static const FormatRow gguf_row = { NULL, FALSE, HR_QUANT_FORMAT_GGUF, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE };

static const char * const format_names[] = {
  "gguf", "float", "fp8", "int8", "int4", "mxfp4", "nvfp4",
};

G_STATIC_ASSERT (G_N_ELEMENTS (format_names) == HR_N_QUANT_FORMATS);

/* ggml types whose same-named mix gives every tensor that type ("no mixing"), for files
 * that do not say their mix. */
static const char * const plain_mixes[] = {
  "F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q6_K", "IQ4_NL", "IQ4_XS",
};

static const FormatRow *
row_for (const char *quant)
{
  if (quant == NULL)
    return &gguf_row;
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const FormatRow *r = &rows[i];
      gboolean match = r->prefix ? g_ascii_strncasecmp (quant, r->pattern, strlen (r->pattern)) == 0
                                 : g_ascii_strcasecmp (quant, r->pattern) == 0;
      if (match)
        return r;
    }
  return &gguf_row;
}

HrQuantFormat
hr_quant_format (const char *quant)
{
  return row_for (quant)->format;
}

HrWeightLayout
hr_quant_weight_layout (const char *quant)
{
  return row_for (quant)->layout;
}

gboolean
hr_quant_is_unquantized (const char *quant)
{
  return row_for (quant)->unquantized;
}

gboolean
hr_quant_is_16bit (const char *quant)
{
  const FormatRow *r = row_for (quant);

  return r->unquantized && r->layout == HR_WEIGHT_LAYOUT_FLOAT16;
}

const char *
hr_quant_format_to_string (HrQuantFormat format)
{
  if ((guint) format < G_N_ELEMENTS (format_names))
    return format_names[format];
  return "unknown";
}

const char *
hr_quant_fallback_mix (const char *type_name)
{
  for (guint i = 0; type_name != NULL && i < G_N_ELEMENTS (plain_mixes); i++)
    if (strcmp (type_name, plain_mixes[i]) == 0)
      return plain_mixes[i];
  return "Q4_K_M";
}

const char *
hr_gguf_fallback_quant (const HrGguf *gguf)
{
  const GArray *by_type = hr_gguf_get_bytes_by_type (gguf);

  if (by_type == NULL || by_type->len == 0)
    return hr_quant_fallback_mix (NULL);
  return hr_quant_fallback_mix (g_array_index (by_type, HrGgufTypeTotal, 0).type_name);
}
