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
#include "hr-hfconfig-private.h"
#include "hr-file.h"
#include "hr-json.h"
#include "hr-units.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (hr-hfconfig-error-quark, hr_hfconfig_error)

/* Real configs hold a few dozen members an object; a classifier's id2label can hold a thousand
 * (ImageNet).  More is refused before json-glib hashes them (hr-json.c). */
static const HrJsonLimits config_limits = { MAX_JSON_DEPTH, HR_JSON_DEFAULT_VALUES, 4096 };

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
  JsonNode *qnode = hr_cfg_lookup (cfg, "quantization_config");
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
      JsonNode *node = hr_cfg_lookup (cfg, *k);

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

/* transformers' defaults for fields that published configs leave out (Gemma3TextConfig:
 * vocab_size 262208, max_position_embeddings 131072; Gemma2Config: 256000, 8192); 0 when the
 * model type has none. */
static const struct
{
  const char *type_prefix;
  int vocab;
  int context;
} type_defaults[] = {
  { "gemma3", 262208, 131072 },
  { "gemma2", 256000, 8192 },
};

static int
default_vocab (const char *model_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_defaults); i++)
    if (hr_cfg_type_is (model_type, type_defaults[i].type_prefix))
      return type_defaults[i].vocab;
  return 0;
}

static int
default_context (const char *model_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_defaults); i++)
    if (hr_cfg_type_is (model_type, type_defaults[i].type_prefix))
      return type_defaults[i].context;
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

