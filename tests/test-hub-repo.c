/* test-hub-repo.c — safetensors headers and indexes, Hub listings, search results and
 * checkpoint quantization, read without the network */
#include <string.h>

#include "hr-hub-repo.h"
#include "hr-json-scan.h"
#include "hr-json.h"
#include "hr-safetensors.h"
#include "safetensors-writer.h"

static char *
fixture (const char *name,
         gsize      *len)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "hub", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, len, NULL));
  return text;
}

static void
test_safetensors_sums (void)
{
  const StTensor t[] = {
    { "model.embed_tokens.weight", "BF16", 16, { 1000, 64, -1 } },
    { "model.layers.0.self_attn.q_proj.weight", "F8_E4M3", 8, { 64, 64, -1 } },
    { "model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", 32, { 1, 1, -1 } },
    { "model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", 8, { 4, 8, 90, 16 } },
    { "model.norm.weight", "BF16", 16, { 64, -1 } },
    { "lm_head.weight", "F4", 4, { 1000, 64, -1 } },
  };
  StWritten w = st_write (t, G_N_ELEMENTS (t), "{\"format\":\"pt\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensors) st = NULL;
  guint64 bf16 = (1000 * 64 + 64) * 2;
  guint64 sum = 0;

  st = hr_safetensors_parse (w.file->data, w.file->len, w.file_size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (st->n_tensors, ==, G_N_ELEMENTS (t));
  g_assert_cmpuint (st->data_bytes, ==, w.data_bytes);
  g_assert_cmpuint (st->elements, ==, w.elements);
  g_assert_cmpuint (st->header_len, ==, w.file->len - 8);
  g_assert_cmpstr (st->format, ==, "pt");
  /* BF16 first: the most bytes */
  g_assert_cmpstr (g_array_index (st->dtypes, HrSafetensorsDtype, 0).dtype, ==, "BF16");
  g_assert_cmpuint (g_array_index (st->dtypes, HrSafetensorsDtype, 0).bytes, ==, bf16);
  for (guint i = 0; i < st->dtypes->len; i++)
    sum += g_array_index (st->dtypes, HrSafetensorsDtype, i).bytes;
  g_assert_cmpuint (sum, ==, w.data_bytes);
  g_byte_array_unref (w.file);
}

static void
test_safetensors_shards_add (void)
{
  const StTensor a[] = { { "x", "BF16", 16, { 10, 10, -1 } } };
  const StTensor b[] = { { "y", "BF16", 16, { 5, -1 } }, { "z", "I32", 32, { 3, -1 } } };
  StWritten wa = st_write (a, 1, NULL), wb = st_write (b, 2, NULL);
  g_autoptr(HrSafetensors) sum = hr_safetensors_new_empty ();
  g_autoptr(HrSafetensors) pa = hr_safetensors_parse (wa.file->data, wa.file->len, 0, NULL);
  g_autoptr(HrSafetensors) pb = hr_safetensors_parse (wb.file->data, wb.file->len, 0, NULL);

  g_assert_nonnull (pa);
  g_assert_nonnull (pb);
  hr_safetensors_add (sum, pa);
  hr_safetensors_add (sum, pb);
  g_assert_cmpuint (sum->data_bytes, ==, wa.data_bytes + wb.data_bytes);
  g_assert_cmpuint (sum->elements, ==, 100 + 5 + 3);
  g_assert_cmpuint (sum->n_tensors, ==, 3);
  g_assert_cmpuint (sum->dtypes->len, ==, 2);
  g_assert_cmpuint (g_array_index (sum->dtypes, HrSafetensorsDtype, 0).bytes, ==, 210);
  g_byte_array_unref (wa.file);
  g_byte_array_unref (wb.file);
}

typedef struct
{
  const char *what;
  guint64 declared;  /* 0: the JSON's length */
  const char *json;
  int code;
} Hostile;

static void
test_safetensors_hostile (void)
{
  const Hostile cases[] = {
    { "10 GiB of JSON", G_GUINT64_CONSTANT (10) << 30, "{}", HR_SAFETENSORS_ERROR_LIMIT },
    { "length past the end", 4096, "{\"a\":{\"dtype\":\"F32\"", HR_SAFETENSORS_ERROR_TRUNCATED },
    { "not JSON", 0, "GGUF\x03\x00\x00\x00", HR_SAFETENSORS_ERROR_INVALID },
    { "array", 0, "[1,2]", HR_SAFETENSORS_ERROR_INVALID },
    { "trailing text", 0, "{} x", HR_SAFETENSORS_ERROR_INVALID },
    { "unknown dtype", 0, "{\"a\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,1]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "bytes disagree", 0, "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "overlap", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
                    "\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[2,6]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "gap", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
                "\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[8,12]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "duplicate name", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
                           "\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "shape overflow", 0, "{\"a\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296,16],"
                           "\"data_offsets\":[0,8]}}", HR_SAFETENSORS_ERROR_INVALID },
    { "negative", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[-4],\"data_offsets\":[0,4]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "float offset", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4.0]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "half a byte", 0, "{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,1]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "no offsets", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[4]}}", HR_SAFETENSORS_ERROR_INVALID },
    { "control char", 0, "{\"a\x01\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "lone surrogate", 0, "{\"\\ud800\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
      HR_SAFETENSORS_ERROR_INVALID },
    { "metadata not strings", 0, "{\"__metadata__\":{\"a\":1}}", HR_SAFETENSORS_ERROR_INVALID },
    { "deep", 0, "{\"a\":{\"x\":[[[[[[[[[[[[1]]]]]]]]]]]],\"dtype\":\"U8\",\"shape\":[1],"
                 "\"data_offsets\":[0,1]}}", HR_SAFETENSORS_ERROR_INVALID },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) b = st_raw (cases[i].declared ? cases[i].declared
                                                           : strlen (cases[i].json),
                                        cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(HrSafetensors) st = hr_safetensors_parse (b->data, b->len, 0, &error);

      g_test_message ("%s: %s", cases[i].what, error ? error->message : "(parsed)");
      g_assert_null (st);
      g_assert_error (error, HR_SAFETENSORS_ERROR, cases[i].code);
    }

  /* fewer than 8 bytes; a file size the header does not account for */
  {
    g_autoptr(GError) error = NULL;
    const StTensor t[] = { { "a", "U8", 8, { 16, -1 } } };
    StWritten w = st_write (t, 1, NULL);

    g_assert_null (hr_safetensors_parse ((const guint8 *) "\x10\0\0", 3, 0, &error));
    g_assert_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_TRUNCATED);
    g_clear_error (&error);
    g_assert_null (hr_safetensors_parse (w.file->data, w.file->len, w.file_size + 1, &error));
    g_assert_error (error, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID);
    g_byte_array_unref (w.file);
  }
}

/* Member names chosen to collide under g_str_hash cost nothing here: the parser hashes none. */
static void
test_safetensors_many_tensors (void)
{
  GString *json = g_string_new ("{");
  g_autoptr(GByteArray) b = NULL;
  g_autoptr(HrSafetensors) st = NULL;
  g_autoptr(GError) error = NULL;
  guint n = 50000;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, "%s\"t%u\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[%u,%u]}",
                            i ? "," : "", i, 2 * i, 2 * i + 2);
  g_string_append_c (json, '}');
  b = st_raw (json->len, json->str);
  st = hr_safetensors_parse (b->data, b->len, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (st->n_tensors, ==, n);
  g_assert_cmpuint (st->data_bytes, ==, 2 * n);
  g_string_free (json, TRUE);
}

static void
test_index (void)
{
  const char *json =
    "{\"metadata\":{\"total_size\":16060522496,\"total_parameters\":8030261248},"
    "\"weight_map\":{\"lm_head.weight\":\"model-00004-of-00004.safetensors\","
    "\"model.embed_tokens.weight\":\"model-00001-of-00004.safetensors\","
    "\"model.layers.0.mlp.down_proj.weight\":\"model-00001-of-00004.safetensors\","
    "\"model.layers.20.mlp.down_proj.weight\":\"model-00003-of-00004.safetensors\","
    "\"model.layers.9.mlp.down_proj.weight\":\"model-00002-of-00004.safetensors\","
    "\"model.norm.weight\":\"model-00004-of-00004.safetensors\"}}";
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) files = NULL;
  guint64 total = 0;

  files = hr_safetensors_index_parse (json, strlen (json), &total, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (total, ==, G_GUINT64_CONSTANT (16060522496));
  g_assert_cmpuint (g_strv_length (files), ==, 4);
  g_assert_cmpstr (files[0], ==, "model-00001-of-00004.safetensors");
  g_assert_cmpstr (files[3], ==, "model-00004-of-00004.safetensors");

  /* a shard outside the repo's top level, no map */
  {
    const char *bad[] = {
      "{\"weight_map\":{\"a\":\"../../etc/passwd.safetensors\"}}",
      "{\"weight_map\":{\"a\":\"sub/x.safetensors\"}}",
      "{\"weight_map\":{\"a\":\"x.bin\"}}",
      "{\"metadata\":{}}",
      "{\"weight_map\":{}}",
      "[]",
      "{\"weight_map\":{\"a\":\"x.safetensors\"}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) e = NULL;
        g_auto(GStrv) f = hr_safetensors_index_parse (bad[i], strlen (bad[i]), &total, &e);

        g_assert_null (f);
        g_assert_error (e, HR_SAFETENSORS_ERROR, HR_SAFETENSORS_ERROR_INVALID);
      }
  }
}

static void
test_roles_and_quants (void)
{
  const struct { const char *path; HrHubRole role; const char *quant; } cases[] = {
    { "Qwen3-8B-Q4_K_M.gguf", HR_HUB_ROLE_GGUF, "Q4_K_M" },
    { "Q4_K_M/Model-Q4_K_M-00001-of-00003.gguf", HR_HUB_ROLE_GGUF, "Q4_K_M" },
    { "GLM-4.6-UD-Q2_K_XL-00002-of-00003.gguf", HR_HUB_ROLE_GGUF, "UD-Q2_K_XL" },
    { "model.iq4_xs.gguf", HR_HUB_ROLE_GGUF, "IQ4_XS" },
    { "gpt-oss-20b-MXFP4.gguf", HR_HUB_ROLE_GGUF, "MXFP4" },
    { "Llama-3-8B-f16.gguf", HR_HUB_ROLE_GGUF, "F16" },
    { "Q6_K.gguf", HR_HUB_ROLE_GGUF, "Q6_K" },
    { "ggml-model.gguf", HR_HUB_ROLE_GGUF, NULL },
    { "mmproj-Model-F16.gguf", HR_HUB_ROLE_PROJECTOR, NULL },
    { "mmproj/mmproj-BF16.gguf", HR_HUB_ROLE_PROJECTOR, NULL },
    { "model-00001-of-00002.safetensors", HR_HUB_ROLE_SAFETENSORS, NULL },
    { "model.safetensors", HR_HUB_ROLE_SAFETENSORS, NULL },
    { "consolidated.safetensors", HR_HUB_ROLE_OTHER_WEIGHTS, NULL },
    { "original/model.safetensors", HR_HUB_ROLE_OTHER_WEIGHTS, NULL },
    { "pytorch_model.bin", HR_HUB_ROLE_OTHER_WEIGHTS, NULL },
    { "model.safetensors.index.json", HR_HUB_ROLE_INDEX, NULL },
    { "config.json", HR_HUB_ROLE_CONFIG, NULL },
    { "vision/config.json", HR_HUB_ROLE_OTHER, NULL },
    { "tokenizer.json", HR_HUB_ROLE_TOKENIZER, NULL },
    { "tokenizer.model", HR_HUB_ROLE_TOKENIZER, NULL },
    { "README.md", HR_HUB_ROLE_OTHER, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *quant = hr_hub_quant_from_name (cases[i].path);

      g_test_message ("%s", cases[i].path);
      g_assert_cmpint (hr_hub_role_for_path (cases[i].path), ==, cases[i].role);
      if (cases[i].role == HR_HUB_ROLE_GGUF)
        g_assert_cmpstr (quant, ==, cases[i].quant);
    }
}

static void
test_tree (void)
{
  gsize len;
  g_autofree char *json = fixture ("tree-gguf.json", &len);
  g_autoptr(HrHubTree) tree = hr_hub_tree_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  const HrHubGgufModel *m;
  const HrHubFile *f;

  g_assert_true (hr_hub_tree_add_page (tree, json, len, &error));
  g_assert_no_error (error);
  /* a second page appends (the directory entry is skipped) */
  {
    const char *page2 = "[{\"type\":\"file\",\"path\":\"extra.txt\",\"size\":5}]";

    g_assert_true (hr_hub_tree_add_page (tree, page2, strlen (page2), &error));
  }
  g_assert_cmpuint (tree->files->len, ==, 11);
  f = hr_hub_tree_find (tree, "BF16/Demo-7B-BF16-00002-of-00002.gguf");
  g_assert_nonnull (f);
  g_assert_cmpuint (f->size, ==, G_GUINT64_CONSTANT (6000000000));  /* lfs.size, not the pointer */
  g_assert_cmpuint (f->split_no, ==, 2);
  g_assert_cmpuint (f->split_of, ==, 2);
  g_assert_cmpint (hr_hub_tree_find (tree, "mmproj-Demo-7B-F16.gguf")->role, ==, HR_HUB_ROLE_PROJECTOR);

  models = hr_hub_tree_gguf_models (tree);
  g_assert_cmpuint (models->len, ==, 4);  /* BF16 (2 parts), Q8_0, Q4_K_M, UD-Q2_K_XL; no mmproj */
  m = g_ptr_array_index (models, 0);
  g_assert_cmpstr (m->quant, ==, "BF16");
  g_assert_cmpuint (m->bytes, ==, G_GUINT64_CONSTANT (15000000000));
  g_assert_cmpuint (m->n_parts, ==, 2);
  g_assert_true (m->complete);
  g_assert_cmpstr (m->path, ==, "BF16/Demo-7B-BF16-00001-of-00002.gguf");
  m = g_ptr_array_index (models, 2);
  g_assert_cmpstr (m->quant, ==, "Q4_K_M");
  g_assert_cmpuint (m->bytes, ==, G_GUINT64_CONSTANT (4368439104));
  g_assert_null (hr_hub_tree_safetensors (tree));
}

static void
test_tree_hostile (void)
{
  const char *bad[] = {
    "{}",
    "[1]",
    "[{\"type\":\"file\",\"path\":\"../x\",\"size\":1}]",
    "[{\"type\":\"file\",\"path\":\"/etc/passwd\",\"size\":1}]",
    "[{\"type\":\"file\",\"path\":\"a\",\"size\":-1}]",
    "[{\"type\":\"file\",\"path\":\"a\",\"size\":\"1\"}]",
    "[{\"type\":\"file\",\"path\":\"a\\u0000b\",\"size\":1}]",
    "[{\"type\":\"file\",\"size\":1}]",
    "[{\"type\":\"file\",\"path\":\"a\",\"size\":1},]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(HrHubTree) tree = hr_hub_tree_new ();
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", bad[i]);
      g_assert_false (hr_hub_tree_add_page (tree, bad[i], strlen (bad[i]), &error));
      g_assert_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID);
    }

  /* an object with more members than any Hub entry has is refused before json-glib sees it */
  {
    GString *s = g_string_new ("[{\"type\":\"file\",\"path\":\"a\",\"size\":1");
    g_autoptr(HrHubTree) tree = hr_hub_tree_new ();
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < 1000; i++)
      g_string_append_printf (s, ",\"k%u\":0", i);
    g_string_append (s, "}]");
    g_assert_false (hr_hub_tree_add_page (tree, s->str, s->len, &error));
    g_assert_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "members"));
    g_string_free (s, TRUE);
  }
}

