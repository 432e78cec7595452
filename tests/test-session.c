/* test-session.c — the application's session without a display: its scenario properties and
 * their GSettings keys, its signals (once per real change), catalog edits, the advice worker,
 * and a price refresh from a local SoupServer */
#include <gio/gio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "hr-placement-state.h"
#include "hr-scenario-state.h"
#include "hr-session.h"
#include "hr-user-calibration.h"

#include <glib/gstdio.h>
#include <math.h>

typedef struct
{
  guint scenario;
  guint catalog;
  guint pricing;
  guint advice;
} Counts;

static void
count_cb (GObject *session,
          gpointer user_data)
{
  (*(guint *) user_data)++;
}

static void
notify_count_cb (GObject    *session,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
connect_counts (HrSession *session,
                Counts    *counts)
{
  memset (counts, 0, sizeof *counts);
  g_signal_connect (session, "scenario-changed", G_CALLBACK (count_cb), &counts->scenario);
  g_signal_connect (session, "catalog-changed", G_CALLBACK (count_cb), &counts->catalog);
  g_signal_connect (session, "pricing-changed", G_CALLBACK (count_cb), &counts->pricing);
  g_signal_connect (session, "advice-changed", G_CALLBACK (count_cb), &counts->advice);
}

static HrSession *
session_new (GSettings *settings)
{
  g_autoptr(GError) error = NULL;
  HrCatalog *catalog = hr_catalog_new_default (&error);

  g_assert_no_error (error);
  return hr_session_new (catalog, NULL, settings);
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until *@flag is non-zero (or 20 s pass). */
static void
wait_for (guint *flag)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (!timed_out && *flag == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The defaults, and the properties as the scenario the estimate reads. */
static void
test_properties (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  const HrScenario *s = hr_session_get_scenario (session);
  g_autofree char *engine = NULL;

  g_assert_nonnull (s);
  g_assert_cmpstr (s->model->id, ==, HR_SESSION_DEFAULT_MODEL);
  g_assert_cmpstr (s->gpu->id, ==, HR_SESSION_DEFAULT_GPU);
  g_assert_cmpstr (s->quant, ==, HR_SESSION_DEFAULT_QUANT);
  g_assert_cmpint (s->context, ==, 8192);
  g_assert_cmpfloat (s->reserve, ==, 0.05);
  g_assert_false (s->backend_set);

  g_object_set (session, "model", "qwen3-32b", "gpu", "h200-141gb", "quant", "q8_0", "context", (gint64) 32768,
                "gpus", 2, "batch", 4, "kv-type", "bf16", "engine", "vllm", "backend", "rocm",
                "offload", 25.0, "reserve-pct", 10.0, "unified-share", 0.5, "engine-version", "2024", NULL);
  s = hr_session_get_scenario (session);
  g_assert_cmpstr (s->model->id, ==, "qwen3-32b");
  g_assert_cmpstr (s->gpu->id, ==, "h200-141gb");
  g_assert_cmpstr (s->quant, ==, "Q8_0");            /* the catalog's spelling */
  g_assert_cmpint (s->context, ==, 32768);
  g_assert_cmpint (s->n_gpus, ==, 2);
  g_assert_cmpint (s->batch, ==, 4);
  g_assert_cmpint (s->kv_type, ==, HR_KV_F16);       /* bf16 is stored as the schema's "f16" */
  g_assert_cmpint (s->engine, ==, HR_ENGINE_VLLM);
  g_assert_true (s->backend_set);
  g_assert_cmpint (s->backend, ==, HR_BACKEND_ROCM);
  g_assert_cmpfloat (s->offload_pct, ==, 25);
  g_assert_cmpfloat (s->reserve, ==, 0.10);
  g_assert_cmpfloat (s->unified_share, ==, 0.5);
  g_assert_cmpint (s->engine_version, ==, HR_ENGINE_VERSION_2024);
  g_assert_cmpint (s->n_cpu_moe, ==, 0);             /* a dense model keeps no experts on the CPU */

  /* what the schema would refuse never gets in */
  g_object_set (session, "engine", "no-such-engine", "kv-type", "q5_1", "backend", "cuda-ish", NULL);
  g_object_get (session, "engine", &engine, NULL);
  g_assert_cmpstr (engine, ==, "vllm");
  g_assert_cmpint (hr_session_get_scenario (session)->kv_type, ==, HR_KV_F16);
  g_assert_cmpint (hr_session_get_scenario (session)->backend, ==, HR_BACKEND_ROCM);

  /* the model's limits, as core counts them: Nemotron 3 Nano has experts in 23 of its 52 layers */
  g_object_set (session, "model", "nemotron-3-nano-30b-a3b", "n-cpu-moe", 52, "context", (gint64) (1 << 24), NULL);
  s = hr_session_get_scenario (session);
  g_assert_cmpint (s->n_cpu_moe, ==, 23);
  g_assert_cmpint (s->context, ==, s->model->max_context);
  g_object_set (session, "model", "qwen3-32b", NULL);
  g_assert_cmpint (hr_session_get_scenario (session)->context, ==, hr_session_get_scenario (session)->model->max_context);

  /* an unknown id falls back to the default; NULL (a picker between lists) changes nothing */
  hr_session_set_gpu (session, "no-such-gpu");
  g_assert_cmpstr (hr_session_get_gpu (session), ==, HR_SESSION_DEFAULT_GPU);
  hr_session_set_model (session, NULL);
  g_assert_cmpstr (hr_session_get_model (session), ==, "qwen3-32b");
  drain ();
}

/* "scenario-changed" once per real change, never for the same value again. */
static void
test_signals_once (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  Counts counts;
  guint notified = 0;

  connect_counts (session, &counts);
  g_signal_connect (session, "notify::context", G_CALLBACK (notify_count_cb), &notified);

  g_object_set (session, "context", (gint64) 8192, NULL);   /* already so */
  hr_session_set_model (session, HR_SESSION_DEFAULT_MODEL);
  g_assert_cmpuint (counts.scenario, ==, 0);
  g_assert_cmpuint (notified, ==, 0);

  g_object_set (session, "context", (gint64) 16384, NULL);
  g_assert_cmpuint (counts.scenario, ==, 1);
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (session, "context", (gint64) 16384, NULL);
  g_assert_cmpuint (counts.scenario, ==, 1);

  g_object_set (session, "model", "qwen3-8b", "gpus", 4, NULL);
  g_assert_cmpuint (counts.scenario, ==, 3);
  g_object_set (session, "engine", "llama-cpp", NULL);        /* the same engine, spelled otherwise */
  g_assert_cmpuint (counts.scenario, ==, 3);
  g_assert_cmpuint (counts.catalog, ==, 0);
  g_assert_cmpuint (counts.pricing, ==, 0);
}

/* Adding and removing the user's entries: one "catalog-changed" each, and the scenario leaves a
 * removed GPU for the default. */
static void
test_catalog_edits (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  g_autoptr(GError) error = NULL;
  HrGpu *gpu = hr_gpu_new_from_spec ("memory_gib=48,bandwidth_gbs=900,fp16_tflops=100,name=Lab card", &error);
  HrModel *model = hr_model_copy (hr_catalog_find_model (hr_session_get_catalog (session), "qwen3-8b"));
  Counts counts;

  g_assert_no_error (error);
  g_free (gpu->id);
  gpu->id = g_strdup ("user-lab-card");
  g_free (model->id);
  model->id = g_strdup ("user-my-qwen");
  connect_counts (session, &counts);

  hr_session_add_gpu (session, gpu, NULL);
  g_assert_cmpuint (counts.catalog, ==, 1);
  g_assert_cmpuint (counts.scenario, ==, 0);
  hr_session_set_gpu (session, "user-lab-card");
  g_assert_cmpstr (hr_session_get_scenario (session)->gpu->id, ==, "user-lab-card");
  g_assert_cmpuint (counts.scenario, ==, 1);

  hr_session_add_model (session, model);
  g_assert_cmpuint (counts.catalog, ==, 2);
  hr_session_set_model (session, "user-my-qwen");
  g_assert_cmpstr (hr_session_get_scenario (session)->model->id, ==, "user-my-qwen");

  /* the scenario's GPU goes: the default takes its place, and everyone is told */
  g_assert_true (hr_session_remove_gpu (session, "user-lab-card"));
  g_assert_cmpuint (counts.catalog, ==, 3);
  g_assert_cmpstr (hr_session_get_scenario (session)->gpu->id, ==, HR_SESSION_DEFAULT_GPU);
  g_assert_false (hr_session_remove_gpu (session, "user-lab-card"));
  g_assert_cmpuint (counts.catalog, ==, 3);
  g_assert_true (hr_session_remove_model (session, "user-my-qwen"));
  g_assert_cmpstr (hr_session_get_model (session), ==, HR_SESSION_DEFAULT_MODEL);
  g_assert_cmpuint (counts.catalog, ==, 4);
  drain ();
}

/* The scenario keys of GSettings and the properties move each other; a stale id comes back as
 * the default, in the key too. */
static void
test_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(HrSession) session = NULL;
  g_autofree char *gpu = NULL;
  Counts counts;

  g_settings_set_string (settings, "model", "gemma-3-27b");
  g_settings_set_int64 (settings, "context", 65536);
  g_settings_set_string (settings, "gpu", "no-such-gpu");
  g_settings_reset (settings, "engine");
  g_settings_set_string (settings, "default-engine", "sglang");
  session = session_new (settings);
  connect_counts (session, &counts);

  g_assert_cmpstr (hr_session_get_scenario (session)->model->id, ==, "gemma-3-27b");
  g_assert_cmpint (hr_session_get_scenario (session)->context, ==, 65536);
  g_assert_cmpstr (hr_session_get_gpu (session), ==, HR_SESSION_DEFAULT_GPU);
  /* a scenario without an engine of its own starts with the preferred one */
  g_assert_cmpint (hr_session_get_scenario (session)->engine, ==, HR_ENGINE_SGLANG);
  drain ();
  gpu = g_settings_get_string (settings, "gpu");
  g_assert_cmpstr (gpu, ==, HR_SESSION_DEFAULT_GPU);

  g_object_set (session, "batch", 8, NULL);
  g_assert_cmpint (g_settings_get_int (settings, "batch"), ==, 8);
  g_settings_set_string (settings, "quant", "IQ4_XS");
  g_assert_cmpstr (hr_session_get_quant (session), ==, "IQ4_XS");
  g_settings_set_double (settings, "reserve-pct", 12);
  g_assert_cmpfloat (hr_session_get_scenario (session)->reserve, ==, 0.12);
  g_assert_cmpuint (counts.scenario, ==, 3);

  g_clear_object (&session);
  for (guint i = 0; i < 7; i++)
    g_settings_reset (settings, (const char *[]) { "model", "context", "gpu", "batch", "quant",
                                                   "reserve-pct", "default-engine" }[i]);
  g_settings_reset (settings, "engine");
}

/* The use-calibration key turns the user's calibrations off: the scenario borrows none */
static void
test_use_calibration (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(HrSession) session = session_new (settings);
  g_autofree char *dir = g_dir_make_tmp ("headroom-session-cal-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "calibration.json", NULL);
  g_autoptr(GArray) cals = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  g_autoptr(GError) error = NULL;
  HrDeviceCalibration cal = { .gpu_id = "rtx-4090-24gb", .backend = HR_BACKEND_CUDA, .date = "2026-12-05",
                              .decode_runs = 3, .bytes_per_s = 900e9, .fixed_s = 0.002, .prefill_runs = 0,
                              .prefill_scale = NAN };
  Counts counts;

  hr_session_set_calibration_dir (session, dir);
  hr_session_set_gpu (session, "rtx-4090-24gb");
  g_object_set (session, "engine", "llama.cpp", "backend", "cuda", NULL);
  g_array_append_val (cals, cal);
  connect_counts (session, &counts);
  g_assert_true (hr_session_save_calibrations (session, cals, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counts.scenario, ==, 1);
  g_assert_nonnull (hr_session_get_scenario (session)->calibration);
  g_assert_cmpstr (hr_session_get_scenario (session)->calibration->gpu_id, ==, "rtx-4090-24gb");

  g_settings_set_boolean (settings, "use-calibration", FALSE);
  g_assert_false (hr_session_get_use_calibration (session));
  g_assert_null (hr_session_get_scenario (session)->calibration);
  g_assert_cmpuint (counts.scenario, ==, 2);
  hr_session_set_use_calibration (session, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "use-calibration"));
  g_assert_nonnull (hr_session_get_scenario (session)->calibration);
  /* another GPU: not its calibration */
  hr_session_set_gpu (session, "h100-80gb-sxm");
  g_assert_null (hr_session_get_scenario (session)->calibration);

  g_assert_cmpint (hr_session_remove_calibration (session, "rtx-4090-24gb", &error), ==, 1);
  g_clear_object (&session);
  g_settings_reset (settings, "use-calibration");
  g_settings_reset (settings, "gpu");
  g_settings_reset (settings, "engine");
  g_settings_reset (settings, "backend");
  g_remove (file);
  g_rmdir (dir);
}

/* The worker's answers arrive once, for the scenario still in place; a scenario changed while it
 * ran drops them. */
static void
test_advice (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  const HrAdviceState *advice;
  Counts counts;

  connect_counts (session, &counts);
  g_assert_null (hr_session_get_advice (session));
  hr_session_request_advice (session);
  g_assert_true (hr_session_get_advising (session));
  /* changed before the answers are back: those are dropped, the newer request runs next */
  g_object_set (session, "context", (gint64) 4096, NULL);
  hr_session_request_advice (session);
  wait_for (&counts.advice);
  while (hr_session_get_advising (session))
    g_main_context_iteration (NULL, TRUE);
  drain ();

  g_assert_cmpuint (counts.advice, ==, 1);
  advice = hr_session_get_advice (session);
  g_assert_nonnull (advice);
  g_assert_cmpuint (advice->matrix->len, >, 0);
  g_assert_cmpuint (advice->launch->len, >, 0);
  g_assert_false (hr_session_get_advising (session));
}

/* Each Size view (one a window) asks for the advice after a change: the worker runs once per
 * scenario, and a request for the answers already in place brings them back at once. */
static void
test_advice_once (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  Counts counts;

  connect_counts (session, &counts);
  hr_session_request_advice (session);
  hr_session_request_advice (session);
  while (hr_session_get_advising (session))
    g_main_context_iteration (NULL, TRUE);
  drain ();
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, 1);
  g_assert_cmpuint (counts.advice, ==, 1);

  hr_session_request_advice (session);
  g_assert_false (hr_session_get_advising (session));
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, 1);
  g_assert_cmpuint (counts.advice, ==, 2);

  /* a changed scenario is worked on again, once */
  g_object_set (session, "context", (gint64) 4096, NULL);
  hr_session_request_advice (session);
  hr_session_request_advice (session);
  while (hr_session_get_advising (session))
    g_main_context_iteration (NULL, TRUE);
  drain ();
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, 2);
  g_assert_cmpuint (counts.advice, ==, 3);
}

