/* hr-cli-inspect.c — `headroom-cli inspect FILE.gguf [--context N] [--batch N] [--kv-type T]
 *                    [--backend B] [--gpu ID|--gpu-custom SPEC] [--gpus N] [--engine E] [--json]`
 *
 * Reads only the GGUF header (all parts of a split model) and prints the file's facts: the
 * architecture, tensor count, parameter count, exact tensor bytes, bytes per ggml type and the
 * mix.  With --context it adds the memory estimate for that file: on a given GPU the full
 * estimate, otherwise what the model needs on any device of the chosen backend.
 */
#include "hr-cli-inspect.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli-common.h"
#include "hr-text.h"
#include "hr-estimate.h"
#include "hr-gguf.h"
#include "hr-load-curve.h"
#include "hr-gguf-remote.h"
#include "hr-http.h"
#include "hr-projector.h"
#include "hr-report.h"
#include "hr-units.h"

typedef struct
{
  char *context;
  int batch;
  char *kv_type;
  char *backend;
  char *engine;
  char *gpu;
  char *gpu_custom;
  int gpus;
  char *mmproj;        /* auto (default) | none (#31) */
  gboolean json;
  char **files;
} InspectArgs;

static void
inspect_args_clear (InspectArgs *a)
{
  g_free (a->context);
  g_free (a->kv_type);
  g_free (a->backend);
  g_free (a->engine);
  g_free (a->gpu);
  g_free (a->gpu_custom);
  g_free (a->mmproj);
  g_strfreev (a->files);
}

static int
failure (const char *message)
{
  hr_cli_print_error ("headroom-cli inspect", message);
  return 1;
}

/* A figure for people, beside the exact integers (which stay as they are, for scripts). */
static const char *
num (char   *buf,
     double  value,
     int     decimals)
{
  return hr_cli_number (buf, value, decimals, 0);
}

/* ---- the estimate ---------------------------------------------------------------------- */

typedef struct
{
  HrScenario scenario;
  HrEstimate estimate;
  HrGpu *owned_gpu;
  HrCatalog *catalog;
  gboolean on_gpu;     /* a real GPU was given: verdict and speed mean something */
  char *mmproj_path;   /* the projector beside the file, which the scenario borrows */
} InspectEstimate;

static void
inspect_estimate_clear (InspectEstimate *ie)
{
  g_clear_pointer (&ie->owned_gpu, hr_gpu_free);
  g_clear_pointer (&ie->catalog, hr_catalog_free);
  g_clear_pointer (&ie->mmproj_path, g_free);
}

