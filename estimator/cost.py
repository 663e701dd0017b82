"""What a workload costs: cloud instances that fit it, electricity, and buying the GPUs."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import EstimatorError
from .estimate import estimate
from .hardware.catalog import cloud_instances, find_gpu
from .hardware.types import CloudInstance, Gpu, Machine
from .resolve import resolve
from .speed import Range, inference_speed
from .training_time import TrainingData, training_time
from .vocabulary import FITTING, Verdict
from .workload import Workload

# Electricity when the user sets no price: US average residential price, about $0.16/kWh in 2023
# (EIA Electric Power Monthly); the EU household average was EUR 0.287/kWh in H1 2025 (Eurostat).
DEFAULT_KWH_PRICE_USD = 0.16


@dataclass(frozen=True, slots=True)
class CloudOption:
    instance: CloudInstance
    verdict: Verdict
    usd_per_hour: float
    job_usd: Range | None  # training: for the whole job
    usd_per_million_tokens: Range | None  # inference: at the estimated decode throughput


@dataclass(frozen=True, slots=True)
class Electricity:
    watts: float
    kwh_price: float
    per_hour: float
    job: Range | None


@dataclass(frozen=True, slots=True)
class Purchase:
    usd: float
    verified: bool  # False: a street price or estimate, marked UNVERIFIED in the catalog
    break_even_hours: float | None  # against renting `rented`
    rented: CloudInstance | None = None  # the instance buying is weighed against


def instance_gpu(instance: CloudInstance) -> Gpu:
    """The catalog GPU a cloud instance has (tests/estimator/hardware/test_catalog.py checks
    that every instance names one)."""
    gpu = find_gpu(instance.gpu)
    assert gpu is not None, instance.gpu
    return gpu


def cloud_machine(instance: CloudInstance) -> Machine:
    gpu = instance_gpu(instance)
    ram = None if instance.ram_gb is None else round(instance.ram_gb * 2**30)
    return Machine("gpu", gpu.name, gpu.memory_bytes, instance.gpu_count, ram, gpu=gpu)


def weights_floor(workload: Workload) -> float:
    """Memory all the GPUs together must at least have: the weights (unless offload moves them
    to RAM), less llama.cpp's input embeddings, which stay in host memory (the 0.9)."""
    if workload.offload:
        return 0
    try:
        return 0.9 * estimate(workload).components.weights
    except EstimatorError:
        return 0


def cloud_options(
    workload: Workload,
    training_tokens: int | TrainingData | None = None,
    limit: int | None = None,
) -> list[CloudOption]:
    """The `limit` cheapest catalog instances (per hour) on which the workload fits, with the
    job's cost (training) or the cost of a million generated tokens (inference) on each."""
    options: list[CloudOption] = []
    floor = weights_floor(workload)
    for instance in sorted(cloud_instances(), key=lambda i: i.usd_per_hour):
        if limit is not None and len(options) >= limit:
            break
        if instance.gpu_count * instance_gpu(instance).memory_bytes < floor:
            continue
        option = _option(workload, instance, training_tokens)
        if option is not None:
            options.append(option)
    return options


def _option(
    workload: Workload, instance: CloudInstance, training_tokens: int | TrainingData | None
) -> CloudOption | None:
    """`instance` with the job's cost or a million tokens' cost, None when the workload does
    not fit it."""
    hardware = cloud_machine(instance)
    try:
        est = estimate(workload, hardware)
    except EstimatorError:
        return None  # e.g. a tensor-parallel size that does not divide the heads
    if est.verdict not in FITTING:
        return None
    price = instance.usd_per_hour
    r = resolve(workload, hardware)
    job = per_million = None
    if r.workload.task == "training":
        time = training_time(r, hardware, training_tokens)
        job = time.hours * price if time else None
    else:
        speed = inference_speed(r, hardware, est)
        per_million = speed.decode_total.inverse(price * 1e6 / 3600) if speed else None
    return CloudOption(instance, est.verdict, price, job, per_million)


# Instances listed for a machine someone rents: the cheapest few with its GPUs.
RENTED_SHOWN = 3


def rented_as(
    workload: Workload, machine: Machine, training_tokens: int | TrainingData | None = None
) -> tuple[CloudOption, ...]:
    """The catalog instances with `machine`'s GPU and GPU count, cheapest first, with the job's
    cost or a million tokens' on each: what "on a rented H100" costs."""
    if machine.gpu is None:
        return ()
    same = [i for i in cloud_instances() if instance_gpu(i).name == machine.gpu.name]
    alike = [i for i in same if i.gpu_count == machine.count]
    if not alike:
        # Pods are rented per GPU (RunPod, Lambda on demand): N cards cost N single-GPU prices.
        alike = [
            replace(
                i,
                instance=f"{i.instance} × {machine.count}",
                gpu_count=machine.count,
                usd_per_hour=i.usd_per_hour * machine.count,
            )
            for i in same
            if i.gpu_count == 1
        ]
    alike.sort(key=lambda i: i.usd_per_hour)
    found = (_option(workload, i, training_tokens) for i in alike)
    return tuple(o for o in found if o is not None)[:RENTED_SHOWN]


def rented_alike(
    workload: Workload,
    machine: Machine,
    cheapest: CloudOption | None,
    training_tokens: int | TrainingData | None = None,
) -> CloudOption | None:
    """What buying `machine`'s GPUs is weighed against. One GPU: the cheapest instance that
    fits. Several: renting as many GPUs, the same card first, else the cheapest instance with
    that many GPUs on which the workload fits; a single rented card that happens to fit is no
    stand-in for the eight bought to train faster."""
    if machine.count <= 1:
        return cheapest
    alike = sorted(
        (i for i in cloud_instances() if i.gpu_count == machine.count),
        key=lambda i: (
            machine.gpu is None or instance_gpu(i).name != machine.gpu.name,
            i.usd_per_hour,
        ),
    )
    return next(
        (o for i in alike if (o := _option(workload, i, training_tokens)) is not None), None
    )


def electricity(machine: Machine, kwh_price: float, hours: Range | None) -> Electricity | None:
    """GPU board power x time x price, summed over the cards (a mixed set's differ); None when
    the catalog has no TDP for a card."""
    boards = machine.boards
    if not boards or not all(g.tdp_w for g in boards):
        return None
    watts = sum(g.tdp_w or 0 for g in boards)
    per_hour = watts / 1000 * kwh_price
    job = Range(hours.low * per_hour, hours.high * per_hour) if hours else None
    return Electricity(watts, kwh_price, per_hour, job)


def purchase(
    machine: Machine, cloud_usd_per_hour: float | None, rented: CloudInstance | None = None
) -> Purchase | None:
    """Launch price of the GPUs, or the catalog's unverified street price, summed over the
    cards, and the hours of cloud time at `cloud_usd_per_hour` (renting `rented`) it buys."""
    prices = [card_price(g) for g in machine.boards]
    if not prices or None in prices:
        return None
    known = [p for p in prices if p is not None]
    total = sum(usd for usd, _ in known)
    hours = total / cloud_usd_per_hour if cloud_usd_per_hour else None
    return Purchase(total, all(verified for _, verified in known), hours, rented if hours else None)


def card_price(gpu: Gpu) -> tuple[float, bool] | None:
    """(USD, whether it is the launch price) of one card, None when the catalog has neither."""
    if gpu.launch_price_usd:
        return gpu.launch_price_usd, True
    if gpu.price_unverified_usd:
        low, _, high = gpu.price_unverified_usd.partition("-")
        return (float(low) + float(high or low)) / 2, False
    return None
