/* hr-runs-state.c — the Import Measurements dialog's rows and devices as words */
#include "hr-runs-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-scenario-state.h"
#include "hr-units.h"

#define DASH "—"

static void
figure_free (HrRunFigureState *f)
{
  g_free (f->quantity);
  g_free (f->measured);
  g_free (f->predicted);
  g_free (f->error);
  g_free (f);
}

static void
row_free (HrRunRowState *row)
{
  g_free (row->title);
  g_free (row->subtitle);
  g_free (row->reason);
  g_ptr_array_unref (row->figures);
  g_free (row);
}

static void
device_free (HrRunDeviceState *d)
{
  g_free (d->title);
  g_free (d->status);
  g_free (d->fit);
  g_free (d);
}

/* A measured or predicted figure in the unit the engine prints it in */
static char *
format_figure (HrMeasure m,
               double    v)
{
  char buf[64];

  if (!isfinite (v))
    return g_strdup (DASH);
  switch (m)
    {
    case HR_MEASURE_DECODE:
    case HR_MEASURE_PREFILL:
      hr_format_number_locale_buf (buf, sizeof buf, v, v < 1000 ? 1 : 0);
      /* TRANSLATORS: a measured speed, e.g. "45.2 tok/s" */
      return g_strdup_printf (_("%s tok/s"), buf);
    case HR_MEASURE_KV_TOKENS:
      hr_format_number_locale_buf (buf, sizeof buf, v, 0);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens", (gulong) MIN (v, 1e6)), buf);
    case HR_MEASURE_WEIGHTS:
    case HR_MEASURE_KV:
    case HR_MEASURE_BUFFERS:
    case HR_N_MEASURES:
    default:
      return hr_size_format_gib (v);
    }
}

char *
hr_runs_format_error (double error)
{
  char buf[64];

  if (!isfinite (error))
    return g_strdup (DASH);
  hr_format_number_locale_buf (buf, sizeof buf, fabs (error) * 100, 1);
  /* TRANSLATORS: the prediction's error against the measured figure, "+6.4 %" or "−12.0 %"
   * (U+2212, a minus sign) */
  return g_strdup_printf (error * 100 >= 0.05 ? _("+%s %%") : error * 100 <= -0.05 ? _("−%s %%") : _("%s %%"), buf);
}

const char *
hr_runs_error_css (double error)
{
  if (!isfinite (error))
    return NULL;
  if (fabs (error) <= HR_RUNS_ERROR_CLOSE)
    return "verdict-fits";
  if (fabs (error) <= HR_RUNS_ERROR_OFF)
    return "verdict-tight";
  return "verdict-exceeds";
}

/* "tg128", "pp512 @ d4096": llama-bench's own names for its tests */
static char *
test_name (const HrRun *r)
{
  if (r->n_prompt <= 0 && r->n_gen <= 0)
    return NULL;
  if (r->depth > 0)
    return g_strdup_printf ("%s%d @ d%" G_GINT64_FORMAT, r->n_prompt > 0 ? "pp" : "tg",
                            r->n_prompt > 0 ? r->n_prompt : r->n_gen, r->depth);
  return g_strdup_printf ("%s%d", r->n_prompt > 0 ? "pp" : "tg", r->n_prompt > 0 ? r->n_prompt : r->n_gen);
}

static void
append_part (GString    *s,
             const char *part)
{
  if (part == NULL || *part == '\0')
    return;
  if (s->len > 0)
    {
      /* TRANSLATORS: joins two parts of a line, "Q4_K_M · 8K context" */
      g_autofree char *joined = g_strdup_printf (_("%s · %s"), s->str, part);
      g_string_assign (s, joined);
    }
  else
    g_string_assign (s, part);
}

