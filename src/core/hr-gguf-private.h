/* hr-gguf-private.h — what the GGUF reader's files share, and nothing else includes
 *
 * hr-gguf.c reads a header (keys, tensor infos), hr-gguf-layout.c adds up the tensors and
 * checks where they lie, also across the parts of a split model, and hr-gguf-query.c answers
 * questions about a parsed header.
 */
#pragma once

#include "hr-gguf.h"

G_BEGIN_DECLS

typedef struct
{
  char *key;
  HrGgufType type;
  HrGgufType elem_type;  /* arrays */
  guint64 n;             /* arrays: element count; strings: byte length */
  union
  {
    guint64 u;
    gint64 i;
    double f;
  } v;
  gboolean is_unsigned;  /* v.u holds the value (UINT64 above G_MAXINT64) */
  char *str;             /* strings, NULL when too long to keep */
  gint64 *ints;          /* kept integer/bool arrays */
  double *floats;        /* kept float arrays */
} HrGgufKv;

struct _HrGguf
{
  guint32 version;
  guint32 alignment;
  GPtrArray *kvs;           /* HrGgufKv, file order */
  GHashTable *kv_index;     /* key → HrGgufKv (borrowed) */
  GArray *tensors;          /* HrGgufTensor */
  GHashTable *tensor_index; /* name (borrowed) → index + 1 */
  GArray *by_type;          /* HrGgufTypeTotal */
  guint64 n_params;
  guint64 tensor_bytes;
  guint64 expert_bytes;
  guint64 expert_params;
  guint64 data_offset;
  guint64 data_size;
  guint64 file_size;
  gboolean complete;
  guint n_splits;
  gsize kept_elements;   /* budgets while parsing */
  gsize kept_string_bytes;
};

/* Checked arithmetic: FALSE on overflow. */
static inline gboolean
mul_u64 (guint64  a,
         guint64  b,
         guint64 *out)
{
  return g_uint64_checked_mul (out, a, b);
}

static inline gboolean
add_u64 (guint64  a,
         guint64  b,
         guint64 *out)
{
  return g_uint64_checked_add (out, a, b);
}

static inline gboolean
align_u64 (guint64  value,
           guint64  alignment,
           guint64 *out)
{
  guint64 rem = value % alignment;

  if (rem == 0)
    {
      *out = value;
      return TRUE;
    }
  return add_u64 (value, alignment - rem, out);
}

static inline gboolean
type_is_float (HrGgufType type)
{
  return type == HR_GGUF_TYPE_FLOAT32 || type == HR_GGUF_TYPE_FLOAT64;
}

HrGguf     *hr_gguf_new_empty       (void);
/* hr_gguf_load_file() parsing with @flags (a split model's later parts). */
HrGguf     *hr_gguf_load_file_flags (const char        *path,
                                     HrGgufParseFlags   flags,
                                     GError           **error);
/* Frees every kept string and array value (their types and lengths stay): what a split
 * model's part keeps once it turns out not to be the first. */
void        hr_gguf_drop_values     (HrGguf  *gguf);
/* Totals, by-type sums and the offset layout check (hr-gguf-layout.c). */
gboolean    hr_gguf_compute_totals  (HrGguf  *gguf,
                                     GError **error);

G_END_DECLS
