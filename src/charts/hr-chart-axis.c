/* hr-chart-axis.c — nice tick positions and the number formats of the charts' labels */

#include <glib/gi18n-lib.h>

#include "hr-chart-private.h"
#include "hr-units.h"

void
hr_axis_linear (HrAxis *axis,
                double  min,
                double  max,
                int     max_ticks)
{
  double range, raw, mag, norm, step;
  int decimals;

  memset (axis, 0, sizeof *axis);
  if (!isfinite (min))
    min = 0;
  if (!isfinite (max) || max <= min)
    max = min + 1;
  max_ticks = CLAMP (max_ticks, 2, HR_AXIS_MAX_TICKS - 1);

  range = max - min;
  raw = range / (max_ticks - 1);
  mag = pow (10, floor (log10 (raw)));
  norm = raw / mag;
  if (norm <= 1)
    step = mag;
  else if (norm <= 2)
    step = 2 * mag;
  else if (norm <= 2.5)
    step = 2.5 * mag;
  else if (norm <= 5)
    step = 5 * mag;
  else
    step = 10 * mag;
  /* Rounding the ends out can add a tick; widen the step until they fit. */
  while (ceil (max / step - 1e-9) - floor (min / step + 1e-9) + 1 > max_ticks)
    step *= 2;

  decimals = (int) MAX (0, -floor (log10 (step) + 1e-9));
  if (fabs (step / pow (10, -decimals) - round (step / pow (10, -decimals))) > 1e-6)
    decimals++;

  axis->step = step;
  axis->decimals = decimals;
  axis->min = floor (min / step + 1e-9) * step;
  axis->max = ceil (max / step - 1e-9) * step;
  for (double v = axis->min; v <= axis->max + step * 1e-6 && axis->n_ticks < HR_AXIS_MAX_TICKS;
       v += step)
    axis->ticks[axis->n_ticks++] = fabs (v) < step * 1e-9 ? 0 : v;
}

void
hr_axis_log2 (HrAxis *axis,
              double  min,
              double  max,
              int     max_ticks)
{
  int e0, e1, count, stride;

  memset (axis, 0, sizeof *axis);
  if (!isfinite (min) || min <= 0)
    min = 1;
  if (!isfinite (max) || max <= min)
    max = min * 2;
  axis->log2 = TRUE;
  axis->min = min;
  axis->max = max;

  e0 = (int) ceil (log2 (min) - 1e-9);
  e1 = (int) floor (log2 (max) + 1e-9);
  count = e1 - e0 + 1;
  max_ticks = MAX (max_ticks, 2);
  stride = MAX (1, (count + max_ticks - 1) / max_ticks);
  for (int e = e0; e <= e1 && axis->n_ticks < HR_AXIS_MAX_TICKS; e++)
    if ((e - e0) % stride == 0)
      axis->ticks[axis->n_ticks++] = ldexp (1.0, e);
  /* Thinning can drop the last power: keep the right end labelled when there is room. */
  if (stride > 1 && axis->n_ticks > 0 && axis->ticks[axis->n_ticks - 1] < ldexp (1.0, e1)
      && axis->n_ticks < max_ticks && axis->n_ticks < HR_AXIS_MAX_TICKS)
    axis->ticks[axis->n_ticks++] = ldexp (1.0, e1);
}

double
hr_axis_map (const HrAxis *axis,
             double        v,
             double        p0,
             double        p1)
{
  double t;

  if (axis->log2)
    {
      if (v <= 0 || !isfinite (v))
        return p0;
      t = (log2 (v) - log2 (axis->min)) / (log2 (axis->max) - log2 (axis->min));
    }
  else
    t = (v - axis->min) / (axis->max - axis->min);
  if (!isfinite (t))
    t = 0;
  return p0 + t * (p1 - p0);
}

int
hr_axis_max_ticks (double length,
                   double label_extent)
{
  if (!(label_extent > 0) || !(length > 0))
    return 2;
  return (int) CLAMP (floor (length / (label_extent * 1.8)), 2, HR_AXIS_MAX_TICKS - 1);
}

/* Two decimals, but no trailing zeros: 60.8, 76, 67.96 (as the seed pages write them). */
static int
short_decimals (double v,
                int    max_decimals)
{
  double full = round (v * pow (10, max_decimals));

  for (int d = 0; d < max_decimals; d++)
    if (fabs (round (v * pow (10, d)) * pow (10, max_decimals - d) - full) < 0.5)
      return d;
  return max_decimals;
}

const char *
hr_fmt_number (char   *buf,
               gsize   size,
               double  value,
               int     decimals)
{
  if (!isfinite (value))
    g_strlcpy (buf, _("unknown"), size);
  else
    g_snprintf (buf, size, "%.*f", decimals, value);
  return buf;
}

