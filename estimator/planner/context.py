"""The longest context (or the most sequences) a plan allows, in a few estimates: what grows
with either (the KV cache, prefill activations, llama.cpp's mask) grows linearly in the
engine's allocation units, so two estimates give the slope and a third checks the prediction;
when it misses (eager attention grows faster), a bisection below it settles the answer. Where
growth slows (sliding windows, MLX's fixed prefill chunk) the quick answer errs short, never
long; `exact` also checks that one unit more does not fit, and searches on when it does."""

from __future__ import annotations

from dataclasses import replace

from .. import engines
from ..errors import EstimatorError
from ..estimate import estimate
from ..hardware.types import Machine
from ..models import rope
from ..result import Estimate
from ..vocabulary import ASSUMED_MAX_CONTEXT, FITTING, MAX_SEQUENCES
from ..workload import Workload


def _headroom(est: Estimate) -> int:
    """Bytes left on the tightest device."""
    return min((d.usable_bytes or 0) - d.components.total for d in est.devices)


def _at(w: Workload, m: Machine, field: str, value: int) -> Estimate | None:
    changes = {field: value, "prompt_tokens": None} if field == "context" else {field: value}
    try:
        return estimate(replace(w, **changes), m)
    except EstimatorError:
        return None


def largest(
    w: Workload, m: Machine, field: str, base: int, unit: int, limit: int, exact: bool = False
) -> Estimate | None:
    """The estimate at the largest multiple of `unit` up to `limit` for `field` ("context" or
    "concurrency") at which `w` fits on `m`, searching up from `base`, which must fit."""

    def fits(value: int) -> Estimate | None:
        est = _at(w, m, field, value)
        return est if est is not None and est.verdict in FITTING else None

    here = fits(base)
    if here is None or base >= limit:
        return here
    probe = min(limit, 2 * base)
    there = _at(w, m, field, probe)
    if there is None:
        return here
    if there.verdict in FITTING and probe == limit:
        return there
    per_unit = (_headroom(here) - _headroom(there)) * unit / (probe - base)
    if per_unit <= 0:
        return fits(limit) or here
    guess = min(limit, base + int(_headroom(here) / per_unit) * unit)
    found = fits(guess)
    if found is not None:
        if not exact or guess == limit or fits(guess + unit) is None:
            return found
        # Grew slower than linear: bisect above the guess (`high` is known not to fit, or is
        # one unit past the limit).
        low, high, best = guess + unit, limit + unit, fits(guess + unit)
    else:
        # Grew faster than linear: bisect between what fits and the guess.
        low, high, best = base, guess, here
    while high - low > unit:
        mid = low + (high - low) // unit // 2 * unit
        hit = fits(mid)
        if hit is not None:
            low, best = mid, hit
        else:
            high = mid
    return best


def longest_context(w: Workload, m: Machine, est: Estimate, exact: bool = False) -> int | None:
    """The longest context (a whole number of allocation units) at which `w` still fits on
    `m`; `est` is its estimate at the asked context."""
    i = est.inputs
    unit = engines.get(i.engine).kv_unit if i.task == "inference" else 1
    limit = (rope.reach(w.model, i.context) or ASSUMED_MAX_CONTEXT) // unit * unit
    base = max(unit, i.context // unit * unit)
    found = largest(w, m, "context", base, unit, limit, exact)
    return found.inputs.context if found is not None else None


def most_sequences(w: Workload, m: Machine, exact: bool = False) -> Estimate | None:
    """The estimate at the most concurrent sequences that fit (from one)."""
    return largest(w, m, "concurrency", 1, 1, MAX_SEQUENCES, exact)
