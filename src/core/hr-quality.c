/* hr-quality.c — the bundled quality figures and quant costs, read and checked */
#include "hr-quality.h"
#include "hr-bundled.h"
#include "hr-catalog.h"
#include "hr-json.h"
#include "hr-quant.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_TEXT_BYTES (4 * 1024 * 1024)
#define MAX_DEPTH      8
#define MAX_VALUES     200000

struct _HrQuality
{
  GPtrArray *metrics;  /* HrQualityMetric */
  GPtrArray *scores;   /* HrQualityScore */
  GPtrArray *costs;    /* HrQuantCost */
};

static const struct
{
  const char *id;
  const char *display;
} use_cases[HR_N_USE_CASES] = {
  [HR_USE_CASE_GENERAL] = { "general", N_("General") },
  [HR_USE_CASE_CODING] = { "coding", N_("Coding") },
  [HR_USE_CASE_CHAT] = { "chat", N_("Chat") },
};

const char *
hr_use_case_to_string (HrUseCase use_case)
{
  return use_case < HR_N_USE_CASES ? use_cases[use_case].id : "general";
}

gboolean
hr_use_case_from_string (const char *str,
                         HrUseCase  *use_case)
{
  for (int i = 0; str != NULL && i < HR_N_USE_CASES; i++)
    if (g_ascii_strcasecmp (str, use_cases[i].id) == 0)
      {
        *use_case = i;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_use_case_display (HrUseCase use_case)
{
  return _(use_cases[use_case < HR_N_USE_CASES ? use_case : 0].display);
}

static void
metric_free (gpointer p)
{
  HrQualityMetric *m = p;

  g_free (m->id);
  g_free (m->name);
  g_free (m);
}

static void
score_free (gpointer p)
{
  HrQualityScore *s = p;

  g_free (s->model);
  g_free (s->hf_repo);
  g_free (s->metric);
  g_free (s->variant);
  g_free (s->source);
  g_free (s->date);
  g_free (s);
}

static void
cost_free (gpointer p)
{
  HrQuantCost *c = p;

  g_free (c->quant);
  g_free (c->source);
  g_free (c->date);
  g_free (c);
}

void
hr_quality_free (HrQuality *quality)
{
  if (quality == NULL)
    return;
  g_ptr_array_unref (quality->metrics);
  g_ptr_array_unref (quality->scores);
  g_ptr_array_unref (quality->costs);
  g_free (quality);
}

static gboolean
fail (GError    **error,
      const char *file,
      const char *what,
      guint       index,
      const char *field,
      const char *problem)
{
  g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID, "%s: %s #%u: “%s” %s",
               file, what, index + 1, field, problem);
  return FALSE;
}

/* A non-empty clean string member, copied into @out; FALSE when missing or not a string. */
static gboolean
get_string (JsonObject *o,
            const char *name,
            char      **out)
{
  JsonNode *n = json_object_get_member (o, name);
  const char *s;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return FALSE;
  s = json_node_get_string (n);
  if (s == NULL || *s == '\0' || strlen (s) > 400)
    return FALSE;
  for (const char *p = s; *p; p++)
    if ((guchar) *p < 0x20)
      return FALSE;
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
get_number (JsonObject *o,
            const char *name,
            double     *out)
{
  JsonNode *n = json_object_get_member (o, name);

  return n != NULL && hr_json_node_get_number (n, out);
}

/* "YYYY-MM-DD" with a real month and day. */
static gboolean
valid_date (const char *s)
{
  int y, m, d;
  char tail;

  if (strlen (s) != 10 || sscanf (s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
    return FALSE;
  return y >= 2000 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

static gboolean
valid_url (const char *s)
{
  return g_str_has_prefix (s, "https://") && strlen (s) > 12 && strchr (s, ' ') == NULL;
}

static JsonArray *
get_array (JsonObject *root,
           const char *name)
{
  JsonNode *n = json_object_get_member (root, name);

  return n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static JsonObject *
element_object (JsonArray *a,
                guint      i)
{
  JsonNode *n = json_array_get_element (a, i);

  return JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static gboolean
parse_metrics (HrQuality   *q,
               JsonArray   *a,
               const char  *file,
               GError     **error)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = element_object (a, i);
      HrQualityMetric *m = g_new0 (HrQualityMetric, 1);

      g_ptr_array_add (q->metrics, m);
      if (o == NULL)
        return fail (error, file, "metric", i, "metrics", "is not an object");
      if (!get_string (o, "id", &m->id))
        return fail (error, file, "metric", i, "id", "is missing");
      if (!get_string (o, "name", &m->name))
        return fail (error, file, "metric", i, "name", "is missing");
      if (!get_number (o, "min", &m->min) || !get_number (o, "max", &m->max) || !(m->min < m->max))
        return fail (error, file, "metric", i, "min", "and “max” must be numbers, min below max");
      if (hr_quality_metric (q, m->id) != m)
        return fail (error, file, "metric", i, "id", "is listed twice");
    }
  return TRUE;
}

static gboolean
parse_scores (HrQuality   *q,
              JsonArray   *a,
              const char  *file,
              gboolean   (*known_model) (const char *id, gpointer data),
              gpointer     data,
              GError     **error)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = element_object (a, i);
      HrQualityScore *s = g_new0 (HrQualityScore, 1);
      const HrQualityMetric *m;
      g_autofree char *use_case = NULL;

      g_ptr_array_add (q->scores, s);
      if (o == NULL)
        return fail (error, file, "score", i, "scores", "is not an object");
      if (!get_string (o, "model", &s->model))
        return fail (error, file, "score", i, "model", "is missing");
      if (known_model != NULL && !known_model (s->model, data))
        return fail (error, file, "score", i, "model", "is not a catalog model");
      if (json_object_has_member (o, "hf_repo") && !get_string (o, "hf_repo", &s->hf_repo))
        return fail (error, file, "score", i, "hf_repo", "is not a string");
      if (!get_string (o, "use_case", &use_case) || !hr_use_case_from_string (use_case, &s->use_case))
        return fail (error, file, "score", i, "use_case", "must be general, coding or chat");
      if (!get_string (o, "metric", &s->metric) || (m = hr_quality_metric (q, s->metric)) == NULL)
        return fail (error, file, "score", i, "metric", "must name one of the file's metrics");
      if (!get_string (o, "variant", &s->variant))
        return fail (error, file, "score", i, "variant", "is missing");
      if (!get_number (o, "value", &s->value) || s->value < m->min || s->value > m->max)
        return fail (error, file, "score", i, "value", "is missing or outside its metric's range");
      if (!get_string (o, "source", &s->source) || !valid_url (s->source))
        return fail (error, file, "score", i, "source", "must be an https:// URL");
      if (!get_string (o, "date", &s->date) || !valid_date (s->date))
        return fail (error, file, "score", i, "date", "must be YYYY-MM-DD");
      for (guint k = 0; k + 1 < q->scores->len; k++)
        {
          const HrQualityScore *t = g_ptr_array_index (q->scores, k);
          if (g_str_equal (t->model, s->model) && t->use_case == s->use_case)
            return fail (error, file, "score", i, "model", "has two figures for one use case");
        }
    }
  return TRUE;
}

static gboolean
parse_costs (HrQuality   *q,
             JsonArray   *a,
             const char  *file,
             GError     **error)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = element_object (a, i);
      HrQuantCost *c = g_new0 (HrQuantCost, 1);

      g_ptr_array_add (q->costs, c);
      c->kld = NAN;
      if (o == NULL)
        return fail (error, file, "quant cost", i, "quant_costs", "is not an object");
      if (!get_string (o, "quant", &c->quant))
        return fail (error, file, "quant cost", i, "quant", "is missing");
      if (!get_number (o, "factor", &c->factor) || !(c->factor > 0 && c->factor <= 1))
        return fail (error, file, "quant cost", i, "factor", "must be above 0 and at most 1");
      if (json_object_has_member (o, "kld") && (!get_number (o, "kld", &c->kld) || c->kld < 0))
        return fail (error, file, "quant cost", i, "kld", "must be a number of at least 0");
      if (!get_string (o, "source", &c->source) || !valid_url (c->source))
        return fail (error, file, "quant cost", i, "source", "must be an https:// URL");
      if (!get_string (o, "date", &c->date) || !valid_date (c->date))
        return fail (error, file, "quant cost", i, "date", "must be YYYY-MM-DD");
      if (hr_quality_quant_cost (q, c->quant) != c)
        return fail (error, file, "quant cost", i, "quant", "is listed twice");
    }
  return TRUE;
}

HrQuality *
hr_quality_parse (const char  *json,
                  gssize       length,
                  const char  *file,
                  gboolean   (*known_model) (const char *id, gpointer data),
                  gpointer     data,
                  GError     **error)
{
  g_autoptr(HrQuality) q = g_new0 (HrQuality, 1);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  JsonNode *root;
  JsonObject *o;
  JsonArray *metrics, *scores, *costs;
  double schema;

  q->metrics = g_ptr_array_new_with_free_func (metric_free);
  q->scores = g_ptr_array_new_with_free_func (score_free);
  q->costs = g_ptr_array_new_with_free_func (cost_free);
  if (length < 0)
    length = json != NULL ? (gssize) strlen (json) : 0;
  if (json == NULL || length == 0 || length > MAX_TEXT_BYTES)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, "%s: empty or too large", file);
      return NULL;
    }
  parser = hr_json_parse (json, length, MAX_DEPTH, MAX_VALUES, &local);
  if (parser == NULL)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, "%s: %s", file, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, "%s: not a JSON object", file);
      return NULL;
    }
  o = json_node_get_object (root);
  if (!get_number (o, "schema", &schema) || schema != 1)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE, "%s: “schema” must be 1", file);
      return NULL;
    }
  metrics = get_array (o, "metrics");
  scores = get_array (o, "scores");
  costs = get_array (o, "quant_costs");
  if (metrics == NULL || scores == NULL || costs == NULL)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_PARSE,
                   "%s: “metrics”, “scores” and “quant_costs” must be arrays", file);
      return NULL;
    }
  if (!parse_metrics (q, metrics, file, error) ||
      !parse_scores (q, scores, file, known_model, data, error) ||
      !parse_costs (q, costs, file, error))
    return NULL;
  return g_steal_pointer (&q);
}

