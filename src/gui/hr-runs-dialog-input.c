/* hr-runs-dialog-input.c — Import Measurements: a file, the clipboard, a drop, llama-bench */
#include "hr-runs-dialog-private.h"

#include <glib/gi18n-lib.h>

#include "hr-file.h"

/* What llama-bench is asked to measure: short, the figures Headroom predicts (README) */
static const char * const bench_args[] = { "-p", "512", "-n", "128", "-r", "2", "-o", "json" };

/* Reading a file --------------------------------------------------------------------------- */

static void
read_file_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  /* one byte more than a reader takes: a longer file is refused by the reader, with its reason */
  if (!hr_file_read_regular (path, HR_RUNS_MAX_BYTES + 1, &contents, &length, NULL, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_bytes_new_take (contents, length), (GDestroyNotify) g_bytes_unref);
}

static void
read_file_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_task_propagate_pointer (G_TASK (result), &error);
  HrRunsDialog *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = HR_RUNS_DIALOG (object);
  hr_runs_dialog_set_busy (self, NULL);
  if (bytes == NULL)
    {
      const char *path = g_task_get_task_data (G_TASK (result));
      g_autofree char *base = g_path_get_basename (path);
      /* TRANSLATORS: a file that could not be read, "runs.txt cannot be read: not a regular file" */
      g_autofree char *msg = g_strdup_printf (_("%s cannot be read: %s"), base, error->message);
      hr_runs_dialog_show_error (self, msg);
      return;
    }
  hr_runs_state_set_text (self->state, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  hr_runs_dialog_refresh (self);
}

/* Running llama-bench -------------------------------------------------------------------------- */

static gboolean
bench_tick_cb (gpointer user_data)
{
  HrRunsDialog *self = user_data;
  int seconds = (int) ((g_get_monotonic_time () - self->bench_start) / G_USEC_PER_SEC);
  /* TRANSLATORS: llama-bench running, "Running llama-bench on qwen2.5-7b-q4_k_m.gguf… 12 s" */
  g_autofree char *text = g_strdup_printf (_("Running llama-bench on %s… %d s"), self->bench_name, seconds);

  gtk_label_set_text (self->status_label, text);
  return G_SOURCE_CONTINUE;
}

/* The last line llama-bench wrote to its error output: what went wrong */
static char *
last_line (GBytes *bytes)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    return NULL;
  text = g_utf8_make_valid (g_bytes_get_data (bytes, NULL), MIN (g_bytes_get_size (bytes), 1 << 20));
  lines = g_strsplit (g_strstrip (text), "\n", -1);
  for (int i = g_strv_length (lines) - 1; i >= 0; i--)
    if (*g_strstrip (lines[i]) != '\0')
      return g_strdup (lines[i]);
  return NULL;
}

static void
bench_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(HrRunsDialog) self = user_data;
  GSubprocess *proc = G_SUBPROCESS (object);
  g_autoptr(GBytes) out = NULL, err = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_communicate_finish (proc, result, &out, &err, &error) || self->session == NULL)
    {
      if (self->session == NULL)
        return;   /* closed meanwhile */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* hr_runs_dialog_cancel () stopped it and said so */
      hr_runs_dialog_set_busy (self, NULL);
      hr_runs_dialog_show_error (self, error->message);
      return;
    }
  hr_runs_dialog_set_busy (self, NULL);
  if (!g_subprocess_get_successful (proc))
    {
      g_autofree char *why = last_line (err);
      /* TRANSLATORS: llama-bench ended with an error; %s is the last line it printed */
      g_autofree char *msg = g_strdup_printf (_("llama-bench failed: %s"),
                                              why ? why : _("it printed no reason"));
      hr_runs_dialog_show_error (self, msg);
      return;
    }
  hr_runs_state_set_text (self->state, out ? g_bytes_get_data (out, NULL) : "",
                          out ? (gssize) g_bytes_get_size (out) : 0);
  hr_runs_dialog_refresh (self);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     HrRunsDialog    *self)
{
  g_autoptr(GFile) file = NULL;
  gboolean bench = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "bench"));

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
  if (file == NULL)
    return;
  if (!bench)
    {
      hr_runs_dialog_read_file (self, file);
      return;
    }
  {
    g_autofree char *path = g_file_get_path (file);
    if (path == NULL)
      hr_runs_dialog_show_error (self, _("llama-bench reads only files on this computer."));
    else
      hr_runs_dialog_run_bench (self, path);
  }
}

void
hr_runs_dialog_choose_file (HrRunsDialog *self,
                            gboolean      bench)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (bench ? _("Run llama-bench -p 512 -n 128 -r 2 on a GGUF File") : _("Open Measurements"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, NULL, NULL);
  if (bench)
    {
      gtk_file_filter_set_name (filter, _("GGUF Models"));
      gtk_file_filter_add_pattern (filter, "*.gguf");
      gtk_file_filter_add_pattern (filter, "*.GGUF");
    }
  else
    {
      gtk_file_filter_set_name (filter, _("Text, CSV and JSON Files"));
      gtk_file_filter_add_mime_type (filter, "text/plain");
      gtk_file_filter_add_mime_type (filter, "text/csv");
      gtk_file_filter_add_mime_type (filter, "application/json");
      gtk_file_filter_add_pattern (filter, "*.log");
      gtk_file_filter_add_pattern (filter, "*.md");
      gtk_file_filter_add_pattern (filter, "*.jsonl");
    }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_set_data (G_OBJECT (self->chooser), "bench", GINT_TO_POINTER (bench));
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* The clipboard and drops ------------------------------------------------------------------ */

static void
paste_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(HrRunsDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);

  if (self->session == NULL)
    return;   /* closed meanwhile */
  if (text == NULL)
    {
      hr_runs_dialog_show_error (self, _("The clipboard holds no text."));
      return;
    }
  hr_runs_dialog_read_text (self, text);
}

