/* hr-cloud-view.c — the Cloud & TCO view: cloud offers that fit, and rent versus buy
 *
 * The view has no scenario controls of its own: it prices the Size view's scenario.  It reads
 * that scenario when it is shown, and again after each of the Size view's recomputes while it
 * is shown, in an idle that runs before the next frame; hidden, it only notes that it is out
 * of date.  All figures come from hr-cloud-state.c; this file and hr-cloud-view-table.c (the
 * table of offers) only apply them.
 */
#include "hr-cloud-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-chart-data.h"
#include "hr-export-dialog.h"
#include "hr-toast.h"
#include "hr-units.h"

G_DEFINE_FINAL_TYPE (HrCloudView, hr_cloud_view, GTK_TYPE_WIDGET)

/* Feedback ---------------------------------------------------------------------------------- */

/* The Details: as many lines as the refresh had reasons, in a scrolled box no taller than the
 * screen leaves room for (ten identical DNS errors made the dialog 1069 px tall on an 800 px
 * screen; they are one line now, but a feed may still give many). */
static GtkWidget *
details_dialog (HrCloudView *self,
                const char  *details)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (details);
  GdkSurface *surface = GTK_IS_WINDOW (root) ? gtk_native_get_surface (GTK_NATIVE (root)) : NULL;
  GdkMonitor *monitor = NULL;
  GdkRectangle area = { 0, 0, 0, 600 };
  int max_h;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _("Cloud Prices"), NULL);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));

  if (surface != NULL)
    monitor = gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface);
  if (monitor != NULL)
    gdk_monitor_get_geometry (monitor, &area);
  /* the heading, the button and the dialog's margins take about 220 px */
  max_h = MAX (120, MIN (area.height - 260, 480));

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* wide enough to read a reason on one or two lines, narrow enough for 360 px */
  gtk_label_set_width_chars (GTK_LABEL (label), 20);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), max_h);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), scroller);
  return dialog;
}

static void
toast_details_cb (AdwToast    *toast,
                  HrCloudView *self)
{
  gtk_window_present (GTK_WINDOW (details_dialog (self, g_object_get_data (G_OBJECT (toast), "details"))));
}

static void
toast_full (HrCloudView *self,
            const char  *title,
            const char  *details,
            HrToastKind  kind);

/* A toast's title is one line: a longer error gets a button that shows all of it. */
void
hr_cloud_view_toast (HrCloudView *self,
                     const char  *title,
                     gboolean     error)
{
  toast_full (self, title, error && g_utf8_strlen (title, -1) > 64 ? title : NULL,
              error ? HR_TOAST_ERROR : HR_TOAST_INFO);
}

/* A toast with a Details button that shows @details. */
void
hr_cloud_view_toast_with_details (HrCloudView *self,
                                  const char  *title,
                                  const char  *details)
{
  toast_full (self, title, details, HR_TOAST_INFO);
}

static void
toast_full (HrCloudView *self,
            const char  *title,
            const char  *details,
            HrToastKind  kind)
{
  AdwToast *t = hr_toast_new (title, kind);

  self->n_toasts++;
  g_free (self->last_toast);
  self->last_toast = g_strdup (title);
  g_free (self->last_details);
  self->last_details = g_strdup (details);
  if (details != NULL)
    {
      hr_toast_set_button (t, _("_Details"));
      g_object_set_data_full (G_OBJECT (t), "details", g_strdup (details), g_free);
      g_signal_connect_object (t, "button-clicked", G_CALLBACK (toast_details_cb), self, 0);
    }
  hr_toast_show (GTK_WIDGET (self), t);
}

/* Reading the inputs ------------------------------------------------------------------------ */

static double
hours_per_day (HrCloudView *self)
{
  return g_settings_get_double (self->settings, "hours-per-day");
}

/* What the user sees: their own figure, else the recommendation's; NAN when unknown. */
static double
budget_usd (HrCloudView *self)
{
  double own = g_settings_get_double (self->settings, "hardware-budget");

  return own > 0 ? own : self->buy.price_usd;
}

static double
power_w (HrCloudView *self)
{
  double own = g_settings_get_double (self->settings, "hardware-power");

  return own > 0 ? own : self->buy.power_w;
}

