/* hr-chart-private.h — the drawing kit the charts share: text, axes, legend, header, patterns
 *
 * Not installed, not used outside src/charts/.
 */
#pragma once

#include <math.h>
#include <pango/pangocairo.h>
#include "hr-chart.h"

G_BEGIN_DECLS

typedef enum
{
  HR_TEXT_TITLE,
  HR_TEXT_SUBTITLE,
  HR_TEXT_LABEL,     /* tick and category labels */
  HR_TEXT_VALUE,     /* numbers next to bars */
  HR_TEXT_STRONG,    /* badges, panel titles */
  HR_TEXT_SMALL,     /* notes */
  HR_N_TEXT_STYLES
} HrTextStyle;

struct _HrCanvas
{
  cairo_t *cr;
  const HrChartTheme *theme;
  PangoContext *pctx;
  PangoLayout *layout;
  PangoFontDescription *font;
  double width;
  double height;
  double fs;                      /* adapted base font size, logical px */
  double pad;                     /* outer padding */
  double px;                      /* one device pixel in logical units */
  double size[HR_N_TEXT_STYLES];  /* text sizes per style; charts may shrink them */
  gboolean bold[HR_N_TEXT_STYLES];
  GArray *text_boxes;             /* set after hr_canvas_begin: hr_canvas_text adds an
                                   * HrTextBox for each horizontal text it draws (tests check
                                   * overlaps) */
  GArray *rule_xs;                /* likewise: the x (double) of every capacity line drawn */
};

typedef enum
{
  HR_SWATCH_BOX,
  HR_SWATCH_HATCH,        /* box with a diagonal hatch: system RAM, "does not fit" */
  HR_SWATCH_LINE,
  HR_SWATCH_DASH,
  HR_SWATCH_DOT,
  HR_SWATCH_GLYPH,        /* @glyph drawn in @color: the verdict key */
} HrSwatch;

typedef struct
{
  const char *label;
  const HrChartRgba *color;
  HrSwatch swatch;
  int marker;             /* HR_MARKER_* for line swatches, -1 for none */
  const char *glyph;
} HrLegendItem;

enum
{
  HR_MARKER_CIRCLE,
  HR_MARKER_SQUARE,
  HR_MARKER_TRIANGLE,
  HR_MARKER_DIAMOND,
};

#define HR_AXIS_MAX_TICKS 64

typedef struct
{
  double min;             /* axis range (after rounding to ticks) */
  double max;
  double step;
  int decimals;           /* for tick labels */
  gboolean log2;
  int n_ticks;
  double ticks[HR_AXIS_MAX_TICKS];
} HrAxis;

typedef struct
{
  double x, y, w, h;
} HrRect;

/* The edges of a plot the axes frame: (@x0, @y0) its top left, (@x1, @y1) its bottom right. */
typedef struct
{
  double x0, y0, x1, y1;
} HrPlot;

typedef struct
{
  HrRect box;
  HrTextStyle style;
  gboolean ellipsized;    /* shown cut, with "…" */
} HrTextBox;

/* A label for a vertical reference line (capacity, current context…). */
typedef struct
{
  const char *text;
  double x;                       /* the line */
  gboolean prefer_left;           /* text ends at the line rather than starting there */
  const HrChartRgba *color;
  /* set by hr_canvas_place_marks */
  int tier;
  double xalign;
  double left;
  double width;
} HrMarkLabel;

#define HR_MAX_MARKS 2

/* The labels of a plot's vertical reference lines, with their texts. */
typedef struct
{
  HrMarkLabel label[HR_MAX_MARKS];
  char text[HR_MAX_MARKS][96];
  int n;
  int n_tiers;                    /* set by hr_canvas_place_marks */
} HrMarks;

/* Canvas ----------------------------------------------------------------------------------- */

/* FALSE when there is nothing sensible to draw into (zero/negative/NAN size or a cairo_t in
 * an error state); then nothing is drawn and hr_canvas_end must not be called. */
gboolean        hr_canvas_begin             (HrCanvas           *c,
                                             cairo_t            *cr,
                                             double              width,
                                             double              height,
                                             const HrChartTheme *theme);
void            hr_canvas_end               (HrCanvas           *c);

void            hr_canvas_set_color         (HrCanvas           *c,
                                             const HrChartRgba  *color,
                                             double              alpha_factor);
/* Snaps a coordinate so that a line of @line_width logical units lands on whole device pixels. */
double          hr_canvas_snap              (HrCanvas           *c,
                                             double              v,
                                             double              line_width);

/* Text ------------------------------------------------------------------------------------- */