/* The schema's choices for "kv-type" and "backend" are core's lists, as the Size view's rows
 * show them: a KV type or backend added in core and not in the schema (or the other way round)
 * fails here. */
static void
assert_choices (GSettingsSchema    *schema,
                const char         *key,
                const char * const *want)
{
  g_autoptr(GSettingsSchemaKey) k = g_settings_schema_get_key (schema, key);
  g_autoptr(GVariant) range = g_settings_schema_key_get_range (k);
  const char *type;
  g_autoptr(GVariant) values = NULL;
  g_autofree const char **got = NULL;

  g_variant_get (range, "(&sv)", &type, &values);
  g_assert_cmpstr (type, ==, "enum");
  got = g_variant_get_strv (values, NULL);
  g_assert_cmpstrv (got, want);
}

static void
test_schema_choices (void)
{
  g_autoptr(GSettingsSchema) schema = g_settings_schema_source_lookup (g_settings_schema_source_get_default (),
                                                                       APP_ID, TRUE);
  const char *kv[HR_N_KV_TYPES + 1] = { NULL };
  const char *backends[HR_N_BACKENDS + 2] = { "auto", NULL };
  guint n = 0;
  const HrBackend *choices = hr_backend_choices (&n);

  g_assert_nonnull (schema);
  for (guint i = 0; i < HR_N_KV_TYPES; i++)
    kv[i] = hr_kv_type_to_string (i);
  for (guint i = 0; i < n; i++)
    backends[i + 1] = hr_backend_to_string (choices[i]);
  assert_choices (schema, "kv-type", kv);
  assert_choices (schema, "backend", backends);
  assert_choices (schema, "engine-version", hr_engine_version_ids ());
}

