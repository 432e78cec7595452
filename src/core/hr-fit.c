/* hr-fit.c — every model ranked for one hardware setup, from hr_estimate_compute() */
#include "hr-fit.h"
#include "hr-advice.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const char *const sort_ids[HR_N_FIT_SORTS] = { "quality", "speed", "size", "context" };

const char *
hr_fit_sort_to_string (HrFitSort sort)
{
  return sort < HR_N_FIT_SORTS ? sort_ids[sort] : sort_ids[0];
}

gboolean
hr_fit_sort_from_string (const char *str,
                         HrFitSort  *sort)
{
  for (int i = 0; str != NULL && i < HR_N_FIT_SORTS; i++)
    if (g_ascii_strcasecmp (str, sort_ids[i]) == 0)
      {
        *sort = i;
        return TRUE;
      }
  return FALSE;
}

void
hr_fit_needs_init (HrFitNeeds *needs)
{
  memset (needs, 0, sizeof *needs);
  needs->min_context = HR_FIT_DEFAULT_CONTEXT;
  needs->use_case = HR_USE_CASE_GENERAL;
  needs->sort = HR_FIT_SORT_QUALITY;
}

gboolean
hr_fit_row_listed (const HrFitRow *row)
{
  return row->choice.quant != NULL;
}

/* Estimates @s into @c; FALSE when the estimate refuses the scenario. */
static gboolean
try_choice (HrFitChoice       *c,
            const HrScenario  *s,
            const HrQuantMix  *q)
{
  c->scenario = *s;
  g_strlcpy (c->scenario.quant, q->id, sizeof c->scenario.quant);
  if (!hr_estimate_compute (&c->scenario, NULL, &c->estimate, NULL))
    return FALSE;
  c->quant = q;
  return TRUE;
}

static gboolean
fast_enough (const HrEstimate *e,
             const HrFitNeeds *needs)
{
  return needs->min_decode_tps <= 0 || (isfinite (e->decode_tps) && e->decode_tps >= needs->min_decode_tps);
}

/* The GiB of system RAM an expert offload may use, or 0 when it is not to be tried. */
static double
offload_ram_gib (const HrScenario *base,
                 const HrModel    *model,
                 const HrFitNeeds *needs)
{
  double ram = needs->host_ram_gib > 0 ? needs->host_ram_gib : base->gpu->host_ram_gib;

  if (!hr_model_is_moe (model) || !hr_engine_is_llama_like (base->engine) ||
      base->gpu->backend == HR_BACKEND_CPU || hr_gpu_is_unified (base->gpu) || !(ram > 0))
    return 0;
  return ram;
}

/* The fewest layers whose experts in system RAM make @q fit with margin, fast enough, within
 * @ram_gib of RAM (kept at HR_FIT_FRACTION of it, as device memory is); FALSE when none. */
static gboolean
find_offload (HrFitChoice      *out,
              const HrScenario *s,
              const HrQuantMix *q,
              double            ram_gib,
              const HrFitNeeds *needs)
{
  HrScenario t = *s;
  HrFitChoice c = { 0 };
  int lo = 0, hi = hr_model_moe_layers (s->model);

  g_strlcpy (t.quant, q->id, sizeof t.quant);
  t.n_cpu_moe = hi;
  if (hi <= 0 || !try_choice (&c, &t, q) || c.estimate.verdict != HR_VERDICT_FITS)
    return FALSE;
  /* device memory falls as more layers' experts move out: bisect the fewest that fit */
  while (hi - lo > 1)
    {
      HrFitChoice mid_c = { 0 };
      int mid = (lo + hi) / 2;

      t.n_cpu_moe = mid;
      if (try_choice (&mid_c, &t, q) && mid_c.estimate.verdict == HR_VERDICT_FITS)
        hi = mid;
      else
        lo = mid;
    }
  t.n_cpu_moe = hi;
  if (!try_choice (&c, &t, q) || c.estimate.verdict != HR_VERDICT_FITS ||
      c.estimate.system_ram_bytes > ram_gib * HR_FIT_FRACTION * HR_GIB || !fast_enough (&c.estimate, needs))
    return FALSE;
  *out = c;
  return TRUE;
}

static void
finish_choice (HrFitChoice      *c,
               const HrFitRow   *row,
               const HrQuality  *quality)
{
  if (c->quant == NULL)
    return;
  c->max_context = hr_advice_max_context (&c->scenario);
  c->quality = row->score != NULL ? hr_quality_at_quant (quality, row->model, c->quant->id, row->score->value)
                                  : NAN;
}

