/* hr-gguf.c — the GGUF header reader
 *
 * Format: ggml-org/ggml docs/gguf.md and src/gguf.cpp (gguf_init_from_file_impl).  We follow the
 * checks gguf.cpp makes (magic, version, counts, key and tensor-name uniqueness, n_dims, ne[0]
 * a multiple of the block size, offsets laid out in order with the file's alignment) and add
 * hard limits so a hostile header cannot make us allocate or loop without bound.
 *
 * This file reads the bytes (keys and tensor infos); hr-gguf-layout.c adds the tensors up and
 * checks their offsets, hr-gguf-query.c answers questions about the result.
 */
#include "hr-gguf-private.h"
#include "hr-hash.h"
#include "hr-quant.h"

#include "hr-file.h"

#include <errno.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
  gint64 deadline;  /* g_get_monotonic_time () at which to give up; 0: never */
  guint steps;
} Reader;

/* How many keys, tensors or strings are read between two looks at the clock. */
#define STEPS_PER_CLOCK 1024

#define TRY(expr) G_STMT_START { ParseStatus s_ = (expr); if (s_ != PARSE_OK) return s_; } G_STMT_END

/* A reader that must be done by a deadline (a header fetched over the network) looks at the
 * clock every STEPS_PER_CLOCK keys, tensors and strings. */
static ParseStatus
reader_step (Reader  *r,
             GError **error)
{
  if (r->deadline == 0 || ++r->steps % STEPS_PER_CLOCK != 0 ||
      g_get_monotonic_time () < r->deadline)
    return PARSE_OK;
  g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TIMEOUT,
               "reading the GGUF header took longer than the time allowed");
  return PARSE_ERROR;
}

G_DEFINE_QUARK (hr-gguf-error-quark, hr_gguf_error)

static const gsize type_sizes[HR_GGUF_N_TYPES] = {
  1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8,
};

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

HrGguf *
hr_gguf_new_empty (void)
{
  HrGguf *gguf = g_new0 (HrGguf, 1);

  gguf->alignment = GGUF_DEFAULT_ALIGNMENT;
  gguf->kvs = g_ptr_array_new_with_free_func (kv_free);
  gguf->kv_index = hr_name_table_new (NULL, NULL);
  gguf->tensors = g_array_new (FALSE, TRUE, sizeof (HrGgufTensor));
  g_array_set_clear_func (gguf->tensors, tensor_clear);
  gguf->tensor_index = hr_name_table_new (NULL, NULL);
  gguf->by_type = g_array_new (FALSE, TRUE, sizeof (HrGgufTypeTotal));
  gguf->complete = TRUE;
  gguf->n_splits = 1;
  return gguf;
}

void
hr_gguf_drop_values (HrGguf *gguf)
{
  for (guint i = 0; i < gguf->kvs->len; i++)
    {
      HrGgufKv *kv = g_ptr_array_index (gguf->kvs, i);

      g_clear_pointer (&kv->str, g_free);
      g_clear_pointer (&kv->ints, g_free);
      g_clear_pointer (&kv->floats, g_free);
    }
  gguf->kept_elements = KEPT_ARRAY_BUDGET;
  gguf->kept_string_bytes = KEPT_STRING_BUDGET;
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

/* GGUF is little-endian: @size bytes at @p as an unsigned integer. */
static guint64
le_uint (const guint8 *p,
         gsize         size)
{
  guint64 u = 0;

  for (gsize i = size; i > 0; i--)
    u = u << 8 | p[i - 1];
  return u;
}

/* A little-endian unsigned integer of @size bytes. */
static ParseStatus
read_uint (Reader   *r,
           gsize     size,
           guint64  *out,
           GError  **error)
{
  const guint8 *p;

  TRY (read_bytes (r, size, &p, error));
  *out = le_uint (p, size);
  return PARSE_OK;
}

static ParseStatus
read_u64 (Reader   *r,
          guint64  *out,
          GError  **error)
{
  return read_uint (r, 8, out, error);
}

static ParseStatus
read_u32 (Reader   *r,
          guint32  *out,
          GError  **error)
{
  guint64 v;

  TRY (read_uint (r, 4, &v, error));
  *out = (guint32) v;
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
  guint64 u = le_uint (p, type_sizes[type]);

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
          ParseStatus s = reader_step (r, error);

          if (s == PARSE_OK)
            s = read_string (r, 0, FALSE, NULL, NULL, kv->key, error);

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
                   "general.alignment is a %s, not an unsigned integer",
                   hr_gguf_type_to_string (kv->type));
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
    {
      TRY (reader_step (r, error));
      TRY (read_kv (r, gguf, i, error));
    }

  if (!apply_alignment (gguf, error))
    return PARSE_ERROR;

  for (guint64 i = 0; i < n_tensors; i++)
    {
      TRY (reader_step (r, error));
      TRY (read_tensor_info (r, gguf, i, error));
    }

  if (!align_u64 (r->pos, gguf->alignment, &gguf->data_offset))
    return PARSE_ERROR;
  if (!hr_gguf_compute_totals (gguf, error))
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
  return hr_gguf_parse_until (data, len, 0, HR_GGUF_PARSE_DEFAULT, need_more, needed, error);
}

