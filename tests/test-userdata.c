/* test-userdata.c — the user's saved models and GPUs: round trips, atomic writes, damaged files
 *
 * Every test works in its own temporary directory; nothing touches the real user data dir.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-hfconfig.h"
#include "hr-userdata.h"

typedef struct
{
  char *dir;
  HrUserData *ud;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_dir_make_tmp ("hr-userdata-XXXXXX", &error);

  g_assert_no_error (error);
  /* A directory that does not exist yet: the first save creates it. */
  f->dir = g_build_filename (base, "headroom", NULL);
  f->ud = hr_userdata_new (f->dir);
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *base = g_path_get_dirname (f->dir);

  hr_userdata_free (f->ud);
  remove_tree (base);
  g_free (f->dir);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Sorted names in @dir. */
static GPtrArray *
list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  /* .lock serialises saves between processes and stays, empty, like any lock file. */
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (!g_str_equal (name, ".lock"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static char *
find_corrupt_copy (const char *dir,
                   const char *file)
{
  g_autoptr(GPtrArray) names = list_dir (dir);
  g_autofree char *prefix = g_strconcat (file, ".corrupt-", NULL);

  for (guint i = 0; i < names->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (names, i), prefix))
      return g_build_filename (dir, g_ptr_array_index (names, i), NULL);
  return NULL;
}

/* A hybrid model that uses every kind of layer group, with numbers that do not round nicely. */
static HrModel *
make_model (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("my-hybrid-30b");
  m->name = g_strdup ("My “Hybrid” 30B\tß");
  m->family = g_strdup ("Test");
  m->vendor = g_strdup ("Me");
  m->hf_repo = g_strdup ("me/hybrid-30b");
  m->gguf_repo = g_strdup ("me/hybrid-30b-GGUF");
  m->license = g_strdup ("apache-2.0");
  m->native_dtype = g_strdup ("BF16");
  m->arch_label = g_strdup ("Hybrid MoE + MLA");
  m->source = g_strdup ("GGUF header of hybrid-30b-Q4_K_M.gguf \"quoted\" \\ back");
  m->confidence = g_strdup ("user");
  m->origin = HR_MODEL_ORIGIN_GGUF;
  m->total_params = 30532122624.0;
  m->active_params = 3338170368.0;
  m->n_layers = 48;
  m->hidden = 2048;
  m->n_heads = 32;
  m->head_dim = 128;
  m->vocab = 151936;
  m->intermediate = 6144;
  m->n_experts = 128;
  m->n_experts_used = 8;
  m->n_shared_experts = 1;
  m->moe_intermediate = 768;
  m->shared_intermediate = 768;
  m->n_dense_layers = 1;
  m->q_lora_rank = 1536;
  m->kv_lora_rank = 512;
  m->qk_rope_dim = 64;
  m->qk_nope_dim = 128;
  m->v_head_dim = 128;
  m->mtp_layers = 1;
  m->tie_embeddings = TRUE;
  m->max_context = 262144;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_FULL, 4, 4, 128, 128, 0, 0 });
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_SLIDING, 10, 8, 256, 256, 4096, 0 });
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_CHUNKED, 6, 8, 128, 128, 8192, 0 });
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_MLA, 8, 1, 576, 0, 0, 0 });
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_RECURRENT, 20, 0, 0, 0, 0, 1081344.5 });
  hr_model_add_size (m, "Q4_K_M", 18556685824, "measured, HF file listing");
  hr_model_add_size (m, "UD-Q2_K_XL", 11800000000, NULL);
  m->gguf_quant = g_strdup ("Q4_K_M");
  m->gguf_bytes = 18556600000;
  m->gguf_expert_bytes = 16000000001;
  m->gguf_file_type = 15;
  return m;
}

static HrGpu *
make_gpu (void)
{
  HrGpu *gpu = hr_gpu_new ();

  gpu->id = g_strdup ("my box");
  gpu->name = g_strdup ("My Strix Halo box (128 GB)");
  gpu->vendor = g_strdup ("AMD");
  gpu->form = HR_FORM_UNIFIED;
  gpu->memory_gib = 128;
  gpu->bandwidth_gbs = 256.25;
  gpu->fp16_tflops = 59.4;
  gpu->fp8_tflops = NAN;
  gpu->tdp_w = 140;
  gpu->price_usd = 1999.99;
  gpu->price_note = g_strdup ("what I paid");
  gpu->memory_type = g_strdup ("LPDDR5X-8000");
  gpu->stack = g_strdup ("ROCm");
  gpu->backend = HR_BACKEND_VULKAN;
  gpu->unified_share = 0.875;
  gpu->gpu_cores = 40;
  gpu->used_market = TRUE;
  gpu->source = g_strdup ("my own measurement");
  return gpu;
}