static void
set_why (HrFitRow         *row,
         HrFitWhy          why,
         const HrFitChoice *c)
{
  row->why = why;
  if (c == NULL || c->quant == NULL)
    return;
  row->why_quant = c->quant;
  row->why_required_gib = hr_to_gib (c->estimate.required_bytes);
  row->why_usable_gib = hr_to_gib (c->estimate.usable_bytes);
  row->why_decode_tps = c->estimate.decode_tps;
}

/* The dense choices: the highest quant that fits with margin and is fast enough, and a higher
 * one that fits only tight.  Records why when none does. */
static void
dense_choices (HrFitRow         *row,
               const HrScenario *s,
               GPtrArray        *quants,
               const HrFitNeeds *needs)
{
  HrFitChoice last = { 0 }, slow = { 0 };

  for (guint i = 0; i < quants->len; i++)
    {
      const HrQuantMix *q = g_ptr_array_index (quants, i);
      HrFitChoice c = { 0 };

      if (!try_choice (&c, s, q))
        continue;
      last = c;
      if (c.estimate.verdict == HR_VERDICT_EXCEEDS)
        continue;
      if (!fast_enough (&c.estimate, needs))
        {
          slow = c;
          continue;
        }
      if (c.estimate.verdict == HR_VERDICT_TIGHT)
        {
          if (row->tight.quant == NULL)
            row->tight = c;
          continue;
        }
      row->choice = c;
      return;
    }
  if (row->tight.quant != NULL)
    {
      row->choice = row->tight;
      memset (&row->tight, 0, sizeof row->tight);
      return;
    }
  if (slow.quant != NULL)
    set_why (row, HR_FIT_WHY_SPEED, &slow);
  else if (last.quant != NULL)
    set_why (row, HR_FIT_WHY_MEMORY, &last);
  else
    set_why (row, HR_FIT_WHY_NO_QUANT, NULL);
}

/* MoE beside a discrete GPU: the expert offload at the highest quant above the dense choice. */
static void
offload_choice (HrFitRow         *row,
                const HrScenario *s,
                GPtrArray        *quants,
                const HrFitNeeds *needs)
{
  double ram = offload_ram_gib (s, row->model, needs);
  double dense_bpw = row->choice.quant != NULL ? row->choice.quant->nominal_bpw : 0;

  if (ram <= 0)
    return;
  for (guint i = 0; i < quants->len; i++)
    {
      const HrQuantMix *q = g_ptr_array_index (quants, i);

      if (q->nominal_bpw <= dense_bpw)
        break;
      if (find_offload (&row->offload, s, q, ram, needs))
        break;
    }
  if (row->choice.quant == NULL && row->offload.quant != NULL)
    {
      row->choice = row->offload;
      memset (&row->offload, 0, sizeof row->offload);
      row->why = HR_FIT_WHY_NONE;
    }
}

static void
rank_model (HrFitRow         *row,
            const HrScenario *base,
            const HrModel    *model,
            GPtrArray        *quants,
            const HrQuality  *quality,
            const HrFitNeeds *needs)
{
  HrScenario s = *base;

  memset (row, 0, sizeof *row);
  row->model = model;
  row->score = hr_quality_find (quality, model, needs->use_case);
  s.model = model;
  /* the vision projector follows the base's mode (#31): AUTO counts each model's own where
   * the engine loads one (hr_scenario_mmproj ()); a file the base named is its model's */
  if (model != base->model)
    {
      s.mmproj_path = NULL;
      if (s.mmproj_mode == HR_MMPROJ_FILE)
        s.mmproj_bytes = 0;
    }
  s.context = MAX (needs->min_context, HR_MIN_CONTEXT);
  s.n_cpu_moe = 0;
  s.offload_pct = 0;
  if (model->max_context > 0 && model->max_context < s.context)
    {
      set_why (row, HR_FIT_WHY_CONTEXT, NULL);
      return;
    }
  dense_choices (row, &s, quants, needs);
  offload_choice (row, &s, quants, needs);
  finish_choice (&row->choice, row, quality);
  finish_choice (&row->tight, row, quality);
  finish_choice (&row->offload, row, quality);
}

static double
params_of (const HrFitRow *r)
{
  return isfinite (r->model->total_params) ? r->model->total_params : 0;
}

/* Higher first; NAN last. */
static int
desc (double a,
      double b)
{
  gboolean fa = isfinite (a), fb = isfinite (b);

  if (fa != fb)
    return fa ? -1 : 1;
  if (!fa || a == b)
    return 0;
  return a > b ? -1 : 1;
}

