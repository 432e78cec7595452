/* hr-hash.c — hash tables keyed by names that come from outside
 *
 * SipHash-2-4 as specified in "SipHash: a fast short-input PRF" (Aumasson, Bernstein, 2012),
 * checked against the paper's test vector in tests/test-json.c (/hash/siphash-vector).  The
 * key is 16 bytes from getrandom(), drawn on first use.
 */
#include "hr-hash.h"

#include <string.h>
#include <sys/random.h>

#define ROTL(x, b) (guint64) (((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                        \
  G_STMT_START {                                                        \
    v0 += v1; v1 = ROTL (v1, 13); v1 ^= v0; v0 = ROTL (v0, 32);         \
    v2 += v3; v3 = ROTL (v3, 16); v3 ^= v2;                             \
    v0 += v3; v3 = ROTL (v3, 21); v3 ^= v0;                             \
    v2 += v1; v1 = ROTL (v1, 17); v1 ^= v2; v2 = ROTL (v2, 32);         \
  } G_STMT_END

static guint8 process_key[16];

static guint64
read_le64 (const guint8 *p)
{
  guint64 v = 0;

  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

guint64
hr_siphash24 (const guint8  key[16],
              const void   *data,
              gsize         len)
{
  const guint8 *in = data;
  guint64 k0 = read_le64 (key), k1 = read_le64 (key + 8);
  guint64 v0 = k0 ^ G_GUINT64_CONSTANT (0x736f6d6570736575);
  guint64 v1 = k1 ^ G_GUINT64_CONSTANT (0x646f72616e646f6d);
  guint64 v2 = k0 ^ G_GUINT64_CONSTANT (0x6c7967656e657261);
  guint64 v3 = k1 ^ G_GUINT64_CONSTANT (0x7465646279746573);
  guint64 last = (guint64) len << 56;
  gsize whole = len - len % 8;

  for (gsize i = 0; i < whole; i += 8)
    {
      guint64 m = read_le64 (in + i);

      v3 ^= m;
      SIPROUND;
      SIPROUND;
      v0 ^= m;
    }
  for (gsize i = whole; i < len; i++)
    last |= (guint64) in[i] << (8 * (i - whole));
  v3 ^= last;
  SIPROUND;
  SIPROUND;
  v0 ^= last;
  v2 ^= 0xff;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

static const guint8 *
get_key (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      gsize have = 0;

      while (have < sizeof process_key)
        {
          gssize n = getrandom (process_key + have, sizeof process_key - have, 0);

          if (n <= 0)
            break;
          have += (gsize) n;
        }
      /* No getrandom() (an old kernel, a seccomp filter): GLib's generator, itself seeded
       * from /dev/urandom. */
      for (gsize i = have; i < sizeof process_key; i++)
        process_key[i] = (guint8) g_random_int ();
      g_once_init_leave (&done, 1);
    }
  return process_key;
}

guint
hr_name_hash (gconstpointer name)
{
  const char *s = name;
  guint64 h = hr_siphash24 (get_key (), s, strlen (s));

  return (guint) (h ^ (h >> 32));
}

gboolean
hr_name_equal (gconstpointer a,
               gconstpointer b)
{
  return strcmp (a, b) == 0;
}

GHashTable *
hr_name_table_new (GDestroyNotify key_destroy,
                   GDestroyNotify value_destroy)
{
  return g_hash_table_new_full (hr_name_hash, hr_name_equal, key_destroy, value_destroy);
}
