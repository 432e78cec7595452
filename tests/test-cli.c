/* test-cli.c — headroom-cli's contract (SPEC §5): keys, exit codes, one-line errors,
 * locale-independent numbers */
#include <locale.h>
#include <math.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-test-cli.h"

static const char *cli;


static void
run_cli (HrTestRun  *r,
         const char *locale,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  va_start (ap, locale);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", locale ? locale : "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", locale && g_str_has_prefix (locale, "de") ? "de" : "en", TRUE);
  hr_test_run_spawn (r, argv, envp);
}

static JsonObject *
parse_object (const char *text,
              JsonParser *parser)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

/* The line of @text that starts with @prefix (newly allocated), or fails. */
static char *
line_starting (const char *text,
               const char *prefix)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);
  g_error ("no line starting “%s” in:\n%s", prefix, text);
  return NULL;
}

/* The column (in characters) where @line's first digit, "+" or "~" stands. */
static glong
value_column (const char *line)
{
  const char *p = strpbrk (line, "0123456789+~");

  g_assert_nonnull (p);
  return g_utf8_pointer_to_offset (line, p);
}

static void
test_estimate_json (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;
  const char *keys[] = { "model", "gpu", "gpus", "quant", "context", "batch", "kv_type", "engine",
                         "weights_gib", "weights_source", "kv_cache_gib", "overhead_gib",
                         "system_ram_gib", "required_gib", "physical_gib", "usable_gib",
                         "margin_gib", "utilization_pct", "verdict", "decode_tps",
                         "decode_tps_low", "decode_tps_high", "prefill_tps", "ttft_ms",
                         "cost_per_mtok_usd", "depth", "decode_tps_at_depth", "decode_tps_empty",
                         "engine_version" };

  run_cli (&r, NULL, "estimate", "--model", "glm-4.5-air", "--gpu", "mlu590-80gb",
           "--context", "32768", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (!json_object_has_member (o, keys[i]))
      g_error ("estimate --json lacks “%s”", keys[i]);
  g_assert_cmpfloat (json_object_get_double_member (o, "weights_gib"), ==, 67.96);
  g_assert_cmpfloat (json_object_get_double_member (o, "kv_cache_gib"), ==, 5.75);
  g_assert_cmpfloat (json_object_get_double_member (o, "usable_gib"), ==, 76.0);
  g_assert_cmpstr (json_object_get_string_member (o, "weights_source"), ==, "measured");
  g_assert_cmpint (json_object_get_int_member (o, "context"), ==, 32768);
  hr_test_run_clear (&r);
}

/* Exact integer bytes beside the rounded GiB (issue 15): a small sliding-window cache is
 * checkable to the MiB although it rounds to 0.02 GiB. */
static void
test_estimate_exact_bytes (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser2 = json_parser_new ();
  g_autofree char *config = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig",
                                                   "gemma-3-1b.json", NULL);
  const char *names[] = { "weights", "kv_cache", "overhead", "system_ram", "required",
                          "per_gpu_required", "physical", "usable", "margin" };
  JsonObject *o;

  run_cli (&r, NULL, "estimate", "--model", "glm-4.5-air", "--gpu", "mlu590-80gb",
           "--context", "32768", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *key = g_strconcat (names[i], "_bytes", NULL);
      g_autofree char *gib = g_strconcat (names[i], "_gib", NULL);
      if (!json_object_has_member (o, key))
        g_error ("estimate --json lacks “%s”", key);
      /* the rounded figure is the exact one, rounded */
      g_assert_cmpfloat (fabs (json_object_get_int_member (o, key) / 1073741824.0 -
                               json_object_get_double_member (o, gib)), <=, 0.005);
    }
  /* 5.75 GiB of KV (the seed), 80 GiB physical, 76 GiB usable: to the byte */
  g_assert_cmpint (json_object_get_int_member (o, "kv_cache_bytes"), ==, 6174015488LL);
  g_assert_cmpint (json_object_get_int_member (o, "physical_bytes"), ==, 85899345920LL);
  g_assert_cmpint (json_object_get_int_member (o, "usable_bytes"), ==, 81604378624LL);
  hr_test_run_clear (&r);

  /* Gemma 3 1B (4 global + 22 sliding layers of one 256-wide KV head, window 512) with
   * -ub 256 at 4096 tokens: 16 MiB global + 16.5 MiB sliding (768 cells × 22 KiB) */
  run_cli (&r, NULL, "estimate", "--model-config", config, "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--ubatch", "256", "--quant", "BF16", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser2);
  g_assert_cmpint (json_object_get_int_member (o, "kv_cache_bytes"), ==, (32 << 20) + (1 << 19));
  g_assert_cmpfloat (json_object_get_double_member (o, "kv_cache_gib"), ==, 0.03);
  hr_test_run_clear (&r);
}

static void
test_estimate_german_locale (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();

  /* A German desktop must not write "67,96" into JSON. */
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "dcu-k100-ai-64gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"weights_gib\": 67.96"));
  g_assert_null (strstr (r.out, "67,96"));
  parse_object (r.out, parser);
  hr_test_run_clear (&r);
}

/* --draft (#31): a draft model adds its weights and KV to required; the JSON names them and
 * the expected speed with its basis; MTP with llama.cpp and a foreign tokenizer are usage
 * errors with the reason; the launch lines carry the flags. */