/* The first of "architectures" ("Qwen3MoeForCausalLM"), NULL when there is none. */
static const char *
first_architecture (Cfg *cfg)
{
  JsonArray *archs = json_object_has_member (cfg->root, "architectures")
                       ? hr_cfg_get_array (cfg, "architectures") : NULL;
  JsonNode *node;

  if (archs == NULL || json_array_get_length (archs) == 0)
    return NULL;
  node = json_array_get_element (archs, 0);
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

/* Layers, widths, heads and vocabulary: FALSE when one is missing or out of range. */
static gboolean
read_size (Cfg  *cfg,
           Arch *a)
{
  static const char *layer_keys[] = { "num_hidden_layers", "num_layers", "n_layer", "n_layers",
                                      NULL };
  static const char *hidden_keys[] = { "hidden_size", "d_model", "n_embd", NULL };
  static const char *head_keys[] = { "num_attention_heads", "n_head", "num_heads", NULL };
  static const char *vocab_keys[] = { "vocab_size", "padded_vocab_size", NULL };

  a->n_layers = (int) hr_cfg_get_int_v (cfg, layer_keys, 1, MAX_LAYERS, 0, TRUE);
  a->hidden = (int) hr_cfg_get_int_v (cfg, hidden_keys, 1, MAX_DIM, 0, TRUE);
  a->heads = (int) hr_cfg_get_int_v (cfg, head_keys, 1, MAX_HEADS, 0, TRUE);
  a->vocab = (int) hr_cfg_get_int_v (cfg, vocab_keys, 1, MAX_VOCAB, default_vocab (a->model_type),
                                     default_vocab (a->model_type) == 0);
  return cfg->error == NULL && cfg->missing->len == 0;
}

/* KV heads and head width, tied embeddings, MTP layers, and whether the FFN is gated. */
static void
read_heads (Cfg  *cfg,
            Arch *a)
{
  static const char *kv_keys[] = { "num_key_value_heads", "num_kv_heads", "multi_query_group_num",
                                   NULL };
  static const char *mtp_keys[] = { "num_nextn_predict_layers", "mtp_num_hidden_layers", NULL };
  int head_dim_def = MAX (a->hidden / a->heads, 1);
  const char *act;

  a->kv_heads = (int) hr_cfg_get_int_v (cfg, kv_keys, 1, MAX_HEADS, a->heads, FALSE);
  a->head_dim = hr_cfg_get_int (cfg, "head_dim", 1, 65536, MIN (head_dim_def, 65536), FALSE);
  a->tied = hr_cfg_get_bool (cfg, "tie_word_embeddings", hr_cfg_type_is (a->model_type, "gemma"));
  a->mtp = (int) hr_cfg_get_int_v (cfg, mtp_keys, 0, MAX_LAYERS, 0, FALSE);
  act = hr_cfg_get_string (cfg, "mlp_hidden_act");
  if (act == NULL)
    act = hr_cfg_get_string (cfg, "hidden_act");
  /* Nemotron-H's relu² MLP and experts have no gate. */
  a->gated = !(g_strcmp0 (act, "relu2") == 0 || hr_cfg_type_is (a->model_type, "nemotron_h"));
}

/* Routed and shared experts, and the dense FFN width. */
static void
read_moe (Cfg  *cfg,
          Arch *a)
{
  static const char *expert_keys[] = { "n_routed_experts", "num_local_experts", "num_experts",
                                       "moe_num_experts", NULL };
  static const char *used_keys[] = { "num_experts_per_tok", "experts_per_token", "top_k_experts",
                                     "moe_k", NULL };
  static const char *moe_inter_keys[] = { "moe_intermediate_size", "intermediate_size", NULL };
  static const char *shared_keys[] = { "n_shared_experts", "num_shared_experts", NULL };
  static const char *shared_width_keys[] = { "shared_expert_intermediate_size",
                                             "moe_shared_expert_intermediate_size", NULL };
  static const char *dense_keys[] = { "first_k_dense_replace", "moe_layer_start_index", NULL };
  static const char *inter_keys[] = { "intermediate_size", "ffn_hidden_size", NULL };

  a->n_experts = (int) hr_cfg_get_int_v (cfg, expert_keys, 0, MAX_EXPERTS, 0, FALSE);
  if (hr_cfg_type_is (a->model_type, "gemma4") && !hr_cfg_get_bool (cfg, "enable_moe_block", FALSE))
    a->n_experts = 0;
  if (a->n_experts > 0)
    {
      a->n_used = (int) hr_cfg_get_int_v (cfg, used_keys, 1, MAX_EXPERTS, 0, TRUE);
      a->moe_inter = (int) hr_cfg_get_int_v (cfg, moe_inter_keys, 1, MAX_DIM, 0, TRUE);
      a->n_shared = (int) hr_cfg_get_int_v (cfg, shared_keys, 0, 1024, 0, FALSE);
      a->shared_width = (int) hr_cfg_get_int_v (cfg, shared_width_keys, 0, MAX_DIM * 16, 0, FALSE);
      if (a->shared_width == 0 && a->n_shared > 0)
        a->shared_width = a->n_shared * a->moe_inter;
      if (hr_cfg_type_is (a->model_type, "llama4"))
        {
          /* Llama 4: one shared expert as wide as a routed one. */
          a->n_shared = 1;
          a->shared_width = a->moe_inter;
        }
      a->n_dense = (int) hr_cfg_get_int_v (cfg, dense_keys, 0, MAX_LAYERS, 0, FALSE);
      a->latent = hr_cfg_get_int (cfg, "moe_latent_size", 0, MAX_DIM, 0, FALSE);
      if (a->n_used > a->n_experts)
        hr_cfg_invalid (cfg, "config.json: %d experts per token but only %d experts", a->n_used,
                        a->n_experts);
    }
  if (hr_cfg_type_is (a->model_type, "llama4"))
    a->inter = hr_cfg_get_int (cfg, "intermediate_size_mlp", 0, MAX_DIM, 0, FALSE);
  else
    a->inter = (int) hr_cfg_get_int_v (cfg, inter_keys, 0, MAX_DIM, 0, FALSE);
}

/* MLA's ranks, Gemma 4's global layers and the attention window. */
static void
read_attention (Cfg  *cfg,
                Arch *a)
{
  a->mla = hr_cfg_has (cfg, "kv_lora_rank");
  if (a->mla)
    {
      a->kv_lora = hr_cfg_get_int (cfg, "kv_lora_rank", 1, 65536, 0, TRUE);
      a->q_lora = hr_cfg_get_int (cfg, "q_lora_rank", 0, 65536, 0, FALSE);
      a->rope = hr_cfg_get_int (cfg, "qk_rope_head_dim", 0, 65536, 0, TRUE);
      a->nope = hr_cfg_get_int (cfg, "qk_nope_head_dim", 0, 65536, 0, TRUE);
      a->v_head = hr_cfg_get_int (cfg, "v_head_dim", 1, 65536, 0, TRUE);
    }

  a->global_head_dim = hr_cfg_get_int (cfg, "global_head_dim", 0, 65536, 0, FALSE);
  a->global_kv_heads = hr_cfg_get_int (cfg, "num_global_key_value_heads", 1, MAX_HEADS,
                                       a->kv_heads, FALSE);
  a->k_eq_v = hr_cfg_get_bool (cfg, "attention_k_eq_v", FALSE);

  /* Windows: sliding_window (may be null), or Llama 4's attention_chunk_size. */
  a->window = hr_cfg_type_is (a->model_type, "llama4")
              ? hr_cfg_get_int (cfg, "attention_chunk_size", 0, G_MAXINT, 0, FALSE)
              : hr_cfg_get_int (cfg, "sliding_window", 0, G_MAXINT, 0, FALSE);
}

static gboolean
has_mixer (const Arch *a,
           MixerKind   kind)
{
  for (int i = 0; i < a->n_layers; i++)
    if (a->mixer[i] == kind)
      return TRUE;
  return FALSE;
}

/* Per-layer mixers and FFNs (in a->mixer and a->ffn, n_layers each), and the shapes of the
 * recurrent mixers they use. */
static void
read_layers (Cfg  *cfg,
             Arch *a)
{
  hr_arch_read_mixers (cfg, a);
  hr_arch_read_ffns (cfg, a);
  if (cfg->error != NULL)
    return;

  for (int i = 0; i < a->n_layers; i++)
    if ((a->ffn[i] == FFN_DENSE || a->ffn[i] == FFN_DENSE_MOE) && a->inter <= 0)
      hr_cfg_note_missing (cfg, hr_cfg_type_is (a->model_type, "llama4") ? "intermediate_size_mlp"
                                                                         : "intermediate_size");
  if (has_mixer (a, MIX_LINEAR))
    {
      a->lin_nk = hr_cfg_get_int (cfg, "linear_num_key_heads", 1, MAX_HEADS, 0, TRUE);
      a->lin_dk = hr_cfg_get_int (cfg, "linear_key_head_dim", 1, 65536, 0, TRUE);
      a->lin_nv = hr_cfg_get_int (cfg, "linear_num_value_heads", 1, MAX_HEADS, 0, TRUE);
      a->lin_dv = hr_cfg_get_int (cfg, "linear_value_head_dim", 1, 65536, 0, TRUE);
      a->lin_kernel = hr_cfg_get_int (cfg, "linear_conv_kernel_dim", 1, 1024, 4, FALSE);
    }
  if (has_mixer (a, MIX_MAMBA))
    {
      a->m_heads = hr_cfg_get_int (cfg, "mamba_num_heads", 1, MAX_HEADS, 0, TRUE);
      a->m_head_dim = hr_cfg_get_int (cfg, "mamba_head_dim", 1, 65536, 0, TRUE);
      a->m_state = hr_cfg_get_int (cfg, "ssm_state_size", 1, 65536, 0, TRUE);
      a->m_groups = hr_cfg_get_int (cfg, "n_groups", 1, 65536, 1, FALSE);
      a->m_kernel = hr_cfg_get_int (cfg, "conv_kernel", 1, 1024, 4, FALSE);
    }
  a->ssm_bytes = ssm_dtype_bytes (cfg);
}

/* Shapes no attention layer can have (hr_head_shape_problem(), which GGUF headers answer
 * too): each KV head serves a whole group of query heads, and without head_dim (or MLA's own
 * head sizes) the heads split the hidden size evenly.  Sizing such a config would print
 * confident nonsense. */
static gboolean
check_heads (Cfg        *cfg,
             const Arch *a)
{
  HrHeadShape shape = {
    .heads = a->heads, .kv_heads = a->kv_heads, .hidden = a->hidden, .head_dim = a->head_dim,
    .has_head_dim = hr_cfg_has (cfg, "head_dim"), .latent = a->mla,
    .heads_key = "num_attention_heads", .kv_heads_key = "num_key_value_heads",
    .hidden_key = "hidden_size", .head_dim_key = "head_dim",
  };
  g_autofree char *problem = hr_head_shape_problem (&shape);

  if (problem != NULL)
    {
      hr_cfg_invalid (cfg, "config.json: %s", problem);
      return FALSE;
    }
  return TRUE;
}

/* The name from "Qwen/Qwen3-30B-A3B" or "qwen3.json" (and the repo id in *@hf_repo when it is
 * one); a bare "config.json" names nothing: the architecture names the model instead. */
static char *
model_base_name (const char  *repo_or_name,
                 const char  *arch0,
                 const char  *model_type,
                 char       **hf_repo)
{
  g_autofree char *base_name = NULL;

  if (repo_or_name != NULL && *repo_or_name != '\0' && g_utf8_validate (repo_or_name, -1, NULL))
    {
      const char *slash = strrchr (repo_or_name, '/');

      base_name = g_strdup (slash != NULL && slash[1] != '\0' ? slash + 1 : repo_or_name);
      if (g_str_has_suffix (base_name, ".json"))
        base_name[strlen (base_name) - 5] = '\0';
      if (slash != NULL && strchr (repo_or_name, ' ') == NULL &&
          !g_str_has_suffix (repo_or_name, ".json") && repo_or_name[0] != '/' &&
          strchr (slash + 1, '/') == NULL && strchr (repo_or_name, '/') == slash)
        *hf_repo = g_strdup (repo_or_name);
    }
  if (base_name == NULL || *base_name == '\0' || g_ascii_strcasecmp (base_name, "config") == 0)
    return g_strdup (arch0 != NULL && g_utf8_validate (arch0, -1, NULL) ? arch0
                     : model_type != NULL ? model_type : "config.json model");
  return g_steal_pointer (&base_name);
}

/* Name, id and provenance. */
static HrModel *
new_model (Cfg        *cfg,
           const Arch *a,
           const char *repo_or_name,
           const char *arch0)
{
  HrModel *model = hr_model_new ();
  g_autofree char *base_name = model_base_name (repo_or_name, arch0, a->model_type,
                                                &model->hf_repo);

  model->origin = HR_MODEL_ORIGIN_CONFIG;
  model->name = g_strdup (base_name);
  model->id = hr_slugify (base_name, 80, "config-model");
  model->family = g_strdup (a->model_type);
  model->native_dtype = native_dtype (cfg);
  model->source = g_strdup_printf ("config.json (%s)", model->hf_repo != NULL ? model->hf_repo
                                                                              : base_name);
  model->confidence = g_strdup ("sourced");
  return model;
}

/* Layers, widths, experts and MLA's ranks as the model keeps them. */
static void
fill_dims (Cfg        *cfg,
           const Arch *a,
           HrModel    *model)
{
  static const char *ctx_keys[] = { "max_position_embeddings", "seq_length",
                                    "max_sequence_length", NULL };

  model->n_layers = a->n_layers;
  model->ffn_ungated = !a->gated;
  model->hidden = a->hidden;
  model->n_heads = a->heads;
  model->head_dim = a->mla ? a->nope + a->rope : a->head_dim;
  model->vocab = a->vocab;
  model->intermediate = a->inter;
  model->n_experts = a->n_experts;
  model->n_experts_used = a->n_used;
  model->n_shared_experts = a->shared_width > 0 ? MAX (a->n_shared, 1) : 0;
  model->moe_intermediate = a->moe_inter;
  model->shared_intermediate = a->shared_width;
  model->extra_block_kernels = hr_model_llama_extra_block_kernels (a->model_type,
                                                                   hr_model_is_moe (model));
  /* Dense-FFN layers of an MoE model: the leading ones (DeepSeek, GLM), or interleaved
   * (Llama 4 Maverick): the count is what sizes the weights. */
  for (int i = 0; i < a->n_layers && a->n_experts > 0; i++)
    if (a->ffn[i] == FFN_DENSE)
      model->n_dense_layers++;
  /* Nemotron-H style patterns: blocks without a mixer carry only an FFN */
  if (hr_cfg_get_string (cfg, "hybrid_override_pattern") != NULL)
    {
      int ffn_blocks = 0;
      for (int i = 0; i < a->n_layers; i++)
        if (a->ffn[i] != FFN_NONE)
          ffn_blocks++;
      if (ffn_blocks < a->n_layers)
        model->n_ffn_layers = ffn_blocks;
    }
  if (a->mla)
    {
      model->q_lora_rank = a->q_lora;
      model->kv_lora_rank = a->kv_lora;
      model->qk_rope_dim = a->rope;
      model->qk_nope_dim = a->nope;
      model->v_head_dim = a->v_head;
    }
  model->mtp_layers = a->mtp;
  model->tie_embeddings = a->tied;
  model->max_context = (gint64) hr_cfg_get_int_v (cfg, ctx_keys, 0, G_MAXINT,
                                                  default_context (a->model_type), FALSE);
}

/* The KV cache one attention layer of @kind holds. */
static void
add_attention_layer (HrModel    *model,
                     const Arch *a,
                     MixerKind   kind)
{
  if (a->mla)
    hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                 .kind = HR_LAYER_MLA, .kv_heads = 1, .k_dim = a->kv_lora + a->rope });
  else if (kind == MIX_SLIDING || kind == MIX_CHUNKED)
    hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                 .kind = kind == MIX_SLIDING ? HR_LAYER_SLIDING : HR_LAYER_CHUNKED,
                                 .kv_heads = a->kv_heads, .k_dim = a->head_dim,
                                 .v_dim = a->head_dim, .window = a->window });
  else if (a->global_head_dim > 0)
    /* Gemma 4: with attention_k_eq_v, V is K's values but engines store both. */
    hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                 .kind = HR_LAYER_FULL, .kv_heads = a->global_kv_heads,
                                 .k_dim = a->global_head_dim, .v_dim = a->global_head_dim });
  else
    hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                 .kind = HR_LAYER_FULL, .kv_heads = a->kv_heads,
                                 .k_dim = a->head_dim, .v_dim = a->head_dim });
}

