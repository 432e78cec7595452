/* hr-gguf-model.c — a GGUF header's `<arch>.*` keys as an HrModel
 *
 * Key names and per-architecture defaults follow ggml-org/llama.cpp (src/llama-arch.cpp
 * LLM_KV_NAMES, src/llama-model.cpp load_hparams): per-layer values may be a scalar or an
 * array (`get_key_or_arr`), sliding-window layers follow `set_swa_pattern (period)` where layer
 * i slides when i % period < period − 1, and hybrids mark their recurrent layers with a zero
 * KV-head count or a full-attention interval.  Recurrent state sizes use the shapes of
 * reference/model_specs.md §3.5 (conv state 2 bytes, SSM state 4 bytes), so a model imported
 * from its GGUF and from its config.json gets the same numbers.
 */
#include "hr-gguf.h"
#include "hr-text.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

#define MAX_LAYERS   10000
#define MAX_DIM      (1 << 20)

typedef struct
{
  gboolean attn;      /* holds a KV cache */
  gboolean state;     /* holds a recurrent state */
  gboolean swa;
  int kv_heads;
  int k_dim;
  int v_dim;
} LayerInfo;

/* What the header says, read step by step before the model is built. */
typedef struct
{
  const HrGguf *gguf;
  const char *arch;
  int n_blocks;
  GString *missing;
  GError *error;      /* first range error */

  int *heads;         /* per block */
  int *kv;
  int *ff;
  LayerInfo *layers;
  int hidden;
  int nextn;          /* MTP layers at the end */
  int n_layers;       /* blocks without the MTP layers */
  int key_len;
  int value_len;
  int key_len_swa;
  int value_len_swa;
  int kv_lora;
  int rope_dim;
  gboolean is_mla;
  gboolean chunked;   /* Llama 4: the window is a chunk */
  int window;
  double state;       /* bytes of one recurrent layer's state */
  double conv;        /* of which convolution state */
} Ctx;

static const char * const hybrid_by_kv[] = {
  "lfm2", "lfm2moe", "nemotron_h", "nemotron_h_moe", "granitehybrid", "jamba", "plamo2", NULL,
};
static const char * const pure_recurrent[] = {
  "mamba", "mamba2", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7", NULL,
};
static const char * const gdn[] = { "qwen3next", "qwen35", "qwen35moe", NULL };

static char *
akey (const Ctx  *ctx,
      const char *suffix)
{
  return g_strdup_printf ("%s.%s", ctx->arch, suffix);
}

static void
range_error (Ctx        *ctx,
             const char *key,
             gint64      value)
{
  if (ctx->error == NULL)
    g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                 "%s is out of range (%" G_GINT64_FORMAT ")", key, value);
}

/* An integer `<arch>.suffix` in [min, max]; @def when absent (and noted as missing when
 * @required).  A value of the wrong type counts as absent. */
static int
arch_int (Ctx        *ctx,
          const char *suffix,
          int         min,
          int         max,
          int         def,
          gboolean    required)
{
  g_autofree char *key = akey (ctx, suffix);
  gint64 v;
  double d;

  if (!hr_gguf_get_int (ctx->gguf, key, &v))
    {
      /* A few converters write integers as floats. */
      if (hr_gguf_get_double (ctx->gguf, key, &d) && isfinite (d) && d == floor (d) &&
          fabs (d) < 1e15)
        v = (gint64) d;
      else
        {
          if (required)
            g_string_append_printf (ctx->missing, "%s%s", ctx->missing->len ? ", " : "", key);
          return def;
        }
    }
  if (v < min || v > max)
    {
      range_error (ctx, key, v);
      return def;
    }
  return (int) v;
}

