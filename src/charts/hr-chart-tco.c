/* hr-chart-tco.c — rent versus buy: cumulative cost over the months
 *
 * Two lines (solid = buy, dashed = cloud), the gap between them tinted in the colour of the
 * cheaper option, and the break-even month marked and labelled.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

static const double dash_cloud[] = { 8, 4 };

/* Where everything goes, computed in one step under the header and the summary line. */
typedef struct
{
  HrCanvas *c;
  const HrChartTco *data;
  int n;
  gboolean cloud_known, buy_known;
  double max_m, max_usd;
  HrLegendItem legend[2];           /* buy, cloud */
  char buy_text[HR_CHART_LABEL_LEN + 64], cloud_text[HR_CHART_LABEL_LEN + 64];
  double legend_h;
  double end_v[2];                  /* the last known buy and cloud costs */
  char end_text[2][64];
  double end_w;
  double lh, x0, x1, y0, y1;
  HrAxis xa, ya;
  HrRect plot;
  HrMarks marks;                    /* the break-even month */
} Layout;

static gboolean
point_ok (const HrChartTco *data,
          int               i,
          gboolean          cloud)
{
  double v = cloud ? data->cloud_usd[i] : data->buy_usd[i];

  return isfinite (data->month[i]) && isfinite (v);
}

static void
stroke_series (const Layout *l,
               gboolean      cloud)
{
  HrCanvas *c = l->c;
  const HrChartTco *data = l->data;
  const HrRect *r = &l->plot;
  const HrStroke stroke = { MAX (2.2, c->fs * 0.2), cloud ? &c->theme->series[1] : &c->theme->series[0],
                            cloud ? dash_cloud : NULL };
  gboolean keep[HR_CHART_MAX_MONTHS];

  for (int i = 0; i < l->n; i++)
    keep[i] = point_ok (data, i, cloud);
  hr_canvas_series (c, &l->xa, r->x, r->x + r->w, &l->ya, r->y + r->h, r->y, data->month,
                    cloud ? data->cloud_usd : data->buy_usd, keep, l->n, &stroke);
}

/* Tints the area between the lines, segment by segment, in the colour of the cheaper one. */
static void
fill_gap (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartTco *data = l->data;
  const HrAxis *xa = &l->xa, *ya = &l->ya;
  const HrRect *r = &l->plot;

  for (int i = 0; i + 1 < l->n; i++)
    {
      double xa0, xa1, c0, c1, b0, b1;

      if (!point_ok (data, i, TRUE) || !point_ok (data, i, FALSE)
          || !point_ok (data, i + 1, TRUE) || !point_ok (data, i + 1, FALSE))
        continue;
      xa0 = hr_axis_map (xa, data->month[i], r->x, r->x + r->w);
      xa1 = hr_axis_map (xa, data->month[i + 1], r->x, r->x + r->w);
      c0 = hr_axis_map (ya, data->cloud_usd[i], r->y + r->h, r->y);
      c1 = hr_axis_map (ya, data->cloud_usd[i + 1], r->y + r->h, r->y);
      b0 = hr_axis_map (ya, data->buy_usd[i], r->y + r->h, r->y);
      b1 = hr_axis_map (ya, data->buy_usd[i + 1], r->y + r->h, r->y);
      cairo_move_to (c->cr, xa0, c0);
      cairo_line_to (c->cr, xa1, c1);
      cairo_line_to (c->cr, xa1, b1);
      cairo_line_to (c->cr, xa0, b0);
      cairo_close_path (c->cr);
      /* Screen y grows downwards: cloud below buy on screen means cloud costs more. */
      hr_canvas_set_color (c, (c0 + c1) > (b0 + b1) ? &c->theme->series[1] : &c->theme->series[0],
                           0.13);
      cairo_fill (c->cr);
    }
}

/* The series at @month, interpolated between its points; NAN outside or unknown. */
static double
series_at (const HrChartTco *data,
           int               n,
           gboolean          cloud,
           double            month)
{
  for (int i = 0; i + 1 < n; i++)
    if (point_ok (data, i, cloud) && point_ok (data, i + 1, cloud)
        && data->month[i] <= month && data->month[i + 1] >= month)
      {
        const double *v = cloud ? data->cloud_usd : data->buy_usd;
        double span = data->month[i + 1] - data->month[i];
        double f = span > 0 ? (month - data->month[i]) / span : 0;

        return v[i] + f * (v[i + 1] - v[i]);
      }
  return NAN;
}

