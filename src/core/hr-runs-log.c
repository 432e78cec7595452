/* hr-runs-log.c — the startup logs of llama.cpp, vLLM and SGLang
 *
 * The lines each engine prints, as hr-runs.c lists them.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-json.h"
#include "hr-runs-private.h"
#include "hr-text.h"
#include "hr-units.h"

/* ---- engine logs ------------------------------------------------------------------------- */

typedef struct
{
  HrRun *run;
  double device_weights, device_kv, device_compute;
  int weights_lines, kv_lines, compute_lines;
  GPtrArray *devices;      /* device buffer names seen ("CUDA0", "Vulkan1"), at most MAX_DEVICES */
  char *first_device;
  gboolean several_names;
  int n_named;
  int offloaded, layers;
  char *method;            /* vLLM/SGLang --quantization as logged, "None" left out */
  gint64 gpu_blocks;
  gint64 block_size;
  gboolean kv_tokens_logged;
} Log;

/* A llama.cpp buffer on the host, not on an accelerator: "CPU", "CPU_Mapped", "CUDA_Host",
 * "CPU_REPACK", "Vulkan_Host" … */
static gboolean
host_buffer (const char *name)
{
  return g_str_has_prefix (name, "CPU") || g_str_has_suffix (name, "_Host") ||
         g_str_has_suffix (name, "_Mapped");
}

/* "<prefix>: NAME model buffer size = 4403.49 MiB": the buffer's name and size */
static gboolean
buffer_line (const char *line,
             const char *what,
             char      **name,
             double     *bytes)
{
  const char *at = strstr (line, what);
  const char *start;
  double mib;

  if (at == NULL || !hr_runs_number_after (at, what, FALSE, &mib) || mib < 0 || mib > 1e9)
    return FALSE;
  if (strstr (at, "MiB") == NULL)
    return FALSE;
  start = at;
  while (start > line && start[-1] == ' ')
    start--;
  while (start > line && start[-1] != ' ' && start[-1] != ':')
    start--;
  *name = hr_runs_clean_text (start, at - start);
  if (*name == NULL)
    return FALSE;
  *bytes = mib * HR_MIB;
  return TRUE;
}

static const char *
backend_of_buffer (const char *name)
{
  static const char * const backends[] = { "CUDA", "ROCm", "Vulkan", "Metal", "MTL", "SYCL",
                                           "CANN", "MUSA" };
  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    if (g_str_has_prefix (name, backends[i]))
      return g_str_equal (backends[i], "MTL") ? "Metal" : backends[i];
  return NULL;
}

/* A linear list, not a hash table: the names come from outside, and a real machine has a
 * handful of devices. */
#define MAX_DEVICES 64

static void
note_buffer_device (Log        *log,
                    const char *name)
{
  for (guint i = 0; i < log->devices->len; i++)
    if (g_str_equal (g_ptr_array_index (log->devices, i), name))
      return;
  if (log->devices->len < MAX_DEVICES)
    g_ptr_array_add (log->devices, g_strdup (name));
}

static void
note_device_name (Log        *log,
                  const char *name,
                  gsize       len)
{
  g_autofree char *n = hr_runs_clean_text (name, len);

  if (n == NULL)
    return;
  log->n_named++;
  if (log->first_device == NULL)
    log->first_device = g_steal_pointer (&n);
  else if (!g_str_equal (log->first_device, n))
    log->several_names = TRUE;
}

/* The lines llama.cpp prints about the context it made: llama_context (2025 on),
 * llama_init_from_model and llama_new_context_with_model (before) */
static gboolean
context_line (const char *line)
{
  return strstr (line, "llama_context") != NULL || strstr (line, "llama_init_from_model") != NULL ||
         strstr (line, "llama_new_context_with_model") != NULL;
}