/* KV groups and recurrent state. */
static void
add_kv_groups (Cfg        *cfg,
               const Arch *a,
               HrModel    *model)
{
  int shared_kv = hr_cfg_get_int (cfg, "num_kv_shared_layers", 0, MAX_LAYERS, 0, FALSE);

  for (int i = 0; i < a->n_layers; i++)
    {
      gboolean cached = i < a->n_layers - shared_kv;

      switch (a->mixer[i])
        {
        case MIX_FULL:
        case MIX_SLIDING:
        case MIX_CHUNKED:
          if (cached)
            add_attention_layer (model, a, a->mixer[i]);
          break;
        case MIX_LINEAR:
        case MIX_MAMBA:
          {
            double conv, st = hr_arch_state_bytes (a, a->mixer[i], &conv);

            hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                         .kind = HR_LAYER_RECURRENT, .state_bytes = st });
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
static char *
describe_arch (const Arch *a)
{
  GString *label = g_string_new (a->n_experts > 0 ? "Sparse MoE" : "Dense");

  if (has_mixer (a, MIX_LINEAR))
    g_string_append (label, " hybrid (Gated DeltaNet + attention)");
  else if (has_mixer (a, MIX_MAMBA))
    g_string_append (label, " hybrid (Mamba-2 + attention)");
  g_string_append (label, a->mla ? " + MLA" : a->kv_heads < a->heads ? " + GQA" : " + MHA");
  if (has_mixer (a, MIX_SLIDING) || has_mixer (a, MIX_CHUNKED))
    g_string_append (label, hr_cfg_type_is (a->model_type, "llama4") ? " (chunked local)"
                                                                     : " (sliding window)");
  return g_string_free (label, FALSE);
}

/* The first wrong field, or the list of missing ones. */
static HrModel *
fail (Cfg     *cfg,
      GError **error)
{
  if (cfg->error != NULL)
    g_propagate_error (error, g_steal_pointer (&cfg->error));
  else
    g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_MISSING,
                 "config.json lacks %s", cfg->missing->str);
  return NULL;
}

static HrModel *
build_model (Cfg        *cfg,
             const char *repo_or_name,
             GError    **error)
{
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GError) invalid = NULL;
  g_autofree MixerKind *mixer = NULL;
  g_autofree FfnKind *ffn = NULL;
  Arch a = { 0 };
  const char *arch0;
  Params params;

  a.model_type = hr_cfg_get_string (cfg, "model_type");
  arch0 = first_architecture (cfg);
  if (a.model_type != NULL && !g_utf8_validate (a.model_type, -1, NULL))
    a.model_type = NULL;

  if (!read_size (cfg, &a))
    return fail (cfg, error);
  read_heads (cfg, &a);
  read_moe (cfg, &a);
  read_attention (cfg, &a);
  if (cfg->error != NULL)
    return fail (cfg, error);
  a.mixer = mixer = g_new0 (MixerKind, a.n_layers);
  a.ffn = ffn = g_new0 (FfnKind, a.n_layers);
  read_layers (cfg, &a);
  if (cfg->error != NULL || cfg->missing->len > 0 || !check_heads (cfg, &a))
    return fail (cfg, error);

  model = new_model (cfg, &a, repo_or_name, arch0);
  fill_dims (cfg, &a, model);
  if (cfg->error != NULL)   /* e.g. max_position_embeddings 1e300: refused, not ignored */
    return fail (cfg, error);

  params = hr_arch_count_params (cfg, &a);
  model->total_params = params.total + hr_cfg_vision_params (cfg, a.hidden);
  model->active_params = params.active;
  if (!(model->total_params < 1e15))
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID,
                   "config.json: the shapes add up to %.3g parameters, not a real model",
                   model->total_params);
      return NULL;
    }

  add_kv_groups (cfg, &a, model);
  model->arch_label = describe_arch (&a);
  if (!hr_model_validate (model, &invalid))
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_INVALID, "config.json: %s",
                   invalid->message);
      return NULL;
    }
  return g_steal_pointer (&model);
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
  parser = hr_json_parse_limited (json, len, &config_limits, &local_error);
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
  g_autoptr(GError) read_error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *base = NULL;
  gboolean too_large = FALSE;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  base = g_path_get_basename (path);
  /* without blocking in open () (a FIFO), only a regular file, and no more than a config holds */
  if (!hr_file_read_regular (path, HR_HFCONFIG_MAX_SIZE, &contents, &length, &too_large, &read_error))
    {
      if (g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_INVAL) ||
          g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_ISDIR))
        g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_IO, "%s: %s", base, read_error->message);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (read_error->code), "%s: %s", base,
                     read_error->message);
      return NULL;
    }
  if (too_large)
    {
      g_set_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE,
                   "%s: too large for a config.json (more than %d bytes)", base, HR_HFCONFIG_MAX_SIZE);
      return NULL;
    }
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
