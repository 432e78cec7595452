/* hr-placement-card.c — the Placement card (hr-placement-card.h, #31) */
#include "hr-placement-card.h"

#include <glib/gi18n-lib.h>

struct _HrPlacementCard
{
  AdwBin parent_instance;

  AdwPreferencesGroup *group;
  GtkListBox *list;
  GtkLabel *ram_label;
  GtkLabel *flags_label;
  AdwActionRow *search_row;
  GtkListBox *search_list;
  double search_offload_pct;
  int search_n_cpu_moe;
  guint n_rows;
};

G_DEFINE_FINAL_TYPE (HrPlacementCard, hr_placement_card, ADW_TYPE_BIN)

static guint apply_signal;

static void
hr_placement_card_class_init (HrPlacementCardClass *klass)
{
  apply_signal = g_signal_new ("apply-search", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                               0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
apply_clicked_cb (HrPlacementCard *self)
{
  g_signal_emit (self, apply_signal, 0);
}

static GtkLabel *
wrapping_label (const char *css)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (label), css);
  return label;
}

static void
hr_placement_card_init (HrPlacementCard *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("Placement"));
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Devices of the setup"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));
  self->ram_label = wrapping_label ("dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->ram_label));
  self->flags_label = wrapping_label ("monospace");
  gtk_label_set_selectable (self->flags_label, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->flags_label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("llama.cpp flags for this split"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->flags_label));
  {
    GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));

    self->search_list = GTK_LIST_BOX (gtk_list_box_new ());
    gtk_list_box_set_selection_mode (self->search_list, GTK_SELECTION_NONE);
    gtk_widget_add_css_class (GTK_WIDGET (self->search_list), "boxed-list");
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Placement search"), -1);
    self->search_row = ADW_ACTION_ROW (adw_action_row_new ());
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->search_row), _("Placement search"));
    adw_action_row_set_subtitle_lines (self->search_row, 0);
    gtk_widget_set_valign (apply, GTK_ALIGN_CENTER);
    gtk_accessible_update_property (GTK_ACCESSIBLE (apply), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Apply the placement search’s answer"), -1);
    g_signal_connect_object (apply, "clicked", G_CALLBACK (apply_clicked_cb), self, G_CONNECT_SWAPPED);
    adw_action_row_add_suffix (self->search_row, apply);
    gtk_list_box_append (self->search_list, GTK_WIDGET (self->search_row));
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->search_list));
  }
  adw_preferences_group_add (self->group, box);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->group));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
hr_placement_card_new (void)
{
  return g_object_new (HR_TYPE_PLACEMENT_CARD, NULL);
}

static GtkWidget *
device_row (const HrPlacementRowState *r)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (r->verdict_icon);
  /* the verdict in words first, so colour is never the only cue and 360 px is enough */
  g_autofree char *subtitle = g_strdup_printf ("%s · %s", r->verdict_text, r->subtitle);
  g_autofree char *a11y = g_strdup_printf ("%s: %s, %s", r->title, r->subtitle, r->verdict_text);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), r->title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  /* long names and numbers wrap: the card fits 360 px */
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, r->verdict_text, -1);
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (icon, "placement-verdict");
  gtk_widget_add_css_class (icon, r->verdict_css);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  if (r->slowest)
    gtk_widget_add_css_class (row, "placement-slowest");
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  return row;
}

void
hr_placement_card_set_state (HrPlacementCard        *self,
                             const HrPlacementState *state)
{
  GtkWidget *child;

  g_return_if_fail (HR_IS_PLACEMENT_CARD (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  self->n_rows = 0;
  gtk_widget_set_visible (GTK_WIDGET (self), state != NULL && state->visible);
  gtk_widget_set_visible (GTK_WIDGET (self->search_list), FALSE);
  if (state == NULL || !state->visible)
    return;

  adw_preferences_group_set_description (self->group, state->description);
  for (guint i = 0; i < state->rows->len; i++)
    {
      gtk_list_box_append (self->list, device_row (g_ptr_array_index (state->rows, i)));
      self->n_rows++;
    }
  /* no rows (an integrated GPU left out beside one discrete GPU): no empty list */
  gtk_widget_set_visible (GTK_WIDGET (self->list), self->n_rows > 0);
  gtk_label_set_label (self->ram_label, state->ram ? state->ram : "");
  gtk_widget_set_visible (GTK_WIDGET (self->ram_label), state->ram != NULL);
  gtk_label_set_label (self->flags_label, state->flags ? state->flags : "");
  gtk_widget_set_visible (GTK_WIDGET (self->flags_label), state->flags != NULL);
  if (state->search != NULL)
    adw_action_row_set_subtitle (self->search_row, state->search);
  gtk_widget_set_visible (GTK_WIDGET (self->search_list), state->search != NULL);
  self->search_offload_pct = state->search_offload_pct;
  self->search_n_cpu_moe = state->search_n_cpu_moe;
}

void
hr_placement_card_get_search (HrPlacementCard *self,
                              double          *offload_pct,
                              int             *n_cpu_moe)
{
  g_return_if_fail (HR_IS_PLACEMENT_CARD (self));
  *offload_pct = self->search_offload_pct;
  *n_cpu_moe = self->search_n_cpu_moe;
}

guint
hr_placement_card_get_n_rows (HrPlacementCard *self)
{
  g_return_val_if_fail (HR_IS_PLACEMENT_CARD (self), 0);
  return self->n_rows;
}
