/* test-runs.c — the readers of engine output and the check of a run against Headroom
 *
 * Fixtures are real outputs from public posts (tests/fixtures/runs/SOURCES.md); every expected
 * figure below is read off those lines.  Hostile inputs are made here.
 */
#include <math.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-runs.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

#include <glib/gstdio.h>

static HrCatalog *catalog;

static GPtrArray *
parse_fixture (const char *name,
               GError    **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "runs", name, NULL);
  g_autofree char *text = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return hr_runs_parse (text, len, error);
}

static HrRun *
run_at (GPtrArray *runs,
        guint      i)
{
  g_assert_cmpuint (i, <, runs->len);
  return g_ptr_array_index (runs, i);
}

static void
assert_close (double a,
              double b,
              double rel)
{
  g_assert_true (isfinite (a));
  g_assert_cmpfloat_with_epsilon (a, b, fabs (b) * rel);
}

/* ---- llama-bench ------------------------------------------------------------------------- */

static void
test_markdown_rx580 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("bench-vulkan-rx580.md", &error);
  HrRun *r;

  g_assert_no_error (error);
  /* pp512, pp4096, tg128; the pp4096+tg128 row is no figure Headroom predicts */
  g_assert_cmpuint (runs->len, ==, 3);
  r = run_at (runs, 0);
  g_assert_cmpint (r->format, ==, HR_RUN_BENCH_MARKDOWN);
  g_assert_cmpint (r->line, ==, 8);
  g_assert_cmpstr (r->model_type, ==, "llama 3B Q4_K - Medium");
  g_assert_cmpstr (r->quant, ==, "Q4_K_M");
  g_assert_cmpstr (r->device, ==, "AMD Radeon RX 580 Series");
  g_assert_cmpstr (r->backend, ==, "Vulkan");
  g_assert_cmpstr (r->build, ==, "e598697d (4696)");
  g_assert_cmpint (r->ngl, ==, 99);
  g_assert_cmpint (r->n_devices, ==, 1);
  assert_close (r->params, 3.21e9, 1e-9);
  assert_close (r->model_bytes, 1.87 * HR_GIB, 1e-9);
  g_assert_cmpint (r->n_prompt, ==, 512);
  assert_close (r->measured[HR_MEASURE_PREFILL], 346.76, 1e-12);
  g_assert_true (isnan (r->measured[HR_MEASURE_DECODE]));
  r = run_at (runs, 1);
  g_assert_cmpint (r->n_prompt, ==, 4096);
  assert_close (r->measured[HR_MEASURE_PREFILL], 255.79, 1e-12);
  r = run_at (runs, 2);
  g_assert_cmpint (r->n_gen, ==, 128);
  g_assert_cmpint (r->depth, ==, 0);
  assert_close (r->measured[HR_MEASURE_DECODE], 36.23, 1e-12);
}

static void
test_markdown_two_tables (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("bench-rtx4090-vulkan.md", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 4);
  g_assert_cmpstr (run_at (runs, 0)->build, ==, "086a63e3a (7340)");
  assert_close (run_at (runs, 0)->model_bytes, 636.18 * HR_MIB, 1e-9);
  assert_close (run_at (runs, 2)->measured[HR_MEASURE_DECODE], 762.37, 1e-12);
  g_assert_cmpstr (run_at (runs, 3)->model_type, ==, "llama 3B Q4_K - Medium");
  assert_close (run_at (runs, 3)->measured[HR_MEASURE_PREFILL], 20323.29, 1e-12);
  g_assert_null (run_at (runs, 3)->device);
}

