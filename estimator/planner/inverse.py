"""The inverse questions over the engines and weight formats people use: the longest context,
the most users, the best format, the biggest model, the smallest GPU, how many GPUs and the
cheapest instance, each answered by the engine and format that give the most (or need the
least), with the answer in the question's own (or 16-bit) format beside it when different.

Formats people use are 4 bits and up: a resource answer never rests on a 2- or 3-bit format.
Each answer comes from the exact single-configuration searches in estimator/inverse.py, so it
agrees with the forward estimate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from .. import engines, inverse
from ..errors import EstimatorError
from ..hardware.catalog import find_gpu
from ..hardware.types import CloudInstance, Gpu, Machine
from ..models import catalog
from ..names import tokens
from ..precision import weight_bytes, weight_format
from ..resolve import INT_WORDS, resolve
from ..result import Note
from ..speed import inference_speed
from ..training_time import TrainingData
from ..vocabulary import ASSUMED_MAX_CONTEXT, FITTING, MAX_SEQUENCES, Verdict
from ..workload import Workload
from .context import largest
from .inference import Option, _first_fit, _ladder, _native, _room
from .quality import low_bits, quality_bits
from .search import NODE_COUNTS
from .types import reads_along

Answer = inverse.Answer
T = TypeVar("T")
# Past one node, GPUs come in whole 8-GPU nodes (DGX/HGX servers).
NODE_GPUS = 8
# How far back from the catalog's newest release a model is still current (each family's
# generations come about a year apart: Llama 2 2023-07, 3 2024-04, 4 2025-04; Qwen2.5 2024-09,
# Qwen3 2025-04), so two years keep the last two generations.
CURRENT_MONTHS = 24


def _resolved(w: Workload, m: Machine | None) -> Workload | None:
    try:
        return resolve(w, m).workload
    except EstimatorError:
        return None


def _tried(kind: str) -> list[str]:
    return [e.name for e in engines.tried(kind)]


def _engines(w: Workload, m: Machine | None) -> list[str]:
    """The engine the question named alone; else the default engine first, then those tried
    on this kind of device."""
    if w.engine:
        named = engines.get(w.engine)
        return [w.engine] if named.runs_on(m) and named.runs_model(w.model) else []
    first = _resolved(w, m)
    kind = m.kind if m is not None else "gpu"
    names = [first.engine] if first is not None and first.engine else []
    out = []
    for name in dict.fromkeys([*names, *_tried(kind)]):
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
    names = _engines(w, m)
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
    for name in _engines(w, m):
        answer = _engine_best(replace(w, engine=name, precision=None), m)
        if answer is not None:
            found.append(answer)
    if not found:
        return Answer(None, None)
    tried = _tried(m.kind)

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


# A model's size in its name ("405b", "8x22b", "0.5b"): where its line's name ends.
_NAME_SIZE = re.compile(r"^(?:\d+x)?\d+(?:\.\d+)?[bm]$")


def relatives(name: str) -> list[catalog.CatalogModel]:
    """The smaller models of `name`'s line: the catalog models whose names start with its name
    up to its size (Llama-3.1-405B: Llama-3.1-70B and -8B; DeepSeek-R1: the R1 distills) and
    that are made for the same purposes."""
    entry = catalog.find(name)
    if entry is None:
        return []
    words = tokens(entry.name)
    line = []
    for word in words:
        if _NAME_SIZE.match(word):
            break
        line.append(word)
    if not line:
        return []
    size = entry.architecture.params
    found = [
        m
        for m in catalog.models()
        if tokens(m.name)[: len(line)] == tuple(line)
        and m.architecture.params < size
        and m.purposes == entry.purposes
    ]
    # The line's own sizes (Llama-3.1-70B) before its fine-tunes (Llama-3.1-Nemotron-70B).
    plain = [m for m in found if len(tokens(m.name)) == len(line) + 1]
    return plain or found


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
    names = sorted(_engines(w, m), key=lambda n: n not in _tried(m.kind))
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
