/* test-projector.c — a vision projector's image-encode buffer (#31): the model against public
 * llama.cpp logs (tests/fixtures/mmproj/encode-logs.csv, a third held out), read from an mmproj
 * GGUF's header, and counted on the device that holds the projector */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-catalog.h"
#include "hr-estimate.h"
#include "hr-gguf.h"
#include "hr-placement.h"
#include "hr-projector.h"
#include "hr-units.h"

static HrCatalog *catalog;

/* One CSV line's fields, quotes honoured (the notes hold commas and doubled quotes). */
static GPtrArray *
split_csv_line (const char *line)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *cur = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        {
          g_string_append_c (cur, '"');
          p++;
        }
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (fields, g_string_free (cur, FALSE));
          cur = g_string_new (NULL);
        }
      else
        g_string_append_c (cur, *p);
    }
  g_ptr_array_add (fields, g_string_free (cur, FALSE));
  return fields;
}

enum { C_SOURCE, C_MODEL, C_BUILD, C_BACKEND, C_FA, C_PATCHES, C_HIDDEN, C_FF, C_HEADS, C_GATED,
       C_WINDOWED, C_MIB, C_SPLIT, C_NOTES, N_COLS };

/* Every logged compute buffer against the model: the rows it was fitted on within 6 %, the
 * held-out rows reported and bounded (the pixtral encoder's is the worst: −33 %). */
static void
test_logs (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "mmproj", "encode-logs.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  double worst_train = 0, worst_held = 0;
  int n_train = 0, n_held = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "source,model,"));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) f = NULL;
      HrVisionEncoder enc = { 0 };
      double predicted, logged, err;
      gboolean held;

      if (lines[i][0] == '\0')
        continue;
      f = split_csv_line (lines[i]);
      g_assert_cmpuint (f->len, ==, N_COLS);
      enc.patches = atoi (f->pdata[C_PATCHES]);
      enc.hidden = atoi (f->pdata[C_HIDDEN]);
      enc.ff = atoi (f->pdata[C_FF]);
      enc.heads = atoi (f->pdata[C_HEADS]);
      enc.gated = atoi (f->pdata[C_GATED]) != 0;
      enc.windowed = atoi (f->pdata[C_WINDOWED]) != 0;
      predicted = hr_projector_encode_bytes (&enc, g_strcmp0 (f->pdata[C_FA], "on") == 0) / HR_MIB;
      logged = g_ascii_strtod (f->pdata[C_MIB], NULL);
      held = g_strcmp0 (f->pdata[C_SPLIT], "held_out") == 0;
      g_assert_true (held || g_strcmp0 (f->pdata[C_SPLIT], "train") == 0);
      err = (predicted - logged) / logged;
      g_test_message ("%-60s %-8s predicted %8.2f MiB, logged %8.2f MiB: %+5.1f %%",
                      (char *) f->pdata[C_MODEL], held ? "held-out" : "fitted", predicted, logged, 100 * err);
      if (held)
        {
          worst_held = MAX (worst_held, fabs (err));
          n_held++;
        }
      else
        {
          worst_train = MAX (worst_train, fabs (err));
          n_train++;
        }
    }
  /* roughly a third held out, never fitted */
  g_assert_cmpint (n_held, >=, 1);
  g_assert_cmpint (n_held * 3, >=, n_train + n_held - 1);
  g_assert_cmpfloat (worst_train, <, 0.06);
  g_assert_cmpfloat (worst_held, <, 0.35);
}

/* The mechanism's terms: flash attention off adds the F32 attention scores, a windowed encoder
 * its mask; unknown stays unknown. */
static void
test_terms (void)
{
  HrVisionEncoder gemma = { 4096, 1152, 4304, 16, FALSE, FALSE };
  HrVisionEncoder unknown = { 0, 1152, 4304, 16, FALSE, FALSE };
  HrVisionEncoder windowed = gemma;
  double fa = hr_projector_encode_bytes (&gemma, TRUE);

  g_assert_cmpfloat_with_epsilon (fa, 4.0 * 4096 * (4304 + HR_PROJECTOR_EMBD_LIVE * 1152), 1);
  g_assert_cmpfloat_with_epsilon (hr_projector_encode_bytes (&gemma, FALSE) - fa,
                                  4.0 * 16 * 4096.0 * 4096.0, 1);
  windowed.windowed = TRUE;
  g_assert_cmpfloat_with_epsilon (hr_projector_encode_bytes (&windowed, TRUE) - fa, 6.0 * 4096.0 * 4096.0, 1);
  g_assert_true (isnan (hr_projector_encode_bytes (&unknown, TRUE)));
  g_assert_false (hr_projector_encoder_known (&unknown));
}

/* An mmproj GGUF's clip.vision.* keys give the encoder: Gemma 3's fixed 896 × 896 image, the
 * Qwen-VL mergers' 46 × 46-token warmup, a gated FFN and window attention; a projector type whose
 * warmup is not known here stays unknown. */
