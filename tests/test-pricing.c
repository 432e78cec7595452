/* test-pricing.c — the pricing feed parser, the bundled snapshot and the TCO arithmetic
 *
 * Seed figures (the reference pages in the design brief, verified 2026-11-05) are asserted to
 * the cent: they are facts the app must reproduce, not estimates.
 */
#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-bundled.h"
#include "hr-pricing.h"
#include "hr-tco.h"

#define GOOD_OFFER \
  "{\"provider\": \"RunPod\", \"gpu_id\": \"a100-80gb-sxm\", \"gpu\": \"A100 80GB SXM\", " \
  "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1.19, \"billing\": \"per-second\", " \
  "\"tier\": \"Community Cloud\", \"url\": \"https://www.runpod.io/pricing\"}"

#define FEED_HEAD "{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"USD\", \"offers\": "

static char *
feed_with (const char *offers_inner)
{
  return g_strconcat (FEED_HEAD "[", offers_inner, "]}", NULL);
}

/* An offer from JSON fragments; NULL leaves the member out. */
static char *
offer_json (const char *provider,
            const char *gpu,
            const char *count,
            const char *vram_gb,
            const char *usd_per_hour,
            const char *extra)
{
  GString *s = g_string_new ("{\"billing\": \"per-hour\"");

  if (provider != NULL)
    g_string_append_printf (s, ", \"provider\": %s", provider);
  if (gpu != NULL)
    g_string_append_printf (s, ", \"gpu\": %s", gpu);
  if (count != NULL)
    g_string_append_printf (s, ", \"count\": %s", count);
  if (vram_gb != NULL)
    g_string_append_printf (s, ", \"vram_gb\": %s", vram_gb);
  if (usd_per_hour != NULL)
    g_string_append_printf (s, ", \"usd_per_hour\": %s", usd_per_hour);
  if (extra != NULL)
    g_string_append_printf (s, ", %s", extra);
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static HrPricing *
parse_ok (const char *json)
{
  g_autoptr(GError) error = NULL;
  HrPricing *pricing = hr_pricing_parse (json, -1, "test", &error);

  g_assert_no_error (error);
  g_assert_nonnull (pricing);
  return pricing;
}

static void
assert_parse_error (const char *json,
                    gssize      length,
                    int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = hr_pricing_parse (json, length, "test", &error);

  g_assert_null (pricing);
  g_assert_error (error, HR_PRICING_ERROR, code);
  g_assert_null (strchr (error->message, '\n'));
}

static const HrOffer *
offer_at (const HrPricing *pricing,
          guint            i)
{
  g_assert_cmpuint (i, <, pricing->offers->len);
  return g_ptr_array_index (pricing->offers, i);
}

static void
test_parse_good (void)
{
  g_autofree char *json = g_strconcat (FEED_HEAD "[", GOOD_OFFER, ", ",
                                       "{\"provider\": \" Vast.ai \", \"gpu\": \"H200 141GB SXM\", "
                                       "\"gpu_id\": null, \"count\": 2, \"vram_gb\": 282.0, "
                                       "\"usd_per_hour\": 7.738, \"unknown\": {\"x\": [1]}}",
                                       "], \"extra\": true}", NULL);
  g_autoptr(HrPricing) pricing = parse_ok (json);
  const HrOffer *a, *b;

  g_assert_cmpint (pricing->schema, ==, 1);
  g_assert_cmpstr (pricing->updated, ==, "2026-11-05");
  g_assert_cmpstr (pricing->currency, ==, "USD");
  g_assert_cmpstr (pricing->source, ==, "test");
  g_assert_cmpuint (pricing->offers->len, ==, 2);
  g_assert_cmpuint (pricing->skipped, ==, 0);

  a = offer_at (pricing, 0);
  g_assert_cmpstr (a->provider, ==, "RunPod");
  g_assert_cmpstr (a->gpu_id, ==, "a100-80gb-sxm");
  g_assert_cmpstr (a->gpu, ==, "A100 80GB SXM");
  g_assert_cmpint (a->count, ==, 1);
  g_assert_cmpfloat (a->vram_gb, ==, 80.0);
  g_assert_cmpfloat (a->usd_per_hour, ==, 1.19);
  g_assert_cmpstr (a->billing, ==, "per-second");
  g_assert_cmpstr (a->tier, ==, "Community Cloud");
  g_assert_cmpstr (a->url, ==, "https://www.runpod.io/pricing");

  /* Optional members may be missing or null; text is trimmed. */
  b = offer_at (pricing, 1);
  g_assert_cmpstr (b->provider, ==, "Vast.ai");
  g_assert_null (b->gpu_id);
  g_assert_null (b->tier);
  g_assert_null (b->url);
  g_assert_cmpint (b->count, ==, 2);
  g_assert_cmpfloat (b->vram_gb, ==, 282.0);

  /* No currency member means USD. */
  {
    g_autofree char *no_currency = g_strconcat ("{\"schema\": 1, \"updated\": \"2026-11-05\", "
                                                "\"offers\": [", GOOD_OFFER, "]}", NULL);
    g_autoptr(HrPricing) p2 = parse_ok (no_currency);

    g_assert_cmpstr (p2->currency, ==, "USD");
  }
}

/* The seed pages' table, row by row: provider, GPU, count, $/h as shown, $/month at 4 h/day. */
static const struct
{
  const char *provider;
  const char *gpu_id;
  int         count;
  double      vram_gb;
  double      shown_usd_per_hour;
  double      monthly_at_4h;
  guint       rows;            /* Vultr lists each offer twice (promotion and plain) */
} seed_offers[] = {
  { "RunPod",       "a100-80gb-sxm", 1,  80,  1.19,  144.70,  1 },
  { "Vast.ai",      "a100-80gb-sxm", 1,  80,  0.44,   53.75,  1 },
  { "Vultr",        "a100-80gb-sxm", 1,  80,  2.40,  291.48,  2 },
  { "DigitalOcean", "mi300x-192gb",  1, 192,  2.59,  314.94,  1 },
  { "RunPod",       "b300-288gb",    1, 288,  6.94,  843.90,  1 },
  { "Vast.ai",      "h200-141gb",    2, 282,  7.74,  940.94,  1 },
  { "Vultr",        "a100-80gb-sxm", 8, 640, 19.18, 2331.80,  2 },
  { "DigitalOcean", "mi325x-256gb",  1, 256,  3.80,  462.08,  1 },
};

static void
test_parse_bundled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = hr_pricing_load_bundled (&error);
  guint i, j;

  g_assert_no_error (error);
  g_assert_nonnull (pricing);
  g_assert_cmpstr (pricing->source, ==, "snapshot");
  g_assert_cmpstr (pricing->updated, ==, "2026-11-05");
  g_assert_cmpstr (pricing->currency, ==, "USD");
  g_assert_cmpuint (pricing->skipped, ==, 0);
  g_assert_cmpuint (pricing->offers->len, >=, 10);

  for (i = 0; i < G_N_ELEMENTS (seed_offers); i++)
    {
      guint found = 0;

      for (j = 0; j < pricing->offers->len; j++)
        {
          const HrOffer *offer = offer_at (pricing, j);
          HrTcoInput in = { .usd_per_hour = offer->usd_per_hour, .hours_per_day = 4 };
          HrTcoResult out;

          if (g_strcmp0 (offer->provider, seed_offers[i].provider) != 0
              || g_strcmp0 (offer->gpu_id, seed_offers[i].gpu_id) != 0
              || offer->count != seed_offers[i].count)
            continue;

          found++;
          hr_tco_compute (&in, &out);
          g_assert_cmpfloat_with_epsilon (offer->vram_gb, seed_offers[i].vram_gb, 1e-9);
          /* Both figures the page prints, to the cent. */
          g_assert_cmpfloat_with_epsilon (offer->usd_per_hour, seed_offers[i].shown_usd_per_hour, 0.005);
          g_assert_cmpfloat_with_epsilon (out.cloud_monthly, seed_offers[i].monthly_at_4h, 0.005);
          g_assert_true (g_str_has_prefix (offer->url, "https://"));
          g_assert_nonnull (offer->billing);
        }
      g_assert_cmpuint (found, ==, seed_offers[i].rows);
    }
}

