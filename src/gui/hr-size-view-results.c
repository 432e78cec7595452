/* hr-size-view-results.c — the Size view's result widgets, filled from plain states
 *
 * Everything here only displays: the words and numbers come from hr-scenario-state.c, which
 * the tests check without a display.
 */
#include "hr-size-view-private.h"
#include "hr-placement-card.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-chart-data.h"
#include "hr-hub-files.h"
#include "hr-size-load.h"
#include "hr-command-text.h"
#include "hr-table-cells.h"
#include "hr-toast.h"
#include "hr-units.h"

/* Applying the state ---------------------------------------------------------------------- */

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_label (label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && text[0] != '\0');
}

void
hr_size_view_apply_state (HrSizeView *self)
{
  const HrSizeState *st = &self->state;

  set_label (self->title_label, st->title);
  if (self->hub_files != NULL)
    hr_hub_files_set_model (HR_HUB_FILES (self->hub_files), self->have_scenario ? self->scenario.model : NULL,
                            self->have_scenario && self->scenario.quant[0] != '\0' ? self->scenario.quant : NULL);
  set_label (self->subtitle_label, st->subtitle);
  hr_verdict_banner_set (HR_VERDICT_BANNER (self->verdict_banner), st->verdict_css, st->verdict_icon,
                         st->verdict_title, st->verdict_detail);

  for (guint i = 0; i < HR_SIZE_N_CARDS; i++)
    {
      const HrSizeCard *c = &st->cards[i];
      g_autofree char *card_a11y = g_strdup_printf ("%s: %s, %s", c->caption, c->value, c->detail ? c->detail : "");
      GtkWidget *card = gtk_widget_get_parent (GTK_WIDGET (self->card_values[i]));

      gtk_label_set_label (self->card_captions[i], c->caption);
      gtk_label_set_label (self->card_values[i], c->value);
      set_label (self->card_details[i], c->detail);
      set_label (self->card_notes[i], c->note);
      /* a figure that is not what this setup does is greyed, its detail says why */
      if (c->not_this_setup)
        gtk_widget_add_css_class (GTK_WIDGET (self->card_values[i]), "dim-label");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->card_values[i]), "dim-label");
      gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, card_a11y, -1);
      /* the focus stops on the flow box's child: it is what a screen reader names */
      if (GTK_IS_FLOW_BOX_CHILD (gtk_widget_get_parent (card)))
        gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (card)),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, card_a11y, -1);
    }
  set_label (self->breakdown_label, st->breakdown);
  set_label (self->projector_label, st->projector);
  set_label (self->source_label, st->weights_source);
  {
    g_auto(HrPlacementState) placement = { 0 };

    hr_placement_state_init (&placement);
    if (st->ok && self->estimate_ok)
      hr_placement_state_from_estimate (&placement, &self->scenario, &self->estimate);
    hr_placement_card_set_state (HR_PLACEMENT_CARD (self->placement_card), &placement);
  }

  if (st->ok)
    {
      g_autofree char *label = g_strdup_printf ("%s · %s", self->scenario.model->name,
                                                st->cards[HR_SIZE_CARD_REQUIRED].value);
      if (st->simulator_note != NULL)
        {
          g_free (label);
          label = g_strdup_printf ("%s · %s", self->scenario.model->name, st->simulator_note);
        }
      hr_speed_simulator_set_rate (self->simulator, st->simulator_ttft_ms, st->simulator_tps, label);
    }
  else
    hr_speed_simulator_set_rate (self->simulator, NAN, NAN, NULL);
  hr_speed_simulator_set_note (self->simulator, st->ok ? st->simulator_note : NULL);

  gtk_widget_set_sensitive (GTK_WIDGET (self->breakdown_chart), st->ok);
  gtk_widget_set_sensitive (GTK_WIDGET (self->context_chart), st->ok);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", st->ok);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.export-chart", st->ok);
}

