/* hr-cloud-state.c — what the Cloud & TCO view shows, as plain strings and numbers
 *
 * An offer fits when the scenario, moved onto the offer's GPUs (same model, quant, context,
 * engine…), is not "exceeds" — the test hr_advice_recommend() uses for its cloud pick.  Its
 * speed, and so its cost per 1M tokens, is estimated on that hardware.  An offer whose GPU the
 * catalog does not know fits by its total memory alone, and its cost per token stays unknown.
 */
#include "hr-cloud-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-hash.h"
#include "hr-scenario-state.h"
#include "hr-scenario-text.h"
#include "hr-units.h"

#define DASH "—"

/* Formatting ------------------------------------------------------------------------------ */

/* @usd in dollars and cents, or NULL when it is not finite: the caller puts its unit around it,
 * or a dash. */
static char *
finite_usd (double usd)
{
  return isfinite (usd) ? hr_size_format_usd (usd, 2) : NULL;
}

char *
hr_cloud_format_hourly (double usd_per_hour)
{
  g_autofree char *usd = finite_usd (usd_per_hour);

  /* TRANSLATORS: a price per hour, e.g. "$1.19/h" */
  return usd ? g_strdup_printf (_("%s/h"), usd) : g_strdup (DASH);
}

char *
hr_cloud_format_monthly (double usd)
{
  g_autofree char *n = finite_usd (usd);

  /* TRANSLATORS: a monthly cost, e.g. "$144.70/month" */
  return n ? g_strdup_printf (_("%s/month"), n) : g_strdup (DASH);
}

char *
hr_cloud_format_months (double months)
{
  g_autofree char *n = NULL;

  if (isinf (months))
    return g_strdup (C_("payback", "Never"));
  if (!isfinite (months) || months < 0)
    return g_strdup (DASH);
  n = hr_size_format_number (hr_round (months, 1), 1);
  /* TRANSLATORS: months until buying beats renting, e.g. "~64.4 months" */
  return g_strdup_printf (_("~%s months"), n);
}

static char *
format_cost_per_mtok (double usd)
{
  if (!isfinite (usd))
    return g_strdup (DASH);
  /* cents are too coarse below a dime */
  return hr_size_format_usd (usd, usd < 0.1 ? 3 : 2);
}

char *
hr_cloud_billing_display (const char *billing)
{
  static const struct { const char *id; const char *label; } known[] = {
    { "per-second", N_("Per second") },
    { "per-minute", N_("Per minute") },
    { "per-hour", N_("Per hour") },
    { "hourly", N_("Per hour") },
    { "per-day", N_("Per day") },
    { "monthly", N_("Monthly") },
    { "per-month", N_("Monthly") },
    { "spot", N_("Spot") },
    { "on-demand", N_("On demand") },
    { "spot-or-on-demand", N_("Spot or on demand") },
    { "reserved", N_("Reserved") },
  };

  if (billing == NULL || billing[0] == '\0')
    return g_strdup (DASH);
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_ascii_strcasecmp (billing, known[i].id) == 0)
      return g_strdup (_(known[i].label));
  /* a feed may use its own words: show them as they are */
  return g_strdup (billing);
}

/* "Prices from SkyPilot catalog, 2026-11-28, cached" (+ " · pricing feed 2026-12-01"). */
static char *
catalog_source_label (const HrPricing *pricing)
{
  const char *date = pricing->updated ? pricing->updated : "?";
  g_autofree char *label = NULL;

  if (g_strcmp0 (pricing->source, "catalog-snapshot") == 0)
    /* TRANSLATORS: where the prices come from; the argument is a date */
    label = g_strdup_printf (_("Prices from SkyPilot catalog, %s, bundled snapshot"), date);
  else if (g_strcmp0 (pricing->source, "catalog-cache") == 0)
    /* TRANSLATORS: where the prices come from; the argument is a date */
    label = g_strdup_printf (_("Prices from SkyPilot catalog, %s, cached"), date);
  else
    /* TRANSLATORS: where the prices come from; the argument is a date */
    label = g_strdup_printf (_("Prices from SkyPilot catalog, %s"), date);
  if (pricing->feed_updated == NULL)
    return g_steal_pointer (&label);
  /* TRANSLATORS: catalog prices and an extra feed, e.g. "Prices from … · pricing feed 2026-12-01" */
  return g_strdup_printf (_("%s · pricing feed %s"), label, pricing->feed_updated);
}

