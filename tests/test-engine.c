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
            suggested++;
          }
        if (hr_advice_fix (&s, catalog, NULL, &fix) && fix.kind == HR_FIX_QUANT)
          g_assert_true (hr_engine_loads_quant ((HrEngine) e, fix.scenario.quant));
      }
  g_assert_cmpint (suggested, >, 10);
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
  s.engine = HR_ENGINE_VLLM;
  q = hr_advice_best_quant (&s, catalog);
  g_assert_nonnull (q);
  g_assert_cmpint (hr_quant_format (q->id), !=, HR_QUANT_FORMAT_GGUF);
  s.engine = HR_ENGINE_OLLAMA;
  q = hr_advice_best_quant (&s, catalog);
  g_assert_nonnull (q);
  g_assert_true (hr_engine_loads_quant (HR_ENGINE_OLLAMA, q->id));
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
  ret = g_test_run ();
  hr_catalog_free (catalog);
  return ret;
}
