/* hr-cli-common.c — scenario options shared by headroom-cli's commands */
#include "hr-cli-common.h"
#include "hr-draft.h"

#include "hr-cli-hub.h"
#include "hr-engine-load.h"
#include "hr-gguf.h"
#include "hr-hfconfig.h"
#include "hr-projector.h"
#include "hr-text.h"
#include "hr-units.h"
#include "hr-user-calibration.h"
#include "hr-userdata.h"

#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (hr-cli-error-quark, hr_cli_error)

void
hr_cli_args_init (HrCliArgs *args)
{
  memset (args, 0, sizeof *args);
  args->gpus = G_MININT;   /* not given: 1, or the detected count with --gpu this */
  args->batch = 1;
  args->offload_pct = 0;
  args->reserve_pct = HR_DEFAULT_RESERVE * 100;
  args->gpu_mem_util = NAN;   /* not given: the engine's default */
  args->max_num_seqs = -1;   /* not given: the engine's default */
  args->draft_max = -1;      /* not given: the engine's default */
  args->prompt = HR_DEFAULT_PROMPT;
  args->ubatch = 512;
}

void
hr_cli_args_clear (HrCliArgs *args)
{
  g_free (args->model);
  g_free (args->model_config);
  g_free (args->gguf);
  g_free (args->mmproj);
  g_free (args->draft);
  g_free (args->draft_accept);
  g_free (args->hf);
  g_strfreev (args->gpu);
  g_free (args->gpu_custom);
  g_free (args->quant);
  g_free (args->min_user_tps);
  g_free (args->context);
  g_free (args->depth);
  g_free (args->kv_type);
  g_free (args->engine);
  g_free (args->engine_version);
  g_free (args->backend);
  g_free (args->tensor_split);
  memset (args, 0, sizeof *args);
}

const char *
hr_cli_engine_choices (void)
{
  static char *choices = NULL;

  if (choices == NULL)
    choices = hr_engine_list_ids ("|");
  return choices;
}

gboolean
hr_cli_engine_parse (const char  *str,
                     HrEngine    *engine,
                     GError     **error)
{
  g_autofree char *ids = NULL;

  if (hr_engine_from_string (str, engine))
    return TRUE;
  ids = hr_engine_list_ids (", ");
  g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "--engine: unknown engine “%s” (%s)", str, ids);
  return FALSE;
}

