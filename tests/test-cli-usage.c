/* test-cli-usage.c — what a new user of headroom-cli meets first (issue 26, item 9): every
 * command's --help and usage line, "did you mean" for a typo, names as people type them,
 * GPU counts no engine can run, tables whose columns hold with CJK names, JSON whose parts add
 * up to its total. */
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-test-cli.h"

static const char *cli;

static void
run_cli (HrTestRun *r,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  va_start (ap, r);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "en", TRUE);
  hr_test_run_spawn (r, argv, envp);
}

/* Exit 2 with one line on stderr that holds @needle. */
static void
assert_usage_error (const HrTestRun *r,
                    const char      *needle,
                    const char      *what)
{
  if (r->status != 2 || strstr (r->err, needle) == NULL)
    g_error ("%s: exit %d, stderr “%s” (wanted exit 2 and “%s”)", what, r->status, r->err, needle);
  g_assert_cmpuint (strlen (r->err), >, 1);
  g_assert_true (strchr (r->err, '\n') == r->err + strlen (r->err) - 1);
}

/* Terminal columns, counted as a terminal does: a CJK character takes two. */
static glong
columns (const char *line)
{
  glong n = 0;

  for (const char *p = line; *p; p = g_utf8_next_char (p))
    n += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return n;
}

/* The column where @needle starts in @line, in terminal columns; -1 when it is not there. */
static glong
column_of (const char *line,
           const char *needle)
{
  const char *p = strstr (line, needle);
  g_autofree char *before = NULL;

  if (p == NULL)
    return -1;
  before = g_strndup (line, p - line);
  return columns (before);
}

static void
test_help (void)
{
  static const char *const scenario_commands[] = { "estimate", "matrix", "launch", "compare" };
  static const struct { const char *command; const char *usage; } usages[] = {
    { "estimate", "Usage:\n  headroom-cli estimate [OPTION…]\n" },
    { "matrix", "Usage:\n  headroom-cli matrix [OPTION…]\n" },
    { "launch", "Usage:\n  headroom-cli launch [OPTION…]\n" },
    { "compare", "Usage:\n  headroom-cli compare [OPTION…]\n" },
    { "inspect", "Usage:\n  headroom-cli inspect [OPTION…] FILE.gguf|URL\n" },
    { "pricing", "Usage:\n  headroom-cli pricing [OPTION…]\n" },
    { "finetune", "Usage:\n  headroom-cli finetune [OPTION…]\n" },
    { "detect", "Usage:\n  headroom-cli detect [OPTION…]\n" },
    { "bench", "Usage:\n  headroom-cli bench [OPTION…]\n" },
    { "list", "Usage:\n  headroom-cli list [OPTION…] models|gpus|quants|engines\n" },
    { "chart", "Usage: headroom-cli chart KIND (scenario options) --out FILE [options]\n" },
  };

  /* the scenario options are shown, not hidden behind --help-scenario */
  for (guint i = 0; i < G_N_ELEMENTS (scenario_commands); i++)
    {
      HrTestRun r = { 0 };

      run_cli (&r, scenario_commands[i], "--help", NULL);
      g_assert_cmpint (r.status, ==, 0);
      if (strstr (r.out, "--model=ID") == NULL || strstr (r.out, "--context=N") == NULL ||
          strstr (r.out, "--gpus=N") == NULL || strstr (r.out, "--help-scenario") != NULL)
        g_error ("%s --help hides the scenario options:\n%s", scenario_commands[i], r.out);
      hr_test_run_clear (&r);
    }
  /* the usage line names the command, once, and nothing garbled after it */
  for (guint i = 0; i < G_N_ELEMENTS (usages); i++)
    {
      HrTestRun r = { 0 };
      const char *expected = usages[i].usage;

      run_cli (&r, usages[i].command, "--help", NULL);
      g_assert_cmpint (r.status, ==, 0);
      if (!g_str_has_prefix (r.out, expected))
        g_error ("%s --help begins:\n%.200s\nwanted:\n%s", usages[i].command, r.out, expected);
      hr_test_run_clear (&r);
    }
}

