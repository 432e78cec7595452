/* hr-skypilot.c — cloud GPU offers from the SkyPilot catalog's vms.csv files
 *
 * The CSV arrives from the network, so it is hostile until checked: the reader is a byte-at-a-
 * time state machine with a bound on every field and row, a row that does not read is counted
 * and skipped, and a file that stops in the middle of a row is refused as a whole (a cut-off
 * catalog would silently lose its cheapest offers).  Only GPU rows are kept, merged per
 * instance type and region, so a 2.5 MB file becomes a few hundred offers.
 */
#include "hr-skypilot.h"
#include "hr-bundled.h"
#include "hr-hash.h"
#include "hr-text.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_TEXT_CHARS   200
#define MAX_UNMAPPED     200
#define MAX_COUNT        1024
#define MAX_USD          100000.0

G_DEFINE_QUARK (hr-skypilot-error-quark, hr_skypilot_error)

typedef enum
{
  COL_INSTANCE,
  COL_ACCELERATOR,
  COL_COUNT,
  COL_PRICE,
  COL_SPOT,
  COL_REGION,
  COL_GPUINFO,
  N_COLS
} Column;

static const char *const column_names[N_COLS] = {
  "InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region", "GpuInfo",
};

typedef enum
{
  FIELD_START,
  UNQUOTED,
  QUOTED,
  QUOTE_IN_QUOTED,
} CsvState;

struct _HrSkypilotParser
{
  const HrCatalog *catalog;
  HrSkypilotCloud *cloud;
  GHashTable *by_key;       /* "instance\x1fregion" -> offer index + 1 */
  CsvState state;
  GString *field;
  GPtrArray *row;           /* char* */
  gboolean in_row;          /* bytes seen since the last row ended */
  gboolean have_header;
  int cols[N_COLS];         /* field index of each column, -1 when absent */
  guint n_header;
};

/* Clouds ------------------------------------------------------------------------------------ */

static const char *const clouds[] = { HR_SKYPILOT_CLOUDS, NULL };

static const struct { const char *id; const char *display; } cloud_names[] = {
  { "aws", "AWS" },
  { "gcp", "Google Cloud" },
  { "lambda", "Lambda" },
  { "runpod", "RunPod" },
  { "vast", "Vast.ai" },
  { "nebius", "Nebius" },
  { "cudo", "Cudo Compute" },
  { "hyperbolic", "Hyperbolic" },
  { "shadeform", "Shadeform" },
  { "primeintellect", "Prime Intellect" },
};

const char *const *
hr_skypilot_clouds (void)
{
  return clouds;
}

gboolean
hr_skypilot_is_cloud (const char *cloud)
{
  return cloud != NULL && g_strv_contains (clouds, cloud);
}

const char *
hr_skypilot_cloud_display (const char *cloud)
{
  for (guint i = 0; i < G_N_ELEMENTS (cloud_names); i++)
    if (g_strcmp0 (cloud, cloud_names[i].id) == 0)
      return cloud_names[i].display;
  return cloud;
}

/* GPU names ---------------------------------------------------------------------------------- */

/* SkyPilot's names (catalogs/v7/common/metadata.csv and the vms.csv files) that do not match a
 * catalog id by the plain rule in generic_match(), with the catalog GPUs they can be. */
static const struct { const char *name; const char *ids[2]; } aliases[] = {
  { "A100", { "a100-40gb-sxm", "a100-80gb-sxm" } },
  { "A100-80GB", { "a100-80gb-sxm", "a100-80gb-pcie" } },
  { "A100-80GB-SXM", { "a100-80gb-sxm", NULL } },
  { "H100", { "h100-80gb-sxm", "h100-80gb-pcie" } },
  { "H100-SXM", { "h100-80gb-sxm", NULL } },
  { "H100-MEGA", { "h100-80gb-sxm", NULL } },
  { "H100-NVLINK", { "h100-80gb-sxm", NULL } },
  { "H100-NVL", { "h100-nvl-94gb", NULL } },
  { "H200-SXM", { "h200-141gb", NULL } },
  { "A6000", { "rtx-a6000-48gb", NULL } },
  { "V100-32GB", { "v100-32gb-sxm", NULL } },
  /* common/metadata.csv: SkyPilot's "V100" is the 16 GB card; the catalog has only the 32 GB */
  { "V100", { NULL, NULL } },
};

