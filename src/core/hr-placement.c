/* hr-placement.c — a model on a setup of devices: llama.cpp's layer split over different GPUs
 *
 * Every figure of a device comes from the estimate of the same model on that kind of device
 * (hr_estimate_compute () with one GPU and nothing offloaded): the bytes of one layer, of the
 * output layer and of one layer's KV cache, the compute buffer and runtime of that GPU, and
 * the decode step split into its memory part and its fixed costs.  Nothing here sizes a
 * tensor itself.
 */
#include "hr-placement.h"
#include "hr-calibration.h"
#include "hr-estimate-cpu.h"
#include "hr-estimate-private.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

#define LLAMA_N_BATCH 2048   /* llama.cpp's logical batch: its ubatches pipeline across devices */

/* One model on one mixed setup: the devices in launch order and the figures per layer. */
typedef struct
{
  const HrScenario *s;
  HrDeviceKind kinds[HR_MAX_DEVICE_KINDS]; /* s->kinds, or its alike devices as one kind */
  int n_kinds;
  int n;                                   /* devices */
  int kind[HR_MAX_PLAN_DEVICES];           /* index into kinds */
  int order[HR_MAX_PLAN_DEVICES];          /* devices, fastest first */
  double phys[HR_MAX_PLAN_DEVICES], usable[HR_MAX_PLAN_DEVICES];
  double fixed[HR_MAX_PLAN_DEVICES];       /* compute buffer + runtime */
  HrEstimate *base;                        /* per kind: the whole model on one such device */
  int L, moe_first;                        /* layers; the first layer with routed experts */
  double layer;                            /* one layer without its routed experts */
  double head, kv_layer, expert_layer;     /* the output layer, one layer's KV, experts */
  int ram_layers, n_cpu_moe;
} Mixed;

static const HrEstimate *
base_of (const Mixed *x,
         int          device)
{
  return &x->base[x->kind[device]];
}

/* Device bytes of layer @il (@il == L: the output layer). */
static double
unit_bytes (const Mixed *x,
            int          il,
            gboolean     with_kv)
{
  double b;

  if (il >= x->L)
    return x->head;
  b = x->layer + (with_kv ? x->kv_layer : 0);
  /* a layer with routed experts holds them unless --n-cpu-moe keeps them in RAM */
  if (il >= x->moe_first && il >= x->n_cpu_moe)
    b += x->expert_layer;
  return MAX (b, 0);
}

/* Fills @p's device figures for @units per device (the first units after the RAM layers). */
static void
evaluate (const Mixed  *x,
          const int    *units,
          HrPlacement  *p)
{
  int il = x->ram_layers, last = -1;

  for (int j = 0; j < x->n; j++)
    if (units[j] > 0)
      last = j;
  for (int j = 0; j < x->n; j++)
    {
      HrDevicePlan *d = &p->devices[j];
      const HrEstimate *b = base_of (x, j);

      memset (d, 0, sizeof *d);
      d->gpu = x->kinds[x->kind[j]].gpu;
      for (int u = 0; u < units[j]; u++, il++)
        {
          if (il >= x->L)
            {
              d->output = TRUE;
              d->weights_bytes += x->head;
              continue;
            }
          d->layers++;
          d->weights_bytes += unit_bytes (x, il, FALSE);
          d->kv_bytes += x->kv_layer;
        }
      g_warn_if_fail (!d->output || j == last);
      d->compute_bytes = b->compute_bytes;
      d->runtime_bytes = b->runtime_bytes;
      d->required_bytes = d->weights_bytes + d->kv_bytes + d->compute_bytes + d->runtime_bytes;
      d->physical_bytes = x->phys[j];
      d->usable_bytes = x->usable[j];
      d->margin_bytes = d->usable_bytes - d->required_bytes;
      d->verdict = hr_verdict_for (d->required_bytes, d->physical_bytes, d->usable_bytes);
      d->decode_seconds = NAN;
    }
  p->split = HR_SPLIT_LAYER;
  p->n_devices = x->n;
  p->ram_layers = x->ram_layers;
  p->gpu_layers = x->L + 1 - x->ram_layers;
  p->n_cpu_moe = x->n_cpu_moe;
  p->slowest = -1;
  p->user_split = x->s->n_tensor_split > 0;
}

/* A device left tight hands a layer at its edge to the neighbour there while the neighbour
 * keeps its margin: margin first, then the fastest device's share. */
static void
balance_margin (const Mixed *x,
                int         *units)
{
  for (int round = 0; round < 2 * (x->L + 1); round++)
    {
      HrPlacement p;
      gboolean moved = FALSE;

      evaluate (x, units, &p);
      for (int j = 0; j < x->n && !moved; j++)
        {
          if (p.devices[j].verdict != HR_VERDICT_TIGHT || units[j] == 0)
            continue;
          for (int k = j - 1; k <= j + 1 && !moved; k += 2)
            {
              int trial[HR_MAX_PLAN_DEVICES];
              HrPlacement q;

              if (k < 0 || k >= x->n)
                continue;
              memcpy (trial, units, x->n * sizeof *units);
              trial[j]--;
              trial[k]++;
              evaluate (x, trial, &q);
              if (q.devices[k].verdict == HR_VERDICT_FITS && q.devices[j].verdict != HR_VERDICT_EXCEEDS)
                {
                  memcpy (units, trial, x->n * sizeof *units);
                  moved = TRUE;
                }
            }
        }
      if (!moved)
        return;
    }
}