/* A bundled file comes back as it is built in; a name that is not there is a resource error. */
static void
test_bundled_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = hr_bundled_lookup (HR_PRICING_RESOURCE_PATH, &error);
  g_autoptr(GBytes) missing = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (bytes, NULL), "{"));

  missing = hr_bundled_lookup ("/io/github/headroomapp/Headroom/data/no-such-file.json", &error);
  g_assert_null (missing);
  g_assert_error (error, G_RESOURCE_ERROR, G_RESOURCE_ERROR_NOT_FOUND);
}

/* Every gpu_id in the snapshot names a GPU of the catalog, with the instance's memory. */
static void
test_parse_bundled_catalog_ids (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(HrPricing) pricing = hr_pricing_load_bundled (NULL);
  g_autoptr(GHashTable) memory = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *gpus;
  guint i;

  g_assert_nonnull (pricing);
  bytes = g_resources_lookup_data ("/io/github/headroomapp/Headroom/data/gpus.json", 0, NULL);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0
      || !json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL))
    {
      g_test_skip ("gpus.json is not in the resource yet");
      return;
    }

  gpus = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "gpus");
  for (i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *gpu = json_array_get_object_element (gpus, i);

      g_hash_table_insert (memory, (gpointer) json_object_get_string_member (gpu, "id"),
                           json_object_get_member (gpu, "memory_gb"));
    }

  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = offer_at (pricing, i);
      JsonNode *mem = g_hash_table_lookup (memory, offer->gpu_id);

      g_test_message ("offer %u: %s", i, offer->gpu_id);
      g_assert_true (g_hash_table_contains (memory, offer->gpu_id));
      if (mem != NULL && !JSON_NODE_HOLDS_NULL (mem))
        g_assert_cmpfloat_with_epsilon (offer->vram_gb, offer->count * json_node_get_double (mem),
                                        1e-9);
    }
}

