/* hr-runs-check.c — a measured run set against Headroom's prediction for the same scenario
 *
 * The run names its model by file or repo and its accelerator as the driver does; both are
 * looked up in the catalog, or given by the user (HrRunHints).  A run that cannot be mapped
 * fully keeps its measured figures and says why it has no prediction.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hr-runs.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

void
hr_run_check_free (HrRunCheck *check)
{
  if (check == NULL)
    return;
  g_free (check->reason);
  g_free (check);
}

/* ---- models ------------------------------------------------------------------------------ */

/* Lower-case letters and digits only: "Qwen/Qwen2.5-7B-Instruct" → "qwen257binstruct" (of the
 * part after the last '/'). */
static char *
name_key (const char *name)
{
  const char *slash;
  GString *out;

  if (name == NULL)
    return g_strdup ("");
  slash = strrchr (name, '/');
  if (slash != NULL)
    name = slash + 1;
  out = g_string_new (NULL);
  for (const char *p = name; *p; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (out, g_ascii_tolower (*p));
  return g_string_free (out, FALSE);
}

/* A run's model name without what is not the model: the directory, ".gguf", a split part
 * "-00001-of-00003", the quant and anything after it ("Qwen2.5-7B-Instruct-Q4_K_M.gguf" →
 * "Qwen2.5-7B-Instruct"), a "-GGUF" repo suffix. */
static char *
run_model_stem (const char *name)
{
  g_autofree char *base = g_path_get_basename (name);
  g_autofree char *up = NULL;
  char *p;

  if (g_str_has_suffix (base, ".gguf"))
    base[strlen (base) - 5] = '\0';
  up = g_ascii_strup (base, -1);
  /* the first separator followed by a quant-looking token or a split part ends the name */
  for (p = up + 1; *p; p++)
    {
      if (p[-1] != '-' && p[-1] != '.' && p[-1] != '_')
        continue;
      if ((p[0] == 'Q' && g_ascii_isdigit (p[1]) && p[2] == '_') ||
          (p[0] == 'I' && p[1] == 'Q' && g_ascii_isdigit (p[2])) ||
          g_str_has_prefix (p, "UD-") || g_str_has_prefix (p, "BF16") ||
          g_str_has_prefix (p, "F16") || g_str_has_prefix (p, "F32") ||
          g_str_has_prefix (p, "MXFP4") || g_str_has_prefix (p, "GGUF") ||
          g_str_has_prefix (p, "NVFP4") || g_str_has_prefix (p, "FP8") ||
          g_str_has_prefix (p, "AWQ") || g_str_has_prefix (p, "GPTQ") ||
          (g_ascii_isdigit (p[0]) && strstr (p, "-OF-") == p + 5))
        {
          base[p - up - 1] = '\0';
          break;
        }
    }
  return g_steal_pointer (&base);
}

/* Words a repo adds to the model's own name */
static void
strip_suffixes (char *key)
{
  static const char * const suffixes[] = { "instruct", "chat", "it", "hf", "base", "gguf" };
  gboolean again = TRUE;

  while (again)
    {
      again = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        {
          gsize n = strlen (key), m = strlen (suffixes[i]);
          if (n > m + 3 && g_str_has_suffix (key, suffixes[i]))
            {
              key[n - m] = '\0';
              again = TRUE;
            }
        }
    }
}

/* 3: the same name; 2: the same without instruct/chat…; 1: one ends with the other (a vendor
 * prefix: "Meta-Llama-3.1-8B" and "Llama-3.1-8B"); 0: no match */
static int
match_score (const char *run_key,
             const char *run_base,
             const char *name)
{
  g_autofree char *key = NULL;
  g_autofree char *base = NULL;

  if (name == NULL)
    return 0;
  key = name_key (name);
  if (strlen (key) < 3)
    return 0;
  if (g_str_equal (key, run_key))
    return 3;
  base = g_strdup (key);
  strip_suffixes (base);
  if (g_str_equal (base, run_base))
    return 2;
  if (strlen (base) >= 6 && strlen (run_base) >= 6 &&
      (g_str_has_suffix (run_base, base) || g_str_has_suffix (base, run_base)))
    return 1;
  return 0;
}

const HrModel *
hr_run_find_model (const HrCatalog *catalog,
                   const char      *name,
                   double           params)
{
  g_autofree char *stem = NULL;
  g_autofree char *key = NULL;
  g_autofree char *base = NULL;
  const HrModel *best = NULL;
  int best_score = 0;
  gboolean tie = FALSE;

  g_return_val_if_fail (catalog != NULL, NULL);
  if (name == NULL || *name == '\0')
    return NULL;
  stem = run_model_stem (name);
  key = name_key (stem);
  base = g_strdup (key);
  strip_suffixes (base);
  if (strlen (key) < 3)
    return NULL;

  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *m = hr_catalog_get_model (catalog, i);
      int score = MAX (MAX (match_score (key, base, m->id), match_score (key, base, m->name)),
                       MAX (match_score (key, base, m->hf_repo), match_score (key, base, m->gguf_repo)));

      if (score == 0)
        continue;
      /* a name can match a sibling ("Qwen3-30B-A3B" and "Qwen3-30B-A3B-Instruct-2507" differ
       * in weights only); the parameter count rules out another size */
      if (isfinite (params) && params > 0 && isfinite (m->total_params) && m->total_params > 0 &&
          fabs (m->total_params / params - 1) > 0.06)
        continue;
      if (score > best_score)
        {
          best = m;
          best_score = score;
          tie = FALSE;
        }
      else if (score == best_score && best != m)
        tie = TRUE;
    }
  return tie ? NULL : best;
}

