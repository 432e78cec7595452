/* hr-launch.c — launch commands for the scenario, per engine, incl. multi-node plans
 *
 * Each command is shell text the user can paste: one shell command per line, long commands
 * broken with " \\\n  " continuations, "# …" comments where several machines are involved.
 * Anything that comes from data (repos, paths, names) goes through hr_launch_shell_quote().
 *
 * Flags, as the engines document them:
 *  - llama.cpp `llama-server`: -hf REPO:TAG or -m FILE, --ctx-size (the whole cache; it is split
 *    across --parallel slots, so context × batch), -ngl (layers on the GPU, 999 = all),
 *    --flash-attn on|off, --cache-type-k/-v (f16 default, q8_0, q4_0; no FP8 type), --n-cpu-moe,
 *    --tensor-split with --split-mode layer, --parallel, --rpc for rpc-server workers.
 *  - vLLM `vllm serve`: --max-model-len, --gpu-memory-utilization, --tensor-parallel-size,
 *    --pipeline-parallel-size with --distributed-executor-backend ray across nodes,
 *    --kv-cache-dtype fp8, --max-num-seqs, --enforce-eager, --quantization fp8 (online, from a
 *    16-bit checkpoint), --cpu-offload-gb (per GPU).
 *  - SGLang `python -m sglang.launch_server`: --context-length, --tp, --mem-fraction-static,
 *    --kv-cache-dtype fp8_e4m3, --max-running-requests, --disable-cuda-graph,
 *    --nnodes/--node-rank/--dist-init-addr.
 *  - Ollama: `ollama run hf.co/REPO:TAG`, server settings from OLLAMA_* environment variables.
 *  - MLX: `mlx_lm.server --model mlx-community/… --max-kv-size`.
 */
#include "hr-launch.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "hr-units.h"

#define LLAMA_PORT      "8080"
#define SGLANG_PORT     "30000"
#define RPC_PORT        "50052"
#define RAY_PORT        "6379"
#define SGLANG_DIST_PORT "5000"
#define HEAD_HOST       "HEAD_IP"
/* Hugging Face stores files up to 50 GB; bigger GGUF quants are split into shards. */
#define HF_MAX_FILE_BYTES 50e9
/* Up to this many nodes the SGLang plan spells out every node's command. */
#define MAX_LISTED_NODES 8

typedef enum
{
  QUANT_GGUF,     /* a llama-quantize / Unsloth mix: Q4_K_M, IQ4_XS, UD-Q2_K_XL … */
  QUANT_16BIT,    /* BF16 / F16: a checkpoint and a GGUF */
  QUANT_FP8,
  QUANT_INT8,     /* INT8 / W8A8 / GPTQ-Int8 checkpoints */
  QUANT_INT4,     /* AWQ / GPTQ / W4A16 checkpoints */
  QUANT_MXFP4,
  QUANT_NVFP4,
} QuantKind;

/* Pending separator before the next word of a shell text. */
typedef enum
{
  SEP_NONE,
  SEP_SPACE,
  SEP_CONTINUE,   /* " \\\n  " */
  SEP_NEWLINE,
} Sep;

typedef struct
{
  GString *out;
  Sep sep;
} Shell;

/* What every engine's builder needs about the scenario. */
typedef struct
{
  const HrScenario *sc;
  const HrEstimate *est;    /* what this command loads, sized for its engine; may be NULL */
  const char *loaded;       /* the weights it loads when not the scenario's quant, else NULL */
  const char *gguf_file;    /* local GGUF the model came from, may be NULL */
  const HrModel *model;
  const HrGpu *gpu;
  HrBackend backend;
  const char *quant;        /* scenario quant, "BF16" when unset */
  QuantKind kind;
  int n_gpus;
  int batch;
  gint64 context;
  double util;              /* --gpu-memory-utilization / --mem-fraction-static */
} Ctx;

/* ---- shell text ---------------------------------------------------------------------------- */

static gboolean
shell_safe_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("_@%+=:,./-", c) != NULL;
}

static void
sh_init (Shell *sh)
{
  sh->out = g_string_new (NULL);
  sh->sep = SEP_NONE;
}

/* Appends @text (already shell-safe) as the next word. */
static void
sh_raw (Shell      *sh,
        const char *text)
{
  if (sh->out->len > 0)
    {
      switch (sh->sep)
        {
        case SEP_SPACE:
          g_string_append_c (sh->out, ' ');
          break;
        case SEP_CONTINUE:
          g_string_append (sh->out, " \\\n  ");
          break;
        case SEP_NEWLINE:
          g_string_append_c (sh->out, '\n');
          break;
        case SEP_NONE:
        default:
          break;
        }
    }
  g_string_append (sh->out, text);
  sh->sep = SEP_SPACE;
}

G_GNUC_PRINTF (2, 3)
static void
sh_rawf (Shell      *sh,
         const char *format,
         ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  sh_raw (sh, text);
}

/* Appends @word quoted as needed. */
static void
sh_arg (Shell      *sh,
        const char *word)
{
  g_autofree char *quoted = hr_launch_shell_quote (word);

  sh_raw (sh, quoted);
}

/* Appends "@flag @value" with @value quoted. */
static void
sh_opt (Shell      *sh,
        const char *flag,
        const char *value)
{
  sh_raw (sh, flag);
  sh_arg (sh, value);
}

/* The next word starts a continuation line of the same command. */
static void
sh_break (Shell *sh)
{
  if (sh->sep == SEP_SPACE)
    sh->sep = SEP_CONTINUE;
}

