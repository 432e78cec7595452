/* hr-preferences-window.c — Preferences: sizing defaults, costs, appearance, online sources
 *
 * Every row is bound to a GSettings key; whoever uses a key listens to it (the application
 * applies color-scheme, the Size view recomputes on reserve-pct, unified-share and engine-version).  The two
 * addresses are the exception to "saved as you type": they are saved when applied, and only
 * when valid, so a half-typed address never reaches the pricing or hub client.
 */
#include "hr-preferences-window.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <libsoup/soup.h>

#include "hr-application.h"
#include "hr-engine.h"
#include "hr-hub-token.h"
#include "hr-toast.h"
#include "hr-pricing.h"
#include "hr-scenario.h"
#include "hr-scenario-state.h"
#include "hr-skypilot.h"

struct _HrPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  /* template */
  AdwComboRow *style_row;
  GtkAdjustment *reserve_adjustment;
  AdwExpanderRow *unified_expander;
  GtkAdjustment *unified_adjustment;
  AdwComboRow *engine_row;
  AdwComboRow *engine_version_row;
  GtkAdjustment *electricity_adjustment;
  AdwPreferencesGroup *pricing_group;
  AdwEntryRow *pricing_row;
  AdwEntryRow *catalog_row;
  AdwEntryRow *region_row;
  GtkSwitch *spot_switch;
  AdwExpanderRow *clouds_expander;
  AdwEntryRow *hub_row;
  AdwPasswordEntryRow *token_row;
  GtkLabel *token_note;
  AdwPreferencesGroup *computer_group;
  AdwActionRow *ram_row;
  GtkSpinner *ram_spinner;
  GtkButton *ram_button;

  HrApplication *app;   /* weak: this computer's RAM bandwidth, NULL without an application */

  GSettings *settings;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (HrPreferencesWindow, hr_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The Style row: the schema's ColorScheme nicks in its order, and what the row says for each. */
static const char * const color_scheme_ids[] = { "default", "light", "dark", NULL };
static const char * const color_scheme_names[] = {
  NC_("color scheme", "Follow System"),
  NC_("color scheme", "Light"),
  NC_("color scheme", "Dark"),
};

static const char *
url_key (HrPreferencesWindow *self,
         AdwEntryRow         *row)
{
  if (row == self->hub_row)
    return "hub-endpoint";
  return row == self->catalog_row ? "catalog-base" : "pricing-url";
}

static void
show_url_error (AdwEntryRow *row,
                gboolean     error)
{
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
}

/* Puts the key's value in the row, e.g. after a reset that did not change the key. */
static void
show_url (HrPreferencesWindow *self,
          AdwEntryRow         *row)
{
  g_autofree char *value = g_settings_get_string (self->settings, url_key (self, row));

  gtk_editable_set_text (GTK_EDITABLE (row), value);
  show_url_error (row, FALSE);
}

static void
update_token_note (HrPreferencesWindow *self,
                   HrHubTokenPlace      place)
{
  const char *note;

  switch (place)
    {
    case HR_HUB_TOKEN_KEYRING:
      note = _("The token is kept in your login keyring.");
      break;
    case HR_HUB_TOKEN_SETTINGS:
      note = hr_hub_token_have_keyring ()
             ? _("No keyring is available, so the token is kept in GSettings as plain text.")
             : _("The token is kept in GSettings as plain text.");
      break;
    case HR_HUB_TOKEN_NONE:
    default:
      note = hr_hub_token_have_keyring ()
             ? _("A token is kept in your login keyring, or in GSettings as plain text when no keyring is available.")
             : _("A token is kept in GSettings as plain text.");
      break;
    }
  gtk_label_set_label (self->token_note, note);
}

static void
describe_pricing (HrPreferencesWindow *self)
{
  g_autofree char *date = hr_skypilot_snapshot_date ();
  g_autofree char *description = NULL;

  /* TRANSLATORS: %s is the date of the bundled snapshot of the price catalog, e.g. "2026-11-28" */
  description = g_strdup_printf (_("Cloud GPU offers come from the SkyPilot catalog (Apache-2.0), "
                                   "downloaded, cached and refreshed daily; offline, from the "
                                   "snapshot bundled with Headroom, dated %s. An extra JSON pricing "
                                   "feed, such as a company’s negotiated prices, can be added."),
                                 date ? date : "?");
  adw_preferences_group_set_description (self->pricing_group, description);
}

static void
update_clouds_subtitle (HrPreferencesWindow *self,
                        guint                n_on)
{
  /* TRANSLATORS: subtitle of the Clouds row, e.g. "8 of 10 on" */
  g_autofree char *subtitle = g_strdup_printf (_("%u of %u on"), n_on,
                                               g_strv_length ((char **) hr_skypilot_clouds ()));

  adw_expander_row_set_subtitle (self->clouds_expander, subtitle);
}

static void
cloud_switch_cb (GtkSwitch           *sw,
                 GParamSpec          *pspec,
                 HrPreferencesWindow *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) clouds = NULL;

  for (GtkWidget *w = g_object_get_data (G_OBJECT (self), "first-cloud-switch"); w != NULL;
       w = g_object_get_data (G_OBJECT (w), "next-switch"))
    if (gtk_switch_get_active (GTK_SWITCH (w)))
      g_strv_builder_add (builder, g_object_get_data (G_OBJECT (w), "cloud"));
  clouds = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "catalog-clouds", (const char *const *) clouds);
  update_clouds_subtitle (self, g_strv_length (clouds));
}

