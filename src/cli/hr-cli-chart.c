/* hr-cli-chart.c — `headroom-cli chart KIND (scenario options) --out FILE [--width W]
 * [--height H] [--scale S] [--theme light|dark]`
 *
 * The same drawing functions and the same export as the application's Export button, fed by
 * the same core calls, so a chart from a script matches the one on screen.
 */
#include "hr-cli-chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "hr-chart-data.h"
#include "hr-chart-export.h"
#include "hr-cli-common.h"
#include "hr-cli-fit.h"
#include "hr-units.h"

typedef struct
{
  char *out;
  int width;
  int height;
  double scale;
  char *theme;
  /* finetune */
  int seq;
  int micro_batch;
  int lora_rank;
  char *optimizer;
  char *sharding;
  gboolean no_checkpointing;
  /* tco */
  double hours_per_day;
  double usd_per_kwh;
  double usd_per_hour;
  double hardware_usd;
  double power_w;
  int months;
} ChartOptions;

/* %s: the kinds, from the chart registry */
#define HELP_FORMAT \
  "Usage: headroom-cli chart KIND (scenario options) --out FILE [options]\n" \
  "\n" \
  "KIND: %s\n" \
  "FILE: .png, .svg or .pdf (by its extension)\n" \
  "\n" \
  "  --width W            logical width (1200)\n" \
  "  --height H           logical height (700)\n" \
  "  --scale S            PNG pixels per logical unit (1; 2 for HiDPI)\n" \
  "  --theme T            light | dark (light)\n" \
  "  finetune: --seq N --micro-batch N --lora-rank R --optimizer adamw|adamw8bit|sgd\n" \
  "            --sharding none|zero2|zero3 --no-checkpointing (--gpu: capacity drawn against)\n" \
  "  tco:      --hours-per-day H (4) --usd-per-kwh P (0.175) --usd-per-hour P --hardware-usd P\n" \
  "            --power-w W --months N (defaults: the cheapest cloud offer that fits, the GPU's\n" \
  "            price and board power)\n" \
  "  load:     vLLM/SGLang, or llama.cpp with --batch above 1; --prompt N and --min-user-tps N\n" \
  "            (the target line) as for estimate\n" \
  "\n" \
  "Scenario options as for estimate (--model, --gpu, --gpus, --quant, --context, …);\n" \
  "compare takes --gpu several times or --all-gpus.\n"

static void
options_clear (ChartOptions *o)
{
  g_free (o->out);
  g_free (o->theme);
  g_free (o->optimizer);
  g_free (o->sharding);
}

