/* test-cloud-state.c — the Cloud & TCO view's words and figures, without a display
 *
 * hr-cloud-state.c maps the core's results to plain strings; these tests check them against
 * the core itself and against the seed pages' rent-versus-buy block.
 */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-cloud-state.h"
#include "hr-scenario-state.h"
#include "hr-units.h"

static HrCatalog *catalog;
static HrPricing *seed;

static void
default_scenario (HrScenario *s)
{
  const HrModel *model = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb");

  g_assert_nonnull (model);
  g_assert_nonnull (gpu);
  hr_scenario_init (s, model, gpu);
  g_strlcpy (s->quant, "Q4_K_M", sizeof s->quant);
  s->context = 8192;
}

static HrOffer *
offer_new (const char *provider,
           const char *gpu_id,
           const char *gpu,
           int         count,
           double      vram_gb,
           double      usd_per_hour)
{
  HrOffer *o = g_new0 (HrOffer, 1);

  o->provider = g_strdup (provider);
  o->gpu_id = g_strdup (gpu_id);
  o->gpu = g_strdup (gpu);
  o->count = count;
  o->vram_gb = vram_gb;
  o->usd_per_hour = usd_per_hour;
  o->billing = g_strdup ("per-second");
  return o;
}

static HrPricing *
pricing_new (const char *source)
{
  HrPricing *p = hr_pricing_new ();

  p->schema = 1;
  g_free (p->updated);
  p->updated = g_strdup ("2026-12-01");
  g_free (p->currency);
  p->currency = g_strdup ("USD");
  g_free (p->source);
  p->source = g_strdup (source);
  if (p->offers == NULL)
    p->offers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_offer_free);
  return p;
}

static const HrCloudOffer *
find_offer (const HrCloudState *st,
            const char         *provider,
            double              usd_per_hour)
{
  for (guint i = 0; i < st->offers->len; i++)
    {
      const HrCloudOffer *o = g_ptr_array_index (st->offers, i);
      if (g_str_equal (o->provider, provider) && fabs (o->usd_per_hour - usd_per_hour) < 1e-9)
        return o;
    }
  return NULL;
}

/* Every offer that fits, none that does not, cheapest per hour first. */
static void
test_fitting_sorted (void)
{
  const HrPricing *pricing = seed;
  g_autoptr(HrCloudState) st = NULL;
  HrRecommendations rec;
  HrScenario s;
  guint fitting = 0;

  default_scenario (&s);
  st = hr_cloud_state_compute (&s, catalog, pricing, 4);
  g_assert_cmpuint (st->n_total, ==, pricing->offers->len);
  g_assert_cmpuint (st->n_total, >=, 10);

  /* the same test as the core's: the scenario moved onto each offer's GPUs */
  for (guint i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *o = g_ptr_array_index (pricing->offers, i);
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, o->gpu_id);
      HrScenario os = s;
      HrEstimate e;

      g_assert_nonnull (gpu);
      os.gpu = gpu;
      os.n_gpus = o->count;
      g_assert_true (hr_estimate_compute (&os, NULL, &e, NULL));
      if (e.verdict != HR_VERDICT_EXCEEDS)
        {
          fitting++;
          g_assert_nonnull (find_offer (st, o->provider, o->usd_per_hour));
        }
    }
  /* the seed list names Vultr's 1x and 8x A100 offers twice each (two promotions' words): one row each */
  g_assert_cmpuint (st->offers->len, ==, fitting - 2);
  g_assert_cmpuint (st->n_fitting, ==, fitting - 2);
  g_assert_cmpuint (fitting, >=, 5);

  for (guint i = 1; i < st->offers->len; i++)
    {
      const HrCloudOffer *a = g_ptr_array_index (st->offers, i - 1);
      const HrCloudOffer *b = g_ptr_array_index (st->offers, i);
      g_assert_cmpfloat (a->usd_per_hour, <=, b->usd_per_hour);
    }

  /* the first row is the core's cheapest cloud pick */
  hr_advice_recommend (&s, catalog, pricing, &rec);
  g_assert_nonnull (rec.cloud);
  g_assert_cmpfloat_with_epsilon (((HrCloudOffer *) g_ptr_array_index (st->offers, 0))->usd_per_hour,
                                  rec.cloud->usd_per_hour, 1e-9);

  g_assert_cmpstr (st->title, ==, s.model->name);
  g_assert_nonnull (strstr (st->subtitle, "Q4_K_M"));
  g_assert_nonnull (strstr (st->subtitle, "8K context"));
  g_assert_nonnull (strstr (st->summary, "offers can run this scenario"));
}

