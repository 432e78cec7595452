/* hr-hfconfig-params.c — parameters and recurrent state counted from a config's shapes
 *
 * Sums every weight the text model holds (embeddings, head unless tied, attention, norms,
 * dense FFN, experts, router), estimates a vision tower from vision_config, and sizes the
 * per-sequence state of linear-attention and Mamba-2 layers.
 */
#include "hr-hfconfig-private.h"

#include <math.h>

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
  gboolean gate = hr_cfg_get_bool (cfg, "attn_output_gate",
                                   hr_cfg_type_is (a->model_type, "qwen3_next") ||
                                   hr_cfg_type_is (a->model_type, "qwen3_5"));
  gboolean bias = hr_cfg_get_bool (cfg, "attention_bias", hr_cfg_type_is (a->model_type, "qwen2"));
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
  if (hr_cfg_type_is (a->model_type, "gpt_oss"))
    n += h + nh;                           /* o bias, attention sinks */
  if (hr_cfg_type_is (a->model_type, "qwen3") || hr_cfg_type_is (a->model_type, "gemma3") ||
      hr_cfg_type_is (a->model_type, "gemma4") || hr_cfg_get_bool (cfg, "use_qk_norm", FALSE))
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

  if (hr_cfg_type_is (a->model_type, "gpt_oss"))
    n += 2.0 * a->moe_inter + a->hidden;   /* gate_up and down biases */
  return n;
}

Params
hr_arch_count_params (Cfg  *cfg,
                      Arch *a)
{
  Params p = { 0, 0 };
  gboolean gemma = hr_cfg_type_is (a->model_type, "gemma");
  double norms = (gemma ? 4.0 : 2.0) * a->hidden;
  double router_extra = 0;

  add_params (&p, (double) a->vocab * a->hidden, 1);               /* token embedding */
  if (!a->tied)
    add_params (&p, (double) a->vocab * a->hidden, 1);             /* output head */
  add_params (&p, a->hidden, 1);                                   /* final norm */

  if (hr_cfg_type_is (a->model_type, "deepseek") || hr_cfg_type_is (a->model_type, "glm4_moe") ||
      hr_cfg_type_is (a->model_type, "gpt_oss") || hr_cfg_type_is (a->model_type, "nemotron_h"))
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
          if (hr_cfg_type_is (a->model_type, "qwen2_moe") ||
              hr_cfg_type_is (a->model_type, "qwen3_next") ||
              hr_cfg_type_is (a->model_type, "qwen3_5"))
            add_params (&p, a->hidden, 1);                         /* shared expert gate */
          if (a->latent > 0)
            add_params (&p, 2.0 * a->hidden * a->latent, 1);       /* latent projections */
        }
    }
  return p;
}

/* A vision tower's parameters (a ViT estimate from vision_config), 0 when there is none. */
double
hr_cfg_vision_params (Cfg *cfg,
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
  h = hr_cfg_get_int (&vcfg, "hidden_size", 1, MAX_DIM, 0, TRUE);
  inter = hr_cfg_get_int (&vcfg, "intermediate_size", 1, MAX_DIM, 0, TRUE);
  layers = (double) hr_cfg_get_int_v (&vcfg, layer_keys, 1, 1000, 0, TRUE);
  patch = hr_cfg_get_int (&vcfg, "patch_size", 1, 4096, 14, FALSE);
  image = hr_cfg_get_int (&vcfg, "image_size", 1, 1 << 16, 0, FALSE);
  channels = hr_cfg_get_int (&vcfg, "num_channels", 1, 64, 3, FALSE);
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
double
hr_arch_state_bytes (const Arch *a,
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