static void
test_estimate_draft (void)
{
  HrTestRun r = { 0 }, r2 = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *a, *b;
  gint64 draft;

  run_cli (&r, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--quant", "Q4_K_M",
           "--json", NULL);
  run_cli (&r2, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--quant", "Q4_K_M",
           "--draft", "llama-3.2-3b", "--draft-accept", "70%", "--draft-max", "16", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (r2.status, ==, 0);
  a = parse_object (r.out, p1);
  b = parse_object (r2.out, p2);
  g_assert_cmpstr (json_object_get_string_member (a, "draft"), ==, "none");
  g_assert_true (json_object_get_null_member (a, "draft_speedup"));
  g_assert_cmpint (json_object_get_int_member (a, "draft_memory_bytes"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (b, "draft"), ==, "llama-3.2-3b");
  draft = json_object_get_int_member (b, "draft_memory_bytes");
  g_assert_cmpint (draft, ==, json_object_get_int_member (b, "draft_weights_bytes") +
                              json_object_get_int_member (b, "draft_kv_bytes") +
                              json_object_get_int_member (b, "draft_compute_bytes"));
  /* Llama 3.2 3B's cache at 8K: 28 layers × 8 heads × 256 × 2 bytes × 8192 */
  g_assert_cmpint (json_object_get_int_member (b, "draft_kv_bytes"), ==, 28LL * 8 * 256 * 2 * 8192);
  g_assert_cmpint (json_object_get_int_member (b, "required_bytes") -
                   json_object_get_int_member (a, "required_bytes"), <=, draft + 1);
  g_assert_cmpint (json_object_get_int_member (b, "required_bytes") -
                   json_object_get_int_member (a, "required_bytes"), >=, draft - 1);
  g_assert_cmpfloat (json_object_get_double_member (b, "draft_accept"), ==, 0.7);
  g_assert_cmpint (json_object_get_int_member (b, "draft_max"), ==, 16);
  g_assert_cmpfloat (json_object_get_double_member (b, "draft_tokens_per_pass"), ==, 3.326);
  /* 16 drafted at 70 % costs llama.cpp 17 draft decodes and 16 host samplings a pass: no gain
   * (hr-draft.c; test-draft /draft/speedup-formula) */
  g_assert_cmpfloat (json_object_get_double_member (b, "draft_speedup"), >, 0.9);
  g_assert_cmpfloat (json_object_get_double_member (b, "draft_speedup"), <, 1.0);
  g_assert_cmpfloat (json_object_get_double_member (b, "decode_tps"), ==,
                     json_object_get_double_member (a, "decode_tps"));
  g_assert_nonnull (strstr (json_object_get_string_member (b, "draft_basis"),
                            "at 70 % acceptance, 16 drafted: ~"));
  g_assert_nonnull (strstr (json_object_get_string_member (b, "draft_basis"), "measured speed-ups vary"));
  hr_test_run_clear (&r);
  hr_test_run_clear (&r2);

  run_cli (&r, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--draft", "llama-3.2-3b", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Draft model "));
  g_assert_nonnull (strstr (r.out, "Speculative decoding       at 89 % acceptance, 3 drafted: ~"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--draft", "mtp", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "llama.cpp skips GLM-4.5-Air"));
  g_assert_nonnull (strstr (r.err, "use vLLM or SGLang"));
  g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);  /* one line */
  hr_test_run_clear (&r);
  run_cli (&r, NULL, "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--draft", "mtp",
           "--engine", "sglang", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"draft\": \"mtp\""));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--draft", "qwen3-0.6b", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "vocabularies differ"));
  hr_test_run_clear (&r);
  run_cli (&r, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--draft", "llama-3.2-3b",
           "--draft-accept", "2", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--draft-accept"));
  hr_test_run_clear (&r);
  run_cli (&r, NULL, "estimate", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--draft", "no-such-model", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--draft"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "launch", "--model", "llama-3.3-70b", "--gpu", "h100-80gb-sxm", "--draft", "llama-3.2-3b", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "-hfd unsloth/Llama-3.2-3B-Instruct-GGUF:Q4_K_M"));
  g_assert_nonnull (strstr (r.out, "--spec-draft-n-max 3"));
  g_assert_nonnull (strstr (r.out, "\"method\": \"draft_model\", \"num_speculative_tokens\": 5"));
  g_assert_nonnull (strstr (r.out, "--speculative-algorithm STANDALONE"));
  hr_test_run_clear (&r);
}

/* vLLM's serving capacity in estimate --json and text; --max-num-seqs shrinks or grows the
 * sampler's startup peak; bad values are usage errors. */
static void
test_estimate_vllm_capacity (void)
{
  HrTestRun r = { 0 }, r2 = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *a, *b;

  run_cli (&r, NULL, "estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--quant", "BF16",
           "--engine", "vllm", "--context", "32768", "--json", NULL);
  run_cli (&r2, NULL, "estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--quant", "BF16",
           "--engine", "vllm", "--context", "32768", "--max-num-seqs", "64", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (r2.status, ==, 0);
  a = parse_object (r.out, p1);
  b = parse_object (r2.out, p2);
  g_assert_cmpint (json_object_get_int_member (a, "max_num_seqs"), ==, 1024);
  g_assert_cmpint (json_object_get_int_member (b, "max_num_seqs"), ==, 64);
  g_assert_cmpfloat (json_object_get_double_member (a, "driver_memory_gib"), ==, 79.19);
  g_assert_cmpint (json_object_get_int_member (a, "kv_pool_bytes"), >, 0);
  /* fewer sequences, a smaller sampler peak, a larger pool: the profile run's peak goes from
   * the sampler over 1024 rows (15 B × 1024 × 151,936 beside 8192 hidden states of 2048) to
   * the forward over 8192 tokens (8 experts × (3 × 768 + 2048) × 2 B + 3 × 2048 × 2 B each) */
  g_assert_cmpint (json_object_get_int_member (b, "kv_pool_bytes") -
                   json_object_get_int_member (a, "kv_pool_bytes"), ==,
                   15LL * 1024 * 151936 + 8192LL * 2048 * 2 - 8192LL * (8 * (3 * 768 + 2048) * 2 + 3 * 2048 * 2));
  g_assert_cmpint (json_object_get_int_member (b, "kv_capacity_tokens"), >,
                   json_object_get_int_member (a, "kv_capacity_tokens"));
  g_assert_cmpfloat (json_object_get_double_member (a, "max_concurrency"), >, 1.0);
  hr_test_run_clear (&r);
  hr_test_run_clear (&r2);

  run_cli (&r, NULL, "estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "KV-cache pool"));
  g_assert_nonnull (strstr (r.out, "of 79.19 GiB the driver shows"));
  hr_test_run_clear (&r);

  /* llama.cpp has no pool: no capacity keys */
  run_cli (&r, NULL, "estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "kv_pool_gib"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--engine", "vllm",
           "--max-num-seqs", "0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--max-num-seqs"));
  hr_test_run_clear (&r);
}

static void
test_compare_all_csv (void)
{
  HrTestRun r = { 0 }, list = { 0 };
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) gpus = NULL;
  guint n_rows = 0, n_gpus = 0;

  run_cli (&list, NULL, "list", "gpus", NULL);
  g_assert_cmpint (list.status, ==, 0);
  gpus = g_strsplit (list.out, "\n", -1);
  for (guint i = 0; gpus[i]; i++)
    n_gpus += gpus[i][0] != '\0';

  run_cli (&r, NULL, "compare", "--model", "glm-4.5-air", "--all-gpus", "--csv", NULL);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  /* the header is the first line (no '#' line); each row ends with how it was made */
  g_assert_true (g_str_has_prefix (lines[0], "gpu,gpu_name,gpus,verdict,"));
  g_assert_true (g_str_has_suffix (lines[0], ",scenario"));
  for (guint i = 1; lines[i]; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      n_rows++;
      g_assert_nonnull (strstr (lines[i], ",model=glm-4.5-air quant="));
      g_assert_true (strstr (lines[i], ",fits,") || strstr (lines[i], ",tight,") || strstr (lines[i], ",exceeds,"));
    }
  /* every accelerator in the catalog, with a verdict */
  g_assert_cmpuint (n_rows, ==, n_gpus);
  g_assert_cmpuint (n_rows, >=, 55);
  hr_test_run_clear (&r);
  hr_test_run_clear (&list);
}

static void
test_bad_arguments (void)
{
  struct { const char *args[8]; int code; const char *needle; } cases[] = {
    { { "estimate", "--model", "glm-45-air", "--gpu", "h100-80gb-sxm", NULL }, 2, "glm-4.5-air" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100", NULL }, 2, "unknown GPU" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--context", "-5", NULL }, 2, "context" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--context", "1000000000000", NULL }, 2, "context" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--gpus", "0", NULL }, 2, "GPUs" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--gpus", "10000", NULL }, 2, "GPUs" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--kv-type", "q9", NULL }, 2, "q9" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--offload-pct", "nan", NULL }, 2, "offload" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--quant", "Q9_Z", NULL }, 2, "Q9_Z" },
    { { "estimate", "--model", "glm-4.5-air", NULL }, 2, "GPU" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu-custom", "memory_gib=-1", NULL }, 2, "memory_gib" },
    { { "estimate", "--model-config", "/nonexistent/config.json", "--gpu", "h100-80gb-sxm", NULL }, 1, "config.json" },
    { { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--engine-version", "2023", NULL }, 2, "--engine-version" },
    { { "compare", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--engine-version", "", NULL }, 2, "current, 2024" },
    { { "estimate", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", "--depth", "-5", NULL }, 2, "--depth" },
    { { "estimate", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", "--depth", "9000", NULL }, 2, "depth" },
    { { "estimate", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", "--depth", "lots", NULL }, 2, "lots" },
    { { "list", "toasters", NULL }, 2, "toasters" },
    /* every command parses its options the same way: an unknown option or a stray word is exit 2 */
    { { "list", "--toasters", NULL }, 2, "Unknown option --toasters" },
    { { "detect", "toasters", NULL }, 2, "unexpected argument “toasters”" },
    { { "finetune", "--model", "llama-3.1-8b", "toasters", NULL }, 2, "unexpected argument “toasters”" },
    { { "matrix", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", "toasters", NULL }, 2, "unexpected argument" },
    { { "launch", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", "--toasters", NULL }, 2, "Unknown option" },
    { { "bench", "--toasters", NULL }, 2, "Unknown option --toasters" },
    { { "frobnicate", NULL }, 2, "frobnicate" },
    /* the kinds come from the chart registry */
    { { "chart", "pie", "--out", "x.png", NULL }, 2, "(breakdown, context, quant, compare, finetune, tco" },
    { { "chart", NULL }, 2, "choose a chart: breakdown, context" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrTestRun r = { 0 };
      const char **a = cases[i].args;
      run_cli (&r, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      if (r.status != cases[i].code || strstr (r.err, cases[i].needle) == NULL)
        g_error ("case %u (%s %s …): exit %d, stderr “%s”", i, a[0], a[1] ? a[1] : "", r.status, r.err);
      /* one line on stderr */
      g_assert_cmpint (strlen (r.err), >, 0);
      g_assert_null (strchr (r.err, '\n') == r.err + strlen (r.err) - 1 ? NULL : strchr (r.err, '\n'));
      hr_test_run_clear (&r);
    }
}

static void
test_gpu_custom (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b",
           "--gpu-custom", "memory_gib=24,bandwidth_gbs=1008,fp16_tflops=165", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser);
  g_assert_cmpfloat (json_object_get_double_member (o, "physical_gib"), ==, 24.0);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  g_assert_true (json_object_get_null_member (o, "gpu_generation"));
  hr_test_run_clear (&r);
}

/* A GPU's generation: list gpus --json and estimate --json show the catalog's, --gpu-custom
 * takes one (any case), and an unknown one is a bad argument naming the known ones. */
static void
test_gpu_generation (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser2 = json_parser_new ();
  JsonArray *gpus;
  JsonObject *o;
  gboolean found = FALSE;

  run_cli (&r, NULL, "list", "gpus", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  gpus = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *g = json_array_get_object_element (gpus, i);
      if (g_strcmp0 (json_object_get_string_member (g, "id"), "rtx-4090-24gb") == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (g, "generation"), ==, "ada");
          found = TRUE;
        }
    }
  g_assert_true (found);
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser2);
  g_assert_cmpstr (json_object_get_string_member (o, "gpu_generation"), ==, "ada");
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--backend", "cuda", "--gpu-custom",
           "memory_gib=16,bandwidth_gbs=732,fp16_tflops=40,generation=Pascal", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autoptr(JsonParser) p1 = json_parser_new ();
    o = parse_object (r.out, p1);
    g_assert_cmpstr (json_object_get_string_member (o, "gpu_generation"), ==, "pascal");
  }
  hr_test_run_clear (&r);

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu-custom",
           "memory_gib=16,generation=kepler", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "kepler"));
  g_assert_nonnull (strstr (r.err, "pascal"));
  hr_test_run_clear (&r);
}

/* A custom Pascal card given its datasheet FP16 figure (Tesla P40: 1/64 rate, 0.18 TFLOPS) is
 * not compute-bound on that figure: llama.cpp's CUDA backend (the one an NVIDIA generation
 * picks without backend=) runs quantized weights through int8 dp4a.  Before, the P40 decoded
 * Llama 8B "compute-bound" at 5.5 t/s with a 13-minute first token. */
static void
test_gpu_custom_pascal (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu-custom",
           "name=P40,memory_gib=24,bandwidth_gbs=347,fp16_tflops=0.18,generation=pascal", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out, parser);
  g_assert_cmpstr (json_object_get_string_member (o, "backend"), ==, "cuda");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "decode_basis"), "memory-bound"));
  g_assert_cmpfloat (json_object_get_double_member (o, "decode_tps"), >, 30);
  g_assert_nonnull (strstr (json_object_get_string_member (o, "prefill_basis"), "peak TOPS (int8 dp4a)"));
  g_assert_cmpfloat (json_object_get_double_member (o, "prefill_tps"), >, 300);
  g_assert_cmpfloat (json_object_get_double_member (o, "ttft_ms"), <, 60000);
  hr_test_run_clear (&r);

  /* the text names the path too */
  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--quant", "F16", "--gpu-custom",
           "name=P40,memory_gib=24,bandwidth_gbs=347,fp16_tflops=0.18,generation=pascal", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "peak TFLOPS (FP32)"));
  g_assert_nonnull (strstr (r.out, "memory-bound"));
  g_assert_null (strstr (r.out, "compute-bound: 1 sequences"));
  hr_test_run_clear (&r);
}

/* --engine-version reaches the scenario: JSON and the CSV header say which builds */
static void
test_engine_version (void)
{
  const char *versions[] = { NULL, "current", "2024", "CURRENT" };
  const char *expected[] = { "current", "current", "2024", "current" };

  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      HrTestRun r = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o;

      if (versions[i] != NULL)
        run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb",
                 "--engine-version", versions[i], "--json", NULL);
      else
        run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb", "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      o = parse_object (r.out, parser);
      g_assert_cmpstr (json_object_get_string_member (o, "engine_version"), ==, expected[i]);
      hr_test_run_clear (&r);
    }
  {
    HrTestRun r = { 0 };
    run_cli (&r, NULL, "compare", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb",
             "--engine-version", "2024", "--csv", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, " engine_version=2024 "));
    hr_test_run_clear (&r);
  }
}

