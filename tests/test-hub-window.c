/* test-hub-window.c — the model picker's Hugging Face results, under Xvfb, against the local test
 * hub (hr-test-hub.c): typing finds Hub repositories under their own heading, choosing one sizes
 * it at once (exact tensor bytes) and saves it; a hub that cannot be reached is one line in the
 * list, not a dialog. */
#include <glib/gstdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-compare-view.h"
#include "hr-finetune-view.h"
#include "hr-hub-files.h"
#include "hr-hub-id.h"
#include "hr-hub-search.h"
#include "hr-import.h"
#include "hr-manage-dialog.h"
#include "hr-picker.h"
#include "hr-session.h"
#include "hr-size-view.h"
#include "hr-test-hub.h"
#include "hr-test-window.h"
#include "hr-userdata.h"

static HrApplication *app;

typedef struct
{
  HrPicker *picker;
  const char *id;       /* an entry to wait for, or NULL */
  const char *words;    /* words the Hub heading's line must hold, or NULL */
} ShownWait;

/* The position of entry @id in the picker's list as shown, or -1. */
static int
shown_position (HrPicker   *picker,
                const char *id)
{
  GListModel *shown = hr_picker_get_shown (picker);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);

      if (g_strcmp0 (hr_picker_item_get_id (it), id) == 0)
        return (int) i;
    }
  return -1;
}

/* The Hub heading as shown, or NULL. */
static HrPickerItem *
hub_heading (HrPicker *picker)
{
  GListModel *shown = hr_picker_get_shown (picker);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, i);

      if (hr_picker_item_is_header (it) && strcmp (hr_picker_item_get_title (it), "Hugging Face") == 0)
        return g_steal_pointer (&it);
    }
  return NULL;
}

static gboolean
shown_ready (gpointer data)
{
  ShownWait *w = data;
  g_autoptr(HrPickerItem) heading = hub_heading (w->picker);

  if (w->id != NULL && shown_position (w->picker, w->id) < 0)
    return FALSE;
  if (w->words != NULL &&
      (heading == NULL || strstr (hr_picker_item_get_subtitle (heading), w->words) == NULL))
    return FALSE;
  return TRUE;
}

static gboolean
sizing_said (gpointer import)
{
  const char *message = hr_import_get_last_message (import);

  return message != NULL && strstr (message, "Sizing") != NULL;
}

static gboolean
import_busy (gpointer data)
{
  return hr_import_is_busy (data);
}

static guint
n_toplevels (void)
{
  GListModel *list = gtk_window_get_toplevels ();   /* owned by GTK */
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (list, i);

      if (gtk_widget_get_visible (w))
        n++;
    }
  return n;
}

