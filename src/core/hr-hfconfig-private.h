/* hr-hfconfig-private.h — what the config.json reader's files share, and nothing else includes
 *
 * hr-hfconfig-fields.c reads typed fields (with aliases, notes what is missing),
 * hr-hfconfig-layers.c the per-layer attention and FFN kinds, hr-hfconfig-params.c counts
 * parameters and recurrent state from the shapes, and hr-hfconfig.c builds the HrModel.
 */
#pragma once

#include "hr-hfconfig.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MAX_LAYERS     10000
#define MAX_DIM        (1 << 20)
#define MAX_VOCAB      (1 << 24)
#define MAX_HEADS      65536
#define MAX_EXPERTS    65536
#define MAX_JSON_DEPTH 64

typedef enum
{
  MIX_FULL,
  MIX_SLIDING,
  MIX_CHUNKED,
  MIX_LINEAR,   /* Gated DeltaNet (Qwen3-Next, Qwen3.5) */
  MIX_MAMBA,    /* Mamba-2 (Nemotron-H) */
  MIX_NONE,     /* an FFN-only block (Nemotron-H 'E' and '-') */
} MixerKind;

typedef enum
{
  FFN_NONE,
  FFN_DENSE,
  FFN_MOE,
  FFN_DENSE_MOE,  /* Gemma 4: a dense MLP beside the routed experts */
} FfnKind;

typedef struct
{
  JsonObject *root;
  JsonObject *text;     /* text_config (or the root) */
  GString *missing;
  GError *error;        /* the first wrong-type or out-of-range field */
} Cfg;

typedef struct
{
  const char *model_type;
  int n_layers;
  int hidden;
  int heads;
  int kv_heads;
  int head_dim;
  int vocab;
  int inter;          /* dense FFN width */
  gboolean gated;     /* SwiGLU/GeGLU FFN (3 matrices) or a plain one (2) */
  gboolean tied;

  /* MoE */
  int n_experts;
  int n_used;
  int moe_inter;
  int shared_width;   /* all shared experts together */
  int n_shared;
  int n_dense;        /* leading dense layers */
  int latent;         /* Nemotron LatentMoE */

  /* MLA */
  gboolean mla;
  int q_lora;
  int kv_lora;
  int rope;
  int nope;
  int v_head;

  /* Gemma 4 global layers */
  int global_kv_heads;
  int global_head_dim;
  gboolean k_eq_v;

  int window;
  int mtp;

  /* linear attention (Gated DeltaNet) */
  int lin_nk, lin_dk, lin_nv, lin_dv, lin_kernel;
  /* Mamba-2 */
  int m_heads, m_head_dim, m_state, m_groups, m_kernel;
  int ssm_bytes;      /* bytes per SSM state element */

  MixerKind *mixer;
  FfnKind *ffn;
} Arch;

typedef struct
{
  double total;
  double active;
} Params;

/* hr-hfconfig-fields.c */
JsonNode *hr_cfg_lookup (Cfg        *cfg,
                         const char *key);
gboolean hr_cfg_has (Cfg        *cfg,
                     const char *key);
/* Sets the config's error (the first one only) to a message about a wrong field. */
void hr_cfg_invalid (Cfg        *cfg,
                     const char *format,
                     ...) G_GNUC_PRINTF (2, 3);
void hr_cfg_type_error (Cfg        *cfg,
                        const char *key,
                        const char *what);
void hr_cfg_note_missing (Cfg        *cfg,
                          const char *key);
/* An integer field in [min, max], the first of @keys (NULL-terminated aliases) present;
 * @def when none is present (then noted as missing when @required). */
gint64 hr_cfg_get_int_v (Cfg                *cfg,
                         const char * const *keys,
                         gint64              min,
                         gint64              max,
                         gint64              def,
                         gboolean            required);
int hr_cfg_get_int (Cfg        *cfg,
                    const char *key,
                    int         min,
                    int         max,
                    int         def,
                    gboolean    required);
gboolean hr_cfg_get_bool (Cfg        *cfg,
                          const char *key,
                          gboolean    def);
const char *hr_cfg_get_string (Cfg        *cfg,
                               const char *key);
JsonArray *hr_cfg_get_array (Cfg        *cfg,
                             const char *key);

/* hr-hfconfig-layers.c */
gboolean hr_cfg_type_is (const char *model_type,
                         const char *prefix);
/* Per-layer attention kinds. */
void hr_arch_read_mixers (Cfg  *cfg,
                          Arch *a);
/* Per-layer FFN kinds. */
void hr_arch_read_ffns (Cfg  *cfg,
                        Arch *a);

/* hr-hfconfig-params.c */
Params hr_arch_count_params (Cfg  *cfg,
                             Arch *a);
/* A vision tower's parameters (a ViT estimate from vision_config), 0 when there is none. */
double hr_cfg_vision_params (Cfg *cfg,
                             int  text_hidden);
/* Bytes of recurrent state per sequence for one layer of @kind. */
double hr_arch_state_bytes (const Arch *a,
                            MixerKind   kind,
                            double     *conv_out);

G_END_DECLS
