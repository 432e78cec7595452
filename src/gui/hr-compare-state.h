/* hr-compare-state.h — what the Compare view shows, as plain strings and numbers
 *
 * One column per GPU (× count): the core's HrCompareRow (the very numbers `headroom-cli
 * compare --csv` writes, from the same hr_report_compare_row()) worded for the screen, with
 * each row's best value and every other column's difference from it.  No GTK in here: the
 * whole table, its sorting and its CSV are tested without a display
 * (tests/test-compare-state.c).
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-report.h"

G_BEGIN_DECLS

#define HR_COMPARE_MIN_PICKED  2     /* a comparison wants two GPUs … */
#define HR_COMPARE_MAX_PICKED  8     /* … and up to eight chosen one by one */
#define HR_COMPARE_MAX_COLUMNS 128   /* a preset ("every GPU that fits") may add more */
#define HR_COMPARE_MAX_COUNT   64    /* GPUs of one kind in a column */

/* The table's rows, top to bottom. */
typedef enum
{
  HR_COMPARE_VERDICT,        /* fits / tight / does not fit */
  HR_COMPARE_MEMORY,         /* required of usable */
  HR_COMPARE_MARGIN,         /* usable − required */
  HR_COMPARE_CONTEXT,        /* longest context that fits */
  HR_COMPARE_CAPACITY,       /* vLLM/SGLang: requests of the context the KV pool serves */
  HR_COMPARE_QUANT,          /* best quantization that fits */
  HR_COMPARE_DECODE,         /* decode tok/s and its range */
  HR_COMPARE_PREFILL,        /* prefill tok/s and TTFT */
  HR_COMPARE_COST,           /* cost per 1M tokens */
  HR_COMPARE_PRICE,          /* hardware price */
  HR_COMPARE_PRICE_PER_TPS,  /* hardware price per decode tok/s */
  HR_COMPARE_POWER,          /* board power */
  HR_COMPARE_LAUNCH,         /* the engine's launch command */
  HR_COMPARE_N_METRICS
} HrCompareMetric;

/* "As chosen": no sorting. */
#define HR_COMPARE_SORT_NONE HR_COMPARE_N_METRICS

typedef struct
{
  char *value;       /* "~90.5 tok/s" */
  char *detail;      /* "67.9–104.1 tok/s"; may be NULL */
  char *diff;        /* "best", "−32%", "+45%", "−91.15 GiB"; NULL when not compared */
  gboolean best;     /* the best value of its row */
  gboolean muted;    /* shown, but not compared: the GPU does not fit */
  char *tooltip;     /* may be NULL */
  double key;        /* what the row sorts and compares by; NAN when unknown */
} HrCompareCell;

/* One GPU × count as the user chose it. */
typedef struct
{
  char *gpu_id;
  int count;
} HrCompareEntry;

typedef struct
{
  char *gpu_id;
  int count;
  guint index;               /* position as chosen (ties keep it) */
  char *title;               /* "H100 80GB SXM" */
  char *subtitle;            /* "80 GB · 3350 GB/s" */
  gboolean ok;               /* FALSE: could not be sized; the verdict cell says why */
  HrVerdict verdict;
  const char *verdict_css;   /* "verdict-fits" … "verdict-error" */
  const char *verdict_icon;
  HrCompareCell cells[HR_COMPARE_N_METRICS];
  char *launch_title;        /* "llama.cpp (llama-server)"; NULL when none */
  char *launch_command;      /* shell text; NULL when none */
  HrCompareRow row;          /* the core's numbers (valid when ok) */
} HrCompareColumn;

typedef struct
{
  GPtrArray *columns;        /* HrCompareColumn*, in display order */
  HrCompareMetric sort;      /* HR_COMPARE_SORT_NONE: as chosen */
  gboolean sort_reversed;    /* worst first */
  HrScenario base;           /* the scenario every column is sized with */
  gboolean have_base;
  char *title;               /* "GLM-4.5-Air (110B-A12B)" */
  char *subtitle;            /* "Q4_K_M · 32K context · 1 sequence · F16 KV cache · llama.cpp" */
  guint n_fitting;
} HrCompareState;

