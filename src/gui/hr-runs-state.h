/* hr-runs-state.h — what the Import Measurements dialog shows, as plain strings
 *
 * The user's runs (hr-runs.h) read from a file, a paste or a llama-bench run, each set against
 * Headroom's prediction for the same scenario (hr_run_check), and per device the calibration
 * in use beside the one these runs would give (hr-user-calibration.h).  The core computes;
 * this only words and formats, so the dialog's whole text is tested without a display
 * (tests/test-runs-state.c).  No GTK in here.
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-runs.h"
#include "hr-user-calibration.h"

G_BEGIN_DECLS

/* An error within these bounds (|predicted / measured − 1|) is shown as close, then as off,
 * beyond as wrong: the verdict's colours (verdict-fits, -tight, -exceeds). */
#define HR_RUNS_ERROR_CLOSE 0.10
#define HR_RUNS_ERROR_OFF   0.25

typedef struct
{
  HrMeasure measure;
  char *quantity;        /* "Decode" */
  char *measured;        /* "45.2 tok/s" */
  char *predicted;       /* "48.1 tok/s"; NULL without a prediction */
  char *error;           /* "+6.4 %"; NULL without a prediction */
  double error_value;    /* predicted / measured − 1; NAN */
  const char *error_css; /* "verdict-fits", "verdict-tight", "verdict-exceeds"; NULL */
} HrRunFigureState;

typedef struct
{
  char *title;           /* the model: "Qwen2.5 7B Instruct", or as the run names it */
  char *subtitle;        /* "Q4_K_M · 1 × RTX 4090 · llama.cpp CUDA · 4K context · tg128" */
  char *reason;          /* why there is no prediction; NULL when mapped */
  gboolean mapped;
  gboolean calibrated;   /* the prediction uses the user's calibration */
  GPtrArray *figures;    /* HrRunFigureState */
} HrRunRowState;

typedef struct
{
  char gpu_id[96];
  HrBackend backend;
  char *title;           /* "RTX 4090 · CUDA" */
  char *status;          /* "calibrated from 4 runs of yours, …" or "Not calibrated" */
  char *fit;             /* what these runs would give; NULL when they give nothing */
  gboolean saved;        /* a calibration is kept: it can be removed */
  gboolean can_calibrate;
} HrRunDeviceState;

typedef struct
{
  char *error;           /* the one message when the text could not be read; NULL */
  char *summary;         /* "llama-bench JSON: 4 runs · build 8cf427ff (5163)"; NULL */
  GPtrArray *rows;       /* HrRunRowState */
  GPtrArray *devices;    /* HrRunDeviceState: these runs' devices, then every saved one */
  /* what the rows come from */
  GPtrArray *runs;       /* HrRun */
  GPtrArray *checks;     /* HrRunCheck */
  GArray *fits;          /* HrDeviceCalibration these runs give */
  /* what the user says of runs whose text does not say it (hr_runs_state_set_hint) */
  char *hints[HR_RUN_MISSING_OTHER];
  /* some run could be mapped with this hint (HR_RUN_MISSING_MODEL, _GPU, _QUANT) */
  gboolean missing[HR_RUN_MISSING_OTHER];
} HrRunsState;

HrRunsState *hr_runs_state_new          (void);
void         hr_runs_state_free         (HrRunsState       *state);

/* Reads @text (@length bytes, -1: NUL-terminated).  FALSE when it holds no run: the state's
 * error says why (its runs are then none). */
gboolean     hr_runs_state_set_text     (HrRunsState       *state,
                                         const char        *text,
                                         gssize             length);
/* The error for an input that could not even be read ("cannot read …: reason"). */
void         hr_runs_state_set_error    (HrRunsState       *state,
                                         const char        *message);
/* The catalog id a run that does not name its model (@what HR_RUN_MISSING_MODEL), GPU or
 * quant is taken to have used (NULL: none).  It applies only to the runs that need it: a run
 * that names its own is predicted as it says. */
void         hr_runs_state_set_hint     (HrRunsState       *state,
                                         HrRunMissing       what,
                                         const char        *id);
/* Predicts every run on @catalog with @calibrations (borrowed; NULL: none) and words rows
 * and devices; @saved lists the calibrations kept (may be NULL). */
void         hr_runs_state_update       (HrRunsState       *state,
                                         const HrCatalog   *catalog,
                                         GArray            *calibrations,
                                         GArray            *saved);
/* The calibration these runs give @gpu_id on @backend, as an array to save; NULL when none. */
GArray      *hr_runs_state_fit_for      (HrRunsState       *state,
                                         const char        *gpu_id,
                                         HrBackend          backend);

/* The Size view's line on the scenario's device: the calibration in use, turned off, or how to
 * get one. */
char        *hr_runs_calibration_summary (const HrScenario *scenario,
                                          GArray           *saved,
                                          gboolean          use);

/* "+6.4 %", "−12.0 %" */
char        *hr_runs_format_error       (double             error);
const char  *hr_runs_error_css          (double             error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrRunsState, hr_runs_state_free)

G_END_DECLS
