/* hr-json-scan.c — a strict JSON reader that builds nothing (RFC 8259: no comments, no trailing
 * commas, no NaN, strings valid UTF-8 without raw control characters) */
#include "hr-json-scan.h"

#include <string.h>

#include "hr-json.h"

void
hr_json_scan_init (HrJsonScan  *scan,
                   const char  *text,
                   gsize        len,
                   GError     **error)
{
  scan->p = text;
  scan->start = text;
  scan->end = text + len;
  scan->error = error;
}

gboolean
hr_json_scan_fail (HrJsonScan *scan,
                   const char *what)
{
  if (scan->error != NULL && *scan->error == NULL)
    g_set_error (scan->error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX,
                 "expected %s at byte %" G_GSIZE_FORMAT, what, (gsize) (scan->p - scan->start));
  return FALSE;
}

gboolean
hr_json_scan_more (HrJsonScan *scan)
{
  while (scan->p < scan->end &&
         (*scan->p == ' ' || *scan->p == '\t' || *scan->p == '\n' || *scan->p == '\r'))
    scan->p++;
  return scan->p < scan->end;
}

gboolean
hr_json_scan_accept (HrJsonScan *scan,
                     char        c)
{
  if (hr_json_scan_more (scan) && *scan->p == c)
    {
      scan->p++;
      return TRUE;
    }
  return FALSE;
}

