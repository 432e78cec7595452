/* hr-test-cli.c — running headroom-cli from a test (hr-test-cli.h) */
#include "hr-test-cli.h"

#include <sys/wait.h>

void
hr_test_run_clear (HrTestRun *r)
{
  g_free (r->out);
  g_free (r->err);
}

void
hr_test_args_append_valist (GPtrArray *argv,
                            va_list    ap)
{
  const char *arg;

  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
}

void
hr_test_run_spawn (HrTestRun  *r,
                   GPtrArray  *argv,
                   char      **envp)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  /* a signal is never acceptable */
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}
