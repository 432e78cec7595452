/* bench-gui.c — how fast the window is: cold start to the first frame, and a slider drag
 *
 * Not a test: it asserts nothing and prints figures (a table, or --json for build-aux/dev bench).
 * Run under a display (build-aux/dev bench uses xvfb-run and a private D-Bus session):
 *
 *   first frame   fork/exec `headroom` with HEADROOM_BENCH_FIRST_FRAME=1 (src/gui/main.c) N times;
 *                 the time from fork to its first painted frame, median, and its peak RSS.
 *   slider drag   the Size view's context slider driven through 200 positions, one per frame
 *                 clock tick, every view built; each recompute's main-thread time (the view's
 *                 own measure) plus the session's "scenario-changed" handlers (the views that
 *                 follow it), the frame intervals, and the longest main-loop turns, by what ran
 *                 in them.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "hr-application.h"
#include "hr-report.h"
#include "hr-window.h"

#define RECOMPUTE_BUDGET_US 4000

/* ---- statistics ------------------------------------------------------------------------------ */

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Nearest-rank percentile of @v (sorted in place); NAN when empty. */
static double
percentile (GArray *v,
            double  p)
{
  guint i;

  if (v->len == 0)
    return NAN;
  g_array_sort (v, cmp_double);
  i = (guint) ceil (p / 100.0 * v->len);
  return g_array_index (v, double, CLAMP (i, 1, v->len) - 1);
}

static double
max_of (GArray *v)
{
  return percentile (v, 100);
}

/* ---- cold start ------------------------------------------------------------------------------ */

typedef struct
{
  GArray *first_frame_us;
  GArray *exit_us;
  long peak_rss_kib;
  guint failures;
} ColdStart;

/* One run: fork, exec @binary, read its "first-frame-us N" line, reap it.  @home, when not
 * NULL: the child's XDG cache, data and config directories are @home/cache, /data, /config (a
 * fresh @home is a first launch: no price cache, no measured RAM speed, nothing saved). */
static gboolean
cold_start_once (const char *binary,
                 const char *home,
                 ColdStart  *out)
{
  int fds[2];
  gint64 t0, t_frame = 0;
  pid_t pid;
  char buf[256];
  gsize len = 0;
  int status = 0;
  struct rusage ru;
  double us;

  if (pipe (fds) != 0)
    return FALSE;
  t0 = g_get_monotonic_time ();
  pid = fork ();
  if (pid < 0)
    return FALSE;
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);
      dup2 (fds[1], 1);
      if (null >= 0)
        {
          dup2 (null, 0);
          if (!g_getenv ("BENCH_GUI_VERBOSE"))
            dup2 (null, 2);
        }
      close (fds[0]);
      close (fds[1]);
      setenv ("HEADROOM_BENCH_FIRST_FRAME", "1", 1);
      if (home != NULL)
        {
          g_autofree char *cache = g_build_filename (home, "cache", NULL);
          g_autofree char *data = g_build_filename (home, "data", NULL);
          g_autofree char *config = g_build_filename (home, "config", NULL);

          setenv ("XDG_CACHE_HOME", cache, 1);
          setenv ("XDG_DATA_HOME", data, 1);
          setenv ("XDG_CONFIG_HOME", config, 1);
        }
      execl (binary, binary, (char *) NULL);
      _exit (127);
    }
  close (fds[1]);

  /* 30 s is forever for a first frame: a hung child is killed, not waited for */
  while (len < sizeof buf - 1)
    {
      struct pollfd p = { fds[0], POLLIN, 0 };
      ssize_t n;
      int r = poll (&p, 1, 30000);

      if (r == 0)
        {
          kill (pid, SIGKILL);
          break;
        }
      if (r < 0 && errno == EINTR)
        continue;
      n = read (fds[0], buf + len, sizeof buf - 1 - len);
      if (n <= 0)
        break;
      len += n;
      buf[len] = '\0';
      if (strchr (buf, '\n') != NULL)
        break;
    }
  buf[len] = '\0';
  close (fds[0]);

  if (wait4 (pid, &status, 0, &ru) < 0)
    return FALSE;
  us = (double) (g_get_monotonic_time () - t0);
  if (sscanf (buf, "first-frame-us %" G_GINT64_FORMAT, &t_frame) != 1 || t_frame <= t0)
    return FALSE;

  {
    double first = (double) (t_frame - t0);
    g_array_append_val (out->first_frame_us, first);
    g_array_append_val (out->exit_us, us);
  }
  out->peak_rss_kib = MAX (out->peak_rss_kib, ru.ru_maxrss);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static void