/* One row with a switch per cloud of the catalog. */
static void
build_cloud_rows (HrPreferencesWindow *self)
{
  g_auto(GStrv) enabled = g_settings_get_strv (self->settings, "catalog-clouds");
  GtkWidget *previous = NULL;

  for (const char *const *c = hr_skypilot_clouds (); *c != NULL; c++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *sw = gtk_switch_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), hr_skypilot_cloud_display (*c));
      gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
      gtk_switch_set_active (GTK_SWITCH (sw), g_strv_contains ((const char *const *) enabled, *c));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
      g_object_set_data (G_OBJECT (sw), "cloud", (gpointer) *c);
      if (previous == NULL)
        g_object_set_data (G_OBJECT (self), "first-cloud-switch", sw);
      else
        g_object_set_data (G_OBJECT (previous), "next-switch", sw);
      previous = sw;
      g_signal_connect (sw, "notify::active", G_CALLBACK (cloud_switch_cb), self);
      adw_expander_row_add_row (self->clouds_expander, row);
    }
  update_clouds_subtitle (self, g_strv_length (enabled));
}

static void
region_row_apply_cb (HrPreferencesWindow *self,
                     AdwEntryRow         *row)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  g_settings_set_string (self->settings, "price-region", text);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

static void
catalog_reset_clicked_cb (HrPreferencesWindow *self)
{
  g_settings_reset (self->settings, "catalog-base");
  show_url (self, self->catalog_row);
}

/* Mappings ---------------------------------------------------------------------------------- */

static gboolean
get_table_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  const char * const *ids = user_data;
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], id))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  /* a value the key no longer lists (the engine keys take any string): the first row */
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
set_table_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  const char * const *ids = user_data;
  guint position = g_value_get_uint (value);

  if (position >= g_strv_length ((char **) ids))
    return NULL;
  return g_variant_new_string (ids[position]);
}

/* unified-share is a fraction, 0 for "the device's default": the switch says whether it is
 * set, the spin button shows it in percent and keeps its last value while the switch is off. */
static gboolean
get_share_enabled (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  g_value_set_boolean (value, g_variant_get_double (variant) > 0);
  return TRUE;
}

static GVariant *
set_share_enabled (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  HrPreferencesWindow *self = user_data;

  if (!g_value_get_boolean (value))
    return g_variant_new_double (0);
  return g_variant_new_double (gtk_adjustment_get_value (self->unified_adjustment) / 100.0);
}

static gboolean
get_share_percent (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  HrPreferencesWindow *self = user_data;
  double share = g_variant_get_double (variant);

  g_value_set_double (value, share > 0 ? share * 100.0 : gtk_adjustment_get_value (self->unified_adjustment));
  return TRUE;
}

static GVariant *
set_share_percent (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  HrPreferencesWindow *self = user_data;

  if (!adw_expander_row_get_enable_expansion (self->unified_expander))
    return NULL;
  return g_variant_new_double (CLAMP (g_value_get_double (value), 50.0, 95.0) / 100.0);
}

