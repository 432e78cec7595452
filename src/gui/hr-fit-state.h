/* hr-fit-state.h — what the What Runs Here view shows, as plain strings and numbers
 *
 * The core's ranking (hr_fit_rank(), the very rows `headroom-cli fit` prints) for the session's
 * hardware and the view's filters, worded for the screen: one item per model, the ones that
 * fit first.  No GTK in here: tested without a display (tests/test-fit-state.c).
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-fit.h"

G_BEGIN_DECLS

/* The filters' choices, in the order the view's drop-downs list them. */
extern const gint64 hr_fit_context_choices[];   /* 4K … 1M, 0-terminated */
extern const double hr_fit_speed_choices[];     /* 0 (any) … 100 tokens/s, < 0-terminated */

typedef struct
{
  const HrModel *model;     /* borrowed from the catalog */
  gboolean listed;          /* it fits (the row is in the ranked list) */
  guint rank;               /* 1 … for listed items; 0 otherwise */
  char *title;              /* "Qwen3.5 27B" */
  char *subtitle;           /* "Q6_K · up to 26K context · 39.2 tokens/s · 1.2 GiB spare" or
                             * the reason it is left out */
  char *quality;            /* "42.0", "unknown" */
  char *badge;              /* "Fits", "Tight", "Experts in RAM", "Does not fit" */
  const char *badge_css;    /* "verdict-fits", "verdict-tight", "verdict-exceeds" */
  char *description;        /* one sentence for screen readers */
  /* what activating it opens in the Size view */
  char quant[32];
  gint64 context;
  int n_cpu_moe;
  double decode_tps;        /* NAN when left out */
  double quality_value;     /* NAN when unknown */
} HrFitItem;

typedef struct
{
  HrFitNeeds needs;
  GArray *rows;             /* HrFitRow from hr_fit_rank() */
  GPtrArray *items;         /* HrFitItem: listed in rank order, then those left out */
  guint n_listed;
  guint n_unknown;          /* listed without a published quality */
  double usable_gib;
  char *title;              /* "What runs on 1× RTX 4090 24GB" */
  char *subtitle;           /* engine, usable memory, what ranks */
  char *quality_name;       /* the metric's name, or NULL when none is published */
} HrFitState;

/* Ranks @models (const HrModel *) for @base's hardware and engine under @needs. */
HrFitState     *hr_fit_state_new            (const HrScenario *base,
                                             GPtrArray       *models,
                                             const HrCatalog *catalog,
                                             const HrQuality *quality,
                                             const HrFitNeeds *needs);
void            hr_fit_state_free           (HrFitState      *state);

/* Up to @n listed items other than @model_id (may be NULL), best first: the Size view's
 * "other models on this hardware". */
GPtrArray      *hr_fit_state_top            (const HrFitState *state,
                                             const char      *model_id,
                                             guint            n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrFitState, hr_fit_state_free)

G_END_DECLS
