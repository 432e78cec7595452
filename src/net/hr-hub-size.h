/* hr-hub-size.h — a Hub repository sized without downloading its weights
 *
 * A GGUF repo becomes one model: the chosen file's header read by Range (exact bytes of every
 * tensor, split parts summed), and every other quant of the repo with its size from the file
 * listing ("Hub file size").  A safetensors repo becomes a model from its config.json, whose
 * weights are the exact sum of the tensor bytes every shard's header declares, at the quant its
 * quantization_config (or dtype) names.  Blocking, on the HrHub's own session (hr-hub-api.h).
 */
#pragma once

#include <gio/gio.h>

#include "hr-gguf-remote.h"
#include "hr-hub-api.h"
#include "hr-model.h"

G_BEGIN_DECLS

/* The "source" of every size read from the Hub's file listing. */
#define HR_HUB_SIZE_SOURCE  "Hub file size"
/* …and of a checkpoint's weights summed from its safetensors headers. */
#define HR_HUB_HEADERS_SOURCE "safetensors headers on the Hub"

typedef enum
{
  HR_HUB_KIND_GGUF,
  HR_HUB_KIND_SAFETENSORS,
} HrHubKind;

typedef struct
{
  char *repo;
  char *revision;
  HrHubKind kind;
  HrHubTree *tree;
  HrModel *model;          /* sized: gguf_repo (GGUF) or hf_repo (safetensors) set */
  char *quant;             /* the quant the model is sized at */
  guint64 weight_bytes;    /* exact tensor bytes at that quant */

  /* HR_HUB_KIND_GGUF */
  GPtrArray *gguf_models;  /* HrHubGgufModel, every model file of the repo */
  char *gguf_path;         /* the file whose header was read (its first part) */
  guint gguf_parts;
  HrGgufRemoteStats stats;

  /* HR_HUB_KIND_SAFETENSORS */
  HrSafetensors *weights;  /* every shard's header summed */
  GStrv shards;
  char *quant_method;      /* quantization_config.quant_method as written, NULL when none */
} HrHubSized;

/* @ref: "ORG/NAME[@REVISION][:QUANT|:FILE]".  Without a selector a GGUF repo is sized at
 * Q4_K_M when it has one (else its smallest complete model); a repo with both GGUF files and
 * safetensors weights is sized from the safetensors unless a quant or file is given.
 * Errors: HR_HUB_ERROR, HR_HUB_PARSE_ERROR, HR_HTTP_ERROR, HR_SAFETENSORS_ERROR, HR_GGUF_ERROR,
 * HR_HFCONFIG_ERROR, G_IO_ERROR_CANCELLED. */
HrHubSized     *hr_hub_size_repo            (HrHub           *hub,
                                             const char      *ref,
                                             GCancellable    *cancellable,
                                             GError         **error);
void            hr_hub_sized_free           (HrHubSized      *sized);
/* The repo's vision projector (#31): the first mmproj file (HR_HUB_ROLE_PROJECTOR) of the
 * sized repo's listing, its tensor bytes exact from its GGUF header, and (@encoder, nullable)
 * its image encoder's shape from the same header (hr-projector.h; patches 0 when unknown).
 * TRUE with *path NULL when the repo has none. */
gboolean        hr_hub_size_projector       (HrHub           *hub,
                                             HrHubSized      *sized,
                                             GCancellable    *cancellable,
                                             char           **path,
                                             guint64         *bytes,
                                             HrVisionEncoder *encoder,
                                             GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubSized, hr_hub_sized_free)

G_END_DECLS