static gboolean
compute_estimate (const InspectArgs  *a,
                  const char         *file,
                  const HrGguf       *gguf,
                  HrModel            *model,
                  InspectEstimate    *ie,
                  int                *exit_code,
                  GError            **error)
{
  HrScenario *s = &ie->scenario;
  const HrGpu *gpu = NULL;
  const HrPricing *pricing = NULL;
  HrWeights w;

  *exit_code = 2;
  if (a->gpu != NULL && a->gpu_custom != NULL)
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "--gpu and --gpu-custom exclude each other");
      return FALSE;
    }
  if (a->gpu != NULL)
    {
      g_autoptr(GError) local = NULL;

      ie->catalog = hr_catalog_new_default (&local);
      if (ie->catalog == NULL)
        {
          *exit_code = 1;
          g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED,
                       "cannot load the bundled catalog: %s", local->message);
          return FALSE;
        }
      hr_cli_load_user_data (ie->catalog);
      gpu = hr_cli_find_gpu (ie->catalog, a->gpu, error);
      if (gpu == NULL)
        return FALSE;
      pricing = hr_catalog_get_pricing (ie->catalog);
      ie->on_gpu = TRUE;
    }
  else if (a->gpu_custom != NULL)
    {
      g_autoptr(GError) local = NULL;

      ie->owned_gpu = hr_gpu_new_from_spec (a->gpu_custom, &local);
      if (ie->owned_gpu == NULL)
        {
          g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "%s", local->message);
          return FALSE;
        }
      gpu = ie->owned_gpu;
      ie->on_gpu = TRUE;
    }
  else
    {
      /* No device given: a device too large to matter, so only the model's needs show. */
      ie->owned_gpu = hr_gpu_new ();
      ie->owned_gpu->id = g_strdup ("any");
      ie->owned_gpu->name = g_strdup ("any device");
      ie->owned_gpu->memory_gib = 1e6;
      ie->owned_gpu->form = HR_FORM_DATACENTER;
      ie->owned_gpu->backend = HR_BACKEND_CUDA;
      gpu = ie->owned_gpu;
    }

  hr_scenario_init (s, model, gpu);
  s->n_gpus = a->gpus;
  s->batch = a->batch;
  if (!hr_parse_context (a->context, &s->context))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE,
                   "--context: “%s” is not a token count (e.g. 32768 or 32k)", a->context);
      return FALSE;
    }
  if (a->kv_type != NULL && !hr_kv_type_from_string (a->kv_type, &s->kv_type))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE,
                   "--kv-type: unknown type “%s” (f16, fp8, q8_0, q4_0)", a->kv_type);
      return FALSE;
    }
  if (a->engine != NULL && !hr_cli_engine_parse (a->engine, &s->engine, error))
    return FALSE;
  if (a->backend != NULL)
    {
      if (!hr_backend_from_string (a->backend, &s->backend))
        {
          g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE,
                       "--backend: unknown backend “%s” (cuda, rocm, metal, vulkan, sycl, cpu)",
                       a->backend);
          return FALSE;
        }
      s->backend_set = TRUE;
    }

  /* the vision projector as estimate counts it (#31): auto, the mmproj*.gguf beside a local
   * file (llama-server --mmproj), counted under llama.cpp; none: not */
  if (a->mmproj == NULL || g_strcmp0 (a->mmproj, "auto") == 0)
    {
      s->mmproj_mode = HR_MMPROJ_AUTO;
      if (!hr_gguf_remote_is_url (file))
        {
          g_free (model->gguf_path);
          model->gguf_path = g_strdup (file);
          if (hr_projector_attach_beside (model))
            s->mmproj_path = ie->mmproj_path = hr_projector_find_beside (file);
        }
    }
  else if (g_strcmp0 (a->mmproj, "none") == 0)
    s->mmproj_mode = HR_MMPROJ_NONE;
  else
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "--mmproj: “%s” is not auto or none", a->mmproj);
      return FALSE;
    }

  /* The file's own mix; a mix the core does not know still gets the exact bytes. */
  if (model->gguf_quant == NULL || !hr_weights_compute (model, model->gguf_quant, &w, NULL))
    {
      g_clear_pointer (&model->gguf_quant, g_free);
      g_strlcpy (s->quant, hr_gguf_fallback_quant (gguf), sizeof s->quant);
    }

  if (!hr_scenario_validate (s, error))
    return FALSE;

  *exit_code = 1;
  if (!hr_estimate_compute (s, pricing, &ie->estimate, error))
    return FALSE;
  *exit_code = 0;
  return TRUE;
}

/* ---- output ---------------------------------------------------------------------------- */

