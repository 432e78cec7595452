/* hr-quant.c — ggml tensor types and the per-tensor rules of llama-quantize
 *
 * Block sizes from ggml (reference/quant_types.csv: ggml-org/ggml src/ggml.c type_traits and
 * ggml-common.h block structs).  The mix rules mirror llama_tensor_get_type() in
 * ggml-org/llama.cpp src/llama-quant.cpp (reference/quant_ftype_mixes.csv), without an imatrix.
 */
#include "hr-quant.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "hr-text.h"

/* The one ggml type table the code sizes tensors with.  data/quants.json lists the same types
 * (build-aux/make-catalogs.py writes them from reference/quant_types.csv) for readers of the
 * catalog; tests/test-engine.c (/quant-format/ggml-types-agree) checks they agree. */
static const HrGgmlType ggml_types[] = {
  { "F32", 0, 1, 4 },
  { "F16", 1, 1, 2 },
  { "Q4_0", 2, 32, 18 },
  { "Q4_1", 3, 32, 20 },
  { "Q5_0", 6, 32, 22 },
  { "Q5_1", 7, 32, 24 },
  { "Q8_0", 8, 32, 34 },
  { "Q8_1", 9, 32, 36 },
  { "Q2_K", 10, 256, 84 },
  { "Q3_K", 11, 256, 110 },
  { "Q4_K", 12, 256, 144 },
  { "Q5_K", 13, 256, 176 },
  { "Q6_K", 14, 256, 210 },
  { "Q8_K", 15, 256, 292 },
  { "IQ2_XXS", 16, 256, 66 },
  { "IQ2_XS", 17, 256, 74 },
  { "IQ3_XXS", 18, 256, 98 },
  { "IQ1_S", 19, 256, 50 },
  { "IQ4_NL", 20, 32, 18 },
  { "IQ3_S", 21, 256, 110 },
  { "IQ2_S", 22, 256, 82 },
  { "IQ4_XS", 23, 256, 136 },
  { "I8", 24, 1, 1 },
  { "I16", 25, 1, 2 },
  { "I32", 26, 1, 4 },
  { "I64", 27, 1, 8 },
  { "F64", 28, 1, 8 },
  { "IQ1_M", 29, 256, 56 },
  { "BF16", 30, 1, 2 },
  { "TQ1_0", 34, 256, 54 },
  { "TQ2_0", 35, 256, 66 },
  { "MXFP4", 39, 32, 17 },
  { "NVFP4", 40, 64, 36 },
  { "Q1_0", 41, 128, 18 },
  { "Q2_0", 42, 64, 18 },
};

const HrGgmlType *
hr_ggml_type_lookup (const char *name)
{
  if (name == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (ggml_types); i++)
    if (g_ascii_strcasecmp (ggml_types[i].name, name) == 0)
      return &ggml_types[i];
  return NULL;
}

const HrGgmlType *
hr_ggml_type_lookup_id (int id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ggml_types); i++)
    if (ggml_types[i].id == id)
      return &ggml_types[i];
  return NULL;
}

double
hr_ggml_type_bytes (const HrGgmlType *type,
                    double            n_elements)
{
  g_return_val_if_fail (type != NULL, 0);
  return ceil (n_elements / type->block_size) * type->bytes_per_block;
}

double
hr_ggml_type_bpw (const HrGgmlType *type)
{
  return 8.0 * type->bytes_per_block / type->block_size;
}

/* ---- mixes ----------------------------------------------------------------------------- */

typedef enum
{
  MIX_NONE = -1,
  MIX_F32, MIX_F16, MIX_BF16, MIX_Q8_0, MIX_Q6_K, MIX_Q5_K_M, MIX_Q5_K_S, MIX_Q4_K_M,
  MIX_Q4_K_S, MIX_Q4_0, MIX_Q4_1, MIX_Q5_0, MIX_Q5_1, MIX_IQ4_XS, MIX_IQ4_NL, MIX_Q3_K_L,
  MIX_Q3_K_M, MIX_Q3_K_S, MIX_IQ3_M, MIX_IQ3_S, MIX_IQ3_XS, MIX_IQ3_XXS, MIX_Q2_K, MIX_Q2_K_S,
  MIX_IQ2_M, MIX_IQ2_S, MIX_IQ2_XS, MIX_IQ2_XXS, MIX_IQ1_M, MIX_IQ1_S, MIX_TQ1_0, MIX_TQ2_0,
  MIX_MXFP4_MOE,
} Mix;

