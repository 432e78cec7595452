/* hr-detect-device.c — from what was detected to a device Headroom sizes against
 *
 * Matching to the catalog (PCI ids, then names), the CPU's RAM bandwidth (a table of vendor
 * memory specifications, else a short measurement), and the devices: a detected GPU (the
 * catalog entry with the detected memory, or a custom one with only the memory known), or the
 * CPU + system RAM for llama.cpp's CPU backend.
 */
#include "hr-detect.h"
#include "hr-detect-private.h"
#include "hr-file.h"
#include "hr-scenario.h"
#include "hr-units.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ---- PCI device ids of catalog entries ---------------------------------------------------
 * Source: the PCI ID Repository, pci.ids version 2023.04.10 (Debian 12 package pci.ids
 * 0.0~2023.04.11-1, /usr/share/misc/pci.ids; https://pci-ids.ucw.cz).  Parts newer than that
 * file (RTX 50, L40S, H200, B200, MI300, Strix Halo …) match by name only.  Several entries
 * may share an id (RX 7900 XT / XTX): the detected memory picks between them. */
typedef struct
{
  const char *gpu_id;
  guint16 vendor;
  guint16 device;
} PciRow;

static const PciRow pci_rows[] = {
  { "rtx-3060-12gb", 0x10de, 0x2487 }, { "rtx-3060-12gb", 0x10de, 0x2503 },
  { "rtx-3060-12gb", 0x10de, 0x2504 }, { "rtx-3060-12gb", 0x10de, 0x2509 },
  { "rtx-3060-12gb", 0x10de, 0x2544 },
  { "rtx-3070-8gb", 0x10de, 0x2484 },
  { "rtx-4060-ti-16gb", 0x10de, 0x2803 },
  { "rtx-4070-12gb", 0x10de, 0x2786 },
  { "rtx-4070-ti-12gb", 0x10de, 0x2782 },
  { "rtx-4080-16gb", 0x10de, 0x2704 },
  { "rtx-3080-10gb", 0x10de, 0x2206 }, { "rtx-3080-10gb", 0x10de, 0x2216 },
  { "rtx-3080-ti-12gb", 0x10de, 0x2208 },
  { "rtx-3090-24gb", 0x10de, 0x2204 },
  { "rtx-3090-ti-24gb", 0x10de, 0x2203 },
  { "rtx-4090-24gb", 0x10de, 0x2684 },
  { "rtx-a6000-48gb", 0x10de, 0x2230 },
  { "rtx-6000-ada-48gb", 0x10de, 0x26b1 },
  { "t4-16gb", 0x10de, 0x1eb8 },
  { "v100-32gb-sxm", 0x10de, 0x1db5 }, { "v100-32gb-sxm", 0x10de, 0x1db8 },
  { "l4-24gb", 0x10de, 0x27b8 },
  { "a40-48gb", 0x10de, 0x2235 },
  { "a100-40gb-sxm", 0x10de, 0x20b0 },
  { "a100-80gb-sxm", 0x10de, 0x20b2 },
  { "a100-80gb-pcie", 0x10de, 0x20b5 },
  { "a800-80gb-sxm", 0x10de, 0x20f3 },
  { "h100-80gb-sxm", 0x10de, 0x2330 },
  { "h100-80gb-pcie", 0x10de, 0x2331 },
  { "h800-80gb-sxm", 0x10de, 0x2324 },
  { "rx-7900-xtx-24gb", 0x1002, 0x744c }, { "rx-7900-xt-20gb", 0x1002, 0x744c },
};

/* ---- AMD device id and revision ----------------------------------------------------------
 * Source: libdrm's data/amdgpu.ids, the marketing name of each device id and revision
 * (https://gitlab.freedesktop.org/mesa/drm/-/blob/main/data/amdgpu.ids; read from the mirror
 * github.com/X11Libre/mirror.fdo.drm at 06675b4).  One id is often several products: 1002:1586
 * (Strix Halo) is a Radeon 8060S at C1, C3, C6 and D1, an 8050S at C2, C4, D2, D4 and an 8040S
 * at D5; 744c is the 7900 XTX at C8, the XT at CC, the GRE at CE.  So for a device id in this
 * table with its revision known, the table decides (a GRE or an 8050S matches nothing); with
 * the revision unknown, the rows above and the CPU model below do. */
typedef struct
{
  const char *gpu_id;
  guint16 device;
  guint8 revision;
} AmdRow;

static const AmdRow amd_rows[] = {
  /* "AMD Radeon 8060S Graphics": the Ryzen AI Max+ 395's GPU (a GMKtec: 1002:1586 rev c1 with
   * "AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", lspci and lscpu) */
  { "ryzen-ai-max-395-128gb", 0x1586, 0xc1 }, { "ryzen-ai-max-395-128gb", 0x1586, 0xc3 },
  { "ryzen-ai-max-395-128gb", 0x1586, 0xc6 }, { "ryzen-ai-max-395-128gb", 0x1586, 0xd1 },
  { "w7900-48gb", 0x7448, 0x00 },
  { "rx-7900-xtx-24gb", 0x744c, 0xc8 }, { "rx-7900-xt-20gb", 0x744c, 0xcc },
  { "mi300x-192gb", 0x74a1, 0x00 },
  { "mi325x-256gb", 0x74a5, 0x00 },
  { "rx-9070-xt-16gb", 0x7550, 0xc0 },
  { "radeon-ai-pro-r9700-32gb", 0x7551, 0xc0 },
  { "mi355x-288gb", 0x75a3, 0x00 },
};

/* ---- integrated GPUs by the CPU they are part of -----------------------------------------
 * /proc/cpuinfo's model name names an AMD APU's GPU ("AMD RYZEN AI MAX+ 395 w/ Radeon 8060S",
 * as lscpu prints it on Strix Halo machines); used for an integrated GPU of @vendor that its
 * PCI id (without a revision) did not match. */
typedef struct
{
  const char *gpu_id;
  guint16 vendor;
  const char *cpu;        /* a case-insensitive substring of the model name */
} CpuGpuRow;

static const CpuGpuRow cpu_gpu_rows[] = {
  { "ryzen-ai-max-395-128gb", 0x1002, "Radeon 8060S" },
};

/* ---- names ------------------------------------------------------------------------------
 * Names a tool reports that are not the catalog's: nvidia-smi calls the DGX Spark's GPU
 * "NVIDIA GB10" (NVIDIA, DGX Spark known issues, https://docs.nvidia.com/dgx/dgx-spark/known-issues.html,
 * quoted with its nvidia-smi output in github.com/unslothai/unsloth pull 10703). */
typedef struct
{
  const char *key;        /* name_key () of the reported name */
  const char *gpu_id;
} NameRow;

static const NameRow name_rows[] = {
  { "gb10", "dgx-spark-128gb" },
};

/* ---- peak RAM bandwidth by CPU model -----------------------------------------------------
 * channels × 8 bytes × MT/s, at the memory speed the vendor specifies for the part. */
typedef struct
{
  const char *model;      /* a case-insensitive substring of /proc/cpuinfo's model name */
  int channels;           /* 64-bit channels */
  int mts;
  const char *source;
} CpuRow;

static const CpuRow cpu_rows[] = {
  /* Ryzen 7000 (Zen 4, AM5): dual-channel DDR5-5200 */
  { "Ryzen 9 7950X", 2, 5200, "AMD Ryzen 7000: 2 channels DDR5-5200 (https://www.hardwaretimes.com/amd-ryzen-7000-cpus-to-support-ddr5-5200-memory-out-of-the-box-2-channels-per-dimm/)" },
  { "Ryzen 9 7900X", 2, 5200, "AMD Ryzen 7000: 2 channels DDR5-5200 (https://www.hardwaretimes.com/amd-ryzen-7000-cpus-to-support-ddr5-5200-memory-out-of-the-box-2-channels-per-dimm/)" },
  { "Ryzen 7 7800X3D", 2, 5200, "Ryzen 7 7800X3D: 2 channels, up to DDR5-5200 (https://zaro.info/ryzen-memory-support/how-much-ram-can-a-ryzen-7-7800x3d-handle)" },
  { "Ryzen 7 7700X", 2, 5200, "AMD Ryzen 7000: 2 channels DDR5-5200 (https://www.hardwaretimes.com/amd-ryzen-7000-cpus-to-support-ddr5-5200-memory-out-of-the-box-2-channels-per-dimm/)" },
  { "Ryzen 5 7600X", 2, 5200, "AMD Ryzen 7000: 2 channels DDR5-5200 (https://www.hardwaretimes.com/amd-ryzen-7000-cpus-to-support-ddr5-5200-memory-out-of-the-box-2-channels-per-dimm/)" },
  /* Ryzen 9000 (Zen 5): DDR5-5600 by default */
  { "Ryzen 9 9950X", 2, 5600, "AMD Ryzen 9000: DDR5-5600 by default (https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html)" },
  { "Ryzen 9 9900X", 2, 5600, "AMD Ryzen 9000: DDR5-5600 by default (https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html)" },
  { "Ryzen 7 9700X", 2, 5600, "AMD Ryzen 9000: DDR5-5600 by default (https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html)" },
  { "Ryzen 5 9600X", 2, 5600, "AMD Ryzen 9000: DDR5-5600 by default (https://www.indiekings.com/2024/06/amd-ryzen-9000-zen-5-cpus-enhanced-ddr5.html)" },
  /* Intel 13th gen: 2 channels DDR5-5600, 89.6 GB/s */
  { "i9-13900K", 2, 5600, "Intel Core i9-13900K: 2 channels, DDR5-5600, max 89.6 GB/s (https://zaro.info/processor-memory-support/what-is-the-max-ram-speed-for-intel-core-i9-13900k)" },
  /* Strix Halo: 256-bit LPDDR5X-8000 = four 64-bit channels */
  { "Ryzen AI Max+ 395", 4, 8000, "reference/gpu_specs.csv: Ryzen AI Max+ 395, LPDDR5X-8000 256-bit, 256 GB/s" },
};

/* Streaming-read measurement: large enough to leave every cache behind. */
#define MEASURE_BYTES (256u * 1024 * 1024)
#define MEASURE_MIB_MAX 4096
#define MEASURE_RUNS  3
#define MAX_THREADS   64

double
hr_detect_cpu_bandwidth (const char  *model,
                         const char **source)
{
  if (source)
    *source = NULL;
  if (model == NULL)
    return NAN;
  for (guint i = 0; i < G_N_ELEMENTS (cpu_rows); i++)
    {
      g_autofree char *hay = g_ascii_strdown (model, -1);
      g_autofree char *needle = g_ascii_strdown (cpu_rows[i].model, -1);

      if (strstr (hay, needle) == NULL)
        continue;
      if (source)
        *source = cpu_rows[i].source;
      return cpu_rows[i].channels * 8.0 * cpu_rows[i].mts / 1000.0;
    }
  return NAN;
}

typedef struct
{
  const guint64 *data;
  gsize n;
  guint64 sum;
} ReadSlice;

static gpointer
read_slice (gpointer user_data)
{
  ReadSlice *s = user_data;
  guint64 a = 0, b = 0, c = 0, d = 0;

  for (gsize i = 0; i + 4 <= s->n; i += 4)
    {
      a += s->data[i];
      b += s->data[i + 1];
      c += s->data[i + 2];
      d += s->data[i + 3];
    }
  s->sum = a + b + c + d;
  return NULL;
}

/* HEADROOM_RAM_MEASURE_MIB: the MiB read (tests: a few, under a fake root); 0 when unset. */
static guint
measure_mib_override (void)
{
  const char *env = g_getenv ("HEADROOM_RAM_MEASURE_MIB");
  guint64 v;

  if (env == NULL || !g_ascii_string_to_unsigned (env, 10, 1, MEASURE_MIB_MAX, &v, NULL))
    return 0;
  return (guint) v;
}

static gsize
measure_bytes (void)
{
  guint mib = measure_mib_override ();

  return mib > 0 ? (gsize) mib << 20 : MEASURE_BYTES;
}

/* The best of MEASURE_RUNS streaming reads over all cores, GB/s: the highest, since a busy
 * machine only ever makes a run slower. */
static double
measure_bandwidth (int threads)
{
  gsize bytes = measure_bytes ();
  gsize n = bytes / sizeof (guint64);
  g_autofree guint64 *data = g_try_new (guint64, n);
  double best = 0;

  if (data == NULL)
    return NAN;
  threads = CLAMP (threads, 1, MAX_THREADS);
  for (gsize i = 0; i < n; i++)
    data[i] = i;
  for (int run = 0; run < MEASURE_RUNS; run++)
    {
      ReadSlice slices[MAX_THREADS];
      GThread *workers[MAX_THREADS];
      gint64 t0 = g_get_monotonic_time (), dt;
      volatile guint64 sink = 0;

      for (int t = 0; t < threads; t++)
        {
          slices[t] = (ReadSlice) { data + n / threads * t, n / threads, 0 };
          workers[t] = g_thread_new ("hr-membw", read_slice, &slices[t]);
        }
      for (int t = 0; t < threads; t++)
        {
          g_thread_join (workers[t]);
          sink += slices[t].sum;
        }
      dt = g_get_monotonic_time () - t0;
      (void) sink;
      if (dt > 0)
        best = MAX (best, (double) bytes / (dt * 1e-6) / 1e9);
    }
  return best > 0 ? best : NAN;
}

/* The measurement is kept in the user's cache, keyed by the CPU, its threads and the RAM
 * size, so the figure stays put from one run to the next and costs nothing after the first:
 *   KEY\nGB/s\nYYYY-MM-DDTHH:MM:SSZ\n
 * A file of an older version has no third line: its figure is still used, undated. */
static char *
cache_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "ram-bandwidth", NULL);
}