/* The next word starts a new command. */
static void
sh_end (Shell *sh)
{
  if (sh->out->len > 0)
    sh->sep = SEP_NEWLINE;
}

static void
sh_comment (Shell      *sh,
            const char *text)
{
  g_autofree char *line = g_strconcat ("# ", text, NULL);

  sh_end (sh);
  sh_raw (sh, line);
  sh_end (sh);
}

static char *
sh_free (Shell *sh)
{
  return g_string_free (g_steal_pointer (&sh->out), FALSE);
}

/* ---- helpers ------------------------------------------------------------------------------- */

G_GNUC_PRINTF (2, 3)
static void
note_add (GString    *notes,
          const char *format,
          ...)
{
  va_list args;

  if (notes->len > 0)
    g_string_append_c (notes, ' ');
  va_start (args, format);
  g_string_append_vprintf (notes, format, args);
  va_end (args);
}

static const char *
fmt2 (char   *buf,
      gsize   size,
      double  value)
{
  return g_ascii_formatd (buf, size, "%.2f", value);
}

static HrLaunchCommand *
command_new (HrEngine    engine,
             const char *title,
             char       *command,   /* owned */
             GString    *notes)     /* borrowed */
{
  HrLaunchCommand *cmd = g_new0 (HrLaunchCommand, 1);

  cmd->engine = engine;
  cmd->title = g_strdup (title);
  cmd->command = command;
  cmd->note = notes != NULL && notes->len > 0 ? g_strdup (notes->str) : NULL;
  return cmd;
}

static gboolean
has_prefix_ci (const char *str,
               const char *prefix)
{
  return g_ascii_strncasecmp (str, prefix, strlen (prefix)) == 0;
}

static QuantKind
quant_kind (const char *q)
{
  if (g_ascii_strcasecmp (q, "BF16") == 0 || g_ascii_strcasecmp (q, "F16") == 0
      || g_ascii_strcasecmp (q, "FP16") == 0 || g_ascii_strcasecmp (q, "F32") == 0
      || g_ascii_strcasecmp (q, "native") == 0)
    return QUANT_16BIT;
  if (has_prefix_ci (q, "FP8") || has_prefix_ci (q, "F8"))
    return QUANT_FP8;
  if (g_ascii_strcasecmp (q, "MXFP4") == 0)
    return QUANT_MXFP4;
  if (has_prefix_ci (q, "NVFP4"))
    return QUANT_NVFP4;
  if (has_prefix_ci (q, "INT8") || has_prefix_ci (q, "W8A") || has_prefix_ci (q, "GPTQ-INT8"))
    return QUANT_INT8;
  if (has_prefix_ci (q, "AWQ") || has_prefix_ci (q, "GPTQ") || has_prefix_ci (q, "INT4")
      || has_prefix_ci (q, "W4A"))
    return QUANT_INT4;
  return QUANT_GGUF;
}

/* The GGUF tag llama.cpp and Ollama load for the scenario's quant. */
static const char *
gguf_tag (const Ctx *c)
{
  switch (c->kind)
    {
    case QUANT_16BIT:
      if (g_ascii_strcasecmp (c->quant, "FP16") == 0)
        return "F16";
      if (g_ascii_strcasecmp (c->quant, "native") == 0)
        return "BF16";
      return c->quant;
    case QUANT_FP8:
    case QUANT_INT8:
      return "Q8_0";
    case QUANT_INT4:
    case QUANT_NVFP4:
      return "Q4_K_M";
    case QUANT_MXFP4:
    case QUANT_GGUF:
    default:
      return c->quant;
    }
}

static void
note_gguf_substitute (const Ctx *c,
                      GString   *notes,
                      const char *engine)
{
  if (c->kind == QUANT_FP8 || c->kind == QUANT_INT8 || c->kind == QUANT_INT4
      || c->kind == QUANT_NVFP4)
    note_add (notes, _("%s loads GGUF files and %s is a checkpoint format: this uses the "
                       "nearest GGUF quant, %s, whose size differs from the estimate."),
              engine, c->quant, gguf_tag (c));
  else if (c->kind == QUANT_MXFP4)
    note_add (notes, _("Check the repository’s file list for the MXFP4 GGUF tag."));
}

static const char *
repo_basename (const char *repo)
{
  const char *slash = repo != NULL ? strrchr (repo, '/') : NULL;

  return slash != NULL ? slash + 1 : repo;
}

static const char *
model_short_name (const HrModel *m)
{
  if (m->hf_repo != NULL && *m->hf_repo != '\0')
    return repo_basename (m->hf_repo);
  if (m->name != NULL && *m->name != '\0')
    return m->name;
  if (m->id != NULL && *m->id != '\0')
    return m->id;
  return "model";
}

/* The local GGUF file for -m: the file the user opened when there is one, otherwise a file
 * name in Unsloth's "{name}-{TAG}.gguf" pattern. */
static char *
gguf_path (const Ctx *c,
           gboolean  *is_real_file)
{
  if (c->gguf_file != NULL && *c->gguf_file != '\0')
    {
      *is_real_file = TRUE;
      return g_strdup (c->gguf_file);
    }
  *is_real_file = FALSE;
  return g_strdup_printf ("%s-%s.gguf", model_short_name (c->model), gguf_tag (c));
}

static gboolean
has_gguf_repo (const HrModel *m)
{
  return m->gguf_repo != NULL && *m->gguf_repo != '\0';
}

/* Pull the GGUF from its Hugging Face repository, unless the user opened a local file. */
static gboolean
use_gguf_repo (const Ctx *c)
{
  return (c->gguf_file == NULL || *c->gguf_file == '\0') && has_gguf_repo (c->model);
}

