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


def kv_per_layer(arch: Architecture, kv: KvCache) -> list[int]:
    lay = kv.layout
    per = lay.elements_per_token_layer * lay.element_bytes * kv.sequences
    sliding = arch.sliding_layers if lay.sliding_layers else (False,) * arch.num_layers
    return [round(per * (kv.tokens_sliding if slide else kv.tokens_full)) for slide in sliding]


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
) -> InferencePlan:
    """Devices for a contiguous layer split: the first holds the embeddings (unless they stay
    in host memory), the last the lm_head; each runs its layers' activations."""
    kv_layers = kv_per_layer(arch, kv)
    layer_weights = [(wb.linear + wb.other) // arch.num_layers] * arch.num_layers
    layer_weights[-1] += (wb.linear + wb.other) - sum(layer_weights)
    layers = [a + b for a, b in zip(layer_weights, kv_layers, strict=True)]
    groups = split_layers(layers, devices, first, last)
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
    return InferencePlan(out, steps, layers, first + last, host_only)
