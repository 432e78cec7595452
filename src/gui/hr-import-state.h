/* hr-import-state.h — bringing your own model and GPU, without a display
 *
 * The GPU editor's form checked field by field (what the editor shows next to each entry), a
 * GGUF header turned into the model the app adds (its quant fixed the way `headroom-cli
 * inspect` fixes it, so both size it alike), and the words of the import flows.  No GTK in
 * here: tests/test-import-state.c runs it without a display.
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-gguf.h"
#include "hr-gpu.h"
#include "hr-model.h"

G_BEGIN_DECLS

/* The GPU editor's fields, in the order the editor shows them. */
typedef enum
{
  HR_GPU_FIELD_NAME,
  HR_GPU_FIELD_MEMORY,     /* GiB */
  HR_GPU_FIELD_BANDWIDTH,  /* GB/s */
  HR_GPU_FIELD_TFLOPS,     /* dense FP16/BF16 TFLOPS */
  HR_GPU_FIELD_POWER,      /* W, optional */
  HR_GPU_FIELD_PRICE,      /* USD, optional */
  HR_GPU_FIELD_SHARE,      /* % of RAM the GPU may use, unified machines only, optional */
  HR_GPU_N_FIELDS
} HrGpuField;

/* What the user typed. */
typedef struct
{
  const char *text[HR_GPU_N_FIELDS];
  gboolean unified;
  HrBackend backend;
  HrGpuGeneration generation;  /* HR_GEN_UNKNOWN when the user names none */
  const char *editing_id;  /* the GPU being edited (its name may stay), NULL when adding */
} HrGpuFormInput;

/* What the editor shows: an error per field (NULL when the field is fine). */
typedef struct
{
  gboolean valid;
  char *error[HR_GPU_N_FIELDS];
  double value[HR_GPU_N_FIELDS];  /* parsed numbers; NAN when empty or wrong */
} HrGpuFormState;

void            hr_gpu_form_state_init      (HrGpuFormState       *state);
void            hr_gpu_form_state_clear     (HrGpuFormState       *state);

/* Checks every field.  @catalog (may be NULL) is searched for another GPU of the user's with
 * the same name.  Empty optional fields are unknown, never zero. */
void            hr_gpu_form_validate        (HrGpuFormState       *state,
                                             const HrGpuFormInput *input,
                                             const HrCatalog      *catalog);
/* The GPU the valid form describes (NULL when it is not valid); its id is @input->editing_id
 * when editing, otherwise a slug of the name that no other GPU of the user's has. */
HrGpu          *hr_gpu_form_build           (const HrGpuFormState *state,
                                             const HrGpuFormInput *input,
                                             const HrCatalog      *catalog);
/* The texts to put in the fields to edit @gpu (free with g_strfreev). */
char          **hr_gpu_form_texts           (const HrGpu          *gpu);
/* The field's name as the editor labels it ("Memory (GiB)"). */
const char     *hr_gpu_field_title          (HrGpuField            field);
gboolean        hr_gpu_field_is_optional    (HrGpuField            field);

/* A number as typed: "80", "1.5", "1,5" (a decimal comma), "2e3", surrounding spaces; FALSE
 * for anything else, NaN and infinities included. */
gboolean        hr_import_parse_number      (const char           *text,
                                             double               *value);

/* The model to add for a GGUF header read from @path (NULL for a remote header): the file's
 * architecture and exact tensor bytes, its quant fixed to the file's mix — or, when the core
 * does not know the mix, to the file's dominant tensor type, as `headroom-cli inspect` does. */
HrModel        *hr_import_model_from_gguf   (const HrGguf         *gguf,
                                             const char           *path,
                                             GError              **error);

/* The id to save @model under so that it does not take the place of another model of the
 * user's: its own id when that is free or held by the same source (the same GGUF file, the
 * same repository: opening it again updates it), otherwise with "-2", "-3"… appended.
 * *@replaces tells whether an entry of the same source is there. */
char           *hr_import_model_id          (const HrModel        *model,
                                             const HrCatalog      *catalog,
                                             gboolean             *replaces);

/* TRUE for the user's own entries ("user:…" ids, user-defined GPUs, imported models). */
gboolean        hr_import_model_is_yours    (const HrModel        *model);
gboolean        hr_import_gpu_is_yours      (const HrGpu          *gpu);

/* "Read 1.0 MiB of a 4.1 GiB file (2 requests)": what a remote header cost. */
char           *hr_import_fetched_text      (guint64               bytes_fetched,
                                             guint64               file_size,
                                             guint                 n_requests);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrGpuFormState, hr_gpu_form_state_clear)

G_END_DECLS