/* "help estimate" is estimate's help, not the general usage */
static void
test_help_command (void)
{
  HrTestRun help = { 0 }, direct = { 0 }, bad = { 0 };

  run_cli (&help, "help", "estimate", NULL);
  run_cli (&direct, "estimate", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_cmpstr (help.out, ==, direct.out);
  g_assert_true (g_str_has_prefix (help.out, "Usage:\n  headroom-cli estimate"));
  run_cli (&bad, "help", "estimat", NULL);
  assert_usage_error (&bad, "did you mean “estimate”?", "help estimat");
  hr_test_run_clear (&help);
  hr_test_run_clear (&direct);
  hr_test_run_clear (&bad);
}

static void
test_did_you_mean (void)
{
  struct { const char *args[8]; const char *needle; } cases[] = {
    { { "estimat", NULL }, "unknown command “estimat”; did you mean “estimate”?" },
    { { "compaer", "--model", "glm-4.5-air", NULL }, "did you mean “compare”?" },
    { { "inspcet", NULL }, "did you mean “inspect”?" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--contex", "8k", NULL },
      "Unknown option --contex; did you mean “--context”?" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--contex=8k", NULL },
      "did you mean “--context”?" },
    { { "matrix", "--modle", "glm-4.5-air", NULL }, "did you mean “--model”?" },
    { { "finetune", "--model", "qwen3-8b", "--metod", "lora", NULL }, "did you mean “--method”?" },
    { { "list", "models", "--jsn", NULL }, "did you mean “--json”?" },
    { { "inspect", "--contxt", "8k", "x.gguf", NULL }, "did you mean “--context”?" },
    { { "pricing", "--jsno", NULL }, "did you mean “--json”?" },
  };
  HrTestRun far = { 0 }, far_option = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrTestRun r = { 0 };
      const char **a = cases[i].args;

      run_cli (&r, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      assert_usage_error (&r, cases[i].needle, a[0]);
      hr_test_run_clear (&r);
    }
  /* nothing close: no guess */
  run_cli (&far, "frobnicate", NULL);
  assert_usage_error (&far, "unknown command “frobnicate”", "frobnicate");
  g_assert_null (strstr (far.err, "did you mean"));
  run_cli (&far_option, "estimate", "--toasters", NULL);
  assert_usage_error (&far_option, "--toasters", "--toasters");
  g_assert_null (strstr (far_option.err, "did you mean"));
  hr_test_run_clear (&far);
  hr_test_run_clear (&far_option);
}

/* The display name of a model or GPU and any case of a quant resolve to the catalog's entries */
static void
test_names_resolve (void)
{
  HrTestRun typed = { 0 }, ids = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *a, *b;

  run_cli (&typed, "estimate", "--model", "GLM-4.5-Air (110B-A12B)", "--gpu", "h100 nvl 94gb",
           "--quant", "q4_k_m", "--json", NULL);
  run_cli (&ids, "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--quant", "Q4_K_M",
           "--json", NULL);
  if (typed.status != 0)
    g_error ("display names not resolved: %s", typed.err);
  g_assert_cmpint (ids.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p1, typed.out, -1, NULL));
  g_assert_true (json_parser_load_from_data (p2, ids.out, -1, NULL));
  a = json_node_get_object (json_parser_get_root (p1));
  b = json_node_get_object (json_parser_get_root (p2));
  g_assert_cmpstr (json_object_get_string_member (a, "model"), ==, "glm-4.5-air");
  g_assert_cmpstr (json_object_get_string_member (a, "gpu"), ==, "h100-nvl-94gb");
  g_assert_cmpstr (json_object_get_string_member (a, "quant"), ==, "Q4_K_M");
  g_assert_cmpint (json_object_get_int_member (a, "required_bytes"), ==,
                   json_object_get_int_member (b, "required_bytes"));
  hr_test_run_clear (&typed);
  hr_test_run_clear (&ids);

  /* the model's short display name, in any case */
  run_cli (&typed, "estimate", "--model", "qwen3 8b", "--gpu", "rtx-4090-24gb", NULL);
  if (typed.status != 0)
    g_error ("“qwen3 8b”: %s", typed.err);
  hr_test_run_clear (&typed);
}

/* GPU counts no engine can run, and values that only look like "not given" */
static void
test_impossible_counts (void)
{
  struct { const char *args[10]; const char *needle; } cases[] = {
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "1000", NULL },
      "has 46 layers: no engine splits it across 1000 GPUs" },
    { { "compare", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "47", NULL }, "46 layers" },
    { { "matrix", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "64", NULL }, "46 layers" },
    { { "estimate", "--model", "qwen3-8b", "--gpu", "h100-nvl-94gb", "--gpus", "34", "--engine", "vllm", NULL },
      "has 32 attention heads: vLLM cannot split them across 34 GPUs" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "-5", NULL },
      "--gpus: the number of GPUs must be between 1 and" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "-1", NULL },
      "(got -1)" },
    { { "launch", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--gpus", "-1", NULL }, "(got -1)" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--engine", "vllm",
        "--gpu-memory-utilization", "0", NULL }, "--gpu-memory-utilization" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", "--engine", "vllm",
        "--gpu-memory-utilization", "-0.5", NULL }, "--gpu-memory-utilization" },
  };
  HrTestRun ok = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrTestRun r = { 0 };
      const char **a = cases[i].args;

      run_cli (&r, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
      assert_usage_error (&r, cases[i].needle, cases[i].needle);
      hr_test_run_clear (&r);
    }
  /* as many GPUs as layers, and as heads for vLLM, still size */
  run_cli (&ok, "estimate", "--model", "qwen3-8b", "--gpu", "h100-nvl-94gb", "--gpus", "32",
           "--engine", "vllm", NULL);
  g_assert_cmpint (ok.status, ==, 0);
  hr_test_run_clear (&ok);
}

/* compare's columns hold with CJK names (two columns a character), and its longest context is
 * one kind of number */
