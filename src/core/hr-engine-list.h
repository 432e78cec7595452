/* hr-engine-list.h — the engine table: one HR_ENGINE_ENTRY per engine, in display order.
 *
 * Every engine list is filled from these lines: the HrEngine enum, hr_engine_info(), the CLI's
 * --engine parsing and help, the GUI's engine combo rows, the launch builders
 * (hr_launch_commands) and the tests.  This file has no include guard on purpose: each user
 * defines HR_ENGINE_ENTRY to take the fields it needs, includes it, and undefines it.
 *
 *   HR_ENGINE_ENTRY (ENUM, id, display name, family, loads, kv types, launch builder)
 *
 * ENUM     the HR_ENGINE_ENUM value's suffix
 * id       what --engine, GSettings and JSON say
 * family   HR_ENGINE_FAMILY_*: how the estimate accounts its memory (hr-estimate.c) and which
 *          calibration constants it uses (llama-like: hr-calibration.c's backend fits;
 *          server-like: the vLLM/SGLang profile-run constants in hr-estimate.c)
 * loads    HR_QUANT_FORMAT_BIT()s of the quant formats it loads (advice suggests only these;
 *          data/quants.json's "engines" column must agree, tests/test-engine.c checks)
 * kv types HR_KV_BIT()s of the KV-cache types it has (others map to the nearest, with a note)
 * builder  HrLaunchCommand *builder (const HrLaunchCtx *c, const HrParallelPlan *plan): its
 *          command, or with @plan its multi-node command; NULL where it does not run
 *          (src/core/hr-launch-*.c)
 */

HR_ENGINE_ENTRY (LLAMA_CPP, "llama.cpp", "llama.cpp", HR_ENGINE_FAMILY_LLAMA,
                 HR_LOADS_GGUF_FILES, HR_KV_GGML_TYPES, hr_launch_llama_cpp)
HR_ENGINE_ENTRY (VLLM, "vllm", "vLLM", HR_ENGINE_FAMILY_SERVER,
                 HR_LOADS_CHECKPOINTS, HR_KV_FP8_TYPES, hr_launch_vllm)
HR_ENGINE_ENTRY (SGLANG, "sglang", "SGLang", HR_ENGINE_FAMILY_SERVER,
                 HR_LOADS_CHECKPOINTS, HR_KV_FP8_TYPES, hr_launch_sglang)
HR_ENGINE_ENTRY (OLLAMA, "ollama", "Ollama", HR_ENGINE_FAMILY_LLAMA,
                 HR_LOADS_GGUF_FILES, HR_KV_GGML_TYPES, hr_launch_ollama)
HR_ENGINE_ENTRY (MLX, "mlx", "MLX", HR_ENGINE_FAMILY_MLX,
                 HR_QUANT_FORMAT_BIT (HR_QUANT_FORMAT_FLOAT), HR_KV_GGML_TYPES, hr_launch_mlx)
