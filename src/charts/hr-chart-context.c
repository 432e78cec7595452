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

#define N_END (HR_CHART_MAX_LINES + 2)

/* Where everything goes, computed in one step before anything is drawn under the header. */
typedef struct
{
  HrCanvas *c;
  const HrChartContext *data;
  int n_lines;
  int cur;                          /* the current line, -1 for none */
  double min_ctx, max_ctx;          /* x range, tokens */
  double min_v, max_v, y_lo;        /* y range, GiB */
  const char *y_title;
  double x0, x1, y0, y1, lh;        /* the plot */
  HrAxis xaxis, yaxis;
  HrLegendItem legend[N_END];
  int n_legend;
  double legend_h;
  HrMarks marks;                    /* current context, longest that fits */
  char end_text[N_END][96];         /* line ends and capacity lines, in the right margin */
  double end_pos[N_END], end_size[N_END], end_w;
  int end_idx[N_END];               /* the line, or -1 usable, -2 physical */
  int n_end;
  gboolean has_cross;               /* the current line crosses the usable line in range */
} Layout;

/* The data's ranges; FALSE when no point is known. */
static gboolean
layout_ranges (Layout               *l,
               const HrChartContext *data)
{
  gboolean any = FALSE;

  l->min_ctx = G_MAXDOUBLE;
  l->min_v = G_MAXDOUBLE;
  l->n_lines = CLAMP (data->n_lines, 0, HR_CHART_MAX_LINES);
  l->cur = data->current_line >= 0 && data->current_line < l->n_lines ? data->current_line : -1;
  for (int k = 0; k < l->n_lines; k++)
    for (int i = 0; i < CLAMP (data->lines[k].n_points, 0, HR_CHART_MAX_POINTS); i++)
      if (point_ok (&data->lines[k], i))
        {
          any = TRUE;
          l->min_ctx = MIN (l->min_ctx, data->lines[k].context[i]);
          l->max_ctx = MAX (l->max_ctx, data->lines[k].context[i]);
          l->max_v = MAX (l->max_v, data->lines[k].required_gib[i]);
          l->min_v = MIN (l->min_v, data->lines[k].required_gib[i]);
        }
  if (isfinite (data->min_context) && data->min_context > 0)
    l->min_ctx = data->min_context;
  if (isfinite (data->max_context) && data->max_context > l->min_ctx)
    l->max_ctx = data->max_context;
  return any;
}

/* Header with the verdict at the current context, and how far the context can go */
static double
draw_header (HrCanvas             *c,
             const HrChartContext *data,
             gboolean              any)
{
  char badge[128], buf[64];

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
  return hr_canvas_header (c, &data->heading,
                           any ? (data->max_fit_context > 0 ? data->verdict
                                                            : HR_CHART_VERDICT_EXCEEDS)
                               : HR_CHART_VERDICT_UNKNOWN,
                           badge);
}

static void
layout_legend (Layout *l)
{
  HrCanvas *c = l->c;

  for (int k = 0; k < l->n_lines; k++)
    l->legend[l->n_legend++] = (HrLegendItem) {
      l->data->lines[k].label, line_color (c, k),
      k == 0 ? HR_SWATCH_LINE : k == 2 ? HR_SWATCH_DOT : HR_SWATCH_DASH, line_marker[k],
    };
  if (isfinite (l->data->usable_gib))
    l->legend[l->n_legend++] = (HrLegendItem) { _("Usable memory"), &c->theme->usable,
                                                HR_SWATCH_DASH, -1 };
  l->legend[l->n_legend++] = (HrLegendItem) { _("Does not fit"), &c->theme->exceeds,
                                              HR_SWATCH_HATCH, -1 };
  l->legend_h = hr_canvas_legend_height (c, l->legend, l->n_legend);
}

/* Y range: from zero, so the constant weights read as the bulk they are; capped so one
 * runaway precision at 1M tokens does not flatten everything else. */
