#!/usr/bin/env python3
# make-catalogs.py — build data/models.json, data/gpus.json and data/quants.json
#
# Reads the reference fact tables (model_specs.csv, gpu_specs.csv, quant_types.csv,
# quant_ftype_mixes.csv, gguf_sizes_dev.csv) and writes the bundled catalogs in the format of
# data/CATALOG-FORMAT.md.  Python 3 standard library only; the output is deterministic (same
# input, same bytes) and checked in, so the build never runs this script.
#
#   build-aux/make-catalogs.py [--reference DIR] [--out DIR]
#
# Rules followed here: every number comes from a reference row (or a seed sizing page the
# user supplied, or a derivation written next to it); a blank cell stays null.  Where a row
# needs interpretation the override lives in one of the tables below, with the reason.
#
# ---------------------------------------------------------------------------------------------
# Reference rows LEFT OUT, and why
#
# model_specs.csv (75 rows, 70 kept):
#   * Qwen3.8 27B           — only existence and a parameter count; no config seen, no dims.
#   * Qwen3.8 2.4T-A95B     — only name, parameter count and context; no architecture at all.
#   * Qwen3.5 9B            — dims known but the Gated DeltaNet head counts (hence the
#                             recurrent state) and the layer split are not sourced.
#   * Nemotron 3 Nano 4B    — hybrid Mamba-2 block pattern and Mamba dims not captured.
#   * Cohere Command A      — no layer count, hidden size or head counts anywhere reachable.
#
# model_specs.csv rows KEPT with an interpretation (see MODEL_OVERRIDES):
#   * GLM-4.5-Air total 110.47 B (the user's seed sizing page; card headline is 106 B) and its
#     measured GGUF sizes from the seed page's quantization matrix.
#   * Qwen3.5 0.8B — layer_types ([L,L,L,F] x 6) and GDN heads (16 key / 16 value, dim 128,
#     conv 4) from copies of its config.json in public test fixtures; state by vLLM shapes.
#   * Qwen3.5 4B — GDN 16 key / 32 value heads from the 4B-shaped fixture the CSV notes cite,
#     full_attention_interval 4 as in every other Qwen3.5 config (confidence "inferred").
#   * Kimi-Dev 72B — a fine-tune of Qwen2.5-72B (per its card): dims of the Qwen2.5-72B row,
#     the CSV's own "inferred" meaning (numbers borrowed from the parent architecture).
#   * DeepSeek V4 Flash / Pro — compressed attention written as MLA groups whose k_dim is the
#     per-token average: a layer with compress ratio r stores one 512-wide latent every r
#     tokens (512/r per token), CSA (r = 4) layers also an indexer key of 128 every 4 tokens
#     ((512+128)/4 = 160); HCA (r = 128) layers 512/128 = 4; ratio-0 layers keep only the
#     128-token sliding window.  Check: V4 Pro 30x160 + 31x4 elements x 2 B = 9,848 B/token =
#     9.62 GiB per 2^20 tokens, the figure DeepSeek's release notes give.  The 128-token window
#     kept beside the compressed layers (~128 KiB per layer) is left out.
#
# gpu_specs.csv (69 rows, 66 kept):
#   * Apple M3 Ultra, Apple M4 Pro, Apple M4 Max (chip rows) — the same hardware and numbers as
#     the machine rows "Mac Studio M3 Ultra 512GB", "Mac mini M4 Pro 64GB" and "MacBook Pro 16
#     M4 Max 128GB", which also carry price notes; one entry each avoids duplicate answers.
#   * There is no "Mac Studio M4 Ultra": it does not exist (gpu_specs.md section 8).
#
# Accelerators with no CSV row (EXTRA_GPUS, 13): RTX 3070, 3080 Ti, 3090 Ti, 4070 Ti, 4080, RTX
# 4000 Ada, RTX 5000 Ada, A100 80GB PCIe, H100 PCIe, H100 NVL, Radeon RX 7900 XT, Radeon PRO
# W7900, Radeon RX 9070 XT, each with its sources and derivations in its entry.  Apple machines
# get gpu_cores from APPLE_GPU_CORES (the top bin of the CSV's "lower/top" column unless the
# memory size fixes the bin), with the reason appended to the entry's source.
#
# Measured GGUF sizes beyond gguf_sizes_dev.csv (MEASURED_SIZES): public file listings for
# Qwen3 30B-A3B, gpt-oss-20b/120b, Llama 3.3 70B, DeepSeek R1 and V3, each size with its listing.
#
# quant_ftype_mixes.csv: F32 (not a quantization anyone sizes for) and TQ1_0/TQ2_0 (ternary
# mixes, only meaningful for ternary-trained models) are left out of the mixes.
# gguf_sizes_dev.csv: only rows that name a catalog model are used (Llama 3.1 8B/70B/405B,
# Llama 3.2 3B, Hunyuan A13B, Kimi K2); rows for Llama 1/2/3, Mistral 7B, Qwen2.5 7B/14B,
# Command R+, TinyLlama, CodeLlama, Ling-flash and Hermes-3 (a fine-tune) are other models.
# "Original size (likely F32)" rows are skipped: their dtype is a guess.
# ---------------------------------------------------------------------------------------------

import argparse
import csv
import json
import os
import re
import sys

GIB = 1 << 30

# ---------------------------------------------------------------------------------------------
# Models

SEED_SOURCE = "seed sizing page (unsloth/GLM-4.5-Air-GGUF file listing)"

