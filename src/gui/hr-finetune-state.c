/* hr-finetune-state.c — fine-tuning memory worded for the screen, testable without a display */
#include "hr-finetune-state.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-estimate.h"
#include "hr-report.h"
#include "hr-scenario-state.h"
#include "hr-units.h"

#define FIT_MAX_GPUS 8

G_STATIC_ASSERT (HR_FT_FULL + 1 == HR_FT_N_METHODS);
G_STATIC_ASSERT (HR_OPT_SGD + 1 == HR_FT_N_OPTIMIZERS);
G_STATIC_ASSERT (HR_SHARD_ZERO3 + 1 == HR_FT_N_SHARDINGS);

const char *
hr_ft_method_display (HrFtMethod method)
{
  switch (method)
    {
    case HR_FT_QLORA: return _("QLoRA (4-bit)");
    case HR_FT_LORA: return _("LoRA (16-bit)");
    case HR_FT_FULL: return _("Full fine-tuning");
    default: return "";
    }
}

const char *
hr_ft_row_title (HrFtRowId row)
{
  switch (row)
    {
    case HR_FT_ROW_WEIGHTS: return _("Weights");
    case HR_FT_ROW_GRADIENTS: return _("Gradients");
    case HR_FT_ROW_OPTIMIZER: return _("Optimizer states");
    case HR_FT_ROW_ACTIVATIONS: return _("Activations");
    case HR_FT_ROW_BUFFERS: return _("Buffers");
    case HR_FT_ROW_TOTAL: return _("Total per GPU");
    case HR_FT_N_ROWS:
    default:
      return "";
    }
}

const char *
hr_optimizer_display (HrOptimizer optimizer)
{
  switch (optimizer)
    {
    case HR_OPT_ADAMW: return _("AdamW");
    case HR_OPT_ADAMW_8BIT: return _("8-bit AdamW");
    case HR_OPT_SGD: return _("SGD with momentum");
    default: return "";
    }
}

const char *
hr_sharding_display (HrSharding sharding)
{
  switch (sharding)
    {
    case HR_SHARD_NONE: return _("None (data parallel)");
    case HR_SHARD_ZERO2: return _("ZeRO-2");
    case HR_SHARD_ZERO3: return _("ZeRO-3 / FSDP");
    default: return "";
    }
}

static void
method_clear (HrFtMethodState *m)
{
  g_clear_pointer (&m->error, g_free);
  for (guint i = 0; i < HR_FT_N_ROWS; i++)
    g_clear_pointer (&m->cells[i], g_free);
  g_clear_pointer (&m->trainable, g_free);
  g_clear_pointer (&m->verdict_text, g_free);
  g_clear_pointer (&m->smallest, g_free);
  g_clear_pointer (&m->smallest_detail, g_free);
  memset (m, 0, sizeof *m);
}

void
hr_ft_state_init (HrFtState *state)
{
  g_return_if_fail (state != NULL);
  memset (state, 0, sizeof *state);
}

void
hr_ft_state_clear (HrFtState *state)
{
  g_return_if_fail (state != NULL);

  for (guint i = 0; i < HR_FT_N_METHODS; i++)
    method_clear (&state->methods[i]);
  g_clear_pointer (&state->title, g_free);
  g_clear_pointer (&state->subtitle, g_free);
  g_clear_pointer (&state->verdict_title, g_free);
  g_clear_pointer (&state->verdict_detail, g_free);
  g_clear_pointer (&state->usable, g_free);
  memset (state, 0, sizeof *state);
}

static char *
gpu_name (const HrGpu *gpu,
          int          count)
{
  if (count > 1)
    /* TRANSLATORS: several of one GPU, e.g. "2× A100 80GB SXM" */
    return g_strdup_printf (_("%d× %s"), count, gpu->name);
  return g_strdup (gpu->name);
}

