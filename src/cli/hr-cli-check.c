/* hr-cli-check.c — `headroom-cli check FILE|- [--model ID] [--gpu ID] [--gpus N] [--json]`
 *
 * Reads what an engine printed (llama-bench's table, CSV or JSON; a llama.cpp, vLLM or SGLang
 * startup log), sizes each run's scenario and prints Headroom's prediction beside the measured
 * figure with the error.  What the text does not say (vLLM logs rarely name the GPU) is given
 * with the options; a run still not mappable is listed with its measured figures and why.
 */
#include "hr-cli-check.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "hr-cli-common.h"
#include "hr-cli-runs.h"
#include "hr-json-writer.h"
#include "hr-runs.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

#define WHO "headroom-cli check"

static const char * const missing_ids[] = { NULL, "model", "gpu", "quant", "other" };

/* What to add on the command line for a run that was not mapped */
static const char *
hint_for (HrRunMissing missing)
{
  switch (missing)
    {
    case HR_RUN_MISSING_MODEL:
      return ": name it with --model";
    case HR_RUN_MISSING_GPU:
      return ": name it with --gpu";
    case HR_RUN_MISSING_QUANT:
      return ": name it with --quant";
    case HR_RUN_MISSING_NONE:
    case HR_RUN_MISSING_OTHER:
    default:
      return "";
    }
}

static void
print_text (GPtrArray *checks)
{
  const HrRunCheck *first = g_ptr_array_index (checks, 0);
  const HrRun *r0 = first->run;

  printf ("%s: %u run%s%s%s%s\n", hr_run_format_display (r0->format), checks->len,
          checks->len == 1 ? "" : "s", r0->build ? " (build " : "", r0->build ? r0->build : "",
          r0->build ? ")" : "");
  for (guint i = 0; i < checks->len; i++)
    {
      const HrRunCheck *c = g_ptr_array_index (checks, i);

      hr_cli_print_run (c);
      if (!c->mapped)
        printf ("  no prediction: %s%s\n", c->reason, hint_for (c->missing));
      for (HrMeasure m = 0; m < HR_N_MEASURES; m++)
        hr_cli_print_figure (c, m, NAN);
    }
}

static char *
json_text (GPtrArray *checks)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "format", hr_run_format_to_string (((HrRunCheck *) g_ptr_array_index (checks, 0))->run->format));
  hr_json_key (&w, "runs");
  hr_json_begin_array (&w);
  for (guint i = 0; i < checks->len; i++)
    {
      const HrRunCheck *c = g_ptr_array_index (checks, i);
      const HrRun *r = c->run;

      hr_json_begin_object (&w);
      hr_json_member_int (&w, "line", r->line);
      hr_json_member_string (&w, "model_named", r->model ? r->model : r->model_type);
      hr_json_member_string (&w, "device_named", r->device);
      hr_json_member_string (&w, "backend_named", r->backend);
      hr_json_member_string (&w, "build", r->build);
      hr_json_member_int (&w, "n_prompt", r->n_prompt);
      hr_json_member_int (&w, "n_gen", r->n_gen);
      hr_json_member_int (&w, "depth", r->depth);
      hr_json_member_bool (&w, "mapped", c->mapped);
      hr_json_member_string (&w, "reason", c->reason);
      hr_json_member_string (&w, "missing", c->mapped ? NULL : missing_ids[c->missing]);
      hr_json_key (&w, "scenario");
      if (c->mapped)
        {
          hr_json_begin_object (&w);
          hr_json_member_string (&w, "model", c->model->id);
          hr_json_member_string (&w, "gpu", c->gpu->id);
          hr_json_member_int (&w, "gpus", c->scenario.n_gpus);
          hr_json_member_string (&w, "quant", c->scenario.quant);
          hr_json_member_int (&w, "context", c->scenario.context);
          hr_json_member_string (&w, "engine", hr_engine_to_string (c->scenario.engine));
          hr_json_member_string (&w, "backend", hr_backend_to_string (hr_scenario_backend (&c->scenario)));
          hr_json_member_bool (&w, "calibrated", c->estimate.calibrated);
          hr_json_end_object (&w);
        }
      else
        hr_json_null (&w);
      hr_json_key (&w, "figures");
      hr_json_begin_array (&w);
      for (int m = 0; m < HR_N_MEASURES; m++)
        {
          if (!isfinite (r->measured[m]))
            continue;
          hr_json_begin_object_inline (&w);
          hr_json_member_string (&w, "quantity", hr_measure_to_string (m));
          hr_json_member_number (&w, "measured", r->measured[m], 2);
          hr_json_member_number (&w, "predicted", c->predicted[m], 2);
          hr_json_member_number (&w, "error_pct", c->error[m] * 100, 2);
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

int
hr_cli_check (int              argc,
              char           **argv,
              const HrCatalog *catalog)
{
  g_autofree char *model = NULL, *gpu = NULL, *quant = NULL;
  int gpus = G_MININT;   /* not given */
  gboolean json = FALSE, no_calibration = FALSE;
  g_autoptr(GArray) calibrations = NULL;
  const GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, "The model the runs used, when the text does not say", "ID" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "The GPU the runs used, when the text does not say", "ID" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, "GPUs the runs used (default: as the text says)", "N" },
    { "quant", 0, 0, G_OPTION_ARG_STRING, &quant, "The quantization the runs loaded, when the text does not say", "Q" },
    { "no-calibration", 0, 0, G_OPTION_ARG_NONE, &no_calibration,
      "Predict without your calibration of the GPU (headroom-cli calibrate)", NULL },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GPtrArray) checks = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);
  HrRunHints hints = { 0 };

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) {
                               .parameter = "FILE|-",
                               .summary = "Reads llama-bench output (table, CSV, JSON) or a llama.cpp, vLLM or "
                                          "SGLang startup log and puts Headroom's prediction beside each measured figure.",
                               .entries = entries, .json = &json, .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (argc != 2)
    return hr_cli_usage_error (WHO, "give one FILE, or - for standard input");
  if (gpus != G_MININT && (gpus < 1 || gpus > HR_MAX_GPUS))
    return hr_cli_usage_error (WHO, "--gpus: %d is not between 1 and %d", gpus, HR_MAX_GPUS);
  if (model != NULL && hr_cli_find_model (catalog, model, &error) == NULL)
    return hr_cli_usage_error (WHO, "%s", error->message);
  if (gpu != NULL && hr_cli_find_gpu (catalog, gpu, &error) == NULL)
    return hr_cli_usage_error (WHO, "%s", error->message);

  if (quant != NULL && hr_catalog_find_quant (catalog, quant) == NULL)
    return hr_cli_usage_error (WHO, "--quant: unknown quantization “%s” (see: headroom-cli list quants)", quant);

  runs = hr_cli_read_runs (WHO, argv[1]);
  if (runs == NULL)
    return 1;

  hints.model_id = model;
  hints.gpu_id = gpu;
  hints.n_gpus = gpus == G_MININT ? 0 : gpus;
  hints.quant = quant;
  if (!no_calibration)
    hints.calibrations = calibrations = hr_user_calibration_load (NULL, NULL);
  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (checks, hr_run_check (g_ptr_array_index (runs, i), catalog, &hints));

  if (json)
    {
      g_autofree char *text = json_text (checks);
      fputs (text, stdout);
    }
  else
    print_text (checks);
  return 0;
}
