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
  SEG_DRAFT,      /* speculative decoding's draft (#31): in the legend only when there is one */
  SEG_PROJECTOR,  /* the vision projector (#31): on the device that holds it */
  N_SEGS
};

/* A device row's parts, in SEG_ order */
#define DEVICE_VALUES(d) { (d)->weights_gib, (d)->kv_gib, (d)->buffers_gib, (d)->draft_gib, \
                          (d)->projector_gib }

static gboolean
device_known (const HrChartDevice *d)
{
  return isfinite (d->weights_gib) && isfinite (d->kv_gib) && isfinite (d->buffers_gib);
}

static double
device_total (const HrChartDevice *d)
{
  return hr_chart_clean (d->weights_gib) + hr_chart_clean (d->kv_gib)
         + hr_chart_clean (d->buffers_gib) + hr_chart_clean (d->draft_gib)
         + hr_chart_clean (d->projector_gib);
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

/* Where everything goes, computed in one step under the header and the summary line. */
typedef struct
{
  HrCanvas *c;
  const HrChartBreakdown *data;
  int n;                            /* devices */
  int n_rows;                       /* devices, and system RAM when weights are offloaded */
  gboolean has_ram;
  gboolean uniform;                 /* every device has the same capacity: one pair of lines */
  const HrChartRgba *colors[N_SEGS];
  const char *seg_names[N_SEGS];    /* for the callouts on the bars */
  HrLegendItem legend[N_SEGS + 1];
  char legend_text[N_SEGS + 1][96];
  int n_legend;                     /* the draft's and projector's entries only when there */
  double legend_h;
  double max_v, label_w, value_w;
  double x0, x1, pitch, bar_h;
  HrAxis axis;
  HrRect plot;
  HrMarks marks;                    /* the capacity lines' labels, when uniform */
} Layout;

/* Title, scenario, and the verdict with the utilisation */
static double
draw_header (HrCanvas               *c,
             const HrChartBreakdown *data,
             gboolean                known)
{
  char badge[96];

  if (known && isfinite (data->physical_gib) && data->physical_gib > 0)
    /* TRANSLATORS: chart badge: verdict · utilisation in percent */
    g_snprintf (badge, sizeof badge, _("%s · %.0f%%"), hr_chart_verdict_display (data->verdict),
                100.0 * data->required_gib / data->physical_gib);
  else
    g_strlcpy (badge, hr_chart_verdict_display (known ? data->verdict
                                                      : HR_CHART_VERDICT_UNKNOWN), sizeof badge);
  return hr_canvas_header (c, &data->heading,
                           known ? data->verdict : HR_CHART_VERDICT_UNKNOWN, badge);
}

/* "Required 69.96 GiB (75.12 GB)  ·  usable …  ·  margin …  ·  … in system RAM" */
static GString *
summary_text (const HrChartBreakdown *data)
{
  GString *summary = g_string_new (NULL);
  char a[48], b[48], m[48];

  /* TRANSLATORS: "Required 69.96 GiB (75.12 GB)" */
  g_string_append_printf (summary, _("Required %s (%.2f GB)"),
                          hr_fmt_gib (a, sizeof a, data->required_gib),
                          data->required_gib * 1.073741824);
  if (isfinite (data->usable_gib) && isfinite (data->physical_gib))
    {
      double margin = data->usable_gib - data->required_gib;

      g_string_append (summary, "  ·  ");
      /* TRANSLATORS: "usable 60.8 GiB of 64 GiB" */
      g_string_append_printf (summary, _("usable %s of %s"),
                              hr_fmt_gib (a, sizeof a, data->usable_gib),
                              hr_fmt_gib (b, sizeof b, data->physical_gib));
      /* on unified memory the part in system RAM is in the same memory (HrEstimate.margin_bytes) */
      if (data->machine_gib > 0)
        margin = MIN (margin, data->machine_gib - data->required_gib - data->system_ram_gib);
      g_string_append (summary, "  ·  ");
      hr_fmt_gib (m, sizeof m, fabs (margin));
      /* TRANSLATORS: the safety margin, "+6.04 GiB" or "−9.16 GiB" */
      g_string_append_printf (summary, _("margin %s%s"), margin >= 0 ? "+" : "\u2212", m);
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
  return summary;
}

/* The legend with the totals, at the bottom; the value range */
static void
layout_legend (Layout *l)
{
  const HrChartBreakdown *data = l->data;
  const HrChartTheme *t = l->c->theme;
  const char *names[N_SEGS] = {
    _("Weights"), _("KV cache & state"), _("Engine & activation buffers"), _("Draft model"),
    _("Vision projector"),
  };
  double totals[N_SEGS] = { 0 };
  char v[48];

  for (int i = 0; i < l->n; i++)
    {
      totals[SEG_WEIGHTS] += hr_chart_clean (data->devices[i].weights_gib);
      totals[SEG_KV] += hr_chart_clean (data->devices[i].kv_gib);
      totals[SEG_BUFFERS] += hr_chart_clean (data->devices[i].buffers_gib);
      totals[SEG_DRAFT] += hr_chart_clean (data->devices[i].draft_gib);
      totals[SEG_PROJECTOR] += hr_chart_clean (data->devices[i].projector_gib);
      l->max_v = MAX (l->max_v, device_total (&data->devices[i]));
      if (isfinite (data->devices[i].physical_gib))
        l->max_v = MAX (l->max_v, data->devices[i].physical_gib);
    }
  if (l->has_ram)
    l->max_v = MAX (l->max_v, data->system_ram_gib);
  l->n_legend = 0;
  for (int s = 0; s < N_SEGS; s++)
    {
      /* series 3 is system RAM's grey; the draft and the projector have colours of their own */
      l->colors[s] = s == SEG_DRAFT ? &t->draft : &t->series[s == SEG_PROJECTOR ? 4 : s];
      if ((s == SEG_DRAFT || s == SEG_PROJECTOR) && !(totals[s] > 0))
        continue;
      g_snprintf (l->legend_text[l->n_legend], sizeof l->legend_text[l->n_legend], "%s  %s",
                  names[s], hr_fmt_gib (v, sizeof v, totals[s]));
      l->legend[l->n_legend] = (HrLegendItem) { l->legend_text[l->n_legend], l->colors[s],
                                                HR_SWATCH_BOX, -1 };
      l->n_legend++;
    }
  g_snprintf (l->legend_text[l->n_legend], sizeof l->legend_text[l->n_legend], "%s  %s",
              _("System RAM (offload)"),
              hr_fmt_gib (v, sizeof v, hr_chart_clean (data->system_ram_gib)));
  l->legend[l->n_legend] = (HrLegendItem) { l->legend_text[l->n_legend], &t->series[3],
                                            HR_SWATCH_HATCH, -1 };
  l->n_legend++;
  l->legend_h = hr_canvas_legend_height (l->c, l->legend, l->n_legend);
}

/* Row @i's label: the device's ("GPU 2" when it has none) or system RAM's */
static const char *
row_label (const Layout *l,
           int           i,
           char         *buf,
           gsize         size)
{
  if (i >= l->n)
    return _("System RAM");
  if (l->data->devices[i].label[0] != '\0')
    return l->data->devices[i].label;
  g_snprintf (buf, size, _("GPU %d"), i + 1);
  return buf;
}

static double
row_total (const Layout *l,
           int           i)
{
  return i < l->n ? device_total (&l->data->devices[i]) : l->data->system_ram_gib;
}

/* The label column and the value column, then the bars between them */
static void
layout_columns (Layout *l)
{
  HrCanvas *c = l->c;
  char buf[128];

  for (int i = 0; i < l->n_rows; i++)
    {
      double w;

      hr_canvas_text_measure (c, row_label (l, i, buf, sizeof buf), HR_TEXT_LABEL, &w, NULL);
      l->label_w = MAX (l->label_w, w);
      hr_fmt_gib (buf, sizeof buf, row_total (l, i));
      hr_canvas_text_measure (c, buf, HR_TEXT_VALUE, &w, NULL);
      l->value_w = MAX (l->value_w, w);
    }
  l->label_w = MIN (l->label_w, c->width * 0.3);
  l->x0 = c->pad + l->label_w + c->fs * 0.8;
  l->x1 = c->width - c->pad - l->value_w - c->fs * 0.8;
  if (l->x1 - l->x0 < c->fs * 4)
    {
      /* Too narrow for a bar: drop the labels rather than draw garbage. */
      l->label_w = 0;
      l->x0 = c->pad;
      l->x1 = c->width - c->pad;
    }
  hr_axis_linear (&l->axis, 0, l->max_v * 1.02,
                  hr_canvas_xaxis_max_ticks (c, l->x1 - l->x0, "888"));
}

/* The device bars: against each GPU's own capacity */
static HrBars
device_bars (const Layout *l)
{
  return (HrBars) { &l->axis, l->x0, l->x1, N_SEGS, l->colors, l->seg_names, NAN, NAN };
}

/* The same against the one capacity the devices share: none when they differ */
static HrBars
uniform_bars (const Layout *l)
{
  HrBars bars = device_bars (l);

  if (l->uniform)
    {
      bars.physical = l->data->devices[0].physical_gib;
      bars.usable = l->data->devices[0].usable_gib;
    }
  return bars;
}

/* Capacity-line labels above the rows */
static void
layout_marks (Layout *l)
{
  HrBars bars = uniform_bars (l);

  hr_canvas_capacity_marks (l->c, &l->marks, &bars, NULL);
}

/* Everything under @top; FALSE when there is no room for the bars. */
static gboolean
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;
  double axis_h, rows_top, rows_bottom;

  l->has_ram = isfinite (l->data->system_ram_gib) && l->data->system_ram_gib > 0;
  l->uniform = same_capacity (l->data, l->n);
  l->n_rows = l->n + (l->has_ram ? 1 : 0);
  l->seg_names[SEG_WEIGHTS] = _("Weights");
  l->seg_names[SEG_KV] = _("KV cache");
  l->seg_names[SEG_BUFFERS] = _("Buffers");
  l->seg_names[SEG_DRAFT] = _("Draft");
  l->seg_names[SEG_PROJECTOR] = _("Projector");
  layout_legend (l);
  axis_h = hr_canvas_xaxis_height (c, _("Memory (GiB)"));
  layout_columns (l);
  layout_marks (l);

  rows_top = top + l->marks.n_tiers * hr_canvas_marks_tier_height (c);
  rows_bottom = hr_canvas_above_legend (c, l->legend_h) - axis_h;
  l->plot = (HrRect) { l->x0, rows_top, l->x1 - l->x0, rows_bottom - rows_top };
  if (l->plot.h < c->fs * 1.5 || l->plot.w < c->fs * 2)
    return FALSE;
  l->pitch = l->plot.h / l->n_rows;
  l->bar_h = MIN (l->pitch * 0.62, c->fs * 4.5);
  /* Row labels must fit their rows: shrink them for many devices. */
  c->size[HR_TEXT_LABEL] = MIN (c->size[HR_TEXT_LABEL], MAX (l->pitch * 0.8, c->fs * 0.6));
  c->size[HR_TEXT_VALUE] = MIN (c->size[HR_TEXT_VALUE], MAX (l->pitch * 0.8, c->fs * 0.6));
  return TRUE;
}

static double
row_top (const Layout *l,
         int           i)
{
  return l->plot.y + l->pitch * (i + 0.5) - l->bar_h / 2;
}

/* The bars, then the capacity lines over them */
static void
draw_bars (Layout *l)
{
  HrCanvas *c = l->c;
  HrBars bars = device_bars (l);

  for (int i = 0; i < l->n_rows; i++)
    {
      double by = row_top (l, i);

      if (i < l->n)
        {
          const HrChartDevice *d = &l->data->devices[i];
          double values[N_SEGS] = DEVICE_VALUES (d);

          bars.physical = d->physical_gib;
          bars.usable = d->usable_gib;
          hr_bar_against (c, &bars, values, by, l->bar_h);
          if (!l->uniform)
            hr_capacity_lines (c, &bars, by - l->bar_h * 0.2, by + l->bar_h * 1.2);
        }
      else
        {
          double values[1] = { l->data->system_ram_gib };
          const HrChartRgba *ram_color[1] = { &c->theme->series[3] };
          HrBars ram = { &l->axis, l->x0, l->x1, 1, ram_color, NULL, NAN, NAN, .hatched = TRUE };

          hr_bar_fill (c, &ram, values, by, l->bar_h);
        }
    }
  /* One pair of capacity lines across all the device rows */
  if (l->uniform)
    {
      bars = uniform_bars (l);
      hr_capacity_lines (c, &bars, l->plot.y, l->plot.y + l->pitch * l->n);
      hr_canvas_draw_marks (c, &l->marks, l->plot.y);
    }
}

/* Every label over the bars and the lines: segment values, row names, totals */
static void
draw_row_labels (Layout *l)
{
  HrCanvas *c = l->c;
  HrBars bars = device_bars (l);
  char buf[128], vbuf[48];

  for (int i = 0; i < l->n_rows; i++)
    {
      double cy = l->plot.y + l->pitch * (i + 0.5), total = row_total (l, i);

      if (i < l->n)
        {
          const HrChartDevice *d = &l->data->devices[i];
          double values[N_SEGS] = DEVICE_VALUES (d);

          hr_bar_labels (c, &bars, values, row_top (l, i), l->bar_h, l->pitch / 2 - l->bar_h / 2);
        }
      if (l->label_w > 0)
        hr_canvas_text (c, row_label (l, i, buf, sizeof buf),
                        &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = c->pad, .y = cy,
                                        .yalign = 0.5, .max_width = l->label_w,
                                        .color = i < l->n ? &c->theme->foreground
                                                          : &c->theme->muted });
      hr_canvas_text (c, hr_fmt_gib (vbuf, sizeof vbuf, total),
                      &(HrTextSpec) { .style = HR_TEXT_VALUE,
                                      .x = hr_axis_map (&l->axis, total, l->x0, l->x1)
                                           + c->fs * 0.4,
                                      .y = cy, .yalign = 0.5, .boxed = TRUE });
    }
}

