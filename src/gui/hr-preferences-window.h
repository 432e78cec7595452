/* hr-preferences-window.h — Preferences: sizing defaults, costs, appearance, online sources */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_PREFERENCES_WINDOW (hr_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (HrPreferencesWindow, hr_preferences_window, HR, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* Every control is bound to the application's GSettings keys, so a change applies at once
 * (the Size view recomputes on reserve-pct and unified-share).  Addresses are saved only when
 * applied and valid; the hub token goes to the keyring when there is one (hr-hub-token.h). */
GtkWidget      *hr_preferences_window_new   (GtkWindow *parent);

/* TRUE when @text is an http:// or https:// address with a host (and, for the hub, with no
 * query or fragment): what the pricing and hub clients accept.  @allow_empty lets "" pass. */
gboolean        hr_preferences_url_is_valid (const char *text,
                                             gboolean    allow_empty,
                                             gboolean    hub);

G_END_DECLS