/* CSV, JSON and JSONL of the same two runs read alike */
static void
test_bench_machine_formats (void)
{
  static const struct { const char *file; HrRunFormat format; } files[] = {
    { "bench-readme.json", HR_RUN_BENCH_JSON },
    { "bench-readme.jsonl", HR_RUN_BENCH_JSON },
    { "bench-readme.csv", HR_RUN_BENCH_CSV },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) runs = parse_fixture (files[i].file, &error);
      HrRun *pp, *tg;

      g_assert_no_error (error);
      g_assert_cmpuint (runs->len, ==, 2);
      pp = run_at (runs, 0);
      tg = run_at (runs, 1);
      g_assert_cmpint (pp->format, ==, files[i].format);
      g_assert_cmpstr (pp->model, ==, "models/Qwen2.5-7B-Instruct-Q4_K_M.gguf");
      g_assert_cmpstr (pp->model_type, ==, "qwen2 7B Q4_K - Medium");
      g_assert_cmpstr (pp->quant, ==, "Q4_K_M");
      g_assert_cmpstr (pp->device, ==, "NVIDIA GeForce RTX 4080");
      g_assert_cmpstr (pp->backend, ==, "CUDA");
      g_assert_cmpstr (pp->build, ==, "8cf427ff (5163)");
      g_assert_cmpfloat (pp->model_bytes, ==, 4677120000.0);
      g_assert_cmpfloat (pp->params, ==, 7615616512.0);
      g_assert_cmpint (pp->n_ubatch, ==, 512);
      g_assert_cmpint (pp->ngl, ==, -1);
      g_assert_cmpstr (pp->type_k, ==, "f16");
      g_assert_cmpint (pp->n_prompt, ==, 512);
      assert_close (pp->measured[HR_MEASURE_PREFILL], 7100.002165, 1e-12);
      g_assert_cmpint (tg->n_gen, ==, 128);
      assert_close (tg->measured[HR_MEASURE_DECODE], 118.881588, 1e-12);
    }
}

static void
test_csv_width_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("bench-readme-mismatch.csv", &error);

  g_assert_null (runs);
  g_assert_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "line 2"));
}

/* ---- logs -------------------------------------------------------------------------------- */

static void
test_llama_log_2024 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("llama-rtx4080-2024.log", &error);
  HrRun *r;

  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  r = run_at (runs, 0);
  g_assert_cmpint (r->format, ==, HR_RUN_LLAMA_LOG);
  /* the CUDA0 buffers, not the CPU one (297 MiB) nor CUDA_Host's */
  assert_close (r->measured[HR_MEASURE_WEIGHTS], 7317.71 * HR_MIB, 1e-12);
  assert_close (r->measured[HR_MEASURE_KV], 180.0 * HR_MIB, 1e-12);
  assert_close (r->measured[HR_MEASURE_BUFFERS], 105.0 * HR_MIB, 1e-12);
  g_assert_cmpint (r->n_ctx, ==, 512);
  g_assert_cmpint (r->n_ubatch, ==, 512);
  g_assert_cmpint (r->flash_attn, ==, 0);
  g_assert_cmpint (r->ngl, ==, 31);
  g_assert_cmpstr (r->type_k, ==, "f16");
  g_assert_cmpstr (r->device, ==, "NVIDIA GeForce RTX 4080");
  g_assert_cmpstr (r->backend, ==, "CUDA");
  g_assert_cmpint (r->n_devices, ==, 1);
}

static void
test_llama_log_prefixed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("llama-kv-compute.log", &error);
  HrRun *r;

  g_assert_no_error (error);
  r = run_at (runs, 0);
  g_assert_true (isnan (r->measured[HR_MEASURE_WEIGHTS]));
  assert_close (r->measured[HR_MEASURE_KV], 144.0 * HR_MIB, 1e-12);
  /* the host's compute buffer (12.01 MiB) is in system RAM */
  assert_close (r->measured[HR_MEASURE_BUFFERS], 300.75 * HR_MIB, 1e-12);
}

static void
test_vllm_logs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("vllm-rtx5090-qwen36.log", &error);
  HrRun *r;

  g_assert_no_error (error);
  r = run_at (runs, 0);
  g_assert_cmpint (r->format, ==, HR_RUN_VLLM_LOG);
  g_assert_cmpfloat (r->measured[HR_MEASURE_KV_TOKENS], ==, 569878);
  assert_close (r->measured[HR_MEASURE_KV], 6.01 * HR_GIB, 1e-12);
  g_assert_cmpint (r->n_ctx, ==, 131072);
  g_assert_cmpstr (r->model, ==, "~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4");
  /* quantization 'modelopt' does not say NVFP4 or FP8; the checkpoint's name does */
  g_assert_cmpstr (r->quant, ==, "NVFP4");
  g_assert_null (r->quant_method);
  g_assert_cmpstr (r->type_k, ==, "fp8");
  g_assert_null (r->device);

  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = parse_fixture ("vllm-h100-qwen3-235b.log", &error);
  g_assert_no_error (error);
  r = run_at (runs, 0);
  g_assert_cmpfloat (r->measured[HR_MEASURE_KV_TOKENS], ==, 178880);
  assert_close (r->measured[HR_MEASURE_KV], 8.11 * HR_GIB, 1e-12);
}

