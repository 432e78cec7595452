/* hr-hash.h — hash tables keyed by names that come from outside (files, feeds, the network)
 *
 * g_str_hash is djb2: anyone can write thousands of names with one hash value ("Az", "BY" and
 * "C8" add the same to it), and a GHashTable then compares each new name with every earlier
 * one, n²/2 string comparisons.  hr_name_hash is SipHash-2-4 under a key drawn at random once
 * per process, so which names collide cannot be known in advance.  Use it for every table
 * whose keys a file or a server chose; g_str_hash stays fine for names the code itself wrote.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* SipHash-2-4 of @len bytes at @data under the 16-byte @key (Aumasson & Bernstein, 2012). */
guint64     hr_siphash24        (const guint8  key[16],
                                 const void   *data,
                                 gsize         len);

/* A GHashFunc / GEqualFunc pair for NUL-terminated names, the hash keyed per process. */
guint       hr_name_hash        (gconstpointer name);
gboolean    hr_name_equal       (gconstpointer a,
                                 gconstpointer b);

/* g_hash_table_new_full (hr_name_hash, hr_name_equal, @key_destroy, @value_destroy). */
GHashTable *hr_name_table_new   (GDestroyNotify key_destroy,
                                 GDestroyNotify value_destroy);

G_END_DECLS
