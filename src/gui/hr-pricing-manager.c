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
#include <string.h>

#include "hr-pricing-client.h"
#include "hr-http.h"
#include "hr-skypilot-client.h"

struct _HrPricingManager
{
  GObject parent_instance;

  HrCatalog *catalog;        /* borrowed: the application's */
  GSettings *settings;
  char *cache_path;          /* the feed's; NULL: the default, looked up at each use */
  GCancellable *cancellable;
  GError *load_error;
  gboolean busy;
  GPtrArray *clouds;         /* HrSkypilotCloud*: the last good catalog of each cloud */
  HrPricing *feed;           /* the extra schema-1 feed, NULL when none */
  guint pending;             /* downloads of the running refresh */
  /* char*, one line per source that failed in this refresh, by what it is priced with now */
  GPtrArray *failures[HR_SKYPILOT_N_FALLBACKS];
  GPtrArray *updated;        /* char*, display names of the clouds this refresh updated */
  guint feed_skipped;
  char *details;             /* of the last refresh */
  gboolean automatic;        /* the running refresh is the start-up one, not asked for */
  gboolean failure_told;     /* the last failure is news (or was asked for): tell it */
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

/* The catalog's cache sits beside the feed's: <cache dir>/headroom/skypilot. */
static char *
catalog_cache_dir (HrPricingManager *self)
{
  g_autofree char *feed = NULL;
  g_autofree char *dir = NULL;

  if (self->cache_path == NULL)
    return hr_skypilot_cache_dir ();
  feed = cache_path (self);
  dir = g_path_get_dirname (feed);
  return g_build_filename (dir, "skypilot", NULL);
}

static char *
base_url (HrPricingManager *self)
{
  g_autofree char *configured = g_settings_get_string (self->settings, "catalog-base");

  return hr_skypilot_base_url (configured);
}

/* The enabled clouds, in the catalog's order. */
static GStrv
enabled_clouds (HrPricingManager *self)
{
  g_auto(GStrv) chosen = g_settings_get_strv (self->settings, "catalog-clouds");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (const char *const *c = hr_skypilot_clouds (); *c != NULL; c++)
    if (g_strv_contains ((const char *const *) chosen, *c))
      g_strv_builder_add (builder, *c);
  return g_strv_builder_end (builder);
}

static gboolean
feed_set (HrPricingManager *self)
{
  g_autofree char *url = g_strstrip (g_settings_get_string (self->settings, "pricing-url"));

  return url[0] != '\0';
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

/* Puts the clouds (only the enabled ones) and the feed together into the catalog's pricing.
 * Prices the same as those in place (a refresh that failed everywhere, a setting put back)
 * change nothing and say nothing: what is priced with them is not worked out again. */
static void
rebuild (HrPricingManager *self)
{
  g_auto(GStrv) enabled = enabled_clouds (self);
  g_autoptr(GPtrArray) use = g_ptr_array_new ();
  g_autofree char *region = g_strstrip (g_settings_get_string (self->settings, "price-region"));
  HrSkypilotChoice choice = { g_settings_get_boolean (self->settings, "price-spot"), region };
  HrPricing *pricing;

  for (guint i = 0; self->clouds != NULL && i < self->clouds->len; i++)
    {
      HrSkypilotCloud *c = g_ptr_array_index (self->clouds, i);

      if (g_strv_contains ((const char *const *) enabled, c->cloud))
        g_ptr_array_add (use, c);
    }
  pricing = hr_skypilot_build_pricing (use, &choice, feed_set (self) ? self->feed : NULL);
  if (hr_pricing_equal (pricing, hr_catalog_get_pricing (self->catalog)))
    {
      hr_pricing_free (pricing);
      return;
    }
  hr_catalog_set_pricing (self->catalog, pricing);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
settings_changed_cb (HrPricingManager *self,
                     const char       *key)
{
  /* a newly enabled cloud starts from its cache or the snapshot */
  if (g_str_equal (key, "catalog-clouds"))
    {
      g_auto(GStrv) enabled = enabled_clouds (self);
      g_autofree char *dir = catalog_cache_dir (self);
      g_autofree char *base = base_url (self);
      g_autoptr(GPtrArray) loaded = hr_skypilot_load_clouds (self->catalog, dir, base,
                                                             (const char *const *) enabled);

      for (guint i = 0; i < loaded->len; i++)
        {
          HrSkypilotCloud *c = g_ptr_array_index (loaded, i);
          gboolean have = FALSE;

          for (guint j = 0; j < self->clouds->len && !have; j++)
            have = g_str_equal (((HrSkypilotCloud *) g_ptr_array_index (self->clouds, j))->cloud, c->cloud);
          if (!have)
            hr_skypilot_clouds_replace (self->clouds, g_ptr_array_steal_index (loaded, i--));
        }
    }
  rebuild (self);
}

/* Refreshing ------------------------------------------------------------------------------- */

static char *
join_lines (GPtrArray  *lines,
            const char *separator)
{
  g_ptr_array_add (lines, NULL);
  g_ptr_array_set_size (lines, lines->len - 1);
  return g_strjoinv (separator, (char **) lines->pdata);
}

static guint
n_failures (HrPricingManager *self)
{
  guint n = 0;

  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    n += self->failures[f]->len;
  return n;
}

static char *failure_names (GPtrArray *failures);

/* "AWS, Lambda: Could not connect … (×2)": the sources that failed for the same reason on
 * one line (offline, every cloud fails with the same DNS error: ten lines made the Details
 * dialog taller than the screen), in the order they first appear. */
static char *
group_failures (GPtrArray *failures)
{
  g_autoptr(GPtrArray) reasons = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < failures->len; i++)
    {
      const char *line = g_ptr_array_index (failures, i);
      const char *colon = strstr (line, ": ");
      const char *reason = colon ? colon + 2 : line;
      guint j;

      for (j = 0; j < reasons->len; j++)
        if (g_str_equal (g_ptr_array_index (reasons, j), reason))
          break;
      if (j == reasons->len)
        {
          g_ptr_array_add (reasons, (gpointer) reason);
          g_ptr_array_add (names, g_ptr_array_new_with_free_func (g_free));
        }
      g_ptr_array_add (g_ptr_array_index (names, j), colon ? g_strndup (line, colon - line) : g_strdup (""));
    }
  for (guint j = 0; j < reasons->len; j++)
    {
      GPtrArray *who = g_ptr_array_index (names, j);
      g_autofree char *list = join_lines (who, ", ");

      if (who->len == 1)
        g_ptr_array_add (lines, list[0] ? g_strdup_printf ("%s: %s", list, (char *) g_ptr_array_index (reasons, j))
                                        : g_strdup (g_ptr_array_index (reasons, j)));
      else
        g_ptr_array_add (lines, g_strdup_printf ("%s: %s (×%u)", list, (char *) g_ptr_array_index (reasons, j),
                                                 who->len));
    }
  return join_lines (lines, "\n");
}

/* The failed sources in the Details, a heading for each thing they are priced with now. */
/* The reason every failed source gives, when they all give the same one (offline: the same
 * DNS error for every cloud); NULL otherwise. */
static const char *
common_reason (HrPricingManager *self)
{
  const char *common = NULL;
  guint n = 0;

  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    for (guint i = 0; i < self->failures[f]->len; i++)
      {
        const char *line = g_ptr_array_index (self->failures[f], i);
        const char *colon = strstr (line, ": ");

        if (colon == NULL || (common != NULL && !g_str_equal (common, colon + 2)))
          return NULL;
        common = colon + 2;
        n++;
      }
  return n > 1 ? common : NULL;
}

static void
write_failures (HrPricingManager *self,
                GString          *out)
{
  const char *heading[HR_SKYPILOT_N_FALLBACKS] = {
    [HR_SKYPILOT_FALLBACK_CACHE] = _("Not updated, the prices saved before stay in use:"),
    [HR_SKYPILOT_FALLBACK_SNAPSHOT] = _("Not updated, the prices bundled with Headroom are in use:"),
    [HR_SKYPILOT_FALLBACK_NONE] = _("Not updated and left out of the offers, as no prices were saved or bundled:"),
  };

  const char *common = common_reason (self);

  /* the one reason once, then only the names under each heading */
  if (common != NULL)
    g_string_append_printf (out, "%s (×%u)\n", common, n_failures (self));
  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    {
      g_autofree char *failed = NULL;

      if (self->failures[f]->len == 0)
        continue;
      failed = common ? failure_names (self->failures[f]) : group_failures (self->failures[f]);
      g_string_append_printf (out, "%s\n%s\n", heading[f], failed);
    }
  /* no trailing new line */
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
}

static void
write_details (HrPricingManager *self)
{
  GString *out = g_string_new (NULL);
  g_autofree char *base = base_url (self);
  g_autofree char *updated = join_lines (self->updated, ", ");

  /* TRANSLATORS: first line of the price refresh details; the argument is an address */
  g_string_append_printf (out, _("SkyPilot catalog: %s"), base);
  g_string_append_c (out, '\n');
  if (self->updated->len > 0)
    {
      /* TRANSLATORS: e.g. "Updated: AWS, Lambda, RunPod" */
      g_string_append_printf (out, _("Updated: %s"), updated);
      g_string_append_c (out, '\n');
    }
  write_failures (self, out);
  g_free (self->details);
  self->details = g_string_free (out, FALSE);
}

/* The names of the sources that failed ("Google Cloud, Vast.ai"), without their reasons. */
static char *
failure_names (GPtrArray *failures)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < failures->len; i++)
    {
      const char *line = g_ptr_array_index (failures, i);
      const char *colon = strstr (line, ": ");

      g_ptr_array_add (names, colon ? g_strndup (line, colon - line) : g_strdup (line));
    }
  return join_lines (names, ", ");
}