void
hr_size_view_update_charts (HrSizeView *self)
{
  HrChartBreakdown *breakdown;
  HrChartContext *context;
  g_autoptr(GError) error = NULL;

  if (self->load != NULL)
    hr_size_load_update (self->load, &self->scenario, &self->estimate, self->estimate_ok);
  if (!self->estimate_ok)
    {
      hr_chart_widget_set_data (self->breakdown_chart, HR_CHART_BREAKDOWN, NULL);
      hr_chart_widget_set_data (self->context_chart, HR_CHART_CONTEXT, NULL);
      return;
    }

  breakdown = g_new0 (HrChartBreakdown, 1);
  hr_chart_breakdown_from_estimate (&self->scenario, &self->estimate, breakdown);
  hr_chart_widget_set_data (self->breakdown_chart, HR_CHART_BREAKDOWN, breakdown);
  hr_chart_widget_set_description (self->breakdown_chart, self->state.breakdown);
  g_free (breakdown);

  context = g_new0 (HrChartContext, 1);
  if (hr_chart_context_from_scenario (&self->scenario, 0, context, &error))
    {
      g_autofree char *desc = NULL;
      g_autofree char *fit = context->max_fit_context > 0 ? hr_format_context_locale ((gint64) context->max_fit_context)
                                                          : g_strdup (_("none"));
      g_autofree char *from = hr_format_context_locale ((gint64) context->min_context);
      g_autofree char *to = hr_format_context_locale ((gint64) context->max_context);
      /* TRANSLATORS: description of the context chart for screen readers */
      desc = g_strdup_printf (_("Memory needed from %s to %s tokens of context; the longest context that fits is %s."),
                              from, to, fit);
      hr_chart_widget_set_data (self->context_chart, HR_CHART_CONTEXT, context);
      hr_chart_widget_set_description (self->context_chart, desc);
    }
  else
    {
      g_debug ("context chart: %s", error->message);
      hr_chart_widget_set_data (self->context_chart, HR_CHART_CONTEXT, NULL);
    }
  g_free (context);
}

/* Whole-catalog answers -------------------------------------------------------------------- */

static GtkWidget *
matrix_cell (HrSizeView *self,
             guint       column,
             const char *text,
             gboolean    numeric)
{
  return hr_table_column_label (self->matrix_columns[column], text, numeric);
}

static GtkWidget *
matrix_header_row (HrSizeView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  const char *titles[] = { _("Quantization"), _("Weights"), _("KV cache"), _("Total"), _("Decode"), _("Verdict") };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      GtkWidget *cell = matrix_cell (self, i, titles[i], i >= 1 && i <= 4);
      gtk_widget_add_css_class (cell, "caption-heading");
      if (i == 5)
        gtk_widget_set_hexpand (cell, TRUE);
      gtk_box_append (GTK_BOX (box), cell);
    }
  /* focusable: GTK 4.8's list box enters at its first row, and skips the whole list when that
   * row takes no focus; the keyboard stops on the column titles, then on each quantization */
  return hr_table_header_row (box, TRUE);
}

/* The matrix rows, diagnosis sentences and launch cards are kept between advice results and
 * updated in place: rebuilding ~40 rows of labels from scratch cost ~20 ms on the main thread.
 * Each row carries its child widgets in object data, so nothing extra is owned by the view;
 * only the difference in count is added or removed, and unchanged text is not set again
 * (setting a label's text queues a resize even when it is the same). */

static void
update_label (GtkLabel   *label,
              const char *text)
{
  if (text == NULL)
    text = "";
  if (g_strcmp0 (gtk_label_get_label (label), text) != 0)
    gtk_label_set_label (label, text);
}

/* Sets the accessible label only when it differs from the last one set through here. */
static void
update_a11y_label (GtkWidget  *widget,
                   const char *text)
{
  if (g_strcmp0 (g_object_get_data (G_OBJECT (widget), "hr-a11y-label"), text) == 0)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  g_object_set_data_full (G_OBJECT (widget), "hr-a11y-label", g_strdup (text), g_free);
}

