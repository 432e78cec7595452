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

G_END_DECLS
