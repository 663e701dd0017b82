"""What the weights' own headers say: tensor counts and bytes per dtype, read from safetensors
headers (bytes or their parsed JSON) or from the tensor list a GGUF reader produced.

Pure code: the bytes come from the caller (a local file, a Hub range request). A safetensors
file starts with an 8-byte little-endian header length and a JSON header naming each tensor's
dtype, shape and byte offsets (huggingface/safetensors, "Format").
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import EstimatorError

# A header describes tensors, not data: 100 MB is far past any real one (DeepSeek-V3's
# 163 shards each carry well under 1 MB).
MAX_HEADER_BYTES = 100_000_000
MAX_TENSORS = 1_000_000
# Dtypes whose elements are one parameter each; packed integer tensors (GPTQ/AWQ qweight in
# I32) hold several, so their element count is not a parameter count.
FLOAT_DTYPES = frozenset({"F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "F8_E8M0"})


@dataclass(frozen=True, slots=True)
class TensorSummary:
    """Elements and bytes per dtype over every tensor of a checkpoint."""

    source: str  # safetensors or gguf
    elements: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)
    tensors: int = 0

    @property
    def total_elements(self) -> int:
        return sum(self.elements.values())

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes.values())

    @property
    def packed(self) -> bool:
        """Whether some tensors pack several weights per element (so elements != params)."""
        return self.source == "safetensors" and any(d not in FLOAT_DTYPES for d in self.elements)

    def merged(self, other: TensorSummary) -> TensorSummary:
        elements, sizes = dict(self.elements), dict(self.bytes)
        for d, n in other.elements.items():
            elements[d] = elements.get(d, 0) + n
        for d, n in other.bytes.items():
            sizes[d] = sizes.get(d, 0) + n
        return TensorSummary(self.source, elements, sizes, self.tensors + other.tensors)


def header_length(prefix: bytes) -> int:
    """The JSON header's length from a safetensors file's first 8 bytes."""
    if len(prefix) < 8:
        raise EstimatorError("weights_unreadable", reason="short safetensors file")
    n = int.from_bytes(prefix[:8], "little")
    if not 2 <= n <= MAX_HEADER_BYTES:
        raise EstimatorError("weights_unreadable", reason=f"safetensors header of {n} bytes")
    return n


def parse_header(raw: bytes) -> dict[str, Any]:
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise EstimatorError("weights_unreadable", reason="safetensors header is not JSON") from exc
    if not isinstance(header, dict):
        raise EstimatorError("weights_unreadable", reason="safetensors header is not an object")
    return header


def summarize_safetensors(header: Mapping[str, Any]) -> TensorSummary:
    """Elements and bytes per dtype of one safetensors header."""
    elements: dict[str, int] = {}
    sizes: dict[str, int] = {}
    count = 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        count += 1
        if count > MAX_TENSORS or not isinstance(info, Mapping):
            raise EstimatorError("weights_unreadable", reason=f"tensor {str(name)[:40]}")
        dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
        if (
            not isinstance(dtype, str)
            or not isinstance(shape, list)
            or not all(isinstance(d, int) and 0 <= d < 2**40 for d in shape)
            or not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(isinstance(o, int) and 0 <= o < 2**50 for o in offsets)
        ):
            raise EstimatorError("weights_unreadable", reason=f"tensor {str(name)[:40]}")
        dtype = dtype[:16]
        elements[dtype] = elements.get(dtype, 0) + math.prod(shape)
        sizes[dtype] = sizes.get(dtype, 0) + offsets[1] - offsets[0]
    return TensorSummary("safetensors", elements, sizes, count)


def summarize_tensors(source: str, tensors: Iterable[tuple[str, int, int]]) -> TensorSummary:
    """Summary of (dtype, elements, bytes) rows, as a GGUF reader lists them."""
    elements: dict[str, int] = {}
    sizes: dict[str, int] = {}
    count = 0
    for dtype, n, size in tensors:
        count += 1
        elements[dtype] = elements.get(dtype, 0) + n
        sizes[dtype] = sizes.get(dtype, 0) + size
    return TensorSummary(source, elements, sizes, count)
