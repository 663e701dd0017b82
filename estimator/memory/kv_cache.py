"""KV cache: 2 x layers x kv_heads x head_dim x tokens x bytes x sequences, layer by layer.

What a layer keeps depends on its kind (models/types.py):
- full attention: every token of the context;
- sliding window: at most `sliding_window` tokens where the runtime keeps a rolling buffer;
- chunked attention (Llama 4's local layers): at most one `attention_chunk_size` chunk, as
  vLLM's hybrid allocator and llama.cpp (its chunked SWA type) keep it;
- state (linear attention, Mamba): a fixed state per sequence, whatever the context (Falcon-H1
  keeps one in every layer beside the KV cache of its attention); runtimes
  keep it in the model's dtype by default (vLLM's mamba_ssm_cache_dtype "auto"), llama.cpp in
  fp32 (its recurrent memory's r and s tensors);
- none (an MLP-only layer): nothing;
- cross attention (Llama 3.2 Vision): the keys and values of one image's tokens per sequence,
  whatever the context, as transformers' and Ollama's mllama caches keep them.
MLA caches one latent vector (kv_lora_rank + rope dims) per layer when the runtime absorbs the
projections (vLLM, llama.cpp), or full per-head K and V when it does not (transformers'
DeepSeek implementation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..models.types import CHUNKED, CROSS, FULL, SLIDING, STATE, Architecture

STATE_ELEMENT_BYTES = 2.0  # bf16, the model dtype vLLM keeps Mamba/linear-attention state in


@dataclass(frozen=True, slots=True)
class KvLayout:
    """How one token is cached in one layer, and how many tokens each layer keeps."""

    elements_per_token_layer: int  # K and V elements of one token in one layer
    element_bytes: float
    full_layers: int
    sliding_layers: int
    window: int | None
    layout: str  # standard, mla_latent, mla_expanded
    chunked_layers: int = 0
    chunk: int | None = None
    state_layers: int = 0
    state_bytes_per_sequence: float = 0.0  # one STATE layer
    parallel_state: bool = False  # every layer keeps the state beside its KV cache
    cross_layers: int = 0
    cross_tokens: int = 0  # image tokens one CROSS layer keeps per sequence
    # Per layer: the kind it is cached as (full, sliding, chunked, state, none, cross).
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class KvCache:
    layout: KvLayout
    tokens_full: int  # tokens kept per sequence in a full-attention layer
    tokens_sliding: int  # tokens kept per sequence in a sliding-window layer
    sequences: int
    bytes: int
    tokens_chunked: int = 0  # tokens kept per sequence in a chunked-attention layer
    state_bytes: int = 0  # the fixed states of every sequence in every STATE layer
    per_layer: tuple[int, ...] = ()  # bytes of each layer, in order

    @property
    def bytes_per_token(self) -> float:
        """Bytes one token of one sequence adds when every attention layer keeps it."""
        lay = self.layout
        return (
            lay.elements_per_token_layer
            * lay.element_bytes
            * (lay.full_layers + lay.sliding_layers + lay.chunked_layers)
        )


def layout(
    arch: Architecture,
    element_bytes: float,
    *,
    mla_latent: bool,
    cap_sliding: bool,
    cap_chunked: bool = True,
    state_element_bytes: float = STATE_ELEMENT_BYTES,
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
    kinds = tuple(
        FULL if (k == SLIDING and not cap_sliding) or (k == CHUNKED and not cap_chunked) else k
        for k in arch.kinds
    )
    sliding, chunked = kinds.count(SLIDING), kinds.count(CHUNKED)
    return KvLayout(
        elements_per_token_layer=elements,
        element_bytes=element_bytes,
        full_layers=kinds.count(FULL),
        sliding_layers=sliding,
        window=arch.sliding_window if sliding else None,
        layout=kind,
        chunked_layers=chunked,
        chunk=arch.chunk_size if chunked else None,
        state_layers=len(kinds) if arch.parallel_state else kinds.count(STATE),
        state_bytes_per_sequence=arch.state_elements * state_element_bytes,
        parallel_state=arch.parallel_state,
        cross_layers=kinds.count(CROSS),
        cross_tokens=arch.cross_tokens,
        kinds=kinds,
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
    window); by default it is min(context, window). A chunked layer keeps min(context, chunk).
    """
    tokens_full = round_up(context, block)
    if lay.sliding_layers:
        window_tokens = (
            sliding_tokens if sliding_tokens is not None else min(context, lay.window or context)
        )
        tokens_sliding = round_up(min(window_tokens, context), block)
    else:
        tokens_sliding = 0
    tokens_chunked = (
        round_up(min(context, lay.chunk or context), block) if lay.chunked_layers else 0
    )
    per_token_layer = lay.elements_per_token_layer * lay.element_bytes * sequences
    state = lay.state_bytes_per_sequence * sequences
    tokens = {
        FULL: tokens_full,
        SLIDING: tokens_sliding,
        CHUNKED: tokens_chunked,
        CROSS: lay.cross_tokens,
    }
    kinds = lay.kinds or (FULL,) * lay.full_layers + (SLIDING,) * lay.sliding_layers
    per_layer = tuple(
        round(state)
        if kind == STATE
        else round(per_token_layer * tokens.get(kind, 0) + (state if lay.parallel_state else 0))
        for kind in kinds
    )
    total = (
        per_token_layer
        * (
            lay.full_layers * tokens_full
            + lay.sliding_layers * tokens_sliding
            + lay.chunked_layers * tokens_chunked
            + lay.cross_layers * lay.cross_tokens
        )
        + lay.state_layers * state
    )
    return KvCache(
        lay,
        tokens_full,
        tokens_sliding,
        sequences,
        round(total),
        tokens_chunked=tokens_chunked,
        state_bytes=round(lay.state_layers * state),
        per_layer=per_layer,
    )
