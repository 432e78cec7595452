/* hr-session.c — the catalog, prices, user data, scenario and advice worker of the application
 *
 * The scenario's properties are the single source of truth: the Size view's controls, the other
 * views' pickers and GSettings all bind to them.  A property emits "scenario-changed" only when
 * its value really changes.  Values the catalog or the schema would refuse (an unknown engine, a
 * NULL model from a picker being refilled) are ignored, so GSettings never sees them.
 *
 * The advice worker reads the catalog from a thread: every change to the catalog goes through
 * the session, which waits for a running worker first.
 */
#include "hr-session.h"
#include "hr-draft.h"
#include "hr-projector.h"

#include <math.h>

#include "hr-user-calibration.h"


/* One computation of the advice, shared by the session and the worker thread. */
typedef struct
{
  gatomicrefcount ref;
  HrScenario scenario;
  const HrCatalog *catalog;
  HrPricing *pricing;
  guint generation;
  GMutex lock;
  GCond cond;
  gboolean done;
} AdviceJob;

struct _HrSession
{
  GObject parent_instance;

  HrCatalog *catalog;
  HrUserData *userdata;
  GSettings *settings;
  HrPricingManager *pricing;

  /* the scenario */
  char *model;
  char *gpu;
  char *quant;
  gint64 context;
  int gpus;
  char **extra_gpus;           /* the other GPUs of a mixed setup, "ID:COUNT" each (#31) */
  int batch;
  char *kv_type;
  char *engine;
  char *backend;
  double offload;
  int n_cpu_moe;
  double reserve_pct;
  double unified_share;
  char *engine_version;
  char *draft;                 /* speculative decoding (#31): "none", "mtp" or a model id */
  double draft_accept;         /* percent; 0: the published default (hr-draft.h) */
  HrMmprojMode mmproj_mode;   /* AUTO: count each model's vision projector where the engine
                               * loads one (llama.cpp -hf); NONE: not (#31) */

  /* the user's calibrations (HrDeviceCalibration), loaded when first asked for; the scenario
   * borrows one while use_calibration */
  GArray *calibrations;
  char *calibration_dir;       /* NULL: g_get_user_data_dir()/headroom */
  gboolean use_calibration;

  HrScenario scenario;
  gboolean scenario_valid;     /* the cached scenario matches the properties */
  gboolean have_scenario;

  /* the advice */
  GCancellable *cancellable;
  AdviceJob *job;              /* running, or NULL */
  gboolean advice_pending;
  guint generation;            /* bumped by every change the advice depends on */
  HrAdviceState *advice;
  guint advice_generation;     /* the generation @advice answers */
  guint n_advice_runs;         /* worker runs started: one per generation asked for */
  guint resync_id;
};

G_DEFINE_FINAL_TYPE (HrSession, hr_session, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_GPU,
  PROP_QUANT,
  PROP_CONTEXT,
  PROP_GPUS,
  PROP_EXTRA_GPUS,
  PROP_BATCH,
  PROP_KV_TYPE,
  PROP_ENGINE,
  PROP_BACKEND,
  PROP_OFFLOAD,
  PROP_N_CPU_MOE,
  PROP_RESERVE_PCT,
  PROP_UNIFIED_SHARE,
  PROP_ENGINE_VERSION,
  PROP_USE_CALIBRATION,
  PROP_DRAFT,
  PROP_DRAFT_ACCEPT,
  PROP_MMPROJ,
  PROP_MMPROJ_MODE,
  PROP_ADVISING,
  N_PROPS
};

enum
{
  SCENARIO_CHANGED,
  CATALOG_CHANGED,
  PRICING_CHANGED,
  ADVICE_CHANGED,
  CALIBRATION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The GSettings keys of the same names (the scenario part of the schema). */
static const char * const bound_keys[] = {
  "model", "gpu", "quant", "context", "gpus", "extra-gpus", "batch", "kv-type", "engine", "backend", "offload",
  "n-cpu-moe", "reserve-pct", "unified-share", "engine-version", "use-calibration", "draft", "draft-accept",
  "mmproj-mode",
};

/* Advice jobs ------------------------------------------------------------------------------- */

static AdviceJob *
advice_job_ref (AdviceJob *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
advice_job_unref (AdviceJob *job)
{
  if (!g_atomic_ref_count_dec (&job->ref))
    return;
  g_clear_pointer (&job->pricing, hr_pricing_free);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

static void
advice_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  AdviceJob *job = task_data;
  HrAdviceState *state = hr_advice_state_compute (&job->scenario, job->catalog, job->pricing);

  g_mutex_lock (&job->lock);
  job->done = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);

  g_task_return_pointer (task, state, (GDestroyNotify) hr_advice_state_free);
}

/* Before the catalog changes or goes: no worker may be reading it. */
static void
wait_for_worker (HrSession *self)
{
  AdviceJob *job = self->job;

  if (job == NULL)
    return;
  g_mutex_lock (&job->lock);
  while (!job->done)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
}

static void start_advice (HrSession *self);

static void
advice_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  HrSession *self = HR_SESSION (object);
  GTask *task = G_TASK (result);
  AdviceJob *job = g_task_get_task_data (task);
  g_autoptr(HrAdviceState) state = g_task_propagate_pointer (task, NULL);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (self->job == job)
    g_clear_pointer (&self->job, advice_job_unref);

