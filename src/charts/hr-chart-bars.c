/* hr-chart-bars.c — horizontal stacked bars with their value labels and callouts
 *
 * Shared by the memory breakdown and the fine-tuning chart: bars against a capacity, the
 * capacity lines across them.
 */

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-chart-private.h"

/* Readable text on a coloured segment: dark on light fills, white on dark ones. */
const HrChartRgba *
hr_text_on (const HrChartRgba *fill)
{
  static const HrChartRgba dark = { 0.1, 0.1, 0.12, 1 };
  static const HrChartRgba light = { 1, 1, 1, 1 };
  double l = 0.2126 * fill->red + 0.7152 * fill->green + 0.0722 * fill->blue;

  return l > 0.5 ? &dark : &light;
}

void
hr_bar_fill (HrCanvas     *c,
             const HrBars *bars,
             const double *values,
             double        y,
             double        h)
{
  gboolean hatched = bars->hatched;
  double start = 0;

  for (int s = 0; s < bars->n; s++)
    {
      double v = hr_chart_clean (values[s]);
      double a = hr_axis_map (bars->axis, start, bars->x0, bars->x1);
      double b = hr_axis_map (bars->axis, start + v, bars->x0, bars->x1);
      HrRect r = { a, y, b - a, h };

      if (v <= 0)
        continue;
      cairo_rectangle (c->cr, r.x, r.y, r.w, r.h);
      hr_canvas_set_color (c, bars->colors[s], hatched ? 0.3 : 1.0);
      cairo_fill (c->cr);
      if (hatched)
        hr_canvas_hatch (c, &r, bars->colors[s], 1.0, MAX (4.0, c->fs * 0.45));
      /* A hairline of background between segments keeps neighbours apart in greyscale. */
      if (start > 0)
        hr_canvas_line (c, a, y, a, y + h, &(HrStroke) { MAX (c->px, 1.0), &c->theme->background });
      start += v;
    }
}

void
hr_bar_against (HrCanvas     *c,
                const HrBars *bars,
                const double *values,
                double        y,
                double        h)
{
  const HrAxis *axis = bars->axis;
  double x0 = bars->x0, x1 = bars->x1, physical = bars->physical, usable = bars->usable;
  double total = 0;

  for (int s = 0; s < bars->n; s++)
    total += hr_chart_clean (values[s]);
  /* Empty capacity behind the bar */
  if (isfinite (physical) && physical > 0)
    {
      cairo_rectangle (c->cr, x0, y, hr_axis_map (axis, physical, x0, x1) - x0, h);
      hr_canvas_set_color (c, &c->theme->track, 1.0);
      cairo_fill (c->cr);
    }
  hr_bar_fill (c, bars, values, y, h);
  /* Whatever lies beyond the usable line does not fit: hatch it. */
  if (isfinite (usable) && total > usable)
    {
      double ux = hr_axis_map (axis, usable, x0, x1);
      HrRect over = { ux, y, hr_axis_map (axis, total, x0, x1) - ux, h };

      hr_canvas_hatch (c, &over, &c->theme->exceeds, 1.0, MAX (4.0, c->fs * 0.5));
    }
}

void
hr_capacity_lines (HrCanvas     *c,
                   const HrBars *bars,
                   double        top,
                   double        bottom)
{
  static const double dash_usable[] = { 6, 3 };
  double lw = MAX (1.5, c->fs * 0.12);

  if (isfinite (bars->physical))
    {
      double px = hr_canvas_snap (c, hr_axis_map (bars->axis, bars->physical, bars->x0, bars->x1),
                                  lw);

      hr_canvas_line (c, px, top, px, bottom, &(HrStroke) { lw, &c->theme->physical });
      if (c->rule_xs != NULL)
        g_array_append_val (c->rule_xs, px);
    }
  if (isfinite (bars->usable))
    {
      double ux = hr_canvas_snap (c, hr_axis_map (bars->axis, bars->usable, bars->x0, bars->x1),
                                  lw);

      hr_canvas_line (c, ux, top, ux, bottom, &(HrStroke) { lw, &c->theme->usable, dash_usable });
      if (c->rule_xs != NULL)
        g_array_append_val (c->rule_xs, ux);
    }
}

/* The capacity lines' x, left to right; returns how many (0 … 2). */
static int
rule_positions (HrCanvas     *c,
                const HrBars *bars,
                double        xs[2])
{
  int n = 0;

  if (isfinite (bars->usable))
    xs[n++] = hr_axis_map (bars->axis, bars->usable, bars->x0, bars->x1);
  if (isfinite (bars->physical))
    xs[n++] = hr_axis_map (bars->axis, bars->physical, bars->x0, bars->x1);
  if (n == 2 && xs[0] > xs[1])
    {
      double t = xs[0];

      xs[0] = xs[1];
      xs[1] = t;
    }
  return n;
}

double
hr_bars_clear_x (HrCanvas     *c,
                 const HrBars *bars,
                 double        x,
                 double        w,
                 double        gap)
{
  double xs[2];
  int n = rule_positions (c, bars, xs);

  for (int i = 0; i < n; i++)
    if (xs[i] + gap > x && xs[i] - gap < x + w)
      x = xs[i] + gap;
  return x;
}