static void
test_sglang_logs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("sglang-gemma3.log", &error);
  HrRun *r;

  g_assert_no_error (error);
  r = run_at (runs, 0);
  g_assert_cmpint (r->format, ==, HR_RUN_SGLANG_LOG);
  /* SGLang's "GB" are bytes / 2^30 */
  assert_close (r->measured[HR_MEASURE_WEIGHTS], 8.13 * HR_GIB, 1e-12);
  assert_close (r->measured[HR_MEASURE_KV], (54.12 + 54.12) * HR_GIB, 1e-12);
  g_assert_cmpfloat (r->measured[HR_MEASURE_KV_TOKENS], ==, 834615);

  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = parse_fixture ("sglang-h100-qwen3-235b.log", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (run_at (runs, 0)->measured[HR_MEASURE_KV_TOKENS], ==, 367404);
}

/* ---- mapping and prediction ---------------------------------------------------------------- */

static void
test_find_gpu (void)
{
  static const struct { const char *device; const char *id; } cases[] = {
    { "NVIDIA GeForce RTX 4090", "rtx-4090-24gb" },
    { "NVIDIA GeForce RTX 4090 D", "rtx-4090-d-24gb" },
    { "NVIDIA GeForce RTX 4080 SUPER", "rtx-4080-super-16gb" },
    { "NVIDIA GeForce RTX 4080", "rtx-4080-16gb" },
    { "NVIDIA H100 80GB HBM3", "h100-80gb-sxm" },
    { "NVIDIA H100 PCIe", "h100-80gb-pcie" },
    { "NVIDIA A100-SXM4-80GB", "a100-80gb-sxm" },
    { "NVIDIA A100-SXM4-40GB", "a100-40gb-sxm" },
    { "NVIDIA A100 80GB PCIe", "a100-80gb-pcie" },
    { "Tesla T4", "t4-16gb" },
    { "NVIDIA GB10", "dgx-spark-128gb" },
    { "AMD Radeon RX 7900 XTX", "rx-7900-xtx-24gb" },
    { "AMD Radeon RX 7900 XT", "rx-7900-xt-20gb" },
    { "Apple M2 Max", "m2-max-96gb" },
    { "Apple M4 Max", "m4-max-128gb" },
    /* not in the catalog, or not one card */
    { "AMD Radeon RX 580 Series", NULL },
    { "NVIDIA A100-SXM4", NULL },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const HrGpu *g = hr_run_find_gpu (catalog, cases[i].device);
      g_test_message ("%s", cases[i].device);
      g_assert_cmpstr (g ? g->id : NULL, ==, cases[i].id);
    }
}

static void
test_find_model (void)
{
  static const struct { const char *name; double params; const char *id; } cases[] = {
    { "Qwen3-8B-Q4_K_M.gguf", NAN, "qwen3-8b" },
    { "/models/unsloth/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf", 8.19e9, "qwen3-8b" },
    { "Qwen/Qwen3-8B", NAN, "qwen3-8b" },
    { "unsloth/gpt-oss-20b-GGUF", NAN, "gpt-oss-20b" },
    { "meta-llama/Meta-Llama-3.1-8B-Instruct", NAN, "llama-3.1-8b" },
    { "Llama-3.1-8B-Instruct-Q4_K_M-00001-of-00002.gguf", NAN, "llama-3.1-8b" },
    { "~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4", NAN, "qwen3.6-35b-a3b" },
    /* the name matches, the parameter count does not */
    { "Qwen3-8B-Q4_K_M.gguf", 2.0e9, NULL },
    { "models/Qwen2.5-7B-Instruct-Q4_K_M.gguf", NAN, NULL },
    { "x", NAN, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const HrModel *m = hr_run_find_model (catalog, cases[i].name, cases[i].params);
      g_test_message ("%s", cases[i].name);
      g_assert_cmpstr (m ? m->id : NULL, ==, cases[i].id);
    }
}

/* The llama-bench run of Llama 3.2 3B on an RX 580: the model is found by llama.cpp's
 * description (architecture + parameter count), the GPU is not in the catalog; given one, the
 * prediction is the estimate of the scenario the accuracy replay builds for the same test. */
static void
test_check_bench (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("bench-vulkan-rx580.md", &error);
  g_autoptr(HrRunCheck) unmapped = hr_run_check (run_at (runs, 2), catalog, NULL);
  HrRunHints hints = { .gpu_id = "rx-7900-xt-20gb" };
  g_autoptr(HrRunCheck) check = hr_run_check (run_at (runs, 2), catalog, &hints);
  HrScenario s;
  HrEstimate e;

  g_assert_false (unmapped->mapped);
  g_assert_nonnull (strstr (unmapped->reason, "AMD Radeon RX 580 Series"));
  g_assert_cmpstr (unmapped->model->id, ==, "llama-3.2-3b");
  g_assert_true (isnan (unmapped->predicted[HR_MEASURE_DECODE]));

  g_assert_true (check->mapped);
  g_assert_cmpstr (check->model->id, ==, "llama-3.2-3b");
  g_assert_cmpstr (check->gpu->id, ==, "rx-7900-xt-20gb");
  g_assert_cmpstr (check->scenario.quant, ==, "Q4_K_M");
  g_assert_cmpint (hr_scenario_backend (&check->scenario), ==, HR_BACKEND_VULKAN);

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.2-3b"),
                    hr_catalog_find_gpu (catalog, "rx-7900-xt-20gb"));
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  s.prompt_tokens = 64;          /* tg128 from depth 0 reads the cache at 64 on average */
  s.context = HR_MIN_CONTEXT;
  s.depth = 64;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, NULL));
  g_assert_cmpfloat (check->predicted[HR_MEASURE_DECODE], ==, e.decode_tps);
  g_assert_cmpfloat (check->error[HR_MEASURE_DECODE], ==, e.decode_tps / 36.23 - 1);
  g_assert_true (isnan (check->error[HR_MEASURE_PREFILL]));
}

