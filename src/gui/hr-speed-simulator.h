/* hr-speed-simulator.h — streams text at an estimated speed, so a person can feel it */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_TYPE_SPEED_SIMULATOR (hr_speed_simulator_get_type ())
G_DECLARE_FINAL_TYPE (HrSpeedSimulator, hr_speed_simulator, HR, SPEED_SIMULATOR, GtkWidget)

GtkWidget      *hr_speed_simulator_new      (void);

/* The time to first token and the decode rate the next run uses; NAN for unknown (then the
 * simulator cannot start).  @label names what runs ("GLM-4.5-Air · 69.96 GiB"). */
void            hr_speed_simulator_set_rate (HrSpeedSimulator *self,
                                             double            ttft_ms,
                                             double            tokens_per_second,
                                             const char       *label);
/* A sentence shown before the rate while idle (why it simulates something else, or nothing);
 * NULL for none. */
void            hr_speed_simulator_set_note (HrSpeedSimulator *self,
                                             const char       *note);
void            hr_speed_simulator_start    (HrSpeedSimulator *self);
void            hr_speed_simulator_stop     (HrSpeedSimulator *self);
gboolean        hr_speed_simulator_get_running (HrSpeedSimulator *self);
/* Tokens shown so far in the current or last run. */
guint           hr_speed_simulator_get_n_shown (HrSpeedSimulator *self);

/* The fixed text split into ~4-character tokens (a leading space stays with its token). */
GPtrArray      *hr_speed_simulator_tokenize (const char       *text);

G_END_DECLS
