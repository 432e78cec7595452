/* hr-test-cli.h — running headroom-cli from a test and keeping what it said
 *
 * The tests that run the command line as a user does (test-cli, test-cli-inspect,
 * test-cli-detect) share this: build the argument list, spawn, wait, and check the process
 * exited by itself (a signal is never acceptable).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *out;
  char *err;
  int status;   /* the exit status */
} HrTestRun;

void hr_test_run_clear          (HrTestRun   *r);
/* Appends the NULL-terminated string arguments of @ap to @argv. */
void hr_test_args_append_valist (GPtrArray   *argv,
                                 va_list      ap);
/* Runs @argv (NULL-terminated, the program first) with @envp and waits for it. */
void hr_test_run_spawn          (HrTestRun   *r,
                                 GPtrArray   *argv,
                                 char       **envp);

G_END_DECLS
