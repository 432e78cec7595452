/* test-cli-detect.c — `headroom-cli detect` and `--gpu this` as a user runs them, on fake
 * /proc and /sys trees (HEADROOM_SYSROOT) with a fake nvidia-smi first on PATH. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "hr-test-cli.h"
#include "hr-test-machine.h"

static const char *cli;


/* A machine: 16 GiB of RAM, a Ryzen 9 7950X, and @smi as nvidia-smi's output (NULL: none). */
static char *
machine (const char *smi)
{
  g_autoptr(GError) error = NULL;
  char *root = g_dir_make_tmp ("headroom-cli-detect-XXXXXX", &error);
  GString *cpuinfo = g_string_new (NULL);

  g_assert_no_error (error);
  for (int i = 0; i < 16; i++)
    g_string_append_printf (cpuinfo, "processor\t: %d\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
                                     "physical id\t: 0\ncore id\t: %d\n\n", i, i / 2);
  hr_test_put (root, "proc/cpuinfo", cpuinfo->str, 0644);
  hr_test_put (root, "proc/meminfo", "MemTotal:       16777216 kB\nMemAvailable:   15728640 kB\n", 0644);
  g_string_free (cpuinfo, TRUE);
  if (smi)
    {
      g_autofree char *script = g_strdup_printf ("#!/bin/sh\nprintf '%s'\n", smi);
      hr_test_put (root, "bin/nvidia-smi", script, 0755);
    }
  else
    g_assert_cmpint (g_mkdir_with_parents (g_build_filename (root, "bin", NULL), 0755), ==, 0);
  return root;
}

