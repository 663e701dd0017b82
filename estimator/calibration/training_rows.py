"""How each row of training_measurements.csv maps onto a workload, and what its source measured.

training_measurements.csv holds the fine-tuning measurements of the second published table
(NG ids, each with its source and commit) and LLaMA-Factory's performance comparison (LF ids).
What each source did, as stated by it or read from its configs at the cited commit:
- PEFT method comparison (NG001-NG011): a plain torch loop over Llama-3.2-3B in bf16 without
  AMP, torch.optim.AdamW with its default foreach implementation, no gradient checkpointing,
  batch 4 of MetaMathQA bucketed by length up to 768 tokens, one optimizer step per batch;
  the figure is the 99th percentile of torch.cuda.memory_reserved() after each step, the
  allocator's high-water mark over the last ten steps (empty_cache every 10 steps).
- torchtune README "Optimization flags" (NG012-NG021, commit 1814feb): Llama 3.2 3B, batch 2,
  packed to 4096 tokens, techniques added one after another, no gradient accumulation; the peak
  of memory_stats "active_bytes.all.peak" (the allocated view), GiB.
- torchtune README tables of April and May 2024 (NG022-NG033) and its LoRA tutorial (NG034-NG038):
  the configs at those commits (plain CrossEntropyLoss on the fp32 output, AdamW without fused,
  alpaca padded per batch up to 512 tokens where no length is given). The figures match the
  tutorials' reserved memory (NG029 = GT091, NG034 = GT090, both labelled reserved), so they are
  compared with the reserved view, GB = 1e9.
- Axolotl PR #602 (NG049-NG051): VRAM "recorded" by the maintainer, compared with nvidia-smi.
- LLaMA-Factory's comparison (LF001-LF019): VRAM with no tool named, compared with nvidia-smi.
  Its Unsloth rows ran Unsloth 2024.4 under LLaMA-Factory's own Trainer arguments (AdamW, not
  Unsloth's 8-bit default); its fast_cross_entropy_loss kept the bf16 logits and wrote their
  gradient in place (2 bytes per vocabulary entry and token) before the fused chunked loss
  replaced it. LLaMA-Factory passed use_gradient_checkpointing="unsloth" from commit efa8080
  (2024-04-16 00:25 +0800, "support unsloth 2024.4"), two hours before the README announced the
  table (commit ebf0f4a), and that release's Unsloth_Offloaded_Gradient_Checkpointer reloads each
  layer's input from its CPU copy in the backward (unsloth/models/_utils.py at 6dad5dd). Yet the
  long-context figures grow by 317 KB per token from 16,384 to 100,000 tokens (least squares over
  LF011-LF014): the 32 layers' bf16 checkpoints and the bf16 logits (262 + 64 KB) at the loss,
  without the recomputed layer (101 KB more) on top of the checkpoints, which the backward would
  add had they stayed on the GPU. So those rows keep every checkpoint on the GPU until the loss
  and only the reloaded one in the backward (checkpoints_at_loss).
Rows whose setup cannot be reconstructed or whose method the estimator does not model (DoRA,
IA3, prompt and LayerNorm tuning, GaLore, BAdam, MLX, an unstated batch) are reported as info.
"""

from __future__ import annotations

from .rows import INFO, TRAINING, WEIGHTS, Row

A100 = "A100 80GB SXM4"
PEFT = {
    "task": "training",
    "engine": "transformers",
    "batch": 4,
    "context": 768,
    "grad_checkpointing": False,
    "mixed_precision": False,
    "optimizer": "adamw_foreach",
    "grad_accumulation": 1,
}
PEFT_LORA = {**PEFT, "method": "lora", "lora_targets": "attention"}
TT_FLAGS = {
    "task": "training",
    "engine": "torchtune",
    "batch": 2,
    "context": 4096,
    "grad_accumulation": 1,
    "method": "full",
    "optimizer": "adamw",
    "grad_checkpointing": False,
    "compile": False,
    "chunked_loss": False,
    "optimizer_in_backward": False,
}
TT_PACKED = {**TT_FLAGS, "compile": True, "chunked_loss": True, "grad_checkpointing": True}
TT_ADAPTERS = {**TT_PACKED, "lora_rank": 64, "activation_offload": True}
TT_2024 = {
    "task": "training",
    "engine": "torchtune",
    "batch": 4,
    "context": 2048,
    "chunked_loss": False,
    "optimizer": "adamw_foreach",
}
TT_APRIL = {**TT_2024, "batch": 2, "context": 512}
AXOLOTL = {"task": "training", "engine": "axolotl", "batch": 2, "context": 1024, "lora_rank": 8}
LF = {
    "task": "training",
    "engine": "llama-factory",
    "method": "qlora",
    "lora_rank": 8,
    "batch": 1,
    "grad_accumulation": 4,
}
UNSLOTH_2024 = {**LF, "engine": "unsloth", "optimizer": "adamw"}
LF_LORA = {**LF, "method": "lora", "batch": 4, "grad_accumulation": 2, "context": 1024}
RESERVED = "reserved"
SMI = "nvidia-smi"
PEFT_NOTE = "PEFT method comparison, reserved"
OLD_UNSLOTH = (
    "Unsloth 2024.4: bf16 logits, gradient in place, checkpoints on the GPU until the loss"
)

