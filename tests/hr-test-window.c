/* hr-test-window.c — what the window tests under Xvfb share (hr-test-window.h) */
#include "hr-test-window.h"

#include "hr-size-view.h"

/* How long a wait may take before it fails the test: generous, for a loaded machine. */
#define HR_TEST_WAIT_S 60
/* Frames in a row with no widget moved or resized before a layout counts as settled. */
#define HR_TEST_SETTLED_FRAMES 3

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
  guint id = g_timeout_add_seconds (HR_TEST_WAIT_S, timeout_cb, &timed_out);

  while (!timed_out && busy (data))
    g_main_context_iteration (NULL, TRUE);
  /* let the frame that shows it be laid out too */
  hr_test_flush ();
  if (timed_out)
    g_error ("still busy after %d s", HR_TEST_WAIT_S);
  g_source_remove (id);
}

typedef struct {
  HrTestBusyFunc ready;
  gpointer       data;
} Until;

static gboolean
not_yet (gpointer data)
{
  Until *until = data;

  return !until->ready (until->data);
}

void
hr_test_wait_until (HrTestBusyFunc ready,
                    gpointer       data,
                    const char    *what)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (HR_TEST_WAIT_S, timeout_cb, &timed_out);
  Until until = { ready, data };

  while (!timed_out && not_yet (&until))
    g_main_context_iteration (NULL, TRUE);
  if (timed_out)
    g_error ("gave up after %d s waiting for %s", HR_TEST_WAIT_S, what);
  g_source_remove (id);
}

/* Where every mapped widget under @root is, one line each (position in @root, size). */
static void
layout_of (GtkWidget *root,
           GtkWidget *widget,
           GString   *out)
{
  graphene_point_t p = GRAPHENE_POINT_INIT (0, 0);

  if (!gtk_widget_get_mapped (widget))
    return;
  if (!gtk_widget_compute_point (widget, root, &GRAPHENE_POINT_INIT (0, 0), &p))
    p = GRAPHENE_POINT_INIT (-1, -1);
  g_string_append_printf (out, "%p %g %g %d %d\n", (void *) widget, p.x, p.y,
                          gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    layout_of (root, c, out);
}

typedef struct {
  GtkWidget *widget;
  GString   *last;    /* the layout the last frame left */
  guint      same;    /* frames in a row that left it as the one before */
} Settle;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  Settle *settle = data;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (settle->widget));
  g_autoptr(GString) now = g_string_new (NULL);

  layout_of (root, root, now);
  if (gtk_widget_get_mapped (settle->widget) && g_string_equal (now, settle->last))
    settle->same++;
  else
    settle->same = 0;
  g_string_assign (settle->last, now->str);
}

static gboolean
settled (gpointer data)
{
  Settle *settle = data;

  if (settle->same >= HR_TEST_SETTLED_FRAMES)
    return TRUE;
  /* ask for the next frame: it lays out whatever is queued, then paints */
  gtk_widget_queue_draw (GTK_WIDGET (gtk_widget_get_root (settle->widget)));
  return FALSE;
}

void
hr_test_wait_settled (GtkWidget *widget)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  Settle settle = { widget, g_string_new (NULL), 0 };
  GdkFrameClock *clock;
  gulong id;
  g_autofree char *what = NULL;

  g_assert_nonnull (root);
  gtk_widget_realize (root);
  clock = gtk_widget_get_frame_clock (root);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &settle);
  what = g_strdup_printf ("%s to be mapped and its window laid out the same %d frames in a row",
                          G_OBJECT_TYPE_NAME (widget), HR_TEST_SETTLED_FRAMES);
  hr_test_wait_until (settled, &settle, what);
  g_signal_handler_disconnect (clock, id);
  g_string_free (settle.last, TRUE);
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
