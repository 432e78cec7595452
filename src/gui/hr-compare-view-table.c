/* hr-compare-view-table.c — the Compare view's table: one column per GPU
 *
 * Why columns, not a GtkColumnView of rows: at 1024 px eight GPUs of about 120 px each fit
 * beside the row names, while eleven measures plus a launch command as columns would not fit
 * even one GPU per line without scrolling sideways; reading across a row compares one
 * measure, like a product comparison.  A GtkGrid holds it: row 0 the GPU headers, column 0
 * the measures (buttons that sort the columns by that row).  Columns have a set width (a
 * label's minimum and natural widths are the same): a scrolled window measures its child's
 * height at the child's minimum width, which then is the width it gets, so no row comes out
 * taller than its text.  The view sets that width from its own (wider columns when there is
 * room, scrolling sideways below 13 characters a column).
 *
 * The widgets of a column live as long as its GPU stays in the comparison: a new state only
 * relabels them, and moves them when the order changes, so the ×N spin button being used
 * keeps its focus while the numbers update.  (A GtkDropDown costs ~4 ms to build: the ×N
 * button makes its popover only when first opened.)
 */
#include "hr-compare-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-navigation.h"
#include "hr-table-cells.h"
#include "hr-toast.h"

struct _HrCompareColumnWidgets
{
  HrCompareView *view;       /* borrowed */
  char *gpu_id;
  int grid_column;           /* 0: not attached */
  GtkWidget *header;
  GtkLabel *title;
  GtkLabel *subtitle;
  GtkMenuButton *count;      /* "×2", opens a spin button */
  GtkSpinButton *spin;       /* NULL until the popover is first opened */
  int count_value;
  GtkWidget *remove;
  GtkWidget *cells[HR_COMPARE_N_METRICS];
  GtkLabel *values[HR_COMPARE_N_METRICS];
  GtkLabel *details[HR_COMPARE_N_METRICS];
  GtkLabel *diffs[HR_COMPARE_N_METRICS];
  GtkImage *verdict_icon;
  GtkWidget *copy_button;
  char *command;
  gboolean updating;
  gboolean held;             /* out of the grid, kept by us while it moves */
};

static void
column_widgets_free (HrCompareColumnWidgets *cw)
{
  g_free (cw->gpu_id);
  g_free (cw->command);
  g_free (cw);
}

static void
label_chars (GtkLabel *label,
             int       chars)
{
  gtk_label_set_width_chars (label, chars);
  gtk_label_set_max_width_chars (label, chars);
}

/* One column @chars average characters wide (about 9 px each): the value labels take all of
 * it, the name in bold beside the remove button and the verdict beside its icon less. */
static void
column_widgets_set_chars (HrCompareColumnWidgets *cw,
                          int                     chars)
{
  label_chars (cw->title, MAX ((chars * 9 - 30) / 11, 6));
  label_chars (cw->subtitle, MAX ((chars * 9 - 30) / 9, 6));
  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      int c = m == HR_COMPARE_VERDICT ? chars - 3 : chars;

      label_chars (cw->values[m], c);
      label_chars (cw->details[m], c);
      label_chars (cw->diffs[m], c);
    }
}

/* Callbacks ------------------------------------------------------------------------------ */

static void
count_changed_cb (HrCompareColumnWidgets *cw,
                  GtkSpinButton          *spin)
{
  if (cw->updating)
    return;
  hr_compare_view_set_count (cw->view, cw->gpu_id, gtk_spin_button_get_value_as_int (spin));
}

static void
create_count_popup_cb (GtkMenuButton *button,
                       gpointer       user_data)
{
  HrCompareColumnWidgets *cw = user_data;
  GtkWidget *popover, *box, *label;

  if (gtk_menu_button_get_popover (button) != NULL)
    return;
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  label = gtk_label_new_with_mnemonic (_("_GPUs of this kind"));
  cw->spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, HR_COMPARE_MAX_COUNT, 1));
  gtk_spin_button_set_value (cw->spin, cw->count_value);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (cw->spin));
  g_signal_connect_swapped (cw->spin, "value-changed", G_CALLBACK (count_changed_cb), cw);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (cw->spin));
  /* built after the view: the wheel over it must not change the count either */
  hr_navigation_guard_controls (box);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (button, popover);
}

