/* hr-gguf-query.c — what a parsed GGUF header answers: tensors, totals and metadata keys
 *
 * Everything here reads a finished HrGguf; nothing parses.  Long strings and arrays that the
 * reader skipped answer with their length only.
 */
#include "hr-gguf-private.h"

#include <string.h>

static const char *type_names[HR_GGUF_N_TYPES] = {
  "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array",
  "uint64", "int64", "float64",
};

/* llama_ftype (ggml-org/llama.cpp include/llama.h) → the llama-quantize mix name. */
static const struct
{
  int ftype;
  const char *name;
} file_types[] = {
  { 0, "F32" },      { 1, "F16" },      { 2, "Q4_0" },     { 3, "Q4_1" },
  { 7, "Q8_0" },     { 8, "Q5_0" },     { 9, "Q5_1" },     { 10, "Q2_K" },
  { 11, "Q3_K_S" },  { 12, "Q3_K_M" },  { 13, "Q3_K_L" },  { 14, "Q4_K_S" },
  { 15, "Q4_K_M" },  { 16, "Q5_K_S" },  { 17, "Q5_K_M" },  { 18, "Q6_K" },
  { 19, "IQ2_XXS" }, { 20, "IQ2_XS" },  { 21, "Q2_K_S" },  { 22, "IQ3_XS" },
  { 23, "IQ3_XXS" }, { 24, "IQ1_S" },   { 25, "IQ4_NL" },  { 26, "IQ3_S" },
  { 27, "IQ3_M" },   { 28, "IQ2_S" },   { 29, "IQ2_M" },   { 30, "IQ4_XS" },
  { 31, "IQ1_M" },   { 32, "BF16" },    { 36, "TQ1_0" },   { 37, "TQ2_0" },
  { 38, "MXFP4_MOE" }, { 39, "NVFP4" }, { 40, "Q1_0" },
};

#define LLAMA_FTYPE_GUESSED 1024

/* The header's plain fields: one line each, one body for all. */
#define DEFINE_FIELD_GETTER(Type, name, field, fallback) \
  Type                                                   \
  hr_gguf_##name (const HrGguf *gguf)                    \
  {                                                      \
    g_return_val_if_fail (gguf != NULL, fallback);       \
    return gguf->field;                                  \
  }

DEFINE_FIELD_GETTER (guint32, get_version, version, 0)
DEFINE_FIELD_GETTER (guint, get_n_tensors, tensors->len, 0)
DEFINE_FIELD_GETTER (guint64, get_n_params, n_params, 0)
DEFINE_FIELD_GETTER (guint64, get_tensor_bytes, tensor_bytes, 0)
DEFINE_FIELD_GETTER (guint64, get_expert_bytes, expert_bytes, 0)
DEFINE_FIELD_GETTER (guint64, get_expert_params, expert_params, 0)
DEFINE_FIELD_GETTER (const GArray *, get_bytes_by_type, by_type, NULL)
DEFINE_FIELD_GETTER (guint32, get_alignment, alignment, 0)
DEFINE_FIELD_GETTER (guint64, get_data_offset, data_offset, 0)
DEFINE_FIELD_GETTER (guint64, get_data_size, data_size, 0)
DEFINE_FIELD_GETTER (guint64, get_file_size, file_size, 0)
DEFINE_FIELD_GETTER (gboolean, is_complete, complete, FALSE)
DEFINE_FIELD_GETTER (guint, get_n_splits, n_splits, 0)
DEFINE_FIELD_GETTER (guint, get_n_kv, kvs->len, 0)

const HrGgufTensor *
hr_gguf_get_tensor (const HrGguf *gguf,
                    guint         index)
{
  g_return_val_if_fail (gguf != NULL, NULL);
  if (index >= gguf->tensors->len)
    return NULL;
  return &g_array_index (gguf->tensors, HrGgufTensor, index);
}

const HrGgufTensor *
hr_gguf_find_tensor (const HrGguf *gguf,
                     const char   *name)
{
  guint index;

  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  index = GPOINTER_TO_UINT (g_hash_table_lookup (gguf->tensor_index, name));
  if (index == 0)
    return NULL;
  return &g_array_index (gguf->tensors, HrGgufTensor, index - 1);
}

const char *
hr_gguf_get_architecture (const HrGguf *gguf)
{
  return hr_gguf_get_string (gguf, "general.architecture");
}

const char *
hr_gguf_get_name (const HrGguf *gguf)
{
  return hr_gguf_get_string (gguf, "general.name");
}

int
hr_gguf_get_file_type (const HrGguf *gguf)
{
  gint64 v;

  if (!hr_gguf_get_int (gguf, "general.file_type", &v) || v < 0 || v > G_MAXINT)
    return -1;
  return (int) v;
}

