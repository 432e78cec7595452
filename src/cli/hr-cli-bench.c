/* hr-cli-bench.c — `headroom-cli bench`: timings of the hot paths, as medians
 *
 * Speed targets live here, not in tests: the numbers are printed (or --json) and quoted in
 * the README's performance table.
 */
#include "hr-cli-bench.h"
#include "hr-cli-common.h"
#include "hr-advice.h"
#include "hr-chart-data.h"
#include "hr-chart-export.h"
#include "hr-fit.h"
#include "hr-gguf.h"
#include "hr-launch.h"
#include "hr-load-curve.h"
#include "hr-placement.h"
#include "hr-quant.h"
#include "hr-json-writer.h"
#include "hr-units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <unistd.h>

typedef struct
{
  char *name;
  double median_us;
  double target_us;   /* NAN: no target */
  int runs;
} Result;

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (GArray *samples)
{
  g_array_sort (samples, cmp_double);
  return g_array_index (samples, double, samples->len / 2);
}

/* " 972.80 µs" / "  1.25 ms" right-aligned in @width characters; "—" when there is none. */
static void
append_time (GString *out,
             double   us,
             int      decimals,
             int      width)
{
  char num[64];
  g_autofree char *cell = NULL;

  if (!isfinite (us))
    cell = g_strdup ("—");
  else
    cell = g_strdup_printf ("%s %s", hr_format_number_c_buf (num, sizeof num, us >= 1000 ? us / 1000 : us, decimals),
                            us >= 1000 ? "ms" : "µs");
  g_string_append_c (out, ' ');
  hr_cli_append_padded (out, cell, width);
}

typedef void (*BenchFunc) (gpointer data);

/* Runs @func @inner times per sample, @samples samples; returns the median per call in µs. */
static double
measure (BenchFunc func,
         gpointer  data,
         int       inner,
         int       samples)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  func (data); /* warm-up */
  for (int s = 0; s < samples; s++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double us;
      for (int i = 0; i < inner; i++)
        func (data);
      us = (double) (g_get_monotonic_time () - t0) / inner;
      g_array_append_val (times, us);
    }
  return median (times);
}

typedef gboolean (*LoadFunc) (HrCatalog *catalog, const char *json, gssize length, GError **error);

typedef struct
{
  const HrCatalog *catalog;
  HrScenario scenario;
  const char *tmpdir;
  guint8 *gguf;
  gsize gguf_len;
  guint8 *gguf_vocab;
  gsize gguf_vocab_len;
  HrChartContext *context_chart;
  char *png;
  GBytes *largest;
  LoadFunc load_largest;
  /* vLLM serving, for the throughput-under-load curve */
  HrScenario served;
  HrEstimate served_estimate;
  gboolean have_served;
  /* a mixed setup that does not hold its model, for the placement search */
  HrScenario mixed;
  gboolean have_mixed;
} Ctx;

/* ---- a synthetic GGUF header ---------------------------------------------------------------
 *
 * A llama-like v3 header written in memory: 133 blocks of 9 tensors plus the embeddings,
 * output norm and output = 1,200 tensors (a Llama-70B file has 723, large MoE files 1,000+),
 * optionally with a 128K-token tokenizer as real files carry. */

#define GGML_F32  0
#define GGML_Q4_K 12
#define GGML_Q6_K 14
#define BENCH_GGUF_BLOCKS 133

static void
put_u32 (GByteArray *b,
         guint32     v)
{
  guint8 bytes[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };

  g_byte_array_append (b, bytes, 4);
}

static void
put_u64 (GByteArray *b,
         guint64     v)
{
  guint8 bytes[8];

  for (int i = 0; i < 8; i++)
    bytes[i] = (v >> (8 * i)) & 0xff;
  g_byte_array_append (b, bytes, 8);
}

static void
put_str (GByteArray *b,
         const char *str)
{
  put_u64 (b, strlen (str));
  g_byte_array_append (b, (const guint8 *) str, strlen (str));
}

static void
put_kv_u32 (GByteArray *b,
            const char *key,
            guint32     v)
{
  put_str (b, key);
  put_u32 (b, HR_GGUF_TYPE_UINT32);
  put_u32 (b, v);
}

