/* hr-safetensors.c — a safetensors header and a sharded checkpoint's index, read without
 * json-glib (hr-json-scan.c) and checked as the safetensors library checks them: every tensor's
 * bytes are its elements × its dtype's bits / 8, and the tensors, sorted by offset, tile the data
 * area from 0 without a gap or an overlap. */
#include "hr-safetensors.h"

#include <string.h>

#include "hr-json-scan.h"

/* safetensors/src/tensor.rs, Dtype::bitsize (safetensors 0.6: F4, F6_*, F8_E8M0 and C64 added
 * to the original 15). */
static const struct
{
  const char *name;
  guint bits;
} dtypes[] = {
  { "BOOL", 8 }, { "U8", 8 }, { "I8", 8 },
  { "F8_E5M2", 8 }, { "F8_E4M3", 8 }, { "F8_E8M0", 8 },
  { "F4", 4 }, { "F6_E2M3", 6 }, { "F6_E3M2", 6 },
  { "I16", 16 }, { "U16", 16 }, { "F16", 16 }, { "BF16", 16 },
  { "I32", 32 }, { "U32", 32 }, { "F32", 32 },
  { "I64", 64 }, { "U64", 64 }, { "F64", 64 }, { "C64", 64 },
};

typedef struct
{
  guint64 begin;
  guint64 end;
  guint dtype;     /* index in dtypes[] */
  guint64 elements;
  guint name;      /* offset of its name in the names buffer */
} Tensor;

G_DEFINE_QUARK (hr-safetensors-error-quark, hr_safetensors_error)

static int
dtype_index (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    if (strcmp (dtypes[i].name, name) == 0)
      return (int) i;
  return -1;
}

guint
hr_safetensors_dtype_bits (const char *dtype)
{
  int i = dtype != NULL ? dtype_index (dtype) : -1;

  return i >= 0 ? dtypes[i].bits : 0;
}

HrSafetensors *
hr_safetensors_new_empty (void)
{
  HrSafetensors *st = g_new0 (HrSafetensors, 1);

  st->dtypes = g_array_new (FALSE, TRUE, sizeof (HrSafetensorsDtype));
  return st;
}

void
hr_safetensors_free (HrSafetensors *st)
{
  if (st == NULL)
    return;
  g_array_unref (st->dtypes);
  g_free (st->format);
  g_free (st);
}

static HrSafetensorsDtype *
dtype_row (HrSafetensors *st,
           const char    *name,
           guint          bits)
{
  HrSafetensorsDtype row = { 0 };

  for (guint i = 0; i < st->dtypes->len; i++)
    {
      HrSafetensorsDtype *d = &g_array_index (st->dtypes, HrSafetensorsDtype, i);

      if (strcmp (d->dtype, name) == 0)
        return d;
    }
  row.dtype = name;
  row.bits = bits;
  g_array_append_val (st->dtypes, row);
  return &g_array_index (st->dtypes, HrSafetensorsDtype, st->dtypes->len - 1);
}

static int
by_bytes_desc (gconstpointer a,
               gconstpointer b)
{
  const HrSafetensorsDtype *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return strcmp (x->dtype, y->dtype);
}

void
hr_safetensors_add (HrSafetensors       *sum,
                    const HrSafetensors *part)
{
  g_return_if_fail (sum != NULL && part != NULL);

  sum->header_len += part->header_len;
  sum->data_bytes += part->data_bytes;
  sum->elements += part->elements;
  sum->n_tensors += part->n_tensors;
  for (guint i = 0; i < part->dtypes->len; i++)
    {
      const HrSafetensorsDtype *p = &g_array_index (part->dtypes, HrSafetensorsDtype, i);
      HrSafetensorsDtype *d = dtype_row (sum, p->dtype, p->bits);

      d->elements += p->elements;
      d->bytes += p->bytes;
      d->n_tensors += p->n_tensors;
    }
  g_array_sort (sum->dtypes, by_bytes_desc);
  if (sum->format == NULL && part->format != NULL)
    sum->format = g_strdup (part->format);
}

