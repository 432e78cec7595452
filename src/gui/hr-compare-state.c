/* hr-compare-state.c — the Compare table worded for the screen, testable without a display */
#include "hr-compare-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-advice.h"
#include "hr-launch.h"
#include "hr-placement.h"
#include "hr-scenario-state.h"
#include "hr-scenario-text.h"
#include "hr-units.h"

#define DASH "—"
#define MINUS "−"   /* U+2212: a minus sign, not a hyphen */

/* Rows whose figures only mean something on a GPU the model fits on: a speed, a cost, a price
 * or a power draw of a card that cannot hold the model is not a candidate for "best". */
static gboolean
metric_needs_fit (HrCompareMetric metric)
{
  return metric == HR_COMPARE_DECODE || metric == HR_COMPARE_PREFILL ||
         metric == HR_COMPARE_COST || metric == HR_COMPARE_PRICE_PER_TPS ||
         metric == HR_COMPARE_PRICE || metric == HR_COMPARE_POWER;
}

/* How a row shows differences: none, in percent of the best, or in GiB (a margin may be
 * negative, where a percentage says nothing). */
typedef enum { DIFF_NONE, DIFF_PERCENT, DIFF_GIB } DiffKind;

static DiffKind
metric_diff_kind (HrCompareMetric metric)
{
  switch (metric)
    {
    case HR_COMPARE_VERDICT:
    case HR_COMPARE_QUANT:
    case HR_COMPARE_LAUNCH:
    case HR_COMPARE_N_METRICS:
      return DIFF_NONE;
    case HR_COMPARE_MARGIN:
      return DIFF_GIB;
    case HR_COMPARE_MEMORY:
    case HR_COMPARE_CONTEXT:
    case HR_COMPARE_CAPACITY:
    case HR_COMPARE_DECODE:
    case HR_COMPARE_PREFILL:
    case HR_COMPARE_COST:
    case HR_COMPARE_PRICE:
    case HR_COMPARE_PRICE_PER_TPS:
    case HR_COMPARE_POWER:
    default:
      return DIFF_PERCENT;
    }
}

/* Metric names --------------------------------------------------------------------------- */

const char *
hr_compare_metric_title (HrCompareMetric metric)
{
  switch (metric)
    {
    case HR_COMPARE_VERDICT: return _("Verdict");
    case HR_COMPARE_MEMORY: return _("Required of usable");
    case HR_COMPARE_MARGIN: return _("Margin");
    case HR_COMPARE_CONTEXT: return _("Longest context");
    case HR_COMPARE_CAPACITY: return _("Serving capacity");
    case HR_COMPARE_QUANT: return _("Best quantization");
    case HR_COMPARE_DECODE: return _("Decode speed");
    case HR_COMPARE_PREFILL: return _("Prefill speed");
    case HR_COMPARE_COST: return _("Cost per 1M tokens");
    case HR_COMPARE_PRICE: return _("Hardware price");
    case HR_COMPARE_PRICE_PER_TPS: return _("Price per tok/s");
    case HR_COMPARE_POWER: return _("Power");
    case HR_COMPARE_LAUNCH: return _("Launch command");
    case HR_COMPARE_N_METRICS:
    default:
      return "";
    }
}

const char *
hr_compare_metric_tooltip (HrCompareMetric metric)
{
  switch (metric)
    {
    case HR_COMPARE_VERDICT:
      /* xgettext:no-c-format */
      return _("Fits with margin (up to 92% of physical memory), tight (within usable memory) or does not fit. Sorts fitting GPUs first, the most headroom first.");
    case HR_COMPARE_MEMORY:
      return _("Device memory the scenario needs, of the memory usable on these GPUs. Sorted and compared by usable memory.");
    case HR_COMPARE_MARGIN:
      return _("Usable memory left over; negative when the scenario does not fit. Differences in GiB.");
    case HR_COMPARE_CONTEXT:
      return _("The longest context window that still fits, up to the model’s maximum.");
    case HR_COMPARE_CAPACITY:
      return _("vLLM and SGLang: requests of the chosen context the KV-cache pool serves at once, the tokens it holds and the pool per GPU.");
    case HR_COMPARE_QUANT:
      return _("The most precise quantization that fits at this context.");
    case HR_COMPARE_DECODE:
      return _("Estimated decode speed per sequence, with its range; compared among the GPUs the scenario fits on.");
    case HR_COMPARE_PREFILL:
      return _("Estimated prompt processing speed and the time to first token; compared among the GPUs the scenario fits on.");
    case HR_COMPARE_COST:
      return _("Cloud cost per million generated tokens at the cheapest offer that fits: this GPU’s own offers, else the cheapest offer on any hardware.");
    case HR_COMPARE_PRICE:
      return _("Purchase price of all the GPUs in the column (list or street price).");
    case HR_COMPARE_PRICE_PER_TPS:
      return _("Hardware price divided by the decode speed: what a token per second costs to buy.");
    case HR_COMPARE_POWER:
      return _("Board power of all the GPUs in the column.");
    case HR_COMPARE_LAUNCH:
      return _("The command that starts the chosen engine with this scenario on these GPUs.");
    case HR_COMPARE_N_METRICS:
    default:
      return "";
    }
}

