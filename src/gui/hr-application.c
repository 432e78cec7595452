/* hr-application.c — the Headroom application: owns the catalog and the settings */
#include "hr-application.h"

#include <glib/gi18n-lib.h>

#include "hr-window.h"

struct _HrApplication
{
  AdwApplication parent_instance;

  HrCatalog *catalog;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

static void
apply_color_scheme (HrApplication *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  switch (g_settings_get_enum (self->settings, "color-scheme"))
    {
    case 1:
      adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
      break;
    case 2:
      adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
      break;
    default:
      adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
      break;
    }
}

static void
color_scheme_changed_cb (HrApplication *self)
{
  apply_color_scheme (self);
}

/* Actions ------------------------------------------------------------------------------------ */

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GApplication *app = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  /* closing lets each window save its size; quit then ends the main loop */
  for (GList *l = windows; l != NULL;)
    {
      GList *next = l->next;
      gtk_window_close (l->data);
      l = next;
    }
  g_application_quit (app);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  HrApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const HrPricing *pricing = self->catalog ? hr_catalog_get_pricing (self->catalog) : NULL;
  g_autofree char *prices = NULL;
  g_autofree char *debug = NULL;
  GtkWidget *about;
  const char *developers[] = { "The Headroom developers", NULL };

  prices = g_strdup_printf (_("Cloud GPU prices come from public price lists; the bundled snapshot was checked on %s. "
                              "Prices change often: refresh them from the Cloud view or a pricing feed in Preferences."),
                            pricing && pricing->updated ? pricing->updated : _("an unknown date"));
  debug = g_strdup_printf ("Headroom %s\nGTK %u.%u.%u\nlibadwaita %u.%u.%u\nGLib %u.%u.%u\n"
                           "Catalog: %u models, %u GPUs, %u quantizations, %u cloud offers\n",
                           PACKAGE_VERSION,
                           gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
                           adw_get_major_version (), adw_get_minor_version (), adw_get_micro_version (),
                           glib_major_version, glib_minor_version, glib_micro_version,
                           self->catalog ? hr_catalog_n_models (self->catalog) : 0,
                           self->catalog ? hr_catalog_n_gpus (self->catalog) : 0,
                           self->catalog ? hr_catalog_n_quants (self->catalog) : 0,
                           pricing && pricing->offers ? pricing->offers->len : 0);

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", TRUE,
                        "application-name", _("Headroom"),
                        "application-icon", APP_ID,
                        "developer-name", _("The Headroom developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Can this open-weight language model run on this hardware, with how much "
                                      "memory to spare, how fast, and at what cost? Headroom answers offline and "
                                      "instantly."),
                        "website", "https://github.com/headroomapp/headroom",
                        "issue-url", "https://github.com/headroomapp/headroom/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2025 The Headroom developers",
                        "developers", developers,
                        "translator-credits", _("translator-credits"),
                        "debug-info", debug,
                        NULL);

  adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _("Model architectures"), NULL,
                                      GTK_LICENSE_CUSTOM,
                                      _("Layer counts, attention heads, experts and context limits come from each "
                                        "model’s published config.json on Hugging Face and its model card; measured "
                                        "GGUF file sizes from the public file listings of the quantized repositories."));
  adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _("Accelerators"), NULL,
                                      GTK_LICENSE_CUSTOM,
                                      _("Memory, bandwidth, throughput, power and prices come from vendor datasheets "
                                        "and launch announcements, with the source recorded next to every figure in "
                                        "the catalog. Unknown figures stay unknown."));
  adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _("Quantization formats"), NULL,
                                      GTK_LICENSE_CUSTOM,
                                      _("Block sizes and per-tensor type rules follow ggml and llama.cpp’s "
                                        "llama-quantize (MIT licence)."));
  adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _("Cloud prices"), NULL,
                                      GTK_LICENSE_CUSTOM, prices);
  adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _("Speed estimates"), NULL,
                                      GTK_LICENSE_CUSTOM,
                                      _("Decode efficiency is calibrated against published llama-bench results; "
                                        "estimates carry a range, not a promise."));
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_activated },
  { .name = "about", .activate = about_activated },
};

/* GApplication ------------------------------------------------------------------------------- */

static void
hr_application_startup (GApplication *app)
{
  HrApplication *self = HR_APPLICATION (app);
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (app);

  self->settings = g_settings_new (APP_ID);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (color_scheme_changed_cb), self, G_CONNECT_SWAPPED);
  apply_color_scheme (self);

  self->catalog = hr_catalog_new_default (&error);
  if (self->catalog == NULL)
    {
      /* the bundled catalog is compiled in: this only happens with a broken build */
      g_critical ("Could not load the bundled catalog: %s", error->message);
      self->catalog = hr_catalog_new_empty ();
    }

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
}

static void
hr_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (hr_window_new (HR_APPLICATION (app)));
  gtk_window_present (window);
}

static void
hr_application_finalize (GObject *object)
{
  HrApplication *self = HR_APPLICATION (object);

  /* after the windows: their views never outlive the catalog (workers are joined) */
  g_clear_pointer (&self->catalog, hr_catalog_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_application_parent_class)->finalize (object);
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = hr_application_finalize;
  app_class->startup = hr_application_startup;
  app_class->activate = hr_application_activate;
}

static void
hr_application_init (HrApplication *self)
{
}

/* Public API --------------------------------------------------------------------------------- */

HrApplication *
hr_application_new (void)
{
  return g_object_new (HR_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/headroomapp/Headroom",
                       NULL);
}

HrCatalog *
hr_application_get_catalog (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->catalog;
}

GSettings *
hr_application_get_settings (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->settings;
}