static void
test_parse_bad_offers (void)
{
  /* Each entry is one bad offer; the feed around it has one good offer. */
  g_autofree char *long_name = g_strnfill (201, 'x');
  g_autofree char *long_provider = g_strdup_printf ("\"%s\"", long_name);
  char *bad[] = {
    /* provider */
    offer_json (NULL, "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("\"\"", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("\"  \\t \"", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("null", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("42", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("[\"RunPod\"]", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("\"Run\\u001b[31mPod\"", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("\"Run\\u0085Pod\"", "\"A100\"", "1", "80", "1.19", NULL),
    offer_json ("\"Run\\u202ePod\"", "\"A100\"", "1", "80", "1.19", NULL),   /* bidi override */
    offer_json ("\"Run\\u200bPod\"", "\"A100\"", "1", "80", "1.19", NULL),   /* zero width */
    offer_json ("\"Run\\u2066Pod\"", "\"A100\"", "1", "80", "1.19", NULL),   /* isolate */
    offer_json (long_provider, "\"A100\"", "1", "80", "1.19", NULL),
    /* gpu */
    offer_json ("\"X\"", NULL, "1", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"\"", "1", "80", "1.19", NULL),
    offer_json ("\"X\"", "{}", "1", "80", "1.19", NULL),
    /* count */
    offer_json ("\"X\"", "\"A100\"", NULL, "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "0", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "-1", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1025", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1.5", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "\"1\"", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "true", "80", "1.19", NULL),
    /* vram_gb */
    offer_json ("\"X\"", "\"A100\"", "1", NULL, "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "0", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "-80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "1e9", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "0.001", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "\"80\"", "1.19", NULL),
    /* usd_per_hour */
    offer_json ("\"X\"", "\"A100\"", "1", "80", NULL, NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "0", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "-1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1e7", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "\"1.19\"", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "null", NULL),
    /* url */
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"ftp://example.com/\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"javascript:alert(1)\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"file:///etc/passwd\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"http://\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"www.runpod.io/pricing\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": \"https://exa mple.com/\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"url\": 42"),
    /* gpu_id, tier */
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"gpu_id\": \"../../etc/passwd\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"gpu_id\": \"A100-80GB\""),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"gpu_id\": 7"),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1.19", "\"tier\": [\"Secure\"]"),
    /* not an object */
    g_strdup ("42"),
    g_strdup ("null"),
    g_strdup ("[]"),
    g_strdup ("\"RunPod\""),
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *inner = g_strconcat (GOOD_OFFER, ", ", bad[i], NULL);
      g_autofree char *json = feed_with (inner);
      g_autoptr(HrPricing) pricing = NULL;

      g_test_message ("bad offer %u: %s", i, bad[i]);
      pricing = parse_ok (json);
      g_assert_cmpuint (pricing->offers->len, ==, 1);
      g_assert_cmpuint (pricing->skipped, ==, 1);
      g_assert_cmpstr (offer_at (pricing, 0)->provider, ==, "RunPod");
      g_free (bad[i]);
    }

  /* An escape JSON does not have (json-glib read "\\300" as the byte 0xC0) refuses the feed. */
  {
    g_autofree char *inner = g_strconcat (GOOD_OFFER, ", ", "{\"provider\": \"Run\\300Pod\"}", NULL);
    g_autofree char *json = feed_with (inner);
    g_autoptr(GError) error = NULL;
    g_autoptr(HrPricing) pricing = hr_pricing_parse (json, -1, NULL, &error);

    g_assert_null (pricing);
    g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  }

  /* And all of them at once. */
  {
    GString *all = g_string_new (GOOD_OFFER);
    g_autoptr(HrPricing) pricing = NULL;
    g_autofree char *json = NULL;

    g_string_append (all, ", 1, 2, {}, {\"provider\": \"only\"}");
    json = feed_with (all->str);
    g_string_free (all, TRUE);
    pricing = parse_ok (json);
    g_assert_cmpuint (pricing->offers->len, ==, 1);
    g_assert_cmpuint (pricing->skipped, ==, 4);
  }
}

static void
test_parse_schema (void)
{
  const char *cases[] = {
    "[]",
    "\"pricing\"",
    "42",
    "null",
    "true",
    "{}",
    "{\"schema\": 2, \"updated\": \"2026-11-05\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": \"1\", \"updated\": \"2026-11-05\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1.5, \"updated\": \"2026-11-05\", \"offers\": [" GOOD_OFFER "]}",
    "{\"updated\": \"2026-11-05\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": \"2026-11-05\"}",
    "{\"schema\": 1, \"updated\": \"2026-11-05\", \"offers\": {\"a\": " GOOD_OFFER "}}",
    "{\"schema\": 1, \"updated\": \"2026-11-05\", \"offers\": \"none\"}",
    "{\"schema\": 1, \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": \"2026-13-45\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": \"yesterday!\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": 20261105, \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"EUR\", \"offers\": [" GOOD_OFFER "]}",
    "{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": 840, \"offers\": [" GOOD_OFFER "]}",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("schema case %u: %s", i, cases[i]);
      assert_parse_error (cases[i], -1, HR_PRICING_ERROR_SCHEMA);
    }
}

static void
test_parse_not_json (void)
{
  const char *cases[] = {
    "",
    "   \n\t ",
    "{",
    "not json at all",
    "<html><body>502 Bad Gateway</body></html>",
    FEED_HEAD "[" GOOD_OFFER "]} trailing garbage",
    "{\"schema\": 1, \"updated\": \"2026-11-05\", \"offers\": [" GOOD_OFFER "",
    "{\"schema\": 1, \"updated\": \"\xff\xfe\", \"offers\": []}",
    "{\"schema\": NaN}",
  };
  static const char with_nul[] = "{\"schema\": 1}\0{\"more\": 2}";
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("not-JSON case %u", i);
      assert_parse_error (cases[i], -1, HR_PRICING_ERROR_PARSE);
    }

  assert_parse_error (with_nul, sizeof with_nul - 1, HR_PRICING_ERROR_PARSE);

  /* json-glib quotes the bad token; one with a newline, or a huge one, stays one short line. */
  {
    g_autofree char *long_token = g_strnfill (100000, 'x');
    g_autofree char *huge = g_strdup_printf ("{\"schema\": 1 \"%s\"}", long_token);
    g_autoptr(GError) error = NULL;

    assert_parse_error ("{\"schema\": 1,\n \"a\" \"b\nc\": 2}", -1, HR_PRICING_ERROR_PARSE);
    g_assert_null (hr_pricing_parse (huge, -1, "test", &error));
    g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
    g_assert_cmpuint (strlen (error->message), <, 400);
  }
  assert_parse_error (NULL, 0, HR_PRICING_ERROR_PARSE);
  /* A length shorter than the text cuts it. */
  assert_parse_error (FEED_HEAD "[" GOOD_OFFER "]}", 20, HR_PRICING_ERROR_PARSE);
}

static void
test_parse_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = NULL;

  assert_parse_error (FEED_HEAD "[]}", -1, HR_PRICING_ERROR_EMPTY);

  pricing = hr_pricing_parse (FEED_HEAD "[1, {}, {\"provider\": \"X\"}]}", -1, "test", &error);
  g_assert_null (pricing);
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY);
  g_assert_nonnull (strstr (error->message, "3"));
}

