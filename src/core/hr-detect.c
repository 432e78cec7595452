/* hr-detect.c — reading the machine: NVML, nvidia-smi, the DRM tree and /proc (see hr-detect.h)
 *
 * Every path is joined to the root prefix; what is missing or unreadable is noted and left
 * unknown.  NVML is only tried on the real root: fake trees in tests must not see a real GPU.
 */
#include "hr-detect.h"
#include "hr-detect-private.h"
#include "hr-file.h"
#include "hr-units.h"

#include <dlfcn.h>
#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_VENDOR_AMD    0x1002
#define PCI_VENDOR_INTEL  0x8086
#define SMI_TIMEOUT_S     5
#define MAX_DRM_CARDS     64
/* An AMD GPU whose own VRAM is at most this, with more GTT than VRAM, is an APU's carve-out. */
#define APU_MAX_CARVEOUT  (2.0 * HR_GIB)

/* ---- files under the root ----------------------------------------------------------------- */

/* Reads at most @max bytes of @sysroot/@rel, a regular file (a FIFO or a device in its place
 * is refused, not waited for or read without end).  NULL (and a note) when it cannot be read;
 * a missing file is not noted when @quiet_missing. */
static char *
read_text (HrSystem   *system,
           const char *sysroot,
           const char *rel,
           gsize       max,
           gboolean    quiet_missing,
           gsize      *len_out)
{
  g_autofree char *path = g_build_filename (sysroot, rel, NULL);
  g_autoptr(GError) error = NULL;
  char *buf = NULL;

  if (!hr_file_read_regular (path, max, &buf, len_out, NULL, &error))
    {
      if (!(quiet_missing && g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT)))
        g_ptr_array_add (system->notes, g_strdup_printf ("cannot read %s: %s", rel, error->message));
      return NULL;
    }
  return buf;
}

/* A sysfs number file; FALSE (noted when present but garbled) otherwise. */
static gboolean
read_u64 (HrSystem   *system,
          const char *sysroot,
          const char *rel,
          guint64    *out)
{
  gsize len;
  g_autofree char *text = read_text (system, sysroot, rel, 64, TRUE, &len);

  if (text == NULL)
    return FALSE;
  if (!hr_detect_parse_sysfs_u64 (text, len, out))
    {
      g_ptr_array_add (system->notes, g_strdup_printf ("%s: not a number", rel));
      return FALSE;
    }
  return TRUE;
}

static double
read_bytes (HrSystem   *system,
            const char *sysroot,
            const char *rel)
{
  guint64 v;

  /* a byte count above 1 PiB is garbage, not a GPU */
  if (!read_u64 (system, sysroot, rel, &v) || v == 0 || v > (G_GUINT64_CONSTANT (1) << 50))
    return NAN;
  return (double) v;
}

/* ---- CPU and RAM -------------------------------------------------------------------------- */

static void
detect_cpu (HrSystem   *system,
            const char *sysroot)
{
  gsize len;
  g_autofree char *meminfo = read_text (system, sysroot, "proc/meminfo", HR_DETECT_MAX_TEXT, FALSE, &len);
  g_autofree char *cpuinfo = NULL;

  hr_detect_parse_meminfo (meminfo, len, &system->mem_total, &system->mem_available);
  if (meminfo != NULL && isnan (system->mem_total))
    g_ptr_array_add (system->notes, g_strdup ("proc/meminfo: no readable MemTotal"));
  cpuinfo = read_text (system, sysroot, "proc/cpuinfo", HR_DETECT_MAX_TEXT, FALSE, &len);
  hr_detect_parse_cpuinfo (cpuinfo, len, &system->cpu_model, &system->cpu_vendor,
                           &system->logical_cpus, &system->physical_cores);
}

/* ---- NVIDIA: NVML ------------------------------------------------------------------------- */

/* The few NVML declarations used, as nvml.h (CUDA 12) defines them: nvmlPciInfo_t has
 * busIdLegacy@0, domain@16, bus@20, device@24, pciDeviceId@28, pciSubSystemId@32, busId@36. */
typedef void *NvmlDevice;
typedef struct
{
  unsigned long long total, free, used;
} NvmlMemory;
typedef struct
{
  char bus_id_legacy[16];
  unsigned int domain, bus, device;
  unsigned int pci_device_id;     /* device id << 16 | vendor id */
  unsigned int pci_subsystem_id;
  char bus_id[32];
  unsigned int reserved[16];      /* slack: some headers declare reserved words after busId */
} NvmlPciInfo;