static char *
normalize (const char *text,
           gsize       length)
{
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < length && text[i] != '\0'; i++)
    if (g_ascii_isalnum (text[i]))
      g_string_append_c (out, g_ascii_tolower (text[i]));
  return g_string_free (out, FALSE);
}

/* "rtx-4090-24gb" matches "RTX4090": the id without its trailing "-<n>gb", letters and digits
 * only, case ignored. */
static const HrGpu *
generic_match (const HrCatalog *catalog,
               const char      *accelerator)
{
  g_autofree char *want = normalize (accelerator, strlen (accelerator));

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      const char *dash = strrchr (gpu->id, '-');
      g_autofree char *have = NULL;

      if (gpu->user_defined || dash == NULL || !g_str_has_suffix (dash, "gb")
          || !g_ascii_isdigit (dash[1]))
        continue;
      have = normalize (gpu->id, dash - gpu->id);
      if (strcmp (have, want) == 0)
        return gpu;
    }
  return NULL;
}

static const HrGpu *
pick (const HrCatalog *catalog,
      const char      *const *ids,
      guint            n_ids,
      double           mib_per_gpu,
      const char      *instance)
{
  g_autofree char *lower = g_ascii_strdown (instance ? instance : "", -1);
  const HrGpu *best = NULL;
  double best_gap = INFINITY;

  for (guint i = 0; i < n_ids && ids[i] != NULL; i++)
    {
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, ids[i]);
      double gap;

      if (gpu == NULL)
        continue;
      if (strstr (lower, "pcie") != NULL && strstr (gpu->id, "pcie") != NULL)
        return gpu;
      gap = mib_per_gpu > 0 ? fabs (gpu->memory_gib - mib_per_gpu / 1024.0) : (double) i;
      if (gap < best_gap)
        {
          best = gpu;
          best_gap = gap;
        }
    }
  return best;
}

const char *
hr_skypilot_map_gpu (const HrCatalog *catalog,
                     const char      *accelerator,
                     double           mib_per_gpu,
                     const char      *instance)
{
  const HrGpu *gpu;

  g_return_val_if_fail (catalog != NULL, NULL);

  if (accelerator == NULL || accelerator[0] == '\0')
    return NULL;

  /* GpuInfo's memory only chooses between the sizes a name can be: some clouds (Nebius) write
   * the host's memory there, so it cannot overrule the name */
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (accelerator, aliases[i].name) == 0)
      {
        gpu = pick (catalog, aliases[i].ids, G_N_ELEMENTS (aliases[i].ids), mib_per_gpu, instance);
        return gpu != NULL ? gpu->id : NULL;
      }
  gpu = generic_match (catalog, accelerator);
  return gpu != NULL ? gpu->id : NULL;
}

double
hr_skypilot_gpuinfo_mib (const char *gpuinfo)
{
  const char *key;
  double mib;
  char *end = NULL;

  if (gpuinfo == NULL || (key = strstr (gpuinfo, "'SizeInMiB':")) == NULL)
    return 0;
  key += strlen ("'SizeInMiB':");
  while (*key == ' ')
    key++;
  mib = g_ascii_strtod (key, &end);
  if (end == key || !isfinite (mib) || mib <= 0 || mib > 4096.0 * 1024)
    return 0;
  return mib;
}

/* Rows --------------------------------------------------------------------------------------- */

/* A name or region fit to show: valid UTF-8 without controls, bidi overrides or zero-width
 * characters (hr_text_is_clean), not absurdly long. */
static gboolean
is_clean_text (const char *text)
{
  return text[0] != '\0' && hr_text_is_clean (text) && g_utf8_strlen (text, -1) <= MAX_TEXT_CHARS;
}

/* A price in dollars per hour, a plain decimal ("3.06"; not "0x10", "1e3" or "inf"); 0 for an
 * empty cell; -1 when it does not read. */
static double
read_price (const char *text)
{
  double v;

  if (text[0] == '\0')
    return 0;
  if (!hr_text_parse_decimal (text, &v) || v > MAX_USD)
    return -1;
  return v;
}

