/* test-import-state.c — your own GPU's form and a GGUF file's model, without a display */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-hub-id.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-hfconfig.h"
#include "hr-import-state.h"
#include "hr-launch.h"
#include "hr-userdata.h"

static HrCatalog *catalog;

typedef struct
{
  const char *name, *memory, *bandwidth, *tflops, *power, *price, *share;
  gboolean unified;
} Form;

static void
input_for (HrGpuFormInput *in,
           const Form     *f)
{
  memset (in, 0, sizeof *in);
  in->text[HR_GPU_FIELD_NAME] = f->name;
  in->text[HR_GPU_FIELD_MEMORY] = f->memory;
  in->text[HR_GPU_FIELD_BANDWIDTH] = f->bandwidth;
  in->text[HR_GPU_FIELD_TFLOPS] = f->tflops;
  in->text[HR_GPU_FIELD_POWER] = f->power;
  in->text[HR_GPU_FIELD_PRICE] = f->price;
  in->text[HR_GPU_FIELD_SHARE] = f->share;
  in->unified = f->unified;
  in->backend = HR_BACKEND_CUDA;
}

static void
test_parse_number (void)
{
  static const struct { const char *text; gboolean ok; double value; } cases[] = {
    { "80", TRUE, 80 },
    { " 1.5 ", TRUE, 1.5 },
    { "2e3", TRUE, 2000 },
    { "+7", TRUE, 7 },
    { "-3", TRUE, -3 },          /* a number: the form says it must be more than 0 */
    { "0", TRUE, 0 },
    { "", FALSE, 0 },
    { "   ", FALSE, 0 },
    { "abc", FALSE, 0 },
    { "nan", FALSE, 0 },
    { "NaN", FALSE, 0 },
    { "inf", FALSE, 0 },
    { "1e400", FALSE, 0 },       /* overflows to infinity */
    { "0x10", FALSE, 0 },
    { "1,000", FALSE, 0 },       /* no thousands separators (and C's decimal point is '.') */
    { "12 GB", FALSE, 0 },
    { "1.2.3", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double v;
      gboolean ok = hr_import_parse_number (cases[i].text, &v);

      g_test_message ("“%s”", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpfloat_with_epsilon (v, cases[i].value, 1e-12);
      else
        g_assert_true (isnan (v));
    }
  g_assert_false (hr_import_parse_number (NULL, &(double) { 0 }));
}

static void
test_form_required (void)
{
  Form f = { "", "", "", "", "", "", "", FALSE };
  HrGpuFormInput in;
  g_auto(HrGpuFormState) st;

  hr_gpu_form_state_init (&st);
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  g_assert_false (st.valid);
  g_assert_nonnull (st.error[HR_GPU_FIELD_NAME]);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_MEMORY], ==, "Required");
  g_assert_cmpstr (st.error[HR_GPU_FIELD_BANDWIDTH], ==, "Required");
  g_assert_cmpstr (st.error[HR_GPU_FIELD_TFLOPS], ==, "Required");
  /* unknown is allowed where the catalog allows it */
  g_assert_null (st.error[HR_GPU_FIELD_POWER]);
  g_assert_null (st.error[HR_GPU_FIELD_PRICE]);
  g_assert_null (st.error[HR_GPU_FIELD_SHARE]);
  g_assert_true (hr_gpu_field_is_optional (HR_GPU_FIELD_PRICE));
  g_assert_false (hr_gpu_field_is_optional (HR_GPU_FIELD_MEMORY));
  g_assert_null (hr_gpu_form_build (&st, &in, catalog));
}

