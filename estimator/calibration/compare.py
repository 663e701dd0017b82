"""Run every calibration row through the estimator and compare."""

from __future__ import annotations

import csv
import re
import statistics
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..estimate import estimate
from ..hardware.catalog import machine
from ..models import config_json, lookup
from ..models.types import Architecture
from ..workload import Workload
from .architectures import CONFIGS
from .rows import (
    FIT,
    INFO,
    KV,
    KV_DELTAS,
    MEDIAN_TARGET,
    RESERVE_BYTES,
    RESERVE_WEIGHT_SHARE,
    ROWS,
    TOLERANCE,
    Row,
)

UNITS = {"GiB": 1 << 30, "GB": 10**9}
_NUMBER = re.compile(r"^(>|<=|<)?\s*(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$")


@dataclass(frozen=True, slots=True)
class Result:
    id: str
    kind: str
    model: str
    measured: str  # as the source printed it
    unit: str
    measured_bytes: float  # the value (or bound) in bytes
    estimated_bytes: int
    error: float | None  # (estimated - measured) / measured for numeric rows
    ok: bool | None  # None for info rows
    note: str


@cache
def measurements() -> dict[str, dict[str, str]]:
    text = (
        resources.files("estimator.calibration").joinpath("published_measurements.csv").read_text()
    )
    return {r["id"]: r for r in csv.DictReader(text.splitlines())}


def _architecture(name: str) -> Architecture:
    if name in CONFIGS:
        return config_json.from_dict(CONFIGS[name], name)
    return lookup.require(name).architecture


def _estimated(row: Row) -> tuple[int, int]:
    """(bytes to compare, KV cache bytes) for a row, with the row's source conditions applied."""
    wl = dict(row.workload)
    hardware = machine(gpu=row.gpu, gpus=row.gpus) if row.gpu else None
    arch = _architecture(row.model)
    est = estimate(Workload(model=arch, **wl), hardware)
    kv = est.components.kv_cache
    if row.compare == "weights":
        return est.components.weights, kv
    device = max(est.devices, key=lambda d: d.components.total).components
    if row.compare == "states":
        return (
            device.weights + device.gradients + device.master_weights + device.optimizer_states,
            kv,
        )
    parts = device if row.per_gpu else est.components
    value = parts.total - sum(getattr(parts, name) for name in row.invisible)
    sequences = wl.get("batch", 1) * wl.get("concurrency", 1)
    if row.legacy:
        value += parts.kv_cache + 6 * arch.vocab_size * sequences * wl.get("prompt_tokens", 1)
    if row.reserve:
        for d in [device] if row.per_gpu else [d.components for d in est.devices]:
            value += RESERVE_BYTES + round(RESERVE_WEIGHT_SHARE * (d.weights + d.adapters))
    if row.logit_bytes is not None:
        used = next(n.params for n in est.steps if n.key == "training_activations")
        devices = 1 if row.per_gpu else len(est.devices)
        value += (
            (row.logit_bytes - used["logit_bytes"]) * arch.vocab_size * used["tokens"] * devices
        )
    return value, kv


def _rounding(text: str) -> float:
    """Half a unit of the last digit the source printed."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10**-decimals


def run_row(row: Row) -> Result:
    source = measurements()[row.id]
    printed = source["measured_gib_or_gb"].strip()
    m = _NUMBER.match(printed)
    if not m:
        raise ValueError(f"{row.id}: cannot read {printed!r}")
    bound, low, high = m.group(1), float(m.group(2)), m.group(3)
    if (row.kind == FIT) != (bound is not None):
        raise ValueError(f"{row.id}: fit rows, and only they, carry a bound")
    scale = UNITS[row.unit]
    value = (low + float(high)) / 2 if high else low
    estimated, _ = _estimated(row)
    error: float | None = None
    ok: bool | None = None
    if row.kind == FIT:
        ok = estimated > low * scale if bound == ">" else estimated <= low * scale
    else:
        error = estimated / (value * scale) - 1
        if row.kind != INFO:
            slack = (_rounding(printed) if not high else (float(high) - low) / 2) / value
            ok = abs(error) <= TOLERANCE[row.kind] + slack
    return Result(
        row.id,
        row.kind,
        row.model,
        printed,
        row.unit,
        value * scale,
        estimated,
        error,
        ok,
        row.note,
    )


def _kv_delta(big: str, small: str) -> Result:
    rows = {r.id: r for r in ROWS}
    measured = {
        i: float(measurements()[i]["measured_gib_or_gb"]) * UNITS[rows[i].unit]
        for i in (big, small)
    }
    copies = 2 if rows[big].legacy else 1
    kv = {i: _estimated(rows[i])[1] * copies for i in (big, small)}
    delta_measured = measured[big] - measured[small]
    delta_est = kv[big] - kv[small]
    error = delta_est / delta_measured - 1
    return Result(
        f"{big}-{small}",
        KV,
        rows[big].model,
        "difference",
        rows[big].unit,
        delta_measured,
        delta_est,
        error,
        abs(error) <= TOLERANCE[KV],
        "KV cache of the extra tokens (both tuple-cache copies)",
    )


def run() -> list[Result]:
    return [run_row(row) for row in ROWS] + [_kv_delta(*pair) for pair in KV_DELTAS]


@dataclass(frozen=True, slots=True)
class Summary:
    kind: str
    rows: int
    within: int
    median_abs_error: float | None
    target: float | None


def summarise(results: list[Result]) -> list[Summary]:
    out = []
    for kind in sorted({r.kind for r in results}):
        mine = [r for r in results if r.kind == kind]
        errors = [abs(r.error) for r in mine if r.error is not None]
        out.append(
            Summary(
                kind=kind,
                rows=len(mine),
                within=sum(1 for r in mine if r.ok),
                median_abs_error=statistics.median(errors) if errors else None,
                target=MEDIAN_TARGET.get(kind, TOLERANCE.get(kind)),
            )
        )
    return out