static HrCloudSort
cloud_sort (HrCloudView *self)
{
  g_autofree char *sort = g_settings_get_string (self->settings, "cloud-sort");

  return g_str_equal (sort, "per-mtok") ? HR_CLOUD_SORT_PER_MTOK : HR_CLOUD_SORT_HOURLY;
}

int
hr_cloud_view_selected_index (HrCloudView *self)
{
  int i;

  if (self->state == NULL || self->state->offers->len == 0)
    return -1;
  i = hr_cloud_state_find (self->state, self->chosen_key);
  return i >= 0 ? i : 0;
}

/* Rent versus buy ---------------------------------------------------------------------------- */

static void
apply_inputs (HrCloudView *self)
{
  double own_budget = g_settings_get_double (self->settings, "hardware-budget");
  double own_power = g_settings_get_double (self->settings, "hardware-power");
  double budget = budget_usd (self);
  double power = power_w (self);
  g_autofree char *price = hr_size_format_usd (self->buy.price_usd, 0);
  g_autofree char *watts = hr_size_format_number (self->buy.power_w, 0);
  g_autofree char *budget_sub = NULL;
  g_autofree char *power_sub = NULL;

  self->syncing = TRUE;
  gtk_adjustment_set_value (self->budget_adjustment, isfinite (budget) ? budget : 0);
  gtk_adjustment_set_value (self->power_adjustment, isfinite (power) ? power : 0);
  self->syncing = FALSE;

  if (own_budget > 0)
    /* TRANSLATORS: "Your figure · recommended: $8,565 for RTX PRO 6000 Blackwell 96GB" */
    budget_sub = g_strdup_printf (_("Your figure · recommended: %s for %s"), price, self->buy.label);
  else if (isfinite (self->buy.price_usd))
    /* TRANSLATORS: "Best single GPU for this scenario: RTX PRO 6000 Blackwell 96GB" */
    budget_sub = g_strdup_printf (_("%s: %s"), self->buy.why, self->buy.label);
  else
    /* TRANSLATORS: "Best single GPU for this scenario: Ascend 910B 64GB, price unknown" */
    budget_sub = g_strdup_printf (_("%s: %s, price unknown"), self->buy.why, self->buy.label);
  adw_action_row_set_subtitle (self->budget_row, budget_sub);

  if (own_power > 0)
    /* TRANSLATORS: "Your figure · catalog: 600 W" */
    power_sub = g_strdup_printf (_("Your figure · catalog: %s W"), watts);
  else if (isfinite (self->buy.power_w))
    /* TRANSLATORS: "From the catalog, for RTX PRO 6000 Blackwell 96GB" */
    power_sub = g_strdup_printf (_("From the catalog, for %s"), self->buy.label);
  else
    /* TRANSLATORS: "Unknown for Ascend 910B 64GB: enter it" */
    power_sub = g_strdup_printf (_("Unknown for %s: enter it"), self->buy.label);
  adw_action_row_set_subtitle (self->power_row, power_sub);

  gtk_widget_set_visible (self->budget_reset_button, own_budget > 0);
  gtk_widget_set_visible (self->power_reset_button, own_power > 0);
}

/* Months to draw: the chart's own choice (1.6 × the break-even, in whole years), ended on one
 * of the 24-month ticks it labels above 8 years, so the lines reach the axis' end. */
static int
chart_horizon (double break_even)
{
  int months;

  if (!isfinite (break_even))
    return 0;
  months = (int) CLAMP (ceil (break_even * 1.6 / 12) * 12, 12, 240);
  if (months > 96)
    months = MIN ((months + 23) / 24 * 24, 240);
  return months;
}