static void
method_compute (HrFtMethodState    *m,
                const HrFtScenario *ft,
                HrFtMethod          method,
                const HrGpu        *gpu,
                const HrCatalog    *catalog,
                double              reserve,
                double              unified_share)
{
  g_autoptr(GError) error = NULL;
  const HrFtEstimate *e = &m->estimate;
  double rows[HR_FT_N_ROWS];

  method_clear (m);
  m->ft = *ft;
  m->ft.method = method;
  m->ok = hr_finetune_compute (&m->ft, &m->estimate, &error);
  if (!m->ok)
    {
      m->error = g_strdup (error->message);
      for (guint i = 0; i < HR_FT_N_ROWS; i++)
        m->cells[i] = g_strdup ("—");
      m->verdict = HR_VERDICT_EXCEEDS;
      m->verdict_css = "verdict-error";
      m->verdict_icon = "dialog-error-symbolic";
      m->verdict_text = g_strdup (_("Could not compute"));
      m->smallest = g_strdup ("—");
      return;
    }

  rows[HR_FT_ROW_WEIGHTS] = e->weights_bytes;
  rows[HR_FT_ROW_GRADIENTS] = e->gradients_bytes;
  rows[HR_FT_ROW_OPTIMIZER] = e->optimizer_bytes;
  rows[HR_FT_ROW_ACTIVATIONS] = e->activations_bytes;
  rows[HR_FT_ROW_BUFFERS] = e->buffers_bytes;
  rows[HR_FT_ROW_TOTAL] = e->total_bytes;
  for (guint i = 0; i < HR_FT_N_ROWS; i++)
    m->cells[i] = hr_size_format_gib (rows[i]);

  {
    g_autofree char *n = hr_size_format_params (e->trainable_params);
    g_autofree char *pct = hr_size_format_number (e->trainable_params / ft->model->total_params * 100,
                                                  method == HR_FT_FULL ? 0 : 2);
    /* TRANSLATORS: e.g. "44.26 M trainable parameters (0.04%)" */
    m->trainable = g_strdup_printf (_("%s trainable parameters (%s%%)"), n, pct);
  }

  if (gpu != NULL)
    {
      m->verdict = hr_finetune_verdict (e, gpu, reserve, unified_share);
      m->verdict_css = hr_size_verdict_css (m->verdict);
      m->verdict_icon = hr_size_verdict_icon (m->verdict);
      m->verdict_text = g_strdup (hr_verdict_display (m->verdict));
    }
  else
    {
      m->verdict = HR_VERDICT_EXCEEDS;
      m->verdict_css = "verdict-error";
      m->verdict_icon = "dialog-question-symbolic";
      m->verdict_text = g_strdup (_("No GPU chosen"));
    }

  if (catalog != NULL && hr_finetune_smallest_fit (&m->ft, catalog, FIT_MAX_GPUS, reserve, unified_share, &m->fit))
    {
      g_autofree char *need = hr_size_format_number (hr_to_gib (m->fit.estimate.total_bytes), 2);
      g_autofree char *usable = hr_size_format_number (hr_to_gib (hr_finetune_usable_bytes (m->fit.gpu, reserve,
                                                                                           unified_share)), 2);

      m->smallest = gpu_name (m->fit.gpu, m->fit.count);
      if (m->fit.count > 1)
        /* TRANSLATORS: e.g. "201.5 of 243.2 GiB usable per GPU · ZeRO-3 / FSDP" */
        m->smallest_detail = g_strdup_printf (_("%s of %s GiB usable per GPU · %s"), need, usable,
                                              hr_sharding_display (m->fit.sharding));
      else
        /* TRANSLATORS: e.g. "58.62 of 60.8 GiB usable" */
        m->smallest_detail = g_strdup_printf (_("%s of %s GiB usable"), need, usable);
    }
  else if (catalog != NULL)
    {
      m->smallest = g_strdup_printf (_("None up to %d GPUs"), FIT_MAX_GPUS);
      m->smallest_detail = g_strdup (_("Shard across more GPUs or lower the sequence length"));
    }
  else
    m->smallest = g_strdup ("—");
}

static char *
settings_subtitle (const HrFtScenario *ft)
{
  GString *out = g_string_new (NULL);

  /* TRANSLATORS: part of the fine-tuning summary, e.g. "sequence 2048 · micro-batch 1" */
  g_string_append_printf (out, _("sequence %d · micro-batch %d"), ft->seq_len, ft->micro_batch);
  g_string_append_printf (out, " · %s", hr_optimizer_display (ft->optimizer));
  if (ft->method != HR_FT_FULL)
    {
      g_string_append (out, " · ");
      /* TRANSLATORS: e.g. "rank 16, all linear layers" */
      g_string_append_printf (out, ft->lora_all_linear ? _("rank %d, all linear layers") : _("rank %d, attention q and v"),
                              ft->lora_rank);
    }
  if (ft->grad_checkpointing)
    g_string_append_printf (out, " · %s", _("gradient checkpointing"));
  if (ft->flash_attention)
    g_string_append_printf (out, " · %s", _("flash attention"));
  g_string_append (out, " · ");
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%d GPU", "%d GPUs", ft->n_gpus), ft->n_gpus);
  if (ft->n_gpus > 1)
    /* "2 GPUs (data parallel)": the sharding's short name, never "(None (data parallel))" */
    g_string_append_printf (out, " (%s)", ft->sharding == HR_SHARD_NONE ? _("data parallel")
                                                                        : hr_sharding_display (ft->sharding));
  return g_string_free (out, FALSE);
}