static const char *
cell (HrSkypilotParser *p,
      Column            col)
{
  int i = p->cols[col];

  return i >= 0 ? g_ptr_array_index (p->row, i) : "";
}

static void
note_unmapped (HrSkypilotParser *p,
               const char       *name)
{
  GHashTable *unmapped = p->cloud->unmapped;
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (unmapped, name));

  if (n == 0 && g_hash_table_size (unmapped) >= MAX_UNMAPPED)
    return;
  g_hash_table_insert (unmapped, g_strdup (name), GUINT_TO_POINTER (n + 1));
}

static void
merge_price (double *have,
             double  price)
{
  if (price > 0 && (*have <= 0 || price < *have))
    *have = price;
}

/* The offer of the current row (checked by data_row), for @count accelerators; NULL when its
 * memory is unknown. */
static HrOffer *
new_offer (HrSkypilotParser *p,
           int               count)
{
  const char *instance = cell (p, COL_INSTANCE);
  const char *accelerator = cell (p, COL_ACCELERATOR);
  double mib = hr_skypilot_gpuinfo_mib (cell (p, COL_GPUINFO));
  const char *gpu_id = hr_skypilot_map_gpu (p->catalog, accelerator, mib, instance);
  const HrGpu *gpu = gpu_id ? hr_catalog_find_gpu (p->catalog, gpu_id) : NULL;
  HrOffer *offer;
  double vram = gpu ? count * gpu->memory_gib : count * mib / 1024.0;

  if (gpu == NULL)
    note_unmapped (p, accelerator);
  if (!(vram > 0))
    return NULL;

  offer = g_new0 (HrOffer, 1);
  offer->provider = g_strdup (hr_skypilot_cloud_display (p->cloud->cloud));
  offer->gpu_id = g_strdup (gpu_id);
  offer->gpu = g_strdup (gpu ? gpu->name : accelerator);
  offer->count = count;
  offer->vram_gb = vram;
  offer->instance = g_strdup (instance);
  offer->region = g_strdup (cell (p, COL_REGION));
  return offer;
}

static void
data_row (HrSkypilotParser *p)
{
  const char *instance = cell (p, COL_INSTANCE);
  const char *accelerator = cell (p, COL_ACCELERATOR);
  const char *region = cell (p, COL_REGION);
  double price = read_price (cell (p, COL_PRICE));
  double spot = read_price (cell (p, COL_SPOT));
  g_autofree char *key = NULL;
  gpointer found;
  HrOffer *offer;
  double count = 0;

  p->cloud->rows++;
  if (accelerator[0] == '\0')
    {
      p->cloud->cpu_rows++;
      return;
    }

  /* "8" or "8.0" as pandas writes a count; not "1e3" */
  if (!hr_text_parse_decimal (cell (p, COL_COUNT), &count) || !(count >= 1 && count <= MAX_COUNT)
      || count != floor (count) || price < 0 || spot < 0 || (price == 0 && spot == 0)
      || !is_clean_text (instance) || !is_clean_text (accelerator) || !is_clean_text (region))
    {
      p->cloud->bad_rows++;
      return;
    }

  key = g_strconcat (instance, "\x1f", region, NULL);
  found = g_hash_table_lookup (p->by_key, key);
  if (found != NULL)
    offer = g_ptr_array_index (p->cloud->offers, GPOINTER_TO_UINT (found) - 1);
  else
    {
      if (p->cloud->offers->len >= HR_SKYPILOT_MAX_OFFERS)
        {
          p->cloud->bad_rows++;
          return;
        }
      offer = new_offer (p, (int) count);
      if (offer == NULL)
        return;
      g_ptr_array_add (p->cloud->offers, offer);
      g_hash_table_insert (p->by_key, g_steal_pointer (&key), GUINT_TO_POINTER (p->cloud->offers->len));
    }
  /* zones of one region: the cheapest */
  merge_price (&offer->on_demand_usd_per_hour, price);
  merge_price (&offer->spot_usd_per_hour, spot);
  offer->usd_per_hour = offer->on_demand_usd_per_hour > 0 ? offer->on_demand_usd_per_hour
                                                          : offer->spot_usd_per_hour;
}