/* Units are left over: one more for the fastest device whose next unit still fits it. */
static gboolean
raise_cap (const Mixed *x,
           const int   *units,
           int         *cap_margin,
           int         *cap_usable)
{
  HrPlacement p;

  evaluate (x, units, &p);
  for (int k = 0; k < x->n; k++)
    {
      int j = x->order[k], next = x->ram_layers;
      double after;

      for (int i = 0; i <= j; i++)
        next += units[i];
      after = p.devices[j].required_bytes + unit_bytes (x, next, TRUE);
      if (next > x->L || after > x->usable[j])
        continue;
      cap_usable[j] = units[j] + 1;
      if (after <= HR_FIT_FRACTION * x->phys[j])
        cap_margin[j] = MAX (cap_margin[j], units[j] + 1);
      return TRUE;
    }
  return FALSE;
}

/* The split of the GPU layers for the current RAM layers and CPU experts: every device within
 * usable memory, with margin (HR_FIT_FRACTION) where the others leave room, the fastest device
 * filled first.  FALSE when no split fits. */
static gboolean
split_layers (const Mixed *x,
              int         *units)
{
  int act = x->L + 1 - x->ram_layers;
  int cap_margin[HR_MAX_PLAN_DEVICES], cap_usable[HR_MAX_PLAN_DEVICES];
  double unit = 0;
  int gpu_layers = 0;

  for (int il = x->ram_layers; il < x->L; il++, gpu_layers++)
    unit += unit_bytes (x, il, TRUE);
  unit = gpu_layers > 0 ? unit / gpu_layers : x->layer + x->expert_layer + x->kv_layer;
  unit = MAX (unit, 1);
  for (int j = 0; j < x->n; j++)
    {
      /* the last device also takes the output layer */
      double head = j == x->n - 1 ? x->head : 0;
      double room_m = HR_FIT_FRACTION * x->phys[j] - x->fixed[j] - head;
      double room_u = x->usable[j] - x->fixed[j] - head;

      cap_usable[j] = room_u < 0 ? 0 : (int) MIN (floor (room_u / unit) + (head > 0), act);
      cap_margin[j] = room_m < 0 ? 0 : (int) MIN (floor (room_m / unit) + (head > 0), cap_usable[j]);
    }

  /* the caps assume even layers and the output on the last device: check the real split,
   * take a unit off a device it overfills, and give one more to a device with room for it
   * when units are left (layers whose experts stay in RAM are lighter), until it holds */
  for (int round = 0; round < 8 * (act + x->n); round++)
    {
      HrPlacement p;
      int left = act, over = -1;

      memset (units, 0, x->n * sizeof *units);
      for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < x->n && left > 0; k++)
          {
            int j = x->order[k];
            int take = MIN ((pass == 0 ? cap_margin[j] : cap_usable[j]) - units[j], left);

            if (take > 0)
              {
                units[j] += take;
                left -= take;
              }
          }
      if (left > 0)
        {
          if (!raise_cap (x, units, cap_margin, cap_usable))
            return FALSE;
          continue;
        }
      evaluate (x, units, &p);
      for (int j = 0; j < x->n && over < 0; j++)
        if (p.devices[j].verdict == HR_VERDICT_EXCEEDS ||
            (units[j] <= cap_margin[j] && p.devices[j].verdict == HR_VERDICT_TIGHT && units[j] > 0))
          over = j;
      if (over < 0)
        {
          balance_margin (x, units);
          return TRUE;
        }
      if (p.devices[over].verdict == HR_VERDICT_EXCEEDS)
        cap_usable[over] = MAX (units[over] - 1, 0);
      cap_margin[over] = MIN (MAX (units[over] - 1, 0), cap_usable[over]);
    }
  return FALSE;
}

/* llama.cpp's split by free memory, for a setup no split fits: what it would try. */
static void
default_split (const Mixed *x,
               int         *units)
{
  double free_mem[HR_MAX_PLAN_DEVICES];

  for (int j = 0; j < x->n; j++)
    free_mem[j] = x->usable[j];
  hr_placement_llama_split (x->L, x->L + 1 - x->ram_layers, free_mem, x->n, units);
}

static HrBackend
kind_backend (const HrScenario *s,
              const HrGpu      *gpu)
{
  return s->backend_set ? s->backend : gpu->backend;
}

/* The estimate's totals from its devices' plans: weights, KV, buffers, required, physical and
 * usable memory summed, the fullest device's required; returns the worst device's verdict.  A
 * layer split (place_memory ()) and pipeline stages (hr-placement-pp.c) alike. */