static void
put_tensor (GByteArray *b,
            guint64    *offset,
            const char *name,
            int         type,
            guint64     d0,
            guint64     d1)
{
  const HrGgmlType *t = hr_ggml_type_lookup_id (type);
  guint64 bytes = d0 * d1 / t->block_size * t->bytes_per_block;

  put_str (b, name);
  put_u32 (b, d1 > 1 ? 2 : 1);
  put_u64 (b, d0);
  if (d1 > 1)
    put_u64 (b, d1);
  put_u32 (b, type);
  put_u64 (b, *offset);
  *offset += (bytes + 31) / 32 * 32;
}

static guint8 *
synthetic_gguf (gboolean  vocab,
                gsize    *len)
{
  g_autoptr(GByteArray) kv = g_byte_array_new ();
  g_autoptr(GByteArray) ti = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();
  guint64 n_kv = 0, n_tensors = 0, offset = 0;
  const guint n_vocab = 128256;

  put_str (kv, "general.architecture");
  put_u32 (kv, HR_GGUF_TYPE_STRING);
  put_str (kv, "llama");
  n_kv++;
  put_str (kv, "general.name");
  put_u32 (kv, HR_GGUF_TYPE_STRING);
  put_str (kv, "Bench Llama 1200-tensor");
  n_kv++;
#define KV(key, v) (put_kv_u32 (kv, key, v), n_kv++)
  KV ("general.file_type", 15);
  KV ("llama.block_count", BENCH_GGUF_BLOCKS);
  KV ("llama.context_length", 131072);
  KV ("llama.embedding_length", 4096);
  KV ("llama.feed_forward_length", 14336);
  KV ("llama.attention.head_count", 32);
  KV ("llama.attention.head_count_kv", 8);
#undef KV
  if (vocab)
    {
      put_str (kv, "tokenizer.ggml.tokens");
      put_u32 (kv, HR_GGUF_TYPE_ARRAY);
      put_u32 (kv, HR_GGUF_TYPE_STRING);
      put_u64 (kv, n_vocab);
      for (guint i = 0; i < n_vocab; i++)
        {
          char tok[24];
          g_snprintf (tok, sizeof tok, "tok%u", i);
          put_str (kv, tok);
        }
      n_kv++;
      put_str (kv, "tokenizer.ggml.scores");
      put_u32 (kv, HR_GGUF_TYPE_ARRAY);
      put_u32 (kv, HR_GGUF_TYPE_FLOAT32);
      put_u64 (kv, n_vocab);
      for (guint i = 0; i < n_vocab; i++)
        put_u32 (kv, 0);
      n_kv++;
    }

  put_tensor (ti, &offset, "token_embd.weight", GGML_Q4_K, 4096, n_vocab);
  n_tensors++;
  for (int i = 0; i < BENCH_GGUF_BLOCKS; i++)
    {
      static const struct { const char *name; int type; guint64 d0, d1; } blk[] = {
        { "attn_norm.weight", GGML_F32, 4096, 1 },
        { "attn_q.weight", GGML_Q4_K, 4096, 4096 },
        { "attn_k.weight", GGML_Q4_K, 4096, 1024 },
        { "attn_v.weight", GGML_Q6_K, 4096, 1024 },
        { "attn_output.weight", GGML_Q4_K, 4096, 4096 },
        { "ffn_norm.weight", GGML_F32, 4096, 1 },
        { "ffn_gate.weight", GGML_Q4_K, 4096, 14336 },
        { "ffn_up.weight", GGML_Q4_K, 4096, 14336 },
        { "ffn_down.weight", GGML_Q6_K, 14336, 4096 },
      };
      for (guint k = 0; k < G_N_ELEMENTS (blk); k++)
        {
          char name[64];
          g_snprintf (name, sizeof name, "blk.%d.%s", i, blk[k].name);
          put_tensor (ti, &offset, name, blk[k].type, blk[k].d0, blk[k].d1);
          n_tensors++;
        }
    }
  put_tensor (ti, &offset, "output_norm.weight", GGML_F32, 4096, 1);
  put_tensor (ti, &offset, "output.weight", GGML_Q6_K, 4096, n_vocab);
  n_tensors += 2;

  g_byte_array_append (out, (const guint8 *) "GGUF", 4);
  put_u32 (out, 3);
  put_u64 (out, n_tensors);
  put_u64 (out, n_kv);
  g_byte_array_append (out, kv->data, kv->len);
  g_byte_array_append (out, ti->data, ti->len);
  while (out->len % 32 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  *len = out->len;
  return g_byte_array_free (out, FALSE);
}

static void
bench_estimate (gpointer data)
{
  Ctx *c = data;
  HrEstimate e;
  hr_estimate_compute (&c->scenario, hr_catalog_get_pricing (c->catalog), &e, NULL);
}

static void
bench_size_view (gpointer data)
{
  Ctx *c = data;
  HrEstimate e;
  HrRecommendations rec;
  static const HrKvType kvs[] = { HR_KV_F16, HR_KV_Q8_0, HR_KV_Q4_0 };
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GPtrArray) cmds = NULL;
  g_autoptr(GPtrArray) diag = NULL;
  volatile double sink = 0;

  hr_estimate_compute (&c->scenario, hr_catalog_get_pricing (c->catalog), &e, NULL);
  rows = hr_advice_quant_matrix (&c->scenario, c->catalog, hr_catalog_get_pricing (c->catalog));
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 64; i++)
      sink += hr_estimate_kv_at (&c->scenario, (gint64) (4096 * pow (32.0, i / 63.0)), kvs[k]);
  sink += (double) hr_advice_max_context (&c->scenario);
  hr_advice_recommend (&c->scenario, c->catalog, hr_catalog_get_pricing (c->catalog), &rec);
  cmds = hr_launch_commands (&c->scenario, &e);
  diag = hr_advice_diagnosis (&c->scenario, &e, c->catalog);
  (void) sink;
}