GOptionGroup *
hr_cli_scenario_options (HrCliArgs *args)
{
  const GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &args->model, "Model id (see: list models)", "ID" },
    { "model-config", 0, 0, G_OPTION_ARG_FILENAME, &args->model_config, "A Hugging Face config.json", "FILE" },
    { "gguf", 0, 0, G_OPTION_ARG_FILENAME, &args->gguf, "A local GGUF file (exact tensor sizes)", "FILE" },
    { "hf", 0, 0, G_OPTION_ARG_STRING, &args->hf,
      "A Hugging Face Hub repository, sized from its file headers (ORG/NAME[@REV][:QUANT|:FILE])", "REPO" },
    { "refresh", 0, 0, G_OPTION_ARG_NONE, &args->refresh, "With --hf: ask the Hub again even when cached", NULL },
    { "mmproj", 0, 0, G_OPTION_ARG_FILENAME, &args->mmproj,
      "Vision projector: auto (default: the model's own where llama.cpp loads one — the catalog's, the --hf repo's, an mmproj*.gguf beside --gguf), none, or a GGUF file", "auto|none|FILE" },
    { "no-mmproj-offload", 0, 0, G_OPTION_ARG_NONE, &args->no_mmproj_offload,
      "Keep the vision projector in system RAM", NULL },
    { "draft", 0, 0, G_OPTION_ARG_STRING, &args->draft,
      "Speculative decoding: a draft model of the same tokenizer (see: list models, or a GGUF file), mtp (the model's own MTP layers) or none (default)", "MODEL|FILE.gguf|mtp|none" },
    { "draft-accept", 0, 0, G_OPTION_ARG_STRING, &args->draft_accept,
      "With --draft: the chance each drafted token is accepted, 0 to 0.99 or a percent (default: a published measurement: 0.89 draft model, 0.85 MTP)", "P" },
    { "draft-max", 0, 0, G_OPTION_ARG_INT, &args->draft_max,
      "With --draft: tokens drafted a pass (default: llama.cpp 3, vLLM 5, SGLang 3; MTP 1)", "N" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args->gpu, "GPU id (see: list gpus); repeat for compare", "ID" },
    { "no-user-data", 0, 0, G_OPTION_ARG_NONE, &args->no_user_data,
      "Leave out your saved models and GPUs (“user:…”): the bundled catalog alone", NULL },
    { "gpu-custom", 0, 0, G_OPTION_ARG_STRING, &args->gpu_custom,
      "Custom GPU: memory_gib=..,bandwidth_gbs=..,fp16_tflops=..[,unified=true]", "SPEC" },
    { "all-gpus", 0, 0, G_OPTION_ARG_NONE, &args->all_gpus, "Compare every GPU in the catalog", NULL },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &args->gpus, "Number of GPUs (tensor parallel)", "N" },
    { "quant", 0, 0, G_OPTION_ARG_STRING, &args->quant, "Quantization (Q4_K_M, Q8_0, BF16, FP8…)", "Q" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &args->context, "Context window in tokens (32768, 32k)", "N" },
    { "depth", 0, 0, G_OPTION_ARG_STRING, &args->depth,
      "Tokens already in the context while generating (default: the context)", "N" },
    { "batch", 0, 0, G_OPTION_ARG_INT, &args->batch, "Concurrent sequences", "N" },
    { "kv-type", 0, 0, G_OPTION_ARG_STRING, &args->kv_type, "KV cache: f16|fp8|q8_0|q4_0", "T" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &args->engine, hr_cli_engine_choices (), "E" },
    { "engine-version", 0, 0, G_OPTION_ARG_STRING, &args->engine_version,
      "current|2024: which engine builds the speeds and memory describe (current)", "V" },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &args->backend, "cuda|rocm|metal|vulkan|sycl|cpu (default: from the GPU)", "B" },
    { "offload-pct", 0, 0, G_OPTION_ARG_DOUBLE, &args->offload_pct, "Percent of layers kept in system RAM", "P" },
    { "n-cpu-moe", 0, 0, G_OPTION_ARG_INT, &args->n_cpu_moe, "MoE: layers whose experts stay on the CPU", "N" },
    { "tensor-split", 0, 0, G_OPTION_ARG_STRING, &args->tensor_split,
      "llama.cpp: the share of layers of each device, in --gpu order (3,1)", "A,B[,C]" },
    { "reserve-pct", 0, 0, G_OPTION_ARG_DOUBLE, &args->reserve_pct, "Memory held back, percent (5)", "P" },
    { "gpu-memory-utilization", 0, 0, G_OPTION_ARG_DOUBLE, &args->gpu_mem_util, "vLLM/SGLang memory fraction (default: vLLM 0.90, SGLang its own by GPU memory and TP)", "F" },
    { "max-num-seqs", 0, 0, G_OPTION_ARG_INT, &args->max_num_seqs, "vLLM/SGLang sequences per step (default: the engine's, 1024 at 70 GiB and up except A100, else 256)", "N" },
    { "prompt", 0, 0, G_OPTION_ARG_INT, &args->prompt, "Prompt tokens for time to first token (4096)", "N" },
    { "min-user-tps", 0, 0, G_OPTION_ARG_STRING, &args->min_user_tps, "vLLM/SGLang: the decode speed each user needs, tok/s: the load curve finds how many users get it", "N" },
    { "ubatch", 0, 0, G_OPTION_ARG_INT, &args->ubatch, "llama.cpp micro-batch (512)", "N" },
    { "no-flash-attn", 0, 0, G_OPTION_ARG_NONE, &args->no_flash_attn, "llama.cpp without flash attention", NULL },
    { "enforce-eager", 0, 0, G_OPTION_ARG_NONE, &args->enforce_eager,
      "vLLM/SGLang without CUDA graphs (vLLM --enforce-eager, SGLang --disable-cuda-graph)", NULL },
    { "free-memory", 0, 0, G_OPTION_ARG_NONE, &args->free_memory,
      "With --gpu this: size against the memory free now, not the total", NULL },
    { "no-calibration", 0, 0, G_OPTION_ARG_NONE, &args->no_calibration,
      "Leave out the calibration of the GPU from your own runs (headroom-cli calibrate)", NULL },
    HR_CLI_JSON_OPTION (args->json),
    { "csv", 0, 0, G_OPTION_ARG_NONE, &args->csv, "CSV output", NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("scenario", "Scenario options:", "Show scenario options", NULL, NULL);

  g_option_group_add_entries (group, entries);
  return group;
}

/* Sets a usage error (exit 2) and is FALSE, for `return usage (error, …);` */
#define usage(error, ...) \
  (g_set_error ((error), HR_CLI_ERROR, HR_CLI_ERROR_USAGE, __VA_ARGS__), FALSE)

/* --tensor-split "3,1" (or "3/1", as llama.cpp's common/arg.cpp splits it on [,/]) into
 * @s: one number from 0 up per device of the setup, not all zero. */
static gboolean
parse_tensor_split (const char  *text,
                    HrScenario  *s,
                    GError     **error)
{
  g_auto(GStrv) parts = g_regex_split_simple ("[,/]", text, 0, 0);
  int n = (int) g_strv_length (parts);
  double sum = 0;

  if (s->engine != HR_ENGINE_LLAMA_CPP)
    return usage (error, "--tensor-split is llama.cpp's: %s does not take it", hr_engine_display_name (s->engine));
  if (s->n_gpus < 2)
    return usage (error, "--tensor-split needs several devices (--gpu A --gpu B, or --gpu ID:N)");
  if (n != s->n_gpus || n > HR_MAX_MIXED_GPUS)
    return usage (error, "--tensor-split: %d values for %d devices; give one per device, in --gpu order",
                  n, s->n_gpus);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *v = g_strstrip (g_strdup (parts[i]));
      char *end = NULL;
      double x = g_ascii_strtod (v, &end);

      if (*v == '\0' || end == v || *end != '\0' || !isfinite (x))
        return usage (error, "--tensor-split: “%.40s” is not a number", parts[i]);
      if (x < 0 || x >= 1e9)
        return usage (error, "--tensor-split: %.40s is out of range (0 up to 1e9)", parts[i]);
      s->tensor_split[i] = x;
      sum += x;
    }
  if (!(sum > 0))
    return usage (error, "--tensor-split: all values are zero; at least one device must take layers");
  s->n_tensor_split = n;
  return TRUE;
}

/* --draft, --draft-accept and --draft-max (#31): the draft model from the catalog (or the
 * user's models), checked against the model and engine (hr_draft_check ()). */
