/* hr-cli-chart.h — `headroom-cli chart KIND (scenario options) --out FILE` */
#pragma once

#include <glib.h>
#include "hr-catalog.h"

G_BEGIN_DECLS

/* argv[0] is the program, argv[1] the chart kind.  Returns the exit status: 0, 1 when the
 * work fails, 2 for bad arguments (the message names the bad value). */
int             hr_cli_chart                (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);

G_END_DECLS
