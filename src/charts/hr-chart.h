/* hr-chart.h — Headroom's charts: plain data in, cairo drawing out
 *
 * Every chart is one function that draws into any cairo_t (a widget's snapshot, a PNG, an SVG
 * or a PDF surface) from a plain struct defined here.  The structs hold display values only
 * (GiB, tok/s, USD), so the drawing code never depends on how the core computes them;
 * hr-chart-data.h fills them from core results.
 *
 * All coordinates are logical units: for HiDPI the caller scales the cairo_t and passes the
 * logical width and height.  Unknown figures are NAN and are drawn as "unknown".
 */
#pragma once

#include <glib.h>
#include <cairo.h>

G_BEGIN_DECLS

typedef enum
{
  HR_CHART_BREAKDOWN,  /* HrChartBreakdown */
  HR_CHART_CONTEXT,    /* HrChartContext */
  HR_CHART_QUANT,      /* HrChartQuant */
  HR_CHART_COMPARE,    /* HrChartCompare */
  HR_CHART_FINETUNE,   /* HrChartFinetune */
  HR_CHART_TCO,        /* HrChartTco */
  HR_CHART_FIT,        /* HrChartFit */
  HR_CHART_LOAD,       /* HrChartLoad */
  HR_CHART_N_KINDS
} HrChartKind;

/* Mirrors HrVerdict, plus "unknown" for figures the core could not compute. */
typedef enum
{
  HR_CHART_VERDICT_FITS,
  HR_CHART_VERDICT_TIGHT,
  HR_CHART_VERDICT_EXCEEDS,
  HR_CHART_VERDICT_UNKNOWN,
} HrChartVerdict;

typedef struct
{
  double red, green, blue, alpha;
} HrChartRgba;

#define HR_CHART_N_SERIES_COLORS 5

typedef struct
{
  HrChartRgba background;   /* painted first; alpha 0 leaves the surface as it is */
  HrChartRgba foreground;   /* titles, values */
  HrChartRgba muted;        /* subtitles, tick labels, notes */
  HrChartRgba grid;
  HrChartRgba axis;
  HrChartRgba track;        /* empty capacity behind a bar */
  HrChartRgba physical;     /* physical-memory line */
  HrChartRgba usable;       /* usable-memory line */
  HrChartRgba fits;
  HrChartRgba tight;
  HrChartRgba exceeds;
  HrChartRgba unknown;
  HrChartRgba series[HR_CHART_N_SERIES_COLORS]; /* weights, KV, buffers, system RAM, vision
                                                 * projector / etc. */
  HrChartRgba draft;        /* the breakdown's draft model (#31) */
  char font_family[96];     /* Pango family list */
  double font_size;         /* base size in logical pixels, before size adaptation */
} HrChartTheme;

/* Okabe-Ito based, colour-blind safe. */
const HrChartTheme *hr_chart_theme_light    (void);
const HrChartTheme *hr_chart_theme_dark     (void);
const HrChartRgba  *hr_chart_theme_verdict_color (const HrChartTheme *theme,
                                                  HrChartVerdict      verdict);

#define HR_CHART_TITLE_LEN 160
#define HR_CHART_LABEL_LEN 96

/* What every chart's data struct begins with: the chart's title and the line under it, drawn by
 * the chart's header. */
typedef struct
{
  char title[HR_CHART_TITLE_LEN];
  char subtitle[HR_CHART_TITLE_LEN * 2];
} HrChartHeading;

/* 1. Memory breakdown ---------------------------------------------------------------------- */

#define HR_CHART_MAX_DEVICES 16

typedef struct
{
  char label[HR_CHART_LABEL_LEN];  /* "GPU 1 · RTX 4090" */
  double weights_gib;
  double kv_gib;                   /* KV cache & recurrent state */
  double buffers_gib;              /* engine & activation buffers */
  double physical_gib;
  double usable_gib;
  double draft_gib;                /* speculative decoding's draft (#31): its weights, KV and
                                    * buffers; 0: none (last: positional initialisers stay) */
  double projector_gib;            /* the vision projector's weights and image-encode buffer
                                    * (#31), on the device that holds it; 0 for none */
} HrChartDevice;

typedef struct
{
  HrChartHeading heading;
  int n_devices;                   /* 1 … HR_CHART_MAX_DEVICES; one bar each */
  HrChartDevice devices[HR_CHART_MAX_DEVICES];
  double system_ram_gib;           /* weights kept in system RAM (offload); 0 for none */
  double weights_file_gib;         /* all the weights (the file), when it differs from what
                                    * is loaded; 0 or NAN: not shown */
  double required_gib;             /* device memory over all devices */
  double physical_gib;             /* over all devices */
  double usable_gib;
  double machine_gib;              /* unified memory with an offload: what the machine holds for
                                    * the GPU's part and the system-RAM part together; 0: none */
  HrChartVerdict verdict;
} HrChartBreakdown;

/* 2. Memory against context window ---------------------------------------------------------- */

