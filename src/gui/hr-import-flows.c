/* hr-import-flows.c — your own model from a file, the hub or a GGUF header over HTTP
 *
 * A config.json or a GGUF file is read in a GTask thread (a big header takes a while); the
 * hub and remote headers run on the window's GCancellable, chained to one of their own when
 * the fetch dialog started them, so closing the dialog stops its fetch.  A cancelled flow
 * says nothing; every other ending is a toast or the dialog's inline error.
 */
#include "hr-import-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "hr-file.h"
#include "hr-gguf-remote.h"
#include "hr-http.h"
#include "hr-hfconfig.h"
#include "hr-hub-client.h"
#include "hr-hub-token.h"
#include "hr-import-state.h"

/* A model read in a worker thread by @read: a local file, or a remote header already fetched. */
typedef struct _FileJob FileJob;
typedef HrModel *(*ReadModelFunc) (FileJob  *job,
                                   GError  **error);

struct _FileJob
{
  ReadModelFunc read;
  char *path;
  char *display;     /* the file's name, for messages */
  HrGguf *gguf;      /* a remote header to turn into a model */
  HrGgufRemoteStats stats;
  gboolean complete;
  guint n_splits;
};

/* A fetch started from the fetch dialog (or by the tests without one). */
typedef struct
{
  HrImport *self;
  GCancellable *cancellable;
  char *what;        /* the repository id or the address */
} FetchOp;

static void
file_job_free (FileJob *job)
{
  g_free (job->path);
  g_free (job->display);
  g_clear_pointer (&job->gguf, hr_gguf_free);
  g_free (job);
}

static void
fetch_op_free (FetchOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->cancellable);
  g_free (op->what);
  g_free (op);
}

/* Workers: each reads a job's model off the main thread ---------------------------------------- */

static HrModel *
read_config (FileJob  *job,
             GError  **error)
{
  return hr_hfconfig_load_file (job->path, error);
}

static HrModel *
read_gguf (FileJob  *job,
           GError  **error)
{
  g_autoptr(HrGguf) gguf = hr_gguf_load_split (job->path, error);

  if (gguf == NULL)
    return NULL;
  job->complete = hr_gguf_is_complete (gguf);
  job->n_splits = hr_gguf_get_n_splits (gguf);
  return hr_import_model_from_gguf (gguf, job->path, error);
}

/* A GGUF file starts with "GGUF"; anything else is read as a config.json (whose reader says
 * what is wrong with it).  The content decides, not the file's name. */
static gboolean
starts_as_gguf (const char *path)
{
  /* without blocking in open () on a FIFO: a FIFO is not GGUF, and the config.json reader
   * then says it is not a regular file */
  int fd = hr_file_open_regular (path, NULL);
  char magic[4] = { 0 };
  gssize n;

  if (fd < 0)
    return FALSE;
  do
    n = read (fd, magic, sizeof magic);
  while (n < 0 && errno == EINTR);
  close (fd);
  return n == sizeof magic && memcmp (magic, "GGUF", sizeof magic) == 0;
}

static HrModel *
read_model_file (FileJob  *job,
                 GError  **error)
{
  return starts_as_gguf (job->path) ? read_gguf (job, error) : read_config (job, error);
}

static HrModel *
read_remote_header (FileJob  *job,
                    GError  **error)
{
  return hr_import_model_from_gguf (job->gguf, NULL, error);
}

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  FileJob *job = task_data;
  GError *error = NULL;
  HrModel *model = job->read (job, &error);

  if (model == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, model, (GDestroyNotify) hr_model_free);
}

/* Reads @job's model (@job transfer full) in a worker thread; @callback gets it. */
static void
run_job (HrImport            *self,
         FileJob             *job,
         GCancellable        *cancellable,
         GAsyncReadyCallback  callback,
         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, run_job);
  g_task_set_task_data (task, job, (GDestroyNotify) file_job_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, job_thread);
}

/* Fetches from the dialog --------------------------------------------------------------------- */

static void
chain_cancelled_cb (GCancellable *window_cancellable,
                    GCancellable *fetch_cancellable)
{
  g_cancellable_cancel (fetch_cancellable);
}

void
hr_import_drop_fetch (HrImport *self,
            gboolean  cancel)
{
  if (self->fetch_cancellable == NULL)
    return;
  if (self->fetch_chain_id != 0)
    g_cancellable_disconnect (self->cancellable, self->fetch_chain_id);
  self->fetch_chain_id = 0;
  if (cancel)
    g_cancellable_cancel (self->fetch_cancellable);
  g_clear_object (&self->fetch_cancellable);
}