static char *
cache_key (const HrSystem *system)
{
  return g_strdup_printf ("%s|%d|%.0f", system->cpu_model ? system->cpu_model : "?",
                          system->logical_cpus, isfinite (system->mem_total) ? system->mem_total / HR_MIB : 0);
}

static double
cached_bandwidth (const HrSystem *system,
                  gint64         *measured_at)
{
  g_autofree char *path = cache_path ();
  g_autofree char *key = cache_key (system);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  double v;
  gsize len;

  *measured_at = 0;
  /* a few dozen bytes; a FIFO or a device (/dev/zero) in its place is refused, not read */
  if (!hr_file_read_regular (path, 4096, &text, &len, NULL, NULL))
    return NAN;
  lines = g_strsplit (text, "\n", 4);
  if (g_strv_length (lines) < 2 || g_strcmp0 (lines[0], key) != 0)
    return NAN;
  v = g_ascii_strtod (lines[1], NULL);
  if (!(v > 0.1 && v < 1e5))
    return NAN;
  if (lines[2] != NULL && *lines[2] != '\0')
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (lines[2], NULL);

      /* a date that does not parse is an undated figure, not a reason to measure again */
      if (when != NULL)
        *measured_at = g_date_time_to_unix (when);
    }
  return v;
}

static void
store_bandwidth (const HrSystem *system,
                 double          gbs,
                 gint64          measured_at)
{
  g_autofree char *path = cache_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *key = cache_key (system);
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (measured_at);
  g_autofree char *date = g_date_time_format (when, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *text = NULL;
  char num[G_ASCII_DTOSTR_BUF_SIZE];

  text = g_strdup_printf ("%s\n%s\n%s\n", key, g_ascii_dtostr (num, sizeof num, gbs), date);
  if (g_mkdir_with_parents (dir, 0700) == 0)
    g_file_set_contents (path, text, -1, NULL);   /* atomic; a cache, so failure is harmless */
}

double
hr_detect_measure_ram (const HrSystem *system,
                       gint64         *measured_at)
{
  double gbs;

  g_return_val_if_fail (system != NULL && measured_at != NULL, NAN);

  gbs = measure_bandwidth (MAX (system->logical_cpus, 1));
  *measured_at = g_get_real_time () / G_USEC_PER_SEC;
  if (isfinite (gbs))
    store_bandwidth (system, gbs, *measured_at);
  return gbs;
}

void
hr_system_set_measured_ram (HrSystem *system,
                            double    gbs,
                            gint64    measured_at)
{
  g_autofree char *date = NULL;

  g_return_if_fail (system != NULL);

  g_clear_pointer (&system->ram_bandwidth_source, g_free);
  system->ram_bandwidth_gbs = gbs;
  system->ram_bandwidth_measured_at = isfinite (gbs) ? measured_at : 0;
  if (!isfinite (gbs))
    return;
  if (measured_at > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (measured_at);
      date = g_date_time_format (when, "%Y-%m-%d");
    }
  system->ram_bandwidth_source =
    g_strdup_printf ("measured on this machine%s%s: streaming read of %u MiB on %d threads, best of %d",
                     date ? " on " : " (date unknown)", date ? date : "",
                     (guint) (measure_bytes () >> 20), MAX (system->logical_cpus, 1), MEASURE_RUNS);
}

void
hr_detect_fill_bandwidth (HrSystem  *system,
                          HrRamMeasure  measure,
                          gboolean   real)
{
  const char *source = NULL;
  gint64 when = 0;
  double gbs;

  system->ram_bandwidth_gbs = hr_detect_cpu_bandwidth (system->cpu_model, &source);
  if (isfinite (system->ram_bandwidth_gbs))
    {
      system->ram_bandwidth_source = g_strdup (source);
      return;
    }
  system->ram_bandwidth_measurable = real || measure_mib_override () > 0;
  if (measure == HR_RAM_MEASURE_NEVER || !system->ram_bandwidth_measurable)
    return;
  gbs = measure == HR_RAM_MEASURE_AGAIN ? NAN : cached_bandwidth (system, &when);
  if (isnan (gbs) && measure != HR_RAM_MEASURE_CACHED)
    gbs = hr_detect_measure_ram (system, &when);
  hr_system_set_measured_ram (system, gbs, when);
}

/* ---- matching ----------------------------------------------------------------------------- */

/* "NVIDIA GeForce RTX 4090" and "RTX 4090 24GB" → "rtx 4090": vendor and brand words and
 * memory sizes dropped, lower case. */
static char *
name_key (const char *name)
{
  static const char *drop[] = { "nvidia", "geforce", "amd", "radeon", "intel", "tesla", "graphics", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);
  g_auto(GStrv) words = g_strsplit_set (lower, " ()[]", -1);
  GString *out = g_string_new (NULL);

  for (int i = 0; words[i]; i++)
    {
      const char *w = words[i];
      gboolean skip = *w == '\0' || g_strv_contains (drop, w) ||
                      (g_str_has_suffix (w, "gb") && g_ascii_isdigit (w[0]));
      if (skip)
        continue;
      g_string_append_printf (out, "%s%s", out->len ? " " : "", w);
    }
  return g_string_free (out, FALSE);
}

/* Of several candidates the one whose memory is nearest the detected size. */
static const HrGpu *
nearest_memory (GPtrArray *candidates,
                double     vram)
{
  const HrGpu *best = NULL;

  for (guint i = 0; i < candidates->len; i++)
    {
      const HrGpu *g = g_ptr_array_index (candidates, i);
      if (best == NULL ||
          (isfinite (vram) && fabs (g->memory_gib * HR_GIB - vram) < fabs (best->memory_gib * HR_GIB - vram)))
        best = g;
    }
  return best;
}

static void
match_one (HrDetectedGpu   *d,
           const HrCatalog *catalog,
           const char      *cpu_model)
{
  g_autoptr(GPtrArray) by_pci = g_ptr_array_new ();
  g_autoptr(GPtrArray) by_name = g_ptr_array_new ();
  g_autofree char *key = d->name ? name_key (d->name) : NULL;
  gboolean revision_decides = FALSE;

  if (d->pci_vendor == 0x1002 && d->has_revision)
    for (guint i = 0; i < G_N_ELEMENTS (amd_rows); i++)
      if (amd_rows[i].device == d->pci_device)
        {
          const HrGpu *g = hr_catalog_find_gpu (catalog, amd_rows[i].gpu_id);

          revision_decides = TRUE;
          if (g != NULL && amd_rows[i].revision == d->pci_revision)
            g_ptr_array_add (by_pci, (gpointer) g);
        }
  for (guint i = 0; i < G_N_ELEMENTS (pci_rows) && !revision_decides; i++)
    if (pci_rows[i].vendor == d->pci_vendor && pci_rows[i].device == d->pci_device && d->pci_device != 0)
      {
        const HrGpu *g = hr_catalog_find_gpu (catalog, pci_rows[i].gpu_id);
        if (g != NULL)
          g_ptr_array_add (by_pci, (gpointer) g);
      }
  if (by_pci->len > 0)
    {
      d->match = nearest_memory (by_pci, d->vram_total);
      d->match_by = "PCI id";
      return;
    }
  if (revision_decides)
    return;   /* a product of that id the catalog does not have (an 8050S, a 7900 GRE) */
  if (key != NULL && *key != '\0')
    {
      for (guint i = 0; i < hr_catalog_n_gpus (catalog); i++)
        {
          const HrGpu *g = hr_catalog_get_gpu (catalog, i);
          g_autofree char *gkey = g->name ? name_key (g->name) : NULL;

          if (g->user_defined || gkey == NULL || g_strcmp0 (gkey, key) != 0)
            continue;
          if (g->vendor && d->vendor && g_ascii_strcasecmp (g->vendor, d->vendor) != 0)
            continue;
          g_ptr_array_add (by_name, (gpointer) g);
        }
      for (guint i = 0; i < G_N_ELEMENTS (name_rows); i++)
        if (g_str_equal (name_rows[i].key, key))
          {
            const HrGpu *g = hr_catalog_find_gpu (catalog, name_rows[i].gpu_id);
            if (g != NULL)
              g_ptr_array_add (by_name, (gpointer) g);
          }
    }
  if (by_name->len > 0)
    {
      d->match = nearest_memory (by_name, d->vram_total);
      d->match_by = "name";
      return;
    }
  if (d->integrated && cpu_model != NULL)
    {
      g_autofree char *hay = g_ascii_strdown (cpu_model, -1);

      for (guint i = 0; i < G_N_ELEMENTS (cpu_gpu_rows); i++)
        {
          g_autofree char *needle = g_ascii_strdown (cpu_gpu_rows[i].cpu, -1);
          const HrGpu *g;

          if (cpu_gpu_rows[i].vendor != d->pci_vendor || strstr (hay, needle) == NULL)
            continue;
          g = hr_catalog_find_gpu (catalog, cpu_gpu_rows[i].gpu_id);
          if (g != NULL)
            {
              d->match = g;
              d->match_by = "CPU model";
              return;
            }
        }
    }
}

void
hr_system_match (HrSystem        *system,
                 const HrCatalog *catalog)
{
  g_return_if_fail (system != NULL && catalog != NULL);

  for (guint i = 0; i < system->gpus->len; i++)
    {
      HrDetectedGpu *d = g_ptr_array_index (system->gpus, i);

      d->match = NULL;
      d->match_by = NULL;
      match_one (d, catalog, system->cpu_model);
      if (d->match != NULL && d->match->form == HR_FORM_UNIFIED)
        d->integrated = TRUE;
    }
}

/* ---- devices ------------------------------------------------------------------------------ */

/* A unified GPU whose driver reports no memory of its own: the DGX Spark's GB10 (nvidia-smi
 * and NVML answer [N/A] / Not Supported there; NVIDIA: "read GPU memory from /proc/meminfo").
 * Its memory is the machine's RAM. */
static gboolean
uses_system_ram (const HrDetectedGpu *d)
{
  return d->match != NULL && d->match->form == HR_FORM_UNIFIED && d->pci_vendor != 0x1002 &&
         isnan (d->vram_total);
}

/* Bytes the GPU can hold: its VRAM, plus the GTT an APU maps from system RAM; the system RAM
 * of a unified GPU that reports none; the catalog's figure when the driver of a discrete card
 * gives none (nouveau, i915 on a discrete Arc); NAN when unknown. */
static double
gpu_capacity (const HrSystem      *system,
              const HrDetectedGpu *d)
{
  if (d->integrated && d->pci_vendor == 0x1002 && isfinite (d->gtt_total))
    return (isfinite (d->vram_total) ? d->vram_total : 0) + d->gtt_total;
  if (isfinite (d->vram_total))
    return d->vram_total;
  if (uses_system_ram (d))
    return system->mem_total;
  if (d->match != NULL && !d->integrated)
    return d->match->memory_gib * HR_GIB;
  return NAN;
}

/* Bytes of it in use now: the driver's figure; the RAM in use for one that has the RAM. */
static double
gpu_used (const HrSystem      *system,
          const HrDetectedGpu *d)
{
  if (isfinite (d->vram_used) || !uses_system_ram (d))
    return d->vram_used;
  return system->mem_total - system->mem_available;
}

/* The machine's memory as a unified catalog entry counts it: the system RAM and an APU's
 * carve-out.  NAN when unknown. */
static double
unified_machine_bytes (const HrSystem      *system,
                       const HrDetectedGpu *d)
{
  if (!isfinite (system->mem_total))
    return NAN;
  if (d->pci_vendor == 0x1002 && isfinite (d->vram_total))
    return system->mem_total + d->vram_total;
  return system->mem_total;
}

/* "Ryzen AI Max+ 395 128GB (Strix Halo)" → "Ryzen AI Max+ 395 (Strix Halo)", "Apple M1
 * (16GB)" → "Apple M1": a catalog name without the memory size it names. */
static char *
name_without_size (const char *name)
{
  static const char *const patterns[][2] = {
    { "\\s*\\b[0-9]+(\\.[0-9]+)?\\s?GB\\b", "" },
    { "\\(\\s*\\)", "" },
    { "\\(\\s+", "(" },
    { "\\s+\\)", ")" },
    { "\\s{2,}", " " },
  };
  char *out = g_strdup (name);

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      g_autoptr(GRegex) re = g_regex_new (patterns[i][0], 0, 0, NULL);
      char *next = re ? g_regex_replace (re, out, -1, 0, patterns[i][1], 0, NULL) : NULL;

      if (next != NULL)
        {
          g_free (out);
          out = next;
        }
    }
  return g_strstrip (out);
}