/* TRUE when one of the Size view's launch commands holds @words. */
static gboolean
launch_has (HrSizeView *view,
            const char *words)
{
  const HrAdviceState *advice = hr_size_view_get_advice (view);

  for (guint i = 0; advice != NULL && advice->launch != NULL && i < advice->launch->len; i++)
    {
      const HrLaunchCommand *cmd = g_ptr_array_index (advice->launch, i);

      if (strstr (cmd->command, words) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_search_and_pick (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPicker *picker = hr_size_view_get_model_picker (view);
  HrSession *session = hr_application_get_session (app);
  g_autoptr(HrPickerItem) heading = NULL;
  g_autoptr(HrUserData) ud = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  const HrModel *model;
  const HrQuantSize *size;
  int pos;

  hr_picker_popup (picker);
  hr_picker_search (picker, "demo");
  hr_test_wait_until (shown_ready, &(ShownWait) { picker, "hf:demo/Demo-ST", NULL },
                      "the Hub's results in the model picker");
  /* the heading, and a line that says what each repository is */
  heading = hub_heading (picker);
  g_assert_nonnull (heading);
  g_assert_true (shown_position (picker, "hf:demo-org/Demo-GGUF") > 0);
  {
    GListModel *shown = hr_picker_get_shown (picker);
    g_autoptr(HrPickerItem) it = g_list_model_get_item (shown, (guint) shown_position (picker, "hf:demo-org/Demo-GGUF"));

    g_test_message ("%s — %s", hr_picker_item_get_title (it), hr_picker_item_get_subtitle (it));
    g_assert_nonnull (strstr (hr_picker_item_get_subtitle (it), "GGUF"));
    g_assert_nonnull (strstr (hr_picker_item_get_subtitle (it), "500000 downloads"));  /* C.UTF-8: no grouping */
    g_assert_nonnull (strstr (hr_picker_item_get_subtitle (it), "2026-11-02"));
  }
  /* the catalog's own entries still answer the same query's words */
  pos = shown_position (picker, "hf:demo/Demo-ST");
  g_assert_cmpint (pos, >, 0);

  /* choosing it sizes it from its headers, saves it and makes it the model */
  hr_picker_activate_shown (picker, (guint) pos);
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  hr_test_wait_size_view (view);
  model = hr_size_view_get_scenario (view)->model;
  g_test_message ("chosen: %s (%s)", model->id, model->name);
  g_assert_true (g_str_has_prefix (model->id, "user:"));
  g_assert_cmpstr (hr_session_get_model (session), ==, model->id);
  g_assert_cmpstr (model->hf_repo, ==, "demo/Demo-ST");
  size = hr_model_find_size (model, "BF16");
  g_assert_nonnull (size);
  g_assert_cmpuint (size->bytes, ==, H.st_bytes);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "BF16");
  /* the launch commands serve the repository chosen */
  g_assert_true (launch_has (view, "vllm serve demo/Demo-ST"));

  /* saved like an imported model: the user's models file has it */
  ud = hr_userdata_new (NULL);
  saved = hr_userdata_list_models (ud, NULL);
  g_assert_nonnull (saved);
  {
    gboolean found = FALSE;

    for (guint i = 0; i < saved->len; i++)
      found |= g_strcmp0 (((HrModel *) g_ptr_array_index (saved, i))->id, model->id) == 0;
    g_assert_true (found);
  }
  g_assert_cmpuint (n_toplevels (), ==, 1);

  /* an FP8 checkpoint is sized on an engine that loads it: llama.cpp would load a GGUF it
   * does not have (a Q8_0 derived from the architecture), vLLM loads the exact bytes */
  g_object_set (session, "engine", "llama.cpp", NULL);
  gtk_widget_activate_action (GTK_WIDGET (view), "import.hub-repo", "s", "demo/Demo-FP8");
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  hr_test_wait_size_view (view);
  g_assert_cmpstr (hr_size_view_get_scenario (view)->model->hf_repo, ==, "demo/Demo-FP8");
  g_assert_cmpstr (hr_size_view_get_scenario (view)->quant, ==, "FP8");
  g_assert_cmpint (hr_size_view_get_scenario (view)->engine, ==, HR_ENGINE_VLLM);
  g_assert_cmpfloat (hr_size_view_get_estimate (view)->weights.bytes, ==, (double) H.fp8_bytes);

  /* choosing it again asks the Hub again and updates the saved entry */
  {
    gint before = g_atomic_int_get (&H.tree_requests);

    gtk_widget_activate_action (GTK_WIDGET (view), "import.hub-repo", "s", "demo/Demo-ST");
    hr_test_wait_while (import_busy, hr_window_get_import (window));
    g_assert_cmpint (g_atomic_int_get (&H.tree_requests), >, before);
    g_assert_nonnull (strstr (hr_import_get_last_message (hr_window_get_import (window)), "Updated"));
  }
  g_object_set (session, "engine", "llama.cpp", NULL);
  hr_test_window_close (window);
}

/* Every model picker searches the Hub (a property of the picker, not of a view): Compare's and
 * Fine-tune's show the same results as the Size view's, and a repository chosen in Compare is
 * sized, saved and becomes every view's model. */
static void
test_every_picker (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSession *session = hr_application_get_session (app);
  HrPicker *pickers[] = {
    hr_finetune_view_get_model_picker (HR_FINETUNE_VIEW (hr_window_get_view (window, "finetune"))),
    hr_compare_view_get_model_picker (HR_COMPARE_VIEW (hr_window_get_view (window, "compare"))),
  };
  const HrModel *model;
  int pos = -1;

  for (guint i = 0; i < G_N_ELEMENTS (pickers); i++)
    {
      hr_window_set_visible_view (window, i == 0 ? "finetune" : "compare");
      hr_picker_popup (pickers[i]);
      hr_picker_search (pickers[i], "gguf");
      hr_test_wait_until (shown_ready, &(ShownWait) { pickers[i], "hf:demo-org/Demo-GGUF", NULL },
                          "the Hub's results in another view's model picker");
      pos = shown_position (pickers[i], "hf:demo-org/Demo-GGUF");
      if (i == 0)
        hr_picker_popdown (pickers[i]);
    }

  /* chosen in Compare: sized from its GGUF header and chosen everywhere */
  hr_picker_activate_shown (pickers[1], (guint) pos);
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  model = hr_catalog_find_model (hr_window_get_catalog (window), hr_session_get_model (session));
  g_assert_nonnull (model);
  g_test_message ("chosen: %s (%s)", model->id, model->name);
  g_assert_true (g_str_has_prefix (model->id, "user:"));
  g_assert_cmpstr (model->gguf_repo, ==, "demo-org/Demo-GGUF");
  g_assert_cmpuint (model->gguf_bytes, ==, H.gguf_tensor_bytes);
  g_assert_cmpstr (hr_picker_get_selected_id (pickers[1]), ==, model->id);
  g_assert_cmpstr (hr_picker_get_selected_id (pickers[0]), ==, model->id);
  g_assert_cmpuint (n_toplevels (), ==, 1);
  /* llama.cpp pulls the repository's file at the quant chosen */
  hr_window_set_visible_view (window, "size");
  hr_test_wait_size_view (hr_window_get_size_view (window));
  g_assert_true (launch_has (hr_window_get_size_view (window), "llama-server -hf demo-org/Demo-GGUF:Q4_K_M"));
  /* the repository's files are its quants: each in the matrix at its listed size */
  {
    const HrAdviceState *advice = hr_size_view_get_advice (hr_window_get_size_view (window));
    guint found = 0;

    for (guint i = 0; i < advice->matrix->len; i++)
      {
        const HrMatrixRowState *row = g_ptr_array_index (advice->matrix, i);

        g_test_message ("matrix: %s %s %s", row->quant, row->weights, row->source);
        /* the split BF16's two parts summed, the Q8_0 file's listed bytes */
        if (g_strcmp0 (row->quant, "BF16") == 0 && strstr (row->source, "13.97 GiB") != NULL)
          found |= 1;
        if (g_strcmp0 (row->quant, "Q8_0") == 0 && g_strcmp0 (row->source, "Measured") == 0)
          found |= 2;
        if (g_strcmp0 (row->quant, "Q4_K_M") == 0 && row->current)
          found |= 4;
      }
    g_assert_cmpuint (found, ==, 7);
  }
  hr_test_window_close (window);
}

/* A button under @widget that activates @action with @target. */
static gboolean
has_action_button (GtkWidget  *widget,
                   const char *action,
                   const char *target)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    {
      GVariant *value = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (widget));

      if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING) &&
          strcmp (g_variant_get_string (value, NULL), target) == 0)
        return TRUE;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_action_button (child, action, target))
      return TRUE;
  return FALSE;
}

