/* test-import-window.c — bring your own model and GPU, in the window under Xvfb
 *
 * The user's data and cache live in temporary directories; a local SoupServer on 127.0.0.1
 * (port 0, its own thread) serves a GGUF file with Range and a hub's config.json.  A GGUF file
 * opened the way the "Open GGUF…" dialog opens it must size exactly as `headroom-cli inspect`
 * sizes it ($HEADROOM_CLI).
 *
 * Run through `xvfb-run -a` with GTK_A11Y=none and GSETTINGS_SCHEMA_DIR=<build>/data
 * (tests/meson.build sets them).
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "gguf-writer.h"
#include "hr-application.h"
#include "hr-estimate.h"
#include "hr-fetch-dialog.h"
#include "hr-gpu-editor.h"
#include "hr-hfconfig.h"
#include "hr-http.h"
#include "hr-import.h"
#include "hr-manage-dialog.h"
#include "hr-test-server.h"
#include "hr-test-window.h"
#include "hr-units.h"
#include "hr-userdata.h"
#include "hr-window.h"

#define HUB_TOKEN "hf_test_token"
#define TEST_GPU  "h100-80gb-sxm"

#define LLAMA_CONFIG \
  "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", " \
  "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_attention_heads\": 32, " \
  "\"num_hidden_layers\": 32, \"num_key_value_heads\": 8, \"vocab_size\": 128256, " \
  "\"max_position_embeddings\": 131072, \"torch_dtype\": \"bfloat16\"}"

static HrApplication *app;
static char *data_home;
static char *work_dir;

/* ---- the server ------------------------------------------------------------------------ */

typedef enum
{
  SERVE_RANGE,        /* honours Range: 206 with Content-Range */
  SERVE_BODY,         /* 200 with the body */
  SERVE_NEEDS_TOKEN,  /* 401 unless "Authorization: Bearer HUB_TOKEN" */
  SERVE_NEVER,        /* never answers */
} ServeMode;

typedef struct
{
  ServeMode mode;
  GBytes *body;
} Route;

static struct
{
  HrTestServer *http;
  GHashTable *routes;   /* read-only once the server runs */
  guint64 tensor_bytes; /* of the GGUF it serves */
  int n_held;           /* requests it holds unanswered (atomic: the server's thread adds) */
} server;

static void
route_free (gpointer data)
{
  Route *route = data;

  g_clear_pointer (&route->body, g_bytes_unref);
  g_free (route);
}

static void
add_route (const char *path,
           ServeMode   mode,
           GBytes     *body)
{
  Route *route = g_new0 (Route, 1);

  route->mode = mode;
  route->body = body ? g_bytes_ref (body) : NULL;
  g_hash_table_insert (server.routes, g_strdup (path), route);
}

static void
serve_range (SoupServerMessage *msg,
             GBytes            *body)
{
  const char *range = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Range");
  gsize size;
  const guint8 *data = g_bytes_get_data (body, &size);
  guint64 start = 0, end = size - 1;
  char *rest = NULL;

  if (range != NULL && g_str_has_prefix (range, "bytes="))
    {
      start = g_ascii_strtoull (range + 6, &rest, 10);
      if (rest != NULL && rest[0] == '-' && rest[1] != '\0')
        end = MIN (g_ascii_strtoull (rest + 1, NULL, 10), size - 1);
    }
  if (range == NULL || start >= size)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_STATIC,
                                        (const char *) data, size);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_PARTIAL_CONTENT, NULL);
  soup_message_headers_set_content_range (soup_server_message_get_response_headers (msg),
                                          (goffset) start, (goffset) end, (goffset) size);
  soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_STATIC,
                                    (const char *) data + start, end - start + 1);
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  const Route *route = g_hash_table_lookup (server.routes, path);
  const char *auth = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                   "Authorization");

  if (route == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  switch (route->mode)
    {
    case SERVE_RANGE:
      serve_range (msg, route->body);
      break;
    case SERVE_NEEDS_TOKEN:
      if (g_strcmp0 (auth, "Bearer " HUB_TOKEN) != 0)
        {
          soup_server_message_set_status (msg, SOUP_STATUS_UNAUTHORIZED, NULL);
          break;
        }
      G_GNUC_FALLTHROUGH;
    case SERVE_BODY:
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        g_bytes_get_data (route->body, NULL), g_bytes_get_size (route->body));
      break;
    case SERVE_NEVER:
      soup_server_message_pause (msg);
      g_atomic_int_inc (&server.n_held);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
server_start (void)
{
  g_autoptr(GBytes) gguf = gguf_tiny_llama ("Remote Llama", &server.tensor_bytes);
  g_autoptr(GBytes) config = g_bytes_new_static (LLAMA_CONFIG, strlen (LLAMA_CONFIG));

  server.routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, route_free);
  add_route ("/files/remote-llama-Q4_K_M.gguf", SERVE_RANGE, gguf);
  add_route ("/files/slow.gguf", SERVE_NEVER, NULL);
  add_route ("/org/model/resolve/main/config.json", SERVE_BODY, config);
  add_route ("/org/gated/resolve/main/config.json", SERVE_NEEDS_TOKEN, config);
  add_route ("/org/slow/resolve/main/config.json", SERVE_NEVER, NULL);
  server.http = hr_test_server_start (server_cb, NULL);
}

static void
server_stop (void)
{
  g_clear_pointer (&server.http, hr_test_server_stop);
  g_clear_pointer (&server.routes, g_hash_table_unref);
}

static gboolean
one_more_held (gpointer before)
{
  return g_atomic_int_get (&server.n_held) > GPOINTER_TO_INT (before);
}

/* Until the server holds one more request than @before unanswered: the fetch is on its way. */
static void
wait_held (int before)
{
  hr_test_wait_until (one_more_held, GINT_TO_POINTER (before), "the request to reach the server");
}

static char *
url_for (const char *path)
{
  return hr_test_server_url_for (server.http, path);
}

/* ---- the window ------------------------------------------------------------------------ */

/* An import or the Size view still working. */
static gboolean
window_busy (gpointer window)
{
  return hr_import_is_busy (hr_window_get_import (window)) || hr_size_view_is_busy (hr_window_get_size_view (window));
}