# csv name -> id, display name, family, vendor, gguf repo (only where well known).
MODEL_META = {
    "Qwen3 0.6B": ("qwen3-0.6b", "Qwen3 0.6B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-0.6B-GGUF"),
    "Qwen3 1.7B": ("qwen3-1.7b", "Qwen3 1.7B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-1.7B-GGUF"),
    "Qwen3 4B": ("qwen3-4b", "Qwen3 4B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-4B-GGUF"),
    "Qwen3 8B": ("qwen3-8b", "Qwen3 8B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-8B-GGUF"),
    "Qwen3 14B": ("qwen3-14b", "Qwen3 14B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-14B-GGUF"),
    "Qwen3 32B": ("qwen3-32b", "Qwen3 32B", "Qwen3", "Alibaba Qwen", "unsloth/Qwen3-32B-GGUF"),
    "Qwen3 30B-A3B": ("qwen3-30b-a3b", "Qwen3 30B-A3B", "Qwen3", "Alibaba Qwen",
                      "unsloth/Qwen3-30B-A3B-GGUF"),
    "Qwen3 235B-A22B": ("qwen3-235b-a22b", "Qwen3 235B-A22B", "Qwen3", "Alibaba Qwen",
                        "unsloth/Qwen3-235B-A22B-GGUF"),
    "Qwen3 Coder 480B-A35B": ("qwen3-coder-480b-a35b", "Qwen3 Coder 480B-A35B", "Qwen3-Coder",
                              "Alibaba Qwen", "unsloth/Qwen3-Coder-480B-A35B-Instruct-GGUF"),
    "Qwen3 Coder 30B-A3B": ("qwen3-coder-30b-a3b", "Qwen3 Coder 30B-A3B", "Qwen3-Coder",
                            "Alibaba Qwen", "unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF"),
    "Qwen3-Next 80B-A3B": ("qwen3-next-80b-a3b", "Qwen3-Next 80B-A3B", "Qwen3-Next",
                           "Alibaba Qwen", "unsloth/Qwen3-Next-80B-A3B-Instruct-GGUF"),
    "Qwen3.5 0.8B": ("qwen3.5-0.8b", "Qwen3.5 0.8B", "Qwen3.5", "Alibaba Qwen",
                     "unsloth/Qwen3.5-0.8B-GGUF"),
    "Qwen3.5 4B": ("qwen3.5-4b", "Qwen3.5 4B", "Qwen3.5", "Alibaba Qwen", None),
    "Qwen3.5 27B": ("qwen3.5-27b", "Qwen3.5 27B", "Qwen3.5", "Alibaba Qwen", None),
    "Qwen3.5 35B-A3B": ("qwen3.5-35b-a3b", "Qwen3.5 35B-A3B", "Qwen3.5", "Alibaba Qwen",
                        "unsloth/Qwen3.5-35B-A3B-GGUF"),
    "Qwen3.5 122B-A10B": ("qwen3.5-122b-a10b", "Qwen3.5 122B-A10B", "Qwen3.5", "Alibaba Qwen",
                          "unsloth/Qwen3.5-122B-A10B-GGUF"),
    "Qwen3.5 397B-A17B": ("qwen3.5-397b-a17b", "Qwen3.5 397B-A17B", "Qwen3.5", "Alibaba Qwen",
                          None),
    "Qwen3.6 27B": ("qwen3.6-27b", "Qwen3.6 27B", "Qwen3.6", "Alibaba Qwen", None),
    "Qwen3.6 35B-A3B": ("qwen3.6-35b-a3b", "Qwen3.6 35B-A3B", "Qwen3.6", "Alibaba Qwen",
                        "unsloth/Qwen3.6-35B-A3B-GGUF"),
    "Qwen2.5 72B (Instruct)": ("qwen2.5-72b", "Qwen2.5 72B Instruct", "Qwen2.5", "Alibaba Qwen",
                               None),
    "Qwen2.5 Coder 32B (Instruct)": ("qwen2.5-coder-32b", "Qwen2.5 Coder 32B Instruct",
                                     "Qwen2.5", "Alibaba Qwen",
                                     "unsloth/Qwen2.5-Coder-32B-Instruct-GGUF"),
    "QwQ 32B": ("qwq-32b", "QwQ 32B", "Qwen2.5", "Alibaba Qwen", "unsloth/QwQ-32B-GGUF"),
    "DeepSeek R1 Distill Qwen 32B": ("deepseek-r1-distill-qwen-32b",
                                     "DeepSeek R1 Distill Qwen 32B", "DeepSeek R1 Distill",
                                     "DeepSeek", "unsloth/DeepSeek-R1-Distill-Qwen-32B-GGUF"),
    "DeepSeek R1 Distill Qwen 14B": ("deepseek-r1-distill-qwen-14b",
                                     "DeepSeek R1 Distill Qwen 14B", "DeepSeek R1 Distill",
                                     "DeepSeek", "unsloth/DeepSeek-R1-Distill-Qwen-14B-GGUF"),
    "DeepSeek R1 Distill Llama 8B": ("deepseek-r1-distill-llama-8b",
                                     "DeepSeek R1 Distill Llama 8B", "DeepSeek R1 Distill",
                                     "DeepSeek", "unsloth/DeepSeek-R1-Distill-Llama-8B-GGUF"),
    "DeepSeek R1 Distill Llama 70B": ("deepseek-r1-distill-llama-70b",
                                      "DeepSeek R1 Distill Llama 70B", "DeepSeek R1 Distill",
                                      "DeepSeek", "unsloth/DeepSeek-R1-Distill-Llama-70B-GGUF"),
    "Kimi-Dev 72B": ("kimi-dev-72b", "Kimi-Dev 72B", "Kimi", "Moonshot AI", None),
    "DeepSeek V3": ("deepseek-v3", "DeepSeek V3 671B", "DeepSeek V3", "DeepSeek",
                    "unsloth/DeepSeek-V3-GGUF"),
    "DeepSeek R1 (671B)": ("deepseek-r1", "DeepSeek R1 671B", "DeepSeek R1", "DeepSeek",
                           "unsloth/DeepSeek-R1-GGUF"),
    "DeepSeek V3.2": ("deepseek-v3.2", "DeepSeek V3.2 685B", "DeepSeek V3", "DeepSeek",
                      "unsloth/DeepSeek-V3.2-GGUF"),
    "DeepSeek V4 Flash": ("deepseek-v4-flash", "DeepSeek V4 Flash", "DeepSeek V4", "DeepSeek",
                          None),
    "DeepSeek V4 Pro": ("deepseek-v4-pro", "DeepSeek V4 Pro", "DeepSeek V4", "DeepSeek", None),
    "gpt-oss-20b": ("gpt-oss-20b", "gpt-oss-20b", "gpt-oss", "OpenAI", "unsloth/gpt-oss-20b-GGUF"),
    "gpt-oss-120b": ("gpt-oss-120b", "gpt-oss-120b", "gpt-oss", "OpenAI",
                     "unsloth/gpt-oss-120b-GGUF"),
    "Gemma 3 4B": ("gemma-3-4b", "Gemma 3 4B IT", "Gemma 3", "Google", "unsloth/gemma-3-4b-it-GGUF"),
    "Gemma 3 12B": ("gemma-3-12b", "Gemma 3 12B IT", "Gemma 3", "Google",
                    "unsloth/gemma-3-12b-it-GGUF"),
    "Gemma 3 27B": ("gemma-3-27b", "Gemma 3 27B IT", "Gemma 3", "Google",
                    "unsloth/gemma-3-27b-it-GGUF"),
    "Gemma 4 26B-A4B": ("gemma-4-26b-a4b", "Gemma 4 26B-A4B IT", "Gemma 4", "Google", None),
    "Gemma 4 31B": ("gemma-4-31b", "Gemma 4 31B IT", "Gemma 4", "Google",
                    "unsloth/gemma-4-31B-it-GGUF"),
    "GLM-4.5": ("glm-4.5", "GLM-4.5 (355B-A32B)", "GLM", "Z.ai", "unsloth/GLM-4.5-GGUF"),
    "GLM-4.5-Air": ("glm-4.5-air", "GLM-4.5-Air (110B-A12B)", "GLM", "Z.ai",
                    "unsloth/GLM-4.5-Air-GGUF"),
    "GLM-4 32B-0414": ("glm-4-32b-0414", "GLM-4 32B-0414", "GLM", "Z.ai",
                       "unsloth/GLM-4-32B-0414-GGUF"),
    "GLM-5": ("glm-5", "GLM-5 (744B)", "GLM", "Z.ai", "unsloth/GLM-5-GGUF"),
    "Kimi K2": ("kimi-k2", "Kimi K2 Instruct (1T-A32B)", "Kimi", "Moonshot AI",
                "unsloth/Kimi-K2-Instruct-GGUF"),
    "MiniMax M2.5": ("minimax-m2.5", "MiniMax M2.5 (229B-A10B)", "MiniMax", "MiniMax",
                     "unsloth/MiniMax-M2.5-GGUF"),
    "MiniMax M2": ("minimax-m2", "MiniMax M2 (229B-A10B)", "MiniMax", "MiniMax",
                   "unsloth/MiniMax-M2-GGUF"),
    "Step-3": ("step-3", "Step-3 (321B)", "Step", "StepFun", None),
    "Step-3.5 Flash": ("step-3.5-flash", "Step-3.5 Flash (196B-A11B)", "Step", "StepFun", None),
    "ERNIE 4.5 300B-A47B": ("ernie-4.5-300b-a47b", "ERNIE 4.5 300B-A47B (文心)", "ERNIE 4.5",
                            "Baidu", None),
    "ERNIE 4.5 21B-A3B": ("ernie-4.5-21b-a3b", "ERNIE 4.5 21B-A3B (文心)", "ERNIE 4.5", "Baidu",
                          "unsloth/ERNIE-4.5-21B-A3B-PT-GGUF"),
    "Hunyuan A13B": ("hunyuan-a13b", "Hunyuan A13B Instruct (混元 80B)", "Hunyuan", "Tencent",
                     "unsloth/Hunyuan-A13B-Instruct-GGUF"),
    "MiniCPM 4.1 8B": ("minicpm-4.1-8b", "MiniCPM 4.1 8B (面壁)", "MiniCPM", "OpenBMB", None),
    "Llama 3.1 8B": ("llama-3.1-8b", "Llama 3.1 8B Instruct", "Llama 3", "Meta",
                     "unsloth/Llama-3.1-8B-Instruct-GGUF"),
    "Llama 3.1 70B": ("llama-3.1-70b", "Llama 3.1 70B Instruct", "Llama 3", "Meta", None),
    "Llama 3.1 405B": ("llama-3.1-405b", "Llama 3.1 405B Instruct", "Llama 3", "Meta", None),
    "Llama 3.2 3B": ("llama-3.2-3b", "Llama 3.2 3B Instruct", "Llama 3", "Meta",
                     "unsloth/Llama-3.2-3B-Instruct-GGUF"),
    "Llama 3.3 70B": ("llama-3.3-70b", "Llama 3.3 70B Instruct", "Llama 3", "Meta",
                      "unsloth/Llama-3.3-70B-Instruct-GGUF"),
    "Llama 4 Scout": ("llama-4-scout", "Llama 4 Scout 17B-16E (109B)", "Llama 4", "Meta",
                      "unsloth/Llama-4-Scout-17B-16E-Instruct-GGUF"),
    "Llama 4 Maverick": ("llama-4-maverick", "Llama 4 Maverick 17B-128E (400B)", "Llama 4",
                         "Meta", "unsloth/Llama-4-Maverick-17B-128E-Instruct-GGUF"),
    "Mistral Large 2 (123B)": ("mistral-large-2", "Mistral Large 2 123B (2407)", "Mistral",
                               "Mistral AI", None),
    "Mixtral 8x7B": ("mixtral-8x7b", "Mixtral 8x7B", "Mixtral", "Mistral AI", None),
    "Mixtral 8x22B": ("mixtral-8x22b", "Mixtral 8x22B", "Mixtral", "Mistral AI", None),
    "Mistral Small 3.2 24B": ("mistral-small-3.2-24b", "Mistral Small 3.2 24B", "Mistral",
                              "Mistral AI", "unsloth/Mistral-Small-3.2-24B-Instruct-2506-GGUF"),
    "Devstral Small (2505)": ("devstral-small-2505", "Devstral Small 24B (2505)", "Devstral",
                              "Mistral AI", "unsloth/Devstral-Small-2505-GGUF"),
    "Nemotron 3 Nano 30B-A3B": ("nemotron-3-nano-30b-a3b", "Nemotron 3 Nano 30B-A3B",
                                "Nemotron 3", "NVIDIA", "unsloth/Nemotron-3-Nano-30B-A3B-GGUF"),
    "Nemotron 3 Super 120B-A12B": ("nemotron-3-super-120b-a12b", "Nemotron 3 Super 120B-A12B",
                                   "Nemotron 3", "NVIDIA",
                                   "unsloth/Nemotron-3-Super-120B-A12B-GGUF"),
    "Nemotron 3 Ultra 550B-A55B": ("nemotron-3-ultra-550b-a55b", "Nemotron 3 Ultra 550B-A55B",
                                   "Nemotron 3", "NVIDIA", None),
    "Phi-4 14B": ("phi-4", "Phi-4 14B", "Phi", "Microsoft", "unsloth/phi-4-GGUF"),
    "Liquid LFM2 1.2B": ("lfm2-1.2b", "LFM2 1.2B", "LFM2", "Liquid AI", "LiquidAI/LFM2-1.2B-GGUF"),
    "Liquid LFM2 8B-A1B": ("lfm2-8b-a1b", "LFM2 8B-A1B", "LFM2", "Liquid AI",
                           "LiquidAI/LFM2-8B-A1B-GGUF"),
}

EXCLUDED_MODELS = {
    "Qwen3.8 27B": "no config seen: parameter count only",
    "Qwen3.8 2.4T-A95B": "no architecture at all",
    "Qwen3.5 9B": "Gated DeltaNet head counts and layer split not sourced",
    "Nemotron 3 Nano 4B": "Mamba-2 block pattern and dims not captured",
    "Cohere Command A (111B)": "no layer count, hidden size or head counts",
}

# Multi-token-prediction layers, where model_specs.csv/.md name them (section 3.7 and notes).
MTP_LAYERS = {
    "GLM-4.5": 1, "GLM-4.5-Air": 1, "GLM-5": 1,
    "DeepSeek V3": 1, "DeepSeek R1 (671B)": 1, "DeepSeek V3.2": 1,
    "MiniMax M2.5": 3, "MiniMax M2": 3, "Step-3.5 Flash": 3,
    "Nemotron 3 Super 120B-A12B": 1, "Nemotron 3 Ultra 550B-A55B": 1,
    "Qwen3.5 0.8B": 1, "Qwen3.5 27B": 1, "Qwen3.5 35B-A3B": 1, "Qwen3.5 122B-A10B": 1,
    "Qwen3.5 397B-A17B": 1, "Qwen3.6 27B": 1, "Qwen3.6 35B-A3B": 1,
}

# Leading dense-FFN layers of MoE models, read from the CSV's dense_layers descriptions.
DENSE_LAYERS = {
    # "layers not in moe_layers_enum (starts at 4)": layers 0-3 are dense.
    "Step-3": 4,
    # 24 dense FFN layers interleaved with 24 MoE layers (interleave_moe_layer_step=2); the
    # count is what sizing needs, not their position.
    "Llama 4 Maverick": 24,
}

# Gated DeltaNet recurrent state per layer with vLLM's shapes (model_specs.md section 3.5):
# conv (k*nk*2 + v*nv) x (kernel-1) x 2 B (bf16) + temporal nv x v x k x 4 B (fp32).
def gdn_state_bytes(nk, nv, k=128, v=128, kernel=4):
    return (k * nk * 2 + v * nv) * (kernel - 1) * 2 + nv * v * k * 4


