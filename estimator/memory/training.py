"""Training state memory: weights, gradients, fp32 master weights, optimizer states, adapters,
and how ZeRO / FSDP shards them across data-parallel GPUs or offloads them to CPU RAM.

Bytes per trainable parameter, by framework:
- transformers (HF Trainer + PEFT) and plain PyTorch mixed precision: 2 weights + 2 gradients +
  4 fp32 master + 8 AdamW = 16 (ZeRO paper arXiv:1910.02054 §3.1 "2Ψ + 2Ψ + KΨ",
  K = 12). fp32 training: 4 + 4 + 8, no master copy.
- DeepSpeed: its estimators count 2 (16-bit gradients) + 4 (fp32 gradients) + 4 (fp32 params)
  + 8 (Adam) = 18 per parameter on top of the 16-bit weights
  (deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs; stage3.py
  estimate_zero3_model_states_mem_needs adds 4 x the largest layer for gathering).
- torchtune: pure bf16: weights, gradients and AdamW states all bf16, no master copy
  (recipes train with dtype bf16; torchtune PR #389 "true bf16"); LoRA adapters bf16
  (validate_expected_param_dtype). Its single-device full recipe fuses the optimizer step into
  the backward pass (8B_full_single_device.yaml: optimizer_in_bwd True), so gradients never
  exist for the whole model at once.
- LoRA adapters under PEFT >= 0.12 are fp32 even on a bf16 base (autocast_adapter_dtype=True,
  huggingface/peft PR #1706): 4 + 4 + 8 = 16 per adapter parameter; older PEFT (and
  autocast_adapter_dtype=False) kept them in the base dtype: 2 + 2 + AdamW moments in bf16.
- QLoRA under PEFT: prepare_model_for_kbit_training casts every non-quantized parameter (norms,
  embeddings, lm_head) to fp32 (peft src/peft/utils/other.py).
Optimizer states per parameter: AdamW two fp32 moments (8); 8-bit AdamW (bitsandbytes) two int8
moments (2, block scales negligible); SGD with momentum one (4); Adafactor factored second
moments, rows + columns per matrix (Shazeer & Stern 2018, arXiv:1804.04235), no first moment.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models.types import Architecture
from ..precision import QUANTIZED_GROUPS, WeightFormat, weight_bytes
from .constants import FREEZE_TRAINABLE_LAYERS

LORA_GROUPS = {"all": QUANTIZED_GROUPS, "attention": frozenset({"attention"})}


@dataclass(frozen=True, slots=True)
class StateBytes:
    """Per-parameter byte costs of one kind of trainable parameter."""

    weight: float
    gradient: float
    master: float
    optimizer: float


@dataclass(frozen=True, slots=True)
class TrainingStates:
    """Model states for one full replica (before any sharding)."""

    weights: int  # frozen and trainable base weights
    adapters: int  # LoRA adapter weights (and trainable embedding copies)
    gradients: int
    master_weights: int
    optimizer_states: int
    trainable_params: int
    adapter_params: int
    largest_layer_params: int
    trainable: StateBytes
    optimizer_in_backward: bool


def optimizer_bytes(name: str, param_bytes: float) -> float:
    """Bytes of optimizer state per trainable parameter whose optimizer sees `param_bytes`-wide
    values (fp32 masters or fp32 adapters: 4; pure bf16 training: 2). torch's AdamW and SGD keep
    their moments in the parameter's dtype; bitsandbytes' paged AdamW keeps 32-bit moments and
    its 8-bit optimizers one byte per moment."""
    return {
        "adamw": 2 * param_bytes,
        "paged_adamw": 8.0,
        "adamw_8bit": 2.0,
        "paged_adamw_8bit": 2.0,
        "sgd": param_bytes,
        "adafactor": 0.0,
    }[name]


def adafactor_bytes(arch: Architecture) -> int:
    """Factored second moment: one fp32 value per row and per column of each matrix, full for
    vectors (Adafactor, arXiv:1804.04235 §3)."""
    matrices = sum(lin.count * (lin.d_in + lin.d_out) for lin in arch.linears)
    tables = (arch.vocab_size + arch.hidden_size) * (1 if arch.tie_embeddings else 2)
    biases = sum(lin.count * lin.d_out for lin in arch.linears if lin.bias)
    return 4 * (matrices + tables + biases + arch.other_params)


def lora_params(arch: Architecture, rank: int, targets: str) -> int:
    """A (rank x d_in) and B (d_out x rank) for every targeted matrix (LoRA, arXiv:2106.09685)."""
    groups = LORA_GROUPS[targets]
    return sum(
        rank * (lin.d_in + lin.d_out) * lin.count for lin in arch.linears if lin.group in groups
    )


def lora_adafactor_bytes(arch: Architecture, rank: int, targets: str) -> int:
    """Adafactor's factored moments for the adapter matrices: rows + columns of A and of B."""
    groups = LORA_GROUPS[targets]
    return 4 * sum(
        (2 * rank + lin.d_in + lin.d_out) * lin.count for lin in arch.linears if lin.group in groups
    )


