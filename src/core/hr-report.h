/* hr-report.h — estimates as JSON, CSV and text, with locale-independent numbers
 *
 * The JSON goes through HrJsonWriter (hr-json-writer.h).
 */
#pragma once

#include <glib.h>
#include "hr-estimate.h"
#include "hr-advice.h"
#include "hr-finetune.h"
#include "hr-json-writer.h"

G_BEGIN_DECLS

/* The members SPEC §5 lists for `estimate --json` (and a few more), written into the object
 * the writer is in. */
void            hr_report_estimate_members  (HrJsonWriter    *w,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate);
/* The same members; with @device FALSE (no accelerator chosen) every figure that depends on
 * the device is null, so the keys stay those of `estimate --json`. */
void            hr_report_estimate_members_device (HrJsonWriter *w,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate,
                                             gboolean         device);
/* A complete `estimate --json` document. */
char           *hr_report_estimate_json     (const HrScenario *scenario,
                                             const HrEstimate *estimate);
/* Human-readable text (translated labels, C-locale numbers). */
char           *hr_report_estimate_text     (const HrScenario *scenario,
                                             const HrEstimate *estimate);

/* CSV: RFC 4180 quoting, '.' decimals. */
void            hr_csv_field                (GString         *out,
                                             const char      *value,
                                             gboolean         last);
void            hr_csv_number               (GString         *out,
                                             double           value,
                                             int              decimals,
                                             gboolean         last);

/* Compare: one GPU (× count) of a comparison, and everything `headroom-cli compare` and the
 * app's Compare view show for it ------------------------------------------------------------ */

typedef struct
{
  HrScenario scenario;          /* the base scenario on this GPU × count */
  HrEstimate estimate;          /* cost filled by hr_advice_fill_cost() */
  gint64 max_context;           /* longest context that fits; 0: none */
  const HrQuantMix *best_quant; /* highest-precision quant that fits; NULL: none */
  double price_usd;             /* count × the GPU's price; NAN when unknown */
  double usd_per_decode_tps;    /* price ÷ decode tok/s; NAN when unknown or not fitting */
  double power_w;               /* count × board power; NAN when unknown */
} HrCompareRow;

/* Sizes @base on @count × @gpu (the backend follows the GPU unless @base forces one). */
gboolean        hr_report_compare_row       (const HrScenario *base,
                                             const HrGpu     *gpu,
                                             int              count,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing,
                                             HrCompareRow    *out,
                                             GError         **error);
/* The same on a setup of @n_kinds kinds of device (#31: "RTX 4090 + RTX 3090"; one kind is
 * the plain count × GPU): prices and board power add up over the devices. */
gboolean        hr_report_compare_row_setup (const HrScenario   *base,
                                             const HrDeviceKind *kinds,
                                             int                 n_kinds,
                                             const HrCatalog    *catalog,
                                             const HrPricing    *pricing,
                                             HrCompareRow       *out,
                                             GError            **error);

/* The CSV of `compare --csv`: the column names, one line per row, the last column saying how
 * the row was made (model, quant, context … as "key=value" words).  UTF-8, RFC 4180 quoting, '.' decimals, empty fields for unknown numbers. */
void            hr_report_compare_csv_header (GString        *out,
                                             const HrScenario *base);
void            hr_report_compare_csv_row   (GString         *out,
                                             const HrCompareRow *row);
/* All of it for @gpus (const HrGpu *), each × @scenario->n_gpus.  FALSE when a GPU cannot be
 * sized (@out then holds the rows before it). */
gboolean        hr_report_compare_csv       (GString         *out,
                                             const HrScenario *scenario,
                                             GPtrArray       *gpus,
                                             const HrCatalog *catalog,
                                             const HrPricing *pricing,
                                             GError         **error);
/* The members of one `compare --json` array element, into the object the writer is in. */
void            hr_report_compare_members   (HrJsonWriter    *w,
                                             const HrCompareRow *row);

/* Fine-tuning: the object `finetune --json` prints.  @gpu (nullable) adds its verdict with
 * @reserve / @unified_share as for hr_finetune_usable_bytes(). */
char           *hr_report_finetune_json     (const HrFtScenario *ft,
                                             const HrFtEstimate *estimate,
                                             const HrGpu     *gpu,
                                             double           reserve,
                                             double           unified_share);

G_END_DECLS