/* A value that may be a scalar or one entry per layer (llama.cpp get_key_or_arr). */
static gboolean
arch_layer_values (Ctx        *ctx,
                   const char *suffix,
                   int         min,
                   int         max,
                   int        *out,
                   gboolean   *found)
{
  g_autofree char *key = akey (ctx, suffix);
  HrGgufType elem;
  guint64 n;
  gint64 v;

  *found = FALSE;
  if (hr_gguf_get_array_info (ctx->gguf, key, &elem, &n))
    {
      if (n != (guint64) ctx->n_blocks)
        {
          if (ctx->error == NULL)
            g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                         "%s has %" G_GUINT64_FORMAT " entries for %d layers", key, n,
                         ctx->n_blocks);
          return FALSE;
        }
      for (int i = 0; i < ctx->n_blocks; i++)
        {
          if (!hr_gguf_get_array_int (ctx->gguf, key, (guint64) i, &v))
            {
              if (ctx->error == NULL)
                g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                             "%s is not an array of integers", key);
              return FALSE;
            }
          if (v < min || v > max)
            {
              range_error (ctx, key, v);
              return FALSE;
            }
          out[i] = (int) v;
        }
      *found = TRUE;
      return TRUE;
    }
  if (hr_gguf_has_key (ctx->gguf, key))
    {
      int s = arch_int (ctx, suffix, min, max, -1, FALSE);

      if (s < 0 || ctx->error != NULL)
        {
          if (ctx->error == NULL)
            g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                         "%s is not an integer", key);
          return FALSE;
        }
      for (int i = 0; i < ctx->n_blocks; i++)
        out[i] = s;
      *found = TRUE;
    }
  return TRUE;
}

static int
max_of (const int *v,
        int        n)
{
  int m = 0;

  for (int i = 0; i < n; i++)
    m = MAX (m, v[i]);
  return m;
}

static gboolean
arch_in (const char         *arch,
         const char * const *list)
{
  for (; *list != NULL; list++)
    if (g_strcmp0 (arch, *list) == 0)
      return TRUE;
  return FALSE;
}

/* llama_hparams::set_swa_pattern (dense_first = false). */
static void
set_swa_pattern (LayerInfo *layers,
                 int        n,
                 int        period)
{
  for (int i = 0; i < n; i++)
    layers[i].swa = period == 0 || (i % period < period - 1);
}