static void
test_search (void)
{
  gsize len;
  g_autofree char *json = fixture ("search.json", &len);
  g_autoptr(GPtrArray) hits = hr_hub_hits_new ();
  g_autoptr(GError) error = NULL;
  const HrHubModelHit *h;

  g_assert_true (hr_hub_search_add_page (hits, json, len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 3);
  h = g_ptr_array_index (hits, 0);
  g_assert_cmpstr (h->id, ==, "demo-org/Demo-7B-GGUF");
  g_assert_cmpint (h->downloads, ==, 183502);
  g_assert_cmpint (h->likes, ==, 412);
  g_assert_cmpstr (h->last_modified, ==, "2026-11-20T08:15:02.000Z");
  g_assert_true (h->gguf);
  g_assert_false (h->safetensors);
  g_assert_false (h->gated);
  h = g_ptr_array_index (hits, 1);
  g_assert_true (h->safetensors);
  g_assert_true (h->gated);
  g_assert_cmpstr (h->library, ==, "transformers");
  h = g_ptr_array_index (hits, 2);
  g_assert_null (h->last_modified);
  g_assert_false (h->gguf || h->safetensors);

  g_assert_false (hr_hub_search_add_page (hits, "[{\"id\":7}]", 10, &error));
  g_assert_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID);
}

