/* hr-launch-llama.c — launch builders of the llama-like engines: llama.cpp and Ollama
 *
 *  - llama.cpp `llama-server`: -hf REPO:TAG or -m FILE, --ctx-size (the whole cache; it is split
 *    across --parallel slots, so context × batch), -ngl (layers on the GPU, 999 = all),
 *    --flash-attn on|off, --cache-type-k/-v (f16 default, q8_0, q4_0; no FP8 type), --n-cpu-moe,
 *    --tensor-split with --split-mode layer, --parallel, --rpc for rpc-server workers.
 *  - Ollama: `ollama run hf.co/REPO:TAG`, server settings from OLLAMA_* environment variables.
 */
#include "hr-launch-private.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "hr-draft.h"
#include "hr-model.h"
#include "hr-placement.h"

#define LLAMA_PORT      "8080"
#define RPC_PORT        "50052"
/* Hugging Face stores files up to 50 GB; bigger GGUF quants are split into shards. */
#define HF_MAX_FILE_BYTES 50e9

/* Layers llama.cpp keeps on the GPU (-ngl); -1 for all of them. */
static int
gpu_layers (const HrLaunchCtx *c)
{
  int n = c->model->n_layers;
  int off;

  if (!(c->sc->offload_pct > 0) || n <= 0)
    return -1;
  off = (int) lround (n * MIN (c->sc->offload_pct, 100.0) / 100.0);
  return CLAMP (n - off, 0, n);
}

/* Speculative decoding (#31), as current llama-server spells it (tools/server/README.md):
 * --spec-type draft-simple with -md FILE (--spec-draft-model) or -hfd REPO:QUANT
 * (--spec-draft-hf), or --spec-type draft-mtp for the model's own MTP layers (PR #22673);
 * --spec-draft-n-max N (the older --draft-max "has been removed"); -ngld (--spec-draft-ngl)
 * all of the draft's layers on the GPUs, as it is sized; -ctkd/-ctvd (--spec-draft-type-k/v)
 * its cache in the model's KV type. */
static void
llama_draft_args (const HrLaunchCtx *c,
                  HrShell           *sh,
                  GString           *notes)
{
  const HrScenario *sc = c->sc;
  const HrModel *d = sc->draft_model;

  if (sc->draft_kind == HR_DRAFT_NONE)
    return;
  if (sc->draft_kind == HR_DRAFT_MTP && !hr_draft_engine_runs_mtp (HR_ENGINE_LLAMA_CPP, c->model, NULL))
    {
      hr_launch_note_add (notes, _("llama.cpp does not run this model’s MTP layers: this command decodes "
                                   "without speculative decoding."));
      return;
    }
  hr_sh_break (sh);
  if (sc->draft_kind == HR_DRAFT_MTP)
    {
      hr_sh_raw (sh, "--spec-type draft-mtp");
      hr_launch_note_add (notes, _("draft-mtp needs a GGUF that keeps the model’s MTP (NextN) layers."));
    }
  else
    {
      hr_sh_raw (sh, "--spec-type draft-simple");
      if (d != NULL && d->gguf_path != NULL)
        hr_sh_opt (sh, "-md", d->gguf_path);
      else if (d != NULL && d->gguf_repo != NULL)
        {
          g_autofree char *spec = g_strdup_printf ("%s:%s", d->gguf_repo, hr_launch_gguf_tag (c));
          hr_sh_opt (sh, "-hfd", spec);
        }
      else
        {
          hr_sh_opt (sh, "-md", "DRAFT.gguf");
          hr_launch_note_add (notes, _("No GGUF repository is known for the draft model: point -md at "
                                       "its GGUF file."));
        }
      hr_sh_raw (sh, "-ngld 999");
    }
  hr_sh_rawf (sh, "--spec-draft-n-max %d",
              sc->draft_max > 0 ? sc->draft_max : hr_draft_default_max (HR_ENGINE_LLAMA_CPP, sc->draft_kind));
  if (sc->kv_type == HR_KV_Q8_0 || sc->kv_type == HR_KV_FP8)
    hr_sh_raw (sh, "-ctkd q8_0 -ctvd q8_0");
  else if (sc->kv_type == HR_KV_Q4_0)
    hr_sh_raw (sh, "-ctkd q4_0 -ctvd q4_0");
}

