/* hr-file.h — reading a file from outside without blocking and without limit
 *
 * A FIFO put where a file is expected blocks open () until a writer comes; a device (a symlink
 * to /dev/zero) never ends.  Every reader of a file Headroom did not write itself (a GGUF, a
 * config.json, /proc and /sys under HEADROOM_SYSROOT, the caches, the saved lists, the hub
 * token) opens it here: without blocking, then checked on the open descriptor to be a regular
 * file, then read up to a cap.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Opens @path read-only without blocking in open () and returns the descriptor when it is a
 * regular file (after symlinks), blocking reads restored; -1 otherwise, with a G_FILE_ERROR
 * whose message is only the reason ("No such file or directory", "not a regular file"), for
 * the caller to put after its own words. */
int       hr_file_open_regular (const char  *path,
                                GError     **error);

/* Reads at most @max bytes of the regular file @path (opened as above) into a NUL-terminated
 * buffer.  *@too_large (may be NULL) says the file holds more than @max bytes: the first @max
 * are returned.  FALSE with @error (as above) when it cannot be opened or read. */
gboolean  hr_file_read_regular (const char  *path,
                                gsize        max,
                                char       **contents,
                                gsize       *length,
                                gboolean    *too_large,
                                GError     **error);

G_END_DECLS
