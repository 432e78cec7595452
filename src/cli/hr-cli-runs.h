/* hr-cli-runs.h — what `check` and `calibrate` share: reading runs, printing a run and its figures */
#pragma once

#include <glib.h>

#include "hr-runs.h"
#include "hr-user-calibration.h"

G_BEGIN_DECLS

/* What check and calibrate read: FILE (a regular file; a FIFO or device is refused before it can
 * block) or standard input for "-", at most HR_RUNS_MAX_BYTES + 1 bytes. */
GBytes         *hr_cli_read_runs_input      (const char      *path,
                                             GError         **error);
/* The runs in @path, or NULL after printing "@who: PATH: reason". */
GPtrArray      *hr_cli_read_runs            (const char      *who,
                                             const char      *path);

/* "\nline 3: llama-3.1-8b Q4_K_M on 1 × Radeon RX 7900 XTX 24GB, llama.cpp ROCm, tg64" (as the
 * run names the model and its test when it was not mapped) */
void            hr_cli_print_run            (const HrRunCheck *check);
/* "  Decode           measured 105.8 t/s, predicted 110.3 t/s, error +4.3 %", then ", calibrated
 * 107.9 t/s, error +2.0 %" when @calibrated is finite; nothing when the run did not measure @m. */
void            hr_cli_print_figure         (const HrRunCheck *check,
                                             HrMeasure        m,
                                             double           calibrated);
/* @check is a run on @cal's GPU and backend. */
gboolean        hr_cli_run_on_device        (const HrRunCheck *check,
                                             const HrDeviceCalibration *cal);

G_END_DECLS
