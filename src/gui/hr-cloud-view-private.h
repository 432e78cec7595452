/* hr-cloud-view-private.h — the Cloud & TCO view's instance struct, shared by its two files
 *
 * hr-cloud-view.c        the prices, rent versus buy, updating, GObject and public API
 * hr-cloud-view-table.c  the table of offers that fit (one stacked row each when narrow)
 */
#pragma once

#include "hr-cloud-view.h"

G_BEGIN_DECLS

/* table columns: provider, instance, VRAM, $/h, monthly, billing, per 1M tokens, link */
#define N_COLUMNS 8

struct _HrCloudView
{
  GtkWidget parent_instance;

  /* template */
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkLabel *source_label;
  GtkSpinner *refresh_spinner;
  GtkButton *refresh_button;
  AdwPreferencesGroup *offers_group;
  GtkDropDown *sort_dropdown;
  GtkBox *offers_box;
  GtkListBox *offers_list;
  GtkAdjustment *hours_adjustment;
  GtkAdjustment *budget_adjustment;
  GtkAdjustment *kwh_adjustment;
  GtkAdjustment *power_adjustment;
  AdwActionRow *budget_row;
  AdwActionRow *power_row;
  GtkWidget *budget_reset_button;
  GtkWidget *power_reset_button;
  GtkLabel *payback_label;
  GtkLabel *payback_detail_label;
  GtkLabel *cloud_monthly_label;
  GtkLabel *electricity_label;
  GtkLabel *cloud_detail_label;
  GtkLabel *electricity_detail_label;
  HrChartWidget *tco_chart;

  GtkSizeGroup *columns[N_COLUMNS];
  HrSession *session;
  HrPricingManager *manager;
  GSettings *settings;
  GCancellable *cancellable;

  /* what is on screen */
  HrCloudState *state;
  HrBuyChoice buy;
  HrTcoState tco;
  char *chosen_key;        /* the offer clicked; NULL: the cheapest */
  guint n_rows;
  gboolean stacked;        /* a narrow window: one stacked row per offer, no columns */
  char *last_toast;
  guint n_toasts;
  char *last_details;       /* of the last toast with a Details button */

  guint update_id;
  gboolean dirty;
  gboolean syncing;
};

/* hr-cloud-view.c */
void            hr_cloud_view_toast          (HrCloudView    *self,
                                              const char     *title,
                                              gboolean        error);
/* Index of the offer compared with buying: the one clicked, else the cheapest; -1 when none. */
int             hr_cloud_view_selected_index (HrCloudView    *self);

/* hr-cloud-view-table.c */
void            hr_cloud_view_apply_offers   (HrCloudView    *self);

G_END_DECLS