static gboolean
llama_line (const char *line,
            int         number,
            gpointer    data,
            GError    **error)
{
  Log *log = data;
  HrRun *run = log->run;
  g_autofree char *name = NULL;
  const char *p;
  double bytes, v;

  if (buffer_line (line, "model buffer size", &name, &bytes) ||
      (strstr (line, "load_tensors:") != NULL && buffer_line (line, "buffer size", &name, &bytes)))
    {
      if (!host_buffer (name))
        {
          log->device_weights += bytes;
          log->weights_lines++;
          note_buffer_device (log, name);
          if (run->backend == NULL && backend_of_buffer (name))
            run->backend = g_strdup (backend_of_buffer (name));
        }
      return TRUE;
    }
  if (buffer_line (line, "KV buffer size", &name, &bytes))
    {
      if (!host_buffer (name))
        {
          log->device_kv += bytes;
          log->kv_lines++;
        }
      return TRUE;
    }
  if (buffer_line (line, "compute buffer size", &name, &bytes))
    {
      if (!host_buffer (name))
        {
          log->device_compute += bytes;
          log->compute_lines++;
        }
      return TRUE;
    }
  /* "llama_kv_cache: size = 448.00 MiB (4096 cells, 28 layers, 1/1 seqs), K (f16): …" */
  if ((p = strstr (line, " K (")) != NULL && strstr (line, "MiB") != NULL)
    {
      const char *close = strchr (p + 4, ')');
      if (close != NULL && close - (p + 4) < 12)
        {
          g_autofree char *t = g_strndup (p + 4, close - (p + 4));
          hr_runs_set_kv_type (run->type_k, t);
        }
      if ((p = strstr (line, " V (")) != NULL && (close = strchr (p + 4, ')')) != NULL &&
          close - (p + 4) < 12)
        {
          g_autofree char *t = g_strndup (p + 4, close - (p + 4));
          hr_runs_set_kv_type (run->type_v, t);
        }
      return TRUE;
    }
  if (strstr (line, "n_ctx_per_seq") != NULL)
    return TRUE;
  if ((p = strstr (line, "n_ctx ")) != NULL && context_line (line) &&
      hr_runs_number_after (p, "n_ctx", FALSE, &v) && v >= 1 && v <= HR_MAX_CONTEXT * 64.0)
    {
      run->n_ctx = (gint64) v;
      return TRUE;
    }
  if (context_line (line) && hr_runs_number_after (line, "n_seq_max", FALSE, &v) &&
      v >= 1 && v <= HR_MAX_BATCH)
    {
      run->n_seq = (int) v;
      return TRUE;
    }
  if (context_line (line) && hr_runs_number_after (line, "n_ubatch", FALSE, &v) &&
      v >= 1 && v <= 1 << 20)
    {
      run->n_ubatch = (int) v;
      return TRUE;
    }
  if (context_line (line) && (p = strstr (line, "flash_attn")) != NULL)
    {
      p = strchr (p, '=');
      if (p != NULL)
        {
          while (*++p == ' ')
            ;
          if (g_str_has_prefix (p, "1") || g_str_has_prefix (p, "enabled") || g_str_has_prefix (p, "on"))
            run->flash_attn = 1;
          else if (g_str_has_prefix (p, "0") || g_str_has_prefix (p, "disabled") || g_str_has_prefix (p, "off"))
            run->flash_attn = 0;
        }
      return TRUE;
    }
  /* "print_info: file type   = Q4_K - Medium", "llm_load_print_meta: model ftype = …" */
  if ((p = strstr (line, "file type")) != NULL || (p = strstr (line, "model ftype")) != NULL)
    {
      const char *eq = strchr (p, '=');
      const char *q = eq ? hr_run_quant_from_ftype (eq + 1) : NULL;
      if (q == NULL && eq != NULL)
        {
          g_autofree char *t = g_strstrip (g_strdup (eq + 1));
          q = hr_run_quant_from_ftype (t);
        }
      if (q != NULL)
        hr_runs_set_string (&run->quant, g_strdup (q));
      return TRUE;
    }
  if ((p = strstr (line, "model params")) != NULL && (p = strchr (p, '=')) != NULL)
    {
      double params = hr_runs_scaled_value (p + 1);
      if (isfinite (params) && params > 0)
        run->params = params;
      return TRUE;
    }
  if ((p = strstr (line, "general.name")) != NULL && (strstr (line, "print_info") || strstr (line, "print_meta")) &&
      (p = strchr (p, '=')) != NULL)
    {
      if (run->model_type == NULL)
        run->model_type = hr_runs_clean_text (p + 1, -1);
      return TRUE;
    }
  /* "… tensors from /models/Qwen2.5-7B-Instruct-Q4_K_M.gguf (version GGUF V3 (latest))" */
  if (strstr (line, "llama_model_loader: loaded meta data") != NULL &&
      (p = strstr (line, " from ")) != NULL)
    {
      const char *stop = strstr (p, " (version");
      g_autofree char *path = hr_runs_clean_text (p + 6, stop ? stop - (p + 6) : -1);
      if (path != NULL)
        hr_runs_set_string (&run->model, g_path_get_basename (path));
      return TRUE;
    }
  /* "load_tensors: offloaded 29/29 layers to GPU" */
  if ((p = strstr (line, "offloaded ")) != NULL && strstr (line, "layers to GPU") != NULL)
    {
      int a, b;
      if (sscanf (p, "offloaded %d/%d", &a, &b) == 2 && a >= 0 && b > 0 && a <= b && b < 100000)
        {
          log->offloaded = a;
          log->layers = b;
        }
      return TRUE;
    }
  /* "build: 6699 (c08002a1) with cc …" */
  if ((p = strstr (line, "build: ")) != NULL)
    {
      int num;
      char commit[16];
      if (sscanf (p, "build: %d (%15[0-9a-f])", &num, commit) == 2 && num >= 0)
        {
          g_autofree char *b = g_strdup_printf ("%s (%d)", commit, num);
          hr_runs_set_string (&run->build, hr_runs_clean_text (b, -1));
        }
      return TRUE;
    }
  /* the devices: CUDA "Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9",
   * Vulkan "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | …",
   * Metal "ggml_metal_init: found device: Apple M2 Max", "GPU name:   Apple M3 Max" */
  if ((p = strstr (line, "Device ")) != NULL && g_ascii_isdigit (p[7]) && (p = strstr (p, ": ")) != NULL &&
      strstr (line, "compute capability") != NULL)
    {
      const char *stop = strchr (p + 2, ',');
      note_device_name (log, p + 2, stop ? (gsize) (stop - p - 2) : strlen (p + 2));
      return TRUE;
    }
  if ((p = strstr (line, "ggml_vulkan: ")) != NULL && g_ascii_isdigit (p[13]) && (p = strstr (p, " = ")) != NULL)
    {
      const char *stop = strstr (p + 3, " (");
      note_device_name (log, p + 3, stop ? (gsize) (stop - p - 3) : strlen (p + 3));
      return TRUE;
    }
  if ((p = strstr (line, "found device: ")) != NULL || (p = strstr (line, "GPU name: ")) != NULL)
    {
      p = strchr (p, ':') + 1;
      while (*p == ' ')
        p++;
      note_device_name (log, p, strlen (p));
      return TRUE;
    }
  (void) number;
  (void) error;
  return TRUE;
}