static void
write_json (const char            *file,
            const HrGguf          *gguf,
            const HrModel         *model,
            const GError          *model_error,
            const InspectEstimate *ie)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const GArray *by_type = hr_gguf_get_bytes_by_type (gguf);
  const char *quant = hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf));
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "file", file);
  hr_json_member_int (&w, "gguf_version", hr_gguf_get_version (gguf));
  hr_json_member_int (&w, "splits", hr_gguf_get_n_splits (gguf));
  hr_json_member_bool (&w, "complete", hr_gguf_is_complete (gguf));
  /* a missing string is null */
  hr_json_member_string (&w, "architecture", hr_gguf_get_architecture (gguf));
  hr_json_member_string (&w, "name", hr_gguf_get_name (gguf));
  hr_json_member_int (&w, "n_tensors", hr_gguf_get_n_tensors (gguf));
  hr_json_member_int (&w, "n_params", (gint64) hr_gguf_get_n_params (gguf));
  hr_json_member_int (&w, "tensor_bytes", (gint64) hr_gguf_get_tensor_bytes (gguf));
  hr_json_member_number (&w, "tensor_gib", hr_to_gib ((double) hr_gguf_get_tensor_bytes (gguf)), 2);
  hr_json_member_int (&w, "expert_bytes", (gint64) hr_gguf_get_expert_bytes (gguf));
  hr_json_key (&w, "bytes_by_type");
  hr_json_begin_object (&w);
  for (guint i = 0; i < by_type->len; i++)
    {
      const HrGgufTypeTotal *t = &g_array_index (by_type, HrGgufTypeTotal, i);

      hr_json_member_int (&w, t->type_name, (gint64) t->bytes);
    }
  hr_json_end_object (&w);
  hr_json_key (&w, "file_type");
  if (hr_gguf_get_file_type (gguf) >= 0)
    hr_json_int (&w, hr_gguf_get_file_type (gguf));
  else
    hr_json_null (&w);
  hr_json_member_string (&w, "quant", quant);

  hr_json_key (&w, "model");
  if (model != NULL)
    {
      hr_json_begin_object (&w);
      hr_json_member_string (&w, "id", model->id);
      hr_json_member_string (&w, "arch_label", model->arch_label);
      hr_json_member_int (&w, "layers", model->n_layers);
      hr_json_member_int (&w, "hidden", model->hidden);
      hr_json_member_int (&w, "heads", model->n_heads);
      hr_json_member_int (&w, "head_dim", model->head_dim);
      hr_json_member_int (&w, "vocab", model->vocab);
      hr_json_member_int (&w, "experts", model->n_experts);
      hr_json_member_int (&w, "experts_used", model->n_experts_used);
      hr_json_member_int (&w, "max_context", model->max_context);
      hr_json_member_number (&w, "total_params", model->total_params, 0);
      hr_json_member_number (&w, "active_params", model->active_params, 0);
      hr_json_member_number (&w, "kv_bytes_per_token_f16", hr_model_kv_bytes_per_token (model, 2), 0);
      hr_json_member_number (&w, "state_bytes_per_seq", hr_model_state_bytes (model), 0);
      hr_json_key (&w, "kv_groups");
      hr_json_begin_array (&w);
      for (guint i = 0; i < model->layers->len; i++)
        {
          const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);

          hr_json_begin_object (&w);
          hr_json_member_string (&w, "kind", hr_layer_kind_to_string (g->kind));
          hr_json_member_int (&w, "layers", g->count);
          if (g->kind == HR_LAYER_RECURRENT)
            hr_json_member_number (&w, "state_bytes", g->state_bytes, 0);
          else
            {
              hr_json_member_int (&w, "kv_heads", g->kv_heads);
              hr_json_member_int (&w, "k_dim", g->k_dim);
              hr_json_member_int (&w, "v_dim", g->v_dim);
              if (g->window > 0)
                hr_json_member_int (&w, "window", g->window);
            }
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      hr_json_end_object (&w);
    }
  else
    hr_json_null (&w);
  if (model_error != NULL)
    hr_json_member_string (&w, "model_error", model_error->message);

  if (ie != NULL)
    {
      const HrEstimate *e = &ie->estimate;
      const HrScenario *s = &ie->scenario;
      HrLoadCurve load;
      gboolean has_load;

      hr_json_key (&w, "estimate");
      hr_json_begin_object (&w);
      /* the keys of `estimate --json`; without a device its figures are null */
      hr_report_estimate_members_device (&w, s, e, ie->on_gpu);
      /* and estimate's throughput under load, where it applies (a device and several
       * sequences) */
      has_load = ie->on_gpu && hr_load_curve_applies (s) &&
                 hr_load_curve_compute (s, e, NAN, &load, NULL);
      hr_load_curve_json_members (&w, has_load ? &load : NULL);
      hr_json_end_object (&w);
    }
  hr_json_end_object (&w);
  g_string_append_c (out, '\n');
  fputs (out->str, stdout);
}

