/* test-runs-window.c — Import Measurements in the window under Xvfb
 *
 * The dialog opened by the window's action; a llama-bench table pasted through the clipboard
 * gives rows (unmapped with their reason until the model and GPU are said, then predicted with
 * the error); garbage gives one message; calibrating the device from the rows makes the Size
 * view's estimate on it calibrated, and Remove undoes it; a fake llama-bench put first on PATH
 * (prints a JSON fixture, fails, or hangs until cancelled) is run on a "GGUF" and its output
 * read into the same table.  The dialog fits 360 px.  With HEADROOM_SCREENSHOT_DIR set, PNGs of
 * the dialog at 1280×800 and 360 px wide are written there.
 *
 * Run through `xvfb-run -a` with GTK_A11Y=none and GSETTINGS_SCHEMA_DIR=<build>/data.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "hr-runs-dialog.h"
#include "hr-test-window.h"
#include "hr-user-calibration.h"

static HrApplication *app;
static char *tmp_dir;

static char *
fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "runs", name, NULL);
}

static char *
fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static HrRunsDialog *
open_dialog (HrWindow *window)
{
  GList *tops;
  HrRunsDialog *dialog = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.import-measurements", NULL));
  hr_test_flush ();
  tops = gtk_window_list_toplevels ();
  for (GList *l = tops; l != NULL; l = l->next)
    if (HR_IS_RUNS_DIALOG (l->data))
      dialog = l->data;
  g_list_free (tops);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  return dialog;
}

static gboolean
has_rows (gpointer data)
{
  return hr_runs_dialog_get_state (data)->rows->len > 0;
}

static gboolean
has_error (gpointer data)
{
  return hr_runs_dialog_get_state (data)->error != NULL;
}

static gboolean
has_sglang (gpointer data)
{
  const HrRunsState *st = hr_runs_dialog_get_state (data);

  return !hr_runs_dialog_is_busy (data) && st->runs->len > 0 &&
         ((HrRun *) g_ptr_array_index (st->runs, 0))->format == HR_RUN_SGLANG_LOG;
}

static gboolean
busy (gpointer data)
{
  return hr_runs_dialog_is_busy (data);
}

/* Every widget under @root of @type whose label (button, label) contains @text */
static GtkWidget *
find_labelled (GtkWidget  *root,
               GType       type,
               const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) && gtk_widget_get_visible (c))
        {
          const char *label = GTK_IS_BUTTON (c) ? gtk_button_get_label (GTK_BUTTON (c))
                            : GTK_IS_LABEL (c) ? gtk_label_get_label (GTK_LABEL (c)) : NULL;
          if (label != NULL && strstr (label, text) != NULL)
            return c;
        }
      if ((found = find_labelled (c, type, text)) != NULL)
        return found;
    }
  return NULL;
}

static guint
count_class (GtkWidget  *root,
             const char *css)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      n += gtk_widget_has_css_class (c, css) && gtk_widget_get_mapped (c);
      n += count_class (c, css);
    }
  return n;
}

static void
save_png (GtkWidget  *widget,
          const char *name)
{
  const char *dir = g_getenv ("HEADROOM_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);

  if (dir == NULL)
    return;
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s (%d × %d)", path, w, h);
}

static void
paste (HrRunsDialog *dialog,
       const char   *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (dialog)), text);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "runs.paste", NULL));
}

