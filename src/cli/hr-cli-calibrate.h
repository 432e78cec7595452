/* hr-cli-calibrate.h — `headroom-cli calibrate FILE… [--gpu ID|this] [--json]`, `--list`, `--remove` */
#pragma once

#include <glib.h>
#include "hr-catalog.h"

G_BEGIN_DECLS

/* @argv[0] is the program, the command already removed.  Returns the exit status: 0, 1 when an
 * input cannot be read, no run can calibrate a device or the file cannot be written, 2 for bad
 * arguments. */
int             hr_cli_calibrate            (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);

G_END_DECLS