static FetchOp *
start_fetch (HrImport   *self,
             const char *what)
{
  FetchOp *op = g_new0 (FetchOp, 1);

  hr_import_drop_fetch (self, TRUE);
  self->fetch_cancellable = g_cancellable_new ();
  if (self->cancellable != NULL)
    self->fetch_chain_id = g_cancellable_connect (self->cancellable, G_CALLBACK (chain_cancelled_cb),
                                                  self->fetch_cancellable, NULL);
  op->self = g_object_ref (self);
  op->cancellable = g_object_ref (self->fetch_cancellable);
  op->what = g_strdup (what);
  self->n_running++;
  return op;
}

/* The dialog to report to: the one open, while this fetch is the one it started. */
static HrFetchDialog *
op_dialog (FetchOp *op)
{
  HrImport *self = op->self;

  return self->fetch_dialog != NULL && self->fetch_cancellable == op->cancellable ? self->fetch_dialog : NULL;
}

/* Ends @op; TRUE when it was cancelled (nothing more to say). */
static gboolean
end_fetch (FetchOp      *op,
           const GError *error)
{
  HrImport *self = op->self;

  self->n_running--;
  if (self->fetch_cancellable == op->cancellable)
    hr_import_drop_fetch (self, FALSE);
  return (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) ||
         g_cancellable_is_cancelled (op->cancellable);
}

/* The end of a fetch that made @model (transfer full) or failed with @error: the model is
 * added (with @fetched, what was read), the failure told (after @what, when given). */
static void
finish_fetch (FetchOp    *op,
              HrModel    *model,
              GError     *error,
              const char *what,
              const char *fetched)
{
  HrFetchDialog *dialog = op_dialog (op);

  if (end_fetch (op, error))
    g_clear_pointer (&model, hr_model_free);
  else if (model == NULL)
    {
      g_autofree char *text = what ? g_strdup_printf (_("%s: %s"), what, error->message) : g_strdup (error->message);
      hr_import_report_error (op->self, dialog, text);
    }
  else
    hr_import_add_model (op->self, model, dialog, fetched, FALSE);
  fetch_op_free (op);
}

static void
hub_fetched_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  HrModel *model = hr_hub_fetch_config_finish (result, &error);

  finish_fetch (user_data, model, error, NULL, NULL);
}

static void
hub_token_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  FetchOp *op = user_data;
  HrImport *self = op->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = hr_hub_token_lookup_finish (result, NULL, &error);
  g_autofree char *endpoint = NULL;

  if (token == NULL || g_cancellable_is_cancelled (op->cancellable))
    {
      end_fetch (op, error);
      fetch_op_free (op);
      return;
    }
  endpoint = g_settings_get_string (self->settings, "hub-endpoint");
  hr_hub_fetch_config_async (*endpoint != '\0' ? endpoint : NULL, op->what, token, op->cancellable,
                             hub_fetched_cb, op);
}

static void
remote_model_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  FetchOp *op = user_data;
  FileJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  HrModel *model = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *fetched = hr_import_fetched_text (job->stats.bytes_fetched, job->stats.file_size,
                                                     job->stats.n_requests);

  finish_fetch (op, model, error, op->what, fetched);
}

static void
remote_loaded_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  FetchOp *op = user_data;
  HrImport *self = op->self;
  g_autoptr(GError) error = NULL;
  HrGgufRemoteStats stats = { 0 };
  HrGguf *gguf = hr_gguf_remote_load_finish (result, &stats, &error);
  FileJob *job;

  if (gguf == NULL || g_cancellable_is_cancelled (op->cancellable))
    {
      HrFetchDialog *dialog = op_dialog (op);

      g_clear_pointer (&gguf, hr_gguf_free);
      if (!end_fetch (op, error))
        {
          g_autofree char *fetched = hr_import_fetched_text (stats.bytes_fetched, stats.file_size, stats.n_requests);
          g_autofree char *text = stats.bytes_fetched > 0
            /* TRANSLATORS: an error, then what was read before it: "…: HTTP 404 (Read 0 B …)" */
            ? g_strdup_printf (_("%s (%s)"), error->message, fetched)
            : g_strdup (error->message);

          hr_import_report_error (self, dialog, text);
        }
      fetch_op_free (op);
      return;
    }

  job = g_new0 (FileJob, 1);
  job->read = read_remote_header;
  job->gguf = gguf;
  job->stats = stats;
  if (op_dialog (op) != NULL)
    {
      g_autofree char *fetched = hr_import_fetched_text (stats.bytes_fetched, stats.file_size, stats.n_requests);
      hr_fetch_dialog_set_busy (op_dialog (op), fetched);
    }
  run_job (self, job, op->cancellable, remote_model_cb, op);
}

static void
fetch_submit_cb (HrFetchDialog *dialog,
                 const char    *text,
                 HrImport      *self)
{
  if (hr_fetch_dialog_get_kind (dialog) == HR_FETCH_HUB)
    hr_import_fetch_config (self, text);
  else
    hr_import_open_gguf_url (self, text);
}

