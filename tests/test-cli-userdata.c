/* test-cli-userdata.c — headroom-cli reads the user's saved models and GPUs (#30)
 *
 * A model read from a GGUF header and a custom GPU, saved with hr_userdata_save_*() into a
 * temporary XDG_DATA_HOME as the app saves them, are listed by `list`, sized by `estimate`
 * with the numbers the app's catalog gives (hr_estimate_compute() on the same entries) and
 * ranked by `fit`; a damaged models.json is left as it is with one warning line; and
 * --no-user-data leaves them out.
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-gguf.h"
#include "hr-test-cli.h"
#include "hr-userdata.h"

static const char *cli;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrTestRun, hr_test_run_clear)

#define MODEL_ID "user:tiny-import"
#define GPU_ID   "user:my-card"

/* A data home holding the saved model and GPU; @dir receives its headroom/ folder. */
static char *
data_home (char **dir)
{
  g_autoptr(GError) error = NULL;
  char *home = g_dir_make_tmp ("headroom-cli-userdata-XXXXXX", &error);
  g_autoptr(HrUserData) ud = NULL;
  g_autoptr(GBytes) bytes = gguf_tiny_llama ("Tiny Import", NULL);
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) saved_model = NULL;
  g_autoptr(HrGpu) saved_gpu = NULL;
  HrModel *model;
  HrGpu *gpu;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_assert_no_error (error);
  *dir = g_build_filename (home, "headroom", NULL);
  ud = hr_userdata_new (*dir);

  gguf = hr_gguf_parse (data, len, NULL, NULL, &error);
  g_assert_no_error (error);
  model = hr_gguf_to_model (gguf, &error);
  g_assert_no_error (error);
  g_free (model->id);
  model->id = g_strdup ("tiny-import");
  g_free (model->name);
  model->name = g_strdup ("Tiny Import");
  model->origin = HR_MODEL_ORIGIN_GGUF;
  g_assert_true (hr_userdata_save_model (ud, model, &saved_model, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved_model->id, ==, MODEL_ID);
  hr_model_free (model);

  gpu = hr_gpu_new_from_spec ("memory_gib=20,bandwidth_gbs=700,fp16_tflops=60", &error);
  g_assert_no_error (error);
  g_free (gpu->id);
  gpu->id = g_strdup ("my-card");
  g_free (gpu->name);
  gpu->name = g_strdup ("My Card");
  g_assert_true (hr_userdata_save_gpu (ud, gpu, &saved_gpu, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved_gpu->id, ==, GPU_ID);
  hr_gpu_free (gpu);
  return home;
}

static void
remove_tree (const char *root)
{
  const char *argv[] = { "/bin/rm", "-rf", root, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Runs the CLI with the NULL-terminated arguments after @home (the XDG_DATA_HOME). */
static void
run (HrTestRun  *r,
     const char *home,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", home, TRUE);
  va_list ap;

  g_ptr_array_add (argv, (gpointer) cli);
  va_start (ap, home);
  hr_test_args_append_valist (argv, ap);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
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

/* The entry with "id" @id in a JSON array, or NULL. */
static JsonObject *
find_id (JsonArray  *array,
         const char *member,
         const char *id)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (o, member), id) == 0)
        return o;
    }
  return NULL;
}

static void
test_list (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *home = data_home (&dir);
  g_autoptr(JsonNode) models = NULL;
  g_autoptr(JsonNode) gpus = NULL;
  JsonObject *o;

  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "list", "models", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    models = parse (r.out);
  }
  o = find_id (json_node_get_array (models), "id", MODEL_ID);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "Tiny Import");
  /* the bundled catalog is still there */
  g_assert_nonnull (find_id (json_node_get_array (models), "id", "llama-3.1-8b"));
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "list", "gpus", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    gpus = parse (r.out);
  }
  o = find_id (json_node_get_array (gpus), "id", GPU_ID);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "My Card");
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "list", "gpus", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, GPU_ID));
  }
  remove_tree (home);
}

/* `estimate --model user:… --gpu user:…` gives what the app's session computes from the same
 * entries: the bundled catalog with the saved files loaded into it. */
static void
test_estimate_as_app (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *home = data_home (&dir);
  g_autoptr(HrUserData) ud = hr_userdata_new (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_default (&error);
  g_autoptr(JsonNode) node = NULL;
  const HrModel *model;
  const HrGpu *gpu;
  HrScenario s;
  HrEstimate est;
  JsonObject *o;

  g_assert_no_error (error);
  g_assert_true (hr_userdata_load (ud, catalog, &error));
  g_assert_no_error (error);
  model = hr_catalog_find_model (catalog, MODEL_ID);
  gpu = hr_catalog_find_gpu (catalog, GPU_ID);
  g_assert_nonnull (model);
  g_assert_nonnull (gpu);
  hr_scenario_init (&s, model, gpu);
  s.context = 4096;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &est, &error));
  g_assert_no_error (error);

  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "estimate", "--model", MODEL_ID, "--gpu", GPU_ID, "--context", "4096", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    node = parse (r.out);
  }
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "quant"), ==, s.quant);
  g_assert_cmpint (json_object_get_int_member (o, "weights_bytes"), ==, (gint64) llround (est.weights.bytes));
  g_assert_cmpint (json_object_get_int_member (o, "required_bytes"), ==, (gint64) llround (est.required_bytes));
  g_assert_cmpint (json_object_get_int_member (o, "kv_cache_bytes"), ==, (gint64) llround (est.kv_bytes));
  g_assert_cmpint (json_object_get_int_member (o, "usable_bytes"), ==, (gint64) llround (est.usable_bytes));
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, hr_verdict_to_string (est.verdict));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "decode_tps"), est.decode_tps, 0.051);
  /* the exact bytes of the GGUF header, as the app sizes an imported file */
  g_assert_cmpstr (json_object_get_string_member (o, "weights_source"), ==,
                   hr_weights_source_to_string (est.weights.source));
  remove_tree (home);
}

