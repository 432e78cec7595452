/* hr-hub-search.h — the model picker's search on the Hugging Face Hub, debounced and cancellable
 *
 * No GTK (gui_state_lib).  hr_hub_search_set_query() waits HR_HUB_SEARCH_DELAY_MS after the last
 * keystroke, cancels the search before it, and runs hr_hub_search() (hr-hub-api.h: HF_ENDPOINT,
 * HF_TOKEN, the day-long cache) in a worker thread on a session of its own.  "changed" is emitted
 * when the state, the results or the message change; a query shorter than
 * HR_HUB_SEARCH_MIN_CHARS asks nothing.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define HR_HUB_SEARCH_DELAY_MS   350
#define HR_HUB_SEARCH_MIN_CHARS  3
#define HR_HUB_SEARCH_LIMIT      8

typedef enum
{
  HR_HUB_SEARCH_IDLE,       /* no query */
  HR_HUB_SEARCH_BUSY,       /* waiting for the typing to stop, or for the Hub */
  HR_HUB_SEARCH_DONE,       /* the hits are the query's */
  HR_HUB_SEARCH_FAILED,     /* the message says why (offline, rate limit…) */
} HrHubSearchState;

#define HR_TYPE_HUB_SEARCH (hr_hub_search_get_type ())
G_DECLARE_FINAL_TYPE (HrHubSearch, hr_hub_search, HR, HUB_SEARCH, GObject)

HrHubSearch    *hr_hub_search_new           (void);
/* The hub address of the app's Preferences ("hub-endpoint"); HF_ENDPOINT still comes first. */
void            hr_hub_search_set_endpoint  (HrHubSearch     *self,
                                             const char      *endpoint);
void            hr_hub_search_set_query     (HrHubSearch     *self,
                                             const char      *text);
/* Cancels what runs and forgets the query (the picker closed). */
void            hr_hub_search_clear         (HrHubSearch     *self);
HrHubSearchState hr_hub_search_get_state    (HrHubSearch     *self);
const char     *hr_hub_search_get_query     (HrHubSearch     *self);
/* HrHubModelHit (hr-hub-repo.h) of the last search that ended; empty otherwise. */
GPtrArray      *hr_hub_search_get_hits      (HrHubSearch     *self);
/* Why it failed, NULL unless FAILED. */
const char     *hr_hub_search_get_message   (HrHubSearch     *self);

G_END_DECLS