static void
test_check_vllm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = parse_fixture ("vllm-rtx5090-qwen36.log", &error);
  g_autoptr(HrRunCheck) no_gpu = hr_run_check (run_at (runs, 0), catalog, NULL);
  HrRunHints hints = { .gpu_id = "rtx-5090-32gb" };
  g_autoptr(HrRunCheck) check = hr_run_check (run_at (runs, 0), catalog, &hints);

  g_assert_false (no_gpu->mapped);
  g_assert_nonnull (strstr (no_gpu->reason, "GPU"));
  g_assert_true (check->mapped);
  g_assert_cmpstr (check->model->id, ==, "qwen3.6-35b-a3b");
  g_assert_cmpint (check->scenario.engine, ==, HR_ENGINE_VLLM);
  g_assert_cmpstr (check->scenario.quant, ==, "NVFP4");
  g_assert_cmpint (check->scenario.kv_type, ==, HR_KV_FP8);
  g_assert_cmpint (check->scenario.context, ==, 131072);
  g_assert_cmpfloat (check->predicted[HR_MEASURE_KV_TOKENS], ==, check->estimate.kv_capacity_tokens);
  g_assert_cmpfloat (check->error[HR_MEASURE_KV_TOKENS], ==, check->estimate.kv_capacity_tokens / 569878.0 - 1);
}

/* A run with a --quantization the text cannot resolve is not predicted, and says so; the
 * user's --quant resolves it. */
static void
test_check_quant_method (void)
{
  const char *log = "non-default args: {'model': 'Qwen/Qwen3-8B', 'quantization': 'compressed-tensors'}\n"
                    "GPU KV cache size: 100,000 tokens\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_runs_parse (log, -1, &error);
  HrRunHints gpu = { .gpu_id = "h100-80gb-sxm" };
  HrRunHints both = { .gpu_id = "h100-80gb-sxm", .quant = "FP8" };
  g_autoptr(HrRunCheck) a = NULL;
  g_autoptr(HrRunCheck) b = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (run_at (runs, 0)->quant_method, ==, "compressed-tensors");
  a = hr_run_check (run_at (runs, 0), catalog, &gpu);
  g_assert_false (a->mapped);
  g_assert_nonnull (strstr (a->reason, "compressed-tensors"));
  b = hr_run_check (run_at (runs, 0), catalog, &both);
  g_assert_true (b->mapped);
  g_assert_cmpstr (b->scenario.quant, ==, "FP8");
}

static void
test_backend_list (void)
{
  const char *table =
    "| model                          |       size |     params | backend    | threads |            test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | ------: | --------------: | -------------------: |\n"
    "| qwen3 8B Q4_K - Medium         |   4.68 GiB |     8.19 B | BLAS,MTL   |       4 |           tg64 |         20.21 ± 0.00 |\n";
  g_autoptr(GPtrArray) runs = hr_runs_parse (table, -1, NULL);
  HrRunHints hints = { .gpu_id = "m4-max-128gb" };
  g_autoptr(HrRunCheck) check = hr_run_check (run_at (runs, 0), catalog, &hints);

  /* llama-bench lists the backends it was built with: Metal, not BLAS, ran the model */
  g_assert_true (check->mapped);
  g_assert_cmpint (hr_scenario_backend (&check->scenario), ==, HR_BACKEND_METAL);
  g_assert_cmpstr (check->model->id, ==, "qwen3-8b");
}

