/* hr-json.h — the one door every JSON document from outside goes through */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define HR_JSON_ERROR (hr_json_error_quark ())
GQuark hr_json_error_quark (void);

typedef enum
{
  HR_JSON_ERROR_SYNTAX,   /* not strict JSON (comments, single quotes, NaN, trailing commas…) */
  HR_JSON_ERROR_LIMIT,    /* deeper or larger than the caller allows */
} HrJsonError;

/* Deep enough for every document Headroom reads (the catalogs need five levels). */
#define HR_JSON_DEFAULT_DEPTH  64
/* A JSON value costs json-glib 60 to 300 bytes however few bytes it took in the text ("{}," is
 * three): the count of values, not the size of the text, is what bounds memory. */
#define HR_JSON_DEFAULT_VALUES 200000
/* Members of one object.  json-glib inserts them into a hash table (hr-json.c says why that
 * matters); Headroom's own formats and real config.json files hold a few dozen. */
#define HR_JSON_DEFAULT_MEMBERS 1024

typedef struct
{
  guint max_depth;     /* levels of nesting */
  guint max_values;    /* values in the whole document */
  guint max_members;   /* members of any one object */
} HrJsonLimits;

/* Checks @text (@length bytes, or NUL-terminated when negative) is strict RFC 8259 JSON —
 * UTF-8, no comments, no NUL or lone surrogate in a string, no object naming a member twice —
 * within @limits, with no object whose member names were chosen to collide in json-glib's
 * hash table, and only then hands it to json-glib.  json-glib parses recursively and skips
 * comments, so a depth counted any other way can be fooled into a stack overflow.  The message
 * of @error is a short reason without a file name. */
JsonParser *hr_json_parse_limited (const char          *text,
                                   gssize               length,
                                   const HrJsonLimits  *limits,
                                   GError             **error);
/* The same with at most HR_JSON_DEFAULT_MEMBERS members an object. */
JsonParser *hr_json_parse (const char  *text,
                           gssize       length,
                           guint        max_depth,
                           guint        max_values,
                           GError     **error);

/* The number @node holds, a JSON integer or float that is finite.  Strings ("1.19") and
 * booleans are not numbers, even where json-glib would convert them. */
gboolean    hr_json_node_get_number (JsonNode *node,
                                     double   *out);

G_END_DECLS