/* Default sliding-window period per architecture when the file has no pattern key. */
static int
default_swa_period (const char *arch)
{
  static const struct { const char *arch; int period; } periods[] = {
    { "gemma2", 2 }, { "gemma3", 6 }, { "gemma3n", 5 }, { "gpt-oss", 2 }, { "cohere2", 4 },
    { "cohere2moe", 4 }, { "exaone4", 4 }, { "plamo3", 8 }, { "llama4", 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (periods); i++)
    if (strcmp (arch, periods[i].arch) == 0)
      return periods[i].period;
  return -1;
}

/* Which blocks carry recurrent-state tensors (ssm_*, shortconv, time_mix) or any tensor. */
static void
scan_block_tensors (const HrGguf *gguf,
                    int           n_blocks,
                    gboolean     *has_any,
                    gboolean     *has_state)
{
  for (guint t = 0; t < hr_gguf_get_n_tensors (gguf); t++)
    {
      const char *name = hr_gguf_get_tensor (gguf, t)->name;
      const char *p;
      guint64 block;
      char *end;

      if (!g_str_has_prefix (name, "blk.") || !g_ascii_isdigit (name[4]))
        continue;
      block = g_ascii_strtoull (name + 4, &end, 10);
      if (*end != '.' || block >= (guint64) n_blocks)
        continue;
      p = end + 1;
      has_any[block] = TRUE;
      if (g_str_has_prefix (p, "ssm_") || g_str_has_prefix (p, "shortconv") ||
          g_str_has_prefix (p, "time_mix"))
        has_state[block] = TRUE;
    }
}

/* Fixed state per sequence of one recurrent layer (bytes). */
static double
recurrent_state_bytes (Ctx    *ctx,
                       int     hidden,
                       double *conv_out)
{
  static const char * const rwkv[] = { "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7", NULL };
  int kernel = arch_int (ctx, "ssm.conv_kernel", 0, 1024, 0, FALSE);
  int d_inner = arch_int (ctx, "ssm.inner_size", 0, MAX_DIM, 0, FALSE);
  int d_state = arch_int (ctx, "ssm.state_size", 0, MAX_DIM, 0, FALSE);
  int n_group = arch_int (ctx, "ssm.group_count", 0, MAX_DIM, 0, FALSE);
  int dt_rank = arch_int (ctx, "ssm.time_step_rank", 0, MAX_DIM, 0, FALSE);

  *conv_out = 0;

  if (arch_in (ctx->arch, gdn))
    {
      /* Gated DeltaNet: group_count = key heads, state_size = key head dim,
       * time_step_rank = value heads, inner_size = value heads × value head dim. */
      double nk = n_group, dk = d_state, nv = dt_rank;
      double dv = dt_rank > 0 ? (double) d_inner / dt_rank : 0;
      double conv = (dk * nk * 2 + dv * nv) * MAX (kernel - 1, 0) * 2;

      *conv_out = conv;
      return conv + nv * dv * dk * 4;
    }
  if (g_str_has_prefix (ctx->arch, "lfm2"))
    {
      int l_cache = arch_int (ctx, "shortconv.l_cache", 0, 1024, 0, FALSE);

      *conv_out = (double) MAX (l_cache - 1, 0) * hidden * 2;
      return *conv_out;
    }
  if (arch_in (ctx->arch, rwkv))
    {
      int head_size = arch_int (ctx, "wkv.head_size", 0, MAX_DIM, 0, FALSE);
      int shifts = arch_int (ctx, "token_shift_count", 0, 16, 2, FALSE);

      return (double) hidden * head_size * 4 + (double) shifts * hidden * 4;
    }
  if (n_group > 0)
    {
      /* Mamba-2: conv (kernel − 1) × (d_inner + 2 · groups · d_state), SSM d_inner × d_state. */
      double conv = (double) MAX (kernel - 1, 0) * (d_inner + 2.0 * n_group * d_state) * 2;

      *conv_out = conv;
      return conv + (double) d_inner * d_state * 4;
    }
  /* Mamba-1 */
  *conv_out = (double) MAX (kernel - 1, 0) * d_inner * 2;
  return *conv_out + (double) d_inner * d_state * 4;
}

static gboolean
arch_name_ok (const char *arch)
{
  gsize len = strlen (arch);

  if (len == 0 || len > 64)
    return FALSE;
  for (const char *p = arch; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-' && *p != '.')
      return FALSE;
  return TRUE;
}

/* general.architecture, which names every other key; NULL when absent or not a name. */
static const char *
read_architecture (const HrGguf  *gguf,
                   GError       **error)
{
  const char *arch = hr_gguf_get_architecture (gguf);

  if (arch == NULL)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                   "the GGUF metadata lacks general.architecture");
      return NULL;
    }
  if (!arch_name_ok (arch))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                   "general.architecture is not a valid name");
      return NULL;
    }
  return arch;
}

/* Every layer with attention (head_count_kv above 0) has heads a model can have, and every
 * key or value length the file gives is at least 1: the same facts config.json is held to
 * (hr_head_shape_problem()).  A head count of 0 or above the embedding length left heads of
 * 0 dimensions, which the sizing divided by and called "Fits with margin". */
