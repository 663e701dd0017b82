"""A full answer: memory and verdict, speed or training time, and cost."""

from __future__ import annotations

from dataclasses import dataclass

from .cost import (
    DEFAULT_KWH_PRICE_USD,
    CloudOption,
    Electricity,
    Purchase,
    cloud_options,
    electricity,
    purchase,
    rented_alike,
    rented_as,
)
from .estimate import estimate
from .hardware.types import Machine
from .resolve import resolve
from .result import Estimate
from .speed import Speed, inference_speed
from .training_time import TrainingData, TrainingTime, training_time
from .workload import Workload

CLOUD_OPTIONS = 5


@dataclass(frozen=True, slots=True)
class Report:
    estimate: Estimate
    speed: Speed | None
    training: TrainingTime | None
    cloud: tuple[CloudOption, ...]
    electricity: Electricity | None
    purchase: Purchase | None
    kwh_price: float
    # The machine itself rented: the instances with its GPUs (empty without GPUs, or none listed).
    rented: tuple[CloudOption, ...] = ()


def report(
    workload: Workload,
    machine: Machine | None,
    *,
    training_tokens: int | TrainingData | None = None,
    kwh_price: float = DEFAULT_KWH_PRICE_USD,
    rented: bool = False,
) -> Report:
    """The estimate with its speed, time and costs; `rented`: the machine itself is rented, and
    the instances with its GPUs are priced too."""
    est = estimate(workload, machine)
    r = resolve(workload, machine)
    speed = training = None
    if machine is not None:
        if r.workload.task == "inference":
            speed = inference_speed(r, machine, est)
        else:
            training = training_time(r, machine, training_tokens)
    hours = training.hours if training else None
    options = tuple(cloud_options(workload, training_tokens, limit=CLOUD_OPTIONS))
    power = electricity(machine, kwh_price, hours) if machine else None
    buying = None
    if machine:
        alike = rented_alike(workload, machine, options[0] if options else None, training_tokens)
        price, instance = (alike.usd_per_hour, alike.instance) if alike else (None, None)
        buying = purchase(machine, price, instance)
    as_rented = rented_as(workload, machine, training_tokens) if machine and rented else ()
    return Report(est, speed, training, options, power, buying, kwh_price, as_rented)