/* Paste a table; say the model and GPU; calibrate; the Size view follows; remove */
static void
test_paste_and_calibrate (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSession *session = hr_window_get_session (window);
  HrSizeView *size = hr_window_get_size_view (window);
  g_autofree char *text = fixture ("bench-rx7900xtx-rocm.md");
  HrRunsDialog *dialog;
  const HrRunsState *st;
  GtkWidget *button, *error_label;
  const HrSizeState *ss;

  hr_session_set_calibration_dir (session, tmp_dir);
  dialog = open_dialog (window);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 1280, 800);
  hr_test_wait_settled (GTK_WIDGET (dialog));

  /* garbage: one message, no rows */
  paste (dialog, "this is not what an engine printed\n");
  hr_test_wait_until (has_error, dialog, "the pasted garbage's message");
  st = hr_runs_dialog_get_state (dialog);
  g_assert_nonnull (st->error);
  g_assert_cmpuint (st->rows->len, ==, 0);
  error_label = find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, st->error);
  g_assert_nonnull (error_label);
  g_assert_true (gtk_widget_has_css_class (error_label, "error"));

  /* the table: five rows, none predicted until the model is said */
  paste (dialog, text);
  hr_test_wait_until (has_rows, dialog, "the pasted table's rows");
  st = hr_runs_dialog_get_state (dialog);
  g_assert_null (st->error);
  g_assert_cmpuint (st->rows->len, ==, 5);
  g_assert_false (((HrRunRowState *) g_ptr_array_index (st->rows, 0))->mapped);
  g_assert_nonnull (find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "No prediction: "));
  g_assert_cmpuint (count_class (GTK_WIDGET (dialog), "fit-badge"), ==, 0);

  hr_runs_dialog_set_hint (dialog, HR_RUN_MISSING_MODEL, "llama-3.1-8b");
  hr_runs_dialog_set_hint (dialog, HR_RUN_MISSING_GPU, "rx-7900-xtx-24gb");
  hr_test_wait_settled (GTK_WIDGET (dialog));
  st = hr_runs_dialog_get_state (dialog);
  for (guint i = 0; i < st->rows->len; i++)
    g_assert_true (((HrRunRowState *) g_ptr_array_index (st->rows, i))->mapped);
  /* every figure predicted, with its error as a coloured badge */
  g_assert_cmpuint (count_class (GTK_WIDGET (dialog), "fit-badge"), ==, 5);
  g_assert_null (find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "No prediction: "));
  save_png (GTK_WIDGET (dialog), "runs-dialog.png");

  /* the Size view on the runs' scenario, then calibrate the device */
  hr_session_set_model (session, "llama-3.1-8b");
  hr_session_set_gpu (session, "rx-7900-xtx-24gb");
  hr_session_set_quant (session, "Q4_K_M");
  g_object_set (session, "backend", "rocm", "engine", "llama.cpp", NULL);
  hr_test_wait_size_view (size);
  ss = hr_size_view_get_state (size);
  g_assert_null (strstr (ss->cards[HR_SIZE_CARD_DECODE].note, "calibrated from"));

  button = find_labelled (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Calibrate");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  hr_test_wait_settled (GTK_WIDGET (dialog));
  g_assert_cmpuint (hr_session_get_calibrations (session)->len, ==, 1);
  g_assert_nonnull (find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "Predicted with your calibration"));
  hr_test_wait_size_view (size);
  ss = hr_size_view_get_state (size);
  g_assert_nonnull (strstr (ss->cards[HR_SIZE_CARD_DECODE].note, "calibrated from 3 runs of yours"));

  /* the switch turns it off, and on */
  g_object_set (session, "use-calibration", FALSE, NULL);
  hr_test_wait_size_view (size);
  g_assert_null (strstr (hr_size_view_get_state (size)->cards[HR_SIZE_CARD_DECODE].note, "calibrated from"));
  g_object_set (session, "use-calibration", TRUE, NULL);
  hr_test_wait_size_view (size);
  g_assert_nonnull (strstr (hr_size_view_get_state (size)->cards[HR_SIZE_CARD_DECODE].note, "calibrated from"));

  /* 360 px: everything wraps */
  gtk_window_set_default_size (GTK_WINDOW (dialog), 360, 800);
  hr_test_wait_settled (GTK_WIDGET (dialog));
  {
    int min_w;

    gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
    g_test_message ("the dialog needs %d px", min_w);
    g_assert_cmpint (min_w, <=, 360);
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), <=, 360);
  }
  save_png (GTK_WIDGET (dialog), "runs-dialog-narrow.png");
  if (g_getenv ("HEADROOM_SCREENSHOT_DIR") != NULL)
    {
      /* the end of the page: the devices and their buttons */
      GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (hr_test_find_child_of_type (GTK_WIDGET (dialog), GTK_TYPE_SCROLLED_WINDOW));
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (sw);

      gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
      hr_test_wait_settled (GTK_WIDGET (dialog));
      save_png (GTK_WIDGET (dialog), "runs-dialog-narrow-end.png");
    }

  button = find_labelled (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Remove");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  hr_test_wait_size_view (size);
  g_assert_cmpuint (hr_session_get_calibrations (session)->len, ==, 0);
  g_assert_null (strstr (hr_size_view_get_state (size)->cards[HR_SIZE_CARD_DECODE].note, "calibrated from"));

  hr_test_window_close (dialog);
  hr_test_window_close (window);
}