/* ---- hostile input ----------------------------------------------------------------------- */

static void
assert_refused (const char *text,
                gssize      len,
                int         code,
                const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_runs_parse (text, len, &error);

  g_assert_null (runs);
  g_assert_error (error, HR_RUNS_ERROR, code);
  if (fragment != NULL)
    g_assert_nonnull (strstr (error->message, fragment));
  /* one line */
  g_assert_null (strchr (error->message, '\n'));
}

#define HEADER "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: |\n"

static void
test_hostile (void)
{
  g_autofree char *big = g_malloc0 (HR_RUNS_MAX_BYTES + 2);
  g_autoptr(GString) many = g_string_new (HEADER);
  g_autoptr(GString) deep = g_string_new ("[");
  g_autoptr(GString) long_line = g_string_new (NULL);
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;

  assert_refused ("", 0, HR_RUNS_ERROR_FORMAT, NULL);
  assert_refused ("hello\nworld\n", -1, HR_RUNS_ERROR_FORMAT, NULL);
  assert_refused ("| t/s |\0| x |", 13, HR_RUNS_ERROR_FORMAT, "binary");
  memset (big, 'a', HR_RUNS_MAX_BYTES + 1);
  assert_refused (big, HR_RUNS_MAX_BYTES + 1, HR_RUNS_ERROR_LIMIT, NULL);
  /* a table cut after its header */
  assert_refused (HEADER, -1, HR_RUNS_ERROR_INVALID, "no pp or tg");
  /* speeds that are not */
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | 0x10 ± 1 |\n", -1,
                  HR_RUNS_ERROR_INVALID, "line 3");
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | inf |\n", -1,
                  HR_RUNS_ERROR_INVALID, NULL);
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | -5 |\n", -1,
                  HR_RUNS_ERROR_INVALID, NULL);
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | 1e400 |\n", -1,
                  HR_RUNS_ERROR_INVALID, NULL);
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | nine | tg128 | 10 |\n", -1,
                  HR_RUNS_ERROR_INVALID, "ngl");
  assert_refused (HEADER "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | 10 | extra |\n", -1,
                  HR_RUNS_ERROR_INVALID, "line 3");
  /* JSON that is not llama-bench's */
  assert_refused ("[1, 2, {\"avg_ts\": 3}]", -1, HR_RUNS_ERROR_INVALID, NULL);
  assert_refused ("[{\"avg_ts\": \"fast\", \"n_gen\": 128}]", -1, HR_RUNS_ERROR_INVALID, "avg_ts");
  assert_refused ("[{\"avg_ts\": 5, \"n_gen\": 1e300}]", -1, HR_RUNS_ERROR_INVALID, NULL);
  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "{\"avg_ts\": 1}");
  assert_refused (deep->str, deep->len, HR_RUNS_ERROR_INVALID, NULL);
  /* a log cut off before the engine printed a figure */
  assert_refused ("llama_model_loader: loaded meta data with 26 key-value pairs\n", -1,
                  HR_RUNS_ERROR_INVALID, "cut off");
  /* more rows than any real run */
  for (int i = 0; i < HR_RUNS_MAX_RUNS + 1; i++)
    g_string_append (many, "| llama 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | 10 |\n");
  assert_refused (many->str, many->len, HR_RUNS_ERROR_LIMIT, NULL);

  /* a 100 KB line is skipped, not copied; the figures after it are read */
  for (int i = 0; i < 100000; i++)
    g_string_append_c (long_line, 'x');
  g_string_append (long_line, "\nllama_kv_cache:      CUDA0 KV buffer size =   448.00 MiB\n");
  runs = hr_runs_parse (long_line->str, long_line->len, &error);
  g_assert_no_error (error);
  assert_close (run_at (runs, 0)->measured[HR_MEASURE_KV], 448.0 * HR_MIB, 1e-12);
  g_clear_pointer (&runs, g_ptr_array_unref);

  /* a version of 200 bytes is kept on its own but not with the "vLLM " before it (found by
   * fuzz-runs): every text field stays within 200 bytes, or is dropped */
  for (int line = 0; line < 2; line++)
    {
      g_autoptr(GString) vllm = g_string_new (line == 0 ? "INFO vLLM API server version " : "INFO LLM engine (v");
      for (int i = 0; i < 198; i++)
        g_string_append_c (vllm, '7');
      g_string_append (vllm, line == 0 ? "\n" : ") with config: model='Qwen/Qwen3-8B'\n");
      g_string_append (vllm, "INFO GPU KV cache size: 100,000 tokens\n");
      runs = hr_runs_parse (vllm->str, vllm->len, &error);
      g_assert_no_error (error);
      g_assert_null (run_at (runs, 0)->build);
      g_assert_cmpfloat (run_at (runs, 0)->measured[HR_MEASURE_KV_TOKENS], ==, 100000);
      g_clear_pointer (&runs, g_ptr_array_unref);
    }
  runs = hr_runs_parse ("INFO vLLM API server version 0.11.0\nINFO GPU KV cache size: 100,000 tokens\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (run_at (runs, 0)->build, ==, "vLLM 0.11.0");
  g_clear_pointer (&runs, g_ptr_array_unref);

  /* names with controls or bidi overrides are not kept */
  runs = hr_runs_parse (HEADER "| llama\u202e 3B Q4_0 | 1.87 GiB | 3.21 B | CUDA | 99 | tg128 | 10 |\n", -1, &error);
  g_assert_no_error (error);
  g_assert_null (run_at (runs, 0)->model_type);
}


