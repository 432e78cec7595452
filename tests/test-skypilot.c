/* test-skypilot.c — the SkyPilot catalog parser, GPU mapping and offer selection
 *
 * The fixtures in tests/fixtures/skypilot/ are trimmed copies of real catalog files (see the
 * README there): AWS and RunPod put Price before/after Region in different orders, Lambda and
 * Nebius quote GpuInfo, RunPod's GpuInfo is a bare name, Hyperbolic has an extra column.
 */
#include <gio/gio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-skypilot.h"

#include "hostile-gen.h"

/* The time one hostile input may take: generous, minutes before the fix (issue #27). */
#define HOSTILE_SECONDS 10.0

static HrCatalog *catalog;

static char *
fixture (const char *cloud,
         gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "skypilot", cloud,
                                                 "vms.csv", NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, length, &error);
  g_assert_no_error (error);
  return text;
}

static HrSkypilotCloud *
parse_fixture (const char *cloud)
{
  gsize length;
  g_autofree char *text = fixture (cloud, &length);
  g_autoptr(GError) error = NULL;
  HrSkypilotCloud *parsed = hr_skypilot_parse (cloud, catalog, text, length, &error);

  g_assert_no_error (error);
  g_assert_nonnull (parsed);
  return parsed;
}

static const HrOffer *
find (const HrSkypilotCloud *cloud,
      const char            *instance,
      const char            *region)
{
  for (guint i = 0; i < cloud->offers->len; i++)
    {
      const HrOffer *o = g_ptr_array_index (cloud->offers, i);

      if (g_str_equal (o->instance, instance) && g_str_equal (o->region, region))
        return o;
    }
  return NULL;
}

static void
test_aws (void)
{
  g_autoptr(HrSkypilotCloud) aws = parse_fixture ("aws");
  const HrOffer *o;

  g_assert_cmpuint (aws->rows, ==, 18);
  g_assert_cmpuint (aws->cpu_rows, ==, 4);
  /* p5e in eu-north-1 has neither price */
  g_assert_cmpuint (aws->bad_rows, ==, 1);

  /* two zones of us-east-1 are one offer, at the cheaper spot price */
  o = find (aws, "p5.48xlarge", "us-east-1");
  g_assert_nonnull (o);
  g_assert_cmpstr (o->provider, ==, "AWS");
  g_assert_cmpstr (o->gpu_id, ==, "h100-80gb-sxm");
  g_assert_cmpint (o->count, ==, 8);
  g_assert_cmpfloat_with_epsilon (o->vram_gb, 640, 1e-9);
  g_assert_cmpfloat_with_epsilon (o->on_demand_usd_per_hour, 98.32, 1e-9);
  g_assert_cmpfloat_with_epsilon (o->spot_usd_per_hour, 20.9934, 1e-9);

  /* a zone without a spot price does not hide the other's */
  o = find (aws, "p3.16xlarge", "us-east-1");
  g_assert_nonnull (o);
  g_assert_cmpfloat_with_epsilon (o->spot_usd_per_hour, 4.8549, 1e-9);
  /* V100 16 GB is not the catalog's 32 GB card: kept, listed, memory from GpuInfo */
  g_assert_null (o->gpu_id);
  g_assert_cmpstr (o->gpu, ==, "V100");
  g_assert_cmpfloat_with_epsilon (o->vram_gb, 128, 1e-9);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (aws->unmapped, "V100")), ==, 3);

  /* spot only */
  o = find (aws, "p5e.48xlarge", "us-east-2");
  g_assert_nonnull (o);
  g_assert_cmpstr (o->gpu_id, ==, "h200-141gb");
  g_assert_cmpfloat (o->on_demand_usd_per_hour, ==, 0);
  g_assert_cmpfloat_with_epsilon (o->spot_usd_per_hour, 14.4663, 1e-9);
  g_assert_null (find (aws, "p5e.48xlarge", "eu-north-1"));
  g_assert_cmpuint (aws->offers->len, ==, 11);
}

