/* hr-pricing.c — cloud GPU offers: the pricing feed format and its validation
 *
 * The feed comes from the network, so everything in it is hostile until checked: a bad offer is
 * dropped and counted, a bad document is an error, and nothing in it may crash us.  The cache
 * is written with HrJsonWriter: json-glib 1.6 prints doubles with 17 digits ("1.1899999999999999").
 */
#include "hr-pricing.h"
#include "hr-bundled.h"
#include "hr-json.h"
#include "hr-json-writer.h"
#include "hr-struct.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A feed needs three levels, and about ten values an offer (hr-json.c says why both matter). */
#define MAX_DEPTH          32
#define MAX_VALUES         (HR_PRICING_MAX_OFFERS * 20)
/* An offer has about ten members, the document five: room for fields a later feed adds. */
#define MAX_MEMBERS        256
#define MAX_TEXT_CHARS     200
#define MAX_URL_BYTES      2048
#define MAX_GPU_ID_BYTES   64
#define MIN_GB_PER_GPU     0.25
#define MAX_GB_PER_GPU     4096.0
#define MIN_USD_PER_HOUR   0.0001

G_DEFINE_QUARK (hr-pricing-error-quark, hr_pricing_error)

static const HrJsonLimits feed_limits = { MAX_DEPTH, MAX_VALUES, MAX_MEMBERS };

/* json-glib quotes the offending token in its messages, and a token can be a megabyte long or
 * hold a newline: keep one short line. */
static char *
one_line (const char *message)
{
  GString *out = g_string_new (NULL);
  const char *p;
  glong n = 0;

  for (p = message; *p != '\0' && n < 160; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");
  return g_string_free (out, FALSE);
}

/* Reads an optional or required text member.  FALSE when the offer must be skipped. */
static gboolean
get_text (JsonObject  *object,
          const char  *name,
          gboolean     required,
          char       **out)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autofree char *text = NULL;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  /* Valid UTF-8 in, yet not necessarily out: json-glib 1.6 still decodes GScanner's octal
   * escapes, so "\300" becomes a lone 0xC0 byte. */
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    return FALSE;

  text = g_strstrip (g_strdup (json_node_get_string (node)));
  if (text[0] == '\0')
    return !required;
  /* No controls (an escape sequence would reach the terminal), bidi overrides or zero-width
   * characters (a name could read as another). */
  if (g_utf8_strlen (text, -1) > MAX_TEXT_CHARS || !hr_text_is_clean (text))
    return FALSE;

  *out = g_steal_pointer (&text);
  return TRUE;
}

static gboolean
get_number (JsonObject *object,
            const char *name,
            double     *out)
{
  return hr_json_node_get_number (json_object_get_member (object, name), out);
}

static gboolean
is_slug (const char *text)
{
  const char *p;

  if (strlen (text) > MAX_GPU_ID_BYTES || !g_ascii_isalnum (text[0]))
    return FALSE;
  for (p = text; *p != '\0'; p++)
    if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '-' || *p == '_' || *p == '.'))
      return FALSE;
  return TRUE;
}

static gboolean
is_web_url (const char *text)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (strlen (text) > MAX_URL_BYTES || strchr (text, ' ') != NULL)
    return FALSE;
  uri = g_uri_parse (text, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return FALSE;
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  return (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0)
         && host != NULL && host[0] != '\0';
}

static gboolean
is_date (const char *text)
{
  int i;

  if (strlen (text) != 10 || text[4] != '-' || text[7] != '-')
    return FALSE;
  for (i = 0; i < 10; i++)
    if (i != 4 && i != 7 && !g_ascii_isdigit (text[i]))
      return FALSE;

  return g_date_valid_dmy (atoi (text + 8), atoi (text + 5), atoi (text));
}

