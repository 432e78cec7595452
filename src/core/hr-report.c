/* hr-report.c — estimates as JSON, CSV and text */
#include "hr-report.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

void
hr_json_init (HrJsonWriter *w,
              GString      *out,
              gboolean      pretty)
{
  memset (w, 0, sizeof *w);
  w->out = out;
  w->pretty = pretty;
}

static void
newline (HrJsonWriter *w)
{
  if (!w->pretty)
    return;
  g_string_append_c (w->out, '\n');
  for (int i = 0; i < w->depth; i++)
    g_string_append (w->out, "  ");
}

/* Before a value in an array, or a key in an object. */
static void
separate (HrJsonWriter *w)
{
  if (w->depth > 0 && w->depth < (int) G_N_ELEMENTS (w->need_comma))
    {
      if (w->need_comma[w->depth])
        g_string_append_c (w->out, ',');
      w->need_comma[w->depth] = TRUE;
      newline (w);
    }
}

static void
value_prefix (HrJsonWriter *w)
{
  if (w->after_key)
    {
      w->after_key = FALSE;
      if (w->pretty)
        g_string_append_c (w->out, ' ');
      return;
    }
  separate (w);
}

static void
open_container (HrJsonWriter *w,
                char          c)
{
  value_prefix (w);
  g_string_append_c (w->out, c);
  w->depth++;
  if (w->depth < (int) G_N_ELEMENTS (w->need_comma))
    w->need_comma[w->depth] = FALSE;
}

static void
close_container (HrJsonWriter *w,
                 char          c)
{
  gboolean had = w->depth < (int) G_N_ELEMENTS (w->need_comma) && w->need_comma[w->depth];

  w->depth--;
  if (had)
    newline (w);
  g_string_append_c (w->out, c);
}

void hr_json_begin_object (HrJsonWriter *w) { open_container (w, '{'); }
void hr_json_end_object (HrJsonWriter *w) { close_container (w, '}'); }
void hr_json_begin_array (HrJsonWriter *w) { open_container (w, '['); }
void hr_json_end_array (HrJsonWriter *w) { close_container (w, ']'); }

void
hr_json_escape_append (GString    *out,
                       const char *value)
{
  const char *p;

  if (value == NULL)
    return;
  for (p = value; *p; p++)
    {
      guchar c = (guchar) *p;
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
}

void
hr_json_key (HrJsonWriter *w,
             const char   *key)
{
  separate (w);
  g_string_append_c (w->out, '"');
  hr_json_escape_append (w->out, key);
  g_string_append (w->out, "\":");
  w->after_key = TRUE;
}

void
hr_json_string (HrJsonWriter *w,
                const char   *value)
{
  if (value == NULL)
    {
      hr_json_null (w);
      return;
    }
  value_prefix (w);
  g_string_append_c (w->out, '"');
  if (g_utf8_validate (value, -1, NULL))
    hr_json_escape_append (w->out, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      hr_json_escape_append (w->out, valid);
    }
  g_string_append_c (w->out, '"');
}

void
hr_json_number (HrJsonWriter *w,
                double        value,
                int           decimals)
{
  char buf[64];

  value_prefix (w);
  g_string_append (w->out, hr_format_number_c_buf (buf, sizeof buf, value, decimals));
}

void
hr_json_int (HrJsonWriter *w,
             gint64        value)
{
  value_prefix (w);
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT, value);
}

void
hr_json_bool (HrJsonWriter *w,
              gboolean      value)
{
  value_prefix (w);
  g_string_append (w->out, value ? "true" : "false");
}

void
hr_json_null (HrJsonWriter *w)
{
  value_prefix (w);
  g_string_append (w->out, "null");
}

