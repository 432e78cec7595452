/* hr-user-calibration.c — fitting, applying and keeping the user's per-device calibration */
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "hr-json.h"
#include "hr-json-writer.h"
#include "hr-text.h"
#include "hr-user-calibration.h"

G_DEFINE_QUARK (hr-user-calibration-error-quark, hr_user_calibration_error)

#define FILE_NAME "calibration.json"
#define SCHEMA 1
/* A device list no user reaches; the file stays small */
#define MAX_DEVICES 256
#define MAX_FILE_BYTES (1024 * 1024)
/* Two decode sizes this far apart separate the bandwidth from the fixed cost */
#define SPREAD_FOR_FIXED 1.2

/* ---- fitting ----------------------------------------------------------------------------- */

typedef struct
{
  char gpu_id[96];
  HrBackend backend;
  GArray *bytes;     /* double: bytes read per decode step */
  GArray *seconds;   /* double: measured time per step */
  GArray *fixed;     /* double: Headroom's fixed cost for that step */
  GArray *ratios;    /* double: measured / predicted prefill */
} Group;

static void
group_clear (Group *g)
{
  g_array_unref (g->bytes);
  g_array_unref (g->seconds);
  g_array_unref (g->fixed);
  g_array_unref (g->ratios);
}

static Group *
group_for (GArray          *groups,
           const HrRunCheck *c)
{
  HrBackend backend = hr_scenario_backend (&c->scenario);
  Group g = { .backend = backend };

  for (guint i = 0; i < groups->len; i++)
    {
      Group *e = &g_array_index (groups, Group, i);
      if (e->backend == backend && g_str_equal (e->gpu_id, c->gpu->id))
        return e;
    }
  g_strlcpy (g.gpu_id, c->gpu->id, sizeof g.gpu_id);
  g.bytes = g_array_new (FALSE, FALSE, sizeof (double));
  g.seconds = g_array_new (FALSE, FALSE, sizeof (double));
  g.fixed = g_array_new (FALSE, FALSE, sizeof (double));
  g.ratios = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (groups, g);
  return &g_array_index (groups, Group, groups->len - 1);
}

/* A run a device calibration may learn from: mapped by llama.cpp on one device, every layer on
 * it (offloaded layers run at system RAM speed, which says nothing of the device). */
static gboolean
usable (const HrRunCheck *c)
{
  const HrScenario *s = &c->scenario;

  return c->mapped && s->engine == HR_ENGINE_LLAMA_CPP && s->n_gpus == 1 && s->offload_pct <= 0 &&
         s->n_cpu_moe <= 0 && s->batch == 1 && c->gpu != NULL && !c->gpu->user_defined &&
         c->gpu->id != NULL;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_doubles);
  if (n % 2)
    return g_array_index (values, double, n / 2);
  return (g_array_index (values, double, n / 2 - 1) + g_array_index (values, double, n / 2)) / 2;
}

static void
fit_decode (Group               *g,
            HrDeviceCalibration *cal)
{
  guint n = g->bytes->len;
  double sb = 0, st = 0, sbb = 0, sbt = 0, sfix = 0, bmin = INFINITY, bmax = 0;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      double b = g_array_index (g->bytes, double, i), t = g_array_index (g->seconds, double, i);
      sb += b;
      st += t;
      sbb += b * b;
      sbt += b * t;
      sfix += g_array_index (g->fixed, double, i);
      bmin = MIN (bmin, b);
      bmax = MAX (bmax, b);
    }
  if (n >= 2 && bmax >= bmin * SPREAD_FOR_FIXED)
    {
      /* t = a·bytes + c by least squares; a fixed cost below zero means noise: through 0 */
      double a = (n * sbt - sb * st) / (n * sbb - sb * sb);
      double c = (st - a * sb) / n;

      if (!(a > 0) || c < 0)
        {
          a = sbt / sbb;
          c = 0;
        }
      cal->bytes_per_s = 1 / a;
      cal->fixed_s = c;
      cal->fixed_fitted = TRUE;
    }
  else
    {
      /* one size: the bandwidth that gives the measured time beside Headroom's fixed cost */
      double fixed = sfix / n;
      double a = (st - sfix) / sb;

      if (!(a > 0))
        {
          a = st / sb;
          fixed = 0;
        }
      cal->bytes_per_s = 1 / a;
      cal->fixed_s = fixed;
      cal->fixed_fitted = FALSE;
    }
  cal->decode_runs = n;
}