/* llama.cpp's description of a model, "qwen2 7B Q4_K - Medium", "gpt-oss 20B MXFP4 MoE": the
 * architecture (its first word) and the parameter count single out a catalog model when
 * exactly one of that family has the count (within 3 %). */
static const HrModel *
find_by_architecture (const HrCatalog *catalog,
                      const char      *model_type,
                      double           params)
{
  g_autofree char *arch = NULL;
  g_autofree char *word = NULL;
  const char *space;
  const HrModel *found = NULL;
  gsize n;

  if (model_type == NULL || !(params > 0) || (space = strchr (model_type, ' ')) == NULL)
    return NULL;
  word = g_strndup (model_type, space - model_type);
  arch = name_key (word);
  /* "qwen3moe", "qwen2vl": the family is the name before the variant */
  n = strlen (arch);
  if (n > 5 && g_str_has_suffix (arch, "moe"))
    arch[n - 3] = '\0';
  if (strlen (arch) < 3)
    return NULL;
  for (guint i = 0; i < hr_catalog_n_models (catalog); i++)
    {
      const HrModel *m = hr_catalog_get_model (catalog, i);
      g_autofree char *id = name_key (m->id);

      if (strstr (id, arch) == NULL || !isfinite (m->total_params) ||
          fabs (m->total_params / params - 1) > 0.03)
        continue;
      if (found != NULL)
        return NULL;
      found = m;
    }
  return found;
}

/* ---- GPUs -------------------------------------------------------------------------------- */

/* Words that name the vendor, the memory type, the form or the product line rather than the
 * chip: left out on both sides. */
static gboolean
noise_word (const char *w)
{
  static const char * const noise[] = {
    "nvidia", "geforce", "amd", "radeon", "intel", "r", "tm", "tesla", "graphics", "apple",
    "corporation", "hbm3", "hbm3e", "hbm2e", "hbm2", "sxm", "sxm2", "sxm4", "sxm5", "pcie", "mac",
    "macbook", "studio", "mini", "strix", "halo", "workstation", "edition", "dgx", "spark",
    "instinct", "gpu", "laptop", "series", "generation",
  };
  for (guint i = 0; i < G_N_ELEMENTS (noise); i++)
    if (g_str_equal (w, noise[i]))
      return TRUE;
  return FALSE;
}

/* The chip's words, sorted and joined, and the memory the name states (0 when none):
 * "NVIDIA A100-SXM4-80GB" → "a100", 80; "MacBook Pro M4 Max 128GB" → "m4 max", 128. */
static char *
gpu_key (const char *name,
         int        *memory_gb,
         gboolean   *pcie)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  g_auto(GStrv) words = g_strsplit_set (lower, " ()[]-_,/+", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  *memory_gb = 0;
  *pcie = FALSE;
  for (int i = 0; words[i]; i++)
    {
      const char *w = words[i];
      gsize n = strlen (w);

      if (n == 0)
        continue;
      if (g_str_equal (w, "pcie"))
        *pcie = TRUE;
      if (n > 2 && g_str_has_suffix (w, "gb") && g_ascii_isdigit (w[0]))
        {
          *memory_gb = atoi (w);
          continue;
        }
      /* "MacBook Pro M4 Max": Pro names the laptop, not the chip */
      if (g_str_equal (w, "pro") && i > 0 && g_str_equal (words[i - 1], "macbook"))
        continue;
      if (noise_word (w))
        continue;
      g_ptr_array_add (kept, (gpointer) w);
    }
  for (guint i = 0; i < kept->len; i++)
    g_string_append_printf (out, "%s%s", i ? " " : "", (const char *) g_ptr_array_index (kept, i));
  return g_string_free (out, FALSE);
}

