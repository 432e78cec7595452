/* hr-cli-pricing.h — `headroom-cli pricing [--url URL] [--timeout S] [--json]` */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @argv[0] is the program or subcommand name (a "pricing" after the program name is accepted
 * too); the options follow.  Prints the bundled snapshot, or the validated feed at --url.
 * Returns the exit status: 0, 1 on failure (one line on stderr), 2 on bad arguments. */
int             hr_cli_pricing              (int     argc,
                                             char  **argv);

G_END_DECLS