/* "renting is cheaper" / "buying is cheaper" inside the tinted gap, where it has room. */
static void
label_gap (const Layout *l,
           double        m0,
           double        m1)
{
  HrCanvas *c = l->c;
  const HrChartTco *data = l->data;
  const HrAxis *xa = &l->xa, *ya = &l->ya;
  const HrRect *r = &l->plot;
  int n = l->n;
  double m = (m0 + m1) / 2, cloud = series_at (data, n, TRUE, m);
  double buy = series_at (data, n, FALSE, m), yc, yb, tw, th, dm;
  const char *text;

  if (!isfinite (cloud) || !isfinite (buy))
    return;
  text = cloud < buy ? _("renting is cheaper") : _("buying is cheaper");
  hr_canvas_text_measure (c, text, HR_TEXT_SMALL, &tw, &th);
  yc = hr_axis_map (ya, cloud, r->y + r->h, r->y);
  yb = hr_axis_map (ya, buy, r->y + r->h, r->y);
  if (hr_axis_map (xa, m1, r->x, r->x + r->w) - hr_axis_map (xa, m0, r->x, r->x + r->w)
      < tw + c->fs * 2)
    return;
  /* The lines converge: the gap must hold the text at both of its ends, not just mid-way */
  dm = (tw / 2 + c->fs * 0.3) / (r->w / (xa->max - xa->min));
  for (int k = -1; k <= 1; k += 2)
    {
      double ck = series_at (data, n, TRUE, m + k * dm);
      double bk = series_at (data, n, FALSE, m + k * dm);
      double y_c = hr_axis_map (ya, ck, r->y + r->h, r->y);
      double y_b = hr_axis_map (ya, bk, r->y + r->h, r->y);

      if (!isfinite (ck) || !isfinite (bk) || fabs (y_c - y_b) < th * 1.6
          || MIN (y_c, y_b) > (yc + yb) / 2 - th * 0.7 || MAX (y_c, y_b) < (yc + yb) / 2 + th * 0.7)
        return;
    }
  hr_canvas_text (c, text, &(HrTextSpec) { .style = HR_TEXT_SMALL,
                    .x = hr_axis_map (xa, m, r->x, r->x + r->w), .y = (yc + yb) / 2, .xalign = 0.5,
                    .yalign = 0.5,
                    .color = cloud < buy ? &c->theme->series[1] : &c->theme->series[0] });
}

static void
scan_points (Layout *l)
{
  const HrChartTco *data = l->data;

  for (int i = 0; i < l->n; i++)
    {
      if (!isfinite (data->month[i]))
        continue;
      if (point_ok (data, i, TRUE))
        {
          l->cloud_known = TRUE;
          l->max_usd = MAX (l->max_usd, data->cloud_usd[i]);
          l->max_m = MAX (l->max_m, data->month[i]);
        }
      if (point_ok (data, i, FALSE))
        {
          l->buy_known = TRUE;
          l->max_usd = MAX (l->max_usd, data->buy_usd[i]);
          l->max_m = MAX (l->max_m, data->month[i]);
        }
    }
}

/* Monthly figures and the verdict of the comparison in words */
static GString *
summary_text (const HrChartTco *data)
{
  GString *summary = g_string_new (NULL);
  char a[48], b[48];

  if (isfinite (data->cloud_monthly_usd))
    g_string_append_printf (summary, _("Cloud %s/month"),
                            hr_fmt_usd (a, sizeof a, data->cloud_monthly_usd));
  else
    g_string_append (summary, _("Cloud price unknown"));
  g_string_append (summary, "  ·  ");
  if (isfinite (data->hardware_usd))
    g_string_append_printf (summary, _("hardware %s + electricity %s/month"),
                            hr_fmt_usd (a, sizeof a, data->hardware_usd),
                            hr_fmt_usd (b, sizeof b, data->electricity_monthly_usd));
  else
    g_string_append (summary, _("hardware price unknown"));
  g_string_append (summary, "  ·  ");
  if (isnan (data->break_even_month))
    g_string_append (summary, _("break-even unknown"));
  else if (!isfinite (data->break_even_month))
    g_string_append (summary, _("buying never pays off at this usage"));
  else
    g_string_append_printf (summary, _("buying pays off after %.1f months"),
                            data->break_even_month);
  return summary;
}