/* ---- calibration ------------------------------------------------------------------------- */

/* The checks borrow @runs' runs: keep @runs alive as long as them. */
static GPtrArray *
checks_of (GPtrArray        *runs,
           const HrRunHints *hints)
{
  GPtrArray *checks = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);

  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (checks, hr_run_check (run_at (runs, i), catalog, hints));
  return checks;
}

/* Runs of Llama 3.1 8B on an RX 7900 XTX (ROCm): after calibrating the device from them, every
 * run is predicted within 5 %, the estimate says it is calibrated, and nothing else moves. */
static void
test_calibration_fit_apply (void)
{
  HrRunHints hints = { .gpu_id = "rx-7900-xtx-24gb", .model_id = "llama-3.1-8b" };
  g_autoptr(GPtrArray) runs = parse_fixture ("bench-rx7900xtx-rocm.md", NULL);
  g_autoptr(GPtrArray) before = checks_of (runs, &hints);
  g_autoptr(GArray) cals = hr_user_calibration_fit (before, "2026-12-05");
  const HrDeviceCalibration *cal;
  g_autoptr(GPtrArray) after = NULL;
  double worst_before = 0;
  HrScenario s;
  HrEstimate plain, calibrated;

  g_assert_cmpuint (cals->len, ==, 1);
  cal = &g_array_index (cals, HrDeviceCalibration, 0);
  g_assert_cmpstr (cal->gpu_id, ==, "rx-7900-xtx-24gb");
  g_assert_cmpint (cal->backend, ==, HR_BACKEND_ROCM);
  g_assert_cmpstr (cal->date, ==, "2026-12-05");
  g_assert_cmpint (cal->decode_runs, ==, 3);
  g_assert_cmpint (cal->prefill_runs, ==, 2);
  g_assert_true (cal->bytes_per_s > 100e9 && cal->bytes_per_s < 960e9);

  hints.calibrations = cals;
  after = checks_of (runs, &hints);
  for (guint i = 0; i < after->len; i++)
    {
      const HrRunCheck *b = g_ptr_array_index (before, i), *a = g_ptr_array_index (after, i);
      for (HrMeasure m = HR_MEASURE_DECODE; m <= HR_MEASURE_PREFILL; m++)
        if (isfinite (a->error[m]))
          {
            worst_before = MAX (worst_before, fabs (b->error[m]));
            g_assert_cmpfloat (fabs (a->error[m]), <=, 0.05);
          }
      g_assert_true (a->estimate.calibrated);
      /* memory is never calibrated */
      g_assert_cmpfloat (a->estimate.required_bytes, ==, b->estimate.required_bytes);
    }
  /* the uncalibrated model missed one run by more than the target */
  g_assert_cmpfloat (worst_before, >, 0.05);

  /* applies to its GPU and backend only; the basis says where the figure comes from */
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), hr_catalog_find_gpu (catalog, "rx-7900-xtx-24gb"));
  g_assert_true (hr_estimate_compute (&s, NULL, &plain, NULL));
  s.calibration = cal;
  g_assert_true (hr_estimate_compute (&s, NULL, &calibrated, NULL));
  g_assert_true (calibrated.calibrated);
  g_assert_cmpfloat (calibrated.decode_tps, !=, plain.decode_tps);
  g_assert_cmpint (calibrated.decode_basis.calibrated_runs, ==, 3);
  {
    g_autofree char *text = hr_basis_json (&calibrated.decode_basis);
    g_assert_nonnull (strstr (text, "calibrated from 3 runs of yours, 2026-12-05"));
  }
  s.backend = HR_BACKEND_VULKAN;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &calibrated, NULL));
  g_assert_false (calibrated.calibrated);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-8b"), hr_catalog_find_gpu (catalog, "rtx-4090-24gb"));
  s.calibration = cal;
  g_assert_true (hr_estimate_compute (&s, NULL, &calibrated, NULL));
  g_assert_false (calibrated.calibrated);
}