gboolean
hr_compare_metric_sortable (HrCompareMetric metric)
{
  return (guint) metric < HR_COMPARE_N_METRICS && metric != HR_COMPARE_LAUNCH;
}

gboolean
hr_compare_metric_higher_is_better (HrCompareMetric metric)
{
  switch (metric)
    {
    case HR_COMPARE_MEMORY:
    case HR_COMPARE_MARGIN:
    case HR_COMPARE_CONTEXT:
    case HR_COMPARE_CAPACITY:
    case HR_COMPARE_QUANT:
    case HR_COMPARE_DECODE:
    case HR_COMPARE_PREFILL:
      return TRUE;
    case HR_COMPARE_VERDICT:      /* the key is a rank: lower is better */
    case HR_COMPARE_COST:
    case HR_COMPARE_PRICE:
    case HR_COMPARE_PRICE_PER_TPS:
    case HR_COMPARE_POWER:
    case HR_COMPARE_LAUNCH:
    case HR_COMPARE_N_METRICS:
    default:
      return FALSE;
    }
}

/* Entries and columns ------------------------------------------------------------------------ */

HrCompareEntry *
hr_compare_entry_new (const char *gpu_id,
                      int         count)
{
  HrCompareEntry *entry;

  g_return_val_if_fail (gpu_id != NULL, NULL);

  entry = g_new0 (HrCompareEntry, 1);
  entry->gpu_id = g_strdup (gpu_id);
  entry->count = CLAMP (count, 1, HR_COMPARE_MAX_COUNT);
  return entry;
}

void
hr_compare_entry_free (HrCompareEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->gpu_id);
  g_free (entry);
}

static void
cell_clear (HrCompareCell *cell)
{
  g_clear_pointer (&cell->value, g_free);
  g_clear_pointer (&cell->detail, g_free);
  g_clear_pointer (&cell->diff, g_free);
  g_clear_pointer (&cell->tooltip, g_free);
}

static void
column_free (HrCompareColumn *col)
{
  for (guint i = 0; i < HR_COMPARE_N_METRICS; i++)
    cell_clear (&col->cells[i]);
  g_free (col->gpu_id);
  g_free (col->title);
  g_free (col->subtitle);
  g_free (col->launch_title);
  g_free (col->launch_command);
  g_free (col);
}

/* A number and its unit stay on one line in the table's narrow columns ("896 GB/s" broke as
 * "896 GB/" and "s"): a no-break space between a digit and the word after it, a word joiner
 * after a slash between two letters.  Other spaces still wrap.  Takes @text. */
static char *
keep_units_whole (char *text)
{
  GString *s;

  if (text == NULL)
    return NULL;
  s = g_string_sized_new (strlen (text) + 8);
  for (const char *p = text; *p; p++)
    {
      if (*p == ' ' && p > text && g_ascii_isdigit (p[-1]) && p[1] != '\0' && !g_ascii_isspace (p[1])
          && !g_ascii_ispunct (p[1]))
        {
          g_string_append (s, "\u00a0");
          continue;
        }
      g_string_append_c (s, *p);
      if (*p == '/' && p > text && g_ascii_isalpha (p[-1]) && g_ascii_isalpha (p[1]))
        g_string_append (s, "\u2060");
    }
  g_free (text);
  return g_string_free (s, FALSE);
}

static void
cell_set (HrCompareCell *cell,
          char          *value,
          char          *detail,
          double         key)
{
  cell_clear (cell);
  cell->value = keep_units_whole (value);
  cell->detail = keep_units_whole (detail);
  cell->key = key;
  cell->best = FALSE;
  cell->muted = FALSE;
}

static char *
gib_number (double bytes)
{
  return hr_size_format_number (hr_to_gib (bytes), 2);
}

static char *
count_times (int         count,
             const char *what)
{
  /* TRANSLATORS: several of one thing, e.g. "2 × 300 W" */
  return g_strdup_printf (_("%d × %s"), count, what);
}

static const char *
verdict_rank_css (const HrCompareColumn *col)
{
  return col->ok ? hr_size_verdict_css (col->verdict) : "verdict-error";
}

