/* test-detect.c — "This computer": detection on fake sysfs/procfs trees and a fake nvidia-smi,
 * matching to the catalog, the device built from it, and the estimate on that device. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-advice.h"
#include "hr-catalog.h"
#include "hr-detect.h"
#include "hr-estimate.h"
#include "hr-estimate-cpu.h"
#include "hr-units.h"

static HrCatalog *catalog;

#define MIB(x) ((double) (x) * HR_MIB)

/* A Ryzen 9 7950X: 16 cores, 32 threads (the topology lines as the kernel writes them). */
static char *
cpuinfo_7950x (void)
{
  GString *s = g_string_new (NULL);

  for (int i = 0; i < 32; i++)
    g_string_append_printf (s, "processor\t: %d\nvendor_id\t: AuthenticAMD\n"
                               "model name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
                               "physical id\t: 0\ncore id\t\t: %d\ncpu cores\t: 16\n\n", i, i / 2);
  return g_string_free (s, FALSE);
}

static const char meminfo_64g[] =
  "MemTotal:       67108864 kB\nMemFree:        60000000 kB\nMemAvailable:   65011712 kB\n";

/* A fake machine: files under a temporary root, and a bin/ directory that is all of PATH. */
typedef struct
{
  char *root;
  char *bin;
  char *old_path;
} Tree;

