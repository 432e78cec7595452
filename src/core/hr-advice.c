/* hr-advice.c — reverse questions, recommendations, the quant matrix and the diagnosis */
#include "hr-advice.h"
#include "hr-detect.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

/* Whether @s fits (on a unified-memory machine an offload suggestion fits only when the
 * machine holds the GPU's part and the part moved to system RAM together: the estimate's
 * verdict says so, HrEstimate.machine_bytes). */
static gboolean
fits (const HrScenario *s,
      HrEstimate       *e)
{
  HrEstimate local;

  if (e == NULL)
    e = &local;
  if (!hr_estimate_compute (s, NULL, e, NULL))
    return FALSE;
  return e->verdict != HR_VERDICT_EXCEEDS;
}

gint64
hr_advice_max_context (const HrScenario *scenario)
{
  HrScenario s = *scenario;
  gint64 lo, hi, max;

  max = scenario->model->max_context > 0 ? scenario->model->max_context : HR_MAX_CONTEXT;
  max = MIN (max, HR_MAX_CONTEXT);
  s.context = HR_MIN_CONTEXT;
  if (!fits (&s, NULL))
    return 0;
  s.context = max;
  if (fits (&s, NULL))
    return max;
  /* required memory grows monotonically with context: bisect on multiples of 256 */
  lo = HR_MIN_CONTEXT / 256;
  hi = max / 256;
  while (hi - lo > 1)
    {
      gint64 mid = (lo + hi) / 2;
      s.context = mid * 256;
      if (fits (&s, NULL))
        lo = mid;
      else
        hi = mid;
    }
  return lo * 256;
}

/* A quant the engine loads as such for this model (hr_engine_load ()): not a GGUF vLLM would
 * swap for the BF16 checkpoint, nor an AWQ repository nobody has named. */
static gboolean
loads_as_chosen (const HrQuantMix *q,
                 const HrScenario *s)
{
  HrEngineLoad load;

  if (!hr_engine_loads_quant (s->engine, q->id))
    return FALSE;
  hr_engine_load (s->engine, s->model, q->id, &load);
  return load.kind == HR_LOAD_AS_CHOSEN;
}

static gint
compare_bpw_desc (gconstpointer a,
                  gconstpointer b)
{
  const HrQuantMix *qa = *(const HrQuantMix **) a;
  const HrQuantMix *qb = *(const HrQuantMix **) b;

  return (qa->nominal_bpw < qb->nominal_bpw) - (qa->nominal_bpw > qb->nominal_bpw);
}

GPtrArray *
hr_advice_quant_candidates (HrEngine         engine,
                            const HrCatalog *catalog)
{
  GPtrArray *quants = g_ptr_array_new ();

  for (guint i = 0; i < hr_catalog_n_quants (catalog); i++)
    {
      const HrQuantMix *q = hr_catalog_get_quant (catalog, i);
      /* GGUF mixes of the matrix; for vLLM/SGLang also gpt-oss's MXFP4 checkpoint (the only
       * "gguf" entry hr_engine_loads_quant () lets through for them) */
      if (hr_engine_loads_quant (engine, q->id) &&
          (q->in_matrix || !q->gguf || hr_engine_is_server_like (engine)))
        g_ptr_array_add (quants, (gpointer) q);
    }
  g_ptr_array_sort (quants, compare_bpw_desc);
  return quants;
}

const HrQuantMix *
hr_advice_best_quant (const HrScenario *scenario,
                      const HrCatalog  *catalog)
{
  g_autoptr(GPtrArray) quants = hr_advice_quant_candidates (scenario->engine, catalog);
  HrScenario s = *scenario;

  for (guint i = 0; i < quants->len; i++)
    {
      const HrQuantMix *q = g_ptr_array_index (quants, i);

      if (!loads_as_chosen (q, scenario))
        continue;
      g_strlcpy (s.quant, q->id, sizeof s.quant);
      if (fits (&s, NULL))
        return q;
    }
  return NULL;
}

/* "CPU + system RAM": the device is the machine's own memory.  More of it is not a fix, and
 * there is nowhere else to offload to, so the diagnosis must not send a GPU-less user to "use
 * 4 GPUs" or "offload 70 % of layers to system RAM". */
static gboolean
on_system_ram (const HrScenario *scenario)
{
  return scenario->gpu != NULL && scenario->gpu->backend == HR_BACKEND_CPU;
}