static void
update_tooltip (GtkWidget  *widget,
                const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

static void
update_string_data (GObject    *object,
                    const char *key,
                    const char *value)
{
  if (g_strcmp0 (g_object_get_data (object, key), value) != 0)
    g_object_set_data_full (object, key, g_strdup (value), g_free);
}

static void
update_css_class (GtkWidget  *widget,
                  const char *css_class,
                  gboolean    on)
{
  if (gtk_widget_has_css_class (widget, css_class) == on)
    return;
  if (on)
    gtk_widget_add_css_class (widget, css_class);
  else
    gtk_widget_remove_css_class (widget, css_class);
}

typedef struct
{
  GtkLabel *cells[5];   /* quant, weights, KV, total, decode */
  GtkWidget *verdict;
  GtkImage *icon;
  GtkLabel *vlabel;
  GtkLabel *second;
  char *verdict_css;
  char *verdict_icon;
} MatrixRowWidgets;

static void
matrix_row_widgets_free (gpointer data)
{
  MatrixRowWidgets *w = data;

  g_free (w->verdict_css);
  g_free (w->verdict_icon);
  g_free (w);
}

static GtkWidget *
matrix_row_new (HrSizeView *self)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  MatrixRowWidgets *w = g_new0 (MatrixRowWidgets, 1);
  GtkWidget *second;

  for (guint i = 0; i < G_N_ELEMENTS (w->cells); i++)
    {
      GtkWidget *cell = matrix_cell (self, i, "", i > 0);

      if (i == 0)
        gtk_widget_add_css_class (cell, "heading");
      gtk_box_append (GTK_BOX (line), cell);
      w->cells[i] = GTK_LABEL (cell);
    }
  w->verdict = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  w->icon = GTK_IMAGE (gtk_image_new ());
  w->vlabel = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_xalign (w->vlabel, 0);
  gtk_label_set_ellipsize (w->vlabel, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (w->verdict), GTK_WIDGET (w->icon));
  gtk_box_append (GTK_BOX (w->verdict), GTK_WIDGET (w->vlabel));
  gtk_widget_set_hexpand (w->verdict, TRUE);
  gtk_size_group_add_widget (self->matrix_columns[5], w->verdict);
  gtk_box_append (GTK_BOX (line), w->verdict);

  second = gtk_label_new ("");
  gtk_label_set_xalign (GTK_LABEL (second), 0);
  gtk_label_set_wrap (GTK_LABEL (second), TRUE);
  gtk_widget_add_css_class (second, "caption");
  gtk_widget_add_css_class (second, "dim-label");
  w->second = GTK_LABEL (second);

  gtk_box_append (GTK_BOX (outer), line);
  gtk_box_append (GTK_BOX (outer), second);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), outer);
  gtk_widget_add_css_class (row, "matrix-row");
  g_object_set_data_full (G_OBJECT (row), "hr-matrix-row", w, matrix_row_widgets_free);
  return row;
}

static void
matrix_row_update (GtkWidget              *row,
                   const HrMatrixRowState *st)
{
  MatrixRowWidgets *w = g_object_get_data (G_OBJECT (row), "hr-matrix-row");
  const char *texts[] = { st->quant, st->weights, st->kv, st->total, st->decode };
  g_autofree char *more = NULL;
  g_autofree char *a11y = NULL;
  g_autofree char *tooltip = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    update_label (w->cells[i], texts[i]);

  if (g_strcmp0 (w->verdict_icon, st->verdict_icon) != 0)
    {
      gtk_image_set_from_icon_name (w->icon, st->verdict_icon);
      g_free (w->verdict_icon);
      w->verdict_icon = g_strdup (st->verdict_icon);
    }
  update_label (w->vlabel, st->verdict_text);
  if (g_strcmp0 (w->verdict_css, st->verdict_css) != 0)
    {
      if (w->verdict_css != NULL)
        gtk_widget_remove_css_class (w->verdict, w->verdict_css);
      if (st->verdict_css != NULL)
        gtk_widget_add_css_class (w->verdict, st->verdict_css);
      g_free (w->verdict_css);
      w->verdict_css = g_strdup (st->verdict_css);
    }

  /* TRANSLATORS: second line of a quantization-matrix row */
  more = g_strdup_printf (_("%s · Smallest GPU that fits: %s · Weights: %s"),
                          st->label, st->smallest, st->source);
  update_label (w->second, more);
  update_css_class (row, "current", st->current);

  a11y = g_strdup_printf (_("%s%s: weights %s, KV cache %s, total %s (%s), decode %s, %s. %s"),
                          st->quant, st->current ? _(" (current)") : "", st->weights, st->kv,
                          st->total, st->total_gb, st->decode, st->verdict_text, more);
  update_a11y_label (row, a11y);
  tooltip = g_strdup_printf (st->current ? _("%s is the current quantization") : _("Use %s"), st->quant);
  update_tooltip (row, tooltip);
  update_string_data (G_OBJECT (row), "quant", st->quant);
}