static void
test_parse_huge_numbers (void)
{
  /* json-glib 1.6 wraps integers past 2^63 (99999999999999999999 reads as -1, and
   * -9223372036854775809 as INT64_MAX); the ranges must catch every wrapped value. */
  char *bad[] = {
    offer_json ("\"X\"", "\"A100\"", "99999999999999999999", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "9223372036854775808", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "-9223372036854775809", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "18446744073709551617", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "4294967297", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1e300", "80", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "1e308", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "1e400", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "-1e400", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "18446744073709551617", "1.19", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1e400", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "1e-400", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "4.9e-324", NULL),
    offer_json ("\"X\"", "\"A100\"", "1", "80", "99999999999999999999999999999", NULL),
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *inner = g_strconcat (GOOD_OFFER, ", ", bad[i], NULL);
      g_autofree char *json = feed_with (inner);
      g_autoptr(HrPricing) pricing = NULL;

      g_test_message ("huge number %u: %s", i, bad[i]);
      pricing = parse_ok (json);
      g_assert_cmpuint (pricing->offers->len, ==, 1);
      g_assert_cmpuint (pricing->skipped, ==, 1);
      g_free (bad[i]);
    }

  /* The largest sane instance is still accepted. */
  {
    g_autofree char *big = offer_json ("\"X\"", "\"B300\"", "1024", "294912", "9999.5", NULL);
    g_autofree char *json = feed_with (big);
    g_autoptr(HrPricing) pricing = parse_ok (json);

    g_assert_cmpint (offer_at (pricing, 0)->count, ==, 1024);
  }
}

