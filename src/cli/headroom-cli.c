/* headroom-cli.c — Headroom from the command line (SPEC §5: a stable contract)
 *
 * Exit codes: 0 success, 1 the work failed, 2 bad arguments; errors are one line on stderr.
 */
#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-cli-common.h"
#include "hr-placement.h"
#include "hr-cli-bench.h"
#include "hr-cli-calibrate.h"
#include "hr-cli-check.h"
#include "hr-cli-chart.h"
#include "hr-cli-detect.h"
#include "hr-cli-fit.h"
#include "hr-cli-inspect.h"
#include "hr-cli-hub.h"
#include "hr-cli-pricing.h"
#include "hr-finetune.h"
#include "hr-launch.h"
#include "hr-report.h"
#include "hr-load-curve.h"
#include "hr-text.h"
#include "hr-units.h"

static const char usage_text[] =
  "Usage: headroom-cli COMMAND [OPTIONS]\n"
  "\n"
  "Commands:\n"
  "  list models|gpus|quants|engines [--json]\n"
  "  estimate  --model ID|--model-config FILE|--gguf FILE|--hf REPO[:QUANT] --gpu ID|this|--gpu-custom SPEC [options] [--json]\n"
  "  matrix    (scenario options) [--json]       every quantization on this hardware\n"
  "  launch    (scenario options) [--engine E] [--json]   the app's launch commands\n"
  "  compare   --model ID --gpu A --gpu B …|--all-gpus [--json|--csv]\n"
  "  finetune  --model ID --method qlora|lora|full [--seq N] [--micro-batch N] [--gpus N] [--json]\n"
  "  inspect   FILE.gguf|URL [--context N] [--json]\n"
  "  hub       search TEXT [--gguf] [--json] | files REPO [--json]   the Hugging Face Hub\n"
  "  pricing   [--url URL] [--json]\n"
  "  fit       --gpu ID|this|--gpu-custom SPEC [--context N] [--min-tps N] [--use-case U] [--sort S] [--limit N] [--json|--csv]\n"
  "  chart     breakdown|context|quant|compare|finetune|tco (scenario options) --out FILE\n"
  "  detect    [--json]                         this computer: GPUs, CPU, RAM, how they matched\n"
  "  bench     [--json]\n"
  "  check     FILE|- [--model ID] [--gpu ID] [--gpus N] [--quant Q] [--json]   measured against predicted\n"
  "  calibrate FILE… [--gpu ID|this] [--json] | --list | --remove ID|all   fit a GPU to your runs\n"
  "\n"
  "Every command that takes a model or GPU, fit and list also know your saved models and GPUs\n"
  "(the app's, ids “user:…”); --no-user-data, with any command, leaves them out.\n"
  "\n"
  "Run “headroom-cli COMMAND --help” or “headroom-cli help COMMAND” for a command's options.\n";

/* A command over one scenario: writes what it prints into @out and returns the exit status;
 * @out reaches stdout only on success (0). */
typedef int (*ScenarioCommand) (const HrCliArgs *args,
                                HrCliScenario   *cs,
                                const HrCatalog *catalog,
                                GString         *out);

/* Parses the scenario options into a scenario (a GPU is required) and runs @command on it. */
static int
run_scenario_command (int               argc,
                      char            **argv,
                      const char       *summary,
                      const HrCatalog  *catalog,
                      ScenarioCommand   command)
{
  HrCliArgs args;
  HrCliScenario cs = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  int rc;

  hr_cli_args_init (&args);
  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "",
                                               .summary = summary,
                                               .group = hr_cli_scenario_options (&args) },
                             &error) ||
      !hr_cli_scenario_resolve (&args, catalog, TRUE, &cs, &error))
    rc = hr_cli_fail (error);
  else if ((rc = command (&args, &cs, catalog, out)) == 0)
    fputs (out->str, stdout);
  hr_cli_scenario_clear (&cs);
  hr_cli_args_clear (&args);
  return rc;
}

/* A command's rows go into @out as one JSON array when @json, else as text lines. */
static void
rows_begin (HrJsonWriter *w,
            GString      *out,
            gboolean      json)
{
  hr_json_init (w, out, TRUE);
  if (json)
    hr_json_begin_array (w);
}

static void
rows_end (HrJsonWriter *w,
          GString      *out,
          gboolean      json)
{
  if (!json)
    return;
  hr_json_end_array (w);
  g_string_append_c (out, '\n');
}

/* ---- list -------------------------------------------------------------------------------- */

/* One kind of `list`: how many entries there are, and entry @i as JSON or as a text line. */
typedef struct
{
  const char *name;
  guint (*count) (const HrCatalog *catalog);
  void (*json) (HrJsonWriter *w, const HrCatalog *catalog, guint i);
  void (*text) (GString *out, const HrCatalog *catalog, guint i);
} ListKind;

