/* hr-application.c — the Headroom application: owns the session (catalog, prices, user data,
 * scenario) and the settings */
#include "hr-application.h"
#include "hr-detect.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-about.h"
#include "hr-preferences-window.h"
#include "hr-pricing-manager.h"
#include "hr-userdata.h"
#include "hr-window.h"

struct _HrApplication
{
  AdwApplication parent_instance;

  HrSession *session;
  GSettings *settings;
  HrPricingManager *pricing;  /* the session's */
  char *userdata_warning;  /* a damaged file set aside at start-up, for the first window */
  int this_count;          /* GPUs of the detected kind ("This Computer"); 0: nothing found */
  gboolean due_checked;    /* the start-up refresh was considered */
  HrSystem *system;        /* this computer, as detected in startup */
  gboolean measuring_ram;  /* its RAM bandwidth is being measured in a worker */
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

enum
{
  PROP_0,
  PROP_MEASURING_RAM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

  gtk_window_present (GTK_WINDOW (hr_about_window_new (parent, hr_session_get_catalog (self->session))));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *parent = gtk_application_get_active_window (app);
  GtkWidget *preferences;

  /* one at a time: a second Ctrl+, brings the open one forward */
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (HR_IS_PREFERENCES_WINDOW (l->data))
      {
        gtk_window_present (l->data);
        return;
      }
  preferences = GTK_WIDGET (hr_preferences_window_new (parent));

  hr_window_name_controls (preferences);
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
refresh_prices_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  HrApplication *self = user_data;

  /* the outcome reaches every window's Cloud view as a toast */
  hr_pricing_manager_refresh (self->pricing);
}

static void
pricing_busy_cb (HrApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "refresh-prices");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), !hr_pricing_manager_get_busy (self->pricing));
}

/* Choosing this computer's GPUs offers their number as the GPU count. */
static void
this_chosen_cb (HrApplication *self)
{
  g_autofree char *id = g_settings_get_string (self->settings, "gpu");

  if (g_strcmp0 (id, "this") == 0 || g_strcmp0 (id, "this-free") == 0)
    {
      g_auto(GStrv) others = hr_system_other_gpus (self->system);

      g_settings_set_int (self->settings, "gpus", self->this_count);
      /* a mixed machine (#31): its other GPUs beside this kind */
      if (others[0] != NULL)
        g_settings_set_strv (self->settings, "extra-gpus", (const char * const *) others);
    }
}

/* "This Computer" in the GPU pickers; on the first launch (no GPU chosen yet) it is what the
 * app opens on, with several alike GPUs as the GPU count.  Nothing found: nothing changes. */
static void
detect_this_computer (HrApplication *self,
                      HrCatalog     *catalog)
{
  g_autoptr(GVariant) chosen = g_settings_get_user_value (self->settings, "gpu");
  g_auto(GStrv) others = NULL;
  HrSystem *system;
  int n;

  /* the RAM bandwidth of a CPU not in the table comes from the cache here; when there is
   * none, it is measured in a worker once the session exists (hr_application_measure_ram),
   * so the first frame never waits for it */
  system = self->system = hr_system_detect (HR_RAM_MEASURE_CACHED);
  hr_system_match (system, catalog);
  n = self->this_count = hr_system_add_to_catalog (system, catalog);
  others = hr_system_other_gpus (system);
  if (n > 1 || others[0] != NULL)
    g_signal_connect_object (self->settings, "changed::gpu", G_CALLBACK (this_chosen_cb), self,
                             G_CONNECT_SWAPPED);
  if (n > 0 && chosen == NULL)
    {
      g_settings_set_string (self->settings, "gpu", "this");
      g_settings_set_int (self->settings, "gpus", n);
      /* a mixed machine (#31): every GPU of it, the others beside "this" */
      if (others[0] != NULL)
        g_settings_set_strv (self->settings, "extra-gpus", (const char * const *) others);
    }
}

/* Measuring the RAM bandwidth ---------------------------------------------------------------- */

typedef struct
{
  double gbs;
  gint64 measured_at;
} RamMeasure;

