/* TEMPORARY shim written by the lead so the CLI links; the helper owning this file replaces it. */
#include <stdio.h>
#include "hr-cli-chart.h"
int hr_cli_chart (int argc, char **argv, const HrCatalog *catalog) { fprintf (stderr, "headroom-cli: chart is not built yet\n"); return 1; }
