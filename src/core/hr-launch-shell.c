/* hr-launch-shell.c — shell text for the launch commands, and the notes beside them
 *
 * Each command is shell text the user can paste: one shell command per line, long commands
 * broken with " \\\n  " continuations, "# …" comments where several machines are involved.
 * Anything that comes from data (repos, paths, names) goes through hr_launch_shell_quote().
 */
#include "hr-launch-private.h"

#include <string.h>

static gboolean
shell_safe_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("_@%+=:,./-", c) != NULL;
}

void
hr_sh_init (HrShell *sh)
{
  sh->out = g_string_new (NULL);
  sh->sep = SEP_NONE;
}

/* Appends @text (already shell-safe) as the next word. */
void
hr_sh_raw (HrShell    *sh,
           const char *text)
{
  if (sh->out->len > 0)
    {
      switch (sh->sep)
        {
        case SEP_SPACE:
          g_string_append_c (sh->out, ' ');
          break;
        case SEP_CONTINUE:
          g_string_append (sh->out, " \\\n  ");
          break;
        case SEP_NEWLINE:
          g_string_append_c (sh->out, '\n');
          break;
        case SEP_NONE:
        default:
          break;
        }
    }
  g_string_append (sh->out, text);
  sh->sep = SEP_SPACE;
}

void
hr_sh_rawf (HrShell    *sh,
            const char *format,
            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  hr_sh_raw (sh, text);
}

/* Appends @word quoted as needed. */
void
hr_sh_arg (HrShell    *sh,
           const char *word)
{
  g_autofree char *quoted = hr_launch_shell_quote (word);

  hr_sh_raw (sh, quoted);
}

/* Appends "@flag @value" with @value quoted. */
void
hr_sh_opt (HrShell    *sh,
           const char *flag,
           const char *value)
{
  hr_sh_raw (sh, flag);
  hr_sh_arg (sh, value);
}

/* The next word starts a continuation line of the same command. */
void
hr_sh_break (HrShell *sh)
{
  if (sh->sep == SEP_SPACE)
    sh->sep = SEP_CONTINUE;
}

/* The next word starts a new command. */
void
hr_sh_end (HrShell *sh)
{
  if (sh->out->len > 0)
    sh->sep = SEP_NEWLINE;
}

void
hr_sh_comment (HrShell    *sh,
               const char *text)
{
  g_autofree char *line = g_strconcat ("# ", text, NULL);

  hr_sh_end (sh);
  hr_sh_raw (sh, line);
  hr_sh_end (sh);
}

char *
hr_sh_free (HrShell *sh)
{
  return g_string_free (g_steal_pointer (&sh->out), FALSE);
}

void
hr_launch_note_add (GString    *notes,
                    const char *format,
                    ...)
{
  va_list args;

  if (notes->len > 0)
    g_string_append_c (notes, ' ');
  va_start (args, format);
  g_string_append_vprintf (notes, format, args);
  va_end (args);
}

const char *
hr_launch_fmt2 (char   *buf,
                gsize   size,
                double  value)
{
  return g_ascii_formatd (buf, size, "%.2f", value);
}

HrLaunchCommand *
hr_launch_command_new (HrEngine    engine,
                       const char *title,
                       char       *command,   /* owned */
                       GString    *notes)     /* borrowed */
{
  HrLaunchCommand *cmd = g_new0 (HrLaunchCommand, 1);

  cmd->engine = engine;
  cmd->title = g_strdup (title);
  cmd->command = command;
  cmd->note = notes != NULL && notes->len > 0 ? g_strdup (notes->str) : NULL;
  return cmd;
}

gboolean
hr_launch_has_prefix_ci (const char *str,
                         const char *prefix)
{
  return g_ascii_strncasecmp (str, prefix, strlen (prefix)) == 0;
}

char *
hr_launch_shell_quote (const char *word)
{
  GString *s;
  const char *p;

  if (word == NULL || *word == '\0')
    return g_strdup ("''");

  for (p = word; *p != '\0'; p++)
    if (!shell_safe_char (*p))
      break;
  if (*p == '\0')
    return g_strdup (word);

  s = g_string_new ("'");
  for (p = word; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (s, "'\\''");
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '\'');
  return g_string_free (s, FALSE);
}

char *
hr_launch_command_one_line (const HrLaunchCommand *cmd)
{
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (cmd != NULL, NULL);

  if (cmd->command == NULL)
    return g_strdup ("");
  parts = g_strsplit (cmd->command, " \\\n  ", -1);
  return g_strjoinv (" ", parts);
}

void
hr_launch_command_free (HrLaunchCommand *cmd)
{
  if (cmd == NULL)
    return;
  g_free (cmd->title);
  g_free (cmd->command);
  g_free (cmd->note);
  g_free (cmd);
}