static HrBackend
backend_for_vendor (guint16 vendor)
{
  switch (vendor)
    {
    case 0x10de:
      return HR_BACKEND_CUDA;
    case 0x1002:
      return HR_BACKEND_ROCM;
    case 0x8086:
      return HR_BACKEND_SYCL;
    default:
      return HR_BACKEND_VULKAN;
    }
}

HrGpu *
hr_system_make_gpu_device (const HrSystem *system,
                           guint           index,
                           gboolean        free_memory)
{
  const HrDetectedGpu *d;
  double capacity;
  HrGpu *gpu;

  g_return_val_if_fail (system != NULL, NULL);
  if (index >= system->gpus->len)
    return NULL;
  d = g_ptr_array_index (system->gpus, index);
  capacity = gpu_capacity (system, d);
  if (!(capacity > 0))
    return NULL;
  if (free_memory && isfinite (gpu_used (system, d)))
    capacity -= gpu_used (system, d);

  if (d->match != NULL)
    gpu = hr_gpu_copy (d->match);
  else
    {
      gpu = hr_gpu_new ();
      gpu->vendor = g_strdup (d->vendor);
      gpu->name = d->name ? g_strdup (d->name)
                          : g_strdup_printf ("%s GPU [%04x:%04x]", d->vendor, d->pci_vendor, d->pci_device);
      gpu->backend = backend_for_vendor (d->pci_vendor);
      gpu->stack = g_strdup (hr_backend_to_string (gpu->backend));
      gpu->form = HR_FORM_CONSUMER;
      gpu->confidence = g_strdup ("detected");
    }
  g_free (gpu->id);
  gpu->id = g_strdup_printf ("this-gpu%u", index);
  g_free (gpu->detected_as);
  gpu->detected_as = g_strdup (d->match ? d->match->id : NULL);
  g_free (gpu->source);
  gpu->source = g_strdup_printf ("detected (%s)%s%s", hr_detect_source_to_string (d->source),
                                 d->match ? "; specs: catalog " : "", d->match ? d->match->id : "");
  gpu->memory_gib = hr_to_gib (MAX (capacity, 0));
  /* the host, for offload and for llama.cpp's CPU backend on this machine */
  gpu->cpu_cores = system->physical_cores;
  gpu->host_ram_gib = isfinite (system->mem_total) ? hr_to_gib (system->mem_total) : 0;
  gpu->host_ram_gbs = isfinite (system->ram_bandwidth_gbs) ? system->ram_bandwidth_gbs : 0;
  if (d->integrated)
    {
      gpu->form = HR_FORM_UNIFIED;
      /* the GTT limit is already the kernel's cap on what the GPU may map; a GPU that has the
       * whole RAM keeps the share the catalog entry gives it, as when picked from the list */
      if (!uses_system_ram (d))
        gpu->unified_share = 1.0 - HR_DEFAULT_RESERVE;
      if (!isfinite (gpu->bandwidth_gbs))
        gpu->bandwidth_gbs = system->ram_bandwidth_gbs;
    }
  if (d->match != NULL && d->match->form == HR_FORM_UNIFIED)
    {
      double machine = unified_machine_bytes (system, d);
      double entry = d->match->memory_gib * HR_GIB;

      /* a unified machine is sold by its memory: the entry's price (the 128 GB Strix Halo's)
       * is not that of this one when its RAM and carve-out are more than an eighth off (a
       * 128 GB machine shows ~125 GiB of MemTotal, a 64 GB one ~62 GiB) */
      if (!(fabs (machine - entry) <= entry / 8))
        {
          gpu->price_usd = NAN;
          g_clear_pointer (&gpu->price_note, g_free);
          /* nor is the size in its name: "Ryzen AI Max+ 395 (Strix Halo)" */
          g_free (gpu->name);
          gpu->name = name_without_size (d->match->name);
        }
    }
  return gpu;
}

