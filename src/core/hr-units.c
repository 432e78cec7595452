/* hr-units.c — byte units and locale-independent number output */
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double
hr_round (double value,
          int    decimals)
{
  double scale;

  if (!isfinite (value))
    return value;
  scale = pow (10.0, decimals);
  /* Nudge by a few ulps so 0.125 → 0.13 and 67.955 (stored as 67.95499…) rounds the way a
   * person writing the figure by hand would. */
  if (value >= 0)
    return floor (value * scale + 0.5 + 1e-9) / scale;
  return -floor (-value * scale + 0.5 + 1e-9) / scale;
}

const char *
hr_format_number_c_buf (char   *buf,
                        gsize   size,
                        double  value,
                        int     decimals)
{
  char fmt[16];

  if (!isfinite (value))
    {
      g_strlcpy (buf, "null", size);
      return buf;
    }
  value = hr_round (value, decimals);
  if (value == 0)
    value = 0; /* no "-0.00" */
  g_snprintf (fmt, sizeof fmt, "%%.%df", CLAMP (decimals, 0, 12));
  /* g_ascii_formatd always writes '.', whatever LC_NUMERIC says. */
  g_ascii_formatd (buf, size, fmt, value);
  return buf;
}

const char *
hr_format_number_locale_buf (char   *buf,
                             gsize   size,
                             double  value,
                             int     decimals)
{
  if (!isfinite (value))
    {
      g_strlcpy (buf, "—", size);
      return buf;
    }
  value = hr_round (value, decimals);
  if (value == 0)
    value = 0;
  /* the ' flag groups the thousands as LC_NUMERIC says: "2,712" in English, "2.712" in
   * German, a narrow space in French; the C and POSIX locales group nothing (issue 18) */
  snprintf (buf, size, "%'.*f", CLAMP (decimals, 0, 12), value);
  return buf;
}

void
hr_c_numeric_begin (HrCNumeric *scope)
{
  locale_t now = duplocale (uselocale ((locale_t) 0));

  scope->c = now != (locale_t) 0 ? newlocale (LC_NUMERIC_MASK, "C", now) : (locale_t) 0;
  if (scope->c == (locale_t) 0 && now != (locale_t) 0)
    freelocale (now);
  scope->old = scope->c != (locale_t) 0 ? uselocale (scope->c) : (locale_t) 0;
}

void
hr_c_numeric_end (HrCNumeric *scope)
{
  if (scope->c == (locale_t) 0)
    return;
  uselocale (scope->old);
  freelocale (scope->c);
  scope->c = (locale_t) 0;
}

const char *
hr_format_usd_locale_buf (char   *buf,
                          gsize   size,
                          double  usd,
                          int     decimals)
{
  char digits[64];
  g_autofree char *price = NULL;

  if (!isfinite (usd))
    return hr_format_number_locale_buf (buf, size, usd, decimals);
  hr_format_number_locale_buf (digits, sizeof digits, fabs (usd), decimals);
  /* TRANSLATORS: a price in US dollars, e.g. "$8,500" */
  price = g_strdup_printf (_("$%s"), digits);
  g_snprintf (buf, size, "%s%s", hr_round (usd, decimals) < 0 ? "-" : "", price);
  return buf;
}

char *
hr_format_number_c (double value,
                    int    decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];

  return g_strdup (hr_format_number_c_buf (buf, sizeof buf, value, decimals));
}

char *
hr_format_duration_ms (double ms)
{
  char n[64];

  if (!isfinite (ms) || ms < 0)
    return g_strdup (_("unknown"));
  /* Switch unit before the figure grows past three digits: "641579 ms" reads as a number,
   * "~10.7 min" as a wait.  The thresholds are on the rounded figure, so 9999.6 ms is "~10 s". */
  if (hr_round (ms, 0) < 10000)
    /* TRANSLATORS: a duration in milliseconds, e.g. "~772 ms" */
    return g_strdup_printf (_("~%s ms"), hr_format_number_locale_buf (n, sizeof n, ms, 0));
  if (hr_round (ms / 1000.0, 1) < 120)
    /* TRANSLATORS: a duration in seconds, e.g. "~12.5 s" */
    return g_strdup_printf (_("~%s s"), hr_format_number_locale_buf (n, sizeof n, ms / 1000.0, 1));
  if (hr_round (ms / 60000.0, 1) < 120)
    /* TRANSLATORS: a duration in minutes, e.g. "~4.3 min" */
    return g_strdup_printf (_("~%s min"), hr_format_number_locale_buf (n, sizeof n, ms / 60000.0, 1));
  /* TRANSLATORS: a duration in hours, e.g. "~2.1 h" */
  return g_strdup_printf (_("~%s h"), hr_format_number_locale_buf (n, sizeof n, ms / 3600000.0, 1));
}

