/* hr-window.h — the main window: a header bar with a view switcher over the views */
#pragma once

#include <adwaita.h>

#include "hr-application.h"
#include "hr-size-view.h"

G_BEGIN_DECLS

#define HR_TYPE_WINDOW (hr_window_get_type ())
G_DECLARE_FINAL_TYPE (HrWindow, hr_window, HR, WINDOW, AdwApplicationWindow)

typedef struct _HrImport HrImport;

HrWindow       *hr_window_new               (HrApplication *application);

/* Adds a view as a page of the window's AdwViewStack (hr-window.c's constructed() adds
 * Compare, Fine-tune and Cloud & TCO as pages built on first use).  The view switcher appears once there are two
 * views.  A view may install "view.find-model", "view.find-gpu", "view.export-chart" (s) and
 * "view.copy-json" actions: the window's shortcuts and menu forward to the visible view. */
void            hr_window_add_view          (HrWindow      *self,
                                             GtkWidget     *view,
                                             const char    *name,
                                             const char    *title,
                                             const char    *icon_name);
const char     *hr_window_get_visible_view  (HrWindow      *self);
gboolean        hr_window_set_visible_view  (HrWindow      *self,
                                             const char    *name);

HrSizeView     *hr_window_get_size_view     (HrWindow      *self);
/* The application's session, and its catalog (NULL until the application is set). */
HrSession      *hr_window_get_session       (HrWindow      *self);
HrCatalog      *hr_window_get_catalog       (HrWindow      *self);
/* The view on page @name ("size", "compare", "finetune", "cloud"), built now if it was not yet;
 * NULL for no such page. */
GtkWidget      *hr_window_get_view          (HrWindow      *self,
                                             const char    *name);
void            hr_window_add_toast         (HrWindow      *self,
                                             AdwToast      *toast);
/* Cancelled when the window closes: async work started for it uses this. */
GCancellable   *hr_window_get_cancellable   (HrWindow      *self);
/* Your own models and GPUs (hr-import.h). */
HrImport       *hr_window_get_import        (HrWindow      *self);

/* Gives the controls under @widget the names GTK 4.8 gets wrong for screen readers: a
 * mnemonic button's without its underscore (and not twice), an icon-only button's from its
 * tooltip, a search entry's from its placeholder, a switch's from its row's title; and makes
 * the wheel over its sliders, spin buttons and drop-downs scroll the page, never edit them
 * (hr_navigation_guard_controls()).  Called on each view and dialog once it is built. */
void            hr_window_name_controls     (GtkWidget       *widget);

G_END_DECLS
