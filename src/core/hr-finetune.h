/* hr-finetune.h — memory for QLoRA, LoRA and full fine-tuning */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-model.h"
#include "hr-gpu.h"

G_BEGIN_DECLS

typedef enum { HR_FT_QLORA, HR_FT_LORA, HR_FT_FULL } HrFtMethod;
typedef enum { HR_OPT_ADAMW, HR_OPT_ADAMW_8BIT, HR_OPT_SGD } HrOptimizer;
typedef enum { HR_SHARD_NONE, HR_SHARD_ZERO2, HR_SHARD_ZERO3 } HrSharding;

typedef struct
{
  const HrModel *model;
  HrFtMethod method;
  int seq_len;            /* 2048 */
  int micro_batch;        /* 1 */
  gboolean grad_checkpointing; /* TRUE */
  HrOptimizer optimizer;
  int lora_rank;          /* 16 */
  gboolean lora_all_linear; /* TRUE: q,k,v,o,gate,up,down; FALSE: q,v only */
  int n_gpus;
  HrSharding sharding;
  gboolean flash_attention; /* TRUE: fused attention (FlashAttention/SDPA), no score matrix */
} HrFtScenario;

typedef struct
{
  double weights_bytes;      /* per GPU */
  double trainable_params;
  double gradients_bytes;
  double optimizer_bytes;
  double activations_bytes;
  double buffers_bytes;      /* CUDA context, temp buffers */
  double total_bytes;        /* per GPU */
} HrFtEstimate;

/* Defaults: seq 2048, micro-batch 1, gradient checkpointing, AdamW, rank 16 on all linear
 * layers, 1 GPU, no sharding, flash attention on (what PyTorch SDPA and FlashAttention-2 do by
 * default in current training stacks). */
void            hr_ft_scenario_init         (HrFtScenario    *ft,
                                             const HrModel   *model,
                                             HrFtMethod       method);
gboolean        hr_finetune_compute         (const HrFtScenario *ft,
                                             HrFtEstimate    *out,
                                             GError         **error);
const char     *hr_ft_method_to_string      (HrFtMethod       method);
gboolean        hr_ft_method_from_string    (const char      *str,
                                             HrFtMethod      *method);
const char     *hr_optimizer_to_string      (HrOptimizer      opt);
gboolean        hr_optimizer_from_string    (const char      *str,
                                             HrOptimizer     *opt);
const char     *hr_sharding_to_string       (HrSharding       sharding);
gboolean        hr_sharding_from_string     (const char      *str,
                                             HrSharding      *sharding);

/* Trainable LoRA parameters: @rank × (in + out) for every adapted matrix of every layer.
 * @all_linear: q,k,v,o + gate,up,down (MLA: q_a,q_b,kv_a,kv_b,o); FALSE: q and v only.
 * @include_experts: also every routed expert's gate/up/down (hr_finetune_compute passes FALSE:
 * the routed experts and the router stay frozen; shared experts and dense FFNs are adapted). */
double          hr_finetune_lora_params     (const HrModel   *model,
                                             int              rank,
                                             gboolean         all_linear,
                                             gboolean         include_experts);

/* Activation bytes per GPU for one micro-batch (Korthikanti et al. 2022 accounting).
 * @flash_attention drops the 5·a·s attention-score term that fused attention never stores
 * (hr_finetune_compute passes ft->flash_attention; FALSE gives the published figure). */
double          hr_finetune_activation_bytes (const HrModel  *model,
                                             int              seq_len,
                                             int              micro_batch,
                                             gboolean         grad_checkpointing,
                                             gboolean         flash_attention);

/* The formulas behind hr_finetune_compute() for @method, as several lines of plain text with
 * their references (for the app's "formulas" popover and `headroom-cli finetune`). */
const char     *hr_finetune_formula_text    (HrFtMethod       method);

/* Memory one @gpu offers a training run: physical × (1 − @reserve), or for unified memory the
 * GPU working-set share (@unified_share when > 0, else the machine's default) — the same
 * capacity hr_estimate_compute() uses for inference. */
double          hr_finetune_usable_bytes    (const HrGpu     *gpu,
                                             double           reserve,
                                             double           unified_share);
/* The verdict for @estimate's per-GPU total on one @gpu (fits / tight / exceeds). */
HrVerdict       hr_finetune_verdict         (const HrFtEstimate *estimate,
                                             const HrGpu     *gpu,
                                             double           reserve,
                                             double           unified_share);

/* The smallest catalog configuration that holds a fine-tuning run. */
typedef struct
{
  const HrGpu *gpu;          /* borrowed from the catalog; NULL when nothing fits */
  int count;                 /* GPUs of that kind, 1 … max_gpus; 0 when nothing fits */
  HrSharding sharding;       /* what the count assumes */
  HrFtEstimate estimate;     /* per GPU at that count */
  HrVerdict verdict;
} HrFtFit;

/* Every catalog device (not the user's own) × {1, 2, 4, 8} up to @max_gpus, smallest total
 * memory first (one device before several, then the cheaper): the first that holds @ft
 * (@reserve and @unified_share as for hr_finetune_usable_bytes()).  Several GPUs use @ft's
 * sharding, or ZeRO-3/FSDP when it has none (plain data parallelism does not lower the memory
 * per GPU); unified-memory machines count once.  @ft's own n_gpus is ignored.  FALSE (and
 * out->count 0) when nothing fits or @ft cannot be computed. */
gboolean        hr_finetune_smallest_fit    (const HrFtScenario *ft,
                                             const HrCatalog *catalog,
                                             int              max_gpus,
                                             double           reserve,
                                             double           unified_share,
                                             HrFtFit         *out);

G_END_DECLS