static void
paste_files_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(HrRunsDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  const GValue *value = gdk_clipboard_read_value_finish (GDK_CLIPBOARD (object), result, &error);
  GSList *files;

  if (self->session == NULL)
    return;   /* closed meanwhile */
  files = value != NULL ? gdk_file_list_get_files (g_value_get_boxed (value)) : NULL;
  if (files == NULL)
    {
      hr_runs_dialog_show_error (self, _("The clipboard holds no text."));
      return;
    }
  hr_runs_dialog_read_file (self, files->data);
  g_slist_free (files);
}

gboolean
hr_runs_dialog_drop_cb (GtkDropTarget *target,
                        const GValue  *value,
                        double         x,
                        double         y,
                        HrRunsDialog  *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      if (files == NULL)
        return FALSE;
      hr_runs_dialog_read_file (self, files->data);
      g_slist_free (files);
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_STRING) && g_value_get_string (value) != NULL)
    {
      hr_runs_dialog_read_text (self, g_value_get_string (value));
      return TRUE;
    }
  return FALSE;
}

/* Public API ---------------------------------------------------------------------------------- */

void
hr_runs_dialog_read_text (HrRunsDialog *self,
                          const char   *text)
{
  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (text != NULL);

  hr_runs_dialog_cancel (self);
  hr_runs_state_set_text (self->state, text, -1);
  hr_runs_dialog_refresh (self);
}

void
hr_runs_dialog_read_file (HrRunsDialog *self,
                          GFile        *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *status = NULL;

  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (G_IS_FILE (file));

  hr_runs_dialog_cancel (self);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      hr_runs_dialog_show_error (self, _("Only files on this computer can be read."));
      return;
    }
  base = g_path_get_basename (path);
  /* TRANSLATORS: a file being read, "Reading runs.txt…" */
  status = g_strdup_printf (_("Reading %s…"), base);
  self->cancellable = g_cancellable_new ();
  hr_runs_dialog_set_busy (self, status);
  task = g_task_new (self, self->cancellable, read_file_done_cb, NULL);
  g_task_set_source_tag (task, hr_runs_dialog_read_file);
  g_task_set_task_data (task, g_steal_pointer (&path), g_free);
  g_task_run_in_thread (task, read_file_thread);
}

const char *
hr_runs_dialog_get_bench_program (HrRunsDialog *self)
{
  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), NULL);
  return self->bench_program;
}

void
hr_runs_dialog_run_bench (HrRunsDialog *self,
                          const char   *gguf)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_return_if_fail (HR_IS_RUNS_DIALOG (self));
  g_return_if_fail (gguf != NULL);

  hr_runs_dialog_cancel (self);
  if (self->bench_program == NULL)
    {
      hr_runs_dialog_show_error (self, _("llama-bench is not installed: it was not found on PATH."));
      return;
    }
  g_ptr_array_add (argv, self->bench_program);
  g_ptr_array_add (argv, (char *) "-m");
  g_ptr_array_add (argv, (char *) gguf);
  for (guint i = 0; i < G_N_ELEMENTS (bench_args); i++)
    g_ptr_array_add (argv, (char *) bench_args[i]);
  g_ptr_array_add (argv, NULL);

  self->bench = g_subprocess_newv ((const char * const *) argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (self->bench == NULL)
    {
      /* TRANSLATORS: llama-bench could not be started; %s says why */
      g_autofree char *msg = g_strdup_printf (_("llama-bench could not be started: %s"), error->message);
      hr_runs_dialog_show_error (self, msg);
      return;
    }
  g_free (self->bench_name);
  self->bench_name = g_path_get_basename (gguf);
  self->bench_start = g_get_monotonic_time ();
  self->cancellable = g_cancellable_new ();
  hr_runs_dialog_set_busy (self, "");
  bench_tick_cb (self);
  self->tick_id = g_timeout_add_seconds (1, bench_tick_cb, self);
  g_subprocess_communicate_async (self->bench, NULL, self->cancellable, bench_done_cb, g_object_ref (self));
}

void
hr_runs_dialog_cancel (HrRunsDialog *self)
{
  g_return_if_fail (HR_IS_RUNS_DIALOG (self));

  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  if (self->bench != NULL)
    g_subprocess_force_exit (self->bench);
  hr_runs_dialog_set_busy (self, NULL);
}

gboolean
hr_runs_dialog_is_busy (HrRunsDialog *self)
{
  g_return_val_if_fail (HR_IS_RUNS_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

/* Private API (hr-runs-dialog-private.h) -------------------------------------------------------- */

void
hr_runs_dialog_paste (HrRunsDialog *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));

  /* a file copied in Files is read as the file, not as its name */
  if (gdk_content_formats_contain_gtype (gdk_clipboard_get_formats (clipboard), GDK_TYPE_FILE_LIST))
    gdk_clipboard_read_value_async (clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL,
                                    paste_files_done_cb, g_object_ref (self));
  else
    gdk_clipboard_read_text_async (clipboard, NULL, paste_done_cb, g_object_ref (self));
}
