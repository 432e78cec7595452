/* hr-detect-parse.c — the text parsers behind hardware detection (see hr-detect.h)
 *
 * /proc files and nvidia-smi's output come from outside: a container may show a garbled or
 * truncated file, a wrapper script may print anything.  Every parser here takes a length, never
 * reads past it, keeps what it understands and leaves the rest unknown.  Fuzzed by
 * tests/fuzz/fuzz-detect.c.
 */
#include "hr-detect.h"
#include "hr-detect-private.h"
#include "hr-units.h"

#include <math.h>
#include <string.h>

#define MAX_NAME_CHARS 96
#define MAX_GPUS       64
#define MAX_KIB        (G_GUINT64_CONSTANT (1) << 40)   /* 1 PiB in KiB: beyond any machine */
#define MAX_MIB        (G_GUINT64_CONSTANT (1) << 30)   /* 1 PiB in MiB */
#define MAX_CPUS       65536

/* The printable part of a field: control characters become spaces, invalid UTF-8 is repaired,
 * at most MAX_NAME_CHARS characters, trimmed.  NULL when nothing is left. */
char *
hr_detect_clean_text (const char *text,
            gsize       len)
{
  g_autofree char *valid = g_utf8_make_valid (text, (gssize) len);
  GString *out = g_string_new (NULL);
  guint n = 0;

  for (const char *p = valid; *p && n < MAX_NAME_CHARS; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);
      if (g_unichar_iscntrl (c) || c == 0xFFFD)
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  g_strstrip (out->str);
  if (out->str[0] == '\0')
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

/* Calls @fn for every line of @text[0..len) of at most @max_line bytes, without the newline, as
 * a string of its own that @fn may change (it ends at a NUL byte inside the line); longer lines
 * are skipped. */
typedef void (*LineFunc) (char *line, gpointer user_data);

static void
for_each_line (const char *text,
               gsize       len,
               gsize       max_line,
               LineFunc    fn,
               gpointer    user_data)
{
  gsize start = 0;

  len = MIN (len, (gsize) HR_DETECT_MAX_TEXT);
  while (start < len)
    {
      const char *nl = memchr (text + start, '\n', len - start);
      gsize end = nl ? (gsize) (nl - text) : len;

      if (end - start <= max_line)
        {
          g_autofree char *line = g_strndup (text + start, end - start);

          fn (line, user_data);
        }
      start = end + 1;
    }
}

/* Calls @fn with the trimmed key and value of every "key: value" line of at most @max_line
 * bytes; other lines are skipped. */
typedef void (*KeyValueFunc) (const char *key, const char *value, gpointer user_data);

typedef struct
{
  KeyValueFunc fn;
  gpointer user_data;
} KeyValueWalk;

/* "key<spaces>: value" → key and value, both trimmed. */
static void
key_value_line (char     *line,
                gpointer  user_data)
{
  KeyValueWalk *walk = user_data;
  char *colon = strchr (line, ':');

  if (colon == NULL)
    return;
  *colon = '\0';
  walk->fn (g_strstrip (line), g_strstrip (colon + 1), walk->user_data);
}

static void
for_each_key_value (const char   *text,
                    gsize         len,
                    gsize         max_line,
                    KeyValueFunc  fn,
                    gpointer      user_data)
{
  KeyValueWalk walk = { fn, user_data };

  for_each_line (text, len, max_line, key_value_line, &walk);
}

gboolean
hr_detect_parse_sysfs_u64 (const char *text,
                           gsize       len,
                           guint64    *out)
{
  g_autofree char *copy = NULL;
  const char *p;
  guint base = 10;

  if (text == NULL || len == 0 || len > 64)
    return FALSE;
  copy = g_strndup (text, len);
  p = g_strstrip (copy);
  if (g_str_has_prefix (p, "0x") || g_str_has_prefix (p, "0X"))
    {
      p += 2;
      base = 16;
    }
  if (*p == '\0' || *p == '-' || *p == '+')
    return FALSE;
  return g_ascii_string_to_unsigned (p, base, 0, G_MAXUINT64, out, NULL);
}

/* ---- /proc/meminfo ------------------------------------------------------------------------ */

typedef struct
{
  double total;
  double available;
} MeminfoState;

/* "24683548 kB" → bytes; NAN on anything else. */
static double
meminfo_bytes (const char *value)
{
  g_auto(GStrv) parts = g_strsplit_set (value, " \t", -1);
  const char *num = NULL, *unit = NULL;
  guint64 kib;

  for (int i = 0; parts[i]; i++)
    {
      if (parts[i][0] == '\0')
        continue;
      if (num == NULL)
        num = parts[i];
      else if (unit == NULL)
        unit = parts[i];
      else
        return NAN;
    }
  if (num == NULL || unit == NULL || g_ascii_strcasecmp (unit, "kB") != 0)
    return NAN;
  if (!g_ascii_string_to_unsigned (num, 10, 1, MAX_KIB, &kib, NULL))
    return NAN;
  return (double) kib * 1024.0;
}

static void
meminfo_field (const char *key,
               const char *value,
               gpointer    user_data)
{
  MeminfoState *st = user_data;

  if (strcmp (key, "MemTotal") == 0 && isnan (st->total))
    st->total = meminfo_bytes (value);
  else if (strcmp (key, "MemAvailable") == 0 && isnan (st->available))
    st->available = meminfo_bytes (value);
}

void
hr_detect_parse_meminfo (const char *text,
                         gsize       len,
                         double     *total,
                         double     *available)
{
  MeminfoState st = { NAN, NAN };

  if (text != NULL)
    for_each_key_value (text, len, 256, meminfo_field, &st);
  /* more available than installed is a garbled file, not a fact */
  if (isfinite (st.available) && (!isfinite (st.total) || st.available > st.total))
    st.available = NAN;
  *total = st.total;
  *available = st.available;
}

/* ---- /proc/cpuinfo ------------------------------------------------------------------------ */

typedef struct
{
  char *model;          /* x86 "model name" */
  char *board_model;    /* ARM boards: "Model" (Raspberry Pi 5 Model B Rev 1.0) */
  char *vendor;
  int logical;
  GHashTable *cores;    /* "physical id/core id" */
  char *physical_id;    /* of the current processor block */
  int cpu_cores;        /* "cpu cores" of the last block */
  GHashTable *packages; /* physical ids */
} CpuinfoState;

static void
cpuinfo_field (const char *key,
               const char *value,
               gpointer    user_data)
{
  CpuinfoState *st = user_data;
  guint64 n;

  if (strcmp (key, "processor") == 0 &&
      g_ascii_string_to_unsigned (value, 10, 0, MAX_CPUS, &n, NULL))
    {
      st->logical++;
      g_clear_pointer (&st->physical_id, g_free);
    }
  else if ((strcmp (key, "model name") == 0 || strcmp (key, "cpu model") == 0) && st->model == NULL)
    st->model = hr_detect_clean_text (value, strlen (value));
  else if (strcmp (key, "Model") == 0 && st->board_model == NULL)
    st->board_model = hr_detect_clean_text (value, strlen (value));
  else if (strcmp (key, "vendor_id") == 0 && st->vendor == NULL)
    st->vendor = hr_detect_clean_text (value, strlen (value));
  else if (strcmp (key, "physical id") == 0 &&
           g_ascii_string_to_unsigned (value, 10, 0, MAX_CPUS, &n, NULL))
    {
      g_free (st->physical_id);
      st->physical_id = g_strdup (value);
      g_hash_table_add (st->packages, g_strdup (value));
    }
  else if (strcmp (key, "core id") == 0 &&
           g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32, &n, NULL))
    g_hash_table_add (st->cores, g_strdup_printf ("%s/%s", st->physical_id ? st->physical_id : "0", value));
  else if (strcmp (key, "cpu cores") == 0 &&
           g_ascii_string_to_unsigned (value, 10, 1, MAX_CPUS, &n, NULL))
    st->cpu_cores = (int) n;
}

