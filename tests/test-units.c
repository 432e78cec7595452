/* test-units.c — rounding, locale-independent numbers, context parsing */
#include <locale.h>
#include <math.h>

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-file.h"
#include "hr-text.h"
#include "hr-units.h"

static void
test_round (void)
{
  g_assert_cmpfloat (hr_round (67.955, 2), ==, 67.96);
  g_assert_cmpfloat (hr_round (1.4375, 2), ==, 1.44);
  g_assert_cmpfloat (hr_round (-9.155, 2), ==, -9.16);
  g_assert_cmpfloat (hr_round (2.875, 2), ==, 2.88);
}

static void
test_format_c_locale (void)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  /* A German desktop must not write "67,96" into JSON. */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    g_test_message ("de_DE.UTF-8 not available; checking in the C locale only");
  a = hr_format_number_c (67.955, 2);
  g_assert_cmpstr (a, ==, "67.96");
  b = hr_format_number_c (NAN, 2);
  g_assert_cmpstr (b, ==, "null");
  setlocale (LC_NUMERIC, "C");
}

/* Text people read groups thousands as the locale does (issue 18: "1792 GB/s", "~2712 tok/s");
 * the C locale groups nothing, so scripts reading C-locale text see the same digits. */
static void
test_format_locale_grouping (void)
{
  static const struct { const char *locale; double value; int decimals; const char *text; } cases[] = {
    { "C", 2712.4, 0, "2712" },
    { "C", 12345.678, 2, "12345.68" },
    { "C.UTF-8", 420272, 0, "420272" },
    { "de_DE.UTF-8", 2712.4, 0, "2.712" },
    { "de_DE.UTF-8", 12345.678, 2, "12.345,68" },
    { "de_DE.UTF-8", 999.5, 0, "1.000" },
    { "de_DE.UTF-8", -1234567, 0, "-1.234.567" },
    { "de_DE.UTF-8", 67.955, 2, "67,96" },
    { "zh_CN.UTF-8", 420272, 0, "420,272" },
    { "zh_CN.UTF-8", 1792, 1, "1,792.0" },
  };
  char buf[64];

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      g_assert_cmpstr (hr_format_number_locale_buf (buf, sizeof buf, cases[i].value, cases[i].decimals), ==,
                       cases[i].text);
    }
  setlocale (LC_NUMERIC, "C");
}

/* Prices in text people read, the one rule of the GUI, the CLI and the charts: the locale's
 * digits in "$%s", the sign first, no "-$0.00" from a rounding. */
static void
test_format_usd (void)
{
  static const struct { const char *locale; double usd; int decimals; const char *text; } cases[] = {
    { "C", 1999, 0, "$1999" },
    { "C", 1.23, 2, "$1.23" },
    { "en_US.UTF-8", 1999, 0, "$1,999" },
    { "de_DE.UTF-8", 1999, 0, "$1.999" },
    { "de_DE.UTF-8", 1.23, 2, "$1,23" },
    { "de_DE.UTF-8", 1.555, 2, "$1,56" },
    { "de_DE.UTF-8", -8500, 0, "-$8.500" },
    { "de_DE.UTF-8", -0.001, 2, "$0,00" },
    { "de_DE.UTF-8", NAN, 2, "—" },
  };
  char buf[64];

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      g_assert_cmpstr (hr_format_usd_locale_buf (buf, sizeof buf, cases[i].usd, cases[i].decimals), ==,
                       cases[i].text);
    }
  setlocale (LC_NUMERIC, "C");
}

/* Figures inside JSON text: '.' between hr_c_numeric_begin () and _end (), nested too, and the
 * user's mark again after. */
static void
test_c_numeric (void)
{
  HrCNumeric outer, inner;
  char buf[32];

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_message ("de_DE.UTF-8 not available: not checked");
      return;
    }
  hr_c_numeric_begin (&outer);
  g_snprintf (buf, sizeof buf, "%.2f", 9.13);
  g_assert_cmpstr (buf, ==, "9.13");
  hr_c_numeric_begin (&inner);
  hr_c_numeric_end (&inner);
  g_snprintf (buf, sizeof buf, "%.1f", 1.5);
  g_assert_cmpstr (buf, ==, "1.5");
  hr_c_numeric_end (&outer);
  g_snprintf (buf, sizeof buf, "%.2f", 9.13);
  g_assert_cmpstr (buf, ==, "9,13");
  setlocale (LC_NUMERIC, "C");
}

