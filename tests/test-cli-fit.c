/* test-cli-fit.c — `headroom-cli fit` as a user runs it: every row it lists agrees with
 * `headroom-cli estimate` for the same model, quant, context and hardware, on a catalog GPU and
 * on "this computer" (a fake /proc and nvidia-smi under HEADROOM_SYSROOT). */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-test-cli.h"
#include "hr-test-machine.h"

static const char *cli;

/* A machine with 64 GiB of RAM and one RTX 4090 (nvidia-smi's CSV as hr-detect reads it). */
static char *
machine (void)
{
  g_autoptr(GError) error = NULL;
  char *root = g_dir_make_tmp ("headroom-cli-fit-XXXXXX", &error);

  g_assert_no_error (error);
  hr_test_put (root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
                             "physical id\t: 0\ncore id\t: 0\n\n", 0644);
  hr_test_put (root, "proc/meminfo", "MemTotal:       67108864 kB\nMemAvailable:   60000000 kB\n", 0644);
  hr_test_put (root, "bin/nvidia-smi", "#!/bin/sh\nprintf '0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n'\n", 0755);
  return root;
}

static void
remove_tree (const char *root)
{
  const char *argv[] = { "/bin/rm", "-rf", root, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Runs the CLI with @args (a NULL-terminated array), under @root when not NULL. */
static void
run_argv (HrTestRun         *r,
          const char        *root,
          const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  if (root != NULL)
    {
      g_autofree char *bin = g_build_filename (root, "bin", NULL);
      envp = g_environ_setenv (envp, "HEADROOM_SYSROOT", root, TRUE);
      envp = g_environ_setenv (envp, "PATH", bin, TRUE);
    }
  hr_test_run_spawn (r, argv, envp);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* One choice of a row (the best, the tight or the expert-offload one) against `estimate` for its
 * model, quant, context and expert offload on @gpu. */
static void
check_choice_against_estimate (const char *root,
                               const char *gpu,
                               const char *model,
                               JsonObject *c)
{
  g_autofree char *ctx = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (c, "context"));
  g_autofree char *moe = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (c, "n_cpu_moe"));
  const char *est_args[] = { "estimate", "--model", model, "--quant", json_object_get_string_member (c, "quant"),
                             "--context", ctx, "--n-cpu-moe", moe, "--gpu", gpu, "--json", NULL };
  HrTestRun r = { 0 };
  g_autoptr(JsonNode) est_node = NULL;
  JsonObject *est;

  run_argv (&r, root, est_args);
  g_assert_cmpint (r.status, ==, 0);
  est_node = parse (r.out);
  hr_test_run_clear (&r);
  est = json_node_get_object (est_node);
  g_assert_cmpstr (json_object_get_string_member (est, "verdict"), ==, json_object_get_string_member (c, "verdict"));
  g_assert_cmpstr (json_object_get_string_member (est, "verdict"), !=, "exceeds");
  g_assert_cmpint (json_object_get_int_member (est, "required_bytes"), ==, json_object_get_int_member (c, "required_bytes"));
  g_assert_cmpfloat (json_object_get_double_member (est, "decode_tps"), ==, json_object_get_double_member (c, "decode_tps"));
  g_assert_cmpint (json_object_get_int_member (est, "usable_bytes"), ==, json_object_get_int_member (c, "usable_bytes"));
  g_assert_cmpint (json_object_get_int_member (est, "margin_bytes"), ==, json_object_get_int_member (c, "margin_bytes"));
  g_assert_cmpint (json_object_get_int_member (est, "system_ram_bytes"), ==, json_object_get_int_member (c, "system_ram_bytes"));
}

/* Every listed row of `fit --gpu @gpu --json` against `estimate` for its model, quant, context
 * and expert offload, its tight and expert-offload alternatives too; returns how many rows were
 * listed, and in @n_offload how many choices keep experts in system RAM. */
static guint
check_rows_against_estimate (const char *root,
                             const char *gpu,
                             const char *extra,
                             guint      *n_offload)
{
  const char *fit_args[] = { "fit", "--gpu", gpu, "--json", extra, NULL };
  HrTestRun r = { 0 };
  g_autoptr(JsonNode) root_node = NULL;
  JsonArray *models;
  guint listed = 0;

  *n_offload = 0;
  run_argv (&r, root, fit_args);
  g_assert_cmpint (r.status, ==, 0);
  root_node = parse (r.out);
  hr_test_run_clear (&r);
  models = json_object_get_array_member (json_node_get_object (root_node), "models");
  g_assert_cmpuint (json_array_get_length (models), >, 30);
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *m = json_array_get_object_element (models, i);
      const char *model = json_object_get_string_member (m, "model");
      const char *alts[] = { "choice", "tight", "offload" };

      if (!json_object_get_boolean_member (m, "fits"))
        {
          g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (m, "choice")));
          g_assert_true (g_str_has_prefix (json_object_get_string_member (m, "left_out_because"), "needs ") ||
                         strstr (json_object_get_string_member (m, "left_out_because"), "tokens/s") != NULL);
          continue;
        }
      listed++;
      for (guint k = 0; k < G_N_ELEMENTS (alts); k++)
        {
          JsonNode *node = json_object_get_member (m, alts[k]);

          if (node == NULL || JSON_NODE_HOLDS_NULL (node))
            continue;
          check_choice_against_estimate (root, gpu, model, json_node_get_object (node));
          if (json_object_get_int_member (json_node_get_object (node), "n_cpu_moe") > 0)
            (*n_offload)++;
        }
    }
  return listed;
}

