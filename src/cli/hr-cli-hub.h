/* hr-cli-hub.h — `headroom-cli hub …`, and the model behind --hf */
#pragma once

#include <glib.h>

#include "hr-model.h"

G_BEGIN_DECLS

int             hr_cli_hub                  (int              argc,
                                             char           **argv);
/* The model @ref ("ORG/NAME[@REV][:QUANT|:FILE]") names, sized from the Hub; @quant receives
 * the quant it is sized at, @note one line saying what was read.  HR_CLI_ERROR (usage: a
 * malformed reference; failed: everything else). */
HrModel        *hr_cli_hub_model            (const char      *ref,
                                             gboolean         refresh,
                                             char           **quant,
                                             char           **note,
                                             gboolean         projector,
                                             char           **mmproj_path,
                                             guint64         *mmproj_bytes,
                                             HrVisionEncoder *mmproj_encoder,
                                             GError         **error);

G_END_DECLS
