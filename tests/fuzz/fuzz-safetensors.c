/* fuzz-safetensors.c — libFuzzer entry point for the safetensors header and index readers.
 * The first byte picks: even, a file prefix (header length, JSON); odd, an index. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-safetensors.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;

  if (size < 1 || size > 4 * 1024 * 1024)
    return 0;
  if ((data[0] & 1) == 0)
    {
      g_autoptr(HrSafetensors) st = hr_safetensors_parse (data + 1, size - 1, 0, &error);
      guint64 bytes = 0, elements = 0;

      g_assert ((st == NULL) == (error != NULL));
      if (st != NULL)
        {
          g_autoptr(HrSafetensors) sum = hr_safetensors_new_empty ();

          for (guint i = 0; i < st->dtypes->len; i++)
            {
              const HrSafetensorsDtype *d = &g_array_index (st->dtypes, HrSafetensorsDtype, i);

              g_assert (hr_safetensors_dtype_bits (d->dtype) == d->bits);
              bytes += d->bytes;
              elements += d->elements;
            }
          g_assert (bytes == st->data_bytes);
          g_assert (elements == st->elements);
          g_assert (st->header_len + 8 <= size - 1);
          hr_safetensors_add (sum, st);
          hr_safetensors_add (sum, st);
          g_assert (sum->data_bytes == 2 * st->data_bytes);
        }
    }
  else
    {
      guint64 total = 0;
      g_auto(GStrv) files = hr_safetensors_index_parse ((const char *) data + 1, size - 1,
                                                        &total, &error);

      g_assert ((files == NULL) == (error != NULL));
      for (guint i = 0; files != NULL && files[i] != NULL; i++)
        {
          g_assert (g_str_has_suffix (files[i], ".safetensors"));
          g_assert (strchr (files[i], '/') == NULL);
          if (i > 0)
            g_assert (strcmp (files[i - 1], files[i]) < 0);
        }
    }
  return 0;
}