static gboolean
header_row (HrSkypilotParser  *p,
            GError           **error)
{
  for (int c = 0; c < N_COLS; c++)
    p->cols[c] = -1;
  for (guint i = 0; i < p->row->len; i++)
    {
      const char *name = g_ptr_array_index (p->row, i);

      if (i == 0 && g_str_has_prefix (name, "\xef\xbb\xbf"))  /* a UTF-8 byte order mark */
        name += 3;
      for (int c = 0; c < N_COLS; c++)
        if (p->cols[c] < 0 && strcmp (name, column_names[c]) == 0)
          p->cols[c] = (int) i;
    }

  for (int c = 0; c < N_COLS; c++)
    if (p->cols[c] < 0 && c != COL_SPOT && c != COL_GPUINFO)
      {
        g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_HEADER,
                     _("The catalog file has no “%s” column"), column_names[c]);
        return FALSE;
      }
  p->n_header = p->row->len;
  p->have_header = TRUE;
  return TRUE;
}

static gboolean
end_row (HrSkypilotParser  *p,
         GError           **error)
{
  gboolean ok = TRUE;

  g_ptr_array_add (p->row, g_strdup (p->field->str));
  g_string_truncate (p->field, 0);

  if (p->row->len == 1 && ((char *) g_ptr_array_index (p->row, 0))[0] == '\0')
    ;  /* a blank line */
  else if (!p->have_header)
    ok = header_row (p, error);
  else if (p->row->len != p->n_header)
    {
      p->cloud->rows++;
      p->cloud->bad_rows++;
    }
  else
    data_row (p);

  g_ptr_array_set_size (p->row, 0);
  p->in_row = FALSE;
  return ok;
}

static gboolean
end_field (HrSkypilotParser  *p,
           GError           **error)
{
  if (p->row->len + 1 >= HR_SKYPILOT_MAX_FIELDS)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_MALFORMED,
                   _("The catalog file has a row of more than %d fields"), HR_SKYPILOT_MAX_FIELDS);
      return FALSE;
    }
  g_ptr_array_add (p->row, g_strdup (p->field->str));
  g_string_truncate (p->field, 0);
  return TRUE;
}

static gboolean
add_byte (HrSkypilotParser  *p,
          char               c,
          GError           **error)
{
  if (c == '\0' || p->field->len >= HR_SKYPILOT_MAX_FIELD_BYTES)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_MALFORMED,
                   c == '\0' ? _("The catalog file is not text")
                             : _("The catalog file has a field longer than %d bytes"),
                   HR_SKYPILOT_MAX_FIELD_BYTES);
      return FALSE;
    }
  g_string_append_c (p->field, c);
  return TRUE;
}

static gboolean
feed_byte (HrSkypilotParser  *p,
           char               c,
           GError           **error)
{
  p->in_row = TRUE;
  switch (p->state)
    {
    case QUOTED:
      if (c == '"')
        {
          p->state = QUOTE_IN_QUOTED;
          return TRUE;
        }
      return add_byte (p, c, error);

    case QUOTE_IN_QUOTED:
      if (c == '"')  /* "" is a quote */
        {
          p->state = QUOTED;
          return add_byte (p, c, error);
        }
      /* the field ended; what follows is read as unquoted text */
      p->state = UNQUOTED;
      G_GNUC_FALLTHROUGH;

    case FIELD_START:
    case UNQUOTED:
      if (c == '"' && p->state == FIELD_START)
        {
          p->state = QUOTED;
          return TRUE;
        }
      if (c == ',')
        {
          p->state = FIELD_START;
          return end_field (p, error);
        }
      if (c == '\n')
        {
          p->state = FIELD_START;
          return end_row (p, error);
        }
      if (c == '\r')
        return TRUE;
      p->state = UNQUOTED;
      return add_byte (p, c, error);
    }
  g_assert_not_reached ();
}

/* Public API --------------------------------------------------------------------------------- */

