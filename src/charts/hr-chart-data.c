/* hr-chart-data.c — the charts' plain structs, filled from the sizing core's results
 *
 * Every number here comes from the core (hr_estimate_compute, hr_advice_*, hr_finetune_*,
 * hr_tco_*); this file only converts units, picks what to show and writes the labels.
 */

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-chart-data.h"
#include "hr-chart-private.h"
#include "hr-placement.h"
#include "hr-scenario-text.h"
#include "hr-units.h"

/* Devices drawn one bar each; a larger tensor-parallel group (all devices hold the same
 * share) is drawn as one bar for "each GPU". */
#define MAX_DEVICE_BARS 8

static const char *
model_name (const HrModel *model)
{
  if (model == NULL)
    return _("Model");
  return model->name != NULL ? model->name : model->id != NULL ? model->id : _("Model");
}

static const char *
gpu_name (const HrGpu *gpu)
{
  if (gpu == NULL)
    return _("GPU");
  return gpu->name != NULL ? gpu->name : gpu->id != NULL ? gpu->id : _("GPU");
}

static char *
gpu_group_name (const HrScenario *scenario)
{
  if (hr_scenario_is_mixed (scenario))
    return hr_placement_setup_name (scenario);
  if (scenario->n_gpus > 1)
    return g_strdup_printf ("%d\u00d7 %s", scenario->n_gpus, gpu_name (scenario->gpu));
  return g_strdup (gpu_name (scenario->gpu));
}

static char *
kv_label (HrKvType kv)
{
  return g_ascii_strup (hr_kv_type_to_string (kv), -1);
}

HrChartVerdict
hr_chart_verdict_from_core (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return HR_CHART_VERDICT_FITS;
    case HR_VERDICT_TIGHT:
      return HR_CHART_VERDICT_TIGHT;
    case HR_VERDICT_EXCEEDS:
      return HR_CHART_VERDICT_EXCEEDS;
    default:
      return HR_CHART_VERDICT_UNKNOWN;
    }
}

