/* hr-hub-client.c — a model's config.json from a Hugging Face hub, by repo id
 *
 * Redirects are followed here rather than by libsoup, one hop at a time, so the access token
 * goes only to the endpoint's own origin: the hub sends renamed repos elsewhere on its own
 * host, but large files to a CDN that must not see the token.
 */
#include "hr-hub-client.h"
#include "hr-hub-token.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "hr-hfconfig.h"
#include "hr-http.h"
#include "hr-net-reader.h"

#define MAX_REPO_PART 96

typedef struct
{
  char *repo;
  char *token;
  GUri *endpoint;       /* the origin the token may go to */
  GUri *uri;            /* the address being asked */
  HrNetBudget budget;   /* for the whole fetch, redirect hops included */
  guint redirects;
  HrNetReader *reader;
  GByteArray *buf;
} Fetch;

G_DEFINE_QUARK (hr-hub-error-quark, hr_hub_error)

static void
fetch_free (Fetch *fetch)
{
  g_clear_pointer (&fetch->reader, hr_net_reader_free);
  g_free (fetch->repo);
  /* The token is a secret: do not leave it in freed memory. */
  if (fetch->token != NULL)
    memset (fetch->token, 0, strlen (fetch->token));
  g_free (fetch->token);
  g_clear_pointer (&fetch->endpoint, g_uri_unref);
  g_clear_pointer (&fetch->uri, g_uri_unref);
  g_clear_pointer (&fetch->buf, g_byte_array_unref);
  g_free (fetch);
}

static gboolean
repo_part_ok (const char *part,
              gsize       len)
{
  if (len == 0 || len > MAX_REPO_PART)
    return FALSE;
  if (strchr ("-.", part[0]) != NULL || strchr ("-.", part[len - 1]) != NULL)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isalnum (part[i]) && strchr ("-_.", part[i]) == NULL)
        return FALSE;
      if (part[i] == '.' && i + 1 < len && part[i + 1] == '.')
        return FALSE;
    }
  return TRUE;
}

static int
effective_port (GUri *uri)
{
  int port = g_uri_get_port (uri);

  if (port > 0)
    return port;
  return g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 ? 443 : 80;
}

static gboolean
same_origin (GUri *a,
             GUri *b)
{
  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         g_ascii_strcasecmp (g_uri_get_host (a), g_uri_get_host (b)) == 0 &&
         effective_port (a) == effective_port (b);
}

/* A token goes over https, or to this machine (a local mirror, the tests); never in clear
 * text across a network. */
static gboolean
token_may_travel (GUri *endpoint)
{
  const char *host = g_uri_get_host (endpoint);

  return g_ascii_strcasecmp (g_uri_get_scheme (endpoint), "https") == 0
         || g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "::1") == 0
         || g_ascii_strcasecmp (host, "localhost") == 0;
}

static GUri *
parse_endpoint (const char  *endpoint,
                GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme = NULL;
  const char *host = NULL;

  if (endpoint == NULL || *endpoint == '\0')
    endpoint = HR_HUB_DEFAULT_ENDPOINT;
  uri = g_uri_parse (endpoint, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri != NULL)
    {
      scheme = g_uri_get_scheme (uri);
      host = g_uri_get_host (uri);
    }
  if (uri == NULL || (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0) ||
      host == NULL || *host == '\0' || g_uri_get_query (uri) != NULL ||
      g_uri_get_fragment (uri) != NULL)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT,
                   _("The hub address “%s” is not an http:// or https:// address such as %s"),
                   endpoint, HR_HUB_DEFAULT_ENDPOINT);
      return NULL;
    }
  return g_steal_pointer (&uri);
}

/* ------------------------------------------------------------------------------------------ */
/* Fetching                                                                                     */

static void send_request (GTask *task);

/* Takes the chain's reference to @task. */
static void
fail (GTask  *task,
      GError *error)
{
  Fetch *fetch = g_task_get_task_data (task);

  hr_net_task_return_error (task, &fetch->reader, error);
}

static GError *
too_large_error (Fetch *fetch)
{
  g_autofree char *limit = g_format_size_full (HR_HFCONFIG_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                      _("The config.json of %s is larger than %s; that is not a model "
                        "configuration"), fetch->repo, limit);
}

