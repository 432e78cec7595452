/* hr-cli-hub.c — `headroom-cli hub search TEXT [--gguf] [--limit N] [--json]`,
 *                `headroom-cli hub files REPO[@REV] [--json]`, and --hf for the scenario commands
 *
 * The Hub is asked through hr-hub-api.c (HF_ENDPOINT, HF_TOKEN, $HF_HOME/token as
 * huggingface_hub; answers cached a day under $XDG_CACHE_HOME/headroom/hub, --refresh asks
 * again).
 */
#include "hr-cli-hub.h"

#include <stdio.h>
#include <string.h>

#include "hr-cli-common.h"
#include "hr-hub-api.h"
#include "hr-hub-size.h"
#include "hr-json-writer.h"
#include "hr-units.h"

#define WHO "headroom-cli hub"

static HrHub *
open_hub (gboolean   refresh,
          GError   **error)
{
  g_autofree char *cache = hr_hub_default_cache_dir ();
  HrHub *hub = hr_hub_new (NULL, NULL, error);

  if (hub != NULL)
    hr_hub_set_cache (hub, cache, refresh);
  return hub;
}

static char *
gib (double bytes)
{
  char buf[HR_CLI_NUM_SIZE];

  /* a file of a few MiB is not "0.00 GiB" */
  if (bytes > 0 && bytes < 0.005 * 1024 * 1024 * 1024)
    return g_strdup_printf ("%s MiB", hr_cli_number (buf, bytes / (1024.0 * 1024), 2, 0));
  return g_strdup_printf ("%s GiB", hr_cli_number (buf, bytes / (1024.0 * 1024 * 1024), 2, 0));
}

/* ------------------------------------------------------------------------------------------ */
/* hub search                                                                                   */

static char *
search_json (GPtrArray *hits)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_array (&w);
  for (guint i = 0; i < hits->len; i++)
    {
      const HrHubModelHit *h = g_ptr_array_index (hits, i);

      hr_json_begin_object_inline (&w);
      hr_json_member_string (&w, "id", h->id);
      hr_json_key (&w, "downloads");
      h->downloads >= 0 ? hr_json_int (&w, h->downloads) : hr_json_null (&w);
      hr_json_key (&w, "likes");
      h->likes >= 0 ? hr_json_int (&w, h->likes) : hr_json_null (&w);
      hr_json_member_string (&w, "last_modified", h->last_modified);
      hr_json_member_bool (&w, "gguf", h->gguf);
      hr_json_member_bool (&w, "safetensors", h->safetensors);
      hr_json_member_bool (&w, "gated", h->gated);
      hr_json_member_string (&w, "library", h->library);
      hr_json_member_string (&w, "pipeline", h->pipeline);
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  g_string_append_c (out, '\n');
  return g_strdup (out->str);
}

static char *
search_text (GPtrArray *hits)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char buf[HR_CLI_NUM_SIZE];

  if (hits->len == 0)
    return g_strdup ("No models found.\n");
  hr_cli_append_padded (out, "Repository", -48);
  g_string_append (out, " Format        Downloads  Updated\n");
  for (guint i = 0; i < hits->len; i++)
    {
      const HrHubModelHit *h = g_ptr_array_index (hits, i);
      const char *format = h->gguf && h->safetensors ? "GGUF+st" : h->gguf ? "GGUF"
                           : h->safetensors ? "safetensors" : "—";
      g_autofree char *day = h->last_modified != NULL ? g_strndup (h->last_modified, 10) : NULL;

      hr_cli_append_padded (out, h->id, -48);
      g_string_append_c (out, ' ');
      hr_cli_append_padded (out, format, -12);
      g_string_append_c (out, ' ');
      g_string_append (out, h->downloads >= 0 ? hr_cli_number (buf, (double) h->downloads, 0, 10)
                                              : "         ?");
      g_string_append_printf (out, "  %s%s\n", day != NULL ? day : "?", h->gated ? "  gated" : "");
    }
  return g_strdup (out->str);
}