static void
measure_ram_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const HrSystem *system = task_data;   /* its CPU and memory fields: not changed meanwhile */
  RamMeasure *m = g_new0 (RamMeasure, 1);

  m->gbs = hr_detect_measure_ram (system, &m->measured_at);
  g_task_return_pointer (task, m, g_free);
}

static void
update_this_computer (HrCatalog     *catalog,
                      gconstpointer  data)
{
  hr_system_update_catalog (data, catalog);
}

static void
measure_ram_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  HrApplication *self = HR_APPLICATION (object);
  g_autofree RamMeasure *m = g_task_propagate_pointer (G_TASK (result), NULL);

  self->measuring_ram = FALSE;
  /* a measurement that failed (no memory for the buffer) leaves the figure in place */
  if (m != NULL && isfinite (m->gbs))
    {
      hr_system_set_measured_ram (self->system, m->gbs, m->measured_at);
      /* every view sizing "This Computer" estimates again with the figure */
      if (self->session != NULL)
        hr_session_edit_catalog (self->session, update_this_computer, self->system);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEASURING_RAM]);
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_activated },
  { .name = "about", .activate = about_activated },
  { .name = "preferences", .activate = preferences_activated },
  { .name = "refresh-prices", .activate = refresh_prices_activated },
};

/* GApplication ------------------------------------------------------------------------------- */

/* Generated by glib-compile-resources (data/meson.build, c_name hr_data). */
GResource *hr_data_get_resource (void);

/* The bundled catalog, parsed on a worker thread while GTK opens the display (the catalog
 * touches nothing of GTK's); the failure's message travels back with it. */
typedef struct
{
  HrCatalog *catalog;
  GError *error;
} CatalogLoad;

static gpointer
load_catalog_thread (gpointer data)
{
  CatalogLoad *load = data;

  load->catalog = hr_catalog_new_default (&load->error);
  return NULL;
}

static HrCatalog *
join_catalog_load (GThread     *thread,
                   CatalogLoad *load)
{
  g_thread_join (thread);
  if (load->catalog == NULL)
    {
      /* the bundled catalog is compiled in: this only happens with a broken build */
      g_critical ("Could not load the bundled catalog: %s", load->error->message);
      g_clear_error (&load->error);
      return hr_catalog_new_empty ();
    }
  return load->catalog;
}

/* GTK reads the icon theme's index (some 750 folders) at the first icon lookup: a worker does
 * it while the window is built, and the window's first lookup waits for it if need be.
 * GtkIconTheme takes lookups from other threads once it is set up on this one. */
static gpointer
load_icon_theme_thread (gpointer data)
{
  g_autoptr(GtkIconTheme) theme = data;

  gtk_icon_theme_has_icon (theme, "open-menu-symbolic");
  return NULL;
}