static const struct { const char *id; Mix mix; const char *default_type; } mix_table[] = {
  { "F32", MIX_F32, "F32" },
  { "F16", MIX_F16, "F16" },
  { "BF16", MIX_BF16, "BF16" },
  { "Q8_0", MIX_Q8_0, "Q8_0" },
  { "Q6_K", MIX_Q6_K, "Q6_K" },
  { "Q5_K_M", MIX_Q5_K_M, "Q5_K" },
  { "Q5_K_S", MIX_Q5_K_S, "Q5_K" },
  { "Q4_K_M", MIX_Q4_K_M, "Q4_K" },
  { "Q4_K_S", MIX_Q4_K_S, "Q4_K" },
  { "Q4_0", MIX_Q4_0, "Q4_0" },
  { "Q4_1", MIX_Q4_1, "Q4_1" },
  { "Q5_0", MIX_Q5_0, "Q5_0" },
  { "Q5_1", MIX_Q5_1, "Q5_1" },
  { "IQ4_XS", MIX_IQ4_XS, "IQ4_XS" },
  { "IQ4_NL", MIX_IQ4_NL, "IQ4_NL" },
  { "Q3_K_L", MIX_Q3_K_L, "Q3_K" },
  { "Q3_K_M", MIX_Q3_K_M, "Q3_K" },
  { "Q3_K_S", MIX_Q3_K_S, "Q3_K" },
  { "IQ3_M", MIX_IQ3_M, "IQ3_S" },
  { "IQ3_S", MIX_IQ3_S, "IQ3_S" },
  { "IQ3_XS", MIX_IQ3_XS, "IQ3_S" },
  { "IQ3_XXS", MIX_IQ3_XXS, "IQ3_XXS" },
  { "Q2_K", MIX_Q2_K, "Q2_K" },
  { "Q2_K_S", MIX_Q2_K_S, "Q2_K" },
  { "IQ2_M", MIX_IQ2_M, "IQ2_S" },
  { "IQ2_S", MIX_IQ2_S, "IQ2_XS" },
  { "IQ2_XS", MIX_IQ2_XS, "IQ2_XS" },
  { "IQ2_XXS", MIX_IQ2_XXS, "IQ2_XXS" },
  { "IQ1_M", MIX_IQ1_M, "IQ1_M" },
  { "IQ1_S", MIX_IQ1_S, "IQ1_S" },
  { "TQ1_0", MIX_TQ1_0, "TQ1_0" },
  { "TQ2_0", MIX_TQ2_0, "TQ2_0" },
  { "MXFP4_MOE", MIX_MXFP4_MOE, "MXFP4" },
};

const char *
hr_quant_catalog_id (const char *gguf_mix)
{
  if (gguf_mix != NULL && g_ascii_strcasecmp (gguf_mix, "MXFP4_MOE") == 0)
    return "MXFP4";
  return gguf_mix;
}

gboolean
hr_quant_same (const char *a,
               const char *b)
{
  a = hr_quant_catalog_id (a);
  b = hr_quant_catalog_id (b);
  return a != NULL && b != NULL && g_ascii_strcasecmp (a, b) == 0;
}

static Mix
mix_lookup (const char *id,
            const char **default_type)
{
  if (id == NULL)
    return MIX_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (mix_table); i++)
    if (g_ascii_strcasecmp (mix_table[i].id, id) == 0)
      {
        if (default_type)
          *default_type = mix_table[i].default_type;
        return mix_table[i].mix;
      }
  return MIX_NONE;
}

/* use_more_bits() from llama-quant.cpp: the first and last eighth of the layers, and every
 * third layer in between, get more bits. */
static gboolean
use_more_bits (int i_layer,
               int n_layers)
{
  return i_layer < n_layers / 8 || i_layer >= 7 * n_layers / 8 ||
         (i_layer - n_layers / 8) % 3 == 2;
}