static gboolean
check_heads (Ctx *ctx)
{
  static const char *const lengths[] = { "attention.key_length", "attention.value_length",
                                         "attention.key_length_swa",
                                         "attention.value_length_swa" };
  g_autofree char *heads_key = akey (ctx, "attention.head_count");
  g_autofree char *kv_key = akey (ctx, "attention.head_count_kv");
  g_autofree char *hidden_key = akey (ctx, "embedding_length");
  g_autofree char *length_key = akey (ctx, "attention.key_length");
  HrHeadShape shape = {
    .hidden = ctx->hidden, .head_dim = ctx->key_len,
    .has_head_dim = hr_gguf_has_key (ctx->gguf, length_key), .latent = ctx->is_mla,
    .heads_key = heads_key, .kv_heads_key = kv_key, .hidden_key = hidden_key,
    .head_dim_key = length_key,
  };

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *key = akey (ctx, lengths[i]);
      gint64 v = 0;

      if (hr_gguf_get_int (ctx->gguf, key, &v) && v < 1)
        {
          g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                       "%s is %" G_GINT64_FORMAT ": a head needs at least one dimension", key, v);
          return FALSE;
        }
    }
  for (int i = 0; i < ctx->n_blocks; i++)
    {
      g_autofree char *problem = NULL;

      if (ctx->kv[i] <= 0)
        continue;   /* no attention in this layer (a recurrent one) */
      shape.heads = ctx->heads[i];
      shape.kv_heads = ctx->kv[i];
      problem = hr_head_shape_problem (&shape);
      if (problem != NULL)
        {
          /* per-layer arrays: say which layer */
          if (hr_gguf_get_array_info (ctx->gguf, heads_key, NULL, NULL) ||
              hr_gguf_get_array_info (ctx->gguf, kv_key, NULL, NULL))
            g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL, "%s (layer %d)",
                         problem, i);
          else
            g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL, "%s", problem);
          return FALSE;
        }
    }
  return TRUE;
}

/* Blocks, widths, heads and attention key/value lengths; which blocks hold a KV cache. */
static gboolean
read_shape (Ctx *ctx)
{
  gboolean found_heads, found_kv, found_ff;
  int n_heads, def_head;

  ctx->n_blocks = arch_int (ctx, "block_count", 1, MAX_LAYERS, 0, TRUE);
  ctx->hidden = arch_int (ctx, "embedding_length", 1, MAX_DIM, 0, TRUE);
  if (ctx->error != NULL || ctx->missing->len > 0)
    return FALSE;

  ctx->heads = g_new0 (int, ctx->n_blocks);
  ctx->kv = g_new0 (int, ctx->n_blocks);
  ctx->ff = g_new0 (int, ctx->n_blocks);
  ctx->layers = g_new0 (LayerInfo, ctx->n_blocks);

  if (!arch_layer_values (ctx, "attention.head_count", 0, 65536, ctx->heads, &found_heads) ||
      !arch_layer_values (ctx, "attention.head_count_kv", 0, 65536, ctx->kv, &found_kv) ||
      !arch_layer_values (ctx, "feed_forward_length", 0, MAX_DIM * 64, ctx->ff, &found_ff))
    return FALSE;
  if (!found_heads && !arch_in (ctx->arch, pure_recurrent))
    g_string_append_printf (ctx->missing, "%s%s.attention.head_count",
                            ctx->missing->len ? ", " : "", ctx->arch);
  if (!found_kv)
    memcpy (ctx->kv, ctx->heads, sizeof (int) * ctx->n_blocks);

  ctx->nextn = arch_int (ctx, "nextn_predict_layers", 0, MAX_LAYERS, 0, FALSE);
  if (ctx->nextn >= ctx->n_blocks)
    ctx->nextn = 0;
  ctx->n_layers = ctx->n_blocks - ctx->nextn;

  n_heads = max_of (ctx->heads, ctx->n_blocks);
  def_head = n_heads > 0 ? ctx->hidden / n_heads : 0;
  ctx->key_len = arch_int (ctx, "attention.key_length", 0, 65536, def_head, FALSE);
  ctx->value_len = arch_int (ctx, "attention.value_length", 0, 65536, ctx->key_len, FALSE);
  ctx->key_len_swa = arch_int (ctx, "attention.key_length_swa", 0, 65536, ctx->key_len, FALSE);
  ctx->value_len_swa = arch_int (ctx, "attention.value_length_swa", 0, 65536, ctx->key_len_swa,
                                 FALSE);
  ctx->kv_lora = arch_int (ctx, "attention.kv_lora_rank", 0, 65536, 0, FALSE);
  ctx->rope_dim = arch_int (ctx, "rope.dimension_count", 0, 65536, 0, FALSE);
  ctx->is_mla = ctx->kv_lora > 0;
  if (ctx->error != NULL || ctx->missing->len > 0 || !check_heads (ctx))
    return FALSE;

  for (int i = 0; i < ctx->n_blocks; i++)
    {
      ctx->layers[i].attn = ctx->kv[i] > 0;
      ctx->layers[i].kv_heads = ctx->kv[i];
    }
  return TRUE;
}

