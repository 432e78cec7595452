/* hr-engine-load.c — what each engine loads for a quant (hr-engine-load.h)
 *
 * One table, asked by the estimate (which sizes what this returns), the launch builders (which
 * name its repository), the matrix, compare and the CLI through the estimate:
 *
 *   engine        chosen quant               loads
 *   llama-like    GGUF mix, F16/BF16, MXFP4  that GGUF (the model's GGUF repository)
 *                 FP8, INT8                  the Q8_0 GGUF, the nearest file of that width
 *                 INT4 (AWQ/GPTQ), NVFP4     the Q4_K_M GGUF
 *   vLLM, SGLang  a checkpoint format        the official checkpoint when it is of that
 *                                            format; FP8 also from a 16-bit one (both quantize
 *                                            it while loading: `--quantization fp8`); else the
 *                                            official checkpoint as it is ("no checkpoint")
 *                 a GGUF mix                 vLLM: the GGUF file, where its GGUF loader maps
 *                                            the architecture; otherwise, and for SGLang, the
 *                                            official checkpoint
 *   MLX           anything                   as chosen
 *
 * The official checkpoint is the catalog's hf_repo at its native_dtype (an imported
 * config.json's quantization_config names AWQ, GPTQ, FP8 …, so importing an AWQ repository's
 * config gives an AWQ checkpoint).
 */
#include "hr-engine-load.h"
#include "hr-quant-format.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* Architectures vLLM's GGUF loader maps (vllm/model_executor/model_loader/gguf_loader.py,
 * GGUFModelLoader._get_gguf_weights_map, read 2026-12 at 0328802b): it looks the checkpoint's
 * config model_type up in gguf-py's MODEL_ARCH_NAMES, after renaming cohere → command-r,
 * gemma3_text → gemma3, deepseek_v2/v3 → deepseek2 and qwen2_moe/qwen3_moe → qwen2moe/qwen3moe
 * (whose merged expert tensors it maps by hand); any other model_type raises "Unknown gguf
 * model_type" (glm4_moe, gpt_oss, mixtral, llama4, qwen3_next, ernie4_5_moe …), and every HF
 * parameter must map or it raises "Failed to map GGUF parameters".  Its quant method
 * (layers/quantization/gguf.py) runs F16/BF16/F32, Q4_0 … Q8_1, Q2_K … Q6_K and IQ1_S …
 * IQ4_NL tensors: every llama-quantize mix in the catalog.  The catalog says the family and
 * whether the model is MoE, not the model_type, so this lists the catalog families by the
 * model_type of their configs; a model of another family is not known to load. */
typedef struct
{
  const char *family;
  int moe;                  /* 0 dense, 1 MoE, -1 either */
  const char *model_type;   /* the configs' model_type, for the reader */
} GgufFamily;

static const GgufFamily vllm_gguf_families[] = {
  { "Llama 3", 0, "llama" },
  { "Qwen2.5", 0, "qwen2" },
  { "DeepSeek R1 Distill", 0, "qwen2 / llama" },
  { "Kimi", 0, "qwen2 (Kimi-Dev-72B)" },
  { "Qwen3", -1, "qwen3 / qwen3_moe" },
  { "Qwen3-Coder", 1, "qwen3_moe" },
  { "DeepSeek V3", 1, "deepseek_v3" },
  { "DeepSeek R1", 1, "deepseek_v3" },
  { "Gemma 3", 0, "gemma3 (with its mmproj file)" },
  { "Phi", 0, "phi3" },
  { "GLM", 0, "glm4 (GLM-4-0414)" },
};

/* Models of a listed family whose config has another model_type. */
static const char * const vllm_gguf_exceptions[] = {
  "deepseek-v3.2",   /* deepseek_v32 */
};