HrVerdict
hr_placement_sum_devices (HrEstimate *out)
{
  const HrPlacement *p = &out->placement;
  HrVerdict worst = HR_VERDICT_FITS;

  out->weights_gpu = out->kv_bytes = out->compute_bytes = out->runtime_bytes = 0;
  out->required_bytes = out->per_gpu_required = out->physical_bytes = out->usable_bytes = 0;
  for (int j = 0; j < p->n_devices; j++)
    {
      const HrDevicePlan *d = &p->devices[j];

      out->weights_gpu += d->weights_bytes;
      out->kv_bytes += d->kv_bytes;
      out->compute_bytes += d->compute_bytes;
      out->runtime_bytes += d->runtime_bytes;
      out->required_bytes += d->required_bytes;
      out->per_gpu_required = MAX (out->per_gpu_required, d->required_bytes);
      out->physical_bytes += d->physical_bytes;
      out->usable_bytes += d->usable_bytes;
      worst = MAX (worst, d->verdict);
    }
  return worst;
}

/* The devices' decode written into @out from one step of @step seconds (@fixed of them fixed
 * costs) for @batch sequences, its range and basis scaled from @slowest_base, the slowest device's own estimate: a
 * layer split (place_decode ()) and pipeline stages (hr-placement-pp.c) alike.  A step that
 * cannot be timed (a device without a bandwidth) leaves the speed unknown. */
void
hr_placement_write_decode (HrEstimate       *out,
                           const HrEstimate *slowest_base,
                           double            step,
                           double            fixed,
                           int               batch,
                           int               n_devices,
                           gboolean          system_ram)
{
  HrPlacement *p = &out->placement;
  const HrDevicePlan *ds;

  if (!isfinite (step) || !(step > 0) || p->slowest < 0 || slowest_base == NULL)
    {
      out->decode_tps = out->decode_tps_low = out->decode_tps_high = NAN;
      out->decode_tps_empty = out->aggregate_tps = NAN;
      out->decode_basis = (HrBasis) { .kind = HR_BASIS_DECODE_DEVICE_UNKNOWN };
      p->slowest = -1;
      return;
    }
  ds = &p->devices[p->slowest];
  out->decode_tps = 1.0 / step;
  out->decode_tps_low = out->decode_tps * slowest_base->decode_tps_low / slowest_base->decode_tps;
  out->decode_tps_high = out->decode_tps * slowest_base->decode_tps_high / slowest_base->decode_tps;
  out->decode_tps_empty = out->decode_tps * slowest_base->decode_tps_empty / slowest_base->decode_tps;
  out->aggregate_tps = out->decode_tps * batch;
  out->decode_efficiency = slowest_base->decode_efficiency;
  out->compute_bound = slowest_base->compute_bound;
  out->decode_basis = (HrBasis) {
    .kind = HR_BASIS_DECODE_DEVICES, .count = n_devices, .system_ram = system_ram,
    .figures = { hr_to_gib (out->bytes_per_token), ds->decode_seconds / step * 100,
                 ds->gpu->bandwidth_gbs, fixed * 1e3 },
  };
  g_strlcpy (out->decode_basis.device, ds->gpu->name, sizeof out->decode_basis.device);
}

