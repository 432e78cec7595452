/* safetensors-writer.h — builds safetensors file prefixes for the tests, as the safetensors
 * library writes them: the 8-byte little-endian length, the JSON (padded with spaces to a
 * multiple of 8), and the tensors' data laid out in the order given.  The expected figures of a
 * test are summed here from what was written, not taken from the code under test. */
#pragma once

#include <glib.h>
#include <string.h>

typedef struct
{
  const char *name;
  const char *dtype;
  guint bits;              /* per element, as the test knows it */
  gint64 shape[4];         /* -1 ends it */
} StTensor;

typedef struct
{
  GByteArray *file;        /* header only: 8 + N bytes */
  guint64 data_bytes;      /* the tensors' bytes the header declares */
  guint64 elements;
  guint64 file_size;       /* 8 + N + data_bytes */
} StWritten;

static inline guint64
st_elements (const StTensor *t)
{
  guint64 n = 1;

  for (int d = 0; d < 4 && t->shape[d] >= 0; d++)
    n *= (guint64) t->shape[d];
  return n;
}

/* @metadata: the __metadata__ object's JSON text, or NULL. */
static inline StWritten
st_write (const StTensor *tensors,
          guint           n,
          const char     *metadata)
{
  GString *json = g_string_new ("{");
  StWritten w = { 0 };
  guint64 at = 0;
  guint64 len;

  if (metadata != NULL)
    g_string_append_printf (json, "\"__metadata__\":%s", metadata);
  for (guint i = 0; i < n; i++)
    {
      guint64 bytes = st_elements (&tensors[i]) * tensors[i].bits / 8;

      if (json->len > 1)
        g_string_append_c (json, ',');
      g_string_append_printf (json, "\"%s\":{\"dtype\":\"%s\",\"shape\":[", tensors[i].name,
                              tensors[i].dtype);
      for (int d = 0; d < 4 && tensors[i].shape[d] >= 0; d++)
        g_string_append_printf (json, "%s%" G_GINT64_FORMAT, d > 0 ? "," : "", tensors[i].shape[d]);
      g_string_append_printf (json, "],\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}",
                              at, at + bytes);
      at += bytes;
      w.elements += st_elements (&tensors[i]);
    }
  g_string_append_c (json, '}');
  while (json->len % 8 != 0)
    g_string_append_c (json, ' ');
  len = json->len;
  w.file = g_byte_array_new ();
  for (int i = 0; i < 8; i++)
    {
      guint8 b = (guint8) (len >> (8 * i));
      g_byte_array_append (w.file, &b, 1);
    }
  g_byte_array_append (w.file, (const guint8 *) json->str, json->len);
  g_string_free (json, TRUE);
  w.data_bytes = at;
  w.file_size = 8 + len + at;
  return w;
}

/* A raw header: the length field says @declared, followed by @json. */
static inline GByteArray *
st_raw (guint64     declared,
        const char *json)
{
  GByteArray *b = g_byte_array_new ();

  for (int i = 0; i < 8; i++)
    {
      guint8 c = (guint8) (declared >> (8 * i));
      g_byte_array_append (b, &c, 1);
    }
  g_byte_array_append (b, (const guint8 *) json, strlen (json));
  return b;
}