/* The sliding-window pattern key: one flag per layer, or a period. */
static gboolean
read_swa_pattern (Ctx *ctx)
{
  g_autofree char *key = akey (ctx, "attention.sliding_window_pattern");
  HrGgufType elem;
  guint64 n;
  gint64 period;

  if (hr_gguf_get_array_info (ctx->gguf, key, &elem, &n))
    {
      if (n != (guint64) ctx->n_blocks)
        {
          g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                       "%s has %" G_GUINT64_FORMAT " entries for %d layers", key, n,
                       ctx->n_blocks);
          return FALSE;
        }
      for (int i = 0; i < ctx->n_blocks; i++)
        {
          gint64 v = 0;

          if (!hr_gguf_get_array_int (ctx->gguf, key, (guint64) i, &v))
            {
              g_set_error (&ctx->error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                           "%s is not an array of booleans", key);
              return FALSE;
            }
          ctx->layers[i].swa = v != 0;
        }
    }
  else if (hr_gguf_get_int (ctx->gguf, key, &period))
    {
      if (period < 0 || period > MAX_LAYERS)
        {
          range_error (ctx, key, period);
          return FALSE;
        }
      set_swa_pattern (ctx->layers, ctx->n_blocks, (int) period);
    }
  else if (default_swa_period (ctx->arch) >= 0)
    set_swa_pattern (ctx->layers, ctx->n_blocks, default_swa_period (ctx->arch));
  /* Otherwise llama.cpp ignores the window (e.g. Phi-3, whose SWA it disables). */
  return TRUE;
}

/* Sliding-window and chunked layers, and their window. */
static gboolean
read_sliding_window (Ctx *ctx)
{
  ctx->window = arch_int (ctx, "attention.sliding_window", 0, G_MAXINT, 0, FALSE);
  if (strcmp (ctx->arch, "llama4") == 0)
    {
      /* llama.cpp: chunked attention over 8192 tokens, every 4th layer global, unless the
       * file sets sliding_window to 0. */
      g_autofree char *k = akey (ctx, "attention.sliding_window");

      if (!hr_gguf_has_key (ctx->gguf, k) || ctx->window > 0)
        {
          ctx->window = 8192;
          ctx->chunked = TRUE;
          set_swa_pattern (ctx->layers, ctx->n_blocks, 4);
        }
      return TRUE;
    }
  if (ctx->window > 0)
    return read_swa_pattern (ctx);
  return TRUE;
}

/* Hybrids that mark recurrent layers with zero KV heads.  The block's own tensors tell best;
 * without them (a header written for a test), trust the architecture. */
static void
mark_recurrent_by_kv (Ctx *ctx)
{
  g_autofree gboolean *has_any = g_new0 (gboolean, ctx->n_blocks);
  g_autofree gboolean *has_state = g_new0 (gboolean, ctx->n_blocks);
  gboolean known = arch_in (ctx->arch, hybrid_by_kv);
  gboolean nemotron = g_str_has_prefix (ctx->arch, "nemotron_h");

  scan_block_tensors (ctx->gguf, ctx->n_blocks, has_any, has_state);
  for (int i = 0; i < ctx->n_blocks; i++)
    {
      if (ctx->kv[i] > 0)
        continue;
      if (has_any[i])
        ctx->layers[i].state = has_state[i];
      else if (known)
        /* Nemotron-H's MoE/MLP blocks have a feed-forward width, its Mamba blocks not. */
        ctx->layers[i].state = nemotron ? ctx->ff[i] == 0 : TRUE;
    }
}

