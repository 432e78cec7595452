/* test-cli-check.c — `headroom-cli check` as a user runs it: real engine outputs
 * (tests/fixtures/runs/, see SOURCES.md there), standard input, and what it must refuse. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "hr-test-cli.h"

static const char *cli;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrTestRun, hr_test_run_clear)

static void
run_check (HrTestRun *r,
           ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, "check");
  va_start (ap, r);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (r, argv, NULL);
}

/* headroom-cli with @envp and the arguments after it */
static void
run_env (HrTestRun  *r,
         char      **envp,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  va_start (ap, envp);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (r, argv, envp);
}

static char *
fixture (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "runs", name, NULL);
}

static void
assert_one_line_error (const HrTestRun *r,
                       int              status,
                       const char      *fragment)
{
  g_assert_cmpint (r->status, ==, status);
  g_assert_cmpstr (r->out, ==, "");
  g_assert_true (g_str_has_prefix (r->err, "headroom-cli"));
  g_assert_nonnull (strstr (r->err, fragment));
  g_assert_cmpint (strchr (r->err, '\n') - r->err, ==, (int) strlen (r->err) - 1);
}

static JsonObject *
figure (JsonObject *run,
        const char *quantity)
{
  JsonArray *figures = json_object_get_array_member (run, "figures");

  for (guint i = 0; i < json_array_get_length (figures); i++)
    {
      JsonObject *f = json_array_get_object_element (figures, i);
      if (g_str_equal (json_object_get_string_member (f, "quantity"), quantity))
        return f;
    }
  return NULL;
}

/* A llama-bench table with the GPU named on the command line: the tg128 run is predicted for
 * the model llama.cpp describes (Llama 3.2 3B) and the error is the two figures' ratio. */
static void
test_bench_json (void)
{
  g_auto(HrTestRun) r = { 0 };
  g_autofree char *path = fixture ("bench-vulkan-rx580.md");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *run, *f;
  JsonArray *runs;
  double measured, predicted;

  run_check (&r, path, "--gpu", "rx-7900-xt-20gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "llama-bench-markdown");
  runs = json_object_get_array_member (root, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 3);
  run = json_array_get_object_element (runs, 2);
  g_assert_true (json_object_get_boolean_member (run, "mapped"));
  g_assert_cmpstr (json_object_get_string_member (run, "build"), ==, "e598697d (4696)");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (run, "scenario"), "model"),
                   ==, "llama-3.2-3b");
  f = figure (run, "decode_tps");
  g_assert_nonnull (f);
  measured = json_object_get_double_member (f, "measured");
  predicted = json_object_get_double_member (f, "predicted");
  g_assert_cmpfloat (measured, ==, 36.23);
  g_assert_cmpfloat (predicted, >, 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (f, "error_pct"),
                                  (predicted / measured - 1) * 100, 0.01);
}

/* Without the GPU, the runs are listed as measured with the reason and no prediction. */
static void
test_unmapped_text (void)
{
  g_auto(HrTestRun) r = { 0 };
  g_autofree char *path = fixture ("vllm-rtx5090-qwen36.log");

  run_check (&r, path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vLLM log: 1 run"));
  g_assert_nonnull (strstr (r.out, "no prediction: The run does not name its GPU: name it with --gpu"));
  g_assert_nonnull (strstr (r.out, "measured 569878 tokens"));
  g_assert_null (strstr (r.out, "predicted"));
}

static void
test_stdin (void)
{
  g_auto(HrTestRun) r = { 0 };
  g_autofree char *path = fixture ("bench-readme.csv");
  g_autofree char *script = g_strdup_printf ("exec \"%s\" check - --model qwen3-8b < \"%s\"", cli, path);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, "/bin/sh");
  g_ptr_array_add (argv, "-c");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (&r, argv, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "llama-bench CSV: 2 runs (build 8cf427ff (5163))"));
  g_assert_nonnull (strstr (r.out, "qwen3-8b Q4_K_M on 1 × RTX 4080 16GB, llama.cpp CUDA, tg128"));
  g_assert_nonnull (strstr (r.out, "predicted"));
}

