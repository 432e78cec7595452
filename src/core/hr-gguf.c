/* hr-gguf.c — the GGUF header reader
 *
 * Format: ggml-org/ggml docs/gguf.md and src/gguf.cpp (gguf_init_from_file_impl).  We follow the
 * checks gguf.cpp makes (magic, version, counts, key and tensor-name uniqueness, n_dims, ne[0]
 * a multiple of the block size, offsets laid out in order with the file's alignment) and add
 * hard limits so a hostile header cannot make us allocate or loop without bound.
 */
#include "hr-gguf.h"
#include "hr-quant.h"

#include <gio/gio.h>
#include <string.h>

#define GGUF_DEFAULT_ALIGNMENT 32
#define MAX_KEY_LEN            65535
#define MAX_TENSOR_NAME_LEN    256
#define MAX_KEPT_STRING        (1 << 20)   /* longer strings are skipped, their length kept */
#define MAX_KEPT_ARRAY         65536       /* longer numeric arrays are skipped */
/* What a header may make us keep in memory beyond its own size: kept arrays are decoded to
 * 8 bytes an element, so they get their own budget. */
#define KEPT_ARRAY_BUDGET      (1 << 20)   /* elements, all arrays together */
#define KEPT_STRING_BUDGET     (64 << 20)  /* bytes, all strings together */
#define FIRST_CHUNK            (1 << 20)

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

typedef enum
{
  PARSE_OK,
  PARSE_SHORT,   /* ran out of data: need a longer prefix */
  PARSE_ERROR,
} ParseStatus;

typedef struct
{
  const guint8 *data;
  gsize len;
  gsize pos;
  guint64 want;  /* when PARSE_SHORT: a prefix length that lets the parse go on */
} Reader;

#define TRY(expr) G_STMT_START { ParseStatus s_ = (expr); if (s_ != PARSE_OK) return s_; } G_STMT_END

G_DEFINE_QUARK (hr-gguf-error-quark, hr_gguf_error)

static const char *type_names[HR_GGUF_N_TYPES] = {
  "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array",
  "uint64", "int64", "float64",
};

static const gsize type_sizes[HR_GGUF_N_TYPES] = {
  1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8,
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

static void
kv_free (gpointer data)
{
  HrGgufKv *kv = data;

  g_free (kv->key);
  g_free (kv->str);
  g_free (kv->ints);
  g_free (kv->floats);
  g_free (kv);
}

static void
tensor_clear (gpointer data)
{
  HrGgufTensor *t = data;

  g_free (t->name);
}

static HrGguf *
gguf_new (void)
{
  HrGguf *gguf = g_new0 (HrGguf, 1);

  gguf->alignment = GGUF_DEFAULT_ALIGNMENT;
  gguf->kvs = g_ptr_array_new_with_free_func (kv_free);
  gguf->kv_index = g_hash_table_new (g_str_hash, g_str_equal);
  gguf->tensors = g_array_new (FALSE, TRUE, sizeof (HrGgufTensor));
  g_array_set_clear_func (gguf->tensors, tensor_clear);
  gguf->tensor_index = g_hash_table_new (g_str_hash, g_str_equal);
  gguf->by_type = g_array_new (FALSE, TRUE, sizeof (HrGgufTypeTotal));
  gguf->complete = TRUE;
  gguf->n_splits = 1;
  return gguf;
}

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

/* Makes sure @n bytes are available at the reader's position. */
static ParseStatus
reader_need (Reader   *r,
             guint64   n,
             GError  **error)
{
  guint64 end;

  if (!add_u64 (r->pos, n, &end) || end > HR_GGUF_MAX_HEADER)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the GGUF header is larger than %u MiB", (guint) (HR_GGUF_MAX_HEADER >> 20));
      return PARSE_ERROR;
    }
  if (end > r->len)
    {
      r->want = MAX (r->want, end);
      return PARSE_SHORT;
    }
  return PARSE_OK;
}

static ParseStatus
read_bytes (Reader        *r,
            gsize          n,
            const guint8 **out,
            GError       **error)
{
  TRY (reader_need (r, n, error));
  *out = r->data + r->pos;
  r->pos += n;
  return PARSE_OK;
}

