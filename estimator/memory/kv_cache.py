"""KV cache: 2 x layers x kv_heads x head_dim x tokens x bytes x sequences, layer by layer.

formulas.md §4: sliding-window layers hold at most `sliding_window` tokens where the runtime
keeps a rolling buffer; MLA caches one latent vector (kv_lora_rank + rope dims) per layer when the
runtime absorbs the projections (vLLM, llama.cpp), or full per-head K and V when it does not
(transformers' DeepSeek implementation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..models.types import Architecture


@dataclass(frozen=True, slots=True)
class KvLayout:
    """How one token is cached in one layer, and how many tokens each layer keeps."""

    elements_per_token_layer: int  # K and V elements of one token in one layer
    element_bytes: float
    full_layers: int
    sliding_layers: int
    window: int | None
    layout: str  # standard, mla_latent, mla_expanded


@dataclass(frozen=True, slots=True)
class KvCache:
    layout: KvLayout
    tokens_full: int  # tokens kept per sequence in a full-attention layer
    tokens_sliding: int  # tokens kept per sequence in a sliding-window layer
    sequences: int
    bytes: int

    @property
    def bytes_per_token(self) -> float:
        """Bytes one token of one sequence adds when every layer keeps it."""
        lay = self.layout
        return (
            lay.elements_per_token_layer
            * lay.element_bytes
            * (lay.full_layers + lay.sliding_layers)
        )


def layout(
    arch: Architecture, element_bytes: float, *, mla_latent: bool, cap_sliding: bool
) -> KvLayout:
    if arch.mla is not None:
        mla = arch.mla
        if mla_latent:
            elements, kind = mla.kv_lora_rank + mla.qk_rope_head_dim, "mla_latent"
        else:
            per_head = mla.qk_nope_head_dim + mla.qk_rope_head_dim + mla.v_head_dim
            elements, kind = arch.num_heads * per_head, "mla_expanded"
    else:
        elements, kind = 2 * arch.num_kv_heads * arch.head_dim, "standard"
    sliding = sum(arch.sliding_layers) if cap_sliding else 0
    return KvLayout(
        elements_per_token_layer=elements,
        element_bytes=element_bytes,
        full_layers=arch.num_layers - sliding,
        sliding_layers=sliding,
        window=arch.sliding_window if sliding else None,
        layout=kind,
    )


def round_up(tokens: int, block: int) -> int:
    return math.ceil(tokens / block) * block


def kv_cache(
    lay: KvLayout,
    *,
    context: int,
    sequences: int,
    block: int = 1,
    sliding_tokens: int | None = None,
) -> KvCache:
    """KV bytes for `sequences` sequences of `context` tokens, allocated in blocks of `block`.

    `sliding_tokens` overrides what a sliding layer keeps (llama.cpp adds a micro-batch to the
    window); by default it is min(context, window).
    """
    tokens_full = round_up(context, block)
    if lay.sliding_layers:
        window_tokens = (
            sliding_tokens if sliding_tokens is not None else min(context, lay.window or context)
        )
        tokens_sliding = round_up(min(window_tokens, context), block)
    else:
        tokens_sliding = 0
    per_layer = lay.elements_per_token_layer * lay.element_bytes
    total = (
        per_layer
        * sequences
        * (lay.full_layers * tokens_full + lay.sliding_layers * tokens_sliding)
    )
    return KvCache(lay, tokens_full, tokens_sliding, sequences, round(total))