static void
apply_matrix (HrSizeView *self)
{
  guint n = self->advice ? self->advice->matrix->len : 0;
  GtkWidget *child;
  guint i = 0;

  if (self->matrix_header == NULL || gtk_widget_get_parent (self->matrix_header) != GTK_WIDGET (self->matrix_list))
    {
      while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->matrix_list))) != NULL)
        gtk_list_box_remove (self->matrix_list, child);
      self->matrix_header = matrix_header_row (self);
      gtk_list_box_append (self->matrix_list, self->matrix_header);
    }

  /* the rows after the header, in order: update them, then drop or add the difference */
  child = gtk_widget_get_next_sibling (self->matrix_header);
  for (; i < n && child != NULL; i++, child = gtk_widget_get_next_sibling (child))
    matrix_row_update (child, g_ptr_array_index (self->advice->matrix, i));
  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      gtk_list_box_remove (self->matrix_list, child);
      child = next;
    }
  for (; i < n; i++)
    {
      GtkWidget *row = matrix_row_new (self);

      matrix_row_update (row, g_ptr_array_index (self->advice->matrix, i));
      gtk_list_box_append (self->matrix_list, row);
    }
}

static void
update_row_text (AdwActionRow *row,
                 const char   *title,
                 const char   *subtitle)
{
  if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) != 0)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (g_strcmp0 (adw_action_row_get_subtitle (row), subtitle) != 0)
    adw_action_row_set_subtitle (row, subtitle);
}

static void
apply_reverse_and_picks (HrSizeView *self)
{
  for (guint i = 0; i < HR_N_REVERSE; i++)
    {
      const HrReverseState *r = &self->advice->reverse[i];
      g_autofree char *a11y = g_strdup_printf (_("Apply %s: %s"), r->title, r->value);

      update_row_text (self->reverse_rows[i], r->title, r->value);
      gtk_widget_set_sensitive (GTK_WIDGET (self->reverse_buttons[i]), r->applicable);
      update_a11y_label (GTK_WIDGET (self->reverse_buttons[i]), a11y);
    }
  for (guint i = 0; i < HR_N_PICKS; i++)
    {
      const HrPickState *p = &self->advice->picks[i];
      g_autofree char *subtitle = p->detail && p->detail[0] ? g_strdup_printf ("%s\n%s", p->value, p->detail)
                                                            : g_strdup (p->value);
      g_autofree char *a11y = g_strdup_printf (_("Select %s: %s"), p->title, p->value);

      update_row_text (self->pick_rows[i], p->title, subtitle);
      gtk_widget_set_sensitive (GTK_WIDGET (self->pick_buttons[i]), p->gpu_id != NULL);
      update_a11y_label (GTK_WIDGET (self->pick_buttons[i]), a11y);
    }
}

static void
apply_diagnosis (HrSizeView *self)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->diagnosis_box));
  guint n = self->advice->diagnosis->len;
  guint i = 0;

  for (; i < n && child != NULL; i++, child = gtk_widget_get_next_sibling (child))
    update_label (GTK_LABEL (child), g_ptr_array_index (self->advice->diagnosis, i));
  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      gtk_box_remove (self->diagnosis_box, child);
      child = next;
    }
  for (; i < n; i++)
    {
      GtkWidget *label = gtk_label_new (g_ptr_array_index (self->advice->diagnosis, i));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      if (i == 0)
        gtk_widget_add_css_class (label, "heading");
      gtk_box_append (self->diagnosis_box, label);
    }
}

static void
copy_command_clicked_cb (HrSizeView *self,
                         GtkButton  *button)
{
  const char *command = g_object_get_data (G_OBJECT (button), "command");

  if (command != NULL)
    hr_toast_copied (GTK_WIDGET (self), command, _("Copied"));
}

typedef struct
{
  GtkLabel *title;
  GtkWidget *copy;
  GtkLabel *text;
  GtkLabel *note;
} LaunchCardWidgets;