static ParseStatus
read_u32 (Reader   *r,
          guint32  *out,
          GError  **error)
{
  const guint8 *p;

  TRY (read_bytes (r, 4, &p, error));
  *out = (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
  return PARSE_OK;
}

static ParseStatus
read_u64 (Reader   *r,
          guint64  *out,
          GError  **error)
{
  const guint8 *p;
  guint64 v = 0;

  TRY (read_bytes (r, 8, &p, error));
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  *out = v;
  return PARSE_OK;
}

/* Reads a gguf_string.  @out may be NULL to skip it; *@out is NULL when the string is longer
 * than @max_keep.  @what names the string in error messages. */
static ParseStatus
read_string (Reader      *r,
             gsize        max_keep,
             gboolean     must_be_utf8,
             char       **out,
             guint64     *out_len,
             const char  *what,
             GError     **error)
{
  const guint8 *p;
  guint64 len;

  TRY (read_u64 (r, &len, error));
  if (len > HR_GGUF_MAX_HEADER)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "%s declares a string of %" G_GUINT64_FORMAT " bytes", what, len);
      return PARSE_ERROR;
    }
  TRY (read_bytes (r, (gsize) len, &p, error));
  if (must_be_utf8 && !g_utf8_validate ((const char *) p, (gssize) len, NULL))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID, "%s is not valid UTF-8", what);
      return PARSE_ERROR;
    }
  if (out_len != NULL)
    *out_len = len;
  if (out != NULL)
    {
      if (len <= max_keep)
        {
          if (must_be_utf8)
            *out = g_strndup ((const char *) p, (gsize) len);
          else
            {
              /* Values are shown in the UI: keep valid UTF-8 only. */
              g_autofree char *raw = g_strndup ((const char *) p, (gsize) len);
              *out = g_utf8_make_valid (raw, -1);
            }
        }
      else
        *out = NULL;
    }
  return PARSE_OK;
}

static void
decode_scalar (HrGgufType    type,
               const guint8 *p,
               HrGgufKv     *kv)
{
  guint64 u = 0;
  gsize size = type_sizes[type];

  for (gsize i = size; i > 0; i--)
    u = u << 8 | p[i - 1];

  kv->is_unsigned = FALSE;
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_UINT32:
      kv->v.i = (gint64) u;
      break;
    case HR_GGUF_TYPE_UINT64:
      if (u > G_MAXINT64)
        {
          kv->v.u = u;
          kv->is_unsigned = TRUE;
        }
      else
        kv->v.i = (gint64) u;
      break;
    case HR_GGUF_TYPE_INT8:
      kv->v.i = (gint8) u;
      break;
    case HR_GGUF_TYPE_INT16:
      kv->v.i = (gint16) u;
      break;
    case HR_GGUF_TYPE_INT32:
      kv->v.i = (gint32) u;
      break;
    case HR_GGUF_TYPE_INT64:
      kv->v.i = (gint64) u;
      break;
    case HR_GGUF_TYPE_BOOL:
      kv->v.i = u != 0;
      break;
    case HR_GGUF_TYPE_FLOAT32:
      {
        guint32 bits = (guint32) u;
        float f;

        memcpy (&f, &bits, sizeof f);
        kv->v.f = f;
      }
      break;
    case HR_GGUF_TYPE_FLOAT64:
      memcpy (&kv->v.f, &u, sizeof kv->v.f);
      break;
    case HR_GGUF_TYPE_STRING:
    case HR_GGUF_TYPE_ARRAY:
    case HR_GGUF_N_TYPES:
    default:
      g_assert_not_reached ();
    }
}

static gboolean
type_is_float (HrGgufType type)
{
  return type == HR_GGUF_TYPE_FLOAT32 || type == HR_GGUF_TYPE_FLOAT64;
}