static void
apply_tco (HrCloudView *self)
{
  int i = hr_cloud_view_selected_index (self);
  const HrCloudOffer *offer = i >= 0 ? g_ptr_array_index (self->state->offers, i) : NULL;
  double budget = budget_usd (self);
  double power = power_w (self);
  g_autofree HrChartTco *chart = g_new0 (HrChartTco, 1);
  g_autofree char *desc = NULL;
  int horizon;

  hr_tco_state_clear (&self->tco);
  hr_tco_state_compute (&self->tco, offer, &self->buy, hours_per_day (self),
                        g_settings_get_double (self->settings, "electricity-usd-per-kwh"),
                        budget > 0 ? budget : NAN, power > 0 ? power : NAN);

  gtk_label_set_label (self->cloud_detail_label, self->tco.offer);
  gtk_label_set_label (self->electricity_detail_label, self->tco.electricity_basis);
  gtk_label_set_label (self->payback_label, self->tco.payback);
  gtk_label_set_label (self->payback_detail_label, self->tco.payback_detail);
  gtk_label_set_label (self->cloud_monthly_label, self->tco.cloud_monthly);
  gtk_label_set_label (self->electricity_label, self->tco.electricity_monthly);

  hr_chart_tco_from_input (&self->tco.input, self->tco.cloud_legend, self->tco.buy_legend, 0, chart);
  horizon = chart_horizon (chart->break_even_month);
  if (horizon > 0 && horizon != chart->n_points - 1)
    hr_chart_tco_from_input (&self->tco.input, self->tco.cloud_legend, self->tco.buy_legend, horizon, chart);
  hr_chart_widget_set_data (self->tco_chart, HR_CHART_TCO, chart);
  /* TRANSLATORS: chart description for screen readers, e.g. "Buying beats renting after ~64.4 months" */
  desc = g_strdup_printf (_("Cumulative cost of renting and of buying. Buying beats renting after %s."),
                          self->tco.payback);
  hr_chart_widget_set_description (self->tco_chart, desc);
}

/* Updating ------------------------------------------------------------------------------------ */

static void
update (HrCloudView *self)
{
  const HrScenario *scenario = hr_session_get_scenario (self->session);
  HrCatalog *catalog = hr_session_get_catalog (self->session);
  const HrPricing *pricing = catalog ? hr_catalog_get_pricing (catalog) : NULL;

  self->dirty = FALSE;
  g_clear_handle_id (&self->update_id, g_source_remove);

  g_clear_pointer (&self->state, hr_cloud_state_free);
  self->state = hr_cloud_state_compute_sorted (scenario, catalog, pricing, hours_per_day (self),
                                               cloud_sort (self));
  hr_buy_choice_clear (&self->buy);
  hr_buy_choice_compute (&self->buy, scenario, catalog);

  gtk_label_set_label (self->title_label, self->state->title);
  gtk_label_set_label (self->subtitle_label, self->state->subtitle);
  gtk_label_set_label (self->source_label, self->state->source);
  hr_cloud_view_apply_offers (self);
  apply_inputs (self);
  apply_tco (self);
}

static gboolean
update_idle_cb (gpointer user_data)
{
  HrCloudView *self = user_data;

  self->update_id = 0;
  update (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_update (HrCloudView *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      /* nobody looks: do it when the view is shown */
      self->dirty = TRUE;
      return;
    }
  /* after the Size view's recompute (G_PRIORITY_HIGH_IDLE), before the next frame */
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, update_idle_cb, self, NULL);
}

/* Export -------------------------------------------------------------------------------------- */

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrCloudView *self = HR_CLOUD_VIEW (widget);
  HrExportRequest request = { HR_EXPORT_CHART, hr_export_target_format (parameter), hr_export_write_chart,
                              self->tco_chart };
  const HrScenario *s = hr_session_get_scenario (self->session);
  g_autofree char *slug = hr_slugify (s && s->model ? s->model->id : NULL, 60, "scenario");
  g_autofree char *name = g_strconcat (slug, "-rent-vs-buy", NULL);

  if (hr_chart_widget_get_data (self->tco_chart) == NULL)
    return;
  hr_export_dialog_show (widget, &request, name);
}

/* Callbacks ----------------------------------------------------------------------------------- */

static void
offer_activated_cb (HrCloudView   *self,
                    GtkListBoxRow *row,
                    GtkListBox    *box)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "index"));

  if (index > 0)
    hr_cloud_view_select_offer (self, index - 1);
}

static void
budget_changed_cb (HrCloudView   *self,
                   GtkAdjustment *adjustment)
{
  if (!self->syncing)
    g_settings_set_double (self->settings, "hardware-budget", gtk_adjustment_get_value (adjustment));
}