static void
wait_idle (HrWindow *window)
{
  hr_test_wait_while (window_busy, window);
}

static HrWindow *
open_window (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);

  wait_idle (window);
  /* the scenario the CLI's inspect is compared with */
  g_assert_true (hr_size_view_select_gpu (view, TEST_GPU, 1));
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (view), 32768);
  gtk_adjustment_set_value (hr_size_view_get_batch_adjustment (view), 1);
  adw_combo_row_set_selected (hr_size_view_get_kv_row (view), 0);      /* f16 */
  adw_combo_row_set_selected (hr_size_view_get_engine_row (view), 0);  /* llama.cpp */
  wait_idle (window);
  return window;
}

static HrCatalog *
app_catalog (void)
{
  return hr_application_get_catalog (app);
}

static const char *
last_message (HrWindow *window)
{
  return hr_import_get_last_message (hr_window_get_import (window));
}

/* The same scenario straight from the core, with @model. */
static void
core_estimate (HrSizeView    *view,
               const HrModel *model,
               HrEstimate    *e)
{
  const HrScenario *shown = hr_size_view_get_scenario (view);
  HrScenario s;

  g_assert_nonnull (shown);
  hr_scenario_init (&s, model, shown->gpu);
  g_strlcpy (s.quant, shown->quant, sizeof s.quant);
  s.context = shown->context;
  s.n_gpus = shown->n_gpus;
  s.batch = shown->batch;
  s.kv_type = shown->kv_type;
  s.engine = shown->engine;
  s.offload_pct = shown->offload_pct;
  s.n_cpu_moe = shown->n_cpu_moe;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (app_catalog ()), e, NULL));
}

static char *
write_file (const char *name,
            GBytes     *bytes)
{
  char *path = g_build_filename (work_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

/* ---- the command line ------------------------------------------------------------------ */

static JsonObject *
run_inspect (JsonParser *parser,
             const char *path,
             const char *gpu)
{
  const char *cli = g_getenv ("HEADROOM_CLI");
  const char *argv[] = { cli, "inspect", path, "--context", "32768", "--json", gpu ? "--gpu" : NULL, gpu, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* ---- tests ----------------------------------------------------------------------------- */

/* At start-up the application loaded the user's GPU, set the damaged models.json aside and
 * the GPU from a newer Headroom (an unknown backend) too, alone: the first window says where
 * the copies are and names the GPU. */
static void
test_startup (void)
{
  g_autofree char *dir = g_build_filename (data_home, "headroom", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  g_autofree char *models = g_build_filename (dir, "models.json", NULL);
  g_autofree char *backup = NULL;
  const char *name;
  const HrGpu *gpu = hr_catalog_find_gpu (app_catalog (), "user:preset-card");
  HrWindow *window;

  g_assert_nonnull (gpu);
  g_assert_cmpfloat (gpu->memory_gib, ==, 20);
  g_assert_true (gpu->user_defined);

  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (name, "models.json.corrupt-"))
      backup = g_strdup (name);
  g_assert_nonnull (backup);
  g_assert_false (g_file_test (models, G_FILE_TEST_EXISTS));

  /* the GPU from a newer Headroom is set aside alone, and the toast names it */
  g_assert_null (hr_catalog_find_gpu (app_catalog (), "user:future-card"));

  window = open_window ();
  g_assert_nonnull (last_message (window));
  g_test_message ("%s", last_message (window));
  g_assert_nonnull (strstr (last_message (window), backup));
  g_assert_nonnull (strstr (last_message (window), "“Future card”"));
  g_assert_nonnull (strstr (last_message (window), "gpus.json.rejected-"));

  /* and the picker puts the user's own first, under "Yours" */
  {
    GListModel *shown = hr_picker_get_shown (hr_size_view_get_gpu_picker (hr_window_get_size_view (window)));
    g_autoptr(HrPickerItem) first = g_list_model_get_item (shown, 0);
    g_autoptr(HrPickerItem) second = g_list_model_get_item (shown, 1);

    g_assert_true (hr_picker_item_is_header (first));
    g_assert_cmpstr (hr_picker_item_get_title (first), ==, "Yours");
    g_assert_cmpstr (hr_picker_item_get_id (second), ==, "user:preset-card");
  }
  hr_test_window_close (window);
}

/* A GGUF whose file type is llama.cpp's MXFP4_MOE is sized as the catalog's MXFP4, at the
 * file's own bytes (it used to leave Q4_K_M selected and size that instead). */
static void
test_gguf_file_mxfp4 (void)
{
  guint64 tensor_bytes = 0;
  g_autoptr(GBytes) bytes = gguf_tiny_llama_typed ("Tiny MoE", 38, &tensor_bytes);
  g_autofree char *path = write_file ("tiny-moe-MXFP4_MOE.gguf", bytes);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  const HrEstimate *e;

  g_assert_true (hr_size_view_select_quant (view, "Q4_K_M"));
  hr_import_open_gguf_file (hr_window_get_import (window), file);
  wait_idle (window);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->model->gguf_quant, ==, "MXFP4_MOE");
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "MXFP4");
  e = hr_size_view_get_estimate (view);
  g_assert_nonnull (e);
  g_assert_cmpint (e->weights.source, ==, HR_WEIGHTS_GGUF);
  g_assert_cmpfloat (e->weights.bytes, ==, (double) tensor_bytes);
  g_assert_true (hr_quant_same ("mxfp4_moe", "MXFP4"));
  g_assert_false (hr_quant_same ("MXFP4_MOE", "Q4_K_M"));
  hr_test_window_close (window);
}

/* Ctrl+O (import.open-file): one chooser for every kind of model file the app reads, GGUF and
 * config.json, each also offered on its own; what a chosen file is comes from its content. */
static void
test_open_model_file (void)
{
  guint64 tensor_bytes = 0;
  g_autoptr(GBytes) gguf = gguf_tiny_llama ("Tiny Either", &tensor_bytes);
  g_autofree char *gguf_path = write_file ("downloaded-model.bin", gguf);
  g_autofree char *config_path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", "llama-3.1-8b.json", NULL);
  g_autoptr(GBytes) junk = g_bytes_new_static ("GGU", 3);
  g_autofree char *junk_path = write_file ("three-bytes.gguf", junk);
  const char *names[] = { "Model files (GGUF, config.json)", "GGUF models", "Model configuration (config.json)", "All files" };
  HrWindow *window = open_window ();
  HrImport *import = hr_window_get_import (window);
  HrSizeView *view = hr_window_get_size_view (window);
  GtkFileChooser *chooser;
  g_autoptr(GListModel) filters = NULL;
  g_autoptr(GFile) file = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.open-file", NULL));
  chooser = hr_import_get_chooser (import);
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_native_dialog_get_title (GTK_NATIVE_DIALOG (chooser)), ==, "Open Model File");
  filters = gtk_file_chooser_get_filters (chooser);
  g_assert_cmpuint (g_list_model_get_n_items (filters), ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GtkFileFilter) f = g_list_model_get_item (filters, i);
      g_assert_cmpstr (gtk_file_filter_get_name (f), ==, names[i]);
    }
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==, names[0]);
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (hr_import_get_chooser (import));

  /* a GGUF file whatever its name */
  file = g_file_new_for_path (gguf_path);
  hr_import_open_model_file (import, file);
  wait_idle (window);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->model->name, ==, "Tiny Either");
  g_assert_cmpint (hr_size_view_get_scenario (view)->model->origin, ==, HR_MODEL_ORIGIN_GGUF);
  g_assert_cmpfloat (hr_size_view_get_estimate (view)->weights.bytes, ==, (double) tensor_bytes);

  /* a config.json */
  g_clear_object (&file);
  file = g_file_new_for_path (config_path);
  hr_import_open_model_file (import, file);
  wait_idle (window);
  g_assert_cmpint (hr_size_view_get_scenario (view)->model->origin, ==, HR_MODEL_ORIGIN_CONFIG);
  g_assert_nonnull (strstr (last_message (window), "Added"));

  /* neither: the config reader says why, in a toast */
  g_clear_object (&file);
  file = g_file_new_for_path (junk_path);
  hr_import_open_model_file (import, file);
  wait_idle (window);
  g_assert_true (g_str_has_prefix (last_message (window), "Could not read “three-bytes.gguf”"));
  g_assert_cmpint (hr_size_view_get_scenario (view)->model->origin, ==, HR_MODEL_ORIGIN_CONFIG);
  hr_test_window_close (window);
}