static void
test_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-cli-check-XXXXXX", NULL);
  g_autofree char *garbage = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.log", NULL);
  g_autofree char *mismatch = fixture ("bench-readme-mismatch.csv");
  g_autofree char *good = fixture ("bench-readme.json");

  g_assert_true (g_file_set_contents (garbage, "some notes\nabout nothing\n", -1, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, garbage, NULL);
    assert_one_line_error (&r, 1, "not a llama-bench table");
  }
  {
    /* a FIFO nobody writes to must not block the command */
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, fifo, NULL);
    assert_one_line_error (&r, 1, "not a regular file");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, missing, NULL);
    assert_one_line_error (&r, 1, "missing.log");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, mismatch, NULL);
    assert_one_line_error (&r, 1, "line 2");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, good, "--gpus", "0", NULL);
    assert_one_line_error (&r, 2, "--gpus");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, good, "--gpu", "no-such-gpu", NULL);
    assert_one_line_error (&r, 2, "no-such-gpu");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, good, "--quant", "Q9_X", NULL);
    assert_one_line_error (&r, 2, "Q9_X");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_check (&r, NULL);
    assert_one_line_error (&r, 2, "FILE");
  }
  g_unlink (garbage);
  g_unlink (fifo);
  g_rmdir (dir);
}

/* calibrate fits the RX 7900 XTX to the runs, saves it in the user's data directory, and
 * estimate, check and --list use it; --no-calibration and --remove undo it. */
static void
test_calibrate (void)
{
  g_autofree char *home = g_dir_make_tmp ("headroom-cli-calibrate-XXXXXX", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", home, TRUE);
  g_autofree char *path = fixture ("bench-rx7900xtx-rocm.md");
  g_autofree char *saved = g_build_filename (home, "headroom", "calibration.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "calibrate", path, "--gpu", "rx-7900-xtx-24gb", "--model", "llama-3.1-8b", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_true (g_str_has_prefix (r.out, "Calibrated Radeon RX 7900 XTX 24GB, ROCm ("));
    g_assert_nonnull (strstr (r.out, "decode from 3 runs"));
    g_assert_nonnull (strstr (r.out, "prefill ×"));
    g_assert_true (g_file_test (saved, G_FILE_TEST_IS_REGULAR));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "estimate", "--model", "llama-3.1-8b", "--gpu", "rx-7900-xtx-24gb", "--quant", "Q4_K_M",
             "--context", "4096", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_true (json_object_get_boolean_member (o, "calibrated"));
    g_assert_nonnull (strstr (json_object_get_string_member (o, "decode_basis"), "calibrated from 3 runs of yours"));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "estimate", "--model", "llama-3.1-8b", "--gpu", "rx-7900-xtx-24gb", "--quant", "Q4_K_M",
             "--context", "4096", "--json", "--no-calibration", NULL);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_false (json_object_get_boolean_member (o, "calibrated"));
  }
  {
    /* every run within 5 % once calibrated */
    g_auto(HrTestRun) r = { 0 };
    JsonArray *runs;
    run_env (&r, env, "check", path, "--gpu", "rx-7900-xtx-24gb", "--model", "llama-3.1-8b", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
    runs = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "runs");
    g_assert_cmpuint (json_array_get_length (runs), ==, 5);
    for (guint i = 0; i < json_array_get_length (runs); i++)
      {
        JsonObject *run = json_array_get_object_element (runs, i);
        JsonObject *f = json_array_get_object_element (json_object_get_array_member (run, "figures"), 0);
        g_assert_true (json_object_get_boolean_member (json_object_get_object_member (run, "scenario"), "calibrated"));
        g_assert_cmpfloat (fabs (json_object_get_double_member (f, "error_pct")), <=, 5.0);
      }
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "calibrate", "--list", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_str_has_prefix (r.out, "Radeon RX 7900 XTX 24GB, ROCm ("));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "calibrate", "--remove", "rx-7900-xtx-24gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, "Removed 1 calibration.\n");
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "calibrate", "--list", NULL);
    g_assert_cmpstr (r.out, ==, "No device is calibrated.\n");
  }
  {
    /* runs that cannot be mapped never calibrate anything */
    g_auto(HrTestRun) r = { 0 };
    run_env (&r, env, "calibrate", path, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "no run could be mapped"));
  }
  g_unlink (saved);
  {
    g_autofree char *d = g_path_get_dirname (saved);
    g_rmdir (d);
  }
  g_rmdir (home);
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
  g_test_add_func ("/cli-check/bench-json", test_bench_json);
  g_test_add_func ("/cli-check/unmapped-text", test_unmapped_text);
  g_test_add_func ("/cli-check/stdin", test_stdin);
  g_test_add_func ("/cli-check/refused", test_refused);
  g_test_add_func ("/cli-check/calibrate", test_calibrate);
  return g_test_run ();
}