char *
hr_cloud_source_label (const HrPricing *pricing)
{
  const char *where;

  if (pricing == NULL || pricing->offers == NULL || pricing->offers->len == 0)
    return g_strdup (_("No cloud prices"));

  if (g_str_has_prefix (pricing->source ? pricing->source : "", "catalog-"))
    return catalog_source_label (pricing);

  if (g_strcmp0 (pricing->source, "feed") == 0)
    where = _("pricing feed");
  else if (g_strcmp0 (pricing->source, "cache") == 0)
    where = _("cached pricing feed");
  else
    where = _("bundled snapshot");

  if (pricing->updated == NULL)
    /* TRANSLATORS: where the prices come from, e.g. "Prices of unknown date · pricing feed" */
    return g_strdup_printf (_("Prices of unknown date · %s"), where);
  /* TRANSLATORS: the date of the prices and where they come from, e.g.
   * "Prices verified 2026-11-05 · bundled snapshot" */
  return g_strdup_printf (_("Prices verified %s · %s"), pricing->updated, where);
}

/* Offers ----------------------------------------------------------------------------------- */

static void
cloud_offer_free (HrCloudOffer *o)
{
  if (o == NULL)
    return;
  g_free (o->key);
  g_free (o->provider);
  g_free (o->instance);
  g_free (o->tier);
  g_free (o->vram);
  g_free (o->hourly);
  g_free (o->monthly);
  g_free (o->billing);
  g_free (o->cost_per_mtok);
  g_free (o->speed);
  g_free (o->url);
  g_free (o->label);
  g_free (o);
}

static gboolean
offer_fits (const HrScenario *scenario,
            const HrCatalog  *catalog,
            const HrOffer    *offer,
            HrEstimate       *e)
{
  const HrGpu *gpu = offer->gpu_id ? hr_catalog_find_gpu (catalog, offer->gpu_id) : NULL;

  if (gpu != NULL)
    {
      HrScenario s = *scenario;

      s.gpu = gpu;
      s.n_gpus = offer->count;
      s.backend_set = FALSE;
      return hr_estimate_compute (&s, NULL, e, NULL) && e->verdict != HR_VERDICT_EXCEEDS;
    }

  /* unknown hardware: its memory is all we know; no speed */
  if (!hr_estimate_compute (scenario, NULL, e, NULL))
    return FALSE;
  e->decode_tps = NAN;
  e->aggregate_tps = NAN;
  e->verdict = HR_VERDICT_FITS;
  return hr_to_gb (e->required_bytes) <= offer->vram_gb * (1 - scenario->reserve);
}

static HrCloudOffer *
cloud_offer_new (const HrOffer    *offer,
                 const HrEstimate *e)
{
  HrCloudOffer *o = g_new0 (HrCloudOffer, 1);
  g_autofree char *vram = hr_size_format_number (offer->vram_gb, 0);

  o->key = g_strdup_printf ("%s\n%s\n%d\n%s\n%s\n%.6f", offer->provider, offer->gpu, offer->count,
                            offer->tier ? offer->tier : "", offer->url ? offer->url : "",
                            offer->usd_per_hour);
  o->provider = g_strdup (offer->provider);
  /* TRANSLATORS: an instance's GPUs, e.g. "1× A100 80GB SXM" */
  o->instance = g_strdup_printf (_("%d× %s"), offer->count, offer->gpu);
  o->tier = g_strdup (offer->tier ? offer->tier : "");
  /* TRANSLATORS: an instance's total memory in decimal gigabytes, e.g. "80 GB" */
  o->vram = g_strdup_printf (_("%s GB"), vram);
  o->usd_per_hour = offer->usd_per_hour;
  o->hourly = hr_cloud_format_hourly (offer->usd_per_hour);
  o->billing = hr_cloud_billing_display (offer->billing);
  o->url = g_strdup (offer->url);
  /* TRANSLATORS: an offer, e.g. "RunPod · 1× A100 80GB SXM" */
  o->label = g_strdup_printf (_("%s · %s"), offer->provider, o->instance);
  o->vram_gb = offer->vram_gb;
  o->verdict = e->verdict;
  /* cost per token, not per hour: the same formula as hr_estimate_compute()'s own */
  o->cost_per_mtok_usd = isfinite (e->aggregate_tps) && e->aggregate_tps > 0
                         ? offer->usd_per_hour / (e->aggregate_tps * 3600.0) * 1e6
                         : NAN;
  o->cost_per_mtok = format_cost_per_mtok (o->cost_per_mtok_usd);
  o->speed = isfinite (e->decode_tps) ? hr_size_format_tps (e->decode_tps) : g_strdup (DASH);
  return o;
}