static void
bench_compare_all (gpointer data)
{
  Ctx *c = data;

  for (guint i = 0; i < hr_catalog_n_gpus (c->catalog); i++)
    {
      HrScenario s = c->scenario;
      HrEstimate e;
      s.gpu = hr_catalog_get_gpu (c->catalog, i);
      s.backend_set = FALSE;
      hr_estimate_compute (&s, hr_catalog_get_pricing (c->catalog), &e, NULL);
      hr_advice_max_context (&s);
      hr_advice_best_quant (&s, c->catalog);
    }
}

static void
bench_whole_catalog (gpointer data)
{
  Ctx *c = data;

  for (guint m = 0; m < hr_catalog_n_models (c->catalog); m++)
    for (guint g = 0; g < hr_catalog_n_gpus (c->catalog); g++)
      for (guint q = 0; q < hr_catalog_n_quants (c->catalog); q++)
        {
          HrScenario s;
          HrEstimate e;
          hr_scenario_init (&s, hr_catalog_get_model (c->catalog, m), hr_catalog_get_gpu (c->catalog, g));
          g_strlcpy (s.quant, hr_catalog_get_quant (c->catalog, q)->id, sizeof s.quant);
          hr_estimate_compute (&s, NULL, &e, NULL);
        }
}

/* What Runs Here: every catalog model ranked on the bench GPU (best quant, longest context,
 * expert offload with 128 GiB of RAM), as the view does on every change of the hardware. */
/* Throughput under load for one vLLM scenario (every point an estimate at that batch), as the
 * Size view's section does on every change of a serving scenario. */
static void
bench_load_curve (gpointer data)
{
  Ctx *c = data;
  HrLoadCurve curve;

  hr_load_curve_compute (&c->served, &c->served_estimate, 30, &curve, NULL);
}

/* The placement search for a mixed setup that does not hold its model, as the Size view's
 * Placement card does on every change of such a setup. */
static void
bench_placement_search (gpointer data)
{
  Ctx *c = data;
  HrScenario best;
  HrEstimate found;

  hr_placement_search (&c->mixed, &best, &found);
}

static void
bench_fit (gpointer data)
{
  Ctx *c = data;
  g_autoptr(GPtrArray) models = g_ptr_array_new ();
  g_autoptr(GArray) rows = NULL;
  HrFitNeeds needs;

  hr_fit_needs_init (&needs);
  needs.host_ram_gib = 128;
  for (guint m = 0; m < hr_catalog_n_models (c->catalog); m++)
    g_ptr_array_add (models, (gpointer) hr_catalog_get_model (c->catalog, m));
  rows = hr_fit_rank (&c->scenario, models, c->catalog, hr_quality_get_default (NULL), &needs);
}