void
hr_report_estimate_members (HrJsonWriter     *w,
                            const HrScenario *s,
                            const HrEstimate *e)
{
  hr_json_key (w, "model");
  hr_json_string (w, s->model->id);
  hr_json_key (w, "model_name");
  hr_json_string (w, s->model->name);
  hr_json_key (w, "gpu");
  hr_json_string (w, s->gpu->id);
  hr_json_key (w, "gpu_name");
  hr_json_string (w, s->gpu->name);
  hr_json_key (w, "gpus");
  hr_json_int (w, s->n_gpus);
  hr_json_key (w, "quant");
  hr_json_string (w, s->quant);
  hr_json_key (w, "context");
  hr_json_int (w, s->context);
  hr_json_key (w, "batch");
  hr_json_int (w, s->batch);
  hr_json_key (w, "kv_type");
  hr_json_string (w, hr_kv_type_to_string (s->kv_type));
  hr_json_key (w, "engine");
  hr_json_string (w, hr_engine_to_string (s->engine));
  hr_json_key (w, "backend");
  hr_json_string (w, hr_backend_to_string (hr_scenario_backend (s)));
  hr_json_key (w, "offload_pct");
  hr_json_number (w, s->offload_pct, 1);
  hr_json_key (w, "n_cpu_moe");
  hr_json_int (w, s->n_cpu_moe);
  hr_json_key (w, "weights_gib");
  hr_json_number (w, hr_to_gib (e->weights.bytes), 2);
  hr_json_key (w, "weights_source");
  hr_json_string (w, hr_weights_source_to_string (e->weights.source));
  if (e->weights.source_detail)
    {
      hr_json_key (w, "weights_source_detail");
      hr_json_string (w, e->weights.source_detail);
    }
  hr_json_key (w, "kv_cache_gib");
  hr_json_number (w, hr_to_gib (e->kv_bytes), 2);
  hr_json_key (w, "overhead_gib");
  hr_json_number (w, hr_to_gib (e->overhead_bytes), 2);
  hr_json_key (w, "system_ram_gib");
  hr_json_number (w, hr_to_gib (e->system_ram_bytes), 2);
  hr_json_key (w, "required_gib");
  hr_json_number (w, hr_to_gib (e->required_bytes), 2);
  hr_json_key (w, "required_gb");
  hr_json_number (w, hr_to_gb (e->required_bytes), 2);
  hr_json_key (w, "per_gpu_required_gib");
  hr_json_number (w, hr_to_gib (e->per_gpu_required), 2);
  hr_json_key (w, "physical_gib");
  hr_json_number (w, hr_to_gib (e->physical_bytes), 2);
  hr_json_key (w, "usable_gib");
  hr_json_number (w, hr_to_gib (e->usable_bytes), 2);
  hr_json_key (w, "margin_gib");
  hr_json_number (w, hr_to_gib (e->margin_bytes), 2);
  hr_json_key (w, "utilization_pct");
  hr_json_number (w, e->utilization * 100, 1);
  hr_json_key (w, "verdict");
  hr_json_string (w, hr_verdict_to_string (e->verdict));
  hr_json_key (w, "decode_tps");
  hr_json_number (w, e->decode_tps, 1);
  hr_json_key (w, "decode_tps_low");
  hr_json_number (w, e->decode_tps_low, 1);
  hr_json_key (w, "decode_tps_high");
  hr_json_number (w, e->decode_tps_high, 1);
  hr_json_key (w, "aggregate_tps");
  hr_json_number (w, e->aggregate_tps, 1);
  hr_json_key (w, "decode_basis");
  hr_json_string (w, e->decode_basis);
  hr_json_key (w, "prefill_tps");
  hr_json_number (w, e->prefill_tps, 0);
  hr_json_key (w, "prefill_basis");
  hr_json_string (w, e->prefill_basis);
  hr_json_key (w, "ttft_ms");
  hr_json_number (w, e->ttft_ms, 0);
  hr_json_key (w, "cost_per_mtok_usd");
  hr_json_number (w, e->cost_per_mtok_usd, 2);
  hr_json_key (w, "cost_offer");
  hr_json_string (w, e->offer_label[0] ? e->offer_label : NULL);
}

