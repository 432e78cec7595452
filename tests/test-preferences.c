/* test-preferences.c — Preferences, About and the shortcuts under Xvfb
 *
 * Run through `xvfb-run -a` with GTK_A11Y=none, GSETTINGS_BACKEND=memory and
 * GSETTINGS_SCHEMA_DIR=<build>/data (tests/meson.build sets them).  The session bus points
 * nowhere, so the hub token takes the no-keyring path (GSettings) and nothing is started.
 */
#include <string.h>

#include "hr-about.h"
#include "hr-application.h"
#include "hr-hub-token.h"
#include "hr-preferences-window.h"
#include "hr-pricing.h"
#include "hr-scenario.h"
#include "hr-skypilot.h"
#include "hr-test-window.h"
#include "hr-units.h"
#include "hr-window.h"

static HrApplication *app;

/* A store still running: the widget stays insensitive until it is done. */
static gboolean
insensitive (gpointer widget)
{
  return !gtk_widget_get_sensitive (widget);
}

static HrPreferencesWindow *
find_preferences (void)
{
  HrPreferencesWindow *found = NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (HR_IS_PREFERENCES_WINDOW (l->data))
      {
        g_assert_null (found);
        found = l->data;
      }
  return found;
}

static HrPreferencesWindow *
open_preferences (HrWindow *parent)
{
  HrPreferencesWindow *prefs;

  gtk_window_present (GTK_WINDOW (parent));
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  hr_test_flush ();
  prefs = find_preferences ();
  g_assert_nonnull (prefs);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (prefs)) == GTK_WINDOW (parent));
  return prefs;
}

static gpointer
child (gpointer    prefs,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (prefs), HR_TYPE_PREFERENCES_WINDOW, name);

  g_assert_nonnull (object);
  return object;
}

static double
usable_gib (HrSizeView *view)
{
  const HrEstimate *e = hr_size_view_get_estimate (view);

  g_assert_nonnull (e);
  return hr_to_gib (e->usable_bytes);
}

static void
test_open (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");

  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>comma"));

  /* a second activation brings the same window forward */
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  hr_test_flush ();
  g_assert_true (find_preferences () == prefs);

  /* the rows show the schema's defaults */
  g_assert_cmpfloat (gtk_adjustment_get_value (child (prefs, "reserve_adjustment")), ==, 5.0);
  g_assert_false (adw_expander_row_get_enable_expansion (child (prefs, "unified_expander")));
  g_assert_cmpuint (adw_combo_row_get_selected (child (prefs, "style_row")), ==, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (child (prefs, "engine_row")), ==, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (child (prefs, "engine_version_row")), ==, 0);
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (child (prefs, "electricity_adjustment")), 0.175, 1e-9);
  g_assert_cmpstr (gtk_editable_get_text (child (prefs, "pricing_row")), ==, "");
  g_assert_cmpstr (gtk_editable_get_text (child (prefs, "hub_row")), ==, "https://huggingface.co");

  hr_test_window_close (prefs);
  g_assert_null (find_preferences ());
  hr_test_window_close (window);
}

/* The reserve row drives the Size view: 80 GB card, 5 % → 76 GiB usable, 10 % → 72 GiB. */
static void
test_reserve (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkAdjustment *reserve = child (prefs, "reserve_adjustment");
  guint before;

  g_assert_true (hr_size_view_select_gpu (view, "a100-80gb-sxm", 1));
  adw_combo_row_set_selected (hr_size_view_get_engine_row (view), 0);  /* llama.cpp */
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 76.0, 1e-6);

  before = hr_size_view_get_n_recomputes (view);
  gtk_adjustment_set_value (reserve, 10.0);
  g_assert_cmpfloat (g_settings_get_double (settings, "reserve-pct"), ==, 10.0);
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_size_view_get_n_recomputes (view), >, before);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 72.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (hr_size_view_get_scenario (view)->reserve, 0.10, 1e-12);

  /* and the other way: the key moves the row */
  g_settings_set_double (settings, "reserve-pct", 5.0);
  g_assert_cmpfloat (gtk_adjustment_get_value (reserve), ==, 5.0);
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 76.0, 1e-6);

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

