/* hr-hub-files.c — the files of the Hub repository a model was sized from (hr-hub-files.h) */
#include "hr-hub-files.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-hub-api.h"
#include "hr-hub-id.h"
#include "hr-hub-token.h"

struct _HrHubFiles
{
  AdwBin parent_instance;

  AdwPreferencesGroup *group;
  AdwExpanderRow *expander;
  GPtrArray *rows;              /* AdwActionRow, in the expander */
  GSettings *settings;          /* NULL when the schema is not installed */
  GCancellable *cancellable;    /* the listing being read */

  char *repo;                   /* listed, or being listed */
  char *revision;
  char *quant;                  /* marked */
  gboolean gguf;                /* the model was sized from a GGUF file */
  HrHubTree *tree;              /* NULL until listed */
  char *error;
};

G_DEFINE_FINAL_TYPE (HrHubFiles, hr_hub_files, ADW_TYPE_BIN)

/* What each role is for, in the words of the issue (hr_hub_role_to_string () is the CLI's). */
static const char *
role_title (HrHubRole role)
{
  switch (role)
    {
    case HR_HUB_ROLE_GGUF:
      return _("GGUF quant");
    case HR_HUB_ROLE_PROJECTOR:
      return _("Vision projector");
    case HR_HUB_ROLE_SAFETENSORS:
      return _("Weights shard");
    case HR_HUB_ROLE_INDEX:
      return _("Shard index");
    case HR_HUB_ROLE_CONFIG:
      return _("Configuration");
    case HR_HUB_ROLE_TOKENIZER:
      return _("Tokenizer");
    case HR_HUB_ROLE_OTHER_WEIGHTS:
      return _("Other weights, not loaded");
    case HR_HUB_ROLE_OTHER:
    case HR_HUB_N_ROLES:
    default:
      return "";
    }
}

/* "4.4 GiB (4,687,000,000 bytes)": the exact size, as the listing gives it */
static char *
exact_size (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
}

