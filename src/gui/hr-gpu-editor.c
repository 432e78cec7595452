/* hr-gpu-editor.c — a form for the user's own GPU: add one, or edit one already saved
 *
 * The checking is hr-import-state.c's (no GTK, tested without a display); this file only
 * reads the entries into an HrGpuFormInput and shows the HrGpuFormState it gets back.
 */
#include "hr-gpu-editor.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _HrGpuEditor
{
  AdwWindow parent_instance;

  /* template */
  AdwWindowTitle *window_title;
  GtkButton *save_button;
  AdwEntryRow *name_row;
  AdwComboRow *backend_row;
  AdwComboRow *generation_row;
  AdwEntryRow *memory_row;
  AdwEntryRow *bandwidth_row;
  AdwEntryRow *tflops_row;
  AdwActionRow *unified_row;
  GtkSwitch *unified_switch;
  AdwEntryRow *share_row;
  AdwEntryRow *power_row;
  AdwEntryRow *price_row;
  GtkLabel *error_label;

  AdwEntryRow *rows[HR_GPU_N_FIELDS];
  GtkLabel *error_labels[HR_GPU_N_FIELDS];
  gboolean touched[HR_GPU_N_FIELDS];
  const HrCatalog *catalog;
  char *editing_id;
  HrGpuFormState state;
  gboolean filling;
};

enum
{
  SIGNAL_SAVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HrGpuEditor, hr_gpu_editor, ADW_TYPE_WINDOW)

/* The backend row lists core's hand-picked backends (hr_backend_choices()); another backend
 * (a vendor stack) shows as the first, CUDA. */
static guint
backend_position (HrBackend backend)
{
  guint n;
  const HrBackend *choices = hr_backend_choices (&n);

  for (guint i = 0; i < n; i++)
    if (choices[i] == backend)
      return i;
  return 0;
}

static HrBackend
backend_at (guint position)
{
  guint n;
  const HrBackend *choices = hr_backend_choices (&n);

  return choices[position < n ? position : 0];
}

/* The generation row lists "Not known" first, then every generation of core's table in its
 * order: position = the HrGpuGeneration value. */
static HrGpuGeneration
generation_at (guint position)
{
  return position > HR_GEN_UNKNOWN && position < HR_N_GENERATIONS ? (HrGpuGeneration) position : HR_GEN_UNKNOWN;
}

static guint
generation_position (HrGpuGeneration generation)
{
  return hr_gpu_generation_info (generation) != NULL ? (guint) generation : HR_GEN_UNKNOWN;
}

static void
read_input (HrGpuEditor    *self,
            HrGpuFormInput *input)
{
  HrBackend backend = backend_at (adw_combo_row_get_selected (self->backend_row));

  memset (input, 0, sizeof *input);
  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    input->text[f] = gtk_editable_get_text (GTK_EDITABLE (self->rows[f]));
  input->unified = gtk_switch_get_active (self->unified_switch);
  input->backend = backend;
  input->generation = generation_at (adw_combo_row_get_selected (self->generation_row));
  input->editing_id = self->editing_id;
}

static void
validate (HrGpuEditor *self)
{
  HrGpuFormInput input;

  read_input (self, &input);
  hr_gpu_form_validate (&self->state, &input, self->catalog);

  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    {
      const char *error = self->touched[f] ? self->state.error[f] : NULL;
      GtkWidget *row = GTK_WIDGET (self->rows[f]);

      gtk_label_set_label (self->error_labels[f], error ? error : "");
      gtk_widget_set_visible (GTK_WIDGET (self->error_labels[f]), error != NULL);
      if (error != NULL)
        gtk_widget_add_css_class (row, "error");
      else
        gtk_widget_remove_css_class (row, "error");
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      error ? error : "", -1);
      if (error != NULL)
        gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_INVALID,
                                     GTK_ACCESSIBLE_INVALID_TRUE, -1);
      else
        gtk_accessible_reset_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_INVALID);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->state.valid);
}

/* Callbacks ---------------------------------------------------------------------------------- */

static void
field_changed_cb (HrGpuEditor *self,
                  GtkEditable *editable)
{
  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    if (GTK_EDITABLE (self->rows[f]) == editable && !self->filling)
      self->touched[f] = TRUE;
  hr_gpu_editor_set_error (self, NULL);
  validate (self);
}

/* Enter in a field saves a form that is ready */
static void
field_activated_cb (HrGpuEditor *self)
{
  if (self->state.valid)
    hr_gpu_editor_save (self);
}

static void
unified_changed_cb (HrGpuEditor *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->share_row), gtk_switch_get_active (self->unified_switch));
  validate (self);
}

