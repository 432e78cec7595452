/* hr-fetch-dialog.h — asks for a hub repository id or a GGUF address, then shows the fetch
 *
 * The dialog only words and checks the input; HrImport does the fetching and reports back
 * with hr_fetch_dialog_set_busy() and _set_error().  Closing it (Cancel, Escape) emits
 * "cancelled" when a fetch is running, so it can be stopped.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef enum
{
  HR_FETCH_HUB,       /* a config.json by repository id, "org/name" */
  HR_FETCH_GGUF_URL,  /* a GGUF header by http(s) address */
} HrFetchKind;

#define HR_TYPE_FETCH_DIALOG (hr_fetch_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HrFetchDialog, hr_fetch_dialog, HR, FETCH_DIALOG, AdwWindow)

/* @description: a line under the entry (where it will be fetched from); may be NULL. */
HrFetchDialog  *hr_fetch_dialog_new         (GtkWindow     *parent,
                                             HrFetchKind    kind,
                                             const char    *description);
HrFetchKind     hr_fetch_dialog_get_kind    (HrFetchDialog *self);

const char     *hr_fetch_dialog_get_text    (HrFetchDialog *self);
void            hr_fetch_dialog_set_text    (HrFetchDialog *self,
                                             const char    *text);

/* What Enter and the Fetch button do: emits "submit" with the trimmed text and returns TRUE,
 * or FALSE when the input is not valid or a fetch is running. */
gboolean        hr_fetch_dialog_submit      (HrFetchDialog *self);

/* @status non-NULL: a fetch runs (spinner, the entry locked); NULL: idle again. */
void            hr_fetch_dialog_set_busy    (HrFetchDialog *self,
                                             const char    *status);
gboolean        hr_fetch_dialog_is_busy     (HrFetchDialog *self);
/* The inline error under the entry; NULL hides it.  Editing the text hides it too. */
void            hr_fetch_dialog_set_error   (HrFetchDialog *self,
                                             const char    *message);
/* The error shown (the input's own or the fetch's), NULL when none. */
const char     *hr_fetch_dialog_get_error   (HrFetchDialog *self);
gboolean        hr_fetch_dialog_can_submit  (HrFetchDialog *self);

G_END_DECLS