/* Decode steps of two sizes: bandwidth and fixed cost both come back from t = bytes / bw + c */
static void
test_calibration_two_sizes (void)
{
  HrRunHints hints = { .gpu_id = "rtx-4090-24gb" };
  g_autoptr(GPtrArray) checks = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  static const char * const quants[] = { "Q4_K_M", "Q8_0", "BF16" };
  const double bw = 850e9, fixed = 0.0011;
  g_autoptr(GArray) cals = NULL;
  const HrDeviceCalibration *cal;

  for (guint i = 0; i < G_N_ELEMENTS (quants); i++)
    {
      g_autofree char *table = g_strdup_printf (
        "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| qwen3 8B %s | 4.68 GiB | 8.19 B | CUDA | 99 | tg128 | 100 |\n", quants[i]);
      g_autoptr(GPtrArray) parsed = hr_runs_parse (table, -1, NULL);
      HrRun *r = g_ptr_array_steal_index (parsed, 0);
      HrRunCheck *c;
      HrRunHints h = hints;

      h.quant = quants[i];
      h.model_id = "qwen3-8b";
      g_ptr_array_add (runs, r);
      c = hr_run_check (r, catalog, &h);
      g_assert_true (c->mapped);
      /* what a device of this bandwidth and fixed cost would have measured */
      r->measured[HR_MEASURE_DECODE] = 1 / (c->estimate.bytes_per_token / bw + fixed);
      g_ptr_array_add (checks, c);
    }
  cals = hr_user_calibration_fit (checks, "2026-12-05");
  g_assert_cmpuint (cals->len, ==, 1);
  cal = &g_array_index (cals, HrDeviceCalibration, 0);
  g_assert_true (cal->fixed_fitted);
  assert_close (cal->bytes_per_s, bw, 1e-6);
  assert_close (cal->fixed_s, fixed, 1e-6);
}