/* The same offer again: provider, GPUs, instance, region, price, billing and address equal to an
 * earlier one's (a price list may name one offer twice under two promotions' words).  @seen
 * holds the keys of the offers before. */
static gboolean
is_listed_twice (GHashTable    *seen,
                 const HrOffer *o)
{
  char *key = g_strdup_printf ("%s\x1f%s\x1f%d\x1f%.6f\x1f%s\x1f%s\x1f%s\x1f%s", o->provider, o->gpu,
                               o->count, o->usd_per_hour, o->billing ? o->billing : "",
                               o->url ? o->url : "", o->instance ? o->instance : "",
                               o->region ? o->region : "");

  return !g_hash_table_add (seen, key);
}

/* "3 offers for GPUs Headroom doesn't know: A10G, V100": offers whose GPU the catalog lacks are
 * kept (they fit by memory alone) and named, never dropped in silence.  NULL when none. */
static char *
unknown_gpus_note (const HrPricing *pricing)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree char *list = NULL;
  guint n = 0;

  for (guint i = 0; pricing != NULL && pricing->offers != NULL && i < pricing->offers->len; i++)
    {
      const HrOffer *o = g_ptr_array_index (pricing->offers, i);
      gboolean seen = FALSE;

      if (o->gpu_id != NULL)
        continue;
      n++;
      for (guint j = 0; j < names->len && !seen; j++)
        seen = g_strcmp0 (g_ptr_array_index (names, j), o->gpu) == 0;
      if (!seen)
        g_ptr_array_add (names, o->gpu);
    }
  if (n == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  list = g_strjoinv (", ", (char **) names->pdata);
  /* TRANSLATORS: offers whose GPU is not in Headroom's catalog, e.g. "3 offers for GPUs Headroom doesn't know: A10G, V100" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u offer for GPUs Headroom doesn’t know: %s",
                                       "%u offers for GPUs Headroom doesn’t know: %s", n), n, list);
}

static gint
compare_offers (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const HrCloudOffer *oa = *(const HrCloudOffer **) a;
  const HrCloudOffer *ob = *(const HrCloudOffer **) b;
  HrCloudSort sort = GPOINTER_TO_INT (user_data);
  double ca = isfinite (oa->cost_per_mtok_usd) ? oa->cost_per_mtok_usd : INFINITY;
  double cb = isfinite (ob->cost_per_mtok_usd) ? ob->cost_per_mtok_usd : INFINITY;
  int c;

  if (sort == HR_CLOUD_SORT_PER_MTOK && ca != cb)
    return ca < cb ? -1 : 1;
  if (oa->usd_per_hour != ob->usd_per_hour)
    return oa->usd_per_hour < ob->usd_per_hour ? -1 : 1;
  if (ca != cb)
    return ca < cb ? -1 : 1;
  if ((c = g_utf8_collate (oa->provider, ob->provider)) != 0)
    return c;
  return g_utf8_collate (oa->key, ob->key);
}

HrCloudState *
hr_cloud_state_compute (const HrScenario *scenario,
                        const HrCatalog  *catalog,
                        const HrPricing  *pricing,
                        double            hours_per_day)
{
  return hr_cloud_state_compute_sorted (scenario, catalog, pricing, hours_per_day, HR_CLOUD_SORT_HOURLY);
}

HrCloudState *
hr_cloud_state_compute_sorted (const HrScenario *scenario,
                               const HrCatalog  *catalog,
                               const HrPricing  *pricing,
                               double            hours_per_day,
                               HrCloudSort       sort)
{
  HrCloudState *st = g_new0 (HrCloudState, 1);

  st->offers = g_ptr_array_new_with_free_func ((GDestroyNotify) cloud_offer_free);
  st->source = hr_cloud_source_label (pricing);
  st->n_total = pricing && pricing->offers ? pricing->offers->len : 0;

  if (scenario != NULL && scenario->model != NULL && catalog != NULL)
    {
      g_autoptr(GHashTable) seen = hr_name_table_new (g_free, NULL);

      st->title = g_strdup (scenario->model->name ? scenario->model->name : scenario->model->id);
      st->subtitle = hr_scenario_summary (scenario);
      for (guint i = 0; i < st->n_total; i++)
        {
          const HrOffer *offer = g_ptr_array_index (pricing->offers, i);
          HrEstimate e;

          if (!is_listed_twice (seen, offer) && offer_fits (scenario, catalog, offer, &e))
            g_ptr_array_add (st->offers, cloud_offer_new (offer, &e));
        }
    }
  else
    {
      st->title = g_strdup (_("No scenario"));
      st->subtitle = g_strdup ("");
    }

  st->sort = sort;
  g_ptr_array_sort_with_data (st->offers, compare_offers, GINT_TO_POINTER (sort));
  st->n_fitting = st->offers->len;
  if (st->offers->len > HR_CLOUD_MAX_ROWS)
    g_ptr_array_remove_range (st->offers, HR_CLOUD_MAX_ROWS, st->offers->len - HR_CLOUD_MAX_ROWS);

  if (st->n_total == 0)
    st->summary = g_strdup (_("There are no cloud prices to compare."));
  else if (st->n_fitting == 0)
    st->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                "None of the %u offer can run this scenario.",
                                                "None of the %u offers can run this scenario.",
                                                st->n_total), st->n_total);
  else if (st->n_fitting > st->offers->len)
    /* TRANSLATORS: "The 200 cheapest of 950 offers that can run this scenario (10,000 in all)." */
    st->summary = g_strdup_printf (_("The %u cheapest of %u offers that can run this scenario (%u in all)."),
                                   st->offers->len, st->n_fitting, st->n_total);
  else
    /* TRANSLATORS: "5 of 10 offers can run this scenario." (the plural follows the total) */
    st->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                "%u of %u offer can run this scenario.",
                                                "%u of %u offers can run this scenario.",
                                                st->n_total), st->n_fitting, st->n_total);
  {
    g_autofree char *note = unknown_gpus_note (pricing);

    if (note != NULL)
      {
        char *both = g_strconcat (st->summary, " ", note, ".", NULL);

        g_free (st->summary);
        st->summary = both;
      }
  }

  hr_cloud_state_set_hours (st, hours_per_day);
  return st;
}

