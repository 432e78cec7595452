/* hr-chart-describe.c — the figures a chart shows, as text for assistive technologies
 *
 * One function per chart kind (HrChartInfo.describe): a line per bar or line of the drawing,
 * with the numbers it shows, so a screen reader reads what a sighted user sees.
 */
#include "hr-chart-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* hr_chart_verdict_display(), with "unknown" in lower case: it stands mid-sentence. */
static const char *
verdict_word (HrChartVerdict verdict)
{
  if (verdict == HR_CHART_VERDICT_FITS || verdict == HR_CHART_VERDICT_TIGHT
      || verdict == HR_CHART_VERDICT_EXCEEDS)
    return hr_chart_verdict_display (verdict);
  return _("unknown");
}

char *
hr_chart_breakdown_describe (const void *data)
{
  const HrChartBreakdown *b = data;
  GString *out = g_string_new (NULL);

  for (int i = 0; i < CLAMP (b->n_devices, 0, HR_CHART_MAX_DEVICES); i++)
    {
      const HrChartDevice *d = &b->devices[i];

      /* TRANSLATORS: one bar of the memory chart, read by screen readers */
      g_string_append_printf (out, _("%s: weights %.2f GiB, KV cache %.2f GiB, buffers %.2f GiB; %.2f GiB usable.\n"),
                              d->label, d->weights_gib, d->kv_gib, d->buffers_gib, d->usable_gib);
      if (d->draft_gib > 0)
        /* TRANSLATORS: speculative decoding's draft model in the memory chart, for screen readers */
        g_string_append_printf (out, _("%s: draft model %.2f GiB.\n"), d->label, d->draft_gib);
      if (d->projector_gib > 0)
        /* TRANSLATORS: the vision projector on that bar's device, read by screen readers */
        g_string_append_printf (out, _("%s: vision projector %.2f GiB.\n"), d->label, d->projector_gib);
    }
  if (b->system_ram_gib > 0)
    g_string_append_printf (out, _("System RAM: %.2f GiB.\n"), b->system_ram_gib);
  g_string_append_printf (out, "%s.", verdict_word (b->verdict));
  return g_string_free (out, FALSE);
}

char *
hr_chart_context_describe (const void *data)
{
  const HrChartContext *c = data;
  GString *out = g_string_new (NULL);

  for (int l = 0; l < CLAMP (c->n_lines, 0, HR_CHART_MAX_LINES); l++)
    {
      const HrChartLine *line = &c->lines[l];
      int last = CLAMP (line->n_points, 0, HR_CHART_MAX_POINTS) - 1;

      if (last < 0)
        continue;
      /* TRANSLATORS: one line of the context chart: KV precision, then memory at both ends */
      g_string_append_printf (out, _("%s KV cache: %.2f GiB at %.0f tokens, %.2f GiB at %.0f tokens.\n"),
                              line->label, line->required_gib[0], line->context[0],
                              line->required_gib[last], line->context[last]);
    }
  g_string_append_printf (out, _("%.2f GiB usable."), c->usable_gib);
  return g_string_free (out, FALSE);
}

char *
hr_chart_quant_describe (const void *data)
{
  const HrChartQuant *q = data;
  GString *out = g_string_new (NULL);

  for (int i = 0; i < CLAMP (q->n_rows, 0, HR_CHART_MAX_QUANTS); i++)
    {
      const HrChartQuantRow *r = &q->rows[i];

      /* TRANSLATORS: one bar of the quantization chart: name, total memory, verdict */
      g_string_append_printf (out, _("%s: %.2f GiB, %s.\n"), r->label,
                              r->weights_gib + r->kv_gib + r->buffers_gib
                              + hr_chart_clean (r->draft_gib) + hr_chart_clean (r->projector_gib),
                              verdict_word (r->verdict));
    }
  g_string_append_printf (out, _("%.2f GiB usable."), q->usable_gib);
  return g_string_free (out, FALSE);
}