gboolean
hr_safetensors_header_length (const guint8  *data,
                              gsize          len,
                              guint64       *json_len,
                              GError       **error)
{
  guint64 n = 0;

  if (len < 8)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_TRUNCATED,
                   "the file ends before its 8-byte header length (%" G_GSIZE_FORMAT " bytes)",
                   len);
      return FALSE;
    }
  for (int i = 7; i >= 0; i--)
    n = (n << 8) | data[i];
  if (n > HR_SAFETENSORS_MAX_HEADER)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_LIMIT,
                   "the header declares %.1f GiB of JSON; Headroom reads at most %d MB (not a "
                   "safetensors file, or a damaged one)", (double) n / (1 << 30),
                   HR_SAFETENSORS_MAX_HEADER / 1000000);
      return FALSE;
    }
  if (n < 2)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
                   "the header length %" G_GUINT64_FORMAT " is too short for a JSON object", n);
      return FALSE;
    }
  *json_len = n;
  return TRUE;
}

/* [a, b] of unsigned integers into @out (at most @max values). */
static gboolean
read_uint_array (HrJsonScan *scan,
                 guint64    *out,
                 guint       max,
                 guint      *n_out)
{
  guint n = 0;

  if (!hr_json_scan_expect (scan, '['))
    return FALSE;
  if (!hr_json_scan_accept (scan, ']'))
    {
      do
        {
          if (n == max)
            return hr_json_scan_fail (scan, "fewer dimensions");
          if (!hr_json_scan_uint (scan, &out[n++]))
            return FALSE;
        }
      while (hr_json_scan_accept (scan, ','));
      if (!hr_json_scan_expect (scan, ']'))
        return FALSE;
    }
  *n_out = n;
  return TRUE;
}

G_GNUC_PRINTF (2, 3)
static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  if (error == NULL || *error != NULL)
    return FALSE;
  va_start (args, format);
  *error = g_error_new_valist (HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID, format, args);
  va_end (args);
  return FALSE;
}

/* One tensor's {"dtype", "shape", "data_offsets"} (other members skipped, as serde does). */
static gboolean
read_tensor (HrJsonScan *scan,
             GString    *key,
             const char *name,
             Tensor     *t,
             GError    **error)
{
  guint64 shape[HR_SAFETENSORS_MAX_DIMS];
  guint64 offsets[2];
  guint n_dims = 0, n_offsets = 0;
  gboolean have_dtype = FALSE, have_shape = FALSE, have_offsets = FALSE;
  guint64 elements = 1;
  guint64 bits;

  if (!hr_json_scan_expect (scan, '{'))
    return FALSE;
  if (!hr_json_scan_accept (scan, '}'))
    {
      do
        {
          if (!hr_json_scan_string (scan, key, 64) || !hr_json_scan_expect (scan, ':'))
            return FALSE;
          if (strcmp (key->str, "dtype") == 0 && !have_dtype)
            {
              int i;

              if (!hr_json_scan_string (scan, key, 32))
                return FALSE;
              if ((i = dtype_index (key->str)) < 0)
                return invalid (error, "tensor “%s” has a dtype safetensors does not define",
                                name);
              t->dtype = (guint) i;
              have_dtype = TRUE;
            }
          else if (strcmp (key->str, "shape") == 0 && !have_shape)
            {
              if (!read_uint_array (scan, shape, HR_SAFETENSORS_MAX_DIMS, &n_dims))
                return FALSE;
              have_shape = TRUE;
            }
          else if (strcmp (key->str, "data_offsets") == 0 && !have_offsets)
            {
              if (!read_uint_array (scan, offsets, 2, &n_offsets))
                return FALSE;
              have_offsets = TRUE;
            }
          else if (strcmp (key->str, "dtype") == 0 || strcmp (key->str, "shape") == 0 ||
                   strcmp (key->str, "data_offsets") == 0)
            return invalid (error, "tensor “%s” gives a member twice", name);
          else if (!hr_json_scan_skip (scan, 8))
            return FALSE;
        }
      while (hr_json_scan_accept (scan, ','));
      if (!hr_json_scan_expect (scan, '}'))
        return FALSE;
    }
  if (!have_dtype || !have_shape || !have_offsets || n_offsets != 2)
    return invalid (error, "tensor “%s” lacks its dtype, shape or two data_offsets", name);

  for (guint i = 0; i < n_dims; i++)
    {
      if (shape[i] != 0 && elements > G_MAXINT64 / shape[i])
        return invalid (error, "the shape of tensor “%s” overflows", name);
      elements *= shape[i];
    }
  bits = dtypes[t->dtype].bits;
  if (elements > G_MAXUINT64 / 64 || (elements * bits) % 8 != 0)
    return invalid (error, "tensor “%s” does not fill whole bytes", name);
  if (offsets[1] < offsets[0] || offsets[1] - offsets[0] != elements * bits / 8)
    return invalid (error, "the data_offsets of tensor “%s” disagree with its shape and dtype",
                    name);
  t->begin = offsets[0];
  t->end = offsets[1];
  t->elements = elements;
  return TRUE;
}

