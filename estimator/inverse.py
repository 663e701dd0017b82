"""The inverse questions: what is the most (or least) that still fits?

Each answer is found by searching the forward estimate, so it always agrees with it: the largest
context found fits, and one allocation unit more does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Generic, TypeVar

from . import engines
from .engines.vllm import tensor_parallel_sizes
from .errors import EstimatorError
from .estimate import estimate
from .frameworks.sharding import node_counts
from .hardware.catalog import cloud_instances, gpus
from .hardware.types import CloudInstance, Gpu, Machine
from .models import catalog
from .resolve import resolve
from .result import Estimate, Note
from .speed import Range
from .training_time import TrainingData, training_time
from .vocabulary import FITTING, GIB, MAX_SEQUENCES
from .workload import Workload

# Training frameworks search only 16-bit weights; the inference engines state their ladders.
TRAINING_LADDER = ("bf16",)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Answer(Generic[T]):
    """A value and the estimate at that value (None when nothing fits). Searches over engines
    and formats (estimator/planner/inverse.py) say which gave the answer, and what the 16-bit
    (or as-asked) format gives beside it when that differs."""

    value: T | None
    estimate: Estimate | None
    baseline: Answer[T] | None = None
    notes: tuple[Note, ...] = ()

    @property
    def precision(self) -> str | None:
        return self.estimate.inputs.precision if self.estimate is not None else None

    @property
    def engine(self) -> str | None:
        return self.estimate.inputs.engine if self.estimate is not None else None


def _fits(workload: Workload, machine: Machine | None) -> Estimate | None:
    try:
        est = estimate(workload, machine)
    except EstimatorError:
        return None
    return est if est.verdict in FITTING else None


def _largest(low: int, high: int, fits: Callable[[int], Estimate | None]) -> Answer[int]:
    """The largest n in [low, high] for which fits(n) holds, assuming it holds up to some n."""
    best = fits(low)
    if best is None:
        return Answer(None, None)
    found = low
    while low < high:
        mid = (low + high + 1) // 2
        est = fits(mid)
        if est is not None:
            low, found, best = mid, mid, est
        else:
            high = mid - 1
    return Answer(found, best)


def context_unit(workload: Workload, machine: Machine | None) -> int:
    """Tokens one KV allocation unit holds for the engine: vLLM pages, llama.cpp cells."""
    w = resolve(workload, machine).workload
    return engines.get(w.engine or "").kv_unit if w.task == "inference" else 1


def max_context(workload: Workload, machine: Machine) -> Answer[int]:
    unit = context_unit(workload, machine)
    limit = workload.model.max_context or 10_000_000
    answer = _largest(
        1, limit // unit, lambda n: _fits(replace(workload, context=n * unit), machine)
    )
    return Answer(None if answer.value is None else answer.value * unit, answer.estimate)


def max_concurrency(workload: Workload, machine: Machine) -> Answer[int]:
    return _largest(1, MAX_SEQUENCES, lambda n: _fits(replace(workload, concurrency=n), machine))


def max_batch(workload: Workload, machine: Machine) -> Answer[int]:
    """The most sequences per step (per GPU, for training) that still fit."""
    return _largest(1, MAX_SEQUENCES, lambda n: _fits(replace(workload, batch=n), machine))


def best_precision(workload: Workload, machine: Machine) -> Answer[str]:
    w = resolve(workload, machine).workload
    ladder = engines.get(w.engine or "").ladder if w.task == "inference" else TRAINING_LADDER
    for name in ladder:
        if name == "fp8" and machine.gpu is not None and not machine.gpu.fp8:
            continue
        est = _fits(replace(workload, precision=name), machine)
        if est is not None:
            return Answer(name, est)
    return Answer(None, None)


def largest_model(
    workload: Workload, machine: Machine, among: list[catalog.CatalogModel] | None = None
) -> Answer[str]:
    """The catalog model (of `among`, when given) with the most parameters for which the
    workload fits."""
    models = catalog.models() if among is None else among
    for model in sorted(models, key=lambda m: m.architecture.params, reverse=True):
        est = _fits(replace(workload, model=model.architecture), machine)
        if est is not None:
            return Answer(model.name, est)
    return Answer(None, None)


def smallest_gpu(workload: Workload, laptops: bool = False) -> Answer[str]:
    """The catalog GPU with the least memory on which it fits: NVIDIA first among equals (every
    engine and quantization library here runs on CUDA), then the lowest launch price."""

    def key(g: Gpu) -> tuple[float, bool, float]:
        return g.memory_gib, g.vendor != "NVIDIA", g.launch_price_usd or float("inf")

    from .cost import weights_floor

    floor = weights_floor(workload)
    # Cards only: an edge module, a machine sharing its memory with the CPU or a board that is
    # two GPUs to software is no answer to "which GPU do I need".
    cards = (g for g in gpus() if g.laptop == laptops and g.discrete and g.dies == 1)
    for gpu in sorted(cards, key=key):
        if gpu.memory_bytes < floor:
            continue
        est = _fits(workload, Machine("gpu", gpu.name, gpu.memory_bytes, gpu=gpu))
        if est is not None:
            return Answer(gpu.name, est)
    return Answer(None, None)


# Total RAM a machine is commonly bought with, in GB: desktop kits of two or four DDR4/DDR5
# modules of 4-48 GB, and servers with 8 or 12 memory channels of 16-256 GB RDIMMs (JEDEC
# DDR5 module densities; vendor configurators list these totals).
RAM_SIZES_GB = (8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072)


def smallest_ram(workload: Workload, cpu: Machine) -> Answer[int]:
    """The smallest common RAM total (GB) with which the workload fits on the CPU machine
    `cpu`: "how much RAM do I need" asked about a CPU without saying how much it has."""

    def fits(index: int) -> Estimate | None:
        ram = RAM_SIZES_GB[index] * GIB
        return _fits(workload, replace(cpu, device_bytes=ram, ram_bytes=ram))

    found = _smallest(len(RAM_SIZES_GB), fits)
    value = None if found.value is None else RAM_SIZES_GB[found.value]
    return Answer(value, found.estimate)


def gpus_needed(
    workload: Workload,
    gpu: Gpu,
    ram_bytes: int | None = None,
    most: int = 64,
    counts: tuple[int, ...] | None = None,
) -> Answer[int]:
    """How many GPUs of one kind the workload needs (the fewest that fit), among `counts` when
    given (e.g. whole nodes). More GPUs never need more memory per GPU, so a binary search over
    the counts the engine accepts finds it."""
    try:
        w = resolve(workload, None).workload
    except EstimatorError:
        return Answer(None, None)
    allowed = list(range(1, most + 1))
    if w.task == "inference" and engines.get(w.engine or "").parallelism == "tensor":
        allowed = tensor_parallel_sizes(workload.model, most)
    elif w.task == "training":
        allowed = node_counts(most)
    if counts is not None:
        allowed = [n for n in allowed if n in counts]

    def fits(index: int) -> Estimate | None:
        count = allowed[index]
        return _fits(
            workload, Machine("gpu", gpu.name, gpu.memory_bytes, count, ram_bytes, gpu=gpu)
        )

    answer = _smallest(len(allowed), fits)
    return Answer(None if answer.value is None else allowed[answer.value], answer.estimate)


def _smallest(size: int, fits: Callable[[int], Estimate | None]) -> Answer[int]:
    """The smallest index in [0, size) for which fits() holds, assuming it keeps holding after."""
    if size == 0 or fits(size - 1) is None:
        return Answer(None, None)
    low, high = 0, size - 1
    while low < high:
        mid = (low + high) // 2
        if fits(mid) is not None:
            high = mid
        else:
            low = mid + 1
    return Answer(low, fits(low))


@lru_cache(maxsize=1024)
def cheapest_cloud(
    workload: Workload, training_tokens: int | TrainingData | None = None
) -> Answer[CloudInstance]:
    """The catalog cloud instance (a CloudInstance) with the lowest hourly price that fits; for
    training on a stated amount of data, the one with the lowest cost of the whole job (the
    training-time estimate's hours on it times its price: a dearer, faster GPU can finish for
    less), with notes saying its hours and total, and those of the cheapest per hour when that
    is another instance."""
    from .cost import cloud_machine, instance_gpu, weights_floor

    floor = weights_floor(workload)
    by_price = [
        i
        for i in sorted(cloud_instances(), key=lambda i: i.usd_per_hour)
        if i.gpu_count * instance_gpu(i).memory_bytes >= floor
    ]
    none: Answer[CloudInstance] = Answer(None, None)
    hourly = next(
        (
            Answer(i, est)
            for i in by_price
            if (est := _fits(workload, cloud_machine(i))) is not None
        ),
        none,
    )
    if training_tokens is None or workload.task != "training" or hourly.value is None:
        return hourly
    jobs = {i: _job_hours(workload, i, training_tokens) for i in by_price}

    def cost(i: CloudInstance) -> float:
        hours = jobs[i]
        return i.usd_per_hour * (hours.low + hours.high) / 2 if hours else float("inf")

    # sorted() is stable: among equal totals the cheaper per hour stays first.
    for instance in sorted(by_price, key=cost):
        est = _fits(workload, cloud_machine(instance))
        if est is None:
            continue
        hours = jobs[instance]
        if hours is None:
            return hourly
        notes = [_job_note("cloud_job", instance, hours)]
        cheap = hourly.value
        cheap_hours = jobs[cheap]
        if cheap != instance and cheap_hours is not None:
            notes.append(_job_note("cloud_job_hourly", cheap, cheap_hours))
        return Answer(instance, est, notes=tuple(notes))
    return hourly


def _job_hours(
    workload: Workload, instance: CloudInstance, tokens: int | TrainingData
) -> Range | None:
    """Hours the training job takes on `instance` (None when its FLOP/s are unknown)."""
    from .cost import cloud_machine

    hardware = cloud_machine(instance)
    try:
        time = training_time(resolve(workload, hardware), hardware, tokens)
    except EstimatorError:
        return None
    return time.hours if time is not None else None


def _job_note(key: str, instance: CloudInstance, hours: Range) -> Note:
    price = instance.usd_per_hour
    return Note(
        key,
        {
            "provider": instance.provider,
            "instance": instance.instance,
            "usd_per_hour": price,
            "hours_low": hours.low,
            "hours_high": hours.high,
            "usd_low": hours.low * price,
            "usd_high": hours.high * price,
        },
    )
