/* hr-report.c — estimates as JSON, CSV and text */
#include "hr-report.h"
#include "hr-draft.h"
#include "hr-placement.h"
#include "hr-text.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* A figure that depends on the device: null when the estimate has none (inspect without --gpu). */
#define DEV(x) (device ? (x) : NAN)

void
hr_report_estimate_members_device (HrJsonWriter     *w,
                                   const HrScenario *s,
                                   const HrEstimate *e,
                                   gboolean          device)
{
  g_autofree char *decode_basis = hr_basis_json (&e->decode_basis);
  g_autofree char *prefill_basis = hr_basis_json (&e->prefill_basis);
  g_autofree char *gpu_name = device ? hr_gpu_data_name (s->gpu) : NULL;

  hr_json_member_string (w, "model", s->model->id);
  hr_json_member_string (w, "model_name", s->model->name);
  hr_json_member_string (w, "gpu", device ? s->gpu->id : NULL);
  hr_json_member_string (w, "gpu_name", gpu_name);
  hr_json_member_string (w, "gpu_generation", device && hr_gpu_generation_info (s->gpu->generation) != NULL
                                              ? hr_gpu_generation_info (s->gpu->generation)->id : NULL);
  hr_json_member_int (w, "gpus", s->n_gpus);
  hr_json_member_string (w, "quant", s->quant);
  {
    /* what the engine loads for that quant (hr_engine_load ()): every figure is of loaded_quant */
    g_autofree char *loads = hr_engine_load_text (&e->load);

    hr_json_member_string (w, "loaded_quant", e->load.quant);
    hr_json_member_string (w, "loaded_repo", e->load.repo);
    hr_json_member_bool (w, "loads_quant_as_chosen", e->load.kind == HR_LOAD_AS_CHOSEN);
    hr_json_member_string (w, "loaded_note", loads);
  }
  hr_json_member_int (w, "context", s->context);
  hr_json_member_int (w, "batch", s->batch);
  hr_json_member_string (w, "kv_type", hr_kv_type_to_string (s->kv_type));
  hr_json_member_string (w, "engine", hr_engine_to_string (s->engine));
  hr_json_member_string (w, "engine_version", hr_engine_version_to_string (s->engine_version));
  hr_json_member_string (w, "backend", hr_backend_to_string (hr_scenario_backend (s)));
  hr_json_member_number (w, "offload_pct", s->offload_pct, 1);
  hr_json_member_int (w, "n_cpu_moe", s->n_cpu_moe);
  hr_json_gib_bytes (w, "weights", e->weights.bytes);
  /* the part of them in device memory: with kv_cache, overhead and an offloaded mmproj it
   * makes up required */
  hr_json_gib_bytes (w, "weights_device", e->weights_gpu);
  hr_json_member_string (w, "weights_source", hr_weights_source_to_string (e->weights.source));
  hr_json_member_string (w, "weights_source_detail", e->weights.source_detail);
  hr_json_gib_bytes (w, "kv_cache", e->kv_bytes);
  hr_json_member_number (w, "kv_bytes_per_token", e->kv_bytes_per_token, 0);
  hr_json_gib_bytes (w, "overhead", e->overhead_bytes);
  /* the vision projector's weights (#31), in required on its device or in system_ram; its
   * device: the placement's device name, "system_ram", or null without a projector */
  hr_json_gib_bytes (w, "mmproj", e->mmproj_bytes);
  /* the buffer it encodes an image in, on the same device (hr-projector.h); 0 without a
   * projector or when its encoder is unknown */
  hr_json_gib_bytes (w, "mmproj_encode", e->mmproj_encode_bytes);
  hr_json_member_string (w, "mmproj_device",
                         !(e->mmproj_bytes > 0) ? NULL
                         : e->mmproj_device < 0 ? "system_ram"
                         : e->placement.n_devices > 0 && e->placement.devices[0].gpu != NULL
                           ? e->placement.devices[0].gpu->name : s->gpu->name);
  /* which projector was asked for (#31): "auto" (the model's own where the engine loads one:
   * llama.cpp -hf), "none", or "file" (one the user named, or a Hub repo's) */
  hr_json_member_string (w, "mmproj_mode",
                         s->mmproj_mode == HR_MMPROJ_FILE && !(s->mmproj_bytes > 0)
                         ? hr_mmproj_mode_to_string (HR_MMPROJ_NONE)
                         : hr_mmproj_mode_to_string (s->mmproj_mode));
  {
    /* speculative decoding (#31, hr-draft.h): the draft ("none", "mtp" or a model id), its
     * memory (in required) and the expected speed at its stated acceptance, never a promise */
    g_autofree char *draft_basis = hr_draft_basis_json (e);

    hr_json_member_string (w, "draft", hr_draft_to_string (s));
    hr_json_gib_bytes (w, "draft_weights", e->draft_weights_bytes);
    hr_json_gib_bytes (w, "draft_kv", e->draft_kv_bytes);
    hr_json_gib_bytes (w, "draft_compute", e->draft_compute_bytes);
    hr_json_gib_bytes (w, "draft_memory", e->draft_bytes);
    hr_json_member_number (w, "draft_accept", e->draft_max > 0 ? e->draft_accept : NAN, 2);
    hr_json_member_number (w, "draft_max", e->draft_max > 0 ? e->draft_max : NAN, 0);
    hr_json_member_number (w, "draft_tokens_per_pass", e->draft_max > 0 ? e->draft_tokens_per_pass : NAN, 3);
    hr_json_member_number (w, "draft_verify_ms", DEV (e->draft_verify_ms), 3);
    hr_json_member_number (w, "draft_step_ms", DEV (e->draft_step_ms), 3);
    hr_json_member_number (w, "draft_speedup", DEV (e->draft_speedup), 2);
    hr_json_member_number (w, "draft_decode_tps", DEV (e->draft_decode_tps), 1);
    hr_json_member_string (w, "draft_basis", device ? draft_basis : NULL);
  }
  hr_json_gib_bytes (w, "system_ram", e->system_ram_bytes);
  hr_json_gib_bytes (w, "required", e->required_bytes);
  hr_json_member_number (w, "required_gb", hr_to_gb (e->required_bytes), 2);
  hr_json_gib_bytes (w, "per_gpu_required", e->per_gpu_required);
  hr_json_gib_bytes (w, "physical", DEV (e->physical_bytes));
  hr_json_gib_bytes (w, "usable", DEV (e->usable_bytes));
  hr_json_gib_bytes (w, "margin", DEV (e->margin_bytes));
  if (hr_engine_is_server_like (s->engine))
    {
      hr_json_member_int (w, "max_num_seqs", e->max_num_seqs);
      hr_json_gib_bytes (w, "driver_memory", DEV (e->driver_memory_bytes));
      hr_json_gib_bytes (w, "kv_pool", DEV (e->kv_pool_bytes));
      hr_json_key (w, "kv_capacity_tokens");
      if (device && isfinite (e->kv_capacity_tokens))
        hr_json_int (w, (gint64) e->kv_capacity_tokens);
      else
        hr_json_null (w);
      hr_json_member_number (w, "max_concurrency", DEV (e->max_concurrency), 2);
    }
  hr_json_member_number (w, "utilization_pct", DEV (e->utilization * 100), 1);
  hr_json_member_string (w, "verdict", device ? hr_verdict_to_string (e->verdict) : NULL);
  hr_json_member_number (w, "decode_tps", DEV (e->decode_tps), 1);
  hr_json_member_number (w, "decode_tps_low", DEV (e->decode_tps_low), 1);
  hr_json_member_number (w, "decode_tps_high", DEV (e->decode_tps_high), 1);
  hr_json_member_int (w, "depth", e->depth);
  hr_json_member_number (w, "decode_tps_at_depth", DEV (e->decode_tps), 1);
  hr_json_member_number (w, "decode_tps_empty", DEV (e->decode_tps_empty), 1);
  hr_json_member_number (w, "aggregate_tps", DEV (e->aggregate_tps), 1);
  hr_json_member_string (w, "decode_basis", device ? decode_basis : NULL);
  hr_json_member_number (w, "prefill_tps", DEV (e->prefill_tps), 0);
  hr_json_member_string (w, "prefill_basis", device ? prefill_basis : NULL);
  /* the speeds follow the user's own runs on this device (headroom-cli calibrate) */
  hr_json_member_bool (w, "calibrated", e->calibrated);
  hr_json_member_number (w, "ttft_ms", DEV (e->ttft_ms), 0);
  hr_json_member_number (w, "cost_per_mtok_usd", DEV (e->cost_per_mtok_usd), 2);
  hr_json_member_string (w, "cost_offer", e->offer_label[0] ? e->offer_label : NULL);
  /* another GPU's offer, when this one has none: a suggestion, never its cost */
  hr_json_member_number (w, "suggested_cost_per_mtok_usd", e->suggested_cost_per_mtok_usd, 2);
  hr_json_member_string (w, "suggested_offer", e->suggested_label[0] ? e->suggested_label : NULL);
  if (device)
    hr_placement_json (w, s, e);
  else
    {
      /* no device, no plan: the same members as estimate --json, null */
      hr_json_member_string (w, "split", NULL);
      hr_json_member_string (w, "tensor_split", NULL);
      hr_json_member_string (w, "pp_layer_partition", NULL);
      hr_json_member_bool (w, "pp_custom_partition", FALSE);
      hr_json_member_string (w, "device_left_out", NULL);
      hr_json_member_string (w, "slowest_device", NULL);
      hr_json_key (w, "devices");
      hr_json_null (w);
    }
}

