/* hr-gpu.h — an accelerator (or a unified-memory machine) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_FORM_CONSUMER,
  HR_FORM_WORKSTATION,
  HR_FORM_DATACENTER,
  HR_FORM_UNIFIED,     /* CPU and GPU share one memory pool (Apple, Strix Halo, DGX Spark) */
} HrGpuForm;

typedef enum
{
  HR_BACKEND_CUDA,
  HR_BACKEND_ROCM,
  HR_BACKEND_METAL,
  HR_BACKEND_VULKAN,
  HR_BACKEND_SYCL,
  HR_BACKEND_CPU,
  HR_BACKEND_CANN,     /* Huawei Ascend */
  HR_BACKEND_MUSA,     /* Moore Threads */
  HR_BACKEND_OTHER,    /* vendor stacks llama.cpp has no backend for (Neuware, XPU, MXMACA…) */
  HR_N_BACKENDS
} HrBackend;

/* The device's architecture generation: which kernels llama.cpp and the vendor libraries run
 * on it (tensor cores / WMMA / MFMA / XMX, integer dot products), beyond its datasheet.  A
 * closed set; hr_gpu_generation_info() describes each and names the public source that lists
 * which products belong to it. */
typedef enum
{
  HR_GEN_UNKNOWN,
  HR_GEN_PASCAL,
  HR_GEN_VOLTA,
  HR_GEN_TURING,
  HR_GEN_AMPERE,
  HR_GEN_ADA,
  HR_GEN_HOPPER,
  HR_GEN_BLACKWELL,
  HR_GEN_GFX906,       /* GCN 5 Vega 20: Instinct MI50/MI60, Radeon VII */
  HR_GEN_CDNA1,
  HR_GEN_CDNA2,
  HR_GEN_CDNA3,
  HR_GEN_CDNA4,
  HR_GEN_RDNA2,
  HR_GEN_RDNA3,
  HR_GEN_RDNA3_5,
  HR_GEN_RDNA4,
  HR_GEN_XE_LPG,
  HR_GEN_XE_HPG,
  HR_GEN_XE2,
  HR_GEN_APPLE_M1,
  HR_GEN_APPLE_M2,
  HR_GEN_APPLE_M3,
  HR_GEN_APPLE_M4,
  HR_N_GENERATIONS
} HrGpuGeneration;

typedef struct
{
  const char *id;           /* "ada", as gpus.json and --gpu-custom generation= write it */
  const char *name;         /* "Ada Lovelace" */
  gboolean matrix_units;    /* dense matrix units the GEMM kernels use (tensor cores, WMMA,
                             * MFMA, XMX); FALSE: matrix multiplications run on the vector ALUs */
  int apple;                /* Apple M generation (1–4); 0 for other vendors */
  const char *source;       /* a public page that lists the products of this generation */
} HrGpuGenerationInfo;

typedef struct
{
  char *id;               /* stable slug, e.g. "h200-141gb" */
  char *name;             /* "H200 141GB SXM" */
  char *vendor;           /* "NVIDIA" */
  HrGpuForm form;
  double memory_gib;      /* marketed GB, which is binary: 80 GB = 80 GiB */
  double bandwidth_gbs;   /* decimal GB/s; NAN when unknown */
  double bandwidth_measured_gbs;  /* unified machines: what a public memory benchmark of the
                                   * GPU reached (GB/s, at most bandwidth_gbs); NAN when no
                                   * measurement is known */
  char *bandwidth_measured_source; /* that benchmark's public page (and tool) */
  double fp16_tflops;     /* dense FP16/BF16 with FP32 accumulate; NAN when unknown */
  double fp8_tflops;      /* dense FP8; NAN when unknown */
  double tdp_w;           /* NAN when unknown */
  double price_usd;       /* NAN when unknown */
  char *price_note;
  char *memory_type;
  char *interconnect;
  char *stack;            /* "CUDA", "ROCm", "CANN", "Metal" … */
  HrBackend backend;      /* default llama.cpp backend for this device */
  double unified_share;   /* unified memory: GPU working-set share of RAM (0.75); else 0 */
  int gpu_cores;          /* Apple GPU cores, 0 when not applicable */
  int cpu_cores;          /* detected machines: the host CPU's physical cores; else 0 */
  double host_ram_gib;    /* detected machines: the host's system RAM; 0 when unknown */
  double host_ram_gbs;    /* detected machines: its bandwidth (GB/s); 0 when unknown */
  HrGpuGeneration generation; /* HR_GEN_UNKNOWN when not known */
  gboolean used_market;   /* commonly bought used (price then is a used price) */
  gboolean user_defined;
  char *source;
  char *confidence;
  char *detected_as;      /* "This Computer": the id of the catalog entry detection matched,
                           * whose specs it carries; NULL for every other device */
} HrGpu;

HrGpu          *hr_gpu_new                  (void);
HrGpu          *hr_gpu_copy                 (const HrGpu     *gpu);
void            hr_gpu_free                 (HrGpu           *gpu);

/* Parses "memory_gib=..,bandwidth_gbs=..,fp16_tflops=..[,unified=true][,name=..][,price_usd=..]
 * [,tdp_w=..][,generation=ada]" as the CLI's --gpu-custom takes it. */
HrGpu          *hr_gpu_new_from_spec        (const char      *spec,
                                             GError         **error);
/* The name a --gpu-custom GPU gets without a name=: "Custom GPU (24.5 GiB)", "Custom unified
 * memory (64 GiB)", translated, its figure as LC_NUMERIC writes it.  Newly allocated. */