void
hr_ft_state_compute (HrFtState          *st,
                     const HrFtScenario *ft,
                     const HrGpu        *gpu,
                     const HrCatalog    *catalog,
                     double              reserve,
                     double              unified_share)
{
  const HrFtMethodState *chosen;
  g_autofree char *on = NULL;

  g_return_if_fail (st != NULL);
  g_return_if_fail (ft != NULL && ft->model != NULL);

  hr_ft_state_clear (st);
  st->ft = *ft;
  st->gpu = gpu;
  st->reserve = reserve;
  st->unified_share = unified_share;
  for (int i = 0; i < HR_FT_N_METHODS; i++)
    method_compute (&st->methods[i], ft, (HrFtMethod) i, gpu, catalog, reserve, unified_share);

  chosen = &st->methods[ft->method];
  st->ok = chosen->ok;
  /* TRANSLATORS: "GLM-4.5-Air (110B-A12B) · QLoRA (4-bit)" */
  st->title = g_strdup_printf (_("%s · %s"), ft->model->name ? ft->model->name : ft->model->id,
                               hr_ft_method_display (ft->method));
  st->subtitle = settings_subtitle (ft);
  st->formula = hr_finetune_formula_text (ft->method);
  st->verdict = chosen->verdict;
  st->verdict_css = chosen->verdict_css;
  st->verdict_icon = chosen->verdict_icon;

  if (!chosen->ok)
    {
      st->verdict_title = g_strdup (_("Could not compute"));
      st->verdict_detail = g_strdup (chosen->error);
      return;
    }
  if (gpu == NULL)
    {
      st->verdict_title = g_strdup (_("No GPU chosen"));
      st->verdict_detail = g_strdup (_("Choose a GPU to check the run against."));
      return;
    }

  on = gpu_name (gpu, ft->n_gpus);
  /* TRANSLATORS: the verdict on a GPU, e.g. "Fits with margin on RTX PRO 6000 Blackwell 96GB" */
  st->verdict_title = g_strdup_printf (_("%s on %s"), hr_verdict_display (chosen->verdict), on);
  {
    double usable_bytes = hr_finetune_usable_bytes (gpu, reserve, unified_share);
    double margin = usable_bytes - chosen->estimate.total_bytes;
    g_autofree char *need = hr_size_format_gib (chosen->estimate.total_bytes);
    g_autofree char *usable = hr_size_format_gib (usable_bytes);
    g_autofree char *spare = hr_size_format_gib (fabs (margin));

    st->usable = g_strdup_printf (_("%s usable per GPU"), usable);
    switch (chosen->verdict)
      {
      case HR_VERDICT_FITS:
        st->verdict_detail = g_strdup_printf (_("Needs %s per GPU of %s usable, %s to spare."), need, usable, spare);
        break;
      case HR_VERDICT_TIGHT:
        st->verdict_detail = g_strdup_printf (_("Needs %s per GPU of %s usable: above the 92%% comfort line, "
                                                "with no room for longer sequences or bigger batches."), need, usable);
        break;
      case HR_VERDICT_EXCEEDS:
      default:
        st->verdict_detail = g_strdup_printf (_("Needs %s per GPU but only %s is usable: %s short."), need, usable, spare);
        break;
      }
  }
}

char *
hr_ft_state_json (const HrFtState *st)
{
  const HrFtMethodState *m;

  g_return_val_if_fail (st != NULL, NULL);

  m = &st->methods[st->ft.method];
  if (!m->ok)
    return NULL;
  return hr_report_finetune_json (&m->ft, &m->estimate, st->gpu, st->reserve, st->unified_share);
}
