/* hr-fit-state.c — the What Runs Here view's items, worded from hr_fit_rank() */
#include "hr-fit-state.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

const gint64 hr_fit_context_choices[] = { 4096, 8192, 16384, 32768, 65536, 131072, 262144, 1048576, 0 };
const double hr_fit_speed_choices[] = { 0, 5, 10, 20, 50, 100, -1 };

static void
item_free (gpointer p)
{
  HrFitItem *it = p;

  g_free (it->title);
  g_free (it->subtitle);
  g_free (it->quality);
  g_free (it->badge);
  g_free (it->description);
  g_free (it);
}

void
hr_fit_state_free (HrFitState *state)
{
  if (state == NULL)
    return;
  g_clear_pointer (&state->rows, g_array_unref);
  g_clear_pointer (&state->items, g_ptr_array_unref);
  g_free (state->title);
  g_free (state->subtitle);
  g_free (state->quality_name);
  g_free (state);
}

static char *
num (double value,
     int    decimals)
{
  char buf[64];

  return g_strdup (hr_format_number_locale_buf (buf, sizeof buf, value, decimals));
}

/* "Q6_K · up to 26K context · 39.2 tokens/s · 1.2 GiB spare" */
static char *
choice_text (const HrFitChoice *c)
{
  g_autofree char *ctx = hr_format_context_short (c->max_context >= 2048 ? c->max_context / 1024 * 1024
                                                                         : c->max_context);
  g_autofree char *tps = num (c->estimate.decode_tps, 1);
  g_autofree char *spare = num (hr_to_gib (c->estimate.margin_bytes), 1);
  g_autofree char *quant = c->scenario.n_cpu_moe > 0
    ? g_strdup_printf (_("%s, experts of %d layers in RAM"), c->quant->id, c->scenario.n_cpu_moe)
    : g_strdup (c->quant->id);

  /* TRANSLATORS: a model that fits: its quant, the longest context, decode speed, spare memory */
  return g_strdup_printf (_("%s · up to %s context · %s tokens/s · %s GiB spare"), quant, ctx, tps, spare);
}

static HrFitItem *
listed_item (const HrFitRow *r,
             guint           rank)
{
  HrFitItem *it = g_new0 (HrFitItem, 1);
  const HrFitChoice *c = &r->choice;

  it->model = r->model;
  it->listed = TRUE;
  it->rank = rank;
  it->title = g_strdup (r->model->name);
  it->subtitle = choice_text (c);
  it->quality_value = c->quality;
  it->quality = isfinite (c->quality) ? num (c->quality, 1) : g_strdup (_("unknown"));
  if (c->scenario.n_cpu_moe > 0)
    {
      it->badge = g_strdup (_("Experts in RAM"));
      it->badge_css = "verdict-tight";
    }
  else if (c->estimate.verdict == HR_VERDICT_TIGHT)
    {
      it->badge = g_strdup (_("Tight"));
      it->badge_css = "verdict-tight";
    }
  else
    {
      it->badge = g_strdup (_("Fits"));
      it->badge_css = "verdict-fits";
    }
  /* TRANSLATORS: what a screen reader says for a ranked model: rank, name, fit, quality, the
   * quant, context, speed and spare memory */
  it->description = g_strdup_printf (_("%u. %s: %s, quality %s. %s."), rank, it->title, it->badge,
                                     it->quality, it->subtitle);
  g_strlcpy (it->quant, c->quant->id, sizeof it->quant);
  it->context = c->scenario.context;
  it->n_cpu_moe = c->scenario.n_cpu_moe;
  it->decode_tps = c->estimate.decode_tps;
  return it;
}

static HrFitItem *
left_out_item (const HrFitRow   *r,
               const HrFitNeeds *needs)
{
  HrFitItem *it = g_new0 (HrFitItem, 1);

  it->model = r->model;
  it->title = g_strdup (r->model->name);
  it->subtitle = hr_fit_reason_text (r, needs);
  if (it->subtitle == NULL)
    it->subtitle = g_strdup ("");
  it->quality_value = NAN;
  it->decode_tps = NAN;
  it->quality = g_strdup (_("unknown"));
  it->badge = g_strdup (_("Does not fit"));
  it->badge_css = "verdict-exceeds";
  it->description = g_strdup_printf (_("%s: does not fit: %s."), it->title, it->subtitle);
  it->context = needs->min_context;
  if (r->why_quant != NULL)
    g_strlcpy (it->quant, r->why_quant->id, sizeof it->quant);
  return it;
}

