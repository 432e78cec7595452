/* test-engine.c — the engine table and the quant format table: complete, consistent with
 * data/quants.json, and what advice, launch and the CLI are filled from */
#include <string.h>

#include <json-glib/json-glib.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-engine.h"
#include "hr-estimate.h"
#include "hr-launch.h"
#include "hr-quant-format.h"
#include "hr-report.h"

static HrCatalog *catalog;

/* ---- engine table ------------------------------------------------------------------------ */

static void
test_table_complete (void)
{
  const char * const *ids = hr_engine_ids ();
  const char * const *names = hr_engine_names ();

  g_assert_cmpint (HR_N_ENGINES, >=, 5);
  g_assert_cmpuint (g_strv_length ((char **) ids), ==, HR_N_ENGINES);
  g_assert_cmpuint (g_strv_length ((char **) names), ==, HR_N_ENGINES);
  for (int e = 0; e < HR_N_ENGINES; e++)
    {
      const HrEngineInfo *info = hr_engine_info ((HrEngine) e);
      HrEngine back = HR_N_ENGINES;

      g_assert_nonnull (info);
      g_assert_cmpint (info->engine, ==, e);
      g_assert_true (info->id != NULL && *info->id != '\0');
      g_assert_true (info->name != NULL && *info->name != '\0');
      g_assert_cmpstr (ids[e], ==, info->id);
      g_assert_cmpstr (names[e], ==, info->name);
      g_assert_cmpstr (hr_engine_to_string ((HrEngine) e), ==, info->id);
      g_assert_cmpstr (hr_engine_display_name ((HrEngine) e), ==, info->name);
      /* every engine has an F16 cache and loads 16-bit weights */
      g_assert_true (hr_engine_has_kv_type ((HrEngine) e, HR_KV_F16));
      g_assert_true (hr_engine_loads_format ((HrEngine) e, HR_QUANT_FORMAT_FLOAT));
      g_assert_cmpuint (info->kv_types & ~0xfu, ==, 0);
      g_assert_cmpuint (info->loads >> HR_N_QUANT_FORMATS, ==, 0);
      /* the id round-trips, also upper-cased */
      g_assert_true (hr_engine_from_string (info->id, &back));
      g_assert_cmpint (back, ==, e);
      {
        g_autofree char *upper = g_ascii_strup (info->id, -1);
        back = HR_N_ENGINES;
        g_assert_true (hr_engine_from_string (upper, &back));
        g_assert_cmpint (back, ==, e);
      }
    }
  g_assert_null (hr_engine_info (HR_N_ENGINES));
  g_assert_cmpstr (hr_engine_to_string (HR_N_ENGINES), ==, "unknown");
}

