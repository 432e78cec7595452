/* hub-serve.c — the tests' local Hugging Face Hub (hr-test-hub.c), served until interrupted, to
 * try the CLI and the app against it by hand and to take the README's picker screenshot:
 *
 *   _build/tests/hub-serve &      # prints HF_ENDPOINT=http://127.0.0.1:PORT
 *   HF_ENDPOINT=… _build/src/cli/headroom-cli hub search demo
 *
 * Not a test; built on demand (ninja -C _build tests/hub-serve).
 */
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "hr-test-hub.h"

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  H.home = g_dir_make_tmp ("headroom-hub-serve-XXXXXX", NULL);
  hr_test_hub_start ();
  printf ("HF_ENDPOINT=%s\n", hr_test_server_get_url (H.hub));
  printf ("token for the gated repositories: %s\n", TOKEN);
  fflush (stdout);
  g_unix_signal_add (SIGINT, quit_cb, loop);
  g_unix_signal_add (SIGTERM, quit_cb, loop);
  g_main_loop_run (loop);
  hr_test_hub_stop ();
  g_rmdir (H.home);
  return 0;
}
