/* hr-table-cells.c — the cells of the tables the views build by hand */
#include "hr-table-cells.h"

GtkWidget *
hr_table_cell_new (guint row)
{
  GtkWidget *cell = gtk_box_new (GTK_ORIENTATION_VERTICAL, 1);

  gtk_widget_add_css_class (cell, "compare-cell");
  if (row % 2 == 1)
    gtk_widget_add_css_class (cell, "compare-odd");
  return cell;
}

GtkWidget *
hr_table_cell_add_verdict (GtkWidget  *cell,
                           GtkImage  **icon)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *holder = gtk_box_new (GTK_ORIENTATION_VERTICAL, 1);

  *icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (*icon), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (*icon));
  gtk_box_append (GTK_BOX (line), holder);
  gtk_box_append (GTK_BOX (cell), line);
  gtk_widget_add_css_class (cell, "compare-verdict");
  return holder;
}

GtkLabel *
hr_table_cell_label (GtkWidget     *box,
                     const char    *css,
                     PangoWrapMode  wrap,
                     int            max_chars)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), wrap);
  gtk_label_set_max_width_chars (GTK_LABEL (label), max_chars);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  gtk_box_append (GTK_BOX (box), label);
  return GTK_LABEL (label);
}

void
hr_table_set_verdict_class (GtkWidget  *widget,
                            const char *css)
{
  static const char * const classes[] = { "verdict-fits", "verdict-tight", "verdict-exceeds", "verdict-error" };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (g_strcmp0 (classes[i], css) != 0)
      gtk_widget_remove_css_class (widget, classes[i]);
  if (css != NULL)
    gtk_widget_add_css_class (widget, css);
}

void
hr_table_set_label (GtkLabel   *label,
                    const char *text)
{
  gtk_label_set_label (label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && text[0] != '\0');
}

GtkWidget *
hr_table_column_label (GtkSizeGroup *column,
                       const char   *text,
                       gboolean      numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_size_group_add_widget (column, label);
  return label;
}

GtkWidget *
hr_table_header_row (GtkWidget *cells,
                     gboolean   focusable)
{
  GtkWidget *row = gtk_list_box_row_new ();
  g_autoptr(GString) names = g_string_new (NULL);

  /* named by its column titles: a focusable row of labels in a box had no name in GTK 4.8 */
  for (GtkWidget *c = gtk_widget_get_first_child (cells); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LABEL (c) && *gtk_label_get_text (GTK_LABEL (c)) != '\0')
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", gtk_label_get_text (GTK_LABEL (c)));
  if (names->len > 0)
    gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, names->str, -1);
  gtk_widget_add_css_class (row, "matrix-header");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), cells);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, focusable);
  return row;
}

void
hr_table_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  *minimum = *natural = 0;
  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_measure (child, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
}