/* llama-server's model, context, GPU and server arguments. @rpc: "host1:50052,…" or NULL. */
static void
llama_server_args (const HrLaunchCtx *c,
                   HrShell           *sh,
                   GString           *notes,
                   const char        *rpc)
{
  const HrScenario *sc = c->sc;
  int ngl = gpu_layers (c);
  gboolean fa = sc->flash_attn || hr_launch_kv_quantized (sc->kv_type);
  /* different GPUs: the plan's own split, layers and CPU experts (hr-placement.h) */
  g_autofree char *plan_split = c->est != NULL ? hr_placement_tensor_split (sc, c->est) : NULL;

  /* an integrated GPU beside discrete ones is none of llama.cpp's devices (hr-placement.h) */
  int n_devices = c->est != NULL && c->est->placement.left_out != NULL
                  ? c->n_gpus - c->est->placement.n_left_out : c->n_gpus;

  if (plan_split != NULL)
    ngl = c->est->placement.gpu_layers > c->model->n_layers ? -1 : c->est->placement.gpu_layers;
  if (c->est != NULL && c->est->placement.left_out != NULL)
    hr_launch_note_add (notes, _("llama.cpp leaves %s out: it uses an integrated GPU only when there "
                                 "is no other GPU, and that memory is the system RAM."),
                        c->est->placement.left_out->name);

  hr_sh_raw (sh, "llama-server");
  if (hr_launch_use_gguf_repo (c))
    {
      g_autofree char *spec = g_strdup_printf ("%s:%s", c->model->gguf_repo, hr_launch_gguf_tag (c));
      hr_sh_opt (sh, "-hf", spec);
      /* -hf loads the repo's projector too unless told not to (llama.cpp docs/multimodal.md):
       * a multimodal model sized without it launches without it (#31) */
      if ((c->model->vision_params > 0 || c->model->mmproj_bytes > 0) && !(hr_scenario_mmproj (sc, NULL) > 0))
        hr_sh_raw (sh, "--no-mmproj");
    }
  else
    {
      gboolean real = FALSE;
      g_autofree char *path = hr_launch_gguf_path (c, &real);

      hr_sh_opt (sh, "-m", path);
      if (!real)
        hr_launch_note_add (notes, _("No GGUF repository is known for this model: point -m at your "
                           "GGUF file."));
    }
  hr_launch_note_gguf_substitute (c, notes, "llama.cpp");
  /* the vision projector (#31): a named file, or with -hf llama.cpp fetches the repo's own */
  if (hr_scenario_mmproj_path (sc) != NULL)
    {
      hr_sh_break (sh);
      hr_sh_opt (sh, "--mmproj", hr_scenario_mmproj_path (sc));
    }
  if (hr_scenario_mmproj (sc, NULL) > 0 && sc->mmproj_cpu)
    {
      hr_sh_break (sh);
      hr_sh_raw (sh, "--no-mmproj-offload");
    }
  llama_draft_args (c, sh, notes);

  hr_sh_break (sh);
  /* llama-server divides --ctx-size among its --parallel slots. */
  hr_sh_rawf (sh, "--ctx-size %" G_GINT64_FORMAT, c->context * c->batch);
  if (ngl < 0)
    hr_sh_raw (sh, "-ngl 999");
  else
    hr_sh_rawf (sh, "-ngl %d", ngl);
  hr_sh_raw (sh, fa ? "--flash-attn on" : "--flash-attn off");
  if (!sc->flash_attn && fa)
    hr_launch_note_add (notes, _("A quantized V cache needs flash attention, so it is turned on."));
  if (sc->ubatch > 0 && sc->ubatch != 512)
    {
      if (sc->ubatch > 2048)
        hr_sh_rawf (sh, "-b %d", sc->ubatch);
      hr_sh_rawf (sh, "-ub %d", sc->ubatch);
    }

  switch (sc->kv_type)
    {
    case HR_KV_Q8_0:
    case HR_KV_FP8:
      hr_sh_break (sh);
      hr_sh_raw (sh, "--cache-type-k q8_0 --cache-type-v q8_0");
      if (sc->kv_type == HR_KV_FP8)
        hr_launch_note_add (notes, _("llama.cpp has no FP8 KV cache; q8_0 is the nearest (34 bytes per "
                           "32 values instead of 32)."));
      break;
    case HR_KV_Q4_0:
      hr_sh_break (sh);
      hr_sh_raw (sh, "--cache-type-k q4_0 --cache-type-v q4_0");
      break;
    case HR_KV_F16:
    default:
      break;
    }

  if (sc->n_cpu_moe > 0 && hr_model_is_moe (c->model))
    {
      hr_sh_break (sh);
      hr_sh_rawf (sh, "--n-cpu-moe %d", MIN (sc->n_cpu_moe, c->model->n_layers));
    }

  if (rpc != NULL)
    {
      hr_sh_break (sh);
      hr_sh_opt (sh, "--rpc", rpc);
    }
  else if (plan_split != NULL)
    {
      hr_sh_break (sh);
      hr_sh_opt (sh, "--tensor-split", plan_split);
      hr_sh_raw (sh, "--split-mode layer");
    }
  else if (n_devices > 1 && !hr_gpu_is_unified (c->gpu))
    {
      g_autoptr(GString) split = g_string_new ("1");

      for (int i = 1; i < n_devices; i++)
        g_string_append (split, ",1");
      hr_sh_break (sh);
      hr_sh_opt (sh, "--tensor-split", split->str);
      hr_sh_raw (sh, "--split-mode layer");
    }

  if (c->batch > 1)
    {
      hr_sh_break (sh);
      hr_sh_rawf (sh, "--parallel %d", c->batch);
    }

  hr_sh_break (sh);
  hr_sh_raw (sh, "--jinja --host 0.0.0.0 --port " LLAMA_PORT);
}