/* Serving capacity (vLLM/SGLang): requests at once, or why there is none. */
static void
capacity_fill (HrCompareCell    *cell,
               const HrScenario *s,
               const HrEstimate *e)
{
  g_autofree char *tokens = NULL;

  if (!hr_engine_is_server_like (s->engine))
    {
      cell_set (cell, g_strdup (DASH), g_strdup (_("vLLM and SGLang only")), NAN);
      return;
    }
  if (!hr_estimate_serving_applies (s))
    {
      /* TRANSLATORS: the serving-capacity row in Compare for a Mac */
      cell_set (cell, g_strdup (_("Not applicable")),
                g_strdup (_("vLLM and SGLang do not run on Apple GPUs")), NAN);
      return;
    }
  tokens = hr_size_format_count (e->kv_capacity_tokens);
  if (e->verdict == HR_VERDICT_EXCEEDS || e->kv_capacity_tokens <= 0)
    cell_set (cell, g_strdup (_("Does not fit")),
              g_strdup (_("no memory left for the KV-cache pool")), NAN);
  else if (e->max_concurrency < 1)
    /* TRANSLATORS: the KV-cache pool holds fewer tokens than one request of the chosen
     * context, e.g. "12,288 tokens: less than one request" */
    cell_set (cell, g_strdup (_("Does not fit")),
              g_strdup_printf (_("%s tokens: less than one request"), tokens), NAN);
  else
    {
      g_autofree char *conc = hr_size_format_number (e->max_concurrency, 2);
      g_autofree char *ctx = hr_format_context_locale (s->context);
      g_autofree char *pool = hr_size_format_number (hr_to_gib (e->kv_pool_bytes), 2);

      /* TRANSLATORS: requests at once of the chosen context, e.g. "4.63 × 40K" */
      cell_set (cell, g_strdup_printf (_("%s × %s"), conc, ctx),
                /* TRANSLATORS: the KV-cache pool, e.g. "189,712 tokens · 8.50 GiB per GPU" */
                g_strdup_printf (_("%s tokens · %s GiB per GPU"), tokens, pool), e->max_concurrency);
    }
}