cold_start_init (ColdStart *out)
{
  out->first_frame_us = g_array_new (FALSE, FALSE, sizeof (double));
  out->exit_us = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
cold_start_clear (ColdStart *out)
{
  g_clear_pointer (&out->first_frame_us, g_array_unref);
  g_clear_pointer (&out->exit_us, g_array_unref);
}

/* Removes @path and everything below it (a directory this benchmark made). */
static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

/* @runs cold starts of @binary and of @reference, alternated (A, B, A, B …) so that the load of
 * the moment falls on both alike.  @first_launch: each pair starts from empty XDG directories;
 * otherwise every run shares one set, warmed by an unmeasured run of each (page cache, price
 * cache, measured RAM speed: any later launch). */
static void
cold_start (const char *binary,
            const char *reference,
            int         runs,
            gboolean    first_launch,
            ColdStart  *out,
            ColdStart  *ref)
{
  g_autofree char *shared = g_dir_make_tmp ("hr-bench-home-XXXXXX", NULL);
  g_autofree char *shaders = g_build_filename (shared, "mesa-shader-cache", NULL);

  /* The GL driver's shader cache is the system's, shared by every GL program of the user and
   * warm on any desktop; it lives in XDG_CACHE_HOME by default, so a fresh one would time
   * Mesa compiling GTK's shaders (1.4 s more under llvmpipe), not Headroom's first launch.  It
   * stays in the warmed directory for every run of both programs. */
  g_setenv ("MESA_SHADER_CACHE_DIR", shaders, TRUE);
  cold_start_init (out);
  cold_start_init (ref);
  {
    ColdStart warm;

    cold_start_init (&warm);
    cold_start_once (binary, shared, &warm);
    cold_start_once (reference, shared, &warm);
    cold_start_clear (&warm);
  }
  for (int i = 0; i < runs; i++)
    {
      g_autofree char *fresh = first_launch ? g_dir_make_tmp ("hr-bench-home-XXXXXX", NULL) : NULL;
      const char *home = first_launch ? fresh : shared;

      if (!cold_start_once (binary, home, out))
        out->failures++;
      if (!cold_start_once (reference, home, ref))
        ref->failures++;
      if (fresh != NULL)
        remove_tree (fresh);
    }
  if (shared != NULL)
    remove_tree (shared);
}

/* ---- slider drag ----------------------------------------------------------------------------- */

typedef struct
{
  HrSizeView *view;
  GtkRange *slider;
  GMainLoop *loop;
  int steps;
  int step;
  double lower, upper;

  GArray *recompute_us;      /* each recompute, as the view measured it */
  GArray *followers_us;      /* the views' session "scenario-changed" handlers, per recompute */
  GArray *total_us;          /* the two together: one recompute's whole main-thread time */
  HrSession *session;
  gint64 emission_start;
  gint64 followers_since;    /* the handlers' time since the last recompute */
  GArray *frame_interval_us; /* between consecutive after-paint signals */
  gint64 last_paint;
  guint n_paints;

  /* main-loop turns, measured from one poll() to the next */
  GPollFunc real_poll;
  gint64 turn_start;
  guint seen_recomputes;
  guint seen_paints;
  const HrAdviceState *seen_advice;
  gboolean measuring;
  gint64 turn_start_cpu;
  double longest_turn_us;
  /* per kind of turn, wall time and the main thread's CPU time (which a busy machine's
   * preemption does not inflate) */
  GArray *recompute_turn_us, *recompute_turn_cpu_us;
  GArray *advice_turn_us, *advice_turn_cpu_us;
  GArray *frame_turn_us, *frame_turn_cpu_us;
  guint n_advice_applied;
  const char *renderer;      /* the GskRenderer's type name */
} Drag;

static Drag *the_drag;

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Wraps poll(): the time since the previous poll returned is one main-loop turn. */
static int
timing_poll (GPollFD *fds,
             guint    nfds,
             int      timeout)
{
  Drag *d = the_drag;
  gint64 now = g_get_monotonic_time ();
  int ret;

  if (d->measuring && d->turn_start != 0)
    {
      double turn = (double) (now - d->turn_start);
      double cpu = (double) (thread_cpu_us () - d->turn_start_cpu);
      guint recomputes = hr_size_view_get_n_recomputes (d->view);
      const HrAdviceState *advice = hr_size_view_get_advice (d->view);

      d->longest_turn_us = MAX (d->longest_turn_us, turn);
      if (recomputes != d->seen_recomputes)
        {
          g_array_append_val (d->recompute_turn_us, turn);
          g_array_append_val (d->recompute_turn_cpu_us, cpu);
        }
      if (advice != d->seen_advice)
        {
          g_array_append_val (d->advice_turn_us, turn);
          g_array_append_val (d->advice_turn_cpu_us, cpu);
          d->n_advice_applied++;
        }
      if (d->n_paints != d->seen_paints)
        {
          g_array_append_val (d->frame_turn_us, turn);
          g_array_append_val (d->frame_turn_cpu_us, cpu);
        }
      d->seen_recomputes = recomputes;
      d->seen_advice = advice;
      d->seen_paints = d->n_paints;
    }
  ret = d->real_poll (fds, nfds, timeout);
  d->turn_start = g_get_monotonic_time ();
  d->turn_start_cpu = thread_cpu_us ();
  return ret;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Drag          *d)
{
  gint64 now = g_get_monotonic_time ();

  if (d->measuring && d->last_paint != 0)
    {
      double interval = (double) (now - d->last_paint);
      g_array_append_val (d->frame_interval_us, interval);
    }
  d->last_paint = now;
  d->n_paints++;
}

/* Runs before any handler of the session's "scenario-changed" (the views that follow it). */
static gboolean
emission_hook_cb (GSignalInvocationHint *hint,
                  guint                  n_params,
                  const GValue          *params,
                  gpointer               user_data)
{
  Drag *d = user_data;

  if (g_value_get_object (&params[0]) == (gpointer) d->session)
    d->emission_start = g_get_monotonic_time ();
  return TRUE;
}

/* Connected after: every view has followed the change (one drag step may change the session
 * more than once: the times add up to the Size view's next recompute). */
static void
session_changed_cb (HrSession *session,
                    Drag      *d)
{
  if (d->emission_start != 0)
    d->followers_since += g_get_monotonic_time () - d->emission_start;
  d->emission_start = 0;
}

/* The Size view recomputed. */
static void
scenario_changed_cb (HrSizeView *view,
                     Drag       *d)
{
  if (d->measuring)
    {
      double us = (double) hr_size_view_get_last_recompute_us (view);
      double followers = (double) d->followers_since;
      double total = us + followers;

      g_array_append_val (d->recompute_us, us);
      g_array_append_val (d->followers_us, followers);
      g_array_append_val (d->total_us, total);
    }
  d->followers_since = 0;
}

/* Up the whole range and back down, as a hand would drag it. */
static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  Drag *d = user_data;
  double t;

  if (d->step >= d->steps)
    {
      g_main_loop_quit (d->loop);
      return G_SOURCE_REMOVE;
    }
  t = (double) d->step / (d->steps - 1) * 2.0;
  t = t <= 1.0 ? t : 2.0 - t;
  gtk_range_set_value (d->slider, d->lower + t * (d->upper - d->lower));
  d->step++;
  return G_SOURCE_CONTINUE;
}