static void
test_compare_cjk_columns (void)
{
  HrTestRun r = { 0 };
  g_auto(GStrv) lines = NULL;
  glong verdict, ctx_end;

  run_cli (&r, "compare", "--model", "glm-4.5-air", "--gpu", "dcu-k100-ai-64gb", "--gpu", "h100-nvl-94gb",
           "--gpu", "mlu590-80gb", "--gpu", "rtx-pro-6000-blackwell-96gb", "--context", "32k", NULL);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  verdict = column_of (lines[0], "verdict");
  ctx_end = columns (lines[0]);
  for (guint l = 1; l < 5; l++)
    {
      g_auto(GStrv) words = g_strsplit_set (lines[l], " ", -1);
      const char *last = words[g_strv_length (words) - 1];

      if (column_of (lines[l], " fits ") + 1 != verdict && column_of (lines[l], " tight ") + 1 != verdict &&
          column_of (lines[l], " exceeds ") + 1 != verdict)
        g_error ("line %u's verdict is not under the header's:\n%s", l, r.out);
      if (columns (lines[l]) != ctx_end)
        g_error ("line %u is %ld columns, the header %ld:\n%s", l, columns (lines[l]), ctx_end, r.out);
      /* "52224" or "—", never "51K" beside "52480" */
      if (!g_str_equal (last, "—") && strspn (last, "0123456789") != strlen (last))
        g_error ("line %u's max ctx is “%s”:\n%s", l, last, r.out);
    }
  /* the names are whole */
  g_assert_nonnull (strstr (r.out, "DCU K100-AI 64GB (海光深算) "));
  g_assert_nonnull (strstr (r.out, "MLU590 80GB (寒武纪思元) "));
  hr_test_run_clear (&r);
}

/* matrix names the smallest GPU whole ("Ryzen AI Max+ 395 128GB (Strix Halo)") */
static void
test_matrix_whole_names (void)
{
  HrTestRun r = { 0 };
  g_auto(GStrv) lines = NULL;
  glong source;

  run_cli (&r, "matrix", "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Ryzen AI Max+ 395 128GB (Strix Halo) "));
  lines = g_strsplit (r.out, "\n", -1);
  source = column_of (lines[0], "source");
  for (guint l = 1; lines[l] != NULL && lines[l][0] != '\0'; l++)
    {
      const char *p = strrchr (lines[l], ' ');
      g_autofree char *before = g_strndup (lines[l], p - lines[l] + 1);

      if (columns (before) != source)
        g_error ("line %u's source is not under the header's:\n%s", l, r.out);
    }
  hr_test_run_clear (&r);
}

/* weights_device + kv_cache + overhead = required, in bytes, where weights (the file) does not */
static void
test_json_parts_add_up (void)
{
  struct { const char *args[10]; } cases[] = {
    { { "--model", "glm-4.5-air", "--gpu", "h100-nvl-94gb", NULL } },
    { { "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb", "--n-cpu-moe", "30", NULL } },
    { { "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb", "--gpus", "2", "--offload-pct", "30", NULL } },
    { { "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--gpus", "4", "--engine", "vllm", "--quant", "BF16" } },
    { { "--model", "gpt-oss-120b", "--gpu", "h100-80gb-sxm", "--gpus", "2", "--batch", "8", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrTestRun r = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char **a = cases[i].args;
      JsonObject *o;
      gint64 device, kv, overhead, required;

      run_cli (&r, "estimate", "--json", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      if (!json_object_has_member (o, "weights_device_bytes") || !json_object_has_member (o, "weights_device_gib"))
        g_error ("case %u: no weights_device_bytes/_gib:\n%s", i, r.out);
      device = json_object_get_int_member (o, "weights_device_bytes");
      kv = json_object_get_int_member (o, "kv_cache_bytes");
      overhead = json_object_get_int_member (o, "overhead_bytes");
      required = json_object_get_int_member (o, "required_bytes");
      g_assert_cmpint (device + kv + overhead, ==, required);
      g_assert_cmpint (device, <=, json_object_get_int_member (o, "weights_bytes"));
      hr_test_run_clear (&r);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cli = g_getenv ("HEADROOM_CLI");
  if (cli == NULL)
    {
      g_test_skip ("HEADROOM_CLI not set");
      return 77;
    }
  g_test_add_func ("/cli-usage/help", test_help);
  g_test_add_func ("/cli-usage/help-command", test_help_command);
  g_test_add_func ("/cli-usage/did-you-mean", test_did_you_mean);
  g_test_add_func ("/cli-usage/names-resolve", test_names_resolve);
  g_test_add_func ("/cli-usage/impossible-counts", test_impossible_counts);
  g_test_add_func ("/cli-usage/compare-cjk-columns", test_compare_cjk_columns);
  g_test_add_func ("/cli-usage/matrix-whole-names", test_matrix_whole_names);
  g_test_add_func ("/cli-usage/json-parts-add-up", test_json_parts_add_up);
  return g_test_run ();
}
