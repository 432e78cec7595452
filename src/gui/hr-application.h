/* hr-application.h — the Headroom application: owns the catalog and the settings */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"
#include "hr-detect.h"
#include "hr-pricing-manager.h"
#include "hr-session.h"
#include "hr-userdata.h"

G_BEGIN_DECLS

#define HR_TYPE_APPLICATION (hr_application_get_type ())
G_DECLARE_FINAL_TYPE (HrApplication, hr_application, HR, APPLICATION, AdwApplication)

HrApplication  *hr_application_new          (void);

/* The catalog, prices, user data and scenario every window shows; made in startup. */
HrSession      *hr_application_get_session  (HrApplication *self);
/* The session's: the bundled catalog plus the user's own models and GPUs; loaded in startup, owned by the
 * application, valid until it is finalized. */
HrCatalog      *hr_application_get_catalog  (HrApplication *self);
GSettings      *hr_application_get_settings (HrApplication *self);
/* Where the user's own models and GPUs are saved (loaded into the catalog in startup). */
HrUserData     *hr_application_get_userdata (HrApplication *self);
/* Why the user's files did not all load at start-up (a damaged file moved aside, naming the
 * copy), once: the first window shows it; NULL when all was well. */
char           *hr_application_take_userdata_warning (HrApplication *self);
/* Refreshes the prices when the cache is a day old (hr_pricing_manager_is_due()), once per
 * run: the first window calls it after its first frame. */
void            hr_application_refresh_when_due (HrApplication *self);
/* Where the catalog's cloud prices come from; made in startup. */
HrPricingManager *hr_application_get_pricing_manager (HrApplication *self);

/* This computer as detected in startup; its RAM bandwidth follows the measurements. */
const HrSystem *hr_application_get_system   (HrApplication *self);
/* Measures this computer's RAM bandwidth again, in a worker thread ("measuring-ram" is TRUE
 * meanwhile); when it is in, it is cached and the "This Computer" entries and every view
 * sizing them take it.  FALSE, nothing done, when the figure is the CPU table's (or this is
 * not the real root) or a measurement is running.  Startup calls it when there is no figure. */
gboolean        hr_application_measure_ram  (HrApplication *self);
gboolean        hr_application_get_measuring_ram (HrApplication *self);

G_END_DECLS
