/* hr-hub-client.h — a model's config.json from a Hugging Face hub, by repo id
 *
 * GETs {endpoint}/{org}/{name}/resolve/main/config.json (at most HR_HFCONFIG_MAX_SIZE bytes)
 * through the shared session and reads it with hr_hfconfig_parse().  An access token, when
 * given, is sent as "Authorization: Bearer …" to the endpoint's own host only, never to a host
 * a redirect leads to.
 */
#pragma once

#include <gio/gio.h>

#include "hr-hub-id.h"
#include "hr-model.h"

G_BEGIN_DECLS

#define HR_HUB_DEFAULT_ENDPOINT "https://huggingface.co"
#define HR_HUB_MAX_REDIRECTS    5

#define HR_HUB_ERROR (hr_hub_error_quark ())
typedef enum
{
  HR_HUB_ERROR_INVALID_REPO,      /* not "org/name" */
  HR_HUB_ERROR_INVALID_ENDPOINT,  /* not an http(s) address with a host */
  HR_HUB_ERROR_NOT_FOUND,         /* no such repository, or it has no config.json */
  HR_HUB_ERROR_UNAUTHORIZED,      /* private or gated: a token (with access) is needed */
  HR_HUB_ERROR_INVALID_TOKEN,     /* the token cannot be sent (hr_hub_token_check ()) */
  HR_HUB_ERROR_RATE_LIMITED,      /* HTTP 429 */
  HR_HUB_ERROR_OFFLINE,           /* HF_HUB_OFFLINE set and the answer is not cached */
} HrHubError;

GQuark          hr_hub_error_quark          (void);

/* Checks that @repo is a hub repo id, "org/name": letters, digits, "-", "_" and "." (not at
 * either end, no ".."), 1 to 96 characters each.  Addresses, paths, spaces are refused with a
 * message that says what to type instead. */
gboolean        hr_hub_check_repo_id        (const char          *repo,
                                             GError             **error);

/* {endpoint}/{repo}/resolve/main/config.json; @endpoint NULL for HR_HUB_DEFAULT_ENDPOINT.
 * NULL with HR_HUB_ERROR when either is malformed. */
char           *hr_hub_config_url           (const char          *endpoint,
                                             const char          *repo,
                                             GError             **error);

/* @token may be NULL or empty (public repos).  Each request gets hr_http_get_timeout().
 * Errors: HR_HUB_ERROR (above), HR_HTTP_ERROR for the transfer (network, timeout, other
 * statuses, TOO_LARGE), HR_HFCONFIG_ERROR for the contents, G_IO_ERROR_CANCELLED. */
void            hr_hub_fetch_config_async   (const char          *endpoint,
                                             const char          *repo,
                                             const char          *token,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
HrModel        *hr_hub_fetch_config_finish  (GAsyncResult        *result,
                                             GError             **error);

/* For the command line: runs the thread-default main context until the fetch is done (see
 * hr_gguf_remote_load_sync()).  @timeout_s bounds each request (0: hr_http_get_timeout()). */
HrModel        *hr_hub_fetch_config_sync    (const char          *endpoint,
                                             const char          *repo,
                                             const char          *token,
                                             guint                timeout_s,
                                             GError             **error);

G_END_DECLS
