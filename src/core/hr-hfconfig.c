/* hr-hfconfig.c — a Hugging Face config.json as an HrModel
 *
 * Field names and defaults follow transformers' configuration classes (LlamaConfig,
 * Qwen3MoeConfig, Qwen3NextConfig, DeepseekV3Config, Gemma3TextConfig, GptOssConfig,
 * Glm4MoeConfig, MixtralConfig, Llama4TextConfig, NemotronHConfig …).  The parameter count
 * sums the shapes of every weight the text model holds: embeddings, the output head unless
 * tied, per layer the attention projections (GQA, MLA or linear attention / Mamba-2), norms,
 * dense FFN, routed and shared experts and the router.  MTP layers are not counted (published
 * totals leave them out); a vision tower, when the config has one, is added to the total only.
 * KV groups and recurrent state follow reference/model_specs.md §3.
 */
#include "hr-hfconfig.h"
#include "hr-json.h"
#include "hr-units.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

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

G_DEFINE_QUARK (hr-hfconfig-error-quark, hr_hfconfig_error)

/* ---- JSON access ----------------------------------------------------------------------- */

static JsonNode *
lookup (Cfg        *cfg,
        const char *key)
{
  JsonNode *node = NULL;

  if (json_object_has_member (cfg->text, key))
    node = json_object_get_member (cfg->text, key);
  else if (cfg->root != cfg->text && json_object_has_member (cfg->root, key))
    node = json_object_get_member (cfg->root, key);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

static gboolean
has (Cfg        *cfg,
     const char *key)
{
  return lookup (cfg, key) != NULL;
}

static void
type_error (Cfg        *cfg,
            const char *key,
            const char *what)
{
  if (cfg->error == NULL)
    g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                 "config.json: %s is not %s", key, what);
}

static void
note_missing (Cfg        *cfg,
              const char *key)
{
  /* Each name once. */
  g_autofree char *needle = g_strdup_printf (", %s,", key);
  g_autofree char *hay = g_strdup_printf (", %s,", cfg->missing->str);

  if (strstr (hay, needle) == NULL)
    g_string_append_printf (cfg->missing, "%s%s", cfg->missing->len ? ", " : "", key);
}

static gboolean
node_number (JsonNode *node,
             double   *out)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *out = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*out);
}

/* An integer field in [min, max], the first of @keys (NULL-terminated aliases) present;
 * @def when none is present (then noted as missing when @required). */
static gint64
get_int_v (Cfg                *cfg,
           const char * const *keys,
           gint64              min,
           gint64              max,
           gint64              def,
           gboolean            required)
{
  for (const char * const *k = keys; *k != NULL; k++)
    {
      JsonNode *node = lookup (cfg, *k);
      double v;

      if (node == NULL)
        continue;
      if (!node_number (node, &v) || v != floor (v))
        {
          type_error (cfg, *k, "an integer");
          return def;
        }
      if (v < (double) min || v > (double) max)
        {
          if (cfg->error == NULL)
            g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                         "config.json: %s is out of range (%.15g; expected %" G_GINT64_FORMAT
                         " to %" G_GINT64_FORMAT ")", *k, v, min, max);
          return def;
        }
      return (gint64) v;
    }
  if (required)
    note_missing (cfg, keys[0]);
  return def;
}

static int
get_int (Cfg        *cfg,
         const char *key,
         int         min,
         int         max,
         int         def,
         gboolean    required)
{
  const char *keys[] = { key, NULL };

  return (int) get_int_v (cfg, keys, min, max, def, required);
}

static gboolean
get_bool (Cfg        *cfg,
          const char *key,
          gboolean    def)
{
  JsonNode *node = lookup (cfg, key);

  if (node == NULL)
    return def;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      type_error (cfg, key, "true or false");
      return def;
    }
  return json_node_get_boolean (node);
}

static const char *
get_string (Cfg        *cfg,
            const char *key)
{
  JsonNode *node = lookup (cfg, key);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      type_error (cfg, key, "a string");
      return NULL;
    }
  return json_node_get_string (node);
}

static JsonArray *
get_array (Cfg        *cfg,
           const char *key)
{
  JsonNode *node = lookup (cfg, key);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      type_error (cfg, key, "a list");
      return NULL;
    }
  return json_node_get_array (node);
}

/* ---- architecture ---------------------------------------------------------------------- */

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

static gboolean
type_is (const char *model_type,
         const char *prefix)
{
  return model_type != NULL && g_str_has_prefix (model_type, prefix);
}

