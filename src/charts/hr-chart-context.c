/* hr-chart-context.c — device memory against the context window, one line per KV precision
 *
 * Log-2 context axis, the usable line with the region above it shaded as "does not fit", the
 * current context and the longest context that fits marked.  Lines differ by dash and marker
 * as well as by colour.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

static const double line_dash[HR_CHART_MAX_LINES][2] = {
  { 0, 0 }, { 7, 4 }, { 1.5, 3.5 }, { 10, 3 },
};
static const int line_marker[HR_CHART_MAX_LINES] = {
  HR_MARKER_CIRCLE, HR_MARKER_SQUARE, HR_MARKER_TRIANGLE, HR_MARKER_DIAMOND,
};

static gboolean
point_ok (const HrChartLine *line,
          int                i)
{
  return isfinite (line->context[i]) && line->context[i] > 0
         && isfinite (line->required_gib[i]) && line->required_gib[i] >= 0;
}

/* Required memory of @line at @context, interpolated on the log axis; NAN outside. */
static double
line_value_at (const HrChartLine *line,
               double             context)
{
  int n = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS);
  int prev = -1;

  for (int i = 0; i < n; i++)
    {
      if (!point_ok (line, i))
        continue;
      if (fabs (line->context[i] - context) < 0.5)
        return line->required_gib[i];
      if (line->context[i] > context)
        {
          double t;

          if (prev < 0)
            return NAN;
          t = (log2 (context) - log2 (line->context[prev]))
              / (log2 (line->context[i]) - log2 (line->context[prev]));
          return line->required_gib[prev] + t * (line->required_gib[i] - line->required_gib[prev]);
        }
      prev = i;
    }
  return NAN;
}

static const HrChartRgba *
line_color (HrCanvas *c,
            int       i)
{
  return &c->theme->series[i % 3];
}

static gboolean
is_power_of_two (double v)
{
  double e = log2 (v);

  return fabs (e - round (e)) < 1e-9;
}

