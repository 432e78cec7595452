/* test-charts.c — every chart drawn into image surfaces (no display), export, the bridge
 *
 * Each chart is drawn for several scenarios at 1200×700, scale 1 and 2, in both themes:
 * no cairo error, the expected pixel size, not blank, and the verdict's colour where the
 * verdict is shown.  Set HR_CHART_TEST_OUTPUT=DIR to keep the PNGs for looking at.
 */
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "hr-chart.h"
#include "hr-chart-data.h"
#include "hr-chart-export.h"
#include "hr-chart-private.h"
#include "hr-units.h"

static HrCatalog *catalog;

/* Pixels ------------------------------------------------------------------------------------ */

static guint32
rgba_pixel (const HrChartRgba *c)
{
  guint r = (guint) (c->red * 65535 + 0.5) >> 8;
  guint g = (guint) (c->green * 65535 + 0.5) >> 8;
  guint b = (guint) (c->blue * 65535 + 0.5) >> 8;

  return 0xff000000u | (r << 16) | (g << 8) | b;
}

static gboolean
near_pixel (guint32 a,
            guint32 b)
{
  for (int shift = 0; shift < 32; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 1)
      return FALSE;
  return TRUE;
}

/* Pixels exactly (±1) of @color, and pixels differing from the background. */
static void
count_pixels (cairo_surface_t   *surface,
              const HrChartRgba *color,
              const HrChartRgba *background,
              guint             *n_color,
              guint             *n_ink)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guchar *data;
  guint32 want = color != NULL ? rgba_pixel (color) : 0, bg = rgba_pixel (background);

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  *n_color = *n_ink = 0;
  for (int y = 0; y < h; y++)
    {
      const guint32 *row = (const guint32 *) (data + y * stride);

      for (int x = 0; x < w; x++)
        {
          if (color != NULL && near_pixel (row[x], want))
            (*n_color)++;
          if (!near_pixel (row[x], bg))
            (*n_ink)++;
        }
    }
}

static char *
output_dir (void)
{
  const char *dir = g_getenv ("HR_CHART_TEST_OUTPUT");

  if (dir == NULL || *dir == '\0')
    return NULL;
  g_mkdir_with_parents (dir, 0755);
  return g_strdup (dir);
}

/* Draws @data at @width × @height, scale 1 and 2, light and dark; checks each surface and
 * returns the time of the slowest light drawing at scale 1 and 2 in @ms (may be NULL). */
static void
check_render (const char        *name,
              HrChartKind        kind,
              const void        *data,
              int                width,
              int                height,
              int                verdict,  /* HrChartVerdict expected on the chart, -1: none */
              double            *ms)
{
  g_autofree char *dir = output_dir ();

  for (int dark = 0; dark < 2; dark++)
    for (int scale = 1; scale <= 2; scale++)
      {
        const HrChartTheme *theme = dark ? hr_chart_theme_dark () : hr_chart_theme_light ();
        cairo_surface_t *surface;
        cairo_t *cr;
        guint n_color, n_ink;
        gint64 t0;
        double elapsed;

        surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale,
                                              height * scale);
        cr = cairo_create (surface);
        cairo_scale (cr, scale, scale);
        t0 = g_get_monotonic_time ();
        hr_chart_draw (kind, cr, width, height, data, theme);
        elapsed = (g_get_monotonic_time () - t0) / 1000.0;
        if (ms != NULL && !dark)
          ms[scale - 1] = MAX (ms[scale - 1], elapsed);
        g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
        g_assert_cmpint (cairo_image_surface_get_width (surface), ==, width * scale);
        g_assert_cmpint (cairo_image_surface_get_height (surface), ==, height * scale);

        count_pixels (surface,
                      verdict >= 0 ? hr_chart_theme_verdict_color (theme, verdict) : NULL,
                      &theme->background, &n_color, &n_ink);
        /* Not blank: titles, axes and bars cover well over 2 % of any of our charts; a chart
         * of unknown figures is a title and a sentence */
        g_assert_cmpuint (n_ink, >, (guint) (width * height * scale * scale
                                             / (strstr (name, "unknown") ? 400 : 50)));
        if (verdict >= 0)
          {
            if (n_color < (guint) (40 * scale * scale))
              g_error ("%s: only %u pixels of the verdict colour", name, n_color);
          }
        if (dir != NULL)
          {
            g_autofree char *file = g_strdup_printf ("%s-%s@%d.png", name,
                                                     dark ? "dark" : "light", scale);
            g_autofree char *path = g_build_filename (dir, file, NULL);

            g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==,
                             CAIRO_STATUS_SUCCESS);
          }
        cairo_destroy (cr);
        cairo_surface_destroy (surface);
      }
}

/* Hand-built data --------------------------------------------------------------------------- */

static void
breakdown_one (HrChartBreakdown *b,
               double            weights,
               double            kv,
               double            buffers,
               double            physical,
               HrChartVerdict    verdict)
{
  memset (b, 0, sizeof *b);
  g_strlcpy (b->heading.title, "GLM-4.5 Air (110B-A12B) on DCU K100-AI 64GB (海光深算)",
             sizeof b->heading.title);
  g_strlcpy (b->heading.subtitle,
             "Q4_K_M · 8K context · 1 sequence · F16 KV cache · llama.cpp (ROCm)",
             sizeof b->heading.subtitle);
  b->n_devices = 1;
  g_strlcpy (b->devices[0].label, "DCU K100-AI 64GB (海光深算)", sizeof b->devices[0].label);
  b->devices[0].weights_gib = weights;
  b->devices[0].kv_gib = kv;
  b->devices[0].buffers_gib = buffers;
  b->devices[0].physical_gib = physical;
  b->devices[0].usable_gib = physical * 0.95;
  b->required_gib = weights + kv + buffers;
  b->physical_gib = physical;
  b->usable_gib = physical * 0.95;
  b->verdict = verdict;
}

static void
test_breakdown (void)
{
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  double ms[2] = { 0 };

  breakdown_one (b, 40.5, 1.44, 0.56, 64, HR_CHART_VERDICT_FITS);
  check_render ("breakdown-fits", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  breakdown_one (b, 58.0, 1.44, 0.56, 64, HR_CHART_VERDICT_TIGHT);
  check_render ("breakdown-tight", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_TIGHT, ms);
  breakdown_one (b, 67.96, 1.44, 0.56, 64, HR_CHART_VERDICT_EXCEEDS);
  check_render ("breakdown-exceeds", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_EXCEEDS,
                ms);

  /* Four devices, MoE experts in system RAM */
  b->n_devices = 4;
  for (int i = 0; i < 4; i++)
    {
      g_snprintf (b->devices[i].label, sizeof b->devices[i].label, "GPU %d", i + 1);
      b->devices[i] = (HrChartDevice) { .weights_gib = 16.99, .kv_gib = 1.44,
                                        .buffers_gib = 1.2, .physical_gib = 24,
                                        .usable_gib = 22.8 };
      g_snprintf (b->devices[i].label, sizeof b->devices[i].label, "GPU %d · RTX 4090", i + 1);
    }
  b->system_ram_gib = 31.5;
  b->required_gib = 4 * 19.63;
  b->physical_gib = 96;
  b->usable_gib = 91.2;
  b->verdict = HR_CHART_VERDICT_FITS;
  check_render ("breakdown-multi-offload", HR_CHART_BREAKDOWN, b, 1200, 700,
                HR_CHART_VERDICT_FITS, ms);

  /* Unknown figures draw a message, not garbage */
  breakdown_one (b, NAN, NAN, 0.56, 64, HR_CHART_VERDICT_UNKNOWN);
  b->required_gib = NAN;
  check_render ("breakdown-unknown", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_UNKNOWN,
                NULL);
  g_test_message ("breakdown 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

/* Pixels of @color in @kind drawn at @width × @height, light theme, scale 1. */
static guint
color_pixels (HrChartKind        kind,
              const void        *data,
              int                width,
              int                height,
              const HrChartRgba *color)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  guint n_color, n_ink;

  hr_chart_draw (kind, cr, width, height, data, hr_chart_theme_light ());
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  count_pixels (surface, color, &hr_chart_theme_light ()->background, &n_color, &n_ink);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return n_color;
}

/* #31: a mixed setup, RTX 4090 + RTX 3060: one bar per device against its own capacity, the vision
 * projector a part of its own (its colour, its legend entry, its sentence) on the first; none
 * drawn without one. */
static void
test_breakdown_projector (void)
{
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  const HrChartRgba *orange = &hr_chart_theme_light ()->series[4];
  g_autofree char *text = NULL;
  guint with, without;

  breakdown_one (b, 12.0, 1.0, 0.8, 24, HR_CHART_VERDICT_FITS);
  g_strlcpy (b->heading.title, "Gemma 3 27B IT on RTX 4090 24GB + RTX 3060 12GB", sizeof b->heading.title);
  b->n_devices = 2;
  g_strlcpy (b->devices[0].label, "RTX 4090 24GB", sizeof b->devices[0].label);
  b->devices[0].projector_gib = 0.91;
  b->devices[1] = (HrChartDevice) { .weights_gib = 4.5, .kv_gib = 0.5, .buffers_gib = 0.4,
                                    .physical_gib = 12, .usable_gib = 11.4 };
  g_strlcpy (b->devices[1].label, "RTX 3060 12GB", sizeof b->devices[1].label);
  b->required_gib = 12 + 1 + 0.8 + 0.91 + 5.4;
  b->physical_gib = 36;
  b->usable_gib = 34.2;
  check_render ("breakdown-mixed-projector", HR_CHART_BREAKDOWN, b, 1200, 520, HR_CHART_VERDICT_FITS, NULL);
  check_render ("breakdown-mixed-projector-narrow", HR_CHART_BREAKDOWN, b, 360, 420, HR_CHART_VERDICT_FITS, NULL);
  with = color_pixels (HR_CHART_BREAKDOWN, b, 1200, 520, orange);
  text = hr_chart_info (HR_CHART_BREAKDOWN)->describe (b);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "RTX 4090 24GB: vision projector 0.91 GiB."));
  g_assert_nonnull (strstr (text, "RTX 3060 12GB: weights 4.50 GiB"));

  b->devices[0].projector_gib = 0;
  without = color_pixels (HR_CHART_BREAKDOWN, b, 1200, 520, orange);
  g_test_message ("projector colour: %u pixels with it, %u without", with, without);
  /* the segment and the legend's swatch */
  g_assert_cmpuint (with, >, 200);
  g_assert_cmpuint (without, ==, 0);
}

