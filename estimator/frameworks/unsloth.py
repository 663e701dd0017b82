"""Unsloth (FastLanguageModel + TRL SFTTrainer), as its code runs by default.

- Gradient checkpointing "unsloth" (get_peft_model's default) offloads every layer's checkpointed
  input to CPU RAM asynchronously; below OFFLOAD_MIN_SEQUENCE tokens it falls back to plain
  checkpointing (unsloth/models/_utils.py apply_unsloth_gradient_checkpointing: "For seq < 512,
  gc='unsloth' offloading overhead isn't worth it").
- Fused Triton kernels: RMSNorm and SwiGLU keep only their inputs (kernels/rms_layernorm.py,
  kernels/swiglu.py); the loss is unsloth_fused_ce_loss, chunked to a memory target
  (estimator/frameworks/losses.py).
- 4-bit bases keep embeddings, lm_head and norms in bf16 (no fp32 upcast); LoRA adapters and, in
  a full fine-tune, all trainable parameters are upcast to fp32 (unsloth_zoo training_utils.py
  prepare_model_for_training, float32_mixed_precision).
- Its notebooks train with optim="adamw_8bit" and gradient accumulation. Several GPUs run as DDP.
- Its notebooks, SFT and GRPO alike, load the base with load_in_4bit=True and train LoRA adapters
  (get_peft_model r=16; unslothai/notebooks nb/Llama3.1_(8B)-Alpaca.ipynb, nb/Qwen2.5_(3B)-GRPO.ipynb):
  QLoRA is what Unsloth trains when the question names no method.
"""

from __future__ import annotations

from . import hf, kernels, losses, sharding
from .optimizers import PAGED, optimizer_bytes, step_bytes
from .profile import Framework, Recipe, Settings, StateBytes

OFFLOAD_MIN_SEQUENCE = 512


def _build(s: Settings) -> Recipe:
    shard = sharding.resolve(s, "ddp")
    full = StateBytes(4, 4, 0, optimizer_bytes(s.optimizer, 4))
    adapter = hf.adapter_bytes(s)
    offload = s.activation_offload
    if offload is None:
        offload = s.checkpointing and s.context >= OFFLOAD_MIN_SEQUENCE
    return Recipe(
        framework="unsloth",
        full=full,
        adapter=adapter,
        kbit_upcast=False,
        optimizer_in_backward=False,
        step_bytes=step_bytes(s.optimizer, 4),
        accumulate=hf.accumulate(s, True),
        checkpointing=s.checkpointing,
        activation_offload=offload and s.checkpointing,
        kernels=kernels.UNSLOTH,
        loss=losses.UNSLOTH_FUSED,
        sharding=shard,
        paged_optimizer=s.optimizer in PAGED,
    )


FRAMEWORK = Framework(
    name="unsloth",
    label="Unsloth",
    aliases=("unsloth ai", "unslothai", "fastlanguagemodel"),
    methods=("full", "lora", "qlora"),
    options=frozenset({"activation_offload", "ddp"}),
    adapter_precision="fp32",
    default_optimizer=lambda method, gpus: "adamw_8bit",
    build=_build,
    source="unslothai/unsloth models/llama.py, models/_utils.py; unsloth_zoo training_utils.py",
    default_method="qlora",
    default_method_source="unslothai/notebooks: load_in_4bit=True, get_peft_model",
)
