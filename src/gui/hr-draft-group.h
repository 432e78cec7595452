/* hr-draft-group.h — the Size view's speculative-decoding controls (#31) */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_DRAFT_GROUP (hr_draft_group_get_type ())
G_DECLARE_FINAL_TYPE (HrDraftGroup, hr_draft_group, HR, DRAFT_GROUP, AdwPreferencesGroup)

GtkWidget      *hr_draft_group_new          (void);
/* The session whose "draft" and "draft-accept" the rows move; its model and engine decide
 * what the list offers. */
void            hr_draft_group_set_session  (HrDraftGroup *self,
                                             HrSession    *session);

G_END_DECLS
