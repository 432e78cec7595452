/* fuzz-detect.c — libFuzzer entry point for the hardware-detection text parsers
 *
 * The first byte picks the parser (/proc/meminfo, /proc/cpuinfo, nvidia-smi's CSV, a sysfs
 * number, the CPU bandwidth table); the rest is its input.  Every result must be sane: sizes
 * unknown or positive, counts within bounds, names printable. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-detect.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_name (const char *name)
{
  if (name == NULL)
    return;
  g_assert (g_utf8_validate (name, -1, NULL));
  g_assert (g_utf8_strlen (name, -1) <= 96);
  for (const char *p = name; *p; p++)
    g_assert ((guchar) *p >= 0x20);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text;
  gsize len;

  if (size < 1 || size > HR_DETECT_MAX_TEXT)
    return 0;
  text = (const char *) data + 1;
  len = size - 1;

  switch (data[0] % 5)
    {
    case 0:
      {
        double total, avail;
        hr_detect_parse_meminfo (text, len, &total, &avail);
        g_assert (isnan (total) || (total > 0 && total < 1e18));
        g_assert (isnan (avail) || (avail > 0 && avail <= total));
        break;
      }
    case 1:
      {
        char *model = NULL, *vendor = NULL;
        int logical = -1, physical = -1;
        hr_detect_parse_cpuinfo (text, len, &model, &vendor, &logical, &physical);
        g_assert (logical >= 0 && physical >= 0 && physical <= logical);
        check_name (model);
        check_name (vendor);
        g_free (model);
        g_free (vendor);
        break;
      }
    case 2:
      {
        GPtrArray *gpus = hr_detect_parse_nvidia_smi (text, len);
        g_assert (gpus->len <= 64);
        for (guint i = 0; i < gpus->len; i++)
          {
            const HrDetectedGpu *g = g_ptr_array_index (gpus, i);
            check_name (g->name);
            g_assert (isnan (g->vram_total) || g->vram_total > 0);
            g_assert (isnan (g->vram_used) || (g->vram_used >= 0 && g->vram_used <= g->vram_total));
          }
        g_ptr_array_unref (gpus);
        break;
      }
    case 3:
      {
        guint64 v;
        (void) hr_detect_parse_sysfs_u64 (text, len, &v);
        break;
      }
    default:
      {
        char *model = g_strndup (text, len);
        const char *source = NULL;
        double bw = hr_detect_cpu_bandwidth (model, &source);
        g_assert (isnan (bw) == (source == NULL));
        g_assert (isnan (bw) || (bw > 0 && bw < 1e4));
        g_free (model);
        break;
      }
    }
  return 0;
}
