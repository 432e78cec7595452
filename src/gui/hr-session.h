/* hr-session.h — what the application knows, apart from any window: the catalog, its prices,
 * the user's own entries, the scenario being sized and the worker that advises on it
 *
 * The role gnome-calendar's GcalContext plays: views are built from the session and follow it
 * (its signals), controls and GSettings bind to its properties.  No GTK: tested without a
 * display.
 *
 *   scenario-changed  a property of the scenario (model, gpu, quant, context, …) really changed
 *   catalog-changed   a model or GPU was added or removed (hr_session_add_model() …)
 *   pricing-changed   the pricing manager replaced the catalog's prices
 *   advice-changed    the worker's whole-catalog answers for the current scenario are in
 *   calibration-changed  a calibration of the user's was saved or removed (the scenario
 *                     changes with it)
 */
#pragma once

#include <gio/gio.h>

#include "hr-catalog.h"
#include "hr-pricing-manager.h"
#include "hr-scenario-state.h"
#include "hr-userdata.h"

G_BEGIN_DECLS

#define HR_SESSION_DEFAULT_MODEL "glm-4.5-air"
#define HR_SESSION_DEFAULT_GPU   "rtx-pro-6000-blackwell-96gb"
#define HR_SESSION_DEFAULT_QUANT "Q4_K_M"

#define HR_TYPE_SESSION (hr_session_get_type ())
G_DECLARE_FINAL_TYPE (HrSession, hr_session, HR, SESSION, GObject)

/* Takes @catalog and @userdata (either may be NULL: an empty catalog, nothing saved).  With
 * @settings, the scenario properties are bound to its keys of the same names (the last
 * scenario comes back); ids the catalog does not know fall back to the defaults. */
HrSession      *hr_session_new              (HrCatalog        *catalog,
                                             HrUserData       *userdata,
                                             GSettings        *settings);

HrCatalog      *hr_session_get_catalog      (HrSession        *self);
HrUserData     *hr_session_get_userdata     (HrSession        *self);
/* The prices' source; the session follows its "changed" (NULL: the bundled prices only). */
void            hr_session_set_pricing_manager (HrSession     *self,
                                             HrPricingManager *manager);
HrPricingManager *hr_session_get_pricing_manager (HrSession   *self);

/* The scenario of the properties, NULL while its model or GPU is not in the catalog.  Valid
 * until the next change. */
const HrScenario *hr_session_get_scenario   (HrSession        *self);
const char     *hr_session_get_model        (HrSession        *self);
const char     *hr_session_get_gpu          (HrSession        *self);
const char     *hr_session_get_quant        (HrSession        *self);
void            hr_session_set_model        (HrSession        *self,
                                             const char       *id);
void            hr_session_set_gpu          (HrSession        *self,
                                             const char       *id);
void            hr_session_set_quant        (HrSession        *self,
                                             const char       *quant);

/* A mixed setup (#31): the GPUs besides "gpu" × "gpus", in launch order after it.  The
 * "extra-gpus" property (GSettings extra-gpus) holds them as "ID:COUNT"; ids the catalog does
 * not know are skipped by the scenario, a GPU like the first merges with it. */
guint           hr_session_get_n_extra_gpus (HrSession        *self);
/* The @index'th other GPU's id (NULL past the end) and its count. */
const char     *hr_session_get_extra_gpu    (HrSession        *self,
                                             guint             index,
                                             int              *count);
void            hr_session_add_extra_gpu    (HrSession        *self,
                                             const char       *id,
                                             int               count);
/* Changes the @index'th other GPU (id NULL, count 0: keeps them). */
void            hr_session_set_extra_gpu    (HrSession        *self,
                                             guint             index,
                                             const char       *id,
                                             int               count);
void            hr_session_remove_extra_gpu (HrSession        *self,
                                             guint             index);

/* Changing the catalog: waits for a worker reading it, changes it, keeps the scenario where
 * its ids still exist (else the defaults) and emits "catalog-changed" once.  Take ownership. */
void            hr_session_add_model        (HrSession        *self,
                                             HrModel          *model);
gboolean        hr_session_remove_model     (HrSession        *self,
                                             const char       *id);
/* Replaces the GPU @replaces (NULL: none) by @gpu. */
void            hr_session_add_gpu          (HrSession        *self,
                                             HrGpu            *gpu,
                                             const char       *replaces);
gboolean        hr_session_remove_gpu       (HrSession        *self,
                                             const char       *id);
/* Renames a model in place (the views and the scenario keep pointing at it). */
gboolean        hr_session_rename_model     (HrSession        *self,
                                             const char       *id,
                                             const char       *name);
/* After changing the catalog some other way (a test, the detected GPUs): the same signal. */
void            hr_session_catalog_changed  (HrSession        *self);
/* Changes the catalog in place: waits for a worker reading it, calls @edit (catalog, @data),
 * then emits "catalog-changed" (the measured RAM bandwidth of "This Computer"). */
typedef void (*HrSessionEditFunc) (HrCatalog *catalog,
                                   gconstpointer data);
void            hr_session_edit_catalog     (HrSession        *self,
                                             HrSessionEditFunc edit,
                                             gconstpointer     data);

/* For a view: calls @results_changed (@view) on "scenario-changed" and "pricing-changed" and
 * @catalog_changed (@view) on "catalog-changed", for as long as @view lives. */
void            hr_session_watch            (HrSession        *self,
                                             gpointer          view,
                                             GCallback         results_changed,
                                             GCallback         catalog_changed);
/* The whole-catalog advice (matrix, reverse answers, picks, launch commands) for the current
 * scenario, in a worker thread, one at a time: answers for a scenario that changed meanwhile
 * are dropped.  "advice-changed" when they are in — at once when the answers in place are the
 * current scenario's.  A scenario is worked on once, however many views ask for it. */
void            hr_session_request_advice   (HrSession        *self);
const HrAdviceState *hr_session_get_advice  (HrSession        *self);
gboolean        hr_session_get_advising     (HrSession        *self);
/* How many times the worker has started: for the tests and the benchmark. */
guint           hr_session_get_n_advice_runs (HrSession       *self);

/* The user's calibrations of their devices from their own runs (hr-user-calibration.h): the
 * scenario uses the one of its GPU and backend while "use-calibration" (GSettings
 * use-calibration).  Saving and removing write the file (@dir, NULL: the user's data
 * directory), then emit "calibration-changed" and "scenario-changed". */
GArray         *hr_session_get_calibrations (HrSession        *self);
void            hr_session_set_calibration_dir (HrSession     *self,
                                             const char       *dir);
gboolean        hr_session_get_use_calibration (HrSession     *self);
void            hr_session_set_use_calibration (HrSession     *self,
                                             gboolean          use);
/* Replaces the saved calibrations of the same GPU and backend as @cals' entries. */
gboolean        hr_session_save_calibrations (HrSession       *self,
                                             GArray           *cals,
                                             GError          **error);
/* Removes every saved calibration of @gpu_id; how many, or -1 with @error. */
int             hr_session_remove_calibration (HrSession      *self,
                                             const char       *gpu_id,
                                             GError          **error);

G_END_DECLS