/* Saved and refreshable: a Hub model chosen is on disk with what sizes it again (what a
 * restart reads), Manage offers to refresh it, and Refresh asks the Hub again past the cache
 * and updates the entry in place. */
static void
test_refresh (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrImport *import = hr_window_get_import (window);
  HrSession *session = hr_application_get_session (app);
  g_autoptr(HrUserData) ud = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  g_autofree char *id = NULL;
  const HrModel *found = NULL;
  HrManageDialog *manage;
  guint n_models;
  gint before;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", "demo/Demo-ST"));
  hr_test_wait_while (import_busy, import);
  id = g_strdup (hr_session_get_model (session));
  g_assert_true (g_str_has_prefix (id, "user:"));

  /* the user's models file, as the next start reads it */
  ud = hr_userdata_new (NULL);
  saved = hr_userdata_list_models (ud, NULL);
  g_assert_nonnull (saved);
  for (guint i = 0; i < saved->len; i++)
    if (g_strcmp0 (((HrModel *) g_ptr_array_index (saved, i))->id, id) == 0)
      found = g_ptr_array_index (saved, i);
  g_assert_nonnull (found);
  {
    g_autofree char *ref = hr_hub_model_ref (found);
    const HrQuantSize *size = hr_model_find_size (found, "BF16");

    g_assert_cmpstr (ref, ==, "demo/Demo-ST");
    g_assert_nonnull (size);
    g_assert_cmpuint (size->bytes, ==, H.st_bytes);
  }

  /* Manage offers Refresh for it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.manage", NULL));
  manage = HR_MANAGE_DIALOG (hr_import_get_dialog (import));
  g_assert_nonnull (manage);
  n_models = hr_manage_dialog_get_n_models (manage);
  g_assert_true (has_action_button (GTK_WIDGET (manage), "import.refresh-model", id));

  /* Refresh: the listing is asked again (the cache holds it for a day), the entry updated */
  before = g_atomic_int_get (&H.tree_requests);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (manage), "import.refresh-model", "s", id));
  hr_test_wait_while (import_busy, import);
  g_test_message ("refresh: %s", hr_import_get_last_message (import));
  g_assert_cmpint (g_atomic_int_get (&H.tree_requests), >, before);
  g_assert_nonnull (strstr (hr_import_get_last_message (import), "Updated"));
  g_assert_cmpuint (hr_manage_dialog_get_n_models (manage), ==, n_models);
  g_assert_cmpstr (hr_session_get_model (session), ==, id);
  gtk_window_destroy (GTK_WINDOW (manage));
  hr_test_window_close (window);
}

