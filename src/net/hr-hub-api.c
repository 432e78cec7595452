/* hr-hub-api.c — the Hub's search, listings and byte ranges, blocking, on a session of its own
 *
 * One request is: the cache (fresh for a day unless refreshed), else a GET with redirects
 * followed here one hop at a time (the token only to the endpoint's origin), the body read up
 * to a limit and the connection dropped there.  Every status the Hub uses to say no becomes one
 * HR_HUB_ERROR with a sentence a person can act on.
 */
#include "hr-hub-api.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "hr-http.h"
#include "hr-net-reader.h"

#define CACHE_MAGIC "headroom-hub-cache 1"
#define READ_CHUNK  (64 * 1024)
#define MAX_PAGES   50

struct _HrHub
{
  SoupSession *session;
  GUri *endpoint;
  char *endpoint_str;   /* without a trailing '/' */
  char *token;
  char *cache_dir;
  gboolean refresh;
  gboolean offline;     /* HF_HUB_OFFLINE */
  guint timeout;
  guint n_requests;
  guint n_cached;
};

/* What one request asks, and what it says it is (for messages). */
typedef struct
{
  const char *url;
  const char *repo;     /* NULL for a search */
  const char *what;     /* "the file listing of org/name" */
  gint64 range_end;     /* bytes 0 … range_end, or -1 for the whole body */
  gsize max_bytes;
} Request;

typedef struct
{
  GBytes *body;
  char *next;           /* Link rel="next", NULL when none */
  guint64 total;        /* Content-Range's total, 0 when not given */
} Answer;

static void
answer_clear (Answer *a)
{
  g_clear_pointer (&a->body, g_bytes_unref);
  g_clear_pointer (&a->next, g_free);
}

/* ------------------------------------------------------------------------------------------ */
/* Set-up                                                                                       */

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

/* Over https, or to this machine: never a token in clear text across a network. */
static gboolean
token_may_travel (GUri *endpoint)
{
  const char *host = g_uri_get_host (endpoint);

  return g_ascii_strcasecmp (g_uri_get_scheme (endpoint), "https") == 0 ||
         g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "::1") == 0 ||
         g_ascii_strcasecmp (host, "localhost") == 0;
}

static char *
clean_token (char *token)
{
  GString *s;

  if (token == NULL)
    return NULL;
  s = g_string_new (NULL);
  for (const char *c = token; *c != '\0'; c++)
    if (*c != '\r' && *c != '\n')
      g_string_append_c (s, *c);
  memset (token, 0, strlen (token));
  g_free (token);
  g_strstrip (s->str);
  if (s->str[0] == '\0')
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  s->len = strlen (s->str);
  return g_string_free (s, FALSE);
}

char *
hr_hub_env_token (void)
{
  const char *env = g_getenv ("HF_TOKEN");
  g_autofree char *path = NULL;
  char *contents = NULL;
  char *token;

  if (env == NULL || *env == '\0')
    env = g_getenv ("HUGGING_FACE_HUB_TOKEN");
  if (env != NULL && (token = clean_token (g_strdup (env))) != NULL)
    return token;

  if (g_getenv ("HF_TOKEN_PATH") != NULL && *g_getenv ("HF_TOKEN_PATH") != '\0')
    path = g_strdup (g_getenv ("HF_TOKEN_PATH"));
  else if (g_getenv ("HF_HOME") != NULL && *g_getenv ("HF_HOME") != '\0')
    path = g_build_filename (g_getenv ("HF_HOME"), "token", NULL);
  else
    path = g_build_filename (g_get_user_cache_dir (), "huggingface", "token", NULL);
  /* a token is a line; anything longer is not one */
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  if (strlen (contents) > 4096)
    {
      memset (contents, 0, strlen (contents));
      g_free (contents);
      return NULL;
    }
  return clean_token (contents);
}

char *
hr_hub_default_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "hub", NULL);
}