  if (job->generation == self->generation && state != NULL)
    {
      g_clear_pointer (&self->advice, hr_advice_state_free);
      self->advice = g_steal_pointer (&state);
      self->advice_generation = job->generation;
      g_debug ("advice: %.1f ms in a worker thread", self->advice->elapsed_ms);
      g_signal_emit (self, signals[ADVICE_CHANGED], 0);
    }

  if (self->advice_pending)
    {
      self->advice_pending = FALSE;
      start_advice (self);
    }
  if (self->job == NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADVISING]);
}

static void
start_advice (HrSession *self)
{
  g_autoptr(GTask) task = NULL;
  const HrScenario *scenario = hr_session_get_scenario (self);
  const HrPricing *pricing = hr_catalog_get_pricing (self->catalog);
  AdviceJob *job;

  if (scenario == NULL)
    return;

  job = g_new0 (AdviceJob, 1);
  g_atomic_ref_count_init (&job->ref);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->scenario = *scenario;
  job->catalog = self->catalog;
  /* a private copy: the pricing manager may swap the catalog's pricing while this runs */
  job->pricing = pricing ? hr_pricing_copy (pricing) : NULL;
  job->generation = self->generation;
  self->job = advice_job_ref (job);
  self->n_advice_runs++;

  task = g_task_new (self, self->cancellable, advice_done_cb, NULL);
  g_task_set_source_tag (task, start_advice);
  g_task_set_task_data (task, job, (GDestroyNotify) advice_job_unref);
  g_task_run_in_thread (task, advice_thread);
}

/* The scenario -------------------------------------------------------------------------------- */

static void
scenario_changed (HrSession *self)
{
  self->scenario_valid = FALSE;
  self->generation++;
  g_signal_emit (self, signals[SCENARIO_CHANGED], 0);
}

static gboolean
set_string (HrSession   *self,
            char       **field,
            const char  *value,
            guint        prop)
{
  if (value == NULL || g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  scenario_changed (self);
  return TRUE;
}

#define SET_NUMBER(field, value, prop) G_STMT_START {                          \
    if ((field) != (value))                                                     \
      {                                                                         \
        (field) = (value);                                                      \
        g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);          \
        scenario_changed (self);                                                \
      }                                                                         \
  } G_STMT_END

/* g_strv_builder_take () is GLib 2.80 */
static void
builder_add_entry (GStrvBuilder *builder,
                   const char   *id,
                   int           count)
{
  g_autofree char *entry = g_strdup_printf ("%s:%d", id, count);

  g_strv_builder_add (builder, entry);
}

/* "ID:COUNT" → the GPU's id and its count (1..HR_MAX_MIXED_GPUS); FALSE when malformed. */
static gboolean
parse_extra_gpu (const char  *entry,
                 char       **id,
                 int         *count)
{
  const char *colon = strrchr (entry, ':');
  gint64 n = 1;

  if (colon == entry)
    return FALSE;
  if (colon != NULL && (!g_ascii_string_to_signed (colon + 1, 10, 1, HR_MAX_MIXED_GPUS, &n, NULL)))
    return FALSE;
  *id = colon != NULL ? g_strndup (entry, colon - entry) : g_strdup (entry);
  *count = (int) n;
  return TRUE;
}

static void
set_extra_gpus (HrSession          *self,
                const char * const *entries)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) clean = NULL;

  /* the well-formed entries, as many as a setup can hold */
  for (guint i = 0; entries != NULL && entries[i] != NULL && i < HR_MAX_DEVICE_KINDS - 1; i++)
    {
      g_autofree char *id = NULL;
      int count;

      if (parse_extra_gpu (entries[i], &id, &count))
        builder_add_entry (builder, id, count);
    }
  clean = g_strv_builder_end (builder);
  if (g_strv_equal ((const char * const *) clean, (const char * const *) self->extra_gpus))
    return;
  g_strfreev (self->extra_gpus);
  self->extra_gpus = g_steal_pointer (&clean);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXTRA_GPUS]);
  scenario_changed (self);
}

/* The canonical spelling of a choice, the one the schema lists; NULL when it is none. */
static const char *
canonical_kv (const char *str)
{
  HrKvType kv;

  return hr_kv_type_from_string (str, &kv) ? hr_kv_type_to_string (kv) : NULL;
}

static const char *
canonical_engine (const char *str)
{
  HrEngine engine;

  return hr_engine_from_string (str, &engine) ? hr_engine_to_string (engine) : NULL;
}

static const char *
canonical_backend (const char *str)
{
  HrBackend backend;

  if (g_strcmp0 (str, "auto") == 0)
    return "auto";
  return hr_backend_from_string (str, &backend) ? hr_backend_to_string (backend) : NULL;
}

static const char *
canonical_engine_version (const char *str)
{
  HrEngineVersion version;

  return hr_engine_version_from_string (str, &version) ? hr_engine_version_to_string (version) : NULL;
}

/* What an id the catalog does not know falls back to: the default, else the first. */
static const char *
fallback_model (HrSession *self)
{
  if (hr_catalog_find_model (self->catalog, HR_SESSION_DEFAULT_MODEL) != NULL)
    return HR_SESSION_DEFAULT_MODEL;
  return hr_catalog_n_models (self->catalog) > 0 ? hr_catalog_get_model (self->catalog, 0)->id : NULL;
}