/* The engine-version row writes the key and the Size view's scenario follows it. */
static void
test_engine_version (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdwComboRow *row = child (prefs, "engine_version_row");
  guint before;

  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->engine_version, ==, HR_ENGINE_VERSION_CURRENT);

  before = hr_size_view_get_n_recomputes (view);
  adw_combo_row_set_selected (row, 1);
  {
    g_autofree char *version = g_settings_get_string (settings, "engine-version");
    g_assert_cmpstr (version, ==, "2024");
  }
  hr_test_wait_size_view (view);
  g_assert_cmpuint (hr_size_view_get_n_recomputes (view), >, before);
  g_assert_cmpint (hr_size_view_get_scenario (view)->engine_version, ==, HR_ENGINE_VERSION_2024);

  g_settings_reset (settings, "engine-version");
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->engine_version, ==, HR_ENGINE_VERSION_CURRENT);

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

/* The unified share: off is the device's default (¾ on a 128 GB Mac), on is the spin's %. */
static void
test_unified_share (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdwExpanderRow *expander = child (prefs, "unified_expander");
  GtkAdjustment *percent = child (prefs, "unified_adjustment");

  g_assert_true (hr_size_view_select_gpu (view, "m4-max-128gb", 1));
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 96.0, 1e-6);

  gtk_adjustment_set_value (percent, 90);
  /* the switch is off: the value waits */
  g_assert_cmpfloat (g_settings_get_double (settings, "unified-share"), ==, 0.0);
  adw_expander_row_set_enable_expansion (expander, TRUE);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "unified-share"), 0.90, 1e-12);
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 115.2, 1e-6);

  gtk_adjustment_set_value (percent, 80);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "unified-share"), 0.80, 1e-12);
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 102.4, 1e-6);

  adw_expander_row_set_enable_expansion (expander, FALSE);
  g_assert_cmpfloat (g_settings_get_double (settings, "unified-share"), ==, 0.0);
  g_assert_cmpfloat (gtk_adjustment_get_value (percent), ==, 80);
  hr_test_wait_size_view (view);
  g_assert_cmpfloat_with_epsilon (usable_gib (view), 96.0, 1e-6);

  /* a share set elsewhere turns the switch on */
  g_settings_set_double (settings, "unified-share", 0.6);
  g_assert_true (adw_expander_row_get_enable_expansion (expander));
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (percent), 60, 1e-9);
  g_settings_reset (settings, "unified-share");
  g_assert_false (adw_expander_row_get_enable_expansion (expander));

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}
/* A combo row lists its key's choices, one row each in the schema's order: choosing row i
 * writes choice i.  A choice added to the schema (or the table) and not the other fails here. */
static void
assert_row_lists_choices (AdwComboRow *row,
                          const char  *key)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) k = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) values = NULL;
  g_autofree const char **choices = NULL;
  const char *type;

  g_object_get (settings, "settings-schema", &schema, NULL);
  k = g_settings_schema_get_key (schema, key);
  range = g_settings_schema_key_get_range (k);
  g_variant_get (range, "(&sv)", &type, &values);
  g_assert_cmpstr (type, ==, "enum");
  choices = g_variant_get_strv (values, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (row)), ==, g_strv_length ((char **) choices));
  for (guint i = g_strv_length ((char **) choices); i-- > 0;)
    {
      g_autofree char *value = NULL;

      adw_combo_row_set_selected (row, i);
      value = g_settings_get_string (settings, key);
      g_assert_cmpstr (value, ==, choices[i]);
    }
  g_settings_reset (settings, key);
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
}