/* The server arguments a vLLM or SGLang start-up line names, each key as that line spells it
 * (NULL: the line does not carry it) */
typedef struct
{
  const char *model;
  const char *tp;
  const char *len;
  const char *mem_util;
  const char *quant;
  const char *kv;
} ServerArgKeys;

typedef char *(*ValueFunc) (const char *line, const char *key);

static void
server_args (Log                 *log,
             const char          *line,
             ValueFunc            value,
             const ServerArgKeys *keys)
{
  HrRun *run = log->run;
  g_autofree char *model = keys->model ? value (line, keys->model) : NULL;
  g_autofree char *tp = keys->tp ? value (line, keys->tp) : NULL;
  g_autofree char *len = keys->len ? value (line, keys->len) : NULL;
  g_autofree char *util = keys->mem_util ? value (line, keys->mem_util) : NULL;
  g_autofree char *quant = keys->quant ? value (line, keys->quant) : NULL;
  g_autofree char *kv = keys->kv ? value (line, keys->kv) : NULL;
  double v;
  gint64 n;

  if (model != NULL)
    hr_runs_set_string (&run->model, g_steal_pointer (&model));
  if (tp && hr_runs_parse_count (tp, FALSE, HR_MAX_GPUS, &n) && n >= 1)
    run->n_devices = (int) n;
  if (len && hr_runs_parse_count (len, FALSE, HR_MAX_CONTEXT, &n) && n >= 1)
    run->n_ctx = n;
  if (util && hr_runs_parse_decimal (util, FALSE, &v) && v > 0 && v <= 1)
    run->gpu_mem_util = v;
  if (quant != NULL && !g_str_equal (quant, "None"))
    hr_runs_set_string (&log->method, g_steal_pointer (&quant));
  if (kv != NULL && !g_str_equal (kv, "auto"))
    {
      hr_runs_set_kv_type (run->type_k, kv);
      hr_runs_set_kv_type (run->type_v, kv);
    }
}