/* The decode step across the devices in turn, and what each takes of it. */
static void
place_decode (const Mixed  *x,
              HrEstimate   *out)
{
  const HrScenario *s = x->s;
  HrPlacement *p = &out->placement;
  const HrEstimate *b0 = base_of (x, x->n - 1);
  double kv_read = b0->kv_read_bytes, weights_read = b0->bytes_per_token * s->batch - kv_read;
  double kv_r = kv_read / MAX (x->L, 1);
  double expert_r = hr_model_is_moe (s->model) && hr_model_moe_layers (s->model) > 0
                    ? out->weights.expert_bytes * s->model->n_experts_used / MAX (s->model->n_experts, 1) /
                      hr_model_moe_layers (s->model)
                    : 0;
  /* what a layer reads without its active experts, which only the layers with experts read */
  double layer_r = MAX (weights_read - x->head - expert_r * (x->L - x->moe_first), 0) / MAX (x->L, 1);
  double step = 0, fixed = 0, read = 0, ram_read = 0, worst = -1;
  int used = 0, il = x->ram_layers;
  const HrCalibration *cal_last = NULL;

  for (int j = 0; j < x->n; j++)
    {
      HrDevicePlan *d = &p->devices[j];
      const HrEstimate *b = base_of (x, j);
      const HrCalibration *cal = hr_calibration_speed (kind_backend (s, d->gpu), s->engine_version);
      double t_whole = 1.0 / b->decode_tps;
      double t_fixed = b->decode_basis.kind == HR_BASIS_DECODE_MEMORY ? b->decode_basis.figures[3] * 1e-3
                       : (cal->t_layer_us * x->L + cal->t_token_us) * 1e-6;
      double whole_read = b->bytes_per_token * s->batch, bytes = 0;
      int units = d->layers + (d->output ? 1 : 0);

      for (int u = 0; u < units; u++, il++)
        bytes += il >= x->L ? x->head
                 : layer_r + kv_r + (il >= x->moe_first && il >= x->n_cpu_moe ? expert_r : 0);
      if (units == 0)
        {
          d->decode_seconds = 0;
          continue;
        }
      used++;
      cal_last = cal;
      /* its bytes at its own rate (the estimate's memory time on this GPU), and its layers'
       * share of the fixed per-layer costs */
      d->decode_seconds = (t_whole - t_fixed) * bytes / whole_read +
                          (t_fixed - cal->t_token_us * 1e-6) * d->layers / MAX (x->L, 1);
      step += d->decode_seconds;
      fixed += (t_fixed - cal->t_token_us * 1e-6) * d->layers / MAX (x->L, 1);
      read += bytes;
      if (d->decode_seconds > worst)
        {
          worst = d->decode_seconds;
          p->slowest = j;
        }
    }
  /* one token's sampling and graph launch, a hand-over per extra device, and what system RAM
   * streams at its own rate */
  if (cal_last != NULL)
    {
      const HrCalibration *cal0 = hr_calibration_speed (kind_backend (s, p->devices[0].gpu), s->engine_version);

      fixed += cal_last->t_token_us * 1e-6 + MAX (used - 1, 0) * cal0->t_hop_us * 1e-6;
      step += cal_last->t_token_us * 1e-6 + MAX (used - 1, 0) * cal0->t_hop_us * 1e-6;
    }
  for (int r = 0; r < x->ram_layers; r++)
    ram_read += layer_r + kv_r + (r >= x->moe_first ? expert_r : 0);
  for (int l = x->ram_layers; l < MIN (x->n_cpu_moe, x->L); l++)
    if (l >= x->moe_first)
      ram_read += expert_r;
  if (ram_read > 0)
    step += ram_read / (hr_estimate_host_bandwidth (s) * HR_CPU_BW_EFF);

  out->bytes_per_token = (read + ram_read) / s->batch;
  hr_placement_write_decode (out, p->slowest >= 0 ? base_of (x, p->slowest) : NULL, step, fixed,
                             s->batch, used, ram_read > 0);
}

/* Prefill: each device computes its layers' share at its own rate, the ubatches of a batch
 * pipelined across them; offloaded weights cross PCIe once per ubatch. */
static void
place_prefill (const Mixed *x,
               HrEstimate  *out)
{
  const HrScenario *s = x->s;
  const HrPlacement *p = &out->placement;
  double t = 0, ubatches, pipe, most = -1;
  int used = 0, first = -1;

  for (int j = 0; j < x->n; j++)
    {
      const HrDevicePlan *d = &p->devices[j];
      double share = (double) d->layers / MAX (x->L, 1), part;

      if (d->layers == 0 && !d->output)
        continue;
      if (first < 0)
        {
          first = j;
          /* llama.cpp runs the RAM layers' prompt on the first device */
          share += (double) x->ram_layers / MAX (x->L, 1);
        }
      used++;
      part = share / base_of (x, j)->prefill_tps;
      t += part;
      if (part > most)
        {
          most = part;
          out->prefill_basis = base_of (x, j)->prefill_basis;
        }
    }
  ubatches = ceil (MIN ((double) s->prompt_tokens, LLAMA_N_BATCH) / MAX (s->ubatch, 1));
  pipe = 1.0 + (MIN (used, ubatches) - 1.0) * HR_CAL_PIPELINE_EFF;
  t = t / MAX (pipe, 1.0) + (out->weights_ram_bytes - base_of (x, 0)->weights_ram_bytes) /
                            (HR_PCIE_GBS * 1e9) / MAX (s->ubatch, 1);
  if (isfinite (t) && t > 0 && first >= 0)
    {
      const HrEstimate *b = base_of (x, first);

      out->prefill_tps = 1.0 / t;
      out->prefill_tps_low = out->prefill_tps * b->prefill_tps_low / b->prefill_tps;
      out->prefill_tps_high = out->prefill_tps * b->prefill_tps_high / b->prefill_tps;
    }
  else
    out->prefill_tps = out->prefill_tps_low = out->prefill_tps_high = NAN;
  out->ttft_ms = isfinite (out->prefill_tps)
                 ? s->prompt_tokens / out->prefill_tps * 1000.0 + (isfinite (out->decode_tps) ? 1000.0 / out->decode_tps : 0)
                 : NAN;
}

