/* hr-json-writer.h — a tiny streaming JSON writer over a GString
 *
 * json-glib 1.6 prints doubles with 17 significant digits, so Headroom writes its own JSON:
 * numbers with a fixed count of decimals in the C locale, NAN and infinities as null, and
 * optional two-space pretty printing.  Reports, user data and the CLI all write through it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GString *out;
  int depth;
  gboolean need_comma[64];
  gboolean pretty;
  gboolean after_key;
  int inline_depth;           /* containers at this depth and deeper stay on one line; 0: none */
} HrJsonWriter;

void            hr_json_init                (HrJsonWriter    *w,
                                             GString         *out,
                                             gboolean         pretty);
/* A pretty-printed document in a string of its own: hr_json_document_end() ends it with a
 * newline and returns its text (free with g_free()). */
void            hr_json_document_begin      (HrJsonWriter    *w);
char           *hr_json_document_end        (HrJsonWriter    *w);
void            hr_json_begin_object        (HrJsonWriter    *w);
void            hr_json_end_object          (HrJsonWriter    *w);
/* An object on one line ({"a": 1, "b": 2}) inside a pretty document: one row of a table. */
void            hr_json_begin_object_inline (HrJsonWriter    *w);
/* An array on one line (["a", "b"]) inside a pretty document: a short list. */
void            hr_json_begin_array_inline  (HrJsonWriter    *w);
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
/* 15 significant digits ("%.15g"): exact for every price or size a person writes, without
 * the binary noise of %.17g.  NAN and infinities are written as null. */
void            hr_json_number_g            (HrJsonWriter    *w,
                                             double           value);
void            hr_json_int                 (HrJsonWriter    *w,
                                             gint64           value);
void            hr_json_bool                (HrJsonWriter    *w,
                                             gboolean         value);
void            hr_json_null                (HrJsonWriter    *w);
/* A member of the object being written: "key": value in one call. */
void            hr_json_member_string       (HrJsonWriter    *w,
                                             const char      *key,
                                             const char      *value);
void            hr_json_member_int          (HrJsonWriter    *w,
                                             const char      *key,
                                             gint64           value);
void            hr_json_member_number       (HrJsonWriter    *w,
                                             const char      *key,
                                             double           value,
                                             int              decimals);
void            hr_json_member_number_g     (HrJsonWriter    *w,
                                             const char      *key,
                                             double           value);
void            hr_json_member_bool         (HrJsonWriter    *w,
                                             const char      *key,
                                             gboolean         value);
/* "NAME_gib" (two decimals) and "NAME_bytes" (exact integer) for one byte count. */
void            hr_json_gib_bytes           (HrJsonWriter    *w,
                                             const char      *name,
                                             double           bytes);
/* Escapes @value for a JSON string body (no quotes) and appends it. */
void            hr_json_escape_append       (GString         *out,
                                             const char      *value);

G_END_DECLS