static ParseStatus
read_array (Reader    *r,
            HrGguf    *gguf,
            HrGgufKv  *kv,
            GError   **error)
{
  guint32 elem;
  guint64 n;

  TRY (read_u32 (r, &elem, error));
  if (elem == HR_GGUF_TYPE_ARRAY)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "key “%s” holds an array of arrays (not allowed in GGUF)", kv->key);
      return PARSE_ERROR;
    }
  if (elem >= HR_GGUF_N_TYPES)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "key “%s” holds an array of unknown type %u", kv->key, elem);
      return PARSE_ERROR;
    }
  TRY (read_u64 (r, &n, error));
  kv->elem_type = elem;
  kv->n = n;

  if (elem == HR_GGUF_TYPE_STRING)
    {
      /* Every element takes at least its 8-byte length: bound the count before looping. */
      if (n > (HR_GGUF_MAX_HEADER - r->pos) / 8)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "key “%s” declares %" G_GUINT64_FORMAT " strings, more than the header can hold",
                       kv->key, n);
          return PARSE_ERROR;
        }
      for (guint64 i = 0; i < n; i++)
        {
          ParseStatus s = read_string (r, 0, FALSE, NULL, NULL, kv->key, error);

          if (s == PARSE_SHORT)
            {
              /* The rest of the array needs at least 8 bytes per element. */
              guint64 rest = (n - i - 1) * 8;
              r->want = MAX (r->want, MIN ((guint64) HR_GGUF_MAX_HEADER, r->want + rest));
            }
          if (s != PARSE_OK)
            return s;
        }
      return PARSE_OK;
    }
  else
    {
      gsize size = type_sizes[elem];
      guint64 total;
      const guint8 *p;

      if (!mul_u64 (n, size, &total) || total > HR_GGUF_MAX_HEADER - r->pos)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "key “%s” declares %" G_GUINT64_FORMAT " elements, more than the header can hold",
                       kv->key, n);
          return PARSE_ERROR;
        }
      TRY (read_bytes (r, (gsize) total, &p, error));
      if (n <= MAX_KEPT_ARRAY && gguf->kept_elements + n <= KEPT_ARRAY_BUDGET)
        {
          HrGgufKv tmp = { 0 };

          gguf->kept_elements += n;
          if (type_is_float (elem))
            kv->floats = g_new (double, MAX (n, 1));
          else
            kv->ints = g_new (gint64, MAX (n, 1));
          for (guint64 i = 0; i < n; i++)
            {
              decode_scalar (elem, p + i * size, &tmp);
              if (kv->floats != NULL)
                kv->floats[i] = tmp.v.f;
              else
                kv->ints[i] = tmp.is_unsigned ? G_MAXINT64 : tmp.v.i;
            }
        }
      return PARSE_OK;
    }
}

static ParseStatus
read_kv (Reader    *r,
         HrGguf    *gguf,
         guint64    index,
         GError   **error)
{
  g_autofree char *key = NULL;
  g_autofree char *what = g_strdup_printf ("metadata key %" G_GUINT64_FORMAT, index);
  guint64 key_len;
  guint32 type;
  HrGgufKv *kv;

  TRY (read_string (r, MAX_KEY_LEN, TRUE, &key, &key_len, what, error));
  if (key == NULL || key_len == 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "%s is %s", what, key == NULL ? "too long" : "empty");
      return PARSE_ERROR;
    }
  if (strlen (key) != key_len)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID, "%s contains a NUL byte", what);
      return PARSE_ERROR;
    }
  if (g_hash_table_contains (gguf->kv_index, key))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID, "duplicate metadata key “%s”", key);
      return PARSE_ERROR;
    }
  TRY (read_u32 (r, &type, error));
  if (type >= HR_GGUF_N_TYPES)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "key “%s” has unknown value type %u", key, type);
      return PARSE_ERROR;
    }

  kv = g_new0 (HrGgufKv, 1);
  kv->key = g_steal_pointer (&key);
  kv->type = type;
  g_ptr_array_add (gguf->kvs, kv);
  g_hash_table_insert (gguf->kv_index, kv->key, kv);

  if (type == HR_GGUF_TYPE_STRING)
    {
      gsize room = KEPT_STRING_BUDGET - MIN (gguf->kept_string_bytes, KEPT_STRING_BUDGET);

      TRY (read_string (r, MIN (MAX_KEPT_STRING, room), FALSE, &kv->str, &kv->n, kv->key, error));
      if (kv->str != NULL)
        gguf->kept_string_bytes += (gsize) kv->n;
      return PARSE_OK;
    }
  if (type == HR_GGUF_TYPE_ARRAY)
    return read_array (r, gguf, kv, error);
  else
    {
      const guint8 *p;

      TRY (read_bytes (r, type_sizes[type], &p, error));
      decode_scalar (type, p, kv);
      return PARSE_OK;
    }
}

