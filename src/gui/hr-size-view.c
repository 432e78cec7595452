/* hr-size-view.c — the Size view: one scenario, sized live
 *
 * The controls are the single source of truth: any change schedules one recompute before
 * the next frame (an idle above GTK's redraw priority, so many changes in one main-loop turn
 * cost one recompute and the frame never shows stale numbers).  The recompute reads the
 * controls into an HrScenario, runs hr_estimate_compute() (µs) and applies the cards and
 * charts at once: well under a millisecond in all.  The whole-catalog part — quant matrix,
 * reverse answers, recommendations, diagnosis, launch commands — runs hundreds of estimates
 * (1–10 ms, more on slow machines), so it runs in a GTask thread, one at a time, started
 * after the frame; results for a scenario that has changed meanwhile are dropped.
 */
#include "hr-size-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-picker-items.h"
#include "hr-units.h"

#define DEFAULT_MODEL "glm-4.5-air"
#define DEFAULT_GPU   "rtx-pro-6000-blackwell-96gb"
#define DEFAULT_QUANT "Q4_K_M"
#define MIN_SCALE_CONTEXT 2048
#define MAX_UI_CONTEXT (1 << 20)   /* 1M tokens when the model does not say */

/* One computation of the advice, shared by the view and the worker thread. */
struct _HrAdviceJob
{
  gatomicrefcount ref;
  HrScenario scenario;
  const HrCatalog *catalog;
  HrPricing *pricing;
  guint generation;
  GMutex lock;
  GCond cond;
  gboolean done;
};

G_DEFINE_FINAL_TYPE (HrSizeView, hr_size_view, GTK_TYPE_WIDGET)

enum
{
  SCENARIO_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const kv_ids[] = { "f16", "fp8", "q8_0", "q4_0", NULL };
static const char * const engine_ids[] = { "llama.cpp", "vllm", "sglang", "ollama", "mlx", NULL };
static const char * const backend_ids[] = { "auto", "cuda", "rocm", "metal", "vulkan", "sycl", "cpu", NULL };

static void schedule_recompute (HrSizeView *self);
static void start_advice (HrSizeView *self);

/* Advice jobs ----------------------------------------------------------------------------- */

static HrAdviceJob *
advice_job_ref (HrAdviceJob *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
advice_job_unref (HrAdviceJob *job)
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
  HrAdviceJob *job = task_data;
  HrAdviceState *state = hr_advice_state_compute (&job->scenario, job->catalog, job->pricing);

  g_mutex_lock (&job->lock);
  job->done = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);

  g_task_return_pointer (task, state, (GDestroyNotify) hr_advice_state_free);
}

/* The catalog belongs to the application: never let a worker outlive the view. */
static void
wait_for_job (HrAdviceJob *job)
{
  g_mutex_lock (&job->lock);
  while (!job->done)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
}

/* Small helpers --------------------------------------------------------------------------- */

static guint
string_list_find (GListModel *list,
                  const char *str)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GtkStringObject) so = g_list_model_get_item (list, i);
      if (g_ascii_strcasecmp (gtk_string_object_get_string (so), str) == 0)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static guint