/* --draft FILE.gguf: the draft's architecture and exact tensor bytes from its header; llama.cpp
 * loads it with -md FILE. */
static HrModel *
load_draft_file (const char  *path,
                 GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(HrGguf) gguf = hr_gguf_load_split (path, &local);
  HrModel *model;

  if (gguf == NULL || (model = hr_gguf_to_model (gguf, &local)) == NULL)
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "--draft: %s: %s", path, local->message);
      return NULL;
    }
  model->gguf_path = g_canonicalize_filename (path, NULL);
  return model;
}

static gboolean
resolve_draft (const HrCliArgs *args,
               const HrCatalog *catalog,
               HrCliScenario   *out,
               HrScenario      *s,
               GError         **error)
{
  g_autoptr(GError) local = NULL;

  s->draft_kind = HR_DRAFT_NONE;
  if (args->draft == NULL || g_strcmp0 (args->draft, "none") == 0)
    {
      if (args->draft_accept != NULL || args->draft_max != -1)
        return usage (error, "--draft-accept and --draft-max need --draft MODEL or --draft mtp");
      return TRUE;
    }
  if (g_strcmp0 (args->draft, "mtp") == 0)
    s->draft_kind = HR_DRAFT_MTP;
  else if (g_str_has_suffix (args->draft, ".gguf") || g_str_has_suffix (args->draft, ".GGUF"))
    {
      out->draft_model = load_draft_file (args->draft, error);
      if (out->draft_model == NULL)
        return FALSE;
      s->draft_model = out->draft_model;
      s->draft_kind = HR_DRAFT_MODEL;
    }
  else
    {
      s->draft_model = hr_cli_find_model (catalog, args->draft, &local);
      if (s->draft_model == NULL)
        return usage (error, "--draft: %s", local->message);
      s->draft_kind = HR_DRAFT_MODEL;
    }
  if (args->draft_accept != NULL)
    {
      char *end = NULL;
      double v = g_ascii_strtod (args->draft_accept, &end);

      if (end != args->draft_accept && g_strcmp0 (end, "%") == 0)
        v /= 100.0, end++;
      if (end == args->draft_accept || *end != '\0' || !isfinite (v) || v < 0 || v > 0.99)
        return usage (error, "--draft-accept: “%.40s” is not an acceptance between 0 and 0.99 (or 0%% and 99%%)",
                      args->draft_accept);
      s->draft_accept = v;
    }
  if (args->draft_max != -1 && (args->draft_max < 1 || args->draft_max > HR_MAX_DRAFT_TOKENS))
    return usage (error, "--draft-max must be between 1 and %d (got %d)", HR_MAX_DRAFT_TOKENS, args->draft_max);
  s->draft_max = MAX (args->draft_max, 0);
  if (!hr_draft_check (s, &local))
    return usage (error, "--draft: %s", local->message);
  return TRUE;
}

/* The long options @ctx knows ("--context", …), read from its help: every group's entries,
 * whoever added them. */
static GPtrArray *
known_options (GOptionContext *ctx)
{
  g_autofree char *help = g_option_context_get_help (ctx, FALSE, NULL);
  g_auto(GStrv) lines = g_strsplit (help, "\n", -1);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = strstr (lines[i], "--");
      gsize n = 2;

      /* "  -h, --help", "  --context=N   Context window…": the first "--" of the line */
      if (p == NULL || strspn (lines[i], " -h,?") < (gsize) (p - lines[i]))
        continue;
      while (g_ascii_isalnum (p[n]) || p[n] == '-')
        n++;
      if (n > 2)
        g_ptr_array_add (names, g_strndup (p, n));
    }
  g_ptr_array_add (names, NULL);
  return names;
}

char *
hr_cli_option_hint (GOptionContext *ctx,
                    const GError   *error,
                    int             argc,
                    char          **argv)
{
  g_autoptr(GPtrArray) names = NULL;

  if (!g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION))
    return g_strdup ("");
  names = known_options (ctx);
  for (int i = 1; i < argc && argv[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      const char *near;
      gboolean known = FALSE;

      if (g_str_equal (argv[i], "--"))
        break;
      if (!g_str_has_prefix (argv[i], "--"))
        continue;
      name = g_strndup (argv[i], strcspn (argv[i], "="));
      for (guint k = 0; names->pdata[k] != NULL; k++)
        known |= g_str_equal (name, names->pdata[k]);
      if (known)
        continue;
      near = hr_text_nearest (name, (const char * const *) names->pdata);
      return near != NULL ? g_strdup_printf ("; did you mean “%s”?", near) : g_strdup ("");
    }
  return g_strdup ("");
}

gboolean
hr_cli_parse_options (int                 *argc,
                      char              ***argv,
                      const HrCliOptions  *options,
                      GError             **error)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new (options->parameter);
  g_autoptr(GError) local = NULL;
  /* GOption rearranges the vector: keep the words as typed for a "did you mean" */
  g_autofree char **typed = g_memdup2 (*argv, sizeof (char *) * (*argc + 1));
  int n_typed = *argc;

  if (options->summary != NULL)
    g_option_context_set_summary (ctx, options->summary);
  /* the scenario options are the command's own: --help lists them (not behind --help-scenario) */
  if (options->group != NULL)
    g_option_context_set_main_group (ctx, options->group);
  if (options->json != NULL)
    {
      const GOptionEntry json[] = { HR_CLI_JSON_OPTION (*options->json), { NULL } };

      g_option_context_add_main_entries (ctx, json, NULL);
    }
  if (options->entries != NULL)
    g_option_context_add_main_entries (ctx, options->entries, NULL);
  if (!g_option_context_parse (ctx, argc, argv, &local))
    {
      g_autofree char *hint = hr_cli_option_hint (ctx, local, n_typed, typed);

      return usage (error, "%s%s", local->message, hint);
    }
  if (!options->positional && *argc > 1)
    return usage (error, "unexpected argument “%s”", (*argv)[1]);
  return TRUE;
}