static HrRunRowState *
row_from_check (const HrRunCheck *c)
{
  HrRunRowState *row = g_new0 (HrRunRowState, 1);
  const HrRun *r = c->run;
  g_autoptr(GString) sub = g_string_new (NULL);
  g_autofree char *test = test_name (r);

  row->figures = g_ptr_array_new_with_free_func ((GDestroyNotify) figure_free);
  row->mapped = c->mapped;
  row->calibrated = c->mapped && c->estimate.calibrated;
  if (c->mapped)
    {
      g_autofree char *gpus = g_strdup_printf (_("%d × %s"), c->scenario.n_gpus, c->gpu->name);
      g_autofree char *engine = g_strdup_printf ("%s %s", hr_engine_to_string (c->scenario.engine),
                                                 hr_size_backend_display (hr_scenario_backend (&c->scenario)));
      g_autofree char *ctx_short = hr_format_context_short (c->scenario.context);
      g_autofree char *ctx = g_strdup_printf (_("%s context"), ctx_short);

      row->title = g_strdup (c->model->name);
      append_part (sub, c->scenario.quant);
      append_part (sub, gpus);
      append_part (sub, engine);
      append_part (sub, ctx);
    }
  else
    {
      row->title = g_strdup (r->model ? r->model : r->model_type ? r->model_type : _("Unnamed model"));
      append_part (sub, r->quant);
      append_part (sub, r->device);
      append_part (sub, r->backend);
      row->reason = g_strdup (c->reason);
    }
  append_part (sub, test);
  row->subtitle = g_string_free (g_steal_pointer (&sub), FALSE);

  for (int m = 0; m < HR_N_MEASURES; m++)
    {
      HrRunFigureState *f;

      if (!isfinite (r->measured[m]))
        continue;
      f = g_new0 (HrRunFigureState, 1);
      f->measure = m;
      f->quantity = g_strdup (hr_measure_display (m));
      f->measured = format_figure (m, r->measured[m]);
      f->error_value = c->mapped ? c->error[m] : NAN;
      if (c->mapped && isfinite (c->predicted[m]))
        {
          f->predicted = format_figure (m, c->predicted[m]);
          f->error = hr_runs_format_error (c->error[m]);
          f->error_css = hr_runs_error_css (c->error[m]);
        }
      g_ptr_array_add (row->figures, f);
    }
  return row;
}

static HrRunDeviceState *
find_device (GPtrArray  *devices,
             const char *gpu_id,
             HrBackend   backend)
{
  for (guint i = 0; i < devices->len; i++)
    {
      HrRunDeviceState *d = g_ptr_array_index (devices, i);
      if (d->backend == backend && g_str_equal (d->gpu_id, gpu_id))
        return d;
    }
  return NULL;
}

static HrRunDeviceState *
add_device (GPtrArray                 *devices,
            const HrCatalog           *catalog,
            const HrDeviceCalibration *cal)
{
  HrRunDeviceState *d = find_device (devices, cal->gpu_id, cal->backend);
  const HrGpu *gpu;

  if (d != NULL)
    return d;
  gpu = hr_catalog_find_gpu (catalog, cal->gpu_id);
  d = g_new0 (HrRunDeviceState, 1);
  g_strlcpy (d->gpu_id, cal->gpu_id, sizeof d->gpu_id);
  d->backend = cal->backend;
  d->title = g_strdup_printf (_("%s · %s"), gpu ? gpu->name : cal->gpu_id, hr_size_backend_display (cal->backend));
  d->status = g_strdup (_("Not calibrated"));
  g_ptr_array_add (devices, d);
  return d;
}

/* @run predicted on @catalog with @calibrations (NULL: none); what it leaves unsaid, one thing
 * at a time, from what the user said of it (state->hints), noted in state->missing */
