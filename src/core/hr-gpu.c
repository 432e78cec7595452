/* hr-gpu.c — an accelerator (or a unified-memory machine)
 *
 * Besides the plain-data helpers this parses the CLI's --gpu-custom specification.  That string
 * comes straight from a user, so every field is checked and every error names the key at fault.
 */
#include "hr-gpu.h"
#include "hr-struct.h"
#include "hr-text.h"
#include "hr-units.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Limits for a user-defined device: generous, but far enough from the absurd that a typo
 * (an extra three zeros) is caught instead of silently sized. */
#define MAX_MEMORY_GIB    65536.0     /* 64 TiB */
#define MAX_BANDWIDTH_GBS 1.0e6
#define MAX_TFLOPS        1.0e6
#define MAX_PRICE_USD     1.0e9
#define MAX_TDP_W         1.0e6
#define MAX_NAME_CHARS    128
#define MAX_SPEC_BYTES    4096

static const char * const form_names[] = { "consumer", "workstation", "datacenter", "unified" };

#define NV_CC "https://developer.nvidia.com/cuda-gpus (compute capability per product)"
#define AMD_ARCH "https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html"
#define LLVM_AMDGPU "https://llvm.org/docs/AMDGPUUsage.html#processors"
#define APPLE_SPECS "https://support.apple.com/en-us/docs/mac (each model's Tech Specs name its chip)"

/* Matrix units: NVIDIA tensor cores from Volta on (none on Pascal; llama.cpp's MMA kernels need
 * Turing); AMD MFMA on CDNA and gfx906's successors only (gfx906 has none), WMMA from RDNA3 on
 * (RDNA2 has none); Intel XMX on Xe-HPG and Xe2 (none on the Xe-LPG iGPUs).  Sources: NVIDIA's
 * architecture whitepapers (Pascal GP100, Volta GV100), AMD's ISA guides (Vega 20, CDNA, RDNA3),
 * Intel's Xe-HPG / Xe2 architecture briefs. */
static const HrGpuGenerationInfo generations[HR_N_GENERATIONS] = {
  [HR_GEN_PASCAL] = { "pascal", "Pascal", FALSE, 0, NV_CC },
  [HR_GEN_VOLTA] = { "volta", "Volta", TRUE, 0, NV_CC },
  [HR_GEN_TURING] = { "turing", "Turing", TRUE, 0, NV_CC },
  [HR_GEN_AMPERE] = { "ampere", "Ampere", TRUE, 0, NV_CC },
  [HR_GEN_ADA] = { "ada", "Ada Lovelace", TRUE, 0, NV_CC },
  [HR_GEN_HOPPER] = { "hopper", "Hopper", TRUE, 0, NV_CC },
  [HR_GEN_BLACKWELL] = { "blackwell", "Blackwell", TRUE, 0, NV_CC },
  [HR_GEN_GFX906] = { "gfx906", "GCN 5 (Vega 20, gfx906)", FALSE, 0, LLVM_AMDGPU },
  [HR_GEN_CDNA1] = { "cdna1", "CDNA (gfx908)", TRUE, 0, AMD_ARCH },
  [HR_GEN_CDNA2] = { "cdna2", "CDNA 2 (gfx90a)", TRUE, 0, AMD_ARCH },
  [HR_GEN_CDNA3] = { "cdna3", "CDNA 3 (gfx942)", TRUE, 0, AMD_ARCH },
  [HR_GEN_CDNA4] = { "cdna4", "CDNA 4 (gfx950)", TRUE, 0, AMD_ARCH },
  [HR_GEN_RDNA2] = { "rdna2", "RDNA 2 (gfx103x)", FALSE, 0, AMD_ARCH },
  [HR_GEN_RDNA3] = { "rdna3", "RDNA 3 (gfx110x)", TRUE, 0, AMD_ARCH },
  [HR_GEN_RDNA3_5] = { "rdna3.5", "RDNA 3.5 (gfx115x)", TRUE, 0, LLVM_AMDGPU },
  [HR_GEN_RDNA4] = { "rdna4", "RDNA 4 (gfx120x)", TRUE, 0, AMD_ARCH },
  [HR_GEN_XE_LPG] = { "xe-lpg", "Xe-LPG", FALSE, 0,
                      "https://www.intel.com/content/www/us/en/products/docs/processors/core-ultra/core-ultra-series-1-product-brief.html" },
  [HR_GEN_XE_HPG] = { "xe-hpg", "Xe-HPG (Alchemist)", TRUE, 0,
                      "https://www.intel.com/content/www/us/en/products/docs/discrete-gpus/arc/desktop/a-series/overview.html" },
  [HR_GEN_XE2] = { "xe2", "Xe2 (Battlemage)", TRUE, 0,
                   "https://www.intel.com/content/www/us/en/products/docs/discrete-gpus/arc/workstations/b-series/overview.html" },
  [HR_GEN_APPLE_M1] = { "apple-m1", "Apple M1", FALSE, 1, APPLE_SPECS },
  [HR_GEN_APPLE_M2] = { "apple-m2", "Apple M2", FALSE, 2, APPLE_SPECS },
  [HR_GEN_APPLE_M3] = { "apple-m3", "Apple M3", FALSE, 3, APPLE_SPECS },
  [HR_GEN_APPLE_M4] = { "apple-m4", "Apple M4", FALSE, 4, APPLE_SPECS },
};