static gboolean
has_hf_repo (const HrModel *m)
{
  return m->hf_repo != NULL && *m->hf_repo != '\0';
}

static gboolean
native_is_fp8 (const HrModel *m)
{
  return m->native_dtype != NULL && has_prefix_ci (m->native_dtype, "FP8");
}

static gboolean
kv_quantized (HrKvType kv)
{
  return kv != HR_KV_F16;
}

/* Layers llama.cpp keeps on the GPU (-ngl); -1 for all of them. */
static int
gpu_layers (const Ctx *c)
{
  int n = c->model->n_layers;
  int off;

  if (!(c->sc->offload_pct > 0) || n <= 0)
    return -1;
  off = (int) lround (n * MIN (c->sc->offload_pct, 100.0) / 100.0);
  return CLAMP (n - off, 0, n);
}

static void
note_common (const Ctx *c,
             GString   *notes)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  if (c->model->max_context > 0 && c->context > c->model->max_context)
    note_add (notes, _("%lld tokens is beyond the model’s trained context "
                       "(%lld); the engine needs RoPE scaling enabled."),
              (long long) c->context, (long long) c->model->max_context);
  if (c->est == NULL || c->est->verdict != HR_VERDICT_EXCEEDS)
    return;
  fmt2 (a, sizeof a, hr_to_gib (c->est->required_bytes));
  fmt2 (b, sizeof b, hr_to_gib (c->est->usable_bytes));
  if (c->loaded != NULL)
    note_add (notes, _("Loading %s this needs %s GiB against %s GiB usable: it will not load "
                       "on this hardware."), c->loaded, a, b);
  else
    note_add (notes, _("As sized this needs %s GiB against %s GiB usable: it will not load "
                       "(see the diagnosis)."), a, b);
}

/* GiB per GPU vLLM/SGLang should keep in CPU memory (--cpu-offload-gb); 0 for none.  Only
 * when the scenario offloads: the flag streams weights over PCIe on every step. */
static int
cpu_offload_gib_per_gpu (const Ctx *c)
{
  if (!(c->sc->offload_pct > 0) && c->sc->n_cpu_moe <= 0)
    return 0;
  if (c->est == NULL || !(c->est->system_ram_bytes > 0))
    return 0;
  return (int) ceil (hr_to_gib (c->est->system_ram_bytes) / c->n_gpus);
}

/* The quant @engine's command loads: llama.cpp and Ollama a GGUF, vLLM and SGLang a
 * checkpoint (the official one for a GGUF quant).  NULL when that has no quant id. */
static const char *
loaded_quant (const Ctx *c,
              HrEngine   engine)
{
  const char *native = c->model->native_dtype != NULL ? c->model->native_dtype : "BF16";

  if (engine == HR_ENGINE_LLAMA_CPP || engine == HR_ENGINE_OLLAMA)
    return gguf_tag (c);
  if ((engine != HR_ENGINE_VLLM && engine != HR_ENGINE_SGLANG) || c->kind != QUANT_GGUF)
    return c->quant;
  if (quant_kind (native) == QUANT_16BIT)
    return "BF16";
  if (native_is_fp8 (c->model))
    return "FP8";
  if (g_ascii_strcasecmp (native, "MXFP4") == 0)
    return "MXFP4";
  return NULL;
}

/* @c for @engine's command: its estimate is of what that command loads on this hardware, so
 * its "will it load" note and its offload flag speak of the same weights as the command. */
static Ctx
ctx_for_engine (const Ctx  *c,
                HrEngine    engine,
                HrEstimate *storage)
{
  const char *quant = loaded_quant (c, engine);
  Ctx e = *c;
  HrScenario s;

  if (quant != NULL && g_ascii_strcasecmp (quant, c->quant) == 0 && engine == c->sc->engine)
    return e;
  e.loaded = quant != NULL && g_ascii_strcasecmp (quant, c->quant) != 0 ? quant : NULL;
  e.est = NULL;
  if (quant == NULL)
    return e;
  s = *c->sc;
  s.engine = engine;
  g_strlcpy (s.quant, quant, sizeof s.quant);
  if (hr_estimate_compute (&s, NULL, storage, NULL))
    e.est = storage;
  return e;
}

/* ---- llama.cpp ----------------------------------------------------------------------------- */