table_find (const char * const *table,
            const char         *str)
{
  for (guint i = 0; table[i] != NULL; i++)
    if (g_strcmp0 (table[i], str) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static const char *
selected_quant (HrSizeView *self)
{
  guint pos = adw_combo_row_get_selected (self->quant_row);

  if (self->quant_ids == NULL || pos >= g_list_model_get_n_items (G_LIST_MODEL (self->quant_ids)))
    return DEFAULT_QUANT;
  return gtk_string_list_get_string (self->quant_ids, pos);
}

static const HrModel *
selected_model (HrSizeView *self)
{
  const char *id = hr_picker_get_selected_id (self->model_picker);

  return self->catalog && id ? hr_catalog_find_model (self->catalog, id) : NULL;
}

static const HrGpu *
selected_gpu (HrSizeView *self)
{
  const char *id = hr_picker_get_selected_id (self->gpu_picker);

  return self->catalog && id ? hr_catalog_find_gpu (self->catalog, id) : NULL;
}

static gint64
round_context (double tokens)
{
  /* the log scale lands on round numbers: 1K steps above 4K, 256 below */
  gint64 step = tokens >= 4096 ? 1024 : 256;
  gint64 t = (gint64) floor (tokens / step + 0.5) * step;

  return MAX (t, HR_MIN_CONTEXT);
}

/* Pickers and lists ----------------------------------------------------------------------- */

/* The user's own entries first, under "Yours", then the catalog's by vendor. */
static void
fill_pickers (HrSizeView *self)
{
  g_autoptr(GPtrArray) models = hr_picker_items_models (self->catalog);
  g_autoptr(GPtrArray) gpus = hr_picker_items_gpus (self->catalog);

  hr_picker_set_items (self->model_picker, models);
  hr_picker_set_items (self->gpu_picker, gpus);
}

static gint
compare_quant_bpw (gconstpointer a,
                   gconstpointer b)
{
  const HrQuantMix *qa = *(const HrQuantMix **) a;
  const HrQuantMix *qb = *(const HrQuantMix **) b;

  if (qa->nominal_bpw != qb->nominal_bpw)
    return qa->nominal_bpw < qb->nominal_bpw ? 1 : -1;
  return 0;
}

static void
fill_quants (HrSizeView *self)
{
  g_autoptr(GPtrArray) quants = g_ptr_array_new ();
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  for (guint i = 0; i < hr_catalog_n_quants (self->catalog); i++)
    g_ptr_array_add (quants, (gpointer) hr_catalog_get_quant (self->catalog, i));
  /* stable insertion sort: most precise first, catalog order among equals */
  for (guint i = 1; i < quants->len; i++)
    for (guint j = i; j > 0 && compare_quant_bpw (&quants->pdata[j - 1], &quants->pdata[j]) > 0; j--)
      {
        gpointer tmp = quants->pdata[j];
        quants->pdata[j] = quants->pdata[j - 1];
        quants->pdata[j - 1] = tmp;
      }
  for (guint i = 0; i < quants->len; i++)
    gtk_string_list_append (list, ((const HrQuantMix *) g_ptr_array_index (quants, i))->id);

  g_set_object (&self->quant_ids, list);
  adw_combo_row_set_model (self->quant_row, G_LIST_MODEL (list));
}

static void
quant_list_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     HrSizeView               *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *id = gtk_label_new (NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (id), 0);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), id);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (item, box);
}

static void
quant_list_bind_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    HrSizeView               *self)
{
  GtkStringObject *so = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  const char *id = gtk_string_object_get_string (so);
  const HrQuantMix *q = self->catalog ? hr_catalog_find_quant (self->catalog, id) : NULL;

  gtk_label_set_label (GTK_LABEL (gtk_widget_get_first_child (box)), id);
  gtk_label_set_label (GTK_LABEL (gtk_widget_get_last_child (box)), q && q->label ? q->label : "");
}

/* Model-dependent limits ------------------------------------------------------------------ */

static void
set_context_marks (HrSizeView *self,
                   gint64      lo,
                   gint64      hi)
{
  int octaves = 0;

  gtk_scale_clear_marks (self->context_scale);
  for (gint64 t = lo; t <= hi; t *= 2)
    octaves++;
  for (gint64 t = lo, i = 0; t <= hi; t *= 2, i++)
    {
      g_autofree char *label = hr_format_context_short (t);
      gboolean labelled = octaves <= 8 || i % 2 == 0 || t == hi;
      gtk_scale_add_mark (self->context_scale, log2 ((double) t), GTK_POS_BOTTOM, labelled ? label : NULL);
    }
}

static void
update_model_limits (HrSizeView *self)
{
  const HrModel *m = selected_model (self);
  gint64 max = MAX_UI_CONTEXT;
  gint64 lo = MIN_SCALE_CONTEXT;
  gboolean moe;

  if (m == NULL)
    return;
  if (m->max_context > 0)
    max = MIN (m->max_context, HR_MAX_CONTEXT);
  if (max < lo * 2)
    lo = HR_MIN_CONTEXT;

  self->syncing_context = TRUE;
  gtk_adjustment_set_upper (self->context_log_adjustment, log2 ((double) max));
  gtk_adjustment_set_lower (self->context_log_adjustment, log2 ((double) lo));
  self->syncing_context = FALSE;
  /* the spin clamps the context to the new maximum, which then reaches the scale and
   * GSettings through the usual signals */
  gtk_adjustment_set_upper (self->context_adjustment, (double) max);
  if (gtk_adjustment_get_value (self->context_adjustment) > max)
    gtk_adjustment_set_value (self->context_adjustment, (double) max);
  self->syncing_context = TRUE;
  gtk_adjustment_set_value (self->context_log_adjustment,
                            log2 (MAX (gtk_adjustment_get_value (self->context_adjustment), 1)));
  self->syncing_context = FALSE;
  set_context_marks (self, lo, max);

  moe = hr_model_is_moe (m);
  gtk_widget_set_visible (GTK_WIDGET (self->moe_row), moe);
  gtk_adjustment_set_upper (self->moe_adjustment, moe ? MAX (m->n_layers - m->n_dense_layers, 0) : 0);
  if (!moe)
    gtk_adjustment_set_value (self->moe_adjustment, 0);
}

