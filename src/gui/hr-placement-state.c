/* hr-placement-state.c — the Placement card's strings (hr-placement-state.h, #31) */
#include "hr-placement-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-placement.h"
#include "hr-scenario-state.h"

static void
row_free (gpointer data)
{
  HrPlacementRowState *row = data;

  g_free (row->title);
  g_free (row->subtitle);
  g_free (row->verdict_text);
  g_free (row);
}

void
hr_placement_state_init (HrPlacementState *state)
{
  memset (state, 0, sizeof *state);
  state->rows = g_ptr_array_new_with_free_func (row_free);
}

void
hr_placement_state_clear (HrPlacementState *state)
{
  g_clear_pointer (&state->rows, g_ptr_array_unref);
  g_clear_pointer (&state->description, g_free);
  g_clear_pointer (&state->ram, g_free);
  g_clear_pointer (&state->flags, g_free);
  g_clear_pointer (&state->search, g_free);
  state->visible = FALSE;
}

void
hr_placement_state_from_estimate (HrPlacementState *state,
                                  const HrScenario *scenario,
                                  const HrEstimate *estimate)
{
  const HrPlacement *p = &estimate->placement;
  double step = isfinite (estimate->decode_tps) && estimate->decode_tps > 0 ? 1.0 / estimate->decode_tps : NAN;
  g_autofree char *split = NULL;
  g_autofree char *left = NULL;
  GString *desc;

  hr_placement_state_clear (state);
  hr_placement_state_init (state);
  /* an integrated GPU beside discrete ones, which llama.cpp leaves out (hr-placement.h) */
  if (p->left_out != NULL)
    left = g_strdup_printf (_("%s is left out: llama.cpp uses an integrated GPU only when there is no other, "
                              "and its memory is the system RAM."), p->left_out->name);
  if (p->n_devices < 2 || scenario->n_gpus < 2)
    {
      if (left != NULL)
        {
          state->visible = TRUE;
          state->description = g_steal_pointer (&left);
        }
      return;
    }
  state->visible = TRUE;

  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];
      HrPlacementRowState *row = g_new0 (HrPlacementRowState, 1);
      g_autofree char *layers = NULL;
      g_autofree char *required = hr_size_format_gib (d->required_bytes);
      g_autofree char *usable = hr_size_format_gib (d->usable_bytes);
      g_autofree char *memory = NULL;
      g_autofree char *share = NULL;

      /* TRANSLATORS: a device of the setup in the Placement card: its place in llama.cpp's
       * order, from 1, and its name */
      row->title = g_strdup_printf (_("GPU %d · %s"), j + 1, d->gpu->name);
      layers = g_strdup_printf (d->output
                                /* TRANSLATORS: the layers a device holds, and the output layer */
                                ? g_dngettext (GETTEXT_PACKAGE, "%d layer + output", "%d layers + output", d->layers)
                                /* TRANSLATORS: the layers a device holds */
                                : g_dngettext (GETTEXT_PACKAGE, "%d layer", "%d layers", d->layers),
                                d->layers);
      /* TRANSLATORS: a device's memory: what it needs of what it can use, "22.31 of 22.8 GiB usable" */
      memory = g_strdup_printf (_("%s of %s usable"), required, usable);
      if (d->draft_bytes > 0)
        {
          g_autofree char *draft = hr_size_format_gib (d->draft_bytes);
          /* TRANSLATORS: a device's memory, then its share of the speculative-decoding draft
           * model, which that memory includes: "22.31 of 22.8 GiB usable, 1.02 GiB of it the
           * draft model" */
          char *with = g_strdup_printf (_("%s, %s of it the draft model"), memory, draft);

          g_free (memory);
          memory = with;
        }
      if (isfinite (step) && isfinite (d->decode_seconds))
        /* TRANSLATORS: a device's share of the time one token takes, "48% of the time per token" */
        share = g_strdup_printf (_("%.0f%% of the time per token"), d->decode_seconds / step * 100);
      row->subtitle = share != NULL ? g_strdup_printf ("%s · %s · %s", layers, memory, share)
                                    : g_strdup_printf ("%s · %s", layers, memory);
      row->verdict = d->verdict;
      row->verdict_text = g_strdup (hr_verdict_display (d->verdict));
      row->verdict_css = hr_size_verdict_css (d->verdict);
      row->verdict_icon = hr_size_verdict_icon (d->verdict);
      row->slowest = j == p->slowest;
      g_ptr_array_add (state->rows, row);
    }

  desc = g_string_new (p->split == HR_SPLIT_TENSOR
                       ? _("Tensor parallelism: every device holds a shard of every layer.")
                       : p->split == HR_SPLIT_PIPELINE
                       ? _("Pipeline stages: each GPU holds its own layers and the same number of KV-cache blocks, and a token passes through them in turn.")
                       : _("llama.cpp’s layer split: each device holds its own layers, and a token passes through them in turn."));
  if (p->slowest >= 0 && p->slowest < p->n_devices)
    {
      g_string_append_c (desc, ' ');
      /* TRANSLATORS: the device with the largest part of the time per token, "GPU 1 (RTX 3090)" */
      g_string_append_printf (desc, _("The slowest is GPU %d (%s): it sets the pace."), p->slowest + 1,
                              p->devices[p->slowest].gpu->name);
    }
  if (left != NULL)
    g_string_append_printf (desc, " %s", left);
  state->description = g_string_free (desc, FALSE);

  if (p->n_cpu_moe > p->ram_layers)
    state->ram = g_strdup_printf (_("System RAM: %d layers, the experts of %d layers"), p->ram_layers,
                                  p->n_cpu_moe - p->ram_layers);
  else if (p->ram_layers > 0)
    state->ram = g_strdup_printf (_("System RAM: %d layers"), p->ram_layers);

  /* the server engine's stages, as its launch line has them (hr-launch-server.c) */
  if (p->split == HR_SPLIT_PIPELINE)
    {
      g_autofree char *stages = hr_placement_pp_partition (estimate);
      gboolean sglang = scenario->engine == HR_ENGINE_SGLANG;

      state->flags = g_strdup_printf ("%s%s%s%s %d", p->custom_stages ? (sglang ? "SGLANG_PP_LAYER_PARTITION=" : "VLLM_PP_LAYER_PARTITION=") : "",
                                      p->custom_stages ? stages : "", p->custom_stages ? " " : "",
                                      sglang ? "--tp 1 --pp-size" : "--tensor-parallel-size 1 --pipeline-parallel-size",
                                      p->n_devices);
    }

  /* llama.cpp's flags for this plan, as its launch line has them (hr-launch-llama.c) */
  split = hr_placement_tensor_split (scenario, estimate);
  if (split != NULL)
    {
      GString *flags = g_string_new (NULL);

      if (p->gpu_layers > scenario->model->n_layers)
        g_string_append (flags, "-ngl 999");
      else
        g_string_append_printf (flags, "-ngl %d", p->gpu_layers);
      g_string_append_printf (flags, " --split-mode layer --tensor-split %s", split);
      if (p->n_cpu_moe > 0)
        g_string_append_printf (flags, " --n-cpu-moe %d", p->n_cpu_moe);
      state->flags = g_string_free (flags, FALSE);
    }

  /* it does not fit as asked: the core's search for the least in system RAM that does */
  if (hr_scenario_is_mixed (scenario) && estimate->verdict == HR_VERDICT_EXCEEDS)
    {
      HrScenario best;
      g_autofree HrEstimate *found = g_new0 (HrEstimate, 1);

      if (hr_placement_search (scenario, &best, found))
        {
          const HrPlacement *f = &found->placement;
          g_autofree char *best_split = hr_placement_tensor_split (&best, found);
          g_autofree char *tps = hr_size_format_tps (found->decode_tps);
          GString *text = g_string_new (NULL);

          if (f->n_cpu_moe > f->ram_layers)
            /* TRANSLATORS: the placement search's answer: whole layers and the layers whose
             * experts stay in system RAM, then llama.cpp's flags and the speed */
            g_string_append_printf (text, _("It fits with %d of %d layers and the experts of %d more in system RAM"),
                                    f->ram_layers, scenario->model->n_layers, f->n_cpu_moe - f->ram_layers);
          else
            /* TRANSLATORS: the placement search's answer: the layers in system RAM, then
             * llama.cpp's flags and the speed */
            g_string_append_printf (text, _("It fits with %d of %d layers in system RAM"),
                                    f->ram_layers, scenario->model->n_layers);
          g_string_append_printf (text, ": -ngl %d", f->gpu_layers);
          if (f->n_cpu_moe > 0)
            g_string_append_printf (text, " --n-cpu-moe %d", f->n_cpu_moe);
          if (best_split != NULL)
            g_string_append_printf (text, " --tensor-split %s", best_split);
          g_string_append_printf (text, ", %s", tps);
          state->search = g_string_free (text, FALSE);
          state->search_offload_pct = best.offload_pct;
          state->search_n_cpu_moe = best.n_cpu_moe;
        }
    }
}