/* A token count that may be 0 (an empty context). */
static gboolean
parse_depth (const char *str,
             gint64     *out)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (str));

  if (g_strcmp0 (trimmed, "0") == 0)
    {
      *out = 0;
      return TRUE;
    }
  return hr_parse_context (str, out);
}

static char *
suggestions_text (GPtrArray *ids)
{
  GString *s;

  if (ids == NULL || ids->len == 0)
    return g_strdup ("");
  s = g_string_new ("; did you mean ");
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *) g_ptr_array_index (ids, i));
  g_string_append (s, "?");
  return g_string_free (s, FALSE);
}

/* "unknown GPU “X”; did you mean …? (see: headroom-cli list gpus)"; takes @near. */
static void
unknown_entry (GError     **error,
               const char  *what,
               const char  *id,
               GPtrArray   *near,
               const char  *list)
{
  g_autofree char *hint = suggestions_text (near);

  g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "unknown %s “%s”%s (see: headroom-cli list %s)",
               what, id, hint, list);
  g_clear_pointer (&near, g_ptr_array_unref);
}

const HrModel *
hr_cli_find_model (const HrCatalog  *catalog,
                   const char       *id,
                   GError          **error)
{
  const HrModel *model = hr_catalog_lookup_model (catalog, id);

  if (model == NULL)
    unknown_entry (error, "model", id, hr_catalog_suggest_models (catalog, id, 3), "models");
  return model;
}

const HrGpu *
hr_cli_find_gpu (const HrCatalog  *catalog,
                 const char       *id,
                 GError          **error)
{
  const HrGpu *gpu = hr_catalog_lookup_gpu (catalog, id);

  if (gpu == NULL)
    unknown_entry (error, "GPU", id, hr_catalog_suggest_gpus (catalog, id, 3), "gpus");
  return gpu;
}

static HrModel *
load_model_file (const HrCliArgs  *args,
                 GError          **error)
{
  g_autoptr(GError) local = NULL;
  HrModel *model = NULL;

  if (args->model_config)
    {
      model = hr_hfconfig_load_file (args->model_config, &local);
      if (model == NULL)
        g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "%s: %s", args->model_config, local->message);
      return model;
    }

  {
    g_autoptr(HrGguf) gguf = hr_gguf_load_split (args->gguf, &local);
    if (gguf == NULL)
      {
        g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "%s: %s", args->gguf, local->message);
        return NULL;
      }
    model = hr_gguf_to_model (gguf, &local);
    if (model == NULL)
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "%s: %s", args->gguf, local->message);
    return model;
  }
}

/* The projector's weights: every tensor of its GGUF, exact from the header; its image
 * encoder's shape from the same header (hr-projector.h). */
static gboolean
resolve_mmproj (const HrCliArgs *args,
                HrCliScenario   *out,
                double          *bytes,
                HrVisionEncoder *encoder,
                GError         **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *path = NULL;

  *bytes = 0;
  if (g_strcmp0 (args->mmproj, "none") == 0)
    {
      if (args->no_mmproj_offload)
        return usage (error, "--no-mmproj-offload needs --mmproj auto or FILE");
      return TRUE;
    }
  if (args->mmproj == NULL || g_strcmp0 (args->mmproj, "auto") == 0)
    {
      if (args->hf != NULL || args->gguf == NULL)
        return TRUE;  /* the Hub repo has no projector, or the catalog model: a text-only model */
      path = hr_projector_find_beside (args->gguf);
      if (path == NULL)
        return TRUE;  /* none found: a text-only model */
    }
  else
    path = g_strdup (args->mmproj);

  gguf = hr_gguf_load_file (path, &local);
  if (gguf == NULL)
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "--mmproj: %s: %s", path, local->message);
      return FALSE;
    }
  *bytes = (double) hr_gguf_get_tensor_bytes (gguf);
  hr_projector_encoder_from_gguf (gguf, encoder);
  if (!(*bytes > 0))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "--mmproj: %s: no tensors", path);
      return FALSE;
    }
  out->mmproj_path = g_steal_pointer (&path);
  return TRUE;
}

