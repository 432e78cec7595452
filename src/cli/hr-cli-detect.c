/* hr-cli-detect.c — `headroom-cli detect [--json]` (see hr-cli-detect.h) */
#include "hr-cli-detect.h"
#include "hr-cli-common.h"
#include "hr-detect.h"
#include "hr-json-writer.h"
#include "hr-units.h"

#include <math.h>
#include <stdio.h>

static void
json_gpu (HrJsonWriter        *w,
          const HrDetectedGpu *d,
          guint                index)
{
  g_autofree char *pci = g_strdup_printf ("%04x:%04x", d->pci_vendor, d->pci_device);

  hr_json_begin_object (w);
  hr_json_member_int (w, "index", index);
  hr_json_member_string (w, "name", d->name);
  hr_json_member_string (w, "vendor", d->vendor);
  hr_json_member_string (w, "pci_id", d->pci_device ? pci : NULL);
  hr_json_member_string (w, "source", hr_detect_source_to_string (d->source));
  hr_json_gib_bytes (w, "vram_total", d->vram_total);
  hr_json_gib_bytes (w, "vram_used", d->vram_used);
  hr_json_gib_bytes (w, "gtt_total", d->gtt_total);
  hr_json_member_bool (w, "integrated", d->integrated);
  hr_json_member_string (w, "match", d->match ? d->match->id : NULL);
  hr_json_member_string (w, "match_by", d->match_by);
  hr_json_end_object (w);
}

static void
json_device (HrJsonWriter *w,
             const HrGpu  *gpu,
             int           count,
             double        used)
{
  hr_json_begin_object (w);
  hr_json_member_string (w, "id", gpu->id);
  hr_json_member_string (w, "name", gpu->name);
  hr_json_member_int (w, "count", count);
  hr_json_member_string (w, "backend", hr_backend_to_string (gpu->backend));
  hr_json_member_number (w, "memory_gib", gpu->memory_gib, 2);
  hr_json_member_number (w, "bandwidth_gbs", gpu->bandwidth_gbs, 1);
  hr_json_member_number (w, "fp16_tflops", gpu->fp16_tflops, 1);
  hr_json_member_int (w, "cpu_cores", gpu->cpu_cores);
  hr_json_gib_bytes (w, "used", used);
  hr_json_member_string (w, "source", gpu->source);
  hr_json_end_object (w);
}

static char *
detect_json (const HrSystem *sys,
             const HrGpu    *device,
             int             count)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_key (&w, "cpu");
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "model", sys->cpu_model);
  hr_json_member_string (&w, "vendor", sys->cpu_vendor);
  hr_json_member_int (&w, "logical_cpus", sys->logical_cpus);
  hr_json_member_int (&w, "physical_cores", sys->physical_cores);
  hr_json_end_object (&w);
  hr_json_gib_bytes (&w, "ram_total", sys->mem_total);
  hr_json_gib_bytes (&w, "ram_available", sys->mem_available);
  hr_json_member_number (&w, "ram_bandwidth_gbs", sys->ram_bandwidth_gbs, 1);
  hr_json_member_string (&w, "ram_bandwidth_source", sys->ram_bandwidth_source);
  if (sys->ram_bandwidth_measured_at > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (sys->ram_bandwidth_measured_at);
      g_autofree char *date = g_date_time_format (when, "%Y-%m-%dT%H:%M:%SZ");

      hr_json_member_string (&w, "ram_bandwidth_measured", date);
    }
  else
    hr_json_member_string (&w, "ram_bandwidth_measured", NULL);
  hr_json_key (&w, "gpus");
  hr_json_begin_array (&w);
  for (guint i = 0; i < sys->gpus->len; i++)
    json_gpu (&w, g_ptr_array_index (sys->gpus, i), i);
  hr_json_end_array (&w);
  hr_json_key (&w, "device");
  if (device)
    json_device (&w, device, count, hr_system_used_bytes (sys));
  else
    hr_json_null (&w);
  hr_json_key (&w, "notes");
  hr_json_begin_array (&w);
  for (guint i = 0; i < sys->notes->len; i++)
    hr_json_string (&w, g_ptr_array_index (sys->notes, i));
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  g_string_append_c (out, '\n');
  return g_strdup (out->str);
}

