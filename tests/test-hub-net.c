/* test-hub-net.c — the Hub client and `headroom-cli hub` / `--hf` against a local test hub
 *
 The test hub (hr-test-hub.c) on 127.0.0.1 answers as the Hugging Face Hub's API does: search and
 * tree listings paged by a Link header, files by /{repo}/resolve/{revision}/{path} with Range,
 * safetensors files redirected to a second server (another origin, the "CDN") that must never
 * see the token.  The expected figures are summed from what the test hub wrote.
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <utime.h>

#include "hr-hub-api.h"
#include "hr-hub-size.h"
#include "hr-test-cli.h"
#include "hr-test-hub.h"

/* ---- running the CLI -------------------------------------------------------------------- */

static void
run_cli (HrTestRun   *r,
         const char  *token,
         const char  *endpoint,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *cache = g_build_filename (H.home, "cache", NULL);
  g_autofree char *hf_home = g_build_filename (H.home, "hf", NULL);
  va_list ap;

  envp = g_environ_setenv (envp, "HF_ENDPOINT", endpoint != NULL ? endpoint
                                                                 : hr_test_server_get_url (H.hub), TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  envp = g_environ_setenv (envp, "HF_HOME", hf_home, TRUE);
  envp = H.offline ? g_environ_setenv (envp, "HF_HUB_OFFLINE", "1", TRUE)
                   : g_environ_unsetenv (envp, "HF_HUB_OFFLINE");
  envp = g_environ_unsetenv (envp, "HUGGING_FACE_HUB_TOKEN");
  envp = token != NULL ? g_environ_setenv (envp, "HF_TOKEN", token, TRUE)
                       : g_environ_unsetenv (envp, "HF_TOKEN");
  g_ptr_array_add (argv, (gpointer) g_getenv ("HEADROOM_CLI"));
  va_start (ap, endpoint);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (r, argv, envp);
}

/* run_cli () with the command's standard output on a full disk (/dev/full) */
static void
run_cli_full (HrTestRun   *r,
              ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *cache = g_build_filename (H.home, "cache", NULL);
  va_list ap;

  envp = g_environ_setenv (envp, "HF_ENDPOINT", hr_test_server_get_url (H.hub), TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  envp = g_environ_unsetenv (envp, "HF_HUB_OFFLINE");
  envp = g_environ_unsetenv (envp, "HF_TOKEN");
  g_ptr_array_add (argv, "/bin/sh");
  g_ptr_array_add (argv, "-c");
  g_ptr_array_add (argv, "exec \"$0\" \"$@\" >/dev/full");
  g_ptr_array_add (argv, (gpointer) g_getenv ("HEADROOM_CLI"));
  va_start (ap, r);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  hr_test_run_spawn (r, argv, envp);
}

static void
clear_cache (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s/cache'", H.home);

  g_assert_cmpint (system (cmd), ==, 0);
}

static gboolean
cli_missing (void)
{
  if (g_getenv ("HEADROOM_CLI") != NULL)
    return FALSE;
  g_test_skip ("HEADROOM_CLI not set");
  return TRUE;
}

/* The integer after "KEY": in @json. */
static gint64
json_int (const char *json,
          const char *key)
{
  g_autofree char *k = g_strdup_printf ("\"%s\": ", key);
  const char *at = strstr (json, k);

  g_assert_nonnull (at);
  return g_ascii_strtoll (at + strlen (k), NULL, 10);
}

/* ---- tests ------------------------------------------------------------------------------ */

/* What `hub` prints (the rest of the one-error-line rule is /hostile/lost-output's): to a full
 * disk, exit 1 and exactly one line on stderr, as every other command. */
static void
test_full_disk (void)
{
  const char *lines[][8] = {
    { "hub", "search", "demo", NULL },
    { "hub", "search", "demo", "--json", NULL },
    { "hub", "files", "demo-org/Demo-GGUF", NULL },
    { "hub", "files", "demo-org/Demo-GGUF", "--json", NULL },
    { "estimate", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu", "rtx-4090-24gb", "--json", NULL },
  };

  if (cli_missing ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      HrTestRun r = { 0 };
      const char *const *l = lines[i];

      run_cli_full (&r, l[0], l[1], l[2], l[3], l[4], l[5], l[6], NULL);
      g_test_message ("%s %s %s → %d: %s", l[0], l[1], l[2], r.status, r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_true (g_str_has_prefix (r.err, "headroom-cli"));
      g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
      hr_test_run_clear (&r);
    }
}

static void
test_search (void)
{
  HrTestRun r = { 0 };

  if (cli_missing ())
    return;
  clear_cache ();
  /* five matches in pages of three: both pages read */
  run_cli (&r, NULL, NULL, "hub", "search", "demo", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"id\": \"demo/Demo-ST\""));
  g_assert_nonnull (strstr (r.out, "\"id\": \"other/demo-notes\""));
  g_assert_nonnull (strstr (r.out, "\"downloads\": 500000"));
  g_assert_nonnull (strstr (r.out, "\"last_modified\": \"2026-11-02T10:00:00.000Z\""));
  g_assert_true (strstr (r.out, "demo/Demo-ST") < strstr (r.out, "other/demo-notes"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "hub", "search", "demo", "--gguf", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "demo-org/Demo-GGUF"));
  g_assert_nonnull (strstr (r.out, "other/demo-tune-GGUF"));
  g_assert_null (strstr (r.out, "demo/Demo-ST"));
  g_assert_nonnull (strstr (r.out, "GGUF"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "hub", "search", "demo", "--limit", "4", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "other/demo-tune-GGUF"));
  g_assert_null (strstr (r.out, "other/demo-notes"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "hub", "search", NULL);
  g_assert_cmpint (r.status, ==, 2);
  hr_test_run_clear (&r);
}

static void
test_files (void)
{
  HrTestRun r = { 0 };
  g_autofree char *q4 = NULL;

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "hub", "files", "demo-org/Demo-GGUF", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  q4 = g_strdup_printf ("{\"path\": \"Demo-Q4_K_M.gguf\", \"bytes\": %" G_GSIZE_FORMAT ", "
                        "\"role\": \"gguf\", \"quant\": \"Q4_K_M\"}",
                        g_bytes_get_size (((RepoFile *) g_ptr_array_index (
                          ((Repo *) g_ptr_array_index (H.repos, 0))->files, 1))->bytes));
  g_assert_nonnull (strstr (r.out, q4));
  g_assert_nonnull (strstr (r.out, "\"role\": \"projector\""));
  g_assert_nonnull (strstr (r.out, "\"part\": 2, \"parts\": 2"));
  /* the split BF16 is one model of both parts' bytes */
  g_assert_nonnull (strstr (r.out, "{\"quant\": \"BF16\", \"path\": \"BF16/Demo-BF16-00001-of-00002.gguf\", "
                                   "\"bytes\": 15000000000, \"parts\": 2, \"complete\": true}"));
  g_assert_null (strstr (r.out, "README.md"));
  hr_test_run_clear (&r);

  /* the models' sizes as text: a 1 MiB file is not 0.00 GiB */
  run_cli (&r, NULL, NULL, "hub", "files", "demo-org/Demo-GGUF", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "1.07 MiB"));
  g_assert_nonnull (strstr (r.out, "13.97 GiB"));
  g_assert_null (strstr (r.out, "0.00 GiB"));
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "model-00002-of-00002.safetensors"));
  g_assert_nonnull (strstr (r.out, "index"));
  g_assert_nonnull (strstr (r.out, "config"));
  g_assert_nonnull (strstr (r.out, "tokenizer"));
  hr_test_run_clear (&r);
}

static void
test_estimate_gguf (void)
{
  HrTestRun r = { 0 };

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.gguf_tensor_bytes);
  g_assert_nonnull (strstr (r.out, "\"quant\": \"Q4_K_M\""));
  hr_test_run_clear (&r);

  /* no quant given: Q4_K_M is the default; the launch command pulls this repo */
  run_cli (&r, NULL, NULL, "launch", "--hf", "demo-org/Demo-GGUF", "--gpu", "rtx-4090-24gb",
           "--context", "4096", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "-hf demo-org/Demo-GGUF:Q4_K_M"));
  hr_test_run_clear (&r);

  /* #31: --mmproj auto reads the repo's projector's header: its exact tensors, on the first
   * GPU, in required memory; -hf fetches it itself; --no-mmproj-offload keeps it in RAM */
  {
    gint64 required, encode;

    run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu",
             "rtx-4090-24gb", "--context", "4096", "--mmproj", "none", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (json_int (r.out, "mmproj_bytes"), ==, 0);
    required = json_int (r.out, "required_bytes");
    hr_test_run_clear (&r);
    /* no --mmproj is auto (#31): -hf loads the repo's projector, so it is counted */
    run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu",
             "rtx-4090-24gb", "--context", "4096", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (json_int (r.out, "mmproj_bytes"), ==, (gint64) H.mmproj_tensor_bytes);
    hr_test_run_clear (&r);
    run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu",
             "rtx-4090-24gb", "--context", "4096", "--mmproj", "auto", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (H.mmproj_tensor_bytes, >, 0);
    g_assert_cmpint (json_int (r.out, "mmproj_bytes"), ==, (gint64) H.mmproj_tensor_bytes);
    /* the buffer it encodes an image in, from its header's Gemma 3 encoder (896 px, patch 14) */
    encode = json_int (r.out, "mmproj_encode_bytes");
    g_assert_cmpint (encode, >, 100 << 20);
    g_assert_cmpint (encode, <, 130 << 20);
    /* the JSON rounds each figure to a byte */
    g_assert_cmpint (ABS (json_int (r.out, "required_bytes") - (required + (gint64) H.mmproj_tensor_bytes + encode)), <=, 1);
    g_assert_nonnull (strstr (r.out, "\"mmproj_device\": \"RTX 4090 24GB\""));
    hr_test_run_clear (&r);
    run_cli (&r, NULL, NULL, "launch", "--hf", "demo-org/Demo-GGUF", "--gpu", "rtx-4090-24gb",
             "--context", "4096", "--mmproj", "auto", "--no-mmproj-offload", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "-hf demo-org/Demo-GGUF:Q4_K_M"));
    g_assert_null (strstr (r.out, "--mmproj "));
    g_assert_nonnull (strstr (r.out, "--no-mmproj-offload"));
    hr_test_run_clear (&r);
  }

  /* every quant of the repo is in the matrix with its listed size */
  run_cli (&r, NULL, NULL, "matrix", "--hf", "demo-org/Demo-GGUF:Q4_K_M", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Q8_0"));
  g_assert_nonnull (strstr (r.out, "Hub file size"));
  hr_test_run_clear (&r);

  /* a split GGUF: both parts' headers read by Range and merged */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Split-GGUF:Q8_0", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_test_message ("split: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.split_tensor_bytes);
  hr_test_run_clear (&r);
  /* naming its second part picks the same model */
  run_cli (&r, NULL, NULL, "estimate", "--hf",
           "demo-org/Split-GGUF:Q8_0/Split-Q8_0-00002-of-00002.gguf", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_test_message ("split: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.split_tensor_bytes);
  hr_test_run_clear (&r);

  /* a header longer than the first read: read on until it parses */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Long-GGUF", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_test_message ("long: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.long_tensor_bytes);
  hr_test_run_clear (&r);

  /* a quant the repo does not have */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo-org/Demo-GGUF:Q2_K", "--gpu", "rtx-4090-24gb", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "Q4_K_M"));
  hr_test_run_clear (&r);
}