static const HrGgmlType *
T (const char *name)
{
  return hr_ggml_type_lookup (name);
}

/* tensor_type_fallback(): K- and I-quants need rows (ne[0]) that are a multiple of their
 * block; llama-quantize falls back to a 32-block type, and to F16 when even that does not
 * divide the row. */
static const HrGgmlType *
shape_fallback (const HrGgmlType *type,
                gint64            row_len)
{
  const HrGgmlType *fb;

  if (row_len <= 0 || row_len % type->block_size == 0)
    return type;
  switch (type->id)
    {
    case 16: case 17: case 22: case 18: case 21: case 19: case 29: case 23:
      fb = T ("IQ4_NL");    /* IQ1_S … IQ4_XS */
      break;
    case 10: case 11: case 34: case 35: case 42:
      fb = T ("Q4_0");      /* Q2_K, Q3_K, TQ1_0, TQ2_0, Q2_0 */
      break;
    case 12:
      fb = T ("Q5_0");
      break;
    case 13:
      fb = T ("Q5_1");
      break;
    case 14:
      fb = T ("Q8_0");
      break;
    default:
      fb = T ("F16");
      break;
    }
  if (row_len % fb->block_size != 0)
    fb = T ("F16");
  return fb;
}

/* Mixes whose low-bit types llama-quantize refuses to write without an importance matrix: a
 * published file of these mixes was made with one, which changes a few rules below. */
static gboolean
mix_needs_imatrix (Mix mix)
{
  return mix == MIX_IQ1_S || mix == MIX_IQ1_M || mix == MIX_IQ2_XXS || mix == MIX_IQ2_XS ||
         mix == MIX_IQ2_S || mix == MIX_IQ2_M || mix == MIX_IQ3_XXS || mix == MIX_Q2_K_S;
}

static gboolean
mix_is_iq2_family (Mix mix)
{
  return mix == MIX_IQ2_XXS || mix == MIX_IQ2_XS || mix == MIX_IQ1_S || mix == MIX_IQ2_S ||
         mix == MIX_IQ2_M || mix == MIX_IQ1_M;
}

/* One tensor's situation, as the rules of llama_tensor_get_type_impl() ask about it. */
typedef struct
{
  Mix mix;
  const HrGgmlType *def;  /* the mix's default type */
  gboolean imatrix;       /* the mix needs an importance matrix (see mix_needs_imatrix) */
  int layer;
  int n_layers;
  int n_experts;
  int n_gqa;
  gint64 row_len;
} Rule;

/* output.weight (also token_embd of a model with tied embeddings: the caller passes OUTPUT) */
static const HrGgmlType *
type_for_output (const Rule *r)
{
  Mix mix = r->mix;

  if (mix == MIX_MXFP4_MOE)
    return T ("Q8_0");
  if (r->row_len > 0 && r->row_len % r->def->block_size != 0)
    return T ("Q8_0");
  if (mix == MIX_IQ2_XXS || mix == MIX_IQ2_XS || mix == MIX_IQ3_XXS || mix == MIX_IQ1_S ||
      mix == MIX_IQ2_S || mix == MIX_IQ2_M || mix == MIX_IQ1_M)
    return T ("Q5_K");
  if (r->def->id != 8)
    return T ("Q6_K");
  return r->def;
}

static const HrGgmlType *
type_for_token_embd (const Rule *r)
{
  Mix mix = r->mix;

  if (mix == MIX_IQ2_XXS || mix == MIX_IQ2_XS || mix == MIX_IQ1_S || mix == MIX_IQ1_M)
    return T ("Q2_K");
  if (mix == MIX_IQ2_S || mix == MIX_IQ2_M || mix == MIX_IQ3_XXS)
    return T ("IQ3_S");
  if (mix == MIX_TQ1_0 || mix == MIX_TQ2_0)
    return T ("Q4_K");
  return r->def;
}

