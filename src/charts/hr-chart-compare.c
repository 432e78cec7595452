/* hr-chart-compare.c — GPUs side by side: memory, decode speed and cost per token
 *
 * One row per GPU (names read horizontally, ellipsized in the middle so "… 80GB" survives)
 * and three small-multiple panels sharing the rows, since the three measures have different
 * units.  Memory is a bullet: usable as the light track, required over it in the verdict's
 * colour, hatched when it does not fit, with the verdict glyph before the name.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

enum
{
  PANEL_MEMORY,
  PANEL_DECODE,
  PANEL_COST,
  N_PANELS
};

static int
verdict_rank (HrChartVerdict verdict)
{
  switch (verdict)
    {
    case HR_CHART_VERDICT_FITS:
      return 0;
    case HR_CHART_VERDICT_TIGHT:
      return 1;
    case HR_CHART_VERDICT_EXCEEDS:
      return 2;
    case HR_CHART_VERDICT_UNKNOWN:
    default:
      return 3;
    }
}

/* Unknowns sort last whatever the direction. */
static int
compare_known (double a,
               double b,
               gboolean descending)
{
  gboolean ka = isfinite (a), kb = isfinite (b);

  if (ka != kb)
    return ka ? -1 : 1;
  if (!ka || a == b)
    return 0;
  return (a < b) == descending ? 1 : -1;
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const HrChartCompare *data = user_data;
  const HrChartCompareItem *x = &data->items[*(const int *) a];
  const HrChartCompareItem *y = &data->items[*(const int *) b];
  int r = 0;

  switch (data->sort)
    {
    case HR_CHART_SORT_NONE:
      break;
    case HR_CHART_SORT_DECODE:
      r = compare_known (x->decode_tps, y->decode_tps, TRUE);
      break;
    case HR_CHART_SORT_COST:
      r = compare_known (x->cost_per_mtok_usd, y->cost_per_mtok_usd, FALSE);
      break;
    case HR_CHART_SORT_MARGIN:
      r = compare_known (x->usable_gib - x->required_gib, y->usable_gib - y->required_gib, TRUE);
      break;
    case HR_CHART_SORT_VERDICT:
    default:
      r = verdict_rank (x->verdict) - verdict_rank (y->verdict);
      if (r == 0)
        r = compare_known (x->decode_tps, y->decode_tps, TRUE);
      if (r == 0)
        r = compare_known (x->cost_per_mtok_usd, y->cost_per_mtok_usd, FALSE);
      break;
    }
  /* Stable: fall back to the given order. */
  return r != 0 ? r : *(const int *) a - *(const int *) b;
}

static void
item_name (const HrChartCompareItem *item,
           char                     *buf,
           gsize                     size)
{
  if (item->count > 1)
    g_snprintf (buf, size, "%d\u00d7 %s", item->count, item->name);
  else
    g_strlcpy (buf, item->name, size);
}

static double
panel_value (const HrChartCompareItem *item,
             int                       panel)
{
  switch (panel)
    {
    case PANEL_MEMORY:
      return MAX (hr_chart_clean (item->required_gib), hr_chart_clean (item->usable_gib));
    case PANEL_DECODE:
      return item->decode_tps;
    case PANEL_COST:
    default:
      return item->cost_per_mtok_usd;
    }
}

static const char *
panel_label (const HrChartCompareItem *item,
             int                       panel,
             gboolean                  short_memory,
             char                     *buf,
             gsize                     size)
{
  char v[48];

  switch (panel)
    {
    case PANEL_MEMORY:
      if (!isfinite (item->required_gib))
        return hr_fmt_number (buf, size, NAN, 0);
      if (isfinite (item->usable_gib) && !short_memory)
        {
          char u[48];

          hr_fmt_number (v, sizeof v, item->required_gib, item->required_gib >= 100 ? 1 : 2);
          hr_fmt_number (u, sizeof u, item->usable_gib,
                         fmod (item->usable_gib, 1.0) == 0 ? 0 : 1);
          /* TRANSLATORS: required / usable memory, "69.96 / 76 GiB" */
          g_snprintf (buf, size, _("%s / %s GiB"), v, u);
          return buf;
        }
      return hr_fmt_gib (buf, size, item->required_gib);
    case PANEL_DECODE:
      return hr_fmt_tps (buf, size, item->decode_tps);
    case PANEL_COST:
    default:
      return hr_fmt_usd (buf, size, item->cost_per_mtok_usd);
    }
}