static void
remove_clicked_cb (HrCompareColumnWidgets *cw,
                   GtkButton              *button)
{
  g_autofree char *id = g_strdup (cw->gpu_id);

  /* frees @cw: nothing of it after this */
  hr_compare_view_remove_gpu (cw->view, id);
}

static void
copy_clicked_cb (HrCompareColumnWidgets *cw,
                 GtkButton              *button)
{
  if (cw->command != NULL)
    hr_toast_copied (GTK_WIDGET (cw->view), cw->command, _("Launch command copied"));
}

static void
metric_clicked_cb (HrCompareView *self,
                   GtkButton     *button)
{
  HrCompareMetric metric = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "metric"));
  gboolean reversed = FALSE;

  /* best first, then worst first, then best first again */
  if (self->state != NULL && self->state->sort == metric)
    reversed = !self->state->sort_reversed;
  hr_compare_view_sort (self, metric, reversed);
}

static void
unsort_clicked_cb (HrCompareView *self,
                   GtkButton     *button)
{
  hr_compare_view_sort (self, HR_COMPARE_SORT_NONE, FALSE);
}

/* Building ----------------------------------------------------------------------------------- */

static HrCompareColumnWidgets *
column_widgets_new (HrCompareView *self,
                    const char    *gpu_id)
{
  HrCompareColumnWidgets *cw = g_new0 (HrCompareColumnWidgets, 1);
  GtkWidget *text, *top;

  cw->view = self;
  cw->gpu_id = g_strdup (gpu_id);

  /* header: name and remove button, summary, ×N */
  cw->header = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_add_css_class (cw->header, "compare-header");
  gtk_widget_set_valign (cw->header, GTK_ALIGN_FILL);
  top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_hexpand (text, TRUE);
  cw->title = hr_table_cell_label (text, "heading", PANGO_WRAP_WORD, -1);
  gtk_label_set_lines (cw->title, 4);
  gtk_label_set_ellipsize (cw->title, PANGO_ELLIPSIZE_END);
  cw->subtitle = hr_table_cell_label (text, "caption", PANGO_WRAP_WORD, -1);
  gtk_widget_add_css_class (GTK_WIDGET (cw->subtitle), "dim-label");
  cw->remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_set_valign (cw->remove, GTK_ALIGN_START);
  gtk_widget_add_css_class (cw->remove, "flat");
  gtk_widget_add_css_class (cw->remove, "circular");
  g_signal_connect_swapped (cw->remove, "clicked", G_CALLBACK (remove_clicked_cb), cw);
  gtk_box_append (GTK_BOX (top), text);
  gtk_box_append (GTK_BOX (top), cw->remove);
  /* names at the top, the ×N buttons in one line at the bottom */
  gtk_widget_set_vexpand (top, TRUE);
  gtk_box_append (GTK_BOX (cw->header), top);

  /* how many of them: "×2 ▾", the spin button in a popover made when first opened */
  cw->count = GTK_MENU_BUTTON (gtk_menu_button_new ());
  cw->count_value = 1;
  gtk_menu_button_set_label (cw->count, "×1");
  gtk_menu_button_set_create_popup_func (cw->count, create_count_popup_cb, cw, NULL);
  gtk_widget_set_halign (GTK_WIDGET (cw->count), GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (GTK_WIDGET (cw->count), _("Number of GPUs of this kind (tensor parallel)"));
  gtk_widget_add_css_class (GTK_WIDGET (cw->count), "compare-count");
  gtk_box_append (GTK_BOX (cw->header), GTK_WIDGET (cw->count));

  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      GtkWidget *box = hr_table_cell_new (m);
      GtkWidget *holder = m == HR_COMPARE_VERDICT ? hr_table_cell_add_verdict (box, &cw->verdict_icon) : box;

      cw->values[m] = hr_table_cell_label (holder, m == HR_COMPARE_LAUNCH ? "caption" : "compare-value",
                                           PANGO_WRAP_WORD, -1);
      cw->details[m] = hr_table_cell_label (holder, "caption", PANGO_WRAP_WORD, -1);
      gtk_widget_add_css_class (GTK_WIDGET (cw->details[m]), "dim-label");
      cw->diffs[m] = hr_table_cell_label (holder, "caption", PANGO_WRAP_WORD, -1);
      gtk_widget_add_css_class (GTK_WIDGET (cw->diffs[m]), "compare-diff");

      if (m == HR_COMPARE_LAUNCH)
        {
          GtkWidget *content = adw_button_content_new ();

          adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "edit-copy-symbolic");
          adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("Copy"));
          cw->copy_button = gtk_button_new ();
          gtk_button_set_child (GTK_BUTTON (cw->copy_button), content);
          gtk_widget_set_halign (cw->copy_button, GTK_ALIGN_START);
          gtk_widget_add_css_class (cw->copy_button, "flat");
          g_signal_connect_swapped (cw->copy_button, "clicked", G_CALLBACK (copy_clicked_cb), cw);
          gtk_box_append (GTK_BOX (holder), cw->copy_button);
        }
      cw->cells[m] = box;
    }
  column_widgets_set_chars (cw, cw->view->table_chars);
  return cw;
}

