/* hr-skypilot-client.c — the SkyPilot catalog over HTTPS, one file per cloud, and its cache
 *
 * One Fetch per cloud: send, then read a chunk at a time, handing each chunk to the parser and
 * to a temporary file; the file is renamed over the cache only when the body ended and parsed.
 * At most HR_SKYPILOT_MAX_BYTES are read, and no more than a chunk is held in memory besides
 * the offers kept.
 */
#include "hr-skypilot-client.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hr-file.h"
#include "hr-http.h"
#include "hr-net-reader.h"

#define FILE_CHUNK (64 * 1024)

typedef struct
{
  GTask *task;              /* the refresh; owned by the refresh, not by a fetch */
  guint pending;
  GStrv asked;              /* the clouds, in the order asked for */
  HrSkypilotRefresh *result;
} Refresh;

typedef struct
{
  Refresh *refresh;
  char *cloud;
  char *url;
  char *cache_dir;
  char *tmp_path;
  FILE *tmp;
  HrSkypilotParser *parser;
  HrNetReader *reader;
  GByteArray *buf;
} Fetch;

/* Paths ---------------------------------------------------------------------------------------- */

char *
hr_skypilot_base_url (const char *configured)
{
  const char *env = g_getenv ("HEADROOM_CATALOG_BASE");
  g_autofree char *base = NULL;
  gsize n;

  if (env != NULL && env[0] != '\0')
    base = g_strdup (env);
  else if (configured != NULL && configured[0] != '\0')
    base = g_strstrip (g_strdup (configured));
  else
    base = g_strdup (HR_SKYPILOT_DEFAULT_BASE);

  n = strlen (base);
  while (n > 0 && base[n - 1] == '/')
    base[--n] = '\0';
  return g_steal_pointer (&base);
}

char *
hr_skypilot_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "skypilot", NULL);
}

static char *
cache_path (const char *cache_dir,
            const char *cloud)
{
  g_autofree char *name = g_strconcat (cloud, ".csv", NULL);

  return g_build_filename (cache_dir, name, NULL);
}

static char *
file_url (const char *base,
          const char *cloud)
{
  return g_strdup_printf ("%s/%s/vms.csv", base, cloud);
}

gint64
hr_skypilot_cache_age (const char *cache_dir,
                       const char *cloud)
{
  g_autofree char *path = cache_path (cache_dir, cloud);
  GStatBuf st;

  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return G_MAXINT64;
  return g_get_real_time () / G_USEC_PER_SEC - (gint64) st.st_mtime;
}

HrSkypilotCloud *
hr_skypilot_cache_load (const char       *cache_dir,
                        const char       *cloud,
                        const HrCatalog  *catalog,
                        const char       *base,
                        GError          **error)
{
  g_autofree char *path = cache_path (cache_dir, cloud);
  g_autoptr(HrSkypilotParser) parser = NULL;
  g_autoptr(GDateTime) when = NULL;
  HrSkypilotCloud *result;
  g_autoptr(GError) open_error = NULL;
  struct stat st;
  char chunk[FILE_CHUNK];
  gsize total = 0;
  gssize n;
  int fd;

  /* without blocking in open () (a FIFO in its place), and only a regular file */
  fd = hr_file_open_regular (path, &open_error);
  if (fd < 0 && g_error_matches (open_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, _("No saved catalog for %s"), cloud);
      return NULL;
    }
  if (fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, open_error->code, _("Could not read %s: %s"), path, open_error->message);
      return NULL;
    }
  if (fstat (fd, &st) != 0 || st.st_size > HR_SKYPILOT_MAX_BYTES)
    {
      g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_MALFORMED,
                   _("The saved catalog %s is larger than any catalog file"), path);
      close (fd);
      return NULL;
    }

  parser = hr_skypilot_parser_new (cloud, catalog);
  /* read to the cap, not to the size seen at open: the file may grow */
  while ((n = read (fd, chunk, sizeof chunk)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       _("Could not read %s: %s"), path, g_strerror (saved_errno));
          close (fd);
          return NULL;
        }
      total += (gsize) n;
      if (total > HR_SKYPILOT_MAX_BYTES)
        {
          g_set_error (error, HR_SKYPILOT_ERROR, HR_SKYPILOT_ERROR_MALFORMED,
                       _("The saved catalog %s is larger than any catalog file"), path);
          close (fd);
          return NULL;
        }
      if (!hr_skypilot_parser_feed (parser, chunk, (gsize) n, error))
        {
          close (fd);
          return NULL;
        }
    }
  close (fd);

  result = hr_skypilot_parser_finish (g_steal_pointer (&parser), error);
  if (result == NULL)
    return NULL;
  when = g_date_time_new_from_unix_utc ((gint64) st.st_mtime);
  result->source = g_strdup ("cache");
  result->date = g_date_time_format (when, "%Y-%m-%dT%H:%M:%SZ");
  result->url = file_url (base, cloud);
  return result;
}

