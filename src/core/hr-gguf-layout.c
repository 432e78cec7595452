/* hr-gguf-layout.c — where a GGUF file's tensors lie, and split models
 *
 * The totals (parameters, bytes, bytes by type, the experts' share) and the check that tensors
 * follow each other at the file's alignment, as gguf.cpp checks it; then the parts of a split
 * model ("-00001-of-00005.gguf", llama.cpp's gguf-split): their names, loading them all and
 * merging their tensors into one header.
 */
#include "hr-gguf-private.h"

#include <gio/gio.h>
#include <string.h>

static gboolean
is_expert_tensor (const char *name)
{
  const char *p;

  if (strstr (name, "_exps") != NULL)
    return TRUE;

  /* Older files keep one tensor per expert: blk.N.ffn_{gate,up,down}.E.weight */
  if (!g_str_has_prefix (name, "blk."))
    return FALSE;
  p = name + 4;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (g_str_has_prefix (p, ".ffn_gate."))
    p += strlen (".ffn_gate.");
  else if (g_str_has_prefix (p, ".ffn_down."))
    p += strlen (".ffn_down.");
  else if (g_str_has_prefix (p, ".ffn_up."))
    p += strlen (".ffn_up.");
  else
    return FALSE;
  return g_ascii_isdigit (*p);
}

static gint
type_total_cmp (gconstpointer a,
                gconstpointer b)
{
  const HrGgufTypeTotal *ta = a, *tb = b;

  if (ta->bytes != tb->bytes)
    return ta->bytes > tb->bytes ? -1 : 1;
  return ta->type - tb->type;
}

/* Totals, by-type sums and the offset layout check.  Tensors of one file must follow each
 * other in order, each padded to the alignment (gguf.cpp: "tensor has offset X, expected Y"). */
gboolean
hr_gguf_compute_totals (HrGguf  *gguf,
                        GError **error)
{
  g_autoptr(GHashTable) by_type = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint64 expected = 0;
  guint split = 0;

  gguf->n_params = gguf->tensor_bytes = gguf->expert_bytes = gguf->expert_params = 0;
  gguf->data_size = 0;
  g_array_set_size (gguf->by_type, 0);

  for (guint i = 0; i < gguf->tensors->len; i++)
    {
      const HrGgufTensor *t = &g_array_index (gguf->tensors, HrGgufTensor, i);
      HrGgufTypeTotal *total;
      gpointer slot;
      guint64 padded;

      if (t->split != split)
        {
          if (!add_u64 (gguf->data_size, expected, &gguf->data_size))
            goto overflow;
          split = t->split;
          expected = 0;
        }
      if (t->offset != expected)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
                       "tensor “%s” has offset %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                       t->name, t->offset, expected);
          return FALSE;
        }
      if (!align_u64 (t->bytes, gguf->alignment, &padded) ||
          !add_u64 (expected, padded, &expected) ||
          !add_u64 (gguf->n_params, t->n_elements, &gguf->n_params) ||
          !add_u64 (gguf->tensor_bytes, t->bytes, &gguf->tensor_bytes))
        goto overflow;
      if (is_expert_tensor (t->name))
        {
          gguf->expert_bytes += t->bytes;
          gguf->expert_params += t->n_elements;
        }

      if (g_hash_table_lookup_extended (by_type, GINT_TO_POINTER (t->type), NULL, &slot))
        total = &g_array_index (gguf->by_type, HrGgufTypeTotal, GPOINTER_TO_UINT (slot));
      else
        {
          HrGgufTypeTotal fresh = { t->type_name, t->type, 0, 0, 0 };

          g_hash_table_insert (by_type, GINT_TO_POINTER (t->type),
                               GUINT_TO_POINTER (gguf->by_type->len));
          g_array_append_val (gguf->by_type, fresh);
          total = &g_array_index (gguf->by_type, HrGgufTypeTotal, gguf->by_type->len - 1);
        }
      total->n_tensors++;
      total->n_elements += t->n_elements;
      total->bytes += t->bytes;
    }
  if (!add_u64 (gguf->data_size, expected, &gguf->data_size))
    goto overflow;
  g_array_sort (gguf->by_type, type_total_cmp);
  return TRUE;

overflow:
  g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_INVALID,
               "the tensors' sizes add up past 2^64 bytes");
  return FALSE;
}