HrHub *
hr_hub_new (const char  *endpoint,
            const char  *token,
            GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *env = g_getenv ("HF_ENDPOINT");
  const char *offline = g_getenv ("HF_HUB_OFFLINE");
  g_autofree char *trimmed = NULL;
  HrHub *hub;

  if (env != NULL && *env != '\0')
    endpoint = env;
  if (endpoint == NULL || *endpoint == '\0')
    endpoint = HR_HUB_DEFAULT_ENDPOINT;
  trimmed = g_strdup (endpoint);
  while (*trimmed != '\0' && trimmed[strlen (trimmed) - 1] == '/')
    trimmed[strlen (trimmed) - 1] = '\0';
  uri = g_uri_parse (trimmed, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
       g_strcmp0 (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID_ENDPOINT,
                   _("The hub address “%s” is not an http:// or https:// address such as %s"),
                   endpoint, HR_HUB_DEFAULT_ENDPOINT);
      return NULL;
    }

  hub = g_new0 (HrHub, 1);
  hub->endpoint = g_steal_pointer (&uri);
  hub->endpoint_str = g_steal_pointer (&trimmed);
  hub->token = token != NULL && *token != '\0' ? clean_token (g_strdup (token))
                                               : hr_hub_env_token ();
  hub->offline = offline != NULL && (strcmp (offline, "1") == 0 ||
                                     g_ascii_strcasecmp (offline, "true") == 0 ||
                                     g_ascii_strcasecmp (offline, "yes") == 0 ||
                                     g_ascii_strcasecmp (offline, "on") == 0);
  hub->timeout = hr_http_get_timeout ();
  hub->session = soup_session_new_with_options ("user-agent", "Headroom/" PACKAGE_VERSION,
                                                "timeout", hub->timeout, NULL);
  return hub;
}

void
hr_hub_free (HrHub *hub)
{
  if (hub == NULL)
    return;
  g_clear_object (&hub->session);
  g_uri_unref (hub->endpoint);
  g_free (hub->endpoint_str);
  if (hub->token != NULL)
    memset (hub->token, 0, strlen (hub->token));
  g_free (hub->token);
  g_free (hub->cache_dir);
  g_free (hub);
}

const char *
hr_hub_get_endpoint (HrHub *hub)
{
  return hub->endpoint_str;
}

gboolean
hr_hub_has_token (HrHub *hub)
{
  return hub->token != NULL;
}

void
hr_hub_set_cache (HrHub      *hub,
                  const char *dir,
                  gboolean    refresh)
{
  g_free (hub->cache_dir);
  hub->cache_dir = g_strdup (dir);
  hub->refresh = refresh;
}

void
hr_hub_set_timeout (HrHub *hub,
                    guint  timeout_s)
{
  hub->timeout = hr_http_timeout_or_default (timeout_s);
  g_object_set (hub->session, "timeout", hub->timeout, NULL);
}

guint
hr_hub_get_n_requests (HrHub *hub)
{
  return hub->n_requests;
}

guint
hr_hub_get_n_cached (HrHub *hub)
{
  return hub->n_cached;
}

/* ------------------------------------------------------------------------------------------ */
/* The cache: one file per request, "headroom-hub-cache 1\nTIME\nTOTAL\nNEXT\n" then the body  */

static char *
cache_path (HrHub         *hub,
            const Request *req)
{
  g_autofree char *key = g_strdup_printf ("%s|%" G_GINT64_FORMAT "|%s", req->url, req->range_end,
                                          hub->token != NULL ? "token" : "");
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

  return g_build_filename (hub->cache_dir, hash, NULL);
}