/* The Style and Engine version rows are filled from tables, not spelled out in the .ui file. */
static void
test_choice_rows (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPreferencesWindow *prefs = open_preferences (window);
  AdwComboRow *versions = child (prefs, "engine_version_row");
  GListModel *model = adw_combo_row_get_model (versions);

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, HR_N_ENGINE_VERSIONS);
  for (guint i = 0; i < HR_N_ENGINE_VERSIONS; i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), i), ==,
                     hr_engine_version_display ((HrEngineVersion) i));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 0), ==, "Current (2025 on)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (adw_combo_row_get_model (child (prefs, "style_row"))), 0),
                   ==, "Follow System");
  assert_row_lists_choices (versions, "engine-version");
  assert_row_lists_choices (child (prefs, "style_row"), "color-scheme");
  hr_test_flush ();

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

static void
test_theme (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdwStyleManager *manager = adw_style_manager_get_default ();
  AdwComboRow *style = child (prefs, "style_row");
  static const AdwColorScheme expected[] = {
    ADW_COLOR_SCHEME_DEFAULT, ADW_COLOR_SCHEME_FORCE_LIGHT, ADW_COLOR_SCHEME_FORCE_DARK,
  };
  static const char *nicks[] = { "default", "light", "dark" };

  for (guint i = G_N_ELEMENTS (expected); i-- > 0;)
    {
      g_autofree char *nick = NULL;

      adw_combo_row_set_selected (style, i);
      hr_test_flush ();
      nick = g_settings_get_string (settings, "color-scheme");
      g_assert_cmpstr (nick, ==, nicks[i]);
      g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, expected[i]);
    }

  g_settings_set_string (settings, "color-scheme", "dark");
  hr_test_flush ();
  g_assert_cmpuint (adw_combo_row_get_selected (style), ==, 2);
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (manager));
  g_settings_reset (settings, "color-scheme");
  hr_test_flush ();
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);

  /* the default engine row writes the engine's id */
  adw_combo_row_set_selected (child (prefs, "engine_row"), 1);
  {
    g_autofree char *engine = g_settings_get_string (settings, "default-engine");
    g_assert_cmpstr (engine, ==, "vllm");
  }
  g_settings_reset (settings, "default-engine");

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

static void
test_url_check (void)
{
  static const struct { const char *text; gboolean empty_ok, pricing, hub; } cases[] = {
    { "https://huggingface.co", FALSE, TRUE, TRUE },
    { "https://hf-mirror.com/", FALSE, TRUE, TRUE },
    { "http://127.0.0.1:8080/prices.json", FALSE, TRUE, TRUE },
    { "https://example.com/feed.json?v=2", FALSE, TRUE, FALSE },
    { "", TRUE, TRUE, TRUE },
    { "huggingface.co", FALSE, FALSE, FALSE },
    { "ftp://example.com/feed.json", FALSE, FALSE, FALSE },
    { "file:///etc/passwd", FALSE, FALSE, FALSE },
    { "https://", FALSE, FALSE, FALSE },
    { "https://exa mple.com", FALSE, FALSE, FALSE },
    { "not a url", FALSE, FALSE, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (hr_preferences_url_is_valid (cases[i].text, FALSE, FALSE), ==,
                       cases[i].pricing && *cases[i].text != '\0');
      g_assert_cmpint (hr_preferences_url_is_valid (cases[i].text, TRUE, FALSE), ==, cases[i].pricing);
      g_assert_cmpint (hr_preferences_url_is_valid (cases[i].text, TRUE, TRUE), ==, cases[i].hub);
    }
}

/* An invalid address shows an error and is not saved; a valid one is; empty restores. */
static void
test_invalid_url (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdwEntryRow *pricing = child (prefs, "pricing_row");
  AdwEntryRow *hub = child (prefs, "hub_row");
  g_autofree char *value = NULL;

  gtk_editable_set_text (GTK_EDITABLE (pricing), "ftp://example.com/prices.json");
  g_signal_emit_by_name (pricing, "apply");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pricing), "error"));
  value = g_settings_get_string (settings, "pricing-url");
  g_assert_cmpstr (value, ==, "");
  g_clear_pointer (&value, g_free);

  /* typing a good address clears the error; applying saves it, trimmed */
  gtk_editable_set_text (GTK_EDITABLE (pricing), " https://example.com/prices.json ");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (pricing), "error"));
  g_signal_emit_by_name (pricing, "apply");
  value = g_settings_get_string (settings, "pricing-url");
  g_assert_cmpstr (value, ==, "https://example.com/prices.json");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (pricing)), ==, "https://example.com/prices.json");
  g_clear_pointer (&value, g_free);

  /* empty means the bundled snapshot */
  gtk_editable_set_text (GTK_EDITABLE (pricing), "");
  g_signal_emit_by_name (pricing, "apply");
  value = g_settings_get_string (settings, "pricing-url");
  g_assert_cmpstr (value, ==, "");
  g_clear_pointer (&value, g_free);

  /* the hub: refused, then an empty apply restores the default address */
  gtk_editable_set_text (GTK_EDITABLE (hub), "huggingface.co");
  g_signal_emit_by_name (hub, "apply");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (hub), "error"));
  value = g_settings_get_string (settings, "hub-endpoint");
  g_assert_cmpstr (value, ==, "https://huggingface.co");
  g_clear_pointer (&value, g_free);

  gtk_editable_set_text (GTK_EDITABLE (hub), "https://hf-mirror.com");
  g_signal_emit_by_name (hub, "apply");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (hub), "error"));
  value = g_settings_get_string (settings, "hub-endpoint");
  g_assert_cmpstr (value, ==, "https://hf-mirror.com");
  g_clear_pointer (&value, g_free);

  gtk_editable_set_text (GTK_EDITABLE (hub), "");
  g_signal_emit_by_name (hub, "apply");
  value = g_settings_get_string (settings, "hub-endpoint");
  g_assert_cmpstr (value, ==, "https://huggingface.co");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (hub)), ==, "https://huggingface.co");

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

