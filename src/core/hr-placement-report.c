/* hr-placement-report.c — a setup's per-device plan as JSON and as text (hr-placement.h) */
#include "hr-placement.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const char *
split_to_string (HrSplitKind split)
{
  switch (split)
    {
    case HR_SPLIT_LAYER:
      return "layer";
    case HR_SPLIT_TENSOR:
      return "tensor";
    case HR_SPLIT_PIPELINE:
      return "pipeline";
    case HR_SPLIT_NONE:
    default:
      return "none";
    }
}

void
hr_placement_json (HrJsonWriter     *w,
                   const HrScenario *s,
                   const HrEstimate *e)
{
  const HrPlacement *p = &e->placement;
  g_autofree char *split = hr_placement_tensor_split (s, e);
  g_autofree char *stages = hr_placement_pp_partition (e);

  hr_json_member_string (w, "split", split_to_string (p->split));
  hr_json_member_string (w, "tensor_split", split);
  /* pipeline stages (vLLM/SGLang on different GPUs): layers per stage, and whether the
   * launch must set them (the engine's even partition does not fit) */
  hr_json_member_string (w, "pp_layer_partition", stages);
  hr_json_member_bool (w, "pp_custom_partition", p->custom_stages);
  /* an integrated GPU llama.cpp leaves out beside discrete ones */
  hr_json_member_string (w, "device_left_out", p->left_out != NULL ? p->left_out->id : NULL);
  if (hr_scenario_is_mixed (s) || p->user_split)
    hr_json_member_int (w, "gpu_layers", p->gpu_layers);
  hr_json_member_string (w, "slowest_device", p->slowest >= 0 ? p->devices[p->slowest].gpu->id : NULL);
  hr_json_key (w, "devices");
  hr_json_begin_array (w);
  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];
      /* "Custom GPU (24.5 GiB)" in every locale, as the JSON's gpu_name */
      g_autofree char *name = hr_gpu_data_name (d->gpu);

      hr_json_begin_object (w);
      hr_json_member_int (w, "index", j);
      hr_json_member_string (w, "id", d->gpu->id);
      hr_json_member_string (w, "name", name);
      hr_json_member_int (w, "count", 1);
      hr_json_member_int (w, "layers", d->layers);
      hr_json_member_bool (w, "output_layer", d->output);
      hr_json_gib_bytes (w, "weights", d->weights_bytes);
      hr_json_gib_bytes (w, "kv_cache", d->kv_bytes);
      hr_json_gib_bytes (w, "compute_buffer", d->compute_bytes);
      hr_json_gib_bytes (w, "runtime", d->runtime_bytes);
      hr_json_gib_bytes (w, "draft", d->draft_bytes);  /* speculative decoding's share (#31) */
      hr_json_gib_bytes (w, "required", d->required_bytes);
      hr_json_gib_bytes (w, "usable", d->usable_bytes);
      hr_json_gib_bytes (w, "margin", d->margin_bytes);
      hr_json_member_string (w, "verdict", hr_verdict_to_string (d->verdict));
      hr_json_member_number (w, "decode_ms", d->decode_seconds * 1e3, 2);
      if (p->split == HR_SPLIT_PIPELINE)
        hr_json_gib_bytes (w, "kv_pool", d->kv_pool_bytes);
      hr_json_end_object (w);
    }
  hr_json_end_array (w);

  /* different GPUs that do not hold it as asked: the least in system RAM that does */
  if ((hr_scenario_is_mixed (s) || p->user_split) && p->split == HR_SPLIT_LAYER &&
      e->verdict == HR_VERDICT_EXCEEDS)
    {
      HrScenario best;
      g_autofree HrEstimate *found = g_new0 (HrEstimate, 1);

      hr_json_key (w, "placement_search");
      if (hr_placement_search (s, &best, found))
        {
          g_autofree char *best_split = hr_placement_tensor_split (&best, found);

          hr_json_begin_object (w);
          hr_json_member_int (w, "ram_layers", found->placement.ram_layers);
          hr_json_member_int (w, "n_cpu_moe", found->placement.n_cpu_moe);
          hr_json_member_int (w, "gpu_layers", found->placement.gpu_layers);
          hr_json_member_string (w, "tensor_split", best_split);
          hr_json_member_number (w, "offload_pct", best.offload_pct, 4);
          hr_json_member_string (w, "verdict", hr_verdict_to_string (found->verdict));
          hr_json_member_number (w, "decode_tps", found->decode_tps, 1);
          hr_json_end_object (w);
        }
      else
        hr_json_null (w);
    }
}

void
hr_placement_append_text (GString          *out,
                          const HrScenario *s,
                          const HrEstimate *e)
{
  const HrPlacement *p = &e->placement;
  double step = isfinite (e->decode_tps) && e->decode_tps > 0 ? 1.0 / e->decode_tps : NAN;

  if (p->left_out != NULL)
    /* TRANSLATORS: an integrated GPU beside discrete ones; %s is its name */
    g_string_append_printf (out, _("%s is left out: llama.cpp uses an integrated GPU only when there "
                                   "is no other, and its memory is the system RAM.\n"), p->left_out->name);
  if ((!hr_scenario_is_mixed (s) && !p->user_split) || p->n_devices < 2)
    return;
  if (p->split == HR_SPLIT_PIPELINE)
    {
      g_autofree char *stages = hr_placement_pp_partition (e);

      /* TRANSLATORS: %s is the layers of each stage, "40,40" */
      g_string_append_printf (out, _("Placement (pipeline stages, in turn; layers %s%s):\n"), stages,
                              p->custom_stages ? _(", set at launch") : "");
    }
  else if (p->user_split)
    g_string_append_printf (out, "%s\n", _("Placement (llama.cpp layer split by your --tensor-split, in turn):"));
  else
    g_string_append_printf (out, "%s\n", _("Placement (llama.cpp layer split, in turn):"));
  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];
      g_autofree char *share = isfinite (step) && isfinite (d->decode_seconds)
                               ? g_strdup_printf ("%.0f", d->decode_seconds / step * 100) : g_strdup ("?");

      /* TRANSLATORS: one device of a split: its index and name, its layers ("+ output" when
       * it holds the output layer), its memory, usable memory, verdict and share of the time
       * per token, e.g. "  0 RTX 4090: 41 layers · 22.31 of 22.80 GiB usable · Tight fit · 48% of decode" */
      g_string_append_printf (out, _("  %d %s: %d layers%s · %.2f of %.2f GiB usable · %s · %s%% of decode\n"),
                              j, d->gpu->name, d->layers, d->output ? _(" + output") : "",
                              hr_to_gib (d->required_bytes), hr_to_gib (d->usable_bytes),
                              hr_verdict_display (d->verdict), share);
    }
  if (p->n_cpu_moe > p->ram_layers)
    /* TRANSLATORS: what stays in system RAM: whole layers, and the layers whose experts do */
    g_string_append_printf (out, _("  System RAM: %d layers, the experts of %d layers\n"), p->ram_layers,
                            p->n_cpu_moe - p->ram_layers);
  else if (p->ram_layers > 0)
    /* TRANSLATORS: the whole layers kept in system RAM */
    g_string_append_printf (out, _("  System RAM: %d layers\n"), p->ram_layers);
}
