/* hr-toast.c — every toast of the app: escaped text, one timeout policy, one way to show it */
#include "hr-toast.h"

#include <glib/gi18n-lib.h>

#include "hr-text.h"

#define WRAP_CHARS     56   /* longer texts wrap: they name files, fields and statuses */
#define MIN_LINE_CHARS 12   /* …and a narrow window (360 px) still has room for the toast */
#define MAX_LINE_CHARS 72
#define TOAST_CHROME   110  /* px: a toast's margins and padding, and its close button */
#define BUTTON_CHROME  40   /* px: its own button's padding and spacing, beside the label's text */

typedef struct
{
  GWeakRef anchor;
  GFile *file;
} OpenRequest;

static void
open_request_free (OpenRequest *request)
{
  g_weak_ref_clear (&request->anchor);
  g_clear_object (&request->file);
  g_free (request);
}

static void
launched_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  OpenRequest *request = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkWidget) anchor = g_weak_ref_get (&request->anchor);

  if (!g_app_info_launch_default_for_uri_finish (result, &error) && anchor != NULL)
    {
      g_autofree char *base = g_file_get_basename (request->file);
      /* TRANSLATORS: "Could not open “chart.png”: <reason>" */
      g_autofree char *msg = g_strdup_printf (_("Could not open “%s”: %s"), base, error->message);

      hr_toast_show_text (anchor, msg, HR_TOAST_ERROR);
    }
  open_request_free (request);
}

static void
open_clicked_cb (AdwToast    *toast,
                 OpenRequest *template)
{
  g_autoptr(GtkWidget) anchor = g_weak_ref_get (&template->anchor);
  g_autoptr(GAppLaunchContext) context = NULL;
  g_autofree char *uri = g_file_get_uri (template->file);
  OpenRequest *request = g_new0 (OpenRequest, 1);

  g_weak_ref_init (&request->anchor, anchor);
  request->file = g_object_ref (template->file);
  if (anchor != NULL)
    context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (gtk_widget_get_display (anchor)));
  g_app_info_launch_default_for_uri_async (uri, context, NULL, launched_cb, request);
}

guint
hr_toast_timeout (HrToastKind kind,
                  gboolean    has_button)
{
  if (kind == HR_TOAST_ERROR)
    return 10;
  return has_button ? 8 : 4;
}

AdwToast *
hr_toast_new_text (const char *text)
{
  g_autofree char *visible = hr_text_sanitize (text, 0);
  g_autofree char *markup = g_markup_escape_text (visible != NULL ? visible : "", -1);
  AdwToast *toast = adw_toast_new (markup);

  /* what it says, for fit_to_width () */
  g_object_set_data_full (G_OBJECT (toast), "hr-toast-text", g_steal_pointer (&visible), g_free);
  return toast;
}

