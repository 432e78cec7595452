/* hr-test-machine.c — a fake computer for the detection tests (see hr-test-machine.h) */
#include "hr-test-machine.h"

#include <glib/gstdio.h>

void
hr_test_put (const char *root,
             const char *rel,
             const char *contents,
             int         mode)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

char *
hr_test_gpu_machine (const char *prefix,
                     const char *smi_lines)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", prefix);
  g_autofree char *smi = g_strdup_printf ("#!/bin/sh\nprintf '%s'\n", smi_lines);
  g_autofree char *bin = NULL;
  char *root = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  hr_test_put (root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                                     "model name\t: AMD Ryzen 9 7950X 16-Core Processor\n", 0644);
  hr_test_put (root, "proc/meminfo", "MemTotal:       67108864 kB\nMemAvailable:   60000000 kB\n", 0644);
  hr_test_put (root, "bin/nvidia-smi", smi, 0755);
  bin = g_build_filename (root, "bin", NULL);
  g_setenv ("HEADROOM_SYSROOT", root, TRUE);
  g_setenv ("PATH", bin, TRUE);
  return root;
}