/* --depth: the tokens in the context decode speed is given at (default: the context); JSON
 * carries the speed at that depth and at an empty context */
static void
test_depth (void)
{
  HrTestRun r = { 0 }, d = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *full, *zero;

  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb",
           "--context", "32k", "--json", NULL);
  run_cli (&d, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb",
           "--context", "32k", "--depth", "0", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (d.status, ==, 0);
  full = parse_object (r.out, p1);
  zero = parse_object (d.out, p2);
  g_assert_cmpint (json_object_get_int_member (full, "depth"), ==, 32768);
  g_assert_cmpint (json_object_get_int_member (zero, "depth"), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (full, "decode_tps_at_depth"), ==,
                     json_object_get_double_member (full, "decode_tps"));
  g_assert_cmpfloat (json_object_get_double_member (full, "decode_tps"), <,
                     json_object_get_double_member (full, "decode_tps_empty"));
  g_assert_cmpfloat (json_object_get_double_member (zero, "decode_tps"), ==,
                     json_object_get_double_member (full, "decode_tps_empty"));
  hr_test_run_clear (&r);
  hr_test_run_clear (&d);
}

/* LANGUAGE=de shows German in the human output, while numbers in JSON stay C-locale. */
static void
test_german_text (void)
{
  HrTestRun r = { 0 };

  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "dcu-k100-ai-64gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  if (strstr (r.out, "Does not fit") != NULL)
    g_error ("expected German output, got:\n%s", r.out);
  g_assert_nonnull (strstr (r.out, "Überschreitet verfügbaren GPU-Speicher"));
  g_assert_nonnull (strstr (r.out, "Benötigter GPU-Speicher"));
  /* the German decimal comma in text people read */
  g_assert_nonnull (strstr (r.out, "68,26 GiB"));
  hr_test_run_clear (&r);

  /* percentages as each language writes them: "71 %" in German, "71%" in English, the
   * margin line like the speed basis under it */
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "rtx-pro-6000-blackwell-96gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "+22,99 GiB · 71 %\n"));
  g_assert_nonnull (strstr (r.out, " 92 % von "));
  hr_test_run_clear (&r);
  run_cli (&r, "C.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "rtx-pro-6000-blackwell-96gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "+22.99 GiB · 71%\n"));
  g_assert_nonnull (strstr (r.out, " 92% of "));
  g_assert_null (strstr (r.out, " %"));
  hr_test_run_clear (&r);
  /* the values start in one column after the longest German label (it ran one column past
   * the others), and counts group their thousands as German does: "339.280 Tokens" */
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "rtx-pro-6000-blackwell-96gb",
           "--engine", "vllm", "--gpus", "2", "--quant", "FP8", NULL);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autofree char *usable = line_starting (r.out, "  Nutzbarer Hardware-Speicher ");
    g_autofree char *required = line_starting (r.out, "  Benötigter GPU-Speicher ");
    g_autofree char *tokens = line_starting (r.out, "    Tokens darin ");
    g_autofree char *prefill = line_starting (r.out, "  Prefill ");

    g_assert_cmpint (value_column (usable), ==, value_column (required));
    g_assert_cmpint (value_column (tokens), ==, value_column (required));
    g_assert_cmpint (value_column (prefill), ==, value_column (required));
    g_assert_true (g_str_has_suffix (tokens, " 339.280"));
    g_assert_true (g_regex_match_simple ("~[0-9]\\.[0-9]{3} tok/s$", prefill, 0, 0));
  }
  hr_test_run_clear (&r);
}