static void
test_parse_hostile_nesting (void)
{
  const gsize deep = 200000;
  GString *s = g_string_new (NULL);
  g_autofree char *in_string = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *shallow = NULL;
  gsize i;

  /* Deep enough to overflow json-glib's recursive parser; must be refused before it. */
  for (i = 0; i < deep; i++)
    g_string_append_c (s, '[');
  for (i = 0; i < deep; i++)
    g_string_append_c (s, ']');
  assert_parse_error (s->str, s->len, HR_PRICING_ERROR_PARSE);

  g_string_assign (s, FEED_HEAD "[" GOOD_OFFER ", {\"provider\": ");
  for (i = 0; i < deep; i++)
    g_string_append (s, "{\"a\":");
  assert_parse_error (s->str, s->len, HR_PRICING_ERROR_PARSE);
  g_string_free (s, TRUE);

  /* Brackets inside strings are text, not nesting. */
  in_string = g_strdup_printf (FEED_HEAD "[" GOOD_OFFER ", {\"provider\": \"%s\", \"gpu\": \"A100\", "
                               "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1}]}",
                               "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{");
  {
    g_autoptr(HrPricing) pricing = parse_ok (in_string);

    g_assert_cmpuint (pricing->offers->len, ==, 2);
  }
  escaped = g_strdup_printf (FEED_HEAD "[" GOOD_OFFER ", {\"provider\": \"%s\", \"gpu\": \"A100\", "
                             "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1}]}",
                             "a\\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\");
  {
    g_autoptr(HrPricing) pricing = parse_ok (escaped);

    g_assert_cmpuint (pricing->offers->len, ==, 2);
    g_assert_true (g_str_has_prefix (offer_at (pricing, 1)->provider, "a\"[[["));
  }

  /* Nesting within the limit where text is expected: the offer is skipped. */
  shallow = feed_with (GOOD_OFFER ", {\"provider\": [[[[[[\"RunPod\"]]]]]], \"gpu\": \"A100\", "
                       "\"count\": 1, \"vram_gb\": 80, \"usd_per_hour\": 1}");
  {
    g_autoptr(HrPricing) pricing = parse_ok (shallow);

    g_assert_cmpuint (pricing->offers->len, ==, 1);
    g_assert_cmpuint (pricing->skipped, ==, 1);
  }
}

static void
test_parse_hostile_size (void)
{
  GString *s = g_string_new (FEED_HEAD "[");
  g_autofree char *huge_name = g_strnfill (1024 * 1024, 'R');
  g_autoptr(HrPricing) pricing = NULL;
  guint i;

  /* More offers than anyone lists: the excess is counted, not kept, and not called invalid;
   * the one invalid offer (a 1 MiB name) read before the cap is. */
  g_string_append_printf (s, "{\"provider\": \"%s\", \"gpu\": \"A100\", \"count\": 1, "
                          "\"vram_gb\": 80, \"usd_per_hour\": 1}", huge_name);
  for (i = 0; i < HR_PRICING_MAX_OFFERS + 5; i++)
    g_string_append (s, ", " GOOD_OFFER);
  g_string_append (s, "]}");
  pricing = parse_ok (s->str);
  g_assert_cmpuint (pricing->offers->len, ==, HR_PRICING_MAX_OFFERS);
  g_assert_cmpuint (pricing->skipped, ==, 1);
  g_assert_cmpuint (pricing->unread, ==, 5);
  g_string_free (s, TRUE);
}

static gboolean
offers_equal (const HrOffer *a,
              const HrOffer *b)
{
  return g_strcmp0 (a->provider, b->provider) == 0
         && g_strcmp0 (a->gpu_id, b->gpu_id) == 0
         && g_strcmp0 (a->gpu, b->gpu) == 0
         && a->count == b->count
         && a->vram_gb == b->vram_gb
         && a->usd_per_hour == b->usd_per_hour
         && g_strcmp0 (a->billing, b->billing) == 0
         && g_strcmp0 (a->tier, b->tier) == 0
         && g_strcmp0 (a->url, b->url) == 0;
}

static void
assert_pricing_equal (const HrPricing *a,
                      const HrPricing *b)
{
  guint i;

  g_assert_cmpstr (a->updated, ==, b->updated);
  g_assert_cmpstr (a->currency, ==, b->currency);
  g_assert_cmpuint (a->offers->len, ==, b->offers->len);
  for (i = 0; i < a->offers->len; i++)
    g_assert_true (offers_equal (offer_at (a, i), offer_at (b, i)));
}

static void
test_to_json_roundtrip (void)
{
  g_autoptr(HrPricing) bundled = hr_pricing_load_bundled (NULL);
  g_autoptr(HrPricing) back = NULL;
  g_autofree char *json = NULL;

  g_assert_nonnull (bundled);
  json = hr_pricing_to_json (bundled);
  g_assert_nonnull (strstr (json, "\"usd_per_hour\": 1.19,"));
  g_assert_nonnull (strstr (json, "\"usd_per_hour\": 0.442,"));
  g_assert_nonnull (strstr (json, "\"source\": \"snapshot\""));
  g_assert_nonnull (strstr (json, "\"skipped\": 0"));
  back = parse_ok (json);
  assert_pricing_equal (bundled, back);
}

static void
test_to_json_escaping (void)
{
  g_autoptr(HrPricing) pricing = hr_pricing_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  HrOffer *offer = g_new0 (HrOffer, 1);
  JsonObject *o;

  pricing->updated = g_strdup ("2026-11-05");
  pricing->source = g_strdup ("te\"st");
  offer->provider = g_strdup ("Q\"uo\\te \t\x01 ü €");
  offer->gpu = g_strdup ("</script>");
  offer->count = 3;
  offer->vram_gb = NAN;
  offer->usd_per_hour = 1e-5;
  g_ptr_array_add (pricing->offers, offer);

  json = hr_pricing_to_json (pricing);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  o = json_array_get_object_element (json_object_get_array_member (
        json_node_get_object (json_parser_get_root (parser)), "offers"), 0);
  g_assert_cmpstr (json_object_get_string_member (o, "provider"), ==, offer->provider);
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "</script>");
  g_assert_true (json_object_get_null_member (o, "vram_gb"));
  g_assert_true (json_object_get_null_member (o, "gpu_id"));
  g_assert_cmpfloat (json_object_get_double_member (o, "usd_per_hour"), ==, 1e-5);
}

static const char *
use_comma_locale (void)
{
  const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8",
                          "es_ES.UTF-8", "ru_RU.UTF-8", "nl_NL.UTF-8" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char buf[16];

      if (setlocale (LC_NUMERIC, names[i]) == NULL)
        continue;
      g_snprintf (buf, sizeof buf, "%.2f", 1.5);
      if (strcmp (buf, "1,50") == 0)
        return names[i];
    }
  setlocale (LC_NUMERIC, "C");
  return NULL;
}