void
hr_chart_context_draw (cairo_t              *cr,
                       double                width,
                       double                height,
                       const HrChartContext *data,
                       const HrChartTheme   *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  HrLegendItem legend[HR_CHART_MAX_LINES + 2];
  HrMarkLabel marks[2];
  char mark_text[2][96], badge[128], end_text[HR_CHART_MAX_LINES + 2][96], buf[64];
  char value_buf[96];
  double min_ctx = G_MAXDOUBLE, max_ctx = 0, max_v = 0, min_v = G_MAXDOUBLE, y, legend_h, axis_h;
  double x0, x1, y0, y1, end_w = 0, lh, cap, yaxis_w;
  double end_pos[HR_CHART_MAX_LINES + 2], end_size[HR_CHART_MAX_LINES + 2], y_lo = 0;
  int end_idx[HR_CHART_MAX_LINES + 2], n_end = 0;
  int n_lines, n_legend = 0, n_marks = 0, n_tiers, cur;
  gboolean any = FALSE, has_cross;
  const char *y_title;
  HrAxis xaxis, yaxis;

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

  y_title = data->per_device ? _("Memory per GPU (GiB)") : _("Memory (GiB)");
  n_lines = CLAMP (data->n_lines, 0, HR_CHART_MAX_LINES);
  cur = data->current_line >= 0 && data->current_line < n_lines ? data->current_line : -1;
  for (int l = 0; l < n_lines; l++)
    for (int i = 0; i < CLAMP (data->lines[l].n_points, 0, HR_CHART_MAX_POINTS); i++)
      if (point_ok (&data->lines[l], i))
        {
          any = TRUE;
          min_ctx = MIN (min_ctx, data->lines[l].context[i]);
          max_ctx = MAX (max_ctx, data->lines[l].context[i]);
          max_v = MAX (max_v, data->lines[l].required_gib[i]);
          min_v = MIN (min_v, data->lines[l].required_gib[i]);
        }
  if (isfinite (data->min_context) && data->min_context > 0)
    min_ctx = data->min_context;
  if (isfinite (data->max_context) && data->max_context > min_ctx)
    max_ctx = data->max_context;

  /* Badge: the verdict at the current context, and how far the context can go */
  if (!any)
    g_strlcpy (badge, hr_chart_verdict_display (HR_CHART_VERDICT_UNKNOWN), sizeof badge);
  else if (isfinite (data->max_fit_context) && data->max_fit_context > 0)
    {
      hr_fmt_context (buf, sizeof buf, data->max_fit_context);
      /* TRANSLATORS: badge, "Fits with margin · up to 45K" */
      g_snprintf (badge, sizeof badge, _("%s · up to %s"),
                  hr_chart_verdict_display (data->verdict), buf);
    }
  else
    g_strlcpy (badge, _("Does not fit at any context"), sizeof badge);
  y = hr_canvas_header (c, data->title, data->subtitle,
                        any ? (data->max_fit_context > 0 ? data->verdict
                                                         : HR_CHART_VERDICT_EXCEEDS)
                            : HR_CHART_VERDICT_UNKNOWN,
                        badge);
  if (!any)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("The memory figures of this model are unknown."));
      hr_canvas_end (c);
      return;
    }

  /* Legend */
  for (int l = 0; l < n_lines; l++)
    legend[n_legend++] = (HrLegendItem) {
      data->lines[l].label, line_color (c, l),
      l == 0 ? HR_SWATCH_LINE : l == 2 ? HR_SWATCH_DOT : HR_SWATCH_DASH, line_marker[l],
    };
  if (isfinite (data->usable_gib))
    legend[n_legend++] = (HrLegendItem) { _("Usable memory"), &t->usable, HR_SWATCH_DASH, -1 };
  legend[n_legend++] = (HrLegendItem) { _("Does not fit"), &t->exceeds, HR_SWATCH_HATCH, -1 };
  legend_h = hr_canvas_legend (c, legend, n_legend, c->pad, 0, width - 2 * c->pad, FALSE);

  /* Y axis: from zero, so the constant weights read as the bulk they are; capped so one
   * runaway precision at 1M tokens does not flatten everything else. */
  if (isfinite (data->physical_gib))
    max_v = MAX (max_v, data->physical_gib);
  if (isfinite (data->usable_gib))
    max_v = MAX (max_v, data->usable_gib);
  cap = MAX (min_v * 1.6, (isfinite (data->physical_gib) ? data->physical_gib : 0) * 2.5);
  if (cur >= 0 && data->current_context > 0)
    {
      double v = line_value_at (&data->lines[cur], data->current_context);

      if (isfinite (v))
        cap = MAX (cap, v * 1.15);
    }
  max_v = MIN (max_v * 1.06, MAX (cap, 1));

  axis_h = hr_canvas_xaxis_height (c, _("Context window (tokens, log scale)"));
  y1 = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0) - axis_h;

  /* Line end labels on the right */
  for (int l = 0; l < n_lines; l++)
    {
      double v = NAN;
      const HrChartLine *line = &data->lines[l];

      for (int i = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS) - 1; i >= 0; i--)
        if (point_ok (line, i) && line->context[i] <= max_ctx * 1.0001)
          {
            v = line->required_gib[i];
            break;
          }
      if (!isfinite (v))
        continue;
      g_snprintf (end_text[n_end], sizeof end_text[n_end], "%s",
                  hr_fmt_gib (buf, sizeof buf, v));
      hr_canvas_text_measure (c, end_text[n_end], HR_TEXT_VALUE, &end_size[n_end], NULL);
      end_w = MAX (end_w, end_size[n_end]);
      end_pos[n_end] = v;
      end_idx[n_end] = l;
      n_end++;
    }

  /* The capacity lines are labelled in the same margin, spread with the line ends. */
  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? data->usable_gib : data->physical_gib;

      if (!isfinite (v) || v > max_v)
        continue;
      hr_fmt_gib (buf, sizeof buf, v);
      g_snprintf (end_text[n_end], sizeof end_text[n_end], k == 0 ? _("usable %s")
                                                                  : _("physical %s"), buf);
      hr_canvas_text_measure (c, end_text[n_end], HR_TEXT_VALUE, &end_size[n_end], NULL);
      end_w = MAX (end_w, end_size[n_end]);
      end_pos[n_end] = v;
      end_idx[n_end] = -1 - k;
      n_end++;
    }

  /* A line chart may start above zero when everything sits high: weights dominate, and the
   * interesting part is how the cache grows on top of them. */
  if (min_v > 0.4 * max_v)
    y_lo = MAX (0, min_v - (max_v - min_v) * 0.25);
  /* …but never so high that the usable line falls off the bottom */
  if (isfinite (data->usable_gib))
    y_lo = MIN (y_lo, data->usable_gib - (max_v - data->usable_gib) * 0.1);
  if (y_lo < 0.15 * max_v)
    y_lo = 0;

  hr_canvas_text_measure (c, "Hg", HR_TEXT_LABEL, NULL, &lh);
  x1 = width - c->pad - (end_w > 0 ? end_w + c->fs * 0.8 : 0);

  /* Marks above the plot: current context, longest that fits (x known once x0 is) */
  hr_axis_linear (&yaxis, y_lo, max_v, MAX (2, (int) ((y1 - y) / (lh * 2.5))));
  yaxis_w = hr_canvas_yaxis_width (c, &yaxis, NULL, y_title);
  x0 = c->pad + yaxis_w;
  if (x1 - x0 < c->fs * 4 || y1 - y < c->fs * 3)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  hr_axis_log2 (&xaxis, min_ctx, max_ctx, hr_canvas_xaxis_max_ticks (c, x1 - x0, "128K"));

  if (isfinite (data->current_context) && data->current_context > 0
      && data->current_context >= min_ctx && data->current_context <= max_ctx)
    {
      hr_fmt_context (buf, sizeof buf, data->current_context);
      g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("current %s"), buf);
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&xaxis, data->current_context, x0, x1),
        .prefer_left = TRUE,
        .color = &t->foreground,
      };
      n_marks++;
    }
  if (isfinite (data->max_fit_context) && data->max_fit_context >= min_ctx)
    {
      hr_fmt_context (buf, sizeof buf, data->max_fit_context);
      if (data->max_fit_context >= max_ctx)
        g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("fits across the range"));
      else
        g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("fits up to %s"), buf);
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&xaxis, MIN (data->max_fit_context, max_ctx), x0, x1),
        .prefer_left = FALSE,
        .color = &t->foreground,
      };
      n_marks++;
    }
  n_tiers = hr_canvas_place_marks (c, marks, n_marks, c->pad, width - c->pad);
  y0 = y + n_tiers * hr_canvas_marks_tier_height (c);
  if (y1 - y0 < c->fs * 3)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  hr_axis_linear (&yaxis, y_lo, max_v, MAX (2, (int) ((y1 - y0) / (lh * 2.5))));

  /* "Does not fit" region above the usable line */
  if (isfinite (data->usable_gib) && data->usable_gib < yaxis.max)
    {
      double uy = CLAMP (hr_axis_map (&yaxis, data->usable_gib, y1, y0), y0, y1);
      HrRect band = { x0, y0, x1 - x0, MAX (0, uy - y0) };

      cairo_rectangle (c->cr, band.x, band.y, band.w, band.h);
      hr_canvas_set_color (c, &t->exceeds, 0.07);
      cairo_fill (c->cr);
      hr_canvas_hatch (c, &band, &t->exceeds, 0.16, MAX (6.0, c->fs * 0.7));
    }

  hr_canvas_xaxis (c, &xaxis, NULL, x0, x1, y0, y1, _("Context window (tokens, log scale)"));
  hr_canvas_yaxis (c, &yaxis, NULL, c->pad, x0, x1, y1, y0, y_title);

  if (isfinite (data->usable_gib) && data->usable_gib < yaxis.max
      && data->usable_gib >= yaxis.min)
    {
      double uy = hr_axis_map (&yaxis, data->usable_gib, y1, y0);
      double lw = MAX (1.5, c->fs * 0.12);
      static const double dash[] = { 6, 3 };

      if (uy - y0 > lh * 1.6)
        hr_canvas_text (c, _("does not fit"), HR_TEXT_SMALL, x0 + c->fs * 0.5, y0 + c->fs * 0.4,
                        0, 0, -1, &t->exceeds);
      hr_canvas_line (c, x0, hr_canvas_snap (c, uy, lw), x1, hr_canvas_snap (c, uy, lw), lw,
                      &t->usable, dash, 2);
      if (isfinite (data->physical_gib) && data->physical_gib <= yaxis.max
          && data->physical_gib >= yaxis.min)
        {
          double py = hr_axis_map (&yaxis, data->physical_gib, y1, y0);

          hr_canvas_line (c, x0, hr_canvas_snap (c, py, 1), x1, hr_canvas_snap (c, py, 1),
                          MAX (c->px, 1.0), &t->physical, NULL, 0);
        }
    }

  /* Current context and the longest context that fits */
  for (int m = 0; m < n_marks; m++)
    {
      static const double dots[] = { 2, 3 };

      hr_canvas_line (c, hr_canvas_snap (c, marks[m].x, 1), y0, hr_canvas_snap (c, marks[m].x, 1),
                      y1, MAX (c->px, 1.0), &t->foreground, dots, 2);
    }
  hr_canvas_draw_marks (c, marks, n_marks, n_tiers, y0);

  has_cross = cur >= 0 && isfinite (data->max_fit_context) && data->max_fit_context >= min_ctx
              && data->max_fit_context < max_ctx && isfinite (data->usable_gib)
              && data->usable_gib <= yaxis.max && data->usable_gib >= yaxis.min;

  /* The lines, current precision last and heaviest */
  cairo_save (c->cr);
  cairo_rectangle (c->cr, x0 - c->fs, y0 - 2, x1 - x0 + 2 * c->fs, y1 - y0 + 4);
  cairo_clip (c->cr);
  for (int k = 0; k < n_lines; k++)
    {
      int l = cur >= 0 ? (k == n_lines - 1 ? cur : (k >= cur ? k + 1 : k)) : k;
      const HrChartLine *line = &data->lines[l];
      int np = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS);
      gboolean started = FALSE;

      cairo_save (c->cr);
      cairo_set_line_width (c->cr, l == cur ? MAX (2.5, c->fs * 0.22) : MAX (1.8, c->fs * 0.14));
      cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
      cairo_set_line_cap (c->cr, l % HR_CHART_MAX_LINES == 2 ? CAIRO_LINE_CAP_ROUND
                                                             : CAIRO_LINE_CAP_BUTT);
      if (line_dash[l][0] > 0)
        cairo_set_dash (c->cr, line_dash[l], 2, 0);
      for (int i = 0; i < np; i++)
        {
          double px, py;

          if (!point_ok (line, i) || line->context[i] < min_ctx * 0.9999
              || line->context[i] > max_ctx * 1.0001)
            continue;
          px = hr_axis_map (&xaxis, line->context[i], x0, x1);
          py = hr_axis_map (&yaxis, line->required_gib[i], y1, y0);
          if (!started)
            cairo_move_to (c->cr, px, py);
          else
            cairo_line_to (c->cr, px, py);
          started = TRUE;
        }
      hr_canvas_set_color (c, line_color (c, l), 1.0);
      cairo_stroke (c->cr);
      cairo_restore (c->cr);
      for (int i = 0; i < np; i++)
        if (point_ok (line, i) && is_power_of_two (line->context[i])
            && line->context[i] >= min_ctx * 0.9999 && line->context[i] <= max_ctx * 1.0001)
          hr_canvas_marker (c, line_marker[l], hr_axis_map (&xaxis, line->context[i], x0, x1),
                            hr_axis_map (&yaxis, line->required_gib[i], y1, y0),
                            c->fs * (l == cur ? 0.62 : 0.5), line_color (c, l));
    }
  cairo_restore (c->cr);

  /* Where the current line crosses the usable line */
  if (has_cross)
    hr_canvas_marker (c, HR_MARKER_DIAMOND, hr_axis_map (&xaxis, data->max_fit_context, x0, x1),
                      hr_axis_map (&yaxis, data->usable_gib, y1, y0), c->fs * 0.8,
                      hr_chart_theme_verdict_color (t, HR_CHART_VERDICT_FITS));

  /* The current point, labelled beside it where the label hides neither the point nor the
   * crossing marker */
  if (cur >= 0 && data->current_context > 0)
    {
      double v = line_value_at (&data->lines[cur], data->current_context);

      if (isfinite (v) && v <= yaxis.max && v >= yaxis.min)
        {
          double px = hr_axis_map (&xaxis, data->current_context, x0, x1);
          double py = hr_axis_map (&yaxis, v, y1, y0);
          double r = c->fs * 0.5, tw, th;
          double mx = NAN, my = NAN;
          /* above-left, above-right, below-right, below-left */
          static const double ax[4] = { 1, 0, 0, 1 }, ay[4] = { 1, 1, 0, 0 };
          int k;

          if (has_cross)
            {
              mx = hr_axis_map (&xaxis, data->max_fit_context, x0, x1);
              my = hr_axis_map (&yaxis, data->usable_gib, y1, y0);
            }
          cairo_new_sub_path (c->cr);
          cairo_arc (c->cr, px, py, r, 0, 2 * G_PI);
          hr_canvas_set_color (c, &t->foreground, 1.0);
          cairo_set_line_width (c->cr, MAX (1.5, c->fs * 0.13));
          cairo_stroke (c->cr);

          hr_fmt_gib (value_buf, sizeof value_buf, v);
          hr_canvas_text_measure (c, value_buf, HR_TEXT_STRONG, &tw, &th);
          for (k = 0; k < 4; k++)
            {
              double lx = ax[k] > 0.5 ? px - r * 1.2 - tw : px + r * 1.2;
              double ly = ay[k] > 0.5 ? py - r * 0.8 - th : py + r * 0.8;
              double m = c->fs * 0.6;

              if (lx < x0 || lx + tw > x1 || ly < y0 || ly + th > y1)
                continue;
              if (isfinite (mx) && mx > lx - m && mx < lx + tw + m && my > ly - m
                  && my < ly + th + m)
                continue;
              break;
            }
          k = k % 4;
          hr_canvas_text_boxed (c, value_buf, HR_TEXT_STRONG,
                                ax[k] > 0.5 ? px - r * 1.2 : px + r * 1.2,
                                ay[k] > 0.5 ? py - r * 0.8 : py + r * 0.8, ax[k], ay[k],
                                -1, &t->foreground);
        }
    }

  /* Spread the end labels so they never overlap */
  if (n_end > 0)
    {
      double pos[HR_CHART_MAX_LINES + 2], size[HR_CHART_MAX_LINES + 2];
      int order[HR_CHART_MAX_LINES + 2];

      for (int i = 0; i < n_end; i++)
        order[i] = i;
      /* Sort top to bottom on screen (largest value first). */
      for (int i = 1; i < n_end; i++)
        for (int j = i; j > 0 && end_pos[order[j]] > end_pos[order[j - 1]]; j--)
          {
            int tmp = order[j];

            order[j] = order[j - 1];
            order[j - 1] = tmp;
          }
      for (int i = 0; i < n_end; i++)
        {
          pos[i] = hr_axis_map (&yaxis, CLAMP (end_pos[order[i]], yaxis.min, yaxis.max), y1, y0);
          size[i] = lh;
        }
      hr_spread (pos, size, n_end, 1, y0 + lh / 2, y1 - lh / 2);
      for (int i = 0; i < n_end; i++)
        {
          int l = end_idx[order[i]];

          if (l >= 0)
            {
              hr_canvas_set_color (c, line_color (c, l), 1.0);
              cairo_rectangle (c->cr, x1 + c->fs * 0.3, pos[i] - lh * 0.1, c->fs * 0.35,
                               lh * 0.2);
              cairo_fill (c->cr);
            }
          hr_canvas_text (c, end_text[order[i]], HR_TEXT_VALUE, x1 + c->fs * 0.8, pos[i], 0, 0.5,
                          -1, l == cur ? &t->foreground : &t->muted);
        }
    }

  hr_canvas_legend (c, legend, n_legend, c->pad, height - c->pad - legend_h, width - 2 * c->pad,
                    TRUE);
  hr_canvas_end (c);
}