/* The cloud prices are read only by the commands that show a cost: `list`, `detect`,
 * `finetune` and `launch` start without them (a cold start the SkyPilot files would
 * slow), `estimate` still reads the saved catalog (an unreadable one is named on stderr). */
static void
test_prices_only_when_needed (void)
{
  g_autofree char *cache = g_dir_make_tmp ("headroom-cli-cache-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (cache, "headroom", "skypilot", NULL);
  g_autofree char *csv = g_build_filename (dir, "aws.csv", NULL);
  g_autofree char *old = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  const char *quiet[][8] = {
    { "list", "gpus", NULL },
    { "finetune", "--model", "llama-3.1-8b", "--method", "lora", NULL },
    { "launch", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", NULL },
  };
  HrTestRun r = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (csv, "not a catalog\n", -1, NULL));
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (quiet); i++)
    {
      const char **a = quiet[i];

      run_cli (&r, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.err, ==, "");
      hr_test_run_clear (&r);
    }
  run_cli (&r, NULL, "estimate", "--model", "llama-3.1-8b", "--gpu", "h100-80gb-sxm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "The saved aws catalog is not used"));
  hr_test_run_clear (&r);

  if (old != NULL)
    g_setenv ("XDG_CACHE_HOME", old, TRUE);
  else
    g_unsetenv ("XDG_CACHE_HOME");
  g_unlink (csv);
  g_rmdir (dir);
  *strrchr (dir, G_DIR_SEPARATOR) = '\0';
  g_rmdir (dir);
  g_rmdir (cache);
}

/* Whether @locale is installed here (build-aux/dev deps installs de, es, fr and zh_CN). */
static gboolean
have_locale (const char *locale)
{
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  gboolean ok = setlocale (LC_NUMERIC, locale) != NULL;

  setlocale (LC_NUMERIC, old);
  if (!ok)
    g_test_message ("%s is not installed: not checked", locale);
  return ok;
}

/* Text people read groups thousands as the locale does (issue 18: "1792 GB/s"); the C locale
 * groups nothing, and JSON never changes. */
static void
test_text_grouping (void)
{
  static const struct { const char *locale; const char *bandwidth; } cases[] = {
    { "C.UTF-8", "    1792 GB/s" },
    { "de_DE.UTF-8", "   1.792 GB/s" },
    { "zh_CN.UTF-8", "   1,792 GB/s" },
  };
  HrTestRun r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rtx = NULL;

      if (!have_locale (cases[i].locale))
        continue;
      run_cli (&r, cases[i].locale, "list", "gpus", NULL);
      g_assert_cmpint (r.status, ==, 0);
      rtx = line_starting (r.out, "rtx-5090-32gb ");
      if (strstr (rtx, cases[i].bandwidth) == NULL)
        g_error ("[%s] expected “%s” in “%s”", cases[i].locale, cases[i].bandwidth, rtx);
      hr_test_run_clear (&r);

      run_cli (&r, cases[i].locale, "list", "gpus", "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "\"bandwidth_gbs\": 1792"));
      hr_test_run_clear (&r);
    }
}