/* llama-server's model, context, GPU and server arguments. @rpc: "host1:50052,…" or NULL. */
static void
llama_server_args (const Ctx  *c,
                   Shell      *sh,
                   GString    *notes,
                   const char *rpc)
{
  const HrScenario *sc = c->sc;
  int ngl = gpu_layers (c);
  gboolean fa = sc->flash_attn || kv_quantized (sc->kv_type);

  sh_raw (sh, "llama-server");
  if (use_gguf_repo (c))
    {
      g_autofree char *spec = g_strdup_printf ("%s:%s", c->model->gguf_repo, gguf_tag (c));
      sh_opt (sh, "-hf", spec);
    }
  else
    {
      gboolean real = FALSE;
      g_autofree char *path = gguf_path (c, &real);

      sh_opt (sh, "-m", path);
      if (!real)
        note_add (notes, _("No GGUF repository is known for this model: point -m at your "
                           "GGUF file."));
    }
  note_gguf_substitute (c, notes, "llama.cpp");

  sh_break (sh);
  /* llama-server divides --ctx-size among its --parallel slots. */
  sh_rawf (sh, "--ctx-size %" G_GINT64_FORMAT, c->context * c->batch);
  if (ngl < 0)
    sh_raw (sh, "-ngl 999");
  else
    sh_rawf (sh, "-ngl %d", ngl);
  sh_raw (sh, fa ? "--flash-attn on" : "--flash-attn off");
  if (!sc->flash_attn && fa)
    note_add (notes, _("A quantized V cache needs flash attention, so it is turned on."));
  if (sc->ubatch > 0 && sc->ubatch != 512)
    {
      if (sc->ubatch > 2048)
        sh_rawf (sh, "-b %d", sc->ubatch);
      sh_rawf (sh, "-ub %d", sc->ubatch);
    }

  switch (sc->kv_type)
    {
    case HR_KV_Q8_0:
    case HR_KV_FP8:
      sh_break (sh);
      sh_raw (sh, "--cache-type-k q8_0 --cache-type-v q8_0");
      if (sc->kv_type == HR_KV_FP8)
        note_add (notes, _("llama.cpp has no FP8 KV cache; q8_0 is the nearest (34 bytes per "
                           "32 values instead of 32)."));
      break;
    case HR_KV_Q4_0:
      sh_break (sh);
      sh_raw (sh, "--cache-type-k q4_0 --cache-type-v q4_0");
      break;
    case HR_KV_F16:
    default:
      break;
    }

  if (sc->n_cpu_moe > 0 && hr_model_is_moe (c->model))
    {
      sh_break (sh);
      sh_rawf (sh, "--n-cpu-moe %d", MIN (sc->n_cpu_moe, c->model->n_layers));
    }

  if (rpc != NULL)
    {
      sh_break (sh);
      sh_opt (sh, "--rpc", rpc);
    }
  else if (c->n_gpus > 1 && !hr_gpu_is_unified (c->gpu))
    {
      g_autoptr(GString) split = g_string_new ("1");

      for (int i = 1; i < c->n_gpus; i++)
        g_string_append (split, ",1");
      sh_break (sh);
      sh_opt (sh, "--tensor-split", split->str);
      sh_raw (sh, "--split-mode layer");
    }

  if (c->batch > 1)
    {
      sh_break (sh);
      sh_rawf (sh, "--parallel %d", c->batch);
    }

  sh_break (sh);
  sh_raw (sh, "--jinja --host 0.0.0.0 --port " LLAMA_PORT);
}

static HrLaunchCommand *
llama_cpp_command (const Ctx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  Shell sh;

  sh_init (&sh);
  llama_server_args (c, &sh, notes, NULL);

  if (c->backend == HR_BACKEND_OTHER)
    note_add (notes, _("llama.cpp has no backend for %s: it would run on the CPU. Use the "
                       "vendor’s vLLM build instead."),
              c->gpu->stack != NULL ? c->gpu->stack : c->gpu->name);
  note_common (c, notes);

  return command_new (HR_ENGINE_LLAMA_CPP, _("llama.cpp (llama-server)"), sh_free (&sh), notes);
}

static HrLaunchCommand *
llama_cpp_rpc_command (const Ctx            *c,
                       const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(GString) hosts = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *comment = NULL;
  Shell sh;

  for (int i = 1; i < plan->nodes; i++)
    g_string_append_printf (hosts, "%shost%d:" RPC_PORT, i > 1 ? "," : "", i);

  sh_init (&sh);
  comment = g_strdup_printf (_("on each of the %d worker nodes (host1 … host%d)"),
                             plan->nodes - 1, plan->nodes - 1);
  sh_comment (&sh, comment);
  sh_raw (&sh, "rpc-server -H 0.0.0.0 -p " RPC_PORT);
  sh_comment (&sh, _("on the head node"));
  llama_server_args (c, &sh, notes, hosts->str);

  note_add (notes, _("llama.cpp spreads the layers over the local and RPC devices one after "
                     "another (no tensor parallelism), so tokens cross the network at every "
                     "node boundary. Older rpc-server builds serve one GPU each: then start "
                     "one per GPU (CUDA_VISIBLE_DEVICES=i, -p 50052+i) and list them all in "
                     "--rpc. rpc-server has no authentication: keep it on a private "
                     "network."));
  title = g_strdup_printf (_("llama.cpp RPC — %d nodes × %d GPUs"),
                           plan->nodes, plan->gpus_per_node);
  return command_new (HR_ENGINE_LLAMA_CPP, title, sh_free (&sh), notes);
}

/* ---- vLLM and SGLang ----------------------------------------------------------------------- */

/* Notes on loading the scenario's quant from the model's checkpoint; TRUE when
 * `--quantization fp8` (online FP8 from a 16-bit checkpoint) is needed. */
static gboolean
checkpoint_quant (const Ctx  *c,
                  GString    *notes,
                  const char *engine)
{
  const char *native = c->model->native_dtype != NULL ? c->model->native_dtype : "BF16";

  switch (c->kind)
    {
    case QUANT_FP8:
      return !native_is_fp8 (c->model);
    case QUANT_16BIT:
      if (native_is_fp8 (c->model))
        note_add (notes, _("The official checkpoint is %s: for 16-bit weights serve a BF16 "
                           "conversion of it instead."), native);
      return FALSE;
    case QUANT_INT4:
    case QUANT_INT8:
    case QUANT_NVFP4:
      note_add (notes, _("%s reads the quantization from the checkpoint’s config: serve a %s "
                         "repository of this model (check the exact repo name) instead of "
                         "the official one."), engine, c->quant);
      return FALSE;
    case QUANT_MXFP4:
      if (c->model->native_dtype == NULL || g_ascii_strcasecmp (native, "MXFP4") != 0)
        note_add (notes, _("%s needs an MXFP4 checkpoint of this model."), engine);
      return FALSE;
    case QUANT_GGUF:
    default:
      note_add (notes, _("%s is a GGUF quant, which %s does not serve: this runs the official "
                         "%s checkpoint. For a smaller footprint pick an FP8 or AWQ repository "
                         "of the model."), c->quant, engine, native);
      return FALSE;
    }
}

