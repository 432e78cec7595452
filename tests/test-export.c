/* test-export.c — what every view shares: the export dialogs, the toasts, find (Xvfb)
 *
 * The dialog opens in the folder of the last export (else Pictures), "Export" writes the file
 * and remembers its folder, and the toast's "Open" opens the file in the user's default
 * application: here a fake one, registered for PNG in this test's own XDG folders, that writes
 * down what it was asked to open.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "hr-application.h"
#include "hr-compare-view.h"
#include "hr-export-dialog.h"
#include "hr-toast.h"
#include "hr-size-view-private.h"
#include "hr-window.h"

static HrApplication *app;
static char *root;           /* HOME, XDG config and data of this test */
static char *pictures;
static char *opened_marker;  /* the fake application writes the URI it opened here */

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until @done says so (or 30 s pass: a failure, not a measurement). */
static void
wait_for (gboolean (*done) (gpointer),
          gpointer data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  while (!timed_out && !done (data))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static gboolean
size_view_idle (gpointer data)
{
  return !hr_size_view_is_busy (data);
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* What a toast says: its title, or its wrapping label's text when it is long. */
static const char *
toast_text (AdwToast *toast)
{
  GtkWidget *custom = adw_toast_get_custom_title (toast);

  return custom ? gtk_label_get_label (GTK_LABEL (custom)) : adw_toast_get_title (toast);
}

static HrWindow *
open_window (void)
{
  HrWindow *window = hr_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  wait_for (size_view_idle, hr_window_get_size_view (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
folder_loaded (gpointer chooser)
{
  g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (chooser);

  return folder != NULL;
}

/* The folder the dialog shows, once it has loaded it. */
static char *
chooser_folder (GtkFileChooser *chooser)
{
  g_autoptr(GFile) folder = NULL;

  wait_for (folder_loaded, chooser);
  folder = gtk_file_chooser_get_current_folder (chooser);
  return g_file_get_path (folder);
}

/* A fake default application for PNG images in this test's XDG folders. */
static void
install_fake_viewer (void)
{
  g_autofree char *apps = g_build_filename (root, "data", "applications", NULL);
  g_autofree char *script = g_build_filename (root, "open-image.sh", NULL);
  g_autofree char *desktop = g_build_filename (apps, "headroom-test-viewer.desktop", NULL);
  g_autofree char *mimeapps = g_build_filename (root, "config", "mimeapps.list", NULL);
  g_autofree char *script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s' \"$1\" > '%s.tmp' && mv '%s.tmp' '%s'\n",
                                                  opened_marker, opened_marker, opened_marker);
  g_autofree char *desktop_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Test Viewer\n"
                                                   "Exec=%s %%u\nMimeType=image/png;\nNoDisplay=true\n", script);

  g_assert_cmpint (g_mkdir_with_parents (apps, 0700), ==, 0);
  g_assert_true (g_file_set_contents (script, script_text, -1, NULL));
  g_assert_cmpint (g_chmod (script, 0700), ==, 0);
  g_assert_true (g_file_set_contents (desktop, desktop_text, -1, NULL));
  g_assert_true (g_file_set_contents (mimeapps, "[Default Applications]\nimage/png=headroom-test-viewer.desktop\n",
                                      -1, NULL));
}

/* The popover under @root that is shown, NULL when none is. */
static GtkWidget *
shown_popover (GtkWidget *top)
{
  if (GTK_IS_POPOVER (top) && gtk_widget_get_visible (top))
    return top;
  for (GtkWidget *c = gtk_widget_get_first_child (top); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = shown_popover (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_child_of_type (GtkWidget *top,
                    GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (top, type))
    return top;
  for (GtkWidget *c = gtk_widget_get_first_child (top); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_child_of_type (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* "view.find-model" and "view.find-gpu" open the search of the visible view's own widgets. */
static void
test_find (void)
{
  HrWindow *window = open_window ();
  HrSizeView *size = hr_window_get_size_view (window);
  GtkWidget *compare;
  GtkWidget *shown;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (size), "view.find-gpu", NULL));
  shown = shown_popover (GTK_WIDGET (size));
  g_assert_nonnull (shown);
  g_assert_true (gtk_widget_is_ancestor (shown, GTK_WIDGET (size->gpu_picker)));
  gtk_popover_popdown (GTK_POPOVER (shown));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (size), "view.find-model", NULL));
  shown = shown_popover (GTK_WIDGET (size));
  g_assert_nonnull (shown);
  g_assert_true (gtk_widget_is_ancestor (shown, GTK_WIDGET (size->model_picker)));
  gtk_popover_popdown (GTK_POPOVER (shown));

  /* Compare's GPUs are searched in its "Add GPUs" menu button */
  g_assert_true (hr_window_set_visible_view (window, "compare"));
  compare = find_child_of_type (GTK_WIDGET (window), HR_TYPE_COMPARE_VIEW);
  g_assert_nonnull (compare);
  g_assert_null (shown_popover (compare));
  g_assert_true (gtk_widget_activate_action (compare, "view.find-gpu", NULL));
  shown = shown_popover (compare);
  g_assert_nonnull (shown);
  g_assert_true (GTK_IS_MENU_BUTTON (gtk_widget_get_parent (shown)));
  gtk_popover_popdown (GTK_POPOVER (shown));
  close_window (window);
}

/* One timeout policy: news 4 s, with a button 8 s, failures 10 s and first in line. */
static void
test_toast_policy (void)
{
  g_autoptr(AdwToast) info = hr_toast_new ("Copied", HR_TOAST_INFO);
  g_autoptr(AdwToast) error = hr_toast_new ("Could not export the chart: <disk full> & more", HR_TOAST_ERROR);
  g_autoptr(AdwToast) longer = hr_toast_new ("Could not read “a-rather-long-file-name.gguf”: "
                                             "the header ends before its tensor list", HR_TOAST_INFO);

  g_assert_cmpuint (hr_toast_timeout (HR_TOAST_INFO, FALSE), ==, 4);
  g_assert_cmpuint (hr_toast_timeout (HR_TOAST_INFO, TRUE), ==, 8);
  g_assert_cmpuint (hr_toast_timeout (HR_TOAST_ERROR, FALSE), ==, 10);
  g_assert_cmpuint (hr_toast_timeout (HR_TOAST_ERROR, TRUE), ==, 10);

  g_assert_cmpuint (adw_toast_get_timeout (info), ==, 4);
  g_assert_cmpint (adw_toast_get_priority (info), ==, ADW_TOAST_PRIORITY_NORMAL);
  g_assert_null (adw_toast_get_custom_title (info));
  hr_toast_set_button (info, "_Undo");
  g_assert_cmpstr (adw_toast_get_button_label (info), ==, "_Undo");
  g_assert_cmpuint (adw_toast_get_timeout (info), ==, 8);

  g_assert_cmpuint (adw_toast_get_timeout (error), ==, 10);
  g_assert_cmpint (adw_toast_get_priority (error), ==, ADW_TOAST_PRIORITY_HIGH);
  g_assert_cmpstr (adw_toast_get_title (error), ==, "Could not export the chart: &lt;disk full&gt; &amp; more");

  /* a long text wraps in a label of its own, shown as it is (no markup) */
  g_assert_true (GTK_IS_LABEL (adw_toast_get_custom_title (longer)));
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (adw_toast_get_custom_title (longer))));
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (adw_toast_get_custom_title (longer))));
  g_assert_nonnull (strstr (toast_text (longer), "“a-rather"));
}