static void
test_estimate_safetensors (void)
{
  HrTestRun r = { 0 };

  if (cli_missing ())
    return;
  clear_cache ();
  g_atomic_int_set (&H.cdn_saw_token, 0);
  g_atomic_int_set (&H.hub_saw_token, 0);
  g_atomic_int_set (&H.cdn_requests, 0);
  run_cli (&r, TOKEN, NULL, "estimate", "--hf", "demo/Demo-ST", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.st_bytes);
  g_assert_nonnull (strstr (r.out, "\"quant\": \"BF16\""));
  /* the shards came from the CDN, which never saw the token the hub was sent */
  g_assert_cmpint (g_atomic_int_get (&H.cdn_requests), >=, 2);
  g_assert_cmpint (g_atomic_int_get (&H.cdn_saw_token), ==, 0);
  g_assert_cmpint (g_atomic_int_get (&H.hub_saw_token), >, 0);
  hr_test_run_clear (&r);

  /* at a revision: the listing and every file of that revision (quoted as huggingface_hub does) */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Demo-ST@refs/pr/1", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_test_message ("revision: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.st_bytes);
  g_mutex_lock (&H.lock);
  g_assert_cmpstr (H.last_revision, ==, "refs/pr/1");
  g_mutex_unlock (&H.lock);
  hr_test_run_clear (&r);
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST@v1.0", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "(revision v1.0)"));
  g_mutex_lock (&H.lock);
  g_assert_cmpstr (H.last_revision, ==, "v1.0");
  g_mutex_unlock (&H.lock);
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "launch", "--hf", "demo/Demo-ST", "--gpu", "rtx-4090-24gb", "--engine",
           "vllm", "--context", "4096", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vllm serve demo/Demo-ST"));
  hr_test_run_clear (&r);

  /* compare and chart take --hf as they take --model */
  run_cli (&r, NULL, NULL, "compare", "--hf", "demo/Demo-ST", "--gpu", "rtx-4090-24gb", "--gpu",
           "h100-80gb-sxm", "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "h100-80gb-sxm"));
  hr_test_run_clear (&r);
  {
    g_autofree char *png = g_build_filename (H.home, "breakdown.png", NULL);

    run_cli (&r, NULL, NULL, "chart", "breakdown", "--hf", "demo/Demo-ST", "--gpu", "rtx-4090-24gb",
             "--context", "4096", "--out", png, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
    hr_test_run_clear (&r);
  }
}

/* A repository with both: its checkpoint from the safetensors headers, a GGUF quant from its
 * header when named, and every GGUF file in the quant list at its listed size. */
static void
test_both (void)
{
  HrTestRun r = { 0 };

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Both", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_test_message ("both: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"quant\": \"BF16\""));
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.both_st_bytes);
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Both:Q4_K_M", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.both_gguf_bytes);
  hr_test_run_clear (&r);

  run_cli (&r, NULL, NULL, "matrix", "--hf", "demo/Both", "--gpu", "rtx-4090-24gb",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Q4_K_M"));
  g_assert_nonnull (strstr (r.out, "Q8_0"));
  g_assert_nonnull (strstr (r.out, "Hub file size"));
  g_assert_nonnull (strstr (r.out, "safetensors headers on the Hub"));
  hr_test_run_clear (&r);

  /* its launch commands: llama.cpp pulls its GGUF, vLLM serves its checkpoint */
  run_cli (&r, NULL, NULL, "launch", "--hf", "demo/Both:Q4_K_M", "--gpu", "rtx-4090-24gb",
           "--context", "4096", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "llama-server -hf demo/Both:Q4_K_M"));
  g_assert_nonnull (strstr (r.out, "vllm serve demo/Both"));
  hr_test_run_clear (&r);
}