static void
assert_models_equal (const HrModel *a,
                     const HrModel *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->family, ==, b->family);
  g_assert_cmpstr (a->vendor, ==, b->vendor);
  g_assert_cmpstr (a->hf_repo, ==, b->hf_repo);
  g_assert_cmpstr (a->gguf_repo, ==, b->gguf_repo);
  g_assert_cmpstr (a->license, ==, b->license);
  g_assert_cmpstr (a->native_dtype, ==, b->native_dtype);
  g_assert_cmpstr (a->arch_label, ==, b->arch_label);
  g_assert_cmpstr (a->source, ==, b->source);
  g_assert_cmpstr (a->confidence, ==, b->confidence);
  g_assert_cmpint (a->origin, ==, b->origin);
  /* Exact, not approximately: a saved model must size exactly as before. */
  g_assert_true (a->total_params == b->total_params);
  g_assert_true (a->active_params == b->active_params);
  g_assert_cmpint (a->n_layers, ==, b->n_layers);
  g_assert_cmpint (a->hidden, ==, b->hidden);
  g_assert_cmpint (a->n_heads, ==, b->n_heads);
  g_assert_cmpint (a->head_dim, ==, b->head_dim);
  g_assert_cmpint (a->vocab, ==, b->vocab);
  g_assert_cmpint (a->intermediate, ==, b->intermediate);
  g_assert_cmpint (a->n_experts, ==, b->n_experts);
  g_assert_cmpint (a->n_experts_used, ==, b->n_experts_used);
  g_assert_cmpint (a->n_shared_experts, ==, b->n_shared_experts);
  g_assert_cmpint (a->moe_intermediate, ==, b->moe_intermediate);
  g_assert_cmpint (a->shared_intermediate, ==, b->shared_intermediate);
  g_assert_cmpint (a->n_dense_layers, ==, b->n_dense_layers);
  g_assert_cmpint (a->q_lora_rank, ==, b->q_lora_rank);
  g_assert_cmpint (a->kv_lora_rank, ==, b->kv_lora_rank);
  g_assert_cmpint (a->qk_rope_dim, ==, b->qk_rope_dim);
  g_assert_cmpint (a->qk_nope_dim, ==, b->qk_nope_dim);
  g_assert_cmpint (a->v_head_dim, ==, b->v_head_dim);
  g_assert_cmpint (a->mtp_layers, ==, b->mtp_layers);
  g_assert_cmpint (a->tie_embeddings, ==, b->tie_embeddings);
  g_assert_cmpint (a->max_context, ==, b->max_context);

  g_assert_cmpuint (a->layers->len, ==, b->layers->len);
  for (guint i = 0; i < a->layers->len; i++)
    {
      const HrLayerGroup *ga = &g_array_index (a->layers, HrLayerGroup, i);
      const HrLayerGroup *gb = &g_array_index (b->layers, HrLayerGroup, i);

      g_assert_cmpint (ga->kind, ==, gb->kind);
      g_assert_cmpint (ga->count, ==, gb->count);
      g_assert_cmpint (ga->kv_heads, ==, gb->kv_heads);
      g_assert_cmpint (ga->k_dim, ==, gb->k_dim);
      g_assert_cmpint (ga->v_dim, ==, gb->v_dim);
      g_assert_cmpint (ga->window, ==, gb->window);
      g_assert_true (ga->state_bytes == gb->state_bytes);
    }
  g_assert_cmpuint (a->sizes->len, ==, b->sizes->len);
  for (guint i = 0; i < a->sizes->len; i++)
    {
      const HrQuantSize *sa = g_ptr_array_index (a->sizes, i);
      const HrQuantSize *sb = g_ptr_array_index (b->sizes, i);

      g_assert_cmpstr (sa->quant, ==, sb->quant);
      g_assert_cmpuint (sa->bytes, ==, sb->bytes);
      g_assert_cmpstr (sa->source, ==, sb->source);
    }
  g_assert_cmpstr (a->gguf_quant, ==, b->gguf_quant);
  g_assert_cmpuint (a->gguf_bytes, ==, b->gguf_bytes);
  g_assert_cmpuint (a->gguf_expert_bytes, ==, b->gguf_expert_bytes);
  g_assert_cmpint (a->gguf_file_type, ==, b->gguf_file_type);

  /* The numbers the estimator uses come out the same too. */
  g_assert_true (hr_model_kv_bytes (a, 32768, 2) == hr_model_kv_bytes (b, 32768, 2));
  g_assert_true (hr_model_state_bytes (a) == hr_model_state_bytes (b));
}

static void
assert_gpus_equal (const HrGpu *a,
                   const HrGpu *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->vendor, ==, b->vendor);
  g_assert_cmpint (a->form, ==, b->form);
  g_assert_true (a->memory_gib == b->memory_gib);
  g_assert_true (a->bandwidth_gbs == b->bandwidth_gbs);
  g_assert_true (a->fp16_tflops == b->fp16_tflops);
  g_assert_true (isnan (a->fp8_tflops) == isnan (b->fp8_tflops));
  if (!isnan (a->fp8_tflops))
    g_assert_true (a->fp8_tflops == b->fp8_tflops);
  g_assert_true (a->tdp_w == b->tdp_w);
  g_assert_true (a->price_usd == b->price_usd);
  g_assert_cmpstr (a->price_note, ==, b->price_note);
  g_assert_cmpstr (a->memory_type, ==, b->memory_type);
  g_assert_cmpstr (a->interconnect, ==, b->interconnect);
  g_assert_cmpstr (a->stack, ==, b->stack);
  g_assert_cmpint (a->backend, ==, b->backend);
  g_assert_true (a->unified_share == b->unified_share);
  g_assert_cmpint (a->gpu_cores, ==, b->gpu_cores);
  g_assert_cmpint (a->used_market, ==, b->used_market);
  g_assert_cmpint (a->generation, ==, b->generation);
  g_assert_cmpstr (a->source, ==, b->source);
}

/* ---- tests ----------------------------------------------------------------------------- */

