/* hr-scenario.c — defaults and range checks for a scenario */
#include "hr-scenario.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (hr-scenario-error-quark, hr_scenario_error)

/* In HrEngineVersion's order: the "engine-version" key's choices and what the user reads. */
static const char * const engine_versions[HR_N_ENGINE_VERSIONS + 1] = { "current", "2024", NULL };
static const char * const engine_version_names[HR_N_ENGINE_VERSIONS] = {
  NC_("engine version", "Current (2025 on)"),
  NC_("engine version", "2024 builds"),
};

void
hr_scenario_init (HrScenario    *scenario,
                  const HrModel *model,
                  const HrGpu   *gpu)
{
  g_return_if_fail (scenario != NULL);

  memset (scenario, 0, sizeof *scenario);
  scenario->model = model;
  scenario->gpu = gpu;
  scenario->n_gpus = 1;
  g_strlcpy (scenario->quant, model && model->gguf_quant ? model->gguf_quant : "Q4_K_M",
             sizeof scenario->quant);
  scenario->context = 8192;
  scenario->depth = -1;
  scenario->batch = 1;
  scenario->kv_type = HR_KV_F16;
  scenario->engine = HR_ENGINE_LLAMA_CPP;
  scenario->engine_version = HR_ENGINE_VERSION_CURRENT;
  scenario->backend = gpu ? gpu->backend : HR_BACKEND_CUDA;
  scenario->backend_set = FALSE;
  scenario->offload_pct = 0;
  scenario->n_cpu_moe = 0;
  scenario->reserve = HR_DEFAULT_RESERVE;
  scenario->unified_share = 0;
  scenario->prompt_tokens = HR_DEFAULT_PROMPT;
  scenario->ubatch = 512;
  scenario->flash_attn = TRUE;
  scenario->gpu_mem_util = 0;
  scenario->sysram_bandwidth_gbs = NAN;
  scenario->draft_kind = HR_DRAFT_NONE;
  scenario->draft_accept = NAN;
}

double
hr_scenario_mmproj (const HrScenario *scenario,
                    HrVisionEncoder  *encoder)
{
  const HrVisionEncoder *enc = NULL;
  double bytes = 0;

  g_return_val_if_fail (scenario != NULL, 0);

  switch (scenario->mmproj_mode)
    {
    case HR_MMPROJ_FILE:
      if (scenario->mmproj_bytes > 0)
        {
          bytes = scenario->mmproj_bytes;
          enc = &scenario->mmproj_encoder;
        }
      break;
    case HR_MMPROJ_AUTO:
      /* only llama.cpp loads a projector of its own (hr-scenario.h) */
      if (scenario->engine == HR_ENGINE_LLAMA_CPP && scenario->model != NULL
          && scenario->model->mmproj_bytes > 0)
        {
          bytes = scenario->model->mmproj_bytes;
          enc = &scenario->model->mmproj_encoder;
        }
      break;
    case HR_MMPROJ_NONE:
    default:
      break;
    }
  if (encoder != NULL)
    {
      if (enc != NULL)
        *encoder = *enc;
      else
        memset (encoder, 0, sizeof *encoder);
    }
  return bytes;
}

const char *
hr_scenario_mmproj_path (const HrScenario *scenario)
{
  g_return_val_if_fail (scenario != NULL, NULL);
  if (!(hr_scenario_mmproj (scenario, NULL) > 0))
    return NULL;
  /* AUTO: the file beside a local GGUF, which whoever set the model set with it; NULL when -hf
   * fetches the repo's own */
  return scenario->mmproj_path;
}

static const char * const mmproj_modes[] = { "file", "auto", "none" };

const char *
hr_mmproj_mode_to_string (HrMmprojMode mode)
{
  return (guint) mode < G_N_ELEMENTS (mmproj_modes) ? mmproj_modes[mode] : "file";
}