static void
test_fit_catalog_gpu (void)
{
  HrTestRun r = { 0 };
  const char *text_args[] = { "fit", "--gpu", "rtx-4090-24gb", "--limit", "3", NULL };
  guint n_offload;

  g_assert_cmpuint (check_rows_against_estimate (NULL, "rtx-4090-24gb", "--context=8192", &n_offload), >, 20);
  /* a catalog GPU alone: no system RAM is known, so no expert offload */
  g_assert_cmpuint (n_offload, ==, 0);
  /* the text lists the best first, then what does not fit and why */
  run_argv (&r, NULL, text_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "What runs on 1× RTX 4090 24GB"));
  g_assert_nonnull (strstr (r.out, "  1. Qwen3.6 27B"));
  g_assert_null (strstr (r.out, "  4. "));
  g_assert_nonnull (strstr (r.out, "Does not fit:"));
  g_assert_nonnull (strstr (r.out, "GiB usable"));
  g_assert_nonnull (strstr (r.out, "mean Δp"));
  hr_test_run_clear (&r);
}

static void
test_fit_this_computer (void)
{
  g_autofree char *root = machine ();
  HrTestRun r = { 0 };
  const char *text_args[] = { "fit", "--gpu", "this", "--limit", "2", NULL };
  guint n_offload;

  /* the detected 4090 and its 64 GiB of RAM: MoE models may keep experts there
   * (--n-cpu-moe N), and those setups are estimate's too */
  g_assert_cmpuint (check_rows_against_estimate (root, "this", "--sort=speed", &n_offload), >, 20);
  g_assert_cmpuint (n_offload, >, 0);
  run_argv (&r, root, text_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "RTX 4090"));
  g_assert_nonnull (strstr (r.out, "already use 1.30 GiB"));
  hr_test_run_clear (&r);
  remove_tree (root);
}

static void
test_fit_bad_arguments (void)
{
  static const char *const bad[][8] = {
    { "fit", NULL },
    { "fit", "--gpu", "rtx-4090", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "--sort", "price", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "--use-case", "poetry", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "--context", "lots", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "--min-tps", "-1", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "--json", "--csv", NULL },
    { "fit", "--gpu", "rtx-4090-24gb", "extra", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      HrTestRun r = { 0 };

      run_argv (&r, NULL, bad[i]);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_true (g_str_has_prefix (r.err, "headroom-cli: "));
      g_assert_nonnull (strchr (r.err, '\n'));
      g_assert_null (strchr (strchr (r.err, '\n') + 1, '\n'));
      hr_test_run_clear (&r);
    }
}

/* #31/#26: `fit` counts each model's projector as `estimate` does (--mmproj auto by default):
 * Gemma 3 27B on an RTX 5090 32GB is Q6_K with its 0.91 GiB projector, Q8_0 with --mmproj none;
 * the chosen row is `estimate` of the same quant, projector included. */
static const char *
gemma_quant (const char *mmproj,
             double     *required_gib)
{
  HrTestRun r = { 0 };
  const char *args[] = { "fit", "--gpu", "rtx-5090-32gb", "--json", mmproj, NULL };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *models;
  const char *quant = NULL;

  run_argv (&r, NULL, args);
  g_assert_cmpint (r.status, ==, 0);
  root = parse (r.out);
  models = json_object_get_array_member (json_node_get_object (root), "models");
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *m = json_array_get_object_element (models, i);

      if (g_str_equal (json_object_get_string_member (m, "model"), "gemma-3-27b"))
        {
          JsonObject *c = json_object_get_object_member (m, "choice");

          quant = g_intern_string (json_object_get_string_member (c, "quant"));
          *required_gib = json_object_get_double_member (c, "required_gib");
        }
    }
  hr_test_run_clear (&r);
  g_assert_nonnull (quant);
  return quant;
}

