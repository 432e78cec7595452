/* hr-size-view-bind.c — the Size view's controls bound to the session's scenario properties
 *
 * Each control moves one property of the session (hr-session.h), both ways; the session keeps
 * GSettings in step.  A combo row's position maps to the property's id through its list; an
 * adjustment's double to the property's integer, rounded.  The pickers' lists are refilled
 * when the catalog changes: their bindings are let go meanwhile, so a list in between never
 * reaches the session.
 */
#include "hr-size-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

enum { BIND_MODEL, BIND_GPU, BIND_QUANT };

/* The choice rows' ids, position by position, from core's tables ------------------------------ */

/* Every KV-cache type, in HrKvType's order. */
static const char * const *
kv_ids (void)
{
  static const char *ids[HR_N_KV_TYPES + 1];

  if (ids[0] == NULL)
    for (guint i = 0; i < HR_N_KV_TYPES; i++)
      ids[i] = hr_kv_type_to_string ((HrKvType) i);
  return ids;
}

/* "auto" (from the GPU), then the backends one picks by hand. */
static const char * const *
backend_ids (void)
{
  static const char *ids[HR_N_BACKENDS + 2];

  if (ids[0] == NULL)
    {
      guint n;
      const HrBackend *choices = hr_backend_choices (&n);

      ids[0] = "auto";
      for (guint i = 0; i < n; i++)
        ids[i + 1] = hr_backend_to_string (choices[i]);
    }
  return ids;
}

/* A row's position and the id at it ---------------------------------------------------------- */

static gboolean
table_to_position (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  const char * const *table = user_data;
  const char *id = g_value_get_string (from);

  for (guint i = 0; table[i] != NULL; i++)
    if (g_strcmp0 (table[i], id) == 0)
      {
        g_value_set_uint (to, i);
        return TRUE;
      }
  g_value_set_uint (to, 0);
  return TRUE;
}

static gboolean
position_to_table (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  const char * const *table = user_data;
  guint pos = g_value_get_uint (from);

  if (pos >= g_strv_length ((char **) table))
    return FALSE;
  g_value_set_string (to, table[pos]);
  return TRUE;
}

/* The session's quant names the picker's entry whatever its case ("q4_k_m"). */
static gboolean
quant_to_id (GBinding     *binding,
             const GValue *from,
             GValue       *to,
             gpointer      user_data)
{
  HrSizeView *self = user_data;
  const HrQuantMix *q = hr_catalog_find_quant (self->catalog, g_value_get_string (from));

  if (q == NULL)
    return FALSE;
  g_value_set_string (to, q->id);
  return TRUE;
}

static gboolean
id_to_quant (GBinding     *binding,
             const GValue *from,
             GValue       *to,
             gpointer      user_data)
{
  if (g_value_get_string (from) == NULL)
    return FALSE;
  g_value_copy (from, to);
  return TRUE;
}

/* An adjustment's value and an integer ------------------------------------------------------- */

static gboolean
integer_to_double (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  if (G_VALUE_HOLDS_INT64 (from))
    g_value_set_double (to, (double) g_value_get_int64 (from));
  else
    g_value_set_double (to, (double) g_value_get_int (from));
  return TRUE;
}

static gboolean
double_to_integer (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  double v = floor (g_value_get_double (from) + 0.5);

  /* half a token is the context spin's +/− on its way to the next power of two */
  if (v - g_value_get_double (from) == 0.5)
    return FALSE;
  if (G_VALUE_HOLDS_INT64 (to))
    g_value_set_int64 (to, (gint64) v);
  else
    g_value_set_int (to, (int) v);
  return TRUE;
}

static void
bind_integer (HrSizeView    *self,
              const char    *property,
              GtkAdjustment *adjustment)
{
  g_object_bind_property_full (self->session, property, adjustment, "value",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               integer_to_double, double_to_integer, NULL, NULL);
}

static void
bind_table (HrSizeView         *self,
            const char         *property,
            AdwComboRow        *row,
            const char * const *table)
{
  g_object_bind_property_full (self->session, property, row, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               table_to_position, position_to_table, (gpointer) table, NULL);
}

/* Entry points ------------------------------------------------------------------------------- */

/* The KV-cache, engine and backend rows list what core's tables have, in the order the
 * bindings map positions to ids in. */
void
hr_size_view_fill_choice_rows (HrSizeView *self)
{
  g_autoptr(GtkStringList) kv = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) backends = gtk_string_list_new (NULL);
  const char * const *backend = backend_ids ();

  for (guint i = 0; i < HR_N_KV_TYPES; i++)
    gtk_string_list_append (kv, hr_kv_type_display_name ((HrKvType) i));
  gtk_string_list_append (backends, _("Automatic"));
  for (guint i = 1; backend[i] != NULL; i++)
    {
      HrBackend b;

      hr_backend_from_string (backend[i], &b);
      gtk_string_list_append (backends, hr_backend_display_name (b));
    }
  adw_combo_row_set_model (self->kv_row, G_LIST_MODEL (kv));
  adw_combo_row_set_model (self->engine_row, G_LIST_MODEL (gtk_string_list_new (hr_engine_names ())));
  adw_combo_row_set_model (self->backend_row, G_LIST_MODEL (backends));
}

void
hr_size_view_bind_lists (HrSizeView *self)
{
  GBindingFlags flags = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;

  self->list_bindings[BIND_MODEL] = g_object_bind_property (self->session, "model", self->model_picker,
                                                            "selected-id", flags);
  self->list_bindings[BIND_GPU] = g_object_bind_property (self->session, "gpu", self->gpu_picker,
                                                          "selected-id", flags);
  self->list_bindings[BIND_QUANT] = g_object_bind_property_full (self->session, "quant", self->quant_picker,
                                                                 "selected-id", flags, quant_to_id,
                                                                 id_to_quant, self, NULL);
}

void
hr_size_view_unbind_lists (HrSizeView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->list_bindings); i++)
    g_clear_pointer (&self->list_bindings[i], g_binding_unbind);
}

/* Binds every control but the lists (hr_size_view_bind_lists(), once they are filled). */
void
hr_size_view_bind_session (HrSizeView *self)
{
  bind_integer (self, "context", self->context_adjustment);
  bind_integer (self, "gpus", self->gpus_adjustment);
  bind_integer (self, "batch", self->batch_adjustment);
  bind_integer (self, "n-cpu-moe", self->moe_adjustment);
  g_object_bind_property (self->session, "offload", self->offload_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  bind_table (self, "kv-type", self->kv_row, kv_ids ());
  bind_table (self, "engine", self->engine_row, hr_engine_ids ());
  bind_table (self, "backend", self->backend_row, backend_ids ());
  g_object_bind_property (self->session, "mmproj", self->mmproj_switch, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}
