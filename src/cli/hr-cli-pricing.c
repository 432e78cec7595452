/* hr-cli-pricing.c — `headroom-cli pricing [--catalog-base URL] [--clouds LIST] [--region P]
 *                     [--spot] [--url FEED] [--timeout S] [--json]`
 *
 * Downloads each cloud's SkyPilot catalog file (as the application does, into the same cache
 * that estimate, compare and the app read), prints the offers with the chosen price, and names
 * the clouds that could not be updated (their cached or bundled prices are used; one with
 * neither is left out).  --url adds a schema-1 feed, validated as the application would; a
 * feed that fails is exit status 1, since scripts use this to check a feed before publishing it.
 */
#include "hr-cli-pricing.h"
#include "hr-cli-common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-hash.h"
#include "hr-http.h"
#include "hr-json-writer.h"
#include "hr-pricing-client.h"
#include "hr-skypilot-client.h"
#include "hr-units.h"

typedef struct
{
  GMainLoop *loop;
  HrPricing *pricing;
  GError    *error;
} SyncFetch;

/* One line, whatever the error message carries. */
static void
print_failure (const char *message)
{
  hr_cli_print_error ("headroom-cli pricing", message);
}

static void
print_padded (const char *text,
              int         width)
{
  g_autoptr(GString) cell = g_string_new (NULL);

  hr_cli_append_padded (cell, text, -width);
  fputs (cell->str, stdout);
}

static const char *
or_dash (const char *text)
{
  return text != NULL ? text : "—";
}

static char *
gpus_label (const HrOffer *offer)
{
  return g_strdup_printf ("%dx %s", offer->count, offer->gpu);
}

static char *
price_text (double usd)
{
  char num[HR_CLI_NUM_SIZE];

  return usd > 0 ? g_strdup (hr_cli_number (num, usd, 2, 0)) : g_strdup ("—");
}

static void
print_table (const HrPricing *pricing,
             const char      *title)
{
  int provider_w = (int) strlen ("Provider");
  int instance_w = (int) strlen ("Instance");
  int gpus_w = (int) strlen ("GPUs");
  guint i;

  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
      g_autofree char *gpus = gpus_label (offer);

      provider_w = MAX (provider_w, (int) g_utf8_strlen (offer->provider, -1));
      instance_w = MAX (instance_w, (int) g_utf8_strlen (or_dash (offer->instance), -1));
      gpus_w = MAX (gpus_w, (int) g_utf8_strlen (gpus, -1));
    }

  printf ("%s\n", title);
  print_padded ("Provider", provider_w + 2);
  print_padded ("Instance", instance_w + 2);
  print_padded ("GPUs", gpus_w + 2);
  print_padded ("VRAM", 10);
  print_padded ("$/hour", 10);
  print_padded ("Spot $/h", 10);
  printf ("Region\n");

  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
      g_autofree char *gpus = gpus_label (offer);
      g_autofree char *vram = NULL;
      g_autofree char *hourly = price_text (offer->usd_per_hour);
      g_autofree char *spot = price_text (offer->spot_usd_per_hour);
      char num[HR_CLI_NUM_SIZE];

      /* "80 GB", "282 GB", "0.5 GB": whole numbers without decimals. */
      hr_cli_number (num, offer->vram_gb, offer->vram_gb == floor (offer->vram_gb) ? 0 : 1, 0);
      vram = g_strdup_printf ("%s GB", num);
      print_padded (offer->provider, provider_w + 2);
      print_padded (or_dash (offer->instance), instance_w + 2);
      print_padded (gpus, gpus_w + 2);
      print_padded (vram, 10);
      print_padded (hourly, 10);
      print_padded (spot, 10);
      printf ("%s\n", or_dash (offer->region));
    }

  printf ("%u offers", pricing->offers->len);
  if (pricing->skipped > 0)
    printf (", %u invalid offers skipped", pricing->skipped);
  if (pricing->unread > 0)
    printf (", %u more past the first %d not read", pricing->unread, HR_PRICING_MAX_OFFERS);
  printf ("\n");
}

static double
price_key (const HrOffer *o)
{
  return isfinite (o->usd_per_hour) && o->usd_per_hour > 0 ? o->usd_per_hour : INFINITY;
}

