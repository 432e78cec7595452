/* hr-gguf.h — read a GGUF file's header: metadata, tensor infos and exact tensor bytes
 *
 * Only the header is read, never the weights.  hr_gguf_parse() works on a prefix of the file so
 * a remote reader (HTTP Range) can fetch more bytes when it asks for them.  Everything in the
 * header is untrusted: counts, lengths, types, dimensions and offsets are all checked, and every
 * failure is a GError, never a crash.
 */
#pragma once

#include <glib.h>
#include "hr-model.h"

G_BEGIN_DECLS

#define HR_GGUF_ERROR (hr_gguf_error_quark ())
typedef enum
{
  HR_GGUF_ERROR_IO,           /* the file cannot be opened or read */
  HR_GGUF_ERROR_NOT_GGUF,     /* wrong magic */
  HR_GGUF_ERROR_VERSION,      /* GGUF v1, big-endian, or a version newer than 3 */
  HR_GGUF_ERROR_TRUNCATED,    /* the data ends inside the header */
  HR_GGUF_ERROR_INVALID,      /* malformed header */
  HR_GGUF_ERROR_LIMIT,        /* a hard limit is exceeded (tensors, keys, header size) */
  HR_GGUF_ERROR_UNSUPPORTED,  /* an unknown ggml tensor type */
  HR_GGUF_ERROR_SPLIT,        /* a split model's parts do not fit together */
  HR_GGUF_ERROR_MODEL,        /* the metadata lacks what the sizing model needs */
  HR_GGUF_ERROR_TIMEOUT,      /* hr_gguf_parse_until(): the deadline passed */
} HrGgufError;

/* Hard limits on what a header may declare. */
#define HR_GGUF_MAX_TENSORS     1000000
#define HR_GGUF_MAX_KV          100000
/* The largest real headers (256K-token vocabularies with merges) take about 10 MiB; the buffer
 * holding a header is its size at most, so this also bounds what a header can make us allocate
 * (a remote header has the same bound, HR_GGUF_REMOTE_MAX_BYTES). */
#define HR_GGUF_MAX_HEADER      ((gsize) 64 << 20)   /* 64 MiB */
#define HR_GGUF_MAX_SPLITS      4096
#define HR_GGUF_MAX_DIMS        4

/* GGUF metadata value types (gguf_type). */
typedef enum
{
  HR_GGUF_TYPE_UINT8   = 0,
  HR_GGUF_TYPE_INT8    = 1,
  HR_GGUF_TYPE_UINT16  = 2,
  HR_GGUF_TYPE_INT16   = 3,
  HR_GGUF_TYPE_UINT32  = 4,
  HR_GGUF_TYPE_INT32   = 5,
  HR_GGUF_TYPE_FLOAT32 = 6,
  HR_GGUF_TYPE_BOOL    = 7,
  HR_GGUF_TYPE_STRING  = 8,
  HR_GGUF_TYPE_ARRAY   = 9,
  HR_GGUF_TYPE_UINT64  = 10,
  HR_GGUF_TYPE_INT64   = 11,
  HR_GGUF_TYPE_FLOAT64 = 12,
  HR_GGUF_N_TYPES
} HrGgufType;

typedef struct
{
  char *name;
  int n_dims;
  guint64 dims[HR_GGUF_MAX_DIMS];  /* unused dimensions are 1 */
  int type;                        /* ggml_type id */
  const char *type_name;           /* "Q4_K" (static) */
  guint64 offset;                  /* from the start of its file's tensor data */
  guint64 n_elements;
  guint64 bytes;                   /* exact, from the type's block size */
  guint split;                     /* which part of a split model (0-based) */
} HrGgufTensor;

typedef struct
{
  const char *type_name;  /* "Q4_K" (static) */
  int type;               /* ggml_type id */
  guint n_tensors;
  guint64 n_elements;
  guint64 bytes;
} HrGgufTypeTotal;

typedef struct _HrGguf HrGguf;