gboolean
hr_json_scan_expect (HrJsonScan *scan,
                     char        c)
{
  char what[8] = { '\'', c, '\'', 0 };

  if (hr_json_scan_accept (scan, c))
    return TRUE;
  return hr_json_scan_fail (scan, what);
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (HrJsonScan *scan,
           gunichar   *out)
{
  gunichar v = 0;

  if (scan->end - scan->p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int d = hex_digit (scan->p[i]);

      if (d < 0)
        return FALSE;
      v = v * 16 + (gunichar) d;
    }
  scan->p += 4;
  *out = v;
  return TRUE;
}

static void
put (GString *out,
     char     c)
{
  if (out != NULL)
    g_string_append_c (out, c);
}

/* After a backslash; @out may be NULL (skipping). */
static gboolean
read_escape (HrJsonScan *scan,
             GString    *out)
{
  gunichar u;
  char c;

  if (scan->p >= scan->end)
    return FALSE;
  c = *scan->p++;
  switch (c)
    {
    case '"': case '\\': case '/':
      put (out, c);
      return TRUE;
    case 'b': put (out, '\b'); return TRUE;
    case 'f': put (out, '\f'); return TRUE;
    case 'n': put (out, '\n'); return TRUE;
    case 'r': put (out, '\r'); return TRUE;
    case 't': put (out, '\t'); return TRUE;
    case 'u':
      if (!read_hex4 (scan, &u))
        return FALSE;
      if (u >= 0xD800 && u < 0xDC00)
        {
          gunichar lo;

          if (scan->end - scan->p < 2 || scan->p[0] != '\\' || scan->p[1] != 'u')
            return FALSE;
          scan->p += 2;
          if (!read_hex4 (scan, &lo) || lo < 0xDC00 || lo >= 0xE000)
            return FALSE;
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        }
      else if (u >= 0xDC00 && u < 0xE000)
        return FALSE;
      if (u == 0)
        return FALSE;
      if (out != NULL)
        g_string_append_unichar (out, u);
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
hr_json_scan_string (HrJsonScan *scan,
                     GString    *out,
                     gsize       max_len)
{
  if (!hr_json_scan_expect (scan, '"'))
    return FALSE;
  if (out != NULL)
    g_string_truncate (out, 0);
  while (scan->p < scan->end)
    {
      const char *run = scan->p;
      gsize n;

      /* the plain run up to the next quote, backslash or control character */
      while (scan->p < scan->end && *scan->p != '"' && *scan->p != '\\' &&
             (guchar) *scan->p >= 0x20)
        scan->p++;
      n = (gsize) (scan->p - run);
      if (n > 0)
        {
          if (!g_utf8_validate (run, (gssize) n, NULL))
            return hr_json_scan_fail (scan, "a string of valid UTF-8");
          if (out != NULL)
            g_string_append_len (out, run, (gssize) n);
        }
      if (scan->p >= scan->end)
        break;
      if (*scan->p == '"')
        {
          scan->p++;
          if (out != NULL && out->len > max_len)
            return hr_json_scan_fail (scan, "a shorter string");
          return TRUE;
        }
      if (*scan->p != '\\')
        return hr_json_scan_fail (scan, "a string without control characters");
      scan->p++;
      if (!read_escape (scan, out))
        return hr_json_scan_fail (scan, "a valid escape");
      if (out != NULL && out->len > max_len)
        return hr_json_scan_fail (scan, "a shorter string");
    }
  return hr_json_scan_fail (scan, "the end of the string");
}

gboolean
hr_json_scan_uint (HrJsonScan *scan,
                   guint64    *out)
{
  guint64 v = 0;
  const char *first;

  if (!hr_json_scan_more (scan) || !g_ascii_isdigit (*scan->p))
    return hr_json_scan_fail (scan, "a non-negative integer");
  first = scan->p;
  while (scan->p < scan->end && g_ascii_isdigit (*scan->p))
    {
      guint d = (guint) (*scan->p - '0');

      if (v > ((guint64) G_MAXINT64 - d) / 10)
        return hr_json_scan_fail (scan, "an integer below 2^63");
      v = v * 10 + d;
      scan->p++;
    }
  if ((scan->p - first > 1 && *first == '0') ||
      (scan->p < scan->end && strchr (".eE", *scan->p) != NULL))
    return hr_json_scan_fail (scan, "a whole number without leading zeros");
  *out = v;
  return TRUE;
}

static gboolean
skip_number (HrJsonScan *scan)
{
  const char *q = scan->p;

  if (q < scan->end && *q == '-')
    q++;
  if (q >= scan->end || !g_ascii_isdigit (*q))
    return FALSE;
  if (*q == '0')
    q++;
  else
    while (q < scan->end && g_ascii_isdigit (*q))
      q++;
  if (q < scan->end && *q == '.')
    {
      q++;
      if (q >= scan->end || !g_ascii_isdigit (*q))
        return FALSE;
      while (q < scan->end && g_ascii_isdigit (*q))
        q++;
    }
  if (q < scan->end && (*q == 'e' || *q == 'E'))
    {
      q++;
      if (q < scan->end && (*q == '+' || *q == '-'))
        q++;
      if (q >= scan->end || !g_ascii_isdigit (*q))
        return FALSE;
      while (q < scan->end && g_ascii_isdigit (*q))
        q++;
    }
  scan->p = q;
  return TRUE;
}

static gboolean
skip_word (HrJsonScan *scan,
           const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (scan->end - scan->p) < n || memcmp (scan->p, word, n) != 0)
    return FALSE;
  scan->p += n;
  return TRUE;
}

static gboolean
skip_value (HrJsonScan *scan,
            guint       depth,
            guint       max_members)
{
  if (!hr_json_scan_more (scan))
    return hr_json_scan_fail (scan, "a value");
  switch (*scan->p)
    {
    case '{':
    case '[':
      {
        gboolean object = *scan->p == '{';
        char close = object ? '}' : ']';
        guint n = 0;

        if (depth == 0)
          {
            if (scan->error != NULL && *scan->error == NULL)
              g_set_error (scan->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                           "nested too deeply at byte %" G_GSIZE_FORMAT,
                           (gsize) (scan->p - scan->start));
            return FALSE;
          }
        scan->p++;
        if (hr_json_scan_accept (scan, close))
          return TRUE;
        do
          {
            if (object)
              {
                if (++n > max_members)
                  {
                    if (scan->error != NULL && *scan->error == NULL)
                      g_set_error (scan->error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT,
                                   "an object has more than %u members", max_members);
                    return FALSE;
                  }
                if (!hr_json_scan_string (scan, NULL, G_MAXSIZE) ||
                    !hr_json_scan_expect (scan, ':'))
                  return FALSE;
              }
            if (!skip_value (scan, depth - 1, max_members))
              return FALSE;
          }
        while (hr_json_scan_accept (scan, ','));
        return hr_json_scan_expect (scan, close);
      }
    case '"':
      return hr_json_scan_string (scan, NULL, G_MAXSIZE);
    case 't':
      return skip_word (scan, "true") || hr_json_scan_fail (scan, "a value");
    case 'f':
      return skip_word (scan, "false") || hr_json_scan_fail (scan, "a value");
    case 'n':
      return skip_word (scan, "null") || hr_json_scan_fail (scan, "a value");
    default:
      return skip_number (scan) || hr_json_scan_fail (scan, "a value");
    }
}

gboolean
hr_json_scan_skip (HrJsonScan *scan,
                   guint       max_depth)
{
  return skip_value (scan, max_depth, G_MAXUINT);
}

gboolean
hr_json_scan_check (const char  *text,
                    gsize        len,
                    guint        max_depth,
                    guint        max_members,
                    GError     **error)
{
  HrJsonScan scan;

  g_return_val_if_fail (text != NULL || len == 0, FALSE);

  hr_json_scan_init (&scan, text, len, error);
  if (!skip_value (&scan, max_depth, max_members))
    return FALSE;
  if (hr_json_scan_more (&scan))
    return hr_json_scan_fail (&scan, "the end of the document");
  return TRUE;
}
