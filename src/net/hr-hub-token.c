/* hr-hub-token.c — the model hub's access token, in the keyring or in GSettings
 *
 * The keyring item is found by its schema and one attribute (kind = "hub-token"): one token for
 * the app, sent by the hub client to the configured endpoint's own host only.
 */
#include "hr-hub-token.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#ifdef HAVE_LIBSECRET
#include <libsecret/secret.h>
#endif

#define TOKEN_KEY "hub-token"

typedef struct
{
  GSettings *settings;
  char *token;
  HrHubTokenPlace place;
} TokenJob;

static void
token_job_free (TokenJob *job)
{
  g_clear_object (&job->settings);
  g_free (job->token);
  g_free (job);
}

static GTask *
token_task_new (GSettings           *settings,
                const char          *token,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data,
                gpointer             source_tag)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  TokenJob *job = g_new0 (TokenJob, 1);

  g_task_set_source_tag (task, source_tag);
  job->settings = g_object_ref (settings);
  job->token = g_strstrip (g_strdup (token ? token : ""));
  g_task_set_task_data (task, job, (GDestroyNotify) token_job_free);
  return task;
}

/* The GSettings key: the only place without a keyring, the fallback with one. */
static void
return_from_settings (GTask *task)
{
  TokenJob *job = g_task_get_task_data (task);
  g_autofree char *token = g_settings_get_string (job->settings, TOKEN_KEY);

  g_strstrip (token);
  job->place = *token != '\0' ? HR_HUB_TOKEN_SETTINGS : HR_HUB_TOKEN_NONE;
  g_task_return_pointer (task, g_steal_pointer (&token), g_free);
}

static void
store_in_settings (GTask *task)
{
  TokenJob *job = g_task_get_task_data (task);

  if (*job->token != '\0')
    {
      g_settings_set_string (job->settings, TOKEN_KEY, job->token);
      job->place = HR_HUB_TOKEN_SETTINGS;
    }
  else
    {
      g_settings_reset (job->settings, TOKEN_KEY);
      job->place = HR_HUB_TOKEN_NONE;
    }
  g_task_return_boolean (task, TRUE);
}

#ifdef HAVE_LIBSECRET

static const SecretSchema *
token_schema (void)
{
  static const SecretSchema schema = {
    APP_ID ".HubToken", SECRET_SCHEMA_NONE,
    {
      { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };

  return &schema;
}

static gboolean
return_if_cancelled (GTask  *task,
                     GError *error)
{
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_error_copy (error));
      return TRUE;
    }
  return FALSE;
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TokenJob *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *secret = secret_password_lookup_finish (result, &error);

  if (return_if_cancelled (task, error))
    return;
  if (error != NULL)
    g_debug ("No keyring for the hub token: %s", error->message);

  if (secret != NULL && *secret != '\0')
    {
      job->place = HR_HUB_TOKEN_KEYRING;
      g_task_return_pointer (task, g_strstrip (g_strdup (secret)), g_free);
    }
  else
    return_from_settings (task);
  secret_password_free (secret);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TokenJob *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      if (return_if_cancelled (task, error))
        return;
      g_debug ("Keeping the hub token in GSettings: %s", error->message);
      store_in_settings (task);
      return;
    }

  /* in the keyring now: no plain-text copy left behind */
  g_settings_reset (job->settings, TOKEN_KEY);
  job->place = HR_HUB_TOKEN_KEYRING;
  g_task_return_boolean (task, TRUE);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* FALSE with no error: there was nothing to clear */
  secret_password_clear_finish (result, &error);
  if (return_if_cancelled (task, error))
    return;
  store_in_settings (task);
}

#endif /* HAVE_LIBSECRET */

/* Public API -------------------------------------------------------------------------------- */

#define MAX_TOKEN_CHARS 1024