static void
layout_y_range (Layout *l)
{
  const HrChartContext *data = l->data;
  double cap;

  if (isfinite (data->physical_gib))
    l->max_v = MAX (l->max_v, data->physical_gib);
  if (isfinite (data->usable_gib))
    l->max_v = MAX (l->max_v, data->usable_gib);
  cap = MAX (l->min_v * 1.6, (isfinite (data->physical_gib) ? data->physical_gib : 0) * 2.5);
  if (l->cur >= 0 && data->current_context > 0)
    {
      double v = line_value_at (&data->lines[l->cur], data->current_context);

      if (isfinite (v))
        cap = MAX (cap, v * 1.15);
    }
  l->max_v = MIN (l->max_v * 1.06, MAX (cap, 1));

  /* A line chart may start above zero when everything sits high: weights dominate, and the
   * interesting part is how the cache grows on top of them. */
  if (l->min_v > 0.4 * l->max_v)
    l->y_lo = MAX (0, l->min_v - (l->max_v - l->min_v) * 0.25);
  /* …but never so high that the usable line falls off the bottom */
  if (isfinite (data->usable_gib))
    l->y_lo = MIN (l->y_lo, data->usable_gib - (l->max_v - data->usable_gib) * 0.1);
  if (l->y_lo < 0.15 * l->max_v)
    l->y_lo = 0;
}

static void
add_end_label (Layout     *l,
               const char *text,
               double      v,
               int         idx)
{
  int e = l->n_end++;

  g_strlcpy (l->end_text[e], text, sizeof l->end_text[e]);
  hr_canvas_text_measure (l->c, l->end_text[e], HR_TEXT_VALUE, &l->end_size[e], NULL);
  l->end_w = MAX (l->end_w, l->end_size[e]);
  l->end_pos[e] = v;
  l->end_idx[e] = idx;
}

/* Line end labels on the right; the capacity lines are labelled in the same margin, spread
 * with the line ends. */
static void
layout_end_labels (Layout *l)
{
  char buf[64], text[96];

  for (int k = 0; k < l->n_lines; k++)
    {
      double v = NAN;
      const HrChartLine *line = &l->data->lines[k];

      for (int i = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS) - 1; i >= 0; i--)
        if (point_ok (line, i) && line->context[i] <= l->max_ctx * 1.0001)
          {
            v = line->required_gib[i];
            break;
          }
      if (isfinite (v))
        add_end_label (l, hr_fmt_gib (buf, sizeof buf, v), v, k);
    }
  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? l->data->usable_gib : l->data->physical_gib;

      if (!isfinite (v) || v > l->max_v)
        continue;
      hr_fmt_gib (buf, sizeof buf, v);
      g_snprintf (text, sizeof text, k == 0 ? _("usable %s") : _("physical %s"), buf);
      add_end_label (l, text, v, -1 - k);
    }
}

/* Marks above the plot: the current context, the longest that fits */
static void
layout_marks (Layout *l)
{
  const HrChartContext *data = l->data;
  const HrChartRgba *fg = &l->c->theme->foreground;
  char buf[64], text[96];

  if (isfinite (data->current_context) && data->current_context > 0
      && data->current_context >= l->min_ctx && data->current_context <= l->max_ctx)
    {
      hr_fmt_context (buf, sizeof buf, data->current_context);
      g_snprintf (text, sizeof text, _("current %s"), buf);
      hr_marks_add (&l->marks, text, hr_axis_map (&l->xaxis, data->current_context, l->x0, l->x1),
                    TRUE, fg);
    }
  if (isfinite (data->max_fit_context) && data->max_fit_context >= l->min_ctx)
    {
      hr_fmt_context (buf, sizeof buf, data->max_fit_context);
      if (data->max_fit_context >= l->max_ctx)
        g_snprintf (text, sizeof text, _("fits across the range"));
      else
        g_snprintf (text, sizeof text, _("fits up to %s"), buf);
      hr_marks_add (&l->marks, text,
                    hr_axis_map (&l->xaxis, MIN (data->max_fit_context, l->max_ctx), l->x0, l->x1),
                    FALSE, fg);
    }
  hr_canvas_place_marks (l->c, &l->marks);
}