static void
test_ids_and_families (void)
{
  g_autofree char *bar = hr_engine_list_ids ("|");
  g_autofree char *comma = hr_engine_list_ids (", ");
  HrEngine e = HR_N_ENGINES;

  g_assert_true (g_str_has_prefix (bar, "llama.cpp|vllm|sglang|ollama|mlx"));
  g_assert_true (g_str_has_prefix (comma, "llama.cpp, vllm, sglang, ollama, mlx"));
  g_assert_true (hr_engine_from_string ("llamacpp", &e));
  g_assert_cmpint (e, ==, HR_ENGINE_LLAMA_CPP);
  g_assert_true (hr_engine_from_string ("llama-cpp", &e));
  g_assert_cmpint (e, ==, HR_ENGINE_LLAMA_CPP);
  g_assert_true (hr_engine_from_string ("SGLang", &e));
  g_assert_cmpint (e, ==, HR_ENGINE_SGLANG);
  g_assert_false (hr_engine_from_string ("tgi", &e));
  g_assert_false (hr_engine_from_string ("", &e));
  g_assert_false (hr_engine_from_string (NULL, &e));

  g_assert_true (hr_engine_is_llama_like (HR_ENGINE_LLAMA_CPP));
  g_assert_true (hr_engine_is_llama_like (HR_ENGINE_OLLAMA));
  g_assert_false (hr_engine_is_llama_like (HR_ENGINE_VLLM));
  g_assert_false (hr_engine_is_llama_like (HR_ENGINE_MLX));
  g_assert_true (hr_engine_is_server_like (HR_ENGINE_VLLM));
  g_assert_true (hr_engine_is_server_like (HR_ENGINE_SGLANG));
  g_assert_false (hr_engine_is_server_like (HR_ENGINE_OLLAMA));
  g_assert_false (hr_engine_is_server_like (HR_ENGINE_MLX));
  g_assert_false (hr_engine_is_server_like (HR_N_ENGINES));

  /* the 8-bit KV cache each engine has: what the diagnosis offers */
  g_assert_cmpint (hr_engine_kv_8bit (HR_ENGINE_LLAMA_CPP), ==, HR_KV_Q8_0);
  g_assert_cmpint (hr_engine_kv_8bit (HR_ENGINE_VLLM), ==, HR_KV_FP8);
  g_assert_cmpint (hr_engine_kv_8bit (HR_ENGINE_MLX), ==, HR_KV_Q8_0);
  g_assert_false (hr_engine_has_kv_type (HR_ENGINE_LLAMA_CPP, HR_KV_FP8));
  g_assert_false (hr_engine_has_kv_type (HR_ENGINE_SGLANG, HR_KV_Q4_0));
}

/* Every engine has a launch builder: on a scenario every engine runs on (CUDA, one GPU, a
 * model with both repositories) each one writes a command; MLX writes its own on Metal. */
static void
test_every_engine_launches (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "qwen3-8b");
  const HrGpu *cuda = hr_catalog_find_gpu (catalog, "h100-80gb-sxm");
  const HrGpu *metal = hr_catalog_find_gpu (catalog, "m3-max-128gb");
  gboolean seen[HR_N_ENGINES] = { FALSE, };
  HrScenario s;
  g_autoptr(GPtrArray) on_cuda = NULL;
  g_autoptr(GPtrArray) on_metal = NULL;

  g_assert_nonnull (m);
  g_assert_nonnull (cuda);
  g_assert_nonnull (metal);
  hr_scenario_init (&s, m, cuda);
  on_cuda = hr_launch_commands (&s, NULL);
  hr_scenario_init (&s, m, metal);
  on_metal = hr_launch_commands (&s, NULL);
  for (guint i = 0; i < on_cuda->len; i++)
    seen[((HrLaunchCommand *) g_ptr_array_index (on_cuda, i))->engine] = TRUE;
  for (guint i = 0; i < on_metal->len; i++)
    seen[((HrLaunchCommand *) g_ptr_array_index (on_metal, i))->engine] = TRUE;
  for (int e = 0; e < HR_N_ENGINES; e++)
    if (!seen[e])
      g_error ("engine %s wrote no launch command", hr_engine_to_string ((HrEngine) e));
}

/* ---- quant formats ------------------------------------------------------------------------ */

