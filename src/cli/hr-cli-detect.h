/* hr-cli-detect.h — `headroom-cli detect [--json]`: this computer's GPUs, CPU and RAM */
#pragma once

#include <glib.h>
#include "hr-catalog.h"

G_BEGIN_DECLS

/* Lists what was found under HEADROOM_SYSROOT (default /) and how it matched the catalog, and
 * the device `--gpu this` sizes against.  Returns the exit status (0; 2 on bad arguments). */
int             hr_cli_detect               (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);

G_END_DECLS