static void
lookup_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  char **token = user_data;
  HrHubTokenPlace place;

  *token = hr_hub_token_lookup_finish (result, &place, NULL);
  g_assert_nonnull (*token);
  g_assert_cmpint (place, ==, **token ? HR_HUB_TOKEN_SETTINGS : HR_HUB_TOKEN_NONE);
}

static gboolean
is_set (gpointer pointer)
{
  return *(gpointer *) pointer != NULL;
}

/* Whether @entry shows some text. */
static gboolean
has_text (gpointer entry)
{
  return *gtk_editable_get_text (GTK_EDITABLE (entry)) != '\0';
}

static char *
lookup_token (GSettings *settings)
{
  char *token = NULL;

  hr_hub_token_lookup_async (settings, NULL, lookup_done_cb, &token);
  hr_test_wait_until (is_set, &token, "the token lookup");
  return token;
}

/* No keyring here: the token falls back to GSettings, and the row says so. */
static void
test_token (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPreferencesWindow *prefs = open_preferences (window);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkWidget *row = child (prefs, "token_row");
  GtkLabel *note = child (prefs, "token_note");
  g_autofree char *token = NULL;

  gtk_editable_set_text (GTK_EDITABLE (row), "  hf_test_token  ");
  g_signal_emit_by_name (row, "apply");
  hr_test_wait_while (insensitive, row);
  token = g_settings_get_string (settings, "hub-token");
  g_assert_cmpstr (token, ==, "hf_test_token");
  g_assert_nonnull (strstr (gtk_label_get_label (note), "GSettings"));
  g_clear_pointer (&token, g_free);

  token = lookup_token (settings);
  g_assert_cmpstr (token, ==, "hf_test_token");
  g_clear_pointer (&token, g_free);

  /* a new window shows the stored token */
  hr_test_window_close (prefs);
  prefs = open_preferences (window);
  row = child (prefs, "token_row");
  hr_test_wait_until (has_text, row, "the stored token in the new window's row");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "hf_test_token");

  gtk_editable_set_text (GTK_EDITABLE (row), "");
  g_signal_emit_by_name (row, "apply");
  hr_test_wait_while (insensitive, row);
  token = g_settings_get_string (settings, "hub-token");
  g_assert_cmpstr (token, ==, "");
  g_clear_pointer (&token, g_free);
  token = lookup_token (settings);
  g_assert_cmpstr (token, ==, "");

  hr_test_window_close (prefs);
  hr_test_window_close (window);
}