/* {string: string}; "format" kept. */
static gboolean
read_metadata (HrJsonScan    *scan,
               GString       *key,
               HrSafetensors *st)
{
  g_autoptr(GString) value = g_string_new (NULL);
  guint n = 0;

  if (!hr_json_scan_expect (scan, '{'))
    return FALSE;
  if (hr_json_scan_accept (scan, '}'))
    return TRUE;
  do
    {
      if (++n > 4096)
        return hr_json_scan_fail (scan, "fewer __metadata__ entries");
      if (!hr_json_scan_string (scan, key, 256) || !hr_json_scan_expect (scan, ':') ||
          !hr_json_scan_string (scan, value, 1 << 20))
        return FALSE;
      if (strcmp (key->str, "format") == 0 && st->format == NULL && value->len < 32)
        st->format = g_strdup (value->str);
    }
  while (hr_json_scan_accept (scan, ','));
  return hr_json_scan_expect (scan, '}');
}

static int
tensor_by_offset (gconstpointer a,
                  gconstpointer b)
{
  const Tensor *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

static int
name_cmp (gconstpointer a,
          gconstpointer b,
          gpointer      names)
{
  const char *base = names;

  return strcmp (base + *(const guint *) a, base + *(const guint *) b);
}

/* Tensors sorted by offset must tile [0, end) exactly; names must be unique. */
static gboolean
check_layout (GArray      *tensors,
              GString     *names,
              guint64     *end,
              GError     **error)
{
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), tensors->len);
  guint64 at = 0;

  g_array_sort (tensors, tensor_by_offset);
  for (guint i = 0; i < tensors->len; i++)
    {
      const Tensor *t = &g_array_index (tensors, Tensor, i);

      if (t->begin != at)
        {
          if (t->begin < at)
            return invalid (error, "tensor “%s” overlaps the one before it", names->str + t->name);
          return invalid (error, "a gap lies before tensor “%s”", names->str + t->name);
        }
      at = t->end;
      g_array_append_val (order, t->name);
    }
  g_array_sort_with_data (order, name_cmp, names->str);
  for (guint i = 1; i < order->len; i++)
    if (strcmp (names->str + g_array_index (order, guint, i - 1),
                names->str + g_array_index (order, guint, i)) == 0)
      return invalid (error, "tensor “%s” is named twice",
                      names->str + g_array_index (order, guint, i));
  *end = at;
  return TRUE;
}

