/* hr-fit-others.h — the Size view's "other models on this hardware" (What Runs Here's top rows) */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_FIT_OTHERS (hr_fit_others_get_type ())
G_DECLARE_FINAL_TYPE (HrFitOthers, hr_fit_others, HR, FIT_OTHERS, AdwBin)

GtkWidget      *hr_fit_others_new           (HrSession      *session);
/* Rows shown now (ranked first when out of date). */
guint           hr_fit_others_get_n_rows    (HrFitOthers    *self);
/* Makes row @index's model, quant and expert offload the session's scenario. */
gboolean        hr_fit_others_open          (HrFitOthers    *self,
                                             guint           index);

G_END_DECLS