static void
test_fp8 (void)
{
  HrTestRun r = { 0 };

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Demo-FP8", "--gpu", "h100-80gb-sxm",
           "--context", "4096", "--engine", "vllm", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.fp8_bytes);
  g_assert_nonnull (strstr (r.out, "\"quant\": \"FP8\""));
  hr_test_run_clear (&r);

  /* no engine named: the one that loads the checkpoint (llama.cpp would load a Q8_0 GGUF
   * instead, sized from the architecture), with the same exact bytes */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Demo-FP8", "--gpu", "h100-80gb-sxm",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"engine\": \"vllm\""));
  g_assert_cmpint (json_int (r.out, "weights_bytes"), ==, (gint64) H.fp8_bytes);
  hr_test_run_clear (&r);
  /* a 16-bit checkpoint or a GGUF quant stays with llama.cpp, which loads them */
  run_cli (&r, NULL, NULL, "estimate", "--hf", "demo/Demo-ST", "--gpu", "h100-80gb-sxm",
           "--context", "4096", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"engine\": \"llama.cpp\""));
  hr_test_run_clear (&r);
}

static void
expect_failure (const char *token,
                const char *endpoint,
                const char *ref,
                const char *words)
{
  HrTestRun r = { 0 };
  gint64 t0 = g_get_monotonic_time ();

  run_cli (&r, token, endpoint, "estimate", "--hf", ref, "--gpu", "rtx-4090-24gb", NULL);
  g_test_message ("%s: %s", ref, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, words));
  /* one line */
  g_assert_nonnull (strchr (r.err, '\n'));
  g_assert_null (strchr (strchr (r.err, '\n') + 1, '\n'));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 8 * G_USEC_PER_SEC);
  hr_test_run_clear (&r);
}

