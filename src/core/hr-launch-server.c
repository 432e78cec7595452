/* hr-launch-server.c — launch builders of the server-like engines: vLLM and SGLang
 *
 *  - vLLM `vllm serve`: --max-model-len, --gpu-memory-utilization, --tensor-parallel-size,
 *    --pipeline-parallel-size with --distributed-executor-backend ray across nodes,
 *    --kv-cache-dtype fp8, --max-num-seqs, --enforce-eager, --quantization fp8 (online, from a
 *    16-bit checkpoint), --cpu-offload-gb (per GPU).
 *  - SGLang `python -m sglang.launch_server`: --context-length, --tp, --mem-fraction-static,
 *    --kv-cache-dtype fp8_e4m3, --max-running-requests, --disable-cuda-graph,
 *    --nnodes/--node-rank/--dist-init-addr.
 */
#include "hr-launch-private.h"
#include "hr-draft.h"
#include "hr-placement.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#define SGLANG_PORT     "30000"
#define RAY_PORT        "6379"
#define SGLANG_DIST_PORT "5000"
#define HEAD_HOST       "HEAD_IP"
/* Up to this many nodes the SGLang plan spells out every node's command. */
#define MAX_LISTED_NODES 8

/* Notes on what the command loads (hr_engine_load (), the table the estimate sized); TRUE when
 * `--quantization fp8` (online FP8 from a 16-bit checkpoint) is needed. */
static gboolean
checkpoint_quant (const HrLaunchCtx *c,
                  GString           *notes,
                  const char        *engine)
{
  g_autofree char *text = hr_engine_load_text (&c->load);

  if (text != NULL)
    hr_launch_note_add (notes, "%s", text);
  else if (c->load.gguf)
    hr_launch_note_add (notes, _("%s’s GGUF support is experimental and slower than its checkpoint "
                                 "kernels: it loads one .gguf file (join split files with "
                                 "llama-gguf-split --merge) and the tokenizer of the official "
                                 "repository."), engine);
  return c->load.kind == HR_LOAD_AS_CHOSEN && c->load.online_fp8;
}

static void
note_kv_fp8_only (const HrLaunchCtx *c,
                  GString           *notes,
                  const char        *engine)
{
  if (c->sc->kv_type == HR_KV_Q8_0 || c->sc->kv_type == HR_KV_Q4_0)
    hr_launch_note_add (notes, _("%s has no %s KV cache; FP8 is the nearest."),
              engine, hr_kv_type_to_string (c->sc->kv_type));
}

/* The fraction the estimate sized SGLang's pool with: the user's, else SGLang's own default,
 * written out so the server holds what the estimate says. */
static const char *
sglang_fraction (const HrLaunchCtx *c,
                 char              *buf,
                 gsize              size)
{
  HrScenario s = *c->sc;
  double util;

  s.engine = HR_ENGINE_SGLANG;
  /* pipeline stages of different GPUs: no tensor parallelism (hr-placement-pp.c) */
  if (c->est != NULL && c->est->placement.split == HR_SPLIT_PIPELINE)
    {
      s.n_kinds = 0;
      s.n_gpus = 1;
    }
  util = hr_estimate_mem_fraction (&s);
  return g_ascii_formatd (buf, size, fabs (util * 100 - round (util * 100)) < 1e-9 ? "%.2f" : "%.3f",
                          util);
}

/* vLLM's fraction is the scenario's (or vLLM's default 0.90), to two decimals. */
static const char *
vllm_fraction (const HrLaunchCtx *c,
               char              *buf,
               gsize              size)
{
  return hr_launch_fmt2 (buf, size, c->util);
}

/* What vLLM and SGLang do alike, each in its own words: one server command over a Hugging
 * Face checkpoint, sized by a context length and a memory fraction. */