static void
note_kv_fp8_only (const Ctx  *c,
                  GString    *notes,
                  const char *engine)
{
  if (c->sc->kv_type == HR_KV_Q8_0 || c->sc->kv_type == HR_KV_Q4_0)
    note_add (notes, _("%s has no %s KV cache; FP8 is the nearest."),
              engine, hr_kv_type_to_string (c->sc->kv_type));
}

/* vLLM's sizing arguments after the model (and after the parallelism flags). */
static void
vllm_args (const Ctx *c,
           Shell     *sh,
           gboolean   fp8_online)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int offload = cpu_offload_gib_per_gpu (c);

  sh_break (sh);
  sh_rawf (sh, "--max-model-len %" G_GINT64_FORMAT, c->context);
  sh_rawf (sh, "--gpu-memory-utilization %s", fmt2 (buf, sizeof buf, c->util));
  if (kv_quantized (c->sc->kv_type))
    {
      sh_break (sh);
      sh_raw (sh, "--kv-cache-dtype fp8");
    }
  if (c->batch > 1)
    {
      sh_break (sh);
      sh_rawf (sh, "--max-num-seqs %d", c->batch);
    }
  if (c->sc->enforce_eager)
    {
      sh_break (sh);
      sh_raw (sh, "--enforce-eager");
    }
  if (fp8_online)
    {
      sh_break (sh);
      sh_raw (sh, "--quantization fp8");
    }
  if (offload > 0)
    {
      sh_break (sh);
      sh_rawf (sh, "--cpu-offload-gb %d", offload);
    }
}

static HrLaunchCommand *
vllm_command (const Ctx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "vLLM");
  Shell sh;

  sh_init (&sh);
  sh_raw (&sh, "vllm serve");
  sh_arg (&sh, c->model->hf_repo);
  if (c->n_gpus > 1)
    {
      sh_break (&sh);
      sh_rawf (&sh, "--tensor-parallel-size %d", c->n_gpus);
    }
  vllm_args (c, &sh, fp8_online);
  note_kv_fp8_only (c, notes, "vLLM");
  if (cpu_offload_gib_per_gpu (c) > 0)
    note_add (notes, _("--cpu-offload-gb is per GPU and streams those weights over PCIe every "
                       "step: expect a large slowdown."));
  note_common (c, notes);

  return command_new (HR_ENGINE_VLLM, "vLLM", sh_free (&sh), notes);
}

static HrLaunchCommand *
vllm_ray_command (const Ctx            *c,
                  const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "vLLM");
  g_autofree char *title = NULL;
  Shell sh;

  sh_init (&sh);
  sh_comment (&sh, _("node 0 (head)"));
  sh_raw (&sh, "ray start --head --port=" RAY_PORT);
  sh_comment (&sh, _("every other node"));
  sh_raw (&sh, "ray start --address=" HEAD_HOST ":" RAY_PORT);
  sh_comment (&sh, _("then on the head node, once `ray status` shows every GPU"));
  sh_raw (&sh, "vllm serve");
  sh_arg (&sh, c->model->hf_repo);
  sh_break (&sh);
  sh_rawf (&sh, "--tensor-parallel-size %d --pipeline-parallel-size %d",
           plan->tensor_parallel, plan->pipeline_parallel);
  sh_break (&sh);
  sh_raw (&sh, "--distributed-executor-backend ray");
  vllm_args (c, &sh, fp8_online);

  note_kv_fp8_only (c, notes, "vLLM");
  note_add (notes, _("Tensor parallelism stays inside each node (NVLink) and pipeline "
                     "parallelism crosses nodes; every node needs the same vLLM version and "
                     "the model files at the same path."));
  title = g_strdup_printf (_("vLLM — %d nodes × %d GPUs (Ray, TP %d × PP %d)"),
                           plan->nodes, plan->gpus_per_node,
                           plan->tensor_parallel, plan->pipeline_parallel);
  return command_new (HR_ENGINE_VLLM, title, sh_free (&sh), notes);
}

/* The fraction the estimate sized SGLang's pool with: the user's, else SGLang's own default,
 * written out so the server holds what the estimate says. */
static double
sglang_fraction (const Ctx *c)
{
  HrScenario s = *c->sc;

  s.engine = HR_ENGINE_SGLANG;
  return hr_estimate_mem_fraction (&s);
}

/* SGLang's sizing and server arguments after the parallelism flags. */
static void
sglang_args (const Ctx *c,
             Shell     *sh,
             gboolean   fp8_online)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int offload = cpu_offload_gib_per_gpu (c);
  double util;

  sh_break (sh);
  sh_rawf (sh, "--context-length %" G_GINT64_FORMAT, c->context);
  util = sglang_fraction (c);
  sh_rawf (sh, "--mem-fraction-static %s",
           g_ascii_formatd (buf, sizeof buf, fabs (util * 100 - round (util * 100)) < 1e-9 ? "%.2f" : "%.3f", util));
  if (kv_quantized (c->sc->kv_type))
    {
      sh_break (sh);
      sh_raw (sh, "--kv-cache-dtype fp8_e4m3");
    }
  if (c->batch > 1)
    {
      sh_break (sh);
      sh_rawf (sh, "--max-running-requests %d", c->batch);
    }
  if (c->sc->enforce_eager)
    {
      sh_break (sh);
      sh_raw (sh, "--disable-cuda-graph");
    }
  if (fp8_online)
    {
      sh_break (sh);
      sh_raw (sh, "--quantization fp8");
    }
  if (offload > 0)
    {
      sh_break (sh);
      sh_rawf (sh, "--cpu-offload-gb %d", offload);
    }
  sh_break (sh);
  sh_raw (sh, "--host 0.0.0.0 --port " SGLANG_PORT);
}