static void
context_fill (HrChartContext *c,
              double          weights,
              double          kv_per_k,
              double          physical,
              double          current,
              double          max_context)
{
  static const char *labels[3] = { "F16", "Q8_0", "Q4_0" };
  static const double factor[3] = { 1, 34.0 / 64, 18.0 / 64 };
  double usable = physical * 0.95, m;

  memset (c, 0, sizeof *c);
  g_strlcpy (c->heading.title, "GLM-4.5 Air on MLU590 80GB: memory by context",
             sizeof c->heading.title);
  g_strlcpy (c->heading.subtitle, "Q4_K_M · 1 sequence · llama.cpp", sizeof c->heading.subtitle);
  c->n_lines = 3;
  for (int l = 0; l < 3; l++)
    {
      HrChartLine *line = &c->lines[l];

      g_strlcpy (line->label, labels[l], sizeof line->label);
      for (double ctx = 4096; ctx <= max_context * 1.001 && line->n_points < HR_CHART_MAX_POINTS;
           ctx *= M_SQRT2)
        {
          line->context[line->n_points] = round (ctx / 256) * 256;
          line->required_gib[line->n_points] = weights + 0.56 + kv_per_k * factor[l] * ctx / 1024;
          line->n_points++;
        }
    }
  c->usable_gib = usable;
  c->physical_gib = physical;
  c->current_context = current;
  c->min_context = 4096;
  c->max_context = max_context;
  m = (usable - weights - 0.56) / kv_per_k * 1024;
  c->max_fit_context = m < 256 ? 0 : floor (m / 256) * 256;
  c->verdict = weights + 0.56 + kv_per_k * current / 1024 > usable ? HR_CHART_VERDICT_EXCEEDS
                                                                    : HR_CHART_VERDICT_FITS;
}