static void
update_backend_subtitle (HrSizeView *self)
{
  const HrGpu *gpu = selected_gpu (self);
  g_autofree char *subtitle = NULL;

  if (adw_combo_row_get_selected (self->backend_row) == 0 && gpu != NULL)
    /* TRANSLATORS: the backend chosen automatically, e.g. "From the GPU: ROCm" */
    subtitle = g_strdup_printf (_("From the GPU: %s"), hr_size_backend_display (gpu->backend));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->backend_row), subtitle ? subtitle : "");
}

/* Reading the controls -------------------------------------------------------------------- */

static gboolean
read_scenario (HrSizeView *self,
               HrScenario *s)
{
  const HrModel *model = selected_model (self);
  const HrGpu *gpu = selected_gpu (self);
  guint backend = adw_combo_row_get_selected (self->backend_row);
  guint kv = adw_combo_row_get_selected (self->kv_row);
  guint engine = adw_combo_row_get_selected (self->engine_row);
  double reserve = g_settings_get_double (self->settings, "reserve-pct");
  double share = g_settings_get_double (self->settings, "unified-share");
  g_autofree char *version = g_settings_get_string (self->settings, "engine-version");

  if (model == NULL || gpu == NULL)
    return FALSE;

  hr_scenario_init (s, model, gpu);
  g_strlcpy (s->quant, selected_quant (self), sizeof s->quant);
  s->context = (gint64) gtk_adjustment_get_value (self->context_adjustment);
  s->n_gpus = (int) gtk_adjustment_get_value (self->gpus_adjustment);
  s->batch = (int) gtk_adjustment_get_value (self->batch_adjustment);
  s->kv_type = kv < G_N_ELEMENTS (kv_ids) - 1 ? (HrKvType) kv : HR_KV_F16;
  s->engine = engine < HR_N_ENGINES ? (HrEngine) engine : HR_ENGINE_LLAMA_CPP;
  if (backend > 0 && backend < G_N_ELEMENTS (backend_ids) - 1)
    {
      s->backend_set = hr_backend_from_string (backend_ids[backend], &s->backend);
    }
  s->offload_pct = gtk_adjustment_get_value (self->offload_adjustment);
  s->n_cpu_moe = hr_model_is_moe (model) ? (int) gtk_adjustment_get_value (self->moe_adjustment) : 0;
  s->reserve = CLAMP (reserve, 0, 50) / 100.0;
  s->unified_share = CLAMP (share, 0, 1);
  if (!hr_engine_version_from_string (version, &s->engine_version))
    s->engine_version = HR_ENGINE_VERSION_CURRENT;
  return TRUE;
}

static void
advice_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  HrSizeView *self = HR_SIZE_VIEW (object);
  GTask *task = G_TASK (result);
  HrAdviceJob *job = g_task_get_task_data (task);
  HrAdviceState *state = g_task_propagate_pointer (task, NULL);

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      g_clear_pointer (&state, hr_advice_state_free);
      return;
    }
  if (self->job == job)
    g_clear_pointer (&self->job, advice_job_unref);

  if (job->generation == self->generation && state != NULL)
    {
      g_clear_pointer (&self->advice, hr_advice_state_free);
      self->advice = g_steal_pointer (&state);
      self->last_advice_ms = self->advice->elapsed_ms;
      g_debug ("advice: %.1f ms in a worker thread", self->advice->elapsed_ms);
      hr_size_view_apply_advice (self);
    }
  g_clear_pointer (&state, hr_advice_state_free);

  if (self->advice_pending)
    {
      self->advice_pending = FALSE;
      start_advice (self);
    }
  else
    gtk_spinner_stop (self->advice_spinner);
}

