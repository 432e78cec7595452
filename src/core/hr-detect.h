/* hr-detect.h — "This computer": the GPUs, CPU and memory Headroom runs on
 *
 * Linux first.  NVIDIA GPUs come from NVML (loaded at run time, no build dependency) or, when
 * it is absent, from `nvidia-smi` on PATH; AMD and Intel GPUs from the DRM tree in sysfs (/sys/class/drm/cardN/device); the
 * CPU and RAM from /proc.  Every path is read under a root prefix (HEADROOM_SYSROOT, default
 * "/") so tests can point detection at fake trees and fake tools.  Nothing here needs GTK, and
 * nothing that is missing, unreadable or garbled is an error: it is left unknown and noted.
 */
#pragma once

#include <glib.h>
#include "hr-catalog.h"
#include "hr-gpu.h"

G_BEGIN_DECLS

/* Text read from /proc or from a tool is capped; anything longer is cut. */
#define HR_DETECT_MAX_TEXT (4 * 1024 * 1024)

typedef enum
{
  HR_DETECT_NVML,        /* libnvidia-ml.so.1 */
  HR_DETECT_NVIDIA_SMI,  /* nvidia-smi --query-gpu … */
  HR_DETECT_DRM,         /* /sys/class/drm/cardN/device */
} HrDetectSource;

typedef struct
{
  char *name;            /* "NVIDIA GeForce RTX 4090"; NULL when the source gives none */
  char *vendor;          /* "NVIDIA", "AMD", "Intel" */
  guint16 pci_vendor;    /* 0x10de, 0x1002, 0x8086; 0 when unknown */
  guint16 pci_device;    /* 0 when unknown */
  guint8 pci_revision;   /* the PCI revision (DRM: device/revision); valid when has_revision */
  gboolean has_revision;
  double vram_total;     /* bytes; NAN when unknown */
  double vram_used;      /* bytes in use now (the desktop, other programs); NAN when unknown */
  double gtt_total;      /* AMD: system memory the GPU may map (GTT); NAN when unknown */
  gboolean integrated;   /* an APU / iGPU sharing system RAM */
  HrDetectSource source;

  /* filled by hr_system_match () */
  const HrGpu *match;    /* borrowed catalog entry; NULL when unknown */
  const char *match_by;  /* "PCI id", "name", "CPU model"; NULL when unmatched */
} HrDetectedGpu;

typedef struct
{
  char *cpu_model;          /* "AMD Ryzen 9 7950X 16-Core Processor"; NULL when unknown */
  char *cpu_vendor;         /* "AuthenticAMD", "GenuineIntel"; NULL when unknown */
  int logical_cpus;         /* 0 when unknown */
  int physical_cores;       /* 0 when unknown */
  double mem_total;         /* bytes; NAN when unknown */
  double mem_available;     /* bytes; NAN when unknown */
  double ram_bandwidth_gbs; /* peak system-RAM bandwidth, decimal GB/s; NAN when unknown */
  char *ram_bandwidth_source; /* where the figure comes from; NULL when unknown */
  /* TRUE when the figure is (or would be) measured here: the CPU is not in the table and this
   * is the real root (or HEADROOM_RAM_MEASURE_MIB is set, for tests) */
  gboolean ram_bandwidth_measurable;
  gint64 ram_bandwidth_measured_at; /* Unix time of the measurement; 0: not measured, or undated */
  GPtrArray *gpus;          /* HrDetectedGpu* */
  GPtrArray *notes;         /* char*: what could not be read, one line each */
} HrSystem;

/* What detection does about the RAM bandwidth of a CPU the bandwidth table does not know. */
typedef enum
{
  HR_RAM_MEASURE_NEVER,       /* nothing: the table only */
  HR_RAM_MEASURE_CACHED,      /* the cached measurement, if any; never measures (the app measures
                           * in a worker: hr_detect_measure_ram ()) */
  HR_RAM_MEASURE_IF_UNKNOWN,  /* the cached measurement, else measures now and caches it */
  HR_RAM_MEASURE_AGAIN,       /* measures now whatever the cache holds, and caches it */
} HrRamMeasure;

/* Detects under HEADROOM_SYSROOT (default "/"), nvidia-smi from PATH, NVML only on the real
 * root.  The RAM bandwidth is the CPU table's; for a CPU not in it, @measure says what to do.
 * A measurement (a streaming read over all cores, the best of 3, a fraction of a second) is
 * only taken on the real root, or under a fake one when HEADROOM_RAM_MEASURE_MIB (the MiB
 * to read) is set.  It is cached under $XDG_CACHE_HOME/headroom/ram-bandwidth with its date,
 * keyed by the CPU, its threads and the RAM size. */
HrSystem       *hr_system_detect            (HrRamMeasure        measure);
HrSystem       *hr_system_detect_at         (const char      *sysroot,
                                             gboolean         use_nvml,
                                             HrRamMeasure        measure);
void            hr_system_free              (HrSystem        *system);

/* Matches every detected GPU to a catalog entry: by PCI device id (and revision, where one
 * id is several products), then by name, then an integrated GPU by the CPU model it is part
 * of.  A match to a unified-memory entry makes the GPU integrated; to another, discrete. */
