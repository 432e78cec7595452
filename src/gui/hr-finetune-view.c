/* hr-finetune-view.c — the Fine-tune view: QLoRA, LoRA and full fine-tuning memory
 *
 * The controls are read into an HrFtScenario; hr_ft_state_compute() runs the three methods
 * with it (microseconds each) and the smallest catalog GPU for each (a few hundred more
 * estimates, well under a millisecond), so a change recomputes everything before the next
 * frame.  The numbers are the ones `headroom-cli finetune` prints for the same options: both
 * start from hr_ft_scenario_init(), flash attention on.
 *
 * The model and the GPU are the session's: both pickers are bound to its properties, as the
 * Size view's are, so a GPU picked here is the one sized there too.  The GPU count starts as the
 * session's and is this view's own from then on.
 */
#include "hr-finetune-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-chart-data.h"
#include "hr-export-dialog.h"
#include "hr-picker-items.h"
#include "hr-table-cells.h"
#include "hr-units.h"
#include "hr-verdict-banner.h"
#include "hr-view-actions.h"

#define EXTRA_ROWS 3   /* trainable parameters, verdict, smallest GPU */

enum
{
  ROW_TRAINABLE = HR_FT_N_ROWS,
  ROW_VERDICT,
  ROW_SMALLEST,
};

struct _HrFinetuneView
{
  GtkWidget parent_instance;

  /* template */
  HrPicker *model_picker;
  AdwComboRow *method_row;
  GtkAdjustment *seq_adjustment;
  GtkAdjustment *micro_adjustment;
  GtkSwitch *checkpointing_switch;
  GtkSwitch *flash_switch;
  AdwComboRow *optimizer_row;
  AdwPreferencesGroup *lora_group;
  GtkAdjustment *rank_adjustment;
  AdwComboRow *targets_row;
  HrPicker *gpu_picker;
  GtkAdjustment *gpus_adjustment;
  AdwComboRow *sharding_row;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkWidget *verdict_banner;   /* HrVerdictBanner */
  GtkLabel *formula_label;
  GtkLabel *assumptions_label;
  GtkGrid *table;
  GtkGrid *names;              /* the row names, beside the table that scrolls sideways */
  guint names_idle_id;
  HrChartWidget *chart;

  /* the table, built in code */
  GtkWidget *headers[HR_FT_N_METHODS];
  GtkWidget *cells[HR_FT_N_METHODS][HR_FT_N_ROWS + EXTRA_ROWS];
  GtkLabel *values[HR_FT_N_METHODS][HR_FT_N_ROWS + EXTRA_ROWS];
  GtkLabel *details[HR_FT_N_METHODS][HR_FT_N_ROWS + EXTRA_ROWS];
  GtkImage *verdict_icons[HR_FT_N_METHODS];
  GtkLabel *verdict_row_label;

  HrSession *session;
  HrCatalog *catalog;          /* the session's */
  GBinding *bindings[2];       /* the pickers and the session's "model" and "gpu" */

  const HrModel *model;
  HrFtState state;
  gboolean have_state;
  guint recompute_id;
};

G_DEFINE_FINAL_TYPE (HrFinetuneView, hr_finetune_view, GTK_TYPE_WIDGET)

static void schedule_recompute (HrFinetuneView *self);

/* Small helpers ------------------------------------------------------------------------------ */

static GtkWidget *
row_title (const char *text,
           guint       row)
{
  GtkWidget *box = hr_table_cell_new (row);
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (box, "compare-metric");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* inside a word when it must: "On <a GPU of one's own named without spaces>" widened the
   * view to 476 px at 360 */
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "compare-metric-label");
  gtk_box_append (GTK_BOX (box), label);
  return box;
}

/* The table ---------------------------------------------------------------------------------- */

