"""Engine and framework constants, each with its source or the calibration rows it was fitted on.

Calibration rows are those of estimator/calibration/published_measurements.csv (ids GT...).
"""

from __future__ import annotations

from ..vocabulary import GIB, MIB

# CUDA context created by PyTorch with lazy module loading: nvidia-smi showed 426 MiB with
# allocated/reserved 0 (PyTorch 2.10 + CUDA 13.0, unslothai/unsloth-zoo PR #1053); PyTorch's own
# measurement 274 MiB (pytorch/pytorch PR #86509); "around 400MB" (pytorch issue #109888).
# ROCm's and Level Zero's contexts have no measurement here: they are taken at this size.
CUDA_CONTEXT_BYTES = 426 * MIB

# A GeForce/Radeon card that also drives the desktop: "Windows reserves up to 512MB to the desktop
# compositor" (doitsujin/dxvk issue #3268). Datacenter and workstation cards are assumed headless.
DISPLAY_SHARE_BYTES = 512 * MIB

# macOS lets the GPU wire about 2/3 of unified memory on machines up to 36 GB and about 3/4 above
# (recommendedMaxWorkingSetSize: 10922.67 MB on 16 GB M1, ~47-48 GB on 64 GB M2 Max, ~96 GB on
# 128 GB M1 Ultra: llama.cpp Metal logs in abetlen/llama-cpp-python issue #687 and exo-explore/exo PR #1672; Apple's MTLDevice.recommendedMaxWorkingSetSize). Raisable with iogpu.wired_limit_mb.
APPLE_SMALL_FRACTION = 2 / 3
APPLE_LARGE_FRACTION = 3 / 4
APPLE_SMALL_LIMIT_GB = 36

# Left to the operating system on a CPU-only or Apple machine. A stated assumption, not a
# measurement: desktop OSes need a few GB for themselves.
OS_RESERVE_BYTES = 2 * GIB

# Answers with less free memory than this share of usable capacity are "tight": a stated margin for allocator fragmentation and load spikes, not a measurement.
TIGHT_HEADROOM = 0.10

# --- transformers (generate) ---------------------------------------------------------------
# Caching-allocator and library workspace on top of weights + KV + prefill: the median per-GPU
# remainder (430 MiB; spread -3.2 to +0.9 GiB) of the Qwen README inference rows GT001-GT013 and
# GT015-GT018 once their weights, KV cache (both tuple-cache copies) and prefill are subtracted
# (estimator/calibration/rows.py explains those source conditions).
TRANSFORMERS_WORKSPACE_BYTES = 430 * MIB
# Sampling keeps the last token's logits in fp32 plus one same-sized temporary (softmax / top-p);
# since transformers PR #31292 only the last position's logits are computed.
TRANSFORMERS_LOGIT_COPIES = 2

# --- vLLM ---------------------------------------------------------------------------------------
# vllm/config/cache.py: gpu_memory_utilization default 0.9; vllm/platforms/cuda.py: block size 16.
VLLM_BLOCK_TOKENS = 16
VLLM_UTILIZATION = 0.9
# V1 arg_utils defaults for the OpenAI server: 2048 batched tokens below 70 GiB (and on A100),
# 8192 above; max_num_seqs 256 (1024 above 70 GiB).
VLLM_BATCHED_TOKENS_SMALL = 2048
VLLM_BATCHED_TOKENS_LARGE = 8192
VLLM_MAX_SEQS_SMALL = 256
VLLM_MAX_SEQS_LARGE = 1024
VLLM_LARGE_GPU_BYTES = 70 * GIB
# CUDA graphs: logged 0.11, 0.31, 0.36, 0.96 and 1.29 GiB per GPU (vLLM logs collected in the
# research notes; V0 comment "CUDA graphs can take additional 1~3 GiB"). The median is used.
VLLM_CUDA_GRAPH_BYTES = 369 * MIB  # 0.36 GiB

# --- llama.cpp -------------------------------------------------------------------------------
# common.h: n_ubatch 512; llama-context.cpp pads n_ctx to 256 cells.
LLAMACPP_UBATCH = 512
LLAMACPP_CTX_PAD = 256

# --- training -----------------------------------------------------------------------------------
# Layers that `freeze` fine-tuning trains (LLaMA-Factory freeze_trainable_layers default: 2).
FREEZE_TRAINABLE_LAYERS = 2