void            hr_canvas_text_measure      (HrCanvas           *c,
                                             const char         *text,
                                             HrTextStyle         style,
                                             double             *width,
                                             double             *height);
/* Where and how hr_canvas_text draws a text.  Fields left out mean: aligned by its top left
 * corner, the whole text, horizontal, no box, in the foreground colour. */
typedef struct
{
  HrTextStyle style;
  double x, y;                /* the anchor */
  double xalign, yalign;      /* where the text's box sits on it: 0 = left/top, 1 = right/bottom */
  double max_width;           /* > 0: ellipsized to it, at the end */
  gboolean ellipsize_middle;  /* … in the middle instead, so that "… 80GB" survives */
  double angle;               /* rotated around the anchor (radians, negative =
                               * counter-clockwise) */
  gboolean boxed;             /* on a knock-out box of the background, so that reference lines
                               * pass behind it */
  const HrChartRgba *color;   /* NULL: the theme's foreground */
} HrTextSpec;

/* Draws @text as @spec says.  Returns the drawn width. */
double          hr_canvas_text              (HrCanvas           *c,
                                             const char         *text,
                                             const HrTextSpec   *spec);
/* Wrapped paragraph centred in @r; returns its height. */
double          hr_canvas_paragraph         (HrCanvas           *c,
                                             const char         *text,
                                             HrTextStyle         style,
                                             const HrRect       *r,
                                             const HrChartRgba  *color);

/* Furniture -------------------------------------------------------------------------------- */

void            hr_canvas_background        (HrCanvas           *c);
/* The chart's @heading (title, then subtitle; either may be empty) and an optional verdict
 * badge at the top right (@badge NULL for none).  Returns the y below the header. */
double          hr_canvas_header            (HrCanvas           *c,
                                             const HrChartHeading *heading,
                                             HrChartVerdict      verdict,
                                             const char         *badge);
/* A pill with the verdict's glyph, text and colour: hr_canvas_badge_measure sets its size,
 * hr_canvas_badge draws it. */
typedef struct
{
  HrChartVerdict verdict;
  const char *text;               /* NULL: the verdict's name, "Fits with margin" */
  double width;                   /* set by hr_canvas_badge_measure */
  double height;
} HrBadge;

void            hr_canvas_badge_measure     (HrCanvas           *c,
                                             HrBadge            *badge);
/* Draws the measured @badge right-aligned at (@right, @top). */
void            hr_canvas_badge             (HrCanvas           *c,
                                             const HrBadge      *badge,
                                             double              right,
                                             double              top);
/* The frame every chart starts with: hr_canvas_begin, the background, and "No data" for NULL
 * @data.  FALSE when there is nothing more to draw (the canvas is then already ended). */
gboolean        hr_canvas_begin_chart       (HrCanvas           *c,
                                             cairo_t            *cr,
                                             double              width,
                                             double              height,
                                             const HrChartTheme *theme,
                                             const void         *data);
/* A chart that gives up below its header: @text centred under @y. */
void            hr_canvas_message_below     (HrCanvas           *c,
                                             double              y,
                                             const char         *text);
/* A line of figures under the header, in the foreground colour; returns the y below it.  Too
 * long for the width, it goes on over more lines, broken between its "  ·  " parts. */
double          hr_canvas_summary           (HrCanvas           *c,
                                             const char         *text,
                                             double              y);
/* Height of one line of @style ("Hg"). */
double          hr_canvas_line_height       (HrCanvas           *c,
                                             HrTextStyle         style);
/* Measures the legend for the bottom edge (nothing drawn); returns its height. */
double          hr_canvas_legend_height     (HrCanvas           *c,
                                             const HrLegendItem *items,
                                             int                 n_items);
/* The y above a bottom legend of @legend_h, with the gap it keeps when there is one. */
double          hr_canvas_above_legend      (HrCanvas           *c,
                                             double              legend_h);
/* Draws the legend measured by hr_canvas_legend_height at the bottom edge. */
void            hr_canvas_legend_bottom     (HrCanvas           *c,
                                             const HrLegendItem *items,
                                             int                 n_items,
                                             double              legend_h);
/* Adds a label @text for the line at @x (at most HR_MAX_MARKS); it sits left of the line when
 * @prefer_left and there is room.  @color NULL: the foreground. */
void            hr_marks_add                (HrMarks            *marks,
                                             const char         *text,
                                             double              x,
                                             gboolean            prefer_left,
                                             const HrChartRgba  *color);
/* Places the labels beside their lines, in as few tiers as keep them apart within the canvas's
 * padding.  Returns @marks->n_tiers. */
int             hr_canvas_place_marks       (HrCanvas           *c,
                                             HrMarks            *marks);
