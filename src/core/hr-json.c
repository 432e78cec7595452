/* hr-json.c — the one door every JSON document from outside goes through
 *
 * json-glib 1.6 is lenient (it skips C comments, reads single-quoted strings) and recursive (it
 * overflows the stack somewhere below 100 000 levels).  Counting brackets while skipping only
 * double-quoted strings is fooled by "/ *]]]* /" hiding the closers, so this scanner accepts
 * strict JSON only: whatever it accepts, json-glib tokenizes the same way, and the depth and
 * value count measured here are the ones json-glib will meet.  The scan is iterative.
 *
 * json-glib keeps an object's members in a GHashTable hashed with g_str_hash (djb2), which we
 * cannot change: names written to share one hash make every insert compare with every earlier
 * name (65 536 of them took 35 s), and a repeated name makes it search the member list.  So
 * the scan also decodes every member name, and when an object closes it refuses a name given
 * twice, more than MAX_SAME_HASH names with one g_str_hash value (never seen in real data: 32
 * bits), and more members than the caller allows.
 */
#include "hr-json.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_STACK     256
/* Distinct names of one object with one g_str_hash value: 2 happens (one in 2^32 pairs), 9
 * only on purpose. */
#define MAX_SAME_HASH 8

/* A member name of an object still open: where its decoded text is in Scan.names. */
typedef struct
{
  guint hash;      /* g_str_hash, as json-glib computes it */
  gsize offset;
} Name;

typedef struct
{
  const char *text;
  gsize length;
  gsize pos;
  GError **error;
  guint max_members;
  GArray *names;     /* Name, the members of every open object, innermost last */
  GString *decoded;  /* their texts, each NUL-terminated */
  GString *key;      /* the name being read, when a name is being read */
  GArray *wide;      /* gsize: where each whole number beyond 64 bits ends */
} Scan;

G_DEFINE_QUARK (hr-json-error-quark, hr_json_error)

static gboolean
syntax_error (Scan *s)
{
  if (s->pos >= s->length)
    g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX, _("the text ends too early"));
  else if (s->text[s->pos] == '/')
    g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX,
                 _("comments are not allowed (byte %llu)"), (unsigned long long) s->pos);
  else
    g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX,
                 _("unexpected character at byte %llu"), (unsigned long long) s->pos);
  return FALSE;
}

static int
peek (const Scan *s)
{
  return s->pos < s->length ? (guchar) s->text[s->pos] : -1;
}

static int
next_token (Scan *s)
{
  int c;

  while ((c = peek (s)) == ' ' || c == '\t' || c == '\r' || c == '\n')
    s->pos++;
  return peek (s);
}

static gboolean
read_hex4 (Scan    *s,
           guint   *out)
{
  guint value = 0;

  for (int i = 0; i < 4; i++, s->pos++)
    {
      int c = peek (s);

      if (c < 0 || !g_ascii_isxdigit (c))
        return syntax_error (s);
      value = value * 16 + (guint) g_ascii_xdigit_value ((char) c);
    }
  *out = value;
  return TRUE;
}

/* \uXXXX after the backslash and the 'u': no NUL (json-glib would cut the string there) and
 * surrogates only in pairs (a lone one would decode to invalid UTF-8). */
static gboolean
read_unicode_escape (Scan     *s,
                     gunichar *out)
{
  gsize start = s->pos - 2;
  guint unit, low;

  if (!read_hex4 (s, &unit))
    return FALSE;
  if (unit == 0)
    {
      g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX,
                   _("a string holds a NUL character (byte %llu)"), (unsigned long long) start);
      return FALSE;
    }
  if (unit >= 0xdc00 && unit <= 0xdfff)
    goto bad;
  *out = unit;
  if (unit < 0xd800 || unit > 0xdbff)
    return TRUE;
  if (s->pos + 2 > s->length || s->text[s->pos] != '\\' || s->text[s->pos + 1] != 'u')
    goto bad;
  s->pos += 2;
  if (!read_hex4 (s, &low))
    return FALSE;
  if (low >= 0xdc00 && low <= 0xdfff)
    {
      *out = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
      return TRUE;
    }
bad:
  s->pos = start;
  return syntax_error (s);
}

/* A string; when s->key is set, its decoded text (as json-glib will hold it) goes there. */
static gboolean
read_string (Scan *s)
{
  static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";

  s->pos++;   /* the opening quote */
  for (;;)
    {
      const char *e;
      gunichar u = 0;
      int c = peek (s);

      if (c < 0x20)   /* the end of the text, or a raw control character */
        return syntax_error (s);
      s->pos++;
      if (c == '"')
        return TRUE;
      if (c != '\\')
        {
          if (s->key != NULL)
            g_string_append_c (s->key, (char) c);
          continue;
        }
      c = peek (s);
      if (c <= 0 || strchr ("\"\\/bfnrtu", c) == NULL)
        return syntax_error (s);
      s->pos++;
      if (c == 'u')
        {
          if (!read_unicode_escape (s, &u))
            return FALSE;
          if (s->key != NULL)
            g_string_append_unichar (s->key, u);
        }
      else if (s->key != NULL)
        {
          for (e = escapes; e[0] != c; e += 2)
            ;
          g_string_append_c (s->key, e[1]);
        }
    }
}