static void
start_advice (HrSizeView *self)
{
  g_autoptr(GTask) task = NULL;
  HrAdviceJob *job;
  const HrPricing *pricing;

  if (!self->have_scenario)
    return;
  if (self->job != NULL)
    {
      /* one worker at a time; the newest scenario runs when it is done */
      self->advice_pending = TRUE;
      return;
    }

  job = g_new0 (HrAdviceJob, 1);
  g_atomic_ref_count_init (&job->ref);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->scenario = self->scenario;
  job->catalog = self->catalog;
  pricing = hr_catalog_get_pricing (self->catalog);
  /* a private copy: the Cloud view may swap the catalog's pricing while this runs */
  job->pricing = pricing ? hr_pricing_copy (pricing) : NULL;
  job->generation = self->generation;
  self->job = advice_job_ref (job);

  gtk_spinner_start (self->advice_spinner);
  task = g_task_new (self, self->cancellable, advice_done_cb, NULL);
  g_task_set_source_tag (task, start_advice);
  g_task_set_task_data (task, job, (GDestroyNotify) advice_job_unref);
  g_task_run_in_thread (task, advice_thread);
}

/* Recompute --------------------------------------------------------------------------------- */

static gboolean
start_advice_idle_cb (gpointer user_data)
{
  HrSizeView *self = user_data;

  self->advice_idle_id = 0;
  start_advice (self);
  return G_SOURCE_REMOVE;
}

static gboolean
recompute_cb (gpointer user_data)
{
  HrSizeView *self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  self->recompute_id = 0;
  if (self->catalog == NULL)
    return G_SOURCE_REMOVE;

  self->have_scenario = read_scenario (self, &self->scenario);
  if (!self->have_scenario)
    return G_SOURCE_REMOVE;

  self->generation++;
  self->estimate_ok = hr_estimate_compute (&self->scenario, hr_catalog_get_pricing (self->catalog),
                                           &self->estimate, &error);
  if (self->estimate_ok)
    {
      /* no offer for this very GPU: price it on the cheapest offer that fits (~10 µs) */
      hr_advice_fill_cost (&self->scenario, self->catalog, hr_catalog_get_pricing (self->catalog),
                           &self->estimate);
      hr_size_state_from_estimate (&self->state, &self->scenario, &self->estimate);
      if (self->estimate.verdict == HR_VERDICT_EXCEEDS)
        {
          /* it does not run: show the first suggested fix instead (a few estimates, µs) */
          HrFix fix;
          hr_advice_fix (&self->scenario, self->catalog, hr_catalog_get_pricing (self->catalog), &fix);
          hr_size_state_apply_fix (&self->state, &fix);
        }
    }
  else
    hr_size_state_from_error (&self->state, &self->scenario, error);
  hr_size_view_apply_state (self);
  hr_size_view_update_charts (self);
  /* the worker starts after this frame is drawn: spawning a thread is no business of the
   * frame that shows the new numbers */
  if (self->advice_idle_id == 0)
    self->advice_idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, start_advice_idle_cb, self, NULL);

  self->n_recomputes++;
  self->last_recompute_us = g_get_monotonic_time () - start;
  g_debug ("recompute #%u: %" G_GINT64_FORMAT " µs", self->n_recomputes, self->last_recompute_us);
  /* the views that follow this scenario (Compare, Fine-tune) */
  g_signal_emit (self, signals[SCENARIO_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
schedule_recompute (HrSizeView *self)
{
  if (self->recompute_id != 0 || self->catalog == NULL)
    return;
  /* above GDK_PRIORITY_REDRAW: the next frame already shows the new numbers */
  self->recompute_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute_cb, self, NULL);
}

/* Settings mappings ------------------------------------------------------------------------- */

static gboolean
get_table_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  guint pos = table_find (user_data, g_variant_get_string (variant, NULL));

  g_value_set_uint (value, pos == GTK_INVALID_LIST_POSITION ? 0 : pos);
  return TRUE;
}

static GVariant *
set_table_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  const char * const *table = user_data;
  guint pos = g_value_get_uint (value);

  if (pos >= g_strv_length ((char **) table))
    return NULL;
  return g_variant_new_string (table[pos]);
}

static gboolean
get_quant_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  HrSizeView *self = user_data;
  guint pos = string_list_find (G_LIST_MODEL (self->quant_ids), g_variant_get_string (variant, NULL));

  if (pos == GTK_INVALID_LIST_POSITION)
    pos = string_list_find (G_LIST_MODEL (self->quant_ids), DEFAULT_QUANT);
  if (pos == GTK_INVALID_LIST_POSITION)
    return FALSE;
  g_value_set_uint (value, pos);
  return TRUE;
}