static void
power_changed_cb (HrCloudView   *self,
                  GtkAdjustment *adjustment)
{
  if (!self->syncing)
    g_settings_set_double (self->settings, "hardware-power", gtk_adjustment_get_value (adjustment));
}

static void
budget_reset_cb (HrCloudView *self)
{
  g_settings_reset (self->settings, "hardware-budget");
}

static void
power_reset_cb (HrCloudView *self)
{
  g_settings_reset (self->settings, "hardware-power");
}

static void
settings_changed_cb (HrCloudView *self,
                     const char  *key,
                     GSettings   *settings)
{
  /* the scenario's own keys reach us through the Size view's "scenario-changed" */
  if (g_str_equal (key, "hours-per-day"))
    {
      if (self->state == NULL || self->dirty)
        return;
      hr_cloud_state_set_hours (self->state, hours_per_day (self));
      hr_cloud_view_apply_offers (self);
      apply_tco (self);
    }
  else if (g_str_equal (key, "cloud-sort"))
    {
      /* the offers kept (at most HR_CLOUD_MAX_ROWS) are the first in the new order */
      if (self->state != NULL && !self->dirty)
        update (self);
    }
  else if (g_str_equal (key, "electricity-usd-per-kwh") || g_str_equal (key, "hardware-budget")
           || g_str_equal (key, "hardware-power"))
    {
      if (self->state == NULL || self->dirty)
        return;
      apply_inputs (self);
      apply_tco (self);
    }
}

/* The window stacks its "adaptive-row" boxes once each time its width crosses its narrow
 * width: offers_box is one, so the table changes layout then, not at every allocation. */
static void
offers_orientation_cb (HrCloudView *self)
{
  gboolean stacked = gtk_orientable_get_orientation (GTK_ORIENTABLE (self->offers_box)) == GTK_ORIENTATION_VERTICAL;

  if (stacked == self->stacked)
    return;
  self->stacked = stacked;
  if (self->state != NULL)
    hr_cloud_view_apply_offers (self);
}

static gboolean
sort_to_selected (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  g_value_set_uint (value, g_str_equal (g_variant_get_string (variant, NULL), "per-mtok") ? 1 : 0);
  return TRUE;
}

static GVariant *
selected_to_sort (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  return g_variant_new_string (g_value_get_uint (value) == 1 ? "per-mtok" : "hourly");
}

static void
scenario_changed_cb (HrCloudView *self)
{
  schedule_update (self);
}

static void
refreshed_cb (HrCloudView *self,
              guint        skipped,
              HrPricingManager *manager)
{
  const HrPricing *pricing = hr_pricing_manager_get_pricing (manager);
  g_autofree char *msg = NULL;
  guint n = pricing && pricing->offers ? pricing->offers->len : 0;
  const char *date = pricing && pricing->updated ? pricing->updated : "?";

  if (skipped > 0)
    {
      g_autofree char *skip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u offer was skipped",
                                                            "%u offers were skipped", skipped), skipped);
      /* TRANSLATORS: "Prices updated: 12 offers verified 2026-11-05 · 3 offers were skipped" */
      msg = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Prices updated: %u offer verified %s · %s",
                                          "Prices updated: %u offers verified %s · %s", n), n, date, skip);
    }
  else
    /* TRANSLATORS: "Prices updated: 12 offers verified 2026-11-05" */
    msg = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Prices updated: %u offer verified %s",
                                        "Prices updated: %u offers verified %s", n), n, date);
  hr_cloud_view_toast (self, msg, FALSE);
}

static void
failed_cb (HrCloudView      *self,
           const GError     *error,
           HrPricingManager *manager)
{
  const char *details = hr_pricing_manager_get_details (manager);
  g_autofree char *source = hr_cloud_source_label (hr_pricing_manager_get_pricing (manager));
  g_autofree char *full = NULL;

  /* the start-up refresh failing as it did last time: said once, not at every launch */
  if (!hr_pricing_manager_get_failure_is_news (manager))
    {
      g_debug ("prices not updated, as before: %s", error->message);
      return;
    }
  /* the Details say what the toast cannot: each source's own reason, and what is in use now */
  if (details != NULL)
    {
      /* TRANSLATORS: the end of the price refresh details, e.g. "In use: Prices from SkyPilot catalog, …" */
      g_autofree char *in_use = g_strdup_printf (_("In use: %s"), source);

      full = g_strconcat (details, "\n\n", in_use, NULL);
    }
  /* a few words: which sources failed, and why, would not fit a toast at 360 px (libadwaita 1.2
   * sizes a toast by its text); they are what Details shows */
  /* TRANSLATORS: a toast; its Details button says which price sources failed and why */
  hr_cloud_view_toast_with_details (self, _("Prices could not be refreshed"), full ? full : error->message);
}