static gboolean
is_expert_tensor (const char *name)
{
  const char *p;

  if (strstr (name, "_exps") != NULL)
    return TRUE;

  /* Older files keep one tensor per expert: blk.N.ffn_{gate,up,down}.E.weight */
  if (!g_str_has_prefix (name, "blk."))
    return FALSE;
  p = name + 4;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (g_str_has_prefix (p, ".ffn_gate."))
    p += strlen (".ffn_gate.");
  else if (g_str_has_prefix (p, ".ffn_down."))
    p += strlen (".ffn_down.");
  else if (g_str_has_prefix (p, ".ffn_up."))
    p += strlen (".ffn_up.");
  else
    return FALSE;
  return g_ascii_isdigit (*p);
}

static ParseStatus
read_tensor_info (Reader    *r,
                  HrGguf    *gguf,
                  guint64    index,
                  GError   **error)
{
  g_autofree char *what = g_strdup_printf ("tensor %" G_GUINT64_FORMAT, index);
  g_autofree char *name = NULL;
  guint64 name_len;
  guint32 n_dims;
  guint32 type_id;
  guint64 dims[HR_GGUF_MAX_DIMS] = { 1, 1, 1, 1 };
  guint64 n_elements = 1;
  guint64 offset;
  guint64 bytes;
  const HrGgmlType *type;
  HrGgufTensor t = { 0 };

  TRY (read_string (r, MAX_TENSOR_NAME_LEN, TRUE, &name, &name_len, what, error));
  if (name == NULL || name_len == 0 || strlen (name) != name_len)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID, "the name of %s is %s", what,
                   name == NULL ? "too long" : name_len == 0 ? "empty" : "not text");
      return PARSE_ERROR;
    }
  if (g_hash_table_contains (gguf->tensor_index, name))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID, "duplicate tensor “%s”", name);
      return PARSE_ERROR;
    }

  TRY (read_u32 (r, &n_dims, error));
  if (n_dims > HR_GGUF_MAX_DIMS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "tensor “%s” has %u dimensions (at most %d)", name, n_dims, HR_GGUF_MAX_DIMS);
      return PARSE_ERROR;
    }
  for (guint32 d = 0; d < n_dims; d++)
    {
      TRY (read_u64 (r, &dims[d], error));
      if (dims[d] > G_MAXINT64)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                       "tensor “%s” has a negative dimension", name);
          return PARSE_ERROR;
        }
    }
  for (guint32 d = 0; d < HR_GGUF_MAX_DIMS; d++)
    if (!mul_u64 (n_elements, dims[d], &n_elements) || n_elements > G_MAXINT64)
      {
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                     "tensor “%s” has too many elements (its dimensions overflow)", name);
        return PARSE_ERROR;
      }

  TRY (read_u32 (r, &type_id, error));
  type = hr_ggml_type_lookup_id ((int) MIN (type_id, (guint32) G_MAXINT));
  if (type == NULL || type->block_size <= 0 || type->bytes_per_block <= 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_UNSUPPORTED,
                   "tensor “%s” has unknown ggml type %u", name, type_id);
      return PARSE_ERROR;
    }
  if (dims[0] % (guint64) type->block_size != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "tensor “%s”: its row of %" G_GUINT64_FORMAT " is not a multiple of the %s block (%d)",
                   name, dims[0], type->name, type->block_size);
      return PARSE_ERROR;
    }
  /* ne[0] is a multiple of the block, so bytes = blocks × bytes per block exactly. */
  if (!mul_u64 (n_elements / (guint64) type->block_size, (guint64) type->bytes_per_block, &bytes) ||
      bytes > G_MAXINT64)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "tensor “%s” is too large", name);
      return PARSE_ERROR;
    }

  TRY (read_u64 (r, &offset, error));

  t.name = g_steal_pointer (&name);
  t.n_dims = (int) n_dims;
  memcpy (t.dims, dims, sizeof dims);
  t.type = type->id;
  t.type_name = type->name;
  t.offset = offset;
  t.n_elements = n_elements;
  t.bytes = bytes;
  g_array_append_val (gguf->tensors, t);
  g_hash_table_insert (gguf->tensor_index,
                       g_array_index (gguf->tensors, HrGgufTensor, gguf->tensors->len - 1).name,
                       GUINT_TO_POINTER (gguf->tensors->len));
  return PARSE_OK;
}

