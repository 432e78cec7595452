/* fuzz-catalog.c — libFuzzer entry point for the catalog and pricing-feed parsers
 *
 * The same input goes to every parser: models, GPUs, quantizations (each on a new, empty
 * catalog), the pricing feed and the quality figures (What Runs Here).
 */
#include <stddef.h>
#include <stdint.h>

#include "hr-catalog.h"
#include "hr-pricing.h"
#include "hr-quality.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *json = (const char *) data;
  gssize len = (gssize) size;

  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
    g_autoptr(GError) error = NULL;
    gboolean ok = hr_catalog_load_models (catalog, json, len, &error);

    g_assert (ok == (error == NULL));
    for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
      {
        const HrModel *m = hr_catalog_get_model (catalog, i);

        g_assert (hr_catalog_find_model (catalog, m->id) != NULL);
        (void) hr_model_kv_bytes (m, 32768, 2);
      }
  }
  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
    g_autoptr(GError) error = NULL;
    gboolean ok = hr_catalog_load_gpus (catalog, json, len, &error);

    g_assert (ok == (error == NULL));
    for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
      {
        const HrGpu *g = hr_catalog_get_gpu (catalog, i);

        g_assert (hr_catalog_find_gpu (catalog, g->id) != NULL);
        /* a measured bandwidth is read only with a unified form, a peak above it and a source */
        g_assert (isnan (g->bandwidth_measured_gbs)
                  || (g->form == HR_FORM_UNIFIED && g->bandwidth_measured_gbs > 0
                      && g->bandwidth_measured_gbs <= g->bandwidth_gbs
                      && g->bandwidth_measured_source != NULL));
      }
  }
  {
    g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
    g_autoptr(GError) error = NULL;
    gboolean ok = hr_catalog_load_quants (catalog, json, len, &error);

    g_assert (ok == (error == NULL));
    for (guint i = 0; i < hr_catalog_n_quants (catalog); i++)
      (void) hr_catalog_get_quant (catalog, i);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HrPricing) pricing = hr_pricing_parse (json, len, "fuzz", &error);

    g_assert ((pricing == NULL) == (error != NULL));
    if (pricing != NULL)
      {
        g_autofree char *out = hr_pricing_to_json (pricing);
        g_autoptr(HrPricing) copy = hr_pricing_copy (pricing);

        g_assert (out != NULL);
        (void) hr_pricing_cheapest (copy, 80, NULL);
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HrQuality) quality = hr_quality_parse (json, len, "fuzz", NULL, NULL, &error);

    g_assert ((quality == NULL) == (error != NULL));
    for (guint i = 0; i < hr_quality_n_scores (quality); i++)
      {
        const HrQualityScore *s = hr_quality_get_score (quality, i);
        const HrQualityMetric *m = hr_quality_metric (quality, s->metric);

        g_assert (m != NULL && s->value >= m->min && s->value <= m->max);
        g_assert (g_str_has_prefix (s->source, "https://") && strlen (s->date) == 10);
      }
    for (guint i = 0; i < hr_quality_n_costs (quality); i++)
      {
        const HrQuantCost *c = hr_quality_get_cost (quality, i);

        g_assert (c->factor > 0 && c->factor <= 1);
        g_assert (!isfinite (hr_quality_at_quant (quality, NULL, c->quant, NAN)));
      }
  }
  return 0;
}
