"""Find the architecture a model name means: the catalog, a bare size, or a config dict."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import EstimatorError
from ..result import Note
from . import catalog, packaging, sizes
from .types import CHUNKED, CROSS, STATE, Architecture

MAX_NAME = 200
# Names that carry their own expert sizes: "8x7B", "30B-A3B", "17B-16E", "A22B". Such a name
# is never a bare dense size; unknown, it asks for the model or its total/active size.
_MOE_NAME = re.compile(
    r"\d+x\d+(\.\d+)?b|\d+(\.\d+)?b[-_ ]?a\d+(\.\d+)?b|\d+b[-_ ]\d+e\b|\ba\d+(\.\d+)?b\b", re.I
)


@dataclass(frozen=True, slots=True)
class ModelChoice:
    architecture: Architecture
    notes: tuple[Note, ...] = ()
    # What the name says about how it runs (an Ollama tag or a GGUF name: llama.cpp and a
    # quantization); None when it says nothing.
    engine: str | None = None
    precision: str | None = None


def describe(arch: Architecture) -> tuple[Note, ...]:
    """What an answer should say about the architecture beyond its size: the vision tower and
    what one image costs, layers that hold a fixed state instead of a KV cache, chunked
    attention."""
    notes = []
    kinds = arch.kinds
    if arch.vision_params and arch.cross_tokens:
        # An image's tokens go to the cross-attention layers, not into the text context.
        notes.append(
            Note(
                "vision_cross_attention",
                {
                    "vision_params": arch.vision_params,
                    "image_tokens": arch.image_tokens,
                    "image_size": arch.image_size,
                    "cross_layers": kinds.count(CROSS),
                    "layers": len(kinds),
                    # K and V of every image token in every cross layer, in 16 bits.
                    "bytes": kinds.count(CROSS) * arch.cross_tokens * 2 * arch.kv_width * 2,
                },
            )
        )
    elif arch.vision_params:
        notes.append(
            Note(
                "vision_tower",
                {
                    "vision_params": arch.vision_params,
                    "image_tokens": arch.image_tokens,
                    "image_size": arch.image_size,
                },
            )
        )
    if arch.parallel_state:
        notes.append(
            Note(
                "parallel_state_layers",
                {
                    "layers": len(kinds),
                    "state_elements": arch.state_elements,
                    "bytes": arch.state_elements * 2,
                },
            )
        )
    elif STATE in kinds:
        notes.append(
            Note(
                "state_layers",
                {
                    "state_layers": kinds.count(STATE),
                    "layers": len(kinds),
                    "state_elements": arch.state_elements,
                    "bytes": arch.state_elements * 2,
                },
            )
        )
    if CHUNKED in kinds:
        notes.append(
            Note(
                "chunked_layers",
                {
                    "chunked_layers": kinds.count(CHUNKED),
                    "layers": len(kinds),
                    "chunk": arch.chunk_size,
                },
            )
        )
    return tuple(notes)


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
    packed = packaging.read(text)
    if found is None and packed.base != text.strip():
        found = catalog.find(packed.base)
    if found is None:
        return None
    notes = [Note("catalog_model", {"model": found.name, "hf_id": found.hf_id})]
    if packed.engine:
        notes.append(
            Note(
                f"{packed.kind}_{'tag' if packed.kind == 'ollama' else 'name'}",
                {"precision": (packed.precision or packaging.OLLAMA_DEFAULT).upper()},
            )
        )
    notes.extend(describe(found.architecture))
    return ModelChoice(found.architecture, tuple(notes), packed.engine, packed.precision)


def require(text: str) -> ModelChoice:
    """Like find(), but an unknown name is an error with suggestions."""
    choice = find(text)
    if choice is None and _MOE_NAME.search(text):
        raise EstimatorError(
            "unknown_moe_model", model=text.strip()[:80], suggestions=catalog.suggest(text)
        )
    if choice is None:
        raise EstimatorError(
            "unknown_model", model=text.strip()[:80], suggestions=catalog.suggest(text)
        )
    return choice
