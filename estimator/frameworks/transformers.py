"""Hugging Face Trainer / TRL SFTTrainer with PEFT: today's plain recipe.

Mixed precision with fp32 masters (Trainer bf16=True), fp32 LoRA adapters (PEFT >= 0.12),
QLoRA through bitsandbytes with prepare_model_for_kbit_training (fp32 norms, embeddings and
lm_head), gradient checkpointing, transformers' unfused cross-entropy (12 bytes per vocabulary
entry and token), the fused AdamW that Trainer defaults to from torch 2.8 (optim
"adamw_torch_fused", transformers training_args.py). Several GPUs: accelerate DDP, and ZeRO-3 for a
full fine-tune. Liger and torch.compile (torch_compile=True) as options.
"""

from __future__ import annotations

from . import hf
from .profile import Framework, Recipe, Settings

DEFAULTS = hf.HfDefaults(
    "transformers", mixed_precision=True, kbit_upcast=True, sharded="deepspeed"
)


def _build(s: Settings) -> Recipe:
    return hf.build(s, DEFAULTS)


FRAMEWORK = Framework(
    name="transformers",
    label="Hugging Face Trainer / TRL + PEFT",
    aliases=("hf", "huggingface", "trl", "peft", "accelerate", "hf trainer", "sfttrainer"),
    methods=("full", "freeze", "lora", "qlora"),
    # activation_offload: TRL's SFTConfig(activation_offloading=True), torchtune's
    # OffloadActivations ported to trl/models/activation_offloading.py.
    options=frozenset(
        {"liger", "compile", "activation_offload", "ddp", "deepspeed", "fsdp", "hsdp"}
    ),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: "adamw",
    build=_build,
    source="transformers TrainingArguments (optim adamw_torch_fused, bf16), PEFT LoraConfig",
)
