/* test-cli-devices.c — `headroom-cli` with several --gpu (#31): every listed device is sized
 * (a repeated --gpu used to size only the first), --gpu ID:N counts, the JSON's devices[] add
 * up to its totals, launch carries the plan's --tensor-split, vLLM refuses a mixed set */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "hr-test-cli.h"
#include "hr-test-machine.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static const char *cli;

static void
run (HrTestRun *r,
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
  hr_test_run_spawn (r, argv, envp);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static double
sum_of (JsonArray  *devices,
        const char *member)
{
  double sum = 0;

  for (guint i = 0; i < json_array_get_length (devices); i++)
    sum += json_object_get_double_member (json_array_get_object_element (devices, i), member);
  return sum;
}

/* Two --gpu are two devices: 48 GiB, two entries in devices[], their sums the totals. */
static void
test_repeated_gpu (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonObject) o = NULL;
  JsonArray *devices;
  double n;

  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb",
       "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out);
  g_assert_cmpint (json_object_get_int_member (o, "gpus"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (o, "physical_bytes"), ==, 48 * GIB);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), !=, "exceeds");
  g_assert_cmpstr (json_object_get_string_member (o, "split"), ==, "layer");
  g_assert_cmpstr (json_object_get_string_member (o, "slowest_device"), ==, "rtx-3090-24gb");
  g_assert_nonnull (strstr (json_object_get_string_member (o, "decode_basis"), "RTX 3090 24GB takes"));
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpint (json_array_get_length (devices), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 0), "id"), ==,
                   "rtx-4090-24gb");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 1), "id"), ==,
                   "rtx-3090-24gb");
  n = json_array_get_length (devices);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "weights_bytes"),
                                  json_object_get_double_member (o, "weights_device_bytes"), n);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "kv_cache_bytes"),
                                  json_object_get_double_member (o, "kv_cache_bytes"), n);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "compute_buffer_bytes") + sum_of (devices, "runtime_bytes"),
                                  json_object_get_double_member (o, "overhead_bytes"), 2 * n);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "required_bytes"),
                                  json_object_get_double_member (o, "required_bytes"), n);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "usable_bytes"),
                                  json_object_get_double_member (o, "usable_bytes"), n);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "margin_bytes"),
                                  json_object_get_double_member (o, "margin_bytes"), 2 * n);
  g_assert_cmpfloat (sum_of (devices, "layers"), ==, 80);
  hr_test_run_clear (&r);

  /* and the text says so, device by device */
  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "RTX 4090 24GB + RTX 3090 24GB"));
  g_assert_nonnull (strstr (r.out, "  0 RTX 4090 24GB: "));
  g_assert_nonnull (strstr (r.out, "  1 RTX 3090 24GB: "));
  hr_test_run_clear (&r);

  /* 4090 + 3060: 36 GB does not hold it, and the search says what does */
  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3060-12gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autoptr(JsonObject) x = parse_object (r.out);
    JsonObject *found = json_object_get_object_member (x, "placement_search");

    g_assert_cmpstr (json_object_get_string_member (x, "verdict"), ==, "exceeds");
    g_assert_nonnull (found);
    g_assert_cmpint (json_object_get_int_member (found, "ram_layers"), >, 0);
    g_assert_cmpint (json_object_get_int_member (found, "gpu_layers"), ==,
                     81 - json_object_get_int_member (found, "ram_layers"));
    g_assert_cmpstr (json_object_get_string_member (found, "verdict"), !=, "exceeds");
    g_assert_nonnull (json_object_get_string_member (found, "tensor_split"));
  }
  hr_test_run_clear (&r);

  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3060-12gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Verdict: Does not fit"));
  g_assert_nonnull (strstr (r.out, "Placement search: it fits with "));
  /* more of the first GPU is no fix for a setup of different ones */
  g_assert_null (strstr (r.out, "use 3 GPUs"));
  hr_test_run_clear (&r);
}