static HrLaunchCommand *
sglang_command (const Ctx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "SGLang");
  Shell sh;

  sh_init (&sh);
  sh_raw (&sh, "python -m sglang.launch_server");
  sh_opt (&sh, "--model-path", c->model->hf_repo);
  if (c->n_gpus > 1)
    {
      sh_break (&sh);
      sh_rawf (&sh, "--tp %d", c->n_gpus);
    }
  sglang_args (c, &sh, fp8_online);
  note_kv_fp8_only (c, notes, "SGLang");
  note_common (c, notes);

  return command_new (HR_ENGINE_SGLANG, "SGLang", sh_free (&sh), notes);
}

static HrLaunchCommand *
sglang_multinode_command (const Ctx            *c,
                          const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "SGLang");
  gboolean listed = plan->nodes <= MAX_LISTED_NODES;
  int tp = plan->nodes * plan->gpus_per_node;
  g_autofree char *title = NULL;
  Shell sh;

  sh_init (&sh);
  for (int rank = 0; rank < (listed ? plan->nodes : 1); rank++)
    {
      g_autofree char *comment = NULL;

      if (listed)
        comment = rank == 0 ? g_strdup_printf (_("node 0 (head, %s)"), HEAD_HOST)
                            : g_strdup_printf (_("node %d"), rank);
      else
        comment = g_strdup_printf (_("on every node, NODE_RANK = 0 (head, %s) … %d"),
                                   HEAD_HOST, plan->nodes - 1);
      sh_comment (&sh, comment);
      sh_raw (&sh, "python -m sglang.launch_server");
      sh_opt (&sh, "--model-path", c->model->hf_repo);
      sh_break (&sh);
      sh_rawf (&sh, "--tp %d --nnodes %d", tp, plan->nodes);
      if (listed)
        sh_rawf (&sh, "--node-rank %d", rank);
      else
        sh_raw (&sh, "--node-rank NODE_RANK");
      sh_raw (&sh, "--dist-init-addr " HEAD_HOST ":" SGLANG_DIST_PORT);
      sglang_args (c, &sh, fp8_online);
    }

  note_kv_fp8_only (c, notes, "SGLang");
  note_add (notes, _("SGLang runs one tensor-parallel group of %d GPUs across the nodes; it "
                     "wants a fast inter-node fabric (InfiniBand/RoCE)."), tp);
  title = g_strdup_printf (_("SGLang — %d nodes × %d GPUs (TP %d)"),
                           plan->nodes, plan->gpus_per_node, tp);
  return command_new (HR_ENGINE_SGLANG, title, sh_free (&sh), notes);
}

/* ---- Ollama and MLX ------------------------------------------------------------------------ */

static HrLaunchCommand *
ollama_command (const Ctx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  const HrScenario *sc = c->sc;
  const char *kv = NULL;
  Shell sh;

  switch (sc->kv_type)
    {
    case HR_KV_FP8:
      note_add (notes, _("Ollama has no FP8 KV cache; q8_0 is the nearest."));
      G_GNUC_FALLTHROUGH;
    case HR_KV_Q8_0:
      kv = "q8_0";
      break;
    case HR_KV_Q4_0:
      kv = "q4_0";
      break;
    case HR_KV_F16:
    default:
      break;
    }

  sh_init (&sh);
  /* Ollama gives each of its OLLAMA_NUM_PARALLEL slots the whole context. */
  sh_rawf (&sh, "OLLAMA_CONTEXT_LENGTH=%" G_GINT64_FORMAT, c->context);
  if (c->batch > 1)
    sh_rawf (&sh, "OLLAMA_NUM_PARALLEL=%d", c->batch);
  if (kv != NULL)
    sh_rawf (&sh, "OLLAMA_KV_CACHE_TYPE=%s", kv);
  if (sc->flash_attn || kv != NULL)
    sh_raw (&sh, "OLLAMA_FLASH_ATTENTION=1");
  sh_raw (&sh, "ollama serve");
  sh_end (&sh);

  if (use_gguf_repo (c))
    {
      g_autofree char *ref = g_strdup_printf ("hf.co/%s:%s", c->model->gguf_repo, gguf_tag (c));

      sh_raw (&sh, "ollama run");
      sh_arg (&sh, ref);
      if (c->est != NULL && c->est->weights.bytes > HF_MAX_FILE_BYTES)
        note_add (notes, _("At this size the GGUF is split into shards, which Ollama cannot "
                           "pull from hf.co: download the shards and import them with a "
                           "Modelfile and `ollama create`."));
    }
  else
    {
      gboolean real = FALSE;
      g_autofree char *path = gguf_path (c, &real);
      g_autofree char *from = g_strconcat ("FROM ", path, NULL);
      const char *name = c->model->id != NULL && *c->model->id != '\0' ? c->model->id : "model";

      /* a user's model is "user:slug": Ollama would read the colon as a tag */
      if (g_str_has_prefix (name, HR_USERDATA_ID_PREFIX) && name[strlen (HR_USERDATA_ID_PREFIX)] != '\0')
        name += strlen (HR_USERDATA_ID_PREFIX);

      sh_raw (&sh, "echo");
      sh_arg (&sh, from);
      sh_raw (&sh, "> Modelfile");
      sh_end (&sh);
      sh_raw (&sh, "ollama create");
      sh_arg (&sh, name);
      sh_raw (&sh, "-f Modelfile");
      sh_end (&sh);
      sh_raw (&sh, "ollama run");
      sh_arg (&sh, name);
    }
  note_gguf_substitute (c, notes, "Ollama");

  if (sc->offload_pct > 0 || sc->n_cpu_moe > 0)
    note_add (notes, _("Ollama chooses the GPU layers itself and offloads what does not fit; "
                       "it has no per-expert CPU placement."));
  if (c->n_gpus > 1)
    note_add (notes, _("Ollama splits layers across the GPUs (no tensor parallelism)."));
  note_common (c, notes);

  return command_new (HR_ENGINE_OLLAMA, "Ollama", sh_free (&sh), notes);
}