static void
column_widgets_detach (HrCompareView          *self,
                       HrCompareColumnWidgets *cw)
{
  if (cw->grid_column == 0)
    return;
  gtk_grid_remove (self->table, cw->header);
  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    gtk_grid_remove (self->table, cw->cells[m]);
  cw->grid_column = 0;
}

/* Takes a column out of the grid but keeps its widgets (the grid holds their only reference)
 * to put them back elsewhere. */
static void
column_widgets_hold (HrCompareView          *self,
                     HrCompareColumnWidgets *cw)
{
  if (cw->grid_column == 0)
    return;
  g_object_ref (cw->header);
  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    g_object_ref (cw->cells[m]);
  column_widgets_detach (self, cw);
  cw->held = TRUE;
}

static void
column_widgets_attach (HrCompareView          *self,
                       HrCompareColumnWidgets *cw,
                       int                     column)
{
  if (cw->grid_column == column)
    return;
  column_widgets_hold (self, cw);
  gtk_grid_attach (self->table, cw->header, column, 0, 1, 1);
  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    gtk_grid_attach (self->table, cw->cells[m], column, (int) m + 1, 1, 1);
  cw->grid_column = column;
  if (cw->held)
    {
      g_object_unref (cw->header);
      for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
        g_object_unref (cw->cells[m]);
      cw->held = FALSE;
    }
}

