/* test-scenario-text.c — the one-line scenario summary every view and chart shows */
#include <locale.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-scenario-text.h"

static HrCatalog *catalog;

static void
scenario_for (HrScenario *s,
              const char *model_id,
              const char *gpu_id)
{
  const HrModel *m = hr_catalog_find_model (catalog, model_id);
  const HrGpu *g = hr_catalog_find_gpu (catalog, gpu_id);

  g_assert_nonnull (m);
  g_assert_nonnull (g);
  hr_scenario_init (s, m, g);
  g_strlcpy (s->quant, "Q4_K_M", sizeof s->quant);
  s->context = 8192;
  s->batch = 1;
  s->kv_type = HR_KV_F16;
}

static void
test_summary (void)
{
  HrScenario s;
  g_autofree char *plain = NULL, *vllm = NULL, *offload = NULL, *rocm = NULL;

  scenario_for (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.engine = HR_ENGINE_LLAMA_CPP;
  plain = hr_scenario_summary (&s);
  g_assert_cmpstr (plain, ==, "Q4_K_M · 8K context · 1 sequence · F16 KV cache · llama.cpp (CUDA)");

  /* engines not built on llama.cpp have no backend; several sequences */
  s.engine = HR_ENGINE_VLLM;
  s.batch = 4;
  s.kv_type = HR_KV_FP8;
  vllm = hr_scenario_summary (&s);
  g_assert_cmpstr (vllm, ==, "Q4_K_M · 8K context · 4 sequences · FP8 KV cache · vLLM");

  /* the user's backend, offload and experts on the CPU, one separator throughout */
  s.engine = HR_ENGINE_LLAMA_CPP;
  s.batch = 1;
  s.kv_type = HR_KV_Q8_0;
  s.backend = HR_BACKEND_ROCM;
  s.backend_set = TRUE;
  s.context = 131072;
  s.offload_pct = 20;
  s.n_cpu_moe = 1;
  offload = hr_scenario_summary (&s);
  g_assert_cmpstr (offload, ==, "Q4_K_M · 128K context · 1 sequence · Q8_0 KV cache · llama.cpp (ROCm)"
                                " · 20% of layers in system RAM · experts of 1 layer on the CPU");

  /* a vendor stack llama.cpp has no backend for is not named */
  s.backend = HR_BACKEND_OTHER;
  s.offload_pct = 0;
  s.n_cpu_moe = 0;
  rocm = hr_scenario_summary (&s);
  g_assert_cmpstr (rocm, ==, "Q4_K_M · 128K context · 1 sequence · Q8_0 KV cache · llama.cpp");
}

/* A context that is no whole K reads as a grouped number, as the locale groups it (issue 18:
 * "52480 context" in the German Size view's subtitle); C groups nothing. */
static void
test_summary_grouped (void)
{
  HrScenario s;
  g_autofree char *c = NULL, *de = NULL;

  scenario_for (&s, "llama-3.1-8b", "rtx-4090-24gb");
  s.engine = HR_ENGINE_VLLM;
  s.context = 52480;
  c = hr_scenario_summary (&s);
  g_assert_cmpstr (c, ==, "Q4_K_M · 52480 context · 1 sequence · F16 KV cache · vLLM");
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_message ("de_DE.UTF-8 not available: not checked");
      return;
    }
  de = hr_scenario_summary (&s);
  setlocale (LC_NUMERIC, "C");
  g_assert_cmpstr (de, ==, "Q4_K_M · 52.480 context · 1 sequence · F16 KV cache · vLLM");
}

static void
test_backend_names (void)
{
  const char *want[HR_N_BACKENDS] = { "CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU", "CANN", "MUSA", NULL };

  for (guint b = 0; b < HR_N_BACKENDS; b++)
    g_assert_cmpstr (hr_backend_display_name (b), ==, want[b]);
  g_assert_null (hr_backend_display_name (HR_N_BACKENDS));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (NULL);
  g_assert_nonnull (catalog);

  g_test_add_func ("/scenario-text/summary", test_summary);
  g_test_add_func ("/scenario-text/summary-grouped", test_summary_grouped);
  g_test_add_func ("/scenario-text/backend-names", test_backend_names);

  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