const HrQuality *
hr_quality_get_default (GError **error)
{
  static GMutex lock;
  static HrQuality *bundled = NULL;
  HrQuality *q;

  g_mutex_lock (&lock);
  if (bundled == NULL)
    {
      g_autoptr(GBytes) bytes = hr_bundled_lookup (HR_QUALITY_RESOURCE_PATH, error);
      gsize size;

      if (bytes != NULL)
        {
          const char *data = g_bytes_get_data (bytes, &size);
          bundled = hr_quality_parse (data, (gssize) size, "quality.json", NULL, NULL, error);
        }
    }
  q = bundled;
  g_mutex_unlock (&lock);
  return q;
}

const HrQualityScore *
hr_quality_find (const HrQuality *quality,
                 const HrModel   *model,
                 HrUseCase        use_case)
{
  if (quality == NULL || model == NULL)
    return NULL;
  for (guint i = 0; i < quality->scores->len; i++)
    {
      const HrQualityScore *s = g_ptr_array_index (quality->scores, i);
      if (s->use_case == use_case && g_strcmp0 (s->model, model->id) == 0)
        return s;
    }
  if (model->hf_repo == NULL)
    return NULL;
  for (guint i = 0; i < quality->scores->len; i++)
    {
      const HrQualityScore *s = g_ptr_array_index (quality->scores, i);
      if (s->use_case == use_case && s->hf_repo != NULL &&
          g_ascii_strcasecmp (s->hf_repo, model->hf_repo) == 0)
        return s;
    }
  return NULL;
}