static void
test_column_orders (void)
{
  g_autoptr(HrSkypilotCloud) lambda = parse_fixture ("lambda");
  g_autoptr(HrSkypilotCloud) runpod = parse_fixture ("runpod");
  g_autoptr(HrSkypilotCloud) nebius = parse_fixture ("nebius");
  g_autoptr(HrSkypilotCloud) hyperbolic = parse_fixture ("hyperbolic");
  const HrOffer *o;

  /* Lambda: Price before Region, GpuInfo quoted, no spot */
  o = find (lambda, "gpu_8x_a100", "us-east-1");
  g_assert_cmpstr (o->gpu_id, ==, "a100-40gb-sxm");   /* 40960 MiB decides 40 GB */
  g_assert_cmpfloat_with_epsilon (o->vram_gb, 320, 1e-9);
  g_assert_cmpfloat_with_epsilon (o->on_demand_usd_per_hour, 10.32, 1e-9);
  g_assert_cmpfloat (o->spot_usd_per_hour, ==, 0);
  g_assert_cmpstr (find (lambda, "gpu_1x_h100_pcie", "us-west-1")->gpu_id, ==, "h100-80gb-pcie");
  g_assert_cmpstr (find (lambda, "gpu_1x_h100_sxm5", "us-east-1")->gpu_id, ==, "h100-80gb-sxm");
  g_assert_cmpstr (find (lambda, "gpu_1x_a6000", "us-east-1")->gpu_id, ==, "rtx-a6000-48gb");
  g_assert_cmpuint (lambda->cpu_rows, ==, 2);

  /* RunPod: SpotPrice before Price, GpuInfo is a bare name (no memory) */
  o = find (runpod, "1x_A100-80GB_SECURE", "US");
  g_assert_cmpstr (o->gpu_id, ==, "a100-80gb-sxm");
  g_assert_cmpfloat_with_epsilon (o->on_demand_usd_per_hour, 1.64, 1e-9);
  g_assert_cmpfloat_with_epsilon (o->spot_usd_per_hour, 1.19, 1e-9);
  g_assert_cmpuint (runpod->offers->len, ==, 4);

  /* Nebius writes host memory into GpuInfo: the name still maps, memory from the catalog */
  o = find (nebius, "gpu-h100-sxm_8gpu-128vcpu-1600gb", "eu-north1");
  g_assert_cmpstr (o->gpu_id, ==, "h100-80gb-sxm");
  g_assert_cmpfloat_with_epsilon (o->vram_gb, 640, 1e-9);
  g_assert_cmpstr (find (nebius, "gpu-b200-sxm_8gpu-160vcpu-1792gb", "us-central1")->gpu_id, ==, "b200-180gb");
  g_assert_cmpstr (find (nebius, "gpu-l40s-a_1gpu-8vcpu-32gb", "eu-north1")->gpu_id, ==, "l40s-48gb");

  /* Hyperbolic: an extra StorageGiB column, region "default" */
  o = find (hyperbolic, "1x-RTX4090-64-271", "default");
  g_assert_cmpstr (o->gpu_id, ==, "rtx-4090-24gb");
  g_assert_cmpfloat_with_epsilon (o->on_demand_usd_per_hour, 0.23, 1e-9);
}

static void
test_select (void)
{
  g_autoptr(GPtrArray) clouds = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  HrSkypilotChoice anywhere = { FALSE, NULL };
  HrSkypilotChoice spot_us = { TRUE, "us-" };
  g_autoptr(HrPricing) on_demand = NULL;
  g_autoptr(HrPricing) spot = NULL;
  HrSkypilotCloud *aws = parse_fixture ("aws");
  const HrOffer *o = NULL;

  g_free (aws->date);
  aws->date = g_strdup ("2026-12-01T10:00:00Z");
  aws->url = g_strdup ("http://127.0.0.1/aws/vms.csv");
  g_ptr_array_add (clouds, aws);

  on_demand = hr_skypilot_select (clouds, &anywhere, "network");
  g_assert_cmpstr (on_demand->updated, ==, "2026-12-01");
  /* one row per instance type: p5 at its cheapest region; p5e has no on-demand price */
  for (guint i = 0; i < on_demand->offers->len; i++)
    {
      const HrOffer *x = g_ptr_array_index (on_demand->offers, i);

      g_assert_cmpstr (x->instance, !=, "p5e.48xlarge");
      if (g_str_equal (x->instance, "p5.48xlarge"))
        {
          g_assert_null (o);
          o = x;
        }
    }
  g_assert_nonnull (o);
  g_assert_cmpfloat_with_epsilon (o->usd_per_hour, 98.32, 1e-9);
  g_assert_cmpstr (o->billing, ==, "on-demand");
  g_assert_cmpstr (o->url, ==, "http://127.0.0.1/aws/vms.csv");
  g_assert_cmpuint (on_demand->offers->len, ==, 4);   /* p3.16xlarge, p3.2xlarge, p5, p5en */

  spot = hr_skypilot_select (clouds, &spot_us, "network");
  g_assert_cmpuint (spot->offers->len, ==, 5);
  o = hr_pricing_cheapest (spot, 100, "h200-141gb");
  g_assert_nonnull (o);
  /* ap-southeast-3's 11.70 is not in "us-": us-east-2's p5e spot 14.47 wins over p5en 15.49 */
  g_assert_cmpstr (o->instance, ==, "p5e.48xlarge");
  g_assert_cmpfloat_with_epsilon (o->usd_per_hour, 14.4663, 1e-9);
  g_assert_cmpstr (o->billing, ==, "spot");
}