static void
busy_changed_cb (HrCloudView      *self,
                 GParamSpec       *pspec,
                 HrPricingManager *manager)
{
  gboolean busy = hr_pricing_manager_get_busy (manager);

  gtk_widget_set_visible (GTK_WIDGET (self->refresh_spinner), busy);
  gtk_spinner_set_spinning (self->refresh_spinner, busy);
}

/* GtkWidget ----------------------------------------------------------------------------------- */

static void
hr_cloud_view_map (GtkWidget *widget)
{
  HrCloudView *self = HR_CLOUD_VIEW (widget);

  GTK_WIDGET_CLASS (hr_cloud_view_parent_class)->map (widget);
  if (self->dirty || self->state == NULL)
    schedule_update (self);
}

/* GObject ------------------------------------------------------------------------------------- */

static void
hr_cloud_view_dispose (GObject *object)
{
  HrCloudView *self = HR_CLOUD_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->settings != NULL)
    {
      g_settings_unbind (self->hours_adjustment, "value");
      g_settings_unbind (self->kwh_adjustment, "value");
      g_settings_unbind (self->sort_dropdown, "selected");
      g_signal_handlers_disconnect_by_data (self->settings, self);
    }
  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_CLOUD_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->manager);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  for (guint i = 0; i < N_COLUMNS; i++)
    g_clear_object (&self->columns[i]);

  G_OBJECT_CLASS (hr_cloud_view_parent_class)->dispose (object);
}

static void
hr_cloud_view_finalize (GObject *object)
{
  HrCloudView *self = HR_CLOUD_VIEW (object);

  g_clear_pointer (&self->state, hr_cloud_state_free);
  hr_buy_choice_clear (&self->buy);
  hr_tco_state_clear (&self->tco);
  g_free (self->chosen_key);
  g_free (self->last_toast);
  g_free (self->last_details);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (hr_cloud_view_parent_class)->finalize (object);
}

