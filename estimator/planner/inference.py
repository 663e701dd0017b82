"""The inference plans a practitioner would try: each engine that runs on the hardware, the
best weight format of its ladder that fits (found by bisection: a lower rung is never larger),
its 8-bit KV cache when that lets a better format fit, all the GPUs the user has (tensor
parallel or a layer split), and layers or MoE experts in RAM when nothing good fits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .. import engines
from ..engines.vllm import tensor_parallel_sizes
from ..errors import EstimatorError
from ..estimate import estimate
from ..hardware.types import Machine
from ..precision import weight_bytes, weight_format
from ..resolve import resolve
from ..result import Estimate
from ..vocabulary import FITTING, Verdict
from ..workload import Workload
from .quality import low_bits

# RAM a question does not state, for sizing what an offload plan would need of it: more than
# any one machine here holds, so the need is what the plan says.
UNSTATED_RAM = 4 << 40
# Contexts tried, longest first, when the engine's own default (Ollama's 262,144 tokens on
# 48 GB of VRAM, vLLM's model maximum) keeps a question that named no context from fitting:
# a practitioner sets a shorter one (OLLAMA_CONTEXT_LENGTH, --max-model-len, -c) before
# giving up bits of the format.
SHORTER_CONTEXTS = (65_536, 32_768, 16_384, 8_192)


@dataclass(frozen=True, slots=True)
class Option:
    """One estimated way to run the workload."""

    workload: Workload
    machine: Machine | None
    estimate: Estimate


def _estimate(w: Workload, m: Machine | None) -> Estimate | None:
    try:
        return estimate(w, m)
    except EstimatorError:
        return None


def _engine_machine(engine: engines.Engine, w: Workload, m: Machine) -> Machine:
    """The GPUs an engine uses: all of them, or for tensor parallel the most that divide the
    model's heads (a mixed set is used whole or not at all)."""
    if m.kind != "gpu" or m.count == 1 or engine.parallelism != "tensor" or m.mixed:
        return m
    sizes = tensor_parallel_sizes(w.model, m.count)
    return m if sizes[-1] == m.count else replace(m, count=sizes[-1])


def _ladder(engine: engines.Engine, w: Workload, m: Machine | None) -> list[str]:
    """The engine's formats, best first, without those the GPU has no kernels for."""
    return [r for r in engine.ladder if engine.runs_format(weight_format(r), m)]


def _native(engine: engines.Engine, w: Workload) -> str | None:
    """The checkpoint's own format where it is not 16-bit and the engine runs it (gpt-oss's
    MXFP4, DeepSeek's block FP8): full quality, smaller than the 16-bit rungs."""
    native = w.model.checkpoint_precision
    if native in engine.ladder or native in ("bf16", "fp16", "fp32"):
        return None
    try:
        return native if engine.accepts(weight_format(native)) else None
    except EstimatorError:
        return None


def _room(engine: engines.Engine, w: Workload, m: Machine) -> int:
    """All the memory the engine may use on the machine's devices."""
    util = w.gpu_memory_utilization or engine.default_utilization(m.count)
    devices = m.count if m.kind == "gpu" else 1
    return sum(engine.usable_bytes(m, util, i)[0] for i in range(devices))


def _first_fit(
    w: Workload,
    m: Machine,
    rungs: list[str],
    room: int,
    kv: str | None,
    verdicts: tuple[Verdict, ...] = FITTING,
) -> Option | None:
    """The best rung whose verdict is one of `verdicts` (any fit unless told), by bisection
    (rungs shrink down the ladder); rungs whose weights alone exceed all the memory are
    skipped without an estimate."""
    arch = w.model
    low = 0
    while low < len(rungs) and weight_bytes(arch, weight_format(rungs[low])).total > room:
        low += 1
    high = len(rungs)

    def fits(i: int) -> Option | None:
        option = replace(w, precision=rungs[i], kv_precision=kv)
        est = _estimate(option, m)
        return Option(option, m, est) if est is not None and est.verdict in verdicts else None

    found = None
    while low < high:
        mid = (low + high) // 2
        hit = fits(mid)
        if hit is not None:
            found, high = hit, mid
        else:
            low = mid + 1
    return found


def _first_offload(w: Workload, m: Machine, rungs: list[str], kv: str | None) -> Option | None:
    """The best rung that runs with part of it in RAM (the RAM holds less down the ladder)."""
    found = None
    low, high = 0, len(rungs)
    while low < high:
        mid = (low + high) // 2
        option = replace(w, precision=rungs[mid], kv_precision=kv)
        est = _estimate(option, m)
        if est is not None and est.verdict in ("offload", *FITTING):
            found, high = Option(option, m, est), mid
        else:
            low = mid + 1
    return found


