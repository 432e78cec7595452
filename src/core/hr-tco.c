/* hr-tco.c — rent versus buy
 *
 * The seed pages' arithmetic, kept exact: a month is 30.4 days, electricity is the board power
 * at the same hours per day as the cloud rental.
 */
#include "hr-tco.h"

#include <math.h>

/* Inputs come from spin buttons and the command line: NaN, negative and infinite values count
 * as nothing rather than poisoning every figure downstream, and the cap keeps every product
 * below (months × $/h × hours × $/kWh …) finite, so no inf − inf or inf × 0 makes a NaN. */
#define INPUT_MAX 1e15

static double
sane (double value)
{
  return isfinite (value) && value > 0 ? MIN (value, INPUT_MAX) : 0;
}

void
hr_tco_compute (const HrTcoInput *in,
                HrTcoResult      *out)
{
  double hours;
  double saving;

  g_return_if_fail (in != NULL);
  g_return_if_fail (out != NULL);

  hours = MIN (sane (in->hours_per_day), 24.0);
  out->cloud_monthly = sane (in->usd_per_hour) * hours * HR_DAYS_PER_MONTH;
  out->electricity_monthly = sane (in->power_w) / 1000.0 * hours * HR_DAYS_PER_MONTH
                             * sane (in->usd_per_kwh);

  /* Buying pays off only if running the card at home is cheaper than renting it. */
  saving = out->cloud_monthly - out->electricity_monthly;
  if (saving <= 0)
    out->months_to_amortise = INFINITY;
  else
    out->months_to_amortise = sane (in->hardware_usd) / saving;
}

void
hr_tco_cumulative (const HrTcoInput *in,
                   double            month,
                   double           *cloud_usd,
                   double           *buy_usd)
{
  HrTcoResult result;

  g_return_if_fail (in != NULL);

  hr_tco_compute (in, &result);
  month = sane (month);
  if (cloud_usd != NULL)
    *cloud_usd = result.cloud_monthly * month;
  if (buy_usd != NULL)
    *buy_usd = sane (in->hardware_usd) + result.electricity_monthly * month;
}
