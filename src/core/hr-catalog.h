/* hr-catalog.h — the models, accelerators, quantizations, engines and prices Headroom knows
 *
 * The bundled catalogs are JSON files compiled into a GResource (/io/github/headroomapp/Headroom/data/).
 * A catalog owns its entries; lookups return borrowed pointers valid while the catalog lives.
 */
#pragma once

#include <glib.h>
#include "hr-model.h"
#include "hr-gpu.h"
#include "hr-quant.h"
#include "hr-pricing.h"

G_BEGIN_DECLS

#define HR_CATALOG_ERROR (hr_catalog_error_quark ())
typedef enum
{
  HR_CATALOG_ERROR_PARSE,      /* not JSON, or not the expected shape */
  HR_CATALOG_ERROR_INVALID,    /* a field is missing or out of range */
  HR_CATALOG_ERROR_NOT_FOUND,  /* an id is not in the catalog */
} HrCatalogError;

typedef struct _HrCatalog HrCatalog;

GQuark          hr_catalog_error_quark      (void);

/* The bundled catalog (from the GResource).  Never fails for the shipped data; the returned
 * catalog is new and owned by the caller. */
HrCatalog      *hr_catalog_new_default      (GError         **error);
/* The bundled models, GPUs and quants without any prices (hr_catalog_get_pricing() is NULL
 * until hr_catalog_set_pricing()): for a program that brings its own prices or needs none,
 * skipping the few milliseconds the bundled SkyPilot snapshot takes to read. */
HrCatalog      *hr_catalog_new_unpriced     (GError         **error);
HrCatalog      *hr_catalog_new_empty        (void);
void            hr_catalog_free             (HrCatalog       *catalog);

/* Parsers for each catalog file (also used on user data and by the fuzzers).
 * They add to @catalog; on error nothing is added. */
gboolean        hr_catalog_load_models      (HrCatalog       *catalog,
                                             const char      *json,
                                             gssize           length,
                                             GError         **error);
gboolean        hr_catalog_load_gpus        (HrCatalog       *catalog,
                                             const char      *json,
                                             gssize           length,
                                             GError         **error);
gboolean        hr_catalog_load_quants      (HrCatalog       *catalog,
                                             const char      *json,
                                             gssize           length,
                                             GError         **error);

/* Takes ownership. Replaces an entry with the same id. */
void            hr_catalog_add_model        (HrCatalog       *catalog,
                                             HrModel         *model);
void            hr_catalog_add_gpu          (HrCatalog       *catalog,
                                             HrGpu           *gpu);
gboolean        hr_catalog_remove_model     (HrCatalog       *catalog,
                                             const char      *id);
gboolean        hr_catalog_remove_gpu       (HrCatalog       *catalog,
                                             const char      *id);

guint           hr_catalog_n_models         (const HrCatalog *catalog);
const HrModel  *hr_catalog_get_model        (const HrCatalog *catalog,
                                             guint            index);
const HrModel  *hr_catalog_find_model       (const HrCatalog *catalog,
                                             const char      *id);
guint           hr_catalog_n_gpus           (const HrCatalog *catalog);
const HrGpu    *hr_catalog_get_gpu          (const HrCatalog *catalog,
                                             guint            index);
const HrGpu    *hr_catalog_find_gpu         (const HrCatalog *catalog,
                                             const char      *id);
guint           hr_catalog_n_quants         (const HrCatalog *catalog);
const HrQuantMix *hr_catalog_get_quant      (const HrCatalog *catalog,
                                             guint            index);
const HrQuantMix *hr_catalog_find_quant     (const HrCatalog *catalog,
                                             const char      *id);

/* The bundled pricing snapshot (may be replaced by a fetched feed). */
const HrPricing *hr_catalog_get_pricing     (const HrCatalog *catalog);
void            hr_catalog_set_pricing      (HrCatalog       *catalog,
                                             HrPricing       *pricing);

/* What someone typed for a model or GPU: its id, else the id or the display name without
 * ASCII case ("GLM-4.5-Air", "h100 nvl 94gb"); NULL when none, or two, match. */
const HrModel  *hr_catalog_lookup_model     (const HrCatalog *catalog,
                                             const char      *text);
const HrGpu    *hr_catalog_lookup_gpu       (const HrCatalog *catalog,
                                             const char      *text);

/* Up to @max ids closest to @id (edit distance / substring), for "did you mean". */
GPtrArray      *hr_catalog_suggest_models   (const HrCatalog *catalog,
                                             const char      *id,
                                             guint            max);
GPtrArray      *hr_catalog_suggest_gpus     (const HrCatalog *catalog,
                                             const char      *id,
                                             guint            max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCatalog, hr_catalog_free)

G_END_DECLS
