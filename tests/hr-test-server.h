/* hr-test-server.h — a local SoupServer on 127.0.0.1 in its own thread, for the tests
 *
 * The server listens on a free port with its own GMainContext, pushed as the thread-default
 * context of its thread, so handlers may attach sources to g_main_context_get_thread_default()
 * while the test's main thread blocks or spins its own loop.  No test reaches the outside
 * network.
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _HrTestServer HrTestServer;

/* Runs in the server's thread with its context pushed: @setup after the server listens (to
 * start more listeners there), @teardown when it stops. */
typedef void (*HrTestServerHook) (gpointer user_data);

/* Starts the server with @callback handling every path and returns once it listens. */
HrTestServer *hr_test_server_start       (SoupServerCallback  callback,
                                          gpointer            user_data);
HrTestServer *hr_test_server_start_full  (SoupServerCallback  callback,
                                          HrTestServerHook    setup,
                                          HrTestServerHook    teardown,
                                          gpointer            user_data);
/* "http://127.0.0.1:PORT", without a trailing slash. */
const char   *hr_test_server_get_url     (HrTestServer       *server);
guint         hr_test_server_get_port    (HrTestServer       *server);
/* The base URL followed by @path ("/x" gives "http://127.0.0.1:PORT/x"). */
char         *hr_test_server_url_for     (HrTestServer       *server,
                                          const char         *path);
/* Stops the server, waits for its thread and frees it. */
void          hr_test_server_stop        (HrTestServer       *server);

G_END_DECLS