const char *
hr_fmt_gib (char   *buf,
            gsize   size,
            double  gib)
{
  int decimals;

  if (!isfinite (gib))
    return hr_fmt_number (buf, size, gib, 0);
  decimals = fabs (gib) >= 1000 ? 1 : 2;
  decimals = short_decimals (gib, decimals);
  /* TRANSLATORS: a memory size, e.g. "67.96 GiB" */
  g_snprintf (buf, size, _("%.*f GiB"), decimals, gib);
  return buf;
}

const char *
hr_fmt_tps (char   *buf,
            gsize   size,
            double  tps)
{
  if (!isfinite (tps) || tps < 0)
    return hr_fmt_number (buf, size, NAN, 0);
  /* TRANSLATORS: decode speed, tokens per second */
  g_snprintf (buf, size, _("%.*f tok/s"), tps >= 1000 ? 0 : tps >= 1 ? 1 : 2, tps);
  return buf;
}

/* "$8,500" and "$3.05" in English, "$8.500" and "$3,05" in German, "$8500" in the C locale:
 * the core rule, so a chart and the text beside it agree (issue 18). */
const char *
hr_fmt_usd (char   *buf,
            gsize   size,
            double  usd)
{
  if (!isfinite (usd))
    return hr_fmt_number (buf, size, usd, 0);
  return hr_format_usd_locale_buf (buf, size, usd, fabs (usd) >= 100 ? 0 : 2);
}

const char *
hr_fmt_usd_short (char   *buf,
                  gsize   size,
                  double  usd)
{
  double a = fabs (usd);

  if (!isfinite (usd))
    return hr_fmt_number (buf, size, usd, 0);
  if (a >= 1e6)
    g_snprintf (buf, size, "$%.*fM", short_decimals (usd / 1e6, 1), usd / 1e6);
  else if (a >= 1e3)
    g_snprintf (buf, size, "$%.*fk", short_decimals (usd / 1e3, 1), usd / 1e3);
  else
    g_snprintf (buf, size, "$%.*f", short_decimals (usd, 2), usd);
  return buf;
}

const char *
hr_fmt_context (char   *buf,
                gsize   size,
                double  tokens)
{
  if (!isfinite (tokens) || tokens < 0)
    return hr_fmt_number (buf, size, NAN, 0);
  if (tokens >= 1048576 && fmod (tokens, 1048576) == 0)
    g_snprintf (buf, size, "%.0fM", tokens / 1048576);
  else if (tokens >= 1024)
    {
      /* Round down: a "fits up to" label must not promise more than fits. */
      double k = floor (tokens / 1024 * 10) / 10;

      g_snprintf (buf, size, "%.*fK", fmod (k, 1.0) == 0 ? 0 : 1, k);
    }
  else
    g_snprintf (buf, size, "%.0f", tokens);
  return buf;
}

const char *
hr_fmt_usd_tick (char         *buf,
                 gsize         size,
                 const HrAxis *axis,
                 double        value)
{
  return hr_fmt_usd_short (buf, size, value);
}

const char *
hr_fmt_tick (char         *buf,
             gsize         size,
             const HrAxis *axis,
             double        value)
{
  if (axis->log2)
    return hr_fmt_context (buf, size, value);
  g_snprintf (buf, size, "%.*f", axis->decimals, value);
  return buf;
}

/* Drawing ---------------------------------------------------------------------------------- */

static const char *
axis_label (char               *buf,
            gsize               size,
            const HrAxis       *axis,
            HrTickFormat        format,
            double              value)
{
  return format != NULL ? format (buf, size, axis, value) : hr_fmt_tick (buf, size, axis, value);
}

/* The line along the bottom of @plot that both axes end with, @lw wide. */
static void
axis_line (HrCanvas     *c,
           const HrPlot *plot,
           double        lw)
{
  double y = hr_canvas_snap (c, plot->y1, lw);

  hr_canvas_line (c, plot->x0, y, plot->x1, y, &(HrStroke) { lw, &c->theme->axis });
}

double
hr_canvas_xaxis_height (HrCanvas   *c,
                        const char *title)
{
  double lh, th = 0;

  hr_canvas_text_measure (c, "8", HR_TEXT_LABEL, NULL, &lh);
  if (title != NULL && *title != '\0')
    hr_canvas_text_measure (c, title, HR_TEXT_LABEL, NULL, &th);
  return c->fs * 0.35 + lh + (th > 0 ? c->fs * 0.25 + th : 0);
}