static void
test_context (void)
{
  g_autofree HrChartContext *c = g_new0 (HrChartContext, 1);
  double ms[2] = { 0 };

  context_fill (c, 67.96, 0.18, 80, 8192, 131072);
  check_render ("context-fits", HR_CHART_CONTEXT, c, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  context_fill (c, 67.96, 0.18, 64, 32768, 131072);
  check_render ("context-exceeds", HR_CHART_CONTEXT, c, 1200, 700, HR_CHART_VERDICT_EXCEEDS, ms);
  context_fill (c, 16, 0.125, 24, 65536, 1048576);
  c->current_line = 2;
  check_render ("context-1m", HR_CHART_CONTEXT, c, 1200, 700, -1, ms);
  /* Fits across the whole range */
  context_fill (c, 4, 0.01, 24, 8192, 131072);
  check_render ("context-all", HR_CHART_CONTEXT, c, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  /* Unknown: no usable point at all */
  for (int l = 0; l < c->n_lines; l++)
    for (int i = 0; i < c->lines[l].n_points; i++)
      c->lines[l].required_gib[i] = NAN;
  check_render ("context-unknown", HR_CHART_CONTEXT, c, 1200, 700, HR_CHART_VERDICT_UNKNOWN,
                NULL);
  g_test_message ("context 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

static void
quant_fill (HrChartQuant *q)
{
  static const char *labels[] = {
    "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS", "Q3_K_M", "UD-Q2_K_XL",
  };
  static const double weights[] = { 205.77, 109.39, 92.21, 77.78, 67.96, 56.33, 53.28, 44.19 };
  static const double tps[] = { 3.5, 12.4, 23.3, 90.1, 99.8, 114.4, 118.9, NAN };

  memset (q, 0, sizeof *q);
  g_strlcpy (q->heading.title, "GLM-4.5 Air: quantizations on MLU590 80GB (寒武纪思元)",
             sizeof q->heading.title);
  g_strlcpy (q->heading.subtitle, "8K context · F16 KV cache · llama.cpp",
             sizeof q->heading.subtitle);
  q->n_rows = G_N_ELEMENTS (labels);
  for (int i = 0; i < q->n_rows; i++)
    {
      double total = weights[i] + 2;

      g_strlcpy (q->rows[i].label, labels[i], sizeof q->rows[i].label);
      q->rows[i].weights_gib = weights[i];
      q->rows[i].kv_gib = 1.44;
      q->rows[i].buffers_gib = 0.56;
      q->rows[i].decode_tps = tps[i];
      q->rows[i].verdict = total > 76 ? HR_CHART_VERDICT_EXCEEDS
                           : total > 73.6 ? HR_CHART_VERDICT_TIGHT : HR_CHART_VERDICT_FITS;
    }
  q->current_row = 4;
  q->usable_gib = 76;
  q->physical_gib = 80;
}

static void
test_quant (void)
{
  g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
  double ms[2] = { 0 };

  quant_fill (q);
  /* the hatch over the part that does not fit is in the exceeds colour */
  check_render ("quant", HR_CHART_QUANT, q, 1200, 700, HR_CHART_VERDICT_EXCEEDS, ms);
  /* Many quants with long names: rotated labels */
  q->n_rows = HR_CHART_MAX_QUANTS;
  for (int i = 8; i < q->n_rows; i++)
    {
      q->rows[i] = q->rows[i % 8];
      g_snprintf (q->rows[i].label, sizeof q->rows[i].label, "UD-IQ%d_XXS_VERY_LONG", i);
    }
  q->rows[3].weights_gib = NAN;   /* an unknown size among them */
  check_render ("quant-many", HR_CHART_QUANT, q, 1200, 700, HR_CHART_VERDICT_EXCEEDS, ms);
  g_test_message ("quant 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

static void finetune_fill (HrChartFinetune *f);

/* Paints the fine-tuning chart at @width × @height and fails when a capacity line runs through
 * a value (a total, or a part's value inside its bar). */
static void
check_finetune_values_clear (const HrChartFinetune *data,
                             double                 width,
                             double                 height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (HrTextBox));
  g_autoptr (GArray) rules = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_values = 0;
  HrCanvas c;

  g_assert_true (hr_canvas_begin (&c, cr, width, height, NULL));
  c.text_boxes = boxes;
  c.rule_xs = rules;
  hr_chart_finetune_paint (&c, data);
  hr_canvas_end (&c);
  g_assert_cmpuint (rules->len, >=, 2);
  for (guint i = 0; i < boxes->len; i++)
    {
      const HrTextBox *t = &g_array_index (boxes, HrTextBox, i);

      if (t->style != HR_TEXT_VALUE)
        continue;
      n_values++;
      for (guint r = 0; r < rules->len; r++)
        {
          double x = g_array_index (rules, double, r);

          if (x > t->box.x - 1 && x < t->box.x + t->box.w + 1)
            g_error ("fine-tune chart at %g×%g px: the capacity line at x %.1f runs through value %u "
                     "(%.1f–%.1f)", width, height, x, i, t->box.x, t->box.x + t->box.w);
        }
    }
  g_assert_cmpuint (n_values, >=, 3);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* #26 item 7: the capacity lines never cross a value: a total just short of them (GLM-4.5-Air's
 * QLoRA, 58.62 GiB against 91.2 usable, as on screen) goes right of them, a part's value inside
 * its bar ("44.96 GiB" of weights across an RTX 4090's 22.8 GiB line) to the side of the line
 * with room, or out of the bar. */
static void
test_finetune_values_clear (void)
{
  static const double sizes[][2] = { { 1200, 700 }, { 900, 520 }, { 600, 420 }, { 360, 420 } };
  g_autofree HrChartFinetune *f = g_new0 (HrChartFinetune, 1);

  finetune_fill (f);
  f->methods[0] = (HrChartFtMethod) { "QLoRA (4-bit)", 54.96, 0.49, 2.17, 1,
                                      HR_CHART_VERDICT_FITS, "Fits on: Ascend 910B 64GB (昇腾)" };
  f->methods[1] = (HrChartFtMethod) { "LoRA (16-bit)", 205.93, 0.49, 2.17, 1,
                                      HR_CHART_VERDICT_EXCEEDS, "Fits on: Instinct MI325X 256GB" };
  f->methods[2] = (HrChartFtMethod) { "Full fine-tuning", 205.77, 1440.4, 2.17, 1,
                                      HR_CHART_VERDICT_EXCEEDS, "No single GPU holds it" };
  g_strlcpy (f->gpu_label, "RTX PRO 6000 Blackwell 96GB", sizeof f->gpu_label);
  f->physical_gib = 96;
  f->usable_gib = 91.2;
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    check_finetune_values_clear (f, sizes[k][0], sizes[k][1]);

  f->methods[0] = (HrChartFtMethod) { "QLoRA (4-bit)", 13.2, 0.3, 1.9, 1,
                                      HR_CHART_VERDICT_FITS, "Fits on: RTX 4090 24GB" };
  f->methods[1] = (HrChartFtMethod) { "LoRA (16-bit)", 44.96, 0.3, 1.9, 1,
                                      HR_CHART_VERDICT_EXCEEDS, "Fits on: RTX PRO 6000 Blackwell 96GB" };
  f->methods[2] = (HrChartFtMethod) { "Full fine-tuning", 44.96, 44.96 * 3, 1.9, 1,
                                      HR_CHART_VERDICT_EXCEEDS, "Fits on: H200 141GB SXM" };
  g_strlcpy (f->gpu_label, "RTX 4090 24GB", sizeof f->gpu_label);
  f->physical_gib = 24;
  f->usable_gib = 22.8;
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    check_finetune_values_clear (f, sizes[k][0], sizes[k][1]);
  check_render ("finetune-4090", HR_CHART_FINETUNE, f, 1200, 700, HR_CHART_VERDICT_EXCEEDS, NULL);
}

/* WCAG contrast of two colours. */
static double
contrast (const HrChartRgba *a,
          const HrChartRgba *b)
{
  double l[2];
  const HrChartRgba *c[2] = { a, b };

  for (int i = 0; i < 2; i++)
    {
      double ch[3] = { c[i]->red, c[i]->green, c[i]->blue };

      for (int k = 0; k < 3; k++)
        ch[k] = ch[k] <= 0.04045 ? ch[k] / 12.92 : pow ((ch[k] + 0.055) / 1.055, 2.4);
      l[i] = 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
    }
  return (MAX (l[0], l[1]) + 0.05) / (MIN (l[0], l[1]) + 0.05);
}

/* #26 item 7: one verdict colour everywhere. An exported chart (and the CLI's) said "does not
 * fit" in orange where the screen, which reads libadwaita's named colours, showed red: the
 * export themes' verdicts are libadwaita's @success_color, @warning_color and @error_color
 * (light: 1.2's values; dark: its dark ones), and a verdict pill's words stay readable on them. */
static void
test_verdict_colours (void)
{
  static const guint32 light[] = { 0xff1b8553, 0xff9c6e03, 0xffc01c28 };
  static const guint32 dark[] = { 0xff8ff0a4, 0xfff8e45c, 0xffff7b63 };
  const HrChartVerdict verdicts[] = { HR_CHART_VERDICT_FITS, HR_CHART_VERDICT_TIGHT, HR_CHART_VERDICT_EXCEEDS };

  for (guint i = 0; i < G_N_ELEMENTS (verdicts); i++)
    {
      const HrChartRgba *l = hr_chart_theme_verdict_color (hr_chart_theme_light (), verdicts[i]);
      const HrChartRgba *d = hr_chart_theme_verdict_color (hr_chart_theme_dark (), verdicts[i]);

      g_assert_cmphex (rgba_pixel (l), ==, light[i]);
      g_assert_cmphex (rgba_pixel (d), ==, dark[i]);
      g_assert_cmpfloat (contrast (hr_text_on (l), l), >=, 4.5);
      g_assert_cmpfloat (contrast (hr_text_on (d), d), >=, 4.5);
    }
}

static void
compare_fill (HrChartCompare *c,
              int             n)
{
  static const char *names[] = {
    "RTX 3090", "RTX 4090", "RTX 5090", "RTX PRO 6000 Blackwell", "H100 80GB SXM",
    "H200 141GB SXM", "A100 80GB SXM", "Instinct MI300X 192GB", "Mac Studio M3 Ultra 512GB",
    "DCU K100-AI 64GB (海光深算)", "L40S 48GB", "B200 180GB",
  };
  static const double mem[] = { 24, 24, 32, 96, 80, 141, 80, 192, 384, 64, 48, 180 };
  static const double bw[] = { 936, 1008, 1792, 1792, 3350, 4800, 2039, 5300, 819, 896, 864,
                               8000 };
  static const double price[] = { 0.22, 0.34, 0.69, 1.79, 1.99, 3.19, 0.44, 2.59, NAN, NAN, 0.86,
                                  5.99 };

  memset (c, 0, sizeof *c);
  g_strlcpy (c->heading.title, "GLM-4.5 Air (110B-A12B) · Q4_K_M · 8K context",
             sizeof c->heading.title);
  g_strlcpy (c->heading.subtitle, "llama.cpp · 1 sequence · F16 KV cache",
             sizeof c->heading.subtitle);
  c->n_items = n;
  for (int i = 0; i < n; i++)
    {
      HrChartCompareItem *it = &c->items[i];
      int k = i % G_N_ELEMENTS (names);
      double u;

      if (i < (int) G_N_ELEMENTS (names))
        g_strlcpy (it->name, names[k], sizeof it->name);
      else
        g_snprintf (it->name, sizeof it->name, "%s (variant %d)", names[k], i);
      it->count = k == 1 ? 4 : 1;
      it->required_gib = 69.96;
      it->usable_gib = (k == 8 ? 384 * 0.75 : mem[k] * it->count * 0.95);
      it->decode_tps = k == 9 ? NAN : bw[k] / 25;
      it->cost_per_mtok_usd = price[k] / (it->decode_tps * 3600) * 1e6;
      u = it->required_gib / (mem[k] * it->count);
      it->verdict = it->required_gib > it->usable_gib ? HR_CHART_VERDICT_EXCEEDS
                    : u > 0.92 ? HR_CHART_VERDICT_TIGHT : HR_CHART_VERDICT_FITS;
    }
}

static void
test_compare (void)
{
  g_autofree HrChartCompare *c = g_new0 (HrChartCompare, 1);
  double ms[2] = { 0 };

  compare_fill (c, 2);
  check_render ("compare-2", HR_CHART_COMPARE, c, 1200, 700, HR_CHART_VERDICT_EXCEEDS, ms);
  compare_fill (c, 12);
  check_render ("compare-12", HR_CHART_COMPARE, c, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  compare_fill (c, 40);
  g_strlcpy (c->items[5].name, "An extremely long accelerator name that goes on and on 141GB SXM",
             sizeof c->items[5].name);
  check_render ("compare-40", HR_CHART_COMPARE, c, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  /* More than fit: the rest are counted in a note */
  compare_fill (c, HR_CHART_MAX_GPUS);
  c->sort = HR_CHART_SORT_COST;
  check_render ("compare-max", HR_CHART_COMPARE, c, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  /* Every figure unknown */
  compare_fill (c, 3);
  for (int i = 0; i < 3; i++)
    {
      c->items[i].decode_tps = c->items[i].cost_per_mtok_usd = NAN;
      c->items[i].required_gib = NAN;
      c->items[i].verdict = HR_CHART_VERDICT_UNKNOWN;
    }
  check_render ("compare-unknown", HR_CHART_COMPARE, c, 1200, 700, -1, NULL);
  g_test_message ("compare 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

static void
finetune_fill (HrChartFinetune *f)
{
  memset (f, 0, sizeof *f);
  g_strlcpy (f->heading.title, "GLM-4.5 Air (110B-A12B): fine-tuning memory",
             sizeof f->heading.title);
  g_strlcpy (f->heading.subtitle,
             "sequence 2048 · micro-batch 1 · adamw · gradient checkpointing",
             sizeof f->heading.subtitle);
  f->n_methods = 3;
  f->methods[0] = (HrChartFtMethod) { "QLoRA (4-bit)", 67.96, 1.68, 1.08, 0.5,
                                      HR_CHART_VERDICT_TIGHT, "Fits on: RTX PRO 6000 Blackwell" };
  f->methods[1] = (HrChartFtMethod) { "LoRA (16-bit)", 205.77, 2.64, 1.43, 0.5,
                                      HR_CHART_VERDICT_EXCEEDS, "Fits on: Instinct MI325X 256GB" };
  f->methods[2] = (HrChartFtMethod) { "Full fine-tuning", 205.77, 637.89, 2.52, 0.5,
                                      HR_CHART_VERDICT_EXCEEDS, "No single GPU holds it" };
  g_strlcpy (f->gpu_label, "MLU590 80GB (寒武纪思元)", sizeof f->gpu_label);
  f->physical_gib = 80;
  f->usable_gib = 76;
}

static void
test_finetune (void)
{
  g_autofree HrChartFinetune *f = g_new0 (HrChartFinetune, 1);
  double ms[2] = { 0 };

  finetune_fill (f);
  check_render ("finetune", HR_CHART_FINETUNE, f, 1200, 700, HR_CHART_VERDICT_EXCEEDS, ms);
  f->methods[0].verdict = HR_CHART_VERDICT_FITS;
  check_render ("finetune-fits", HR_CHART_FINETUNE, f, 1200, 700, HR_CHART_VERDICT_FITS, ms);
  /* No GPU to compare against, one method unknown */
  f->physical_gib = f->usable_gib = NAN;
  f->methods[1].weights_gib = NAN;
  check_render ("finetune-nogpu", HR_CHART_FINETUNE, f, 1200, 700, -1, ms);
  g_test_message ("finetune 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

static void
tco_fill (HrChartTco *t,
          double      cloud_per_hour,
          double      hardware)
{
  HrTcoInput in = { cloud_per_hour, 4, hardware, 600, 0.175 };

  hr_chart_tco_from_input (&in, "Cloud: Vultr · 1x A100 80GB SXM ($2.40/h)",
                           "Buy: RTX PRO 6000 Blackwell ($8,500)", 0, t);
}

static void
load_fill (HrChartLoad *d)
{
  memset (d, 0, sizeof *d);
  g_strlcpy (d->heading.title, "Throughput under load: Qwen3 8B on H100 80GB SXM", sizeof d->heading.title);
  g_strlcpy (d->heading.subtitle, "vLLM · 1024-token prompts, 128-token answers", sizeof d->heading.subtitle);
  d->n_points = 10;
  for (int i = 0; i < d->n_points; i++)
    {
      d->concurrency[i] = i == 9 ? 319 : 1 << i;
      d->per_user_tps[i] = 140 / (1 + d->concurrency[i] / 30.0);
      d->total_tps[i] = d->per_user_tps[i] * d->concurrency[i];
    }
  d->first_compute = 7;
  d->kv_bound = TRUE;
  d->target_tps = 30;
  d->target_users = 96;
}

/* Throughput under load (#28): drawn wide and at 360 px, with and without a target, and
 * with unknown speeds; described for screen readers */
static void
test_load (void)
{
  g_autofree HrChartLoad *d = g_new0 (HrChartLoad, 1);
  g_autofree char *text = NULL;
  double ms[2] = { 0 };

  load_fill (d);
  check_render ("load", HR_CHART_LOAD, d, 1200, 700, -1, ms);
  check_render ("load-narrow", HR_CHART_LOAD, d, 360, 300, -1, NULL);
  text = hr_chart_info (HR_CHART_LOAD)->describe (d);
  g_assert_nonnull (strstr (text, "319"));
  g_assert_nonnull (strstr (text, "96 users"));
  d->target_tps = NAN;
  d->target_users = 0;
  check_render ("load-no-target", HR_CHART_LOAD, d, 1200, 700, -1, NULL);
  for (int i = 0; i < d->n_points; i++)
    d->per_user_tps[i] = d->total_tps[i] = NAN;
  check_render ("load-unknown", HR_CHART_LOAD, d, 1200, 700, -1, NULL);
  g_assert_cmpstr (hr_chart_kind_to_string (HR_CHART_LOAD), ==, "load");
  g_test_message ("load 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

static void
test_tco (void)
{
  g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
  double ms[2] = { 0 };

  tco_fill (t, 2.40, 8500);
  g_assert_cmpfloat_with_epsilon (t->break_even_month,
                                  8500 / (2.40 * 4 * 30.4 - 0.6 * 4 * 30.4 * 0.175), 1e-9);
  g_assert_cmpint (t->n_points, >, (int) t->break_even_month);
  check_render ("tco", HR_CHART_TCO, t, 1200, 700, -1, ms);
  /* Never pays off */
  tco_fill (t, 0.05, 8500);
  g_assert_true (isinf (t->break_even_month));
  check_render ("tco-never", HR_CHART_TCO, t, 1200, 700, -1, ms);
  /* Unknown prices */
  tco_fill (t, NAN, 8500);
  g_assert_true (isnan (t->break_even_month));
  g_assert_true (isnan (t->cloud_usd[1]));
  check_render ("tco-unknown-cloud", HR_CHART_TCO, t, 1200, 700, -1, ms);
  tco_fill (t, NAN, NAN);
  check_render ("tco-unknown", HR_CHART_TCO, t, 1200, 700, -1, NULL);
  g_test_message ("tco 1200×700: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

/* #26 item 7: the rent-versus-buy summary at the widths the Cloud view gives its chart (its
 * card beside the inputs at 1280 px, the whole width at 360 px) reads whole: no text of it cut
 * with "…" ("buying pays off after 78.7 m…"), its parts on more lines instead. */
static void
test_tco_summary_whole (void)
{
  static const double widths[] = { 1200, 500, 320 };
  g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
  HrTcoInput in = { 1.00 * 4, 4, 8565, 600, 0.175 };

  hr_chart_tco_from_input (&in, "Rent: Hyperbolic 4× RTX 4090 24GB",
                           "Buy: RTX PRO 6000 Blackwell 96GB ($8565)", 0, t);
  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) widths[k], 290);
      cairo_t *cr = cairo_create (surface);
      g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (HrTextBox));
      guint n_summary = 0;
      HrCanvas c;

      g_assert_true (hr_canvas_begin (&c, cr, widths[k], 290, NULL));
      c.text_boxes = boxes;
      hr_chart_tco_paint (&c, t);
      hr_canvas_end (&c);
      for (guint i = 0; i < boxes->len; i++)
        {
          const HrTextBox *b = &g_array_index (boxes, HrTextBox, i);

          if (b->style != HR_TEXT_SUBTITLE)
            continue;
          n_summary++;
          if (b->ellipsized)
            g_error ("rent versus buy at %g px: text %u is cut", widths[k], i);
        }
      g_test_message ("rent versus buy at %g px: %u lines of header and summary", widths[k], n_summary);
      g_assert_cmpuint (n_summary, >=, 2);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

/* What Runs Here: a hand-made set, the frontier marked by hr_fit_frontier (core) */
static void
fit_fill (HrChartFit *d)
{
  static const struct { const char *label; double q, v; HrChartVerdict verdict; } pts[] = {
    { "Qwen3.5 27B · Q6_K", 42, 39.2, HR_CHART_VERDICT_FITS },
    { "Gemma 4 31B IT · Q4_K_M", 38.8, 43.7, HR_CHART_VERDICT_FITS },
    { "Gemma 3 27B IT · Q5_K_M", 10, 42.5, HR_CHART_VERDICT_FITS },
    { "Mixtral 8x7B · Q3_K_M", 12, 113.3, HR_CHART_VERDICT_TIGHT },
    { "Qwen3 32B · Q4_K_M", NAN, 40.4, HR_CHART_VERDICT_FITS },
  };
  double q[G_N_ELEMENTS (pts)], v[G_N_ELEMENTS (pts)];
  gboolean on[G_N_ELEMENTS (pts)];

  memset (d, 0, sizeof *d);
  g_strlcpy (d->heading.title, "What runs on 1× RTX 4090 24GB", sizeof d->heading.title);
  g_strlcpy (d->quality_name, "Artificial Analysis Intelligence Index v4", sizeof d->quality_name);
  d->usable_gib = 22.8;
  d->n_fitting = G_N_ELEMENTS (pts);
  d->n_unknown = 1;
  d->n_left_out = 33;
  for (guint i = 0; i < G_N_ELEMENTS (pts); i++)
    {
      g_strlcpy (d->points[i].label, pts[i].label, sizeof d->points[i].label);
      d->points[i].quality = q[i] = pts[i].q;
      d->points[i].decode_tps = v[i] = pts[i].v;
      d->points[i].verdict = pts[i].verdict;
    }
  d->n_points = G_N_ELEMENTS (pts);
  hr_fit_frontier (q, v, d->n_points, on);
  for (int i = 0; i < d->n_points; i++)
    d->points[i].frontier = on[i];
}

static void
test_fit (void)
{
  g_autofree HrChartFit *d = g_new0 (HrChartFit, 1);
  g_autofree char *text = NULL;
  double ms[2] = { 0 };

  fit_fill (d);
  /* 42 @ 39, 38.8 @ 43.7 and 12 @ 113 are on it; 10 @ 42.5 is beaten by 38.8 @ 43.7 */
  g_assert_true (d->points[0].frontier);
  g_assert_true (d->points[1].frontier);
  g_assert_false (d->points[2].frontier);
  g_assert_true (d->points[3].frontier);
  g_assert_false (d->points[4].frontier);
  check_render ("fit", HR_CHART_FIT, d, 1200, 760, HR_CHART_VERDICT_FITS, ms);
  check_render ("fit-narrow", HR_CHART_FIT, d, 340, 420, HR_CHART_VERDICT_FITS, NULL);
  text = hr_chart_info (HR_CHART_FIT)->describe (d);
  g_assert_nonnull (strstr (text, "Gemma 4 31B IT · Q4_K_M: quality 38.8 at"));
  g_assert_nonnull (strstr (text, "on the frontier"));
  g_assert_null (strstr (text, "Qwen3 32B"));   /* unknown quality: not drawn, not described */
  d->n_points = 0;
  d->n_fitting = 0;
  check_render ("fit-unknown", HR_CHART_FIT, d, 1200, 760, -1, NULL);
  g_test_message ("fit 1200×760: %.1f ms at scale 1, %.1f ms at scale 2", ms[0], ms[1]);
}

/* The frontier of What Runs Here on an RTX 4090 (Qwen3.6 27B at 45.8 and 39 tokens/s …): at
 * 340 px its first two names were drawn over each other.  No two point names overlap, at any
 * width: a name that would is drawn on the point's other side, or left out (the description
 * still names every point). */
static void
test_fit_labels_apart (void)
{
  static const struct { const char *label; double q, v; } pts[] = {
    { "Qwen3.6 27B · Q6_K", 45.8, 39.2 }, { "Qwen3.6 35B-A3B · Q4_K_M", 43.2, 143.7 },
    { "Gemma 4 26B-A4B IT · Q5_K_M", 27.1, 178.5 }, { "gpt-oss-20b · Q8_0", 24.5, 216.3 },
    { "Qwen3 0.6B · BF16", 5.7, 330 }, { "Qwen3 32B · Q4_K_M", 14.4, 40.4 },
    { "Gemma 4 31B IT · Q4_K_M", 32.1, 43.7 },
  };
  static const double sizes[][2] = { { 300, 280 }, { 318, 400 }, { 340, 420 }, { 600, 400 }, { 1200, 760 } };
  g_autofree HrChartFit *d = g_new0 (HrChartFit, 1);
  double q[G_N_ELEMENTS (pts)], v[G_N_ELEMENTS (pts)];
  gboolean on[G_N_ELEMENTS (pts)];

  g_strlcpy (d->heading.title, "What runs on 1× RTX 4090 24GB", sizeof d->heading.title);
  g_strlcpy (d->quality_name, "Artificial Analysis Intelligence Index v4", sizeof d->quality_name);
  d->usable_gib = 22.8;
  d->n_fitting = d->n_points = G_N_ELEMENTS (pts);
  for (guint i = 0; i < G_N_ELEMENTS (pts); i++)
    {
      g_strlcpy (d->points[i].label, pts[i].label, sizeof d->points[i].label);
      d->points[i].quality = q[i] = pts[i].q;
      d->points[i].decode_tps = v[i] = pts[i].v;
      d->points[i].verdict = HR_CHART_VERDICT_FITS;
    }
  hr_fit_frontier (q, v, d->n_points, on);
  for (int i = 0; i < d->n_points; i++)
    d->points[i].frontier = on[i];
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) sizes[k][0],
                                                             (int) sizes[k][1]);
      cairo_t *cr = cairo_create (surface);
      g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (HrTextBox));
      guint n_names = 0;
      HrCanvas c;

      g_assert_true (hr_canvas_begin (&c, cr, sizes[k][0], sizes[k][1], NULL));
      c.text_boxes = boxes;
      hr_chart_fit_paint (&c, d);
      hr_canvas_end (&c);
      for (guint i = 0; i < boxes->len; i++)
        {
          const HrTextBox *a = &g_array_index (boxes, HrTextBox, i);

          if (a->style != HR_TEXT_SMALL)
            continue;
          n_names++;
          for (guint j = i + 1; j < boxes->len; j++)
            {
              const HrTextBox *b = &g_array_index (boxes, HrTextBox, j);

              if (b->style == HR_TEXT_SMALL &&
                  a->box.x + 0.5 < b->box.x + b->box.w && b->box.x + 0.5 < a->box.x + a->box.w &&
                  a->box.y + 0.5 < b->box.y + b->box.h && b->box.y + 0.5 < a->box.y + a->box.h)
                g_error ("fit at %g×%g px: names %u (%.1f,%.1f %.1f×%.1f) and %u (%.1f,%.1f %.1f×%.1f) overlap",
                         sizes[k][0], sizes[k][1], i, a->box.x, a->box.y, a->box.w, a->box.h, j,
                         b->box.x, b->box.y, b->box.w, b->box.h);
            }
        }
      g_assert_cmpuint (n_names, >=, 2);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

/* Hostile sizes and data: never a crash, never a cairo error */
static void
test_robust (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 40, 30 }, { 120, 80 }, { 300, 200 }, { 4000, 250 },
                                  { 250, 3000 } };
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  g_autofree HrChartContext *cx = g_new0 (HrChartContext, 1);
  g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
  g_autofree HrChartCompare *cmp = g_new0 (HrChartCompare, 1);
  g_autofree HrChartFinetune *f = g_new0 (HrChartFinetune, 1);
  g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
  g_autofree HrChartFit *fit = g_new0 (HrChartFit, 1);
  const void *datas[HR_CHART_N_KINDS] = { NULL };   /* a kind left out draws "No data" */

  breakdown_one (b, 67.96, 1.44, 0.56, 64, HR_CHART_VERDICT_EXCEEDS);
  context_fill (cx, 67.96, 0.18, 64, 32768, 131072);
  quant_fill (q);
  compare_fill (cmp, 40);
  finetune_fill (f);
  tco_fill (t, 2.4, 8500);
  datas[HR_CHART_BREAKDOWN] = b;
  datas[HR_CHART_CONTEXT] = cx;
  datas[HR_CHART_QUANT] = q;
  datas[HR_CHART_COMPARE] = cmp;
  datas[HR_CHART_FINETUNE] = f;
  datas[HR_CHART_TCO] = t;
  fit_fill (fit);
  datas[HR_CHART_FIT] = fit;

  for (int round = 0; round < 3; round++)
    {
      if (round == 1)
        {
          /* counts out of range, infinities, negatives */
          b->n_devices = 1000;
          b->devices[0].weights_gib = INFINITY;
          b->required_gib = -5;
          cx->n_lines = -3;
          q->n_rows = 99999;
          q->rows[0].weights_gib = -1e300;
          q->current_row = 77;
          cmp->n_items = -1;
          f->n_methods = 42;
          f->methods[0].weights_gib = 1e308;
          t->n_points = 1 << 30;
          t->cloud_usd[3] = INFINITY;
          fit->n_points = 100000;
          fit->points[0].decode_tps = -INFINITY;
          fit->points[1].quality = 1e308;
        }
      if (round == 2)
        {
          /* NULL data */
          for (int k = 0; k < HR_CHART_N_KINDS; k++)
            datas[k] = NULL;
        }
      for (int k = 0; k < HR_CHART_N_KINDS; k++)
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          {
            cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                                   sizes[s][0], sizes[s][1]);
            cairo_t *cr = cairo_create (surface);

            hr_chart_draw (k, cr, sizes[s][0], sizes[s][1], datas[k], hr_chart_theme_dark ());
            g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
            /* NAN and zero sizes draw nothing and do not fail */
            hr_chart_draw (k, cr, NAN, 100, datas[k], NULL);
            hr_chart_draw (k, cr, 0, 0, datas[k], NULL);
            g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
            cairo_destroy (cr);
            cairo_surface_destroy (surface);
          }
    }
}

/* Axes and formats -------------------------------------------------------------------------- */

static void
test_axis (void)
{
  HrAxis a;
  char buf[64];

  hr_axis_linear (&a, 0, 72.1, 10);
  g_assert_cmpfloat (a.min, ==, 0);
  g_assert_cmpfloat (a.max, >=, 72.1);
  g_assert_cmpint (a.n_ticks, <=, 10);
  g_assert_cmpfloat (a.step, ==, 10);
  hr_axis_linear (&a, 0, 0.3, 5);
  g_assert_cmpstr (hr_fmt_tick (buf, sizeof buf, &a, a.ticks[1]), ==, "0.1");
  hr_axis_linear (&a, 5, 5, 5);   /* empty range */
  g_assert_cmpint (a.n_ticks, >=, 2);
  hr_axis_log2 (&a, 4096, 131072, 10);
  g_assert_cmpint (a.n_ticks, ==, 6);
  g_assert_cmpstr (hr_fmt_tick (buf, sizeof buf, &a, a.ticks[0]), ==, "4K");
  g_assert_cmpstr (hr_fmt_tick (buf, sizeof buf, &a, a.ticks[5]), ==, "128K");
  hr_axis_log2 (&a, 4096, 16777216, 5);
  g_assert_cmpint (a.n_ticks, <=, 6);

  g_assert_cmpstr (hr_fmt_gib (buf, sizeof buf, 60.8), ==, "60.8 GiB");
  g_assert_cmpstr (hr_fmt_gib (buf, sizeof buf, 76), ==, "76 GiB");
  g_assert_cmpstr (hr_fmt_gib (buf, sizeof buf, 67.96), ==, "67.96 GiB");
  g_assert_cmpstr (hr_fmt_gib (buf, sizeof buf, NAN), ==, "unknown");
  g_assert_cmpstr (hr_fmt_tps (buf, sizeof buf, NAN), ==, "unknown");
  g_assert_cmpstr (hr_fmt_tps (buf, sizeof buf, 40.21), ==, "40.2 tok/s");
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, 3.05), ==, "$3.05");
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, 8500), ==, "$8500");   /* C locale: no grouping */
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, INFINITY), ==, "unknown");
  g_assert_cmpstr (hr_fmt_usd_short (buf, sizeof buf, 12500), ==, "$12.5k");
  g_assert_cmpstr (hr_fmt_context (buf, sizeof buf, 46336), ==, "45.2K");
  g_assert_cmpstr (hr_fmt_context (buf, sizeof buf, 1048576), ==, "1M");
}

/* A chart's prices group their digits by the core rule, so they read as the GUI's and the CLI's
 * text beside them (issue 18): none in the C locale, the locale's separator otherwise. */
static void
expect_usd (const char *locale,
            const char *want,
            const char *cents)
{
  HrTcoInput in = { 2.40, 4, 8500, 600, 0.175 };
  g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
  g_autofree char *legend = g_strdup_printf ("Buy: %s", want);
  g_autofree char *negative = g_strconcat ("-", want, NULL);
  char buf[64];
  char core[64];

  if (setlocale (LC_NUMERIC, locale) == NULL)
    {
      g_test_message ("locale %s is not installed: not checked", locale);
      return;
    }
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, 8500), ==, want);
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, -8500), ==, negative);
  g_assert_cmpstr (buf + 2, ==, hr_format_number_locale_buf (core, sizeof core, 8500, 0));
  /* under $100 with cents, the locale's decimal mark and the GUI's rounding (1.555 → 1.56) */
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, 3.05), ==, cents);
  g_assert_cmpstr (hr_fmt_usd (buf, sizeof buf, 1.555), ==,
                   hr_format_usd_locale_buf (core, sizeof core, 1.555, 2));
  hr_chart_tco_from_input (&in, NULL, NULL, 0, t);
  g_assert_cmpstr (t->buy_label, ==, legend);
  setlocale (LC_NUMERIC, "C");
}

