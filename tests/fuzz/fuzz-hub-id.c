/* fuzz-hub-id.c — libFuzzer entry point for hr_hub_repo_id_from_text (a pasted hub address)
 * and hr_hub_model_ref (a saved model's source, read back to size it again)
 *
 * Any bytes: the result is NULL only for text over HR_HUB_ID_MAX_TEXT, never longer than the
 * input, and a hub address ("huggingface.co/…") yields at most one "/" between two parts.  A
 * source gives a reference only after the Hub's prefix, with no selector of its own, and that
 * reference parses or is refused like any other. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-hub-id.h"
#include "hr-hub-repo.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *id = hr_hub_repo_id_from_text (text);
  HrModel model = { 0 };
  g_autofree char *ref = NULL;

  model.source = text;
  model.origin = size % 2 ? HR_MODEL_ORIGIN_GGUF : HR_MODEL_ORIGIN_CONFIG;
  model.gguf_quant = (char *) "Q4_K_M";
  ref = hr_hub_model_ref (&model);
  if (ref != NULL)
    {
      g_autofree char *repo = NULL;
      g_autofree char *revision = NULL;
      g_autofree char *selector = NULL;
      g_autoptr(GError) error = NULL;

      g_assert (g_str_has_prefix (text, HR_HUB_SOURCE_PREFIX));
      g_assert (strchr (text + strlen (HR_HUB_SOURCE_PREFIX), ':') == NULL);
      if (hr_hub_ref_parse (ref, &repo, &revision, &selector, &error))
        g_assert (repo != NULL && revision != NULL);
      else
        g_assert (error != NULL);
    }

  if (strlen (text) > HR_HUB_ID_MAX_TEXT)
    {
      g_assert (id == NULL);
      return 0;
    }
  g_assert (id != NULL);
  g_assert (strlen (id) <= strlen (text));
  return 0;
}