static void
test_quant_formats (void)
{
  static const struct { const char *id; HrQuantFormat format; HrWeightLayout layout; gboolean unq; } cases[] = {
    { "BF16", HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
    { "f16", HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
    { "FP16", HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
    { "native", HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_FLOAT16, TRUE },
    { "F32", HR_QUANT_FORMAT_FLOAT, HR_WEIGHT_LAYOUT_GGUF_MIX, TRUE },
    { "Q4_K_M", HR_QUANT_FORMAT_GGUF, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE },
    { "UD-Q2_K_XL", HR_QUANT_FORMAT_GGUF, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE },
    { "Q8_0", HR_QUANT_FORMAT_GGUF, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE },
    { "FP8", HR_QUANT_FORMAT_FP8, HR_WEIGHT_LAYOUT_FP8_BLOCK, FALSE },
    { "FP8-Dynamic", HR_QUANT_FORMAT_FP8, HR_WEIGHT_LAYOUT_FP8_BLOCK, FALSE },
    { "MXFP4", HR_QUANT_FORMAT_MXFP4, HR_WEIGHT_LAYOUT_GGUF_MIX, FALSE },
    { HR_QUANT_MXFP4_CHECKPOINT, HR_QUANT_FORMAT_MXFP4, HR_WEIGHT_LAYOUT_MXFP4_MOE, FALSE },
    { "NVFP4", HR_QUANT_FORMAT_NVFP4, HR_WEIGHT_LAYOUT_NVFP4, FALSE },
    { "GPTQ-Int8", HR_QUANT_FORMAT_INT8, HR_WEIGHT_LAYOUT_INT8_GROUP, FALSE },
    { "W8A8", HR_QUANT_FORMAT_INT8, HR_WEIGHT_LAYOUT_INT8_GROUP, FALSE },
    { "AWQ-INT4", HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
    { "GPTQ-INT4", HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
    { "W4A16", HR_QUANT_FORMAT_INT4, HR_WEIGHT_LAYOUT_INT4_GROUP, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].id);
      g_assert_cmpint (hr_quant_format (cases[i].id), ==, cases[i].format);
      g_assert_cmpint (hr_quant_weight_layout (cases[i].id), ==, cases[i].layout);
      g_assert_cmpint (hr_quant_is_unquantized (cases[i].id), ==, cases[i].unq);
      g_assert_cmpint (hr_quant_is_16bit (cases[i].id), ==,
                       cases[i].unq && strcmp (cases[i].id, "F32") != 0);
    }
  g_assert_cmpstr (hr_quant_format_to_string (HR_QUANT_FORMAT_INT4), ==, "int4");
}

/* The fallback for GGUF files without a mix name (one function for the app and the CLI). */
static void
test_fallback_mix (void)
{
  g_assert_cmpstr (hr_quant_fallback_mix ("Q8_0"), ==, "Q8_0");
  g_assert_cmpstr (hr_quant_fallback_mix ("BF16"), ==, "BF16");
  g_assert_cmpstr (hr_quant_fallback_mix ("IQ4_XS"), ==, "IQ4_XS");
  /* a K-quant type is shared by several mixes: no single mix to name */
  g_assert_cmpstr (hr_quant_fallback_mix ("Q4_K"), ==, "Q4_K_M");
  g_assert_cmpstr (hr_quant_fallback_mix ("Q2_K"), ==, "Q4_K_M");
  g_assert_cmpstr (hr_quant_fallback_mix (NULL), ==, "Q4_K_M");
}

/* GPTQ-Int8 is an 8-bit checkpoint: it used to be sized as 4-bit (its "GPTQ" prefix). */
static void
test_int8_weights (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "qwen3-8b");
  HrWeights int8, int4, bf16;

  g_assert_true (hr_weights_derive (m, "GPTQ-Int8", &int8, NULL));
  g_assert_true (hr_weights_derive (m, "GPTQ-INT4", &int4, NULL));
  g_assert_true (hr_weights_derive (m, "BF16", &bf16, NULL));
  g_assert_cmpfloat (int8.bytes, >, int4.bytes * 1.5);
  g_assert_cmpfloat (int8.bytes, <, bf16.bytes * 0.65);
  g_assert_true (hr_weights_derive (m, "W8A8", &int8, NULL));
}

/* ---- the table and data/quants.json ------------------------------------------------------- */

static JsonObject *
load_quants_json (JsonParser *parser)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "quants.json", NULL);
  GError *error = NULL;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Which engines load a quant is the engine table's answer alone: data/quants.json carries no
 * "engines" column that could say otherwise, and the table gives what the engines' own
 * documentation says of the formats (GGUF: llama.cpp and Ollama; FP8 checkpoints: vLLM and
 * SGLang; 16-bit weights: all five; gpt-oss MXFP4: all but MLX). */
static void
test_quants_engines_from_table (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *mixes = json_object_get_array_member (load_quants_json (parser), "mixes");
  static const struct { const char *quant, *engines; } known[] = {
    { "Q4_K_M", "llama.cpp,ollama" },
    { "UD-Q2_K_XL", "llama.cpp,ollama" },
    { "BF16", "llama.cpp,vllm,sglang,ollama,mlx" },
    { "FP8", "vllm,sglang" },
    { "AWQ-INT4", "vllm,sglang" },
    { "MXFP4", "llama.cpp,vllm,sglang,ollama" },
  };
  static const char *today[] = { "llama.cpp", "vllm", "sglang", "ollama", "mlx" };

  g_assert_cmpuint (json_array_get_length (mixes), >, 30);
  for (guint i = 0; i < json_array_get_length (mixes); i++)
    {
      JsonObject *mix = json_array_get_object_element (mixes, i);
      const char *id = json_object_get_string_member (mix, "id");
      g_autofree char *engines = hr_engine_list_loading (id, ",");

      if (json_object_has_member (mix, "engines"))
        g_error ("quants.json %s has an engines column; the engine table says which load it", id);
      if (engines[0] == '\0')
        g_error ("no engine loads %s", id);
    }
  /* the five engines of today's table, asked one by one: an engine added later leaves this be */
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autofree char *engines = hr_engine_list_loading (known[i].quant, ",");
      g_auto(GStrv) listed = g_strsplit (engines, ",", -1);
      g_auto(GStrv) want = g_strsplit (known[i].engines, ",", -1);

      for (guint k = 0; k < G_N_ELEMENTS (today); k++)
        {
          const char *id = today[k];

          if (g_strv_contains ((const char * const *) listed, id)
              != g_strv_contains ((const char * const *) want, id))
            g_error ("%s: the table lists “%s”, the engines' documentation “%s”", known[i].quant,
                     engines, known[i].engines);
        }
    }
}

/* The ggml type table is src/core/hr-quant.c's (from ggml's type_traits, it sizes every GGUF
 * tensor); data/quants.json's ggml_types, written by build-aux/make-catalogs.py from the same
 * public table, must say the same of every type, and every mix's default type must be one
 * of them with its nominal bits per weight. */
static void
test_ggml_types_agree (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = load_quants_json (parser);
  JsonArray *types = json_object_get_array_member (root, "ggml_types");
  JsonArray *mixes = json_object_get_array_member (root, "mixes");

  g_assert_cmpuint (json_array_get_length (types), >=, 25);
  for (guint i = 0; i < json_array_get_length (types); i++)
    {
      JsonObject *t = json_array_get_object_element (types, i);
      const char *name = json_object_get_string_member (t, "name");
      const HrGgmlType *c = hr_ggml_type_lookup (name);

      if (c == NULL)
        g_error ("quants.json ggml type %s is not in hr-quant.c", name);
      g_assert_cmpstr (c->name, ==, name);
      g_assert_cmpint (c->id, ==, json_object_get_int_member (t, "id"));
      g_assert_cmpint (c->block_size, ==, json_object_get_int_member (t, "block_size"));
      g_assert_cmpint (c->bytes_per_block, ==, json_object_get_int_member (t, "bytes_per_block"));
      g_assert_cmpfloat_with_epsilon (hr_ggml_type_bpw (c), json_object_get_double_member (t, "bpw"), 1e-9);
      g_assert_true (hr_ggml_type_lookup_id (c->id) == c);
    }
  for (guint i = 0; i < json_array_get_length (mixes); i++)
    {
      JsonObject *mix = json_array_get_object_element (mixes, i);
      const char *dtype = json_object_get_string_member_with_default (mix, "default_type", NULL);
      const HrGgmlType *c = hr_ggml_type_lookup (dtype);

      if (dtype == NULL)
        continue;
      g_assert_nonnull (c);
      if (json_object_get_boolean_member_with_default (mix, "gguf", FALSE))
        g_assert_cmpfloat_with_epsilon (hr_ggml_type_bpw (c),
                                        json_object_get_double_member (mix, "nominal_bpw"), 1e-9);
    }
}

/* ---- advice ------------------------------------------------------------------------------- */

/* hr_advice_best_quant() never suggests a quant the scenario's engine cannot load, on models
 * too big for the device at 16 bits. */
static void
test_advice_loadable (void)
{
  static const struct { const char *model; const char *gpu; } cases[] = {
    { "llama-3.1-70b", "m1-max-64gb" },
    { "llama-3.1-70b", "rtx-4090-24gb" },
    { "qwen3-32b", "rtx-4090-24gb" },
    { "gpt-oss-120b", "h100-80gb-sxm" },
    { "qwen3-30b-a3b", "m3-pro-36gb" },
  };
  int suggested = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (int e = 0; e < HR_N_ENGINES; e++)
      {
        const HrModel *m = hr_catalog_find_model (catalog, cases[i].model);
        const HrGpu *g = hr_catalog_find_gpu (catalog, cases[i].gpu);
        const HrQuantMix *q;
        HrScenario s;
        HrFix fix;

        g_assert_nonnull (m);
        g_assert_nonnull (g);
        hr_scenario_init (&s, m, g);
        g_strlcpy (s.quant, "BF16", sizeof s.quant);
        s.engine = (HrEngine) e;
        q = hr_advice_best_quant (&s, catalog);
        if (q != NULL)
          {
            g_test_message ("%s on %s with %s: %s", cases[i].model, cases[i].gpu,
                            hr_engine_to_string ((HrEngine) e), q->id);
            g_assert_true (hr_engine_loads_quant ((HrEngine) e, q->id));
            /* and one it loads as such for this model: an NVFP4 checkpoint of gpt-oss-120b is
             * not known, vLLM would serve the MXFP4 one (hr_engine_load ()) */
            {
              HrEngineLoad load;

              hr_engine_load ((HrEngine) e, m, q->id, &load);
              g_assert_cmpint (load.kind, ==, HR_LOAD_AS_CHOSEN);
            }
            suggested++;
          }
        if (hr_advice_fix (&s, catalog, NULL, &fix) && fix.kind == HR_FIX_QUANT)
          g_assert_true (hr_engine_loads_quant ((HrEngine) e, fix.scenario.quant));
      }
  /* llama.cpp and Ollama on all five, vLLM on gpt-oss's MXFP4 checkpoint (no longer NVFP4 or
   * AWQ checkpoints the catalog does not know, nor vLLM on Apple GPUs) */
  g_assert_cmpint (suggested, >=, 9);
}

/* MLX loads MLX conversions of the 16-bit weights here, not FP8 or AWQ checkpoints: the old
 * rule ("not a GGUF") offered those. */
static void
test_advice_mlx (void)
{
  HrScenario s;
  const HrQuantMix *q;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-70b"),
                    hr_catalog_find_gpu (catalog, "m1-max-64gb"));
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.engine = HR_ENGINE_MLX;
  q = hr_advice_best_quant (&s, catalog);
  g_assert_true (q == NULL || hr_quant_format (q->id) == HR_QUANT_FORMAT_FLOAT);
  /* vLLM loads Llama 3.1 70B as its BF16 checkpoint or the FP8 it makes of it: neither fits
   * 64 GB, and no AWQ or NVFP4 checkpoint of it is known (it suggested NVFP4 before) */
  s.engine = HR_ENGINE_VLLM;
  q = hr_advice_best_quant (&s, catalog);
  g_assert_null (q);
  s.engine = HR_ENGINE_OLLAMA;
  q = hr_advice_best_quant (&s, catalog);
  g_assert_nonnull (q);
  g_assert_true (hr_engine_loads_quant (HR_ENGINE_OLLAMA, q->id));
}

