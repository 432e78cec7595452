/* hr-hfconfig-layers.c — which attention and which FFN each layer of a config has
 *
 * Sliding-window patterns, hybrid layouts (Qwen3-Next, Nemotron-H's pattern string, Gemma's
 * layer_types) and leading dense layers become one MixerKind and one FfnKind per layer.
 */
#include "hr-hfconfig-private.h"
#include "hr-json.h"

#include <string.h>

gboolean
hr_cfg_type_is (const char *model_type,
                const char *prefix)
{
  return model_type != NULL && g_str_has_prefix (model_type, prefix);
}

/* Nemotron-H's hybrid_override_pattern: one character per block. */
static void
mixers_from_pattern (Cfg        *cfg,
                     Arch       *a,
                     const char *pattern)
{
  if ((int) strlen (pattern) != a->n_layers)
    {
      hr_cfg_invalid (cfg, "config.json: hybrid_override_pattern has %zu blocks for %d layers",
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
        hr_cfg_invalid (cfg, "config.json: hybrid_override_pattern has an unknown block “%c”",
                        g_ascii_isprint (pattern[i]) ? pattern[i] : '?');
        return;
      }
}

/* layer_types (Gemma, Qwen3-Next, Qwen3.5): one name per layer. */
static void
mixers_from_layer_types (Cfg       *cfg,
                         Arch      *a,
                         JsonArray *types)
{
  if ((int) json_array_get_length (types) < a->n_layers)
    {
      hr_cfg_invalid (cfg, "config.json: layer_types has %u entries for %d layers",
                      json_array_get_length (types), a->n_layers);
      return;
    }
  for (int i = 0; i < a->n_layers; i++)
    {
      JsonNode *node = json_array_get_element (types, (guint) i);
      const char *t;

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          hr_cfg_type_error (cfg, "layer_types", "a list of strings");
          return;
        }
      t = json_node_get_string (node);
      if (strcmp (t, "sliding_attention") == 0)
        a->mixer[i] = a->window > 0 ? MIX_SLIDING : MIX_FULL;
      else if (strcmp (t, "chunked_attention") == 0)
        a->mixer[i] = a->window > 0 ? MIX_CHUNKED : MIX_FULL;
      else if (strcmp (t, "linear_attention") == 0)
        a->mixer[i] = MIX_LINEAR;
      else if (strcmp (t, "mamba") == 0)
        a->mixer[i] = MIX_MAMBA;
      else
        a->mixer[i] = MIX_FULL;  /* full_attention, or unknown: the larger cache */
    }
}

/* Llama 4: RoPE layers attend within a chunk, NoPE layers (every 4th unless no_rope_layers
 * says otherwise) are global. */
static void
mixers_llama4 (Cfg  *cfg,
               Arch *a)
{
  JsonArray *no_rope = hr_cfg_get_array (cfg, "no_rope_layers");

  if (a->window <= 0)
    return;
  for (int i = 0; i < a->n_layers; i++)
    {
      gboolean use_rope = (i + 1) % 4 != 0;

      if (no_rope != NULL && (guint) i < json_array_get_length (no_rope))
        {
          double v;

          if (!hr_json_node_get_number (json_array_get_element (no_rope, (guint) i), &v))
            {
              hr_cfg_type_error (cfg, "no_rope_layers", "a list of 0 and 1");
              return;
            }
          use_rope = v != 0;
        }
      a->mixer[i] = use_rope ? MIX_CHUNKED : MIX_FULL;
    }
}

