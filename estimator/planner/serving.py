"""Serving capacity as the engines that queue (vLLM, SGLang: Engine.queues) behave: a server asked for more concurrent users than
its KV cache holds at full length still starts, runs as many sequences at once as fit and
queues the rest (vLLM's scheduler admits requests while KV blocks are free). How many run at
once at the stated length, how many at a shorter average conversation, and the speed each gets.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import engines
from ..estimate import estimate
from ..hardware.types import Machine
from ..resolve import resolve
from ..speed import Range, inference_speed
from ..vocabulary import DEFAULT_CONTEXT, FITTING
from ..workload import Workload
from .context import most_sequences

# The average conversation length the capacity is also given at when the question states none:
# an assumption of this product (said with the answer), a quarter of the 4,096-token default.
AVERAGE_TOKENS = DEFAULT_CONTEXT["inference"] // 4


@dataclass(frozen=True, slots=True)
class Capacity:
    at_once: int  # sequences of the asked length that run together
    asked: int  # concurrent users asked about
    context: int  # the asked length
    average_tokens: int  # the shorter average the second figure assumes
    at_average: int  # sequences of that average that run together
    decode: Range | None  # tokens/s each of the `at_once` sequences gets


def capacity(w: Workload, m: Machine) -> Capacity | None:
    """What a queueing server does with `w` on `m` when not all its users fit at once; None
    when they do, when the engine does not queue, or when not even one sequence fits."""
    r = resolve(w, m)
    full = r.workload
    if (
        full.task != "inference"
        or full.concurrency <= 1
        or not engines.get(full.engine or "").queues
    ):
        return None
    asked = estimate(full, m)
    if asked.verdict in FITTING:
        return None
    one = replace(full, concurrency=1)
    found = most_sequences(one, m)
    if found is None:
        return None
    at_once = found.inputs.concurrency
    context = full.context or 0
    average = min(AVERAGE_TOKENS, context)
    shorter = most_sequences(replace(one, context=average, prompt_tokens=None), m)
    at_average = shorter.inputs.concurrency if shorter is not None else at_once
    running = replace(full, concurrency=at_once)
    speed = inference_speed(resolve(running, m), m, estimate(running, m))
    return Capacity(
        at_once=at_once,
        asked=full.concurrency,
        context=context,
        average_tokens=average,
        at_average=at_average,
        decode=speed.decode_per_sequence if speed is not None else None,
    )
