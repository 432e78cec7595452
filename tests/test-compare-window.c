/* test-compare-window.c — the Compare and Fine-tune views in the window, under Xvfb
 *
 * Run through `xvfb-run -a` with GTK_A11Y=none, GSETTINGS_BACKEND=memory,
 * GSETTINGS_SCHEMA_DIR=<build>/data and HEADROOM_CLI (tests/meson.build sets them).  The
 * issue's "done when": six GPUs for GLM-4.5-Air at 32K, sorted by cost per 1M tokens, the
 * chart exported as PNG and the table as CSV — the CSV the CLI prints — then a QLoRA run of
 * the same model.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "hr-application.h"
#include "hr-chart-data.h"
#include "hr-cloud-view.h"
#include "hr-compare-view.h"
#include "hr-finetune-view.h"
#include "hr-scenario-state.h"
#include "hr-test-window.h"
#include "hr-units.h"
#include "hr-window.h"

static HrApplication *app;

static const char * const done_when_gpus[] = {
  "rtx-5090-32gb", "rtx-pro-6000-blackwell-96gb", "h100-80gb-sxm", "h200-141gb",
  "mi300x-192gb", "m3-ultra-512gb",
};

static gboolean
views_busy (gpointer data)
{
  HrWindow *window = data;
  HrSizeView *size = hr_window_get_size_view (window);
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  HrFinetuneView *finetune = HR_FINETUNE_VIEW (hr_window_get_view (window, "finetune"));

  return hr_size_view_is_busy (size) ||
         (gtk_widget_get_mapped (GTK_WIDGET (compare)) && hr_compare_view_is_busy (compare)) ||
         hr_finetune_view_is_busy (finetune);
}

/* Iterates until the Size view and the two views have nothing left to do (or 30 s pass). */
static void
wait_idle (HrWindow *window)
{
  hr_test_wait_while (views_busy, window);
}

static HrWindow *
open_window (void)
{
  HrWindow *window = hr_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  wait_idle (window);
  return window;
}

static char *
run_cli (const char * const *args)
{
  const char *cli = g_getenv ("HEADROOM_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
set_done_when_gpus (HrCompareView *compare)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);

  for (guint i = 0; i < G_N_ELEMENTS (done_when_gpus); i++)
    g_ptr_array_add (entries, hr_compare_entry_new (done_when_gpus[i], 1));
  hr_compare_view_set_entries (compare, entries);
}

/* The labels on screen are the state's, column by column, and the chart draws the same. */
static void
assert_table_shows_state (HrCompareView *compare)
{
  const HrCompareState *st = hr_compare_view_get_state (compare);
  const HrChartCompare *chart = hr_chart_widget_get_data (hr_compare_view_get_chart (compare));

  g_assert_nonnull (st);
  g_assert_cmpuint (hr_compare_view_get_n_columns (compare), ==, st->columns->len);
  g_assert_nonnull (chart);
  g_assert_cmpint (chart->n_items, ==, (int) st->columns->len);
  g_assert_cmpint (chart->sort, ==, HR_CHART_SORT_NONE);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);

      g_assert_cmpstr (hr_compare_view_get_column_title (compare, i), ==, col->title);
      for (guint m = 0; m < HR_COMPARE_N_METRICS; m++)
        {
          g_assert_cmpstr (hr_compare_view_get_cell_text (compare, i, m), ==, col->cells[m].value);
          g_assert_cmpstr (hr_compare_view_get_diff_text (compare, i, m), ==, col->cells[m].diff);
        }
      /* the chart's bars are the table's numbers, in the table's order */
      g_assert_cmpstr (chart->items[i].name, ==, col->title);
      g_assert_cmpfloat_with_epsilon (chart->items[i].required_gib, hr_to_gib (col->row.estimate.required_bytes), 1e-9);
      g_assert_cmpfloat_with_epsilon (chart->items[i].usable_gib, hr_to_gib (col->row.estimate.usable_bytes), 1e-9);
      g_assert_cmpint (chart->items[i].verdict, ==, hr_chart_verdict_from_core (col->verdict));
      if (isfinite (col->row.estimate.cost_per_mtok_usd))
        g_assert_cmpfloat_with_epsilon (chart->items[i].cost_per_mtok_usd, col->row.estimate.cost_per_mtok_usd, 1e-9);
    }
}