GArray *
hr_user_calibration_fit (GPtrArray  *checks,
                         const char *date)
{
  g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (Group));
  GArray *out = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");

  g_return_val_if_fail (checks != NULL, out);

  for (guint i = 0; i < checks->len; i++)
    {
      const HrRunCheck *c = g_ptr_array_index (checks, i);
      const HrRun *r = c->run;
      const HrEstimate *e = &c->estimate;
      Group *g;

      if (!usable (c))
        continue;
      if (isfinite (r->measured[HR_MEASURE_DECODE]) && r->measured[HR_MEASURE_DECODE] > 0 &&
          e->decode_basis.kind == HR_BASIS_DECODE_MEMORY && !e->decode_basis.system_ram &&
          e->bytes_per_token > 0)
        {
          double b = e->bytes_per_token, t = 1 / r->measured[HR_MEASURE_DECODE];
          double fixed = e->decode_basis.figures[3] / 1e3;

          g = group_for (groups, c);
          g_array_append_val (g->bytes, b);
          g_array_append_val (g->seconds, t);
          g_array_append_val (g->fixed, fixed);
        }
      if (isfinite (c->error[HR_MEASURE_PREFILL]))
        {
          double ratio = r->measured[HR_MEASURE_PREFILL] / c->predicted[HR_MEASURE_PREFILL];

          g = group_for (groups, c);
          g_array_append_val (g->ratios, ratio);
        }
    }

  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = &g_array_index (groups, Group, i);
      HrDeviceCalibration cal = { .backend = g->backend, .bytes_per_s = NAN, .prefill_scale = NAN };

      g_strlcpy (cal.gpu_id, g->gpu_id, sizeof cal.gpu_id);
      g_strlcpy (cal.date, date ? date : today, sizeof cal.date);
      fit_decode (g, &cal);
      if (g->ratios->len > 0)
        {
          cal.prefill_scale = median (g->ratios);
          cal.prefill_runs = g->ratios->len;
        }
      g_array_append_val (out, cal);
      group_clear (g);
    }
  return out;
}

const char *
hr_user_calibration_device_id (const HrGpu *gpu,
                               char        *buf,
                               gsize        size)
{
  const char *at;

  if (gpu == NULL || gpu->id == NULL)
    return NULL;
  /* "this", "this-free", "this-gpuN": a device hr-detect made */
  if (!g_str_has_prefix (gpu->id, "this"))
    return gpu->id;
  /* hr_system_make_gpu_device() writes "detected (SOURCE); specs: catalog ID" */
  if (gpu->source == NULL || (at = strstr (gpu->source, "specs: catalog ")) == NULL)
    return NULL;
  g_strlcpy (buf, at + strlen ("specs: catalog "), size);
  return buf;
}

const HrDeviceCalibration *
hr_user_calibration_find (GArray     *cals,
                          const char *gpu_id,
                          HrBackend   backend)
{
  if (cals == NULL || gpu_id == NULL)
    return NULL;
  for (guint i = 0; i < cals->len; i++)
    {
      const HrDeviceCalibration *c = &g_array_index (cals, HrDeviceCalibration, i);
      if (c->backend == backend && g_str_equal (c->gpu_id, gpu_id))
        return c;
    }
  return NULL;
}

char *
hr_user_calibration_describe (const HrDeviceCalibration *cal,
                              const HrGpu               *gpu)
{
  int runs;
  GString *out;
  gboolean decode;

  g_return_val_if_fail (cal != NULL, NULL);

  /* llama-bench measures decode and prefill in runs of their own (tg128, pp512) */
  runs = MAX (cal->decode_runs, 0) + MAX (cal->prefill_runs, 0);
  out = g_string_new (NULL);
  g_string_append_printf (out, ngettext ("calibrated from %d run of yours, %s",
                                         "calibrated from %d runs of yours, %s", runs),
                          runs, cal->date);
  decode = cal->decode_runs > 0 && isfinite (cal->bytes_per_s) && cal->bytes_per_s > 0;
  if (decode && gpu != NULL && isfinite (gpu->bandwidth_gbs) && gpu->bandwidth_gbs > 0)
    /* TRANSLATORS: the fitted bandwidth as a share of the GPU's published one */
    g_string_append_printf (out, _(": %.0f %% of %.0f GB/s"),
                            cal->bytes_per_s / 1e9 / gpu->bandwidth_gbs * 100, gpu->bandwidth_gbs);
  else if (decode)
    g_string_append_printf (out, _(": %.0f GB/s effective"), cal->bytes_per_s / 1e9);
  if (cal->prefill_runs > 0 && isfinite (cal->prefill_scale))
    /* TRANSLATORS: measured / predicted prompt rate, "prefill ×0.87" */
    g_string_append_printf (out, decode ? _(", prefill ×%.2f") : _(": prefill ×%.2f"), cal->prefill_scale);
  return g_string_free (out, FALSE);
}

