"""Find the architecture a model name means: the catalog, a bare size, or a config dict."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EstimatorError
from ..result import Note
from . import catalog, sizes
from .types import Architecture

MAX_NAME = 200


@dataclass(frozen=True, slots=True)
class ModelChoice:
    architecture: Architecture
    notes: tuple[Note, ...] = ()


def find(text: str) -> ModelChoice | None:
    """The catalog model or typical architecture `text` names, or None when it names neither."""
    if not isinstance(text, str) or not text.strip():
        raise EstimatorError("empty_model")
    if len(text) > MAX_NAME:
        raise EstimatorError("model_name_too_long", length=len(text))
    size = sizes.parse_size(text)
    if size is not None:
        arch, note = sizes.typical(size, text.strip().upper().replace(" ", ""))
        return ModelChoice(arch, (note,))
    found = catalog.find(text)
    if found is None:
        return None
    return ModelChoice(
        found.architecture, (Note("catalog_model", {"model": found.name, "hf_id": found.hf_id}),)
    )


def require(text: str) -> ModelChoice:
    """Like find(), but an unknown name is an error with suggestions."""
    choice = find(text)
    if choice is None:
        raise EstimatorError(
            "unknown_model", model=text.strip()[:80], suggestions=catalog.suggest(text)
        )
    return choice
