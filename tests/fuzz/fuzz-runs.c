/* fuzz-runs.c — libFuzzer entry point for the readers of engine output (hr-runs*.c)
 *
 * The input is what a user pastes or drops: llama-bench's table, CSV or JSON, a llama.cpp,
 * vLLM or SGLang log.  Every run that comes back must be sane (figures unknown or positive and
 * finite, names clean), and mapping it onto the catalog and predicting it must not crash. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-runs.h"
#include "hr-text.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_text (const char *s)
{
  if (s != NULL)
    {
      g_assert (hr_text_is_clean (s));
      g_assert (strlen (s) <= 200);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static HrCatalog *catalog;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;

  if (catalog == NULL)
    catalog = hr_catalog_new_unpriced (NULL);
  runs = hr_runs_parse ((const char *) data, size, &error);
  if (runs == NULL)
    {
      g_assert (error != NULL && error->domain == HR_RUNS_ERROR);
      g_assert (strchr (error->message, '\n') == NULL);
      return 0;
    }
  g_assert (error == NULL);
  g_assert (runs->len >= 1 && runs->len <= HR_RUNS_MAX_RUNS);
  for (guint i = 0; i < runs->len; i++)
    {
      HrRun *r = g_ptr_array_index (runs, i);
      gboolean any = FALSE;

      check_text (r->model);
      check_text (r->model_type);
      check_text (r->device);
      check_text (r->backend);
      check_text (r->build);
      for (int m = 0; m < HR_N_MEASURES; m++)
        {
          g_assert (isnan (r->measured[m]) || (isfinite (r->measured[m]) && r->measured[m] >= 0));
          any |= isfinite (r->measured[m]);
        }
      g_assert (any);
      /* the mapping and the estimate behind it, for the first few runs */
      if (i < 8 && catalog != NULL)
        {
          HrRunHints hints = { .gpu_id = "rtx-4090-24gb", .model_id = (i % 2) ? "qwen3-8b" : NULL };
          g_autoptr(HrRunCheck) check = hr_run_check (r, catalog, &hints);
          g_assert (check->mapped || check->reason != NULL);
          for (int m = 0; m < HR_N_MEASURES; m++)
            g_assert (isnan (check->error[m]) || isfinite (check->error[m]));
        }
    }
  return 0;
}
