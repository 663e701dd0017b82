"""The biggest model a machine runs, as a practitioner picks it: a current model (an MoE at its
dense equivalent, the newer release within a size class), in the best format of 4 bits or more
any engine fits it in (or the one the question names), room to spare before a tight fit; and
the smaller models of a line, offered when the one asked does not run."""

from __future__ import annotations

import math
from dataclasses import replace

from .. import engines, inverse
from ..errors import EstimatorError
from ..hardware.types import Machine
from ..models import catalog
from ..precision import weight_bytes, weight_format
from ..resolve import INT_WORDS, resolve
from ..speed import inference_speed
from ..vocabulary import FITTING, Verdict
from ..workload import Workload
from .inference import Option, _first_fit, _ladder, _room
from .inverse import Answer, asked_engines, tried_engines
from .quality import low_bits, quality_bits
from .types import reads_along

# How far back from the catalog's newest release a model is still current (each family's
# generations come about a year apart: Llama 2 2023-07, 3 2024-04, 4 2025-04; Qwen2.5 2024-09,
# Qwen3 2025-04), so two years keep the last two generations.
CURRENT_MONTHS = 24


def _months(released: str) -> int:
    year, month = released.split("-")
    return int(year) * 12 + int(month)


# Sizes within a fifth of each other are one size class to someone choosing a model (7-8B,
# 13-14B, 32-34B, 70-72B): within a class the newer release is the better model.
SIZE_CLASS_RATIO = 1.2


def _capability(model: catalog.CatalogModel) -> tuple[int, int]:
    """How big a model is to someone choosing the biggest one: its size class (parameters, for a
    mixture of experts the geometric mean of total and active parameters, the rule of thumb
    practitioners quote for an MoE's dense equivalent: Mixtral 8x7B, 46.7B with 12.9B active,
    ranks with a 25B dense model), then the newer release (Qwen3-32B before Yi-1.5-34B,
    QwQ-32B and Qwen2.5-32B)."""
    arch = model.architecture
    size = (arch.params * arch.active_params) ** 0.5 if arch.is_moe else float(arch.params)
    return math.floor(math.log(size / 1e9) / math.log(SIZE_CLASS_RATIO)), _months(model.released)


def _current(purpose: str | None = None) -> list[catalog.CatalogModel]:
    """The text models released in the CURRENT_MONTHS before the catalog's newest, biggest
    first: an older generation is superseded at every size (Falcon-40B and CodeLlama-34B of
    2023 by the 32B models of 2024-2025); a model made for a purpose (code, math: Kimi-Dev-72B;
    a vision tower) is no answer to a question that names none, and the models made for the
    purpose asked are."""
    everything = catalog.models()
    newest = max(_months(m.released) for m in everything)
    if purpose is None:
        models = [m for m in everything if not m.purposes]
    else:
        models = [m for m in everything if purpose in m.purposes]
    current = [m for m in models if newest - _months(m.released) <= CURRENT_MONTHS]
    return sorted(current, key=_capability, reverse=True)


def relatives(name: str) -> list[catalog.CatalogModel]:
    """The smaller models of `name`'s line (catalog.line: Llama-3.1-405B: Llama-3.1-70B and
    -8B; DeepSeek-R1: the R1 distills) that are made for the same purposes."""
    entry = catalog.find(name)
    if entry is None:
        return []
    size = entry.architecture.params
    found = [
        (m, own)
        for m, own in catalog.line(entry)
        if m.architecture.params < size and m.purposes == entry.purposes
    ]
    # The line's own sizes (Llama-3.1-70B) before its fine-tunes (Llama-3.1-Nemotron-70B).
    return [m for m, own in found if own] or [m for m, _ in found]


def smaller_relative(w: Workload, m: Machine) -> Answer[str]:
    """The biggest smaller model of the asked one's line that runs on `m` in 4 bits or more: what
    a practitioner offers when the model itself does not run there (a DeepSeek-R1 distill on a
    laptop, Llama-3.1-70B for 405B)."""
    found = relatives(w.model.name)
    if w.task != "inference" or not found:
        return Answer(None, None)
    return biggest_model(w, m, among=sorted(found, key=_capability, reverse=True))


