/* TEMPORARY shim written by the lead so the CLI links; the helper owning this file replaces it. */
#pragma once
#include "hr-catalog.h"
int hr_cli_inspect (int argc, char **argv);