/* "Google Cloud, Vast.ai (no prices, left out)": @list and what it is priced with now. */
static char *
outcome_text (HrSkypilotFallback f,
              const char        *list)
{
  switch (f)
    {
    case HR_SKYPILOT_FALLBACK_CACHE:
      /* TRANSLATORS: the sources a refresh could not update, e.g. "Vast.ai, Pricing feed (saved prices stay)" */
      return g_strdup_printf (_("%s (saved prices stay)"), list);
    case HR_SKYPILOT_FALLBACK_SNAPSHOT:
      /* TRANSLATORS: e.g. "AWS, Lambda (bundled prices used)" */
      return g_strdup_printf (_("%s (bundled prices used)"), list);
    default:
      /* TRANSLATORS: e.g. "Google Cloud (no prices, left out)": not in the offers at all */
      return g_strdup_printf (_("%s (no prices, left out)"), list);
    }
}

/* The toast of a refresh that failed for several sources: their names, grouped by what they
 * are priced with now. */
static char *
failures_message (HrPricingManager *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    {
      g_autofree char *list = NULL;

      if (self->failures[f]->len == 0)
        continue;
      list = failure_names (self->failures[f]);
      g_ptr_array_add (parts, outcome_text (f, list));
    }
  return join_lines (parts, "; ");
}

