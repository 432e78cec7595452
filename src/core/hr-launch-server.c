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

#include <math.h>
#include <glib/gi18n-lib.h>

#define SGLANG_PORT     "30000"
#define RAY_PORT        "6379"
#define SGLANG_DIST_PORT "5000"
#define HEAD_HOST       "HEAD_IP"
/* Up to this many nodes the SGLang plan spells out every node's command. */
#define MAX_LISTED_NODES 8

/* Notes on loading the scenario's quant from the model's checkpoint; TRUE when
 * `--quantization fp8` (online FP8 from a 16-bit checkpoint) is needed. */
static gboolean
checkpoint_quant (const HrLaunchCtx *c,
                  GString           *notes,
                  const char        *engine)
{
  const char *native = c->model->native_dtype != NULL ? c->model->native_dtype : "BF16";

  switch (c->format)
    {
    case HR_QUANT_FORMAT_FP8:
      return !hr_launch_native_is_fp8 (c->model);
    case HR_QUANT_FORMAT_FLOAT:
      if (hr_launch_native_is_fp8 (c->model))
        hr_launch_note_add (notes, _("The official checkpoint is %s: for 16-bit weights serve a BF16 "
                           "conversion of it instead."), native);
      return FALSE;
    case HR_QUANT_FORMAT_INT4:
    case HR_QUANT_FORMAT_INT8:
    case HR_QUANT_FORMAT_NVFP4:
      hr_launch_note_add (notes, _("%s reads the quantization from the checkpoint’s config: serve a %s "
                         "repository of this model (check the exact repo name) instead of "
                         "the official one."), engine, c->quant);
      return FALSE;
    case HR_QUANT_FORMAT_MXFP4:
      if (c->model->native_dtype == NULL || g_ascii_strcasecmp (native, "MXFP4") != 0)
        hr_launch_note_add (notes, _("%s needs an MXFP4 checkpoint of this model."), engine);
      return FALSE;
    case HR_QUANT_FORMAT_GGUF:
    default:
      hr_launch_note_add (notes, _("%s is a GGUF quant, which %s does not serve: this runs the official "
                         "%s checkpoint. For a smaller footprint pick an FP8 or AWQ repository "
                         "of the model."), c->quant, engine, native);
      return FALSE;
    }
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

/* The flags vLLM and SGLang share in meaning, each under its own name. */
typedef struct
{
  const char *kv_fp8;     /* an 8-bit KV cache */
  const char *max_seqs;   /* followed by the number of sequences */
  const char *eager;      /* no CUDA graphs */
} ServerFlags;

static const ServerFlags vllm_flags = { "--kv-cache-dtype fp8", "--max-num-seqs", "--enforce-eager" };
static const ServerFlags sglang_flags = { "--kv-cache-dtype fp8_e4m3", "--max-running-requests",
                                          "--disable-cuda-graph" };

/* KV type, sequences, eager mode, online FP8 and CPU offload, in that order, each its own line. */
static void
server_flags (const HrLaunchCtx   *c,
              HrShell             *sh,
              gboolean             fp8_online,
              const ServerFlags   *f)
{
  int offload = hr_launch_cpu_offload_gib_per_gpu (c);

  if (hr_launch_kv_quantized (c->sc->kv_type))
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, f->kv_fp8);
    }
  if (c->batch > 1)
    {
      hr_sh_break (sh);
      hr_sh_rawf (sh, "%s %d", f->max_seqs, c->batch);
    }
  if (c->sc->enforce_eager)
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, f->eager);
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
}

/* vLLM's sizing arguments after the model (and after the parallelism flags). */
static void
vllm_args (const HrLaunchCtx *c,
           HrShell           *sh,
           gboolean           fp8_online)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  hr_sh_break (sh);
  hr_sh_rawf (sh, "--max-model-len %" G_GINT64_FORMAT, c->context);
  hr_sh_rawf (sh, "--gpu-memory-utilization %s", hr_launch_fmt2 (buf, sizeof buf, c->util));
  server_flags (c, sh, fp8_online, &vllm_flags);
}

