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

/* Where everything goes, computed in one step under the header. */
typedef struct
{
  HrCanvas *c;
  const HrChartFinetune *data;
  int n;
  gboolean capacity;                /* a GPU to draw against */
  const char *seg_names[N_SEGS];
  const HrChartRgba *colors[N_SEGS];
  HrLegendItem legend[N_SEGS + 1];
  int n_legend;
  double legend_h;
  double max_v, label_w, value_w;
  double x0, x1, rows_top, rows_bottom, pitch, bar_h, lh;
  HrAxis axis;
  HrMarks marks;                    /* usable, and the GPU's physical memory */
} Layout;

static void
layout_legend (Layout *l)
{
  const HrChartTheme *t = l->c->theme;

  l->seg_names[SEG_WEIGHTS] = _("Weights");
  l->seg_names[SEG_OPTIMIZER] = _("Gradients + optimizer");
  l->seg_names[SEG_ACTIVATIONS] = _("Activations");
  l->seg_names[SEG_BUFFERS] = _("Buffers");
  for (int s = 0; s < N_SEGS; s++)
    {
      l->colors[s] = &t->series[s];
      l->legend[s] = (HrLegendItem) { l->seg_names[s], l->colors[s], HR_SWATCH_BOX, -1 };
    }
  l->legend[N_SEGS] = (HrLegendItem) { _("Does not fit"), &t->exceeds, HR_SWATCH_HATCH, -1 };
  l->n_legend = N_SEGS + (l->capacity ? 1 : 0);
  l->legend_h = hr_canvas_legend_height (l->c, l->legend, l->n_legend);
}

/* The label column (method and note) and the value column (total and verdict) */
static gboolean
layout_columns (Layout *l)
{
  HrCanvas *c = l->c;
  char buf[160];

  for (int i = 0; i < l->n; i++)
    {
      const HrChartFtMethod *m = &l->data->methods[i];
      double w;

      hr_canvas_text_measure (c, m->label, HR_TEXT_STRONG, &w, NULL);
      l->label_w = MAX (l->label_w, w);
      hr_canvas_text_measure (c, m->note, HR_TEXT_SMALL, &w, NULL);
      l->label_w = MAX (l->label_w, w);
      hr_canvas_text_measure (c, method_value (m, l->capacity, buf, sizeof buf), HR_TEXT_VALUE,
                              &w, NULL);
      l->value_w = MAX (l->value_w, w);
    }
  l->label_w = MIN (l->label_w, c->width * 0.26);
  l->value_w = MIN (l->value_w, c->width * 0.3);
  l->x0 = c->pad + l->label_w + c->fs;
  l->x1 = c->width - c->pad - l->value_w - c->fs * 0.8;
  return l->x1 - l->x0 >= c->fs * 4;
}

/* Every method's bar, against the GPU when there is one */
static HrBars
method_bars (const Layout *l)
{
  return (HrBars) { &l->axis, l->x0, l->x1, N_SEGS, l->colors, l->seg_names,
                    l->capacity ? l->data->physical_gib : NAN,
                    l->capacity ? l->data->usable_gib : NAN };
}

/* The capacity lines' labels above the rows */
static void
layout_marks (Layout *l)
{
  HrBars bars = method_bars (l);

  hr_canvas_capacity_marks (l->c, &l->marks, &bars, l->data->gpu_label);
}

/* Everything under @top; FALSE when there is no room for the bars. */
static gboolean
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;

  if (l->capacity)
    l->max_v = MAX (l->max_v, l->data->physical_gib);
  layout_legend (l);
  if (!layout_columns (l))
    return FALSE;
  hr_axis_linear (&l->axis, 0, l->max_v * 1.02,
                  hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "8888"));
  layout_marks (l);
  l->rows_top = top + l->marks.n_tiers * hr_canvas_marks_tier_height (c);
  l->rows_bottom = hr_canvas_above_legend (c, l->legend_h)
                   - hr_canvas_xaxis_height (c, _("Memory per GPU (GiB)"));
  if (l->rows_bottom - l->rows_top < c->fs * 2)
    return FALSE;
  l->pitch = (l->rows_bottom - l->rows_top) / l->n;
  l->bar_h = MIN (l->pitch * 0.5, c->fs * 3.5);
  l->lh = hr_canvas_line_height (c, HR_TEXT_VALUE);
  return TRUE;
}

static double
row_centre (const Layout *l,
            int           i)
{
  return l->rows_top + l->pitch * (i + 0.5);
}

/* The bars against the GPU, then its capacity lines over them */
static void
draw_bars (Layout *l)
{
  const HrChartFinetune *data = l->data;
  HrBars bars = method_bars (l);

  for (int i = 0; i < l->n; i++)
    {
      const HrChartFtMethod *m = &data->methods[i];
      double values[N_SEGS] = {
        m->weights_gib, m->grad_optimizer_gib, m->activations_gib, m->buffers_gib,
      };

      if (!isfinite (m->weights_gib))
        continue;
      hr_bar_against (l->c, &bars, values, row_centre (l, i) - l->bar_h / 2, l->bar_h);
    }
  if (l->capacity)
    {
      hr_capacity_lines (l->c, &bars, l->rows_top, l->rows_bottom);
      hr_canvas_draw_marks (l->c, &l->marks, l->rows_top);
    }
}

