/* test-json.c — hr_json_parse(): the one door for JSON from outside; HrJsonWriter */
#include "hr-json.h"
#include "hr-json-writer.h"
#include "hr-hash.h"
#include "hr-catalog.h"
#include "hr-hfconfig.h"
#include "hr-pricing.h"

#include <math.h>
#include <string.h>

#include "hostile-gen.h"

/* The time one hostile input may take: generous, minutes before the fix (issue #27). */
#define HOSTILE_SECONDS 10.0

/* @levels of '[' hidden from a bracket counter behind a comment full of closers, as in the
 * crash the issue reports: json-glib skips the comment and recurses @levels times. */
static char *
comment_hidden_nesting (const char *prefix,
                        guint       levels)
{
  GString *s = g_string_new (prefix);

  g_string_append (s, "/*");
  for (guint i = 0; i < levels; i++)
    g_string_append_c (s, ']');
  g_string_append (s, "*/");
  for (guint i = 0; i < levels; i++)
    g_string_append_c (s, '[');
  for (guint i = 0; i < levels; i++)
    g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static gboolean
parses (const char *text,
        GError    **error)
{
  g_autoptr(JsonParser) parser = hr_json_parse (text, -1, 8, 1000, error);

  return parser != NULL;
}

static void
test_strict (void)
{
  const char *good[] = { "{}", "[]", " 1 ", "-0.5e+3", "\"a\\u00e9\\ud83d\\ude00\\/\\n\"",
                         "{\"a\": [true, false, null, {\"b\": []}]}", "[[[[[[[[1]]]]]]]]" };
  const char *bad[] = { "", "  ", "[1,]", "{\"a\":1,}", "{'a': 1}", "[NaN]", "[Infinity]",
                        "[01]", "[1.]", "[.5]", "[+1]", "nullx", "[1] [2]", "{\"a\" 1}",
                        "{1: 2}", "[\"a\nb\"]", "[\"\\x\"]", "[\"\\u12\"]", "# c\n[]",
                        "[1 // c\n]", "[1 /* c */]", "[\"\\ud800\"]", "[\"\\udc00\\ud800\"]",
                        "[[[[[[[[[1]]]]]]]]]", "\"abc", "[1", "{\"a\":" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      if (!parses (good[i], &error))
        g_error ("%s refused: %s", good[i], error->message);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      if (parses (bad[i], &error))
        g_error ("%s accepted", bad[i]);
      g_assert_nonnull (error->message);
      g_assert_null (strchr (error->message, '\n'));
    }
}

static void
test_limits (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) many = g_string_new ("[");
  g_autoptr(JsonParser) parser = NULL;

  g_assert_false (parses ("[[[[[[[[[]]]]]]]]]", &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);

  for (guint i = 0; i < 999; i++)
    g_string_append (many, i ? ",{}" : "{}");
  g_string_append (many, "]");
  g_assert_true (parses (many->str, &error));   /* 1000 values with the list */
  g_string_truncate (many, many->len - 1);
  g_string_append (many, ",0]");
  g_assert_false (parses (many->str, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);

  /* A NUL in the length-counted text is not JSON either. */
  parser = hr_json_parse ("[1]\0[", 5, 8, 10, &error);
  g_assert_null (parser);
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX);
}

/* The 316 KB document of the issue, through every parser that reads outside JSON. */
static void
test_comment_hidden_nesting (void)
{
  g_autofree char *plain = comment_hidden_nesting ("", 100000);
  g_autofree char *feed = comment_hidden_nesting ("{\"schema\": 1, \"updated\": \"2026-01-01\", "
                                                  "\"offers\": [], \"x\": ", 100000);
  g_autofree char *models = comment_hidden_nesting ("{\"schema\": 1, \"models\": ", 100000);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new_empty ();
  g_autoptr(HrPricing) pricing = NULL;
  g_autoptr(HrModel) model = NULL;

  g_assert_false (parses (plain, &error));
  g_assert_nonnull (strstr (error->message, "comment"));
  g_clear_error (&error);

  pricing = hr_pricing_parse (feed, -1, "test", &error);
  g_assert_null (pricing);
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  g_clear_error (&error);

  g_assert_false (hr_catalog_load_models (catalog, models, -1, &error));
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE);
  g_clear_error (&error);

  model = hr_hfconfig_parse (plain, -1, "deep", &error);
  g_assert_null (model);
  g_assert_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE);
}