void
hr_cloud_state_set_hours (HrCloudState *state,
                          double        hours_per_day)
{
  g_return_if_fail (state != NULL);

  state->hours_per_day = hours_per_day;
  for (guint i = 0; i < state->offers->len; i++)
    {
      HrCloudOffer *o = g_ptr_array_index (state->offers, i);
      HrTcoInput in = { .usd_per_hour = o->usd_per_hour, .hours_per_day = hours_per_day };
      HrTcoResult r;

      hr_tco_compute (&in, &r);
      o->monthly_usd = r.cloud_monthly;
      g_free (o->monthly);
      o->monthly = hr_cloud_format_monthly (r.cloud_monthly);
    }
}

void
hr_cloud_state_free (HrCloudState *state)
{
  if (state == NULL)
    return;
  g_clear_pointer (&state->offers, g_ptr_array_unref);
  g_free (state->title);
  g_free (state->subtitle);
  g_free (state->summary);
  g_free (state->source);
  g_free (state);
}

int
hr_cloud_state_find (const HrCloudState *state,
                     const char         *key)
{
  if (state == NULL || key == NULL)
    return -1;
  for (guint i = 0; i < state->offers->len; i++)
    if (g_strcmp0 (((HrCloudOffer *) g_ptr_array_index (state->offers, i))->key, key) == 0)
      return (int) i;
  return -1;
}

