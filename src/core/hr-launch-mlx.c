/* hr-launch-mlx.c — the launch builder of MLX: `mlx_lm.server --model mlx-community/… --max-kv-size` */
#include "hr-launch-private.h"

#include <glib/gi18n-lib.h>

#define MLX_PORT "8080"

/* mlx-community names conversions "{name}-{bits}bit" (or -bf16). */
static const char *
mlx_suffix (const char *quant)
{
  const char *q = quant;

  switch (hr_quant_format (quant))
    {
    case HR_QUANT_FORMAT_FLOAT:
      return "bf16";
    case HR_QUANT_FORMAT_FP8:
    case HR_QUANT_FORMAT_INT8:
      return "8bit";
    case HR_QUANT_FORMAT_INT4:
    case HR_QUANT_FORMAT_MXFP4:
    case HR_QUANT_FORMAT_NVFP4:
      return "4bit";
    case HR_QUANT_FORMAT_GGUF:
    default:
      break;
    }

  if (hr_launch_has_prefix_ci (q, "UD-"))
    q += 3;
  if (q[0] == 'I' || q[0] == 'i' || q[0] == 'T' || q[0] == 't')
    q++;
  if ((q[0] == 'Q' || q[0] == 'q') && g_ascii_isdigit (q[1]))
    {
      switch (q[1])
        {
        case '1':
        case '2':
          return "2bit";
        case '3':
          return "3bit";
        case '4':
          return "4bit";
        case '5':
          return "5bit";
        case '6':
          return "6bit";
        default:
          return "8bit";
        }
    }
  return "4bit";
}

static HrLaunchCommand *
mlx_command (const HrLaunchCtx *c)
{
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autofree char *repo = g_strdup_printf ("mlx-community/%s-%s",
                                           hr_launch_model_short_name (c->model), mlx_suffix (c->quant));
  HrShell sh;

  hr_sh_init (&sh);
  hr_sh_raw (&sh, "mlx_lm.server");
  hr_sh_opt (&sh, "--model", repo);
  hr_sh_break (&sh);
  /* mlx-lm cannot combine a bounded (rotating) cache with a quantized one. */
  switch (c->sc->kv_type)
    {
    case HR_KV_Q4_0:
      hr_sh_raw (&sh, "--kv-bits 4");
      break;
    case HR_KV_Q8_0:
    case HR_KV_FP8:
      hr_sh_raw (&sh, "--kv-bits 8");
      break;
    case HR_KV_F16:
    default:
      hr_sh_rawf (&sh, "--max-kv-size %" G_GINT64_FORMAT, c->context);
      break;
    }
  hr_sh_raw (&sh, "--port " MLX_PORT);

  hr_launch_note_add (notes, _("mlx-community publishes conversions as “%s”: check the exact repo "
                     "name, and that it exists for this model."), repo);
  if (hr_launch_kv_quantized (c->sc->kv_type))
    hr_launch_note_add (notes, _("With a quantized KV cache mlx-lm does not take --max-kv-size; the "
                       "context is then bounded by the requests."));
  else
    hr_launch_note_add (notes, _("--max-kv-size bounds each sequence’s cache; older tokens rotate out "
                       "beyond it."));
  if (c->sc->draft_kind != HR_DRAFT_NONE)
    hr_launch_note_add (notes, _("Speculative decoding is sized for llama.cpp, vLLM and SGLang only: "
                                 "this command decodes without the draft."));
  hr_launch_note_common (c, notes);

  return hr_launch_command_new (HR_ENGINE_MLX, _("MLX (mlx-lm)"), hr_sh_free (&sh), notes);
}

/* ---- builder ------------------------------------------------------------------------------- */

/* MLX runs on Apple GPUs only, on one machine. */
HrLaunchCommand *
hr_launch_mlx (const HrLaunchCtx    *c,
               const HrParallelPlan *plan)
{
  if (plan != NULL || c->backend != HR_BACKEND_METAL)
    return NULL;
  return mlx_command (c);
}
