/* hr-scenario-state.c — core results worded for the Size view, testable without a display */
#include "hr-scenario-state.h"
#include "hr-draft.h"
#include "hr-placement.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-scenario-text.h"
#include "hr-units.h"

#define DASH "—"

/* Formatting --------------------------------------------------------------------------- */

char *
hr_size_format_number (double value,
                       int    decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];
  const char *dot;

  if (!isfinite (value))
    return g_strdup (DASH);
  /* "60.8", not "60.80": the decimals left once the trailing zeros go */
  hr_format_number_c_buf (buf, sizeof buf, value, decimals);
  dot = strchr (buf, '.');
  for (decimals = dot != NULL ? (int) strlen (dot + 1) : 0; decimals > 0 && dot[decimals] == '0';)
    decimals--;
  /* ... then in the user's locale as the CLI writes it: thousands grouped where the locale
   * groups them ("~2,712 tok/s", "2.712" in German, "2712" in the C locale) */
  return g_strdup (hr_format_number_locale_buf (buf, sizeof buf, value, decimals));
}

/* @value as hr_size_format_number() writes it, or NULL when it is not finite: the caller puts
 * its unit around it, or a dash. */
static char *
finite_number (double value,
               int    decimals)
{
  return isfinite (value) ? hr_size_format_number (value, decimals) : NULL;
}

char *
hr_size_format_gib (double bytes)
{
  g_autofree char *n = finite_number (hr_to_gib (bytes), 2);

  /* a size that rounds to 0.00 GiB but is not 0 (a 1.7 M-parameter GGUF) in MiB or KiB:
   * never "0 GiB" for something */
  if (n != NULL && bytes != 0 && hr_round (hr_to_gib (bytes), 2) == 0)
    {
      g_clear_pointer (&n, g_free);
      if (fabs (bytes) >= 1024 * 1024)
        {
          n = hr_size_format_number (bytes / (1024.0 * 1024.0), 2);
          /* TRANSLATORS: a memory size in binary megabytes, e.g. "3.25 MiB" */
          return g_strdup_printf (_("%s MiB"), n);
        }
      n = hr_size_format_number (MAX (bytes / 1024.0, bytes > 0 ? 0.01 : -0.01), 2);
      /* TRANSLATORS: a memory size in binary kilobytes, e.g. "12.5 KiB" */
      return g_strdup_printf (_("%s KiB"), n);
    }
  /* TRANSLATORS: a memory size in binary gigabytes, e.g. "67.96 GiB" */
  return n ? g_strdup_printf (_("%s GiB"), n) : g_strdup (DASH);
}

char *
hr_size_format_params (double params)
{
  g_autofree char *n = NULL;

  if (!isfinite (params))
    return g_strdup (DASH);
  if (fabs (params) >= 1e9)
    {
      n = hr_size_format_number (params / 1e9, 2);
      /* TRANSLATORS: billions of parameters, e.g. "110.47 B" */
      return g_strdup_printf (_("%s B"), n);
    }
  if (fabs (params) >= 1e6)
    {
      n = hr_size_format_number (params / 1e6, 2);
      /* TRANSLATORS: millions of parameters, e.g. "44.26 M" */
      return g_strdup_printf (_("%s M"), n);
    }
  if (fabs (params) >= 1e3)
    {
      n = hr_size_format_number (params / 1e3, 2);
      /* TRANSLATORS: thousands of parameters, e.g. "260 K" */
      return g_strdup_printf (_("%s K"), n);
    }
  return hr_size_format_number (params, 0);
}

char *
hr_size_format_gb (double bytes)
{
  g_autofree char *n = finite_number (hr_to_gb (bytes), 2);

  /* TRANSLATORS: a memory size in decimal gigabytes, e.g. "75.12 GB" */
  return n ? g_strdup_printf (_("%s GB"), n) : g_strdup (DASH);
}

char *
hr_size_format_margin (double bytes)
{
  g_autofree char *n = finite_number (fabs (hr_to_gib (bytes)), 2);

  if (n == NULL)
    return g_strdup (DASH);
  if (hr_round (hr_to_gib (bytes), 2) == 0)
    return g_strdup_printf (_("%s GiB"), n);
  /* TRANSLATORS: a signed memory margin, e.g. "+6.04 GiB" or "−9.16 GiB" (U+2212, a minus
   * sign, as the charts and Compare write it) */
  return g_strdup_printf (bytes > 0 ? _("+%s GiB") : _("−%s GiB"), n);
}

char *
hr_size_format_tps (double tps)
{
  g_autofree char *n = finite_number (tps, tps >= 1000 ? 0 : 1);

  /* TRANSLATORS: an estimated speed, e.g. "~40.2 tok/s" */
  return n ? g_strdup_printf (_("~%s tok/s"), n) : g_strdup (_("unknown"));
}

static char *
format_grouped_int (gint64 value)
{
  char buf[64];

  return g_strdup (hr_format_number_locale_buf (buf, sizeof buf, (double) value, 0));
}

gint64
hr_context_step (gint64   tokens,
                 gboolean up)
{
  gint64 p = HR_MIN_CONTEXT;

  if (up)
    {
      while (p <= tokens && p < HR_MAX_CONTEXT)
        p *= 2;
      return p;
    }
  while (p * 2 < tokens && p * 2 <= HR_MAX_CONTEXT)
    p *= 2;
  return p;
}

char *
hr_size_format_count (double value)
{
  if (!isfinite (value))
    return g_strdup (DASH);
  return format_grouped_int ((gint64) floor (value + 0.5));
}

char *
hr_size_format_context (gint64 tokens)
{
  g_autofree char *shrt = hr_format_context_short (tokens);
  g_autofree char *full = format_grouped_int (tokens);

  if (g_strcmp0 (shrt, full) == 0 || strspn (shrt, "0123456789") == strlen (shrt))
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens", (gulong) tokens), full);
  /* TRANSLATORS: a context length, e.g. "128K (131,072 tokens)" */
  return g_strdup_printf (_("%s (%s tokens)"), shrt, full);
}

char *
hr_size_format_usd (double usd,
                    int    decimals)
{
  char n[G_ASCII_DTOSTR_BUF_SIZE + 32];

  if (!isfinite (usd))
    return g_strdup (DASH);
  return g_strdup (hr_format_usd_locale_buf (n, sizeof n, usd, CLAMP (decimals, 0, 2)));
}