/* The dialog opens in the folder of the last export; once that is gone, in Pictures. */
static void
test_start_folder (void)
{
  HrWindow *window = open_window ();
  GtkWidget *view = GTK_WIDGET (hr_window_get_size_view (window));
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  g_autofree char *last = g_build_filename (root, "last-exports", NULL);
  g_autofree char *folder = NULL;
  GtkFileChooser *chooser;

  g_assert_cmpint (g_mkdir_with_parents (last, 0700), ==, 0);
  g_settings_set_string (settings, "export-folder", last);
  g_assert_true (gtk_widget_activate_action (view, "view.export-chart", "s", "breakdown.svg"));
  chooser = hr_export_dialog_get_chooser (view);
  g_assert_nonnull (chooser);
  folder = chooser_folder (chooser);
  g_assert_cmpstr (folder, ==, last);
  g_assert_true (g_str_has_suffix (gtk_file_chooser_get_current_name (chooser), "-breakdown.svg"));
  /* one dialog at a time */
  g_assert_true (gtk_widget_activate_action (view, "view.export-chart", "s", "context.png"));
  g_assert_true (hr_export_dialog_get_chooser (view) == chooser);
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (hr_export_dialog_get_chooser (view));

  g_rmdir (last);
  g_assert_true (gtk_widget_activate_action (view, "view.export-chart", "s", "breakdown.png"));
  chooser = hr_export_dialog_get_chooser (view);
  g_clear_pointer (&folder, g_free);
  folder = chooser_folder (chooser);
  g_assert_cmpstr (folder, ==, pictures);
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_CANCEL);

  g_settings_reset (settings, "export-folder");
  close_window (window);
}

