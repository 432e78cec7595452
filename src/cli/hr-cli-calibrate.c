/* hr-cli-calibrate.c — `headroom-cli calibrate FILE… [--gpu ID|this] [--model ID] [--gpus N]
 *                      [--quant Q] [--json]`, `calibrate --list`, `calibrate --remove ID|all`
 *
 * Fits the device's effective bandwidth, fixed cost per token and prefill rate to the user's
 * llama.cpp runs (hr-user-calibration.h), saves them, and shows each run measured, as Headroom
 * predicted it before, and as it predicts it now.  Later estimates on that GPU and backend use
 * the calibration unless --no-calibration.
 */
#include "hr-cli-calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-cli-common.h"
#include "hr-cli-runs.h"
#include "hr-json-writer.h"
#include "hr-runs.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

#define WHO "headroom-cli calibrate"

/* The decode or prefill figure of @c with @cal applied (NAN when it measured neither). */
static double
calibrated_figure (const HrRunCheck          *c,
                   const HrDeviceCalibration *cal,
                   HrMeasure                  m)
{
  HrScenario s = c->scenario;
  HrEstimate e;

  s.calibration = cal;
  if (!hr_estimate_compute (&s, NULL, &e, NULL))
    return NAN;
  return m == HR_MEASURE_DECODE ? e.decode_tps : e.prefill_tps;
}

static const HrGpu *
cal_gpu (const HrCatalog           *catalog,
         const HrDeviceCalibration *cal)
{
  return hr_catalog_find_gpu (catalog, cal->gpu_id);
}

static void
describe (GString                   *out,
          const HrCatalog           *catalog,
          const HrDeviceCalibration *cal)
{
  const HrGpu *gpu = cal_gpu (catalog, cal);
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], c[HR_CLI_NUM_SIZE];

  g_string_append_printf (out, "%s, %s (%s):", gpu ? gpu->name : cal->gpu_id,
                          hr_backend_display_name (cal->backend), cal->date);
  if (cal->decode_runs > 0)
    {
      g_string_append_printf (out, " decode from %d run%s: %s GB/s effective", cal->decode_runs,
                              cal->decode_runs == 1 ? "" : "s", hr_cli_number (a, cal->bytes_per_s / 1e9, 0, 0));
      if (gpu != NULL && isfinite (gpu->bandwidth_gbs) && gpu->bandwidth_gbs > 0)
        g_string_append_printf (out, " (%s %% of %s GB/s)",
                                hr_cli_number (b, cal->bytes_per_s / 1e9 / gpu->bandwidth_gbs * 100, 0, 0),
                                hr_cli_number (c, gpu->bandwidth_gbs, 0, 0));
      g_string_append_printf (out, " + %s ms per token%s", hr_cli_number (a, cal->fixed_s * 1e3, 2, 0),
                              cal->fixed_fitted ? "" : " (Headroom's)");
    }
  if (cal->prefill_runs > 0)
    g_string_append_printf (out, "%s prefill ×%s from %d run%s", cal->decode_runs > 0 ? ";" : "",
                            hr_cli_number (a, cal->prefill_scale, 2, 0), cal->prefill_runs,
                            cal->prefill_runs == 1 ? "" : "s");
  g_string_append_c (out, '\n');
}

static void
json_device (HrJsonWriter              *w,
             const HrCatalog           *catalog,
             const HrDeviceCalibration *cal)
{
  const HrGpu *gpu = cal_gpu (catalog, cal);

  hr_json_member_string (w, "gpu", cal->gpu_id);
  hr_json_member_string (w, "backend", hr_backend_to_string (cal->backend));
  hr_json_member_string (w, "date", cal->date);
  hr_json_member_int (w, "decode_runs", cal->decode_runs);
  hr_json_member_number (w, "bandwidth_gbs", cal->decode_runs > 0 ? cal->bytes_per_s / 1e9 : NAN, 1);
  hr_json_member_number (w, "bandwidth_pct",
                         cal->decode_runs > 0 && gpu && gpu->bandwidth_gbs > 0
                           ? cal->bytes_per_s / 1e9 / gpu->bandwidth_gbs * 100 : NAN, 1);
  hr_json_member_number (w, "fixed_ms", cal->decode_runs > 0 ? cal->fixed_s * 1e3 : NAN, 3);
  hr_json_member_bool (w, "fixed_fitted", cal->fixed_fitted);
  hr_json_member_int (w, "prefill_runs", cal->prefill_runs);
  hr_json_member_number (w, "prefill_scale", cal->prefill_scale, 4);
}