/* SipHash-2-4, key 00 01 … 0f: the paper's worked example (15 bytes 00 … 0e, appendix A) and
 * the reference implementation's first vector (no bytes). */
static void
test_siphash_vector (void)
{
  guint8 key[16], msg[15];

  for (guint i = 0; i < 16; i++)
    key[i] = (guint8) i;
  for (guint i = 0; i < 15; i++)
    msg[i] = (guint8) i;
  g_assert_cmphex (hr_siphash24 (key, msg, 15), ==, G_GUINT64_CONSTANT (0xa129ca6149be45e5));
  g_assert_cmphex (hr_siphash24 (key, msg, 0), ==, G_GUINT64_CONSTANT (0x726fdb47dd0e0e31));
}

/* 3^10 names that share one g_str_hash value spread over hr_name_hash, and a table keyed by
 * them fills in linear time. */
static void
test_name_hash_collisions (void)
{
  const guint n = 59049;
  g_autoptr(GHashTable) table = hr_name_table_new (g_free, NULL);
  g_autoptr(GHashTable) hashes = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GString) name = g_string_new (NULL);
  guint djb2 = 0;
  gint64 start;
  double seconds;

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      g_string_truncate (name, 0);
      hostile_colliding_name (name, i, 10);
      if (i == 0)
        djb2 = g_str_hash (name->str);
      g_assert_cmpuint (g_str_hash (name->str), ==, djb2);   /* the attack, as built */
      g_hash_table_add (hashes, GUINT_TO_POINTER (hr_name_hash (name->str)));
      g_assert_true (g_hash_table_insert (table, g_strdup (name->str), GUINT_TO_POINTER (i + 1)));
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%u colliding names in %.3f s, %u hash values", n, seconds,
                  g_hash_table_size (hashes));
  /* 32 bits: about n²/2^33 = 0.4 pairs collide by chance */
  g_assert_cmpuint (g_hash_table_size (hashes), >=, n - 16);
  g_assert_cmpuint (g_hash_table_size (table), ==, n);
  g_assert_cmpfloat (seconds, <, HOSTILE_SECONDS);
  g_string_truncate (name, 0);
  hostile_colliding_name (name, 12345, 10);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (table, name->str)), ==, 12346);
  g_assert_true (hr_name_equal ("AzBY", "AzBY"));
  g_assert_false (hr_name_equal ("AzBY", "BYAz"));
}

/* An object with @n colliding member names, the @i-th written with \u escapes when @escaped
 * (json-glib hashes the decoded name, so must the check). */
static char *
colliding_object (guint    n,
                  gboolean escaped)
{
  GString *s = g_string_new ("{");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GString) name = g_string_new (NULL);

      hostile_colliding_name (name, i, 4);
      g_string_append (s, i > 0 ? ", \"" : "\"");
      if (escaped)
        for (const char *p = name->str; *p != '\0'; p++)
          g_string_append_printf (s, "\\u%04x", (guchar) *p);
      else
        g_string_append (s, name->str);
      g_string_append (s, "\": 0");
    }
  g_string_append (s, "}");
  return g_string_free (s, FALSE);
}

/* Member names made to collide in json-glib's g_str_hash table are refused before json-glib
 * sees them: a handful is allowed (chance), nine are not, escaped or not, in any object. */
