"""torchtune, as its recipes' configs run (recipes/configs/llama3_1/*.yaml, llama3_2/*.yaml):

- pure bf16: weights, gradients and AdamW moments all bf16, no master copy (dtype: bf16;
  torchtune PR #389 "true bf16"); LoRA adapters bf16 (validate_expected_param_dtype).
- QLoRA: every linear layer in NF4 (FrozenNF4Linear / LoRALinear quantize_base), embeddings and
  the output projection in bf16.
- full_finetune_single_device: bitsandbytes PagedAdamW8bit with optimizer_in_bwd: True (each
  parameter steps as soon as its gradient exists, so the model never holds all gradients;
  gradient_accumulation_steps must be 1). Distributed recipes shard with FSDP2 (fully_shard),
  LoRA ones too.
- enable_activation_checkpointing: True, CEWithChunkedOutputLoss (8 chunks; torch.nn.CrossEntropyLoss
  on the model's fp32 output, self.output(h).float(), before August 2024), fused AdamW
  (fused: True), compile: False, enable_activation_offloading: False by default; full configs
  accumulate no gradients, LoRA configs 8-64 steps.
"""

from __future__ import annotations

from . import hf, kernels, losses, sharding
from .optimizers import PAGED, optimizer_bytes, step_bytes
from .profile import Framework, Recipe, Settings, StateBytes


def _build(s: Settings) -> Recipe:
    shard = sharding.resolve(s, "fsdp", shard_adapters=True)
    width = 4 if s.fmt.name == "fp32" else 2
    full = StateBytes(width, width, 0, optimizer_bytes(s.optimizer, width))
    in_backward = s.optimizer_in_backward
    if in_backward is None:
        in_backward = s.method == "full" and shard.backend == "single"
    layer = kernels.compiled(kernels.EAGER) if s.compile else kernels.EAGER
    if s.chunked_loss is False:
        loss = losses.HF_UNFUSED
    elif s.compile:
        loss = losses.TORCHTUNE_CHUNKED_COMPILED
    else:
        loss = losses.TORCHTUNE_CHUNKED_EAGER
    return Recipe(
        framework="torchtune",
        full=full,
        adapter=hf.adapter_bytes(s),
        kbit_upcast=False,
        optimizer_in_backward=in_backward,
        step_bytes=step_bytes(s.optimizer, width),
        accumulate=False if in_backward else hf.accumulate(s, s.method in ("lora", "qlora")),
        checkpointing=s.checkpointing,
        activation_offload=bool(s.activation_offload),
        kernels=layer,
        loss=loss,
        sharding=shard,
        paged_optimizer=s.optimizer in PAGED,
    )


def _optimizer(method: str, gpus: int) -> str:
    return "paged_adamw_8bit" if method == "full" and gpus == 1 else "adamw"


FRAMEWORK = Framework(
    name="torchtune",
    label="torchtune",
    aliases=("torch tune", "tune"),
    methods=("full", "lora", "qlora"),
    options=frozenset(
        {"compile", "chunked_loss", "optimizer_in_backward", "activation_offload", "fsdp", "hsdp"}
    ),
    adapter_precision="bf16",
    default_optimizer=_optimizer,
    build=_build,
    source="pytorch/torchtune recipes/configs (commit 1814feb), recipes/*_single_device.py",
)