MODEL_OVERRIDES = {
    "GLM-4.5-Air": {
        "total_params_b": 110.47,
        "license": "MIT",
        "source_extra": "total 110.47B (BF16 205.77 GiB) and licence MIT as the seed sizing "
                        "page states (card headline: 106B); measured GGUF sizes: " + SEED_SOURCE,
        "sizes": [
            ("Q8_0", 109.39), ("Q6_K", 92.21), ("Q5_K_M", 77.78), ("Q4_K_M", 67.96),
            ("IQ4_XS", 56.33), ("Q3_K_M", 53.28), ("UD-Q2_K_XL", 44.19),
        ],
    },
    "Qwen3.5 0.8B": {
        "arch": {"tie_embeddings": True},
        "kv_groups": [
            {"kind": "full", "layers": 6, "kv_heads": 2, "k_dim": 256, "v_dim": 256},
            {"kind": "recurrent", "layers": 18, "state_bytes": gdn_state_bytes(16, 16)},
        ],
        "arch_label": "Hybrid linear attention + GQA",
        "source_extra": "layer_types [linear x3, full] x 6 and Gated DeltaNet heads "
                        "(16 key / 16 value, dim 128, conv kernel 4) from copies of "
                        "https://huggingface.co/Qwen/Qwen3.5-0.8B/blob/main/config.json in public "
                        "test fixtures; recurrent state = vLLM gated_delta_net_state_shape, bf16 "
                        "conv + fp32 SSM (1,085,440 B/layer)",
    },
    "Qwen3.5 4B": {
        "confidence": "inferred",
        "kv_groups": [
            {"kind": "full", "layers": 8, "kv_heads": 4, "k_dim": 256, "v_dim": 256},
            {"kind": "recurrent", "layers": 24, "state_bytes": gdn_state_bytes(16, 32)},
        ],
        "arch_label": "Hybrid linear attention + GQA",
        "source_extra": "full_attention_interval 4 as in every other Qwen3.5 config (8 full, 24 "
                        "Gated DeltaNet); GDN 16 key / 32 value heads, dim 128 from the 4B-shaped "
                        "config fixture model_specs.csv cites; state by vLLM shapes "
                        "(2,146,304 B/layer)",
    },
    "Kimi-Dev 72B": {
        "confidence": "inferred",
        "inherit": "Qwen2.5 72B (Instruct)",
        "inherit_fields": ("num_hidden_layers", "hidden_size", "num_attention_heads",
                           "num_key_value_heads", "head_dim", "vocab_size",
                           "intermediate_size", "tie_word_embeddings"),
        "source_extra": "architecture of its base Qwen2.5-72B (card: fine-tune of Qwen2.5-72B); "
                        "own config.json not seen",
    },
    "DeepSeek V4 Flash": {
        "native_dtype": "FP4",
        "kv_groups": [
            {"kind": "sliding", "layers": 2, "kv_heads": 1, "k_dim": 512, "v_dim": 0,
             "window": 128},
            {"kind": "mla", "layers": 21, "kv_heads": 1, "k_dim": 160, "v_dim": 0},
            {"kind": "mla", "layers": 20, "kv_heads": 1, "k_dim": 4, "v_dim": 0},
        ],
        "arch_label": "MoE + compressed MLA (CSA/HCA)",
        "source_extra": "KV groups derived from compress_ratios (2 x 0, 21 x 4, 20 x 128): a "
                        "ratio-r layer stores one 512-wide latent per r tokens (CSA r=4 plus a "
                        "128-wide indexer key: (512+128)/4 = 160 per token; HCA r=128: 4 per "
                        "token); ratio-0 layers keep the 128-token window only",
    },
    "DeepSeek V4 Pro": {
        "native_dtype": "FP4",
        "kv_groups": [
            {"kind": "mla", "layers": 30, "kv_heads": 1, "k_dim": 160, "v_dim": 0},
            {"kind": "mla", "layers": 31, "kv_heads": 1, "k_dim": 4, "v_dim": 0},
        ],
        "arch_label": "MoE + compressed MLA (CSA/HCA)",
        "source_extra": "KV groups derived from compress_ratios (0 x 0, 30 x 4, 31 x 128): "
                        "(512+128)/4 = 160 and 512/128 = 4 elements per token; check: "
                        "9,848 B/token in BF16 = 9.62 GiB per 2^20 tokens, as DeepSeek's "
                        "release notes state",
    },
}

# Measured GGUF file sizes found in public file listings (whole file, all shards), each with
# where it was read.  Hugging Face file listings print decimal GB to three significant figures
# (sharded quants: the shards' listed sizes added up, so the sum carries their rounding);
# bartowski's README tables print decimal GB to two decimals; byte counts are exact.
def _gb(v):
    return int(round(v * 1e9))


_UNSLOTH_GPTOSS20 = ("https://huggingface.co/unsloth/gpt-oss-20b-GGUF/tree/main (file listing, "
                     "decimal GB to 3 significant figures; experts stay MXFP4 in every quant)")
_UNSLOTH_LLAMA33 = ("https://huggingface.co/unsloth/Llama-3.3-70B-Instruct-GGUF/tree/main "
                    "(file listing, decimal GB to 3 significant figures)")
_BARTOWSKI_Q3_30 = ("bartowski/Qwen_Qwen3-30B-A3B-GGUF README quant table (llama.cpp b5200), as "
                    "mirrored at https://model.aibase.com/zh/models/details/1924737621108723712 "
                    "(decimal GB to 2 decimals)")
MEASURED_SIZES = {
    "Qwen3 30B-A3B": [
        ("Q8_0", _gb(32.48), _BARTOWSKI_Q3_30 + ": 32.48GB"),
        ("Q6_K", _gb(25.10), _BARTOWSKI_Q3_30 + ": 25.10GB"),
        ("Q5_K_M", _gb(21.74), _BARTOWSKI_Q3_30 + ": 21.74GB"),
        ("Q4_K_M", 18556685824,
         "https://huggingface.co/Qwen/Qwen3-30B-A3B-GGUF/blob/dae61f032d7880e6effe712505db4de5d06d6549/Qwen3-30B-A3B-Q4_K_M.gguf "
         "(Qwen's own GGUF; 18,556,685,824 bytes, sha256 0d003f66...aa8f5, as pinned by "
         "third-party download code)"),
        ("Q3_K_S", 13292468800,
         "unsloth/Qwen3-30B-A3B-GGUF Qwen3-30B-A3B-Q3_K_S.gguf: 13,292,468,800 bytes as listed in "
         "https://github.com/docusealco/rllama/blob/e8baf3b91daf30b02e11fcc0ec0338ea87406a18/lib/rllama/cli.rb"),
    ],
    "gpt-oss-20b": [
        ("Q5_K_M", _gb(11.7), _UNSLOTH_GPTOSS20 + ": 11.7 GB"),
        ("Q4_K_M", _gb(11.6), _UNSLOTH_GPTOSS20 + ": 11.6 GB"),
        ("Q4_K_S", _gb(11.6), _UNSLOTH_GPTOSS20 + ": 11.6 GB"),
        ("Q4_1", _gb(11.6), _UNSLOTH_GPTOSS20 + ": 11.6 GB"),
        ("Q4_0", _gb(11.5), _UNSLOTH_GPTOSS20 + ": 11.5 GB"),
        ("Q3_K_M", _gb(11.5), _UNSLOTH_GPTOSS20 + ": 11.5 GB"),
        ("Q3_K_S", _gb(11.5), _UNSLOTH_GPTOSS20 + ": 11.5 GB"),
        ("Q2_K", _gb(11.5), _UNSLOTH_GPTOSS20 + ": 11.5 GB"),
    ],
    "gpt-oss-120b": [
        ("Q4_K_M", _gb(62.8),
         "https://huggingface.co/unsloth/gpt-oss-120b-GGUF/tree/main/Q4_K_M (folder total 62.8 GB; "
         "shards 49.6 + 13.1 GB; experts stay MXFP4)"),
    ],
    "Llama 3.3 70B": [
        ("Q8_0", _gb(39.8 + 35.2),
         "https://huggingface.co/unsloth/Llama-3.3-70B-Instruct-GGUF/tree/0c14ebbedd129fb190c8241facca9a360e81c650/Llama-3.3-70B-Instruct-Q8_0 "
         "(2 shards 39.8 + 35.2 GB)"),
        ("Q6_K", _gb(29.9 + 28.0),
         "https://huggingface.co/unsloth/Llama-3.3-70B-Instruct-GGUF/tree/main/Llama-3.3-70B-Instruct-Q6_K "
         "(2 shards 29.9 + 28 GB)"),
        ("Q5_K_M", _gb(49.9), _UNSLOTH_LLAMA33 + ": 49.9 GB"),
        ("Q4_K_M", _gb(42.5), _UNSLOTH_LLAMA33 + ": 42.5 GB"),
        ("Q3_K_M", _gb(34.3), _UNSLOTH_LLAMA33 + ": 34.3 GB"),
        ("Q2_K", _gb(26.4), _UNSLOTH_LLAMA33 + ": 26.4 GB"),
    ],
    "DeepSeek R1 (671B)": [
        ("UD-Q2_K_XL", _gb(49.8 + 50 + 50 + 50 + 26.8),
         "https://huggingface.co/unsloth/DeepSeek-R1-GGUF/tree/main/DeepSeek-R1-UD-Q2_K_XL "
         "(5 shards 49.8 + 50 + 50 + 50 + 26.8 GB; folder total shown 227 GB)"),
        ("Q3_K_M", _gb(49.7 + 5 * 49.2 + 23.5),
         "https://huggingface.co/unsloth/DeepSeek-R1-GGUF/tree/main/DeepSeek-R1-Q3_K_M "
         "(7 shards 49.7 + 5 x 49.2 + 23.5 GB)"),
        ("Q2_K", _gb(49.4 + 48.5 + 48.8 + 48.9 + 48.4),
         "https://huggingface.co/unsloth/DeepSeek-R1-GGUF/tree/c0b62655828773045c01381123e6bb85fe228ce2/DeepSeek-R1-Q2_K "
         "(5 shards 49.4 + 48.5 + 48.8 + 48.9 + 48.4 GB)"),
    ],
    "DeepSeek V3": [
        ("Q5_K_M", _gb(49.6 + 7 * 48.5 + 50 + 36.3),
         "https://huggingface.co/unsloth/DeepSeek-V3-GGUF/tree/main/DeepSeek-V3-Q5_K_M "
         "(10 shards 49.6 + 7 x 48.5 + 50 + 36.3 GB)"),
    ],
}


# Measured file sizes from gguf_sizes_dev.csv: (csv model, how_measured substring) -> catalog
# name.  A row without a match is another model.
SIZE_ROWS = [
    # llama.cpp tools/quantize/README.md table for meta-llama/Llama-3.1-8B (llama-bench size).
    ("meta-llama/Llama-3.1-8B", "README quantization table", "Llama 3.1 8B"),
    ("Llama 3.1 70B", "Quantized size", "Llama 3.1 70B"),
    ("Llama 3.1 405B", "Quantized size", "Llama 3.1 405B"),
    ("Meta Llama 3.1 70B Instruct (Ollama)", "load log", "Llama 3.1 70B"),
    ("Llama-3.2-3B-Instruct (bartowski)", "llama-bench", "Llama 3.2 3B"),
    ("hunyuan-moe A13B", "llama-bench", "Hunyuan A13B"),
    ("Kimi-K2 UD-Q4_K_XL (unsloth, 13-14 files)", "config size hint", "Kimi K2"),
    ("Llama-3/3.1-8B class (inferred)", "index metadata", "Llama 3.1 8B"),
]

UNIT_BYTES = {"GiB": GIB, "GB": 10 ** 9, "bytes": 1}


def blank(v):
    return v is None or v.strip() == ""


def num(v):
    if blank(v):
        return None
    f = float(v.replace(",", ""))
    return int(f) if f == int(f) and "." not in v else f


def intval(v):
    if blank(v):
        return None
    m = re.match(r"^\s*(\d+)\s*$", v)
    return int(m.group(1)) if m else None


def boolval(v):
    if blank(v):
        return None
    return v.strip().lower() == "true"


def leading_int(v):
    if blank(v):
        return None
    m = re.match(r"^\s*(\d+)\b", v)
    return int(m.group(1)) if m else None


def short_license(v):
    if blank(v):
        return None
    return re.sub(r"\s*\(.*\)\s*$", "", v.strip())