gboolean
hr_cli_scenario_resolve (const HrCliArgs  *args,
                         const HrCatalog  *catalog,
                         gboolean          need_gpu,
                         HrCliScenario    *out,
                         GError          **error)
{
  const HrModel *model = NULL;
  const HrGpu *gpu = NULL;
  HrScenario *s = &out->scenario;
  int n_sources;
  int n_this = 0;
  g_autofree char *hub_quant = NULL;
  g_autofree char *hub_mmproj = NULL;   /* --hf with --mmproj auto: the repo's projector */
  guint64 hub_mmproj_bytes = 0;
  HrVisionEncoder hub_encoder = { 0 };
  HrDeviceKind kinds[64];
  int n_kinds = 0;
  gboolean counted = FALSE;
  /* --mmproj absent is auto (#31): llama-server -hf loads the repo's projector unless told
   * --no-mmproj, so the model's own is counted where the engine loads one */
  gboolean mmproj_auto = args->mmproj == NULL || g_strcmp0 (args->mmproj, "auto") == 0;

  memset (out, 0, sizeof *out);
  out->this_used = NAN;
  out->gpus = g_ptr_array_new ();
  out->json = args->json;
  out->csv = args->csv;

  n_sources = (args->model != NULL) + (args->model_config != NULL) + (args->gguf != NULL) +
              (args->hf != NULL);
  if (n_sources == 0)
    return usage (error, "choose a model with --model ID, --model-config FILE, --gguf FILE or --hf REPO");
  if (n_sources > 1)
    return usage (error, "--model, --model-config, --gguf and --hf exclude each other");

  if (args->model)
    {
      if ((model = hr_cli_find_model (catalog, args->model, error)) == NULL)
        return FALSE;
    }
  else if (args->hf)
    {
      g_autofree char *note = NULL;

      if ((out->owned_model = hr_cli_hub_model (args->hf, args->refresh, &hub_quant, &note,
                                                !mmproj_auto ? HR_CLI_HUB_PROJECTOR_NO
                                                : args->mmproj != NULL ? HR_CLI_HUB_PROJECTOR_REQUIRED
                                                : args->engine == NULL || g_strcmp0 (args->engine, "llama.cpp") == 0
                                                  ? HR_CLI_HUB_PROJECTOR_BEST_EFFORT : HR_CLI_HUB_PROJECTOR_NO,
                                                &hub_mmproj, &hub_mmproj_bytes, &hub_encoder,
                                                error)) == NULL)
        return FALSE;
      model = out->owned_model;
      if (!args->json && !args->csv)
        hr_cli_print_error ("headroom-cli", note);
    }
  else
    {
      if ((out->owned_model = load_model_file (args, error)) == NULL)
        return FALSE;
      model = out->owned_model;
    }

  if (args->gpu_custom)
    {
      g_autoptr(GError) local = NULL;
      out->owned_gpu = hr_gpu_new_from_spec (args->gpu_custom, &local);
      if (out->owned_gpu == NULL)
        return usage (error, "%s", local->message);  /* the message names --gpu-custom */
      g_ptr_array_add (out->gpus, out->owned_gpu);
    }
  if (args->gpu_custom)
    kinds[n_kinds++] = (HrDeviceKind) { out->owned_gpu, 1 };
  for (int i = 0; args->gpu && args->gpu[i]; i++)
    {
      const HrGpu *g;
      g_autofree char *id = g_strdup (args->gpu[i]);
      char *colon = strrchr (id, ':');
      int count = 1;

      /* "rtx-3090-24gb:2": two of it (only digits after the colon: a name may hold one) */
      if (colon != NULL && (colon[1] == '\0' || strspn (colon + 1, "0123456789-+") != strlen (colon + 1)))
        colon = NULL;
      /* "user:4090" is a saved GPU, not four thousand of "user" ("user:4090:2" is two of it) */
      if (colon != NULL && colon == id + strlen (HR_USERDATA_ID_PREFIX) - 1 &&
          hr_userdata_is_user_id (id))
        colon = NULL;
      if (colon != NULL)
        {
          char *end = NULL;
          gint64 v = g_ascii_strtoll (colon + 1, &end, 10);

          if (end == colon + 1 || *end != '\0' || v < 1 || v > HR_MAX_GPUS)
            return usage (error, "--gpu %s: the count after “:” must be between 1 and %d",
                          args->gpu[i], HR_MAX_GPUS);
          *colon = '\0';
          count = (int) v;
          counted = TRUE;
        }
      if (n_kinds == G_N_ELEMENTS (kinds))
        return usage (error, "--gpu: at most %d devices may be listed", (int) G_N_ELEMENTS (kinds));
      if (g_str_equal (id, "this"))
        {
          if (out->this_gpu == NULL &&
              (out->this_gpu = hr_cli_detect_device (catalog, args->free_memory, &n_this,
                                                     &out->this_used, error)) == NULL)
            return FALSE;
          out->this_free = args->free_memory;
          g_ptr_array_add (out->gpus, out->this_gpu);
          kinds[n_kinds++] = (HrDeviceKind) { out->this_gpu, colon != NULL ? count : MAX (n_this, 1) };
          /* this computer is every GPU it holds, alike or not, in their order ("this:N": N of
           * the most numerous kind, as before) */
          if (colon == NULL && args->gpus == G_MININT && out->this_gpu->backend != HR_BACKEND_CPU &&
              !hr_gpu_is_unified (out->this_gpu) && out->this_others == NULL)
            {
              g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (int));
              g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gpu_free);

              hr_cli_detect_kinds (catalog, args->free_memory, found, counts);
              if (found->len > 1 && n_kinds - 1 + (int) found->len <= (int) G_N_ELEMENTS (kinds))
                {
                  n_kinds--;
                  for (guint k = 0; k < found->len; k++)
                    kinds[n_kinds++] = (HrDeviceKind) { g_ptr_array_index (found, k),
                                                        g_array_index (counts, int, k) };
                  out->this_others = g_steal_pointer (&found);
                }
            }
          continue;
        }
      g = hr_cli_find_gpu (catalog, id, error);
      if (g == NULL)
        return FALSE;
      g_ptr_array_add (out->gpus, (gpointer) g);
      kinds[n_kinds++] = (HrDeviceKind) { g, count };
    }
  if (args->all_gpus)
    for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
      g_ptr_array_add (out->gpus, (gpointer) hr_catalog_get_gpu (catalog, i));
  if (out->gpus->len > 0)
    gpu = g_ptr_array_index (out->gpus, 0);
  else if (need_gpu)
    return usage (error, "choose a GPU with --gpu ID or --gpu-custom SPEC");

  hr_scenario_init (s, model, gpu);
  /* several detected GPUs of one kind are offered as the group size */
  /* a given count is checked, never taken for "not given" (--gpus -1 is not the default) */
  if (args->gpus != G_MININT && (args->gpus < 1 || args->gpus > HR_MAX_GPUS))
    return usage (error, "--gpus: the number of GPUs must be between 1 and %d (got %d)", HR_MAX_GPUS,
                  args->gpus);
  if (!isnan (args->gpu_mem_util) && !(args->gpu_mem_util > 0.05 && args->gpu_mem_util <= 1.0))
    return usage (error, "--gpu-memory-utilization must be above 0.05 and at most 1.0 (got %g)",
                  args->gpu_mem_util);
  s->n_gpus = args->gpus != G_MININT ? args->gpus : gpu != NULL && gpu == out->this_gpu ? MAX (n_this, 1) : 1;
  out->group_gpus = s->n_gpus;
  /* several --gpu (or ID:N) are one setup of those devices, unless --gpus gives each a count
   * (compare's list) */
  if (!args->all_gpus && (n_kinds > 1 || counted))
    {
      g_autoptr(GError) local = NULL;

      if (args->gpus != G_MININT)
        out->listed_with_gpus = TRUE;
      else if (!hr_scenario_set_devices (s, kinds, n_kinds, &local))
        return usage (error, "--gpu: %s", local->message);
    }
  if (hub_quant != NULL && args->quant == NULL)
    g_strlcpy (s->quant, hub_quant, sizeof s->quant);
  if (args->quant)
    {
      if (strlen (args->quant) >= sizeof s->quant)
        return usage (error, "unknown quantization “%.40s…”", args->quant);
      g_strlcpy (s->quant, args->quant, sizeof s->quant);
      /* "q4_k_m" is Q4_K_M: the catalog's spelling in every output */
      if (hr_catalog_find_quant (catalog, args->quant) != NULL)
        g_strlcpy (s->quant, hr_catalog_find_quant (catalog, args->quant)->id, sizeof s->quant);
    }
  if (args->context && !hr_parse_context (args->context, &s->context))
    return usage (error, "--context: “%s” is not a token count (e.g. 32768 or 32k)", args->context);
  if (args->depth && !parse_depth (args->depth, &s->depth))
    return usage (error, "--depth: “%s” is not a token count (0, 4096 or 32k)", args->depth);
  s->batch = args->batch;
  if (args->kv_type && !hr_kv_type_from_string (args->kv_type, &s->kv_type))
    return usage (error, "--kv-type: unknown type “%s” (f16, fp8, q8_0, q4_0)", args->kv_type);
  if (args->engine && !hr_cli_engine_parse (args->engine, &s->engine, error))
    return FALSE;
  /* a Hub checkpoint the default engine cannot load (FP8, AWQ, GPTQ…): the engine that does */
  if (args->hf != NULL && args->engine == NULL)
    s->engine = hr_engine_load_pick (s->engine, model, s->quant);
  if (args->engine_version && !hr_engine_version_from_string (args->engine_version, &s->engine_version))
    return usage (error, "--engine-version: unknown version “%s” (current, 2024)", args->engine_version);
  if (args->backend)
    {
      if (!hr_backend_from_string (args->backend, &s->backend))
        return usage (error, "--backend: unknown backend “%s” (cuda, rocm, metal, vulkan, sycl, cpu)", args->backend);
      s->backend_set = TRUE;
    }
  s->offload_pct = args->offload_pct;
  s->n_cpu_moe = args->n_cpu_moe;
  s->reserve = args->reserve_pct / 100.0;
  s->gpu_mem_util = isnan (args->gpu_mem_util) ? 0 : args->gpu_mem_util;
  if (args->max_num_seqs != -1 && (args->max_num_seqs < 1 || args->max_num_seqs > HR_MAX_NUM_SEQS))
    return usage (error, "--max-num-seqs must be between 1 and %d (got %d)", HR_MAX_NUM_SEQS,
                  args->max_num_seqs);
  s->max_num_seqs = MAX (args->max_num_seqs, 0);
  s->prompt_tokens = args->prompt;
  out->min_user_tps = NAN;
  if (args->min_user_tps != NULL)
    {
      char *end = NULL;
      double v = g_ascii_strtod (args->min_user_tps, &end);

      if (end == args->min_user_tps || *end != '\0' || !isfinite (v) || v <= 0 || v > 100000)
        return usage (error, "--min-user-tps: “%s” is not a speed in tok/s (more than 0, at most 100000)",
                      args->min_user_tps);
      out->min_user_tps = v;
    }
  s->ubatch = args->ubatch;
  s->flash_attn = !args->no_flash_attn;
  s->enforce_eager = args->enforce_eager;
  if (args->tensor_split != NULL && !parse_tensor_split (args->tensor_split, s, error))
    return FALSE;

  if (gpu != NULL)
    {
      g_autoptr(GError) local = NULL;
      if (!hr_scenario_validate (s, &local))
        return usage (error, "%s", local->message);
      if (hr_catalog_find_quant (catalog, s->quant) == NULL)
        {
          HrWeights w;
          if (!hr_weights_compute (model, s->quant, &w, NULL))
            return usage (error, "--quant: unknown quantization “%s” (see: headroom-cli list quants)", s->quant);
        }
      if (!args->no_calibration)
        {
          char buf[96];
          const char *id = hr_user_calibration_device_id (gpu, buf, sizeof buf);

          /* a damaged file is moved aside by the load; sizing goes on without it */
          out->calibrations = hr_user_calibration_load (NULL, NULL);
          s->calibration = hr_user_calibration_find (out->calibrations, id, hr_scenario_backend (s));
        }
    }
  if (g_strcmp0 (args->mmproj, "none") == 0)
    s->mmproj_mode = HR_MMPROJ_NONE;
  else if (mmproj_auto)
    s->mmproj_mode = HR_MMPROJ_AUTO;
  else
    s->mmproj_mode = HR_MMPROJ_FILE;
  if (hub_mmproj != NULL && out->owned_model != NULL)
    {
      /* the Hub repo's projector is the model's own: llama.cpp's -hf fetches it itself */
      out->owned_model->mmproj_bytes = (double) hub_mmproj_bytes;
      out->owned_model->mmproj_encoder = hub_encoder;
    }
  else if (mmproj_auto && args->gguf == NULL && args->hf == NULL && s->model != NULL
           && !(s->model->mmproj_bytes > 0) && args->mmproj != NULL
           && !(s->model->vision_params > 0))
    /* an explicit --mmproj auto for a text-only catalog model asks for what is not there */
    return usage (error, "--mmproj auto needs --gguf, --hf or a catalog model with a known projector; give the projector as --mmproj FILE");
  else if (!resolve_mmproj (args, out, &s->mmproj_bytes, &s->mmproj_encoder, error))
    return FALSE;
  else if (mmproj_auto && out->owned_model != NULL && s->mmproj_bytes > 0)
    {
      /* the projector beside --gguf is the model's own; the launch names its file */
      out->owned_model->mmproj_bytes = s->mmproj_bytes;
      out->owned_model->mmproj_encoder = s->mmproj_encoder;
      s->mmproj_bytes = 0;
      memset (&s->mmproj_encoder, 0, sizeof s->mmproj_encoder);
    }
  s->mmproj_path = out->mmproj_path;
  s->mmproj_cpu = args->no_mmproj_offload && hr_scenario_mmproj (s, NULL) > 0;
  if (args->no_mmproj_offload && !(hr_scenario_mmproj (s, NULL) > 0))
    return usage (error, "--no-mmproj-offload: this model has no vision projector to keep in RAM");
  return resolve_draft (args, catalog, out, s, error);
}