def _full_bytes(framework: str, fp32: bool, optimizer: str, zero: int) -> StateBytes:
    if fp32:
        return StateBytes(4, 4, 0, optimizer_bytes(optimizer, 4))
    if framework == "torchtune":
        return StateBytes(2, 2, 0, optimizer_bytes(optimizer, 2))
    if framework == "deepspeed":
        return _deepspeed_bytes(optimizer, zero)
    return StateBytes(2, 2, 4, optimizer_bytes(optimizer, 4))


def _deepspeed_bytes(optimizer: str, zero: int) -> StateBytes:
    """16-bit weights, then 16-bit + fp32 gradients, fp32 master, Adam: DeepSpeed's "18" per
    parameter. Stage 3 reduce-scatters the 16-bit gradients bucket by bucket, so only the fp32
    partition stays (estimate_zero3_model_states_mem_needs: 18·P/N including the weights)."""
    return StateBytes(2, 4 if zero == 3 else 6, 4, optimizer_bytes(optimizer, 4))


def _adapter_bytes(framework: str, optimizer: str, precision: str, zero: int) -> StateBytes:
    if framework == "deepspeed":
        return _deepspeed_bytes(optimizer, zero)
    width = 4 if precision == "fp32" else 2
    return StateBytes(width, width, 0, optimizer_bytes(optimizer, width))


def _largest_layer(arch: Architecture) -> int:
    per_layer = sum(lin.params for lin in arch.linears) // arch.num_layers
    return max(per_layer, arch.embedding_params)


def training_states(
    arch: Architecture,
    *,
    method: str,
    base_format: WeightFormat,
    framework: str,
    optimizer: str,
    lora_rank: int,
    lora_targets: str,
    train_embeddings: bool,
    adapter_precision: str,
    zero: int,
    single_device: bool,
) -> TrainingStates:
    fp32 = base_format.name == "fp32"
    params = arch.params
    in_backward = framework == "torchtune" and method == "full" and single_device
    if method in ("full", "freeze"):
        per = _full_bytes(framework, fp32, optimizer, zero)
        if method == "full":
            trainable = params
        else:
            layer = (arch.linear_params + arch.other_params) // arch.num_layers
            trainable = min(params, FREEZE_TRAINABLE_LAYERS * layer)
        frozen = params - trainable
        optimizer_states = round(per.optimizer * trainable)
        if optimizer == "adafactor":
            optimizer_states = round(adafactor_bytes(arch) * trainable / params)
        gradients = 0 if in_backward else round(per.gradient * trainable)
        return TrainingStates(
            weights=round(per.weight * trainable + (4 if fp32 else 2) * frozen),
            adapters=0,
            gradients=gradients,
            master_weights=round(per.master * trainable),
            optimizer_states=optimizer_states,
            trainable_params=trainable,
            adapter_params=0,
            largest_layer_params=_largest_layer(arch),
            trainable=per,
            optimizer_in_backward=in_backward,
        )
    # LoRA and QLoRA: a frozen base, small trainable adapters.
    base = weight_bytes(arch, base_format)
    base_total = base.total
    if method == "qlora" and framework == "transformers" and base_format.kind == "nf4":
        # prepare_model_for_kbit_training upcasts the non-quantized parameters to fp32.
        base_total += base.embedding + base.lm_head + base.other
    per = _adapter_bytes(framework, optimizer, adapter_precision, zero)
    adapter = lora_params(arch, lora_rank, lora_targets)
    embeddings = arch.embedding_params + arch.lm_head_params if train_embeddings else 0
    trainable = adapter + embeddings
    if optimizer == "adafactor":
        optimizer_states = lora_adafactor_bytes(arch, lora_rank, lora_targets) + 4 * embeddings
    else:
        optimizer_states = round(per.optimizer * trainable)
    return TrainingStates(
        weights=base_total,
        adapters=round(per.weight * trainable),
        gradients=round(per.gradient * trainable),
        master_weights=round(per.master * trainable),
        optimizer_states=optimizer_states,
        trainable_params=trainable,
        adapter_params=adapter,
        largest_layer_params=_largest_layer(arch),
        trainable=per,
        optimizer_in_backward=False,
    )