/* The totals are the sums of the devices'. */
static void
sum_devices (const Mixed *x,
             HrEstimate  *out)
{
  const HrEstimate *b = base_of (x, 0);
  double ram_weights = 0, ram_kv = x->kv_layer * x->ram_layers;
  HrVerdict worst;

  for (int il = 0; il < x->ram_layers; il++)
    ram_weights += x->layer + (il >= x->moe_first ? x->expert_layer : 0);
  for (int il = x->ram_layers; il < MIN (x->n_cpu_moe, x->L); il++)
    if (il >= x->moe_first)
      ram_weights += x->expert_layer;

  worst = hr_placement_sum_devices (out);
  out->overhead_bytes = out->compute_bytes + out->runtime_bytes;
  out->weights_ram_bytes = b->weights_ram_bytes + ram_weights;
  out->host_compute_bytes = b->host_compute_bytes;
  out->system_ram_bytes = out->weights_ram_bytes + ram_kv + out->host_compute_bytes;
  out->margin_bytes = out->usable_bytes - out->required_bytes;
  out->utilization = out->required_bytes / out->physical_bytes;
  out->verdict = worst;
  /* no cloud offer rents a mixed set */
  out->cost_per_mtok_usd = out->offer_usd_per_hour = NAN;
  out->offer_label[0] = '\0';
  out->suggested_cost_per_mtok_usd = out->suggested_usd_per_hour = NAN;
  out->suggested_label[0] = '\0';
}

/* Why an engine does not run this setup, or NULL. */
static char *
refusal (const HrScenario *s)
{
  g_autofree char *setup = hr_placement_setup_name (s);

  if (hr_engine_is_server_like (s->engine))
    {
      /* different GPUs run as pipeline stages (hr-placement-pp.c), on discrete GPUs */
      for (int i = 0; i < s->n_kinds; i++)
        if (hr_gpu_is_unified (s->kinds[i].gpu) || s->kinds[i].gpu->backend == HR_BACKEND_CPU)
          return g_strdup_printf ("%s runs its pipeline stages on discrete GPUs, and %s shares the "
                                  "system's memory: leave it out of the setup",
                                  hr_engine_display_name (s->engine), s->kinds[i].gpu->name);
      return NULL;
    }
  if (!hr_engine_is_llama_like (s->engine))
    return g_strdup_printf ("%s runs on one device, not on %s", hr_engine_display_name (s->engine), setup);
  if (s->backend_set && s->backend == HR_BACKEND_CPU)
    return g_strdup_printf ("the CPU backend uses none of %s", setup);
  for (int i = 0; i < s->n_kinds; i++)
    if (s->kinds[i].gpu->backend == HR_BACKEND_CPU)
      return g_strdup_printf ("“%s” (the CPU and system RAM) is not a device of llama.cpp's layer split: "
                              "list the GPUs and keep layers in system RAM with --offload-pct",
                              s->kinds[i].gpu->name);
  for (int i = 0; i < s->n_kinds; i++)
    if (hr_gpu_is_unified (s->kinds[i].gpu))
      return g_strdup_printf ("%s shares its memory with the CPU: Headroom does not size it beside "
                              "other GPUs yet", s->kinds[i].gpu->name);
  return NULL;
}

/* The model's figures on each kind of device and the layers' bytes; FALSE with an error. */
static gboolean
mixed_init (Mixed            *x,
            const HrScenario *s,
            GError          **error)
{
  const HrModel *m = s->model;
  const HrEstimate *b;
  int moe_layers;

  memset (x, 0, sizeof *x);
  x->s = s;
  x->base = g_new0 (HrEstimate, HR_MAX_DEVICE_KINDS);
  if (hr_scenario_is_mixed (s))
    {
      x->n_kinds = s->n_kinds;
      memcpy (x->kinds, s->kinds, sizeof x->kinds);
    }
  else
    {
      /* alike devices under the user's --tensor-split */
      x->n_kinds = 1;
      x->kinds[0] = (HrDeviceKind) { s->gpu, MIN (s->n_gpus, HR_MAX_PLAN_DEVICES) };
    }
  for (int k = 0; k < x->n_kinds; k++)
    {
      HrScenario one = *s;

      one.n_kinds = 0;
      memset (one.kinds, 0, sizeof one.kinds);
      one.gpu = x->kinds[k].gpu;
      one.n_gpus = 1;
      one.offload_pct = 0;
      one.n_cpu_moe = 0;
      one.n_tensor_split = 0;
      if (!hr_estimate_compute (&one, NULL, &x->base[k], error))
        return FALSE;
      for (int c = 0; c < x->kinds[k].count; c++)
        {
          const HrGpu *g = x->kinds[k].gpu;

          x->kind[x->n] = k;
          x->phys[x->n] = g->memory_gib * HR_GIB;
          x->usable[x->n] = x->phys[x->n] * (1.0 - s->reserve);
          x->fixed[x->n] = x->base[k].compute_bytes + x->base[k].runtime_bytes;
          x->n++;
        }
    }
  /* the fastest first; alike bandwidth: the larger memory, then launch order */
  for (int j = 0; j < x->n; j++)
    x->order[j] = j;
  for (int a = 1; a < x->n; a++)
    for (int c = a; c > 0; c--)
      {
        const HrGpu *g1 = x->kinds[x->kind[x->order[c - 1]]].gpu, *g2 = x->kinds[x->kind[x->order[c]]].gpu;
        double bw1 = isfinite (g1->bandwidth_gbs) ? g1->bandwidth_gbs : 0;
        double bw2 = isfinite (g2->bandwidth_gbs) ? g2->bandwidth_gbs : 0;

        if (bw2 > bw1 || (bw2 == bw1 && g2->memory_gib > g1->memory_gib))
          {
            int tmp = x->order[c];
            x->order[c] = x->order[c - 1];
            x->order[c - 1] = tmp;
          }
        else
          break;
      }

  /* the layers' bytes as the estimate of one device places them (hr_estimate_device_weights) */
  b = &x->base[0];
  x->L = MAX (m->n_layers, 1);
  x->head = m->tie_embeddings ? b->weights.embd_bytes : b->weights.output_bytes;
  x->kv_layer = b->kv_bytes / x->L;
  moe_layers = hr_model_is_moe (m) ? hr_model_moe_layers (m) : 0;
  x->moe_first = x->L - MIN (moe_layers, x->L);
  /* the routed experts sit in the layers that have them, the rest of the weights evenly in
   * every layer: a model's leading dense layers (DeepSeek-V3's 3, GLM-4.5's 3) are far lighter
   * than its MoE layers, and the device that holds them holds less (DeepSeek-V3 UD-Q2_K_XL,
   * 3 dense layers: 11.9 GB as an average layer, 0.1 GB now; their dense FFN, spread over
   * every layer here, makes them somewhat heavier in the file).  The experts, clamped to what
   * the device part holds, keep the sum exact. */
  {
    double experts = moe_layers > 0 ? MIN (b->weights.expert_bytes, MAX (b->weights_gpu - x->head, 0)) : 0;

    x->expert_layer = moe_layers > 0 ? experts / moe_layers : 0;
    x->layer = MAX (b->weights_gpu - x->head - experts, 0) / x->L;
  }
  x->ram_layers = s->offload_pct > 0 ? (int) lround (x->L * MIN (s->offload_pct, 100.0) / 100.0) : 0;
  x->ram_layers = MIN (x->ram_layers, x->L);
  x->n_cpu_moe = moe_layers > 0 ? MIN (s->n_cpu_moe, x->L) : 0;
  return TRUE;
}