/* Per-layer attention kinds. */
static void
read_mixers (Cfg  *cfg,
             Arch *a)
{
  JsonArray *types = get_array (cfg, "layer_types");
  const char *pattern = get_string (cfg, "hybrid_override_pattern");
  int window = a->window;

  for (int i = 0; i < a->n_layers; i++)
    a->mixer[i] = MIX_FULL;

  if (pattern != NULL)
    {
      if ((int) strlen (pattern) != a->n_layers)
        {
          if (cfg->error == NULL)
            g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                         "config.json: hybrid_override_pattern has %zu blocks for %d layers",
                         strlen (pattern), a->n_layers);
          return;
        }
      for (int i = 0; i < a->n_layers; i++)
        switch (pattern[i])
          {
          case 'M': a->mixer[i] = MIX_MAMBA; break;
          case '*': a->mixer[i] = MIX_FULL; break;
          case 'E': case '-': a->mixer[i] = MIX_NONE; break;
          default:
            if (cfg->error == NULL)
              g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                           "config.json: hybrid_override_pattern has an unknown block “%c”",
                           g_ascii_isprint (pattern[i]) ? pattern[i] : '?');
            return;
          }
      return;
    }

  if (types != NULL)
    {
      if ((int) json_array_get_length (types) < a->n_layers)
        {
          if (cfg->error == NULL)
            g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                         "config.json: layer_types has %u entries for %d layers",
                         json_array_get_length (types), a->n_layers);
          return;
        }
      for (int i = 0; i < a->n_layers; i++)
        {
          JsonNode *node = json_array_get_element (types, (guint) i);
          const char *t;

          if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
            {
              type_error (cfg, "layer_types", "a list of strings");
              return;
            }
          t = json_node_get_string (node);
          if (strcmp (t, "sliding_attention") == 0)
            a->mixer[i] = window > 0 ? MIX_SLIDING : MIX_FULL;
          else if (strcmp (t, "chunked_attention") == 0)
            a->mixer[i] = window > 0 ? MIX_CHUNKED : MIX_FULL;
          else if (strcmp (t, "linear_attention") == 0)
            a->mixer[i] = MIX_LINEAR;
          else if (strcmp (t, "mamba") == 0)
            a->mixer[i] = MIX_MAMBA;
          else
            a->mixer[i] = MIX_FULL;  /* full_attention, or unknown: the larger cache */
        }
      return;
    }

  if (has (cfg, "full_attention_interval") || has (cfg, "linear_num_value_heads"))
    {
      int interval = get_int (cfg, "full_attention_interval", 1, MAX_LAYERS, 4, FALSE);

      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = (i + 1) % interval == 0 ? MIX_FULL : MIX_LINEAR;
      return;
    }

  if (type_is (a->model_type, "llama4"))
    {
      JsonArray *no_rope = get_array (cfg, "no_rope_layers");

      if (window <= 0)
        return;
      for (int i = 0; i < a->n_layers; i++)
        {
          gboolean use_rope = (i + 1) % 4 != 0;

          if (no_rope != NULL && (guint) i < json_array_get_length (no_rope))
            {
              double v;

              if (!node_number (json_array_get_element (no_rope, (guint) i), &v))
                {
                  type_error (cfg, "no_rope_layers", "a list of 0 and 1");
                  return;
                }
              use_rope = v != 0;
            }
          /* RoPE layers attend within a chunk; NoPE layers are global. */
          a->mixer[i] = use_rope ? MIX_CHUNKED : MIX_FULL;
        }
      return;
    }

  if (window <= 0)
    return;

  if (type_is (a->model_type, "gemma2") || type_is (a->model_type, "gpt_oss"))
    {
      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = i % 2 == 0 ? MIX_SLIDING : MIX_FULL;
    }
  else if (type_is (a->model_type, "gemma3") || type_is (a->model_type, "gemma4") ||
           type_is (a->model_type, "cohere2"))
    {
      int def = type_is (a->model_type, "cohere2") ? 4 : 6;
      int pattern_n = get_int (cfg, "sliding_window_pattern", 1, MAX_LAYERS, def, FALSE);

      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = (i + 1) % pattern_n != 0 ? MIX_SLIDING : MIX_FULL;
    }
  else if (type_is (a->model_type, "qwen2") || type_is (a->model_type, "qwen3"))
    {
      /* Qwen configs carry a sliding_window that is off unless use_sliding_window. */
      if (get_bool (cfg, "use_sliding_window", FALSE))
        {
          int from = get_int (cfg, "max_window_layers", 0, MAX_LAYERS, 0, FALSE);

          for (int i = from; i < a->n_layers; i++)
            a->mixer[i] = MIX_SLIDING;
        }
    }
  else if (type_is (a->model_type, "mistral") || type_is (a->model_type, "mixtral") ||
           type_is (a->model_type, "phi3") || type_is (a->model_type, "starcoder2"))
    {
      /* One window on every layer (Mistral 7B v0.1, Phi-3 mini), unless it spans the whole
       * context anyway. */
      static const char *ctx_keys[] = { "max_position_embeddings", NULL };
      gint64 max_ctx = get_int_v (cfg, ctx_keys, 0, G_MAXINT, 0, FALSE);

      if (max_ctx == 0 || window < max_ctx)
        for (int i = 0; i < a->n_layers; i++)
          a->mixer[i] = MIX_SLIDING;
    }
  /* Any other model type: the window's meaning is unknown, keep full attention. */
}

static gboolean
int_in_array (Cfg        *cfg,
              JsonArray  *array,
              const char *key,
              int         value)
{
  if (array == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      double v;

      if (!node_number (json_array_get_element (array, i), &v))
        {
          type_error (cfg, key, "a list of layer numbers");
          return FALSE;
        }
      if (v == value)
        return TRUE;
    }
  return FALSE;
}