static void
write_text (const char            *file,
            const HrGguf          *gguf,
            const HrModel         *model,
            const GError          *model_error,
            const InspectEstimate *ie)
{
  const GArray *by_type = hr_gguf_get_bytes_by_type (gguf);
  const char *quant = hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf));
  double bytes = (double) hr_gguf_get_tensor_bytes (gguf);
  char a[64], b[64];
  /* The header's strings and the file name go to a terminal: escaped. */
  g_autofree char *shown_file = hr_text_sanitize (file, 0);
  g_autofree char *arch = hr_text_sanitize (hr_gguf_get_architecture (gguf), 0);
  g_autofree char *name = hr_text_sanitize (hr_gguf_get_name (gguf), 0);

  printf ("%-14s %s (GGUF v%u%s)\n", "file", shown_file, hr_gguf_get_version (gguf),
          hr_gguf_get_n_splits (gguf) > 1 ? ", split" : "");
  if (hr_gguf_get_n_splits (gguf) > 1)
    printf ("%-14s %u\n", "splits", hr_gguf_get_n_splits (gguf));
  printf ("%-14s %s\n", "architecture", arch ? arch : "—");
  printf ("%-14s %s\n", "name", name ? name : "—");
  if (hr_gguf_get_file_type (gguf) >= 0)
    printf ("%-14s %s (file_type %d)\n", "quant", quant ? quant : "unknown", hr_gguf_get_file_type (gguf));
  else
    printf ("%-14s %s\n", "quant", "— (no general.file_type)");
  printf ("%-14s %u\n", "n_tensors", hr_gguf_get_n_tensors (gguf));
  printf ("%-14s %" G_GUINT64_FORMAT " (%s B)\n", "n_params", hr_gguf_get_n_params (gguf),
          num (a, (double) hr_gguf_get_n_params (gguf) / 1e9, 2));
  printf ("%-14s %" G_GUINT64_FORMAT " (%s GiB, %s GB)\n", "tensor_bytes",
          hr_gguf_get_tensor_bytes (gguf), num (a, hr_to_gib (bytes), 2), num (b, hr_to_gb (bytes), 2));
  if (hr_gguf_get_expert_bytes (gguf) > 0)
    printf ("%-14s %" G_GUINT64_FORMAT " (%s GiB)\n", "expert_bytes", hr_gguf_get_expert_bytes (gguf),
            num (a, hr_to_gib ((double) hr_gguf_get_expert_bytes (gguf)), 2));
  printf ("bytes_by_type\n");
  for (guint i = 0; i < by_type->len; i++)
    {
      const HrGgufTypeTotal *t = &g_array_index (by_type, HrGgufTypeTotal, i);

      printf ("  %-12s %" G_GUINT64_FORMAT " (%s GiB, %u tensors)\n", t->type_name, t->bytes,
              num (a, hr_to_gib ((double) t->bytes), 2), t->n_tensors);
    }
  if (!hr_gguf_is_complete (gguf))
    printf ("%-14s %s\n", "warning", "the file is shorter than its tensors (an unfinished download?)");

  if (model != NULL)
    {
      printf ("%-14s %s\n", "model", model->arch_label);
      printf ("%-14s %d (hidden %d, %d heads × %d)\n", "layers", model->n_layers, model->hidden,
              model->n_heads, model->head_dim);
      if (model->n_experts > 0)
        printf ("%-14s %d, %d per token\n", "experts", model->n_experts, model->n_experts_used);
      for (guint i = 0; i < model->layers->len; i++)
        {
          const HrLayerGroup *g = &g_array_index (model->layers, HrLayerGroup, i);

          if (g->kind == HR_LAYER_RECURRENT)
            printf ("  %-12s %d layers, %s MiB state per sequence each\n",
                    hr_layer_kind_to_string (g->kind), g->count,
                    num (a, g->state_bytes / HR_MIB, 2));
          else if (g->window > 0)
            printf ("  %-12s %d layers, %d KV heads × %d/%d, window %d\n",
                    hr_layer_kind_to_string (g->kind), g->count, g->kv_heads, g->k_dim, g->v_dim,
                    g->window);
          else
            printf ("  %-12s %d layers, %d KV heads × %d/%d\n", hr_layer_kind_to_string (g->kind),
                    g->count, g->kv_heads, g->k_dim, g->v_dim);
        }
      printf ("%-14s %s B/token (F16)\n", "kv_cache", num (a, hr_model_kv_bytes_per_token (model, 2), 0));
      if (model->max_context > 0)
        printf ("%-14s %s\n", "max_context", num (a, (double) model->max_context, 0));
    }
  else if (model_error != NULL)
    {
      g_autofree char *why = hr_text_sanitize (model_error->message, 400);

      printf ("%-14s %s\n", "model", why);
    }

  if (ie != NULL)
    {
      if (ie->on_gpu)
        {
          g_autofree char *text = hr_report_estimate_text (&ie->scenario, &ie->estimate);

          printf ("\n%s", text);
        }
      else
        {
          const HrEstimate *e = &ie->estimate;
          g_autofree char *ctx = hr_format_context_locale (ie->scenario.context);

          printf ("\nestimate       %s context × %d, KV %s, %s (%s)\n", ctx, ie->scenario.batch,
                  hr_kv_type_to_string (ie->scenario.kv_type),
                  hr_engine_display_name (ie->scenario.engine),
                  hr_backend_to_string (hr_scenario_backend (&ie->scenario)));
          printf ("  %-12s %s GiB\n", "weights", num (a, hr_to_gib (e->weights.bytes), 2));
          printf ("  %-12s %s GiB\n", "kv_cache", num (a, hr_to_gib (e->kv_bytes), 2));
          printf ("  %-12s %s GiB\n", "overhead", num (a, hr_to_gib (e->overhead_bytes), 2));
          printf ("  %-12s %s GiB (%s GB)\n", "required", num (a, hr_to_gib (e->required_bytes), 2),
                  num (b, hr_to_gb (e->required_bytes), 2));
        }
    }
}