static GtkWidget *
launch_card_new (HrSizeView *self)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title = gtk_label_new ("");
  GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  GtkWidget *text = gtk_label_new ("");
  GtkWidget *note = gtk_label_new ("");
  LaunchCardWidgets *w = g_new0 (LaunchCardWidgets, 1);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "command-card");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (copy, "flat");
  gtk_widget_set_tooltip_text (copy, _("Copy Command"));
  g_signal_connect_object (copy, "clicked", G_CALLBACK (copy_command_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (head), title);
  gtk_box_append (GTK_BOX (head), copy);

  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (text), TRUE);
  gtk_widget_add_css_class (text, "monospace");
  gtk_widget_add_css_class (text, "command");

  /* hidden when the command has no note */
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_add_css_class (note, "caption");
  gtk_widget_add_css_class (note, "dim-label");
  gtk_widget_set_visible (note, FALSE);

  gtk_box_append (GTK_BOX (card), head);
  gtk_box_append (GTK_BOX (card), text);
  gtk_box_append (GTK_BOX (card), note);

  w->title = GTK_LABEL (title);
  w->copy = copy;
  w->text = GTK_LABEL (text);
  w->note = GTK_LABEL (note);
  g_object_set_data_full (G_OBJECT (card), "hr-launch-card", w, g_free);
  return card;
}

static void
launch_card_update (GtkWidget             *card,
                    const HrLaunchCommand *cmd)
{
  LaunchCardWidgets *w = g_object_get_data (G_OBJECT (card), "hr-launch-card");
  gboolean has_note = cmd->note != NULL && cmd->note[0] != '\0';
  g_autofree char *a11y = g_strdup_printf (_("Copy the %s command"), cmd->title);

  update_label (w->title, cmd->title);
  /* it breaks between arguments only: "--ctx-size 8192" stays on one line */
  hr_command_label_set (w->text, cmd->command);
  update_a11y_label (w->copy, a11y);
  update_string_data (G_OBJECT (w->copy), "command", cmd->command);
  if (has_note)
    update_label (w->note, cmd->note);
  gtk_widget_set_visible (GTK_WIDGET (w->note), has_note);
}

static void
apply_launch (HrSizeView *self)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->launch_box));
  guint n = self->advice->launch->len;
  guint i = 0;

  for (; i < n && child != NULL; i++, child = gtk_widget_get_next_sibling (child))
    launch_card_update (child, g_ptr_array_index (self->advice->launch, i));
  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      gtk_box_remove (self->launch_box, child);
      child = next;
    }
  for (; i < n; i++)
    {
      GtkWidget *card = launch_card_new (self);

      launch_card_update (card, g_ptr_array_index (self->advice->launch, i));
      gtk_box_append (self->launch_box, card);
    }
}

void
hr_size_view_apply_advice (HrSizeView *self)
{
  if (self->advice == NULL)
    return;
  apply_matrix (self);
  apply_reverse_and_picks (self);
  apply_diagnosis (self);
  apply_launch (self);
}

/* Callbacks ---------------------------------------------------------------------------------- */

void
hr_size_view_matrix_row_activated (HrSizeView    *self,
                                   GtkListBoxRow *row,
                                   GtkListBox    *box)
{
  const char *quant = g_object_get_data (G_OBJECT (row), "quant");

  if (quant != NULL)
    hr_size_view_select_quant (self, quant);
}

static void
reverse_clicked_cb (HrSizeView *self,
                    GtkButton  *button)
{
  hr_size_view_apply_reverse (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index")));
}

static void
pick_clicked_cb (HrSizeView *self,
                 GtkButton  *button)
{
  hr_size_view_apply_pick (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index")));
}

/* Building ----------------------------------------------------------------------------------- */


static void
build_cards (HrSizeView *self)
{
  for (guint i = 0; i < HR_SIZE_N_CARDS; i++)
    {
      GtkWidget *child = gtk_flow_box_child_new ();
      GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *caption = gtk_label_new (NULL);
      GtkWidget *value = gtk_label_new (NULL);
      GtkWidget *detail = gtk_label_new (NULL);
      GtkWidget *note = gtk_label_new (NULL);

      gtk_widget_add_css_class (card, "card");
      gtk_widget_add_css_class (card, "result-card");
      gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_widget_add_css_class (caption, "caption-heading");
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_widget_add_css_class (value, "title-2");
      gtk_widget_add_css_class (value, "numeric");
      gtk_widget_add_css_class (value, "card-value");
      gtk_label_set_xalign (GTK_LABEL (detail), 0);
      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (detail), PANGO_WRAP_WORD_CHAR);
      /* wrapped labels ask for their whole text on one line; keep the cards narrow enough
       * for three in a row at 1280 px */
      gtk_label_set_max_width_chars (GTK_LABEL (detail), 24);
      gtk_widget_add_css_class (detail, "card-detail");
      gtk_label_set_xalign (GTK_LABEL (note), 0);
      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (note), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (note), 24);
      gtk_widget_add_css_class (note, "caption");
      gtk_widget_add_css_class (note, "dim-label");

      gtk_box_append (GTK_BOX (card), caption);
      gtk_box_append (GTK_BOX (card), value);
      gtk_box_append (GTK_BOX (card), detail);
      gtk_box_append (GTK_BOX (card), note);
      gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), card);
      /* each card takes the focus, so a keyboard (and a screen reader following it) reaches
       * every result; a flow box of unfocusable children also swallowed Tab (GTK 4.8) */
      gtk_flow_box_append (self->cards_box, child);

      self->card_captions[i] = GTK_LABEL (caption);
      self->card_values[i] = GTK_LABEL (value);
      self->card_details[i] = GTK_LABEL (detail);
      self->card_notes[i] = GTK_LABEL (note);
    }
}