void
hr_chart_breakdown_from_estimate (const HrScenario *scenario,
                                  const HrEstimate *estimate,
                                  HrChartBreakdown *out)
{
  g_autofree char *subtitle = NULL, *group = NULL;
  int n, bars;
  double kv, buffers, draft, projector;
  gboolean even;

  g_return_if_fail (scenario != NULL);
  g_return_if_fail (estimate != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  /* an integrated GPU llama.cpp leaves out holds nothing (hr-placement.h) */
  n = MAX (scenario->n_gpus - estimate->placement.n_left_out, 1);
  group = gpu_group_name (scenario);
  subtitle = hr_scenario_summary (scenario);
  /* TRANSLATORS: chart title, "GLM-4.5 Air on 2× RTX 4090" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("%s on %s"),
              model_name (scenario->model), group);
  g_strlcpy (out->heading.subtitle, subtitle, sizeof out->heading.subtitle);

  /* Cache and buffers are even over the group (the cache may be replicated, MLA under vLLM,
   * which the required total already includes); the weights are each device's share, so the
   * fullest bar is the card's "on the fullest GPU". */
  buffers = estimate->overhead_bytes / n;
  /* speculative decoding's draft (#31): its own part, spread like the model (hr-draft.c);
   * the vision projector (#31) is a part of its own, on the first device (estimate.h) */
  draft = estimate->draft_bytes / n;
  projector = estimate->mmproj_device >= 0 ? estimate->mmproj_bytes + estimate->mmproj_encode_bytes : 0;
  kv = MAX (0, estimate->required_bytes - estimate->weights_gpu - estimate->overhead_bytes
               - estimate->draft_bytes - projector) / n;
  bars = n <= MAX_DEVICE_BARS ? n : 1;
  even = fabs (hr_estimate_device_weights (scenario, estimate, n - 1) - estimate->weights_gpu / n)
         < 0.005 * HR_GIB;
  out->n_devices = bars;
  for (int i = 0; i < bars; i++)
    {
      HrChartDevice *d = &out->devices[i];
      /* one bar for a big group: the fullest (last) device */
      double weights = hr_estimate_device_weights (scenario, estimate, bars == n ? i : n - 1);

      if (n == 1)
        g_strlcpy (d->label, gpu_name (scenario->gpu), sizeof d->label);
      else if (bars == 1 && even)
        g_snprintf (d->label, sizeof d->label, _("Each of %d GPUs"), n);
      else if (bars == 1)
        g_snprintf (d->label, sizeof d->label, _("Fullest of %d GPUs"), n);
      else
        g_snprintf (d->label, sizeof d->label, _("GPU %d"), i + 1);
      d->weights_gib = hr_to_gib (weights);
      d->kv_gib = hr_to_gib (kv);
      d->buffers_gib = hr_to_gib (buffers);
      d->draft_gib = hr_to_gib (draft);
      d->physical_gib = hr_to_gib (estimate->physical_bytes / n);
      d->usable_gib = hr_to_gib (estimate->usable_bytes / n);
      d->projector_gib = i == 0 ? hr_to_gib (projector) : 0;
    }
  /* different GPUs: each bar is its device's own plan (hr-placement.h) */
  if (hr_scenario_is_mixed (scenario) && estimate->placement.n_devices == n && n <= MAX_DEVICE_BARS)
    for (int i = 0; i < n; i++)
      {
        const HrDevicePlan *p = &estimate->placement.devices[i];
        HrChartDevice *d = &out->devices[i];
        /* a device plan counts the projector in its weights and compute: drawn apart */
        gboolean holds = i == estimate->mmproj_device;

        g_strlcpy (d->label, gpu_name (p->gpu), sizeof d->label);
        d->weights_gib = hr_to_gib (p->weights_bytes - (holds ? estimate->mmproj_bytes : 0));
        d->kv_gib = hr_to_gib (p->kv_bytes);
        d->buffers_gib = hr_to_gib (p->compute_bytes + p->runtime_bytes
                                    - (holds ? estimate->mmproj_encode_bytes : 0));
        d->draft_gib = hr_to_gib (p->draft_bytes);
        d->projector_gib = holds ? hr_to_gib (projector) : 0;
        d->physical_gib = hr_to_gib (p->physical_bytes);
        d->usable_gib = hr_to_gib (p->usable_bytes);
      }
  out->system_ram_gib = hr_to_gib (estimate->system_ram_bytes);
  /* Engines leave parts of the file unloaded or on the host (llama.cpp: the token embedding,
   * MTP layers): name the file's size so the chart reconciles with a download listing. */
  if (fabs (estimate->weights.bytes - estimate->weights_gpu - estimate->system_ram_bytes
            + (estimate->mmproj_device < 0 ? estimate->mmproj_bytes + estimate->mmproj_encode_bytes : 0))
      > 0.005 * HR_GIB)
    out->weights_file_gib = hr_to_gib (estimate->weights.bytes);
  out->required_gib = hr_to_gib (estimate->required_bytes);
  out->physical_gib = hr_to_gib (estimate->physical_bytes);
  out->usable_gib = hr_to_gib (estimate->usable_bytes);
  out->machine_gib = hr_to_gib (estimate->machine_bytes);
  out->verdict = hr_chart_verdict_from_core (estimate->verdict);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

gboolean
hr_chart_context_from_scenario (const HrScenario  *scenario,
                                gint64             max_context,
                                HrChartContext    *out,
                                GError           **error)
{
  HrKvType kinds[HR_CHART_MAX_LINES];
  double contexts[HR_CHART_MAX_POINTS];
  g_autofree char *subtitle = NULL, *group = NULL;
  HrEstimate est;
  gint64 lo, hi, model_max;
  int n_kinds = 0, n_ctx = 0, n;
  gboolean have_current = FALSE;

  g_return_val_if_fail (scenario != NULL && scenario->model != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!hr_estimate_compute (scenario, NULL, &est, error))
    return FALSE;
  n = MAX (scenario->n_gpus - est.placement.n_left_out, 1);

  /* x range: 4K … 128K, or the model's maximum when smaller, widened to the current context */
  model_max = scenario->model->max_context > 0 ? scenario->model->max_context : 131072;
  hi = max_context > 0 ? max_context : MIN ((gint64) 131072, model_max);
  hi = MAX (hi, scenario->context);
  hi = MIN (hi, (gint64) HR_MAX_CONTEXT);
  lo = MIN ((gint64) 4096, MAX ((gint64) HR_MIN_CONTEXT, hi / 2));
  if (scenario->context < lo)
    lo = MAX ((gint64) HR_MIN_CONTEXT, scenario->context);

  /* Points at every power of two and half-way (on the log axis) between, the ends and the
   * current context */
  contexts[n_ctx++] = (double) lo;
  for (double c = exp2 (ceil (log2 ((double) lo))); c < hi && n_ctx < HR_CHART_MAX_POINTS - 3;
       c *= 2)
    {
      double mid = round (c * M_SQRT2 / 256) * 256;

      if (c > lo)
        contexts[n_ctx++] = c;
      if (mid > lo && mid < hi)
        contexts[n_ctx++] = mid;
    }
  contexts[n_ctx++] = (double) hi;
  if (scenario->context >= lo && scenario->context <= hi)
    contexts[n_ctx++] = (double) scenario->context;
  qsort (contexts, n_ctx, sizeof contexts[0], compare_double);

  /* KV precisions the engine offers, always including the scenario's */
  kinds[n_kinds++] = HR_KV_F16;
  /* the quantized KV types the engine has (engine table), in HrKvType order */
  for (HrKvType kv = HR_KV_FP8; kv <= HR_KV_Q4_0; kv++)
    if (hr_engine_has_kv_type (scenario->engine, kv))
      kinds[n_kinds++] = kv;
  for (int k = 0; k < n_kinds; k++)
    have_current |= kinds[k] == scenario->kv_type;
  if (!have_current)
    kinds[n_kinds++] = scenario->kv_type;

  out->n_lines = n_kinds;
  out->current_line = 0;
  for (int k = 0; k < n_kinds; k++)
    {
      HrChartLine *line = &out->lines[k];
      g_autofree char *label = kv_label (kinds[k]);
      HrScenario s = *scenario;
      double prev = -1;

      g_strlcpy (line->label, label, sizeof line->label);
      if (kinds[k] == scenario->kv_type)
        out->current_line = k;
      s.kv_type = kinds[k];
      for (int i = 0; i < n_ctx; i++)
        {
          HrEstimate e;

          if (contexts[i] == prev)
            continue;
          prev = contexts[i];
          s.context = (gint64) contexts[i];
          if (!hr_estimate_compute (&s, NULL, &e, NULL))
            continue;
          line->context[line->n_points] = contexts[i];
          line->required_gib[line->n_points] = hr_to_gib (e.per_gpu_required);
          line->n_points++;
        }
    }

  group = gpu_group_name (scenario);
  subtitle = hr_scenario_summary (scenario);
  /* TRANSLATORS: chart title, "GLM-4.5 Air: memory by context" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("%s: memory by context"),
              model_name (scenario->model));
  /* TRANSLATORS: subtitle, "on RTX 4090 · Q4_K_M · 8K context · …" */
  g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle, _("on %s · %s"), group,
              subtitle);
  out->usable_gib = hr_to_gib (est.usable_bytes / n);
  out->physical_gib = hr_to_gib (est.physical_bytes / n);
  out->per_device = n > 1;
  out->current_context = (double) scenario->context;
  out->verdict = hr_chart_verdict_from_core (est.verdict);
  out->max_fit_context = (double) hr_advice_max_context (scenario);
  out->min_context = (double) lo;
  out->max_context = (double) hi;
  return TRUE;
}

void
hr_chart_quant_from_matrix (const HrScenario *scenario,
                            GArray           *rows,
                            HrChartQuant     *out)
{
  g_autofree char *group = NULL, *ctx = NULL, *kv = NULL;

  g_return_if_fail (scenario != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->current_row = -1;
  out->usable_gib = NAN;
  out->physical_gib = NAN;
  group = gpu_group_name (scenario);
  ctx = hr_format_context_locale (scenario->context);
  kv = kv_label (scenario->kv_type);
  /* TRANSLATORS: chart title, "GLM-4.5 Air: quantizations on RTX 4090" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("%s: quantizations on %s"),
              model_name (scenario->model), group);
  /* TRANSLATORS: "8K context · F16 KV cache · llama.cpp" */
  g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle,
              _("%s context  ·  %s KV cache  ·  %s"), ctx, kv,
              hr_engine_display_name (scenario->engine));

  for (guint i = 0; rows != NULL && i < rows->len && out->n_rows < HR_CHART_MAX_QUANTS; i++)
    {
      const HrMatrixRow *row = &g_array_index (rows, HrMatrixRow, i);
      const HrEstimate *e = &row->estimate;
      HrChartQuantRow *r = &out->rows[out->n_rows];
      double projector;

      g_strlcpy (r->label, row->quant != NULL && row->quant->id != NULL ? row->quant->id : "?",
                 sizeof r->label);
      r->weights_gib = hr_to_gib (e->weights_gpu);
      r->buffers_gib = hr_to_gib (e->overhead_bytes);
      /* the draft and the projector (#31) are parts of their own, as in the breakdown: the KV
       * column is the cache alone, as the matrix's */
      projector = e->mmproj_device >= 0 ? e->mmproj_bytes + e->mmproj_encode_bytes : 0;
      r->draft_gib = hr_to_gib (e->draft_bytes);
      r->projector_gib = hr_to_gib (projector);
      r->kv_gib = hr_to_gib (MAX (0, e->required_bytes - e->weights_gpu - e->overhead_bytes
                                     - e->draft_bytes - projector));
      r->decode_tps = e->decode_tps > 0 ? e->decode_tps : NAN;
      r->verdict = hr_chart_verdict_from_core (e->verdict);
      if (e->weights.source == HR_WEIGHTS_UNKNOWN || !(e->weights.bytes > 0))
        {
          r->weights_gib = NAN;
          r->verdict = HR_CHART_VERDICT_UNKNOWN;
        }
      if (g_ascii_strcasecmp (r->label, scenario->quant) == 0)
        out->current_row = out->n_rows;
      if (e->physical_bytes > 0)
        {
          out->usable_gib = hr_to_gib (e->usable_bytes);
          out->physical_gib = hr_to_gib (e->physical_bytes);
        }
      out->n_rows++;
    }
}

void
hr_chart_compare_init (HrChartCompare   *out,
                       const HrScenario *base)
{
  g_autofree char *ctx = NULL, *kv = NULL;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->sort = HR_CHART_SORT_VERDICT;
  if (base == NULL)
    return;
  ctx = hr_format_context_locale (base->context);
  kv = kv_label (base->kv_type);
  /* TRANSLATORS: chart title, "GLM-4.5 Air · Q4_K_M · 8K context" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("%s  ·  %s  ·  %s context"),
              model_name (base->model), base->quant, ctx);
  {
    g_autofree char *seqs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d sequence",
                                                         "%d sequences", base->batch),
                                             base->batch);

    /* TRANSLATORS: "llama.cpp · 1 sequence · F16 KV cache · cost at the cheapest offer" */
    g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle,
                _("%s  ·  %s  ·  %s KV cache  ·  cost per token at the GPU’s cheapest cloud offer"),
                hr_engine_display_name (base->engine), seqs, kv);
  }
}

