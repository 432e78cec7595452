/* test-json.c — hr_json_parse(): the one door for JSON from outside; HrJsonWriter */
#include "hr-json.h"
#include "hr-json-writer.h"
#include "hr-catalog.h"
#include "hr-hfconfig.h"
#include "hr-pricing.h"

#include <math.h>
#include <string.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/strict", test_strict);
  g_test_add_func ("/json/limits", test_limits);
  g_test_add_func ("/json/node-number", test_node_number);
  g_test_add_func ("/json/comment-hidden-nesting", test_comment_hidden_nesting);
  g_test_add_func ("/json/writer-rows", test_writer_rows);
  g_test_add_func ("/json/writer-inline-array", test_writer_inline_array);
  g_test_add_func ("/json/writer-members", test_writer_members);
  g_test_add_func ("/json/writer-number-g", test_writer_number_g);
  g_test_add_func ("/json/writer-document", test_writer_document);
  return g_test_run ();
}