static gboolean
read_header (HrJsonScan    *scan,
             HrSafetensors *st,
             GArray        *tensors,
             GString       *names,
             GError       **error)
{
  g_autoptr(GString) key = g_string_new (NULL);
  g_autoptr(GString) name = g_string_new (NULL);
  gboolean have_metadata = FALSE;

  if (!hr_json_scan_expect (scan, '{'))
    return FALSE;
  if (hr_json_scan_accept (scan, '}'))
    return TRUE;
  do
    {
      if (!hr_json_scan_string (scan, name, HR_SAFETENSORS_MAX_NAME) ||
          !hr_json_scan_expect (scan, ':'))
        return FALSE;
      if (strcmp (name->str, "__metadata__") == 0)
        {
          if (have_metadata)
            return invalid (error, "%s is given twice", "__metadata__");
          have_metadata = TRUE;
          if (!read_metadata (scan, key, st))
            return FALSE;
          continue;
        }
      {
        Tensor t = { 0 };

        if (tensors->len >= HR_SAFETENSORS_MAX_TENSORS)
          {
            g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_LIMIT,
                         "the header holds more than %d tensors", HR_SAFETENSORS_MAX_TENSORS);
            return FALSE;
          }
        t.name = names->len;
        g_string_append_len (names, name->str, (gssize) name->len + 1);
        if (!read_tensor (scan, key, name->str, &t, error))
          return FALSE;
        g_array_append_val (tensors, t);
      }
    }
  while (hr_json_scan_accept (scan, ','));
  return hr_json_scan_expect (scan, '}');
}

HrSafetensors *
hr_safetensors_parse (const guint8  *data,
                      gsize          len,
                      guint64        file_size,
                      GError       **error)
{
  g_autoptr(HrSafetensors) st = NULL;
  g_autoptr(GArray) tensors = NULL;
  g_autoptr(GString) names = NULL;
  g_autoptr(GError) local = NULL;
  HrJsonScan scan;
  guint64 n, end = 0;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!hr_safetensors_header_length (data, len, &n, error))
    return NULL;
  if (len - 8 < n)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_TRUNCATED,
                   "the file ends inside its header (%" G_GSIZE_FORMAT " of %" G_GUINT64_FORMAT
                   " bytes)", len - 8, n);
      return NULL;
    }

  st = hr_safetensors_new_empty ();
  st->header_len = n;
  tensors = g_array_new (FALSE, FALSE, sizeof (Tensor));
  names = g_string_new (NULL);
  hr_json_scan_init (&scan, (const char *) data + 8, (gsize) n, &local);
  /* The library pads the JSON with spaces to 8 bytes; nothing else may follow it. */
  if (!read_header (&scan, st, tensors, names, &local) ||
      (hr_json_scan_more (&scan) && !hr_json_scan_fail (&scan, "the end of the header")))
    {
      if (local->domain != HR_SAFETENSORS_ERROR)
        {
          g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
                       "the header is not valid JSON: %s", local->message);
          return NULL;
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!check_layout (tensors, names, &end, error))
    return NULL;
  if (file_size > 0 && file_size != 8 + n + end)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
                   "the header accounts for %" G_GUINT64_FORMAT " bytes but the file has %"
                   G_GUINT64_FORMAT, 8 + n + end, file_size);
      return NULL;
    }

  st->data_bytes = end;
  st->n_tensors = tensors->len;
  for (guint i = 0; i < tensors->len; i++)
    {
      const Tensor *t = &g_array_index (tensors, Tensor, i);
      HrSafetensorsDtype *d = dtype_row (st, dtypes[t->dtype].name, dtypes[t->dtype].bits);

      d->elements += t->elements;
      d->bytes += t->end - t->begin;
      d->n_tensors++;
      st->elements += t->elements;
    }
  g_array_sort (st->dtypes, by_bytes_desc);
  return g_steal_pointer (&st);
}

/* ------------------------------------------------------------------------------------------ */
/* model.safetensors.index.json                                                                 */

static gboolean
read_weight_map (HrJsonScan *scan,
                 GPtrArray  *files)
{
  g_autoptr(GString) key = g_string_new (NULL);
  g_autoptr(GString) value = g_string_new (NULL);
  const char *last = NULL;

  if (!hr_json_scan_expect (scan, '{'))
    return FALSE;
  if (hr_json_scan_accept (scan, '}'))
    return TRUE;
  do
    {
      if (files->len > HR_SAFETENSORS_MAX_TENSORS)
        return hr_json_scan_fail (scan, "fewer weight_map entries");
      if (!hr_json_scan_string (scan, key, HR_SAFETENSORS_MAX_NAME) ||
          !hr_json_scan_expect (scan, ':') || !hr_json_scan_string (scan, value, 256))
        return FALSE;
      /* consecutive tensors mostly sit in one shard: keep one name per run */
      if (last == NULL || strcmp (last, value->str) != 0)
        {
          g_ptr_array_add (files, g_strdup (value->str));
          last = g_ptr_array_index (files, files->len - 1);
        }
    }
  while (hr_json_scan_accept (scan, ','));
  return hr_json_scan_expect (scan, '}');
}