/* ---- applying ---------------------------------------------------------------------------- */

gboolean
hr_user_calibration_apply (const HrDeviceCalibration *cal,
                           const HrScenario          *s,
                           HrEstimate                *est)
{
  gboolean changed = FALSE;
  char buf[96];
  const char *id;

  g_return_val_if_fail (s != NULL && est != NULL, FALSE);
  if (cal == NULL || s->engine != HR_ENGINE_LLAMA_CPP || cal->backend != hr_scenario_backend (s))
    return FALSE;
  id = hr_user_calibration_device_id (s->gpu, buf, sizeof buf);
  if (id == NULL || !g_str_equal (cal->gpu_id, id))
    return FALSE;

  if (cal->decode_runs > 0 && isfinite (cal->bytes_per_s) && cal->bytes_per_s > 0 && s->n_gpus == 1 &&
      est->decode_basis.kind == HR_BASIS_DECODE_MEMORY && !est->decode_basis.system_ram &&
      isfinite (est->decode_tps) && est->decode_tps > 0)
    {
      double fixed = cal->fixed_fitted ? cal->fixed_s : est->decode_basis.figures[3] / 1e3;
      double step = est->bytes_per_token * s->batch / cal->bytes_per_s + fixed;
      double f = (1 / step) / est->decode_tps;
      double device_gbs = est->decode_basis.figures[2];

      est->decode_tps *= f;
      est->decode_tps_low *= f;
      est->decode_tps_high *= f;
      est->decode_tps_empty *= f;
      est->aggregate_tps *= f;
      est->decode_efficiency = device_gbs > 0 ? cal->bytes_per_s / (device_gbs * 1e9) : NAN;
      est->cost_per_mtok_usd /= f;
      est->decode_basis.figures[1] = est->decode_efficiency * 100;
      est->decode_basis.figures[3] = fixed * 1e3;
      est->decode_basis.calibrated_runs = cal->decode_runs;
      g_strlcpy (est->decode_basis.calibrated_date, cal->date, sizeof est->decode_basis.calibrated_date);
      changed = TRUE;
    }
  if (cal->prefill_runs > 0 && isfinite (cal->prefill_scale) && cal->prefill_scale > 0 &&
      isfinite (est->prefill_tps) && est->prefill_tps > 0)
    {
      est->prefill_tps *= cal->prefill_scale;
      est->prefill_tps_low *= cal->prefill_scale;
      est->prefill_tps_high *= cal->prefill_scale;
      est->ttft_ms /= cal->prefill_scale;
      /* the rate the basis names (achieved TFLOPS, per-core GFLOPS) is the calibrated one */
      if (est->prefill_basis.kind == HR_BASIS_PREFILL_TENSOR || est->prefill_basis.kind == HR_BASIS_PREFILL_CPU ||
          est->prefill_basis.kind == HR_BASIS_PREFILL_GPU_CORES || est->prefill_basis.kind == HR_BASIS_PREFILL_INT8)
        est->prefill_basis.figures[1] *= cal->prefill_scale;
      est->prefill_basis.calibrated_runs = cal->prefill_runs;
      g_strlcpy (est->prefill_basis.calibrated_date, cal->date, sizeof est->prefill_basis.calibrated_date);
      changed = TRUE;
    }
  est->calibrated |= changed;
  return changed;
}

/* ---- the file ---------------------------------------------------------------------------- */

