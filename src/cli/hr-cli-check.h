/* hr-cli-check.h — `headroom-cli check FILE|- [--model ID] [--gpu ID] [--gpus N] [--json]` */
#pragma once

#include <glib.h>
#include "hr-catalog.h"

G_BEGIN_DECLS

/* @argv[0] is the program, the command already removed.  Returns the exit status: 0, 1 when the
 * input cannot be read or is no output Headroom reads, 2 for bad arguments. */
int             hr_cli_check                (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);

/* What check and calibrate read: FILE (a regular file; a FIFO or device is refused before it can
 * block) or standard input for "-", at most HR_RUNS_MAX_BYTES + 1 bytes. */
GBytes         *hr_cli_read_runs_input      (const char      *path,
                                             GError         **error);

G_END_DECLS