/* A failure is told when the user asked for the refresh, or when it is not the one the last
 * refresh ended in: offline, the start-up refresh fails the same way at every launch, and its
 * toast covered the chart's legend each time.  The last failure is kept in the settings. */
static void
note_failure (HrPricingManager *self,
              const char       *failure)
{
  g_autofree char *last = g_settings_get_string (self->settings, "pricing-failure");

  self->failure_told = !self->automatic || !g_str_equal (last, failure);
  if (!g_str_equal (last, failure))
    g_settings_set_string (self->settings, "pricing-failure", failure);
}

static void
refresh_done (HrPricingManager *self)
{
  g_autoptr(GError) error = NULL;

  if (--self->pending > 0)
    return;

  set_busy (self, FALSE);
  write_details (self);
  rebuild (self);
  if (n_failures (self) == 0)
    {
      g_settings_reset (self->settings, "pricing-failure");
      g_signal_emit (self, signals[REFRESHED], 0, self->feed_skipped);
      return;
    }
  for (guint f = 0; n_failures (self) == 1 && f < HR_SKYPILOT_N_FALLBACKS; f++)
    if (self->failures[f]->len == 1)
      error = g_error_new_literal (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK,
                                   g_ptr_array_index (self->failures[f], 0));
  if (error == NULL)
    {
      g_autofree char *message = failures_message (self);

      error = g_error_new_literal (HR_HTTP_ERROR, HR_HTTP_ERROR_NETWORK, message);
    }
  {
    /* the state: what the toast says and each source's reason (a source failing otherwise
     * is news, though the toast names the same sources) */
    g_autofree char *state = g_strconcat (error->message, "\n", self->details, NULL);

    note_failure (self, state);
  }
  g_signal_emit (self, signals[FAILED], 0, error);
}