/* The reader's message for a body too large names the host; this one says what the file was. */
static void
body_failed (GTask  *task,
             GError *error)
{
  if (g_error_matches (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE))
    {
      g_clear_error (&error);
      error = too_large_error (g_task_get_task_data (task));
    }
  fail (task, error);
}

static void
body_read (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  HrModel *model;

  g_clear_pointer (&fetch->reader, hr_net_reader_free);

  model = hr_hfconfig_parse ((const char *) fetch->buf->data, (gssize) fetch->buf->len, fetch->repo,
                             &error);
  if (model == NULL)
    {
      g_prefix_error (&error, _("The config.json of %s: "), fetch->repo);
      fail (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, model, (GDestroyNotify) hr_model_free);
  g_object_unref (task);
}

static void
answered (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessage *msg = hr_net_reader_get_message (fetch->reader);
  SoupMessageHeaders *headers = soup_message_get_response_headers (msg);
  g_autofree char *host = g_strdup (g_uri_get_host (fetch->uri));
  guint status = hr_net_reader_get_status (fetch->reader);

  if (SOUP_STATUS_IS_REDIRECTION (status) && status != SOUP_STATUS_NOT_MODIFIED)
    {
      const char *location = soup_message_headers_get_one (headers, "Location");
      g_autoptr(GUri) next = NULL;

      if (location != NULL)
        next = g_uri_parse_relative (fetch->uri, location, SOUP_HTTP_URI_FLAGS, NULL);
      if (next == NULL || (g_strcmp0 (g_uri_get_scheme (next), "http") != 0 &&
                           g_strcmp0 (g_uri_get_scheme (next), "https") != 0))
        {
          fail (task, g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                                   _("%s sent an invalid redirect (HTTP %u)"), host, status));
          return;
        }
      if (++fetch->redirects > HR_HUB_MAX_REDIRECTS)
        {
          fail (task, g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                                   _("%s redirected more than %d times"), host,
                                   HR_HUB_MAX_REDIRECTS));
          return;
        }
      g_clear_pointer (&fetch->reader, hr_net_reader_free);
      g_uri_unref (fetch->uri);
      fetch->uri = g_steal_pointer (&next);
      send_request (task);
      return;
    }

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
      if (fetch->token != NULL)
        error = g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                             _("%s refused the access token for %s (HTTP 401): check the "
                               "token, and that it may read this repository"),
                             host, fetch->repo);
      else
        error = g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                             _("%s asks to sign in for %s (HTTP 401): the repository is "
                               "private, gated or does not exist; an access token is needed"),
                             host, fetch->repo);
      fail (task, g_steal_pointer (&error));
      return;
    case SOUP_STATUS_FORBIDDEN:
      fail (task, g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                               _("%s refused access to %s (HTTP 403): for a gated model, "
                                 "accept its terms on the model page with the account the "
                                 "token belongs to"), host, fetch->repo));
      return;
    case SOUP_STATUS_NOT_FOUND:
    case 410:
      fail (task, g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                               _("%s has no repository %s, or it has no config.json (GGUF-only "
                                 "repositories have none: open one of their .gguf files "
                                 "instead)"), host, fetch->repo));
      return;
    default:
      break;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *what = g_strdup_printf (_("The config.json of %s"), fetch->repo);

      fail (task, hr_net_status_error (msg, what));
      return;
    }

  hr_net_step_read_body (fetch->buf, HR_HFCONFIG_MAX_SIZE,
                         &(HrNetStep) { &fetch->reader, (HrNetNextFunc) body_read,
                                        (HrNetFailFunc) body_failed, task });
}