/* Every part in words under the bar: small parts have no room inside it. */
static void
draw_parts (Layout       *l,
            const double *values,
            double        y)
{
  HrCanvas *c = l->c;
  double small = c->size[HR_TEXT_SMALL];
  g_autoptr(GString) parts = g_string_new (NULL);

  for (int s = 0; s < N_SEGS; s++)
    {
      char v[48];

      if (!(values[s] > 0))
        continue;
      if (parts->len > 0)
        g_string_append (parts, "  ·  ");
      g_string_append_printf (parts, "%s %s", l->seg_names[s],
                              hr_fmt_gib (v, sizeof v, values[s]));
    }
  /* Shrink a little before ellipsizing */
  c->size[HR_TEXT_SMALL] = CLAMP (small * (c->width - c->pad - l->x0)
                                  / MAX (1, parts_w (c, parts->str)),
                                  small * 0.75, small);
  hr_canvas_text (c, parts->str, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = l->x0, .y = y,
                    .max_width = c->width - c->pad - l->x0, .boxed = TRUE,
                    .color = &c->theme->muted });
  c->size[HR_TEXT_SMALL] = small;
}

/* The total, then the verdict after it: a pill like the header's (verdict colours are too
 * light for text), or the glyph alone where the pill has no room */
static void
draw_total (Layout                *l,
            const HrChartFtMethod *m,
            double                 cy)
{
  HrCanvas *c = l->c;
  double total = method_total (m), end = hr_axis_map (&l->axis, total, l->x0, l->x1);
  HrBadge pill = { m->verdict };
  HrBars bars = method_bars (l);
  double tw, tx, gx;
  char v[48];

  hr_fmt_gib (v, sizeof v, total);
  /* clear of the capacity lines: a total just short of them had the lines through it */
  hr_canvas_text_measure (c, v, HR_TEXT_VALUE, &tw, NULL);
  tx = hr_bars_clear_x (c, &bars, end + c->fs * 0.4, tw, c->fs * 0.4);
  tw = hr_canvas_text (c, v, &(HrTextSpec) { .style = HR_TEXT_VALUE, .x = tx,
                                             .y = cy, .yalign = 0.5, .boxed = TRUE });
  if (!l->capacity || m->verdict == HR_CHART_VERDICT_UNKNOWN)
    return;
  gx = tx + tw + c->fs * 0.8;
  hr_canvas_badge_measure (c, &pill);
  if (gx + pill.width <= c->width - c->pad)
    hr_canvas_badge (c, &pill, gx + pill.width, cy - pill.height / 2);
  else
    hr_canvas_text (c, hr_chart_verdict_glyph (m->verdict),
                    &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = gx, .y = cy, .yalign = 0.5,
                                    .color = hr_chart_theme_verdict_color (c->theme, m->verdict) });
}

/* Every label over the bars and the lines */
static void
draw_labels (Layout *l)
{
  HrCanvas *c = l->c;
  HrBars bars = method_bars (l);
  double lh = l->lh;

  for (int i = 0; i < l->n; i++)
    {
      const HrChartFtMethod *m = &l->data->methods[i];
      double values[N_SEGS] = {
        m->weights_gib, m->grad_optimizer_gib, m->activations_gib, m->buffers_gib,
      };
      double cy = row_centre (l, i), by = cy - l->bar_h / 2;

      hr_canvas_text (c, m->label, &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = c->pad,
                        .y = cy - (m->note[0] ? lh * 0.55 : 0), .yalign = 0.5,
                        .max_width = l->label_w });
      if (m->note[0] != '\0')
        hr_canvas_text (c, m->note, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = c->pad,
                          .y = cy + lh * 0.6, .yalign = 0.5, .max_width = l->label_w,
                          .color = &c->theme->muted });
      if (!isfinite (m->weights_gib))
        {
          hr_canvas_text (c, _("unknown"), &(HrTextSpec) { .style = HR_TEXT_VALUE,
                            .x = l->x0 + c->fs * 0.4, .y = cy, .yalign = 0.5,
                            .color = &c->theme->muted });
          continue;
        }
      hr_bar_labels (c, &bars, values, by, l->bar_h, 0);
      if (l->pitch / 2 - l->bar_h / 2 > lh * 1.3)
        draw_parts (l, values, by + l->bar_h + lh * 0.3);
      draw_total (l, m, cy);
    }
}

void
hr_chart_finetune_paint (HrCanvas   *c,
                         const void *chart_data)
{
  const HrChartFinetune *data = chart_data;
  Layout l = { c, data };
  double top;

  l.n = CLAMP (data->n_methods, 0, HR_CHART_MAX_FT);
  l.capacity = isfinite (data->physical_gib) && data->physical_gib > 0;
  top = hr_canvas_header (c, &data->heading, HR_CHART_VERDICT_UNKNOWN, NULL);
  for (int i = 0; i < l.n; i++)
    if (isfinite (data->methods[i].weights_gib))
      l.max_v = MAX (l.max_v, method_total (&data->methods[i]));
  if (l.n == 0 || l.max_v <= 0)
    {
      hr_canvas_message_below (c, top, _("The memory figures of this model are unknown."));
      return;
    }
  if (!layout (&l, top))
    {
      hr_canvas_message_below (c, top, _("Too small to draw"));
      return;
    }

  hr_canvas_xaxis (c, &l.axis, NULL, &(HrPlot) { l.x0, l.rows_top, l.x1, l.rows_bottom },
                   _("Memory per GPU (GiB)"));
  draw_bars (&l);
  draw_labels (&l);
  hr_canvas_legend_bottom (c, l.legend, l.n_legend, l.legend_h);
}