/* Everything under the header at @top; NULL, or the message to show instead of the plot. */
static const char *
layout (Layout               *l,
        double                top)
{
  HrCanvas *c = l->c;
  const HrChartContext *data = l->data;

  l->y_title = data->per_device ? _("Memory per GPU (GiB)") : _("Memory (GiB)");
  layout_legend (l);
  layout_y_range (l);
  l->y1 = hr_canvas_above_legend (c, l->legend_h)
          - hr_canvas_xaxis_height (c, _("Context window (tokens, log scale)"));
  layout_end_labels (l);
  l->lh = hr_canvas_line_height (c, HR_TEXT_LABEL);
  l->x1 = c->width - c->pad - (l->end_w > 0 ? l->end_w + c->fs * 0.8 : 0);

  /* The y axis's width sets x0, which the marks need; the marks' tiers then set y0. */
  hr_axis_linear (&l->yaxis, l->y_lo, l->max_v, MAX (2, (int) ((l->y1 - top) / (l->lh * 2.5))));
  l->x0 = c->pad + hr_canvas_yaxis_width (c, &l->yaxis, NULL, l->y_title);
  if (l->x1 - l->x0 < c->fs * 4 || l->y1 - top < c->fs * 3)
    return _("Too small to draw");
  hr_axis_log2 (&l->xaxis, l->min_ctx, l->max_ctx,
                hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "128K"));
  layout_marks (l);
  l->y0 = top + l->marks.n_tiers * hr_canvas_marks_tier_height (c);
  if (l->y1 - l->y0 < c->fs * 3)
    return _("Too small to draw");
  hr_axis_linear (&l->yaxis, l->y_lo, l->max_v,
                  MAX (2, (int) ((l->y1 - l->y0) / (l->lh * 2.5))));
  l->has_cross = l->cur >= 0 && isfinite (data->max_fit_context)
                 && data->max_fit_context >= l->min_ctx && data->max_fit_context < l->max_ctx
                 && isfinite (data->usable_gib) && data->usable_gib <= l->yaxis.max
                 && data->usable_gib >= l->yaxis.min;
  return NULL;
}

static double
map_x (const Layout *l,
       double        context)
{
  return hr_axis_map (&l->xaxis, context, l->x0, l->x1);
}

static double
map_y (const Layout *l,
       double        gib)
{
  return hr_axis_map (&l->yaxis, gib, l->y1, l->y0);
}

/* "Does not fit": the region above the usable line */
static void
draw_exceeds_region (const Layout *l)
{
  HrCanvas *c = l->c;
  double usable = l->data->usable_gib;

  if (isfinite (usable) && usable < l->yaxis.max)
    {
      double uy = CLAMP (map_y (l, usable), l->y0, l->y1);
      HrRect band = { l->x0, l->y0, l->x1 - l->x0, MAX (0, uy - l->y0) };

      cairo_rectangle (c->cr, band.x, band.y, band.w, band.h);
      hr_canvas_set_color (c, &c->theme->exceeds, 0.07);
      cairo_fill (c->cr);
      hr_canvas_hatch (c, &band, &c->theme->exceeds, 0.16, MAX (6.0, c->fs * 0.7));
    }
}

static void
draw_capacity (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartContext *data = l->data;
  double uy, lw = MAX (1.5, c->fs * 0.12);
  static const double dash[] = { 6, 3 };

  if (!(isfinite (data->usable_gib) && data->usable_gib < l->yaxis.max
        && data->usable_gib >= l->yaxis.min))
    return;
  uy = map_y (l, data->usable_gib);
  if (uy - l->y0 > l->lh * 1.6)
    hr_canvas_text (c, _("does not fit"), &(HrTextSpec) { .style = HR_TEXT_SMALL,
                      .x = l->x0 + c->fs * 0.5, .y = l->y0 + c->fs * 0.4,
                      .color = &c->theme->exceeds });
  hr_canvas_line (c, l->x0, hr_canvas_snap (c, uy, lw), l->x1, hr_canvas_snap (c, uy, lw),
                  &(HrStroke) { lw, &c->theme->usable, dash });
  if (isfinite (data->physical_gib) && data->physical_gib <= l->yaxis.max
      && data->physical_gib >= l->yaxis.min)
    {
      double py = map_y (l, data->physical_gib);

      hr_canvas_line (c, l->x0, hr_canvas_snap (c, py, 1), l->x1, hr_canvas_snap (c, py, 1),
                      &(HrStroke) { MAX (c->px, 1.0), &c->theme->physical });
    }
}