static void
layout_legend (Layout *l)
{
  const HrChartTco *data = l->data;
  const HrChartTheme *t = l->c->theme;

  g_snprintf (l->cloud_text, sizeof l->cloud_text, "%s",
              data->cloud_label[0] ? data->cloud_label : _("Rent in the cloud"));
  g_snprintf (l->buy_text, sizeof l->buy_text, "%s",
              data->buy_label[0] ? data->buy_label : _("Buy the hardware"));
  if (!l->cloud_known)
    g_strlcat (l->cloud_text, _(" (price unknown)"), sizeof l->cloud_text);
  if (!l->buy_known)
    g_strlcat (l->buy_text, _(" (price unknown)"), sizeof l->buy_text);
  l->legend[0] = (HrLegendItem) { l->buy_text, &t->series[0], HR_SWATCH_LINE, -1 };
  l->legend[1] = (HrLegendItem) { l->cloud_text, &t->series[1], HR_SWATCH_DASH, -1 };
  l->legend_h = hr_canvas_legend_height (l->c, l->legend, 2);
}

/* End values in a right margin */
static void
layout_end_values (Layout *l)
{
  for (int k = 0; k < 2; k++)
    {
      double w;

      l->end_v[k] = NAN;
      for (int i = l->n - 1; i >= 0; i--)
        if (point_ok (l->data, i, k == 1))
          {
            l->end_v[k] = k == 1 ? l->data->cloud_usd[i] : l->data->buy_usd[i];
            break;
          }
      hr_fmt_usd (l->end_text[k], sizeof l->end_text[k], l->end_v[k]);
      hr_canvas_text_measure (l->c, l->end_text[k], HR_TEXT_VALUE, &w, NULL);
      l->end_w = MAX (l->end_w, w);
    }
}

/* Months read best in years: prefer steps of 6, 12 or 24 when the range allows. */
static void
layout_month_axis (Layout *l)
{
  HrCanvas *c = l->c;
  double max_m = l->max_m, step;
  int max_ticks;

  hr_axis_linear (&l->xa, 0, MAX (max_m, 1), hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "888"));
  if (max_m < 24)
    return;
  step = max_m <= 36 ? 6 : max_m <= 96 ? 12 : 24;
  max_ticks = hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "888");
  while (ceil (max_m / step) + 1 > max_ticks)
    step *= 2;
  l->xa.step = step;
  l->xa.decimals = 0;
  l->xa.min = 0;
  l->xa.max = ceil (max_m / step) * step;
  l->xa.n_ticks = 0;
  for (double m = 0; m <= l->xa.max + 1e-9 && l->xa.n_ticks < HR_AXIS_MAX_TICKS; m += step)
    l->xa.ticks[l->xa.n_ticks++] = m;
}

static void
layout_mark (Layout *l)
{
  double be = l->data->break_even_month;
  char text[96];

  if (!(isfinite (be) && be >= 0 && be <= l->xa.max))
    return;
  g_snprintf (text, sizeof text, _("break-even: %.1f months"), be);
  hr_marks_add (&l->marks, text, hr_axis_map (&l->xa, be, l->x0, l->x1), FALSE,
                &l->c->theme->foreground);
  hr_canvas_place_marks (l->c, &l->marks);
}

/* Everything under @top; NULL, or the message to show instead of the plot. */
static const char *
layout (Layout     *l,
        double      top,
        const char *summary)
{
  HrCanvas *c = l->c;
  double axis_h;

  layout_legend (l);
  layout_end_values (l);
  axis_h = hr_canvas_xaxis_height (c, _("Months"));
  l->lh = hr_canvas_line_height (c, HR_TEXT_LABEL);
  l->y1 = hr_canvas_above_legend (c, l->legend_h) - axis_h;
  hr_axis_linear (&l->ya, 0, MAX (l->max_usd * 1.05, 1),
                  MAX (2, (int) ((l->y1 - top) / (l->lh * 2.5))));
  l->x0 = c->pad + hr_canvas_yaxis_width (c, &l->ya, hr_fmt_usd_tick, _("Cumulative cost"));
  l->x1 = c->width - c->pad - l->end_w - c->fs * 0.8;
  if (l->x1 - l->x0 < c->fs * 4 || l->y1 - top < c->fs * 3)
    return _("Too small to draw");
  layout_month_axis (l);
  layout_mark (l);
  l->y0 = top + l->marks.n_tiers * hr_canvas_marks_tier_height (c) + l->lh * 0.5;
  if (l->y1 - l->y0 < c->fs * 3)
    return summary;
  hr_axis_linear (&l->ya, 0, MAX (l->max_usd * 1.05, 1),
                  MAX (2, (int) ((l->y1 - l->y0) / (l->lh * 2.5))));
  l->plot = (HrRect) { l->x0, l->y0, l->x1 - l->x0, l->y1 - l->y0 };
  return NULL;
}

