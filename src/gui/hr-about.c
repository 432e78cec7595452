/* hr-about.c — the About window: version, licence, credits and where the data comes from
 *
 * What it says about the data is read from what ships: the bundled catalog's counts (a user's
 * own models and GPUs left out), the bundled price snapshot's date and providers.
 */
#include "hr-about.h"

#include "hr-cloud-state.h"
#include "hr-hash.h"
#include "hr-skypilot.h"

#include <glib/gi18n-lib.h>

#include "hr-hub-token.h"
#include "hr-pricing.h"

#define WEBSITE   "https://github.com/headroomapp/headroom"
#define ISSUE_URL "https://github.com/headroomapp/headroom/issues"

static void
count_bundled (const HrCatalog *catalog,
               guint           *n_models,
               guint           *n_gpus)
{
  *n_models = *n_gpus = 0;
  if (catalog == NULL)
    return;
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    if (hr_catalog_get_model (catalog, i)->origin == HR_MODEL_ORIGIN_CATALOG)
      (*n_models)++;
  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    if (!hr_catalog_get_gpu (catalog, i)->user_defined)
      (*n_gpus)++;
}

/* "RunPod https://…" once per provider, in the snapshot's order (AdwAboutWindow links them). */
static GStrv
price_providers (const HrPricing *pricing)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = hr_name_table_new (NULL, NULL);

  for (guint i = 0; pricing != NULL && pricing->offers != NULL && i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
      g_autofree char *entry = NULL;

      if (offer->provider == NULL || !g_hash_table_add (seen, offer->provider))
        continue;
      if (offer->url != NULL && g_str_has_prefix (offer->url, "https://"))
        entry = g_strdup_printf ("%s %s", offer->provider, offer->url);
      else
        entry = g_strdup (offer->provider);
      g_strv_builder_add (builder, entry);
    }
  return g_strv_builder_end (builder);
}

static char *
details_text (const HrCatalog *catalog,
              const char      *snapshot)
{
  const HrPricing *current = catalog ? hr_catalog_get_pricing (catalog) : NULL;
  const char *snapshot_date = snapshot ? snapshot : _("an unknown date");
  guint n_models, n_gpus;
  GString *text = g_string_new (NULL);

  count_bundled (catalog, &n_models, &n_gpus);
  g_string_append (text, _("Can this open-weight language model run on this hardware, with how much memory "
                           "to spare, how fast, and at what cost? Headroom answers offline and instantly."));
  g_string_append (text, "\n\n");
  g_string_append_printf (text,
                          /* TRANSLATORS: the first two numbers are counts of models and accelerators */
                          _("Built-in data: %u models and %u accelerators. Model architectures come from "
                            "each model’s Hugging Face config.json, read through public reference tables "
                            "compiled up to August 2026. Accelerator figures come from vendor datasheets "
                            "and public spec tables, each with its source. Measured GGUF file sizes come "
                            "from llama.cpp’s quantization tables and Unsloth’s file listings; the others "
                            "are computed from the architecture. Speeds are calibrated against published "
                            "llama.cpp measurements."),
                          n_models, n_gpus);
  g_string_append_c (text, ' ');
  /* TRANSLATORS: %s is the date of the bundled snapshot of the SkyPilot catalog */
  g_string_append_printf (text, _("Cloud prices come from the SkyPilot catalog (Apache-2.0), kept by the "
                                  "SkyPilot project from the providers’ own price lists; the snapshot "
                                  "bundled for offline use is of %s."),
                          snapshot_date);
  if (current != NULL && g_strcmp0 (current->source, "catalog-snapshot") != 0 && current->offers != NULL
      && current->offers->len > 0)
    {
      g_autofree char *source = hr_cloud_source_label (current);

      g_string_append_c (text, ' ');
      /* TRANSLATORS: %s says where the prices on screen come from, e.g. "Prices from SkyPilot catalog, 2026-12-01, cached" */
      g_string_append_printf (text, _("On screen now: %s."), source);
    }
  return g_string_free (text, FALSE);
}