/* "Export" writes the file where the dialog was, remembers the folder, and the toast's "Open"
 * opens that file in the default application. */
static void
test_export_and_open (void)
{
  HrWindow *window = open_window ();
  GtkWidget *view = GTK_WIDGET (hr_window_get_size_view (window));
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  g_autofree char *dir = g_build_filename (root, "R&D charts", NULL);
  g_autofree char *remembered = NULL;
  g_autofree char *written = NULL;
  g_autofree char *opened = NULL;
  g_autofree char *contents = NULL;
  GtkFileChooser *chooser;
  AdwToast *toast;
  gsize length;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_settings_set_string (settings, "export-folder", dir);
  g_assert_true (gtk_widget_activate_action (view, "view.export-chart", "s", "breakdown.png"));
  chooser = hr_export_dialog_get_chooser (view);
  g_assert_nonnull (chooser);
  g_clear_pointer (&remembered, g_free);
  remembered = chooser_folder (chooser);
  g_assert_cmpstr (remembered, ==, dir);
  g_clear_pointer (&remembered, g_free);
  /* typed without an extension: the chosen format's is added */
  gtk_file_chooser_set_current_name (chooser, "memory");
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_ACCEPT);
  g_assert_null (hr_export_dialog_get_chooser (view));

  written = g_build_filename (dir, "memory.png", NULL);
  g_assert_true (g_file_get_contents (written, &contents, &length, NULL));
  g_assert_cmpint (memcmp (contents, "\x89PNG", 4), ==, 0);
  remembered = g_settings_get_string (settings, "export-folder");
  g_assert_cmpstr (remembered, ==, dir);

  toast = hr_toast_get_last (view);
  g_assert_nonnull (toast);
  g_assert_cmpstr (toast_text (toast), ==, "Exported “memory.png”");
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Open");
  g_assert_cmpuint (adw_toast_get_timeout (toast), ==, 8);

  g_signal_emit_by_name (toast, "button-clicked");
  wait_for (file_exists, opened_marker);
  g_assert_true (g_file_get_contents (opened_marker, &opened, NULL, NULL));
  /* GIO hands a local file to an application as its path */
  g_assert_cmpstr (opened, ==, written);

  g_unlink (opened_marker);
  g_unlink (written);
  g_rmdir (dir);
  g_settings_reset (settings, "export-folder");
  close_window (window);
}

/* A failed write says why and remembers nothing. */
static void
test_export_fails (void)
{
  HrWindow *window = open_window ();
  GtkWidget *view = GTK_WIDGET (hr_window_get_size_view (window));
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  g_autofree char *missing = g_build_filename (root, "no-such-folder", "chart.png", NULL);
  g_autofree char *remembered = NULL;
  AdwToast *toast;

  HrExportRequest request = { HR_EXPORT_CHART, "png", hr_export_write_chart,
                              hr_size_view_get_chart (HR_SIZE_VIEW (view), HR_CHART_BREAKDOWN) };

  g_assert_false (hr_export_dialog_save (view, &request, missing));
  toast = hr_toast_get_last (view);
  g_assert_true (g_str_has_prefix (toast_text (toast), "Could not export the chart: "));
  g_assert_null (adw_toast_get_button_label (toast));
  g_assert_cmpint (adw_toast_get_priority (toast), ==, ADW_TOAST_PRIORITY_HIGH);
  remembered = g_settings_get_string (settings, "export-folder");
  g_assert_cmpstr (remembered, ==, "");
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *config = NULL;
  g_autofree char *data = NULL;
  g_autofree char *dirs = NULL;
  g_autofree char *dirs_file = NULL;
  int ret;

  root = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
  g_assert_nonnull (root);
  config = g_build_filename (root, "config", NULL);
  data = g_build_filename (root, "data", NULL);
  pictures = g_build_filename (root, "Pictures", NULL);
  opened_marker = g_build_filename (root, "opened", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (pictures, 0700), ==, 0);
  dirs = g_strdup_printf ("XDG_PICTURES_DIR=\"%s\"\n", pictures);
  dirs_file = g_build_filename (config, "user-dirs.dirs", NULL);
  g_assert_true (g_file_set_contents (dirs_file, dirs, -1, NULL));

  /* before GLib and GTK read them */
  g_setenv ("HOME", root, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  install_fake_viewer ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/export/toast-policy", test_toast_policy);
  g_test_add_func ("/export/find", test_find);
  g_test_add_func ("/export/start-folder", test_start_folder);
  g_test_add_func ("/export/export-and-open", test_export_and_open);
  g_test_add_func ("/export/export-fails", test_export_fails);

  ret = g_test_run ();
  g_object_unref (app);
  return ret;
}