static char *
format_percent (double fraction)
{
  g_autofree char *n = hr_size_format_number (fraction * 100.0, 0);
  /* TRANSLATORS: a percentage, e.g. "87%" */
  return g_strdup_printf (_("%s%%"), n);
}

const char *
hr_size_verdict_css (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return "verdict-fits";
    case HR_VERDICT_TIGHT:
      return "verdict-tight";
    case HR_VERDICT_EXCEEDS:
    default:
      return "verdict-exceeds";
    }
}

const char *
hr_size_verdict_icon (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return "emblem-ok-symbolic";
    case HR_VERDICT_TIGHT:
      return "dialog-warning-symbolic";
    case HR_VERDICT_EXCEEDS:
    default:
      return "dialog-error-symbolic";
    }
}

const char *
hr_size_backend_display (HrBackend backend)
{
  const char *name = hr_backend_display_name (backend);

  return name != NULL ? name : _("vendor stack");
}

char *
hr_size_model_summary (const HrModel *model)
{
  g_autoptr(GString) s = g_string_new (NULL);

  /* a model read from a GGUF header is that file: say which, so two of the same name differ */
  if (model->origin == HR_MODEL_ORIGIN_GGUF && model->gguf_quant != NULL)
    g_string_append_printf (s, model->gguf_path != NULL
                               /* TRANSLATORS: a model from a local GGUF file, e.g. "Q4_K_M file · " */
                               ? _("%s file · ")
                               /* TRANSLATORS: a model from a GGUF header read over HTTP */
                               : _("%s from the web · "),
                            model->gguf_quant);
  if (isfinite (model->total_params) && model->total_params > 0)
    {
      /* "110.47 B", "1.7 M": never "0 B" for a small model */
      g_autofree char *total = hr_size_format_params (model->total_params);
      /* TRANSLATORS: a parameter count with its unit, e.g. "110.47 B total", "1.7 M total" */
      g_string_append_printf (s, _("%s total"), total);
      if (isfinite (model->active_params) && model->active_params > 0 &&
          model->active_params < model->total_params * 0.999)
        {
          g_autofree char *active = hr_size_format_params (model->active_params);
          g_string_append (s, " · ");
          /* TRANSLATORS: active parameters per token with their unit, e.g. "12 B active" */
          g_string_append_printf (s, _("%s active"), active);
        }
    }
  else
    g_string_append (s, _("parameters unknown"));
  if (model->arch_label != NULL && model->arch_label[0] != '\0')
    g_string_append_printf (s, " · %s", model->arch_label);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
hr_size_gpu_summary (const HrGpu *gpu)
{
  g_autofree char *mem = hr_size_format_number (gpu->memory_gib, 0);
  g_autoptr(GString) s = g_string_new (NULL);

  if (hr_gpu_is_unified (gpu))
    /* TRANSLATORS: memory of a unified-memory machine, e.g. "128 GB unified" */
    g_string_append_printf (s, _("%s GB unified"), mem);
  else
    g_string_append_printf (s, _("%s GB"), mem);
  if (isfinite (gpu->bandwidth_gbs))
    {
      g_autofree char *bw = hr_size_format_number (gpu->bandwidth_gbs, 0);
      g_string_append (s, " · ");
      /* TRANSLATORS: memory bandwidth, e.g. "1792 GB/s" */
      g_string_append_printf (s, _("%s GB/s"), bw);
    }
  else
    g_string_append_printf (s, " · %s", _("bandwidth unknown"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The main state ------------------------------------------------------------------------ */

static void
card_clear (HrSizeCard *card)
{
  g_clear_pointer (&card->caption, g_free);
  g_clear_pointer (&card->value, g_free);
  g_clear_pointer (&card->detail, g_free);
  g_clear_pointer (&card->note, g_free);
  card->not_this_setup = FALSE;
}

static void
card_set (HrSizeCard *card,
          const char *caption,
          char       *value,
          char       *detail,
          char       *note)
{
  card_clear (card);
  card->caption = g_strdup (caption);
  card->value = value;
  card->detail = detail;
  card->note = note;
}

void
hr_size_state_init (HrSizeState *state)
{
  memset (state, 0, sizeof *state);
  state->simulator_ttft_ms = NAN;
  state->simulator_tps = NAN;
}

void
hr_size_state_clear (HrSizeState *state)
{
  g_clear_pointer (&state->verdict_title, g_free);
  g_clear_pointer (&state->verdict_detail, g_free);
  g_clear_pointer (&state->title, g_free);
  g_clear_pointer (&state->subtitle, g_free);
  g_clear_pointer (&state->breakdown, g_free);
  g_clear_pointer (&state->projector, g_free);
  g_clear_pointer (&state->weights_source, g_free);
  g_clear_pointer (&state->simulator_status, g_free);
  g_clear_pointer (&state->simulator_note, g_free);
  for (guint i = 0; i < HR_SIZE_N_CARDS; i++)
    card_clear (&state->cards[i]);
  hr_size_state_init (state);
}

static char *
scenario_title (const HrScenario *s)
{
  const char *model = s->model ? (s->model->name ? s->model->name : s->model->id) : "?";
  const char *gpu = s->gpu ? (s->gpu->name ? s->gpu->name : s->gpu->id) : "?";

  if (s->gpu != NULL && hr_scenario_is_mixed (s))
    {
      /* different GPUs (#31): "RTX 4090 24GB + RTX 3090 24GB" */
      g_autofree char *setup = hr_placement_setup_name (s);
      return g_strdup_printf (_("%s on %s"), model, setup);
    }
  if (s->n_gpus > 1)
    /* TRANSLATORS: "<model> on <n>× <GPU>" */
    return g_strdup_printf (_("%s on %d× %s"), model, s->n_gpus, gpu);
  /* TRANSLATORS: "<model> on <GPU>" */
  return g_strdup_printf (_("%s on %s"), model, gpu);
}

/* Where the file's weights go when not all of them are on the GPU, so the file size (the
 * figure a download listing shows) reconciles with the weights the totals count; NULL when
 * they are all on the GPU. */
static char *
weights_file_text (const HrScenario *s,
                   const HrEstimate *e)
{
  g_autofree char *file = NULL, *ram = NULL, *skipped = NULL;
  gboolean in_ram = e->weights_ram_bytes >= 0.005 * HR_GIB;
  gboolean not_loaded = e->weights_skipped_bytes >= 0.005 * HR_GIB;

  if (!in_ram && !not_loaded)
    return NULL;
  file = hr_size_format_gib (e->weights.bytes);
  ram = hr_size_format_gib (e->weights_ram_bytes);
  skipped = hr_size_format_gib (e->weights_skipped_bytes);
  if (in_ram && not_loaded)
    /* TRANSLATORS: e.g. "Of the file’s 67.96 GiB, 0.33 GiB stay in system RAM and 1.6 GiB
     * (MTP layers) are not loaded by llama.cpp." */
    return g_strdup_printf (_("Of the file’s %s, %s stay in system RAM and %s (MTP layers) are not loaded by %s."),
                            file, ram, skipped, hr_engine_display_name (s->engine));
  if (not_loaded)
    return g_strdup_printf (_("Of the file’s %s, %s (MTP layers) are not loaded by %s."),
                            file, skipped, hr_engine_display_name (s->engine));
  return g_strdup_printf (_("Of the file’s %s, %s stay in system RAM."), file, ram);
}

static char *
weights_source_kind (const HrScenario *s,
                     const HrEstimate *e)
{
  switch (e->weights.source)
    {
    case HR_WEIGHTS_MEASURED:
      if (e->weights.source_detail != NULL && e->weights.source_detail[0] != '\0')
        /* TRANSLATORS: %s is the catalog's source note, in English (a page or repository name) */
        return g_strdup_printf (_("Weights: measured file size (source: “%s”)"), e->weights.source_detail);
      return g_strdup (_("Weights: measured file size"));
    case HR_WEIGHTS_GGUF:
      return g_strdup (_("Weights: exact tensor bytes from the GGUF header"));
    case HR_WEIGHTS_DERIVED:
      return g_strdup_printf (_("Weights: derived per tensor from the architecture and the %s mix"), s->quant);
    case HR_WEIGHTS_CHECKPOINT:
      return g_strdup (_("Weights: official checkpoint size"));
    case HR_WEIGHTS_UNKNOWN:
    default:
      return g_strdup (_("Weights: source unknown"));
    }
}

static char *
weights_source_text (const HrScenario *s,
                     const HrEstimate *e)
{
  g_autofree char *kind = weights_source_kind (s, e);
  g_autofree char *file = weights_file_text (s, e);

  return file != NULL ? g_strdup_printf ("%s. %s", kind, file) : g_steal_pointer (&kind);
}

/* What the Size state is written from: the scenario, its estimate, and the figures several of
 * its parts show, formatted once. */
typedef struct
{
  const HrScenario *s;
  const HrEstimate *e;
  char *required;
  char *usable;
  char *util;
  char *ram;
  char *tps;
  char *ttft;
} SizeFigures;

static void
size_figures_clear (SizeFigures *f)
{
  g_free (f->required);
  g_free (f->usable);
  g_free (f->util);
  g_free (f->ram);
  g_free (f->tps);
  g_free (f->ttft);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SizeFigures, size_figures_clear)

/* The verdict banner's sentence. */
static char *
verdict_detail (const SizeFigures *f)
{
  g_autofree char *margin = hr_size_format_gib (fabs (f->e->margin_bytes));

  /* unified memory with an offload: the GPU's part fits, the machine cannot hold both parts */
  if (f->e->verdict == HR_VERDICT_EXCEEDS && f->e->machine_bytes > 0 &&
      f->e->required_bytes <= f->e->usable_bytes)
    {
      g_autofree char *ram = hr_size_format_gib (f->e->system_ram_bytes);
      g_autofree char *total = hr_size_format_gib (f->e->required_bytes + f->e->system_ram_bytes);
      g_autofree char *machine = hr_size_format_gib (f->e->machine_bytes);

      return g_strdup_printf (_("The GPU's %s fit in %s usable, but the %s kept in system RAM are in the same memory on this machine: %s in all, %s available."),
                              f->required, f->usable, ram, total, machine);
    }
  switch (f->e->verdict)
    {
    case HR_VERDICT_FITS:
      return g_strdup_printf (_("Needs %s of %s usable, %s to spare (%s of physical memory)."),
                              f->required, f->usable, margin, f->util);
    case HR_VERDICT_TIGHT:
      return g_strdup_printf (_("Needs %s of %s usable (%s of physical memory): above the 92%% comfort line, with little room for longer prompts."),
                              f->required, f->usable, f->util);
    case HR_VERDICT_EXCEEDS:
    default:
      return g_strdup_printf (_("Needs %s but only %s is usable: %s short (%s of physical memory)."),
                              f->required, f->usable, margin, f->util);
    }
}

/* The parts of the required total as the total counts them: the weights on the GPUs and the
 * cache as the devices hold it (replicated under tensor parallelism with MLA). */
static char *
breakdown_text (const SizeFigures *f)
{
  const HrEstimate *e = f->e;
  double projector = e->mmproj_device >= 0 ? e->mmproj_bytes + e->mmproj_encode_bytes : 0;
  g_autofree char *weights = hr_size_format_gib (e->weights_gpu);
  g_autofree char *kv = hr_size_format_gib (MAX (0, e->required_bytes - e->weights_gpu - e->overhead_bytes
                                                  - e->draft_bytes - projector));
  g_autofree char *parts = NULL;
  g_autofree char *over = hr_size_format_gib (e->overhead_bytes);
  int n_holding;

  if (e->draft_bytes > 0)
    {
      g_autofree char *draft = hr_size_format_gib (e->draft_bytes);

      /* TRANSLATORS: speculative decoding's draft model in the parts of the required memory */
      parts = g_strdup_printf (_("%s · Draft model %s"), kv, draft);
    }
  else
    parts = g_strdup (kv);
  /* the vision projector on its device is a part of the sum of its own (#31): it follows the
   * buffers, before the total */
  if (projector > 0)
    {
      g_autofree char *part = hr_size_format_gib (projector);
      char *with = g_strdup_printf ("%s · %s %s", over, _("Vision projector"), part);

      g_free (over);
      over = with;
    }

  if (f->s->gpu->backend == HR_BACKEND_CPU)
    /* TRANSLATORS: the parts of the required memory when the device is the CPU and its RAM */
    return g_strdup_printf (_("Weights %s · KV cache & state %s · Engine & activation buffers %s = %s in system RAM"),
                            weights, parts, over, f->required);
  /* the GPUs that hold something: an integrated GPU the engine leaves out (#31) is not one */
  n_holding = MAX (f->s->n_gpus - f->e->placement.n_left_out, 1);
  if (n_holding > 1)
    {
      g_autofree char *per_gpu = hr_size_format_gib (f->e->per_gpu_required);

      /* the sum is over all the GPUs: say so, and what the fullest one holds */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           /* TRANSLATORS: the parts of the required memory on
                                            * several GPUs, in all and on the fullest one, then
                                            * what stays in system RAM */
                                           "Weights %s · KV cache & state %s · Engine & activation buffers %s = %s on %d GPU in all (%s on the fullest) · System RAM %s",
                                           "Weights %s · KV cache & state %s · Engine & activation buffers %s = %s on %d GPUs in all (%s on the fullest) · System RAM %s",
                                           (gulong) n_holding),
                              weights, parts, over, f->required, n_holding, per_gpu, f->ram);
    }
  /* TRANSLATORS: the parts of the required memory, then what stays in system RAM */
  return g_strdup_printf (_("Weights %s · KV cache & state %s · Engine & activation buffers %s = %s on the GPU · System RAM %s"),
                          weights, parts, over, f->required, f->ram);
}

char *
hr_size_simulator_text (HrSimulatorPhase phase,
                        double           ttft_ms,
                        double           tps,
                        double           elapsed_ms,
                        guint            tokens)
{
  g_autofree char *ttft = hr_format_duration_ms (ttft_ms);
  g_autofree char *rate = hr_size_format_tps (tps);

  switch (phase)
    {
    case HR_SIMULATOR_IDLE:
      /* TRANSLATORS: the speed simulator before a run, e.g. "TTFT ~772 ms · ~40.2 tok/s" */
      return g_strdup_printf (_("TTFT %s · %s"), ttft, rate);
    case HR_SIMULATOR_PROMPT:
      {
        g_autofree char *elapsed = hr_format_duration_ms (elapsed_ms);

        /* TRANSLATORS: the speed simulator while the prompt is processed, e.g.
         * "Processing the prompt… ~350 ms of ~772 ms" */
        return g_strdup_printf (_("Processing the prompt… %s of %s"), elapsed, ttft);
      }
    case HR_SIMULATOR_DONE:
    default:
      {
        g_autofree char *total = hr_format_duration_ms (elapsed_ms);

        /* TRANSLATORS: the speed simulator after a run, e.g.
         * "Done: 256 tokens in ~6.8 s (TTFT ~772 ms, ~40.2 tok/s)" */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Done: %u token in %s (TTFT %s, %s)",
                                             "Done: %u tokens in %s (TTFT %s, %s)", tokens),
                                tokens, total, ttft, rate);
      }
    }
}

