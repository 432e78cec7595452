/* hr-import-hub.c — a Hugging Face Hub repository chosen in the model picker, sized and added
 *
 * hr_hub_size_repo() (hr-hub-size.h) runs in a worker thread on a session of its own, on the
 * window's GCancellable; the model it makes is saved and chosen like any imported model
 * (hr_import_add_model: the user's models file, the catalog, the Size view).  A failure is one
 * toast; a cancelled sizing says nothing.  A slow sizing says "Sizing it…" after a second; its
 * answer withdraws that toast first, so that it does not come back after the answer.
 */
#include "hr-import-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-hub-size.h"
#include "hr-hub-token.h"
#include "hr-toast.h"

/* "Sizing it…" only when the answer is slow to come: a fast one (a cached listing, a near Hub)
 * is told at once, not behind a toast that says it is coming. */
#define PROGRESS_DELAY_MS 1000
/* The toast is withdrawn when the answer comes (an error toast, of high priority, would push it
 * back to return after it; an "Added" toast would wait behind it), but not while libadwaita 1.2
 * still animates it in: a toast dismissed then is freed when its hide animation ends (300 ms),
 * and its show animation (500 ms when it replaces another toast), still running, writes into it
 * when it ends (adw-toast-overlay.c, show_done_cb).  The toast is held, so that dismissing it
 * never reaches a toast its overlay has already let go. */
#define PROGRESS_SETTLE_MS 600

typedef struct
{
  HrImport *import;  /* the task's source object */
  guint progress_id;
  char *ref;
  char *endpoint;   /* Preferences' hub address */
  char *token;      /* Preferences' access token; NULL: the environment's (HF_TOKEN…) */
  char *detail;     /* what was read, for the toast */
  AdwToast *progress; /* "Sizing it…", held */
} HubJob;

/* What is told when the sizing is over, once "Sizing it…" is withdrawn. */
typedef struct
{
  HrImport *import;
  AdwToast *progress;
  HrModel *model;   /* sized, or NULL… */
  char *detail;
  char *message;    /* …and the error to tell */
} HubAnswer;

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
  g_clear_object (&job->progress);
  g_free (job);
}

/* When the toast's title was put on screen, in µs; 0 while it is not on screen. */
static void
progress_mapped_cb (GtkWidget *title,
                    AdwToast  *toast)
{
  gint64 *shown = g_object_get_data (G_OBJECT (toast), "hr-shown-us");

  *shown = gtk_widget_get_mapped (title) ? g_get_monotonic_time () : 0;
}

/* A toast whose title tells when it is on screen. */
static AdwToast *
progress_toast_new (const char *message)
{
  AdwToast *toast = hr_toast_new (message, HR_TOAST_INFO);
  GtkWidget *title = adw_toast_get_custom_title (toast);

  if (title == NULL)
    {
      title = gtk_label_new (message);
      gtk_label_set_wrap (GTK_LABEL (title), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
      adw_toast_set_custom_title (toast, title);
    }
  g_object_set_data_full (G_OBJECT (toast), "hr-shown-us", g_new0 (gint64, 1), g_free);
  g_signal_connect_object (title, "map", G_CALLBACK (progress_mapped_cb), toast, 0);
  g_signal_connect_object (title, "unmap", G_CALLBACK (progress_mapped_cb), toast, 0);
  return toast;
}

/* Dismisses @toast and returns 0, or returns how many ms it is still being animated in. */
static guint
withdraw_progress (AdwToast *toast)
{
  gint64 *shown = g_object_get_data (G_OBJECT (toast), "hr-shown-us");
  gint64 on_screen_ms = *shown > 0 ? (g_get_monotonic_time () - *shown) / 1000 : -1;

  if (on_screen_ms >= 0 && on_screen_ms < PROGRESS_SETTLE_MS)
    return (guint) (PROGRESS_SETTLE_MS - on_screen_ms);
  adw_toast_dismiss (toast);
  return 0;
}

static gboolean
answer_cb (gpointer data)
{
  HubAnswer *answer = data;
  guint wait_ms = answer->progress != NULL ? withdraw_progress (answer->progress) : 0;

  if (wait_ms > 0)
    {
      g_timeout_add (wait_ms, answer_cb, answer);
      return G_SOURCE_REMOVE;
    }
  answer->import->n_running--;
  if (answer->model != NULL)
    hr_import_add_model (answer->import, g_steal_pointer (&answer->model), NULL, answer->detail, FALSE);
  else
    hr_import_report_error (answer->import, NULL, answer->message);
  g_object_unref (answer->import);
  g_clear_object (&answer->progress);
  g_clear_pointer (&answer->model, hr_model_free);
  g_free (answer->detail);
  g_free (answer->message);
  g_free (answer);
  return G_SOURCE_REMOVE;
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
  HubAnswer *answer;

  g_clear_handle_id (&job->progress_id, g_source_remove);
  if (model == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->n_running--;
      return;
    }
  answer = g_new0 (HubAnswer, 1);
  answer->import = g_object_ref (self);
  answer->progress = g_steal_pointer (&job->progress);
  answer->model = model;
  answer->detail = g_steal_pointer (&job->detail);
  if (model == NULL)
    {
      g_autofree char *repo = g_strndup (job->ref, strcspn (job->ref, "@:"));

      /* "Could not connect to huggingface.co…" names the repository it was for */
      answer->message = strstr (error->message, repo) != NULL ? g_strdup (error->message)
                                                              : g_strdup_printf (_("%s: %s"), job->ref, error->message);
    }
  /* hr_import_add_model takes the model (hr-import.c); it is freed here only when not reached */
  answer_cb (answer);
}

/* Preferences' token is in: size it. */
static gboolean
progress_cb (gpointer data)
{
  HubJob *job = data;

  const char *message = _("Sizing it from the Hugging Face Hub…");
  AdwToast *toast;

  job->progress_id = 0;
  toast = hr_import_add_toast (job->import, progress_toast_new (message), message);
  if (toast != NULL)
    {
      g_set_object (&job->progress, toast);
      g_set_object (&job->import->progress_toast, toast);
    }
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
  hr_hub_token_run_in_thread (task, self->settings, &job->token, size_thread);
}
