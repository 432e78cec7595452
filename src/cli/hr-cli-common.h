/* hr-cli-common.h — scenario options shared by headroom-cli's commands */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-detect.h"

G_BEGIN_DECLS

#define HR_CLI_ERROR (hr_cli_error_quark ())
typedef enum
{
  HR_CLI_ERROR_USAGE = 2,   /* bad arguments: exit 2 */
  HR_CLI_ERROR_FAILED = 1,  /* the work failed: exit 1 */
} HrCliError;

/* The --json entry every command's option table has. */
#define HR_CLI_JSON_OPTION(flag) { "json", 0, 0, G_OPTION_ARG_NONE, &(flag), "JSON output", NULL }

/* The raw option values, filled by GOption. */
typedef struct
{
  char *model;
  char *model_config;
  char *gguf;
  char *hf;              /* --hf ORG/NAME[@REV][:QUANT|:FILE] */
  gboolean refresh;      /* --refresh: ask the Hub again */
  char **gpu;           /* repeatable */
  char *gpu_custom;
  gboolean all_gpus;
  int gpus;
  char *quant;
  char *context;
  char *depth;
  int batch;
  char *kv_type;
  char *engine;
  char *engine_version;
  char *backend;
  double offload_pct;
  int n_cpu_moe;
  double reserve_pct;
  double gpu_mem_util;
  int max_num_seqs;
  int prompt;
  char *min_user_tps;    /* --min-user-tps: per-user decode speed the load curve must meet */
  int ubatch;
  gboolean no_flash_attn;
  gboolean enforce_eager;
  gboolean free_memory;  /* --gpu this: size against the memory free now */
  gboolean no_calibration; /* leave the user's calibration of the device out */
  gboolean no_user_data; /* --no-user-data: taken out of argv before parsing (for --help) */
  char *mmproj;          /* --mmproj auto|none|FILE: a vision projector (#31) */
  gboolean no_mmproj_offload;
  char *tensor_split;    /* --tensor-split A,B[,C]: llama.cpp's split the plan follows (#31) */
  char *draft;           /* --draft MODEL|FILE.gguf|mtp|none: speculative decoding (#31) */
  char *draft_accept;    /* --draft-accept P: per-token acceptance (0 … 0.99, or 70%) */
  int draft_max;         /* --draft-max N: tokens drafted a pass; -1: the engine's default */
  gboolean json;
  gboolean csv;
} HrCliArgs;

/* A resolved scenario: owns imported models/GPUs; borrows catalog entries. */
typedef struct
{
  HrScenario scenario;
  HrModel *owned_model;
  HrGpu *owned_gpu;
  HrGpu *this_gpu;      /* --gpu this: the detected device */
  double this_used;     /* bytes of it already in use (NAN unknown) */
  gboolean this_free;   /* sized against the free memory */
  GPtrArray *gpus;      /* const HrGpu* for compare (borrowed or owned_gpu) */
  int group_gpus;       /* --gpus, or the detected count: each compared GPU's group size */
  gboolean listed_with_gpus; /* several --gpu beside --gpus: a compare list, not a setup */
  GPtrArray *this_others; /* HrGpu*: --gpu this's GPUs when they are not alike (owned) */
  GArray *calibrations; /* the user's saved HrDeviceCalibration; scenario.calibration points in */
  double min_user_tps;  /* --min-user-tps; NAN: not given */
  char *mmproj_path;    /* the projector file scenario.mmproj_path points at; NULL: none */
  HrModel *draft_model;  /* --draft FILE.gguf: the draft read from its header (owned) */
  gboolean json;
  gboolean csv;
} HrCliScenario;

GQuark          hr_cli_error_quark          (void);

void            hr_cli_args_init            (HrCliArgs       *args);
void            hr_cli_args_clear           (HrCliArgs       *args);
/* GOption entries for the scenario options, writing into @args. */
GOptionGroup   *hr_cli_scenario_options     (HrCliArgs       *args);
/* --engine's choices from the engine table, "llama.cpp|vllm|…" (built once). */
const char     *hr_cli_engine_choices       (void);
/* "--engine: unknown engine “X” (llama.cpp, vllm, …)" */
gboolean        hr_cli_engine_parse         (const char      *str,
                                             HrEngine        *engine,
                                             GError         **error);
/* How a command reads its options. */
typedef struct
{
  const char         *parameter;   /* after "[OPTION…]" in --help; "" for nothing */
  const char         *summary;     /* NULL: none */
  const GOptionEntry *entries;     /* NULL: none */
  GOptionGroup       *group;       /* NULL: none; taken */
  gboolean           *json;        /* non-NULL: a --json option, listed first, sets it */
  gboolean            positional;  /* arguments may follow; else one is a usage error */
} HrCliOptions;

/* Parses argv against @options in a context named by its parameter: a bad option, or any
 * argument left when not positional, is a usage error ("unexpected argument “x”"). */