# fmt: off
TRAINING_ROWS: tuple[Row, ...] = (
    Row("NG001", TRAINING, "Llama-3.2-3B", {**PEFT, "method": "full"}, gpu="L40S", unit="B", measures=RESERVED, note=PEFT_NOTE),
    Row("NG002", TRAINING, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 32}, gpu="L40S", unit="B", measures=RESERVED, note=PEFT_NOTE),
    Row("NG003", TRAINING, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 64}, gpu="L40S", unit="B", measures=RESERVED, note=PEFT_NOTE),
    Row("NG004", TRAINING, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 10, "lora_targets": "mlp"}, gpu="L40S", unit="B", measures=RESERVED, note=PEFT_NOTE),
    Row("NG005", INFO, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 32}, gpu="L40S", unit="B", measures=RESERVED, note="DoRA recomputes the weight norm of W + BA every forward: not modelled"),
    Row("NG006", TRAINING, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 32}, gpu="L40S", unit="B", measures=RESERVED, note="LoRA-FA: A frozen, fewer optimizer states"),
    Row("NG007", INFO, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 1}, gpu="L40S", unit="B", measures=RESERVED, note="IA3 is not LoRA: sized as a rank-1 LoRA"),
    Row("NG008", INFO, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 1}, gpu="L40S", unit="B", measures=RESERVED, note="prompt tuning lengthens every sequence: not modelled"),
    Row("NG009", INFO, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 1}, gpu="L40S", unit="B", measures=RESERVED, note="LayerNorm tuning: sized as a rank-1 LoRA"),
    Row("NG010", TRAINING, "Llama-3.2-3B", {**PEFT, "method": "full"}, gpu="L40S", unit="B", measures=RESERVED, note="June 2025 run (torch 2.7)"),
    Row("NG011", TRAINING, "Llama-3.2-3B", {**PEFT_LORA, "lora_rank": 32}, gpu="L40S", unit="B", measures=RESERVED, note="June 2025 run (torch 2.7)"),
    # torchtune "Optimization flags", cumulative.
    Row("NG012", INFO, "Llama-3.2-3B", {**TT_FLAGS, "context": 512}, gpu=A100, note="unpacked alpaca: the longest batch is not stated"),
    Row("NG013", TRAINING, "Llama-3.2-3B", TT_FLAGS, gpu=A100),
    Row("NG014", TRAINING, "Llama-3.2-3B", {**TT_FLAGS, "compile": True}, gpu=A100),
    Row("NG015", TRAINING, "Llama-3.2-3B", {**TT_FLAGS, "compile": True, "chunked_loss": True}, gpu=A100),
    Row("NG016", TRAINING, "Llama-3.2-3B", TT_PACKED, gpu=A100),
    Row("NG017", TRAINING, "Llama-3.2-3B", {**TT_PACKED, "optimizer_in_backward": True}, gpu=A100),
    Row("NG018", TRAINING, "Llama-3.2-3B", {**TT_PACKED, "optimizer_in_backward": True, "activation_offload": True}, gpu=A100),
    Row("NG019", TRAINING, "Llama-3.2-3B", {**TT_PACKED, "optimizer_in_backward": True, "activation_offload": True, "optimizer": "adamw_8bit"}, gpu=A100),
    Row("NG020", TRAINING, "Llama-3.2-3B", {**TT_ADAPTERS, "method": "lora"}, gpu=A100, note="LoRA on q, v, output_proj and the MLP: mapped to all linear layers"),
    Row("NG021", TRAINING, "Llama-3.2-3B", {**TT_ADAPTERS, "method": "qlora"}, gpu=A100),
    # torchtune README, May 2024 (bs 4, 2048 tokens).
    Row("NG022", TRAINING, "Llama-2-7B", {**TT_2024, "method": "qlora", "lora_rank": 8, "compile": True}, gpu="RTX 4090", unit="GB", measures=RESERVED),
    Row("NG023", TRAINING, "Llama-2-7B", {**TT_2024, "method": "lora", "lora_rank": 8, "lora_targets": "attention"}, gpu="RTX 4090", unit="GB", measures=RESERVED),
    Row("NG024", INFO, "Llama-2-7B", {**TT_2024, "method": "lora", "lora_rank": 8, "lora_targets": "attention", "grad_checkpointing": False}, gpu="RTX 4090", gpus=2, unit="GB", per_gpu=True, measures=RESERVED, note="the stated 2048 tokens are a cap: unpacked alpaca batches are padded to their longest sample, and 2 x 4 x 2048 tokens without checkpointing would need about 50 GB per GPU"),
    Row("NG025", TRAINING, "Llama-2-7B", {**TT_2024, "method": "full", "optimizer": "paged_adamw", "grad_accumulation": 1}, gpu="RTX 4090", unit="GB", measures=RESERVED),
    Row("NG026", TRAINING, "Llama-2-7B", {**TT_2024, "method": "full", "grad_accumulation": 1}, gpu="RTX 4090", gpus=4, unit="GB", per_gpu=True, measures=RESERVED),
    Row("NG027", INFO, "Llama-2-70B", {**TT_2024, "method": "lora", "lora_rank": 16, "lora_targets": "attention", "context": 4096, "grad_accumulation": 1}, gpu=A100, gpus=8, unit="GB", per_gpu=True, measures=RESERVED, note="the stated 4096 tokens are a cap: unpacked alpaca batches are padded to their longest sample, and 4 x 4096 tokens of 70B checkpoints alone take 21 GB per GPU"),
    Row("NG028", INFO, "Llama-2-70B", {**TT_2024, "method": "full", "context": 4096, "optimizer": "paged_adamw", "grad_accumulation": 1}, gpu=A100, gpus=8, unit="GB", per_gpu=True, measures=RESERVED, note="no config published for this run"),
    # torchtune README, April 2024: the configs as shipped (bs 2, alpaca up to 512 tokens).
    Row("NG029", INFO, "Llama-2-7B", {**TT_APRIL, "method": "qlora", "lora_rank": 8}, gpu="RTX 4090", unit="GB", measures=RESERVED, note="reserved memory keeps the high-water mark of torchtune's 2024 QLoRA model load (9.13 GB reserved after init, the QLoRA tutorial: GT091)"),
    Row("NG030", INFO, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 8, "lora_targets": "attention", "grad_checkpointing": False}, gpu="RTX 4090", gpus=2, unit="GB", per_gpu=True, measures=RESERVED, note="probably the FSDP init's high-water mark: with sync_module_states rank 0 holds the whole bf16 model on its GPU before sharding, and reserved memory keeps it"),
    Row("NG031", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 8, "lora_targets": "attention"}, gpu="RTX 4090", unit="GB", measures=RESERVED),
    Row("NG032", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "full", "optimizer": "paged_adamw", "grad_accumulation": 1}, gpu="RTX 4090", unit="GB", measures=RESERVED),
    Row("NG033", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "full", "grad_accumulation": 1}, gpu="RTX 4090", gpus=4, unit="GB", per_gpu=True, measures=RESERVED),
    # torchtune LoRA tutorial (7B_lora_single_device, bs 2, alpaca_cleaned up to 512 tokens).
    Row("NG034", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 8, "lora_targets": "attention"}, unit="GB", measures=RESERVED),
    Row("NG035", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 8}, unit="GB", measures=RESERVED, note="LoRA on the output head too: mapped to all linear layers"),
    Row("NG036", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 64, "lora_targets": "attention"}, unit="GB", measures=RESERVED),
    Row("NG037", TRAINING, "Llama-2-7B", {**TT_APRIL, "method": "lora", "lora_rank": 64}, unit="GB", measures=RESERVED),
    Row("NG038", TRAINING, "Llama-3-8B", {**TT_APRIL, "method": "lora", "lora_rank": 8, "lora_targets": "attention"}, unit="GB", measures=RESERVED),
    Row("NG039", WEIGHTS, "Llama-3.2-3B", {"task": "training", "engine": "torchtune", "method": "lora", "lora_rank": 64}, compare="weights_adapters", note="allocated after model init"),
    # Axolotl PR #602: open_llama_3b_v2 examples, sample packing to 1024 tokens.
    Row("NG049", TRAINING, "OpenLLaMA-3B-v2", {**AXOLOTL, "method": "qlora", "precision": "int8", "optimizer": "adamw_8bit"}, unit="GB", measures=SMI, note="LoRA on an 8-bit base (load_in_8bit)"),
    Row("NG050", TRAINING, "OpenLLaMA-3B-v2", {**AXOLOTL, "method": "qlora", "optimizer": "paged_adamw"}, unit="GB", measures=SMI),
    Row("NG051", TRAINING, "OpenLLaMA-3B-v2", {**AXOLOTL, "method": "full", "batch": 1, "optimizer": "adamw_8bit"}, unit="GB", measures=SMI, note="precision of the run uncertain: bf16 assumed"),
    Row("NG052", INFO, "Mistral-7B-v0.1", {"task": "training", "engine": "axolotl", "method": "qlora", "precision": "int8", "batch": 1, "context": 4096}, gpu=A100, unit="GB", note="allocated at a step's end (no activations); LoRA rank unstated"),
    Row("NG053", INFO, "Mistral-7B-v0.1", {"task": "training", "engine": "axolotl", "method": "qlora", "precision": "int8", "batch": 2, "context": 4096}, gpu=A100, note="out of memory; checkpointing and attention settings unstated"),
    Row("NG054", INFO, "LLaMA-7B", {"task": "training", "method": "full", "batch": 16, "context": 256, "optimizer": "adamw_8bit"}, gpu="RTX 4090", note="GaLore's projected 8-bit Adam per layer is not modelled"),
    Row("NG055", INFO, "Llama-3-8B", {"task": "training", "engine": "llama-factory", "method": "freeze", "batch": 2, "context": 1024}, gpu="RTX 3090", unit="GB", note="BAdam trains one block at a time: sized as freeze"),
    Row("NG056", INFO, "Llama-2-7B", {"task": "training", "engine": "llama-factory", "method": "freeze", "batch": 2, "context": 1024}, gpu="RTX 3090", unit="GB", note="BAdam trains one block at a time: sized as freeze"),
    Row("NG057", INFO, "Llama-3.2-3B", {"task": "training", "method": "lora", "lora_rank": 8, "lora_targets": "attention", "batch": 4, "context": 128, "grad_checkpointing": False}, unit="GB", note="mlx-lm on CUDA is not a modelled framework"),
    # LLaMA-Factory performance comparison: LLaMA2-7B QLoRA rank 8, one A100 40GB.
    *(Row(f"LF{i + 1:03d}", TRAINING, "Llama-2-7B-long", {**LF, "context": n}, gpu="A100 40GB", unit="GB", measures=SMI) for i, n in enumerate((1024, 2048, 4096, 8192, 16384, 32768))),
    *(Row(f"LF{i + 7:03d}", TRAINING, "Llama-2-7B-long", {**UNSLOTH_2024, "context": n}, gpu="A100 40GB", unit="GB", measures=SMI, logit_bytes=2, checkpoints_at_loss=True, note=OLD_UNSLOTH) for i, n in enumerate((1024, 2048, 4096, 8192, 16384, 32768, 65536, 100000))),
    Row("LF015", TRAINING, "Llama-2-7B", LF_LORA, unit="GB", measures=SMI, note="SDPA attention (transformers' default since 4.36) keeps no score matrix either"),
    Row("LF016", TRAINING, "Llama-2-7B", LF_LORA, unit="GB", measures=SMI),
    Row("LF017", TRAINING, "Llama-2-7B", {**LF_LORA, "engine": "unsloth", "optimizer": "adamw"}, unit="GB", measures=SMI, logit_bytes=2, checkpoints_at_loss=True, note=OLD_UNSLOTH),
    Row("LF018", TRAINING, "Llama-2-7B", {**LF_LORA, "method": "qlora"}, unit="GB", measures=SMI),
    Row("LF019", TRAINING, "Llama-2-7B", {**LF_LORA, "method": "qlora", "engine": "unsloth", "optimizer": "adamw"}, unit="GB", measures=SMI, logit_bytes=2, checkpoints_at_loss=True, note=OLD_UNSLOTH),
)
# fmt: on