int
hr_cli_inspect (int    argc,
                char **argv)
{
  InspectArgs a = { 0 };
  g_autofree char *engine_help = g_strdup_printf ("%s (llama.cpp)", hr_cli_engine_choices ());
  const GOptionEntry entries[] = {
    { "context", 0, 0, G_OPTION_ARG_STRING, &a.context, "Also estimate memory at this context (32768, 32k)", "N" },
    { "batch", 0, 0, G_OPTION_ARG_INT, &a.batch, "Concurrent sequences (1)", "N" },
    { "kv-type", 0, 0, G_OPTION_ARG_STRING, &a.kv_type, "KV cache: f16|fp8|q8_0|q4_0", "T" },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &a.backend, "cuda|rocm|metal|vulkan|sycl|cpu (cuda)", "B" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &a.engine, engine_help, "E" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &a.gpu, "Estimate on this GPU (see: list gpus)", "ID" },
    { "gpu-custom", 0, 0, G_OPTION_ARG_STRING, &a.gpu_custom, "Estimate on a custom GPU", "SPEC" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &a.gpus, "Number of GPUs (1)", "N" },
    { "mmproj", 0, 0, G_OPTION_ARG_STRING, &a.mmproj,
      "Vision projector: auto (default: an mmproj*.gguf beside the file, under llama.cpp) or none", "auto|none" },
    HR_CLI_JSON_OPTION (a.json),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a.files, NULL, "FILE.gguf|URL" },
    { NULL }
  };
  g_autoptr(GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) model_error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrModel) model = NULL;
  InspectEstimate ie = { 0 };
  g_autofree char **typed = NULL;
  int n_typed;
  g_autofree char *shown = NULL;
  const char *file;
  int rc = 0;

  a.batch = 1;
  a.gpus = 1;
  g_option_context_set_summary (octx, "The exact sizes in a GGUF header: a local file, or the "
                                      "header of one on a web server (http or https).");
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_set_help_enabled (octx, TRUE);
  typed = g_memdup2 (argv, sizeof (char *) * (argc + 1));
  n_typed = argc;
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      g_autofree char *hint = hr_cli_option_hint (octx, error, n_typed, typed);

      rc = hr_cli_usage_error ("headroom-cli inspect", "%s%s", error->message, hint);
      goto out;
    }
  if (a.files == NULL || a.files[0] == NULL)
    {
      rc = hr_cli_usage_error ("headroom-cli inspect",
                               "which file? headroom-cli inspect FILE.gguf [--context N] [--json]");
      goto out;
    }
  if (a.files[1] != NULL)
    {
      rc = hr_cli_usage_error ("headroom-cli inspect", "one file at a time (got “%s” and “%s”)",
                               a.files[0], a.files[1]);
      goto out;
    }
  file = a.files[0];
  /* an address is printed without the user:password@ it may carry */
  shown = hr_http_url_for_display (file);
  /* The same bounds as every other command's scenario (hr_scenario_validate). */
  if (a.batch < 1 || a.batch > HR_MAX_BATCH)
    {
      rc = hr_cli_usage_error ("headroom-cli inspect", "--batch must be between 1 and %d (got %d)",
                               HR_MAX_BATCH, a.batch);
      goto out;
    }
  if (a.gpus < 1 || a.gpus > HR_MAX_GPUS)
    {
      rc = hr_cli_usage_error ("headroom-cli inspect", "--gpus must be between 1 and %d (got %d)",
                               HR_MAX_GPUS, a.gpus);
      goto out;
    }
  if (a.context == NULL && (a.gpu != NULL || a.gpu_custom != NULL || a.kv_type != NULL ||
                            a.backend != NULL || a.engine != NULL))
    {
      rc = hr_cli_usage_error ("headroom-cli inspect",
                               "--gpu, --kv-type, --backend and --engine need --context N");
      goto out;
    }

  /* A URL is read with HTTP Range requests: the header only, a few MiB however big the file. */
  if (hr_gguf_remote_is_url (file))
    gguf = hr_gguf_remote_load_sync (file, 0, NULL, &error);
  else
    gguf = hr_gguf_load_split (file, &error);
  if (gguf == NULL)
    {
      rc = failure (error->message);
      goto out;
    }
  model = hr_gguf_to_model (gguf, &model_error);

  if (a.context != NULL)
    {
      int code = 0;

      if (model == NULL)
        {
          g_autofree char *msg = g_strdup_printf ("cannot estimate %s: %s", shown, model_error->message);
          rc = failure (msg);
          goto out;
        }
      if (!compute_estimate (&a, file, gguf, model, &ie, &code, &error))
        {
          if (code == 2)
            rc = hr_cli_usage_error ("headroom-cli inspect", "%s", error->message);
          else
            rc = failure (error->message);
          goto out;
        }
    }

  if (a.json)
    write_json (shown, gguf, model, model_error, a.context != NULL ? &ie : NULL);
  else
    write_text (shown, gguf, model, model_error, a.context != NULL ? &ie : NULL);

out:
  inspect_estimate_clear (&ie);
  inspect_args_clear (&a);
  return rc;
}