static void
test_checkpoint_quant (void)
{
  const struct { const char *json; const char *quant; const char *method; } cases[] = {
    { "{\"torch_dtype\":\"bfloat16\"}", "BF16", NULL },
    { "{\"dtype\":\"float16\"}", "F16", NULL },
    { "{\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":\"fp8\","
      "\"fmt\":\"e4m3\",\"weight_block_size\":[128,128]}}", "FP8", "fp8" },
    { "{\"quantization_config\":{\"quant_method\":\"awq\",\"bits\":4,\"group_size\":128}}",
      "AWQ-INT4", "awq" },
    { "{\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":8}}", "GPTQ-INT8", "gptq" },
    { "{\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":4}}", "GPTQ-INT4", "gptq" },
    { "{\"quantization_config\":{\"quant_method\":\"mxfp4\"}}", "MXFP4-checkpoint", "mxfp4" },
    { "{\"quantization_config\":{\"quant_method\":\"bitsandbytes\",\"load_in_4bit\":true}}",
      "INT4", "bitsandbytes" },
    { "{\"quantization_config\":{\"quant_method\":\"bitsandbytes\",\"load_in_8bit\":true}}",
      "INT8", "bitsandbytes" },
    { "{\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":"
      "\"float-quantized\",\"config_groups\":{\"group_0\":{\"weights\":{\"num_bits\":8,"
      "\"type\":\"float\"}}}}}", "FP8", "compressed-tensors" },
    { "{\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":"
      "\"nvfp4-pack-quantized\",\"config_groups\":{\"group_0\":{\"weights\":{\"num_bits\":4,"
      "\"type\":\"float\"}}}}}", "NVFP4", "compressed-tensors" },
    { "{\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":"
      "\"pack-quantized\",\"config_groups\":{\"g\":{\"weights\":{\"num_bits\":4,"
      "\"type\":\"int\"}}}}}", "INT4", "compressed-tensors" },
    { "{\"quantization_config\":{\"quant_method\":\"modelopt\",\"quant_algo\":\"NVFP4\"}}",
      "NVFP4", "modelopt" },
    { "{\"text_config\":{\"quantization_config\":{\"quant_method\":\"fp8\"}}}", "FP8", "fp8" },
    { "{\"quantization_config\":{\"quant_method\":\"hqq\"}}", NULL, "hqq" },
    { "{}", NULL, NULL },
    { "not json", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *method = NULL;
      g_autofree char *quant = hr_hub_checkpoint_quant (cases[i].json, strlen (cases[i].json),
                                                        &method);

      g_test_message ("%s", cases[i].json);
      g_assert_cmpstr (quant, ==, cases[i].quant);
      g_assert_cmpstr (method, ==, cases[i].method);
    }
}