HrGguf *
hr_gguf_parse_until (const guint8      *data,
                     gsize              len,
                     gint64             deadline,
                     HrGgufParseFlags   flags,
                     gboolean          *need_more,
                     gsize             *needed,
                     GError           **error)
{
  g_autoptr(HrGguf) gguf = NULL;
  Reader r = { data, len, 0, 0, deadline, 0 };
  ParseStatus status;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (need_more != NULL)
    *need_more = FALSE;
  if (needed != NULL)
    *needed = 0;

  gguf = hr_gguf_new_empty ();
  if (flags & HR_GGUF_PARSE_LATER_PART)
    {
      /* the budgets for kept values start spent */
      gguf->kept_elements = KEPT_ARRAY_BUDGET;
      gguf->kept_string_bytes = KEPT_STRING_BUDGET;
    }
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

/* Reads up to @want bytes from @fd; FALSE with @error on a read error. */
static gboolean
read_full (int      fd,
           guint8  *buf,
           gsize    want,
           gsize   *got,
           GError **error)
{
  *got = 0;
  while (*got < want)
    {
      gssize n = read (fd, buf + *got, want - *got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        break;
      *got += (gsize) n;
    }
  return TRUE;
}

/* The header of the open GGUF @fd of @size bytes, read in growing chunks. */
static HrGguf *
read_header (int               fd,
             const char       *display,
             guint64           size,
             HrGgufParseFlags  flags,
             GError          **error)
{
  g_autofree guint8 *buf = NULL;
  gsize have = 0;
  gsize want;

  want = (gsize) MIN (size, (guint64) FIRST_CHUNK);
  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      HrGguf *gguf;
      gboolean need_more = FALSE;
      gsize needed = 0;
      gsize got = 0;

      buf = g_realloc (buf, MAX (want, 1));
      if (want > have && !read_full (fd, buf + have, want - have, &got, error))
        {
          g_prefix_error (error, "%s: ", display);
          return NULL;
        }
      have += got;

      gguf = hr_gguf_parse_until (buf, have, 0, flags, &need_more, &needed, &local_error);
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

HrGguf *
hr_gguf_load_file (const char  *path,
                   GError     **error)
{
  return hr_gguf_load_file_flags (path, HR_GGUF_PARSE_DEFAULT, error);
}

HrGguf *
hr_gguf_load_file_flags (const char        *path,
                         HrGgufParseFlags   flags,
                         GError           **error)
{
  g_autoptr(GError) open_error = NULL;
  g_autofree char *display = NULL;
  HrGguf *gguf = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_path_get_basename (path);
  /* without blocking in open () (a FIFO), and only a regular file */
  fd = hr_file_open_regular (path, &open_error);
  if (fd < 0)
    {
      if (g_error_matches (open_error, G_FILE_ERROR, G_FILE_ERROR_INVAL) ||
          g_error_matches (open_error, G_FILE_ERROR, G_FILE_ERROR_ISDIR))
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO, "%s: %s", display, open_error->message);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (open_error->code), "%s: %s", display,
                     open_error->message);
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", display, g_strerror (errno));
  else
    gguf = read_header (fd, display, (guint64) st.st_size, flags, error);
  close (fd);
  return gguf;
}