gboolean        hr_cli_parse_options        (int                 *argc,
                                             char              ***argv,
                                             const HrCliOptions  *options,
                                             GError             **error);
/* For an unknown option among @argv (as typed, before parsing) that is a typo of one @ctx
 * knows: "; did you mean “--context”?"; else "".  Newly allocated. */
char           *hr_cli_option_hint          (GOptionContext  *ctx,
                                             const GError    *error,
                                             int              argc,
                                             char           **argv);
/* Turns parsed options into a scenario. @need_gpu: whether a GPU is mandatory. */
gboolean        hr_cli_scenario_resolve     (const HrCliArgs *args,
                                             const HrCatalog *catalog,
                                             gboolean         need_gpu,
                                             HrCliScenario   *out,
                                             GError         **error);
/* The scenario of compare: each listed GPU on its own (--gpus of it), not the list as one
 * setup of devices. */
void            hr_cli_scenario_for_compare (HrCliScenario  *cs);
/* FALSE with a usage error when the scenario's --gpu list cannot be one setup (it came with
 * --gpus): estimate, launch and matrix never drop a device silently. */
gboolean        hr_cli_scenario_check_devices (const HrCliScenario *cs,
                                               GError            **error);
void            hr_cli_scenario_clear       (HrCliScenario   *cs);

/* The detected computer for --gpu this: matched to @catalog, as one device (GPUs of the most
 * numerous kind, else the CPU + system RAM); @n_gpus receives their count.  FALSE with a
 * failure when nothing usable was found. */
/* This computer's discrete GPUs in their order, alike neighbours as one kind with its count:
 * appended to @kinds (HrGpu*, owned by the array) and @counts (int). */
void            hr_cli_detect_kinds         (const HrCatalog *catalog,
                                             gboolean         free_memory,
                                             GPtrArray       *kinds,
                                             GArray          *counts);
HrGpu          *hr_cli_detect_device        (const HrCatalog *catalog,
                                             gboolean         free_memory,
                                             int             *n_gpus,
                                             double          *used_bytes,
                                             GError         **error);
/* "This computer: the desktop and other programs already use 1.30 GiB of …" for @cs; NULL
 * when not --gpu this or unknown. */
char           *hr_cli_this_note            (const HrCliScenario *cs);

/* Room for one hr_cli_number(). */
#define HR_CLI_NUM_SIZE 64

/* @value with @decimals as people read it in the user's locale (hr_format_number_locale_buf:
 * "1.792,5" in German, "1,792.5" in English, "1792.5" in the C locale), "?" when not finite,
 * padded to @width columns: right-aligned, left-aligned when @width is negative, as is at 0.
 * Text output only: JSON and CSV keep C-locale numbers.  Returns @buf (HR_CLI_NUM_SIZE). */
const char     *hr_cli_number               (char            *buf,
                                             double           value,
                                             int              decimals,
                                             int              width);
/* @text padded with spaces to @width columns as hr_cli_number() pads: counted in terminal
 * columns (hr_text_display_width: "—" and a French narrow no-break space take one, a CJK
 * character two), not bytes.  Returns @buf of @size bytes. */
const char     *hr_cli_pad                  (char            *buf,
                                             gsize            size,
                                             const char      *text,
                                             int              width);
/* The same appended to @out, however long @text is. */
void            hr_cli_append_padded        (GString         *out,
                                             const char      *text,
                                             int              width);

/* Prints "headroom-cli: message" and returns the exit code for @error. */
int             hr_cli_fail                 (GError          *error);
/* Prints "@who: message" (as hr_cli_print_error) and returns 2, the exit code of a usage error. */
int             hr_cli_usage_error          (const char      *who,
                                             const char      *format,
                                             ...) G_GNUC_PRINTF (2, 3);
/* Prints "@who: @message" on stderr as one line: what came from outside (a file name, a
 * header field, an HTTP reason, a 100 KB option value) escaped and cut to a readable length. */
void            hr_cli_print_error          (const char      *who,
                                             const char      *message);

/* Takes every "--no-user-data" out of @argv (up to a "--"), whichever command it came with;
 * TRUE when there was one.  hr_cli_load_user_data() then adds nothing. */
gboolean        hr_cli_take_user_data_option (int            *argc,
                                              char          **argv);
/* Adds the user's saved models and GPUs (the app's, g_get_user_data_dir()/headroom, "user:"
 * ids) to @catalog, reading only: a damaged file is left as it is, named in one warning line on
 * stderr, and the command goes on with the rest. */
void            hr_cli_load_user_data       (HrCatalog       *catalog);

/* Resolves a GPU id or fails with suggestions. */
const HrGpu    *hr_cli_find_gpu             (const HrCatalog *catalog,
                                             const char      *id,
                                             GError         **error);
const HrModel  *hr_cli_find_model           (const HrCatalog *catalog,
                                             const char      *id,
                                             GError         **error);

G_END_DECLS
