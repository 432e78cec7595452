/* hr-chart-fit.c — What Runs Here: quality against decode speed, one point per model that fits
 *
 * Decode speed on a log axis (a 0.6B and a 32B model differ tenfold), the published quality at
 * the quant up the side.  A circle fits with margin, a square fits only tight (never told by
 * colour alone); the frontier — the models nothing beats on both — is joined by a line and
 * named.  The summary line says what the usable memory left out and what has no figure.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

typedef struct
{
  HrCanvas *c;
  const HrChartFit *data;
  int n;                            /* points drawn (known quality and speed) */
  double min_tps, max_tps, min_q, max_q;
  HrLegendItem legend[3];
  double legend_h;
  double lh, x0, x1, y0, y1;
  HrAxis xa, ya;
  HrRect names[HR_CHART_MAX_FIT];   /* the point names drawn so far */
  int n_names;
} Layout;

static gboolean
point_ok (const HrChartFitPoint *p)
{
  return isfinite (p->quality) && isfinite (p->decode_tps) && p->decode_tps > 0;
}

static void
scan_points (Layout *l)
{
  l->min_tps = INFINITY;
  l->min_q = INFINITY;
  for (int i = 0; i < CLAMP (l->data->n_points, 0, HR_CHART_MAX_FIT); i++)
    {
      const HrChartFitPoint *p = &l->data->points[i];

      if (!point_ok (p))
        continue;
      l->n++;
      l->min_tps = MIN (l->min_tps, p->decode_tps);
      l->max_tps = MAX (l->max_tps, p->decode_tps);
      l->min_q = MIN (l->min_q, p->quality);
      l->max_q = MAX (l->max_q, p->quality);
    }
}

/* The quality axis starts at 0 for an index (Artificial Analysis': 6 to 52 on 0–100), but an
 * arena score (1291 to 1415) would be a flat line near the top of 0–1560: when every point is
 * in the upper half of the range, the axis starts a tenth of their spread below the lowest. */
static double
quality_axis_low (const Layout *l)
{
  if (l->n == 0 || l->min_q <= l->max_q * 0.5)
    return 0;
  return MAX (0, l->min_q - MAX ((l->max_q - l->min_q) * 0.1, 1));
}

/* "12 models fit in 22.8 GiB usable · 33 need more memory · 9 without a published quality" */
static GString *
summary_text (const HrChartFit *data)
{
  GString *s = g_string_new (NULL);
  char gib[48];

  g_string_append_printf (s, ngettext ("%d model fits in %s usable", "%d models fit in %s usable",
                                       data->n_fitting),
                          data->n_fitting, hr_fmt_gib (gib, sizeof gib, data->usable_gib));
  if (data->n_left_out > 0)
    {
      g_string_append (s, "  ·  ");
      g_string_append_printf (s, ngettext ("%d needs more memory or speed", "%d need more memory or speed",
                                           data->n_left_out), data->n_left_out);
    }
  if (data->n_unknown > 0)
    {
      g_string_append (s, "  ·  ");
      g_string_append_printf (s, ngettext ("%d without a published quality (not drawn)",
                                           "%d without a published quality (not drawn)",
                                           data->n_unknown), data->n_unknown);
    }
  return s;
}

