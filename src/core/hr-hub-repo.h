/* hr-hub-repo.h — what the Hugging Face Hub's API says about models, read without the network
 *
 * The Hub answers in JSON (shapes recorded with the test fixtures, tests/fixtures/hub/SOURCES.md):
 *  - GET /api/models?search=…: an array of {id, downloads, likes, lastModified, tags,
 *    library_name, pipeline_tag, …};
 *  - GET /api/models/{repo}/tree/{revision}?recursive=true: an array of {type ("file" or
 *    "directory"), path, size, oid, lfs: {oid, size, pointerSize}};
 * both paged by a Link header (rel="next").  This file turns those pages into plain structs,
 * gives each file a role for sizing, and maps a config.json's quantization_config to a quant.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_HUB_PARSE_ERROR (hr_hub_parse_error_quark ())
typedef enum
{
  HR_HUB_PARSE_ERROR_INVALID,   /* not the shape the Hub answers with */
  HR_HUB_PARSE_ERROR_LIMIT,     /* more than Headroom reads */
} HrHubParseError;

/* One page of a listing is at most this long; a repo at most this many files. */
#define HR_HUB_PAGE_MAX_SIZE   (8 * 1024 * 1024)
#define HR_HUB_MAX_FILES       20000
#define HR_HUB_MAX_RESULTS     1000

typedef enum
{
  HR_HUB_ROLE_GGUF,          /* a GGUF model file, or one part of a split one */
  HR_HUB_ROLE_PROJECTOR,     /* mmproj-*.gguf: a vision projector, not a model */
  HR_HUB_ROLE_SAFETENSORS,   /* a safetensors weights file (a shard, or the only one) */
  HR_HUB_ROLE_INDEX,         /* model.safetensors.index.json */
  HR_HUB_ROLE_CONFIG,        /* config.json */
  HR_HUB_ROLE_TOKENIZER,     /* tokenizer.json, tokenizer.model, tokenizer_config.json */
  HR_HUB_ROLE_OTHER_WEIGHTS, /* .bin / .pt / .pth / .ckpt / .safetensors outside the model */
  HR_HUB_ROLE_OTHER,
  HR_HUB_N_ROLES
} HrHubRole;

typedef struct
{
  char *path;          /* "Q4_K_M/Model-Q4_K_M-00001-of-00002.gguf" */
  guint64 size;        /* bytes (lfs.size when the file is in LFS) */
  HrHubRole role;
  char *quant;         /* GGUF: the quant its name gives ("Q4_K_M", "UD-Q2_K_XL"), else NULL */
  guint split_no;      /* GGUF split part: 1-based; 0 when not split */
  guint split_of;
} HrHubFile;

/* A GGUF model of the repo: a single file, or the parts of a split one summed. */
typedef struct
{
  char *quant;         /* from the name; NULL when the name gives none */
  char *path;          /* the file, or the first part */
  guint64 bytes;       /* all parts together */
  guint n_parts;
  gboolean complete;   /* every part of a split model is listed */
} HrHubGgufModel;

typedef struct
{
  GPtrArray *files;    /* HrHubFile, in the Hub's order */
} HrHubTree;

typedef struct
{
  char *id;
  gint64 downloads;    /* -1 unknown */
  gint64 likes;        /* -1 unknown */
  char *last_modified; /* ISO 8601 as the Hub gives it, NULL unknown */
  char *library;       /* library_name, NULL unknown */
  char *pipeline;      /* pipeline_tag */
  gboolean gguf;       /* tags name "gguf" */
  gboolean safetensors;/* tags name "safetensors" */
  gboolean gated;      /* "gated" is "auto" or "manual" */
} HrHubModelHit;

GQuark          hr_hub_parse_error_quark    (void);

const char     *hr_hub_role_to_string       (HrHubRole        role);   /* "gguf", "projector", … */
/* The role of @path by its name alone (GGUF split parts, mmproj, shards…). */
HrHubRole       hr_hub_role_for_path        (const char      *path);
/* The quant a GGUF file's name gives ("Llama-3-8B-Q4_K_M.gguf" → "Q4_K_M"), upper case;
 * NULL when none. */
char           *hr_hub_quant_from_name      (const char      *path);

HrHubTree      *hr_hub_tree_new             (void);
void            hr_hub_tree_free            (HrHubTree       *tree);
/* Appends one page of a tree listing (directories are skipped). */
gboolean        hr_hub_tree_add_page        (HrHubTree       *tree,
                                             const char      *json,
                                             gsize            len,
                                             GError         **error);
const HrHubFile *hr_hub_tree_find           (const HrHubTree *tree,
                                             const char      *path);
/* HrHubGgufModel, one per model (split parts summed), sorted by bytes, largest first. */
GPtrArray      *hr_hub_tree_gguf_models     (const HrHubTree *tree);
/* The safetensors weights of the model, without an index: model.safetensors, else the
 * top-level *.safetensors that are not consolidated*.safetensors (Mistral's second copy).
 * NULL when there are none. */
GStrv           hr_hub_tree_safetensors     (const HrHubTree *tree);
void            hr_hub_gguf_model_free      (HrHubGgufModel  *model);

/* One page of search results, appended to @hits (HrHubModelHit). */
gboolean        hr_hub_search_add_page      (GPtrArray       *hits,
                                             const char      *json,
                                             gsize            len,
                                             GError         **error);
GPtrArray      *hr_hub_hits_new             (void);
void            hr_hub_model_hit_free       (HrHubModelHit   *hit);

/* The quant id (hr-quant-format.h) a checkpoint's config.json says its weights are in: its
 * quantization_config (fp8, awq, gptq, compressed-tensors, bitsandbytes, mxfp4, modelopt…),
 * else its torch_dtype ("BF16").  NULL when it says nothing Headroom knows; @method receives
 * the quant_method as written (NULL when none). */
char           *hr_hub_checkpoint_quant     (const char      *config_json,
                                             gsize            len,
                                             char           **method);

/* "ORG/NAME[@REVISION][:QUANT_OR_FILE]" → its parts (revision "main" when not given). */
gboolean        hr_hub_ref_parse            (const char      *ref,
                                             char           **repo,
                                             char           **revision,
                                             char           **selector,
                                             GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubTree, hr_hub_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubGgufModel, hr_hub_gguf_model_free)

G_END_DECLS