static gboolean
read_index_metadata (HrJsonScan *scan,
                     guint64    *total_size)
{
  g_autoptr(GString) key = g_string_new (NULL);

  if (!hr_json_scan_expect (scan, '{'))
    return FALSE;
  if (hr_json_scan_accept (scan, '}'))
    return TRUE;
  do
    {
      if (!hr_json_scan_string (scan, key, 256) || !hr_json_scan_expect (scan, ':'))
        return FALSE;
      if (strcmp (key->str, "total_size") == 0 && hr_json_scan_more (scan) &&
          g_ascii_isdigit (*scan->p))
        {
          if (!hr_json_scan_uint (scan, total_size))
            return FALSE;
        }
      else if (!hr_json_scan_skip (scan, 8))
        return FALSE;
    }
  while (hr_json_scan_accept (scan, ','));
  return hr_json_scan_expect (scan, '}');
}

static int
str_cmp (gconstpointer a,
         gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static gboolean
shard_name_ok (const char *name)
{
  /* a file of the repo's top level, as transformers writes them */
  return *name != '\0' && *name != '.' && strchr (name, '/') == NULL &&
         strchr (name, '\\') == NULL && g_str_has_suffix (name, ".safetensors");
}

GStrv
hr_safetensors_index_parse (const char  *json,
                            gsize        len,
                            guint64     *total_size,
                            GError     **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) key = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  gboolean have_map = FALSE;
  HrJsonScan scan;
  GPtrArray *unique;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  *total_size = 0;
  if (len > HR_SAFETENSORS_INDEX_MAX_SIZE)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_LIMIT,
                   "the index is larger than %d MiB", HR_SAFETENSORS_INDEX_MAX_SIZE >> 20);
      return NULL;
    }
  hr_json_scan_init (&scan, json, len, &local);
  if (!hr_json_scan_expect (&scan, '{'))
    goto bad;
  if (!hr_json_scan_accept (&scan, '}'))
    {
      do
        {
          if (!hr_json_scan_string (&scan, key, 256) || !hr_json_scan_expect (&scan, ':'))
            goto bad;
          if (strcmp (key->str, "weight_map") == 0 && !have_map)
            {
              have_map = TRUE;
              if (!read_weight_map (&scan, files))
                goto bad;
            }
          else if (strcmp (key->str, "metadata") == 0 && hr_json_scan_more (&scan) &&
                   *scan.p == '{')
            {
              if (!read_index_metadata (&scan, total_size))
                goto bad;
            }
          else if (!hr_json_scan_skip (&scan, 16))
            goto bad;
        }
      while (hr_json_scan_accept (&scan, ','));
      if (!hr_json_scan_expect (&scan, '}'))
        goto bad;
    }
  if (hr_json_scan_more (&scan) && !hr_json_scan_fail (&scan, "the end of the document"))
    goto bad;
  if (!have_map || files->len == 0)
    {
      g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
                   "the index has no weight_map naming its shards");
      return NULL;
    }

  g_ptr_array_sort (files, str_cmp);
  unique = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < files->len; i++)
    {
      const char *f = g_ptr_array_index (files, i);

      if (i > 0 && strcmp (f, g_ptr_array_index (files, i - 1)) == 0)
        continue;
      if (!shard_name_ok (f))
        {
          g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
                       "the index names “%s”, not a .safetensors file beside it", f);
          g_ptr_array_free (unique, TRUE);
          return NULL;
        }
      g_ptr_array_add (unique, g_strdup (f));
    }
  g_ptr_array_add (unique, NULL);
  g_ptr_array_set_free_func (unique, NULL);
  return (GStrv) g_ptr_array_free (unique, FALSE);

bad:
  g_set_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID,
               "not a model.safetensors.index.json: %s", local->message);
  return NULL;
}
