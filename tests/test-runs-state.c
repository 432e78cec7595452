/* test-runs-state.c — the Import Measurements dialog's words, and calibrating through the
 * session, without a display
 *
 * A llama-bench JSON fixture read into rows with measured, predicted and error; calibrating its
 * device makes the session's estimate on that device calibrated (its basis says so, its decode
 * within 5 % of the run); the switch turns it off; removing it leaves the estimate as before.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "hr-runs-state.h"
#include "hr-session.h"
#include "hr-user-calibration.h"

static HrCatalog *catalog;

static char *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "runs", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static const HrRunFigureState *
figure_of (const HrRunRowState *row,
           HrMeasure            m)
{
  for (guint i = 0; i < row->figures->len; i++)
    {
      const HrRunFigureState *f = g_ptr_array_index (row->figures, i);
      if (f->measure == m)
        return f;
    }
  return NULL;
}

/* bench-rx7900xtx-rocm.md: Llama 3.1 8B on an RX 7900 XTX (ROCm); the table names neither the
 * catalog model nor the GPU, which the user gives */
static HrRunsState *
rocm_state (GArray *calibrations,
            GArray *saved)
{
  g_autofree char *text = fixture ("bench-rx7900xtx-rocm.md");
  HrRunsState *st = hr_runs_state_new ();

  g_assert_true (hr_runs_state_set_text (st, text, -1));
  hr_runs_state_set_hint (st, HR_RUN_MISSING_MODEL, "llama-3.1-8b");
  hr_runs_state_set_hint (st, HR_RUN_MISSING_GPU, "rx-7900-xtx-24gb");
  hr_runs_state_update (st, catalog, calibrations, saved);
  return st;
}

static void
test_rows (void)
{
  g_autoptr(HrRunsState) st = rocm_state (NULL, NULL);
  const HrRunRowState *tg, *pp;
  const HrRunFigureState *f;
  const HrRunDeviceState *d;

  g_assert_null (st->error);
  g_assert_cmpstr (st->summary, ==, "llama-bench table: 5 runs");
  g_assert_cmpuint (st->rows->len, ==, 5);
  g_assert_true (st->missing[HR_RUN_MISSING_MODEL] && st->missing[HR_RUN_MISSING_GPU]);
  g_assert_false (st->missing[HR_RUN_MISSING_QUANT]);

  tg = g_ptr_array_index (st->rows, 0);
  pp = g_ptr_array_index (st->rows, 2);
  g_assert_true (tg->mapped && pp->mapped);
  g_assert_null (tg->reason);
  g_assert_cmpstr (tg->title, ==, hr_catalog_find_model (catalog, "llama-3.1-8b")->name);
  g_assert_true (g_str_has_prefix (tg->subtitle, "Q4_K_M · 1 × "));
  g_assert_nonnull (strstr (tg->subtitle, "7900 XTX"));
  g_assert_nonnull (strstr (tg->subtitle, "llama.cpp ROCm"));
  g_assert_true (g_str_has_suffix (tg->subtitle, " · tg64"));
  g_assert_true (g_str_has_suffix (((HrRunRowState *) g_ptr_array_index (st->rows, 1))->subtitle, " · tg64 @ d4096"));

  f = figure_of (tg, HR_MEASURE_DECODE);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->quantity, ==, "Decode");
  g_assert_cmpstr (f->measured, ==, "105.8 tok/s");
  g_assert_nonnull (f->predicted);
  g_assert_true (g_str_has_suffix (f->predicted, " tok/s"));
  g_assert_true (isfinite (f->error_value));
  {
    g_autofree char *e = hr_runs_format_error (f->error_value);
    g_assert_cmpstr (f->error, ==, e);
  }
  g_assert_cmpstr (f->error_css, ==, hr_runs_error_css (f->error_value));
  g_assert_null (figure_of (tg, HR_MEASURE_PREFILL));
  f = figure_of (pp, HR_MEASURE_PREFILL);
  g_assert_cmpstr (f->measured, ==, "3189 tok/s");
  g_assert_nonnull (f->predicted);

  /* the device these runs calibrate: nothing kept yet */
  g_assert_cmpuint (st->devices->len, ==, 1);
  d = g_ptr_array_index (st->devices, 0);
  g_assert_cmpstr (d->gpu_id, ==, "rx-7900-xtx-24gb");
  g_assert_true (d->can_calibrate);
  g_assert_false (d->saved);
  g_assert_cmpstr (d->status, ==, "Not calibrated");
  g_assert_true (g_str_has_prefix (d->fit, "These runs: calibrated from 5 runs of yours, "));
  g_assert_nonnull (strstr (d->fit, " % of 960 GB/s, prefill ×"));
}

