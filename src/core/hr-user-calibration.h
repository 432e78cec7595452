/* hr-user-calibration.h — the user's own runs as ground truth for one device
 *
 * From llama.cpp runs on a device (llama-bench results read by hr-runs.h and mapped by
 * hr_run_check), fit what the device really does:
 * - decode: time per token = bytes read per token / effective bandwidth + fixed cost.  With runs
 *   whose bytes per token differ by 20 % or more both are fitted (least squares, the fixed
 *   cost kept >= 0); otherwise the bandwidth only, beside Headroom's own fixed cost;
 * - prefill: the median ratio of measured to predicted prompt rate.
 * A calibration applies to estimates of the same catalog GPU on the same llama.cpp backend,
 * memory-bound decode with every layer on the device (offloaded layers run at RAM speed, which
 * the device's runs do not measure) and prefill; it never changes memory figures.
 *
 * Kept in g_get_user_data_dir()/headroom/calibration.json (schema 1), written atomically;
 * a damaged file is moved aside, never overwritten.
 */
#pragma once

#include <glib.h>

#include "hr-estimate.h"
#include "hr-runs.h"

G_BEGIN_DECLS

#define HR_USER_CALIBRATION_ERROR (hr_user_calibration_error_quark ())
typedef enum
{
  HR_USER_CALIBRATION_ERROR_NO_RUNS,   /* no run that can calibrate a device */
  HR_USER_CALIBRATION_ERROR_IO,        /* the file cannot be read or written */
  HR_USER_CALIBRATION_ERROR_CORRUPT,   /* the file was damaged; moved aside */
  HR_USER_CALIBRATION_ERROR_NEWER,     /* written by a newer Headroom: left as it is */
} HrUserCalibrationError;

GQuark hr_user_calibration_error_quark (void);

/* One device's calibration. */
typedef struct _HrDeviceCalibration
{
  char gpu_id[96];          /* catalog GPU id */
  HrBackend backend;        /* llama.cpp backend of the runs */
  char date[11];            /* YYYY-MM-DD of the fit */
  int decode_runs;          /* runs the decode fit used (0: none) */
  double bytes_per_s;       /* effective bandwidth; NAN without decode runs */
  double fixed_s;           /* fixed cost per token (s) */
  gboolean fixed_fitted;    /* the fixed cost was fitted too (else Headroom's) */
  int prefill_runs;         /* runs behind prefill_scale (0: none) */
  double prefill_scale;     /* measured / predicted prompt rate; NAN without prefill runs */
} HrDeviceCalibration;

/* Fits one calibration per (GPU, backend) from @checks (HrRunCheck*, mapped llama.cpp runs with
 * every layer on the device; others are skipped).  @date is "YYYY-MM-DD" (NULL: today).
 * Returns an array of HrDeviceCalibration, empty when no run qualifies. */
GArray     *hr_user_calibration_fit     (GPtrArray       *checks,
                                         const char      *date);

/* The catalog id a calibration of @gpu is kept under: its own id, or for this computer's
 * detected device the catalog GPU it matched ("specs: catalog rtx-4090-24gb"); NULL when a
 * detected device matched none. */
const char *hr_user_calibration_device_id (const HrGpu   *gpu,
                                           char          *buf,
                                           gsize          size);

/* The calibration for @gpu_id on @backend in @cals (HrDeviceCalibration), or NULL. */
const HrDeviceCalibration *
            hr_user_calibration_find    (GArray          *cals,
                                         const char      *gpu_id,
                                         HrBackend        backend);

/* What @cal says, for the user: "calibrated from 4 runs of yours, 2026-12-05: 91 % of
 * 1008 GB/s, prefill ×0.87" (translated; @gpu, may be NULL, gives the published bandwidth the
 * fitted one is a share of). */
char       *hr_user_calibration_describe (const HrDeviceCalibration *cal,
                                          const HrGpu               *gpu);

/* Applies @cal to @est, computed for @scenario without it: decode (memory-bound, all on the
 * device) and prefill speeds, TTFT and cost per token follow; the bases say so.  Returns TRUE
 * when anything changed. */
gboolean    hr_user_calibration_apply   (const HrDeviceCalibration *cal,
                                         const HrScenario *scenario,
                                         HrEstimate      *est);

/* The file: calibration.json in @dir (NULL: g_get_user_data_dir()/headroom).  A missing file
 * loads as an empty array. */
GArray     *hr_user_calibration_load    (const char      *dir,
                                         GError         **error);
/* Replaces the saved calibrations of the same (GPU, backend) as @cals' entries, keeps the others. */
gboolean    hr_user_calibration_save    (const char      *dir,
                                         GArray          *cals,
                                         GError         **error);
/* Removes the saved calibrations of @gpu_id (every backend; NULL: all).  Returns how many. */
int         hr_user_calibration_remove  (const char      *dir,
                                         const char      *gpu_id,
                                         GError         **error);
/* Parses the file's text (for tests and the fuzzer); NULL with @error on damage. */
GArray     *hr_user_calibration_parse   (const char      *text,
                                         gssize           length,
                                         GError         **error);
/* The file's text for @cals. */
char       *hr_user_calibration_to_json (GArray          *cals);

G_END_DECLS