/* Mixed GPUs (#31) ------------------------------------------------------------------------- */

/* Two different GPUs: the scenario is the device list, the estimate a per-device plan, and the
 * Placement card's rows are its devices; the list is saved and comes back; vLLM says why not. */
/* #31: the projector switch was a boolean key "mmproj"; a saved false moves to "mmproj-mode"
 * 'none' on the next start (the old key reset), a saved true to 'auto', and a value already in
 * "mmproj-mode" wins.  The switch then writes the new key. */
static void
test_mmproj_migrate (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *mode = NULL;

  g_settings_reset (settings, "mmproj-mode");
  g_settings_set_boolean (settings, "mmproj", FALSE);
  {
    g_autoptr(HrSession) session = session_new (settings);
    gboolean on = TRUE;

    g_object_get (session, "mmproj", &on, NULL);
    g_assert_false (on);
    g_object_set (session, "model", "gemma-3-27b", "gpu", "rtx-4090-24gb", "engine", "llama.cpp", NULL);
    g_assert_cmpint (hr_session_get_scenario (session)->mmproj_mode, ==, HR_MMPROJ_NONE);
    mode = g_settings_get_string (settings, "mmproj-mode");
    g_assert_cmpstr (mode, ==, "none");
    g_assert_null (g_settings_get_user_value (settings, "mmproj"));
    /* the switch writes the new key */
    g_object_set (session, "mmproj", TRUE, NULL);
    g_clear_pointer (&mode, g_free);
    mode = g_settings_get_string (settings, "mmproj-mode");
    g_assert_cmpstr (mode, ==, "auto");
  }
  /* a value in the new key wins over a stale old one */
  g_settings_set_string (settings, "mmproj-mode", "none");
  g_settings_set_boolean (settings, "mmproj", TRUE);
  {
    g_autoptr(HrSession) session = session_new (settings);
    gboolean on = TRUE;

    g_object_get (session, "mmproj", &on, NULL);
    g_assert_false (on);
    g_assert_null (g_settings_get_user_value (settings, "mmproj"));
  }
  g_settings_reset (settings, "mmproj-mode");
}