static void
list_model_json (HrJsonWriter *w, const HrCatalog *catalog, guint i)
{
  const HrModel *m = hr_catalog_get_model (catalog, i);

  hr_json_begin_object (w);
  hr_json_member_string (w, "id", m->id);
  hr_json_member_string (w, "name", m->name);
  hr_json_member_string (w, "family", m->family);
  hr_json_member_number (w, "total_params_b", m->total_params / 1e9, 2);
  hr_json_member_number (w, "active_params_b", m->active_params / 1e9, 2);
  hr_json_member_int (w, "layers", m->n_layers);
  hr_json_member_int (w, "max_context", m->max_context);
  hr_json_member_string (w, "architecture", m->arch_label);
  hr_json_member_string (w, "license", m->license);
  hr_json_member_string (w, "hf_repo", m->hf_repo);
  hr_json_end_object (w);
}

static void
list_model_text (GString *out, const HrCatalog *catalog, guint i)
{
  const HrModel *m = hr_catalog_get_model (catalog, i);
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE];

  g_string_append_printf (out, "%-34s %-40s %sB / %s %s\n", m->id, m->name,
                          hr_cli_number (a, m->total_params / 1e9, 1, 8),
                          hr_cli_number (b, m->active_params / 1e9, 1, -8),
                          m->arch_label ? m->arch_label : "");
}

static void
list_gpu_json (HrJsonWriter *w, const HrCatalog *catalog, guint i)
{
  const HrGpu *g = hr_catalog_get_gpu (catalog, i);

  hr_json_begin_object (w);
  hr_json_member_string (w, "id", g->id);
  hr_json_member_string (w, "name", g->name);
  hr_json_member_string (w, "vendor", g->vendor);
  hr_json_member_string (w, "form", hr_gpu_form_to_string (g->form));
  hr_json_member_number (w, "memory_gib", g->memory_gib, 0);
  hr_json_member_number (w, "bandwidth_gbs", g->bandwidth_gbs, 0);
  hr_json_member_number (w, "fp16_tflops", g->fp16_tflops, 1);
  hr_json_member_number (w, "tdp_w", g->tdp_w, 0);
  hr_json_member_number (w, "price_usd", g->price_usd, 0);
  hr_json_member_string (w, "backend", hr_backend_to_string (g->backend));
  hr_json_member_string (w, "generation", hr_gpu_generation_info (g->generation) != NULL
                                          ? hr_gpu_generation_info (g->generation)->id : NULL);
  hr_json_end_object (w);
}

static void
list_gpu_text (GString *out, const HrCatalog *catalog, guint i)
{
  const HrGpu *g = hr_catalog_get_gpu (catalog, i);
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE];

  g_string_append_printf (out, "%-30s %-44s %s GB %s GB/s  %s\n", g->id, g->name,
                          hr_cli_number (a, g->memory_gib, 0, 6), hr_cli_number (b, g->bandwidth_gbs, 0, 8),
                          hr_gpu_form_to_string (g->form));
}

static void
list_quant_json (HrJsonWriter *w, const HrCatalog *catalog, guint i)
{
  const HrQuantMix *q = hr_catalog_get_quant (catalog, i);
  g_autofree char *engines = hr_engine_list_loading (q->id, ",");

  hr_json_begin_object (w);
  hr_json_member_string (w, "id", q->id);
  hr_json_member_string (w, "label", q->label);
  hr_json_member_string (w, "default_type", q->default_type);
  hr_json_member_number (w, "nominal_bpw", q->nominal_bpw, 4);
  hr_json_member_bool (w, "gguf", q->gguf);
  hr_json_member_string (w, "engines", engines);
  hr_json_end_object (w);
}

static void
list_quant_text (GString *out, const HrCatalog *catalog, guint i)
{
  const HrQuantMix *q = hr_catalog_get_quant (catalog, i);
  g_autofree char *engines = hr_engine_list_loading (q->id, ",");

  g_string_append_printf (out, "%-14s %-36s %s\n", q->id, q->label ? q->label : "", engines);
}

static guint
n_engines (const HrCatalog *catalog)
{
  return HR_N_ENGINES;
}

static void
list_engine_json (HrJsonWriter *w, const HrCatalog *catalog, guint i)
{
  hr_json_begin_object (w);
  hr_json_member_string (w, "id", hr_engine_to_string (i));
  hr_json_member_string (w, "name", hr_engine_display_name (i));
  hr_json_end_object (w);
}

static void
list_engine_text (GString *out, const HrCatalog *catalog, guint i)
{
  g_string_append_printf (out, "%-10s %s\n", hr_engine_to_string (i), hr_engine_display_name (i));
}

static const ListKind list_kinds[] = {
  { "models", hr_catalog_n_models, list_model_json, list_model_text },
  { "gpus", hr_catalog_n_gpus, list_gpu_json, list_gpu_text },
  { "quants", hr_catalog_n_quants, list_quant_json, list_quant_text },
  { "engines", n_engines, list_engine_json, list_engine_text },
};