static void
fetch_cancelled_cb (HrFetchDialog *dialog,
                    HrImport      *self)
{
  hr_import_drop_fetch (self, TRUE);
}

void
hr_import_open_fetch_dialog (HrImport    *self,
                   HrFetchKind  kind)
{
  g_autofree char *description = NULL;

  if (self->fetch_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->fetch_dialog));
  if (kind == HR_FETCH_HUB)
    {
      g_autofree char *endpoint = g_settings_get_string (self->settings, "hub-endpoint");

      /* TRANSLATORS: where config.json comes from; %s is the hub address set in Preferences */
      description = g_strdup_printf (_("Reads the model’s config.json from %s (change the hub in Preferences). "
                                       "A private or gated model needs the access token set there."),
                                     *endpoint != '\0' ? endpoint : HR_HUB_DEFAULT_ENDPOINT);
    }
  else
    description = g_strdup (_("Only the file’s header is read, with HTTP range requests: a few MiB, never the "
                              "weights. A Hugging Face page address works too."));
  self->fetch_dialog = hr_fetch_dialog_new (hr_import_dialog_parent (self), kind, description);
  g_object_add_weak_pointer (G_OBJECT (self->fetch_dialog), (gpointer *) &self->fetch_dialog);
  g_signal_connect_object (self->fetch_dialog, "submit", G_CALLBACK (fetch_submit_cb), self, 0);
  g_signal_connect_object (self->fetch_dialog, "cancelled", G_CALLBACK (fetch_cancelled_cb), self, 0);
  gtk_window_present (GTK_WINDOW (self->fetch_dialog));
}

/* Files ---------------------------------------------------------------------------------------- */

static void
file_read_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  HrImport *self = HR_IMPORT (source);
  FileJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  HrModel *model = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *detail = NULL;

  self->n_running--;
  if (model == NULL)
    {
      g_autofree char *text = NULL;
      const char *reason;
      gsize len = strlen (job->display);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* the GGUF reader names the file itself: once is enough */
      reason = error->message;
      if (g_str_has_prefix (reason, job->display) && strncmp (reason + len, ": ", 2) == 0)
        reason += len + 2;
      /* TRANSLATORS: "Could not read “config.json”: missing num_hidden_layers" */
      text = g_strdup_printf (_("Could not read “%s”: %s"), job->display, reason);
      hr_import_show_toast (self, text, TRUE, FALSE);
      return;
    }
  if (model->origin == HR_MODEL_ORIGIN_GGUF)
    {
      g_autofree char *bytes = g_format_size_full (model->gguf_bytes, G_FORMAT_SIZE_IEC_UNITS);

      if (!job->complete)
        /* TRANSLATORS: "Q4_K_M, 4.6 GiB of weights — the file is shorter than its header says" */
        detail = g_strdup_printf (_("%s, %s of weights; the file is shorter than its header says "
                                    "(an unfinished download?)"),
                                  model->gguf_quant ? model->gguf_quant : "GGUF", bytes);
      else if (job->n_splits > 1)
        /* TRANSLATORS: "Q4_K_M, 120 GiB of weights in 3 parts" */
        detail = g_strdup_printf (_("%s, %s of weights in %u parts"),
                                  model->gguf_quant ? model->gguf_quant : "GGUF", bytes, job->n_splits);
      else
        /* TRANSLATORS: "Q4_K_M, 4.6 GiB of weights" */
        detail = g_strdup_printf (_("%s, %s of weights"), model->gguf_quant ? model->gguf_quant : "GGUF", bytes);
    }
  hr_import_add_model (self, model, NULL, detail, FALSE);
}

static void
read_file (HrImport      *self,
           GFile         *file,
           ReadModelFunc  read)
{
  FileJob *job;

  g_return_if_fail (HR_IS_IMPORT (self));
  g_return_if_fail (G_IS_FILE (file));

  job = g_new0 (FileJob, 1);
  job->read = read;
  job->path = g_file_get_path (file);
  job->display = g_file_get_basename (file);
  if (job->path == NULL)
    {
      /* TRANSLATORS: a file chosen from a place that is not a local folder */
      g_autofree char *text = g_strdup_printf (_("Could not read “%s”: only local files can be opened"),
                                               job->display);
      hr_import_show_toast (self, text, TRUE, FALSE);
      file_job_free (job);
      return;
    }
  self->n_running++;
  run_job (self, job, self->cancellable, file_read_cb, NULL);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     HrImport        *self)
{
  g_autoptr(GFile) file = NULL;
  HrImportChooserKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "kind"));

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (chooser))
    g_clear_object (&self->chooser);
  if (file == NULL)
    return;
  if (kind == HR_IMPORT_CHOOSE_CONFIG)
    hr_import_open_config_file (self, file);
  else if (kind == HR_IMPORT_CHOOSE_GGUF)
    hr_import_open_gguf_file (self, file);
  else
    hr_import_open_model_file (self, file);
}

