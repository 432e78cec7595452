/* hr-chart-breakdown.c — memory breakdown: one stacked bar per device against its capacity
 *
 * Horizontal bars, so that device names read left to right however many there are.  The
 * part of a bar beyond the usable line is hatched: the verdict shows without colour.
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

static gboolean
device_known (const HrChartDevice *d)
{
  return isfinite (d->weights_gib) && isfinite (d->kv_gib) && isfinite (d->buffers_gib);
}

static double
device_total (const HrChartDevice *d)
{
  return hr_chart_clean (d->weights_gib) + hr_chart_clean (d->kv_gib)
         + hr_chart_clean (d->buffers_gib);
}

static gboolean
same_capacity (const HrChartBreakdown *data,
               int                     n)
{
  for (int i = 1; i < n; i++)
    if (fabs (data->devices[i].physical_gib - data->devices[0].physical_gib) > 1e-6
        || fabs (data->devices[i].usable_gib - data->devices[0].usable_gib) > 1e-6)
      return FALSE;
  return TRUE;
}

static void
draw_capacity (HrCanvas            *c,
               const HrChartDevice *d,
               const HrAxis        *axis,
               double               x0,
               double               x1,
               double               top,
               double               bottom)
{
  double lw = MAX (1.5, c->fs * 0.12);

  if (isfinite (d->physical_gib))
    {
      double px = hr_canvas_snap (c, hr_axis_map (axis, d->physical_gib, x0, x1), lw);

      hr_canvas_line (c, px, top, px, bottom, lw, &c->theme->physical, NULL, 0);
    }
  if (isfinite (d->usable_gib))
    {
      double ux = hr_canvas_snap (c, hr_axis_map (axis, d->usable_gib, x0, x1), lw);

      hr_canvas_line (c, ux, top, ux, bottom, lw, &c->theme->usable, dash_usable, 2);
    }
}

static void
draw_device_bar (HrCanvas            *c,
                 const HrChartDevice *d,
                 const HrChartRgba  **colors,
                 const HrAxis        *axis,
                 double               x0,
                 double               x1,
                 double               y,
                 double               h)
{
  double values[N_SEGS] = { d->weights_gib, d->kv_gib, d->buffers_gib };
  double total = device_total (d);

  /* Empty capacity behind the bar */
  if (isfinite (d->physical_gib) && d->physical_gib > 0)
    {
      cairo_rectangle (c->cr, x0, y, hr_axis_map (axis, d->physical_gib, x0, x1) - x0, h);
      hr_canvas_set_color (c, &c->theme->track, 1.0);
      cairo_fill (c->cr);
    }
  hr_bar_fill (c, values, colors, FALSE, N_SEGS, axis, x0, x1, y, h);
  /* Whatever lies beyond the usable line does not fit: hatch it. */
  if (isfinite (d->usable_gib) && total > d->usable_gib)
    {
      double ux = hr_axis_map (axis, d->usable_gib, x0, x1);
      HrRect over = { ux, y, hr_axis_map (axis, total, x0, x1) - ux, h };

      hr_canvas_hatch (c, &over, &c->theme->exceeds, 1.0, MAX (4.0, c->fs * 0.5));
    }
}

