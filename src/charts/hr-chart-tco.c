/* hr-chart-tco.c — rent versus buy: cumulative cost over the months
 *
 * Two lines (solid = buy, dashed = cloud), the gap between them tinted in the colour of the
 * cheaper option, and the break-even month marked and labelled.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

static const double dash_cloud[] = { 8, 4 };

static const char *
usd_tick (char         *buf,
          gsize         size,
          const HrAxis *axis,
          double        value)
{
  return hr_fmt_usd_short (buf, size, value);
}

static gboolean
point_ok (const HrChartTco *data,
          int               i,
          gboolean          cloud)
{
  double v = cloud ? data->cloud_usd[i] : data->buy_usd[i];

  return isfinite (data->month[i]) && isfinite (v);
}

static void
stroke_series (HrCanvas         *c,
               const HrChartTco *data,
               int               n,
               gboolean          cloud,
               const HrAxis     *xa,
               const HrAxis     *ya,
               const HrRect     *r)
{
  gboolean started = FALSE;

  for (int i = 0; i < n; i++)
    {
      double x, y;

      if (!point_ok (data, i, cloud))
        {
          started = FALSE;
          continue;
        }
      x = hr_axis_map (xa, data->month[i], r->x, r->x + r->w);
      y = hr_axis_map (ya, cloud ? data->cloud_usd[i] : data->buy_usd[i], r->y + r->h, r->y);
      if (started)
        cairo_line_to (c->cr, x, y);
      else
        cairo_move_to (c->cr, x, y);
      started = TRUE;
    }
  cairo_save (c->cr);
  cairo_set_line_width (c->cr, MAX (2.2, c->fs * 0.2));
  cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
  if (cloud)
    cairo_set_dash (c->cr, dash_cloud, 2, 0);
  hr_canvas_set_color (c, cloud ? &c->theme->series[1] : &c->theme->series[0], 1.0);
  cairo_stroke (c->cr);
  cairo_restore (c->cr);
}

/* Tints the area between the lines, segment by segment, in the colour of the cheaper one. */
static void
fill_gap (HrCanvas         *c,
          const HrChartTco *data,
          int               n,
          const HrAxis     *xa,
          const HrAxis     *ya,
          const HrRect     *r)
{
  for (int i = 0; i + 1 < n; i++)
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
label_gap (HrCanvas         *c,
           const HrChartTco *data,
           int               n,
           double            m0,
           double            m1,
           const HrAxis     *xa,
           const HrAxis     *ya,
           const HrRect     *r)
{
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
      double ck = series_at (data, n, TRUE, m + k * dm), bk = series_at (data, n, FALSE, m + k * dm);
      double y_c = hr_axis_map (ya, ck, r->y + r->h, r->y), y_b = hr_axis_map (ya, bk, r->y + r->h,
                                                                               r->y);

      if (!isfinite (ck) || !isfinite (bk) || fabs (y_c - y_b) < th * 1.6
          || MIN (y_c, y_b) > (yc + yb) / 2 - th * 0.7 || MAX (y_c, y_b) < (yc + yb) / 2 + th * 0.7)
        return;
    }
  hr_canvas_text (c, text, HR_TEXT_SMALL, hr_axis_map (xa, m, r->x, r->x + r->w), (yc + yb) / 2,
                  0.5, 0.5, -1, cloud < buy ? &c->theme->series[1] : &c->theme->series[0]);
}