/* ---- what an engine loads (hr-engine-load.c) ------------------------------------------------ */

/* The first (single-node) command of @engine. */
static const HrLaunchCommand *
engine_command (GPtrArray *cmds,
                HrEngine   engine)
{
  for (guint i = 0; cmds != NULL && i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (c->engine == engine)
        return c;
    }
  return NULL;
}

/* Every engine × every catalog quant on several models and GPUs: the verdict, the estimate's
 * text and JSON, and that engine's launch command speak of the same weights.  It fails before
 * the one table: GLM-4.5-Air on 2× DCU K100, vLLM, Q4_K_M said "Fits with margin" (the GGUF)
 * while the vLLM command said BF16 "will not load". */
static void
test_load_verdict_agrees (void)
{
  static const struct { const char *model; const char *gpu; int n; } cases[] = {
    { "glm-4.5-air", "dcu-k100-ai-64gb", 2 },
    { "qwen3-8b", "rtx-4090-24gb", 1 },
    { "qwen3-30b-a3b", "h100-80gb-sxm", 1 },
    { "llama-3.1-70b", "h100-80gb-sxm", 2 },
    { "gpt-oss-120b", "h100-80gb-sxm", 1 },
    { "deepseek-v3", "h200-141gb", 8 },
    { "gemma-3-27b", "rtx-4090-24gb", 2 },
    { "deepseek-v4-flash", "h200-141gb", 4 },
  };
  int checked = 0, substituted = 0, disagreed_before = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (int e = 0; e < HR_N_ENGINES; e++)
      for (guint qi = 0; qi < hr_catalog_n_quants (catalog); qi++)
        {
          const HrQuantMix *q = hr_catalog_get_quant (catalog, qi);
          const HrModel *m = hr_catalog_find_model (catalog, cases[i].model);
          const HrGpu *g = hr_catalog_find_gpu (catalog, cases[i].gpu);
          g_autoptr(GPtrArray) cmds = NULL;
          g_autofree char *text = NULL, *json = NULL, *loads = NULL, *want = NULL;
          const HrLaunchCommand *c;
          HrScenario s;
          HrEstimate est, asked;
          gboolean exceeds, will_not_load;

          g_assert_nonnull (m);
          g_assert_nonnull (g);
          hr_scenario_init (&s, m, g);
          s.n_gpus = cases[i].n;
          s.engine = (HrEngine) e;
          g_strlcpy (s.quant, q->id, sizeof s.quant);
          if (!hr_estimate_compute (&s, NULL, &est, NULL))
            continue;
          cmds = hr_launch_commands (&s, &est);
          c = engine_command (cmds, (HrEngine) e);
          if (c == NULL)
            continue;   /* the engine does not run here (vLLM on Apple …) */
          checked++;

          /* the command and the estimate name the same weights */
          g_assert_cmpstr (c->loaded_quant, ==, est.load.quant);
          exceeds = est.verdict == HR_VERDICT_EXCEEDS;
          will_not_load = c->note != NULL && strstr (c->note, "will not load") != NULL;
          if (exceeds != will_not_load)
            g_error ("%s on %d× %s, %s, %s: verdict %s, launch note “%s”", cases[i].model,
                     cases[i].n, cases[i].gpu, hr_engine_to_string ((HrEngine) e), q->id,
                     hr_verdict_to_string (est.verdict), c->note ? c->note : "");

          /* the text and JSON say what is loaded, and the command's note says it alike */
          loads = hr_engine_load_text (&est.load);
          text = hr_report_estimate_text (&s, &est);
          json = hr_report_estimate_json (&s, &est);
          want = g_strdup_printf ("\"loaded_quant\": \"%s\"", est.load.quant);
          g_assert_nonnull (strstr (json, want));
          if (loads != NULL)
            {
              substituted++;
              g_assert_nonnull (strstr (text, loads));
              g_assert_nonnull (c->note);
              g_assert_nonnull (strstr (c->note, loads));
            }
          else
            g_assert_cmpint (est.load.kind, ==, HR_LOAD_AS_CHOSEN);

          /* what the old code showed: the verdict of the quant asked for */
          if (est.load.kind == HR_LOAD_SUBSTITUTE)
            {
              HrEngineLoad as_asked;

              hr_engine_load ((HrEngine) e, m, q->id, &as_asked);
              g_assert_cmpstr (as_asked.quant, ==, est.load.quant);
              s.engine = HR_ENGINE_MLX;   /* sizes the quant as asked */
              if (hr_estimate_compute (&s, NULL, &asked, NULL) &&
                  (asked.verdict == HR_VERDICT_EXCEEDS) != exceeds)
                disagreed_before++;
            }
        }
  g_test_message ("%d engine × quant × setup checked, %d substituted, %d whose verdict the "
                  "substitution changed", checked, substituted, disagreed_before);
  g_assert_cmpint (checked, >, 400);
  g_assert_cmpint (substituted, >, 50);
  g_assert_cmpint (disagreed_before, >, 0);
}

