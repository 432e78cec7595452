/* test-cli-inspect.c — `headroom-cli inspect`: the JSON keys, exit codes and one-line errors
 *
 * Uses the small GGUF seeds of the fuzz corpus (tests/fuzz/corpus/gguf/).
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "gguf-writer.h"
#include "hr-test-cli.h"
#include "hr-test-server.h"

static const char *cli;


static char *
seed (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "gguf", name, NULL);
}

/* Runs headroom-cli @command with the arguments. */
static void
run_command_v (HrTestRun  *r,
               const char *command,
               va_list     ap)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();

  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) command);
  hr_test_args_append_valist (argv, ap);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  hr_test_run_spawn (r, argv, envp);
}

/* Runs headroom-cli inspect with the arguments (NULL-terminated). */
static void
run_inspect (HrTestRun *r,
             ...)
{
  va_list ap;

  va_start (ap, r);
  run_command_v (r, "inspect", ap);
  va_end (ap);
}

static void
run_estimate (HrTestRun *r,
              ...)
{
  va_list ap;

  va_start (ap, r);
  run_command_v (r, "estimate", ap);
  va_end (ap);
}

/* The sorted member names of @o, joined by spaces. */
static char *
member_names (JsonObject *o)
{
  GList *names = g_list_sort (json_object_get_members (o), (GCompareFunc) g_strcmp0);
  GString *out = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (out, "%s ", (const char *) l->data);
  g_list_free (names);
  return g_string_free (out, FALSE);
}

/* inspect's estimate carries the keys of estimate --json, device or not (issue 15). */
static void
test_estimate_same_keys (void)
{
  g_autofree char *path = seed ("moe.gguf");
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autofree char *inspect_keys = NULL, *inspect_gpu_keys = NULL, *estimate_keys = NULL;
  JsonObject *e;
  HrTestRun r = { 0 };

  run_estimate (&r, "--gguf", path, "--gpu", "rtx-4090-24gb", "--context", "8192", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p1, r.out, -1, NULL));
  estimate_keys = member_names (json_node_get_object (json_parser_get_root (p1)));
  hr_test_run_clear (&r);

  run_inspect (&r, path, "--context", "8192", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p2, r.out, -1, NULL));
  e = json_object_get_object_member (json_node_get_object (json_parser_get_root (p2)), "estimate");
  inspect_keys = member_names (e);
  g_assert_cmpstr (inspect_keys, ==, estimate_keys);
  g_assert_nonnull (strstr (inspect_keys, "system_ram_gib "));
  g_assert_nonnull (strstr (inspect_keys, "kv_cache_bytes "));
  /* no device: its figures are null, the model's are exact */
  g_assert_true (json_object_get_null_member (e, "physical_gib"));
  g_assert_true (json_object_get_null_member (e, "verdict"));
  g_assert_cmpint (json_object_get_int_member (e, "weights_bytes"), >, 0);
  hr_test_run_clear (&r);

  run_inspect (&r, path, "--gpu", "rtx-4090-24gb", "--context", "8192", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p3, r.out, -1, NULL));
  e = json_object_get_object_member (json_node_get_object (json_parser_get_root (p3)), "estimate");
  inspect_gpu_keys = member_names (e);
  g_assert_cmpstr (inspect_gpu_keys, ==, estimate_keys);
  g_assert_cmpint (json_object_get_int_member (e, "physical_bytes"), ==, 24LL << 30);
  hr_test_run_clear (&r);
}


static void
assert_one_line_error (const HrTestRun *r,
                       int              status)
{
  g_assert_cmpint (r->status, ==, status);
  g_assert_cmpstr (r->out, ==, "");
  g_assert_true (g_str_has_prefix (r->err, "headroom-cli"));
  g_assert_true (g_str_has_suffix (r->err, "\n"));
  g_assert_true (strchr (r->err, '\n') == r->err + strlen (r->err) - 1);   /* one line */
}