static void
build_table (HrFinetuneView *self)
{
  GtkWidget *corner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_add_css_class (corner, "compare-header");
  /* the row names live in a grid of their own beside the scrolled table, so scrolling
   * sideways through the methods keeps them in view (sync_names) */
  gtk_grid_attach (self->names, corner, 0, 0, 1, 1);
  for (guint r = 0; r < HR_FT_N_ROWS + EXTRA_ROWS; r++)
    {
      const char *title = r < HR_FT_N_ROWS ? hr_ft_row_title (r)
                          : r == ROW_TRAINABLE ? _("Trainable parameters")
                          : r == ROW_VERDICT ? _("On the chosen GPU")
                          : _("Smallest GPU that fits");
      GtkWidget *cell = row_title (title, r);

      if (r == ROW_VERDICT)
        self->verdict_row_label = GTK_LABEL (gtk_widget_get_first_child (cell));
      gtk_grid_attach (self->names, cell, 0, (int) r + 1, 1, 1);
    }

  for (guint m = 0; m < HR_FT_N_METHODS; m++)
    {
      GtkWidget *header = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *label = gtk_label_new (hr_ft_method_display (m));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_add_css_class (header, "compare-header");
      gtk_widget_set_hexpand (header, TRUE);
      gtk_box_append (GTK_BOX (header), label);
      gtk_grid_attach (self->table, header, (int) m + 1, 0, 1, 1);
      self->headers[m] = header;

      for (guint r = 0; r < HR_FT_N_ROWS + EXTRA_ROWS; r++)
        {
          GtkWidget *box = hr_table_cell_new (r);
          GtkWidget *holder = r == ROW_VERDICT ? hr_table_cell_add_verdict (box, &self->verdict_icons[m]) : box;

          self->values[m][r] = hr_table_cell_label (holder, r == HR_FT_ROW_TOTAL ? "heading" : "compare-value",
                                                    PANGO_WRAP_WORD_CHAR, 24);
          self->details[m][r] = hr_table_cell_label (holder, "caption", PANGO_WRAP_WORD_CHAR, 24);
          gtk_widget_add_css_class (GTK_WIDGET (self->details[m][r]), "dim-label");
          gtk_grid_attach (self->table, box, (int) m + 1, (int) r + 1, 1, 1);
          self->cells[m][r] = box;
        }
    }
}

/* Gives each row name the height its row of cells got (as Compare does). */
static gboolean
sync_names_cb (gpointer user_data)
{
  HrFinetuneView *self = user_data;

  self->names_idle_id = 0;
  for (int r = 0; r <= HR_FT_N_ROWS + EXTRA_ROWS; r++)
    {
      GtkWidget *name = gtk_grid_get_child_at (self->names, 0, r);
      graphene_rect_t b;
      int height = 0, current;

      for (guint m = 0; name != NULL && m < HR_FT_N_METHODS; m++)
        {
          GtkWidget *cell = r == 0 ? self->headers[m] : self->cells[m][r - 1];

          if (gtk_widget_get_visible (cell) && gtk_widget_compute_bounds (cell, cell, &b))
            height = MAX (height, (int) ceilf (b.size.height));
        }
      if (height > 0 && gtk_widget_compute_bounds (name, name, &b) && (int) ceilf (b.size.height) != height)
        {
          gtk_widget_get_size_request (name, NULL, &current);
          current = MAX (current, (int) ceilf (b.size.height));
          gtk_widget_set_size_request (name, -1, MAX (current + height - (int) ceilf (b.size.height), 0));
        }
    }
  return G_SOURCE_REMOVE;
}

/* One child (the template's), as a bin: measured (hr_table_view_measure()) and allocated here,
 * so that the row names can follow each allocation (a layout manager would allocate without
 * this class). */
static void
hr_finetune_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  HrFinetuneView *self = HR_FINETUNE_VIEW (widget);
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL)
    gtk_widget_allocate (child, width, height, baseline, NULL);
  /* the row names follow their rows' heights, after this allocation */
  if (self->names_idle_id == 0)
    self->names_idle_id = g_idle_add (sync_names_cb, self);
}