/* Current context and the longest context that fits */
static void
draw_marks (const Layout *l)
{
  HrCanvas *c = l->c;
  static const double dots[] = { 2, 3 };

  for (int m = 0; m < l->marks.n; m++)
    hr_canvas_line (c, hr_canvas_snap (c, l->marks.label[m].x, 1), l->y0,
                    hr_canvas_snap (c, l->marks.label[m].x, 1), l->y1,
                    &(HrStroke) { MAX (c->px, 1.0), &c->theme->foreground, dots });
  hr_canvas_draw_marks (c, &l->marks, l->y0);
}

static gboolean
in_range (const Layout      *l,
          const HrChartLine *line,
          int                i)
{
  return line->context[i] >= l->min_ctx * 0.9999 && line->context[i] <= l->max_ctx * 1.0001;
}

static void
draw_line (const Layout *l,
           int           k)
{
  HrCanvas *c = l->c;
  const HrChartLine *line = &l->data->lines[k];
  int np = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS);
  gboolean started = FALSE;

  cairo_save (c->cr);
  cairo_set_line_width (c->cr, k == l->cur ? MAX (2.5, c->fs * 0.22) : MAX (1.8, c->fs * 0.14));
  cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (c->cr, k % HR_CHART_MAX_LINES == 2 ? CAIRO_LINE_CAP_ROUND
                                                         : CAIRO_LINE_CAP_BUTT);
  if (line_dash[k][0] > 0)
    cairo_set_dash (c->cr, line_dash[k], 2, 0);
  for (int i = 0; i < np; i++)
    {
      double px, py;

      if (!point_ok (line, i) || line->context[i] < l->min_ctx * 0.9999
          || line->context[i] > l->max_ctx * 1.0001)
        continue;
      px = map_x (l, line->context[i]);
      py = map_y (l, line->required_gib[i]);
      if (!started)
        cairo_move_to (c->cr, px, py);
      else
        cairo_line_to (c->cr, px, py);
      started = TRUE;
    }
  hr_canvas_set_color (c, line_color (c, k), 1.0);
  cairo_stroke (c->cr);
  cairo_restore (c->cr);
  for (int i = 0; i < np; i++)
    if (point_ok (line, i) && is_power_of_two (line->context[i]) && in_range (l, line, i))
      hr_canvas_marker (c, line_marker[k], map_x (l, line->context[i]),
                        map_y (l, line->required_gib[i]), c->fs * (k == l->cur ? 0.62 : 0.5),
                        line_color (c, k));
}

/* The lines, current precision last and heaviest, then where it crosses the usable line */
static void
draw_series (const Layout *l)
{
  HrCanvas *c = l->c;
  int n = l->n_lines, cur = l->cur;

  cairo_save (c->cr);
  cairo_rectangle (c->cr, l->x0 - c->fs, l->y0 - 2, l->x1 - l->x0 + 2 * c->fs,
                   l->y1 - l->y0 + 4);
  cairo_clip (c->cr);
  for (int k = 0; k < n; k++)
    draw_line (l, cur >= 0 ? (k == n - 1 ? cur : (k >= cur ? k + 1 : k)) : k);
  cairo_restore (c->cr);

  if (l->has_cross)
    hr_canvas_marker (c, HR_MARKER_DIAMOND, map_x (l, l->data->max_fit_context),
                      map_y (l, l->data->usable_gib), c->fs * 0.8,
                      hr_chart_theme_verdict_color (c->theme, HR_CHART_VERDICT_FITS));
}

/* The current point, labelled beside it where the label hides neither the point nor the
 * crossing marker */