/* One offer, or NULL when any field is missing, of the wrong type or out of range. */
static HrOffer *
parse_offer (JsonNode *node)
{
  g_autoptr(HrOffer) offer = g_new0 (HrOffer, 1);
  JsonObject *object;
  double count;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);

  if (!get_text (object, "provider", TRUE, &offer->provider)
      || !get_text (object, "gpu", TRUE, &offer->gpu)
      || !get_text (object, "gpu_id", FALSE, &offer->gpu_id)
      || !get_text (object, "billing", FALSE, &offer->billing)
      || !get_text (object, "tier", FALSE, &offer->tier)
      || !get_text (object, "url", FALSE, &offer->url))
    return NULL;

  if (offer->gpu_id != NULL && !is_slug (offer->gpu_id))
    return NULL;
  if (offer->url != NULL && !is_web_url (offer->url))
    return NULL;

  if (!get_number (object, "count", &count)
      || count != floor (count) || count < 1 || count > HR_PRICING_MAX_COUNT)
    return NULL;
  offer->count = (int) count;

  if (!get_number (object, "vram_gb", &offer->vram_gb)
      || offer->vram_gb < MIN_GB_PER_GPU * offer->count
      || offer->vram_gb > MAX_GB_PER_GPU * offer->count)
    return NULL;

  if (!get_number (object, "usd_per_hour", &offer->usd_per_hour)
      || offer->usd_per_hour < MIN_USD_PER_HOUR
      || offer->usd_per_hour > HR_PRICING_MAX_USD_PER_HOUR)
    return NULL;

  return g_steal_pointer (&offer);
}

HrPricing *
hr_pricing_new (void)
{
  HrPricing *pricing = g_new0 (HrPricing, 1);

  pricing->schema = 1;
  pricing->currency = g_strdup ("USD");
  pricing->offers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_offer_free);
  return pricing;
}

/* The strings an HrOffer owns */
static const gsize offer_strings[] = {
  G_STRUCT_OFFSET (HrOffer, provider),
  G_STRUCT_OFFSET (HrOffer, gpu_id),
  G_STRUCT_OFFSET (HrOffer, gpu),
  G_STRUCT_OFFSET (HrOffer, billing),
  G_STRUCT_OFFSET (HrOffer, tier),
  G_STRUCT_OFFSET (HrOffer, url),
  G_STRUCT_OFFSET (HrOffer, instance),
  G_STRUCT_OFFSET (HrOffer, region),
};

HrOffer *
hr_offer_copy (const HrOffer *offer)
{
  g_return_val_if_fail (offer != NULL, NULL);

  return hr_struct_copy (offer, sizeof *offer, offer_strings, G_N_ELEMENTS (offer_strings));
}

void
hr_offer_free (HrOffer *offer)
{
  hr_struct_free (offer, offer_strings, G_N_ELEMENTS (offer_strings));
}

HrPricing *
hr_pricing_copy (const HrPricing *pricing)
{
  HrPricing *copy;
  guint i;

  g_return_val_if_fail (pricing != NULL, NULL);

  copy = hr_pricing_new ();
  copy->schema = pricing->schema;
  copy->updated = g_strdup (pricing->updated);
  g_free (copy->currency);
  copy->currency = g_strdup (pricing->currency);
  copy->source = g_strdup (pricing->source);
  copy->feed_updated = g_strdup (pricing->feed_updated);
  copy->skipped = pricing->skipped;
  copy->unread = pricing->unread;
  for (i = 0; pricing->offers != NULL && i < pricing->offers->len; i++)
    g_ptr_array_add (copy->offers, hr_offer_copy (g_ptr_array_index (pricing->offers, i)));
  return copy;
}

static gboolean
same_number (double a,
             double b)
{
  return a == b || (isnan (a) && isnan (b));
}

static gboolean
offer_equal (const HrOffer *a,
             const HrOffer *b)
{
  return g_strcmp0 (a->provider, b->provider) == 0 && g_strcmp0 (a->gpu_id, b->gpu_id) == 0 &&
         g_strcmp0 (a->gpu, b->gpu) == 0 && a->count == b->count &&
         same_number (a->vram_gb, b->vram_gb) && same_number (a->usd_per_hour, b->usd_per_hour) &&
         g_strcmp0 (a->billing, b->billing) == 0 && g_strcmp0 (a->tier, b->tier) == 0 &&
         g_strcmp0 (a->url, b->url) == 0 && g_strcmp0 (a->instance, b->instance) == 0 &&
         g_strcmp0 (a->region, b->region) == 0 &&
         same_number (a->on_demand_usd_per_hour, b->on_demand_usd_per_hour) &&
         same_number (a->spot_usd_per_hour, b->spot_usd_per_hour);
}