/* mlx-community names conversions "{name}-{bits}bit" (or -bf16). */
static const char *
mlx_suffix (const char *quant)
{
  const char *q = quant;

  switch (quant_kind (quant))
    {
    case QUANT_16BIT:
      return "bf16";
    case QUANT_FP8:
    case QUANT_INT8:
      return "8bit";
    case QUANT_INT4:
    case QUANT_MXFP4:
    case QUANT_NVFP4:
      return "4bit";
    case QUANT_GGUF:
    default:
      break;
    }

  if (has_prefix_ci (q, "UD-"))
    q += 3;
  if (q[0] == 'I' || q[0] == 'i' || q[0] == 'T' || q[0] == 't')
    q++;
  if ((q[0] == 'Q' || q[0] == 'q') && g_ascii_isdigit (q[1]))
    {
      switch (q[1])
        {
        case '1':
        case '2':
          return "2bit";
        case '3':
          return "3bit";
        case '4':
          return "4bit";
        case '5':
          return "5bit";
        case '6':
          return "6bit";
        default:
          return "8bit";
        }
    }
  return "4bit";
}

static HrLaunchCommand *
mlx_command (const Ctx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autofree char *repo = g_strdup_printf ("mlx-community/%s-%s",
                                           model_short_name (c->model), mlx_suffix (c->quant));
  Shell sh;

  sh_init (&sh);
  sh_raw (&sh, "mlx_lm.server");
  sh_opt (&sh, "--model", repo);
  sh_break (&sh);
  /* mlx-lm cannot combine a bounded (rotating) cache with a quantized one. */
  switch (c->sc->kv_type)
    {
    case HR_KV_Q4_0:
      sh_raw (&sh, "--kv-bits 4");
      break;
    case HR_KV_Q8_0:
    case HR_KV_FP8:
      sh_raw (&sh, "--kv-bits 8");
      break;
    case HR_KV_F16:
    default:
      sh_rawf (&sh, "--max-kv-size %" G_GINT64_FORMAT, c->context);
      break;
    }
  sh_raw (&sh, "--port " LLAMA_PORT);

  note_add (notes, _("mlx-community publishes conversions as “%s”: check the exact repo "
                     "name, and that it exists for this model."), repo);
  if (kv_quantized (c->sc->kv_type))
    note_add (notes, _("With a quantized KV cache mlx-lm does not take --max-kv-size; the "
                       "context is then bounded by the requests."));
  else
    note_add (notes, _("--max-kv-size bounds each sequence’s cache; older tokens rotate out "
                       "beyond it."));
  note_common (c, notes);

  return command_new (HR_ENGINE_MLX, _("MLX (mlx-lm)"), sh_free (&sh), notes);
}

/* ---- planning ------------------------------------------------------------------------------ */

static int
next_pow2 (int n)
{
  int p = 1;

  while (p < n && p < (1 << 20))
    p <<= 1;
  return p;
}

/* Fits when the group's total and its largest device's share are within usable memory. */
static gboolean
estimate_fits (const HrEstimate *est,
               int               n_gpus)
{
  if (est->verdict == HR_VERDICT_EXCEEDS)
    return FALSE;
  return !(est->per_gpu_required > est->usable_bytes / n_gpus * (1.0 + 1e-9));
}

/* ---- public API ---------------------------------------------------------------------------- */

char *
hr_launch_shell_quote (const char *word)
{
  GString *s;
  const char *p;

  if (word == NULL || *word == '\0')
    return g_strdup ("''");

  for (p = word; *p != '\0'; p++)
    if (!shell_safe_char (*p))
      break;
  if (*p == '\0')
    return g_strdup (word);

  s = g_string_new ("'");
  for (p = word; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (s, "'\\''");
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '\'');
  return g_string_free (s, FALSE);
}

char *
hr_launch_command_one_line (const HrLaunchCommand *cmd)
{
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (cmd != NULL, NULL);

  if (cmd->command == NULL)
    return g_strdup ("");
  parts = g_strsplit (cmd->command, " \\\n  ", -1);
  return g_strjoinv (" ", parts);
}