static const char *
fallback_gpu (HrSession *self)
{
  if (hr_catalog_find_gpu (self->catalog, HR_SESSION_DEFAULT_GPU) != NULL)
    return HR_SESSION_DEFAULT_GPU;
  return hr_catalog_n_gpus (self->catalog) > 0 ? hr_catalog_get_gpu (self->catalog, 0)->id : NULL;
}

static gboolean
resync_cb (gpointer user_data)
{
  HrSession *self = user_data;

  self->resync_id = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUANT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CPU_MOE]);
  return G_SOURCE_REMOVE;
}

/* A value refused or clamped while GSettings was setting it: the binding takes the value in
 * use once it is done. */
static void
schedule_resync (HrSession *self)
{
  if (self->resync_id == 0)
    self->resync_id = g_idle_add (resync_cb, self);
}

/* The model's limits, core's rules: no context past the model's own, no more layers with
 * experts on the CPU than it has (hr_model_moe_layers()). */
static gint64
limit_context (HrSession *self,
               gint64     context)
{
  const HrModel *m = self->model ? hr_catalog_find_model (self->catalog, self->model) : NULL;

  if (m != NULL && m->max_context > 0 && context > m->max_context)
    {
      schedule_resync (self);
      return MAX (MIN (m->max_context, HR_MAX_CONTEXT), HR_MIN_CONTEXT);
    }
  return context;
}

static int
limit_cpu_moe (HrSession *self,
               int        n_cpu_moe)
{
  const HrModel *m = self->model ? hr_catalog_find_model (self->catalog, self->model) : NULL;

  if (m != NULL && hr_model_is_moe (m) && n_cpu_moe > hr_model_moe_layers (m))
    {
      schedule_resync (self);
      return hr_model_moe_layers (m);
    }
  return n_cpu_moe;
}

/* The ids the catalog no longer (or never) had go back to the defaults. */
static void
ensure_known_ids (HrSession *self)
{
  if (self->model == NULL || hr_catalog_find_model (self->catalog, self->model) == NULL)
    hr_session_set_model (self, fallback_model (self));
  if (self->gpu == NULL || hr_catalog_find_gpu (self->catalog, self->gpu) == NULL)
    hr_session_set_gpu (self, fallback_gpu (self));
  if (self->quant == NULL || hr_catalog_find_quant (self->catalog, self->quant) == NULL)
    hr_session_set_quant (self, HR_SESSION_DEFAULT_QUANT);
}

/* The "mmproj" key (a boolean until the projector became a mode, #31) is read once into
 * "mmproj-mode" and reset: a switch turned off stays off. */
static void
migrate_mmproj (GSettings *settings)
{
  g_autoptr(GVariant) old = g_settings_get_user_value (settings, "mmproj");
  g_autoptr(GVariant) mode = g_settings_get_user_value (settings, "mmproj-mode");

  if (old == NULL)
    return;
  if (mode == NULL)
    g_settings_set_string (settings, "mmproj-mode",
                           hr_mmproj_mode_to_string (g_variant_get_boolean (old) ? HR_MMPROJ_AUTO
                                                                                 : HR_MMPROJ_NONE));
  g_settings_reset (settings, "mmproj");
}

static void
set_mmproj_mode (HrSession    *self,
                 HrMmprojMode  mode)
{
  if (self->mmproj_mode == mode)
    return;
  self->mmproj_mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MMPROJ]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MMPROJ_MODE]);
  scenario_changed (self);
}

static void
bind_settings (HrSession *self)
{
  g_autoptr(GVariant) user_engine = g_settings_get_user_value (self->settings, "engine");

  migrate_mmproj (self->settings);
  /* a scenario the user never set an engine for starts with the engine chosen in Preferences */
  if (user_engine == NULL)
    {
      g_autofree char *preferred = g_settings_get_string (self->settings, "default-engine");
      g_settings_set_string (self->settings, "engine", preferred);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bound_keys); i++)
    g_settings_bind (self->settings, bound_keys[i], self, bound_keys[i], G_SETTINGS_BIND_DEFAULT);
}

/* Calibration --------------------------------------------------------------------------------- */

/* The saved calibrations changed: the scenario borrows one, so the worker reading the old
 * array finishes first. */
static void
replace_calibrations (HrSession *self,
                      GArray    *cals)
{
  wait_for_worker (self);
  g_clear_pointer (&self->calibrations, g_array_unref);
  self->calibrations = cals;
  g_signal_emit (self, signals[CALIBRATION_CHANGED], 0);
  scenario_changed (self);
}

/* Pricing ------------------------------------------------------------------------------------- */

static void
pricing_changed_cb (HrSession *self)
{
  /* the worker prices with its own copy: nothing to wait for; the new generation drops the
   * advice of a worker still running on the old prices */
  self->generation++;
  g_signal_emit (self, signals[PRICING_CHANGED], 0);
}

/* GObject ------------------------------------------------------------------------------------- */