gboolean
hr_chart_compare_add (HrChartCompare   *out,
                      const HrScenario *scenario,
                      const HrEstimate *estimate)
{
  HrChartCompareItem *item;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (scenario != NULL, FALSE);

  if (out->n_items >= HR_CHART_MAX_GPUS)
    return FALSE;
  item = &out->items[out->n_items++];
  memset (item, 0, sizeof *item);
  g_strlcpy (item->name, gpu_name (scenario->gpu), sizeof item->name);
  item->count = MAX (scenario->n_gpus, 1);
  if (hr_scenario_is_mixed (scenario))
    {
      /* a mixed setup (#31): "RTX 4090 24GB + RTX 3090 24GB", its counts in its name */
      g_autofree char *setup = hr_placement_setup_name (scenario);

      g_strlcpy (item->name, setup, sizeof item->name);
      item->count = 1;
    }
  if (estimate == NULL)
    {
      item->required_gib = item->usable_gib = NAN;
      item->decode_tps = item->cost_per_mtok_usd = NAN;
      item->verdict = HR_CHART_VERDICT_UNKNOWN;
      return TRUE;
    }
  item->required_gib = hr_to_gib (estimate->required_bytes);
  item->usable_gib = hr_to_gib (estimate->usable_bytes);
  item->decode_tps = estimate->decode_tps > 0 ? estimate->decode_tps : NAN;
  item->cost_per_mtok_usd = estimate->cost_per_mtok_usd;
  item->verdict = hr_chart_verdict_from_core (estimate->verdict);
  return TRUE;
}