#undef DEV

void
hr_report_estimate_members (HrJsonWriter     *w,
                            const HrScenario *s,
                            const HrEstimate *e)
{
  hr_report_estimate_members_device (w, s, e, TRUE);
}

char *
hr_report_estimate_json (const HrScenario *s,
                         const HrEstimate *e)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_report_estimate_members (&w, s, e);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

static const char *
num (char   *buf,
     double  v,
     int     decimals)
{
  if (!isfinite (v))
    return _("unknown");
  return hr_format_number_locale_buf (buf, 64, v, decimals);
}

/* One line of the text report, "  Label ……… value", kept until every label is known so the
 * values line up after the longest label in the user's language ("Nutzbarer
 * Hardware-Speicher" is 27 characters); a line without a label is written as it is. */
typedef struct
{
  int indent;
  char *label;
  char *text;
} ReportLine;

static void
report_line_free (gpointer data)
{
  ReportLine *l = data;

  g_free (l->label);
  g_free (l->text);
  g_free (l);
}

static void
line (GPtrArray  *lines,
      int         indent,
      const char *label,
      const char *fmt,
      ...) G_GNUC_PRINTF (4, 5);

static void
line (GPtrArray  *lines,
      int         indent,
      const char *label,
      const char *fmt,
      ...)
{
  ReportLine *l = g_new0 (ReportLine, 1);
  va_list ap;

  l->indent = indent;
  l->label = g_strdup (label);
  va_start (ap, fmt);
  l->text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_ptr_array_add (lines, l);
}