/* A dropped or opened file: read in a worker thread; a folder is refused in one line */
static void
test_file (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autofree char *log = fixture_path ("vllm-rtx5090-qwen36.log");
  g_autoptr(GFile) file = g_file_new_for_path (log);
  g_autoptr(GFile) folder = g_file_new_for_path (tmp_dir);
  HrRunsDialog *dialog = open_dialog (window);
  const HrRunsState *st;
  g_autofree char *expected = NULL;
  g_autofree char *base = g_file_get_basename (folder);

  hr_runs_dialog_read_file (dialog, file);
  g_assert_true (hr_runs_dialog_is_busy (dialog));
  hr_test_wait_while (busy, dialog);
  st = hr_runs_dialog_get_state (dialog);
  g_assert_null (st->error);
  g_assert_cmpuint (st->rows->len, ==, 1);
  /* the log does not name its GPU: the GPU choice is offered, the run listed without prediction */
  g_assert_true (st->missing[HR_RUN_MISSING_GPU]);
  g_assert_false (((HrRunRowState *) g_ptr_array_index (st->rows, 0))->mapped);
  hr_runs_dialog_set_hint (dialog, HR_RUN_MISSING_GPU, "rtx-5090-32gb");
  st = hr_runs_dialog_get_state (dialog);
  g_assert_true (((HrRunRowState *) g_ptr_array_index (st->rows, 0))->mapped);
  /* the KV cache and the KV tokens, each beside Headroom's prediction with its error */
  hr_test_wait_settled (GTK_WIDGET (dialog));
  g_assert_cmpuint (count_class (GTK_WIDGET (dialog), "fit-badge"), ==, 2);
  g_assert_nonnull (find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "−3.1 %"));

  hr_runs_dialog_read_file (dialog, folder);
  hr_test_wait_while (busy, dialog);
  st = hr_runs_dialog_get_state (dialog);
  expected = g_strdup_printf ("%s cannot be read: not a regular file", base);
  g_assert_cmpstr (st->error, ==, expected);
  g_assert_cmpuint (st->rows->len, ==, 0);

  hr_test_window_close (dialog);
  hr_test_window_close (window);
}

/* The dialog's drop target: the value a drop of text or of files hands it */
static gboolean
drop (HrRunsDialog *dialog,
      const GValue *value)
{
  GtkWidget *content = adw_window_get_content (ADW_WINDOW (dialog));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (content);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        {
          g_signal_emit_by_name (c, "drop", value, 10.0, 10.0, &handled);
          return handled;
        }
    }
  g_assert_not_reached ();
}

/* Dropping text reads it; dropping a file reads the file */
static void
test_drop (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrRunsDialog *dialog = open_dialog (window);
  g_autofree char *text = fixture ("bench-vulkan-rx580.md");
  g_autofree char *path = fixture_path ("bench-readme.csv");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_auto(GValue) v_text = G_VALUE_INIT;
  g_auto(GValue) v_files = G_VALUE_INIT;
  GSList *files = g_slist_prepend (NULL, file);
  const HrRunsState *st;

  g_value_init (&v_text, G_TYPE_STRING);
  g_value_set_string (&v_text, text);
  g_assert_true (drop (dialog, &v_text));
  st = hr_runs_dialog_get_state (dialog);
  g_assert_cmpuint (st->rows->len, ==, 3);
  g_assert_cmpstr (st->summary, ==, "llama-bench table: 3 runs · build e598697d (4696)");

  g_value_init (&v_files, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&v_files, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_assert_true (drop (dialog, &v_files));
  hr_test_wait_while (busy, dialog);
  st = hr_runs_dialog_get_state (dialog);
  g_assert_null (st->error);
  g_assert_cmpstr (st->summary, ==, "llama-bench CSV: 2 runs · build 8cf427ff (5163)");

  /* a file copied in Files and pasted: the file is read */
  {
    g_autofree char *log = fixture_path ("sglang-gemma3.log");
    g_autoptr(GFile) copied = g_file_new_for_path (log);
    GSList *list = g_slist_prepend (NULL, copied);
    GdkFileList *fl = gdk_file_list_new_from_list (list);

    g_slist_free (list);
    gdk_clipboard_set (gtk_widget_get_clipboard (GTK_WIDGET (dialog)), GDK_TYPE_FILE_LIST, fl);
    g_boxed_free (GDK_TYPE_FILE_LIST, fl);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "runs.paste", NULL));
    hr_test_wait_until (has_sglang, dialog, "the pasted file's run");
    st = hr_runs_dialog_get_state (dialog);
    g_assert_null (st->error);
    g_assert_cmpstr (st->summary, ==, "SGLang log: 1 run");
  }

  hr_test_window_close (dialog);
  hr_test_window_close (window);
}

/* A fake llama-bench first on PATH: its JSON read into the table; a failure is one line; a
 * run that hangs is cancelled */