static GtkWidget *
wrapping_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), MIN_LINE_CHARS);
  gtk_label_set_max_width_chars (GTK_LABEL (label), MAX_LINE_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

/* The width of @text in @widget's font, in pixels. */
static int
text_width (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* libadwaita 1.2 gives a toast the width its text asks for, however narrow the window: in a
 * 360 px window a long one ran past both edges, its buttons with it.  The text wraps to the
 * room @overlay leaves it instead — beside the close button, and the toast's own button when it
 * has one. */
static void
fit_to_width (AdwToast  *toast,
              GtkWidget *overlay)
{
  const char *text = g_object_get_data (G_OBJECT (toast), "hr-toast-text");
  const char *button = adw_toast_get_button_label (toast);
  GtkWidget *label = adw_toast_get_custom_title (toast);
  int width = gtk_widget_get_width (overlay);
  PangoFontMetrics *metrics;
  int room, char_width;

  if (text == NULL || width <= 0 || (label != NULL && !GTK_IS_LABEL (label)))
    return;
  room = width - TOAST_CHROME;
  if (button != NULL)
    {
      g_autofree char *plain = NULL;

      pango_parse_markup (button, -1, '_', NULL, &plain, NULL, NULL);
      room -= text_width (overlay, plain != NULL ? plain : button) + BUTTON_CHROME;
    }
  if (label == NULL)
    {
      if (text_width (overlay, text) <= room)
        return;
      label = wrapping_label (text);
      adw_toast_set_custom_title (toast, label);
    }
  metrics = pango_context_get_metrics (gtk_widget_get_pango_context (overlay), NULL, NULL);
  char_width = pango_font_metrics_get_approximate_char_width (metrics);
  pango_font_metrics_unref (metrics);
  if (char_width > 0)
    gtk_label_set_max_width_chars (GTK_LABEL (label),
                                   CLAMP (room * PANGO_SCALE / char_width, MIN_LINE_CHARS, MAX_LINE_CHARS));
}

AdwToast *
hr_toast_new (const char  *text,
              HrToastKind  kind)
{
  AdwToast *toast = hr_toast_new_text (text);
  g_autofree char *visible = hr_text_sanitize (text, 0);

  /* a wrapping label asks only for its longest word, so it is asked for a line's width too */
  if (visible != NULL && g_utf8_strlen (visible, -1) > WRAP_CHARS)
    adw_toast_set_custom_title (toast, wrapping_label (visible));
  adw_toast_set_timeout (toast, hr_toast_timeout (kind, FALSE));
  if (kind == HR_TOAST_ERROR)
    adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_object_set_data (G_OBJECT (toast), "hr-toast-kind", GINT_TO_POINTER (kind));
  return toast;
}

void
hr_toast_set_button (AdwToast   *toast,
                     const char *label)
{
  HrToastKind kind;

  g_return_if_fail (ADW_IS_TOAST (toast));
  g_return_if_fail (label != NULL);

  kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (toast), "hr-toast-kind"));
  adw_toast_set_button_label (toast, label);
  adw_toast_set_timeout (toast, hr_toast_timeout (kind, TRUE));
}

void
hr_toast_add_open_button (AdwToast  *toast,
                          GtkWidget *anchor,
                          GFile     *file)
{
  OpenRequest *template;

  g_return_if_fail (ADW_IS_TOAST (toast));
  g_return_if_fail (GTK_IS_WIDGET (anchor));
  g_return_if_fail (G_IS_FILE (file));

  template = g_new0 (OpenRequest, 1);
  g_weak_ref_init (&template->anchor, anchor);
  template->file = g_object_ref (file);
  /* the file, not an action: a toast's button leaves the window before an action is looked up */
  g_object_set_data_full (G_OBJECT (toast), "hr-open-request", template, (GDestroyNotify) open_request_free);
  hr_toast_set_button (toast, _("_Open"));
  g_signal_connect (toast, "button-clicked", G_CALLBACK (open_clicked_cb), template);
}

gboolean
hr_toast_show (GtkWidget *anchor,
               AdwToast  *toast)
{
  g_autoptr(AdwToast) owned = toast;
  GtkWidget *overlay;

  g_return_val_if_fail (GTK_IS_WIDGET (anchor), FALSE);
  g_return_val_if_fail (ADW_IS_TOAST (toast), FALSE);

  g_object_set_data_full (G_OBJECT (anchor), "hr-last-toast", g_object_ref (toast), g_object_unref);
  if (ADW_IS_PREFERENCES_WINDOW (anchor))
    {
      fit_to_width (toast, anchor);
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (anchor), g_steal_pointer (&owned));
      return TRUE;
    }
  overlay = gtk_widget_get_ancestor (anchor, ADW_TYPE_TOAST_OVERLAY);
  if (overlay == NULL)
    return FALSE;
  fit_to_width (toast, overlay);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), g_steal_pointer (&owned));
  return TRUE;
}

void
hr_toast_show_text (GtkWidget   *anchor,
                    const char  *text,
                    HrToastKind  kind)
{
  hr_toast_show (anchor, hr_toast_new (text, kind));
}

void
hr_toast_copied (GtkWidget  *anchor,
                 const char *text,
                 const char *message)
{
  g_return_if_fail (GTK_IS_WIDGET (anchor));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (anchor), text);
  hr_toast_show_text (anchor, message, HR_TOAST_INFO);
}

AdwToast *
hr_toast_get_last (GtkWidget *anchor)
{
  g_return_val_if_fail (GTK_IS_WIDGET (anchor), NULL);
  return g_object_get_data (G_OBJECT (anchor), "hr-last-toast");
}