gboolean
hr_pricing_equal (const HrPricing *a,
                  const HrPricing *b)
{
  guint na, nb;

  if (a == NULL || b == NULL)
    return a == b;
  na = a->offers ? a->offers->len : 0;
  nb = b->offers ? b->offers->len : 0;
  if (a->schema != b->schema || g_strcmp0 (a->updated, b->updated) != 0 ||
      g_strcmp0 (a->currency, b->currency) != 0 || g_strcmp0 (a->source, b->source) != 0 ||
      g_strcmp0 (a->feed_updated, b->feed_updated) != 0 || a->skipped != b->skipped ||
      a->unread != b->unread || na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (!offer_equal (g_ptr_array_index (a->offers, i), g_ptr_array_index (b->offers, i)))
      return FALSE;
  return TRUE;
}

void
hr_pricing_free (HrPricing *pricing)
{
  if (pricing == NULL)
    return;
  g_free (pricing->updated);
  g_free (pricing->currency);
  g_free (pricing->source);
  g_free (pricing->feed_updated);
  g_clear_pointer (&pricing->offers, g_ptr_array_unref);
  g_free (pricing);
}

/* The document's root object; NULL with @error set when it is no JSON or no object.  The object
 * lives as long as the parser, which *@parser_out receives. */
static JsonObject *
parse_root (const char   *json,
            gssize        length,
            JsonParser  **parser_out,
            GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *node;

  *parser_out = hr_json_parse_limited (json, length, &feed_limits, &local_error);
  if (*parser_out == NULL)
    {
      g_autofree char *reason = one_line (local_error->message);

      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE,
                   _("The pricing feed is not valid JSON: %s"), reason);
      return NULL;
    }

  node = json_parser_get_root (*parser_out);
  if (node == NULL)
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE,
                   _("The pricing feed is not valid JSON: it is empty"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA,
                   _("The pricing feed is not a JSON object"));
      return NULL;
    }
  return json_node_get_object (node);
}

/* Schema 1, an "updated" date and US dollars, the date kept in @pricing. */
static gboolean
read_header (JsonObject  *root,
             HrPricing   *pricing,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "schema");
  g_autofree char *currency = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) != 1)
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA,
                   _("The pricing feed has an unsupported schema (this version reads schema 1)"));
      return FALSE;
    }

  if (!get_text (root, "updated", TRUE, &pricing->updated) || !is_date (pricing->updated))
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA,
                   _("The pricing feed has no valid “updated” date (YYYY-MM-DD)"));
      return FALSE;
    }

  /* Every price field is usd_per_hour: another currency would be read as dollars. */
  if (!get_text (root, "currency", FALSE, &currency)
      || (currency != NULL && strcmp (currency, "USD") != 0))
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA,
                   _("The pricing feed is not in US dollars"));
      return FALSE;
    }
  return TRUE;
}

/* The valid offers into @pricing, the invalid ones counted as skipped and those past the cap
 * as unread; FALSE when there is no "offers" list or no valid offer in it. */