int
hr_advice_min_gpus (const HrScenario *scenario,
                    int               max_gpus)
{
  HrScenario s = *scenario;

  /* more of one kind is no answer for a setup of different GPUs (its placement search is),
   * nor for a unified-memory machine: its GPU comes with the machine (the hardware picks
   * leave out sets of them too) */
  if (on_system_ram (scenario) || hr_scenario_is_mixed (scenario) ||
      (scenario->gpu != NULL && hr_gpu_is_unified (scenario->gpu)))
    return 0;
  for (int n = 1; n <= MIN (max_gpus, HR_MAX_GPUS); n = n < 8 ? n + 1 : n * 2)
    {
      s.n_gpus = n;
      if (fits (&s, NULL))
        return n;
    }
  return 0;
}

void
hr_advice_reverse (const HrScenario *scenario,
                   const HrCatalog  *catalog,
                   HrReverse        *out)
{
  g_return_if_fail (scenario != NULL && out != NULL);

  out->max_context = hr_advice_max_context (scenario);
  out->best_quant = catalog ? hr_advice_best_quant (scenario, catalog) : NULL;
  out->min_gpus = hr_advice_min_gpus (scenario, 64);
}

static void
pick_set (HrPick           *pick,
          const HrGpu      *gpu,
          int               count,
          const HrEstimate *e)
{
  pick->gpu = gpu;
  pick->count = count;
  pick->price_usd = isfinite (gpu->price_usd) ? gpu->price_usd * count : NAN;
  pick->decode_tps = e->decode_tps;
  pick->required_gib = hr_to_gib (e->required_bytes);
  pick->usable_gib = hr_to_gib (e->usable_bytes);
  pick->verdict = e->verdict;
}

/* a better than b: priced beats unpriced, then cheaper, then less memory */
static gboolean
cheaper (double price_a, double mem_a,
         double price_b, double mem_b)
{
  if (isfinite (price_a) != isfinite (price_b))
    return isfinite (price_a);
  if (isfinite (price_a) && price_a != price_b)
    return price_a < price_b;
  return mem_a < mem_b;
}

static const int counts[] = { 1, 2, 4, 8 };

/* A device one can buy or rent: a catalog entry with a memory size, not one the user defined
 * and not this computer (the detected device, its "free memory now" twin or its CPU + system
 * RAM, which the app adds to its catalog and the CLI's catalog never holds). */
static gboolean
recommendable (const HrGpu *gpu)
{
  return !gpu->user_defined && !hr_detect_is_this_id (gpu->id) && isfinite (gpu->memory_gib) &&
         gpu->memory_gib > 0;
}

/* @scenario as it would run on @count × @gpu bought or rented for it: the whole model on the
 * GPUs (no layers or experts left in system RAM: the current offload answers the current
 * hardware's shortage, not this one's) with the device's own backend. */
static HrScenario
on_hardware (const HrScenario *scenario,
             const HrGpu      *gpu,
             int               count)
{
  HrScenario s = *scenario;

  s.gpu = gpu;
  s.n_gpus = count;
  s.backend_set = FALSE;
  s.offload_pct = 0;
  s.n_cpu_moe = 0;
  return s;
}

static gint
compare_config (gconstpointer a,
                gconstpointer b)
{
  const HrGpuConfig *x = a, *y = b;

  if (x->mem != y->mem)
    return x->mem < y->mem ? -1 : 1;
  /* at equal memory one device beats several: no interconnect, one power supply */
  if (x->count != y->count)
    return x->count < y->count ? -1 : 1;
  if (cheaper (x->price, x->mem, y->price, y->mem))
    return -1;
  if (cheaper (y->price, y->mem, x->price, x->mem))
    return 1;
  return 0;
}

GArray *
hr_advice_gpu_configs (const HrCatalog *catalog,
                       int              max_count)
{
  GArray *configs = g_array_new (FALSE, FALSE, sizeof (HrGpuConfig));

  g_return_val_if_fail (catalog != NULL, configs);

  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);

      if (!recommendable (gpu))
        continue;
      for (guint c = 0; c < G_N_ELEMENTS (counts) && counts[c] <= max_count; c++)
        {
          HrGpuConfig cfg = { gpu, counts[c], gpu->memory_gib * counts[c],
                              gpu->price_usd * counts[c] };

          if (hr_gpu_is_unified (gpu) && counts[c] > 1)
            break;
          g_array_append_val (configs, cfg);
        }
    }
  g_array_sort (configs, compare_config);
  return configs;
}

