/* hr-chart-export.c — a chart to a PNG, SVG or PDF file, atomically */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <png.h>

#include "hr-chart-export.h"

typedef struct
{
  int fd;
  int saved_errno;   /* first write error, 0 when none */
} Sink;

static cairo_status_t
sink_write (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  Sink *sink = closure;

  while (length > 0)
    {
      ssize_t n = write (sink->fd, data, length);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (sink->saved_errno == 0)
            sink->saved_errno = errno;
          return CAIRO_STATUS_WRITE_ERROR;
        }
      data += n;
      length -= (unsigned int) n;
    }
  return CAIRO_STATUS_SUCCESS;
}

/* libpng writes through the same sink as cairo; a write error stops it with longjmp. */
static void
png_sink_write (png_structp  png,
                png_bytep    data,
                png_size_t   length)
{
  Sink *sink = png_get_io_ptr (png);

  while (length > 0)
    {
      unsigned int chunk = (unsigned int) MIN (length, (png_size_t) G_MAXUINT);
      if (sink_write (sink, data, chunk) != CAIRO_STATUS_SUCCESS)
        png_error (png, "write error");
      data += chunk;
      length -= chunk;
    }
}

static void
png_sink_flush (png_structp png)
{
}

/* libpng's own handlers print "libpng error: …" and "libpng warning: …" on stderr, a line the
 * command line's one-line error (and the app) does not want: the error is told by the caller
 * from the sink's errno, a warning about a chart we draw ourselves is of no use to anyone. */
static void
png_quiet_error (png_structp     png,
                 png_const_charp message)
{
  png_longjmp (png, 1);
}

static void
png_quiet_warning (png_structp     png,
                   png_const_charp message)
{
}

/* cairo's own PNG writer compresses at zlib's default level; a chart (flat colours, text) at
 * level 3 is about three times faster to write and only ~30 % larger.  Pixels are cairo's
 * premultiplied native-endian ARGB32, written as straight RGBA. */
static cairo_status_t
write_png (cairo_surface_t *surface,
           Sink            *sink)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *pixels;
  png_structp png;
  png_infop info;
  guint8 *volatile row = NULL;
  cairo_status_t status = CAIRO_STATUS_WRITE_ERROR;

  cairo_surface_flush (surface);
  pixels = cairo_image_surface_get_data (surface);
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, png_quiet_error, png_quiet_warning);
  if (png == NULL)
    return CAIRO_STATUS_NO_MEMORY;
  info = png_create_info_struct (png);
  if (info == NULL || setjmp (png_jmpbuf (png)))
    goto out;

  row = g_malloc ((gsize) w * 4);
  png_set_write_fn (png, sink, png_sink_write, png_sink_flush);
  png_set_compression_level (png, 1);
  png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_IHDR (png, info, (png_uint_32) w, (png_uint_32) h, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  for (int y = 0; y < h; y++)
    {
      const guint32 *src = (const guint32 *) (pixels + (gsize) y * stride);
      for (int x = 0; x < w; x++)
        {
          guint32 p = src[x];
          guint a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
          if (a != 0 && a != 255)
            {
              r = (r * 255 + a / 2) / a;
              g = (g * 255 + a / 2) / a;
              b = (b * 255 + a / 2) / a;
            }
          row[4 * x] = (guint8) r;
          row[4 * x + 1] = (guint8) g;
          row[4 * x + 2] = (guint8) b;
          row[4 * x + 3] = (guint8) a;
        }
      png_write_row (png, row);
    }
  png_write_end (png, info);
  status = CAIRO_STATUS_SUCCESS;

out:
  png_destroy_write_struct (&png, info ? &info : NULL);
  g_free (row);
  return status;
}

static gboolean
set_write_error (GError     **error,
                 const char  *path,
                 int          saved_errno)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Cannot write “%s”: %s"), display, g_strerror (saved_errno));
  return FALSE;
}

