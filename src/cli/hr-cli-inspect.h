/* hr-cli-inspect.h — `headroom-cli inspect FILE.gguf [--context N] [--json]` */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @argv[0] is the program, the command already removed.  Returns the exit status: 0, 1 when the
 * file cannot be read or is not a valid GGUF, 2 for bad arguments. */
int             hr_cli_inspect              (int              argc,
                                             char           **argv);

G_END_DECLS
