/* hr-export-folder.c — where an export dialog opens and what file it writes (no display) */
#include "hr-export-folder.h"

#include <string.h>

static gboolean
is_folder (const char *path)
{
  return path != NULL && g_path_is_absolute (path) && g_file_test (path, G_FILE_TEST_IS_DIR);
}

char *
hr_export_start_folder (const char   *remembered,
                        HrExportKind  kind)
{
  const char *special;

  if (is_folder (remembered))
    return g_strdup (remembered);
  special = g_get_user_special_dir (kind == HR_EXPORT_TABLE ? G_USER_DIRECTORY_DOCUMENTS
                                                            : G_USER_DIRECTORY_PICTURES);
  if (is_folder (special))
    return g_strdup (special);
  return g_strdup (g_get_home_dir ());
}

char *
hr_export_complete_path (const char         *path,
                         const char * const *extensions,
                         const char         *fallback)
{
  const char *dot;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (fallback != NULL, NULL);

  dot = strrchr (path, '.');
  if (dot != NULL && strchr (dot, G_DIR_SEPARATOR) == NULL)
    for (guint i = 0; extensions != NULL && extensions[i] != NULL; i++)
      if (g_ascii_strcasecmp (dot + 1, extensions[i]) == 0)
        return g_strdup (path);
  return g_strconcat (path, ".", fallback, NULL);
}