static GVariant *
set_quant_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  HrSizeView *self = user_data;
  guint pos = g_value_get_uint (value);

  if (pos >= g_list_model_get_n_items (G_LIST_MODEL (self->quant_ids)))
    return NULL;
  return g_variant_new_string (gtk_string_list_get_string (self->quant_ids, pos));
}

static gboolean
get_int_mapping (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  if (g_variant_is_of_type (variant, G_VARIANT_TYPE_INT64))
    g_value_set_double (value, (double) g_variant_get_int64 (variant));
  else
    g_value_set_double (value, (double) g_variant_get_int32 (variant));
  return TRUE;
}

static GVariant *
set_int_mapping (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  double v = floor (g_value_get_double (value) + 0.5);

  if (g_variant_type_equal (expected_type, G_VARIANT_TYPE_INT64))
    return g_variant_new_int64 ((gint64) v);
  return g_variant_new_int32 ((gint32) v);
}

static void
bind_settings (HrSizeView *self)
{
  GSettings *s = self->settings;

  g_settings_bind (s, "model", self->model_picker, "selected-id", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (s, "gpu", self->gpu_picker, "selected-id", G_SETTINGS_BIND_DEFAULT);
  /* the defaults when the saved ids are gone (a removed custom model, an older catalog) */
  if (hr_picker_get_selected_id (self->model_picker) == NULL &&
      !hr_picker_set_selected_id (self->model_picker, DEFAULT_MODEL) && hr_catalog_n_models (self->catalog) > 0)
    hr_picker_set_selected_id (self->model_picker, hr_catalog_get_model (self->catalog, 0)->id);
  if (hr_picker_get_selected_id (self->gpu_picker) == NULL &&
      !hr_picker_set_selected_id (self->gpu_picker, DEFAULT_GPU) && hr_catalog_n_gpus (self->catalog) > 0)
    hr_picker_set_selected_id (self->gpu_picker, hr_catalog_get_gpu (self->catalog, 0)->id);

  g_settings_bind_with_mapping (s, "quant", self->quant_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_quant_mapping, set_quant_mapping, self, NULL);
  g_settings_bind_with_mapping (s, "context", self->context_adjustment, "value", G_SETTINGS_BIND_DEFAULT,
                                get_int_mapping, set_int_mapping, NULL, NULL);
  g_settings_bind_with_mapping (s, "gpus", self->gpus_adjustment, "value", G_SETTINGS_BIND_DEFAULT,
                                get_int_mapping, set_int_mapping, NULL, NULL);
  g_settings_bind_with_mapping (s, "batch", self->batch_adjustment, "value", G_SETTINGS_BIND_DEFAULT,
                                get_int_mapping, set_int_mapping, NULL, NULL);
  g_settings_bind_with_mapping (s, "n-cpu-moe", self->moe_adjustment, "value", G_SETTINGS_BIND_DEFAULT,
                                get_int_mapping, set_int_mapping, NULL, NULL);
  g_settings_bind (s, "offload", self->offload_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (s, "kv-type", self->kv_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) kv_ids, NULL);
  /* A scenario the user never set an engine for starts with the engine chosen in Preferences. */
  {
    g_autoptr(GVariant) user_engine = g_settings_get_user_value (s, "engine");
    if (user_engine == NULL)
      {
        g_autofree char *preferred = g_settings_get_string (s, "default-engine");
        g_settings_set_string (s, "engine", preferred);
      }
  }
  g_settings_bind_with_mapping (s, "engine", self->engine_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) engine_ids, NULL);
  g_settings_bind_with_mapping (s, "backend", self->backend_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) backend_ids, NULL);
  self->bound = TRUE;
}

static void
unbind_settings (HrSizeView *self)
{
  if (!self->bound)
    return;
  g_settings_unbind (self->model_picker, "selected-id");
  g_settings_unbind (self->gpu_picker, "selected-id");
  g_settings_unbind (self->quant_row, "selected");
  g_settings_unbind (self->context_adjustment, "value");
  g_settings_unbind (self->gpus_adjustment, "value");
  g_settings_unbind (self->batch_adjustment, "value");
  g_settings_unbind (self->moe_adjustment, "value");
  g_settings_unbind (self->offload_adjustment, "value");
  g_settings_unbind (self->kv_row, "selected");
  g_settings_unbind (self->engine_row, "selected");
  g_settings_unbind (self->backend_row, "selected");
  self->bound = FALSE;
}