/* Which layers hold a recurrent state (and which of those keep no KV cache). */
static void
mark_recurrent (Ctx *ctx)
{
  LayerInfo *layers = ctx->layers;

  if (arch_in (ctx->arch, gdn))
    {
      int interval = arch_int (ctx, "full_attention_interval", 1, MAX_LAYERS, 4, FALSE);

      for (int i = 0; i < ctx->n_blocks; i++)
        {
          layers[i].state = (i + 1) % interval != 0;
          layers[i].attn = layers[i].attn && !layers[i].state;
        }
    }
  else if (arch_in (ctx->arch, pure_recurrent))
    {
      for (int i = 0; i < ctx->n_blocks; i++)
        {
          layers[i].state = TRUE;
          layers[i].attn = FALSE;
        }
    }
  else if (strcmp (ctx->arch, "falcon-h1") == 0)
    {
      /* Attention and Mamba-2 side by side in every layer. */
      for (int i = 0; i < ctx->n_blocks; i++)
        layers[i].state = TRUE;
    }
  else
    mark_recurrent_by_kv (ctx);
}

/* Recurrent layers, layers sharing another's KV, and the recurrent state's size. */
static gboolean
read_layer_kinds (Ctx *ctx)
{
  int shared_kv;

  mark_recurrent (ctx);

  /* Gemma 3n / 4: the last layers reuse earlier layers' KV. */
  shared_kv = arch_int (ctx, "attention.shared_kv_layers", 0, MAX_LAYERS, 0, FALSE);
  for (int i = MAX (ctx->n_blocks - shared_kv, 0); i < ctx->n_blocks; i++)
    ctx->layers[i].attn = FALSE;

  if (ctx->error != NULL)
    return FALSE;

  for (int i = 0; i < ctx->n_blocks; i++)
    if (ctx->layers[i].state)
      {
        ctx->state = recurrent_state_bytes (ctx, ctx->hidden, &ctx->conv);
        break;
      }
  return ctx->error == NULL;
}

/* Name, id and provenance, from the general.* keys. */
static HrModel *
new_model (const Ctx *ctx)
{
  const HrGguf *gguf = ctx->gguf;
  HrModel *model = hr_model_new ();
  const char *name = hr_gguf_get_name (gguf);
  const char *quant = hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf));
  const char *basename = hr_gguf_get_string (gguf, "general.basename");
  g_autofree char *base = NULL;
  g_autofree char *q = NULL;

  model->origin = HR_MODEL_ORIGIN_GGUF;
  if (name == NULL || *name == '\0')
    name = basename;
  if (name == NULL || *name == '\0')
    name = ctx->arch;
  /* Shown in labels and terminals: no escape sequence or bidi override from the file. */
  model->name = hr_text_sanitize (name, 200);
  base = hr_slugify (name, 80, "gguf-model");
  q = quant != NULL ? hr_slugify (quant, 80, "gguf-model") : NULL;
  model->id = q != NULL && !g_str_has_suffix (base, q) ? g_strdup_printf ("%s-%s", base, q)
                                                        : g_steal_pointer (&base);
  model->family = g_strdup (basename != NULL ? basename : ctx->arch);
  model->vendor = g_strdup (hr_gguf_get_string (gguf, "general.organization"));
  model->license = g_strdup (hr_gguf_get_string (gguf, "general.license"));
  model->hf_repo = g_strdup (hr_gguf_get_string (gguf, "general.source.huggingface.repository"));
  model->source = g_strdup_printf ("GGUF header (architecture %s)", ctx->arch);
  model->confidence = g_strdup ("sourced");
  return model;
}

