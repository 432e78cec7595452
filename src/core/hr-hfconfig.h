/* hr-hfconfig.h — a Hugging Face config.json as an HrModel
 *
 * Reads the architecture of Llama, Mistral, Mixtral, Phi-3/4, Qwen2/3 (dense and MoE),
 * Qwen3-Next / Qwen3.5 (hybrid linear attention), DeepSeek V2/V3 (MLA), Gemma 2/3/4, gpt-oss,
 * GLM-4.x MoE, Llama 4 and Nemotron-H configs, also nested in a multimodal config's
 * `text_config`, and counts total and active parameters from the shapes.  The JSON is
 * untrusted: wrong types, negative or huge values are errors that name the field.
 */
#pragma once

#include <glib.h>
#include "hr-model.h"

G_BEGIN_DECLS

#define HR_HFCONFIG_ERROR (hr_hfconfig_error_quark ())
typedef enum
{
  HR_HFCONFIG_ERROR_PARSE,    /* not JSON, or not an object */
  HR_HFCONFIG_ERROR_MISSING,  /* a required field is absent */
  HR_HFCONFIG_ERROR_INVALID,  /* a field has the wrong type or is out of range */
  HR_HFCONFIG_ERROR_IO,       /* the file cannot be read */
} HrHfconfigError;

/* Largest config.json accepted (real ones are a few KiB; Qwen3.5's layer_types a few more). */
#define HR_HFCONFIG_MAX_SIZE (4 * 1024 * 1024)

GQuark          hr_hfconfig_error_quark     (void);

/* @repo_or_name ("Qwen/Qwen3-30B-A3B", or a file name) names the model; may be NULL.
 * @len may be -1 for a NUL-terminated string. */
HrModel        *hr_hfconfig_parse           (const char      *json,
                                             gssize           len,
                                             const char      *repo_or_name,
                                             GError         **error);
/* Reads a local config.json (at most HR_HFCONFIG_MAX_SIZE bytes). */
HrModel        *hr_hfconfig_load_file       (const char      *path,
                                             GError         **error);

G_END_DECLS