void            hr_system_match             (HrSystem        *system,
                                             const HrCatalog *catalog);

/* The device Headroom sizes against.  With GPUs: the most numerous kind among them (the
 * largest when tied), its count in @n_gpus; with none: the CPU + system RAM device.  With
 * @free_memory the memory in use now is taken off.  NULL when nothing is known at all (no
 * GPU and no readable MemTotal). */
HrGpu          *hr_system_make_device       (const HrSystem  *system,
                                             gboolean         free_memory,
                                             int             *n_gpus);
/* The CPU + system RAM as a device (llama.cpp's CPU backend).  NULL without MemTotal. */
HrGpu          *hr_system_make_cpu_device   (const HrSystem  *system,
                                             gboolean         free_memory);
/* One detected GPU as a device: the matched catalog entry (its generation, FP16 rate, measured
 * bandwidth, sources) with the detected memory, or a custom device with the detected memory
 * and everything else unknown.  A unified machine whose memory is not the entry's (a 64 GB
 * Strix Halo matched to the 128 GB entry) keeps its own memory and loses the entry's price
 * and the size in its name, which are those of another configuration.  A unified GPU whose driver reports no memory of
 * its own (GB10: nvidia-smi says [N/A]) has the system RAM. */
HrGpu          *hr_system_make_gpu_device   (const HrSystem  *system,
                                             guint            index,
                                             gboolean         free_memory);
/* Bytes of this device already in use ("the desktop already uses 1.3 GiB"): for the device
 * hr_system_make_device () picks; NAN when unknown. */
double          hr_system_used_bytes        (const HrSystem  *system);

/* Adds "This computer" to @catalog for the app's picker: "this" (the device above), "this-free"
 * (the same against the memory free now, when what is in use is known) and, when "this" is a
 * GPU, "this-cpu" (CPU + system RAM).  Returns how many of the chosen GPU there are (for the
 * GPU count); 0 when nothing usable was detected and nothing was added. */
int             hr_system_add_to_catalog    (const HrSystem  *system,
                                             HrCatalog       *catalog);
/* The detected GPUs besides the kind "this" is (#31: a mixed machine, RTX 4090 + RTX 3090), as
 * "CATALOG-ID:COUNT" each, grouped by their catalog entry in detection order; unmatched ones
 * are left out.  NULL-terminated, never NULL (g_strfreev). */
char          **hr_system_other_gpus        (const HrSystem  *system);
/* TRUE for the ids hr_system_add_to_catalog () adds. */
gboolean        hr_detect_is_this_id        (const char      *id);

/* ---- the text parsers (pure; fuzzed by tests/fuzz/fuzz-detect.c) ---- */

/* /proc/meminfo: MemTotal and MemAvailable in bytes (NAN when absent or garbled). */
void            hr_detect_parse_meminfo     (const char      *text,
                                             gsize            len,
                                             double          *total,
                                             double          *available);
/* /proc/cpuinfo: the model name, the vendor, logical CPUs and physical cores (0 unknown). */
void            hr_detect_parse_cpuinfo     (const char      *text,
                                             gsize            len,
                                             char           **model,
                                             char           **vendor,
                                             int             *logical,
                                             int             *physical);
/* `nvidia-smi --query-gpu=index,name,pci.device_id,memory.total,memory.used
 * --format=csv,noheader,nounits`: one HrDetectedGpu per well-formed line. */
GPtrArray      *hr_detect_parse_nvidia_smi  (const char      *text,
                                             gsize            len);
/* A sysfs number: decimal, or hex with 0x.  FALSE on anything else. */
gboolean        hr_detect_parse_sysfs_u64   (const char      *text,
                                             gsize            len,
                                             guint64         *out);

/* Peak RAM bandwidth (GB/s) of a CPU by its /proc/cpuinfo model name, from the vendor's
 * published memory configuration; NAN when the CPU is not in the table.  @source receives the
 * table row's source (static). */
double          hr_detect_cpu_bandwidth     (const char      *model,
                                             const char     **source);

/* Measures the RAM bandwidth of @system's machine (blocking, a fraction of a second; safe in
 * a worker thread: reads only @system's CPU and memory fields) and caches it with its date.
 * Returns GB/s, NAN when it could not be measured; *@measured_at receives the Unix time. */
double          hr_detect_measure_ram       (const HrSystem  *system,
                                             gint64          *measured_at);
/* Puts a measurement into @system (its figure, source and date). */
void            hr_system_set_measured_ram  (HrSystem        *system,
                                             double           gbs,
                                             gint64           measured_at);
/* After the RAM bandwidth of @system changed: the "This Computer" entries of @catalog
 * (hr_system_add_to_catalog ()) take the new figure, in place. */
void            hr_system_update_catalog    (const HrSystem  *system,
                                             HrCatalog       *catalog);

void            hr_detected_gpu_free        (HrDetectedGpu   *gpu);
const char     *hr_detect_source_to_string  (HrDetectSource   source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrSystem, hr_system_free)

G_END_DECLS