static void
test_json (void)
{
  g_autofree char *path = seed ("llama-tiny.gguf");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o, *by_type, *model;
  HrTestRun r = { 0 };

  run_inspect (&r, path, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "architecture"), ==, "llama");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "Tiny Llama");
  g_assert_cmpint (json_object_get_int_member (o, "n_tensors"), ==, 19);
  g_assert_cmpint (json_object_get_int_member (o, "n_params"), ==, 1182464);
  g_assert_cmpint (json_object_get_int_member (o, "tensor_bytes"), ==, 752520);
  g_assert_cmpint (json_object_get_int_member (o, "file_type"), ==, 15);
  g_assert_cmpstr (json_object_get_string_member (o, "quant"), ==, "Q4_K_M");
  by_type = json_object_get_object_member (o, "bytes_by_type");
  g_assert_cmpint (json_object_get_int_member (by_type, "Q4_K"), ==, 479808);
  g_assert_cmpint (json_object_get_int_member (by_type, "Q6_K"), ==, 269640);
  g_assert_cmpint (json_object_get_int_member (by_type, "F32"), ==, 3072);
  model = json_object_get_object_member (o, "model");
  g_assert_cmpint (json_object_get_int_member (model, "layers"), ==, 2);
  g_assert_false (json_object_has_member (o, "estimate"));
  hr_test_run_clear (&r);
}

static void
test_estimate (void)
{
  g_autofree char *path = seed ("moe.gguf");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *e;
  HrTestRun r = { 0 };

  run_inspect (&r, path, "--context", "32k", "--batch", "2", "--kv-type", "q8_0",
               "--backend", "vulkan", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  e = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                     "estimate");
  g_assert_nonnull (e);
  g_assert_cmpint (json_object_get_int_member (e, "context"), ==, 32768);
  g_assert_cmpint (json_object_get_int_member (e, "batch"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (e, "kv_type"), ==, "q8_0");
  g_assert_cmpstr (json_object_get_string_member (e, "backend"), ==, "vulkan");
  g_assert_cmpstr (json_object_get_string_member (e, "weights_source"), ==, "gguf");
  g_assert_true (json_object_has_member (e, "required_gib"));
  hr_test_run_clear (&r);

  /* plain text too */
  run_inspect (&r, path, "--context", "8192", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "architecture   qwen3moe"));
  g_assert_nonnull (strstr (r.out, "required"));
  hr_test_run_clear (&r);
}

static void
test_errors (void)
{
  g_autofree char *good = seed ("llama-tiny.gguf");
  g_autofree char *truncated = seed ("truncated.gguf");
  g_autofree char *overflow = seed ("dims-overflow.gguf");
  HrTestRun r = { 0 };

  run_inspect (&r, NULL);
  assert_one_line_error (&r, 2);
  hr_test_run_clear (&r);

  run_inspect (&r, good, "--context", "lots", NULL);
  assert_one_line_error (&r, 2);
  hr_test_run_clear (&r);

  run_inspect (&r, good, "--context", "4k", "--kv-type", "f7", NULL);
  assert_one_line_error (&r, 2);
  hr_test_run_clear (&r);

  run_inspect (&r, good, "--no-such-option", NULL);
  assert_one_line_error (&r, 2);
  hr_test_run_clear (&r);

  run_inspect (&r, "/nonexistent/model.gguf", NULL);
  assert_one_line_error (&r, 1);
  hr_test_run_clear (&r);

  run_inspect (&r, truncated, NULL);
  assert_one_line_error (&r, 1);
  g_assert_nonnull (strstr (r.err, "truncated.gguf"));
  hr_test_run_clear (&r);

  run_inspect (&r, overflow, "--json", NULL);
  assert_one_line_error (&r, 1);
  hr_test_run_clear (&r);

  /* Out-of-range counts are refused before the file is read, as estimate refuses them. */
  run_inspect (&r, good, "--batch", "0", NULL);
  assert_one_line_error (&r, 2);
  g_assert_nonnull (strstr (r.err, "--batch must be between 1 and"));
  hr_test_run_clear (&r);
  run_inspect (&r, good, "--context", "4k", "--gpus", "-5", NULL);
  assert_one_line_error (&r, 2);
  g_assert_nonnull (strstr (r.err, "--gpus must be between 1 and"));
  hr_test_run_clear (&r);

  /* A bad --gpu-custom names the option once. */
  run_inspect (&r, good, "--context", "4k", "--gpu-custom", "foo", NULL);
  assert_one_line_error (&r, 2);
  g_assert_nonnull (strstr (r.err, "--gpu-custom: "));
  g_assert_null (strstr (r.err, "--gpu-custom: --gpu-custom"));
  hr_test_run_clear (&r);
  run_estimate (&r, "--model", "qwen3-8b", "--gpu-custom", "foo", NULL);
  assert_one_line_error (&r, 2);
  g_assert_nonnull (strstr (r.err, "--gpu-custom: "));
  g_assert_null (strstr (r.err, "--gpu-custom: --gpu-custom"));
  hr_test_run_clear (&r);
}