char *
hr_report_estimate_json (const HrScenario *s,
                         const HrEstimate *e)
{
  GString *out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_report_estimate_members (&w, s, e);
  hr_json_end_object (&w);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static const char *
num (char   *buf,
     double  v,
     int     decimals)
{
  if (!isfinite (v))
    return _("unknown");
  return hr_format_number_c_buf (buf, 64, v, decimals);
}

char *
hr_report_estimate_text (const HrScenario *s,
                         const HrEstimate *e)
{
  GString *out = g_string_new (NULL);
  char a[64], b[64], c[64];
  g_autofree char *ctx = hr_format_context_short (s->context);
  g_autofree char *count = s->n_gpus > 1 ? g_strdup_printf ("%d× ", s->n_gpus) : g_strdup ("");

  g_string_append_printf (out, "%s · %s%s · %s · %s %s · %s\n",
                          s->model->name, count, s->gpu->name, s->quant, ctx, _("context"),
                          hr_engine_display_name (s->engine));
  g_string_append_printf (out, "%s: %s\n", _("Verdict"), hr_verdict_display (e->verdict));
  g_string_append_printf (out, "  %-26s %s GiB (%s GB)\n", _("Required memory"),
                          num (a, hr_to_gib (e->required_bytes), 2), num (b, hr_to_gb (e->required_bytes), 2));
  g_string_append_printf (out, "    %-24s %s GiB (%s file: %s GiB)\n", _("Weights on the device"),
                          num (a, hr_to_gib (e->weights_gpu), 2),
                          hr_weights_source_to_string (e->weights.source),
                          num (b, hr_to_gib (e->weights.bytes), 2));
  g_string_append_printf (out, "    %-24s %s GiB\n", _("KV cache & state"), num (a, hr_to_gib (e->kv_bytes), 2));
  g_string_append_printf (out, "    %-24s %s GiB\n", _("Engine & buffers"), num (a, hr_to_gib (e->overhead_bytes), 2));
  g_string_append_printf (out, "    %-24s %s GiB\n", _("System RAM (offload)"), num (a, hr_to_gib (e->system_ram_bytes), 2));
  g_string_append_printf (out, "  %-26s %s GiB (%s GiB %s)\n", _("Usable memory"),
                          num (a, hr_to_gib (e->usable_bytes), 2), num (b, hr_to_gib (e->physical_bytes), 2),
                          _("physical"));
  g_string_append_printf (out, "  %-26s %s%s GiB · %s %%\n", _("Margin"), e->margin_bytes >= 0 ? "+" : "",
                          num (a, hr_to_gib (e->margin_bytes), 2), num (b, e->utilization * 100, 0));
  if (isfinite (e->decode_tps))
    g_string_append_printf (out, "  %-26s ~%s tok/s (%s–%s)\n", _("Decode"), num (a, e->decode_tps, 1),
                            num (b, e->decode_tps_low, 1), num (c, e->decode_tps_high, 1));
  else
    g_string_append_printf (out, "  %-26s %s\n", _("Decode"), _("unknown"));
  g_string_append_printf (out, "    %s\n", e->decode_basis);
  if (isfinite (e->prefill_tps))
    {
      g_string_append_printf (out, "  %-26s ~%s tok/s\n", _("Prefill"), num (a, e->prefill_tps, 0));
      g_string_append_printf (out, "    %s\n", e->prefill_basis);
      g_string_append_printf (out, "  %-26s ~%s ms (%d-token prompt)\n", _("Time to first token"),
                              num (a, e->ttft_ms, 0), s->prompt_tokens);
    }
  else
    g_string_append_printf (out, "  %-26s %s (%s)\n", _("Prefill"), _("unknown"), e->prefill_basis);
  if (isfinite (e->cost_per_mtok_usd))
    g_string_append_printf (out, "  %-26s $%s (%s)\n", _("Cost per 1M tokens"),
                            num (a, e->cost_per_mtok_usd, 2), e->offer_label);
  else
    g_string_append_printf (out, "  %-26s %s\n", _("Cost per 1M tokens"), _("no cloud offer for this GPU"));
  return g_string_free (out, FALSE);
}

void
hr_csv_field (GString    *out,
              const char *value,
              gboolean    last)
{
  if (value == NULL)
    value = "";
  if (strpbrk (value, ",\"\n\r") != NULL)
    {
      g_string_append_c (out, '"');
      for (const char *p = value; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, value);
  g_string_append (out, last ? "\n" : ",");
}

void
hr_csv_number (GString  *out,
               double    value,
               int       decimals,
               gboolean  last)
{
  char buf[64];

  if (isfinite (value))
    g_string_append (out, hr_format_number_c_buf (buf, sizeof buf, value, decimals));
  g_string_append (out, last ? "\n" : ",");
}