/* As the app's Cloud table lists them: cheapest first (the price in use, the spot price with
 * --spot), then by provider, instance, GPUs and region, so that two runs print the same list
 * whichever cloud answered first. */
static gint
offer_by_price (gconstpointer a,
                gconstpointer b)
{
  const HrOffer *oa = *(HrOffer *const *) a;
  const HrOffer *ob = *(HrOffer *const *) b;
  int c;

  if (price_key (oa) != price_key (ob))
    return price_key (oa) < price_key (ob) ? -1 : 1;
  if ((c = g_strcmp0 (oa->provider, ob->provider)) != 0 || (c = g_strcmp0 (oa->instance, ob->instance)) != 0
      || (c = g_strcmp0 (oa->gpu, ob->gpu)) != 0)
    return c;
  if (oa->count != ob->count)
    return oa->count < ob->count ? -1 : 1;
  return g_strcmp0 (oa->region, ob->region);
}

/* A feed price; 0 (none) is null. */
static double
price_or_nan (double usd)
{
  return usd > 0 ? usd : NAN;
}

static void
write_offer (HrJsonWriter  *w,
             const HrOffer *o)
{
  hr_json_begin_object_inline (w);
  hr_json_member_string (w, "provider", o->provider);
  hr_json_member_string (w, "instance", o->instance);
  hr_json_member_string (w, "gpu_id", o->gpu_id);
  hr_json_member_string (w, "gpu", o->gpu);
  hr_json_member_int (w, "count", o->count);
  hr_json_member_number_g (w, "vram_gb", o->vram_gb);
  hr_json_member_number_g (w, "usd_per_hour",
                           price_or_nan (o->instance != NULL ? o->on_demand_usd_per_hour
                                                             : o->usd_per_hour));
  hr_json_member_number_g (w, "spot_usd_per_hour", price_or_nan (o->spot_usd_per_hour));
  hr_json_member_string (w, "region", o->region);
  hr_json_end_object (w);
}

/* "key": ["a", "b"] on one line */
static void
write_names (HrJsonWriter *w,
             const char   *key,
             GPtrArray    *names)
{
  hr_json_key (w, key);
  hr_json_begin_array_inline (w);
  for (guint i = 0; i < names->len; i++)
    hr_json_string (w, g_ptr_array_index (names, i));
  hr_json_end_array (w);
}

/* {"source", "fetched_at", "offers": [...], "unmapped": [...], "failed": [...]} */
static char *
to_json (const HrPricing *pricing,
         const char      *fetched_at,
         GPtrArray       *unmapped,
         GPtrArray       *failed)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "source", pricing->source);
  hr_json_member_string (&w, "fetched_at", fetched_at);
  hr_json_key (&w, "offers");
  hr_json_begin_array (&w);
  for (guint i = 0; i < pricing->offers->len; i++)
    write_offer (&w, g_ptr_array_index (pricing->offers, i));
  hr_json_end_array (&w);
  write_names (&w, "unmapped", unmapped);
  write_names (&w, "failed", failed);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

static void
fetch_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  SyncFetch *sync = user_data;

  sync->pricing = hr_pricing_client_fetch_finish (result, &sync->error);
  g_main_loop_quit (sync->loop);
}

static HrPricing *
fetch_sync (const char  *url,
            GError     **error)
{
  SyncFetch sync = { 0 };

  sync.loop = g_main_loop_new (NULL, FALSE);
  hr_pricing_client_fetch_async (url, NULL, fetch_cb, &sync);
  g_main_loop_run (sync.loop);
  g_main_loop_unref (sync.loop);

  if (sync.error != NULL)
    g_propagate_error (error, sync.error);
  return sync.pricing;
}

static void
refresh_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static HrSkypilotRefresh *
refresh_sync (const char        *base,
              const char *const *clouds,
              const HrCatalog   *catalog,
              const char        *cache_dir)
{
  GAsyncResult *result = NULL;
  HrSkypilotRefresh *refresh;

  hr_skypilot_refresh_async (base, clouds, catalog, cache_dir, NULL, refresh_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  refresh = hr_skypilot_refresh_finish (result, NULL);
  g_object_unref (result);
  return refresh;
}

/* --clouds "aws,gcp": known names only, in the catalog's order. */
static GStrv
parse_clouds (const char  *list,
              GError     **error)
{
  g_auto(GStrv) wanted = list ? g_strsplit (list, ",", -1) : NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; wanted != NULL && wanted[i] != NULL; i++)
    {
      g_strstrip (wanted[i]);
      if (!hr_skypilot_is_cloud (wanted[i]))
        {
          g_autofree char *known = g_strjoinv (", ", (char **) hr_skypilot_clouds ());

          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--clouds: unknown cloud “%s” (known: %s)", wanted[i], known);
          return NULL;
        }
    }
  for (const char *const *c = hr_skypilot_clouds (); *c != NULL; c++)
    if (wanted == NULL || g_strv_contains ((const char *const *) wanted, *c))
      g_strv_builder_add (builder, *c);
  return g_strv_builder_end (builder);
}