void
hr_cli_scenario_for_compare (HrCliScenario *cs)
{
  cs->scenario.n_kinds = 0;
  memset (cs->scenario.kinds, 0, sizeof cs->scenario.kinds);
  cs->scenario.n_gpus = MAX (cs->group_gpus, 1);
  if (cs->gpus->len > 0)
    cs->scenario.gpu = g_ptr_array_index (cs->gpus, 0);
}

gboolean
hr_cli_scenario_check_devices (const HrCliScenario *cs,
                               GError             **error)
{
  if (!cs->listed_with_gpus)
    return TRUE;
  return usage (error, "several --gpu are one setup of those devices: give each count as --gpu ID:N, "
                "not with --gpus");
}

void
hr_cli_scenario_clear (HrCliScenario *cs)
{
  g_clear_pointer (&cs->owned_model, hr_model_free);
  g_clear_pointer (&cs->owned_gpu, hr_gpu_free);
  g_clear_pointer (&cs->this_others, g_ptr_array_unref);
  g_clear_pointer (&cs->this_gpu, hr_gpu_free);
  g_clear_pointer (&cs->gpus, g_ptr_array_unref);
  g_clear_pointer (&cs->calibrations, g_array_unref);
  g_clear_pointer (&cs->mmproj_path, g_free);
  g_clear_pointer (&cs->draft_model, hr_model_free);
}