/* #31: the "mmproj" key counts a model's projector under llama.cpp only, and off leaves it out;
 * a local GGUF's scenario names the mmproj file beside it for the launch. */
static void
test_mmproj (void)
{
  g_autoptr(HrSession) session = session_new (NULL);
  g_autofree char *dir = g_dir_make_tmp ("headroom-session-mm-XXXXXX", NULL);
  g_autofree char *gguf = g_build_filename (dir, "local-Q4_K_M.gguf", NULL);
  g_autofree char *proj = g_build_filename (dir, "mmproj-local-f16.gguf", NULL);
  HrModel *local = hr_model_copy (hr_catalog_find_model (hr_session_get_catalog (session), "gemma-3-27b"));
  const HrScenario *s;

  g_object_set (session, "engine", "llama.cpp", NULL);
  hr_session_set_model (session, "gemma-3-27b");
  s = hr_session_get_scenario (session);
  /* the scenario carries the mode (#31), which every view applies to the model it sizes */
  g_assert_cmpint (s->mmproj_mode, ==, HR_MMPROJ_AUTO);
  {
    HrVisionEncoder enc;

    g_assert_cmpfloat (hr_scenario_mmproj (s, &enc), ==, 858000000);
    g_assert_cmpint (enc.patches, ==, 4096);
  }
  g_assert_null (hr_scenario_mmproj_path (s));   /* -hf fetches the repo's own */
  g_object_set (session, "mmproj", FALSE, NULL);
  g_assert_cmpint (hr_session_get_scenario (session)->mmproj_mode, ==, HR_MMPROJ_NONE);
  g_assert_cmpfloat (hr_scenario_mmproj (hr_session_get_scenario (session), NULL), ==, 0);
  {
    g_autofree char *mode = NULL;

    /* the switch and the saved setting are one */
    g_object_get (session, "mmproj-mode", &mode, NULL);
    g_assert_cmpstr (mode, ==, "none");
  }
  g_object_set (session, "mmproj", TRUE, "engine", "vllm", NULL);
  g_assert_cmpfloat (hr_scenario_mmproj (hr_session_get_scenario (session), NULL), ==, 0);
  g_object_set (session, "engine", "llama.cpp", NULL);

  /* a local GGUF with its projector beside it */
  g_assert_true (g_file_set_contents (gguf, "GGUF", -1, NULL));
  g_assert_true (g_file_set_contents (proj, "GGUF", -1, NULL));
  g_free (local->id);
  local->id = g_strdup ("user-local-gemma");
  local->gguf_path = g_strdup (gguf);
  hr_session_add_model (session, local);
  hr_session_set_model (session, "user-local-gemma");
  s = hr_session_get_scenario (session);
  g_assert_cmpfloat (hr_scenario_mmproj (s, NULL), ==, 858000000);
  g_assert_cmpstr (hr_scenario_mmproj_path (s), ==, proj);
  g_assert_true (hr_session_remove_model (session, "user-local-gemma"));
  g_unlink (proj);
  g_unlink (gguf);
  g_rmdir (dir);
  drain ();
}