static gboolean
read_digits (Scan *s)
{
  if (peek (s) < 0 || !g_ascii_isdigit (peek (s)))
    return syntax_error (s);
  while (peek (s) >= 0 && g_ascii_isdigit (peek (s)))
    s->pos++;
  return TRUE;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
read_number_syntax (Scan *s)
{
  if (peek (s) == '-')
    s->pos++;
  if (peek (s) == '0')
    s->pos++;
  else if (!read_digits (s))
    return FALSE;
  if (peek (s) == '.')
    {
      s->pos++;
      if (!read_digits (s))
        return FALSE;
    }
  if (peek (s) == 'e' || peek (s) == 'E')
    {
      s->pos++;
      if (peek (s) == '+' || peek (s) == '-')
        s->pos++;
      if (!read_digits (s))
        return FALSE;
    }
  return TRUE;
}

/* Whether @whole (JSON's whole-number syntax: an optional minus, then "0" or digits without a
 * leading zero) lies in gint64's range.  Compared as text: g_ascii_string_to_signed () reads
 * errno, and GLib's first use of its C locale on two threads at once can leave EAGAIN there
 * from the futex wait, which made "schema": 1 look like a number beyond 64 bits. */
static gboolean
whole_fits_int64 (const char *whole)
{
  gboolean negative = whole[0] == '-';
  const char *digits = negative ? whole + 1 : whole;
  const char *limit = negative ? "9223372036854775808" : "9223372036854775807";
  gsize n = strlen (digits);

  return n < strlen (limit) || (n == strlen (limit) && strcmp (digits, limit) <= 0);
}

/* A number.  Where a whole one (no point, no exponent) does not fit in 64 bits is noted:
 * json-glib would wrap it silently (-18446744073709551584 read as 32, 2^63 as -2^63, past
 * 2^64 as -1). */
static gboolean
read_number (Scan *s)
{
  gsize start = s->pos;
  g_autofree char *whole = NULL;

  if (!read_number_syntax (s))
    return FALSE;
  whole = g_strndup (s->text + start, s->pos - start);
  if (strpbrk (whole, ".eE") == NULL && !whole_fits_int64 (whole))
    {
      if (s->wide == NULL)
        s->wide = g_array_new (FALSE, FALSE, sizeof (gsize));
      g_array_append_val (s->wide, s->pos);
    }
  return TRUE;
}

static gboolean
read_literal (Scan *s)
{
  const char *words[] = { "true", "false", "null" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);

      if (s->length - s->pos >= n && memcmp (s->text + s->pos, words[i], n) == 0)
        {
          s->pos += n;
          /* "nullx" is one identifier to json-glib */
          if (peek (s) >= 0 && (g_ascii_isalnum (peek (s)) || peek (s) == '_'))
            return syntax_error (s);
          return TRUE;
        }
    }
  return syntax_error (s);
}

static gboolean
read_scalar (Scan *s,
             int   c)
{
  if (c == '"')
    return read_string (s);
  if (c == '-' || (c >= '0' && c <= '9'))
    return read_number (s);
  return read_literal (s);
}

static gint
name_cmp (gconstpointer a,
          gconstpointer b,
          gpointer      user_data)
{
  const Name *x = a, *y = b;
  const char *texts = user_data;

  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return strcmp (texts + x->offset, texts + y->offset);
}

/* A member name read (its text ends s->decoded): counts it against the object's cap. */
static gboolean
add_name (Scan  *s,
          gsize  offset,
          guint  first)
{
  Name name = { 0, offset };

  g_string_append_c (s->decoded, '\0');
  name.hash = g_str_hash (s->decoded->str + offset);
  g_array_append_val (s->names, name);
  if (s->names->len - first > s->max_members)
    {
      g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                   _("an object has more than %u members (byte %llu)"), s->max_members,
                   (unsigned long long) s->pos);
      return FALSE;
    }
  return TRUE;
}

/* The object whose names begin at @first (in s->names) and @text (in s->decoded) closes:
 * no name twice, no flood of names sharing a hash.  Then its names are dropped. */
static gboolean
close_object (Scan  *s,
              guint  first,
              gsize  text)
{
  Name *names = &g_array_index (s->names, Name, first);
  guint n = s->names->len - first;
  guint same = 1;

  if (n > 1)
    g_qsort_with_data (names, (gint) n, sizeof (Name), name_cmp, s->decoded->str);
  for (guint i = 1; i < n; i++)
    {
      const char *name = s->decoded->str + names[i].offset;

      if (names[i].hash != names[i - 1].hash)
        {
          same = 1;
          continue;
        }
      if (strcmp (name, s->decoded->str + names[i - 1].offset) == 0)
        {
          g_autofree char *shown = hr_text_sanitize (name, 40);

          g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX,
                       _("the name “%s” is given twice in one object (byte %llu)"), shown,
                       (unsigned long long) s->pos);
          return FALSE;
        }
      if (++same > MAX_SAME_HASH)
        {
          g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                       _("the member names of an object were chosen to collide in a hash table "
                         "(byte %llu)"), (unsigned long long) s->pos);
          return FALSE;
        }
    }
  g_array_set_size (s->names, first);
  g_string_truncate (s->decoded, text);
  return TRUE;
}

