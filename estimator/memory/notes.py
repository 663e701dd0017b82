"""Steps shared by inference and training."""

from __future__ import annotations

from functools import lru_cache

from ..models.types import Architecture
from ..precision import WeightFormat
from ..result import Note


@lru_cache(maxsize=512)
def param_counts(arch: Architecture) -> tuple[int, int]:
    """(parameters, active parameters): sums over every matrix, asked for on every estimate."""
    return arch.params, arch.active_params


def weights_note(arch: Architecture, fmt: WeightFormat, total: int) -> Note:
    params = param_counts(arch)[0]
    return Note(
        "weights",
        {
            "params": params,
            "format": fmt.label,
            "bits_per_param": 8 * total / params,
            "bytes": total,
            "gguf": fmt.gguf,
        },
    )