int
hr_cli_fail (GError *error)
{
  int code = 1;

  if (error == NULL)
    return 1;
  if (error->domain == HR_CLI_ERROR && error->code == HR_CLI_ERROR_USAGE)
    code = 2;
  else if (error->domain == G_OPTION_ERROR || error->domain == HR_SCENARIO_ERROR)
    code = 2;
  hr_cli_print_error ("headroom-cli", error->message);
  return code;
}

int
hr_cli_usage_error (const char *who,
                    const char *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  hr_cli_print_error (who, message);
  return 2;
}

/* --no-user-data: the bundled catalog alone */
static gboolean use_user_data = TRUE;

gboolean
hr_cli_take_user_data_option (int    *argc,
                              char  **argv)
{
  gboolean found = FALSE;
  int kept = 1;

  for (int i = 1; i < *argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        {
          /* what follows "--" is an argument, not an option */
          for (; i < *argc; i++)
            argv[kept++] = argv[i];
          break;
        }
      if (g_str_equal (argv[i], "--no-user-data"))
        {
          found = TRUE;
          continue;
        }
      argv[kept++] = argv[i];
    }
  argv[kept] = NULL;
  *argc = kept;
  if (found)
    use_user_data = FALSE;
  return found;
}

void
hr_cli_load_user_data (HrCatalog *catalog)
{
  g_autoptr(HrUserData) userdata = NULL;
  g_autoptr(GError) error = NULL;

  if (!use_user_data)
    return;
  userdata = hr_userdata_new (NULL);
  /* the app owns these files: a damaged one is the app's to set aside, never ours */
  hr_userdata_set_read_only (userdata, TRUE);
  if (!hr_userdata_load (userdata, catalog, &error))
    {
      /* one line per file (both can be damaged) */
      g_auto(GStrv) lines = g_strsplit (error->message, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autofree char *message = g_strdup_printf ("warning: %s", lines[i]);

          if (*lines[i] != '\0')
            hr_cli_print_error ("headroom-cli", message);
        }
    }
}