/* Draws @page into @sink as @format; the first cairo error, if any. */
static cairo_status_t
render (const HrChartPage *page,
        HrChartFormat      format,
        Sink              *sink)
{
  int width = page->width, height = page->height;
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  switch (format)
    {
    case HR_CHART_FORMAT_PNG:
      {
        int pw = (int) lround (width * page->scale), ph = (int) lround (height * page->scale);

        surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, pw, ph);
        cr = cairo_create (surface);
        /* Exactly pw × ph device pixels for width × height logical units */
        cairo_scale (cr, (double) pw / width, (double) ph / height);
        hr_chart_draw (page->kind, cr, width, height, page->data, page->theme);
        status = cairo_status (cr);
        cairo_destroy (cr);
        if (status == CAIRO_STATUS_SUCCESS)
          status = write_png (surface, sink);
        cairo_surface_destroy (surface);
      }
      break;
    case HR_CHART_FORMAT_SVG:
    case HR_CHART_FORMAT_PDF:
    default:
      if (format == HR_CHART_FORMAT_SVG)
        {
          surface = cairo_svg_surface_create_for_stream (sink_write, sink, width, height);
          cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PT);
        }
      else
        {
          surface = cairo_pdf_surface_create_for_stream (sink_write, sink, width, height);
          cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Headroom");
        }
      cr = cairo_create (surface);
      hr_chart_draw (page->kind, cr, width, height, page->data, page->theme);
      status = cairo_status (cr);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status (surface);
      cairo_surface_destroy (surface);
      break;
    }
  return status;
}

/* Draws @page into the open temporary file of @sink; FALSE with @error on a cairo or write
 * failure. */
static gboolean
render_to (const HrChartPage  *page,
           HrChartFormat       format,
           Sink               *sink,
           const char         *path,
           GError            **error)
{
  cairo_status_t status = render (page, format, sink);
  g_autofree char *display = NULL;

  if (sink->saved_errno != 0)
    return set_write_error (error, path, sink->saved_errno);
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  display = g_filename_display_name (path);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot draw “%s”: %s"), display,
               cairo_status_to_string (status));
  return FALSE;
}

gboolean
hr_chart_format_from_path (const char    *path,
                           HrChartFormat *format)
{
  const char *dot;

  g_return_val_if_fail (format != NULL, FALSE);

  if (path == NULL || (dot = strrchr (path, '.')) == NULL || strchr (dot, G_DIR_SEPARATOR))
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".png") == 0)
    *format = HR_CHART_FORMAT_PNG;
  else if (g_ascii_strcasecmp (dot, ".svg") == 0)
    *format = HR_CHART_FORMAT_SVG;
  else if (g_ascii_strcasecmp (dot, ".pdf") == 0)
    *format = HR_CHART_FORMAT_PDF;
  else
    return FALSE;
  return TRUE;
}

gboolean
hr_chart_export (const HrChartPage  *page,
                 const char         *path,
                 GError            **error)
{
  int width = page->width, height = page->height;
  double scale = page->scale;
  HrChartFormat format;
  g_autofree char *dir = NULL, *base = NULL, *tmp = NULL, *display = NULL;
  Sink sink = { -1, 0 };
  gboolean ok;

  g_return_val_if_fail (hr_chart_info (page->kind) != NULL, FALSE);
  g_return_val_if_fail (page->data != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  display = g_filename_display_name (path);
  if (!hr_chart_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Cannot export to “%s”: use a .png, .svg or .pdf file name"), display);
      return FALSE;
    }
  if (width < 1 || height < 1 || width > HR_CHART_EXPORT_MAX_SIDE
      || height > HR_CHART_EXPORT_MAX_SIDE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Chart size %d×%d is out of range (1 to %d)"), width, height,
                   HR_CHART_EXPORT_MAX_SIDE);
      return FALSE;
    }
  if (format == HR_CHART_FORMAT_PNG)
    {
      double pw = round (width * scale), ph = round (height * scale);

      if (!isfinite (scale) || scale <= 0 || scale > HR_CHART_EXPORT_MAX_SCALE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("Scale %g is out of range (above 0, at most %g)"), scale,
                       HR_CHART_EXPORT_MAX_SCALE);
          return FALSE;
        }
      if (pw < 1 || ph < 1 || pw > HR_CHART_EXPORT_MAX_SIDE || ph > HR_CHART_EXPORT_MAX_SIDE
          || pw * ph > HR_CHART_EXPORT_MAX_PIXELS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("A %.0f×%.0f pixel image is too large"), pw, ph);
          return FALSE;
        }
    }

  /* A temporary file next to the target, so the final rename stays on one file system */
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  sink.fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0666);
  if (sink.fd < 0)
    return set_write_error (error, path, errno);

  ok = render_to (page, format, &sink, path, error);
  if (ok && fsync (sink.fd) != 0 && errno != EINVAL && errno != EROFS)
    ok = set_write_error (error, path, errno);
  if (close (sink.fd) != 0 && ok)
    ok = set_write_error (error, path, errno);
  if (ok && g_rename (tmp, path) != 0)
    ok = set_write_error (error, path, errno);
  if (!ok)
    g_unlink (tmp);
  return ok;
}