/* Labels padded by characters, not bytes, to one column: 28 (the English layout) or the
 * longest label's end. */
static void
write_lines (GString   *out,
             GPtrArray *lines)
{
  glong column = 28;

  for (guint i = 0; i < lines->len; i++)
    {
      const ReportLine *l = g_ptr_array_index (lines, i);

      if (l->label != NULL)
        column = MAX (column, l->indent + g_utf8_strlen (l->label, -1));
    }
  for (guint i = 0; i < lines->len; i++)
    {
      const ReportLine *l = g_ptr_array_index (lines, i);

      g_string_append_printf (out, "%*s", l->indent, "");
      if (l->label != NULL)
        {
          g_string_append (out, l->label);
          for (glong c = l->indent + g_utf8_strlen (l->label, -1); c < column; c++)
            g_string_append_c (out, ' ');
          g_string_append_c (out, ' ');
        }
      g_string_append_printf (out, "%s\n", l->text);
    }
}

char *
hr_report_estimate_text (const HrScenario *s,
                         const HrEstimate *e)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (report_line_free);
  char a[64], b[64], c[64];
  g_autofree char *ctx = hr_format_context_locale (s->context);
  g_autofree char *decode_basis = hr_basis_text (&e->decode_basis);
  g_autofree char *prefill_basis = hr_basis_text (&e->prefill_basis);
  g_autofree char *setup = hr_placement_setup_name (s);
  const char *source = e->weights.source == HR_WEIGHTS_MEASURED ? _("measured file")
                       : e->weights.source == HR_WEIGHTS_GGUF ? _("GGUF header")
                       : e->weights.source == HR_WEIGHTS_CHECKPOINT ? _("official checkpoint")
                       : _("derived from the architecture");

  g_string_append_printf (out, "%s · %s · %s · %s %s · %s\n",
                          s->model->name, setup, s->quant, ctx, _("context"),
                          hr_engine_display_name (s->engine));
  g_string_append_printf (out, "%s: %s\n", _("Verdict"), hr_verdict_display (e->verdict));
  {
    /* what the engine loads when it is not the quant asked for: the verdict is of that */
    g_autofree char *loads = hr_engine_load_text (&e->load);

    if (loads != NULL)
      g_string_append_printf (out, "%s\n", loads);
  }
  line (lines, 2, _("Required memory"), "%s GiB (%s GB)",
        num (a, hr_to_gib (e->required_bytes), 2), num (b, hr_to_gb (e->required_bytes), 2));
  /* TRANSLATORS: "%s GiB (measured file: %s GiB)": weights loaded on the device, then the
   * source of the size and the whole file */
  line (lines, 4, _("Weights on the device"), _("%s GiB (%s: %s GiB)"),
        num (a, hr_to_gib (e->weights_gpu), 2), source, num (b, hr_to_gib (e->weights.bytes), 2));
  line (lines, 4, _("KV cache & state"), "%s GiB", num (a, hr_to_gib (e->kv_bytes), 2));
  if (e->mmproj_bytes > 0 && e->mmproj_encode_bytes > 0)
    /* TRANSLATORS: the vision projector's weights, the buffer it encodes an image in, and where
     * they are: "0.80 GiB weights + 0.11 GiB image-encode buffer (first GPU)" */
    line (lines, 4, _("Vision projector"), _("%s GiB weights + %s GiB image-encode buffer (%s)"),
          num (a, hr_to_gib (e->mmproj_bytes), 2), num (b, hr_to_gib (e->mmproj_encode_bytes), 2),
          e->mmproj_device < 0 ? _("system RAM") : _("first GPU"));
  else if (e->mmproj_bytes > 0)
    /* TRANSLATORS: the vision projector's weights and where they are: "0.80 GiB (first GPU, weights only)" */
    line (lines, 4, _("Vision projector"), _("%s GiB (%s, weights only)"),
          num (a, hr_to_gib (e->mmproj_bytes), 2),
          e->mmproj_device < 0 ? _("system RAM") : _("first GPU"));
  if (e->draft_max > 0)
    /* TRANSLATORS: speculative decoding's draft and its memory: "0.62 GiB (weights 0.50, KV 0.12)" */
    line (lines, 4, s->draft_kind == HR_DRAFT_MTP ? _("MTP draft layers") : _("Draft model"),
          _("%s GiB (weights %s, KV %s)"), num (a, hr_to_gib (e->draft_bytes), 2),
          num (b, hr_to_gib (e->draft_weights_bytes), 2), num (c, hr_to_gib (e->draft_kv_bytes), 2));
  line (lines, 4, _("Engine & buffers"), "%s GiB", num (a, hr_to_gib (e->overhead_bytes), 2));
  line (lines, 4, _("System RAM (offload)"), "%s GiB", num (a, hr_to_gib (e->system_ram_bytes), 2));
  line (lines, 2, _("Usable memory"), _("%s GiB (%s GiB physical)"),
        num (a, hr_to_gib (e->usable_bytes), 2), num (b, hr_to_gib (e->physical_bytes), 2));
  {
    /* the percent sign as the locale writes it: "71%", "71 %" */
    g_autofree char *pct = g_strdup_printf (_("%s%%"), num (b, e->utilization * 100, 0));

    line (lines, 2, _("Margin"), "%s%s GiB · %s", e->margin_bytes >= 0 ? "+" : "",
          num (a, hr_to_gib (e->margin_bytes), 2), pct);
  }
  if (!hr_estimate_serving_applies (s) && hr_engine_is_server_like (s->engine))
    line (lines, 2, _("KV-cache pool"), "%s", _("not applicable: vLLM and SGLang do not run on Apple GPUs"));
  else if (hr_engine_is_server_like (s->engine))
    {
      line (lines, 2, _("KV-cache pool"), _("%s GiB per GPU (of %s GiB the driver shows)"),
            num (a, hr_to_gib (e->kv_pool_bytes), 2), num (b, hr_to_gib (e->driver_memory_bytes), 2));
      line (lines, 4, _("Tokens it holds"), "%s", num (a, e->kv_capacity_tokens, 0));
      line (lines, 4, _("Requests at once"), _("%s of %s tokens (max-num-seqs %d)"),
            num (a, e->max_concurrency, 2), num (b, (double) s->context, 0), e->max_num_seqs);
    }
  if (isfinite (e->decode_tps))
    {
      g_autofree char *depth = hr_format_context_locale (e->depth);
      /* TRANSLATORS: decode speed, its range and the tokens already in the context, e.g.
       * "~45.2 tok/s (33.9–52.0) at 8K tokens in context" */
      line (lines, 2, _("Decode"), _("~%s tok/s (%s–%s) at %s tokens in context"), num (a, e->decode_tps, 1),
            num (b, e->decode_tps_low, 1), num (c, e->decode_tps_high, 1), depth);
      line (lines, 4, _("Empty context"), "~%s tok/s", num (a, e->decode_tps_empty, 1));
    }
  else
    line (lines, 2, _("Decode"), "%s", _("unknown"));
  line (lines, 4, NULL, "%s", decode_basis);
  if (e->draft_max > 0)
    {
      g_autofree char *draft = hr_draft_basis_text (e);

      line (lines, 2, _("Speculative decoding"), "%s", draft);
    }
  if (isfinite (e->prefill_tps))
    {
      g_autofree char *ttft = hr_format_duration_ms (e->ttft_ms);

      line (lines, 2, _("Prefill"), "~%s tok/s", num (a, e->prefill_tps, 0));
      line (lines, 4, NULL, "%s", prefill_basis);

      /* TRANSLATORS: time to first token, e.g. "~772 ms (4,096-token prompt)" */
      line (lines, 2, _("Time to first token"), _("%s (%s-token prompt)"), ttft,
            num (a, (double) s->prompt_tokens, 0));
    }
  else
    line (lines, 2, _("Prefill"), "%s (%s)", _("unknown"), prefill_basis);
  if (isfinite (e->cost_per_mtok_usd))
    line (lines, 2, _("Cost per 1M tokens"), "$%s (%s)", num (a, e->cost_per_mtok_usd, 2), e->offer_label);
  else if (isfinite (e->suggested_cost_per_mtok_usd))
    /* TRANSLATORS: e.g. "unknown (no offer for this GPU); suggestion on another GPU: $0.45 (RunPod · 1x A100 80GB SXM)" */
    line (lines, 2, _("Cost per 1M tokens"), _("unknown (no offer for this GPU); suggestion on another GPU: $%s (%s)"),
          num (a, e->suggested_cost_per_mtok_usd, 2), e->suggested_label);
  else
    line (lines, 2, _("Cost per 1M tokens"), "%s", _("no cloud offer fits"));
  write_lines (out, lines);
  hr_placement_append_text (out, s, e);
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