typedef struct
{
  HrEngine engine;
  const char *name;
  const char *serve;        /* the command that starts the server */
  const char *model_flag;   /* NULL: the model is the first argument */
  const char *tp_flag;      /* followed by the GPUs of one node */
  const char *context_flag;
  const char *memory_flag;  /* followed by memory_fraction() */
  const char *(*memory_fraction) (const HrLaunchCtx *c, char *buf, gsize size);
  const char *kv_fp8;       /* an 8-bit KV cache */
  const char *max_seqs;     /* followed by the number of sequences */
  const char *eager;        /* no CUDA graphs */
  const char *listen;       /* NULL, or the address flags last */
  const char *offload_note; /* NULL, or a note (N_) when weights are offloaded to the CPU */
  const char *pp_flag;      /* pipeline stages (different GPUs, #31), followed by their count */
  const char *pp_env;       /* the variable that sets the layers of each stage */
} ServerEngine;

static const ServerEngine vllm = {
  HR_ENGINE_VLLM, "vLLM", "vllm serve", NULL, "--tensor-parallel-size",
  "--max-model-len", "--gpu-memory-utilization", vllm_fraction,
  "--kv-cache-dtype fp8", "--max-num-seqs", "--enforce-eager", NULL,
  N_("--cpu-offload-gb is per GPU and streams those weights over PCIe every step: expect a "
     "large slowdown."),
  "--pipeline-parallel-size", "VLLM_PP_LAYER_PARTITION",
};

static const ServerEngine sglang = {
  HR_ENGINE_SGLANG, "SGLang", "python -m sglang.launch_server", "--model-path", "--tp",
  "--context-length", "--mem-fraction-static", sglang_fraction,
  "--kv-cache-dtype fp8_e4m3", "--max-running-requests", "--disable-cuda-graph",
  "--host 0.0.0.0 --port " SGLANG_PORT, NULL,
  "--pp-size", "SGLANG_PP_LAYER_PARTITION",
};

/* Speculative decoding (#31).  vLLM: --speculative-config '{"model": REPO, "method":
 * "draft_model", "num_speculative_tokens": N}' or '{"method": "mtp", …}'
 * (docs/features/speculative_decoding/draft_model.md, mtp.md).  SGLang: --speculative-algorithm
 * STANDALONE with --speculative-draft-model-path, or EAGLE for a model's MTP layers, with
 * --speculative-num-steps N, --speculative-eagle-topk 1 and --speculative-num-draft-tokens
 * N + 1, as its docs set them all three (docs/advanced_features/speculative_decoding.md). */
static void
server_draft_flags (const ServerEngine *e,
                    const HrLaunchCtx  *c,
                    HrShell            *sh)
{
  const HrScenario *sc = c->sc;
  const char *repo = sc->draft_model != NULL ? sc->draft_model->hf_repo : NULL;
  /* this command's engine's default, whichever engine the scenario names */
  int k = sc->draft_max > 0 ? sc->draft_max : hr_draft_default_max (e->engine, sc->draft_kind);

  if (sc->draft_kind == HR_DRAFT_NONE)
    return;
  if (sc->draft_kind == HR_DRAFT_MODEL && repo == NULL)
    repo = "DRAFT_MODEL";
  hr_sh_break (sh);
  if (e->engine == HR_ENGINE_VLLM)
    {
      g_autofree char *json = NULL;

      if (sc->draft_kind == HR_DRAFT_MTP)
        json = g_strdup_printf ("{\"method\": \"mtp\", \"num_speculative_tokens\": %d}", k);
      else
        json = g_strdup_printf ("{\"model\": \"%s\", \"method\": \"draft_model\", "
                                "\"num_speculative_tokens\": %d}", repo, k);
      hr_sh_opt (sh, "--speculative-config", json);
      return;
    }
  if (sc->draft_kind == HR_DRAFT_MTP)
    hr_sh_raw (sh, "--speculative-algorithm EAGLE");
  else
    {
      hr_sh_raw (sh, "--speculative-algorithm STANDALONE");
      hr_sh_opt (sh, "--speculative-draft-model-path", repo);
    }
  hr_sh_break (sh);
  hr_sh_rawf (sh, "--speculative-num-steps %d --speculative-eagle-topk 1 --speculative-num-draft-tokens %d",
              k, k + 1);
}

