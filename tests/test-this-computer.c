/* test-this-computer.c — the app opens on the detected hardware (under Xvfb)
 *
 * A fake machine with two RTX 4090s (a fake nvidia-smi first on PATH) and a Ryzen 9 7950X:
 * on the first launch the Size view sizes against "This computer" with 2 as the GPU count, and
 * the GPU picker lists "This Computer" first, with the free-memory variant naming what the
 * desktop already uses.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "hr-application.h"
#include "hr-picker-items.h"
#include "hr-picker.h"
#include "hr-size-view.h"
#include "hr-test-machine.h"
#include "hr-test-window.h"
#include "hr-units.h"
#include "hr-window.h"

static HrApplication *app;
static char *root;

static void
make_machine (void)
{
  root = hr_test_gpu_machine ("headroom-this", "0, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 1331\\n"
                                                 "1, NVIDIA GeForce RTX 4090, 0x268410DE, 24564, 8\\n");
}

static void
test_opens_on_this_computer (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  const HrScenario *s;

  s = hr_size_view_get_scenario (view);
  g_assert_cmpstr (s->gpu->id, ==, "this");
  g_assert_cmpstr (s->gpu->name, ==, "RTX 4090 24GB");
  g_assert_cmpfloat (s->gpu->memory_gib, ==, 24564 / 1024.0);
  g_assert_cmpint (s->n_gpus, ==, 2);

  /* another GPU, one of it; back to this computer: its two GPUs again */
  gtk_adjustment_set_value (hr_size_view_get_gpus_adjustment (view), 1);
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "rtx-3090-24gb"));
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->n_gpus, ==, 1);
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "this"));
  hr_test_wait_size_view (view);
  g_assert_cmpint (hr_size_view_get_scenario (view)->n_gpus, ==, 2);

  /* the free-memory variant: 1.3 GiB less */
  g_assert_true (hr_picker_set_selected_id (hr_size_view_get_gpu_picker (view), "this-free"));
  hr_test_wait_size_view (view);
  s = hr_size_view_get_scenario (view);
  g_assert_cmpfloat (s->gpu->memory_gib, ==, (24564 - 1331) / 1024.0);
  hr_test_window_close (window);
}

static void
test_picker_group (void)
{
  g_autoptr(GPtrArray) items = hr_picker_items_gpus (hr_application_get_catalog (app));
  static const char *first[] = { "this", "this-free", "this-cpu" };

  g_assert_cmpuint (items->len, >, 3);
  for (guint i = 0; i < G_N_ELEMENTS (first); i++)
    {
      HrPickerItem *it = g_ptr_array_index (items, i);
      g_assert_cmpstr (hr_picker_item_get_id (it), ==, first[i]);
      g_assert_cmpstr (hr_picker_item_get_group (it), ==, "This Computer");
    }
  /* "This Computer" says it was recognized as the list's entry it is named after */
  g_assert_cmpstr (hr_picker_item_get_title (g_ptr_array_index (items, 0)), ==, "RTX 4090 24GB");
  g_assert_cmpstr (hr_picker_item_get_subtitle (g_ptr_array_index (items, 0)), ==,
                   "24 GB · 1008 GB/s · recognized as RTX 4090 24GB in the list");
  g_assert_cmpstr (hr_picker_item_get_subtitle (g_ptr_array_index (items, 1)), ==,
                   "The desktop already uses 1.3 GiB of this GPU");
  g_assert_cmpstr (hr_picker_item_get_group (g_ptr_array_index (items, 3)), !=, "This Computer");
}

int
main (int   argc,
      char *argv[])
{
  const char *argv_rm[] = { "/bin/rm", "-rf", NULL, NULL };
  int ret;

  make_machine ();
  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/this-computer/opens-on-it", test_opens_on_this_computer);
  g_test_add_func ("/this-computer/picker-group", test_picker_group);
  ret = g_test_run ();

  g_object_unref (app);
  argv_rm[2] = root;
  g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (root);
  return ret;
}