char           *hr_gpu_spec_name            (const HrGpu     *gpu);
/* @gpu's name for JSON and CSV: its name, except that a --gpu-custom GPU named after its
 * memory writes that figure with '.' whatever LC_NUMERIC says ("Eigene GPU (24.5 GiB)" in German
 * JSON too, SPEC §4).  Newly allocated. */
char           *hr_gpu_data_name            (const HrGpu     *gpu);

gboolean        hr_gpu_is_unified           (const HrGpu     *gpu);
/* The share of a unified-memory machine's RAM its GPU may use: @chosen when above 0 (the
 * user's setting), else the device's own, else hr_gpu_default_unified_share(). */
double          hr_gpu_unified_share        (const HrGpu     *gpu,
                                             double           chosen);

/* The share of a unified machine's RAM that a model can count on.  macOS lets the GPU wire
 * (recommendedMaxWorkingSetSize) about two thirds of RAM on small machines, three quarters on
 * large ones (reference/gpu_specs.md §3): llama.cpp logged 21,845.34 MB on a 32 GB M1 Max
 * (ggml-org/llama.cpp#2011), 73,728 MB on a 96 GB M2 Max (#3213), and 38,654.71 MB on an M3 Max,
 * which is 0.75 × 48 GiB.  Headroom still counts 48 GB as small: on a 48 GB M3 Max, LLaMA 65B
 * Q4_0 failed to load while asking for 36,695 MiB, under that limit, and three runs near it were
 * far slower than the bandwidth allows (XiongjieDai/GPU-Benchmarks-on-LLM-Inference, in
 * reference/memory_dev.csv and bench_dev.csv); with 0.75 the accuracy report predicts all four
 * wrongly.  Sizing, --gpu-custom and the app's own devices all take it. */
#define HR_UNIFIED_LARGE_MIN_GIB 64.0
#define HR_UNIFIED_SHARE_SMALL   0.66
#define HR_UNIFIED_SHARE_LARGE   0.75

double          hr_gpu_default_unified_share (double          memory_gib);

/* The generation's facts; NULL for HR_GEN_UNKNOWN or a value out of range. */
const HrGpuGenerationInfo *hr_gpu_generation_info (HrGpuGeneration generation);
/* "ada" → HR_GEN_ADA (ASCII case ignored); FALSE for an id not in the table. */
gboolean        hr_gpu_generation_from_string (const char     *str,
                                             HrGpuGeneration *generation);
/* The ids of every generation, ", "-separated, for messages ("pascal, volta, …").  Static. */
const char     *hr_gpu_generation_ids       (void);

/* Pascal's vector ALUs by die (NVIDIA's CUDA C++ Programming Guide, table "Throughput of Native
 * Arithmetic Instructions", results per clock per SM, as quoted in
 * https://forums.developer.nvidia.com/t/can-16-bits-and-32-bits-native-arithmetic-instructions-run-independently/108706 :
 * FP16 128 and FP32 64 on compute capability 6.0, FP16 2 and FP32 128 on 6.1).  GP100 (Tesla
 * P100, Quadro GP100; 6.0) runs FP16 at twice its FP32 rate; every other Pascal die (GP102,
 * GP104, GP106, GP107: Tesla P40 and P4, Titan X/Xp, GTX 10xx; 6.1) at 1/64 of it, and adds
 * the dp4a int8 dot product at four times its FP32 rate (Tesla P40: 11.76 TFLOPS FP32, 183.7
 * GFLOPS FP16, https://sysrqmts.com/gpus/nvidia/tesla/p40 ; 47 TOPS INT8,
 * http://www.compucon.co.nz/content/view/2039/280/).  The fastest 6.1 part publishes 0.19
 * TFLOPS FP16, the slowest GP100 18.7: a Pascal FP16 figure below
 * HR_PASCAL_SLOW_FP16_MAX_TFLOPS is the 1/64 rate of a 6.1 part. */
#define HR_PASCAL_SLOW_FP16_MAX_TFLOPS 1.0
#define HR_PASCAL_FP32_PER_FP16        64.0
#define HR_PASCAL_DP4A_PER_FP32        4.0

/* TRUE when @gpu is a Pascal card of compute capability 6.1 (its FP16 figure at 1/64 of FP32),
 * where llama.cpp runs no FP16 math (ggml-cuda common.cuh: fast_fp16_available() excludes 610). */
gboolean        hr_gpu_pascal_slow_fp16     (const HrGpu     *gpu);

const char     *hr_gpu_form_to_string       (HrGpuForm        form);
gboolean        hr_gpu_form_from_string     (const char      *str,
                                             HrGpuForm       *form);
const char     *hr_backend_to_string        (HrBackend        backend);
/* "ROCm", as the vendors write them; NULL for HR_BACKEND_OTHER (a vendor's own stack). */
const char     *hr_backend_display_name     (HrBackend        backend);
gboolean        hr_backend_from_string      (const char      *str,
                                             HrBackend       *backend);
/* The backends one picks by hand (SPEC's --backend cuda|rocm|metal|vulkan|sycl|cpu), in
 * HrBackend's order; @n_out their number.  CANN, MUSA and vendor stacks come only from a GPU's
 * catalog entry.  The Size view's backend row and the GPU editor list these. */
const HrBackend *hr_backend_choices         (guint           *n_out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGpu, hr_gpu_free)

G_END_DECLS