static void
test_roundtrip (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(HrModel) saved_model = NULL;
  g_autoptr(HrGpu) saved_gpu = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(HrUserData) fresh = NULL;
  const HrModel *loaded;
  const HrGpu *loaded_gpu;

  g_assert_true (hr_userdata_save_model (f->ud, model, &saved_model, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved_model->id, ==, "user:my-hybrid-30b");
  assert_models_equal (model, saved_model);

  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, &saved_gpu, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved_gpu->id, ==, "user:my-box");
  g_assert_true (saved_gpu->user_defined);
  assert_gpus_equal (gpu, saved_gpu);

  /* A new instance, as after a restart, reads the same entries. */
  fresh = hr_userdata_new (f->dir);
  g_assert_true (hr_userdata_load (fresh, catalog, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hr_catalog_n_models (catalog), ==, 1);
  g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 1);
  loaded = hr_catalog_find_model (catalog, "user:my-hybrid-30b");
  g_assert_nonnull (loaded);
  assert_models_equal (model, loaded);
  g_assert_cmpint (loaded->origin, ==, HR_MODEL_ORIGIN_GGUF);
  g_assert_true (hr_model_validate (loaded, NULL));
  loaded_gpu = hr_catalog_find_gpu (catalog, "user:my-box");
  g_assert_nonnull (loaded_gpu);
  g_assert_true (loaded_gpu->user_defined);
  assert_gpus_equal (gpu, loaded_gpu);

  listed = hr_userdata_list_models (fresh, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 1);
  assert_models_equal (model, g_ptr_array_index (listed, 0));

  /* The files are plain catalogs: the bundled parser reads them as they are. */
  {
    g_autofree char *text = NULL;
    g_autoptr(HrCatalog) plain = hr_catalog_new_empty ();

    g_assert_true (g_file_get_contents (hr_userdata_get_models_path (fresh), &text, NULL, NULL));
    g_assert_true (hr_catalog_load_models (plain, text, -1, &error));
    g_assert_no_error (error);
    g_assert_nonnull (hr_catalog_find_model (plain, "my-hybrid-30b"));
    g_clear_pointer (&text, g_free);
    g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (fresh), &text, NULL, NULL));
    g_assert_true (hr_catalog_load_gpus (plain, text, -1, &error));
    g_assert_no_error (error);
  }

  /* Saving under the same id replaces; a second entry is added after it. */
  g_free (model->name);
  model->name = g_strdup ("Renamed");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_free (model->id);
  model->id = g_strdup ("second");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_clear_pointer (&listed, g_ptr_array_unref);
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 2);
  g_assert_cmpstr (((HrModel *) g_ptr_array_index (listed, 0))->name, ==, "Renamed");
  g_assert_cmpstr (((HrModel *) g_ptr_array_index (listed, 1))->id, ==, "user:second");
}

static void
test_serializers (void)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autofree char *mjson = hr_model_to_json (model);
  g_autofree char *gjson = hr_gpu_to_json (gpu);
  g_autofree char *doc = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (strstr (mjson, "\"id\": \"my-hybrid-30b\""));
  g_assert_nonnull (strstr (mjson, "\"kind\": \"recurrent\""));
  g_assert_nonnull (strstr (mjson, "\"state_bytes\": 1081344.5"));
  g_assert_nonnull (strstr (mjson, "\"total_params\": 30532122624"));
  g_assert_nonnull (strstr (gjson, "\"fp8_tflops\": null"));
  g_assert_nonnull (strstr (gjson, "\"bandwidth_gbs\": 256.25"));

  doc = g_strdup_printf ("{\"schema\": 1, \"models\": [%s]}", mjson);
  g_assert_true (hr_catalog_load_models (catalog, doc, -1, &error));
  g_assert_no_error (error);
  g_clear_pointer (&doc, g_free);
  doc = g_strdup_printf ("{\"schema\": 1, \"gpus\": [%s]}", gjson);
  g_assert_true (hr_catalog_load_gpus (catalog, doc, -1, &error));
  g_assert_no_error (error);
  /* a unified machine's measured bandwidth and its source come back; a figure above the peak
   * (an edited bandwidth_gbs) is not written, so the file still loads */
  {
    g_autoptr(HrGpu) unified = hr_gpu_copy (gpu);
    g_autoptr(HrCatalog) back = hr_catalog_new_empty ();
    g_autofree char *ujson = NULL;
    g_autofree char *udoc = NULL;
    const HrGpu *read;

    unified->form = HR_FORM_UNIFIED;
    unified->bandwidth_measured_gbs = 212;
    unified->bandwidth_measured_source = g_strdup ("https://llm-tracker.info/_TOORG/Strix-Halo");
    ujson = hr_gpu_to_json (unified);
    udoc = g_strdup_printf ("{\"schema\": 1, \"gpus\": [%s]}", ujson);
    g_assert_true (hr_catalog_load_gpus (back, udoc, -1, &error));
    g_assert_no_error (error);
    read = hr_catalog_get_gpu (back, 0);
    g_assert_cmpfloat (read->bandwidth_measured_gbs, ==, 212);
    g_assert_cmpstr (read->bandwidth_measured_source, ==, unified->bandwidth_measured_source);

    unified->bandwidth_gbs = 200;
    g_clear_pointer (&ujson, g_free);
    ujson = hr_gpu_to_json (unified);
    g_assert_null (strstr (ujson, "bandwidth_measured"));
  }

  /* A "user:" prefix is not written: the file holds catalog slugs. */
  g_free (model->id);
  model->id = g_strdup ("user:abc");
  g_clear_pointer (&mjson, g_free);
  mjson = hr_model_to_json (model);
  g_assert_nonnull (strstr (mjson, "\"id\": \"abc\""));
}

/* What only some models have (FFN-only blocks, ungated FFNs, a vision tower, kernels beyond a
 * llama block's) is saved too:
 * a Nemotron-H config imported and saved sizes exactly as before after a restart. */
static void
test_serializers_sparse_fields (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hfconfig",
                                                 "nemotron-3-nano-30b-a3b.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = hr_hfconfig_load_file (path, &error);
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autofree char *json = NULL;
  g_autofree char *doc = NULL;
  const HrModel *back;
  HrWeights before, after;

  g_assert_no_error (error);
  g_assert_true (model->ffn_ungated);
  g_assert_cmpint (model->n_ffn_layers, >, 0);
  model->vision_params = 0.55e9;
  model->extra_block_kernels = 11;
  json = hr_model_to_json (model);
  doc = g_strdup_printf ("{\"schema\": 1, \"models\": [%s]}", json);
  g_assert_true (hr_catalog_load_models (catalog, doc, -1, &error));
  g_assert_no_error (error);
  back = hr_catalog_get_model (catalog, 0);

  g_assert_true (back->ffn_ungated);
  g_assert_cmpint (back->n_ffn_layers, ==, model->n_ffn_layers);
  g_assert_cmpfloat_with_epsilon (back->vision_params, 0.55e9, 1);
  g_assert_cmpint (back->extra_block_kernels, ==, 11);
  g_assert_true (hr_weights_derive (model, "BF16", &before, NULL));
  g_assert_true (hr_weights_derive (back, "BF16", &after, NULL));
  g_assert_cmpfloat (after.bytes, ==, before.bytes);

  /* A model without them writes none of them. */
  model->ffn_ungated = FALSE;
  model->n_ffn_layers = 0;
  model->vision_params = 0;
  model->extra_block_kernels = 0;
  g_clear_pointer (&json, g_free);
  json = hr_model_to_json (model);
  g_assert_null (strstr (json, "ffn_"));
  g_assert_null (strstr (json, "extra_block_kernels"));
  g_assert_null (strstr (json, "vision_params_b"));
}