/* Per-layer FFN kinds. */
static void
read_ffns (Cfg  *cfg,
           Arch *a)
{
  const char *pattern = get_string (cfg, "hybrid_override_pattern");
  JsonArray *mlp_only = get_array (cfg, "mlp_only_layers");
  JsonArray *moe_layers = get_array (cfg, "moe_layers");
  int sparse_step = get_int (cfg, "decoder_sparse_step", 1, MAX_LAYERS, 1, FALSE);
  int interleave = get_int (cfg, "interleave_moe_layer_step", 1, MAX_LAYERS, 1, FALSE);
  int freq = get_int (cfg, "moe_layer_freq", 1, MAX_LAYERS, 1, FALSE);

  for (int i = 0; i < a->n_layers; i++)
    {
      if (pattern != NULL && (int) strlen (pattern) == a->n_layers)
        {
          /* Nemotron-H: each block is a mixer or an FFN, never both. */
          a->ffn[i] = pattern[i] == 'E' ? FFN_MOE : pattern[i] == '-' ? FFN_DENSE : FFN_NONE;
          continue;
        }
      if (a->n_experts == 0)
        a->ffn[i] = FFN_DENSE;
      else if (get_bool (cfg, "enable_moe_block", FALSE))
        a->ffn[i] = FFN_DENSE_MOE;
      else if (moe_layers != NULL)
        a->ffn[i] = int_in_array (cfg, moe_layers, "moe_layers", i) ? FFN_MOE : FFN_DENSE;
      else if (int_in_array (cfg, mlp_only, "mlp_only_layers", i) || i < a->n_dense)
        a->ffn[i] = FFN_DENSE;
      else if ((i + 1) % sparse_step != 0 || (i + 1) % interleave != 0 || i % freq != 0)
        a->ffn[i] = FFN_DENSE;
      else
        a->ffn[i] = FFN_MOE;
    }
}

/* ---- parameter counting ---------------------------------------------------------------- */

typedef struct
{
  double total;
  double active;
} Params;

static void
add_params (Params *p,
            double  n,
            double  active_fraction)
{
  p->total += n;
  p->active += n * active_fraction;
}

static double
attention_params (const Arch *a,
                  Cfg        *cfg,
                  int         kv_heads,
                  int         head_dim,
                  gboolean    k_eq_v)
{
  double h = a->hidden, nh = a->heads, kvh = kv_heads, hd = head_dim;
  gboolean gate = get_bool (cfg, "attn_output_gate", type_is (a->model_type, "qwen3_next") ||
                                                     type_is (a->model_type, "qwen3_5"));
  gboolean bias = get_bool (cfg, "attention_bias", type_is (a->model_type, "qwen2"));
  double n;

  if (a->mla)
    {
      double qk = a->nope + a->rope;

      n = a->q_lora > 0 ? h * a->q_lora + a->q_lora + (double) a->q_lora * nh * qk
                        : h * nh * qk;
      n += h * (a->kv_lora + a->rope) + a->kv_lora;                 /* kv_a + its norm */
      n += (double) a->kv_lora * nh * (a->nope + a->v_head);        /* kv_b */
      n += nh * a->v_head * h;                                       /* o */
      return n;
    }

  n = h * nh * hd * (gate ? 2 : 1);       /* q (and the output gate) */
  n += h * kvh * hd * (k_eq_v ? 1 : 2);   /* k, v */
  n += nh * hd * h;                        /* o */
  if (bias)
    n += nh * hd + 2 * kvh * hd;
  if (type_is (a->model_type, "gpt_oss"))
    n += h + nh;                           /* o bias, attention sinks */
  if (type_is (a->model_type, "qwen3") || type_is (a->model_type, "gemma3") ||
      type_is (a->model_type, "gemma4") || get_bool (cfg, "use_qk_norm", FALSE))
    n += 2 * hd;                           /* q/k norms */
  return n;
}

static double
linear_attention_params (const Arch *a)
{
  double key_dim = (double) a->lin_nk * a->lin_dk;
  double value_dim = (double) a->lin_nv * a->lin_dv;
  double n = 0;

  n += a->hidden * (key_dim * 2 + value_dim * 2);   /* in_proj_qkvz */
  n += a->hidden * (a->lin_nv * 2.0);               /* in_proj_ba */
  n += (key_dim * 2 + value_dim) * a->lin_kernel;   /* conv1d */
  n += a->lin_nv * 2.0 + a->lin_dv;                 /* dt_bias, A_log, norm */
  n += value_dim * a->hidden;                       /* out_proj */
  return n;
}

static double
mamba_params (const Arch *a)
{
  double d_inner = (double) a->m_heads * a->m_head_dim;
  double conv_dim = d_inner + 2.0 * a->m_groups * a->m_state;
  double n = 0;

  n += a->hidden * (2 * d_inner + 2.0 * a->m_groups * a->m_state + a->m_heads);  /* in_proj */
  n += conv_dim * a->m_kernel + conv_dim;                                        /* conv1d */
  n += 3.0 * a->m_heads + d_inner;                                               /* A, D, dt, norm */
  n += d_inner * a->hidden;                                                      /* out_proj */
  return n;
}

static double
ffn_params (const Arch *a,
            int         width)
{
  return (a->gated ? 3.0 : 2.0) * a->hidden * width;
}

static double
expert_params (const Arch *a)
{
  double in = a->latent > 0 ? a->latent : a->hidden;
  double n = (a->gated ? 3.0 : 2.0) * in * a->moe_inter;

  if (type_is (a->model_type, "gpt_oss"))
    n += 2.0 * a->moe_inter + a->hidden;   /* gate_up and down biases */
  return n;
}