static const char * const backend_names[] = {
  "cuda", "rocm", "metal", "vulkan", "sycl", "cpu", "cann", "musa", "other",
};

G_STATIC_ASSERT (G_N_ELEMENTS (backend_names) == HR_N_BACKENDS);

/* As the vendors write them; none for a vendor stack llama.cpp has no backend for */
static const char *backend_display_names[] = {
  "CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU", "CANN", "MUSA", NULL,
};

G_STATIC_ASSERT (G_N_ELEMENTS (backend_display_names) == HR_N_BACKENDS);

static const HrBackend backend_choices[] = {
  HR_BACKEND_CUDA, HR_BACKEND_ROCM, HR_BACKEND_METAL, HR_BACKEND_VULKAN, HR_BACKEND_SYCL, HR_BACKEND_CPU,
};

typedef enum
{
  KEY_MEMORY_GIB,
  KEY_BANDWIDTH_GBS,
  KEY_FP16_TFLOPS,
  KEY_FP8_TFLOPS,
  KEY_UNIFIED,
  KEY_UNIFIED_SHARE,
  KEY_NAME,
  KEY_PRICE_USD,
  KEY_TDP_W,
  KEY_BACKEND,
  KEY_GENERATION,
  N_KEYS
} SpecKey;

static const char *spec_keys[] = {
  "memory_gib", "bandwidth_gbs", "fp16_tflops", "fp8_tflops", "unified", "unified_share",
  "name", "price_usd", "tdp_w", "backend", "generation",
};

G_STATIC_ASSERT (G_N_ELEMENTS (spec_keys) == N_KEYS);

static int
spec_key_lookup (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (spec_keys); i++)
    if (strcmp (key, spec_keys[i]) == 0)
      return (int) i;
  return -1;
}

/* A plain decimal number: digits, one point, an optional exponent.  g_ascii_strtod alone would
 * also take "nan", "inf" and hex floats, none of which a person means by a memory size. */
static gboolean
parse_number (const char  *key,
              const char  *text,
              double       max,
              double      *out,
              GError     **error)
{
  const char *p = text;
  char *end = NULL;
  double value;

  if (*p == '+')
    p++;
  for (const char *c = p; *c; c++)
    {
      if (!g_ascii_isdigit (*c) && *c != '.' && *c != 'e' && *c != 'E' && *c != '+' && *c != '-')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("--gpu-custom: %s must be a number, not “%s”"), key, text);
          return FALSE;
        }
    }

  value = g_ascii_strtod (p, &end);
  if (end == p || *end != '\0' || !isfinite (value))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s must be a number, not “%s”"), key, text);
      return FALSE;
    }
  if (value <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s must be greater than zero"), key);
      return FALSE;
    }
  if (value > max)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s = %s is out of range (at most %g)"), key, text, max);
      return FALSE;
    }
  *out = value;
  return TRUE;
}

static gboolean
parse_bool (const char  *key,
            const char  *text,
            gboolean    *out,
            GError     **error)
{
  if (g_ascii_strcasecmp (text, "true") == 0 || g_ascii_strcasecmp (text, "yes") == 0 ||
      strcmp (text, "1") == 0)
    *out = TRUE;
  else if (g_ascii_strcasecmp (text, "false") == 0 || g_ascii_strcasecmp (text, "no") == 0 ||
           strcmp (text, "0") == 0)
    *out = FALSE;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s must be true or false, not “%s”"), key, text);
      return FALSE;
    }
  return TRUE;
}