double          hr_canvas_marks_tier_height (HrCanvas           *c);
/* Draws the placed labels in tiers stacked upwards from @y_bottom. */
void            hr_canvas_draw_marks        (HrCanvas           *c,
                                             const HrMarks      *marks,
                                             double              y_bottom);
/* Moves @n intervals centred at @pos (ascending) with extents @size apart by at least @gap,
 * keeping them within [@lo, @hi] when there is room: the label de-overlap of every chart. */
void            hr_spread                   (double             *pos,
                                             const double       *size,
                                             int                 n,
                                             double              gap,
                                             double              lo,
                                             double              hi);
/* A centred message for charts without data ("No data", "Memory figures unknown"). */
void            hr_canvas_message           (HrCanvas           *c,
                                             const HrRect       *r,
                                             const char         *text);

void            hr_canvas_hatch             (HrCanvas           *c,
                                             const HrRect       *r,
                                             const HrChartRgba  *color,
                                             double              alpha,
                                             double              spacing);
void            hr_canvas_marker            (HrCanvas           *c,
                                             int                 marker,
                                             double              x,
                                             double              y,
                                             double              size,
                                             const HrChartRgba  *fill);
void            hr_canvas_rounded_rect      (HrCanvas           *c,
                                             double              x,
                                             double              y,
                                             double              w,
                                             double              h,
                                             double              radius);
/* How hr_canvas_line strokes: @width logical units wide, in @color, dashed by the on and off
 * lengths @dashes[0] and @dashes[1] (NULL: solid). */
typedef struct
{
  double width;
  const HrChartRgba *color;
  const double *dashes;
} HrStroke;

void            hr_canvas_line              (HrCanvas           *c,
                                             double              x0,
                                             double              y0,
                                             double              x1,
                                             double              y1,
                                             const HrStroke     *stroke);

/* A data series as one line through (@x[i], @y[i]), mapped by @xa onto [@x0, @x1] and by @ya
 * onto [@y0, @y1], broken where @keep[i] is FALSE, in @stroke with round joins. */
void            hr_canvas_series            (HrCanvas           *c,
                                             const HrAxis       *xa,
                                             double              x0,
                                             double              x1,
                                             const HrAxis       *ya,
                                             double              y0,
                                             double              y1,
                                             const double       *x,
                                             const double       *y,
                                             const gboolean     *keep,
                                             int                 n,
                                             const HrStroke     *stroke);

/* Stacked horizontal bars ------------------------------------------------------------------ */

#define HR_BAR_MAX_SEGS 6

/* Dark or white text, whichever reads on @fill. */
const HrChartRgba *hr_text_on               (const HrChartRgba  *fill);
/* The stacked horizontal bars of a chart: @n segments each (at most HR_BAR_MAX_SEGS), in
 * @colors, named @names in callouts, their values along @axis laid over [@x0, @x1], against a
 * capacity of @physical and @usable (NAN: none; a chart whose rows differ sets them per row). */
typedef struct
{
  const HrAxis *axis;
  double x0, x1;
  int n;
  const HrChartRgba *const *colors;
  const char *const *names;
  double physical;
  double usable;
  gboolean hatched;               /* pale and hatched segments: system RAM */
} HrBars;

/* One bar of @values (non-finite and negative count as 0) from the axis origin, in the band
 * @y … @y + @h. */
void            hr_bar_fill                 (HrCanvas           *c,
                                             const HrBars       *bars,
                                             const double       *values,
                                             double              y,
                                             double              h);
/* A bar against the capacity: the empty track up to @bars->physical behind it, the segments,
 * and the part beyond @bars->usable hatched as "does not fit". */
void            hr_bar_against              (HrCanvas           *c,
                                             const HrBars       *bars,
                                             const double       *values,
                                             double              y,
                                             double              h);
/* Vertical capacity lines from @top to @bottom: physical solid, usable dashed (NAN: none). */
void            hr_capacity_lines           (HrCanvas           *c,
                                             const HrBars       *bars,
                                             double              top,
                                             double              bottom);
/* Where a label of width @w meant to start at @x starts so that no capacity line runs through
 * it: @x, or just right of the lines in its way (@gap clear of each). */
double          hr_bars_clear_x             (HrCanvas           *c,
                                             const HrBars       *bars,
                                             double              x,
                                             double              w,
                                             double              gap);
/* The labels of those lines, "usable 22.8 GiB" and "physical 24 GiB" (or "@gpu_label: 24
 * GiB"), added to @marks and placed in tiers.  Returns the number of tiers. */
int             hr_canvas_capacity_marks    (HrCanvas           *c,
                                             HrMarks            *marks,
                                             const HrBars       *bars,
                                             const char         *gpu_label);