static void
test_to_json_locale (void)
{
  g_autoptr(HrPricing) bundled = hr_pricing_load_bundled (NULL);
  g_autoptr(HrPricing) back = NULL;
  g_autofree char *json = NULL;
  const char *locale = use_comma_locale ();

  if (locale == NULL)
    {
      g_test_skip ("no locale with a decimal comma is installed (try de_DE.UTF-8)");
      return;
    }
  g_test_message ("LC_NUMERIC=%s", locale);

  json = hr_pricing_to_json (bundled);
  setlocale (LC_NUMERIC, "C");

  g_assert_nonnull (strstr (json, "\"usd_per_hour\": 1.19,"));
  g_assert_nonnull (strstr (json, "\"usd_per_hour\": 19.176,"));
  g_assert_null (strstr (json, "1,19"));
  g_assert_null (strstr (json, "0,442"));

  /* Parsing under the comma locale reads the dots as dots too. */
  setlocale (LC_NUMERIC, locale);
  back = hr_pricing_parse (json, -1, "cache", NULL);
  setlocale (LC_NUMERIC, "C");
  g_assert_nonnull (back);
  assert_pricing_equal (bundled, back);
}

static void
test_copy (void)
{
  g_autoptr(HrPricing) bundled = hr_pricing_load_bundled (NULL);
  g_autoptr(HrPricing) copy = hr_pricing_copy (bundled);
  g_autoptr(HrOffer) offer = NULL;

  assert_pricing_equal (bundled, copy);
  g_assert_cmpstr (copy->source, ==, "snapshot");
  g_assert_true (offer_at (copy, 0)->provider != offer_at (bundled, 0)->provider);

  offer = hr_offer_copy (offer_at (copy, 0));
  g_ptr_array_remove_index (copy->offers, 0);
  g_assert_cmpstr (offer->provider, ==, offer_at (bundled, 0)->provider);
  g_assert_cmpuint (copy->offers->len + 1, ==, bundled->offers->len);

  hr_pricing_free (NULL);
  hr_offer_free (NULL);
}

static void
test_cheapest (void)
{
  g_autoptr(HrPricing) pricing = hr_pricing_load_bundled (NULL);
  const HrOffer *offer;

  /* Seed (GLM-4.5-Air, 69.96 GiB): "Cloud from Vast.ai · $0.44 / h, 1x A100 80GB SXM". */
  offer = hr_pricing_cheapest (pricing, 69.96, NULL);
  g_assert_nonnull (offer);
  g_assert_cmpstr (offer->provider, ==, "Vast.ai");
  g_assert_cmpstr (offer->gpu_id, ==, "a100-80gb-sxm");
  g_assert_cmpint (offer->count, ==, 1);
  /* The seed's cost per 1M tokens comes from it: $3.05 at ~40.2 tok/s, $1.23 at ~99.8 tok/s —
   * which only the unrounded $0.442/h gives ($0.44 would give $3.04 and $1.22). */
  g_assert_cmpfloat_with_epsilon (offer->usd_per_hour / (40.2 * 3600) * 1e6, 3.05, 0.005);
  g_assert_cmpfloat_with_epsilon (offer->usd_per_hour / (99.8 * 3600) * 1e6, 1.23, 0.005);

  /* Seed (GLM-4.5, 204.19 GiB): "Cloud from DigitalOcean · $3.80, 1x Instinct MI325X 256GB". */
  offer = hr_pricing_cheapest (pricing, 204.19, NULL);
  g_assert_nonnull (offer);
  g_assert_cmpstr (offer->provider, ==, "DigitalOcean");
  g_assert_cmpstr (offer->gpu_id, ==, "mi325x-256gb");
  g_assert_cmpfloat_with_epsilon (offer->usd_per_hour / (3.8 * 3600) * 1e6, 277.78, 0.005);

  /* Exactly the instance's memory fits. */
  offer = hr_pricing_cheapest (pricing, 80.0, NULL);
  g_assert_cmpstr (offer->provider, ==, "Vast.ai");

  /* Restricted to a GPU. */
  offer = hr_pricing_cheapest (pricing, 204.19, "a100-80gb-sxm");
  g_assert_nonnull (offer);
  g_assert_cmpint (offer->count, ==, 8);
  g_assert_cmpstr (offer->provider, ==, "Vultr");
  offer = hr_pricing_cheapest (pricing, 204.19, "h200-141gb");
  g_assert_cmpstr (offer->provider, ==, "Vast.ai");
  g_assert_cmpint (offer->count, ==, 2);
  g_assert_null (hr_pricing_cheapest (pricing, 1, "rtx-4090-24gb"));

  /* Nothing that large, or nonsense. */
  g_assert_null (hr_pricing_cheapest (pricing, 641, NULL));
  g_assert_null (hr_pricing_cheapest (pricing, INFINITY, NULL));
  g_assert_null (hr_pricing_cheapest (pricing, NAN, NULL));
  offer = hr_pricing_cheapest (pricing, -5, NULL);
  g_assert_cmpstr (offer->provider, ==, "Vast.ai");
}