/* KV type, sequences, eager mode, online FP8 and CPU offload, in that order, each its own line. */
static void
server_flags (const ServerEngine *e,
              const HrLaunchCtx  *c,
              HrShell            *sh,
              gboolean            fp8_online)
{
  int offload = hr_launch_cpu_offload_gib_per_gpu (c);

  if (hr_launch_kv_quantized (c->sc->kv_type))
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, e->kv_fp8);
    }
  if (c->batch > 1)
    {
      hr_sh_break (sh);
      hr_sh_rawf (sh, "%s %d", e->max_seqs, c->batch);
    }
  if (c->sc->enforce_eager)
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, e->eager);
    }
  if (fp8_online)
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, "--quantization fp8");
    }
  if (offload > 0)
    {
      hr_sh_break (sh);
      hr_sh_rawf (sh, "--cpu-offload-gb %d", offload);
    }
  server_draft_flags (e, c, sh);
}

/* The server command and its model, before any parallelism flags. */
static void
serve_model (const ServerEngine *e,
             const HrLaunchCtx  *c,
             HrShell            *sh)
{
  g_autofree char *gguf = NULL;
  const char *model = c->model->hf_repo;

  /* vLLM's GGUF loader takes a local file or "<repo_id>/<filename>.gguf" (gguf_loader.py,
   * _prepare_weights) and the tokenizer from the official repository */
  if (c->load.gguf)
    {
      gboolean real_file;
      g_autofree char *file = hr_launch_gguf_path (c, &real_file);

      gguf = real_file ? g_steal_pointer (&file) : g_strdup_printf ("%s/%s", c->load.repo, file);
      model = gguf;
    }
  hr_sh_raw (sh, e->serve);
  if (e->model_flag != NULL)
    hr_sh_opt (sh, e->model_flag, model);
  else
    hr_sh_arg (sh, model);
  if (c->load.gguf)
    hr_sh_opt (sh, "--tokenizer", c->model->hf_repo);
}

/* The sizing and server arguments after the parallelism flags. */
static void
server_args (const ServerEngine *e,
             const HrLaunchCtx  *c,
             HrShell            *sh,
             gboolean            fp8_online)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  hr_sh_break (sh);
  hr_sh_rawf (sh, "%s %" G_GINT64_FORMAT, e->context_flag, c->context);
  hr_sh_rawf (sh, "%s %s", e->memory_flag, e->memory_fraction (c, buf, sizeof buf));
  server_flags (e, c, sh, fp8_online);
  if (e->listen != NULL)
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, e->listen);
    }
}