static gboolean
known_figures (const HrChartBreakdown *data,
               int                     n)
{
  gboolean known = n > 0 && isfinite (data->required_gib);

  for (int i = 0; i < n && known; i++)
    known = device_known (&data->devices[i]);
  return known;
}

void
hr_chart_breakdown_paint (HrCanvas   *c,
                          const void *chart_data)
{
  const HrChartBreakdown *data = chart_data;
  Layout l = { c, data };
  g_autoptr(GString) summary = NULL;
  gboolean known;
  double top;

  l.n = CLAMP (data->n_devices, 0, HR_CHART_MAX_DEVICES);
  known = known_figures (data, l.n);
  top = draw_header (c, data, known);
  if (!known)
    {
      hr_canvas_message_below (c, top, _("The memory figures of this model are unknown."));
      return;
    }
  summary = summary_text (data);
  top = hr_canvas_summary (c, summary->str, top);
  if (!layout (&l, top))
    {
      hr_canvas_message_below (c, top, summary->str);
      return;
    }

  hr_canvas_xaxis (c, &l.axis, NULL, &(HrPlot) { l.x0, l.plot.y, l.x1, l.plot.y + l.plot.h },
                   _("Memory (GiB)"));
  draw_bars (&l);
  draw_row_labels (&l);
  hr_canvas_legend_bottom (c, l.legend, l.n_legend, l.legend_h);
}
