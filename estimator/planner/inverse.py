"""The inverse questions over the engines and weight formats people use: the longest context,
the most users, the best format, the biggest model, the smallest GPU, how many GPUs and the
cheapest instance, each answered by the engine and format that give the most (or need the
least), with the answer in the question's own (or 16-bit) format beside it when different.

Formats people use are 4 bits and up: a resource answer never rests on a 2- or 3-bit format.
Each answer comes from the exact single-configuration searches in estimator/inverse.py, so it
agrees with the forward estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from .. import engines, inverse
from ..errors import EstimatorError
from ..hardware.catalog import find_gpu
from ..hardware.types import CloudInstance, Gpu, Machine
from ..models import catalog
from ..precision import weight_bytes, weight_format
from ..resolve import resolve
from ..result import Note
from ..vocabulary import ASSUMED_MAX_CONTEXT, MAX_SEQUENCES
from ..workload import Workload
from .context import largest
from .inference import TRIED, _first_fit, _ladder, _native, _room
from .quality import low_bits, quality_bits
from .search import NODE_COUNTS

Answer = inverse.Answer
T = TypeVar("T")
# Past one node, GPUs come in whole 8-GPU nodes (DGX/HGX servers).
NODE_GPUS = 8


def _resolved(w: Workload, m: Machine | None) -> Workload | None:
    try:
        return resolve(w, m).workload
    except EstimatorError:
        return None


def _engines(w: Workload, m: Machine | None) -> list[str]:
    """The engine the question named alone; else the default engine first, then those tried
    on this kind of device."""
    if w.engine:
        return [w.engine] if engines.get(w.engine).runs_on(m) else []
    first = _resolved(w, m)
    kind = m.kind if m is not None else "gpu"
    names = [first.engine] if first is not None and first.engine else []
    out = []
    for name in dict.fromkeys([*names, *TRIED[kind]]):
        if name and engines.get(name).runs_on(m):
            out.append(name)
    return out


def _as_asked(w: Workload, name: str) -> Workload | None:
    """`w` on engine `name`, in the asked format as that engine names it, else its best 16-bit
    (or the checkpoint's own) format."""
    engine = engines.get(name)
    if w.precision:
        key = engine.int_formats.get(w.precision.strip().lower(), w.precision)
        try:
            if not engine.accepts(weight_format(key)):
                return None
        except EstimatorError:
            return None
        return replace(w, engine=name, precision=key)
    sixteen = next(
        (f for f in ("bf16", "f16", "fp16") if engine.accepts(weight_format(f))), engine.ladder[0]
    )
    return replace(w, engine=name, precision=_native(engine, w) or sixteen)


def _most(w: Workload, m: Machine, field: str) -> Answer[int]:
    """The largest context or number of sequences over engines, default KV caches before
    8-bit ones (the first of equals wins: the asked engine, then the registry's order), with
    the asked engine's beside it when another gives more. Each candidate is sized quickly;
    the winner and the asked one are then searched exactly."""
    names = _engines(w, m)
    candidates = [c for c in (_as_asked(w, n) for n in names) if c is not None]
    if w.kv_precision is None:
        candidates += [
            replace(c, kv_precision=engines.get(c.engine or "").kv8)
            for c in list(candidates)
            if engines.get(c.engine or "").kv8
        ]
    sized = []
    for c in candidates:
        unit, limit = _bounds(c, field)
        found = largest(c, m, field, unit, unit, limit)
        if found is not None:
            sized.append((getattr(found.inputs, field), c))
    if not sized:
        return Answer(None, None)
    value, winner = max(sized, key=lambda s: s[0])

    def exact(c: Workload, start: int) -> Answer[int]:
        unit, limit = _bounds(c, field)
        found = largest(c, m, field, start, unit, limit, exact=True)
        return Answer(None, None) if found is None else Answer(getattr(found.inputs, field), found)

    best = exact(winner, value)
    asked_value, asked = sized[0]
    if asked is winner or asked.engine == winner.engine:
        return best
    baseline = exact(asked, asked_value)
    return replace(best, baseline=baseline if baseline.value != best.value else None)


def _bounds(c: Workload, field: str) -> tuple[int, int]:
    """The allocation unit and the upper limit of `field` for workload `c`."""
    if field == "concurrency":
        return 1, MAX_SEQUENCES
    unit = engines.get(c.engine or "").kv_unit
    return unit, (c.model.max_context or ASSUMED_MAX_CONTEXT) // unit * unit


def longest_context(w: Workload, m: Machine) -> Answer[int]:
    return _most(w, m, "context")


def most_sequences(w: Workload, m: Machine) -> Answer[int]:
    return _most(w, m, "concurrency")


def best_format(w: Workload, m: Machine) -> Answer[str]:
    """The highest-quality format that fits, over engines; the asked engine's beside it."""
    if w.task == "training":
        return inverse.best_precision(w, m)
    found = []
    for name in _engines(w, m):
        answer = _engine_best(replace(w, engine=name, precision=None), m)
        if answer is not None:
            found.append(answer)
    if not found:
        return Answer(None, None)

    def quality(a: Answer[str]) -> tuple[float, float]:
        est = a.estimate
        assert est is not None
        fmt = weight_format(est.inputs.precision)
        return quality_bits(fmt, w.model), est.components.weights

    best = max(found, key=quality)
    first = found[0]
    return replace(best, baseline=first if first.value != best.value else None)


def _engine_best(w: Workload, m: Machine) -> Answer[str] | None:
    engine = engines.get(w.engine or "")
    native = _native(engine, w)
    if native is not None:
        own = inverse._fits(replace(w, precision=native), m)
        if own is not None:
            return Answer(native, own)
    option = _first_fit(w, m, _ladder(engine, w, m), _room(engine, w, m), None)
    if option is None:
        return None
    return Answer(option.workload.precision, option.estimate)


def biggest_model(w: Workload, m: Machine) -> Answer[str]:
    """The catalog model with the most parameters that fits on the GPUs in 4 bits or more with
    some engine, with the biggest in the asked (16-bit) format beside it."""
    if w.task == "training":
        return inverse.largest_model(w, m)
    names = _engines(w, m)
    rooms = {name: _room(engines.get(name), replace(w, engine=name), m) for name in names}
    for model in sorted(catalog.models(), key=lambda c: c.architecture.params, reverse=True):
        arch = model.architecture
        candidate = replace(w, model=arch)
        for name in names:
            engine = engines.get(name)
            rungs = [
                r
                for r in _ladder(engine, candidate, m)
                if not low_bits(weight_format(r), arch)
                and weight_bytes(arch, weight_format(r)).total <= rooms[name]
            ]
            if not rungs:
                continue
            option = _first_fit(replace(candidate, engine=name), m, rungs, rooms[name], None)
            if option is not None:
                baseline = inverse.largest_model(w, m)
                return Answer(
                    model.name,
                    option.estimate,
                    baseline if baseline.value != model.name else None,
                )
    return Answer(None, None)


def _served(w: Workload) -> list[Workload]:
    """The formats a server is run in, best quality first: the model's 16-bit (or own) weights,
    FP8, AWQ 4-bit on vLLM, Q4_K_M on llama.cpp; the asked format alone when one was asked."""
    if w.task == "training":
        return [w]
    if w.precision:
        asked = [_as_asked(w, name) for name in ("vllm", "llama.cpp", "transformers")]
        return [a for a in asked if a is not None][:1] or [w]
    vllm = engines.get("vllm")
    top = _native(vllm, w) or "bf16"
    out = [replace(w, engine="vllm", precision=top)]
    if top != "fp8":
        out.append(replace(w, engine="vllm", precision="fp8"))
    out += [
        replace(w, engine="vllm", precision="awq"),
        replace(w, engine="llama.cpp", precision="q4_k_m"),
    ]
    return out


def _least(
    w: Workload, search: Callable[[Workload], Answer[T]], size: Callable[[T], float]
) -> Answer[T]:
    """The answer needing the least over the served formats (the best format among equals),
    with the first format's answer beside it when it needs more."""
    return _least_from(_served(w), search, size)


def smallest_gpu(w: Workload, laptops: bool = False) -> Answer[str]:
    def memory(name: str) -> float:
        gpu = find_gpu(name)
        return gpu.memory_gib if gpu is not None else float("inf")

    return _least(w, lambda v: inverse.smallest_gpu(v, laptops=laptops), memory)


def cheapest_cloud(w: Workload) -> Answer[CloudInstance]:
    return _least(w, inverse.cheapest_cloud, lambda i: i.usd_per_hour)


def gpus_for(w: Workload, gpu: Gpu, ram_bytes: int | None = None) -> Answer[int]:
    """How many GPUs of one kind, in node sizes (1, 2, 4, 8 per node, then whole nodes of 8),
    sharded as people train (ZeRO-3 for full fine-tuning, not a replica per GPU)."""
    variants = _served(w)
    if w.task == "training" and (w.method or "full") in ("full", "freeze") and not w.zero:
        variants = [replace(w, engine="deepspeed", zero=3)]

    def needed(v: Workload) -> Answer[int]:
        return inverse.gpus_needed(v, gpu, ram_bytes, most=max(NODE_COUNTS), counts=NODE_COUNTS)

    probe = Machine("gpu", gpu.name, gpu.memory_bytes, gpu=gpu)
    variants = [v for v in variants if _kernels(v, probe)]
    found = _least_from(variants, needed, int)
    if found.value is None:
        return found
    count = found.value
    if count > NODE_GPUS:
        note = Note("node_interconnect", {"nodes": count // NODE_GPUS, "per_node": NODE_GPUS})
    elif count > 1:
        note = Note("single_node", {"gpus": count})
    else:
        return found
    return replace(found, notes=(note,))


def _kernels(w: Workload, m: Machine) -> bool:
    """Whether `m`'s GPU runs `w`'s format in its engine."""
    if w.task != "inference" or not w.precision or not w.engine:
        return True
    return engines.get(w.engine).runs_format(weight_format(w.precision), m)


def _least_from(
    variants: list[Workload], search: Callable[[Workload], Answer[T]], size: Callable[[T], float]
) -> Answer[T]:
    sized = [(size(a.value), a) for a in (search(v) for v in variants) if a.value is not None]
    if not sized:
        return Answer(None, None)
    least, best = min(sized, key=lambda s: s[0])
    first_size, first = sized[0]
    return replace(best, baseline=first if first_size > least else None)
