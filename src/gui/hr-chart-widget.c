/* hr-chart-widget.c — a widget that draws any of Headroom's charts
 *
 * The drawing is the shared cairo code in src/charts, the same the CLI exports with; the
 * widget only keeps a copy of the data, picks the light or dark chart theme and lends it the
 * widget's own text colour, re-read whenever the style changes (dark mode, high contrast).
 */
#include "hr-chart-widget.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

struct _HrChartWidget
{
  GtkWidget parent_instance;

  HrChartKind kind;
  gpointer data;           /* a copy of the struct for @kind */
  HrChartTheme theme;      /* for the screen */
  char *description;
};

enum
{
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (HrChartWidget, hr_chart_widget, GTK_TYPE_WIDGET)

gsize
hr_chart_kind_data_size (HrChartKind kind)
{
  const HrChartInfo *info = hr_chart_info (kind);

  return info != NULL ? info->data_size : 0;
}

static void
lookup_verdict_color (HrChartWidget *self,
                      const char    *name,
                      HrChartRgba   *out)
{
  GdkRGBA c;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (self)), name, &c))
    *out = (HrChartRgba) { c.red, c.green, c.blue, c.alpha };
G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
update_theme (HrChartWidget *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GdkRGBA fg;

  self->theme = dark ? *hr_chart_theme_dark () : *hr_chart_theme_light ();

  /* The card behind the chart paints the background; text takes the widget's colour so it
   * follows high-contrast and custom styles too. */
  self->theme.background.alpha = 0;
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
G_GNUC_END_IGNORE_DEPRECATIONS
  self->theme.foreground = (HrChartRgba) { fg.red, fg.green, fg.blue, fg.alpha };
  /* a verdict has the colour of the Size view's banner for it: libadwaita's named colours */
  lookup_verdict_color (self, "success_color", &self->theme.fits);
  lookup_verdict_color (self, "warning_color", &self->theme.tight);
  lookup_verdict_color (self, "error_color", &self->theme.exceeds);
}

static void
update_accessible (HrChartWidget *self)
{
  const char *title = hr_chart_data_title (self->kind, self->data);
  const HrChartInfo *info = hr_chart_info (self->kind);
  g_autofree char *figures = NULL;
  g_autofree char *description = NULL;

  /* the view's summary, then every figure the drawing shows */
  if (info != NULL && info->describe != NULL && self->data != NULL)
    figures = info->describe (self->data);
  description = g_strjoin ("\n", self->description ? self->description : "", figures ? figures : "", NULL);
  g_strstrip (description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title[0] ? title : _(info->title),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description,
                                  -1);
}

/* Callbacks -------------------------------------------------------------------------------- */

static void
dark_changed_cb (HrChartWidget   *self,
                 GParamSpec      *pspec,
                 AdwStyleManager *manager)
{
  update_theme (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* GtkWidget -------------------------------------------------------------------------------- */

static void
hr_chart_widget_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrChartWidget *self = HR_CHART_WIDGET (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->data == NULL || width <= 0 || height <= 0)
    return;
  /* GTK renders the cairo node at the surface's scale: HiDPI needs nothing more. */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hr_chart_draw (self->kind, cr, width, height, self->data, &self->theme);
  cairo_destroy (cr);
}

/* The breakdown's rows the widget's height follows (0 for other charts or no data). */
static int
breakdown_rows (HrChartWidget *self)
{
  const HrChartBreakdown *b = self->data;

  if (self->kind != HR_CHART_BREAKDOWN || b == NULL)
    return 0;
  return CLAMP (b->n_devices, 1, HR_CHART_MAX_DEVICES) + (b->system_ram_gib > 0 ? 1 : 0);
}

static void
hr_chart_widget_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  HrChartWidget *self = HR_CHART_WIDGET (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 560;
      return;
    }
  *minimum = hr_chart_info (self->kind)->min_height;
  *natural = hr_chart_info (self->kind)->natural_height;
  /* the memory breakdown's rows (a bar per device of a mixed setup, system RAM) and, narrow, its
   * summary and legend on more lines: room for all of them (#31) */
  if (breakdown_rows (self) > 0)
    {
      int extra = (breakdown_rows (self) - 1) * 36 + (for_size > 0 && for_size < 600 ? 120 : 0);

      *minimum += extra;
      *natural += extra;
    }
}

