/* hr-hub-token.h — where the model hub's access token is kept
 *
 * In the user's login keyring (the Secret Service, through libsecret) when Headroom was built
 * with libsecret and a keyring answers; otherwise in the "hub-token" GSettings key, as plain
 * text.  Both calls are asynchronous because a keyring may first ask to be unlocked.
 *
 * Whoever sends the token (the model import) looks it up here rather than reading the key.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  HR_HUB_TOKEN_NONE,      /* no token */
  HR_HUB_TOKEN_KEYRING,   /* in the login keyring */
  HR_HUB_TOKEN_SETTINGS,  /* in GSettings, as plain text */
} HrHubTokenPlace;

/* TRUE when @token (surrounding spaces dropped) can go in an HTTP header: printable ASCII
 * without spaces, at most 1024 characters.  A line break inside it made libsoup drop the
 * header with a critical.  FALSE with G_IO_ERROR_INVALID_DATA and a message for the user. */
gboolean        hr_hub_token_check          (const char          *token,
                                             GError             **error);
/* TRUE when built with libsecret (a keyring may still be missing at run time). */
gboolean        hr_hub_token_have_keyring   (void);

void            hr_hub_token_lookup_async   (GSettings           *settings,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* The token, "" when there is none, and where it was found; NULL only when cancelled.  A
 * keyring that fails or is absent is not an error: the GSettings key is read instead. */
char           *hr_hub_token_lookup_finish  (GAsyncResult        *result,
                                             HrHubTokenPlace     *place,
                                             GError             **error);

/* Runs @func on @task in a worker thread once the token is known: looked up with @settings
 * under @task's cancellable and kept in *@token (newly allocated; left NULL when there is
 * none), or at once when @settings is NULL.  A lookup cancelled before it answers returns
 * G_IO_ERROR_CANCELLED from @task.  Takes over the caller's reference to @task; @token must
 * live as long as @task (its task data). */
void            hr_hub_token_run_in_thread  (GTask               *task,
                                             GSettings           *settings,
                                             char               **token,
                                             GTaskThreadFunc      func);

/* Keeps @token (surrounding spaces dropped; "" or NULL forgets it) in the keyring, and clears
 * the GSettings key once it is there; without a keyring, in the key.  A token that fails
 * hr_hub_token_check () is not kept: the store fails with its error. */
void            hr_hub_token_store_async    (GSettings           *settings,
                                             const char          *token,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* FALSE when cancelled, or with hr_hub_token_check ()'s error. */
gboolean        hr_hub_token_store_finish   (GAsyncResult        *result,
                                             HrHubTokenPlace     *place,
                                             GError             **error);

G_END_DECLS
