/* hr-import-state.c — bringing your own model and GPU, without a display */
#include "hr-hub-id.h"
#include "hr-import-state.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "hr-estimate.h"
#include "hr-projector.h"
#include "hr-units.h"
#include "hr-userdata.h"

/* The catalog parser's limits (hr-catalog.c), so whatever the form accepts can be saved. */
#define MAX_NAME_CHARS   128
#define MAX_MEMORY_GIB   65536.0
#define MAX_BANDWIDTH    1.0e6
#define MAX_TFLOPS       1.0e6
#define MAX_POWER_W      1.0e5
#define MAX_PRICE_USD    1.0e9
#define MIN_SHARE_PCT    10.0

typedef struct
{
  const char *title;
  gboolean optional;
  double max;
} FieldInfo;

static const FieldInfo fields[HR_GPU_N_FIELDS] = {
  [HR_GPU_FIELD_NAME]      = { N_("Name"), FALSE, 0 },
  [HR_GPU_FIELD_MEMORY]    = { N_("Memory (GiB)"), FALSE, MAX_MEMORY_GIB },
  [HR_GPU_FIELD_BANDWIDTH] = { N_("Memory bandwidth (GB/s)"), FALSE, MAX_BANDWIDTH },
  [HR_GPU_FIELD_TFLOPS]    = { N_("Dense FP16 TFLOPS"), FALSE, MAX_TFLOPS },
  [HR_GPU_FIELD_POWER]     = { N_("Board power (W)"), TRUE, MAX_POWER_W },
  [HR_GPU_FIELD_PRICE]     = { N_("Price (USD)"), TRUE, MAX_PRICE_USD },
  [HR_GPU_FIELD_SHARE]     = { N_("GPU share of memory (%)"), TRUE, 100 },
};

/* Numbers ------------------------------------------------------------------------------------ */

gboolean
hr_import_parse_number (const char *text,
                        double     *value)
{
  g_autofree char *copy = NULL;
  const char *point = localeconv ()->decimal_point;
  char *end = NULL;
  double v;

  g_return_val_if_fail (value != NULL, FALSE);

  *value = NAN;
  if (text == NULL)
    return FALSE;
  copy = g_strstrip (g_strdup (text));
  if (*copy == '\0')
    return FALSE;
  /* the locale's decimal comma too; never a thousands separator */
  if (point != NULL && strcmp (point, ",") == 0)
    g_strdelimit (copy, ",", '.');
  for (const char *p = copy; *p; p++)
    if (!g_ascii_isdigit (*p) && strchr (".eE+-", *p) == NULL)
      return FALSE;
  v = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

/* %g writes the locale's decimal point, which hr_import_parse_number() reads back. */
static char *
format_number (double value)
{
  if (!isfinite (value))
    return g_strdup ("");
  return g_strdup_printf ("%.6g", value);
}

/* The form ---------------------------------------------------------------------------------- */

const char *
hr_gpu_field_title (HrGpuField field)
{
  g_return_val_if_fail ((guint) field < HR_GPU_N_FIELDS, NULL);
  return _(fields[field].title);
}

gboolean
hr_gpu_field_is_optional (HrGpuField field)
{
  g_return_val_if_fail ((guint) field < HR_GPU_N_FIELDS, FALSE);
  return fields[field].optional;
}

void
hr_gpu_form_state_init (HrGpuFormState *state)
{
  memset (state, 0, sizeof *state);
  for (guint i = 0; i < HR_GPU_N_FIELDS; i++)
    state->value[i] = NAN;
}

void
hr_gpu_form_state_clear (HrGpuFormState *state)
{
  for (guint i = 0; i < HR_GPU_N_FIELDS; i++)
    g_clear_pointer (&state->error[i], g_free);
  state->valid = FALSE;
}

gboolean
hr_import_gpu_is_yours (const HrGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, FALSE);
  return gpu->user_defined || hr_userdata_is_user_id (gpu->id);
}

