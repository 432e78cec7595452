/* hr-pricing.h — cloud GPU offers: the pricing feed format and its validation */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_PRICING_ERROR (hr_pricing_error_quark ())
typedef enum
{
  HR_PRICING_ERROR_PARSE,    /* not JSON */
  HR_PRICING_ERROR_SCHEMA,   /* wrong schema version or shape */
  HR_PRICING_ERROR_EMPTY,    /* no valid offer at all */
} HrPricingError;

typedef struct
{
  char *provider;       /* "RunPod" */
  char *gpu_id;         /* catalog id, may be NULL when the GPU is not in the catalog */
  char *gpu;            /* display name */
  int count;            /* GPUs in the instance */
  double vram_gb;       /* total VRAM of the instance */
  double usd_per_hour;
  char *billing;        /* "per-second", "per-hour", "spot" … */
  char *tier;
  char *url;
  /* Catalog offers (SkyPilot); NULL / 0 for feed offers that do not say. */
  char *instance;       /* "p5.48xlarge" */
  char *region;         /* "us-east-1" */
  double on_demand_usd_per_hour;  /* 0 when unknown */
  double spot_usd_per_hour;       /* 0 when the cloud has no spot price */
} HrOffer;

typedef struct
{
  int schema;
  char *updated;        /* "YYYY-MM-DD" */
  char *currency;
  char *source;         /* "snapshot", "feed", "cache" — set by whoever loaded it; for the
                         * SkyPilot catalog "catalog-network", "catalog-cache", "catalog-snapshot" */
  char *feed_updated;   /* the date of a pricing feed merged into catalog prices, else NULL */
  GPtrArray *offers;    /* HrOffer */
  guint skipped;        /* offers read and dropped by validation */
  guint unread;         /* offers past HR_PRICING_MAX_OFFERS, not read (valid or not) */
} HrPricing;

GQuark          hr_pricing_error_quark      (void);

HrPricing      *hr_pricing_new              (void);
HrPricing      *hr_pricing_copy             (const HrPricing *pricing);
/* TRUE when @a and @b hold the same offers (in the same order) and say the same about them
 * (source, dates, skipped counts); NULL equals only NULL. */
gboolean        hr_pricing_equal            (const HrPricing *a,
                                             const HrPricing *b);
void            hr_pricing_free             (HrPricing       *pricing);
HrOffer        *hr_offer_copy               (const HrOffer   *offer);
void            hr_offer_free               (HrOffer         *offer);

/* Parses and validates a feed.  Bad offers are skipped and counted; a feed with no good
 * offer, a wrong schema or bad JSON is an error. */
HrPricing      *hr_pricing_parse            (const char      *json,
                                             gssize           length,
                                             const char      *source,
                                             GError         **error);
char           *hr_pricing_to_json          (const HrPricing *pricing);

/* The cheapest offer whose total VRAM is at least @needed_gib and, when @gpu_id is not NULL,
 * uses that GPU.  NULL when none. */
const HrOffer  *hr_pricing_cheapest         (const HrPricing *pricing,
                                             double           needed_gib,
                                             const char      *gpu_id);

/* Added: the bundled snapshot compiled into the GResource (source "snapshot"). */
#define HR_PRICING_RESOURCE_PATH "/io/github/headroomapp/Headroom/data/pricing.json"

HrPricing      *hr_pricing_load_bundled     (GError         **error);

/* Added: validation limits, for the UI and the tests. */
#define HR_PRICING_MAX_OFFERS      10000   /* more are skipped and counted */
#define HR_PRICING_MAX_COUNT       1024    /* GPUs in one instance */
#define HR_PRICING_MAX_USD_PER_HOUR 100000.0

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPricing, hr_pricing_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOffer, hr_offer_free)

G_END_DECLS
