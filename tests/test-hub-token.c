/* test-hub-token.c — the hub token store without a display
 *
 * GSETTINGS_BACKEND=memory and GSETTINGS_SCHEMA_DIR=<build>/data (tests/meson.build).  The
 * session bus points nowhere, so a libsecret build finds no keyring and takes the GSettings
 * path, exactly as a build without libsecret does.
 */
#include <string.h>

#include "hr-hub-token.h"

typedef struct
{
  gboolean done;
  char *token;
  gboolean stored;
  HrHubTokenPlace place;
} Wait;

static void
lookup_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Wait *wait = user_data;
  g_autoptr(GError) error = NULL;

  wait->token = hr_hub_token_lookup_finish (result, &wait->place, &error);
  g_assert_no_error (error);
  wait->done = TRUE;
}

static void
store_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Wait *wait = user_data;
  g_autoptr(GError) error = NULL;

  wait->stored = hr_hub_token_store_finish (result, &wait->place, &error);
  g_assert_no_error (error);
  wait->done = TRUE;
}

static char *
lookup (GSettings       *settings,
        HrHubTokenPlace *place)
{
  Wait wait = { FALSE, NULL, FALSE, -1 };

  hr_hub_token_lookup_async (settings, NULL, lookup_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);
  *place = wait.place;
  return wait.token;
}

static HrHubTokenPlace
store (GSettings  *settings,
       const char *token)
{
  Wait wait = { FALSE, NULL, FALSE, -1 };

  hr_hub_token_store_async (settings, token, NULL, store_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (wait.stored);
  return wait.place;
}

/* No keyring: the token is kept in the "hub-token" key, spaces trimmed, and "" forgets it. */
static void
test_settings_fallback (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *key = NULL;
  g_autofree char *token = NULL;
  HrHubTokenPlace place;

  token = lookup (settings, &place);
  g_assert_cmpstr (token, ==, "");
  g_assert_cmpint (place, ==, HR_HUB_TOKEN_NONE);
  g_clear_pointer (&token, g_free);

  g_assert_cmpint (store (settings, "  hf_test_token  "), ==, HR_HUB_TOKEN_SETTINGS);
  key = g_settings_get_string (settings, "hub-token");
  g_assert_cmpstr (key, ==, "hf_test_token");
  token = lookup (settings, &place);
  g_assert_cmpstr (token, ==, "hf_test_token");
  g_assert_cmpint (place, ==, HR_HUB_TOKEN_SETTINGS);
  g_clear_pointer (&token, g_free);
  g_clear_pointer (&key, g_free);

  g_assert_cmpint (store (settings, ""), ==, HR_HUB_TOKEN_NONE);
  key = g_settings_get_string (settings, "hub-token");
  g_assert_cmpstr (key, ==, "");
  token = lookup (settings, &place);
  g_assert_cmpstr (token, ==, "");
  g_assert_cmpint (place, ==, HR_HUB_TOKEN_NONE);
}

/* A key set by hand (dconf-editor) with stray spaces is read trimmed. */
static void
test_settings_trimmed (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *token = NULL;
  HrHubTokenPlace place;

  g_settings_set_string (settings, "hub-token", " hf_by_hand\n");
  token = lookup (settings, &place);
  g_assert_cmpstr (token, ==, "hf_by_hand");
  g_assert_cmpint (place, ==, HR_HUB_TOKEN_SETTINGS);
  g_settings_reset (settings, "hub-token");
}

/* A token with a line break inside (pasted from two lines) reached libsoup, which dropped the
 * Authorization header with a critical: it is refused when saved, with a message, and what
 * was saved before stays. */
static void
store_refused_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (hr_hub_token_store_finish (result, NULL, error));
}

static void
test_refused (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *bad[] = { "hf_abc\ndef", "hf_abc def", "hf_\xc3\xa9t\xc3\xa9", "hf_a\rb", "hf_a\tb" };
  g_autofree char *key = NULL;

  g_assert_cmpint (store (settings, "hf_good"), ==, HR_HUB_TOKEN_SETTINGS);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GError *error = NULL;

      g_assert_false (hr_hub_token_check (bad[i], NULL));
      hr_hub_token_store_async (settings, bad[i], NULL, store_refused_cb, &error);
      while (error == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "line break"));
      g_clear_error (&error);
    }
  key = g_settings_get_string (settings, "hub-token");
  g_assert_cmpstr (key, ==, "hf_good");
  g_assert_true (hr_hub_token_check ("  hf_Ab-3_x.y  ", NULL));
  g_assert_true (hr_hub_token_check ("", NULL));
  g_settings_reset (settings, "hub-token");
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/headroom-test-bus", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hub-token/settings-fallback", test_settings_fallback);
  g_test_add_func ("/hub-token/refused", test_refused);
  g_test_add_func ("/hub-token/settings-trimmed", test_settings_trimmed);
  return g_test_run ();
}