static void
test_mixed_devices (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(HrSession) session = session_new (settings);
  g_autoptr(HrSession) again = NULL;
  g_autofree HrEstimate *e = g_new0 (HrEstimate, 1);
  g_auto(HrPlacementState) st = { 0 };
  g_auto(GStrv) saved = NULL;
  g_autoptr(GError) error = NULL;
  const HrScenario *s;
  Counts counts;
  int count = 0;

  g_object_set (session, "model", "llama-3.3-70b", "gpu", "rtx-4090-24gb", "gpus", 1, "engine", "llama.cpp", NULL);
  connect_counts (session, &counts);
  hr_session_add_extra_gpu (session, "rtx-3090-24gb", 1);
  g_assert_cmpint (counts.scenario, ==, 1);
  g_assert_cmpuint (hr_session_get_n_extra_gpus (session), ==, 1);
  g_assert_cmpstr (hr_session_get_extra_gpu (session, 0, &count), ==, "rtx-3090-24gb");
  g_assert_cmpint (count, ==, 1);
  saved = g_settings_get_strv (settings, "extra-gpus");
  g_assert_cmpstrv (saved, ((const char *const[]) { "rtx-3090-24gb:1", NULL }));

  s = hr_session_get_scenario (session);
  g_assert_true (hr_scenario_is_mixed (s));
  g_assert_cmpint (s->n_gpus, ==, 2);
  g_assert_cmpint (s->n_kinds, ==, 2);
  g_assert_cmpstr (s->kinds[0].gpu->id, ==, "rtx-4090-24gb");
  g_assert_cmpstr (s->kinds[1].gpu->id, ==, "rtx-3090-24gb");
  g_assert_true (hr_estimate_compute (s, hr_catalog_get_pricing (hr_session_get_catalog (session)), e, &error));
  g_assert_no_error (error);
  g_assert_cmpint (e->placement.split, ==, HR_SPLIT_LAYER);
  g_assert_cmpint (e->placement.n_devices, ==, 2);

  hr_placement_state_init (&st);
  hr_placement_state_from_estimate (&st, s, e);
  g_assert_true (st.visible);
  g_assert_cmpuint (st.rows->len, ==, 2);
  g_assert_nonnull (strstr (((HrPlacementRowState *) st.rows->pdata[0])->title, "RTX 4090"));
  g_assert_nonnull (strstr (((HrPlacementRowState *) st.rows->pdata[1])->title, "RTX 3090"));
  g_assert_nonnull (strstr (((HrPlacementRowState *) st.rows->pdata[1])->subtitle, "+ output"));
  g_assert_nonnull (strstr (st.flags, "--tensor-split "));
  g_assert_nonnull (strstr (st.flags, "-ngl "));
  g_assert_nonnull (strstr (st.description, "slowest"));
  g_assert_null (strstr (((HrPlacementRowState *) st.rows->pdata[0])->subtitle, "draft model"));
  {
    /* #31: a speculative draft is spread over the devices; each row says its share */
    g_auto(HrPlacementState) dst = { 0 };
    HrScenario ds = *s;
    g_autofree HrEstimate *dep = g_new0 (HrEstimate, 1);

    ds.draft_kind = HR_DRAFT_MODEL;
    ds.draft_model = hr_catalog_find_model (hr_session_get_catalog (session), "llama-3.2-3b");
    g_assert_nonnull (ds.draft_model);
    g_assert_true (hr_estimate_compute (&ds, NULL, dep, NULL));
    hr_placement_state_init (&dst);
    hr_placement_state_from_estimate (&dst, &ds, dep);
    g_assert_cmpuint (dst.rows->len, ==, 2);
    for (guint i = 0; i < dst.rows->len; i++)
      {
        const char *sub = ((HrPlacementRowState *) dst.rows->pdata[i])->subtitle;
        g_autofree char *want = hr_size_format_gib (dep->placement.devices[i].draft_bytes);

        g_test_message ("%s", sub);
        g_assert_cmpfloat (dep->placement.devices[i].draft_bytes, >, 0);
        g_assert_nonnull (strstr (sub, "of it the draft model"));
        g_assert_nonnull (strstr (sub, want));
      }
  }

  /* a second session on the same settings: the same setup comes back */
  again = session_new (settings);
  g_assert_true (hr_scenario_is_mixed (hr_session_get_scenario (again)));
  g_assert_cmpstr (hr_session_get_scenario (again)->kinds[1].gpu->id, ==, "rtx-3090-24gb");

  /* the count changes in place, the GPU too; an unknown id is skipped */
  hr_session_set_extra_gpu (session, 0, NULL, 2);
  g_assert_cmpint (hr_session_get_scenario (session)->n_gpus, ==, 3);
  hr_session_set_extra_gpu (session, 0, "no-such-gpu", 0);
  g_assert_false (hr_scenario_is_mixed (hr_session_get_scenario (session)));
  g_assert_cmpint (hr_session_get_scenario (session)->n_gpus, ==, 1);
  /* the same GPU as the first merges with it: alike GPUs, no mixed setup */
  hr_session_set_extra_gpu (session, 0, "rtx-4090-24gb", 1);
  g_assert_false (hr_scenario_is_mixed (hr_session_get_scenario (session)));
  g_assert_cmpint (hr_session_get_scenario (session)->n_gpus, ==, 2);

  /* vLLM runs them as pipeline stages: the card shows the stages and vLLM's flags */
  hr_session_set_extra_gpu (session, 0, "rtx-3090-24gb", 1);
  g_object_set (session, "engine", "vllm", NULL);
  s = hr_session_get_scenario (session);
  g_assert_true (hr_estimate_compute (s, hr_catalog_get_pricing (hr_session_get_catalog (session)), e, &error));
  g_assert_no_error (error);
  g_assert_cmpint (e->placement.split, ==, HR_SPLIT_PIPELINE);
  hr_placement_state_from_estimate (&st, s, e);
  g_assert_true (st.visible);
  g_assert_cmpuint (st.rows->len, ==, 2);
  g_assert_nonnull (strstr (st.flags, "--pipeline-parallel-size 2"));
  g_assert_nonnull (strstr (st.description, "Pipeline stages"));

  /* beside a machine whose memory is the system's, vLLM cannot: the core's reason, no
   * estimate */
  hr_session_set_extra_gpu (session, 0, "dgx-spark-128gb", 1);
  s = hr_session_get_scenario (session);
  g_assert_false (hr_estimate_compute (s, hr_catalog_get_pricing (hr_session_get_catalog (session)), e, &error));
  g_assert_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED);
  {
    g_auto(HrSizeState) size = { 0 };

    hr_size_state_init (&size);
    hr_size_state_from_error (&size, s, error);
    g_assert_false (size.ok);
    g_assert_nonnull (strstr (size.verdict_detail, error->message));
  }
  {
    /* the advice does not contradict it ("None: not even the shortest context fits") */
    g_autoptr(HrAdviceState) advice = hr_advice_state_compute (s, hr_session_get_catalog (session), NULL);

    for (int i = 0; i < HR_N_REVERSE; i++)
      {
        g_assert_false (advice->reverse[i].applicable);
        g_assert_false (g_str_has_prefix (advice->reverse[i].value, "None"));
      }
  }

  hr_session_remove_extra_gpu (session, 0);
  g_assert_cmpuint (hr_session_get_n_extra_gpus (session), ==, 0);
  g_assert_false (hr_scenario_is_mixed (hr_session_get_scenario (session)));
  g_settings_reset (settings, "extra-gpus");
  g_settings_reset (settings, "model");
  g_settings_reset (settings, "gpu");
  g_settings_reset (settings, "engine");
}

