/* hub-screenshot.c — the README's picker screenshot (data/screenshots/hub-picker.png)
 *
 * The app's window under Xvfb against the tests' local hub (hr-test-hub.c): the model picker
 * of a view opened on "demo", the Hub's results in, the screen captured with ImageMagick's
 * import and cut to the window.  Built on demand:
 *
 *   ninja -C _build tests/hub-screenshot
 *   xvfb-run -a -s "-screen 0 1280x800x24" env GSETTINGS_SCHEMA_DIR=_build/data \
 *     _build/tests/hub-screenshot data/screenshots/hub-picker.png [size|compare|finetune|manage|files] [WIDTH]
 *
 * ("manage": Manage Yours with two models sized from the Hub, to look at; "files": the Size view
 * with demo-org/Demo-GGUF chosen, its "Files on the Hub" opened, data/screenshots/hub-files.png.)
 */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "hr-compare-view.h"
#include "hr-finetune-view.h"
#include "hr-hub-files.h"
#include "hr-import.h"
#include "hr-picker.h"
#include "hr-test-hub.h"
#include "hr-test-window.h"

static gboolean
hub_shown (gpointer picker)
{
  GListModel *shown = hr_picker_get_shown (picker);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);

      if (g_strcmp0 (hr_picker_item_get_id (it), "hf:other/demo-notes") == 0)
        return TRUE;
    }
  return FALSE;
}

static HrPicker *
model_picker (HrWindow   *window,
              const char *view)
{
  if (g_strcmp0 (view, "compare") == 0)
    return hr_compare_view_get_model_picker (HR_COMPARE_VIEW (hr_window_get_view (window, view)));
  if (g_strcmp0 (view, "finetune") == 0)
    return hr_finetune_view_get_model_picker (HR_FINETUNE_VIEW (hr_window_get_view (window, view)));
  return hr_size_view_get_model_picker (hr_window_get_size_view (window));
}

