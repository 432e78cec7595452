/* hr-tco.h — rent versus buy */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_DAYS_PER_MONTH 30.4

typedef struct
{
  double usd_per_hour;      /* cloud price */
  double hours_per_day;     /* active use */
  double hardware_usd;      /* purchase budget */
  double power_w;           /* board power of the local hardware */
  double usd_per_kwh;       /* electricity price (0.175 default) */
} HrTcoInput;

typedef struct
{
  double cloud_monthly;       /* usd_per_hour × hours/day × 30.4 */
  double electricity_monthly; /* kW × hours/day × 30.4 × $/kWh */
  double months_to_amortise;  /* hardware ÷ (cloud − electricity); INFINITY when never */
} HrTcoResult;

void            hr_tco_compute              (const HrTcoInput *in,
                                             HrTcoResult     *out);
/* Cumulative cost after @month months: cloud and buy (hardware + electricity). */
void            hr_tco_cumulative           (const HrTcoInput *in,
                                             double           month,
                                             double          *cloud_usd,
                                             double          *buy_usd);

G_END_DECLS