static gboolean
vllm_line (const char *line,
           int         number,
           gpointer    data,
           GError    **error)
{
  Log *log = data;
  HrRun *run = log->run;
  const char *p;
  double v;
  gint64 n;

  (void) number;
  (void) error;
  if ((p = strstr (line, "vLLM API server version ")) != NULL)
    {
      g_autofree char *ver = hr_runs_clean_text (p + strlen ("vLLM API server version "), -1);
      /* the prefix counts against the 200 bytes kept like any other text */
      g_autofree char *build = ver ? g_strconcat ("vLLM ", ver, NULL) : NULL;
      if (build != NULL)
        hr_runs_set_string (&run->build, hr_runs_clean_text (build, -1));
      return TRUE;
    }
  if ((p = strstr (line, "LLM engine (v")) != NULL && strstr (line, "with config") != NULL)
    {
      const char *stop = strchr (p + 13, ')');
      g_autofree char *ver = stop ? hr_runs_clean_text (p + 13, stop - (p + 13)) : NULL;
      g_autofree char *build = ver ? g_strconcat ("vLLM ", ver, NULL) : NULL;
      static const ServerArgKeys keys = { "model=", "tensor_parallel_size=", "max_seq_len=", NULL,
                                          "quantization=", "kv_cache_dtype=" };

      if (build != NULL && run->build == NULL)
        run->build = hr_runs_clean_text (build, -1);
      server_args (log, line, hr_runs_value_after, &keys);
      return TRUE;
    }
  if (strstr (line, "non-default args") != NULL)
    {
      static const ServerArgKeys keys = { "model", "tensor_parallel_size", "max_model_len", "gpu_memory_utilization",
                                          "quantization", "kv_cache_dtype" };

      server_args (log, line, hr_runs_dict_value, &keys);
      return TRUE;
    }
  if ((p = strstr (line, "gpu_memory_utilization (")) != NULL &&
      hr_runs_number_after (p, "gpu_memory_utilization (", FALSE, &v) && v > 0 && v <= 1)
    {
      run->gpu_mem_util = v;
      /* V0: "… model weights take 12.55GiB; non_torch_memory …" may follow on the same line */
    }
  /* per GPU: "Model loading took 14.99 GiB" (V1), "Loading model weights took 67.7229 GB" (V0,
   * bytes / 2^30 despite the unit), "model weights take 12.55GiB" (V0 profiling) */
  if (((p = strstr (line, "Model loading took ")) != NULL && hr_runs_number_after (p, "Model loading took", FALSE, &v)) ||
      ((p = strstr (line, "Loading model weights took ")) != NULL && hr_runs_number_after (p, "Loading model weights took", FALSE, &v)) ||
      ((p = strstr (line, "model weights take ")) != NULL && hr_runs_number_after (p, "model weights take", FALSE, &v)))
    {
      if (v > 0 && v < 1e6 && !log->weights_lines++)
        log->device_weights = v * HR_GIB;
      return TRUE;
    }
  if ((p = strstr (line, "Available KV cache memory:")) != NULL &&
      hr_runs_number_after (p, "Available KV cache memory", FALSE, &v) && v >= 0 && v < 1e6)
    {
      if (!log->kv_lines++)
        log->device_kv = v * HR_GIB;
      return TRUE;
    }
  if ((p = strstr (line, "the rest of the memory reserved for KV Cache is ")) != NULL &&
      hr_runs_number_after (p, "KV Cache is", FALSE, &v) && v >= 0 && v < 1e6)
    {
      if (!log->kv_lines++)
        log->device_kv = v * HR_GIB;
      return TRUE;
    }
  /* V0 (0.6): "… non_torch_memory=0.35GiB kv_cache_size=3.81GiB" */
  if ((p = strstr (line, "kv_cache_size=")) != NULL && hr_runs_number_after (p, "kv_cache_size", FALSE, &v) &&
      v >= 0 && v < 1e6)
    {
      if (!log->kv_lines++)
        log->device_kv = v * HR_GIB;
    }
  if ((p = strstr (line, "GPU KV cache size: ")) != NULL &&
      (n = hr_runs_int_after (p, "GPU KV cache size", G_MAXINT64 / 2)) >= 0)
    {
      run->measured[HR_MEASURE_KV_TOKENS] = (double) n;
      log->kv_tokens_logged = TRUE;
      return TRUE;
    }
  if (((p = strstr (line, "# GPU blocks: ")) != NULL || (p = strstr (line, "# cuda blocks: ")) != NULL) &&
      (n = hr_runs_int_after (p, "blocks", G_MAXINT32)) >= 0)
    {
      log->gpu_blocks = n;
      return TRUE;
    }
  if ((p = strstr (line, "block_size=")) != NULL && (n = hr_runs_int_after (p, "block_size", 4096)) > 0)
    log->block_size = n;
  /* "Maximum concurrency for 40,000 tokens per request: 23.06x" */
  if ((p = strstr (line, "Maximum concurrency for ")) != NULL &&
      (n = hr_runs_int_after (p, "Maximum concurrency for", HR_MAX_CONTEXT)) > 0)
    {
      if (run->n_ctx == 0)
        run->n_ctx = n;
      return TRUE;
    }
  return TRUE;
}