void
hr_chart_tco_draw (cairo_t            *cr,
                   double              width,
                   double              height,
                   const HrChartTco   *data,
                   const HrChartTheme *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  HrLegendItem legend[2];
  HrMarkLabel mark;
  char cloud_text[HR_CHART_LABEL_LEN + 64], buy_text[HR_CHART_LABEL_LEN + 64], mark_text[96];
  char a[48], b[48], end_text[2][64];
  double max_m = 0, max_usd = 0, y, legend_h, axis_h, lh, yaxis_w, x0, x1, y0, y1, end_w = 0;
  gboolean cloud_known = FALSE, buy_known = FALSE, has_mark = FALSE;
  int n, n_tiers = 0;
  HrAxis xa, ya;
  HrRect plot;
  g_autoptr(GString) summary = g_string_new (NULL);

  if (!hr_canvas_begin (c, cr, width, height, theme))
    return;
  t = c->theme;
  hr_canvas_background (c);
  if (data == NULL)
    {
      HrRect r = { 0, 0, width, height };

      hr_canvas_message (c, &r, _("No data"));
      hr_canvas_end (c);
      return;
    }

  n = CLAMP (data->n_points, 0, HR_CHART_MAX_MONTHS);
  for (int i = 0; i < n; i++)
    {
      if (!isfinite (data->month[i]))
        continue;
      if (point_ok (data, i, TRUE))
        {
          cloud_known = TRUE;
          max_usd = MAX (max_usd, data->cloud_usd[i]);
          max_m = MAX (max_m, data->month[i]);
        }
      if (point_ok (data, i, FALSE))
        {
          buy_known = TRUE;
          max_usd = MAX (max_usd, data->buy_usd[i]);
          max_m = MAX (max_m, data->month[i]);
        }
    }

  y = hr_canvas_header (c, data->title, data->subtitle, HR_CHART_VERDICT_UNKNOWN, NULL);

  /* Summary: monthly figures and the verdict of the comparison in words */
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
  hr_canvas_text_measure (c, summary->str, HR_TEXT_SUBTITLE, NULL, &lh);
  hr_canvas_text (c, summary->str, HR_TEXT_SUBTITLE, c->pad, y, 0, 0, width - 2 * c->pad,
                  &t->foreground);
  y += lh + c->fs * 0.8;

  if (!cloud_known && !buy_known)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("The cloud price and the hardware price are unknown."));
      hr_canvas_end (c);
      return;
    }

  g_snprintf (cloud_text, sizeof cloud_text, "%s", data->cloud_label[0] ? data->cloud_label
                                                                         : _("Rent in the cloud"));
  g_snprintf (buy_text, sizeof buy_text, "%s", data->buy_label[0] ? data->buy_label
                                                                   : _("Buy the hardware"));
  if (!cloud_known)
    g_strlcat (cloud_text, _(" (price unknown)"), sizeof cloud_text);
  if (!buy_known)
    g_strlcat (buy_text, _(" (price unknown)"), sizeof buy_text);
  legend[0] = (HrLegendItem) { buy_text, &t->series[0], HR_SWATCH_LINE, -1 };
  legend[1] = (HrLegendItem) { cloud_text, &t->series[1], HR_SWATCH_DASH, -1 };
  legend_h = hr_canvas_legend (c, legend, 2, c->pad, 0, width - 2 * c->pad, FALSE);

  /* End values in a right margin */
  for (int k = 0; k < 2; k++)
    {
      double v = NAN, w;

      for (int i = n - 1; i >= 0; i--)
        if (point_ok (data, i, k == 1))
          {
            v = k == 1 ? data->cloud_usd[i] : data->buy_usd[i];
            break;
          }
      hr_fmt_usd (end_text[k], sizeof end_text[k], v);
      hr_canvas_text_measure (c, end_text[k], HR_TEXT_VALUE, &w, NULL);
      end_w = MAX (end_w, w);
    }

  axis_h = hr_canvas_xaxis_height (c, _("Months"));
  hr_canvas_text_measure (c, "Hg", HR_TEXT_LABEL, NULL, &lh);
  y1 = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0) - axis_h;
  hr_axis_linear (&ya, 0, MAX (max_usd * 1.05, 1), MAX (2, (int) ((y1 - y) / (lh * 2.5))));
  yaxis_w = hr_canvas_yaxis_width (c, &ya, usd_tick, _("Cumulative cost"));
  x0 = c->pad + yaxis_w;
  x1 = width - c->pad - end_w - c->fs * 0.8;
  if (x1 - x0 < c->fs * 4 || y1 - y < c->fs * 3)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  hr_axis_linear (&xa, 0, MAX (max_m, 1), hr_canvas_xaxis_max_ticks (c, x1 - x0, "888"));
  /* Months read best in years: prefer steps of 6, 12 or 24 when the range allows. */
  if (max_m >= 24)
    {
      double step = max_m <= 36 ? 6 : max_m <= 96 ? 12 : 24;
      int max_ticks = hr_canvas_xaxis_max_ticks (c, x1 - x0, "888");

      while (ceil (max_m / step) + 1 > max_ticks)
        step *= 2;
      xa.step = step;
      xa.decimals = 0;
      xa.min = 0;
      xa.max = ceil (max_m / step) * step;
      xa.n_ticks = 0;
      for (double m = 0; m <= xa.max + 1e-9 && xa.n_ticks < HR_AXIS_MAX_TICKS; m += step)
        xa.ticks[xa.n_ticks++] = m;
    }

  if (isfinite (data->break_even_month) && data->break_even_month >= 0
      && data->break_even_month <= xa.max)
    {
      g_snprintf (mark_text, sizeof mark_text, _("break-even: %.1f months"),
                  data->break_even_month);
      mark = (HrMarkLabel) {
        .text = mark_text,
        .x = hr_axis_map (&xa, data->break_even_month, x0, x1),
        .prefer_left = FALSE,
        .color = &t->foreground,
      };
      has_mark = TRUE;
      n_tiers = hr_canvas_place_marks (c, &mark, 1, c->pad, width - c->pad);
    }
  y0 = y + n_tiers * hr_canvas_marks_tier_height (c) + lh * 0.5;
  if (y1 - y0 < c->fs * 3)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, summary->str);
      hr_canvas_end (c);
      return;
    }
  hr_axis_linear (&ya, 0, MAX (max_usd * 1.05, 1), MAX (2, (int) ((y1 - y0) / (lh * 2.5))));
  plot = (HrRect) { x0, y0, x1 - x0, y1 - y0 };

  hr_canvas_xaxis (c, &xa, NULL, x0, x1, y0, y1, _("Months"));
  hr_canvas_yaxis (c, &ya, usd_tick, c->pad, x0, x1, y1, y0, _("Cumulative cost"));

  cairo_save (c->cr);
  cairo_rectangle (c->cr, x0, y0 - 2, x1 - x0, y1 - y0 + 4);
  cairo_clip (c->cr);
  if (cloud_known && buy_known)
    {
      fill_gap (c, data, n, &xa, &ya, &plot);
      if (isfinite (data->break_even_month) && data->break_even_month > 0
          && data->break_even_month < max_m)
        {
          label_gap (c, data, n, 0, data->break_even_month, &xa, &ya, &plot);
          label_gap (c, data, n, data->break_even_month, max_m, &xa, &ya, &plot);
        }
      else if (!isnan (data->break_even_month))
        label_gap (c, data, n, 0, max_m, &xa, &ya, &plot);
    }
  if (buy_known)
    stroke_series (c, data, n, FALSE, &xa, &ya, &plot);
  if (cloud_known)
    stroke_series (c, data, n, TRUE, &xa, &ya, &plot);
  cairo_restore (c->cr);

  if (has_mark)
    {
      static const double dots[] = { 2, 3 };
      double bx = hr_canvas_snap (c, mark.x, 1);
      double cost = NAN;

      hr_canvas_line (c, bx, y0, bx, y1, MAX (c->px, 1.0), &t->foreground, dots, 2);
      hr_canvas_draw_marks (c, &mark, 1, n_tiers, y0);
      /* The crossing: where buying's line meets the cloud's */
      cost = series_at (data, n, TRUE, data->break_even_month);
      if (isfinite (cost))
        {
          double py = hr_axis_map (&ya, cost, y1, y0);

          hr_canvas_marker (c, HR_MARKER_CIRCLE, mark.x, py, c->fs * 0.75, &t->foreground);
          hr_canvas_text_boxed (c, hr_fmt_usd (a, sizeof a, cost), HR_TEXT_STRONG,
                                mark.x - c->fs * 0.6, py - c->fs * 0.4, 1, 1, -1,
                                &t->foreground);
        }
    }

  /* End values, spread apart */
  {
    double pos[2], size[2], v[2] = { NAN, NAN };
    int k0;

    for (int k = 0; k < 2; k++)
      for (int i = n - 1; i >= 0; i--)
        if (point_ok (data, i, k == 1))
          {
            v[k] = k == 1 ? data->cloud_usd[i] : data->buy_usd[i];
            break;
          }
    /* top first */
    k0 = (isfinite (v[1]) && (!isfinite (v[0]) || v[1] > v[0])) ? 1 : 0;
    for (int j = 0; j < 2; j++)
      {
        int k = j == 0 ? k0 : 1 - k0;

        pos[j] = isfinite (v[k]) ? hr_axis_map (&ya, v[k], y1, y0) : NAN;
        size[j] = lh;
      }
    if (isfinite (pos[0]) && isfinite (pos[1]))
      hr_spread (pos, size, 2, 1, y0, y1);
    for (int j = 0; j < 2; j++)
      {
        int k = j == 0 ? k0 : 1 - k0;

        if (isfinite (pos[j]))
          hr_canvas_text (c, end_text[k], HR_TEXT_VALUE, x1 + c->fs * 0.5, pos[j], 0, 0.5, -1,
                          k == 1 ? &t->series[1] : &t->series[0]);
      }
  }

  hr_canvas_legend (c, legend, 2, c->pad, height - c->pad - legend_h, width - 2 * c->pad, TRUE);
  hr_canvas_end (c);
}