static void
test_usd_locale (void)
{
  expect_usd ("C", "$8500", "$3.05");
  expect_usd ("en_US.UTF-8", "$8,500", "$3.05");
  expect_usd ("de_DE.UTF-8", "$8.500", "$3,05");
}

static void
test_kinds (void)
{
  HrChartKind kind;

  for (int k = 0; k < HR_CHART_N_KINDS; k++)
    {
      g_assert_true (hr_chart_kind_from_string (hr_chart_kind_to_string (k), &kind));
      g_assert_cmpint (kind, ==, k);
    }
  g_assert_false (hr_chart_kind_from_string ("pie", &kind));
  g_assert_false (hr_chart_kind_from_string (NULL, &kind));
  g_assert_null (hr_chart_kind_to_string (HR_CHART_N_KINDS));
  /* the verdict is never told by colour alone */
  for (int v = 0; v <= HR_CHART_VERDICT_UNKNOWN; v++)
    g_assert_cmpstr (hr_chart_verdict_glyph (v), !=, "");
  g_assert_true (rgba_pixel (&hr_chart_theme_light ()->fits)
                 != rgba_pixel (&hr_chart_theme_light ()->exceeds));
}

/* Every kind has a complete registry entry, and the lookups read it */
static void
test_registry (void)
{
  g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
  g_autofree char *list = hr_chart_kind_list (", ");
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (int k = 0; k < HR_CHART_N_KINDS; k++)
    {
      const HrChartInfo *info = hr_chart_info (k);

      g_assert_nonnull (info);
      g_assert_nonnull (info->id);
      g_assert_true (g_hash_table_add (ids, (gpointer) info->id));
      g_assert_nonnull (strstr (list, info->id));
      g_assert_cmpstr (hr_chart_kind_to_string (k), ==, info->id);
      g_assert_true (info->title != NULL && info->title[0] != '\0');
      g_assert_nonnull (info->draw);
      g_assert_cmpuint (info->data_size, >=, HR_CHART_TITLE_LEN);
      g_assert_cmpuint (info->title_offset + HR_CHART_TITLE_LEN, <=, info->data_size);
      g_assert_cmpint (info->min_height, >, 0);
      g_assert_cmpint (info->natural_height, >=, info->min_height);
      g_assert_cmpint (info->export_height, >=, info->natural_height);
    }
  g_assert_null (hr_chart_info (HR_CHART_N_KINDS));
  g_assert_null (hr_chart_info ((HrChartKind) -1));
  /* new kinds go after these */
  g_assert_true (g_str_has_prefix (list, "breakdown, context, quant, compare, finetune, tco"));
  g_assert_cmpuint (hr_chart_info (HR_CHART_TCO)->data_size, ==, sizeof (HrChartTco));
  g_strlcpy (t->heading.title, "Rent versus buy: RTX 4090", sizeof t->heading.title);
  g_assert_cmpstr (hr_chart_data_title (HR_CHART_TCO, t), ==, "Rent versus buy: RTX 4090");
  g_assert_cmpstr (hr_chart_data_title (HR_CHART_TCO, NULL), ==, "");
  g_assert_cmpstr (hr_chart_data_title (HR_CHART_N_KINDS, t), ==, "");
}