/* The table's words for the seed pages' rows. */
static void
test_row_text (void)
{
  g_autoptr(HrCloudState) st = NULL;
  const HrCloudOffer *runpod, *vast;
  HrScenario s;

  default_scenario (&s);
  st = hr_cloud_state_compute (&s, catalog, seed, 4);
  runpod = find_offer (st, "RunPod", 1.19);
  vast = find_offer (st, "Vast.ai", 0.442);
  g_assert_nonnull (runpod);
  g_assert_nonnull (vast);

  g_assert_cmpstr (runpod->instance, ==, "1× A100 80GB SXM");
  g_assert_cmpstr (runpod->tier, ==, "Community Cloud · PCIe");
  g_assert_cmpstr (runpod->vram, ==, "80 GB");
  g_assert_cmpstr (runpod->hourly, ==, "$1.19/h");
  g_assert_cmpstr (runpod->monthly, ==, "$144.70/month");
  g_assert_cmpstr (runpod->billing, ==, "Per second");
  g_assert_cmpstr (runpod->url, ==, "https://www.runpod.io/pricing");
  g_assert_cmpstr (runpod->label, ==, "RunPod · 1× A100 80GB SXM");
  g_assert_cmpstr (vast->hourly, ==, "$0.44/h");
  g_assert_cmpstr (vast->monthly, ==, "$53.75/month");
  g_assert_cmpstr (vast->billing, ==, "Spot or on demand");

  /* cost per 1M tokens on that offer: its speed on its own GPUs, as the core prices it */
  {
    HrScenario os = s;
    HrEstimate e;
    double expected;
    g_autofree char *text = NULL;

    os.gpu = hr_catalog_find_gpu (catalog, "a100-80gb-sxm");
    os.n_gpus = 1;
    g_assert_true (hr_estimate_compute (&os, NULL, &e, NULL));
    expected = 1.19 / (e.aggregate_tps * 3600.0) * 1e6;
    g_assert_cmpfloat_with_epsilon (runpod->cost_per_mtok_usd, expected, 1e-9);
    text = hr_size_format_usd (expected, 2);
    g_assert_cmpstr (runpod->cost_per_mtok, ==, text);
  }

  /* other hours per day: only the monthly figures change */
  hr_cloud_state_set_hours (st, 8);
  g_assert_cmpstr (runpod->monthly, ==, "$289.41/month");
  g_assert_cmpfloat_with_epsilon (runpod->monthly_usd, 1.19 * 8 * 30.4, 1e-9);
  g_assert_cmpstr (runpod->hourly, ==, "$1.19/h");
}