/* The estimate text groups a plain context length, the prompt length and the figures inside
 * the decode and prefill basis sentences ("of 7.700 GB/s" in German); the JSON keeps those sentences as
 * they were, ungrouped, for the scripts that read them (issue 18). */
static void
test_text_grouping_basis (void)
{
  static const struct { const char *locale; const char *context; const char *bandwidth; const char *prompt; } cases[] = {
    { "C.UTF-8", " 52480 ", " 7700 GB/s", "(4096-token prompt)" },
    { "de_DE.UTF-8", " 52.480 ", " 7.700 GB/s", "(4.096-Token-Prompt)" },
    { "zh_CN.UTF-8", " 52,480 ", " 7,700 GB/s", "(4,096-token prompt)" },
  };
  HrTestRun r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *header = NULL;
      g_autofree char *basis = NULL;

      if (!have_locale (cases[i].locale))
        continue;
      run_cli (&r, cases[i].locale, "estimate", "--model", "glm-4.5-air", "--gpu", "b200-180gb",
               "--context", "52480", NULL);
      g_assert_cmpint (r.status, ==, 0);
      header = g_strndup (r.out, strcspn (r.out, "\n"));
      if (strstr (header, cases[i].context) == NULL)
        g_error ("[%s] expected “%s” in “%s”", cases[i].locale, cases[i].context, header);
      if (strstr (r.out, cases[i].bandwidth) == NULL)
        g_error ("[%s] expected “%s” in:\n%s", cases[i].locale, cases[i].bandwidth, r.out);
      if (strstr (r.out, cases[i].prompt) == NULL)
        g_error ("[%s] expected “%s” in:\n%s", cases[i].locale, cases[i].prompt, r.out);
      hr_test_run_clear (&r);

      run_cli (&r, cases[i].locale, "estimate", "--model", "glm-4.5-air", "--gpu", "b200-180gb",
               "--context", "52480", "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "\"context\": 52480"));
      basis = g_strndup (strstr (r.out, "\"decode_basis\""), 200);
      if (strstr (basis, " 7700 GB/s") == NULL)
        g_error ("[%s] JSON decode_basis changed: %s", cases[i].locale, basis);
      hr_test_run_clear (&r);
    }
}

