"""What the weights' own headers say: tensor counts and bytes per dtype, read from safetensors
headers (bytes or their parsed JSON), from a GGUF file's header bytes, or from the tensor list
a GGUF reader produced.

Pure code: the bytes come from the caller (a local file, a Hub range request). A safetensors
file starts with an 8-byte little-endian header length and a JSON header naming each tensor's
dtype, shape and byte offsets (huggingface/safetensors, "Format").
"""

from __future__ import annotations

import json
import math
import struct
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


# GGUF's header (llama.cpp docs/gguf.md, "File Structure"): the magic "GGUF", a uint32
# version, uint64 tensor and key-value counts, the key-value pairs (a string key, a uint32
# value type, the value), then per tensor a string name, a uint32 dimension count, uint64
# dimensions, a uint32 ggml type and a uint64 data offset. Strings are a uint64 length and
# UTF-8 bytes; an array is a uint32 element type, a uint64 count and the elements.
GGUF_MAGIC = b"GGUF"
GGUF_VERSIONS = (2, 3)
_GGUF_SCALARS = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}
_GGUF_STRING, _GGUF_ARRAY = 8, 9
MAX_GGUF_KEYS = 100_000
# Arrays longer than this are the tokenizer's (vocabulary, merges, scores): skipped, their
# length kept; the architecture's per-layer arrays are a few hundred long at most.
MAX_KEPT_ARRAY = 4096


@dataclass(frozen=True, slots=True)
class GgufTensor:
    name: str
    dims: tuple[int, ...]
    ggml_type: int


@dataclass(frozen=True, slots=True)
class GgufHeader:
    metadata: dict[str, Any]
    tensors: tuple[GgufTensor, ...]
    length: int  # bytes up to the end of the tensor list


class _Short(Exception):
    """The bytes end before the header does."""


class _Cursor:
    def __init__(self, data: bytes, order: str) -> None:
        self.data, self.order, self.at = data, order, 0

    def take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise _Short
        (value,) = struct.unpack_from(self.order + fmt, self.data, self.at)
        self.at += size
        return value

    def skip(self, size: int) -> None:
        if self.at + size > len(self.data):
            raise _Short
        self.at += size

    def string(self, keep: bool = True) -> str:
        n = self.take("Q")
        if n > MAX_HEADER_BYTES:
            raise EstimatorError("weights_unreadable", reason=f"GGUF string of {n} bytes")
        start = self.at
        self.skip(n)
        if not keep:
            return ""
        try:
            return self.data[start : self.at].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EstimatorError("weights_unreadable", reason="GGUF string not UTF-8") from exc

    def value(self, kind: int) -> Any:
        if kind in _GGUF_SCALARS:
            return self.take(_GGUF_SCALARS[kind])
        if kind == _GGUF_STRING:
            return self.string()
        if kind != _GGUF_ARRAY:
            raise EstimatorError("weights_unreadable", reason=f"GGUF value type {kind}")
        inner, n = self.take("I"), self.take("Q")
        if inner == _GGUF_ARRAY or n > MAX_HEADER_BYTES:
            raise EstimatorError("weights_unreadable", reason="GGUF array")
        if n > MAX_KEPT_ARRAY:
            if inner == _GGUF_STRING:
                for _ in range(n):
                    self.string(keep=False)
            elif inner in _GGUF_SCALARS:
                self.skip(n * struct.calcsize(_GGUF_SCALARS[inner]))
            else:
                raise EstimatorError("weights_unreadable", reason=f"GGUF value type {inner}")
            return n
        return [self.value(inner) for _ in range(n)]


def gguf_header(data: bytes) -> GgufHeader | None:
    """The header at the start of a GGUF file's `data`; None when `data` ends before the
    header does (a range read that needs more bytes). Arrays past MAX_KEPT_ARRAY elements
    are given as their length."""
    if len(data) < 8:
        return None
    if data[:4] != GGUF_MAGIC:
        raise EstimatorError("weights_unreadable", reason="not a GGUF file")
    # A file written on a big-endian machine has its version's bytes swapped (gguf-py's
    # GGUFReader tells the byte order the same way).
    order = "<" if int.from_bytes(data[4:8], "little") & 0xFFFF else ">"
    cursor = _Cursor(data, order)
    cursor.skip(4)
    try:
        version = cursor.take("I")
        if version not in GGUF_VERSIONS:
            raise EstimatorError("weights_unreadable", reason=f"GGUF version {version}")
        n_tensors, n_keys = cursor.take("Q"), cursor.take("Q")
        if n_tensors > MAX_TENSORS or n_keys > MAX_GGUF_KEYS:
            raise EstimatorError("weights_unreadable", reason="GGUF counts")
        metadata: dict[str, Any] = {}
        for _ in range(n_keys):
            key = cursor.string()
            metadata[key] = cursor.value(cursor.take("I"))
        tensors = []
        for _ in range(n_tensors):
            name = cursor.string()
            n_dims = cursor.take("I")
            if n_dims > 8:
                raise EstimatorError("weights_unreadable", reason=f"tensor {name[:40]}")
            dims = tuple(cursor.take("Q") for _ in range(n_dims))
            ggml_type = cursor.take("I")
            cursor.take("Q")
            tensors.append(GgufTensor(name, dims, ggml_type))
    except _Short:
        return None
    return GgufHeader(metadata, tuple(tensors), cursor.at)
