/* hostile-gen.h — hostile inputs made on the fly by the tests (none is committed: they are MBs)
 *
 * Names that collide under g_str_hash: it is djb2 (h = h × 33 + c, from 5381), and the
 * two-character blocks "Az", "BY" and "C8" add the same 65 × 33 + 122 = 66 × 33 + 89 = 67 × 33 +
 * 56 = 2267 to 33² times the hash before them, so every string of k such blocks (3^k of them)
 * has one and the same hash, whatever prefix they follow.  GHashTable then probes through every
 * earlier name on each insert, json-glib's object members too: n names cost n²/2 string
 * comparisons.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "gguf-writer.h"

/* Appends the @i-th name of @blocks colliding blocks. */
static inline void
hostile_colliding_name (GString *out,
                        guint    i,
                        guint    blocks)
{
  static const char *const block[] = { "Az", "BY", "C8" };

  for (guint b = 0; b < blocks; b++, i /= 3)
    g_string_append (out, block[i % 3]);
}

/* A tiny Llama's metadata, then @n F32 tensors of one element named "blk.<colliding>", each
 * at its aligned offset: a well-formed GGUF whose only trick is the names (65 536 of them make
 * about 4 MB).  @ordinary: plain names "t<i>" instead, the same count, for comparison. */
static inline GBytes *
hostile_gguf_colliding (guint    n,
                        gboolean ordinary)
{
  g_autoptr(GgufWriter) w = gguf_writer_new ();
  g_autoptr(GString) name = g_string_new (NULL);

  gguf_kv_str (w, "general.architecture", "llama");
  gguf_kv_u32 (w, "llama.block_count", 1);
  gguf_kv_u32 (w, "llama.context_length", 4096);
  gguf_kv_u32 (w, "llama.embedding_length", 256);
  gguf_kv_u32 (w, "llama.feed_forward_length", 512);
  gguf_kv_u32 (w, "llama.attention.head_count", 4);
  gguf_kv_u32 (w, "llama.attention.head_count_kv", 2);
  for (guint i = 0; i < n; i++)
    {
      g_string_assign (name, "blk.");
      if (ordinary)
        g_string_append_printf (name, "t%u", i);
      else
        hostile_colliding_name (name, i, 11);
      gguf_tensor (w, name->str, GGML_F32, 8, 1);
    }
  return gguf_writer_finish (w, 0);
}

/* A config.json whose root holds @n extra members with colliding names after a real
 * architecture (65 536 make about 1.8 MB). */
static inline char *
hostile_config_colliding (guint n)
{
  GString *out = g_string_new ("{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", "
                               "\"hidden_size\": 4096, \"intermediate_size\": 14336, "
                               "\"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
                               "\"num_key_value_heads\": 8, \"vocab_size\": 128256, "
                               "\"max_position_embeddings\": 131072, \"torch_dtype\": \"bfloat16\"");

  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, ",\n\"");
      hostile_colliding_name (out, i, 11);
      g_string_append (out, "\": 0");
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/* A schema-1 pricing feed with one good offer, whose root also holds @n colliding members
 * (150 000 make about 4 MB, the feed's limit). */
static inline char *
hostile_feed_colliding (guint n)
{
  GString *out = g_string_new ("{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"USD\", "
                               "\"offers\": [{\"provider\": \"RunPod\", \"gpu_id\": \"a100-80gb-sxm\", "
                               "\"gpu\": \"A100 80GB SXM\", \"count\": 1, \"vram_gb\": 80, "
                               "\"usd_per_hour\": 1.19, \"billing\": \"per-second\", "
                               "\"url\": \"https://www.runpod.io/pricing\"}]");

  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, ",\"");
      hostile_colliding_name (out, i, 11);
      g_string_append (out, "\":0");
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/* A SkyPilot vms.csv (catalogs/v7 columns) of @n H100 rows whose instance types collide, all in
 * one region, so every row is an offer of its own (50 000 make about 2.2 MB). */
static inline char *
hostile_skypilot_colliding (guint n)
{
  GString *out = g_string_new ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,"
                               "GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n");

  for (guint i = 0; i < n; i++)
    {
      hostile_colliding_name (out, i, 11);
      g_string_append (out, ",H100,1.0,8.0,64.0,,2.5,1.2,us-east-1,use1-az1\n");
    }
  return g_string_free (out, FALSE);
}

/* A schema-1 pricing feed as heavy as the feed's limits let it be, about 4 MB: its root holds
 * @root_extra more members, and each of @n offers (10 000 are read) carries, beside its real
 * fields, 8 extra members whose names share one g_str_hash value (as many as an object may
 * have) and a long URL.  Every offer is valid: it is read, not refused early. */
