/* hr-about.h — the About window: version, licence, credits and where the data comes from */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

/* An AdwAboutWindow, transient for @parent; @catalog (may be NULL) gives the counts of the
 * bundled models and GPUs and the date of the cloud prices on screen. */
GtkWidget      *hr_about_window_new         (GtkWindow       *parent,
                                             const HrCatalog *catalog);

G_END_DECLS
