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
/* Whether --hf reads the repo's vision projector: no; yes, failing without it (--mmproj auto);
 * yes, leaving it out with a note when it cannot be read (no --mmproj: auto by default) */
typedef enum
{
  HR_CLI_HUB_PROJECTOR_NO,
  HR_CLI_HUB_PROJECTOR_REQUIRED,
  HR_CLI_HUB_PROJECTOR_BEST_EFFORT,
} HrCliHubProjector;

HrModel        *hr_cli_hub_model            (const char      *ref,
                                             gboolean         refresh,
                                             char           **quant,
                                             char           **note,
                                             HrCliHubProjector projector,
                                             char           **mmproj_path,
                                             guint64         *mmproj_bytes,
                                             HrVisionEncoder *mmproj_encoder,
                                             GError         **error);

G_END_DECLS