static void
column_widgets_update (HrCompareColumnWidgets *cw,
                       const HrCompareColumn  *col,
                       const HrGpu            *gpu)
{
  g_autofree char *a11y = NULL;

  cw->updating = TRUE;
  gtk_label_set_label (cw->title, col->title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (cw->title), col->title);
  hr_table_set_label (cw->subtitle, col->subtitle);
  {
    /* TRANSLATORS: how many GPUs of one kind, e.g. "×4" */
    g_autofree char *label = g_strdup_printf (_("×%d"), col->count);

    cw->count_value = col->count;
    gtk_menu_button_set_label (cw->count, label);
    if (cw->spin != NULL)
      gtk_spin_button_set_value (cw->spin, col->count);
  }
  /* a unified-memory machine is one box */
  /* a mixed setup's counts are in its spec (#31): its own GPUs, not one count */
  gtk_widget_set_sensitive (GTK_WIDGET (cw->count), strchr (col->gpu_id, '+') == NULL
                            && (gpu == NULL || !hr_gpu_is_unified (gpu) || col->count > 1));
  /* TRANSLATORS: accessible name of a column's remove button, e.g. "Remove H100 80GB SXM" */
  a11y = g_strdup_printf (_("Remove %s"), col->title);
  gtk_widget_set_tooltip_text (cw->remove, a11y);
  gtk_accessible_update_property (GTK_ACCESSIBLE (cw->remove), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  {
    /* TRANSLATORS: accessible name of a Compare column's ×N button, e.g. "H100 80GB SXM: number of GPUs" */
    g_autofree char *count_name = g_strdup_printf (_("%s: number of GPUs"), col->title);

    /* one per column: eight buttons all called "Number of GPUs" told a screen reader user nothing */
    gtk_accessible_update_property (GTK_ACCESSIBLE (cw->count), GTK_ACCESSIBLE_PROPERTY_LABEL, count_name, -1);
  }

  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      const HrCompareCell *cell = &col->cells[m];
      GtkWidget *value = GTK_WIDGET (cw->values[m]);
      GtkWidget *diff = GTK_WIDGET (cw->diffs[m]);

      hr_table_set_label (cw->values[m], cell->value);
      hr_table_set_label (cw->details[m], cell->detail);
      hr_table_set_label (cw->diffs[m], cell->diff);
      gtk_widget_set_tooltip_text (cw->cells[m], cell->tooltip);
      if (cell->best)
        {
          gtk_widget_add_css_class (value, "compare-best");
          gtk_widget_add_css_class (diff, "compare-diff-best");
        }
      else
        {
          gtk_widget_remove_css_class (value, "compare-best");
          gtk_widget_remove_css_class (diff, "compare-diff-best");
        }
      if (cell->muted)
        gtk_widget_add_css_class (value, "dim-label");
      else
        gtk_widget_remove_css_class (value, "dim-label");
    }

  hr_table_set_verdict_class (cw->cells[HR_COMPARE_VERDICT], col->verdict_css);
  gtk_image_set_from_icon_name (cw->verdict_icon, col->verdict_icon);

  g_free (cw->command);
  cw->command = g_strdup (col->launch_command);
  gtk_widget_set_visible (cw->copy_button, cw->command != NULL);
  if (cw->command != NULL)
    {
      /* TRANSLATORS: tooltip of the copy button, e.g. "Copy the llama.cpp (llama-server) command" */
      g_autofree char *tip = g_strdup_printf (_("Copy the %s command"), col->launch_title);
      gtk_accessible_update_property (GTK_ACCESSIBLE (cw->copy_button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
    }
  cw->updating = FALSE;
}

static HrCompareColumnWidgets *
find_column_widgets (HrCompareView *self,
                     const char    *gpu_id,
                     guint         *index)
{
  for (guint i = 0; i < self->column_widgets->len; i++)
    {
      HrCompareColumnWidgets *cw = g_ptr_array_index (self->column_widgets, i);
      if (g_strcmp0 (cw->gpu_id, gpu_id) == 0)
        {
          *index = i;
          return cw;
        }
    }
  return NULL;
}

static void
update_metric_buttons (HrCompareView *self)
{
  HrCompareMetric sort = self->state ? self->state->sort : HR_COMPARE_SORT_NONE;
  gboolean reversed = self->state && self->state->sort_reversed;

  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      GtkWidget *icon = self->metric_icons[m];
      gboolean up;

      if (icon == NULL)
        continue;
      gtk_widget_set_visible (icon, m == sort);
      if (m != sort)
        {
          gtk_widget_remove_css_class (self->metric_buttons[m], "compare-sorted");
          continue;
        }
      gtk_widget_add_css_class (self->metric_buttons[m], "compare-sorted");
      /* the arrow shows how the values run: up for ascending */
      up = hr_compare_metric_higher_is_better (m) == reversed;
      gtk_image_set_from_icon_name (GTK_IMAGE (icon), up ? "view-sort-ascending-symbolic"
                                                         : "view-sort-descending-symbolic");
    }
  gtk_widget_set_visible (self->corner, sort != HR_COMPARE_SORT_NONE);
}

/* The table scrolls sideways inside its card; the wheel still scrolls the page up and down
 * (a scrolled window that can only scroll sideways would otherwise swallow it). */
static gboolean
table_scroll_cb (GtkEventControllerScroll *controller,
                 double                    dx,
                 double                    dy,
                 HrCompareView            *self)
{
  GtkWidget *inner = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *outer = gtk_widget_get_ancestor (gtk_widget_get_parent (inner), GTK_TYPE_SCROLLED_WINDOW);
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GtkAdjustment *adj;
  double step;

  if (outer == NULL || fabs (dy) <= fabs (dx) || (state & GDK_SHIFT_MASK) != 0)
    return FALSE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer));
  /* GtkScrolledWindow's own step for a wheel click */
  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
         ? pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dy * step);
  return TRUE;
}