GQuark          hr_gguf_error_quark         (void);

/* Parses the header at the start of @data.  When @need_more is not NULL, @data may be a prefix
 * of the file: if the header goes on past @len, returns NULL without an error, sets *@need_more
 * to TRUE and *@needed to a prefix length worth fetching next (at least @len + 1).  When
 * @need_more is NULL, @data is the whole file and running out is an error. */
HrGguf         *hr_gguf_parse               (const guint8    *data,
                                             gsize            len,
                                             gboolean        *need_more,
                                             gsize           *needed,
                                             GError         **error);
typedef enum
{
  HR_GGUF_PARSE_DEFAULT    = 0,
  /* A split model's part after the first: its metadata is not used (the first part's is), so
   * no string or array value is kept, only numbers (split.no, split.count…) and the tensors.
   * All parts together then keep what one file may. */
  HR_GGUF_PARSE_LATER_PART = 1 << 0,
} HrGgufParseFlags;

/* The same, giving up with HR_GGUF_ERROR_TIMEOUT once g_get_monotonic_time() reaches
 * @deadline (0: never), so a header fetched over the network is read within the time its
 * transfer had (every 1024 keys, tensors or strings it looks at the clock). */
HrGguf         *hr_gguf_parse_until         (const guint8    *data,
                                             gsize            len,
                                             gint64           deadline,
                                             HrGgufParseFlags flags,
                                             gboolean        *need_more,
                                             gsize           *needed,
                                             GError         **error);
/* Reads @path in growing chunks until the header parses; never reads the weights. */
HrGguf         *hr_gguf_load_file           (const char      *path,
                                             GError         **error);
/* Like hr_gguf_load_file(), and for a split model (NAME-00001-of-0000N.gguf, any part may be
 * given) loads every part and sums their tensors.  A single-file model loads as is.  The set
 * is checked before its parts are read (every part is there) and each part as it is read
 * (its split.no and split.count, the tensors so far), and the parts share one memory budget
 * (HR_GGUF_PARSE_LATER_PART): a lying part stops the load at once. */
HrGguf         *hr_gguf_load_split          (const char      *path,
                                             GError         **error);
void            hr_gguf_free                (HrGguf          *gguf);

/* Split models, for readers that fetch the parts themselves (HTTP Range): merges the headers
 * of all parts, given in part order, checking split.no / split.count / split.tensors.count and
 * that no tensor appears twice.  Takes every element of @parts (set to NULL), whatever the
 * outcome; metadata comes from the first part. */
HrGguf         *hr_gguf_merge_split         (HrGguf         **parts,
                                             guint            n_parts,
                                             GError         **error);
/* "PREFIX-00002-of-00005.gguf" → "PREFIX", 2, 5; FALSE when @name (a path, file name or URL
 * path) does not follow llama.cpp's split naming. */
gboolean        hr_gguf_split_name_parse    (const char      *name,
                                             char           **prefix,
                                             guint           *no,
                                             guint           *count);
char           *hr_gguf_split_name          (const char      *prefix,
                                             guint            no,
                                             guint            count);
/* split.count, 1 for a single-file model. */
gint64          hr_gguf_get_split_count     (const HrGguf    *gguf);
/* Records the size of the file the header was read from (e.g. from Content-Range), so
 * hr_gguf_get_file_size() and hr_gguf_is_complete() mean what they do for a local file.
 * Call it on each part before merging. */
void            hr_gguf_set_file_size       (HrGguf          *gguf,
                                             guint64          size);

guint32         hr_gguf_get_version         (const HrGguf    *gguf);
guint           hr_gguf_get_n_tensors       (const HrGguf    *gguf);
const HrGgufTensor *hr_gguf_get_tensor      (const HrGguf    *gguf,
                                             guint            index);
const HrGgufTensor *hr_gguf_find_tensor     (const HrGguf    *gguf,
                                             const char      *name);