/* Where the vision projector is and what it holds (#31); NULL without one. */
static char *
projector_text (const SizeFigures *f)
{
  const HrScenario *s = f->s;
  const HrEstimate *e = f->e;
  g_autofree char *total = NULL, *weights = NULL, *encode = NULL, *where = NULL;
  const HrGpu *gpu;

  if (!(e->mmproj_bytes > 0))
    return NULL;
  total = hr_size_format_gib (e->mmproj_bytes + e->mmproj_encode_bytes);
  weights = hr_size_format_gib (e->mmproj_bytes);
  encode = hr_size_format_gib (e->mmproj_encode_bytes);
  if (e->mmproj_device < 0)
    /* TRANSLATORS: where the vision projector is, "in system RAM" */
    where = g_strdup (_("in system RAM"));
  else
    {
      gpu = e->placement.n_devices > 0 && e->placement.devices[0].gpu != NULL
            ? e->placement.devices[0].gpu : s->gpu;
      /* TRANSLATORS: the device that holds the vision projector: "on GPU 1 · RTX 4090 24GB" */
      where = g_strdup_printf (_("on GPU %d · %s"), e->mmproj_device + 1,
                               gpu->name ? gpu->name : gpu->id);
    }
  if (e->mmproj_encode_bytes > 0)
    /* TRANSLATORS: "Vision projector 0.91 GiB on GPU 1 · RTX 4090: 0.8 GiB weights + 0.11 GiB
     * image-encode buffer" */
    return g_strdup_printf (_("Vision projector %s %s: %s weights + %s image-encode buffer"),
                            total, where, weights, encode);
  /* TRANSLATORS: "Vision projector 0.8 GiB on GPU 1 · RTX 4090: weights (its image-encode buffer is unknown)" */
  return g_strdup_printf (_("Vision projector %s %s: weights (its image-encode buffer is unknown)"),
                          total, where);
}