static Params
count_params (Cfg  *cfg,
              Arch *a)
{
  Params p = { 0, 0 };
  gboolean gemma = type_is (a->model_type, "gemma");
  double norms = (gemma ? 4.0 : 2.0) * a->hidden;
  double router_extra = 0;

  add_params (&p, (double) a->vocab * a->hidden, 1);               /* token embedding */
  if (!a->tied)
    add_params (&p, (double) a->vocab * a->hidden, 1);             /* output head */
  add_params (&p, a->hidden, 1);                                   /* final norm */

  if (type_is (a->model_type, "deepseek") || type_is (a->model_type, "glm4_moe") ||
      type_is (a->model_type, "gpt_oss") || type_is (a->model_type, "nemotron_h"))
    router_extra = a->n_experts;                                   /* router / correction bias */

  for (int i = 0; i < a->n_layers; i++)
    {
      gboolean global = a->mixer[i] == MIX_FULL;

      switch (a->mixer[i])
        {
        case MIX_FULL:
        case MIX_SLIDING:
        case MIX_CHUNKED:
          if (global && a->global_head_dim > 0)
            add_params (&p, attention_params (a, cfg, a->global_kv_heads, a->global_head_dim,
                                              a->k_eq_v), 1);
          else
            add_params (&p, attention_params (a, cfg, a->kv_heads, a->head_dim, FALSE), 1);
          break;
        case MIX_LINEAR:
          add_params (&p, linear_attention_params (a), 1);
          break;
        case MIX_MAMBA:
          add_params (&p, mamba_params (a), 1);
          break;
        case MIX_NONE:
        default:
          break;
        }
      /* Nemotron-H blocks have one norm; transformer layers two (Gemma four). */
      add_params (&p, a->ffn[i] == FFN_NONE || a->mixer[i] == MIX_NONE ? a->hidden : norms, 1);

      if (a->ffn[i] == FFN_DENSE || a->ffn[i] == FFN_DENSE_MOE)
        add_params (&p, ffn_params (a, a->inter), 1);
      if (a->ffn[i] == FFN_MOE || a->ffn[i] == FFN_DENSE_MOE)
        {
          double experts = (double) a->n_experts * expert_params (a);

          p.total += experts;
          p.active += (double) a->n_used * expert_params (a);
          add_params (&p, (double) a->hidden * a->n_experts + router_extra, 1);
          if (a->shared_width > 0)
            add_params (&p, ffn_params (a, a->shared_width), 1);
          if (type_is (a->model_type, "qwen2_moe") || type_is (a->model_type, "qwen3_next") ||
              type_is (a->model_type, "qwen3_5"))
            add_params (&p, a->hidden, 1);                         /* shared expert gate */
          if (a->latent > 0)
            add_params (&p, 2.0 * a->hidden * a->latent, 1);       /* latent projections */
        }
    }
  return p;
}

/* A vision tower's parameters (a ViT estimate from vision_config), 0 when there is none. */
static double
vision_params (Cfg *cfg,
               int  text_hidden)
{
  JsonNode *node;
  JsonObject *saved;
  Cfg vcfg;
  double h, inter, layers, patch, image, channels, n;
  const char *layer_keys[] = { "num_hidden_layers", "depth", NULL };

  if (cfg->root == cfg->text || !json_object_has_member (cfg->root, "vision_config"))
    return 0;
  node = json_object_get_member (cfg->root, "vision_config");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return 0;

  vcfg = *cfg;
  vcfg.error = NULL;
  vcfg.missing = g_string_new (NULL);
  saved = json_node_get_object (node);
  vcfg.root = vcfg.text = saved;
  h = get_int (&vcfg, "hidden_size", 1, MAX_DIM, 0, TRUE);
  inter = get_int (&vcfg, "intermediate_size", 1, MAX_DIM, 0, TRUE);
  layers = (double) get_int_v (&vcfg, layer_keys, 1, 1000, 0, TRUE);
  patch = get_int (&vcfg, "patch_size", 1, 4096, 14, FALSE);
  image = get_int (&vcfg, "image_size", 1, 1 << 16, 0, FALSE);
  channels = get_int (&vcfg, "num_channels", 1, 64, 3, FALSE);
  if (vcfg.error != NULL || vcfg.missing->len > 0)
    {
      g_clear_error (&vcfg.error);
      g_string_free (vcfg.missing, TRUE);
      return 0;   /* not a ViT we can count: leave it out rather than guess */
    }
  g_string_free (vcfg.missing, TRUE);

  /* per layer: q, k, v, o with biases, a two-matrix MLP with biases, two layer norms */
  n = layers * (4 * h * h + 4 * h + 2 * h * inter + inter + h + 4 * h);
  n += channels * patch * patch * h + h;                 /* patch embedding */
  if (image > 0)
    n += (image / patch) * (image / patch) * h;          /* position embedding */
  n += 2 * h;                                            /* post layer norm */
  n += h * text_hidden + h;                              /* projector into the text model */
  return n;
}

/* Bytes of recurrent state per sequence for one layer of @kind. */
static double
state_bytes (const Arch *a,
             MixerKind   kind,
             double     *conv_out)
{
  *conv_out = 0;
  if (kind == MIX_LINEAR)
    {
      /* Gated DeltaNet (vLLM gated_delta_net_state_shape): conv (k·nk·2 + v·nv) × (kernel − 1)
       * in BF16, temporal nv × v × k in the SSM dtype. */
      double conv = ((double) a->lin_dk * a->lin_nk * 2 + (double) a->lin_dv * a->lin_nv) *
                    MAX (a->lin_kernel - 1, 0) * 2;
      *conv_out = conv;
      return conv + (double) a->lin_nv * a->lin_dv * a->lin_dk * a->ssm_bytes;
    }
  if (kind == MIX_MAMBA)
    {
      /* Mamba-2 (vLLM mamba2_state_shape): conv (kernel − 1) × (d_inner + 2·groups·state),
       * temporal heads × head_dim × state. */
      double d_inner = (double) a->m_heads * a->m_head_dim;
      double conv = MAX (a->m_kernel - 1, 0) * (d_inner + 2.0 * a->m_groups * a->m_state) * 2;
      *conv_out = conv;
      return conv + d_inner * a->m_state * a->ssm_bytes;
    }
  return 0;
}