static void
catalog_refresh_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  HrPricingManager *self;
  g_autoptr(HrSkypilotRefresh) refresh = NULL;
  g_autoptr(GError) error = NULL;

  refresh = hr_skypilot_refresh_finish (result, &error);
  /* dispose cancelled us: @user_data may be gone, touch nothing */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = HR_PRICING_MANAGER (user_data);
  for (guint i = 0; i < refresh->failed->len; i++)
    {
      HrSkypilotFallback f = hr_skypilot_fallback (self->clouds, g_ptr_array_index (refresh->failed_ids, i));

      g_ptr_array_add (self->failures[f], g_strdup (g_ptr_array_index (refresh->failed, i)));
    }
  while (refresh->clouds->len > 0)
    {
      HrSkypilotCloud *c = g_ptr_array_steal_index (refresh->clouds, 0);

      g_ptr_array_add (self->updated, g_strdup (hr_skypilot_cloud_display (c->cloud)));
      g_debug ("pricing refresh: %s, %u offers", c->cloud, c->offers->len);
      hr_skypilot_clouds_replace (self->clouds, c);
    }
  refresh_done (self);
}

static void
feed_refresh_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  HrPricingManager *self;
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(GError) error = NULL;

  pricing = hr_pricing_client_refresh_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = HR_PRICING_MANAGER (user_data);
  if (pricing == NULL)
    /* TRANSLATORS: a failed source in the refresh details, e.g. "Pricing feed: … HTTP 500" */
    g_ptr_array_add (self->failures[self->feed ? HR_SKYPILOT_FALLBACK_CACHE : HR_SKYPILOT_FALLBACK_NONE],
                     g_strdup_printf (_("Pricing feed: %s"), error->message));
  else
    {
      g_ptr_array_add (self->updated, g_strdup (_("pricing feed")));
      /* "N offers were skipped": the invalid ones and those past the cap alike */
      self->feed_skipped = pricing->skipped + pricing->unread;
      g_clear_pointer (&self->feed, hr_pricing_free);
      self->feed = g_steal_pointer (&pricing);
    }
  refresh_done (self);
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
  g_clear_pointer (&self->clouds, g_ptr_array_unref);
  g_clear_pointer (&self->feed, hr_pricing_free);
  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    g_clear_pointer (&self->failures[f], g_ptr_array_unref);
  g_clear_pointer (&self->updated, g_ptr_array_unref);
  g_free (self->details);

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
  /* a refresh failed somewhere; the message says what each failed source is priced with now */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