static int
compare_words (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static char *
gpu_key_sorted (const char *name,
                int        *memory_gb,
                gboolean   *pcie)
{
  g_autofree char *key = gpu_key (name, memory_gb, pcie);
  g_auto(GStrv) words = g_strsplit (key, " ", -1);
  guint n = g_strv_length (words);

  qsort (words, n, sizeof (char *), compare_words);
  return g_strjoinv (" ", words);
}

const HrGpu *
hr_run_find_gpu (const HrCatalog *catalog,
                 const char      *device)
{
  g_autofree char *key = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  int memory_gb;
  gboolean pcie;

  g_return_val_if_fail (catalog != NULL, NULL);
  if (device == NULL)
    return NULL;
  key = gpu_key_sorted (device, &memory_gb, &pcie);
  if (*key == '\0')
    return NULL;
  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *g = hr_catalog_get_gpu (catalog, i);
      int gmem;
      gboolean gpcie;
      g_autofree char *gkey = NULL;

      if (g->user_defined || g->name == NULL)
        continue;
      gkey = gpu_key_sorted (g->name, &gmem, &gpcie);
      if (!g_str_equal (gkey, key))
        continue;
      if (memory_gb > 0 && fabs (g->memory_gib - memory_gb) > 0.5)
        continue;
      g_ptr_array_add (found, (gpointer) g);
    }
  /* "H100 80GB SXM" and "H100 80GB PCIe" share the chip: the driver's name says PCIe for the
   * card ("NVIDIA H100 PCIe"), nothing for SXM ("NVIDIA H100 80GB HBM3") */
  if (found->len > 1)
    for (guint i = found->len; i-- > 0;)
      {
        const HrGpu *g = g_ptr_array_index (found, i);
        int gmem;
        gboolean gpcie;
        g_autofree char *gkey = gpu_key (g->name, &gmem, &gpcie);

        if (gpcie != pcie)
          g_ptr_array_remove_index (found, i);
      }
  return found->len == 1 ? g_ptr_array_index (found, 0) : NULL;
}

/* ---- scenario ---------------------------------------------------------------------------- */

static HrRunCheck *
unmapped (HrRunCheck   *check,
          HrRunMissing  missing,
          char         *reason)
{
  check->mapped = FALSE;
  check->missing = missing;
  check->reason = reason;
  return check;
}

/* The backend a llama.cpp run used: llama-bench lists the backends it was built with
 * ("Metal,BLAS", "BLAS,MTL", "CUDA"); the accelerator's one wins over BLAS and CPU. */
static gboolean
backend_of_run (const HrRun *run,
                HrBackend   *backend)
{
  g_auto(GStrv) parts = NULL;
  gboolean cpu = FALSE;

  if (run->backend == NULL)
    return FALSE;
  parts = g_strsplit (run->backend, ",", 8);
  for (int i = 0; parts[i]; i++)
    {
      const char *p = g_strstrip (parts[i]);
      HrBackend b;

      if (g_ascii_strcasecmp (p, "BLAS") == 0 || g_ascii_strcasecmp (p, "CPU") == 0)
        {
          cpu = TRUE;
          continue;
        }
      if (g_ascii_strcasecmp (p, "MTL") == 0)
        p = "metal";
      if (hr_backend_from_string (p, &b) && b != HR_BACKEND_CPU)
        {
          *backend = b;
          return TRUE;
        }
    }
  if (cpu)
    *backend = HR_BACKEND_CPU;
  return cpu;
}

static HrEngine
engine_of_run (const HrRun *run)
{
  switch (run->format)
    {
    case HR_RUN_VLLM_LOG:
      return HR_ENGINE_VLLM;
    case HR_RUN_SGLANG_LOG:
      return HR_ENGINE_SGLANG;
    case HR_RUN_BENCH_MARKDOWN:
    case HR_RUN_BENCH_CSV:
    case HR_RUN_BENCH_JSON:
    case HR_RUN_LLAMA_LOG:
    case HR_N_RUN_FORMATS:
    default:
      return HR_ENGINE_LLAMA_CPP;
    }
}