/* Internal API ------------------------------------------------------------------------------ */

void
hr_compare_view_table_init (HrCompareView *self)
{
  GtkWidget *corner_box, *hint, *scroller;

  self->column_widgets = g_ptr_array_new_with_free_func ((GDestroyNotify) column_widgets_free);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->table), GTK_TYPE_SCROLLED_WINDOW);
  if (scroller != NULL)
    {
      GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

      gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
      g_signal_connect (scroll, "scroll", G_CALLBACK (table_scroll_cb), self);
      gtk_widget_add_controller (scroller, scroll);
    }

  corner_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_add_css_class (corner_box, "compare-header");
  gtk_widget_set_valign (corner_box, GTK_ALIGN_END);
  hint = gtk_label_new (_("Sort by a row:"));
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_width_chars (GTK_LABEL (hint), 13);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 13);
  gtk_widget_add_css_class (hint, "caption");
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_box_append (GTK_BOX (corner_box), hint);
  self->corner = gtk_button_new_with_mnemonic (_("_Order as Chosen"));
  gtk_widget_add_css_class (self->corner, "flat");
  gtk_widget_add_css_class (self->corner, "caption");
  gtk_widget_set_halign (self->corner, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (self->corner, _("Show the GPUs in the order they were chosen"));
  g_signal_connect_swapped (self->corner, "clicked", G_CALLBACK (unsort_clicked_cb), self);
  gtk_box_append (GTK_BOX (corner_box), self->corner);
  /* the row names are the table's column 0: a name and its values share a grid row, so no
   * width, style or font change can move one without the other (#26: a separate grid of
   * names, its heights copied from the table's rows, once showed them two rows off) */
  gtk_grid_attach (self->table, corner_box, 0, 0, 1, 1);

  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      GtkWidget *cell = hr_table_cell_new (m);
      GtkWidget *label = gtk_label_new (hr_compare_metric_title (m));

      gtk_widget_add_css_class (cell, "compare-metric");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_width_chars (GTK_LABEL (label), 13);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 13);
      if (hr_compare_metric_sortable (m))
        {
          GtkWidget *button = gtk_button_new ();
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
          GtkWidget *icon = gtk_image_new_from_icon_name ("view-sort-descending-symbolic");

          gtk_widget_set_hexpand (label, TRUE);
          gtk_box_append (GTK_BOX (box), label);
          gtk_box_append (GTK_BOX (box), icon);
          gtk_widget_set_visible (icon, FALSE);
          gtk_button_set_child (GTK_BUTTON (button), box);
          gtk_widget_add_css_class (button, "flat");
          gtk_widget_add_css_class (button, "compare-sort");
          gtk_widget_set_tooltip_text (button, hr_compare_metric_tooltip (m));
          /* a label in a box is no name in GTK 4.8: the button was "GtkButton" */
          gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          hr_compare_metric_title (m), -1);
          g_object_set_data (G_OBJECT (button), "metric", GUINT_TO_POINTER (m));
          g_signal_connect_swapped (button, "clicked", G_CALLBACK (metric_clicked_cb), self);
          gtk_box_append (GTK_BOX (cell), button);
          self->metric_buttons[m] = button;
          self->metric_icons[m] = icon;
        }
      else
        {
          gtk_widget_add_css_class (label, "compare-metric-label");
          gtk_widget_set_tooltip_text (label, hr_compare_metric_tooltip (m));
          gtk_box_append (GTK_BOX (cell), label);
        }
      gtk_grid_attach (self->table, cell, 0, (int) m + 1, 1, 1);
    }
  update_metric_buttons (self);
}

