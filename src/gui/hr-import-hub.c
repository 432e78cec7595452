/* hr-import-hub.c — a Hugging Face Hub repository chosen in the model picker, sized and added
 *
 * hr_hub_size_repo() (hr-hub-size.h) runs in a worker thread on a session of its own, on the
 * window's GCancellable; the model it makes is saved and chosen like any imported model
 * (hr_import_add_model: the user's models file, the catalog, the Size view).  A failure is one
 * toast; a cancelled sizing says nothing.
 */
#include "hr-import-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-hub-size.h"
#include "hr-hub-token.h"

/* "Sizing it…" only when the answer is slow to come: a fast one (a cached listing, a near Hub)
 * is told at once, not behind a toast that says it is coming (which cannot be taken back: a
 * toast dismissed while libadwaita 1.2 still animates it in crashes it). */
#define PROGRESS_DELAY_MS 1000

typedef struct
{
  HrImport *import;  /* the task's source object */
  guint progress_id;
  char *ref;
  char *endpoint;   /* Preferences' hub address */
  char *token;      /* Preferences' access token; NULL: the environment's (HF_TOKEN…) */
  char *detail;     /* what was read, for the toast */
} HubJob;

static void
hub_job_free (HubJob *job)
{
  g_clear_handle_id (&job->progress_id, g_source_remove);
  g_free (job->ref);
  g_free (job->endpoint);
  if (job->token != NULL)
    memset (job->token, 0, strlen (job->token));
  g_free (job->token);
  g_free (job->detail);
  g_free (job);
}

static void
size_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  HubJob *job = task_data;
  g_autofree char *cache = hr_hub_default_cache_dir ();
  g_autoptr(HrHub) hub = NULL;
  g_autoptr(HrHubSized) sized = NULL;
  GError *error = NULL;

  hub = hr_hub_new (job->endpoint, job->token, &error);
  if (hub != NULL)
    {
      /* chosen by the user: ask the Hub again (choosing it again is how it is refreshed) */
      hr_hub_set_cache (hub, cache, TRUE);
      sized = hr_hub_size_repo (hub, job->ref, cancellable, &error);
    }
  if (sized == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  {
    g_autofree char *size = g_format_size_full (sized->weight_bytes, G_FORMAT_SIZE_IEC_UNITS);

    if (sized->kind == HR_HUB_KIND_GGUF)
      job->detail = g_strdup_printf (_("%s, %s of tensors from the GGUF header"), sized->quant, size);
    else
      job->detail = g_strdup_printf (_("%s, %s of tensors from the safetensors headers"),
                                     sized->quant, size);
  }
  g_task_return_pointer (task, g_steal_pointer (&sized->model), (GDestroyNotify) hr_model_free);
}

static void
sized_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  HrImport *self = HR_IMPORT (source);
  HubJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  HrModel *model = g_task_propagate_pointer (G_TASK (result), &error);

  self->n_running--;
  g_clear_handle_id (&job->progress_id, g_source_remove);
  if (model == NULL)
    {
      g_autofree char *repo = g_strndup (job->ref, strcspn (job->ref, "@:"));
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* "Could not connect to huggingface.co…" names the repository it was for */
      message = strstr (error->message, repo) != NULL ? g_strdup (error->message)
                                                      : g_strdup_printf (_("%s: %s"), job->ref, error->message);
      hr_import_report_error (self, NULL, message);
      return;
    }
  hr_import_add_model (self, model, NULL, job->detail, FALSE);
}

/* Preferences' token is in: size it. */
static void
token_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HubJob *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *token = hr_hub_token_lookup_finish (result, NULL, &error);

  if (token == NULL)   /* cancelled */
    {
      if (error == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (*token != '\0')
    job->token = token;
  else
    g_free (token);
  g_task_run_in_thread (task, size_thread);
}

static gboolean
progress_cb (gpointer data)
{
  HubJob *job = data;

  job->progress_id = 0;
  hr_import_show_toast (job->import, _("Sizing it from the Hugging Face Hub…"), FALSE, FALSE);
  return G_SOURCE_REMOVE;
}

void
hr_import_size_hub (HrImport   *self,
                    const char *ref)
{
  GTask *task;
  HubJob *job;

  g_return_if_fail (HR_IS_IMPORT (self));
  g_return_if_fail (ref != NULL);

  job = g_new0 (HubJob, 1);
  job->ref = g_strdup (ref);
  if (self->settings != NULL)
    job->endpoint = g_settings_get_string (self->settings, "hub-endpoint");
  task = g_task_new (self, self->cancellable, sized_cb, NULL);
  g_task_set_source_tag (task, hr_import_size_hub);
  g_task_set_task_data (task, job, (GDestroyNotify) hub_job_free);
  self->n_running++;
  job->import = self;
  job->progress_id = g_timeout_add (PROGRESS_DELAY_MS, progress_cb, job);
  if (self->settings != NULL)
    hr_hub_token_lookup_async (self->settings, self->cancellable, token_cb, task);
  else
    {
      g_task_run_in_thread (task, size_thread);
      g_object_unref (task);
    }
}
