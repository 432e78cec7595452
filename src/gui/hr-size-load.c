/* hr-size-load.c — the Size view's "Throughput Under Load" section (hr-size-load.h) */
#include "hr-size-load.h"
#include "hr-chart-data.h"
#include "hr-load-curve.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define DEFAULT_TARGET_TPS 20.0   /* a per-user speed well above reading pace */

struct _HrSizeLoad
{
  GtkWidget *group;          /* AdwPreferencesGroup */
  GtkAdjustment *target;
  GtkLabel *summary;
  HrChartWidget *chart;
  HrScenario scenario;
  HrEstimate estimate;
  gboolean have;
};

static void
refresh (HrSizeLoad *l)
{
  HrLoadCurve curve;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree HrChartLoad *data = NULL;
  double target = gtk_adjustment_get_value (l->target);

  if (!l->have || !hr_load_curve_compute (&l->scenario, &l->estimate, target, &curve, &error))
    {
      if (error != NULL)
        g_debug ("load curve: %s", error->message);
      gtk_widget_set_visible (l->group, FALSE);
      hr_chart_widget_set_data (l->chart, HR_CHART_LOAD, NULL);
      return;
    }
  gtk_widget_set_visible (l->group, TRUE);
  text = hr_load_curve_target_text (&curve);
  if (text == NULL)
    {
      char a[64];

      g_snprintf (a, sizeof a, "%.0f", target);
      /* TRANSLATORS: the per-user speed target cannot be met; %s is tok/s */
      text = g_strdup_printf (_("Not even one user gets %s tok/s here."), a);
    }
  gtk_label_set_text (l->summary, text);
  data = g_new0 (HrChartLoad, 1);
  hr_chart_load_from_curve (&l->scenario, &curve, data);
  hr_chart_widget_set_data (l->chart, HR_CHART_LOAD, data);
  {
    g_autofree char *desc = hr_chart_info (HR_CHART_LOAD)->describe (data);

    hr_chart_widget_set_description (l->chart, desc);
  }
}

static void
target_changed_cb (GtkAdjustment *adj,
                   HrSizeLoad    *l)
{
  refresh (l);
}

static void
group_destroyed (gpointer data)
{
  g_free (data);
}

HrSizeLoad *
hr_size_load_new (GtkBox    *box,
                  GtkWidget *sibling)
{
  HrSizeLoad *l = g_new0 (HrSizeLoad, 1);
  GtkWidget *row, *spin, *card, *summary_row;

  l->group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (l->group), _("Throughput Under Load"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (l->group),
                                         _("Decode speed per user and in total as more users send requests at once, each prompt sharing the engine’s steps with the others’ decoding, until the KV cache is full."));

  l->target = gtk_adjustment_new (DEFAULT_TARGET_TPS, 1, 1000, 1, 10, 0);
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Speed Each User Needs"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Tokens per second"));
  spin = gtk_spin_button_new (l->target, 1, 0);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Speed each user needs, tokens per second"), -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (l->group), row);

  summary_row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (summary_row), _("At That Speed"));
  l->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (l->summary, TRUE);
  gtk_label_set_xalign (l->summary, 1);
  gtk_label_set_justify (l->summary, GTK_JUSTIFY_RIGHT);
  gtk_label_set_selectable (l->summary, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (l->summary), "numeric");
  gtk_widget_set_hexpand (GTK_WIDGET (l->summary), TRUE);
  gtk_label_set_max_width_chars (l->summary, 24);
  adw_action_row_add_suffix (ADW_ACTION_ROW (summary_row), GTK_WIDGET (l->summary));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (l->group), summary_row);

  card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "chart-card");
  gtk_widget_set_margin_top (card, 12);
  l->chart = HR_CHART_WIDGET (hr_chart_widget_new (HR_CHART_LOAD));
  gtk_widget_set_hexpand (GTK_WIDGET (l->chart), TRUE);
  gtk_box_append (GTK_BOX (card), GTK_WIDGET (l->chart));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (l->group), card);

  {
    /* exported like the other charts: view.export-chart with "load.png" … (hr-size-view-actions.c) */
    g_autoptr(GMenu) menu = g_menu_new ();
    GtkWidget *button = gtk_menu_button_new ();
    static const char *const formats[][2] = {
      { N_("Export as _PNG…"), "load.png" }, { N_("Export as _SVG…"), "load.svg" }, { N_("Export as P_DF…"), "load.pdf" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      {
        g_autoptr(GMenuItem) item = g_menu_item_new (_(formats[i][0]), NULL);

        g_menu_item_set_action_and_target_value (item, "view.export-chart", g_variant_new_string (formats[i][1]));
        g_menu_append_item (menu, item);
      }
    gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
    gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-save-symbolic");
    gtk_widget_set_tooltip_text (button, _("Export Throughput Chart"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Export throughput chart"), -1);
    gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
    gtk_widget_add_css_class (button, "flat");
    adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (l->group), button);
  }

  gtk_widget_set_visible (l->group, FALSE);
  gtk_box_insert_child_after (box, l->group, sibling);
  g_object_set_data_full (G_OBJECT (l->group), "hr-size-load", l, group_destroyed);
  g_signal_connect (l->target, "value-changed", G_CALLBACK (target_changed_cb), l);
  return l;
}

void
hr_size_load_update (HrSizeLoad       *l,
                     const HrScenario *scenario,
                     const HrEstimate *estimate,
                     gboolean          ok)
{
  g_return_if_fail (l != NULL);
  l->have = ok && scenario != NULL && estimate != NULL && hr_load_curve_applies (scenario);
  if (l->have)
    {
      l->scenario = *scenario;
      l->estimate = *estimate;
    }
  refresh (l);
}

HrChartWidget *
hr_size_load_get_chart (HrSizeLoad *l)
{
  return l->chart;
}