/* Words one column from the core's row. */
static void
column_fill (HrCompareColumn    *col,
             const HrCompareRow *row)
{
  const HrScenario *s = &row->scenario;
  const HrEstimate *e = &row->estimate;
  const HrGpu *gpu = s->gpu;
  gboolean fits = e->verdict != HR_VERDICT_EXCEEDS;
  char *value, *detail;

  col->verdict = e->verdict;
  col->verdict_css = verdict_rank_css (col);
  col->verdict_icon = hr_size_verdict_icon (e->verdict);

  /* Verdict: ranked fits < tight < exceeds, then by margin */
  {
    g_autofree char *util = hr_size_format_number (e->utilization * 100, 0);

    /* TRANSLATORS: utilisation under the verdict, e.g. "76% of physical memory" */
    detail = g_strdup_printf (_("%s%% of physical memory"), util);
    cell_set (&col->cells[HR_COMPARE_VERDICT], g_strdup (hr_verdict_display (e->verdict)), detail,
              (double) e->verdict * 1e7 - hr_to_gib (e->margin_bytes));
  }

  /* Required of usable */
  {
    g_autofree char *req = gib_number (e->required_bytes);
    g_autofree char *usable = gib_number (e->usable_bytes);
    g_autofree char *phys = hr_size_format_number (gpu->memory_gib, 0);

    /* TRANSLATORS: required of usable memory, e.g. "72.52 of 91.2 GiB" */
    value = g_strdup_printf (_("%s of %s GiB"), req, usable);
    if (hr_gpu_is_unified (gpu))
      detail = g_strdup_printf (_("%s GiB unified memory"), phys);
    else if (s->n_gpus > 1)
      detail = g_strdup_printf (_("%d × %s GiB physical"), s->n_gpus, phys);
    else
      detail = g_strdup_printf (_("%s GiB physical"), phys);
    cell_set (&col->cells[HR_COMPARE_MEMORY], value, detail, hr_to_gib (e->usable_bytes));
  }

  /* Margin */
  {
    g_autofree char *pct = hr_size_format_number (e->required_bytes / MAX (e->usable_bytes, 1) * 100, 0);

    /* TRANSLATORS: share of usable memory the scenario takes, e.g. "79% of usable" */
    detail = g_strdup_printf (_("%s%% of usable"), pct);
    cell_set (&col->cells[HR_COMPARE_MARGIN], hr_size_format_margin (e->margin_bytes), detail,
              hr_to_gib (e->margin_bytes));
  }

  /* Longest context */
  if (row->max_context > 0)
    {
      g_autofree char *tokens = hr_size_format_count ((double) row->max_context);
      value = hr_format_context_locale (row->max_context);
      /* TRANSLATORS: a token count, e.g. "131,072 tokens" */
      detail = g_strdup_printf (_("%s tokens"), tokens);
      cell_set (&col->cells[HR_COMPARE_CONTEXT], value, detail, (double) row->max_context);
    }
  else
    cell_set (&col->cells[HR_COMPARE_CONTEXT], g_strdup (_("None")),
              g_strdup (_("not even 256 tokens")), 0);

  capacity_fill (&col->cells[HR_COMPARE_CAPACITY], s, e);

  /* Best quantization */
  if (row->best_quant != NULL)
    {
      g_autofree char *bpw = hr_size_format_number (row->best_quant->nominal_bpw, 2);
      /* TRANSLATORS: bits per weight of a quantization, e.g. "4.89 bits per weight" */
      detail = isfinite (row->best_quant->nominal_bpw)
               ? g_strdup_printf (_("%s bits per weight"), bpw) : NULL;
      cell_set (&col->cells[HR_COMPARE_QUANT], g_strdup (row->best_quant->id), detail,
                isfinite (row->best_quant->nominal_bpw) ? row->best_quant->nominal_bpw : 0);
    }
  else
    cell_set (&col->cells[HR_COMPARE_QUANT], g_strdup (_("None fits")), NULL, 0);

  /* Decode */
  {
    g_autofree char *lo = hr_size_format_number (e->decode_tps_low, 1);
    g_autofree char *hi = hr_size_format_number (e->decode_tps_high, 1);

    /* TRANSLATORS: a speed range, e.g. "67.9–104.1 tok/s" */
    detail = isfinite (e->decode_tps_low) && isfinite (e->decode_tps_high)
             ? g_strdup_printf (_("%s–%s tok/s"), lo, hi) : NULL;
    cell_set (&col->cells[HR_COMPARE_DECODE], hr_size_format_tps (e->decode_tps), detail,
              e->decode_tps > 0 ? e->decode_tps : NAN);
    col->cells[HR_COMPARE_DECODE].tooltip = hr_basis_text (&e->decode_basis);
  }

  /* Prefill */
  if (isfinite (e->prefill_tps))
    {
      g_autofree char *ttft = NULL;

      if (e->ttft_ms >= 10000)
        {
          g_autofree char *n = hr_size_format_number (e->ttft_ms / 1000.0, 1);
          ttft = g_strdup_printf (_("~%s s"), n);
        }
      else
        {
          g_autofree char *n = hr_size_format_number (e->ttft_ms, 0);
          ttft = g_strdup_printf (_("~%s ms"), n);
        }
      /* TRANSLATORS: time to first token, e.g. "TTFT ~1667 ms" */
      detail = g_strdup_printf (_("TTFT %s"), ttft);
      cell_set (&col->cells[HR_COMPARE_PREFILL], hr_size_format_tps (e->prefill_tps), detail,
                e->prefill_tps);
    }
  else
    cell_set (&col->cells[HR_COMPARE_PREFILL], g_strdup (DASH), g_strdup (_("compute unknown")), NAN);
  col->cells[HR_COMPARE_PREFILL].tooltip = hr_basis_text (&e->prefill_basis);

  /* Cost per 1M tokens */
  if (isfinite (e->cost_per_mtok_usd))
    {
      cell_set (&col->cells[HR_COMPARE_COST], hr_size_format_usd (e->cost_per_mtok_usd, 2),
                g_strdup (e->offer_label), e->cost_per_mtok_usd);
      /* TRANSLATORS: the offer a cost comes from, e.g. "At the cheapest offer that fits: Vast.ai · 1x A100 80GB SXM" */
      col->cells[HR_COMPARE_COST].tooltip = g_strdup_printf (_("At the cheapest offer that fits: %s"), e->offer_label);
    }
  else
    cell_set (&col->cells[HR_COMPARE_COST], g_strdup (DASH), g_strdup (_("no cloud offer fits")), NAN);

  /* Hardware price */
  if (isfinite (row->price_usd))
    {
      g_autofree char *one = hr_size_format_usd (gpu->price_usd, 0);
      detail = s->n_gpus > 1 ? count_times (s->n_gpus, one)
               : gpu->used_market ? g_strdup (_("used price")) : NULL;
      cell_set (&col->cells[HR_COMPARE_PRICE], hr_size_format_usd (row->price_usd, 0), detail, row->price_usd);
      if (gpu->price_note != NULL)
        col->cells[HR_COMPARE_PRICE].tooltip = g_strdup (gpu->price_note);
    }
  else
    cell_set (&col->cells[HR_COMPARE_PRICE], g_strdup (DASH), g_strdup (_("no public price")), NAN);

  /* Price per decode tok/s */
  if (isfinite (row->usd_per_decode_tps))
    cell_set (&col->cells[HR_COMPARE_PRICE_PER_TPS], hr_size_format_usd (row->usd_per_decode_tps, 2),
              g_strdup (_("per tok/s")), row->usd_per_decode_tps);
  else
    cell_set (&col->cells[HR_COMPARE_PRICE_PER_TPS], g_strdup (DASH),
              g_strdup (!fits ? _("does not fit") : _("price unknown")), NAN);

  /* Power */
  if (isfinite (row->power_w))
    {
      g_autofree char *total = hr_size_format_number (row->power_w, 0);
      g_autofree char *one = hr_size_format_number (gpu->tdp_w, 0);
      g_autofree char *one_w = g_strdup_printf (_("%s W"), one);

      /* TRANSLATORS: power in watts, e.g. "700 W" */
      value = g_strdup_printf (_("%s W"), total);
      cell_set (&col->cells[HR_COMPARE_POWER], value,
                s->n_gpus > 1 ? count_times (s->n_gpus, one_w) : NULL, row->power_w);
    }
  else
    cell_set (&col->cells[HR_COMPARE_POWER], g_strdup (DASH), g_strdup (_("unknown")), NAN);

  /* Launch command: the chosen engine's first (a multi-node plan when one node is not enough) */
  {
    g_autoptr(GPtrArray) cmds = hr_launch_commands_for_file (s, e, s->model->gguf_path);

    for (guint i = 0; cmds != NULL && i < cmds->len; i++)
      {
        HrLaunchCommand *cmd = g_ptr_array_index (cmds, i);

        if (cmd->engine != s->engine)
          continue;
        col->launch_title = g_strdup (cmd->title);
        col->launch_command = g_strdup (cmd->command);
        break;
      }
    cell_set (&col->cells[HR_COMPARE_LAUNCH],
              g_strdup (col->launch_title ? col->launch_title : DASH),
              NULL, NAN);
    if (col->launch_command != NULL)
      col->cells[HR_COMPARE_LAUNCH].tooltip = g_strdup (col->launch_command);
  }
}