void
hr_chart_breakdown_draw (cairo_t                *cr,
                         double                  width,
                         double                  height,
                         const HrChartBreakdown *data,
                         const HrChartTheme     *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  HrLegendItem legend[N_SEGS + 1];
  const HrChartRgba *colors[N_SEGS];
  const char *seg_names[N_SEGS] = { _("Weights"), _("KV cache"), _("Buffers") };
  double totals[N_SEGS] = { 0 }, max_v = 0, label_w = 0, value_w = 0, y, legend_h, axis_h;
  double x0, x1, rows_top, rows_bottom, pitch, bar_h, lh;
  char lbuf[N_SEGS + 1][96], buf[128], badge[96], mark_text[2][96];
  HrMarkLabel marks[2];
  HrAxis axis;
  HrRect plot;
  int n, n_rows, n_marks = 0, n_tiers = 0, n_legend = 0;
  gboolean known, has_ram, uniform;
  g_autoptr(GString) summary = NULL;

  if (!hr_canvas_begin (c, cr, width, height, theme))
    return;
  t = c->theme;
  hr_canvas_background (c);

  n = data != NULL ? CLAMP (data->n_devices, 0, HR_CHART_MAX_DEVICES) : 0;
  known = n > 0 && isfinite (data->required_gib);
  for (int i = 0; i < n && known; i++)
    known = device_known (&data->devices[i]);

  if (data == NULL)
    {
      HrRect r = { 0, 0, width, height };

      hr_canvas_message (c, &r, _("No data"));
      hr_canvas_end (c);
      return;
    }

  /* Header: title, scenario, verdict with the utilisation */
  if (known && isfinite (data->physical_gib) && data->physical_gib > 0)
    /* TRANSLATORS: chart badge: verdict · utilisation in percent */
    g_snprintf (badge, sizeof badge, _("%s · %.0f %%"), hr_chart_verdict_display (data->verdict),
                100.0 * data->required_gib / data->physical_gib);
  else
    g_strlcpy (badge, hr_chart_verdict_display (known ? data->verdict
                                                      : HR_CHART_VERDICT_UNKNOWN), sizeof badge);
  y = hr_canvas_header (c, data->title, data->subtitle,
                        known ? data->verdict : HR_CHART_VERDICT_UNKNOWN, badge);

  if (!known)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("The memory figures of this model are unknown."));
      hr_canvas_end (c);
      return;
    }

  summary = g_string_new (NULL);
  {
    char a[48], b[48], m[48];

    /* TRANSLATORS: "Required 69.96 GiB (75.12 GB)" */
    g_string_append_printf (summary, _("Required %s (%.2f GB)"),
                            hr_fmt_gib (a, sizeof a, data->required_gib),
                            data->required_gib * 1.073741824);
    if (isfinite (data->usable_gib) && isfinite (data->physical_gib))
      {
        g_string_append (summary, "  ·  ");
        /* TRANSLATORS: "usable 60.8 GiB of 64 GiB" */
        g_string_append_printf (summary, _("usable %s of %s"),
                                hr_fmt_gib (a, sizeof a, data->usable_gib),
                                hr_fmt_gib (b, sizeof b, data->physical_gib));
        g_string_append (summary, "  ·  ");
        hr_fmt_gib (m, sizeof m, fabs (data->usable_gib - data->required_gib));
        /* TRANSLATORS: the safety margin, "+6.04 GiB" or "−9.16 GiB" */
        g_string_append_printf (summary, _("margin %s%s"),
                                data->usable_gib >= data->required_gib ? "+" : "\u2212", m);
      }
    if (data->system_ram_gib > 0)
      {
        g_string_append (summary, "  ·  ");
        g_string_append_printf (summary, _("%s in system RAM"),
                                hr_fmt_gib (a, sizeof a, data->system_ram_gib));
      }
    if (isfinite (data->weights_file_gib) && data->weights_file_gib > 0)
      {
        g_string_append (summary, "  ·  ");
        /* TRANSLATORS: the size of all the weights, of which the bars show the loaded part */
        g_string_append_printf (summary, _("weights file %s"),
                                hr_fmt_gib (a, sizeof a, data->weights_file_gib));
      }
    hr_canvas_text_measure (c, summary->str, HR_TEXT_SUBTITLE, NULL, &lh);
    hr_canvas_text (c, summary->str, HR_TEXT_SUBTITLE, c->pad, y, 0, 0, width - 2 * c->pad,
                    &t->foreground);
    y += lh + c->fs * 0.8;
  }

  has_ram = isfinite (data->system_ram_gib) && data->system_ram_gib > 0;
  uniform = same_capacity (data, n);
  n_rows = n + (has_ram ? 1 : 0);

  /* Legend with the totals, at the bottom */
  for (int i = 0; i < n; i++)
    {
      totals[SEG_WEIGHTS] += hr_chart_clean (data->devices[i].weights_gib);
      totals[SEG_KV] += hr_chart_clean (data->devices[i].kv_gib);
      totals[SEG_BUFFERS] += hr_chart_clean (data->devices[i].buffers_gib);
      max_v = MAX (max_v, device_total (&data->devices[i]));
      if (isfinite (data->devices[i].physical_gib))
        max_v = MAX (max_v, data->devices[i].physical_gib);
    }
  if (has_ram)
    max_v = MAX (max_v, data->system_ram_gib);
  colors[SEG_WEIGHTS] = &t->series[0];
  colors[SEG_KV] = &t->series[1];
  colors[SEG_BUFFERS] = &t->series[2];
  {
    const char *names[N_SEGS + 1] = {
      _("Weights"), _("KV cache & state"), _("Engine & activation buffers"),
      _("System RAM (offload)"),
    };
    char v[48];

    for (int s = 0; s < N_SEGS; s++)
      {
        g_snprintf (lbuf[s], sizeof lbuf[s], "%s  %s", names[s],
                    hr_fmt_gib (v, sizeof v, totals[s]));
        legend[n_legend++] = (HrLegendItem) { lbuf[s], colors[s], HR_SWATCH_BOX, -1 };
      }
    g_snprintf (lbuf[N_SEGS], sizeof lbuf[N_SEGS], "%s  %s", names[N_SEGS],
                hr_fmt_gib (v, sizeof v, hr_chart_clean (data->system_ram_gib)));
    legend[n_legend++] = (HrLegendItem) { lbuf[N_SEGS], &t->series[3], HR_SWATCH_HATCH, -1 };
  }
  legend_h = hr_canvas_legend (c, legend, n_legend, c->pad, 0, width - 2 * c->pad, FALSE);

  /* Label column and value column widths */
  for (int i = 0; i < n_rows; i++)
    {
      double w;
      const char *label = i < n ? data->devices[i].label : _("System RAM");

      if (i < n && label[0] == '\0')
        {
          g_snprintf (buf, sizeof buf, _("GPU %d"), i + 1);
          label = buf;
        }
      hr_canvas_text_measure (c, label, HR_TEXT_LABEL, &w, NULL);
      label_w = MAX (label_w, w);
      hr_fmt_gib (buf, sizeof buf, i < n ? device_total (&data->devices[i])
                                         : data->system_ram_gib);
      hr_canvas_text_measure (c, buf, HR_TEXT_VALUE, &w, NULL);
      value_w = MAX (value_w, w);
    }
  label_w = MIN (label_w, width * 0.3);

  axis_h = hr_canvas_xaxis_height (c, _("Memory (GiB)"));
  x0 = c->pad + label_w + c->fs * 0.8;
  x1 = width - c->pad - value_w - c->fs * 0.8;
  if (x1 - x0 < c->fs * 4)
    {
      /* Too narrow for a bar: drop the labels rather than draw garbage. */
      label_w = 0;
      x0 = c->pad;
      x1 = width - c->pad;
    }
  hr_axis_linear (&axis, 0, max_v * 1.02,
                  hr_canvas_xaxis_max_ticks (c, x1 - x0, "888"));

  /* Capacity-line labels above the rows */
  if (uniform && isfinite (data->devices[0].usable_gib))
    {
      char v[48];

      g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("usable %s"),
                  hr_fmt_gib (v, sizeof v, data->devices[0].usable_gib));
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&axis, data->devices[0].usable_gib, x0, x1),
        .prefer_left = TRUE,
      };
      n_marks++;
    }
  if (uniform && isfinite (data->devices[0].physical_gib))
    {
      char v[48];

      g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("physical %s"),
                  hr_fmt_gib (v, sizeof v, data->devices[0].physical_gib));
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&axis, data->devices[0].physical_gib, x0, x1),
        .prefer_left = FALSE,
      };
      n_marks++;
    }
  n_tiers = hr_canvas_place_marks (c, marks, n_marks, c->pad, width - c->pad);

  rows_top = y + n_tiers * hr_canvas_marks_tier_height (c);
  rows_bottom = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0) - axis_h;
  plot = (HrRect) { x0, rows_top, x1 - x0, rows_bottom - rows_top };
  if (plot.h < c->fs * 1.5 || plot.w < c->fs * 2)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, summary->str);
      hr_canvas_end (c);
      return;
    }

  pitch = plot.h / n_rows;
  bar_h = MIN (pitch * 0.62, c->fs * 4.5);
  /* Row labels must fit their rows: shrink them for many devices. */
  c->size[HR_TEXT_LABEL] = MIN (c->size[HR_TEXT_LABEL], MAX (pitch * 0.8, c->fs * 0.6));
  c->size[HR_TEXT_VALUE] = MIN (c->size[HR_TEXT_VALUE], MAX (pitch * 0.8, c->fs * 0.6));

  hr_canvas_xaxis (c, &axis, NULL, x0, x1, plot.y, plot.y + plot.h, _("Memory (GiB)"));

  /* Bars first, then the capacity lines over them, then every label over both. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (int i = 0; i < n_rows; i++)
        {
          double cy = plot.y + pitch * (i + 0.5), by = cy - bar_h / 2, total;
          const char *label;
          char vbuf[48];

          if (i < n)
            {
              const HrChartDevice *d = &data->devices[i];
              double values[N_SEGS] = { d->weights_gib, d->kv_gib, d->buffers_gib };

              total = device_total (d);
              if (pass == 0)
                {
                  draw_device_bar (c, d, colors, &axis, x0, x1, by, bar_h);
                  if (!uniform)
                    draw_capacity (c, d, &axis, x0, x1, by - bar_h * 0.2, by + bar_h * 1.2);
                  continue;
                }
              hr_bar_labels (c, values, seg_names, colors, N_SEGS, &axis, x0, x1, by, bar_h,
                             pitch / 2 - bar_h / 2);
              label = d->label;
              if (label[0] == '\0')
                {
                  g_snprintf (buf, sizeof buf, _("GPU %d"), i + 1);
                  label = buf;
                }
            }
          else
            {
              double values[1] = { data->system_ram_gib };
              const HrChartRgba *ram_color[1] = { &t->series[3] };

              total = data->system_ram_gib;
              if (pass == 0)
                {
                  hr_bar_fill (c, values, ram_color, TRUE, 1, &axis, x0, x1, by, bar_h);
                  continue;
                }
              label = _("System RAM");
            }

          if (label_w > 0)
            hr_canvas_text (c, label, HR_TEXT_LABEL, c->pad, cy, 0, 0.5, label_w,
                            i < n ? &t->foreground : &t->muted);
          hr_canvas_text_boxed (c, hr_fmt_gib (vbuf, sizeof vbuf, total), HR_TEXT_VALUE,
                                hr_axis_map (&axis, total, x0, x1) + c->fs * 0.4, cy, 0, 0.5,
                                -1, &t->foreground);
        }

      /* One pair of capacity lines across all the device rows */
      if (pass == 0 && uniform)
        {
          draw_capacity (c, &data->devices[0], &axis, x0, x1, plot.y, plot.y + pitch * n);
          hr_canvas_draw_marks (c, marks, n_marks, n_tiers, plot.y);
        }
    }

  hr_canvas_legend (c, legend, n_legend, c->pad, height - c->pad - legend_h,
                    width - 2 * c->pad, TRUE);
  hr_canvas_end (c);
}