/* --gpu ID:N is N alike devices: the same estimate as --gpus N. */
static void
test_count_suffix (void)
{
  HrTestRun a = { 0 }, b = { 0 };

  run (&a, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-3090-24gb:2", "--json", NULL);
  run (&b, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-3090-24gb", "--gpus", "2", "--json", NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==, b.out);
  hr_test_run_clear (&a);
  hr_test_run_clear (&b);

  /* a bad count is a usage error, and so is a list beside --gpus */
  run (&a, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-3090-24gb:0", NULL);
  g_assert_cmpint (a.status, ==, 2);
  hr_test_run_clear (&a);
  run (&a, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb",
       "--gpus", "2", NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "--gpu ID:N"));
  hr_test_run_clear (&a);
}

/* launch: the llama-server command carries the estimate's --tensor-split; vLLM runs the
 * different GPUs as pipeline stages. */
static void
test_launch (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonObject) o = NULL;
  g_autofree char *flag = NULL;
  const char *const second[] = { "rtx-3090-24gb", "rtx-3060-12gb" };

  for (guint i = 0; i < G_N_ELEMENTS (second); i++)
    {
      run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", second[i], "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_clear_pointer (&o, json_object_unref);
      o = parse_object (r.out);
      g_free (flag);
      flag = g_strdup_printf ("--tensor-split %s ", json_object_get_string_member (o, "tensor_split"));
      hr_test_run_clear (&r);

      run (&r, "launch", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", second[i],
           "--engine", "llama.cpp", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, flag));
      hr_test_run_clear (&r);
    }

  run (&r, "launch", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--tensor-parallel-size 1 --pipeline-parallel-size 2"));
  g_assert_null (strstr (r.out, "--tensor-parallel-size 2"));
  g_assert_null (strstr (r.out, "--tensor-split 1,1"));
  hr_test_run_clear (&r);
}

/* vLLM on different GPUs (#31): pipeline stages, 18 + 18 layers of Qwen3-8B, the same KV
 * blocks on both; the JSON says so device by device. */
static void
test_pipeline (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonObject) o = NULL;
  JsonArray *devices;
  JsonObject *d0, *d1;

  run (&r, "estimate", "--model", "qwen3-8b", "--quant", "BF16", "--gpu", "rtx-4090-24gb", "--gpu",
       "rtx-3090-24gb", "--engine", "vllm", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out);
  g_assert_cmpstr (json_object_get_string_member (o, "split"), ==, "pipeline");
  g_assert_cmpstr (json_object_get_string_member (o, "pp_layer_partition"), ==, "18,18");
  g_assert_false (json_object_get_boolean_member (o, "pp_custom_partition"));
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpint (json_array_get_length (devices), ==, 2);
  d0 = json_array_get_object_element (devices, 0);
  d1 = json_array_get_object_element (devices, 1);
  g_assert_cmpint (json_object_get_int_member (d0, "layers"), ==, 18);
  g_assert_true (json_object_get_boolean_member (d1, "output_layer"));
  g_assert_cmpfloat (json_object_get_double_member (d0, "kv_pool_bytes"), >, 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (d0, "kv_pool_bytes"),
                                  json_object_get_double_member (d1, "kv_pool_bytes"), 2);
  g_assert_cmpfloat_with_epsilon (sum_of (devices, "required_bytes"),
                                  json_object_get_double_member (o, "required_bytes"), 2);
  hr_test_run_clear (&r);

  /* SGLang too, with its own flag; the 12 GB card first cannot take half of it: the stages
   * are set at launch */
  run (&r, "launch", "--model", "qwen3-8b", "--quant", "BF16", "--gpu", "rtx-3060-12gb", "--gpu",
       "rtx-3090-24gb", "--engine", "sglang", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "SGLANG_PP_LAYER_PARTITION="));
  g_assert_nonnull (strstr (r.out, "--tp 1 --pp-size 2"));
  hr_test_run_clear (&r);
}

/* --tensor-split: the plan follows the user's proportions, each device's verdict with it;
 * anything else is a one-line usage error. */
static void
test_tensor_split (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonObject) o = NULL;
  JsonArray *devices;
  const char *const bad[] = { "-1,2", "1,1,1", "0,0", "a,b", "1,", "1", "nan,1" };

  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb",
       "--tensor-split", "3,1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out);
  g_assert_cmpstr (json_object_get_string_member (o, "tensor_split"), ==, "3,1");
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (devices, 0), "layers"), ==, 61);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (devices, 1), "layers"), ==, 19);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 0), "verdict"), ==,
                   "exceeds");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 1), "verdict"), ==,
                   "fits");
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "exceeds");
  hr_test_run_clear (&r);

  /* "3/1" is llama.cpp's other spelling; launch carries it as given */
  run (&r, "launch", "--model", "llama-3.3-70b", "--gpu", "rtx-3090-24gb:2", "--tensor-split", "3/1",
       "--engine", "llama.cpp", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--tensor-split 3,1 --split-mode layer"));
  hr_test_run_clear (&r);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb",
           "--tensor-split", bad[i], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, "--tensor-split"));
      g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, strlen (r.err) - 1);
      hr_test_run_clear (&r);
    }
  run (&r, "estimate", "--model", "llama-3.3-70b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3090-24gb",
       "--tensor-split", "1,1", "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 2);
  hr_test_run_clear (&r);
}