static void
test_colliding_members (void)
{
  g_autofree char *eight = colliding_object (8, FALSE);
  g_autofree char *nine = colliding_object (9, FALSE);
  g_autofree char *nine_escaped = colliding_object (9, TRUE);
  g_autofree char *nested = g_strdup_printf ("[1, {\"a\": %s}]", nine);
  g_autofree char *config = hostile_config_colliding (65536);
  g_autofree char *feed = hostile_feed_colliding (150000);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = NULL;
  g_autoptr(HrPricing) pricing = NULL;
  gint64 start;
  double seconds;

  g_assert_true (parses (eight, &error));
  g_assert_no_error (error);
  g_assert_false (parses (nine, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "collide"));
  g_clear_error (&error);
  g_assert_false (parses (nine_escaped, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);
  g_assert_false (parses (nested, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);

  /* The inputs: a 1.8 MB config.json (35 s before) and a 4 MB feed (214 s). */
  start = g_get_monotonic_time ();
  model = hr_hfconfig_parse (config, -1, "colliding", &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("config.json of %zu bytes: %.3f s: %s", strlen (config), seconds,
                  error ? error->message : "read");
  g_assert_null (model);
  g_assert_error (error, HR_HFCONFIG_ERROR, HR_HFCONFIG_ERROR_PARSE);
  g_assert_cmpfloat (seconds, <, HOSTILE_SECONDS);
  g_clear_error (&error);

  start = g_get_monotonic_time ();
  pricing = hr_pricing_parse (feed, -1, "feed", &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("feed of %zu bytes: %.3f s: %s", strlen (feed), seconds,
                  error ? error->message : "read");
  g_assert_null (pricing);
  g_assert_error (error, HR_PRICING_ERROR, HR_PRICING_ERROR_PARSE);
  g_assert_cmpfloat (seconds, <, HOSTILE_SECONDS);
}

/* A name given twice in one object is refused (json-glib would search its member list for
 * each repeat); the same name in two objects is fine. */
static void
test_duplicate_members (void)
{
  const char *bad[] = { "{\"a\": 1, \"a\": 2}", "{\"aA\": 1, \"b\": 0, \"a\\u0041\": 2}",
                        "[{\"x\": {\"a\": 1, \"b\": [], \"a\": []}}]", "{\"\\n\": 1, \"\\u000a\": 2}" };
  const char *good[] = { "{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}", "[{\"a\": 1}, {\"a\": 1}]",
                         "{\"a\": 1, \"A\": 2, \"a \": 3}" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      if (parses (bad[i], &error))
        g_error ("%s accepted", bad[i]);
      g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX);
      g_assert_nonnull (strstr (error->message, "twice"));
      g_assert_null (strchr (error->message, '\n'));
    }
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      if (!parses (good[i], &error))
        g_error ("%s refused: %s", good[i], error->message);
    }
}

/* At most HR_JSON_DEFAULT_MEMBERS members an object, or the caller's own cap. */
static void
test_member_cap (void)
{
  g_autoptr(GString) doc = g_string_new ("{");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  HrJsonLimits three = { 8, 100, 3 };

  for (guint i = 0; i < HR_JSON_DEFAULT_MEMBERS; i++)
    g_string_append_printf (doc, "%s\"k%u\": %u", i > 0 ? ", " : "", i, i);
  g_string_append (doc, "}");
  parser = hr_json_parse (doc->str, -1, 8, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_object_get_size (json_node_get_object (json_parser_get_root (parser))),
                    ==, HR_JSON_DEFAULT_MEMBERS);
  g_clear_object (&parser);

  g_string_truncate (doc, doc->len - 1);
  g_string_append (doc, ", \"one more\": 0}");
  parser = hr_json_parse (doc->str, -1, 8, 10000, &error);
  g_assert_null (parser);
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);

  parser = hr_json_parse_limited ("[{\"a\": 1, \"b\": 2, \"c\": {}}]", -1, &three, &error);
  g_assert_no_error (error);
  g_clear_object (&parser);
  parser = hr_json_parse_limited ("[{\"a\": 1, \"b\": 2, \"c\": {\"a\": 1, \"b\": 2, \"c\": 3, "
                                  "\"d\": 4}}]", -1, &three, &error);
  g_assert_null (parser);
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
}

/* Numbers are JSON integers and floats, finite; a string or a boolean is not one. */
static void
test_node_number (void)
{
  static const char doc[] =
    "[46, 1.19, \"1.19\", true, null, {}, [], 1e400, -2]";
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = hr_json_parse (doc, -1, 8, 100, &error);
  JsonArray *array;
  double v = 0;

  g_assert_no_error (error);
  array = json_node_get_array (json_parser_get_root (parser));
  g_assert_true (hr_json_node_get_number (json_array_get_element (array, 0), &v));
  g_assert_cmpfloat (v, ==, 46);
  g_assert_true (hr_json_node_get_number (json_array_get_element (array, 1), &v));
  g_assert_cmpfloat (v, ==, 1.19);
  for (guint i = 2; i <= 7; i++)
    g_assert_false (hr_json_node_get_number (json_array_get_element (array, i), &v));
  g_assert_true (hr_json_node_get_number (json_array_get_element (array, 8), &v));
  g_assert_cmpfloat (v, ==, -2);
  g_assert_false (hr_json_node_get_number (NULL, &v));
}

/* A table: pretty around it, each row an object on one line; the writer carries on pretty
 * after the rows, and compact output ignores the row style. */
static void
write_rows (HrJsonWriter *w)
{
  hr_json_begin_object (w);
  hr_json_key (w, "rows");
  hr_json_begin_array (w);
  for (int i = 0; i < 2; i++)
    {
      hr_json_begin_object_inline (w);
      hr_json_key (w, "n");
      hr_json_int (w, i);
      hr_json_key (w, "tags");
      hr_json_begin_array (w);
      hr_json_string (w, "a");
      hr_json_null (w);
      hr_json_end_array (w);
      hr_json_end_object (w);
    }
  hr_json_end_array (w);
  hr_json_key (w, "empty");
  hr_json_begin_array (w);
  hr_json_end_array (w);
  hr_json_key (w, "after");
  hr_json_begin_object (w);
  hr_json_key (w, "x");
  hr_json_bool (w, TRUE);
  hr_json_end_object (w);
  hr_json_end_object (w);
}

static void
test_writer_rows (void)
{
  g_autoptr(GString) pretty = g_string_new (NULL);
  g_autoptr(GString) compact = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, pretty, TRUE);
  write_rows (&w);
  g_assert_cmpstr (pretty->str, ==,
                   "{\n"
                   "  \"rows\": [\n"
                   "    {\"n\": 0, \"tags\": [\"a\", null]},\n"
                   "    {\"n\": 1, \"tags\": [\"a\", null]}\n"
                   "  ],\n"
                   "  \"empty\": [],\n"
                   "  \"after\": {\n"
                   "    \"x\": true\n"
                   "  }\n"
                   "}");

  hr_json_init (&w, compact, FALSE);
  write_rows (&w);
  g_assert_cmpstr (compact->str, ==,
                   "{\"rows\":[{\"n\":0,\"tags\":[\"a\",null]},{\"n\":1,\"tags\":[\"a\",null]}],"
                   "\"empty\":[],\"after\":{\"x\":true}}");
}