void
hr_cli_print_error (const char *who,
                    const char *message)
{
  g_autofree char *line = hr_text_sanitize (message, 400);

  fprintf (stderr, "%s: %s\n", who, line);
}

HrGpu *
hr_cli_detect_device (const HrCatalog  *catalog,
                      gboolean          free_memory,
                      int              *n_gpus,
                      double           *used_bytes,
                      GError          **error)
{
  g_autoptr(HrSystem) system = hr_system_detect (HR_RAM_MEASURE_IF_UNKNOWN);
  HrGpu *gpu;

  hr_system_match (system, catalog);
  gpu = hr_system_make_device (system, free_memory, n_gpus);
  if (gpu == NULL)
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED,
                   "--gpu this: no GPU and no readable /proc/meminfo on this computer "
                   "(see: headroom-cli detect)");
      return NULL;
    }
  if (used_bytes)
    *used_bytes = hr_system_used_bytes (system);
  return gpu;
}

void
hr_cli_detect_kinds (const HrCatalog *catalog,
                     gboolean         free_memory,
                     GPtrArray       *kinds,
                     GArray          *counts)
{
  g_autoptr(HrSystem) system = hr_system_detect (TRUE);
  g_autoptr(HrGpu) last = NULL;

  hr_system_match (system, catalog);
  for (guint i = 0; i < system->gpus->len; i++)
    {
      /* alike by the whole card, whatever each has free now */
      g_autoptr(HrGpu) whole = hr_system_make_gpu_device (system, i, FALSE);
      int one = 1;

      /* an iGPU beside discrete cards is no device of their split */
      if (whole == NULL || hr_gpu_is_unified (whole))
        continue;
      /* the devices in their order (--tensor-split follows it); alike neighbours are one kind */
      if (last != NULL && g_strcmp0 (whole->name, last->name) == 0 && whole->memory_gib == last->memory_gib)
        {
          g_array_index (counts, int, counts->len - 1)++;
          continue;
        }
      g_ptr_array_add (kinds, free_memory ? hr_system_make_gpu_device (system, i, TRUE) : hr_gpu_copy (whole));
      g_array_append_val (counts, one);
      g_clear_pointer (&last, hr_gpu_free);
      last = g_steal_pointer (&whole);
    }
}

char *
hr_cli_this_note (const HrCliScenario *cs)
{
  char used[HR_CLI_NUM_SIZE], rest[HR_CLI_NUM_SIZE];
  gboolean cpu;

  if (cs->this_others != NULL)
    return g_strdup_printf ("This computer: its %u kinds of GPU, each device in the order the driver "
                            "numbers them (--tensor-split follows it)%s.", cs->this_others->len,
                            cs->this_free ? ", each sized against its memory free now" : "");
  if (cs->this_gpu == NULL || !isfinite (cs->this_used) || cs->this_used <= 0)
    return NULL;
  cpu = cs->this_gpu->backend == HR_BACKEND_CPU;
  hr_cli_number (used, hr_to_gib (cs->this_used), 2, 0);
  if (cs->this_free)
    return g_strdup_printf ("This computer: sized against the memory free now; the desktop and "
                            "other programs already use %s GiB of %s.", used,
                            cpu ? "the system RAM" : "this GPU");
  hr_cli_number (rest, cs->this_gpu->memory_gib - hr_to_gib (cs->this_used), 2, 0);
  return g_strdup_printf ("This computer: the desktop and other programs already use %s GiB of %s; "
                          "--free-memory sizes against the %s GiB free now.", used,
                          cpu ? "the system RAM" : "this GPU", rest);
}

void
hr_cli_append_padded (GString    *out,
                      const char *text,
                      int         width)
{
  glong missing = ABS (width) - (glong) hr_text_display_width (text);

  if (width < 0)
    g_string_append (out, text);
  for (glong i = 0; i < missing; i++)
    g_string_append_c (out, ' ');
  if (width >= 0)
    g_string_append (out, text);
}

const char *
hr_cli_pad (char       *buf,
            gsize       size,
            const char *text,
            int         width)
{
  g_autoptr(GString) out = g_string_new (NULL);

  hr_cli_append_padded (out, text, width);
  g_strlcpy (buf, out->str, size);
  return buf;
}

const char *
hr_cli_number (char   *buf,
               double  value,
               int     decimals,
               int     width)
{
  char digits[HR_CLI_NUM_SIZE];

  if (isfinite (value))
    hr_format_number_locale_buf (digits, sizeof digits, value, decimals);
  else
    g_strlcpy (digits, "?", sizeof digits);
  return hr_cli_pad (buf, HR_CLI_NUM_SIZE, digits, width);
}