static void
mixed_clear (Mixed *x)
{
  g_clear_pointer (&x->base, g_free);
}

/* The estimate of @x's scenario with its RAM layers and CPU experts: the best split when one
 * fits, else llama.cpp's own split by free memory (and the devices it overfills). */
static gboolean
mixed_place (const Mixed *x,
             HrEstimate  *out)
{
  int units[HR_MAX_PLAN_DEVICES];
  gboolean fits;

  if (x->s->n_tensor_split > 0)
    {
      HrPlacement p;

      /* the user's --tensor-split, as llama.cpp applies it (llama_model::load_tensors in
       * src/llama-model.cpp: the split points are the running sums of tensor_split,
       * normalised, and layer il goes to the first device whose point lies above
       * (il - i_gpu_start) / act_gpu_layers); the verdict per device follows */
      hr_placement_llama_split (x->L, x->L + 1 - x->ram_layers, x->s->tensor_split, x->n, units);
      evaluate (x, units, &p);
      fits = TRUE;
      for (int j = 0; j < x->n; j++)
        fits &= p.devices[j].verdict != HR_VERDICT_EXCEEDS;
    }
  else if (!(fits = split_layers (x, units)))
    default_split (x, units);
  *out = *base_of (x, x->n - 1);
  memset (&out->placement, 0, sizeof out->placement);
  evaluate (x, units, &out->placement);
  sum_devices (x, out);
  place_decode (x, out);
  place_prefill (x, out);
  return fits;
}

/* llama.cpp's devices by default (llama_model_load_from_file_impl in src/llama.cpp): every
 * GPU it enumerates (GGML_BACKEND_DEVICE_TYPE_GPU), and the integrated ones
 * (GGML_BACKEND_DEVICE_TYPE_IGPU) "only if no other devices were found".  An iGPU's memory is
 * the system RAM, so a laptop's RTX 4060 + Radeon 780M runs on the RTX 4060 alone, what stays
 * in system RAM beside it, and the iGPU's share is never counted twice.  TRUE with @r the
 * setup without its integrated GPUs when it has discrete ones too. */
static gboolean
without_integrated (const HrScenario *s,
                    HrScenario       *r)
{
  HrDeviceKind kept[HR_MAX_DEVICE_KINDS];
  double split[HR_MAX_MIXED_GPUS];
  int n = 0, dev = 0, n_split = 0, left = 0;

  if (!hr_scenario_is_mixed (s) || !hr_engine_is_llama_like (s->engine))
    return FALSE;
  for (int k = 0; k < s->n_kinds; k++)
    {
      const HrGpu *g = s->kinds[k].gpu;
      gboolean igpu = hr_gpu_is_unified (g);

      for (int c = 0; c < s->kinds[k].count; c++, dev++)
        if (!igpu && dev < s->n_tensor_split)
          split[n_split++] = s->tensor_split[dev];
      if (igpu)
        left += s->kinds[k].count;
      else if (g->backend != HR_BACKEND_CPU)
        kept[n++] = s->kinds[k];
    }
  if (left == 0 || n == 0)
    return FALSE;
  *r = *s;
  if (!hr_scenario_set_devices (r, kept, n, NULL))
    return FALSE;
  /* the user's proportions of the devices that stay (llama.cpp numbers only those) */
  memcpy (r->tensor_split, split, sizeof split);
  r->n_tensor_split = s->n_tensor_split > 0 ? n_split : 0;
  if (r->n_tensor_split > 0 && r->n_gpus < 2)
    r->n_tensor_split = 0;
  return TRUE;
}