/* The seed pages: RTX PRO 6000 ($8,500, 600 W), RunPod $1.19/h, 4 h/day, $0.175/kWh. */
static void
test_tco_seed (void)
{
  g_autoptr(HrCloudState) st = NULL;
  g_auto(HrBuyChoice) buy = { 0 };
  g_auto(HrTcoState) tco = { 0 };
  const HrCloudOffer *runpod;
  HrScenario s;

  default_scenario (&s);
  st = hr_cloud_state_compute (&s, catalog, seed, 4);
  runpod = find_offer (st, "RunPod", 1.19);
  g_assert_nonnull (runpod);

  hr_buy_choice_compute (&buy, &s, catalog);
  g_assert_cmpstr (buy.gpu_id, ==, "rtx-pro-6000-blackwell-96gb");
  g_assert_cmpint (buy.count, ==, 1);
  g_assert_cmpfloat (buy.power_w, ==, 600);
  g_assert_true (isfinite (buy.price_usd));
  g_assert_cmpstr (buy.label, ==, s.gpu->name);

  hr_tco_state_compute (&tco, runpod, &buy, 4, 0.175, 8500, 600);
  g_assert_cmpstr (tco.cloud_monthly, ==, "$144.70/month");
  g_assert_cmpstr (tco.electricity_monthly, ==, "$12.77/month");
  g_assert_cmpstr (tco.payback, ==, "~64.4 months");
  g_assert_cmpfloat_with_epsilon (tco.result.months_to_amortise, 8500 / (144.704 - 12.768), 1e-9);
  /* #26 item 7: a price keeps its unit on its line ("$0,175/" over "kWh" in German) */
  g_assert_cmpstr (tco.offer, ==, "RunPod · 1× A100 80GB SXM at $1.19/" HR_WORD_JOINER "h");
  g_assert_cmpstr (tco.electricity_basis, ==, "600 W, 4 h a day at $0.175/" HR_WORD_JOINER "kWh");
  g_assert_nonnull (strstr (tco.payback_detail, "5.4 years"));
  /* grouped as the CLI groups, by the locale: nothing in the C locale the tests run in */
  g_assert_nonnull (strstr (tco.buy_legend, "($8500)"));

  /* electricity dearer than renting: buying never pays off */
  hr_tco_state_clear (&tco);
  hr_tco_state_compute (&tco, runpod, &buy, 4, 10.0, 8500, 600);
  g_assert_cmpstr (tco.payback, ==, "Never");
  g_assert_true (isinf (tco.result.months_to_amortise));

  /* no hardware price: no answer, and a reason */
  hr_tco_state_clear (&tco);
  hr_tco_state_compute (&tco, runpod, &buy, 4, 0.175, NAN, 600);
  g_assert_cmpstr (tco.payback, ==, "—");
  g_assert_cmpstr (tco.cloud_monthly, ==, "$144.70/month");

  /* no offer at all */
  hr_tco_state_clear (&tco);
  hr_tco_state_compute (&tco, NULL, &buy, 4, 0.175, 8500, 600);
  g_assert_cmpstr (tco.payback, ==, "—");
  g_assert_cmpstr (tco.cloud_monthly, ==, "—");
  g_assert_cmpstr (tco.offer, ==, "No cloud offer fits");
  g_assert_cmpstr (tco.electricity_monthly, ==, "$12.77/month");
}

static void
test_source_label (void)
{
  g_autoptr(HrPricing) feed = pricing_new ("feed");
  g_autoptr(HrPricing) empty = pricing_new ("feed");
  g_autofree char *bundled = hr_cloud_source_label (seed);
  g_autofree char *fed = NULL;
  g_autofree char *cached = NULL;
  g_autofree char *undated = NULL;
  g_autofree char *none = NULL;

  g_assert_cmpstr (bundled, ==, "Prices verified 2026-11-05 · bundled snapshot");

  g_ptr_array_add (feed->offers, offer_new ("A", "a100-80gb-sxm", "A100 80GB SXM", 1, 80, 1));
  fed = hr_cloud_source_label (feed);
  g_assert_cmpstr (fed, ==, "Prices verified 2026-12-01 · pricing feed");
  g_free (feed->source);
  feed->source = g_strdup ("cache");
  cached = hr_cloud_source_label (feed);
  g_assert_cmpstr (cached, ==, "Prices verified 2026-12-01 · cached pricing feed");
  g_clear_pointer (&feed->updated, g_free);
  undated = hr_cloud_source_label (feed);
  g_assert_cmpstr (undated, ==, "Prices of unknown date · cached pricing feed");
  none = hr_cloud_source_label (empty);
  g_assert_cmpstr (none, ==, "No cloud prices");
}