static HrRunCheck *
check_run (HrRunsState     *state,
           HrRun           *run,
           const HrCatalog *catalog,
           GArray          *calibrations)
{
  HrRunHints given = { .calibrations = calibrations };
  HrRunCheck *c = hr_run_check (run, catalog, &given);
  char gpu_buf[96];

  while (!c->mapped && c->missing > HR_RUN_MISSING_NONE && c->missing < HR_RUN_MISSING_OTHER)
    {
      HrRunMissing what = c->missing;
      const char *id = state->hints[what];

      state->missing[what] = TRUE;
      if (id == NULL || (what == HR_RUN_MISSING_MODEL && given.model_id != NULL) ||
          (what == HR_RUN_MISSING_GPU && given.gpu_id != NULL) ||
          (what == HR_RUN_MISSING_QUANT && given.quant != NULL))
        break;
      if (what == HR_RUN_MISSING_MODEL)
        given.model_id = id;
      else if (what == HR_RUN_MISSING_GPU)
        {
          /* this computer's device is calibrated as the catalog GPU it matched, as
           * `calibrate --gpu this` does, so its calibration applies wherever it is chosen */
          const char *device = hr_user_calibration_device_id (hr_catalog_find_gpu (catalog, id),
                                                              gpu_buf, sizeof gpu_buf);
          given.gpu_id = device != NULL ? device : id;
        }
      else
        given.quant = id;
      hr_run_check_free (c);
      c = hr_run_check (run, catalog, &given);
    }
  return c;
}

/* Public API ---------------------------------------------------------------------------------- */

HrRunsState *
hr_runs_state_new (void)
{
  HrRunsState *state = g_new0 (HrRunsState, 1);

  state->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  state->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) device_free);
  state->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  state->checks = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);
  return state;
}

void
hr_runs_state_free (HrRunsState *state)
{
  if (state == NULL)
    return;
  g_free (state->error);
  g_free (state->summary);
  /* the checks borrow the runs */
  g_ptr_array_unref (state->checks);
  g_ptr_array_unref (state->runs);
  g_ptr_array_unref (state->rows);
  g_ptr_array_unref (state->devices);
  g_clear_pointer (&state->fits, g_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (state->hints); i++)
    g_free (state->hints[i]);
  g_free (state);
}

static void
clear_runs (HrRunsState *state)
{
  g_ptr_array_set_size (state->checks, 0);
  g_ptr_array_set_size (state->runs, 0);
  g_ptr_array_set_size (state->rows, 0);
  g_clear_pointer (&state->fits, g_array_unref);
  g_clear_pointer (&state->error, g_free);
  g_clear_pointer (&state->summary, g_free);
}

void
hr_runs_state_set_error (HrRunsState *state,
                         const char  *message)
{
  g_return_if_fail (state != NULL && message != NULL);

  clear_runs (state);
  state->error = g_strdup (message);
}

gboolean
hr_runs_state_set_text (HrRunsState *state,
                        const char  *text,
                        gssize       length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  const HrRun *r0;

  g_return_val_if_fail (state != NULL && text != NULL, FALSE);

  clear_runs (state);
  runs = hr_runs_parse (text, length, &error);
  if (runs == NULL)
    {
      state->error = g_strdup (error->message);
      return FALSE;
    }
  r0 = g_ptr_array_index (runs, 0);
  state->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u run", "%s: %u runs", runs->len),
                                    hr_run_format_display (r0->format), runs->len);
  if (r0->build != NULL)
    {
      /* TRANSLATORS: the engine's build the runs name, "8cf427ff (5163)", "vLLM 0.10.2" */
      g_autofree char *build = g_strdup_printf (_("build %s"), r0->build);
      g_autofree char *joined = g_strdup_printf (_("%s · %s"), state->summary, build);
      g_free (state->summary);
      state->summary = g_steal_pointer (&joined);
    }
  while (runs->len > 0)
    g_ptr_array_add (state->runs, g_ptr_array_steal_index (runs, 0));
  return TRUE;
}

void
hr_runs_state_set_hint (HrRunsState  *state,
                        HrRunMissing  what,
                        const char   *id)
{
  g_return_if_fail (state != NULL);
  g_return_if_fail (what > HR_RUN_MISSING_NONE && what < HR_RUN_MISSING_OTHER);

  g_free (state->hints[what]);
  state->hints[what] = g_strdup (id);
}