/* Where everything goes, computed in one step under the header. */
typedef struct
{
  HrCanvas *c;
  const HrChartCompare *data;
  int n;
  int n_shown;                      /* rows with room; the rest are counted in a note */
  int n_panels;                     /* narrow charts leave out the cost panel */
  gboolean short_memory;            /* narrow: memory labels without the usable part */
  int order[HR_CHART_MAX_GPUS];     /* the items as sorted */
  HrLegendItem legend[6];
  char verdict_text[3][64];
  int n_legend;
  double legend_h;
  double axis_h, rows_top, rows_bottom, pitch, bar_h, note_h;
  double name_w, glyph_w, value_w[N_PANELS], max_v[N_PANELS];
  double base_size[HR_N_TEXT_STYLES];   /* titles and axes */
  double row_size[HR_N_TEXT_STYLES];    /* the rows, shrunk to their pitch */
  HrRect panels[N_PANELS];          /* the bars' room; the value column follows each */
  HrAxis axes[N_PANELS];
} Layout;

/* Sorts the rows; the header's badge counts the GPUs that fit.  Returns the y below it. */
static double
draw_header (Layout *l)
{
  const HrChartCompare *data = l->data;
  int n = l->n, n_fit = 0, n_known = 0;
  char badge[96];

  for (int i = 0; i < n; i++)
    {
      l->order[i] = i;
      if (data->items[i].verdict == HR_CHART_VERDICT_FITS
          || data->items[i].verdict == HR_CHART_VERDICT_TIGHT)
        n_fit++;
      if (data->items[i].verdict != HR_CHART_VERDICT_UNKNOWN)
        n_known++;
    }
  g_qsort_with_data (l->order, n, sizeof l->order[0], compare_items, (gpointer) data);

  /* TRANSLATORS: badge of the GPU comparison, "3 of 8 fit" */
  g_snprintf (badge, sizeof badge, g_dngettext (GETTEXT_PACKAGE, "%d of %d fits",
                                                "%d of %d fit", n), n_fit, n);
  return hr_canvas_header (l->c, &data->heading,
                           n_fit > 0 ? HR_CHART_VERDICT_FITS
                           : n_known > 0 ? HR_CHART_VERDICT_EXCEEDS : HR_CHART_VERDICT_UNKNOWN,
                           n > 0 ? badge : NULL);
}

/* Legend: the verdict key and what the memory bullet shows */
static void
layout_legend (Layout *l)
{
  const HrChartTheme *t = l->c->theme;

  for (int v = 0; v < 3; v++)
    {
      g_strlcpy (l->verdict_text[v], hr_chart_verdict_display ((HrChartVerdict) v),
                 sizeof l->verdict_text[v]);
      l->legend[l->n_legend++] = (HrLegendItem) {
        l->verdict_text[v], hr_chart_theme_verdict_color (t, (HrChartVerdict) v),
        HR_SWATCH_GLYPH, -1, hr_chart_verdict_glyph ((HrChartVerdict) v),
      };
    }
  l->legend[l->n_legend++] = (HrLegendItem) { _("Usable memory"), &t->axis, HR_SWATCH_BOX, -1 };
  l->legend[l->n_legend++] = (HrLegendItem) { _("Part that does not fit"), &t->exceeds,
                                              HR_SWATCH_HATCH, -1 };
  l->legend_h = hr_canvas_legend_height (l->c, l->legend, l->n_legend);
}

/* Rows shrink their text with their height down to a readable size; past that, the rows
 * that do not fit are left out (the weakest, as sorted) and counted in a note, rather
 * than labels touching or rows going unlabelled. */