/* Required memory, usable memory and the margin. */
static void
memory_cards (HrSizeState       *state,
              const SizeFigures *f)
{
  const HrScenario *s = f->s;
  const HrEstimate *e = f->e;
  g_autofree char *gb = hr_size_format_gb (e->required_bytes);
  g_autofree char *phys = hr_size_format_number (s->gpu->memory_gib, 2);
  char *detail, *note = NULL;

  if (s->n_gpus > 1)
    {
      g_autofree char *per = hr_size_format_gib (e->per_gpu_required);
      note = g_strdup_printf (_("%s on the fullest GPU"), per);
    }
  else if (e->system_ram_bytes > 0)
    note = g_strdup_printf (_("plus %s in system RAM"), f->ram);
  /* TRANSLATORS: e.g. "75.12 GB (decimal)" */
  detail = g_strdup_printf (_("%s (decimal)"), gb);
  card_set (&state->cards[HR_SIZE_CARD_REQUIRED], _("Required memory"),
            g_strdup (f->required), detail, note);

  if (hr_gpu_is_unified (s->gpu))
    {
      g_autofree char *share = format_percent (e->usable_bytes / MAX (e->physical_bytes, 1));
      /* the catalog's memory is in GiB, as the chart's "physical" line */
      detail = g_strdup_printf (_("%s of %s GiB unified memory"), share, phys);
    }
  else if (hr_scenario_is_mixed (s))
    {
      /* different GPUs (#31): "24 + 24 GiB physical", "2 × 24 + 12 GiB physical" */
      GString *sum = g_string_new (NULL);

      for (int k = 0; k < s->n_kinds; k++)
        {
          g_autofree char *mem = hr_size_format_number (s->kinds[k].gpu->memory_gib, 2);

          /* an integrated GPU llama.cpp leaves out holds nothing (hr-placement.h) */
          if (e->placement.left_out != NULL && hr_gpu_is_unified (s->kinds[k].gpu))
            continue;
          if (sum->len > 0)
            g_string_append (sum, " + ");
          if (s->kinds[k].count > 1)
            g_string_append_printf (sum, "%d × ", s->kinds[k].count);
          g_string_append (sum, mem);
        }
      detail = g_strdup_printf (_("%s GiB physical"), sum->str);
      g_string_free (sum, TRUE);
    }
  else if (s->n_gpus > 1)
    detail = g_strdup_printf (_("%d × %s GiB physical"), s->n_gpus, phys);
  else
    detail = g_strdup_printf (_("%s GiB physical"), phys);
  card_set (&state->cards[HR_SIZE_CARD_USABLE], _("Usable memory"), g_strdup (f->usable), detail, NULL);

  card_set (&state->cards[HR_SIZE_CARD_MARGIN], _("Margin"),
            hr_size_format_margin (e->margin_bytes),
            /* TRANSLATORS: e.g. "87% utilisation" */
            g_strdup_printf (_("%s utilisation"), f->util), NULL);
}

