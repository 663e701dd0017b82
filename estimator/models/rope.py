"""How far a model's context reaches past its config's, with the RoPE scaling its card documents.

Qwen's cards (Qwen2.5-Coder 7B to 32B, Qwen3 4B to 235B-A22B, "Processing Long Texts") give a
YaRN scaling the config leaves off: factor 4 on 32,768 positions, 131,072 tokens. Engines
implement it statically ("the scaling factor remains constant regardless of input length,
potentially impacting performance on shorter texts"), so the cards advise adding it "only when
processing long contexts is required" and lowering the factor to the context needed ("if the
typical context length for your application is 65,536 tokens, it would be better to set factor
as 2.0"): a launch enables it only past the config's context, with the smallest whole factor
that reaches the context asked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .types import Architecture, RopeScaling


def from_card(entry: Mapping[str, Any] | None) -> RopeScaling | None:
    """A catalog entry's `card_rope_scaling` (the card's rope_scaling fields and its source)."""
    if entry is None:
        return None
    return RopeScaling(
        kind=str(entry["rope_type"]),
        factor=float(entry["factor"]),
        original=int(entry["original_max_position_embeddings"]),
        source=str(entry["source"]),
    )


def longest(arch: Architecture) -> int | None:
    """The longest context the model runs: its config's, or its card's scaled one when longer."""
    scaling = arch.rope_scaling
    if arch.max_context and scaling is not None:
        return max(arch.max_context, scaling.max_context)
    return arch.max_context


def needed(arch: Architecture, context: int) -> RopeScaling | None:
    """The scaling a launch at `context` enables: none up to the config's context (or past the
    card's), else the card's with the smallest whole factor that reaches `context`."""
    scaling = arch.rope_scaling
    if scaling is None or not arch.max_context or context <= arch.max_context:
        return None
    if context > scaling.max_context:
        return None
    return replace(
        scaling, factor=float(min(scaling.factor, math.ceil(context / scaling.original)))
    )


def reach(arch: Architecture, context: int) -> int | None:
    """The longest context a question at `context` may grow to: the config's while it stays
    within it (scaling is not enabled unasked), the card's scaled one once it needs it."""
    if arch.max_context and context > arch.max_context:
        return longest(arch)
    return arch.max_context


def config_fields(scaling: RopeScaling) -> dict[str, Any]:
    """The scaling as config.json's `rope_scaling` spells it (the cards' "Processing Long
    Texts" block), for engines that take it as a config override."""
    return {
        "rope_type": scaling.kind,
        "factor": scaling.factor,
        "original_max_position_embeddings": scaling.original,
    }