/* "Open GGUF…" and `headroom-cli inspect FILE --context 32768 --json` agree. */
static void
test_gguf_file_agrees_with_cli (void)
{
  guint64 tensor_bytes = 0;
  g_autoptr(GBytes) bytes = gguf_tiny_llama ("Tiny Llama", &tensor_bytes);
  g_autofree char *path = write_file ("my models/tiny llama-Q4_K_M.gguf", bytes);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(JsonParser) any_parser = json_parser_new ();
  g_autoptr(JsonParser) gpu_parser = json_parser_new ();
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  guint n_models = hr_catalog_n_models (app_catalog ());
  const HrScenario *s;
  const HrEstimate *e;
  const HrAdviceState *advice;
  JsonObject *any, *on_gpu, *est;
  g_autofree char *quoted = NULL;
  gboolean launched = FALSE;

  hr_import_open_gguf_file (hr_window_get_import (window), file);
  g_assert_true (hr_import_is_busy (hr_window_get_import (window)));  /* read in a thread */
  wait_idle (window);

  g_assert_cmpuint (hr_catalog_n_models (app_catalog ()), ==, n_models + 1);
  s = hr_size_view_get_scenario (view);
  e = hr_size_view_get_estimate (view);
  g_assert_nonnull (e);
  g_assert_true (g_str_has_prefix (s->model->id, "user:"));
  g_assert_cmpstr (s->model->name, ==, "Tiny Llama");
  g_assert_cmpstr (s->model->gguf_path, ==, path);
  g_assert_cmpstr (s->quant, ==, "Q4_K_M");                  /* the file's own mix */
  g_assert_cmpint (e->weights.source, ==, HR_WEIGHTS_GGUF);
  g_assert_cmpfloat (e->weights.bytes, ==, (double) tensor_bytes);
  g_assert_cmpint (s->context, ==, 32768);
  g_assert_nonnull (strstr (last_message (window), "Q4_K_M"));

  /* without a GPU: what the model needs */
  any = run_inspect (any_parser, path, NULL);
  g_assert_cmpint (json_object_get_int_member (any, "tensor_bytes"), ==, (gint64) tensor_bytes);
  g_assert_cmpstr (json_object_get_string_member (any, "quant"), ==, "Q4_K_M");
  est = json_object_get_object_member (any, "estimate");
  g_assert_cmpstr (json_object_get_string_member (est, "quant"), ==, s->quant);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "weights_gib"), hr_to_gib (e->weights.bytes), 0.0051);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "kv_cache_gib"), hr_to_gib (e->kv_bytes), 0.0051);
  g_assert_cmpfloat (json_object_get_double_member (est, "kv_bytes_per_token"), ==, round (e->kv_bytes_per_token));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "overhead_gib"), hr_to_gib (e->overhead_bytes), 0.0051);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "required_gib"), hr_to_gib (e->required_bytes), 0.0051);

  /* on the same GPU: the whole estimate */
  on_gpu = run_inspect (gpu_parser, path, TEST_GPU);
  est = json_object_get_object_member (on_gpu, "estimate");
  g_assert_cmpstr (json_object_get_string_member (est, "gpu"), ==, TEST_GPU);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "required_gib"), hr_to_gib (e->required_bytes), 0.0051);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "usable_gib"), hr_to_gib (e->usable_bytes), 0.0051);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (est, "decode_tps"), e->decode_tps, 0.051);
  g_assert_cmpstr (json_object_get_string_member (est, "verdict"), ==, hr_verdict_to_string (e->verdict));

  /* and llama-server loads that very file */
  advice = hr_size_view_get_advice (view);
  g_assert_nonnull (advice);
  quoted = g_strconcat ("-m '", path, "'", NULL);
  for (guint i = 0; i < advice->launch->len; i++)
    {
      HrLaunchCommand *cmd = g_ptr_array_index (advice->launch, i);

      if (cmd->engine == HR_ENGINE_LLAMA_CPP && strstr (cmd->command, "llama-server") != NULL)
        {
          g_assert_nonnull (strstr (cmd->command, quoted));
          launched = TRUE;
        }
    }
  g_assert_true (launched);

  /* saved: the next start has it, path and all */
  {
    g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
    g_autoptr(GPtrArray) saved = hr_userdata_list_models (ud, NULL);
    gboolean found = FALSE;

    for (guint i = 0; i < saved->len; i++)
      {
        const HrModel *m = g_ptr_array_index (saved, i);
        if (g_strcmp0 (m->id, s->model->id) == 0)
          {
            g_assert_cmpstr (m->gguf_path, ==, path);
            g_assert_cmpuint (m->gguf_bytes, ==, tensor_bytes);
            found = TRUE;
          }
      }
    g_assert_true (found);
  }
  hr_test_window_close (window);
}