static void
test_from_gguf (void)
{
  const struct { const char *type; int image, patch, merge, wa; gboolean gate; int patches; } cases[] = {
    { "gemma3", 896, 14, 0, 0, FALSE, 4096 },
    { "qwen3vl_merger", 768, 16, 2, 0, FALSE, 8464 },
    { "qwen2.5vl_merger", 560, 14, 2, 8, TRUE, 8464 },
    { "pixtral", 1540, 14, 2, 0, TRUE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GgufWriter) w = gguf_writer_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(HrGguf) gguf = NULL;
      g_autoptr(GError) error = NULL;
      HrVisionEncoder enc;
      gsize len;
      const guint8 *data;

      gguf_kv_str (w, "general.architecture", "clip");
      gguf_kv_str (w, "clip.projector_type", cases[i].type);
      gguf_kv_u32 (w, "clip.vision.image_size", cases[i].image);
      gguf_kv_u32 (w, "clip.vision.patch_size", cases[i].patch);
      gguf_kv_u32 (w, "clip.vision.embedding_length", 1152);
      gguf_kv_u32 (w, "clip.vision.feed_forward_length", 4304);
      gguf_kv_u32 (w, "clip.vision.attention.head_count", 16);
      if (cases[i].merge > 0)
        gguf_kv_u32 (w, "clip.vision.spatial_merge_size", cases[i].merge);
      if (cases[i].wa > 0)
        gguf_kv_u32 (w, "clip.vision.n_wa_pattern", cases[i].wa);
      gguf_tensor (w, "v.blk.0.ffn_up.weight", GGML_F16, 1152, 4304);
      if (cases[i].gate)
        gguf_tensor (w, "v.blk.0.ffn_gate.weight", GGML_F16, 1152, 4304);
      bytes = gguf_writer_finish (w, (gsize) w->offset);
      data = g_bytes_get_data (bytes, &len);
      gguf = hr_gguf_parse (data, len, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (hr_projector_encoder_from_gguf (gguf, &enc), ==, cases[i].patches > 0);
      g_assert_cmpint (enc.patches, ==, cases[i].patches);
      g_assert_cmpint (enc.hidden, ==, 1152);
      g_assert_cmpint (enc.ff, ==, 4304);
      g_assert_cmpint (enc.heads, ==, 16);
      g_assert_cmpint (enc.gated, ==, cases[i].gate);
      g_assert_cmpint (enc.windowed, ==, cases[i].wa > 0);
    }
}

/* Gemma 3 27B's catalog projector on RTX 4090 + RTX 3090: its weights and image-encode buffer on
 * the first device, the other untouched; in system RAM with --no-mmproj-offload. */
static void
test_catalog_mixed (void)
{
  const HrModel *m = hr_catalog_find_model (catalog, "gemma-3-27b");
  HrDeviceKind kinds[2] = {
    { hr_catalog_find_gpu (catalog, "rtx-4090-24gb"), 1 },
    { hr_catalog_find_gpu (catalog, "rtx-3090-24gb"), 1 },
  };
  g_autoptr(GError) error = NULL;
  HrScenario s;
  HrEstimate e0, e1, e2;
  double enc;

  g_assert_nonnull (m);
  g_assert_cmpfloat (m->mmproj_bytes, ==, 858000000);
  g_assert_cmpstr (m->mmproj_dtype, ==, "F16");
  g_assert_nonnull (strstr (m->mmproj_source, "ggml-org/gemma-3-27b-it-GGUF"));
  g_assert_cmpint (m->mmproj_encoder.patches, ==, 4096);
  hr_scenario_init (&s, m, kinds[0].gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  g_assert_true (hr_scenario_set_devices (&s, kinds, 2, &error));
  g_assert_true (hr_estimate_compute (&s, NULL, &e0, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (e0.mmproj_encode_bytes, ==, 0);

  s.mmproj_bytes = m->mmproj_bytes;
  s.mmproj_encoder = m->mmproj_encoder;
  g_assert_true (hr_estimate_compute (&s, NULL, &e1, &error));
  enc = hr_projector_encode_bytes (&m->mmproj_encoder, s.flash_attn);
  /* ~117 MiB for SigLIP at 4096 patches with flash attention */
  g_assert_cmpfloat (enc / HR_MIB, >, 100);
  g_assert_cmpfloat (enc / HR_MIB, <, 130);
  g_assert_cmpfloat_with_epsilon (e1.mmproj_encode_bytes, enc, 1);
  g_assert_cmpint (e1.mmproj_device, ==, 0);
  g_assert_cmpfloat_with_epsilon (e1.required_bytes, e0.required_bytes + m->mmproj_bytes + enc, 2);
  g_assert_cmpfloat_with_epsilon (e1.placement.devices[0].required_bytes,
                                  e0.placement.devices[0].required_bytes + m->mmproj_bytes + enc, 2);
  g_assert_cmpfloat_with_epsilon (e1.placement.devices[0].compute_bytes,
                                  e0.placement.devices[0].compute_bytes + enc, 1);
  g_assert_cmpfloat_with_epsilon (e1.placement.devices[1].required_bytes,
                                  e0.placement.devices[1].required_bytes, 1);

  s.mmproj_cpu = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &e2, &error));
  g_assert_cmpint (e2.mmproj_device, ==, -1);
  g_assert_cmpfloat_with_epsilon (e2.required_bytes, e0.required_bytes, 1);
  g_assert_cmpfloat_with_epsilon (e2.system_ram_bytes, e0.system_ram_bytes + m->mmproj_bytes + enc, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/projector/logs", test_logs);
  g_test_add_func ("/projector/terms", test_terms);
  g_test_add_func ("/projector/from-gguf", test_from_gguf);
  g_test_add_func ("/projector/catalog-mixed", test_catalog_mixed);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