static int
list_saved (const HrCatalog *catalog,
            gboolean         json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) cals = hr_user_calibration_load (NULL, &error);

  if (cals == NULL)
    {
      hr_cli_print_error (WHO, error->message);
      return 1;
    }
  if (json)
    {
      HrJsonWriter w;
      g_autofree char *text = NULL;

      hr_json_document_begin (&w);
      hr_json_begin_array (&w);
      for (guint i = 0; i < cals->len; i++)
        {
          hr_json_begin_object (&w);
          json_device (&w, catalog, &g_array_index (cals, HrDeviceCalibration, i));
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      text = hr_json_document_end (&w);
      fputs (text, stdout);
      return 0;
    }
  if (cals->len == 0)
    printf ("No device is calibrated.\n");
  for (guint i = 0; i < cals->len; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);
      describe (line, catalog, &g_array_index (cals, HrDeviceCalibration, i));
      fputs (line->str, stdout);
    }
  return 0;
}

static int
remove_saved (const char *id)
{
  g_autoptr(GError) error = NULL;
  int n = hr_user_calibration_remove (NULL, g_str_equal (id, "all") ? NULL : id, &error);

  if (n < 0)
    {
      hr_cli_print_error (WHO, error->message);
      return 1;
    }
  if (n == 0)
    return hr_cli_usage_error (WHO, "--remove: no saved calibration for “%s” (see: headroom-cli calibrate --list)", id);
  printf ("Removed %d calibration%s.\n", n, n == 1 ? "" : "s");
  return 0;
}