static void
tree_put (Tree       *t,
          const char *rel,
          const char *contents)
{
  g_autofree char *path = g_build_filename (t->root, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* A directory where a file is expected: open succeeds, read fails (tests run as root, so
 * chmod 000 would not stop them). */
static void
tree_unreadable (Tree       *t,
                 const char *rel)
{
  g_autofree char *path = g_build_filename (t->root, rel, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

static void
tree_smi (Tree       *t,
          const char *output)
{
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\nprintf '%s'\n", output);
  g_autofree char *path = g_build_filename (t->bin, "nvidia-smi", NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, script, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

static void
tree_amd_card (Tree       *t,
               const char *card,
               const char *device,
               const char *vram,
               const char *used,
               const char *gtt)
{
  g_autofree char *d = g_build_filename ("sys/class/drm", card, "device", NULL);
  g_autofree char *v = g_build_filename (d, "vendor", NULL);
  g_autofree char *dev = g_build_filename (d, "device", NULL);
  g_autofree char *vr = g_build_filename (d, "mem_info_vram_total", NULL);
  g_autofree char *us = g_build_filename (d, "mem_info_vram_used", NULL);
  g_autofree char *gt = g_build_filename (d, "mem_info_gtt_total", NULL);

  tree_put (t, v, "0x1002\n");
  tree_put (t, dev, device);
  tree_put (t, vr, vram);
  tree_put (t, us, used);
  tree_put (t, gt, gtt);
}

static Tree *
tree_new (gboolean with_proc)
{
  Tree *t = g_new0 (Tree, 1);
  g_autoptr(GError) error = NULL;

  t->root = g_dir_make_tmp ("headroom-detect-XXXXXX", &error);
  g_assert_no_error (error);
  t->bin = g_build_filename (t->root, "bin", NULL);
  g_assert_cmpint (g_mkdir_with_parents (t->bin, 0755), ==, 0);
  t->old_path = g_strdup (g_getenv ("PATH"));
  g_setenv ("PATH", t->bin, TRUE);
  if (with_proc)
    {
      g_autofree char *cpuinfo = cpuinfo_7950x ();
      tree_put (t, "proc/cpuinfo", cpuinfo);
      tree_put (t, "proc/meminfo", meminfo_64g);
    }
  return t;
}

static void
tree_free (Tree *t)
{
  g_autofree char *argv0 = NULL;
  const char *argv[] = { "/bin/rm", "-rf", t->root, NULL };

  g_setenv ("PATH", t->old_path ? t->old_path : "/usr/bin:/bin", TRUE);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (t->root);
  g_free (t->bin);
  g_free (t->old_path);
  g_free (t);
}

static HrSystem *
detect (Tree *t)
{
  HrSystem *sys = hr_system_detect_at (t->root, FALSE, HR_RAM_MEASURE_NEVER);

  hr_system_match (sys, catalog);
  return sys;
}

/* Whether the basis sentence of a speed names @figure ("83 GB/s"). */
static gboolean
basis_names (const HrBasis *basis,
             const char    *figure)
{
  g_autofree char *text = hr_basis_json (basis);

  return strstr (text, figure) != NULL;
}

/* qwen3-8b at Q4_K_M, 8K context, llama.cpp on @gpu × @n. */
static void
estimate_on (const HrGpu *gpu,
             int          n,
             HrEstimate  *est)
{
  HrScenario s;
  g_autoptr(GError) error = NULL;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-8b"), gpu);
  s.n_gpus = n;
  g_assert_true (hr_estimate_compute (&s, NULL, est, &error));
  g_assert_no_error (error);
}

/* ---- parsers ------------------------------------------------------------------------------ */

static void
test_parse_meminfo (void)
{
  double total, avail;

  hr_detect_parse_meminfo (meminfo_64g, sizeof meminfo_64g - 1, &total, &avail);
  g_assert_cmpfloat (total, ==, 64.0 * HR_GIB);
  g_assert_cmpfloat (avail, ==, 62.0 * HR_GIB);

  hr_detect_parse_meminfo ("MemTotal: 12 MB\nMemAvailable: -5 kB\n", 37, &total, &avail);
  g_assert_true (isnan (total) && isnan (avail));
  /* more available than installed: garbled, not believed */
  hr_detect_parse_meminfo ("MemTotal: 1024 kB\nMemAvailable: 2048 kB\n", 41, &total, &avail);
  g_assert_cmpfloat (total, ==, 1024.0 * 1024);
  g_assert_true (isnan (avail));
  /* the length is honoured: MemAvailable lies past it */
  hr_detect_parse_meminfo (meminfo_64g, 30, &total, &avail);
  g_assert_cmpfloat (total, ==, 64.0 * HR_GIB);
  g_assert_true (isnan (avail));
}

static void
test_parse_cpuinfo (void)
{
  /* two sockets × two cores × two threads */
  static const char two_sockets[] =
    "processor: 0\nphysical id: 0\ncore id: 0\nprocessor: 1\nphysical id: 0\ncore id: 0\n"
    "processor: 2\nphysical id: 0\ncore id: 1\nprocessor: 3\nphysical id: 0\ncore id: 1\n"
    "processor: 4\nphysical id: 1\ncore id: 0\nprocessor: 5\nphysical id: 1\ncore id: 0\n"
    "processor: 6\nphysical id: 1\ncore id: 1\nprocessor: 7\nphysical id: 1\ncore id: 1\n"
    "model name: Test\x01 CPU\n";
  static const char arm[] = "processor\t: 0\nBogoMIPS\t: 108.00\nprocessor\t: 1\nprocessor\t: 2\n"
                            "processor\t: 3\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0\n";
  g_autofree char *model = NULL, *vendor = NULL, *model2 = NULL, *vendor2 = NULL;
  int logical, physical;

  hr_detect_parse_cpuinfo (two_sockets, sizeof two_sockets - 1, &model, &vendor, &logical, &physical);
  g_assert_cmpint (logical, ==, 8);
  g_assert_cmpint (physical, ==, 4);
  g_assert_cmpstr (model, ==, "Test  CPU");   /* control character blanked */
  g_assert_null (vendor);

  hr_detect_parse_cpuinfo (arm, sizeof arm - 1, &model2, &vendor2, &logical, &physical);
  g_assert_cmpint (logical, ==, 4);
  g_assert_cmpint (physical, ==, 4);
  g_assert_cmpstr (model2, ==, "Raspberry Pi 5 Model B Rev 1.0");
}

static void
test_parse_nvidia_smi (void)
{
  static const char out[] =
    "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1234\n"
    "1, NVIDIA H100 80GB HBM3, 0x233010DE, [N/A], [N/A]\n"
    "garbage line\n"
    "2, too, few\n"
    "x, NVIDIA A, 0x1, 1, 1\n"
    "3, NVIDIA B, 0x1, 100, 200\n";
  g_autoptr(GPtrArray) gpus = hr_detect_parse_nvidia_smi (out, sizeof out - 1);
  const HrDetectedGpu *a, *b, *c;

  g_assert_cmpuint (gpus->len, ==, 3);
  a = gpus->pdata[0];
  b = gpus->pdata[1];
  c = gpus->pdata[2];
  g_assert_cmpstr (a->name, ==, "NVIDIA GeForce RTX 4090");
  g_assert_cmphex (a->pci_vendor, ==, 0x10de);
  g_assert_cmphex (a->pci_device, ==, 0x2684);
  g_assert_cmpfloat (a->vram_total, ==, MIB (24564));
  g_assert_cmpfloat (a->vram_used, ==, MIB (1234));
  g_assert_true (isnan (b->vram_total) && isnan (b->vram_used));
  /* more used than total is garbage: the used figure is dropped */
  g_assert_cmpfloat (c->vram_total, ==, MIB (100));
  g_assert_true (isnan (c->vram_used));
}

/* "key: value" lines are read up to 256 bytes (meminfo), nvidia-smi lines up to 1024; a longer
 * line is skipped whole, not cut. */
static char *
padded_line (const char *head,
             const char *tail,
             gsize       len)
{
  g_autofree char *pad = g_strnfill (len - strlen (head) - strlen (tail), ' ');

  return g_strconcat (head, pad, tail, "\n", NULL);
}

static void
test_parse_long_lines (void)
{
  g_autofree char *mem_256 = padded_line ("MemTotal:", "1024 kB", 256);
  g_autofree char *mem_257 = padded_line ("MemTotal:", "1024 kB", 257);
  g_autofree char *smi_1024 = padded_line ("0, NVIDIA A,", "0x1, 100, 50", 1024);
  g_autofree char *smi_1025 = padded_line ("0, NVIDIA A,", "0x1, 100, 50", 1025);
  g_autoptr(GPtrArray) read = hr_detect_parse_nvidia_smi (smi_1024, strlen (smi_1024));
  g_autoptr(GPtrArray) skipped = hr_detect_parse_nvidia_smi (smi_1025, strlen (smi_1025));
  double total, avail;

  hr_detect_parse_meminfo (mem_256, strlen (mem_256), &total, &avail);
  g_assert_cmpfloat (total, ==, 1024.0 * 1024);
  hr_detect_parse_meminfo (mem_257, strlen (mem_257), &total, &avail);
  g_assert_true (isnan (total));

  g_assert_cmpuint (read->len, ==, 1);
  g_assert_cmpstr (((HrDetectedGpu *) read->pdata[0])->name, ==, "NVIDIA A");
  g_assert_cmpfloat (((HrDetectedGpu *) read->pdata[0])->vram_used, ==, MIB (50));
  g_assert_cmpuint (skipped->len, ==, 0);
}

static void
test_parse_sysfs (void)
{
  guint64 v;

  g_assert_true (hr_detect_parse_sysfs_u64 ("0x1002\n", 7, &v));
  g_assert_cmphex (v, ==, 0x1002);
  g_assert_true (hr_detect_parse_sysfs_u64 ("25753026560\n", 12, &v));
  g_assert_cmpuint (v, ==, G_GUINT64_CONSTANT (25753026560));
  g_assert_false (hr_detect_parse_sysfs_u64 ("0xZZ", 4, &v));
  g_assert_false (hr_detect_parse_sysfs_u64 ("-1", 2, &v));
  g_assert_false (hr_detect_parse_sysfs_u64 ("", 0, &v));
  g_assert_false (hr_detect_parse_sysfs_u64 ("99999999999999999999999", 23, &v));
}

static void
test_cpu_table (void)
{
  const char *source = NULL;

  g_assert_cmpfloat_with_epsilon (hr_detect_cpu_bandwidth ("AMD Ryzen 9 7950X 16-Core Processor", &source), 83.2, 1e-9);
  g_assert_nonnull (source);
  g_assert_cmpfloat_with_epsilon (hr_detect_cpu_bandwidth ("13th Gen Intel(R) Core(TM) i9-13900K", NULL), 89.6, 1e-9);
  g_assert_true (isnan (hr_detect_cpu_bandwidth ("AMD EPYC", &source)));
  g_assert_null (source);
}

/* ---- machines ----------------------------------------------------------------------------- */

static void
test_one_nvidia (void)
{
  Tree *t = tree_new (TRUE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL, dev_free = NULL;
  const HrDetectedGpu *d;
  HrEstimate est, est_free;
  int n = 0;

  tree_smi (t, "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n");
  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 1);
  d = sys->gpus->pdata[0];
  g_assert_cmpint (d->source, ==, HR_DETECT_NVIDIA_SMI);
  g_assert_nonnull (d->match);
  g_assert_cmpstr (d->match->id, ==, "rtx-4090-24gb");
  g_assert_cmpstr (d->match_by, ==, "PCI id");

  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpstr (dev->id, ==, "this");
  g_assert_cmpfloat (dev->memory_gib * HR_GIB, ==, MIB (24564));
  g_assert_cmpfloat (dev->bandwidth_gbs, ==, 1008);     /* the catalog's figure */
  g_assert_cmpint (dev->backend, ==, HR_BACKEND_CUDA);
  g_assert_cmpfloat (hr_system_used_bytes (sys), ==, MIB (1331));

  estimate_on (dev, n, &est);
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpfloat (est.physical_bytes, ==, MIB (24564));
  g_assert_cmpfloat_with_epsilon (est.usable_bytes, MIB (24564) * 0.95, 1);
  g_assert_cmpfloat (est.decode_tps, >, 80);            /* GDDR6X speed, not RAM */

  /* offload reads the detected RAM (83.2 GB/s), and its real size bounds the offloaded part */
  {
    HrScenario s;
    HrEstimate off;
    g_autoptr(GPtrArray) diag = NULL;
    gboolean warned = FALSE;

    hr_scenario_init (&s, hr_catalog_find_model (catalog, "llama-3.1-405b"), dev);
    s.offload_pct = 90;
    g_assert_cmpfloat (hr_estimate_host_bandwidth (&s), ==, 83.2e9);
    g_assert_true (hr_estimate_compute (&s, NULL, &off, NULL));
    g_assert_cmpfloat (off.system_ram_bytes, >, 64 * HR_GIB);
    diag = hr_advice_diagnosis (&s, &off, catalog);
    for (guint i = 0; i < diag->len; i++)
      warned |= strstr (g_ptr_array_index (diag, i), "more than this computer's 64 GiB of RAM") != NULL;
    g_assert_true (warned);
  }

  /* free memory: the desktop's 1.3 GiB come off, nothing else changes */
  dev_free = hr_system_make_device (sys, TRUE, &n);
  estimate_on (dev_free, n, &est_free);
  g_assert_cmpfloat (est_free.physical_bytes, ==, MIB (24564 - 1331));
  g_assert_cmpfloat (est_free.required_bytes, ==, est.required_bytes);
  g_assert_cmpfloat (est_free.decode_tps, ==, est.decode_tps);
  tree_free (t);
}

static void
test_two_nvidia (void)
{
  Tree *t = tree_new (TRUE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL;
  HrEstimate est;
  int n = 0;

  tree_smi (t, "0, NVIDIA H100 80GB HBM3, 0x233010DE, 81559, 4\\n1, NVIDIA H100 80GB HBM3, 0x233010DE, 81559, 4\\n");
  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpstr (((HrDetectedGpu *) sys->gpus->pdata[i])->match->id, ==, "h100-80gb-sxm");
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_cmpint (n, ==, 2);                            /* offered as the GPU count */
  g_assert_cmpfloat (dev->bandwidth_gbs, ==, 3350);
  estimate_on (dev, n, &est);
  g_assert_cmpfloat (est.physical_bytes, ==, 2 * MIB (81559));
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  tree_free (t);
}

static void
test_amd_dgpu (void)
{
  Tree *t = tree_new (TRUE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL;
  const HrDetectedGpu *d;
  HrEstimate est;
  int n = 0;

  tree_amd_card (t, "card1", "0x744c\n", "25753026560\n", "1395864371\n", "33554432000\n");
  tree_put (t, "sys/class/drm/card1-DP-1/status", "connected\n");       /* a connector, not a card */
  tree_put (t, "sys/class/drm/card0/device/vendor", "0x1234\n");       /* QEMU's display adapter */
  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 1);
  d = sys->gpus->pdata[0];
  g_assert_false (d->integrated);
  /* 744c is both the 7900 XT and XTX: the detected 24 GiB picks the XTX */
  g_assert_cmpstr (d->match->id, ==, "rx-7900-xtx-24gb");
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_cmpint (dev->backend, ==, HR_BACKEND_ROCM);
  g_assert_cmpfloat (dev->memory_gib * HR_GIB, ==, 25753026560.0);
  g_assert_cmpfloat (hr_system_used_bytes (sys), ==, 1395864371.0);
  estimate_on (dev, n, &est);
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpfloat (est.physical_bytes, ==, 25753026560.0);
  tree_free (t);
}

/* The catalog's Strix Halo entry on a detected device: its generation, measured bandwidth and
 * sources, where detection alone knows none of them. */
static void
assert_strix_halo_facts (const HrGpu *dev,
                         const char  *name)
{
  g_assert_cmpint (dev->form, ==, HR_FORM_UNIFIED);
  g_assert_cmpint (dev->backend, ==, HR_BACKEND_ROCM);
  g_assert_cmpint (dev->generation, ==, HR_GEN_RDNA3_5);
  g_assert_cmpfloat (dev->bandwidth_gbs, ==, 256);
  g_assert_cmpfloat (dev->bandwidth_measured_gbs, ==, 212);
  g_assert_nonnull (strstr (dev->bandwidth_measured_source, "rocm_bandwidth_test"));
  g_assert_cmpstr (dev->name, ==, name);
  g_assert_cmpstr (dev->detected_as, ==, "ryzen-ai-max-395-128gb");
  g_assert_nonnull (strstr (dev->source, "specs: catalog ryzen-ai-max-395-128gb"));
}

/* The decode speed on @dev and on the catalog's entry with @dev's memory: the same, since what
 * sets it (the measured bandwidth, not the 0.736 default share of the peak) is the entry's. */
static void
assert_decode_as_catalog (const HrGpu *dev,
                          const char  *catalog_id)
{
  g_autoptr(HrGpu) listed = hr_gpu_copy (hr_catalog_find_gpu (catalog, catalog_id));
  HrEstimate a, b;

  listed->memory_gib = dev->memory_gib;
  listed->unified_share = dev->unified_share;
  estimate_on (dev, 1, &a);
  estimate_on (listed, 1, &b);
  g_assert_true (isfinite (a.decode_tps));
  g_assert_cmpfloat_with_epsilon (a.decode_tps, b.decode_tps, 1e-9);
}

static void
test_amd_apu (void)
{
  Tree *t = tree_new (FALSE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL;
  const HrDetectedGpu *d;
  HrEstimate est;
  int n = 0;

  tree_put (t, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                               "model name\t: AMD RYZEN AI MAX+ 395 w/ Radeon 8060S\n");
  tree_put (t, "proc/meminfo", "MemTotal:       130023424 kB\nMemAvailable:   120000000 kB\n");
  /* a 512 MiB carve-out and 62 GiB of GTT; no revision file: the CPU model names the GPU */
  tree_amd_card (t, "card0", "0x1586\n", "536870912\n", "209715200\n", "66571993088\n");
  sys = detect (t);
  g_assert_cmpfloat (sys->ram_bandwidth_gbs, ==, 256);
  d = sys->gpus->pdata[0];
  g_assert_true (d->integrated);
  g_assert_nonnull (d->match);
  g_assert_cmpstr (d->match->id, ==, "ryzen-ai-max-395-128gb");
  g_assert_cmpstr (d->match_by, ==, "CPU model");
  dev = hr_system_make_device (sys, FALSE, &n);
  assert_strix_halo_facts (dev, "Ryzen AI Max+ 395 128GB (Strix Halo)");
  /* the memory the GPU may map here, not the entry's 128 GB */
  g_assert_cmpfloat (dev->memory_gib * HR_GIB, ==, 536870912.0 + 66571993088.0);
  g_assert_cmpfloat (dev->unified_share, ==, 1.0 - HR_DEFAULT_RESERVE);
  g_assert_cmpfloat (dev->price_usd, ==, 1999);          /* 124 GiB + 0.5: the 128 GB machine */
  g_assert_cmpfloat (dev->fp16_tflops, ==, 39.1);        /* the entry's, at the clock held under load */
  estimate_on (dev, n, &est);
  g_assert_cmpfloat_with_epsilon (est.usable_bytes, (536870912.0 + 66571993088.0) * 0.95, 1);
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  g_assert_true (isfinite (est.decode_tps));
  g_assert_true (isfinite (est.prefill_tps));
  assert_decode_as_catalog (dev, "ryzen-ai-max-395-128gb");
  tree_free (t);
}

/* A 64 GB Strix Halo as its sysfs shows it: 1002:1586 rev c1 (a Radeon 8060S, libdrm's
 * amdgpu.ids) matches the one (128 GB) catalog entry by PCI id; the machine keeps its own
 * memory, and the entry's price and the size in its name, those of the 128 GB configuration,
 * are dropped. */
static void
test_strix_halo_64g (void)
{
  Tree *t = tree_new (FALSE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL, dev_free = NULL;
  const HrDetectedGpu *d;
  int n = 0;

  /* MemTotal of a 64 GB Ryzen AI Max+ 395 machine as a public benchmark report gives it */
  tree_put (t, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                               "model name\t: AMD RYZEN AI MAX+ 395 w/ Radeon 8060S\n");
  tree_put (t, "proc/meminfo", "MemTotal:       64566284 kB\nMemAvailable:   60000000 kB\n");
  tree_amd_card (t, "card1", "0x1586\n", "536870912\n", "104857600\n", "33056894976\n");
  tree_put (t, "sys/class/drm/card1/device/revision", "0xc1\n");
  sys = detect (t);
  d = sys->gpus->pdata[0];
  g_assert_true (d->has_revision);
  g_assert_cmpuint (d->pci_revision, ==, 0xc1);
  g_assert_nonnull (d->match);
  g_assert_cmpstr (d->match->id, ==, "ryzen-ai-max-395-128gb");
  g_assert_cmpstr (d->match_by, ==, "PCI id");
  dev = hr_system_make_device (sys, FALSE, &n);
  /* nor the 128 GB in its name */
  assert_strix_halo_facts (dev, "Ryzen AI Max+ 395 (Strix Halo)");
  g_assert_cmpfloat (dev->memory_gib * HR_GIB, ==, 536870912.0 + 33056894976.0);
  g_assert_true (isnan (dev->price_usd));
  g_assert_null (dev->price_note);
  g_assert_cmpfloat (hr_system_used_bytes (sys), ==, 104857600.0);
  dev_free = hr_system_make_device (sys, TRUE, NULL);
  g_assert_cmpfloat (dev_free->memory_gib * HR_GIB, ==, 536870912.0 + 33056894976.0 - 104857600.0);
  assert_decode_as_catalog (dev, "ryzen-ai-max-395-128gb");
  tree_free (t);
}

/* One AMD device id is several products, told apart by the revision (libdrm's amdgpu.ids):
 * only those the catalog has match, whatever the memory or the CPU model would suggest. */
static void
test_amd_revisions (void)
{
  static const struct
  {
    const char *device, *revision, *vram, *gtt, *cpu;
    const char *expect;     /* NULL: no match */
  } cases[] = {
    /* Ryzen AI Max 390: an 8050S (32 CUs), not the catalog's 8060S */
    { "0x1586", "0xc2", "536870912", "33056894976", "AMD Ryzen AI Max 390 w/ Radeon 8050S", NULL },
    /* an 8060S whose CPU model does not say so: the revision does */
    { "0x1586", "0xd1", "536870912", "33056894976", "AMD Eng Sample", "ryzen-ai-max-395-128gb" },
    { "0x7550", "0xc0", "17095983104", "33056894976", NULL, "rx-9070-xt-16gb" },
    { "0x7550", "0xc3", "17095983104", "33056894976", NULL, NULL },          /* RX 9070 */
    { "0x7551", "0xc0", "34342961152", "33056894976", NULL, "radeon-ai-pro-r9700-32gb" },
    { "0x744c", "0xcc", "21458059264", "33056894976", NULL, "rx-7900-xt-20gb" },
    /* a 7900 GRE (16 GB) shares 744c: not the XT its memory is nearest to */
    { "0x744c", "0xce", "17163091968", "33056894976", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Tree *t = tree_new (cases[i].cpu == NULL);
      g_autoptr(HrSystem) sys = NULL;
      g_autofree char *dev = g_strdup_printf ("%s\n", cases[i].device);
      g_autofree char *vram = g_strdup_printf ("%s\n", cases[i].vram);
      g_autofree char *gtt = g_strdup_printf ("%s\n", cases[i].gtt);
      g_autofree char *rev = g_strdup_printf ("%s\n", cases[i].revision);
      const HrDetectedGpu *d;

      if (cases[i].cpu != NULL)
        {
          g_autofree char *cpuinfo = g_strdup_printf ("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                                                      "model name\t: %s\n", cases[i].cpu);
          tree_put (t, "proc/cpuinfo", cpuinfo);
          tree_put (t, "proc/meminfo", meminfo_64g);
        }
      tree_amd_card (t, "card0", dev, vram, "0\n", gtt);
      tree_put (t, "sys/class/drm/card0/device/revision", rev);
      sys = detect (t);
      g_assert_cmpuint (sys->gpus->len, ==, 1);
      d = sys->gpus->pdata[0];
      g_test_message ("%s rev %s", cases[i].device, cases[i].revision);
      if (cases[i].expect == NULL)
        g_assert_null (d->match);
      else
        {
          g_assert_nonnull (d->match);
          g_assert_cmpstr (d->match->id, ==, cases[i].expect);
          g_assert_cmpstr (d->match_by, ==, "PCI id");
        }
      tree_free (t);
    }
}

/* A DGX Spark: nvidia-smi names the GPU "NVIDIA GB10" and reports no memory ([N/A]: unified
 * LPDDR5X, NVIDIA's DGX Spark known issues); the catalog entry is matched by that name and
 * the memory is the machine's RAM (MemTotal of a GB10 box as a public hardware listing
 * gives it), its share of it the entry's, as when the DGX Spark is picked from the list. */
static void
test_gb10 (void)
{
  Tree *t = tree_new (FALSE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL, dev_free = NULL;
  const HrDetectedGpu *d;
  const HrGpu *listed = hr_catalog_find_gpu (catalog, "dgx-spark-128gb");
  HrEstimate est;
  int n = 0;

  /* aarch64: no "model name" line */
  tree_put (t, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n");
  tree_put (t, "proc/meminfo", "MemTotal:       127598748 kB\nMemAvailable:   120000000 kB\n");
  tree_smi (t, "0, NVIDIA GB10, 0x2E1210DE, [N/A], [N/A]\\n");
  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 1);
  d = sys->gpus->pdata[0];
  g_assert_true (isnan (d->vram_total));
  g_assert_nonnull (d->match);
  g_assert_cmpstr (d->match->id, ==, "dgx-spark-128gb");
  g_assert_cmpstr (d->match_by, ==, "name");
  g_assert_true (d->integrated);
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_nonnull (dev);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpint (dev->form, ==, HR_FORM_UNIFIED);
  g_assert_cmpint (dev->generation, ==, HR_GEN_BLACKWELL);
  g_assert_cmpfloat (dev->memory_gib * HR_GIB, ==, 127598748.0 * 1024);
  g_assert_cmpfloat (dev->bandwidth_gbs, ==, 273);
  g_assert_cmpfloat (dev->fp16_tflops, ==, listed->fp16_tflops);
  g_assert_cmpfloat (dev->unified_share, ==, listed->unified_share);
  g_assert_cmpfloat (dev->price_usd, ==, 3999);          /* 121.7 GiB: the 128 GB machine */
  g_assert_cmpstr (dev->name, ==, "DGX Spark (GB10 128GB)");
  /* in use now: the RAM in use, as NVIDIA tells DGX Spark users to read it */
  g_assert_cmpfloat (hr_system_used_bytes (sys), ==, (127598748.0 - 120000000.0) * 1024);
  dev_free = hr_system_make_device (sys, TRUE, NULL);
  g_assert_cmpfloat (dev_free->memory_gib * HR_GIB, ==, 120000000.0 * 1024);
  estimate_on (dev, n, &est);
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  assert_decode_as_catalog (dev, "dgx-spark-128gb");
  tree_free (t);
}

static void
test_no_gpu (void)
{
  Tree *t = tree_new (TRUE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL, dev_free = NULL;
  HrEstimate est;
  double expect;
  int n = 0;

  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 0);
  g_assert_cmpint (sys->physical_cores, ==, 16);
  g_assert_cmpint (sys->logical_cpus, ==, 32);
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpint (dev->backend, ==, HR_BACKEND_CPU);
  g_assert_cmpfloat (dev->memory_gib, ==, 64);
  g_assert_cmpfloat_with_epsilon (dev->bandwidth_gbs, 83.2, 1e-9);
  g_assert_cmpfloat (hr_system_used_bytes (sys), ==, 2.0 * HR_GIB);

  estimate_on (dev, n, &est);
  /* everything lives in RAM: nothing is "offloaded", the embedding included */
  g_assert_cmpfloat (est.system_ram_bytes, ==, 0);
  g_assert_cmpfloat (est.weights_gpu, ==, est.weights.bytes - est.weights.mtp_bytes);
  g_assert_cmpfloat (est.physical_bytes, ==, 64 * HR_GIB);
  g_assert_cmpint (est.verdict, ==, HR_VERDICT_FITS);
  /* decode streams the active weights from RAM at 83.2 GB/s: about 9–10 tok/s, not a GPU's */
  expect = 83.2e9 * est.decode_efficiency / est.bytes_per_token;
  g_assert_cmpfloat (est.decode_tps, <=, expect);
  g_assert_cmpfloat (est.decode_tps, >, expect * 0.9);
  g_assert_false (est.compute_bound);
  g_assert_cmpfloat (est.decode_tps, >, 8);
  g_assert_cmpfloat (est.decode_tps, <, 11);
  g_assert_true (basis_names (&est.decode_basis, "83 GB/s"));
  /* prefill from the sixteen cores */
  g_assert_true (basis_names (&est.prefill_basis, "16 CPU cores"));
  g_assert_cmpfloat (est.prefill_tps, <=, 16 * HR_CPU_PREFILL_FLOPS_PER_CORE / est.flops_per_token);
  g_assert_cmpfloat (est.prefill_tps, >, 30);
  g_assert_cmpfloat (est.prefill_tps, <, 80);

  /* A model that does not fit the machine's RAM: more of this one machine is no fix, so the
   * advice offers a smaller quant or context, never "use 4 GPUs". */
  {
    HrScenario s;
    HrFix fix;
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GError) error = NULL;
    HrEstimate big;

    hr_scenario_init (&s, hr_catalog_find_model (catalog, "glm-4.5-air"), dev);
    g_assert_true (hr_estimate_compute (&s, NULL, &big, &error));
    g_assert_cmpint (big.verdict, ==, HR_VERDICT_EXCEEDS);
    g_assert_cmpint (hr_advice_min_gpus (&s, 64), ==, 0);
    lines = hr_advice_diagnosis (&s, &big, catalog);
    for (guint i = 0; i < lines->len; i++)
      {
        g_assert_null (strstr (lines->pdata[i], "GPU"));
        g_assert_null (strstr (lines->pdata[i], "system RAM"));   /* no offload, no --n-cpu-moe */
      }
    if (hr_advice_fix (&s, catalog, NULL, &fix))
      {
        g_assert_cmpint (fix.kind, !=, HR_FIX_GPUS);
        g_assert_cmpint (fix.kind, !=, HR_FIX_OFFLOAD);
        g_assert_cmpint (fix.scenario.n_gpus, ==, 1);
      }
  }

  dev_free = hr_system_make_device (sys, TRUE, &n);
  g_assert_cmpfloat (dev_free->memory_gib, ==, 62);
  tree_free (t);
}

static void
test_unreadable (void)
{
  Tree *t = tree_new (FALSE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL;
  int n = 0;

  tree_unreadable (t, "proc/meminfo");
  tree_unreadable (t, "sys/class/drm/card0/device/vendor");
  tree_smi (t, "");
  sys = detect (t);
  g_assert_cmpuint (sys->gpus->len, ==, 0);
  g_assert_true (isnan (sys->mem_total));
  g_assert_cmpuint (sys->notes->len, >=, 3);           /* meminfo, cpuinfo, vendor */
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_null (dev);                                   /* nothing usable: no device, no crash */
  g_assert_null (hr_system_make_cpu_device (sys, TRUE));
  tree_free (t);
}

static void
test_garbage (void)
{
  Tree *t = tree_new (FALSE);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) dev = NULL;
  const HrDetectedGpu *nv, *amd;
  HrEstimate est;
  int n = 0;

  tree_put (t, "proc/meminfo", "MemTotal: lots kB\nMemAvailable: 5 kB\n\xff\xfe\n");
  tree_put (t, "proc/cpuinfo", "processor : x\nmodel name : \n");
  tree_smi (t, "%%%%%%\\n0, NVIDIA GeForce RTX 4090, 0x268410DE, [N/A], [Not Supported]\\n,,,,\\n");
  tree_amd_card (t, "card0", "0xZZZZ\n", "0x\n", "-5\n", "99999999999999999999999\n");
  sys = detect (t);
  g_assert_true (isnan (sys->mem_total));
  g_assert_null (sys->cpu_model);
  g_assert_cmpint (sys->logical_cpus, ==, 0);
  g_assert_cmpuint (sys->gpus->len, ==, 2);
  nv = sys->gpus->pdata[0];
  amd = sys->gpus->pdata[1];
  g_assert_true (isnan (nv->vram_total));
  g_assert_cmpstr (nv->match->id, ==, "rtx-4090-24gb");
  g_assert_cmphex (amd->pci_device, ==, 0);
  g_assert_true (isnan (amd->vram_total) && isnan (amd->vram_used) && isnan (amd->gtt_total));
  g_assert_null (amd->match);
  /* the matched card, its memory from the catalog since the driver gave none */
  dev = hr_system_make_device (sys, FALSE, &n);
  g_assert_nonnull (dev);
  g_assert_cmpfloat (dev->memory_gib, ==, 24);
  g_assert_true (isnan (hr_system_used_bytes (sys)));
  estimate_on (dev, n, &est);
  g_assert_cmpfloat (est.physical_bytes, ==, 24 * HR_GIB);
  tree_free (t);
}

/* `--backend cpu` on a GPU ran at the GPU's bandwidth; it runs from system RAM. */
/* Two lines for one index (a wrapper that prints the list twice) are one GPU. */
static void
test_parse_nvidia_smi_duplicates (void)
{
  static const char out[] =
    "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1234\n"
    "1, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 0\n"
    "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1234\n"
    "1, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 0\n";
  g_autoptr(GPtrArray) gpus = hr_detect_parse_nvidia_smi (out, sizeof out - 1);

  g_assert_cmpuint (gpus->len, ==, 2);
  g_assert_cmpfloat (((HrDetectedGpu *) gpus->pdata[0])->vram_used, ==, MIB (1234));
  g_assert_cmpfloat (((HrDetectedGpu *) gpus->pdata[1])->vram_used, ==, 0);
}

static gboolean
has_note (const HrSystem *sys,
          const char     *text)
{
  for (guint i = 0; i < sys->notes->len; i++)
    if (strstr (g_ptr_array_index (sys->notes, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* An nvidia-smi that never stops printing (`cat /dev/zero`, 4.2 GB in the 5 s it was given):
 * read up to HR_DETECT_MAX_TEXT, then stopped, nothing kept; one that hangs: stopped at the
 * deadline with what it runs. */
static void
test_smi_endless (void)
{
  Tree *t = tree_new (TRUE);
  g_autofree char *path = g_build_filename (t->bin, "nvidia-smi", NULL);
  g_autoptr(HrSystem) sys = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (path, "#!/bin/sh\nexec /bin/cat /dev/zero\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  start = g_get_monotonic_time ();
  sys = detect (t);
  g_test_message ("endless nvidia-smi: %.2f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (sys->gpus->len, ==, 0);
  g_assert_true (has_note (sys, "nvidia-smi failed: more than 4 MiB of output"));
  g_assert_cmpfloat (sys->mem_total, ==, 64.0 * HR_GIB);
  g_clear_pointer (&sys, hr_system_free);

  /* a wrapper whose child hangs: the whole group is stopped at the deadline */
  g_assert_true (g_file_set_contents (path, "#!/bin/sh\nprintf '0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1\\n'\n"
                                            "/bin/sleep 600\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  start = g_get_monotonic_time ();
  sys = detect (t);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  g_assert_cmpuint (sys->gpus->len, ==, 0);
  g_assert_true (has_note (sys, "nvidia-smi failed: no answer within 5 s"));
  tree_free (t);
}

static void
detect_fifo_meminfo_child (void)
{
  Tree *t = tree_new (FALSE);
  g_autofree char *meminfo = g_build_filename (t->root, "proc", "meminfo", NULL);
  g_autofree char *cpuinfo = g_build_filename (t->root, "proc", "cpuinfo", NULL);
  g_autoptr(HrSystem) sys = NULL;

  g_assert_cmpint (g_mkdir_with_parents (t->root, 0755), ==, 0);
  tree_put (t, "proc/version", "Linux\n");
  g_assert_cmpint (mkfifo (meminfo, 0600), ==, 0);
  /* and a device: read without end before */
  g_assert_cmpint (symlink ("/dev/zero", cpuinfo), ==, 0);
  sys = detect (t);
  g_assert_true (isnan (sys->mem_total));
  g_assert_true (has_note (sys, "cannot read proc/meminfo: not a regular file"));
  g_assert_true (has_note (sys, "cannot read proc/cpuinfo: not a regular file"));
  tree_free (t);
}

/* A FIFO at proc/meminfo under HEADROOM_SYSROOT blocked open () for ever; a symlink to
 * /dev/zero at proc/cpuinfo was read to the cap.  Both are refused at once (run in a child
 * with a generous deadline, so the old behaviour fails instead of hanging the suite). */
static void
test_fifo_and_device (void)
{
  if (g_test_subprocess ())
    {
      detect_fifo_meminfo_child ();
      return;
    }
  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_cpu_backend_on_gpu (void)
{
  const HrGpu *gpu = hr_catalog_find_gpu (catalog, "rtx-4090-24gb");
  HrScenario s;
  HrEstimate gpu_est, cpu_est;

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "qwen3-8b"), gpu);
  g_assert_true (hr_estimate_compute (&s, NULL, &gpu_est, NULL));
  s.backend = HR_BACKEND_CPU;
  s.backend_set = TRUE;
  g_assert_true (hr_estimate_compute (&s, NULL, &cpu_est, NULL));
  /* consumer desktops: ~80 GB/s of DDR5 behind the card, 12x less than its 1008 GB/s */
  g_assert_cmpfloat (cpu_est.decode_tps, <, gpu_est.decode_tps / 8);
  g_assert_true (basis_names (&cpu_est.decode_basis, "80 GB/s"));
  /* the host's cores are unknown for a catalog GPU: prefill is unknown, not invented */
  g_assert_true (isnan (cpu_est.prefill_tps));
  s.sysram_bandwidth_gbs = 160;
  g_assert_true (hr_estimate_compute (&s, NULL, &gpu_est, NULL));
  g_assert_cmpfloat (gpu_est.decode_tps, >, cpu_est.decode_tps * 1.8);
}

/* This computer is not hardware to recommend (issue 26, item 3): the app adds it to its catalog
 * ("AMD EPYC + system RAM — free memory now"), the CLI's catalog never holds it, and both must
 * name the same smallest GPU in the quant matrix: hr_advice_quant_matrix() leaves it out. */
static void
test_this_not_recommended (void)
{
  Tree *t = tree_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCatalog) with_this = hr_catalog_new_default (&error);
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(GArray) plain = NULL;
  g_autoptr(GArray) rows = NULL;
  HrRecommendations rec;
  HrScenario s;

  g_assert_no_error (error);
  /* 84 GiB of RAM, 2 GiB in use: a CPU device smaller than any 94 GB GPU */
  tree_put (t, "proc/meminfo",
            "MemTotal:       88080384 kB\nMemFree:        80000000 kB\nMemAvailable:   85983232 kB\n");
  sys = detect (t);
  g_assert_cmpint (hr_system_add_to_catalog (sys, with_this), >, 0);
  g_assert_nonnull (hr_catalog_find_gpu (with_this, "this-free"));

  hr_scenario_init (&s, hr_catalog_find_model (catalog, "glm-4.5-air"),
                    hr_catalog_find_gpu (catalog, "rtx-4090-24gb"));
  plain = hr_advice_quant_matrix (&s, catalog, NULL);
  s.gpu = hr_catalog_find_gpu (with_this, "rtx-4090-24gb");
  s.model = hr_catalog_find_model (with_this, "glm-4.5-air");
  rows = hr_advice_quant_matrix (&s, with_this, NULL);
  g_assert_cmpuint (rows->len, ==, plain->len);
  for (guint i = 0; i < rows->len; i++)
    {
      const HrPick *a = &g_array_index (rows, HrMatrixRow, i).smallest;
      const HrPick *b = &g_array_index (plain, HrMatrixRow, i).smallest;

      if (a->count > 0 && hr_detect_is_this_id (a->gpu->id))
        g_error ("%s: the matrix recommends this computer (%s)",
                 g_array_index (rows, HrMatrixRow, i).quant->id, a->gpu->name);
      g_assert_cmpint (a->count, ==, b->count);
      if (a->count > 0)
        g_assert_cmpstr (a->gpu->id, ==, b->gpu->id);
    }

  hr_advice_recommend (&s, with_this, NULL, &rec);
  g_assert_true (!rec.have_single || !hr_detect_is_this_id (rec.best_single.gpu->id));
  g_assert_true (!rec.have_value || !hr_detect_is_this_id (rec.best_value.gpu->id));
  g_assert_true (!rec.have_unified || !hr_detect_is_this_id (rec.unified.gpu->id));
  tree_free (t);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  catalog = hr_catalog_new_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/detect/parse/meminfo", test_parse_meminfo);
  g_test_add_func ("/detect/parse/cpuinfo", test_parse_cpuinfo);
  g_test_add_func ("/detect/parse/nvidia-smi", test_parse_nvidia_smi);
  g_test_add_func ("/detect/parse/long-lines", test_parse_long_lines);
  g_test_add_func ("/detect/parse/nvidia-smi-duplicates", test_parse_nvidia_smi_duplicates);
  g_test_add_func ("/detect/smi-endless", test_smi_endless);
  g_test_add_func ("/detect/fifo-and-device", test_fifo_and_device);
  g_test_add_func ("/detect/parse/sysfs", test_parse_sysfs);
  g_test_add_func ("/detect/cpu-table", test_cpu_table);
  g_test_add_func ("/detect/one-nvidia", test_one_nvidia);
  g_test_add_func ("/detect/two-nvidia", test_two_nvidia);
  g_test_add_func ("/detect/amd-dgpu", test_amd_dgpu);
  g_test_add_func ("/detect/amd-apu", test_amd_apu);
  g_test_add_func ("/detect/strix-halo-64g", test_strix_halo_64g);
  g_test_add_func ("/detect/amd-revisions", test_amd_revisions);
  g_test_add_func ("/detect/gb10", test_gb10);
  g_test_add_func ("/detect/no-gpu", test_no_gpu);
  g_test_add_func ("/detect/unreadable", test_unreadable);
  g_test_add_func ("/detect/garbage", test_garbage);
  g_test_add_func ("/detect/cpu-backend-on-gpu", test_cpu_backend_on_gpu);
  g_test_add_func ("/detect/this-not-recommended", test_this_not_recommended);
  rc = g_test_run ();
  hr_catalog_free (catalog);
  return rc;
}
