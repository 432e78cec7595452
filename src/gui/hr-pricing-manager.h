/* hr-pricing-manager.h — where the application's cloud prices come from, and refreshing them
 *
 * One per application.  At start-up it puts the cached feed (if valid) or the bundled snapshot
 * into the catalog; it refreshes from the "pricing-url" setting when asked, or by itself when
 * the cache is older than a day.  A good feed replaces the catalog's pricing (on the main
 * thread: views that read the pricing from a worker thread copy it first, as the Size view
 * does) and is cached; a failure leaves the last good prices in use.
 */
#pragma once

#include <gio/gio.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

/* A cache this old (seconds) is refreshed at start-up. */
#define HR_PRICING_MAX_AGE (24 * 60 * 60)

#define HR_TYPE_PRICING_MANAGER (hr_pricing_manager_get_type ())
G_DECLARE_FINAL_TYPE (HrPricingManager, hr_pricing_manager, HR, PRICING_MANAGER, GObject)

/* @catalog is borrowed and must outlive the manager.  @cache_path NULL: the user's cache
 * directory (hr_pricing_cache_default_path(), looked up at each use). */
HrPricingManager *hr_pricing_manager_new         (HrCatalog        *catalog,
                                                  GSettings        *settings,
                                                  const char       *cache_path);

/* Puts the cached feed into the catalog when it is valid and not older than the bundled
 * snapshot.  FALSE with @error when the cache was damaged (it has been moved aside and the
 * bundled snapshot stays); no cache at all is not an error. */
gboolean        hr_pricing_manager_load          (HrPricingManager *self,
                                                  GError          **error);
/* TRUE when a feed is set and the cache is missing or older than HR_PRICING_MAX_AGE. */
gboolean        hr_pricing_manager_is_due        (HrPricingManager *self);

/* Fetches the feed at the "pricing-url" setting, unless a fetch is already running.  Ends in
 * "refreshed" (guint offers skipped; after "changed") or "failed" (GError); nothing when
 * cancelled by dispose.  "notify::busy" tells when it runs. */
void            hr_pricing_manager_refresh       (HrPricingManager *self);
gboolean        hr_pricing_manager_get_busy      (HrPricingManager *self);
/* The start-up refresh: hr_pricing_manager_refresh() when hr_pricing_manager_is_due(). */
void            hr_pricing_manager_refresh_when_due (HrPricingManager *self);
/* After "failed": whether to tell it — FALSE when the refresh was not asked for (the start-up
 * one) and failed exactly as the last refresh did (the "pricing-failure" setting, kept across
 * launches), so that the same failure is told once, not at every launch. */
gboolean        hr_pricing_manager_get_failure_is_news (HrPricingManager *self);
const HrPricing *hr_pricing_manager_get_pricing  (HrPricingManager *self);

/* The error of the last hr_pricing_manager_load(), kept for the first window to show; NULL
 * when none or already taken. */
/* What the last refresh did, a line per source ("Updated: AWS, Lambda", each failure with its
 * reason), for a Details dialog; NULL before the first refresh. */
const char     *hr_pricing_manager_get_details   (HrPricingManager *self);

GError         *hr_pricing_manager_take_load_error (HrPricingManager *self);
/* Whether there is such an error still to take. */
gboolean        hr_pricing_manager_has_load_error  (HrPricingManager *self);

G_END_DECLS