char *
hr_chart_compare_describe (const void *data)
{
  const HrChartCompare *c = data;
  GString *out = g_string_new (NULL);
  char usd[64];

  for (int i = 0; i < CLAMP (c->n_items, 0, HR_CHART_MAX_GPUS); i++)
    {
      const HrChartCompareItem *it = &c->items[i];

      /* TRANSLATORS: one GPU of the comparison chart: name, required and usable memory, verdict */
      g_string_append_printf (out, _("%s: %.2f of %.2f GiB, %s"), it->name, it->required_gib,
                              it->usable_gib, verdict_word (it->verdict));
      if (isfinite (it->decode_tps))
        g_string_append_printf (out, _("; %.1f tokens/s"), it->decode_tps);
      if (isfinite (it->cost_per_mtok_usd))
        /* TRANSLATORS: %s is a price, "$1.55" */
        g_string_append_printf (out, _("; %s per 1M tokens"),
                                hr_fmt_usd (usd, sizeof usd, it->cost_per_mtok_usd));
      g_string_append (out, ".\n");
    }
  return g_string_free (out, FALSE);
}

char *
hr_chart_finetune_describe (const void *data)
{
  const HrChartFinetune *f = data;
  GString *out = g_string_new (NULL);

  for (int i = 0; i < CLAMP (f->n_methods, 0, HR_CHART_MAX_FT); i++)
    {
      const HrChartFtMethod *m = &f->methods[i];

      /* TRANSLATORS: one bar of the fine-tuning chart: method, total per GPU, verdict */
      g_string_append_printf (out, _("%s: %.2f GiB, %s.\n"), m->label,
                              m->weights_gib + m->grad_optimizer_gib + m->activations_gib + m->buffers_gib,
                              verdict_word (m->verdict));
    }
  if (isfinite (f->usable_gib))
    g_string_append_printf (out, _("%.2f GiB usable."), f->usable_gib);
  return g_string_free (out, FALSE);
}

char *
hr_chart_tco_describe (const void *data)
{
  const HrChartTco *t = data;
  GString *out = g_string_new (NULL);
  char cloud[64], hardware[64], electricity[64];

  /* prices as the chart and the app write them ("$8,500"; "$8.500" in German) */
  hr_fmt_usd (cloud, sizeof cloud, t->cloud_monthly_usd);
  hr_fmt_usd (hardware, sizeof hardware, t->hardware_usd);
  hr_fmt_usd (electricity, sizeof electricity, t->electricity_monthly_usd);
  /* TRANSLATORS: the rent-versus-buy chart for screen readers; each %s after a label is a
   * price, "$122" */
  g_string_append_printf (out, _("%s: %s a month. %s: %s up front, %s a month for electricity."),
                          t->cloud_label, cloud, t->buy_label, hardware, electricity);
  return g_string_free (out, FALSE);
}

char *
hr_chart_load_describe (const void *data)
{
  const HrChartLoad *d = data;
  GString *out = g_string_new (NULL);
  int n = CLAMP (d->n_points, 0, HR_CHART_MAX_LOAD);
  char a[48], b[48];

  for (int i = 0; i < n; i++)
    {
      hr_fmt_number (a, sizeof a, d->per_user_tps[i], 1);
      hr_fmt_number (b, sizeof b, d->total_tps[i], 0);
      /* TRANSLATORS: one point of the throughput-under-load chart for screen readers */
      g_string_append_printf (out, ngettext ("%d user: %s tok/s each, %s tok/s in all.",
                                             "%d users: %s tok/s each, %s tok/s in all.",
                                             (gulong) d->concurrency[i]),
                              (int) d->concurrency[i], a, b);
      g_string_append_c (out, ' ');
    }
  if (d->kv_bound && n > 0)
    {
      g_string_append_printf (out, ngettext ("The KV cache is full at %d user.", "The KV cache is full at %d users.",
                                             (gulong) d->concurrency[n - 1]),
                              (int) d->concurrency[n - 1]);
      g_string_append_c (out, ' ');
    }
  if (d->target_users > 0 && isfinite (d->target_tps))
    g_string_append_printf (out, ngettext ("%d user at ≥ %s tok/s each", "%d users at ≥ %s tok/s each",
                                           d->target_users),
                            d->target_users, hr_fmt_number (a, sizeof a, d->target_tps, 0));
  return g_string_free (out, FALSE);
}