static void
save_clicked_cb (HrGpuEditor *self)
{
  hr_gpu_editor_save (self);
}

/* GtkWidget ------------------------------------------------------------------------------------ */

/* A focused entry keeps its cursor blinking until it loses focus: let it go before the window
 * goes, or GTK warns that the entry never saw its focus-out. */
static void
hr_gpu_editor_unmap (GtkWidget *widget)
{
  gtk_window_set_focus (GTK_WINDOW (widget), NULL);
  GTK_WIDGET_CLASS (hr_gpu_editor_parent_class)->unmap (widget);
}

/* GObject -------------------------------------------------------------------------------------- */

static void
hr_gpu_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_GPU_EDITOR);
  G_OBJECT_CLASS (hr_gpu_editor_parent_class)->dispose (object);
}

static void
hr_gpu_editor_finalize (GObject *object)
{
  HrGpuEditor *self = HR_GPU_EDITOR (object);

  hr_gpu_form_state_clear (&self->state);
  g_clear_pointer (&self->editing_id, g_free);

  G_OBJECT_CLASS (hr_gpu_editor_parent_class)->finalize (object);
}

static void
hr_gpu_editor_class_init (HrGpuEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_gpu_editor_dispose;
  object_class->finalize = hr_gpu_editor_finalize;
  widget_class->unmap = hr_gpu_editor_unmap;

  /* the form is valid: store hr_gpu_editor_build() and close, or hr_gpu_editor_set_error() */
  signals[SIGNAL_SAVE] =
    g_signal_new ("save", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-gpu-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, backend_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, generation_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, memory_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, bandwidth_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, tflops_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, unified_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, unified_switch);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, share_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, power_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, price_row);
  gtk_widget_class_bind_template_child (widget_class, HrGpuEditor, error_label);
  gtk_widget_class_bind_template_callback (widget_class, unified_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hr_gpu_editor_init (HrGpuEditor *self)
{
  g_autoptr(GtkStringList) backends = NULL;
  g_autoptr(GtkStringList) generations = NULL;
  const HrBackend *choices;
  guint n_choices;

  gtk_widget_init_template (GTK_WIDGET (self));

  hr_gpu_form_state_init (&self->state);
  self->rows[HR_GPU_FIELD_NAME] = self->name_row;
  self->rows[HR_GPU_FIELD_MEMORY] = self->memory_row;
  self->rows[HR_GPU_FIELD_BANDWIDTH] = self->bandwidth_row;
  self->rows[HR_GPU_FIELD_TFLOPS] = self->tflops_row;
  self->rows[HR_GPU_FIELD_POWER] = self->power_row;
  self->rows[HR_GPU_FIELD_PRICE] = self->price_row;
  self->rows[HR_GPU_FIELD_SHARE] = self->share_row;

  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    {
      GtkWidget *label = gtk_label_new (NULL);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->rows[f]), hr_gpu_field_title (f));
      /* the error sits in the row it is about, in words, not only in red */
      gtk_widget_add_css_class (label, "error");
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_set_visible (label, FALSE);
      adw_entry_row_add_suffix (self->rows[f], label);
      self->error_labels[f] = GTK_LABEL (label);
      g_signal_connect_object (self->rows[f], "changed", G_CALLBACK (field_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->rows[f], "entry-activated", G_CALLBACK (field_activated_cb), self, G_CONNECT_SWAPPED);
    }
  /* the backends a GPU of one's own can name */
  backends = gtk_string_list_new (NULL);
  choices = hr_backend_choices (&n_choices);
  for (guint i = 0; i < n_choices; i++)
    gtk_string_list_append (backends, hr_backend_display_name (choices[i]));
  adw_combo_row_set_model (self->backend_row, G_LIST_MODEL (backends));
  g_signal_connect_object (self->backend_row, "notify::selected", G_CALLBACK (validate), self, G_CONNECT_SWAPPED);
  /* the generations a GPU of one's own can name: "Not known", then core's table (the
   * architectures' own names, not translated) */
  generations = gtk_string_list_new (NULL);
  for (int g = HR_GEN_UNKNOWN; g < HR_N_GENERATIONS; g++)
    gtk_string_list_append (generations, g == HR_GEN_UNKNOWN ? _("Not known")
                                                             : hr_gpu_generation_info ((HrGpuGeneration) g)->name);
  adw_combo_row_set_model (self->generation_row, G_LIST_MODEL (generations));
}

/* Public API ----------------------------------------------------------------------------------- */