static void
hr_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  HrSession *self = HR_SESSION (object);

  switch (prop_id)
    {
    case PROP_MODEL: g_value_set_string (value, self->model); break;
    case PROP_GPU: g_value_set_string (value, self->gpu); break;
    case PROP_QUANT: g_value_set_string (value, self->quant); break;
    case PROP_CONTEXT: g_value_set_int64 (value, self->context); break;
    case PROP_GPUS: g_value_set_int (value, self->gpus); break;
    case PROP_EXTRA_GPUS: g_value_set_boxed (value, self->extra_gpus); break;
    case PROP_BATCH: g_value_set_int (value, self->batch); break;
    case PROP_KV_TYPE: g_value_set_string (value, self->kv_type); break;
    case PROP_ENGINE: g_value_set_string (value, self->engine); break;
    case PROP_BACKEND: g_value_set_string (value, self->backend); break;
    case PROP_OFFLOAD: g_value_set_double (value, self->offload); break;
    case PROP_N_CPU_MOE: g_value_set_int (value, self->n_cpu_moe); break;
    case PROP_RESERVE_PCT: g_value_set_double (value, self->reserve_pct); break;
    case PROP_UNIFIED_SHARE: g_value_set_double (value, self->unified_share); break;
    case PROP_ENGINE_VERSION: g_value_set_string (value, self->engine_version); break;
    case PROP_USE_CALIBRATION: g_value_set_boolean (value, self->use_calibration); break;
    case PROP_DRAFT: g_value_set_string (value, self->draft); break;
    case PROP_DRAFT_ACCEPT: g_value_set_double (value, self->draft_accept); break;
    case PROP_MMPROJ: g_value_set_boolean (value, self->mmproj_mode == HR_MMPROJ_AUTO); break;
    case PROP_MMPROJ_MODE: g_value_set_string (value, hr_mmproj_mode_to_string (self->mmproj_mode)); break;
    case PROP_ADVISING: g_value_set_boolean (value, hr_session_get_advising (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  HrSession *self = HR_SESSION (object);

  switch (prop_id)
    {
    case PROP_MODEL: hr_session_set_model (self, g_value_get_string (value)); break;
    case PROP_GPU: hr_session_set_gpu (self, g_value_get_string (value)); break;
    case PROP_QUANT: hr_session_set_quant (self, g_value_get_string (value)); break;
    case PROP_CONTEXT:
      {
        gint64 context = limit_context (self, g_value_get_int64 (value));
        SET_NUMBER (self->context, context, prop_id);
      }
      break;
    case PROP_GPUS: SET_NUMBER (self->gpus, g_value_get_int (value), prop_id); break;
    case PROP_EXTRA_GPUS: set_extra_gpus (self, g_value_get_boxed (value)); break;
    case PROP_BATCH: SET_NUMBER (self->batch, g_value_get_int (value), prop_id); break;
    case PROP_KV_TYPE:
      set_string (self, &self->kv_type, canonical_kv (g_value_get_string (value)), prop_id);
      break;
    case PROP_ENGINE:
      set_string (self, &self->engine, canonical_engine (g_value_get_string (value)), prop_id);
      break;
    case PROP_BACKEND:
      set_string (self, &self->backend, canonical_backend (g_value_get_string (value)), prop_id);
      break;
    case PROP_OFFLOAD: SET_NUMBER (self->offload, g_value_get_double (value), prop_id); break;
    case PROP_N_CPU_MOE:
      {
        int n_cpu_moe = limit_cpu_moe (self, g_value_get_int (value));
        SET_NUMBER (self->n_cpu_moe, n_cpu_moe, prop_id);
      }
      break;
    case PROP_USE_CALIBRATION: hr_session_set_use_calibration (self, g_value_get_boolean (value)); break;
    case PROP_MMPROJ:
      set_mmproj_mode (self, g_value_get_boolean (value) ? HR_MMPROJ_AUTO : HR_MMPROJ_NONE);
      break;
    case PROP_MMPROJ_MODE:
      {
        HrMmprojMode mode;

        /* a value the schema does not know (a newer or hand-edited one) reads as auto */
        if (!hr_mmproj_mode_from_string (g_value_get_string (value), &mode) || mode == HR_MMPROJ_FILE)
          mode = HR_MMPROJ_AUTO;
        set_mmproj_mode (self, mode);
      }
      break;
    case PROP_RESERVE_PCT: SET_NUMBER (self->reserve_pct, g_value_get_double (value), prop_id); break;
    case PROP_DRAFT:
      set_string (self, &self->draft, g_value_get_string (value) ? g_value_get_string (value) : "none", prop_id);
      break;
    case PROP_DRAFT_ACCEPT: SET_NUMBER (self->draft_accept, g_value_get_double (value), prop_id); break;
    case PROP_UNIFIED_SHARE: SET_NUMBER (self->unified_share, g_value_get_double (value), prop_id); break;
    case PROP_ENGINE_VERSION:
      set_string (self, &self->engine_version, canonical_engine_version (g_value_get_string (value)), prop_id);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_session_dispose (GObject *object)
{
  HrSession *self = HR_SESSION (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->resync_id, g_source_remove);
  /* the catalog goes with the session: the worker reading it finishes first */
  wait_for_worker (self);
  g_clear_pointer (&self->job, advice_job_unref);
  if (self->settings != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (bound_keys); i++)
      g_settings_unbind (self, bound_keys[i]);
  g_clear_object (&self->settings);
  if (self->pricing != NULL)
    g_signal_handlers_disconnect_by_data (self->pricing, self);
  /* the pricing manager borrows the catalog: it goes first */
  g_clear_object (&self->pricing);

  G_OBJECT_CLASS (hr_session_parent_class)->dispose (object);
}

static void
hr_session_finalize (GObject *object)
{
  HrSession *self = HR_SESSION (object);

  g_strfreev (self->extra_gpus);
  g_clear_pointer (&self->advice, hr_advice_state_free);
  g_clear_pointer (&self->catalog, hr_catalog_free);
  g_clear_pointer (&self->userdata, hr_userdata_free);
  g_clear_pointer (&self->calibrations, g_array_unref);
  g_free (self->calibration_dir);
  g_clear_object (&self->cancellable);
  g_free (self->model);
  g_free (self->gpu);
  g_free (self->quant);
  g_free (self->kv_type);
  g_free (self->engine);
  g_free (self->backend);
  g_free (self->engine_version);
  g_free (self->draft);

  G_OBJECT_CLASS (hr_session_parent_class)->finalize (object);
}

static GParamSpec *
string_property (const char *name,
                 const char *default_value)
{
  return g_param_spec_string (name, NULL, NULL, default_value,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
hr_session_class_init (HrSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hr_session_get_property;
  object_class->set_property = hr_session_set_property;
  object_class->dispose = hr_session_dispose;
  object_class->finalize = hr_session_finalize;

  /* the ranges of the GSettings keys (and of hr_scenario_validate()) */
  properties[PROP_MODEL] = string_property ("model", NULL);
  properties[PROP_GPU] = string_property ("gpu", NULL);
  properties[PROP_QUANT] = string_property ("quant", NULL);
  properties[PROP_CONTEXT] = g_param_spec_int64 ("context", NULL, NULL, HR_MIN_CONTEXT, HR_MAX_CONTEXT, 8192, rw);
  properties[PROP_GPUS] = g_param_spec_int ("gpus", NULL, NULL, 1, HR_MAX_GPUS, 1, rw);
  properties[PROP_EXTRA_GPUS] = g_param_spec_boxed ("extra-gpus", NULL, NULL, G_TYPE_STRV, rw);
  properties[PROP_BATCH] = g_param_spec_int ("batch", NULL, NULL, 1, HR_MAX_BATCH, 1, rw);
  properties[PROP_KV_TYPE] = string_property ("kv-type", "f16");
  properties[PROP_ENGINE] = string_property ("engine", "llama.cpp");
  properties[PROP_BACKEND] = string_property ("backend", "auto");
  properties[PROP_OFFLOAD] = g_param_spec_double ("offload", NULL, NULL, 0, 100, 0, rw);
  properties[PROP_N_CPU_MOE] = g_param_spec_int ("n-cpu-moe", NULL, NULL, 0, 10000, 0, rw);
  properties[PROP_RESERVE_PCT] = g_param_spec_double ("reserve-pct", NULL, NULL, 0, 50, 5, rw);
  properties[PROP_UNIFIED_SHARE] = g_param_spec_double ("unified-share", NULL, NULL, 0, 1, 0, rw);
  properties[PROP_ENGINE_VERSION] = string_property ("engine-version", "current");
  properties[PROP_DRAFT] = string_property ("draft", "none");
  properties[PROP_DRAFT_ACCEPT] = g_param_spec_double ("draft-accept", NULL, NULL, 0, 99, 0, rw);
  properties[PROP_USE_CALIBRATION] = g_param_spec_boolean ("use-calibration", NULL, NULL, TRUE, rw);
  /* the model's vision projector counted (#31): llama.cpp's -hf fetches and loads it.  "mmproj"
   * is the Size view's switch (TRUE: auto), "mmproj-mode" the saved setting ("auto", "none") */
  properties[PROP_MMPROJ] = g_param_spec_boolean ("mmproj", NULL, NULL, TRUE, rw);
  properties[PROP_MMPROJ_MODE] = string_property ("mmproj-mode", "auto");
  properties[PROP_ADVISING] = g_param_spec_boolean ("advising", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SCENARIO_CHANGED] =
    g_signal_new ("scenario-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CATALOG_CHANGED] =
    g_signal_new ("catalog-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[PRICING_CHANGED] =
    g_signal_new ("pricing-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CALIBRATION_CHANGED] =
    g_signal_new ("calibration-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ADVICE_CHANGED] =
    g_signal_new ("advice-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_session_init (HrSession *self)
{
  self->cancellable = g_cancellable_new ();
  self->context = 8192;
  self->gpus = 1;
  self->extra_gpus = g_new0 (char *, 1);
  self->batch = 1;
  self->kv_type = g_strdup ("f16");
  self->engine = g_strdup ("llama.cpp");
  self->backend = g_strdup ("auto");
  self->reserve_pct = HR_DEFAULT_RESERVE * 100;
  self->engine_version = g_strdup ("current");
  self->draft = g_strdup ("none");
  self->use_calibration = TRUE;
  self->mmproj_mode = HR_MMPROJ_AUTO;
}

/* Public API ---------------------------------------------------------------------------------- */

HrSession *
hr_session_new (HrCatalog  *catalog,
                HrUserData *userdata,
                GSettings  *settings)
{
  HrSession *self = g_object_new (HR_TYPE_SESSION, NULL);

  self->catalog = catalog ? catalog : hr_catalog_new_empty ();
  self->userdata = userdata;
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      bind_settings (self);
    }
  ensure_known_ids (self);
  return self;
}

HrCatalog *
hr_session_get_catalog (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->catalog;
}

HrUserData *
hr_session_get_userdata (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->userdata;
}

void
hr_session_set_pricing_manager (HrSession        *self,
                                HrPricingManager *manager)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (manager == NULL || HR_IS_PRICING_MANAGER (manager));

  if (self->pricing == manager)
    return;
  if (self->pricing != NULL)
    g_signal_handlers_disconnect_by_data (self->pricing, self);
  g_set_object (&self->pricing, manager);
  if (manager != NULL)
    g_signal_connect_object (manager, "changed", G_CALLBACK (pricing_changed_cb), self, G_CONNECT_SWAPPED);
}

HrPricingManager *
hr_session_get_pricing_manager (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->pricing;
}

/* Speculative decoding (#31): the chosen draft when it still fits the model and engine
 * (hr_draft_check ()); a draft the model or engine no longer takes is left out, not an
 * error, and the Size view's list no longer offers it. */
static void
set_scenario_draft (HrSession  *self,
                    HrScenario *s)
{
  if (g_strcmp0 (self->draft, "mtp") == 0)
    s->draft_kind = HR_DRAFT_MTP;
  else if (self->draft != NULL && g_strcmp0 (self->draft, "none") != 0)
    {
      s->draft_model = hr_catalog_find_model (self->catalog, self->draft);
      s->draft_kind = s->draft_model != NULL ? HR_DRAFT_MODEL : HR_DRAFT_NONE;
    }
  s->draft_accept = self->draft_accept > 0 ? self->draft_accept / 100.0 : NAN;
  if (s->draft_kind != HR_DRAFT_NONE && !hr_draft_check (s, NULL))
    {
      s->draft_kind = HR_DRAFT_NONE;
      s->draft_model = NULL;
    }
}

const HrScenario *
hr_session_get_scenario (HrSession *self)
{
  const HrModel *model;
  const HrGpu *gpu;
  HrScenario *s;
  HrBackend backend;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  if (self->scenario_valid)
    return self->have_scenario ? &self->scenario : NULL;
  self->scenario_valid = TRUE;
  model = self->model ? hr_catalog_find_model (self->catalog, self->model) : NULL;
  gpu = self->gpu ? hr_catalog_find_gpu (self->catalog, self->gpu) : NULL;
  self->have_scenario = model != NULL && gpu != NULL;
  if (!self->have_scenario)
    return NULL;

  s = &self->scenario;
  hr_scenario_init (s, model, gpu);
  g_strlcpy (s->quant, self->quant ? self->quant : HR_SESSION_DEFAULT_QUANT, sizeof s->quant);
  s->context = self->context;
  s->n_gpus = gpu->backend == HR_BACKEND_CPU ? 1 : self->gpus;  /* "CPU + system RAM": one machine */
  if (gpu->backend != HR_BACKEND_CPU && self->extra_gpus[0] != NULL)
    {
      /* a mixed setup (#31): this GPU first, then the others the catalog knows */
      HrDeviceKind kinds[HR_MAX_DEVICE_KINDS] = { { gpu, s->n_gpus } };
      int n_kinds = 1;

      for (guint i = 0; self->extra_gpus[i] != NULL && n_kinds < HR_MAX_DEVICE_KINDS; i++)
        {
          g_autofree char *id = NULL;
          const HrGpu *other;
          int count;

          if (!parse_extra_gpu (self->extra_gpus[i], &id, &count))
            continue;
          other = hr_catalog_find_gpu (self->catalog, id);
          if (other == NULL || other->backend == HR_BACKEND_CPU)
            continue;
          kinds[n_kinds].gpu = other;
          kinds[n_kinds++].count = count;
        }
      /* too many devices: the first GPU alone */
      if (!hr_scenario_set_devices (s, kinds, n_kinds, NULL))
        hr_scenario_set_devices (s, kinds, 1, NULL);
    }
  s->batch = self->batch;
  if (!hr_kv_type_from_string (self->kv_type, &s->kv_type))
    s->kv_type = HR_KV_F16;
  if (!hr_engine_from_string (self->engine, &s->engine))
    s->engine = HR_ENGINE_LLAMA_CPP;
  if (g_strcmp0 (self->backend, "auto") != 0 && hr_backend_from_string (self->backend, &backend))
    {
      s->backend = backend;
      s->backend_set = TRUE;
    }
  s->offload_pct = self->offload;
  /* llama.cpp loads a projector beside the model (vLLM and SGLang count the vision tower in the
   * checkpoint's weights): the model's own, when the switch is on (#31).  The mode, not the
   * bytes: What Runs Here and Compare apply it to every model they size (hr_scenario_mmproj ()) */
  s->mmproj_mode = self->mmproj_mode;
  if (hr_scenario_mmproj (s, NULL) > 0)
    {
      /* a local GGUF's launch names the file beside it (llama-server --mmproj FILE); interned,
       * as copies of the scenario (the advice worker's) borrow it */
      if (model->gguf_path != NULL)
        {
          g_autofree char *path = hr_projector_find_beside (model->gguf_path);

          s->mmproj_path = path != NULL ? g_intern_string (path) : NULL;
        }
    }
  s->n_cpu_moe = hr_model_is_moe (model) ? self->n_cpu_moe : 0;
  s->reserve = CLAMP (self->reserve_pct, 0, 50) / 100.0;
  s->unified_share = CLAMP (self->unified_share, 0, 1);
  if (!hr_engine_version_from_string (self->engine_version, &s->engine_version))
    s->engine_version = HR_ENGINE_VERSION_CURRENT;
  if (self->use_calibration)
    {
      char buf[96];
      const char *id = hr_user_calibration_device_id (gpu, buf, sizeof buf);

      s->calibration = hr_user_calibration_find (hr_session_get_calibrations (self), id,
                                                 hr_scenario_backend (s));
    }
  set_scenario_draft (self, s);
  return s;
}

const char *
hr_session_get_model (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->model;
}

const char *
hr_session_get_gpu (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->gpu;
}

const char *
hr_session_get_quant (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->quant;
}

void
hr_session_set_model (HrSession  *self,
                      const char *id)
{
  g_return_if_fail (HR_IS_SESSION (self));
  /* NULL is a picker between two lists, not a choice; an id the catalog does not know (a
   * removed model of the user's, an older catalog) falls back to the default */
  if (id != NULL && hr_catalog_find_model (self->catalog, id) == NULL)
    {
      id = fallback_model (self);
      if (id != NULL)
        schedule_resync (self);
    }
  if (!set_string (self, &self->model, id, PROP_MODEL))
    return;
  /* the new model's limits */
  g_object_set (self, "context", self->context, "n-cpu-moe", self->n_cpu_moe, NULL);
}

void
hr_session_set_gpu (HrSession  *self,
                    const char *id)
{
  g_return_if_fail (HR_IS_SESSION (self));
  if (id != NULL && hr_catalog_find_gpu (self->catalog, id) == NULL)
    {
      id = fallback_gpu (self);
      if (id != NULL)
        schedule_resync (self);
    }
  set_string (self, &self->gpu, id, PROP_GPU);
}

void
hr_session_set_quant (HrSession  *self,
                      const char *quant)
{
  const HrQuantMix *mix = quant ? hr_catalog_find_quant (self->catalog, quant) : NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  /* the catalog's spelling of a quant it knows ("q4_k_m" is Q4_K_M); the default for others */
  if (quant != NULL && mix == NULL)
    {
      mix = hr_catalog_find_quant (self->catalog, HR_SESSION_DEFAULT_QUANT);
      if (mix != NULL)
        schedule_resync (self);
    }
  set_string (self, &self->quant, mix ? mix->id : quant, PROP_QUANT);
}

guint
hr_session_get_n_extra_gpus (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), 0);
  return g_strv_length (self->extra_gpus);
}

const char *
hr_session_get_extra_gpu (HrSession *self,
                          guint      index,
                          int       *count)
{
  g_autofree char *id = NULL;
  int n = 1;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  if (index >= g_strv_length (self->extra_gpus) || !parse_extra_gpu (self->extra_gpus[index], &id, &n))
    return NULL;
  if (count != NULL)
    *count = n;
  /* the id is the entry up to its count; ids are few: interned, it lives on */
  return g_intern_string (id);
}

static void
edit_extra_gpus (HrSession  *self,
                 guint       index,
                 const char *id,
                 int         count,
                 gboolean    remove)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) entries = NULL;
  guint n = g_strv_length (self->extra_gpus);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *old_id = NULL;
      int old_count = 1;

      if (i != index)
        g_strv_builder_add (builder, self->extra_gpus[i]);
      else if (!remove && parse_extra_gpu (self->extra_gpus[i], &old_id, &old_count))
        builder_add_entry (builder, id ? id : old_id, count > 0 ? MIN (count, HR_MAX_MIXED_GPUS) : old_count);
    }
  if (index >= n && !remove && id != NULL)
    builder_add_entry (builder, id, CLAMP (count, 1, HR_MAX_MIXED_GPUS));
  entries = g_strv_builder_end (builder);
  set_extra_gpus (self, (const char * const *) entries);
}

void
hr_session_add_extra_gpu (HrSession  *self,
                          const char *id,
                          int         count)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (id != NULL);
  edit_extra_gpus (self, G_MAXUINT, id, count, FALSE);
}

void
hr_session_set_extra_gpu (HrSession  *self,
                          guint       index,
                          const char *id,
                          int         count)
{
  g_return_if_fail (HR_IS_SESSION (self));
  if (index < g_strv_length (self->extra_gpus))
    edit_extra_gpus (self, index, id, count, FALSE);
}

void
hr_session_remove_extra_gpu (HrSession *self,
                             guint      index)
{
  g_return_if_fail (HR_IS_SESSION (self));
  if (index < g_strv_length (self->extra_gpus))
    edit_extra_gpus (self, index, NULL, 0, TRUE);
}

void
hr_session_catalog_changed (HrSession *self)
{
  g_return_if_fail (HR_IS_SESSION (self));

  /* the models and GPUs the scenario points at may have moved */
  self->scenario_valid = FALSE;
  self->generation++;
  ensure_known_ids (self);
  g_signal_emit (self, signals[CATALOG_CHANGED], 0);
}

void
hr_session_edit_catalog (HrSession         *self,
                         HrSessionEditFunc  edit,
                         gconstpointer      data)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (edit != NULL);

  wait_for_worker (self);
  edit (self->catalog, data);
  hr_session_catalog_changed (self);
}

void
hr_session_add_model (HrSession *self,
                      HrModel   *model)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (model != NULL);

  wait_for_worker (self);
  hr_catalog_add_model (self->catalog, model);
  hr_session_catalog_changed (self);
}

gboolean
hr_session_remove_model (HrSession  *self,
                         const char *id)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);

  wait_for_worker (self);
  if (!hr_catalog_remove_model (self->catalog, id))
    return FALSE;
  hr_session_catalog_changed (self);
  return TRUE;
}