/* One cloud -------------------------------------------------------------------------------- */

static void
fetch_free (Fetch *f)
{
  if (f->tmp != NULL)
    fclose (f->tmp);
  if (f->tmp_path != NULL)
    g_unlink (f->tmp_path);
  g_free (f->tmp_path);
  hr_skypilot_parser_free (f->parser);
  hr_net_reader_free (f->reader);
  g_clear_pointer (&f->buf, g_byte_array_unref);
  g_free (f->cloud);
  g_free (f->url);
  g_free (f->cache_dir);
  g_free (f);
}

/* Where @cloud stands in the order the clouds were asked for. */
static guint
asked_rank (const Refresh *r,
            const char    *cloud)
{
  guint i = 0;

  while (r->asked[i] != NULL && g_strcmp0 (r->asked[i], cloud) != 0)
    i++;
  return i;
}

static gint
cloud_by_rank (gconstpointer a,
               gconstpointer b,
               gpointer      refresh)
{
  return (gint) asked_rank (refresh, (*(HrSkypilotCloud *const *) a)->cloud)
         - (gint) asked_rank (refresh, (*(HrSkypilotCloud *const *) b)->cloud);
}

static void
refresh_one_done (Refresh *r)
{
  if (--r->pending > 0)
    return;
  /* in the order asked, whichever answered first: two refreshes list the same clouds alike */
  g_ptr_array_sort_with_data (r->result->clouds, cloud_by_rank, r);
  if (g_task_return_error_if_cancelled (r->task))
    hr_skypilot_refresh_free (r->result);
  else
    g_task_return_pointer (r->task, r->result, (GDestroyNotify) hr_skypilot_refresh_free);
  g_object_unref (r->task);
  g_strfreev (r->asked);
  g_free (r);
}

/* Ends @f with @error (taken), or with success when NULL. */
static void
fetch_done (Fetch  *f,
            GError *error)
{
  Refresh *r = f->refresh;

  if (error != NULL)
    {
      GPtrArray *ids = r->result->failed_ids;
      guint at = 0;

      /* kept in the order asked, like the clouds */
      while (at < ids->len && asked_rank (r, g_ptr_array_index (ids, at)) < asked_rank (r, f->cloud))
        at++;
      g_ptr_array_insert (r->result->failed, (gint) at,
                          g_strdup_printf ("%s: %s", hr_skypilot_cloud_display (f->cloud), error->message));
      g_ptr_array_insert (ids, (gint) at, g_strdup (f->cloud));
      g_error_free (error);
    }
  fetch_free (f);
  refresh_one_done (r);
}

/* The body is all here and parsed: the temporary file becomes the cache. */
static void
fetch_complete (Fetch *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  HrSkypilotCloud *cloud;

  cloud = hr_skypilot_parser_finish (g_steal_pointer (&f->parser), &error);
  if (cloud == NULL)
    {
      fetch_done (f, g_steal_pointer (&error));
      return;
    }
  cloud->source = g_strdup ("network");
  cloud->date = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  cloud->url = g_strdup (f->url);
  g_ptr_array_add (f->refresh->result->clouds, cloud);

  if (f->tmp != NULL)
    {
      int failed = fclose (f->tmp);

      f->tmp = NULL;
      path = cache_path (f->cache_dir, f->cloud);
      if (failed != 0 || g_rename (f->tmp_path, path) != 0)
        g_warning ("Could not save the %s catalog to %s: %s", f->cloud, path, g_strerror (errno));
      else
        g_clear_pointer (&f->tmp_path, g_free);
    }
  fetch_done (f, NULL);
}

static void chunk_read (Fetch *f);

static void
read_more (Fetch *f)
{
  g_byte_array_set_size (f->buf, 0);
  hr_net_step_read (f->buf, 1, &(HrNetStep) { &f->reader, (HrNetNextFunc) chunk_read,
                                              (HrNetFailFunc) fetch_done, f });
}