static void
add_config_patterns (GtkFileFilter *filter)
{
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_filter_add_mime_type (filter, "application/json");
}

/* The chooser's filters for @kind, the first the one in use; "All files" last. */
static GPtrArray *
chooser_filters (HrImportChooserKind kind)
{
  GPtrArray *filters = g_ptr_array_new_with_free_func (g_object_unref);
  GtkFileFilter *both = gtk_file_filter_new ();
  GtkFileFilter *gguf = gtk_file_filter_new ();
  GtkFileFilter *config = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  gtk_file_filter_set_name (both, _("Model files (GGUF, config.json)"));
  gtk_file_filter_add_suffix (both, "gguf");
  add_config_patterns (both);
  gtk_file_filter_set_name (gguf, _("GGUF models"));
  gtk_file_filter_add_suffix (gguf, "gguf");
  gtk_file_filter_set_name (config, _("Model configuration (config.json)"));
  add_config_patterns (config);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");

  if (kind == HR_IMPORT_CHOOSE_ANY)
    g_ptr_array_add (filters, g_object_ref (both));
  g_ptr_array_add (filters, g_object_ref (kind == HR_IMPORT_CHOOSE_CONFIG ? config : gguf));
  if (kind == HR_IMPORT_CHOOSE_ANY)
    g_ptr_array_add (filters, g_object_ref (config));
  g_ptr_array_add (filters, g_object_ref (all));
  g_object_unref (both);
  g_object_unref (gguf);
  g_object_unref (config);
  g_object_unref (all);
  return filters;
}

static const char *
chooser_title (HrImportChooserKind kind)
{
  switch (kind)
    {
    case HR_IMPORT_CHOOSE_CONFIG:
      return _("Import config.json");
    case HR_IMPORT_CHOOSE_GGUF:
      return _("Open GGUF File");
    case HR_IMPORT_CHOOSE_ANY:
    default:
      return _("Open Model File");
    }
}

void
hr_import_open_chooser (HrImport            *self,
                        HrImportChooserKind  kind)
{
  g_autoptr(GPtrArray) filters = chooser_filters (kind);

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  self->chooser = gtk_file_chooser_native_new (chooser_title (kind), hr_import_dialog_parent (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  for (guint i = 0; i < filters->len; i++)
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), g_ptr_array_index (filters, i));
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), g_ptr_array_index (filters, 0));
  g_object_set_data (G_OBJECT (self->chooser), "kind", GINT_TO_POINTER (kind));
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Public API ----------------------------------------------------------------------------------- */

void
hr_import_open_config_file (HrImport *self,
                            GFile    *file)
{
  read_file (self, file, read_config);
}

void
hr_import_open_gguf_file (HrImport *self,
                          GFile    *file)
{
  read_file (self, file, read_gguf);
}

void
hr_import_open_model_file (HrImport *self,
                           GFile    *file)
{
  g_return_if_fail (HR_IS_IMPORT (self));
  g_return_if_fail (G_IS_FILE (file));
  read_file (self, file, read_model_file);
}

void
hr_import_fetch_config (HrImport   *self,
                        const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  /* the id in a pasted hub address (https://huggingface.co/org/name/tree/main …) */
  g_autofree char *repo = hr_hub_repo_id_from_text (text);
  FetchOp *op;

  g_return_if_fail (HR_IS_IMPORT (self));

  if (!hr_hub_check_repo_id (repo, &error))
    {
      hr_import_report_error (self, self->fetch_dialog, error->message);
      return;
    }
  op = start_fetch (self, repo);
  if (op_dialog (op) != NULL)
    {
      /* TRANSLATORS: %s is a repository id such as Qwen/Qwen3-8B */
      status = g_strdup_printf (_("Fetching the config.json of %s…"), repo);
      hr_fetch_dialog_set_busy (op_dialog (op), status);
    }
  hr_hub_token_lookup_async (self->settings, op->cancellable, hub_token_cb, op);
}

void
hr_import_open_gguf_url (HrImport   *self,
                         const char *url)
{
  FetchOp *op;

  g_return_if_fail (HR_IS_IMPORT (self));

  if (url == NULL || !hr_gguf_remote_is_url (url))
    {
      hr_import_report_error (self, self->fetch_dialog, _("Enter an http:// or https:// address of a .gguf file"));
      return;
    }
  {
    /* what a failure's message names: without the user:password@ the address may carry */
    g_autofree char *shown = hr_http_url_for_display (url);

    op = start_fetch (self, shown);
  }
  if (op_dialog (op) != NULL)
    hr_fetch_dialog_set_busy (op_dialog (op), _("Reading the GGUF header…"));
  hr_gguf_remote_load_async (url, op->cancellable, remote_loaded_cb, op);
}
