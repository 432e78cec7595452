/* hr-placement.h — where a model lives on a setup of devices, alike or not (#31)
 *
 * A setup is a list of devices (HrScenario.kinds).  Alike devices keep the estimate's own
 * figures; for different GPUs llama.cpp's layer split gives each device whole layers, their
 * weights and KV cache, its own compute buffer and runtime, and the output layer to the last
 * device that holds layers; a token passes through the devices in turn.
 */
#pragma once

#include <glib.h>
#include "hr-estimate.h"
#include "hr-json-writer.h"

G_BEGIN_DECLS

/* hr_estimate_compute () for a mixed setup (hr_scenario_is_mixed ()) or devices under the
 * user's --tensor-split: the model's figures on each kind of device, the best split of its
 * layers among them for the scenario's offload (or the user's split), and the totals as the
 * sums of the devices'.  vLLM and SGLang run different GPUs as pipeline stages
 * (hr_placement_pipeline ()); llama.cpp leaves an integrated GPU beside discrete ones out
 * (placement.left_out).  FALSE with HR_SCENARIO_ERROR_UNSUPPORTED for a setup the engine
 * cannot run, naming the alternative. */
gboolean        hr_placement_estimate       (const HrScenario *scenario,
                                             const HrPricing  *pricing,
                                             HrEstimate       *out,
                                             GError          **error);

/* vLLM/SGLang on different GPUs (hr-placement-pp.c): one pipeline stage per device, the
 * engine's even partition or, when that does not fit, the one with the most KV blocks on
 * every stage (placement.custom_stages). */
gboolean        hr_placement_pipeline       (const HrScenario *scenario,
                                             HrEstimate       *out,
                                             GError          **error);

/* The engine's own layers per stage for @pp_size stages (vLLM and SGLang get_pp_indices ()
 * without a *_PP_LAYER_PARTITION): @parts receives @pp_size counts. */
void            hr_placement_pp_default     (HrEngine          engine,
                                             int               n_layer,
                                             int               pp_size,
                                             int              *parts);

/* "40,40": the layers of each pipeline stage (the *_PP_LAYER_PARTITION value); NULL when the
 * estimate is not a pipeline. */
char           *hr_placement_pp_partition   (const HrEstimate *estimate);

/* Fills @out's placement from the estimate of alike devices (the last holds the most). */
void            hr_placement_fill_alike     (const HrScenario *scenario,
                                             HrEstimate       *out);

/* llama.cpp's own assignment of @n_layer layers and the output layer to @n_devices devices
 * (llama_model::load_tensors): with -ngl @n_gpu_layers the last units (the output layer
 * counts as one) go to the devices, split at the running sums of @split (--tensor-split, or
 * each device's free memory when not given).  @units_out receives each device's units; the
 * output layer is on the last device with any. */
void            hr_placement_llama_split    (int               n_layer,
                                             int               n_gpu_layers,
                                             const double     *split,
                                             int               n_devices,
                                             int              *units_out);

/* The --tensor-split of a mixed plan ("41,40": each device's units, the output layer
 * counted), which llama.cpp turns back into exactly those layers; NULL when the estimate is
 * not a layer split over different devices. */
char           *hr_placement_tensor_split   (const HrScenario *scenario,
                                             const HrEstimate *estimate);

/* "RTX 4090 + RTX 3090", "2× RTX 3090 + RTX 3060"; for alike devices "2× RTX 3090". */
char           *hr_placement_setup_name     (const HrScenario *scenario);

/* The placement search: when the scenario does not fit its devices, the least in system RAM
 * that does (more layers' experts with --n-cpu-moe first, then whole layers with -ngl), and
 * its estimate.  FALSE when the scenario fits as asked, or when nothing does.  The experts it
 * keeps in RAM are always those of the first layers, whichever device holds them, since the
 * split then moves whole layers toward the device with room: llama.cpp's --n-cpu-moe N
 * (common/arg.cpp pushes llm_ffn_exps_block_regex (i) of common/common.h,
 * "blk\.i\.ffn_(up|down|gate|gate_up)_(ch|)exps", to the CPU for every i < N) places
 * exactly those, and no per-device -ot pattern is needed.  (Models whose MoE layers interleave with
 * dense ones, Llama 4 Maverick's every other layer, are counted as if the MoE layers came
 * last: the catalog does not say which layers they are.) */
gboolean        hr_placement_search         (const HrScenario *scenario,
                                             HrScenario       *best,
                                             HrEstimate       *best_estimate);

/* The per-device plan as text lines (translated), and as the "devices" JSON array. */
void            hr_placement_append_text    (GString          *out,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate);
void            hr_placement_json           (HrJsonWriter     *w,
                                             const HrScenario *scenario,
                                             const HrEstimate *estimate);

G_END_DECLS