static void
add_group (HrModel     *model,
           HrLayerKind  kind,
           int          kv_heads,
           int          k_dim,
           int          v_dim,
           int          window,
           double       state)
{
  hr_model_add_layer_merged (model, kind, kv_heads, k_dim, v_dim, window, state);
}

static char *
slugify (const char *text)
{
  return hr_slugify (text, 80, "config-model");
}

/* A string member of @object, NULL when absent or not a string. */
static const char *
member_string (JsonObject *object,
               const char *key)
{
  JsonNode *node;

  if (!json_object_has_member (object, key))
    return NULL;
  node = json_object_get_member (object, key);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static char *
native_dtype (Cfg *cfg)
{
  JsonNode *qnode = lookup (cfg, "quantization_config");
  const char *dtype;

  if (qnode != NULL && JSON_NODE_HOLDS_OBJECT (qnode))
    {
      const char *method = member_string (json_node_get_object (qnode), "quant_method");

      if (method != NULL && *method != '\0' && strlen (method) < 32 &&
          g_utf8_validate (method, -1, NULL))
        return g_ascii_strup (method, -1);
    }
  dtype = member_string (cfg->root, "torch_dtype");
  if (dtype == NULL)
    dtype = member_string (cfg->root, "dtype");
  if (g_strcmp0 (dtype, "bfloat16") == 0)
    return g_strdup ("BF16");
  if (g_strcmp0 (dtype, "float16") == 0)
    return g_strdup ("F16");
  if (g_strcmp0 (dtype, "float32") == 0)
    return g_strdup ("F32");
  return NULL;
}

static int
ssm_dtype_bytes (Cfg *cfg)
{
  const char *keys[] = { "mamba_ssm_dtype", "mamba_ssm_cache_dtype", NULL };

  for (const char * const *k = keys; *k != NULL; k++)
    {
      JsonNode *node = lookup (cfg, *k);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
          json_node_get_value_type (node) == G_TYPE_STRING)
        {
          const char *v = json_node_get_string (node);

          if (strcmp (v, "bfloat16") == 0 || strcmp (v, "float16") == 0)
            return 2;
          return 4;
        }
    }
  return 4;
}

/* transformers' defaults for fields that published configs leave out
 * (Gemma3TextConfig: vocab_size 262208, max_position_embeddings 131072; Gemma2Config: 256000,
 * 8192). */
static int
default_vocab (const char *model_type)
{
  if (type_is (model_type, "gemma3"))
    return 262208;
  if (type_is (model_type, "gemma2"))
    return 256000;
  return 0;
}

static int
default_context (const char *model_type)
{
  if (type_is (model_type, "gemma3"))
    return 131072;
  if (type_is (model_type, "gemma2"))
    return 8192;
  return 0;
}