static void
test_billing (void)
{
  const char *cases[][2] = {
    { "per-second", "Per second" }, { "per-hour", "Per hour" }, { "spot", "Spot" },
    { "spot-or-on-demand", "Spot or on demand" }, { "Per-Minute", "Per minute" },
    { "weekly", "weekly" }, { "", "—" },
  };
  g_autofree char *null_billing = hr_cloud_billing_display (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = hr_cloud_billing_display (cases[i][0]);
      g_assert_cmpstr (text, ==, cases[i][1]);
    }
  g_assert_cmpstr (null_billing, ==, "—");
}

/* Offers the catalog does not know fit by memory; their cost per token is unknown. */
static void
test_unknown_gpu (void)
{
  g_autoptr(HrPricing) p = pricing_new ("feed");
  g_autoptr(HrCloudState) st = NULL;
  const HrCloudOffer *big;
  HrScenario s;

  default_scenario (&s);
  g_ptr_array_add (p->offers, offer_new ("Big", NULL, "Mystery 192GB", 1, 192, 2.0));
  g_ptr_array_add (p->offers, offer_new ("Small", NULL, "Mystery 24GB", 1, 24, 0.2));
  st = hr_cloud_state_compute (&s, catalog, p, 4);
  g_assert_cmpuint (st->offers->len, ==, 1);
  big = g_ptr_array_index (st->offers, 0);
  g_assert_cmpstr (big->provider, ==, "Big");
  g_assert_true (isnan (big->cost_per_mtok_usd));
  g_assert_cmpstr (big->cost_per_mtok, ==, "—");
  g_assert_cmpstr (big->speed, ==, "—");
  /* kept and named, never dropped in silence (#16) */
  g_assert_cmpstr (st->summary, ==, "1 of 2 offers can run this scenario. "
                                    "2 offers for GPUs Headroom doesn’t know: Mystery 192GB, Mystery 24GB.");
}

/* Nothing fits, nothing priced, no scenario: words, not crashes. */
static void
test_nothing (void)
{
  g_autoptr(HrPricing) p = pricing_new ("feed");
  g_autoptr(HrPricing) empty = pricing_new ("feed");
  g_autoptr(HrCloudState) none_fit = NULL;
  g_autoptr(HrCloudState) no_prices = NULL;
  g_autoptr(HrCloudState) no_scenario = NULL;
  g_auto(HrBuyChoice) buy = { 0 };
  HrScenario s;

  default_scenario (&s);
  g_ptr_array_add (p->offers, offer_new ("Tiny", "rtx-4090-24gb", "RTX 4090", 1, 24, 0.3));
  none_fit = hr_cloud_state_compute (&s, catalog, p, 4);
  g_assert_cmpuint (none_fit->offers->len, ==, 0);
  g_assert_cmpstr (none_fit->summary, ==, "None of the 1 offer can run this scenario.");
  no_prices = hr_cloud_state_compute (&s, catalog, empty, 4);
  g_assert_cmpstr (no_prices->summary, ==, "There are no cloud prices to compare.");
  no_scenario = hr_cloud_state_compute (NULL, catalog, seed, 4);
  g_assert_cmpuint (no_scenario->offers->len, ==, 0);
  g_assert_cmpint (hr_cloud_state_find (no_scenario, "x"), ==, -1);
  hr_buy_choice_compute (&buy, NULL, catalog);
  g_assert_null (buy.gpu_id);
  g_assert_true (isnan (buy.price_usd));
}

/* A hostile feed of thousands of fitting offers: the table keeps the cheapest. */
static void
test_many_offers (void)
{
  g_autoptr(HrPricing) p = pricing_new ("feed");
  g_autoptr(HrCloudState) st = NULL;
  HrScenario s;

  default_scenario (&s);
  for (guint i = 0; i < 500; i++)
    g_ptr_array_add (p->offers, offer_new ("Many", "a100-80gb-sxm", "A100 80GB SXM", 1, 80, 500 - i));
  st = hr_cloud_state_compute (&s, catalog, p, 4);
  g_assert_cmpuint (st->n_fitting, ==, 500);
  g_assert_cmpuint (st->offers->len, ==, HR_CLOUD_MAX_ROWS);
  g_assert_cmpfloat (((HrCloudOffer *) g_ptr_array_index (st->offers, 0))->usd_per_hour, ==, 1);
  g_assert_nonnull (strstr (st->summary, "200 cheapest of 500"));
  g_assert_cmpint (hr_cloud_state_find (st, ((HrCloudOffer *) g_ptr_array_index (st->offers, 3))->key), ==, 3);
}

