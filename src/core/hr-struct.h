/* hr-struct.h — plain-data structs that own strings: copied and freed from one list
 *
 * A struct lists the offsets of its owned strings once (G_STRUCT_OFFSET); its _copy and _free
 * both walk that list, so a string added to the struct cannot be copied but not freed, or
 * freed but shared with the original.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A copy of the @size bytes at @data whose strings at @offsets are copies too. */
gpointer  hr_struct_copy         (gconstpointer  data,
                                  gsize          size,
                                  const gsize   *offsets,
                                  gsize          n_offsets);
/* Frees the strings at @offsets in @data, then @data.  NULL is ignored. */
void      hr_struct_free         (gpointer       data,
                                  const gsize   *offsets,
                                  gsize          n_offsets);

G_END_DECLS
