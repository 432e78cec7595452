/* hr-chart-quant.c — weights + KV + buffers per quantization against the device's capacity
 *
 * One column per quant, highest precision first as the caller orders them.  Under each
 * column: the quant, then the verdict glyph with the decode speed.  Labels rotate when the
 * columns get narrow, and whatever does not fit in a column is dropped rather than overlapped.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

enum
{
  SEG_WEIGHTS,
  SEG_KV,
  SEG_BUFFERS,
  SEG_DRAFT,      /* speculative decoding's draft (#31): in the legend only when there is one */
  SEG_PROJECTOR,  /* the vision projector (#31): likewise */
  N_SEGS
};

static double
row_total (const HrChartQuantRow *row)
{
  return hr_chart_clean (row->weights_gib) + hr_chart_clean (row->kv_gib)
         + hr_chart_clean (row->buffers_gib) + hr_chart_clean (row->draft_gib)
         + hr_chart_clean (row->projector_gib);
}

static gboolean
row_known (const HrChartQuantRow *row)
{
  return isfinite (row->weights_gib);
}

/* Where everything goes, computed in one step under the header. */
typedef struct
{
  HrCanvas *c;
  const HrChartQuant *data;
  int n;
  int cur;                          /* the scenario's quant, -1 for none */
  const HrChartRgba *colors[N_SEGS];
  HrLegendItem legend[10];
  char glyph_text[3][64];
  int n_legend;
  double legend_h;
  double max_v, lh;
  double x0, x1, y0, y1;            /* the plot; labels and capacity labels outside it */
  double pitch, bar_w;              /* one column per quant */
  double label_w, label_h, labels_h, angle;
  gboolean rotate;                  /* category labels at 45° */
  gboolean show_stats;              /* the verdict glyph with the decode speed */
  gboolean values_fit;              /* "205.77 GiB" over the bars, else the number rotated */
  HrAxis yaxis;
} Layout;

static void
layout_legend (Layout *l)
{
  const HrChartTheme *t = l->c->theme;

  double draft = 0, projector = 0;

  for (int i = 0; i < l->n; i++)
    {
      draft += hr_chart_clean (l->data->rows[i].draft_gib);
      projector += hr_chart_clean (l->data->rows[i].projector_gib);
    }
  /* the breakdown's colours: series 3 is system RAM's grey, the draft has a colour of its own */
  for (int s = 0; s < N_SEGS; s++)
    l->colors[s] = s == SEG_DRAFT ? &t->draft : &t->series[s == SEG_PROJECTOR ? 4 : s];
  l->legend[l->n_legend++] = (HrLegendItem) { _("Weights"), l->colors[SEG_WEIGHTS],
                                              HR_SWATCH_BOX, -1 };
  l->legend[l->n_legend++] = (HrLegendItem) { _("KV cache & state"), l->colors[SEG_KV],
                                              HR_SWATCH_BOX, -1 };
  l->legend[l->n_legend++] = (HrLegendItem) { _("Buffers"), l->colors[SEG_BUFFERS],
                                              HR_SWATCH_BOX, -1 };
  if (draft > 0)
    l->legend[l->n_legend++] = (HrLegendItem) { _("Draft model"), l->colors[SEG_DRAFT],
                                                HR_SWATCH_BOX, -1 };
  if (projector > 0)
    l->legend[l->n_legend++] = (HrLegendItem) { _("Vision projector"), l->colors[SEG_PROJECTOR],
                                                HR_SWATCH_BOX, -1 };
  if (isfinite (l->data->usable_gib))
    l->legend[l->n_legend++] = (HrLegendItem) { _("Usable memory"), &t->usable,
                                                HR_SWATCH_DASH, -1 };
  for (int v = 0; v < 3; v++)
    {
      g_strlcpy (l->glyph_text[v], hr_chart_verdict_display ((HrChartVerdict) v),
                 sizeof l->glyph_text[v]);
      l->legend[l->n_legend++] = (HrLegendItem) {
        l->glyph_text[v], hr_chart_theme_verdict_color (t, (HrChartVerdict) v), HR_SWATCH_GLYPH,
        -1, hr_chart_verdict_glyph ((HrChartVerdict) v),
      };
    }
  l->legend_h = hr_canvas_legend_height (l->c, l->legend, l->n_legend);
}

