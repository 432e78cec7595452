/* test-launch.c — launch commands per engine, multi-node plans, shell quoting */
#include <math.h>
#include <string.h>

#include "hr-estimate.h"
#include "hr-launch.h"

/* GLM-4.5-Air as its HF config.json describes it (zai-org/GLM-4.5-Air). */
static HrModel *
make_glm_air (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("glm-4.5-air");
  m->name = g_strdup ("GLM-4.5-Air");
  m->hf_repo = g_strdup ("zai-org/GLM-4.5-Air");
  m->gguf_repo = g_strdup ("unsloth/GLM-4.5-Air-GGUF");
  m->native_dtype = g_strdup ("BF16");
  m->total_params = 110.47e9;
  m->active_params = 12e9;
  m->n_layers = 46;
  m->hidden = 4096;
  m->n_heads = 96;
  m->head_dim = 128;
  m->vocab = 151552;
  m->intermediate = 10944;
  m->n_experts = 128;
  m->n_experts_used = 8;
  m->n_shared_experts = 1;
  m->moe_intermediate = 1408;
  m->shared_intermediate = 1408;
  m->n_dense_layers = 1;
  m->mtp_layers = 1;
  m->max_context = 131072;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_FULL, 46, 8, 128, 128, 0, 0 });
  hr_model_add_size (m, "Q4_K_M", 72970000000, "test");
  return m;
}

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): MLA, 256 experts, FP8 checkpoint. */
static HrModel *
make_deepseek_v3 (void)
{
  HrModel *m = hr_model_new ();

  m->id = g_strdup ("deepseek-v3");
  m->name = g_strdup ("DeepSeek-V3");
  m->hf_repo = g_strdup ("deepseek-ai/DeepSeek-V3");
  m->gguf_repo = g_strdup ("unsloth/DeepSeek-V3-GGUF");
  m->native_dtype = g_strdup ("FP8");
  m->total_params = 671e9;
  m->active_params = 37e9;
  m->n_layers = 61;
  m->hidden = 7168;
  m->n_heads = 128;
  m->head_dim = 192;
  m->vocab = 129280;
  m->intermediate = 18432;
  m->n_experts = 256;
  m->n_experts_used = 8;
  m->n_shared_experts = 1;
  m->moe_intermediate = 2048;
  m->n_dense_layers = 3;
  m->q_lora_rank = 1536;
  m->kv_lora_rank = 512;
  m->qk_rope_dim = 64;
  m->qk_nope_dim = 128;
  m->v_head_dim = 128;
  m->mtp_layers = 1;
  m->max_context = 163840;
  hr_model_add_layers (m, &(HrLayerGroup) { HR_LAYER_MLA, 61, 1, 576, 0, 0, 0 });
  return m;
}

/* Kimi K2 (moonshotai/Kimi-K2-Instruct config.json). */
static HrModel *
make_kimi_k2 (void)
{
  HrModel *m = make_deepseek_v3 ();

  g_free (m->id);
  g_free (m->name);
  g_free (m->hf_repo);
  g_free (m->gguf_repo);
  m->id = g_strdup ("kimi-k2");
  m->name = g_strdup ("Kimi K2");
  m->hf_repo = g_strdup ("moonshotai/Kimi-K2-Instruct");
  m->gguf_repo = g_strdup ("unsloth/Kimi-K2-Instruct-GGUF");
  m->total_params = 1026.5e9;
  m->active_params = 32e9;
  m->n_heads = 64;
  m->vocab = 163840;
  m->n_experts = 384;
  m->n_dense_layers = 1;
  m->mtp_layers = 0;
  m->max_context = 131072;
  return m;
}

static HrGpu *
make_gpu (const char *id,
          const char *name,
          double      memory_gib,
          double      bandwidth_gbs,
          double      fp16_tflops)
{
  HrGpu *g = hr_gpu_new ();

  g->id = g_strdup (id);
  g->name = g_strdup (name);
  g->vendor = g_strdup ("NVIDIA");
  g->form = HR_FORM_DATACENTER;
  g->memory_gib = memory_gib;
  g->bandwidth_gbs = bandwidth_gbs;
  g->fp16_tflops = fp16_tflops;
  g->stack = g_strdup ("CUDA");
  g->backend = HR_BACKEND_CUDA;
  return g;
}