/* Compare ------------------------------------------------------------------------------------ */

gboolean
hr_report_compare_row (const HrScenario *base,
                       const HrGpu      *gpu,
                       int               count,
                       const HrCatalog  *catalog,
                       const HrPricing  *pricing,
                       HrCompareRow     *out,
                       GError          **error)
{
  HrDeviceKind kind = { gpu, count };

  g_return_val_if_fail (gpu != NULL, FALSE);
  return hr_report_compare_row_setup (base, &kind, 1, catalog, pricing, out, error);
}

gboolean
hr_report_compare_row_setup (const HrScenario   *base,
                             const HrDeviceKind *kinds,
                             int                 n_kinds,
                             const HrCatalog    *catalog,
                             const HrPricing    *pricing,
                             HrCompareRow       *out,
                             GError            **error)
{
  HrScenario *s;
  HrEstimate *e;

  g_return_val_if_fail (base != NULL, FALSE);
  g_return_val_if_fail (kinds != NULL && n_kinds >= 1 && kinds[0].gpu != NULL, FALSE);
  g_return_val_if_fail (catalog != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  s = &out->scenario;
  e = &out->estimate;
  *s = *base;
  /* the column's devices, not the base's (a mixed Size view setup compared on one GPU kind) */
  s->n_kinds = 0;
  memset (s->kinds, 0, sizeof s->kinds);
  s->gpu = kinds[0].gpu;
  s->n_gpus = kinds[0].count;
  if (n_kinds > 1 && !hr_scenario_set_devices (s, kinds, n_kinds, error))
    return FALSE;
  /* the backend follows each GPU unless the user forced one */
  if (!s->backend_set)
    s->backend = s->gpu->backend;
  out->price_usd = out->usd_per_decode_tps = out->power_w = NAN;
  if (!hr_estimate_compute (s, pricing, e, error))
    return FALSE;
  /* A comparison prices each column on its own hardware: a GPU no cloud rents out (or one
   * that does not fit) has no cost per token here, rather than another GPU's. */
  out->max_context = hr_advice_max_context (s);
  out->best_quant = hr_advice_best_quant (s, catalog);
  out->price_usd = 0;
  out->power_w = 0;
  for (int i = 0; i < n_kinds; i++)
    {
      out->price_usd += kinds[i].gpu->price_usd * kinds[i].count;
      out->power_w += kinds[i].gpu->tdp_w * kinds[i].count;
    }
  if (!isfinite (out->price_usd))
    out->price_usd = NAN;
  out->usd_per_decode_tps = isfinite (out->price_usd) && e->decode_tps > 0 && e->verdict != HR_VERDICT_EXCEEDS
                            ? out->price_usd / e->decode_tps : NAN;
  return TRUE;
}

/* How a row was made, as one field ("model=… quant=… …"): the last column, not a '#' line a
 * spreadsheet would read as data. */
static char *
scenario_provenance (const HrScenario *s)
{
  GString *out = g_string_new (NULL);
  char a[64], b[64];

  g_string_append_printf (out, "model=%s quant=%s context=%" G_GINT64_FORMAT " batch=%d kv_type=%s engine=%s",
                          s->model->id, s->quant, s->context, s->batch,
                          hr_kv_type_to_string (s->kv_type), hr_engine_to_string (s->engine));
  /* everything else that changes the numbers, so a file says how it was made */
  g_string_append_printf (out, " engine_version=%s backend=%s offload_pct=%s n_cpu_moe=%d reserve_pct=%s",
                          hr_engine_version_to_string (s->engine_version),
                          s->backend_set ? hr_backend_to_string (s->backend) : "auto",
                          hr_format_number_c_buf (a, sizeof a, s->offload_pct, 1), s->n_cpu_moe,
                          hr_format_number_c_buf (b, sizeof b, s->reserve * 100, 1));
  if (s->unified_share > 0)
    g_string_append_printf (out, " unified_share=%s",
                            hr_format_number_c_buf (a, sizeof a, s->unified_share, 2));
  return g_string_free (out, FALSE);
}

void
hr_report_compare_csv_header (GString          *out,
                              const HrScenario *s)
{
  static const char * const cols[] = {
    "gpu", "gpu_name", "gpus", "verdict", "required_gib", "usable_gib", "margin_gib",
    "utilization_pct", "max_context", "best_quant", "decode_tps", "decode_tps_low",
    "decode_tps_high", "prefill_tps", "ttft_ms", "cost_per_mtok_usd", "price_usd",
    "usd_per_decode_tps", "power_w", "scenario"
  };

  g_return_if_fail (out != NULL);
  g_return_if_fail (s != NULL && s->model != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cols); i++)
    hr_csv_field (out, cols[i], i + 1 == G_N_ELEMENTS (cols));
}