gboolean
hr_mmproj_mode_from_string (const char   *str,
                            HrMmprojMode *mode)
{
  for (guint i = 0; i < G_N_ELEMENTS (mmproj_modes); i++)
    if (g_strcmp0 (str, mmproj_modes[i]) == 0)
      {
        if (mode != NULL)
          *mode = (HrMmprojMode) i;
        return TRUE;
      }
  return FALSE;
}

gint64
hr_scenario_depth (const HrScenario *scenario)
{
  return scenario->depth >= 0 ? MIN (scenario->depth, scenario->context) : scenario->context;
}

HrBackend
hr_scenario_backend (const HrScenario *scenario)
{
  if (scenario->backend_set || scenario->gpu == NULL)
    return scenario->backend;
  return scenario->gpu->backend;
}

gboolean
hr_scenario_is_mixed (const HrScenario *scenario)
{
  int total = 0;

  if (scenario->n_kinds < 2 || scenario->n_kinds > HR_MAX_DEVICE_KINDS ||
      scenario->gpu != scenario->kinds[0].gpu)
    return FALSE;
  for (int i = 0; i < scenario->n_kinds; i++)
    total += scenario->kinds[i].count;
  /* a copy whose GPU or count was changed (what if: 3 of them) is alike devices again */
  return total == scenario->n_gpus;
}

gboolean
hr_scenario_set_devices (HrScenario         *scenario,
                         const HrDeviceKind *kinds,
                         int                 n_kinds,
                         GError            **error)
{
  HrDeviceKind merged[HR_MAX_DEVICE_KINDS];
  int n = 0, total = 0;

  g_return_val_if_fail (scenario != NULL && (kinds != NULL || n_kinds == 0), FALSE);

  for (int i = 0; i < n_kinds; i++)
    {
      int j;

      g_return_val_if_fail (kinds[i].gpu != NULL, FALSE);
      if (kinds[i].count < 1 || kinds[i].count > HR_MAX_GPUS)
        {
          g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                       "number of %s must be between 1 and %d (got %d)", kinds[i].gpu->name,
                       HR_MAX_GPUS, kinds[i].count);
          return FALSE;
        }
      /* the same GPU named twice is two of it, kept at its first place */
      for (j = 0; j < n && merged[j].gpu != kinds[i].gpu; j++)
        ;
      if (j == n)
        {
          if (n == HR_MAX_DEVICE_KINDS)
            {
              g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                           "a setup holds at most %d different GPUs", HR_MAX_DEVICE_KINDS);
              return FALSE;
            }
          merged[n++] = (HrDeviceKind) { kinds[i].gpu, 0 };
        }
      merged[j].count += kinds[i].count;
      total += kinds[i].count;
    }
  if (n > 1 && total > HR_MAX_MIXED_GPUS)
    {
      g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID,
                   "a setup of different GPUs holds at most %d devices (got %d)", HR_MAX_MIXED_GPUS, total);
      return FALSE;
    }
  memset (scenario->kinds, 0, sizeof scenario->kinds);
  scenario->n_kinds = n > 1 ? n : 0;
  if (n > 1)
    memcpy (scenario->kinds, merged, n * sizeof merged[0]);
  if (n > 0)
    {
      scenario->gpu = merged[0].gpu;
      scenario->n_gpus = total;
    }
  return TRUE;
}