static int
check_options (const ChartOptions *o,
               HrChartKind         kind)
{
  HrChartFormat format;

  if (o->out == NULL)
    return hr_cli_usage_error ("headroom-cli",
                               "chart: --out FILE is required (.png, .svg or .pdf)");
  if (!hr_chart_format_from_path (o->out, &format))
    return hr_cli_usage_error ("headroom-cli", "--out: “%s” does not end in .png, .svg or .pdf",
                               o->out);
  if (o->width < 1 || o->width > HR_CHART_EXPORT_MAX_SIDE)
    return hr_cli_usage_error ("headroom-cli", "--width: %d is out of range (1 to %d)", o->width,
                               HR_CHART_EXPORT_MAX_SIDE);
  if (o->height < 1 || o->height > HR_CHART_EXPORT_MAX_SIDE)
    return hr_cli_usage_error ("headroom-cli", "--height: %d is out of range (1 to %d)", o->height,
                               HR_CHART_EXPORT_MAX_SIDE);
  if (!isfinite (o->scale) || o->scale <= 0 || o->scale > HR_CHART_EXPORT_MAX_SCALE)
    return hr_cli_usage_error ("headroom-cli", "--scale: %g is out of range (above 0, at most %g)",
                               o->scale, HR_CHART_EXPORT_MAX_SCALE);
  if (format == HR_CHART_FORMAT_PNG)
    {
      double pw = round (o->width * o->scale), ph = round (o->height * o->scale);

      if (pw < 1 || ph < 1 || pw > HR_CHART_EXPORT_MAX_SIDE || ph > HR_CHART_EXPORT_MAX_SIDE
          || pw * ph > HR_CHART_EXPORT_MAX_PIXELS)
        return hr_cli_usage_error ("headroom-cli", "--scale: a %.0f×%.0f pixel image is too large",
                                   pw, ph);
    }
  if (g_strcmp0 (o->theme, "light") != 0 && g_strcmp0 (o->theme, "dark") != 0)
    return hr_cli_usage_error ("headroom-cli", "--theme: unknown theme “%s” (light, dark)",
                               o->theme);
  if (kind == HR_CHART_FINETUNE)
    {
      if (o->seq < 1 || o->seq > 1 << 24)
        return hr_cli_usage_error ("headroom-cli", "--seq: %d is out of range (1 to %d)", o->seq,
                                   1 << 24);
      if (o->micro_batch < 1 || o->micro_batch > 4096)
        return hr_cli_usage_error ("headroom-cli", "--micro-batch: %d is out of range (1 to 4096)",
                                   o->micro_batch);
      if (o->lora_rank < 1 || o->lora_rank > 65536)
        return hr_cli_usage_error ("headroom-cli", "--lora-rank: %d is out of range (1 to 65536)",
                                   o->lora_rank);
    }
  if (kind == HR_CHART_TCO)
    {
      if (!isfinite (o->hours_per_day) || o->hours_per_day <= 0 || o->hours_per_day > 24)
        return hr_cli_usage_error ("headroom-cli",
                                   "--hours-per-day: %g is out of range (above 0, at most 24)",
                                   o->hours_per_day);
      if (!isfinite (o->usd_per_kwh) || o->usd_per_kwh < 0 || o->usd_per_kwh > 100)
        return hr_cli_usage_error ("headroom-cli", "--usd-per-kwh: %g is out of range (0 to 100)",
                                   o->usd_per_kwh);
      if (!isnan (o->usd_per_hour) && !(o->usd_per_hour > 0 && o->usd_per_hour < 1e6))
        return hr_cli_usage_error ("headroom-cli", "--usd-per-hour: %g is out of range",
                                   o->usd_per_hour);
      if (!isnan (o->hardware_usd) && !(o->hardware_usd > 0 && o->hardware_usd < 1e12))
        return hr_cli_usage_error ("headroom-cli", "--hardware-usd: %g is out of range",
                                   o->hardware_usd);
      if (!isnan (o->power_w) && !(o->power_w >= 0 && o->power_w < 1e7))
        return hr_cli_usage_error ("headroom-cli", "--power-w: %g is out of range", o->power_w);
      if (o->months < 0 || o->months > HR_CHART_MAX_MONTHS - 1)
        return hr_cli_usage_error ("headroom-cli", "--months: %d is out of range (1 to %d)",
                                   o->months, HR_CHART_MAX_MONTHS - 1);
    }
  return 0;
}

static gboolean
build_finetune (const HrCliScenario *cs,
                const ChartOptions  *o,
                const HrCatalog     *catalog,
                void                *data,
                GError             **error)
{
  HrChartFinetune *out = data;
  HrFtEstimate estimates[3];
  HrFtScenario ft;
  HrOptimizer optimizer = HR_OPT_ADAMW;
  HrSharding sharding = HR_SHARD_NONE;
  const HrGpu *gpu = cs->gpus->len > 0 ? g_ptr_array_index (cs->gpus, 0) : NULL;

  if (o->optimizer != NULL && !hr_optimizer_from_string (o->optimizer, &optimizer))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE,
                   "--optimizer: unknown optimizer “%s” (adamw, adamw8bit, sgd)", o->optimizer);
      return FALSE;
    }
  if (o->sharding != NULL && !hr_sharding_from_string (o->sharding, &sharding))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE,
                   "--sharding: unknown sharding “%s” (none, zero2, zero3)", o->sharding);
      return FALSE;
    }
  for (int m = HR_FT_QLORA; m <= HR_FT_FULL; m++)
    {
      g_autoptr(GError) local = NULL;

      hr_ft_scenario_init (&ft, cs->scenario.model, (HrFtMethod) m);
      ft.seq_len = o->seq;
      ft.micro_batch = o->micro_batch;
      ft.lora_rank = o->lora_rank;
      ft.grad_checkpointing = !o->no_checkpointing;
      ft.optimizer = optimizer;
      ft.sharding = sharding;
      ft.n_gpus = MAX (cs->scenario.n_gpus, 1);
      if (!hr_finetune_compute (&ft, &estimates[m], &local))
        {
          g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "%s", local->message);
          return FALSE;
        }
    }
  hr_chart_finetune_from_estimates (&ft, estimates, gpu, catalog, out);
  return TRUE;
}