/* Compare's text table keeps its columns in every locale: "—" and a French narrow no-break
 * space are one column each, though several bytes. */
static void
test_compare_text_columns (void)
{
  static const char *const locales[] = { "C.UTF-8", "fr_FR.UTF-8" };
  HrTestRun r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (locales); i++)
    {
      g_auto(GStrv) lines = NULL;
      glong width;

      if (!have_locale (locales[i]))
        continue;
      run_cli (&r, locales[i], "compare", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--gpu", "b200-180gb",
               "--gpu", "rtx-3060-12gb", NULL);
      g_assert_cmpint (r.status, ==, 0);
      lines = g_strsplit (r.out, "\n", -1);
      g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* header, three GPUs, "" */
      width = g_utf8_strlen (lines[0], -1);
      for (guint l = 1; l < 4; l++)
        if (g_utf8_strlen (lines[l], -1) != width)
          g_error ("[%s] line %u is %ld columns, the header %ld:\n%s", locales[i], l,
                   g_utf8_strlen (lines[l], -1), width, r.out);
      /* B200's prefill passes a thousand tokens a second */
      if (g_str_equal (locales[i], "fr_FR.UTF-8"))
        g_assert_nonnull (strstr (lines[2], "\u202f"));
      hr_test_run_clear (&r);
    }
}

/* The text of a chart exported as PDF, as pdftotext reads it back (NULL without pdftotext). */
static char *
chart_text (const char *locale,
            const char *kind,
            ...)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-cli-chart-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "chart.pdf", NULL);
  g_autofree char *txt = g_build_filename (dir, "chart.txt", NULL);
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", locale, TRUE);
  HrTestRun r = { 0 };
  char *text = NULL;
  va_list ap;

  if (pdftotext == NULL)
    {
      g_rmdir (dir);
      return NULL;
    }
  envp = g_environ_setenv (envp, "LANGUAGE", g_str_has_prefix (locale, "de") ? "de" : "en", TRUE);
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, "chart");
  g_ptr_array_add (argv, (gpointer) kind);
  va_start (ap, kind);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, "--out");
  g_ptr_array_add (argv, pdf);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (&r, argv, envp);
  g_assert_cmpint (r.status, ==, 0);
  hr_test_run_clear (&r);

  g_ptr_array_set_size (argv, 0);
  g_ptr_array_add (argv, pdftotext);
  g_ptr_array_add (argv, pdf);
  g_ptr_array_add (argv, txt);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (&r, argv, envp);
  g_assert_cmpint (r.status, ==, 0);
  hr_test_run_clear (&r);
  g_assert_true (g_file_get_contents (txt, &text, NULL, NULL));
  g_unlink (pdf);
  g_unlink (txt);
  g_rmdir (dir);
  return text;
}

static void
assert_contains (const char *text,
                 const char *want)
{
  if (strstr (text, want) == NULL)
    g_error ("expected “%s” in:\n%s", want, text);
}

static void
assert_matches (const char *text,
                const char *pattern)
{
  if (!g_regex_match_simple (pattern, text, G_REGEX_MULTILINE, 0))
    g_error ("expected /%s/ in:\n%s", pattern, text);
}

/* A chart's prices read as the rest of the app writes them in the user's locale, whether drawn
 * by the chart or handed to it by the CLI (the rent-versus-buy legend wrote "$1999" and "/h"
 * in German): "$1.999" and "$1,00/Std." in German, "$1,999" in English, "$1999" in C. */