static void
test_calibration_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-calibration-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "calibration.json", NULL);
  g_autoptr(GArray) cals = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  HrDeviceCalibration a = { .gpu_id = "rtx-4090-24gb", .backend = HR_BACKEND_CUDA, .date = "2026-12-05",
                            .decode_runs = 4, .bytes_per_s = 9.1e11, .fixed_s = 0.001, .prefill_runs = 0,
                            .prefill_scale = NAN };
  HrDeviceCalibration b = a;
  g_autoptr(GArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;
  gboolean aside = FALSE;

  b.backend = HR_BACKEND_VULKAN;
  b.bytes_per_s = 7e11;
  g_array_append_val (cals, a);
  g_array_append_val (cals, b);
  g_assert_true (hr_user_calibration_save (dir, cals, &error));
  g_assert_no_error (error);
  loaded = hr_user_calibration_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->len, ==, 2);
  g_assert_cmpfloat (hr_user_calibration_find (loaded, "rtx-4090-24gb", HR_BACKEND_VULKAN)->bytes_per_s, ==, 7e11);
  g_assert_true (isnan (hr_user_calibration_find (loaded, "rtx-4090-24gb", HR_BACKEND_CUDA)->prefill_scale));
  g_assert_null (hr_user_calibration_find (loaded, "rtx-3090-24gb", HR_BACKEND_CUDA));
  g_clear_pointer (&loaded, g_array_unref);

  /* saving one device again replaces it and keeps the other */
  g_array_set_size (cals, 1);
  g_array_index (cals, HrDeviceCalibration, 0).bytes_per_s = 9.5e11;
  g_assert_true (hr_user_calibration_save (dir, cals, &error));
  loaded = hr_user_calibration_load (dir, &error);
  g_assert_cmpuint (loaded->len, ==, 2);
  g_assert_cmpfloat (hr_user_calibration_find (loaded, "rtx-4090-24gb", HR_BACKEND_CUDA)->bytes_per_s, ==, 9.5e11);
  g_clear_pointer (&loaded, g_array_unref);

  g_assert_cmpint (hr_user_calibration_remove (dir, "rtx-4090-24gb", &error), ==, 2);
  loaded = hr_user_calibration_load (dir, &error);
  g_assert_cmpuint (loaded->len, ==, 0);
  g_clear_pointer (&loaded, g_array_unref);

  /* a newer Headroom's file is left alone */
  g_assert_true (g_file_set_contents (path, "{\"schema\": 2, \"devices\": []}", -1, NULL));
  g_assert_null (hr_user_calibration_load (dir, &error));
  g_assert_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_NEWER);
  g_clear_error (&error);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  /* a damaged one is moved aside, never overwritten */
  g_assert_true (g_file_set_contents (path, "{\"schema\": 1, \"devices\": [{\"gpu\": \"x\", \"backend\": \"cuda\", "
                                            "\"decode_runs\": 2, \"bytes_per_s\": -5}]}", -1, NULL));
  g_assert_null (hr_user_calibration_load (dir, &error));
  g_assert_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      aside |= g_str_has_prefix (name, "calibration.json.corrupt-");
      g_unlink (p);
    }
  g_assert_true (aside);
  g_rmdir (dir);
}

static void
test_calibration_parse_hostile (void)
{
  static const char * const bad[] = {
    "", "[]", "{\"schema\": 1}", "{\"schema\": \"1\", \"devices\": []}",
    "{\"schema\": 1, \"devices\": [1]}",
    "{\"schema\": 1, \"devices\": [{\"gpu\": \"a\", \"backend\": \"warp\"}]}",
    "{\"schema\": 1, \"devices\": [{\"gpu\": \"a\u202e\", \"backend\": \"cuda\"}]}",
    "{\"schema\": 1, \"devices\": [{\"gpu\": \"a\", \"backend\": \"cuda\", \"decode_runs\": 1}]}",
    "{\"schema\": 1, \"devices\": [{\"gpu\": \"a\", \"backend\": \"cuda\", \"prefill_runs\": 1, \"prefill_scale\": 1e9}]}",
    "{\"schema\": 1, \"devices\": [{\"gpu\": \"a\", \"backend\": \"cuda\", \"decode_runs\": 1, \"bytes_per_s\": 1e12, \"fixed_s\": 99}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) cals = hr_user_calibration_parse (bad[i], -1, &error);
      g_test_message ("%s", bad[i]);
      g_assert_null (cals);
      g_assert_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_unpriced (&error);
  g_assert_no_error (error);

  g_test_add_func ("/runs/bench/markdown", test_markdown_rx580);
  g_test_add_func ("/runs/bench/markdown-two-tables", test_markdown_two_tables);
  g_test_add_func ("/runs/bench/csv-json-jsonl", test_bench_machine_formats);
  g_test_add_func ("/runs/bench/csv-width-mismatch", test_csv_width_mismatch);
  g_test_add_func ("/runs/log/llama-2024", test_llama_log_2024);
  g_test_add_func ("/runs/log/llama-prefixed", test_llama_log_prefixed);
  g_test_add_func ("/runs/log/vllm", test_vllm_logs);
  g_test_add_func ("/runs/log/sglang", test_sglang_logs);
  g_test_add_func ("/runs/map/gpu", test_find_gpu);
  g_test_add_func ("/runs/map/model", test_find_model);
  g_test_add_func ("/runs/check/bench", test_check_bench);
  g_test_add_func ("/runs/check/vllm", test_check_vllm);
  g_test_add_func ("/runs/check/quant-method", test_check_quant_method);
  g_test_add_func ("/runs/check/backend-list", test_backend_list);
  g_test_add_func ("/runs/hostile", test_hostile);
  g_test_add_func ("/runs/calibration/fit-apply", test_calibration_fit_apply);
  g_test_add_func ("/runs/calibration/two-sizes", test_calibration_two_sizes);
  g_test_add_func ("/runs/calibration/file", test_calibration_file);
  g_test_add_func ("/runs/calibration/hostile", test_calibration_parse_hostile);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
