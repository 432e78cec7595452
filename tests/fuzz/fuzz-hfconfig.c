/* fuzz-hfconfig.c — libFuzzer entry point for the config.json importer */
#include <stddef.h>
#include <stdint.h>

#include "hr-hfconfig.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModel) model = NULL;

  if (size > HR_HFCONFIG_MAX_SIZE + 1)
    return 0;
  model = hr_hfconfig_parse ((const char *) data, (gssize) size, "fuzz/model", &error);
  g_assert ((model == NULL) == (error != NULL));
  if (model != NULL)
    {
      g_autoptr(HrModel) copy = hr_model_copy (model);

      g_assert (hr_model_validate (model, NULL));
      g_assert (model->total_params > 0 && model->total_params < 1e15);
      (void) hr_model_kv_bytes (copy, 131072, 2);
      (void) hr_model_kv_bytes_per_token (copy, 1);
      (void) hr_model_state_bytes (copy);
    }
  return 0;
}
