/* make-hostile-seeds.c — writes the generated hostile inputs as fuzz seeds
 *
 *   make-hostile-seeds DIR
 *
 * DIR/<target>/hostile-… for each input of hostile_seeds_new () (tests/hostile-gen.h):
 * build-aux/test-fuzz.sh runs it so the fuzzers start from them too; they are made, not
 * committed (the full-size ones are megabytes).
 */
#include <glib.h>
#include <glib/gstdio.h>

#include "hostile-gen.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) seeds = NULL;

  if (argc != 2)
    {
      g_printerr ("usage: make-hostile-seeds DIR\n");
      return 2;
    }
  seeds = hostile_seeds_new ();
  for (guint i = 0; i < seeds->len; i++)
    {
      const HostileSeed *seed = g_ptr_array_index (seeds, i);
      g_autofree char *dir = g_build_filename (argv[1], seed->target, NULL);
      g_autofree char *path = g_build_filename (dir, seed->name, NULL);
      g_autoptr(GError) error = NULL;
      gsize len;
      const char *data = g_bytes_get_data (seed->bytes, &len);

      if (g_mkdir_with_parents (dir, 0755) != 0 ||
          !g_file_set_contents (path, data, (gssize) len, &error))
        {
          g_printerr ("make-hostile-seeds: cannot write %s: %s\n", path,
                      error ? error->message : g_strerror (errno));
          return 1;
        }
    }
  return 0;
}