static gboolean
apply_alignment (HrGguf  *gguf,
                 GError **error)
{
  HrGgufKv *kv = g_hash_table_lookup (gguf->kv_index, "general.alignment");

  if (kv == NULL)
    return TRUE;
  if (kv->type != HR_GGUF_TYPE_UINT8 && kv->type != HR_GGUF_TYPE_UINT16 &&
      kv->type != HR_GGUF_TYPE_UINT32 && kv->type != HR_GGUF_TYPE_UINT64)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "general.alignment is a %s, not an unsigned integer", type_names[kv->type]);
      return FALSE;
    }
  if (kv->is_unsigned || kv->v.i <= 0 || kv->v.i > (1 << 30) || (kv->v.i & (kv->v.i - 1)) != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                   "general.alignment must be a power of two up to 2^30");
      return FALSE;
    }
  gguf->alignment = (guint32) kv->v.i;
  return TRUE;
}

static gint
type_total_cmp (gconstpointer a,
                gconstpointer b)
{
  const HrGgufTypeTotal *ta = a, *tb = b;

  if (ta->bytes != tb->bytes)
    return ta->bytes > tb->bytes ? -1 : 1;
  return ta->type - tb->type;
}

/* Totals, by-type sums and the offset layout check.  Tensors of one file must follow each
 * other in order, each padded to the alignment (gguf.cpp: "tensor has offset X, expected Y"). */
static gboolean
compute_totals (HrGguf  *gguf,
                GError **error)
{
  g_autoptr(GHashTable) by_type = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint64 expected = 0;
  guint split = 0;

  gguf->n_params = gguf->tensor_bytes = gguf->expert_bytes = gguf->expert_params = 0;
  gguf->data_size = 0;
  g_array_set_size (gguf->by_type, 0);

  for (guint i = 0; i < gguf->tensors->len; i++)
    {
      const HrGgufTensor *t = &g_array_index (gguf->tensors, HrGgufTensor, i);
      HrGgufTypeTotal *total;
      gpointer slot;
      guint64 padded;

      if (t->split != split)
        {
          if (!add_u64 (gguf->data_size, expected, &gguf->data_size))
            goto overflow;
          split = t->split;
          expected = 0;
        }
      if (t->offset != expected)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                       "tensor “%s” has offset %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                       t->name, t->offset, expected);
          return FALSE;
        }
      if (!align_u64 (t->bytes, gguf->alignment, &padded) ||
          !add_u64 (expected, padded, &expected) ||
          !add_u64 (gguf->n_params, t->n_elements, &gguf->n_params) ||
          !add_u64 (gguf->tensor_bytes, t->bytes, &gguf->tensor_bytes))
        goto overflow;
      if (is_expert_tensor (t->name))
        {
          gguf->expert_bytes += t->bytes;
          gguf->expert_params += t->n_elements;
        }

      if (g_hash_table_lookup_extended (by_type, GINT_TO_POINTER (t->type), NULL, &slot))
        total = &g_array_index (gguf->by_type, HrGgufTypeTotal, GPOINTER_TO_UINT (slot));
      else
        {
          HrGgufTypeTotal fresh = { t->type_name, t->type, 0, 0, 0 };

          g_hash_table_insert (by_type, GINT_TO_POINTER (t->type),
                               GUINT_TO_POINTER (gguf->by_type->len));
          g_array_append_val (gguf->by_type, fresh);
          total = &g_array_index (gguf->by_type, HrGgufTypeTotal, gguf->by_type->len - 1);
        }
      total->n_tensors++;
      total->n_elements += t->n_elements;
      total->bytes += t->bytes;
    }
  if (!add_u64 (gguf->data_size, expected, &gguf->data_size))
    goto overflow;
  g_array_sort (gguf->by_type, type_total_cmp);
  return TRUE;

overflow:
  g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
               "the tensors' sizes add up past 2^64 bytes");
  return FALSE;
}

