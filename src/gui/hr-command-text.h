/* hr-command-text.h — launch commands shown in a label that wraps between arguments
 *
 * A command ("llama-server -hf org/model:Q4_K_M --ctx-size 8192 -ngl 999 …") in a wrapping
 * label broke anywhere at 360 px, inside "--ctx-size" or between a flag and its value.  The
 * text stays the command itself (what is selected and copied runs in a shell); Pango
 * attributes say where it may not break.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* An argument unit longer than this many characters (a long path) may still break inside:
 * kept whole it could widen a narrow window. */
#define HR_COMMAND_MAX_UNIT_CHARS 28

/* Attributes that keep each argument of @command whole, and a flag with its value
 * ("--ctx-size 8192") together: it breaks only between such units. */
PangoAttrList  *hr_command_break_attrs      (const char     *command);
/* Shows @command in @label with those attributes. */
void            hr_command_label_set        (GtkLabel       *label,
                                             const char     *command);

G_END_DECLS