gboolean
hr_session_rename_model (HrSession  *self,
                         const char *id,
                         const char *name)
{
  HrModel *model;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  model = id ? (HrModel *) hr_catalog_find_model (self->catalog, id) : NULL;
  if (model == NULL)
    return FALSE;
  wait_for_worker (self);
  g_free (model->name);
  model->name = g_strdup (name);
  hr_session_catalog_changed (self);
  return TRUE;
}

void
hr_session_add_gpu (HrSession  *self,
                    HrGpu      *gpu,
                    const char *replaces)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (gpu != NULL);

  wait_for_worker (self);
  if (replaces != NULL)
    hr_catalog_remove_gpu (self->catalog, replaces);
  hr_catalog_add_gpu (self->catalog, gpu);
  hr_session_catalog_changed (self);
}

gboolean
hr_session_remove_gpu (HrSession  *self,
                       const char *id)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);

  wait_for_worker (self);
  if (!hr_catalog_remove_gpu (self->catalog, id))
    return FALSE;
  hr_session_catalog_changed (self);
  return TRUE;
}

void
hr_session_watch (HrSession *self,
                  gpointer   view,
                  GCallback  results_changed,
                  GCallback  catalog_changed)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (G_IS_OBJECT (view));

  g_signal_connect_object (self, "scenario-changed", results_changed, view, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "pricing-changed", results_changed, view, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "catalog-changed", catalog_changed, view, G_CONNECT_SWAPPED);
}

