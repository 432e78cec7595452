/* hr-command-text.c — launch commands shown in a label that wraps between arguments */
#include "hr-command-text.h"

#include <string.h>

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\n' || c == '\t';
}

/* The token at @p: its end. */
static const char *
token_end (const char *p)
{
  while (*p != '\0' && !is_space (*p))
    p++;
  return p;
}

static const char *
skip_spaces (const char *p)
{
  while (*p != '\0' && is_space (*p))
    p++;
  return p;
}

/* No break inside @start … @end, unless it is too long to keep whole. */
static void
keep_whole (PangoAttrList *attrs,
            const char    *command,
            const char    *start,
            const char    *end)
{
  PangoAttribute *a;

  if (end - start < 2 || g_utf8_strlen (start, end - start) > HR_COMMAND_MAX_UNIT_CHARS)
    return;
  a = pango_attr_allow_breaks_new (FALSE);
  a->start_index = start - command;
  a->end_index = end - command;
  pango_attr_list_insert (attrs, a);
}

PangoAttrList *
hr_command_break_attrs (const char *command)
{
  PangoAttrList *attrs = pango_attr_list_new ();
  const char *p;

  g_return_val_if_fail (command != NULL, attrs);

  p = skip_spaces (command);
  while (*p != '\0')
    {
      const char *start = p, *end = token_end (p);
      const char *value = NULL;

      /* a flag takes the next token as its value unless that is a flag or a line's end */
      if (start[0] == '-' && *end == ' ')
        {
          value = skip_spaces (end);
          if (*value == '\0' || *value == '-' || *value == '\\' || memchr (end, '\n', value - end) != NULL)
            value = NULL;
        }
      if (value != NULL && g_utf8_strlen (start, token_end (value) - start) <= HR_COMMAND_MAX_UNIT_CHARS)
        end = token_end (value);
      else if (value != NULL)
        {
          /* too long together ("-hf org/a-long-model-name:Q4_K_M"): each whole on its own */
          keep_whole (attrs, command, start, end);
          start = value;
          end = token_end (value);
        }
      keep_whole (attrs, command, start, end);
      p = skip_spaces (end);
    }
  return attrs;
}

void
hr_command_label_set (GtkLabel   *label,
                      const char *command)
{
  g_autoptr(PangoAttrList) attrs = NULL;

  g_return_if_fail (GTK_IS_LABEL (label));

  if (command == NULL)
    command = "";
  if (g_strcmp0 (gtk_label_get_label (label), command) == 0)
    return;
  attrs = hr_command_break_attrs (command);
  gtk_label_set_label (label, command);
  gtk_label_set_attributes (label, attrs);
}