/* A device nothing is known about yet. */
static const HrGpu unknown_gpu = {
  .form = HR_FORM_CONSUMER,
  .bandwidth_gbs = NAN,
  .bandwidth_measured_gbs = NAN,
  .fp16_tflops = NAN,
  .fp8_tflops = NAN,
  .tdp_w = NAN,
  .price_usd = NAN,
  .backend = HR_BACKEND_OTHER,
};

/* The strings an HrGpu owns */
static const gsize gpu_strings[] = {
  G_STRUCT_OFFSET (HrGpu, id),
  G_STRUCT_OFFSET (HrGpu, name),
  G_STRUCT_OFFSET (HrGpu, vendor),
  G_STRUCT_OFFSET (HrGpu, price_note),
  G_STRUCT_OFFSET (HrGpu, memory_type),
  G_STRUCT_OFFSET (HrGpu, interconnect),
  G_STRUCT_OFFSET (HrGpu, stack),
  G_STRUCT_OFFSET (HrGpu, source),
  G_STRUCT_OFFSET (HrGpu, confidence),
  G_STRUCT_OFFSET (HrGpu, bandwidth_measured_source),
  G_STRUCT_OFFSET (HrGpu, detected_as),
};

HrGpu *
hr_gpu_new (void)
{
  return g_memdup2 (&unknown_gpu, sizeof unknown_gpu);
}

HrGpu *
hr_gpu_copy (const HrGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);

  return hr_struct_copy (gpu, sizeof *gpu, gpu_strings, G_N_ELEMENTS (gpu_strings));
}

void
hr_gpu_free (HrGpu *gpu)
{
  hr_struct_free (gpu, gpu_strings, G_N_ELEMENTS (gpu_strings));
}

/* The whole specification: present, not absurdly long, valid UTF-8. */
static gboolean
check_spec_text (const char  *spec,
                 GError     **error)
{
  if (spec == NULL || *spec == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: empty specification; memory_gib is required"));
      return FALSE;
    }
  if (strlen (spec) > MAX_SPEC_BYTES || !g_utf8_validate (spec, -1, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: the specification is too long or not valid UTF-8"));
      return FALSE;
    }
  return TRUE;
}

static HrGpu *
custom_gpu_new (void)
{
  HrGpu *gpu = hr_gpu_new ();

  gpu->id = g_strdup ("custom");
  gpu->vendor = g_strdup ("Custom");
  gpu->form = HR_FORM_WORKSTATION;
  gpu->user_defined = TRUE;
  gpu->confidence = g_strdup ("user");
  gpu->source = g_strdup ("--gpu-custom");
  return gpu;
}

/* Field @index (from 0) of the specification, "key=value": its key (trimmed, returned) and
 * value (trimmed, pointing into @field, which it modifies); -1 with @error set when it is not
 * one, the key is unknown, given before (@seen) or has no value. */
static int
split_field (char         *field,
             guint         index,
             gboolean     *seen,
             char        **key_out,
             const char  **value_out,
             GError      **error)
{
  g_autofree char *key = NULL;
  char *eq;
  int k;

  field = g_strstrip (field);
  if (*field == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: empty field %u (two commas in a row?)"), index + 1);
      return -1;
    }
  eq = strchr (field, '=');
  if (eq == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: “%s” is not key=value"), field);
      return -1;
    }
  key = g_strstrip (g_strndup (field, eq - field));
  *value_out = g_strstrip (eq + 1);

  k = spec_key_lookup (key);
  if (k < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: unknown key “%s” (known: memory_gib, bandwidth_gbs, "
                     "fp16_tflops, fp8_tflops, unified, unified_share, name, price_usd, "
                     "tdp_w, backend, generation)"), key);
      return -1;
    }
  if (seen[k])
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s is given twice"), key);
      return -1;
    }
  seen[k] = TRUE;
  if (**value_out == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: %s has no value"), key);
      return -1;
    }
  *key_out = g_steal_pointer (&key);
  return k;
}

/* What the specification says besides the device's own fields. */
typedef struct
{
  gboolean seen[N_KEYS];
  gboolean unified;
  double unified_share;
} SpecState;