static void
layout_rows (Layout *l)
{
  HrCanvas *c = l->c;
  double min_size = MAX (7.5, c->fs * 0.6), min_pitch = min_size / 0.78, size;

  memcpy (l->base_size, c->size, sizeof l->base_size);
  l->n_shown = l->n;
  if ((l->rows_bottom - l->rows_top) / l->n < min_pitch)
    {
      hr_canvas_text_measure (c, "Hg", HR_TEXT_SMALL, NULL, &l->note_h);
      l->note_h *= 1.4;
      l->n_shown = (int) MAX (1, floor ((l->rows_bottom - l->rows_top - l->note_h) / min_pitch));
    }
  /* The note goes under the axis, above the legend */
  l->rows_bottom -= l->note_h;
  l->pitch = (l->rows_bottom - l->rows_top) / l->n_shown;
  size = MAX (min_size, MIN (c->size[HR_TEXT_LABEL], l->pitch * 0.78));
  c->size[HR_TEXT_LABEL] = c->size[HR_TEXT_VALUE] = c->size[HR_TEXT_SMALL] = size;
  memcpy (l->row_size, c->size, sizeof l->row_size);
  l->bar_h = MIN (l->pitch * 0.62, c->fs * 3.5);
}

/* The widths of the shown rows' value labels */
static void
measure_values (Layout *l)
{
  char buf[96];

  memset (l->value_w, 0, sizeof l->value_w);
  for (int k = 0; k < l->n_shown; k++)
    for (int p = 0; p < N_PANELS; p++)
      {
        double w;

        hr_canvas_text_measure (l->c, panel_label (&l->data->items[l->order[k]], p,
                                                   l->short_memory, buf, sizeof buf),
                                HR_TEXT_VALUE, &w, NULL);
        l->value_w[p] = MAX (l->value_w[p], w);
      }
}

/* The ranges of the shown rows, and the widths of their names, glyphs and values */
static void
layout_columns (Layout *l)
{
  HrCanvas *c = l->c;
  char name[HR_CHART_LABEL_LEN + 16];

  for (int k = 0; k < l->n_shown; k++)
    for (int p = 0; p < N_PANELS; p++)
      {
        double v = panel_value (&l->data->items[l->order[k]], p);

        if (isfinite (v))
          l->max_v[p] = MAX (l->max_v[p], v);
      }
  for (int k = 0; k < l->n_shown; k++)
    {
      const HrChartCompareItem *item = &l->data->items[l->order[k]];
      double w;

      item_name (item, name, sizeof name);
      hr_canvas_text_measure (c, name, HR_TEXT_LABEL, &w, NULL);
      l->name_w = MAX (l->name_w, w);
      hr_canvas_text_measure (c, hr_chart_verdict_glyph (item->verdict), HR_TEXT_LABEL, &w, NULL);
      l->glyph_w = MAX (l->glyph_w, w);
    }
  l->name_w = MIN (l->name_w, c->width * 0.24);
  measure_values (l);
}

/* The panels side by side after the names, sharing the rows: at fixed shares of the room,
 * or when @fitted, each its value column and a short bar plus a share of what is left.
 * FALSE when a value column leaves less than a short bar. */
static gboolean
place_panels (Layout   *l,
              gboolean  fitted)
{
  static const double panel_share[N_PANELS] = { 0.42, 0.29, 0.29 };
  HrCanvas *c = l->c;
  double x = c->pad + l->glyph_w + c->fs * 0.4 + l->name_w + c->fs;
  double avail = c->width - c->pad - x, gap = c->fs * 1.5, min_bar = c->fs * 2;
  double spare = avail - gap * (l->n_panels - 1), shares = 0;
  gboolean fits = TRUE;

  for (int p = 0; p < l->n_panels; p++)
    {
      spare -= l->value_w[p] + c->fs * 0.5 + min_bar;
      shares += panel_share[p];
    }
  for (int p = 0; p < l->n_panels; p++)
    {
      double w = fitted ? l->value_w[p] + c->fs * 0.5 + min_bar + spare * panel_share[p] / shares
                        : (avail - gap * (N_PANELS - 1)) * panel_share[p];

      l->panels[p] = (HrRect) { x, l->rows_top, w, l->rows_bottom - l->rows_top };
      fits = fits && w - l->value_w[p] - c->fs * 0.5 >= min_bar;
      x += w + gap;
    }
  return fits;
}