/* "usable 22.8 GiB" or "physical 24 GiB" */
static const char *
capacity_text (int     k,
               double  v,
               char   *buf,
               gsize   size)
{
  char tmp[48];

  g_snprintf (buf, size, k == 0 ? _("usable %s") : _("physical %s"),
              hr_fmt_gib (tmp, sizeof tmp, v));
  return buf;
}

/* The right margin for the capacity lines' labels */
static double
capacity_width (Layout *l)
{
  double right_w = 0;
  char buf[96];

  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? l->data->usable_gib : l->data->physical_gib, w;

      if (!isfinite (v))
        continue;
      hr_canvas_text_measure (l->c, capacity_text (k, v, buf, sizeof buf), HR_TEXT_SMALL, &w,
                              NULL);
      right_w = MAX (right_w, w);
    }
  return right_w;
}

/* Category labels: horizontal when they fit the column, else rotated; the verdict and
 * speed line only when it fits too. */
static void
layout_labels (Layout *l,
               double  top)
{
  HrCanvas *c = l->c;
  double stats_w = 0, value_w = 0;
  char buf[96], tmp[48];

  for (int i = 0; i < l->n; i++)
    {
      const HrChartQuantRow *row = &l->data->rows[i];
      double w, h;

      hr_canvas_text_measure (c, row->label, HR_TEXT_LABEL, &w, &h);
      l->label_w = MAX (l->label_w, w);
      g_snprintf (buf, sizeof buf, "%s %s", hr_chart_verdict_glyph (row->verdict),
                  hr_fmt_tps (tmp, sizeof tmp, row->decode_tps));
      hr_canvas_text_measure (c, buf, HR_TEXT_SMALL, &w, NULL);
      stats_w = MAX (stats_w, w);
      hr_fmt_gib (buf, sizeof buf, row_total (row));
      hr_canvas_text_measure (c, buf, HR_TEXT_SMALL, &w, NULL);
      value_w = MAX (value_w, w);
    }
  l->label_w = MIN (l->label_w, (l->y1 - top) * 0.3);
  l->rotate = l->label_w > l->pitch * 0.92;
  if (l->rotate)
    {
      l->angle = -G_PI / 4;
      l->label_h = l->label_w * sin (G_PI / 4) + l->lh * cos (G_PI / 4);
    }
  else
    l->label_h = l->lh;
  l->show_stats = stats_w <= l->pitch * 0.95;
  l->values_fit = value_w <= l->pitch * 0.98;
  l->labels_h = c->fs * 0.4 + l->label_h + c->fs * 0.25 + l->lh;   /* glyph line always */
}

/* Everything under @top; FALSE when there is no room for the columns. */
static gboolean
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;
  double right_w;

  layout_legend (l);
  right_w = capacity_width (l);
  l->lh = hr_canvas_line_height (c, HR_TEXT_LABEL);
  l->y1 = hr_canvas_above_legend (c, l->legend_h);
  hr_axis_linear (&l->yaxis, 0, l->max_v * 1.04, MAX (2, (int) ((l->y1 - top) / (l->lh * 3))));
  l->x0 = c->pad + hr_canvas_yaxis_width (c, &l->yaxis, NULL, _("Memory (GiB)"));
  l->x1 = c->width - c->pad - (right_w > 0 ? right_w + c->fs * 0.6 : 0);
  if (l->n == 0 || l->x1 - l->x0 < c->fs * 4)
    return FALSE;
  l->pitch = (l->x1 - l->x0) / l->n;
  l->bar_w = MIN (l->pitch * 0.66, c->fs * 5);
  layout_labels (l, top);
  l->y1 -= l->labels_h;
  /* Room above the bars for their values */
  l->y0 = top + l->lh * 1.3;
  if (l->y1 - l->y0 < c->fs * 3)
    return FALSE;
  hr_axis_linear (&l->yaxis, 0, l->max_v * 1.04,
                  MAX (2, (int) ((l->y1 - l->y0) / (l->lh * 3))));
  return TRUE;
}

static double
column_centre (const Layout *l,
               int           i)
{
  return l->x0 + l->pitch * (i + 0.5);
}

/* The current quant: a band behind its column */
static void
draw_current_band (const Layout *l)
{
  HrCanvas *c = l->c;

  if (l->cur < 0)
    return;
  hr_canvas_rounded_rect (c, l->x0 + l->pitch * l->cur + l->pitch * 0.04, l->y0 - l->lh * 1.2,
                          l->pitch * 0.92, l->y1 - l->y0 + l->lh * 1.2 + l->labels_h,
                          c->fs * 0.4);
  hr_canvas_set_color (c, &c->theme->track, 1.0);
  cairo_fill (c->cr);
}