/* The IQ1/IQ2 mixes have rules of their own for every tensor. */
static const HrGgmlType *
type_for_iq2_family (const Rule   *r,
                     HrTensorKind  kind,
                     gboolean      attn_v_like,
                     gboolean      ffn_down)
{
  gboolean s_or_m = r->mix == MIX_IQ2_S || r->mix == MIX_IQ2_M;

  if (attn_v_like)
    return (r->n_gqa >= 4 || r->n_experts >= 4) ? T ("Q4_K") : s_or_m ? T ("IQ3_S") : T ("Q2_K");
  if (r->n_experts == 8 && kind == HR_TENSOR_ATTN_K)
    return T ("Q4_K");
  if (ffn_down)
    {
      if (r->layer < r->n_layers / 8)
        return s_or_m ? T ("IQ3_S") : T ("Q2_K");
    }
  else if (kind == HR_TENSOR_ATTN_OUTPUT)
    {
      if (r->n_experts == 8)
        return T ("Q5_K");
      if (r->mix == MIX_IQ1_S || r->mix == MIX_IQ1_M)
        return T ("IQ2_XXS");
      if (s_or_m)
        return T ("IQ3_S");
    }
  return r->def;
}

static const HrGgmlType *
type_for_attn_v_rules (const Rule *r)
{
  Mix mix = r->mix;
  int n_gqa = r->n_gqa;

  if (mix == MIX_Q2_K)
    return T (n_gqa >= 4 ? "Q4_K" : "Q3_K");
  if (mix == MIX_Q2_K_S && n_gqa >= 4)
    return T ("Q4_K");
  if (mix == MIX_IQ3_XXS)
    return n_gqa >= 4 ? T ("Q4_K") : !r->imatrix ? T ("IQ3_S") : T ("IQ3_XXS");
  if ((mix == MIX_IQ3_XS || mix == MIX_IQ3_S) && n_gqa >= 4)
    return T ("Q4_K");
  if (mix == MIX_IQ3_M)
    return T ("Q4_K");
  if (mix == MIX_Q3_K_M)
    return T (r->layer < 2 ? "Q5_K" : "Q4_K");
  if (mix == MIX_Q3_K_L)
    return T ("Q5_K");
  if ((mix == MIX_IQ4_NL || mix == MIX_IQ4_XS) && n_gqa >= 4)
    return T ("Q5_K");
  if ((mix == MIX_Q4_K_M || mix == MIX_Q5_K_M) && use_more_bits (r->layer, r->n_layers))
    return T ("Q6_K");
  if (mix == MIX_Q4_K_S && r->layer < 4)
    return T ("Q5_K");
  return r->def;
}

/* attn_v, and what shares its counter (fused QKV, MLA's kv_b). */
static const HrGgmlType *
type_for_attn_v (const Rule *r)
{
  const HrGgmlType *t = type_for_attn_v_rules (r);
  gboolean is_70b = (r->n_layers == 80 && r->n_gqa > 1 && r->n_experts <= 1);

  /* "70B": 8 query heads share each attn_v, so a few more bits cost little */
  if (is_70b && (t->id == 11 || t->id == 12))
    t = T ("Q5_K");
  if (r->n_experts == 8)
    t = T ("Q8_0");
  return t;
}

/* attn_q: the IQ3_XS and IQ3_XXS mixes take it a step lower. */
static const HrGgmlType *
type_for_attn_q (const Rule *r)
{
  if (r->mix == MIX_IQ3_XS)
    return T ("IQ3_XXS");
  if (r->mix == MIX_IQ3_XXS)
    return T ("IQ2_S");
  return r->def;
}

/* attn_k: as attn_q, but eight-expert models keep it at Q8_0. */
static const HrGgmlType *
type_for_attn_k (const Rule *r)
{
  if (r->n_experts == 8)
    return T ("Q8_0");
  return type_for_attn_q (r);
}

