/* fuzz-skypilot.c — libFuzzer entry point for the SkyPilot catalog CSV parser
 *
 * The input is fed twice: whole, and in pieces of a size taken from its first byte (the network
 * hands the parser arbitrary chunks), and the two must agree.  A parsed catalog then goes
 * through offer selection both ways (on demand and spot, a region prefix).
 */
#include <stddef.h>
#include <stdint.h>

#include "hr-skypilot.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static HrCatalog *catalog;

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) piece_error = NULL;
  g_autoptr(HrSkypilotCloud) whole = NULL;
  g_autoptr(HrSkypilotCloud) pieces = NULL;
  HrSkypilotParser *parser;
  gsize step = size > 0 ? (gsize) data[0] % 7 + 1 : 1;
  gboolean fed = TRUE;

  if (catalog == NULL)
    catalog = hr_catalog_new_default (NULL);
  g_assert (catalog != NULL);

  whole = hr_skypilot_parse ("fuzz", catalog, text, size, &error);
  g_assert ((whole == NULL) == (error != NULL));

  parser = hr_skypilot_parser_new ("fuzz", catalog);
  for (gsize i = 0; i < size && fed; i += step)
    fed = hr_skypilot_parser_feed (parser, text + i, MIN (step, size - i), &piece_error);
  if (fed)
    pieces = hr_skypilot_parser_finish (parser, &piece_error);
  else
    hr_skypilot_parser_free (parser);
  g_assert ((pieces == NULL) == (piece_error != NULL));
  g_assert ((whole == NULL) == (pieces == NULL));

  if (whole != NULL)
    {
      g_autoptr(GPtrArray) clouds = g_ptr_array_new ();
      HrSkypilotChoice on_demand = { FALSE, NULL };
      HrSkypilotChoice spot = { TRUE, "us" };
      g_autoptr(HrPricing) a = NULL;
      g_autoptr(HrPricing) b = NULL;
      g_autofree char *summary = hr_skypilot_unmapped_summary (whole->unmapped, NULL);

      g_assert (whole->offers->len == pieces->offers->len);
      g_assert (whole->rows == pieces->rows);
      g_ptr_array_add (clouds, whole);
      a = hr_skypilot_select (clouds, &on_demand, "fuzz");
      b = hr_skypilot_select (clouds, &spot, "fuzz");
      g_assert (a->offers->len <= whole->offers->len);
      g_assert (b->offers->len <= whole->offers->len);
      (void) hr_pricing_cheapest (a, 80, NULL);
      (void) summary;
    }
  return 0;
}