static gboolean
cache_read (HrHub         *hub,
            const Request *req,
            Answer        *out)
{
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  g_auto(GStrv) lines = NULL;
  gsize len;
  gint64 time;
  const char *body;
  int n = 0;

  if (hub->cache_dir == NULL)
    return FALSE;
  path = cache_path (hub, req);
  if (!g_file_get_contents (path, &data, &len, NULL))
    return FALSE;
  /* the four header lines */
  body = data;
  for (n = 0; n < 4 && body != NULL; n++)
    {
      body = memchr (body, '\n', len - (gsize) (body - data));
      if (body != NULL)
        body++;
    }
  if (body == NULL)
    return FALSE;
  lines = g_strsplit (data, "\n", 5);
  if (g_strv_length (lines) < 5 || strcmp (lines[0], CACHE_MAGIC) != 0)
    return FALSE;
  time = g_ascii_strtoll (lines[1], NULL, 10);
  if (hub->refresh && !hub->offline)
    return FALSE;
  if (!hub->offline && (time <= 0 || g_get_real_time () / G_USEC_PER_SEC - time > HR_HUB_CACHE_MAX_AGE ||
                        time > g_get_real_time () / G_USEC_PER_SEC + 60))
    return FALSE;
  out->total = g_ascii_strtoull (lines[2], NULL, 10);
  out->next = *lines[3] != '\0' ? g_strdup (lines[3]) : NULL;
  out->body = g_bytes_new (body, len - (gsize) (body - data));
  hub->n_cached++;
  return TRUE;
}

typedef struct
{
  char *path;
  gint64 mtime;
  goffset size;
} CacheEntry;

static int
by_mtime (gconstpointer a,
          gconstpointer b)
{
  const CacheEntry *x = a, *y = b;

  return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

/* Oldest files out until the directory holds at most HR_HUB_CACHE_MAX_BYTES. */
static void
cache_trim (HrHub *hub)
{
  g_autoptr(GDir) dir = g_dir_open (hub->cache_dir, 0, NULL);
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (CacheEntry));
  guint64 total = 0;
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      CacheEntry e;
      GStatBuf st;

      e.path = g_build_filename (hub->cache_dir, name, NULL);
      if (g_stat (e.path, &st) != 0 || !S_ISREG (st.st_mode))
        {
          g_free (e.path);
          continue;
        }
      e.mtime = st.st_mtime;
      e.size = st.st_size;
      total += (guint64) st.st_size;
      g_array_append_val (entries, e);
    }
  g_array_sort (entries, by_mtime);
  for (guint i = 0; i < entries->len; i++)
    {
      CacheEntry *e = &g_array_index (entries, CacheEntry, i);

      if (total > HR_HUB_CACHE_MAX_BYTES && g_unlink (e->path) == 0)
        total -= (guint64) e->size;
      g_free (e->path);
    }
}

static void
cache_write (HrHub         *hub,
             const Request *req,
             const Answer  *a)
{
  g_autofree char *path = NULL;
  g_autoptr(GString) s = NULL;
  gsize len;
  const char *body;

  if (hub->cache_dir == NULL || g_mkdir_with_parents (hub->cache_dir, 0700) != 0)
    return;
  body = g_bytes_get_data (a->body, &len);
  if (len > HR_HUB_CACHE_MAX_BYTES / 4)
    return;
  s = g_string_new (CACHE_MAGIC "\n");
  g_string_append_printf (s, "%" G_GINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n%s\n",
                          g_get_real_time () / G_USEC_PER_SEC, a->total,
                          a->next != NULL ? a->next : "");
  g_string_append_len (s, body, (gssize) len);
  path = cache_path (hub, req);
  /* g_file_set_contents writes a temporary file and renames it over the old one */
  if (g_file_set_contents_full (path, s->str, (gssize) s->len, G_FILE_SET_CONTENTS_CONSISTENT,
                                0600, NULL))
    cache_trim (hub);
}

/* ------------------------------------------------------------------------------------------ */
/* One request                                                                                  */

/* <URL>; rel="next" among the Link header's entries (RFC 8288), resolved against @base. */
static char *
link_next (SoupMessageHeaders *headers,
           GUri               *base)
{
  const char *link = soup_message_headers_get_list (headers, "Link");
  g_auto(GStrv) entries = NULL;

  if (link == NULL)
    return NULL;
  entries = g_strsplit (link, ",", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      const char *e = entries[i];
      const char *lt = strchr (e, '<');
      const char *gt = lt != NULL ? strchr (lt, '>') : NULL;
      g_autofree char *params = NULL;
      g_autofree char *target = NULL;
      g_autoptr(GUri) next = NULL;

      if (gt == NULL)
        continue;
      params = g_ascii_strdown (gt + 1, -1);
      g_strdelimit (params, " \t", ' ');
      if (strstr (params, "rel=\"next\"") == NULL && strstr (params, "rel=next") == NULL)
        continue;
      target = g_strndup (lt + 1, (gsize) (gt - lt - 1));
      next = g_uri_parse_relative (base, target, SOUP_HTTP_URI_FLAGS, NULL);
      if (next != NULL)
        return g_uri_to_string (next);
    }
  return NULL;
}