char *
hr_user_calibration_to_json (GArray *cals)
{
  HrJsonWriter w;

  hr_json_document_begin (&w);
  hr_json_begin_object (&w);
  hr_json_member_int (&w, "schema", SCHEMA);
  hr_json_key (&w, "devices");
  hr_json_begin_array (&w);
  for (guint i = 0; cals != NULL && i < cals->len; i++)
    {
      const HrDeviceCalibration *c = &g_array_index (cals, HrDeviceCalibration, i);

      hr_json_begin_object (&w);
      hr_json_member_string (&w, "gpu", c->gpu_id);
      hr_json_member_string (&w, "backend", hr_backend_to_string (c->backend));
      hr_json_member_string (&w, "date", c->date);
      hr_json_member_int (&w, "decode_runs", c->decode_runs);
      hr_json_member_number_g (&w, "bytes_per_s", c->bytes_per_s);
      hr_json_member_number_g (&w, "fixed_s", c->decode_runs > 0 ? c->fixed_s : NAN);
      hr_json_member_bool (&w, "fixed_fitted", c->fixed_fitted);
      hr_json_member_int (&w, "prefill_runs", c->prefill_runs);
      hr_json_member_number_g (&w, "prefill_scale", c->prefill_scale);
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  return hr_json_document_end (&w);
}

static gboolean
number_member (JsonObject *o,
               const char *name,
               double      min,
               double      max,
               double     *out)
{
  JsonNode *n = json_object_get_member (o, name);
  double v;

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    {
      *out = NAN;
      return TRUE;
    }
  if (!hr_json_node_get_number (n, &v) || v < min || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

/* The string @name holds, @fallback when absent; NULL when it holds anything else */
static const char *
string_member (JsonObject *o,
               const char *name,
               const char *fallback)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL)
    return fallback;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static gboolean
parse_device (JsonNode            *node,
              HrDeviceCalibration *c,
              GError             **error)
{
  JsonObject *o;
  const char *gpu, *backend, *date;
  double decode_runs, prefill_runs;
  JsonNode *fixed_fitted;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    goto bad;
  o = json_node_get_object (node);
  gpu = string_member (o, "gpu", NULL);
  backend = string_member (o, "backend", NULL);
  date = string_member (o, "date", "");
  if (gpu == NULL || date == NULL || !hr_text_is_clean (gpu) || strlen (gpu) >= sizeof c->gpu_id ||
      backend == NULL || !hr_backend_from_string (backend, &c->backend) ||
      strlen (date) >= sizeof c->date || !hr_text_is_clean (date))
    goto bad;
  g_strlcpy (c->gpu_id, gpu, sizeof c->gpu_id);
  g_strlcpy (c->date, date, sizeof c->date);
  if (!number_member (o, "decode_runs", 0, 1e6, &decode_runs) ||
      !number_member (o, "prefill_runs", 0, 1e6, &prefill_runs) ||
      !number_member (o, "bytes_per_s", 1e6, 1e15, &c->bytes_per_s) ||
      !number_member (o, "fixed_s", 0, 10, &c->fixed_s) ||
      !number_member (o, "prefill_scale", 1e-3, 1e3, &c->prefill_scale))
    goto bad;
  c->decode_runs = isfinite (decode_runs) ? (int) decode_runs : 0;
  c->prefill_runs = isfinite (prefill_runs) ? (int) prefill_runs : 0;
  if ((c->decode_runs > 0 && (!isfinite (c->bytes_per_s) || !isfinite (c->fixed_s))) ||
      (c->prefill_runs > 0 && !isfinite (c->prefill_scale)))
    goto bad;
  fixed_fitted = json_object_get_member (o, "fixed_fitted");
  c->fixed_fitted = fixed_fitted && JSON_NODE_HOLDS_VALUE (fixed_fitted) &&
                    json_node_get_value_type (fixed_fitted) == G_TYPE_BOOLEAN &&
                    json_node_get_boolean (fixed_fitted);
  return TRUE;

bad:
  g_set_error_literal (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT,
                       _("a device entry is malformed"));
  return FALSE;
}

GArray *
hr_user_calibration_parse (const char *text,
                           gssize      length,
                           GError    **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  g_autoptr(GError) local = NULL;
  JsonObject *root;
  JsonArray *devices;
  double schema;

  parser = hr_json_parse (text, length, 8, MAX_DEVICES * 16 + 16, &local);
  if (parser == NULL)
    {
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT, "%s", local->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto bad;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!number_member (root, "schema", 1, 1e6, &schema) || !isfinite (schema))
    goto bad;
  if (schema > SCHEMA)
    {
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_NEWER,
                   _("written by a newer Headroom (schema %.0f)"), schema);
      return NULL;
    }
  if (!json_object_has_member (root, "devices") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "devices")))
    goto bad;
  devices = json_object_get_array_member (root, "devices");
  if (json_array_get_length (devices) > MAX_DEVICES)
    goto bad;
  for (guint i = 0; i < json_array_get_length (devices); i++)
    {
      HrDeviceCalibration c = { 0 };
      if (!parse_device (json_array_get_element (devices, i), &c, error))
        return NULL;
      g_array_append_val (out, c);
    }
  return g_steal_pointer (&out);