static void
apply_table (HrFinetuneView *self)
{
  const HrFtState *st = &self->state;
  g_autofree char *on = NULL;

  if (st->gpu != NULL)
    {
      /* TRANSLATORS: a row of the fine-tuning table, e.g. "On 2× H100 80GB SXM" */
      g_autofree char *name = st->ft.n_gpus > 1 ? g_strdup_printf (_("%d× %s"), st->ft.n_gpus, st->gpu->name)
                                                : g_strdup (st->gpu->name);
      on = g_strdup_printf (_("On %s"), name);
    }
  gtk_label_set_label (self->verdict_row_label, on ? on : _("On the chosen GPU"));

  for (guint m = 0; m < HR_FT_N_METHODS; m++)
    {
      const HrFtMethodState *ms = &st->methods[m];
      gboolean current = m == st->ft.method;

      for (guint r = 0; r < HR_FT_N_ROWS; r++)
        {
          hr_table_set_label (self->values[m][r], ms->cells[r]);
          hr_table_set_label (self->details[m][r], NULL);
        }
      hr_table_set_label (self->values[m][ROW_TRAINABLE], ms->ok ? ms->trainable : ms->error);
      hr_table_set_label (self->details[m][ROW_TRAINABLE], NULL);
      hr_table_set_label (self->values[m][ROW_VERDICT], ms->verdict_text);
      hr_table_set_label (self->details[m][ROW_VERDICT], NULL);
      gtk_image_set_from_icon_name (self->verdict_icons[m], ms->verdict_icon);
      hr_table_set_verdict_class (self->cells[m][ROW_VERDICT], ms->verdict_css);
      hr_table_set_label (self->values[m][ROW_SMALLEST], ms->smallest);
      hr_table_set_label (self->details[m][ROW_SMALLEST], ms->smallest_detail);

      /* the chosen method's column stands out */
      if (current)
        gtk_widget_add_css_class (self->headers[m], "ft-current");
      else
        gtk_widget_remove_css_class (self->headers[m], "ft-current");
      for (guint r = 0; r < HR_FT_N_ROWS + EXTRA_ROWS; r++)
        {
          if (current)
            gtk_widget_add_css_class (self->cells[m][r], "ft-current");
          else
            gtk_widget_remove_css_class (self->cells[m][r], "ft-current");
        }
    }
}

static void
apply_chart (HrFinetuneView *self)
{
  const HrFtState *st = &self->state;
  g_autofree HrChartFinetune *data = g_new0 (HrChartFinetune, 1);
  HrFtEstimate estimates[HR_FT_N_METHODS];

  for (guint m = 0; m < HR_FT_N_METHODS; m++)
    {
      if (st->methods[m].ok)
        estimates[m] = st->methods[m].estimate;
      else
        memset (&estimates[m], 0, sizeof estimates[m]);
    }
  hr_chart_finetune_from_estimates (&st->ft, estimates, st->gpu, NULL, data);
  /* the table's answers, so chart and table agree: verdicts with the user's reserve, and the
   * smallest configuration up to eight GPUs */
  for (guint m = 0; m < HR_FT_N_METHODS && m < (guint) data->n_methods; m++)
    {
      const HrFtMethodState *ms = &st->methods[m];

      if (ms->ok && st->gpu != NULL)
        data->methods[m].verdict = hr_chart_verdict_from_core (ms->verdict);
      if (ms->ok && ms->fit.count > 0)
        /* TRANSLATORS: the smallest catalog GPU that holds it, "Fits on: H100 80GB SXM" */
        g_snprintf (data->methods[m].note, sizeof data->methods[m].note, _("Fits on: %s"), ms->smallest);
      else if (ms->ok)
        g_strlcpy (data->methods[m].note, ms->smallest, sizeof data->methods[m].note);
    }
  if (st->gpu != NULL)
    data->usable_gib = hr_to_gib (hr_finetune_usable_bytes (st->gpu, st->reserve, st->unified_share));
  hr_chart_widget_set_data (self->chart, HR_CHART_FINETUNE, data);
  hr_chart_widget_set_description (self->chart, st->title);
}