static const HrModel *
import_fixture (HrWindow   *window,
                const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  HrSizeView *view = hr_window_get_size_view (window);
  const HrScenario *s;

  hr_import_open_config_file (hr_window_get_import (window), file);
  wait_idle (window);
  s = hr_size_view_get_scenario (view);
  g_assert_nonnull (s);
  g_assert_true (g_str_has_prefix (s->model->id, "user:"));
  g_assert_cmpint (s->model->origin, ==, HR_MODEL_ORIGIN_CONFIG);
  g_assert_nonnull (strstr (last_message (window), "Added"));
  return s->model;
}

/* A DeepSeek-V3-style MLA config.json: the latent cache, sized as the core sizes it. */
static void
test_config_mla (void)
{
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", "deepseek-v3.json", NULL);
  g_autoptr(HrModel) direct = hr_hfconfig_load_file (path, NULL);
  const HrModel *model = import_fixture (window, "deepseek-v3.json");
  const HrEstimate *e = hr_size_view_get_estimate (view);
  HrEstimate expected;
  gboolean mla = FALSE;

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_MLA)
        {
          g_assert_cmpint (g->k_dim, ==, 512 + 64);   /* kv_lora_rank + qk_rope_head_dim */
          mla = TRUE;
        }
    }
  g_assert_true (mla);
  g_assert_true (hr_model_is_moe (model));
  g_assert_nonnull (e);
  core_estimate (view, direct, &expected);
  g_assert_cmpfloat (e->weights.bytes, ==, expected.weights.bytes);
  g_assert_cmpfloat (e->kv_bytes, ==, expected.kv_bytes);
  g_assert_cmpfloat (e->required_bytes, ==, expected.required_bytes);
  /* 61 layers × 576 values × 2 bytes per token: far below a GQA cache of that size */
  g_assert_cmpfloat (e->kv_bytes_per_token, ==, 61.0 * 576 * 2);
  hr_test_window_close (window);
}

/* A Gemma-3-style config.json: sliding-window layers hold at most their window. */
static void
test_config_sliding (void)
{
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig", "gemma-3-27b.json", NULL);
  g_autoptr(HrModel) direct = hr_hfconfig_load_file (path, NULL);
  const HrModel *model = import_fixture (window, "gemma-3-27b.json");
  const HrEstimate *e = hr_size_view_get_estimate (view);
  HrEstimate expected;
  int sliding = 0, full = 0;

  for (guint i = 0; i < model->layers->len; i++)
    {
      const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);
      if (g->kind == HR_LAYER_SLIDING)
        {
          g_assert_cmpint (g->window, ==, 1024);
          sliding += g->count;
        }
      else if (g->kind == HR_LAYER_FULL)
        full += g->count;
    }
  g_assert_cmpint (sliding + full, ==, 62);
  g_assert_cmpint (sliding, >, full);
  g_assert_nonnull (e);
  core_estimate (view, direct, &expected);
  g_assert_cmpfloat (e->kv_bytes, ==, expected.kv_bytes);
  g_assert_cmpfloat (e->required_bytes, ==, expected.required_bytes);
  /* at 32K the sliding layers cost what 1K costs: far less than 62 full layers would */
  g_assert_cmpfloat (e->kv_bytes, <, 62.0 * 16 * 128 * 2 * 2 * 32768 * 0.4);
  hr_test_window_close (window);
}

/* Unreadable, not JSON, lacking fields, not a GGUF, a header cut short: a message each, and
 * nothing is added. */