gboolean
hr_import_model_is_yours (const HrModel *model)
{
  g_return_val_if_fail (model != NULL, FALSE);
  return hr_userdata_is_user_id (model->id) || model->origin != HR_MODEL_ORIGIN_CATALOG;
}

static gboolean
same_id (const char *a,
         const char *b)
{
  if (a == NULL || b == NULL)
    return FALSE;
  if (g_str_has_prefix (a, HR_USERDATA_ID_PREFIX))
    a += strlen (HR_USERDATA_ID_PREFIX);
  if (g_str_has_prefix (b, HR_USERDATA_ID_PREFIX))
    b += strlen (HR_USERDATA_ID_PREFIX);
  return strcmp (a, b) == 0;
}

/* Another GPU of the user's already has @name (case-folded, trimmed). */
static const HrGpu *
find_named (const HrCatalog *catalog,
            const char      *name,
            const char      *editing_id)
{
  for (guint i = 0; catalog != NULL && i < hr_catalog_n_gpus (catalog); i++)
    {
      const HrGpu *gpu = hr_catalog_get_gpu (catalog, i);
      g_autofree char *other = NULL;

      if (!hr_import_gpu_is_yours (gpu) || gpu->name == NULL || same_id (gpu->id, editing_id))
        continue;
      other = g_utf8_casefold (gpu->name, -1);
      if (strcmp (g_strstrip (other), name) == 0)
        return gpu;
    }
  return NULL;
}

static char *
check_name (const char      *text,
            const HrCatalog *catalog,
            const char      *editing_id)
{
  g_autofree char *name = g_strstrip (g_strdup (text ? text : ""));
  g_autofree char *folded = NULL;

  if (*name == '\0')
    return g_strdup (_("Give the GPU a name"));
  if (!g_utf8_validate (name, -1, NULL))
    return g_strdup (_("The name is not valid text"));
  if (g_utf8_strlen (name, -1) > MAX_NAME_CHARS)
    return g_strdup_printf (_("At most %d characters"), MAX_NAME_CHARS);
  folded = g_utf8_casefold (name, -1);
  if (find_named (catalog, folded, editing_id) != NULL)
    return g_strdup (_("You already have a GPU with this name"));
  return NULL;
}

static char *
check_number (HrGpuField  field,
              const char *text,
              double     *value)
{
  const FieldInfo *info = &fields[field];
  g_autofree char *trimmed = g_strstrip (g_strdup (text ? text : ""));

  *value = NAN;
  if (*trimmed == '\0')
    return info->optional ? NULL : g_strdup (_("Required"));
  if (!hr_import_parse_number (trimmed, value))
    return g_strdup (_("Enter a number, such as 24 or 1.5"));
  if (*value <= 0)
    {
      *value = NAN;
      return g_strdup (_("Must be more than 0"));
    }
  if (field == HR_GPU_FIELD_SHARE && *value < MIN_SHARE_PCT)
    {
      *value = NAN;
      return g_strdup_printf (_("At least %g %%"), MIN_SHARE_PCT);
    }
  if (*value > info->max)
    {
      g_autofree char *max = g_strdup_printf ("%.0f", info->max);

      *value = NAN;
      /* TRANSLATORS: the largest value a field takes, e.g. "At most 65536" */
      return g_strdup_printf (_("At most %s"), max);
    }
  return NULL;
}

void
hr_gpu_form_validate (HrGpuFormState       *state,
                      const HrGpuFormInput *input,
                      const HrCatalog      *catalog)
{
  g_return_if_fail (state != NULL);
  g_return_if_fail (input != NULL);

  hr_gpu_form_state_clear (state);
  hr_gpu_form_state_init (state);

  state->error[HR_GPU_FIELD_NAME] = check_name (input->text[HR_GPU_FIELD_NAME], catalog,
                                                input->editing_id);
  for (guint f = HR_GPU_FIELD_MEMORY; f < HR_GPU_N_FIELDS; f++)
    {
      /* the share means nothing on a discrete card: whatever it says is ignored */
      if (f == HR_GPU_FIELD_SHARE && !input->unified)
        continue;
      state->error[f] = check_number (f, input->text[f], &state->value[f]);
    }

  state->valid = TRUE;
  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    if (state->error[f] != NULL)
      state->valid = FALSE;
}

