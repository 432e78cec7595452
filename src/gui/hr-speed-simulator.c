/* hr-speed-simulator.c — streams text at an estimated speed
 *
 * After the estimated time to first token, tokens of a fixed text appear at the estimated
 * decode rate, paced by the frame clock (several tokens per frame when the rate is above the
 * refresh rate), so that "40 tok/s" becomes something a person can watch.
 */
#include "hr-speed-simulator.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-scenario-state.h"

/* Written for Headroom; English on purpose, like most model output people try first. */
static const char sample_text[] =
  "Memory is the first wall a language model meets. Before a single token appears, every "
  "weight has to sit in device memory, and the cache of keys and values grows with each token "
  "of context the model keeps in view. Decoding is then a matter of bandwidth: for each new "
  "token the accelerator streams the active weights from memory, so a card with twice the "
  "bandwidth writes roughly twice as fast, while raw compute mostly waits. Prefill is the "
  "opposite case. The whole prompt is processed at once, the arithmetic units stay busy, and "
  "the time to the first token depends on how many operations per second the device sustains. "
  "Quantization trades a little precision for a lot of room: four bits per weight instead of "
  "sixteen leave space for a longer context, a second conversation, or a larger model. Mixture "
  "of experts models read only a few experts per token, which is why a large sparse model can "
  "answer faster than a smaller dense one, provided all of its experts fit somewhere. When they "
  "do not, the slowest memory in the path sets the pace, and that is usually system RAM. "
  "Numbers like these are estimates, not promises, yet they are close enough to decide what to "
  "download, what to rent, and what to buy before spending an afternoon on a failed launch.";

#define TOKEN_CHARS 4

struct _HrSpeedSimulator
{
  GtkWidget parent_instance;

  /* template */
  GtkLabel *status_label;
  GtkButton *toggle_button;
  AdwButtonContent *toggle_content;
  GtkTextView *text_view;

  GPtrArray *tokens;
  double ttft_ms;
  double tps;
  char *label;
  char *note;

  /* the current run */
  guint tick_id;
  gint64 start_us;
  double run_ttft_ms;
  double run_tps;
  guint shown;
  gboolean running;
};

enum
{
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (HrSpeedSimulator, hr_speed_simulator, GTK_TYPE_WIDGET)

static void
update_idle_status (HrSpeedSimulator *self)
{
  if (!isfinite (self->ttft_ms) || !isfinite (self->tps) || self->tps <= 0)
    gtk_label_set_label (self->status_label, self->note != NULL ? self->note
                                                                : _("The speed of this scenario is unknown."));
  else
    {
      g_autofree char *text = hr_size_simulator_text (HR_SIMULATOR_IDLE, self->ttft_ms, self->tps, 0, 0);
      g_autofree char *full = self->note != NULL ? g_strdup_printf ("%s %s", self->note, text) : NULL;
      gtk_label_set_label (self->status_label, full != NULL ? full : text);
    }
}

static void
update_toggle (HrSpeedSimulator *self)
{
  gboolean can_run = isfinite (self->ttft_ms) && isfinite (self->tps) && self->tps > 0;

  adw_button_content_set_icon_name (self->toggle_content,
                                    self->running ? "media-playback-stop-symbolic"
                                                  : "media-playback-start-symbolic");
  adw_button_content_set_label (self->toggle_content, self->running ? _("_Stop") : _("_Start"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "simulator.toggle", self->running || can_run);
}

static void
append_text (HrSpeedSimulator *self,
             const char       *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, text, -1);
}

static void
scroll_to_end (HrSpeedSimulator *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);

  gtk_text_view_scroll_mark_onscreen (self->text_view, gtk_text_buffer_get_insert (buffer));
}

static void
set_running (HrSpeedSimulator *self,
             gboolean          running)
{
  if (self->running == running)
    return;
  self->running = running;
  if (!running && self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  update_toggle (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  HrSpeedSimulator *self = HR_SPEED_SIMULATOR (widget);
  double elapsed_ms = (gdk_frame_clock_get_frame_time (clock) - self->start_us) / 1000.0;
  g_autofree char *status = NULL;
  g_autofree char *rate = hr_size_format_tps (self->run_tps);
  guint due;

  if (elapsed_ms < self->run_ttft_ms)
    {
      status = hr_size_simulator_text (HR_SIMULATOR_PROMPT, self->run_ttft_ms, self->run_tps, elapsed_ms, 0);
      gtk_label_set_label (self->status_label, status);
      return G_SOURCE_CONTINUE;
    }

  /* the first token lands at the TTFT, the next ones one decode step apart */
  due = (guint) MIN ((double) self->tokens->len,
                     floor ((elapsed_ms - self->run_ttft_ms) / 1000.0 * self->run_tps) + 1);
  if (due > self->shown)
    {
      g_autoptr(GString) chunk = g_string_new (NULL);
      for (guint i = self->shown; i < due; i++)
        g_string_append (chunk, g_ptr_array_index (self->tokens, i));
      append_text (self, chunk->str);
      self->shown = due;
      scroll_to_end (self);
    }

  if (self->shown >= self->tokens->len)
    {
      status = hr_size_simulator_text (HR_SIMULATOR_DONE, self->run_ttft_ms, self->run_tps, elapsed_ms,
                                       self->shown);
      gtk_label_set_label (self->status_label, status);
      self->tick_id = 0;
      set_running (self, FALSE);
      return G_SOURCE_REMOVE;
    }
  /* TRANSLATORS: simulator status while tokens stream */
  /* TRANSLATORS: the speed simulator while it generates, e.g. "Generating at ~40.2 tok/s… 12 tokens" */
  status = g_strdup_printf (_("Generating at %s… %u tokens"), rate, self->shown);
  gtk_label_set_label (self->status_label, status);
  return G_SOURCE_CONTINUE;
}

static void
toggle_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrSpeedSimulator *self = HR_SPEED_SIMULATOR (widget);

  if (self->running)
    hr_speed_simulator_stop (self);
  else
    hr_speed_simulator_start (self);
}

/* GObject ---------------------------------------------------------------------------------- */

static void
hr_speed_simulator_dispose (GObject *object)
{
  HrSpeedSimulator *self = HR_SPEED_SIMULATOR (object);
  GtkWidget *child;

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SPEED_SIMULATOR);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (hr_speed_simulator_parent_class)->dispose (object);
}

