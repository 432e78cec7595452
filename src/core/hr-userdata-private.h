/* hr-userdata-private.h — what the user-data files share, and nothing else includes
 *
 * hr-userdata.c reads, locks and writes the files; hr-userdata-json.c makes the ids and writes
 * one model or GPU as the JSON the catalog parser reads back.
 */
#pragma once

#include "hr-userdata.h"

G_BEGIN_DECLS

/* Integers above 2^53 are not exact as doubles. */
#define MAX_EXACT 9007199254740992.0

const char *hr_userdata_strip_prefix (const char *id);
/* The slug an entry is stored under in the file. */
char *hr_userdata_file_slug (const char *id,
                             const char *name,
                             const char *fallback);
char *hr_userdata_user_id (const char *id,
                           const char *name,
                           const char *fallback);

G_END_DECLS