static void
test_atomic (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  for (int i = 0; i < 5; i++)
    {
      g_autofree char *id = g_strdup_printf ("model-%d", i);

      g_free (model->id);
      model->id = g_strdup (id);
      g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
      g_assert_no_error (error);
    }
  g_assert_true (hr_userdata_remove_model (f->ud, "model-0", &error));
  g_assert_no_error (error);

  /* Only the two files: no temporary file is left behind. */
  names = list_dir (f->dir);
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "gpus.json");
  g_assert_cmpstr (g_ptr_array_index (names, 1), ==, "models.json");

  /* A save the parser would not read back is refused, and the file stays as it was. */
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &before, NULL, NULL));
  g_free (model->id);
  model->id = g_strdup ("bad");
  model->hidden = 0;   /* hr_model_validate: no hidden size */
  g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  model->hidden = 2048;
  g_array_index (model->layers, HrLayerGroup, 1).window = 0;  /* a sliding group needs one */
  g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "window"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_clear_pointer (&names, g_ptr_array_unref);
  names = list_dir (f->dir);
  g_assert_cmpuint (names->len, ==, 2);
}

/* A reader that only reads (headroom-cli): a damaged file, or one with an entry the parser
 * refuses, is reported naming it and left exactly as it was, nothing set aside, the other file
 * still loaded; saves are refused and create nothing. */
static void
test_read_only (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrUserData) ro = hr_userdata_new (f->dir);
  g_autofree char *good = NULL;
  g_autofree char *one_bad = NULL;
  const char *path = hr_userdata_get_models_path (f->ud);
  const char *damaged[2];

  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &good, NULL, NULL));
  /* the saved model and one entry a newer Headroom might write */
  /* the list closes at the file's last "]": the saved model, then one entry the parser refuses */
  *strrchr (good, ']') = '\0';
  one_bad = g_strconcat (good, ", {\"id\": \"odd\", \"name\": \"Odd\"}]}", NULL);
  damaged[0] = "{\"schema\": 1, \"models\": [ {";
  damaged[1] = one_bad;
  hr_userdata_set_read_only (ro, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
      g_autoptr(GPtrArray) before = NULL;
      g_autoptr(GPtrArray) after = NULL;
      g_autofree char *kept = NULL;

      g_assert_true (g_file_set_contents (path, damaged[i], -1, NULL));
      before = list_dir (f->dir);
      g_assert_false (hr_userdata_load (ro, catalog, &error));
      g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_null (strchr (error->message, '\n'));
      g_clear_error (&error);
      g_assert_cmpuint (hr_catalog_n_models (catalog), ==, 0);
      g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 1);
      g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, damaged[i]);
      after = list_dir (f->dir);
      g_assert_cmpuint (after->len, ==, before->len);
      g_assert_cmpuint (after->len, ==, 2);
    }
  /* the app's own reader would have kept the good entry and set "odd" aside */
  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();

    g_assert_false (hr_userdata_load (f->ud, catalog, &error));
    g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_SET_ASIDE);
    g_clear_error (&error);
    g_assert_cmpuint (hr_catalog_n_models (catalog), ==, 1);
  }

  /* nothing is written, not even the folder */
  {
    g_autofree char *base = g_path_get_dirname (f->dir);
    g_autofree char *elsewhere = g_build_filename (base, "other", NULL);
    g_autoptr(HrUserData) ro2 = hr_userdata_new (elsewhere);
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();

    hr_userdata_set_read_only (ro2, TRUE);
    g_assert_true (hr_userdata_load (ro2, catalog, &error));
    g_assert_no_error (error);
    g_assert_false (hr_userdata_save_model (ro2, model, NULL, &error));
    g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
    g_clear_error (&error);
    g_assert_false (hr_userdata_remove_gpu (ro, "user:x", &error));
    g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
    g_clear_error (&error);
    g_assert_false (g_file_test (elsewhere, G_FILE_TEST_EXISTS));
  }
}

