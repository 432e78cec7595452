/* hr-cli-fit.h — `headroom-cli fit` and the options `chart fit` shares with it */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-fit.h"

G_BEGIN_DECLS

typedef struct
{
  char *gpu;
  char *gpu_custom;
  int gpus;
  char *context;
  double min_tps;
  int batch;
  char *use_case;
  char *engine;
  char *kv_type;
  char *mmproj;        /* auto (default) | none: each model's vision projector (#31) */
  double reserve_pct;
  double ram_gib;
  gboolean free_memory;
  char *sort;
  int limit;
  gboolean json;
  gboolean csv;
  char *out;           /* chart fit --out */
} HrCliFitArgs;

/* The hardware and the needs, resolved; owns a detected or custom GPU. */
typedef struct
{
  HrScenario base;
  HrFitNeeds needs;
  HrGpu *owned_gpu;
  gboolean this_gpu;
  double this_used;
  const HrQuality *quality;
  GArray *rows;        /* HrFitRow, after hr_cli_fit_rank() */
} HrCliFit;

void            hr_cli_fit_args_init        (HrCliFitArgs    *args);
void            hr_cli_fit_args_clear       (HrCliFitArgs    *args);
/* Adds fit's options (all but --json) to @ctx, writing into @args. */
void            hr_cli_fit_add_options      (GOptionContext  *ctx,
                                             HrCliFitArgs    *args);
gboolean        hr_cli_fit_resolve          (const HrCliFitArgs *args,
                                             const HrCatalog *catalog,
                                             HrCliFit        *out,
                                             GError         **error);
/* Ranks the catalog's models into @fit->rows (also returned); NULL with an error when the
 * bundled quality data cannot be read. */
GArray         *hr_cli_fit_rank             (HrCliFit        *fit,
                                             const HrCatalog *catalog,
                                             GError         **error);
void            hr_cli_fit_clear            (HrCliFit        *fit);

/* `headroom-cli chart fit (fit options) --out FILE [--width W] [--height H] [--scale S]
 * [--theme light|dark]`: the What Runs Here scatter chart. */
int             hr_cli_fit_chart            (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);
int             hr_cli_fit                  (int              argc,
                                             char           **argv,
                                             const HrCatalog *catalog);

G_END_DECLS