/* Layers, widths and experts; MLA's ranks. */
static void
fill_dims (Ctx     *ctx,
           HrModel *model)
{
  model->n_layers = ctx->n_layers;
  model->mtp_layers = ctx->nextn;
  model->hidden = ctx->hidden;
  model->n_heads = max_of (ctx->heads, ctx->n_blocks);
  model->head_dim = ctx->key_len;
  model->intermediate = max_of (ctx->ff, ctx->n_blocks);
  model->max_context = arch_int (ctx, "context_length", 0, G_MAXINT, 0, FALSE);
  model->n_experts = arch_int (ctx, "expert_count", 0, 65536, 0, FALSE);
  model->n_experts_used = arch_int (ctx, "expert_used_count", 0, 65536, 0, FALSE);
  model->n_shared_experts = arch_int (ctx, "expert_shared_count", 0, 65536, 0, FALSE);
  model->n_dense_layers = arch_int (ctx, "leading_dense_block_count", 0, MAX_LAYERS, 0, FALSE);
  model->moe_intermediate = arch_int (ctx, "expert_feed_forward_length", 0, MAX_DIM, 0, FALSE);
  model->shared_intermediate =
    arch_int (ctx, "expert_shared_feed_forward_length", 0, MAX_DIM,
              (int) MIN ((gint64) model->n_shared_experts * model->moe_intermediate, G_MAXINT),
              FALSE);
  if (model->n_experts_used > model->n_experts)
    model->n_experts_used = model->n_experts;
  model->extra_block_kernels = hr_model_llama_extra_block_kernels (ctx->arch,
                                                                   hr_model_is_moe (model));

  if (ctx->is_mla)
    {
      int key_mla = arch_int (ctx, "attention.key_length_mla", 0, 65536, 0, FALSE);
      int value_mla = arch_int (ctx, "attention.value_length_mla", 0, 65536, 0, FALSE);
      int qk_head = key_mla > 0 ? key_mla : ctx->key_len;

      model->kv_lora_rank = ctx->kv_lora;
      model->q_lora_rank = arch_int (ctx, "attention.q_lora_rank", 0, 65536, 0, FALSE);
      model->qk_rope_dim = ctx->rope_dim;
      model->qk_nope_dim = MAX (qk_head - ctx->rope_dim, 0);
      model->v_head_dim = value_mla > 0 ? value_mla : ctx->value_len;
      model->head_dim = qk_head;
    }
}

/* Vocabulary: the explicit key, the tokenizer's length, or the embedding's rows. */
static int
read_vocab (const Ctx *ctx)
{
  g_autofree char *k = akey (ctx, "vocab_size");
  const HrGgufTensor *embd;
  gint64 vocab = 0;
  guint64 n = 0;

  if (!hr_gguf_get_int (ctx->gguf, k, &vocab) || vocab <= 0)
    {
      vocab = 0;
      if (hr_gguf_get_array_info (ctx->gguf, "tokenizer.ggml.tokens", NULL, &n))
        vocab = (gint64) MIN (n, (guint64) G_MAXINT);
      else if ((embd = hr_gguf_find_tensor (ctx->gguf, "token_embd.weight")) != NULL)
        vocab = (gint64) MIN (embd->dims[1], (guint64) G_MAXINT);
    }
  return (int) CLAMP (vocab, 0, G_MAXINT);
}

/* The file itself: exact bytes, the mix, and parameters counted from the tensors. */
static void
fill_file (const HrGguf *gguf,
           HrModel      *model)
{
  model->gguf_bytes = hr_gguf_get_tensor_bytes (gguf);
  model->gguf_expert_bytes = hr_gguf_get_expert_bytes (gguf);
  model->gguf_file_type = hr_gguf_get_file_type (gguf);
  model->gguf_quant = g_strdup (hr_gguf_file_type_to_string (model->gguf_file_type));
  if (hr_gguf_get_n_tensors (gguf) > 0)
    {
      double total = (double) hr_gguf_get_n_params (gguf);
      double experts = (double) hr_gguf_get_expert_params (gguf);

      model->total_params = total;
      model->active_params = total;
      if (model->n_experts > 0 && model->n_experts_used > 0)
        model->active_params = total - experts +
                               experts * model->n_experts_used / model->n_experts;
      model->tie_embeddings = hr_gguf_find_tensor (gguf, "output.weight") == NULL;
    }
}