HrSkypilotParser *
hr_skypilot_parser_new (const char      *cloud,
                        const HrCatalog *catalog)
{
  HrSkypilotParser *p;

  g_return_val_if_fail (cloud != NULL, NULL);
  g_return_val_if_fail (catalog != NULL, NULL);

  p = g_new0 (HrSkypilotParser, 1);
  p->catalog = catalog;
  p->cloud = g_new0 (HrSkypilotCloud, 1);
  p->cloud->cloud = g_strdup (cloud);
  p->cloud->offers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_offer_free);
  p->cloud->unmapped = hr_name_table_new (g_free, NULL);
  p->by_key = hr_name_table_new (g_free, NULL);
  p->field = g_string_new (NULL);
  p->row = g_ptr_array_new_with_free_func (g_free);
  return p;
}

void
hr_skypilot_parser_free (HrSkypilotParser *p)
{
  if (p == NULL)
    return;
  hr_skypilot_cloud_free (p->cloud);
  g_hash_table_unref (p->by_key);
  g_string_free (p->field, TRUE);
  g_ptr_array_unref (p->row);
  g_free (p);
}

gboolean
hr_skypilot_parser_feed (HrSkypilotParser  *p,
                         const char        *data,
                         gsize              length,
                         GError           **error)
{
  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  for (gsize i = 0; i < length; i++)
    if (!feed_byte (p, data[i], error))
      return FALSE;
  return TRUE;
}

HrSkypilotCloud *
hr_skypilot_parser_finish (HrSkypilotParser  *p,
                           GError           **error)
{
  g_autoptr(HrSkypilotParser) owned = p;

  g_return_val_if_fail (p != NULL, NULL);

  if (p->state == QUOTED)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_TRUNCATED,
                   _("The catalog file ends inside a quoted field (cut off?)"));
      return NULL;
    }
  if (p->in_row)
    {
      /* no newline after the last row: whole only when every field is there */
      guint n_fields = p->row->len + 1;

      if (p->have_header && n_fields != p->n_header)
        {
          g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_TRUNCATED,
                       _("The catalog file ends in the middle of a row (cut off?)"));
          return NULL;
        }
      if (!end_row (p, error))
        return NULL;
    }
  if (!p->have_header)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_HEADER,
                   _("The catalog file is empty"));
      return NULL;
    }
  if (p->cloud->rows == p->cloud->bad_rows)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_EMPTY,
                   _("The catalog file has no row with a price"));
      return NULL;
    }
  return g_steal_pointer (&p->cloud);
}

HrSkypilotCloud *
hr_skypilot_parse (const char      *cloud,
                   const HrCatalog *catalog,
                   const char      *data,
                   gsize            length,
                   GError         **error)
{
  g_autoptr(HrSkypilotParser) p = hr_skypilot_parser_new (cloud, catalog);

  if (!hr_skypilot_parser_feed (p, data, length, error))
    return NULL;
  return hr_skypilot_parser_finish (g_steal_pointer (&p), error);
}

void
hr_skypilot_cloud_free (HrSkypilotCloud *cloud)
{
  if (cloud == NULL)
    return;
  g_free (cloud->cloud);
  g_free (cloud->source);
  g_free (cloud->date);
  g_free (cloud->url);
  g_clear_pointer (&cloud->offers, g_ptr_array_unref);
  g_clear_pointer (&cloud->unmapped, g_hash_table_unref);
  g_free (cloud);
}

typedef struct
{
  const char *name;
  guint n;
} NameCount;

static gint
by_count (gconstpointer a,
          gconstpointer b)
{
  const NameCount *x = a;
  const NameCount *y = b;

  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return strcmp (x->name, y->name);
}

char *
hr_skypilot_unmapped_summary (GHashTable *unmapped,
                              guint      *n_offers)
{
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (NameCount));
  GHashTableIter iter;
  gpointer key, value;
  GString *out;
  guint total = 0;

  if (n_offers != NULL)
    *n_offers = 0;
  if (unmapped == NULL || g_hash_table_size (unmapped) == 0)
    return NULL;

  g_hash_table_iter_init (&iter, unmapped);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      NameCount nc = { key, GPOINTER_TO_UINT (value) };

      g_array_append_val (items, nc);
      total += nc.n;
    }
  g_array_sort (items, by_count);

  out = g_string_new (NULL);
  for (guint i = 0; i < items->len; i++)
    {
      const NameCount *nc = &g_array_index (items, NameCount, i);

      g_string_append_printf (out, "%s%s (%u)", i > 0 ? ", " : "", nc->name, nc->n);
    }
  if (n_offers != NULL)
    *n_offers = total;
  return g_string_free (out, FALSE);
}

