/* hr-bundled.h — the data files built into the program (data/meson.build: catalogs, the pricing
 * snapshot, the SkyPilot catalog snapshot) */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The bundled file at resource @path; NULL with an error (G_RESOURCE_ERROR) when the program
 * was built without its data or the file is not in it. */
GBytes         *hr_bundled_lookup           (const char  *path,
                                             GError     **error);

G_END_DECLS