gboolean
hr_scenario_validate (const HrScenario  *scenario,
                      GError           **error)
{
#define FAIL(...) G_STMT_START { g_set_error (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_INVALID, __VA_ARGS__); return FALSE; } G_STMT_END
  if (scenario->model == NULL)
    FAIL ("no model chosen");
  if (scenario->gpu == NULL)
    FAIL ("no GPU chosen");
  if (!(scenario->gpu->memory_gib > 0 && scenario->gpu->memory_gib < 1e7))
    FAIL ("GPU “%s” has no usable memory size", scenario->gpu->name ? scenario->gpu->name : "?");
  if (scenario->n_gpus < 1 || scenario->n_gpus > HR_MAX_GPUS)
    FAIL ("number of GPUs must be between 1 and %d (got %d)", HR_MAX_GPUS, scenario->n_gpus);
  if (scenario->n_kinds < 0 || scenario->n_kinds > HR_MAX_DEVICE_KINDS)
    FAIL ("a setup holds at most %d different GPUs", HR_MAX_DEVICE_KINDS);
  if (hr_scenario_is_mixed (scenario))
    {
      int total = 0;

      for (int i = 0; i < scenario->n_kinds; i++)
        {
          const HrGpu *g = scenario->kinds[i].gpu;

          if (g == NULL || scenario->kinds[i].count < 1)
            FAIL ("a device of the setup has no GPU");
          if (!(g->memory_gib > 0 && g->memory_gib < 1e7))
            FAIL ("GPU “%s” has no usable memory size", g->name ? g->name : "?");
          total += scenario->kinds[i].count;
        }
      if (hr_scenario_is_mixed (scenario) && total > HR_MAX_MIXED_GPUS)
        FAIL ("a setup of different GPUs holds at most %d devices (got %d)", HR_MAX_MIXED_GPUS, total);
    }
  /* No engine splits a model finer than a layer per GPU (llama.cpp's layer split, pipeline
   * stages), nor tensor parallelism finer than an attention head per GPU (vLLM refuses a
   * tensor-parallel size that does not divide the attention heads: "Total number of attention
   * heads (N) must be divisible by tensor parallel size (M)", vllm/config ModelConfig.
   * verify_with_parallel_config). */
  if (scenario->model->n_layers > 0 && scenario->n_gpus > scenario->model->n_layers)
    FAIL ("%s has %d layers: no engine splits it across %d GPUs",
          scenario->model->name ? scenario->model->name : scenario->model->id,
          scenario->model->n_layers, scenario->n_gpus);
  if ((guint) scenario->engine < HR_N_ENGINES &&
      hr_engine_info (scenario->engine)->family == HR_ENGINE_FAMILY_SERVER &&
      scenario->model->n_heads > 0 && scenario->n_gpus > scenario->model->n_heads)
    FAIL ("%s has %d attention heads: %s cannot split them across %d GPUs (tensor parallel)",
          scenario->model->name ? scenario->model->name : scenario->model->id,
          scenario->model->n_heads, hr_engine_display_name (scenario->engine), scenario->n_gpus);
  if (scenario->n_tensor_split != 0)
    {
      double sum = 0;

      if (scenario->engine != HR_ENGINE_LLAMA_CPP)
        FAIL ("--tensor-split is llama.cpp's: %s does not take it", hr_engine_display_name (scenario->engine));
      if (scenario->n_tensor_split != scenario->n_gpus || scenario->n_gpus < 2 ||
          scenario->n_tensor_split > HR_MAX_MIXED_GPUS)
        FAIL ("--tensor-split has %d values for %d devices: give one per device (at most %d)",
              scenario->n_tensor_split, scenario->n_gpus, HR_MAX_MIXED_GPUS);
      for (int i = 0; i < scenario->n_tensor_split; i++)
        {
          if (!(scenario->tensor_split[i] >= 0 && scenario->tensor_split[i] < 1e9))
            FAIL ("--tensor-split: every value must be a number from 0 up (got %g)", scenario->tensor_split[i]);
          sum += scenario->tensor_split[i];
        }
      if (!(sum > 0))
        FAIL ("--tensor-split: the values are all zero; at least one device must take layers");
    }
  if (scenario->context < HR_MIN_CONTEXT || scenario->context > HR_MAX_CONTEXT)
    FAIL ("context must be between %d and %d tokens (got %" G_GINT64_FORMAT ")",
          HR_MIN_CONTEXT, HR_MAX_CONTEXT, scenario->context);
  if (scenario->depth < -1 || scenario->depth > scenario->context)
    FAIL ("depth must be between 0 and the context, %" G_GINT64_FORMAT " tokens (got %" G_GINT64_FORMAT ")",
          scenario->context, scenario->depth);
  if (scenario->batch < 1 || scenario->batch > HR_MAX_BATCH)
    FAIL ("concurrent sequences must be between 1 and %d (got %d)", HR_MAX_BATCH, scenario->batch);
  if (!(scenario->offload_pct >= 0 && scenario->offload_pct <= 100))
    FAIL ("offload must be between 0 and 100 %% (got %g)", scenario->offload_pct);
  if (scenario->n_cpu_moe < 0 || scenario->n_cpu_moe > 10000)
    FAIL ("--n-cpu-moe must be between 0 and the number of layers (got %d)", scenario->n_cpu_moe);
  if (scenario->n_cpu_moe > 0 && !hr_model_is_moe (scenario->model))
    FAIL ("%s is not a mixture-of-experts model: --n-cpu-moe does not apply",
          scenario->model->name ? scenario->model->name : scenario->model->id);
  if (!(scenario->reserve >= 0 && scenario->reserve < 0.9))
    FAIL ("memory reserve must be between 0 and 90 %% (got %g)", scenario->reserve * 100);
  if (!(scenario->unified_share >= 0 && scenario->unified_share <= 1))
    FAIL ("unified-memory share must be between 0 and 100 %%");
  if (scenario->prompt_tokens < 1 || scenario->prompt_tokens > HR_MAX_CONTEXT)
    FAIL ("prompt length must be between 1 and %d tokens", HR_MAX_CONTEXT);
  if (scenario->prompt_depth < 0 || scenario->prompt_depth > HR_MAX_CONTEXT)
    FAIL ("tokens before the prompt must be between 0 and %d (got %" G_GINT64_FORMAT ")",
          HR_MAX_CONTEXT, scenario->prompt_depth);
  if (scenario->ubatch < 1 || scenario->ubatch > 65536)
    FAIL ("micro-batch (ubatch) must be between 1 and 65536");
  if (scenario->gpu_mem_util != 0 && !(scenario->gpu_mem_util > 0.05 && scenario->gpu_mem_util <= 1.0))
    FAIL ("GPU memory utilisation must be between 0.05 and 1.0");
  if (scenario->max_num_seqs < 0 || scenario->max_num_seqs > HR_MAX_NUM_SEQS)
    FAIL ("--max-num-seqs must be between 1 and %d (got %d)", HR_MAX_NUM_SEQS, scenario->max_num_seqs);
  if ((guint) scenario->engine >= HR_N_ENGINES)
    FAIL ("unknown engine");
  if ((guint) scenario->engine_version >= HR_N_ENGINE_VERSIONS)
    FAIL ("unknown engine version");
  if ((guint) scenario->kv_type > HR_KV_Q4_0)
    FAIL ("unknown KV-cache type");
  if (scenario->quant[0] == '\0')
    FAIL ("no quantization chosen");
#undef FAIL
  return TRUE;
}

const char *
hr_engine_version_to_string (HrEngineVersion version)
{
  if ((guint) version < HR_N_ENGINE_VERSIONS)
    return engine_versions[version];
  return "unknown";
}

const char * const *
hr_engine_version_ids (void)
{
  return engine_versions;
}

const char *
hr_engine_version_display (HrEngineVersion version)
{
  g_return_val_if_fail ((guint) version < HR_N_ENGINE_VERSIONS, NULL);
  return g_dpgettext2 (GETTEXT_PACKAGE, "engine version", engine_version_names[version]);
}

gboolean
hr_engine_version_from_string (const char      *str,
                               HrEngineVersion *version)
{
  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < HR_N_ENGINE_VERSIONS; i++)
    if (g_ascii_strcasecmp (str, engine_versions[i]) == 0)
      {
        *version = (HrEngineVersion) i;
        return TRUE;
      }
  return FALSE;
}
