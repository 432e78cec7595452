/* hr-pricing-client.h — the pricing feed over HTTP, and its on-disk cache */
#pragma once

#include <gio/gio.h>

#include "hr-pricing.h"

G_BEGIN_DECLS

#define HR_PRICING_FEED_MAX_BYTES (4 * 1024 * 1024)

/* Downloads (at most HR_PRICING_FEED_MAX_BYTES, within hr_http_get_timeout()) and validates
 * the feed at @url.  The result's source is "feed".  Errors: HR_HTTP_ERROR for the transfer,
 * HR_PRICING_ERROR for the contents, G_IO_ERROR_CANCELLED. */
void            hr_pricing_client_fetch_async     (const char           *url,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
HrPricing      *hr_pricing_client_fetch_finish    (GAsyncResult         *result,
                                                   GError              **error);

/* Fetches like hr_pricing_client_fetch_async() and, only when the feed is good, saves it to
 * @cache_path (NULL: hr_pricing_cache_default_path()).  A failed download or a bad feed leaves
 * the cache as it was; a failure to write the cache is logged, not returned. */
void            hr_pricing_client_refresh_async   (const char           *url,
                                                   const char           *cache_path,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
HrPricing      *hr_pricing_client_refresh_finish  (GAsyncResult         *result,
                                                   GError              **error);

/* g_get_user_cache_dir()/headroom/pricing.json */
char           *hr_pricing_cache_default_path     (void);

/* Loads the cache (source "cache").  No cache: G_FILE_ERROR_NOENT.  A damaged cache is renamed
 * to "@path.corrupt", kept for inspection, and reported as HR_PRICING_ERROR with a message that
 * says where it went. */
HrPricing      *hr_pricing_cache_load             (const char           *path,
                                                   GError              **error);
/* Atomically replaces the cache (write to a temporary file, then rename).  Creates the
 * directory.  Refuses a pricing without offers. */
gboolean        hr_pricing_cache_save             (const HrPricing      *pricing,
                                                   const char           *path,
                                                   GError              **error);

G_END_DECLS