/* The field a number key sets and its upper limit; NULL for a key that is not a number. */
static double *
number_field (HrGpu     *gpu,
              SpecState *st,
              SpecKey    k,
              double    *max)
{
  switch (k)
    {
    case KEY_MEMORY_GIB: *max = MAX_MEMORY_GIB; return &gpu->memory_gib;
    case KEY_BANDWIDTH_GBS: *max = MAX_BANDWIDTH_GBS; return &gpu->bandwidth_gbs;
    case KEY_FP16_TFLOPS: *max = MAX_TFLOPS; return &gpu->fp16_tflops;
    case KEY_FP8_TFLOPS: *max = MAX_TFLOPS; return &gpu->fp8_tflops;
    case KEY_PRICE_USD: *max = MAX_PRICE_USD; return &gpu->price_usd;
    case KEY_TDP_W: *max = MAX_TDP_W; return &gpu->tdp_w;
    case KEY_UNIFIED_SHARE: *max = 1.0; return &st->unified_share;
    case KEY_UNIFIED:
    case KEY_NAME:
    case KEY_BACKEND:
    case KEY_GENERATION:
    case N_KEYS:
    default:
      return NULL;
    }
}

static gboolean
apply_field (HrGpu       *gpu,
             SpecState   *st,
             SpecKey      k,
             const char  *key,
             const char  *value,
             GError     **error)
{
  double max = 0, *number = number_field (gpu, st, k, &max);

  if (number != NULL)
    return parse_number (key, value, max, number, error);
  switch (k)
    {
    case KEY_UNIFIED:
      return parse_bool (key, value, &st->unified, error);
    case KEY_NAME:
      if (g_utf8_strlen (value, -1) > MAX_NAME_CHARS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("--gpu-custom: name is longer than %d characters"), MAX_NAME_CHARS);
          return FALSE;
        }
      g_free (gpu->name);
      gpu->name = g_strdup (value);
      return TRUE;
    case KEY_BACKEND:
      if (!hr_backend_from_string (value, &gpu->backend))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("--gpu-custom: backend “%s” is not one of cuda, rocm, metal, "
                         "vulkan, sycl, cpu, cann, musa, other"), value);
          return FALSE;
        }
      return TRUE;
    case KEY_GENERATION:
      if (!hr_gpu_generation_from_string (value, &gpu->generation))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("--gpu-custom: generation “%s” is not one of %s"), value,
                       hr_gpu_generation_ids ());
          return FALSE;
        }
      return TRUE;
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* After the last field: what is required, what goes together, the unified form and the name. */
static gboolean
finish_spec (HrGpu            *gpu,
             const SpecState  *st,
             GError          **error)
{
  if (!st->seen[KEY_MEMORY_GIB])
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: memory_gib is required"));
      return FALSE;
    }
  if (st->seen[KEY_UNIFIED_SHARE] && !st->unified)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("--gpu-custom: unified_share needs unified=true"));
      return FALSE;
    }

  if (st->unified)
    {
      gpu->form = HR_FORM_UNIFIED;
      gpu->unified_share = st->seen[KEY_UNIFIED_SHARE] ? st->unified_share
                                                       : hr_gpu_default_unified_share (gpu->memory_gib);
    }

  /* an NVIDIA architecture named without a backend: llama.cpp runs it with CUDA, not as a
   * vendor stack it has no backend for (the kernels the generation selects are CUDA's) */
  if (!st->seen[KEY_BACKEND] && gpu->generation >= HR_GEN_PASCAL && gpu->generation <= HR_GEN_BLACKWELL)
    gpu->backend = HR_BACKEND_CUDA;

  if (gpu->name == NULL)
    gpu->name = hr_gpu_spec_name (gpu);
  return TRUE;
}

gboolean
hr_gpu_pascal_slow_fp16 (const HrGpu *gpu)
{
  return gpu != NULL && gpu->generation == HR_GEN_PASCAL && isfinite (gpu->fp16_tflops) &&
         gpu->fp16_tflops > 0 && gpu->fp16_tflops < HR_PASCAL_SLOW_FP16_MAX_TFLOPS;
}

const HrGpuGenerationInfo *
hr_gpu_generation_info (HrGpuGeneration generation)
{
  if (generation <= HR_GEN_UNKNOWN || generation >= HR_N_GENERATIONS)
    return NULL;
  return &generations[generation];
}