static void
test_file_errors (void)
{
  HrWindow *window = open_window ();
  HrImport *import = hr_window_get_import (window);
  guint n_models = hr_catalog_n_models (app_catalog ());
  const char *partial_json = "{\"model_type\": \"llama\", \"hidden_size\": 4096}";
  g_autoptr(GBytes) partial = g_bytes_new_static (partial_json, strlen (partial_json));
  g_autoptr(GBytes) junk = g_bytes_new_static ("not json at all", 15);
  g_autoptr(GBytes) gguf = gguf_tiny_llama ("Cut", NULL);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (gguf, 0, 300);
  g_autofree char *partial_path = write_file ("partial.json", partial);
  g_autofree char *junk_path = write_file ("junk.json", junk);
  g_autofree char *junk_gguf = write_file ("junk.gguf", junk);
  g_autofree char *cut_path = write_file ("cut.gguf", cut);
  g_autofree char *missing = g_build_filename (work_dir, "missing.gguf", NULL);
  struct { const char *path; gboolean gguf; const char *expect; } cases[] = {
    { partial_path, FALSE, "num_hidden_layers" },
    { junk_path, FALSE, "“junk.json”" },
    { junk_gguf, TRUE, "“junk.gguf”" },
    { cut_path, TRUE, "“cut.gguf”" },
    { missing, TRUE, "“missing.gguf”" },
    { missing, FALSE, "“missing.gguf”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (cases[i].path);

      if (cases[i].gguf)
        hr_import_open_gguf_file (import, file);
      else
        hr_import_open_config_file (import, file);
      wait_idle (window);
      g_test_message ("%s: %s", cases[i].path, last_message (window));
      g_assert_true (g_str_has_prefix (last_message (window), "Could not read"));
      g_assert_nonnull (strstr (last_message (window), cases[i].expect));
      g_assert_cmpuint (hr_catalog_n_models (app_catalog ()), ==, n_models);
    }
  hr_test_window_close (window);
}

static HrFetchDialog *
open_fetch_dialog (HrWindow   *window,
                   const char *action)
{
  GtkWindow *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  dialog = hr_import_get_dialog (hr_window_get_import (window));
  g_assert_true (HR_IS_FETCH_DIALOG (dialog));
  return HR_FETCH_DIALOG (dialog);
}

/* Fetch by repository id: inline checks, 404, 401, then the token. */
static void
test_hub (void)
{
  HrWindow *window = open_window ();
  HrImport *import = hr_window_get_import (window);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  HrFetchDialog *dialog;
  guint n_models = hr_catalog_n_models (app_catalog ());

  g_settings_set_string (settings, "hub-endpoint", hr_test_server_get_url (server.http));
  dialog = open_fetch_dialog (window, "import.hub");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);

  /* nothing typed: nothing to fetch, and no error yet */
  g_assert_false (hr_fetch_dialog_can_submit (dialog));
  g_assert_null (hr_fetch_dialog_get_error (dialog));
  /* a hub address pasted from the browser reads as its repository id (issue 26): the page,
   * a folder, a file, a trailing slash; another site's address stays an error */
  {
    static const char *const pasted[] = {
      "https://huggingface.co/org/model", "https://huggingface.co/org/model/",
      "https://huggingface.co/org/model/tree/main", "https://huggingface.co/org/model/blob/main/config.json",
      "  huggingface.co/org/model ", "https://hf.co/org/model?library=transformers",
    };

    for (guint i = 0; i < G_N_ELEMENTS (pasted); i++)
      {
        hr_fetch_dialog_set_text (dialog, pasted[i]);
        if (hr_fetch_dialog_get_error (dialog) != NULL || !hr_fetch_dialog_can_submit (dialog))
          g_error ("“%s” is refused: %s", pasted[i], hr_fetch_dialog_get_error (dialog));
      }
  }
  hr_fetch_dialog_set_text (dialog, "https://example.com/org/model");
  g_assert_false (hr_fetch_dialog_can_submit (dialog));
  g_assert_nonnull (strstr (hr_fetch_dialog_get_error (dialog), "web address"));
  hr_fetch_dialog_set_text (dialog, "just-a-name");
  g_assert_false (hr_fetch_dialog_submit (dialog));
  g_assert_nonnull (hr_fetch_dialog_get_error (dialog));

  /* no such repository, asked for by its address: the hub is asked for org/missing */
  hr_fetch_dialog_set_text (dialog, "https://huggingface.co/org/missing/blob/main/config.json");
  g_assert_null (hr_fetch_dialog_get_error (dialog));
  g_assert_true (hr_fetch_dialog_submit (dialog));
  g_assert_true (hr_fetch_dialog_is_busy (dialog));
  wait_idle (window);
  g_assert_nonnull (dialog);
  g_assert_false (hr_fetch_dialog_is_busy (dialog));
  g_test_message ("404: %s", hr_fetch_dialog_get_error (dialog));
  g_assert_nonnull (strstr (hr_fetch_dialog_get_error (dialog), "org/missing"));

  /* a hub that never answers: the timeout, in words */
  hr_http_set_timeout (1);
  hr_fetch_dialog_set_text (dialog, "org/slow");
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_idle (window);
  g_test_message ("timeout: %s", hr_fetch_dialog_get_error (dialog));
  g_assert_nonnull (strstr (hr_fetch_dialog_get_error (dialog), "did not answer within 1 second"));
  hr_http_set_timeout (HR_HTTP_DEFAULT_TIMEOUT);

  /* gated, no token */
  hr_fetch_dialog_set_text (dialog, "org/gated");
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_idle (window);
  g_test_message ("401: %s", hr_fetch_dialog_get_error (dialog));
  g_assert_nonnull (strstr (hr_fetch_dialog_get_error (dialog), "401"));
  g_assert_cmpuint (hr_catalog_n_models (app_catalog ()), ==, n_models);

  /* with the token: added, chosen, and the dialog closes */
  g_settings_set_string (settings, "hub-token", HUB_TOKEN);
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_idle (window);
  g_assert_null (dialog);
  g_assert_cmpuint (hr_catalog_n_models (app_catalog ()), ==, n_models + 1);
  g_assert_cmpstr (hr_size_view_get_scenario (hr_window_get_size_view (window))->model->id, ==, "user:gated");
  g_assert_nonnull (strstr (last_message (window), "Added"));

  /* without a dialog, a bad id is a toast */
  hr_import_fetch_config (import, "../etc/passwd");
  g_assert_nonnull (strstr (last_message (window), "repository id"));

  g_settings_reset (settings, "hub-token");
  g_settings_reset (settings, "hub-endpoint");
  hr_test_window_close (window);
}