/* Sum of the element counts of every tensor. */
guint64         hr_gguf_get_n_params        (const HrGguf    *gguf);
/* Exact sum of the tensor bytes (without alignment padding). */
guint64         hr_gguf_get_tensor_bytes    (const HrGguf    *gguf);
/* Routed-expert tensors ("…_exps", or per-expert "ffn_*.N" tensors). */
guint64         hr_gguf_get_expert_bytes    (const HrGguf    *gguf);
guint64         hr_gguf_get_expert_params   (const HrGguf    *gguf);
/* One entry per ggml type present, largest first. */
const GArray   *hr_gguf_get_bytes_by_type   (const HrGguf    *gguf);
guint32         hr_gguf_get_alignment       (const HrGguf    *gguf);
/* Bytes before the tensor data (header plus padding), of the first part. */
guint64         hr_gguf_get_data_offset     (const HrGguf    *gguf);
/* Size the tensor data needs (with padding), all parts together. */
guint64         hr_gguf_get_data_size       (const HrGguf    *gguf);
/* Sum of the file sizes read from disk; 0 when parsed from memory. */
guint64         hr_gguf_get_file_size       (const HrGguf    *gguf);
/* FALSE when a file read from disk is shorter than its header says (an unfinished download). */
gboolean        hr_gguf_is_complete         (const HrGguf    *gguf);
guint           hr_gguf_get_n_splits        (const HrGguf    *gguf);

const char     *hr_gguf_get_architecture    (const HrGguf    *gguf);  /* NULL when absent */
const char     *hr_gguf_get_name            (const HrGguf    *gguf);  /* NULL when absent */
int             hr_gguf_get_file_type       (const HrGguf    *gguf);  /* -1 when absent */
/* The llama-quantize mix of a general.file_type (15 → "Q4_K_M"); NULL when unknown. */
const char     *hr_gguf_file_type_to_string (int              file_type);

/* Metadata.  Keys are kept in file order.  Large arrays (tokenizer vocab) are skipped: only
 * their element type and length are kept. */
guint           hr_gguf_get_n_kv            (const HrGguf    *gguf);
const char     *hr_gguf_get_key             (const HrGguf    *gguf,
                                             guint            index);
gboolean        hr_gguf_has_key             (const HrGguf    *gguf,
                                             const char      *key);
/* HR_GGUF_N_TYPES when the key is absent. */
HrGgufType      hr_gguf_get_kv_type         (const HrGguf    *gguf,
                                             const char      *key);
/* Any integer or bool value that fits. */
gboolean        hr_gguf_get_int             (const HrGguf    *gguf,
                                             const char      *key,
                                             gint64          *out);
/* Any number (integers too). */
gboolean        hr_gguf_get_double          (const HrGguf    *gguf,
                                             const char      *key,
                                             double          *out);
const char     *hr_gguf_get_string          (const HrGguf    *gguf,
                                             const char      *key);
gboolean        hr_gguf_get_array_info      (const HrGguf    *gguf,
                                             const char      *key,
                                             HrGgufType      *elem_type,
                                             guint64         *n);
/* Element @index of a numeric array that was kept (arrays of at most 65536 elements, up to
 * 2^20 elements in all: per-layer arrays, not tokenizer tables). */
gboolean        hr_gguf_get_array_int       (const HrGguf    *gguf,
                                             const char      *key,
                                             guint64          index,
                                             gint64          *out);
/* A short display form of a value: "4096", "\"llama\"", "[string × 128256]". */
char           *hr_gguf_value_to_string     (const HrGguf    *gguf,
                                             const char      *key);
const char     *hr_gguf_type_to_string      (HrGgufType       type);

/* The architecture, as the sizing core needs it: layers, heads, KV groups (full, sliding,
 * chunked, MLA, recurrent state), experts, and the file's exact bytes and mix. */
HrModel        *hr_gguf_to_model            (const HrGguf    *gguf,
                                             GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGguf, hr_gguf_free)

G_END_DECLS
