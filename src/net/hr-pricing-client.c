/* hr-pricing-client.c — the pricing feed over HTTP, and its on-disk cache
 *
 * The cache is written only from a feed that passed validation, atomically, so the offline
 * fallback is always the last good feed.  A cache that no longer parses is set aside rather
 * than deleted or overwritten, so a person can see what went wrong.
 */
#include "hr-pricing-client.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-file.h"
#include "hr-http.h"

/* Larger than any feed we accept; reading a bigger file would only be a waste of memory. */
#define CACHE_MAX_BYTES (2 * HR_PRICING_FEED_MAX_BYTES)

/* A fetch: the feed is parsed in a worker thread, so a heavy feed (4 MB of valid offers take
 * a fifth to half a second) never stops the main loop, and by the transfer's own deadline
 * (hr_http_get_timeout () from the request): a parse still running then ends the fetch with
 * a timeout, and what the worker returns later is dropped. */

typedef struct
{
  char *cache_path;   /* a refresh saves what it fetched; NULL: a fetch only returns it */
  char *host;         /* for the messages */
  guint timeout_s;    /* the transfer's timeout … */
  gint64 deadline;    /* … counted from the request (monotonic µs) */
  GSource *timer;     /* the deadline while the worker parses */
  gboolean returned;  /* the deadline answered first: the worker's result is dropped */
} Fetch;

static void
fetch_free (Fetch *f)
{
  if (f->timer != NULL)
    {
      g_source_destroy (f->timer);
      g_source_unref (f->timer);
    }
  g_free (f->cache_path);
  g_free (f->host);
  g_free (f);
}

static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GBytes *bytes = task_data;
  GError *error = NULL;
  HrPricing *pricing;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  pricing = hr_pricing_parse (data, size, "feed", &error);
  if (pricing == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, pricing, (GDestroyNotify) hr_pricing_free);
}

static gboolean
parse_deadline_cb (gpointer user_data)
{
  GTask *task = user_data;
  Fetch *f = g_task_get_task_data (task);

  g_clear_pointer (&f->timer, g_source_unref);
  f->returned = TRUE;
  g_task_return_new_error (task, HR_HTTP_ERROR, HR_HTTP_ERROR_TIMEOUT,
                           ngettext ("%s sent a feed that could not be read within %u second",
                                     "%s sent a feed that could not be read within %u seconds",
                                     f->timeout_s),
                           f->host, f->timeout_s);
  return G_SOURCE_REMOVE;
}

static void
parse_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *f = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricing) pricing = g_task_propagate_pointer (G_TASK (result), &error);

  if (f->returned)
    return;
  if (f->timer != NULL)
    {
      g_source_destroy (f->timer);
      g_clear_pointer (&f->timer, g_source_unref);
    }
  if (pricing == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (f->cache_path != NULL && !hr_pricing_cache_save (pricing, f->cache_path, &error))
    g_warning ("Could not save the pricing cache: %s", error->message);

  g_task_return_pointer (task, g_steal_pointer (&pricing), (GDestroyNotify) hr_pricing_free);
}

static void
fetch_bytes_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *f = g_task_get_task_data (task);
  g_autoptr(GTask) parse = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gint64 left_ms;

  bytes = hr_http_get_bytes_finish (result, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  left_ms = MAX ((f->deadline - g_get_monotonic_time ()) / 1000, 0);
  f->timer = g_timeout_source_new ((guint) MIN (left_ms, G_MAXUINT));
  g_source_set_callback (f->timer, parse_deadline_cb, g_object_ref (task), g_object_unref);
  g_source_attach (f->timer, g_task_get_context (task));

  parse = g_task_new (NULL, NULL, parse_done_cb, g_object_ref (task));
  g_task_set_source_tag (parse, fetch_bytes_cb);
  g_task_set_task_data (parse, g_bytes_ref (bytes), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (parse, parse_thread);
}

/* A refresh (@cache_path set) saves what it fetched; a fetch (NULL) only returns it. */
static void
fetch_start (const char          *url,
             char                *cache_path,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  Fetch *f = g_new0 (Fetch, 1);
  GTask *task;

  f->cache_path = cache_path;
  f->host = g_strdup (uri && g_uri_get_host (uri) ? g_uri_get_host (uri) : "?");
  f->timeout_s = hr_http_get_timeout ();
  f->deadline = g_get_monotonic_time () + (gint64) f->timeout_s * G_USEC_PER_SEC;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, f, (GDestroyNotify) fetch_free);
  hr_http_get_bytes_async (url, HR_PRICING_FEED_MAX_BYTES, cancellable, fetch_bytes_cb, task);
}