static const HrGgmlType *
type_for_ffn_down (const Rule *r)
{
  Mix mix = r->mix;
  int layer = r->layer, n_layers = r->n_layers;

  if (mix == MIX_Q2_K)
    return T ("Q3_K");
  if (mix == MIX_Q2_K_S)
    return layer < n_layers / 8 ? T ("Q4_K") : r->def;
  if (mix == MIX_IQ3_XXS && !r->imatrix)
    return T (layer < n_layers / 8 ? "Q4_K" : "Q3_K");
  if (mix == MIX_Q3_K_M)
    return T (layer < n_layers / 16 ? "Q5_K" : "Q4_K");
  if (mix == MIX_IQ3_M && (layer < n_layers / 8 ||
                           (r->n_experts == 8 && use_more_bits (layer, n_layers))))
    return T ("Q4_K");
  if (mix == MIX_Q3_K_L)
    return T ("Q5_K");
  if (mix == MIX_Q4_K_M)
    return use_more_bits (layer, n_layers) ? T ("Q6_K") : r->def;
  if (layer < n_layers / 8 && (mix == MIX_IQ4_NL || mix == MIX_IQ4_XS) && !r->imatrix)
    return T ("Q5_K");
  if (mix == MIX_Q5_K_M && use_more_bits (layer, n_layers))
    return T ("Q6_K");
  if (mix == MIX_Q4_K_S && layer < n_layers / 8)
    return T ("Q5_K");
  if ((mix == MIX_Q4_0 || mix == MIX_Q5_0) && r->imatrix && layer < n_layers / 8)
    return T (mix == MIX_Q4_0 ? "Q4_1" : "Q5_1");
  return r->def;
}

static const HrGgmlType *
type_for_attn_output (const Rule *r)
{
  Mix mix = r->mix;

  if (r->n_experts == 8)
    {
      if (mix == MIX_Q2_K || mix == MIX_IQ3_XS || mix == MIX_IQ3_XXS || mix == MIX_Q3_K_S ||
          mix == MIX_Q3_K_M || mix == MIX_IQ4_NL || mix == MIX_Q4_K_S || mix == MIX_Q4_K_M ||
          mix == MIX_IQ3_S || mix == MIX_IQ3_M || mix == MIX_IQ4_XS)
        return T ("Q5_K");
      return r->def;
    }
  if (mix == MIX_Q2_K)
    return T ("Q3_K");
  if (mix == MIX_IQ3_XXS)
    return T ("IQ3_S");
  if (mix == MIX_Q3_K_M || mix == MIX_IQ3_M)
    return T ("Q4_K");
  if (mix == MIX_Q3_K_L)
    return T ("Q5_K");
  return r->def;
}

static const HrGgmlType *
type_for_ffn_gate_up (const Rule *r)
{
  if (r->mix == MIX_IQ3_XS && r->layer >= r->n_layers / 8 && r->layer < 7 * r->n_layers / 8)
    return T ("IQ3_XXS");
  return r->def;
}

/* The rules of llama_tensor_get_type_impl() (ggml-org/llama.cpp src/llama-quant.cpp at
 * 007dbbf, reference/quant_ftype_mixes.csv), in the same order.  For attn_v-like tensors
 * @layer/@n_layers are llama-quantize's running attn_v counter and count; for ffn_* they are
 * the block index and the block count (what layer_info() yields). */
