/* hr-file.c — reading a file from outside without blocking and without limit (see hr-file.h) */
#include "hr-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void
set_errno_error (GError **error,
                 int      saved_errno)
{
  g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       g_strerror (saved_errno));
}

int
hr_file_open_regular (const char  *path,
                      GError     **error)
{
  struct stat st;
  int fd, flags;

  g_return_val_if_fail (path != NULL, -1);

  /* O_NONBLOCK: open () on a FIFO returns at once instead of waiting for a writer */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_errno_error (error, errno);
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      g_close (fd, NULL);
      set_errno_error (error, saved_errno);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_close (fd, NULL);
      g_set_error_literal (error, G_FILE_ERROR, S_ISDIR (st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
                           /* TRANSLATORS: why a file could not be read, after its name */
                           _("not a regular file"));
      return -1;
    }
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

gboolean
hr_file_read_regular (const char  *path,
                      gsize        max,
                      char       **contents,
                      gsize       *length,
                      gboolean    *too_large,
                      GError     **error)
{
  g_autofree char *buf = NULL;
  gsize have = 0, cap;
  int fd;

  g_return_val_if_fail (contents != NULL && length != NULL, FALSE);
  g_return_val_if_fail (max < G_MAXSIZE - 1, FALSE);

  *contents = NULL;
  *length = 0;
  if (too_large != NULL)
    *too_large = FALSE;
  fd = hr_file_open_regular (path, error);
  if (fd < 0)
    return FALSE;
  /* grown as the file is read (a /proc file says it is empty), up to one byte past @max to
   * tell a file of exactly @max bytes from a longer one */
  cap = MIN (max + 1, (gsize) 64 * 1024);
  buf = g_malloc (cap + 1);
  for (;;)
    {
      gssize got;

      if (have == cap)
        {
          if (cap == max + 1)
            break;
          cap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
          buf = g_realloc (buf, cap + 1);
        }
      got = read (fd, buf + have, cap - have);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved_errno = errno;

          g_close (fd, NULL);
          set_errno_error (error, saved_errno);
          return FALSE;
        }
      if (got == 0)
        break;
      have += (gsize) got;
    }
  g_close (fd, NULL);
  if (too_large != NULL)
    *too_large = have > max;
  have = MIN (have, max);
  buf[have] = '\0';
  *length = have;
  *contents = g_steal_pointer (&buf);
  return TRUE;
}