HrGpu *
hr_system_make_cpu_device (const HrSystem *system,
                           gboolean        free_memory)
{
  double mem;
  HrGpu *gpu;

  g_return_val_if_fail (system != NULL, NULL);
  mem = free_memory && isfinite (system->mem_available) ? system->mem_available : system->mem_total;
  if (!(mem > 0))
    return NULL;

  gpu = hr_gpu_new ();
  gpu->id = g_strdup ("this-cpu");
  gpu->name = g_strdup_printf (_("%s + system RAM"), system->cpu_model ? system->cpu_model : _("CPU"));
  gpu->vendor = g_strdup (g_strcmp0 (system->cpu_vendor, "AuthenticAMD") == 0 ? "AMD"
                          : g_strcmp0 (system->cpu_vendor, "GenuineIntel") == 0 ? "Intel" : "CPU");
  gpu->form = HR_FORM_CONSUMER;
  gpu->backend = HR_BACKEND_CPU;
  gpu->stack = g_strdup ("CPU");
  gpu->memory_type = g_strdup ("system RAM");
  gpu->memory_gib = hr_to_gib (mem);
  gpu->bandwidth_gbs = system->ram_bandwidth_gbs;
  gpu->cpu_cores = system->physical_cores;
  gpu->host_ram_gib = hr_to_gib (system->mem_total);
  gpu->host_ram_gbs = isfinite (system->ram_bandwidth_gbs) ? system->ram_bandwidth_gbs : 0;
  gpu->confidence = g_strdup ("detected");
  gpu->source = g_strdup_printf ("detected (/proc/meminfo, /proc/cpuinfo); bandwidth: %s",
                                 system->ram_bandwidth_source ? system->ram_bandwidth_source : "unknown");
  return gpu;
}