static ParseStatus
parse_header (Reader   *r,
              HrGguf   *gguf,
              GError  **error)
{
  const guint8 *magic;
  guint32 version;
  guint64 n_tensors, n_kv;

  TRY (read_bytes (r, 4, &magic, error));
  if (memcmp (magic, "GGUF", 4) != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF, "not a GGUF file (wrong magic)");
      return PARSE_ERROR;
    }
  TRY (read_u32 (r, &version, error));
  if (version == 1)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "GGUF version 1 is not supported; convert the model again");
      return PARSE_ERROR;
    }
  if ((version & 0xffff) == 0 && (version >> 16) != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "big-endian GGUF files are not supported");
      return PARSE_ERROR;
    }
  if (version != 2 && version != 3)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "unsupported GGUF version %u", version);
      return PARSE_ERROR;
    }
  gguf->version = version;

  TRY (read_u64 (r, &n_tensors, error));
  TRY (read_u64 (r, &n_kv, error));
  if (n_tensors > HR_GGUF_MAX_TENSORS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the file declares %" G_GUINT64_FORMAT " tensors (at most %d)",
                   n_tensors, HR_GGUF_MAX_TENSORS);
      return PARSE_ERROR;
    }
  if (n_kv > HR_GGUF_MAX_KV)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the file declares %" G_GUINT64_FORMAT " metadata keys (at most %d)",
                   n_kv, HR_GGUF_MAX_KV);
      return PARSE_ERROR;
    }

  for (guint64 i = 0; i < n_kv; i++)
    TRY (read_kv (r, gguf, i, error));

  if (!apply_alignment (gguf, error))
    return PARSE_ERROR;

  for (guint64 i = 0; i < n_tensors; i++)
    TRY (read_tensor_info (r, gguf, i, error));

  if (!align_u64 (r->pos, gguf->alignment, &gguf->data_offset))
    return PARSE_ERROR;
  if (!compute_totals (gguf, error))
    return PARSE_ERROR;
  return PARSE_OK;
}

HrGguf *
hr_gguf_parse (const guint8  *data,
               gsize          len,
               gboolean      *need_more,
               gsize         *needed,
               GError       **error)
{
  g_autoptr(HrGguf) gguf = NULL;
  Reader r = { data, len, 0, 0 };
  ParseStatus status;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (need_more != NULL)
    *need_more = FALSE;
  if (needed != NULL)
    *needed = 0;

  gguf = gguf_new ();
  status = parse_header (&r, gguf, error);
  if (status == PARSE_OK)
    return g_steal_pointer (&gguf);
  if (status == PARSE_ERROR)
    return NULL;

  if (need_more == NULL)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "the file ends inside its GGUF header (at byte %" G_GSIZE_FORMAT ")", len);
      return NULL;
    }
  *need_more = TRUE;
  if (needed != NULL)
    {
      /* Grow at least geometrically so a remote reader needs few round trips. */
      guint64 next = MAX (r.want, (guint64) len + 1);
      next = MAX (next, MIN ((guint64) len * 2, (guint64) HR_GGUF_MAX_HEADER));
      *needed = (gsize) MIN (next, (guint64) HR_GGUF_MAX_HEADER);
    }
  return NULL;
}

HrGguf *
hr_gguf_load_file (const char  *path,
                   GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *display = NULL;
  g_autofree guint8 *buf = NULL;
  gsize have = 0;
  gsize want;
  guint64 size;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  display = g_path_get_basename (path);
  stream = g_file_read (file, NULL, error);
  if (stream == NULL)
    return NULL;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                         G_FILE_ATTRIBUTE_STANDARD_TYPE, NULL, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO, "%s: not a regular file", display);
      return NULL;
    }
  size = (guint64) g_file_info_get_size (info);

  want = (gsize) MIN (size, (guint64) FIRST_CHUNK);
  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      HrGguf *gguf;
      gboolean need_more = FALSE;
      gsize needed = 0;
      gsize got = 0;

      buf = g_realloc (buf, MAX (want, 1));
      if (want > have &&
          !g_input_stream_read_all (G_INPUT_STREAM (stream), buf + have, want - have, &got,
                                    NULL, error))
        {
          g_prefix_error (error, "%s: ", display);
          return NULL;
        }
      have += got;

      gguf = hr_gguf_parse (buf, have, &need_more, &needed, &local_error);
      if (gguf != NULL)
        {
          hr_gguf_set_file_size (gguf, size);
          return gguf;
        }
      if (local_error != NULL)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", display);
          return NULL;
        }
      /* Short read (the file shrank) or the whole file is in: the header is cut off. */
      if (have < want || have >= size)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                       "%s: the file ends inside its GGUF header (%" G_GSIZE_FORMAT " bytes)",
                       display, have);
          return NULL;
        }
      want = (gsize) MIN (MIN ((guint64) MAX (needed, have * 2), size), (guint64) HR_GGUF_MAX_HEADER);
      if (want <= have)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "%s: the GGUF header is larger than %u MiB", display,
                       (guint) (HR_GGUF_MAX_HEADER >> 20));
          return NULL;
        }
    }
}