static void
test_fit (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *home = data_home (&dir);
  g_autoptr(JsonNode) node = NULL;
  JsonArray *models;
  JsonObject *row;

  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "fit", "--gpu", GPU_ID, "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    node = parse (r.out);
  }
  models = json_object_get_array_member (json_node_get_object (node), "models");
  row = find_id (models, "model", MODEL_ID);
  g_assert_nonnull (row);
  /* a tiny model runs on 20 GiB */
  g_assert_true (json_object_get_boolean_member (row, "fits"));
  g_assert_nonnull (find_id (models, "model", "llama-3.1-8b"));

  /* inspect sizes a file on a saved GPU */
  {
    g_auto(HrTestRun) r = { 0 };
    g_autoptr(GBytes) bytes = gguf_tiny_llama ("Tiny Import", NULL);
    g_autofree char *file = g_build_filename (home, "tiny-Q4_K_M.gguf", NULL);

    g_assert_true (g_file_set_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
    run (&r, home, "inspect", file, "--gpu", GPU_ID, "--context", "4096", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "\"" GPU_ID "\""));
  }
  remove_tree (home);
}

/* A damaged models.json: one warning line naming it, the file untouched and nothing else
 * written, the saved GPU and the bundled catalog still there. */
static void
test_damaged (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *home = data_home (&dir);
  g_autofree char *models_path = g_build_filename (dir, "models.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;
  guint n_files = 0;

  g_assert_true (g_file_set_contents (models_path, "{\"schema\": 1, \"models\": [ {", -1, NULL));
  {
    g_auto(HrTestRun) r = { 0 };
    g_auto(GStrv) lines = NULL;

    run (&r, home, "list", "gpus", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, GPU_ID));
    g_assert_nonnull (strstr (r.out, "rtx-4090-24gb"));
    lines = g_strsplit (r.err, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 2);   /* one line and its newline */
    g_assert_cmpstr (lines[1], ==, "");
    g_assert_true (g_str_has_prefix (lines[0], "headroom-cli: warning: "));
    g_assert_nonnull (strstr (lines[0], models_path));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "estimate", "--model", "llama-3.1-8b", "--gpu", GPU_ID, NULL);
    g_assert_cmpint (r.status, ==, 0);
  }
  g_assert_true (g_file_get_contents (models_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"schema\": 1, \"models\": [ {");
  /* models.json and gpus.json (the app's saves take .lock): no copy set aside */
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_assert_false (strstr (name, "corrupt") != NULL || strstr (name, "rejected") != NULL);
      n_files++;
    }
  g_assert_cmpuint (n_files, <=, 3);
  remove_tree (home);
}

static void
test_no_user_data (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *home = data_home (&dir);
  g_autofree char *models_path = g_build_filename (dir, "models.json", NULL);

  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "list", "models", "--no-user-data", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_null (strstr (r.out, MODEL_ID));
    g_assert_nonnull (strstr (r.out, "llama-3.1-8b"));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "fit", "--no-user-data", "--gpu", "rtx-4090-24gb", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_null (strstr (r.out, MODEL_ID));
  }
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "estimate", "--model", "llama-3.1-8b", "--gpu", GPU_ID, "--no-user-data", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "unknown GPU"));
  }
  /* before the command too */
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "--no-user-data", "list", "gpus", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_null (strstr (r.out, GPU_ID));
    g_assert_nonnull (strstr (r.out, "rtx-4090-24gb"));
  }
  /* a damaged file is not even read */
  g_assert_true (g_file_set_contents (models_path, "{", -1, NULL));
  {
    g_auto(HrTestRun) r = { 0 };
    run (&r, home, "list", "gpus", "--no-user-data", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_null (strstr (r.out, GPU_ID));
  }
  remove_tree (home);
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
      return g_test_run ();
    }
  g_test_add_func ("/cli-userdata/list", test_list);
  g_test_add_func ("/cli-userdata/estimate-as-app", test_estimate_as_app);
  g_test_add_func ("/cli-userdata/fit", test_fit);
  g_test_add_func ("/cli-userdata/damaged", test_damaged);
  g_test_add_func ("/cli-userdata/no-user-data", test_no_user_data);
  return g_test_run ();
}