/* Index of the first GPU of the largest group of alike, usable GPUs; -1 when none. */
static int
pick_group (const HrSystem *system,
            int            *count)
{
  int best = -1, best_count = 0;
  double best_cap = 0;

  for (guint i = 0; i < system->gpus->len; i++)
    {
      const HrDetectedGpu *a = g_ptr_array_index (system->gpus, i);
      double cap = gpu_capacity (system, a);
      int n = 0;

      if (!(cap > 0))
        continue;
      for (guint j = 0; j < system->gpus->len; j++)
        {
          const HrDetectedGpu *b = g_ptr_array_index (system->gpus, j);
          gboolean alike = a->match ? a->match == b->match
                                    : b->match == NULL && g_strcmp0 (a->name, b->name) == 0 &&
                                      a->pci_device == b->pci_device;
          if (alike && gpu_capacity (system, b) == cap)
            n++;
        }
      if (n > best_count || (n == best_count && cap > best_cap))
        {
          best = (int) i;
          best_count = n;
          best_cap = cap;
        }
    }
  *count = best_count;
  return best;
}

HrGpu *
hr_system_make_device (const HrSystem *system,
                       gboolean        free_memory,
                       int            *n_gpus)
{
  int count = 0, index;
  HrGpu *gpu;

  g_return_val_if_fail (system != NULL, NULL);
  index = pick_group (system, &count);
  if (n_gpus)
    *n_gpus = MAX (count, 1);
  gpu = index >= 0 ? hr_system_make_gpu_device (system, (guint) index, free_memory)
                   : hr_system_make_cpu_device (system, free_memory);
  if (gpu == NULL)
    return NULL;
  g_free (gpu->id);
  gpu->id = g_strdup ("this");
  return gpu;
}

