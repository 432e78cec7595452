/* fuzz-gguf.c — libFuzzer entry point for the GGUF header reader
 *
 * Parses the input as a whole file and as a prefix, then walks everything a caller could ask
 * of the result: accessors, metadata values, the HrModel mapping and its KV sizes.
 */
#include <stddef.h>
#include <stdint.h>

#include "hr-gguf.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) prefix_error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrGguf) prefix = NULL;
  g_autoptr(HrModel) model = NULL;
  gboolean need_more = FALSE;
  gsize needed = 0;

  gguf = hr_gguf_parse (data, size, NULL, NULL, &error);
  g_assert ((gguf == NULL) == (error != NULL));

  prefix = hr_gguf_parse (data, size, &need_more, &needed, &prefix_error);
  if (need_more)
    g_assert (prefix == NULL && prefix_error == NULL && needed > size);
  else
    g_assert ((prefix == NULL) == (prefix_error != NULL));

  if (gguf == NULL)
    return 0;

  (void) hr_gguf_get_n_params (gguf);
  g_assert (hr_gguf_get_tensor_bytes (gguf) >= hr_gguf_get_expert_bytes (gguf));
  (void) hr_gguf_get_data_size (gguf);
  for (guint i = 0; i < hr_gguf_get_n_tensors (gguf); i++)
    {
      const HrGgufTensor *t = hr_gguf_get_tensor (gguf, i);
      g_assert (hr_gguf_find_tensor (gguf, t->name) == t);
    }
  for (guint i = 0; i < hr_gguf_get_n_kv (gguf); i++)
    {
      const char *key = hr_gguf_get_key (gguf, i);
      g_autofree char *shown = hr_gguf_value_to_string (gguf, key);
      gint64 v;
      double d;

      g_assert (shown != NULL && g_utf8_validate (shown, -1, NULL));
      (void) hr_gguf_get_int (gguf, key, &v);
      (void) hr_gguf_get_double (gguf, key, &d);
      (void) hr_gguf_get_array_int (gguf, key, 0, &v);
    }
  (void) hr_gguf_file_type_to_string (hr_gguf_get_file_type (gguf));

  model = hr_gguf_to_model (gguf, &error);
  g_assert ((model == NULL) == (error != NULL));
  if (model != NULL)
    {
      g_assert (hr_model_validate (model, NULL));
      (void) hr_model_kv_bytes (model, 131072, 2);
      (void) hr_model_kv_bytes_per_token (model, 1);
      (void) hr_model_state_bytes (model);
    }
  return 0;
}