/* Members in one call each, as a key and its value would write them. */
static void
test_writer_members (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "s", "x");
  hr_json_member_string (&w, "none", NULL);
  hr_json_member_int (&w, "i", -3);
  hr_json_member_number (&w, "n", 2.345, 2);
  hr_json_member_number (&w, "nan", NAN, 1);
  hr_json_member_number_g (&w, "g", 1.5);
  hr_json_member_bool (&w, "b", TRUE);
  hr_json_end_object (&w);
  g_assert_cmpstr (out->str, ==,
                   "{\n  \"s\": \"x\",\n  \"none\": null,\n  \"i\": -3,\n  \"n\": 2.35,\n"
                   "  \"nan\": null,\n  \"g\": 1.5,\n  \"b\": true\n}");
}

/* A short list on one line inside a pretty document; the writer goes on pretty after it. */
static void
test_writer_inline_array (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_key (&w, "names");
  hr_json_begin_array_inline (&w);
  hr_json_string (&w, "V100");
  hr_json_string (&w, "a \"b\"");
  hr_json_end_array (&w);
  hr_json_key (&w, "none");
  hr_json_begin_array_inline (&w);
  hr_json_end_array (&w);
  hr_json_key (&w, "after");
  hr_json_begin_array (&w);
  hr_json_int (&w, 1);
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  g_assert_cmpstr (out->str, ==,
                   "{\n"
                   "  \"names\": [\"V100\", \"a \\\"b\\\"\"],\n"
                   "  \"none\": [],\n"
                   "  \"after\": [\n"
                   "    1\n"
                   "  ]\n"
                   "}");
}