/* One stacked column; the part above the usable line, which does not fit, hatched */
static void
draw_column (const Layout *l,
             int           i)
{
  HrCanvas *c = l->c;
  const HrChartQuantRow *row = &l->data->rows[i];
  double values[N_SEGS] = { row->weights_gib, row->kv_gib, row->buffers_gib, row->draft_gib,
                            row->projector_gib };
  double cx = column_centre (l, i), start = 0, total = row_total (row);
  double top = hr_axis_map (&l->yaxis, total, l->y1, l->y0), bar_w = l->bar_w;

  if (!row_known (row))
    {
      hr_canvas_text (c, _("unknown"), &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = cx,
                        .y = l->y1 - c->fs * 0.4, .yalign = 0.5, .max_width = l->y1 - l->y0,
                        .angle = -G_PI / 2, .color = &c->theme->muted });
      return;
    }
  for (int s = 0; s < N_SEGS; s++)
    {
      double v = hr_chart_clean (values[s]);
      double a = hr_axis_map (&l->yaxis, start, l->y1, l->y0);
      double b = hr_axis_map (&l->yaxis, start + v, l->y1, l->y0);

      if (v <= 0)
        continue;
      cairo_rectangle (c->cr, cx - bar_w / 2, b, bar_w, a - b);
      hr_canvas_set_color (c, l->colors[s], 1.0);
      cairo_fill (c->cr);
      if (start > 0)
        hr_canvas_line (c, cx - bar_w / 2, a, cx + bar_w / 2, a,
                        &(HrStroke) { MAX (c->px, 1.0), &c->theme->background });
      start += v;
    }
  if (isfinite (l->data->usable_gib) && total > l->data->usable_gib)
    {
      double uy = hr_axis_map (&l->yaxis, l->data->usable_gib, l->y1, l->y0);
      HrRect over = { cx - bar_w / 2, top, bar_w, uy - top };

      hr_canvas_hatch (c, &over, &c->theme->exceeds, 1.0, MAX (4.0, c->fs * 0.5));
    }
}

/* Under the axis: the quant, then its verdict glyph with the decode speed */
static void
draw_column_labels (Layout *l,
                    int     i)
{
  HrCanvas *c = l->c;
  const HrChartQuantRow *row = &l->data->rows[i];
  const HrChartRgba *vcolor = hr_chart_theme_verdict_color (c->theme, row->verdict);
  const char *glyph = hr_chart_verdict_glyph (row->verdict);
  double cx = column_centre (l, i), ly = l->y1 + c->fs * 0.4, gw, sw;
  char tps[48];

  c->bold[HR_TEXT_LABEL] = i == l->cur;
  if (l->rotate)
    hr_canvas_text (c, row->label, &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = cx + l->lh * 0.35,
                      .y = ly, .xalign = 1, .max_width = l->label_w, .angle = l->angle });
  else
    hr_canvas_text (c, row->label, &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = cx, .y = ly,
                      .xalign = 0.5, .max_width = l->pitch });
  c->bold[HR_TEXT_LABEL] = FALSE;
  ly += l->label_h + c->fs * 0.25;
  if (!l->show_stats)
    {
      hr_canvas_text (c, glyph, &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = cx, .y = ly,
                        .xalign = 0.5, .color = vcolor });
      return;
    }
  hr_fmt_tps (tps, sizeof tps, row->decode_tps);
  hr_canvas_text_measure (c, glyph, HR_TEXT_STRONG, &gw, NULL);
  hr_canvas_text_measure (c, tps, HR_TEXT_SMALL, &sw, NULL);
  hr_canvas_text (c, glyph, &(HrTextSpec) { .style = HR_TEXT_STRONG,
                    .x = cx - (gw + sw + c->fs * 0.3) / 2, .y = ly, .color = vcolor });
  hr_canvas_text (c, tps, &(HrTextSpec) { .style = HR_TEXT_SMALL,
                    .x = cx - (gw + sw + c->fs * 0.3) / 2 + gw + c->fs * 0.3,
                    .y = ly + c->fs * 0.05, .color = &c->theme->muted });
}

