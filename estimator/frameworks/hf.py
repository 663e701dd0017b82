"""The Hugging Face family: Trainer / TRL with PEFT, launched by accelerate with DDP, DeepSpeed or
FSDP. transformers, Axolotl, LLaMA-Factory and the deepspeed and fsdp frameworks all build their
recipe here and differ only in their defaults (HfDefaults, set in each framework's module).

- Mixed precision (Trainer bf16=True on fp32 weights, or a framework upcasting its trainable
  parameters): 16-bit compute copies, fp32 masters and fp32 AdamW moments, 2 + 2 + 4 + 8 = 16
  bytes per parameter (ZeRO paper arXiv:1910.02054 §3.1, "2Ψ + 2Ψ + KΨ", K = 12). Pure bf16
  (weights loaded in bf16, no upcast): 2 + 2 + AdamW moments in bf16.
- LoRA adapters are fp32 under PEFT >= 0.12 (autocast_adapter_dtype=True, huggingface/peft PR
  #1706): 4 + 4 + 8 bytes per adapter parameter; bf16 adapters 2 + 2 + 4.
- QLoRA: TRL's SFTTrainer calls PEFT's prepare_model_for_kbit_training (norms, embeddings and
  lm_head upcast to fp32) only when the 4-bit base is not sharded; sharded QLoRA (FSDP, ZeRO-3)
  skips it (trl/trainer/sft_trainer.py: "one should never call peft_module_casting_to_bf16 or
  prepare_model_for_kbit_training when doing QLoRA + FSDP / DS-Zero3"), as Answer.AI's
  fsdp_qlora does, so those parameters stay in the 16-bit quant storage and are sharded too.
- Liger (use_liger_kernel / the Axolotl plugin / enable_liger_kernel) swaps in its fused RMSNorm,
  SwiGLU and fused linear cross-entropy.
- Gradients: these frameworks' recipes accumulate over micro-batches (Unsloth, Axolotl and
  LLaMA-Factory examples use 4-8 steps), which keeps every gradient through the next forward;
  with grad_accumulation 1 they are freed before it (zero_grad(set_to_none=True)).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import kernels, losses, sharding, zero
from .optimizers import PAGED, optimizer_bytes, step_bytes
from .profile import Recipe, Settings, StateBytes


@dataclass(frozen=True, slots=True)
class HfDefaults:
    framework: str
    mixed_precision: bool  # trainable parameters in fp32 (AMP masters) unless asked otherwise
    kbit_upcast: bool  # QLoRA on an unsharded base: unquantized parameters upcast to fp32
    sharded: str  # backend for a full fine-tune on several GPUs
    backend: str | None = None  # a backend the framework always uses (deepspeed, fsdp)


def adapter_bytes(s: Settings) -> StateBytes:
    width = 4 if s.adapter_precision == "fp32" or s.fmt.name == "fp32" else 2
    return StateBytes(width, width, 0, optimizer_bytes(s.optimizer, width))


def accumulate(s: Settings, default: bool) -> bool:
    return default if s.grad_accumulation is None else s.grad_accumulation > 1


def build(s: Settings, d: HfDefaults) -> Recipe:
    if d.backend is not None and s.distributed is None:
        s = replace(s, distributed=d.backend)
    shard = sharding.resolve(s, d.sharded)
    fp32 = s.fmt.name == "fp32"
    mixed = d.mixed_precision if s.mixed_precision is None else s.mixed_precision
    adapter = adapter_bytes(s)
    if shard.backend == "deepspeed":
        full = zero.state_bytes(s.optimizer, shard.stage)
        adapter = full
        width = 4
    elif fp32 or (mixed and shard.backend == "fsdp"):
        # FSDP's sharded fp32 parameters are the masters; the 16-bit copies are gathered per unit.
        width = 4
        full = StateBytes(4, 4, 0, optimizer_bytes(s.optimizer, 4))
    elif mixed:
        width = 4
        full = StateBytes(2, 2, 4, optimizer_bytes(s.optimizer, 4))
    else:
        width = 2
        full = StateBytes(2, 2, 0, optimizer_bytes(s.optimizer, 2))
    layer = kernels.FUSED if s.liger else kernels.EAGER
    if s.compile:
        layer = kernels.compiled(layer)
    adapters = s.method in ("lora", "qlora")
    sharded_base = shard.backend == "fsdp" or (shard.backend == "deepspeed" and shard.stage == 3)
    return Recipe(
        framework=d.framework,
        full=full,
        adapter=adapter,
        kbit_upcast=d.kbit_upcast and not sharded_base,
        optimizer_in_backward=False,
        step_bytes=step_bytes(s.optimizer, adapter.weight if adapters else width),
        accumulate=accumulate(s, True),
        checkpointing=s.checkpointing,
        activation_offload=bool(s.activation_offload),
        kernels=layer,
        loss=losses.LIGER_FUSED if s.liger else losses.HF_UNFUSED,
        sharding=shard,
        paged_optimizer=s.optimizer in PAGED,
        kbit_upcast_skipped=d.kbit_upcast and sharded_base,
    )