void
hr_detect_parse_cpuinfo (const char  *text,
                         gsize        len,
                         char       **model,
                         char       **vendor,
                         int         *logical,
                         int         *physical)
{
  CpuinfoState st = { 0 };
  int cores;

  st.cores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  st.packages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (text != NULL)
    for_each_key_value (text, len, 8192, cpuinfo_field, &st);

  cores = (int) g_hash_table_size (st.cores);
  if (cores == 0 && st.cpu_cores > 0)
    cores = st.cpu_cores * MAX ((int) g_hash_table_size (st.packages), 1);
  if (cores == 0 || cores > st.logical)
    cores = st.logical;   /* no topology given (ARM, VMs): one core per processor */

  *model = st.model ? st.model : st.board_model;
  if (st.model)
    g_free (st.board_model);
  *vendor = st.vendor;
  *logical = st.logical;
  *physical = cores;
  g_free (st.physical_id);
  g_hash_table_unref (st.cores);
  g_hash_table_unref (st.packages);
}

/* ---- nvidia-smi --------------------------------------------------------------------------- */

/* "24564" (MiB, nounits) → bytes; NAN for "[N/A]", "[Not Supported]" and garbage. */
static double
smi_mib (const char *field)
{
  guint64 mib;

  if (!g_ascii_string_to_unsigned (field, 10, 0, MAX_MIB, &mib, NULL))
    return NAN;
  return (double) mib * HR_MIB;
}