static inline char *
hostile_feed_heavy (guint n,
                    guint root_extra)
{
  GString *out = g_string_new ("{\"schema\": 1, \"updated\": \"2026-11-05\", \"currency\": \"USD\"");

  for (guint i = 0; i < root_extra; i++)
    g_string_append_printf (out, ",\"x%u\":[%u]", i, i);
  g_string_append (out, ", \"offers\": [");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s{\"provider\": \"RunPod\", \"gpu_id\": \"a100-80gb-sxm\", "
                              "\"gpu\": \"A100 80GB SXM\", \"count\": 1, \"vram_gb\": 80, "
                              "\"usd_per_hour\": %u.%02u, \"billing\": \"per-second\", "
                              "\"url\": \"https://www.runpod.io/pricing/",
                              i ? "," : "", 1 + i % 7, i % 100);
      for (guint k = 0; k < 15; k++)
        g_string_append (out, "abcdefgh");
      g_string_append (out, "\"");
      for (guint k = 0; k < 8; k++)
        {
          g_string_append (out, ",\"");
          hostile_colliding_name (out, k, 4);
          g_string_append (out, "\":0");
        }
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* A split GGUF's first part that lies: it says it is part 1 of 4096 and carries @n_strings
 * strings of @string_bytes each (the set: 62 × 1 MiB, linked under all 4096 names). */
static inline GBytes *
hostile_gguf_split_part (guint n_strings,
                         gsize string_bytes)
{
  g_autoptr(GgufWriter) w = gguf_writer_new ();
  g_autofree char *big = g_malloc (string_bytes + 1);

  memset (big, 'x', string_bytes);
  big[string_bytes] = '\0';
  gguf_kv_str (w, "general.architecture", "llama");
  gguf_kv_u32 (w, "llama.block_count", 2);
  gguf_kv_u32 (w, "llama.embedding_length", 256);
  gguf_kv_u32 (w, "llama.attention.head_count", 4);
  gguf_kv_u32 (w, "split.no", 0);
  gguf_kv_u32 (w, "split.count", 4096);
  for (guint i = 0; i < n_strings; i++)
    {
      g_autofree char *key = g_strdup_printf ("heavy.%u", i);

      gguf_kv_str (w, key, big);
    }
  gguf_tensor (w, "token_embd.weight", GGML_Q4_K, 256, 1024);
  return gguf_writer_finish (w, 0);
}

/* ---- seeds for the fuzzers ----
 * The hostile inputs above, at a size a fuzzer still runs many times a second (a few hundred
 * kB; the tests that time them use the full size), for the fuzz target that reads each kind:
 * build-aux/test-fuzz.sh adds them to the seed corpora (tests/make-hostile-seeds), and
 * test-fuzz-replay feeds them to the fuzzers' entry points in every build. */
typedef struct
{
  const char *target;   /* tests/fuzz/fuzz-<target>.c */
  const char *name;
  GBytes *bytes;
} HostileSeed;

static inline void
hostile_seed_free (HostileSeed *seed)
{
  g_bytes_unref (seed->bytes);
  g_free (seed);
}

static inline void
hostile_seed_add (GPtrArray  *seeds,
                  const char *target,
                  const char *name,
                  GBytes     *bytes)
{
  HostileSeed *seed = g_new0 (HostileSeed, 1);

  seed->target = target;
  seed->name = name;
  seed->bytes = bytes;
  g_ptr_array_add (seeds, seed);
}

static inline GBytes *
hostile_take_text (char *text)
{
  gsize len = strlen (text);

  return g_bytes_new_take (text, len);
}

static inline GPtrArray *
hostile_seeds_new (void)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) hostile_seed_free);

  hostile_seed_add (seeds, "gguf", "hostile-colliding-names.gguf", hostile_gguf_colliding (8192, FALSE));
  hostile_seed_add (seeds, "gguf", "hostile-split-1-of-4096.gguf", hostile_gguf_split_part (8, 64 * 1024));
  hostile_seed_add (seeds, "hfconfig", "hostile-colliding-members.json", hostile_take_text (hostile_config_colliding (8192)));
  hostile_seed_add (seeds, "catalog", "hostile-feed-colliding.json", hostile_take_text (hostile_feed_colliding (8192)));
  hostile_seed_add (seeds, "catalog", "hostile-feed-heavy.json", hostile_take_text (hostile_feed_heavy (1000, 200)));
  hostile_seed_add (seeds, "skypilot", "hostile-colliding-instances.csv", hostile_take_text (hostile_skypilot_colliding (8192)));
  return seeds;
}