static JsonObject *
find_text_config (JsonObject *root)
{
  static const char *keys[] = { "text_config", "llm_config", "language_config" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (json_object_has_member (root, keys[i]))
      {
        JsonNode *node = json_object_get_member (root, keys[i]);

        if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
          return json_node_get_object (node);
      }
  return root;
}

static HrModel *
build_model (Cfg        *cfg,
             const char *repo_or_name,
             GError    **error)
{
  static const char *layer_keys[] = { "num_hidden_layers", "num_layers", "n_layer", "n_layers", NULL };
  static const char *hidden_keys[] = { "hidden_size", "d_model", "n_embd", NULL };
  static const char *head_keys[] = { "num_attention_heads", "n_head", "num_heads", NULL };
  static const char *kv_keys[] = { "num_key_value_heads", "num_kv_heads", "multi_query_group_num", NULL };
  static const char *vocab_keys[] = { "vocab_size", "padded_vocab_size", NULL };
  static const char *inter_keys[] = { "intermediate_size", "ffn_hidden_size", NULL };
  static const char *ctx_keys[] = { "max_position_embeddings", "seq_length", "max_sequence_length", NULL };
  static const char *expert_keys[] = { "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts", NULL };
  static const char *used_keys[] = { "num_experts_per_tok", "experts_per_token", "top_k_experts", "moe_k", NULL };
  static const char *shared_keys[] = { "n_shared_experts", "num_shared_experts", NULL };
  static const char *shared_width_keys[] = { "shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", NULL };
  static const char *dense_keys[] = { "first_k_dense_replace", "moe_layer_start_index", NULL };
  static const char *mtp_keys[] = { "num_nextn_predict_layers", "mtp_num_hidden_layers", NULL };
  g_autoptr(HrModel) model = NULL;
  g_autofree MixerKind *mixer = NULL;
  g_autofree FfnKind *ffn = NULL;
  g_autofree char *base_name = NULL;
  Arch a = { 0 };
  Params params;
  const char *arch0 = NULL;
  JsonArray *archs;
  gboolean any_linear = FALSE, any_mamba = FALSE, any_window = FALSE;
  int head_dim_def;

  a.model_type = get_string (cfg, "model_type");
  archs = json_object_has_member (cfg->root, "architectures") ? get_array (cfg, "architectures") : NULL;
  if (archs != NULL && json_array_get_length (archs) > 0)
    {
      JsonNode *node = json_array_get_element (archs, 0);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        arch0 = json_node_get_string (node);
    }
  if (a.model_type != NULL && !g_utf8_validate (a.model_type, -1, NULL))
    a.model_type = NULL;

  a.n_layers = (int) get_int_v (cfg, layer_keys, 1, MAX_LAYERS, 0, TRUE);
  a.hidden = (int) get_int_v (cfg, hidden_keys, 1, MAX_DIM, 0, TRUE);
  a.heads = (int) get_int_v (cfg, head_keys, 1, MAX_HEADS, 0, TRUE);
  a.vocab = (int) get_int_v (cfg, vocab_keys, 1, MAX_VOCAB, default_vocab (a.model_type),
                             default_vocab (a.model_type) == 0);
  if (cfg->error != NULL || cfg->missing->len > 0)
    goto fail;

  a.kv_heads = (int) get_int_v (cfg, kv_keys, 1, MAX_HEADS, a.heads, FALSE);
  head_dim_def = MAX (a.hidden / a.heads, 1);
  a.head_dim = get_int (cfg, "head_dim", 1, 65536, MIN (head_dim_def, 65536), FALSE);
  a.tied = get_bool (cfg, "tie_word_embeddings", type_is (a.model_type, "gemma"));
  a.mtp = (int) get_int_v (cfg, mtp_keys, 0, MAX_LAYERS, 0, FALSE);
  {
    const char *act = get_string (cfg, "mlp_hidden_act");

    if (act == NULL)
      act = get_string (cfg, "hidden_act");
    /* Nemotron-H's relu² MLP and experts have no gate. */
    a.gated = !(g_strcmp0 (act, "relu2") == 0 || type_is (a.model_type, "nemotron_h"));
  }

  /* MoE */
  a.n_experts = (int) get_int_v (cfg, expert_keys, 0, MAX_EXPERTS, 0, FALSE);
  if (type_is (a.model_type, "gemma4") && !get_bool (cfg, "enable_moe_block", FALSE))
    a.n_experts = 0;
  if (a.n_experts > 0)
    {
      static const char *moe_inter_keys[] = { "moe_intermediate_size", "intermediate_size", NULL };

      a.n_used = (int) get_int_v (cfg, used_keys, 1, MAX_EXPERTS, 0, TRUE);
      a.moe_inter = (int) get_int_v (cfg, moe_inter_keys, 1, MAX_DIM, 0, TRUE);
      a.n_shared = (int) get_int_v (cfg, shared_keys, 0, 1024, 0, FALSE);
      a.shared_width = (int) get_int_v (cfg, shared_width_keys, 0, MAX_DIM * 16, 0, FALSE);
      if (a.shared_width == 0 && a.n_shared > 0)
        a.shared_width = a.n_shared * a.moe_inter;
      if (type_is (a.model_type, "llama4"))
        {
          /* Llama 4: one shared expert as wide as a routed one. */
          a.n_shared = 1;
          a.shared_width = a.moe_inter;
        }
      a.n_dense = (int) get_int_v (cfg, dense_keys, 0, MAX_LAYERS, 0, FALSE);
      a.latent = get_int (cfg, "moe_latent_size", 0, MAX_DIM, 0, FALSE);
      if (a.n_used > a.n_experts && cfg->error == NULL)
        g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                     "config.json: %d experts per token but only %d experts", a.n_used, a.n_experts);
    }
  if (type_is (a.model_type, "llama4"))
    a.inter = get_int (cfg, "intermediate_size_mlp", 0, MAX_DIM, 0, FALSE);
  else
    a.inter = (int) get_int_v (cfg, inter_keys, 0, MAX_DIM, 0, FALSE);

  /* MLA */
  a.mla = has (cfg, "kv_lora_rank");
  if (a.mla)
    {
      a.kv_lora = get_int (cfg, "kv_lora_rank", 1, 65536, 0, TRUE);
      a.q_lora = get_int (cfg, "q_lora_rank", 0, 65536, 0, FALSE);
      a.rope = get_int (cfg, "qk_rope_head_dim", 0, 65536, 0, TRUE);
      a.nope = get_int (cfg, "qk_nope_head_dim", 0, 65536, 0, TRUE);
      a.v_head = get_int (cfg, "v_head_dim", 1, 65536, 0, TRUE);
    }

  /* Gemma 4 global layers */
  a.global_head_dim = get_int (cfg, "global_head_dim", 0, 65536, 0, FALSE);
  a.global_kv_heads = get_int (cfg, "num_global_key_value_heads", 1, MAX_HEADS, a.kv_heads, FALSE);
  a.k_eq_v = get_bool (cfg, "attention_k_eq_v", FALSE);

  /* Windows: sliding_window (may be null), or Llama 4's attention_chunk_size. */
  a.window = type_is (a.model_type, "llama4")
             ? get_int (cfg, "attention_chunk_size", 0, G_MAXINT, 0, FALSE)
             : get_int (cfg, "sliding_window", 0, G_MAXINT, 0, FALSE);

  if (cfg->error != NULL)
    goto fail;

  mixer = g_new0 (MixerKind, a.n_layers);
  ffn = g_new0 (FfnKind, a.n_layers);
  a.mixer = mixer;
  a.ffn = ffn;
  read_mixers (cfg, &a);
  read_ffns (cfg, &a);
  if (cfg->error != NULL)
    goto fail;

  for (int i = 0; i < a.n_layers; i++)
    {
      any_linear = any_linear || a.mixer[i] == MIX_LINEAR;
      any_mamba = any_mamba || a.mixer[i] == MIX_MAMBA;
      any_window = any_window || a.mixer[i] == MIX_SLIDING || a.mixer[i] == MIX_CHUNKED;
      if ((a.ffn[i] == FFN_DENSE || a.ffn[i] == FFN_DENSE_MOE) && a.inter <= 0)
        note_missing (cfg, type_is (a.model_type, "llama4") ? "intermediate_size_mlp"
                                                             : "intermediate_size");
    }
  if (any_linear)
    {
      a.lin_nk = get_int (cfg, "linear_num_key_heads", 1, MAX_HEADS, 0, TRUE);
      a.lin_dk = get_int (cfg, "linear_key_head_dim", 1, 65536, 0, TRUE);
      a.lin_nv = get_int (cfg, "linear_num_value_heads", 1, MAX_HEADS, 0, TRUE);
      a.lin_dv = get_int (cfg, "linear_value_head_dim", 1, 65536, 0, TRUE);
      a.lin_kernel = get_int (cfg, "linear_conv_kernel_dim", 1, 1024, 4, FALSE);
    }
  if (any_mamba)
    {
      a.m_heads = get_int (cfg, "mamba_num_heads", 1, MAX_HEADS, 0, TRUE);
      a.m_head_dim = get_int (cfg, "mamba_head_dim", 1, 65536, 0, TRUE);
      a.m_state = get_int (cfg, "ssm_state_size", 1, 65536, 0, TRUE);
      a.m_groups = get_int (cfg, "n_groups", 1, 65536, 1, FALSE);
      a.m_kernel = get_int (cfg, "conv_kernel", 1, 1024, 4, FALSE);
    }
  a.ssm_bytes = ssm_dtype_bytes (cfg);
  if (cfg->error != NULL || cfg->missing->len > 0)
    goto fail;

  /* Shapes no attention layer can have: each KV head serves a whole group of query heads, and
   * without head_dim (or MLA's own head sizes) the heads split the hidden size evenly.  Sizing
   * such a config would print confident nonsense. */
  if (a.heads % a.kv_heads != 0)
    {
      g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                   "config.json: %d key/value heads do not divide %d attention heads",
                   a.kv_heads, a.heads);
      goto fail;
    }
  if (!a.mla && !has (cfg, "head_dim") && a.hidden % a.heads != 0)
    {
      g_set_error (&cfg->error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                   "config.json: %d attention heads do not divide hidden_size %d, and there is "
                   "no head_dim", a.heads, a.hidden);
      goto fail;
    }

  /* The model. */
  model = hr_model_new ();
  model->origin = HR_MODEL_ORIGIN_CONFIG;
  if (repo_or_name != NULL && *repo_or_name != '\0' && g_utf8_validate (repo_or_name, -1, NULL))
    {
      const char *slash = strrchr (repo_or_name, '/');

      base_name = g_strdup (slash != NULL && slash[1] != '\0' ? slash + 1 : repo_or_name);
      if (g_str_has_suffix (base_name, ".json"))
        base_name[strlen (base_name) - 5] = '\0';
      if (slash != NULL && strchr (repo_or_name, ' ') == NULL &&
          !g_str_has_suffix (repo_or_name, ".json") && repo_or_name[0] != '/' &&
          strchr (slash + 1, '/') == NULL && strchr (repo_or_name, '/') == slash)
        model->hf_repo = g_strdup (repo_or_name);
    }
  /* A bare "config.json" names nothing: use the architecture instead. */
  if (base_name == NULL || *base_name == '\0' || g_ascii_strcasecmp (base_name, "config") == 0)
    {
      g_free (base_name);
      base_name = g_strdup (arch0 != NULL && g_utf8_validate (arch0, -1, NULL) ? arch0
                            : a.model_type != NULL ? a.model_type : "config.json model");
    }
  model->name = g_strdup (base_name);
  model->id = slugify (base_name);
  model->family = g_strdup (a.model_type);
  model->native_dtype = native_dtype (cfg);
  model->source = g_strdup_printf ("config.json (%s)", model->hf_repo != NULL ? model->hf_repo
                                                                              : base_name);
  model->confidence = g_strdup ("sourced");

  model->n_layers = a.n_layers;
  model->ffn_ungated = !a.gated;
  model->hidden = a.hidden;
  model->n_heads = a.heads;
  model->head_dim = a.mla ? a.nope + a.rope : a.head_dim;
  model->vocab = a.vocab;
  model->intermediate = a.inter;
  model->n_experts = a.n_experts;
  model->n_experts_used = a.n_used;
  model->n_shared_experts = a.shared_width > 0 ? MAX (a.n_shared, 1) : 0;
  model->moe_intermediate = a.moe_inter;
  model->shared_intermediate = a.shared_width;
  /* Dense-FFN layers of an MoE model: the leading ones (DeepSeek, GLM), or interleaved
   * (Llama 4 Maverick): the count is what sizes the weights. */
  for (int i = 0; i < a.n_layers && a.n_experts > 0; i++)
    if (a.ffn[i] == FFN_DENSE)
      model->n_dense_layers++;
  /* Nemotron-H style patterns: blocks without a mixer carry only an FFN */
  if (get_string (cfg, "hybrid_override_pattern") != NULL)
    {
      int ffn_blocks = 0;
      for (int i = 0; i < a.n_layers; i++)
        if (a.ffn[i] != FFN_NONE)
          ffn_blocks++;
      if (ffn_blocks < a.n_layers)
        model->n_ffn_layers = ffn_blocks;
    }
  if (a.mla)
    {
      model->q_lora_rank = a.q_lora;
      model->kv_lora_rank = a.kv_lora;
      model->qk_rope_dim = a.rope;
      model->qk_nope_dim = a.nope;
      model->v_head_dim = a.v_head;
    }
  model->mtp_layers = a.mtp;
  model->tie_embeddings = a.tied;
  model->max_context = (gint64) get_int_v (cfg, ctx_keys, 0, G_MAXINT,
                                           default_context (a.model_type), FALSE);
  if (cfg->error != NULL)   /* e.g. max_position_embeddings 1e300: refused, not ignored */
    goto fail;

  params = count_params (cfg, &a);
  model->total_params = params.total + vision_params (cfg, a.hidden);
  model->active_params = params.active;
  if (!(model->total_params < 1e15))
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                   "config.json: the shapes add up to %.3g parameters, not a real model",
                   model->total_params);
      return NULL;
    }

  /* KV groups and recurrent state. */
  {
    int shared_kv = get_int (cfg, "num_kv_shared_layers", 0, MAX_LAYERS, 0, FALSE);

    for (int i = 0; i < a.n_layers; i++)
      {
        gboolean cached = i < a.n_layers - shared_kv;

        switch (a.mixer[i])
          {
          case MIX_FULL:
            if (!cached)
              break;
            if (a.mla)
              add_group (model, HR_LAYER_MLA, 1, a.kv_lora + a.rope, 0, 0, 0);
            else if (a.global_head_dim > 0)
              /* Gemma 4: with attention_k_eq_v, V is K's values but engines store both. */
              add_group (model, HR_LAYER_FULL, a.global_kv_heads, a.global_head_dim,
                         a.global_head_dim, 0, 0);
            else
              add_group (model, HR_LAYER_FULL, a.kv_heads, a.head_dim, a.head_dim, 0, 0);
            break;
          case MIX_SLIDING:
          case MIX_CHUNKED:
            if (!cached)
              break;
            if (a.mla)
              add_group (model, HR_LAYER_MLA, 1, a.kv_lora + a.rope, 0, 0, 0);
            else
              add_group (model, a.mixer[i] == MIX_SLIDING ? HR_LAYER_SLIDING : HR_LAYER_CHUNKED,
                         a.kv_heads, a.head_dim, a.head_dim, a.window, 0);
            break;
          case MIX_LINEAR:
          case MIX_MAMBA:
            {
              double conv, st = state_bytes (&a, a.mixer[i], &conv);

              add_group (model, HR_LAYER_RECURRENT, 0, 0, 0, 0, st);
              hr_model_set_conv_bytes (model, st, conv);
            }
            break;
          case MIX_NONE:
          default:
            break;
          }
      }
  }

  /* A short description for the UI. */
  {
    GString *label = g_string_new (a.n_experts > 0 ? "Sparse MoE" : "Dense");

    if (any_linear)
      g_string_append (label, " hybrid (Gated DeltaNet + attention)");
    else if (any_mamba)
      g_string_append (label, " hybrid (Mamba-2 + attention)");
    g_string_append (label, a.mla ? " + MLA" : a.kv_heads < a.heads ? " + GQA" : " + MHA");
    if (any_window)
      g_string_append (label, type_is (a.model_type, "llama4") ? " (chunked local)"
                                                               : " (sliding window)");
    model->arch_label = g_string_free (label, FALSE);
  }

  if (!hr_model_validate (model, &cfg->error))
    {
      g_autofree char *msg = g_strdup (cfg->error->message);

      g_clear_error (&cfg->error);
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID, "config.json: %s", msg);
      return NULL;
    }
  return g_steal_pointer (&model);

