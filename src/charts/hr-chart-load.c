/* hr-chart-load.c — throughput under load: tokens/s per user and in total against the
 * number of users
 *
 * Both axes log-2 (users double; speeds span orders of magnitude): a solid line for the total,
 * a dashed one for one user, the per-user target as a dotted line, and the points where the
 * steps turn compute-bound and where the KV cache is full marked above the plot.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

static const double dash_user[] = { 8, 4 };
static const double dots[] = { 2, 3 };

typedef struct
{
  HrCanvas *c;
  const HrChartLoad *data;
  int n;
  double min_v, max_v, max_x;
  HrLegendItem legend[3];
  char target_text[HR_CHART_LABEL_LEN];
  double legend_h, lh;
  double x0, x1, y0, y1;
  HrAxis xa, ya;
  HrMarks marks;
} Layout;

static gboolean
point_ok (const HrChartLoad *d,
          int                i)
{
  return isfinite (d->concurrency[i]) && d->concurrency[i] >= 1 &&
         isfinite (d->per_user_tps[i]) && d->per_user_tps[i] > 0 &&
         isfinite (d->total_tps[i]) && d->total_tps[i] > 0;
}

static const char *
fmt_tps_tick (char         *buf,
              gsize         size,
              const HrAxis *axis,
              double        value)
{
  return hr_fmt_number (buf, size, value, value < 10 ? 1 : 0);
}

static void
stroke_series (const Layout *l,
               gboolean      user)
{
  HrCanvas *c = l->c;
  const HrChartLoad *d = l->data;
  const HrStroke stroke = { MAX (2.2, c->fs * 0.2), user ? &c->theme->series[1] : &c->theme->series[0],
                            user ? dash_user : NULL };
  gboolean keep[HR_CHART_MAX_LOAD];

  for (int i = 0; i < l->n; i++)
    keep[i] = point_ok (d, i);
  hr_canvas_series (c, &l->xa, l->x0, l->x1, &l->ya, l->y1, l->y0, d->concurrency,
                    user ? d->per_user_tps : d->total_tps, keep, l->n, &stroke);
  for (int i = 0; i < l->n; i++)
    if (point_ok (d, i))
      hr_canvas_marker (c, user ? HR_MARKER_SQUARE : HR_MARKER_CIRCLE,
                        hr_axis_map (&l->xa, d->concurrency[i], l->x0, l->x1),
                        hr_axis_map (&l->ya, user ? d->per_user_tps[i] : d->total_tps[i], l->y1, l->y0),
                        c->fs * 0.5, user ? &c->theme->series[1] : &c->theme->series[0]);
}

static void
scan (Layout *l)
{
  const HrChartLoad *d = l->data;

  l->min_v = INFINITY;
  for (int i = 0; i < l->n; i++)
    if (point_ok (d, i))
      {
        l->min_v = MIN (l->min_v, MIN (d->per_user_tps[i], d->total_tps[i]));
        l->max_v = MAX (l->max_v, MAX (d->per_user_tps[i], d->total_tps[i]));
        l->max_x = MAX (l->max_x, d->concurrency[i]);
      }
  if (isfinite (d->target_tps) && d->target_tps > 0 && isfinite (l->min_v))
    {
      l->min_v = MIN (l->min_v, d->target_tps);
      l->max_v = MAX (l->max_v, d->target_tps);
    }
}

static GString *
summary_text (const HrChartLoad *d)
{
  GString *s = g_string_new (NULL);
  char a[48];

  if (d->target_users > 0 && isfinite (d->target_tps))
    g_string_append_printf (s, ngettext ("%d user at ≥ %s tok/s each", "%d users at ≥ %s tok/s each",
                                         d->target_users),
                            d->target_users, hr_fmt_number (a, sizeof a, d->target_tps, 0));
  else if (isfinite (d->target_tps))
    g_string_append_printf (s, _("Not even one user gets %s tok/s"), hr_fmt_number (a, sizeof a, d->target_tps, 0));
  return s;
}

static void
layout_marks (Layout *l)
{
  const HrChartLoad *d = l->data;
  char text[96];
  int fc = d->first_compute;

  if (fc >= 0 && fc < l->n && point_ok (d, fc) && !(d->kv_bound && fc == l->n - 1))
    {
      g_snprintf (text, sizeof text, _("compute-bound from %.0f"), d->concurrency[fc]);
      hr_marks_add (&l->marks, text, hr_axis_map (&l->xa, d->concurrency[fc], l->x0, l->x1), FALSE,
                    &l->c->theme->muted);
    }
  if (d->kv_bound && l->n > 0 && point_ok (d, l->n - 1))
    {
      g_snprintf (text, sizeof text, _("KV cache full at %.0f"), d->concurrency[l->n - 1]);
      hr_marks_add (&l->marks, text, hr_axis_map (&l->xa, d->concurrency[l->n - 1], l->x0, l->x1), FALSE,
                    &l->c->theme->foreground);
    }
  hr_canvas_place_marks (l->c, &l->marks);
}

static const char *
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;
  const HrChartTheme *t = c->theme;
  double axis_h;
  int k = 0;

  l->legend[k++] = (HrLegendItem) { _("Total"), &t->series[0], HR_SWATCH_LINE, HR_MARKER_CIRCLE };
  l->legend[k++] = (HrLegendItem) { _("Per user"), &t->series[1], HR_SWATCH_DASH, HR_MARKER_SQUARE };
  if (isfinite (l->data->target_tps))
    {
      char a[48];

      g_snprintf (l->target_text, sizeof l->target_text, _("Target: %s tok/s per user"),
                  hr_fmt_number (a, sizeof a, l->data->target_tps, 0));
      l->legend[k++] = (HrLegendItem) { l->target_text, &t->foreground, HR_SWATCH_DOT, -1 };
    }
  l->legend_h = hr_canvas_legend_height (c, l->legend, k);
  axis_h = hr_canvas_xaxis_height (c, _("Users at once"));
  l->lh = hr_canvas_line_height (c, HR_TEXT_LABEL);
  l->y1 = hr_canvas_above_legend (c, l->legend_h) - axis_h;
  hr_axis_log2 (&l->ya, MAX (l->min_v * 0.8, 0.1), l->max_v * 1.25,
                MAX (2, (int) ((l->y1 - top) / (l->lh * 1.6))));
  l->x0 = c->pad + hr_canvas_yaxis_width (c, &l->ya, fmt_tps_tick, _("Tokens/s"));
  l->x1 = c->width - c->pad - c->fs;
  if (l->x1 - l->x0 < c->fs * 4 || l->y1 - top < c->fs * 3)
    return _("Too small to draw");
  hr_axis_log2 (&l->xa, 1, MAX (l->max_x, 2), hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "8888"));
  layout_marks (l);
  l->y0 = top + l->marks.n_tiers * hr_canvas_marks_tier_height (c) + l->lh * 0.5;
  if (l->y1 - l->y0 < c->fs * 3)
    return _("Too small to draw");
  hr_axis_log2 (&l->ya, MAX (l->min_v * 0.8, 0.1), l->max_v * 1.25,
                MAX (2, (int) ((l->y1 - l->y0) / (l->lh * 1.6))));
  return NULL;
}

void
hr_chart_load_paint (HrCanvas   *c,
                     const void *chart_data)
{
  const HrChartLoad *d = chart_data;
  Layout l = { c, d };
  g_autoptr(GString) summary = NULL;
  const char *message;
  double top;

  l.n = CLAMP (d->n_points, 0, HR_CHART_MAX_LOAD);
  scan (&l);
  top = hr_canvas_header (c, &d->heading, HR_CHART_VERDICT_UNKNOWN, NULL);
  summary = summary_text (d);
  if (summary->len > 0)
    top = hr_canvas_summary (c, summary->str, top);
  if (!isfinite (l.min_v) || l.max_v <= 0)
    {
      hr_canvas_message_below (c, top, _("No throughput to show: the speeds are unknown."));
      return;
    }
  if ((message = layout (&l, top)) != NULL)
    {
      hr_canvas_message_below (c, top, message);
      return;
    }
  hr_canvas_xaxis (c, &l.xa, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 }, _("Users at once"));
  hr_canvas_yaxis (c, &l.ya, fmt_tps_tick, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 }, _("Tokens/s"));
  if (isfinite (d->target_tps) && d->target_tps > 0)
    {
      double y = hr_canvas_snap (c, hr_axis_map (&l.ya, d->target_tps, l.y1, l.y0), 1);

      hr_canvas_line (c, l.x0, y, l.x1, y, &(HrStroke) { MAX (c->px * 1.5, 1.5), &c->theme->foreground, dots });
    }
  for (int i = 0; i < l.marks.n; i++)
    {
      double bx = hr_canvas_snap (c, l.marks.label[i].x, 1);

      hr_canvas_line (c, bx, l.y0, bx, l.y1, &(HrStroke) { MAX (c->px, 1.0), &c->theme->muted, dots });
    }
  hr_canvas_draw_marks (c, &l.marks, l.y0);
  cairo_save (c->cr);
  cairo_rectangle (c->cr, l.x0 - c->fs, l.y0 - c->fs, l.x1 - l.x0 + 2 * c->fs, l.y1 - l.y0 + 2 * c->fs);
  cairo_clip (c->cr);
  stroke_series (&l, FALSE);
  stroke_series (&l, TRUE);
  cairo_restore (c->cr);
  hr_canvas_legend_bottom (c, l.legend, isfinite (d->target_tps) ? 3 : 2, l.legend_h);
}