def options(w: Workload, m: Machine | None) -> Iterator[Option]:
    """Estimated options on the user's hardware (or on none)."""
    asked = _estimate(w, m)
    if asked is not None:
        yield Option(w, m, asked)
    if m is None:
        yield from _no_hardware(w)
        return
    if asked is not None and w.context is None and asked.verdict not in FITTING:
        shorter = _shorter_context(w, m, asked)
        if shorter is not None:
            yield shorter
    if w.engine:
        # The engine the question named: its plans alone when one of them fits.
        engine = engines.get(w.engine)
        runs = engine.runs_on(m) and engine.runs_model(w.model)
        own = list(_engine_options(engine, w, m)) if runs else []
        yield from own
        if any(o.estimate.verdict in FITTING for o in own):
            return
    for engine in engines.tried(m.kind):
        if engine.name == w.engine or not (engine.runs_on(m) and engine.runs_model(w.model)):
            continue
        yield from _engine_options(engine, replace(w, engine=engine.name), m)


def _shorter_context(w: Workload, m: Machine, asked: Estimate) -> Option | None:
    """The question as asked at the longest of SHORTER_CONTEXTS under the engine's default
    that fits, with its KV cache as asked, else in 8 bits."""
    kv8 = engines.get(asked.inputs.engine).kv8
    caches = [w.kv_precision] if w.kv_precision or kv8 is None else [None, kv8]
    for context in (c for c in SHORTER_CONTEXTS if c < asked.inputs.context):
        for kv in caches:
            option = replace(w, context=context, kv_precision=kv)
            est = _estimate(option, m)
            if est is not None and est.verdict in FITTING:
                return Option(option, m, est)
    return None


def _engine_options(engine: engines.Engine, w: Workload, m: Machine) -> Iterator[Option]:
    used = _engine_machine(engine, w, m)
    rungs = _ladder(engine, w, used)
    native = _native(engine, w)
    kv_asked = w.kv_precision
    if native is not None:
        own = replace(w, precision=native, kv_precision=kv_asked)
        est = _estimate(own, used)
        if est is not None and est.verdict in FITTING:
            yield Option(own, used, est)
            return
        # The ladder below: what is smaller than the checkpoint's own format.
        size = weight_bytes(w.model, weight_format(native)).total
        rungs = [r for r in rungs if weight_bytes(w.model, weight_format(r)).total < size]
    if not rungs:
        return
    room = _room(engine, w, used)
    best = _first_fit(w, used, rungs, room, kv_asked)
    if best is not None:
        yield best
    best_rung = best.workload.precision if best is not None else None
    top = rungs.index(best_rung) if best_rung is not None else len(rungs)
    if best is not None and best.estimate.verdict == "tight" and (w.concurrency or 1) == 1:
        # The best format with room to spare beside a tight one: one user's context grows into
        # it (rank.py weighs it against the tight one's extra bits).
        roomy = _first_fit(w, used, rungs[top + 1 :], room, kv_asked, verdicts=("fits",))
        if roomy is not None:
            yield roomy
    kv8 = engine.kv8
    if kv_asked is None and kv8 and top > 0:
        # An 8-bit KV cache may let a better format fit.
        better = _first_fit(w, used, rungs[:top], room, kv8)
        if better is not None:
            yield better
    good = best_rung is not None and not low_bits(weight_format(best_rung), w.model)
    if not good and engine.offloads_layers:
        # Nothing good fits on the GPUs: the checkpoint's own format, else the engine's default
        # (or the best below it that RAM can hold), with the rest in RAM. RAM the question does
        # not state is sized as if there were enough, and the plan says how much it needs.
        probe = used if used.ram_bytes is not None else replace(used, ram_bytes=UNSTATED_RAM)
        if native is not None:
            own = replace(w, precision=native, kv_precision=kv_asked)
            est = _estimate(own, probe)
            if est is not None and est.verdict == "offload":
                yield Option(own, used, est)
                return
        default = resolve(replace(w, precision=None), used).workload.precision
        start = rungs.index(default) if default in rungs else 0
        offloaded = _first_offload(w, probe, rungs[start:], kv_asked)
        if offloaded is not None:
            yield replace(offloaded, machine=used)


def _no_hardware(w: Workload) -> Iterator[Option]:
    """Without hardware: the best formats of the engines tried without it, sized for one device
    each."""
    for engine in engines.tried("none"):
        name = engine.name
        rungs = _ladder(engine, w, None)
        picks = {rungs[0], engine.int_formats["int8"], engine.int_formats["int4"]}
        for precision in [r for r in rungs if r in picks]:
            option = replace(w, engine=name, precision=precision)
            est = _estimate(option, None)
            if est is not None:
                yield Option(option, None, est)