gboolean
hr_gpu_generation_from_string (const char      *str,
                               HrGpuGeneration *generation)
{
  if (str == NULL)
    return FALSE;
  for (int g = HR_GEN_UNKNOWN + 1; g < HR_N_GENERATIONS; g++)
    if (g_ascii_strcasecmp (str, generations[g].id) == 0)
      {
        *generation = (HrGpuGeneration) g;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_gpu_generation_ids (void)
{
  static gsize ids;

  if (g_once_init_enter (&ids))
    {
      GString *s = g_string_new (NULL);

      for (int g = HR_GEN_UNKNOWN + 1; g < HR_N_GENERATIONS; g++)
        g_string_append_printf (s, "%s%s", s->len ? ", " : "", generations[g].id);
      g_once_init_leave (&ids, (gsize) g_string_free (s, FALSE));
    }
  return (const char *) ids;
}

char *
hr_gpu_spec_name (const HrGpu *gpu)
{
  return g_strdup_printf (gpu->form == HR_FORM_UNIFIED ? _("Custom unified memory (%g GiB)")
                                                       : _("Custom GPU (%g GiB)"), gpu->memory_gib);
}

char *
hr_gpu_data_name (const HrGpu *gpu)
{
  g_autofree char *shown = NULL;
  HrCNumeric c;
  char *name;

  g_return_val_if_fail (gpu != NULL, NULL);

  if (g_strcmp0 (gpu->source, "--gpu-custom") != 0
      || g_strcmp0 (gpu->name, shown = hr_gpu_spec_name (gpu)) != 0)
    return g_strdup (gpu->name);
  hr_c_numeric_begin (&c);
  name = hr_gpu_spec_name (gpu);
  hr_c_numeric_end (&c);
  return name;
}

HrGpu *
hr_gpu_new_from_spec (const char  *spec,
                      GError     **error)
{
  g_autoptr(HrGpu) gpu = NULL;
  g_auto(GStrv) fields = NULL;
  SpecState st = { { FALSE, }, FALSE, 0 };

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_spec_text (spec, error))
    return NULL;

  gpu = custom_gpu_new ();
  fields = g_strsplit (spec, ",", -1);
  for (guint i = 0; fields[i] != NULL; i++)
    {
      g_autofree char *key = NULL;
      const char *value = NULL;
      int k = split_field (fields[i], i, st.seen, &key, &value, error);

      if (k < 0 || !apply_field (gpu, &st, (SpecKey) k, key, value, error))
        return NULL;
    }
  if (!finish_spec (gpu, &st, error))
    return NULL;
  return g_steal_pointer (&gpu);
}

gboolean
hr_gpu_is_unified (const HrGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, FALSE);

  return gpu->form == HR_FORM_UNIFIED;
}

double
hr_gpu_default_unified_share (double memory_gib)
{
  return memory_gib >= HR_UNIFIED_LARGE_MIN_GIB ? HR_UNIFIED_SHARE_LARGE : HR_UNIFIED_SHARE_SMALL;
}

double
hr_gpu_unified_share (const HrGpu *gpu,
                      double       chosen)
{
  g_return_val_if_fail (gpu != NULL, 0.0);

  return chosen > 0 ? chosen
         : gpu->unified_share > 0 ? gpu->unified_share
         : hr_gpu_default_unified_share (gpu->memory_gib);
}

const char *
hr_gpu_form_to_string (HrGpuForm form)
{
  if ((guint) form < G_N_ELEMENTS (form_names))
    return form_names[form];
  return "unknown";
}

gboolean
hr_gpu_form_from_string (const char *str,
                         HrGpuForm  *form)
{
  /* The reference tables spell the unified form "unified-memory". */
  int i = str != NULL && g_ascii_strcasecmp (str, "unified-memory") == 0
          ? HR_FORM_UNIFIED : hr_text_find_name (form_names, G_N_ELEMENTS (form_names), str);

  if (i >= 0 && form != NULL)
    *form = (HrGpuForm) i;
  return i >= 0;
}

const char *
hr_backend_to_string (HrBackend backend)
{
  if ((guint) backend < G_N_ELEMENTS (backend_names))
    return backend_names[backend];
  return "unknown";
}

const char *
hr_backend_display_name (HrBackend backend)
{
  if ((guint) backend < G_N_ELEMENTS (backend_display_names))
    return backend_display_names[backend];
  return NULL;
}

const HrBackend *
hr_backend_choices (guint *n_out)
{
  *n_out = G_N_ELEMENTS (backend_choices);
  return backend_choices;
}

gboolean
hr_backend_from_string (const char *str,
                        HrBackend  *backend)
{
  int i = hr_text_find_name (backend_names, G_N_ELEMENTS (backend_names), str);

  if (i >= 0 && backend != NULL)
    *backend = (HrBackend) i;
  return i >= 0;
}
