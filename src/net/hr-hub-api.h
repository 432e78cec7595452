/* hr-hub-api.h — the Hugging Face Hub's HTTP API: search, file listings, byte ranges
 *
 * Blocking calls on a SoupSession of the HrHub's own (libsoup binds a session to the thread that
 * uses it): the command line calls them directly, the app from one worker thread per HrHub
 * (GTask), cancellable.  Lists are paged by the Link header (rel="next"); redirects are followed
 * one hop at a time and the access token goes only to the endpoint's own origin, never to the
 * CDN large files are sent from.  Answers are kept in a cache under the user cache dir for a
 * day (listings, headers), unless refreshed.
 *
 * Where and who, as huggingface_hub decides it (tests/fixtures/hub/SOURCES.md): HF_ENDPOINT,
 * then the given endpoint, then https://huggingface.co; the given token (the app's
 * Preferences), else HF_TOKEN, HUGGING_FACE_HUB_TOKEN, else the file $HF_TOKEN_PATH or
 * $HF_HOME/token ($HF_HOME defaulting to $XDG_CACHE_HOME/huggingface, ~/.cache/huggingface).
 * HF_HUB_OFFLINE=1 makes every call that is not cached fail at once.
 */
#pragma once

#include <gio/gio.h>

#include "hr-hub-client.h"
#include "hr-hub-repo.h"
#include "hr-safetensors.h"

G_BEGIN_DECLS

typedef struct _HrHub HrHub;

#define HR_HUB_CACHE_MAX_AGE    (24 * 60 * 60)       /* seconds */
#define HR_HUB_CACHE_MAX_BYTES  (64 * 1024 * 1024)   /* the whole cache directory */
/* huggingface_hub reads a safetensors file's first 100 000 bytes, then the rest of a longer
 * header (HfApi.get_safetensors_metadata). */
#define HR_HUB_SAFETENSORS_FIRST_BYTES 100000

/* @endpoint, @token: NULL or "" to decide from the environment (above).  Fails only on an
 * endpoint that is not an http(s) address. */
HrHub          *hr_hub_new                  (const char      *endpoint,
                                             const char      *token,
                                             GError         **error);
void            hr_hub_free                 (HrHub           *hub);
const char     *hr_hub_get_endpoint         (HrHub           *hub);
gboolean        hr_hub_has_token            (HrHub           *hub);
/* @dir NULL: no cache.  @refresh: ask the Hub again even when a cached answer is fresh. */
void            hr_hub_set_cache            (HrHub           *hub,
                                             const char      *dir,
                                             gboolean         refresh);
/* The default cache: $XDG_CACHE_HOME/headroom/hub. */
char           *hr_hub_default_cache_dir    (void);
/* Seconds per request (0: hr_http_get_timeout()). */
void            hr_hub_set_timeout          (HrHub           *hub,
                                             guint            timeout_s);

/* The token huggingface_hub would use, from the environment and the token file; NULL when
 * none. */
char           *hr_hub_env_token            (void);

/* Models whose name holds @text, most downloaded first, at most @limit (1 … HR_HUB_MAX_RESULTS);
 * @gguf_only adds filter=gguf.  HrHubModelHit. */
GPtrArray      *hr_hub_search               (HrHub           *hub,
                                             const char      *text,
                                             gboolean         gguf_only,
                                             guint            limit,
                                             GCancellable    *cancellable,
                                             GError         **error);
/* Every file of @repo at @revision, with sizes. */
HrHubTree      *hr_hub_list_files           (HrHub           *hub,
                                             const char      *repo,
                                             const char      *revision,
                                             GCancellable    *cancellable,
                                             GError         **error);
/* A whole (small) file of the repo, at most @max_bytes. */
GBytes         *hr_hub_read_file            (HrHub           *hub,
                                             const char      *repo,
                                             const char      *revision,
                                             const char      *path,
                                             gsize            max_bytes,
                                             GCancellable    *cancellable,
                                             GError         **error);
/* The first @length bytes of a file of the repo (fewer when it is shorter), by Range. */
GBytes         *hr_hub_read_range           (HrHub           *hub,
                                             const char      *repo,
                                             const char      *revision,
                                             const char      *path,
                                             gsize            length,
                                             GCancellable    *cancellable,
                                             GError         **error);
/* A safetensors file's header, read by Range (two requests at most); @file_size from the
 * listing (0 when unknown) is checked against it. */
HrSafetensors  *hr_hub_read_safetensors     (HrHub           *hub,
                                             const char      *repo,
                                             const char      *revision,
                                             const char      *path,
                                             guint64          file_size,
                                             GCancellable    *cancellable,
                                             GError         **error);
/* {endpoint}/{repo}/resolve/{revision}/{path}, each segment escaped. */
char           *hr_hub_resolve_url          (HrHub           *hub,
                                             const char      *repo,
                                             const char      *revision,
                                             const char      *path);

/* How many requests went to the network, and how many were answered from the cache. */
guint           hr_hub_get_n_requests       (HrHub           *hub);
guint           hr_hub_get_n_cached         (HrHub           *hub);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHub, hr_hub_free)

G_END_DECLS