static void
hr_application_startup (GApplication *app)
{
  HrApplication *self = HR_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPricingManager) pricing = NULL;
  CatalogLoad load = { NULL, NULL };
  GThread *loader;
  HrCatalog *catalog;
  HrUserData *userdata;

  /* GLib registers compiled-in resources on their first use, and a thread that asks while
   * another registers them finds none: they are registered here, before the worker starts */
  hr_data_get_resource ();
  /* GLib makes its C locale (g_ascii_strtoll (), g_ascii_string_to_signed ()) on first use
   * behind a GOnce; two threads meeting there can leave EAGAIN in errno, which
   * g_ascii_string_to_signed () then reports as "not a number".  It is made here, before any
   * worker parses a number. */
  g_ascii_strtoll ("0", NULL, 10);
  loader = g_thread_new ("hr-catalog", load_catalog_thread, &load);

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (app);
  g_thread_unref (g_thread_new ("hr-icon-theme", load_icon_theme_thread,
                                g_object_ref (gtk_icon_theme_get_for_display (gdk_display_get_default ()))));

  self->settings = g_settings_new (APP_ID);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (color_scheme_changed_cb), self, G_CONNECT_SWAPPED);
  apply_color_scheme (self);

  catalog = join_catalog_load (loader, &load);

  /* the user's own models and GPUs; a damaged file is moved aside, the rest still loads */
  userdata = hr_userdata_new (NULL);
  g_clear_error (&error);
  if (!hr_userdata_load (userdata, catalog, &error))
    self->userdata_warning = g_strdup (error->message);

  detect_this_computer (self, catalog);
  self->session = hr_session_new (catalog, userdata, self->settings);

  /* the cached feed, else the bundled snapshot; a fetch when the cache is a day old (a
   * damaged cache is set aside, and the first window's Cloud view says so) */
  pricing = hr_pricing_manager_new (catalog, self->settings, NULL);
  hr_pricing_manager_load (pricing, NULL);
  hr_session_set_pricing_manager (self->session, pricing);
  self->pricing = pricing;

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                         (const char *[]) { "<Control>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.refresh-prices",
                                         (const char *[]) { "<Control>r", NULL });
  /* the window's keyboard shortcuts (hr-window.c builds them on demand) */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                         (const char *[]) { "<Control>question", NULL });
  /* the window's importer ("import.*", hr-import.c): a GGUF file or a config.json */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "import.open-file",
                                         (const char *[]) { "<Control>o", NULL });
  g_signal_connect_object (self->pricing, "notify::busy", G_CALLBACK (pricing_busy_cb), self, G_CONNECT_SWAPPED);
  /* the start-up price refresh, and on a first launch on a CPU the bandwidth table does not know
   * the RAM bandwidth measurement, wait for the first window's first frame:
   * hr_application_refresh_when_due() */
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

  /* after the windows: the session joins its worker, then lets go of the pricing manager
   * (its dispose cancels a fetch still running) and the catalog it borrows */
  g_clear_object (&self->session);
  g_clear_pointer (&self->system, hr_system_free);
  g_clear_pointer (&self->userdata_warning, g_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_application_parent_class)->finalize (object);
}

static void
hr_application_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HrApplication *self = HR_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_MEASURING_RAM:
      g_value_set_boolean (value, self->measuring_ram);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = hr_application_finalize;
  object_class->get_property = hr_application_get_property;
  app_class->startup = hr_application_startup;
  app_class->activate = hr_application_activate;

  properties[PROP_MEASURING_RAM] =
    g_param_spec_boolean ("measuring-ram", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
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
  return self->session ? hr_session_get_catalog (self->session) : NULL;
}

GSettings *
hr_application_get_settings (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->settings;
}

HrSession *
hr_application_get_session (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->session;
}

void
hr_application_refresh_when_due (HrApplication *self)
{
  g_return_if_fail (HR_IS_APPLICATION (self));

  if (self->due_checked || self->pricing == NULL)
    return;
  self->due_checked = TRUE;
  hr_pricing_manager_refresh_when_due (self->pricing);
  /* A worker streaming a few hundred MiB beside the start-up would take memory bandwidth and a
   * core (of two, here) from the first frame: 70 ms of a first launch's 465 ms, measured with
   * bench-gui.  It starts once the window is drawn; the estimate takes the figure when it is in. */
  if (self->system != NULL && isnan (self->system->ram_bandwidth_gbs))
    hr_application_measure_ram (self);
}

HrPricingManager *
hr_application_get_pricing_manager (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->pricing;
}

HrUserData *
hr_application_get_userdata (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->session ? hr_session_get_userdata (self->session) : NULL;
}

char *
hr_application_take_userdata_warning (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return g_steal_pointer (&self->userdata_warning);
}

const HrSystem *
hr_application_get_system (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);
  return self->system;
}

gboolean
hr_application_get_measuring_ram (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), FALSE);
  return self->measuring_ram;
}

gboolean
hr_application_measure_ram (HrApplication *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (HR_IS_APPLICATION (self), FALSE);

  if (self->system == NULL || !self->system->ram_bandwidth_measurable || self->measuring_ram)
    return FALSE;
  self->measuring_ram = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEASURING_RAM]);
  task = g_task_new (self, NULL, measure_ram_done, NULL);
  g_task_set_source_tag (task, hr_application_measure_ram);
  g_task_set_task_data (task, self->system, NULL);
  g_task_run_in_thread (task, measure_ram_thread);
  return TRUE;
}
