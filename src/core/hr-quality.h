/* hr-quality.h — published quality figures per model, and what a quantization costs
 *
 * The bundled data/quality.json (format in data/CATALOG-FORMAT.md) holds, per model and use
 * case, one figure from a public benchmark with its source URL and date, and per quantization
 * a factor from published llama.cpp measurements.  A model without a figure has none: the
 * lookups answer NULL / NAN and the caller says "unknown".
 */
#pragma once

#include <glib.h>
#include "hr-model.h"

G_BEGIN_DECLS

/* What the user wants the model for: which published figure ranks it. */
typedef enum
{
  HR_USE_CASE_GENERAL,     /* an aggregate index over reasoning, knowledge, maths and code */
  HR_USE_CASE_CODING,
  HR_USE_CASE_CHAT,
  HR_N_USE_CASES
} HrUseCase;

const char     *hr_use_case_to_string       (HrUseCase        use_case);  /* general|coding|chat */
gboolean        hr_use_case_from_string     (const char      *str,
                                             HrUseCase       *use_case);
const char     *hr_use_case_display         (HrUseCase        use_case);  /* translated */

/* One published figure. Strings are owned by the HrQuality. */
typedef struct
{
  char *model;         /* catalog model id */
  char *hf_repo;       /* the repository it was measured on (a Hub import of it matches); may be NULL */
  HrUseCase use_case;
  char *metric;        /* metric id, one of the file's metrics */
  char *variant;       /* what the source calls the model ("Qwen3.5 27B (Reasoning)") */
  double value;
  char *source;        /* URL */
  char *date;          /* YYYY-MM-DD the figure was published or read */
} HrQualityScore;

/* A metric: its name and range. */
typedef struct
{
  char *id;
  char *name;          /* "Artificial Analysis Intelligence Index v4" */
  double min, max;
} HrQualityMetric;

/* What a quant costs: the mean change in the probability of the correct token, measured
 * against FP16 (llama.cpp's perplexity tool), as a factor (1 + Δp). */
typedef struct
{
  char *quant;
  double factor;       /* 0 < factor <= 1 */
  double kld;          /* mean KL divergence against FP16; NAN when not given */
  char *source;
  char *date;
} HrQuantCost;

typedef struct _HrQuality HrQuality;

#define HR_QUALITY_RESOURCE_PATH "/io/github/headroomapp/Headroom/data/quality.json"

/* Parses a quality document; @file names it in errors.  Every score must name a metric of the
 * file, be within the metric's range and carry a source URL (https://) and a date; every
 * factor must be in (0, 1].  @known_model (may be NULL) is asked whether a model id exists. */
HrQuality      *hr_quality_parse            (const char      *json,
                                             gssize           length,
                                             const char      *file,
                                             gboolean       (*known_model) (const char *id,
                                                                            gpointer    data),
                                             gpointer         data,
                                             GError         **error);
/* The bundled file (parsed once, shared; never freed).  NULL with an error when missing. */
const HrQuality *hr_quality_get_default     (GError         **error);
void            hr_quality_free             (HrQuality       *quality);

/* The figure for @model and @use_case: by the model's id, else by its Hugging Face repository
 * (a saved or Hub model of the same repository).  NULL when none is published. */
const HrQualityScore *hr_quality_find       (const HrQuality *quality,
                                             const HrModel   *model,
                                             HrUseCase        use_case);
const HrQualityMetric *hr_quality_metric    (const HrQuality *quality,
                                             const char      *id);
/* The cost of @quant for @model: 1 for the model's native format and 16-bit formats; NULL
 * when no measurement is published for the quant. */
const HrQuantCost *hr_quality_quant_cost    (const HrQuality *quality,
                                             const char      *quant);
/* @value after @quant's cost (value × factor); @value unchanged for a native or 16-bit
 * quant; NAN when @value is NAN or the quant's cost is unknown. */
double          hr_quality_at_quant         (const HrQuality *quality,
                                             const HrModel   *model,
                                             const char      *quant,
                                             double           value);

guint           hr_quality_n_scores         (const HrQuality *quality);
const HrQualityScore *hr_quality_get_score  (const HrQuality *quality,
                                             guint            index);
guint           hr_quality_n_costs          (const HrQuality *quality);
const HrQuantCost *hr_quality_get_cost      (const HrQuality *quality,
                                             guint            index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrQuality, hr_quality_free)

G_END_DECLS