double
hr_system_used_bytes (const HrSystem *system)
{
  int count = 0, index;

  g_return_val_if_fail (system != NULL, NAN);
  index = pick_group (system, &count);
  if (index >= 0)
    {
      const HrDetectedGpu *d = g_ptr_array_index (system->gpus, index);
      return gpu_used (system, d);
    }
  if (isfinite (system->mem_total) && isfinite (system->mem_available))
    return system->mem_total - system->mem_available;
  return NAN;
}

char **
hr_system_other_gpus (const HrSystem *system)
{
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();   /* const HrGpu*, in detection order */
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (int));
  GStrvBuilder *builder = g_strv_builder_new ();
  const HrDetectedGpu *first;
  int count = 0, index;
  char **out;

  g_return_val_if_fail (system != NULL, NULL);
  index = pick_group (system, &count);
  first = index >= 0 ? g_ptr_array_index (system->gpus, index) : NULL;
  for (guint i = 0; first != NULL && i < system->gpus->len; i++)
    {
      const HrDetectedGpu *d = g_ptr_array_index (system->gpus, i);
      guint k;

      /* the picked kind is "this"; an unmatched GPU has no catalog entry to size with */
      if (d->match == NULL || d->match == first->match || !(gpu_capacity (system, d) > 0) || d->integrated)
        continue;
      if (!g_ptr_array_find (kinds, d->match, &k))
        {
          int zero = 0;

          g_ptr_array_add (kinds, (gpointer) d->match);
          g_array_append_val (counts, zero);
          k = kinds->len - 1;
        }
      g_array_index (counts, int, k)++;
    }
  for (guint k = 0; k < kinds->len; k++)
    {
      g_autofree char *entry = g_strdup_printf ("%s:%d", ((const HrGpu *) g_ptr_array_index (kinds, k))->id,
                                                g_array_index (counts, int, k));
      g_strv_builder_add (builder, entry);
    }
  out = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return out;
}