static void
test_fit_projector (void)
{
  HrTestRun r = { 0 };
  const char *est[] = { "estimate", "--model", "gemma-3-27b", "--gpu", "rtx-5090-32gb", "--quant", "Q6_K",
                        "--context", "8192", "--json", NULL };
  const char *bad[] = { "fit", "--gpu", "rtx-5090-32gb", "--mmproj", "/models/mmproj.gguf", NULL };
  double with = 0, without = 0;
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpstr (gemma_quant (NULL, &with), ==, "Q6_K");
  g_assert_cmpstr (gemma_quant ("--mmproj=none", &without), ==, "Q8_0");
  g_assert_cmpstr (gemma_quant ("--mmproj=auto", &with), ==, "Q6_K");
  run_argv (&r, NULL, est);
  g_assert_cmpint (r.status, ==, 0);
  root = parse (r.out);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_node_get_object (root), "required_gib"),
                                  with, 0.006);
  hr_test_run_clear (&r);
  /* a projector file belongs to one model, never to a ranking */
  run_argv (&r, NULL, bad);
  g_assert_cmpint (r.status, ==, 2);
  hr_test_run_clear (&r);
}

/* chart fit: the scatter exported as the other charts are (PNG, SVG, PDF by the file's name);
 * fit's own options, not a scenario's */
static void
test_chart_fit (void)
{
  static const struct { const char *name; const char *magic; } outs[] = {
    { "fit.svg", "<?xml" }, { "fit.png", "\x89PNG" }, { "fit.pdf", "%PDF-" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("headroom-cli-fit-chart-XXXXXX", &error);
  g_autofree char *svg = g_build_filename (dir, "fit.svg", NULL);
  const char *no_gpu[] = { "chart", "fit", "--out", svg, NULL };
  const char *no_out[] = { "chart", "fit", "--gpu", "rtx-4090-24gb", NULL };
  HrTestRun r = { 0 };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      g_autofree char *path = g_build_filename (dir, outs[i].name, NULL);
      g_autofree char *text = NULL;
      gsize len = 0;
      const char *ok_args[] = { "chart", "fit", "--gpu", "rtx-4090-24gb", "--out", path, NULL };

      run_argv (&r, NULL, ok_args);
      g_assert_cmpint (r.status, ==, 0);
      hr_test_run_clear (&r);
      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      g_assert_cmpuint (len, >, 1000);
      g_assert_true (memcmp (text, outs[i].magic, strlen (outs[i].magic)) == 0);
      if (g_str_has_suffix (path, ".svg"))
        g_assert_nonnull (strstr (text, "<svg"));
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  run_argv (&r, NULL, no_gpu);
  g_assert_cmpint (r.status, ==, 2);
  hr_test_run_clear (&r);
  run_argv (&r, NULL, no_out);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--out"));
  hr_test_run_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cli = g_getenv ("HEADROOM_CLI");
  if (cli == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set");
      return 77;
    }
  g_test_add_func ("/cli-fit/catalog-gpu", test_fit_catalog_gpu);
  g_test_add_func ("/cli-fit/this-computer", test_fit_this_computer);
  g_test_add_func ("/cli-fit/bad-arguments", test_fit_bad_arguments);
  g_test_add_func ("/cli-fit/projector", test_fit_projector);
  g_test_add_func ("/cli-fit/chart", test_chart_fit);
  return g_test_run ();
}
