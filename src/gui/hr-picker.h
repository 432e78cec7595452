/* hr-picker.h — a button that opens a searchable, grouped list (the model and GPU pickers) */
#pragma once

#include <gtk/gtk.h>

#include "hr-picker-item.h"

G_BEGIN_DECLS

#define HR_TYPE_PICKER (hr_picker_get_type ())
G_DECLARE_FINAL_TYPE (HrPicker, hr_picker, HR, PICKER, GtkWidget)

/* Signal "picked" (const char *id): the user chose another entry (not emitted when the
 * selection is set by code); emitted before it becomes the selection. */
GtkWidget      *hr_picker_new               (void);

/* @items: HrPickerItem*, sorted by group; a heading is inserted wherever the group changes. */
void            hr_picker_set_items         (HrPicker     *self,
                                             GPtrArray    *items);
/* FALSE (and nothing changes) when no item has @id. */
gboolean        hr_picker_set_selected_id   (HrPicker     *self,
                                             const char   *id);
const char     *hr_picker_get_selected_id   (HrPicker     *self);
HrPickerItem   *hr_picker_get_selected_item (HrPicker     *self);

/* The accessible name and tooltip ("Model"); the selection is appended for screen readers. */
void            hr_picker_set_title         (HrPicker     *self,
                                             const char   *title);
const char     *hr_picker_get_title         (HrPicker     *self);
void            hr_picker_set_placeholder   (HrPicker     *self,
                                             const char   *text);

/* Entries from elsewhere (the Hugging Face Hub), after the list's own under their heading
 * @items[0] (a header item whose group they share): shown whenever the query is not empty,
 * whatever its words (the other side matched them), and not selectable: activating one emits
 * "extra-picked" (id) and closes the list.  An empty @items removes them.  "query-changed"
 * (text) is emitted as the search text changes. */
void            hr_picker_set_extras        (HrPicker     *self,
                                             GPtrArray    *items);
/* The "search-hub" property (set in a model picker's template): the query also searches the
 * Hugging Face Hub (HrHubSearch: three characters or more, debounced, cancelled by the next),
 * whose answer becomes the extras under a "Hugging Face" heading; choosing a repository
 * activates "import.hub-repo" (ORG/NAME), which sizes, saves and chooses it. */
void            hr_picker_set_search_hub    (HrPicker     *self,
                                             gboolean      search_hub);
gboolean        hr_picker_get_search_hub    (HrPicker     *self);

/* A footer under the list: @add_label ("Add _Model…") opens @add_menu, or activates
 * @add_action when there is no menu; "Manage Yours…" activates @manage_action.  NULL hides
 * each; all NULL hides the footer. */
void            hr_picker_set_footer        (HrPicker     *self,
                                             const char   *add_label,
                                             GMenuModel   *add_menu,
                                             const char   *add_action,
                                             const char   *manage_action);

/* A picker at the end of a row that names it: a flat button showing the choice's title
 * alone (the row shows the rest). */
void            hr_picker_set_compact       (HrPicker     *self,
                                             gboolean      compact);

/* Opens the list with the search entry focused (Ctrl+F / Ctrl+G). */
void            hr_picker_popup             (HrPicker     *self);
void            hr_picker_popdown           (HrPicker     *self);

/* A row of a model or GPU list: @title over a dim @subtitle (either may be NULL and set
 * later), and a check mark, named @check_label for assistive technologies, for the choice. */
GtkWidget      *hr_picker_row_new           (const char   *title,
                                             const char   *subtitle,
                                             const char   *check_label);
/* The title label of such a row (the subtitle is the label after it), and its check mark. */
GtkWidget      *hr_picker_row_get_title     (GtkWidget    *row);
GtkWidget      *hr_picker_row_get_check     (GtkWidget    *row);

/* For tests: filter as if @text was typed; returns the entries (not headings) that match. */
guint           hr_picker_search            (HrPicker     *self,
                                             const char   *text);
/* The list as shown (entries and headings), for tests. */
GListModel     *hr_picker_get_shown         (HrPicker     *self);
/* For tests: as if the row at @position of the list as shown was activated. */
void            hr_picker_activate_shown    (HrPicker     *self,
                                             guint         position);

G_END_DECLS