/* The combo rows list the tables their keys take their values from, position by position. */
static void
fill_choice_rows (HrPreferencesWindow *self)
{
  g_autoptr(GtkStringList) styles = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) versions = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) engines = gtk_string_list_new (hr_engine_names ());

  G_STATIC_ASSERT (G_N_ELEMENTS (color_scheme_names) == G_N_ELEMENTS (color_scheme_ids) - 1);
  for (guint i = 0; i < G_N_ELEMENTS (color_scheme_names); i++)
    gtk_string_list_append (styles, g_dpgettext2 (GETTEXT_PACKAGE, "color scheme", color_scheme_names[i]));
  for (guint i = 0; i < HR_N_ENGINE_VERSIONS; i++)
    gtk_string_list_append (versions, hr_engine_version_display ((HrEngineVersion) i));
  adw_combo_row_set_model (self->style_row, G_LIST_MODEL (styles));
  adw_combo_row_set_model (self->engine_row, G_LIST_MODEL (engines));
  adw_combo_row_set_model (self->engine_version_row, G_LIST_MODEL (versions));
}

static void
bind_settings (HrPreferencesWindow *self)
{
  GSettings *s = self->settings;

  g_settings_bind_with_mapping (s, "color-scheme", self->style_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) color_scheme_ids, NULL);
  g_settings_bind (s, "reserve-pct", self->reserve_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  /* the percentage first: turning the switch on saves the value it shows */
  g_settings_bind_with_mapping (s, "unified-share", self->unified_adjustment, "value", G_SETTINGS_BIND_DEFAULT,
                                get_share_percent, set_share_percent, self, NULL);
  g_settings_bind_with_mapping (s, "unified-share", self->unified_expander, "enable-expansion",
                                G_SETTINGS_BIND_DEFAULT, get_share_enabled, set_share_enabled, self, NULL);
  g_settings_bind_with_mapping (s, "default-engine", self->engine_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) hr_engine_ids (), NULL);
  g_settings_bind_with_mapping (s, "engine-version", self->engine_version_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_table_mapping, set_table_mapping, (gpointer) hr_engine_version_ids (), NULL);
  g_settings_bind (s, "electricity-usd-per-kwh", self->electricity_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  /* addresses: shown from the key; written by url_row_apply_cb once checked */
  g_settings_bind (s, "pricing-url", self->pricing_row, "text", G_SETTINGS_BIND_GET);
  g_settings_bind (s, "catalog-base", self->catalog_row, "text", G_SETTINGS_BIND_GET);
  g_settings_bind (s, "price-region", self->region_row, "text", G_SETTINGS_BIND_GET);
  g_settings_bind (s, "price-spot", self->spot_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (s, "hub-endpoint", self->hub_row, "text", G_SETTINGS_BIND_GET);
}

static void
unbind_settings (HrPreferencesWindow *self)
{
  /* before the template's objects go: two mappings read this window */
  g_settings_unbind (self->style_row, "selected");
  g_settings_unbind (self->reserve_adjustment, "value");
  g_settings_unbind (self->unified_adjustment, "value");
  g_settings_unbind (self->unified_expander, "enable-expansion");
  g_settings_unbind (self->engine_row, "selected");
  g_settings_unbind (self->engine_version_row, "selected");
  g_settings_unbind (self->electricity_adjustment, "value");
  g_settings_unbind (self->pricing_row, "text");
  g_settings_unbind (self->catalog_row, "text");
  g_settings_unbind (self->region_row, "text");
  g_settings_unbind (self->spot_switch, "active");
  g_settings_unbind (self->hub_row, "text");
}

/* Callbacks --------------------------------------------------------------------------------- */

static void
url_row_changed_cb (HrPreferencesWindow *self,
                    GtkEditable         *editable)
{
  AdwEntryRow *row = ADW_ENTRY_ROW (editable);
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (editable)));

  /* the error shows after a refused apply, and goes as soon as the address is right */
  if (gtk_widget_has_css_class (GTK_WIDGET (row), "error") &&
      hr_preferences_url_is_valid (text, TRUE, row == self->hub_row))
    show_url_error (row, FALSE);
}