/* The table itself, row by row (hr-engine-load.c's header comment). */
static void
test_load_table (void)
{
  static const struct
  {
    HrEngine engine;
    const char *model, *quant;
    HrLoadKind kind;
    const char *loads;
    const char *repo;
    gboolean gguf, online_fp8;
  } rows[] = {
    /* llama.cpp: GGUF files; a checkpoint format is the GGUF of its width */
    { HR_ENGINE_LLAMA_CPP, "qwen3-8b", "Q4_K_M", HR_LOAD_AS_CHOSEN, "Q4_K_M", "unsloth/Qwen3-8B-GGUF" },
    { HR_ENGINE_LLAMA_CPP, "qwen3-8b", "FP8", HR_LOAD_SUBSTITUTE, "Q8_0", "unsloth/Qwen3-8B-GGUF" },
    { HR_ENGINE_OLLAMA, "qwen3-8b", "AWQ-INT4", HR_LOAD_SUBSTITUTE, "Q4_K_M", "unsloth/Qwen3-8B-GGUF" },
    /* vLLM: its GGUF loader maps qwen3 and qwen3_moe, not glm4_moe or gpt_oss */
    { HR_ENGINE_VLLM, "qwen3-8b", "Q4_K_M", HR_LOAD_AS_CHOSEN, "Q4_K_M", "unsloth/Qwen3-8B-GGUF", TRUE },
    { HR_ENGINE_VLLM, "qwen3-30b-a3b", "IQ4_XS", HR_LOAD_AS_CHOSEN, "IQ4_XS", "unsloth/Qwen3-30B-A3B-GGUF", TRUE },
    { HR_ENGINE_VLLM, "glm-4.5-air", "Q4_K_M", HR_LOAD_SUBSTITUTE, "BF16", "zai-org/GLM-4.5-Air" },
    { HR_ENGINE_VLLM, "deepseek-v3.2", "Q4_K_M", HR_LOAD_SUBSTITUTE, "FP8", "deepseek-ai/DeepSeek-V3.2" },
    /* SGLang has no GGUF loader here */
    { HR_ENGINE_SGLANG, "qwen3-8b", "Q4_K_M", HR_LOAD_SUBSTITUTE, "BF16", "Qwen/Qwen3-8B" },
    /* checkpoints: the official one of that format, FP8 also made from 16 bits */
    { HR_ENGINE_VLLM, "qwen3-8b", "BF16", HR_LOAD_AS_CHOSEN, "BF16", "Qwen/Qwen3-8B" },
    { HR_ENGINE_VLLM, "qwen3-8b", "FP8", HR_LOAD_AS_CHOSEN, "FP8", "Qwen/Qwen3-8B", FALSE, TRUE },
    { HR_ENGINE_VLLM, "deepseek-v3", "FP8", HR_LOAD_AS_CHOSEN, "FP8", "deepseek-ai/DeepSeek-V3" },
    { HR_ENGINE_VLLM, "deepseek-v3", "BF16", HR_LOAD_SUBSTITUTE, "FP8", "deepseek-ai/DeepSeek-V3" },
    { HR_ENGINE_VLLM, "gpt-oss-120b", "MXFP4", HR_LOAD_AS_CHOSEN, "MXFP4", "openai/gpt-oss-120b" },
    { HR_ENGINE_SGLANG, "gpt-oss-120b", "NVFP4", HR_LOAD_SUBSTITUTE, "MXFP4", "openai/gpt-oss-120b" },
    { HR_ENGINE_VLLM, "llama-3.1-70b", "AWQ-INT4", HR_LOAD_SUBSTITUTE, "BF16", "meta-llama/Llama-3.1-70B-Instruct" },
    /* an official checkpoint Headroom cannot size (DeepSeek V4's FP4): the chosen quant, said so */
    { HR_ENGINE_VLLM, "deepseek-v4-flash", "Q4_K_M", HR_LOAD_UNSIZED, "Q4_K_M", "deepseek-ai/DeepSeek-V4-Flash" },
    { HR_ENGINE_MLX, "qwen3-8b", "Q4_K_M", HR_LOAD_AS_CHOSEN, "Q4_K_M", "Qwen/Qwen3-8B" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const HrModel *m = hr_catalog_find_model (catalog, rows[i].model);
      HrEngineLoad load;
      g_autofree char *text = NULL;

      g_assert_nonnull (m);
      hr_engine_load (rows[i].engine, m, rows[i].quant, &load);
      g_test_message ("%s %s %s → %s", hr_engine_to_string (rows[i].engine), rows[i].model,
                      rows[i].quant, load.quant);
      g_assert_cmpint (load.kind, ==, rows[i].kind);
      g_assert_cmpstr (load.quant, ==, rows[i].loads);
      g_assert_cmpstr (load.repo, ==, rows[i].repo);
      g_assert_cmpint (load.gguf, ==, rows[i].gguf);
      g_assert_cmpint (load.online_fp8, ==, rows[i].online_fp8);
      text = hr_engine_load_text (&load);
      g_assert_true ((text == NULL) == (rows[i].kind == HR_LOAD_AS_CHOSEN));
    }

  /* weights named outside the catalog (a run's log, a repo the user gives) load as chosen:
   * an NVFP4 repository of Qwen3.6 35B-A3B on an RTX 5090 is sized as NVFP4, not BF16 */
  {
    HrScenario s;
    HrEstimate named, catalog_only;

    hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3.6-35b-a3b"),
                      hr_catalog_find_gpu (catalog, "rtx-5090-32gb"));
    s.engine = HR_ENGINE_VLLM;
    g_strlcpy (s.quant, "NVFP4", sizeof s.quant);
    g_assert_true (hr_estimate_compute (&s, NULL, &catalog_only, NULL));
    g_assert_cmpstr (catalog_only.load.quant, ==, "BF16");
    s.weights_named = TRUE;
    g_assert_true (hr_estimate_compute (&s, NULL, &named, NULL));
    g_assert_cmpint (named.load.kind, ==, HR_LOAD_AS_CHOSEN);
    g_assert_cmpstr (named.load.quant, ==, "NVFP4");
    g_assert_cmpfloat (named.weights.bytes, <, 0.4 * catalog_only.weights.bytes);
  }
}

int
main (int    argc,
      char **argv)
{
  GError *error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/engine/table-complete", test_table_complete);
  g_test_add_func ("/engine/ids-and-families", test_ids_and_families);
  g_test_add_func ("/engine/every-engine-launches", test_every_engine_launches);
  g_test_add_func ("/quant-format/classify", test_quant_formats);
  g_test_add_func ("/quant-format/fallback-mix", test_fallback_mix);
  g_test_add_func ("/quant-format/int8-weights", test_int8_weights);
  g_test_add_func ("/engine/quants-engines-from-table", test_quants_engines_from_table);
  g_test_add_func ("/quant-format/ggml-types-agree", test_ggml_types_agree);
  g_test_add_func ("/engine/advice-loadable", test_advice_loadable);
  g_test_add_func ("/engine/advice-mlx", test_advice_mlx);
  g_test_add_func ("/engine/load-table", test_load_table);
  g_test_add_func ("/engine/load-verdict-agrees", test_load_verdict_agrees);
  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