/* #18: the seed list names two Vultr offers that differ only in their tier's words; the table
 * shows the offer once. */
static void
test_no_duplicates (void)
{
  g_autoptr(HrCloudState) st = NULL;
  HrScenario s;
  guint vultr_1x = 0;

  default_scenario (&s);
  st = hr_cloud_state_compute (&s, catalog, seed, 4);
  for (guint i = 0; i < st->offers->len; i++)
    {
      const HrCloudOffer *o = g_ptr_array_index (st->offers, i);

      for (guint j = 0; j < i; j++)
        {
          const HrCloudOffer *p = g_ptr_array_index (st->offers, j);

          g_assert_false (g_str_equal (o->provider, p->provider) && g_str_equal (o->instance, p->instance)
                          && g_str_equal (o->hourly, p->hourly) && g_str_equal (o->billing, p->billing));
        }
      vultr_1x += g_str_equal (o->provider, "Vultr") && g_str_equal (o->instance, "1× A100 80GB SXM");
    }
  g_assert_cmpuint (vultr_1x, ==, 1);
}

static void
test_catalog_source_label (void)
{
  g_autoptr(HrPricing) p = hr_pricing_copy (hr_catalog_get_pricing (catalog));
  g_autofree char *bundled = hr_cloud_source_label (p);
  g_autofree char *cached = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *with_feed = NULL;

  g_assert_cmpstr (bundled, ==, "Prices from SkyPilot catalog, 2026-12-01, bundled snapshot");
  g_free (p->source);
  p->source = g_strdup ("catalog-cache");
  g_free (p->updated);
  p->updated = g_strdup ("2026-11-28");
  cached = hr_cloud_source_label (p);
  g_assert_cmpstr (cached, ==, "Prices from SkyPilot catalog, 2026-11-28, cached");
  g_free (p->source);
  p->source = g_strdup ("catalog-network");
  fresh = hr_cloud_source_label (p);
  g_assert_cmpstr (fresh, ==, "Prices from SkyPilot catalog, 2026-11-28");
  p->feed_updated = g_strdup ("2026-12-01");
  with_feed = hr_cloud_source_label (p);
  g_assert_cmpstr (with_feed, ==, "Prices from SkyPilot catalog, 2026-11-28 · pricing feed 2026-12-01");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);
  /* the seed pages' hand-made price list (data/pricing.json): its figures are facts of the
   * pages these tests reproduce; the catalog's own default prices are the SkyPilot snapshot */
  seed = hr_pricing_load_bundled (&error);
  g_assert_no_error (error);

  g_test_add_func ("/cloud-state/fitting-sorted", test_fitting_sorted);
  g_test_add_func ("/cloud-state/row-text", test_row_text);
  g_test_add_func ("/cloud-state/tco-seed", test_tco_seed);
  g_test_add_func ("/cloud-state/source-label", test_source_label);
  g_test_add_func ("/cloud-state/billing", test_billing);
  g_test_add_func ("/cloud-state/unknown-gpu", test_unknown_gpu);
  g_test_add_func ("/cloud-state/nothing", test_nothing);
  g_test_add_func ("/cloud-state/many-offers", test_many_offers);

  g_test_add_func ("/cloud-state/no-duplicate-rows", test_no_duplicates);
  g_test_add_func ("/cloud-state/catalog-source-label", test_catalog_source_label);

  ret = g_test_run ();
  hr_pricing_free (seed);
  hr_catalog_free (catalog);
  return ret;
}