HrGpu *
hr_gpu_form_build (const HrGpuFormState *state,
                   const HrGpuFormInput *input,
                   const HrCatalog      *catalog)
{
  g_autoptr(HrGpu) gpu = NULL;

  g_return_val_if_fail (state != NULL, NULL);
  g_return_val_if_fail (input != NULL, NULL);

  if (!state->valid)
    return NULL;

  gpu = hr_gpu_new ();
  gpu->name = g_strstrip (g_strdup (input->text[HR_GPU_FIELD_NAME]));
  if (input->editing_id != NULL)
    gpu->id = g_strdup (input->editing_id);
  else
    {
      g_autofree char *base = hr_slugify (gpu->name, 48, "gpu");
      g_autofree char *candidate = g_strdup (base);

      /* a new entry never replaces one of the user's others */
      for (guint n = 2; catalog != NULL; n++)
        {
          g_autofree char *full = g_strconcat (HR_USERDATA_ID_PREFIX, candidate, NULL);

          if (hr_catalog_find_gpu (catalog, full) == NULL && hr_catalog_find_gpu (catalog, candidate) == NULL)
            break;
          g_free (candidate);
          candidate = g_strdup_printf ("%s-%u", base, n);
        }
      gpu->id = g_steal_pointer (&candidate);
    }
  gpu->form = input->unified ? HR_FORM_UNIFIED : HR_FORM_WORKSTATION;
  gpu->backend = input->backend;
  gpu->generation = hr_gpu_generation_info (input->generation) != NULL ? input->generation : HR_GEN_UNKNOWN;
  gpu->memory_gib = state->value[HR_GPU_FIELD_MEMORY];
  gpu->bandwidth_gbs = state->value[HR_GPU_FIELD_BANDWIDTH];
  gpu->fp16_tflops = state->value[HR_GPU_FIELD_TFLOPS];
  gpu->tdp_w = state->value[HR_GPU_FIELD_POWER];
  gpu->price_usd = state->value[HR_GPU_FIELD_PRICE];
  if (input->unified)
    {
      double share = state->value[HR_GPU_FIELD_SHARE];

      gpu->unified_share = isfinite (share) ? share / 100.0
                                            : hr_gpu_default_unified_share (gpu->memory_gib);
    }
  gpu->user_defined = TRUE;
  gpu->confidence = g_strdup ("user");
  gpu->source = g_strdup ("Entered in Headroom by the user");
  return g_steal_pointer (&gpu);
}

char **
hr_gpu_form_texts (const HrGpu *gpu)
{
  char **texts = g_new0 (char *, HR_GPU_N_FIELDS + 1);

  g_return_val_if_fail (gpu != NULL, texts);

  texts[HR_GPU_FIELD_NAME] = g_strdup (gpu->name ? gpu->name : "");
  texts[HR_GPU_FIELD_MEMORY] = format_number (gpu->memory_gib);
  texts[HR_GPU_FIELD_BANDWIDTH] = format_number (gpu->bandwidth_gbs);
  texts[HR_GPU_FIELD_TFLOPS] = format_number (gpu->fp16_tflops);
  texts[HR_GPU_FIELD_POWER] = format_number (gpu->tdp_w);
  texts[HR_GPU_FIELD_PRICE] = format_number (gpu->price_usd);
  texts[HR_GPU_FIELD_SHARE] = hr_gpu_is_unified (gpu) && gpu->unified_share > 0
                              ? format_number (gpu->unified_share * 100) : g_strdup ("");
  return texts;
}

/* GGUF ------------------------------------------------------------------------------------- */