static gboolean
sglang_line (const char *line,
             int         number,
             gpointer    data,
             GError    **error)
{
  Log *log = data;
  HrRun *run = log->run;
  const char *p;
  double v;
  gint64 n;

  (void) number;
  (void) error;
  if (strstr (line, "server_args=") != NULL || strstr (line, "ServerArgs(") != NULL)
    {
      static const ServerArgKeys keys = { "model_path=", "tp_size=", "context_length=", "mem_fraction_static=",
                                          "quantization=", "kv_cache_dtype=" };

      server_args (log, line, hr_runs_value_after, &keys);
      return TRUE;
    }
  if ((p = strstr (line, "Load weight end.")) != NULL && hr_runs_number_after (p, "mem usage", FALSE, &v) &&
      v > 0 && v < 1e6)
    {
      if (!log->weights_lines++)
        log->device_weights = v * HR_GIB;
      return TRUE;
    }
  /* "KV Cache is allocated. #tokens: 442750, K size: 27.02 GB, V size: 27.02 GB" */
  if ((p = strstr (line, "KV Cache is allocated.")) != NULL)
    {
      double k, vv;
      if ((n = hr_runs_int_after (p, "#tokens", G_MAXINT64 / 2)) >= 0)
        {
          run->measured[HR_MEASURE_KV_TOKENS] = (double) n;
          log->kv_tokens_logged = TRUE;
        }
      if (hr_runs_number_after (p, "K size", FALSE, &k) && hr_runs_number_after (p, "V size", FALSE, &vv) &&
          k >= 0 && vv >= 0 && k + vv < 1e6 && !log->kv_lines++)
        log->device_kv = (k + vv) * HR_GIB;
      return TRUE;
    }
  if ((p = strstr (line, "max_total_num_tokens=")) != NULL &&
      (n = hr_runs_int_after (p, "max_total_num_tokens", G_MAXINT64 / 2)) >= 0)
    {
      if (!log->kv_tokens_logged)
        run->measured[HR_MEASURE_KV_TOKENS] = (double) n;
      if (run->n_ctx == 0 && (n = hr_runs_int_after (line, "context_len", HR_MAX_CONTEXT)) > 0)
        run->n_ctx = n;
      return TRUE;
    }
  return TRUE;
}

