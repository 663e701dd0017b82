"""The longest context a plan allows, in three estimates: what grows with the context (the KV
cache, prefill activations, llama.cpp's mask) grows linearly in the engine's allocation units,
so two estimates give the slope and a third checks the prediction; when it misses (eager
attention grows faster), a bisection below it settles the answer. Where growth slows (sliding
windows, MLX's fixed prefill chunk) the answer errs short, never long."""

from __future__ import annotations

from dataclasses import replace

from .. import engines
from ..errors import EstimatorError
from ..estimate import estimate
from ..hardware.types import Machine
from ..result import Estimate
from ..vocabulary import ASSUMED_MAX_CONTEXT, FITTING
from ..workload import Workload


def _headroom(est: Estimate) -> int:
    """Bytes left on the tightest device."""
    return min((d.usable_bytes or 0) - d.components.total for d in est.devices)


def _at(w: Workload, m: Machine, context: int) -> Estimate | None:
    try:
        return estimate(replace(w, context=context, prompt_tokens=None), m)
    except EstimatorError:
        return None


def _fits(w: Workload, m: Machine, context: int) -> bool:
    est = _at(w, m, context)
    return est is not None and est.verdict in FITTING


def longest_context(w: Workload, m: Machine, est: Estimate) -> int | None:
    """The longest context (a whole number of allocation units) at which `w` still fits on
    `m`; `est` is its estimate at the asked context."""
    i = est.inputs
    unit = engines.get(i.engine).kv_unit if i.task == "inference" else 1
    limit = (w.model.max_context or ASSUMED_MAX_CONTEXT) // unit * unit
    base = max(unit, i.context // unit * unit)
    here = _at(w, m, base)
    if here is None or here.verdict not in FITTING:
        return None
    if base >= limit:
        return base
    probe = min(limit, 2 * base)
    there = _at(w, m, probe)
    if there is None:
        return base
    if there.verdict in FITTING and probe == limit:
        return limit
    per_unit = (_headroom(here) - _headroom(there)) * unit / (probe - base)
    if per_unit <= 0:
        return limit
    guess = min(limit, base + int(_headroom(here) / per_unit) * unit)
    if _fits(w, m, guess):
        return guess
    # Grew faster than linear (eager attention scores): bisect between what fits and the guess.
    low, high = base, guess
    while high - low > unit:
        mid = low + (high - low) // unit // 2 * unit
        if _fits(w, m, mid):
            low = mid
        else:
            high = mid
    return low