/* In a 360 px window the picker's list, Hub results and all, fits the window. */
static void
test_narrow (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrPicker *picker = hr_size_view_get_model_picker (hr_window_get_size_view (window));
  GtkWidget *popover = hr_test_find_child_of_type (GTK_WIDGET (picker), GTK_TYPE_POPOVER);
  GtkWidget *flap;
  int min_w = 0, nat_w = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  hr_test_wait_settled (GTK_WIDGET (window));
  /* the narrow window folds the scenario sidebar, where the picker is, away */
  flap = hr_test_find_child_of_type (GTK_WIDGET (hr_window_get_size_view (window)), ADW_TYPE_FLAP);
  if (flap != NULL)
    adw_flap_set_reveal_flap (ADW_FLAP (flap), TRUE);
  hr_test_wait_settled (GTK_WIDGET (window));
  hr_picker_popup (picker);
  hr_picker_search (picker, "demo");
  hr_test_wait_until (shown_ready, &(ShownWait) { picker, "hf:demo/Demo-ST", NULL },
                      "the Hub's results in the narrow window's picker");
  hr_test_wait_settled (popover);
  gtk_widget_measure (popover, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
  /* what it needs: on a 360 px screen GDK shrinks the popup to the screen, down to that */
  g_test_message ("the picker's list needs %d px (%d natural)", min_w, nat_w);
  g_assert_cmpint (min_w, <=, 360);
  hr_picker_popdown (picker);
  hr_test_window_close (window);
}

static void
count_slow_answers (HrHubSearch *search,
                    gint        *n)
{
  if (hr_hub_search_get_state (search) == HR_HUB_SEARCH_DONE &&
      g_strcmp0 (hr_hub_search_get_query (search), "slowpoke") == 0)
    (*n)++;
}

static gboolean
search_done (gpointer search)
{
  return hr_hub_search_get_state (search) == HR_HUB_SEARCH_DONE;
}

static gboolean
search_sent (gpointer before)
{
  return g_atomic_int_get (&H.search_requests) > GPOINTER_TO_INT (before);
}

/* Typing asks the Hub once, after the typing stops; a new query cancels the search in flight,
 * whose answer is never shown. */
static void
test_search_debounce_and_cancel (void)
{
  g_autoptr(HrHubSearch) search = hr_hub_search_new ();
  const char *typed = "demo-org";
  gint before = g_atomic_int_get (&H.search_requests);
  gint slow_answers = 0;
  GPtrArray *hits;

  g_signal_connect (search, "changed", G_CALLBACK (count_slow_answers), &slow_answers);
  /* each key restarts the wait: one request, for the whole word */
  for (gsize n = 1; n <= strlen (typed); n++)
    {
      g_autofree char *prefix = g_strndup (typed, n);

      hr_hub_search_set_query (search, prefix);
    }
  hr_test_wait_until (search_done, search, "the typed search's answer");
  g_assert_cmpint (g_atomic_int_get (&H.search_requests) - before, ==, 1);
  g_assert_cmpstr (hr_hub_search_get_query (search), ==, "demo-org");
  hits = hr_hub_search_get_hits (search);
  g_assert_cmpuint (hits->len, ==, 1);

  /* a slow search in flight (held by the test hub), then another query: the first is dropped,
   * the second answers without waiting for it */
  g_atomic_int_set (&H.release_slow, 0);
  before = g_atomic_int_get (&H.search_requests);
  hr_hub_search_set_query (search, "slowpoke");
  /* the server's thread counts it: nothing in this main loop wakes up for that, so poll */
  for (guint waited = 0; !search_sent (GINT_TO_POINTER (before)); waited += 20)
    {
      g_assert_cmpuint (waited, <, 60000);
      hr_test_spin (20);
    }
  hr_hub_search_set_query (search, "other");
  hr_test_wait_until (search_done, search, "the second search's answer");
  g_assert_cmpstr (hr_hub_search_get_query (search), ==, "other");
  g_assert_cmpuint (hr_hub_search_get_hits (search)->len, ==, 2);
  /* the slow answer let go: it never comes in */
  g_atomic_int_set (&H.release_slow, 1);
  hr_test_spin (500);
  g_assert_cmpint (slow_answers, ==, 0);
  g_assert_cmpstr (hr_hub_search_get_query (search), ==, "other");
  g_assert_cmpuint (hr_hub_search_get_hits (search)->len, ==, 2);
}

/* A query shorter than three characters asks nothing; a gated repo chosen is one toast. */
static void
test_short_query_and_gated (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrPicker *picker = hr_size_view_get_model_picker (view);
  const char *before = hr_session_get_model (hr_application_get_session (app));
  g_autofree char *was = g_strdup (before);
  g_autoptr(HrPickerItem) heading = NULL;

  hr_picker_popup (picker);
  hr_picker_search (picker, "de");
  hr_test_spin (600);
  heading = hub_heading (picker);
  g_assert_null (heading);
  hr_picker_popdown (picker);

  gtk_widget_activate_action (GTK_WIDGET (view), "import.hub-repo", "s", "gated/Secret");
  /* an answer that comes at once is not announced first ("Sizing it…" would hold it back) */
  g_assert_null (strstr (hr_import_get_last_message (hr_window_get_import (window)) ?: "", "Sizing"));
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  g_test_message ("gated: %s", hr_import_get_last_message (hr_window_get_import (window)));
  g_assert_nonnull (strstr (hr_import_get_last_message (hr_window_get_import (window)), "401"));
  g_assert_cmpstr (hr_session_get_model (hr_application_get_session (app)), ==, was);
  g_assert_cmpuint (n_toplevels (), ==, 1);

  /* a slow one is: "Sizing it…" after a second, then the answer */
  {
    gtk_widget_activate_action (GTK_WIDGET (view), "import.hub-repo", "s", "slow/Slow-GGUF");
    hr_test_wait_until (sizing_said, hr_window_get_import (window), "“Sizing it…” for a slow repository");
    hr_test_wait_while (import_busy, hr_window_get_import (window));
    g_assert_nonnull (strstr (hr_import_get_last_message (hr_window_get_import (window)), "slow/Slow-GGUF"));
    g_assert_cmpstr (hr_session_get_model (hr_application_get_session (app)), !=, was);
    hr_session_set_model (hr_application_get_session (app), was);
  }

  /* with Preferences' access token it sizes (no keyring here: the token is in the key) */
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.headroomapp.Headroom");

    g_settings_set_string (settings, "hub-token", TOKEN);
    gtk_widget_activate_action (GTK_WIDGET (view), "import.hub-repo", "s", "gated/Secret");
    hr_test_wait_while (import_busy, hr_window_get_import (window));
    hr_test_wait_size_view (view);
    g_assert_cmpstr (hr_size_view_get_scenario (view)->model->hf_repo, ==, "gated/Secret");
    g_assert_cmpint (g_atomic_int_get (&H.cdn_saw_token), ==, 0);
    g_settings_reset (settings, "hub-token");
  }
  hr_test_window_close (window);
}

