"""The order a practitioner weighs plans in: runs on the hardware they have first (a rented
instance next, more GPUs of their kind after that, unless they asked for a GPU count); among
those, fits on the GPUs before running partly from RAM, and 4 bits or more before fewer; then
the highest quality; then the fastest decode; then the cheapest."""

from __future__ import annotations

from ..vocabulary import FITTING
from .types import ANY, CLOUD, MORE_GPUS, YOURS, Plan


def key(plan: Plan, more_gpus_first: bool = False) -> tuple[float, ...]:
    where = {YOURS: 0, CLOUD: 1, MORE_GPUS: 2, ANY: 3}[plan.hardware]
    runs = plan.runs or plan.verdict == "unknown"
    if plan.hardware == MORE_GPUS and more_gpus_first:
        tier, where = (0 if runs else 1), 0.5  # after their own hardware, before renting
    elif plan.hardware == MORE_GPUS:
        tier = 2  # more GPUs than they have only when they asked about GPU counts
    else:
        tier = 0 if runs else 1
    if plan.verdict in FITTING:
        fit = 2 if plan.low_bits else 0
    elif plan.verdict == "offload":
        fit = 3 if plan.low_bits else 1
    elif plan.verdict == "unknown":
        fit = 0
    else:
        fit = 4
    speed = plan.decode.high if plan.decode is not None else 0.0
    return (
        tier,
        where,
        fit,
        -plan.quality_bits,
        -plan.estimate_bits,
        -speed,
        plan.usd_per_hour or 0.0,
        plan.gpus,
    )