def native_dtype(v):
    if blank(v):
        return None
    m = re.match(r"^\s*(BF16|FP8|MXFP4|FP4|F16)\b", v)
    return m.group(1) if m else None


def size_unit_bytes(value, unit):
    unit = unit.strip()
    for key, factor in UNIT_BYTES.items():
        if unit.startswith(key):
            return int(round(value * factor))
    raise ValueError("unknown unit %r" % unit)


def load_sizes(path):
    """Measured sizes per catalog model name: list of (quant, bytes, source)."""
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for model, how, target in SIZE_ROWS:
                if row["model"] != model or how not in row["how_measured"]:
                    continue
                fmt = row["format"]
                quant = row["quant"].strip()
                if fmt.startswith("safetensors"):
                    quant = "BF16"
                elif fmt.startswith("original"):
                    continue
                quant = quant.upper() if not quant.startswith("UD-") else quant
                value = float(row["size_value"].replace(",", ""))
                nbytes = size_unit_bytes(value, row["size_unit"])
                src = "%s (%s; %s %s)" % (row["source"].strip(), row["how_measured"].strip(),
                                          row["size_value"], row["size_unit"].strip())
                if row["notes"].strip():
                    src += "; " + row["notes"].strip()
                lst = out.setdefault(target, [])
                # One size per quant: the first (most precise, listed first) wins.
                if all(q != quant for q, _, _ in lst):
                    lst.append((quant, nbytes, src))
    return out


def arch_label(row, kinds, moe):
    kind = row["attention_kind"]
    if "mla" in kinds:
        return "MoE + MLA"
    if "recurrent" in kinds:
        if "Mamba" in kind:
            base = "hybrid Mamba-2 + GQA"
        elif "short conv" in kind:
            base = "hybrid short conv + GQA"
        else:
            base = "hybrid linear attention + GQA"
        return ("Sparse MoE + " + base) if moe else base[0].upper() + base[1:]
    if "chunked" in kinds:
        return "Sparse MoE + chunked attention + GQA" if moe else "Chunked attention + GQA"
    if "sliding" in kinds:
        return "Sparse MoE + sliding window GQA" if moe else "Sliding window + GQA"
    if kind.startswith("MFA"):
        return "Sparse MoE + MFA (1 KV head)"
    return "Sparse MoE + GQA" if moe else "Dense + GQA"