#define HR_CHART_MAX_POINTS 64
#define HR_CHART_MAX_LINES  4

typedef struct
{
  char label[32];                  /* "F16", "FP8 / Q8_0", "Q4_0" */
  int n_points;
  double context[HR_CHART_MAX_POINTS];       /* tokens, increasing */
  double required_gib[HR_CHART_MAX_POINTS];  /* device memory at that context */
} HrChartLine;

typedef struct
{
  HrChartHeading heading;
  int n_lines;
  HrChartLine lines[HR_CHART_MAX_LINES];
  int current_line;                /* the scenario's KV precision (drawn heavier) */
  double usable_gib;
  double physical_gib;
  gboolean per_device;             /* values are per GPU of a multi-GPU group */
  double current_context;          /* tokens; 0 for none */
  HrChartVerdict verdict;          /* at the current context and KV precision */
  double max_fit_context;          /* largest context that fits on the current line; 0: none */
  double min_context, max_context; /* x range, tokens (log axis) */
} HrChartContext;

/* 3. Quantizations --------------------------------------------------------------------------- */

#define HR_CHART_MAX_QUANTS 32

typedef struct
{
  char label[32];                  /* "Q4_K_M" */
  double weights_gib;
  double kv_gib;                   /* the cache alone, as the matrix's KV column */
  double buffers_gib;
  double draft_gib;                /* speculative decoding's draft (#31): in the total, not KV */
  double projector_gib;            /* the vision projector (#31): in the total, not KV */
  double decode_tps;               /* NAN when unknown */
  HrChartVerdict verdict;
} HrChartQuantRow;

typedef struct
{
  HrChartHeading heading;
  int n_rows;
  HrChartQuantRow rows[HR_CHART_MAX_QUANTS];
  int current_row;                 /* -1 for none */
  double usable_gib;
  double physical_gib;
} HrChartQuant;

/* 4. GPU comparison ------------------------------------------------------------------------- */

#define HR_CHART_MAX_GPUS 128

typedef enum
{
  HR_CHART_SORT_VERDICT,           /* fits first, then faster first */
  HR_CHART_SORT_NONE,              /* as given */
  HR_CHART_SORT_DECODE,            /* fastest first */
  HR_CHART_SORT_COST,              /* cheapest per token first */
  HR_CHART_SORT_MARGIN,            /* most headroom first */
} HrChartSort;

typedef struct
{
  char name[HR_CHART_LABEL_LEN];   /* "H100 80GB SXM" */
  int count;                       /* GPUs of that kind (×N shown when > 1) */
  double required_gib;
  double usable_gib;
  double decode_tps;               /* NAN when unknown */
  double cost_per_mtok_usd;        /* NAN when unknown */
  HrChartVerdict verdict;
} HrChartCompareItem;

typedef struct
{
  HrChartHeading heading;
  int n_items;
  HrChartCompareItem items[HR_CHART_MAX_GPUS];
  HrChartSort sort;
} HrChartCompare;

/* 5a. Fine-tuning ----------------------------------------------------------------------------- */

#define HR_CHART_MAX_FT 4

typedef struct
{
  char label[32];                  /* "QLoRA (4-bit)" */
  double weights_gib;
  double grad_optimizer_gib;       /* gradients + optimizer states */
  double activations_gib;
  double buffers_gib;
  HrChartVerdict verdict;
  char note[HR_CHART_LABEL_LEN];   /* "Recommended: RTX PRO 6000 (96 GB)"; may be empty */
} HrChartFtMethod;

typedef struct
{
  HrChartHeading heading;
  int n_methods;
  HrChartFtMethod methods[HR_CHART_MAX_FT];
  char gpu_label[HR_CHART_LABEL_LEN]; /* the capacity the bars are drawn against */
  double physical_gib;             /* per GPU; NAN for no capacity lines */
  double usable_gib;
} HrChartFinetune;

/* 5b. Rent versus buy ----------------------------------------------------------------------- */

#define HR_CHART_MAX_MONTHS 241

typedef struct
{
  HrChartHeading heading;
  char cloud_label[HR_CHART_LABEL_LEN]; /* "Cloud: Vast.ai 1x A100 80GB" */
  char buy_label[HR_CHART_LABEL_LEN];   /* "Buy: RTX PRO 6000" */
  int n_points;
  double month[HR_CHART_MAX_MONTHS];    /* increasing, from 0 */
  double cloud_usd[HR_CHART_MAX_MONTHS]; /* cumulative; NAN when unknown */
  double buy_usd[HR_CHART_MAX_MONTHS];
  double cloud_monthly_usd;
  double electricity_monthly_usd;
  double hardware_usd;
  double break_even_month;         /* INFINITY when buying never pays off; NAN when unknown */
} HrChartTco;

/* The chart registry ---------------------------------------------------------------------- */

/* Every chart kind's entry in one table (hr-chart.c), so that callers look a kind up instead of
 * switching over HrChartKind.  Adding a chart: its drawing file, its enum value and struct
 * here, its entry in the table — see CONTRIBUTING.md. */