/* Seed GLM-4.5-Air pages: $8,500 budget (RTX PRO 6000 Blackwell), RunPod $1.19/h at 4 h/day,
 * $0.175/kWh: $144.70/month cloud, $12.77/month electricity, ~64.4 months. */
static void
test_tco_seed_air (void)
{
  HrTcoInput in = {
    .usd_per_hour = 1.19, .hours_per_day = 4, .hardware_usd = 8500,
    .power_w = 600, .usd_per_kwh = 0.175,
  };
  HrTcoResult out;
  double power_kw;

  /* The power the page must have used: 12.77 = P × 4 × 30.4 × 0.175. */
  power_kw = 12.77 / (4 * HR_DAYS_PER_MONTH * 0.175);
  g_assert_cmpfloat_with_epsilon (power_kw, 0.600, 0.001);

  hr_tco_compute (&in, &out);
  g_assert_cmpfloat_with_epsilon (out.cloud_monthly, 144.70, 0.005);
  g_assert_cmpfloat_with_epsilon (out.electricity_monthly, 12.77, 0.005);
  g_assert_cmpfloat_with_epsilon (out.months_to_amortise, 64.4, 0.05);
}

/* Seed GLM-4.5 page: $21.28/month electricity at 4 h/day → 1000 W (Instinct MI325X); with its
 * ~$21,000 price and RunPod's B300 at $6.94/h ($843.90/month): ~25.5 months. */
static void
test_tco_seed_glm45 (void)
{
  HrTcoInput in = {
    .usd_per_hour = 6.94, .hours_per_day = 4, .hardware_usd = 21000,
    .usd_per_kwh = 0.175,
  };
  HrTcoResult out;
  double power_kw;

  power_kw = 21.28 / (4 * HR_DAYS_PER_MONTH * 0.175);
  g_assert_cmpfloat_with_epsilon (power_kw, 1.0, 0.01);

  in.power_w = power_kw * 1000;
  hr_tco_compute (&in, &out);
  g_assert_cmpfloat_with_epsilon (out.electricity_monthly, 21.28, 0.005);
  g_assert_cmpfloat_with_epsilon (out.cloud_monthly, 843.90, 0.005);
  g_assert_cmpfloat_with_epsilon (out.months_to_amortise, 25.5, 0.05);

  in.power_w = 1000;
  hr_tco_compute (&in, &out);
  g_assert_cmpfloat_with_epsilon (out.electricity_monthly, 21.28, 0.005);
}

static void
test_tco_never (void)
{
  HrTcoInput in = {
    .usd_per_hour = 0.05, .hours_per_day = 24, .hardware_usd = 2000,
    .power_w = 600, .usd_per_kwh = 0.40,
  };
  HrTcoResult out;

  /* Renting at $0.05/h is cheaper than the electricity alone: buying never pays off. */
  hr_tco_compute (&in, &out);
  g_assert_true (out.cloud_monthly < out.electricity_monthly);
  g_assert_true (isinf (out.months_to_amortise) && out.months_to_amortise > 0);

  /* Equal costs never amortise either (values exact in binary); zero use neither. */
  in.power_w = 500;
  in.usd_per_kwh = 0.5;
  in.usd_per_hour = 0.25;
  hr_tco_compute (&in, &out);
  g_assert_true (isinf (out.months_to_amortise));
  in.hours_per_day = 0;
  hr_tco_compute (&in, &out);
  g_assert_cmpfloat (out.cloud_monthly, ==, 0);
  g_assert_true (isinf (out.months_to_amortise));

  /* Free hardware pays off at once. */
  in.hours_per_day = 4;
  in.usd_per_hour = 2;
  in.hardware_usd = 0;
  hr_tco_compute (&in, &out);
  g_assert_cmpfloat (out.months_to_amortise, ==, 0);
}

static void
test_tco_cumulative (void)
{
  HrTcoInput in = {
    .usd_per_hour = 1.19, .hours_per_day = 4, .hardware_usd = 8500,
    .power_w = 600, .usd_per_kwh = 0.175,
  };
  HrTcoResult out;
  double cloud, buy, prev_cloud = -1, prev_buy = -1;
  int month;

  hr_tco_cumulative (&in, 0, &cloud, &buy);
  g_assert_cmpfloat (cloud, ==, 0);
  g_assert_cmpfloat (buy, ==, 8500);

  hr_tco_cumulative (&in, 12, &cloud, &buy);
  g_assert_cmpfloat_with_epsilon (cloud, 12 * 144.704, 1e-6);
  g_assert_cmpfloat_with_epsilon (buy, 8500 + 12 * 12.768, 1e-6);

  /* The curves cross where the months to amortise say. */
  hr_tco_compute (&in, &out);
  hr_tco_cumulative (&in, out.months_to_amortise, &cloud, &buy);
  g_assert_cmpfloat_with_epsilon (cloud, buy, 1e-6);

  for (month = 0; month <= 120; month++)
    {
      hr_tco_cumulative (&in, month, &cloud, &buy);
      g_assert_cmpfloat (cloud, >=, prev_cloud);
      g_assert_cmpfloat (buy, >=, prev_buy);
      g_assert_true ((cloud < buy) == (month < out.months_to_amortise));
      prev_cloud = cloud;
      prev_buy = buy;
    }

  /* Either output may be left out. */
  hr_tco_cumulative (&in, 3, NULL, &buy);
  hr_tco_cumulative (&in, 3, &cloud, NULL);
}