/* Values inside the segments that have room; the others, when @callout_room allows, in a row
 * under the bar with leaders, spread so that they never overlap. */
void
hr_bar_labels (HrCanvas     *c,
               const HrBars *bars,
               const double *values,
               double        y,
               double        h,
               double        callout_room)
{
  const HrChartRgba *const *colors = bars->colors;
  char text[HR_BAR_MAX_SEGS][96];
  double cx[HR_BAR_MAX_SEGS], left[HR_BAR_MAX_SEGS], w[HR_BAR_MAX_SEGS], start = 0, lh, ly;
  int out[HR_BAR_MAX_SEGS], n_out = 0, n = MIN (bars->n, HR_BAR_MAX_SEGS);
  double gap = c->fs * 0.8;

  hr_canvas_text_measure (c, "Hg", HR_TEXT_VALUE, NULL, &lh);
  for (int s = 0; s < n; s++)
    {
      double v = hr_chart_clean (values[s]);
      double a = hr_axis_map (bars->axis, start, bars->x0, bars->x1);
      double b = hr_axis_map (bars->axis, start + v, bars->x0, bars->x1);
      char buf[48];
      double tw;

      start += v;
      if (v <= 0)
        continue;
      hr_fmt_gib (buf, sizeof buf, v);
      hr_canvas_text_measure (c, buf, HR_TEXT_VALUE, &tw, NULL);
      if (tw + c->fs * 0.8 < b - a && lh < h)
        {
          double xs[2], mid = (a + b) / 2, room = tw + c->fs * 0.8;
          int n_rules = rule_positions (c, bars, xs);
          gboolean clear = TRUE;

          /* a capacity line through the value: the segment's side of it with room, else no
           * value inside (the line would cross it, "44.96 GiB") */
          for (int r = 0; r < n_rules && clear; r++)
            if (fabs (xs[r] - mid) < tw / 2 + c->fs * 0.3)
              {
                double lroom = xs[r] - (r > 0 && xs[r - 1] > a ? xs[r - 1] : a);
                double rroom = (r + 1 < n_rules && xs[r + 1] < b ? xs[r + 1] : b) - xs[r];

                if (lroom >= room && lroom >= rroom)
                  mid = xs[r] - lroom / 2;
                else if (rroom >= room)
                  mid = xs[r] + rroom / 2;
                else
                  clear = FALSE;
              }
          for (int r = 0; r < n_rules && clear; r++)
            if (fabs (xs[r] - mid) < tw / 2 + c->fs * 0.3)
              clear = FALSE;
          if (clear)
            {
              hr_canvas_text (c, buf, &(HrTextSpec) { .style = HR_TEXT_VALUE, .x = mid,
                                .y = y + h / 2, .xalign = 0.5, .yalign = 0.5,
                                .color = hr_text_on (colors[s]) });
              continue;
            }
        }
      g_snprintf (text[n_out], sizeof text[n_out], "%s %s", bars->names[s], buf);
      hr_canvas_text_measure (c, text[n_out], HR_TEXT_VALUE, &w[n_out], NULL);
      cx[n_out] = (a + b) / 2;
      left[n_out] = cx[n_out] - w[n_out] / 2;
      out[n_out] = s;
      n_out++;
    }
  if (n_out == 0 || callout_room < lh * 2.2)
    return;

  /* Push right past the previous label, then back left from the edge. */
  for (int i = 0; i < n_out; i++)
    {
      if (i > 0)
        left[i] = MAX (left[i], left[i - 1] + w[i - 1] + gap);
      left[i] = MAX (left[i], c->pad);
    }
  for (int i = n_out - 1; i >= 0; i--)
    {
      double limit = i == n_out - 1 ? c->width - c->pad : left[i + 1] - gap;

      left[i] = MIN (left[i], limit - w[i]);
    }
  ly = y + h + MIN (callout_room - lh, lh * 1.4);
  for (int i = 0; i < n_out; i++)
    {
      double lx = CLAMP (cx[i], left[i] + c->fs * 0.3, left[i] + w[i] - c->fs * 0.3);

      cairo_set_line_cap (c->cr, CAIRO_LINE_CAP_ROUND);
      hr_canvas_line (c, cx[i], y + h + c->fs * 0.15, lx, ly - c->fs * 0.15,
                      &(HrStroke) { MAX (c->px, 1.0), &c->theme->axis });
      cairo_set_line_cap (c->cr, CAIRO_LINE_CAP_BUTT);
      hr_canvas_set_color (c, colors[out[i]], 1.0);
      cairo_rectangle (c->cr, left[i], ly + lh * 0.15, c->fs * 0.2, lh * 0.7);
      cairo_fill (c->cr);
      hr_canvas_text (c, text[i], &(HrTextSpec) { .style = HR_TEXT_VALUE,
                        .x = left[i] + c->fs * 0.4, .y = ly, .boxed = TRUE });
    }
}