/* Context lengths in text people read: a plain count is grouped like any number, the "32K"
 * and "1M" short forms stay as they are (issue 18: compare's "max ctx" showed "52480"). */
static void
test_context_locale (void)
{
  static const struct { const char *locale; gint64 tokens; const char *text; } cases[] = {
    { "C", 52480, "52480" },
    { "C", 32768, "32K" },
    { "de_DE.UTF-8", 52480, "52.480" },
    { "de_DE.UTF-8", 131072, "128K" },
    { "de_DE.UTF-8", 1048576, "1M" },
    { "de_DE.UTF-8", 999, "999" },
    { "zh_CN.UTF-8", 1000000, "1,000,000" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      text = hr_format_context_locale (cases[i].tokens);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  setlocale (LC_NUMERIC, "C");
}

static void
test_context (void)
{
  gint64 v = 0;
  g_autofree char *s = hr_format_context_short (32768);

  g_assert_cmpstr (s, ==, "32K");
  g_assert_true (hr_parse_context ("32768", &v));
  g_assert_cmpint (v, ==, 32768);
  g_assert_true (hr_parse_context ("128k", &v));
  g_assert_cmpint (v, ==, 131072);
  g_assert_true (hr_parse_context ("1M", &v));
  g_assert_cmpint (v, ==, 1048576);
  g_assert_false (hr_parse_context ("", &v));
  g_assert_false (hr_parse_context ("-5", &v));
  g_assert_false (hr_parse_context ("0", &v));
  g_assert_false (hr_parse_context ("12abc", &v));
  g_assert_false (hr_parse_context ("99999999999999999999999", &v));
  g_assert_false (hr_parse_context ("9999999999999999999M", &v));
}

/* A context length read back as people see it grouped ("16.384" in German, "16,384" in English)
 * or type it in either way; a separator only stands between groups of three digits (#18). */
static void
test_parse_context_locale (void)
{
  static const struct { const char *locale; const char *text; gint64 tokens; } cases[] = {
    { "C", "16384", 16384 },
    { "C", "16,384", 16384 },
    { "C", " 32k ", 32768 },
    { "de_DE.UTF-8", "16.384", 16384 },
    { "de_DE.UTF-8", "16,384", 16384 },
    { "de_DE.UTF-8", "1.048.576", 1048576 },
    { "en_US.UTF-8", "16,384", 16384 },
    { "en_US.UTF-8", "1,048,576", 1048576 },
    { "fr_FR.UTF-8", "16\u202f384", 16384 },
    { "fr_FR.UTF-8", "16 384", 16384 },
  };
  static const char *const bad[] = { "1.5K", "16,38", "16,3840", ",384", "16,,384", "16.384.", "", "0", "1,0000000" };
  char buf[64];
  gint64 v;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (setlocale (LC_NUMERIC, cases[i].locale) == NULL)
        {
          g_test_message ("%s not available: not checked", cases[i].locale);
          continue;
        }
      v = 0;
      if (!hr_parse_context_locale (cases[i].text, &v) || v != cases[i].tokens)
        g_error ("[%s] “%s” read as %" G_GINT64_FORMAT, cases[i].locale, cases[i].text, v);
      /* what the locale shows reads back */
      hr_format_number_locale_buf (buf, sizeof buf, (double) cases[i].tokens, 0);
      g_assert_true (hr_parse_context_locale (buf, &v));
      g_assert_cmpint (v, ==, cases[i].tokens);
      for (gsize k = 0; k < G_N_ELEMENTS (bad); k++)
        if (hr_parse_context_locale (bad[k], &v))
          g_error ("[%s] “%s” read as %" G_GINT64_FORMAT, cases[i].locale, bad[k], v);
    }
  setlocale (LC_NUMERIC, "C");
}

/* What a terminal or a label would obey instead of show is made visible, and long text cut. */
/* Waits read as waits: the unit changes before the figure passes three or four digits (a CPU's
 * 4K-token prompt once printed "~641579 ms"). */
static void
test_duration (void)
{
  static const struct { double ms; const char *text; } cases[] = {
    { 0, "~0 ms" },
    { 772.4, "~772 ms" },
    { 9999.4, "~9999 ms" },
    { 9999.6, "~10.0 s" },
    { 12500, "~12.5 s" },
    { 119940, "~119.9 s" },
    { 119960, "~2.0 min" },
    { 641579, "~10.7 min" },
    { 7140000, "~119.0 min" },
    { 7200000, "~2.0 h" },
    { 1.5e9, "~416.7 h" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = hr_format_duration_ms (cases[i].ms);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
  for (gsize i = 0; i < 3; i++)
    {
      static const double bad[] = { NAN, INFINITY, -1 };
      g_autofree char *text = hr_format_duration_ms (bad[i]);

      g_assert_cmpstr (text, ==, "unknown");
    }
}

static void
test_sanitize (void)
{
  const struct { const char *in; gsize max; const char *out; } cases[] = {
    { "Llama 3.1 8B “Instruct” ß 中文", 0, "Llama 3.1 8B “Instruct” ß 中文" },
    { "a\033[2Jb", 0, "a\\x1B[2Jb" },
    { "line\nnext\tcol\r", 0, "line\\nnext\\tcol\\r" },
    { "c1 \302\233 del \177", 0, "c1 \\x9B del \\x7F" },
    { "txt.\342\200\256exe", 0, "txt.\\u{202E}exe" },         /* right-to-left override */
    { "\342\201\246iso\342\201\251", 0, "\\u{2066}iso\\u{2069}" }, /* isolates */
    { "zero\342\200\213width\357\273\277", 0, "zero\\u{200B}width\\u{FEFF}" },
    { "bad \377 utf8", 0, "bad \\xFF utf8" },
    { "abcdef", 3, "abc…" },
    { "abc", 3, "abc" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = hr_text_sanitize (cases[i].in, cases[i].max);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (hr_text_is_clean (out));
      g_assert_true (hr_text_is_clean (cases[i].in) == (i == 0 || i >= 8));
    }
  g_assert_null (hr_text_sanitize (NULL, 0));
}

/* The one reader of files from outside: capped, and never waiting on a FIFO or reading a
 * device without end. */
static void
test_file_read_regular (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hr-file-XXXXXX", &error);
  g_autofree char *file = g_build_filename (dir, "f", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *zero = g_build_filename (dir, "zero", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  char *text = NULL;
  gsize len = 0;
  gboolean too_large = TRUE;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (file, "0123456789", -1, NULL));
  g_assert_true (hr_file_read_regular (file, 10, &text, &len, &too_large, &error));
  g_assert_cmpstr (text, ==, "0123456789");
  g_assert_cmpuint (len, ==, 10);
  g_assert_false (too_large);
  g_clear_pointer (&text, g_free);
  g_assert_true (hr_file_read_regular (file, 4, &text, &len, &too_large, &error));
  g_assert_cmpstr (text, ==, "0123");
  g_assert_true (too_large);
  g_clear_pointer (&text, g_free);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  g_assert_false (hr_file_read_regular (fifo, 10, &text, &len, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_cmpstr (error->message, ==, "not a regular file");
  g_clear_error (&error);
  g_assert_false (hr_file_read_regular (zero, 10, &text, &len, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);
  g_assert_false (hr_file_read_regular (dir, 10, &text, &len, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_clear_error (&error);
  g_assert_false (hr_file_read_regular (missing, 10, &text, &len, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_null (text);
  g_clear_error (&error);
  g_assert_cmpint (hr_file_open_regular (fifo, NULL), ==, -1);

  g_unlink (file);
  g_unlink (fifo);
  g_unlink (zero);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/round", test_round);
  g_test_add_func ("/units/format-c-locale", test_format_c_locale);
  g_test_add_func ("/units/format-locale-grouping", test_format_locale_grouping);
  g_test_add_func ("/units/format-usd", test_format_usd);
  g_test_add_func ("/units/c-numeric", test_c_numeric);
  g_test_add_func ("/units/context-locale", test_context_locale);
  g_test_add_func ("/units/parse-context-locale", test_parse_context_locale);
  g_test_add_func ("/units/context", test_context);
  g_test_add_func ("/units/sanitize", test_sanitize);
  g_test_add_func ("/units/duration", test_duration);
  g_test_add_func ("/units/file-read-regular", test_file_read_regular);
  return g_test_run ();
}