/* A laptop's discrete GPU beside its integrated one: the integrated GPU is left out, as
 * llama.cpp does, and the setup is the discrete card's 16 GiB. */
static void
test_integrated (void)
{
  HrTestRun r = { 0 };
  g_autoptr(JsonObject) o = NULL;

  run (&r, "estimate", "--model", "qwen3-14b", "--gpu", "rtx-4060-ti-16gb", "--gpu-custom",
       "memory_gib=32,bandwidth_gbs=90,fp16_tflops=16,unified=true", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out);
  g_assert_nonnull (json_object_get_string_member (o, "device_left_out"));
  g_assert_cmpfloat (json_object_get_double_member (o, "physical_bytes"), ==, 16 * GIB);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (o, "devices")), ==, 1);
  hr_test_run_clear (&r);

  run (&r, "estimate", "--model", "qwen3-14b", "--gpu", "rtx-4060-ti-16gb", "--gpu-custom",
       "memory_gib=32,bandwidth_gbs=90,fp16_tflops=16,unified=true", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "is left out: llama.cpp uses an integrated GPU only when there is no other"));
  hr_test_run_clear (&r);
}

/* --gpu this on a computer with an RTX 4090 (CUDA0) and an RTX 3090 (CUDA1): both devices, in
 * the driver's order (the older code sized one of them). */
static void
test_this_computer (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("headroom-cli-devices-XXXXXX", &error);
  g_autofree char *bin = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(JsonObject) o = NULL;
  const char *rm[] = { "/bin/rm", "-rf", NULL, NULL };
  HrTestRun r = { 0 };
  JsonArray *devices;

  g_assert_no_error (error);
  hr_test_put (root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
                             "physical id\t: 0\ncore id\t: 0\n\n", 0644);
  hr_test_put (root, "proc/meminfo", "MemTotal:       67108864 kB\nMemAvailable:   60000000 kB\n", 0644);
  hr_test_put (root, "bin/nvidia-smi", "#!/bin/sh\nprintf '0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n"
                               "1, NVIDIA GeForce RTX 3090, 0x220410DE, 24576, 300\\n'\n", 0755);
  bin = g_build_filename (root, "bin", NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "HEADROOM_SYSROOT", root, TRUE);
  envp = g_environ_setenv (envp, "PATH", bin, TRUE);
  g_ptr_array_add (argv, (gpointer) cli);
  for (const char *const *a = (const char *const[]) { "estimate", "--model", "llama-3.3-70b", "--gpu", "this",
                                                        "--json", NULL }; *a; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (&r, argv, envp);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_object (r.out);
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpint (json_object_get_int_member (o, "gpus"), ==, 2);
  g_assert_cmpint (json_array_get_length (devices), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 0), "name"), ==,
                   "RTX 4090 24GB");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (devices, 1), "name"), ==,
                   "RTX 3090 24GB");
  g_assert_nonnull (json_object_get_string_member (o, "tensor_split"));
  hr_test_run_clear (&r);

  rm[2] = root;
  g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* compare keeps a repeated --gpu as its list: one row per GPU. */
static void
test_compare_list (void)
{
  HrTestRun r = { 0 };

  run (&r, "compare", "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb", "--gpu", "rtx-3060-12gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\nRTX 4090 24GB "));
  g_assert_nonnull (strstr (r.out, "\nRTX 3060 12GB "));
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
      g_test_skip ("HEADROOM_CLI not set");
      return 0;
    }
  g_test_add_func ("/cli-devices/repeated-gpu", test_repeated_gpu);
  g_test_add_func ("/cli-devices/count-suffix", test_count_suffix);
  g_test_add_func ("/cli-devices/launch", test_launch);
  g_test_add_func ("/cli-devices/pipeline", test_pipeline);
  g_test_add_func ("/cli-devices/tensor-split", test_tensor_split);
  g_test_add_func ("/cli-devices/integrated", test_integrated);
  g_test_add_func ("/cli-devices/compare-list", test_compare_list);
  g_test_add_func ("/cli-devices/this-computer", test_this_computer);
  return g_test_run ();
}