static const char *
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;
  const HrChartTheme *t = c->theme;
  const char *ytitle = l->data->quality_name[0] ? l->data->quality_name : _("Quality");
  double axis_h;

  l->legend[0] = (HrLegendItem) { _("Fits with margin"), hr_chart_theme_verdict_color (t, HR_CHART_VERDICT_FITS),
                                  HR_SWATCH_DOT, HR_MARKER_CIRCLE, NULL };
  l->legend[1] = (HrLegendItem) { _("Fits only tight"), hr_chart_theme_verdict_color (t, HR_CHART_VERDICT_TIGHT),
                                  HR_SWATCH_DOT, HR_MARKER_SQUARE, NULL };
  l->legend[2] = (HrLegendItem) { _("Frontier: nothing is both better and faster"), &t->foreground,
                                  HR_SWATCH_LINE, -1, NULL };
  l->legend_h = hr_canvas_legend_height (c, l->legend, 3);
  axis_h = hr_canvas_xaxis_height (c, _("Decode speed (tokens/s, log scale)"));
  l->lh = hr_canvas_line_height (c, HR_TEXT_LABEL);
  l->y0 = top + l->lh * 0.5;
  l->y1 = hr_canvas_above_legend (c, l->legend_h) - axis_h;
  if (l->y1 - l->y0 < c->fs * 3)
    return _("Too small to draw");
  hr_axis_linear (&l->ya, quality_axis_low (l), MAX (l->max_q + MAX ((l->max_q - quality_axis_low (l)) * 0.1, 0.1), 1), MAX (2, (int) ((l->y1 - l->y0) / (l->lh * 2.5))));
  l->x0 = c->pad + hr_canvas_yaxis_width (c, &l->ya, NULL, ytitle);
  l->x1 = c->width - c->pad;
  if (l->x1 - l->x0 < c->fs * 4)
    return _("Too small to draw");
  hr_axis_log2 (&l->xa, MAX (l->min_tps / 1.5, 0.1), MAX (l->max_tps * 1.5, l->min_tps * 2),
                hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "8888"));
  return NULL;
}

static double
px (const Layout *l, double tps)
{
  return hr_axis_map (&l->xa, tps, l->x0, l->x1);
}

static double
py (const Layout *l, double q)
{
  return hr_axis_map (&l->ya, q, l->y1, l->y0);
}

static void label_point (Layout *l, const HrChartFitPoint *p);

/* The frontier's points joined in order of speed, and each named. */
static void
draw_frontier (Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartFit *d = l->data;
  int order[HR_CHART_MAX_FIT], n = 0;

  for (int i = 0; i < CLAMP (d->n_points, 0, HR_CHART_MAX_FIT); i++)
    if (d->points[i].frontier && point_ok (&d->points[i]))
      order[n++] = i;
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && d->points[order[b]].decode_tps < d->points[order[b - 1]].decode_tps; b--)
      {
        int t = order[b];
        order[b] = order[b - 1];
        order[b - 1] = t;
      }
  for (int k = 0; k + 1 < n; k++)
    hr_canvas_line (c, px (l, d->points[order[k]].decode_tps), py (l, d->points[order[k]].quality),
                    px (l, d->points[order[k + 1]].decode_tps), py (l, d->points[order[k + 1]].quality),
                    &(HrStroke) { MAX (1.5, c->fs * 0.12), &c->theme->foreground, NULL });
  for (int k = 0; k < n; k++)
    label_point (l, &d->points[order[k]]);
}

static gboolean
name_free (const Layout *l,
           const HrRect *r)
{
  double m = l->c->px;

  if (r->x < l->x0 - m || r->x + r->w > l->x1 + m || r->y < l->y0 - m || r->y + r->h > l->y1 + m)
    return FALSE;
  for (int i = 0; i < l->n_names; i++)
    {
      const HrRect *o = &l->names[i];

      if (r->x < o->x + o->w + m && o->x < r->x + r->w + m && r->y < o->y + o->h + m && o->y < r->y + r->h + m)
        return FALSE;
    }
  return TRUE;
}

/* A point's name beside it, towards the middle of the plot, above it; where that would cover
 * a name already drawn (two models of nearly the same quality and speed, in a narrow chart), on
 * its other side or below it; where every place would, left out: the chart's description still
 * names every point. */
