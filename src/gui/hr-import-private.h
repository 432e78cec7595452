/* hr-import-private.h — HrImport's instance struct, shared by its two files
 *
 * hr-import.c        the actions, saving and the catalog, the GPU editor and the list
 * hr-import-flows.c  files read in a worker thread, the hub and GGUF headers over HTTP Range
 */
#pragma once

#include "hr-fetch-dialog.h"
#include "hr-gpu-editor.h"
#include "hr-import.h"
#include "hr-manage-dialog.h"

G_BEGIN_DECLS

struct _HrImport
{
  GObject parent_instance;

  HrWindow *window;               /* weak */
  GCancellable *cancellable;      /* the window's */
  GSimpleActionGroup *actions;
  GMenu *add_model_menu;
  GSettings *settings;

  GtkFileChooserNative *chooser;
  HrFetchDialog *fetch_dialog;    /* weak */
  GCancellable *fetch_cancellable; /* the fetch the dialog started, chained to the window's */
  gulong fetch_chain_id;
  HrGpuEditor *editor;            /* weak */
  HrManageDialog *manage;         /* weak */

  HrModel *removed_model;         /* what "Undo" brings back */
  HrGpu *removed_gpu;
  char *last_model_id;
  char *last_message;
  AdwToast *progress_toast;       /* the last "Sizing it…", held: a failure withdraws it */
  guint n_running;
};

typedef enum
{
  HR_IMPORT_CHOOSE_CONFIG,
  HR_IMPORT_CHOOSE_GGUF,
  HR_IMPORT_CHOOSE_ANY,     /* Ctrl+O: either, told apart by the file's first bytes */
} HrImportChooserKind;

/* hr-import.c */
HrCatalog      *hr_import_catalog           (HrImport      *self);
GtkWindow      *hr_import_dialog_parent     (HrImport      *self);
AdwToast       *hr_import_add_toast         (HrImport      *self,
                                             AdwToast      *toast,
                                             const char    *message);
void            hr_import_show_toast        (HrImport      *self,
                                             const char    *message,
                                             gboolean       error,
                                             gboolean       undo);
void            hr_import_report_error      (HrImport      *self,
                                             HrFetchDialog *dialog,
                                             const char    *message);
void            hr_import_add_model         (HrImport      *self,
                                             HrModel       *model,
                                             HrFetchDialog *dialog,
                                             const char    *detail,
                                             gboolean       restoring);

/* hr-import-flows.c */
void            hr_import_open_chooser      (HrImport      *self,
                                             HrImportChooserKind kind);
void            hr_import_open_fetch_dialog (HrImport      *self,
                                             HrFetchKind    kind);
void            hr_import_drop_fetch        (HrImport      *self,
                                             gboolean       cancel);

G_END_DECLS