gboolean
hr_launch_plan (const HrScenario *scenario,
                int               gpus_per_node,
                HrParallelPlan   *plan)
{
  HrScenario s;
  HrEstimate est;
  int n_layers, max_nodes, nodes;

  g_return_val_if_fail (scenario != NULL, FALSE);
  g_return_val_if_fail (scenario->model != NULL && scenario->gpu != NULL, FALSE);
  g_return_val_if_fail (plan != NULL, FALSE);

  if (gpus_per_node <= 0)
    gpus_per_node = HR_LAUNCH_DEFAULT_GPUS_PER_NODE;
  gpus_per_node = MIN (gpus_per_node, HR_MAX_GPUS);

  /* One full node, tensor parallel across its devices. */
  s = *scenario;
  s.n_gpus = gpus_per_node;
  if (!hr_estimate_compute (&s, NULL, &est, NULL))
    return FALSE;
  if (estimate_fits (&est, gpus_per_node) || !(est.usable_bytes > 0))
    return FALSE;

  n_layers = MAX (scenario->model->n_layers, 1);
  max_nodes = MAX (HR_MAX_GPUS / gpus_per_node, 2);
  nodes = (int) MIN (ceil (est.required_bytes / est.usable_bytes), (double) max_nodes);
  nodes = MAX (nodes, 2);

  /* Per-GPU overhead grows with the group, so check the rounded plan and grow it until it
   * fits.  Pipeline stages want a power of two, as long as each stage keeps a layer. */
  for (;;)
    {
      int p2 = next_pow2 (nodes);
      int cand = p2 <= n_layers && p2 <= max_nodes ? p2 : nodes;

      s.n_gpus = cand * gpus_per_node;
      if (!hr_estimate_compute (&s, NULL, &est, NULL) || estimate_fits (&est, s.n_gpus)
          || cand >= max_nodes)
        {
          nodes = cand;
          break;
        }
      nodes = cand + 1;
    }

  plan->nodes = nodes;
  plan->gpus_per_node = gpus_per_node;
  plan->tensor_parallel = gpus_per_node;
  plan->pipeline_parallel = nodes;
  return TRUE;
}

GPtrArray *
hr_launch_commands (const HrScenario *scenario,
                    const HrEstimate *estimate)
{
  return hr_launch_commands_for_file (scenario, estimate, NULL);
}

GPtrArray *
hr_launch_commands_for_file (const HrScenario *scenario,
                             const HrEstimate *estimate,
                             const char       *gguf_file)
{
  GPtrArray *commands;
  HrParallelPlan plan = { 0, };
  gboolean multi_node = FALSE;
  gboolean metal, checkpoint_engines;
  int per_node;
  Ctx c, llama, vllm, sglang, ollama, mlx;
  HrEstimate est_llama, est_vllm, est_sglang, est_ollama, est_mlx;

  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (scenario->model != NULL && scenario->gpu != NULL, NULL);

  memset (&c, 0, sizeof c);
  c.sc = scenario;
  c.est = estimate;
  c.gguf_file = gguf_file;
  c.model = scenario->model;
  c.gpu = scenario->gpu;
  c.backend = hr_scenario_backend (scenario);
  c.quant = scenario->quant[0] != '\0' ? scenario->quant : "BF16";
  c.kind = quant_kind (c.quant);
  c.n_gpus = MAX (scenario->n_gpus, 1);
  c.batch = MAX (scenario->batch, 1);
  c.context = MAX (scenario->context, 1);
  c.util = scenario->gpu_mem_util > 0 && scenario->gpu_mem_util <= 1
           ? scenario->gpu_mem_util : HR_DEFAULT_GPU_MEM_UTIL;

  metal = c.backend == HR_BACKEND_METAL;
  /* vLLM and SGLang serve Hugging Face checkpoints, and neither runs on Apple GPUs. */
  checkpoint_engines = !metal && has_hf_repo (c.model);

  llama = ctx_for_engine (&c, HR_ENGINE_LLAMA_CPP, &est_llama);
  vllm = ctx_for_engine (&c, HR_ENGINE_VLLM, &est_vllm);
  sglang = ctx_for_engine (&c, HR_ENGINE_SGLANG, &est_sglang);
  ollama = ctx_for_engine (&c, HR_ENGINE_OLLAMA, &est_ollama);
  mlx = ctx_for_engine (&c, HR_ENGINE_MLX, &est_mlx);

  commands = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_launch_command_free);
  g_ptr_array_add (commands, llama_cpp_command (&llama));
  if (checkpoint_engines)
    {
      g_ptr_array_add (commands, vllm_command (&vllm));
      g_ptr_array_add (commands, sglang_command (&sglang));
    }
  g_ptr_array_add (commands, ollama_command (&ollama));
  if (metal)
    g_ptr_array_add (commands, mlx_command (&mlx));

  /* A unified-memory machine is its own node of one device. */
  per_node = hr_gpu_is_unified (c.gpu) ? 1 : HR_LAUNCH_DEFAULT_GPUS_PER_NODE;
  if (hr_launch_plan (scenario, per_node, &plan))
    multi_node = TRUE;
  else if (c.n_gpus > per_node && !hr_gpu_is_unified (c.gpu))
    {
      /* More GPUs were asked for than one node holds: lay them out over whole nodes. */
      plan.nodes = (c.n_gpus + per_node - 1) / per_node;
      plan.gpus_per_node = per_node;
      plan.tensor_parallel = per_node;
      plan.pipeline_parallel = plan.nodes;
      multi_node = TRUE;
    }

  if (multi_node)
    {
      if (checkpoint_engines)
        {
          g_ptr_array_add (commands, vllm_ray_command (&vllm, &plan));
          g_ptr_array_add (commands, sglang_multinode_command (&sglang, &plan));
        }
      g_ptr_array_add (commands, llama_cpp_rpc_command (&llama, &plan));
    }

  return commands;
}

void
hr_launch_command_free (HrLaunchCommand *cmd)
{
  if (cmd == NULL)
    return;
  g_free (cmd->title);
  g_free (cmd->command);
  g_free (cmd->note);
  g_free (cmd);
}