static GError *
too_large_error (void)
{
  g_autofree char *limit = g_format_size_full (HR_SKYPILOT_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (HR_HTTP_ERROR, HR_HTTP_ERROR_TOO_LARGE,
                      _("The catalog file is larger than %s"), limit);
}

static void
chunk_read (Fetch *f)
{
  GError *error = NULL;

  if (hr_net_reader_get_bytes_read (f->reader) > HR_SKYPILOT_MAX_BYTES)
    {
      fetch_done (f, too_large_error ());
      return;
    }
  if (!hr_skypilot_parser_feed (f->parser, (const char *) f->buf->data, f->buf->len, &error))
    {
      fetch_done (f, error);
      return;
    }
  if (f->tmp != NULL && f->buf->len > 0 && fwrite (f->buf->data, 1, f->buf->len, f->tmp) != f->buf->len)
    {
      /* a full disk loses the cache, not the prices */
      g_warning ("Could not write %s: %s", f->tmp_path, g_strerror (errno));
      fclose (f->tmp);
      f->tmp = NULL;
    }

  if (hr_net_reader_is_eof (f->reader) || f->buf->len == 0)
    fetch_complete (f);
  else
    read_more (f);
}

static void
open_tmp (Fetch *f)
{
  g_autofree char *name = NULL;
  int fd;

  if (f->cache_dir == NULL || g_mkdir_with_parents (f->cache_dir, 0700) != 0)
    return;
  name = g_strdup_printf ("%s.csv.XXXXXX", f->cloud);
  f->tmp_path = g_build_filename (f->cache_dir, name, NULL);
  fd = g_mkstemp_full (f->tmp_path, O_RDWR, 0644);
  if (fd < 0 || (f->tmp = fdopen (fd, "wb")) == NULL)
    {
      if (fd >= 0)
        close (fd);
      g_clear_pointer (&f->tmp_path, g_free);
    }
}

static void
answered (Fetch *f)
{
  SoupMessage *msg = hr_net_reader_get_message (f->reader);

  if (!SOUP_STATUS_IS_SUCCESSFUL (hr_net_reader_get_status (f->reader)))
    {
      /* TRANSLATORS: what was not found, e.g. "The catalog file aws/vms.csv" */
      g_autofree char *what = g_strdup_printf (_("The catalog file %s/vms.csv"), f->cloud);

      fetch_done (f, hr_net_status_error (msg, what));
      return;
    }
  if (hr_http_declares_over (msg, HR_SKYPILOT_MAX_BYTES))
    {
      fetch_done (f, too_large_error ());
      return;
    }
  open_tmp (f);
  read_more (f);
}

static void
fetch_start (Refresh         *r,
             const char      *base,
             const char      *cloud,
             const HrCatalog *catalog,
             const char      *cache_dir,
             GCancellable    *cancellable)
{
  Fetch *f = g_new0 (Fetch, 1);
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GUri) uri = NULL;
  GError *error = NULL;

  f->refresh = r;
  f->cloud = g_strdup (cloud);
  f->url = file_url (base, cloud);
  f->cache_dir = g_strdup (cache_dir);
  f->parser = hr_skypilot_parser_new (cloud, catalog);
  f->buf = g_byte_array_new ();
  r->pending++;

  uri = hr_http_parse_web_url (f->url, &error);
  if (uri == NULL)
    {
      fetch_done (f, error);
      return;
    }
  msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  hr_net_step_send (msg, hr_net_budget_new (HR_SKYPILOT_TIMEOUT), cancellable,
                    &(HrNetStep) { &f->reader, (HrNetNextFunc) answered,
                                   (HrNetFailFunc) fetch_done, f });
}

void
hr_skypilot_refresh_async (const char          *base,
                           const char *const   *clouds,
                           const HrCatalog     *catalog,
                           const char          *cache_dir,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  Refresh *r;

  g_return_if_fail (base != NULL);
  g_return_if_fail (catalog != NULL);

  r = g_new0 (Refresh, 1);
  r->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (r->task, hr_skypilot_refresh_async);
  r->result = g_new0 (HrSkypilotRefresh, 1);
  r->result->clouds = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);
  r->result->failed = g_ptr_array_new_with_free_func (g_free);
  r->result->failed_ids = g_ptr_array_new_with_free_func (g_free);
  r->asked = clouds != NULL ? g_strdupv ((char **) clouds) : g_new0 (char *, 1);

  hr_skypilot_cache_clean_stale (cache_dir);
  /* held so that a cloud finishing at once does not end the refresh before the others start */
  r->pending = 1;
  for (guint i = 0; clouds != NULL && clouds[i] != NULL; i++)
    fetch_start (r, base, clouds[i], catalog, cache_dir, cancellable);
  refresh_one_done (r);
}

/* Temporary files of downloads that never finished (the app or the CLI killed mid-way:
 * "aws.csv.K3x9Qa") are removed once an hour old; a younger one may be another process's
 * download in progress. */
