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
from ..precision import weight_format
from ..resolve import resolve
from ..result import Note
from ..training_time import TrainingData
from ..vocabulary import ASSUMED_MAX_CONTEXT, MAX_SEQUENCES
from ..workload import Workload
from .context import largest
from .inference import _first_fit, _ladder, _native, _room
from .quality import quality_bits
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


def tried_engines(kind: str) -> list[str]:
    return [e.name for e in engines.tried(kind)]


def asked_engines(w: Workload, m: Machine | None) -> list[str]:
    """The engine the question named alone; else the default engine first, then those tried
    on this kind of device."""
    if w.engine:
        named = engines.get(w.engine)
        return [w.engine] if named.runs_on(m) and named.runs_model(w.model) else []
    first = _resolved(w, m)
    kind = m.kind if m is not None else "gpu"
    names = [first.engine] if first is not None and first.engine else []
    out = []
    for name in dict.fromkeys([*names, *tried_engines(kind)]):
        if name and engines.get(name).runs_on(m) and engines.get(name).runs_model(w.model):
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
    """The largest context or number of sequences over engines and, when the question names no
    format, 8-bit weights beside 16-bit ones; default KV caches before 8-bit ones (the first
    of equals wins: the asked engine, then the registry's order). Beside it: the best in the
    asked (or 16-bit) format when the winner is 8-bit, else the asked engine's when another
    gives more. Many users are served by a queueing server (vLLM, SGLang) where one fits.
    Each candidate is sized quickly; the winner and the one beside it are searched exactly."""
    names = asked_engines(w, m)
    serving = [n for n in names if engines.get(n).queues]
    if field == "concurrency" and not w.engine and serving and serving != names:
        found = _most_on(w, m, field, serving)
        if found.value is not None:
            return found
    return _most_on(w, m, field, names)


def _most_on(w: Workload, m: Machine, field: str, names: list[str]) -> Answer[int]:
    asked = [c for c in (_as_asked(w, n) for n in names) if c is not None]
    as_asked = [s for s in (_sized(c, m, field) for c in _with_kv8(w, asked)) if s is not None]
    found = list(as_asked)
    # Without an asked format: 8-bit weights beside 16-bit ones, and 4-bit ones (Q4_K_M, AWQ)
    # only when neither runs at all (a 70B on two 24 GB cards).
    for bits in () if w.precision else ((8.0, 8.9), (4.0, 5.0)):
        if bits[0] < 8 and found:
            break
        fewer = [c for c in (_in_bits(w, m, n, *bits) for n in names) if c is not None]
        found += [s for s in (_sized(c, m, field) for c in _with_kv8(w, fewer)) if s is not None]
    if not found:
        return Answer(None, None)
    value, winner = max(found, key=lambda s: s[0])
    best = _exact(winner, m, field, value)
    if not as_asked:
        return best
    if any(winner is c for _, c in as_asked):
        beside = as_asked[0]
        if (beside[1].engine, beside[1].precision) == (winner.engine, winner.precision):
            return best
    else:
        beside = max(as_asked, key=lambda s: s[0])
    baseline = _exact(beside[1], m, field, beside[0])
    return replace(best, baseline=baseline if baseline.value != best.value else None)


def _with_kv8(w: Workload, candidates: list[Workload]) -> list[Workload]:
    """The candidates, then each with its engine's 8-bit KV cache unless the question set one."""
    if w.kv_precision is not None:
        return candidates
    kv8 = [
        replace(c, kv_precision=engines.get(c.engine or "").kv8)
        for c in candidates
        if engines.get(c.engine or "").kv8
    ]
    return candidates + kv8


def _sized(c: Workload, m: Machine, field: str) -> tuple[int, Workload] | None:
    unit, limit = _bounds(c, field)
    found = largest(c, m, field, unit, unit, limit)
    return None if found is None else (getattr(found.inputs, field), c)


def _exact(c: Workload, m: Machine, field: str, start: int) -> Answer[int]:
    unit, limit = _bounds(c, field)
    found = largest(c, m, field, start, unit, limit, exact=True)
    return Answer(None, None) if found is None else Answer(getattr(found.inputs, field), found)


def _in_bits(w: Workload, m: Machine, name: str, low: float, high: float) -> Workload | None:
    """`w` on engine `name` in its best format of `low` to `high` bits: 8 (Q8_0, FP8) is near
    the 16-bit quality at half the weights; 4 to 5 (Q4_K_M, AWQ) what people run when 8 bits
    leave no room."""
    engine = engines.get(name)
    rung = next((r for r in _ladder(engine, w, m) if low <= weight_format(r).bits <= high), None)
    return None if rung is None else replace(w, engine=name, precision=rung)


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
    """The highest-quality format that fits, over engines, one with room to spare before a
    tight one and the engines practitioners run before the question's default among equals
    (Q8_0 on llama.cpp before bitsandbytes INT8 on transformers); the asked engine's beside it."""
    if w.task == "training":
        return inverse.best_precision(w, m)
    found = []
    for name in asked_engines(w, m):
        answer = _engine_best(replace(w, engine=name, precision=None), m)
        if answer is not None:
            found.append(answer)
    if not found:
        return Answer(None, None)
    tried = tried_engines(m.kind)

    def quality(a: Answer[str]) -> tuple[float, bool, int]:
        est = a.estimate
        assert est is not None
        fmt = weight_format(est.inputs.precision)
        engine = est.inputs.engine
        order = -tried.index(engine) if engine in tried else -len(tried)
        return quality_bits(fmt, w.model), est.verdict == "fits", order

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


def _served(w: Workload) -> list[Workload]:
    """The formats a server is run in, best quality first: the model's 16-bit (or own) weights,
    FP8, AWQ 4-bit on vLLM, and for one user at a time Q4_K_M on llama.cpp (many users are
    served by a server that batches them and pages their KV cache, in FP8 when it must); the
    asked format alone when one was asked."""
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
    out.append(replace(w, engine="vllm", precision="awq"))
    if (w.concurrency or 1) == 1:
        out.append(replace(w, engine="llama.cpp", precision="q4_k_m"))
        if w.kv_precision is None:
            # A long context alone: its KV cache in q8_0 (Qwen3-32B at 32k: 8 GiB in f16, 4.3).
            out.append(replace(w, engine="llama.cpp", precision="q4_k_m", kv_precision="q8_0"))
    elif w.kv_precision is None and vllm.kv8:
        # For many users the KV cache is most of the memory: in FP8 it takes half.
        out.append(replace(w, engine="vllm", precision="awq", kv_precision=vllm.kv8))
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


def cheapest_cloud(
    w: Workload, training_tokens: int | TrainingData | None = None
) -> Answer[CloudInstance]:
    """The cheapest instance over the served formats; for training on stated data, the lowest
    cost of the whole job (training is searched as asked, one format)."""
    return _least(w, lambda v: inverse.cheapest_cloud(v, training_tokens), lambda i: i.usd_per_hour)


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