/* Decode: at the full context window (the scenario's depth) and with an empty context. */
static void
decode_card (HrSizeState       *state,
             const SizeFigures *f)
{
  const HrEstimate *e = f->e;
  g_autofree char *basis = hr_basis_text (&e->decode_basis);
  char *detail, *note;

  if (isfinite (e->decode_tps_low) && isfinite (e->decode_tps_high))
    {
      g_autofree char *lo = hr_size_format_number (e->decode_tps_low, e->decode_tps_low >= 1000 ? 0 : 1);
      g_autofree char *hi = hr_size_format_number (e->decode_tps_high, e->decode_tps_high >= 1000 ? 0 : 1);
      g_autofree char *range = NULL;
      if (f->s->batch > 1 && isfinite (e->aggregate_tps))
        {
          g_autofree char *agg = hr_size_format_number (e->aggregate_tps, 0);
          /* TRANSLATORS: decode range per sequence and the aggregate over all sequences */
          range = g_strdup_printf (_("%s–%s tok/s per sequence, %s tok/s in all"), lo, hi, agg);
        }
      else
        /* TRANSLATORS: the low–high range of the decode estimate */
        range = g_strdup_printf (_("range %s–%s tok/s"), lo, hi);
      note = g_strdup_printf ("%s · %s", range, basis);
    }
  else
    note = g_strdup (basis);
  if (!isfinite (e->decode_tps))
    detail = g_strdup (_("range unknown"));
  else
    {
      g_autofree char *depth = hr_format_context_locale (e->depth);
      g_autofree char *empty = hr_size_format_tps (e->decode_tps_empty);
      if (e->depth >= f->s->context)
        /* TRANSLATORS: under the decode speed at a full context window, e.g.
         * "with the 8K context full · ~172.9 tok/s when empty" */
        detail = g_strdup_printf (_("with the %s context full · %s when empty"), depth, empty);
      else
        /* TRANSLATORS: e.g. "with 4K tokens in context · ~172.9 tok/s when empty" */
        detail = g_strdup_printf (_("with %s tokens in context · %s when empty"), depth, empty);
    }
  if (e->draft_max > 0)
    {
      /* speculative decoding (#31): the expected speed-up and its basis, never a promise */
      g_autofree char *draft = hr_draft_basis_text (e);
      char *with = g_strdup_printf ("%s · %s: %s", note,
                                    f->s->draft_kind == HR_DRAFT_MTP ? _("MTP speculative decoding")
                                    : _("Speculative decoding"), draft);

      g_free (note);
      note = with;
    }
  card_set (&state->cards[HR_SIZE_CARD_DECODE], _("Decode speed"), g_strdup (f->tps), detail, note);
}

static void
prefill_card (HrSizeState       *state,
              const SizeFigures *f)
{
  g_autofree char *prompt = hr_format_context_locale (f->s->prompt_tokens);
  g_autofree char *pf = NULL;

  if (isfinite (f->e->prefill_tps))
    {
      g_autofree char *n = hr_size_format_number (f->e->prefill_tps, 0);
      pf = g_strdup_printf (_("~%s tok/s"), n);
    }
  else
    pf = g_strdup (_("unknown"));
  card_set (&state->cards[HR_SIZE_CARD_PREFILL], _("Prefill speed"), g_steal_pointer (&pf),
            /* TRANSLATORS: time to first token, e.g. "TTFT for a 4K prompt: ~772 ms" */
            g_strdup_printf (_("TTFT for a %s prompt: %s"), prompt, f->ttft),
            hr_basis_text (&f->e->prefill_basis));
}

static void
cost_card (HrSizeState      *state,
           const HrEstimate *e)
{
  HrSizeCard *card = &state->cards[HR_SIZE_CARD_COST];

  if (isfinite (e->cost_per_mtok_usd))
    {
      g_autofree char *hour = hr_size_format_usd (e->offer_usd_per_hour, 2);
      card_set (card, _("Cost per 1M tokens"),
                hr_size_format_usd (e->cost_per_mtok_usd, 2),
                /* TRANSLATORS: the cloud offer a cost is based on, e.g. "Vast.ai · 1x A100 80GB SXM at $0.44/h" */
                g_strdup_printf (_("%s at %s/h"), e->offer_label, hour), NULL);
    }
  else if (e->verdict == HR_VERDICT_EXCEEDS)
    card_set (card, _("Cost per 1M tokens"), g_strdup (DASH),
              g_strdup (_("Does not fit on this hardware")), NULL);
  else if (isfinite (e->suggested_cost_per_mtok_usd))
    {
      g_autofree char *usd = hr_size_format_usd (e->suggested_cost_per_mtok_usd, 2);
      g_autofree char *hour = hr_size_format_usd (e->suggested_usd_per_hour, 2);

      /* the selected hardware has no price; another GPU's offer is only a labelled suggestion */
      card_set (card, _("Cost per 1M tokens"), g_strdup (DASH),
                /* TRANSLATORS: no price for the selected GPU; the suggestion is another GPU's
                 * cloud offer, e.g. "No cloud offer for this GPU · suggestion on another GPU:
                 * $0.45 with RunPod · 1x A100 80GB SXM" */
                g_strdup_printf (_("No cloud offer for this GPU · suggestion on another GPU: %s with %s"),
                                 usd, e->suggested_label),
                /* TRANSLATORS: tooltip of the suggestion, e.g. "RunPod · 1x A100 80GB SXM at $1.19/h, its speed estimated on that GPU" */
                g_strdup_printf (_("%s at %s/h, its speed estimated on that GPU"), e->suggested_label, hour));
    }
  else
    card_set (card, _("Cost per 1M tokens"), g_strdup (DASH),
              g_strdup (_("No cloud offer for this GPU")), NULL);
}