gboolean
hr_gguf_split_name_parse (const char  *name,
                          char       **prefix,
                          guint       *no,
                          guint       *count)
{
  gsize len;
  const char *tail;
  guint64 a, b;

  g_return_val_if_fail (name != NULL, FALSE);

  /* "-00001-of-00005.gguf" is 20 characters */
  len = strlen (name);
  if (len < 21 || !g_str_has_suffix (name, ".gguf"))
    return FALSE;
  tail = name + len - 20;
  if (tail[0] != '-' || strncmp (tail + 6, "-of-", 4) != 0)
    return FALSE;
  for (int i = 1; i <= 5; i++)
    if (!g_ascii_isdigit (tail[i]) || !g_ascii_isdigit (tail[9 + i]))
      return FALSE;
  a = g_ascii_strtoull (tail + 1, NULL, 10);
  b = g_ascii_strtoull (tail + 10, NULL, 10);
  if (a == 0 || b == 0 || a > b)
    return FALSE;
  if (prefix != NULL)
    *prefix = g_strndup (name, (gsize) (tail - name));
  if (no != NULL)
    *no = (guint) a;
  if (count != NULL)
    *count = (guint) b;
  return TRUE;
}

char *
hr_gguf_split_name (const char *prefix,
                    guint       no,
                    guint       count)
{
  g_return_val_if_fail (prefix != NULL, NULL);
  return g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, no, count);
}

gint64
hr_gguf_get_split_count (const HrGguf *gguf)
{
  gint64 count = 1;

  if (!hr_gguf_get_int (gguf, "split.count", &count) || count < 1)
    return 1;
  return count;
}

void
hr_gguf_set_file_size (HrGguf  *gguf,
                       guint64  size)
{
  guint64 end;

  g_return_if_fail (gguf != NULL);
  gguf->file_size = size;
  gguf->complete = add_u64 (gguf->data_offset, gguf->data_size, &end) && end <= size;
}

HrGguf *
hr_gguf_merge_split (HrGguf  **parts,
                     guint     n_parts,
                     GError  **error)
{
  g_autoptr(HrGguf) first = NULL;
  gint64 tensors_count = -1;
  gboolean ok = TRUE;
  guint i;

  g_return_val_if_fail (parts != NULL && n_parts > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (i = 0; i < n_parts && ok; i++)
    {
      g_autoptr(HrGguf) part = g_steal_pointer (&parts[i]);
      gint64 part_no = -1, part_count = -1;

      if (part == NULL ||
          !hr_gguf_get_int (part, "split.no", &part_no) || part_no != (gint64) i ||
          !hr_gguf_get_int (part, "split.count", &part_count) || part_count != (gint64) n_parts)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                       "part %u of %u has wrong split.no / split.count keys", i + 1, n_parts);
          ok = FALSE;
          break;
        }
      if (first == NULL)
        {
          first = g_steal_pointer (&part);
          continue;
        }

      /* Move this part's tensors into the first part. */
      for (guint t = 0; t < part->tensors->len; t++)
        {
          HrGgufTensor tensor = g_array_index (part->tensors, HrGgufTensor, t);

          if (g_hash_table_contains (first->tensor_index, tensor.name))
            {
              g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                           "tensor “%s” appears in more than one part", tensor.name);
              ok = FALSE;
              break;
            }
          if (first->tensors->len >= HR_GGUF_MAX_TENSORS)
            {
              g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                           "the parts hold more than %d tensors", HR_GGUF_MAX_TENSORS);
              ok = FALSE;
              break;
            }
          tensor.split = i;
          g_array_append_val (first->tensors, tensor);
          g_array_index (part->tensors, HrGgufTensor, t).name = NULL;
          g_hash_table_insert (first->tensor_index,
                               g_array_index (first->tensors, HrGgufTensor,
                                              first->tensors->len - 1).name,
                               GUINT_TO_POINTER (first->tensors->len));
        }
      first->file_size += part->file_size;
      first->complete = first->complete && part->complete;
    }
  /* The parts not reached are still ours to free. */
  for (; i < n_parts; i++)
    g_clear_pointer (&parts[i], hr_gguf_free);
  if (!ok)
    return NULL;

  first->n_splits = n_parts;
  if (!hr_gguf_compute_totals (first, error))
    return NULL;
  if (hr_gguf_get_int (first, "split.tensors.count", &tensors_count) &&
      tensors_count != (gint64) first->tensors->len)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "the parts hold %u tensors, split.tensors.count says %" G_GINT64_FORMAT,
                   first->tensors->len, tensors_count);
      return NULL;
    }
  return g_steal_pointer (&first);
}