static void
test_chart_prices (void)
{
  static const struct {
    const char *locale;
    const char *title, *buy, *cloud_price, *cost;
  } cases[] = {
    { "de_DE.UTF-8", "Mieten vs. Kaufen: RTX 5090 32GB", "Kaufen: RTX 5090 32GB ($1.999)",
      "\\(\\$[0-9]+,[0-9][0-9]/Std\\.\\)", "^\\$[0-9],[0-9][0-9]$" },
    { "en_US.UTF-8", "Rent versus buy: RTX 5090 32GB", "Buy: RTX 5090 32GB ($1,999)",
      "\\(\\$[0-9]+\\.[0-9][0-9]/h\\)", "^\\$[0-9]\\.[0-9][0-9]$" },
    { "C.UTF-8", "Rent versus buy: RTX 5090 32GB", "Buy: RTX 5090 32GB ($1999)",
      "\\(\\$[0-9]+\\.[0-9][0-9]/h\\)", "^\\$[0-9]\\.[0-9][0-9]$" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *tco = NULL, *compare = NULL;

      if (!have_locale (cases[i].locale))
        continue;
      tco = chart_text (cases[i].locale, "tco", "--model", "glm-4.5-air", "--gpu", "rtx-5090-32gb",
                        "--hardware-usd", "1999", NULL);
      if (tco == NULL)
        {
          g_test_skip ("pdftotext not found: the chart's text cannot be read back");
          return;
        }
      assert_contains (tco, cases[i].title);
      assert_contains (tco, cases[i].buy);
      assert_matches (tco, cases[i].cloud_price);
      /* the cost per 1M tokens under $10, drawn by the chart itself */
      compare = chart_text (cases[i].locale, "compare", "--model", "glm-4.5-air",
                            "--gpu", "h100-80gb-sxm", NULL);
      assert_matches (compare, cases[i].cost);
    }
}

/* Every string in @node (objects and arrays walked) that holds a decimal comma ("9,13 GiB"),
 * appended to @found as "key: value". */
static void
collect_decimal_commas (JsonNode   *node,
                        const char *key,
                        GRegex     *comma,
                        GString    *found)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &member, &child))
        collect_decimal_commas (child, member, comma, found);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_decimal_commas (json_array_get_element (array, i), key, comma, found);
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING
           && g_regex_match (comma, json_node_get_string (node), 0, NULL))
    g_string_append_printf (found, "%s: %s\n", key, json_node_get_string (node));
}

/* SPEC §4: a German desktop writes no decimal comma into JSON or CSV, not even inside text
 * ("decode_basis": "speichergebunden: 9,13 GiB …" and "gpu_name": "Eigene GPU (24,5 GiB)"
 * did), while the text for people keeps it. */
static void
test_json_german_numbers (void)
{
  static const char *const commands[][12] = {
    { "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--json" },
    { "estimate", "--model", "qwen3-30b-a3b", "--gpu-custom", "memory_gib=24.5,bandwidth_gbs=936.2,fp16_tflops=71.5",
      "--json" },
    { "estimate", "--model", "qwen3-30b-a3b", "--gpu-custom", "memory_gib=24.5,bandwidth_gbs=400,unified=true",
      "--n-cpu-moe", "8", "--json" },
    { "matrix", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--json" },
    { "compare", "--model", "glm-4.5-air", "--all-gpus", "--json" },
    { "finetune", "--model", "glm-4.5-air", "--method", "qlora", "--json" },
    { "launch", "--model", "qwen3-30b-a3b", "--gpu", "h100-80gb-sxm", "--engine", "vllm", "--json" },
    { "list", "gpus", "--json" },
  };
  g_autoptr(GRegex) comma = g_regex_new ("[0-9],[0-9]{1,2}(?![0-9])", 0, 0, NULL);
  HrTestRun r = { 0 };

  if (!have_locale ("de_DE.UTF-8"))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "de_DE.UTF-8", TRUE);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GString) found = g_string_new (NULL);

      envp = g_environ_setenv (envp, "LANGUAGE", "de", TRUE);
      g_ptr_array_add (argv, (gpointer) cli);
      for (guint k = 0; commands[i][k] != NULL; k++)
        g_ptr_array_add (argv, (gpointer) commands[i][k]);
      g_ptr_array_add (argv, NULL);
      hr_test_run_spawn (&r, argv, envp);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
      collect_decimal_commas (json_parser_get_root (parser), NULL, comma, found);
      if (found->len > 0)
        g_error ("%s --json under de_DE wrote decimal commas:\n%s", commands[i][0], found->str);
      hr_test_run_clear (&r);
    }

  /* the text still German, with its figures as German writes them; the JSON alike in words */
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("speichergebunden: [0-9]+,[0-9][0-9] GiB", r.out, 0, 0));
  hr_test_run_clear (&r);
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--json", NULL);
  g_assert_true (g_regex_match_simple ("\"decode_basis\": \"speichergebunden: [0-9]+\\.[0-9][0-9] GiB", r.out, 0, 0));
  hr_test_run_clear (&r);
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "qwen3-30b-a3b", "--gpu-custom",
           "memory_gib=24.5,bandwidth_gbs=936.2,fp16_tflops=71.5", NULL);
  g_assert_nonnull (strstr (r.out, "Eigene GPU (24,5 GiB)"));
  hr_test_run_clear (&r);
  run_cli (&r, "de_DE.UTF-8", "estimate", "--model", "qwen3-30b-a3b", "--gpu-custom",
           "memory_gib=24.5,bandwidth_gbs=936.2,fp16_tflops=71.5", "--json", NULL);
  g_assert_nonnull (strstr (r.out, "\"gpu_name\": \"Eigene GPU (24.5 GiB)\""));
  hr_test_run_clear (&r);

  /* CSV: the same bytes as in the C locale */
  {
    HrTestRun c = { 0 };

    run_cli (&r, "de_DE.UTF-8", "compare", "--model", "glm-4.5-air", "--all-gpus", "--csv", NULL);
    run_cli (&c, "C.UTF-8", "compare", "--model", "glm-4.5-air", "--all-gpus", "--csv", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, c.out);
    hr_test_run_clear (&r);
    hr_test_run_clear (&c);
  }
}

/* A --gpu-custom GPU is named after its memory ("Eigene GPU (24,5 GiB)" in German text): the
 * compare CSV's gpu_name and the llama.cpp launch note in JSON wrote that decimal comma too,
 * where estimate's JSON already wrote "(24.5 GiB)". */
