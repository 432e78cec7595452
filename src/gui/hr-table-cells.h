/* hr-table-cells.h — the cells of the tables the views build by hand
 *
 * Side-by-side tables in a GtkGrid (Compare's GPUs, Fine-tune's methods): striped cell boxes
 * of wrapping labels, the verdict's with an icon, since colour is never the only cue.
 * Column tables in a GtkListBox (the Size view's quantizations, Cloud's offers): labels that
 * one GtkSizeGroup per column keeps aligned, under a row of column titles.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A cell of row @row (odd rows striped): a vertical box for labels. */
GtkWidget      *hr_table_cell_new           (guint           row);
/* Makes @cell a verdict cell: @icon (set here) beside a box for its labels, returned. */
GtkWidget      *hr_table_cell_add_verdict   (GtkWidget      *cell,
                                             GtkImage      **icon);
/* A wrapping, start-aligned label appended to @box, styled @css (may be NULL), at most
 * @max_chars wide (-1: as wide as the cell). */
GtkLabel       *hr_table_cell_label         (GtkWidget      *box,
                                             const char     *css,
                                             PangoWrapMode   wrap,
                                             int             max_chars);
/* Gives @widget (a verdict cell or banner) the verdict style @css ("verdict-fits" …
 * "verdict-error", as the states name it) in place of any other; NULL: none. */
void            hr_table_set_verdict_class  (GtkWidget      *widget,
                                             const char     *css);
/* Shows @text in @label, hiding the label when there is none. */
void            hr_table_set_label          (GtkLabel       *label,
                                             const char     *text);

/* A label of a list-box table's column: numbers end-aligned in tabular figures; @column keeps
 * the column's width. */
GtkWidget      *hr_table_column_label       (GtkSizeGroup   *column,
                                             const char     *text,
                                             gboolean        numeric);
/* The row of column titles of a list-box table, holding @cells (a box of labels); neither
 * activatable nor selectable. */
GtkWidget      *hr_table_header_row         (GtkWidget      *cells,
                                             gboolean        focusable);

/* The measure() of a view that holds one child (its template's box) and allocates it itself,
 * to follow its width as its table does (Compare, Fine-tune): the child's size, or none while
 * it is hidden. */
void            hr_table_view_measure       (GtkWidget      *widget,
                                             GtkOrientation  orientation,
                                             int             for_size,
                                             int            *minimum,
                                             int            *natural,
                                             int            *minimum_baseline,
                                             int            *natural_baseline);

G_END_DECLS
