/* fuzz-calibration.c — libFuzzer entry point for the saved calibration file's reader
 *
 * calibration.json lives in the user's data directory, where anything can end up: what the
 * reader accepts must be sane (ids clean, figures positive and finite where a fit is claimed)
 * and must write back to a document it reads again, equal. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-text.h"
#include "hr-user-calibration.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) cals = NULL;
  g_autoptr(GArray) again = NULL;
  g_autofree char *json = NULL;

  if (size > 1024 * 1024)
    return 0;
  cals = hr_user_calibration_parse ((const char *) data, size, &error);
  if (cals == NULL)
    {
      g_assert (error != NULL && error->domain == HR_USER_CALIBRATION_ERROR);
      return 0;
    }
  for (guint i = 0; i < cals->len; i++)
    {
      const HrDeviceCalibration *c = &g_array_index (cals, HrDeviceCalibration, i);
      g_assert (hr_text_is_clean (c->gpu_id));
      g_assert (c->decode_runs >= 0 && c->prefill_runs >= 0);
      if (c->decode_runs > 0)
        g_assert (isfinite (c->bytes_per_s) && c->bytes_per_s > 0 && isfinite (c->fixed_s) && c->fixed_s >= 0);
      if (c->prefill_runs > 0)
        g_assert (isfinite (c->prefill_scale) && c->prefill_scale > 0);
    }
  json = hr_user_calibration_to_json (cals);
  again = hr_user_calibration_parse (json, -1, &error);
  g_assert (again != NULL && again->len == cals->len);
  return 0;
}