/* 0, negative, NaN, huge: each named in its own field, never a crash. */
static void
test_form_bad_numbers (void)
{
  static const struct { HrGpuField field; const char *text; const char *error; } cases[] = {
    { HR_GPU_FIELD_MEMORY, "0", "Must be more than 0" },
    { HR_GPU_FIELD_MEMORY, "-24", "Must be more than 0" },
    { HR_GPU_FIELD_MEMORY, "nan", "Enter a number, such as 24 or 1.5" },
    { HR_GPU_FIELD_MEMORY, "1e400", "Enter a number, such as 24 or 1.5" },
    { HR_GPU_FIELD_MEMORY, "1e12", "At most 65536" },
    { HR_GPU_FIELD_MEMORY, "65537", "At most 65536" },
    { HR_GPU_FIELD_BANDWIDTH, "2e6", "At most 1000000" },
    { HR_GPU_FIELD_TFLOPS, "-0.5", "Must be more than 0" },
    { HR_GPU_FIELD_POWER, "0", "Must be more than 0" },
    { HR_GPU_FIELD_POWER, "5e5", "At most 100000" },
    { HR_GPU_FIELD_PRICE, "free", "Enter a number, such as 24 or 1.5" },
    { HR_GPU_FIELD_PRICE, "1e10", "At most 1000000000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Form f = { "Lab card", "48", "900", "100", "", "", "", FALSE };
      HrGpuFormInput in;
      g_auto(HrGpuFormState) st;

      hr_gpu_form_state_init (&st);
      input_for (&in, &f);
      in.text[cases[i].field] = cases[i].text;
      hr_gpu_form_validate (&st, &in, catalog);
      g_test_message ("%s = “%s”", hr_gpu_field_title (cases[i].field), cases[i].text);
      g_assert_false (st.valid);
      g_assert_cmpstr (st.error[cases[i].field], ==, cases[i].error);
      g_assert_true (isnan (st.value[cases[i].field]));
      for (guint other = 0; other < HR_GPU_N_FIELDS; other++)
        if (other != cases[i].field)
          g_assert_null (st.error[other]);
      g_assert_null (hr_gpu_form_build (&st, &in, catalog));
    }
}

static void
test_form_unified (void)
{
  Form f = { "Mac Studio M3 Ultra 512GB", "512", "819", "57", "480", "9499", "", TRUE };
  HrGpuFormInput in;
  g_auto(HrGpuFormState) st;
  g_autoptr(HrGpu) gpu = NULL;

  hr_gpu_form_state_init (&st);
  input_for (&in, &f);
  in.backend = HR_BACKEND_METAL;
  hr_gpu_form_validate (&st, &in, catalog);
  g_assert_true (st.valid);
  gpu = hr_gpu_form_build (&st, &in, catalog);
  g_assert_nonnull (gpu);
  g_assert_true (hr_gpu_is_unified (gpu));
  g_assert_cmpint (gpu->backend, ==, HR_BACKEND_METAL);
  g_assert_cmpfloat (gpu->unified_share, ==, 0.75);  /* macOS's default on a large machine */
  g_assert_cmpfloat (gpu->price_usd, ==, 9499);
  g_assert_cmpfloat (gpu->tdp_w, ==, 480);
  g_clear_pointer (&gpu, hr_gpu_free);

  f.memory = "16";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  gpu = hr_gpu_form_build (&st, &in, catalog);
  g_assert_cmpfloat (gpu->unified_share, ==, 0.66);
  g_clear_pointer (&gpu, hr_gpu_free);

  f.share = "80";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  gpu = hr_gpu_form_build (&st, &in, catalog);
  g_assert_cmpfloat_with_epsilon (gpu->unified_share, 0.8, 1e-12);

  f.share = "5";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  g_assert_false (st.valid);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_SHARE], ==, "At least 10\u00a0%");
  f.share = "150";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_SHARE], ==, "At most 100");

  /* a discrete card ignores the share, whatever it says */
  f.unified = FALSE;
  f.share = "abc";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, catalog);
  g_assert_true (st.valid);
}

