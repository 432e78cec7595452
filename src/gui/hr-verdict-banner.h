/* hr-verdict-banner.h — the coloured banner at the top of the Size and Fine-tune views: an
 * icon (so colour is never the only cue), the verdict in a title and a sentence under it */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_TYPE_VERDICT_BANNER (hr_verdict_banner_get_type ())
G_DECLARE_FINAL_TYPE (HrVerdictBanner, hr_verdict_banner, HR, VERDICT_BANNER, GtkBox)

/* Shows a verdict: @css one of "verdict-fits", "verdict-tight", "verdict-exceeds",
 * "verdict-error" (NULL: none), @icon a symbolic icon name.  Screen readers read the banner
 * as "@title. @detail". */
void            hr_verdict_banner_set       (HrVerdictBanner *self,
                                             const char      *css,
                                             const char      *icon,
                                             const char      *title,
                                             const char      *detail);
const char     *hr_verdict_banner_get_title (HrVerdictBanner *self);

G_END_DECLS