static void
test_errors (void)
{
  g_autofree char *closed = NULL;

  if (cli_missing ())
    return;
  clear_cache ();
  expect_failure (NULL, NULL, "gated/Secret", "HTTP 401");
  expect_failure ("hf_wrong", NULL, "gated/Secret", "refused the access token");
  expect_failure (NULL, NULL, "busy/Model", "try again in 30 s");
  expect_failure (TOKEN, NULL, "gated/Terms", "accept its terms");
  expect_failure (NULL, NULL, "nobody/Nothing", "repository nobody/Nothing (revision main) was not found (HTTP 404)");
  /* a file the listing names but the Hub does not serve */
  expect_failure (NULL, NULL, "demo-org/Demo-GGUF:BF16",
                  "the file BF16/Demo-BF16-00001-of-00002.gguf of demo-org/Demo-GGUF was not found (HTTP 404)");
  expect_failure (NULL, NULL, "broken/Truncated", "ends inside its header");
  expect_failure (NULL, NULL, "broken/Huge", "declares 10.0 GiB of JSON");
  /* GGUF headers from the Hub go through the one growing-prefix reader (hr-gguf-remote.c) */
  expect_failure (NULL, NULL, "broken/GGUF:Q4_K_M", "Cut-Q4_K_M.gguf ends inside its GGUF header");
  expect_failure (NULL, NULL, "broken/GGUF:Q8_0", "Empty-Q8_0.gguf is empty, not a GGUF file");
  /* #31: a projector that cannot be read fails --mmproj auto; without --mmproj (auto by
   * default) the model is sized without it, and the note says so */
  {
    HrTestRun r = { 0 };

    run_cli (&r, NULL, NULL, "estimate", "--hf", "broken/Projector:Q4_K_M", "--gpu", "rtx-4090-24gb",
             "--mmproj", "auto", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "projector:"));
    hr_test_run_clear (&r);
    run_cli (&r, NULL, NULL, "estimate", "--hf", "broken/Projector:Q4_K_M", "--gpu", "rtx-4090-24gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "its vision projector was not read"));
    g_assert_null (strstr (r.out, "Vision projector"));
    hr_test_run_clear (&r);
  }
  /* offline: nothing listens on port 9 */
  expect_failure (NULL, "http://127.0.0.1:9", "demo/Demo-ST", "127.0.0.1");

  /* the search rate limited with the RateLimit header alone: the wait it gives, one line */
  {
    HrTestRun r = { 0 };

    run_cli (&r, NULL, NULL, "hub", "search", "ratelimited", NULL);
    g_test_message ("search: %s", r.err);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "HTTP 429"));
    g_assert_nonnull (strstr (r.err, "try again in 42 s"));
    g_assert_null (strchr (strchr (r.err, '\n') + 1, '\n'));
    hr_test_run_clear (&r);
  }

  /* with the token the gated repo sizes */
  {
    HrTestRun r = { 0 };

    run_cli (&r, TOKEN, NULL, "estimate", "--hf", "gated/Secret", "--gpu", "rtx-4090-24gb", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    hr_test_run_clear (&r);
  }
  /* a malformed reference is a usage error */
  {
    HrTestRun r = { 0 };

    run_cli (&r, NULL, NULL, "estimate", "--hf", "not a repo", "--gpu", "rtx-4090-24gb", NULL);
    g_assert_cmpint (r.status, ==, 2);
    hr_test_run_clear (&r);
  }
}