static void
bench_catalog_load (gpointer data)
{
  HrCatalog *cat = hr_catalog_new_default (NULL);
  hr_catalog_free (cat);
}

static void
bench_largest_catalog_file (gpointer data)
{
  Ctx *c = data;
  HrCatalog *cat = hr_catalog_new_empty ();
  gsize len;
  const char *json = g_bytes_get_data (c->largest, &len);

  if (!c->load_largest (cat, json, (gssize) len, NULL))
    g_error ("bench: the bundled catalog file does not parse");
  hr_catalog_free (cat);
}

static void
export_context_chart (Ctx   *c,
                      double scale)
{
  g_autoptr(GError) error = NULL;

  if (!hr_chart_export (&(HrChartPage) { HR_CHART_CONTEXT, c->context_chart,
                                         hr_chart_theme_light (), 1200, 700, scale },
                        c->png, &error))
    g_error ("bench: chart export: %s", error->message);
}

static void
bench_chart_scale1 (gpointer data)
{
  export_context_chart (data, 1.0);
}

static void
bench_chart_scale2 (gpointer data)
{
  export_context_chart (data, 2.0);
}

/* The drawing alone, to tell it from the PNG encoding and the file write. */
static void
bench_chart_draw_scale2 (gpointer data)
{
  Ctx *c = data;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2400, 1400);
  cairo_t *cr = cairo_create (surface);

  cairo_scale (cr, 2, 2);
  hr_chart_draw (HR_CHART_CONTEXT, cr, 1200, 700, c->context_chart, hr_chart_theme_light ());
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
parse_gguf (const guint8 *bytes,
            gsize         len)
{
  g_autoptr(GError) error = NULL;
  HrGguf *gguf = hr_gguf_parse (bytes, len, NULL, NULL, &error);

  if (gguf == NULL)
    g_error ("bench: synthetic GGUF: %s", error->message);
  hr_gguf_free (gguf);
}

static void
bench_gguf (gpointer data)
{
  Ctx *c = data;
  parse_gguf (c->gguf, c->gguf_len);
}

static void
bench_gguf_vocab (gpointer data)
{
  Ctx *c = data;
  parse_gguf (c->gguf_vocab, c->gguf_vocab_len);
}

/* The biggest of the bundled catalog files, and the parser that reads it. */
static GBytes *
largest_catalog_file (LoadFunc    *load,
                      const char **name)
{
  static const struct { const char *file; LoadFunc load; } files[] = {
    { "models.json", hr_catalog_load_models },
    { "gpus.json", hr_catalog_load_gpus },
    { "quants.json", hr_catalog_load_quants },
  };
  GBytes *best = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_strconcat ("/io/github/headroomapp/Headroom/data/", files[i].file, NULL);
      GBytes *bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

      if (bytes == NULL)
        continue;
      if (best == NULL || g_bytes_get_size (bytes) > g_bytes_get_size (best))
        {
          g_clear_pointer (&best, g_bytes_unref);
          best = bytes;
          *load = files[i].load;
          *name = files[i].file;
        }
      else
        g_bytes_unref (bytes);
    }
  return best;
}

/* Cold start of a fresh process: median wall time and the largest peak RSS. */
static double
cold_start (const char *const *argv_child,
            int                 runs,
            long               *max_rss_kib)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      int status = 0;
      pid_t pid = fork ();
      double us;

      if (pid == 0)
        {
          int fd = open ("/dev/null", O_WRONLY);
          if (fd >= 0)
            dup2 (fd, 1);
          execv (argv_child[0], (char **) argv_child);
          _exit (127);
        }
      if (pid < 0)
        return NAN;
      waitpid (pid, &status, 0);
      us = (double) (g_get_monotonic_time () - t0);
      g_array_append_val (times, us);
    }
  {
    struct rusage ru;
    getrusage (RUSAGE_CHILDREN, &ru);
    *max_rss_kib = ru.ru_maxrss;
  }
  return median (times);
}