static void
test_map (void)
{
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "A100", 81920, "a2-ultragpu-1g"), ==, "a100-80gb-sxm");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "A100", 0, "x"), ==, "a100-40gb-sxm");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "L4", 23034, "g6.xlarge"), ==, "l4-24gb");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "T4", 0, "g4dn.xlarge"), ==, "t4-16gb");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "MI300X", 0, "x"), ==, "mi300x-192gb");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "RTX6000-Ada", 0, "x"), ==, "rtx-6000-ada-48gb");
  g_assert_cmpstr (hr_skypilot_map_gpu (catalog, "V100-32GB", 0, "x"), ==, "v100-32gb-sxm");
  g_assert_null (hr_skypilot_map_gpu (catalog, "V100", 16384, "p3.2xlarge"));
  g_assert_null (hr_skypilot_map_gpu (catalog, "A10G", 24576, "g5.xlarge"));
  g_assert_null (hr_skypilot_map_gpu (catalog, "", 0, "x"));
  g_assert_cmpfloat (hr_skypilot_gpuinfo_mib ("A100-80GB"), ==, 0);
  g_assert_cmpfloat (hr_skypilot_gpuinfo_mib ("{'MemoryInfo': {'SizeInMiB': 1e999}}"), ==, 0);
}

static void
test_unmapped_summary (void)
{
  g_autoptr(HrSkypilotCloud) aws = parse_fixture ("aws");
  g_autoptr(HrSkypilotCloud) lambda = parse_fixture ("lambda");
  g_autofree char *summary = NULL;
  guint n = 0;

  summary = hr_skypilot_unmapped_summary (aws->unmapped, &n);
  g_assert_cmpstr (summary, ==, "V100 (3)");
  g_assert_cmpuint (n, ==, 3);
  g_clear_pointer (&summary, g_free);
  summary = hr_skypilot_unmapped_summary (lambda->unmapped, &n);
  g_assert_cmpstr (summary, ==, "V100 (1)");
}

static void
expect_error (const char *text,
              int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSkypilotCloud) parsed = hr_skypilot_parse ("test", catalog, text, strlen (text), &error);

  g_assert_null (parsed);
  g_assert_error (error, HR_SKYPILOT_ERROR, code);
}

static void
test_bad_input (void)
{
  g_autofree char *long_field = g_strnfill (HR_SKYPILOT_MAX_FIELD_BYTES + 1, 'x');
  g_autofree char *long_row = g_strconcat ("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n",
                                           long_field, ",H100,1,2,r\n", NULL);
  gsize length;
  g_autofree char *lambda = fixture ("lambda", &length);
  g_autofree char *cut = g_strndup (lambda, length - 40);
  g_autofree char *cut_quote = g_strndup (lambda, strstr (lambda, "'Gpus'") - lambda);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSkypilotCloud) last = NULL;
  const char *no_newline = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\r\n"
                           "\"a,b\",H100,1,2.5,\"r\"\"1\"";

  expect_error ("", HR_SKYPILOT_ERROR_HEADER);
  expect_error ("<html><body>Not found</body></html>\n", HR_SKYPILOT_ERROR_HEADER);
  expect_error ("InstanceType,AcceleratorName,AcceleratorCount,Price\n", HR_SKYPILOT_ERROR_HEADER);
  expect_error ("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n", HR_SKYPILOT_ERROR_EMPTY);
  expect_error ("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,H100,0.5,2,r\n",
                HR_SKYPILOT_ERROR_EMPTY);
  expect_error (long_row, HR_SKYPILOT_ERROR_MALFORMED);
  expect_error (cut, HR_SKYPILOT_ERROR_TRUNCATED);
  expect_error (cut_quote, HR_SKYPILOT_ERROR_TRUNCATED);

  /* a last row without its newline is whole when every field is there */
  last = hr_skypilot_parse ("t", catalog, no_newline, strlen (no_newline), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (last->offers->len, ==, 1);
  g_assert_cmpstr (((HrOffer *) g_ptr_array_index (last->offers, 0))->instance, ==, "a,b");
  g_assert_cmpstr (((HrOffer *) g_ptr_array_index (last->offers, 0))->region, ==, "r\"1");
}

/* Rows a strict reader refuses: a name with a right-to-left override (U+202E) or a zero-width
 * space, a price in hex ("0x10" read as $16/h) or with an exponent or "inf", a count "1e3"
 * (read as 1,000 GPUs).  Each is a bad row, not an offer; a plain "8.0" count still reads. */