gboolean
hr_gguf_split_name_parse (const char  *name,
                          char       **prefix,
                          guint       *no,
                          guint       *count)
{
  gsize len;
  const char *tail;
  guint64 a, b;

  g_return_val_if_fail (name != NULL, FALSE);

  /* "-00001-of-00005.gguf" is 20 characters */
  len = strlen (name);
  if (len < 21 || !g_str_has_suffix (name, ".gguf"))
    return FALSE;
  tail = name + len - 20;
  if (tail[0] != '-' || strncmp (tail + 6, "-of-", 4) != 0)
    return FALSE;
  for (int i = 1; i <= 5; i++)
    if (!g_ascii_isdigit (tail[i]) || !g_ascii_isdigit (tail[9 + i]))
      return FALSE;
  a = g_ascii_strtoull (tail + 1, NULL, 10);
  b = g_ascii_strtoull (tail + 10, NULL, 10);
  if (a == 0 || b == 0 || a > b)
    return FALSE;
  if (prefix != NULL)
    *prefix = g_strndup (name, (gsize) (tail - name));
  if (no != NULL)
    *no = (guint) a;
  if (count != NULL)
    *count = (guint) b;
  return TRUE;
}

char *
hr_gguf_split_name (const char *prefix,
                    guint       no,
                    guint       count)
{
  g_return_val_if_fail (prefix != NULL, NULL);
  return g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, no, count);
}

gint64
hr_gguf_get_split_count (const HrGguf *gguf)
{
  gint64 count = 1;

  if (!hr_gguf_get_int (gguf, "split.count", &count) || count < 1)
    return 1;
  return count;
}

void
hr_gguf_set_file_size (HrGguf  *gguf,
                       guint64  size)
{
  guint64 end;

  g_return_if_fail (gguf != NULL);
  gguf->file_size = size;
  gguf->complete = add_u64 (gguf->data_offset, gguf->data_size, &end) && end <= size;
}

HrGguf *
hr_gguf_merge_split (HrGguf  **parts,
                     guint     n_parts,
                     GError  **error)
{
  g_autoptr(HrGguf) first = NULL;
  gint64 tensors_count = -1;
  gboolean ok = TRUE;
  guint i;

  g_return_val_if_fail (parts != NULL && n_parts > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (i = 0; i < n_parts && ok; i++)
    {
      g_autoptr(HrGguf) part = g_steal_pointer (&parts[i]);
      gint64 part_no = -1, part_count = -1;

      if (part == NULL ||
          !hr_gguf_get_int (part, "split.no", &part_no) || part_no != (gint64) i ||
          !hr_gguf_get_int (part, "split.count", &part_count) || part_count != (gint64) n_parts)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                       "part %u of %u has wrong split.no / split.count keys", i + 1, n_parts);
          ok = FALSE;
          break;
        }
      if (first == NULL)
        {
          first = g_steal_pointer (&part);
          continue;
        }

      /* Move this part's tensors into the first part. */
      for (guint t = 0; t < part->tensors->len; t++)
        {
          HrGgufTensor tensor = g_array_index (part->tensors, HrGgufTensor, t);

          if (g_hash_table_contains (first->tensor_index, tensor.name))
            {
              g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                           "tensor “%s” appears in more than one part", tensor.name);
              ok = FALSE;
              break;
            }
          if (first->tensors->len >= HR_GGUF_MAX_TENSORS)
            {
              g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                           "the parts hold more than %d tensors", HR_GGUF_MAX_TENSORS);
              ok = FALSE;
              break;
            }
          tensor.split = i;
          g_array_append_val (first->tensors, tensor);
          g_array_index (part->tensors, HrGgufTensor, t).name = NULL;
          g_hash_table_insert (first->tensor_index,
                               g_array_index (first->tensors, HrGgufTensor,
                                              first->tensors->len - 1).name,
                               GUINT_TO_POINTER (first->tensors->len));
        }
      first->file_size += part->file_size;
      first->complete = first->complete && part->complete;
    }
  /* The parts not reached are still ours to free. */
  for (; i < n_parts; i++)
    g_clear_pointer (&parts[i], hr_gguf_free);
  if (!ok)
    return NULL;

  first->n_splits = n_parts;
  if (!compute_totals (first, error))
    return NULL;
  if (hr_gguf_get_int (first, "split.tensors.count", &tensors_count) &&
      tensors_count != (gint64) first->tensors->len)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "the parts hold %u tensors, split.tensors.count says %" G_GINT64_FORMAT,
                   first->tensors->len, tensors_count);
      return NULL;
    }
  return g_steal_pointer (&first);
}

