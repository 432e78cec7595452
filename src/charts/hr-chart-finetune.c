/* hr-chart-finetune.c — QLoRA / LoRA / full fine-tuning memory against one GPU's capacity
 *
 * Like the memory breakdown: one stacked bar per method, the capacity lines across, the part
 * beyond the usable line hatched, and the verdict as glyph and words after each total.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

enum
{
  SEG_WEIGHTS,
  SEG_OPTIMIZER,
  SEG_ACTIVATIONS,
  SEG_BUFFERS,
  N_SEGS
};

static const double dash_usable[] = { 6, 3 };

static double
parts_w (HrCanvas   *c,
         const char *text)
{
  double w;

  hr_canvas_text_measure (c, text, HR_TEXT_SMALL, &w, NULL);
  return w;
}

static double
method_total (const HrChartFtMethod *m)
{
  return hr_chart_clean (m->weights_gib) + hr_chart_clean (m->grad_optimizer_gib)
         + hr_chart_clean (m->activations_gib) + hr_chart_clean (m->buffers_gib);
}

static const char *
method_value (const HrChartFtMethod *m,
              gboolean               with_capacity,
              char                  *buf,
              gsize                  size)
{
  char v[48];

  hr_fmt_gib (v, sizeof v, method_total (m));
  if (!with_capacity || m->verdict == HR_CHART_VERDICT_UNKNOWN)
    g_strlcpy (buf, v, size);
  else
    g_snprintf (buf, size, "%s   %s %s", v, hr_chart_verdict_glyph (m->verdict),
                hr_chart_verdict_display (m->verdict));
  return buf;
}

void
hr_chart_finetune_draw (cairo_t               *cr,
                        double                 width,
                        double                 height,
                        const HrChartFinetune *data,
                        const HrChartTheme    *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  const char *seg_names[N_SEGS];
  const HrChartRgba *colors[N_SEGS];
  HrLegendItem legend[N_SEGS + 1];
  HrMarkLabel marks[2];
  char mark_text[2][96], buf[160];
  double max_v = 0, label_w = 0, value_w = 0, y, legend_h, axis_h, x0, x1, pitch, bar_h, lh;
  double rows_top, rows_bottom, small;
  gboolean capacity;
  int n, n_marks = 0, n_tiers;
  HrAxis axis;

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

  n = CLAMP (data->n_methods, 0, HR_CHART_MAX_FT);
  capacity = isfinite (data->physical_gib) && data->physical_gib > 0;
  y = hr_canvas_header (c, data->title, data->subtitle, HR_CHART_VERDICT_UNKNOWN, NULL);
  for (int i = 0; i < n; i++)
    if (isfinite (data->methods[i].weights_gib))
      max_v = MAX (max_v, method_total (&data->methods[i]));
  if (n == 0 || max_v <= 0)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("The memory figures of this model are unknown."));
      hr_canvas_end (c);
      return;
    }
  if (capacity)
    max_v = MAX (max_v, data->physical_gib);

  seg_names[SEG_WEIGHTS] = _("Weights");
  seg_names[SEG_OPTIMIZER] = _("Gradients + optimizer");
  seg_names[SEG_ACTIVATIONS] = _("Activations");
  seg_names[SEG_BUFFERS] = _("Buffers");
  for (int s = 0; s < N_SEGS; s++)
    {
      colors[s] = &t->series[s];
      legend[s] = (HrLegendItem) { seg_names[s], colors[s], HR_SWATCH_BOX, -1 };
    }
  legend[N_SEGS] = (HrLegendItem) { _("Does not fit"), &t->exceeds, HR_SWATCH_HATCH, -1 };
  legend_h = hr_canvas_legend (c, legend, N_SEGS + (capacity ? 1 : 0), c->pad, 0,
                               width - 2 * c->pad, FALSE);

  for (int i = 0; i < n; i++)
    {
      const HrChartFtMethod *m = &data->methods[i];
      double w;

      hr_canvas_text_measure (c, m->label, HR_TEXT_STRONG, &w, NULL);
      label_w = MAX (label_w, w);
      hr_canvas_text_measure (c, m->note, HR_TEXT_SMALL, &w, NULL);
      label_w = MAX (label_w, w);
      hr_canvas_text_measure (c, method_value (m, capacity, buf, sizeof buf), HR_TEXT_VALUE, &w,
                              NULL);
      value_w = MAX (value_w, w);
    }
  label_w = MIN (label_w, width * 0.26);
  value_w = MIN (value_w, width * 0.3);
  x0 = c->pad + label_w + c->fs;
  x1 = width - c->pad - value_w - c->fs * 0.8;
  if (x1 - x0 < c->fs * 4)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  hr_axis_linear (&axis, 0, max_v * 1.02, hr_canvas_xaxis_max_ticks (c, x1 - x0, "8888"));

  if (capacity && isfinite (data->usable_gib))
    {
      char v[48];

      g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("usable %s"),
                  hr_fmt_gib (v, sizeof v, data->usable_gib));
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&axis, data->usable_gib, x0, x1),
        .prefer_left = TRUE,
      };
      n_marks++;
    }
  if (capacity)
    {
      char v[48];

      hr_fmt_gib (v, sizeof v, data->physical_gib);
      if (data->gpu_label[0] != '\0')
        /* TRANSLATORS: "H100 80GB SXM: 80 GiB" */
        g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("%s: %s"),
                    data->gpu_label, v);
      else
        g_snprintf (mark_text[n_marks], sizeof mark_text[n_marks], _("physical %s"), v);
      marks[n_marks] = (HrMarkLabel) {
        .text = mark_text[n_marks],
        .x = hr_axis_map (&axis, data->physical_gib, x0, x1),
        .prefer_left = FALSE,
      };
      n_marks++;
    }
  n_tiers = hr_canvas_place_marks (c, marks, n_marks, c->pad, width - c->pad);

  axis_h = hr_canvas_xaxis_height (c, _("Memory per GPU (GiB)"));
  rows_top = y + n_tiers * hr_canvas_marks_tier_height (c);
  rows_bottom = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0) - axis_h;
  if (rows_bottom - rows_top < c->fs * 2)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  pitch = (rows_bottom - rows_top) / n;
  bar_h = MIN (pitch * 0.5, c->fs * 3.5);
  hr_canvas_text_measure (c, "Hg", HR_TEXT_VALUE, NULL, &lh);
  small = c->size[HR_TEXT_SMALL];

  hr_canvas_xaxis (c, &axis, NULL, x0, x1, rows_top, rows_bottom, _("Memory per GPU (GiB)"));

  for (int pass = 0; pass < 2; pass++)
    {
      for (int i = 0; i < n; i++)
        {
          const HrChartFtMethod *m = &data->methods[i];
          double values[N_SEGS] = {
            m->weights_gib, m->grad_optimizer_gib, m->activations_gib, m->buffers_gib,
          };
          double cy = rows_top + pitch * (i + 0.5), by = cy - bar_h / 2;
          double total = method_total (m), end = hr_axis_map (&axis, total, x0, x1);

          if (pass == 1)
            {
              hr_canvas_text (c, m->label, HR_TEXT_STRONG, c->pad,
                              cy - (m->note[0] ? lh * 0.55 : 0), 0, 0.5, label_w, &t->foreground);
              if (m->note[0] != '\0')
                hr_canvas_text (c, m->note, HR_TEXT_SMALL, c->pad, cy + lh * 0.6, 0, 0.5, label_w,
                                &t->muted);
            }
          if (!isfinite (m->weights_gib))
            {
              if (pass == 1)
                hr_canvas_text (c, _("unknown"), HR_TEXT_VALUE, x0 + c->fs * 0.4, cy, 0, 0.5, -1,
                                &t->muted);
              continue;
            }
          if (pass == 0)
            {
              if (capacity)
                {
                  cairo_rectangle (c->cr, x0, by,
                                   hr_axis_map (&axis, data->physical_gib, x0, x1) - x0, bar_h);
                  hr_canvas_set_color (c, &t->track, 1.0);
                  cairo_fill (c->cr);
                }
              hr_bar_fill (c, values, colors, FALSE, N_SEGS, &axis, x0, x1, by, bar_h);
              if (capacity && isfinite (data->usable_gib) && total > data->usable_gib)
                {
                  double ux = hr_axis_map (&axis, data->usable_gib, x0, x1);
                  HrRect over = { ux, by, end - ux, bar_h };

                  hr_canvas_hatch (c, &over, &t->exceeds, 1.0, MAX (4.0, c->fs * 0.5));
                }
              continue;
            }

          hr_bar_labels (c, values, seg_names, colors, N_SEGS, &axis, x0, x1, by, bar_h, 0);
          /* Every part in words under the bar: small parts have no room inside it. */
          if (pitch / 2 - bar_h / 2 > lh * 1.3)
            {
              g_autoptr(GString) parts = g_string_new (NULL);

              for (int s = 0; s < N_SEGS; s++)
                {
                  char v[48];

                  if (!(values[s] > 0))
                    continue;
                  if (parts->len > 0)
                    g_string_append (parts, "  ·  ");
                  g_string_append_printf (parts, "%s %s", seg_names[s],
                                          hr_fmt_gib (v, sizeof v, values[s]));
                }
              /* Shrink a little before ellipsizing */
              c->size[HR_TEXT_SMALL] = CLAMP (small * (width - c->pad - x0)
                                              / MAX (1, parts_w (c, parts->str)),
                                              small * 0.75, small);
              hr_canvas_text_boxed (c, parts->str, HR_TEXT_SMALL, x0, by + bar_h + lh * 0.3, 0, 0,
                                    width - c->pad - x0, &t->muted);
              c->size[HR_TEXT_SMALL] = small;
            }
          {
            char v[48];
            double tw, gx;
            const HrChartRgba *vc = hr_chart_theme_verdict_color (t, m->verdict);

            /* Total, then the verdict in its colour after it */
            hr_fmt_gib (v, sizeof v, total);
            tw = hr_canvas_text_boxed (c, v, HR_TEXT_VALUE, end + c->fs * 0.4, cy, 0, 0.5,
                                       -1, &t->foreground);
            if (capacity && m->verdict != HR_CHART_VERDICT_UNKNOWN)
              {
                double bw, bh;

                /* A pill like the header's: verdict colours are too light for text. */
                gx = end + c->fs * 0.4 + tw + c->fs * 0.8;
                bw = hr_canvas_badge (c, m->verdict, NULL, 0, 0, FALSE, &bh);
                if (gx + bw <= width - c->pad)
                  hr_canvas_badge (c, m->verdict, NULL, gx + bw, cy - bh / 2, TRUE, NULL);
                else
                  hr_canvas_text (c, hr_chart_verdict_glyph (m->verdict), HR_TEXT_STRONG, gx, cy,
                                  0, 0.5, -1, vc);
              }
          }
        }
      if (pass == 0 && capacity)
        {
          double lw = MAX (1.5, c->fs * 0.12);
          double px = hr_canvas_snap (c, hr_axis_map (&axis, data->physical_gib, x0, x1), lw);

          hr_canvas_line (c, px, rows_top, px, rows_bottom, lw, &t->physical, NULL, 0);
          if (isfinite (data->usable_gib))
            {
              double ux = hr_canvas_snap (c, hr_axis_map (&axis, data->usable_gib, x0, x1), lw);

              hr_canvas_line (c, ux, rows_top, ux, rows_bottom, lw, &t->usable, dash_usable, 2);
            }
          hr_canvas_draw_marks (c, marks, n_marks, n_tiers, rows_top);
        }
    }

  hr_canvas_legend (c, legend, N_SEGS + (capacity ? 1 : 0), c->pad,
                    height - c->pad - legend_h, width - 2 * c->pad, TRUE);
  hr_canvas_end (c);
}
