/* hr-hub-search.c — the picker's Hub search: one worker per query, the last query wins */
#include "hr-hub-search.h"

#include <string.h>

#include "hr-hub-api.h"

struct _HrHubSearch
{
  GObject parent_instance;

  char *query;
  char *endpoint;
  HrHubSearchState state;
  GPtrArray *hits;
  char *message;
  GCancellable *cancellable;   /* the running search's */
  guint delay_id;
};

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HrHubSearch, hr_hub_search, G_TYPE_OBJECT)

static void
set_state (HrHubSearch      *self,
           HrHubSearchState  state,
           GPtrArray        *hits,
           const char       *message)
{
  self->state = state;
  g_clear_pointer (&self->hits, g_ptr_array_unref);
  self->hits = hits != NULL ? hits : hr_hub_hits_new ();
  g_free (self->message);
  self->message = g_strdup (message);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
cancel (HrHubSearch *self)
{
  g_clear_handle_id (&self->delay_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  char **data = task_data;   /* query, endpoint */
  const char *query = data[0];
  g_autofree char *cache = hr_hub_default_cache_dir ();
  g_autoptr(HrHub) hub = NULL;
  GError *error = NULL;
  GPtrArray *hits = NULL;

  hub = hr_hub_new (data[1], NULL, &error);
  if (hub != NULL)
    {
      hr_hub_set_cache (hub, cache, FALSE);
      hits = hr_hub_search (hub, query, FALSE, HR_HUB_SEARCH_LIMIT, cancellable, &error);
    }
  if (hits == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, hits, (GDestroyNotify) g_ptr_array_unref);
}

static void
search_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *hits = g_task_propagate_pointer (G_TASK (result), &error);
  HrHubSearch *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = HR_HUB_SEARCH (source);
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&hits, g_ptr_array_unref);
      return;   /* an older query's answer */
    }
  g_clear_object (&self->cancellable);
  if (hits == NULL)
    set_state (self, HR_HUB_SEARCH_FAILED, NULL, error->message);
  else
    set_state (self, HR_HUB_SEARCH_DONE, hits, NULL);
}

static gboolean
delay_done_cb (gpointer user_data)
{
  HrHubSearch *self = user_data;
  g_autoptr(GTask) task = NULL;

  self->delay_id = 0;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, search_done_cb, NULL);
  g_task_set_source_tag (task, delay_done_cb);
  {
    char **data = g_new0 (char *, 3);

    data[0] = g_strdup (self->query);
    data[1] = g_strdup (self->endpoint);
    g_task_set_task_data (task, data, (GDestroyNotify) g_strfreev);
  }
  g_task_run_in_thread (task, search_thread);
  return G_SOURCE_REMOVE;
}

static void
hr_hub_search_dispose (GObject *object)
{
  HrHubSearch *self = HR_HUB_SEARCH (object);

  cancel (self);
  G_OBJECT_CLASS (hr_hub_search_parent_class)->dispose (object);
}

static void
hr_hub_search_finalize (GObject *object)
{
  HrHubSearch *self = HR_HUB_SEARCH (object);

  g_free (self->query);
  g_free (self->endpoint);
  g_clear_pointer (&self->hits, g_ptr_array_unref);
  g_free (self->message);
  G_OBJECT_CLASS (hr_hub_search_parent_class)->finalize (object);
}

static void
hr_hub_search_class_init (HrHubSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_hub_search_dispose;
  object_class->finalize = hr_hub_search_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_hub_search_init (HrHubSearch *self)
{
  self->hits = hr_hub_hits_new ();
}

HrHubSearch *
hr_hub_search_new (void)
{
  return g_object_new (HR_TYPE_HUB_SEARCH, NULL);
}

void
hr_hub_search_set_query (HrHubSearch *self,
                         const char  *text)
{
  g_autofree char *q = NULL;

  g_return_if_fail (HR_IS_HUB_SEARCH (self));

  q = g_strstrip (g_strdup (text != NULL ? text : ""));
  if (g_strcmp0 (q, self->query) == 0 && self->state != HR_HUB_SEARCH_IDLE)
    return;
  cancel (self);
  g_free (self->query);
  self->query = g_steal_pointer (&q);
  if (g_utf8_strlen (self->query, -1) < HR_HUB_SEARCH_MIN_CHARS || strlen (self->query) > 200)
    {
      if (self->state != HR_HUB_SEARCH_IDLE)
        set_state (self, HR_HUB_SEARCH_IDLE, NULL, NULL);
      return;
    }
  self->delay_id = g_timeout_add (HR_HUB_SEARCH_DELAY_MS, delay_done_cb, self);
  if (self->state != HR_HUB_SEARCH_BUSY)
    set_state (self, HR_HUB_SEARCH_BUSY, NULL, NULL);
}

void
hr_hub_search_clear (HrHubSearch *self)
{
  g_return_if_fail (HR_IS_HUB_SEARCH (self));

  cancel (self);
  g_clear_pointer (&self->query, g_free);
  if (self->state != HR_HUB_SEARCH_IDLE)
    set_state (self, HR_HUB_SEARCH_IDLE, NULL, NULL);
}

HrHubSearchState
hr_hub_search_get_state (HrHubSearch *self)
{
  g_return_val_if_fail (HR_IS_HUB_SEARCH (self), HR_HUB_SEARCH_IDLE);
  return self->state;
}

const char *
hr_hub_search_get_query (HrHubSearch *self)
{
  g_return_val_if_fail (HR_IS_HUB_SEARCH (self), NULL);
  return self->query;
}

GPtrArray *
hr_hub_search_get_hits (HrHubSearch *self)
{
  g_return_val_if_fail (HR_IS_HUB_SEARCH (self), NULL);
  return self->hits;
}

const char *
hr_hub_search_get_message (HrHubSearch *self)
{
  g_return_val_if_fail (HR_IS_HUB_SEARCH (self), NULL);
  return self->message;
}

void
hr_hub_search_set_endpoint (HrHubSearch *self,
                            const char  *endpoint)
{
  g_return_if_fail (HR_IS_HUB_SEARCH (self));

  g_free (self->endpoint);
  self->endpoint = g_strdup (endpoint);
}