/* Every part of the set is a file there, before any is read: a missing one is named at once,
 * not after reading the others' headers. */
static gboolean
check_parts_present (const char  *prefix,
                     guint        count,
                     GError     **error)
{
  for (guint i = 1; i <= count; i++)
    {
      g_autofree char *part_path = hr_gguf_split_name (prefix, i, count);

      if (!g_file_test (part_path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *base = g_path_get_basename (part_path);

          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                       "part %u of %u is missing (%s)", i, count, base);
          return FALSE;
        }
    }
  return TRUE;
}

/* Part @no (1-based) of @count, just read: it says so, and the tensors so far (@tensors, its
 * own added) stay within what one file may hold.  Checked before the next part is read. */
static gboolean
check_part (const HrGguf  *part,
            const char    *path,
            guint          no,
            guint          count,
            guint64       *tensors,
            GError       **error)
{
  gint64 part_no = -1, part_count = -1;

  hr_gguf_get_int (part, "split.no", &part_no);
  hr_gguf_get_int (part, "split.count", &part_count);
  if (part_no != (gint64) no - 1 || part_count != (gint64) count)
    {
      g_autofree char *base = g_path_get_basename (path);

      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "%s is part %u of %u but says it is part %" G_GINT64_FORMAT " of %"
                   G_GINT64_FORMAT, base, no, count, part_no + 1, part_count);
      return FALSE;
    }
  *tensors += part->tensors->len;
  if (*tensors > HR_GGUF_MAX_TENSORS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the parts hold more than %d tensors", HR_GGUF_MAX_TENSORS);
      return FALSE;
    }
  return TRUE;
}

HrGguf *
hr_gguf_load_split (const char  *path,
                    GError     **error)
{
  g_autoptr(HrGguf) given = NULL;
  g_autofree char *prefix = NULL;
  g_autofree HrGguf **parts = NULL;
  guint no = 0, count = 0;
  guint64 tensors = 0;
  gint64 split_count;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  given = hr_gguf_load_file (path, error);
  if (given == NULL)
    return NULL;
  split_count = hr_gguf_get_split_count (given);
  if (split_count <= 1)
    return g_steal_pointer (&given);

  if (split_count > HR_GGUF_MAX_SPLITS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "split.count is %" G_GINT64_FORMAT " (at most %d parts)",
                   split_count, HR_GGUF_MAX_SPLITS);
      return NULL;
    }
  if (!hr_gguf_split_name_parse (path, &prefix, &no, &count) || (gint64) count != split_count)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                   "this file is part of a %" G_GINT64_FORMAT "-part model, but its name does not "
                   "end in -NNNNN-of-%05" G_GINT64_FORMAT ".gguf", split_count, split_count);
      return NULL;
    }
  if (!check_part (given, path, no, count, &tensors, error) ||
      !check_parts_present (prefix, count, error))
    return NULL;
  /* Only the first part's metadata is used: the others, this one too, keep no values. */
  if (no != 1)
    hr_gguf_drop_values (given);

  parts = g_new0 (HrGguf *, count);
  for (guint i = 1; i <= count; i++)
    {
      g_autofree char *part_path = hr_gguf_split_name (prefix, i, count);
      g_autoptr(GError) local_error = NULL;

      if (i == no)
        {
          parts[i - 1] = g_steal_pointer (&given);
          continue;
        }
      parts[i - 1] = hr_gguf_load_file_flags (part_path, i == 1 ? HR_GGUF_PARSE_DEFAULT
                                                                : HR_GGUF_PARSE_LATER_PART,
                                              &local_error);
      if (parts[i - 1] == NULL)
        {
          g_autofree char *base = g_path_get_basename (part_path);

          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_SPLIT,
                         "part %u of %u is missing (%s)", i, count, base);
          else
            g_propagate_error (error, g_steal_pointer (&local_error));
        }
      else if (!check_part (parts[i - 1], part_path, i, count, &tensors, error))
        g_clear_pointer (&parts[i - 1], hr_gguf_free);
      if (parts[i - 1] == NULL)
        {
          for (guint j = 0; j < count; j++)
            g_clear_pointer (&parts[j], hr_gguf_free);
          return NULL;
        }
    }
  return hr_gguf_merge_split (parts, count, error);
}