HrModel *
hr_import_model_from_gguf (const HrGguf  *gguf,
                           const char    *path,
                           GError       **error)
{
  g_autoptr(HrModel) model = NULL;
  HrWeights w;

  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  model = hr_gguf_to_model (gguf, error);
  if (model == NULL)
    return NULL;

  if (model->gguf_quant == NULL || !hr_weights_compute (model, model->gguf_quant, &w, NULL))
    {
      /* the exact bytes stay; the scenario's quant is the file's dominant type */
      g_free (model->gguf_quant);
      model->gguf_quant = g_strdup (hr_gguf_fallback_quant (gguf));
      if (!hr_weights_compute (model, model->gguf_quant, &w, NULL))
        g_clear_pointer (&model->gguf_quant, g_free);
    }
  if (path != NULL)
    {
      model->gguf_path = g_canonicalize_filename (path, NULL);
      /* a multimodal GGUF's projector beside it (#31): the Size view's switch counts it */
      hr_projector_attach_beside (model);
    }
  return g_steal_pointer (&model);
}

static gboolean
same_source (const HrModel *a,
             const HrModel *b)
{
  g_autofree char *ref_a = hr_hub_model_ref (a);
  g_autofree char *ref_b = hr_hub_model_ref (b);

  if (a->origin != b->origin)
    return FALSE;
  /* sized from the Hub: the same repository, revision and quant, whatever bytes its files hold
   * now (refreshing it must update the entry, not add a second) */
  if (ref_a != NULL || ref_b != NULL)
    return ref_a != NULL && ref_b != NULL && g_ascii_strcasecmp (ref_a, ref_b) == 0;
  if (a->origin == HR_MODEL_ORIGIN_GGUF)
    {
      if (a->gguf_path != NULL || b->gguf_path != NULL)
        return g_strcmp0 (a->gguf_path, b->gguf_path) == 0;
      /* two remote headers: the same file when they hold the same bytes */
      return a->gguf_bytes == b->gguf_bytes && g_strcmp0 (a->gguf_quant, b->gguf_quant) == 0;
    }
  if (a->hf_repo != NULL && b->hf_repo != NULL)
    return g_ascii_strcasecmp (a->hf_repo, b->hf_repo) == 0;
  return g_strcmp0 (a->name, b->name) == 0;
}

char *
hr_import_model_id (const HrModel   *model,
                    const HrCatalog *catalog,
                    gboolean        *replaces)
{
  g_autofree char *base = NULL;
  g_autofree char *candidate = NULL;

  g_return_val_if_fail (model != NULL, NULL);

  if (replaces != NULL)
    *replaces = FALSE;
  /* the slug hr_userdata would save it under, without its prefix */
  base = hr_userdata_model_id (model);
  candidate = g_strdup (base);
  for (guint n = 2; catalog != NULL; n++)
    {
      const HrModel *other = hr_catalog_find_model (catalog, candidate);

      if (other == NULL)
        break;
      if (same_source (model, other))
        {
          if (replaces != NULL)
            *replaces = TRUE;
          break;
        }
      g_free (candidate);
      candidate = g_strdup_printf ("%s-%u", base, n);
    }
  return g_strdup (candidate + strlen (HR_USERDATA_ID_PREFIX));
}

/* Words -------------------------------------------------------------------------------------- */

char *
hr_import_fetched_text (guint64 bytes_fetched,
                        guint64 file_size,
                        guint   n_requests)
{
  g_autofree char *fetched = g_format_size_full (bytes_fetched, G_FORMAT_SIZE_IEC_UNITS);

  if (file_size > 0)
    {
      g_autofree char *size = g_format_size_full (file_size, G_FORMAT_SIZE_IEC_UNITS);

      /* TRANSLATORS: "Read 1.0 MiB of a 4.1 GiB file (2 requests)" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Read %s of a %s file (%u request)",
                                           "Read %s of a %s file (%u requests)", n_requests),
                              fetched, size, n_requests);
    }
  /* TRANSLATORS: "Read 1.0 MiB (2 requests)" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Read %s (%u request)",
                                       "Read %s (%u requests)", n_requests),
                          fetched, n_requests);
}