const HrGgmlType *
hr_quant_tensor_type (const char   *mix_id,
                      HrTensorKind  kind,
                      int           layer,
                      int           n_layers,
                      int           n_experts,
                      int           n_gqa,
                      gint64        row_len)
{
  const char *default_name = NULL;
  Rule r = { mix_lookup (mix_id, &default_name), NULL, FALSE, layer, n_layers, n_experts, n_gqa,
             row_len };
  gboolean attn_v_like = kind == HR_TENSOR_ATTN_V || kind == HR_TENSOR_ATTN_QKV ||
                         kind == HR_TENSOR_ATTN_KV_B;
  gboolean ffn_down = kind == HR_TENSOR_FFN_DOWN || kind == HR_TENSOR_FFN_DOWN_EXPS ||
                      kind == HR_TENSOR_FFN_DOWN_SHEXP;
  gboolean ffn_gate_up = kind == HR_TENSOR_FFN_GATE || kind == HR_TENSOR_FFN_UP ||
                         kind == HR_TENSOR_FFN_GATE_EXPS || kind == HR_TENSOR_FFN_UP_EXPS ||
                         kind == HR_TENSOR_FFN_GATE_SHEXP || kind == HR_TENSOR_FFN_UP_SHEXP;
  gboolean expert3d = kind == HR_TENSOR_FFN_GATE_EXPS || kind == HR_TENSOR_FFN_UP_EXPS ||
                      kind == HR_TENSOR_FFN_DOWN_EXPS;
  const HrGgmlType *t;

  if (r.mix == MIX_NONE)
    return NULL;

  /* Never quantized: 1D norms and biases, the F32 router, SSM conv weights. */
  if (kind == HR_TENSOR_NORM || kind == HR_TENSOR_FFN_GATE_INP)
    return T ("F32");
  r.def = T (default_name);
  if (r.mix == MIX_F32 || r.mix == MIX_F16 || r.mix == MIX_BF16)
    return r.def;
  r.imatrix = mix_needs_imatrix (r.mix);

  if (kind == HR_TENSOR_OUTPUT)
    t = type_for_output (&r);
  else if (r.mix == MIX_MXFP4_MOE)
    t = expert3d ? T ("MXFP4") : T ("Q8_0");
  else if (kind == HR_TENSOR_TOKEN_EMBD)
    t = type_for_token_embd (&r);
  else if (mix_is_iq2_family (r.mix))
    t = type_for_iq2_family (&r, kind, attn_v_like, ffn_down);
  else if (attn_v_like)
    t = type_for_attn_v (&r);
  else if (kind == HR_TENSOR_ATTN_K)
    t = type_for_attn_k (&r);
  else if (kind == HR_TENSOR_ATTN_Q)
    t = type_for_attn_q (&r);
  else if (ffn_down)
    t = type_for_ffn_down (&r);
  else if (kind == HR_TENSOR_ATTN_OUTPUT)
    t = type_for_attn_output (&r);
  else if (ffn_gate_up)
    t = type_for_ffn_gate_up (&r);
  else
    t = r.def;

  return shape_fallback (t, row_len);
}

/* ---- KV types -------------------------------------------------------------------------- */

static const char * const kv_names[] = { "f16", "fp8", "q8_0", "q4_0" };
static const char *kv_display_names[] = { N_("F16 / BF16"), "FP8", "Q8_0", "Q4_0" };

G_STATIC_ASSERT (G_N_ELEMENTS (kv_names) == HR_N_KV_TYPES);
G_STATIC_ASSERT (G_N_ELEMENTS (kv_display_names) == HR_N_KV_TYPES);

double
hr_kv_type_bytes_per_elem (HrKvType kv)
{
  switch (kv)
    {
    case HR_KV_F16:
      return 2.0;
    case HR_KV_FP8:
      return 1.0;
    case HR_KV_Q8_0:
      return 34.0 / 32.0;
    case HR_KV_Q4_0:
      return 18.0 / 32.0;
    default:
      return 2.0;
    }
}

const char *
hr_kv_type_to_string (HrKvType kv)
{
  if ((guint) kv < G_N_ELEMENTS (kv_names))
    return kv_names[kv];
  return "f16";
}

const char *
hr_kv_type_display_name (HrKvType kv)
{
  if ((guint) kv < G_N_ELEMENTS (kv_display_names))
    return _(kv_display_names[kv]);
  return NULL;
}

gboolean
hr_kv_type_from_string (const char *str,
                        HrKvType   *kv)
{
  int i;

  if (str == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (str, "bf16") == 0 || g_ascii_strcasecmp (str, "fp16") == 0)
    str = "f16";
  if (g_ascii_strcasecmp (str, "fp8_e4m3") == 0 || g_ascii_strcasecmp (str, "fp8_e5m2") == 0 ||
      g_ascii_strcasecmp (str, "f8") == 0)
    str = "fp8";
  i = hr_text_find_name (kv_names, G_N_ELEMENTS (kv_names), str);
  if (i >= 0)
    *kv = (HrKvType) i;
  return i >= 0;
}

void
hr_quant_mix_free (HrQuantMix *mix)
{
  if (mix == NULL)
    return;
  g_free (mix->id);
  g_free (mix->label);
  g_free (mix->default_type);
  g_free (mix->source);
  g_free (mix);
}