static HrPick
smallest_fit_in (GArray           *configs,
                 const HrScenario *scenario)
{
  HrPick best = { 0 };
  HrWeights w;
  double floor_gib = 0;

  /* Whatever the engine, the device weights are at least the file less its embedding table:
   * configurations smaller than that need no estimate. */
  if (hr_weights_compute (scenario->model, scenario->quant, &w, NULL))
    floor_gib = hr_to_gib (w.bytes - w.embd_bytes);

  /* Memory decides the fit, so the first configuration that fits is the smallest. */
  for (guint i = 0; i < configs->len; i++)
    {
      const HrGpuConfig *cfg = &g_array_index (configs, HrGpuConfig, i);
      HrScenario s;
      HrEstimate e;

      if (cfg->mem < floor_gib)
        continue;
      s = on_hardware (scenario, cfg->gpu, cfg->count);
      if (fits (&s, &e))
        {
          pick_set (&best, cfg->gpu, cfg->count, &e);
          break;
        }
    }
  return best;
}

HrPick
hr_advice_smallest_fit (const HrScenario *scenario,
                        const HrCatalog  *catalog)
{
  g_autoptr(GArray) configs = hr_advice_gpu_configs (catalog, 8);

  return smallest_fit_in (configs, scenario);
}

void
hr_advice_recommend (const HrScenario  *scenario,
                     const HrCatalog   *catalog,
                     const HrPricing   *pricing,
                     HrRecommendations *out)
{
  double single_mem = INFINITY, value_mem = INFINITY, unified_mem = INFINITY;
  double floor_gib = 0;
  HrWeights w;

  memset (out, 0, sizeof *out);
  if (hr_weights_compute (scenario->model, scenario->quant, &w, NULL))
    floor_gib = hr_to_gib (w.bytes - w.embd_bytes);
  for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      gboolean unified = hr_gpu_is_unified (gpu);

      if (!recommendable (gpu))
        continue;
      for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
        {
          HrScenario s = on_hardware (scenario, gpu, counts[c]);
          HrEstimate e;
          double price = gpu->price_usd * counts[c];
          double mem = gpu->memory_gib * counts[c];

          if (unified && counts[c] > 1)
            break;
          if (mem < floor_gib)
            continue;
          if (!fits (&s, &e))
            continue;
          if (unified)
            {
              if (!out->have_unified || cheaper (price, mem, out->unified.price_usd, unified_mem))
                {
                  pick_set (&out->unified, gpu, 1, &e);
                  out->have_unified = TRUE;
                  unified_mem = mem;
                }
              break;
            }
          if (counts[c] == 1 && e.verdict == HR_VERDICT_FITS &&
              (!out->have_single || cheaper (price, mem, out->best_single.price_usd, single_mem)))
            {
              pick_set (&out->best_single, gpu, 1, &e);
              out->have_single = TRUE;
              single_mem = mem;
            }
          if (isfinite (price) &&
              (!out->have_value || cheaper (price, mem, out->best_value.price_usd, value_mem)))
            {
              pick_set (&out->best_value, gpu, counts[c], &e);
              out->have_value = TRUE;
              value_mem = mem;
            }
          break; /* more of the same GPU only costs more */
        }
    }

  if (pricing != NULL && pricing->offers != NULL)
    {
      for (guint i = 0; i < pricing->offers->len; i++)
        {
          const HrOffer *o = g_ptr_array_index (pricing->offers, i);
          const HrGpu *gpu = o->gpu_id ? hr_catalog_find_gpu (catalog, o->gpu_id) : NULL;
          gboolean ok;

          if (gpu != NULL)
            {
              HrScenario s = on_hardware (scenario, gpu, o->count);
              ok = fits (&s, NULL);
            }
          else
            {
              HrScenario s = on_hardware (scenario, scenario->gpu, scenario->n_gpus);
              HrEstimate e;
              ok = hr_estimate_compute (&s, NULL, &e, NULL) &&
                   hr_to_gb (e.required_bytes) <= o->vram_gb * (1 - scenario->reserve);
            }
          if (ok && (out->cloud == NULL || o->usd_per_hour < out->cloud->usd_per_hour))
            out->cloud = o;
        }
    }
}