/* A document of its own: pretty, ending with a newline. */
static void
test_writer_document (void)
{
  g_autofree char *text = NULL;
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_key (&w, "a");
  hr_json_int (&w, 1);
  hr_json_end_object (&w);
  text = hr_json_document_end (&w);
  g_assert_cmpstr (text, ==, "{\n  \"a\": 1\n}\n");
  g_assert_null (w.out);
}

/* 15 significant digits, '.' as the decimal point, null for what JSON cannot hold. */
static void
test_writer_number_g (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const double values[] = { 1.19, 0.1 + 0.2, 80, 1e-5, 1234567.891234, 1e300, -2.5, NAN,
                            INFINITY };
  HrJsonWriter w;

  hr_json_init (&w, out, FALSE);
  hr_json_begin_array (&w);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    hr_json_number_g (&w, values[i]);
  hr_json_end_array (&w);
  g_assert_cmpstr (out->str, ==, "[1.19,0.3,80,1e-05,1234567.891234,1e+300,-2.5,null,null]");
}

/* json-glib wraps a whole number beyond 64 bits silently (-18446744073709551584 reads as 32,
 * 9223372036854775808 as -9223372036854775808, past 2^64 as -1): through
 * hr_json_parse it is the real number it is, so a reader expecting a whole number refuses it
 * and a range check sees its size. */
static void
test_int_overflow (void)
{
  const struct { const char *text; double value; } wide[] = {
    { "[9223372036854775808]", 9223372036854775808.0 },
    { "[-9223372036854775809]", -9223372036854775809.0 },
    { "[18446744073709551648]", 18446744073709551648.0 },
    { "[99999999999999999999999999]", 1e26 },
    { "[-18446744073709551584]", -18446744073709551584.0 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  JsonArray *array;

  for (guint i = 0; i < G_N_ELEMENTS (wide); i++)
    {
      JsonNode *node;
      double v = 0;

      parser = hr_json_parse (wide[i].text, -1, 8, 100, &error);
      g_assert_no_error (error);
      node = json_array_get_element (json_node_get_array (json_parser_get_root (parser)), 0);
      g_assert_true (json_node_get_value_type (node) == G_TYPE_DOUBLE);
      g_assert_true (hr_json_node_get_number (node, &v));
      g_assert_cmpfloat_with_epsilon (v, wide[i].value, fabs (wide[i].value) * 1e-12);
      g_clear_object (&parser);
    }

  /* in range: whole numbers as before, the others untouched, positions kept */
  parser = hr_json_parse ("[9223372036854775807, -9223372036854775808, 18446744073709551617, 7, \"18446744073709551617\"]",
                          -1, 8, 100, &error);
  g_assert_no_error (error);
  array = json_node_get_array (json_parser_get_root (parser));
  g_assert_true (json_node_get_value_type (json_array_get_element (array, 0)) == G_TYPE_INT64);
  g_assert_cmpint (json_array_get_int_element (array, 0), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (array, 1), ==, G_MININT64);
  g_assert_true (json_node_get_value_type (json_array_get_element (array, 2)) == G_TYPE_DOUBLE);
  g_assert_cmpint (json_array_get_int_element (array, 3), ==, 7);
  g_assert_cmpstr (json_array_get_string_element (array, 4), ==, "18446744073709551617");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/strict", test_strict);
  g_test_add_func ("/json/limits", test_limits);
  g_test_add_func ("/json/int-overflow", test_int_overflow);
  g_test_add_func ("/json/node-number", test_node_number);
  g_test_add_func ("/json/comment-hidden-nesting", test_comment_hidden_nesting);
  g_test_add_func ("/json/colliding-members", test_colliding_members);
  g_test_add_func ("/json/duplicate-members", test_duplicate_members);
  g_test_add_func ("/json/member-cap", test_member_cap);
  g_test_add_func ("/hash/siphash-vector", test_siphash_vector);
  g_test_add_func ("/hash/colliding-names", test_name_hash_collisions);
  g_test_add_func ("/json/writer-rows", test_writer_rows);
  g_test_add_func ("/json/writer-inline-array", test_writer_inline_array);
  g_test_add_func ("/json/writer-members", test_writer_members);
  g_test_add_func ("/json/writer-number-g", test_writer_number_g);
  g_test_add_func ("/json/writer-document", test_writer_document);
  return g_test_run ();
}
