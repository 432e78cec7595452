/* test-fuzz-replay.c — every fuzz corpus file through the fuzzers' entry points
 *
 * The fuzz sources are compiled into this test with their LLVMFuzzerTestOneInput renamed, so
 * every normal build re-checks the seeds and the crashers the fuzzers once found.
 */
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "hostile-gen.h"

/* What one generated seed may take through its fuzzer's entry point: generous (a debug or
 * sanitizer build on a loaded machine); the full-size inputs took minutes before #27. */
#define SEED_SECONDS 30

int hr_fuzz_gguf (const uint8_t *data, size_t size);
int hr_fuzz_hfconfig (const uint8_t *data, size_t size);
int hr_fuzz_catalog (const uint8_t *data, size_t size);
int hr_fuzz_skypilot (const uint8_t *data, size_t size);
int hr_fuzz_detect (const uint8_t *data, size_t size);
int hr_fuzz_runs (const uint8_t *data, size_t size);
int hr_fuzz_calibration (const uint8_t *data, size_t size);
int hr_fuzz_hub_id (const uint8_t *data, size_t size);
int hr_fuzz_safetensors (const uint8_t *data, size_t size);
int hr_fuzz_hub (const uint8_t *data, size_t size);

typedef struct
{
  const char *target;
  int (*entry) (const uint8_t *data, size_t size);
} Target;

static const Target targets[] = {
  { "gguf", hr_fuzz_gguf },
  { "hfconfig", hr_fuzz_hfconfig },
  { "catalog", hr_fuzz_catalog },
  { "skypilot", hr_fuzz_skypilot },
  { "safetensors", hr_fuzz_safetensors },
  { "hub", hr_fuzz_hub },
  { "detect", hr_fuzz_detect },
  { "runs", hr_fuzz_runs },
  { "calibration", hr_fuzz_calibration },
  { "hub-id", hr_fuzz_hub_id },
};

static void
replay (gconstpointer user_data)
{
  const Target *t = user_data;
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", t->target, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  const char *name;
  guint n = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      g_assert_true (g_file_get_contents (path, &contents, &len, &error));
      g_assert_no_error (error);
      g_test_message ("%s/%s (%" G_GSIZE_FORMAT " bytes)", t->target, name, len);
      g_assert_cmpint (t->entry ((const uint8_t *) contents, len), ==, 0);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
}

/* The hostile inputs (tests/hostile-gen.h: names colliding under g_str_hash, a split part that
 * lies, a feed as heavy as allowed) through the entry point of the fuzzer that reads each kind,
 * as build-aux/test-fuzz.sh gives them to the fuzzers as seeds; each within SEED_SECONDS. */
static void
replay_hostile (void)
{
  g_autoptr(GPtrArray) seeds = hostile_seeds_new ();
  GHashTable *covered = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < seeds->len; i++)
    {
      const HostileSeed *seed = g_ptr_array_index (seeds, i);
      const Target *t = NULL;
      gint64 start = g_get_monotonic_time (), took;
      gsize len;
      const uint8_t *data = g_bytes_get_data (seed->bytes, &len);

      for (guint k = 0; k < G_N_ELEMENTS (targets); k++)
        if (g_str_equal (targets[k].target, seed->target))
          t = &targets[k];
      g_assert_nonnull (t);
      g_assert_cmpint (t->entry (data, len), ==, 0);
      took = g_get_monotonic_time () - start;
      g_test_message ("%s/%s (%" G_GSIZE_FORMAT " bytes): %.3f s", seed->target, seed->name, len, took / 1e6);
      g_assert_cmpint (took, <, SEED_SECONDS * G_USEC_PER_SEC);
      g_hash_table_add (covered, (gpointer) seed->target);
    }
  /* the kinds the issue named: GGUF (colliding, split), config.json, the feed, SkyPilot */
  g_assert_cmpuint (g_hash_table_size (covered), ==, 4);
  g_hash_table_unref (covered);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/fuzz-replay/%s", targets[i].target);
      g_test_add_data_func (path, &targets[i], replay);
    }
  g_test_add_func ("/fuzz-replay/hostile-seeds", replay_hostile);
  return g_test_run ();
}