/* The whole grammar as a loop over an explicit stack of open containers ('{' or '['). */
static gboolean
scan_document (Scan  *s,
               guint  max_depth,
               guint  max_values)
{
  char stack[MAX_STACK];
  guint first_name[MAX_STACK];   /* an open object's first name in s->names */
  gsize first_text[MAX_STACK];   /* …and in s->decoded */
  guint depth = 0;
  guint values = 0;
  gsize key;
  int c;

  max_depth = MIN (max_depth, MAX_STACK);
  for (;;)
    {
      /* A value is expected here. */
      c = next_token (s);
      if (++values > max_values)
        {
          g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                       _("more than %u values"), max_values);
          return FALSE;
        }
      if (c == '{' || c == '[')
        {
          if (depth == max_depth)
            {
              g_set_error (s->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                           _("nested deeper than %u levels"), max_depth);
              return FALSE;
            }
          first_name[depth] = s->names->len;
          first_text[depth] = s->decoded->len;
          stack[depth++] = (char) c;
          s->pos++;
          c = next_token (s);
          if (c == (stack[depth - 1] == '{' ? '}' : ']'))
            {
              s->pos++;
              depth--;
              goto after_value;
            }
          if (stack[depth - 1] == '{')
            goto member_key;
          continue;
        }
      if (!read_scalar (s, c))
        return FALSE;

after_value:
      for (;;)
        {
          c = next_token (s);
          if (depth == 0)
            return c < 0 ? TRUE : syntax_error (s);
          if (c == ',')
            {
              s->pos++;
              break;
            }
          if (c != (stack[depth - 1] == '{' ? '}' : ']'))
            return syntax_error (s);
          s->pos++;
          depth--;
          if (stack[depth] == '{' && !close_object (s, first_name[depth], first_text[depth]))
            return FALSE;
        }
      if (stack[depth - 1] == '[')
        continue;

member_key:
      if (next_token (s) != '"')
        return syntax_error (s);
      key = s->decoded->len;
      s->key = s->decoded;
      if (!read_string (s))
        return FALSE;
      s->key = NULL;
      if (!add_name (s, key, first_name[depth - 1]))
        return FALSE;
      if (next_token (s) != ':')
        return syntax_error (s);
      s->pos++;
    }
}

JsonParser *
hr_json_parse_limited (const char          *text,
                       gssize               length,
                       const HrJsonLimits  *limits,
                       GError             **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (Name));
  g_autoptr(GString) decoded = g_string_new (NULL);
  g_autoptr(GString) widened = NULL;
  Scan s = { 0 };

  g_return_val_if_fail (text != NULL || length <= 0, NULL);
  g_return_val_if_fail (limits != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  s.text = text != NULL ? text : "";
  s.length = length < 0 ? strlen (s.text) : (gsize) length;
  s.error = &local_error;
  s.max_members = limits->max_members;
  s.names = names;
  s.decoded = decoded;

  if (!g_utf8_validate_len (s.text, s.length, NULL))
    {
      g_set_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX, _("it is not UTF-8 text"));
      return NULL;
    }
  if (next_token (&s) < 0)
    {
      g_set_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX, _("it is empty"));
      return NULL;
    }
  if (!scan_document (&s, limits->max_depth, limits->max_values))
    {
      g_clear_pointer (&s.wide, g_array_unref);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  /* a whole number beyond 64 bits is handed to json-glib as the real number it is ("….0"),
   * so every reader's range refuses it instead of reading the wrapped value */
  if (s.wide != NULL)
    {
      gsize from = 0;

      widened = g_string_sized_new (s.length + 2 * s.wide->len);
      for (guint i = 0; i < s.wide->len; i++)
        {
          gsize end = g_array_index (s.wide, gsize, i);

          g_string_append_len (widened, s.text + from, (gssize) (end - from));
          g_string_append (widened, ".0");
          from = end;
        }
      g_string_append_len (widened, s.text + from, (gssize) (s.length - from));
      g_clear_pointer (&s.wide, g_array_unref);
    }
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, widened ? widened->str : s.text,
                                   widened ? (gssize) widened->len : (gssize) s.length, &local_error))
    {
      g_set_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX, "%s", local_error->message);
      return NULL;
    }
  return g_steal_pointer (&parser);
}

JsonParser *
hr_json_parse (const char  *text,
               gssize       length,
               guint        max_depth,
               guint        max_values,
               GError     **error)
{
  HrJsonLimits limits = { max_depth, max_values, HR_JSON_DEFAULT_MEMBERS };

  return hr_json_parse_limited (text, length, &limits, error);
}

gboolean
hr_json_node_get_number (JsonNode *node,
                         double   *out)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *out = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*out);
}
