"""Hugging Face Trainer / accelerate + FSDP (FULL_SHARD by default, SHARD_GRAD_OP for zero=2,
HYBRID_SHARD within a node for "hsdp"), with CPU offload of parameters, gradients and the
optimizer step, and FSDP + QLoRA (Answer.AI fsdp_qlora; PEFT's "FSDP + QLoRA" guide: 70B on
2x 24 GB with gradient checkpointing and CPU offload). The per-GPU buffers are in
estimator/frameworks/fsdp_sharding.py."""

from __future__ import annotations

from . import hf
from .profile import Framework, Recipe, Settings

DEFAULTS = hf.HfDefaults(
    "fsdp", mixed_precision=True, kbit_upcast=True, sharded="fsdp", backend="fsdp"
)


def _build(s: Settings) -> Recipe:
    return hf.build(s, DEFAULTS)


FRAMEWORK = Framework(
    name="fsdp",
    label="Hugging Face Trainer + FSDP",
    aliases=("fsdp2", "fully sharded", "fsdp qlora", "fsdp-qlora", "fsdp_qlora"),
    methods=("full", "freeze", "lora", "qlora"),
    options=frozenset({"liger", "compile", "fsdp", "hsdp"}),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: "adamw",
    build=_build,
    source="torch.distributed.fsdp docs; accelerate FSDP plugin; Answer.AI fsdp_qlora (2024-03)",
)
