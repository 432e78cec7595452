/* hr-pricing-manager.c — where the application's cloud prices come from, and refreshing them
 *
 * The catalog holds the prices everyone reads (hr_catalog_get_pricing); this object decides
 * which prices those are.  The order is: the cached feed if it parses (and is not older than
 * the snapshot that came with this version), else the bundled snapshot; then a fetch when a
 * feed is set and the cache is a day old, or when the user asks.  The download, validation
 * and atomic cache write are hr_pricing_client_refresh_async()'s; this only swaps the result
 * in and tells the views.
 */
#include "hr-pricing-manager.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "hr-pricing-client.h"

struct _HrPricingManager
{
  GObject parent_instance;

  HrCatalog *catalog;        /* borrowed: the application's */
  GSettings *settings;
  char *cache_path;          /* NULL: the default, looked up at each use */
  GCancellable *cancellable;
  GError *load_error;
  gboolean busy;
};

enum
{
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum
{
  CHANGED,
  REFRESHED,
  FAILED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (HrPricingManager, hr_pricing_manager, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static char *
cache_path (HrPricingManager *self)
{
  return self->cache_path ? g_strdup (self->cache_path) : hr_pricing_cache_default_path ();
}

static void
set_busy (HrPricingManager *self,
          gboolean          busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Callbacks --------------------------------------------------------------------------------- */

static void
refresh_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  HrPricingManager *self;
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(GError) error = NULL;
  guint skipped;

  pricing = hr_pricing_client_refresh_finish (result, &error);
  /* dispose cancelled us: @user_data may be gone, touch nothing (GTask reports the
   * cancellation even when the transfer had finished) */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = HR_PRICING_MANAGER (user_data);
  set_busy (self, FALSE);
  if (pricing == NULL)
    {
      g_debug ("pricing refresh failed: %s", error->message);
      g_signal_emit (self, signals[FAILED], 0, error);
      return;
    }

  skipped = pricing->skipped;
  g_debug ("pricing refresh: %u offers from %s, %u skipped", pricing->offers->len,
           pricing->updated, skipped);
  hr_catalog_set_pricing (self->catalog, g_steal_pointer (&pricing));
  g_signal_emit (self, signals[CHANGED], 0);
  g_signal_emit (self, signals[REFRESHED], 0, skipped);
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_pricing_manager_dispose (GObject *object)
{
  HrPricingManager *self = HR_PRICING_MANAGER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_pricing_manager_parent_class)->dispose (object);
}

static void
hr_pricing_manager_finalize (GObject *object)
{
  HrPricingManager *self = HR_PRICING_MANAGER (object);

  g_clear_object (&self->cancellable);
  g_clear_error (&self->load_error);
  g_free (self->cache_path);

  G_OBJECT_CLASS (hr_pricing_manager_parent_class)->finalize (object);
}

static void
hr_pricing_manager_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  HrPricingManager *self = HR_PRICING_MANAGER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_pricing_manager_class_init (HrPricingManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_pricing_manager_dispose;
  object_class->finalize = hr_pricing_manager_finalize;
  object_class->get_property = hr_pricing_manager_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the catalog's pricing was replaced: recompute whatever shows a price */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* a refresh succeeded; the argument counts the offers the feed had that were skipped */
  signals[REFRESHED] = g_signal_new ("refreshed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* a refresh failed; the last good prices stay */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
hr_pricing_manager_init (HrPricingManager *self)
{
  self->cancellable = g_cancellable_new ();
}

/* Public API --------------------------------------------------------------------------------- */

HrPricingManager *
hr_pricing_manager_new (HrCatalog  *catalog,
                        GSettings  *settings,
                        const char *cache_path)
{
  HrPricingManager *self;

  g_return_val_if_fail (catalog != NULL, NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (HR_TYPE_PRICING_MANAGER, NULL);
  self->catalog = catalog;
  self->settings = g_object_ref (settings);
  self->cache_path = g_strdup (cache_path);
  return self;
}

gboolean
hr_pricing_manager_load (HrPricingManager  *self,
                         GError           **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(HrPricing) cached = NULL;
  const HrPricing *bundled;

  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  path = cache_path (self);
  cached = hr_pricing_cache_load (path, &local_error);
  if (cached == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_message ("%s", local_error->message);
      g_clear_error (&self->load_error);
      self->load_error = g_error_copy (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* a cache from before an update of the application may be older than its snapshot */
  bundled = hr_catalog_get_pricing (self->catalog);
  if (bundled != NULL && bundled->offers != NULL && bundled->offers->len > 0
      && bundled->updated != NULL && cached->updated != NULL
      && strcmp (cached->updated, bundled->updated) < 0)
    {
      g_debug ("pricing cache of %s is older than the bundled snapshot of %s",
               cached->updated, bundled->updated);
      return TRUE;
    }

  hr_catalog_set_pricing (self->catalog, g_steal_pointer (&cached));
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
hr_pricing_manager_is_due (HrPricingManager *self)
{
  g_autofree char *url = NULL;
  g_autofree char *path = NULL;
  GStatBuf st;

  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);

  url = g_settings_get_string (self->settings, "pricing-url");
  if (url[0] == '\0')
    return FALSE;
  path = cache_path (self);
  if (g_stat (path, &st) != 0)
    return TRUE;
  return (g_get_real_time () / G_USEC_PER_SEC) - (gint64) st.st_mtime > HR_PRICING_MAX_AGE;
}

void
hr_pricing_manager_refresh (HrPricingManager *self)
{
  g_autofree char *url = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (HR_IS_PRICING_MANAGER (self));

  if (self->busy)
    return;

  url = g_strstrip (g_settings_get_string (self->settings, "pricing-url"));
  if (url[0] == '\0')
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                                     _("No pricing feed is set: add its address in Preferences"));
      g_signal_emit (self, signals[FAILED], 0, error);
      return;
    }

  path = cache_path (self);
  set_busy (self, TRUE);
  hr_pricing_client_refresh_async (url, path, self->cancellable, refresh_cb, self);
}

gboolean
hr_pricing_manager_get_busy (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);
  return self->busy;
}

const HrPricing *
hr_pricing_manager_get_pricing (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), NULL);
  return hr_catalog_get_pricing (self->catalog);
}

GError *
hr_pricing_manager_take_load_error (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), NULL);
  return g_steal_pointer (&self->load_error);
}