static void
test_cache (void)
{
  HrTestRun r = { 0 };
  gint before;

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  hr_test_run_clear (&r);
  before = g_atomic_int_get (&H.tree_requests);
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&H.tree_requests), ==, before);   /* from the cache */
  hr_test_run_clear (&r);
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", "--refresh", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&H.tree_requests), >, before);
  hr_test_run_clear (&r);

  /* offline, the cached listing still answers; what is not cached fails at once */
  {
    H.offline = TRUE;
    run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    hr_test_run_clear (&r);
    run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-FP8", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "HF_HUB_OFFLINE"));
    hr_test_run_clear (&r);
    H.offline = FALSE;
  }
}

/* The cache dir's regular files. */
static GPtrArray *
cache_files (void)
{
  g_autofree char *dir_path = g_build_filename (H.home, "cache", "headroom", "hub", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));
  return files;
}

/* Answers are reused for a day, then asked again; the directory is kept under its bound,
 * the oldest files out first. */
static void
test_cache_age_and_bound (void)
{
  g_autofree char *dir = g_build_filename (H.home, "cache", "headroom", "hub", NULL);
  g_autoptr(GPtrArray) files = NULL;
  HrTestRun r = { 0 };
  guint64 total = 0;
  gint before;

  if (cli_missing ())
    return;
  clear_cache ();
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", NULL);
  g_assert_cmpint (r.status, ==, 0);
  hr_test_run_clear (&r);

  /* their fetch time made 25 hours old (the listing's pages): asked again */
  files = cache_files ();
  g_assert_cmpuint (files->len, >=, 1);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *data = NULL;
      g_autofree char *aged = NULL;
      g_auto(GStrv) lines = NULL;

      g_assert_true (g_file_get_contents (g_ptr_array_index (files, i), &data, NULL, NULL));
      lines = g_strsplit (data, "\n", 3);
      g_assert_cmpuint (g_strv_length (lines), ==, 3);
      aged = g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%s", lines[0],
                              g_get_real_time () / G_USEC_PER_SEC - 25 * 3600, lines[2]);
      g_assert_true (g_file_set_contents (g_ptr_array_index (files, i), aged, -1, NULL));
    }
  before = g_atomic_int_get (&H.tree_requests);
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-ST", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&H.tree_requests), >, before);
  hr_test_run_clear (&r);

  /* five old 20 MiB answers (sparse): the next write trims the directory to 64 MiB, the
   * oldest first, and keeps what it wrote */
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("old-%u", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      struct utimbuf times = { .actime = 1000000 + i, .modtime = 1000000 + i };
      FILE *f = fopen (path, "w");

      g_assert_nonnull (f);
      g_assert_cmpint (ftruncate (fileno (f), 20 * 1024 * 1024), ==, 0);
      fclose (f);
      g_assert_cmpint (utime (path, &times), ==, 0);
    }
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-FP8", NULL);
  g_assert_cmpint (r.status, ==, 0);
  hr_test_run_clear (&r);
  g_clear_pointer (&files, g_ptr_array_unref);
  files = cache_files ();
  for (guint i = 0; i < files->len; i++)
    {
      GStatBuf st;

      g_assert_cmpint (g_stat (g_ptr_array_index (files, i), &st), ==, 0);
      total += (guint64) st.st_size;
    }
  g_assert_cmpuint (total, <=, HR_HUB_CACHE_MAX_BYTES);
  {
    g_autofree char *oldest = g_build_filename (dir, "old-0", NULL);
    g_autofree char *newest = g_build_filename (dir, "old-4", NULL);

    g_assert_false (g_file_test (oldest, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (newest, G_FILE_TEST_EXISTS));
  }
  /* what was just written is among what stays: asked again, it comes from the cache */
  before = g_atomic_int_get (&H.tree_requests);
  run_cli (&r, NULL, NULL, "hub", "files", "demo/Demo-FP8", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&H.tree_requests), ==, before);
  hr_test_run_clear (&r);
  clear_cache ();
}

