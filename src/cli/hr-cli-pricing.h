/* hr-cli-pricing.h — `headroom-cli pricing [--catalog-base URL] [--clouds LIST] [--region P]
 *                     [--spot] [--url FEED] [--timeout S] [--json]` */
#pragma once

#include <glib.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

/* @argv[0] is the program or subcommand name (a "pricing" after the program name is accepted
 * too); the options follow.  Refreshes the SkyPilot catalog cache and prints the offers.
 * Returns the exit status: 0, 1 on failure (one line on stderr), 2 on bad arguments. */
int             hr_cli_pricing              (int     argc,
                                             char  **argv);

/* Puts the SkyPilot catalog's prices (each cloud from the cache `pricing` and the app keep,
 * else the bundled snapshot; on demand, cheapest region) into @catalog, for the commands that
 * show a cost (estimate, matrix, compare, chart, bench).  No network. */
void            hr_cli_use_catalog_prices   (HrCatalog *catalog);

G_END_DECLS