static int
cmd_list (int              argc,
          char           **argv,
          const HrCatalog *catalog)
{
  gboolean json = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  const ListKind *kind = NULL;
  HrJsonWriter w;

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "models|gpus|quants|engines",
                                               .json = &json, .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (argc != 2)
    return hr_cli_usage_error ("headroom-cli", "list what? models, gpus, quants or engines");
  for (guint k = 0; k < G_N_ELEMENTS (list_kinds); k++)
    if (g_str_equal (argv[1], list_kinds[k].name))
      kind = &list_kinds[k];
  if (kind == NULL)
    return hr_cli_usage_error ("headroom-cli",
                               "list: unknown list “%s” (models, gpus, quants, engines)", argv[1]);

  rows_begin (&w, out, json);
  for (guint i = 0; i < kind->count (catalog); i++)
    {
      if (json)
        kind->json (&w, catalog, i);
      else
        kind->text (out, catalog, i);
    }
  rows_end (&w, out, json);
  fputs (out->str, stdout);
  return 0;
}

/* ---- estimate ---------------------------------------------------------------------------- */

/* Different GPUs that do not fit as asked: the least in system RAM that does, and its flags. */
static void
append_placement_search (GString          *out,
                         const HrScenario *s,
                         const HrEstimate *est)
{
  HrScenario best;
  HrEstimate best_est;
  g_autofree char *split = NULL;
  const HrPlacement *p = &best_est.placement;

  if (!hr_scenario_is_mixed (s) || est->verdict != HR_VERDICT_EXCEEDS ||
      !hr_placement_search (s, &best, &best_est))
    return;
  split = hr_placement_tensor_split (&best, &best_est);
  g_string_append_printf (out, "• Placement search: it fits with %d of %d layers in system RAM",
                          p->ram_layers, s->model->n_layers);
  if (p->n_cpu_moe > p->ram_layers)
    g_string_append_printf (out, " and the experts of %d more", p->n_cpu_moe - p->ram_layers);
  g_string_append_printf (out, ": -ngl %d", p->gpu_layers);
  if (p->n_cpu_moe > 0)
    g_string_append_printf (out, " --n-cpu-moe %d", p->n_cpu_moe);
  g_string_append_printf (out, " --tensor-split %s, ~%.1f tok/s (size or launch it with",
                          split, best_est.decode_tps);
  if (p->ram_layers > 0)
    g_string_append_printf (out, " --offload-pct %g", best.offload_pct);
  if (p->n_cpu_moe > 0)
    g_string_append_printf (out, " --n-cpu-moe %d", p->n_cpu_moe);
  g_string_append (out, ")\n");
}

static int
estimate_command (const HrCliArgs *args,
                  HrCliScenario   *cs,
                  const HrCatalog *catalog,
                  GString         *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) diag = NULL;
  g_autofree char *text = NULL;
  g_autofree char *note = NULL;
  HrEstimate est;
  HrLoadCurve load;
  gboolean has_load;

  if (!hr_cli_scenario_check_devices (cs, &error) ||
      !hr_estimate_compute (&cs->scenario, hr_catalog_get_pricing (catalog), &est, &error))
    return hr_cli_fail (error);
  hr_advice_fill_cost (&cs->scenario, catalog, hr_catalog_get_pricing (catalog), &est);
  /* throughput under load (#28): vLLM/SGLang, llama.cpp with --batch above 1 */
  has_load = hr_load_curve_applies (&cs->scenario) &&
             hr_load_curve_compute (&cs->scenario, &est, cs->min_user_tps > 0 ? cs->min_user_tps : NAN,
                                    &load, NULL);
  if (cs->json)
    {
      HrJsonWriter w;

      hr_json_document_begin (&w);
      hr_json_begin_object (&w);
      hr_report_estimate_members (&w, &cs->scenario, &est);
      hr_load_curve_json_members (&w, has_load ? &load : NULL);
      hr_json_end_object (&w);
      text = hr_json_document_end (&w);
      g_string_append (out, text);
      return 0;
    }
  text = hr_report_estimate_text (&cs->scenario, &est);
  g_string_append (out, text);
  if (has_load)
    hr_load_curve_text (&load, out);
  diag = hr_advice_diagnosis (&cs->scenario, &est, catalog);
  for (guint i = 0; diag && i < diag->len; i++)
    g_string_append_printf (out, "• %s\n", (const char *) g_ptr_array_index (diag, i));
  if ((note = hr_cli_this_note (cs)) != NULL)
    g_string_append_printf (out, "• %s\n", note);
  append_placement_search (out, &cs->scenario, &est);
  return 0;
}

/* ---- matrix ------------------------------------------------------------------------------ */