/* Callbacks --------------------------------------------------------------------------------- */

static void
model_changed_cb (HrSizeView *self)
{
  update_model_limits (self);
  schedule_recompute (self);
}

static void
gpu_changed_cb (HrSizeView *self)
{
  update_backend_subtitle (self);
  schedule_recompute (self);
}

/* A GPU the user picks starts as one card (This Computer then gets its own count). */
static void
gpu_picked_cb (HrSizeView *self)
{
  gtk_adjustment_set_value (self->gpus_adjustment, 1);
}

static void
input_changed_cb (HrSizeView *self)
{
  update_backend_subtitle (self);
  schedule_recompute (self);
}

static void
context_changed_cb (HrSizeView    *self,
                    GtkAdjustment *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);

  /* the spin button's +/− (and Up/Down) step by half a token: they go on by a power of two */
  if (value != floor (value))
    {
      gint64 next = hr_context_step (self->context_tokens, value > self->context_tokens);

      gtk_adjustment_set_value (adjustment, CLAMP ((double) next, gtk_adjustment_get_lower (adjustment),
                                                   gtk_adjustment_get_upper (adjustment)));
      return;
    }
  g_signal_connect_object (self->gpu_picker, "picked", G_CALLBACK (gpu_picked_cb), self, G_CONNECT_SWAPPED);
  self->context_tokens = (gint64) value;
  if (!self->syncing_context)
    {
      self->syncing_context = TRUE;
      gtk_adjustment_set_value (self->context_log_adjustment,
                                log2 (MAX (gtk_adjustment_get_value (adjustment), 1)));
      self->syncing_context = FALSE;
    }
  schedule_recompute (self);
}

static void
context_log_changed_cb (HrSizeView    *self,
                        GtkAdjustment *adjustment)
{
  gint64 tokens;

  if (self->syncing_context)
    return;
  tokens = round_context (exp2 (gtk_adjustment_get_value (adjustment)));
  tokens = MIN (tokens, (gint64) gtk_adjustment_get_upper (self->context_adjustment));
  self->syncing_context = TRUE;
  gtk_adjustment_set_value (self->context_adjustment, (double) tokens);
  self->syncing_context = FALSE;
}

static void
offload_changed_cb (HrSizeView    *self,
                    GtkAdjustment *adjustment)
{
  g_autofree char *text = g_strdup_printf (_("%.0f%%"), gtk_adjustment_get_value (adjustment));

  gtk_label_set_label (self->offload_value_label, text);
  schedule_recompute (self);
}

static void
value_changed_cb (HrSizeView *self)
{
  schedule_recompute (self);
}

static void
settings_changed_cb (HrSizeView *self,
                     const char *key,
                     GSettings  *settings)
{
  if (g_str_equal (key, "reserve-pct") || g_str_equal (key, "unified-share") ||
      g_str_equal (key, "engine-version"))
    schedule_recompute (self);
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_size_view_dispose (GObject *object)
{
  HrSizeView *self = HR_SIZE_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  if (self->job != NULL)
    {
      wait_for_job (self->job);
      g_clear_pointer (&self->job, advice_job_unref);
    }
  g_clear_handle_id (&self->recompute_id, g_source_remove);
  g_clear_handle_id (&self->advice_idle_id, g_source_remove);
  if (self->settings != NULL)
    {
      unbind_settings (self);
      g_signal_handlers_disconnect_by_data (self->settings, self);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SIZE_VIEW);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->settings);
  g_clear_object (&self->quant_ids);
  for (guint i = 0; i < G_N_ELEMENTS (self->matrix_columns); i++)
    g_clear_object (&self->matrix_columns[i]);

  G_OBJECT_CLASS (hr_size_view_parent_class)->dispose (object);
}

static void
hr_size_view_finalize (GObject *object)
{
  HrSizeView *self = HR_SIZE_VIEW (object);

  hr_size_state_clear (&self->state);
  g_clear_pointer (&self->advice, hr_advice_state_free);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (hr_size_view_parent_class)->finalize (object);
}

