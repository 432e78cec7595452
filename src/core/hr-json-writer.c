/* hr-json-writer.c — a tiny streaming JSON writer over a GString (hr-json-writer.h) */
#include "hr-json-writer.h"
#include "hr-text.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

void
hr_json_init (HrJsonWriter *w,
              GString      *out,
              gboolean      pretty)
{
  memset (w, 0, sizeof *w);
  w->out = out;
  w->pretty = pretty;
}

void
hr_json_document_begin (HrJsonWriter *w)
{
  hr_json_init (w, g_string_new (NULL), TRUE);
}

char *
hr_json_document_end (HrJsonWriter *w)
{
  g_string_append_c (w->out, '\n');
  return g_string_free (g_steal_pointer (&w->out), FALSE);
}

/* Inside a container begun with hr_json_begin_object_inline ()? */
static gboolean
on_one_line (const HrJsonWriter *w)
{
  return w->inline_depth > 0 && w->depth >= w->inline_depth;
}

static void
newline (HrJsonWriter *w)
{
  if (!w->pretty || on_one_line (w))
    return;
  g_string_append_c (w->out, '\n');
  for (int i = 0; i < w->depth; i++)
    g_string_append (w->out, "  ");
}

/* Before a value in an array, or a key in an object. */
static void
separate (HrJsonWriter *w)
{
  if (w->depth > 0 && w->depth < (int) G_N_ELEMENTS (w->need_comma))
    {
      if (w->need_comma[w->depth])
        g_string_append (w->out, w->pretty && on_one_line (w) ? ", " : ",");
      w->need_comma[w->depth] = TRUE;
      newline (w);
    }
}

static void
value_prefix (HrJsonWriter *w)
{
  if (w->after_key)
    {
      w->after_key = FALSE;
      if (w->pretty)
        g_string_append_c (w->out, ' ');
      return;
    }
  separate (w);
}

static void
open_container (HrJsonWriter *w,
                char          c)
{
  value_prefix (w);
  g_string_append_c (w->out, c);
  w->depth++;
  if (w->depth < (int) G_N_ELEMENTS (w->need_comma))
    w->need_comma[w->depth] = FALSE;
}

static void
close_container (HrJsonWriter *w,
                 char          c)
{
  gboolean had = w->depth < (int) G_N_ELEMENTS (w->need_comma) && w->need_comma[w->depth];
  gboolean one_line = on_one_line (w);

  w->depth--;
  if (had && !one_line)
    newline (w);
  g_string_append_c (w->out, c);
  if (w->inline_depth > w->depth)
    w->inline_depth = 0;
}

void hr_json_begin_object (HrJsonWriter *w) { open_container (w, '{'); }
void hr_json_end_object (HrJsonWriter *w) { close_container (w, '}'); }
void hr_json_begin_array (HrJsonWriter *w) { open_container (w, '['); }
void hr_json_end_array (HrJsonWriter *w) { close_container (w, ']'); }

/* The container just opened, and all inside it, on one line. */
static void
stay_on_one_line (HrJsonWriter *w)
{
  if (w->inline_depth == 0)
    w->inline_depth = w->depth;
}

void
hr_json_begin_object_inline (HrJsonWriter *w)
{
  open_container (w, '{');
  stay_on_one_line (w);
}

void
hr_json_begin_array_inline (HrJsonWriter *w)
{
  open_container (w, '[');
  stay_on_one_line (w);
}

void
hr_json_escape_append (GString    *out,
                       const char *value)
{
  const char *p;

  if (value == NULL)
    return;
  for (p = value; *p; p++)
    {
      guchar c = (guchar) *p;
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else if (c >= 0x80 && hr_text_is_hidden_char (g_utf8_get_char_validated (p, -1)))
            {
              /* C1 controls and bidi overrides stay data, not terminal commands. */
              g_string_append_printf (out, "\\u%04x", g_utf8_get_char (p));
              p = g_utf8_next_char (p) - 1;
            }
          else
            g_string_append_c (out, (char) c);
        }
    }
}

void
hr_json_key (HrJsonWriter *w,
             const char   *key)
{
  separate (w);
  g_string_append_c (w->out, '"');
  hr_json_escape_append (w->out, key);
  g_string_append (w->out, "\":");
  w->after_key = TRUE;
}

void
hr_json_string (HrJsonWriter *w,
                const char   *value)
{
  if (value == NULL)
    {
      hr_json_null (w);
      return;
    }
  value_prefix (w);
  g_string_append_c (w->out, '"');
  if (g_utf8_validate (value, -1, NULL))
    hr_json_escape_append (w->out, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      hr_json_escape_append (w->out, valid);
    }
  g_string_append_c (w->out, '"');
}

void
hr_json_number (HrJsonWriter *w,
                double        value,
                int           decimals)
{
  char buf[64];

  value_prefix (w);
  g_string_append (w->out, hr_format_number_c_buf (buf, sizeof buf, value, decimals));
}

void
hr_json_number_g (HrJsonWriter *w,
                  double        value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      hr_json_null (w);
      return;
    }
  /* g_ascii_formatd writes '.' whatever LC_NUMERIC says. */
  value_prefix (w);
  g_string_append (w->out, g_ascii_formatd (buf, sizeof buf, "%.15g", value));
}

void
hr_json_int (HrJsonWriter *w,
             gint64        value)
{
  value_prefix (w);
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT, value);
}

void
hr_json_bool (HrJsonWriter *w,
              gboolean      value)
{
  value_prefix (w);
  g_string_append (w->out, value ? "true" : "false");
}

void
hr_json_null (HrJsonWriter *w)
{
  value_prefix (w);
  g_string_append (w->out, "null");
}

void
hr_json_member_string (HrJsonWriter *w,
                       const char   *key,
                       const char   *value)
{
  hr_json_key (w, key);
  hr_json_string (w, value);
}

void
hr_json_member_int (HrJsonWriter *w,
                    const char   *key,
                    gint64        value)
{
  hr_json_key (w, key);
  hr_json_int (w, value);
}

void
hr_json_member_number (HrJsonWriter *w,
                       const char   *key,
                       double        value,
                       int           decimals)
{
  hr_json_key (w, key);
  hr_json_number (w, value, decimals);
}

void
hr_json_member_number_g (HrJsonWriter *w,
                         const char   *key,
                         double        value)
{
  hr_json_key (w, key);
  hr_json_number_g (w, value);
}

void
hr_json_member_bool (HrJsonWriter *w,
                     const char   *key,
                     gboolean      value)
{
  hr_json_key (w, key);
  hr_json_bool (w, value);
}

/* "NAME_gib": rounded to two decimals, and "NAME_bytes": the exact integer beside it, so a
 * machine can check a figure to the byte (a 16.5 MiB cache reads as 0.02 GiB). */
void
hr_json_gib_bytes (HrJsonWriter *w,
                   const char   *name,
                   double        bytes)
{
  g_autofree char *gib = g_strconcat (name, "_gib", NULL);
  g_autofree char *exact = g_strconcat (name, "_bytes", NULL);

  hr_json_key (w, gib);
  hr_json_number (w, hr_to_gib (bytes), 2);
  hr_json_key (w, exact);
  if (isfinite (bytes))
    hr_json_int (w, (gint64) llround (bytes));
  else
    hr_json_null (w);
}