void
hr_chart_compare_from_gpus (const HrScenario *base,
                            GPtrArray        *gpus,
                            const HrPricing  *pricing,
                            HrChartCompare   *out)
{
  g_return_if_fail (base != NULL);
  g_return_if_fail (out != NULL);

  hr_chart_compare_init (out, base);
  for (guint i = 0; gpus != NULL && i < gpus->len; i++)
    {
      HrScenario s = *base;
      HrEstimate e;

      s.gpu = g_ptr_array_index (gpus, i);
      /* The backend follows each GPU unless the user forced one */
      if (!hr_chart_compare_add (out, &s, hr_estimate_compute (&s, pricing, &e, NULL) ? &e
                                                                                     : NULL))
        break;
    }
}

/* Usable memory of one device for training: the same reserve the inference estimate uses. */
static double
gpu_usable_gib (const HrGpu *gpu)
{
  if (hr_gpu_is_unified (gpu))
    return gpu->memory_gib * (gpu->unified_share > 0 ? gpu->unified_share : 0.75);
  return gpu->memory_gib * (1.0 - HR_DEFAULT_RESERVE);
}

static const HrGpu *
smallest_gpu_for (const HrCatalog *catalog,
                  double           gib)
{
  const HrGpu *best = NULL;

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *g = hr_catalog_get_gpu (catalog, i);

      if (g->memory_gib <= 0 || gpu_usable_gib (g) < gib)
        continue;
      if (best == NULL || g->memory_gib < best->memory_gib
          || (g->memory_gib == best->memory_gib && isfinite (g->price_usd)
              && (!isfinite (best->price_usd) || g->price_usd < best->price_usd)))
        best = g;
    }
  return best;
}