/* The quant the engine loaded, as the catalog names it: the run's, or for vLLM/SGLang without
 * a quantization the checkpoint's own (BF16, or the native FP8 / MXFP4). */
static const char *
quant_of_run (const HrRun   *run,
              const HrModel *model)
{
  if (run->quant != NULL)
    return run->quant;
  if (run->format == HR_RUN_VLLM_LOG || run->format == HR_RUN_SGLANG_LOG)
    return model->native_dtype ? model->native_dtype : "BF16";
  return NULL;
}

/* The scenario of a llama-bench test, as the accuracy replay builds it (tests/accuracy):
 * a ppN test at depth d is a prompt of N tokens after d already in the cache; tgN from depth d
 * reads the cache at d + N/2 on average. */
static void
bench_scenario (const HrRun *run,
                HrScenario  *s)
{
  if (run->n_prompt > 0)
    {
      s->prompt_tokens = (int) MIN ((gint64) run->n_prompt, G_MAXINT);
      s->prompt_depth = run->depth;
      s->context = MAX (HR_MIN_CONTEXT, run->depth + run->n_prompt);
    }
  else
    {
      s->prompt_tokens = (int) MIN (MAX (1, run->depth + run->n_gen / 2), G_MAXINT);
      s->context = MAX (HR_MIN_CONTEXT, run->depth + run->n_gen);
      s->depth = MIN (s->context, (gint64) s->prompt_tokens);
    }
  if (run->n_ubatch > 0)
    s->ubatch = run->n_ubatch;
  if (run->flash_attn >= 0)
    s->flash_attn = run->flash_attn == 1;
}