static void
test_bench (void)
{
  HrWindow *window = hr_test_window_open (app);
  g_autofree char *json = fixture_path ("bench-readme.json");
  g_autofree char *args = g_build_filename (tmp_dir, "bench-args", NULL);
  g_autofree char *gguf = g_build_filename (tmp_dir, "Model-Q4_K_M.gguf", NULL);
  g_autofree char *argv_text = NULL;
  HrRunsDialog *dialog;
  const HrRunsState *st;

  g_setenv ("FAKE_BENCH_JSON", json, TRUE);
  g_setenv ("FAKE_BENCH_ARGS", args, TRUE);
  g_setenv ("FAKE_BENCH_MODE", "ok", TRUE);
  g_assert_true (g_file_set_contents (gguf, "GGUF", -1, NULL));
  dialog = open_dialog (window);
  g_assert_nonnull (hr_runs_dialog_get_bench_program (dialog));
  g_assert_true (g_str_has_prefix (hr_runs_dialog_get_bench_program (dialog), tmp_dir));
  /* nothing ran by itself */
  g_assert_false (g_file_test (args, G_FILE_TEST_EXISTS));

  hr_runs_dialog_run_bench (dialog, gguf);
  g_assert_true (hr_runs_dialog_is_busy (dialog));
  hr_test_wait_while (busy, dialog);
  st = hr_runs_dialog_get_state (dialog);
  g_assert_null (st->error);
  g_assert_cmpuint (st->rows->len, ==, 2);
  g_assert_cmpstr (st->summary, ==, "llama-bench JSON: 2 runs · build 8cf427ff (5163)");
  g_assert_true (g_file_get_contents (args, &argv_text, NULL, NULL));
  {
    g_autofree char *expected = g_strdup_printf ("-m %s -p 512 -n 128 -r 2 -o json\n", gguf);
    g_assert_cmpstr (argv_text, ==, expected);
  }

  /* it fails: its last line, inline */
  g_setenv ("FAKE_BENCH_MODE", "fail", TRUE);
  hr_runs_dialog_run_bench (dialog, gguf);
  hr_test_wait_while (busy, dialog);
  st = hr_runs_dialog_get_state (dialog);
  g_assert_cmpstr (st->error, ==, "llama-bench failed: error: failed to load model 'x.gguf'");
  g_assert_cmpuint (st->rows->len, ==, 0);

  /* it hangs: Cancel stops it at once */
  g_setenv ("FAKE_BENCH_MODE", "hang", TRUE);
  hr_runs_dialog_run_bench (dialog, gguf);
  hr_test_spin (200);
  g_assert_true (hr_runs_dialog_is_busy (dialog));
  g_assert_nonnull (find_labelled (GTK_WIDGET (dialog), GTK_TYPE_LABEL, "Running llama-bench on Model-Q4_K_M.gguf…"));
  hr_runs_dialog_cancel (dialog);
  g_assert_false (hr_runs_dialog_is_busy (dialog));
  hr_test_spin (100);

  hr_test_window_close (dialog);
  hr_test_window_close (window);
}

int
main (int argc, char **argv)
{
  g_autofree char *script = NULL;
  g_autofree char *path = NULL;
  int ret;

  tmp_dir = g_dir_make_tmp ("headroom-runs-window-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_setenv ("XDG_DATA_HOME", tmp_dir, TRUE);
  /* the fake llama-bench: what it was asked, then JSON, a failure or a long wait */
  script = g_build_filename (tmp_dir, "llama-bench", NULL);
  g_assert_true (g_file_set_contents (script,
    "#!/bin/sh\n"
    "echo \"$*\" > \"$FAKE_BENCH_ARGS\"\n"
    "case \"$FAKE_BENCH_MODE\" in\n"
    "  fail) echo 'ggml_cuda_init: found 1 CUDA devices' >&2; echo \"error: failed to load model 'x.gguf'\" >&2; exit 1 ;;\n"
    "  hang) exec sleep 60 ;;\n"
    "esac\n"
    "echo 'load_backend: loaded CUDA backend' >&2\n"
    "cat \"$FAKE_BENCH_JSON\"\n", -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  path = g_strdup_printf ("%s:%s", tmp_dir, g_getenv ("PATH"));
  g_setenv ("PATH", path, TRUE);

  app = hr_test_app_init (&argc, &argv);
  g_test_add_func ("/runs-window/paste-and-calibrate", test_paste_and_calibrate);
  g_test_add_func ("/runs-window/file", test_file);
  g_test_add_func ("/runs-window/drop", test_drop);
  g_test_add_func ("/runs-window/bench", test_bench);
  ret = g_test_run ();
  g_object_unref (app);
  {
    /* the few files the test wrote */
    const char *names[] = { "llama-bench", "bench-args", "Model-Q4_K_M.gguf", "headroom/calibration.json", "headroom", NULL };
    for (int i = 0; names[i] != NULL; i++)
      {
        g_autofree char *p = g_build_filename (tmp_dir, names[i], NULL);
        g_remove (p);
      }
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return ret;
}
