"""Comparisons: "an L4 or a T4", "AWQ vs GPTQ", "ZeRO-2 of ZeRO-3", "vllm or llama.cpp", "llama 8b
or qwen 7b", "the difference between q4 and q8". Found by meaning, not by position: the words on
each side of a connector are read as a question of their own, and when both sides name a different
value on the same axis (hardware, model, format, engine, method, ZeRO stage, framework, optimizer)
they are the options. The caller reads the question once per option, with the other options
blanked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from estimator.errors import EstimatorError
from estimator.hardware.catalog import machine

from .. import lexicon as lx

Slots = dict[str, object]
Reader = Callable[[str], Slots]
Span = tuple[int, int]

# Each axis: the slots that make its value, and the slots an option on it may add
# ("2x 3090" adds the count to the GPU).
AXES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "hardware": (
        ("gpu", "apple", "gpu_memory_gb", "cpu_only", "gpus"),
        frozenset({"ram_gb", "laptop"}),
    ),
    "model": (("model",), frozenset()),
    "precision": (("precision",), frozenset({"method"})),
    "kv_precision": (("kv_precision",), frozenset()),
    "engine": (("engine",), frozenset()),
    "method": (("method",), frozenset({"precision", "objective"})),
    "zero": (("zero", "framework"), frozenset({"offload", "offload_to"})),
    "framework": (("framework",), frozenset({"liger"})),
    "optimizer": (("optimizer",), frozenset()),
    "objective": (("objective",), frozenset({"method"})),
}
# Slots every reading carries that say nothing about an option.
_NEUTRAL = frozenset({"language", "task", "running_question"})
MAX_WORDS = 5
MAX_OPTIONS = 4
# Connectors looked at: a message with more is not a comparison of a few options (and each
# one costs up to 2 x MAX_WORDS readings).
MAX_CONNECTORS = 6
_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"[,;:!?()\"]+$|^[,;:!?()\"]+")


def _axis(slots: Slots) -> tuple[str, tuple[object, ...], frozenset[str]] | None:
    """The axis a snippet names, its value, and the slots it filled."""
    filled = frozenset(k for k, v in slots.items() if v is not None and k not in _NEUTRAL)
    for name, (keys, extra) in AXES.items():
        if any(slots.get(k) is not None for k in keys):
            if filled - set(keys) - extra:
                return None
            return name, tuple(slots.get(k) for k in keys), filled
    return None


def _stop(word: str) -> bool:
    """A word that ends an option: a joining word, another connector, a negation, a task
    word, or one that turns it into a preference ("instead", "better than")."""
    core = _EDGE.sub("", word)
    return not core or any(
        lx.pattern(c).fullmatch(core)
        for c in ("joiner", "or", "negation", "inference", "training", "option_stop")
    )


def _side(
    low: str, tokens: list[re.Match[str]], read: Reader, *, forward: bool
) -> tuple[Span, str, tuple[object, ...]] | None:
    """The option next to a connector: the longest run of at most MAX_WORDS words beside it
    that names one value on one axis ("8-bit" alone is a format, "8-bit adam" an optimizer)."""
    best: tuple[Span, str, tuple[object, ...]] | None = None
    for k in range(1, min(MAX_WORDS, len(tokens)) + 1):
        run = tokens[:k] if forward else tokens[-k:]
        outer = run[-1] if forward else run[0]
        if _stop(outer.group()):
            break
        if k > 1 and (
            (forward and _EDGE.search(run[-2].group()))
            or (not forward and _EDGE.search(outer.group()))
        ):
            break
        start, end = run[0].start(), run[-1].end()
        snippet = _EDGE.sub("", low[start:end])
        found = _axis(read(snippet))
        if found is not None:
            best = ((start, end), found[0], found[1])
    return best


def _connectors(low: str) -> list[re.Match[str]]:
    """Where options meet: "or", "vs", "better than", and the "and" of "between X and Y"."""
    found = list(lx.finditer("or", low))
    for between in lx.finditer("between", low):
        joined = lx.pattern("and").search(low, between.end())
        if joined is not None:
            found.append(joined)
    return sorted(found, key=lambda m: m.start())


def options(low: str, read: Reader) -> list[Span]:
    """The spans of the options the text compares, in order; [] when it compares nothing."""
    for n, connector in enumerate(_connectors(low)):
        if n == MAX_CONNECTORS:
            break
        before = list(_TOKEN.finditer(low[: connector.start()]))
        after = [m for m in _TOKEN.finditer(low, connector.end())]
        left = _side(low, before, read, forward=False)
        right = _side(low, after, read, forward=True)
        if left is None or right is None or left[1] != right[1] or left[2] == right[2]:
            continue
        spans = [left[0], right[0]]
        # "int4, int8 or fp16": more options before the first, separated by commas.
        while len(spans) < MAX_OPTIONS:
            head = low[: spans[0][0]].rstrip()
            if not head.endswith(","):
                break
            more = _side(low, list(_TOKEN.finditer(head[:-1])), read, forward=False)
            if more is None or more[1] != left[1] or more[2] in (left[2], right[2]):
                break
            spans.insert(0, more[0])
        return spans
    return []


_MEMORY = re.compile(r"\s*\d+(?:\.\d+)?\s*gb$", re.IGNORECASE)
_MEMORY_SLOTS = ("ram_gb", "gpu_memory_gb")


def same_device(options: list[Slots]) -> None:
    """An option that is only a memory beside one that names a chip or card is that chip or
    card with this memory, when it is sold so: "M3 Pro 18GB, or the 36gb version" compares the
    M3 Pro 36GB, not a CPU with 36 GB of RAM; "4060 ti 8gb or the 16gb one" the 4060 Ti 16GB.
    "3090 or a 16gb card" stays a 16 GB GPU (no 3090 has 16 GB), as does a memory out of range
    (answered with the range)."""
    devices = [o for o in options if o.get("apple") or o.get("gpu")]
    if len(devices) != 1:
        return
    slot = "apple" if devices[0].get("apple") else "gpu"
    said = str(devices[0][slot])
    for option in options:
        memory = next((option[k] for k in _MEMORY_SLOTS if option.get(k)), None)
        if not isinstance(memory, float) or set(option) - {*_MEMORY_SLOTS, "laptop"}:
            continue
        variant = _variant(said, memory)
        if variant is None:
            continue
        for k in _MEMORY_SLOTS:
            option.pop(k, None)
        option[slot] = variant


def _variant(said: str, memory: float) -> str | None:
    """The device `said` names in its version with `memory` GB, when one is sold and it is not
    the device itself."""
    spec = f"{_MEMORY.sub('', said)} {format(memory, 'f').rstrip('0').rstrip('.')}GB"
    try:
        own, other = machine(gpu=said), machine(gpu=spec)
    except EstimatorError:
        return None
    if own is None or other is None or other.notes or other.name == own.name:
        return None
    return spec