/* Values inside the segments with room; the others as callouts in @callout_room under the
 * bar ("KV cache 1.44 GiB"), spread so that they never overlap.  No callouts when the room
 * is too small. */
void            hr_bar_labels               (HrCanvas           *c,
                                             const HrBars       *bars,
                                             const double       *values,
                                             double              y,
                                             double              h,
                                             double              callout_room);

/* Axes ------------------------------------------------------------------------------------- */

/* Nice linear ticks covering [@min, @max] with at most @max_ticks ticks. */
void            hr_axis_linear              (HrAxis             *axis,
                                             double              min,
                                             double              max,
                                             int                 max_ticks);
/* Base-2 log axis over [@min, @max] (both > 0) with ticks at powers of two, thinned to at most
 * @max_ticks. */
void            hr_axis_log2                (HrAxis             *axis,
                                             double              min,
                                             double              max,
                                             int                 max_ticks);
/* Maps @v on the axis to [@p0, @p1]. */
double          hr_axis_map                 (const HrAxis       *axis,
                                             double              v,
                                             double              p0,
                                             double              p1);
/* How many ticks fit in @length logical units when each label needs about @label_extent. */
int             hr_axis_max_ticks           (double              length,
                                             double              label_extent);

typedef const char *(*HrTickFormat) (char         *buf,
                                     gsize         size,
                                     const HrAxis *axis,
                                     double        value);

/* Height below the plot that hr_canvas_xaxis needs for its labels and @title. */
double          hr_canvas_xaxis_height      (HrCanvas           *c,
                                             const char         *title);
/* Tick budget for an axis of @length whose widest label is like @widest. */
int             hr_canvas_xaxis_max_ticks   (HrCanvas           *c,
                                             double              length,
                                             const char         *widest);
/* @axis along the bottom of @plot: vertical grid lines across it, tick labels and @title
 * under it.  @format NULL: plain numbers. */
void            hr_canvas_xaxis             (HrCanvas           *c,
                                             const HrAxis       *axis,
                                             HrTickFormat        format,
                                             const HrPlot       *plot,
                                             const char         *title);
double          hr_canvas_yaxis_width       (HrCanvas           *c,
                                             const HrAxis       *axis,
                                             HrTickFormat        format,
                                             const char         *title);
/* @axis up the left of @plot: horizontal grid lines across it, labels right-aligned left of
 * it, @title rotated at the canvas's left padding. */
void            hr_canvas_yaxis             (HrCanvas           *c,
                                             const HrAxis       *axis,
                                             HrTickFormat        format,
                                             const HrPlot       *plot,
                                             const char         *title);

/* Formatting (values for display, in the user's locale) ------------------------------------ */

/* All write into @buf and return it.  Non-finite values give "unknown". */
const char     *hr_fmt_gib                  (char               *buf,
                                             gsize               size,
                                             double              gib);
const char     *hr_fmt_number               (char               *buf,
                                             gsize               size,
                                             double              value,
                                             int                 decimals);
const char     *hr_fmt_tps                  (char               *buf,
                                             gsize               size,
                                             double              tps);
const char     *hr_fmt_usd                  (char               *buf,
                                             gsize               size,
                                             double              usd);
const char     *hr_fmt_usd_short            (char               *buf,
                                             gsize               size,
                                             double              usd);
const char     *hr_fmt_context              (char               *buf,
                                             gsize               size,
                                             double              tokens);
const char     *hr_fmt_tick                 (char               *buf,
                                             gsize               size,
                                             const HrAxis       *axis,
                                             double              value);
/* HrTickFormat for dollar axes: "$1.2k" */
const char     *hr_fmt_usd_tick             (char               *buf,
                                             gsize               size,
                                             const HrAxis       *axis,
                                             double              value);

/* A value usable on a bar: finite and >= 0, else 0. */
static inline double
hr_chart_clean (double v)
{
  return (isfinite (v) && v > 0) ? v : 0;
}

static inline gboolean
hr_chart_known (double v)
{
  return isfinite (v);
}

/* hr-chart-describe.c: HrChartInfo.describe, the figures each chart shows as text */
char *hr_chart_breakdown_describe (const void *data);
char *hr_chart_context_describe   (const void *data);
char *hr_chart_quant_describe     (const void *data);
char *hr_chart_compare_describe   (const void *data);
char *hr_chart_finetune_describe  (const void *data);
char *hr_chart_tco_describe       (const void *data);
char *hr_chart_fit_describe       (const void *data);
char *hr_chart_load_describe      (const void *data);

G_END_DECLS
