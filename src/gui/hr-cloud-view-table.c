/* hr-cloud-view-table.c — the Cloud & TCO view's table of offers that fit
 *
 * One boxed-list row per offer, its columns kept in line by size groups (the Size view's
 * quantization matrix does the same); clicking a row chooses the offer for rent versus buy, its
 * button opens the provider's page in the browser.  In a narrow window (self->stacked) the
 * columns would cut the provider and instance to "…": each offer is then one stacked row that
 * reads as a whole, "Provider · instance" over its terms and its cost per 1M tokens.
 */
#include "hr-cloud-view-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "hr-table-cells.h"

static GtkWidget *
cell (HrCloudView *self,
      guint        column,
      const char  *text,
      gboolean     numeric)
{
  GtkWidget *label = hr_table_column_label (self->columns[column], text, numeric);

  if (!numeric)
    {
      /* a feed's names may be long: keep the columns */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
      gtk_widget_set_tooltip_text (label, text);
    }
  return label;
}

static GtkWidget *
header_row (HrCloudView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  const char *titles[N_COLUMNS] = {
    _("Provider"), _("Instance"), _("VRAM"), _("Price"), _("Monthly"), _("Billing"),
    _("Per 1M tokens"), ""
  };

  for (guint i = 0; i < N_COLUMNS; i++)
    {
      GtkWidget *c = cell (self, i, titles[i], i >= 2 && i != 5 && i != 7);
      gtk_widget_add_css_class (c, "caption-heading");
      gtk_widget_set_has_tooltip (c, FALSE);
      if (i == 1)
        gtk_widget_set_hexpand (c, TRUE);
      gtk_box_append (GTK_BOX (box), c);
    }
  return hr_table_header_row (box, FALSE);
}

static void
show_uri_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HrCloudView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* TRANSLATORS: opening a provider's page failed; the argument is the reason */
      g_autofree char *msg = g_strdup_printf (_("Could not open the provider’s page: %s"), error->message);
      hr_cloud_view_toast (self, msg, TRUE);
    }
}

static void
open_link_cb (HrCloudView *self,
              GtkButton   *button)
{
  const char *uri = g_object_get_data (G_OBJECT (button), "url");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (uri == NULL || !GTK_IS_WINDOW (root))
    return;
  gtk_show_uri_full (GTK_WINDOW (root), uri, GDK_CURRENT_TIME, self->cancellable,
                     show_uri_cb, g_object_ref (self));
}

static GtkWidget *
link_button (HrCloudView        *self,
             const HrCloudOffer *o)
{
  GtkWidget *button = gtk_button_new ();
  g_autofree char *tip = NULL;

  if (self->stacked)
    {
      /* the icon alone: the row's words need the width */
      gtk_button_set_icon_name (GTK_BUTTON (button), "web-browser-symbolic");
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Open"), -1);
    }
  else
    {
      GtkWidget *content = adw_button_content_new ();

      adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "web-browser-symbolic");
      adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("Open"));
      gtk_button_set_child (GTK_BUTTON (button), content);
    }
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  if (o->url != NULL)
    {
      /* TRANSLATORS: tooltip of a provider's link, e.g. "Open https://www.runpod.io/pricing" */
      tip = g_strdup_printf (_("Open %s"), o->url);
      gtk_widget_set_tooltip_text (button, tip);
      g_object_set_data_full (G_OBJECT (button), "url", g_strdup (o->url), g_free);
      g_signal_connect_object (button, "clicked", G_CALLBACK (open_link_cb), self, G_CONNECT_SWAPPED);
    }
  else
    {
      gtk_widget_set_sensitive (button, FALSE);
      gtk_widget_set_tooltip_text (button, _("The price list gives no address for this offer"));
    }
  if (!self->stacked)
    gtk_size_group_add_widget (self->columns[7], button);
  return button;
}

/* The cost per 1M tokens over the decode speed it follows from. */
static GtkWidget *
cost_cell (HrCloudView        *self,
           const HrCloudOffer *o)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *cost = gtk_label_new (o->cost_per_mtok);
  GtkWidget *speed = gtk_label_new (o->speed);

  gtk_label_set_xalign (GTK_LABEL (cost), 1.0);
  gtk_label_set_xalign (GTK_LABEL (speed), 1.0);
  gtk_widget_add_css_class (cost, "numeric");
  gtk_widget_add_css_class (speed, "numeric");
  gtk_widget_add_css_class (speed, "caption");
  gtk_widget_add_css_class (speed, "dim-label");
  gtk_widget_set_tooltip_text (speed, _("Decode speed estimated on this instance’s GPUs"));
  gtk_box_append (GTK_BOX (box), cost);
  gtk_box_append (GTK_BOX (box), speed);
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_size_group_add_widget (self->columns[6], box);
  return box;
}

/* A label of a stacked row: it wraps, between words where it can. */
static GtkWidget *
stacked_label (const char *text,
               const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  return label;
}

/* @text with its spaces made non-breaking: "On demand" and "96 GB" stay whole on a line. */
static char *
unbroken (const char *text)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);

  return g_strjoinv ("\u00a0", words);
}