static gboolean
build_tco (const HrCliScenario *cs,
           const ChartOptions  *o,
           const HrCatalog     *catalog,
           void                *data,
           GError             **error)
{
  HrChartTco *out = data;
  const HrScenario *s = &cs->scenario;
  const HrGpu *gpu = s->gpu;
  int n = MAX (s->n_gpus, 1);
  HrTcoInput in = { 0 };
  const HrOffer *offer;
  HrEstimate e;
  g_autofree char *cloud_label = NULL, *buy_label = NULL, *group = NULL, *rented = NULL;
  char price[64];

  if (!hr_estimate_compute (s, hr_catalog_get_pricing (catalog), &e, error))
    return FALSE;
  in.hours_per_day = o->hours_per_day;
  in.usd_per_kwh = o->usd_per_kwh;
  if (!isnan (o->usd_per_hour))
    in.usd_per_hour = o->usd_per_hour;
  else if (e.offer_usd_per_hour > 0)
    {
      in.usd_per_hour = e.offer_usd_per_hour;
      rented = g_strdup (e.offer_label);
    }
  else if ((offer = hr_pricing_cheapest (hr_catalog_get_pricing (catalog),
                                         hr_to_gib (e.required_bytes), NULL)) != NULL)
    {
      /* No offer of this very GPU: rent whatever cheapest instance holds the model */
      in.usd_per_hour = offer->usd_per_hour;
      rented = g_strdup_printf ("%s · %dx %s", offer->provider, offer->count, offer->gpu);
    }
  else
    {
      in.usd_per_hour = NAN;
      /* TRANSLATORS: chart legend when no cloud instance holds the model */
      cloud_label = g_strdup (_("Cloud: no offer fits"));
    }
  if (rented != NULL)
    /* TRANSLATORS: chart legend, the offer rented and its price per hour,
     * e.g. "Cloud: RunPod · 1x A100 80GB SXM ($1.19/h)" */
    cloud_label = g_strdup_printf (_("Cloud: %s (%s/h)"), rented,
                                   hr_format_usd_locale_buf (price, sizeof price, in.usd_per_hour, 2));
  in.hardware_usd = !isnan (o->hardware_usd) ? o->hardware_usd
                    : isfinite (gpu->price_usd) ? gpu->price_usd * n : NAN;
  in.power_w = !isnan (o->power_w) ? o->power_w : gpu->tdp_w * n;

  group = n > 1 ? g_strdup_printf ("%d× %s", n, gpu->name) : g_strdup (gpu->name);
  /* The chart adds "(price unknown)" itself */
  if (isfinite (in.hardware_usd))
    {
      /* as the app's Cloud view writes it: "$8,500" in English, "$8.500" in German */
      buy_label = g_strdup_printf (_("Buy: %s (%s)"), group,
                                   hr_format_usd_locale_buf (price, sizeof price, in.hardware_usd, 0));
    }
  else
    buy_label = g_strdup_printf (_("Buy: %s"), group);
  hr_chart_tco_from_input (&in, cloud_label, buy_label, o->months, out);
  /* TRANSLATORS: chart title, e.g. "Rent versus buy: RTX 5090 32GB" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("Rent versus buy: %s"), group);
  return TRUE;
}

static gboolean
build_breakdown (const HrCliScenario *cs,
                 const ChartOptions  *o,
                 const HrCatalog     *catalog,
                 void                *out,
                 GError             **error)
{
  HrEstimate e;

  if (!hr_estimate_compute (&cs->scenario, hr_catalog_get_pricing (catalog), &e, error))
    return FALSE;
  hr_chart_breakdown_from_estimate (&cs->scenario, &e, out);
  return TRUE;
}

static gboolean
build_context (const HrCliScenario *cs,
               const ChartOptions  *o,
               const HrCatalog     *catalog,
               void                *out,
               GError             **error)
{
  return hr_chart_context_from_scenario (&cs->scenario, 0, out, error);
}

static gboolean
build_quant (const HrCliScenario *cs,
             const ChartOptions  *o,
             const HrCatalog     *catalog,
             void                *out,
             GError             **error)
{
  g_autoptr(GArray) rows = hr_advice_quant_matrix (&cs->scenario, catalog,
                                                   hr_catalog_get_pricing (catalog));

  hr_chart_quant_from_matrix (&cs->scenario, rows, out);
  return TRUE;
}

static gboolean
build_compare (const HrCliScenario *cs,
               const ChartOptions  *o,
               const HrCatalog     *catalog,
               void                *out,
               GError             **error)
{
  HrCliScenario each = *cs;

  if (cs->gpus->len > HR_CHART_MAX_GPUS)
    fprintf (stderr, "headroom-cli: only the first %d GPUs are drawn\n", HR_CHART_MAX_GPUS);
  hr_cli_scenario_for_compare (&each);
  hr_chart_compare_from_gpus (&each.scenario, cs->gpus, hr_catalog_get_pricing (catalog), out);
  return TRUE;
}

static gboolean
build_load (const HrCliScenario *cs,
            const ChartOptions  *o,
            const HrCatalog     *catalog,
            void                *out,
            GError             **error)
{
  HrEstimate e;
  HrLoadCurve curve;

  if (!hr_estimate_compute (&cs->scenario, hr_catalog_get_pricing (catalog), &e, error) ||
      !hr_load_curve_compute (&cs->scenario, &e, cs->min_user_tps > 0 ? cs->min_user_tps : NAN, &curve, error))
    return FALSE;
  hr_chart_load_from_curve (&cs->scenario, &curve, out);
  return TRUE;
}

typedef gboolean (*BuildFunc) (const HrCliScenario *cs,
                               const ChartOptions  *o,
                               const HrCatalog     *catalog,
                               void                *out,
                               GError             **error);

/* How the CLI fills each chart's struct; a kind missing here is not drawn from the CLI. */
static const BuildFunc builders[HR_CHART_N_KINDS] = {
  [HR_CHART_BREAKDOWN] = build_breakdown,
  [HR_CHART_CONTEXT] = build_context,
  [HR_CHART_QUANT] = build_quant,
  [HR_CHART_COMPARE] = build_compare,
  [HR_CHART_FINETUNE] = build_finetune,
  [HR_CHART_TCO] = build_tco,
  [HR_CHART_LOAD] = build_load,
};

/* Fills the chart's struct; returns it (g_free) or NULL with @error. */
static gpointer
build_data (HrChartKind          kind,
            const HrCliScenario *cs,
            const ChartOptions  *o,
            const HrCatalog     *catalog,
            GError             **error)
{
  g_autofree gpointer data = g_malloc0 (hr_chart_info (kind)->data_size);

  if (!builders[kind] (cs, o, catalog, data, error))
    return NULL;
  return g_steal_pointer (&data);
}

int
hr_cli_chart (int              argc,
              char           **argv,
              const HrCatalog *catalog)
{
  ChartOptions o = {
    .width = 1200, .height = 700, .scale = 1.0,
    .seq = 2048, .micro_batch = 1, .lora_rank = 16,
    .hours_per_day = 4, .usd_per_kwh = 0.175,
    .usd_per_hour = NAN, .hardware_usd = NAN, .power_w = NAN,
  };
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "Output file (.png, .svg, .pdf)", "FILE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o.width, "Logical width (1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &o.height, "Logical height (700)", "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &o.scale, "PNG pixels per logical unit (1)", "S" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &o.theme, "light|dark", "T" },
    { "seq", 0, 0, G_OPTION_ARG_INT, &o.seq, "finetune: sequence length (2048)", "N" },
    { "micro-batch", 0, 0, G_OPTION_ARG_INT, &o.micro_batch, "finetune: micro-batch (1)", "N" },
    { "lora-rank", 0, 0, G_OPTION_ARG_INT, &o.lora_rank, "finetune: LoRA rank (16)", "R" },
    { "optimizer", 0, 0, G_OPTION_ARG_STRING, &o.optimizer, "finetune: adamw|adamw8bit|sgd", "O" },
    { "sharding", 0, 0, G_OPTION_ARG_STRING, &o.sharding, "finetune: none|zero2|zero3", "S" },
    { "no-checkpointing", 0, 0, G_OPTION_ARG_NONE, &o.no_checkpointing,
      "finetune: without gradient checkpointing", NULL },
    { "hours-per-day", 0, 0, G_OPTION_ARG_DOUBLE, &o.hours_per_day, "tco: hours of use a day (4)",
      "H" },
    { "usd-per-kwh", 0, 0, G_OPTION_ARG_DOUBLE, &o.usd_per_kwh, "tco: electricity price (0.175)",
      "P" },
    { "usd-per-hour", 0, 0, G_OPTION_ARG_DOUBLE, &o.usd_per_hour, "tco: cloud price per hour",
      "P" },
    { "hardware-usd", 0, 0, G_OPTION_ARG_DOUBLE, &o.hardware_usd, "tco: hardware price", "P" },
    { "power-w", 0, 0, G_OPTION_ARG_DOUBLE, &o.power_w, "tco: board power in watts", "W" },
    { "months", 0, 0, G_OPTION_ARG_INT, &o.months, "tco: months to draw (auto)", "N" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autofree gpointer data = NULL;
  HrCliArgs args;
  HrCliScenario cs = { 0 };
  g_autofree char *kinds = hr_chart_kind_list (", "), *kinds_bar = hr_chart_kind_list (" | ");
  g_autofree char *help = NULL;
  HrChartKind kind;
  int status;

  if (argc < 2 || argv[1][0] == '-')
    {
      if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")
                        || g_str_equal (argv[1], "--help-all")))
        {
          printf (HELP_FORMAT, kinds_bar);
          return 0;
        }
      return hr_cli_usage_error ("headroom-cli", "chart: choose a chart: %s", kinds);
    }
  if (!hr_chart_kind_from_string (argv[1], &kind))
    return hr_cli_usage_error ("headroom-cli", "chart: unknown chart “%s” (%s)", argv[1], kinds);
  /* What Runs Here ranks every model for a hardware setup: fit's options, not a scenario's */
  if (kind == HR_CHART_FIT)
    return hr_cli_fit_chart (argc, argv, catalog);
  if (builders[kind] == NULL)
    return hr_cli_usage_error ("headroom-cli",
                               "chart: the %s chart cannot be drawn from the command line yet",
                               argv[1]);

  hr_cli_args_init (&args);
  help = g_strdup_printf (HELP_FORMAT, kinds_bar);
  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "KIND", .summary = help,
                                               .entries = entries,
                                               .group = hr_cli_scenario_options (&args),
                                               .positional = TRUE },
                             &error))
    {
      status = hr_cli_fail (error);
      goto out;
    }
  if (argc > 2)
    {
      status = hr_cli_usage_error ("headroom-cli", "chart: unexpected argument “%s”", argv[2]);
      goto out;
    }
  if (o.theme == NULL)
    o.theme = g_strdup ("light");
  if ((status = check_options (&o, kind)) != 0)
    goto out;

  if (!hr_cli_scenario_resolve (&args, catalog, kind != HR_CHART_FINETUNE, &cs, &error))
    {
      status = hr_cli_fail (error);
      goto out;
    }
  if ((data = build_data (kind, &cs, &o, catalog, &error)) == NULL)
    {
      /* hr_cli_fail: a scenario the core rejects is a bad argument (2), the rest a failure */
      status = hr_cli_fail (error);
      goto out;
    }
  if (!hr_chart_export (&(HrChartPage) { kind, data,
                                         g_str_equal (o.theme, "dark") ? hr_chart_theme_dark ()
                                                                       : hr_chart_theme_light (),
                                         o.width, o.height, o.scale },
                        o.out, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT)
          || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
        status = hr_cli_usage_error ("headroom-cli", "%s", error->message);
      else
        {
          hr_cli_print_error ("headroom-cli", error->message);
          status = 1;
        }
      goto out;
    }
  status = 0;

out:
  /* Release pango's font map, so memory checkers see what is ours.  cairo's static data is left
   * alone: cairo_debug_reset_static_data () asserts when a font cache entry is still alive (it
   * aborted ~1 % of chart runs on a loaded machine). */
  pango_cairo_font_map_set_default (NULL);
  if (cs.gpus != NULL)
    hr_cli_scenario_clear (&cs);
  hr_cli_args_clear (&args);
  options_clear (&o);
  return status;
}