/* What the text does not say stays unsaid until the user says it: listed, no prediction */
static void
test_hints (void)
{
  g_autofree char *text = fixture ("bench-rx7900xtx-rocm.md");
  g_autoptr(HrRunsState) st = hr_runs_state_new ();
  const HrRunRowState *row;

  g_assert_true (hr_runs_state_set_text (st, text, -1));
  hr_runs_state_update (st, catalog, NULL, NULL);
  row = g_ptr_array_index (st->rows, 0);
  g_assert_false (row->mapped);
  g_assert_nonnull (strstr (row->reason, "llama 8B Q4_K - Medium"));
  g_assert_true (st->missing[HR_RUN_MISSING_MODEL]);
  g_assert_false (st->missing[HR_RUN_MISSING_GPU]);
  g_assert_cmpuint (st->devices->len, ==, 0);

  hr_runs_state_set_hint (st, HR_RUN_MISSING_MODEL, "llama-3.1-8b");
  hr_runs_state_update (st, catalog, NULL, NULL);
  row = g_ptr_array_index (st->rows, 0);
  g_assert_false (row->mapped);
  g_assert_true (st->missing[HR_RUN_MISSING_GPU]);
  g_assert_cmpstr (row->title, ==, "llama 8B Q4_K - Medium");
  g_assert_null (((HrRunFigureState *) g_ptr_array_index (row->figures, 0))->predicted);
  /* a run that names its own GPU keeps it: the RX 580 table is not moved onto the hint */
  {
    g_autofree char *rx580 = fixture ("bench-vulkan-rx580.md");
    g_autoptr(HrRunsState) other = hr_runs_state_new ();

    g_assert_true (hr_runs_state_set_text (other, rx580, -1));
    hr_runs_state_set_hint (other, HR_RUN_MISSING_MODEL, "qwen3-8b");
    hr_runs_state_update (other, catalog, NULL, NULL);
    row = g_ptr_array_index (other->rows, 0);
    g_assert_false (row->mapped);
    g_assert_nonnull (strstr (row->reason, "AMD Radeon RX 580 Series"));
    g_assert_false (other->missing[HR_RUN_MISSING_MODEL]);
  }
}

/* This computer's GPU said as the runs' GPU: calibrated as the catalog GPU it matched, as
 * `calibrate --gpu this` does, so the calibration applies to it */
static void
test_this_computer (void)
{
  g_autoptr(GError) error = NULL;
  HrCatalog *own = hr_catalog_new_default (&error);
  HrGpu *here = hr_gpu_copy (hr_catalog_find_gpu (own, "rx-7900-xtx-24gb"));
  g_autofree char *text = fixture ("bench-rx7900xtx-rocm.md");
  g_autoptr(HrRunsState) st = hr_runs_state_new ();
  const HrRunDeviceState *d;

  g_assert_no_error (error);
  g_free (here->id);
  here->id = g_strdup ("this");
  g_free (here->source);
  here->source = g_strdup ("detected (amd-smi); specs: catalog rx-7900-xtx-24gb");
  hr_catalog_add_gpu (own, here);
  g_assert_true (hr_runs_state_set_text (st, text, -1));
  hr_runs_state_set_hint (st, HR_RUN_MISSING_MODEL, "llama-3.1-8b");
  hr_runs_state_set_hint (st, HR_RUN_MISSING_GPU, "this");
  hr_runs_state_update (st, own, NULL, NULL);
  g_assert_true (((HrRunRowState *) g_ptr_array_index (st->rows, 0))->mapped);
  g_assert_cmpuint (st->devices->len, ==, 1);
  d = g_ptr_array_index (st->devices, 0);
  g_assert_cmpstr (d->gpu_id, ==, "rx-7900-xtx-24gb");
  hr_catalog_free (own);
}