/* A GGUF header over HTTP Range: the bytes fetched are told; 404 inline; closing cancels. */
static void
test_gguf_url (void)
{
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  g_autofree char *url = url_for ("/files/remote-llama-Q4_K_M.gguf");
  g_autofree char *missing = url_for ("/files/missing.gguf");
  g_autofree char *slow = url_for ("/files/slow.gguf");
  HrFetchDialog *dialog = open_fetch_dialog (window, "import.gguf-url");
  guint n_models = hr_catalog_n_models (app_catalog ());
  const HrScenario *s;
  const HrEstimate *e;
  int held;

  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  hr_fetch_dialog_set_text (dialog, "ftp://example.org/model.gguf");
  g_assert_false (hr_fetch_dialog_can_submit (dialog));
  g_assert_nonnull (hr_fetch_dialog_get_error (dialog));

  hr_fetch_dialog_set_text (dialog, missing);
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_idle (window);
  g_assert_nonnull (dialog);
  g_test_message ("404: %s", hr_fetch_dialog_get_error (dialog));
  g_assert_nonnull (strstr (hr_fetch_dialog_get_error (dialog), "404"));

  hr_fetch_dialog_set_text (dialog, url);
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_idle (window);
  g_assert_null (dialog);
  g_assert_cmpuint (hr_catalog_n_models (app_catalog ()), ==, n_models + 1);
  s = hr_size_view_get_scenario (view);
  e = hr_size_view_get_estimate (view);
  g_assert_cmpstr (s->model->name, ==, "Remote Llama");
  g_assert_null (s->model->gguf_path);   /* nothing on disk to launch from */
  g_assert_cmpstr (s->quant, ==, "Q4_K_M");
  g_assert_cmpfloat (e->weights.bytes, ==, (double) server.tensor_bytes);
  g_test_message ("%s", last_message (window));
  g_assert_nonnull (strstr (last_message (window), "Read "));

  /* a server that never answers: closing the dialog stops the fetch, silently */
  dialog = open_fetch_dialog (window, "import.gguf-url");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  hr_fetch_dialog_set_text (dialog, slow);
  held = g_atomic_int_get (&server.n_held);
  g_assert_true (hr_fetch_dialog_submit (dialog));
  wait_held (held);
  g_assert_true (hr_import_is_busy (hr_window_get_import (window)));
  gtk_window_close (GTK_WINDOW (dialog));
  wait_idle (window);
  g_assert_false (hr_import_is_busy (hr_window_get_import (window)));
  g_assert_nonnull (strstr (last_message (window), "Read "));  /* no new message */

  /* and closing the window stops one started without a dialog */
  held = g_atomic_int_get (&server.n_held);
  hr_import_open_gguf_url (hr_window_get_import (window), slow);
  wait_held (held);
  hr_test_window_close (window);
}

static HrGpuEditor *
open_editor (HrWindow   *window,
             const char *action,
             GVariant   *target)
{
  GtkWindow *dialog;

  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, target));
  dialog = hr_import_get_dialog (hr_window_get_import (window));
  g_assert_true (HR_IS_GPU_EDITOR (dialog));
  return HR_GPU_EDITOR (dialog);
}

/* The GPU editor: bad numbers shown in their rows; a saved GPU survives a restart; edit,
 * remove, undo. */
static void
test_gpu_editor (void)
{
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  HrGpuEditor *editor = open_editor (window, "import.add-gpu", NULL);
  static const char *bad[] = { "0", "-5", "nan", "1e12", "inf", "lots" };
  const HrGpu *gpu;

  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &editor);
  /* untouched fields show nothing yet, but Save waits for them */
  g_assert_false (hr_gpu_editor_can_save (editor));
  g_assert_null (hr_gpu_editor_get_field_error (editor, HR_GPU_FIELD_MEMORY));

  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_NAME, "Lab Card 48");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_BANDWIDTH, "864");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_TFLOPS, "91.6");
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      hr_gpu_editor_set_field (editor, HR_GPU_FIELD_MEMORY, bad[i]);
      g_assert_false (hr_gpu_editor_can_save (editor));
      g_assert_nonnull (hr_gpu_editor_get_field_error (editor, HR_GPU_FIELD_MEMORY));
      g_assert_true (gtk_widget_has_css_class (hr_gpu_editor_get_field_row (editor, HR_GPU_FIELD_MEMORY), "error"));
      g_assert_false (hr_gpu_editor_save (editor));
    }
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_MEMORY, "48");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_PRICE, "0");
  g_assert_false (hr_gpu_editor_can_save (editor));
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_PRICE, "");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_POWER, "300");
  g_assert_true (hr_gpu_editor_can_save (editor));
  g_assert_false (gtk_widget_has_css_class (hr_gpu_editor_get_field_row (editor, HR_GPU_FIELD_MEMORY), "error"));
  /* the backend list is core's names, in the order of HrBackend: a position is a backend */
  for (HrBackend b = HR_BACKEND_CUDA; b <= HR_BACKEND_CPU; b++)
    {
      g_autoptr(HrGpu) built = NULL;

      hr_gpu_editor_set_backend (editor, b);
      built = hr_gpu_editor_build (editor);
      g_assert_cmpint (built->backend, ==, b);
    }
  hr_gpu_editor_set_backend (editor, HR_BACKEND_CUDA);
  g_assert_true (hr_gpu_editor_save (editor));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_null (editor);
  wait_idle (window);

  gpu = hr_catalog_find_gpu (app_catalog (), "user:lab-card-48");
  g_assert_nonnull (gpu);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, "user:lab-card-48");
  g_assert_nonnull (hr_size_view_get_estimate (view));

  /* "restart": the user's files, read by a fresh catalog as the application does */
  {
    g_autoptr(HrCatalog) restarted = hr_catalog_new_default (NULL);
    g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
    g_autoptr(GError) error = NULL;
    const HrGpu *again;

    g_assert_true (hr_userdata_load (ud, restarted, &error));
    g_assert_no_error (error);
    again = hr_catalog_find_gpu (restarted, "user:lab-card-48");
    g_assert_nonnull (again);
    g_assert_cmpfloat (again->memory_gib, ==, 48);
    g_assert_cmpfloat (again->bandwidth_gbs, ==, 864);
    g_assert_cmpfloat (again->fp16_tflops, ==, 91.6);
    g_assert_cmpfloat (again->tdp_w, ==, 300);
    g_assert_true (isnan (again->price_usd));
  }

  /* edit: the form starts from the saved values */
  editor = open_editor (window, "import.edit-gpu", g_variant_new_string ("user:lab-card-48"));
  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &editor);
  g_assert_true (hr_gpu_editor_can_save (editor));
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_BANDWIDTH, "960");
  g_assert_true (hr_gpu_editor_save (editor));
  wait_idle (window);
  g_assert_null (editor);
  g_assert_cmpfloat (hr_catalog_find_gpu (app_catalog (), "user:lab-card-48")->bandwidth_gbs, ==, 960);
  g_assert_cmpfloat (hr_size_view_get_scenario (view)->gpu->bandwidth_gbs, ==, 960);

  /* remove: the view falls back to the default GPU; undo brings it back */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), "import.remove-gpu",
                                                     g_variant_new_string ("user:lab-card-48")));
  wait_idle (window);
  g_assert_null (hr_catalog_find_gpu (app_catalog (), "user:lab-card-48"));
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, !=, "user:lab-card-48");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.undo-remove", NULL));
  wait_idle (window);
  g_assert_nonnull (hr_catalog_find_gpu (app_catalog (), "user:lab-card-48"));
  hr_test_window_close (window);
}