static HrLaunchCommand *
llama_cpp_command (const HrLaunchCtx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  HrShell sh;

  hr_sh_init (&sh);
  llama_server_args (c, &sh, notes, NULL);

  if (c->backend == HR_BACKEND_OTHER)
    hr_launch_note_add (notes, _("llama.cpp has no backend for %s: it would run on the CPU. Use the "
                       "vendor’s vLLM build instead."),
              c->gpu->stack != NULL ? c->gpu->stack : c->gpu->name);
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (HR_ENGINE_LLAMA_CPP, _("llama.cpp (llama-server)"), hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
llama_cpp_rpc_command (const HrLaunchCtx    *c,
                       const HrParallelPlan *plan)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(GString) hosts = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *comment = NULL;
  HrShell sh;

  for (int i = 1; i < plan->nodes; i++)
    g_string_append_printf (hosts, "%shost%d:" RPC_PORT, i > 1 ? "," : "", i);

  hr_sh_init (&sh);
  comment = g_strdup_printf (_("on each of the %d worker nodes (host1 … host%d)"),
                             plan->nodes - 1, plan->nodes - 1);
  hr_sh_comment (&sh, comment);
  hr_sh_raw (&sh, "rpc-server -H 0.0.0.0 -p " RPC_PORT);
  hr_sh_comment (&sh, _("on the head node"));
  llama_server_args (c, &sh, notes, hosts->str);

  hr_launch_note_add (notes, _("llama.cpp spreads the layers over the local and RPC devices one after "
                     "another (no tensor parallelism), so tokens cross the network at every "
                     "node boundary. Older rpc-server builds serve one GPU each: then start "
                     "one per GPU (CUDA_VISIBLE_DEVICES=i, -p 50052+i) and list them all in "
                     "--rpc. rpc-server has no authentication: keep it on a private "
                     "network."));
  title = g_strdup_printf (_("llama.cpp RPC — %d nodes × %d GPUs"),
                           plan->nodes, plan->gpus_per_node);
  return hr_launch_command_new (HR_ENGINE_LLAMA_CPP, title, hr_sh_free (&sh), notes);
}

static HrLaunchCommand *
ollama_command (const HrLaunchCtx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  const HrScenario *sc = c->sc;
  const char *kv = NULL;
  HrShell sh;

  switch (sc->kv_type)
    {
    case HR_KV_FP8:
      hr_launch_note_add (notes, _("Ollama has no FP8 KV cache; q8_0 is the nearest."));
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

  hr_sh_init (&sh);
  /* Ollama gives each of its OLLAMA_NUM_PARALLEL slots the whole context. */
  hr_sh_rawf (&sh, "OLLAMA_CONTEXT_LENGTH=%" G_GINT64_FORMAT, c->context);
  if (c->batch > 1)
    hr_sh_rawf (&sh, "OLLAMA_NUM_PARALLEL=%d", c->batch);
  if (kv != NULL)
    hr_sh_rawf (&sh, "OLLAMA_KV_CACHE_TYPE=%s", kv);
  if (sc->flash_attn || kv != NULL)
    hr_sh_raw (&sh, "OLLAMA_FLASH_ATTENTION=1");
  hr_sh_raw (&sh, "ollama serve");
  hr_sh_end (&sh);

  if (hr_launch_use_gguf_repo (c))
    {
      g_autofree char *ref = g_strdup_printf ("hf.co/%s:%s", c->model->gguf_repo, hr_launch_gguf_tag (c));

      hr_sh_raw (&sh, "ollama run");
      hr_sh_arg (&sh, ref);
      if (c->est != NULL && c->est->weights.bytes > HF_MAX_FILE_BYTES)
        hr_launch_note_add (notes, _("At this size the GGUF is split into shards, which Ollama cannot "
                           "pull from hf.co: download the shards and import them with a "
                           "Modelfile and `ollama create`."));
    }
  else
    {
      gboolean real = FALSE;
      g_autofree char *path = hr_launch_gguf_path (c, &real);
      g_autofree char *from = g_strconcat ("FROM ", path, NULL);
      const char *name = c->model->id != NULL && *c->model->id != '\0' ? c->model->id : "model";

      /* a user's model is "user:slug": Ollama would read the colon as a tag */
      if (g_str_has_prefix (name, HR_USERDATA_ID_PREFIX) && name[strlen (HR_USERDATA_ID_PREFIX)] != '\0')
        name += strlen (HR_USERDATA_ID_PREFIX);

      hr_sh_raw (&sh, "echo");
      hr_sh_arg (&sh, from);
      hr_sh_raw (&sh, "> Modelfile");
      hr_sh_end (&sh);
      hr_sh_raw (&sh, "ollama create");
      hr_sh_arg (&sh, name);
      hr_sh_raw (&sh, "-f Modelfile");
      hr_sh_end (&sh);
      hr_sh_raw (&sh, "ollama run");
      hr_sh_arg (&sh, name);
    }
  hr_launch_note_gguf_substitute (c, notes, "Ollama");

  if (sc->offload_pct > 0 || sc->n_cpu_moe > 0)
    hr_launch_note_add (notes, _("Ollama chooses the GPU layers itself and offloads what does not fit; "
                       "it has no per-expert CPU placement."));
  if (c->n_gpus > 1)
    hr_launch_note_add (notes, _("Ollama splits layers across the GPUs (no tensor parallelism)."));
  if (sc->draft_kind != HR_DRAFT_NONE)
    hr_launch_note_add (notes, _("Speculative decoding is sized for llama.cpp, vLLM and SGLang only: "
                                 "this command decodes without the draft."));
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (HR_ENGINE_OLLAMA, "Ollama", hr_sh_free (&sh), notes);
}

/* ---- builders ------------------------------------------------------------------------------ */

HrLaunchCommand *
hr_launch_llama_cpp (const HrLaunchCtx    *c,
                     const HrParallelPlan *plan)
{
  return plan != NULL ? llama_cpp_rpc_command (c, plan) : llama_cpp_command (c);
}

/* Ollama has no multi-node mode. */
HrLaunchCommand *
hr_launch_ollama (const HrLaunchCtx    *c,
                  const HrParallelPlan *plan)
{
  return plan != NULL ? NULL : ollama_command (c);
}