static void
test_corrupt (Fixture       *f,
              gconstpointer  data)
{
  static const char *damaged[] = {
    "{\"schema\": 1, \"models\": [ {\"id\": \"x\", \"name\": \"X\"",  /* cut off */
    "this is not JSON",
    "{\"schema\": 0, \"models\": []}",                                /* wrong schema */
    "[1, 2, 3]",
    "",
  };
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
      g_autoptr(GPtrArray) listed = NULL;
      g_autofree char *copy = NULL;
      g_autofree char *kept = NULL;
      const char *path = hr_userdata_get_models_path (f->ud);

      g_assert_true (g_file_set_contents (path, damaged[i], -1, NULL));

      /* Load: reported, moved aside (contents intact), the GPUs still loaded. */
      g_assert_false (hr_userdata_load (f->ud, catalog, &error));
      g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
      g_test_message ("%s", error->message);
      copy = find_corrupt_copy (f->dir, "models.json");
      g_assert_nonnull (copy);
      g_assert_nonnull (strstr (error->message, copy));
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_get_contents (copy, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, damaged[i]);
      g_assert_cmpuint (hr_catalog_n_models (catalog), ==, 0);
      g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, 1);
      g_clear_error (&error);

      /* The next save starts a new file with just the new entry. */
      g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
      g_assert_no_error (error);
      listed = hr_userdata_list_models (f->ud, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (listed->len, ==, 1);
      g_unlink (copy);
    }

  /* Damaged while running: the save is refused, the file moved aside, never overwritten. */
  {
    g_autofree char *copy = NULL;
    g_autofree char *kept = NULL;

    g_assert_true (g_file_set_contents (hr_userdata_get_models_path (f->ud), "garbage", -1, NULL));
    g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
    g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
    g_clear_error (&error);
    copy = find_corrupt_copy (f->dir, "models.json");
    g_assert_nonnull (copy);
    g_assert_true (g_file_get_contents (copy, &kept, NULL, NULL));
    g_assert_cmpstr (kept, ==, "garbage");
    g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
    g_assert_no_error (error);
  }

  /* Two damaged files in the same second get two different names. */
  {
    g_autoptr(GPtrArray) names = NULL;
    guint corrupt = 0;

    for (int i = 0; i < 2; i++)
      {
        g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (f->ud), "{", -1, NULL));
        g_assert_null (hr_userdata_list_gpus (f->ud, &error));
        g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
        g_clear_error (&error);
      }
    names = list_dir (f->dir);
    for (guint i = 0; i < names->len; i++)
      corrupt += g_str_has_prefix (g_ptr_array_index (names, i), "gpus.json.corrupt-");
    g_assert_cmpuint (corrupt, ==, 2);
  }

  /* Both damaged: one error that names both copies. */
  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();

    g_assert_true (g_file_set_contents (hr_userdata_get_models_path (f->ud), "x", -1, NULL));
    g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (f->ud), "y", -1, NULL));
    g_assert_false (hr_userdata_load (f->ud, catalog, &error));
    g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "models.json.corrupt-"));
    g_assert_nonnull (strstr (error->message, "gpus.json.corrupt-"));
    g_clear_error (&error);
  }
}

/* A GPU's generation (#28) is saved with it and reads back; one this version does not know
 * (a newer generation, or anything typed into the file by hand) reads as not known: the GPU
 * loads, nothing is set aside, and the next save writes no generation for it. */
static void
test_generation (Fixture       *f,
                 gconstpointer  data)
{
  static const char * const hostile[] = { "kepler-2030", "PASCAL ", "", "\\u00e9pascal", "rdna2\\n",
                                           "Ｐａｓｃａｌ", "../../etc/passwd", "%s%s%n" };
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(HrGpu) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  gpu->generation = HR_GEN_PASCAL;
  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, &saved, &error));
  g_assert_no_error (error);
  assert_gpus_equal (gpu, saved);
  g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (f->ud), &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"generation\": \"pascal\""));
  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
    g_autoptr(HrUserData) fresh = hr_userdata_new (f->dir);

    g_assert_true (hr_userdata_load (fresh, catalog, &error));
    g_assert_no_error (error);
    g_assert_cmpint (hr_catalog_find_gpu (catalog, "user:my-box")->generation, ==, HR_GEN_PASCAL);
  }

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
      g_autoptr(HrUserData) fresh = hr_userdata_new (f->dir);
      g_autoptr(GString) edited = g_string_new (text);
      g_autoptr(GPtrArray) names = NULL;
      g_autofree char *replacement = g_strdup_printf ("\"generation\": \"%s\"", hostile[i]);
      const HrGpu *loaded;

      g_string_replace (edited, "\"generation\": \"pascal\"", replacement, 1);
      g_assert_nonnull (strstr (edited->str, replacement));
      g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (f->ud), edited->str, -1, NULL));
      g_test_message ("generation \"%s\"", hostile[i]);
      if (!hr_userdata_load (fresh, catalog, &error))
        g_test_message ("%s", error->message);
      g_assert_no_error (error);
      loaded = hr_catalog_find_gpu (catalog, "user:my-box");
      g_assert_nonnull (loaded);
      g_assert_cmpint (loaded->generation, ==, HR_GEN_UNKNOWN);
      g_assert_cmpfloat (loaded->memory_gib, ==, gpu->memory_gib);
      names = list_dir (f->dir);
      for (guint n = 0; n < names->len; n++)
        g_assert_false (g_str_has_prefix (g_ptr_array_index (names, n), "gpus.json.rejected-"));
    }

  /* saved again, the unknown generation is not written */
  {
    g_autoptr(GPtrArray) listed = hr_userdata_list_gpus (f->ud, &error);
    g_autofree char *again = NULL;

    g_assert_no_error (error);
    g_assert_cmpuint (listed->len, ==, 1);
    g_assert_true (hr_userdata_save_gpu (f->ud, g_ptr_array_index (listed, 0), NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (f->ud), &again, NULL, NULL));
    g_assert_null (strstr (again, "\"generation\""));
  }
}

/* A gpus.json from a newer Headroom: one GPU with a backend this version does not know.  It
 * used to move the whole file aside and empty the app; now only that GPU is set aside (in a
 * file of its own, named in the message with the GPU), the two others load, and the file
 * keeps them.  Same for models.json with a model that is missing its architecture. */