static char *
debug_text (const HrCatalog *catalog)
{
  const HrPricing *pricing = catalog ? hr_catalog_get_pricing (catalog) : NULL;

  return g_strdup_printf ("Headroom %s\nGTK %u.%u.%u\nlibadwaita %u.%u.%u\nGLib %u.%u.%u\n"
                          "Catalog: %u models, %u GPUs, %u quantizations\n"
                          "Prices: %u offers, %s, dated %s\n"
                          "Hub token storage: %s\n",
                          PACKAGE_VERSION,
                          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
                          adw_get_major_version (), adw_get_minor_version (), adw_get_micro_version (),
                          glib_major_version, glib_minor_version, glib_micro_version,
                          catalog ? hr_catalog_n_models (catalog) : 0,
                          catalog ? hr_catalog_n_gpus (catalog) : 0,
                          catalog ? hr_catalog_n_quants (catalog) : 0,
                          pricing && pricing->offers ? pricing->offers->len : 0,
                          pricing && pricing->source ? pricing->source : "none",
                          pricing && pricing->updated ? pricing->updated : "unknown",
                          hr_hub_token_have_keyring () ? "keyring (libsecret), else GSettings" : "GSettings");
}

/* Public API -------------------------------------------------------------------------------- */

GtkWidget *
hr_about_window_new (GtkWindow       *parent,
                     const HrCatalog *catalog)
{
  static const char *developers[] = { "The Headroom developers " WEBSITE, NULL };
  /* where the catalog's figures were read; the sources of single figures are in the catalog */
  static const char *data_sources[] = {
    "Hugging Face: model configurations https://huggingface.co",
    "AIConfigurator: model configurations https://github.com/ai-dynamo/aiconfigurator",
    "llmfit: model tables https://github.com/AlexsJones/llmfit",
    "gpumap: GPU specifications https://github.com/lamonoai/gpumap",
    "llama.cpp: quantization formats and benchmarks https://github.com/ggml-org/llama.cpp",
    "Unsloth: GGUF file listings https://huggingface.co/unsloth",
    "SkyPilot catalog (Apache-2.0): cloud GPU prices https://github.com/skypilot-org/skypilot-catalog",
    NULL
  };
  g_autofree char *snapshot = hr_skypilot_snapshot_date ();
  g_autofree char *details = details_text (catalog, snapshot);
  g_autofree char *debug = debug_text (catalog);
  g_auto(GStrv) providers = price_providers (catalog ? hr_catalog_get_pricing (catalog) : NULL);
  AdwAboutWindow *about;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", TRUE,
                        "application-name", _("Headroom"),
                        "application-icon", APP_ID,
                        "developer-name", _("The Headroom developers"),
                        "version", PACKAGE_VERSION,
                        "comments", details,
                        "website", WEBSITE,
                        "issue-url", ISSUE_URL,
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", _("© 2026 The Headroom developers"),
                        "developers", developers,
                        /* TRANSLATORS: your name(s), one per line, "Name <email>" or "Name https://…" */
                        "translator-credits", _("translator-credits"),
                        "release-notes-version", PACKAGE_VERSION,
                        "release-notes", _("<p>The first release.</p>"
                                           "<ul>"
                                           "<li>Memory, speed and cost of open-weight models on GPUs and "
                                           "unified-memory machines, with a verdict and its reasons</li>"
                                           "<li>Charts, a quantization matrix, reverse answers and hardware "
                                           "recommendations</li>"
                                           "<li>Launch commands for llama.cpp, vLLM, SGLang, Ollama and MLX</li>"
                                           "<li>Cloud prices with an offline snapshot, and rent or buy</li>"
                                           "<li>Your own models from config.json or GGUF files, and your own GPUs</li>"
                                           "<li>The headroom-cli command-line tool, with the same numbers</li>"
                                           "</ul>"),
                        "debug-info", debug,
                        "debug-info-filename", "headroom-debug-info.txt",
                        NULL);

  adw_about_window_add_acknowledgement_section (about, _("Data Sources"), data_sources);
  if (providers[0] != NULL)
    adw_about_window_add_acknowledgement_section (about, _("Cloud Prices"), (const char **) providers);

  adw_about_window_add_legal_section (about, _("Catalog Data"), NULL, GTK_LICENSE_CUSTOM,
                                      _("Specifications, file sizes and prices are facts gathered from public "
                                        "sources, with the source recorded next to every figure in the "
                                        "catalog; figures without a source stay unknown. Estimates carry a "
                                        "range, not a promise, and prices change often: check with the "
                                        "provider before you rent or buy."));
  adw_about_window_add_legal_section (about, "SkyPilot catalog", NULL, GTK_LICENSE_APACHE_2_0, NULL);
  adw_about_window_add_legal_section (about, _("Quantization Formats"), NULL, GTK_LICENSE_CUSTOM,
                                      _("Block sizes and per-tensor type rules follow ggml and llama.cpp’s "
                                        "llama-quantize, which are under the MIT licence."));

  return GTK_WIDGET (about);
}
