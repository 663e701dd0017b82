"""Hugging Face Trainer + DeepSpeed ZeRO (the --deepspeed config of Trainer, accelerate or TRL):
the transformers recipe with DeepSpeed's own state accounting (estimator/frameworks/zero.py).
Without a stage, ZeRO-3 on several GPUs, ZeRO-2 with CPU offload on one (the ZeRO-Offload
tutorial's setup), no partitioning on one GPU otherwise."""

from __future__ import annotations

from . import hf
from .profile import Framework, Recipe, Settings

DEFAULTS = hf.HfDefaults(
    "deepspeed", mixed_precision=True, kbit_upcast=True, sharded="deepspeed", backend="deepspeed"
)


def _build(s: Settings) -> Recipe:
    return hf.build(s, DEFAULTS)


FRAMEWORK = Framework(
    name="deepspeed",
    label="Hugging Face Trainer + DeepSpeed ZeRO",
    aliases=("ds", "zero", "deepspeed zero"),
    methods=("full", "freeze", "lora", "qlora"),
    options=frozenset({"liger", "compile", "deepspeed"}),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: "adamw",
    build=_build,
    source="DeepSpeed ZeRO estimators (stage_1_and_2.py, stage3.py); transformers DeepSpeed docs",
)
