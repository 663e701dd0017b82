"""A bare size ("7B", "0.5b", "135M") -> a typical architecture of that size.

The typical architectures are the SmolLM2, Qwen2.5 and Llama 3.x dense models of the catalog. When none is
within 3% of the asked size, the nearest one's layer count is scaled to hit it: "7B" is a
7B model (Qwen2.5-7B's shape with 25 layers), not Qwen2.5-7B's 7.6B.
"""

from __future__ import annotations

import math
import re

from ..errors import EstimatorError
from ..result import Note
from . import catalog, config_json
from .types import Architecture

_SIZE = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*([bmt])\s*$", re.IGNORECASE)
_SCALE = {"m": 1e6, "b": 1e9, "t": 1e12}
_TYPICAL = (
    "SmolLM2-135M",
    "SmolLM2-360M",
    "Qwen2.5-0.5B",
    "Llama-3.2-1B",
    "Qwen2.5-1.5B",
    "Qwen2.5-3B",
    "Qwen2.5-7B",
    "Llama-3.1-8B",
    "Qwen2.5-14B",
    "Qwen2.5-32B",
    "Llama-3.1-70B",
    "Qwen2.5-72B",
    "Llama-3.1-405B",
)
_CLOSE_ENOUGH = 0.03
MAX_SIZE = 10e12


def is_size(text: str) -> bool:
    """Whether `text` is a bare size ("7B", "120b", "0.5B")."""
    return _SIZE.match(text) is not None


def parse_size(text: str) -> float | None:
    """Parameters named by a bare size, or None when `text` is not one."""
    m = _SIZE.match(text)
    if not m:
        return None
    value = float(m.group(1).replace(",", ".")) * _SCALE[m.group(2).lower()]
    if not 1e6 <= value <= MAX_SIZE:
        raise EstimatorError("size_out_of_range", size=text.strip()[:20])
    return value


def typical(size: float, label: str) -> tuple[Architecture, Note]:
    """A typical architecture with about `size` parameters, and the note that says so."""
    candidates = [catalog.find(name) for name in _TYPICAL]
    base = min(
        (c for c in candidates if c is not None),
        key=lambda c: abs(math.log(c.architecture.params / size)),
    )
    arch = base.architecture
    if abs(arch.params / size - 1) > _CLOSE_ENOUGH:
        per_layer = (arch.linear_params + arch.other_params) / arch.num_layers
        fixed = arch.embedding_params + arch.lm_head_params
        layers = max(1, round((size - fixed) / per_layer))
        config = {**base.config, "num_hidden_layers": layers}
        # Named by the size asked for; the note (in the reader's language) says whose shape.
        scaled = config_json.from_dict(config, label)
        return scaled, Note(
            "bare_size_scaled",
            {"size": label, "model": base.name, "layers": layers, "params": scaled.params},
        )
    named = config_json.from_dict(base.config, base.name)
    return named, Note("bare_size", {"size": label, "model": base.name, "params": arch.params})
