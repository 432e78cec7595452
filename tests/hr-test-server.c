/* hr-test-server.c — a local SoupServer on 127.0.0.1 in its own thread (hr-test-server.h) */
#include "hr-test-server.h"

struct _HrTestServer
{
  GThread *thread;
  GMainLoop *loop;
  char *base_url;
  guint port;
  GMutex mutex;
  GCond cond;
  gboolean running;
  SoupServerCallback callback;
  HrTestServerHook setup;
  HrTestServerHook teardown;
  gpointer user_data;
};

static gpointer
server_thread (gpointer data)
{
  HrTestServer *server = data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(SoupServer) soup_server = NULL;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (context);
  server->loop = g_main_loop_new (context, FALSE);

  soup_server = soup_server_new ("server-header", "headroom-test-server", NULL);
  soup_server_add_handler (soup_server, NULL, server->callback, server->user_data, NULL);
  soup_server_listen_local (soup_server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (soup_server);
  g_assert_nonnull (uris);
  server->port = (guint) g_uri_get_port (uris->data);
  server->base_url = g_strdup_printf ("http://127.0.0.1:%u", server->port);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  if (server->setup != NULL)
    server->setup (server->user_data);

  g_mutex_lock (&server->mutex);
  server->running = TRUE;
  g_cond_signal (&server->cond);
  g_mutex_unlock (&server->mutex);

  g_main_loop_run (server->loop);

  if (server->teardown != NULL)
    server->teardown (server->user_data);
  soup_server_disconnect (soup_server);
  g_main_context_pop_thread_default (context);
  return NULL;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

HrTestServer *
hr_test_server_start_full (SoupServerCallback callback,
                           HrTestServerHook   setup,
                           HrTestServerHook   teardown,
                           gpointer           user_data)
{
  HrTestServer *server = g_new0 (HrTestServer, 1);

  server->callback = callback;
  server->setup = setup;
  server->teardown = teardown;
  server->user_data = user_data;
  g_mutex_init (&server->mutex);
  g_cond_init (&server->cond);
  server->thread = g_thread_new ("test-server", server_thread, server);

  g_mutex_lock (&server->mutex);
  while (!server->running)
    g_cond_wait (&server->cond, &server->mutex);
  g_mutex_unlock (&server->mutex);
  return server;
}

HrTestServer *
hr_test_server_start (SoupServerCallback callback,
                      gpointer           user_data)
{
  return hr_test_server_start_full (callback, NULL, NULL, user_data);
}

const char *
hr_test_server_get_url (HrTestServer *server)
{
  return server->base_url;
}

guint
hr_test_server_get_port (HrTestServer *server)
{
  return server->port;
}

char *
hr_test_server_url_for (HrTestServer *server,
                        const char   *path)
{
  return g_strconcat (server->base_url, path, NULL);
}

void
hr_test_server_stop (HrTestServer *server)
{
  if (server == NULL)
    return;
  g_main_context_invoke (g_main_loop_get_context (server->loop), quit_cb, server->loop);
  g_thread_join (server->thread);
  g_main_loop_unref (server->loop);
  g_mutex_clear (&server->mutex);
  g_cond_clear (&server->cond);
  g_free (server->base_url);
  g_free (server);
}