/* The matrix row's "smallest GPU that fits": "2× H100 NVL 94GB", "—" for none. */
static char *
matrix_smallest (const HrMatrixRow *r)
{
  if (r->smallest.count > 1)
    return g_strdup_printf ("%d× %s", r->smallest.count, r->smallest.gpu->name);
  return g_strdup (r->smallest.count == 1 ? r->smallest.gpu->name : "—");
}

/* "Q4_K_M        67.96 GiB  67.96 GiB  1.44 GiB  75.35 GiB  140.9 t/s  fits …": the GPU's
 * name is whole, padded to @gpu_width columns */
static void
matrix_text_row (GString           *out,
                 const HrMatrixRow *r,
                 int                gpu_width)
{
  const HrEstimate *e = &r->estimate;
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], c[HR_CLI_NUM_SIZE], d[HR_CLI_NUM_SIZE], g[HR_CLI_NUM_SIZE];
  g_autofree char *smallest = matrix_smallest (r);
  /* a row the engine loads as another quant (vLLM: the BF16 checkpoint for a GGUF it cannot
   * read) says so where its weights' source would be: its figures are of that quant */
  g_autofree char *source = e->load.kind == HR_LOAD_SUBSTITUTE
    ? g_strdup_printf ("loads %s", e->load.quant)
    : g_strdup (hr_weights_source_to_string (e->weights.source));

  g_string_append_printf (out, "%-12s %s GiB %s GiB %s GiB %s GiB %s t/s  %-8s ", r->quant->id,
                          hr_cli_number (a, hr_to_gib (e->weights.bytes), 2, 6),
                          hr_cli_number (g, hr_to_gib (e->weights_gpu), 2, 6),
                          hr_cli_number (b, hr_to_gib (MAX (0, e->required_bytes - e->weights_gpu - e->overhead_bytes
                                                                   - e->draft_bytes)), 2, 5),
                          hr_cli_number (c, hr_to_gib (e->required_bytes), 2, 6),
                          hr_cli_number (d, e->decode_tps, 1, 6),
                          hr_verdict_to_string (e->verdict));
  hr_cli_append_padded (out, smallest, -gpu_width);
  g_string_append_printf (out, " %s\n", source);
}

static int
matrix_command (const HrCliArgs *args,
                HrCliScenario   *cs,
                const HrCatalog *catalog,
                GString         *out)
{
  g_autoptr(GArray) rows = NULL;
  HrJsonWriter w;
  int gpu_width = (int) hr_text_display_width ("smallest GPU that fits");

  g_autoptr(GError) error = NULL;

  if (!hr_cli_scenario_check_devices (cs, &error))
    return hr_cli_fail (error);
  rows = hr_advice_quant_matrix (&cs->scenario, catalog, hr_catalog_get_pricing (catalog));
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *smallest = matrix_smallest (&g_array_index (rows, HrMatrixRow, i));

      gpu_width = MAX (gpu_width, (int) hr_text_display_width (smallest));
    }
  rows_begin (&w, out, cs->json);
  if (!cs->json)
    {
      /* "on GPU" and "KV" add up to "total" with the engine's buffers; "file" is the download */
      g_string_append_printf (out, "%-12s %10s %10s %9s %10s %10s  %-8s ", "quant", "file", "on GPU",
                              "KV", "total", "decode", "verdict");
      hr_cli_append_padded (out, "smallest GPU that fits", -gpu_width);
      g_string_append (out, " source\n");
    }
  for (guint i = 0; i < rows->len; i++)
    {
      HrMatrixRow *r = &g_array_index (rows, HrMatrixRow, i);
      HrScenario s = cs->scenario;

      g_strlcpy (s.quant, r->quant->id, sizeof s.quant);
      if (cs->json)
        {
          hr_json_begin_object (&w);
          hr_report_estimate_members (&w, &s, &r->estimate);
          hr_json_member_string (&w, "smallest_gpu", r->smallest.count > 0 ? r->smallest.gpu->id : NULL);
          hr_json_member_int (&w, "smallest_gpu_count", r->smallest.count);
          hr_json_end_object (&w);
        }
      else
        {
          matrix_text_row (out, r, gpu_width);
        }
    }
  rows_end (&w, out, cs->json);
  return 0;
}

/* ---- launch ------------------------------------------------------------------------------ */

/* A note as "# " comment lines of at most 100 columns, so the output stays a shell script. */
static void
append_comment (GString    *out,
                const char *text)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  gsize col = 0;

  for (guint i = 0; words[i] != NULL; i++)
    {
      gsize len = g_utf8_strlen (words[i], -1);

      if (col > 0 && col + 1 + len > 100)
        {
          g_string_append_c (out, '\n');
          col = 0;
        }
      if (col == 0)
        {
          g_string_append (out, "#");
          col = 1;
        }
      g_string_append_printf (out, " %s", words[i]);
      col += 1 + len;
    }
  g_string_append_c (out, '\n');
}

