"""How each published measurement maps onto a workload, and what it should be compared with.

Each row of published_measurements.csv gets a Row: the model (catalog name, calibration config
or size), the workload, the hardware, how the source measured (unit, per GPU or summed) and the
kind of figure. What a source did that the product's defaults do not model is stated per group
and applied here, never inside the estimator:
- Qwen-1 inference (GT001-GT018) ran the remote-code model in 2023 transformers: its tuple KV
  cache keeps the old and the new cache alive while each step builds the next one (transformers
  PR #40002: the legacy format "keeps copying the cache thus using much more memory"), so one
  more KV cache comes on top, and the prefill computed bf16 logits and their fp32 copy for every
  prompt position (6 bytes per vocabulary entry; only the last since transformers PR #31292).
  The profile script measured torch.cuda.max_memory_allocated() in GiB with a 1-token prompt.
  The KV-quantization table (GT012-GT018) does not state its prompt: 64 tokens reproduces the
  per-sequence growth between batch 1, 32 and 100 (about 58 MiB per sequence).
- Qwen-1 fine-tuning (GT019-GT038) does not say how memory was measured, and every row sits
  2.45 GiB + 14.0% of the weights above the allocated peak (least squares through the
  short-sequence rows GT019, GT021, GT024, GT028, GT032, GT034, GT037, where activations are
  negligible; residuals -0.5 to +1.4 GiB): a fixed amount and one in proportion to the weights,
  as the CUDA context and a reserve left by loading the model would be. The general reserve of
  estimator/memory/reported.py, fitted on sources that name their counter, does not fit these
  rows (their long-sequence rows show no reserve growing with the loss), so only these rows add
  it (RESERVE_BYTES, RESERVE_WEIGHT_SHARE).
- Qwen-1 fine-tuning pinned peft<0.8, whose adapters take the base dtype (bf16).
  Under DeepSpeed (Q-LoRA and full fine-tuning) no autocast runs, and Qwen-1's loss applies
  CrossEntropyLoss to the 16-bit logits: bf16 logits, their contiguous copy, log-softmax and its
  gradient, 8 bytes per vocabulary entry instead of the 12 of an fp32 loss.
- torchtune's 8B full fine-tune on a 4090 (GT082) uses bitsandbytes' paged optimizer, whose
  states live in CUDA unified memory that torch's memory counters do not see: the allocated view
  leaves them out.
- The ZeRO paper's Figure 1 (GT182-GT185) is the ideal accounting, 16-bit gradients only;
  DeepSpeed's implementation, which the estimate follows, keeps an fp32 gradient partition too
  (estimator/frameworks/zero.py), so those rows are reported, not targets.
Each row says what its source measured (`measures`): allocated (torch.cuda.max_memory_allocated
or torchtune's "active" peak), reserved (torch.cuda.max_memory_reserved) or nvidia-smi.
Rows whose setup cannot be reconstructed (unstated batch, sequence length or precision, or an
architecture the estimator does not model) are reported as "info" and kept out of the targets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Kinds and the tolerance each row of the kind must meet (the targets; fit rows must be
# classified right, info rows are only reported).
WEIGHTS = "weights"  # weights-only and checkpoint sizes: within 3%
KV = "kv_cache"  # KV-cache-only figures: within 2%
STATES = "model_states"  # analytical model-state memory (ZeRO paper): within 3%
INFERENCE = "inference_total"  # total peak inference memory: median under 8%
TRAINING = "training_total"  # total peak training memory: median under 15%
FIT = "fit"  # ">X" (OOM) or "<=X" / "<X" (ran within X)
INFO = "info"  # reported, not a target

TOLERANCE = {WEIGHTS: 0.03, KV: 0.02, STATES: 0.03, INFERENCE: 0.15, TRAINING: 0.30}
MEDIAN_TARGET = {INFERENCE: 0.08, TRAINING: 0.15}
RESERVE_BYTES = round(2.45 * (1 << 30))
RESERVE_WEIGHT_SHARE = 0.140


@dataclass(frozen=True)
class Row:
    id: str
    kind: str
    model: str  # catalog name, calibration config name, or size like "2.85B"
    workload: dict[str, Any] = field(default_factory=dict)
    gpu: str | None = None
    gpus: int = 1
    unit: str = "GiB"  # GiB or GB (1e9), as the source actually measured
    per_gpu: bool = False  # value is per GPU (else summed over GPUs)
    compare: str = "total"  # total, weights, states, kv_delta
    legacy: bool = False  # Qwen-1 remote code in old transformers (see the module docstring)
    logit_bytes: int | None = None  # bytes per vocab entry per token the source's loss kept
    # Every layer's checkpoint on the GPU at the loss, though the backward reloads them from CPU
    # RAM (Unsloth 2024.4's offloaded checkpointing, as LLaMA-Factory's figures show it).
    checkpoints_at_loss: bool = False
    measures: str = "allocated"  # allocated, reserved or nvidia-smi
    reserve: bool = False  # the Qwen training table's reserve (see the module docstring)
    framework: str | None = None  # the group it counts in (default: its workload's engine)
    note: str = ""


A100 = "A100 80GB SXM4"
QWEN_NOTE = "Qwen README inference profile"
QWEN_INF = {"task": "inference", "engine": "transformers"}
QWEN_LORA = {
    "task": "training",
    "method": "lora",
    "engine": "transformers",
    "lora_rank": 64,
    "adapter_precision": "bf16",
    "batch": 1,
}
QWEN_QLORA = {
    "task": "training",
    "method": "qlora",
    "engine": "deepspeed",
    "precision": "gptq",
    "lora_rank": 64,
    "zero": 2,
    "batch": 1,
}
QWEN_FULL = {"task": "training", "method": "full", "engine": "deepspeed", "zero": 3, "batch": 1}
TT = {
    "task": "training",
    "engine": "torchtune",
    "batch": 2,
    "context": 2048,
    "compile": True,
    "grad_accumulation": 1,
}

# fmt: off
ROWS: tuple[Row, ...] = (
    # Qwen README "Inference Performance": generating 2048 tokens, batch 1 (1-token prompt).
    Row("GT001", INFERENCE, "Qwen-1.8B", {**QWEN_INF, "prompt_tokens": 1, "precision": "bf16", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT002", INFERENCE, "Qwen-1.8B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT003", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 1, "precision": "bf16", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT004", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq-int8", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT005", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT006", INFERENCE, "Qwen-14B", {**QWEN_INF, "prompt_tokens": 1, "precision": "bf16", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT007", INFERENCE, "Qwen-14B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq-int8", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT008", INFERENCE, "Qwen-14B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT009", INFERENCE, "Qwen-72B", {**QWEN_INF, "prompt_tokens": 1, "precision": "bf16", "context": 2049}, gpu=A100, gpus=2, legacy=True, note=QWEN_NOTE),
    Row("GT010", INFERENCE, "Qwen-72B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq-int8", "context": 2049}, gpu=A100, gpus=2, legacy=True, note=QWEN_NOTE),
    Row("GT011", INFERENCE, "Qwen-72B", {**QWEN_INF, "prompt_tokens": 1, "precision": "gptq", "context": 2049}, gpu=A100, legacy=True, note=QWEN_NOTE),
    # Qwen README "Quantization of KV cache": Qwen-7B-Chat BF16, 1024 generated tokens.
    Row("GT012", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 1025}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT013", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 1025, "batch": 32}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT014", FIT, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 1025, "batch": 64}, gpu=A100, legacy=True, note="OOM on one A100-80G"),
    Row("GT015", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 1025, "batch": 64, "kv_precision": "int8"}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT016", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 1025, "batch": 100, "kv_precision": "int8"}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT017", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 8192}, gpu=A100, legacy=True, note=QWEN_NOTE),
    Row("GT018", INFERENCE, "Qwen-7B", {**QWEN_INF, "prompt_tokens": 64, "precision": "bf16", "context": 8192, "kv_precision": "int8"}, gpu=A100, legacy=True, note=QWEN_NOTE),
    # Qwen README "Profiling of Memory and Speed": batch 1, gradient checkpointing, one A100-80G
    # (full fine-tuning of 7B on two); LoRA r=64 on every linear layer.
    Row("GT019", TRAINING, "Qwen-1.8B", {**QWEN_LORA, "context": 256}, gpu=A100, reserve=True),
    Row("GT020", TRAINING, "Qwen-1.8B", {**QWEN_LORA, "context": 8192}, gpu=A100, reserve=True),
    Row("GT021", TRAINING, "Qwen-1.8B", {**QWEN_QLORA, "context": 256}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT022", TRAINING, "Qwen-1.8B", {**QWEN_FULL, "context": 256}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT023", TRAINING, "Qwen-1.8B", {**QWEN_FULL, "context": 8192}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT024", TRAINING, "Qwen-7B", {**QWEN_LORA, "context": 256}, gpu=A100, reserve=True),
    Row("GT025", TRAINING, "Qwen-7B", {**QWEN_LORA, "context": 2048}, gpu=A100, reserve=True),
    Row("GT026", TRAINING, "Qwen-7B", {**QWEN_LORA, "context": 8192}, gpu=A100, reserve=True),
    Row("GT027", TRAINING, "Qwen-7B", {**QWEN_LORA, "context": 256, "lora_train_embeddings": True}, gpu=A100, reserve=True),
    Row("GT028", TRAINING, "Qwen-7B", {**QWEN_QLORA, "context": 256}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT029", TRAINING, "Qwen-7B", {**QWEN_QLORA, "context": 8192}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT030", TRAINING, "Qwen-7B", {**QWEN_FULL, "context": 256}, gpu=A100, gpus=2, logit_bytes=8, reserve=True),
    Row("GT031", TRAINING, "Qwen-7B", {**QWEN_FULL, "context": 1024}, gpu=A100, gpus=2, logit_bytes=8, reserve=True),
    Row("GT032", TRAINING, "Qwen-14B", {**QWEN_LORA, "context": 256}, gpu=A100, reserve=True),
    Row("GT033", TRAINING, "Qwen-14B", {**QWEN_LORA, "context": 8192}, gpu=A100, reserve=True),
    Row("GT034", TRAINING, "Qwen-14B", {**QWEN_QLORA, "context": 256}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT035", TRAINING, "Qwen-14B", {**QWEN_QLORA, "context": 8192}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT036", TRAINING, "Qwen-72B", {**QWEN_LORA, "engine": "deepspeed", "zero": 3, "context": 256}, gpu=A100, gpus=4, logit_bytes=8, reserve=True),
    Row("GT037", TRAINING, "Qwen-72B", {**QWEN_QLORA, "context": 256}, gpu=A100, logit_bytes=8, reserve=True),
    Row("GT038", TRAINING, "Qwen-72B", {**QWEN_QLORA, "context": 8192}, gpu=A100, logit_bytes=8, reserve=True),
    # PEFT README: fp32 (accelerate mixed_precision 'no'), batch 8; T0 and mt0 are T5
    # encoder-decoders and bloomz is BLOOM, which the estimator does not model: sized by
    # parameter count, so only the out-of-memory rows are targets.
    Row("GT072", INFO, "2.85B", {"task": "training", "precision": "fp32", "batch": 8, "context": 128}, gpu=A100, unit="GB", note="T5 encoder-decoder sized as a decoder; sequence length unstated"),
    Row("GT073", INFO, "2.85B", {"task": "training", "method": "lora", "precision": "fp32", "lora_rank": 8, "lora_targets": "attention", "batch": 8, "context": 128}, gpu=A100, unit="GB", note="T5 encoder-decoder sized as a decoder; sequence length unstated"),
    Row("GT074", INFO, "2.85B", {"task": "training", "method": "lora", "lora_rank": 8, "batch": 8, "context": 128, "engine": "deepspeed", "zero": 3, "offload": True}, gpu=A100, unit="GB", note="offload config of the table unverified"),
    Row("GT075", FIT, "12.9B", {"task": "training", "precision": "fp32", "batch": 8, "context": 128}, gpu=A100, unit="GB", note="full fp32 fine-tuning, OOM on A100 80GB"),
    Row("GT076", INFO, "12.9B", {"task": "training", "method": "lora", "precision": "fp32", "lora_rank": 8, "lora_targets": "attention", "batch": 8, "context": 128}, gpu=A100, unit="GB", note="T5 encoder-decoder sized as a decoder"),
    Row("GT077", INFO, "12.9B", {"task": "training", "method": "lora", "lora_rank": 8, "batch": 8, "context": 128, "engine": "deepspeed", "zero": 3, "offload": True}, gpu=A100, unit="GB"),
    Row("GT078", FIT, "7.07B", {"task": "training", "precision": "fp32", "batch": 8, "context": 64}, gpu=A100, unit="GB", note="full fp32 fine-tuning of bloomz-7b1, OOM on A100 80GB"),
    Row("GT079", INFO, "7.07B", {"task": "training", "method": "lora", "precision": "fp32", "lora_rank": 8, "lora_targets": "attention", "batch": 8, "context": 64}, gpu=A100, unit="GB", note="BLOOM sized as a Llama-style decoder"),
    Row("GT080", INFO, "7.07B", {"task": "training", "method": "lora", "lora_rank": 8, "batch": 8, "context": 64, "engine": "deepspeed", "zero": 3, "offload": True}, gpu=A100, unit="GB"),
    Row("GT081", INFO, "2.85B", {"task": "inference", "precision": "fp32"}, unit="GB", compare="weights", note="T5 checkpoint sized as a 3B decoder (2.85B x 4 bytes = 11.4 GB)"),
    # torchtune README: batch 2, packed to 2048 tokens, activation checkpointing, torch.compile.
    Row("GT082", TRAINING, "Llama-3.1-8B", {**TT, "method": "full"}, gpu="RTX 4090", note="paged 8-bit AdamW lives in unified memory"),
    Row("GT083", TRAINING, "Llama-3.1-8B", {**TT, "method": "full", "optimizer": "adamw_8bit"}, gpu="RTX A6000", note="config not published; mapped to 8-bit AdamW without paging"),
    Row("GT084", TRAINING, "Llama-3.1-8B", {**TT, "method": "lora", "lora_rank": 8, "lora_targets": "attention"}, gpu="RTX 4090"),
    Row("GT085", TRAINING, "Llama-3.1-8B", {**TT, "method": "lora", "lora_rank": 8, "lora_targets": "attention", "grad_checkpointing": False}, gpu="RTX A6000", note="config not published; mapped to the same recipe without activation checkpointing"),
    Row("GT086", TRAINING, "Llama-3.1-8B", {**TT, "method": "qlora", "lora_rank": 8}, gpu="RTX 4090"),
    Row("GT087", TRAINING, "Llama-3.1-70B", {**TT, "method": "full", "optimizer": "adamw", "offload": True}, gpu=A100, gpus=8, per_gpu=True, note="FSDP with CPU offload and fused optimizer"),
    Row("GT088", TRAINING, "Llama-3.1-70B", {**TT, "method": "lora", "lora_rank": 16, "lora_targets": "attention"}, gpu=A100, gpus=8, per_gpu=True),
    Row("GT089", TRAINING, "Llama-3.1-405B", {**TT, "batch": 1, "method": "qlora", "lora_rank": 16, "chunked_loss": False}, gpu=A100, gpus=8, unit="GB", per_gpu=True, note="405B_qlora.yaml: batch 1, plain cross-entropy"),
    Row("GT090", INFO, "Llama-2-7B", {"task": "training", "engine": "torchtune", "batch": 2, "context": 512, "method": "lora", "lora_rank": 8, "lora_targets": "attention", "chunked_loss": False}, gpu="RTX 4090", unit="GB", measures="reserved", note="the same figure as NG034 (the tutorial's table), counted there"),
    Row("GT091", INFO, "Llama-2-7B", {"task": "training", "engine": "torchtune", "batch": 2, "context": 512, "method": "qlora", "lora_rank": 8, "chunked_loss": False}, gpu="RTX 4090", unit="GB", measures="reserved", note="the same figure as NG029 (the README's table), counted there"),
    Row("GT092", INFO, "Llama-2-7B", {"task": "inference", "precision": "bf16"}, unit="GB", compare="weights", note="reserved memory after LoRA model init: weights plus buffers"),
    # QLoRA paper (Dettmers et al. 2023), Guanaco scripts: batch 1, 512 target tokens, LoRA r=64
    # on all linear layers, bf16 adapters (qlora.py casts them), paged 32-bit AdamW.
    Row("GT117", FIT, "LLaMA-65B", {"task": "training", "method": "qlora", "lora_rank": 64, "context": 528, "adapter_precision": "bf16", "optimizer": "paged_adamw"}, gpu="RTX A6000", note="fits a single 48GB GPU"),
    Row("GT118", FIT, "LLaMA-65B", {"task": "training", "precision": "bf16"}, unit="GB", note=">780GB for 16-bit full fine-tuning"),
    Row("GT119", INFO, "LLaMA-65B", {"task": "inference", "precision": "nf4"}, unit="GB", compare="weights", note="paper 'size' column; more than the NF4 weights"),
    Row("GT120", INFO, "LLaMA-33B", {"task": "inference", "precision": "nf4"}, unit="GB", compare="weights", note="paper 'size' column; more than the NF4 weights"),
    Row("GT121", WEIGHTS, "LLaMA-13B", {"task": "inference", "precision": "fp16"}, unit="GB", compare="weights"),
    Row("GT122", INFO, "LLaMA-13B", {"task": "inference", "precision": "nf4"}, unit="GB", compare="weights", note="paper 'size' column; more than the NF4 weights"),
    Row("GT123", INFO, "LLaMA-7B", {"task": "inference", "precision": "nf4"}, unit="GB", compare="weights", note="paper lists both 5 and 6 GB"),
    Row("GT124", FIT, "LLaMA-33B", {"task": "training", "method": "qlora", "lora_rank": 64, "context": 528, "adapter_precision": "bf16", "optimizer": "paged_adamw"}, gpu="RTX 3090", note="fits a 24GB consumer GPU"),
    # LLaMA-Factory README: estimates, not measurements (batch and length unstated).
    Row("GT125", INFO, "7B", {"task": "training", "precision": "fp32", "context": 512}, unit="GB"),
    Row("GT126", INFO, "7B", {"task": "training", "engine": "torchtune", "context": 512}, unit="GB"),
    Row("GT127", INFO, "7B", {"task": "training", "method": "lora", "context": 512}, unit="GB"),
    Row("GT128", INFO, "7B", {"task": "training", "method": "qlora", "precision": "int8", "context": 512}, unit="GB"),
    Row("GT129", INFO, "7B", {"task": "training", "method": "qlora", "context": 512}, unit="GB"),
    Row("GT130", INFO, "14B", {"task": "training", "method": "qlora", "context": 512}, unit="GB"),
    Row("GT131", INFO, "70B", {"task": "training", "method": "lora", "context": 512}, unit="GB"),
    Row("GT132", INFO, "70B", {"task": "training", "method": "qlora", "context": 512}, unit="GB"),
    Row("GT133", INFO, "Mixtral-8x7B-v0.1", {"task": "training", "method": "qlora", "context": 512}, unit="GB"),
    # llama.cpp quantize README: GGUF sizes of Llama-3.1 (llama-bench GiB; disk table GB).
    Row("GT134", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q2_k"}, compare="weights"),
    Row("GT135", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "iq4_xs"}, compare="weights"),
    Row("GT136", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_k_m"}, compare="weights"),
    Row("GT137", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q5_k_m"}, compare="weights"),
    Row("GT138", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q6_k"}, compare="weights"),
    Row("GT139", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q8_0"}, compare="weights"),
    Row("GT140", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "f16"}, compare="weights"),
    Row("GT141", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "precision": "fp32"}, unit="GB", compare="weights"),
    Row("GT142", WEIGHTS, "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_k_m"}, unit="GB", compare="weights"),
    Row("GT143", WEIGHTS, "Llama-3.1-70B", {"task": "inference", "precision": "fp32"}, unit="GB", compare="weights"),
    Row("GT144", WEIGHTS, "Llama-3.1-70B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_k_m"}, unit="GB", compare="weights"),
    Row("GT145", WEIGHTS, "Llama-3.1-405B", {"task": "inference", "precision": "fp32"}, unit="GB", compare="weights"),
    Row("GT146", WEIGHTS, "Llama-3.1-405B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_k_m"}, unit="GB", compare="weights"),
    # ZeRO paper Figure 1: model states of a 7.5B model on 64 GPUs, (2 + 2 + 12)·Ψ / sharding.
    Row("GT182", INFO, "7.5B", {"task": "training", "engine": "transformers", "distributed": "ddp"}, gpu=A100, gpus=64, unit="GB", per_gpu=True, compare="states"),
    Row("GT183", INFO, "7.5B", {"task": "training", "engine": "transformers", "zero": 1}, gpu=A100, gpus=64, unit="GB", per_gpu=True, compare="states"),
    Row("GT184", INFO, "7.5B", {"task": "training", "engine": "transformers", "zero": 2}, gpu=A100, gpus=64, unit="GB", per_gpu=True, compare="states"),
    Row("GT185", INFO, "7.5B", {"task": "training", "engine": "transformers", "zero": 3}, gpu=A100, gpus=64, unit="GB", per_gpu=True, compare="states"),
    # DeepSpeed ZeRO-Offload tutorial: GPT-2 10B, ZeRO-2 with the optimizer on the CPU.
    Row("GT186", FIT, "GPT-2-10B", {"task": "training", "engine": "deepspeed", "zero": 2, "offload": True, "precision": "fp16", "batch": 10, "context": 1024}, gpu="V100 32GB", note="ZeRO-Offload tutorial: fits one V100 32GB"),
)
# fmt: on

# KV-cache-only figures derived from two rows that differ only in the number of cached tokens:
# the difference of their totals is the cache of the extra tokens (both copies of the tuple cache).
KV_DELTAS = (("GT017", "GT012"),)
