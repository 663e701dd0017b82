"""Inference memory pieces the engines share: the plan they return, the KV-cache step, and the
contiguous layer split over several devices. Each engine's own plan is in estimator/engines/."""

from __future__ import annotations

from dataclasses import dataclass

from ..models.types import Architecture
from ..precision import WeightBytes
from ..result import Components, Note
from .kv_cache import KvCache
from .placement import split_layers


@dataclass(frozen=True, slots=True)
class InferencePlan:
    devices: list[Components]
    steps: list[Note]
    # For CPU offload: bytes of each decoder layer (weights + KV) and what must stay on the GPU.
    layer_bytes: list[int]
    gpu_fixed: int  # embeddings and lm_head when they sit on the GPUs
    host_only: int  # bytes that live in RAM anyway (llama.cpp's input embeddings)
    # MoE expert weights of each decoder layer (0 for dense layers), for expert offload.
    expert_bytes: tuple[int, ...] = ()
    # Decoder layers on each device of a layer split (llama.cpp --tensor-split), () otherwise.
    layer_groups: tuple[int, ...] = ()


def kv_per_layer(arch: Architecture, kv: KvCache) -> list[int]:
    return list(kv.per_layer)


def kv_note(arch: Architecture, kv: KvCache, block: int) -> Note:
    lay = kv.layout
    return Note(
        "kv_cache",
        {
            "layout": lay.layout,
            "layers": lay.full_layers + lay.sliding_layers,
            "full_layers": lay.full_layers,
            "sliding_layers": lay.sliding_layers,
            "window": lay.window,
            "kv_heads": arch.num_kv_heads,
            "head_dim": arch.head_dim,
            "elements_per_token_layer": lay.elements_per_token_layer,
            "element_bytes": lay.element_bytes,
            "per_token_bytes": kv.bytes_per_token,
            "tokens": kv.tokens_full,
            "sliding_tokens": kv.tokens_sliding,
            "sequences": kv.sequences,
            "block": block,
            "bytes": kv.bytes,
        },
    )


def layered(
    arch: Architecture,
    wb: WeightBytes,
    kv: KvCache,
    first: int,
    last: int,
    activations: int,
    overhead: int,
    devices: int,
    steps: list[Note],
    host_only: int,
    experts: int = 0,
    capacities: tuple[int, ...] = (),
) -> InferencePlan:
    """Devices for a contiguous layer split: the first holds the embeddings (unless they stay
    in host memory), the last the lm_head; each runs its layers' activations. `experts` bytes
    of MoE expert weights are spread over the MoE layers. Different GPUs (`capacities`) take
    layers in proportion to their memory."""
    kv_layers = kv_per_layer(arch, kv)
    layer_weights = [(wb.linear + wb.other) // arch.num_layers] * arch.num_layers
    layer_weights[-1] += (wb.linear + wb.other) - sum(layer_weights)
    layers = [a + b for a, b in zip(layer_weights, kv_layers, strict=True)]
    groups = split_layers(layers, devices, first, last, capacities)
    out = []
    for i, group in enumerate(groups):
        weights = sum(layer_weights[j] for j in group)
        weights += (first if i == 0 else 0) + (last if i == len(groups) - 1 else 0)
        out.append(
            Components(
                weights=weights,
                kv_cache=sum(kv_layers[j] for j in group),
                activations=activations,
                overhead=overhead,
            )
        )
    if devices > 1:
        steps.append(Note("layer_split", {"devices": devices}))
    return InferencePlan(
        out,
        steps,
        layers,
        first + last,
        host_only,
        expert_layers(arch, experts),
        tuple(len(g) for g in groups) if devices > 1 else (),
    )


def moe_layer_count(arch: Architecture) -> int:
    """Decoder layers with routed experts: an expert matrix kind occurs once per expert in
    each of them."""
    counts = [lin.count for lin in arch.linears if lin.group == "expert"]
    return min(arch.num_layers, max(counts) // arch.num_experts) if counts else 0


def expert_layers(arch: Architecture, experts: int) -> tuple[int, ...]:
    """`experts` bytes over the MoE layers, taken to be the last ones (DeepSeek-V3, Kimi K2 and
    GLM-4.5 start with dense layers: first_k_dense_replace)."""
    moe = moe_layer_count(arch) if experts else 0
    if not moe:
        return ()
    dense = arch.num_layers - moe
    per = experts // moe
    return (0,) * dense + (per,) * (moe - 1) + (experts - per * (moe - 1),)