void
hr_chart_finetune_from_estimates (const HrFtScenario *ft,
                                  const HrFtEstimate  estimates[3],
                                  const HrGpu        *gpu,
                                  const HrCatalog    *catalog,
                                  HrChartFinetune    *out)
{
  const char *labels[3];
  g_autoptr(GString) sub = g_string_new (NULL);

  g_return_if_fail (ft != NULL);
  g_return_if_fail (estimates != NULL);
  g_return_if_fail (out != NULL);

  labels[HR_FT_QLORA] = _("QLoRA (4-bit)");
  labels[HR_FT_LORA] = _("LoRA (16-bit)");
  labels[HR_FT_FULL] = _("Full fine-tuning");

  memset (out, 0, sizeof *out);
  /* TRANSLATORS: chart title, "GLM-4.5 Air: fine-tuning memory" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("%s: fine-tuning memory"),
              model_name (ft->model));
  /* TRANSLATORS: "sequence 2048 · micro-batch 1 · adamw · gradient checkpointing · 1 GPU" */
  g_string_append_printf (sub, _("sequence %d  ·  micro-batch %d  ·  %s"), ft->seq_len,
                          ft->micro_batch, hr_optimizer_to_string (ft->optimizer));
  if (ft->grad_checkpointing)
    g_string_append_printf (sub, "  ·  %s", _("gradient checkpointing"));
  g_string_append (sub, "  ·  ");
  g_string_append_printf (sub, g_dngettext (GETTEXT_PACKAGE, "%d GPU", "%d GPUs", ft->n_gpus),
                          ft->n_gpus);
  if (ft->n_gpus > 1 && ft->sharding != HR_SHARD_NONE)
    g_string_append_printf (sub, " (%s)", hr_sharding_to_string (ft->sharding));
  if (ft->n_gpus > 1)
    {
      g_string_append (sub, "  ·  ");
      g_string_append (sub, _("memory per GPU"));
    }
  g_strlcpy (out->heading.subtitle, sub->str, sizeof out->heading.subtitle);

  out->physical_gib = NAN;
  out->usable_gib = NAN;
  if (gpu != NULL && gpu->memory_gib > 0)
    {
      out->physical_gib = gpu->memory_gib;
      out->usable_gib = gpu_usable_gib (gpu);
      g_strlcpy (out->gpu_label, gpu_name (gpu), sizeof out->gpu_label);
    }

  out->n_methods = 3;
  for (int i = 0; i < 3; i++)
    {
      const HrFtEstimate *e = &estimates[i];
      HrChartFtMethod *m = &out->methods[i];
      double total;

      g_strlcpy (m->label, labels[i], sizeof m->label);
      m->weights_gib = e->total_bytes > 0 ? hr_to_gib (e->weights_bytes) : NAN;
      m->grad_optimizer_gib = hr_to_gib (e->gradients_bytes + e->optimizer_bytes);
      m->activations_gib = hr_to_gib (e->activations_bytes);
      m->buffers_gib = hr_to_gib (e->buffers_bytes);
      total = hr_to_gib (e->total_bytes);
      m->verdict = HR_CHART_VERDICT_UNKNOWN;
      if (gpu != NULL && gpu->memory_gib > 0 && total > 0)
        m->verdict = hr_chart_verdict_from_core (hr_verdict_for (total, out->physical_gib,
                                                                 out->usable_gib));
      if (catalog != NULL && total > 0)
        {
          const HrGpu *fit = smallest_gpu_for (catalog, total);

          if (fit != NULL)
            /* TRANSLATORS: the smallest catalog GPU that holds it, "Fits on: H100 80GB SXM" */
            g_snprintf (m->note, sizeof m->note, _("Fits on: %s"), gpu_name (fit));
          else
            g_strlcpy (m->note, _("No single GPU holds it"), sizeof m->note);
        }
    }
}

