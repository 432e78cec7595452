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
             char                     *buf,
             gsize                     size)
{
  char v[48];

  switch (panel)
    {
    case PANEL_MEMORY:
      if (!isfinite (item->required_gib))
        return hr_fmt_number (buf, size, NAN, 0);
      if (isfinite (item->usable_gib))
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

static const char *
usd_tick (char         *buf,
          gsize         size,
          const HrAxis *axis,
          double        value)
{
  return hr_fmt_usd_short (buf, size, value);
}

void
hr_chart_compare_draw (cairo_t              *cr,
                       double                width,
                       double                height,
                       const HrChartCompare *data,
                       const HrChartTheme   *theme)
{
  HrCanvas cv, *c = &cv;
  const HrChartTheme *t;
  const char *panel_titles[N_PANELS] = {
    _("Memory: required / usable"), _("Decode speed"), _("Cost per 1M tokens"),
  };
  const double panel_share[N_PANELS] = { 0.42, 0.29, 0.29 };
  HrLegendItem legend[6];
  HrAxis axes[N_PANELS];
  HrRect panels[N_PANELS];
  char name[HR_CHART_LABEL_LEN + 16], buf[96], badge[96], verdict_text[3][64];
  double max_v[N_PANELS] = { 0 }, value_w[N_PANELS] = { 0 }, name_w = 0, glyph_w = 0;
  double y, legend_h, axis_h, rows_top, rows_bottom, pitch, bar_h, lh, header_h, x;
  double base_size[HR_N_TEXT_STYLES], row_size[HR_N_TEXT_STYLES];
  int order[HR_CHART_MAX_GPUS], n, n_fit = 0, n_known = 0, n_legend = 0, n_shown;
  double note_h = 0;

  if (!hr_canvas_begin (c, cr, width, height, theme))
    return;
  t = c->theme;
  hr_canvas_background (c);
  n = data != NULL ? CLAMP (data->n_items, 0, HR_CHART_MAX_GPUS) : 0;
  if (data == NULL)
    {
      HrRect r = { 0, 0, width, height };

      hr_canvas_message (c, &r, _("No data"));
      hr_canvas_end (c);
      return;
    }

  for (int i = 0; i < n; i++)
    {
      order[i] = i;
      if (data->items[i].verdict == HR_CHART_VERDICT_FITS
          || data->items[i].verdict == HR_CHART_VERDICT_TIGHT)
        n_fit++;
      if (data->items[i].verdict != HR_CHART_VERDICT_UNKNOWN)
        n_known++;
    }
  g_qsort_with_data (order, n, sizeof order[0], compare_items, (gpointer) data);

  /* TRANSLATORS: badge of the GPU comparison, "3 of 8 fit" */
  g_snprintf (badge, sizeof badge, g_dngettext (GETTEXT_PACKAGE, "%d of %d fits",
                                                "%d of %d fit", n), n_fit, n);
  y = hr_canvas_header (c, data->title, data->subtitle,
                        n_fit > 0 ? HR_CHART_VERDICT_FITS
                        : n_known > 0 ? HR_CHART_VERDICT_EXCEEDS : HR_CHART_VERDICT_UNKNOWN,
                        n > 0 ? badge : NULL);
  if (n == 0)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("No GPUs to compare"));
      hr_canvas_end (c);
      return;
    }

  /* Legend: the verdict key and what the memory bullet shows */
  for (int v = 0; v < 3; v++)
    {
      g_strlcpy (verdict_text[v], hr_chart_verdict_display ((HrChartVerdict) v),
                 sizeof verdict_text[v]);
      legend[n_legend++] = (HrLegendItem) {
        verdict_text[v], hr_chart_theme_verdict_color (t, (HrChartVerdict) v), HR_SWATCH_GLYPH,
        -1, hr_chart_verdict_glyph ((HrChartVerdict) v),
      };
    }
  legend[n_legend++] = (HrLegendItem) { _("Usable memory"), &t->axis, HR_SWATCH_BOX, -1 };
  legend[n_legend++] = (HrLegendItem) { _("Part that does not fit"), &t->exceeds,
                                        HR_SWATCH_HATCH, -1 };
  legend_h = hr_canvas_legend (c, legend, n_legend, c->pad, 0, width - 2 * c->pad, FALSE);

  hr_canvas_text_measure (c, "Hg", HR_TEXT_STRONG, NULL, &header_h);
  axis_h = hr_canvas_xaxis_height (c, NULL);
  rows_top = y + header_h + c->fs * 0.5;
  rows_bottom = height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0) - axis_h;
  if (rows_bottom - rows_top < c->fs * 2)
    {
      HrRect r = { 0, y, width, height - y - c->pad };

      hr_canvas_message (c, &r, _("Too small to draw"));
      hr_canvas_end (c);
      return;
    }
  memcpy (base_size, c->size, sizeof base_size);

  /* Rows shrink their text with their height down to a readable size; past that, the rows
   * that do not fit are left out (the weakest, as sorted) and counted in a note, rather
   * than labels touching or rows going unlabelled. */
  {
    double min_size = MAX (7.5, c->fs * 0.6), min_pitch = min_size / 0.78, size;

    n_shown = n;
    if ((rows_bottom - rows_top) / n < min_pitch)
      {
        hr_canvas_text_measure (c, "Hg", HR_TEXT_SMALL, NULL, &note_h);
        note_h *= 1.4;
        n_shown = (int) MAX (1, floor ((rows_bottom - rows_top - note_h) / min_pitch));
      }
    /* The note goes under the axis, above the legend */
    rows_bottom -= note_h;
    pitch = (rows_bottom - rows_top) / n_shown;
    size = MAX (min_size, MIN (c->size[HR_TEXT_LABEL], pitch * 0.78));
    c->size[HR_TEXT_LABEL] = c->size[HR_TEXT_VALUE] = c->size[HR_TEXT_SMALL] = size;
    memcpy (row_size, c->size, sizeof row_size);
  }
  bar_h = MIN (pitch * 0.62, c->fs * 3.5);
  for (int k = 0; k < n_shown; k++)
    for (int p = 0; p < N_PANELS; p++)
      {
        double v = panel_value (&data->items[order[k]], p);

        if (isfinite (v))
          max_v[p] = MAX (max_v[p], v);
      }
  hr_canvas_text_measure (c, "Hg", HR_TEXT_LABEL, NULL, &lh);

  for (int k = 0; k < n_shown; k++)
    {
      const HrChartCompareItem *item = &data->items[order[k]];
      double w;

      item_name (item, name, sizeof name);
      hr_canvas_text_measure (c, name, HR_TEXT_LABEL, &w, NULL);
      name_w = MAX (name_w, w);
      hr_canvas_text_measure (c, hr_chart_verdict_glyph (item->verdict), HR_TEXT_LABEL, &w, NULL);
      glyph_w = MAX (glyph_w, w);
      for (int p = 0; p < N_PANELS; p++)
        {
          hr_canvas_text_measure (c, panel_label (item, p, buf, sizeof buf), HR_TEXT_VALUE, &w,
                                  NULL);
          value_w[p] = MAX (value_w[p], w);
        }
    }
  name_w = MIN (name_w, width * 0.24);

  /* Panels */
  x = c->pad + glyph_w + c->fs * 0.4 + name_w + c->fs;
  {
    double avail = width - c->pad - x, gap = c->fs * 1.5;

    for (int p = 0; p < N_PANELS; p++)
      {
        double w = (avail - gap * (N_PANELS - 1)) * panel_share[p];

        panels[p] = (HrRect) { x, rows_top, w, rows_bottom - rows_top };
        x += w + gap;
      }
  }

  /* Titles and axes at the normal size, rows at theirs */
  memcpy (c->size, base_size, sizeof base_size);
  for (int p = 0; p < N_PANELS; p++)
    {
      HrRect *r = &panels[p];
      double bar_w = r->w - value_w[p] - c->fs * 0.5;

      hr_canvas_text (c, panel_titles[p], HR_TEXT_STRONG, r->x, y, 0, 0, r->w, &t->foreground);
      if (bar_w < c->fs * 2)
        bar_w = MAX (r->w * 0.3, 1);
      hr_axis_linear (&axes[p], 0, max_v[p] > 0 ? max_v[p] : 1,
                      hr_canvas_xaxis_max_ticks (c, bar_w, p == PANEL_COST ? "$8.8k" : "888"));
      hr_canvas_xaxis (c, &axes[p], p == PANEL_COST ? usd_tick : NULL, r->x, r->x + bar_w,
                       r->y, r->y + r->h, NULL);
      /* Leave the panel's value column to the labels */
      r->w = bar_w;
    }

  memcpy (c->size, row_size, sizeof row_size);
  for (int k = 0; k < n_shown; k++)
    {
      const HrChartCompareItem *item = &data->items[order[k]];
      double cy = rows_top + pitch * (k + 0.5);
      const HrChartRgba *vcolor = hr_chart_theme_verdict_color (t, item->verdict);

      /* Zebra bands keep long rows traceable */
      if (k % 2 == 1 && pitch >= 4)
        {
          cairo_rectangle (c->cr, c->pad, rows_top + pitch * k, width - 2 * c->pad, pitch);
          hr_canvas_set_color (c, &t->track, 0.6);
          cairo_fill (c->cr);
        }
        {
          item_name (item, name, sizeof name);
          hr_canvas_text (c, hr_chart_verdict_glyph (item->verdict), HR_TEXT_LABEL, c->pad, cy, 0,
                          0.5, -1, vcolor);
          c->ellipsize = PANGO_ELLIPSIZE_MIDDLE;
          hr_canvas_text (c, name, HR_TEXT_LABEL, c->pad + glyph_w + c->fs * 0.4, cy, 0, 0.5,
                          name_w, &t->foreground);
          c->ellipsize = PANGO_ELLIPSIZE_END;
        }

      for (int p = 0; p < N_PANELS; p++)
        {
          const HrRect *r = &panels[p];
          const HrAxis *a = &axes[p];
          double end = r->x;

          if (p == PANEL_MEMORY)
            {
              double ux = hr_axis_map (a, hr_chart_clean (item->usable_gib), r->x, r->x + r->w);
              double rx = hr_axis_map (a, hr_chart_clean (item->required_gib), r->x,
                                       r->x + r->w);

              cairo_rectangle (c->cr, r->x, cy - bar_h / 2, ux - r->x, bar_h);
              hr_canvas_set_color (c, &t->axis, 0.45);
              cairo_fill (c->cr);
              cairo_rectangle (c->cr, r->x, cy - bar_h * 0.3, rx - r->x, bar_h * 0.6);
              hr_canvas_set_color (c, vcolor, 1.0);
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
          else
            {
              double v = panel_value (item, p);

              if (isfinite (v) && v > 0)
                {
                  end = hr_axis_map (a, v, r->x, r->x + r->w);
                  cairo_rectangle (c->cr, r->x, cy - bar_h * 0.35, end - r->x, bar_h * 0.7);
                  hr_canvas_set_color (c, p == PANEL_DECODE ? &t->series[0] : &t->series[1],
                                       item->verdict == HR_CHART_VERDICT_EXCEEDS ? 0.45 : 1.0);
                  cairo_fill (c->cr);
                }
            }
          hr_canvas_text (c, panel_label (item, p, buf, sizeof buf), HR_TEXT_VALUE,
                            end + c->fs * 0.3, cy, 0, 0.5, -1,
                            isfinite (panel_value (item, p)) ? &t->foreground : &t->muted);
        }
    }

  memcpy (c->size, base_size, sizeof base_size);
  if (n_shown < n)
    {
      g_snprintf (buf, sizeof buf,
                  g_dngettext (GETTEXT_PACKAGE, "%d more GPU not shown: make the chart taller",
                               "%d more GPUs not shown: make the chart taller", n - n_shown),
                  n - n_shown);
      hr_canvas_text (c, buf, HR_TEXT_SMALL, c->pad, rows_bottom + axis_h + note_h / 2, 0, 0.5,
                      width - 2 * c->pad, &t->muted);
    }

  hr_canvas_legend (c, legend, n_legend, c->pad, height - c->pad - legend_h, width - 2 * c->pad,
                    TRUE);
  hr_canvas_end (c);
}