HrCompareEntry *hr_compare_entry_new        (const char        *gpu_id,
                                             int                count);
void            hr_compare_entry_free       (HrCompareEntry    *entry);

HrCompareState *hr_compare_state_new        (void);
void            hr_compare_state_free       (HrCompareState    *state);
/* Sizes @base on every entry (HrCompareEntry*; ids missing from @catalog are skipped, at most
 * HR_COMPARE_MAX_COLUMNS) and words the table, keeping the state's sort. */
void            hr_compare_state_compute    (HrCompareState    *state,
                                             const HrScenario  *base,
                                             GPtrArray         *entries,
                                             const HrCatalog   *catalog,
                                             const HrPricing   *pricing);
/* An entry's gpu_id may name a mixed setup (#31): "rtx-4090-24gb:1+rtx-3090-24gb:1", each kind
 * "ID" or "ID:COUNT".  Its kinds into @kinds (at most @max_kinds); 0 when malformed or a GPU is
 * unknown (or the CPU). */
/* The spec of @scenario's mixed setup ("rtx-4090-24gb:1+rtx-3090-24gb:1"); NULL when its devices
 * are alike. */
char           *hr_compare_setup_spec       (const HrScenario   *scenario);
int             hr_compare_setup_parse      (const char         *spec,
                                             const HrCatalog    *catalog,
                                             HrDeviceKind       *kinds,
                                             int                 max_kinds);
/* Orders the columns by @metric, best first (worst first when @reversed); unknown values
 * last, ties as chosen.  HR_COMPARE_SORT_NONE restores the order as chosen. */
void            hr_compare_state_sort       (HrCompareState    *state,
                                             HrCompareMetric    metric,
                                             gboolean           reversed);
/* The table as `headroom-cli compare --csv` writes it (hr_report_compare_csv_header/row),
 * columns in display order; those that could not be sized are left out. */
char           *hr_compare_state_csv        (const HrCompareState *state);
/* The array `headroom-cli compare --json` prints, columns in display order. */
char           *hr_compare_state_json       (const HrCompareState *state);

const char     *hr_compare_metric_title     (HrCompareMetric    metric);  /* translated */
const char     *hr_compare_metric_tooltip   (HrCompareMetric    metric);  /* translated */
gboolean        hr_compare_metric_sortable  (HrCompareMetric    metric);
/* TRUE when more is better (decode speed), FALSE when less is (cost). */
gboolean        hr_compare_metric_higher_is_better (HrCompareMetric metric);

/* Presets ------------------------------------------------------------------------------------ */

typedef enum
{
  HR_COMPARE_PRESET_FITS,    /* every GPU on which the scenario fits */
  HR_COMPARE_PRESET_VENDOR,  /* every GPU of one vendor */
  HR_COMPARE_PRESET_MINE,    /* the user's own GPUs */
} HrComparePreset;

/* HrCompareEntry* for @preset, each × @base->n_gpus (unified-memory machines × 1), in catalog
 * order, at most HR_COMPARE_MAX_COLUMNS.  @vendor is for HR_COMPARE_PRESET_VENDOR. */
GPtrArray      *hr_compare_preset_entries   (HrComparePreset    preset,
                                             const char        *vendor,
                                             const HrScenario  *base,
                                             const HrCatalog   *catalog);
/* The catalog's vendors (char*), sorted, each once. */
GPtrArray      *hr_compare_vendors          (const HrCatalog   *catalog);
/* A starting set: a consumer card, a workstation card, two datacenter GPUs, an AMD
 * accelerator and a unified-memory Mac, with @first (the Size view's GPU) in front. */
GPtrArray      *hr_compare_default_entries  (const HrCatalog   *catalog,
                                             const char        *first,
                                             int                count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCompareState, hr_compare_state_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCompareEntry, hr_compare_entry_free)

G_END_DECLS
