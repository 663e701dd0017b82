"""Axolotl: the Hugging Face recipe with Axolotl's example defaults (examples/llama-3/*.yml):
weights loaded in bf16 (bf16: auto) and trained without fp32 masters, QLoRA through
prepare_model_for_kbit_training, gradient checkpointing, flash attention and sample packing,
optimizer paged_adamw_32bit for QLoRA (qlora.yml), adamw_bnb_8bit for LoRA (lora-8b.yml) and
paged_adamw_8bit for a full fine-tune (fft-8b.yaml), micro-batches with gradient accumulation.
Liger (plugins: axolotl.integrations.liger), activation_offloading: true and torch_compile as
options; DeepSpeed and FSDP configs for several GPUs."""

from __future__ import annotations

from . import hf
from .profile import Framework, Recipe, Settings

DEFAULTS = hf.HfDefaults("axolotl", mixed_precision=False, kbit_upcast=True, sharded="deepspeed")
OPTIMIZER = {"qlora": "paged_adamw", "lora": "adamw_8bit", "full": "paged_adamw_8bit"}


def _build(s: Settings) -> Recipe:
    return hf.build(s, DEFAULTS)


FRAMEWORK = Framework(
    name="axolotl",
    label="Axolotl",
    aliases=("axolotl-ai", "axolotl ai"),
    methods=("full", "lora", "qlora"),
    options=frozenset(
        {"liger", "compile", "activation_offload", "ddp", "deepspeed", "fsdp", "hsdp"}
    ),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: OPTIMIZER.get(method, "adamw"),
    build=_build,
    source="axolotl examples/llama-3/qlora.yml, lora-8b.yml, fft-8b.yaml",
)