/* The oldest date of the clouds in use: what "fetched_at" stands for. */
static char *
oldest_date (GPtrArray *clouds)
{
  const char *oldest = NULL;

  for (guint i = 0; i < clouds->len; i++)
    {
      const HrSkypilotCloud *c = g_ptr_array_index (clouds, i);

      if (c->date != NULL && (oldest == NULL || strcmp (c->date, oldest) < 0))
        oldest = c->date;
    }
  return g_strdup (oldest);
}

static GPtrArray *
unmapped_names (GPtrArray *clouds)
{
  g_autoptr(GHashTable) seen = hr_name_table_new (NULL, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < clouds->len; i++)
    {
      const HrSkypilotCloud *c = g_ptr_array_index (clouds, i);
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, c->unmapped);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (g_hash_table_add (seen, key))
          g_ptr_array_add (names, g_strdup (key));
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

static int
bad_argument (const char *message)
{
  print_failure (message);
  return 2;
}

/* The options of `pricing`, parsed and checked. */
typedef struct
{
  char *url;
  char *catalog_base;
  char *cloud_list;
  char *region;
  char **cloud_ids;   /* --clouds as catalog ids, in the catalog's order */
  gboolean json;
  gboolean spot;
  int timeout;
} PricingArgs;

static void
pricing_args_clear (PricingArgs *a)
{
  g_free (a->url);
  g_free (a->catalog_base);
  g_free (a->cloud_list);
  g_free (a->region);
  g_strfreev (a->cloud_ids);
}

static gboolean
is_http_url (const char *url)
{
  return g_str_has_prefix (url, "http://") || g_str_has_prefix (url, "https://");
}

/* Parses @argv into @a: 0, or the exit status 2 after a one-line message. */
static int
parse_pricing_args (int          argc,
                    char       **argv,
                    PricingArgs *a)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = g_new0 (char *, MAX (argc, 0) + 1);
  guint n;
  GOptionEntry entries[] = {
    { "catalog-base", 0, 0, G_OPTION_ARG_STRING, &a->catalog_base,
      "SkyPilot catalog base address (default: $HEADROOM_CATALOG_BASE, else " HR_SKYPILOT_DEFAULT_BASE ")", "URL" },
    { "clouds", 0, 0, G_OPTION_ARG_STRING, &a->cloud_list,
      "Only these clouds, comma-separated (aws,gcp,lambda,runpod,vast,nebius,cudo,hyperbolic,shadeform,primeintellect)", "LIST" },
    { "region", 0, 0, G_OPTION_ARG_STRING, &a->region, "Only regions starting with PREFIX (default: the cheapest region anywhere)", "PREFIX" },
    { "spot", 0, 0, G_OPTION_ARG_NONE, &a->spot, "Price offers at their spot price (offers without one are left out)", NULL },
    { "url", 0, 0, G_OPTION_ARG_STRING, &a->url, "Also download and validate the schema-1 pricing feed at URL (http or https)", "URL" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &a->timeout, "Give up on the feed download after S seconds (default 10)", "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &a->json, "Print the offers as JSON", NULL },
    { NULL }
  };

  a->timeout = HR_HTTP_DEFAULT_TIMEOUT;
  /* Parse a copy: GOption rearranges the vector it is given. */
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  g_option_context_set_summary (context,
                                "Prints cloud GPU offers. "
                                "Downloads each cloud's file of the SkyPilot catalog (in parallel), "
                                "caches it for estimate, compare and the app, and prints the offers.\n"
                                "A cloud that fails keeps its cached or bundled prices (else it is left "
                                "out) and is named on stderr. With --url, a schema-1 feed is added; exit status 1 if it is unusable.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_autofree char *hint = hr_cli_option_hint (context, error, argc, argv);
      g_autofree char *message = g_strconcat (error->message, hint, NULL);

      return bad_argument (message);
    }

  /* args[0] is the subcommand; tolerate the program name before it too. */
  n = g_strv_length (args);
  if (n > 2 || (n == 2 && g_strcmp0 (args[1], "pricing") != 0))
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument “%s”", args[n - 1]);

      return bad_argument (message);
    }
  if (a->timeout < 1 || a->timeout > HR_HTTP_MAX_TIMEOUT)
    {
      g_autofree char *message = g_strdup_printf ("--timeout must be between 1 and %d seconds",
                                                  HR_HTTP_MAX_TIMEOUT);

      return bad_argument (message);
    }
  if (a->url != NULL && !is_http_url (a->url))
    return bad_argument ("--url must start with http:// or https://");
  if (a->catalog_base != NULL && !is_http_url (a->catalog_base))
    return bad_argument ("--catalog-base must start with http:// or https://");
  if ((a->cloud_ids = parse_clouds (a->cloud_list, &error)) == NULL)
    return bad_argument (error->message);
  return 0;
}