static HrPricing *
fetch_finish (GAsyncResult  *result,
              gpointer       source_tag,
              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
hr_pricing_client_fetch_async (const char          *url,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  fetch_start (url, NULL, hr_pricing_client_fetch_async, cancellable, callback, user_data);
}

HrPricing *
hr_pricing_client_fetch_finish (GAsyncResult  *result,
                                GError       **error)
{
  return fetch_finish (result, hr_pricing_client_fetch_async, error);
}

void
hr_pricing_client_refresh_async (const char          *url,
                                 const char          *cache_path,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  fetch_start (url,
               cache_path != NULL ? g_strdup (cache_path) : hr_pricing_cache_default_path (),
               hr_pricing_client_refresh_async, cancellable, callback, user_data);
}

HrPricing *
hr_pricing_client_refresh_finish (GAsyncResult  *result,
                                  GError       **error)
{
  return fetch_finish (result, hr_pricing_client_refresh_async, error);
}

char *
hr_pricing_cache_default_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "pricing.json", NULL);
}

HrPricing *
hr_pricing_cache_load (const char  *path,
                       GError     **error)
{
  g_autofree char *default_path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *corrupt_path = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GError) read_error = NULL;
  HrPricing *pricing = NULL;
  gboolean too_large = FALSE;
  gsize length = 0;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (path == NULL)
    path = default_path = hr_pricing_cache_default_path ();

  if (!hr_file_read_regular (path, CACHE_MAX_BYTES, &contents, &length, &too_large, &read_error))
    {
      /* a FIFO or a device in the cache's place is refused, not read until it ends */
      g_set_error (error, G_FILE_ERROR, read_error->code, _("Could not read the saved pricing %s: %s"),
                   path, read_error->message);
      return NULL;
    }
  if (too_large)
    g_set_error (&parse_error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE,
                 _("it is larger than any pricing feed"));
  else
    pricing = hr_pricing_parse (contents, length, "cache", &parse_error);

  if (pricing != NULL)
    return pricing;

  corrupt_path = g_strconcat (path, ".corrupt", NULL);
  if (g_rename (path, corrupt_path) == 0)
    g_set_error (error, HR_PRICING_ERROR, parse_error->code,
                 _("The saved pricing was damaged and has been moved to %s (%s)"),
                 corrupt_path, parse_error->message);
  else
    {
      int saved_errno = errno;

      g_set_error (error, HR_PRICING_ERROR, parse_error->code,
                   _("The saved pricing %s is damaged and could not be moved aside: %s (%s)"),
                   path, g_strerror (saved_errno), parse_error->message);
    }
  return NULL;
}

gboolean
hr_pricing_cache_save (const HrPricing  *pricing,
                       const char       *path,
                       GError          **error)
{
  g_autofree char *default_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *json = NULL;

  g_return_val_if_fail (pricing != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (pricing->offers == NULL || pricing->offers->len == 0)
    {
      g_set_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_EMPTY,
                   _("A pricing without offers is not worth saving"));
      return FALSE;
    }

  if (path == NULL)
    path = default_path = hr_pricing_cache_default_path ();

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Could not create %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  json = hr_pricing_to_json (pricing);
  return g_file_set_contents_full (path, json, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}
