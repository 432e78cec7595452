/* hr-chart.c — themes, the chart registry and the dispatcher shared by every chart */

#include <glib/gi18n-lib.h>

#include "hr-chart.h"
#include "hr-chart-private.h"

#define RGB(r, g, b) { (r) / 255.0, (g) / 255.0, (b) / 255.0, 1.0 }

#define HR_CHART_FONTS "Cantarell, Noto Sans, DejaVu Sans, Noto Sans CJK SC, sans-serif"

/* Okabe & Ito's palette (https://jfly.uni-koeln.de/color/) for the series: distinguishable
 * with every common colour-vision deficiency.  Blue = weights, reddish purple = KV cache, sky
 * blue = buffers, orange = the vision projector.  The verdicts take libadwaita's success, warning and error colours, as the
 * app's banner and the chart widget do (hr-chart-widget.c reads them from the style), so an
 * exported chart says "does not fit" in the red the screen shows, not in an orange of its own;
 * they also carry a glyph and, when the memory does not fit, a hatch, so colour is never the
 * only cue. */
static const HrChartTheme theme_light = {
  .background = RGB (0xff, 0xff, 0xff),
  .foreground = RGB (0x24, 0x1f, 0x31),
  .muted = RGB (0x5e, 0x5c, 0x64),
  .grid = RGB (0xe4, 0xe3, 0xe6),
  .axis = RGB (0x9a, 0x99, 0x96),
  .track = RGB (0xf2, 0xf2, 0xf4),
  .physical = RGB (0x24, 0x1f, 0x31),
  .usable = RGB (0x24, 0x1f, 0x31),
  .fits = RGB (0x1b, 0x85, 0x53),      /* @success_color */
  .tight = RGB (0x9c, 0x6e, 0x03),     /* @warning_color */
  .exceeds = RGB (0xc0, 0x1c, 0x28),   /* @error_color */
  .unknown = RGB (0x9a, 0x99, 0x96),
  .series = {
    RGB (0x00, 0x72, 0xb2),
    RGB (0xcc, 0x79, 0xa7),
    RGB (0x56, 0xb4, 0xe9),
    RGB (0x8a, 0x89, 0x86),
    RGB (0xe6, 0x9f, 0x00),            /* Okabe-Ito orange: the vision projector */
  },
  .draft = RGB (0x00, 0x9e, 0x73),     /* Okabe-Ito bluish green: the orange is the projector's */
  .font_family = HR_CHART_FONTS,
  .font_size = 12.0,
};

/* The same hues, lifted so that they keep their contrast on libadwaita's dark window colour;
 * the verdicts are libadwaita's dark ones. */
static const HrChartTheme theme_dark = {
  .background = RGB (0x24, 0x24, 0x24),
  .foreground = RGB (0xff, 0xff, 0xff),
  .muted = RGB (0xc0, 0xbf, 0xbc),
  .grid = RGB (0x3a, 0x3a, 0x3c),
  .axis = RGB (0x77, 0x76, 0x7b),
  .track = RGB (0x30, 0x30, 0x33),
  .physical = RGB (0xff, 0xff, 0xff),
  .usable = RGB (0xff, 0xff, 0xff),
  .fits = RGB (0x8f, 0xf0, 0xa4),      /* @success_color, dark */
  .tight = RGB (0xf8, 0xe4, 0x5c),     /* @warning_color, dark */
  .exceeds = RGB (0xff, 0x7b, 0x63),   /* @error_color, dark */
  .unknown = RGB (0x9a, 0x99, 0x96),
  .series = {
    RGB (0x3d, 0x9b, 0xe0),
    RGB (0xe0, 0x8f, 0xc0),
    RGB (0x9c, 0xd8, 0xf8),
    RGB (0x9a, 0x99, 0x96),
    RGB (0xf0, 0xb4, 0x2a),
  },
  .draft = RGB (0x3d, 0xc9, 0x9b),
  .font_family = HR_CHART_FONTS,
  .font_size = 12.0,
};

#define DATA(type) sizeof (type), G_STRUCT_OFFSET (type, heading.title)