void
hr_size_state_from_estimate (HrSizeState      *state,
                             const HrScenario *s,
                             const HrEstimate *e)
{
  g_auto(SizeFigures) f = { s, e, NULL };

  g_return_if_fail (state != NULL && s != NULL && e != NULL);

  hr_size_state_clear (state);
  state->ok = TRUE;
  state->verdict = e->verdict;
  state->verdict_css = hr_size_verdict_css (e->verdict);
  state->verdict_icon = hr_size_verdict_icon (e->verdict);
  state->verdict_title = g_strdup (hr_verdict_display (e->verdict));
  state->title = scenario_title (s);
  state->subtitle = hr_scenario_summary (s);

  f.required = hr_size_format_gib (e->required_bytes);
  f.usable = hr_size_format_gib (e->usable_bytes);
  f.util = format_percent (e->utilization);
  f.ram = hr_size_format_gib (e->system_ram_bytes);
  f.tps = hr_size_format_tps (e->decode_tps);
  f.ttft = hr_format_duration_ms (e->ttft_ms);
  state->verdict_detail = verdict_detail (&f);
  {
    /* the verdict is of what the engine loads: say so when that is not the quant picked */
    g_autofree char *loads = hr_engine_load_text (&e->load);

    if (loads != NULL)
      {
        char *detail = g_strdup_printf ("%s %s", loads, state->verdict_detail);

        g_free (state->verdict_detail);
        state->verdict_detail = detail;
      }
  }
  state->breakdown = breakdown_text (&f);
  state->projector = projector_text (&f);
  state->weights_source = weights_source_text (s, e);
  memory_cards (state, &f);
  decode_card (state, &f);
  prefill_card (state, &f);
  cost_card (state, e);

  /* Simulator */
  state->simulator_ttft_ms = e->ttft_ms;
  state->simulator_tps = e->decode_tps;
  state->simulator_status = hr_size_simulator_text (HR_SIMULATOR_IDLE, e->ttft_ms, e->decode_tps, 0, 0);
}

static const HrSizeCardId run_cards[] = { HR_SIZE_CARD_DECODE, HR_SIZE_CARD_PREFILL, HR_SIZE_CARD_COST };

void
hr_size_state_apply_fix (HrSizeState *state,
                         const HrFix *fix)
{
  g_auto(HrSizeState) fixed;
  g_autofree char *with = NULL;

  hr_size_state_init (&fixed);
  g_return_if_fail (state != NULL);

  if (!state->ok || state->verdict != HR_VERDICT_EXCEEDS)
    return;
  if (fix == NULL || fix->kind == HR_FIX_NONE)
    {
      for (guint i = 0; i < G_N_ELEMENTS (run_cards); i++)
        {
          HrSizeCard *c = &state->cards[run_cards[i]];
          g_autofree char *caption = g_strdup (c->caption);

          card_set (c, caption, g_strdup (DASH),
                    g_strdup (_("Does not run: it does not fit, and no suggested change makes it fit")), NULL);
          c->not_this_setup = TRUE;
        }
      state->simulator_ttft_ms = NAN;
      state->simulator_tps = NAN;
      g_free (state->simulator_status);
      state->simulator_status = g_strdup (_("Nothing to simulate: this setup does not fit."));
      state->simulator_note = g_strdup (_("Nothing to simulate: this setup does not fit."));
      return;
    }

  /* the same cards, worded for the fixed scenario, each detail saying so */
  hr_size_state_from_estimate (&fixed, &fix->scenario, &fix->estimate);
  /* TRANSLATORS: a figure computed with the first suggested fix applied, e.g.
   * "With the suggested fix (use 2 GPUs)" */
  with = g_strdup_printf (_("With the suggested fix (%s)"), fix->label);
  for (guint i = 0; i < G_N_ELEMENTS (run_cards); i++)
    {
      HrSizeCard *c = &state->cards[run_cards[i]];
      HrSizeCard *f = &fixed.cards[run_cards[i]];

      card_set (c, f->caption, g_steal_pointer (&f->value),
                f->detail != NULL && f->detail[0] != '\0' ? g_strdup_printf ("%s: %s", with, f->detail)
                                                          : g_strdup (with),
                g_steal_pointer (&f->note));
      c->not_this_setup = TRUE;
    }
  state->simulator_ttft_ms = fixed.simulator_ttft_ms;
  state->simulator_tps = fixed.simulator_tps;
  g_free (state->simulator_status);
  state->simulator_status = g_strdup_printf ("%s: %s", with, fixed.simulator_status);
  /* TRANSLATORS: the speed simulator of a setup that does not fit, e.g. "This setup does not
   * fit; simulated with the suggested fix (use 2 GPUs)." */
  state->simulator_note = g_strdup_printf (_("This setup does not fit; simulated with the suggested fix (%s)."),
                                           fix->label);
}