static void
column_fill_error (HrCompareColumn *col,
                   const GError    *error)
{
  col->ok = FALSE;
  col->verdict = HR_VERDICT_EXCEEDS;
  col->verdict_css = "verdict-error";
  col->verdict_icon = "dialog-error-symbolic";
  cell_set (&col->cells[HR_COMPARE_VERDICT], g_strdup (_("Could not size")),
            g_strdup (error ? error->message : ""), NAN);
  for (guint m = HR_COMPARE_VERDICT + 1; m < HR_COMPARE_N_METRICS; m++)
    cell_set (&col->cells[m], g_strdup (DASH), NULL, NAN);
}

/* Best values and differences ---------------------------------------------------------------- */

static gboolean
better (HrCompareMetric metric,
        double          a,
        double          b)
{
  return hr_compare_metric_higher_is_better (metric) ? a > b : a < b;
}

static gboolean
column_compared (const HrCompareColumn *col,
                 HrCompareMetric        metric)
{
  if (!col->ok || !isfinite (col->cells[metric].key))
    return FALSE;
  return !metric_needs_fit (metric) || col->verdict != HR_VERDICT_EXCEEDS;
}

static char *
format_diff (HrCompareMetric metric,
             double          value,
             double          best)
{
  double d;
  g_autofree char *n = NULL;

  if (metric == HR_COMPARE_MEMORY)
    {
      /* the row compares usable memory: say how much, in GiB, not "usable −33%" (#26) */
      d = value - best;
      if (fabs (d) < 0.05)
        return g_strdup (_("≈ best"));
      n = hr_size_format_number (fabs (d), 1);
      return d < 0
             /* TRANSLATORS: usable memory a GPU has less than the row's best, e.g. "30.4 GiB less usable" */
             ? g_strdup_printf (_("%s GiB less usable"), n)
             /* TRANSLATORS: usable memory a GPU has more than the row's best, e.g. "8.5 GiB more usable" */
             : g_strdup_printf (_("%s GiB more usable"), n);
    }
  if (metric_diff_kind (metric) == DIFF_GIB)
    {
      d = value - best;
      n = hr_size_format_number (fabs (d), 2);
      /* TRANSLATORS: a difference from the best value in GiB, e.g. "−91.15 GiB"; %s is the sign */
      return g_strdup_printf (_("%s%s GiB"), d < 0 ? MINUS : "+", n);
    }
  if (best == 0)
    return NULL;
  d = (value - best) / fabs (best) * 100.0;
  if (fabs (d) < 0.5)
    /* TRANSLATORS: within half a percent of the best value of its row */
    return g_strdup (_("≈ best"));
  n = hr_size_format_number (fabs (d), 0);
  /* TRANSLATORS: a difference from the best value in percent, e.g. "−32%"; %s is the sign */
  return g_strdup_printf (_("%s%s%%"), d < 0 ? MINUS : "+", n);
}

