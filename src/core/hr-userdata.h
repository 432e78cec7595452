/* hr-userdata.h — the user's own models and GPUs, saved between runs
 *
 * They live in g_get_user_data_dir()/headroom/ as models.json and gpus.json, in the format of
 * the bundled catalogs (data/CATALOG-FORMAT.md), so hr_catalog_load_models()/_gpus() read them.
 *
 * In memory a user entry's id is "user:" followed by the slug stored in the file: catalog ids
 * are slugs without a colon, so the two can never collide, and the prefix says where an entry
 * comes from.  A models.json entry also carries a few members of its own that the catalog
 * parser ignores: "origin" (config / gguf), exact "total_params"/"active_params" counts and,
 * for a model read from a GGUF header, "gguf" {quant, bytes, expert_bytes, file_type}.
 *
 * The files on disk are the truth: every call reads them again, so two windows (or the app and
 * the CLI) do not undo each other's saves.  Writes are atomic (a temporary file in the same
 * directory, then a rename).  A file that cannot be parsed is renamed to
 * "models.json.corrupt-YYYYmmdd-HHMMSS" and reported as HR_USERDATA_ERROR_CORRUPT with a
 * message that names the copy; it is never overwritten, and the next save starts a new file.
 * A file whose list holds entries the parser does not read (one written by a newer Headroom,
 * with a backend this one does not know) keeps the others: the unreadable entries are written
 * to "gpus.json.rejected-YYYYmmdd-HHMMSS" and the file keeps only the good ones (both written
 * atomically, under the lock); the load reports HR_USERDATA_ERROR_SET_ASIDE naming them.
 * A file from a newer Headroom ("schema" above 1) is not damage: it stays, untouched, and
 * loads and saves report HR_USERDATA_ERROR_NEWER.  A symlinked file is written through to its
 * target.  Saves and removals hold an flock() on dir/.lock, so concurrent ones lose nothing.
 */
#pragma once

#include <glib.h>

#include "hr-catalog.h"
#include "hr-gpu.h"
#include "hr-model.h"
#include "hr-json-writer.h"

G_BEGIN_DECLS

#define HR_USERDATA_ERROR (hr_userdata_error_quark ())
typedef enum
{
  HR_USERDATA_ERROR_CORRUPT,    /* a saved file was damaged; it has been moved aside */
  HR_USERDATA_ERROR_INVALID,    /* the entry cannot be saved as it is (the message says why) */
  HR_USERDATA_ERROR_NOT_FOUND,  /* no saved entry with that id */
  HR_USERDATA_ERROR_IO,         /* the directory or a file cannot be read or written */
  HR_USERDATA_ERROR_NEWER,      /* a file from a newer Headroom: kept as it is, read-only */
  HR_USERDATA_ERROR_SET_ASIDE,  /* entries that could not be read were set aside; the others loaded */
} HrUserDataError;

typedef struct _HrUserData HrUserData;

GQuark          hr_userdata_error_quark     (void);

/* @dir: the directory to keep the files in; NULL for g_get_user_data_dir()/headroom.
 * Nothing is read or created until it is needed. */
HrUserData     *hr_userdata_new             (const char      *dir);
void            hr_userdata_free            (HrUserData      *userdata);
/* A reader that only reads (headroom-cli): no file is ever written, moved aside, locked or
 * created.  A damaged file is reported as HR_USERDATA_ERROR_CORRUPT naming it, left as it is,
 * and none of its entries load (entries a parser refuses are not set aside either: the whole
 * file counts as damaged).  Saves, removals and renames fail with HR_USERDATA_ERROR_IO. */
void            hr_userdata_set_read_only   (HrUserData      *userdata,
                                             gboolean         read_only);
const char     *hr_userdata_get_dir         (const HrUserData *userdata);
/* dir/models.json and dir/gpus.json */
const char     *hr_userdata_get_models_path (const HrUserData *userdata);
const char     *hr_userdata_get_gpus_path   (const HrUserData *userdata);

/* Adds every saved model and GPU to @into (replacing entries with the same id).  Models keep
 * their origin; GPUs get user_defined.  Missing files are not an error.  When a file is
 * damaged it is moved aside and FALSE is returned with HR_USERDATA_ERROR_CORRUPT, but the
 * entries of the other file are still added.  A file that cannot be read (permissions) gives
 * HR_USERDATA_ERROR_IO and stays where it is.  Entries set aside (above): FALSE with
 * HR_USERDATA_ERROR_SET_ASIDE, every other entry added. */
gboolean        hr_userdata_load            (HrUserData      *userdata,
                                             HrCatalog       *into,
                                             GError         **error);

/* The saved entries (HrModel / HrGpu, with "user:" ids), in file order. */
GPtrArray      *hr_userdata_list_models     (HrUserData      *userdata,
                                             GError         **error);
GPtrArray      *hr_userdata_list_gpus       (HrUserData      *userdata,
                                             GError         **error);

/* The id an entry is saved under: "user:" + its id (without a "user:" prefix it may already
 * have), or a slug of its name when the id is not a slug.  Saving again under the same id
 * replaces the saved entry. */
char           *hr_userdata_model_id        (const HrModel   *model);
char           *hr_userdata_gpu_id          (const HrGpu     *gpu);
/* TRUE for ids of the form "user:…". */
gboolean        hr_userdata_is_user_id      (const char      *id);

/* Saves (adds or replaces) the entry and returns, in @saved when not NULL, a copy as it will
 * be loaded next time (user id, user_defined).  Refuses an entry the catalog parser would not
 * read back (HR_USERDATA_ERROR_INVALID, naming the field).  Finding the file damaged moves it
 * aside, saves nothing and returns HR_USERDATA_ERROR_CORRUPT: the next save starts anew. */
gboolean        hr_userdata_save_model      (HrUserData      *userdata,
                                             const HrModel   *model,
                                             HrModel        **saved,
                                             GError         **error);
gboolean        hr_userdata_save_gpu        (HrUserData      *userdata,
                                             const HrGpu     *gpu,
                                             HrGpu          **saved,
                                             GError         **error);
/* @id with or without the "user:" prefix.  HR_USERDATA_ERROR_NOT_FOUND when not saved. */
gboolean        hr_userdata_remove_model    (HrUserData      *userdata,
                                             const char      *id,
                                             GError         **error);
gboolean        hr_userdata_remove_gpu      (HrUserData      *userdata,
                                             const char      *id,
                                             GError         **error);

/* Gives the saved model @id (with or without the "user:" prefix) the name @name (surrounding
 * spaces dropped), keeping its id, in one locked read-and-write of the file (written
 * atomically).  An empty or unprintable name is HR_USERDATA_ERROR_INVALID, an id not saved
 * HR_USERDATA_ERROR_NOT_FOUND.  *@saved, when not NULL: the entry as it will be loaded. */
gboolean        hr_userdata_rename_model    (HrUserData      *userdata,
                                             const char      *id,
                                             const char      *name,
                                             HrModel        **saved,
                                             GError         **error);

/* One catalog entry (models.json / gpus.json format) with locale-independent numbers.  The id
 * is written without a "user:" prefix.  _write_json writes it as a value into @w. */
void            hr_model_write_json         (HrJsonWriter    *w,
                                             const HrModel   *model);
void            hr_gpu_write_json           (HrJsonWriter    *w,
                                             const HrGpu     *gpu);
char           *hr_model_to_json            (const HrModel   *model);
char           *hr_gpu_to_json              (const HrGpu     *gpu);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrUserData, hr_userdata_free)

G_END_DECLS