static void
url_row_apply_cb (HrPreferencesWindow *self,
                  AdwEntryRow         *row)
{
  gboolean hub = row == self->hub_row;
  const char *key = url_key (self, row);
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  if (!hr_preferences_url_is_valid (text, TRUE, hub))
    {
      show_url_error (row, TRUE);
      hr_toast_show_text (GTK_WIDGET (self),
                          hub ? _("Not saved: the hub address must be an http:// or https:// address")
                          : row == self->catalog_row
                          ? _("Not saved: the catalog address must be an http:// or https:// address")
                          : _("Not saved: the pricing feed must be an http:// or https:// address"),
                          HR_TOAST_ERROR);
      return;
    }

  if (*text == '\0')
    g_settings_reset (self->settings, key);
  else
    g_settings_set_string (self->settings, key, text);
  show_url (self, row);
}

static void
pricing_reset_clicked_cb (HrPreferencesWindow *self)
{
  g_settings_reset (self->settings, "pricing-url");
  show_url (self, self->pricing_row);
}

static void
hub_reset_clicked_cb (HrPreferencesWindow *self)
{
  g_settings_reset (self->settings, "hub-endpoint");
  show_url (self, self->hub_row);
}

static void
token_lookup_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  HrPreferencesWindow *self;
  HrHubTokenPlace place = HR_HUB_TOKEN_NONE;
  g_autofree char *token = hr_hub_token_lookup_finish (result, &place, NULL);

  /* NULL: cancelled, the window is gone */
  if (token == NULL)
    return;
  self = HR_PREFERENCES_WINDOW (user_data);
  /* the user may have typed one meanwhile */
  if (*gtk_editable_get_text (GTK_EDITABLE (self->token_row)) == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->token_row), token);
  update_token_note (self, place);
}

static void
token_stored_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(HrPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  HrHubTokenPlace place = HR_HUB_TOKEN_NONE;

  if (!hr_hub_token_store_finish (result, &place, &error))
    {
      /* a token with a line break or a space inside: not kept, and the user is told why */
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_widget_set_sensitive (GTK_WIDGET (self->token_row), TRUE);
          hr_toast_show_text (GTK_WIDGET (self), error->message, HR_TOAST_ERROR);
        }
      return;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->token_row), TRUE);
  update_token_note (self, place);
  switch (place)
    {
    case HR_HUB_TOKEN_KEYRING:
      hr_toast_show_text (GTK_WIDGET (self), _("Access token saved in the login keyring"), HR_TOAST_INFO);
      break;
    case HR_HUB_TOKEN_SETTINGS:
      hr_toast_show_text (GTK_WIDGET (self), _("Access token saved in GSettings"), HR_TOAST_INFO);
      break;
    case HR_HUB_TOKEN_NONE:
    default:
      hr_toast_show_text (GTK_WIDGET (self), _("Access token removed"), HR_TOAST_INFO);
      break;
    }
}

static void
token_row_apply_cb (HrPreferencesWindow *self,
                    AdwEntryRow         *row)
{
  /* not cancelled with the window: a token half-moved to the keyring would be lost */
  gtk_widget_set_sensitive (GTK_WIDGET (row), FALSE);
  hr_hub_token_store_async (self->settings, gtk_editable_get_text (GTK_EDITABLE (row)), NULL,
                            token_stored_cb, g_object_ref (self));
}

/* GObject ----------------------------------------------------------------------------------- */

/* ---- This Computer: the RAM bandwidth and "Measure Again" ---------------------------------- */

