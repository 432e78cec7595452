/* hr-import.h — bring your own model and GPU: the "import.*" actions and their flows
 *
 * One per window.  It inserts an "import" action group into the window (and into the dialogs it
 * opens) and puts "Add Model…", "Add GPU…" and "Manage Yours…" under the Size view's pickers:
 *
 *   import.config-file   a local config.json            import.add-gpu      the GPU editor
 *   import.hub           config.json by repo id          import.edit-gpu(s)  edit one of yours
 *   import.gguf-file     a local GGUF file               import.remove-model(s), remove-gpu(s)
 *   import.gguf-url      a GGUF header over HTTP Range   import.rename-model(s)
 *   import.hub-repo(s)   a Hub repository, sized from its headers (the model picker's results)
 *   import.open-file     either file (Ctrl+O)            import.manage       your models and GPUs
 *
 * What is added is saved with hr_userdata (the application loads it at start-up), added to the
 * catalog and chosen in the Size view.  Files are read in a GTask thread; network work runs on
 * the window's GCancellable, and a cancelled flow is silent.  Every failure is a toast or an
 * inline error in the dialog that started it.
 */
#pragma once

#include <adwaita.h>

#include "hr-window.h"

G_BEGIN_DECLS

#define HR_TYPE_IMPORT (hr_import_get_type ())
G_DECLARE_FINAL_TYPE (HrImport, hr_import, HR, IMPORT, GObject)

/* @window is borrowed: the window owns the HrImport and disposes of it first. */
HrImport       *hr_import_new               (HrWindow      *window);

/* The flows, as the file choosers' and dialogs' callbacks run them. */
void            hr_import_open_config_file  (HrImport      *self,
                                             GFile         *file);
void            hr_import_open_gguf_file    (HrImport      *self,
                                             GFile         *file);
/* A GGUF file or a config.json, told apart by the file's first bytes (Ctrl+O). */
void            hr_import_open_model_file   (HrImport      *self,
                                             GFile         *file);
/* Report to the fetch dialog when one is open, otherwise in toasts. */
void            hr_import_fetch_config      (HrImport      *self,
                                             const char    *repo);
void            hr_import_open_gguf_url     (HrImport      *self,
                                             const char    *url);
/* A Hugging Face Hub repository ("ORG/NAME[@REV][:QUANT|:FILE]"), sized from its file headers
 * in a worker thread (hr-import-hub.c) and added; also the action "import.hub-repo" (s). */
void            hr_import_size_hub          (HrImport      *self,
                                             const char    *ref);

gboolean        hr_import_remove_model      (HrImport      *self,
                                             const char    *id);
/* Gives the user's model @id the name @name (saved first; a toast says why not). */
gboolean        hr_import_rename_model      (HrImport      *self,
                                             const char    *id,
                                             const char    *name);
gboolean        hr_import_remove_gpu        (HrImport      *self,
                                             const char    *id);

/* For tests: a flow is still running; the last message shown (toast or inline error); the
 * dialog open (fetch dialog, GPU editor or the manage list), NULL when none. */
gboolean        hr_import_is_busy           (HrImport      *self);
const char     *hr_import_get_last_message  (HrImport      *self);
/* The last "Sizing it…" toast shown for a Hub repository, or NULL (tests). */
AdwToast       *hr_import_get_progress_toast (HrImport     *self);
GtkWindow      *hr_import_get_dialog        (HrImport      *self);
/* For tests: the file chooser open, NULL when none. */
GtkFileChooser *hr_import_get_chooser       (HrImport      *self);

G_END_DECLS