/* One launch command as a JSON object. */
static void
launch_json (HrJsonWriter          *w,
             const HrLaunchCommand *c)
{
  hr_json_begin_object (w);
  hr_json_member_string (w, "engine", hr_engine_to_string (c->engine));
  hr_json_member_string (w, "title", c->title);
  hr_json_member_string (w, "command", c->command);
  hr_json_member_string (w, "note", c->note);
  /* what the command loads, the quant its note sizes (estimate --json's loaded_quant) */
  hr_json_member_string (w, "loaded_quant", c->loaded_quant);
  hr_json_end_object (w);
}

/* The scenario's launch commands, as the app builds them: a model opened from a GGUF file is
 * launched from that file.  For JSON the notes' figures take '.' ("213.16 GiB"), as the text's
 * take the locale's mark ("213,16 GiB" in German). */
static GPtrArray *
launch_commands (const HrScenario *s,
                 const HrEstimate *est,
                 gboolean          json)
{
  GPtrArray *cmds;
  HrCNumeric c;

  if (json)
    hr_c_numeric_begin (&c);
  cmds = hr_launch_commands_for_file (s, est, s->model->gguf_path);
  if (json)
    hr_c_numeric_end (&c);
  return cmds;
}

/* The Size view's launch commands for the scenario: every engine's, or only --engine's. */
static int
launch_command (const HrCliArgs *args,
                HrCliScenario   *cs,
                const HrCatalog *catalog,
                GString         *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cmds = NULL;
  g_autoptr(HrGpu) data_gpu = NULL;
  HrScenario named = cs->scenario;
  HrEstimate est;
  HrJsonWriter w;
  guint shown = 0;

  if (!hr_cli_scenario_check_devices (cs, &error) ||
      !hr_estimate_compute (&cs->scenario, hr_catalog_get_pricing (catalog), &est, &error))
    return hr_cli_fail (error);
  /* the notes name the GPU: in JSON as the JSON's gpu_name does ("(24.5 GiB)" in German too) */
  if (cs->json)
    {
      data_gpu = hr_gpu_copy (named.gpu);
      g_free (data_gpu->name);
      data_gpu->name = hr_gpu_data_name (named.gpu);
      /* the first of a mixed setup's kinds is the same device */
      if (named.n_kinds > 0 && named.kinds[0].gpu == named.gpu)
        named.kinds[0].gpu = data_gpu;
      named.gpu = data_gpu;
    }
  cmds = launch_commands (&named, &est, cs->json);
  rows_begin (&w, out, cs->json);
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (args->engine != NULL && c->engine != cs->scenario.engine)
        continue;
      shown++;
      if (cs->json)
        {
          launch_json (&w, c);
          continue;
        }
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "# %s\n%s\n", c->title, c->command);
      if (c->note != NULL)
        append_comment (out, c->note);
    }
  rows_end (&w, out, cs->json);
  if (args->engine != NULL && shown == 0)
    {
      fprintf (stderr, "headroom-cli: %s does not run on %s\n",
               hr_engine_display_name (cs->scenario.engine), cs->scenario.gpu->name);
      return 1;
    }
  return 0;
}

/* ---- compare ----------------------------------------------------------------------------- */

/* One GPU's line: its name whole, padded to @name_width terminal columns (a CJK character
 * takes two), the longest context as a token count ("52,480", never "51K" beside it). */
static void
compare_text_row (GString            *out,
                  const HrCompareRow *row,
                  int                 name_width)
{
  const HrEstimate *e = &row->estimate;
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], c[HR_CLI_NUM_SIZE], d[HR_CLI_NUM_SIZE], f[HR_CLI_NUM_SIZE];
  char g[HR_CLI_NUM_SIZE];

  hr_cli_append_padded (out, row->scenario.gpu->name, -name_width);
  g_string_append_printf (out, " %-8s %s GiB %s GiB %s t/s %s t/s %s %s\n",
                          hr_verdict_to_string (e->verdict),
                          hr_cli_number (a, hr_to_gib (e->required_bytes), 1, 6),
                          hr_cli_number (b, hr_to_gib (e->usable_bytes), 1, 6),
                          hr_cli_number (c, e->decode_tps, 1, 5),
                          hr_cli_number (d, e->prefill_tps, 0, 6),
                          isfinite (e->cost_per_mtok_usd) ? hr_cli_number (f, e->cost_per_mtok_usd, 2, 10)
                                                          : hr_cli_pad (f, sizeof f, "—", 10),
                          row->max_context > 0 ? hr_cli_number (g, (double) row->max_context, 0, 9)
                                               : hr_cli_pad (g, sizeof g, "—", 9));
}

