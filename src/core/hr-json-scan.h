/* hr-json-scan.h — a strict JSON reader that builds nothing, for documents a hash table must
 * not hold
 *
 * json-glib keeps an object's members in a GHashTable keyed by g_str_hash, which has no seed:
 * names chosen to collide make building one object quadratic.  A safetensors header or a
 * model.safetensors.index.json has one member per tensor (tens of thousands), written by whoever
 * uploaded the repo.  These are read here instead, one token at a time, into the caller's own
 * arrays; and hr_json_scan_check() bounds the members of every object of a document (a Hub
 * listing) before it goes to hr_json_parse().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *p;
  const char *end;
  const char *start;
  GError **error;
} HrJsonScan;

void            hr_json_scan_init           (HrJsonScan      *scan,
                                             const char      *text,
                                             gsize            len,
                                             GError         **error);
/* Skips white space; FALSE (and no error) at the end of the text. */
gboolean        hr_json_scan_more           (HrJsonScan      *scan);
/* Consumes @c after white space, else sets an error naming what was expected. */
gboolean        hr_json_scan_expect         (HrJsonScan      *scan,
                                             char             c);
/* Consumes @c after white space when it is next; FALSE (no error) otherwise. */
gboolean        hr_json_scan_accept         (HrJsonScan      *scan,
                                             char             c);
/* A string, unescaped into @out (cleared first), refused when longer than @max_len bytes, not
 * valid UTF-8, or holding a control character or a NUL. */
gboolean        hr_json_scan_string         (HrJsonScan      *scan,
                                             GString         *out,
                                             gsize            max_len);
/* A non-negative integer without fraction or exponent, at most 2^63 − 1. */
gboolean        hr_json_scan_uint           (HrJsonScan      *scan,
                                             guint64         *out);
/* Skips any value nested at most @max_depth levels. */
gboolean        hr_json_scan_skip           (HrJsonScan      *scan,
                                             guint            max_depth);
/* Sets a syntax error at the current position, with @what ("a tensor name"). */
gboolean        hr_json_scan_fail           (HrJsonScan      *scan,
                                             const char      *what);

/* Checks that @text is one JSON value, nested at most @max_depth levels, in which no object has
 * more than @max_members members.  Errors are HR_JSON_ERROR (hr-json.h). */
gboolean        hr_json_scan_check          (const char      *text,
                                             gsize            len,
                                             guint            max_depth,
                                             guint            max_members,
                                             GError         **error);

G_END_DECLS