/* Retry-After in seconds (RFC 9110), or the reset of the IETF RateLimit header the Hub sends
 * ("RateLimit: \"api\";r=0;t=42"); -1 when neither says. */
static gint64
retry_after (SoupMessageHeaders *headers)
{
  const char *v = soup_message_headers_get_one (headers, "Retry-After");
  const char *t;

  if (v != NULL && g_ascii_isdigit (*v))
    return g_ascii_strtoll (v, NULL, 10);
  v = soup_message_headers_get_one (headers, "RateLimit");
  if (v != NULL && (t = strstr (v, "t=")) != NULL && g_ascii_isdigit (t[2]))
    return g_ascii_strtoll (t + 2, NULL, 10);
  if (v != NULL && (t = strstr (v, "reset=")) != NULL && g_ascii_isdigit (t[6]))
    return g_ascii_strtoll (t + 6, NULL, 10);
  return -1;
}

static GError *
status_error (HrHub         *hub,
              const Request *req,
              SoupMessage   *msg,
              const char    *host)
{
  guint status = soup_message_get_status (msg);

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
      if (hub->token != NULL)
        return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                            _("%s refused the access token for %s (HTTP 401): check the "
                              "token, and that it may read this repository"),
                            host, req->repo != NULL ? req->repo : host);
      return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                          _("%s asks to sign in for %s (HTTP 401): the repository is "
                            "private, gated or does not exist; an access token is needed"),
                          host, req->repo != NULL ? req->repo : host);
    case SOUP_STATUS_FORBIDDEN:
      return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_UNAUTHORIZED,
                          _("%s refused access to %s (HTTP 403): for a gated model, "
                            "accept its terms on the model page with the account the "
                            "token belongs to"), host, req->repo != NULL ? req->repo : host);
    case SOUP_STATUS_NOT_FOUND:
    case 410:
      return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                          _("%s: %s was not found (HTTP 404): check the name and the revision"),
                          host, req->what);
    case 429:   /* Too Many Requests: libsoup 3.2 has no name for it */
      {
        gint64 wait = retry_after (soup_message_get_response_headers (msg));

        if (wait >= 0)
          return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_RATE_LIMITED,
                              _("%s is limiting requests (HTTP 429): try again in %lld s, "
                                "or sign in with an access token"),
                              host, (long long) wait);
        return g_error_new (HR_HUB_ERROR, HR_HUB_ERROR_RATE_LIMITED,
                            _("%s is limiting requests (HTTP 429): try again later, or sign "
                              "in with an access token"), host);
      }
    default:
      return hr_net_status_error (msg, req->what);
    }
}