static const HrGpu *
first_integrated (const HrScenario *s,
                  int              *count)
{
  *count = 0;
  for (int k = 0; k < s->n_kinds; k++)
    if (hr_gpu_is_unified (s->kinds[k].gpu))
      {
        *count = s->kinds[k].count;
        return s->kinds[k].gpu;
      }
  return NULL;
}

gboolean
hr_placement_estimate (const HrScenario *s,
                       const HrPricing  *pricing,
                       HrEstimate       *out,
                       GError          **error)
{
  g_autofree char *why = NULL;
  HrScenario r;
  Mixed x;
  gboolean ok;

  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  g_return_val_if_fail (hr_scenario_is_mixed (s) || s->n_tensor_split > 0, FALSE);

  if (without_integrated (s, &r))
    {
      if (!hr_estimate_compute (&r, pricing, out, error))
        return FALSE;
      out->placement.left_out = first_integrated (s, &out->placement.n_left_out);
      return TRUE;
    }
  /* no cloud offer rents a mixed set: @pricing has nothing to say (sum_devices ()) */
  (void) pricing;
  if ((why = refusal (s)) != NULL)
    {
      g_set_error_literal (error, HR_SCENARIO_ERROR, HR_SCENARIO_ERROR_UNSUPPORTED, why);
      return FALSE;
    }
  if (hr_engine_is_server_like (s->engine))
    return hr_placement_pipeline (s, out, error);
  ok = mixed_init (&x, s, error);
  if (ok)
    mixed_place (&x, out);
  mixed_clear (&x);
  return ok;
}

gboolean
hr_placement_search (const HrScenario *s,
                     HrScenario       *best,
                     HrEstimate       *best_estimate)
{
  HrEstimate est;
  HrScenario r;
  Mixed x;
  int moe_layers;
  gboolean found = FALSE;

  g_return_val_if_fail (s != NULL && best != NULL && best_estimate != NULL, FALSE);

  if ((!hr_scenario_is_mixed (s) && s->n_tensor_split == 0) || hr_engine_is_server_like (s->engine))
    return FALSE;
  if (without_integrated (s, &r))
    {
      HrScenario best_r;

      /* the discrete GPUs are the setup: search theirs, keep the scenario's own devices */
      if (!hr_placement_search (&r, &best_r, best_estimate))
        return FALSE;
      *best = *s;
      best->n_cpu_moe = best_r.n_cpu_moe;
      best->offload_pct = best_r.offload_pct;
      best_estimate->placement.left_out = first_integrated (s, &best_estimate->placement.n_left_out);
      return TRUE;
    }
  {
    g_autofree char *why = refusal (s);

    if (why != NULL)
      return FALSE;
  }
  if (!mixed_init (&x, s, NULL) || mixed_place (&x, &est))
    {
      mixed_clear (&x);
      return FALSE;
    }
  /* the experts of more layers first (their attention stays on the GPU), then whole layers */
  moe_layers = hr_model_is_moe (s->model) ? x.L - x.moe_first : 0;
  for (int step = 0; !found && step <= x.L + moe_layers; step++)
    {
      if (step < moe_layers)
        {
          x.ram_layers = 0;
          x.n_cpu_moe = x.moe_first + step + 1;
        }
      else
        {
          x.n_cpu_moe = moe_layers > 0 ? x.L : 0;
          x.ram_layers = step - moe_layers + (moe_layers > 0 ? 0 : 1);
          if (x.ram_layers > x.L)
            break;
        }
      found = mixed_place (&x, &est);
    }
  if (found)
    {
      *best = *s;
      best->n_cpu_moe = x.n_cpu_moe;
      best->offload_pct = 100.0 * x.ram_layers / x.L;
      /* the scenario's rounding gives back the same layers */
      g_warn_if_fail ((int) lround (x.L * best->offload_pct / 100.0) == x.ram_layers);
      *best_estimate = est;
    }
  mixed_clear (&x);
  return found;
}

void
hr_placement_llama_split (int           n_layer,
                          int           n_gpu_layers,
                          const double *split,
                          int           n_devices,
                          int          *units_out)
{
  /* llama.cpp computes the split points in float */
  float points[HR_MAX_PLAN_DEVICES];
  float sum = 0;
  int start, act;

  g_return_if_fail (n_devices > 0 && n_devices <= HR_MAX_PLAN_DEVICES);

  for (int i = 0; i < n_devices; i++)
    {
      sum += (float) split[i];
      points[i] = sum;
      units_out[i] = 0;
    }
  for (int i = 0; i < n_devices; i++)
    points[i] /= sum;
  start = MAX (n_layer + 1 - n_gpu_layers, 0);
  act = MIN (n_gpu_layers, n_layer + 1);
  for (int il = start; il <= n_layer; il++)
    {
      float at = (float) (il - start) / act;
      int dev = 0;

      if (il - start >= act)
        continue;
      /* std::upper_bound: the first split point above @at */
      while (dev < n_devices && !(points[dev] > at))
        dev++;
      units_out[MIN (dev, n_devices - 1)]++;
    }
}

