/* hr-hub-files.h — the files of the Hugging Face Hub repository a model was sized from
 *
 * An expander row, "Files on the Hub", in the Size view when its model came from the Hub: every
 * file that matters for sizing with its exact size and role (GGUF quants, split parts summed,
 * vision projectors, safetensors shards, their index, config.json, tokenizer), as
 * `headroom-cli hub files REPO` lists them (hr_hub_list_files, the roles of hr-hub-repo.h), the
 * files the model is sized from marked.  The listing is read in a worker thread from the cache
 * the sizing has just filled (the Hub itself when it is older than a day).  Hidden for any other
 * model.
 */
#pragma once

#include <adwaita.h>

#include "hr-model.h"

G_BEGIN_DECLS

#define HR_TYPE_HUB_FILES (hr_hub_files_get_type ())
G_DECLARE_FINAL_TYPE (HrHubFiles, hr_hub_files, HR, HUB_FILES, AdwBin)

GtkWidget      *hr_hub_files_new            (void);
/* @model: the model on screen (NULL: none); @quant: the quant it is sized at, whose GGUF files
 * are marked (NULL: the model's own).  Cheap when the repository is the one already listed. */
void            hr_hub_files_set_model      (HrHubFiles    *self,
                                             const HrModel *model,
                                             const char    *quant);
/* TRUE while the listing is being read. */
gboolean        hr_hub_files_is_busy        (HrHubFiles    *self);
/* The rows as shown, one line each: "title — subtitle", then " [chosen]" when marked (tests). */
char           *hr_hub_files_describe       (HrHubFiles    *self);

G_END_DECLS
