/* hr-safetensors.h — a safetensors file's header, and a sharded checkpoint's index
 *
 * A safetensors file begins with an 8-byte little-endian length N, then N bytes of JSON:
 * {"__metadata__": {string: string}, NAME: {"dtype": D, "shape": [..], "data_offsets": [B, E]},
 * …}; the tensors' data follows, each at [B, E) of the data area, which they tile without gap
 * or overlap (huggingface/safetensors, safetensors/src/tensor.rs, Metadata::validate).  Reading
 * the header gives every tensor's exact bytes without the weights.
 *
 * The header is read by hr-json-scan.c, never json-glib: a file has one member per tensor.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_SAFETENSORS_ERROR (hr_safetensors_error_quark ())
typedef enum
{
  HR_SAFETENSORS_ERROR_INVALID,    /* not a safetensors header, or one that contradicts itself */
  HR_SAFETENSORS_ERROR_LIMIT,      /* larger than Headroom reads */
  HR_SAFETENSORS_ERROR_TRUNCATED,  /* fewer bytes than the length field announces */
} HrSafetensorsError;

/* huggingface_hub refuses headers over 25 MB (constants.SAFETENSORS_MAX_HEADER_LENGTH,
 * huggingface_hub/constants.py); the safetensors library itself over 100 MB. */
#define HR_SAFETENSORS_MAX_HEADER   (25 * 1000 * 1000)
/* A shard of the largest MoE checkpoints holds a few thousand tensors; a whole 30B MoE in one
 * file about 20 000. */
#define HR_SAFETENSORS_MAX_TENSORS  200000
#define HR_SAFETENSORS_MAX_NAME     1024
#define HR_SAFETENSORS_MAX_DIMS     16
/* model.safetensors.index.json: a weight_map of one entry per tensor. */
#define HR_SAFETENSORS_INDEX_MAX_SIZE  (32 * 1024 * 1024)

/* Elements and bytes of one dtype over a file's tensors. */
typedef struct
{
  const char *dtype;   /* "BF16", "F8_E4M3", … (static) */
  guint bits;          /* per element */
  guint64 elements;
  guint64 bytes;
  guint n_tensors;
} HrSafetensorsDtype;

typedef struct
{
  guint64 header_len;     /* N, the JSON's length */
  guint64 data_bytes;     /* the tensors' bytes: the end of the last one */
  guint64 elements;       /* elements over all tensors (packed quantized weights count as
                           * their storage elements: an int32 of AWQ holds 8 weights) */
  guint n_tensors;
  GArray *dtypes;         /* HrSafetensorsDtype, most bytes first */
  char *format;           /* __metadata__'s "format" ("pt", "mlx"…), NULL when absent */
} HrSafetensors;

GQuark          hr_safetensors_error_quark  (void);

/* From the first 8 bytes: the length N of the JSON that follows (at most
 * HR_SAFETENSORS_MAX_HEADER, else HR_SAFETENSORS_ERROR_LIMIT).  @len < 8 is TRUNCATED. */
gboolean        hr_safetensors_header_length (const guint8   *data,
                                              gsize           len,
                                              guint64        *json_len,
                                              GError        **error);
/* @data: the file's first bytes, at least 8 + N.  @file_size: the whole file's size when known
 * (it must then be 8 + N + the tensors' bytes), 0 when not. */
HrSafetensors  *hr_safetensors_parse        (const guint8   *data,
                                             gsize           len,
                                             guint64         file_size,
                                             GError        **error);
void            hr_safetensors_free         (HrSafetensors  *st);
/* Adds @part's tensors to @sum (shards of one checkpoint). */
void            hr_safetensors_add          (HrSafetensors  *sum,
                                             const HrSafetensors *part);
HrSafetensors  *hr_safetensors_new_empty    (void);
/* Bits per element of a safetensors dtype name, 0 when unknown. */
guint           hr_safetensors_dtype_bits   (const char     *dtype);

/* model.safetensors.index.json: the shard file names its weight_map names (sorted, unique) and
 * metadata.total_size (0 when absent). */
GStrv           hr_safetensors_index_parse  (const char     *json,
                                             gsize           len,
                                             guint64        *total_size,
                                             GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrSafetensors, hr_safetensors_free)

G_END_DECLS