/* The body, at most @max bytes (more is TOO_LARGE unless @cut: a Range the server ignored). */
static GBytes *
read_body (GInputStream  *stream,
           gsize          max,
           gboolean       cut,
           const char    *what,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  while (TRUE)
    {
      gssize n;
      gsize want = MIN ((gsize) READ_CHUNK, max + 1 - buf->len);

      g_byte_array_set_size (buf, buf->len + want);
      n = g_input_stream_read (stream, buf->data + buf->len - want, want, cancellable, error);
      if (n < 0)
        return NULL;
      g_byte_array_set_size (buf, buf->len - want + (gsize) n);
      if (n == 0)
        break;
      if (buf->len > max)
        {
          if (cut)
            {
              g_byte_array_set_size (buf, max);
              break;
            }
          {
            g_autofree char *limit = g_format_size_full (max, G_FORMAT_SIZE_IEC_UNITS);

            g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                         _("%s is larger than %s"), what, limit);
          }
          return NULL;
        }
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

static gboolean
fetch (HrHub         *hub,
       const Request *req,
       Answer        *out,
       GCancellable  *cancellable,
       GError       **error)
{
  g_autoptr(GUri) uri = NULL;

  memset (out, 0, sizeof *out);
  if (cache_read (hub, req, out))
    return TRUE;
  if (hub->offline)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_OFFLINE,
                   _("HF_HUB_OFFLINE is set and %s is not in the cache"), req->what);
      return FALSE;
    }

  uri = g_uri_parse (req->url, SOUP_HTTP_URI_FLAGS, error);
  if (uri == NULL)
    return FALSE;
  for (guint hop = 0; ; hop++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
      SoupMessageHeaders *headers = soup_message_get_request_headers (msg);
      g_autoptr(GInputStream) stream = NULL;
      g_autoptr(GError) local = NULL;
      g_autofree char *host = g_strdup (g_uri_get_host (uri));
      guint status;

      soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
      soup_message_headers_replace (headers, "Accept", "application/json");
      if (req->range_end >= 0)
        {
          soup_message_headers_replace (headers, "Accept-Encoding", "identity");
          soup_message_disable_feature (msg, SOUP_TYPE_CONTENT_DECODER);
          soup_message_headers_set_range (headers, 0, req->range_end);
        }
      if (hub->token != NULL && same_origin (uri, hub->endpoint) && token_may_travel (hub->endpoint))
        {
          g_autofree char *value = g_strconcat ("Bearer ", hub->token, NULL);

          soup_message_headers_replace (headers, "Authorization", value);
          memset (value, 0, strlen (value));
        }
      hub->n_requests++;
      stream = soup_session_send (hub->session, msg, cancellable, &local);
      if (stream == NULL)
        {
          g_propagate_error (error, hr_http_map_error (local, host, hub->timeout, FALSE));
          return FALSE;
        }
      status = soup_message_get_status (msg);
      if (SOUP_STATUS_IS_REDIRECTION (status) && status != SOUP_STATUS_NOT_MODIFIED)
        {
          const char *location = soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                               "Location");
          GUri *next = location != NULL ? g_uri_parse_relative (uri, location, SOUP_HTTP_URI_FLAGS,
                                                                NULL) : NULL;

          g_input_stream_close (stream, NULL, NULL);
          if (next == NULL || (g_strcmp0 (g_uri_get_scheme (next), "http") != 0 &&
                               g_strcmp0 (g_uri_get_scheme (next), "https") != 0))
            {
              g_clear_pointer (&next, g_uri_unref);
              g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                           _("%s sent an invalid redirect (HTTP %u)"), host, status);
              return FALSE;
            }
          if (hop + 1 > HR_HUB_MAX_REDIRECTS)
            {
              g_uri_unref (next);
              g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                           _("%s redirected more than %d times"), host, HR_HUB_MAX_REDIRECTS);
              return FALSE;
            }
          g_uri_unref (uri);
          uri = next;
          continue;
        }
      if (!SOUP_STATUS_IS_SUCCESSFUL (status))
        {
          g_input_stream_close (stream, NULL, NULL);
          g_propagate_error (error, status_error (hub, req, msg, host));
          return FALSE;
        }
      {
        SoupMessageHeaders *rh = soup_message_get_response_headers (msg);
        goffset start = -1, end = -1, total = -1;
        gsize max = req->max_bytes;

        if (req->range_end >= 0)
          {
            max = (gsize) req->range_end + 1;
            if (status == SOUP_STATUS_PARTIAL_CONTENT)
              {
                if (!soup_message_headers_get_content_range (rh, &start, &end, &total) ||
                    start != 0)
                  {
                    g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                                 _("%s sent a different byte range than asked for"), host);
                    return FALSE;
                  }
                if (total > 0)
                  out->total = (guint64) total;
              }
            else if (soup_message_headers_get_encoding (rh) == SOUP_ENCODING_CONTENT_LENGTH)
              out->total = (guint64) soup_message_headers_get_content_length (rh);
          }
        else if (hr_http_declares_over (msg, max))
          {
            g_autofree char *limit = g_format_size_full (max, G_FORMAT_SIZE_IEC_UNITS);

            g_input_stream_close (stream, NULL, NULL);
            g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                         _("%s is larger than %s"), req->what, limit);
            return FALSE;
          }
        out->body = read_body (stream, max, req->range_end >= 0, req->what, cancellable, &local);
        g_input_stream_close (stream, NULL, NULL);
        if (out->body == NULL)
          {
            if (local->domain == HR_HTTP_ERROR || g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
              g_propagate_error (error, g_steal_pointer (&local));
            else
              g_propagate_error (error, hr_http_map_read_error (local, host, hub->timeout, FALSE));
            return FALSE;
          }
        out->next = link_next (rh, uri);
        if (out->next != NULL)
          {
            g_autoptr(GUri) next = g_uri_parse (out->next, SOUP_HTTP_URI_FLAGS, NULL);

            /* the next page is asked with the token: only on the endpoint's own origin */
            if (next == NULL || !same_origin (next, hub->endpoint))
              {
                answer_clear (out);
                g_set_error (error, HR_HTTP_ERROR, HR_HTTP_ERROR_PROTOCOL,
                             _("%s gave a next page on another host"), host);
                return FALSE;
              }
          }
      }
      cache_write (hub, req, out);
      return TRUE;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                   */