static void
label_point (Layout                *l,
             const HrChartFitPoint *p)
{
  HrCanvas *c = l->c;
  double x = px (l, p->decode_tps), y = py (l, p->quality);
  double max_w = (l->x1 - l->x0) * 0.45, w, h;
  gboolean right = x < (l->x0 + l->x1) / 2;
  static const double yaligns[] = { 1.1, -0.1 };

  if (l->n_names >= HR_CHART_MAX_FIT)
    return;
  hr_canvas_text_measure (c, p->label, HR_TEXT_SMALL, &w, &h);
  w = MIN (w, max_w);
  for (guint k = 0; k < 4; k++)
    {
      gboolean r_side = (k % 2 == 0) ? right : !right;
      double yalign = yaligns[k / 2];
      double ax = x + (r_side ? c->fs * 0.7 : -c->fs * 0.7);
      HrRect box = { r_side ? ax : ax - w, y - yalign * h, w, h };

      if (!name_free (l, &box))
        continue;
      hr_canvas_text (c, p->label, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = ax, .y = y,
                        .xalign = r_side ? 0 : 1, .yalign = yalign, .boxed = TRUE, .max_width = max_w,
                        .color = p->frontier ? NULL : &c->theme->muted });
      l->names[l->n_names++] = box;
      return;
    }
}

/* With few points every one is named; with many only the frontier's are. */
static void
label_others (Layout *l)
{
  const HrChartFit *d = l->data;

  if (l->n > 12)
    return;
  for (int i = 0; i < CLAMP (d->n_points, 0, HR_CHART_MAX_FIT); i++)
    if (!d->points[i].frontier && point_ok (&d->points[i]))
      label_point (l, &d->points[i]);
}

static void
draw_points (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartFit *d = l->data;

  for (int i = 0; i < CLAMP (d->n_points, 0, HR_CHART_MAX_FIT); i++)
    {
      const HrChartFitPoint *p = &d->points[i];
      gboolean tight = p->verdict == HR_CHART_VERDICT_TIGHT;

      if (!point_ok (p))
        continue;
      hr_canvas_marker (c, tight ? HR_MARKER_SQUARE : HR_MARKER_CIRCLE, px (l, p->decode_tps),
                        py (l, p->quality), c->fs * (p->frontier ? 0.9 : 0.7),
                        hr_chart_theme_verdict_color (c->theme, tight ? HR_CHART_VERDICT_TIGHT
                                                                      : HR_CHART_VERDICT_FITS));
    }
}

void
hr_chart_fit_paint (HrCanvas   *c,
                    const void *chart_data)
{
  const HrChartFit *data = chart_data;
  Layout l = { c, data };
  g_autoptr(GString) summary = summary_text (data);
  const char *message;
  double top;

  scan_points (&l);
  top = hr_canvas_header (c, &data->heading, HR_CHART_VERDICT_UNKNOWN, NULL);
  top = hr_canvas_summary (c, summary->str, top);
  if (l.n == 0)
    {
      hr_canvas_message_below (c, top, data->n_fitting > 0
                                 ? _("No model that fits has a published quality figure.")
                                 : _("No model fits in the usable memory."));
      return;
    }
  if ((message = layout (&l, top)) != NULL)
    {
      hr_canvas_message_below (c, top, message);
      return;
    }
  hr_canvas_xaxis (c, &l.xa, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 },
                   _("Decode speed (tokens/s, log scale)"));
  hr_canvas_yaxis (c, &l.ya, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 },
                   data->quality_name[0] ? data->quality_name : _("Quality"));
  draw_points (&l);
  /* the frontier's names first: where two would collide, the frontier's stays */
  draw_frontier (&l);
  label_others (&l);
  hr_canvas_legend_bottom (c, l.legend, 3, l.legend_h);
}

char *
hr_chart_fit_describe (const void *chart_data)
{
  const HrChartFit *d = chart_data;
  g_autoptr(GString) summary = summary_text (d);
  GString *s = g_string_new (NULL);
  char q[48], v[48];

  g_string_append_printf (s, "%s. %s.", d->heading.title, summary->str);
  for (int i = 0; i < CLAMP (d->n_points, 0, HR_CHART_MAX_FIT); i++)
    {
      const HrChartFitPoint *p = &d->points[i];

      if (!point_ok (p))
        continue;
      g_string_append_c (s, ' ');
      g_string_append_printf (s, p->frontier ? _("%s: quality %s at %s, on the frontier.")
                                             : _("%s: quality %s at %s."),
                              p->label, hr_fmt_number (q, sizeof q, p->quality, 1),
                              hr_fmt_tps (v, sizeof v, p->decode_tps));
    }
  return g_string_free (s, FALSE);
}