HrGpuEditor *
hr_gpu_editor_new (GtkWindow       *parent,
                   const HrCatalog *catalog,
                   const HrGpu     *gpu)
{
  HrGpuEditor *self = g_object_new (HR_TYPE_GPU_EDITOR, "transient-for", parent, NULL);

  self->catalog = catalog;
  gtk_window_set_title (GTK_WINDOW (self), gpu ? _("Edit GPU") : _("Add GPU"));
  adw_window_title_set_title (self->window_title, gtk_window_get_title (GTK_WINDOW (self)));
  if (gpu != NULL)
    {
      g_auto(GStrv) texts = hr_gpu_form_texts (gpu);

      self->editing_id = g_strdup (gpu->id);
      self->filling = TRUE;
      for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
        gtk_editable_set_text (GTK_EDITABLE (self->rows[f]), texts[f]);
      gtk_switch_set_active (self->unified_switch, hr_gpu_is_unified (gpu));
      adw_combo_row_set_selected (self->backend_row, backend_position (gpu->backend));
      adw_combo_row_set_selected (self->generation_row, generation_position (gpu->generation));
      self->filling = FALSE;
      /* a saved GPU shows what is wrong with it at once */
      for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
        self->touched[f] = TRUE;
    }
  validate (self);
  return self;
}

const char *
hr_gpu_editor_get_editing_id (HrGpuEditor *self)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), NULL);
  return self->editing_id;
}

HrGpu *
hr_gpu_editor_build (HrGpuEditor *self)
{
  HrGpuFormInput input;

  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), NULL);

  read_input (self, &input);
  hr_gpu_form_validate (&self->state, &input, self->catalog);
  return hr_gpu_form_build (&self->state, &input, self->catalog);
}

gboolean
hr_gpu_editor_can_save (HrGpuEditor *self)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), FALSE);
  return self->state.valid;
}

gboolean
hr_gpu_editor_save (HrGpuEditor *self)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), FALSE);

  for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
    self->touched[f] = TRUE;
  validate (self);
  if (!self->state.valid)
    {
      for (guint f = 0; f < HR_GPU_N_FIELDS; f++)
        if (self->state.error[f] != NULL)
          {
            gtk_widget_grab_focus (GTK_WIDGET (self->rows[f]));
            break;
          }
      return FALSE;
    }
  g_signal_emit (self, signals[SIGNAL_SAVE], 0);
  return TRUE;
}

void
hr_gpu_editor_set_error (HrGpuEditor *self,
                         const char  *message)
{
  g_return_if_fail (HR_IS_GPU_EDITOR (self));

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

void
hr_gpu_editor_set_field (HrGpuEditor *self,
                         HrGpuField   field,
                         const char  *text)
{
  g_return_if_fail (HR_IS_GPU_EDITOR (self));
  g_return_if_fail ((guint) field < HR_GPU_N_FIELDS);

  gtk_editable_set_text (GTK_EDITABLE (self->rows[field]), text ? text : "");
}

void
hr_gpu_editor_set_unified (HrGpuEditor *self,
                           gboolean     unified)
{
  g_return_if_fail (HR_IS_GPU_EDITOR (self));
  gtk_switch_set_active (self->unified_switch, unified);
}

void
hr_gpu_editor_set_backend (HrGpuEditor *self,
                           HrBackend    backend)
{
  g_return_if_fail (HR_IS_GPU_EDITOR (self));
  adw_combo_row_set_selected (self->backend_row, backend_position (backend));
}

void
hr_gpu_editor_set_generation (HrGpuEditor     *self,
                              HrGpuGeneration  generation)
{
  g_return_if_fail (HR_IS_GPU_EDITOR (self));
  adw_combo_row_set_selected (self->generation_row, generation_position (generation));
}

HrGpuGeneration
hr_gpu_editor_get_generation (HrGpuEditor *self)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), HR_GEN_UNKNOWN);
  return generation_at (adw_combo_row_get_selected (self->generation_row));
}

GtkWidget *
hr_gpu_editor_get_generation_row (HrGpuEditor *self)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), NULL);
  return GTK_WIDGET (self->generation_row);
}

const char *
hr_gpu_editor_get_field_error (HrGpuEditor *self,
                               HrGpuField   field)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), NULL);
  g_return_val_if_fail ((guint) field < HR_GPU_N_FIELDS, NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->error_labels[field]))
         ? gtk_label_get_label (self->error_labels[field]) : NULL;
}

GtkWidget *
hr_gpu_editor_get_field_row (HrGpuEditor *self,
                             HrGpuField   field)
{
  g_return_val_if_fail (HR_IS_GPU_EDITOR (self), NULL);
  g_return_val_if_fail ((guint) field < HR_GPU_N_FIELDS, NULL);
  return GTK_WIDGET (self->rows[field]);
}
