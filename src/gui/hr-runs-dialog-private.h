/* hr-runs-dialog-private.h — what the Import Measurements dialog's two files share
 *
 * hr-runs-dialog.c shows the state and keeps the calibrations; hr-runs-dialog-input.c brings
 * the text in: a file, the clipboard, a drop, or llama-bench run for the user.
 */
#pragma once

#include "hr-picker.h"
#include "hr-runs-dialog.h"

G_BEGIN_DECLS

struct _HrRunsDialog
{
  AdwWindow parent_instance;

  /* template */
  GtkBox *content_box;
  GtkWidget *bench_button;
  GtkWidget *source_box;
  GtkBox *progress_box;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  GtkLabel *error_label;
  AdwPreferencesGroup *hints_group;
  HrPicker *pickers[HR_RUN_MISSING_OTHER];   /* model, GPU, quant */
  GtkSwitch *use_switch;
  GtkListBox *devices_list;
  GtkLabel *summary_label;
  GtkBox *runs_box;

  HrSession *session;
  HrRunsState *state;
  char *bench_program;
  GCancellable *cancellable;   /* the read or run under way; NULL when idle */
  GSubprocess *bench;
  char *bench_name;
  gint64 bench_start;
  guint tick_id;
  GtkFileChooserNative *chooser;
};

/* The rows, devices and hints again, from the state and the session's calibrations. */
void            hr_runs_dialog_refresh      (HrRunsDialog  *self);
/* The one inline message, in place of any rows. */
void            hr_runs_dialog_show_error   (HrRunsDialog  *self,
                                             const char    *message);
/* @status non-NULL: a read or run is under way (spinner, Cancel); NULL: idle again, what it
 * held let go. */
void            hr_runs_dialog_set_busy     (HrRunsDialog  *self,
                                             const char    *status);
/* A file chooser: for a file to read, or (@bench) the GGUF file llama-bench is to run on. */
void            hr_runs_dialog_choose_file  (HrRunsDialog  *self,
                                             gboolean       bench);
/* Reads the clipboard's text (Ctrl+V, "Paste Text"). */
void            hr_runs_dialog_paste        (HrRunsDialog  *self);
/* The drop target's "drop": files are read, text is read as it is. */
gboolean        hr_runs_dialog_drop_cb      (GtkDropTarget *target,
                                             const GValue  *value,
                                             double         x,
                                             double         y,
                                             HrRunsDialog  *self);

G_END_DECLS