static void
test_ref (void)
{
  const struct { const char *ref; const char *repo, *rev, *sel; } ok[] = {
    { "org/name", "org/name", "main", NULL },
    { "org/name:Q4_K_M", "org/name", "main", "Q4_K_M" },
    { "org/name@v1.0:Q4_K_M", "org/name", "v1.0", "Q4_K_M" },
    { "org/name@refs/pr/1", "org/name", "refs/pr/1", NULL },
    { "org/name:sub/file.gguf", "org/name", "main", "sub/file.gguf" },
  };
  const char *bad[] = { "org/name:", "org/name@", "org/name@a b", "org/name@../x" };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autofree char *repo = NULL, *rev = NULL, *sel = NULL;

      g_assert_true (hr_hub_ref_parse (ok[i].ref, &repo, &rev, &sel, NULL));
      g_assert_cmpstr (repo, ==, ok[i].repo);
      g_assert_cmpstr (rev, ==, ok[i].rev);
      g_assert_cmpstr (sel, ==, ok[i].sel);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *repo = NULL, *rev = NULL, *sel = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_false (hr_hub_ref_parse (bad[i], &repo, &rev, &sel, &error));
      g_assert_error (error, HR_HUB_PARSE_ERROR, HR_HUB_PARSE_ERROR_INVALID);
    }
}

