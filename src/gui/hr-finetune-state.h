/* hr-finetune-state.h — what the Fine-tune view shows, as plain strings and numbers
 *
 * All three methods (QLoRA, LoRA, full) computed with the same settings, so the view can
 * show them side by side with the chosen one highlighted; the verdict of the chosen one on
 * the chosen GPU (× N); the smallest catalog GPU (× N up to 8) for each.  No GTK in here
 * (tests/test-compare-state.c checks it against `headroom-cli finetune`).
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-finetune.h"

G_BEGIN_DECLS

/* How many HrFtMethod, HrOptimizer and HrSharding values there are (the view's rows list them
 * all, in this order). */
#define HR_FT_N_METHODS 3
#define HR_FT_N_OPTIMIZERS 3
#define HR_FT_N_SHARDINGS 3

/* The breakdown's rows, top to bottom. */
typedef enum
{
  HR_FT_ROW_WEIGHTS,
  HR_FT_ROW_GRADIENTS,
  HR_FT_ROW_OPTIMIZER,
  HR_FT_ROW_ACTIVATIONS,
  HR_FT_ROW_BUFFERS,
  HR_FT_ROW_TOTAL,
  HR_FT_N_ROWS
} HrFtRowId;

typedef struct
{
  gboolean ok;               /* FALSE: error says why */
  char *error;
  HrFtScenario ft;           /* the settings with this method */
  HrFtEstimate estimate;     /* per GPU */
  char *cells[HR_FT_N_ROWS]; /* "54.96 GiB" */
  char *trainable;           /* "44.26 M trainable parameters (0.04%)" */
  HrVerdict verdict;         /* on the chosen GPU */
  const char *verdict_css;
  const char *verdict_icon;
  char *verdict_text;        /* "Fits with margin" */
  HrFtFit fit;               /* smallest catalog configuration */
  char *smallest;            /* "RTX PRO 6000 Blackwell 96GB", "2× H100 80GB SXM", "None up to 8 GPUs" */
  char *smallest_detail;     /* "58.62 of 60.8 GiB usable per GPU · ZeRO-3" */
} HrFtMethodState;

typedef struct
{
  HrFtScenario ft;           /* as the controls set it */
  const HrGpu *gpu;          /* checked against; NULL for none */
  double reserve;
  double unified_share;
  HrFtMethodState methods[HR_FT_N_METHODS];
  gboolean ok;               /* the chosen method could be computed */
  char *title;               /* "GLM-4.5-Air (110B-A12B) · QLoRA (4-bit)" */
  char *subtitle;            /* "sequence 2048 · micro-batch 1 · AdamW · checkpointing · flash attention · 1 GPU" */
  HrVerdict verdict;         /* the chosen method on the chosen GPU */
  const char *verdict_css;
  const char *verdict_icon;
  char *verdict_title;       /* "Fits with margin on RTX PRO 6000 Blackwell 96GB" */
  char *verdict_detail;      /* "Needs 58.62 GiB per GPU of 91.2 GiB usable, 32.58 GiB to spare." */
  char *usable;              /* "91.2 GiB usable per GPU" */
  const char *formula;       /* hr_finetune_formula_text (method), translated */
} HrFtState;

void            hr_ft_state_init            (HrFtState         *state);
void            hr_ft_state_clear           (HrFtState         *state);
/* Computes every method with @ft's other settings.  @gpu may be NULL (no verdict); @catalog
 * may be NULL (no smallest fit).  @reserve and @unified_share as for
 * hr_finetune_usable_bytes(). */
void            hr_ft_state_compute         (HrFtState         *state,
                                             const HrFtScenario *ft,
                                             const HrGpu       *gpu,
                                             const HrCatalog   *catalog,
                                             double             reserve,
                                             double             unified_share);
/* The chosen method's numbers as `headroom-cli finetune --json` prints them. */
char           *hr_ft_state_json            (const HrFtState   *state);

const char     *hr_ft_method_display        (HrFtMethod         method);  /* "QLoRA (4-bit)" */
const char     *hr_ft_row_title             (HrFtRowId          row);     /* "Optimizer states" */
const char     *hr_optimizer_display        (HrOptimizer        optimizer);
const char     *hr_sharding_display         (HrSharding         sharding);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrFtState, hr_ft_state_clear)

G_END_DECLS
