/* hr-test-window.c — what the window tests under Xvfb share (hr-test-window.h) */
#include "hr-test-window.h"

#include "hr-size-view.h"

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
hr_test_init (int    *argc,
              char ***argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  gtk_test_init (argc, argv, NULL);
}

HrApplication *
hr_test_app_new (void)
{
  g_autoptr(GError) error = NULL;
  HrApplication *app = hr_application_new ();

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  return app;
}

HrApplication *
hr_test_app_init (int    *argc,
                  char ***argv)
{
  hr_test_init (argc, argv);
  return hr_test_app_new ();
}

void
hr_test_spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
hr_test_flush (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
hr_test_wait_while (HrTestBusyFunc busy,
                    gpointer       data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  while (!timed_out && busy (data))
    g_main_context_iteration (NULL, TRUE);
  /* let the frame that shows it be laid out too */
  hr_test_flush ();
  g_assert_false (timed_out);
  g_source_remove (id);
}

static gboolean
size_view_busy (gpointer data)
{
  return hr_size_view_is_busy (data);
}

void
hr_test_wait_size_view (HrSizeView *view)
{
  hr_test_wait_while (size_view_busy, view);
}

HrWindow *
hr_test_window_open (HrApplication *app)
{
  HrWindow *window = hr_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_size_view (hr_window_get_size_view (window));
  return window;
}

void
hr_test_window_close (gpointer window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_flush ();
}

GtkWidget *
hr_test_find_child_of_type (GtkWidget *root,
                            GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = hr_test_find_child_of_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}