/* Nothing listens: the heading says so, the catalog's entries are still there. */
static void
test_offline (void)
{
  HrWindow *window;
  HrPicker *picker;
  g_autofree char *url = g_strdup (g_getenv ("HF_ENDPOINT"));

  g_setenv ("HF_ENDPOINT", "http://127.0.0.1:9", TRUE);
  window = hr_test_window_open (app);
  picker = hr_size_view_get_model_picker (hr_window_get_size_view (window));
  hr_picker_popup (picker);
  g_assert_cmpuint (hr_picker_search (picker, "glm"), >, 0);
  hr_test_wait_until (shown_ready, &(ShownWait) { picker, NULL, "127.0.0.1" },
                      "the Hub heading's offline line");
  /* the catalog keeps answering */
  g_assert_cmpint (shown_position (picker, "glm-4.5-air"), >=, 0);
  g_assert_cmpuint (n_toplevels (), ==, 1);
  hr_picker_popdown (picker);
  /* sizing a repository offline: one toast naming the host, at once, the model unchanged */
  {
    g_autofree char *was = g_strdup (hr_session_get_model (hr_application_get_session (app)));
    gint64 t0 = g_get_monotonic_time ();

    gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", "demo/Demo-ST");
    hr_test_wait_while (import_busy, hr_window_get_import (window));
    g_test_message ("offline: %s", hr_import_get_last_message (hr_window_get_import (window)));
    g_assert_cmpint (g_get_monotonic_time () - t0, <, 8 * G_USEC_PER_SEC);
    g_assert_true (g_str_has_prefix (hr_import_get_last_message (hr_window_get_import (window)),
                                     "demo/Demo-ST: "));
    g_assert_nonnull (strstr (hr_import_get_last_message (hr_window_get_import (window)), "127.0.0.1"));
    g_assert_cmpstr (hr_session_get_model (hr_application_get_session (app)), ==, was);
    g_assert_cmpuint (n_toplevels (), ==, 1);
  }
  hr_test_window_close (window);
  g_setenv ("HF_ENDPOINT", url, TRUE);

  /* rate limited (the RateLimit header alone): the wait it gives, on the heading's line */
  window = hr_test_window_open (app);
  picker = hr_size_view_get_model_picker (hr_window_get_size_view (window));
  hr_picker_popup (picker);
  hr_picker_search (picker, "ratelimited");
  hr_test_wait_until (shown_ready, &(ShownWait) { picker, NULL, "try again in 42 s" },
                      "the Hub heading's rate-limit line");
  g_assert_cmpuint (n_toplevels (), ==, 1);
  hr_picker_popdown (picker);
  hr_test_window_close (window);
}

