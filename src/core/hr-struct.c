/* hr-struct.c — plain-data structs that own strings (hr-struct.h) */
#include "hr-struct.h"

gpointer
hr_struct_copy (gconstpointer  data,
                gsize          size,
                const gsize   *offsets,
                gsize          n_offsets)
{
  gpointer copy = g_memdup2 (data, size);

  for (gsize i = 0; i < n_offsets; i++)
    {
      char **field = G_STRUCT_MEMBER_P (copy, offsets[i]);

      *field = g_strdup (*field);
    }
  return copy;
}

void
hr_struct_free (gpointer      data,
                const gsize  *offsets,
                gsize         n_offsets)
{
  if (data == NULL)
    return;
  for (gsize i = 0; i < n_offsets; i++)
    g_free (G_STRUCT_MEMBER (char *, data, offsets[i]));
  g_free (data);
}