void
hr_session_request_advice (HrSession *self)
{
  g_return_if_fail (HR_IS_SESSION (self));

  /* every window's Size view asks after each change: the scenario is worked on once */
  if (self->advice != NULL && self->advice_generation == self->generation)
    {
      g_signal_emit (self, signals[ADVICE_CHANGED], 0);
      return;
    }
  if (self->job != NULL)
    {
      /* one worker at a time; the newest scenario runs when it is done */
      if (self->job->generation != self->generation)
        self->advice_pending = TRUE;
      return;
    }
  start_advice (self);
  if (self->job != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADVISING]);
}

const HrAdviceState *
hr_session_get_advice (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  return self->advice;
}

guint
hr_session_get_n_advice_runs (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), 0);
  return self->n_advice_runs;
}

gboolean
hr_session_get_advising (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  return self->job != NULL || self->advice_pending;
}

GArray *
hr_session_get_calibrations (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  if (self->calibrations == NULL)
    {
      g_autoptr(GError) error = NULL;

      /* a damaged file was moved aside by the loader: nothing is calibrated, as without one */
      self->calibrations = hr_user_calibration_load (self->calibration_dir, &error);
      if (self->calibrations == NULL)
        {
          g_warning ("Your calibrations could not be read: %s", error->message);
          self->calibrations = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
        }
    }
  return self->calibrations;
}

