"""LLaMA-Factory: the Hugging Face recipe with its defaults (examples/train_lora/*.yaml, hparams
finetuning_args.py): trainable parameters upcast to fp32 unless pure_bf16, no fp32 upcast of the
frozen embeddings under QLoRA (its own prepare_model_for_training upcasts neither layer norms nor
lm_head by default: upcast_layernorm / upcast_lmhead_output False), gradient checkpointing on
(disable_gradient_checkpointing False), Trainer's default optimizer. enable_liger_kernel and
DeepSpeed configs (examples/deepspeed/ds_z3_config.json) as options."""

from __future__ import annotations

from . import hf
from .profile import Framework, Recipe, Settings

DEFAULTS = hf.HfDefaults(
    "llama-factory", mixed_precision=True, kbit_upcast=False, sharded="deepspeed"
)


def _build(s: Settings) -> Recipe:
    return hf.build(s, DEFAULTS)


FRAMEWORK = Framework(
    name="llama-factory",
    label="LLaMA-Factory",
    aliases=("llamafactory", "llama_factory", "llama factory", "llama-board"),
    methods=("full", "freeze", "lora", "qlora"),
    options=frozenset({"liger", "ddp", "deepspeed", "fsdp"}),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: "adamw",
    build=_build,
    source="hiyouga/LLaMA-Factory hparams/finetuning_args.py, model/model_utils/checkpointing.py",
)