static void
test_compare_done_when (void)
{
  HrWindow *window = open_window ();
  HrSizeView *size = hr_window_get_size_view (window);
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  g_autofree char *dir = g_dir_make_tmp ("headroom-compare-XXXXXX", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "compare.csv", NULL);
  g_autofree char *png_path = g_build_filename (dir, "compare.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *cli = NULL;
  const HrCompareState *st;
  cairo_surface_t *png;
  const char *args[32] = { "compare", "--model", "glm-4.5-air", "--context", "32768", "--csv" };
  guint n_args = 6;

  g_assert_nonnull (compare);
  /* GLM-4.5-Air at 32K in the Size view: the Compare view follows */
  g_assert_true (hr_size_view_select_model (size, "glm-4.5-air"));
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (size), 32768);
  g_assert_true (hr_window_set_visible_view (window, "compare"));
  set_done_when_gpus (compare);
  wait_idle (window);

  st = hr_compare_view_get_state (compare);
  g_assert_nonnull (st);
  g_assert_cmpint (st->base.context, ==, 32768);
  g_assert_cmpstr (st->base.model->id, ==, "glm-4.5-air");
  g_assert_cmpuint (st->columns->len, ==, 6);
  assert_table_shows_state (compare);

  /* sort by cost per 1M tokens: cheapest first */
  hr_compare_view_sort (compare, HR_COMPARE_COST, FALSE);
  wait_idle (window);
  st = hr_compare_view_get_state (compare);
  for (guint i = 1; i < st->columns->len; i++)
    {
      const HrCompareCell *a = &((HrCompareColumn *) g_ptr_array_index (st->columns, i - 1))->cells[HR_COMPARE_COST];
      const HrCompareCell *b = &((HrCompareColumn *) g_ptr_array_index (st->columns, i))->cells[HR_COMPARE_COST];

      /* cheapest first; the GPU the model does not fit on last */
      g_assert_true (isnan (b->key) || b->muted || a->key <= b->key);
      g_assert_true (!a->muted || b->muted || isnan (b->key));
    }
  assert_table_shows_state (compare);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      g_test_message ("%-28s %-16s cost %s  decode %s  context %s  best %s", col->title,
                      col->cells[HR_COMPARE_VERDICT].value, col->cells[HR_COMPARE_COST].value,
                      col->cells[HR_COMPARE_DECODE].value, col->cells[HR_COMPARE_CONTEXT].value,
                      col->cells[HR_COMPARE_QUANT].value);
    }

  /* "Export Table…": the CLI's CSV for the same GPUs in the same (sorted) order */
  g_assert_true (hr_compare_view_export_table (compare, csv_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_utf8_validate (csv, -1, NULL));
  for (guint i = 0; i < st->columns->len; i++)
    {
      args[n_args++] = "--gpu";
      args[n_args++] = ((HrCompareColumn *) g_ptr_array_index (st->columns, i))->gpu_id;
    }
  args[n_args] = NULL;
  cli = run_cli (args);
  g_assert_cmpstr (csv, ==, cli);

  /* "Export Chart…" as PNG: the light theme at scale 2 */
  g_assert_true (hr_compare_view_export_chart (compare, png_path, &error));
  g_assert_no_error (error);
  png = cairo_image_surface_create_from_png (png_path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, 2400);
  g_assert_cmpint (cairo_image_surface_get_height (png), >=, 960);
  cairo_surface_destroy (png);

  g_unlink (csv_path);
  g_unlink (png_path);
  g_rmdir (dir);
  hr_test_window_close (window);
}

/* #31: the Size view's mixed setup as one column ("The Size View's Setup"), named after its
 * GPUs, its count not editable; an unknown GPU in a spec is refused. */