static GtkSizeRequestMode
hr_chart_widget_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
hr_chart_widget_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (hr_chart_widget_parent_class)->css_changed (widget, change);

  update_theme (HR_CHART_WIDGET (widget));
  gtk_widget_queue_draw (widget);
}

/* GObject ---------------------------------------------------------------------------------- */

static void
hr_chart_widget_dispose (GObject *object)
{
  HrChartWidget *self = HR_CHART_WIDGET (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);

  G_OBJECT_CLASS (hr_chart_widget_parent_class)->dispose (object);
}

static void
hr_chart_widget_finalize (GObject *object)
{
  HrChartWidget *self = HR_CHART_WIDGET (object);

  g_clear_pointer (&self->data, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (hr_chart_widget_parent_class)->finalize (object);
}

static void
hr_chart_widget_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrChartWidget *self = HR_CHART_WIDGET (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_uint (value, self->kind);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_chart_widget_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrChartWidget *self = HR_CHART_WIDGET (object);

  switch (prop_id)
    {
    case PROP_KIND:
      if (self->kind != g_value_get_uint (value))
        {
          self->kind = g_value_get_uint (value);
          g_clear_pointer (&self->data, g_free);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_chart_widget_class_init (HrChartWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_chart_widget_dispose;
  object_class->finalize = hr_chart_widget_finalize;
  object_class->get_property = hr_chart_widget_get_property;
  object_class->set_property = hr_chart_widget_set_property;

  widget_class->snapshot = hr_chart_widget_snapshot;
  widget_class->measure = hr_chart_widget_measure;
  widget_class->get_request_mode = hr_chart_widget_get_request_mode;
  widget_class->css_changed = hr_chart_widget_css_changed;

  /* HrChartKind as a number: the charts library has no GType of its own. */
  properties[PROP_KIND] =
    g_param_spec_uint ("kind", NULL, NULL, 0, HR_CHART_N_KINDS - 1, HR_CHART_BREAKDOWN,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_chart_widget_init (HrChartWidget *self)
{
  self->kind = HR_CHART_BREAKDOWN;
  update_theme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, G_CONNECT_SWAPPED);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
hr_chart_widget_new (HrChartKind kind)
{
  return g_object_new (HR_TYPE_CHART_WIDGET, "kind", (guint) kind, NULL);
}

HrChartKind
hr_chart_widget_get_kind (HrChartWidget *self)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), HR_CHART_BREAKDOWN);
  return self->kind;
}

void
hr_chart_widget_set_data (HrChartWidget *self,
                          HrChartKind    kind,
                          gconstpointer  data)
{
  int rows;

  g_return_if_fail (HR_IS_CHART_WIDGET (self));
  g_return_if_fail ((guint) kind < HR_CHART_N_KINDS);

  rows = breakdown_rows (self);
  if (kind != self->kind)
    g_object_set (self, "kind", (guint) kind, NULL);
  if (data == NULL)
    g_clear_pointer (&self->data, g_free);
  else if (self->data != NULL)
    memcpy (self->data, data, hr_chart_kind_data_size (kind));
  else
    self->data = g_memdup2 (data, hr_chart_kind_data_size (kind));
  update_accessible (self);
  if (breakdown_rows (self) != rows)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gconstpointer
hr_chart_widget_get_data (HrChartWidget *self)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), NULL);
  return self->data;
}

const HrChartTheme *
hr_chart_widget_get_theme (HrChartWidget *self)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), NULL);
  return &self->theme;
}

void
hr_chart_widget_set_description (HrChartWidget *self,
                                 const char    *description)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));

  if (g_strcmp0 (description, self->description) == 0)
    return;
  g_free (self->description);
  self->description = g_strdup (description);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), description);
  update_accessible (self);
}

gboolean
hr_chart_widget_export (HrChartWidget  *self,
                        const char     *path,
                        int             width,
                        int             height,
                        double          scale,
                        GError        **error)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->data == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The chart has nothing to export yet"));
      return FALSE;
    }
  return hr_chart_export (&(HrChartPage) { self->kind, self->data, hr_chart_theme_light (),
                                           width, height, scale },
                          path, error);
}