/* Narrow charts first fit the panels to their labels, then shorten the memory labels to
 * the required figure (the bullet's track still shows the usable part), then leave out the
 * cost panel, so that no value runs into the next panel. */
static void
layout_panels (Layout *l)
{
  l->n_panels = N_PANELS;
  if (place_panels (l, FALSE) || place_panels (l, TRUE))
    return;
  l->short_memory = TRUE;
  measure_values (l);
  if (place_panels (l, TRUE))
    return;
  l->n_panels = N_PANELS - 1;
  place_panels (l, TRUE);
}

/* Everything under @top; FALSE when there is no room for the rows. */
static gboolean
layout (Layout *l,
        double  top)
{
  HrCanvas *c = l->c;

  layout_legend (l);
  l->axis_h = hr_canvas_xaxis_height (c, NULL);
  l->rows_top = top + hr_canvas_line_height (c, HR_TEXT_STRONG) + c->fs * 0.5;
  l->rows_bottom = hr_canvas_above_legend (c, l->legend_h) - l->axis_h;
  if (l->rows_bottom - l->rows_top < c->fs * 2)
    return FALSE;
  layout_rows (l);
  layout_columns (l);
  layout_panels (l);
  return TRUE;
}

/* Panel titles and axes, at the normal text size; each panel then leaves its value column
 * to the labels */
static void
draw_panel_axes (Layout *l,
                 double  top)
{
  static const char *panel_titles[N_PANELS] = {
    N_("Memory: required / usable"), N_("Decode speed"), N_("Cost per 1M tokens"),
  };
  HrCanvas *c = l->c;

  memcpy (c->size, l->base_size, sizeof l->base_size);
  for (int p = 0; p < l->n_panels; p++)
    {
      HrRect *r = &l->panels[p];
      double bar_w = r->w - l->value_w[p] - c->fs * 0.5;
      const char *title = p == PANEL_MEMORY && l->short_memory ? _("Memory (GiB)")
                                                               : _(panel_titles[p]);

      hr_canvas_text (c, title, &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = r->x, .y = top,
                        .max_width = r->w });
      if (bar_w < c->fs * 2)
        bar_w = MAX (r->w * 0.3, 1);
      hr_axis_linear (&l->axes[p], 0, l->max_v[p] > 0 ? l->max_v[p] : 1,
                      hr_canvas_xaxis_max_ticks (c, bar_w, p == PANEL_COST ? "$8.8k" : "888"));
      hr_canvas_xaxis (c, &l->axes[p], p == PANEL_COST ? hr_fmt_usd_tick : NULL,
                       &(HrPlot) { r->x, r->y, r->x + bar_w, r->y + r->h }, NULL);
      r->w = bar_w;
    }
}

/* One row's bar in panel @p and its value after it */
static void
draw_cell (const Layout             *l,
           const HrChartCompareItem *item,
           int                       p,
           double                    cy)
{
  HrCanvas *c = l->c;
  const HrChartTheme *t = c->theme;
  const HrRect *r = &l->panels[p];
  const HrAxis *a = &l->axes[p];
  double end = r->x, bar_h = l->bar_h, v = panel_value (item, p);
  char buf[96];

  if (p == PANEL_MEMORY)
    {
      /* A bullet: usable as the light track, required over it in the verdict's colour */
      double ux = hr_axis_map (a, hr_chart_clean (item->usable_gib), r->x, r->x + r->w);
      double rx = hr_axis_map (a, hr_chart_clean (item->required_gib), r->x, r->x + r->w);

      cairo_rectangle (c->cr, r->x, cy - bar_h / 2, ux - r->x, bar_h);
      hr_canvas_set_color (c, &t->axis, 0.45);
      cairo_fill (c->cr);
      cairo_rectangle (c->cr, r->x, cy - bar_h * 0.3, rx - r->x, bar_h * 0.6);
      hr_canvas_set_color (c, hr_chart_theme_verdict_color (t, item->verdict), 1.0);
      cairo_fill (c->cr);
      if (rx > ux && isfinite (item->usable_gib))
        {
          HrRect over = { ux, cy - bar_h * 0.3, rx - ux, bar_h * 0.6 };

          hr_canvas_set_color (c, &t->background, 0.35);
          cairo_rectangle (c->cr, over.x, over.y, over.w, over.h);
          cairo_fill (c->cr);
          hr_canvas_hatch (c, &over, &t->foreground, 0.55, MAX (3.0, bar_h * 0.45));
        }
      end = MAX (ux, rx);
    }
  else if (isfinite (v) && v > 0)
    {
      end = hr_axis_map (a, v, r->x, r->x + r->w);
      cairo_rectangle (c->cr, r->x, cy - bar_h * 0.35, end - r->x, bar_h * 0.7);
      hr_canvas_set_color (c, p == PANEL_DECODE ? &t->series[0] : &t->series[1],
                           item->verdict == HR_CHART_VERDICT_EXCEEDS ? 0.45 : 1.0);
      cairo_fill (c->cr);
    }
  hr_canvas_text (c, panel_label (item, p, l->short_memory, buf, sizeof buf),
                  &(HrTextSpec) { .style = HR_TEXT_VALUE, .x = end + c->fs * 0.3, .y = cy,
                                  .yalign = 0.5,
                                  .color = isfinite (v) ? &t->foreground : &t->muted });
}