/* The drawing kit's canvas (hr-chart-private.h), begun by hr_chart_draw(): sized, themed and
 * with the background laid.  A chart paints its non-NULL @data on it; hr_chart_draw() ends it. */
typedef struct _HrCanvas HrCanvas;
typedef void  (*HrChartPaintFunc)    (HrCanvas           *c,
                                      const void         *data);

/* Each chart's HrChartPaintFunc, in its hr-chart-NAME.c: for the registry (draw a chart with
 * hr_chart_draw()). */
void hr_chart_breakdown_paint (HrCanvas *c, const void *data);
void hr_chart_context_paint   (HrCanvas *c, const void *data);
void hr_chart_quant_paint     (HrCanvas *c, const void *data);
void hr_chart_compare_paint   (HrCanvas *c, const void *data);
void hr_chart_finetune_paint  (HrCanvas *c, const void *data);
void hr_chart_tco_paint       (HrCanvas *c, const void *data);
/* A plain-text account of what the chart shows, for screen readers; g_free the result. */
typedef char *(*HrChartDescribeFunc) (const void         *data);

typedef struct
{
  const char *id;               /* "breakdown": the CLI's KIND, export file names, action targets */
  const char *title;            /* N_() display name, "Memory breakdown": translate with _() */
  gsize data_size;              /* sizeof the data struct.  The structs are flat (no pointers):
                                 * copied with g_memdup2(), freed with g_free() */
  gsize title_offset;           /* offsetof the struct's heading.title */
  HrChartPaintFunc draw;
  int min_height;               /* a chart widget's minimum and natural height, logical px */
  int natural_height;
  int export_height;            /* default height of an exported chart 1200 wide (a view may
                                 * ask for more: the comparison grows with its rows) */
  HrChartDescribeFunc describe; /* optional (NULL): accessible description */
} HrChartInfo;

/* The entry of @kind; NULL when @kind is out of range. */
const HrChartInfo *hr_chart_info            (HrChartKind             kind);
/* The title stored in @data (may be ""), "" for NULL data or an unknown kind. */
const char     *hr_chart_data_title         (HrChartKind             kind,
                                             const void             *data);
/* "breakdown, context, …, tco" (g_free): for messages that list the kinds. */
char           *hr_chart_kind_list          (const char             *separator);

/* Draws the chart of @kind into @cr at (0, 0) over @width × @height logical units: @data points
 * to the struct that goes with @kind; NULL draws "No data".  Nothing is drawn into a zero, NAN
 * or huge size or a cairo_t in an error state. */
void            hr_chart_draw               (HrChartKind             kind,
                                             cairo_t                *cr,
                                             double                  width,
                                             double                  height,
                                             const void             *data,
                                             const HrChartTheme     *theme);

const char     *hr_chart_kind_to_string     (HrChartKind             kind);
gboolean        hr_chart_kind_from_string   (const char             *str,
                                             HrChartKind            *kind);
const char     *hr_chart_verdict_display    (HrChartVerdict          verdict);
const char     *hr_chart_verdict_glyph      (HrChartVerdict          verdict);

/* What Runs Here ---------------------------------------------------------------------------- */

#define HR_CHART_MAX_FIT 128

typedef struct
{
  char label[HR_CHART_LABEL_LEN];  /* "Qwen3.5 27B · Q6_K" */
  double quality;                  /* at the quant; NAN: unknown (not drawn) */
  double decode_tps;               /* NAN when unknown */
  HrChartVerdict verdict;          /* FITS or TIGHT */
  gboolean frontier;               /* no other point is better on both */
} HrChartFitPoint;

typedef struct
{
  HrChartHeading heading;
  int n_points;
  HrChartFitPoint points[HR_CHART_MAX_FIT];
  int n_fitting;                   /* models that fit (all the points, known or not) */
  int n_unknown;                   /* of which without a published quality */
  int n_left_out;                  /* models that need more memory (or speed) than there is */
  double usable_gib;
  char quality_name[HR_CHART_LABEL_LEN]; /* the y axis: the metric's name */
} HrChartFit;

void hr_chart_fit_paint (HrCanvas *c, const void *data);

/* Throughput under load ----------------------------------------------------------------------- */

#define HR_CHART_MAX_LOAD 24

typedef struct
{
  HrChartHeading heading;
  int n_points;
  double concurrency[HR_CHART_MAX_LOAD];  /* requests at once, increasing (log-2 x axis) */
  double per_user_tps[HR_CHART_MAX_LOAD]; /* one user's decode speed */
  double total_tps[HR_CHART_MAX_LOAD];    /* over all users */
  int first_compute;               /* the first compute-bound point; -1: none */
  gboolean kv_bound;               /* the last point is where the KV cache is full */
  double target_tps;               /* the per-user speed asked for; NAN: none */
  int target_users;                /* the most users at it; 0: none */
} HrChartLoad;

void hr_chart_load_paint (HrCanvas *c, const void *data);

G_END_DECLS