static void
test_errors (void)
{
  g_autoptr(HrRunsState) st = hr_runs_state_new ();
  g_autofree char *text = fixture ("bench-readme-mismatch.csv");

  /* one clear message, no rows */
  g_assert_false (hr_runs_state_set_text (st, "hello, world\n", -1));
  hr_runs_state_update (st, catalog, NULL, NULL);
  g_assert_nonnull (st->error);
  g_assert_null (strchr (st->error, '\n'));
  g_assert_cmpuint (st->rows->len, ==, 0);
  g_assert_false (hr_runs_state_set_text (st, "", -1));
  g_assert_nonnull (st->error);
  g_assert_false (hr_runs_state_set_text (st, text, -1));
  g_assert_nonnull (strstr (st->error, "line"));
  g_assert_cmpuint (st->runs->len, ==, 0);
  /* reading again clears the message */
  g_clear_pointer (&text, g_free);
  text = fixture ("bench-readme.json");
  g_assert_true (hr_runs_state_set_text (st, text, -1));
  g_assert_null (st->error);
}

/* A run the catalog cannot map: listed with its reason and no prediction */
static void
test_unmapped (void)
{
  g_autofree char *text = fixture ("vllm-h100-qwen3-235b.log");
  g_autoptr(HrRunsState) st = hr_runs_state_new ();
  const HrRunRowState *row;

  g_assert_true (hr_runs_state_set_text (st, text, -1));
  hr_runs_state_update (st, catalog, NULL, NULL);
  g_assert_cmpuint (st->rows->len, >=, 1);
  row = g_ptr_array_index (st->rows, 0);
  g_assert_false (row->mapped);
  g_assert_nonnull (row->reason);
  g_assert_cmpuint (row->figures->len, >, 0);
  for (guint i = 0; i < row->figures->len; i++)
    {
      const HrRunFigureState *f = g_ptr_array_index (row->figures, i);
      g_assert_nonnull (f->measured);
      g_assert_null (f->predicted);
      g_assert_null (f->error);
      g_assert_null (f->error_css);
    }
  g_assert_cmpuint (st->devices->len, ==, 0);
}

static void
test_error_words (void)
{
  g_autofree char *a = hr_runs_format_error (0.064);
  g_autofree char *b = hr_runs_format_error (-0.12);
  g_autofree char *c = hr_runs_format_error (0.0001);

  g_assert_cmpstr (a, ==, "+6.4 %");
  g_assert_cmpstr (b, ==, "−12.0 %");
  g_assert_cmpstr (c, ==, "0.0 %");
  g_assert_cmpstr (hr_runs_error_css (0.10), ==, "verdict-fits");
  g_assert_cmpstr (hr_runs_error_css (-0.2), ==, "verdict-tight");
  g_assert_cmpstr (hr_runs_error_css (0.3), ==, "verdict-exceeds");
  g_assert_null (hr_runs_error_css (NAN));
}