static GtkWidget *
stacked_offer (HrCloudView        *self,
               const HrCloudOffer *o,
               const char         *tier)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *title = g_strdup_printf ("%s · %s", o->provider, o->instance);
  g_autofree char *vram = unbroken (o->vram);
  g_autofree char *billing = unbroken (o->billing);
  /* it wraps between its parts, each whole */
  g_autofree char *terms = g_strjoin (" · ", vram, o->hourly, o->monthly, billing, NULL);
  g_autofree char *cost = NULL;
  GtkWidget *label;

  if (isfinite (o->cost_per_mtok_usd))
    /* TRANSLATORS: a cloud offer in a narrow window, e.g. "$3.32 per 1M tokens at ~83.8 tok/s" */
    cost = g_strdup_printf (_("%s per 1M tokens at %s"), o->cost_per_mtok, o->speed);
  else
    cost = g_strdup (_("Cost per 1M tokens unknown"));

  gtk_box_append (GTK_BOX (text), stacked_label (title, "heading"));
  if (tier[0] != '\0')
    {
      label = stacked_label (tier, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (text), label);
    }
  label = stacked_label (terms, "numeric");
  gtk_box_append (GTK_BOX (text), label);
  gtk_box_append (GTK_BOX (text), stacked_label (cost, "numeric"));
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (line), text);
  gtk_box_append (GTK_BOX (line), link_button (self, o));
  return line;
}

/* The offer as table cells, kept in line with the header's by the size groups. */
static GtkWidget *
table_offer (HrCloudView        *self,
             const HrCloudOffer *o,
             const char         *tier)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *instance = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (o->instance);
  GtkWidget *detail = gtk_label_new (tier);
  GtkWidget *provider = cell (self, 0, o->provider, FALSE);

  gtk_widget_add_css_class (provider, "heading");
  gtk_box_append (GTK_BOX (line), provider);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  if (tier[0] != '\0')
    gtk_widget_set_tooltip_text (detail, tier);
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_box_append (GTK_BOX (instance), name);
  gtk_box_append (GTK_BOX (instance), detail);
  gtk_widget_set_hexpand (instance, TRUE);
  gtk_size_group_add_widget (self->columns[1], instance);
  gtk_box_append (GTK_BOX (line), instance);

  gtk_box_append (GTK_BOX (line), cell (self, 2, o->vram, TRUE));
  gtk_box_append (GTK_BOX (line), cell (self, 3, o->hourly, TRUE));
  gtk_box_append (GTK_BOX (line), cell (self, 4, o->monthly, TRUE));
  gtk_box_append (GTK_BOX (line), cell (self, 5, o->billing, FALSE));
  gtk_box_append (GTK_BOX (line), cost_cell (self, o));
  gtk_box_append (GTK_BOX (line), link_button (self, o));
  return line;
}

static GtkWidget *
offer_row (HrCloudView        *self,
           const HrCloudOffer *o,
           guint               index,
           gboolean            chosen)
{
  GtkWidget *row = gtk_list_box_row_new ();
  g_autoptr(GString) tier = g_string_new (o->tier);
  g_autofree char *a11y = NULL;

  if (o->verdict == HR_VERDICT_TIGHT)
    g_string_append_printf (tier, "%s%s", tier->len > 0 ? " · " : "", _("tight fit"));
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), self->stacked ? stacked_offer (self, o, tier->str)
                                                                    : table_offer (self, o, tier->str));
  gtk_widget_add_css_class (row, "matrix-row");
  if (chosen)
    gtk_widget_add_css_class (row, "current");
  gtk_widget_set_tooltip_text (row, chosen ? _("Compared with buying below")
                                           : _("Compare this offer with buying"));
  /* TRANSLATORS: screen-reader text of an offer row */
  a11y = g_strdup_printf (_("%s, %s, %s: %s, %s, billed %s, %s per million tokens at %s%s"),
                          o->provider, o->instance, o->vram, o->hourly, o->monthly, o->billing,
                          o->cost_per_mtok, o->speed, chosen ? _(" (compared with buying)") : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  g_object_set_data (G_OBJECT (row), "index", GUINT_TO_POINTER (index + 1));
  return row;
}

static GtkWidget *
empty_row (const char *text)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  return row;
}

void
hr_cloud_view_apply_offers (HrCloudView *self)
{
  GtkWidget *child;
  int chosen = hr_cloud_view_selected_index (self);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->offers_list))) != NULL)
    gtk_list_box_remove (self->offers_list, child);
  /* fresh size groups: the old rows' widgets are gone */
  for (guint i = 0; i < N_COLUMNS; i++)
    {
      g_clear_object (&self->columns[i]);
      self->columns[i] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
    }

  self->n_rows = 0;
  adw_preferences_group_set_description (self->offers_group, self->state->summary);
  if (self->state->offers->len == 0)
    {
      gtk_list_box_append (self->offers_list,
                           empty_row (self->state->n_total > 0
                                      ? _("No cloud offer has enough memory for this scenario. A smaller "
                                          "quantization or a shorter context may fit.")
                                      : _("There are no cloud prices. Refresh the prices, or turn on a cloud in Preferences.")));
      return;
    }
  if (!self->stacked)
    gtk_list_box_append (self->offers_list, header_row (self));
  for (guint i = 0; i < self->state->offers->len; i++)
    {
      gtk_list_box_append (self->offers_list,
                           offer_row (self, g_ptr_array_index (self->state->offers, i), i, (int) i == chosen));
      self->n_rows++;
    }
}