static void
remove_tree (const char *root)
{
  const char *argv[] = { "/bin/rm", "-rf", root, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
}

static void
run_on (HrTestRun  *r,
        const char *root,
        ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *bin = g_build_filename (root, "bin", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  va_start (ap, root);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "HEADROOM_SYSROOT", root, TRUE);
  envp = g_environ_setenv (envp, "PATH", bin, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  hr_test_run_spawn (r, argv, envp);
}

static JsonObject *
parse (JsonParser *parser,
       const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_detect_two_gpus (void)
{
  g_autofree char *root = machine ("0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n"
                                   "1, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 12\\n");
  g_autoptr(JsonParser) parser = json_parser_new ();
  HrTestRun r = { 0 };
  JsonObject *o, *dev, *g0;
  JsonArray *gpus;

  run_on (&r, root, "detect", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  gpus = json_object_get_array_member (o, "gpus");
  g_assert_cmpuint (json_array_get_length (gpus), ==, 2);
  g0 = json_array_get_object_element (gpus, 0);
  g_assert_cmpstr (json_object_get_string_member (g0, "match"), ==, "rtx-4090-24gb");
  g_assert_cmpstr (json_object_get_string_member (g0, "match_by"), ==, "PCI id");
  g_assert_cmpstr (json_object_get_string_member (g0, "pci_id"), ==, "10de:2684");
  g_assert_cmpint (json_object_get_int_member (g0, "vram_used_bytes"), ==, 1331LL << 20);
  dev = json_object_get_object_member (o, "device");
  g_assert_cmpint (json_object_get_int_member (dev, "count"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (dev, "backend"), ==, "cuda");
  g_assert_cmpfloat (json_object_get_double_member (o, "ram_bandwidth_gbs"), ==, 83.2);
  hr_test_run_clear (&r);

  /* two alike GPUs become the GPU count */
  run_on (&r, root, "estimate", "--model", "qwen3-8b", "--gpu", "this", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  g_assert_cmpint (json_object_get_int_member (o, "gpus"), ==, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "physical_gib"), 2 * 24564 / 1024.0, 0.006);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  hr_test_run_clear (&r);

  /* --gpus still wins; the text names what the desktop already uses */
  run_on (&r, root, "estimate", "--model", "qwen3-8b", "--gpu", "this", "--gpus", "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "already use 1.30 GiB of this GPU"));
  hr_test_run_clear (&r);

  run_on (&r, root, "estimate", "--model", "qwen3-8b", "--gpu", "this", "--gpus", "1",
          "--free-memory", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "physical_gib"), (24564 - 1331) / 1024.0, 0.006);
  hr_test_run_clear (&r);

  run_on (&r, root, "compare", "--model", "qwen3-8b", "--gpu", "this", "--gpu", "rtx-3090-24gb", "--csv", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "RTX 4090"));
  g_assert_nonnull (strstr (r.out, "RTX 3090"));
  hr_test_run_clear (&r);
  remove_tree (root);
}

static void
test_cpu_only (void)
{
  g_autofree char *root = machine (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  HrTestRun r = { 0 };
  JsonObject *o;
  double decode;

  run_on (&r, root, "detect", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "none found"));
  g_assert_nonnull (strstr (r.out, "AMD Ryzen 9 7950X 16-Core Processor + system RAM"));
  hr_test_run_clear (&r);

  run_on (&r, root, "estimate", "--model", "qwen3-8b", "--gpu", "this", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  g_assert_cmpfloat (json_object_get_double_member (o, "physical_gib"), ==, 16);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  /* 83.2 GB/s of dual-channel DDR5-5200 for ~5.3 GiB a token: 9–10 tok/s */
  decode = json_object_get_double_member (o, "decode_tps");
  g_assert_cmpfloat (decode, >, 8);
  g_assert_cmpfloat (decode, <, 11);
  hr_test_run_clear (&r);
  remove_tree (root);
}

static void
test_nothing (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("headroom-cli-detect-XXXXXX", &error);
  HrTestRun r = { 0 };

  /* a container that shows nothing: detect still succeeds, --gpu this fails in one line */
  run_on (&r, root, "detect", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "nothing usable found"));
  hr_test_run_clear (&r);
  run_on (&r, root, "estimate", "--model", "qwen3-8b", "--gpu", "this", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "headroom-cli: --gpu this:"));
  g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, strlen (r.err) - 1);
  hr_test_run_clear (&r);
  remove_tree (root);
}

static char *
read_cache (const char *root)
{
  g_autofree char *path = g_build_filename (root, "cache", "headroom", "ram-bandwidth", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
write_cache (const char *root,
             const char *text)
{
  g_autofree char *path = g_build_filename (root, "cache", "headroom", "ram-bandwidth", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* A CPU the bandwidth table does not know: its RAM bandwidth is measured once (the best of
 * 3 reads; HEADROOM_RAM_MEASURE_MIB lets it run under a fake root, on 8 MiB), cached with its
 * date, read back from the cache (an older version's undated cache too) and measured again
 * with --remeasure. */
static void
test_ram_measure (void)
{
  g_autofree char *root = machine (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *key = "Mystery CPU 9000|2|16384";
  g_autofree char *cpuinfo = g_build_filename (root, "proc", "cpuinfo", NULL);
  g_autofree char *cache = NULL;
  g_autofree char *dated = NULL, *undated = NULL;
  g_auto(GStrv) lines = NULL;
  HrTestRun r = { 0 };
  JsonObject *o;
  double first;

  g_assert_true (g_file_set_contents (cpuinfo, "processor\t: 0\nmodel name\t: Mystery CPU 9000\n"
                                               "processor\t: 1\nmodel name\t: Mystery CPU 9000\n", -1, NULL));
  g_setenv ("HEADROOM_RAM_MEASURE_MIB", "8", TRUE);

  /* measured, cached with today's date */
  run_on (&r, root, "detect", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  first = json_object_get_double_member (o, "ram_bandwidth_gbs");
  g_assert_cmpfloat (first, >, 0.1);
  g_assert_nonnull (json_object_get_string_member (o, "ram_bandwidth_measured"));
  g_assert_nonnull (strstr (json_object_get_string_member (o, "ram_bandwidth_source"), "best of 3"));
  cache = read_cache (root);
  lines = g_strsplit (cache, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);   /* key, GB/s, date, "" */
  g_assert_cmpstr (lines[0], ==, key);
  g_assert_cmpstr (lines[2], ==, json_object_get_string_member (o, "ram_bandwidth_measured"));
  hr_test_run_clear (&r);

  /* the cache is read back with its date, not measured again */
  dated = g_strdup_printf ("%s\n12.5\n2026-01-02T03:04:05Z\n", key);
  write_cache (root, dated);
  run_on (&r, root, "detect", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  g_assert_cmpfloat (json_object_get_double_member (o, "ram_bandwidth_gbs"), ==, 12.5);
  g_assert_cmpstr (json_object_get_string_member (o, "ram_bandwidth_measured"), ==, "2026-01-02T03:04:05Z");
  hr_test_run_clear (&r);
  run_on (&r, root, "detect", NULL);
  g_assert_nonnull (strstr (r.out, "12.5 GB/s (measured on this machine on 2026-01-02"));
  hr_test_run_clear (&r);

  /* an older version's cache, without a date: still used */
  undated = g_strdup_printf ("%s\n7.5\n", key);
  write_cache (root, undated);
  run_on (&r, root, "detect", "--json", NULL);
  o = parse (parser, r.out);
  g_assert_cmpfloat (json_object_get_double_member (o, "ram_bandwidth_gbs"), ==, 7.5);
  g_assert_true (json_object_get_null_member (o, "ram_bandwidth_measured"));
  g_assert_nonnull (strstr (json_object_get_string_member (o, "ram_bandwidth_source"), "date unknown"));
  hr_test_run_clear (&r);

  /* --remeasure: measured now, cached again with its date */
  run_on (&r, root, "detect", "--remeasure", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  g_assert_cmpfloat (json_object_get_double_member (o, "ram_bandwidth_gbs"), !=, 7.5);
  g_assert_nonnull (json_object_get_string_member (o, "ram_bandwidth_measured"));
  g_clear_pointer (&cache, g_free);
  cache = read_cache (root);
  g_assert_false (g_str_equal (cache, undated));
  g_assert_nonnull (strstr (cache, json_object_get_string_member (o, "ram_bandwidth_measured")));
  hr_test_run_clear (&r);

  g_unsetenv ("HEADROOM_RAM_MEASURE_MIB");
  remove_tree (root);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cli = g_getenv ("HEADROOM_CLI");
  if (cli == NULL)
    {
      g_test_skip ("HEADROOM_CLI not set");
      return 77;
    }
  g_test_add_func ("/cli/detect/two-gpus", test_detect_two_gpus);
  g_test_add_func ("/cli/detect/cpu-only", test_cpu_only);
  g_test_add_func ("/cli/detect/nothing", test_nothing);
  g_test_add_func ("/cli/detect/ram-measure", test_ram_measure);
  return g_test_run ();
}