char *
hr_format_context_short (gint64 tokens)
{
  if (tokens >= 1048576 && tokens % 1048576 == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT "M", tokens / 1048576);
  if (tokens >= 1024 && tokens % 1024 == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT "K", tokens / 1024);
  return g_strdup_printf ("%" G_GINT64_FORMAT, tokens);
}

char *
hr_format_context_locale (gint64 tokens)
{
  char buf[64];

  if (tokens >= 1024 && tokens % 1024 == 0)
    return hr_format_context_short (tokens);
  return g_strdup (hr_format_number_locale_buf (buf, sizeof buf, (double) tokens, 0));
}

char *
hr_slugify (const char *text,
            gsize       max_len,
            const char *fallback)
{
  GString *slug = g_string_new (NULL);

  for (const char *p = text; p != NULL && *p && slug->len < max_len; p++)
    {
      char c = g_ascii_tolower (*p);

      if (g_ascii_isalnum (c) || (strchr ("._+", c) != NULL && slug->len > 0))
        g_string_append_c (slug, c);
      else if (slug->len > 0 && slug->str[slug->len - 1] != '-')
        g_string_append_c (slug, '-');
    }
  while (slug->len > 0 && !g_ascii_isalnum (slug->str[slug->len - 1]))
    g_string_truncate (slug, slug->len - 1);
  if (slug->len == 0 && fallback != NULL)
    g_string_append (slug, fallback);
  return g_string_free (slug, FALSE);
}

gboolean
hr_parse_context (const char *str,
                  gint64     *out)
{
  const char *p;
  guint64 value = 0;
  guint64 mult = 1;

  g_return_val_if_fail (out != NULL, FALSE);

  if (str == NULL)
    return FALSE;
  while (g_ascii_isspace (*str))
    str++;
  if (!g_ascii_isdigit (*str))
    return FALSE;
  for (p = str; g_ascii_isdigit (*p); p++)
    {
      if (value > (G_MAXINT64 - 9) / 10)
        return FALSE;
      value = value * 10 + (guint64) (*p - '0');
    }
  if (*p == 'k' || *p == 'K')
    mult = 1024, p++;
  else if (*p == 'm' || *p == 'M')
    mult = 1048576, p++;
  while (g_ascii_isspace (*p))
    p++;
  if (*p != '\0' || value == 0)
    return FALSE;
  if (value > (guint64) G_MAXINT64 / mult)
    return FALSE;
  *out = (gint64) (value * mult);
  return TRUE;
}

/* The length of the thousands separator at @p: the locale's own or one another locale uses
 * (",", ".", "'", a space, a no-break or a narrow no-break space); 0 when there is none. */
static gsize
group_separator_len (const char *p)
{
  static const char *const common[] = { ",", ".", "'", " ", "\u00a0", "\u202f", "\u2019" };
  const char *own = localeconv ()->thousands_sep;

  if (own != NULL && *own != '\0' && g_str_has_prefix (p, own))
    return strlen (own);
  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    if (g_str_has_prefix (p, common[i]))
      return strlen (common[i]);
  return 0;
}

gboolean
hr_parse_context_locale (const char *str,
                         gint64     *out)
{
  g_autoptr(GString) plain = g_string_new (NULL);

  g_return_val_if_fail (out != NULL, FALSE);

  if (str == NULL)
    return FALSE;
  for (const char *p = str; *p != '\0';)
    {
      gsize sep = p > str && g_ascii_isdigit (p[-1]) ? group_separator_len (p) : 0;

      /* a separator stands between digits, before a group of exactly three */
      if (sep > 0 && strspn (p + sep, "0123456789") == 3)
        p += sep;
      else
        g_string_append_c (plain, *p++);
    }
  return hr_parse_context (plain->str, out);
}
