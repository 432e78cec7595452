/* hr-cli-pricing.c — `headroom-cli pricing [--url URL] [--timeout S] [--json]`
 *
 * Without --url, prints the snapshot compiled into the program; with it, downloads the feed,
 * validates it as the application would, and prints what survived.  Scripts use this to check
 * a feed before publishing it, so the exit status and the JSON are a contract.
 */
#include "hr-cli-pricing.h"
#include "hr-cli-common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-http.h"
#include "hr-pricing-client.h"
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
  glong chars = g_utf8_strlen (text, -1);

  fputs (text, stdout);
  for (; chars < width; chars++)
    fputc (' ', stdout);
}

static const char *
or_dash (const char *text)
{
  return text != NULL ? text : "—";
}

static char *
instance_label (const HrOffer *offer)
{
  return g_strdup_printf ("%dx %s", offer->count, offer->gpu);
}

static void
print_table (const HrPricing *pricing)
{
  int provider_w = (int) strlen ("Provider");
  int instance_w = (int) strlen ("Instance");
  int billing_w = (int) strlen ("Billing");
  int tier_w = (int) strlen ("Tier");
  guint i;

  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
      g_autofree char *label = instance_label (offer);

      provider_w = MAX (provider_w, (int) g_utf8_strlen (offer->provider, -1));
      instance_w = MAX (instance_w, (int) g_utf8_strlen (label, -1));
      billing_w = MAX (billing_w, (int) g_utf8_strlen (or_dash (offer->billing), -1));
      tier_w = MAX (tier_w, (int) g_utf8_strlen (or_dash (offer->tier), -1));
    }

  printf ("Cloud GPU offers (%s, updated %s, %s)\n",
          pricing->source, pricing->updated, pricing->currency);
  print_padded ("Provider", provider_w + 2);
  print_padded ("Instance", instance_w + 2);
  print_padded ("VRAM", 10);
  print_padded ("$/hour", 10);
  print_padded ("Billing", billing_w + 2);
  print_padded ("Tier", tier_w + 2);
  printf ("URL\n");

  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
      g_autofree char *label = instance_label (offer);
      g_autofree char *vram = NULL;
      char num[G_ASCII_DTOSTR_BUF_SIZE];

      /* "80 GB", "282 GB", "0.5 GB": whole numbers without decimals. */
      hr_format_number_c_buf (num, sizeof num, offer->vram_gb,
                              offer->vram_gb == floor (offer->vram_gb) ? 0 : 1);
      vram = g_strdup_printf ("%s GB", num);
      print_padded (offer->provider, provider_w + 2);
      print_padded (label, instance_w + 2);
      print_padded (vram, 10);
      print_padded (hr_format_number_c_buf (num, sizeof num, offer->usd_per_hour, 2), 10);
      print_padded (or_dash (offer->billing), billing_w + 2);
      print_padded (or_dash (offer->tier), tier_w + 2);
      printf ("%s\n", or_dash (offer->url));
    }

  printf ("%u offers", pricing->offers->len);
  if (pricing->skipped > 0)
    printf (", %u invalid offers skipped", pricing->skipped);
  printf ("\n");
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

int
hr_cli_pricing (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  g_autofree char *url = NULL;
  gboolean json = FALSE;
  int timeout = HR_HTTP_DEFAULT_TIMEOUT;
  int i;
  GOptionEntry entries[] = {
    { "url", 0, 0, G_OPTION_ARG_STRING, &url,
      "Download and validate the pricing feed at URL (http or https)", "URL" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout,
      "Give up on the download after S seconds (default 10)", "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print the offers as JSON", NULL },
    { NULL }
  };

  /* Parse a copy: GOption rearranges the vector it is given. */
  args = g_new0 (char *, MAX (argc, 0) + 1);
  for (i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  context = g_option_context_new ("- print cloud GPU offers");
  g_option_context_set_summary (context,
                                "Without --url, prints the pricing snapshot built into Headroom.\n"
                                "With --url, downloads the feed, validates it and prints the offers "
                                "that pass; exit status 1 if it is unusable.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      print_failure (error->message);
      return 2;
    }

  /* args[0] is the subcommand; tolerate the program name before it too. */
  if (g_strv_length (args) > 2 || (g_strv_length (args) == 2 && g_strcmp0 (args[1], "pricing") != 0))
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument “%s”", args[g_strv_length (args) - 1]);

      print_failure (message);
      return 2;
    }
  if (timeout < 1 || timeout > HR_HTTP_MAX_TIMEOUT)
    {
      g_autofree char *message = g_strdup_printf ("--timeout must be between 1 and %d seconds",
                                                  HR_HTTP_MAX_TIMEOUT);

      print_failure (message);
      return 2;
    }
  if (url != NULL && !g_str_has_prefix (url, "http://") && !g_str_has_prefix (url, "https://"))
    {
      print_failure ("--url must start with http:// or https://");
      return 2;
    }

  if (url != NULL)
    {
      hr_http_set_timeout ((guint) timeout);
      pricing = fetch_sync (url, &error);
    }
  else
    pricing = hr_pricing_load_bundled (&error);

  if (pricing == NULL)
    {
      print_failure (error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *text = hr_pricing_to_json (pricing);

      fputs (text, stdout);
    }
  else
    print_table (pricing);

  return fflush (stdout) == 0 ? 0 : 1;
}