/* The slider whose value is log2 of the context adjustment's (the offload slider is not). */
static GtkRange *
find_context_slider (GtkWidget     *root,
                     GtkAdjustment *context)
{
  double want = log2 (MAX (gtk_adjustment_get_value (context), 1));

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkRange *found;

      if (GTK_IS_SCALE (child) && fabs (gtk_range_get_value (GTK_RANGE (child)) - want) < 0.01)
        return GTK_RANGE (child);
      if ((found = find_context_slider (child, context)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_idle (HrSizeView *view)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  while (!timed_out && hr_size_view_is_busy (view))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (!timed_out)
    g_source_remove (id);
}

static gboolean
slider_drag (int   steps,
             Drag *d)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrApplication) app = hr_application_new ();
  HrWindow *window;
  GtkAdjustment *adj;
  guint paint_handler;
  guint signal_id;
  gulong hook_id;
  GdkFrameClock *clock;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      g_printerr ("bench-gui: %s\n", error->message);
      return FALSE;
    }
  window = hr_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  d->view = hr_window_get_size_view (window);
  /* every view follows the drag, as once the user has opened each */
  hr_window_get_view (window, "compare");
  hr_window_get_view (window, "finetune");
  hr_window_get_view (window, "cloud");
  wait_idle (d->view);

  d->slider = find_context_slider (GTK_WIDGET (d->view), hr_size_view_get_context_adjustment (d->view));
  if (d->slider == NULL)
    {
      g_printerr ("bench-gui: the Size view's context slider was not found\n");
      gtk_window_destroy (GTK_WINDOW (window));
      return FALSE;
    }
  adj = gtk_range_get_adjustment (d->slider);
  d->lower = gtk_adjustment_get_lower (adj);
  d->upper = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj);
  d->steps = steps;
  d->recompute_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->followers_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->recompute_turn_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->recompute_turn_cpu_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->advice_turn_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->advice_turn_cpu_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->frame_turn_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->frame_turn_cpu_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->total_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->frame_interval_us = g_array_new (FALSE, FALSE, sizeof (double));
  d->loop = g_main_loop_new (NULL, FALSE);

  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  paint_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), d);
  d->session = hr_size_view_get_session (d->view);
  signal_id = g_signal_lookup ("scenario-changed", HR_TYPE_SESSION);  /* the class exists by now */
  hook_id = g_signal_add_emission_hook (signal_id, 0, emission_hook_cb, d, NULL);
  g_signal_connect_after (d->session, "scenario-changed", G_CALLBACK (session_changed_cb), d);
  g_signal_connect_after (d->view, "scenario-changed", G_CALLBACK (scenario_changed_cb), d);
  the_drag = d;
  d->real_poll = g_main_context_get_poll_func (NULL);
  g_main_context_set_poll_func (NULL, timing_poll);
  d->seen_recomputes = hr_size_view_get_n_recomputes (d->view);
  d->seen_advice = hr_size_view_get_advice (d->view);
  d->measuring = TRUE;

  gtk_widget_add_tick_callback (GTK_WIDGET (window), tick_cb, d, NULL);
  g_main_loop_run (d->loop);
  /* the last positions' recomputes and their advice still count */
  wait_idle (d->view);

  d->measuring = FALSE;
  d->renderer = G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window)));
  g_main_context_set_poll_func (NULL, d->real_poll);
  g_signal_handler_disconnect (clock, paint_handler);
  g_signal_handlers_disconnect_by_func (d->view, scenario_changed_cb, d);
  g_signal_remove_emission_hook (signal_id, hook_id);
  g_main_loop_unref (d->loop);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return TRUE;
}