static void
hr_size_view_class_init (HrSizeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_size_view_dispose;
  object_class->finalize = hr_size_view_finalize;

  /**
   * HrSizeView::scenario-changed:
   *
   * The scenario on screen was read and sized again (hr_size_view_get_scenario()).
   */
  signals[SCENARIO_CHANGED] =
    g_signal_new ("scenario-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CHART_WIDGET);
  g_type_ensure (HR_TYPE_SPEED_SIMULATOR);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-size-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpu_picker);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpus_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, quant_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, engine_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, backend_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_spin);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_scale);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_log_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, gpus_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, batch_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, offload_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, moe_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, offload_value_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, moe_row);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, results_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, results_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, verdict_banner);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, verdict_icon);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, verdict_title);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, verdict_detail);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, cards_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, breakdown_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, source_label);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, breakdown_chart);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, context_chart);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, matrix_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, advice_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, matrix_list);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, reverse_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, picks_group);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, diagnosis_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, launch_box);
  gtk_widget_class_bind_template_child (widget_class, HrSizeView, simulator);
  gtk_widget_class_bind_template_callback (widget_class, model_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, gpu_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, input_changed_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "matrix_row_activated_cb",
                                                G_CALLBACK (hr_size_view_matrix_row_activated));

  /* "view." actions: the window forwards its shortcuts (Ctrl+F, Ctrl+G, Ctrl+E) to the
   * visible view, whichever it is. */
  hr_size_view_install_actions (widget_class);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_size_view_init (HrSizeView *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  hr_size_state_init (&self->state);
  self->cancellable = g_cancellable_new ();
  self->settings = g_settings_new (APP_ID);
  for (guint i = 0; i < G_N_ELEMENTS (self->matrix_columns); i++)
    self->matrix_columns[i] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  hr_picker_set_placeholder (self->model_picker, _("Search models by name, family or vendor"));
  hr_picker_set_placeholder (self->gpu_picker, _("Search GPUs by name or vendor"));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (quant_list_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (quant_list_bind_cb), self);
  adw_combo_row_set_list_factory (self->quant_row, factory);
  g_object_unref (factory);

  hr_size_view_build_results (self);

  self->context_tokens = (gint64) gtk_adjustment_get_value (self->context_adjustment);
  g_signal_connect_object (self->context_adjustment, "value-changed", G_CALLBACK (context_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->context_log_adjustment, "value-changed", G_CALLBACK (context_log_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->offload_adjustment, "value-changed", G_CALLBACK (offload_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->gpus_adjustment, "value-changed", G_CALLBACK (value_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->batch_adjustment, "value-changed", G_CALLBACK (value_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->moe_adjustment, "value-changed", G_CALLBACK (value_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb),
                           self, G_CONNECT_SWAPPED);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", FALSE);
}

/* Public API -------------------------------------------------------------------------------- */

GtkWidget *
hr_size_view_new (void)
{
  return g_object_new (HR_TYPE_SIZE_VIEW, NULL);
}

void
hr_size_view_set_catalog (HrSizeView *self,
                          HrCatalog  *catalog)
{
  g_return_if_fail (HR_IS_SIZE_VIEW (self));
  g_return_if_fail (catalog != NULL);

  if (self->catalog == catalog)
    return;
  unbind_settings (self);
  self->catalog = catalog;
  fill_quants (self);
  fill_pickers (self);
  bind_settings (self);
  update_model_limits (self);
  update_backend_subtitle (self);
  schedule_recompute (self);
}

void
hr_size_view_catalog_changed (HrSizeView *self)
{
  g_return_if_fail (HR_IS_SIZE_VIEW (self));

  if (self->catalog == NULL)
    return;
  /* a worker may be reading the GPU list that is about to change */
  if (self->job != NULL)
    wait_for_job (self->job);
  unbind_settings (self);
  fill_quants (self);
  fill_pickers (self);
  bind_settings (self);
  update_model_limits (self);
  update_backend_subtitle (self);
  schedule_recompute (self);
}

void
hr_size_view_pricing_changed (HrSizeView *self)
{
  g_return_if_fail (HR_IS_SIZE_VIEW (self));

  /* The worker prices with its own copy and only this thread reads the catalog's pricing,
   * so nothing to wait for: the next recompute reads the new prices, and its new generation
   * drops the advice of a worker still running on the old ones. */
  schedule_recompute (self);
}

HrCatalog *
hr_size_view_get_catalog (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->catalog;
}

const HrScenario *
hr_size_view_get_scenario (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->have_scenario ? &self->scenario : NULL;
}

const HrEstimate *
hr_size_view_get_estimate (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->have_scenario && self->estimate_ok ? &self->estimate : NULL;
}

const HrSizeState *
hr_size_view_get_state (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return &self->state;
}

gboolean
hr_size_view_select_model (HrSizeView *self,
                           const char *id)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);
  return hr_picker_set_selected_id (self->model_picker, id);
}

gboolean
hr_size_view_select_gpu (HrSizeView *self,
                         const char *id,
                         int         count)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (!hr_picker_set_selected_id (self->gpu_picker, id))
    return FALSE;
  if (count > 0)
    gtk_adjustment_set_value (self->gpus_adjustment, count);
  return TRUE;
}

gboolean
hr_size_view_select_quant (HrSizeView *self,
                           const char *quant)
{
  guint pos;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (self->quant_ids == NULL || quant == NULL)
    return FALSE;
  pos = string_list_find (G_LIST_MODEL (self->quant_ids), quant);
  if (pos == GTK_INVALID_LIST_POSITION)
    return FALSE;
  adw_combo_row_set_selected (self->quant_row, pos);
  return TRUE;
}

gboolean
hr_size_view_apply_reverse (HrSizeView  *self,
                            HrReverseId  which)
{
  const HrReverseState *r;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (self->advice == NULL || (guint) which >= HR_N_REVERSE)
    return FALSE;
  r = &self->advice->reverse[which];
  if (!r->applicable)
    return FALSE;
  switch (which)
    {
    case HR_REVERSE_CONTEXT:
      gtk_adjustment_set_value (self->context_adjustment, (double) r->context);
      return TRUE;
    case HR_REVERSE_QUANT:
      return hr_size_view_select_quant (self, r->quant);
    case HR_REVERSE_GPUS:
      gtk_adjustment_set_value (self->gpus_adjustment, r->gpus);
      return TRUE;
    case HR_N_REVERSE:
    default:
      return FALSE;
    }
}

gboolean
hr_size_view_apply_pick (HrSizeView *self,
                         HrPickId    which)
{
  const HrPickState *p;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);

  if (self->advice == NULL || (guint) which >= HR_N_PICKS)
    return FALSE;
  p = &self->advice->picks[which];
  return p->gpu_id != NULL && hr_size_view_select_gpu (self, p->gpu_id, MAX (p->count, 1));
}

const HrAdviceState *
hr_size_view_get_advice (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->advice;
}

HrPicker *
hr_size_view_get_model_picker (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->model_picker;
}

HrPicker *
hr_size_view_get_gpu_picker (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->gpu_picker;
}

AdwComboRow *
hr_size_view_get_quant_row (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->quant_row;
}

AdwComboRow *
hr_size_view_get_kv_row (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->kv_row;
}

AdwComboRow *
hr_size_view_get_engine_row (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->engine_row;
}

GtkAdjustment *
hr_size_view_get_context_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->context_adjustment;
}