/* Export ------------------------------------------------------------------------------------ */

static gboolean
file_starts_with (const char *path,
                  const char *magic)
{
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return FALSE;
  return len >= strlen (magic) && memcmp (contents, magic, strlen (magic)) == 0;
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static gboolean
run_ok (const char *const *argv)
{
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                     | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* A PNG export that hits a full disk (here: a file size limit of 16 KiB, writes past it fail
 * with EFBIG) is an error naming the file, and libpng prints nothing of its own: its default
 * handler wrote "libpng error: write error" on stderr, a second line beside the CLI's one. */
static void
test_export_png_full_disk (void)
{
  if (g_test_subprocess ())
    {
      g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
      g_autoptr(GError) error = NULL;
      g_autofree char *dir = g_dir_make_tmp ("test-charts-XXXXXX", NULL);
      g_autofree char *png = g_build_filename (dir, "chart.png", NULL);
      struct rlimit limit = { 16384, 16384 };

      quant_fill (q);
      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 1200, 700, 2 }, png, &error));
      g_assert_nonnull (error);
      g_printerr ("%s\n", error->message);
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("Cannot write *chart.png*: File too large\n");
  g_test_trap_assert_stderr_unmatched ("*libpng*");
}

static void
test_export (void)
{
  g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-charts-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "chart.png", NULL);
  g_autofree char *png2 = g_build_filename (dir, "chart@2.PNG", NULL);
  g_autofree char *svg = g_build_filename (dir, "chart.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "chart.pdf", NULL);
  g_autofree char *bad = g_build_filename (dir, "chart.gif", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "dir.png", NULL);
  g_autofree char *rsvg = NULL, *pdftoppm = NULL;
  const HrChartPage page = { HR_CHART_QUANT, q, NULL, 1200, 700, 1 };
  cairo_surface_t *surface;

  g_assert_nonnull (dir);
  quant_fill (q);

  g_assert_true (hr_chart_export (&page, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1200);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 700);
  cairo_surface_destroy (surface);

  g_assert_true (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, hr_chart_theme_dark (),
                                                   1200, 700, 2 },
                                  png2, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png2);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 2400);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 1400);
  cairo_surface_destroy (surface);

  /* Replacing an existing file */
  g_assert_true (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 300, 200, 1.5 }, png,
                                  &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 450);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 300);
  cairo_surface_destroy (surface);

  g_assert_true (hr_chart_export (&page, svg, &error));
  g_assert_no_error (error);
  g_assert_true (file_starts_with (svg, "<?xml"));
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "<svg"));
    g_assert_nonnull (strstr (contents, "width=\"1200pt\""));
  }
  g_assert_true (hr_chart_export (&page, pdf, &error));
  g_assert_no_error (error);
  g_assert_true (file_starts_with (pdf, "%PDF"));

  if ((rsvg = g_find_program_in_path ("rsvg-convert")) != NULL)
    {
      g_autofree char *out = g_build_filename (dir, "svg.png", NULL);
      const char *argv[] = { "rsvg-convert", "-o", out, svg, NULL };

      g_assert_true (run_ok (argv));
      g_assert_true (file_starts_with (out, "\x89PNG"));
      g_unlink (out);
    }
  else
    g_test_message ("rsvg-convert not found: SVG not parsed");
  if ((pdftoppm = g_find_program_in_path ("pdftoppm")) != NULL)
    {
      g_autofree char *prefix = g_build_filename (dir, "pdf", NULL);
      g_autofree char *out = g_build_filename (dir, "pdf-1.png", NULL);
      const char *argv[] = { "pdftoppm", "-png", "-r", "20", pdf, prefix, NULL };

      g_assert_true (run_ok (argv));
      g_assert_true (file_starts_with (out, "\x89PNG"));
      g_unlink (out);
    }
  else
    g_test_message ("pdftoppm not found: PDF not parsed");

  /* Errors, and no temporary file left behind */
  g_assert_false (hr_chart_export (&page, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (hr_chart_export (&page, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 0, 700, 1 }, png,
                                   &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 1200, 700, NAN }, png,
                                   &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 16000, 16000, 1 }, png,
                                   &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* a directory where the file should go */
  g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 100, 100, 1 }, dir,
                                   &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  {
    g_autofree char *sub = g_build_filename (dir, "sub.png", NULL);

    g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
    g_assert_false (hr_chart_export (&(HrChartPage) { HR_CHART_QUANT, q, NULL, 100, 100, 1 }, sub,
                                     &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_assert_true (g_file_test (sub, G_FILE_TEST_IS_DIR));
    g_rmdir (sub);
  }
  /* chart.png, chart@2.PNG, chart.svg, chart.pdf and nothing else */
  g_assert_cmpuint (count_entries (dir), ==, 4);

  g_unlink (png);
  g_unlink (png2);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* The bridge, on the bundled catalog -------------------------------------------------------- */

static void
scenario (HrScenario *s,
          const char *model_id,
          const char *gpu_id)
{
  const HrModel *m = hr_catalog_find_model (catalog, model_id);
  const HrGpu *g = hr_catalog_find_gpu (catalog, gpu_id);

  if (m == NULL || g == NULL)
    g_error ("catalog lacks %s or %s", model_id, gpu_id);
  hr_scenario_init (s, m, g);
}

static void
test_bridge_breakdown (void)
{
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  g_autoptr(GError) error = NULL;
  HrScenario s;
  HrEstimate e;

  /* The seed: GLM-4.5-Air Q4_K_M at 8K on a 64 GB card does not fit; weights 67.96 GiB */
  scenario (&s, "glm-4.5-air", "dcu-k100-ai-64gb");
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  g_assert_true (hr_estimate_compute (&s, hr_catalog_get_pricing (catalog), &e, &error));
  g_assert_no_error (error);
  hr_chart_breakdown_from_estimate (&s, &e, b);
  g_assert_cmpint (b->n_devices, ==, 1);
  /* the bars show what the engine loads on the device; the summary names the file */
  g_assert_cmpfloat_with_epsilon (b->devices[0].weights_gib, hr_to_gib (e.weights_gpu), 1e-9);
  g_assert_cmpfloat_with_epsilon (b->devices[0].kv_gib, 1.44, 0.005);
  g_assert_cmpfloat_with_epsilon (b->devices[0].weights_gib + b->devices[0].kv_gib
                                  + b->devices[0].buffers_gib, b->required_gib, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->system_ram_gib, hr_to_gib (e.system_ram_bytes), 1e-9);
  if (b->weights_file_gib > 0)
    g_assert_cmpfloat_with_epsilon (b->weights_file_gib, 67.96, 0.005);
  g_assert_cmpfloat_with_epsilon (b->usable_gib, 60.8, 1e-9);
  g_assert_cmpint (b->verdict, ==, HR_CHART_VERDICT_EXCEEDS);
  g_assert_nonnull (strstr (b->heading.title, "GLM"));
  check_render ("bridge-breakdown", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_EXCEEDS,
                NULL);

  /* Four GPUs: four bars that add up to the total, the fullest being the Size view's
   * "on the fullest GPU" (llama.cpp hands out whole layers, the head to the last GPU) */
  s.n_gpus = 4;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  hr_chart_breakdown_from_estimate (&s, &e, b);
  g_assert_cmpint (b->n_devices, ==, 4);
  {
    double sum = 0, fullest = 0;
    for (int i = 0; i < 4; i++)
      {
        double bar = b->devices[i].weights_gib + b->devices[i].kv_gib + b->devices[i].buffers_gib;
        sum += bar;
        fullest = MAX (fullest, bar);
      }
    g_assert_cmpfloat_with_epsilon (sum, b->required_gib, 1e-6);
    g_assert_cmpfloat_with_epsilon (fullest, hr_to_gib (e.per_gpu_required), 1e-6);
    g_assert_cmpfloat (b->devices[3].weights_gib, >, b->devices[0].weights_gib);
  }
  check_render ("bridge-breakdown-4", HR_CHART_BREAKDOWN, b, 1200, 700, -1, NULL);

  /* MoE experts on the CPU: a system-RAM part */
  s.n_gpus = 1;
  s.n_cpu_moe = 20;
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  hr_chart_breakdown_from_estimate (&s, &e, b);
  g_assert_cmpfloat (b->system_ram_gib, >, 1);
  check_render ("bridge-breakdown-offload", HR_CHART_BREAKDOWN, b, 1200, 700, -1, NULL);
}

static void
test_bridge_context (void)
{
  g_autofree HrChartContext *c = g_new0 (HrChartContext, 1);
  g_autoptr(GError) error = NULL;
  HrScenario s;

  scenario (&s, "glm-4.5-air", "mlu590-80gb");
  s.context = 8192;
  g_assert_true (hr_chart_context_from_scenario (&s, 0, c, &error));
  g_assert_no_error (error);
  g_assert_cmpint (c->n_lines, ==, 3);
  g_assert_cmpstr (c->lines[0].label, ==, "F16");
  g_assert_cmpfloat (c->min_context, ==, 4096);
  g_assert_cmpfloat (c->max_context, ==, MIN (131072.0, (double) s.model->max_context));
  for (int l = 0; l < c->n_lines; l++)
    {
      g_assert_cmpint (c->lines[l].n_points, >=, 8);
      for (int i = 1; i < c->lines[l].n_points; i++)
        {
          g_assert_cmpfloat (c->lines[l].context[i], >, c->lines[l].context[i - 1]);
          g_assert_cmpfloat (c->lines[l].required_gib[i], >=, c->lines[l].required_gib[i - 1]);
        }
    }
  /* quantized caches need less */
  g_assert_cmpfloat (c->lines[2].required_gib[c->lines[2].n_points - 1], <,
                     c->lines[0].required_gib[c->lines[0].n_points - 1]);
  g_assert_cmpfloat (c->max_fit_context, ==, (double) hr_advice_max_context (&s));
  g_assert_cmpfloat (c->max_fit_context, >, 8192);
  check_render ("bridge-context", HR_CHART_CONTEXT, c, 1200, 700, -1, NULL);

  /* vLLM: F16 and FP8 only */
  s.engine = HR_ENGINE_VLLM;
  s.kv_type = HR_KV_FP8;
  g_assert_true (hr_chart_context_from_scenario (&s, 0, c, &error));
  g_assert_cmpint (c->n_lines, ==, 2);
  g_assert_cmpint (c->current_line, ==, 1);
}

static void
test_bridge_quant_compare (void)
{
  g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
  g_autofree HrChartCompare *cmp = g_new0 (HrChartCompare, 1);
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GPtrArray) gpus = g_ptr_array_new ();
  HrScenario s;

  scenario (&s, "glm-4.5-air", "mlu590-80gb");
  rows = hr_advice_quant_matrix (&s, catalog, hr_catalog_get_pricing (catalog));
  hr_chart_quant_from_matrix (&s, rows, q);
  g_assert_cmpint (q->n_rows, ==, MIN ((int) rows->len, HR_CHART_MAX_QUANTS));
  g_assert_cmpint (q->current_row, >=, 0);
  g_assert_cmpstr (q->rows[q->current_row].label, ==, s.quant);
  check_render ("bridge-quant", HR_CHART_QUANT, q, 1200, 700, -1, NULL);

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    g_ptr_array_add (gpus, (gpointer) hr_catalog_get_gpu (catalog, i));
  hr_chart_compare_from_gpus (&s, gpus, hr_catalog_get_pricing (catalog), cmp);
  g_assert_cmpint (cmp->n_items, ==, MIN ((int) gpus->len, HR_CHART_MAX_GPUS));
  check_render ("bridge-compare-all", HR_CHART_COMPARE, cmp, 1200, 700, HR_CHART_VERDICT_FITS,
                NULL);
}

/* #31: the quantization chart's KV part is the cache alone, as the matrix's KV column; the draft
 * and the vision projector are parts of their own, so each column still totals the estimate. */
static void
test_bridge_quant_draft (void)
{
  g_autofree HrChartQuant *q = g_new0 (HrChartQuant, 1);
  g_autoptr(GArray) rows = NULL;
  HrScenario s;
  gboolean seen = FALSE;

  scenario (&s, "llama-3.3-70b", "h100-80gb-sxm");
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.draft_kind = HR_DRAFT_MODEL;
  s.draft_model = hr_catalog_find_model (catalog, "llama-3.2-3b");
  g_assert_nonnull (s.draft_model);
  rows = hr_advice_quant_matrix (&s, catalog, hr_catalog_get_pricing (catalog));
  hr_chart_quant_from_matrix (&s, rows, q);
  g_assert_cmpint (q->n_rows, >, 0);
  for (int i = 0; i < q->n_rows; i++)
    {
      const HrEstimate *e = &g_array_index (rows, HrMatrixRow, i).estimate;
      const HrChartQuantRow *r = &q->rows[i];

      if (!isfinite (r->weights_gib))
        continue;
      seen = TRUE;
      g_assert_cmpfloat (e->draft_bytes, >, 0);
      g_assert_cmpfloat_with_epsilon (r->draft_gib, e->draft_bytes / HR_GIB, 1e-9);
      g_assert_cmpfloat_with_epsilon (r->kv_gib, (e->required_bytes - e->weights_gpu
                                                  - e->overhead_bytes - e->draft_bytes) / HR_GIB,
                                      1e-9);
      g_assert_cmpfloat_with_epsilon (r->weights_gib + r->kv_gib + r->buffers_gib + r->draft_gib
                                      + r->projector_gib, e->required_bytes / HR_GIB, 1e-6);
    }
  g_assert_true (seen);
  check_render ("bridge-quant-draft", HR_CHART_QUANT, q, 1200, 700, -1, NULL);
}

/* The column a text starts in: -1 for the names, else the panel whose left edge is before it. */
static int
column_of (const HrRect *box,
           const double *panel_x,
           int           n_panels)
{
  int p = -1;

  for (int k = 0; k < n_panels; k++)
    if (box->x >= panel_x[k])
      p = k;
  return p;
}

/* Paints the compare chart at @width × @height and fails when two texts it records overlap, or
 * a text reaches into a panel that is not its own: a GPU name into the first panel, a row's
 * value into the next panel or past the chart's edge.  A panel starts at its title's left edge. */
static void
check_compare_texts_apart (const HrChartCompare *data,
                           double                width,
                           double                height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (HrTextBox));
  double panel_x[3], rows_top = 0, rows_bottom = 0;
  int n_panels = 0, n_values = 0;
  HrCanvas c;

  g_assert_true (hr_canvas_begin (&c, cr, width, height, NULL));
  c.text_boxes = boxes;
  hr_chart_compare_paint (&c, data);
  hr_canvas_end (&c);
  /* The panel titles: the bold texts on the line under the header (the badge is above) */
  for (guint i = 0; i < boxes->len && n_panels < 3; i++)
    {
      const HrRect *r = &g_array_index (boxes, HrTextBox, i).box;

      if (g_array_index (boxes, HrTextBox, i).style != HR_TEXT_STRONG)
        continue;
      if (r->y > rows_top)
        n_panels = 0;
      panel_x[n_panels++] = r->x;
      rows_top = MAX (rows_top, r->y + r->h);
    }
  g_assert_cmpint (n_panels, >=, 2);
  for (guint i = 0; i < boxes->len; i++)
    if (g_array_index (boxes, HrTextBox, i).style == HR_TEXT_VALUE)
      {
        const HrRect *a = &g_array_index (boxes, HrTextBox, i).box;

        rows_bottom = MAX (rows_bottom, a->y + a->h);
        n_values++;
      }
  g_assert_cmpint (n_values, >=, 2 * 8);
  for (guint i = 0; i < boxes->len; i++)
    {
      const HrTextBox *t = &g_array_index (boxes, HrTextBox, i);
      const HrRect *a = &t->box;
      int p = column_of (a, panel_x, n_panels);
      double limit = p + 1 < n_panels ? panel_x[p + 1] : width;

      /* no text on top of another column's, the axes' ticks included */
      for (guint j = i + 1; j < boxes->len; j++)
        {
          const HrRect *b = &g_array_index (boxes, HrTextBox, j).box;

          if (column_of (b, panel_x, n_panels) != p &&
              a->x + 0.5 < b->x + b->w && b->x + 0.5 < a->x + a->w &&
              a->y + 0.5 < b->y + b->h && b->y + 0.5 < a->y + a->h)
            g_error ("compare at %g×%g px: texts %u (style %d, %.1f,%.1f %.1f×%.1f) and %u (style %d, "
                     "%.1f,%.1f %.1f×%.1f) overlap", width, height, i, t->style, a->x, a->y, a->w, a->h,
                     j, g_array_index (boxes, HrTextBox, j).style, b->x, b->y, b->w, b->h);
        }
      /* a row's name and values each within their own column */
      if (a->y >= rows_top && a->y + a->h <= rows_bottom &&
          (t->style == HR_TEXT_LABEL || t->style == HR_TEXT_VALUE) && a->x + a->w > limit + 0.5)
        g_error ("compare at %g×%g px: text %u (%.1f–%.1f) runs into the %s at %.1f", width, height,
                 i, a->x, a->x + a->w, p + 1 < n_panels ? "next panel" : "chart's edge", limit);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* #18: narrow compare charts shorten or leave out columns rather than overlap them.  Real
 * figures: the largest models on every catalog GPU (memory labels such as "1918.2 / 76 GiB"),
 * Chinese names and one as long as a name gets, at a phone's 360 px and a half screen's 600 px,
 * as tall as a window and as a long export (bigger rows, wider labels). */
static void
test_compare_narrow (void)
{
  static const struct { const char *model; const char *quant; int n_gpus; } cases[] = {
    { "kimi-k2", "BF16", 1 },
    { "deepseek-r1", "BF16", 8 },
    { "llama-3.1-70b", "Q4_K_M", 1 },
  };
  static const double sizes[][2] = { { 360, 700 }, { 360, 1400 }, { 600, 700 }, { 600, 1400 } };
  g_autofree HrChartCompare *c = g_new0 (HrChartCompare, 1);
  g_autoptr(GPtrArray) gpus = g_ptr_array_new ();
  HrScenario s;

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    g_ptr_array_add (gpus, (gpointer) hr_catalog_get_gpu (catalog, i));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      scenario (&s, cases[i].model, "h100-80gb-sxm");
      g_strlcpy (s.quant, cases[i].quant, sizeof s.quant);
      s.n_gpus = cases[i].n_gpus;
      hr_chart_compare_from_gpus (&s, gpus, hr_catalog_get_pricing (catalog), c);
      g_assert_cmpint (c->n_items, >=, 40);
      g_strlcpy (c->items[3].name, "MLU590 80GB (寒武纪思元) with a name as long as the catalog allows",
                 sizeof c->items[3].name);
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        check_compare_texts_apart (c, sizes[k][0], sizes[k][1]);
    }
}

static void
test_bridge_finetune (void)
{
  g_autofree HrChartFinetune *f = g_new0 (HrChartFinetune, 1);
  HrFtEstimate est[3];
  HrFtScenario ft;
  const HrModel *m = hr_catalog_find_model (catalog, "glm-4.5-air");
  const HrGpu *g = hr_catalog_find_gpu (catalog, "h100-80gb-sxm");

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  for (int i = 0; i < 3; i++)
    {
      g_autoptr(GError) error = NULL;

      hr_ft_scenario_init (&ft, m, (HrFtMethod) i);
      g_assert_true (hr_finetune_compute (&ft, &est[i], &error));
      g_assert_no_error (error);
    }
  hr_chart_finetune_from_estimates (&ft, est, g, catalog, f);
  g_assert_cmpint (f->n_methods, ==, 3);
  g_assert_cmpfloat (f->physical_gib, ==, 80);
  g_assert_cmpint (f->methods[HR_FT_FULL].verdict, ==, HR_CHART_VERDICT_EXCEEDS);
  g_assert_cmpstr (f->methods[0].note, !=, "");
  check_render ("bridge-finetune", HR_CHART_FINETUNE, f, 1200, 700, HR_CHART_VERDICT_EXCEEDS,
                NULL);
}

/* Speculative decoding's draft (#31) is a part of its own in the breakdown: drawn in the
 * theme's draft colour (and in the legend), absent without a draft, and read out. */
static void
test_breakdown_draft (void)
{
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  g_autofree char *text = NULL;
  guint counts[2] = { 0 };

  for (int with = 0; with < 2; with++)
    {
      const HrChartTheme *theme = hr_chart_theme_light ();
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
      cairo_t *cr = cairo_create (surface);
      guint n_ink;

      breakdown_one (b, 39.03, 2.5, 1.04, 80, HR_CHART_VERDICT_FITS);
      b->devices[0].draft_gib = with ? 3.0 : 0;
      b->required_gib += b->devices[0].draft_gib;
      hr_chart_draw (HR_CHART_BREAKDOWN, cr, 1200, 700, b, theme);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      count_pixels (surface, &theme->draft, &theme->background, &counts[with], &n_ink);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  g_test_message ("draft-coloured pixels: %u without, %u with a draft", counts[0], counts[1]);
  g_assert_cmpuint (counts[0], ==, 0);
  /* 3 GiB of an 82 GiB axis over ~1000 px, a bar ~40 px high, and the legend's swatch */
  g_assert_cmpuint (counts[1], >, 600);
  check_render ("breakdown-draft", HR_CHART_BREAKDOWN, b, 1200, 700, HR_CHART_VERDICT_FITS, NULL);
  text = hr_chart_info (HR_CHART_BREAKDOWN)->describe (b);
  g_assert_nonnull (strstr (text, ": draft model 3.00 GiB.\n"));
}

/* Every chart has a text for assistive technologies, with the figures it draws. */
static void
test_describe (void)
{
  g_autofree HrChartCompare *c = g_new0 (HrChartCompare, 1);
  g_autofree HrChartBreakdown *b = g_new0 (HrChartBreakdown, 1);
  g_autofree char *text = NULL;
  g_autofree char *btext = NULL;

  for (guint k = 0; k < HR_CHART_N_KINDS; k++)
    g_assert_nonnull (hr_chart_info (k)->describe);

  c->n_items = 2;
  c->items[0] = (HrChartCompareItem) { "H100 80GB SXM", 1, 68.21, 76.0, 117.7, NAN, HR_CHART_VERDICT_FITS };
  c->items[1] = (HrChartCompareItem) { "RTX 5090 32GB", 1, 68.21, 30.4, NAN, 1.27, HR_CHART_VERDICT_EXCEEDS };
  text = hr_chart_info (HR_CHART_COMPARE)->describe (c);
  g_assert_nonnull (strstr (text, "H100 80GB SXM: 68.21 of 76.00 GiB, Fits with margin; 117.7 tokens/s.\n"));
  g_assert_nonnull (strstr (text, "RTX 5090 32GB: 68.21 of 30.40 GiB, Does not fit; $1.27 per 1M tokens.\n"));

  b->n_devices = 1;
  b->devices[0] = (HrChartDevice) { "GPU 1 · RTX 4090", 12.5, 2.25, 0.75, 24, 23.5 };
  b->verdict = HR_CHART_VERDICT_TIGHT;
  btext = hr_chart_info (HR_CHART_BREAKDOWN)->describe (b);
  g_assert_cmpstr (btext, ==, "GPU 1 · RTX 4090: weights 12.50 GiB, KV cache 2.25 GiB, buffers 0.75 GiB; "
                              "23.50 GiB usable.\nTight fit.");
}

/* The rent-versus-buy description reads its prices as the chart draws them: grouped as the
 * locale groups ("$8500 up front" in English and German, where the legend said "$8,500"). */
static void
test_describe_tco_prices (void)
{
  static const struct { const char *locale; const char *want; } cases[] = {
    { "C", "Rent: $2.40/h: $292 a month. Buy: $8500: $8500 up front, $12.77 a month for electricity." },
    { "en_US.UTF-8", "Rent: $2.40/h: $292 a month. Buy: $8,500: $8,500 up front, $12.77 a month for electricity." },
    { "de_DE.UTF-8", "Rent: $2,40/h: $292 a month. Buy: $8.500: $8.500 up front, $12,77 a month for electricity." },
  };
  HrTcoInput in = { 2.40, 4, 8500, 600, 0.175 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree HrChartTco *t = g_new0 (HrChartTco, 1);
      g_autofree char *text = NULL;

      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("locale %s is not installed: not checked", cases[i].locale);
          continue;
        }
      hr_chart_tco_from_input (&in, NULL, NULL, 0, t);
      text = hr_chart_info (HR_CHART_TCO)->describe (t);
      g_assert_cmpstr (text, ==, cases[i].want);
    }
  setlocale (LC_NUMERIC, "C");
}

/* An integrated GPU llama.cpp leaves out beside a discrete one (#31): the charts show the
 * discrete card's own 16 GiB, not the pair's average. */
static void
test_bridge_left_out (void)
{
  const HrGpu *card = hr_catalog_find_gpu (catalog, "rtx-4060-ti-16gb");
  const HrGpu *apu = hr_catalog_find_gpu (catalog, "ryzen-ai-max-395-128gb");
  HrDeviceKind kinds[] = { { card, 1 }, { apu, 1 } };
  g_autofree HrChartContext *ctx = g_new0 (HrChartContext, 1);
  g_autoptr(GError) error = NULL;
  HrChartBreakdown b;
  HrScenario s;
  HrEstimate e;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-14b"), card);
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, NULL));
  g_assert_true (hr_estimate_compute (&s, NULL, &e, &error));
  g_assert_no_error (error);
  hr_chart_breakdown_from_estimate (&s, &e, &b);
  g_assert_cmpint (b.n_devices, ==, 1);
  g_assert_cmpfloat (b.devices[0].physical_gib, ==, 16);
  g_assert_true (hr_chart_context_from_scenario (&s, 0, ctx, &error));
  g_assert_cmpfloat (ctx->physical_gib, ==, 16);
  g_assert_false (ctx->per_device);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/charts/kinds", test_kinds);
  g_test_add_func ("/charts/registry", test_registry);
  g_test_add_func ("/charts/axis", test_axis);
  g_test_add_func ("/charts/usd-locale", test_usd_locale);
  g_test_add_func ("/charts/breakdown", test_breakdown);
  g_test_add_func ("/charts/breakdown-projector", test_breakdown_projector);
  g_test_add_func ("/charts/context", test_context);
  g_test_add_func ("/charts/quant", test_quant);
  g_test_add_func ("/charts/compare", test_compare);
  g_test_add_func ("/charts/compare-narrow", test_compare_narrow);
  g_test_add_func ("/charts/finetune", test_finetune);
  g_test_add_func ("/charts/finetune-values-clear", test_finetune_values_clear);
  g_test_add_func ("/charts/verdict-colours", test_verdict_colours);
  g_test_add_func ("/charts/tco-summary-whole", test_tco_summary_whole);
  g_test_add_func ("/charts/tco", test_tco);
  g_test_add_func ("/charts/load", test_load);
  g_test_add_func ("/charts/fit", test_fit);
  g_test_add_func ("/charts/fit-labels-apart", test_fit_labels_apart);
  g_test_add_func ("/charts/robust", test_robust);
  g_test_add_func ("/charts/describe", test_describe);
  g_test_add_func ("/charts/breakdown-draft", test_breakdown_draft);
  g_test_add_func ("/charts/describe-tco-prices", test_describe_tco_prices);
  g_test_add_func ("/charts/export", test_export);
  g_test_add_func ("/charts/export-png-full-disk", test_export_png_full_disk);
  g_test_add_func ("/charts/bridge/breakdown", test_bridge_breakdown);
  g_test_add_func ("/charts/bridge/context", test_bridge_context);
  g_test_add_func ("/charts/bridge/quant-compare", test_bridge_quant_compare);
  g_test_add_func ("/charts/bridge/quant-draft", test_bridge_quant_draft);
  g_test_add_func ("/charts/bridge/finetune", test_bridge_finetune);
  g_test_add_func ("/charts/bridge/left-out", test_bridge_left_out);

  status = g_test_run ();
  hr_catalog_free (catalog);
  return status;
}
