/* hr-text.h — text from outside made safe to show in a terminal or a label */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE for what a terminal or a text layout acts on instead of showing: C0 and C1 controls,
 * DEL, bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069), zero-width and
 * invisible characters, line and paragraph separators. */
gboolean  hr_text_is_hidden_char (gunichar    c);

/* TRUE when @text is valid UTF-8 without any hidden character. */
gboolean  hr_text_is_clean       (const char *text);

/* A copy of @text that shows what it holds: hidden characters as \n, \t, \xNN or \u{XXXX},
 * bytes that are not UTF-8 as \xNN, so the result is one line of valid UTF-8 that nothing can
 * reorder or hide.  At most @max_chars characters of @text are kept (0: all), with "…" after
 * a cut.  NULL stays NULL. */
char     *hr_text_sanitize       (const char *text,
                                  gsize       max_chars);

/* A plain decimal number: digits, then maybe a point and digits ("3", "0.35", "8.0"), nothing
 * else: no sign, space, exponent, hex ("0x10"), "inf" or "nan" as strtod would take.  FALSE
 * and @out untouched otherwise. */
gboolean  hr_text_parse_decimal  (const char *text,
                                  double     *out);

/* The index of @str in @names[0 … n_names) compared without ASCII case, or -1 (also for a NULL
 * @str): how an enum's from_string() reads its table of names. */
int       hr_text_find_name      (const char * const *names,
                                  gsize               n_names,
                                  const char         *str);

/* The edit distance (insertions, deletions, substitutions of bytes) between @a and @b. */
guint     hr_text_edit_distance  (const char *a,
                                  const char *b);

/* The one of @candidates (NULL-terminated) closest to @word by edit distance, ASCII case
 * ignored, when a typo could explain it: at most 2 edits, and fewer than half of @word's
 * length ("estimat" → "estimate", "--contex" → "--context"); NULL when none is that close or
 * two are equally close (or @word is one of them). */
const char *hr_text_nearest      (const char         *word,
                                  const char * const *candidates);

/* The columns @text takes in a terminal: 2 for a wide or fullwidth character (CJK,
 * g_unichar_iswide), 0 for a combining mark or a zero-width character, else 1. */
gsize     hr_text_display_width  (const char *text);

G_END_DECLS
