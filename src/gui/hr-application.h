/* hr-application.h — the Headroom application: owns the catalog and the settings */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

#define HR_TYPE_APPLICATION (hr_application_get_type ())
G_DECLARE_FINAL_TYPE (HrApplication, hr_application, HR, APPLICATION, AdwApplication)

HrApplication  *hr_application_new          (void);

/* The bundled catalog plus the user's own models and GPUs; loaded in startup, owned by the
 * application, valid until it is finalized. */
HrCatalog      *hr_application_get_catalog  (HrApplication *self);
GSettings      *hr_application_get_settings (HrApplication *self);

G_END_DECLS