static AdwAboutWindow *
find_about (void)
{
  g_autoptr(GListModel) toplevels = gtk_window_get_toplevels ();
  AdwAboutWindow *found = NULL;

  g_object_ref (toplevels);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (item))
        found = ADW_ABOUT_WINDOW (item);
    }
  return found;
}

static void
test_about (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autofree char *snapshot = hr_skypilot_snapshot_date ();
  AdwAboutWindow *about;
  const char *comments;

  g_assert_null (find_about ());
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  hr_test_flush ();
  about = find_about ();
  g_assert_nonnull (about);

  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (window));
  g_assert_cmpstr (adw_about_window_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (adw_about_window_get_application_name (about), ==, "Headroom");
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, APP_ID);
  g_assert_cmpstr (adw_about_window_get_developer_name (about), ==, "The Headroom developers");
  g_assert_cmpstr (adw_about_window_get_website (about), ==, "https://github.com/headroomapp/headroom");
  g_assert_cmpstr (adw_about_window_get_issue_url (about), ==, "https://github.com/headroomapp/headroom/issues");
  g_assert_cmpstr (adw_about_window_get_release_notes_version (about), ==, PACKAGE_VERSION);
  g_assert_nonnull (strstr (adw_about_window_get_release_notes (about), "<li>"));

  /* the data's dates and sources: the bundled snapshot of the SkyPilot catalog, credited */
  g_assert_cmpstr (snapshot, ==, "2026-12-01");
  comments = adw_about_window_get_comments (about);
  g_assert_nonnull (strstr (comments, snapshot));
  g_assert_nonnull (strstr (comments, "SkyPilot catalog (Apache-2.0)"));
  g_assert_nonnull (strstr (comments, "config.json"));
  g_assert_nonnull (strstr (adw_about_window_get_debug_info (about), PACKAGE_VERSION));

  hr_test_window_close (about);
  g_assert_null (find_about ());
  hr_test_window_close (window);
}

/* Every shortcut the window and the app answer is in the shortcuts window, and nothing else. */
/* "<Alt>1...<Alt>4": each key of the range */
static void
add_range (GHashTable *accels,
           const char *range)
{
  g_auto(GStrv) ends = g_strsplit (range, "...", 2);
  guint first, last;
  GdkModifierType mods, last_mods;

  g_assert_true (gtk_accelerator_parse (ends[0], &first, &mods));
  g_assert_true (gtk_accelerator_parse (ends[1], &last, &last_mods));
  g_assert_cmpint (mods, ==, last_mods);
  g_assert_cmpuint (first, <, last);
  for (guint k = first; k <= last; k++)
    g_hash_table_add (accels, gtk_accelerator_name (k, mods));
}

static void
collect_overlay (GtkBuilder *builder,
                 GHashTable *accels)
{
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accel = NULL;
      g_autofree char *action = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accel, "action-name", &action, NULL);
      if (accel != NULL && strstr (accel, "...") != NULL)
        add_range (accels, accel);
      else if (accel != NULL && *accel != '\0')
        g_hash_table_add (accels, g_steal_pointer (&accel));
      if (action != NULL)
        g_hash_table_add (accels, g_strconcat ("action:", action, NULL));
    }
}

static void
normalize_into (GHashTable *set,
                const char *accel)
{
  guint key;
  GdkModifierType mods;

  g_assert_true (gtk_accelerator_parse (accel, &key, &mods));
  g_hash_table_add (set, gtk_accelerator_name (key, mods));
}

