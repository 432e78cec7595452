/* hr-launch.c — launch commands for the scenario, per engine, incl. multi-node plans
 *
 * Every engine in the engine table (hr-engine-list.h) names its launch builder
 * (hr-launch-llama.c, hr-launch-server.c, hr-launch-mlx.c); this file sizes what each command
 * loads, plans the multi-node layouts and asks every builder in table order.
 */
#include "hr-launch-private.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "hr-units.h"

static const HrLaunchBuilder builders[] = {
#define HR_ENGINE_ENTRY(e, id, name, family, loads, kv, builder) [HR_ENGINE_##e] = builder,
#include "hr-engine-list.h"
#undef HR_ENGINE_ENTRY
};

G_STATIC_ASSERT (G_N_ELEMENTS (builders) == HR_N_ENGINES);

/* The GGUF tag llama.cpp and Ollama load for the scenario's quant. */
const char *
hr_launch_gguf_tag (const HrLaunchCtx *c)
{
  switch (c->format)
    {
    case HR_QUANT_FORMAT_FLOAT:
      if (g_ascii_strcasecmp (c->quant, "FP16") == 0)
        return "F16";
      if (g_ascii_strcasecmp (c->quant, "native") == 0)
        return "BF16";
      return c->quant;
    case HR_QUANT_FORMAT_FP8:
    case HR_QUANT_FORMAT_INT8:
      return "Q8_0";
    case HR_QUANT_FORMAT_INT4:
    case HR_QUANT_FORMAT_NVFP4:
      return "Q4_K_M";
    case HR_QUANT_FORMAT_MXFP4:
    case HR_QUANT_FORMAT_GGUF:
    default:
      return c->quant;
    }
}

void
hr_launch_note_gguf_substitute (const HrLaunchCtx *c,
                                GString           *notes,
                                const char        *engine)
{
  g_autofree char *text = hr_engine_load_text (&c->load);

  (void) engine;
  if (text != NULL)
    hr_launch_note_add (notes, "%s", text);
  else if (c->format == HR_QUANT_FORMAT_MXFP4)
    hr_launch_note_add (notes, _("Check the repository’s file list for the MXFP4 GGUF tag."));
}

static const char *
repo_basename (const char *repo)
{
  const char *slash = repo != NULL ? strrchr (repo, '/') : NULL;

  return slash != NULL ? slash + 1 : repo;
}

const char *
hr_launch_model_short_name (const HrModel *m)
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
char *
hr_launch_gguf_path (const HrLaunchCtx *c,
                     gboolean          *is_real_file)
{
  if (c->gguf_file != NULL && *c->gguf_file != '\0')
    {
      *is_real_file = TRUE;
      return g_strdup (c->gguf_file);
    }
  *is_real_file = FALSE;
  return g_strdup_printf ("%s-%s.gguf", hr_launch_model_short_name (c->model), hr_launch_gguf_tag (c));
}

static gboolean
has_gguf_repo (const HrModel *m)
{
  return m->gguf_repo != NULL && *m->gguf_repo != '\0';
}

/* Pull the GGUF from its Hugging Face repository, unless the user opened a local file. */
gboolean
hr_launch_use_gguf_repo (const HrLaunchCtx *c)
{
  return (c->gguf_file == NULL || *c->gguf_file == '\0') && has_gguf_repo (c->model);
}

gboolean
hr_launch_has_hf_repo (const HrModel *m)
{
  return m->hf_repo != NULL && *m->hf_repo != '\0';
}

gboolean
hr_launch_native_is_fp8 (const HrModel *m)
{
  return m->native_dtype != NULL && hr_launch_has_prefix_ci (m->native_dtype, "FP8");
}

gboolean
hr_launch_kv_quantized (HrKvType kv)
{
  return kv != HR_KV_F16;
}

void
hr_launch_note_common (const HrLaunchCtx *c,
                       GString           *notes)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  if (c->model->max_context > 0 && c->context > c->model->max_context)
    hr_launch_note_add (notes, _("%lld tokens is beyond the model’s trained context "
                       "(%lld); the engine needs RoPE scaling enabled."),
              (long long) c->context, (long long) c->model->max_context);
  if (c->est == NULL || c->est->verdict != HR_VERDICT_EXCEEDS)
    return;
  /* a note is read: "213,16 GiB" in German, '.' where JSON builds it under hr_c_numeric_begin () */
  hr_format_number_locale_buf (a, sizeof a, hr_to_gib (c->est->required_bytes), 2);
  hr_format_number_locale_buf (b, sizeof b, hr_to_gib (c->est->usable_bytes), 2);
  if (c->loaded != NULL)
    hr_launch_note_add (notes, _("Loading %s this needs %s GiB against %s GiB usable: it will not load "
                       "on this hardware."), c->loaded, a, b);
  else
    hr_launch_note_add (notes, _("As sized this needs %s GiB against %s GiB usable: it will not load "
                       "(see the diagnosis)."), a, b);
}