static char *
escape_path (const char *path)
{
  /* each segment escaped, the slashes kept */
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *e = g_uri_escape_string (parts[i], NULL, FALSE);

      g_free (parts[i]);
      parts[i] = e;
    }
  return g_strjoinv ("/", parts);
}

char *
hr_hub_resolve_url (HrHub      *hub,
                    const char *repo,
                    const char *revision,
                    const char *path)
{
  g_autofree char *rev = g_uri_escape_string (revision, NULL, FALSE);
  g_autofree char *p = escape_path (path);

  return g_strdup_printf ("%s/%s/resolve/%s/%s", hub->endpoint_str, repo, rev, p);
}

GPtrArray *
hr_hub_search (HrHub         *hub,
               const char    *text,
               gboolean       gguf_only,
               guint          limit,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GPtrArray) hits = hr_hub_hits_new ();
  g_autofree char *q = NULL;
  g_autofree char *url = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (hub != NULL && text != NULL, NULL);

  limit = CLAMP (limit, 1, HR_HUB_MAX_RESULTS);
  q = g_uri_escape_string (text, NULL, FALSE);
  url = g_strdup_printf ("%s/api/models?search=%s&limit=%u&sort=downloads%s", hub->endpoint_str,
                         q, limit, gguf_only ? "&filter=gguf" : "");
  what = g_strdup_printf (_("the search for “%s”"), text);
  for (guint page = 0; url != NULL && page < MAX_PAGES && hits->len < limit; page++)
    {
      Request req = { url, NULL, what, -1, HR_HUB_PAGE_MAX_SIZE };
      Answer a = { 0 };
      gsize len;
      const char *data;

      if (!fetch (hub, &req, &a, cancellable, error))
        return NULL;
      data = g_bytes_get_data (a.body, &len);
      if (!hr_hub_search_add_page (hits, data, len, error))
        {
          g_prefix_error (error, "%s: ", hub->endpoint_str);
          answer_clear (&a);
          return NULL;
        }
      g_free (url);
      url = g_steal_pointer (&a.next);
      answer_clear (&a);
    }
  if (hits->len > limit)
    g_ptr_array_set_size (hits, limit);
  return g_steal_pointer (&hits);
}