static int
compare_command (const HrCliArgs *args,
                 HrCliScenario   *cs,
                 const HrCatalog *catalog,
                 GString         *out)
{
  g_autoptr(GError) error = NULL;
  HrJsonWriter w;
  int name_width = 3;   /* "GPU" */

  if (cs->json && cs->csv)
    return hr_cli_usage_error ("headroom-cli", "--json and --csv exclude each other");

  hr_cli_scenario_for_compare (cs);
  for (guint i = 0; i < cs->gpus->len; i++)
    name_width = MAX (name_width, (int) hr_text_display_width (((const HrGpu *) g_ptr_array_index (cs->gpus, i))->name));
  rows_begin (&w, out, cs->json);
  if (cs->csv)
    hr_report_compare_csv_header (out, &cs->scenario);
  else if (!cs->json)
    {
      hr_cli_append_padded (out, "GPU", -name_width);
      g_string_append_printf (out, " %-8s %10s %10s %9s %10s %10s %9s\n", "verdict",
                              "required", "usable", "decode", "prefill", "$/1M tok", "max ctx");
    }

  /* the same rows, computed by the same function, as the app's Compare view */
  for (guint i = 0; i < cs->gpus->len; i++)
    {
      HrCompareRow row;

      if (!hr_report_compare_row (&cs->scenario, g_ptr_array_index (cs->gpus, i), cs->scenario.n_gpus,
                                  catalog, hr_catalog_get_pricing (catalog), &row, &error))
        return hr_cli_fail (error);
      if (cs->json)
        {
          hr_json_begin_object (&w);
          hr_report_compare_members (&w, &row);
          hr_json_end_object (&w);
        }
      else if (cs->csv)
        hr_report_compare_csv_row (out, &row);
      else
        compare_text_row (out, &row, name_width);
    }
  rows_end (&w, out, cs->json);
  return 0;
}

/* ---- finetune ---------------------------------------------------------------------------- */

static void
finetune_text (const HrModel      *model,
               const HrFtScenario *ft,
               const HrFtEstimate *est,
               const HrGpu        *gpu)
{
  const struct { const char *label; double bytes; } parts[] = {
    { "Weights", est->weights_bytes }, { "Gradients", est->gradients_bytes },
    { "Optimizer states", est->optimizer_bytes }, { "Activations", est->activations_bytes },
    { "Buffers", est->buffers_bytes }, { "Total", est->total_bytes },
  };
  char a[HR_CLI_NUM_SIZE];

  printf ("%s · %s · seq %d × micro-batch %d · %d GPU(s)\n", model->name, hr_ft_method_to_string (ft->method),
          ft->seq_len, ft->micro_batch, ft->n_gpus);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    printf ("  %-28s %s GiB%s\n", parts[i].label, hr_cli_number (a, hr_to_gib (parts[i].bytes), 2, 0),
            i == G_N_ELEMENTS (parts) - 1 ? " per GPU" : "");
  if (gpu)
    printf ("  %-28s %s (%s GiB usable)\n", gpu->name,
            hr_verdict_to_string (hr_finetune_verdict (est, gpu, HR_DEFAULT_RESERVE, 0)),
            hr_cli_number (a, hr_to_gib (hr_finetune_usable_bytes (gpu, HR_DEFAULT_RESERVE, 0)), 2, 0));
}