def biggest_model(
    w: Workload,
    m: Machine,
    purpose: str | None = None,
    among: list[catalog.CatalogModel] | None = None,
) -> Answer[str]:
    """The biggest current catalog model (made for `purpose`, when given) that fits on the GPUs
    in 4 bits or more (on a CPU, one that decodes faster than people read), one with room to
    spare before any that fits only tightly (a 32B in 4 bits with 3 GiB free before a 47B MoE
    with 0.3 GiB), in the best format any engine fits it in, with the biggest in its own weights
    beside it."""
    if w.task == "training":
        return inverse.largest_model(w, m)
    # The engines practitioners run first; the question's default (transformers) after them.
    names = sorted(asked_engines(w, m), key=lambda n: n not in tried_engines(m.kind))
    rooms = {name: _room(engines.get(name), replace(w, engine=name), m) for name in names}
    general = _current()
    candidates = among if among is not None else _current(purpose) if purpose else general
    for verdicts in (("fits",), FITTING):
        for model in candidates:
            candidate = replace(w, model=model.architecture)
            option = _best_fit(candidate, m, names, rooms, verdicts)
            if option is not None and (m.kind != "cpu" or _reads_along(option, m)):
                # Beside a model for a purpose, the biggest of any kind would answer another
                # question.
                own = (
                    None
                    if purpose or among is not None
                    else _in_own_weights(inverse.largest_model(w, m, general))
                )
                return Answer(
                    model.name,
                    option.estimate,
                    own if own is not None and own.value != model.name else None,
                )
    return Answer(None, None)


def _in_own_weights(found: Answer[str]) -> Answer[str] | None:
    """The biggest model in the checkpoint's own weights (16-bit, or gpt-oss's MXFP4), beside
    the quantized answer; None where the default format is itself a quantization (Q4_K_M on a
    Mac), which would be a second, smaller quantized answer."""
    entry = catalog.find(found.value) if found.value is not None else None
    if entry is None or found.precision is None:
        return None
    own = entry.architecture.checkpoint_precision
    return found if found.precision in (own, "bf16", "fp16", "f16") else None


def _reads_along(option: Option, m: Machine) -> bool:
    """On a CPU a model that fits in RAM may still decode slower than people read (a 72B in
    5 bits on dual-channel DDR5: about 1.7 tokens/s); the biggest model is one worth running."""
    est = option.estimate
    speed = inference_speed(resolve(option.workload, m), m, est)
    return speed is not None and reads_along(speed.decode_per_sequence)


def _best_fit(
    candidate: Workload,
    m: Machine,
    names: list[str],
    rooms: dict[str, int],
    verdicts: tuple[Verdict, ...],
) -> Option | None:
    """The highest-quality format of 4 bits or more any engine fits `candidate` in (the first
    engine among equals)."""
    arch = candidate.model
    found = []
    for name in names:
        if not engines.get(name).runs_model(arch):
            continue
        rungs = [
            r
            for r in _ladder(engines.get(name), candidate, m)
            if not low_bits(weight_format(r), arch)
            and weight_bytes(arch, weight_format(r)).total <= rooms[name]
            and _as_named(r, candidate.precision)
        ]
        if rungs:
            option = _first_fit(
                replace(candidate, engine=name), m, rungs, rooms[name], None, verdicts
            )
            if option is not None:
                found.append(option)
    if not found:
        return None
    return max(found, key=lambda o: quality_bits(weight_format(o.workload.precision or ""), arch))


def _as_named(rung: str, named: str | None) -> bool:
    """Whether a format on an engine's ladder is the one the question named: that format, or
    for bits alone ("int4", "8-bit") one of as many bits."""
    if named is None:
        return True
    fmt = weight_format(rung)
    try:
        asked = weight_format(named)
    except EstimatorError:
        return True
    if named.strip().lower() in INT_WORDS:
        return round(fmt.bits) == round(asked.bits)
    return fmt.name == asked.name