gboolean
hr_hub_token_check (const char  *token,
                    GError     **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (token ? token : ""));

  for (const char *p = trimmed; *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7e)
      {
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             _("An access token is one line of letters, digits and punctuation, "
                               "without spaces or line breaks"));
        return FALSE;
      }
  if (strlen (trimmed) > MAX_TOKEN_CHARS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("An access token is at most %d characters long"), MAX_TOKEN_CHARS);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_hub_token_have_keyring (void)
{
#ifdef HAVE_LIBSECRET
  return TRUE;
#else
  return FALSE;
#endif
}

void
hr_hub_token_lookup_async (GSettings           *settings,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (G_IS_SETTINGS (settings));

  task = token_task_new (settings, NULL, cancellable, callback, user_data, hr_hub_token_lookup_async);
#ifdef HAVE_LIBSECRET
  secret_password_lookup (token_schema (), cancellable, lookup_cb, task,
                          "kind", "hub-token",
                          NULL);
#else
  return_from_settings (task);
  g_object_unref (task);
#endif
}

typedef struct
{
  GTask *task;
  char **token;
  GTaskThreadFunc func;
} TokenThen;

static void
token_then_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  TokenThen *then = user_data;
  g_autoptr(GTask) task = then->task;
  g_autoptr(GError) error = NULL;
  char *token = hr_hub_token_lookup_finish (result, NULL, &error);

  if (token == NULL)   /* cancelled */
    {
      if (error == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    {
      if (*token != '\0')
        *then->token = token;
      else
        g_free (token);
      g_task_run_in_thread (task, then->func);
    }
  g_free (then);
}

void
hr_hub_token_run_in_thread (GTask           *task,
                            GSettings       *settings,
                            char           **token,
                            GTaskThreadFunc  func)
{
  TokenThen *then;

  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (token != NULL);

  if (settings == NULL)
    {
      g_task_run_in_thread (task, func);
      g_object_unref (task);
      return;
    }
  then = g_new0 (TokenThen, 1);
  then->task = task;
  then->token = token;
  then->func = func;
  hr_hub_token_lookup_async (settings, g_task_get_cancellable (task), token_then_cb, then);
}

/* @result's task when it comes from @source_tag, after telling where the token is. */
static GTask *
job_finish (GAsyncResult     *result,
            gpointer          source_tag,
            HrHubTokenPlace  *place)
{
  TokenJob *job;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  job = g_task_get_task_data (G_TASK (result));
  if (place != NULL)
    *place = job->place;
  return G_TASK (result);
}

char *
hr_hub_token_lookup_finish (GAsyncResult     *result,
                            HrHubTokenPlace  *place,
                            GError          **error)
{
  GTask *task = job_finish (result, hr_hub_token_lookup_async, place);

  return task != NULL ? g_task_propagate_pointer (task, error) : NULL;
}

void
hr_hub_token_store_async (GSettings           *settings,
                          const char          *token,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
#ifdef HAVE_LIBSECRET
  TokenJob *job;
#endif

  g_return_if_fail (G_IS_SETTINGS (settings));

  task = token_task_new (settings, token, cancellable, callback, user_data, hr_hub_token_store_async);
  {
    GError *error = NULL;

    /* refused before it reaches the keyring or the key */
    if (!hr_hub_token_check (token, &error))
      {
        g_task_return_error (task, error);
        g_object_unref (task);
        return;
      }
  }
#ifdef HAVE_LIBSECRET
  job = g_task_get_task_data (task);
  if (*job->token == '\0')
    secret_password_clear (token_schema (), cancellable, clear_cb, task,
                           "kind", "hub-token",
                           NULL);
  else
    secret_password_store (token_schema (), SECRET_COLLECTION_DEFAULT,
                           _("Headroom: model hub access token"), job->token,
                           cancellable, store_cb, task,
                           "kind", "hub-token",
                           NULL);
#else
  store_in_settings (task);
  g_object_unref (task);
#endif
}

gboolean
hr_hub_token_store_finish (GAsyncResult     *result,
                           HrHubTokenPlace  *place,
                           GError          **error)
{
  GTask *task = job_finish (result, hr_hub_token_store_async, place);

  return task != NULL && g_task_propagate_boolean (task, error);
}