static void
update_ram_row (HrPreferencesWindow *self)
{
  const HrSystem *system = self->app ? hr_application_get_system (self->app) : NULL;
  gboolean measuring = self->app != NULL && hr_application_get_measuring_ram (self->app);
  g_autofree char *gbs = NULL;
  g_autofree char *subtitle = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->computer_group), system != NULL);
  if (system == NULL)
    return;
  if (isfinite (system->ram_bandwidth_gbs))
    gbs = hr_size_format_number (system->ram_bandwidth_gbs, 1);
  if (measuring)
    subtitle = g_strdup (_("Measuring…"));
  else if (gbs == NULL)
    subtitle = g_strdup (_("Not known"));
  else if (!system->ram_bandwidth_measurable)
    /* TRANSLATORS: %s is a number, e.g. "83.2 GB/s, from the CPU’s published memory specification" */
    subtitle = g_strdup_printf (_("%s GB/s, from the CPU’s published memory specification"), gbs);
  else if (system->ram_bandwidth_measured_at > 0)
    {
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (system->ram_bandwidth_measured_at);
      g_autoptr(GDateTime) local = g_date_time_to_local (utc);
      g_autofree char *date = g_date_time_format (local, "%x");

      /* TRANSLATORS: "41.3 GB/s, measured on 12/06/2026" (the date in the user's format) */
      subtitle = g_strdup_printf (_("%s GB/s, measured on %s"), gbs, date);
    }
  else
    /* TRANSLATORS: %s is a number: a figure measured by an older version, without its date */
    subtitle = g_strdup_printf (_("%s GB/s, measured on this computer"), gbs);
  adw_action_row_set_subtitle (self->ram_row, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->ram_spinner), measuring);
  gtk_spinner_set_spinning (self->ram_spinner, measuring);
  gtk_widget_set_visible (GTK_WIDGET (self->ram_button), system->ram_bandwidth_measurable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->ram_button), !measuring);
}

static void
ram_button_clicked_cb (HrPreferencesWindow *self)
{
  if (self->app != NULL)
    hr_application_measure_ram (self->app);
  update_ram_row (self);
}

static void
watch_application (HrPreferencesWindow *self,
                   GtkApplication      *app)
{
  if (!HR_IS_APPLICATION (app))
    return;
  self->app = HR_APPLICATION (app);
  g_object_add_weak_pointer (G_OBJECT (app), (gpointer *) &self->app);
  g_signal_connect_object (app, "notify::measuring-ram", G_CALLBACK (update_ram_row), self,
                           G_CONNECT_SWAPPED);
  update_ram_row (self);
}

static void
hr_preferences_window_dispose (GObject *object)
{
  HrPreferencesWindow *self = HR_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->app != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->app), (gpointer *) &self->app);
  self->app = NULL;
  if (self->settings != NULL)
    unbind_settings (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (hr_preferences_window_parent_class)->dispose (object);
}

static void
hr_preferences_window_class_init (HrPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroomapp/Headroom/hr-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, reserve_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, unified_expander);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, unified_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, engine_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, engine_version_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, electricity_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, pricing_group);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, pricing_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, catalog_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, region_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, spot_switch);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, clouds_expander);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, hub_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, token_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, token_note);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, computer_group);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, ram_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, ram_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, ram_button);
  gtk_widget_class_bind_template_callback (widget_class, ram_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, url_row_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, url_row_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, pricing_reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, catalog_reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, region_row_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, hub_reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, token_row_apply_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
hr_preferences_window_init (HrPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  fill_choice_rows (self);

  self->settings = g_settings_new (APP_ID);
  self->cancellable = g_cancellable_new ();
  bind_settings (self);
  describe_pricing (self);
  build_cloud_rows (self);
  update_token_note (self, HR_HUB_TOKEN_NONE);
  hr_hub_token_lookup_async (self->settings, self->cancellable, token_lookup_cb, self);
}

/* Public API -------------------------------------------------------------------------------- */

GtkWidget *
hr_preferences_window_new (GtkWindow *parent)
{
  GtkApplication *app = parent ? gtk_window_get_application (parent) : NULL;
  HrPreferencesWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  self = g_object_new (HR_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       "application", app,
                       NULL);
  watch_application (self, app);
  return GTK_WIDGET (self);
}

gboolean
hr_preferences_url_is_valid (const char *text,
                             gboolean    allow_empty,
                             gboolean    hub)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (text == NULL || *text == '\0')
    return allow_empty;
  /* GUri takes "https://exa mple.com" as it is; no address holds white space */
  for (const char *p = text; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      return FALSE;

  /* the same parse as the clients' (hr-http.c, hr-hub-client.c) */
  uri = g_uri_parse (text, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri == NULL)
    return FALSE;
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  if ((g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0) || host == NULL || *host == '\0')
    return FALSE;
  if (hub && (g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL))
    return FALSE;
  return TRUE;
}