static gboolean
read_offers (JsonObject  *root,
             HrPricing   *pricing,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "offers");
  JsonArray *offers;
  guint n_offers;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_SCHEMA,
                   _("The pricing feed has no “offers” list"));
      return FALSE;
    }
  offers = json_node_get_array (node);

  n_offers = json_array_get_length (offers);
  for (guint i = 0; i < n_offers; i++)
    {
      HrOffer *offer;

      /* Past the cap nothing is read, so nothing can be called invalid: counted apart. */
      if (pricing->offers->len >= HR_PRICING_MAX_OFFERS)
        {
          pricing->unread++;
          continue;
        }
      offer = parse_offer (json_array_get_element (offers, i));
      if (offer != NULL)
        g_ptr_array_add (pricing->offers, offer);
      else
        pricing->skipped++;
    }

  if (pricing->offers->len == 0)
    {
      if (pricing->skipped > 0)
        g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY,
                     ngettext ("The pricing feed has no valid offer (%u invalid offer skipped)",
                               "The pricing feed has no valid offer (%u invalid offers skipped)",
                               pricing->skipped),
                     pricing->skipped);
      else
        g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY,
                     _("The pricing feed lists no offers"));
      return FALSE;
    }
  return TRUE;
}

HrPricing *
hr_pricing_parse (const char  *json,
                  gssize       length,
                  const char  *source,
                  GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  JsonObject *root;

  g_return_val_if_fail (json != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (json == NULL)
    json = "";
  if (length < 0)
    length = strlen (json);

  root = parse_root (json, length, &parser, error);
  if (root == NULL)
    return NULL;

  pricing = hr_pricing_new ();
  pricing->source = g_strdup (source);
  if (!read_header (root, pricing, error) || !read_offers (root, pricing, error))
    return NULL;
  return g_steal_pointer (&pricing);
}

static void
write_offer (HrJsonWriter  *w,
             const HrOffer *offer)
{
  hr_json_begin_object_inline (w);
  hr_json_member_string (w, "provider", offer->provider);
  hr_json_member_string (w, "gpu_id", offer->gpu_id);
  hr_json_member_string (w, "gpu", offer->gpu);
  hr_json_member_int (w, "count", offer->count);
  hr_json_member_number_g (w, "vram_gb", offer->vram_gb);
  hr_json_member_number_g (w, "usd_per_hour", offer->usd_per_hour);
  hr_json_member_string (w, "billing", offer->billing);
  hr_json_member_string (w, "tier", offer->tier);
  hr_json_member_string (w, "url", offer->url);
  hr_json_end_object (w);
}

/* The feed format again, one offer a line. */
char *
hr_pricing_to_json (const HrPricing *pricing)
{
  HrJsonWriter w;

  g_return_val_if_fail (pricing != NULL, NULL);

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_member_int (&w, "schema", pricing->schema);
  hr_json_member_string (&w, "updated", pricing->updated);
  hr_json_member_string (&w, "currency", pricing->currency);
  hr_json_member_string (&w, "source", pricing->source);
  hr_json_member_int (&w, "skipped", pricing->skipped);
  hr_json_member_int (&w, "unread", pricing->unread);
  hr_json_key (&w, "offers");
  hr_json_begin_array (&w);
  for (guint i = 0; pricing->offers != NULL && i < pricing->offers->len; i++)
    write_offer (&w, g_ptr_array_index (pricing->offers, i));
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

const HrOffer *
hr_pricing_cheapest (const HrPricing *pricing,
                     double           needed_gib,
                     const char      *gpu_id)
{
  const HrOffer *best = NULL;
  guint i;

  g_return_val_if_fail (pricing != NULL, NULL);

  if (pricing->offers == NULL || isnan (needed_gib))
    return NULL;

  /* Marketed accelerator memory is binary (an "80 GB" card has 80 GiB), so vram_gb compares
   * with GiB directly.  Ties keep the feed's order. */
  for (i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *offer = g_ptr_array_index (pricing->offers, i);

      if (!(offer->vram_gb >= needed_gib))
        continue;
      if (gpu_id != NULL && g_strcmp0 (offer->gpu_id, gpu_id) != 0)
        continue;
      if (best == NULL || offer->usd_per_hour < best->usd_per_hour)
        best = offer;
    }

  return best;
}

HrPricing *
hr_pricing_load_bundled (GError **error)
{
  g_autoptr(GBytes) bytes = hr_bundled_lookup (HR_PRICING_RESOURCE_PATH, error);
  const char *data;
  gsize size;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &size);
  return hr_pricing_parse (data, size, "snapshot", error);
}