static void
draw_current_point (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartContext *data = l->data;
  /* above-left, above-right, below-right, below-left */
  static const double ax[4] = { 1, 0, 0, 1 }, ay[4] = { 1, 1, 0, 0 };
  double v, px, py, r = c->fs * 0.5, tw, th, mx = NAN, my = NAN;
  char value_buf[96];
  int k;

  if (l->cur < 0 || !(data->current_context > 0))
    return;
  v = line_value_at (&data->lines[l->cur], data->current_context);
  if (!(isfinite (v) && v <= l->yaxis.max && v >= l->yaxis.min))
    return;
  px = map_x (l, data->current_context);
  py = map_y (l, v);
  if (l->has_cross)
    {
      mx = map_x (l, data->max_fit_context);
      my = map_y (l, data->usable_gib);
    }
  cairo_new_sub_path (c->cr);
  cairo_arc (c->cr, px, py, r, 0, 2 * G_PI);
  hr_canvas_set_color (c, &c->theme->foreground, 1.0);
  cairo_set_line_width (c->cr, MAX (1.5, c->fs * 0.13));
  cairo_stroke (c->cr);

  hr_fmt_gib (value_buf, sizeof value_buf, v);
  hr_canvas_text_measure (c, value_buf, HR_TEXT_STRONG, &tw, &th);
  for (k = 0; k < 4; k++)
    {
      double lx = ax[k] > 0.5 ? px - r * 1.2 - tw : px + r * 1.2;
      double ly = ay[k] > 0.5 ? py - r * 0.8 - th : py + r * 0.8;
      double m = c->fs * 0.6;

      if (lx < l->x0 || lx + tw > l->x1 || ly < l->y0 || ly + th > l->y1)
        continue;
      if (isfinite (mx) && mx > lx - m && mx < lx + tw + m && my > ly - m && my < ly + th + m)
        continue;
      break;
    }
  k = k % 4;
  hr_canvas_text (c, value_buf, &(HrTextSpec) { .style = HR_TEXT_STRONG,
                    .x = ax[k] > 0.5 ? px - r * 1.2 : px + r * 1.2,
                    .y = ay[k] > 0.5 ? py - r * 0.8 : py + r * 0.8, .xalign = ax[k],
                    .yalign = ay[k], .boxed = TRUE });
}

/* The end labels, spread so they never overlap */
static void
draw_end_labels (const Layout *l)
{
  HrCanvas *c = l->c;
  double pos[N_END], size[N_END], lh = l->lh;
  int order[N_END], n = l->n_end;

  if (n <= 0)
    return;
  for (int i = 0; i < n; i++)
    order[i] = i;
  /* Sort top to bottom on screen (largest value first). */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && l->end_pos[order[j]] > l->end_pos[order[j - 1]]; j--)
      {
        int tmp = order[j];

        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
  for (int i = 0; i < n; i++)
    {
      pos[i] = map_y (l, CLAMP (l->end_pos[order[i]], l->yaxis.min, l->yaxis.max));
      size[i] = lh;
    }
  hr_spread (pos, size, n, 1, l->y0 + lh / 2, l->y1 - lh / 2);
  for (int i = 0; i < n; i++)
    {
      int k = l->end_idx[order[i]];

      if (k >= 0)
        {
          hr_canvas_set_color (c, line_color (c, k), 1.0);
          cairo_rectangle (c->cr, l->x1 + c->fs * 0.3, pos[i] - lh * 0.1, c->fs * 0.35, lh * 0.2);
          cairo_fill (c->cr);
        }
      hr_canvas_text (c, l->end_text[order[i]], &(HrTextSpec) { .style = HR_TEXT_VALUE,
                        .x = l->x1 + c->fs * 0.8, .y = pos[i], .yalign = 0.5,
                        .color = k == l->cur ? &c->theme->foreground : &c->theme->muted });
    }
}

void
hr_chart_context_paint (HrCanvas   *c,
                        const void *chart_data)
{
  const HrChartContext *data = chart_data;
  Layout l = { c, data };
  const char *message;
  gboolean any;
  double top;

  any = layout_ranges (&l, data);
  top = draw_header (c, data, any);
  if (!any)
    {
      hr_canvas_message_below (c, top, _("The memory figures of this model are unknown."));
      return;
    }
  if ((message = layout (&l, top)) != NULL)
    {
      hr_canvas_message_below (c, top, message);
      return;
    }

  draw_exceeds_region (&l);
  hr_canvas_xaxis (c, &l.xaxis, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 },
                   _("Context window (tokens, log scale)"));
  hr_canvas_yaxis (c, &l.yaxis, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 }, l.y_title);
  draw_capacity (&l);
  draw_marks (&l);
  draw_series (&l);
  draw_current_point (&l);
  draw_end_labels (&l);
  hr_canvas_legend_bottom (c, l.legend, l.n_legend, l.legend_h);
}
