/* hr-text.c — text from outside made safe to show in a terminal or a label
 *
 * A GGUF's name, an HTTP reason phrase or a feed's provider can carry an escape sequence that
 * recolours or rewrites the user's terminal, or a bidi override that makes "exe.txt" read as
 * "txt.exe" in a label.  Whatever reaches a person passes through here first.
 */
#include "hr-text.h"

#include <math.h>
#include <string.h>

gboolean
hr_text_is_hidden_char (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f)   /* C0, DEL, C1 */
         || c == 0x00ad                          /* soft hyphen */
         || c == 0x061c                          /* Arabic letter mark */
         || (c >= 0x200b && c <= 0x200f)         /* zero-width space … right-to-left mark */
         || (c >= 0x2028 && c <= 0x202e)         /* separators, embeddings, overrides */
         || (c >= 0x2060 && c <= 0x206f)         /* word joiner, isolates, deprecated format */
         || c == 0xfeff                          /* zero-width no-break space */
         || (c >= 0xfff9 && c <= 0xfffb);        /* interlinear annotations */
}

gboolean
hr_text_is_clean (const char *text)
{
  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (hr_text_is_hidden_char (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

static void
append_visible (GString  *out,
                gunichar  c)
{
  if (c == '\n')
    g_string_append (out, "\\n");
  else if (c == '\t')
    g_string_append (out, "\\t");
  else if (c == '\r')
    g_string_append (out, "\\r");
  else if (c < 0x100)
    g_string_append_printf (out, "\\x%02X", c);
  else
    g_string_append_printf (out, "\\u{%04X}", c);
}

char *
hr_text_sanitize (const char *text,
                  gsize       max_chars)
{
  const char *p = text;
  const char *end;
  GString *out;
  gsize n = 0;

  if (text == NULL)
    return NULL;
  end = text + strlen (text);
  out = g_string_sized_new (end - text);
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (max_chars > 0 && n++ == max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02X", (guchar) *p);
          p++;
          continue;
        }
      if (hr_text_is_hidden_char (c))
        append_visible (out, c);
      else
        g_string_append_unichar (out, c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

int
hr_text_find_name (const char * const *names,
                   gsize               n_names,
                   const char         *str)
{
  if (str == NULL)
    return -1;
  for (gsize i = 0; i < n_names; i++)
    if (g_ascii_strcasecmp (str, names[i]) == 0)
      return (int) i;
  return -1;
}

guint
hr_text_edit_distance (const char *a,
                       const char *b)
{
  gsize la = strlen (a);
  gsize lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diag = row[0];

      row[0] = (guint) i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint up = row[j];
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diag + cost);
          diag = up;
        }
    }
  return row[lb];
}

const char *
hr_text_nearest (const char         *word,
                 const char * const *candidates)
{
  g_autofree char *lower = NULL;
  const char *best = NULL;
  guint best_distance = G_MAXUINT;
  gboolean tie = FALSE;
  guint limit;

  if (word == NULL || candidates == NULL)
    return NULL;
  lower = g_ascii_strdown (word, -1);
  limit = MIN (2, (guint) (strlen (lower) + 1) / 2);
  for (guint i = 0; candidates[i] != NULL; i++)
    {
      g_autofree char *c = g_ascii_strdown (candidates[i], -1);
      guint d = hr_text_edit_distance (lower, c);

      if (d == best_distance && best != NULL && g_strcmp0 (best, candidates[i]) != 0)
        tie = TRUE;
      if (d < best_distance)
        {
          best_distance = d;
          best = candidates[i];
          tie = FALSE;
        }
    }
  if (best == NULL || g_str_equal (word, best) || best_distance > limit || tie)
    return NULL;
  return best;
}

gsize
hr_text_display_width (const char *text)
{
  gsize width = 0;

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return text ? strlen (text) : 0;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

gboolean
hr_text_parse_decimal (const char *text,
                       double     *out)
{
  const char *p = text;
  gboolean digits = FALSE;

  if (text == NULL)
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++, digits = TRUE;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (!digits || *p != '\0')
    return FALSE;
  /* only now strtod: it would also read "0x10", "1e3", "inf" and " 7" */
  *out = g_ascii_strtod (text, NULL);
  return isfinite (*out);
}