void
hr_compare_view_table_apply (HrCompareView *self)
{
  GPtrArray *columns = self->state ? self->state->columns : NULL;
  g_autoptr(GPtrArray) ordered = g_ptr_array_new ();
  guint n = columns ? columns->len : 0;

  /* the columns of GPUs no longer compared go */
  for (guint i = 0; i < self->column_widgets->len;)
    {
      HrCompareColumnWidgets *cw = g_ptr_array_index (self->column_widgets, i);
      gboolean keep = FALSE;

      for (guint j = 0; j < n && !keep; j++)
        keep = g_strcmp0 (((HrCompareColumn *) g_ptr_array_index (columns, j))->gpu_id, cw->gpu_id) == 0;
      if (keep)
        {
          i++;
          continue;
        }
      column_widgets_detach (self, cw);
      g_ptr_array_remove_index (self->column_widgets, i);
    }

  /* take out those that move first, so none lands on a cell still taken */
  for (guint j = 0; j < n; j++)
    {
      const HrCompareColumn *col = g_ptr_array_index (columns, j);
      guint index;
      HrCompareColumnWidgets *cw = find_column_widgets (self, col->gpu_id, &index);

      if (cw != NULL && cw->grid_column != (int) j + 1)
        column_widgets_hold (self, cw);
    }

  for (guint j = 0; j < n; j++)
    {
      const HrCompareColumn *col = g_ptr_array_index (columns, j);
      guint index;
      HrCompareColumnWidgets *cw = find_column_widgets (self, col->gpu_id, &index);

      if (cw == NULL)
        {
          cw = column_widgets_new (self, col->gpu_id);
          g_ptr_array_add (self->column_widgets, cw);
        }
      column_widgets_attach (self, cw, (int) j + 1);
      column_widgets_update (cw, col, self->catalog ? hr_catalog_find_gpu (self->catalog, col->gpu_id) : NULL);
      g_ptr_array_add (ordered, cw);
    }

  /* keep column_widgets in display order, for the accessors */
  g_ptr_array_set_free_func (self->column_widgets, NULL);
  g_ptr_array_set_size (self->column_widgets, 0);
  g_ptr_array_set_free_func (self->column_widgets, (GDestroyNotify) column_widgets_free);
  for (guint j = 0; j < ordered->len; j++)
    g_ptr_array_add (self->column_widgets, g_ptr_array_index (ordered, j));

  update_metric_buttons (self);
}

void
hr_compare_view_table_set_chars (HrCompareView *self,
                                 int            chars)
{
  if (chars == self->table_chars)
    return;
  self->table_chars = chars;
  for (guint i = 0; self->column_widgets != NULL && i < self->column_widgets->len; i++)
    column_widgets_set_chars (g_ptr_array_index (self->column_widgets, i), chars);
}

void
hr_compare_view_table_clear (HrCompareView *self)
{
  g_clear_pointer (&self->column_widgets, g_ptr_array_unref);
}

const char *
hr_compare_view_table_text (HrCompareView   *self,
                            guint            column,
                            HrCompareMetric  metric,
                            gboolean         diff)
{
  HrCompareColumnWidgets *cw;

  if (self->column_widgets == NULL || column >= self->column_widgets->len ||
      (guint) metric > HR_COMPARE_N_METRICS)
    return NULL;
  cw = g_ptr_array_index (self->column_widgets, column);
  /* HR_COMPARE_N_METRICS: the column's header */
  if (metric == HR_COMPARE_N_METRICS)
    return gtk_label_get_label (cw->title);
  if (diff)
    return gtk_widget_get_visible (GTK_WIDGET (cw->diffs[metric])) ? gtk_label_get_label (cw->diffs[metric]) : NULL;
  return gtk_label_get_label (cw->values[metric]);
}
