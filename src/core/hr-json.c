/* hr-json.c — the one door every JSON document from outside goes through
 *
 * json-glib 1.6 is lenient (it skips C comments, reads single-quoted strings) and recursive (it
 * overflows the stack somewhere below 100 000 levels).  Counting brackets while skipping only
 * double-quoted strings is fooled by "/ *]]]* /" hiding the closers, so this scanner accepts
 * strict JSON only: whatever it accepts, json-glib tokenizes the same way, and the depth and
 * value count measured here are the ones json-glib will meet.  The scan is iterative.
 */
#include "hr-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_STACK 256

typedef struct
{
  const char *text;
  gsize length;
  gsize pos;
  GError **error;
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
read_unicode_escape (Scan *s)
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
  if (unit < 0xd800 || unit > 0xdbff)
    return TRUE;
  if (s->pos + 2 > s->length || s->text[s->pos] != '\\' || s->text[s->pos + 1] != 'u')
    goto bad;
  s->pos += 2;
  if (!read_hex4 (s, &low))
    return FALSE;
  if (low >= 0xdc00 && low <= 0xdfff)
    return TRUE;
bad:
  s->pos = start;
  return syntax_error (s);
}

static gboolean
read_string (Scan *s)
{
  s->pos++;   /* the opening quote */
  for (;;)
    {
      int c = peek (s);

      if (c < 0x20)   /* the end of the text, or a raw control character */
        return syntax_error (s);
      s->pos++;
      if (c == '"')
        return TRUE;
      if (c != '\\')
        continue;
      c = peek (s);
      if (c <= 0 || strchr ("\"\\/bfnrtu", c) == NULL)
        return syntax_error (s);
      s->pos++;
      if (c == 'u' && !read_unicode_escape (s))
        return FALSE;
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
read_number (Scan *s)
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

/* The whole grammar as a loop over an explicit stack of open containers ('{' or '['). */
static gboolean
scan_document (Scan  *s,
               guint  max_depth,
               guint  max_values)
{
  char stack[MAX_STACK];
  guint depth = 0;
  guint values = 0;
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
        }
      if (stack[depth - 1] == '[')
        continue;

member_key:
      if (next_token (s) != '"' || !read_string (s))
        return s->error != NULL && *s->error != NULL ? FALSE : syntax_error (s);
      if (next_token (s) != ':')
        return syntax_error (s);
      s->pos++;
    }
}

JsonParser *
hr_json_parse (const char  *text,
               gssize       length,
               guint        max_depth,
               guint        max_values,
               GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  Scan s = { 0 };

  g_return_val_if_fail (text != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  s.text = text != NULL ? text : "";
  s.length = length < 0 ? strlen (s.text) : (gsize) length;
  s.error = &local_error;

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
  if (!scan_document (&s, max_depth, max_values))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, s.text, (gssize) s.length, &local_error))
    {
      g_set_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX, "%s", local_error->message);
      return NULL;
    }
  return g_steal_pointer (&parser);
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