const HrQualityMetric *
hr_quality_metric (const HrQuality *quality,
                   const char      *id)
{
  for (guint i = 0; quality != NULL && id != NULL && i < quality->metrics->len; i++)
    {
      const HrQualityMetric *m = g_ptr_array_index (quality->metrics, i);
      if (g_str_equal (m->id, id))
        return m;
    }
  return NULL;
}

const HrQuantCost *
hr_quality_quant_cost (const HrQuality *quality,
                       const char      *quant)
{
  for (guint i = 0; quality != NULL && quant != NULL && i < quality->costs->len; i++)
    {
      const HrQuantCost *c = g_ptr_array_index (quality->costs, i);
      if (hr_quant_same (c->quant, quant))
        return c;
    }
  return NULL;
}

/* The formats a published figure was measured at: the model's own checkpoint, or 16 bits. */
static gboolean
reference_quant (const HrModel *model,
                 const char    *quant)
{
  static const char *const full[] = { "BF16", "F16", "F32" };

  for (guint i = 0; i < G_N_ELEMENTS (full); i++)
    if (g_ascii_strcasecmp (quant, full[i]) == 0)
      return TRUE;
  return model != NULL && model->native_dtype != NULL && hr_quant_same (model->native_dtype, quant);
}

double
hr_quality_at_quant (const HrQuality *quality,
                     const HrModel   *model,
                     const char      *quant,
                     double           value)
{
  const HrQuantCost *c;

  if (!isfinite (value) || quant == NULL)
    return NAN;
  if (reference_quant (model, quant))
    return value;
  c = hr_quality_quant_cost (quality, quant);
  return c != NULL ? value * c->factor : NAN;
}

guint
hr_quality_n_scores (const HrQuality *quality)
{
  return quality != NULL ? quality->scores->len : 0;
}

const HrQualityScore *
hr_quality_get_score (const HrQuality *quality,
                      guint            index)
{
  g_return_val_if_fail (quality != NULL && index < quality->scores->len, NULL);
  return g_ptr_array_index (quality->scores, index);
}

guint
hr_quality_n_costs (const HrQuality *quality)
{
  return quality != NULL ? quality->costs->len : 0;
}

const HrQuantCost *
hr_quality_get_cost (const HrQuality *quality,
                     guint            index)
{
  g_return_val_if_fail (quality != NULL && index < quality->costs->len, NULL);
  return g_ptr_array_index (quality->costs, index);
}