/* A header's name and the file's name reach the terminal escaped: no escape sequence (a title
 * change, a screen clear) and no bidi override gets through, in text or JSON. */
static void
test_hostile_strings (void)
{
  g_autoptr(GBytes) bytes = gguf_tiny_llama ("Evil\033]0;owned\007\033[2J \342\200\256gnp.exe", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-inspect-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "t\033[31m.gguf", NULL);
  HrTestRun r = { 0 };

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  for (int json = 0; json < 2; json++)
    {
      run_inspect (&r, path, json ? "--json" : NULL, NULL);
      g_test_message ("%s", r.out);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_null (strchr (r.out, '\033'));
      g_assert_null (strchr (r.out, '\007'));
      g_assert_null (strstr (r.out, "\342\200\256"));
      g_assert_nonnull (strstr (r.out, json ? "\\u202e" : "\\u{202E}gnp.exe"));
      hr_test_run_clear (&r);
    }
  g_unlink (path);
  g_rmdir (dir);
}


static void
run_command_launch (HrTestRun *r,
                    ...)
{
  va_list ap;

  va_start (ap, r);
  run_command_v (r, "launch", ap);
  va_end (ap);
}

static JsonObject *
estimate_object (JsonParser *parser,
                 const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* A one-block Llama of the tiny one's vocabulary (1024) and widths: a smaller draft for it. */
static GBytes *
tiny_draft (guint64 *tensor_bytes)
{
  g_autoptr(GgufWriter) w = gguf_writer_new ();

  gguf_kv_str (w, "general.architecture", "llama");
  gguf_kv_str (w, "general.name", "Tiny Draft");
  gguf_kv_u32 (w, "general.file_type", 15);
  gguf_kv_u32 (w, "llama.block_count", 1);
  gguf_kv_u32 (w, "llama.context_length", 65536);
  gguf_kv_u32 (w, "llama.embedding_length", 256);
  gguf_kv_u32 (w, "llama.feed_forward_length", 512);
  gguf_kv_u32 (w, "llama.attention.head_count", 4);
  gguf_kv_u32 (w, "llama.attention.head_count_kv", 2);
  gguf_kv_u32 (w, "llama.vocab_size", 1024);
  gguf_tensor (w, "token_embd.weight", GGML_Q4_K, 256, 1024);
  gguf_tensor (w, "blk.0.attn_norm.weight", GGML_F32, 256, 1);
  gguf_tensor (w, "blk.0.attn_q.weight", GGML_Q4_K, 256, 256);
  gguf_tensor (w, "blk.0.attn_k.weight", GGML_Q4_K, 256, 128);
  gguf_tensor (w, "blk.0.attn_v.weight", GGML_Q6_K, 256, 128);
  gguf_tensor (w, "blk.0.attn_output.weight", GGML_Q4_K, 256, 256);
  gguf_tensor (w, "blk.0.ffn_norm.weight", GGML_F32, 256, 1);
  gguf_tensor (w, "blk.0.ffn_gate.weight", GGML_Q4_K, 256, 512);
  gguf_tensor (w, "blk.0.ffn_up.weight", GGML_Q4_K, 256, 512);
  gguf_tensor (w, "blk.0.ffn_down.weight", GGML_Q6_K, 512, 256);
  gguf_tensor (w, "output_norm.weight", GGML_F32, 256, 1);
  gguf_tensor (w, "output.weight", GGML_Q6_K, 256, 1024);
  *tensor_bytes = w->tensor_bytes;
  return gguf_writer_finish (w, (gsize) w->offset);
}

/* #31: --draft FILE.gguf sizes the draft from its header, as the file sized alone; the
 * llama-server line loads it with -md FILE; a draft of another vocabulary is refused. */
static void
test_draft_file (void)
{
  g_autoptr(GBytes) model = gguf_tiny_llama ("Tiny Target", NULL);
  g_autoptr(GBytes) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-draft-XXXXXX", &error);
  g_autofree char *mpath = g_build_filename (dir, "target-Q4_K_M.gguf", NULL);
  g_autofree char *dpath = g_build_filename (dir, "draft-Q4_K_M.gguf", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.gguf", NULL);
  g_autoptr(JsonParser) p0 = json_parser_new ();
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *plain, *with, *alone;
  guint64 draft_bytes = 0;
  HrTestRun r = { 0 };

  g_assert_no_error (error);
  draft = tiny_draft (&draft_bytes);
  g_assert_true (g_file_set_contents (mpath, g_bytes_get_data (model, NULL),
                                      (gssize) g_bytes_get_size (model), &error));
  g_assert_true (g_file_set_contents (dpath, g_bytes_get_data (draft, NULL),
                                      (gssize) g_bytes_get_size (draft), &error));
  g_assert_true (g_file_set_contents (bad, "GGUF nonsense", -1, &error));
  g_assert_no_error (error);

  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  plain = estimate_object (p0, r.out);
  hr_test_run_clear (&r);
  run_estimate (&r, "--gguf", dpath, "--gpu", "rtx-4090-24gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  alone = estimate_object (p1, r.out);
  g_assert_cmpint (json_object_get_int_member (alone, "weights_bytes"), ==, (gint64) draft_bytes);
  hr_test_run_clear (&r);
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--draft", dpath, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  with = estimate_object (p2, r.out);
  g_assert_cmpint (json_object_get_int_member (with, "draft_weights_bytes"), ==,
                   json_object_get_int_member (alone, "weights_device_bytes"));
  g_assert_cmpint (json_object_get_int_member (with, "draft_kv_bytes"), ==,
                   json_object_get_int_member (alone, "kv_cache_bytes"));
  g_assert_cmpint (json_object_get_int_member (with, "required_bytes") -
                   json_object_get_int_member (plain, "required_bytes"), >=,
                   json_object_get_int_member (with, "draft_memory_bytes") - 1);
  g_assert_cmpint (json_object_get_int_member (with, "required_bytes") -
                   json_object_get_int_member (plain, "required_bytes"), <=,
                   json_object_get_int_member (with, "draft_memory_bytes") + 1);
  hr_test_run_clear (&r);

  run_command_launch (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--draft", dpath, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--spec-type draft-simple -md "));
  g_assert_nonnull (strstr (r.out, "draft-Q4_K_M.gguf -ngld 999 --spec-draft-n-max 3"));
  hr_test_run_clear (&r);

  /* another vocabulary (Llama 3.1 8B's 128256) */
  run_estimate (&r, "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb", "--draft", dpath, NULL);
  assert_one_line_error (&r, 2);
  g_assert_nonnull (strstr (r.err, "vocabularies differ (1024 and 128256 tokens)"));
  hr_test_run_clear (&r);
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--draft", bad, NULL);
  assert_one_line_error (&r, 1);
  hr_test_run_clear (&r);

  g_unlink (mpath);
  g_unlink (dpath);
  g_unlink (bad);
  g_rmdir (dir);
}

/* #31: a vision projector beside a local GGUF counts its exact tensor bytes on the first GPU,
 * or in system RAM with --no-mmproj-offload; none leaves it out; launch names it */
static void
test_mmproj (void)
{
  g_autoptr(GBytes) model = gguf_tiny_llama ("Tiny Vision", NULL);
  g_autoptr(GgufWriter) w = gguf_writer_new ();
  g_autoptr(GBytes) proj = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-mmproj-XXXXXX", &error);
  g_autofree char *mpath = g_build_filename (dir, "model-Q4_K_M.gguf", NULL);
  g_autofree char *ppath = g_build_filename (dir, "mmproj-model-f16.gguf", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.gguf", NULL);
  g_autoptr(JsonParser) p0 = json_parser_new ();
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *none, *gpu, *ram;
  guint64 proj_bytes;
  HrTestRun r = { 0 };

  g_assert_no_error (error);
  gguf_kv_str (w, "general.architecture", "clip");
  gguf_tensor (w, "v.patch_embd.weight", GGML_F16, 1024, 768);
  gguf_tensor (w, "v.blk.0.attn_q.weight", GGML_F16, 1024, 1024);
  gguf_tensor (w, "mm.0.weight", GGML_F32, 1024, 256);
  proj_bytes = w->tensor_bytes;
  g_assert_cmpuint (proj_bytes, ==, 1024 * 768 * 2 + 1024 * 1024 * 2 + 1024 * 256 * 4);
  proj = gguf_writer_finish (w, (gsize) w->offset);
  g_assert_true (g_file_set_contents (mpath, g_bytes_get_data (model, NULL),
                                      (gssize) g_bytes_get_size (model), &error));
  g_assert_true (g_file_set_contents (ppath, g_bytes_get_data (proj, NULL),
                                      (gssize) g_bytes_get_size (proj), &error));
  g_assert_true (g_file_set_contents (bad, "GGUF nonsense", -1, &error));
  g_assert_no_error (error);

  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "none", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  none = estimate_object (p0, r.out);
  g_assert_cmpint (json_object_get_int_member (none, "mmproj_bytes"), ==, 0);
  g_assert_true (json_object_get_null_member (none, "mmproj_device"));
  g_assert_cmpstr (json_object_get_string_member (none, "mmproj_mode"), ==, "none");
  hr_test_run_clear (&r);

  /* no --mmproj is auto (#31): the projector beside the GGUF counts, as llama-server loads it */
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  gpu = estimate_object (p1, r.out);
  g_assert_cmpint (json_object_get_int_member (gpu, "mmproj_bytes"), ==, (gint64) proj_bytes);
  g_assert_cmpstr (json_object_get_string_member (gpu, "mmproj_mode"), ==, "auto");
  hr_test_run_clear (&r);

  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "auto", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  gpu = estimate_object (p1, r.out);
  g_assert_cmpint (json_object_get_int_member (gpu, "mmproj_bytes"), ==, (gint64) proj_bytes);
  g_assert_cmpstr (json_object_get_string_member (gpu, "mmproj_device"), ==, "RTX 4090 24GB");
  g_assert_cmpint (json_object_get_int_member (gpu, "required_bytes"), ==,
                   json_object_get_int_member (none, "required_bytes") + (gint64) proj_bytes);
  hr_test_run_clear (&r);

  /* the same file named, kept in RAM */
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", ppath,
                "--no-mmproj-offload", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  ram = estimate_object (p2, r.out);
  g_assert_cmpint (json_object_get_int_member (ram, "mmproj_bytes"), ==, (gint64) proj_bytes);
  g_assert_cmpstr (json_object_get_string_member (ram, "mmproj_device"), ==, "system_ram");
  g_assert_cmpint (json_object_get_int_member (ram, "required_bytes"), ==,
                   json_object_get_int_member (none, "required_bytes"));
  g_assert_cmpint (json_object_get_int_member (ram, "system_ram_bytes"), ==,
                   json_object_get_int_member (none, "system_ram_bytes") + (gint64) proj_bytes);
  hr_test_run_clear (&r);

  /* text: its own part */
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "auto", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Vision projector         0.00 GiB (first GPU, weights only)"));
  hr_test_run_clear (&r);
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "none", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "Vision projector"));
  hr_test_run_clear (&r);

  /* launch: llama-server --mmproj FILE, --no-mmproj-offload */
  run_command_launch (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "auto",
                      "--no-mmproj-offload", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--mmproj "));
  g_assert_nonnull (strstr (r.out, "mmproj-model-f16.gguf"));
  g_assert_nonnull (strstr (r.out, "--no-mmproj-offload"));
  hr_test_run_clear (&r);
  run_command_launch (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", "none", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "--mmproj"));
  hr_test_run_clear (&r);
  /* the default (auto) launches what it counted */
  run_command_launch (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "mmproj-model-f16.gguf"));
  hr_test_run_clear (&r);

  /* a bad FILE: one line, non-zero */
  run_estimate (&r, "--gguf", mpath, "--gpu", "rtx-4090-24gb", "--mmproj", bad, NULL);
  assert_one_line_error (&r, 1);
  hr_test_run_clear (&r);
  run_estimate (&r, "--model", "llama-3.1-8b", "--gpu", "rtx-4090-24gb", "--mmproj", "auto", NULL);
  assert_one_line_error (&r, 2);
  hr_test_run_clear (&r);

  /* a catalog model whose GGUF repo ships a projector (#31): auto counts the catalog's file
   * and the buffer it encodes an image in, on the first GPU */
  {
    g_autoptr(JsonParser) p3 = json_parser_new ();
    JsonObject *cat;

    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--mmproj", "auto", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    cat = estimate_object (p3, r.out);
    g_assert_cmpint (json_object_get_int_member (cat, "mmproj_bytes"), ==, 858000000);
    g_assert_cmpint (json_object_get_int_member (cat, "mmproj_encode_bytes"), >, 100 << 20);
    g_assert_cmpint (json_object_get_int_member (cat, "mmproj_encode_bytes"), <, 130 << 20);
    hr_test_run_clear (&r);
    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--mmproj", "auto", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "0.80 GiB weights + 0.11 GiB image-encode buffer (first GPU)"));
    hr_test_run_clear (&r);
  }

  /* #31/#26: without --mmproj the CLI counts the projector llama-server -hf loads, as the Size
   * view's switch does by default; --mmproj none sizes the model without it, and each launch
   * command says the same (-hf alone loads it; --no-mmproj when it was not counted) */
  {
    g_autoptr(JsonParser) pd = json_parser_new ();
    g_autoptr(JsonParser) pn = json_parser_new ();
    g_autoptr(JsonParser) pv = json_parser_new ();
    JsonObject *dflt, *off, *vllm;
    gint64 proj_total;

    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    dflt = estimate_object (pd, r.out);
    g_assert_cmpint (json_object_get_int_member (dflt, "mmproj_bytes"), ==, 858000000);
    g_assert_cmpstr (json_object_get_string_member (dflt, "mmproj_mode"), ==, "auto");
    proj_total = 858000000 + json_object_get_int_member (dflt, "mmproj_encode_bytes");
    hr_test_run_clear (&r);
    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--mmproj", "none", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    off = estimate_object (pn, r.out);
    g_assert_cmpint (json_object_get_int_member (off, "mmproj_bytes"), ==, 0);
    g_assert_cmpstr (json_object_get_string_member (off, "mmproj_mode"), ==, "none");
    g_assert_cmpint (json_object_get_int_member (dflt, "required_bytes") - json_object_get_int_member (off, "required_bytes"),
                     ==, proj_total);
    hr_test_run_clear (&r);
    /* vLLM builds the vision tower from the checkpoint: no projector of its own */
    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "h100-80gb-sxm", "--engine", "vllm", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    vllm = estimate_object (pv, r.out);
    g_assert_cmpint (json_object_get_int_member (vllm, "mmproj_bytes"), ==, 0);
    hr_test_run_clear (&r);

    run_command_launch (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "-hf "));
    g_assert_null (strstr (r.out, "--no-mmproj"));
    hr_test_run_clear (&r);
    run_command_launch (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--mmproj", "none", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "--no-mmproj"));
    hr_test_run_clear (&r);
    run_estimate (&r, "--model", "gemma-3-27b", "--gpu", "rtx-4090-24gb", "--mmproj", "none",
                  "--no-mmproj-offload", NULL);
    assert_one_line_error (&r, 2);
    hr_test_run_clear (&r);
  }

  /* inspect counts the projector beside the file as estimate does, under the same keys */
  {
    g_autoptr(JsonParser) pi = json_parser_new ();
    g_autoptr(JsonParser) pj = json_parser_new ();
    JsonObject *e;

    run_inspect (&r, mpath, "--gpu", "rtx-4090-24gb", "--context", "4096", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    e = json_object_get_object_member (estimate_object (pi, r.out), "estimate");
    g_assert_cmpint (json_object_get_int_member (e, "mmproj_bytes"), ==, (gint64) proj_bytes);
    g_assert_cmpstr (json_object_get_string_member (e, "mmproj_mode"), ==, "auto");
    hr_test_run_clear (&r);
    run_inspect (&r, mpath, "--gpu", "rtx-4090-24gb", "--context", "4096", "--mmproj", "none", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    e = json_object_get_object_member (estimate_object (pj, r.out), "estimate");
    g_assert_cmpint (json_object_get_int_member (e, "mmproj_bytes"), ==, 0);
    g_assert_cmpstr (json_object_get_string_member (e, "mmproj_mode"), ==, "none");
    hr_test_run_clear (&r);
  }

  g_unlink (mpath);
  g_unlink (ppath);
  g_unlink (bad);
  g_rmdir (dir);
}

/* Serves the tiny GGUF at every path (SoupServer answers a Range request from the whole body). */
static void
gguf_file_cb (SoupServer        *soup_server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  GBytes *bytes = user_data;
  gsize size = g_bytes_get_size (bytes);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);
  SoupRange *ranges = NULL;
  int n = 0;

  /* the Range cut here, to the file's end (SoupServer's own cut fails past the end) */
  if (soup_message_headers_get_ranges (request, (goffset) size, &ranges, &n) && n == 1)
    {
      goffset start = ranges[0].start, end = MIN (ranges[0].end, (goffset) size - 1);

      soup_message_headers_set_content_range (response, start, end, (goffset) size);
      soup_server_message_set_status (msg, SOUP_STATUS_PARTIAL_CONTENT, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY,
                                        (const char *) data + start, (gsize) (end - start + 1));
      soup_message_headers_free_ranges (request, ranges);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY,
                                    (const char *) data, size);
}

/* "user:pass@" in an address was printed back as given ("file  http://user:pass@…"); it is
 * shown without it, in the text and in the JSON. */
static void
test_url_userinfo (void)
{
  g_autofree char *path = seed ("llama-tiny.gguf");
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(GBytes) bytes = NULL;
  HrTestServer *server;
  g_autofree char *url = NULL, *shown = NULL;
  HrTestRun r = { 0 };

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  server = hr_test_server_start (gguf_file_cb, bytes);
  url = g_strdup_printf ("http://alice:s3cret@127.0.0.1:%u/llama-tiny.gguf", hr_test_server_get_port (server));
  shown = g_strdup_printf ("http://127.0.0.1:%u/llama-tiny.gguf", hr_test_server_get_port (server));

  run_inspect (&r, url, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, shown));
  g_assert_null (strstr (r.out, "s3cret"));
  g_assert_null (strstr (r.out, "alice"));
  hr_test_run_clear (&r);
  run_inspect (&r, url, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, shown));
  g_assert_null (strstr (r.out, "s3cret"));
  hr_test_run_clear (&r);
  hr_test_server_stop (server);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli = g_getenv ("HEADROOM_CLI");
  g_assert_nonnull (cli);

  g_test_add_func ("/cli-inspect/json", test_json);
  g_test_add_func ("/cli-inspect/estimate", test_estimate);
  g_test_add_func ("/cli-inspect/estimate-same-keys", test_estimate_same_keys);
  g_test_add_func ("/cli-inspect/errors", test_errors);
  g_test_add_func ("/cli-inspect/hostile-strings", test_hostile_strings);
  g_test_add_func ("/cli-inspect/url-userinfo", test_url_userinfo);
  g_test_add_func ("/cli-inspect/mmproj", test_mmproj);
  g_test_add_func ("/cli-inspect/draft-file", test_draft_file);
  return g_test_run ();
}