/* Row @k: a zebra band, the verdict glyph and the name, then a cell in each panel */
static void
draw_row (const Layout *l,
          int           k)
{
  HrCanvas *c = l->c;
  const HrChartCompareItem *item = &l->data->items[l->order[k]];
  double cy = l->rows_top + l->pitch * (k + 0.5);
  char name[HR_CHART_LABEL_LEN + 16];

  /* Zebra bands keep long rows traceable */
  if (k % 2 == 1 && l->pitch >= 4)
    {
      cairo_rectangle (c->cr, c->pad, l->rows_top + l->pitch * k, c->width - 2 * c->pad, l->pitch);
      hr_canvas_set_color (c, &c->theme->track, 0.6);
      cairo_fill (c->cr);
    }
  item_name (item, name, sizeof name);
  hr_canvas_text (c, hr_chart_verdict_glyph (item->verdict),
                  &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = c->pad, .y = cy, .yalign = 0.5,
                                  .color = hr_chart_theme_verdict_color (c->theme,
                                                                         item->verdict) });
  hr_canvas_text (c, name, &(HrTextSpec) { .style = HR_TEXT_LABEL,
                    .x = c->pad + l->glyph_w + c->fs * 0.4, .y = cy, .yalign = 0.5,
                    .max_width = l->name_w, .ellipsize_middle = TRUE });
  for (int p = 0; p < l->n_panels; p++)
    draw_cell (l, item, p, cy);
}

/* "3 more GPUs not shown", under the axis */
static void
draw_note (const Layout *l)
{
  HrCanvas *c = l->c;
  int more = l->n - l->n_shown;
  char buf[96];

  if (more <= 0)
    return;
  g_snprintf (buf, sizeof buf,
              g_dngettext (GETTEXT_PACKAGE, "%d more GPU not shown: make the chart taller",
                           "%d more GPUs not shown: make the chart taller", more),
              more);
  hr_canvas_text (c, buf, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = c->pad,
                    .y = l->rows_bottom + l->axis_h + l->note_h / 2, .yalign = 0.5,
                    .max_width = c->width - 2 * c->pad, .color = &c->theme->muted });
}

void
hr_chart_compare_paint (HrCanvas   *c,
                        const void *chart_data)
{
  const HrChartCompare *data = chart_data;
  Layout l = { c, data };
  double top;

  l.n = CLAMP (data->n_items, 0, HR_CHART_MAX_GPUS);
  top = draw_header (&l);
  if (l.n == 0)
    {
      hr_canvas_message_below (c, top, _("No GPUs to compare"));
      return;
    }
  if (!layout (&l, top))
    {
      hr_canvas_message_below (c, top, _("Too small to draw"));
      return;
    }

  draw_panel_axes (&l, top);
  memcpy (c->size, l.row_size, sizeof l.row_size);
  for (int k = 0; k < l.n_shown; k++)
    draw_row (&l, k);
  memcpy (c->size, l.base_size, sizeof l.base_size);
  draw_note (&l);
  hr_canvas_legend_bottom (c, l.legend, l.n_legend, l.legend_h);
}