bad:
  g_set_error_literal (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT,
                       _("not a calibration file"));
  return NULL;
}

static char *
file_path (const char *dir)
{
  if (dir != NULL)
    return g_build_filename (dir, FILE_NAME, NULL);
  return g_build_filename (g_get_user_data_dir (), "headroom", FILE_NAME, NULL);
}

/* "calibration.json.corrupt-YYYYmmdd-HHMMSS": the damaged file is kept for the user */
static void
move_aside (const char *path)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *aside = g_strdup_printf ("%s.corrupt-%s", path, stamp);

  g_rename (path, aside);
}

GArray *
hr_user_calibration_load (const char *dir,
                          GError    **error)
{
  g_autofree char *path = file_path (dir);
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;
  GArray *cals;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_array_new (FALSE, TRUE, sizeof (HrDeviceCalibration));
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !g_file_get_contents (path, &text, &len, &local))
    {
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_IO,
                   _("cannot read %s: %s"), path, local ? local->message : _("not a regular file"));
      return NULL;
    }
  if (len > MAX_FILE_BYTES)
    {
      move_aside (path);
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT,
                   _("%s was far too large and has been moved aside"), path);
      return NULL;
    }
  cals = hr_user_calibration_parse (text, len, &local);
  if (cals == NULL)
    {
      if (g_error_matches (local, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT))
        {
          move_aside (path);
          g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_CORRUPT,
                       _("%s was damaged (%s) and has been moved aside"), path, local->message);
        }
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", path);
    }
  return cals;
}

static gboolean
write_file (const char *dir,
            GArray     *cals,
            GError    **error)
{
  g_autofree char *path = file_path (dir);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *json = hr_user_calibration_to_json (cals);
  g_autoptr(GError) local = NULL;

  if (g_mkdir_with_parents (parent, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_IO,
                   _("cannot create %s: %s"), parent, g_strerror (saved));
      return FALSE;
    }
  /* a temporary file in the same directory, fsync, then rename: old or new, never half */
  if (!g_file_set_contents_full (path, json, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &local))
    {
      g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_user_calibration_save (const char *dir,
                          GArray     *cals,
                          GError    **error)
{
  g_autoptr(GArray) saved = hr_user_calibration_load (dir, error);

  g_return_val_if_fail (cals != NULL, FALSE);
  if (saved == NULL)
    return FALSE;
  for (guint i = 0; i < cals->len; i++)
    {
      const HrDeviceCalibration *c = &g_array_index (cals, HrDeviceCalibration, i);
      gboolean replaced = FALSE;

      for (guint j = 0; j < saved->len && !replaced; j++)
        {
          HrDeviceCalibration *s = &g_array_index (saved, HrDeviceCalibration, j);
          if (s->backend == c->backend && g_str_equal (s->gpu_id, c->gpu_id))
            {
              *s = *c;
              replaced = TRUE;
            }
        }
      if (!replaced)
        {
          if (saved->len >= MAX_DEVICES)
            {
              g_set_error (error, HR_USER_CALIBRATION_ERROR, HR_USER_CALIBRATION_ERROR_IO,
                           _("more than %d calibrated devices"), MAX_DEVICES);
              return FALSE;
            }
          g_array_append_val (saved, *c);
        }
    }
  return write_file (dir, saved, error);
}

int
hr_user_calibration_remove (const char *dir,
                            const char *gpu_id,
                            GError    **error)
{
  g_autoptr(GArray) saved = hr_user_calibration_load (dir, error);
  int removed = 0;

  if (saved == NULL)
    return -1;
  for (guint i = saved->len; i-- > 0;)
    if (gpu_id == NULL || g_str_equal (g_array_index (saved, HrDeviceCalibration, i).gpu_id, gpu_id))
      {
        g_array_remove_index (saved, i);
        removed++;
      }
  if (removed > 0 && !write_file (dir, saved, error))
    return -1;
  return removed;
}