static void
apply_state (HrFinetuneView *self)
{
  const HrFtState *st = &self->state;

  gtk_label_set_label (self->title_label, st->title);
  gtk_label_set_label (self->subtitle_label, st->subtitle);
  hr_verdict_banner_set (HR_VERDICT_BANNER (self->verdict_banner), st->verdict_css, st->verdict_icon,
                         st->verdict_title, st->verdict_detail);
  gtk_label_set_label (self->formula_label, st->formula);
  apply_table (self);
  apply_chart (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", st->ok);
}

/* Reading the controls ----------------------------------------------------------------------- */

static gboolean
read_scenario (HrFinetuneView *self,
               HrFtScenario   *ft)
{
  guint method = adw_combo_row_get_selected (self->method_row);
  guint optimizer = adw_combo_row_get_selected (self->optimizer_row);
  guint sharding = adw_combo_row_get_selected (self->sharding_row);

  if (self->model == NULL)
    return FALSE;
  hr_ft_scenario_init (ft, self->model, method <= HR_FT_FULL ? (HrFtMethod) method : HR_FT_QLORA);
  ft->seq_len = (int) gtk_adjustment_get_value (self->seq_adjustment);
  ft->micro_batch = (int) gtk_adjustment_get_value (self->micro_adjustment);
  ft->grad_checkpointing = gtk_switch_get_active (self->checkpointing_switch);
  ft->flash_attention = gtk_switch_get_active (self->flash_switch);
  ft->optimizer = optimizer <= HR_OPT_SGD ? (HrOptimizer) optimizer : HR_OPT_ADAMW;
  ft->lora_rank = (int) gtk_adjustment_get_value (self->rank_adjustment);
  ft->lora_all_linear = adw_combo_row_get_selected (self->targets_row) == 0;
  ft->n_gpus = (int) gtk_adjustment_get_value (self->gpus_adjustment);
  ft->sharding = sharding <= HR_SHARD_ZERO3 ? (HrSharding) sharding : HR_SHARD_NONE;
  return TRUE;
}

static gboolean
recompute_cb (gpointer user_data)
{
  HrFinetuneView *self = user_data;
  HrFtScenario ft;
  const HrGpu *gpu = NULL;
  const char *gpu_id = hr_session_get_gpu (self->session);
  const HrScenario *s = hr_session_get_scenario (self->session);

  self->recompute_id = 0;
  if (self->catalog == NULL || !read_scenario (self, &ft))
    return G_SOURCE_REMOVE;
  if (gpu_id != NULL)
    gpu = hr_catalog_find_gpu (self->catalog, gpu_id);

  /* the same reserve and unified-memory share as the Size view */
  hr_ft_state_compute (&self->state, &ft, gpu, self->catalog, s ? s->reserve : HR_DEFAULT_RESERVE,
                       s ? s->unified_share : 0);
  self->have_state = TRUE;
  apply_state (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lora_group), ft.method != HR_FT_FULL);
  return G_SOURCE_REMOVE;
}

static void
schedule_recompute (HrFinetuneView *self)
{
  if (self->recompute_id != 0 || self->catalog == NULL)
    return;
  self->recompute_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute_cb, self, NULL);
}

/* The session --------------------------------------------------------------------------------- */

/* A model or GPU was added or removed (the session's "catalog-changed"): the pickers' lists in
 * between never reach the session. */
static void
catalog_refresh (HrFinetuneView *self)
{
  g_autoptr(GPtrArray) models = hr_picker_items_models (self->catalog);
  g_autoptr(GPtrArray) gpus = hr_picker_items_gpus (self->catalog);
  GBindingFlags flags = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;

  for (guint i = 0; i < G_N_ELEMENTS (self->bindings); i++)
    g_clear_pointer (&self->bindings[i], g_binding_unbind);
  hr_picker_set_items (self->model_picker, models);
  hr_picker_set_items (self->gpu_picker, gpus);
  self->bindings[0] = g_object_bind_property (self->session, "model", self->model_picker, "selected-id", flags);
  self->bindings[1] = g_object_bind_property (self->session, "gpu", self->gpu_picker, "selected-id", flags);
}

static void
scenario_changed_cb (HrFinetuneView *self)
{
  const char *id = hr_session_get_model (self->session);

  self->model = id ? hr_catalog_find_model (self->catalog, id) : NULL;
  schedule_recompute (self);
}

/* Callbacks ------------------------------------------------------------------------------------ */

static void
input_changed_cb (HrFinetuneView *self)
{
  schedule_recompute (self);
}

/* Actions ------------------------------------------------------------------------------------ */

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrFinetuneView *self = HR_FINETUNE_VIEW (widget);
  HrExportRequest request = { HR_EXPORT_CHART, hr_export_target_format (parameter), hr_export_write_chart,
                              self->chart };
  g_autofree char *model = NULL;
  g_autofree char *name = NULL;

  if (!self->have_state)
    return;
  model = hr_slugify (self->model ? self->model->id : NULL, 60, "model");
  name = g_strconcat (model, "-finetune", NULL);
  hr_export_dialog_show (widget, &request, name);
}