static HrGpu *
make_h100 (void)
{
  return make_gpu ("h100-sxm", "H100 SXM 80GB", 80, 3350, 989.4);
}

static HrGpu *
make_rtx_pro_6000 (void)
{
  HrGpu *g = make_gpu ("rtx-pro-6000", "RTX PRO 6000 Blackwell", 96, 1792, 125.0);

  g->form = HR_FORM_WORKSTATION;
  return g;
}

static HrGpu *
make_mac (void)
{
  HrGpu *g = make_gpu ("m3-ultra-256", "Mac Studio M3 Ultra 256GB", 256, 819, 28.0);

  g_free (g->vendor);
  g_free (g->stack);
  g->vendor = g_strdup ("Apple");
  g->stack = g_strdup ("Metal");
  g->form = HR_FORM_UNIFIED;
  g->backend = HR_BACKEND_METAL;
  g->unified_share = 0.75;
  return g;
}

/* An estimate that fits, for the tests about flags (the commands only read a few fields). */
static void
estimate_fits (HrEstimate *est)
{
  memset (est, 0, sizeof *est);
  est->verdict = HR_VERDICT_FITS;
  est->weights.bytes = 72970000000.0;
}

static const HrLaunchCommand *
find_command (GPtrArray  *cmds,
              HrEngine    engine,
              const char *title_part)
{
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);

      if (c->engine != engine)
        continue;
      if (title_part == NULL ? strstr (c->title, "node") == NULL
                             : strstr (c->title, title_part) != NULL)
        return c;
    }
  return NULL;
}

static char *
one_line (GPtrArray  *cmds,
          HrEngine    engine,
          const char *title_part)
{
  const HrLaunchCommand *c = find_command (cmds, engine, title_part);

  g_assert_nonnull (c);
  return hr_launch_command_one_line (c);
}

static void
test_seed_llama_cpp (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *line = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  c = find_command (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->title, ==, "llama.cpp (llama-server)");
  g_assert_cmpstr (c->command, ==,
                   "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q4_K_M \\\n"
                   "  --ctx-size 8192 -ngl 999 --flash-attn on \\\n"
                   "  --jinja --host 0.0.0.0 --port 8080");
  line = hr_launch_command_one_line (c);
  g_assert_cmpstr (line, ==,
                   "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q4_K_M --ctx-size 8192 -ngl 999 "
                   "--flash-attn on --jinja --host 0.0.0.0 --port 8080");
  g_assert_null (c->note);

  /* No MLX off Apple hardware; no multi-node plan for a model that fits. */
  g_assert_null (find_command (cmds, HR_ENGINE_MLX, NULL));
  for (guint i = 0; i < cmds->len; i++)
    g_assert_null (strstr (((HrLaunchCommand *) cmds->pdata[i])->title, "nodes"));
}