static void
text_gpu (GString             *out,
          const HrDetectedGpu *d,
          guint                index)
{
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], c[HR_CLI_NUM_SIZE];

  g_string_append_printf (out, "  GPU %u        %s [%04x:%04x] via %s\n", index,
                          d->name ? d->name : d->vendor, d->pci_vendor, d->pci_device,
                          hr_detect_source_to_string (d->source));
  g_string_append_printf (out, "               memory %s GiB", hr_cli_number (a, hr_to_gib (d->vram_total), 2, 0));
  if (isfinite (d->vram_used))
    g_string_append_printf (out, ", %s GiB in use", hr_cli_number (b, hr_to_gib (d->vram_used), 2, 0));
  if (isfinite (d->gtt_total))
    g_string_append_printf (out, ", GTT %s GiB", hr_cli_number (c, hr_to_gib (d->gtt_total), 2, 0));
  g_string_append_printf (out, "%s\n", d->integrated ? " (integrated: shares system RAM)" : "");
  if (d->match)
    g_string_append_printf (out, "               matched %s (%s) by %s\n", d->match->id, d->match->name, d->match_by);
  else
    g_string_append (out, "               not in the catalog: a custom GPU with the detected memory, the rest unknown\n");
}

static char *
detect_text (const HrSystem *sys,
             const HrGpu    *device,
             int             count)
{
  GString *out = g_string_new ("This computer\n");
  char a[HR_CLI_NUM_SIZE], b[HR_CLI_NUM_SIZE], c[HR_CLI_NUM_SIZE];
  double used = hr_system_used_bytes (sys);

  g_string_append_printf (out, "  CPU          %s · %d cores, %d logical CPUs\n",
                          sys->cpu_model ? sys->cpu_model : "unknown", sys->physical_cores, sys->logical_cpus);
  g_string_append_printf (out, "  RAM          %s GiB total, %s GiB available\n",
                          hr_cli_number (a, hr_to_gib (sys->mem_total), 2, 0),
                          hr_cli_number (b, hr_to_gib (sys->mem_available), 2, 0));
  g_string_append_printf (out, "  RAM speed    %s GB/s (%s)\n", hr_cli_number (c, sys->ram_bandwidth_gbs, 1, 0),
                          sys->ram_bandwidth_source ? sys->ram_bandwidth_source : "unknown: not in the CPU table");
  if (sys->gpus->len == 0)
    g_string_append (out, "  GPUs         none found\n");
  for (guint i = 0; i < sys->gpus->len; i++)
    text_gpu (out, g_ptr_array_index (sys->gpus, i), i);
  if (device)
    {
      g_string_append (out, "--gpu this     ");
      if (count > 1)
        g_string_append_printf (out, "%d× ", count);
      g_string_append_printf (out, "%s · %s GiB · %s GB/s · backend %s\n", device->name,
                              hr_cli_number (a, device->memory_gib, 2, 0), hr_cli_number (b, device->bandwidth_gbs, 1, 0),
                              hr_backend_to_string (device->backend));
      if (isfinite (used))
        g_string_append_printf (out, "               %s GiB of it already in use (--free-memory sizes against the rest)\n",
                                hr_cli_number (c, hr_to_gib (used), 2, 0));
    }
  else
    g_string_append (out, "--gpu this     nothing usable found\n");
  for (guint i = 0; i < sys->notes->len; i++)
    g_string_append_printf (out, "note: %s\n", (const char *) g_ptr_array_index (sys->notes, i));
  return g_string_free (out, FALSE);
}

int
hr_cli_detect (int              argc,
               char           **argv,
               const HrCatalog *catalog)
{
  gboolean json = FALSE, remeasure = FALSE;
  const GOptionEntry entries[] = {
    { "remeasure", 0, 0, G_OPTION_ARG_NONE, &remeasure,
      "Measure the RAM bandwidth again (a CPU not in the bandwidth table), not the cached figure", NULL },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSystem) sys = NULL;
  g_autoptr(HrGpu) device = NULL;
  g_autofree char *text = NULL;
  int count = 1;

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) {
                               .parameter = "",
                               .summary = "This computer's GPUs, CPU and RAM, and how they match "
                                          "the catalog.\nReads under HEADROOM_SYSROOT (default /); "
                                          "nvidia-smi from PATH.",
                               .json = &json, .entries = entries },
                             &error))
    return hr_cli_fail (error);
  sys = hr_system_detect (remeasure ? HR_RAM_MEASURE_AGAIN : HR_RAM_MEASURE_IF_UNKNOWN);
  hr_system_match (sys, catalog);
  device = hr_system_make_device (sys, FALSE, &count);
  text = json ? detect_json (sys, device, count) : detect_text (sys, device, count);
  fputs (text, stdout);
  return 0;
}