const char *
hr_gguf_file_type_to_string (int file_type)
{
  if (file_type >= 0)
    file_type &= ~LLAMA_FTYPE_GUESSED;
  for (guint i = 0; i < G_N_ELEMENTS (file_types); i++)
    if (file_types[i].ftype == file_type)
      return file_types[i].name;
  return NULL;
}

const char *
hr_gguf_get_key (const HrGguf *gguf,
                 guint         index)
{
  g_return_val_if_fail (gguf != NULL, NULL);
  if (index >= gguf->kvs->len)
    return NULL;
  return ((HrGgufKv *) g_ptr_array_index (gguf->kvs, index))->key;
}

static const HrGgufKv *
lookup (const HrGguf *gguf,
        const char   *key)
{
  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);
  return g_hash_table_lookup (gguf->kv_index, key);
}

gboolean
hr_gguf_has_key (const HrGguf *gguf,
                 const char   *key)
{
  return lookup (gguf, key) != NULL;
}

HrGgufType
hr_gguf_get_kv_type (const HrGguf *gguf,
                     const char   *key)
{
  const HrGgufKv *kv = lookup (gguf, key);

  return kv != NULL ? kv->type : HR_GGUF_N_TYPES;
}

gboolean
hr_gguf_get_int (const HrGguf *gguf,
                 const char   *key,
                 gint64       *out)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL || kv->type == HR_GGUF_TYPE_STRING || kv->type == HR_GGUF_TYPE_ARRAY ||
      type_is_float (kv->type) || kv->is_unsigned)
    return FALSE;
  if (out != NULL)
    *out = kv->v.i;
  return TRUE;
}

gboolean
hr_gguf_get_double (const HrGguf *gguf,
                    const char   *key,
                    double       *out)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL || kv->type == HR_GGUF_TYPE_STRING || kv->type == HR_GGUF_TYPE_ARRAY)
    return FALSE;
  if (out != NULL)
    {
      if (type_is_float (kv->type))
        *out = kv->v.f;
      else if (kv->is_unsigned)
        *out = (double) kv->v.u;
      else
        *out = (double) kv->v.i;
    }
  return TRUE;
}

const char *
hr_gguf_get_string (const HrGguf *gguf,
                    const char   *key)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL || kv->type != HR_GGUF_TYPE_STRING)
    return NULL;
  return kv->str;
}

gboolean
hr_gguf_get_array_info (const HrGguf *gguf,
                        const char   *key,
                        HrGgufType   *elem_type,
                        guint64      *n)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL || kv->type != HR_GGUF_TYPE_ARRAY)
    return FALSE;
  if (elem_type != NULL)
    *elem_type = kv->elem_type;
  if (n != NULL)
    *n = kv->n;
  return TRUE;
}

gboolean
hr_gguf_get_array_int (const HrGguf *gguf,
                       const char   *key,
                       guint64       index,
                       gint64       *out)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL || kv->type != HR_GGUF_TYPE_ARRAY || kv->ints == NULL || index >= kv->n)
    return FALSE;
  if (out != NULL)
    *out = kv->ints[index];
  return TRUE;
}

char *
hr_gguf_value_to_string (const HrGguf *gguf,
                         const char   *key)
{
  const HrGgufKv *kv = lookup (gguf, key);

  if (kv == NULL)
    return NULL;
  switch (kv->type)
    {
    case HR_GGUF_TYPE_STRING:
      if (kv->str == NULL)
        return g_strdup_printf ("[text of %" G_GUINT64_FORMAT " bytes]", kv->n);
      if (g_utf8_strlen (kv->str, -1) > 80)
        {
          g_autofree char *head = g_utf8_substring (kv->str, 0, 77);
          return g_strdup_printf ("\"%s…\"", head);
        }
      return g_strdup_printf ("\"%s\"", kv->str);
    case HR_GGUF_TYPE_ARRAY:
      return g_strdup_printf ("[%s × %" G_GUINT64_FORMAT "]", type_names[kv->elem_type], kv->n);
    case HR_GGUF_TYPE_BOOL:
      return g_strdup (kv->v.i ? "true" : "false");
    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_FLOAT64:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_dtostr (buf, sizeof buf, kv->v.f));
      }
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_N_TYPES:
    default:
      if (kv->is_unsigned)
        return g_strdup_printf ("%" G_GUINT64_FORMAT, kv->v.u);
      return g_strdup_printf ("%" G_GINT64_FORMAT, kv->v.i);
    }
}

const char *
hr_gguf_type_to_string (HrGgufType type)
{
  if ((guint) type < HR_GGUF_N_TYPES)
    return type_names[type];
  return "unknown";
}