/* --catalog-base wins over the environment, which wins over the default */
static char *
catalog_base_url (const PricingArgs *a)
{
  char *base;

  if (a->catalog_base == NULL)
    return hr_skypilot_base_url (NULL);
  base = g_strdup (a->catalog_base);
  while (g_str_has_suffix (base, "/"))
    base[strlen (base) - 1] = '\0';
  return base;
}

/* Each wanted cloud's offers: downloaded now, else (named in @failed, its id in @failed_ids)
 * cached or bundled, else none. */
static GPtrArray *
gather_clouds (const PricingArgs *a,
               const HrCatalog   *catalog,
               GPtrArray         *failed,
               GPtrArray         *failed_ids)
{
  g_autofree char *base = catalog_base_url (a);
  g_autofree char *cache_dir = hr_skypilot_cache_dir ();
  g_autoptr(HrSkypilotRefresh) refresh = NULL;
  g_autoptr(GPtrArray) fallback = NULL;
  GPtrArray *clouds;

  if (a->cloud_ids[0] == NULL)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  refresh = refresh_sync (base, (const char *const *) a->cloud_ids, catalog, cache_dir);
  if (refresh == NULL)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  for (guint i = 0; i < refresh->failed->len; i++)
    {
      g_ptr_array_add (failed, g_strdup (g_ptr_array_index (refresh->failed, i)));
      g_ptr_array_add (failed_ids, g_strdup (g_ptr_array_index (refresh->failed_ids, i)));
    }
  clouds = g_steal_pointer (&refresh->clouds);
  if (refresh->failed_ids->len == 0)
    return clouds;
  /* the clouds that failed come from the cache or the snapshot */
  g_ptr_array_add (refresh->failed_ids, NULL);
  fallback = hr_skypilot_load_clouds (catalog, cache_dir, base, (const char *const *) refresh->failed_ids->pdata);
  g_ptr_array_set_size (refresh->failed_ids, refresh->failed_ids->len - 1);
  while (fallback->len > 0)
    hr_skypilot_clouds_replace (clouds, g_ptr_array_steal_index (fallback, 0));
  return clouds;
}

/* One line naming the clouds that were not updated, grouped by what they are priced with now:
 * "not updated, saved prices used: AWS: …; not updated, no saved or bundled prices, left out:
 * Google Cloud: …". */
static void
print_failures (GPtrArray *failed,
                GPtrArray *failed_ids,
                GPtrArray *clouds)
{
  static const char *const outcome[HR_SKYPILOT_N_FALLBACKS] = {
    [HR_SKYPILOT_FALLBACK_CACHE] = "saved prices used",
    [HR_SKYPILOT_FALLBACK_SNAPSHOT] = "bundled prices used",
    [HR_SKYPILOT_FALLBACK_NONE] = "no saved or bundled prices, left out",
  };
  g_autoptr(GString) line = g_string_new (NULL);

  for (HrSkypilotFallback f = 0; f < HR_SKYPILOT_N_FALLBACKS; f++)
    {
      gboolean first = TRUE;

      for (guint i = 0; i < failed->len; i++)
        {
          if (hr_skypilot_fallback (clouds, g_ptr_array_index (failed_ids, i)) != f)
            continue;
          if (line->len > 0)
            g_string_append (line, "; ");
          if (first)
            g_string_append_printf (line, "not updated, %s: ", outcome[f]);
          g_string_append (line, g_ptr_array_index (failed, i));
          first = FALSE;
        }
    }
  /* one line, whatever the servers said */
  g_strdelimit (line->str, "\r\n", ' ');
  fprintf (stderr, "headroom-cli pricing: %s\n", line->str);
}

