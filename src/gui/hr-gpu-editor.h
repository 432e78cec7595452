/* hr-gpu-editor.h — a form for the user's own GPU: add one, or edit one already saved
 *
 * Every field is checked as it is typed (hr_gpu_form_validate()); a field shows its error
 * once it has been edited, and Save stays insensitive while anything is wrong.  Save emits
 * "save": the handler stores the GPU (hr_gpu_editor_build()) and closes the editor, or
 * reports a failure with hr_gpu_editor_set_error().
 */
#pragma once

#include <adwaita.h>

#include "hr-catalog.h"
#include "hr-import-state.h"

G_BEGIN_DECLS

#define HR_TYPE_GPU_EDITOR (hr_gpu_editor_get_type ())
G_DECLARE_FINAL_TYPE (HrGpuEditor, hr_gpu_editor, HR, GPU_EDITOR, AdwWindow)

/* @catalog is borrowed (names of the user's other GPUs); @gpu NULL to add a new one. */
HrGpuEditor    *hr_gpu_editor_new           (GtkWindow       *parent,
                                             const HrCatalog *catalog,
                                             const HrGpu     *gpu);
/* The id of the GPU being edited; NULL when adding. */
const char     *hr_gpu_editor_get_editing_id (HrGpuEditor    *self);

/* The GPU the form describes; NULL while it is not valid. */
HrGpu          *hr_gpu_editor_build         (HrGpuEditor     *self);
/* What the Save button does: FALSE (and every error shown) when the form is not valid. */
gboolean        hr_gpu_editor_save          (HrGpuEditor     *self);
gboolean        hr_gpu_editor_can_save      (HrGpuEditor     *self);
/* A failure to save, shown under the form; NULL hides it. */
void            hr_gpu_editor_set_error     (HrGpuEditor     *self,
                                             const char      *message);

/* For tests: typing into a field, and what the field shows. */
void            hr_gpu_editor_set_field     (HrGpuEditor     *self,
                                             HrGpuField       field,
                                             const char      *text);
void            hr_gpu_editor_set_unified   (HrGpuEditor     *self,
                                             gboolean         unified);
void            hr_gpu_editor_set_backend   (HrGpuEditor     *self,
                                             HrBackend        backend);
/* The Generation row: what it shows selected (HR_GEN_UNKNOWN: "Not known"). */
void            hr_gpu_editor_set_generation (HrGpuEditor    *self,
                                              HrGpuGeneration generation);
HrGpuGeneration hr_gpu_editor_get_generation (HrGpuEditor    *self);
GtkWidget      *hr_gpu_editor_get_generation_row (HrGpuEditor *self);
/* The error shown next to @field, NULL when none is shown. */
const char     *hr_gpu_editor_get_field_error (HrGpuEditor   *self,
                                               HrGpuField     field);
GtkWidget      *hr_gpu_editor_get_field_row (HrGpuEditor     *self,
                                             HrGpuField       field);

G_END_DECLS