static void
test_env_token (void)
{
  g_autofree char *hf_home = g_build_filename (H.home, "token-home", NULL);
  g_autofree char *file = g_build_filename (hf_home, "token", NULL);
  g_autofree char *t = NULL;

  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HUGGING_FACE_HUB_TOKEN");
  g_unsetenv ("HF_TOKEN_PATH");
  g_setenv ("HF_HOME", hf_home, TRUE);
  g_assert_null (hr_hub_env_token ());
  g_assert_cmpint (g_mkdir_with_parents (hf_home, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "  hf_from_file\r\n", -1, NULL));
  t = hr_hub_env_token ();
  g_assert_cmpstr (t, ==, "hf_from_file");
  g_clear_pointer (&t, g_free);
  g_setenv ("HUGGING_FACE_HUB_TOKEN", "hf_legacy", TRUE);
  t = hr_hub_env_token ();
  g_assert_cmpstr (t, ==, "hf_legacy");
  g_clear_pointer (&t, g_free);
  g_setenv ("HF_TOKEN", " hf_env ", TRUE);
  t = hr_hub_env_token ();
  g_assert_cmpstr (t, ==, "hf_env");
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HUGGING_FACE_HUB_TOKEN");
  g_unsetenv ("HF_HOME");
}

/* The library itself, in this process: a sized repo's parts. */
static void
test_size_in_process (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHub) hub = NULL;
  g_autoptr(HrHubSized) s = NULL;

  g_unsetenv ("HF_ENDPOINT");
  g_unsetenv ("HF_TOKEN");
  hub = hr_hub_new (hr_test_server_get_url (H.hub), NULL, &error);
  g_assert_no_error (error);
  s = hr_hub_size_repo (hub, "demo/Demo-ST", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->kind, ==, HR_HUB_KIND_SAFETENSORS);
  g_assert_cmpuint (s->weight_bytes, ==, H.st_bytes);
  g_assert_cmpuint (g_strv_length (s->shards), ==, 2);
  g_assert_cmpuint (s->weights->n_tensors, ==, 8);
  g_assert_cmpstr (s->model->hf_repo, ==, "demo/Demo-ST");
  g_assert_cmpuint (hr_model_find_size (s->model, "BF16")->bytes, ==, H.st_bytes);
  g_clear_pointer (&s, hr_hub_sized_free);

  s = hr_hub_size_repo (hub, "demo-org/Demo-GGUF", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->kind, ==, HR_HUB_KIND_GGUF);
  g_assert_cmpstr (s->quant, ==, "Q4_K_M");
  g_assert_cmpuint (s->weight_bytes, ==, H.gguf_tensor_bytes);
  g_assert_cmpstr (s->model->gguf_repo, ==, "demo-org/Demo-GGUF");
  g_assert_cmpuint (hr_model_find_size (s->model, "BF16")->bytes, ==, G_GUINT64_CONSTANT (15000000000));
  g_assert_cmpstr (hr_model_find_size (s->model, "BF16")->source, ==, HR_HUB_SIZE_SOURCE);
  g_assert_null (hr_model_find_size (s->model, "F16"));   /* the projector is not a quant */
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  H.home = g_dir_make_tmp ("headroom-hub-XXXXXX", NULL);
  hr_test_hub_start ();

  g_test_add_func ("/hub-net/search-paged", test_search);
  g_test_add_func ("/hub-net/full-disk", test_full_disk);
  g_test_add_func ("/hub-net/files", test_files);
  g_test_add_func ("/hub-net/estimate-gguf", test_estimate_gguf);
  g_test_add_func ("/hub-net/estimate-safetensors", test_estimate_safetensors);
  g_test_add_func ("/hub-net/fp8", test_fp8);
  g_test_add_func ("/hub-net/both", test_both);
  g_test_add_func ("/hub-net/errors", test_errors);
  g_test_add_func ("/hub-net/cache", test_cache);
  g_test_add_func ("/hub-net/cache-age-and-bound", test_cache_age_and_bound);
  g_test_add_func ("/hub-net/env-token", test_env_token);
  g_test_add_func ("/hub-net/size-in-process", test_size_in_process);
  rc = g_test_run ();

  hr_test_hub_stop ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", H.home);

    if (system (cmd) != 0)
      g_warning ("could not remove %s", H.home);
  }
  return rc;
}