gboolean
hr_detect_is_this_id (const char *id)
{
  return g_strcmp0 (id, "this") == 0 || g_strcmp0 (id, "this-free") == 0 ||
         g_strcmp0 (id, "this-cpu") == 0;
}

int
hr_system_add_to_catalog (const HrSystem *system,
                          HrCatalog      *catalog)
{
  HrGpu *total, *free_now;
  int n = 0;

  g_return_val_if_fail (system != NULL && catalog != NULL, 0);

  total = hr_system_make_device (system, FALSE, &n);
  if (total == NULL)
    return 0;
  free_now = isfinite (hr_system_used_bytes (system)) && hr_system_used_bytes (system) > 0
             ? hr_system_make_device (system, TRUE, NULL) : NULL;
  if (free_now != NULL)
    {
      g_free (free_now->id);
      free_now->id = g_strdup ("this-free");
      g_free (free_now->name);
      /* TRANSLATORS: the detected device sized against the memory free now, e.g.
       * "RTX 4090 24GB — free memory now" */
      free_now->name = g_strdup_printf (_("%s — free memory now"), total->name);
    }
  /* in the order the picker shows them */
  hr_catalog_add_gpu (catalog, total);
  if (free_now != NULL)
    hr_catalog_add_gpu (catalog, free_now);
  if (total->backend != HR_BACKEND_CPU)
    {
      HrGpu *cpu = hr_system_make_cpu_device (system, FALSE);
      if (cpu != NULL)
        hr_catalog_add_gpu (catalog, cpu);
    }
  return n;
}

void
hr_system_update_catalog (const HrSystem *system,
                          HrCatalog      *catalog)
{
  static const char *const ids[] = { "this", "this-free", "this-cpu" };

  g_return_if_fail (system != NULL && catalog != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      HrGpu *old = (HrGpu *) hr_catalog_find_gpu (catalog, ids[i]);
      g_autoptr(HrGpu) fresh = NULL;

      if (old == NULL)
        continue;
      fresh = i == 2 ? hr_system_make_cpu_device (system, FALSE)
                     : hr_system_make_device (system, i == 1, NULL);
      if (fresh == NULL)
        continue;
      /* what the RAM bandwidth decides; the rest (names, memory) stays as it was added */
      old->bandwidth_gbs = fresh->bandwidth_gbs;
      old->host_ram_gbs = fresh->host_ram_gbs;
      g_free (old->source);
      old->source = g_steal_pointer (&fresh->source);
    }
}