/* The GPU editor's Generation row (#28): "Not known" unless the user names one; a GPU saved
 * as Pascal comes back as Pascal after a restart and in the edit form, and the estimate uses
 * it: Pascal has no tensor cores, so its 12 TFLOPS are a vector rate and prefill runs at half
 * of them (HR_CAL_VECTOR_PREFILL_SHARE), where the same card with no generation named keeps
 * the whole 12. */
static void
test_gpu_editor_generation (void)
{
  HrWindow *window = open_window ();
  HrSizeView *view = hr_window_get_size_view (window);
  HrGpuEditor *editor = open_editor (window, "import.add-gpu", NULL);
  GListModel *names;
  const HrGpu *gpu;
  g_autoptr(HrGpu) built = NULL;
  g_autoptr(HrGpu) unnamed = NULL;
  HrScenario s;
  HrEstimate as_unknown;
  const HrEstimate *shown;

  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &editor);
  /* "Not known", then every generation of core's table, in its order */
  names = adw_combo_row_get_model (ADW_COMBO_ROW (hr_gpu_editor_get_generation_row (editor)));
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, HR_N_GENERATIONS);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), HR_GEN_PASCAL), ==, "Pascal");
  g_assert_cmpint (hr_gpu_editor_get_generation (editor), ==, HR_GEN_UNKNOWN);

  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_NAME, "Old Pascal Card");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_MEMORY, "24");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_BANDWIDTH, "346");
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_TFLOPS, "12");
  hr_gpu_editor_set_backend (editor, HR_BACKEND_CUDA);
  unnamed = hr_gpu_editor_build (editor);
  g_assert_nonnull (unnamed);
  g_assert_cmpint (unnamed->generation, ==, HR_GEN_UNKNOWN);
  hr_gpu_editor_set_generation (editor, HR_GEN_PASCAL);
  g_assert_cmpint (hr_gpu_editor_get_generation (editor), ==, HR_GEN_PASCAL);
  built = hr_gpu_editor_build (editor);
  g_assert_cmpint (built->generation, ==, HR_GEN_PASCAL);
  g_assert_true (hr_gpu_editor_save (editor));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_null (editor);
  wait_idle (window);

  gpu = hr_catalog_find_gpu (app_catalog (), "user:old-pascal-card");
  g_assert_nonnull (gpu);
  g_assert_cmpint (gpu->generation, ==, HR_GEN_PASCAL);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->gpu->id, ==, "user:old-pascal-card");

  /* the estimate shown is Pascal's: half the prefill rate of the same card unnamed … */
  shown = hr_size_view_get_estimate (view);
  g_assert_nonnull (shown);
  s = *hr_size_view_get_scenario (view);
  s.gpu = unnamed;
  g_assert_true (hr_estimate_compute (&s, NULL, &as_unknown, NULL));
  g_test_message ("%s %s: prefill %.1f t/s (%g, %g of %g) against %.1f t/s (%g, %g)", s.model->id, s.quant,
                  shown->prefill_tps, shown->prefill_basis.figures[0], shown->prefill_basis.figures[1],
                  shown->prefill_basis.figures[2], as_unknown.prefill_tps,
                  as_unknown.prefill_basis.figures[0], as_unknown.prefill_basis.figures[1]);
  g_assert_cmpint (shown->prefill_basis.kind, ==, HR_BASIS_PREFILL_TENSOR);
  g_assert_cmpfloat (shown->prefill_basis.figures[2], ==, 12.0);
  g_assert_cmpfloat (shown->prefill_basis.figures[1], <, 0.6 * as_unknown.prefill_basis.figures[1]);
  g_assert_cmpfloat (shown->prefill_tps, <, as_unknown.prefill_tps);
  /* and a slower decode: current builds run Pascal without CUDA graphs, so each layer pays
   * the launch cost of builds before graphs */
  g_assert_cmpfloat (shown->decode_tps, <, as_unknown.decode_tps);

  /* "restart": read back from the user's gpus.json */
  {
    g_autoptr(HrCatalog) restarted = hr_catalog_new_default (NULL);
    g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *text = NULL;

    g_assert_true (hr_userdata_load (ud, restarted, &error));
    g_assert_no_error (error);
    g_assert_cmpint (hr_catalog_find_gpu (restarted, "user:old-pascal-card")->generation, ==, HR_GEN_PASCAL);
    g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (ud), &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "\"generation\": \"pascal\""));
  }

  /* edit: the form starts from the saved generation, and keeps it */
  editor = open_editor (window, "import.edit-gpu", g_variant_new_string ("user:old-pascal-card"));
  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &editor);
  g_assert_cmpint (hr_gpu_editor_get_generation (editor), ==, HR_GEN_PASCAL);
  hr_gpu_editor_set_field (editor, HR_GPU_FIELD_BANDWIDTH, "347");
  g_assert_true (hr_gpu_editor_save (editor));
  wait_idle (window);
  g_assert_null (editor);
  g_assert_cmpint (hr_catalog_find_gpu (app_catalog (), "user:old-pascal-card")->generation, ==, HR_GEN_PASCAL);
  g_assert_true (hr_import_remove_gpu (hr_window_get_import (window), "user:old-pascal-card"));
  wait_idle (window);
  hr_test_window_close (window);
}