static int
cmd_finetune (int              argc,
              char           **argv,
              const HrCatalog *catalog)
{
  g_autofree char *model_id = NULL, *method = NULL, *optimizer = NULL, *sharding = NULL, *gpu_id = NULL;
  g_autofree char *targets = NULL;
  int seq = 2048, micro = 1, gpus = 1, rank = 16;
  gboolean json = FALSE, no_ckpt = FALSE, no_flash = FALSE;
  const GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_id, "Model id", "ID" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &method, "qlora|lora|full", "M" },
    { "seq", 0, 0, G_OPTION_ARG_INT, &seq, "Sequence length (2048)", "N" },
    { "micro-batch", 0, 0, G_OPTION_ARG_INT, &micro, "Micro-batch (1)", "N" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, "GPUs to shard across (1)", "N" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_id, "GPU to check the verdict on", "ID" },
    { "lora-rank", 0, 0, G_OPTION_ARG_INT, &rank, "LoRA rank (16)", "R" },
    { "lora-targets", 0, 0, G_OPTION_ARG_STRING, &targets, "all-linear|attention (all-linear)", "T" },
    { "optimizer", 0, 0, G_OPTION_ARG_STRING, &optimizer, "adamw|adamw8bit|sgd", "O" },
    { "sharding", 0, 0, G_OPTION_ARG_STRING, &sharding, "none|zero2|zero3", "S" },
    { "no-checkpointing", 0, 0, G_OPTION_ARG_NONE, &no_ckpt, "Disable gradient checkpointing", NULL },
    { "no-flash-attention", 0, 0, G_OPTION_ARG_NONE, &no_flash,
      "Count the attention scores (eager attention, no FlashAttention/SDPA)", NULL },
    HR_CLI_JSON_OPTION (json),
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  const HrModel *model;
  const HrGpu *gpu = NULL;
  HrFtScenario ft;
  HrFtEstimate est;
  HrFtMethod m = HR_FT_QLORA;

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "", .entries = entries,
                                               .summary = "Memory to fine-tune a model: weights, "
                                                          "gradients, optimizer states, activations." },
                             &error))
    return hr_cli_fail (error);
  if (model_id == NULL)
    return hr_cli_usage_error ("headroom-cli", "choose a model with --model ID");
  if ((model = hr_cli_find_model (catalog, model_id, &error)) == NULL)
    return hr_cli_fail (error);
  if (method && !hr_ft_method_from_string (method, &m))
    return hr_cli_usage_error ("headroom-cli", "--method: unknown method “%s” (qlora, lora, full)",
                               method);
  if (gpu_id && (gpu = hr_cli_find_gpu (catalog, gpu_id, &error)) == NULL)
    return hr_cli_fail (error);

  /* hr_ft_scenario_init() holds the defaults the app's Fine-tune view starts from too */
  hr_ft_scenario_init (&ft, model, m);
  ft.seq_len = seq;
  ft.micro_batch = micro;
  ft.n_gpus = gpus;
  ft.lora_rank = rank;
  ft.grad_checkpointing = !no_ckpt;
  ft.flash_attention = !no_flash;
  if (optimizer && !hr_optimizer_from_string (optimizer, &ft.optimizer))
    return hr_cli_usage_error ("headroom-cli",
                               "--optimizer: unknown optimizer “%s” (adamw, adamw8bit, sgd)",
                               optimizer);
  if (sharding && !hr_sharding_from_string (sharding, &ft.sharding))
    return hr_cli_usage_error ("headroom-cli",
                               "--sharding: unknown sharding “%s” (none, zero2, zero3)", sharding);
  if (targets && g_ascii_strcasecmp (targets, "all-linear") != 0 && g_ascii_strcasecmp (targets, "attention") != 0)
    return hr_cli_usage_error ("headroom-cli",
                               "--lora-targets: unknown targets “%s” (all-linear, attention)",
                               targets);
  ft.lora_all_linear = targets == NULL || g_ascii_strcasecmp (targets, "all-linear") == 0;
  if (!hr_finetune_compute (&ft, &est, &error))
    return hr_cli_usage_error ("headroom-cli", "%s", error->message);

  if (json)
    {
      g_autofree char *text = hr_report_finetune_json (&ft, &est, gpu, HR_DEFAULT_RESERVE, 0);
      fputs (text, stdout);
    }
  else
    finetune_text (model, &ft, &est, gpu);
  return 0;
}

/* The commands that work on the bundled catalog.  Only those that show a cost read the cloud
 * prices: the SkyPilot files are a good part of a cold start that `list` or `detect` never
 * need. */
static const struct
{
  const char *name;
  ScenarioCommand scenario;   /* run through run_scenario_command(), or: */
  int (*run) (int argc, char **argv, const HrCatalog *catalog);
  gboolean prices;
  const char *summary;        /* a scenario command's --help summary */
} commands[] = {
  { "list", NULL, cmd_list, FALSE, NULL },
  { "estimate", estimate_command, NULL, TRUE,
    "Memory, speed, cost and verdict for one model on one hardware setup." },
  { "matrix", matrix_command, NULL, TRUE,
    "Every quantization of the model on this hardware, with the smallest GPU that fits each." },
  { "launch", launch_command, NULL, FALSE,
    "The engines' launch commands for the scenario, as the app shows them." },
  { "compare", compare_command, NULL, TRUE,
    "One model on several GPUs (--gpu A --gpu B …, or --all-gpus)." },
  { "finetune", NULL, cmd_finetune, FALSE, NULL },
  { "fit", NULL, hr_cli_fit, FALSE, NULL },
  { "chart", NULL, hr_cli_chart, TRUE, NULL },
  { "detect", NULL, hr_cli_detect, FALSE, NULL },
  { "bench", NULL, hr_cli_bench, TRUE, NULL },
  { "check", NULL, hr_cli_check, FALSE, NULL },
  { "calibrate", NULL, hr_cli_calibrate, FALSE, NULL },
};

/* The commands without the catalog, and `help`. */
static const char *const other_commands[] = { "inspect", "pricing", "hub", "help" };

static int
unknown_command (const char *name)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *near;

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_ptr_array_add (names, (gpointer) commands[i].name);
  for (guint i = 0; i < G_N_ELEMENTS (other_commands); i++)
    g_ptr_array_add (names, (gpointer) other_commands[i]);
  g_ptr_array_add (names, NULL);
  near = hr_text_nearest (name, (const char * const *) names->pdata);
  if (near != NULL)
    return hr_cli_usage_error ("headroom-cli", "unknown command “%s”; did you mean “%s”? (see: headroom-cli --help)",
                               name, near);
  return hr_cli_usage_error ("headroom-cli", "unknown command “%s” (see: headroom-cli --help)", name);
}