static gboolean
files_busy (gpointer files)
{
  return hr_hub_files_is_busy (files);
}

/* The served size of @path in @repo, as the test hub wrote or listed it. */
static guint64
served_size (const char *repo,
             const char *path)
{
  for (guint i = 0; i < H.repos->len; i++)
    {
      Repo *r = g_ptr_array_index (H.repos, i);

      for (guint j = 0; g_strcmp0 (r->repo, repo) == 0 && j < r->files->len; j++)
        {
          RepoFile *f = g_ptr_array_index (r->files, j);

          if (strcmp (f->path, path) == 0)
            return f->bytes != NULL ? g_bytes_get_size (f->bytes) : f->size;
        }
    }
  g_assert_not_reached ();
}

/* The line of @text that starts with @title, or NULL. */
static char *
line_of (const char *text,
         const char *title)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], title) && g_str_has_prefix (lines[i] + strlen (title), " — "))
      return g_strdup (lines[i]);
  return NULL;
}

static guint
n_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

/* A line holds its role, quant and exact bytes, and is marked or not. */
static void
assert_file (const char *text,
             const char *title,
             const char *words,
             guint64     bytes,
             gboolean    chosen)
{
  g_autofree char *line = line_of (text, title);
  /* C.UTF-8: no grouping; a file under 1 KiB is its bytes alone */
  g_autofree char *exact = g_strdup_printf (bytes < 1024 ? "%" G_GUINT64_FORMAT " bytes" : "(%" G_GUINT64_FORMAT " bytes)", bytes);

  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, words));
  g_assert_nonnull (strstr (line, exact));
  g_assert_true (g_str_has_suffix (line, " [chosen]") == chosen);
}

/* Choosing a Hub repository shows its files beside its sizing: every file that matters with its
 * exact size and role (split parts summed, the projector apart, README left out), the file it is
 * sized from marked, the mark following the quant chosen; a safetensors repository's shards,
 * index and config; nothing for a catalog model; within 360 px. */