static char *
finetune_json (GtkWidget *widget)
{
  HrFinetuneView *self = HR_FINETUNE_VIEW (widget);

  return self->have_state ? hr_ft_state_json (&self->state) : NULL;
}

/* GObject ------------------------------------------------------------------------------------ */

static void
hr_finetune_view_dispose (GObject *object)
{
  HrFinetuneView *self = HR_FINETUNE_VIEW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->recompute_id, g_source_remove);
  g_clear_handle_id (&self->names_idle_id, g_source_remove);
  for (guint i = 0; i < G_N_ELEMENTS (self->bindings); i++)
    g_clear_pointer (&self->bindings[i], g_binding_unbind);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_FINETUNE_VIEW);
  /* the template's top box has no id, so dispose_template() leaves it to us */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (hr_finetune_view_parent_class)->dispose (object);
}

static void
hr_finetune_view_finalize (GObject *object)
{
  HrFinetuneView *self = HR_FINETUNE_VIEW (object);

  hr_ft_state_clear (&self->state);

  G_OBJECT_CLASS (hr_finetune_view_parent_class)->finalize (object);
}

static void
hr_finetune_view_class_init (HrFinetuneViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_finetune_view_dispose;
  object_class->finalize = hr_finetune_view_finalize;

  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CHART_WIDGET);
  g_type_ensure (HR_TYPE_VERDICT_BANNER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroomapp/Headroom/hr-finetune-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, method_row);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, seq_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, micro_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, checkpointing_switch);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, flash_switch);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, optimizer_row);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, lora_group);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, rank_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, targets_row);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, gpu_picker);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, gpus_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, sharding_row);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, verdict_banner);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, formula_label);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, assumptions_label);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, table);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, names);
  gtk_widget_class_bind_template_child (widget_class, HrFinetuneView, chart);
  gtk_widget_class_bind_template_callback (widget_class, input_changed_cb);

  /* "view." actions: the window forwards Ctrl+F, Ctrl+G, Ctrl+E and Ctrl+Shift+C here */
  hr_view_class_install_find (widget_class, G_STRUCT_OFFSET (HrFinetuneView, model_picker), G_STRUCT_OFFSET (HrFinetuneView, gpu_picker));
  gtk_widget_class_install_action (widget_class, "view.export-chart", "s", export_chart_action);
  hr_view_class_install_copy_json (widget_class, finetune_json, N_("Fine-tuning estimate copied as JSON"));

  widget_class->measure = hr_table_view_measure;
  widget_class->size_allocate = hr_finetune_view_size_allocate;
}

/* The method, optimizer and sharding rows: every value, in the enums' order (a position is
 * the value), worded as the state words them. */
static void
fill_choice_rows (HrFinetuneView *self)
{
  g_autoptr(GtkStringList) methods = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) optimizers = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) shardings = gtk_string_list_new (NULL);

  for (guint i = 0; i < HR_FT_N_METHODS; i++)
    gtk_string_list_append (methods, hr_ft_method_display ((HrFtMethod) i));
  for (guint i = 0; i < HR_FT_N_OPTIMIZERS; i++)
    gtk_string_list_append (optimizers, hr_optimizer_display ((HrOptimizer) i));
  for (guint i = 0; i < HR_FT_N_SHARDINGS; i++)
    gtk_string_list_append (shardings, hr_sharding_display ((HrSharding) i));
  adw_combo_row_set_model (self->method_row, G_LIST_MODEL (methods));
  adw_combo_row_set_model (self->optimizer_row, G_LIST_MODEL (optimizers));
  adw_combo_row_set_model (self->sharding_row, G_LIST_MODEL (shardings));
}

