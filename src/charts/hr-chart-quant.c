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
  N_SEGS
};

static const double dash_usable[] = { 6, 3 };

static double
row_total (const HrChartQuantRow *row)
{
  return hr_chart_clean (row->weights_gib) + hr_chart_clean (row->kv_gib)
         + hr_chart_clean (row->buffers_gib);
}

static gboolean
row_known (const HrChartQuantRow *row)
{
  return isfinite (row->weights_gib);
}

void
hr_chart_quant_draw (cairo_t            *cr,
                     double              width,
                     double              height,
                     const HrChartQuant *data,
                     const HrChartTheme *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  HrLegendItem legend[8];
  char glyph_text[3][64], buf[96], tmp[48];
  const HrChartRgba *colors[N_SEGS];
  double max_v = 0, y, legend_h, x0, x1, y0, y1, lh, label_w = 0, label_h, stats_w = 0;
  double pitch, bar_w, labels_h, angle = 0, yaxis_w, right_w = 0, value_w = 0;
  gboolean show_stats, rotate, any = FALSE, values_fit;
  int n, n_legend = 0, cur;
  HrAxis yaxis;

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

  n = CLAMP (data->n_rows, 0, HR_CHART_MAX_QUANTS);
  cur = data->current_row >= 0 && data->current_row < n ? data->current_row : -1;
  for (int i = 0; i < n; i++)
    if (row_known (&data->rows[i]))
      {
        any = TRUE;
        max_v = MAX (max_v, row_total (&data->rows[i]));
      }
  if (isfinite (data->physical_gib))
    max_v = MAX (max_v, data->physical_gib);

  y = hr_canvas_header (c, data->title, data->subtitle, HR_CHART_VERDICT_UNKNOWN, NULL);
  if (!any)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("The memory figures of this model are unknown."));
      hr_canvas_end (c);
      return;
    }

  colors[SEG_WEIGHTS] = &t->series[0];
  colors[SEG_KV] = &t->series[1];
  colors[SEG_BUFFERS] = &t->series[2];
  legend[n_legend++] = (HrLegendItem) { _("Weights"), colors[SEG_WEIGHTS], HR_SWATCH_BOX, -1 };
  legend[n_legend++] = (HrLegendItem) { _("KV cache & state"), colors[SEG_KV], HR_SWATCH_BOX, -1 };
  legend[n_legend++] = (HrLegendItem) { _("Buffers"), colors[SEG_BUFFERS], HR_SWATCH_BOX, -1 };
  if (isfinite (data->usable_gib))
    legend[n_legend++] = (HrLegendItem) { _("Usable memory"), &t->usable, HR_SWATCH_DASH, -1 };
  for (int v = 0; v < 3; v++)
    {
      g_strlcpy (glyph_text[v], hr_chart_verdict_display ((HrChartVerdict) v),
                 sizeof glyph_text[v]);
      legend[n_legend++] = (HrLegendItem) {
        glyph_text[v], hr_chart_theme_verdict_color (t, (HrChartVerdict) v), HR_SWATCH_GLYPH, -1,
        hr_chart_verdict_glyph ((HrChartVerdict) v),
      };
    }
  legend_h = hr_canvas_legend (c, legend, n_legend, c->pad, 0, width - 2 * c->pad, FALSE);

  /* Capacity labels in a right margin */
  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? data->usable_gib : data->physical_gib, w;

      if (!isfinite (v))
        continue;
      g_snprintf (buf, sizeof buf, k == 0 ? _("usable %s") : _("physical %s"),
                  hr_fmt_gib (tmp, sizeof tmp, v));
      hr_canvas_text_measure (c, buf, HR_TEXT_SMALL, &w, NULL);
      right_w = MAX (right_w, w);
    }

  hr_canvas_text_measure (c, "Hg", HR_TEXT_LABEL, NULL, &lh);
  y1 = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0);
  hr_axis_linear (&yaxis, 0, max_v * 1.04, MAX (2, (int) ((y1 - y) / (lh * 3))));
  yaxis_w = hr_canvas_yaxis_width (c, &yaxis, NULL, _("Memory (GiB)"));
  x0 = c->pad + yaxis_w;
  x1 = width - c->pad - (right_w > 0 ? right_w + c->fs * 0.6 : 0);
  if (n == 0 || x1 - x0 < c->fs * 4)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  pitch = (x1 - x0) / n;
  bar_w = MIN (pitch * 0.66, c->fs * 5);

  /* Category labels: horizontal when they fit the column, else rotated; the verdict and
   * speed line only when it fits too. */
  for (int i = 0; i < n; i++)
    {
      double w, h;

      hr_canvas_text_measure (c, data->rows[i].label, HR_TEXT_LABEL, &w, &h);
      label_w = MAX (label_w, w);
      g_snprintf (buf, sizeof buf, "%s %s", hr_chart_verdict_glyph (data->rows[i].verdict),
                  hr_fmt_tps (tmp, sizeof tmp, data->rows[i].decode_tps));
      hr_canvas_text_measure (c, buf, HR_TEXT_SMALL, &w, NULL);
      stats_w = MAX (stats_w, w);
      hr_fmt_gib (buf, sizeof buf, row_total (&data->rows[i]));
      hr_canvas_text_measure (c, buf, HR_TEXT_SMALL, &w, NULL);
      value_w = MAX (value_w, w);
    }
  label_w = MIN (label_w, (y1 - y) * 0.3);
  rotate = label_w > pitch * 0.92;
  if (rotate)
    {
      angle = -G_PI / 4;
      label_h = label_w * sin (G_PI / 4) + lh * cos (G_PI / 4);
    }
  else
    label_h = lh;
  show_stats = stats_w <= pitch * 0.95;
  values_fit = value_w <= pitch * 0.98;
  labels_h = c->fs * 0.4 + label_h + c->fs * 0.25 + lh;   /* glyph line always */
  y1 -= labels_h;

  /* Room above the bars for their values */
  y0 = y + lh * 1.3;
  if (y1 - y0 < c->fs * 3)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  hr_axis_linear (&yaxis, 0, max_v * 1.04, MAX (2, (int) ((y1 - y0) / (lh * 3))));
  hr_canvas_yaxis (c, &yaxis, NULL, c->pad, x0, x1, y1, y0, _("Memory (GiB)"));

  /* Current quant: a band behind its column */
  if (cur >= 0)
    {
      hr_canvas_rounded_rect (c, x0 + pitch * cur + pitch * 0.04, y0 - lh * 1.2, pitch * 0.92,
                              y1 - y0 + lh * 1.2 + labels_h, c->fs * 0.4);
      hr_canvas_set_color (c, &t->track, 1.0);
      cairo_fill (c->cr);
    }

  for (int i = 0; i < n; i++)
    {
      const HrChartQuantRow *row = &data->rows[i];
      double values[N_SEGS] = { row->weights_gib, row->kv_gib, row->buffers_gib };
      double cx = x0 + pitch * (i + 0.5), start = 0, total = row_total (row);
      double top = hr_axis_map (&yaxis, total, y1, y0), ly;
      const HrChartRgba *vcolor = hr_chart_theme_verdict_color (t, row->verdict);

      if (!row_known (row))
        {
          hr_canvas_text_rotated (c, _("unknown"), HR_TEXT_SMALL, cx, y1 - c->fs * 0.4, 0, 0.5,
                                  -G_PI / 2, y1 - y0, &t->muted);
        }
      else
        {
          for (int s = 0; s < N_SEGS; s++)
            {
              double v = hr_chart_clean (values[s]);
              double a = hr_axis_map (&yaxis, start, y1, y0);
              double b = hr_axis_map (&yaxis, start + v, y1, y0);

              if (v <= 0)
                continue;
              cairo_rectangle (c->cr, cx - bar_w / 2, b, bar_w, a - b);
              hr_canvas_set_color (c, colors[s], 1.0);
              cairo_fill (c->cr);
              if (start > 0)
                hr_canvas_line (c, cx - bar_w / 2, a, cx + bar_w / 2, a, MAX (c->px, 1.0),
                                &t->background, NULL, 0);
              start += v;
            }
          /* The part above the usable line does not fit: hatched */
          if (isfinite (data->usable_gib) && total > data->usable_gib)
            {
              double uy = hr_axis_map (&yaxis, data->usable_gib, y1, y0);
              HrRect over = { cx - bar_w / 2, top, bar_w, uy - top };

              hr_canvas_hatch (c, &over, &t->exceeds, 1.0, MAX (4.0, c->fs * 0.5));
            }
        }

      /* Labels under the axis */
      ly = y1 + c->fs * 0.4;
      c->bold[HR_TEXT_LABEL] = i == cur;
      if (rotate)
        hr_canvas_text_rotated (c, row->label, HR_TEXT_LABEL, cx + lh * 0.35, ly, 1, 0, angle,
                                label_w, &t->foreground);
      else
        hr_canvas_text (c, row->label, HR_TEXT_LABEL, cx, ly, 0.5, 0, pitch, &t->foreground);
      c->bold[HR_TEXT_LABEL] = FALSE;
      ly += label_h + c->fs * 0.25;
      if (show_stats)
        {
          double gw, sw;
          char tps[48];

          hr_fmt_tps (tps, sizeof tps, row->decode_tps);
          hr_canvas_text_measure (c, hr_chart_verdict_glyph (row->verdict), HR_TEXT_STRONG, &gw,
                                  NULL);
          hr_canvas_text_measure (c, tps, HR_TEXT_SMALL, &sw, NULL);
          hr_canvas_text (c, hr_chart_verdict_glyph (row->verdict), HR_TEXT_STRONG,
                          cx - (gw + sw + c->fs * 0.3) / 2, ly, 0, 0, -1, vcolor);
          hr_canvas_text (c, tps, HR_TEXT_SMALL, cx - (gw + sw + c->fs * 0.3) / 2 + gw
                          + c->fs * 0.3, ly + c->fs * 0.05, 0, 0, -1, &t->muted);
        }
      else
        hr_canvas_text (c, hr_chart_verdict_glyph (row->verdict), HR_TEXT_STRONG, cx, ly, 0.5, 0,
                        -1, vcolor);
    }

  /* Capacity lines across, labelled in the right margin */
  for (int k = 0; k < 2; k++)
    {
      double v = k == 0 ? data->usable_gib : data->physical_gib;
      double lw = MAX (1.5, c->fs * 0.12), ly;
      double pos[2], size[2];

      if (!isfinite (v) || v > yaxis.max)
        continue;
      ly = hr_canvas_snap (c, hr_axis_map (&yaxis, v, y1, y0), lw);
      hr_canvas_line (c, x0, ly, x1, ly, k == 0 ? lw : MAX (c->px, 1.0),
                      k == 0 ? &t->usable : &t->physical, k == 0 ? dash_usable : NULL, 2);
      /* usable below physical: keep the two labels apart */
      pos[0] = hr_axis_map (&yaxis, isfinite (data->physical_gib) ? data->physical_gib
                                                                 : v, y1, y0);
      pos[1] = hr_axis_map (&yaxis, isfinite (data->usable_gib) ? data->usable_gib : v, y1, y0);
      size[0] = size[1] = lh;
      hr_spread (pos, size, 2, 0, y0, y1);
      g_snprintf (buf, sizeof buf, k == 0 ? _("usable %s") : _("physical %s"),
                  hr_fmt_gib (tmp, sizeof tmp, v));
      hr_canvas_text (c, buf, HR_TEXT_SMALL, x1 + c->fs * 0.4, k == 0 ? pos[1] : pos[0], 0, 0.5,
                      -1, &t->muted);
    }

  /* Values over the bars last, on knock-out boxes so the capacity lines pass behind */
  for (int i = 0; i < n; i++)
    {
      const HrChartQuantRow *row = &data->rows[i];
      double cx = x0 + pitch * (i + 0.5), total = row_total (row);
      double top = hr_axis_map (&yaxis, total, y1, y0);

      if (!row_known (row))
        continue;
      if (values_fit)
        hr_canvas_text_boxed (c, hr_fmt_gib (buf, sizeof buf, total), HR_TEXT_SMALL, cx,
                              top - c->fs * 0.25, 0.5, 1, -1, &t->foreground);
      else
        {
          /* Too narrow for "205.77 GiB": the number alone, rotated. */
          hr_fmt_number (buf, sizeof buf, total, total >= 100 ? 0 : 1);
          hr_canvas_text_rotated_boxed (c, buf, HR_TEXT_SMALL, cx, top - c->fs * 0.25, 0, 0.5,
                                        -G_PI / 2, &t->foreground);
        }
    }

  hr_canvas_legend (c, legend, n_legend, c->pad, height - c->pad - legend_h, width - 2 * c->pad,
                    TRUE);
  hr_canvas_end (c);
}