static void
test_files (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrSizeView *view = hr_window_get_size_view (window);
  HrSession *session = hr_application_get_session (app);
  GtkWidget *files = hr_size_view_get_hub_files (view);
  g_autofree char *text = NULL;
  int min_w = 0, nat_w = 0;

  g_assert_nonnull (files);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", "demo-org/Demo-GGUF"));
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  hr_test_wait_size_view (view);
  g_assert_true (gtk_widget_get_visible (files));
  hr_test_wait_while (files_busy, files);
  text = hr_hub_files_describe (HR_HUB_FILES (files));
  g_test_message ("%s", text);
  assert_file (text, "Demo-Q4_K_M.gguf", "GGUF quant, Q4_K_M, ",
               served_size ("demo-org/Demo-GGUF", "Demo-Q4_K_M.gguf"), TRUE);
  assert_file (text, "Demo-Q8_0.gguf", "GGUF quant, Q8_0, ",
               served_size ("demo-org/Demo-GGUF", "Demo-Q8_0.gguf"), FALSE);
  assert_file (text, "BF16/Demo-BF16-00001-of-00002.gguf", "GGUF quant, BF16, part 1 of 2, ", 9000000000, FALSE);
  assert_file (text, "BF16/Demo-BF16-00002-of-00002.gguf", "GGUF quant, BF16, part 2 of 2, ", 6000000000, FALSE);
  assert_file (text, "BF16: 2 parts together", "split parts summed", 9000000000 + 6000000000, FALSE);
  assert_file (text, "mmproj-Demo-F16.gguf", "Vision projector, ", 876000000, FALSE);
  g_assert_null (line_of (text, "README.md"));
  g_assert_cmpuint (n_lines (text), ==, 6);

  /* the mark follows the quant the view is sized at */
  g_object_set (session, "quant", "Q8_0", NULL);
  hr_test_wait_size_view (view);
  g_clear_pointer (&text, g_free);
  text = hr_hub_files_describe (HR_HUB_FILES (files));
  assert_file (text, "Demo-Q8_0.gguf", "GGUF quant, Q8_0, ",
               served_size ("demo-org/Demo-GGUF", "Demo-Q8_0.gguf"), TRUE);
  assert_file (text, "Demo-Q4_K_M.gguf", "GGUF quant, Q4_K_M, ",
               served_size ("demo-org/Demo-GGUF", "Demo-Q4_K_M.gguf"), FALSE);

  /* within 360 px, opened */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (hr_test_find_child_of_type (files, ADW_TYPE_EXPANDER_ROW)), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 740);
  hr_test_wait_settled (GTK_WIDGET (window));
  gtk_widget_measure (files, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
  g_test_message ("the files need %d px (%d natural)", min_w, nat_w);
  g_assert_cmpint (min_w, <=, 360 - 2 * 18);

  /* a safetensors repository: its shards are what it is sized from */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", "demo/Demo-ST"));
  hr_test_wait_while (import_busy, hr_window_get_import (window));
  hr_test_wait_size_view (view);
  hr_test_wait_while (files_busy, files);
  g_clear_pointer (&text, g_free);
  text = hr_hub_files_describe (HR_HUB_FILES (files));
  g_test_message ("%s", text);
  assert_file (text, "model-00001-of-00002.safetensors", "Weights shard, ",
               served_size ("demo/Demo-ST", "model-00001-of-00002.safetensors"), TRUE);
  assert_file (text, "model-00002-of-00002.safetensors", "Weights shard, ",
               served_size ("demo/Demo-ST", "model-00002-of-00002.safetensors"), TRUE);
  assert_file (text, "model.safetensors.index.json", "Shard index, ",
               served_size ("demo/Demo-ST", "model.safetensors.index.json"), FALSE);
  assert_file (text, "config.json", "Configuration, ", served_size ("demo/Demo-ST", "config.json"), FALSE);

  /* a catalog model has no Hub files */
  g_object_set (session, "model", "llama-3.1-8b", NULL);
  hr_test_wait_size_view (view);
  g_assert_false (gtk_widget_get_visible (files));
  g_object_set (session, "quant", "Q4_K_M", NULL);
  hr_test_window_close (window);
}

