/* hr-cli-bench.c — `headroom-cli bench`: timings of the hot paths, as medians
 *
 * Speed targets live here, not in tests: the numbers are printed (or --json) and quoted in
 * the README's performance table.
 */
#include "hr-cli-bench.h"
#include "hr-advice.h"
#include "hr-gguf.h"
#include "hr-launch.h"
#include "hr-report.h"
#include "hr-units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

typedef struct
{
  const char *name;
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

typedef struct
{
  const HrCatalog *catalog;
  HrScenario scenario;
  const char *tmpdir;
  guint8 *gguf;
  gsize gguf_len;
} Ctx;

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

static void
bench_catalog_load (gpointer data)
{
  HrCatalog *cat = hr_catalog_new_default (NULL);
  hr_catalog_free (cat);
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
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "JSON output", NULL },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer repetitions (for CI smoke runs)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) octx = g_option_context_new ("");
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *tmpdir = g_dir_make_tmp ("headroom-bench-XXXXXX", NULL);
  Result results[16];
  int n = 0;
  int k = quick ? 1 : 5;
  long rss = 0;
  Ctx c = { 0 };
  const HrModel *model = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-pro-6000-blackwell-96gb");

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, "headroom-cli: %s\n", error->message);
      return 2;
    }
  if (model == NULL)
    model = hr_catalog_get_model (catalog, 0);
  if (gpu == NULL)
    gpu = hr_catalog_get_gpu (catalog, 0);

  c.catalog = catalog;
  c.tmpdir = tmpdir;
  hr_scenario_init (&c.scenario, model, gpu);
  c.scenario.context = 32768;

#define RUN(label, fn, inner, samples, target) \
  results[n++] = (Result) { label, measure (fn, &c, inner, (samples)), target, (inner) * (samples) }

  RUN ("estimate (one scenario)", bench_estimate, 2000, 5 * k, 2);
  RUN ("size view update (estimate, matrix, 64×3 curve, recommendations, commands)", bench_size_view, 5, 4 * k, 1000);
  RUN ("compare --all-gpus (estimate + max context + best quant per GPU)", bench_compare_all, 2, 3 * k, NAN);
  RUN ("whole catalog × every quant (models × GPUs × quants)", bench_whole_catalog, 1, k, NAN);
  RUN ("load the bundled catalog (all JSON files)", bench_catalog_load, 5, 4 * k, NAN);
  {
    const char *child[] = { self, "list", "engines", NULL };
    results[n++] = (Result) { "cold start of headroom-cli (list engines)", cold_start (child, 10 * k, &rss), 20000, 10 * k };
  }
#undef RUN

  if (json)
    {
      HrJsonWriter w;
      hr_json_init (&w, out, TRUE);
      hr_json_begin_object (&w);
      hr_json_key (&w, "scenario");
      hr_json_string (&w, "glm-4.5-air Q4_K_M 32K on rtx-pro-6000-blackwell-96gb");
      hr_json_key (&w, "results");
      hr_json_begin_array (&w);
      for (int i = 0; i < n; i++)
        {
          hr_json_begin_object (&w);
          hr_json_key (&w, "name"); hr_json_string (&w, results[i].name);
          hr_json_key (&w, "median_us"); hr_json_number (&w, results[i].median_us, 2);
          hr_json_key (&w, "target_us"); hr_json_number (&w, results[i].target_us, 0);
          hr_json_key (&w, "runs"); hr_json_int (&w, results[i].runs);
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      hr_json_key (&w, "cli_peak_rss_kib");
      hr_json_int (&w, rss);
      hr_json_end_object (&w);
      g_string_append_c (out, '\n');
    }
  else
    {
      g_string_append_printf (out, "%-78s %14s %12s\n", "benchmark (median)", "time", "target");
      for (int i = 0; i < n; i++)
        {
          char a[64], b[64];
          double v = results[i].median_us, t = results[i].target_us;
          const char *unit = v >= 1000 ? "ms" : "µs";
          g_string_append_printf (out, "%-78s %11s %s %12s%s\n", results[i].name,
                                  hr_format_number_c_buf (a, 64, v >= 1000 ? v / 1000 : v, v >= 1000 ? 2 : 2), unit,
                                  isfinite (t) ? hr_format_number_c_buf (b, 64, t >= 1000 ? t / 1000 : t, 0) : "—",
                                  isfinite (t) ? (t >= 1000 ? " ms" : " µs") : "");
        }
      g_string_append_printf (out, "headroom-cli peak RSS: %ld KiB\n", rss);
    }
  fputs (out->str, stdout);
  g_free (c.gguf);
  {
    g_autofree char *png = g_build_filename (tmpdir, "bench.png", NULL);
    g_unlink (png);
    g_rmdir (tmpdir);
  }
  return 0;
}