static void
hr_finetune_view_init (HrFinetuneView *self)
{
  GtkAdjustment *adjustments[4];

  gtk_widget_init_template (GTK_WIDGET (self));
  fill_choice_rows (self);

  hr_ft_state_init (&self->state);
  hr_picker_set_placeholder (self->model_picker, _("Search models by name, family or vendor"));
  hr_picker_set_placeholder (self->gpu_picker, _("Search GPUs by name or vendor"));
  build_table (self);
  gtk_label_set_label (self->assumptions_label,
                       _("Assumptions: bf16 mixed precision with an fp32 master copy for full "
                         "fine-tuning; fp32 LoRA adapters; activations for one micro-batch per "
                         "GPU, as PyTorch keeps them (fused attention with flash attention on); "
                         "data parallelism replicates everything unless ZeRO or FSDP shards it. "
                         "A GPU's usable memory is the same as for inference: physical memory less "
                         "the reserve set in Preferences, or the GPU share of unified memory. The "
                         "smallest GPU tries every catalog device alone and ×2, ×4 and ×8 (with "
                         "the chosen sharding, or ZeRO-3 when none is chosen). headroom-cli "
                         "finetune prints the same numbers for the same options."));

  adjustments[0] = self->seq_adjustment;
  adjustments[1] = self->micro_adjustment;
  adjustments[2] = self->rank_adjustment;
  adjustments[3] = self->gpus_adjustment;
  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    g_signal_connect_object (adjustments[i], "value-changed", G_CALLBACK (input_changed_cb), self,
                             G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.copy-json", FALSE);
}

/* Public API ------------------------------------------------------------------------------------ */

GtkWidget *
hr_finetune_view_new (HrSession *session)
{
  HrFinetuneView *self;
  const HrScenario *s;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_FINETUNE_VIEW, NULL);
  self->session = g_object_ref (session);
  self->catalog = hr_session_get_catalog (session);
  catalog_refresh (self);
  /* the GPU count starts as the session's (one for a unified-memory machine) */
  s = hr_session_get_scenario (session);
  if (s != NULL)
    gtk_adjustment_set_value (self->gpus_adjustment, hr_gpu_is_unified (s->gpu) ? 1 : s->n_gpus);
  hr_session_watch (session, self, G_CALLBACK (scenario_changed_cb), G_CALLBACK (catalog_refresh));
  scenario_changed_cb (self);
  return GTK_WIDGET (self);
}

const HrFtState *
hr_finetune_view_get_state (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->have_state ? &self->state : NULL;
}

gboolean
hr_finetune_view_is_busy (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), FALSE);
  return self->recompute_id != 0;
}

HrPicker *
hr_finetune_view_get_model_picker (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->model_picker;
}

HrPicker *
hr_finetune_view_get_gpu_picker (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->gpu_picker;
}

AdwComboRow *
hr_finetune_view_get_method_row (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->method_row;
}

AdwComboRow *
hr_finetune_view_get_optimizer_row (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->optimizer_row;
}

AdwComboRow *
hr_finetune_view_get_sharding_row (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->sharding_row;
}

AdwComboRow *
hr_finetune_view_get_targets_row (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->targets_row;
}

GtkAdjustment *
hr_finetune_view_get_seq_adjustment (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->seq_adjustment;
}

GtkAdjustment *
hr_finetune_view_get_micro_adjustment (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->micro_adjustment;
}

GtkAdjustment *
hr_finetune_view_get_rank_adjustment (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->rank_adjustment;
}

GtkAdjustment *
hr_finetune_view_get_gpus_adjustment (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->gpus_adjustment;
}

GtkSwitch *
hr_finetune_view_get_checkpointing_switch (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->checkpointing_switch;
}

GtkSwitch *
hr_finetune_view_get_flash_switch (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->flash_switch;
}

HrChartWidget *
hr_finetune_view_get_chart (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return self->chart;
}

const char *
hr_finetune_view_get_cell_text (HrFinetuneView *self,
                                HrFtMethod      method,
                                HrFtRowId       row)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  g_return_val_if_fail ((guint) method < HR_FT_N_METHODS && (guint) row < HR_FT_N_ROWS, NULL);
  return gtk_label_get_label (self->values[method][row]);
}

const char *
hr_finetune_view_get_smallest_text (HrFinetuneView *self,
                                    HrFtMethod      method)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  g_return_val_if_fail ((guint) method < HR_FT_N_METHODS, NULL);
  return gtk_label_get_label (self->values[method][ROW_SMALLEST]);
}

const char *
hr_finetune_view_get_verdict_text (HrFinetuneView *self)
{
  g_return_val_if_fail (HR_IS_FINETUNE_VIEW (self), NULL);
  return hr_verdict_banner_get_title (HR_VERDICT_BANNER (self->verdict_banner));
}