HrRunCheck *
hr_run_check (HrRun            *run,
              const HrCatalog  *catalog,
              const HrRunHints *hints)
{
  HrRunCheck *check = g_new0 (HrRunCheck, 1);
  HrScenario *s = &check->scenario;
  const char *quant;
  HrBackend backend;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (run != NULL && catalog != NULL, check);
  check->run = run;
  for (int i = 0; i < HR_N_MEASURES; i++)
    check->predicted[i] = check->error[i] = NAN;

  /* the model */
  if (hints != NULL && hints->model_id != NULL)
    {
      check->model = hr_catalog_find_model (catalog, hints->model_id);
      if (check->model == NULL)
        return unmapped (check, HR_RUN_MISSING_MODEL, g_strdup_printf (_("Unknown model “%s”"), hints->model_id));
    }
  else
    {
      check->model = hr_run_find_model (catalog, run->model, run->params);
      if (check->model == NULL && run->format == HR_RUN_LLAMA_LOG)
        check->model = hr_run_find_model (catalog, run->model_type, run->params);
      if (check->model == NULL && run->model == NULL)
        check->model = find_by_architecture (catalog, run->model_type, run->params);
      if (check->model == NULL)
        return unmapped (check, HR_RUN_MISSING_MODEL,
                         run->model || run->model_type
                           ? g_strdup_printf (_("No catalog model matches “%s”"),
                                              run->model ? run->model : run->model_type)
                           : g_strdup (_("The run does not name its model")));
    }

  /* the accelerator */
  if (hints != NULL && hints->gpu_id != NULL)
    {
      check->gpu = hr_catalog_find_gpu (catalog, hints->gpu_id);
      if (check->gpu == NULL)
        return unmapped (check, HR_RUN_MISSING_GPU, g_strdup_printf (_("Unknown GPU “%s”"), hints->gpu_id));
    }
  else
    {
      check->gpu = hr_run_find_gpu (catalog, run->device);
      if (check->gpu == NULL)
        return unmapped (check, HR_RUN_MISSING_GPU,
                         run->device ? g_strdup_printf (_("No catalog GPU matches “%s”"), run->device)
                                     : g_strdup (_("The run does not name its GPU")));
    }

  if (hints != NULL && hints->quant != NULL)
    quant = hints->quant;
  else if (run->quant_method != NULL)
    return unmapped (check, HR_RUN_MISSING_QUANT,
                     g_strdup_printf (_("Quantization “%s” does not say which format the weights are in"),
                                             run->quant_method));
  else
    quant = quant_of_run (run, check->model);
  if (quant == NULL)
    return unmapped (check, HR_RUN_MISSING_QUANT, g_strdup (_("The run does not say its quantization")));

  hr_scenario_init (s, check->model, check->gpu);
  g_strlcpy (s->quant, quant, sizeof s->quant);
  s->engine = engine_of_run (run);
  /* the run loaded these very weights (an NVFP4 repository of a BF16 model, say): size them,
   * not the official checkpoint the catalog would serve instead (hr_engine_load ()) */
  s->weights_named = TRUE;
  s->n_gpus = hints && hints->n_gpus > 0 ? hints->n_gpus : MAX (run->n_devices, 1);
  if (backend_of_run (run, &backend) && s->engine == HR_ENGINE_LLAMA_CPP)
    {
      s->backend = backend;
      s->backend_set = TRUE;
    }
  if (run->type_k[0] != '\0')
    {
      HrKvType kv;
      if (!hr_kv_type_from_string (run->type_k, &kv))
        return unmapped (check, HR_RUN_MISSING_OTHER,
                         g_strdup_printf (_("KV cache type “%s” is not one Headroom sizes"), run->type_k));
      s->kv_type = kv;
    }
  switch (run->format)
    {
    case HR_RUN_BENCH_MARKDOWN:
    case HR_RUN_BENCH_CSV:
    case HR_RUN_BENCH_JSON:
      bench_scenario (run, s);
      break;
    case HR_RUN_LLAMA_LOG:
      if (run->n_ctx <= 0)
        return unmapped (check, HR_RUN_MISSING_OTHER, g_strdup (_("The log does not give the context (n_ctx)")));
      s->batch = MAX (run->n_seq, 1);
      /* llama.cpp's n_ctx is the cache of every sequence together */
      s->context = MAX (HR_MIN_CONTEXT, run->n_ctx / s->batch);
      if (run->n_ubatch > 0)
        s->ubatch = run->n_ubatch;
      if (run->flash_attn >= 0)
        s->flash_attn = run->flash_attn == 1;
      break;
    case HR_RUN_VLLM_LOG:
    case HR_RUN_SGLANG_LOG:
      if (run->n_ctx > 0)
        s->context = MAX (HR_MIN_CONTEXT, run->n_ctx);
      else if (check->model->max_context > 0)
        s->context = check->model->max_context;
      if (isfinite (run->gpu_mem_util))
        s->gpu_mem_util = run->gpu_mem_util;
      break;
    case HR_N_RUN_FORMATS:
    default:
      break;
    }
  if (run->ngl >= 0 && s->engine == HR_ENGINE_LLAMA_CPP && check->model->n_layers > 0)
    {
      /* -ngl counts the output layer as one more; 99 or -1 means all */
      double on_gpu = MIN (run->ngl, check->model->n_layers);
      s->offload_pct = 100.0 * (1.0 - on_gpu / check->model->n_layers);
    }
  if (run->n_cpu_moe > 0)
    s->n_cpu_moe = run->n_cpu_moe;

  if (hints != NULL && hints->calibrations != NULL)
    {
      char buf[96];
      s->calibration = hr_user_calibration_find (hints->calibrations,
                                                 hr_user_calibration_device_id (check->gpu, buf, sizeof buf),
                                                 hr_scenario_backend (s));
    }
  if (!hr_estimate_compute (s, NULL, &check->estimate, &error))
    return unmapped (check, HR_RUN_MISSING_OTHER, g_strdup (error->message));

  check->mapped = TRUE;
  {
    const HrEstimate *e = &check->estimate;
    double predicted[HR_N_MEASURES] = {
      [HR_MEASURE_DECODE] = e->decode_tps,
      [HR_MEASURE_PREFILL] = e->prefill_tps,
      [HR_MEASURE_WEIGHTS] = e->weights_gpu,
      [HR_MEASURE_KV] = s->engine == HR_ENGINE_LLAMA_CPP ? e->kv_bytes : e->kv_pool_bytes * s->n_gpus,
      [HR_MEASURE_BUFFERS] = e->compute_bytes,
      [HR_MEASURE_KV_TOKENS] = e->kv_capacity_tokens,
    };

    for (int i = 0; i < HR_N_MEASURES; i++)
      if (isfinite (run->measured[i]) && run->measured[i] > 0 && isfinite (predicted[i]) && predicted[i] > 0)
        {
          check->predicted[i] = predicted[i];
          check->error[i] = predicted[i] / run->measured[i] - 1;
        }
  }
  return check;
}