/* Server (on this thread's main context: the manager fetches asynchronously) ------------------ */

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  g_autofree char *file = g_test_build_filename (G_TEST_DIST, "fixtures", "skypilot", "runpod", "vms.csv", NULL);
  char *text = NULL;
  gsize length = 0;

  if (!g_str_equal (path, "/v7/runpod/vms.csv"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  g_assert_true (g_file_get_contents (file, &text, &length, NULL));
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/csv", SOUP_MEMORY_TAKE, text, length);
}

/* A price refresh without a display: the manager puts the new prices in, the session says so
 * once, and the scenario is priced with them. */
static void
test_pricing_refresh (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(HrSession) session = session_new (settings);
  g_autoptr(HrPricingManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("headroom-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pricing.json", NULL);
  g_autofree char *base = NULL;
  const HrPricing *pricing;
  guint refreshed = 0;
  guint runs;
  Counts counts;
  GSList *uris;

  soup_server_add_handler (server, NULL, server_cb, NULL, NULL);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  base = g_strdup_printf ("http://127.0.0.1:%d/v7", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_setenv ("HEADROOM_CATALOG_BASE", base, TRUE);
  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  g_settings_reset (settings, "pricing-url");
  g_settings_set_strv (settings, "catalog-clouds", (const char *[]) { "runpod", NULL });

  manager = hr_pricing_manager_new (hr_session_get_catalog (session), settings, path);
  g_assert_true (hr_pricing_manager_load (manager, &error));
  g_assert_no_error (error);
  hr_session_set_pricing_manager (session, manager);
  g_assert_true (hr_session_get_pricing_manager (session) == manager);
  connect_counts (session, &counts);
  g_signal_connect (manager, "refreshed", G_CALLBACK (notify_count_cb), &refreshed);

  hr_pricing_manager_refresh (manager);
  wait_for (&refreshed);
  g_assert_cmpuint (counts.pricing, ==, 1);
  g_assert_cmpuint (counts.scenario, ==, 0);
  pricing = hr_catalog_get_pricing (hr_session_get_catalog (session));
  g_assert_cmpstr (pricing->source, ==, "catalog-network");
  for (guint i = 0; i < pricing->offers->len; i++)
    g_assert_cmpstr (((HrOffer *) g_ptr_array_index (pricing->offers, i))->provider, ==, "RunPod");

  /* the advice on these prices; a refresh that brings the same prices (or none: a failure)
   * changes nothing, so the scenario is not advised on again */
  hr_session_request_advice (session);
  while (hr_session_get_advising (session))
    g_main_context_iteration (NULL, TRUE);
  runs = hr_session_get_n_advice_runs (session);
  refreshed = 0;
  hr_pricing_manager_refresh (manager);
  wait_for (&refreshed);
  g_assert_cmpuint (counts.pricing, ==, 1);
  hr_session_request_advice (session);
  g_assert_false (hr_session_get_advising (session));
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, runs);

  /* a setting the prices depend on: the manager rebuilds them, the session says so once more */
  g_settings_set_boolean (settings, "price-spot", TRUE);
  g_assert_cmpuint (counts.pricing, ==, 2);
  hr_session_request_advice (session);
  g_assert_cmpuint (hr_session_get_n_advice_runs (session), ==, runs + 1);
  while (hr_session_get_advising (session))
    g_main_context_iteration (NULL, TRUE);

  g_settings_reset (settings, "price-spot");
  g_settings_reset (settings, "catalog-clouds");
  hr_session_set_pricing_manager (session, NULL);
  drain ();
}

/* The Placement card when llama.cpp leaves an integrated GPU out (#31): it says so, with
 * no device rows beside one discrete GPU. */
static void
test_placement_left_out (void)
{
  g_autoptr(GError) error = NULL;
  HrCatalog *catalog = hr_catalog_new_default (&error);
  const HrGpu *card = hr_catalog_find_gpu (catalog, "rtx-4060-ti-16gb");
  const HrGpu *apu = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  HrDeviceKind kinds[] = { { card, 1 }, { apu, 1 } };
  g_autofree HrEstimate *e = g_new0 (HrEstimate, 1);
  g_auto(HrPlacementState) st = { 0 };
  HrScenario s;

  g_assert_no_error (error);
  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-14b"), card);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, NULL));
  g_assert_true (hr_estimate_compute (&s, NULL, e, &error));
  g_assert_no_error (error);
  hr_placement_state_init (&st);
  hr_placement_state_from_estimate (&st, &s, e);
  g_assert_true (st.visible);
  g_assert_cmpuint (st.rows->len, ==, 0);
  g_assert_nonnull (strstr (st.description, "is left out: llama.cpp uses an integrated GPU only when there is no other"));
  g_assert_null (st.flags);
  {
    g_auto(HrSizeState) size = { 0 };

    /* the usable-memory card counts the discrete card alone */
    hr_size_state_init (&size);
    hr_size_state_from_estimate (&size, &s, e);
    g_assert_cmpstr (size.cards[HR_SIZE_CARD_USABLE].detail, ==, "16 GiB physical");
  }
  hr_catalog_free (catalog);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/properties", test_properties);
  g_test_add_func ("/session/signals-once", test_signals_once);
  g_test_add_func ("/session/catalog-edits", test_catalog_edits);
  g_test_add_func ("/session/settings", test_settings);
  g_test_add_func ("/session/use-calibration", test_use_calibration);
  g_test_add_func ("/session/advice", test_advice);
  g_test_add_func ("/session/advice-once", test_advice_once);
  g_test_add_func ("/session/schema-choices", test_schema_choices);
  g_test_add_func ("/session/mixed-devices", test_mixed_devices);
  g_test_add_func ("/session/placement-left-out", test_placement_left_out);
  g_test_add_func ("/session/mmproj", test_mmproj);
  g_test_add_func ("/session/mmproj-migrate", test_mmproj_migrate);
  g_test_add_func ("/session/pricing-refresh", test_pricing_refresh);
  return g_test_run ();
}
