/* hr-cloud-state.h — what the Cloud & TCO view shows, as plain strings and numbers
 *
 * Like hr-scenario-state.h: the core computes (hr_estimate_compute, hr_advice_recommend,
 * hr_tco_compute), this module words and formats, and the view applies the result as it is.
 * No GTK in here, so tests/test-cloud-state.c checks every figure without a display.
 */
#pragma once

#include <glib.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-tco.h"

G_BEGIN_DECLS

/* U+2060 WORD JOINER: no line break on either side of it. */
#define HR_WORD_JOINER "\u2060"

/* The table shows at most this many offers (the cheapest); a hostile feed may list 10,000. */
#define HR_CLOUD_MAX_ROWS 200

/* One offer that holds the scenario. */
typedef struct
{
  char *key;                /* identity across refreshes: provider, GPU, count, tier, URL, price */
  char *provider;           /* "RunPod" */
  char *instance;           /* "1× A100 80GB SXM" */
  char *tier;               /* "Community Cloud · PCIe"; "" when the feed gives none */
  char *vram;               /* "80 GB" */
  char *hourly;             /* "$1.19/h" */
  char *monthly;            /* "$144.70/month" at the state's hours per day */
  char *billing;            /* "Per second" */
  char *cost_per_mtok;      /* "$0.91"; "—" when the GPU is not in the catalog */
  char *speed;              /* "~40.2 tok/s"; "—" when unknown */
  char *url;                /* the provider's page; NULL when the feed gives none */
  char *label;              /* "RunPod · 1× A100 80GB SXM" */
  double usd_per_hour;
  double monthly_usd;
  double cost_per_mtok_usd; /* NAN when unknown */
  double vram_gb;
  HrVerdict verdict;        /* fits or tight on this instance */
} HrCloudOffer;

/* The order of the table: cheapest per hour (ties: per token), or per 1M tokens generated
 * (ties: per hour; offers whose speed is unknown last). */
typedef enum
{
  HR_CLOUD_SORT_HOURLY,
  HR_CLOUD_SORT_PER_MTOK,
} HrCloudSort;

typedef struct
{
  GPtrArray *offers;        /* HrCloudOffer*, in the order of @sort */
  HrCloudSort sort;
  guint n_fitting;          /* all offers that fit (offers holds at most HR_CLOUD_MAX_ROWS) */
  guint n_total;            /* offers in the price list */
  double hours_per_day;
  char *title;              /* "GLM-4.5 Air (110B-A12B)" */
  char *subtitle;           /* "Q4_K_M · 8K context · 1 sequence · llama.cpp" */
  char *summary;            /* "5 of 10 offers can run this scenario" */
  char *source;             /* "Prices verified 2026-11-05 · bundled snapshot" */
} HrCloudState;

/* @scenario may be NULL (nothing to size yet): no offer fits then. */
HrCloudState   *hr_cloud_state_compute      (const HrScenario   *scenario,
                                             const HrCatalog    *catalog,
                                             const HrPricing    *pricing,
                                             double              hours_per_day);
/* The same with the offers in @sort's order; the HR_CLOUD_MAX_ROWS kept are the first in it. */
HrCloudState   *hr_cloud_state_compute_sorted (const HrScenario *scenario,
                                               const HrCatalog  *catalog,
                                               const HrPricing  *pricing,
                                               double            hours_per_day,
                                               HrCloudSort       sort);
/* Rewords the monthly costs for other hours per day (no new estimates). */
void            hr_cloud_state_set_hours    (HrCloudState       *state,
                                             double              hours_per_day);
void            hr_cloud_state_free         (HrCloudState       *state);
/* Index of the offer with @key, or -1. */
int             hr_cloud_state_find         (const HrCloudState *state,
                                             const char         *key);

/* "Prices verified 2026-11-05 · bundled snapshot" (or "· pricing feed", "· cached pricing
 * feed"), from the pricing's own date and source. */
char           *hr_cloud_source_label       (const HrPricing    *pricing);
/* "Per second", "Per hour", "Spot or on demand"…; a feed's own word when unknown. */
char           *hr_cloud_billing_display    (const char         *billing);

/* What buying would mean: the recommended hardware for the scenario (hr_advice_recommend: the
 * best single GPU, else the best value, else the scenario's own GPUs). */
typedef struct
{
  char *gpu_id;             /* NULL when nothing is known */
  int count;
  double price_usd;         /* count × price; NAN when unknown */
  double power_w;           /* count × board power; NAN when unknown */
  char *label;              /* "RTX PRO 6000 Blackwell 96GB", "2× RTX 4090 24GB" */
  char *why;                /* "Best single GPU for this scenario" */
} HrBuyChoice;

void            hr_buy_choice_compute       (HrBuyChoice        *out,
                                             const HrScenario   *scenario,
                                             const HrCatalog    *catalog);
void            hr_buy_choice_clear         (HrBuyChoice        *choice);

/* Rent (the chosen offer) against buy (hardware + electricity). */
typedef struct
{
  HrTcoInput input;
  HrTcoResult result;
  char *offer;              /* "RunPod · 1× A100 80GB SXM at $1.19/h" (a word joiner after
                             * the "/"); "No cloud offer fits" */
  char *cloud_monthly;      /* "$144.70/month"; "—" */
  char *electricity_monthly;/* "$12.77/month" */
  char *electricity_basis;  /* "600 W, 4 h a day at $0.175/kWh" (a word joiner after the
                             * "/": "$0,175/" and "kWh" split in German); "Board power unknown" */
  char *payback;            /* "~64.4 months", "Never", "—" */
  char *payback_detail;     /* "About 5.4 years at 4 h a day", "Renting costs less than…" */
  char *cloud_legend;       /* chart legend: "Rent: RunPod 1× A100 80GB SXM" */
  char *buy_legend;         /* chart legend: "Buy: RTX PRO 6000 Blackwell 96GB ($8,500)" */
} HrTcoState;

/* @offer may be NULL (none fits); @hardware_usd and @power_w are what the user sees (the
 * choice's defaults or their own); NAN means unknown. */
void            hr_tco_state_compute        (HrTcoState         *out,
                                             const HrCloudOffer *offer,
                                             const HrBuyChoice  *buy,
                                             double              hours_per_day,
                                             double              usd_per_kwh,
                                             double              hardware_usd,
                                             double              power_w);
void            hr_tco_state_clear          (HrTcoState         *state);

/* "$1.19/h", "$144.70/month", "~64.4 months" — in the user's locale. */
char           *hr_cloud_format_hourly      (double              usd_per_hour);
char           *hr_cloud_format_monthly     (double              usd);
char           *hr_cloud_format_months      (double              months);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCloudState, hr_cloud_state_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrBuyChoice, hr_buy_choice_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrTcoState, hr_tco_state_clear)

G_END_DECLS