static int
hub_search (int    argc,
            char **argv)
{
  gboolean json = FALSE, gguf = FALSE, refresh = FALSE;
  int limit = 20;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHub) hub = NULL;
  g_autoptr(GPtrArray) hits = NULL;
  g_autofree char *text = NULL;
  GOptionEntry entries[] = {
    { "gguf", 0, 0, G_OPTION_ARG_NONE, &gguf, "Only repositories with GGUF files", NULL },
    { "limit", 0, 0, G_OPTION_ARG_INT, &limit, "At most N results (20)", "N" },
    { "refresh", 0, 0, G_OPTION_ARG_NONE, &refresh, "Ask the Hub again even when cached", NULL },
    { NULL }
  };

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "search TEXT",
                                               .summary = "Models on the Hugging Face Hub whose "
                                                          "name holds TEXT, most downloaded first.",
                                               .entries = entries, .json = &json,
                                               .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (argc != 3)
    return hr_cli_usage_error (WHO " search", "give one search text (headroom-cli hub search qwen3)");
  if (limit < 1 || limit > HR_HUB_MAX_RESULTS)
    return hr_cli_usage_error (WHO " search", "--limit must be between 1 and %d", HR_HUB_MAX_RESULTS);
  text = g_strstrip (g_strdup (argv[2]));
  if (*text == '\0' || strlen (text) > 200)
    return hr_cli_usage_error (WHO " search", "give a search text of 1 to 200 characters");
  if ((hub = open_hub (refresh, &error)) == NULL ||
      (hits = hr_hub_search (hub, text, gguf, (guint) limit, NULL, &error)) == NULL)
    {
      hr_cli_print_error (WHO, error->message);
      return 1;
    }
  {
    g_autofree char *s = json ? search_json (hits) : search_text (hits);

    fputs (s, stdout);
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* hub files                                                                                    */

static gboolean
matters (const HrHubFile *f)
{
  return f->role != HR_HUB_ROLE_OTHER;
}

static char *
files_json (const char *repo,
            const char *revision,
            HrHubTree  *tree,
            GPtrArray  *models)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HrJsonWriter w;

  hr_json_init (&w, out, TRUE);
  hr_json_begin_object (&w);
  hr_json_member_string (&w, "repo", repo);
  hr_json_member_string (&w, "revision", revision);
  hr_json_key (&w, "files");
  hr_json_begin_array (&w);
  for (guint i = 0; i < tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (tree->files, i);

      if (!matters (f))
        continue;
      hr_json_begin_object_inline (&w);
      hr_json_member_string (&w, "path", f->path);
      hr_json_member_int (&w, "bytes", (gint64) f->size);
      hr_json_member_string (&w, "role", hr_hub_role_to_string (f->role));
      if (f->role == HR_HUB_ROLE_GGUF)
        hr_json_member_string (&w, "quant", f->quant);
      if (f->split_of > 0)
        {
          hr_json_member_int (&w, "part", f->split_no);
          hr_json_member_int (&w, "parts", f->split_of);
        }
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  hr_json_key (&w, "gguf_models");
  hr_json_begin_array (&w);
  for (guint i = 0; i < models->len; i++)
    {
      const HrHubGgufModel *m = g_ptr_array_index (models, i);

      hr_json_begin_object_inline (&w);
      hr_json_member_string (&w, "quant", m->quant);
      hr_json_member_string (&w, "path", m->path);
      hr_json_member_int (&w, "bytes", (gint64) m->bytes);
      hr_json_member_int (&w, "parts", m->n_parts);
      hr_json_member_bool (&w, "complete", m->complete);
      hr_json_end_object (&w);
    }
  hr_json_end_array (&w);
  hr_json_end_object (&w);
  g_string_append_c (out, '\n');
  return g_strdup (out->str);
}

static char *
files_text (const char *repo,
            const char *revision,
            HrHubTree  *tree,
            GPtrArray  *models)
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint n = 0;

  g_string_append_printf (out, "%s (revision %s)\n\n", repo, revision);
  hr_cli_append_padded (out, "File", -56);
  g_string_append (out, " Role           Quant            Bytes\n");
  for (guint i = 0; i < tree->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (tree->files, i);
      char buf[HR_CLI_NUM_SIZE];

      if (!matters (f))
        continue;
      n++;
      hr_cli_append_padded (out, f->path, -56);
      g_string_append_c (out, ' ');
      hr_cli_append_padded (out, hr_hub_role_to_string (f->role), -14);
      g_string_append_c (out, ' ');
      hr_cli_append_padded (out, f->quant != NULL ? f->quant : "", -10);
      g_string_append_printf (out, " %s\n", hr_cli_number (buf, (double) f->size, 0, 15));
    }
  if (n == 0)
    g_string_append (out, "(no weights, configuration or tokenizer files)\n");
  if (models->len > 0)
    {
      g_string_append (out, "\nGGUF models (split parts summed):\n");
      for (guint i = 0; i < models->len; i++)
        {
          const HrHubGgufModel *m = g_ptr_array_index (models, i);
          g_autofree char *size = gib ((double) m->bytes);

          g_string_append_printf (out, "  %-12s %12s  %s", m->quant != NULL ? m->quant : "?",
                                  size, m->path);
          if (m->n_parts > 1 || !m->complete)
            g_string_append_printf (out, "  (%u parts%s)", m->n_parts,
                                    m->complete ? "" : ", some missing");
          g_string_append_c (out, '\n');
        }
    }
  return g_strdup (out->str);
}