static void
test_one_bad_entry (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autofree char *text = NULL;
  g_autofree char *rejected_path = NULL;
  g_autofree char *rejected = NULL;
  g_autofree char *bad_model = NULL;
  g_autoptr(HrCatalog) check = hr_catalog_new_empty ();
  GString *edited;
  char *at;
  guint n = 0;

  for (int i = 0; i < 3; i++)
    {
      g_free (gpu->id);
      gpu->id = g_strdup_printf ("box-%d", i);
      g_free (gpu->name);
      gpu->name = g_strdup_printf ("Box %d", i);
      g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
      g_assert_no_error (error);
    }
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);

  /* the second GPU gets a backend from the future */
  g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (f->ud), &text, NULL, NULL));
  edited = g_string_new (text);
  at = strstr (strstr (edited->str, "\"Box 1\""), "\"vulkan\"");
  g_assert_nonnull (at);
  g_string_insert (edited, at - edited->str + 1, "quantum-");
  g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (f->ud), edited->str, -1, NULL));
  g_string_free (edited, TRUE);

  g_assert_false (hr_userdata_load (f->ud, catalog, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_SET_ASIDE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“Box 1”"));
  g_assert_nonnull (strstr (error->message, "quantum-vulkan"));
  g_assert_nonnull (strstr (error->message, "gpus.json.rejected-"));
  g_assert_nonnull (hr_catalog_find_gpu (catalog, "user:box-0"));
  g_assert_null (hr_catalog_find_gpu (catalog, "user:box-1"));
  g_assert_nonnull (hr_catalog_find_gpu (catalog, "user:box-2"));
  g_assert_nonnull (hr_catalog_find_model (catalog, "user:my-hybrid-30b"));
  g_clear_error (&error);

  /* the rejected GPU, whole, in a file of its own; gpus.json keeps the two others */
  names = list_dir (f->dir);
  for (guint i = 0; i < names->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (names, i), "gpus.json.rejected-"))
      rejected_path = g_build_filename (f->dir, g_ptr_array_index (names, i), NULL);
  g_assert_null (find_corrupt_copy (f->dir, "gpus.json"));
  g_assert_nonnull (rejected_path);
  g_assert_true (g_file_get_contents (rejected_path, &rejected, NULL, NULL));
  g_assert_nonnull (strstr (rejected, "\"quantum-vulkan\""));
  g_assert_nonnull (strstr (rejected, "\"Box 1\""));
  g_assert_null (strstr (rejected, "\"Box 0\""));
  listed = hr_userdata_list_gpus (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 2);
  g_assert_cmpstr (((HrGpu *) listed->pdata[0])->id, ==, "user:box-0");
  g_assert_cmpstr (((HrGpu *) listed->pdata[1])->id, ==, "user:box-2");
  g_clear_pointer (&listed, g_ptr_array_unref);

  /* the next load is quiet */
  g_assert_true (hr_userdata_load (f->ud, check, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hr_catalog_n_gpus (check), ==, 2);

  /* a model without its architecture among good ones, found by a save: the save goes on */
  g_free (model->id);
  model->id = g_strdup ("second");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &text, NULL, NULL));
  bad_model = g_strdup_printf ("{\"schema\": 1, \"models\": [{\"id\": \"x\", \"name\": \"No arch\"}, %s",
                               strchr (text, '[') + 1);
  g_assert_true (g_file_set_contents (hr_userdata_get_models_path (f->ud), bad_model, -1, NULL));
  g_free (model->id);
  model->id = g_strdup ("third");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 3);
  g_clear_pointer (&names, g_ptr_array_unref);
  names = list_dir (f->dir);
  for (guint i = 0; i < names->len; i++)
    n += g_str_has_prefix (g_ptr_array_index (names, i), "models.json.rejected-");
  g_assert_cmpuint (n, ==, 1);
}

/* A gpus.json whose nesting hides behind a comment (json-glib skips comments and recursed
 * 100 000 levels deep): refused and set aside, so the next start is clean, not another crash. */
static void
test_comment_hidden_nesting (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new ("{\"schema\": 1, \"gpus\": /*");
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;

  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "*/");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (text, '[');
  g_assert_true (g_file_set_contents (hr_userdata_get_gpus_path (f->ud), text->str, -1, NULL));

  for (int start = 0; start < 2; start++)
    {
      g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
      gboolean ok = hr_userdata_load (f->ud, catalog, &error);

      /* The first start sets the file aside; the second finds nothing to refuse. */
      g_assert_true (ok == (start == 1));
      if (start == 0)
        g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_CORRUPT);
      else
        g_assert_no_error (error);
      g_clear_error (&error);
    }
  copy = find_corrupt_copy (f->dir, "gpus.json");
  g_assert_nonnull (copy);
}

/* A file from a newer Headroom is not damage: it stays where it is, untouched, the load says
 * why its entries are missing, and saves are refused rather than writing over it. */
static void
test_newer_schema (Fixture       *f,
                   gconstpointer  data)
{
  const char *newer = "{\"schema\": 2, \"models\": [{\"id\": \"x\", \"future\": true}]}";
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  const char *path = hr_userdata_get_models_path (f->ud);

  g_assert_cmpint (g_mkdir_with_parents (f->dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, newer, -1, NULL));

  g_assert_false (hr_userdata_load (f->ud, catalog, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NEWER);
  g_assert_nonnull (strstr (error->message, "newer version"));
  g_clear_error (&error);

  g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NEWER);
  g_clear_error (&error);

  g_assert_null (find_corrupt_copy (f->dir, "models.json"));
  g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, newer);
}

/* models.json as a symlink (dotfiles in a repository): the save writes the target and the
 * link stays; a dangling link is refused, not replaced. */
static void
test_symlink (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *base = g_path_get_dirname (f->dir);
  g_autofree char *target = g_build_filename (base, "dotfiles-models.json", NULL);
  g_autofree char *missing = g_build_filename (base, "nowhere", "models.json", NULL);
  const char *path = hr_userdata_get_models_path (f->ud);
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  g_assert_cmpint (g_mkdir_with_parents (f->dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (target, "{\"schema\": 1, \"models\": []}", -1, NULL));
  g_assert_cmpint (symlink (target, path), ==, 0);

  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "my-hybrid-30b"));
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 1);

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (symlink (missing, path), ==, 0);
  g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  g_unlink (path);
  g_unlink (target);
}

typedef struct
{
  const char *dir;
  int worker;
} Saver;