GtkAdjustment *
hr_size_view_get_gpus_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->gpus_adjustment;
}

GtkAdjustment *
hr_size_view_get_batch_adjustment (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->batch_adjustment;
}

const char *
hr_size_view_get_card_text (HrSizeView   *self,
                            HrSizeCardId  card)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  g_return_val_if_fail ((guint) card < HR_SIZE_N_CARDS, NULL);
  return gtk_label_get_label (self->card_values[card]);
}

const char *
hr_size_view_get_verdict_text (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return gtk_label_get_label (self->verdict_title);
}

HrChartWidget *
hr_size_view_get_chart (HrSizeView  *self,
                        HrChartKind  kind)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return kind == HR_CHART_CONTEXT ? self->context_chart : self->breakdown_chart;
}

HrSpeedSimulator *
hr_size_view_get_simulator (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), NULL);
  return self->simulator;
}

guint
hr_size_view_get_n_matrix_rows (HrSizeView *self)
{
  guint n = 0;

  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->matrix_list)); c; c = gtk_widget_get_next_sibling (c))
    if (g_object_get_data (G_OBJECT (c), "quant") != NULL)
      n++;
  return n;
}

gboolean
hr_size_view_is_busy (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), FALSE);
  return self->recompute_id != 0 || self->advice_idle_id != 0 || self->job != NULL || self->advice_pending;
}

guint
hr_size_view_get_n_recomputes (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->n_recomputes;
}

gint64
hr_size_view_get_last_recompute_us (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->last_recompute_us;
}

double
hr_size_view_get_last_advice_ms (HrSizeView *self)
{
  g_return_val_if_fail (HR_IS_SIZE_VIEW (self), 0);
  return self->last_advice_ms;
}
