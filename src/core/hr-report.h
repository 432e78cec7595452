/* hr-report.h — estimates as JSON, CSV and text, with locale-independent numbers
 *
 * json-glib 1.6 prints doubles with 17 significant digits, so Headroom writes its own JSON: a
 * tiny streaming writer over a GString.
 */
#pragma once

#include <glib.h>
#include "hr-estimate.h"
#include "hr-advice.h"

G_BEGIN_DECLS

typedef struct
{
  GString *out;
  int depth;
  gboolean need_comma[64];
  gboolean pretty;
  gboolean after_key;
} HrJsonWriter;

void            hr_json_init                (HrJsonWriter    *w,
                                             GString         *out,
                                             gboolean         pretty);
void            hr_json_begin_object        (HrJsonWriter    *w);
void            hr_json_end_object          (HrJsonWriter    *w);
void            hr_json_begin_array         (HrJsonWriter    *w);
void            hr_json_end_array           (HrJsonWriter    *w);
void            hr_json_key                 (HrJsonWriter    *w,
                                             const char      *key);
void            hr_json_string              (HrJsonWriter    *w,
                                             const char      *value);
/* NAN and infinities are written as null. */
void            hr_json_number              (HrJsonWriter    *w,
                                             double           value,
                                             int              decimals);
void            hr_json_int                 (HrJsonWriter    *w,
                                             gint64           value);
void            hr_json_bool                (HrJsonWriter    *w,
                                             gboolean         value);
void            hr_json_null                (HrJsonWriter    *w);
/* Escapes @value for a JSON string body (no quotes) and appends it. */
void            hr_json_escape_append       (GString         *out,
                                             const char      *value);

/* The members SPEC §5 lists for `estimate --json` (and a few more), written into the object
 * the writer is in. */
void            hr_report_estimate_members  (HrJsonWriter    *w,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate);
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

G_END_DECLS