/* The name of the metric the use case's figures use, or NULL when the file has none for it. */
static char *
metric_name (const HrQuality *quality,
             HrUseCase        use_case)
{
  for (guint i = 0; i < hr_quality_n_scores (quality); i++)
    {
      const HrQualityScore *s = hr_quality_get_score (quality, i);
      const HrQualityMetric *m;

      if (s->use_case == use_case && (m = hr_quality_metric (quality, s->metric)) != NULL)
        return g_strdup (m->name);
    }
  return NULL;
}

HrFitState *
hr_fit_state_new (const HrScenario *base,
                  GPtrArray        *models,
                  const HrCatalog  *catalog,
                  const HrQuality  *quality,
                  const HrFitNeeds *needs)
{
  HrFitState *st = g_new0 (HrFitState, 1);
  g_autofree char *usable = NULL;

  st->needs = *needs;
  st->rows = hr_fit_rank (base, models, catalog, quality, needs);
  st->items = g_ptr_array_new_with_free_func (item_free);
  st->usable_gib = NAN;
  for (guint i = 0; i < st->rows->len; i++)
    {
      const HrFitRow *r = &g_array_index (st->rows, HrFitRow, i);

      if (hr_fit_row_listed (r))
        {
          g_ptr_array_add (st->items, listed_item (r, ++st->n_listed));
          if (isnan (r->choice.quality))
            st->n_unknown++;
          if (!isfinite (st->usable_gib))
            st->usable_gib = hr_to_gib (r->choice.estimate.usable_bytes);
        }
      else
        {
          g_ptr_array_add (st->items, left_out_item (r, needs));
          if (!isfinite (st->usable_gib) && r->why == HR_FIT_WHY_MEMORY)
            st->usable_gib = r->why_usable_gib;
        }
    }
  st->quality_name = metric_name (quality, needs->use_case);
  /* TRANSLATORS: the view's title: the GPU count and the GPU (or "this computer"'s device) */
  st->title = g_strdup_printf (_("What runs on %d× %s"), base->n_gpus, base->gpu->name);
  usable = num (st->usable_gib, 1);
  if (st->quality_name != NULL)
    /* TRANSLATORS: engine · usable memory · the quality figure the list is ranked by */
    st->subtitle = g_strdup_printf (_("%s · %s GiB usable · quality: %s, less what the quant costs (llama.cpp's measured Δp against FP16)"),
                                    hr_engine_display_name (base->engine), usable, st->quality_name);
  else
    st->subtitle = g_strdup_printf (_("%s · %s GiB usable · no published quality figures for this use case"),
                                    hr_engine_display_name (base->engine), usable);
  /* the Size view's "Vision projector" switch applies to every row (#31): say which way */
  if (base->engine == HR_ENGINE_LLAMA_CPP && base->mmproj_mode != HR_MMPROJ_FILE)
    {
      char *with = g_strdup_printf ("%s · %s", st->subtitle,
                                    base->mmproj_mode == HR_MMPROJ_AUTO
                                    /* TRANSLATORS: What Runs Here sizes each multimodal model
                                     * with the vision projector llama.cpp loads beside it */
                                    ? _("vision models counted with their projector")
                                    /* TRANSLATORS: the Size view's "Vision projector" switch is off */
                                    : _("vision projectors left out"));

      g_free (st->subtitle);
      st->subtitle = with;
    }
  return st;
}

GPtrArray *
hr_fit_state_top (const HrFitState *state,
                  const char       *model_id,
                  guint             n)
{
  GPtrArray *top = g_ptr_array_new ();

  for (guint i = 0; state != NULL && i < state->items->len && top->len < n; i++)
    {
      HrFitItem *it = g_ptr_array_index (state->items, i);

      if (!it->listed)
        break;
      if (model_id != NULL && g_strcmp0 (it->model->id, model_id) == 0)
        continue;
      g_ptr_array_add (top, it);
    }
  return top;
}
