/* hr-scenario-text.c — a scenario in words, the same in every view and chart */
#include "hr-scenario-text.h"

#include <glib/gi18n-lib.h>

#include "hr-units.h"

#define SEPARATOR " · "

/* "llama.cpp (ROCm)": the backend only for the engines built on llama.cpp, which have one */
static void
append_engine (GString          *out,
               const HrScenario *s)
{
  const char *backend = hr_backend_display_name (hr_scenario_backend (s));

  g_string_append (out, hr_engine_display_name (s->engine));
  if (hr_engine_is_llama_like (s->engine) && backend != NULL)
    g_string_append_printf (out, " (%s)", backend);
}

char *
hr_scenario_summary (const HrScenario *s)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *ctx = NULL;
  g_autofree char *kv = NULL;

  g_return_val_if_fail (s != NULL, NULL);

  ctx = hr_format_context_locale (s->context);
  kv = g_ascii_strup (hr_kv_type_to_string (s->kv_type), -1);
  g_string_append (out, s->quant);
  g_string_append (out, SEPARATOR);
  /* TRANSLATORS: "8K context" */
  g_string_append_printf (out, _("%s context"), ctx);
  g_string_append (out, SEPARATOR);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%d sequence", "%d sequences", s->batch), s->batch);
  g_string_append (out, SEPARATOR);
  /* TRANSLATORS: "F16 KV cache" */
  g_string_append_printf (out, _("%s KV cache"), kv);
  g_string_append (out, SEPARATOR);
  append_engine (out, s);
  if (s->offload_pct > 0)
    {
      g_string_append (out, SEPARATOR);
      g_string_append_printf (out, _("%.0f%% of layers in system RAM"), s->offload_pct);
    }
  if (s->n_cpu_moe > 0)
    {
      g_string_append (out, SEPARATOR);
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "experts of %d layer on the CPU",
                                                "experts of %d layers on the CPU", s->n_cpu_moe),
                              s->n_cpu_moe);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