void
hr_advice_fill_cost (const HrScenario *scenario,
                     const HrCatalog  *catalog,
                     const HrPricing  *pricing,
                     HrEstimate       *e)
{
  const HrOffer *best = NULL;
  double best_cost = INFINITY;

  /* the hardware's own price comes first: a suggestion only when it has none */
  if (pricing == NULL || pricing->offers == NULL || isfinite (e->cost_per_mtok_usd))
    return;
  for (guint i = 0; i < pricing->offers->len; i++)
    {
      const HrOffer *o = g_ptr_array_index (pricing->offers, i);
      const HrGpu *gpu = o->gpu_id ? hr_catalog_find_gpu (catalog, o->gpu_id) : NULL;
      HrScenario s;
      HrEstimate oe;
      double cost;

      if (gpu == NULL || !recommendable (gpu))
        continue;
      /* the cost of the setup that hardware would run, not the current offload */
      s = on_hardware (scenario, gpu, o->count);
      if (!fits (&s, &oe) || !isfinite (oe.aggregate_tps) || oe.aggregate_tps <= 0)
        continue;
      /* cost per token, not per hour: a dearer but faster offer may be cheaper per 1M */
      cost = o->usd_per_hour / (oe.aggregate_tps * 3600.0) * 1e6;
      if (cost < best_cost)
        {
          best_cost = cost;
          best = o;
        }
    }
  if (best == NULL)
    return;
  e->suggested_cost_per_mtok_usd = best_cost;
  e->suggested_usd_per_hour = best->usd_per_hour;
  hr_offer_label (best, e->suggested_label, sizeof e->suggested_label);
}

static gboolean
quant_listed (GArray     *rows,
              const char *id)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_ascii_strcasecmp (g_array_index (rows, HrMatrixRow, i).quant->id, id) == 0)
      return TRUE;
  return FALSE;
}

GArray *
hr_advice_quant_matrix (const HrScenario *scenario,
                        const HrCatalog  *catalog,
                        const HrPricing  *pricing)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (HrMatrixRow));
  g_autoptr(GPtrArray) quants = g_ptr_array_new ();
  g_autoptr(GArray) configs = hr_advice_gpu_configs (catalog, 8);

  for (guint i = 0; i < hr_catalog_n_quants (catalog); i++)
    {
      const HrQuantMix *q = hr_catalog_get_quant (catalog, i);
      if (q->in_matrix || hr_model_find_size (scenario->model, q->id) != NULL ||
          hr_quant_same (scenario->model->gguf_quant, q->id))
        g_ptr_array_add (quants, (gpointer) q);
    }
  g_ptr_array_sort (quants, compare_bpw_desc);

  for (guint i = 0; i < quants->len; i++)
    {
      const HrQuantMix *q = g_ptr_array_index (quants, i);
      HrMatrixRow row = { 0 };
      HrScenario s = *scenario;

      if (quant_listed (rows, q->id))
        continue;
      g_strlcpy (s.quant, q->id, sizeof s.quant);
      row.quant = q;
      if (!hr_estimate_compute (&s, pricing, &row.estimate, NULL))
        continue;
      row.smallest = smallest_fit_in (configs, &s);
      g_array_append_val (rows, row);
    }
  return rows;
}

static double
min_offload_pct (const HrScenario *scenario)
{
  HrScenario s = *scenario;

  if (on_system_ram (scenario))
    return NAN;
  for (int pct = 5; pct <= 100; pct += 5)
    {
      s.offload_pct = pct;
      if (fits (&s, NULL))
        return pct;
    }
  return NAN;
}

/* The first suggestion that makes @scenario fit, in the diagnosis's order: its kind, its label
 * and @scenario with it applied, into @fix. */