typedef struct
{
  GPtrArray *gpus;
  gboolean seen[MAX_GPUS + 1];   /* by index: a GPU listed twice is one GPU */
} SmiParse;

static void
smi_line (char     *line,
          gpointer  user_data)
{
  SmiParse *st = user_data;
  GPtrArray *gpus = st->gpus;
  g_auto(GStrv) f = NULL;
  HrDetectedGpu *gpu;
  guint64 index, pci;

  if (gpus->len >= MAX_GPUS)
    return;
  f = g_strsplit (line, ",", -1);
  if (g_strv_length (f) != 5)
    return;
  for (int i = 0; i < 5; i++)
    g_strstrip (f[i]);
  if (!g_ascii_string_to_unsigned (f[0], 10, 0, MAX_GPUS, &index, NULL) || st->seen[index])
    return;
  st->seen[index] = TRUE;

  gpu = g_new0 (HrDetectedGpu, 1);
  gpu->source = HR_DETECT_NVIDIA_SMI;
  gpu->vendor = g_strdup ("NVIDIA");
  gpu->name = hr_detect_clean_text (f[1], strlen (f[1]));
  /* pci.device_id is "0x268410DE": the device id above the vendor id */
  if (hr_detect_parse_sysfs_u64 (f[2], strlen (f[2]), &pci) && pci <= G_MAXUINT32)
    {
      gpu->pci_vendor = (guint16) (pci & 0xffff);
      gpu->pci_device = (guint16) (pci >> 16);
    }
  gpu->vram_total = smi_mib (f[3]);
  gpu->vram_used = smi_mib (f[4]);
  if (!(gpu->vram_total > 0) || (isfinite (gpu->vram_used) && gpu->vram_used > gpu->vram_total))
    gpu->vram_used = NAN;
  if (!(gpu->vram_total > 0))
    gpu->vram_total = NAN;
  gpu->gtt_total = NAN;
  g_ptr_array_add (gpus, gpu);
}

GPtrArray *
hr_detect_parse_nvidia_smi (const char *text,
                            gsize       len)
{
  SmiParse st = { g_ptr_array_new_with_free_func ((GDestroyNotify) hr_detected_gpu_free), { FALSE } };

  if (text != NULL)
    for_each_line (text, len, 1024, smi_line, &st);
  return st.gpus;
}

void
hr_detected_gpu_free (HrDetectedGpu *gpu)
{
  if (gpu == NULL)
    return;
  g_free (gpu->name);
  g_free (gpu->vendor);
  g_free (gpu);
}