static void
test_form_names (void)
{
  g_autoptr(HrCatalog) own = hr_catalog_new_default (NULL);
  Form f = { "  My Card  ", "24", "1008", "82.6", "", "", "", FALSE };
  HrGpuFormInput in;
  g_auto(HrGpuFormState) st;
  g_autoptr(HrGpu) gpu = NULL;
  g_autoptr(HrGpu) again = NULL;
  g_autofree char *long_name = g_strnfill (129, 'x');

  hr_gpu_form_state_init (&st);
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  gpu = hr_gpu_form_build (&st, &in, own);
  g_assert_cmpstr (gpu->name, ==, "My Card");
  g_assert_cmpstr (gpu->id, ==, "my-card");
  g_assert_true (gpu->user_defined);
  g_assert_true (isnan (gpu->price_usd));
  g_free (gpu->id);
  gpu->id = g_strdup ("user:my-card");
  hr_catalog_add_gpu (own, g_steal_pointer (&gpu));

  /* the same name again, in other case and spacing: refused */
  f.name = "my card";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  g_assert_false (st.valid);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_NAME], ==, "You already have a GPU with this name");
  /* unless it is that GPU being edited */
  in.editing_id = "user:my-card";
  hr_gpu_form_validate (&st, &in, own);
  g_assert_true (st.valid);
  again = hr_gpu_form_build (&st, &in, own);
  g_assert_cmpstr (again->id, ==, "user:my-card");
  g_clear_pointer (&again, hr_gpu_free);

  /* a catalog GPU's name is fine: the ids cannot collide */
  f.name = "RTX 4090";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  g_assert_true (st.valid);

  /* a new name whose slug is taken gets a fresh id */
  f.name = "My-Card!";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  g_assert_true (st.valid);
  again = hr_gpu_form_build (&st, &in, own);
  g_assert_cmpstr (again->id, ==, "my-card-2");

  f.name = long_name;
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_NAME], ==, "At most 128 characters");
  f.name = "   ";
  input_for (&in, &f);
  hr_gpu_form_validate (&st, &in, own);
  g_assert_cmpstr (st.error[HR_GPU_FIELD_NAME], ==, "Give the GPU a name");
}

/* What the editor saves is what the next start loads, and editing shows it as it was. */
static void
test_form_round_trip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  g_autoptr(HrUserData) ud = hr_userdata_new (dir);
  g_autoptr(HrCatalog) restarted = hr_catalog_new_empty ();
  Form f = { "Lab card", "48", "864", "91.6", "300", "6800.5", "", FALSE };
  HrGpuFormInput in;
  g_auto(HrGpuFormState) st;
  g_autoptr(HrGpu) gpu = NULL;
  g_autoptr(HrGpu) saved = NULL;
  g_autoptr(HrGpu) rebuilt = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) texts = NULL;
  const HrGpu *loaded;

  hr_gpu_form_state_init (&st);
  input_for (&in, &f);
  in.backend = HR_BACKEND_ROCM;
  hr_gpu_form_validate (&st, &in, catalog);
  gpu = hr_gpu_form_build (&st, &in, catalog);
  g_assert_true (hr_userdata_save_gpu (ud, gpu, &saved, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved->id, ==, "user:lab-card");

  g_assert_true (hr_userdata_load (ud, restarted, &error));
  g_assert_no_error (error);
  loaded = hr_catalog_find_gpu (restarted, "user:lab-card");
  g_assert_nonnull (loaded);
  g_assert_cmpstr (loaded->name, ==, "Lab card");
  g_assert_cmpfloat (loaded->memory_gib, ==, 48);
  g_assert_cmpfloat (loaded->bandwidth_gbs, ==, 864);
  g_assert_cmpfloat (loaded->fp16_tflops, ==, 91.6);
  g_assert_cmpfloat (loaded->tdp_w, ==, 300);
  g_assert_cmpfloat (loaded->price_usd, ==, 6800.5);
  g_assert_cmpint (loaded->backend, ==, HR_BACKEND_ROCM);
  g_assert_true (loaded->user_defined);
  g_assert_true (hr_import_gpu_is_yours (loaded));

  texts = hr_gpu_form_texts (loaded);
  g_assert_cmpstr (texts[HR_GPU_FIELD_MEMORY], ==, "48");
  g_assert_cmpstr (texts[HR_GPU_FIELD_TFLOPS], ==, "91.6");
  g_assert_cmpstr (texts[HR_GPU_FIELD_PRICE], ==, "6800.5");
  g_assert_cmpstr (texts[HR_GPU_FIELD_SHARE], ==, "");
  for (guint i = 0; i < HR_GPU_N_FIELDS; i++)
    in.text[i] = texts[i];
  in.editing_id = loaded->id;
  hr_gpu_form_validate (&st, &in, restarted);
  g_assert_true (st.valid);
  rebuilt = hr_gpu_form_build (&st, &in, restarted);
  g_assert_cmpstr (rebuilt->id, ==, "user:lab-card");
  g_assert_cmpfloat (rebuilt->fp16_tflops, ==, loaded->fp16_tflops);

  g_unlink (hr_userdata_get_gpus_path (ud));
  g_rmdir (dir);
}

