/* hr-text.c — text from outside made safe to show in a terminal or a label
 *
 * A GGUF's name, an HTTP reason phrase or a feed's provider can carry an escape sequence that
 * recolours or rewrites the user's terminal, or a bidi override that makes "exe.txt" read as
 * "txt.exe" in a label.  Whatever reaches a person passes through here first.
 */
#include "hr-text.h"

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