static void
test_compare_mixed (void)
{
  HrWindow *window = open_window ();
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  HrSession *session = hr_size_view_get_session (hr_window_get_size_view (window));
  const char *extra[] = { "rtx-3090-24gb:1", NULL };
  const char *none[] = { NULL };
  const HrCompareState *st;
  const HrCompareColumn *col = NULL;

  g_object_set (session, "gpu", "rtx-4090-24gb", "gpus", 1, "extra-gpus", extra, NULL);
  g_assert_true (hr_window_set_visible_view (window, "compare"));
  set_done_when_gpus (compare);
  wait_idle (window);
  g_assert_true (hr_compare_view_remove_gpu (compare, "m3-ultra-512gb"));
  g_assert_false (hr_compare_view_add_gpu (compare, "nope:1+rtx-3090-24gb:1", 1));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (compare), "compare.preset", "s", "setup"));
  wait_idle (window);
  st = hr_compare_view_get_state (compare);
  for (guint i = 0; i < st->columns->len; i++)
    if (g_str_equal (((HrCompareColumn *) g_ptr_array_index (st->columns, i))->gpu_id,
                     "rtx-4090-24gb:1+rtx-3090-24gb:1"))
      col = g_ptr_array_index (st->columns, i);
  g_assert_nonnull (col);
  g_assert_true (col->ok);
  g_assert_cmpstr (col->title, ==, "RTX 4090 24GB + RTX 3090 24GB");
  g_assert_cmpint (col->row.estimate.placement.n_devices, ==, 2);
  /* the one-GPU columns beside it are not sized as the mixed setup */
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *c = g_ptr_array_index (st->columns, i);
      if (c != col)
        g_assert_false (hr_scenario_is_mixed (&c->row.scenario));
    }
  g_object_set (session, "extra-gpus", none, NULL);
  wait_idle (window);
  hr_test_window_close (window);
}

static void
test_compare_edit (void)
{
  HrWindow *window = open_window ();
  HrSizeView *size = hr_window_get_size_view (window);
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  const HrCompareState *st;
  GPtrArray *entries;

  g_assert_true (hr_window_set_visible_view (window, "compare"));
  set_done_when_gpus (compare);
  wait_idle (window);

  /* remove, add, ×N */
  g_assert_true (hr_compare_view_remove_gpu (compare, "m3-ultra-512gb"));
  g_assert_false (hr_compare_view_remove_gpu (compare, "m3-ultra-512gb"));
  g_assert_true (hr_compare_view_add_gpu (compare, "a100-80gb-sxm", 1));
  g_assert_false (hr_compare_view_add_gpu (compare, "a100-80gb-sxm", 1));   /* already there */
  g_assert_false (hr_compare_view_add_gpu (compare, "no-such-gpu", 1));
  g_assert_true (hr_compare_view_set_count (compare, "rtx-5090-32gb", 4));
  wait_idle (window);
  st = hr_compare_view_get_state (compare);
  g_assert_cmpuint (st->columns->len, ==, 6);
  for (guint i = 0; i < st->columns->len; i++)
    {
      const HrCompareColumn *col = g_ptr_array_index (st->columns, i);
      g_assert_cmpstr (col->gpu_id, !=, "m3-ultra-512gb");
      if (g_str_equal (col->gpu_id, "rtx-5090-32gb"))
        {
          g_assert_cmpint (col->row.scenario.n_gpus, ==, 4);
          /* four 32 GB cards hold the model */
          g_assert_cmpint (col->verdict, !=, HR_VERDICT_EXCEEDS);
        }
    }
  assert_table_shows_state (compare);

  /* at most eight chosen one by one */
  g_assert_true (hr_compare_view_add_gpu (compare, "l40s-48gb", 1));
  g_assert_true (hr_compare_view_add_gpu (compare, "b200-180gb", 1));
  g_assert_false (hr_compare_view_add_gpu (compare, "a40-48gb", 1));
  entries = hr_compare_view_get_entries (compare);
  g_assert_cmpuint (entries->len, ==, HR_COMPARE_MAX_PICKED);

  /* a preset may hold more: every GPU that fits */
  hr_compare_view_apply_preset (compare, HR_COMPARE_PRESET_FITS, NULL);
  wait_idle (window);
  st = hr_compare_view_get_state (compare);
  g_assert_cmpuint (st->columns->len, >, HR_COMPARE_MAX_PICKED);
  g_assert_cmpuint (st->n_fitting, ==, st->columns->len);
  assert_table_shows_state (compare);

  /* the scenario is the Size view's: a change there reaches the table */
  hr_compare_view_apply_preset (compare, HR_COMPARE_PRESET_VENDOR, "AMD");
  gtk_adjustment_set_value (hr_size_view_get_batch_adjustment (size), 4);
  wait_idle (window);
  st = hr_compare_view_get_state (compare);
  g_assert_cmpint (st->base.batch, ==, 4);
  for (guint i = 0; i < st->columns->len; i++)
    g_assert_cmpstr (hr_catalog_find_gpu (hr_window_get_catalog (window),
                                          ((HrCompareColumn *) g_ptr_array_index (st->columns, i))->gpu_id)->vendor,
                     ==, "AMD");

  /* the model picker here is the Size view's model */
  g_assert_true (hr_picker_set_selected_id (hr_compare_view_get_model_picker (compare), "qwen3-32b"));
  wait_idle (window);
  g_assert_cmpstr (hr_size_view_get_scenario (size)->model->id, ==, "qwen3-32b");
  g_assert_cmpstr (hr_compare_view_get_state (compare)->base.model->id, ==, "qwen3-32b");
  g_assert_true (hr_size_view_select_model (size, "glm-4.5-air"));
  wait_idle (window);
  g_assert_cmpstr (hr_picker_get_selected_id (hr_compare_view_get_model_picker (compare)), ==, "glm-4.5-air");
  gtk_adjustment_set_value (hr_size_view_get_batch_adjustment (size), 1);
  wait_idle (window);

  /* the window's shortcuts reach the visible view */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-json", NULL));
  hr_test_window_close (window);
}