static int
compare_rows (const HrFitRow *a,
              const HrFitRow *b,
              HrFitSort       sort)
{
  gboolean la = hr_fit_row_listed (a), lb = hr_fit_row_listed (b);
  int c = 0;

  if (la != lb)
    return la ? -1 : 1;
  if (!la)
    return desc (params_of (a), params_of (b)) ? desc (params_of (a), params_of (b))
                                               : g_strcmp0 (a->model->id, b->model->id);
  switch (sort)
    {
    case HR_FIT_SORT_QUALITY:
      c = desc (a->choice.quality, b->choice.quality);
      break;
    case HR_FIT_SORT_SPEED:
      c = desc (a->choice.estimate.decode_tps, b->choice.estimate.decode_tps);
      break;
    case HR_FIT_SORT_SIZE:
      c = desc (params_of (a), params_of (b));
      break;
    case HR_FIT_SORT_CONTEXT:
      c = desc ((double) a->choice.max_context, (double) b->choice.max_context);
      break;
    default:
      break;
    }
  if (c == 0)
    c = desc (a->choice.quality, b->choice.quality);
  if (c == 0)
    c = desc (params_of (a), params_of (b));
  if (c == 0)
    c = desc (a->choice.estimate.decode_tps, b->choice.estimate.decode_tps);
  return c != 0 ? c : g_strcmp0 (a->model->id, b->model->id);
}

static gint
compare_rows_data (gconstpointer a,
                   gconstpointer b,
                   gpointer      sort)
{
  return compare_rows (a, b, GPOINTER_TO_INT (sort));
}

void
hr_fit_sort (GArray    *rows,
             HrFitSort  sort)
{
  g_array_sort_with_data (rows, compare_rows_data, GINT_TO_POINTER (sort));
}

GArray *
hr_fit_rank (const HrScenario *base,
             GPtrArray        *models,
             const HrCatalog  *catalog,
             const HrQuality  *quality,
             const HrFitNeeds *needs)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (HrFitRow));
  g_autoptr(GPtrArray) quants = NULL;

  g_return_val_if_fail (base != NULL && base->gpu != NULL && models != NULL && catalog != NULL &&
                        needs != NULL, rows);

  quants = hr_advice_quant_candidates (base->engine, catalog);
  g_array_set_size (rows, models->len);
  for (guint i = 0; i < models->len; i++)
    rank_model (&g_array_index (rows, HrFitRow, i), base, g_ptr_array_index (models, i), quants,
                quality, needs);
  hr_fit_sort (rows, needs->sort);
  return rows;
}

char *
hr_fit_reason_text (const HrFitRow   *row,
                    const HrFitNeeds *needs)
{
  char a[64], b[64];

  switch (row->why)
    {
    case HR_FIT_WHY_MEMORY:
      return g_strdup_printf (_("needs %s GiB at %s; %s GiB usable"),
                              hr_format_number_locale_buf (a, sizeof a, row->why_required_gib, 1),
                              row->why_quant->id,
                              hr_format_number_locale_buf (b, sizeof b, row->why_usable_gib, 1));
    case HR_FIT_WHY_SPEED:
      return g_strdup_printf (_("%s tokens/s at %s; %s needed"),
                              hr_format_number_locale_buf (a, sizeof a, row->why_decode_tps, 1),
                              row->why_quant->id,
                              hr_format_number_locale_buf (b, sizeof b, needs->min_decode_tps, 1));
    case HR_FIT_WHY_CONTEXT:
      {
        g_autofree char *has = hr_format_context_short (row->model->max_context);
        g_autofree char *want = hr_format_context_short (needs->min_context);
        return g_strdup_printf (_("its context window is %s; %s needed"), has, want);
      }
    case HR_FIT_WHY_NO_QUANT:
      return g_strdup (_("the engine loads none of its quantizations"));
    case HR_FIT_WHY_NONE:
    default:
      return NULL;
    }
}

void
hr_fit_frontier (const double *quality,
                 const double *speed,
                 guint         n,
                 gboolean     *on_frontier)
{
  for (guint i = 0; i < n; i++)
    {
      on_frontier[i] = isfinite (quality[i]) && isfinite (speed[i]);
      for (guint j = 0; j < n && on_frontier[i]; j++)
        {
          if (j == i || !isfinite (quality[j]) || !isfinite (speed[j]))
            continue;
          if (quality[j] >= quality[i] && speed[j] >= speed[i] &&
              (quality[j] > quality[i] || speed[j] > speed[i]))
            on_frontier[i] = FALSE;
        }
    }
}
