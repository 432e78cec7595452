/* hr-placement-card.h — the Size view's Placement card: each device of a setup of several (#31)
 *
 * A titled group with a row per device (its layers, memory, share of the time per token, and
 * its verdict as an icon and a word), the slowest device named in the description, and
 * llama.cpp's launch flags for the split, selectable.  Hidden for a single device.
 */
#pragma once

#include <adwaita.h>

#include "hr-placement-state.h"

G_BEGIN_DECLS

#define HR_TYPE_PLACEMENT_CARD (hr_placement_card_get_type ())
G_DECLARE_FINAL_TYPE (HrPlacementCard, hr_placement_card, HR, PLACEMENT_CARD, AdwBin)

/* Signal "apply-search": the user chose the placement search's answer; its offload and
 * experts on the CPU are hr_placement_card_get_search (). */
GtkWidget      *hr_placement_card_new       (void);
void            hr_placement_card_get_search (HrPlacementCard       *self,
                                             double                *offload_pct,
                                             int                   *n_cpu_moe);
void            hr_placement_card_set_state (HrPlacementCard        *self,
                                             const HrPlacementState *state);
/* For the tests: the device rows shown. */
guint           hr_placement_card_get_n_rows (HrPlacementCard       *self);

G_END_DECLS