static void
compute_diffs (HrCompareState *st)
{
  st->n_fitting = 0;
  for (guint i = 0; i < st->columns->len; i++)
    {
      HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      if (col->ok && col->verdict != HR_VERDICT_EXCEEDS)
        st->n_fitting++;
    }

  for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
    {
      double best = NAN;
      guint n_compared = 0;

      for (guint i = 0; i < st->columns->len; i++)
        {
          HrCompareColumn *col = g_ptr_array_index (st->columns, i);
          HrCompareCell *cell = &col->cells[m];

          g_clear_pointer (&cell->diff, g_free);
          cell->best = FALSE;
          cell->muted = col->ok && metric_needs_fit (m) && col->verdict == HR_VERDICT_EXCEEDS;
          if (cell->muted && isfinite (cell->key))
            /* TRANSLATORS: under a greyed figure in Compare: why it is not compared */
            cell->diff = g_strdup (_("does not fit"));
          if (!column_compared (col, m))
            continue;
          n_compared++;
          if (isnan (best) || better (m, cell->key, best))
            best = cell->key;
        }
      /* one value is no comparison; the verdict speaks for itself */
      if (!hr_compare_metric_sortable (m) || m == HR_COMPARE_VERDICT || n_compared < 2)
        continue;

      for (guint i = 0; i < st->columns->len; i++)
        {
          HrCompareColumn *col = g_ptr_array_index (st->columns, i);
          HrCompareCell *cell = &col->cells[m];

          if (!column_compared (col, m))
            continue;
          if (cell->key == best)
            {
              cell->best = TRUE;
              /* TRANSLATORS: the best value of a row in the comparison */
              cell->diff = g_strdup (_("best"));
            }
          else if (metric_diff_kind (m) != DIFF_NONE)
            cell->diff = keep_units_whole (format_diff (m, cell->key, best));
        }
    }
}

/* Sorting ------------------------------------------------------------------------------------- */

typedef struct
{
  HrCompareMetric metric;
  gboolean reversed;
} SortSpec;

static int
compare_columns (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const SortSpec *spec = user_data;
  const HrCompareColumn *x = *(const HrCompareColumn **) a;
  const HrCompareColumn *y = *(const HrCompareColumn **) b;
  double kx, ky;
  gboolean known_x, known_y;

  if (spec->metric != HR_COMPARE_SORT_NONE)
    {
      kx = x->cells[spec->metric].key;
      ky = y->cells[spec->metric].key;
      /* a speed or cost on a GPU the model does not fit counts as unknown */
      known_x = column_compared (x, spec->metric);
      known_y = column_compared (y, spec->metric);
      /* unknown values last, whichever the direction */
      if (known_x != known_y)
        return known_x ? -1 : 1;
      if (known_x && kx != ky)
        {
          int order = better (spec->metric, kx, ky) ? -1 : 1;
          return spec->reversed ? -order : order;
        }
      /* among the unknown ones, GPUs the model fits before those it does not */
      if (!known_x && (x->verdict == HR_VERDICT_EXCEEDS) != (y->verdict == HR_VERDICT_EXCEEDS))
        return x->verdict == HR_VERDICT_EXCEEDS ? 1 : -1;
    }
  return (x->index > y->index) - (x->index < y->index);
}

void
hr_compare_state_sort (HrCompareState  *st,
                       HrCompareMetric  metric,
                       gboolean         reversed)
{
  SortSpec spec;

  g_return_if_fail (st != NULL);

  if (!hr_compare_metric_sortable (metric))
    metric = HR_COMPARE_SORT_NONE;
  st->sort = metric;
  st->sort_reversed = metric != HR_COMPARE_SORT_NONE && reversed;
  spec.metric = st->sort;
  spec.reversed = st->sort_reversed;
  g_ptr_array_sort_with_data (st->columns, compare_columns, &spec);
}

/* State --------------------------------------------------------------------------------------- */

HrCompareState *
hr_compare_state_new (void)
{
  HrCompareState *st = g_new0 (HrCompareState, 1);

  st->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  st->sort = HR_COMPARE_SORT_NONE;
  return st;
}

void
hr_compare_state_free (HrCompareState *st)
{
  if (st == NULL)
    return;
  g_ptr_array_unref (st->columns);
  g_free (st->title);
  g_free (st->subtitle);
  g_free (st);
}