int
hr_cli_bench (int              argc,
              char           **argv,
              const HrCatalog *catalog)
{
  gboolean json = FALSE;
  int quick = 0;
  const GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer repetitions (for CI smoke runs)", NULL },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *tmpdir = g_dir_make_tmp ("headroom-bench-XXXXXX", NULL);
  Result results[24];
  const char *largest_name = NULL;
  g_autoptr(GError) chart_error = NULL;
  int n = 0;
  int k = quick ? 1 : 5;
  long rss = 0;
  Ctx c = { 0 };
  const HrModel *model = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb");

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "", .json = &json, .entries = entries,
                                               .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (model == NULL)
    model = hr_catalog_get_model (catalog, 0);
  if (gpu == NULL)
    gpu = hr_catalog_get_gpu (catalog, 0);

  c.catalog = catalog;
  c.tmpdir = tmpdir;
  hr_scenario_init (&c.scenario, model, gpu);
  c.scenario.context = 32768;
  c.png = g_build_filename (tmpdir, "bench.png", NULL);
  c.context_chart = g_new0 (HrChartContext, 1);
  if (!hr_chart_context_from_scenario (&c.scenario, 0, c.context_chart, &chart_error))
    {
      fprintf (stderr, "headroom-cli: bench: %s\n", chart_error->message);
      return 1;
    }
  c.gguf = synthetic_gguf (FALSE, &c.gguf_len);
  c.gguf_vocab = synthetic_gguf (TRUE, &c.gguf_vocab_len);
  c.largest = largest_catalog_file (&c.load_largest, &largest_name);
  {
    const HrModel *qwen = hr_catalog_find_model (catalog, "qwen3-8b");
    const HrGpu *h100 = hr_catalog_find_gpu (catalog, "h100-80gb-sxm");
    const HrModel *llama = hr_catalog_find_model (catalog, "llama-3.3-70b");
    const HrGpu *g4090 = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
    const HrGpu *g3060 = hr_catalog_find_gpu (catalog, "rtx-3060-12gb");

    if (qwen != NULL && h100 != NULL)
      {
        hr_scenario_init (&c.served, qwen, h100);
        g_strlcpy (c.served.quant, "BF16", sizeof c.served.quant);
        c.served.engine = HR_ENGINE_VLLM;
        c.served.context = 16384;
        c.have_served = hr_estimate_compute (&c.served, NULL, &c.served_estimate, NULL);
      }
    if (llama != NULL && g4090 != NULL && g3060 != NULL)
      {
        HrDeviceKind kinds[] = { { g4090, 1 }, { g3060, 1 } };

        hr_scenario_init (&c.mixed, llama, g4090);
        c.have_mixed = hr_scenario_set_devices (&c.mixed, kinds, G_N_ELEMENTS (kinds), NULL);
      }
  }

/* @label is taken. */
#define RUN(label, fn, inner, samples, target) \
  results[n++] = (Result) { label, measure (fn, &c, inner, (samples)), target, (inner) * (samples) }

  RUN (g_strdup ("estimate (one scenario)"), bench_estimate, 2000, 5 * k, 2);
  RUN (g_strdup ("size view update (estimate, matrix, 64×3 curve, recommendations, commands)"),
       bench_size_view, 5, 4 * k, 1000);
  RUN (g_strdup_printf ("compare --all-gpus (%u GPUs: estimate + max context + best quant each)",
                        hr_catalog_n_gpus (catalog)),
       bench_compare_all, 2, 3 * k, NAN);
  RUN (g_strdup_printf ("whole catalog × every quant (%u models × %u GPUs × %u quants)",
                        hr_catalog_n_models (catalog), hr_catalog_n_gpus (catalog),
                        hr_catalog_n_quants (catalog)),
       bench_whole_catalog, 1, k, NAN);
  RUN (g_strdup_printf ("what runs here: rank the whole catalog (%u models) on one GPU",
                        hr_catalog_n_models (catalog)),
       bench_fit, 1, 3 * k, 16000);
  if (c.have_served)
    RUN (g_strdup ("throughput under load: the curve for Qwen3 8B BF16 on H100, vLLM"), bench_load_curve, 20,
         4 * k, NAN);
  if (c.have_mixed)
    RUN (g_strdup ("placement search: Llama 3.3 70B Q4_K_M on RTX 4090 + RTX 3060"), bench_placement_search, 5,
         4 * k, NAN);
  RUN (g_strdup ("load the bundled catalog (all JSON files)"), bench_catalog_load, 5, 4 * k, NAN);
  if (c.largest != NULL)
    RUN (g_strdup_printf ("parse the largest catalog file (%s, %" G_GSIZE_FORMAT " KiB)", largest_name,
                          g_bytes_get_size (c.largest) / 1024),
         bench_largest_catalog_file, 5, 4 * k, NAN);
  RUN (g_strdup ("chart export: context chart 1200×700 PNG, scale 1"), bench_chart_scale1, 2, 3 * k, 50000);
  RUN (g_strdup ("chart export: context chart 1200×700 PNG, scale 2"), bench_chart_scale2, 1, 3 * k, 50000);
  RUN (g_strdup ("  of which drawing only (scale 2, no PNG encoding or file)"), bench_chart_draw_scale2, 2,
       3 * k, NAN);
  RUN (g_strdup_printf ("GGUF header parse: 1,200 tensors, no vocab (%" G_GSIZE_FORMAT " KiB)",
                        c.gguf_len / 1024),
       bench_gguf, 20, 5 * k, 2000);
  RUN (g_strdup_printf ("GGUF header parse: 1,200 tensors + 128K-token vocab (%" G_GSIZE_FORMAT " KiB)",
                        c.gguf_vocab_len / 1024),
       bench_gguf_vocab, 5, 5 * k, 2000);
  {
    const char *child[] = { self, "list", "engines", NULL };
    results[n++] = (Result) { g_strdup ("cold start of headroom-cli (list engines)"),
                              cold_start (child, 10 * k, &rss), 20000, 10 * k };
  }
  {
    /* a command that shows a cost also reads the cloud prices (cache or bundled snapshot) */
    const char *child[] = { self, "estimate", "--model", model->id, "--gpu", gpu->id, NULL };
    results[n++] = (Result) { g_strdup ("cold start of headroom-cli (estimate, with cloud prices)"),
                              cold_start (child, 10 * k, &rss), 20000, 10 * k };
  }
#undef RUN

  if (json)
    {
      HrJsonWriter w;
      hr_json_init (&w, out, TRUE);
      hr_json_begin_object (&w);
      hr_json_member_string (&w, "scenario", "glm-4.5-air Q4_K_M 32K on rtx-pro-6000-blackwell-96gb");
      hr_json_key (&w, "results");
      hr_json_begin_array (&w);
      for (int i = 0; i < n; i++)
        {
          hr_json_begin_object (&w);
          hr_json_member_string (&w, "name", results[i].name);
          hr_json_member_number (&w, "median_us", results[i].median_us, 2);
          hr_json_member_number (&w, "target_us", results[i].target_us, 0);
          hr_json_member_int (&w, "runs", results[i].runs);
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      hr_json_member_int (&w, "cli_peak_rss_kib", rss);
      hr_json_end_object (&w);
      g_string_append_c (out, '\n');
    }
  else
    {
      /* the names hold "×" and "µ": padded in characters, not bytes */
      hr_cli_append_padded (out, "benchmark (median)", -80);
      g_string_append_printf (out, " %12s %10s\n", "time", "target");
      for (int i = 0; i < n; i++)
        {
          hr_cli_append_padded (out, results[i].name, -80);
          append_time (out, results[i].median_us, 2, 12);
          append_time (out, results[i].target_us, 0, 10);
          g_string_append_c (out, '\n');
        }
      g_string_append_printf (out, "headroom-cli peak RSS: %ld KiB\n", rss);
    }
  fputs (out->str, stdout);
  for (int i = 0; i < n; i++)
    g_free (results[i].name);
  g_free (c.gguf);
  g_free (c.gguf_vocab);
  g_free (c.context_chart);
  g_clear_pointer (&c.largest, g_bytes_unref);
  g_unlink (c.png);
  g_free (c.png);
  g_rmdir (tmpdir);
  return 0;
}