/* The lines, and between them the tint and words of the cheaper option */
static void
draw_series (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartTco *data = l->data;
  double be = data->break_even_month;

  cairo_save (c->cr);
  cairo_rectangle (c->cr, l->x0, l->y0 - 2, l->x1 - l->x0, l->y1 - l->y0 + 4);
  cairo_clip (c->cr);
  if (l->cloud_known && l->buy_known)
    {
      fill_gap (l);
      if (isfinite (be) && be > 0 && be < l->max_m)
        {
          label_gap (l, 0, be);
          label_gap (l, be, l->max_m);
        }
      else if (!isnan (be))
        label_gap (l, 0, l->max_m);
    }
  if (l->buy_known)
    stroke_series (l, FALSE);
  if (l->cloud_known)
    stroke_series (l, TRUE);
  cairo_restore (c->cr);
}

/* The break-even line and label, and the crossing where buying's line meets the cloud's */
static void
draw_break_even (const Layout *l)
{
  HrCanvas *c = l->c;
  static const double dots[] = { 2, 3 };
  double mx, bx, cost, py;
  char a[48];

  if (l->marks.n == 0)
    return;
  mx = l->marks.label[0].x;
  bx = hr_canvas_snap (c, mx, 1);
  hr_canvas_line (c, bx, l->y0, bx, l->y1,
                  &(HrStroke) { MAX (c->px, 1.0), &c->theme->foreground, dots });
  hr_canvas_draw_marks (c, &l->marks, l->y0);
  cost = series_at (l->data, l->n, TRUE, l->data->break_even_month);
  if (!isfinite (cost))
    return;
  py = hr_axis_map (&l->ya, cost, l->y1, l->y0);
  hr_canvas_marker (c, HR_MARKER_CIRCLE, mx, py, c->fs * 0.75, &c->theme->foreground);
  hr_canvas_text (c, hr_fmt_usd (a, sizeof a, cost), &(HrTextSpec) { .style = HR_TEXT_STRONG,
                    .x = mx - c->fs * 0.6, .y = py - c->fs * 0.4, .xalign = 1, .yalign = 1,
                    .boxed = TRUE });
}

/* End values, spread apart, the higher on top */
static void
draw_end_values (const Layout *l)
{
  HrCanvas *c = l->c;
  const double *v = l->end_v;
  double pos[2], size[2];
  int k0 = (isfinite (v[1]) && (!isfinite (v[0]) || v[1] > v[0])) ? 1 : 0;

  for (int j = 0; j < 2; j++)
    {
      int k = j == 0 ? k0 : 1 - k0;

      pos[j] = isfinite (v[k]) ? hr_axis_map (&l->ya, v[k], l->y1, l->y0) : NAN;
      size[j] = l->lh;
    }
  if (isfinite (pos[0]) && isfinite (pos[1]))
    hr_spread (pos, size, 2, 1, l->y0, l->y1);
  for (int j = 0; j < 2; j++)
    {
      int k = j == 0 ? k0 : 1 - k0;

      if (isfinite (pos[j]))
        hr_canvas_text (c, l->end_text[k], &(HrTextSpec) { .style = HR_TEXT_VALUE,
                          .x = l->x1 + c->fs * 0.5, .y = pos[j], .yalign = 0.5,
                          .color = k == 1 ? &c->theme->series[1] : &c->theme->series[0] });
    }
}

void
hr_chart_tco_paint (HrCanvas   *c,
                    const void *chart_data)
{
  const HrChartTco *data = chart_data;
  Layout l = { c, data };
  g_autoptr(GString) summary = NULL;
  const char *message;
  double top;

  l.n = CLAMP (data->n_points, 0, HR_CHART_MAX_MONTHS);
  scan_points (&l);
  top = hr_canvas_header (c, &data->heading, HR_CHART_VERDICT_UNKNOWN, NULL);
  summary = summary_text (data);
  top = hr_canvas_summary (c, summary->str, top);
  if (!l.cloud_known && !l.buy_known)
    {
      hr_canvas_message_below (c, top, _("The cloud price and the hardware price are unknown."));
      return;
    }
  if ((message = layout (&l, top, summary->str)) != NULL)
    {
      hr_canvas_message_below (c, top, message);
      return;
    }

  hr_canvas_xaxis (c, &l.xa, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 }, _("Months"));
  hr_canvas_yaxis (c, &l.ya, hr_fmt_usd_tick, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 },
                   _("Cumulative cost"));
  draw_series (&l);
  draw_break_even (&l);
  draw_end_values (&l);
  hr_canvas_legend_bottom (c, l.legend, 2, l.legend_h);
}
