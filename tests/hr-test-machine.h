/* hr-test-machine.h — a fake computer for the detection tests: files under a temporary root
 * that HEADROOM_SYSROOT points at, and a fake nvidia-smi first on PATH */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes @contents to @root/@rel (folders made as needed) with permissions @mode. */
void  hr_test_put          (const char *root,
                            const char *rel,
                            const char *contents,
                            int         mode);

/* A new temporary root named after @prefix with a Ryzen 9 7950X, 64 GiB of RAM and an
 * nvidia-smi that prints @smi_lines (its CSV query's rows); HEADROOM_SYSROOT and PATH point at
 * it.  Free the result with g_free (). */
char *hr_test_gpu_machine  (const char *prefix,
                            const char *smi_lines);

G_END_DECLS