/* Calibrate from the runs → the session's estimate on that device is calibrated; off; removed */
static void
test_calibrate_session (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-runs-state-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "calibration.json", NULL);
  g_autoptr(HrRunsState) st = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) fit = NULL;
  HrSession *session = hr_session_new (hr_catalog_new_default (&error), NULL, NULL);
  const HrRunDeviceState *d;
  const HrRunCheck *tg;
  const HrScenario *s;
  HrEstimate plain, cal;
  double measured;

  g_assert_no_error (error);
  hr_session_set_calibration_dir (session, dir);
  g_assert_cmpuint (hr_session_get_calibrations (session)->len, ==, 0);
  st = rocm_state (hr_session_get_calibrations (session), hr_session_get_calibrations (session));
  tg = g_ptr_array_index (st->checks, 0);
  measured = tg->run->measured[HR_MEASURE_DECODE];

  /* the Size view on the run's scenario, before */
  hr_session_set_model (session, tg->model->id);
  hr_session_set_gpu (session, tg->gpu->id);
  hr_session_set_quant (session, tg->scenario.quant);
  g_object_set (session, "context", (gint64) MAX (tg->scenario.context, 2048),
                "backend", hr_backend_to_string (hr_scenario_backend (&tg->scenario)), NULL);
  s = hr_session_get_scenario (session);
  g_assert_null (s->calibration);
  g_assert_true (hr_estimate_compute (s, NULL, &plain, NULL));
  g_assert_false (plain.calibrated);
  {
    g_autofree char *line = hr_runs_calibration_summary (s, hr_session_get_calibrations (session), TRUE);
    g_assert_null (strstr (line, "calibrated from"));
  }

  /* calibrate the device from these runs */
  d = g_ptr_array_index (st->devices, 0);
  fit = hr_runs_state_fit_for (st, d->gpu_id, d->backend);
  g_assert_nonnull (fit);
  g_assert_null (hr_runs_state_fit_for (st, "no-such-gpu", d->backend));
  g_assert_true (hr_session_save_calibrations (session, fit, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  s = hr_session_get_scenario (session);
  g_assert_nonnull (s->calibration);
  g_assert_true (hr_estimate_compute (s, NULL, &cal, NULL));
  g_assert_true (cal.calibrated);
  g_assert_cmpfloat (fabs (cal.decode_tps / measured - 1), <=, 0.05);
  {
    g_autofree char *basis = hr_basis_text (&cal.decode_basis);
    g_autofree char *line = hr_runs_calibration_summary (s, hr_session_get_calibrations (session), TRUE);

    g_assert_nonnull (strstr (basis, "calibrated from 3 runs of yours, "));
    g_assert_true (g_str_has_prefix (line, "In use: calibrated from 5 runs of yours, "));
    g_assert_nonnull (strstr (line, " % of "));
  }
  /* the dialog's rows follow: predicted with the calibration, the device kept */
  hr_runs_state_update (st, hr_session_get_catalog (session), hr_session_get_calibrations (session),
                        hr_session_get_calibrations (session));
  for (guint i = 0; i < st->rows->len; i++)
    g_assert_true (((HrRunRowState *) g_ptr_array_index (st->rows, i))->calibrated);
  d = g_ptr_array_index (st->devices, 0);
  g_assert_true (d->saved);
  g_assert_true (g_str_has_prefix (d->status, "In use: calibrated from 5 runs of yours"));
  /* what these runs give is still fitted to Headroom's own predictions: calibrating again
   * keeps the calibration (prefill ×1.00 would undo it) */
  g_assert_cmpstr (strstr (d->fit, "calibrated from"), ==, strstr (d->status, "calibrated from"));
  {
    g_autoptr(GArray) again = hr_runs_state_fit_for (st, d->gpu_id, d->backend);
    const HrDeviceCalibration *a = &g_array_index (again, HrDeviceCalibration, 0);
    const HrDeviceCalibration *b = &g_array_index (fit, HrDeviceCalibration, 0);

    g_assert_cmpfloat (a->prefill_scale, ==, b->prefill_scale);
    g_assert_cmpfloat (a->bytes_per_s, ==, b->bytes_per_s);
  }

  /* the switch */
  hr_session_set_use_calibration (session, FALSE);
  s = hr_session_get_scenario (session);
  g_assert_null (s->calibration);
  g_assert_true (hr_estimate_compute (s, NULL, &cal, NULL));
  g_assert_false (cal.calibrated);
  g_assert_cmpfloat (cal.decode_tps, ==, plain.decode_tps);
  {
    g_autofree char *line = hr_runs_calibration_summary (s, hr_session_get_calibrations (session), FALSE);
    g_assert_true (g_str_has_prefix (line, "Turned off: "));
  }
  hr_session_set_use_calibration (session, TRUE);
  g_assert_nonnull (hr_session_get_scenario (session)->calibration);

  /* remove */
  g_assert_cmpint (hr_session_remove_calibration (session, d->gpu_id, &error), ==, 1);
  g_assert_no_error (error);
  s = hr_session_get_scenario (session);
  g_assert_null (s->calibration);
  g_assert_true (hr_estimate_compute (s, NULL, &cal, NULL));
  g_assert_false (cal.calibrated);
  g_assert_cmpfloat (cal.decode_tps, ==, plain.decode_tps);
  g_assert_cmpuint (hr_session_get_calibrations (session)->len, ==, 0);

  g_assert_finalize_object (session);
  g_remove (file);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);
  g_test_add_func ("/runs-state/rows", test_rows);
  g_test_add_func ("/runs-state/hints", test_hints);
  g_test_add_func ("/runs-state/this-computer", test_this_computer);
  g_test_add_func ("/runs-state/errors", test_errors);
  g_test_add_func ("/runs-state/unmapped", test_unmapped);
  g_test_add_func ("/runs-state/error-words", test_error_words);
  g_test_add_func ("/runs-state/calibrate-session", test_calibrate_session);
  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