/* The toast the window's overlay shows, or NULL. */
static AdwToast *
shown_toast (HrWindow *window)
{
  GtkWidget *overlay = hr_test_find_child_of_type (GTK_WIDGET (window), ADW_TYPE_TOAST_OVERLAY);
  AdwToast *toast = NULL;

  for (GtkWidget *w = gtk_widget_get_first_child (overlay); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (strcmp (G_OBJECT_TYPE_NAME (w), "AdwToastWidget") == 0 && gtk_widget_get_can_target (w))
      g_object_get (w, "toast", &toast, NULL);   /* libadwaita 1.2's private widget */
  return toast;
}

static void
count_dismissed (AdwToast *toast,
                 guint    *n)
{
  (*n)++;
}

/* A slow sizing that fails withdraws its "Sizing it…" toast before the error is told, so that it
 * does not come back after the error toast (an error's high priority pushed it back into the
 * queue): after the answer at 1.5 s (the toast on screen), and at 1.1 s with the toast still
 * being animated in, in place of the first error (dismissed as it comes: a 500 ms animation),
 * which libadwaita 1.2 does not survive the toast being dismissed in (it wrote into the toast's
 * freed entry when the animation ended). */
static void
test_slow_failure (void)
{
  HrWindow *window = hr_test_window_open (app);
  HrImport *import = hr_window_get_import (window);
  const char *const refs[] = { "slow/Slow-Broken", "slow/Soon-Broken" };

  for (guint i = 0; i < G_N_ELEMENTS (refs); i++)
    {
      g_autoptr(AdwToast) progress = NULL;
      guint n_dismissed = 0;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "import.hub-repo", "s", refs[i]));
      hr_test_wait_until (sizing_said, import, "“Sizing it…” for a slow repository");
      progress = g_object_ref (hr_import_get_progress_toast (import));
      /* what is shown before it (the first error, the prices the window could not update) is
       * dismissed as it comes: "Sizing it…" replaces it, in a 500 ms animation */
      for (;;)
        {
          g_autoptr(AdwToast) before = shown_toast (window);

          if (before == NULL || before == progress)
            {
              g_assert_true (before == progress);
              break;
            }
          adw_toast_dismiss (before);
        }
      g_signal_connect (progress, "dismissed", G_CALLBACK (count_dismissed), &n_dismissed);
      hr_test_wait_while (import_busy, import);
      g_test_message ("%s", hr_import_get_last_message (import));
      g_assert_nonnull (strstr (hr_import_get_last_message (import), refs[i]));
      g_assert_cmpuint (n_dismissed, ==, 1);
      /* the animations end without touching what the overlay let go */
      hr_test_spin (700);
      g_assert_cmpuint (n_dismissed, ==, 1);
      g_signal_handlers_disconnect_by_data (progress, &n_dismissed);
    }
  g_assert_cmpuint (n_toplevels (), ==, 1);
  hr_test_window_close (window);
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        rm_rf (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = g_dir_make_tmp ("headroom-hub-window-XXXXXX", NULL);
  g_autofree char *data_home = g_build_filename (root, "data", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *hf_home = g_build_filename (root, "hf", NULL);
  int ret;

  g_mkdir_with_parents (data_home, 0700);
  g_mkdir_with_parents (cache, 0700);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("HF_HOME", hf_home, TRUE);
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HUGGING_FACE_HUB_TOKEN");
  g_unsetenv ("HF_HUB_OFFLINE");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/headroom-test-bus", TRUE);
  hr_test_init (&argc, &argv);
  H.home = g_strdup (root);
  hr_test_hub_start ();
  g_setenv ("HF_ENDPOINT", hr_test_server_get_url (H.hub), TRUE);
  app = hr_test_app_new ();

  g_test_add_func ("/hub-window/search-and-pick", test_search_and_pick);
  g_test_add_func ("/hub-window/short-query-and-gated", test_short_query_and_gated);
  g_test_add_func ("/hub-window/offline", test_offline);
  g_test_add_func ("/hub-window/every-picker", test_every_picker);
  g_test_add_func ("/hub-window/refresh", test_refresh);
  g_test_add_func ("/hub-window/narrow", test_narrow);
  g_test_add_func ("/hub-window/files", test_files);
  g_test_add_func ("/hub-window/slow-failure", test_slow_failure);
  g_test_add_func ("/hub-window/search-debounce-and-cancel", test_search_debounce_and_cancel);

  ret = g_test_run ();
  g_clear_object (&app);
  hr_test_hub_stop ();
  rm_rf (root);
  return ret;
}