static void
send_request (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(SoupMessage) msg = soup_message_new_from_uri (SOUP_METHOD_GET, fetch->uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);

  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  soup_message_headers_replace (headers, "Accept", "application/json");
  if (fetch->token != NULL && same_origin (fetch->uri, fetch->endpoint))
    {
      g_autofree char *value = g_strconcat ("Bearer ", fetch->token, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      memset (value, 0, strlen (value));
    }
  g_byte_array_set_size (fetch->buf, 0);
  hr_net_step_send (msg, fetch->budget, g_task_get_cancellable (task),
                    &(HrNetStep) { &fetch->reader, (HrNetNextFunc) answered,
                                   (HrNetFailFunc) fail, task });
}

static void
fetch_start (const char          *endpoint,
             const char          *repo,
             const char          *token,
             guint                timeout_s,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  GTask *task;
  Fetch *fetch;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_hub_fetch_config_async);
  fetch = g_new0 (Fetch, 1);
  fetch->budget = hr_net_budget_new (timeout_s);
  fetch->buf = g_byte_array_new ();
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);

  url = hr_hub_config_url (endpoint, repo, &error);
  if (url == NULL)
    {
      fail (task, g_steal_pointer (&error));
      return;
    }
  fetch->repo = g_strdup (repo);
  /* a token with a line break inside (set by hand in the key) would make libsoup drop the
   * header with a critical: refused with a message instead */
  if (!hr_hub_token_check (token, &error))
    {
      fail (task, g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_INVALID_TOKEN,
                               _("The saved access token cannot be sent: %s"), error->message));
      return;
    }
  if (token != NULL && *token != '\0')
    fetch->token = g_strstrip (g_strdup (token));
  fetch->endpoint = parse_endpoint (endpoint, NULL);
  fetch->uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  if (fetch->token != NULL && !token_may_travel (fetch->endpoint))
    {
      fail (task, g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT,
                               _("The access token is only sent over https: %s would carry it "
                                 "in clear text"), g_uri_get_host (fetch->endpoint)));
      return;
    }
  send_request (task);
}

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                   */

gboolean
hr_hub_check_repo_id (const char  *repo,
                      GError     **error)
{
  const char *slash;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (repo == NULL || *repo == '\0')
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO,
                   _("Enter a repository id such as Qwen/Qwen3-8B"));
      return FALSE;
    }
  if (strstr (repo, "://") != NULL || g_ascii_strncasecmp (repo, "huggingface.co/", 15) == 0)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO,
                   _("“%s” is a web address; enter only the repository id, the part after "
                     "huggingface.co/ (such as Qwen/Qwen3-8B)"), repo);
      return FALSE;
    }
  if (!g_utf8_validate (repo, -1, NULL))
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO,
                   _("The repository id is not valid text"));
      return FALSE;
    }
  for (const char *p = repo; *p; p++)
    if (g_ascii_isspace (*p))
      {
        g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO,
                     _("“%s”: a repository id has no spaces (such as Qwen/Qwen3-8B)"), repo);
        return FALSE;
      }
  slash = strchr (repo, '/');
  if (slash == NULL || strchr (slash + 1, '/') != NULL || repo[0] == '/' ||
      !repo_part_ok (repo, (gsize) (slash - repo)) || !repo_part_ok (slash + 1, strlen (slash + 1)))
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_REPO,
                   _("“%s” is not a repository id: it must be owner/name, each made of "
                     "letters, digits, “-”, “_” and “.” (such as Qwen/Qwen3-8B)"), repo);
      return FALSE;
    }
  return TRUE;
}

char *
hr_hub_config_url (const char  *endpoint,
                   const char  *repo,
                   GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *base = NULL;
  gsize len;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!hr_hub_check_repo_id (repo, error))
    return NULL;
  uri = parse_endpoint (endpoint, error);
  if (uri == NULL)
    return NULL;

  base = g_uri_to_string (uri);
  len = strlen (base);
  while (len > 0 && base[len - 1] == '/')
    base[--len] = '\0';
  return g_strdup_printf ("%s/%s/resolve/main/config.json", base, repo);
}

void
hr_hub_fetch_config_async (const char          *endpoint,
                           const char          *repo,
                           const char          *token,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  fetch_start (endpoint, repo, token, 0, cancellable, callback, user_data);
}

HrModel *
hr_hub_fetch_config_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_hub_fetch_config_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

HrModel *
hr_hub_fetch_config_sync (const char  *endpoint,
                          const char  *repo,
                          const char  *token,
                          guint        timeout_s,
                          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  hr_net_sync_prepare ();
  fetch_start (endpoint, repo, token, timeout_s, NULL, hr_net_sync_cb, &result);
  hr_net_sync_wait (&result);

  return hr_hub_fetch_config_finish (result, error);
}