static int
run_catalog_command (int         argc,
                     char      **argv,
                     const char *name)
{
  g_autoptr(HrCatalog) catalog = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (!g_str_equal (name, commands[i].name))
        continue;
      catalog = hr_catalog_new_unpriced (&error);
      if (catalog == NULL)
        {
          g_prefix_error (&error, "cannot load the bundled catalog: ");
          hr_cli_print_error ("headroom-cli", error->message);
          return 1;
        }
      if (commands[i].prices)
        hr_cli_use_catalog_prices (catalog);
      hr_cli_load_user_data (catalog);
      if (commands[i].scenario != NULL)
        return run_scenario_command (argc, argv, commands[i].summary, catalog, commands[i].scenario);
      return commands[i].run (argc, argv, catalog);
    }
  return unknown_command (name);
}

/* Runs @command with @argv (argv[0] the program) as its own. */
static int
run_command (const char  *command,
             int          argc,
             char       **argv)
{
  g_autofree char *prgname = g_strdup_printf ("headroom-cli %s", command);

  /* a command's --help reads "Usage: headroom-cli estimate [OPTION…]" */
  g_set_prgname (prgname);
  if (g_str_equal (command, "inspect"))
    return hr_cli_inspect (argc, argv);
  if (g_str_equal (command, "pricing"))
    return hr_cli_pricing (argc, argv);
  if (g_str_equal (command, "hub"))
    return hr_cli_hub (argc, argv);
  return run_catalog_command (argc, argv, command);
}

static int
run (int    argc,
     char **argv)
{
  const char *command;

  setlocale (LC_ALL, "");
  /* HEADROOM_LOCALEDIR lets tests and uninstalled runs use the build tree's catalogs */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("HEADROOM_LOCALEDIR") ? g_getenv ("HEADROOM_LOCALEDIR")
                                                                   : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* --no-user-data goes with any command, before or after it */
  hr_cli_take_user_data_option (&argc, argv);

  /* "help estimate" is "estimate --help" */
  if (argc == 3 && g_str_equal (argv[1], "help") && !g_str_has_prefix (argv[2], "-"))
    {
      char *help_argv[] = { argv[0], "--help", NULL };

      return run_command (argv[2], 2, help_argv);
    }
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      (g_str_equal (argv[1], "help") && argc == 2))
    {
      fputs (usage_text, argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("headroom-cli %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_str_equal (argv[1], "help"))
    return hr_cli_usage_error ("headroom-cli", "help: one command at a time (headroom-cli help COMMAND)");

  command = argv[1];
  /* drop the command: each command sees argv[0] and its own options */
  argv[1] = argv[0];
  argc--;
  argv++;
  return run_command (command, argc, argv);
}

/* The status main () returns; 0 for an exit () from elsewhere (GOption's --help). */
static int exit_status;
/* Warnings and messages logged by the libraries (a saved catalog not used, a cache not
 * written): kept, not printed as they come, so a failure still prints one line on stderr. */
static GPtrArray *log_notes;

#define MAX_LOG_NOTES 8

static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  const char *message = NULL;

  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_DEBUG))
    return g_log_writer_default (level, fields, n_fields, user_data);   /* bugs; G_MESSAGES_DEBUG */
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
      message = fields[i].value;
  if (message == NULL)
    return G_LOG_WRITER_HANDLED;
  if (log_notes == NULL)
    log_notes = g_ptr_array_new_with_free_func (g_free);
  if (log_notes->len < MAX_LOG_NOTES)
    g_ptr_array_add (log_notes, hr_text_sanitize (message, 400));
  return G_LOG_WRITER_HANDLED;
}

/* Output that never reached its reader (a full disk, a closed stdout or pipe) is a failure:
 * the exit status must not say otherwise.  Checked at exit, so it also holds for the paths
 * that call exit () themselves (a command's --help, printed by GOption). */
static void
check_output_at_exit (void)
{
  gboolean lost = fflush (stdout) != 0 || ferror (stdout);

  /* after a success, what the libraries logged, one line each; after a failure, the one line
   * the command printed says what went wrong */
  if (!lost && exit_status == 0 && log_notes != NULL)
    for (guint i = 0; i < log_notes->len; i++)
      fprintf (stderr, "headroom-cli: note: %s\n", (const char *) g_ptr_array_index (log_notes, i));
  g_clear_pointer (&log_notes, g_ptr_array_unref);
  if (lost)
    {
      int saved_errno = errno;

      fprintf (stderr, "headroom-cli: cannot write the output: %s\n",
               saved_errno != 0 ? g_strerror (saved_errno) : "write error");
      fflush (stderr);
      _exit (exit_status == 0 ? 1 : exit_status);
    }
}

int
main (int    argc,
      char **argv)
{
  /* SIGPIPE would kill us silently instead */
  signal (SIGPIPE, SIG_IGN);
  atexit (check_output_at_exit);
  g_log_set_writer_func (log_writer, NULL, NULL);
  exit_status = run (argc, argv);
  return exit_status;
}