void
hr_chart_tco_from_input (const HrTcoInput *input,
                         const char       *cloud_label,
                         const char       *buy_label,
                         int               horizon_months,
                         HrChartTco       *out)
{
  HrTcoResult r;
  gboolean cloud_known, buy_known;
  char a[64];

  g_return_if_fail (input != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  hr_tco_compute (input, &r);
  /* The core counts an unknown price as zero; the chart says "unknown" instead */
  cloud_known = isfinite (input->usd_per_hour) && input->usd_per_hour > 0;
  buy_known = isfinite (input->hardware_usd) && input->hardware_usd > 0;

  g_strlcpy (out->heading.title, _("Rent versus buy"), sizeof out->heading.title);
  if (isfinite (input->power_w) && input->power_w > 0)
    /* TRANSLATORS: "4 h/day · $0.175/kWh · 450 W" */
    g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle,
                _("%g h/day  ·  $%.3g/kWh  ·  %.0f W"), input->hours_per_day, input->usd_per_kwh,
                input->power_w);
  else
    /* TRANSLATORS: "4 h/day · $0.175/kWh · board power unknown" */
    g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle,
                _("%g h/day  ·  $%.3g/kWh  ·  board power unknown"), input->hours_per_day,
                input->usd_per_kwh);
  if (cloud_label != NULL)
    g_strlcpy (out->cloud_label, cloud_label, sizeof out->cloud_label);
  else
    /* TRANSLATORS: legend, "Rent: $2.40/h" */
    g_snprintf (out->cloud_label, sizeof out->cloud_label, _("Rent: %s/h"),
                hr_fmt_usd (a, sizeof a, input->usd_per_hour));
  if (buy_label != NULL)
    g_strlcpy (out->buy_label, buy_label, sizeof out->buy_label);
  else
    /* TRANSLATORS: legend, "Buy: $8,500" */
    g_snprintf (out->buy_label, sizeof out->buy_label, _("Buy: %s"),
                hr_fmt_usd (a, sizeof a, input->hardware_usd));

  out->cloud_monthly_usd = cloud_known ? r.cloud_monthly : NAN;
  out->electricity_monthly_usd = r.electricity_monthly;
  out->hardware_usd = buy_known ? input->hardware_usd : NAN;
  out->break_even_month = cloud_known && buy_known ? r.months_to_amortise : NAN;

  if (horizon_months <= 0)
    {
      if (isfinite (out->break_even_month))
        horizon_months = (int) CLAMP (ceil (out->break_even_month * 1.6 / 12) * 12, 12, 240);
      else
        horizon_months = 60;
    }
  horizon_months = CLAMP (horizon_months, 1, HR_CHART_MAX_MONTHS - 1);
  out->n_points = horizon_months + 1;
  for (int m = 0; m <= horizon_months; m++)
    {
      double cloud, buy;

      hr_tco_cumulative (input, m, &cloud, &buy);
      out->month[m] = m;
      out->cloud_usd[m] = cloud_known ? cloud : NAN;
      out->buy_usd[m] = buy_known ? buy : NAN;
    }
}