static char *
write_gguf (const char *dir,
            const char *file,
            GBytes     *bytes)
{
  char *path = g_build_filename (dir, file, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

/* A GGUF file's model: its own mix, its exact bytes, and its path for the launch commands. */
static void
test_gguf_model (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  guint64 tensor_bytes = 0;
  g_autoptr(GBytes) file = gguf_tiny_llama ("Tiny Llama", &tensor_bytes);
  g_autofree char *path = write_gguf (dir, "tiny llama-Q4_K_M.gguf", file);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = hr_gguf_load_file (path, &error);
  g_autoptr(HrModel) model = NULL;
  g_autoptr(HrUserData) ud = hr_userdata_new (dir);
  g_autoptr(HrModel) saved = NULL;
  g_autoptr(HrCatalog) restarted = hr_catalog_new_default (NULL);
  g_autoptr(GPtrArray) cmds = NULL;
  const HrModel *loaded;
  HrScenario s;
  HrEstimate e;
  gboolean found = FALSE;

  g_assert_no_error (error);
  model = hr_import_model_from_gguf (gguf, path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (model->origin, ==, HR_MODEL_ORIGIN_GGUF);
  g_assert_cmpstr (model->gguf_quant, ==, "Q4_K_M");
  g_assert_cmpuint (model->gguf_bytes, ==, tensor_bytes);
  g_assert_cmpstr (model->gguf_path, ==, path);
  g_assert_true (hr_import_model_is_yours (model));

  /* saved and loaded again, the path is still there for the launch commands */
  g_assert_true (hr_userdata_save_model (ud, model, &saved, &error));
  g_assert_no_error (error);
  g_assert_true (hr_userdata_load (ud, restarted, &error));
  loaded = hr_catalog_find_model (restarted, saved->id);
  g_assert_nonnull (loaded);
  g_assert_cmpstr (loaded->gguf_path, ==, path);
  g_assert_cmpuint (loaded->gguf_bytes, ==, tensor_bytes);

  hr_scenario_init (&s, loaded, hr_catalog_find_gpu (restarted, "rtx-4090-24gb"));
  g_assert_cmpstr (s.quant, ==, "Q4_K_M");
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_cmpint (e.weights.source, ==, HR_WEIGHTS_GGUF);
  g_assert_cmpfloat (e.weights.bytes, ==, (double) tensor_bytes);
  cmds = hr_launch_commands_for_file (&s, &e, loaded->gguf_path);
  for (guint i = 0; i < cmds->len; i++)
    {
      HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      /* "user:" would be read as an Ollama tag */
      if (c->engine == HR_ENGINE_OLLAMA)
        g_assert_null (strstr (c->command, "user:"));
      if (c->engine == HR_ENGINE_LLAMA_CPP && strstr (c->command, "llama-server") != NULL)
        {
          g_autofree char *quoted = hr_launch_shell_quote (path);
          g_autofree char *m = g_strconcat ("-m ", quoted, NULL);

          g_assert_nonnull (strstr (c->command, m));
          found = TRUE;
        }
    }
  g_assert_true (found);

  g_unlink (hr_userdata_get_models_path (ud));
  g_unlink (path);
  g_rmdir (dir);
}

/* #31: a GGUF with an mmproj file beside it takes that projector (its tensors, dtype and encoder
 * from its header), which a save and a restart keep; without one the model has none. */
static void
test_gguf_projector (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-mm-XXXXXX", NULL);
  g_autoptr(GBytes) file = gguf_tiny_llama ("Tiny Vision", NULL);
  g_autofree char *path = write_gguf (dir, "tiny-vision-Q4_K_M.gguf", file);
  g_autoptr(GgufWriter) w = gguf_writer_new ();
  g_autoptr(GBytes) proj = NULL;
  g_autofree char *ppath = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = hr_gguf_load_file (path, &error);
  g_autoptr(HrModel) bare = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(HrModel) saved = NULL;
  g_autoptr(HrUserData) ud = hr_userdata_new (dir);
  g_autoptr(HrCatalog) restarted = hr_catalog_new_default (NULL);
  const HrModel *loaded;
  guint64 proj_bytes;

  g_assert_no_error (error);
  bare = hr_import_model_from_gguf (gguf, path, &error);
  g_assert_cmpfloat (bare->mmproj_bytes, ==, 0);

  gguf_kv_str (w, "general.architecture", "clip");
  gguf_kv_u32 (w, "general.file_type", 1);
  gguf_kv_str (w, "clip.projector_type", "gemma3");
  gguf_kv_u32 (w, "clip.vision.image_size", 896);
  gguf_kv_u32 (w, "clip.vision.patch_size", 14);
  gguf_kv_u32 (w, "clip.vision.embedding_length", 1152);
  gguf_kv_u32 (w, "clip.vision.feed_forward_length", 4304);
  gguf_kv_u32 (w, "clip.vision.attention.head_count", 16);
  gguf_tensor (w, "v.patch_embd.weight", GGML_F16, 1024, 768);
  proj_bytes = w->tensor_bytes;
  proj = gguf_writer_finish (w, (gsize) w->offset);
  ppath = write_gguf (dir, "mmproj-tiny-vision-f16.gguf", proj);

  model = hr_import_model_from_gguf (gguf, path, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (model->mmproj_bytes, ==, (double) proj_bytes);
  g_assert_cmpstr (model->mmproj_dtype, ==, "F16");
  g_assert_cmpint (model->mmproj_encoder.patches, ==, 4096);
  g_assert_nonnull (strstr (model->mmproj_source, "mmproj-tiny-vision-f16.gguf"));

  g_assert_true (hr_userdata_save_model (ud, model, &saved, &error));
  g_assert_no_error (error);
  g_assert_true (hr_userdata_load (ud, restarted, &error));
  g_assert_no_error (error);
  loaded = hr_catalog_find_model (restarted, saved->id);
  g_assert_nonnull (loaded);
  g_assert_cmpfloat (loaded->mmproj_bytes, ==, (double) proj_bytes);
  g_assert_cmpstr (loaded->mmproj_dtype, ==, "F16");
  g_assert_cmpint (loaded->mmproj_encoder.patches, ==, 4096);
  g_assert_cmpint (loaded->mmproj_encoder.hidden, ==, 1152);
  g_assert_cmpint (loaded->mmproj_encoder.ff, ==, 4304);

  g_unlink (hr_userdata_get_models_path (ud));
  g_unlink (ppath);
  g_unlink (path);
  g_rmdir (dir);
}

/* Without a mix the core knows, the file is sized at its dominant type, as the CLI does. */
static void
test_gguf_fallback_quant (void)
{
  g_autoptr(GgufWriter) w = gguf_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GError) error = NULL;

  gguf_kv_str (w, "general.architecture", "llama");
  gguf_kv_u32 (w, "llama.block_count", 1);
  gguf_kv_u32 (w, "llama.context_length", 4096);
  gguf_kv_u32 (w, "llama.embedding_length", 256);
  gguf_kv_u32 (w, "llama.feed_forward_length", 512);
  gguf_kv_u32 (w, "llama.attention.head_count", 4);
  gguf_kv_u32 (w, "llama.attention.head_count_kv", 4);
  gguf_tensor (w, "token_embd.weight", GGML_F16, 256, 512);
  gguf_tensor (w, "blk.0.attn_q.weight", GGML_F16, 256, 256);
  gguf_tensor (w, "blk.0.attn_k.weight", GGML_F16, 256, 256);
  gguf_tensor (w, "blk.0.attn_v.weight", GGML_F16, 256, 256);
  gguf_tensor (w, "blk.0.attn_output.weight", GGML_F16, 256, 256);
  gguf_tensor (w, "blk.0.ffn_gate.weight", GGML_F16, 256, 512);
  gguf_tensor (w, "blk.0.ffn_up.weight", GGML_F16, 256, 512);
  gguf_tensor (w, "blk.0.ffn_down.weight", GGML_F16, 512, 256);
  gguf_tensor (w, "output.weight", GGML_F16, 256, 512);
  bytes = gguf_writer_finish (w, 0);
  gguf = hr_gguf_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL, NULL, &error);
  g_assert_no_error (error);
  model = hr_import_model_from_gguf (gguf, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (model->gguf_quant, ==, "F16");
  g_assert_null (model->gguf_path);
}

static void
test_gguf_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  g_autoptr(GBytes) file = gguf_tiny_llama ("Cut", NULL);
  g_autoptr(GBytes) head = g_bytes_new_from_bytes (file, 0, 200);
  g_autofree char *cut = write_gguf (dir, "cut.gguf", head);
  g_autoptr(GBytes) text = g_bytes_new_static ("{\"not\": \"gguf\"}", 15);
  g_autofree char *json = write_gguf (dir, "config.gguf", text);
  g_autoptr(GError) error = NULL;
  HrGguf *gguf;

  gguf = hr_gguf_load_file (cut, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
  g_clear_error (&error);
  gguf = hr_gguf_load_file (json, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
  g_unlink (cut);
  g_unlink (json);
  g_rmdir (dir);
}

/* Opening the same file again updates it; another file of the same name gets its own id. */
static void
test_model_ids (void)
{
  g_autoptr(HrCatalog) own = hr_catalog_new_empty ();
  g_autoptr(HrModel) local = NULL;
  g_autoptr(HrModel) same = NULL;
  g_autoptr(HrModel) remote = NULL;
  g_autoptr(HrModel) config = NULL;
  g_autoptr(GBytes) file = gguf_tiny_llama ("Tiny Llama", NULL);
  g_autoptr(HrGguf) gguf = hr_gguf_parse (g_bytes_get_data (file, NULL), g_bytes_get_size (file), NULL, NULL, NULL);
  g_autofree char *id = NULL;
  gboolean replaces = TRUE;
  HrModel *added;

  local = hr_import_model_from_gguf (gguf, "/models/tiny.gguf", NULL);
  id = hr_import_model_id (local, own, &replaces);
  g_assert_cmpstr (id, ==, "tiny-llama-q4_k_m");
  g_assert_false (replaces);
  added = hr_model_copy (local);
  g_free (added->id);
  added->id = g_strconcat (HR_USERDATA_ID_PREFIX, id, NULL);
  hr_catalog_add_model (own, added);
  g_clear_pointer (&id, g_free);

  same = hr_import_model_from_gguf (gguf, "/models/tiny.gguf", NULL);
  id = hr_import_model_id (same, own, &replaces);
  g_assert_cmpstr (id, ==, "tiny-llama-q4_k_m");
  g_assert_true (replaces);
  g_clear_pointer (&id, g_free);

  /* the same header read over HTTP: not the file on disk, whose path must stay */
  remote = hr_import_model_from_gguf (gguf, NULL, NULL);
  id = hr_import_model_id (remote, own, &replaces);
  g_assert_cmpstr (id, ==, "tiny-llama-q4_k_m-2");
  g_assert_false (replaces);
  g_clear_pointer (&id, g_free);

  config = hr_hfconfig_parse ("{\"model_type\": \"llama\", \"hidden_size\": 256, \"intermediate_size\": 512, "
                              "\"num_attention_heads\": 4, \"num_hidden_layers\": 2, \"num_key_value_heads\": 2, "
                              "\"vocab_size\": 1024}", -1, "org/tiny-llama", NULL);
  g_assert_nonnull (config);
  id = hr_import_model_id (config, own, &replaces);
  g_assert_cmpstr (id, ==, "tiny-llama");
  g_assert_false (replaces);
}

/* A model sized from the Hub keeps the reference that sizes it again, and sizing it again
 * updates its entry even when the repository's file changed (the point of a refresh). */
static void
test_hub_refresh_ids (void)
{
  g_autoptr(HrCatalog) own = hr_catalog_new_empty ();
  g_autoptr(GBytes) file = gguf_tiny_llama ("Tiny Llama", NULL);
  g_autoptr(HrGguf) gguf = hr_gguf_parse (g_bytes_get_data (file, NULL), g_bytes_get_size (file), NULL, NULL, NULL);
  g_autoptr(HrModel) first = hr_import_model_from_gguf (gguf, NULL, NULL);
  g_autoptr(HrModel) again = NULL;
  g_autoptr(HrModel) other = NULL;
  g_autoptr(HrModel) config = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *id = NULL;
  gboolean replaces = TRUE;
  HrModel *added;

  g_free (first->id);
  first->id = g_strdup ("hf:org/Tiny-GGUF");
  g_free (first->name);
  first->name = g_strdup ("org/Tiny-GGUF");
  g_free (first->source);
  first->source = g_strdup (HR_HUB_SOURCE_PREFIX "org/Tiny-GGUF");
  ref = hr_hub_model_ref (first);
  g_assert_cmpstr (ref, ==, "org/Tiny-GGUF:Q4_K_M");
  id = hr_import_model_id (first, own, &replaces);
  g_assert_false (replaces);
  added = hr_model_copy (first);
  g_free (added->id);
  added->id = g_strconcat (HR_USERDATA_ID_PREFIX, id, NULL);
  hr_catalog_add_model (own, added);

  /* the repository's Q4_K_M was uploaded again: other bytes, the same entry */
  again = hr_model_copy (first);
  again->gguf_bytes += 4096;
  {
    g_autofree char *id2 = hr_import_model_id (again, own, &replaces);

    g_assert_cmpstr (id2, ==, id);
    g_assert_true (replaces);
  }
  /* another revision is another entry */
  other = hr_model_copy (first);
  g_free (other->source);
  other->source = g_strdup (HR_HUB_SOURCE_PREFIX "org/Tiny-GGUF@v2");
  {
    g_autofree char *ref2 = hr_hub_model_ref (other);
    g_autofree char *id2 = hr_import_model_id (other, own, &replaces);

    g_assert_cmpstr (ref2, ==, "org/Tiny-GGUF@v2:Q4_K_M");
    g_assert_cmpstr (id2, !=, id);
    g_assert_false (replaces);
  }

  /* a safetensors checkpoint is sized again at its own format: no selector */
  config = hr_hfconfig_parse ("{\"model_type\": \"llama\", \"hidden_size\": 256, \"intermediate_size\": 512, "
                              "\"num_attention_heads\": 4, \"num_hidden_layers\": 2, \"num_key_value_heads\": 2, "
                              "\"vocab_size\": 1024}", -1, "org/tiny-llama", NULL);
  g_assert_nonnull (config);
  g_assert_null (hr_hub_model_ref (config));
  g_free (config->source);
  config->source = g_strdup (HR_HUB_SOURCE_PREFIX "org/tiny-llama");
  g_clear_pointer (&ref, g_free);
  ref = hr_hub_model_ref (config);
  g_assert_cmpstr (ref, ==, "org/tiny-llama");
  /* a hand-edited source cannot smuggle a selector in */
  g_free (config->source);
  config->source = g_strdup (HR_HUB_SOURCE_PREFIX "org/tiny-llama:../x");
  g_assert_null (hr_hub_model_ref (config));
}

static void
test_fetched_text (void)
{
  g_autofree char *a = hr_import_fetched_text (1048576, (guint64) 4400000000, 2);
  g_autofree char *b = hr_import_fetched_text (2048, 0, 1);

  /* g_format_size() keeps the number and its unit together (a no-break space) */
  g_assert_cmpstr (a, ==, "Read 1.0\u00a0MiB of a 4.1\u00a0GiB file (2 requests)");
  g_assert_cmpstr (b, ==, "Read 2.0\u00a0KiB (1 request)");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  catalog = hr_catalog_new_default (NULL);
  g_assert_nonnull (catalog);

  g_test_add_func ("/import/parse-number", test_parse_number);
  g_test_add_func ("/import/form-required", test_form_required);
  g_test_add_func ("/import/form-bad-numbers", test_form_bad_numbers);
  g_test_add_func ("/import/form-unified", test_form_unified);
  g_test_add_func ("/import/form-names", test_form_names);
  g_test_add_func ("/import/form-round-trip", test_form_round_trip);
  g_test_add_func ("/import/gguf-model", test_gguf_model);
  g_test_add_func ("/import/gguf-projector", test_gguf_projector);
  g_test_add_func ("/import/gguf-fallback-quant", test_gguf_fallback_quant);
  g_test_add_func ("/import/gguf-errors", test_gguf_errors);
  g_test_add_func ("/import/model-ids", test_model_ids);
  g_test_add_func ("/import/hub-refresh-ids", test_hub_refresh_ids);
  g_test_add_func ("/import/fetched-text", test_fetched_text);

  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