static void
clear_rows (HrHubFiles *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_expander_row_remove (self->expander, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
}

static void
add_row (HrHubFiles *self,
         const char *title,
         const char *subtitle,
         gboolean    chosen)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *a11y = NULL;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  if (chosen)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("object-select-symbolic");

      gtk_widget_set_tooltip_text (icon, _("Sized from this file"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Sized from this file"), -1);
      gtk_widget_add_css_class (icon, "accent");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
      /* TRANSLATORS: a file of a Hub repository, "BF16/Model-00001-of-00002.gguf: GGUF quant…, sized from this file" */
      a11y = g_strdup_printf (_("%s: %s, sized from this file"), title, subtitle);
    }
  else
    a11y = g_strdup_printf ("%s: %s", title, subtitle);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  g_object_set_data (G_OBJECT (row), "hr-chosen", GINT_TO_POINTER (chosen));
  adw_expander_row_add_row (self->expander, row);
  g_ptr_array_add (self->rows, row);
}

/* The files the model is sized from: the GGUF files of its quant, or the safetensors weights. */
static gboolean
is_chosen (HrHubFiles      *self,
           const HrHubFile *f)
{
  if (self->gguf)
    return f->role == HR_HUB_ROLE_GGUF && f->quant != NULL && self->quant != NULL &&
           g_ascii_strcasecmp (f->quant, self->quant) == 0;
  return f->role == HR_HUB_ROLE_SAFETENSORS;
}

static void
fill (HrHubFiles *self)
{
  g_autoptr(GPtrArray) models = NULL;
  guint64 total = 0;
  guint n = 0;

  clear_rows (self);
  if (self->tree == NULL)
    {
      adw_expander_row_set_subtitle (self->expander, self->error != NULL
                                   ? self->error : _("Reading the repository’s files…"));
      return;
    }
  for (guint i = 0; i < self->tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (self->tree->files, i);
      g_autofree char *size = NULL, *subtitle = NULL;

      /* what `headroom-cli hub files` lists: every file that matters for sizing */
      if (f->role == HR_HUB_ROLE_OTHER)
        continue;
      n++;
      total += f->size;
      size = exact_size (f->size);
      if (f->split_of > 0 && f->quant != NULL)
        /* TRANSLATORS: role, quant, part of a split file, size: "GGUF quant, BF16, part 1 of 2, 8.4 GiB (9000000000 bytes)" */
        subtitle = g_strdup_printf (_("%s, %s, part %u of %u, %s"), role_title (f->role), f->quant,
                                    f->split_no, f->split_of, size);
      else if (f->quant != NULL)
        subtitle = g_strdup_printf (_("%s, %s, %s"), role_title (f->role), f->quant, size);
      else
        subtitle = g_strdup_printf (_("%s, %s"), role_title (f->role), size);
      add_row (self, f->path, subtitle, is_chosen (self, f));
    }
  /* a split model is one quant: its parts summed */
  models = hr_hub_tree_gguf_models (self->tree);
  for (guint i = 0; i < models->len; i++)
    {
      const HrHubGgufModel *m = g_ptr_array_index (models, i);
      g_autofree char *size = NULL, *title = NULL, *subtitle = NULL;

      if (m->n_parts < 2)
        continue;
      size = exact_size (m->bytes);
      /* TRANSLATORS: a GGUF quant split into files, "BF16: 2 parts together" */
      title = g_strdup_printf (ngettext ("%s: %u part together", "%s: %u parts together", m->n_parts),
                               m->quant != NULL ? m->quant : "?", m->n_parts);
      subtitle = m->complete ? g_strdup_printf (_("GGUF quant, split parts summed, %s"), size)
                             : g_strdup_printf (_("GGUF quant, split parts summed, %s; some parts are missing"), size);
      add_row (self, title, subtitle,
               self->gguf && m->quant != NULL && self->quant != NULL &&
               g_ascii_strcasecmp (m->quant, self->quant) == 0);
    }
  {
    g_autofree char *size = g_format_size_full (total, G_FORMAT_SIZE_IEC_UNITS);
    /* TRANSLATORS: "demo-org/Demo-GGUF: 5 files, 16.2 GiB" */
    g_autofree char *subtitle = g_strdup_printf (ngettext ("%s: %u file, %s", "%s: %u files, %s", n),
                                                 self->repo, n, size);

    adw_expander_row_set_subtitle (self->expander, n > 0 ? subtitle : self->repo);
  }
}

/* Reading the listing ----------------------------------------------------------------------- */

typedef struct
{
  char *endpoint;
  char *token;
  char *repo;
  char *revision;
} ListJob;

static void
list_job_free (ListJob *job)
{
  g_free (job->endpoint);
  if (job->token != NULL)
    memset (job->token, 0, strlen (job->token));
  g_free (job->token);
  g_free (job->repo);
  g_free (job->revision);
  g_free (job);
}

static void
list_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ListJob *job = task_data;
  g_autofree char *cache = hr_hub_default_cache_dir ();
  g_autoptr(HrHub) hub = NULL;
  HrHubTree *tree = NULL;
  GError *error = NULL;

  hub = hr_hub_new (job->endpoint, job->token, &error);
  if (hub != NULL)
    {
      /* the sizing has just asked the Hub: its answer is in the cache */
      hr_hub_set_cache (hub, cache, FALSE);
      tree = hr_hub_list_files (hub, job->repo, job->revision, cancellable, &error);
    }
  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, (GDestroyNotify) hr_hub_tree_free);
}

static void
listed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  HrHubTree *tree = g_task_propagate_pointer (G_TASK (result), &error);
  HrHubFiles *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = HR_HUB_FILES (source);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tree, hr_hub_tree_free);
  g_clear_pointer (&self->error, g_free);
  self->tree = tree;
  if (tree == NULL)
    self->error = g_strdup (error->message);
  fill (self);
}

