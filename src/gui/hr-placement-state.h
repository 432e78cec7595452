/* hr-placement-state.h — the Size view's Placement card as plain strings (#31)
 *
 * Where the model lives on a setup of several devices: one row per device (its layers, its
 * memory of the usable, its verdict and its share of the time per token), the slowest device
 * and llama.cpp's launch flags.  The figures are the core's (HrEstimate.placement,
 * hr_placement_tensor_split ()); this module only words them.  No GTK: tested without a
 * display (tests/test-size-state.c).
 */
#pragma once

#include <glib.h>

#include "hr-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  char *title;          /* "GPU 0 · RTX 4090" */
  char *subtitle;       /* "41 layers + output · 22.31 of 22.8 GiB · 48% of the time per token" */
  HrVerdict verdict;
  char *verdict_text;   /* "Tight fit" */
  const char *verdict_css;
  const char *verdict_icon;
  gboolean slowest;     /* the device with the largest part of a decode step */
} HrPlacementRowState;

typedef struct
{
  gboolean visible;     /* a setup of several devices with a plan to show */
  char *description;    /* "llama.cpp's layer split: each device its own layers, in turn. The RTX 3090 is the slowest: …" */
  GPtrArray *rows;      /* HrPlacementRowState* */
  char *ram;            /* "System RAM: 4 layers"; NULL when nothing stays there */
  char *flags;          /* "-ngl 81 --split-mode layer --tensor-split 41,40"; NULL for none */
  /* different GPUs that do not hold it as asked: the core's placement search
   * (hr_placement_search ()), the least in system RAM that fits */
  char *search;         /* "It fits with 20 of 80 layers in system RAM: -ngl 61 --tensor-split 42,19, ~3.5 tok/s"; NULL: none */
  double search_offload_pct;
  int search_n_cpu_moe;
} HrPlacementState;

void            hr_placement_state_init     (HrPlacementState  *state);
void            hr_placement_state_clear    (HrPlacementState  *state);
/* Fills @state from the estimate's placement; not visible for a single device. */
void            hr_placement_state_from_estimate (HrPlacementState *state,
                                             const HrScenario  *scenario,
                                             const HrEstimate  *estimate);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrPlacementState, hr_placement_state_clear)

G_END_DECLS