/* The chart registry: one entry per HrChartKind, in its order. */
static const HrChartInfo chart_registry[HR_CHART_N_KINDS] = {
  [HR_CHART_BREAKDOWN] = {
    "breakdown", N_("Memory breakdown"), DATA (HrChartBreakdown),
    hr_chart_breakdown_paint, 200, 230, 520, hr_chart_breakdown_describe,
  },
  [HR_CHART_CONTEXT] = {
    "context", N_("Memory by context"), DATA (HrChartContext),
    hr_chart_context_paint, 260, 320, 720, hr_chart_context_describe,
  },
  [HR_CHART_QUANT] = {
    "quant", N_("Quantizations"), DATA (HrChartQuant),
    hr_chart_quant_paint, 240, 320, 720, hr_chart_quant_describe,
  },
  [HR_CHART_COMPARE] = {
    "compare", N_("GPU comparison"), DATA (HrChartCompare),
    hr_chart_compare_paint, 240, 320, 720, hr_chart_compare_describe,
  },
  [HR_CHART_FINETUNE] = {
    "finetune", N_("Fine-tuning memory"), DATA (HrChartFinetune),
    hr_chart_finetune_paint, 240, 320, 700, hr_chart_finetune_describe,
  },
  [HR_CHART_TCO] = {
    "tco", N_("Rent versus buy"), DATA (HrChartTco),
    hr_chart_tco_paint, 240, 320, 720, hr_chart_tco_describe,
  },
  [HR_CHART_FIT] = {
    "fit", N_("What runs here"), DATA (HrChartFit),
    hr_chart_fit_paint, 280, 400, 760, hr_chart_fit_describe,
  },
  [HR_CHART_LOAD] = {
    "load", N_("Throughput under load"), DATA (HrChartLoad),
    hr_chart_load_paint, 260, 360, 720, hr_chart_load_describe,
  },
};

const HrChartTheme *
hr_chart_theme_light (void)
{
  return &theme_light;
}

const HrChartTheme *
hr_chart_theme_dark (void)
{
  return &theme_dark;
}

/* What each HrChartVerdict shows: its name, a glyph that survives greyscale printing and
 * colour-blindness (all in DejaVu Sans), and its colour in a theme. */
typedef struct
{
  const char *display;          /* N_() */
  const char *glyph;
  gsize color_offset;           /* offsetof its HrChartRgba in HrChartTheme */
} VerdictLook;

static const VerdictLook verdict_looks[] = {
  [HR_CHART_VERDICT_FITS] = { N_("Fits with margin"), "\u2713" /* ✓ */,
                              G_STRUCT_OFFSET (HrChartTheme, fits) },
  [HR_CHART_VERDICT_TIGHT] = { N_("Tight fit"), "\u26a0" /* ⚠ */,
                               G_STRUCT_OFFSET (HrChartTheme, tight) },
  [HR_CHART_VERDICT_EXCEEDS] = { N_("Does not fit"), "\u2717" /* ✗ */,
                                 G_STRUCT_OFFSET (HrChartTheme, exceeds) },
  [HR_CHART_VERDICT_UNKNOWN] = { N_("Unknown"), "?", G_STRUCT_OFFSET (HrChartTheme, unknown) },
};

/* Out-of-range values look like "unknown". */
static const VerdictLook *
verdict_look (HrChartVerdict verdict)
{
  if ((guint) verdict >= G_N_ELEMENTS (verdict_looks))
    verdict = HR_CHART_VERDICT_UNKNOWN;
  return &verdict_looks[verdict];
}

const HrChartRgba *
hr_chart_theme_verdict_color (const HrChartTheme *theme,
                              HrChartVerdict      verdict)
{
  g_return_val_if_fail (theme != NULL, NULL);

  return (const HrChartRgba *) ((const char *) theme + verdict_look (verdict)->color_offset);
}

const HrChartInfo *
hr_chart_info (HrChartKind kind)
{
  if ((guint) kind >= HR_CHART_N_KINDS)
    return NULL;
  return &chart_registry[kind];
}

const char *
hr_chart_data_title (HrChartKind  kind,
                     const void  *data)
{
  const HrChartInfo *info = hr_chart_info (kind);

  if (info == NULL || data == NULL)
    return "";
  return (const char *) data + info->title_offset;
}

char *
hr_chart_kind_list (const char *separator)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; i < HR_CHART_N_KINDS; i++)
    g_string_append_printf (list, "%s%s", i > 0 ? separator : "", chart_registry[i].id);
  return g_string_free (list, FALSE);
}

const char *
hr_chart_kind_to_string (HrChartKind kind)
{
  const HrChartInfo *info = hr_chart_info (kind);

  return info != NULL ? info->id : NULL;
}

gboolean
hr_chart_kind_from_string (const char  *str,
                           HrChartKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < HR_CHART_N_KINDS; i++)
    if (g_ascii_strcasecmp (str, chart_registry[i].id) == 0)
      {
        *kind = (HrChartKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_chart_verdict_display (HrChartVerdict verdict)
{
  return _(verdict_look (verdict)->display);
}

const char *
hr_chart_verdict_glyph (HrChartVerdict verdict)
{
  return verdict_look (verdict)->glyph;
}

void
hr_chart_draw (HrChartKind         kind,
               cairo_t            *cr,
               double              width,
               double              height,
               const void         *data,
               const HrChartTheme *theme)
{
  const HrChartInfo *info = hr_chart_info (kind);

  HrCanvas c;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (info != NULL);

  if (!hr_canvas_begin_chart (&c, cr, width, height, theme, data))
    return;
  info->draw (&c, data);
  hr_canvas_end (&c);
}
