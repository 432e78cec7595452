/* hr-verdict-banner.c — the verdict banner of the Size and Fine-tune views */
#include "hr-verdict-banner.h"

#include "hr-table-cells.h"

#include <glib/gi18n.h>

struct _HrVerdictBanner
{
  GtkBox parent_instance;

  /* template */
  GtkImage *icon;
  GtkLabel *title;
  GtkLabel *detail;
};

G_DEFINE_FINAL_TYPE (HrVerdictBanner, hr_verdict_banner, GTK_TYPE_BOX)

static void
hr_verdict_banner_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_VERDICT_BANNER);

  G_OBJECT_CLASS (hr_verdict_banner_parent_class)->dispose (object);
}

static void
hr_verdict_banner_class_init (HrVerdictBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_verdict_banner_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-verdict-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, HrVerdictBanner, icon);
  gtk_widget_class_bind_template_child (widget_class, HrVerdictBanner, title);
  gtk_widget_class_bind_template_child (widget_class, HrVerdictBanner, detail);
}

static void
hr_verdict_banner_init (HrVerdictBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
hr_verdict_banner_set (HrVerdictBanner *self,
                       const char      *css,
                       const char      *icon,
                       const char      *title,
                       const char      *detail)
{
  g_autofree char *a11y = NULL;

  g_return_if_fail (HR_IS_VERDICT_BANNER (self));

  hr_table_set_verdict_class (GTK_WIDGET (self), css);
  gtk_image_set_from_icon_name (self->icon, icon);
  gtk_label_set_label (self->title, title ? title : "");
  gtk_label_set_label (self->detail, detail ? detail : "");
  /* Read as one sentence pair; a banner without detail reads its title alone. */
  if (detail != NULL && detail[0] != '\0')
    a11y = g_strdup_printf (C_("verdict banner for screen readers: title, detail", "%s. %s"),
                            title ? title : "", detail);
  else
    a11y = g_strdup (title ? title : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
}

const char *
hr_verdict_banner_get_title (HrVerdictBanner *self)
{
  g_return_val_if_fail (HR_IS_VERDICT_BANNER (self), NULL);
  return gtk_label_get_label (self->title);
}