/* A sliding_window without a per-layer list: each family's own rule. */
static void
mixers_from_window (Cfg  *cfg,
                    Arch *a)
{
  const char *type = a->model_type;

  if (hr_cfg_type_is (type, "gemma2") || hr_cfg_type_is (type, "gpt_oss"))
    {
      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = i % 2 == 0 ? MIX_SLIDING : MIX_FULL;
    }
  else if (hr_cfg_type_is (type, "gemma3") || hr_cfg_type_is (type, "gemma4") ||
           hr_cfg_type_is (type, "cohere2"))
    {
      int def = hr_cfg_type_is (type, "cohere2") ? 4 : 6;
      int pattern_n = hr_cfg_get_int (cfg, "sliding_window_pattern", 1, MAX_LAYERS, def, FALSE);

      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = (i + 1) % pattern_n != 0 ? MIX_SLIDING : MIX_FULL;
    }
  else if (hr_cfg_type_is (type, "qwen2") || hr_cfg_type_is (type, "qwen3"))
    {
      /* Qwen configs carry a sliding_window that is off unless use_sliding_window. */
      if (hr_cfg_get_bool (cfg, "use_sliding_window", FALSE))
        {
          int from = hr_cfg_get_int (cfg, "max_window_layers", 0, MAX_LAYERS, 0, FALSE);

          for (int i = from; i < a->n_layers; i++)
            a->mixer[i] = MIX_SLIDING;
        }
    }
  else if (hr_cfg_type_is (type, "mistral") || hr_cfg_type_is (type, "mixtral") ||
           hr_cfg_type_is (type, "phi3") || hr_cfg_type_is (type, "starcoder2"))
    {
      /* One window on every layer (Mistral 7B v0.1, Phi-3 mini), unless it spans the whole
       * context anyway. */
      static const char *ctx_keys[] = { "max_position_embeddings", NULL };
      gint64 max_ctx = hr_cfg_get_int_v (cfg, ctx_keys, 0, G_MAXINT, 0, FALSE);

      if (max_ctx == 0 || a->window < max_ctx)
        for (int i = 0; i < a->n_layers; i++)
          a->mixer[i] = MIX_SLIDING;
    }
  /* Any other model type: the window's meaning is unknown, keep full attention. */
}

/* Per-layer attention kinds. */
void
hr_arch_read_mixers (Cfg  *cfg,
                     Arch *a)
{
  JsonArray *types = hr_cfg_get_array (cfg, "layer_types");
  const char *pattern = hr_cfg_get_string (cfg, "hybrid_override_pattern");

  for (int i = 0; i < a->n_layers; i++)
    a->mixer[i] = MIX_FULL;

  if (pattern != NULL)
    mixers_from_pattern (cfg, a, pattern);
  else if (types != NULL)
    mixers_from_layer_types (cfg, a, types);
  else if (hr_cfg_has (cfg, "full_attention_interval") ||
           hr_cfg_has (cfg, "linear_num_value_heads"))
    {
      /* Qwen3-Next without layer_types: every interval-th layer is full attention. */
      int interval = hr_cfg_get_int (cfg, "full_attention_interval", 1, MAX_LAYERS, 4, FALSE);

      for (int i = 0; i < a->n_layers; i++)
        a->mixer[i] = (i + 1) % interval == 0 ? MIX_FULL : MIX_LINEAR;
    }
  else if (hr_cfg_type_is (a->model_type, "llama4"))
    mixers_llama4 (cfg, a);
  else if (a->window > 0)
    mixers_from_window (cfg, a);
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

      if (!hr_json_node_get_number (json_array_get_element (array, i), &v))
        {
          hr_cfg_type_error (cfg, key, "a list of layer numbers");
          return FALSE;
        }
      if (v == value)
        return TRUE;
    }
  return FALSE;
}

/* Per-layer FFN kinds. */
void
hr_arch_read_ffns (Cfg  *cfg,
                   Arch *a)
{
  const char *pattern = hr_cfg_get_string (cfg, "hybrid_override_pattern");
  JsonArray *mlp_only = hr_cfg_get_array (cfg, "mlp_only_layers");
  JsonArray *moe_layers = hr_cfg_get_array (cfg, "moe_layers");
  int sparse_step = hr_cfg_get_int (cfg, "decoder_sparse_step", 1, MAX_LAYERS, 1, FALSE);
  int interleave = hr_cfg_get_int (cfg, "interleave_moe_layer_step", 1, MAX_LAYERS, 1, FALSE);
  int freq = hr_cfg_get_int (cfg, "moe_layer_freq", 1, MAX_LAYERS, 1, FALSE);

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
      else if (hr_cfg_get_bool (cfg, "enable_moe_block", FALSE))
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
