/* hr-detect-private.h — shared between the detection files, not API */
#pragma once

#include "hr-detect.h"

G_BEGIN_DECLS

/* The printable part of a field (control characters → spaces, UTF-8 repaired, at most 96
 * characters, trimmed); NULL when nothing is left. */
char           *hr_detect_clean_text        (const char      *text,
                                             gsize            len);
/* Sets system->ram_bandwidth_gbs from the CPU table, else as @measure says; @real: the real
 * root (measuring is allowed). */
void            hr_detect_fill_bandwidth    (HrSystem        *system,
                                             HrRamMeasure        measure,
                                             gboolean         real);
/* "card2" < "card10" */
int             hr_detect_compare_cards     (gconstpointer    a,
                                             gconstpointer    b,
                                             gpointer         user_data);

G_END_DECLS