/* Hidden, the view waits: a scenario changed elsewhere is computed when it is shown. */
static void
test_compare_lazy (void)
{
  HrWindow *window = open_window ();
  HrSizeView *size = hr_window_get_size_view (window);
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));

  g_assert_true (hr_window_set_visible_view (window, "size"));
  wait_idle (window);
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (size), 16384);
  wait_idle (window);
  g_assert_true (hr_compare_view_is_busy (compare));
  g_assert_true (hr_window_set_visible_view (window, "compare"));
  wait_idle (window);
  g_assert_false (hr_compare_view_is_busy (compare));
  g_assert_cmpint (hr_compare_view_get_state (compare)->base.context, ==, 16384);
  hr_window_set_visible_view (window, "size");
  gtk_adjustment_set_value (hr_size_view_get_context_adjustment (size), 8192);
  wait_idle (window);
  hr_test_window_close (window);
}


/* The widgets under @root with style class @klass, in tree order. */
static void
collect_class (GtkWidget  *root,
               const char *klass,
               GPtrArray  *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (gtk_widget_has_css_class (c, klass))
        g_ptr_array_add (out, c);
      collect_class (c, klass, out);
    }
}

/* Every row name shares its grid row with the values it names: the same grid, the same row,
 * the same top and height on screen. */
static void
assert_names_on_their_rows (HrCompareView *compare)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint n = hr_compare_view_get_n_columns (compare);

  collect_class (GTK_WIDGET (compare), "compare-metric", names);
  g_assert_cmpuint (names->len, ==, HR_COMPARE_N_METRICS);
  for (guint i = 0; i < names->len; i++)
    {
      GtkWidget *name = names->pdata[i];
      GtkWidget *grid = gtk_widget_get_parent (name);
      graphene_rect_t nb, vb;
      int row, column;
      guint values = 0;

      g_assert_true (GTK_IS_GRID (grid));
      gtk_grid_query_child (GTK_GRID (grid), name, &column, &row, NULL, NULL);
      g_assert_cmpint (column, ==, 0);
      g_assert_true (gtk_widget_compute_bounds (name, grid, &nb));
      for (int c = 1; c <= (int) n; c++)
        {
          GtkWidget *value = gtk_grid_get_child_at (GTK_GRID (grid), c, row);

          g_assert_nonnull (value);
          g_assert_true (gtk_widget_compute_bounds (value, grid, &vb));
          g_assert_cmpfloat_with_epsilon (nb.origin.y, vb.origin.y, 0.5);
          g_assert_cmpfloat_with_epsilon (nb.size.height, vb.size.height, 0.5);
          values++;
        }
      g_assert_cmpuint (values, ==, n);
    }
}

