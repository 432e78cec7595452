/* hr-cli-bench.h — `headroom-cli bench`: timings of the hot paths, as medians */
#pragma once

#include "hr-catalog.h"

int hr_cli_bench (int argc, char **argv, const HrCatalog *catalog);