/* GiB per GPU vLLM/SGLang should keep in CPU memory (--cpu-offload-gb); 0 for none.  Only
 * when the scenario offloads: the flag streams weights over PCIe on every step. */
int
hr_launch_cpu_offload_gib_per_gpu (const HrLaunchCtx *c)
{
  if (!(c->sc->offload_pct > 0) && c->sc->n_cpu_moe <= 0)
    return 0;
  if (c->est == NULL || !(c->est->system_ram_bytes > 0))
    return 0;
  return (int) ceil (hr_to_gib (c->est->system_ram_bytes) / c->n_gpus);
}

/* @c for @engine's command: its estimate is of what that command loads on this hardware
 * (hr_engine_load (), the table the estimate sizes by), so its "will it load" note and its
 * offload flag speak of the same weights as the command.  The scenario's own engine uses the
 * estimate the verdict shows. */
static HrLaunchCtx
ctx_for_engine (const HrLaunchCtx *c,
                HrEngine           engine,
                HrEstimate        *storage)
{
  HrLaunchCtx e = *c;
  HrScenario s;

  if (engine == c->sc->engine && c->est != NULL)
    e.est = c->est;
  else
    {
      s = *c->sc;
      s.engine = engine;
      /* --tensor-split is llama.cpp's own */
      if (engine != HR_ENGINE_LLAMA_CPP)
        s.n_tensor_split = 0;
      e.est = hr_estimate_compute (&s, NULL, storage, NULL) ? storage : NULL;
    }
  if (e.est != NULL)
    e.load = e.est->load;
  else
    hr_engine_load (engine, c->model, c->quant, &e.load);
  /* points into the estimate, which outlives the context (the caller's storage) */
  e.loaded = e.est != NULL && e.est->load.kind == HR_LOAD_SUBSTITUTE ? e.est->load.quant : NULL;
  return e;
}

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

static void
add_command (GPtrArray         *commands,
             const HrLaunchCtx *c,
             HrLaunchCommand   *cmd)
{
  if (cmd == NULL)
    return;
  g_strlcpy (cmd->loaded_quant, c->load.quant, sizeof cmd->loaded_quant);
  g_ptr_array_add (commands, cmd);
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
  int per_node;
  HrLaunchCtx c, ctx[HR_N_ENGINES];
  HrEstimate est[HR_N_ENGINES];

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
  c.format = hr_quant_format (c.quant);
  c.n_gpus = MAX (scenario->n_gpus, 1);
  c.batch = MAX (scenario->batch, 1);
  c.context = MAX (scenario->context, 1);
  c.util = scenario->gpu_mem_util > 0 && scenario->gpu_mem_util <= 1
           ? scenario->gpu_mem_util : HR_DEFAULT_GPU_MEM_UTIL;

  commands = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_launch_command_free);
  for (int e = 0; e < HR_N_ENGINES; e++)
    {
      ctx[e] = ctx_for_engine (&c, (HrEngine) e, &est[e]);
      /* different GPUs: only the engines that split layers among them (the estimate says
       * why the others do not) */
      if (hr_scenario_is_mixed (scenario) && !hr_engine_is_llama_like ((HrEngine) e) &&
          (ctx[e].est == NULL || ctx[e].est->placement.split != HR_SPLIT_PIPELINE))
        continue;
      add_command (commands, &ctx[e], builders[e] (&ctx[e], NULL));
    }
  if (hr_scenario_is_mixed (scenario))
    return commands;

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

  /* Tensor-parallel plans (server-like engines) first, then the layer splits. */
  for (int pass = 0; multi_node && pass < 2; pass++)
    for (int e = 0; e < HR_N_ENGINES; e++)
      if (hr_engine_is_server_like ((HrEngine) e) == (pass == 0))
        add_command (commands, &ctx[e], builders[e] (&ctx[e], &plan));

  return commands;
}