static void
hr_cloud_view_class_init (HrCloudViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_cloud_view_dispose;
  object_class->finalize = hr_cloud_view_finalize;
  widget_class->map = hr_cloud_view_map;

  g_type_ensure (HR_TYPE_CHART_WIDGET);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-cloud-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, source_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, refresh_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, offers_group);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, offers_box);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, offers_list);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, hours_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, budget_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, kwh_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, power_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, budget_row);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, power_row);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, budget_reset_button);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, power_reset_button);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, payback_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, payback_detail_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, cloud_monthly_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, electricity_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, cloud_detail_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, electricity_detail_label);
  gtk_widget_class_bind_template_child (widget_class, HrCloudView, tco_chart);
  gtk_widget_class_bind_template_callback (widget_class, offer_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, budget_reset_cb);
  gtk_widget_class_bind_template_callback (widget_class, power_reset_cb);

  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_cloud_view_init (HrCloudView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->settings = g_settings_new (APP_ID);
  for (guint i = 0; i < N_COLUMNS; i++)
    self->columns[i] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  self->buy.price_usd = NAN;
  self->buy.power_w = NAN;
  gtk_widget_set_visible (GTK_WIDGET (self->refresh_spinner), FALSE);

  g_settings_bind (self->settings, "hours-per-day", self->hours_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "electricity-usd-per-kwh", self->kwh_adjustment, "value",
                   G_SETTINGS_BIND_DEFAULT);
  /* GTK 4.8 names the drop-down's own button by its class: give it the drop-down's name */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->sort_dropdown)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_TOGGLE_BUTTON (c))
      gtk_accessible_update_property (GTK_ACCESSIBLE (c), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Sort the offers"), -1);
  g_settings_bind_with_mapping (self->settings, "cloud-sort", self->sort_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, sort_to_selected, selected_to_sort, NULL, NULL);
  g_signal_connect_object (self->offers_box, "notify::orientation", G_CALLBACK (offers_orientation_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->budget_adjustment, "value-changed", G_CALLBACK (budget_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->power_adjustment, "value-changed", G_CALLBACK (power_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  self->dirty = TRUE;
}

/* Public API ---------------------------------------------------------------------------------- */

/* The refreshes: their outcome in a toast, the spinner while one runs. */
static void
follow_pricing_manager (HrCloudView      *self,
                        HrPricingManager *manager)
{
  g_autoptr(GError) load_error = NULL;

  g_set_object (&self->manager, manager);
  g_signal_connect_object (manager, "refreshed", G_CALLBACK (refreshed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (manager, "failed", G_CALLBACK (failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (manager, "notify::busy", G_CALLBACK (busy_changed_cb), self, G_CONNECT_SWAPPED);
  busy_changed_cb (self, NULL, manager);

  /* a damaged cache at start-up: say so once, in the first window */
  load_error = hr_pricing_manager_take_load_error (manager);
  if (load_error != NULL)
    hr_cloud_view_toast (self, load_error->message, TRUE);
}

GtkWidget *
hr_cloud_view_new (HrSession *session)
{
  HrCloudView *self;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_CLOUD_VIEW, NULL);
  self->session = g_object_ref (session);
  hr_session_watch (session, self, G_CALLBACK (scenario_changed_cb), G_CALLBACK (scenario_changed_cb));
  if (hr_session_get_pricing_manager (session) != NULL)
    follow_pricing_manager (self, hr_session_get_pricing_manager (session));
  schedule_update (self);
  return GTK_WIDGET (self);
}

gboolean
hr_cloud_view_select_offer (HrCloudView *self,
                            guint        index)
{
  const HrCloudOffer *offer;

  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), FALSE);

  if (self->dirty || self->state == NULL)
    update (self);
  if (index >= self->state->offers->len)
    return FALSE;
  offer = g_ptr_array_index (self->state->offers, index);
  g_free (self->chosen_key);
  self->chosen_key = g_strdup (offer->key);
  hr_cloud_view_apply_offers (self);
  apply_tco (self);
  return TRUE;
}

const HrCloudState *
hr_cloud_view_get_state (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->state;
}

const HrTcoState *
hr_cloud_view_get_tco (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return &self->tco;
}

const HrBuyChoice *
hr_cloud_view_get_buy (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return &self->buy;
}

int
hr_cloud_view_get_selected (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), -1);
  return hr_cloud_view_selected_index (self);
}

guint
hr_cloud_view_get_n_rows (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), 0);
  return self->n_rows;
}

gboolean
hr_cloud_view_get_stacked (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), FALSE);
  return self->stacked;
}

GtkWidget *
hr_cloud_view_get_offers_list (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return GTK_WIDGET (self->offers_list);
}

const char *
hr_cloud_view_get_source_text (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return gtk_label_get_label (self->source_label);
}

const char *
hr_cloud_view_get_payback_text (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return gtk_label_get_label (self->payback_label);
}

const char *
hr_cloud_view_get_last_details (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->last_details;
}

guint
hr_cloud_view_get_n_toasts (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), 0);
  return self->n_toasts;
}

GtkWindow *
hr_cloud_view_show_details (HrCloudView *self)
{
  GtkWidget *dialog;

  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);

  if (self->last_details == NULL)
    return NULL;
  dialog = details_dialog (self, self->last_details);
  gtk_window_present (GTK_WINDOW (dialog));
  return GTK_WINDOW (dialog);
}

const char *
hr_cloud_view_get_last_toast (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->last_toast;
}

GtkAdjustment *
hr_cloud_view_get_budget_adjustment (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->budget_adjustment;
}

GtkAdjustment *
hr_cloud_view_get_power_adjustment (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->power_adjustment;
}

HrChartWidget *
hr_cloud_view_get_chart (HrCloudView *self)
{
  g_return_val_if_fail (HR_IS_CLOUD_VIEW (self), NULL);
  return self->tco_chart;
}