static void
hr_speed_simulator_finalize (GObject *object)
{
  HrSpeedSimulator *self = HR_SPEED_SIMULATOR (object);

  g_clear_pointer (&self->tokens, g_ptr_array_unref);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->note, g_free);

  G_OBJECT_CLASS (hr_speed_simulator_parent_class)->finalize (object);
}

static void
hr_speed_simulator_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  HrSpeedSimulator *self = HR_SPEED_SIMULATOR (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_speed_simulator_class_init (HrSpeedSimulatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_speed_simulator_dispose;
  object_class->finalize = hr_speed_simulator_finalize;
  object_class->get_property = hr_speed_simulator_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-speed-simulator.ui");
  gtk_widget_class_bind_template_child (widget_class, HrSpeedSimulator, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrSpeedSimulator, toggle_button);
  gtk_widget_class_bind_template_child (widget_class, HrSpeedSimulator, toggle_content);
  gtk_widget_class_bind_template_child (widget_class, HrSpeedSimulator, text_view);

  gtk_widget_class_install_action (widget_class, "simulator.toggle", NULL, toggle_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_speed_simulator_init (HrSpeedSimulator *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->tokens = hr_speed_simulator_tokenize (sample_text);
  self->ttft_ms = NAN;
  self->tps = NAN;
  update_idle_status (self);
  update_toggle (self);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
hr_speed_simulator_new (void)
{
  return g_object_new (HR_TYPE_SPEED_SIMULATOR, NULL);
}

void
hr_speed_simulator_set_rate (HrSpeedSimulator *self,
                             double            ttft_ms,
                             double            tokens_per_second,
                             const char       *label)
{
  g_return_if_fail (HR_IS_SPEED_SIMULATOR (self));

  self->ttft_ms = ttft_ms;
  self->tps = tokens_per_second;
  g_free (self->label);
  self->label = g_strdup (label);
  /* a run in progress keeps the pace it started with */
  if (!self->running)
    update_idle_status (self);
  update_toggle (self);
}

void
hr_speed_simulator_set_note (HrSpeedSimulator *self,
                             const char       *note)
{
  g_return_if_fail (HR_IS_SPEED_SIMULATOR (self));

  if (g_strcmp0 (self->note, note) == 0)
    return;
  g_free (self->note);
  self->note = g_strdup (note);
  if (!self->running)
    update_idle_status (self);
}

void
hr_speed_simulator_start (HrSpeedSimulator *self)
{
  GtkTextBuffer *buffer;

  g_return_if_fail (HR_IS_SPEED_SIMULATOR (self));

  if (!isfinite (self->ttft_ms) || !isfinite (self->tps) || self->tps <= 0)
    return;
  if (self->running)
    hr_speed_simulator_stop (self);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, "", -1);
  if (self->label != NULL)
    {
      /* TRANSLATORS: first line of a simulated run, e.g. "[GLM-4.5-Air · 69.96 GiB] …" */
      g_autofree char *intro = g_strdup_printf (_("[%s] Prompt received; answering at the estimated speed.\n\n"),
                                                self->label);
      append_text (self, intro);
    }
  self->run_ttft_ms = self->ttft_ms;
  self->run_tps = self->tps;
  self->shown = 0;
  self->start_us = g_get_monotonic_time ();
  {
    GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
    if (clock != NULL)
      self->start_us = gdk_frame_clock_get_frame_time (clock);
  }
  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);
  set_running (self, TRUE);
}

void
hr_speed_simulator_stop (HrSpeedSimulator *self)
{
  g_return_if_fail (HR_IS_SPEED_SIMULATOR (self));

  if (!self->running)
    return;
  set_running (self, FALSE);
  {
    /* TRANSLATORS: simulator status after the user stopped it */
    g_autofree char *status = g_strdup_printf (_("Stopped after %u tokens."), self->shown);
    gtk_label_set_label (self->status_label, status);
  }
}

gboolean
hr_speed_simulator_get_running (HrSpeedSimulator *self)
{
  g_return_val_if_fail (HR_IS_SPEED_SIMULATOR (self), FALSE);
  return self->running;
}

guint
hr_speed_simulator_get_n_shown (HrSpeedSimulator *self)
{
  g_return_val_if_fail (HR_IS_SPEED_SIMULATOR (self), 0);
  return self->shown;
}

GPtrArray *
hr_speed_simulator_tokenize (const char *text)
{
  GPtrArray *tokens = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  g_return_val_if_fail (text != NULL, tokens);

  while (*p != '\0')
    {
      const char *start = p;
      guint n = 0;

      /* a leading space rides with the token after it, like in real tokenizers */
      while (*p == ' ')
        p = g_utf8_next_char (p);
      while (*p != '\0' && *p != ' ' && n < TOKEN_CHARS)
        {
          p = g_utf8_next_char (p);
          n++;
        }
      if (p == start)
        break;
      g_ptr_array_add (tokens, g_strndup (start, p - start));
    }
  return tokens;
}
