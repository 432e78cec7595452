/* hr-chart-export.h — a chart to a PNG, SVG or PDF file */
#pragma once

#include <glib.h>
#include "hr-chart.h"

G_BEGIN_DECLS

typedef enum
{
  HR_CHART_FORMAT_PNG,
  HR_CHART_FORMAT_SVG,
  HR_CHART_FORMAT_PDF,
} HrChartFormat;

#define HR_CHART_EXPORT_MAX_SIDE   16384       /* device pixels per side, PNG */
#define HR_CHART_EXPORT_MAX_PIXELS (64 << 20)  /* device pixels in all, PNG (256 MiB) */
#define HR_CHART_EXPORT_MAX_SCALE  8.0

/* The format @path's extension names (case-insensitive .png, .svg, .pdf). */
gboolean        hr_chart_format_from_path   (const char         *path,
                                             HrChartFormat      *format);

/* What hr_chart_export draws: chart @kind from @data (the struct that goes with @kind) in
 * @theme (NULL: light), @width × @height logical units, a PNG at @scale pixels per unit. */
typedef struct
{
  HrChartKind kind;
  const void *data;
  const HrChartTheme *theme;
  int width, height;
  double scale;
} HrChartPage;

/* Draws @page into @path, chosen by its extension: a PNG of exactly round(width × scale) by
 * round(height × scale) pixels, or an SVG / PDF page of width × height points (scale
 * ignored).  Written to a temporary file in the same directory and renamed over @path, so an
 * existing file is never left half-written.  G_IO_ERROR_INVALID_ARGUMENT for a bad size or
 * scale, G_IO_ERROR_NOT_SUPPORTED for an unknown extension, the file error otherwise. */
gboolean        hr_chart_export             (const HrChartPage  *page,
                                             const char         *path,
                                             GError            **error);

G_END_DECLS