static void
test_strict_fields (void)
{
  static const char *bad[] = {
    "i\xe2\x80\xae" "1,H100,1,2.5,r\n",        /* U+202E in the instance */
    "i2,H1\xe2\x80\x8b" "00,1,2.5,r\n",        /* U+200B in the accelerator */
    "i3,H100,1,2.5,r\xe2\x80\xae\n",           /* in the region */
    "i4,H100,1,0x10,r\n",
    "i5,H100,1,1e1,r\n",
    "i6,H100,1,inf,r\n",
    "i7,H100,1,-2,r\n",
    "i8,H100,1e3,2.5,r\n",
    "i9,H100,0x8,2.5,r\n",
    "i10,H100, 8,2.5,r\n",
  };
  g_autoptr(GString) csv = g_string_new ("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSkypilotCloud) cloud = NULL;
  const HrOffer *offer;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_string_append (csv, bad[i]);
  g_string_append (csv, "good,H100,8.0,24.5,r\n");
  cloud = hr_skypilot_parse ("t", catalog, csv->str, csv->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cloud->bad_rows, ==, G_N_ELEMENTS (bad));
  g_assert_cmpuint (cloud->offers->len, ==, 1);
  offer = g_ptr_array_index (cloud->offers, 0);
  g_assert_cmpstr (offer->instance, ==, "good");
  g_assert_cmpint (offer->count, ==, 8);
  g_assert_cmpfloat (offer->usd_per_hour, ==, 24.5);
}

/* Fed a byte at a time, the parser reads what it reads in one piece. */
static void
test_streamed (void)
{
  gsize length;
  g_autofree char *text = fixture ("nebius", &length);
  HrSkypilotParser *p = hr_skypilot_parser_new ("nebius", catalog);
  g_autoptr(HrSkypilotCloud) whole = parse_fixture ("nebius");
  g_autoptr(HrSkypilotCloud) pieces = NULL;
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < length; i++)
    g_assert_true (hr_skypilot_parser_feed (p, text + i, 1, &error));
  pieces = hr_skypilot_parser_finish (p, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->offers->len, ==, whole->offers->len);
  g_assert_cmpuint (pieces->rows, ==, whole->rows);
}

/* The bundled snapshot: every cloud's file parses, and has a date. */
static void
test_snapshot (void)
{
  g_autofree char *date = hr_skypilot_snapshot_date ();
  guint n_clouds = 0;

  g_assert_nonnull (date);
  g_assert_cmpuint (strlen (date), ==, 10);
  for (const char *const *c = hr_skypilot_clouds (); *c != NULL; c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrSkypilotCloud) cloud = hr_skypilot_snapshot_load (*c, catalog, &error);

      if (g_error_matches (error, G_RESOURCE_ERROR, G_RESOURCE_ERROR_NOT_FOUND))
        continue;
      g_assert_no_error (error);
      g_assert_cmpstr (cloud->source, ==, "snapshot");
      g_assert_cmpstr (cloud->date, ==, date);
      g_assert_cmpuint (cloud->offers->len, >, 0);
      n_clouds++;
    }
  g_assert_cmpuint (n_clouds, >=, 5);
}

/* 32 768 rows whose instance types share one g_str_hash value (2.2 MB, in one region, so each
 * is an offer): read, then the offers selected, each in linear time.  A cached file like it
 * made every `estimate` take 40 s and the app's first frame 33 s. */
static void
test_colliding_instances (void)
{
  g_autofree char *csv = hostile_skypilot_colliding (32768);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) clouds = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  g_autoptr(HrPricing) pricing = NULL;
  HrSkypilotCloud *cloud;
  HrSkypilotChoice choice = { FALSE, NULL };
  gint64 start = g_get_monotonic_time ();
  double parse_s, select_s;

  cloud = hr_skypilot_parse ("aws", catalog, csv, strlen (csv), &error);
  parse_s = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);
  g_assert_cmpuint (cloud->offers->len, ==, 32768);
  g_ptr_array_add (clouds, cloud);
  start = g_get_monotonic_time ();
  pricing = hr_skypilot_select (clouds, &choice, "test");
  select_s = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%zu bytes: read in %.3f s, selected in %.3f s", strlen (csv), parse_s, select_s);
  g_assert_cmpuint (pricing->offers->len, ==, 32768);
  g_assert_cmpfloat (parse_s, <, HOSTILE_SECONDS);
  g_assert_cmpfloat (select_s, <, HOSTILE_SECONDS);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/skypilot/aws", test_aws);
  g_test_add_func ("/skypilot/column-orders", test_column_orders);
  g_test_add_func ("/skypilot/select", test_select);
  g_test_add_func ("/skypilot/map", test_map);
  g_test_add_func ("/skypilot/unmapped-summary", test_unmapped_summary);
  g_test_add_func ("/skypilot/bad-input", test_bad_input);
  g_test_add_func ("/skypilot/strict-fields", test_strict_fields);
  g_test_add_func ("/skypilot/streamed", test_streamed);
  g_test_add_func ("/skypilot/snapshot", test_snapshot);
  g_test_add_func ("/skypilot/colliding-instances", test_colliding_instances);
  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
