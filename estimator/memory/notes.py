"""Steps shared by inference and training."""

from __future__ import annotations

from ..models.types import Architecture
from ..precision import WeightFormat
from ..result import Note


def weights_note(arch: Architecture, fmt: WeightFormat, total: int) -> Note:
    return Note(
        "weights",
        {
            "params": arch.params,
            "format": fmt.label,
            "bits_per_param": 8 * total / arch.params,
            "bytes": total,
            "gguf": fmt.gguf,
        },
    )