/* One node: tensor parallelism over its GPUs. */
static HrLaunchCommand *
single_node_command (const ServerEngine *e,
                     const HrLaunchCtx  *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, e->name);
  gboolean pipeline = c->est != NULL && c->est->placement.split == HR_SPLIT_PIPELINE &&
                      c->est->placement.n_devices > 1;
  HrShell sh;

  hr_sh_init (&sh);
  if (pipeline)
    {
      g_autofree char *stages = hr_placement_pp_partition (c->est);

      /* the stages the plan needs when the engine's even partition does not fit */
      if (c->est->placement.custom_stages)
        hr_sh_rawf (&sh, "%s=%s", e->pp_env, stages);
    }
  serve_model (e, c, &sh);
  if (pipeline)
    {
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "%s 1 %s %d", e->tp_flag, e->pp_flag, c->est->placement.n_devices);
      hr_launch_note_add (notes, _("Different GPUs run as pipeline stages, one per GPU, each its own "
                                   "layers in turn; tensor parallelism needs alike GPUs."));
    }
  else if (c->n_gpus > 1)
    {
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "%s %d", e->tp_flag, c->n_gpus);
    }
  server_args (e, c, &sh, fp8_online);
  note_kv_fp8_only (c, notes, e->name);
  if (e->offload_note != NULL && hr_launch_cpu_offload_gib_per_gpu (c) > 0)
    hr_launch_note_add (notes, "%s", _(e->offload_note));
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (e->engine, e->name, hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
vllm_ray_command (const HrLaunchCtx    *c,
                  const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, vllm.name);
  g_autofree char *title = NULL;
  HrShell sh;

  hr_sh_init (&sh);
  hr_sh_comment (&sh, _("node 0 (head)"));
  hr_sh_raw (&sh, "ray start --head --port=" RAY_PORT);
  hr_sh_comment (&sh, _("every other node"));
  hr_sh_raw (&sh, "ray start --address=" HEAD_HOST ":" RAY_PORT);
  hr_sh_comment (&sh, _("then on the head node, once `ray status` shows every GPU"));
  serve_model (&vllm, c, &sh);
  hr_sh_break (&sh);
  hr_sh_rawf (&sh, "--tensor-parallel-size %d --pipeline-parallel-size %d",
           plan->tensor_parallel, plan->pipeline_parallel);
  hr_sh_break (&sh);
  hr_sh_raw (&sh, "--distributed-executor-backend ray");
  server_args (&vllm, c, &sh, fp8_online);

  note_kv_fp8_only (c, notes, vllm.name);
  hr_launch_note_add (notes, _("Tensor parallelism stays inside each node (NVLink) and pipeline "
                     "parallelism crosses nodes; every node needs the same vLLM version and "
                     "the model files at the same path."));
  title = g_strdup_printf (_("vLLM — %d nodes × %d GPUs (Ray, TP %d × PP %d)"),
                           plan->nodes, plan->gpus_per_node,
                           plan->tensor_parallel, plan->pipeline_parallel);
  return hr_launch_command_new (HR_ENGINE_VLLM, title, hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
sglang_multinode_command (const HrLaunchCtx    *c,
                          const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, sglang.name);
  gboolean listed = plan->nodes <= MAX_LISTED_NODES;
  int tp = plan->nodes * plan->gpus_per_node;
  g_autofree char *title = NULL;
  HrShell sh;

  hr_sh_init (&sh);
  for (int rank = 0; rank < (listed ? plan->nodes : 1); rank++)
    {
      g_autofree char *comment = NULL;

      if (listed)
        comment = rank == 0 ? g_strdup_printf (_("node 0 (head, %s)"), HEAD_HOST)
                            : g_strdup_printf (_("node %d"), rank);
      else
        comment = g_strdup_printf (_("on every node, NODE_RANK = 0 (head, %s) … %d"),
                                   HEAD_HOST, plan->nodes - 1);
      hr_sh_comment (&sh, comment);
      serve_model (&sglang, c, &sh);
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "--tp %d --nnodes %d", tp, plan->nodes);
      if (listed)
        hr_sh_rawf (&sh, "--node-rank %d", rank);
      else
        hr_sh_raw (&sh, "--node-rank NODE_RANK");
      hr_sh_raw (&sh, "--dist-init-addr " HEAD_HOST ":" SGLANG_DIST_PORT);
      server_args (&sglang, c, &sh, fp8_online);
    }

  note_kv_fp8_only (c, notes, sglang.name);
  hr_launch_note_add (notes, _("SGLang runs one tensor-parallel group of %d GPUs across the nodes; it "
                     "wants a fast inter-node fabric (InfiniBand/RoCE)."), tp);
  title = g_strdup_printf (_("SGLang — %d nodes × %d GPUs (TP %d)"),
                           plan->nodes, plan->gpus_per_node, tp);
  return hr_launch_command_new (HR_ENGINE_SGLANG, title, hr_sh_free (&sh), notes);
}

/* ---- builders ------------------------------------------------------------------------------ */

/* vLLM and SGLang serve Hugging Face checkpoints, and neither runs on Apple GPUs. */
static gboolean
serves_here (const HrLaunchCtx *c)
{
  return c->backend != HR_BACKEND_METAL && hr_launch_has_hf_repo (c->model);
}

HrLaunchCommand *
hr_launch_vllm (const HrLaunchCtx    *c,
                const HrParallelPlan *plan)
{
  if (!serves_here (c))
    return NULL;
  return plan != NULL ? vllm_ray_command (c, plan) : single_node_command (&vllm, c);
}

HrLaunchCommand *
hr_launch_sglang (const HrLaunchCtx    *c,
                  const HrParallelPlan *plan)
{
  if (!serves_here (c))
    return NULL;
  return plan != NULL ? sglang_multinode_command (c, plan) : single_node_command (&sglang, c);
}