int
hr_cli_calibrate (int              argc,
                  char           **argv,
                  const HrCatalog *catalog)
{
  g_autofree char *model = NULL, *gpu = NULL, *device = NULL, *quant = NULL, *remove = NULL;
  int gpus = G_MININT;
  gboolean json = FALSE, list = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "The GPU the runs used (catalog id, or this)", "ID" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "The same as --gpu", "ID" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, "The model the runs used, when the text does not say", "ID" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, "GPUs the runs used (only one-device runs calibrate)", "N" },
    { "quant", 0, 0, G_OPTION_ARG_STRING, &quant, "The quantization the runs loaded, when the text does not say", "Q" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "List the saved calibrations", NULL },
    { "remove", 0, 0, G_OPTION_ARG_STRING, &remove, "Remove a GPU's saved calibration (or all)", "ID|all" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_free);
  g_autoptr(GPtrArray) checks = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_run_check_free);
  g_autoptr(GArray) cals = NULL;
  g_autoptr(HrGpu) this_gpu = NULL;
  char idbuf[96];
  HrRunHints hints = { 0 };

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) {
                               .parameter = "FILE…",
                               .summary = "Fits a GPU's effective bandwidth, fixed cost per token and prefill rate to "
                                          "your llama-bench runs and uses them in later estimates on that GPU.",
                               .entries = entries, .json = &json, .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (list)
    return argc == 1 ? list_saved (catalog, json) : hr_cli_usage_error (WHO, "--list takes no FILE");
  if (remove != NULL)
    return argc == 1 ? remove_saved (remove) : hr_cli_usage_error (WHO, "--remove takes no FILE");
  if (argc < 2)
    return hr_cli_usage_error (WHO, "give at least one FILE (llama-bench output), or - for standard input");
  if (gpu != NULL && device != NULL && !g_str_equal (gpu, device))
    return hr_cli_usage_error (WHO, "--gpu and --device name different GPUs");
  if (gpu == NULL)
    gpu = g_steal_pointer (&device);
  if (gpus != G_MININT && (gpus < 1 || gpus > HR_MAX_GPUS))
    return hr_cli_usage_error (WHO, "--gpus: %d is not between 1 and %d", gpus, HR_MAX_GPUS);
  if (model != NULL && hr_cli_find_model (catalog, model, &error) == NULL)
    return hr_cli_usage_error (WHO, "%s", error->message);
  if (quant != NULL && hr_catalog_find_quant (catalog, quant) == NULL)
    return hr_cli_usage_error (WHO, "--quant: unknown quantization “%s” (see: headroom-cli list quants)", quant);
  if (gpu != NULL && g_str_equal (gpu, "this"))
    {
      /* this computer: its GPU as the catalog knows it */
      this_gpu = hr_cli_detect_device (catalog, FALSE, NULL, NULL, &error);
      if (this_gpu == NULL)
        return hr_cli_fail (g_steal_pointer (&error));
      hints.gpu_id = hr_user_calibration_device_id (this_gpu, idbuf, sizeof idbuf);
      if (hints.gpu_id == NULL)
        {
          hr_cli_print_error (WHO, "this computer's GPU matched no catalog GPU: name the GPU with --gpu");
          return 1;
        }
    }
  else if (gpu != NULL)
    {
      if (hr_cli_find_gpu (catalog, gpu, &error) == NULL)
        return hr_cli_usage_error (WHO, "%s", error->message);
      hints.gpu_id = gpu;
    }
  hints.model_id = model;
  hints.quant = quant;
  hints.n_gpus = gpus == G_MININT ? 0 : gpus;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GPtrArray) runs = hr_cli_read_runs (WHO, argv[i]);

      if (runs == NULL)
        return 1;
      while (runs->len > 0)
        {
          HrRun *r = g_ptr_array_steal_index (runs, 0);
          g_ptr_array_add (all_runs, r);
          g_ptr_array_add (checks, hr_run_check (r, catalog, &hints));
        }
    }

  cals = hr_user_calibration_fit (checks, NULL);
  if (cals->len == 0)
    {
      guint mapped = 0;
      for (guint i = 0; i < checks->len; i++)
        mapped += ((HrRunCheck *) g_ptr_array_index (checks, i))->mapped;
      hr_cli_print_error (WHO, mapped == 0
                                 ? "no run could be mapped to a catalog model and GPU (see: headroom-cli check FILE)"
                                 : "no llama.cpp run with every layer on one GPU and a decode or prefill figure");
      return 1;
    }
  if (!hr_user_calibration_save (NULL, cals, &error))
    {
      hr_cli_print_error (WHO, error->message);
      return 1;
    }

  if (json)
    {
      HrJsonWriter w;
      g_autofree char *text = NULL;

      hr_json_document_begin (&w);
      hr_json_begin_object (&w);
      hr_json_key (&w, "devices");
      hr_json_begin_array (&w);
      for (guint d = 0; d < cals->len; d++)
        {
          const HrDeviceCalibration *cal = &g_array_index (cals, HrDeviceCalibration, d);

          hr_json_begin_object (&w);
          json_device (&w, catalog, cal);
          hr_json_key (&w, "runs");
          hr_json_begin_array (&w);
          for (guint i = 0; i < checks->len; i++)
            {
              const HrRunCheck *c = g_ptr_array_index (checks, i);
              if (!hr_cli_run_on_device (c, cal))
                continue;
              for (HrMeasure m = HR_MEASURE_DECODE; m <= HR_MEASURE_PREFILL; m++)
                {
                  if (!isfinite (c->error[m]))
                    continue;
                  hr_json_begin_object_inline (&w);
                  hr_json_member_int (&w, "line", c->run->line);
                  hr_json_member_string (&w, "quantity", hr_measure_to_string (m));
                  hr_json_member_number (&w, "measured", c->run->measured[m], 2);
                  hr_json_member_number (&w, "predicted", c->predicted[m], 2);
                  hr_json_member_number (&w, "calibrated", calibrated_figure (c, cal, m), 2);
                  hr_json_end_object (&w);
                }
            }
          hr_json_end_array (&w);
          hr_json_end_object (&w);
        }
      hr_json_end_array (&w);
      hr_json_end_object (&w);
      text = hr_json_document_end (&w);
      fputs (text, stdout);
      return 0;
    }

  for (guint d = 0; d < cals->len; d++)
    {
      const HrDeviceCalibration *cal = &g_array_index (cals, HrDeviceCalibration, d);
      g_autoptr(GString) line = g_string_new ("Calibrated ");

      describe (line, catalog, cal);
      fputs (line->str, stdout);
      for (guint i = 0; i < checks->len; i++)
        {
          const HrRunCheck *c = g_ptr_array_index (checks, i);
          if (!hr_cli_run_on_device (c, cal))
            continue;
          hr_cli_print_run (c);
          for (HrMeasure m = HR_MEASURE_DECODE; m <= HR_MEASURE_PREFILL; m++)
            if (isfinite (c->error[m]))
              hr_cli_print_figure (c, m, calibrated_figure (c, cal, m));
        }
    }
  {
    g_autofree char *path = g_build_filename (g_get_user_data_dir (), "headroom", "calibration.json", NULL);
    printf ("Saved to %s; estimates on %s use it (--no-calibration leaves it out).\n", path,
            cals->len == 1 ? "this GPU" : "these GPUs");
  }
  return 0;
}