/* Buying ------------------------------------------------------------------------------------ */

static gboolean
pick_usable (const HrPick *pick)
{
  return pick->gpu != NULL && pick->count > 0 && pick->verdict != HR_VERDICT_EXCEEDS;
}

void
hr_buy_choice_compute (HrBuyChoice      *out,
                       const HrScenario *scenario,
                       const HrCatalog  *catalog)
{
  HrRecommendations rec;
  const HrGpu *gpu = NULL;
  int count = 0;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->price_usd = NAN;
  out->power_w = NAN;
  if (scenario == NULL || scenario->model == NULL || catalog == NULL)
    {
      out->label = g_strdup (DASH);
      out->why = g_strdup ("");
      return;
    }

  hr_advice_recommend (scenario, catalog, NULL, &rec);
  if (rec.have_single && pick_usable (&rec.best_single))
    {
      gpu = rec.best_single.gpu;
      count = rec.best_single.count;
      out->why = g_strdup (_("Best single GPU for this scenario"));
    }
  else if (rec.have_value && pick_usable (&rec.best_value))
    {
      gpu = rec.best_value.gpu;
      count = rec.best_value.count;
      out->why = g_strdup (_("Best value for this scenario"));
    }
  else if (scenario->gpu != NULL)
    {
      gpu = scenario->gpu;
      count = MAX (scenario->n_gpus, 1);
      out->why = g_strdup (_("The scenario’s own GPUs"));
    }

  if (gpu == NULL)
    {
      out->label = g_strdup (DASH);
      if (out->why == NULL)
        out->why = g_strdup ("");
      return;
    }
  out->gpu_id = g_strdup (gpu->id);
  out->count = count;
  out->price_usd = isfinite (gpu->price_usd) ? gpu->price_usd * count : NAN;
  out->power_w = isfinite (gpu->tdp_w) && gpu->tdp_w > 0 ? gpu->tdp_w * count : NAN;
  out->label = count > 1
               /* TRANSLATORS: several GPUs of one kind, e.g. "2× RTX 4090 24GB" */
               ? g_strdup_printf (_("%d× %s"), count, gpu->name ? gpu->name : gpu->id)
               : g_strdup (gpu->name ? gpu->name : gpu->id);
}

void
hr_buy_choice_clear (HrBuyChoice *choice)
{
  g_clear_pointer (&choice->gpu_id, g_free);
  g_clear_pointer (&choice->label, g_free);
  g_clear_pointer (&choice->why, g_free);
}

/* Rent versus buy ---------------------------------------------------------------------------- */

/* A price's unit stays on its line: a word joiner (U+2060) after each "/" between a figure
 * and a unit.  Pango may break after a "/": the German card read "$0,175/" over "kWh". */
static char *
keep_units (char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      g_string_append_c (out, *p);
      if (*p == '/' && p > text && g_ascii_isdigit (p[-1]) && g_ascii_isalpha (p[1]))
        g_string_append (out, HR_WORD_JOINER);
    }
  g_free (text);
  return g_string_free (out, FALSE);
}