int
hr_canvas_xaxis_max_ticks (HrCanvas    *c,
                           double       length,
                           const char  *widest)
{
  double w;

  hr_canvas_text_measure (c, widest, HR_TEXT_LABEL, &w, NULL);
  return hr_axis_max_ticks (length, w);
}

void
hr_canvas_xaxis (HrCanvas     *c,
                 const HrAxis *axis,
                 HrTickFormat  format,
                 const HrPlot *plot,
                 const char   *title)
{
  double x0 = plot->x0, x1 = plot->x1, y_top = plot->y0, y_bottom = plot->y1;
  double lw = MAX (c->px, 1.0), lh, prev_right = -G_MAXDOUBLE;
  char buf[64];

  hr_canvas_text_measure (c, "8", HR_TEXT_LABEL, NULL, &lh);
  for (int i = 0; i < axis->n_ticks; i++)
    {
      double x = hr_axis_map (axis, axis->ticks[i], x0, x1);
      double sx = hr_canvas_snap (c, x, lw), w;
      const char *label = axis_label (buf, sizeof buf, axis, format, axis->ticks[i]);

      if (x < x0 - 0.5 || x > x1 + 0.5)
        continue;
      hr_canvas_line (c, sx, y_top, sx, y_bottom, &(HrStroke) { lw, &c->theme->grid });
      hr_canvas_text_measure (c, label, HR_TEXT_LABEL, &w, NULL);
      /* Keep the end labels inside the plot's span and never let two labels touch. */
      x = CLAMP (x, x0 + w / 2 - c->pad * 0.8, x1 - w / 2 + c->pad * 0.8);
      if (x - w / 2 < prev_right + c->fs * 0.5)
        continue;
      hr_canvas_text (c, label, &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = x,
                        .y = y_bottom + c->fs * 0.35, .xalign = 0.5, .color = &c->theme->muted });
      prev_right = x + w / 2;
    }
  axis_line (c, plot, lw);
  if (title != NULL && *title != '\0')
    hr_canvas_text (c, title, &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = (x0 + x1) / 2,
                      .y = y_bottom + c->fs * 0.6 + lh, .xalign = 0.5, .max_width = x1 - x0,
                      .color = &c->theme->muted });
}

double
hr_canvas_yaxis_width (HrCanvas     *c,
                       const HrAxis *axis,
                       HrTickFormat  format,
                       const char   *title)
{
  double widest = 0, th = 0;
  char buf[64];

  for (int i = 0; i < axis->n_ticks; i++)
    {
      double w;

      hr_canvas_text_measure (c, axis_label (buf, sizeof buf, axis, format, axis->ticks[i]),
                              HR_TEXT_LABEL, &w, NULL);
      widest = MAX (widest, w);
    }
  if (title != NULL && *title != '\0')
    hr_canvas_text_measure (c, title, HR_TEXT_LABEL, NULL, &th);
  return widest + c->fs * 0.5 + (th > 0 ? th + c->fs * 0.5 : 0);
}

void
hr_canvas_yaxis (HrCanvas     *c,
                 const HrAxis *axis,
                 HrTickFormat  format,
                 const HrPlot *plot,
                 const char   *title)
{
  double x0 = plot->x0, x1 = plot->x1, y_top = plot->y0, y_bottom = plot->y1;
  double lw = MAX (c->px, 1.0), lh, prev_top = G_MAXDOUBLE;
  char buf[64];

  hr_canvas_text_measure (c, "8", HR_TEXT_LABEL, NULL, &lh);
  for (int i = 0; i < axis->n_ticks; i++)
    {
      double y = hr_axis_map (axis, axis->ticks[i], y_bottom, y_top);
      double sy = hr_canvas_snap (c, y, lw);

      if (y > y_bottom + 0.5 || y < y_top - 0.5)
        continue;
      if (i > 0)
        hr_canvas_line (c, x0, sy, x1, sy, &(HrStroke) { lw, &c->theme->grid });
      if (y + lh / 2 > prev_top - c->fs * 0.1)
        continue;
      hr_canvas_text (c, axis_label (buf, sizeof buf, axis, format, axis->ticks[i]),
                      &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = x0 - c->fs * 0.5, .y = y,
                                      .xalign = 1, .yalign = 0.5, .color = &c->theme->muted });
      prev_top = y - lh / 2;
    }
  axis_line (c, plot, lw);
  if (title != NULL && *title != '\0')
    hr_canvas_text (c, title, &(HrTextSpec) { .style = HR_TEXT_LABEL, .x = c->pad,
                      .y = (y_bottom + y_top) / 2, .xalign = 0.5, .max_width = y_bottom - y_top,
                      .angle = -G_PI / 2, .color = &c->theme->muted });
}