static HrFixKind
first_fix (const HrScenario *scenario,
           const HrCatalog  *catalog,
           HrFix            *fix)
{
  int n = hr_advice_min_gpus (scenario, 64);
  const HrQuantMix *q = catalog ? hr_advice_best_quant (scenario, catalog) : NULL;
  HrScenario *fixed = &fix->scenario;
  gint64 max_ctx;

  *fixed = *scenario;
  if (n > scenario->n_gpus)
    {
      fixed->n_gpus = n;
      g_snprintf (fix->label, sizeof fix->label, ngettext ("use %d GPU", "use %d GPUs", n), n);
      return HR_FIX_GPUS;
    }
  if (q != NULL)
    {
      g_strlcpy (fixed->quant, q->id, sizeof fixed->quant);
      g_strlcpy (fix->label, q->id, sizeof fix->label);
      return HR_FIX_QUANT;
    }
  max_ctx = hr_advice_max_context (scenario);
  if (max_ctx >= 2048 && max_ctx < scenario->context)
    {
      g_autofree char *mc = hr_format_context_short (max_ctx / 1024 * 1024);
      fixed->context = max_ctx / 1024 * 1024;
      g_snprintf (fix->label, sizeof fix->label, _("a context of %s"), mc);
      return HR_FIX_CONTEXT;
    }
  if (hr_engine_is_llama_like (scenario->engine))
    {
      double pct = min_offload_pct (scenario);
      if (isfinite (pct) && pct < 100)
        {
          fixed->offload_pct = pct;
          g_snprintf (fix->label, sizeof fix->label, _("offload %.0f%% of layers to system RAM"),
                      pct);
          return HR_FIX_OFFLOAD;
        }
    }
  return HR_FIX_NONE;
}

gboolean
hr_advice_fix (const HrScenario *scenario,
               const HrCatalog  *catalog,
               const HrPricing  *pricing,
               HrFix            *out)
{
  HrEstimate e;

  g_return_val_if_fail (scenario != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!hr_estimate_compute (scenario, NULL, &e, NULL) || e.verdict != HR_VERDICT_EXCEEDS)
    return FALSE;
  out->kind = first_fix (scenario, catalog, out);
  if (out->kind == HR_FIX_NONE ||
      !hr_estimate_compute (&out->scenario, pricing, &out->estimate, NULL) ||
      out->estimate.verdict == HR_VERDICT_EXCEEDS)
    {
      out->kind = HR_FIX_NONE;
      return FALSE;
    }
  if (catalog != NULL)
    hr_advice_fill_cost (&out->scenario, catalog, pricing, &out->estimate);
  return TRUE;
}

/* A number for the diagnosis, in the user's locale, trailing zeros dropped as the Size view's
 * cards write it ("60.8", not "60.80"). */
static const char *
fmt_num (char   *buf,
         gsize   size,
         double  value,
         int     decimals)
{
  const char *point = localeconv ()->decimal_point;
  char *p;

  hr_format_number_locale_buf (buf, size, value, decimals);
  if (point == NULL || point[0] == '\0' || (p = strstr (buf, point)) == NULL)
    return buf;
  for (gsize len = strlen (buf); len > 0 && buf[len - 1] == '0'; len--)
    buf[len - 1] = '\0';
  if (strcmp (p, point) == 0)
    *p = '\0';
  return buf;
}

/* "use 2 GPUs, IQ4_XS or offload 15% of layers to system RAM": the fixes the diagnosis
 * suggests for a scenario that does not fit, in the order first_fix() tries them. */