#define STALE_TMP_SECONDS 3600

static gboolean
is_tmp_name (const char *name)
{
  const char *dot = strstr (name, ".csv.");

  /* CLOUD.csv.XXXXXX, as open_tmp () names them */
  return dot != NULL && dot != name && strlen (dot + 5) == 6 && strchr (dot + 5, '.') == NULL;
}

void
hr_skypilot_cache_clean_stale (const char *cache_dir)
{
  g_autoptr(GDir) dir = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  const char *name;

  if (cache_dir == NULL || (dir = g_dir_open (cache_dir, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (!is_tmp_name (name))
        continue;
      path = g_build_filename (cache_dir, name, NULL);
      if (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode) && now - (gint64) st.st_mtime > STALE_TMP_SECONDS)
        g_unlink (path);
    }
}

HrSkypilotRefresh *
hr_skypilot_refresh_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
hr_skypilot_refresh_free (HrSkypilotRefresh *refresh)
{
  if (refresh == NULL)
    return;
  g_clear_pointer (&refresh->clouds, g_ptr_array_unref);
  g_clear_pointer (&refresh->failed, g_ptr_array_unref);
  g_clear_pointer (&refresh->failed_ids, g_ptr_array_unref);
  g_free (refresh);
}

/* Putting it together --------------------------------------------------------------------- */

GPtrArray *
hr_skypilot_load_clouds (const HrCatalog   *catalog,
                         const char        *cache_dir,
                         const char        *base,
                         const char *const *clouds)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_skypilot_cloud_free);

  for (guint i = 0; clouds != NULL && clouds[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      HrSkypilotCloud *cloud = NULL;

      if (cache_dir != NULL)
        cloud = hr_skypilot_cache_load (cache_dir, clouds[i], catalog, base, &error);
      if (cloud == NULL && error != NULL && !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_message ("The saved %s catalog is not used: %s", clouds[i], error->message);
      if (cloud == NULL)
        cloud = hr_skypilot_snapshot_load (clouds[i], catalog, NULL);
      if (cloud != NULL)
        g_ptr_array_add (result, cloud);
    }
  return result;
}

void
hr_skypilot_clouds_replace (GPtrArray       *clouds,
                            HrSkypilotCloud *cloud)
{
  for (guint i = 0; i < clouds->len; i++)
    {
      HrSkypilotCloud *have = g_ptr_array_index (clouds, i);

      if (g_str_equal (have->cloud, cloud->cloud))
        {
          hr_skypilot_cloud_free (have);
          clouds->pdata[i] = cloud;
          return;
        }
    }
  g_ptr_array_add (clouds, cloud);
}

HrSkypilotFallback
hr_skypilot_fallback (GPtrArray  *clouds,
                      const char *cloud)
{
  for (guint i = 0; i < clouds->len; i++)
    {
      const HrSkypilotCloud *c = g_ptr_array_index (clouds, i);

      if (g_str_equal (c->cloud, cloud))
        return g_strcmp0 (c->source, "snapshot") == 0 ? HR_SKYPILOT_FALLBACK_SNAPSHOT
                                                      : HR_SKYPILOT_FALLBACK_CACHE;
    }
  return HR_SKYPILOT_FALLBACK_NONE;
}

static const char *
clouds_source (GPtrArray *clouds)
{
  gboolean cache = FALSE;

  for (guint i = 0; i < clouds->len; i++)
    {
      const HrSkypilotCloud *c = g_ptr_array_index (clouds, i);

      if (g_strcmp0 (c->source, "snapshot") == 0)
        return "catalog-snapshot";
      cache |= g_strcmp0 (c->source, "cache") == 0;
    }
  return cache ? "catalog-cache" : "catalog-network";
}

HrPricing *
hr_skypilot_build_pricing (GPtrArray              *clouds,
                           const HrSkypilotChoice *choice,
                           const HrPricing        *feed)
{
  HrPricing *pricing;

  if (clouds == NULL || clouds->len == 0)
    return feed != NULL ? hr_pricing_copy (feed) : hr_pricing_new ();

  pricing = hr_skypilot_select (clouds, choice, clouds_source (clouds));
  if (feed != NULL && feed->offers != NULL)
    {
      for (guint i = 0; i < feed->offers->len; i++)
        g_ptr_array_add (pricing->offers, hr_offer_copy (g_ptr_array_index (feed->offers, i)));
      pricing->feed_updated = g_strdup (feed->updated);
      pricing->skipped += feed->skipped;
      pricing->unread += feed->unread;
    }
  return pricing;
}