static int
hub_files (int    argc,
           char **argv)
{
  gboolean json = FALSE, refresh = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHub) hub = NULL;
  g_autoptr(HrHubTree) tree = NULL;
  g_autoptr(GPtrArray) models = NULL;
  g_autofree char *repo = NULL, *revision = NULL, *selector = NULL;
  g_autofree char *s = NULL;
  GOptionEntry entries[] = {
    { "refresh", 0, 0, G_OPTION_ARG_NONE, &refresh, "Ask the Hub again even when cached", NULL },
    { NULL }
  };

  if (!hr_cli_parse_options (&argc, &argv,
                             &(HrCliOptions) { .parameter = "files REPO[@REVISION]",
                                               .summary = "The files of a Hugging Face Hub "
                                                          "repository that matter for sizing, "
                                                          "with their bytes and role.",
                                               .entries = entries, .json = &json,
                                               .positional = TRUE },
                             &error))
    return hr_cli_fail (error);
  if (argc != 3)
    return hr_cli_usage_error (WHO " files", "give one repository (headroom-cli hub files ORG/NAME)");
  if (!hr_hub_ref_parse (argv[2], &repo, &revision, &selector, &error) ||
      !hr_hub_check_repo_id (repo, &error))
    return hr_cli_usage_error (WHO " files", "%s", error->message);
  if (selector != NULL)
    return hr_cli_usage_error (WHO " files", "give the repository without “:%s”", selector);
  if ((hub = open_hub (refresh, &error)) == NULL ||
      (tree = hr_hub_list_files (hub, repo, revision, NULL, &error)) == NULL)
    {
      hr_cli_print_error (WHO, error->message);
      return 1;
    }
  models = hr_hub_tree_gguf_models (tree);
  s = json ? files_json (repo, revision, tree, models) : files_text (repo, revision, tree, models);
  fputs (s, stdout);
  return 0;
}

int
hr_cli_hub (int    argc,
            char **argv)
{
  const char *sub = argc >= 2 ? argv[1] : NULL;

  if (sub == NULL || g_str_equal (sub, "--help") || g_str_equal (sub, "-h"))
    {
      fputs ("Usage: headroom-cli hub search TEXT [--gguf] [--limit N] [--refresh] [--json]\n"
             "       headroom-cli hub files REPO[@REVISION] [--refresh] [--json]\n"
             "\nThe Hugging Face Hub: HF_ENDPOINT, HF_TOKEN and $HF_HOME/token are honoured as "
             "huggingface_hub does.\n", sub == NULL ? stderr : stdout);
      return sub == NULL ? 2 : 0;
    }
  if (g_str_equal (sub, "search"))
    return hub_search (argc, argv);
  if (g_str_equal (sub, "files"))
    return hub_files (argc, argv);
  return hr_cli_usage_error (WHO, "unknown subcommand “%s” (search, files)", sub);
}

/* ------------------------------------------------------------------------------------------ */
/* --hf                                                                                         */

HrModel *
hr_cli_hub_model (const char  *ref,
                  gboolean     refresh,
                  char       **quant,
                  char       **note,
                  HrCliHubProjector projector,
                  char       **mmproj_path,
                  guint64     *mmproj_bytes,
                  HrVisionEncoder *mmproj_encoder,
                  GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(HrHub) hub = NULL;
  g_autoptr(HrHubSized) sized = NULL;
  g_autofree char *repo = NULL, *rev = NULL, *sel = NULL;
  g_autofree char *projector_failed = NULL;
  HrModel *model;

  if (!hr_hub_ref_parse (ref, &repo, &rev, &sel, &local) ||
      !hr_hub_check_repo_id (repo, &local))
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_USAGE, "--hf: %s", local->message);
      return NULL;
    }
  if ((hub = open_hub (refresh, &local)) == NULL ||
      (sized = hr_hub_size_repo (hub, ref, NULL, &local)) == NULL)
    {
      g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "--hf %s: %s", ref, local->message);
      return NULL;
    }
  /* --mmproj auto: the repo's projector, from its header (#31); without --mmproj (the default
   * auto) a projector that cannot be read is left out, said in the note, not an error */
  if (projector != HR_CLI_HUB_PROJECTOR_NO
      && !hr_hub_size_projector (hub, sized, NULL, mmproj_path, mmproj_bytes, mmproj_encoder, &local))
    {
      if (projector == HR_CLI_HUB_PROJECTOR_REQUIRED)
        {
          g_set_error (error, HR_CLI_ERROR, HR_CLI_ERROR_FAILED, "--hf %s: projector: %s", ref,
                       local->message);
          return NULL;
        }
      projector_failed = g_strdup (local->message);
      g_clear_pointer (mmproj_path, g_free);
      *mmproj_bytes = 0;
      g_clear_error (&local);
    }
  *quant = g_strdup (sized->quant);
  {
    g_autofree char *size = gib ((double) sized->weight_bytes);

    if (sized->kind == HR_HUB_KIND_GGUF)
      *note = g_strdup_printf ("%s: %s, %" G_GUINT64_FORMAT " bytes of tensors (%s) read from "
                               "the GGUF header of %s", ref, sized->quant, sized->weight_bytes,
                               size, sized->gguf_path);
    else
      *note = g_strdup_printf ("%s: %s, %" G_GUINT64_FORMAT " bytes of tensors (%s) in %u "
                               "safetensors file%s", ref, sized->quant, sized->weight_bytes,
                               size, g_strv_length (sized->shards),
                               g_strv_length (sized->shards) == 1 ? "" : "s");
  }
  if (projector_failed != NULL)
    {
      char *with = g_strdup_printf ("%s; its vision projector was not read (%s), so it is not counted: "
                                    "--mmproj auto makes that an error", *note, projector_failed);

      g_free (*note);
      *note = with;
    }
  model = g_steal_pointer (&sized->model);
  return model;
}