static void
test_scan_check (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_json_scan_check ("{\"a\":[1,-2.5e3,true,null,\"\\u00e9\"]}", strlen ("{\"a\":[1,-2.5e3,true,null,\"\\u00e9\"]}"), 4, 4, NULL));
  g_assert_false (hr_json_scan_check ("{\"a\":1,\"b\":2,\"c\":3}", strlen ("{\"a\":1,\"b\":2,\"c\":3}"), 4, 2, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);
  g_assert_false (hr_json_scan_check ("[[[[1]]]]", strlen ("[[[[1]]]]"), 3, 4, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_LIMIT);
  g_clear_error (&error);
  g_assert_false (hr_json_scan_check ("[01]", strlen ("[01]"), 3, 4, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX);
  g_clear_error (&error);
  g_assert_false (hr_json_scan_check ("{\"a\":1} /* c */", strlen ("{\"a\":1} /* c */"), 3, 4, &error));
  g_assert_error (error, HR_JSON_ERROR, HR_JSON_ERROR_SYNTAX);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hub-repo/safetensors/sums", test_safetensors_sums);
  g_test_add_func ("/hub-repo/safetensors/shards-add", test_safetensors_shards_add);
  g_test_add_func ("/hub-repo/safetensors/hostile", test_safetensors_hostile);
  g_test_add_func ("/hub-repo/safetensors/many-tensors", test_safetensors_many_tensors);
  g_test_add_func ("/hub-repo/safetensors/index", test_index);
  g_test_add_func ("/hub-repo/roles-and-quants", test_roles_and_quants);
  g_test_add_func ("/hub-repo/tree", test_tree);
  g_test_add_func ("/hub-repo/tree-hostile", test_tree_hostile);
  g_test_add_func ("/hub-repo/search", test_search);
  g_test_add_func ("/hub-repo/checkpoint-quant", test_checkpoint_quant);
  g_test_add_func ("/hub-repo/ref", test_ref);
  g_test_add_func ("/hub-repo/scan-check", test_scan_check);
  return g_test_run ();
}