void
hr_runs_state_update (HrRunsState     *state,
                      const HrCatalog *catalog,
                      GArray          *calibrations,
                      GArray          *saved)
{
  g_return_if_fail (state != NULL && catalog != NULL);

  g_ptr_array_set_size (state->checks, 0);
  g_ptr_array_set_size (state->rows, 0);
  g_ptr_array_set_size (state->devices, 0);
  g_clear_pointer (&state->fits, g_array_unref);

  memset (state->missing, 0, sizeof state->missing);
  for (guint i = 0; i < state->runs->len; i++)
    {
      HrRunCheck *c = check_run (state, g_ptr_array_index (state->runs, i), catalog, calibrations);

      g_ptr_array_add (state->checks, c);
      g_ptr_array_add (state->rows, row_from_check (c));
    }

  /* the core fits only from runs it mapped fully, every layer on one device; and against
   * Headroom's own predictions: fitted to calibrated ones, a second Calibrate would undo the
   * first (prefill ×1.00) */
  if (calibrations == NULL)
    state->fits = hr_user_calibration_fit (state->checks, NULL);
  else
    {
      g_autoptr(GPtrArray) plain = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);

      for (guint i = 0; i < state->runs->len; i++)
        g_ptr_array_add (plain, check_run (state, g_ptr_array_index (state->runs, i), catalog, NULL));
      state->fits = hr_user_calibration_fit (plain, NULL);
    }
  for (guint i = 0; i < state->fits->len; i++)
    {
      const HrDeviceCalibration *fit = &g_array_index (state->fits, HrDeviceCalibration, i);
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, fit->gpu_id);
      HrRunDeviceState *d = add_device (state->devices, catalog, fit);
      g_autofree char *text = hr_user_calibration_describe (fit, gpu);

      /* TRANSLATORS: what the runs on screen would give, "These runs: calibrated from …" */
      d->fit = g_strdup_printf (_("These runs: %s"), text);
      d->can_calibrate = TRUE;
    }
  for (guint i = 0; saved != NULL && i < saved->len; i++)
    {
      const HrDeviceCalibration *cal = &g_array_index (saved, HrDeviceCalibration, i);
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, cal->gpu_id);
      HrRunDeviceState *d = add_device (state->devices, catalog, cal);
      g_autofree char *text = hr_user_calibration_describe (cal, gpu);

      g_free (d->status);
      /* TRANSLATORS: the calibration estimates on this device use, "In use: calibrated from …" */
      d->status = calibrations != NULL ? g_strdup_printf (_("In use: %s"), text)
                                       : g_strdup_printf (_("Turned off: %s"), text);
      d->saved = TRUE;
    }
}

GArray *
hr_runs_state_fit_for (HrRunsState *state,
                       const char  *gpu_id,
                       HrBackend    backend)
{
  GArray *out;

  g_return_val_if_fail (state != NULL && gpu_id != NULL, NULL);

  if (state->fits == NULL || hr_user_calibration_find (state->fits, gpu_id, backend) == NULL)
    return NULL;
  out = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  g_array_append_vals (out, hr_user_calibration_find (state->fits, gpu_id, backend), 1);
  return out;
}

char *
hr_runs_calibration_summary (const HrScenario *scenario,
                             GArray           *saved,
                             gboolean          use)
{
  const HrDeviceCalibration *cal = NULL;
  char buf[96];

  g_return_val_if_fail (scenario != NULL, NULL);

  /* a calibration fits llama.cpp's speeds only */
  if (scenario->engine == HR_ENGINE_LLAMA_CPP)
    cal = hr_user_calibration_find (saved, hr_user_calibration_device_id (scenario->gpu, buf, sizeof buf),
                                    hr_scenario_backend (scenario));
  if (cal != NULL)
    {
      g_autofree char *text = hr_user_calibration_describe (cal, scenario->gpu);
      return use ? g_strdup_printf (_("In use: %s"), text) : g_strdup_printf (_("Turned off: %s"), text);
    }
  return g_strdup (_("Your own runs beside Headroom’s figures, and this GPU calibrated to them"));
}
