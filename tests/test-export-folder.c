/* test-export-folder.c — where the export dialogs open and what they write, without a display
 *
 * The folder of the last export while it exists, else Pictures (charts) or Documents (tables)
 * as the user's xdg-user-dirs name them, else home: never the working directory.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "hr-export-folder.h"

static char *root;          /* a fresh HOME with its own XDG config */
static char *pictures;
static char *documents;

static void
write_user_dirs (const char *pictures_dir,
                 const char *documents_dir)
{
  g_autofree char *config = g_build_filename (root, "config", NULL);
  g_autofree char *file = g_build_filename (config, "user-dirs.dirs", NULL);
  g_autofree char *text = g_strdup_printf ("XDG_PICTURES_DIR=\"%s\"\nXDG_DOCUMENTS_DIR=\"%s\"\n",
                                           pictures_dir, documents_dir);

  g_assert_true (g_file_set_contents (file, text, -1, NULL));
  g_reload_user_special_dirs_cache ();
}

static void
test_remembered (void)
{
  g_autofree char *last = g_build_filename (root, "exports", NULL);
  g_autofree char *chart = NULL, *table = NULL;

  g_assert_cmpint (g_mkdir_with_parents (last, 0700), ==, 0);
  chart = hr_export_start_folder (last, HR_EXPORT_CHART);
  table = hr_export_start_folder (last, HR_EXPORT_TABLE);
  g_assert_cmpstr (chart, ==, last);
  g_assert_cmpstr (table, ==, last);
  g_rmdir (last);
}

static void
test_first_time (void)
{
  g_autofree char *chart = hr_export_start_folder (NULL, HR_EXPORT_CHART);
  g_autofree char *table = hr_export_start_folder ("", HR_EXPORT_TABLE);

  g_assert_cmpstr (chart, ==, pictures);
  g_assert_cmpstr (table, ==, documents);
}

/* a remembered folder that was removed, a file, or a relative name is not used */
static void
test_remembered_gone (void)
{
  g_autofree char *gone = g_build_filename (root, "removed", NULL);
  g_autofree char *file = g_build_filename (root, "a-file", NULL);
  const char *bad[] = { gone, file, ".", "exports", NULL };

  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autofree char *chart = hr_export_start_folder (bad[i], HR_EXPORT_CHART);
      g_autofree char *table = hr_export_start_folder (bad[i], HR_EXPORT_TABLE);

      g_assert_cmpstr (chart, ==, pictures);
      g_assert_cmpstr (table, ==, documents);
    }
  g_unlink (file);
}

/* xdg-user-dirs names folders that were never made (or none at all): home, not the working
 * directory the app was started in */
static void
test_no_special_folder (void)
{
  g_autofree char *missing = g_build_filename (root, "Bilder", NULL);
  g_autofree char *chart = NULL, *table = NULL;
  g_autofree char *cwd = g_get_current_dir ();

  write_user_dirs (missing, missing);
  chart = hr_export_start_folder (NULL, HR_EXPORT_CHART);
  table = hr_export_start_folder (NULL, HR_EXPORT_TABLE);
  g_assert_cmpstr (chart, ==, root);
  g_assert_cmpstr (table, ==, root);
  g_assert_cmpstr (chart, !=, cwd);
  write_user_dirs (pictures, documents);
}

static void
test_complete_path (void)
{
  const char * const charts[] = { "png", "svg", "pdf", NULL };
  const char * const tables[] = { "csv", NULL };
  struct { const char *path; const char * const *exts; const char *fallback; const char *want; } cases[] = {
    { "/t/chart", charts, "svg", "/t/chart.svg" },
    { "/t/chart.png", charts, "svg", "/t/chart.png" },
    { "/t/chart.PDF", charts, "png", "/t/chart.PDF" },
    { "/t/chart.csv", charts, "png", "/t/chart.csv.png" },
    { "/t/v1.2/chart", charts, "png", "/t/v1.2/chart.png" },
    { "/t/chart.", charts, "png", "/t/chart..png" },
    { "/t/table", tables, "csv", "/t/table.csv" },
    { "/t/table.CSV", tables, "csv", "/t/table.CSV" },
    { "/t/table.png", tables, "csv", "/t/table.png.csv" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = hr_export_complete_path (cases[i].path, cases[i].exts, cases[i].fallback);

      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config = NULL;
  int ret;

  root = g_dir_make_tmp ("headroom-export-folder-XXXXXX", NULL);
  g_assert_nonnull (root);
  config = g_build_filename (root, "config", NULL);
  pictures = g_build_filename (root, "Pictures", NULL);
  documents = g_build_filename (root, "Documents", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (pictures, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (documents, 0700), ==, 0);
  /* before GLib reads them */
  g_setenv ("HOME", root, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  g_test_init (&argc, &argv, NULL);
  write_user_dirs (pictures, documents);

  g_test_add_func ("/export-folder/remembered", test_remembered);
  g_test_add_func ("/export-folder/first-time", test_first_time);
  g_test_add_func ("/export-folder/remembered-gone", test_remembered_gone);
  g_test_add_func ("/export-folder/no-special-folder", test_no_special_folder);
  g_test_add_func ("/export-folder/complete-path", test_complete_path);

  ret = g_test_run ();
  g_unlink (g_build_filename (config, "user-dirs.dirs", NULL));
  g_rmdir (config);
  g_rmdir (pictures);
  g_rmdir (documents);
  g_rmdir (root);
  return ret;
}