void
hr_tco_state_compute (HrTcoState         *out,
                      const HrCloudOffer *offer,
                      const HrBuyChoice  *buy,
                      double              hours_per_day,
                      double              usd_per_kwh,
                      double              hardware_usd,
                      double              power_w)
{
  g_autofree char *hourly = NULL;
  g_autofree char *price = NULL;
  g_autofree char *years = NULL;
  g_autofree char *hours = NULL;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->input.usd_per_hour = offer ? offer->usd_per_hour : NAN;
  out->input.hours_per_day = hours_per_day;
  out->input.hardware_usd = hardware_usd;
  out->input.power_w = power_w;
  out->input.usd_per_kwh = usd_per_kwh;
  hr_tco_compute (&out->input, &out->result);

  if (offer != NULL)
    {
      hourly = hr_cloud_format_hourly (offer->usd_per_hour);
      /* TRANSLATORS: the offer rented, e.g. "RunPod · 1× A100 80GB SXM at $1.19/h" */
      out->offer = keep_units (g_strdup_printf (_("%s at %s"), offer->label, hourly));
      out->cloud_monthly = hr_cloud_format_monthly (out->result.cloud_monthly);
      /* TRANSLATORS: chart legend, e.g. "Rent: RunPod 1× A100 80GB SXM" */
      out->cloud_legend = g_strdup_printf (_("Rent: %s %s"), offer->provider, offer->instance);
    }
  else
    {
      out->offer = g_strdup (_("No cloud offer fits"));
      out->cloud_monthly = g_strdup (DASH);
      out->cloud_legend = g_strdup (_("Rent: no offer fits"));
    }
  out->electricity_monthly = hr_cloud_format_monthly (out->result.electricity_monthly);
  hours = hr_size_format_number (hours_per_day, 1);
  if (isfinite (power_w) && power_w > 0)
    {
      g_autofree char *watts = hr_size_format_number (power_w, 0);
      g_autofree char *kwh = hr_size_format_number (usd_per_kwh, 3);
      /* TRANSLATORS: what the electricity cost is made of, e.g. "600 W, 4 h a day at $0.175/kWh" */
      out->electricity_basis = keep_units (g_strdup_printf (_("%s W, %s h a day at $%s/kWh"), watts, hours, kwh));
    }
  else
    out->electricity_basis = g_strdup (_("Board power unknown"));

  price = hr_size_format_usd (hardware_usd, 0);
  if (isfinite (hardware_usd) && hardware_usd > 0)
    /* TRANSLATORS: chart legend, e.g. "Buy: RTX PRO 6000 Blackwell 96GB ($8,500)" */
    out->buy_legend = g_strdup_printf (_("Buy: %s (%s)"), buy && buy->label ? buy->label : "", price);
  else
    out->buy_legend = g_strdup_printf (_("Buy: %s"), buy && buy->label ? buy->label : DASH);

  if (offer == NULL)
    {
      out->payback = g_strdup (DASH);
      out->payback_detail = g_strdup (_("No cloud offer can run this scenario."));
    }
  else if (!isfinite (hardware_usd) || hardware_usd <= 0)
    {
      out->payback = g_strdup (DASH);
      out->payback_detail = g_strdup (_("Enter the price of the hardware to compare."));
    }
  else if (hours_per_day <= 0)
    {
      out->payback = hr_cloud_format_months (INFINITY);
      out->payback_detail = g_strdup (_("Nothing is rented at 0 hours a day."));
    }
  else if (isinf (out->result.months_to_amortise))
    {
      out->payback = hr_cloud_format_months (INFINITY);
      out->payback_detail = g_strdup (_("Electricity at home costs as much as renting."));
    }
  else
    {
      out->payback = hr_cloud_format_months (out->result.months_to_amortise);
      years = hr_size_format_number (hr_round (out->result.months_to_amortise / 12.0, 1), 1);
      /* TRANSLATORS: "About 5.4 years at 4 hours a day" */
      out->payback_detail = g_strdup_printf (_("About %s years at %s hours a day"), years, hours);
    }
}

void
hr_tco_state_clear (HrTcoState *state)
{
  g_clear_pointer (&state->offer, g_free);
  g_clear_pointer (&state->cloud_monthly, g_free);
  g_clear_pointer (&state->electricity_monthly, g_free);
  g_clear_pointer (&state->electricity_basis, g_free);
  g_clear_pointer (&state->payback, g_free);
  g_clear_pointer (&state->payback_detail, g_free);
  g_clear_pointer (&state->cloud_legend, g_free);
  g_clear_pointer (&state->buy_legend, g_free);
}
