/* hr-chart-canvas.c — text, header, legend, badges and patterns shared by the charts
 *
 * One PangoLayout per drawing, re-used for every label.  Metrics are unhinted and glyph
 * positions unrounded so that a chart lays out identically at scale 1 and 2, in a widget and
 * in an SVG.
 */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"

/* Verdict colours are bright in both themes: dark text on them reads in both. */

static void
canvas_prepare (HrCanvas           *c,
                const char         *text,
                HrTextStyle         style,
                double              max_width,
                PangoEllipsizeMode  ellipsize)
{
  pango_font_description_set_absolute_size (c->font, c->size[style] * PANGO_SCALE);
  pango_font_description_set_weight (c->font,
                                     c->bold[style] ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (c->layout, c->font);
  pango_layout_set_alignment (c->layout, PANGO_ALIGN_LEFT);
  pango_layout_set_wrap (c->layout, PANGO_WRAP_WORD);
  if (max_width > 0 && isfinite (max_width))
    {
      pango_layout_set_width (c->layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (c->layout, ellipsize);
    }
  else
    {
      pango_layout_set_width (c->layout, -1);
      pango_layout_set_ellipsize (c->layout, PANGO_ELLIPSIZE_NONE);
    }
  pango_layout_set_text (c->layout, text != NULL ? text : "", -1);
}

static void
canvas_extents (HrCanvas *c,
                double   *x,
                double   *y,
                double   *w,
                double   *h)
{
  PangoRectangle logical;

  pango_layout_get_extents (c->layout, NULL, &logical);
  *x = (double) logical.x / PANGO_SCALE;
  *y = (double) logical.y / PANGO_SCALE;
  *w = (double) logical.width / PANGO_SCALE;
  *h = (double) logical.height / PANGO_SCALE;
}

gboolean
hr_canvas_begin (HrCanvas           *c,
                 cairo_t            *cr,
                 double              width,
                 double              height,
                 const HrChartTheme *theme)
{
  cairo_font_options_t *options;
  double dx = 1, dy = 0, scale;

  g_return_val_if_fail (c != NULL, FALSE);
  memset (c, 0, sizeof *c);

  if (cr == NULL || cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  if (!isfinite (width) || !isfinite (height) || width < 1 || height < 1
      || width > 1e6 || height > 1e6)
    return FALSE;

  c->cr = cr;
  c->theme = theme != NULL ? theme : hr_chart_theme_light ();
  c->width = width;
  c->height = height;

  cairo_save (cr);
  cairo_user_to_device_distance (cr, &dx, &dy);
  scale = hypot (dx, dy);
  c->px = (isfinite (scale) && scale > 0) ? 1.0 / scale : 1.0;

  /* Text follows the chart's size a little (exports at 1200×700 get larger type than a
   * 500-pixel widget) but stays within a readable range. */
  c->fs = c->theme->font_size > 0 ? c->theme->font_size : 12.0;
  c->fs *= CLAMP (MIN (width / 900.0, height / 520.0), 0.8, 1.25);
  c->pad = CLAMP (c->fs * 1.3, 6.0, 24.0);

  c->size[HR_TEXT_TITLE] = c->fs * 1.4;
  c->size[HR_TEXT_SUBTITLE] = c->fs * 1.0;
  c->size[HR_TEXT_LABEL] = c->fs * 0.92;
  c->size[HR_TEXT_VALUE] = c->fs * 0.92;
  c->size[HR_TEXT_STRONG] = c->fs * 1.0;
  c->size[HR_TEXT_SMALL] = c->fs * 0.85;
  c->bold[HR_TEXT_TITLE] = TRUE;
  c->bold[HR_TEXT_STRONG] = TRUE;

  c->pctx = pango_cairo_create_context (cr);
  options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (c->pctx, options);
  cairo_font_options_destroy (options);
  pango_context_set_round_glyph_positions (c->pctx, FALSE);
  c->layout = pango_layout_new (c->pctx);
  c->font = pango_font_description_new ();
  pango_font_description_set_family (c->font, c->theme->font_family[0] != '\0'
                                              ? c->theme->font_family : "sans-serif");
  return TRUE;
}

void
hr_canvas_end (HrCanvas *c)
{
  g_clear_pointer (&c->font, pango_font_description_free);
  g_clear_object (&c->layout);
  g_clear_object (&c->pctx);
  if (c->cr != NULL)
    cairo_restore (c->cr);
  c->cr = NULL;
}

void
hr_canvas_set_color (HrCanvas          *c,
                     const HrChartRgba *color,
                     double             alpha_factor)
{
  cairo_set_source_rgba (c->cr, color->red, color->green, color->blue,
                         color->alpha * alpha_factor);
}

double
hr_canvas_snap (HrCanvas *c,
                double    v,
                double    line_width)
{
  double dev = v / c->px;
  long lw = lround (line_width / c->px);

  if (!isfinite (dev))
    return v;
  if (lw % 2 == 1)
    return (floor (dev) + 0.5) * c->px;
  return round (dev) * c->px;
}

void
hr_canvas_text_measure (HrCanvas    *c,
                        const char  *text,
                        HrTextStyle  style,
                        double      *width,
                        double      *height)
{
  double x, y, w, h;

  canvas_prepare (c, text, style, -1, PANGO_ELLIPSIZE_NONE);
  canvas_extents (c, &x, &y, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
}

/* Draws the text at @t's anchor in the current user space. */
static double
text_show (HrCanvas         *c,
           const char       *text,
           const HrTextSpec *t)
{
  double lx, ly, w, h;

  if (text == NULL || *text == '\0')
    return 0;
  canvas_prepare (c, text, t->style, t->max_width,
                  t->ellipsize_middle ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END);
  canvas_extents (c, &lx, &ly, &w, &h);
  hr_canvas_set_color (c, t->color != NULL ? t->color : &c->theme->foreground, 1.0);
  cairo_move_to (c->cr, t->x - t->xalign * w - lx, t->y - t->yalign * h - ly);
  pango_cairo_show_layout (c->cr, c->layout);
  cairo_new_path (c->cr);
  if (c->text_boxes != NULL && t->angle == 0)
    g_array_append_val (c->text_boxes,
                        ((HrTextBox) { { t->x - t->xalign * w, t->y - t->yalign * h, w, h },
                                       t->style, pango_layout_is_ellipsized (c->layout) }));
  return w;
}

/* The knock-out box behind the text that text_show draws. */
static void
text_knockout (HrCanvas         *c,
               const char       *text,
               const HrTextSpec *t)
{
  double w, h, m = c->fs * 0.2;

  hr_canvas_text_measure (c, text, t->style, &w, &h);
  if (t->max_width > 0)
    w = MIN (w, t->max_width);
  if (c->theme->background.alpha <= 0)
    return;
  hr_canvas_rounded_rect (c, t->x - t->xalign * w - m, t->y - t->yalign * h, w + 2 * m, h, m);
  hr_canvas_set_color (c, &c->theme->background, 0.85);
  cairo_fill (c->cr);
}

double
hr_canvas_text (HrCanvas         *c,
                const char       *text,
                const HrTextSpec *spec)
{
  HrTextSpec at_origin = *spec;
  double w;

  if (spec->angle == 0)
    {
      if (spec->boxed)
        text_knockout (c, text, spec);
      return text_show (c, text, spec);
    }
  if (!spec->boxed && (text == NULL || *text == '\0'))
    return 0;
  /* Rotated: drawn at the origin of a user space turned around the anchor */
  at_origin.x = at_origin.y = 0;
  cairo_save (c->cr);
  cairo_translate (c->cr, spec->x, spec->y);
  cairo_rotate (c->cr, spec->angle);
  pango_cairo_update_layout (c->cr, c->layout);
  if (spec->boxed)
    text_knockout (c, text, &at_origin);
  w = text_show (c, text, &at_origin);
  cairo_restore (c->cr);
  pango_cairo_update_layout (c->cr, c->layout);
  return w;
}

double
hr_canvas_paragraph (HrCanvas          *c,
                     const char        *text,
                     HrTextStyle        style,
                     const HrRect      *r,
                     const HrChartRgba *color)
{
  double lx, ly, w, h;

  if (text == NULL || *text == '\0' || r->w <= 1)
    return 0;
  canvas_prepare (c, text, style, -1, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_width (c->layout, (int) (r->w * PANGO_SCALE));
  pango_layout_set_wrap (c->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (c->layout, PANGO_ALIGN_CENTER);
  canvas_extents (c, &lx, &ly, &w, &h);
  hr_canvas_set_color (c, color != NULL ? color : &c->theme->muted, 1.0);
  cairo_move_to (c->cr, r->x, r->y + MAX (0, (r->h - h) / 2) - ly);
  pango_cairo_show_layout (c->cr, c->layout);
  cairo_new_path (c->cr);
  return h;
}

void
hr_canvas_background (HrCanvas *c)
{
  const HrChartRgba *bg = &c->theme->background;

  if (bg->alpha <= 0)
    return;
  hr_canvas_set_color (c, bg, 1.0);
  cairo_rectangle (c->cr, 0, 0, c->width, c->height);
  cairo_fill (c->cr);
}

/* "✓ Fits with margin": the glyph, then the text or the verdict's name. */
static char *
badge_label (const HrBadge *badge)
{
  return g_strdup_printf ("%s %s", hr_chart_verdict_glyph (badge->verdict),
                          badge->text != NULL ? badge->text
                                              : hr_chart_verdict_display (badge->verdict));
}

void
hr_canvas_badge_measure (HrCanvas *c,
                         HrBadge  *badge)
{
  g_autofree char *label = badge_label (badge);
  double tw, th;

  hr_canvas_text_measure (c, label, HR_TEXT_STRONG, &tw, &th);
  badge->height = th + c->fs * 0.5;
  badge->width = tw + c->fs * 1.2;
}

void
hr_canvas_badge (HrCanvas      *c,
                 const HrBadge *badge,
                 double         right,
                 double         top)
{
  g_autofree char *label = badge_label (badge);
  double w = badge->width, h = badge->height;

  hr_canvas_rounded_rect (c, right - w, top, w, h, h / 2);
  hr_canvas_set_color (c, hr_chart_theme_verdict_color (c->theme, badge->verdict), 1.0);
  cairo_fill (c->cr);
  hr_canvas_text (c, label, &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = right - w / 2,
                    .y = top + h / 2, .xalign = 0.5, .yalign = 0.5,
                    .color = hr_text_on (hr_chart_theme_verdict_color (c->theme, badge->verdict)) });
}

double
hr_canvas_header (HrCanvas             *c,
                  const HrChartHeading *heading,
                  HrChartVerdict        verdict,
                  const char           *badge)
{
  const char *title = heading->title, *subtitle = heading->subtitle;
  HrBadge pill = { verdict, badge };
  double y = c->pad, row = 0, th = 0;
  double avail = c->width - 2 * c->pad;

  if (badge != NULL)
    {
      hr_canvas_badge_measure (c, &pill);
      /* On a narrow chart the badge would eat the title: drop it, the chart says it too. */
      if (pill.width > avail * 0.6)
        pill.width = pill.height = 0;
      else
        hr_canvas_badge (c, &pill, c->width - c->pad, y);
    }
  if (*title != '\0')
    {
      double title_w = avail - (pill.width > 0 ? pill.width + c->fs : 0);

      hr_canvas_text_measure (c, title, HR_TEXT_TITLE, NULL, &th);
      hr_canvas_text (c, title, &(HrTextSpec) { .style = HR_TEXT_TITLE, .x = c->pad,
                        .y = y + MAX (0, (pill.height - th) / 2), .max_width = title_w });
    }
  row = MAX (th, pill.height);
  y += row;
  if (*subtitle != '\0')
    {
      double sh;

      hr_canvas_text_measure (c, subtitle, HR_TEXT_SUBTITLE, NULL, &sh);
      y += c->fs * 0.2;
      hr_canvas_text (c, subtitle, &(HrTextSpec) { .style = HR_TEXT_SUBTITLE, .x = c->pad, .y = y,
                        .max_width = avail, .color = &c->theme->muted });
      y += sh;
    }
  return y + (row > 0 ? c->fs * 0.8 : 0);
}

static void
legend_swatch (HrCanvas           *c,
               const HrLegendItem *item,
               double              x,
               double              cy,
               double              sw,
               double              box)
{
  static const double dash[] = { 6, 4 };
  static const double dot[] = { 1.5, 3 };

  switch (item->swatch)
    {
    case HR_SWATCH_LINE:
    case HR_SWATCH_DASH:
    case HR_SWATCH_DOT:
      cairo_set_line_cap (c->cr, item->swatch == HR_SWATCH_DOT ? CAIRO_LINE_CAP_ROUND
                                                               : CAIRO_LINE_CAP_BUTT);
      hr_canvas_line (c, x, cy, x + sw, cy,
                      &(HrStroke) { MAX (2.0, c->fs * 0.16), item->color,
                                    item->swatch == HR_SWATCH_DASH ? dash
                                    : item->swatch == HR_SWATCH_DOT ? dot : NULL });
      cairo_set_line_cap (c->cr, CAIRO_LINE_CAP_BUTT);
      if (item->marker >= 0)
        hr_canvas_marker (c, item->marker, x + sw / 2, cy, c->fs * 0.55, item->color);
      break;
    case HR_SWATCH_GLYPH:
      hr_canvas_text (c, item->glyph, &(HrTextSpec) { .style = HR_TEXT_STRONG, .x = x + sw / 2,
                        .y = cy, .xalign = 0.5, .yalign = 0.5, .color = item->color });
      break;
    case HR_SWATCH_HATCH:
    case HR_SWATCH_BOX:
    default:
      {
        HrRect r = { x, cy - box / 2, box, box };

        hr_canvas_rounded_rect (c, r.x, r.y, r.w, r.h, box * 0.2);
        hr_canvas_set_color (c, item->color, item->swatch == HR_SWATCH_HATCH ? 0.35 : 1.0);
        cairo_fill (c->cr);
        if (item->swatch == HR_SWATCH_HATCH)
          hr_canvas_hatch (c, &r, item->color, 1.0, box / 3.5);
      }
      break;
    }
}

/* The legend flowing from the canvas's left padding at @y, wrapping within the padded width.
 * Returns its height; draws only when @draw. */
static double
legend_flow (HrCanvas           *c,
             const HrLegendItem *items,
             int                 n_items,
             double              y,
             gboolean            draw)
{
  double x = c->pad, max_width = c->width - 2 * c->pad;
  double box = c->size[HR_TEXT_LABEL] * 0.85;
  double gap = c->fs * 0.4, item_gap = c->fs * 1.3;
  double line_h, cx = x, cy = y;

  if (n_items <= 0 || max_width <= box * 4)
    return 0;
  hr_canvas_text_measure (c, "Hg", HR_TEXT_LABEL, NULL, &line_h);
  line_h *= 1.25;

  for (int i = 0; i < n_items; i++)
    {
      const HrLegendItem *item = &items[i];
      gboolean is_line = item->swatch == HR_SWATCH_LINE || item->swatch == HR_SWATCH_DASH
                         || item->swatch == HR_SWATCH_DOT;
      double sw = is_line ? c->fs * 2.2 : box;
      double tw, need;

      if (item->swatch == HR_SWATCH_GLYPH)
        hr_canvas_text_measure (c, item->glyph, HR_TEXT_STRONG, &sw, NULL);

      hr_canvas_text_measure (c, item->label, HR_TEXT_LABEL, &tw, NULL);
      tw = MIN (tw, max_width - sw - gap);
      need = sw + gap + tw;
      if (cx > x && cx + need > x + max_width)
        {
          cx = x;
          cy += line_h;
        }
      if (draw)
        {
          legend_swatch (c, item, cx, cy + line_h / 2, sw, box);
          hr_canvas_text (c, item->label, &(HrTextSpec) { .style = HR_TEXT_LABEL,
                            .x = cx + sw + gap, .y = cy + line_h / 2, .yalign = 0.5,
                            .max_width = max_width - sw - gap });
        }
      cx += need + item_gap;
    }
  return cy + line_h - y;
}

void
hr_canvas_message (HrCanvas     *c,
                   const HrRect *r,
                   const char   *text)
{
  HrRect inner = { r->x + c->pad, r->y, r->w - 2 * c->pad, r->h };

  if (inner.w < 10 || inner.h < 5)
    return;
  hr_canvas_paragraph (c, text, HR_TEXT_SUBTITLE, &inner, &c->theme->muted);
}

int
hr_canvas_capacity_marks (HrCanvas     *c,
                          HrMarks      *marks,
                          const HrBars *bars,
                          const char   *gpu_label)
{
  char v[48], text[96];

  if (isfinite (bars->usable))
    {
      g_snprintf (text, sizeof text, _("usable %s"), hr_fmt_gib (v, sizeof v, bars->usable));
      hr_marks_add (marks, text, hr_axis_map (bars->axis, bars->usable, bars->x0, bars->x1),
                    TRUE, NULL);
    }
  if (isfinite (bars->physical))
    {
      hr_fmt_gib (v, sizeof v, bars->physical);
      if (gpu_label != NULL && gpu_label[0] != '\0')
        /* TRANSLATORS: "H100 80GB SXM: 80 GiB" */
        g_snprintf (text, sizeof text, _("%s: %s"), gpu_label, v);
      else
        g_snprintf (text, sizeof text, _("physical %s"), v);
      hr_marks_add (marks, text, hr_axis_map (bars->axis, bars->physical, bars->x0, bars->x1),
                    FALSE, NULL);
    }
  return hr_canvas_place_marks (c, marks);
}

gboolean
hr_canvas_begin_chart (HrCanvas           *c,
                       cairo_t            *cr,
                       double              width,
                       double              height,
                       const HrChartTheme *theme,
                       const void         *data)
{
  if (!hr_canvas_begin (c, cr, width, height, theme))
    return FALSE;
  hr_canvas_background (c);
  if (data == NULL)
    {
      HrRect r = { 0, 0, width, height };

      hr_canvas_message (c, &r, _("No data"));
      hr_canvas_end (c);
      return FALSE;
    }
  return TRUE;
}

void
hr_canvas_message_below (HrCanvas   *c,
                         double      y,
                         const char *text)
{
  HrRect r = { 0, y, c->width, c->height - y - c->pad };

  hr_canvas_message (c, &r, text);
}

double
hr_canvas_summary (HrCanvas   *c,
                   const char *text,
                   double      y)
{
  const char *sep = "  ·  ";
  double avail = c->width - 2 * c->pad, lh, w;
  g_auto(GStrv) parts = g_strsplit (text, sep, -1);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) longer = g_string_new (NULL);

  hr_canvas_text_measure (c, text, HR_TEXT_SUBTITLE, NULL, &lh);
  /* as many parts on a line as fit ("buying pays off after 78.7 m…" was cut at the end) */
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_string_assign (longer, line->str);
      if (line->len > 0)
        g_string_append (longer, sep);
      g_string_append (longer, parts[i]);
      hr_canvas_text_measure (c, longer->str, HR_TEXT_SUBTITLE, &w, NULL);
      if (line->len > 0 && w > avail)
        {
          hr_canvas_text (c, line->str, &(HrTextSpec) { .style = HR_TEXT_SUBTITLE, .x = c->pad, .y = y,
                            .max_width = avail });
          y += lh;
          g_string_assign (line, parts[i]);
        }
      else
        g_string_assign (line, longer->str);
    }
  hr_canvas_text (c, line->str, &(HrTextSpec) { .style = HR_TEXT_SUBTITLE, .x = c->pad, .y = y,
                    .max_width = avail });
  return y + lh + c->fs * 0.8;
}

double
hr_canvas_line_height (HrCanvas    *c,
                       HrTextStyle  style)
{
  double h;

  hr_canvas_text_measure (c, "Hg", style, NULL, &h);
  return h;
}

double
hr_canvas_legend_height (HrCanvas           *c,
                         const HrLegendItem *items,
                         int                 n_items)
{
  return legend_flow (c, items, n_items, 0, FALSE);
}

double
hr_canvas_above_legend (HrCanvas *c,
                        double    legend_h)
{
  return c->height - c->pad - legend_h - (legend_h > 0 ? c->fs * 0.8 : 0);
}

void
hr_canvas_legend_bottom (HrCanvas           *c,
                         const HrLegendItem *items,
                         int                 n_items,
                         double              legend_h)
{
  legend_flow (c, items, n_items, c->height - c->pad - legend_h, TRUE);
}

void
hr_marks_add (HrMarks           *marks,
              const char        *text,
              double             x,
              gboolean           prefer_left,
              const HrChartRgba *color)
{
  g_return_if_fail (marks->n < HR_MAX_MARKS);
  g_strlcpy (marks->text[marks->n], text, sizeof marks->text[marks->n]);
  marks->label[marks->n] = (HrMarkLabel) {
    .text = marks->text[marks->n],
    .x = x,
    .prefer_left = prefer_left,
    .color = color,
  };
  marks->n++;
}

void
hr_canvas_hatch (HrCanvas          *c,
                 const HrRect      *r,
                 const HrChartRgba *color,
                 double             alpha,
                 double             spacing)
{
  cairo_t *cr = c->cr;

  if (r->w <= 0 || r->h <= 0 || spacing <= 0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, r->x, r->y, r->w, r->h);
  cairo_clip (cr);
  hr_canvas_set_color (c, color, alpha);
  cairo_set_line_width (cr, MAX (c->px, spacing * 0.28));
  /* Lines at 45°, anchored to the page so adjacent hatched boxes line up. */
  for (double k = floor ((r->x + r->y) / spacing) * spacing; k <= r->x + r->w + r->y + r->h;
       k += spacing)
    {
      cairo_move_to (cr, k - r->y + 1, r->y - 1);
      cairo_line_to (cr, k - (r->y + r->h) - 1, r->y + r->h + 1);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
hr_canvas_marker (HrCanvas          *c,
                  int                marker,
                  double             x,
                  double             y,
                  double             size,
                  const HrChartRgba *fill)
{
  cairo_t *cr = c->cr;
  double r = size / 2;

  switch (marker)
    {
    case HR_MARKER_SQUARE:
      cairo_rectangle (cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
      break;
    case HR_MARKER_TRIANGLE:
      cairo_move_to (cr, x, y - r * 1.1);
      cairo_line_to (cr, x + r, y + r * 0.75);
      cairo_line_to (cr, x - r, y + r * 0.75);
      cairo_close_path (cr);
      break;
    case HR_MARKER_DIAMOND:
      cairo_move_to (cr, x, y - r * 1.15);
      cairo_line_to (cr, x + r, y);
      cairo_line_to (cr, x, y + r * 1.15);
      cairo_line_to (cr, x - r, y);
      cairo_close_path (cr);
      break;
    case HR_MARKER_CIRCLE:
    default:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
  hr_canvas_set_color (c, fill, 1.0);
  cairo_fill_preserve (cr);
  hr_canvas_set_color (c, &c->theme->background, c->theme->background.alpha > 0 ? 1.0 : 0.0);
  cairo_set_line_width (cr, MAX (c->px, size * 0.15));
  cairo_stroke (cr);
}

void
hr_canvas_rounded_rect (HrCanvas *c,
                        double    x,
                        double    y,
                        double    w,
                        double    h,
                        double    radius)
{
  cairo_t *cr = c->cr;

  radius = MIN (radius, MIN (w, h) / 2);
  if (radius <= 0)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - radius, y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, x + w - radius, y + h - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, x + radius, y + h - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

void
hr_canvas_line (HrCanvas       *c,
                double          x0,
                double          y0,
                double          x1,
                double          y1,
                const HrStroke *stroke)
{
  cairo_t *cr = c->cr;

  cairo_save (cr);
  cairo_set_line_width (cr, stroke->width);
  cairo_set_dash (cr, stroke->dashes, stroke->dashes != NULL ? 2 : 0, 0);
  hr_canvas_set_color (c, stroke->color, 1.0);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
hr_canvas_series (HrCanvas       *c,
                  const HrAxis   *xa,
                  double          x0,
                  double          x1,
                  const HrAxis   *ya,
                  double          y0,
                  double          y1,
                  const double   *x,
                  const double   *y,
                  const gboolean *keep,
                  int             n,
                  const HrStroke *stroke)
{
  cairo_t *cr = c->cr;
  gboolean started = FALSE;

  for (int i = 0; i < n; i++)
    {
      double px, py;

      if (!keep[i])
        {
          started = FALSE;
          continue;
        }
      px = hr_axis_map (xa, x[i], x0, x1);
      py = hr_axis_map (ya, y[i], y0, y1);
      if (started)
        cairo_line_to (cr, px, py);
      else
        cairo_move_to (cr, px, py);
      started = TRUE;
    }
  cairo_save (cr);
  cairo_set_line_width (cr, stroke->width);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_dash (cr, stroke->dashes, stroke->dashes != NULL ? 2 : 0, 0);
  hr_canvas_set_color (c, stroke->color, 1.0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* Places the labels @marks in as few tiers as keep them apart within [@x_min, @x_max]. */
static int
place_marks (HrCanvas    *c,
             HrMarkLabel *marks,
             int          n_marks,
             double       x_min,
             double       x_max)
{
  double gap = c->fs * 0.35;
  int n_tiers = 0;

  for (int i = 0; i < n_marks; i++)
    {
      HrMarkLabel *m = &marks[i];
      double w;
      gboolean placed = FALSE;

      hr_canvas_text_measure (c, m->text, HR_TEXT_SMALL, &w, NULL);
      m->width = w;
      for (int tier = 0; tier < 4 && !placed; tier++)
        for (int side = 0; side < 2 && !placed; side++)
          {
            /* Preferred side first; fall back to the other one. */
            double xalign = (side == 0) == m->prefer_left ? 1.0 : 0.0;
            double left = xalign > 0.5 ? m->x - gap - w : m->x + gap;
            gboolean clash = left < x_min || left + w > x_max;

            for (int j = 0; j < i && !clash; j++)
              if (marks[j].tier == tier
                  && left < marks[j].left + marks[j].width + gap
                  && marks[j].left < left + w + gap)
                clash = TRUE;
            /* A label must not cross another mark's line in its own tier. */
            for (int j = 0; j < n_marks && !clash; j++)
              if (j != i && marks[j].x > left - gap / 2 && marks[j].x < left + w + gap / 2)
                clash = tier == 0;
            if (!clash)
              {
                m->tier = tier;
                m->xalign = xalign;
                m->left = left;
                placed = TRUE;
              }
          }
      if (!placed)
        {
          /* Last resort: clamp into the span on a tier of its own. */
          m->tier = MIN (n_tiers, 3);
          m->left = CLAMP (m->x - w / 2, x_min, MAX (x_min, x_max - w));
          m->xalign = 0;
        }
      n_tiers = MAX (n_tiers, m->tier + 1);
    }
  return n_tiers;
}

int
hr_canvas_place_marks (HrCanvas *c,
                       HrMarks  *marks)
{
  marks->n_tiers = place_marks (c, marks->label, marks->n, c->pad, c->width - c->pad);
  return marks->n_tiers;
}

double
hr_canvas_marks_tier_height (HrCanvas *c)
{
  double h;

  hr_canvas_text_measure (c, "Hg", HR_TEXT_SMALL, NULL, &h);
  return h * 1.1;
}

void
hr_canvas_draw_marks (HrCanvas      *c,
                      const HrMarks *marks,
                      double         y_bottom)
{
  double th = hr_canvas_marks_tier_height (c);

  for (int i = 0; i < marks->n; i++)
    {
      const HrMarkLabel *m = &marks->label[i];
      double y = y_bottom - (m->tier + 1) * th;

      hr_canvas_text (c, m->text, &(HrTextSpec) { .style = HR_TEXT_SMALL, .x = m->left,
                        .y = y + th * 0.05,
                        .color = m->color != NULL ? m->color : &c->theme->foreground });
      /* Labels above the first tier get a thin leader down to their line's top. */
      if (m->tier > 0)
        {
          double lx = m->xalign > 0.5 ? m->left + m->width : m->left;

          hr_canvas_line (c, lx, y + th * 0.55, m->x, y_bottom,
                          &(HrStroke) { MAX (c->px, 0.75), &c->theme->axis });
        }
    }
}

void
hr_spread (double       *pos,
           const double *size,
           int           n,
           double        gap,
           double        lo,
           double        hi)
{
  if (n <= 0)
    return;
  for (int i = 0; i < n; i++)
    {
      double min = i == 0 ? lo + size[0] / 2
                          : pos[i - 1] + (size[i - 1] + size[i]) / 2 + gap;

      pos[i] = MAX (pos[i], min);
    }
  for (int i = n - 1; i >= 0; i--)
    {
      double max = i == n - 1 ? hi - size[i] / 2
                              : pos[i + 1] - (size[i + 1] + size[i]) / 2 - gap;

      pos[i] = MIN (pos[i], max);
    }
}