static void
test_shortcuts (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/headroomapp/Headroom/hr-shortcuts-window.ui");
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) overlay = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  GHashTableIter iter;
  const char *accel;

  collect_overlay (builder, listed);
  g_assert_true (g_hash_table_contains (listed, "action:win.show-help-overlay"));
  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
    if (!g_str_has_prefix (accel, "action:"))
      normalize_into (overlay, accel);

  /* the window's own bindings (class shortcuts) */
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          const char *name;

          if (!GTK_IS_NAMED_ACTION (action))
            continue;
          name = gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
          if (g_str_equal (name, "win.show-help-overlay"))
            continue;  /* listed by its action (Ctrl+?) */
          if (g_str_has_prefix (name, "win.") || g_str_equal (name, "window.close"))
            normalize_into (bound, trigger);
        }
    }
  /* the application's accelerators */
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      if (g_str_equal (actions[i], "win.show-help-overlay"))
        continue;
      for (guint j = 0; accels[j] != NULL; j++)
        normalize_into (bound, accels[j]);
    }
  /* the main menu's key comes with GtkMenuButton:primary */
  normalize_into (bound, "F10");

  g_hash_table_iter_init (&iter, bound);
  while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
    {
      g_test_message ("bound: %s", accel);
      g_assert_true (g_hash_table_contains (overlay, accel));
    }
  g_hash_table_iter_init (&iter, overlay);
  while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
    {
      g_test_message ("listed: %s", accel);
      g_assert_true (g_hash_table_contains (bound, accel));
    }

  /* the ones the issue names */
  for (const char * const *a = (const char *[]) { "<Control>q", "<Control>w", "<Control>comma", "<Control>f",
                                                  "<Control>g", "<Control>e", "<Shift><Control>c", "<Control>o",
                                                  "<Alt>1", "<Alt>4", NULL };
       *a != NULL; a++)
    {
      g_autofree char *name = NULL;
      guint key;
      GdkModifierType mods;

      g_assert_true (gtk_accelerator_parse (*a, &key, &mods));
      name = gtk_accelerator_name (key, mods);
      g_assert_true (g_hash_table_contains (bound, name));
    }

  hr_test_window_close (window);
}

/* Ctrl+W closes the window; Ctrl+Q closes them all. */
static void
test_close_and_quit (void)
{
  HrWindow *first = hr_test_window_open (app);
  HrWindow *second;
  g_autoptr(GtkWindow) weak_first = g_object_ref (GTK_WINDOW (first));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (first), "window.close", NULL));
  hr_test_flush ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (weak_first)));
  g_assert_null (g_list_find (gtk_application_get_windows (GTK_APPLICATION (app)), first));

  first = hr_test_window_open (app);
  second = hr_test_window_open (app);
  (void) open_preferences (second);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  hr_test_flush ();
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
}

/* The shortcuts window is built when first asked for (Ctrl+? or the main menu), not with every
 * window; shown, it stays over its window, and a second time is the same window. */
static void
test_shortcuts_on_demand (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay");
  GtkShortcutsWindow *shortcuts;

  g_assert_cmpstr (accels[0], ==, "<Control>question");
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  hr_test_spin (100);
  shortcuts = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (shortcuts);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (shortcuts)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (shortcuts)) == GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (shortcuts));
  hr_test_spin (100);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (shortcuts)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == shortcuts);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (shortcuts)));
  gtk_window_close (GTK_WINDOW (shortcuts));
  hr_test_window_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* no keyring, and no bus started for one */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/headroom-test-bus", TRUE);
  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/preferences/open", test_open);
  g_test_add_func ("/preferences/reserve", test_reserve);
  g_test_add_func ("/preferences/unified-share", test_unified_share);
  g_test_add_func ("/preferences/engine-version", test_engine_version);
  g_test_add_func ("/preferences/theme", test_theme);
  g_test_add_func ("/preferences/choice-rows", test_choice_rows);
  g_test_add_func ("/preferences/url-check", test_url_check);
  g_test_add_func ("/preferences/invalid-url", test_invalid_url);
  g_test_add_func ("/preferences/token", test_token);
  g_test_add_func ("/preferences/about", test_about);
  g_test_add_func ("/preferences/shortcuts", test_shortcuts);
  g_test_add_func ("/preferences/shortcuts-on-demand", test_shortcuts_on_demand);
  g_test_add_func ("/preferences/close-and-quit", test_close_and_quit);

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