static void
test_custom_gpu_name_german_data (void)
{
  const char *spec = "memory_gib=24.5,bandwidth_gbs=936.2,fp16_tflops=71.5";
  HrTestRun r = { 0 };

  if (!have_locale ("de_DE.UTF-8"))
    return;
  run_cli (&r, "de_DE.UTF-8", "compare", "--model", "qwen3-8b", "--gpu-custom", spec,
           "--gpu", "h100-80gb-sxm", "--csv", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Eigene GPU (24.5 GiB)"));
  g_assert_null (strstr (r.out, "24,5"));
  hr_test_run_clear (&r);

  run_cli (&r, "de_DE.UTF-8", "launch", "--model", "qwen3-8b", "--gpu-custom", spec,
           "--engine", "llama.cpp", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Eigene GPU (24.5 GiB)"));
  g_assert_null (strstr (r.out, "24,5"));
  hr_test_run_clear (&r);

  /* the text for people keeps the German figure */
  run_cli (&r, "de_DE.UTF-8", "launch", "--model", "qwen3-8b", "--gpu-custom", spec,
           "--engine", "llama.cpp", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "(24,5"));
  hr_test_run_clear (&r);
}

/* A launch note for a model that will not load gives its sizes as the rest of the text does
 * ("210,03 GiB bei 21,60 GiB" in German; it wrote "210.03"), in JSON with '.', and the command's
 * own flags stay C ("--gpu-memory-utilization 0.90"). */
static void
test_launch_note_german_figures (void)
{
  HrTestRun r = { 0 };

  if (!have_locale ("de_DE.UTF-8"))
    return;
  run_cli (&r, "de_DE.UTF-8", "launch", "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb",
           "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("[0-9],[0-9][0-9] GiB[\\s#]+bei[\\s#]+[0-9]+,[0-9][0-9] GiB", r.out,
                                       G_REGEX_MULTILINE, 0));
  g_assert_false (g_regex_match_simple ("[0-9]\\.[0-9][0-9] GiB", r.out, 0, 0));
  g_assert_nonnull (strstr (r.out, "--gpu-memory-utilization 0.90"));
  hr_test_run_clear (&r);

  run_cli (&r, "de_DE.UTF-8", "launch", "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb",
           "--engine", "vllm", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("[0-9]\\.[0-9][0-9] GiB bei [0-9]+\\.[0-9][0-9] GiB", r.out, 0, 0));
  g_assert_false (g_regex_match_simple ("[0-9],[0-9][0-9] GiB", r.out, 0, 0));
  hr_test_run_clear (&r);

  run_cli (&r, "C", "launch", "--model", "glm-4.5-air", "--gpu", "rtx-4090-24gb",
           "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("[0-9]\\.[0-9][0-9] GiB[\\s#]+against[\\s#]+[0-9]+\\.[0-9][0-9] GiB", r.out, 0, 0));
  hr_test_run_clear (&r);
}

/* matrix with vLLM: the GGUF rows of a model whose GGUF vLLM cannot read are the BF16
 * checkpoint it serves, and say so (#28); with llama.cpp they are the GGUF files. */
static void
test_matrix_engine_loads (void)
{
  HrTestRun r = { 0 };
  g_autofree char *row = NULL;

  run_cli (&r, NULL, "matrix", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  row = line_starting (r.out, "Q4_K_M ");
  g_assert_true (g_str_has_suffix (row, " loads BF16"));
  g_assert_nonnull (strstr (row, " exceeds "));
  g_clear_pointer (&row, g_free);
  hr_test_run_clear (&r);
  run_cli (&r, NULL, "matrix", "--model", "glm-4.5-air", "--gpu", "h100-80gb-sxm", NULL);
  g_assert_cmpint (r.status, ==, 0);
  row = line_starting (r.out, "Q4_K_M ");
  g_assert_null (strstr (row, "loads"));
  hr_test_run_clear (&r);
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
  g_test_add_func ("/cli/estimate-json", test_estimate_json);
  g_test_add_func ("/cli/matrix-engine-loads", test_matrix_engine_loads);
  g_test_add_func ("/cli/estimate-exact-bytes", test_estimate_exact_bytes);
  g_test_add_func ("/cli/estimate-vllm-capacity", test_estimate_vllm_capacity);
  g_test_add_func ("/cli/estimate-draft", test_estimate_draft);
  g_test_add_func ("/cli/estimate-german-locale", test_estimate_german_locale);
  g_test_add_func ("/cli/compare-all-csv", test_compare_all_csv);
  g_test_add_func ("/cli/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/gpu-generation", test_gpu_generation);
  g_test_add_func ("/cli/gpu-custom-pascal", test_gpu_custom_pascal);
  g_test_add_func ("/cli/gpu-custom", test_gpu_custom);
  g_test_add_func ("/cli/engine-version", test_engine_version);
  g_test_add_func ("/cli/depth", test_depth);
  g_test_add_func ("/cli/prices-only-when-needed", test_prices_only_when_needed);
  g_test_add_func ("/cli/text-grouping", test_text_grouping);
  g_test_add_func ("/cli/text-grouping-basis", test_text_grouping_basis);
  g_test_add_func ("/cli/compare-text-columns", test_compare_text_columns);
  if (g_getenv ("HEADROOM_LOCALEDIR") != NULL)
    {
      g_test_add_func ("/cli/german-text", test_german_text);
      g_test_add_func ("/cli/chart-prices", test_chart_prices);
      g_test_add_func ("/cli/json-german-numbers", test_json_german_numbers);
      g_test_add_func ("/cli/custom-gpu-name-german-data", test_custom_gpu_name_german_data);
      g_test_add_func ("/cli/launch-note-german-figures", test_launch_note_german_figures);
    }
  return g_test_run ();
}