def kv_groups_for(row):
    """Derive kv_groups from the CSV row (model_specs.md section 3)."""
    name = row["name"]
    layers = intval(row["num_hidden_layers"])
    kv = intval(row["num_key_value_heads"])
    hd = intval(row["head_dim"])
    kind = row["attention_kind"]
    full = intval(row["kv_cache_layers"])
    windowed = intval(row["windowed_kv_layers"])
    recurrent = intval(row["recurrent_layers"])
    window = intval(row["sliding_window"])

    if kind.startswith("MLA"):
        k_dim = intval(row["kv_lora_rank"]) + intval(row["qk_rope_head_dim"])
        return [{"kind": "mla", "layers": layers, "kv_heads": 1, "k_dim": k_dim, "v_dim": 0}]
    if recurrent:
        state = int(row["recurrent_state_bytes_per_seq"])
        if state % recurrent:
            raise ValueError("%s: state %d not divisible by %d" % (name, state, recurrent))
        return [
            {"kind": "full", "layers": full, "kv_heads": kv, "k_dim": hd, "v_dim": hd},
            {"kind": "recurrent", "layers": recurrent, "state_bytes": state // recurrent},
        ]
    if name.startswith("Gemma 4"):
        # Global layers: num_global_key_value_heads x global_head_dim 512, K reused as V.
        m = re.search(r"full layers (\d+) \(every 6th, (\d+) KV heads x (\d+)\)",
                      row["layer_pattern"])
        return [
            {"kind": "sliding", "layers": windowed, "kv_heads": kv, "k_dim": hd, "v_dim": hd,
             "window": window},
            {"kind": "full", "layers": int(m.group(1)), "kv_heads": int(m.group(2)),
             "k_dim": int(m.group(3)), "v_dim": 0},
        ]
    if windowed and "chunk" in kind:
        m = re.search(r"attention_chunk_size (\d+)", row["layer_pattern"])
        return [
            {"kind": "full", "layers": full, "kv_heads": kv, "k_dim": hd, "v_dim": hd},
            {"kind": "chunked", "layers": windowed, "kv_heads": kv, "k_dim": hd, "v_dim": hd,
             "window": int(m.group(1))},
        ]
    if windowed:
        return [
            {"kind": "full", "layers": full, "kv_heads": kv, "k_dim": hd, "v_dim": hd},
            {"kind": "sliding", "layers": windowed, "kv_heads": kv, "k_dim": hd, "v_dim": hd,
             "window": window},
        ]
    return [{"kind": "full", "layers": full or layers, "kv_heads": kv, "k_dim": hd, "v_dim": hd}]


def check_kv(row, groups):
    """The groups must reproduce the CSV's derived bytes per token where it gives them."""
    per_tok = 0
    windowed = 0
    for g in groups:
        if g["kind"] == "recurrent":
            continue
        b = g["layers"] * g["kv_heads"] * (g["k_dim"] + g["v_dim"]) * 2
        if g["kind"] in ("full", "mla"):
            per_tok += b
        else:
            windowed += b
    want = intval(row["kv_bytes_per_token_bf16"])
    if row["name"].startswith("Gemma 4"):
        # The CSV's derived column stores K and V; with attention_k_eq_v one tensor is kept.
        per_tok *= 2
    if want is not None and want != per_tok:
        raise ValueError("%s: kv bytes/token %d != csv %d" % (row["name"], per_tok, want))
    want_w = intval(row["windowed_kv_bytes_per_token_bf16"])
    if want_w is not None and want_w != windowed:
        raise ValueError("%s: windowed kv %d != csv %d" % (row["name"], windowed, want_w))


def build_model(row, rows_by_name, sizes):
    name = row["name"]
    ov = MODEL_OVERRIDES.get(name, {})
    mid, display, family, vendor, gguf = MODEL_META[name]

    src_row = row
    if "inherit" in ov:
        parent = rows_by_name[ov["inherit"]]
        src_row = dict(row)
        for k in ov["inherit_fields"]:
            src_row[k] = parent[k]
        src_row["kv_cache_layers"] = parent["kv_cache_layers"]

    experts = intval(src_row["n_routed_experts"])
    moe = bool(experts)
    dense = DENSE_LAYERS.get(name)
    if dense is None and moe:
        dense = leading_int(src_row["dense_layers"])

    arch = {
        "layers": intval(src_row["num_hidden_layers"]),
        "hidden": intval(src_row["hidden_size"]),
        "heads": intval(src_row["num_attention_heads"]),
        "head_dim": intval(src_row["head_dim"]),
        "vocab": intval(src_row["vocab_size"]),
        "intermediate": intval(src_row["intermediate_size"]),
        "experts": experts,
        "experts_used": intval(src_row["num_experts_per_tok"]),
        "shared_experts": intval(src_row["n_shared_experts"]),
        "moe_intermediate": intval(src_row["moe_intermediate_size"]),
        "shared_intermediate": intval(src_row["shared_expert_intermediate_size"]),
        "dense_layers": dense,
        "q_lora_rank": intval(src_row["q_lora_rank"]),
        "kv_lora_rank": intval(src_row["kv_lora_rank"]),
        "qk_rope_dim": intval(src_row["qk_rope_head_dim"]),
        "qk_nope_dim": intval(src_row["qk_nope_head_dim"]),
        "v_head_dim": intval(src_row["v_head_dim"]),
        "mtp_layers": MTP_LAYERS.get(name),
        # Nemotron-H: blocks are single-purpose (M=Mamba-2, E=MoE FFN, *=attention); the FFN
        # blocks are the pattern's E characters (model_specs.csv layer_pattern).
        "ffn_layers": (src_row["layer_pattern"].split(":", 1)[1].count("E")
                       if "M=Mamba2" in src_row["layer_pattern"] else None),
        # Nemotron-H MLPs and experts are squared-ReLU (config "mlp_hidden_act": "relu2"):
        # up and down projections, no gate.
        "ffn_ungated": True if "M=Mamba2" in src_row["layer_pattern"] else None,
        "tie_embeddings": boolval(src_row["tie_word_embeddings"]),
    }
    if name.startswith("Gemma 4"):
        # Kernels a llama.cpp decode block runs beyond a llama block's (llama.cpp
        # src/models/gemma4-iswa.cpp; counted in src/core/hr-model.c,
        # hr_model_llama_extra_block_kernels): 11 with the MoE block, 2 without.
        arch["extra_block_kernels"] = 11 if moe else 2
    arch.update(ov.get("arch", {}))

    if "kv_groups" in ov:
        groups = ov["kv_groups"]
    else:
        groups = kv_groups_for(src_row)
        if "inherit" not in ov:
            check_kv(row, groups)
    kinds = {g["kind"] for g in groups}
    n_group_layers = sum(g["layers"] for g in groups)
    if n_group_layers > arch["layers"]:
        raise ValueError("%s: kv groups cover %d > %d layers" % (name, n_group_layers,
                                                                   arch["layers"]))

    total = ov.get("total_params_b", num(row["total_params_b"]))
    active = num(row["active_params_b"])
    licence = ov.get("license", short_license(row["license"]))

    source = row["sources"].strip()
    extras = []
    if row["license"].strip():
        extras.append("licence: " + row["license"].strip())
    if "source_extra" in ov:
        extras.append(ov["source_extra"])
    if extras:
        source += " ; " + " ; ".join(extras)

    model_sizes = []
    for quant, gib in ov.get("sizes", []):
        model_sizes.append({"quant": quant, "bytes": int(round(gib * GIB)), "source": SEED_SOURCE})
    for quant, nbytes, src in sizes.get(name, []):
        if all(s["quant"] != quant for s in model_sizes):
            model_sizes.append({"quant": quant, "bytes": nbytes, "source": src})
    for quant, nbytes, src in MEASURED_SIZES.get(name, []):
        if all(s["quant"] != quant for s in model_sizes):
            model_sizes.append({"quant": quant, "bytes": nbytes, "source": src})

    return {
        "id": mid,
        "name": display,
        "family": family,
        "vendor": vendor,
        "hf_repo": row["hf_repo"].strip(),
        "gguf_repo": gguf,
        "license": licence,
        "native_dtype": ov.get("native_dtype", native_dtype(row["native_dtype"])),
        "arch_label": ov.get("arch_label", arch_label(row, kinds, moe)),
        "total_params_b": total,
        "active_params_b": active,
        "max_context": intval(src_row["max_position_embeddings"]) if "inherit" not in ov
        else None,
        "arch": arch,
        "kv_groups": groups,
        "sizes": model_sizes,
        "confidence": ov.get("confidence", row["confidence"].strip()),
        "source": source,
    }


def build_models(ref):
    with open(os.path.join(ref, "model_specs.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    rows_by_name = {r["name"]: r for r in rows}
    sizes = load_sizes(os.path.join(ref, "gguf_sizes_dev.csv"))
    models = []
    for row in rows:
        if row["name"] in EXCLUDED_MODELS:
            continue
        if row["name"] not in MODEL_META:
            raise ValueError("model row %r has no metadata entry" % row["name"])
        models.append(build_model(row, rows_by_name, sizes))
    ids = [m["id"] for m in models]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate model ids")
    return models


# ---------------------------------------------------------------------------------------------
# GPUs

# csv name -> (id, display name as the seed pages list it).
GPU_META = {
    "RTX 3060 12GB": ("rtx-3060-12gb", "RTX 3060 12GB"),
    "RTX 4060 Ti 16GB": ("rtx-4060-ti-16gb", "RTX 4060 Ti 16GB"),
    "RTX 5060 Ti 16GB": ("rtx-5060-ti-16gb", "RTX 5060 Ti 16GB"),
    "RTX 4070 12GB": ("rtx-4070-12gb", "RTX 4070 12GB"),
    "RTX 4070 Ti Super": ("rtx-4070-ti-super-16gb", "RTX 4070 Ti Super 16GB"),
    "RTX 4080 Super": ("rtx-4080-super-16gb", "RTX 4080 Super 16GB"),
    "RTX 5070 12GB": ("rtx-5070-12gb", "RTX 5070 12GB"),
    "RTX 5070 Ti": ("rtx-5070-ti-16gb", "RTX 5070 Ti 16GB"),
    "RTX 5080": ("rtx-5080-16gb", "RTX 5080 16GB"),
    "RTX 3080 10GB": ("rtx-3080-10gb", "RTX 3080 10GB"),
    "RTX 3090": ("rtx-3090-24gb", "RTX 3090 24GB"),
    "RTX 4090": ("rtx-4090-24gb", "RTX 4090 24GB"),
    "RTX 4090 D": ("rtx-4090-d-24gb", "RTX 4090 D 24GB"),
    "RTX 5090": ("rtx-5090-32gb", "RTX 5090 32GB"),
    "RTX 5090 D": ("rtx-5090-d-32gb", "RTX 5090 D 32GB"),
    "RTX A6000 48GB": ("rtx-a6000-48gb", "RTX A6000 48GB"),
    "RTX 6000 Ada 48GB": ("rtx-6000-ada-48gb", "RTX 6000 Ada 48GB"),
    "RTX PRO 6000 Blackwell 96GB": ("rtx-pro-6000-blackwell-96gb", "RTX PRO 6000 Blackwell 96GB"),
    "DGX Spark (GB10 128GB)": ("dgx-spark-128gb", "DGX Spark (GB10 128GB)"),
    "T4": ("t4-16gb", "T4 16GB"),
    "V100 32GB (SXM2)": ("v100-32gb-sxm", "V100 32GB SXM2"),
    "L4 24GB": ("l4-24gb", "L4 24GB"),
    "A40 48GB": ("a40-48gb", "A40 48GB"),
    "L20 48GB": ("l20-48gb", "L20 48GB"),
    "L40S 48GB": ("l40s-48gb", "L40S 48GB"),
    "A100 40GB (SXM4)": ("a100-40gb-sxm", "A100 40GB SXM"),
    "A100 80GB (SXM4)": ("a100-80gb-sxm", "A100 80GB SXM"),
    "A800 80GB (SXM4)": ("a800-80gb-sxm", "A800 80GB SXM"),
    "H100 80GB (SXM5)": ("h100-80gb-sxm", "H100 80GB SXM"),
    "H800 80GB (SXM5)": ("h800-80gb-sxm", "H800 80GB SXM"),
    "H20 96GB HBM3": ("h20-96gb", "H20 96GB HBM3"),
    "H20 141GB HBM3e": ("h20-141gb", "H20 141GB HBM3e"),
    "H200 141GB (SXM)": ("h200-141gb", "H200 141GB SXM"),
    "B200 180GB (HGX)": ("b200-180gb", "B200 180GB"),
    "B300 288GB (HGX, Blackwell Ultra)": ("b300-288gb", "B300 288GB Blackwell Ultra"),
    "Ascend 910B 64GB": ("ascend-910b-64gb", "Ascend 910B 64GB (昇腾)"),
    "Ascend 910C 128GB": ("ascend-910c-128gb", "Ascend 910C 128GB (昇腾)"),
    "Atlas 300I Duo 96GB": ("atlas-300i-duo-96gb", "Atlas 300I Duo 96GB (310P)"),
    "Cambricon MLU590 80GB": ("mlu590-80gb", "MLU590 80GB (寒武纪思元)"),
    "Hygon DCU K100-AI 64GB": ("dcu-k100-ai-64gb", "DCU K100-AI 64GB (海光深算)"),
    "MetaX C500 64GB": ("metax-c500-64gb", "MetaX C500 64GB (沐曦曦云)"),
    "Kunlunxin P800 64GB": ("kunlunxin-p800-64gb", "Kunlunxin P800 64GB (昆仑芯)"),
    "Moore Threads MTT S4000 48GB": ("mtt-s4000-48gb", "MTT S4000 48GB (摩尔线程)"),
    "Radeon RX 7900 XTX 24GB": ("rx-7900-xtx-24gb", "Radeon RX 7900 XTX 24GB"),
    "Radeon AI PRO R9700 32GB": ("radeon-ai-pro-r9700-32gb", "Radeon AI PRO R9700 32GB"),
    "Ryzen AI Max+ 395 128GB (Strix Halo)": ("ryzen-ai-max-395-128gb",
                                             "Ryzen AI Max+ 395 128GB (Strix Halo)"),
    "Instinct MI300X 192GB": ("mi300x-192gb", "Instinct MI300X 192GB"),
    "Instinct MI325X 256GB": ("mi325x-256gb", "Instinct MI325X 256GB"),
    "Instinct MI355X 288GB": ("mi355x-288gb", "Instinct MI355X 288GB"),
    "Arc Pro B60 24GB": ("arc-pro-b60-24gb", "Arc Pro B60 24GB"),
    "Gaudi 3 128GB (OAM)": ("gaudi3-128gb", "Gaudi 3 128GB HBM2e"),
    "Mac mini M4 Pro 64GB": ("m4-pro-64gb", "Mac mini M4 Pro 64GB"),
    "MacBook Pro 16 M4 Max 128GB": ("m4-max-128gb", "MacBook Pro M4 Max 128GB"),
    "Mac Studio M3 Ultra 512GB": ("m3-ultra-512gb", "Mac Studio M3 Ultra 512GB"),
    "Apple M1": ("m1-16gb", "Apple M1 (16GB)"),
    "Apple M1 Pro": ("m1-pro-32gb", "Apple M1 Pro (32GB)"),
    "Apple M1 Max": ("m1-max-64gb", "Apple M1 Max (64GB)"),
    "Apple M1 Ultra": ("m1-ultra-128gb", "Apple M1 Ultra (128GB)"),
    "Apple M2": ("m2-24gb", "Apple M2 (24GB)"),
    "Apple M2 Pro": ("m2-pro-32gb", "Apple M2 Pro (32GB)"),
    "Apple M2 Max": ("m2-max-96gb", "Apple M2 Max (96GB)"),
    "Apple M2 Ultra": ("m2-ultra-192gb", "Apple M2 Ultra (192GB)"),
    "Apple M3": ("m3-24gb", "Apple M3 (24GB)"),
    "Apple M3 Pro": ("m3-pro-36gb", "Apple M3 Pro (36GB)"),
    "Apple M3 Max": ("m3-max-128gb", "Apple M3 Max (128GB)"),
    "Apple M4": ("m4-32gb", "Apple M4 (32GB)"),
}

# Chip rows that duplicate a machine row (same chip, same memory, same numbers).
EXCLUDED_GPUS = {
    "Apple M3 Ultra": "same as Mac Studio M3 Ultra 512GB",
    "Apple M4 Pro": "same as Mac mini M4 Pro 64GB",
    "Apple M4 Max": "same as MacBook Pro 16 M4 Max 128GB",
}

USED_MARKET = {"rtx-3090-24gb", "a100-40gb-sxm", "a100-80gb-sxm", "v100-32gb-sxm",
               "rtx-a6000-48gb"}

# Strix Halo: ~108 GB of 128 usable by the GPU on Linux (gpu_specs.md section 3).
STRIX_HALO_SHARE = 108.0 / 128.0

# Unified machines: what a public memory benchmark reached on the GPU (GB/s) and where it is
# published; the estimate's streaming ceiling for that machine (hr-estimate.c, lpddr_factor()).
# A machine without a measurement found (DGX Spark / GB10) is not listed and keeps the default.
MEASURED_BANDWIDTH = {
    "ryzen-ai-max-395-128gb": (
        212,
        "https://llm-tracker.info/_TOORG/Strix-Halo ; rocm_bandwidth_test on a Ryzen AI Max+ 395 "
        "(LPDDR5X-8000, 256-bit): \"about 212 GB/s peak bandwidth\", the author's r/LocalLLaMA "
        "post (mirror https://reddit.birdcat.cafe/r/MetaAI+LocalLlama), \"roughly in line with "
        "the max MBW tested by ThePhawx, jack stone, and others\""),
}


# Dense 16-bit matrix rates (TFLOPS, FP32 accumulate: the CSV column's convention) of CSV rows
# whose fp16_bf16_dense_tflops cell is blank, each with its source; a vendor figure where one
# was found, else a derivation from vendor-stated units, clock and per-unit rate.  AMD's RDNA
# matrix rates per clock and CU are in AMD GPUOpen's table
# (https://gpuopen.com/learn/using_matrix_core_amd_rdna4: FP16 256 / 512 / 1024 and INT8
# 512 / 512 / 2048 FLOPS/clock/CU on RDNA 2 / RDNA 3 / RDNA 4), which reproduces the catalog's
# RDNA 3 figures (RX 7900 XTX: 96 CU x 512 x 2.5 GHz = 122.9).
TENSOR_RATES = {
    "radeon-ai-pro-r9700-32gb": (
        191,
        "AMD product page (https://www.amd.com/en/products/graphics/workstations/radeon-ai-pro/"
        "ai-9000-series/amd-radeon-ai-pro-r9700.html) as transcribed in "
        "https://github.com/d893a/local-ml-models/blob/9af4a8af86bc17dd20723f96afa0fda77f21583a/"
        "local_ml_hardware_alternatives.md : \"Peak Half Precision (FP16 Matrix) Performance: "
        "191 TFLOPs\" (383 with structured sparsity; FP16 vector 95.7, FP32 vector 47.8; INT8 "
        "matrix 383 TOPs dense, 766 with sparsity; INT4 1531 with sparsity); agrees with 64 CU x "
        "1024 FP16 FLOPS/clock/CU (GPUOpen, RDNA 4) x 2.92 GHz = 191.4"),
}

# Accelerators with no gpu_specs.csv row, each number from the source named beside it.  The
# dense BF16/FP16 (FP32-accumulate) figure follows gpu_specs.md section 2: NVIDIA's headline
# "Tensor TFLOPS" is 2:4-sparse (dense = half), the Ada/Ampere workstation and datacenter
# parts run FP32 accumulate at full rate, GeForce at half its FP16-accumulate rate.  "after"
# is the CSV row (or extra entry) the entry is listed behind, keeping the families together.
EXTRA_GPUS = [
    {
        "after": "RTX 3060 12GB",
        "id": "rtx-3070-8gb", "name": "RTX 3070 8GB", "vendor": "NVIDIA", "form": "consumer",
        "memory_gb": 8, "memory_type": "GDDR6", "bandwidth_gbs": 448,
        "fp16_tflops": 40.6, "fp8_tflops": None, "tdp_w": 220,
        "price_usd": 499, "price_note": "MSRP, Sep 2020 (NVIDIA launch: \"starting at $499\")",
        "interconnect": "PCIe 4.0 x16", "stack": "CUDA", "backend": "cuda",
        "confidence": "sourced",
        "source": "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "https://huggingface.co/hardware/rtx-3070 ; "
                  "https://fudzilla.net/news/graphics/51457-nvidia-rtx-30-series-specifications-are-now-official ; "
                  "https://en.secnews.gr/263286/nvidia-geforce-rtx-3080-699/ ; "
                  "note: lamonoai (GA104 whitepaper values): FP16 tensor FP32-acc 40.6 dense / 81.3 "
                  "sparse, FP16-acc 81.3 / 163; 8 GB GDDR6 256-bit 448 GB/s, 220 W. No FP8 on "
                  "Ampere.",
    },
    {
        "after": "RTX 3080 10GB",
        "id": "rtx-3080-ti-12gb", "name": "RTX 3080 Ti 12GB", "vendor": "NVIDIA",
        "form": "consumer", "memory_gb": 12, "memory_type": "GDDR6X", "bandwidth_gbs": 912,
        "fp16_tflops": 68.2, "fp8_tflops": None, "tdp_w": None,
        "price_usd": None, "price_note": None,
        "interconnect": "PCIe 4.0 x16", "stack": "CUDA", "backend": "cuda",
        "confidence": "partly sourced",
        "source": "https://github.com/stillwater-sc/KPU-Simulator/blob/main/docs/external-knowledge/rtx_30_series_specs_table.md ; "
                  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/main/Nvidia_GPU_Specification.md ; "
                  "note: 12 GB GDDR6X 384-bit, 912 GB/s, 80 SM / 320 tensor cores, 273 NVIDIA "
                  "tensor TOPS (FP16 2:4-sparse = INT8 dense on GA102, as the RTX 3090's 285); "
                  "BF16/FP16 with FP32 accumulate = 273 / 4 = 68.2 dense (derived, GeForce rule, "
                  "the accuracy harness's figure). Board power and launch price not found in the "
                  "sources read (left blank). No FP8 on Ampere.",
    },
    {
        "after": "RTX 3090",
        "id": "rtx-3090-ti-24gb", "name": "RTX 3090 Ti 24GB", "vendor": "NVIDIA",
        "form": "consumer", "memory_gb": 24, "memory_type": "GDDR6X", "bandwidth_gbs": 1008,
        "fp16_tflops": 80, "fp8_tflops": None, "tdp_w": 450,
        "price_usd": 2000, "price_note": "HF hardware page MSRP ~$2.0k (2022)",
        "interconnect": "PCIe 4.0 x16; NVLink bridge supported (bandwidth not verified)",
        "stack": "CUDA", "backend": "cuda", "confidence": "sourced",
        "source": "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "https://huggingface.co/hardware/rtx-3090-ti ; "
                  "https://github.com/stillwater-sc/KPU-Simulator/blob/main/docs/external-knowledge/rtx_30_series_specs_table.md ; "
                  "note: lamonoai (GA102 values): FP16 tensor FP32-acc 80 dense / 160 sparse, "
                  "FP16-acc 160 / 320, 24 GB GDDR6X 384-bit 1,008 GB/s, 450 W. No FP8 on Ampere.",
    },
    {
        "after": "RTX 4070 12GB",
        "id": "rtx-4070-ti-12gb", "name": "RTX 4070 Ti 12GB", "vendor": "NVIDIA",
        "form": "consumer", "memory_gb": 12, "memory_type": "GDDR6X", "bandwidth_gbs": 504,
        "fp16_tflops": 80.2, "fp8_tflops": 321, "tdp_w": 285,
        "price_usd": 799, "price_note": "launch price $799 (Jan 2023)",
        "interconnect": "PCIe 4.0 x16", "stack": "CUDA", "backend": "cuda",
        "confidence": "sourced",
        "source": "NVIDIA Ada GPU architecture whitepaper "
                  "(https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf), "
                  "figure as cited in tests/accuracy/accuracy.c ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "https://www.phonandroid.com/rtx-4070-on-sait-a-quel-prix-arrivera-la-carte-graphique-de-nvidia-le-13-avril-prochain.html ; "
                  "note: FP16 tensor with FP32 accumulate 80.2 dense (Ada whitepaper figure used by "
                  "the accuracy harness; lamonoai rounds it to 80, FP16-acc 160 / 321 sparse); FP8 "
                  "321 dense / 641 sparse as marketed (FP16 accumulate; about half with FP32 "
                  "accumulate, gpu_specs.md section 2); 12 GB GDDR6X 192-bit 504 GB/s, 285 W "
                  "(lamonoai).",
    },
    {
        "after": "RTX 4080 Super",
        "id": "rtx-4080-16gb", "name": "RTX 4080 16GB", "vendor": "NVIDIA", "form": "consumer",
        "memory_gb": 16, "memory_type": "GDDR6X", "bandwidth_gbs": 716.8,
        "fp16_tflops": 97.5, "fp8_tflops": 390, "tdp_w": 320,
        "price_usd": 1199, "price_note": "MSRP, Nov 2022 (NVIDIA announcement: $1,199)",
        "interconnect": "PCIe 4.0 x16", "stack": "CUDA", "backend": "cuda",
        "confidence": "sourced",
        "source": "NVIDIA Ada GPU architecture whitepaper "
                  "(https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf), "
                  "figure as cited in tests/accuracy/accuracy.c ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/main/Nvidia_GPU_Specification.md ; "
                  "https://huggingface.co/hardware/rtx-4080 ; "
                  "https://www.neowin.net/news/nvidia-rtx-4090-is-up-to-4x-faster-than-3090-ti-but-takes-450w-of-power-to-do-so/ ; "
                  "note: FP16 tensor with FP32 accumulate 97.5 dense (Ada whitepaper figure used by "
                  "the accuracy harness; lamonoai 97, FP16-acc 195 / 390 sparse); FP8 390 dense / "
                  "780 sparse as marketed (FP16 accumulate); 716.8 GB/s (CYBIRD-D table; lamonoai "
                  "717); 320 W.",
    },
    {
        "after": "RTX A6000 48GB",
        "id": "rtx-4000-ada-20gb", "name": "RTX 4000 Ada 20GB", "vendor": "NVIDIA",
        "form": "workstation", "memory_gb": 20, "memory_type": "GDDR6 (ECC)",
        "bandwidth_gbs": 360, "fp16_tflops": 81.9, "fp8_tflops": 163.8, "tdp_w": 130,
        "price_usd": 1300, "price_note": "HF hardware page MSRP ~$1.3k (2023)",
        "interconnect": "PCIe 4.0 x16 (no NVLink)", "stack": "CUDA", "backend": "cuda",
        "confidence": "partly sourced",
        "source": "NVIDIA RTX 4000 Ada Generation datasheet (copy: "
                  "https://www.scribd.com/document/792340302/tarjeta-de-video), tensor figure as "
                  "cited in tests/accuracy/accuracy.c ; "
                  "https://huggingface.co/hardware/rtx-4000-ada ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "note: NVIDIA datasheet tensor performance 327.6 TFLOPS (FP8 with sparsity) -> "
                  "FP8 163.8 dense, BF16/FP16 (FP32 accumulate, full rate on RTX pro cards) 81.9 "
                  "dense, the accuracy harness's figure; 20 GB GDDR6 ECC 160-bit 360 GB/s, 130 W "
                  "(datasheet, lamonoai, HF). Conflict: lamonoai lists 107 / 214 dense (48 SM at "
                  "the 2,175 MHz boost clock) - the datasheet value is kept.",
    },
    {
        "after": "rtx-4000-ada-20gb",
        "id": "rtx-5000-ada-32gb", "name": "RTX 5000 Ada 32GB", "vendor": "NVIDIA",
        "form": "workstation", "memory_gb": 32, "memory_type": "GDDR6 (ECC)",
        "bandwidth_gbs": 576, "fp16_tflops": 261.1, "fp8_tflops": 522.2, "tdp_w": 250,
        "price_usd": None, "price_note": None,
        "interconnect": "PCIe 4.0 x16 (no NVLink)", "stack": "CUDA", "backend": "cuda",
        "confidence": "sourced",
        "source": "NVIDIA RTX 5000 Ada Generation datasheet as transcribed in "
                  "https://github.com/atineoSE/coding-model-seeks-gpu/blob/main/pipeline/pipeline/sources/rtx5000ada_specs.md ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "note: datasheet: 32 GB GDDR6 ECC 256-bit, 576 GB/s, tensor performance 1,044.4 "
                  "TFLOPS (effective FP8 with sparsity) -> FP8 522.2 dense, BF16/FP16 261.1 dense "
                  "(lamonoai 261 / 522); total board power 250 W. Launch price not found.",
    },
    {
        "after": "A100 80GB (SXM4)",
        "id": "a100-80gb-pcie", "name": "A100 80GB PCIe", "vendor": "NVIDIA",
        "form": "datacenter", "memory_gb": 80, "memory_type": "HBM2e", "bandwidth_gbs": 1935,
        "fp16_tflops": 312, "fp8_tflops": None, "tdp_w": 300,
        "price_usd": None, "price_note": None,
        "interconnect": "PCIe 4.0 x16; NVLink bridge supported", "stack": "CUDA",
        "backend": "cuda", "confidence": "sourced",
        "source": "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "reference gpu_specs.csv (A100 80GB (SXM4) notes: \"PCIe 80GB variant: 1935 GB/s, "
                  "300 W\") ; note: lamonoai (A100 for PCIe 80GB column): BF16/FP16 tensor 312 "
                  "dense / 624 sparse, 1,935 GB/s, 300 W. No FP8 on Ampere.",
    },
    {
        "after": "H100 80GB (SXM5)",
        "id": "h100-80gb-pcie", "name": "H100 80GB PCIe", "vendor": "NVIDIA",
        "form": "datacenter", "memory_gb": 80, "memory_type": "HBM2e", "bandwidth_gbs": 2000,
        "fp16_tflops": 756, "fp8_tflops": 1513, "tdp_w": 350,
        "price_usd": None, "price_note": None,
        "interconnect": "PCIe 5.0 x16; NVLink bridge supported", "stack": "CUDA",
        "backend": "cuda", "confidence": "sourced",
        "source": "NVIDIA H100 PCIe product brief PB-11133-001_v02, as reproduced at "
                  "https://manuals.plus/m/d4b5dc21484df3ba8fbe84918338461cc074a3fcebcc13423eadc2b10ac3bda4 ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "note: product brief: maximum TDP 350 W, memory bandwidth \"greater than 2,000 "
                  "GB/s\" (lamonoai: 2,048 GB/s, 300-350 W); lamonoai (H100 for PCIe): 80 GB HBM2e, "
                  "BF16/FP16 tensor 756 dense / 1,513 sparse, FP8 1,513 dense / 3,026 sparse.",
    },
    {
        "after": "h100-80gb-pcie",
        "id": "h100-nvl-94gb", "name": "H100 NVL 94GB", "vendor": "NVIDIA",
        "form": "datacenter", "memory_gb": 94, "memory_type": "HBM3", "bandwidth_gbs": 3900,
        "fp16_tflops": 835.5, "fp8_tflops": 1670.5, "tdp_w": 400,
        "price_usd": None, "price_note": None,
        "interconnect": "PCIe 5.0 x16; NVLink bridge 600 GB/s (pairs)", "stack": "CUDA",
        "backend": "cuda", "confidence": "partly sourced",
        "source": "https://www.nvidia.com/en-us/data-center/h100/ ; "
                  "NVIDIA H100 NVL datasheet and product brief PB-11773-001_v01 (as cited by "
                  "third-party notes) ; "
                  "https://www.aiminingco.com/gpu/h100-nvl/specs ; "
                  "https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md ; "
                  "note: NVIDIA's H100 NVL column as quoted by third-party notes: 94 GB HBM3, "
                  "3.9 TB/s, BF16/FP16 tensor 1,671 TFLOPS and FP8 3,341 with sparsity -> 835.5 / "
                  "1,670.5 dense, max TDP 350-400 W (400 kept); aiminingco: 600 GB/s NVLink bridge "
                  "between a pair. Conflicts: lamonoai lists 3,917 GB/s, HBM2e and the SXM tensor "
                  "figures (989 dense) for this card - NVIDIA's figures kept.",
    },
    {
        "after": "Radeon RX 7900 XTX 24GB",
        "id": "rx-7900-xt-20gb", "name": "Radeon RX 7900 XT 20GB", "vendor": "AMD",
        "form": "consumer", "memory_gb": 20, "memory_type": "GDDR6", "bandwidth_gbs": 800,
        "fp16_tflops": 103, "fp8_tflops": None, "tdp_w": 315,
        "price_usd": 899, "price_note": "SEP, Dec 2022",
        "interconnect": "PCIe 4.0 x16", "stack": "ROCm/HIP (gfx1100; also Vulkan)",
        "backend": "rocm", "confidence": "partly sourced",
        "source": "https://huggingface.co/hardware/rx-7900-xt ; "
                  "https://mybroadband.co.za/news/hardware/467523-amd-unveils-powerful-new-radeon-rx-7900-graphics-cards.html ; "
                  "https://voonze.com/amd-radeon-rx-7900-xt-geforce-rtx-4080-rival-leaks-in-benchmark-with-low-score/ ; "
                  "https://www.hardwaredb.net/radeon-rx-7900-xt-benchmark ; "
                  "note: 20 GB GDDR6 320-bit, 800 GB/s (voonze); FP16 103 = AMD peak half precision "
                  "(WMMA/dual-issue, as the 7900 XTX row; HF hardware page and the accuracy "
                  "harness's AMD spec-page figure); board power 315 W (HF, hardwaredb; "
                  "mybroadband says 300 W); $899 SEP (mybroadband; HF $900). No FP8 on RDNA3.",
    },
    {
        "after": "Radeon AI PRO R9700 32GB",
        "id": "w7900-48gb", "name": "Radeon PRO W7900 48GB", "vendor": "AMD",
        "form": "workstation", "memory_gb": 48, "memory_type": "GDDR6 (ECC)",
        "bandwidth_gbs": 864, "fp16_tflops": 122.6, "fp8_tflops": None, "tdp_w": 295,
        "price_usd": 4000, "price_note": "HF hardware page MSRP ~$4.0k (2023)",
        "interconnect": "PCIe 4.0 x16", "stack": "ROCm/HIP (gfx1100; also Vulkan)",
        "backend": "rocm", "confidence": "partly sourced",
        "source": "https://huggingface.co/hardware/pro-w7900 ; "
                  "https://www.itcreations.com/amd-gpu/amd-radeon-pro-w7900-gpu ; "
                  "note: 48 GB GDDR6 384-bit, 864 GB/s, 295 W (itcreations, HF); FP16 122.6 = AMD "
                  "peak half precision (WMMA/dual-issue; HF hardware page, the accuracy harness's "
                  "AMD spec-page figure). No FP8 on RDNA3.",
    },
    {
        "after": "w7900-48gb",
        "id": "rx-9070-xt-16gb", "name": "Radeon RX 9070 XT 16GB", "vendor": "AMD",
        "form": "consumer", "memory_gb": 16, "memory_type": "GDDR6", "bandwidth_gbs": 640,
        "fp16_tflops": 194.64, "fp8_tflops": None, "tdp_w": 304,
        "price_usd": 599, "price_note": "MSRP, Mar 2025",
        "interconnect": "PCIe 5.0 x16", "stack": "ROCm/HIP (gfx1201; also Vulkan)",
        "backend": "rocm", "confidence": "partly sourced",
        "source": "https://www.purepc.pl/amd-radeon-rx-9070-xt-oraz-radeon-rx-9070-specyfikacja-cena-i-wydajnosc-kart-graficznych-rdna-4 ; "
                  "https://multiplayer.it/notizie/amd-radeon-rx-9070-xt-rx-9070-specifiche.html ; "
                  "https://azhotdeal.com/exploring-amds-radeon-rx-9070-series-specifications/ ; "
                  "note: RDNA4 Navi 48, 64 CU; 16 GB GDDR6 20 Gbps 256-bit = 640 GB/s, TBP 304 W, "
                  "PCIe 5.0 x16 (multiplayer.it); MSRP $599 (purepc). AMD quotes 779 INT8 / 1,557 "
                  "INT4 AI TOPS (purepc; sparsity not stated). FP16 194.64 derived (no AMD "
                  "dense matrix figure found): 64 CU x 1024 FP16 FLOPS/clock/CU on RDNA 4 "
                  "(AMD GPUOpen, https://gpuopen.com/learn/using_matrix_core_amd_rdna4, its "
                  "RX 9070 XT column) x 2.97 GHz boost (multiplayer.it) = 194.64 dense; INT8 "
                  "2048/clock/CU gives 389.3 dense, half the 779 AMD quotes (i.e. with "
                  "sparsity); the same rule gives the R9700's 191.4 against AMD's 191. No FP8 "
                  "figure found - left blank.",
    },
]

# GPU cores of each Apple machine as catalogued (prefill on Metal scales with them).  The CSV's
# gpu_cores column gives "lower bin/top bin" per chip (gpu_specs.md section 8); a catalogued
# machine is its chip at the maximum memory, so the top bin is taken unless the row says
# otherwise.  Where the memory size is only sold with one bin, that is noted with its source;
# elsewhere the bin at that memory is ambiguous and the top bin is the stated assumption.
APPLE_GPU_CORES = {
    "Mac mini M4 Pro 64GB": (20, "64 GB is offered with both the 16- and 20-core M4 Pro GPU: "
                             "top bin taken (gpu_specs.md section 8: M4 Pro 16/20)"),
    "MacBook Pro 16 M4 Max 128GB": (40, "128 GB requires the 16-core CPU / 40-core GPU M4 Max "
                                    "(gpu_specs.csv notes; macmegasite)"),
    "Mac Studio M3 Ultra 512GB": (80, "512 GB is offered only with the 80-core GPU M3 Ultra "
                                  "(gpu_specs.csv notes)"),
    "Apple M1": (8, "top bin of 7/8 (gpu_specs.md section 8); the 16 GB bin is not stated"),
    "Apple M1 Pro": (16, "top bin of 14/16 (gpu_specs.md section 8); 32 GB was offered with "
                     "both bins"),
    "Apple M1 Max": (32, "top bin of 24/32 (gpu_specs.md section 8); 64 GB was offered with "
                     "both bins"),
    "Apple M1 Ultra": (64, "top bin of 48/64 (gpu_specs.md section 8); 128 GB was offered "
                       "with both bins"),
    "Apple M2": (10, "top bin of 8/10 (gpu_specs.md section 8); the 24 GB bin is not stated"),
    "Apple M2 Pro": (19, "top bin of 16/19 (gpu_specs.md section 8); the 32 GB bin is not "
                     "stated"),
    "Apple M2 Max": (38, "top bin of 30/38 (gpu_specs.md section 8); 96 GB machines listed "
                     "with the 38-core GPU (e.g. https://lensrentals.com/rent/apple-16-macbook-pro-with-m2-max-chip-early-2023)"),
    "Apple M2 Ultra": (76, "top bin of 60/76 (gpu_specs.md section 8); the 192 GB bin is not "
                       "stated"),
    "Apple M3": (10, "top bin of 8/10 (gpu_specs.md section 8); the 24 GB bin is not stated"),
    "Apple M3 Pro": (18, "top bin of 14/18 (gpu_specs.md section 8); the 36 GB bin is not "
                     "stated"),
    "Apple M3 Max": (40, "top bin of 30/40 (gpu_specs.md section 8); 128 GB goes with the "
                     "40-core, 400 GB/s bin the row's bandwidth describes"),
    "Apple M4": (10, "top bin of 8/10 (gpu_specs.md section 8); the 32 GB bin is not stated"),
}


def gpu_backend(vendor, name):
    if vendor == "NVIDIA":
        return "cuda"
    if vendor == "AMD":
        return "rocm"
    if vendor == "Apple":
        return "metal"
    if vendor == "Intel":
        return "other" if name.startswith("Gaudi") else "sycl"
    if vendor == "Huawei":
        return "cann"
    if vendor == "Moore Threads":
        return "musa"
    if vendor == "Hygon":
        return "rocm"   # DTK is HIP
    return "other"      # Cambricon Neuware, MetaX MXMACA, Kunlunxin XPU


def gpu_form(v):
    v = v.strip()
    return "unified" if v == "unified-memory" else v


def gpu_confidence(v):
    v = v.strip()
    return "partly" if v == "partly sourced" else v


def gpu_cores(v):
    v = (v or "").strip()
    return int(v) if re.match(r"^\d+$", v) else None


GPU_KEYS = ("id", "name", "vendor", "form", "memory_gb", "memory_type", "bandwidth_gbs",
            "fp16_tflops", "fp8_tflops", "tdp_w", "price_usd", "price_note", "used_market",
            "interconnect", "stack", "backend", "unified_share", "gpu_cores", "confidence",
            "source")


def build_gpus(ref):
    with open(os.path.join(ref, "gpu_specs.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    gpus = []
    names = []   # csv name (or extra id) of each entry, for EXTRA_GPUS "after"
    for row in rows:
        name = row["name"]
        if name in EXCLUDED_GPUS:
            continue
        if name not in GPU_META:
            raise ValueError("gpu row %r has no metadata entry" % name)
        gid, display = GPU_META[name]
        vendor = row["vendor"].strip()
        form = gpu_form(row["form"])
        memory = num(row["memory_gb"])
        share = None
        if form == "unified":
            if vendor == "Apple":
                share = 0.75 if memory > 36 else 0.66
            elif name.startswith("Ryzen AI Max"):
                share = STRIX_HALO_SHARE
        price = num(row["launch_price_usd"])
        cores = gpu_cores(row["gpu_cores"])
        source = row["source_urls"].strip()
        fp16 = num(row["fp16_bf16_dense_tflops"])
        if gid in TENSOR_RATES:
            if fp16 is not None:
                raise ValueError("gpu %s: TENSOR_RATES entry for a row with a rate" % gid)
            fp16, why = TENSOR_RATES[gid]
            source += " ; fp16_tflops %g: %s" % (fp16, why)
        if name in APPLE_GPU_CORES:
            cores, why = APPLE_GPU_CORES[name]
            source += " ; gpu_cores %d: %s" % (cores, why)
        gpus.append({
            "id": gid,
            "name": display,
            "vendor": vendor,
            "form": form,
            "memory_gb": memory,
            "memory_type": row["memory_type"].strip() or None,
            "bandwidth_gbs": num(row["bandwidth_gbps"]),
            "fp16_tflops": fp16,
            "fp8_tflops": num(row["fp8_dense_tflops"]),
            "tdp_w": num(row["tdp_w"]),
            "price_usd": price,
            "price_note": row["price_note"].strip() or None,
            "used_market": gid in USED_MARKET,
            "interconnect": row["interconnect"].strip() or None,
            "stack": row["software_stack"].strip() or None,
            "backend": gpu_backend(vendor, name),
            "unified_share": share,
            **({"bandwidth_measured_gbs": MEASURED_BANDWIDTH[gid][0],
                "bandwidth_measured_source": MEASURED_BANDWIDTH[gid][1]}
               if gid in MEASURED_BANDWIDTH else {}),
            "gpu_cores": cores,
            "confidence": gpu_confidence(row["confidence"]),
            "source": source,
        })
        names.append(name)
    for extra in EXTRA_GPUS:
        entry = {k: v for k, v in extra.items() if k != "after"}
        entry.update({"used_market": False, "unified_share": None, "gpu_cores": None})
        entry["confidence"] = gpu_confidence(entry["confidence"])
        entry = {k: entry[k] for k in GPU_KEYS}
        at = names.index(extra["after"]) + 1
        gpus.insert(at, entry)
        names.insert(at, entry["id"])
    missing = set(APPLE_GPU_CORES) - set(names)
    if missing:
        raise ValueError("APPLE_GPU_CORES rows not in the CSV: %s" % sorted(missing))
    for g in gpus:
        if g["vendor"] == "Apple" and not g["gpu_cores"]:
            raise ValueError("Apple machine %s has no gpu_cores" % g["id"])
    ids = [g["id"] for g in gpus]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate gpu ids")
    return gpus


# ---------------------------------------------------------------------------------------------
# Quantizations

MIX_ORDER = [
    "BF16", "F16", "Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q5_1", "Q5_0", "Q4_K_M", "Q4_K_S",
    "Q4_1", "Q4_0", "IQ4_NL", "IQ4_XS", "Q3_K_L", "Q3_K_M", "IQ3_M", "IQ3_S", "Q3_K_S",
    "IQ3_XS", "IQ3_XXS", "Q2_K", "IQ2_M", "Q2_K_S", "IQ2_S", "IQ2_XS", "IQ2_XXS", "IQ1_M",
    "IQ1_S",
]

MIX_LABELS = {
    "BF16": "16-bit — native weights",
    "F16": "16-bit float",
    "Q8_0": "8-bit — near lossless",
    "Q6_K": "6-bit — high precision",
    "Q5_K_M": "5-bit — balanced",
    "Q5_K_S": "5-bit — small",
    "Q5_1": "5-bit — legacy",
    "Q5_0": "5-bit — legacy",
    "Q4_K_M": "4-bit — recommended",
    "Q4_K_S": "4-bit — small",
    "Q4_1": "4-bit — legacy",
    "Q4_0": "4-bit — legacy, fast",
    "IQ4_NL": "4.5-bit — non-linear",
    "IQ4_XS": "4.25-bit — compact",
    "Q3_K_L": "3-bit — large",
    "Q3_K_M": "3-bit — low VRAM",
    "IQ3_M": "3.66-bit — i-quant mix",
    "IQ3_S": "3.44-bit — i-quant",
    "Q3_K_S": "3-bit — small",
    "IQ3_XS": "3.3-bit — i-quant",
    "IQ3_XXS": "3.06-bit — i-quant",
    "Q2_K": "2-bit — very low VRAM",
    "IQ2_M": "2.7-bit — i-quant",
    "Q2_K_S": "2-bit — small",
    "IQ2_S": "2.5-bit — i-quant",
    "IQ2_XS": "2.31-bit — i-quant",
    "IQ2_XXS": "2.06-bit — i-quant",
    "IQ1_M": "1.75-bit — extreme",
    "IQ1_S": "1.56-bit — extreme",
}

IN_MATRIX = {"BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS", "Q3_K_M", "UD-Q2_K_XL"}

UNSLOTH_SOURCE = ("Unsloth Dynamic 2.0 GGUF naming (unsloth/*-GGUF repos): per-layer mix "
                  "chosen by Unsloth, most tensors at the type its name gives; exact bytes only "
                  "from the file listing")

# Mixes that are not llama-quantize ftypes: (id, label, default type, nominal bpw, gguf, source).
# Which engines load a mix is not catalog data: the engine table (src/core/hr-engine-list.h)
# says it from the mix's format.
EXTRA_MIXES = [
    ("UD-Q4_K_XL", "4-bit — Unsloth dynamic", "Q4_K", None, True,
     UNSLOTH_SOURCE),
    ("UD-Q2_K_XL", "2-bit — Unsloth dynamic (MoE)", "Q2_K", None, True,
     UNSLOTH_SOURCE),
    ("FP8", "8-bit float checkpoint (vLLM/SGLang)", None, 8.0, False,
     "FP8 e4m3 weights with 128x128 block scales as DeepSeek V3/R1/V3.2, Kimi K2, MiniMax M2.5 "
     "ship them (reference/model_specs.md section 3.7); vLLM/SGLang load them natively"),
    ("MXFP4", "4-bit MXFP4 experts (gpt-oss native)", "MXFP4", None, True,
     "routed-expert tensors MXFP4 (32 weights + one E8M0 scale = 17 bytes), every other tensor "
     "at its native type: gpt-oss checkpoint format and llama-quantize MXFP4_MOE "
     "(reference/quant_ftype_mixes.csv, quant_types.csv)"),
    ("NVFP4", "4-bit NVFP4 (Blackwell)", "NVFP4", None, False,
     "FP4 E2M1 weights with one E4M3 scale per 16 (64 weights in 36 bytes = 4.5 bpw, ggml "
     "NVFP4 block in reference/quant_types.csv); NVIDIA NVFP4 checkpoints (Nemotron 3, Qwen3.6 "
     "repacks) load in vLLM/SGLang"),
    ("AWQ-INT4", "4-bit AWQ (vLLM/SGLang)", None, 4.25, False,
     "AutoAWQ format: 4-bit weights with an FP16 scale and a 4-bit zero point per group of 128 "
     "(4.16 bpw on quantized tensors); embeddings and lm_head stay 16-bit: nominal ~4.25 bpw"),
    ("GPTQ-INT4", "4-bit GPTQ (vLLM/SGLang)", None, 4.25, False,
     "GPTQ format: 4-bit weights with an FP16 scale and a packed 4-bit zero per group of 128 "
     "(4.16 bpw on quantized tensors); embeddings and lm_head stay 16-bit: nominal ~4.25 bpw"),
]


def build_quants(ref):
    with open(os.path.join(ref, "quant_types.csv"), newline="", encoding="utf-8") as f:
        trows = list(csv.DictReader(f))
    types = {}
    # src/core/hr-quant.c holds the same ggml types for the code; tests/test-engine.c checks
    # that these rows agree with it.
    ggml_types = []
    for r in trows:
        t = {
            "name": r["ggml_type"].strip(),
            "id": int(r["ggml_type_id"]),
            "block_size": int(r["block_size_weights"]),
            "bytes_per_block": int(r["bytes_per_block"]),
            "bpw": float(r["bits_per_weight_exact"]),
            "file_type": r["is_file_weight_type"].strip() == "yes",
        }
        types[t["name"]] = t
        ggml_types.append(t)

    with open(os.path.join(ref, "quant_ftype_mixes.csv"), newline="", encoding="utf-8") as f:
        mrows = {r["llama_ftype"].strip(): r for r in csv.DictReader(f)}

    mixes = []
    for mid in MIX_ORDER:
        r = mrows[mid]
        dtype = r["default_tensor_type"].strip()
        desc = r["quantize_tool_desc_verbatim"].strip()
        source = r["source"].strip()
        if desc:
            source = "llama-quantize: %s ; rules: %s ; %s" % (desc, r["tensor_upgrades_in_words"]
                                                              .strip(), source)
        mixes.append({
            "id": mid,
            "label": MIX_LABELS[mid],
            "default_type": dtype,
            "nominal_bpw": types[dtype]["bpw"],
            "gguf": True,
            "in_matrix": mid in IN_MATRIX,
            "source": source,
        })
    for mid, label, dtype, bpw, gguf, source in EXTRA_MIXES:
        mixes.append({
            "id": mid,
            "label": label,
            "default_type": dtype,
            "nominal_bpw": bpw if bpw is not None else types[dtype]["bpw"],
            "gguf": gguf,
            "in_matrix": mid in IN_MATRIX,
            "source": source,
        })
    missing = IN_MATRIX - {m["id"] for m in mixes}
    if missing:
        raise ValueError("matrix quants missing: %s" % sorted(missing))
    return ggml_types, mixes


# ---------------------------------------------------------------------------------------------

def write_json(path, obj):
    text = json.dumps(obj, ensure_ascii=False, indent=2) + "\n"
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def write_catalog_strings(path, models, mixes):
    """The catalogs' human labels, for xgettext: this file is listed in po/POTFILES.in and never
    compiled; hr-catalog.c translates the labels when it loads them."""
    labels = sorted({m["arch_label"] for m in models if m.get("arch_label")})
    quant_labels = sorted({q["label"] for q in mixes if q.get("label")})
    lines = ["/* Generated by build-aux/make-catalogs.py: the catalogs' labels, for translation.",
             " * Not compiled; listed in po/POTFILES.in. */", ""]
    for s in labels:
        lines.append("/* TRANSLATORS: a model's architecture, e.g. in the model picker */")
        lines.append("N_(%s);" % json.dumps(s, ensure_ascii=False))
    for s in quant_labels:
        lines.append("/* TRANSLATORS: what a quantization is, next to its name (Q4_K_M …) */")
        lines.append("N_(%s);" % json.dumps(s, ensure_ascii=False))
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reference", default=os.environ.get("HEADROOM_REFERENCE",
                                                           "/work/shared/reference"))
    ap.add_argument("--out", default=os.path.join(here, "..", "data"))
    args = ap.parse_args()

    models = build_models(args.reference)
    gpus = build_gpus(args.reference)
    ggml_types, mixes = build_quants(args.reference)

    write_json(os.path.join(args.out, "models.json"), {"schema": 1, "models": models})
    write_json(os.path.join(args.out, "gpus.json"), {"schema": 1, "gpus": gpus})
    write_json(os.path.join(args.out, "quants.json"),
               {"schema": 1, "ggml_types": ggml_types, "mixes": mixes})
    write_catalog_strings(os.path.join(args.out, "catalog-strings.c"), models, mixes)
    print("models: %d, gpus: %d, ggml types: %d, mixes: %d"
          % (len(models), len(gpus), len(ggml_types), len(mixes)), file=sys.stderr)


if __name__ == "__main__":
    main()
