/* hr-draft.h — speculative decoding (#31): a draft model, or the model's own MTP layers
 *
 * The draft's weights and KV cache are sized beside the model's; the decode speed it may reach
 * is an expectation at a stated acceptance rate (Leviathan et al. 2023), never a promise.
 */
#pragma once

#include <glib.h>
#include "hr-scenario.h"
#include "hr-estimate.h"

G_BEGIN_DECLS

/* The published acceptance the speed assumes unless the user gives one (hr-draft.c names the
 * measurements). */
double          hr_draft_default_accept     (HrDraftKind        kind);
/* Tokens drafted a target pass by default: the engine's own default, or its documentation's. */
int             hr_draft_default_max        (HrEngine           engine,
                                             HrDraftKind        kind);
/* What the scenario uses: its own figure, or the default. */
double          hr_draft_accept             (const HrScenario  *scenario);
int             hr_draft_max                (const HrScenario  *scenario);

/* Expected tokens one target pass yields with @k drafted tokens, each accepted with
 * probability @alpha while the ones before it were: (1 − α^(k+1)) / (1 − α). */
double          hr_draft_tokens_per_pass    (double             alpha,
                                             int                k);

/* llama.cpp's host sampling of one drafted token over a vocabulary of @n_vocab tokens, in
 * seconds (hr-draft.c: common_sampler_sample () on the CPU while the GPU waits). */
double          hr_draft_sample_seconds     (int                n_vocab);

/* The model ships multi-token-prediction layers (num_nextn_predict_layers). */
gboolean        hr_draft_model_has_mtp      (const HrModel     *model);
/* Whether @engine runs @model's MTP layers; FALSE with the reason, translated. */
gboolean        hr_draft_engine_runs_mtp    (HrEngine           engine,
                                             const HrModel     *model,
                                             char             **reason);
/* Whether @draft can draft for @target: the same tokenizer (the vocabulary size and the
 * family's name, see hr-draft.c) and fewer parameters; FALSE with the reason, translated. */
gboolean        hr_draft_model_fits         (const HrModel     *target,
                                             const HrModel     *draft,
                                             char             **reason);
/* The catalog's models that can draft for @model (hr_draft_model_fits ()), the smallest
 * first; borrowed HrModel pointers. */
struct _HrCatalog;
GPtrArray      *hr_draft_candidates         (const struct _HrCatalog *catalog,
                                             const HrModel     *model);
/* Every check above for the scenario's draft, with HR_SCENARIO_ERROR. */
gboolean        hr_draft_check              (const HrScenario  *scenario,
                                             GError           **error);

/* Adds the scenario's draft to @out (hr_estimate_compute () calls it): its memory on the
 * devices and the expected speed.  Without a draft, zeroes and NANs. */
gboolean        hr_draft_add                (const HrScenario  *scenario,
                                             const HrPricing   *pricing,
                                             HrEstimate        *out,
                                             GError           **error);

/* "at 89 % acceptance, 3 drafted: ~1.8× → 45 tok/s; measured speed-ups vary", translated;
 * NULL without a draft. */
char           *hr_draft_basis_text         (const HrEstimate  *estimate);
/* The same sentence with '.' as the decimal mark whatever LC_NUMERIC says (for JSON). */
char           *hr_draft_basis_json         (const HrEstimate  *estimate);
/* "none", "mtp" or the draft model's id. */
const char     *hr_draft_to_string          (const HrScenario  *scenario);

G_END_DECLS