static void
test_seed_vllm (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *line = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 8192;
  s.gpu_mem_util = 0.92;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  line = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (line, ==,
                   "vllm serve zai-org/GLM-4.5-Air --max-model-len 8192 "
                   "--gpu-memory-utilization 0.92");
  /* The BF16 checkpoint is 205.77 GiB: one 96 GB card cannot load it, whatever the estimate
   * passed in (sized for llama.cpp) said. */
  c = find_command (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_nonnull (c->note);
  g_assert_nonnull (strstr (c->note, "will not load"));

  /* A GGUF quant is not vLLM's: same command, with a note saying so, and the warning is
   * about the BF16 checkpoint that command loads, not the 67.96 GiB Q4_K_M file. */
  g_clear_pointer (&cmds, g_ptr_array_unref);
  g_clear_pointer (&line, g_free);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  cmds = hr_launch_commands (&s, &est);
  line = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (line, ==,
                   "vllm serve zai-org/GLM-4.5-Air --max-model-len 8192 "
                   "--gpu-memory-utilization 0.92");
  c = find_command (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_nonnull (c->note);
  g_assert_nonnull (strstr (c->note, "vLLM does not load a Q4_K_M GGUF of this model’s architecture"));
  g_assert_nonnull (strstr (c->note, "Loading BF16 this needs"));
  c = find_command (cmds, HR_ENGINE_SGLANG, NULL);
  g_assert_nonnull (strstr (c->note, "Loading BF16 this needs"));
  /* llama.cpp loads the Q4_K_M file it was sized for: no warning */
  c = find_command (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_null (c->note);

  /* Four cards hold the checkpoint: no warning, tensor parallel over them. */
  g_clear_pointer (&cmds, g_ptr_array_unref);
  g_clear_pointer (&line, g_free);
  s.n_gpus = 4;
  cmds = hr_launch_commands (&s, &est);
  c = find_command (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_null (strstr (c->note, "will not load"));
  line = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (line, ==,
                   "vllm serve zai-org/GLM-4.5-Air --tensor-parallel-size 4 --max-model-len 8192 "
                   "--gpu-memory-utilization 0.92");
}

/* At 0 % offload no engine gets --cpu-offload-gb, even though llama.cpp keeps the token
 * embedding in system RAM (which its estimate counts). */
/* #31: -hf loads a repo's projector on its own, so a multimodal model sized without one
 * launches with --no-mmproj; sized with one, -hf fetches it (and --no-mmproj-offload when it
 * stays in RAM); a local projector file is named with --mmproj. */
static void
test_mmproj_flags (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  HrScenario s;
  HrEstimate est;

  m->vision_params = 0.4e9;
  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  for (int i = 0; i < 4; i++)
    {
      g_autoptr(GPtrArray) cmds = NULL;
      const char *cmd;

      s.mmproj_bytes = i == 0 ? 0 : 8.5e8;
      s.mmproj_cpu = i == 2;
      s.mmproj_path = i == 3 ? "/models/mmproj-GLM-F16.gguf" : NULL;
      g_assert_true (hr_estimate_compute (&s, NULL, &est, NULL));
      cmds = hr_launch_commands (&s, &est);
      cmd = find_command (cmds, HR_ENGINE_LLAMA_CPP, NULL)->command;
      g_assert_true (g_str_has_prefix (cmd, "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q4_K_M"));
      g_assert_true ((strstr (cmd, "--no-mmproj ") != NULL || strstr (cmd, "--no-mmproj\n") != NULL ||
                      strstr (cmd, "--no-mmproj \\") != NULL) == (i == 0));
      g_assert_true ((strstr (cmd, "--no-mmproj-offload") != NULL) == (i == 2));
      g_assert_true ((strstr (cmd, "--mmproj /models/mmproj-GLM-F16.gguf") != NULL) == (i == 3));
    }
}

static void
test_no_offload_flag (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  g_autoptr(GPtrArray) cmds = NULL;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.context = 8192;
  s.n_gpus = 2;
  g_assert_true (hr_estimate_compute (&s, NULL, &est, NULL));
  g_assert_cmpfloat (est.system_ram_bytes, >, 0);
  cmds = hr_launch_commands (&s, &est);
  for (guint i = 0; i < cmds->len; i++)
    {
      const HrLaunchCommand *c = g_ptr_array_index (cmds, i);
      g_assert_null (strstr (c->command, "--cpu-offload-gb"));
      if (c->note != NULL)
        g_assert_null (strstr (c->note, "--cpu-offload-gb"));
    }

  /* 50 % of the layers offloaded: now vLLM and SGLang carry the flag (per GPU) */
  g_clear_pointer (&cmds, g_ptr_array_unref);
  s.offload_pct = 50;
  g_assert_true (hr_estimate_compute (&s, NULL, &est, NULL));
  cmds = hr_launch_commands (&s, &est);
  g_assert_nonnull (strstr (find_command (cmds, HR_ENGINE_VLLM, NULL)->command, "--cpu-offload-gb"));
  g_assert_nonnull (strstr (find_command (cmds, HR_ENGINE_SGLANG, NULL)->command, "--cpu-offload-gb"));
}

static void
test_llama_cpp_options (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *line = NULL;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  s.n_gpus = 2;
  s.batch = 4;
  s.kv_type = HR_KV_Q8_0;
  s.n_cpu_moe = 10;
  s.offload_pct = 25;   /* 46 − round (11.5) = 34 layers on the GPUs */
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  line = one_line (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpstr (line, ==,
                   "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q4_K_M --ctx-size 32768 -ngl 34 "
                   "--flash-attn on --cache-type-k q8_0 --cache-type-v q8_0 --n-cpu-moe 10 "
                   "--tensor-split 1,1 --split-mode layer --parallel 4 "
                   "--jinja --host 0.0.0.0 --port 8080");

  /* Q4_0 cache, no offload, three GPUs, a bigger micro-batch. */
  g_clear_pointer (&cmds, g_ptr_array_unref);
  g_clear_pointer (&line, g_free);
  s.kv_type = HR_KV_Q4_0;
  s.n_cpu_moe = 0;
  s.offload_pct = 0;
  s.n_gpus = 3;
  s.batch = 1;
  s.ubatch = 4096;
  cmds = hr_launch_commands (&s, &est);
  line = one_line (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpstr (line, ==,
                   "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q4_K_M --ctx-size 8192 -ngl 999 "
                   "--flash-attn on -b 4096 -ub 4096 --cache-type-k q4_0 --cache-type-v q4_0 "
                   "--tensor-split 1,1,1 --split-mode layer "
                   "--jinja --host 0.0.0.0 --port 8080");
}

/* --enforce-eager: vLLM's flag, SGLang's --disable-cuda-graph; a fraction the user gives is
 * written as given. */
static void
test_enforce_eager (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *vllm = NULL;
  g_autofree char *sglang = NULL;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.context = 32768;
  s.n_gpus = 2;
  s.gpu_mem_util = 0.85;
  s.enforce_eager = TRUE;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);
  vllm = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (vllm, ==,
                   "vllm serve zai-org/GLM-4.5-Air --tensor-parallel-size 2 "
                   "--max-model-len 32768 --gpu-memory-utilization 0.85 --enforce-eager "
                   "--quantization fp8");
  sglang = one_line (cmds, HR_ENGINE_SGLANG, NULL);
  g_assert_cmpstr (sglang, ==,
                   "python -m sglang.launch_server --model-path zai-org/GLM-4.5-Air --tp 2 "
                   "--context-length 32768 --mem-fraction-static 0.85 --disable-cuda-graph "
                   "--quantization fp8 --host 0.0.0.0 --port 30000");
}

static void
test_fp8_kv (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *llama = NULL;
  g_autofree char *vllm = NULL;
  g_autofree char *sglang = NULL;
  g_autofree char *ollama = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.context = 32768;
  s.n_gpus = 2;
  s.batch = 8;
  s.kv_type = HR_KV_FP8;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  /* llama.cpp: no FP8 cache and no FP8 weights: q8_0 for both, with notes. */
  llama = one_line (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpstr (llama, ==,
                   "llama-server -hf unsloth/GLM-4.5-Air-GGUF:Q8_0 --ctx-size 262144 -ngl 999 "
                   "--flash-attn on --cache-type-k q8_0 --cache-type-v q8_0 "
                   "--tensor-split 1,1 --split-mode layer --parallel 8 "
                   "--jinja --host 0.0.0.0 --port 8080");
  c = find_command (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_nonnull (c->note);
  g_assert_nonnull (strstr (c->note, "FP8 KV"));

  /* vLLM: online FP8 from the BF16 checkpoint. */
  vllm = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (vllm, ==,
                   "vllm serve zai-org/GLM-4.5-Air --tensor-parallel-size 2 "
                   "--max-model-len 32768 --gpu-memory-utilization 0.90 --kv-cache-dtype fp8 "
                   "--max-num-seqs 8 --quantization fp8");

  /* SGLang: no fraction set, so SGLang's own default for 2 × 80 GB, written out */
  sglang = one_line (cmds, HR_ENGINE_SGLANG, NULL);
  g_assert_cmpstr (sglang, ==,
                   "python -m sglang.launch_server --model-path zai-org/GLM-4.5-Air --tp 2 "
                   "--context-length 32768 --mem-fraction-static 0.834 "
                   "--kv-cache-dtype fp8_e4m3 --max-running-requests 8 --quantization fp8 "
                   "--host 0.0.0.0 --port 30000");

  c = find_command (cmds, HR_ENGINE_OLLAMA, NULL);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->command, ==,
                   "OLLAMA_CONTEXT_LENGTH=32768 OLLAMA_NUM_PARALLEL=8 OLLAMA_KV_CACHE_TYPE=q8_0 "
                   "OLLAMA_FLASH_ATTENTION=1 ollama serve\n"
                   "ollama run hf.co/unsloth/GLM-4.5-Air-GGUF:Q8_0");
  ollama = g_strdup (c->note);
  g_assert_nonnull (strstr (ollama, "FP8"));
}

static void
test_ollama (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  g_autoptr(GPtrArray) cmds = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  c = find_command (cmds, HR_ENGINE_OLLAMA, NULL);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->command, ==,
                   "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_FLASH_ATTENTION=1 ollama serve\n"
                   "ollama run hf.co/unsloth/GLM-4.5-Air-GGUF:Q4_K_M");
  /* 73 GB of GGUF come as shards, which Ollama cannot pull. */
  g_assert_nonnull (c->note);
  g_assert_nonnull (strstr (c->note, "shards"));
}

static void
test_mlx (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_mac ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *line = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  /* vLLM and SGLang do not run on Apple GPUs; MLX does. */
  g_assert_null (find_command (cmds, HR_ENGINE_VLLM, NULL));
  g_assert_null (find_command (cmds, HR_ENGINE_SGLANG, NULL));
  c = find_command (cmds, HR_ENGINE_MLX, NULL);
  g_assert_nonnull (c);
  line = hr_launch_command_one_line (c);
  g_assert_cmpstr (line, ==,
                   "mlx_lm.server --model mlx-community/GLM-4.5-Air-4bit --max-kv-size 8192 "
                   "--port 8080");
  g_assert_nonnull (strstr (c->note, "check the exact repo name"));

  /* A quantized cache replaces the bounded one. */
  g_clear_pointer (&cmds, g_ptr_array_unref);
  g_clear_pointer (&line, g_free);
  s.kv_type = HR_KV_Q8_0;
  g_strlcpy (s.quant, "Q6_K", sizeof s.quant);
  cmds = hr_launch_commands (&s, &est);
  line = one_line (cmds, HR_ENGINE_MLX, NULL);
  g_assert_cmpstr (line, ==,
                   "mlx_lm.server --model mlx-community/GLM-4.5-Air-6bit --kv-bits 8 "
                   "--port 8080");
}

static void
test_no_gguf_repo (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *line = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  g_clear_pointer (&m->gguf_repo, g_free);
  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 4096;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);

  line = one_line (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpstr (line, ==,
                   "llama-server -m GLM-4.5-Air-Q4_K_M.gguf --ctx-size 4096 -ngl 999 "
                   "--flash-attn on --jinja --host 0.0.0.0 --port 8080");
  c = find_command (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_nonnull (strstr (c->note, "GGUF"));
}

static void
test_quoting (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "unsloth/GLM-4.5-Air-GGUF:Q4_K_M", "unsloth/GLM-4.5-Air-GGUF:Q4_K_M" },
    { "1,1,1", "1,1,1" },
    { "", "''" },
    { "My Models/a.gguf", "'My Models/a.gguf'" },
    { "it's", "'it'\\''s'" },
    { "$(reboot)", "'$(reboot)'" },
    { "a;b", "'a;b'" },
    { "~/x", "'~/x'" },
    { "模型.gguf", "'模型.gguf'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = hr_launch_shell_quote (cases[i].in);
      g_assert_cmpstr (q, ==, cases[i].out);
    }
}

static void
test_quoting_in_commands (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_rtx_pro_6000 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *llama = NULL;
  g_autofree char *vllm = NULL;
  const HrLaunchCommand *c;
  HrScenario s;
  HrEstimate est;

  /* A repo id from a hostile GGUF header must stay one inert word. */
  g_free (m->hf_repo);
  m->hf_repo = g_strdup ("evil/repo; rm -rf ~");
  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  s.context = 8192;
  estimate_fits (&est);
  cmds = hr_launch_commands_for_file (&s, &est, "/home/me/My Models/GLM 4.5 Air's Q4_K_M.gguf");

  llama = one_line (cmds, HR_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpstr (llama, ==,
                   "llama-server -m '/home/me/My Models/GLM 4.5 Air'\\''s Q4_K_M.gguf' "
                   "--ctx-size 8192 -ngl 999 --flash-attn on --jinja --host 0.0.0.0 --port 8080");
  vllm = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_true (g_str_has_prefix (vllm, "vllm serve 'evil/repo; rm -rf ~' --max-model-len"));

  c = find_command (cmds, HR_ENGINE_OLLAMA, NULL);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->command, ==,
                   "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_FLASH_ATTENTION=1 ollama serve\n"
                   "echo 'FROM /home/me/My Models/GLM 4.5 Air'\\''s Q4_K_M.gguf' > Modelfile\n"
                   "ollama create glm-4.5-air -f Modelfile\n"
                   "ollama run glm-4.5-air");
}

static void
test_plan_single_node (void)
{
  g_autoptr(HrModel) m = make_glm_air ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  HrParallelPlan plan = { 0, };
  HrScenario s;

  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "Q4_K_M", sizeof s.quant);
  g_assert_false (hr_launch_plan (&s, 8, &plan));
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  g_assert_false (hr_launch_plan (&s, 8, &plan));
}

static void
test_plan_deepseek_bf16 (void)
{
  g_autoptr(HrModel) m = make_deepseek_v3 ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *vllm = NULL;
  g_autofree char *rpc = NULL;
  g_autoptr(GError) error = NULL;
  const HrLaunchCommand *c;
  HrParallelPlan plan = { 0, };
  HrScenario s;
  HrEstimate est;

  /* a BF16 checkpoint of it (the official one is FP8, which vLLM would serve as FP8) */
  g_free (m->native_dtype);
  m->native_dtype = g_strdup ("BF16");
  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  s.context = 8192;
  s.engine = HR_ENGINE_VLLM;

  /* ~1250 GiB of BF16 weights against 8 × 76 GiB usable: 3 nodes, rounded to 4. */
  g_assert_true (hr_launch_plan (&s, 8, &plan));
  g_assert_cmpint (plan.nodes, ==, 4);
  g_assert_cmpint (plan.gpus_per_node, ==, 8);
  g_assert_cmpint (plan.tensor_parallel, ==, 8);
  g_assert_cmpint (plan.pipeline_parallel, ==, 4);

  g_assert_true (hr_estimate_compute (&s, NULL, &est, &error));
  g_assert_no_error (error);
  cmds = hr_launch_commands (&s, &est);

  c = find_command (cmds, HR_ENGINE_VLLM, "nodes");
  g_assert_nonnull (c);
  g_assert_cmpstr (c->title, ==, "vLLM — 4 nodes × 8 GPUs (Ray, TP 8 × PP 4)");
  vllm = hr_launch_command_one_line (c);
  g_assert_cmpstr (vllm, ==,
                   "# node 0 (head)\n"
                   "ray start --head --port=6379\n"
                   "# every other node\n"
                   "ray start --address=HEAD_IP:6379\n"
                   "# then on the head node, once `ray status` shows every GPU\n"
                   "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 "
                   "--pipeline-parallel-size 4 --distributed-executor-backend ray "
                   "--max-model-len 8192 --gpu-memory-utilization 0.90");
  /* the BF16 checkpoint is loaded as such: no note about another one */
  g_assert_true (c->note == NULL || strstr (c->note, "checkpoint") == NULL);

  c = find_command (cmds, HR_ENGINE_SGLANG, "nodes");
  g_assert_nonnull (c);
  for (int rank = 0; rank < 4; rank++)
    {
      g_autofree char *want = g_strdup_printf ("--tp 32 --nnodes 4 --node-rank %d "
                                               "--dist-init-addr HEAD_IP:5000", rank);
      g_autofree char *flat = hr_launch_command_one_line (c);
      g_assert_nonnull (strstr (flat, want));
    }

  c = find_command (cmds, HR_ENGINE_LLAMA_CPP, "RPC");
  g_assert_nonnull (c);
  rpc = hr_launch_command_one_line (c);
  g_assert_cmpstr (rpc, ==,
                   "# on each of the 3 worker nodes (host1 … host3)\n"
                   "rpc-server -H 0.0.0.0 -p 50052\n"
                   "# on the head node\n"
                   "llama-server -hf unsloth/DeepSeek-V3-GGUF:BF16 --ctx-size 8192 -ngl 999 "
                   "--flash-attn on --rpc host1:50052,host2:50052,host3:50052 "
                   "--jinja --host 0.0.0.0 --port 8080");
}

static void
test_plan_fp8 (void)
{
  g_autoptr(HrModel) ds = make_deepseek_v3 ();
  g_autoptr(HrModel) kimi = make_kimi_k2 ();
  g_autoptr(HrGpu) gpu = make_h100 ();
  HrParallelPlan plan = { 0, };
  HrScenario s;

  /* DeepSeek-V3 FP8: ~640 GiB does not fit 8 × 76 GiB, two nodes do. */
  hr_scenario_init (&s, ds, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_launch_plan (&s, 8, &plan));
  g_assert_cmpint (plan.nodes, ==, 2);
  g_assert_cmpint (plan.pipeline_parallel, ==, 2);

  /* Kimi K2 FP8: ~1 TB. */
  hr_scenario_init (&s, kimi, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.engine = HR_ENGINE_VLLM;
  g_assert_true (hr_launch_plan (&s, 8, &plan));
  g_assert_cmpint (plan.nodes, ==, 2);
  g_assert_cmpint (plan.tensor_parallel, ==, 8);

  /* Kimi K2 BF16 (~1.9 TiB) would take 4 nodes, but no BF16 checkpoint of it is known: vLLM
   * serves the official FP8 one, which the plan sizes (2 nodes; 4 before). */
  g_strlcpy (s.quant, "BF16", sizeof s.quant);
  g_assert_true (hr_launch_plan (&s, 8, &plan));
  g_assert_cmpint (plan.nodes, ==, 2);
  kimi->native_dtype = (g_free (kimi->native_dtype), g_strdup ("BF16"));
  g_assert_true (hr_launch_plan (&s, 8, &plan));
  g_assert_cmpint (plan.nodes, ==, 4);
}

static void
test_fp8_native (void)
{
  g_autoptr(HrModel) m = make_deepseek_v3 ();
  g_autoptr(HrGpu) gpu = make_gpu ("h200", "H200 141GB", 141, 4800, 989.4);
  g_autoptr(GPtrArray) cmds = NULL;
  g_autofree char *vllm = NULL;
  HrScenario s;
  HrEstimate est;

  /* The FP8 checkpoint loads as it is: no --quantization. */
  hr_scenario_init (&s, m, gpu);
  g_strlcpy (s.quant, "FP8", sizeof s.quant);
  s.n_gpus = 8;
  s.context = 16384;
  estimate_fits (&est);
  cmds = hr_launch_commands (&s, &est);
  vllm = one_line (cmds, HR_ENGINE_VLLM, NULL);
  g_assert_cmpstr (vllm, ==,
                   "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 "
                   "--max-model-len 16384 --gpu-memory-utilization 0.90");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/launch/llama-cpp/seed", test_seed_llama_cpp);
  g_test_add_func ("/launch/llama-cpp/options", test_llama_cpp_options);
  g_test_add_func ("/launch/llama-cpp/no-gguf-repo", test_no_gguf_repo);
  g_test_add_func ("/launch/vllm/seed", test_seed_vllm);
  g_test_add_func ("/launch/vllm/fp8-native", test_fp8_native);
  g_test_add_func ("/launch/vllm/no-offload-flag", test_no_offload_flag);
  g_test_add_func ("/launch/mmproj-flags", test_mmproj_flags);
  g_test_add_func ("/launch/fp8-kv", test_fp8_kv);
  g_test_add_func ("/launch/enforce-eager", test_enforce_eager);
  g_test_add_func ("/launch/ollama", test_ollama);
  g_test_add_func ("/launch/mlx", test_mlx);
  g_test_add_func ("/launch/quote/words", test_quoting);
  g_test_add_func ("/launch/quote/commands", test_quoting_in_commands);
  g_test_add_func ("/launch/plan/single-node", test_plan_single_node);
  g_test_add_func ("/launch/plan/deepseek-v3-bf16", test_plan_deepseek_bf16);
  g_test_add_func ("/launch/plan/fp8", test_plan_fp8);

  return g_test_run ();
}