HrPricing *
hr_skypilot_select (GPtrArray              *cloud_list,
                    const HrSkypilotChoice *choice,
                    const char             *source)
{
  g_autoptr(GHashTable) best = hr_name_table_new (g_free, NULL);
  const char *prefix = choice && choice->region_prefix ? choice->region_prefix : "";
  gboolean spot = choice != NULL && choice->spot;
  HrPricing *pricing = hr_pricing_new ();

  pricing->source = g_strdup (source);
  for (guint c = 0; cloud_list != NULL && c < cloud_list->len; c++)
    {
      const HrSkypilotCloud *cloud = g_ptr_array_index (cloud_list, c);

      if (cloud->date != NULL && (pricing->updated == NULL || strcmp (cloud->date, pricing->updated) < 0))
        {
          g_free (pricing->updated);
          pricing->updated = g_strndup (cloud->date, 10);
        }
      for (guint i = 0; i < cloud->offers->len; i++)
        {
          const HrOffer *o = g_ptr_array_index (cloud->offers, i);
          double price = spot ? o->spot_usd_per_hour : o->on_demand_usd_per_hour;
          g_autofree char *key = NULL;
          HrOffer *copy;
          gpointer found;

          if (price <= 0 || g_ascii_strncasecmp (o->region, prefix, strlen (prefix)) != 0)
            continue;
          key = g_strconcat (cloud->cloud, "\x1f", o->instance, NULL);
          found = g_hash_table_lookup (best, key);
          if (found != NULL)
            {
              HrOffer *have = g_ptr_array_index (pricing->offers, GPOINTER_TO_UINT (found) - 1);

              if (price >= have->usd_per_hour)
                continue;
              copy = hr_offer_copy (o);
              hr_offer_free (have);
              pricing->offers->pdata[GPOINTER_TO_UINT (found) - 1] = copy;
            }
          else
            {
              copy = hr_offer_copy (o);
              g_ptr_array_add (pricing->offers, copy);
              g_hash_table_insert (best, g_steal_pointer (&key), GUINT_TO_POINTER (pricing->offers->len));
            }
          copy->usd_per_hour = price;
          g_free (copy->billing);
          copy->billing = g_strdup (spot ? "spot" : "on-demand");
          g_free (copy->tier);
          copy->tier = g_strdup_printf ("%s · %s", o->instance, o->region);
          g_free (copy->url);
          copy->url = g_strdup (cloud->url);
        }
    }
  return pricing;
}

/* Bundled snapshot ---------------------------------------------------------------------------- */

char *
hr_skypilot_snapshot_date (void)
{
  g_autoptr(GBytes) bytes = hr_bundled_lookup (HR_SKYPILOT_SNAPSHOT_PATH "SNAPSHOT", NULL);
  g_auto(GStrv) lines = NULL;

  if (bytes == NULL)
    return NULL;
  lines = g_strsplit (g_bytes_get_data (bytes, NULL), "\n", 2);
  /* first line: "2026-12-01 <commit>" */
  return lines[0] != NULL && strlen (lines[0]) >= 10 ? g_strndup (lines[0], 10) : NULL;
}

HrSkypilotCloud *
hr_skypilot_snapshot_load (const char       *cloud,
                           const HrCatalog  *catalog,
                           GError          **error)
{
  g_autofree char *path = g_strconcat (HR_SKYPILOT_SNAPSHOT_PATH, cloud, ".csv", NULL);
  g_autoptr(GBytes) bytes = hr_bundled_lookup (path, error);
  HrSkypilotCloud *result;
  gsize size;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &size);
  result = hr_skypilot_parse (cloud, catalog, data, size, error);
  if (result == NULL)
    return NULL;
  result->source = g_strdup ("snapshot");
  result->date = hr_skypilot_snapshot_date ();
  result->url = g_strdup_printf ("https://github.com/skypilot-org/skypilot-catalog/blob/master/catalogs/v7/%s/vms.csv",
                                 cloud);
  return result;
}