void
hr_report_compare_csv_row (GString            *out,
                           const HrCompareRow *row)
{
  const HrScenario *s;
  const HrEstimate *e;
  g_autofree char *gpu_name = NULL;
  char n[32], mc[32];

  g_return_if_fail (out != NULL);
  g_return_if_fail (row != NULL);

  s = &row->scenario;
  gpu_name = hr_gpu_data_name (s->gpu);
  e = &row->estimate;
  g_snprintf (n, sizeof n, "%d", s->n_gpus);
  g_snprintf (mc, sizeof mc, "%" G_GINT64_FORMAT, row->max_context);
  hr_csv_field (out, s->gpu->id, FALSE);
  hr_csv_field (out, gpu_name, FALSE);
  hr_csv_field (out, n, FALSE);
  hr_csv_field (out, hr_verdict_to_string (e->verdict), FALSE);
  hr_csv_number (out, hr_to_gib (e->required_bytes), 2, FALSE);
  hr_csv_number (out, hr_to_gib (e->usable_bytes), 2, FALSE);
  hr_csv_number (out, hr_to_gib (e->margin_bytes), 2, FALSE);
  hr_csv_number (out, e->utilization * 100, 1, FALSE);
  hr_csv_field (out, mc, FALSE);
  hr_csv_field (out, row->best_quant ? row->best_quant->id : "", FALSE);
  hr_csv_number (out, e->decode_tps, 1, FALSE);
  hr_csv_number (out, e->decode_tps_low, 1, FALSE);
  hr_csv_number (out, e->decode_tps_high, 1, FALSE);
  hr_csv_number (out, e->prefill_tps, 0, FALSE);
  hr_csv_number (out, e->ttft_ms, 0, FALSE);
  hr_csv_number (out, e->cost_per_mtok_usd, 2, FALSE);
  hr_csv_number (out, row->price_usd, 0, FALSE);
  hr_csv_number (out, row->usd_per_decode_tps, 2, FALSE);
  hr_csv_number (out, row->power_w, 0, FALSE);
  {
    g_autofree char *made = scenario_provenance (s);
    hr_csv_field (out, made, TRUE);
  }
}

