/* hr-runs-dialog.h — Import Measurements: the user's own runs beside Headroom's prediction
 *
 * A file dropped or opened, text pasted, or llama-bench run on a GGUF file the user picks (only
 * when asked, cancellable) is read by the core readers (hr-runs.h) and shown run by run:
 * measured, predicted and the error, coloured as the verdicts are.  Per device, the calibration
 * in use, "Calibrate" from these runs, "Remove" a kept one, and the switch that turns
 * calibration off; the session keeps them (hr_session_save_calibrations ()).  The words come
 * from hr-runs-state.h.
 */
#pragma once

#include <adwaita.h>

#include "hr-runs-state.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_RUNS_DIALOG (hr_runs_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HrRunsDialog, hr_runs_dialog, HR, RUNS_DIALOG, AdwWindow)

HrRunsDialog   *hr_runs_dialog_new          (GtkWindow     *parent,
                                             HrSession     *session);

/* What a paste or a drop of text does. */
void            hr_runs_dialog_read_text    (HrRunsDialog  *self,
                                             const char    *text);
/* What a dropped or opened file does (read in a worker thread, at most what a reader takes). */
void            hr_runs_dialog_read_file    (HrRunsDialog  *self,
                                             GFile         *file);
/* llama-bench as found on PATH when the dialog was made; NULL when there is none. */
const char     *hr_runs_dialog_get_bench_program (HrRunsDialog *self);
/* Runs `llama-bench -m @gguf -p 512 -n 128 -r 2 -o json` and reads its output; what the
 * "Run llama-bench" row does once a file is chosen. */
void            hr_runs_dialog_run_bench    (HrRunsDialog  *self,
                                             const char    *gguf);
void            hr_runs_dialog_cancel       (HrRunsDialog  *self);
/* A file is being read or llama-bench runs. */
gboolean        hr_runs_dialog_is_busy      (HrRunsDialog  *self);
/* What the model, GPU or quant picker does: the catalog id runs that do not name one used. */
void            hr_runs_dialog_set_hint     (HrRunsDialog  *self,
                                             HrRunMissing   what,
                                             const char    *id);
const HrRunsState *hr_runs_dialog_get_state (HrRunsDialog  *self);
/* The device rows' buttons: calibrate from these runs, remove the kept calibration. */
gboolean        hr_runs_dialog_calibrate    (HrRunsDialog  *self,
                                             const char    *gpu_id,
                                             HrBackend      backend);
gboolean        hr_runs_dialog_remove       (HrRunsDialog  *self,
                                             const char    *gpu_id);

G_END_DECLS