static void
test_tco_hostile (void)
{
  const double weird[] = { NAN, -1, -INFINITY, INFINITY, 1e308, 0 };
  guint a, b;

  for (a = 0; a < G_N_ELEMENTS (weird); a++)
    for (b = 0; b < G_N_ELEMENTS (weird); b++)
      {
        HrTcoInput in = {
          .usd_per_hour = weird[a], .hours_per_day = weird[b], .hardware_usd = weird[a],
          .power_w = weird[b], .usd_per_kwh = weird[a],
        };
        HrTcoResult out;
        double cloud, buy;

        hr_tco_compute (&in, &out);
        g_assert_false (isnan (out.cloud_monthly));
        g_assert_false (isnan (out.electricity_monthly));
        g_assert_false (isnan (out.months_to_amortise));
        g_assert_cmpfloat (out.cloud_monthly, >=, 0);
        g_assert_cmpfloat (out.electricity_monthly, >=, 0);
        g_assert_cmpfloat (out.months_to_amortise, >=, 0);
        hr_tco_cumulative (&in, weird[b], &cloud, &buy);
        g_assert_false (isnan (cloud));
        g_assert_false (isnan (buy));
      }

  /* More than 24 hours a day is 24. */
  {
    HrTcoInput in = { .usd_per_hour = 1, .hours_per_day = 100 };
    HrTcoResult out;

    hr_tco_compute (&in, &out);
    g_assert_cmpfloat_with_epsilon (out.cloud_monthly, 24 * HR_DAYS_PER_MONTH, 1e-9);
  }
}

/* Equal prices are the same offers saying the same things: a copy is equal, one price, one
 * offer more or another source is not. */
static void
test_equal (void)
{
  g_autoptr(HrPricing) bundled = hr_pricing_load_bundled (NULL);
  g_autoptr(HrPricing) copy = hr_pricing_copy (bundled);
  HrOffer *first;

  g_assert_cmpuint (bundled->offers->len, >, 1);
  g_assert_true (hr_pricing_equal (bundled, copy));
  g_assert_true (hr_pricing_equal (NULL, NULL));
  g_assert_false (hr_pricing_equal (bundled, NULL));

  first = g_ptr_array_index (copy->offers, 0);
  first->usd_per_hour += 0.01;
  g_assert_false (hr_pricing_equal (bundled, copy));
  first->usd_per_hour = ((HrOffer *) g_ptr_array_index (bundled->offers, 0))->usd_per_hour;
  g_assert_true (hr_pricing_equal (bundled, copy));

  g_ptr_array_remove_index (copy->offers, copy->offers->len - 1);
  g_assert_false (hr_pricing_equal (bundled, copy));
  g_clear_pointer (&copy, hr_pricing_free);

  copy = hr_pricing_copy (bundled);
  g_free (copy->source);
  copy->source = g_strdup ("cache");
  g_assert_false (hr_pricing_equal (bundled, copy));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pricing/parse/good", test_parse_good);
  g_test_add_func ("/pricing/equal", test_equal);
  g_test_add_func ("/pricing/parse/bundled", test_parse_bundled);
  g_test_add_func ("/pricing/parse/bundled-catalog-ids", test_parse_bundled_catalog_ids);
  g_test_add_func ("/pricing/bundled-lookup", test_bundled_lookup);
  g_test_add_func ("/pricing/parse/bad-offers", test_parse_bad_offers);
  g_test_add_func ("/pricing/parse/schema", test_parse_schema);
  g_test_add_func ("/pricing/parse/not-json", test_parse_not_json);
  g_test_add_func ("/pricing/parse/empty", test_parse_empty);
  g_test_add_func ("/pricing/parse/huge-numbers", test_parse_huge_numbers);
  g_test_add_func ("/pricing/parse/hostile-nesting", test_parse_hostile_nesting);
  g_test_add_func ("/pricing/parse/hostile-size", test_parse_hostile_size);
  g_test_add_func ("/pricing/to-json/roundtrip", test_to_json_roundtrip);
  g_test_add_func ("/pricing/to-json/escaping", test_to_json_escaping);
  g_test_add_func ("/pricing/to-json/locale", test_to_json_locale);
  g_test_add_func ("/pricing/copy", test_copy);
  g_test_add_func ("/pricing/cheapest", test_cheapest);
  g_test_add_func ("/tco/seed-glm-4.5-air", test_tco_seed_air);
  g_test_add_func ("/tco/seed-glm-4.5", test_tco_seed_glm45);
  g_test_add_func ("/tco/never", test_tco_never);
  g_test_add_func ("/tco/cumulative", test_tco_cumulative);
  g_test_add_func ("/tco/hostile", test_tco_hostile);

  return g_test_run ();
}