/* ---- output ---------------------------------------------------------------------------------- */

typedef struct
{
  const char *name;
  double median_us, p95_us, max_us, target_us;
  int runs;
  gboolean target_is_max;   /* a budget no single case may exceed, not a median */
} Row;

static void
print_time (GString *out,
            double   us)
{
  if (!isfinite (us))
    g_string_append_printf (out, " %12s", "—");
  else if (us >= 1000)
    g_string_append_printf (out, " %9.2f ms", us / 1000);
  else
    g_string_append_printf (out, " %9.1f µs", us);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *headroom = NULL;
  g_autofree char *reference = NULL;
  int runs = 10, steps = 200;
  gboolean json = FALSE, no_start = FALSE, no_drag = FALSE;
  const GOptionEntry entries[] = {
    { "headroom", 0, 0, G_OPTION_ARG_FILENAME, &headroom, "The headroom binary (default: the build's)", "PATH" },
    { "reference", 0, 0, G_OPTION_ARG_FILENAME, &reference,
      "The empty AdwApplicationWindow to compare with (default: the build's bench-empty-window)", "PATH" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Cold starts to time (10)", "N" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &steps, "Slider positions (200)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "JSON output", NULL },
    { "no-start", 0, 0, G_OPTION_ARG_NONE, &no_start, "Skip the cold start", NULL },
    { "no-drag", 0, 0, G_OPTION_ARG_NONE, &no_drag, "Skip the slider drag", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) octx = g_option_context_new ("— time Headroom's window");
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  ColdStart cs = { 0 }, ref = { 0 }, first = { 0 }, ref_first = { 0 };
  double ratio_later = NAN, ratio_first = NAN;
  Drag drag = { 0 };
  Row rows[16];
  int n = 0;
  int over_budget = 0;

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      g_printerr ("bench-gui: %s\n", error->message);
      return 2;
    }
  if (headroom == NULL)
    headroom = g_strdup (HEADROOM_BIN);
  if (reference == NULL)
    reference = g_strdup (EMPTY_WINDOW_BIN);
  runs = CLAMP (runs, 1, 1000);
  steps = CLAMP (steps, 2, 100000);

  /* the same quiet, reproducible setup for the child and for this process */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", HEADROOM_SCHEMA_DIR, TRUE);

  if (!no_start)
    {
      cold_start (headroom, reference, runs, FALSE, &cs, &ref);
      cold_start (headroom, reference, runs, TRUE, &first, &ref_first);
      ratio_later = percentile (cs.first_frame_us, 50) / percentile (ref.first_frame_us, 50);
      ratio_first = percentile (first.first_frame_us, 50) / percentile (ref_first.first_frame_us, 50);
      rows[n++] = (Row) { "app cold start to first drawn frame", percentile (cs.first_frame_us, 50),
                          percentile (cs.first_frame_us, 95), max_of (cs.first_frame_us), 500000, cs.first_frame_us->len };
      rows[n++] = (Row) { "empty AdwApplicationWindow to its first frame (reference)",
                          percentile (ref.first_frame_us, 50), percentile (ref.first_frame_us, 95),
                          max_of (ref.first_frame_us), NAN, ref.first_frame_us->len };
      rows[n++] = (Row) { "app first launch (empty cache and data) to first frame",
                          percentile (first.first_frame_us, 50), percentile (first.first_frame_us, 95),
                          max_of (first.first_frame_us), NAN, first.first_frame_us->len };
      rows[n++] = (Row) { "empty AdwApplicationWindow, same empty directories (reference)",
                          percentile (ref_first.first_frame_us, 50), percentile (ref_first.first_frame_us, 95),
                          max_of (ref_first.first_frame_us), NAN, ref_first.first_frame_us->len };
      rows[n++] = (Row) { "app cold start to first frame, then quit and exit", percentile (cs.exit_us, 50),
                          percentile (cs.exit_us, 95), max_of (cs.exit_us), NAN, cs.exit_us->len };
    }

  if (!no_drag)
    {
      if (!gtk_init_check ())
        {
          g_printerr ("bench-gui: no display (run under xvfb-run)\n");
          return 1;
        }
      if (!slider_drag (steps, &drag))
        return 1;
      rows[n++] = (Row) { "slider drag: Size view recompute (its own measure)", percentile (drag.recompute_us, 50),
                          percentile (drag.recompute_us, 95), max_of (drag.recompute_us), NAN,
                          drag.recompute_us->len };
      rows[n++] = (Row) { "slider drag: other views following the scenario", percentile (drag.followers_us, 50),
                          percentile (drag.followers_us, 95), max_of (drag.followers_us), NAN,
                          drag.followers_us->len };
      rows[n++] = (Row) { "slider drag: recompute on the main thread, all views", percentile (drag.total_us, 50),
                          percentile (drag.total_us, 95), max_of (drag.total_us), RECOMPUTE_BUDGET_US,
                          drag.total_us->len, TRUE };
      rows[n++] = (Row) { "slider drag: frame interval", percentile (drag.frame_interval_us, 50),
                          percentile (drag.frame_interval_us, 95), max_of (drag.frame_interval_us), NAN,
                          drag.frame_interval_us->len };
#define TURN_ROWS(label, wall, cpu, budget, is_max) \
      rows[n++] = (Row) { "slider drag: main-loop turn " label ", wall time", percentile (wall, 50), \
                          percentile (wall, 95), max_of (wall), budget, wall->len, is_max }; \
      rows[n++] = (Row) { "slider drag: main-loop turn " label ", thread CPU time", percentile (cpu, 50), \
                          percentile (cpu, 95), max_of (cpu), budget, cpu->len, is_max }
      TURN_ROWS ("running a recompute", drag.recompute_turn_us, drag.recompute_turn_cpu_us, RECOMPUTE_BUDGET_US, TRUE);
      TURN_ROWS ("applying the advice", drag.advice_turn_us, drag.advice_turn_cpu_us, NAN, FALSE);
      TURN_ROWS ("drawing a frame", drag.frame_turn_us, drag.frame_turn_cpu_us, NAN, FALSE);
#undef TURN_ROWS
      rows[n++] = (Row) { "slider drag: longest main-loop turn of any kind, wall time", NAN, NAN,
                          drag.longest_turn_us, NAN, 0 };
      for (guint i = 0; i < drag.total_us->len; i++)
        over_budget += g_array_index (drag.total_us, double, i) > RECOMPUTE_BUDGET_US;
    }

  if (json)
    {
      HrJsonWriter w;
      hr_json_init (&w, out, TRUE);
      hr_json_begin_object (&w);
      hr_json_key (&w, "results");
      hr_json_begin_array (&w);
      for (int i = 0; i < n; i++)
        {
          hr_json_begin_object (&w);
          hr_json_key (&w, "name"); hr_json_string (&w, rows[i].name);
          hr_json_key (&w, "median_us"); hr_json_number (&w, rows[i].median_us, 1);
          hr_json_key (&w, "p95_us"); hr_json_number (&w, rows[i].p95_us, 1);
          hr_json_key (&w, "max_us"); hr_json_number (&w, rows[i].max_us, 1);
          hr_json_key (&w, "target_us"); hr_json_number (&w, rows[i].target_us, 0);
          hr_json_key (&w, "runs"); hr_json_int (&w, rows[i].runs);
          hr_json_key (&w, "target_applies_to"); hr_json_string (&w, rows[i].target_is_max ? "max" : "median");
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      if (!no_start)
        {
          hr_json_key (&w, "app_peak_rss_kib"); hr_json_int (&w, cs.peak_rss_kib);
          hr_json_key (&w, "cold_start_failures"); hr_json_int (&w, cs.failures + first.failures);
          hr_json_key (&w, "reference_failures"); hr_json_int (&w, ref.failures + ref_first.failures);
          /* headroom's median first frame over the empty window's, measured alternately */
          hr_json_key (&w, "first_frame_ratio_later"); hr_json_number (&w, ratio_later, 2);
          hr_json_key (&w, "first_frame_ratio_first"); hr_json_number (&w, ratio_first, 2);
        }
      if (!no_drag)
        {
          hr_json_key (&w, "drag_steps"); hr_json_int (&w, steps);
          hr_json_key (&w, "drag_recomputes"); hr_json_int (&w, drag.recompute_us->len);
          hr_json_key (&w, "drag_recomputes_over_budget"); hr_json_int (&w, over_budget);
          hr_json_key (&w, "drag_advice_applied"); hr_json_int (&w, drag.n_advice_applied);
          hr_json_key (&w, "renderer"); hr_json_string (&w, drag.renderer);
        }
      hr_json_end_object (&w);
      g_string_append_c (out, '\n');
    }
  else
    {
      g_string_append_printf (out, "%-58s %12s %12s %12s %12s %6s\n", "GUI benchmark", "median", "p95", "max",
                              "target", "n");
      for (int i = 0; i < n; i++)
        {
          g_string_append_printf (out, "%-58s", rows[i].name);
          print_time (out, rows[i].median_us);
          print_time (out, rows[i].p95_us);
          print_time (out, rows[i].max_us);
          print_time (out, rows[i].target_us);
          if (rows[i].runs > 0)
            g_string_append_printf (out, " %6d\n", rows[i].runs);
          else
            g_string_append (out, "      —\n");
        }
      if (!no_start)
        {
          g_string_append_printf (out, "headroom peak RSS: %ld KiB (%u failed cold starts)\n",
                                  cs.peak_rss_kib, cs.failures + first.failures);
          g_string_append_printf (out, "first frame / empty AdwApplicationWindow's: %.2f× on later launches "
                                  "(target 1.5×), %.2f× on a first launch (target 1.8×)\n",
                                  ratio_later, ratio_first);
        }
      if (!no_drag)
        g_string_append_printf (out, "slider drag: %d positions, %u recomputes (%d over %d µs), "
                                "%u advice results applied, renderer %s\n", steps, drag.recompute_us->len,
                                over_budget, RECOMPUTE_BUDGET_US, drag.n_advice_applied, drag.renderer);
    }
  fputs (out->str, stdout);
  {
    gboolean failed = cs.failures + first.failures + ref.failures + ref_first.failures > 0;

    cold_start_clear (&cs);
    cold_start_clear (&ref);
    cold_start_clear (&first);
    cold_start_clear (&ref_first);
    return failed ? 1 : 0;
  }
}
