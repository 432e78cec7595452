/* hr-units.h — byte units and locale-independent number output */
#pragma once

#include <glib.h>
#include <locale.h>

G_BEGIN_DECLS

#define HR_GIB (1024.0 * 1024.0 * 1024.0)
#define HR_MIB (1024.0 * 1024.0)
#define HR_GB  1e9

static inline double hr_to_gib (double bytes) { return bytes / HR_GIB; }
static inline double hr_to_gb  (double bytes) { return bytes / HR_GB; }
static inline double hr_from_gib (double gib) { return gib * HR_GIB; }

/* Rounds to @decimals places, half away from zero. */
double          hr_round                    (double           value,
                                             int              decimals);
/* Writes @value with @decimals places using '.' whatever the locale ("67.96"); "null" for NAN. */
char           *hr_format_number_c          (double           value,
                                             int              decimals);
/* Same into a caller buffer. */
const char     *hr_format_number_c_buf      (char            *buf,
                                             gsize            size,
                                             double           value,
                                             int              decimals);
/* The same with the user's decimal separator and thousands grouping ("67,96" and "2.712" on a
 * German desktop, "2,712" in English, "2712" in the C locale): for text people read, never
 * for JSON or CSV. */
const char     *hr_format_number_locale_buf (char            *buf,
                                             gsize            size,
                                             double           value,
                                             int              decimals);
/* Between hr_c_numeric_begin () and hr_c_numeric_end (), numbers this thread prints use '.'
 * whatever LC_NUMERIC says, and nothing else of the locale changes (messages stay
 * translated): for the figures inside text that goes into JSON or CSV ("9.13 GiB read per
 * token" in German JSON too). */
typedef struct
{
  locale_t c;
  locale_t old;
} HrCNumeric;

void            hr_c_numeric_begin          (HrCNumeric      *scope);
void            hr_c_numeric_end            (HrCNumeric      *scope);
/* A price in US dollars for text people read, the one rule of the GUI, the CLI and the charts:
 * hr_format_number_locale_buf's digits in the translated "$%s" ("$8,500" and "$3.05" in English,
 * "$8.500" and "$3,05" in German, "$8500" in the C locale), a minus sign first; "—" when @usd
 * is not finite.  Never for JSON or CSV. */
const char     *hr_format_usd_locale_buf    (char            *buf,
                                             gsize            size,
                                             double           usd,
                                             int              decimals);
/* A wait as a person reads it, in the user's locale: "~772 ms", "~12.5 s", "~4.3 min",
 * "~2.1 h"; "unknown" when @ms is not finite.  Newly allocated. */
char           *hr_format_duration_ms       (double           ms);
/* "32K", "128K", "1M" for context lengths. */
char           *hr_format_context_short     (gint64           tokens);
/* The same for text people read: "32K" stays, a plain count is grouped as LC_NUMERIC says
 * ("52.480" in German, "52480" in the C locale).  Never for JSON or CSV. */
char           *hr_format_context_locale    (gint64           tokens);
/* What people type or read back from a grouped count, as hr_parse_context () reads it:
 * "16,384", "16.384", "16 384" (the locale's separator, or any locale's between groups of three
 * digits, so "16,384" works in German too), "32K".  FALSE as hr_parse_context () is. */
gboolean        hr_parse_context_locale     (const char      *str,
                                             gint64          *out);
/* "Qwen/Qwen3 30B (mine)" → "qwen-qwen3-30b-mine": lower-case ASCII letters, digits, '.', '_',
 * '+' and single dashes, at most @max_len bytes, starting and ending with a letter or digit;
 * @fallback when nothing is left. */
char           *hr_slugify                  (const char      *text,
                                             gsize            max_len,
                                             const char      *fallback);
/* Parses "32768", "32k", "128K", "1M". FALSE on garbage, overflow, or <= 0. */
gboolean        hr_parse_context            (const char      *str,
                                             gint64          *out);

G_END_DECLS