/* #26 item 5: after 360 px, 1280 px and a switch to dark and back, each row name is still
 * beside its values (they once drifted two rows apart: the names lived in a grid of their
 * own whose row heights were copied from the table's). */
static void
test_compare_rows_stay (void)
{
  HrWindow *window = open_window ();
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  AdwStyleManager *style = adw_style_manager_get_default ();
  static const int widths[] = { 360, 1280, 600, 1280 };

  g_assert_true (hr_window_set_visible_view (window, "compare"));
  set_done_when_gpus (compare);
  wait_idle (window);
  hr_test_wait_settled (GTK_WIDGET (compare));
  assert_names_on_their_rows (compare);
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), widths[i], 800);
      wait_idle (window);
      hr_test_wait_settled (GTK_WIDGET (compare));
      assert_names_on_their_rows (compare);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  hr_test_wait_settled (GTK_WIDGET (compare));
  assert_names_on_their_rows (compare);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 800);
  hr_test_wait_settled (GTK_WIDGET (compare));
  assert_names_on_their_rows (compare);
  hr_window_set_visible_view (window, "size");
  hr_test_window_close (window);
}


/* #26 item 7: the GPUs compared (and how many of each) are there again after a restart: the
 * "compare-gpus" key; a GPU the catalog no longer has is left out. */
static void
test_compare_gpus_kept (void)
{
  static const char * const ids[] = { "mi300x-192gb", "h100-80gb-sxm", "rtx-5090-32gb" };
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_compare_entry_free);
  HrWindow *window = open_window ();
  HrCompareView *compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  GPtrArray *now;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_ptr_array_add (entries, hr_compare_entry_new (ids[i], i == 1 ? 4 : 1));
  hr_compare_view_set_entries (compare, entries);
  g_assert_true (hr_compare_view_set_count (compare, "rtx-5090-32gb", 2));
  hr_test_window_close (window);

  window = open_window ();
  compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  now = hr_compare_view_get_entries (compare);
  g_assert_cmpuint (now->len, ==, G_N_ELEMENTS (ids));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const HrCompareEntry *e = g_ptr_array_index (now, i);

      g_assert_cmpstr (e->gpu_id, ==, ids[i]);
      g_assert_cmpint (e->count, ==, i == 1 ? 4 : i == 2 ? 2 : 1);
    }
  hr_test_window_close (window);

  /* a GPU gone from the catalog (a deleted one of your own) is skipped */
  g_settings_set_value (settings, "compare-gpus",
                        g_variant_new_parsed ("[('no-such-gpu', 2), ('h200-141gb', 1), ('mi300x-192gb', 1)]"));
  window = open_window ();
  compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  now = hr_compare_view_get_entries (compare);
  g_assert_cmpuint (now->len, ==, 2);
  g_assert_cmpstr (((HrCompareEntry *) g_ptr_array_index (now, 0))->gpu_id, ==, "h200-141gb");
  hr_test_window_close (window);
  g_settings_reset (settings, "compare-gpus");
}