/* The screen, cut to @geometry, into @out. */
static gboolean
capture (const char *full,
         const char *geometry,
         const char *out)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char *[]) { "import", "-window", "root", (char *) full, NULL }, NULL,
                     G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error) ||
      !g_spawn_sync (NULL, (char *[]) { "convert", (char *) full, "-crop", (char *) geometry, "+repage",
                                        (char *) out, NULL },
                     NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("hub-screenshot: %s\n", error->message);
      return FALSE;
    }
  g_print ("%s (%s)\n", out, geometry);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *out = g_strdup (argc > 1 ? argv[1] : "hub-picker.png");
  g_autofree char *view = g_strdup (argc > 2 ? argv[2] : "size");
  int width = argc > 3 ? atoi (argv[3]) : 1000;
  g_autofree char *root = g_dir_make_tmp ("headroom-hub-shot-XXXXXX", NULL);
  g_autofree char *data_home = g_build_filename (root, "data", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *full = g_build_filename (root, "screen.png", NULL);
  g_autofree char *geometry = NULL;
  gboolean ok;
  HrApplication *app;
  HrWindow *window;
  HrPicker *picker;

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("HF_HOME", root, TRUE);
  g_unsetenv ("HF_TOKEN");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  /* the README's machine, not this one; no price refresh (and its toast) without a network */
  g_setenv ("HEADROOM_SYSROOT", root, TRUE);
  hr_test_init (&argc, &argv);
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    g_settings_set_strv (settings, "catalog-clouds", (const char * const[]) { NULL });
    /* Xvfb has no compositor: a popover's shadow would be drawn black */
    gtk_css_provider_load_from_data (css, "popover > contents, popover > arrow { box-shadow: none; }", -1);
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_USER);
  }
  H.home = g_strdup (root);
  hr_test_hub_start ();
  g_setenv ("HF_ENDPOINT", hr_test_server_get_url (H.hub), TRUE);
  app = hr_test_app_new ();

  window = hr_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), width > 0 ? width : 1000, 640);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_size_view (hr_window_get_size_view (window));
  if (g_strcmp0 (view, "manage") == 0)
    {
      /* Manage Yours with two models sized from the Hub (their Refresh buttons) */
      GtkWindow *manage;

      for (guint i = 0; i < 2; i++)
        {
          gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s",
                                      i == 0 ? "demo-org/Demo-GGUF" : "demo/Demo-FP8");
          hr_test_wait_while ((HrTestBusyFunc) hr_import_is_busy, hr_window_get_import (window));
        }
      gtk_widget_activate_action (GTK_WIDGET (window), "import.manage", NULL);
      manage = hr_import_get_dialog (hr_window_get_import (window));
      gtk_window_set_default_size (manage, 560, 420);
      hr_test_wait_settled (GTK_WIDGET (manage));
      hr_test_spin (1000);
      geometry = g_strdup_printf ("%dx%d+0+0", gtk_widget_get_width (GTK_WIDGET (window)),
                                  gtk_widget_get_height (GTK_WIDGET (window)));
      capture (full, geometry, out);
      return 0;
    }
  if (g_strcmp0 (view, "files") == 0)
    {
      /* a GGUF repository chosen, its files opened and scrolled to */
      HrSizeView *size = hr_window_get_size_view (window);
      GtkWidget *files = hr_size_view_get_hub_files (size);
      GtkWidget *scroller;
      graphene_point_t at;

      gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", "demo-org/Demo-GGUF");
      hr_test_wait_while ((HrTestBusyFunc) hr_import_is_busy, hr_window_get_import (window));
      hr_test_wait_size_view (size);
      hr_test_wait_while ((HrTestBusyFunc) hr_hub_files_is_busy, files);
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (hr_test_find_child_of_type (files, ADW_TYPE_EXPANDER_ROW)),
                                     TRUE);
      hr_test_wait_settled (GTK_WIDGET (window));
      hr_test_spin (600);
      scroller = gtk_widget_get_ancestor (files, GTK_TYPE_SCROLLED_WINDOW);
      if (scroller != NULL &&
          gtk_widget_compute_point (files, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                    &GRAPHENE_POINT_INIT (0, 0), &at))
        gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), at.y - 12);
      hr_test_wait_settled (GTK_WIDGET (window));
      hr_test_spin (5000);   /* the "Added" toast gone */
      geometry = g_strdup_printf ("%dx%d+0+0", gtk_widget_get_width (GTK_WIDGET (window)),
                                  gtk_widget_get_height (GTK_WIDGET (window)));
      return capture (full, geometry, out) ? 0 : 1;
    }
  hr_window_set_visible_view (window, view);
  picker = model_picker (window, view);
  /* a narrow window folds the scenario sidebar away: reveal it */
  {
    GtkWidget *flap = hr_test_find_child_of_type (hr_window_get_view (window, view), ADW_TYPE_FLAP);

    if (flap != NULL)
      adw_flap_set_reveal_flap (ADW_FLAP (flap), TRUE);
  }
  hr_test_wait_settled (GTK_WIDGET (window));
  /* …and its arrow's corner of the surface too */
  gtk_popover_set_has_arrow (GTK_POPOVER (hr_test_find_child_of_type (GTK_WIDGET (picker), GTK_TYPE_POPOVER)),
                             FALSE);
  hr_picker_popup (picker);
  hr_picker_search (picker, "demo");
  hr_test_wait_until (hub_shown, picker, "the Hub's results");
  hr_test_spin (1000);

  geometry = g_strdup_printf ("%dx%d+0+0", gtk_widget_get_width (GTK_WIDGET (window)),
                              gtk_widget_get_height (GTK_WIDGET (window)));
  ok = capture (full, geometry, out);

  hr_picker_popdown (picker);
  hr_test_window_close (window);
  g_clear_object (&app);
  hr_test_hub_stop ();
  g_unlink (full);
  return ok ? 0 : 1;
}