gboolean
hr_engine_gguf_maps_model (const HrModel *model)
{
  gboolean moe;

  if (model == NULL || model->family == NULL)
    return FALSE;
  for (guint i = 0; model->id != NULL && i < G_N_ELEMENTS (vllm_gguf_exceptions); i++)
    if (strcmp (model->id, vllm_gguf_exceptions[i]) == 0)
      return FALSE;
  moe = hr_model_is_moe (model);
  for (guint i = 0; i < G_N_ELEMENTS (vllm_gguf_families); i++)
    {
      const GgufFamily *f = &vllm_gguf_families[i];

      if (g_ascii_strcasecmp (model->family, f->family) == 0 && (f->moe < 0 || f->moe == (moe ? 1 : 0)))
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_text (const char *s)
{
  return s != NULL && *s != '\0';
}

static void
set_loaded (HrEngineLoad *out,
            HrLoadKind    kind,
            HrLoadReason  reason,
            const char   *quant,
            const char   *repo)
{
  out->kind = kind;
  out->reason = reason;
  g_strlcpy (out->quant, quant, sizeof out->quant);
  out->repo = has_text (repo) ? repo : NULL;
}

/* The official checkpoint: the quant id to size it by, NULL when its format is not one
 * Headroom sizes (a GGUF-like id such as DeepSeek V4's "FP4"). */
static const char *
native_quant (const HrModel *m)
{
  const char *native = m->native_dtype;

  if (!has_text (native) || hr_quant_format (native) == HR_QUANT_FORMAT_FLOAT)
    return has_text (native) && g_ascii_strcasecmp (native, "F32") != 0 ? native : "BF16";
  if (hr_quant_format (native) == HR_QUANT_FORMAT_GGUF)
    return NULL;
  return native;
}

static void
load_llama_like (const HrModel *m,
                 HrQuantFormat  format,
                 HrEngineLoad  *out)
{
  switch (format)
    {
    case HR_QUANT_FORMAT_FP8:
    case HR_QUANT_FORMAT_INT8:
      set_loaded (out, HR_LOAD_SUBSTITUTE, HR_LOAD_REASON_GGUF_ONLY, "Q8_0", m->gguf_repo);
      break;
    case HR_QUANT_FORMAT_INT4:
    case HR_QUANT_FORMAT_NVFP4:
      set_loaded (out, HR_LOAD_SUBSTITUTE, HR_LOAD_REASON_GGUF_ONLY, "Q4_K_M", m->gguf_repo);
      break;
    case HR_QUANT_FORMAT_GGUF:
    case HR_QUANT_FORMAT_FLOAT:
    case HR_QUANT_FORMAT_MXFP4:
    default:
      set_loaded (out, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, out->chosen, m->gguf_repo);
      break;
    }
}

static void
load_server (HrEngine       engine,
             const HrModel *m,
             HrQuantFormat  format,
             HrEngineLoad  *out)
{
  const char *native = native_quant (m);
  HrQuantFormat native_format = native != NULL ? hr_quant_format (native) : HR_QUANT_FORMAT_GGUF;
  HrLoadReason reason = HR_LOAD_REASON_NO_CHECKPOINT;

  if (format == HR_QUANT_FORMAT_GGUF)
    {
      if (engine == HR_ENGINE_VLLM && has_text (m->gguf_repo) && hr_engine_gguf_maps_model (m))
        {
          set_loaded (out, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, out->chosen, m->gguf_repo);
          out->gguf = TRUE;
          return;
        }
      reason = HR_LOAD_REASON_NO_GGUF_LOADER;
    }
  else if (native != NULL && native_format == format)
    {
      set_loaded (out, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, out->chosen, m->hf_repo);
      return;
    }
  else if (native != NULL && format == HR_QUANT_FORMAT_FP8 && native_format == HR_QUANT_FORMAT_FLOAT)
    {
      set_loaded (out, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, out->chosen, m->hf_repo);
      out->online_fp8 = TRUE;
      return;
    }
  if (native == NULL)
    set_loaded (out, HR_LOAD_UNSIZED, reason, out->chosen, m->hf_repo);
  else
    set_loaded (out, HR_LOAD_SUBSTITUTE, reason, native, m->hf_repo);
}

void
hr_engine_load (HrEngine       engine,
                const HrModel *model,
                const char    *quant,
                HrEngineLoad  *out)
{
  HrQuantFormat format;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->engine = engine;
  g_strlcpy (out->chosen, quant != NULL && *quant != '\0' ? quant : "BF16", sizeof out->chosen);
  g_strlcpy (out->quant, out->chosen, sizeof out->quant);
  if (model == NULL)
    return;
  format = hr_quant_format (out->chosen);
  if (hr_engine_is_llama_like (engine))
    load_llama_like (model, format, out);
  else if (hr_engine_is_server_like (engine))
    load_server (engine, model, format, out);
  else
    set_loaded (out, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, out->chosen, model->hf_repo);
}

HrEngine
hr_engine_load_pick (HrEngine       engine,
                     const HrModel *model,
                     const char    *quant)
{
  HrEngineLoad load;

  hr_engine_load (engine, model, quant, &load);
  if (load.kind == HR_LOAD_AS_CHOSEN)
    return engine;
  for (int e = 0; e < HR_N_ENGINES; e++)
    {
      if (!hr_engine_is_server_like ((HrEngine) e))
        continue;
      hr_engine_load ((HrEngine) e, model, quant, &load);
      if (load.kind == HR_LOAD_AS_CHOSEN)
        return (HrEngine) e;
    }
  return engine;
}

void
hr_engine_load_as_chosen (HrEngineLoad *load,
                          const char   *repo)
{
  g_return_if_fail (load != NULL);

  if (load->kind == HR_LOAD_AS_CHOSEN)
    return;
  set_loaded (load, HR_LOAD_AS_CHOSEN, HR_LOAD_REASON_NONE, load->chosen, repo);
  load->gguf = FALSE;
  load->online_fp8 = FALSE;
}

char *
hr_engine_load_text (const HrEngineLoad *load)
{
  const char *engine;

  g_return_val_if_fail (load != NULL, NULL);

  engine = hr_engine_display_name (load->engine);
  if (load->kind == HR_LOAD_AS_CHOSEN)
    return NULL;
  if (load->kind == HR_LOAD_UNSIZED)
    /* TRANSLATORS: "vLLM does not load Q4_K_M of this model: it serves the official checkpoint,
     * whose format Headroom cannot size; the figures are those of Q4_K_M." */
    return g_strdup_printf (_("%s does not load %s of this model: it serves the official "
                              "checkpoint, whose format Headroom cannot size; the figures are "
                              "those of %s."), engine, load->chosen, load->chosen);
  switch (load->reason)
    {
    case HR_LOAD_REASON_GGUF_ONLY:
      return g_strdup_printf (_("%s loads GGUF files and %s is a checkpoint format: it loads the "
                                "nearest GGUF quant, %s, sized here."),
                              engine, load->chosen, load->quant);
    case HR_LOAD_REASON_NO_GGUF_LOADER:
      return g_strdup_printf (_("%s does not load a %s GGUF of this model’s architecture: it serves "
                                "the official %s checkpoint, sized here."),
                              engine, load->chosen, load->quant);
    case HR_LOAD_REASON_NO_CHECKPOINT:
    case HR_LOAD_REASON_NONE:
    default:
      return g_strdup_printf (_("No %s checkpoint of this model is known: %s serves the official "
                                "%s checkpoint, sized here. Import such a repository’s "
                                "config.json to size it."),
                              load->chosen, engine, load->quant);
    }
}