static void
test_finetune (void)
{
  HrWindow *window = open_window ();
  HrSizeView *size = hr_window_get_size_view (window);
  HrFinetuneView *ft = HR_FINETUNE_VIEW (hr_window_get_view (window, "finetune"));
  const HrFtState *st;
  g_autofree char *json = NULL;
  g_autofree char *cli = NULL;
  double flash_acts;

  g_assert_nonnull (ft);
  g_assert_true (hr_window_set_visible_view (window, "finetune"));
  g_assert_true (hr_size_view_select_model (size, "glm-4.5-air"));
  wait_idle (window);

  /* the defaults: QLoRA, 2048, micro-batch 1, checkpointing and flash attention on, the Size
   * view's GPU */
  st = hr_finetune_view_get_state (ft);
  g_assert_nonnull (st);
  g_assert_cmpint (st->ft.method, ==, HR_FT_QLORA);
  g_assert_true (st->ft.flash_attention);
  g_assert_true (gtk_switch_get_active (hr_finetune_view_get_flash_switch (ft)));
  g_assert_cmpstr (st->gpu->id, ==, hr_size_view_get_scenario (size)->gpu->id);
  for (int m = HR_FT_QLORA; m <= HR_FT_FULL; m++)
    {
      for (guint r = 0; r < HR_FT_N_ROWS; r++)
        g_assert_cmpstr (hr_finetune_view_get_cell_text (ft, m, r), ==, st->methods[m].cells[r]);
      g_assert_cmpstr (hr_finetune_view_get_smallest_text (ft, m), ==, st->methods[m].smallest);
      g_test_message ("%s: %s per GPU, %s on %s; smallest: %s", hr_ft_method_display (m),
                      st->methods[m].cells[HR_FT_ROW_TOTAL], st->methods[m].verdict_text, st->gpu->name,
                      st->methods[m].smallest);
    }
  g_assert_cmpstr (hr_finetune_view_get_verdict_text (ft), ==, st->verdict_title);

  /* the same numbers as `headroom-cli finetune` */
  json = hr_ft_state_json (st);
  {
    g_autofree char *gpu = g_strdup_printf ("--gpu=%s", st->gpu->id);
    const char *args[] = { "finetune", "--model", "glm-4.5-air", "--method", "qlora", gpu, "--json", NULL };
    cli = run_cli (args);
  }
  g_assert_cmpstr (json, ==, cli);

  /* the controls drive it: flash attention off stores the attention scores */
  flash_acts = st->methods[HR_FT_QLORA].estimate.activations_bytes;
  gtk_switch_set_active (hr_finetune_view_get_flash_switch (ft), FALSE);
  gtk_adjustment_set_value (hr_finetune_view_get_seq_adjustment (ft), 4096);
  adw_combo_row_set_selected (hr_finetune_view_get_method_row (ft), HR_FT_FULL);
  adw_combo_row_set_selected (hr_finetune_view_get_sharding_row (ft), HR_SHARD_ZERO3);
  adw_combo_row_set_selected (hr_finetune_view_get_optimizer_row (ft), HR_OPT_ADAMW_8BIT);
  gtk_adjustment_set_value (hr_finetune_view_get_gpus_adjustment (ft), 8);
  g_assert_true (hr_picker_set_selected_id (hr_finetune_view_get_gpu_picker (ft), "h200-141gb"));
  wait_idle (window);
  st = hr_finetune_view_get_state (ft);
  g_assert_false (st->ft.flash_attention);
  g_assert_cmpint (st->ft.seq_len, ==, 4096);
  g_assert_cmpint (st->ft.method, ==, HR_FT_FULL);
  g_assert_cmpint (st->ft.n_gpus, ==, 8);
  g_assert_cmpstr (st->gpu->id, ==, "h200-141gb");
  g_assert_cmpfloat (st->methods[HR_FT_QLORA].estimate.activations_bytes, >, 2 * flash_acts);
  g_clear_pointer (&json, g_free);
  g_clear_pointer (&cli, g_free);
  json = hr_ft_state_json (st);
  {
    const char *args[] = { "finetune", "--model", "glm-4.5-air", "--method", "full", "--seq", "4096",
                           "--gpus", "8", "--sharding", "zero3", "--optimizer", "adamw8bit",
                           "--no-flash-attention", "--gpu", "h200-141gb", "--json", NULL };
    cli = run_cli (args);
  }
  g_assert_cmpstr (json, ==, cli);
  for (guint r = 0; r < HR_FT_N_ROWS; r++)
    g_assert_cmpstr (hr_finetune_view_get_cell_text (ft, HR_FT_FULL, r), ==, st->methods[HR_FT_FULL].cells[r]);

  /* the chart draws the same three methods against the chosen GPU */
  {
    const HrChartFinetune *chart = hr_chart_widget_get_data (hr_finetune_view_get_chart (ft));

    g_assert_nonnull (chart);
    g_assert_cmpint (chart->n_methods, ==, 3);
    g_assert_cmpfloat (chart->physical_gib, ==, 141);
    for (int m = 0; m < 3; m++)
      g_assert_cmpint (chart->methods[m].verdict, ==, hr_chart_verdict_from_core (st->methods[m].verdict));
  }

  /* the model is the window's: the Size view follows this picker */
  g_assert_true (hr_picker_set_selected_id (hr_finetune_view_get_model_picker (ft), "qwen3-32b"));
  wait_idle (window);
  g_assert_cmpstr (hr_size_view_get_scenario (size)->model->id, ==, "qwen3-32b");
  g_assert_cmpstr (hr_finetune_view_get_state (ft)->ft.model->id, ==, "qwen3-32b");
  g_assert_true (hr_size_view_select_model (size, "glm-4.5-air"));
  wait_idle (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-json", NULL));
  hr_test_window_close (window);
}

/* Only the view in sight is built at start-up; the others are built from the session when first
 * asked for, and follow it from then on: the three model pickers are one property, Fine-tune
 * checks the GPU the Size view sizes, and a catalog change reaches every view. */
static void
test_session_views (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  HrWindow *window;
  HrSizeView *size;
  HrSession *session;
  HrCompareView *compare;
  HrFinetuneView *ft;
  HrModel *model;
  HrPicker *pickers[3];

  g_settings_set_string (settings, "last-view", "size");
  window = hr_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  size = hr_window_get_size_view (window);
  hr_test_wait_size_view (size);
  g_assert_null (hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_COMPARE_VIEW));
  g_assert_null (hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_FINETUNE_VIEW));
  g_assert_null (hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_CLOUD_VIEW));

  session = hr_window_get_session (window);
  g_assert_true (session == hr_size_view_get_session (size));
  compare = HR_COMPARE_VIEW (hr_window_get_view (window, "compare"));
  ft = HR_FINETUNE_VIEW (hr_window_get_view (window, "finetune"));
  g_assert_true (hr_test_find_child_of_type (GTK_WIDGET (window), HR_TYPE_COMPARE_VIEW) == GTK_WIDGET (compare));
  g_assert_true (hr_window_get_view (window, "compare") == GTK_WIDGET (compare));
  wait_idle (window);
  pickers[0] = hr_size_view_get_model_picker (size);
  pickers[1] = hr_compare_view_get_model_picker (compare);
  pickers[2] = hr_finetune_view_get_model_picker (ft);

  /* one model: chosen in any picker, it is the session's and every picker's */
  g_assert_true (hr_picker_set_selected_id (pickers[1], "qwen3-32b"));
  g_assert_cmpstr (hr_session_get_model (session), ==, "qwen3-32b");
  for (guint i = 0; i < G_N_ELEMENTS (pickers); i++)
    g_assert_cmpstr (hr_picker_get_selected_id (pickers[i]), ==, "qwen3-32b");

  /* Fine-tune checks the Size view's GPU, whichever it becomes */
  g_assert_true (hr_size_view_select_gpu (size, "h200-141gb", 1));
  g_assert_cmpstr (hr_picker_get_selected_id (hr_finetune_view_get_gpu_picker (ft)), ==, "h200-141gb");
  g_assert_true (hr_window_set_visible_view (window, "finetune"));
  wait_idle (window);
  g_assert_cmpstr (hr_finetune_view_get_state (ft)->gpu->id, ==, "h200-141gb");

  /* a model of the user's comes and goes: every picker lists it, then falls back */
  model = hr_model_copy (hr_catalog_find_model (hr_session_get_catalog (session), "qwen3-8b"));
  g_free (model->id);
  model->id = g_strdup ("user-session-model");
  g_free (model->name);
  model->name = g_strdup ("Session Test Model");
  hr_session_add_model (session, model);
  hr_session_set_model (session, "user-session-model");
  wait_idle (window);
  for (guint i = 0; i < G_N_ELEMENTS (pickers); i++)
    {
      g_assert_cmpuint (hr_picker_search (pickers[i], "session test model"), ==, 1);
      g_assert_cmpstr (hr_picker_get_selected_id (pickers[i]), ==, "user-session-model");
    }
  g_assert_cmpstr (hr_finetune_view_get_state (ft)->ft.model->id, ==, "user-session-model");
  g_assert_true (hr_session_remove_model (session, "user-session-model"));
  wait_idle (window);
  for (guint i = 0; i < G_N_ELEMENTS (pickers); i++)
    {
      g_assert_cmpuint (hr_picker_search (pickers[i], "session test model"), ==, 0);
      g_assert_cmpstr (hr_picker_get_selected_id (pickers[i]), ==, "glm-4.5-air");
    }

  hr_size_view_select_gpu (size, "rtx-pro-6000-blackwell-96gb", 1);
  hr_window_set_visible_view (window, "size");
  wait_idle (window);
  hr_test_window_close (window);
}

