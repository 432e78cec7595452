/* hr-hub-id.h — the repository id in what someone pasted: "org/name" or a hub address */
#pragma once

#include <glib.h>

#include "hr-model.h"

G_BEGIN_DECLS

/* The longest text hr_hub_repo_id_from_text() reads (a pasted address, not a document). */
#define HR_HUB_ID_MAX_TEXT 4096

/* "org/name" from a Hugging Face address of the repository or of anything in it, as people
 * copy it from the browser: https://huggingface.co/org/name, with /tree/main,
 * /blob/main/config.json, /resolve/main/…, a trailing slash, a ?query or #fragment, without the
 * scheme, www.huggingface.co or hf.co.  Any other text (an id already, another site, a
 * datasets/ or spaces/ address) comes back trimmed as it is, for hr_hub_check_repo_id() to
 * judge.  Newly allocated; NULL for NULL or text longer than HR_HUB_ID_MAX_TEXT bytes. */
char           *hr_hub_repo_id_from_text    (const char *text);

/* The "source" of a model sized from the Hub starts with this, then "ORG/NAME[@REVISION]". */
#define HR_HUB_SOURCE_PREFIX "Hugging Face Hub: "

/* The reference that sizes @model from the Hub again ("ORG/NAME[@REVISION][:QUANT]": a GGUF
 * model names its quant, a safetensors one none), from its saved source and quant; NULL when
 * it was not sized from the Hub.  Not checked: hr_hub_size_repo() judges it as any other. */
char           *hr_hub_model_ref            (const HrModel *model);

G_END_DECLS