void
hr_size_state_from_error (HrSizeState      *state,
                          const HrScenario *s,
                          const GError     *error)
{
  g_return_if_fail (state != NULL);

  hr_size_state_clear (state);
  state->ok = FALSE;
  state->verdict = HR_VERDICT_EXCEEDS;
  state->verdict_css = "verdict-error";
  state->verdict_icon = "dialog-error-symbolic";
  state->verdict_title = g_strdup (_("Cannot size this scenario"));
  state->verdict_detail = g_strdup (error && error->message ? error->message : _("Unknown error"));
  state->title = s && s->model && s->gpu ? scenario_title (s) : g_strdup ("");
  state->subtitle = s && s->model ? hr_scenario_summary (s) : g_strdup ("");
  state->breakdown = g_strdup ("");
  state->weights_source = g_strdup ("");
  card_set (&state->cards[HR_SIZE_CARD_REQUIRED], _("Required memory"), g_strdup (DASH), g_strdup (""), NULL);
  card_set (&state->cards[HR_SIZE_CARD_USABLE], _("Usable memory"), g_strdup (DASH), g_strdup (""), NULL);
  card_set (&state->cards[HR_SIZE_CARD_MARGIN], _("Margin"), g_strdup (DASH), g_strdup (""), NULL);
  card_set (&state->cards[HR_SIZE_CARD_DECODE], _("Decode speed"), g_strdup (DASH), g_strdup (""), NULL);
  card_set (&state->cards[HR_SIZE_CARD_PREFILL], _("Prefill speed"), g_strdup (DASH), g_strdup (""), NULL);
  card_set (&state->cards[HR_SIZE_CARD_COST], _("Cost per 1M tokens"), g_strdup (DASH), g_strdup (""), NULL);
  state->simulator_status = g_strdup (_("Nothing to simulate"));
}

/* Advice ------------------------------------------------------------------------------- */

void
hr_matrix_row_state_free (HrMatrixRowState *row)
{
  if (row == NULL)
    return;
  g_free (row->quant);
  g_free (row->label);
  g_free (row->weights);
  g_free (row->kv);
  g_free (row->total);
  g_free (row->total_gb);
  g_free (row->decode);
  g_free (row->verdict_text);
  g_free (row->smallest);
  g_free (row->smallest_id);
  g_free (row->source);
  g_free (row);
}

static const char *
source_display (HrWeightsSource source)
{
  switch (source)
    {
    case HR_WEIGHTS_MEASURED:
      return _("Measured");
    case HR_WEIGHTS_GGUF:
      return _("GGUF header");
    case HR_WEIGHTS_DERIVED:
      return _("Derived");
    case HR_WEIGHTS_CHECKPOINT:
      return _("Checkpoint");
    case HR_WEIGHTS_UNKNOWN:
    default:
      return _("Unknown");
    }
}

static char *
pick_name (const HrGpu *gpu,
           int          count)
{
  if (count > 1)
    /* TRANSLATORS: several of one GPU, e.g. "2× A100 80GB SXM" */
    return g_strdup_printf (_("%d× %s"), count, gpu->name);
  return g_strdup (gpu->name);
}

static HrMatrixRowState *
matrix_row_state (const HrMatrixRow *row,
                  const char        *current)
{
  HrMatrixRowState *st = g_new0 (HrMatrixRowState, 1);
  const HrEstimate *e = &row->estimate;

  st->quant = g_strdup (row->quant->id);
  st->label = g_strdup (row->quant->label ? row->quant->label : "");
  /* what the total counts, so a row's total is never below its weights (the file size is
   * in the source column when it differs) */
  st->weights = hr_size_format_gib (e->weights_gpu);
  /* the KV cache alone: a speculative draft and a vision projector on the GPU (#31) are in the
   * total, not here */
  st->kv = hr_size_format_gib (MAX (0, e->required_bytes - e->weights_gpu - e->overhead_bytes
                                       - e->draft_bytes
                                       - (e->mmproj_device >= 0
                                          ? e->mmproj_bytes + e->mmproj_encode_bytes : 0)));
  st->total = hr_size_format_gib (e->required_bytes);
  st->total_gb = hr_size_format_gb (e->required_bytes);
  st->decode = hr_size_format_tps (e->decode_tps);
  st->verdict = e->verdict;
  st->verdict_text = g_strdup (hr_verdict_display (e->verdict));
  st->verdict_css = hr_size_verdict_css (e->verdict);
  st->verdict_icon = hr_size_verdict_icon (e->verdict);
  if (row->smallest.count > 0 && row->smallest.gpu != NULL)
    {
      st->smallest = pick_name (row->smallest.gpu, row->smallest.count);
      st->smallest_id = g_strdup (row->smallest.gpu->id);
    }
  else
    st->smallest = g_strdup (_("None in the catalog"));
  if (fabs (e->weights.bytes - e->weights_gpu) >= 0.005 * HR_GIB)
    {
      g_autofree char *file = hr_size_format_gib (e->weights.bytes);
      /* TRANSLATORS: where a weight size comes from and the file's size, e.g. "Measured, 67.96 GiB file" */
      st->source = g_strdup_printf (_("%s, %s file"), source_display (e->weights.source), file);
    }
  else
    st->source = g_strdup (source_display (e->weights.source));
  st->current = current != NULL && g_ascii_strcasecmp (current, row->quant->id) == 0;
  return st;
}

static void
reverse_state (HrAdviceState    *st,
               const HrScenario *s,
               const HrReverse  *reverse)
{
  gint64 max_ctx = reverse->max_context;
  const HrQuantMix *best = reverse->best_quant;
  int min_gpus = reverse->min_gpus;
  HrReverseState *r;

  r = &st->reverse[HR_REVERSE_CONTEXT];
  r->title = g_strdup (_("Longest context that fits"));
  r->context = max_ctx;
  if (max_ctx <= 0)
    r->value = g_strdup (_("None: not even the shortest context fits"));
  else
    {
      g_autofree char *c = hr_size_format_context (max_ctx);
      if (s->model->max_context > 0 && max_ctx >= s->model->max_context)
        r->value = g_strdup_printf (_("%s, the model’s maximum"), c);
      else
        r->value = g_steal_pointer (&c);
    }
  r->applicable = max_ctx > 0 && max_ctx != s->context;

  r = &st->reverse[HR_REVERSE_QUANT];
  r->title = g_strdup (_("Best quantization that fits"));
  if (best != NULL)
    {
      g_strlcpy (r->quant, best->id, sizeof r->quant);
      r->value = best->label ? g_strdup_printf ("%s — %s", best->id, best->label) : g_strdup (best->id);
      r->applicable = g_ascii_strcasecmp (best->id, s->quant) != 0;
    }
  else
    r->value = g_strdup (_("None: no quantization fits"));

  r = &st->reverse[HR_REVERSE_GPUS];
  r->title = g_strdup (_("Fewest GPUs that fit"));
  r->gpus = min_gpus;
  if (min_gpus > 0)
    {
      r->value = pick_name (s->gpu, min_gpus);
      r->applicable = min_gpus != s->n_gpus;
    }
  else
    r->value = g_strdup (_("None: more than 64 would be needed"));
}