GPtrArray *
hr_runs_parse_log (const char  *text,
           gsize        length,
           HrRunFormat  format,
           GError     **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  Log log = { .run = hr_runs_run_new (format, 1), .devices = g_ptr_array_new_with_free_func (g_free) };
  LineFunc func = format == HR_RUN_VLLM_LOG ? vllm_line
                : format == HR_RUN_SGLANG_LOG ? sglang_line : llama_line;
  HrRun *run = log.run;
  gboolean ok = hr_runs_each_line (text, length, func, &log, error);

  g_ptr_array_add (runs, run);
  if (ok)
    {
      if (format == HR_RUN_LLAMA_LOG)
        {
          if (log.weights_lines > 0)
            run->measured[HR_MEASURE_WEIGHTS] = log.device_weights;
          if (log.kv_lines > 0)
            run->measured[HR_MEASURE_KV] = log.device_kv;
          if (log.compute_lines > 0)
            run->measured[HR_MEASURE_BUFFERS] = log.device_compute;
          run->n_devices = log.devices->len;
          if (log.layers > 0)
            run->ngl = log.offloaded;
          if (run->backend == NULL && log.weights_lines == 0 &&
              (log.kv_lines > 0 || log.compute_lines > 0))
            run->backend = g_strdup ("CPU");
        }
      else
        {
          int tp = MAX (run->n_devices, 1);
          /* vLLM and SGLang log one rank's weights and pool; Headroom's totals are the group's */
          if (log.weights_lines > 0)
            run->measured[HR_MEASURE_WEIGHTS] = log.device_weights * tp;
          if (log.kv_lines > 0)
            run->measured[HR_MEASURE_KV] = log.device_kv * tp;
          if (!log.kv_tokens_logged && log.gpu_blocks > 0)
            run->measured[HR_MEASURE_KV_TOKENS] = (double) log.gpu_blocks * (log.block_size > 0 ? log.block_size : 16);
          run->backend = g_strdup ("CUDA");
        }
      if (log.first_device != NULL && !log.several_names)
        run->device = g_steal_pointer (&log.first_device);
      if (run->quant == NULL)
        run->quant = hr_runs_quant_from_file_name (run->model);
      if (run->quant == NULL && log.method != NULL)
        {
          const char *q = hr_runs_quant_from_method (log.method);
          if (q != NULL)
            run->quant = g_strdup (q);
          else
            run->quant_method = g_steal_pointer (&log.method);
        }
    }
  g_free (log.method);
  g_free (log.first_device);
  g_ptr_array_unref (log.devices);
  if (!ok)
    return NULL;
  {
    gboolean any = FALSE;
    for (int i = 0; i < HR_N_MEASURES; i++)
      any |= isfinite (run->measured[i]);
    if (!any)
      {
        g_set_error (error, HR_RUNS_ERROR, HR_RUNS_ERROR_INVALID,
                     "a %s without one figure Headroom predicts (buffer sizes, KV cache or tokens): "
                     "cut off before the engine finished loading?", hr_run_format_to_string (format));
        return NULL;
      }
  }
  return g_steal_pointer (&runs);
}