char *
hr_placement_tensor_split (const HrScenario *s,
                           const HrEstimate *e)
{
  GString *split;

  if (e->placement.split != HR_SPLIT_LAYER || e->placement.n_devices < 2)
    return NULL;
  if (e->placement.user_split)
    {
      /* the user's own proportions, as given ("3,1"; '.' in every locale) */
      split = g_string_new (NULL);
      for (int j = 0; j < s->n_tensor_split && e->placement.n_left_out == 0; j++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append_printf (split, "%s%s", j > 0 ? "," : "",
                                  g_ascii_formatd (buf, sizeof buf, "%g", s->tensor_split[j]));
        }
      if (split->len > 0)
        return g_string_free (split, FALSE);
      g_string_free (split, TRUE);
    }
  if (!hr_scenario_is_mixed (s) && !e->placement.user_split)
    return NULL;
  split = g_string_new (NULL);
  for (int j = 0; j < e->placement.n_devices; j++)
    {
      const HrDevicePlan *d = &e->placement.devices[j];

      g_string_append_printf (split, "%s%d", j > 0 ? "," : "", d->layers + (d->output ? 1 : 0));
    }
  return g_string_free (split, FALSE);
}

char *
hr_placement_setup_name (const HrScenario *s)
{
  GString *name = g_string_new (NULL);

  if (!hr_scenario_is_mixed (s))
    {
      if (s->n_gpus > 1)
        g_string_append_printf (name, "%d× ", s->n_gpus);
      g_string_append (name, s->gpu->name);
      return g_string_free (name, FALSE);
    }
  for (int k = 0; k < s->n_kinds; k++)
    {
      if (k > 0)
        g_string_append (name, " + ");
      if (s->kinds[k].count > 1)
        g_string_append_printf (name, "%d× ", s->kinds[k].count);
      g_string_append (name, s->kinds[k].gpu->name);
    }
  return g_string_free (name, FALSE);
}

void
hr_placement_fill_alike (const HrScenario *s,
                         HrEstimate       *out)
{
  HrPlacement *p = &out->placement;
  int n = MAX (s->n_gpus, 1), L = MAX (s->model->n_layers, 1);
  gboolean llama = hr_engine_is_llama_like (s->engine);
  double kv_each, compute_each, runtime_each, phys = s->gpu->memory_gib * HR_GIB;

  memset (p, 0, sizeof *p);
  p->slowest = -1;
  p->gpu_layers = -1;
  p->n_cpu_moe = s->n_cpu_moe;
  p->ram_layers = s->offload_pct > 0 ? (int) floor (s->model->n_layers * s->offload_pct / 100.0 + 0.5) : 0;
  p->split = n == 1 ? HR_SPLIT_NONE : llama ? HR_SPLIT_LAYER : HR_SPLIT_TENSOR;
  if (n > HR_MAX_PLAN_DEVICES)
    {
      p->split = HR_SPLIT_NONE;
      return;
    }
  p->n_devices = n;
  /* what hr_estimate_compute () counts per device: its required less the weights, the
   * engine's buffers and the runtime (with the host buffer on unified memory) */
  compute_each = out->compute_bytes / n;
  runtime_each = (out->overhead_bytes - out->compute_bytes) / n;
  kv_each = (out->required_bytes - out->weights_gpu - out->overhead_bytes) / n;
  for (int j = 0; j < n; j++)
    {
      HrDevicePlan *d = &p->devices[j];

      d->gpu = s->gpu;
      if (p->split == HR_SPLIT_LAYER)
        {
          d->layers = L / n + (j >= n - L % n ? 1 : 0);
          d->output = j == n - 1;
        }
      else
        {
          /* one device, or a shard of every layer on each */
          d->layers = p->split == HR_SPLIT_TENSOR ? L : MAX (L - p->ram_layers, 0);
          d->output = TRUE;
        }
      d->weights_bytes = hr_estimate_device_weights (s, out, j);
      d->kv_bytes = kv_each;
      d->compute_bytes = compute_each;
      d->runtime_bytes = runtime_each;
      d->required_bytes = d->weights_bytes + d->kv_bytes + d->compute_bytes + d->runtime_bytes;
      d->physical_bytes = phys;
      d->usable_bytes = out->usable_bytes / n;
      d->margin_bytes = d->usable_bytes - d->required_bytes;
      d->verdict = hr_verdict_for (d->required_bytes, phys, d->usable_bytes);
      d->decode_seconds = NAN;
    }
}
