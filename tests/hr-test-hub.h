/* hr-test-hub.h — a local Hugging Face Hub for the tests, shaped like the documented API
 *
 * Two SoupServers on 127.0.0.1: the hub (search and tree listings paged by a Link header,
 * /{repo}/resolve/main/{path} with Range, 401 for a gated repo without the token, 429 with
 * Retry-After, and for the search "ratelimited" with the RateLimit header alone) and a "CDN" on another origin that .safetensors files are redirected to and that
 * counts any Authorization it is sent.  Every file served is written by hr_test_hub_start();
 * the expected figures are summed from what was written.  Shapes and their sources:
 * tests/fixtures/hub/SOURCES.md.
 */
#pragma once

#include <glib.h>

#include "hr-test-server.h"

G_BEGIN_DECLS

#define TOKEN     "hf_test_token_1234"
#define PAGE_SIZE 3

typedef struct
{
  char *path;
  GBytes *bytes;       /* what is served; NULL: listed only, with @size */
  guint64 size;
} RepoFile;

typedef struct
{
  const char *repo;
  GPtrArray *files;    /* RepoFile */
  guint status;        /* 0: serve; else answer every request with it */
  gboolean needs_token;
  guint delay_ms;      /* its listing answers that late */
} Repo;

typedef struct
{
  HrTestServer *hub;
  HrTestServer *cdn;
  GPtrArray *repos;
  guint64 gguf_tensor_bytes;     /* the Q4_K_M file's tensors */
  guint64 mmproj_tensor_bytes;   /* demo-org/Demo-GGUF's projector's (its header served, #31) */
  guint64 long_tensor_bytes;     /* demo-org/Long-GGUF's, behind a 3 MiB header */
  guint64 split_tensor_bytes;    /* both parts of the split Q8_0 */
  guint64 st_bytes;              /* the sharded repo's tensors */
  guint64 fp8_bytes;
  guint64 both_st_bytes;         /* demo/Both: its safetensors' tensors… */
  guint64 both_gguf_bytes;       /* …and its Q4_K_M's */
  gint tree_requests;
  gint search_requests;
  gint release_slow;    /* the "slowpoke" search answers once this is set */
  gint cdn_requests;
  gint cdn_saw_token;
  gint hub_saw_token;
  GMutex lock;
  char *last_revision;  /* of the last tree or resolve request, under @lock */
  char *home;
  gboolean offline;   /* run the CLI with HF_HUB_OFFLINE=1 */
} HrTestHub;

extern HrTestHub H;

/* Writes the repos and starts both servers. */
void hr_test_hub_start (void);
void hr_test_hub_stop  (void);

G_END_DECLS