HrHubTree *
hr_hub_list_files (HrHub         *hub,
                   const char    *repo,
                   const char    *revision,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(HrHubTree) tree = hr_hub_tree_new ();
  g_autofree char *rev = NULL;
  g_autofree char *url = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (hub != NULL && repo != NULL, NULL);

  if (!hr_hub_check_repo_id (repo, error))
    return NULL;
  rev = g_uri_escape_string (revision != NULL ? revision : "main", NULL, FALSE);
  url = g_strdup_printf ("%s/api/models/%s/tree/%s?recursive=true", hub->endpoint_str, repo, rev);
  what = g_strdup_printf (_("repository %s (revision %s)"), repo,
                          revision != NULL ? revision : "main");
  for (guint page = 0; url != NULL; page++)
    {
      Request req = { url, repo, what, -1, HR_HUB_PAGE_MAX_SIZE };
      Answer a = { 0 };
      gsize len;
      const char *data;

      if (page == MAX_PAGES)
        {
          g_set_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_LIMIT,
                       _("The file listing of %s goes on for more than %d pages"), repo, MAX_PAGES);
          return NULL;
        }
      if (!fetch (hub, &req, &a, cancellable, error))
        return NULL;
      data = g_bytes_get_data (a.body, &len);
      if (!hr_hub_tree_add_page (tree, data, len, error))
        {
          g_prefix_error (error, "%s: ", repo);
          answer_clear (&a);
          return NULL;
        }
      g_free (url);
      url = g_steal_pointer (&a.next);
      answer_clear (&a);
    }
  return g_steal_pointer (&tree);
}

/* The body of one file of the repo: its first @range_end + 1 bytes by Range (@range_end >= 0),
 * or the whole file of at most @max_bytes. */
static GBytes *
read_bytes (HrHub         *hub,
            const char    *repo,
            const char    *revision,
            const char    *path,
            gint64         range_end,
            gsize          max_bytes,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autofree char *url = hr_hub_resolve_url (hub, repo, revision, path);
  g_autofree char *what = g_strdup_printf (_("the file %s of %s"), path, repo);
  Request req = { url, repo, what, range_end, max_bytes };
  Answer a = { 0 };
  GBytes *body;

  if (!fetch (hub, &req, &a, cancellable, error))
    return NULL;
  body = g_steal_pointer (&a.body);
  answer_clear (&a);
  return body;
}

GBytes *
hr_hub_read_file (HrHub         *hub,
                  const char    *repo,
                  const char    *revision,
                  const char    *path,
                  gsize          max_bytes,
                  GCancellable  *cancellable,
                  GError       **error)
{
  return read_bytes (hub, repo, revision, path, -1, max_bytes, cancellable, error);
}

GBytes *
hr_hub_read_range (HrHub         *hub,
                   const char    *repo,
                   const char    *revision,
                   const char    *path,
                   gsize          length,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_return_val_if_fail (length > 0, NULL);

  return read_bytes (hub, repo, revision, path, (gint64) length - 1, 0, cancellable, error);
}

HrSafetensors *
hr_hub_read_safetensors (HrHub         *hub,
                         const char    *repo,
                         const char    *revision,
                         const char    *path,
                         guint64        file_size,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *url = hr_hub_resolve_url (hub, repo, revision, path);
  g_autofree char *what = g_strdup_printf (_("the file %s of %s"), path, repo);
  Request req = { url, repo, what, HR_HUB_SAFETENSORS_FIRST_BYTES - 1, 0 };
  Answer a = { 0 };
  g_autoptr(GError) local = NULL;
  HrSafetensors *st;
  guint64 n;
  gsize len;
  const guint8 *data;

  if (file_size > 0 && file_size < HR_HUB_SAFETENSORS_FIRST_BYTES)
    req.range_end = (gint64) file_size - 1;
  if (!fetch (hub, &req, &a, cancellable, error))
    return NULL;
  data = g_bytes_get_data (a.body, &len);
  if (hr_safetensors_header_length (data, len, &n, &local) && len < 8 + n)
    {
      /* a longer header: ask for all of it (from 0, so a server without Range serves too) */
      answer_clear (&a);
      req.range_end = (gint64) (8 + n - 1);
      if (!fetch (hub, &req, &a, cancellable, error))
        return NULL;
      data = g_bytes_get_data (a.body, &len);
    }
  g_clear_error (&local);
  if (file_size == 0)
    file_size = a.total;
  st = hr_safetensors_parse (data, len, file_size, &local);
  answer_clear (&a);
  if (st == NULL)
    {
      g_set_error (error, local->domain, local->code, "%s (%s): %s", path, repo, local->message);
      return NULL;
    }
  return st;
}