gboolean
hr_report_compare_csv (GString          *out,
                       const HrScenario *scenario,
                       GPtrArray        *gpus,
                       const HrCatalog  *catalog,
                       const HrPricing  *pricing,
                       GError          **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (scenario != NULL, FALSE);
  g_return_val_if_fail (gpus != NULL, FALSE);

  hr_report_compare_csv_header (out, scenario);
  for (guint i = 0; i < gpus->len; i++)
    {
      HrCompareRow row;

      if (!hr_report_compare_row (scenario, g_ptr_array_index (gpus, i), scenario->n_gpus,
                                  catalog, pricing, &row, error))
        return FALSE;
      hr_report_compare_csv_row (out, &row);
    }
  return TRUE;
}

void
hr_report_compare_members (HrJsonWriter       *w,
                           const HrCompareRow *row)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (row != NULL);

  hr_report_estimate_members (w, &row->scenario, &row->estimate);
  hr_json_member_int (w, "max_context", row->max_context);
  hr_json_member_string (w, "best_quant", row->best_quant ? row->best_quant->id : NULL);
  hr_json_member_number (w, "price_usd", row->price_usd, 0);
  hr_json_member_number (w, "usd_per_decode_tps", row->usd_per_decode_tps, 2);
  hr_json_member_number (w, "power_w", row->power_w, 0);
}

