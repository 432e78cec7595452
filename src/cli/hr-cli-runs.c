/* hr-cli-runs.c — reading runs and printing them, for `check` and `calibrate` */
#include "hr-cli-runs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "hr-cli-common.h"
#include "hr-units.h"

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

GPtrArray *
hr_cli_read_runs (const char *who,
                  const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = hr_cli_read_runs_input (path, &error);
  GPtrArray *runs = NULL;

  if (bytes != NULL)
    runs = hr_runs_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  if (runs == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", path, error->message);
      hr_cli_print_error (who, msg);
    }
  return runs;
}

void
hr_cli_print_run (const HrRunCheck *c)
{
  const HrRun *r = c->run;
  g_autofree char *setup = setup_text (r);

  printf ("\n%s %d: %s", r->format == HR_RUN_BENCH_JSON ? "run" : "line", r->line,
          c->model ? c->model->id : (r->model ? r->model : r->model_type ? r->model_type : "?"));
  if (c->mapped)
    printf (" %s on %d × %s, %s %s, %s\n", c->scenario.quant, c->scenario.n_gpus, c->gpu->name,
            hr_engine_to_string (c->scenario.engine),
            hr_backend_display_name (hr_scenario_backend (&c->scenario)), setup);
  else
    printf ("%s%s%s\n", *setup ? " (" : "", setup, *setup ? ")" : "");
}

void
hr_cli_print_figure (const HrRunCheck *c,
                     HrMeasure         m,
                     double            calibrated)
{
  const HrRun *r = c->run;
  char a[64], b[64], pad[64];

  if (!isfinite (r->measured[m]))
    return;
  printf ("  %s measured %s", hr_cli_pad (pad, sizeof pad, hr_measure_display (m), -16),
          figure (a, sizeof a, m, r->measured[m]));
  if (isfinite (c->predicted[m]))
    printf (", predicted %s%s, error %+.1f %%", figure (b, sizeof b, m, c->predicted[m]),
            c->estimate.calibrated && m <= HR_MEASURE_PREFILL ? " (calibrated)" : "",
            c->error[m] * 100);
  if (isfinite (calibrated))
    printf (", calibrated %s, error %+.1f %%", figure (b, sizeof b, m, calibrated),
            (calibrated / r->measured[m] - 1) * 100);
  printf ("\n");
}

gboolean
hr_cli_run_on_device (const HrRunCheck          *c,
                      const HrDeviceCalibration *cal)
{
  return c->mapped && g_str_equal (c->gpu->id, cal->gpu_id) && hr_scenario_backend (&c->scenario) == cal->backend;
}