static void
build_action_rows (HrSizeView           *self,
                   AdwPreferencesGroup  *group,
                   guint                 n,
                   AdwActionRow        **rows,
                   GtkButton           **buttons,
                   const char           *button_label,
                   GCallback             callback)
{
  for (guint i = 0; i < n; i++)
    {
      AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
      GtkWidget *button = gtk_button_new_with_mnemonic (button_label);

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_set_sensitive (button, FALSE);
      g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (i));
      g_signal_connect_object (button, "clicked", callback, self, G_CONNECT_SWAPPED);
      adw_action_row_add_suffix (row, button);
      adw_action_row_set_activatable_widget (row, button);
      adw_action_row_set_subtitle_lines (row, 3);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), "…");
      adw_preferences_group_add (group, GTK_WIDGET (row));
      rows[i] = row;
      buttons[i] = GTK_BUTTON (button);
    }
}

/* The placement search's answer becomes the scenario: its layers and experts in system RAM */
static void
placement_apply_cb (HrSizeView *self)
{
  double offload = 0;
  int n_cpu_moe = 0;

  hr_placement_card_get_search (HR_PLACEMENT_CARD (self->placement_card), &offload, &n_cpu_moe);
  g_object_set (self->session, "offload", offload, "n-cpu-moe", n_cpu_moe, NULL);
}

void
hr_size_view_build_results (HrSizeView *self)
{
  build_cards (self);
  self->placement_card = hr_placement_card_new ();
  g_signal_connect_object (self->placement_card, "apply-search", G_CALLBACK (placement_apply_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_box_insert_child_after (GTK_BOX (self->results_box), self->placement_card,
                              gtk_widget_get_parent (GTK_WIDGET (self->cards_box)) == GTK_WIDGET (self->results_box)
                              ? GTK_WIDGET (self->cards_box) : NULL);
  build_action_rows (self, self->reverse_group, HR_N_REVERSE, self->reverse_rows, self->reverse_buttons,
                     _("_Apply"), G_CALLBACK (reverse_clicked_cb));
  build_action_rows (self, self->picks_group, HR_N_PICKS, self->pick_rows, self->pick_buttons,
                     _("_Select"), G_CALLBACK (pick_clicked_cb));
  self->matrix_header = matrix_header_row (self);
  gtk_list_box_append (self->matrix_list, self->matrix_header);
  {
    GtkWidget *group = gtk_widget_get_ancestor (GTK_WIDGET (self->context_chart), ADW_TYPE_PREFERENCES_GROUP);
    GtkWidget *parent = group != NULL ? gtk_widget_get_parent (group) : NULL;

    if (parent != NULL && GTK_IS_BOX (parent))
      self->load = hr_size_load_new (GTK_BOX (parent), group);
  }
  /* a Hub model's files, above the quants they are measured from */
  self->hub_files = hr_hub_files_new ();
  {
    GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->matrix_group));

    if (GTK_IS_BOX (box))
      gtk_box_insert_child_after (GTK_BOX (box), self->hub_files,
                                  gtk_widget_get_prev_sibling (GTK_WIDGET (self->matrix_group)));
    else
      gtk_box_append (GTK_BOX (self->results_box), self->hub_files);
  }
}