/* Capacity lines across, labelled in the right margin */
static void
draw_capacity (const Layout *l)
{
  HrCanvas *c = l->c;
  const HrChartQuant *data = l->data;
  static const double dash_usable[] = { 6, 3 };
  char buf[96];

  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? data->usable_gib : data->physical_gib;
      double lw = MAX (1.5, c->fs * 0.12), ly;
      double pos[2], size[2];
      HrStroke stroke = k == 0 ? (HrStroke) { lw, &c->theme->usable, dash_usable }
                               : (HrStroke) { MAX (c->px, 1.0), &c->theme->physical };

      if (!isfinite (v) || v > l->yaxis.max)
        continue;
      ly = hr_canvas_snap (c, hr_axis_map (&l->yaxis, v, l->y1, l->y0), lw);
      hr_canvas_line (c, l->x0, ly, l->x1, ly, &stroke);
      /* usable below physical: keep the two labels apart */
      pos[0] = hr_axis_map (&l->yaxis, isfinite (data->physical_gib) ? data->physical_gib : v,
                            l->y1, l->y0);
      pos[1] = hr_axis_map (&l->yaxis, isfinite (data->usable_gib) ? data->usable_gib : v, l->y1,
                            l->y0);
      size[0] = size[1] = l->lh;
      hr_spread (pos, size, 2, 0, l->y0, l->y1);
      hr_canvas_text (c, capacity_text (k, v, buf, sizeof buf),
                      &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = l->x1 + c->fs * 0.4,
                                      .y = k == 0 ? pos[1] : pos[0], .yalign = 0.5,
                                      .color = &c->theme->muted });
    }
}

/* Values over the bars last, on knock-out boxes so the capacity lines pass behind */
static void
draw_values (const Layout *l)
{
  HrCanvas *c = l->c;
  char buf[96];

  for (int i = 0; i < l->n; i++)
    {
      const HrChartQuantRow *row = &l->data->rows[i];
      double cx = column_centre (l, i), total = row_total (row);
      double top = hr_axis_map (&l->yaxis, total, l->y1, l->y0);

      if (!row_known (row))
        continue;
      if (l->values_fit)
        hr_canvas_text (c, hr_fmt_gib (buf, sizeof buf, total),
                        &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = cx, .y = top - c->fs * 0.25,
                                        .xalign = 0.5, .yalign = 1, .boxed = TRUE });
      else
        {
          /* Too narrow for "205.77 GiB": the number alone, rotated. */
          hr_fmt_number (buf, sizeof buf, total, total >= 100 ? 0 : 1);
          hr_canvas_text (c, buf, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = cx,
                            .y = top - c->fs * 0.25, .yalign = 0.5, .angle = -G_PI / 2,
                            .boxed = TRUE });
        }
    }
}

void
hr_chart_quant_paint (HrCanvas   *c,
                      const void *chart_data)
{
  const HrChartQuant *data = chart_data;
  Layout l = { c, data };
  gboolean any = FALSE;
  double top;

  l.n = CLAMP (data->n_rows, 0, HR_CHART_MAX_QUANTS);
  l.cur = data->current_row >= 0 && data->current_row < l.n ? data->current_row : -1;
  for (int i = 0; i < l.n; i++)
    if (row_known (&data->rows[i]))
      {
        any = TRUE;
        l.max_v = MAX (l.max_v, row_total (&data->rows[i]));
      }
  if (isfinite (data->physical_gib))
    l.max_v = MAX (l.max_v, data->physical_gib);
  top = hr_canvas_header (c, &data->heading, HR_CHART_VERDICT_UNKNOWN, NULL);
  if (!any)
    {
      hr_canvas_message_below (c, top, _("The memory figures of this model are unknown."));
      return;
    }
  if (!layout (&l, top))
    {
      hr_canvas_message_below (c, top, _("Too small to draw"));
      return;
    }

  hr_canvas_yaxis (c, &l.yaxis, NULL, &(HrPlot) { l.x0, l.y0, l.x1, l.y1 }, _("Memory (GiB)"));
  draw_current_band (&l);
  for (int i = 0; i < l.n; i++)
    {
      draw_column (&l, i);
      draw_column_labels (&l, i);
    }
  draw_capacity (&l);
  draw_values (&l);
  hr_canvas_legend_bottom (c, l.legend, l.n_legend, l.legend_h);
}