char *
hr_compare_setup_spec (const HrScenario *scenario)
{
  GString *out;

  g_return_val_if_fail (scenario != NULL, NULL);
  if (!hr_scenario_is_mixed (scenario))
    return NULL;
  out = g_string_new (NULL);
  for (int i = 0; i < scenario->n_kinds; i++)
    g_string_append_printf (out, "%s%s:%d", i > 0 ? "+" : "", scenario->kinds[i].gpu->id,
                            scenario->kinds[i].count);
  return g_string_free (out, FALSE);
}

int
hr_compare_setup_parse (const char         *spec,
                        const HrCatalog    *catalog,
                        HrDeviceKind       *kinds,
                        int                 max_kinds)
{
  g_auto(GStrv) parts = NULL;
  int n = 0;

  g_return_val_if_fail (catalog != NULL && kinds != NULL, 0);
  if (spec == NULL)
    return 0;
  parts = g_strsplit (spec, "+", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_auto(GStrv) id_count = g_strsplit (parts[i], ":", 2);
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, id_count[0]);
      gint64 count = 1;

      if (gpu == NULL || n >= max_kinds || gpu->backend == HR_BACKEND_CPU
          || (id_count[1] != NULL
              && !g_ascii_string_to_signed (id_count[1], 10, 1, HR_MAX_MIXED_GPUS, &count, NULL)))
        return 0;
      kinds[n++] = (HrDeviceKind) { gpu, (int) count };
    }
  return n;
}

void
hr_compare_state_compute (HrCompareState   *st,
                          const HrScenario *base,
                          GPtrArray        *entries,
                          const HrCatalog  *catalog,
                          const HrPricing  *pricing)
{
  g_return_if_fail (st != NULL);
  g_return_if_fail (base != NULL && base->model != NULL);
  g_return_if_fail (catalog != NULL);

  g_ptr_array_set_size (st->columns, 0);
  st->base = *base;
  st->have_base = TRUE;
  g_free (st->title);
  st->title = g_strdup (base->model->name ? base->model->name : base->model->id);
  g_free (st->subtitle);
  st->subtitle = hr_scenario_summary (base);

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      const HrCompareEntry *entry = g_ptr_array_index (entries, i);
      HrDeviceKind kinds[HR_MAX_DEVICE_KINDS];
      int n_kinds = 0;
      g_autoptr(GError) error = NULL;
      HrCompareColumn *col;

      if (strchr (entry->gpu_id, '+') != NULL)
        n_kinds = hr_compare_setup_parse (entry->gpu_id, catalog, kinds, HR_MAX_DEVICE_KINDS);
      else if ((kinds[0].gpu = hr_catalog_find_gpu (catalog, entry->gpu_id)) != NULL)
        {
          kinds[0].count = CLAMP (entry->count, 1, HR_COMPARE_MAX_COUNT);
          n_kinds = 1;
        }
      if (n_kinds == 0)
        continue;
      if (st->columns->len >= HR_COMPARE_MAX_COLUMNS)
        break;
      col = g_new0 (HrCompareColumn, 1);
      col->gpu_id = g_strdup (n_kinds > 1 ? entry->gpu_id : kinds[0].gpu->id);
      col->count = 0;
      for (int k = 0; k < n_kinds; k++)
        col->count += kinds[k].count;
      col->index = st->columns->len;
      col->ok = hr_report_compare_row_setup (base, kinds, n_kinds, catalog, pricing, &col->row, &error);
      if (n_kinds > 1)
        {
          /* a mixed setup (#31): "RTX 4090 24GB + RTX 3090 24GB", each kind's summary */
          GString *sub = g_string_new (NULL);
          HrScenario named = *base;

          named.n_kinds = 0;
          hr_scenario_set_devices (&named, kinds, n_kinds, NULL);
          col->title = hr_placement_setup_name (&named);
          for (int k = 0; k < n_kinds; k++)
            {
              g_autofree char *one = hr_size_gpu_summary (kinds[k].gpu);

              g_string_append_printf (sub, "%s%s", k > 0 ? " + " : "", one);
            }
          col->subtitle = keep_units_whole (g_string_free (sub, FALSE));
        }
      else
        {
          col->title = g_strdup (kinds[0].gpu->name ? kinds[0].gpu->name : kinds[0].gpu->id);
          col->subtitle = keep_units_whole (hr_size_gpu_summary (kinds[0].gpu));
        }
      if (col->ok)
        column_fill (col, &col->row);
      else
        column_fill_error (col, error);
      g_ptr_array_add (st->columns, col);
    }
  compute_diffs (st);
  hr_compare_state_sort (st, st->sort, st->sort_reversed);
}