/* Each of Fine-tune's method, optimizer and sharding rows lists every value in its enum's
 * order, as the state words it; choosing a position chooses that value. */
static void
assert_row_lists (AdwComboRow  *row,
                  guint         n,
                  const char *(*display) (guint value))
{
  GListModel *list = adw_combo_row_get_model (row);

  g_assert_cmpuint (g_list_model_get_n_items (list), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (list), i), ==, display (i));
}

static const char *
method_display (guint value)
{
  return hr_ft_method_display ((HrFtMethod) value);
}

static const char *
optimizer_display (guint value)
{
  return hr_optimizer_display ((HrOptimizer) value);
}

static const char *
sharding_display (guint value)
{
  return hr_sharding_display ((HrSharding) value);
}

static void
test_finetune_rows (void)
{
  HrWindow *window = open_window ();
  HrFinetuneView *ft = HR_FINETUNE_VIEW (hr_window_get_view (window, "finetune"));

  assert_row_lists (hr_finetune_view_get_method_row (ft), HR_FT_N_METHODS, method_display);
  assert_row_lists (hr_finetune_view_get_optimizer_row (ft), HR_FT_N_OPTIMIZERS, optimizer_display);
  assert_row_lists (hr_finetune_view_get_sharding_row (ft), HR_FT_N_SHARDINGS, sharding_display);
  g_assert_true (hr_window_set_visible_view (window, "finetune"));
  adw_combo_row_set_selected (hr_finetune_view_get_optimizer_row (ft), HR_OPT_SGD);
  adw_combo_row_set_selected (hr_finetune_view_get_sharding_row (ft), HR_SHARD_ZERO2);
  wait_idle (window);
  g_assert_cmpint (hr_finetune_view_get_state (ft)->ft.optimizer, ==, HR_OPT_SGD);
  g_assert_cmpint (hr_finetune_view_get_state (ft)->ft.sharding, ==, HR_SHARD_ZERO2);
  adw_combo_row_set_selected (hr_finetune_view_get_optimizer_row (ft), HR_OPT_ADAMW);
  adw_combo_row_set_selected (hr_finetune_view_get_sharding_row (ft), HR_SHARD_NONE);
  hr_window_set_visible_view (window, "size");
  wait_idle (window);
  hr_test_window_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/compare-window/done-when", test_compare_done_when);
  g_test_add_func ("/compare-window/edit", test_compare_edit);
  g_test_add_func ("/compare-window/mixed", test_compare_mixed);
  g_test_add_func ("/compare-window/lazy", test_compare_lazy);
  g_test_add_func ("/compare-window/rows-stay", test_compare_rows_stay);
  g_test_add_func ("/compare-window/gpus-kept", test_compare_gpus_kept);
  g_test_add_func ("/compare-window/finetune", test_finetune);
  g_test_add_func ("/compare-window/session-views", test_session_views);
  g_test_add_func ("/compare-window/finetune-rows", test_finetune_rows);

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