/* KV groups over the model's layers (MTP layers excluded). */
static void
add_kv_groups (const Ctx *ctx,
               HrModel   *model)
{
  HrLayerKind local = ctx->chunked ? HR_LAYER_CHUNKED : HR_LAYER_SLIDING;

  for (int i = 0; i < ctx->n_layers; i++)
    {
      const LayerInfo *l = &ctx->layers[i];

      if (l->state)
        hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                     .kind = HR_LAYER_RECURRENT, .state_bytes = ctx->state });
      if (!l->attn)
        continue;
      if (ctx->is_mla)
        hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                     .kind = HR_LAYER_MLA, .kv_heads = 1,
                                     .k_dim = ctx->kv_lora + ctx->rope_dim });
      else if (l->swa)
        hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                     .kind = local, .kv_heads = l->kv_heads,
                                     .k_dim = ctx->key_len_swa, .v_dim = ctx->value_len_swa,
                                     .window = ctx->window });
      else
        hr_model_add_layer_merged (model, &(HrLayerGroup) {
                                     .kind = HR_LAYER_FULL, .kv_heads = l->kv_heads,
                                     .k_dim = ctx->key_len, .v_dim = ctx->value_len });
    }
  hr_model_set_conv_bytes (model, ctx->state, ctx->conv);
}

/* A short description for the UI. */
static char *
describe_arch (const Ctx     *ctx,
               const HrModel *model)
{
  GString *label = g_string_new (model->n_experts > 0 ? "Sparse MoE" : "Dense");
  gboolean any_state = FALSE, any_swa = FALSE;

  for (int i = 0; i < ctx->n_layers; i++)
    {
      any_state = any_state || ctx->layers[i].state;
      any_swa = any_swa || (ctx->layers[i].attn && ctx->layers[i].swa);
    }
  if (any_state && arch_in (ctx->arch, pure_recurrent))
    g_string_append (label, " recurrent (state space)");
  else
    {
      if (any_state)
        g_string_append (label, " hybrid (recurrent + attention)");
      g_string_append (label, ctx->is_mla ? " + MLA" : " + GQA");
      if (any_swa)
        g_string_append (label, ctx->chunked ? " (chunked local)" : " (sliding window)");
    }
  return g_string_free (label, FALSE);
}

/* The model from what the header said; a key out of range shows in ctx->error. */
static HrModel *
build_model (Ctx *ctx)
{
  HrModel *model = new_model (ctx);

  fill_dims (ctx, model);
  model->vocab = read_vocab (ctx);
  fill_file (ctx->gguf, model);
  add_kv_groups (ctx, model);
  model->arch_label = describe_arch (ctx, model);
  return model;
}

static void
ctx_clear (Ctx *ctx)
{
  g_clear_pointer (&ctx->heads, g_free);
  g_clear_pointer (&ctx->kv, g_free);
  g_clear_pointer (&ctx->ff, g_free);
  g_clear_pointer (&ctx->layers, g_free);
}

HrModel *
hr_gguf_to_model (const HrGguf  *gguf,
                  GError       **error)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(HrModel) model = NULL;
  g_autoptr(GError) invalid = NULL;
  Ctx ctx = { .gguf = gguf, .missing = missing };

  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx.arch = read_architecture (gguf, error);
  if (ctx.arch == NULL)
    return NULL;
  if (read_shape (&ctx) && read_sliding_window (&ctx) && read_layer_kinds (&ctx))
    model = build_model (&ctx);
  ctx_clear (&ctx);

  if (ctx.error != NULL)
    {
      g_propagate_error (error, ctx.error);
      return NULL;
    }
  if (model == NULL)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL,
                   "the GGUF metadata lacks %s", missing->str);
      return NULL;
    }
  if (!hr_model_validate (model, &invalid))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_MODEL, "%s", invalid->message);
      return NULL;
    }
  return g_steal_pointer (&model);
}