char *
hr_compare_state_csv (const HrCompareState *st)
{
  GString *out;

  g_return_val_if_fail (st != NULL, NULL);

  out = g_string_new (NULL);
  if (!st->have_base)
    return g_string_free (out, FALSE);
  hr_report_compare_csv_header (out, &st->base);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      if (col->ok)
        hr_report_compare_csv_row (out, &col->row);
    }
  return g_string_free (out, FALSE);
}

char *
hr_compare_state_json (const HrCompareState *st)
{
  GString *out;
  HrJsonWriter w;

  g_return_val_if_fail (st != NULL, NULL);

  out = g_string_new (NULL);
  hr_json_init (&w, out, TRUE);
  hr_json_begin_array (&w);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);

      if (!col->ok)
        continue;
      hr_json_begin_object (&w);
      hr_report_compare_members (&w, &col->row);
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* Presets ------------------------------------------------------------------------------------- */

static int
preset_count (const HrScenario *base,
              const HrGpu      *gpu)
{
  /* a unified-memory machine is one box: it does not come in tensor-parallel groups */
  if (hr_gpu_is_unified (gpu))
    return 1;
  return CLAMP (base ? base->n_gpus : 1, 1, HR_COMPARE_MAX_COUNT);
}

GPtrArray *
hr_compare_preset_entries (HrComparePreset   preset,
                           const char       *vendor,
                           const HrScenario *base,
                           const HrCatalog  *catalog)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);

  g_return_val_if_fail (catalog != NULL, out);

  for (guint i = 0; i < hr_catalog_n_gpus (catalog) && out->len < HR_COMPARE_MAX_COLUMNS; i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      int count = preset_count (base, gpu);
      gboolean take = FALSE;

      switch (preset)
        {
        case HR_COMPARE_PRESET_FITS:
          if (base != NULL && base->model != NULL)
            {
              HrScenario s = *base;
              HrEstimate e;

              s.gpu = gpu;
              s.n_gpus = count;
              if (!s.backend_set)
                s.backend = gpu->backend;
              take = hr_estimate_compute (&s, NULL, &e, NULL) && e.verdict != HR_VERDICT_EXCEEDS;
            }
          break;
        case HR_COMPARE_PRESET_VENDOR:
          take = vendor != NULL && g_strcmp0 (gpu->vendor, vendor) == 0;
          break;
        case HR_COMPARE_PRESET_MINE:
          take = gpu->user_defined;
          break;
        default:
          break;
        }
      if (take)
        g_ptr_array_add (out, hr_compare_entry_new (gpu->id, count));
    }
  return out;
}

GPtrArray *
hr_compare_vendors (const HrCatalog *catalog)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (catalog != NULL, out);

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      gboolean seen = FALSE;

      if (gpu->vendor == NULL || gpu->vendor[0] == '\0' || gpu->user_defined)
        continue;
      for (guint j = 0; j < out->len && !seen; j++)
        seen = g_strcmp0 (g_ptr_array_index (out, j), gpu->vendor) == 0;
      if (!seen)
        g_ptr_array_add (out, g_strdup (gpu->vendor));
    }
  /* insertion sort by the user's collation: a dozen vendors */
  for (guint i = 1; i < out->len; i++)
    for (guint j = i; j > 0 && g_utf8_collate (out->pdata[j - 1], out->pdata[j]) > 0; j--)
      {
        gpointer tmp = out->pdata[j];
        out->pdata[j] = out->pdata[j - 1];
        out->pdata[j - 1] = tmp;
      }
  return out;
}

GPtrArray *
hr_compare_default_entries (const HrCatalog *catalog,
                            const char      *first,
                            int              count)
{
  static const char * const ids[] = {
    "rtx-5090-32gb", "rtx-pro-6000-blackwell-96gb", "h100-80gb-sxm", "h200-141gb",
    "mi300x-192gb", "m3-ultra-512gb",
  };
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);

  g_return_val_if_fail (catalog != NULL, out);

  if (first != NULL && hr_catalog_find_gpu (catalog, first) != NULL)
    {
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, first);

      g_ptr_array_add (out, hr_compare_entry_new (first, hr_gpu_is_unified (gpu) ? 1 : MAX (count, 1)));
    }
  for (guint i = 0; i < G_N_ELEMENTS (ids) && out->len < HR_COMPARE_MAX_PICKED; i++)
    {
      const HrGpu *gpu = hr_catalog_find_gpu (catalog, ids[i]);

      if (gpu == NULL || g_strcmp0 (ids[i], first) == 0)
        continue;
      g_ptr_array_add (out, hr_compare_entry_new (ids[i], 1));
    }
  return out;
}
