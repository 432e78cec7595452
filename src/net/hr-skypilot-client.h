/* hr-skypilot-client.h — the SkyPilot catalog over HTTPS, one file per cloud, and its cache
 *
 * Each cloud's <base>/<cloud>/vms.csv is streamed: every piece goes to the parser and to a
 * temporary file beside the cache, and only a file that downloaded and parsed whole replaces
 * <cache dir>/<cloud>.csv (a rename, so the cache is always a complete catalog).  Its time of
 * modification is the fetch time.  The clouds download in parallel; one failing does not stop
 * the others.
 */
#pragma once

#include <gio/gio.h>

#include "hr-skypilot.h"

G_BEGIN_DECLS

#define HR_SKYPILOT_MAX_BYTES   (64 * 1024 * 1024)  /* per file; AWS's is ~2.5 MB */
#define HR_SKYPILOT_TIMEOUT     60                  /* seconds per file */

/* $HEADROOM_CATALOG_BASE when set, else @configured when not empty, else the default. */
char             *hr_skypilot_base_url          (const char         *configured);
/* g_get_user_cache_dir()/headroom/skypilot */
char             *hr_skypilot_cache_dir         (void);

/* Reads <cache_dir>/<cloud>.csv (source "cache", date its modification time in UTC).
 * G_FILE_ERROR_NOENT when there is none. */
HrSkypilotCloud  *hr_skypilot_cache_load        (const char         *cache_dir,
                                                 const char         *cloud,
                                                 const HrCatalog    *catalog,
                                                 const char         *base,
                                                 GError            **error);
/* Seconds since <cache_dir>/<cloud>.csv was written; G_MAXINT64 when there is none. */
gint64            hr_skypilot_cache_age         (const char         *cache_dir,
                                                 const char         *cloud);

/* Each of @clouds from @cache_dir, else from the bundled snapshot; a cloud with neither is
 * left out.  A cache that does not parse is logged and skipped.  HrSkypilotCloud*. */
GPtrArray        *hr_skypilot_load_clouds       (const HrCatalog    *catalog,
                                                 const char         *cache_dir,
                                                 const char         *base,
                                                 const char *const  *clouds);
/* The prices everyone uses: hr_skypilot_select() over @clouds (source "catalog-snapshot" when
 * any cloud comes from the snapshot, else "catalog-cache" when any from the cache, else
 * "catalog-network"), plus @feed's offers when given (feed_updated then its date).  Without
 * clouds, a copy of @feed (or an empty pricing). */
HrPricing        *hr_skypilot_build_pricing     (GPtrArray          *clouds,
                                                 const HrSkypilotChoice *choice,
                                                 const HrPricing    *feed);
/* Replaces @cloud's entry in @clouds (HrSkypilotCloud*), or adds it; takes @cloud. */
void              hr_skypilot_clouds_replace    (GPtrArray          *clouds,
                                                 HrSkypilotCloud    *cloud);

/* What a cloud that could not be updated is priced with now. */
typedef enum
{
  HR_SKYPILOT_FALLBACK_CACHE,     /* the prices saved before (cached, or downloaded earlier) */
  HR_SKYPILOT_FALLBACK_SNAPSHOT,  /* the bundled snapshot's */
  HR_SKYPILOT_FALLBACK_NONE,      /* neither: it is left out of the offers */
  HR_SKYPILOT_N_FALLBACKS
} HrSkypilotFallback;

/* Where @cloud (an id, "gcp") stands in @clouds (HrSkypilotCloud*, what is priced with). */
HrSkypilotFallback hr_skypilot_fallback         (GPtrArray          *clouds,
                                                 const char         *cloud);

typedef struct
{
  GPtrArray *clouds;    /* HrSkypilotCloud*, the ones that downloaded and parsed */
  GPtrArray *failed;    /* char*, "Lambda: lambda.example answered HTTP 404 Not Found" */
  GPtrArray *failed_ids;/* char*, "lambda" */
} HrSkypilotRefresh;

void              hr_skypilot_refresh_free      (HrSkypilotRefresh  *refresh);

/* Downloads every cloud of @clouds from @base in parallel, caching each good file in
 * @cache_dir (NULL: no cache).  Only a cancelled @cancellable is an error; every other failure
 * is one line in the result's failed list.  @catalog is borrowed until the callback. */
void              hr_skypilot_refresh_async     (const char         *base,
                                                 const char *const  *clouds,
                                                 const HrCatalog    *catalog,
                                                 const char         *cache_dir,
                                                 GCancellable       *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer            user_data);
HrSkypilotRefresh *hr_skypilot_refresh_finish   (GAsyncResult       *result,
                                                 GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrSkypilotRefresh, hr_skypilot_refresh_free)

/* Removes the temporary files of downloads that never finished (CLOUD.csv.XXXXXX) when they
 * are more than an hour old; every refresh does it first. */
void               hr_skypilot_cache_clean_stale (const char *cache_dir);

G_END_DECLS