static void
start_listing (HrHubFiles *self)
{
  GTask *task;
  ListJob *job = g_new0 (ListJob, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job->repo = g_strdup (self->repo);
  job->revision = g_strdup (self->revision);
  if (self->settings != NULL)
    job->endpoint = g_settings_get_string (self->settings, "hub-endpoint");
  task = g_task_new (self, self->cancellable, listed_cb, NULL);
  g_task_set_source_tag (task, start_listing);
  g_task_set_task_data (task, job, (GDestroyNotify) list_job_free);
  hr_hub_token_run_in_thread (task, self->settings, &job->token, list_thread);
}

/* API --------------------------------------------------------------------------------------- */

void
hr_hub_files_set_model (HrHubFiles    *self,
                        const HrModel *model,
                        const char    *quant)
{
  g_autofree char *ref = NULL, *repo = NULL, *revision = NULL, *selector = NULL;
  gboolean gguf;

  g_return_if_fail (HR_IS_HUB_FILES (self));

  ref = model != NULL ? hr_hub_model_ref (model) : NULL;
  if (ref == NULL || !hr_hub_ref_parse (ref, &repo, &revision, &selector, NULL))
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gguf = model->origin == HR_MODEL_ORIGIN_GGUF;
  if (quant == NULL)
    quant = selector;
  if (g_strcmp0 (repo, self->repo) == 0 && g_strcmp0 (revision, self->revision) == 0)
    {
      if (gguf == self->gguf && g_strcmp0 (quant, self->quant) == 0)
        return;
      self->gguf = gguf;
      g_free (self->quant);
      self->quant = g_strdup (quant);
      if (self->cancellable == NULL)
        fill (self);
      return;
    }
  g_free (self->repo);
  self->repo = g_steal_pointer (&repo);
  g_free (self->revision);
  self->revision = g_steal_pointer (&revision);
  g_free (self->quant);
  self->quant = g_strdup (quant);
  self->gguf = gguf;
  g_clear_pointer (&self->tree, hr_hub_tree_free);
  g_clear_pointer (&self->error, g_free);
  fill (self);
  start_listing (self);
}

gboolean
hr_hub_files_is_busy (HrHubFiles *self)
{
  g_return_val_if_fail (HR_IS_HUB_FILES (self), FALSE);
  return self->cancellable != NULL;
}

char *
hr_hub_files_describe (HrHubFiles *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (HR_IS_HUB_FILES (self), NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GObject *row = g_ptr_array_index (self->rows, i);

      g_string_append_printf (out, "%s — %s%s\n", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                              adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                              g_object_get_data (row, "hr-chosen") != NULL ? " [chosen]" : "");
    }
  return g_string_free (out, FALSE);
}

/* GObject ----------------------------------------------------------------------------------- */

static void
hr_hub_files_dispose (GObject *object)
{
  HrHubFiles *self = HR_HUB_FILES (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (hr_hub_files_parent_class)->dispose (object);
}

static void
hr_hub_files_finalize (GObject *object)
{
  HrHubFiles *self = HR_HUB_FILES (object);

  g_ptr_array_unref (self->rows);
  g_free (self->repo);
  g_free (self->revision);
  g_free (self->quant);
  g_free (self->error);
  g_clear_pointer (&self->tree, hr_hub_tree_free);
  G_OBJECT_CLASS (hr_hub_files_parent_class)->finalize (object);
}

static void
hr_hub_files_class_init (HrHubFilesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_hub_files_dispose;
  object_class->finalize = hr_hub_files_finalize;
}

static void
hr_hub_files_init (HrHubFiles *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source != NULL ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;

  self->rows = g_ptr_array_new ();
  if (schema != NULL)
    self->settings = g_settings_new (APP_ID);

  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  self->expander = ADW_EXPANDER_ROW (adw_expander_row_new ());
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->expander), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->expander), _("Files on the Hub"));
  adw_preferences_group_add (self->group, GTK_WIDGET (self->expander));
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->group));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
hr_hub_files_new (void)
{
  return g_object_new (HR_TYPE_HUB_FILES, NULL);
}
