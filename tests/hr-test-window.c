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
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

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
hr_test_window_close (HrWindow *window)
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
