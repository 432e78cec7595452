/* hr-toast.h — every toast of the app: escaped text, one timeout policy, one way to show it
 *
 * Toast titles are Pango markup, so a text is always escaped (a file named "R&D.png" would
 * show nothing otherwise) and its hidden characters made visible.  How long a toast stays is
 * decided here and only here (hr_toast_timeout()); a long text wraps instead of being cut.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef enum
{
  HR_TOAST_INFO,    /* something done: "Exported …", "Copied …" */
  HR_TOAST_ERROR,   /* something that failed: stays longer, shown before queued news */
} HrToastKind;

/* Seconds a toast stays: 4 for news, 8 when it has a button to reach (Open, Undo, Details),
 * 10 for a failure. */
guint           hr_toast_timeout            (HrToastKind    kind,
                                             gboolean       has_button);

/* A toast showing @text as it is (escaped, hidden characters made visible), no policy applied. */
AdwToast       *hr_toast_new_text           (const char    *text);
/* A toast of @kind: hr_toast_new_text(), its timeout and priority, wrapped when long. */
AdwToast       *hr_toast_new                (const char    *text,
                                             HrToastKind    kind);
/* Gives @toast a button (@label with a mnemonic) and the timeout of a toast with one; connect
 * to its "button-clicked" signal for what it does. */
void            hr_toast_set_button         (AdwToast      *toast,
                                             const char    *label);
/* Adds an "Open" button that opens @file in the user's default application for it; a failure
 * to open it is a toast of its own, shown over @anchor. */
void            hr_toast_add_open_button    (AdwToast      *toast,
                                             GtkWidget     *anchor,
                                             GFile         *file);

/* Shows @toast (transfer full) in the toast overlay around @anchor, or in @anchor itself when
 * it is a preferences window; FALSE (and the toast dropped) when there is none yet. */
gboolean        hr_toast_show               (GtkWidget     *anchor,
                                             AdwToast      *toast);
/* hr_toast_show (anchor, hr_toast_new (text, kind)). */
void            hr_toast_show_text          (GtkWidget     *anchor,
                                             const char    *text,
                                             HrToastKind    kind);
/* Puts @text on @anchor's clipboard and says so with @message. */
void            hr_toast_copied             (GtkWidget     *anchor,
                                             const char    *text,
                                             const char    *message);
/* For tests: the last toast shown over @anchor (or given to it when there was no overlay). */
AdwToast       *hr_toast_get_last           (GtkWidget     *anchor);

G_END_DECLS