static void
pick_state (HrPickState  *p,
            const char   *title,
            const HrPick *pick,
            gboolean      have,
            const char   *none)
{
  g_autoptr(GString) detail = g_string_new (NULL);

  p->title = g_strdup (title);
  if (!have || pick->gpu == NULL)
    {
      p->value = g_strdup (none);
      p->detail = g_strdup ("");
      return;
    }
  p->value = pick_name (pick->gpu, pick->count);
  p->gpu_id = g_strdup (pick->gpu->id);
  p->count = pick->count;
  {
    g_autofree char *mem = hr_size_format_number (pick->gpu->memory_gib * pick->count, 0);
    g_autofree char *tps = hr_size_format_tps (pick->decode_tps);
    if (hr_gpu_is_unified (pick->gpu))
      g_string_append_printf (detail, _("%s GB unified"), mem);
    else
      g_string_append_printf (detail, _("%s GB"), mem);
    if (isfinite (pick->price_usd))
      {
        g_autofree char *usd = hr_size_format_usd (pick->price_usd, 0);
        g_string_append_printf (detail, " · ~%s", usd);
        if (pick->gpu->used_market)
          g_string_append_printf (detail, " %s", _("(used)"));
      }
    g_string_append_printf (detail, " · %s", tps);
  }
  p->detail = g_string_free (g_steal_pointer (&detail), FALSE);
}

HrAdviceState *
hr_advice_state_compute (const HrScenario *scenario,
                         const HrCatalog  *catalog,
                         const HrPricing  *pricing)
{
  HrAdviceState *st = g_new0 (HrAdviceState, 1);
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GArray) rows = NULL;
  HrRecommendations rec;
  HrEstimate e;

  g_return_val_if_fail (scenario != NULL && catalog != NULL, st);

  st->matrix = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_matrix_row_state_free);
  st->diagnosis = g_ptr_array_new_with_free_func (g_free);
  st->launch = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_launch_command_free);

  rows = hr_advice_quant_matrix (scenario, catalog, pricing);
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (st->matrix, matrix_row_state (&g_array_index (rows, HrMatrixRow, i), scenario->quant));

  if (hr_estimate_compute (scenario, pricing, &e, NULL))
    {
      g_autoptr(GPtrArray) diag = NULL;
      g_autoptr(GPtrArray) launch = NULL;
      HrReverse reverse;

      /* computed once for the cards and the diagnosis's suggestions */
      hr_advice_reverse (scenario, catalog, &reverse);
      diag = hr_advice_diagnosis_with (scenario, &e, &reverse);
      /* a model opened from a local GGUF file is launched from that file */
      launch = hr_launch_commands_for_file (scenario, &e, scenario->model->gguf_path);

      for (guint i = 0; i < diag->len; i++)
        g_ptr_array_add (st->diagnosis, g_strdup (g_ptr_array_index (diag, i)));
      /* take the commands over from the core's array */
      g_ptr_array_set_free_func (launch, NULL);
      for (guint i = 0; i < launch->len; i++)
        g_ptr_array_add (st->launch, g_ptr_array_index (launch, i));

      reverse_state (st, scenario, &reverse);
    }
  else
    {
      /* not sized (vLLM on different GPUs, #31): no answer to contradict the banner's reason */
      reverse_state (st, scenario, &(HrReverse) { 0 });
      for (int i = 0; i < HR_N_REVERSE; i++)
        {
          g_free (st->reverse[i].value);
          st->reverse[i].value = g_strdup (_("Not sized: the verdict above says why"));
          st->reverse[i].applicable = FALSE;
        }
    }

  hr_advice_recommend (scenario, catalog, pricing, &rec);
  pick_state (&st->picks[HR_PICK_SINGLE], _("Best single GPU"), &rec.best_single, rec.have_single,
              _("No single GPU fits with margin"));
  pick_state (&st->picks[HR_PICK_VALUE], _("Best value (incl. multi-GPU and used)"), &rec.best_value,
              rec.have_value, _("Nothing with a known price fits"));
  pick_state (&st->picks[HR_PICK_UNIFIED], _("Cheapest unified-memory machine"), &rec.unified,
              rec.have_unified, _("No unified-memory machine fits"));

  {
    HrPickState *p = &st->picks[HR_PICK_CLOUD];
    p->title = g_strdup (_("Cheapest cloud offer"));
    if (rec.cloud != NULL)
      {
        const HrOffer *o = rec.cloud;
        g_autofree char *hour = hr_size_format_usd (o->usd_per_hour, 2);
        g_autofree char *vram = hr_size_format_number (o->vram_gb, 0);
        /* TRANSLATORS: a cloud offer, e.g. "Vast.ai · $0.44/h" */
        p->value = g_strdup_printf (_("%s · %s/h"), o->provider, hour);
        p->detail = g_strdup_printf (_("%dx %s · %s GB in all"), o->count, o->gpu, vram);
        if (o->gpu_id != NULL && hr_catalog_find_gpu (catalog, o->gpu_id) != NULL)
          {
            p->gpu_id = g_strdup (o->gpu_id);
            p->count = o->count;
          }
      }
    else
      {
        p->value = g_strdup (_("No cloud offer fits"));
        p->detail = g_strdup ("");
      }
  }

  st->elapsed_ms = (g_get_monotonic_time () - start) / 1000.0;
  return st;
}

void
hr_advice_state_free (HrAdviceState *state)
{
  if (state == NULL)
    return;
  g_clear_pointer (&state->matrix, g_ptr_array_unref);
  g_clear_pointer (&state->diagnosis, g_ptr_array_unref);
  g_clear_pointer (&state->launch, g_ptr_array_unref);
  for (guint i = 0; i < HR_N_REVERSE; i++)
    {
      g_free (state->reverse[i].title);
      g_free (state->reverse[i].value);
    }
  for (guint i = 0; i < HR_N_PICKS; i++)
    {
      g_free (state->picks[i].title);
      g_free (state->picks[i].value);
      g_free (state->picks[i].detail);
      g_free (state->picks[i].gpu_id);
    }
  g_free (state);
}