static HrLaunchCommand *
vllm_command (const HrLaunchCtx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "vLLM");
  HrShell sh;

  hr_sh_init (&sh);
  hr_sh_raw (&sh, "vllm serve");
  hr_sh_arg (&sh, c->model->hf_repo);
  if (c->n_gpus > 1)
    {
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "--tensor-parallel-size %d", c->n_gpus);
    }
  vllm_args (c, &sh, fp8_online);
  note_kv_fp8_only (c, notes, "vLLM");
  if (hr_launch_cpu_offload_gib_per_gpu (c) > 0)
    hr_launch_note_add (notes, _("--cpu-offload-gb is per GPU and streams those weights over PCIe every "
                       "step: expect a large slowdown."));
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (HR_ENGINE_VLLM, "vLLM", hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
vllm_ray_command (const HrLaunchCtx    *c,
                  const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "vLLM");
  g_autofree char *title = NULL;
  HrShell sh;

  hr_sh_init (&sh);
  hr_sh_comment (&sh, _("node 0 (head)"));
  hr_sh_raw (&sh, "ray start --head --port=" RAY_PORT);
  hr_sh_comment (&sh, _("every other node"));
  hr_sh_raw (&sh, "ray start --address=" HEAD_HOST ":" RAY_PORT);
  hr_sh_comment (&sh, _("then on the head node, once `ray status` shows every GPU"));
  hr_sh_raw (&sh, "vllm serve");
  hr_sh_arg (&sh, c->model->hf_repo);
  hr_sh_break (&sh);
  hr_sh_rawf (&sh, "--tensor-parallel-size %d --pipeline-parallel-size %d",
           plan->tensor_parallel, plan->pipeline_parallel);
  hr_sh_break (&sh);
  hr_sh_raw (&sh, "--distributed-executor-backend ray");
  vllm_args (c, &sh, fp8_online);

  note_kv_fp8_only (c, notes, "vLLM");
  hr_launch_note_add (notes, _("Tensor parallelism stays inside each node (NVLink) and pipeline "
                     "parallelism crosses nodes; every node needs the same vLLM version and "
                     "the model files at the same path."));
  title = g_strdup_printf (_("vLLM — %d nodes × %d GPUs (Ray, TP %d × PP %d)"),
                           plan->nodes, plan->gpus_per_node,
                           plan->tensor_parallel, plan->pipeline_parallel);
  return hr_launch_command_new (HR_ENGINE_VLLM, title, hr_sh_free (&sh), notes);
}

/* The fraction the estimate sized SGLang's pool with: the user's, else SGLang's own default,
 * written out so the server holds what the estimate says. */
static double
sglang_fraction (const HrLaunchCtx *c)
{
  HrScenario s = *c->sc;

  s.engine = HR_ENGINE_SGLANG;
  return hr_estimate_mem_fraction (&s);
}

/* SGLang's sizing and server arguments after the parallelism flags. */
static void
sglang_args (const HrLaunchCtx *c,
             HrShell           *sh,
             gboolean           fp8_online)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double util;

  hr_sh_break (sh);
  hr_sh_rawf (sh, "--context-length %" G_GINT64_FORMAT, c->context);
  util = sglang_fraction (c);
  hr_sh_rawf (sh, "--mem-fraction-static %s",
              g_ascii_formatd (buf, sizeof buf, fabs (util * 100 - round (util * 100)) < 1e-9 ? "%.2f" : "%.3f", util));
  server_flags (c, sh, fp8_online, &sglang_flags);
  hr_sh_break (sh);
  hr_sh_raw (sh, "--host 0.0.0.0 --port " SGLANG_PORT);
}

static HrLaunchCommand *
sglang_command (const HrLaunchCtx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "SGLang");
  HrShell sh;

  hr_sh_init (&sh);
  hr_sh_raw (&sh, "python -m sglang.launch_server");
  hr_sh_opt (&sh, "--model-path", c->model->hf_repo);
  if (c->n_gpus > 1)
    {
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "--tp %d", c->n_gpus);
    }
  sglang_args (c, &sh, fp8_online);
  note_kv_fp8_only (c, notes, "SGLang");
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (HR_ENGINE_SGLANG, "SGLang", hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
sglang_multinode_command (const HrLaunchCtx    *c,
                          const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  gboolean fp8_online = checkpoint_quant (c, notes, "SGLang");
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
      hr_sh_raw (&sh, "python -m sglang.launch_server");
      hr_sh_opt (&sh, "--model-path", c->model->hf_repo);
      hr_sh_break (&sh);
      hr_sh_rawf (&sh, "--tp %d --nnodes %d", tp, plan->nodes);
      if (listed)
        hr_sh_rawf (&sh, "--node-rank %d", rank);
      else
        hr_sh_raw (&sh, "--node-rank NODE_RANK");
      hr_sh_raw (&sh, "--dist-init-addr " HEAD_HOST ":" SGLANG_DIST_PORT);
      sglang_args (c, &sh, fp8_online);
    }

  note_kv_fp8_only (c, notes, "SGLang");
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
  return plan != NULL ? vllm_ray_command (c, plan) : vllm_command (c);
}

HrLaunchCommand *
hr_launch_sglang (const HrLaunchCtx    *c,
                  const HrParallelPlan *plan)
{
  if (!serves_here (c))
    return NULL;
  return plan != NULL ? sglang_multinode_command (c, plan) : sglang_command (c);
}