/* What Runs Here ----------------------------------------------------------------------------- */

void
hr_chart_fit_from_rows (GArray           *rows,
                        const HrScenario *base,
                        const char       *quality_name,
                        HrChartFit       *out)
{
  double q[HR_CHART_MAX_FIT], v[HR_CHART_MAX_FIT];
  gboolean on[HR_CHART_MAX_FIT];

  memset (out, 0, sizeof *out);
  out->usable_gib = NAN;
  g_snprintf (out->heading.title, sizeof out->heading.title, _("What runs on %d× %s"),
              base->n_gpus, base->gpu->name);
  g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle, "%s",
              _("Quality at the quant against decode speed; the line joins the models nothing beats on both"));
  if (quality_name != NULL)
    g_strlcpy (out->quality_name, quality_name, sizeof out->quality_name);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (rows, HrFitRow, i);
      HrChartFitPoint *p;

      if (!hr_fit_row_listed (r))
        {
          out->n_left_out++;
          if (!isfinite (out->usable_gib) && r->why == HR_FIT_WHY_MEMORY)
            out->usable_gib = r->why_usable_gib;
          continue;
        }
      out->n_fitting++;
      if (!isfinite (out->usable_gib))
        out->usable_gib = hr_to_gib (r->choice.estimate.usable_bytes);
      if (isnan (r->choice.quality))
        out->n_unknown++;
      if (out->n_points >= HR_CHART_MAX_FIT)
        continue;
      p = &out->points[out->n_points++];
      g_snprintf (p->label, sizeof p->label, "%s · %s", r->model->name, r->choice.quant->id);
      p->quality = r->choice.quality;
      p->decode_tps = r->choice.estimate.decode_tps;
      p->verdict = hr_chart_verdict_from_core (r->choice.estimate.verdict);
    }
  for (int i = 0; i < out->n_points; i++)
    {
      q[i] = out->points[i].quality;
      v[i] = out->points[i].decode_tps;
    }
  hr_fit_frontier (q, v, out->n_points, on);
  for (int i = 0; i < out->n_points; i++)
    out->points[i].frontier = on[i];
}

void
hr_chart_load_from_curve (const HrScenario  *s,
                          const HrLoadCurve *curve,
                          HrChartLoad       *out)
{
  int n = MIN (curve->n_points, HR_CHART_MAX_LOAD);

  memset (out, 0, sizeof *out);
  /* TRANSLATORS: chart title, "Throughput under load: Qwen3 8B on H100 80GB SXM" */
  g_snprintf (out->heading.title, sizeof out->heading.title, _("Throughput under load: %s on %s"),
              s->model->name ? s->model->name : s->model->id, s->gpu->name ? s->gpu->name : s->gpu->id);
  /* TRANSLATORS: chart subtitle, "vLLM · 1024-token prompts, 128-token answers" */
  g_snprintf (out->heading.subtitle, sizeof out->heading.subtitle, _("%s · %d-token prompts, %d-token answers"),
              hr_engine_display_name (s->engine), curve->prompt_tokens, curve->output_tokens);
  out->n_points = n;
  out->first_compute = -1;
  for (int i = 0; i < n; i++)
    {
      const HrLoadPoint *p = &curve->points[i];

      out->concurrency[i] = p->concurrency;
      out->per_user_tps[i] = p->per_user_tps;
      out->total_tps[i] = p->total_tps;
      if (out->first_compute < 0 && p->bound == HR_LOAD_BOUND_COMPUTE)
        out->first_compute = i;
    }
  out->kv_bound = n > 0 && curve->points[n - 1].bound == HR_LOAD_BOUND_KV;
  out->target_tps = isfinite (curve->min_user_tps) && curve->min_user_tps > 0 ? curve->min_user_tps : NAN;
  out->target_users = curve->target_concurrency;
}