/* Fine-tuning -------------------------------------------------------------------------------- */

char *
hr_report_finetune_json (const HrFtScenario *ft,
                         const HrFtEstimate *est,
                         const HrGpu        *gpu,
                         double              reserve,
                         double              unified_share)
{
  HrJsonWriter w;

  g_return_val_if_fail (ft != NULL && ft->model != NULL, NULL);
  g_return_val_if_fail (est != NULL, NULL);

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "model", ft->model->id);
  hr_json_member_string (&w, "method", hr_ft_method_to_string (ft->method));
  hr_json_member_int (&w, "seq", ft->seq_len);
  hr_json_member_int (&w, "micro_batch", ft->micro_batch);
  hr_json_member_int (&w, "gpus", ft->n_gpus);
  hr_json_member_string (&w, "optimizer", hr_optimizer_to_string (ft->optimizer));
  hr_json_member_string (&w, "sharding", hr_sharding_to_string (ft->sharding));
  hr_json_member_bool (&w, "gradient_checkpointing", ft->grad_checkpointing);
  hr_json_member_bool (&w, "flash_attention", ft->flash_attention);
  if (ft->method != HR_FT_FULL)
    {
      hr_json_member_int (&w, "lora_rank", ft->lora_rank);
      hr_json_member_string (&w, "lora_targets", ft->lora_all_linear ? "all-linear" : "attention");
    }
  hr_json_member_number (&w, "trainable_params_m", est->trainable_params / 1e6, 2);
  hr_json_gib_bytes (&w, "weights", est->weights_bytes);
  hr_json_gib_bytes (&w, "gradients", est->gradients_bytes);
  hr_json_gib_bytes (&w, "optimizer", est->optimizer_bytes);
  hr_json_gib_bytes (&w, "activations", est->activations_bytes);
  hr_json_gib_bytes (&w, "buffers", est->buffers_bytes);
  hr_json_gib_bytes (&w, "total_per_gpu", est->total_bytes);
  if (gpu != NULL)
    {
      hr_json_member_string (&w, "gpu", gpu->id);
      hr_json_gib_bytes (&w, "usable", hr_finetune_usable_bytes (gpu, reserve, unified_share));
      hr_json_member_string (&w, "verdict", hr_verdict_to_string (hr_finetune_verdict (est, gpu, reserve, unified_share)));
    }
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}