hr_pricing_manager_init (HrPricingManager *self)
{
  self->cancellable = g_cancellable_new ();
  self->clouds = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    self->failures[f] = g_ptr_array_new_with_free_func (g_free);
  self->updated = g_ptr_array_new_with_free_func (g_free);
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
  g_signal_connect_object (settings, "changed::catalog-clouds", G_CALLBACK (settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::price-spot", G_CALLBACK (settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::price-region", G_CALLBACK (settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  return self;
}

/* The feed's cache, when a feed is set.  FALSE with @error when it was damaged. */
static gboolean
load_feed (HrPricingManager  *self,
           GError           **error)
{
  g_autofree char *path = cache_path (self);
  g_autoptr(GError) local_error = NULL;
  HrPricing *cached;

  if (!feed_set (self))
    return TRUE;
  cached = hr_pricing_cache_load (path, &local_error);
  if (cached != NULL)
    {
      g_clear_pointer (&self->feed, hr_pricing_free);
      self->feed = cached;
      return TRUE;
    }
  if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  g_message ("%s", local_error->message);
  g_clear_error (&self->load_error);
  self->load_error = g_error_copy (local_error);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

gboolean
hr_pricing_manager_load (HrPricingManager  *self,
                         GError           **error)
{
  g_auto(GStrv) enabled = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  gboolean ok;

  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  enabled = enabled_clouds (self);
  dir = catalog_cache_dir (self);
  base = base_url (self);
  g_ptr_array_unref (self->clouds);
  self->clouds = hr_skypilot_load_clouds (self->catalog, dir, base, (const char *const *) enabled);
  ok = load_feed (self, error);
  rebuild (self);
  return ok;
}

gboolean
hr_pricing_manager_is_due (HrPricingManager *self)
{
  g_auto(GStrv) enabled = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  GStatBuf st;

  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);

  enabled = enabled_clouds (self);
  dir = catalog_cache_dir (self);
  for (guint i = 0; enabled[i] != NULL; i++)
    if (hr_skypilot_cache_age (dir, enabled[i]) > HR_PRICING_MAX_AGE)
      return TRUE;
  if (!feed_set (self))
    return FALSE;
  path = cache_path (self);
  if (g_stat (path, &st) != 0)
    return TRUE;
  return (g_get_real_time () / G_USEC_PER_SEC) - (gint64) st.st_mtime > HR_PRICING_MAX_AGE;
}

static void
refresh (HrPricingManager *self,
         gboolean          automatic)
{
  g_auto(GStrv) enabled = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;

  if (self->busy)
    return;
  self->automatic = automatic;

  enabled = enabled_clouds (self);
  url = g_strstrip (g_settings_get_string (self->settings, "pricing-url"));
  if (enabled[0] == NULL && url[0] == '\0')
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                                     _("No price source is on: turn on a cloud in Preferences"));
      note_failure (self, error->message);
      g_signal_emit (self, signals[FAILED], 0, error);
      return;
    }

  for (guint f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    g_ptr_array_set_size (self->failures[f], 0);
  g_ptr_array_set_size (self->updated, 0);
  self->feed_skipped = 0;
  self->pending = 1;
  set_busy (self, TRUE);
  if (enabled[0] != NULL)
    {
      dir = catalog_cache_dir (self);
      base = base_url (self);
      self->pending++;
      hr_skypilot_refresh_async (base, (const char *const *) enabled, self->catalog, dir,
                                 self->cancellable, catalog_refresh_cb, self);
    }
  if (url[0] != '\0')
    {
      g_autofree char *path = cache_path (self);

      self->pending++;
      hr_pricing_client_refresh_async (url, path, self->cancellable, feed_refresh_cb, self);
    }
  refresh_done (self);
}

void
hr_pricing_manager_refresh (HrPricingManager *self)
{
  g_return_if_fail (HR_IS_PRICING_MANAGER (self));
  refresh (self, FALSE);
}

void
hr_pricing_manager_refresh_when_due (HrPricingManager *self)
{
  g_return_if_fail (HR_IS_PRICING_MANAGER (self));
  if (hr_pricing_manager_is_due (self))
    refresh (self, TRUE);
}

gboolean
hr_pricing_manager_get_failure_is_news (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), TRUE);
  return self->failure_told;
}

const char *
hr_pricing_manager_get_details (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), NULL);
  return self->details;
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

gboolean
hr_pricing_manager_has_load_error (HrPricingManager *self)
{
  g_return_val_if_fail (HR_IS_PRICING_MANAGER (self), FALSE);
  return self->load_error != NULL;
}
