"""Model states per GPU once the recipe's backend has sharded (and maybe offloaded) a replica.

ZeRO's stages (ZeRO paper arXiv:1910.02054 §5): stage 1 divides the optimizer states and fp32
masters by the data-parallel group, stage 2 also the gradients, stage 3 also the parameters.
DeepSpeed keeps its 16-bit gradients whole below stage 3 and an fp32 gradient partition beside the
optimizer (estimator/frameworks/zero.py); FSDP FULL_SHARD is stage 3, SHARD_GRAD_OP stage 2, and
the units it gathers are in estimator/frameworks/fsdp_sharding.py. DDP keeps a second copy of the
gradients in its buckets unless gradient_as_bucket_view=True (PyTorch DistributedDataParallel
docs: it "can reduce peak memory usage ... equal to the total gradients size").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..frameworks import fsdp_sharding, zero
from ..frameworks.profile import Recipe
from ..models.types import Architecture
from ..precision import WeightFormat, weight_bytes
from .training import TrainingStates, layer_params


@dataclass(frozen=True, slots=True)
class ShardedStates:
    """One GPU's share of the model states, and where the offloaded rest lives."""

    weights: int
    adapters: int
    gradients: int
    master_weights: int
    optimizer_states: int
    buffers: int  # communication and gather buffers
    ram_bytes: int  # this GPU's offloaded states in CPU RAM
    disk_bytes: int  # ... on NVMe
    head_gradients: int  # embedding / lm_head gradients, as this GPU holds them


def _div(value: float, n: int) -> int:
    return math.ceil(value / n)


def shard(
    states: TrainingStates,
    recipe: Recipe,
    arch: Architecture,
    fmt: WeightFormat,
    method: str,
) -> ShardedStates:
    s = recipe.sharding
    n = max(1, s.group)
    per = states.trainable
    trainable = states.trainable_params
    fp32_grads = round(per.gradient_fp32 * trainable)
    grads16 = states.gradients
    weights, adapters = states.weights, states.adapters
    master, optimizer = states.master_weights, states.optimizer_states
    head = states.head_gradients
    buffers = 0
    if s.backend == "ddp":
        buffers = grads16 + fp32_grads
    if s.backend in ("single", "ddp"):
        return ShardedStates(
            weights, adapters, grads16 + fp32_grads, master, optimizer, buffers, 0, 0, head
        )
    stage = s.stage
    if stage >= 1:
        master, optimizer, fp32_grads = _div(master, n), _div(optimizer, n), _div(fp32_grads, n)
    if stage >= 2 and s.backend == "fsdp":
        grads16, head = _div(grads16, n), _div(head, n)
    if stage >= 3:
        weights, adapters = _div(weights, n), _div(adapters, n)
    if s.backend == "deepspeed":
        buffers = zero.buffer_bytes(stage, arch.hidden_size, states.largest_layer_params)
    else:
        buffers = _fsdp_buffers(states, arch, fmt, method, stage)
    ram = disk = 0
    if s.offload is not None:
        moved = master + optimizer + fp32_grads
        if s.backend == "fsdp" or stage >= 2:
            moved += grads16
            grads16 = 0
        if stage >= 3:
            moved += weights + adapters
            weights = adapters = 0
        master = optimizer = fp32_grads = 0
        if s.offload == "nvme":
            disk = moved
            ram = zero.nvme_ram_bytes(_div(trainable, n))
        else:
            ram = moved
    return ShardedStates(
        weights, adapters, grads16 + fp32_grads, master, optimizer, buffers, ram, disk, head
    )


def _fsdp_buffers(
    states: TrainingStates, arch: Architecture, fmt: WeightFormat, method: str, stage: int
) -> int:
    """Gathered units: a decoder layer's parameters as the forward uses them (16-bit, or the
    quantized base of QLoRA) twice, its 16-bit gradients once when it trains, and the root unit."""
    layer = layer_params(arch)
    if method in ("lora", "qlora"):
        base = weight_bytes(arch, fmt)
        unit = base.linear // arch.num_layers + 2 * arch.other_params // arch.num_layers
        grads = 0
        root = base.embedding + base.lm_head
    else:
        unit = 2 * layer
        grads = 2 * layer
        root = 2 * (arch.embedding_params + arch.lm_head_params)
    if stage < 3:
        # SHARD_GRAD_OP keeps the parameters gathered from the forward to the backward: the
        # replica is held anyway, no unit buffers on top.
        return grads
    return fsdp_sharding.buffer_bytes(unit, grads, root)