static void
print_offers_text (const HrPricing *pricing,
                   const HrPricing *feed,
                   const char      *fetched_at,
                   GPtrArray       *unmapped,
                   gboolean         spot)
{
  /* not the catalog's: not one cloud could be read, neither downloaded nor saved before (the
   * offers, if any, are the feed's) */
  const char *how = !g_str_has_prefix (pricing->source ? pricing->source : "", "catalog-") ? "no cloud readable"
                    : g_str_equal (pricing->source, "catalog-network") ? "downloaded"
                    : g_str_equal (pricing->source, "catalog-cache") ? "partly cached"
                    : "partly bundled snapshot";
  g_autofree char *title = g_strdup_printf ("Cloud GPU offers (SkyPilot catalog, %s, %s%s%s, %s)",
                                            fetched_at ? fetched_at : "no date", how,
                                            feed ? " + feed " : "", feed ? feed->updated : "",
                                            spot ? "spot" : "on demand");

  print_table (pricing, title);
  if (unmapped->len > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (unmapped, NULL);
      names = g_strjoinv (", ", (char **) unmapped->pdata);
      g_ptr_array_set_size (unmapped, unmapped->len - 1);
      printf ("GPUs Headroom's catalog doesn't know (offers kept, no speed estimate): %s\n", names);
    }
}

int
hr_cli_pricing (int    argc,
                char **argv)
{
  PricingArgs a = { 0 };
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(HrPricing) feed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) catalog = NULL;
  g_autoptr(GPtrArray) clouds = NULL;
  g_autoptr(GPtrArray) unmapped = NULL;
  g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) failed_ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *fetched_at = NULL;
  HrSkypilotChoice choice;
  int rc;

  if ((rc = parse_pricing_args (argc, argv, &a)) != 0)
    goto out;
  rc = 1;
  if ((catalog = hr_catalog_new_default (&error)) == NULL)
    {
      print_failure (error->message);
      goto out;
    }
  hr_http_set_timeout ((guint) a.timeout);
  if (a.url != NULL && (feed = fetch_sync (a.url, &error)) == NULL)
    {
      print_failure (error->message);
      goto out;
    }

  clouds = gather_clouds (&a, catalog, failed, failed_ids);
  choice.spot = a.spot;
  choice.region_prefix = a.region;
  pricing = hr_skypilot_build_pricing (clouds, &choice, feed);
  g_ptr_array_sort (pricing->offers, offer_by_price);
  fetched_at = oldest_date (clouds);
  unmapped = unmapped_names (clouds);
  if (a.json)
    {
      g_autofree char *text = to_json (pricing, fetched_at, unmapped, failed);

      fputs (text, stdout);
    }
  else
    print_offers_text (pricing, feed, fetched_at, unmapped, a.spot);

  /* a write that failed inside fputs () leaves nothing for fflush () to fail on: the error
   * flag says it (then the one line is check_output_at_exit ()'s) */
  if (fflush (stdout) != 0 || ferror (stdout))
    goto out;
  /* after the offers, and only when they were written: an error is one line */
  if (failed->len > 0)
    print_failures (failed, failed_ids, clouds);
  rc = 0;

out:
  pricing_args_clear (&a);
  return rc;
}

void
hr_cli_use_catalog_prices (HrCatalog *catalog)
{
  g_autofree char *cache_dir = hr_skypilot_cache_dir ();
  g_autofree char *base = hr_skypilot_base_url (NULL);
  g_autoptr(GPtrArray) clouds = hr_skypilot_load_clouds (catalog, cache_dir, base, hr_skypilot_clouds ());
  HrSkypilotChoice choice = { FALSE, NULL };

  /* no cloud readable at all: an empty price list, sizing works without prices */
  hr_catalog_set_pricing (catalog, hr_skypilot_build_pricing (clouds, &choice, NULL));
}