static gpointer
save_many (gpointer data)
{
  Saver *saver = data;
  g_autoptr(HrUserData) ud = hr_userdata_new (saver->dir);
  g_autoptr(HrGpu) gpu = make_gpu ();

  for (int i = 0; i < 15; i++)
    {
      g_autoptr(GError) error = NULL;

      g_free (gpu->id);
      gpu->id = g_strdup_printf ("gpu-%d-%d", saver->worker, i);
      g_assert_true (hr_userdata_save_gpu (ud, gpu, NULL, &error));
      g_assert_no_error (error);
    }
  return NULL;
}

/* Four savers at once (four windows, or the app and the CLI): every entry is kept.  Without
 * the lock, a save wrote the file it had read before another's save and lost that entry. */
static void
test_concurrent_saves (Fixture       *f,
                       gconstpointer  data)
{
  Saver savers[4];
  GThread *threads[4];
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GError) error = NULL;

  for (int t = 0; t < 4; t++)
    {
      savers[t] = (Saver) { f->dir, t };
      threads[t] = g_thread_new ("saver", save_many, &savers[t]);
    }
  for (int t = 0; t < 4; t++)
    g_thread_join (threads[t]);
  listed = hr_userdata_list_gpus (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 4 * 15);
}

static void
test_unreadable (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_dirname (f->dir);
  g_autoptr(HrUserData) blocked = NULL;
  g_autofree char *blocked_dir = NULL;

  /* models.json is a directory: an I/O problem, not damage; nothing is moved or written. */
  g_assert_cmpint (g_mkdir_with_parents (hr_userdata_get_models_path (f->ud), 0700), ==, 0);
  g_assert_false (hr_userdata_load (f->ud, catalog, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
  g_clear_error (&error);
  g_assert_false (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
  g_clear_error (&error);
  g_assert_true (g_file_test (hr_userdata_get_models_path (f->ud), G_FILE_TEST_IS_DIR));
  g_assert_null (find_corrupt_copy (f->dir, "models.json"));

  /* The data directory cannot be created (a file is in the way). */
  blocked_dir = g_build_filename (base, "file", "headroom", NULL);
  {
    g_autofree char *file = g_build_filename (base, "file", NULL);

    g_assert_true (g_file_set_contents (file, "", -1, NULL));
  }
  blocked = hr_userdata_new (blocked_dir);
  g_assert_false (hr_userdata_save_model (blocked, model, NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_IO);
  g_test_message ("%s", error->message);
}

static void
test_remove (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) listed = NULL;

  /* Nothing saved yet. */
  g_assert_false (hr_userdata_remove_model (f->ud, "user:nope", &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_free (model->id);
  model->id = g_strdup ("other");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
  g_assert_no_error (error);

  /* With or without the prefix. */
  g_assert_true (hr_userdata_remove_model (f->ud, "user:my-hybrid-30b", &error));
  g_assert_no_error (error);
  g_assert_false (hr_userdata_remove_model (f->ud, "my-hybrid-30b", &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NOT_FOUND);
  g_clear_error (&error);
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_cmpuint (listed->len, ==, 1);
  g_assert_cmpstr (((HrModel *) g_ptr_array_index (listed, 0))->id, ==, "user:other");

  g_assert_true (hr_userdata_remove_gpu (f->ud, "my-box", &error));
  g_assert_no_error (error);
  g_clear_pointer (&listed, g_ptr_array_unref);
  listed = hr_userdata_list_gpus (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 0);
  g_assert_true (hr_userdata_remove_model (f->ud, "other", &error));
  g_clear_pointer (&listed, g_ptr_array_unref);
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 0);
}

/* A saved model gets a new name and keeps its id; the file is read back with it. */
static void
test_rename (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrModel) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_false (hr_userdata_rename_model (f->ud, "user:my-hybrid-30b", "X", NULL, &error));
  g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_free (model->id);
  model->id = g_strdup ("other");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_assert_no_error (error);

  /* without the prefix too; spaces around the name dropped */
  g_assert_true (hr_userdata_rename_model (f->ud, "my-hybrid-30b", "  Lab Hybrid \u00e9 ", &saved, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (saved->id, ==, "user:my-hybrid-30b");
  g_assert_cmpstr (saved->name, ==, "Lab Hybrid \u00e9");
  listed = hr_userdata_list_models (f->ud, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 2);
  g_assert_cmpstr (((HrModel *) listed->pdata[0])->id, ==, "user:my-hybrid-30b");
  g_assert_cmpstr (((HrModel *) listed->pdata[0])->name, ==, "Lab Hybrid \u00e9");
  g_assert_cmpstr (((HrModel *) listed->pdata[1])->name, ==, model->name);  /* the other stays */
  g_assert_cmpfloat (((HrModel *) listed->pdata[0])->total_params, ==, model->total_params);

  /* refused: empty, several lines, control characters; the file is left as it was */
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &before, NULL, NULL));
  for (const char * const *bad = (const char *[]) { "", "   ", "two\nlines", "bell\a", NULL }; *bad; bad++)
    {
      g_assert_false (hr_userdata_rename_model (f->ud, "user:other", *bad, NULL, &error));
      g_assert_error (error, HR_USERDATA_ERROR, HR_USERDATA_ERROR_INVALID);
      g_clear_error (&error);
    }
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
}

static void
test_ids (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(HrCatalog) catalog = NULL;
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(GError) error = NULL;
  const HrModel *bundled;
  const HrModel *mine;
  const HrGpu *bundled_gpu;
  g_autofree char *id = NULL;
  double bundled_params;

  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);
  bundled = hr_catalog_find_model (catalog, "glm-4.5-air");
  g_assert_nonnull (bundled);
  bundled_params = bundled->total_params;
  bundled_gpu = hr_catalog_get_gpu (catalog, 0);

  /* The same slug as a bundled model and GPU: both kept, side by side. */
  g_free (model->id);
  model->id = g_strdup ("glm-4.5-air");
  g_assert_true (hr_userdata_save_model (f->ud, model, NULL, &error));
  g_free (gpu->id);
  gpu->id = g_strdup (bundled_gpu->id);
  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, NULL, &error));
  g_assert_no_error (error);
  {
    guint n_models = hr_catalog_n_models (catalog);
    guint n_gpus = hr_catalog_n_gpus (catalog);

    g_assert_true (hr_userdata_load (f->ud, catalog, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (hr_catalog_n_models (catalog), ==, n_models + 1);
    g_assert_cmpuint (hr_catalog_n_gpus (catalog), ==, n_gpus + 1);
  }
  bundled = hr_catalog_find_model (catalog, "glm-4.5-air");
  mine = hr_catalog_find_model (catalog, "user:glm-4.5-air");
  g_assert_nonnull (mine);
  g_assert_true (bundled != mine);
  g_assert_true (bundled->total_params == bundled_params);
  g_assert_cmpstr (mine->name, ==, model->name);
  g_assert_true (hr_userdata_is_user_id (mine->id));
  g_assert_false (hr_userdata_is_user_id (bundled->id));
  g_assert_false (hr_catalog_find_gpu (catalog, bundled_gpu->id)->user_defined);

  /* Loading twice replaces, it does not duplicate. */
  {
    guint n = hr_catalog_n_models (catalog);

    g_assert_true (hr_userdata_load (f->ud, catalog, &error));
    g_assert_cmpuint (hr_catalog_n_models (catalog), ==, n);
  }

  /* Ids that are not slugs become slugs; an already-prefixed id is not prefixed twice. */
  g_free (model->id);
  model->id = g_strdup ("Qwen/Qwen3 30B-A3B (mine)");
  id = hr_userdata_model_id (model);
  g_assert_cmpstr (id, ==, "user:qwen-qwen3-30b-a3b-mine");
  g_clear_pointer (&id, g_free);
  g_free (model->id);
  model->id = g_strdup ("user:already");
  id = hr_userdata_model_id (model);
  g_assert_cmpstr (id, ==, "user:already");
  g_clear_pointer (&id, g_free);
  g_clear_pointer (&model->id, g_free);
  g_free (model->name);
  model->name = g_strdup ("——");
  id = hr_userdata_model_id (model);
  g_assert_cmpstr (id, ==, "user:model");
  g_clear_pointer (&id, g_free);
  g_free (gpu->id);
  gpu->id = g_strdup ("RTX 5090 (modded, 48 GB!)");
  id = hr_userdata_gpu_id (gpu);
  g_assert_cmpstr (id, ==, "user:rtx-5090-modded-48-gb");
  g_assert_cmpuint (strlen (id), <=, 64 + strlen (HR_USERDATA_ID_PREFIX));
}

static void
test_locale (Fixture       *f,
             gconstpointer  data)
{
  static const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8" };
  g_autoptr(HrModel) model = make_model ();
  g_autoptr(HrGpu) gpu = make_gpu ();
  g_autoptr(HrGpu) saved = NULL;
  g_autoptr(HrModel) saved_model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *locale = NULL;
  char buf[32];

  for (guint i = 0; i < G_N_ELEMENTS (names) && locale == NULL; i++)
    if (setlocale (LC_NUMERIC, names[i]) != NULL)
      {
        g_snprintf (buf, sizeof buf, "%.1f", 1.5);
        if (strchr (buf, ',') != NULL)
          locale = names[i];
      }
  if (locale == NULL)
    {
      setlocale (LC_NUMERIC, "C");
      g_test_skip ("no locale with a decimal comma is installed (try de_DE.UTF-8)");
      return;
    }
  g_test_message ("LC_NUMERIC=%s", locale);

  g_assert_true (hr_userdata_save_gpu (f->ud, gpu, &saved, &error));
  g_assert_no_error (error);
  g_assert_true (hr_userdata_save_model (f->ud, model, &saved_model, &error));
  g_assert_no_error (error);
  setlocale (LC_NUMERIC, "C");

  g_assert_true (g_file_get_contents (hr_userdata_get_gpus_path (f->ud), &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "256.25"));
  g_assert_nonnull (strstr (text, "0.875"));
  g_assert_null (strstr (text, "256,25"));
  assert_gpus_equal (gpu, saved);
  assert_models_equal (model, saved_model);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (hr_userdata_get_models_path (f->ud), &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "1081344.5"));
  g_assert_null (strstr (text, "1081344,5"));
}

static void
test_default_dir (void)
{
  g_autoptr(HrUserData) ud = hr_userdata_new (NULL);
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "headroom", NULL);
  g_autofree char *models = g_build_filename (expected, "models.json", NULL);

  g_assert_cmpstr (hr_userdata_get_dir (ud), ==, expected);
  g_assert_cmpstr (hr_userdata_get_models_path (ud), ==, models);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/userdata/roundtrip", test_roundtrip);
  ADD ("/userdata/atomic", test_atomic);
  ADD ("/userdata/corrupt", test_corrupt);
  ADD ("/userdata/read-only", test_read_only);
  ADD ("/userdata/one-bad-entry", test_one_bad_entry);
  ADD ("/userdata/generation", test_generation);
  ADD ("/userdata/comment-hidden-nesting", test_comment_hidden_nesting);
  ADD ("/userdata/newer-schema", test_newer_schema);
  ADD ("/userdata/symlink", test_symlink);
  ADD ("/userdata/concurrent-saves", test_concurrent_saves);
  ADD ("/userdata/unreadable", test_unreadable);
  ADD ("/userdata/remove", test_remove);
  ADD ("/userdata/rename", test_rename);
  ADD ("/userdata/ids", test_ids);
  ADD ("/userdata/locale", test_locale);
#undef ADD
  g_test_add_func ("/userdata/serializers", test_serializers);
  g_test_add_func ("/userdata/serializers/sparse-fields", test_serializers_sparse_fields);
  g_test_add_func ("/userdata/default-dir", test_default_dir);

  return g_test_run ();
}
