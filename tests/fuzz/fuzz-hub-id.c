/* fuzz-hub-id.c — libFuzzer entry point for hr_hub_repo_id_from_text (a pasted hub address)
 *
 * Any bytes: the result is NULL only for text over HR_HUB_ID_MAX_TEXT, never longer than the
 * input, and a hub address ("huggingface.co/…") yields at most one "/" between two parts. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-hub-id.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *id = hr_hub_repo_id_from_text (text);

  if (strlen (text) > HR_HUB_ID_MAX_TEXT)
    {
      g_assert (id == NULL);
      return 0;
    }
  g_assert (id != NULL);
  g_assert (strlen (id) <= strlen (text));
  return 0;
}