void
hr_session_set_calibration_dir (HrSession  *self,
                                const char *dir)
{
  g_return_if_fail (HR_IS_SESSION (self));

  g_free (self->calibration_dir);
  self->calibration_dir = g_strdup (dir);
  replace_calibrations (self, NULL);
}

gboolean
hr_session_get_use_calibration (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  return self->use_calibration;
}

void
hr_session_set_use_calibration (HrSession *self,
                                gboolean   use)
{
  g_return_if_fail (HR_IS_SESSION (self));

  use = !!use;
  if (self->use_calibration == use)
    return;
  self->use_calibration = use;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USE_CALIBRATION]);
  scenario_changed (self);
}

gboolean
hr_session_save_calibrations (HrSession  *self,
                              GArray     *cals,
                              GError    **error)
{
  g_autoptr(GArray) saved = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (cals != NULL, FALSE);

  if (!hr_user_calibration_save (self->calibration_dir, cals, error))
    return FALSE;
  saved = hr_user_calibration_load (self->calibration_dir, error);
  if (saved == NULL)
    return FALSE;
  replace_calibrations (self, g_steal_pointer (&saved));
  return TRUE;
}

int
hr_session_remove_calibration (HrSession  *self,
                               const char *gpu_id,
                               GError    **error)
{
  g_autoptr(GArray) saved = NULL;
  int n;

  g_return_val_if_fail (HR_IS_SESSION (self), -1);
  g_return_val_if_fail (gpu_id != NULL, -1);

  n = hr_user_calibration_remove (self->calibration_dir, gpu_id, error);
  if (n < 0)
    return -1;
  saved = hr_user_calibration_load (self->calibration_dir, error);
  if (saved == NULL)
    return -1;
  replace_calibrations (self, g_steal_pointer (&saved));
  return n;
}