fail:
  if (cfg->error != NULL)
    g_propagate_error (error, g_steal_pointer (&cfg->error));
  else
    g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_MISSING,
                 "config.json lacks %s", cfg->missing->str);
  return NULL;
}

HrModel *
hr_hfconfig_parse (const char  *json,
                   gssize       len,
                   const char  *repo_or_name,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GString) missing = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  Cfg cfg = { 0 };
  HrModel *model;

  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (len < 0)
    len = (gssize) strlen (json);
  if ((gsize) len > HR_HFCONFIG_MAX_SIZE)
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE,
                   "config.json is too large (%" G_GSSIZE_FORMAT " bytes)", len);
      return NULL;
    }
  parser = hr_json_parse (json, len, MAX_JSON_DEPTH, HR_JSON_DEFAULT_VALUES, &local_error);
  if (parser == NULL)
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE,
                   "config.json is not valid JSON: %s", local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE,
                   "config.json is not a JSON object");
      return NULL;
    }

  missing = g_string_new (NULL);
  cfg.root = json_node_get_object (root);
  cfg.text = find_text_config (cfg.root);
  cfg.missing = missing;
  model = build_model (&cfg, repo_or_name, error);
  g_clear_error (&cfg.error);
  return model;
}

HrModel *
hr_hfconfig_load_file (const char  *path,
                       GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *base = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  base = g_path_get_basename (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_IO, "%s: not a regular file", base);
      return NULL;
    }
  if (g_file_info_get_size (info) > HR_HFCONFIG_MAX_SIZE)
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE,
                   "%s: too large for a config.json (%" G_GOFFSET_FORMAT " bytes)", base,
                   g_file_info_get_size (info));
      return NULL;
    }
  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return NULL;
  /* ".../Qwen3-30B-A3B/config.json" is named after its directory. */
  if (g_ascii_strcasecmp (base, "config.json") == 0)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      g_free (base);
      base = g_path_get_basename (dir);
      if (g_strcmp0 (base, ".") == 0 || g_strcmp0 (base, "/") == 0)
        g_clear_pointer (&base, g_free);
    }
  return hr_hfconfig_parse (contents, (gssize) length, base, error);
}
