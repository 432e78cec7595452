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
#include "hr-json-writer.h"
#include "hr-runs.h"
#include "hr-units.h"
#include "hr-user-calibration.h"

#define WHO "headroom-cli check"

/* At most @max + 1 bytes of @fd, so that a longer input is seen to be longer. */
static GBytes *
read_bounded (int      fd,
              gsize    max,
              GError **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  guint8 chunk[65536];

  for (;;)
    {
      ssize_t n = read (fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "cannot read: %s",
                       g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (buf, chunk, (guint) n);
      if (buf->len > max)
        break;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

/* The input: standard input for "-", else a regular file (a FIFO or device is refused before
 * it can block or stream forever). */
GBytes *
hr_cli_read_runs_input (const char *path,
                        GError    **error)
{
  struct stat st;
  GBytes *bytes;
  int fd;

  if (g_str_equal (path, "-"))
    return read_bounded (STDIN_FILENO, HR_RUNS_MAX_BYTES, error);
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "not a regular file");
      return NULL;
    }
  bytes = read_bounded (fd, HR_RUNS_MAX_BYTES, error);
  close (fd);
  return bytes;
}

/* "pp512 @ d4096", "tg128", "n_ctx 8192", "TP 2, 32768 tokens" */
static char *
setup_text (const HrRun *run)
{
  GString *s = g_string_new (NULL);

  if (run->n_prompt > 0 || run->n_gen > 0)
    g_string_append_printf (s, "%s%d", run->n_prompt > 0 ? "pp" : "tg",
                            run->n_prompt > 0 ? run->n_prompt : run->n_gen);
  if (run->depth > 0)
    g_string_append_printf (s, " @ d%" G_GINT64_FORMAT, run->depth);
  if (run->format == HR_RUN_LLAMA_LOG && run->n_ctx > 0)
    g_string_append_printf (s, "n_ctx %" G_GINT64_FORMAT, run->n_ctx);
  if ((run->format == HR_RUN_VLLM_LOG || run->format == HR_RUN_SGLANG_LOG))
    {
      g_string_append_printf (s, "TP %d", MAX (run->n_devices, 1));
      if (run->n_ctx > 0)
        g_string_append_printf (s, ", %" G_GINT64_FORMAT " tokens", run->n_ctx);
    }
  return g_string_free (s, FALSE);
}

static const char *
figure (char       *buf,
        gsize       size,
        HrMeasure   m,
        double      v)
{
  char num[48];

  if (!isfinite (v))
    return g_strlcpy (buf, "—", size), buf;
  switch (m)
    {
    case HR_MEASURE_DECODE:
    case HR_MEASURE_PREFILL:
      g_snprintf (buf, size, "%s t/s", hr_cli_number (num, v, v < 100 ? 2 : 1, 0));
      break;
    case HR_MEASURE_KV_TOKENS:
      g_snprintf (buf, size, "%s tokens", hr_cli_number (num, v, 0, 0));
      break;
    case HR_MEASURE_WEIGHTS:
    case HR_MEASURE_KV:
    case HR_MEASURE_BUFFERS:
    case HR_N_MEASURES:
    default:
      g_snprintf (buf, size, "%s MiB", hr_cli_number (num, v / HR_MIB, 2, 0));
      break;
    }
  return buf;
}

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
      const HrRun *r = c->run;
      g_autofree char *setup = setup_text (r);

      printf ("\n%s %d: %s", r->format == HR_RUN_BENCH_JSON ? "run" : "line", r->line,
              c->model ? c->model->id : (r->model ? r->model : r->model_type ? r->model_type : "?"));
      if (c->mapped)
        printf (" %s on %d × %s, %s %s, %s\n", c->scenario.quant, c->scenario.n_gpus, c->gpu->name,
                hr_engine_to_string (c->scenario.engine),
                hr_backend_display_name (hr_scenario_backend (&c->scenario)), setup);
      else
        printf ("%s%s%s\n  no prediction: %s%s\n", *setup ? " (" : "", setup, *setup ? ")" : "", c->reason,
                hint_for (c->missing));
      for (int m = 0; m < HR_N_MEASURES; m++)
        {
          char a[64], b[64], pad[64];

          if (!isfinite (r->measured[m]))
            continue;
          printf ("  %s measured %s", hr_cli_pad (pad, sizeof pad, hr_measure_display (m), -16),
                  figure (a, sizeof a, m, r->measured[m]));
          if (isfinite (c->predicted[m]))
            printf (", predicted %s%s, error %+.1f %%", figure (b, sizeof b, m, c->predicted[m]),
                    c->estimate.calibrated && m <= HR_MEASURE_PREFILL ? " (calibrated)" : "",
                    c->error[m] * 100);
          printf ("\n");
        }
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
  g_autoptr(GBytes) bytes = NULL;
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

  bytes = hr_cli_read_runs_input (argv[1], &error);
  if (bytes != NULL)
    runs = hr_runs_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  if (runs == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", argv[1], error->message);
      hr_cli_print_error (WHO, msg);
      return 1;
    }

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