G_STATIC_ASSERT (G_STRUCT_OFFSET (NvmlPciInfo, pci_device_id) == 28);
G_STATIC_ASSERT (G_STRUCT_OFFSET (NvmlPciInfo, bus_id) == 36);

typedef int (*NvmlInitFn) (void);
typedef int (*NvmlCountFn) (unsigned int *);
typedef int (*NvmlHandleFn) (unsigned int, NvmlDevice *);
typedef int (*NvmlNameFn) (NvmlDevice, char *, unsigned int);
typedef int (*NvmlMemFn) (NvmlDevice, NvmlMemory *);
typedef int (*NvmlPciFn) (NvmlDevice, NvmlPciInfo *);

static gboolean
detect_nvml (HrSystem *system)
{
  void *lib = dlopen ("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  NvmlInitFn init;
  NvmlInitFn shutdown;
  NvmlCountFn count;
  NvmlHandleFn handle;
  NvmlNameFn name;
  NvmlMemFn mem;
  NvmlPciFn pci;
  unsigned int n = 0;

  if (lib == NULL)
    return FALSE;
  init = (NvmlInitFn) dlsym (lib, "nvmlInit_v2");
  shutdown = (NvmlInitFn) dlsym (lib, "nvmlShutdown");
  count = (NvmlCountFn) dlsym (lib, "nvmlDeviceGetCount_v2");
  handle = (NvmlHandleFn) dlsym (lib, "nvmlDeviceGetHandleByIndex_v2");
  name = (NvmlNameFn) dlsym (lib, "nvmlDeviceGetName");
  mem = (NvmlMemFn) dlsym (lib, "nvmlDeviceGetMemoryInfo");
  pci = (NvmlPciFn) dlsym (lib, "nvmlDeviceGetPciInfo_v3");
  if (!init || !shutdown || !count || !handle || !name || !mem || init () != 0)
    {
      g_ptr_array_add (system->notes, g_strdup ("libnvidia-ml.so.1 present but NVML did not start"));
      dlclose (lib);
      return FALSE;
    }
  if (count (&n) != 0)
    n = 0;
  for (unsigned int i = 0; i < MIN (n, 64u); i++)
    {
      NvmlDevice dev = NULL;
      NvmlMemory m = { 0 };
      NvmlPciInfo p = { { 0 } };
      char buf[96] = { 0 };
      HrDetectedGpu *gpu;

      if (handle (i, &dev) != 0)
        continue;
      gpu = g_new0 (HrDetectedGpu, 1);
      gpu->source = HR_DETECT_NVML;
      gpu->vendor = g_strdup ("NVIDIA");
      gpu->vram_total = gpu->vram_used = gpu->gtt_total = NAN;
      if (name (dev, buf, sizeof buf - 1) == 0)
        gpu->name = hr_detect_clean_text (buf, strnlen (buf, sizeof buf));
      if (mem (dev, &m) == 0 && m.total > 0)
        {
          gpu->vram_total = (double) m.total;
          gpu->vram_used = m.used <= m.total ? (double) m.used : NAN;
        }
      if (pci != NULL && pci (dev, &p) == 0)
        {
          gpu->pci_vendor = p.pci_device_id & 0xffff;
          gpu->pci_device = p.pci_device_id >> 16;
        }
      g_ptr_array_add (system->gpus, gpu);
    }
  shutdown ();
  dlclose (lib);
  return n > 0;
}

/* ---- NVIDIA: nvidia-smi ------------------------------------------------------------------- */

/* Runs nvidia-smi from PATH and reads its output as it comes, at most HR_DETECT_MAX_TEXT bytes
 * within SMI_TIMEOUT_S seconds (a wedged driver can hang it for minutes; a wrapper gone wrong
 * can print without end): past either the child is killed and nothing is kept. */
/* In the child: a process group of its own, so a wrapper script is stopped with what it runs. */
static void
smi_child_setup (gpointer user_data)
{
  setpgid (0, 0);
}

static GBytes *
run_nvidia_smi (const char  *smi,
                GError     **error)
{
  const char *argv[] = { smi, "--query-gpu=index,name,pci.device_id,memory.total,memory.used",
                         "--format=csv,noheader,nounits", NULL };
  gint64 deadline = g_get_monotonic_time () + SMI_TIMEOUT_S * G_USEC_PER_SEC;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gboolean done = FALSE;
  GPid pid;
  int fd, status = 0;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL |
                                 G_SPAWN_CLOEXEC_PIPES, smi_child_setup, NULL, &pid, NULL, &fd, NULL, error))
    return NULL;
  while (!done)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      gint64 left = deadline - g_get_monotonic_time ();
      guint8 chunk[16384];
      gssize got;
      int ready;

      if (left <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "no answer within %d s", SMI_TIMEOUT_S);
          break;
        }
      ready = poll (&pfd, 1, (int) MIN (left / 1000 + 1, G_MAXINT));
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready <= 0)
        continue;   /* the deadline is checked above */
      got = read (fd, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s", g_strerror (errno));
          break;
        }
      if (got == 0)
        done = TRUE;
      else if (out->len + (gsize) got > HR_DETECT_MAX_TEXT)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       "more than %d MiB of output", HR_DETECT_MAX_TEXT >> 20);
          break;
        }
      else
        g_byte_array_append (out, chunk, (guint) got);
    }
  close (fd);
  if (!done)
    kill (-pid, SIGKILL);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (pid);
  if (!done || !g_spawn_check_wait_status (status, error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
detect_nvidia_smi (HrSystem *system)
{
  g_autofree char *smi = g_find_program_in_path ("nvidia-smi");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GPtrArray) found = NULL;
  gsize len;
  const char *text;

  if (smi == NULL)
    return FALSE;
  out = run_nvidia_smi (smi, &error);
  if (out == NULL)
    {
      g_ptr_array_add (system->notes, g_strdup_printf ("nvidia-smi failed: %s", error->message));
      return FALSE;
    }
  text = g_bytes_get_data (out, &len);
  found = hr_detect_parse_nvidia_smi (text, len);
  if (found->len == 0 && len > 0)
    g_ptr_array_add (system->notes, g_strdup ("nvidia-smi: output not understood"));
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (system->gpus, g_steal_pointer (&found->pdata[i]));
  return found->len > 0;
}

/* ---- AMD, Intel (and NVIDIA without its tools): the DRM tree ------------------------------ */

static gboolean
is_card_name (const char *name)
{
  if (!g_str_has_prefix (name, "card") || name[4] == '\0')
    return FALSE;
  for (const char *p = name + 4; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

static void
detect_drm_card (HrSystem   *system,
                 const char *sysroot,
                 const char *card,
                 gboolean    have_nvidia,
                 GHashTable *seen)
{
  g_autofree char *dir = g_build_filename ("sys/class/drm", card, "device", NULL);
  g_autofree char *abs = g_build_filename (sysroot, dir, NULL);
  g_autofree char *real = realpath (abs, NULL);
  g_autofree char *vendor_rel = g_build_filename (dir, "vendor", NULL);
  g_autofree char *device_rel = g_build_filename (dir, "device", NULL);
  g_autofree char *revision_rel = g_build_filename (dir, "revision", NULL);
  g_autofree char *vram_rel = g_build_filename (dir, "mem_info_vram_total", NULL);
  g_autofree char *used_rel = g_build_filename (dir, "mem_info_vram_used", NULL);
  g_autofree char *gtt_rel = g_build_filename (dir, "mem_info_gtt_total", NULL);
  guint64 vendor = 0, pci_dev = 0, revision = 0;
  HrDetectedGpu *gpu;

  /* card0 and card0-DP-1 … share one PCI device; so may two DRM minors */
  if (real == NULL || g_hash_table_contains (seen, real))
    return;
  g_hash_table_add (seen, g_strdup (real));
  if (!read_u64 (system, sysroot, vendor_rel, &vendor))
    return;
  if (vendor != PCI_VENDOR_AMD && vendor != PCI_VENDOR_INTEL && vendor != PCI_VENDOR_NVIDIA)
    return;   /* virtual display adapters (QEMU, virtio, ASPEED BMCs) */
  if (vendor == PCI_VENDOR_NVIDIA && have_nvidia)
    return;   /* already known, with its memory, from NVML / nvidia-smi */
  read_u64 (system, sysroot, device_rel, &pci_dev);

  gpu = g_new0 (HrDetectedGpu, 1);
  gpu->source = HR_DETECT_DRM;
  gpu->pci_vendor = (guint16) vendor;
  gpu->pci_device = pci_dev <= 0xffff ? (guint16) pci_dev : 0;
  /* one id can be several products told apart by the revision (1002:1586 C1 is a Radeon
   * 8060S, C2 an 8050S) */
  if (read_u64 (system, sysroot, revision_rel, &revision) && revision <= 0xff)
    {
      gpu->pci_revision = (guint8) revision;
      gpu->has_revision = TRUE;
    }
  gpu->vendor = g_strdup (vendor == PCI_VENDOR_AMD ? "AMD" : vendor == PCI_VENDOR_INTEL ? "Intel" : "NVIDIA");
  gpu->vram_total = read_bytes (system, sysroot, vram_rel);
  gpu->vram_used = read_bytes (system, sysroot, used_rel);
  gpu->gtt_total = read_bytes (system, sysroot, gtt_rel);
  if (isfinite (gpu->vram_used) && !(gpu->vram_used <= gpu->vram_total))
    gpu->vram_used = NAN;
  if (vendor == PCI_VENDOR_AMD)
    gpu->integrated = isfinite (gpu->vram_total) && gpu->vram_total <= APU_MAX_CARVEOUT &&
                      isfinite (gpu->gtt_total) && gpu->gtt_total > gpu->vram_total;
  else if (vendor == PCI_VENDOR_INTEL)
    /* i915/xe report no VRAM size for integrated graphics */
    gpu->integrated = isnan (gpu->vram_total);
  g_ptr_array_add (system->gpus, gpu);
}

static void
detect_drm (HrSystem   *system,
            const char *sysroot,
            gboolean    have_nvidia)
{
  g_autofree char *path = g_build_filename (sysroot, "sys/class/drm", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) cards = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL && cards->len < MAX_DRM_CARDS)
    if (is_card_name (name))
      g_ptr_array_add (cards, g_strdup (name));
  /* card0, card1, … card10 in numeric order, so the output is stable */
  g_ptr_array_sort_with_data (cards, hr_detect_compare_cards, NULL);
  for (guint i = 0; i < cards->len; i++)
    detect_drm_card (system, sysroot, g_ptr_array_index (cards, i), have_nvidia, seen);
}

int
hr_detect_compare_cards (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  const char *x = *(const char * const *) a, *y = *(const char * const *) b;
  gint64 nx = g_ascii_strtoll (x + 4, NULL, 10), ny = g_ascii_strtoll (y + 4, NULL, 10);

  return nx < ny ? -1 : nx > ny;
}

/* ---- public ------------------------------------------------------------------------------- */

HrSystem *
hr_system_detect_at (const char *sysroot,
                     gboolean    use_nvml,
                     HrRamMeasure   measure)
{
  HrSystem *system = g_new0 (HrSystem, 1);
  gboolean have_nvidia;

  g_return_val_if_fail (sysroot != NULL, NULL);

  system->mem_total = system->mem_available = system->ram_bandwidth_gbs = NAN;
  system->gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_detected_gpu_free);
  system->notes = g_ptr_array_new_with_free_func (g_free);

  detect_cpu (system, sysroot);
  have_nvidia = (use_nvml && detect_nvml (system)) || detect_nvidia_smi (system);
  detect_drm (system, sysroot, have_nvidia);
  hr_detect_fill_bandwidth (system, measure, use_nvml);
  return system;
}

HrSystem *
hr_system_detect (HrRamMeasure measure)
{
  const char *root = g_getenv ("HEADROOM_SYSROOT");
  gboolean real = root == NULL || *root == '\0' || g_str_equal (root, "/");

  return hr_system_detect_at (real ? "/" : root, real, measure);
}

void
hr_system_free (HrSystem *system)
{
  if (system == NULL)
    return;
  g_free (system->cpu_model);
  g_free (system->cpu_vendor);
  g_free (system->ram_bandwidth_source);
  g_clear_pointer (&system->gpus, g_ptr_array_unref);
  g_clear_pointer (&system->notes, g_ptr_array_unref);
  g_free (system);
}

const char *
hr_detect_source_to_string (HrDetectSource source)
{
  switch (source)
    {
    case HR_DETECT_NVML:
      return "nvml";
    case HR_DETECT_NVIDIA_SMI:
      return "nvidia-smi";
    case HR_DETECT_DRM:
    default:
      return "drm";
    }
}