/* "Manage Yours…": the user's entries listed; removing a model there. */
static void
test_manage (void)
{
  HrWindow *window = open_window ();
  HrManageDialog *manage;
  guint n;
  const char *id;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.manage", NULL));
  manage = HR_MANAGE_DIALOG (hr_import_get_dialog (hr_window_get_import (window)));
  n = hr_manage_dialog_get_n_models (manage);
  g_assert_cmpuint (n, >=, 4);   /* the GGUF file, the two configs, the hub's, the URL's */
  g_assert_cmpuint (hr_manage_dialog_get_n_gpus (manage), >=, 2);

  id = hr_size_view_get_scenario (hr_window_get_size_view (window))->model->id;
  g_assert_true (g_str_has_prefix (id, "user:"));

  /* renamed through its row's dialog: saved, in the catalog, the picker and the title */
  {
    g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
    g_autoptr(GPtrArray) saved = NULL;
    g_autoptr(GError) error = NULL;
    GtkWidget *dialog = NULL;
    GList *tops;
    gboolean found = FALSE;

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (manage), "import.rename-model", "s", id));
    tops = gtk_window_list_toplevels ();
    for (GList *l = tops; l != NULL; l = l->next)
      if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
        dialog = l->data;
    g_list_free (tops);
    g_assert_nonnull (dialog);
    gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog))),
                           "  My Renamed Llama ");
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "rename");
    wait_idle (window);
    g_assert_cmpstr (hr_catalog_find_model (app_catalog (), id)->name, ==, "My Renamed Llama");
    g_assert_cmpstr (hr_size_view_get_scenario (hr_window_get_size_view (window))->model->id, ==, id);
    g_assert_nonnull (strstr (hr_size_view_get_state (hr_window_get_size_view (window))->title, "My Renamed Llama"));
    g_assert_cmpuint (hr_picker_search (hr_size_view_get_model_picker (hr_window_get_size_view (window)),
                                        "my renamed llama"), ==, 1);
    saved = hr_userdata_list_models (ud, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < saved->len; i++)
      if (g_str_equal (((HrModel *) saved->pdata[i])->id, id))
        {
          g_assert_cmpstr (((HrModel *) saved->pdata[i])->name, ==, "My Renamed Llama");
          found = TRUE;
        }
    g_assert_true (found);
    /* an empty name is refused: nothing changes */
    g_assert_false (hr_import_rename_model (hr_window_get_import (window), id, "   "));
    g_assert_cmpstr (hr_catalog_find_model (app_catalog (), id)->name, ==, "My Renamed Llama");
    /* a catalog model is not the user's to rename */
    g_assert_false (hr_import_rename_model (hr_window_get_import (window), "glm-4.5-air", "Mine"));
  }

  g_assert_true (hr_import_remove_model (hr_window_get_import (window), id));
  wait_idle (window);
  g_assert_cmpuint (hr_manage_dialog_get_n_models (manage), ==, n - 1);
  /* a catalog model is not the user's to remove */
  g_assert_false (hr_import_remove_model (hr_window_get_import (window), "glm-4.5-air"));
  g_assert_nonnull (hr_catalog_find_model (app_catalog (), "glm-4.5-air"));
  hr_test_window_close (window);
}

/* ---- main ------------------------------------------------------------------------------ */

/* Before the application starts: a GPU of the user's, and a damaged models.json. */
static void
seed_user_data (void)
{
  g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGpu) gpu = hr_gpu_new_from_spec ("memory_gib=20,bandwidth_gbs=640,fp16_tflops=60,name=Preset card", &error);

  g_assert_no_error (error);
  g_free (gpu->id);
  gpu->id = g_strdup ("preset-card");
  g_assert_true (hr_userdata_save_gpu (ud, gpu, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (hr_userdata_get_models_path (ud), "{\"models\": [ {\"id\": ", -1, NULL));

  /* and a GPU a newer Headroom saved, with a backend this one does not know */
  {
    g_autofree char *text = NULL;
    g_autofree char *future = NULL;
    char *at;

    g_free (gpu->id);
    gpu->id = g_strdup ("future-card");
    g_free (gpu->name);
    gpu->name = g_strdup ("Future card");
    gpu->backend = HR_BACKEND_VULKAN;
    g_assert_true (hr_userdata_save_gpu (ud, gpu, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (ud), &text, NULL, NULL));
    at = strstr (strstr (text, "\"Future card\""), "\"vulkan\"");
    g_assert_nonnull (at);
    *at = '\0';
    future = g_strconcat (text, "\"quantum", at + strlen ("\"vulkan"), NULL);
    g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (ud), future, -1, NULL));
  }
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        rm_rf (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = g_dir_make_tmp ("headroom-import-window-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *models_dir = NULL;
  int ret;

  /* the user's files in a temporary home; 127.0.0.1 directly; no keyring to wait for */
  data_home = g_build_filename (root, "data", NULL);
  work_dir = g_build_filename (root, "work", NULL);
  models_dir = g_build_filename (work_dir, "my models", NULL);
  g_mkdir_with_parents (data_home, 0700);
  g_mkdir_with_parents (cache, 0700);
  g_mkdir_with_parents (models_dir, 0700);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/headroom-test-bus", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  hr_test_init (&argc, &argv);

  seed_user_data ();
  server_start ();

  app = hr_test_app_new ();

  g_test_add_func ("/import-window/startup", test_startup);
  g_test_add_func ("/import-window/gguf-file-agrees-with-cli", test_gguf_file_agrees_with_cli);
  g_test_add_func ("/import-window/gguf-file-mxfp4", test_gguf_file_mxfp4);
  g_test_add_func ("/import-window/open-model-file", test_open_model_file);
  g_test_add_func ("/import-window/config-mla", test_config_mla);
  g_test_add_func ("/import-window/config-sliding-window", test_config_sliding);
  g_test_add_func ("/import-window/file-errors", test_file_errors);
  g_test_add_func ("/import-window/hub", test_hub);
  g_test_add_func ("/import-window/gguf-url", test_gguf_url);
  g_test_add_func ("/import-window/gpu-editor", test_gpu_editor);
  g_test_add_func ("/import-window/gpu-editor-generation", test_gpu_editor_generation);
  g_test_add_func ("/import-window/manage", test_manage);

  ret = g_test_run ();
  g_clear_object (&app);
  server_stop ();
  rm_rf (root);
  g_free (data_home);
  g_free (work_dir);
  return ret;
}