HrGguf *
hr_gguf_load_split (const char  *path,
                    GError     **error)
{
  g_autoptr(HrGguf) given = NULL;
  g_autofree char *prefix = NULL;
  g_autofree HrGguf **parts = NULL;
  guint no = 0, count = 0;
  gint64 split_count, split_no = -1;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  given = hr_gguf_load_file (path, error);
  if (given == NULL)
    return NULL;
  split_count = hr_gguf_get_split_count (given);
  if (split_count <= 1)
    return g_steal_pointer (&given);

  if (split_count > HR_GGUF_MAX_SPLITS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "split.count is %" G_GINT64_FORMAT " (at most %d parts)",
                   split_count, HR_GGUF_MAX_SPLITS);
      return NULL;
    }
  if (!hr_gguf_split_name_parse (path, &prefix, &no, &count) || (gint64) count != split_count)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "this file is part of a %" G_GINT64_FORMAT "-part model, but its name does not "
                   "end in -NNNNN-of-%05" G_GINT64_FORMAT ".gguf", split_count, split_count);
      return NULL;
    }
  hr_gguf_get_int (given, "split.no", &split_no);
  if (split_no != (gint64) no - 1)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "part %u says it is part %" G_GINT64_FORMAT, no, split_no + 1);
      return NULL;
    }

  parts = g_new0 (HrGguf *, count);
  for (guint i = 1; i <= count; i++)
    {
      g_autofree char *part_path = hr_gguf_split_name (prefix, i, count);
      g_autoptr(GError) local_error = NULL;

      if (i == no)
        {
          parts[i - 1] = g_steal_pointer (&given);
          continue;
        }
      parts[i - 1] = hr_gguf_load_file (part_path, &local_error);
      if (parts[i - 1] == NULL)
        {
          g_autofree char *base = g_path_get_basename (part_path);

          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                         "part %u of %u is missing (%s)", i, count, base);
          else
            g_propagate_error (error, g_steal_pointer (&local_error));
          for (guint j = 0; j < count; j++)
            g_clear_pointer (&parts[j], hr_gguf_free);
          return NULL;
        }
    }
  return hr_gguf_merge_split (parts, count, error);
}

void
hr_gguf_free (HrGguf *gguf)
{
  if (gguf == NULL)
    return;
  g_clear_pointer (&gguf->kv_index, g_hash_table_unref);
  g_clear_pointer (&gguf->kvs, g_ptr_array_unref);
  g_clear_pointer (&gguf->tensor_index, g_hash_table_unref);
  g_clear_pointer (&gguf->tensors, g_array_unref);
  g_clear_pointer (&gguf->by_type, g_array_unref);
  g_free (gguf);
}

guint32
hr_gguf_get_version (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->version;
}

guint
hr_gguf_get_n_tensors (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->tensors->len;
}

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

guint64
hr_gguf_get_n_params (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->n_params;
}

guint64
hr_gguf_get_tensor_bytes (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->tensor_bytes;
}

guint64
hr_gguf_get_expert_bytes (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->expert_bytes;
}

guint64
hr_gguf_get_expert_params (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->expert_params;
}

const GArray *
hr_gguf_get_bytes_by_type (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, NULL);
  return gguf->by_type;
}

guint32
hr_gguf_get_alignment (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->alignment;
}

guint64
hr_gguf_get_data_offset (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->data_offset;
}

guint64
hr_gguf_get_data_size (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->data_size;
}

guint64
hr_gguf_get_file_size (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->file_size;
}

gboolean
hr_gguf_is_complete (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, FALSE);
  return gguf->complete;
}

guint
hr_gguf_get_n_splits (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->n_splits;
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

guint
hr_gguf_get_n_kv (const HrGguf *gguf)
{
  g_return_val_if_fail (gguf != NULL, 0);
  return gguf->kvs->len;
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