static char *
fix_suggestions (const HrScenario *scenario,
                 const HrReverse  *reverse)
{
  GString *tries = g_string_new (NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  int n = reverse->min_gpus;
  const HrQuantMix *q = reverse->best_quant;
  gint64 max_ctx = reverse->max_context;

  if (n > scenario->n_gpus)
    g_ptr_array_add (items, g_strdup_printf (ngettext ("use %d GPU", "use %d GPUs", n), n));
  if (q != NULL)
    g_ptr_array_add (items, g_strdup (q->id));
  if (max_ctx >= 2048 && max_ctx < scenario->context)
    {
      g_autofree char *mc = hr_format_context_short (max_ctx / 1024 * 1024);
      g_ptr_array_add (items, g_strdup_printf (_("a context of %s"), mc));
    }
  if (hr_engine_is_llama_like (scenario->engine))
    {
      double pct = min_offload_pct (scenario);
      if (isfinite (pct) && pct < 100)
        g_ptr_array_add (items, g_strdup_printf (_("offload %.0f%% of layers to system RAM"), pct));
    }
  for (guint i = 0; i < items->len; i++)
    {
      if (i > 0)
        /* TRANSLATORS: between suggestions ("use 2 GPUs, IQ4_XS or offload …"); the
         * second string goes before the last one */
        g_string_append (tries, i + 1 < items->len ? _(", ") : _(" or "));
      g_string_append (tries, g_ptr_array_index (items, i));
    }
  return g_string_free (tries, FALSE);
}

/* The verdict in words, with what to try when it does not fit. */
static char *
verdict_line (const HrScenario *scenario,
              const HrEstimate *e,
              const HrReverse  *reverse)
{
  char a[64], b[64], c[64], d[64], f[64];

  if (e->verdict == HR_VERDICT_EXCEEDS && e->machine_bytes > 0 && e->required_bytes <= e->usable_bytes)
    return g_strdup_printf (_("Does not fit: the GPU's %s GiB fit in %s GiB usable, but the %s GiB kept in system RAM are in the same memory on this machine: %s GiB in all, %s GiB available."),
                            fmt_num (a, 64, hr_to_gib (e->required_bytes), 2),
                            fmt_num (b, 64, hr_to_gib (e->usable_bytes), 2),
                            fmt_num (c, 64, hr_to_gib (e->system_ram_bytes), 2),
                            fmt_num (d, 64, hr_to_gib (e->required_bytes + e->system_ram_bytes), 2),
                            fmt_num (f, 64, hr_to_gib (e->machine_bytes), 2));
  if (e->verdict == HR_VERDICT_EXCEEDS)
    {
      g_autofree char *tries = fix_suggestions (scenario, reverse);

      return g_strdup_printf (_("Does not fit: needs %s GiB, %s GiB usable%s%s."),
                              fmt_num (a, 64, hr_to_gib (e->required_bytes), 2),
                              fmt_num (b, 64, hr_to_gib (e->usable_bytes), 2),
                              *tries ? _(" — try: ") : "", tries);
    }
  if (e->verdict == HR_VERDICT_TIGHT)
    return g_strdup_printf (_("Tight: %s GiB of %s GiB usable (%s%% of physical memory); long prompts or more sequences may not fit."),
                            fmt_num (a, 64, hr_to_gib (e->required_bytes), 2),
                            fmt_num (b, 64, hr_to_gib (e->usable_bytes), 2),
                            fmt_num (c, 64, e->utilization * 100, 0));
  return g_strdup_printf (_("Fits with %s GiB to spare (%s GiB of %s GiB usable)."),
                          fmt_num (a, 64, hr_to_gib (e->margin_bytes), 2),
                          fmt_num (b, 64, hr_to_gib (e->required_bytes), 2),
                          fmt_num (c, 64, hr_to_gib (e->usable_bytes), 2));
}

/* What an 8-bit KV cache would save, and whether the cache outweighs the weights. */
static void
add_kv_lines (GPtrArray        *lines,
              const HrScenario *scenario,
              const HrEstimate *e)
{
  char a[64];

  if (scenario->kv_type == HR_KV_F16 && e->kv_bytes > 0.02 * HR_GIB)
    {
      g_autofree char *ctx = hr_format_context_short (scenario->context);
      double f16 = hr_estimate_kv_at (scenario, scenario->context, HR_KV_F16);
      HrKvType smaller = hr_engine_kv_8bit (scenario->engine);
      double saved = f16 - hr_estimate_kv_at (scenario, scenario->context, smaller);
      if (saved > 0.01 * HR_GIB)
        g_ptr_array_add (lines, g_strdup_printf (_("A %s KV cache saves %s GiB at %s."),
                                                 smaller == HR_KV_FP8 ? "FP8" : "Q8_0",
                                                 fmt_num (a, 64, hr_to_gib (saved), 2), ctx));
    }

  if (e->kv_bytes > e->weights.bytes * 0.5)
    g_ptr_array_add (lines, g_strdup_printf (_("The KV cache (%s GiB) is more than half the weights: context length and concurrent sequences drive memory here."),
                                             fmt_num (a, 64, hr_to_gib (e->kv_bytes), 2)));
}

/* A MoE model that does not fit: the fewest layers whose experts in system RAM make it fit. */
static void
add_moe_line (GPtrArray        *lines,
              const HrScenario *scenario,
              const HrEstimate *e)
{
  const HrModel *m = scenario->model;
  HrScenario s = *scenario;
  int moe_layers;

  if (!hr_model_is_moe (m) || e->verdict != HR_VERDICT_EXCEEDS || on_system_ram (scenario) ||
      !hr_engine_is_llama_like (scenario->engine))
    return;
  moe_layers = hr_model_moe_layers (m);
  for (int k = 1; k <= moe_layers; k++)
    {
      s.n_cpu_moe = k;
      if (fits (&s, NULL))
        {
          g_ptr_array_add (lines, g_strdup_printf (_("Mixture of experts: keeping the experts of %d layers in system RAM (--n-cpu-moe %d) makes it fit; only %.1f B of %.1f B parameters are active per token."),
                                                   k, k, m->active_params / 1e9, m->total_params / 1e9));
          break;
        }
    }
}

/* vLLM/SGLang: the memory they take up front and what their KV pool serves. */
static void
add_serving_lines (GPtrArray        *lines,
                   const HrScenario *scenario,
                   const HrEstimate *e)
{
  char a[64];

  if (!hr_engine_is_server_like (scenario->engine))
    return;
  g_ptr_array_add (lines, g_strdup_printf (_("%s pre-allocates %s GiB (%.0f%% of memory) and fills what the weights leave with KV cache: expect the GPU to look full."),
                                           hr_engine_display_name (scenario->engine),
                                           fmt_num (a, 64, scenario->gpu->memory_gib * scenario->n_gpus * hr_estimate_mem_fraction (scenario), 1),
                                           hr_estimate_mem_fraction (scenario) * 100));
  if (e->kv_pool_bytes > 0)
    {
      char pool[64], tokens[64], conc[64];
      g_autofree char *cx = hr_format_context_short (scenario->context);

      g_ptr_array_add (lines, g_strdup_printf (_("Serving capacity: a KV-cache pool of %s GiB per GPU holds %s tokens, %s requests of %s at once (max-num-seqs %d)."),
                                               hr_format_number_locale_buf (pool, 64, hr_to_gib (e->kv_pool_bytes), 2),
                                               hr_format_number_locale_buf (tokens, 64, e->kv_capacity_tokens, 0),
                                               hr_format_number_locale_buf (conc, 64, e->max_concurrency, 2),
                                               cx, e->max_num_seqs));
    }
}

/* Where the figures come from, and the part in system RAM. */
static void
add_source_lines (GPtrArray        *lines,
                  const HrScenario *scenario,
                  const HrEstimate *e)
{
  char a[64], b[64];

  if (e->weights.source == HR_WEIGHTS_DERIVED)
    g_ptr_array_add (lines, g_strdup_printf (_("Weight size derived from the architecture and the %s mix (no measured file)."), scenario->quant));

  if (e->system_ram_bytes > 0 && (scenario->offload_pct > 0 || scenario->n_cpu_moe > 0))
    g_ptr_array_add (lines, g_strdup_printf (_("%s GiB stay in system RAM and are read at its bandwidth: they set the decode speed."),
                                             fmt_num (a, 64, hr_to_gib (e->system_ram_bytes), 2)));
  /* this computer: its real RAM size bounds the offloaded part */
  if (scenario->gpu->host_ram_gib > 0 && e->system_ram_bytes > scenario->gpu->host_ram_gib * HR_GIB)
    g_ptr_array_add (lines, g_strdup_printf (_("The system RAM part (%s GiB) is more than this computer's %s GiB of RAM."),
                                             fmt_num (a, 64, hr_to_gib (e->system_ram_bytes), 2),
                                             fmt_num (b, 64, scenario->gpu->host_ram_gib, 1)));
}

GPtrArray *
hr_advice_diagnosis (const HrScenario *scenario,
                     const HrEstimate *e,
                     const HrCatalog  *catalog)
{
  HrReverse reverse = { 0 };

  /* only a scenario that does not fit is told what to try */
  if (e->verdict == HR_VERDICT_EXCEEDS)
    hr_advice_reverse (scenario, catalog, &reverse);
  return hr_advice_diagnosis_with (scenario, e, &reverse);
}

GPtrArray *
hr_advice_diagnosis_with (const HrScenario *scenario,
                          const HrEstimate *e,
                          const HrReverse  *reverse)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (lines, verdict_line (scenario, e, reverse));
  add_kv_lines (lines, scenario, e);
  add_moe_line (lines, scenario, e);
  add_serving_lines (lines, scenario, e);
  add_source_lines (lines, scenario, e);
  return lines;
}
