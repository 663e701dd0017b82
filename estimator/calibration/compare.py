"""Run every calibration row through the estimator and compare, as the row's source measured."""

from __future__ import annotations

import csv
import re
import statistics
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..estimate import estimate
from ..hardware.catalog import machine
from ..memory import reported
from ..models import config_json, lookup
from ..models.types import Architecture
from ..result import Device, Estimate
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
    TRAINING,
    Row,
)
from .training_rows import TRAINING_ROWS

UNITS = {"GiB": 1 << 30, "GB": 10**9, "B": 1}
_NUMBER = re.compile(r"^(>|<=|<)?\s*(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$")
FILES = ("published_measurements.csv", "training_measurements.csv")
# The targets per framework and method (full, LoRA, QLoRA) with at least GROUP_MIN_ROWS rows.
GROUP_MIN_ROWS = 5
GROUP_MEDIAN_TARGET = 0.08
GROUP_P90_TARGET = 0.20


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
    framework: str = ""
    method: str = ""
    measures: str = ""
    thumb_error: float | None = None  # the rule of thumb's error on the same row


@cache
def measurements() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for name in FILES:
        text = resources.files("estimator.calibration").joinpath(name).read_text()
        out.update({r["id"]: r for r in csv.DictReader(text.splitlines())})
    return out


def all_rows() -> tuple[Row, ...]:
    return ROWS + TRAINING_ROWS


def _architecture(name: str) -> Architecture:
    if name in CONFIGS:
        return config_json.from_dict(CONFIGS[name], name)
    return lookup.require(name).architecture


def _view(device: Device, measures: str) -> int:
    if measures == "reserved":
        return device.reserved_bytes or device.components.total
    if measures == "nvidia-smi":
        return device.device_total_bytes or device.components.total
    return device.allocated_bytes or device.components.total


def _run(row: Row) -> tuple[Estimate, Architecture]:
    hardware = machine(gpu=row.gpu, gpus=row.gpus) if row.gpu else None
    arch = _architecture(row.model)
    return estimate(Workload(model=arch, **row.workload), hardware), arch


def _estimated(row: Row) -> tuple[int, int]:
    """(bytes to compare, KV cache bytes) for a row, with the row's source conditions applied."""
    wl = row.workload
    est, arch = _run(row)
    kv = est.components.kv_cache
    if row.compare == "weights":
        return est.components.weights, kv
    if row.compare == "weights_adapters":
        return est.components.weights + est.components.adapters, kv
    fullest = max(est.devices, key=lambda d: d.components.total)
    devices = [fullest] if row.per_gpu else list(est.devices)
    if row.compare == "states":
        c = fullest.components
        return c.weights + c.gradients + c.master_weights + c.optimizer_states, kv
    value = sum(_view(d, row.measures) for d in devices)
    parts = fullest.components if row.per_gpu else est.components
    sequences = wl.get("batch", 1) * wl.get("concurrency", 1)
    if row.legacy:
        value += parts.kv_cache + 6 * arch.vocab_size * sequences * wl.get("prompt_tokens", 1)
    if row.reserve:
        for d in devices:
            value += RESERVE_BYTES + round(
                RESERVE_WEIGHT_SHARE * (d.components.weights + d.components.adapters)
            )
    if row.logit_bytes is not None or row.checkpoints_at_loss:
        value += _loss_swap(est, arch, row) * len(devices)
    return value, kv


def _loss_swap(est: Estimate, arch: Architecture, row: Row) -> int:
    """How the figure moves when the source's loss kept `row.logit_bytes` per vocabulary entry
    and token instead of what the estimate's framework keeps, and, with `row.checkpoints_at_loss`,
    every layer's checkpoint was still on the GPU at the loss."""
    loss = next(n.params for n in est.steps if n.key == "training_loss")
    peak = next(n.params for n in est.steps if n.key == "training_peak")
    phases = dict(peak["phases"])
    shift = 0
    if row.logit_bytes is not None:
        shift = row.logit_bytes * arch.vocab_size * loss["tokens"] - peak["loss"]
        phases["loss"] += shift
    if row.checkpoints_at_loss:
        acts = next(n.params for n in est.steps if n.key == "training_activations")
        phases["loss"] += acts["layers"] * acts["checkpoint_per_token"] * acts["tokens"]
        phases["loss"] -= acts["kept"]
    # The allocator's reserve follows the loss the source ran, not the estimate's.
    reserve = round(reported.RESERVE_SHARE * shift) if row.measures != "allocated" else 0
    return max(phases.values()) - peak["bytes"] + reserve


def rule_of_thumb(row: Row) -> int | None:
    """What users reckon for a training row: 16 bytes per parameter for a full fine-tune, the
    weights x 1.2 for LoRA and QLoRA (16-bit or 4-bit weights), per GPU split evenly."""
    if row.kind != TRAINING:
        return None
    wl = row.workload
    params = _architecture(row.model).params
    method = wl.get("method", "full")
    total: float
    if method in ("full", "freeze"):
        total = 16 * params
    else:
        precision = wl.get("precision", "nf4" if method == "qlora" else "bf16")
        width = {"int8": 1.0, "nf4": 0.5, "gptq": 0.5, "awq": 0.5}.get(precision, 2.0)
        total = 1.2 * width * params
    return round(total / row.gpus) if row.per_gpu else round(total)


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
    if (row.kind == FIT and bound is None) or (row.kind not in (FIT, INFO) and bound is not None):
        raise ValueError(f"{row.id}: fit rows, and only they, carry a bound")
    scale = UNITS[row.unit]
    value = (low + float(high)) / 2 if high else low
    estimated, _ = _estimated(row)
    error: float | None = None
    ok: bool | None = None
    if row.kind == FIT:
        ok = estimated > low * scale if bound == ">" else estimated <= low * scale
    elif bound is None:
        error = estimated / (value * scale) - 1
        if row.kind != INFO:
            slack = (_rounding(printed) if not high else (float(high) - low) / 2) / value
            ok = abs(error) <= TOLERANCE[row.kind] + slack
    thumb = rule_of_thumb(row)
    wl = row.workload
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
        framework=row.framework or wl.get("engine", "transformers"),
        method=wl.get("method", "full") if wl.get("task") == "training" else "",
        measures=row.measures,
        thumb_error=None if thumb is None or error is None else thumb / (value * scale) - 1,
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
    return [run_row(row) for row in all_rows()] + [_kv_delta(*pair) for pair in KV_DELTAS]


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


def p90(values: list[float]) -> float:
    """The 90th percentile, linear between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = 0.9 * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


@dataclass(frozen=True, slots=True)
class Group:
    """Training peak errors of one framework and method, beside the rule of thumb's."""

    framework: str
    method: str
    rows: int
    median: float
    p90: float
    thumb_median: float
    thumb_p90: float

    @property
    def target(self) -> bool:
        return self.rows >= GROUP_MIN_ROWS

    @property
    def met(self) -> bool:
        return self.median < GROUP_MEDIAN_TARGET and self.p90 < GROUP_P90_TARGET


def groups(results: list[Result]) -> list[Group]:
    rows = [r for r in results if r.kind == TRAINING and r.error is not None]
    keys = sorted({(r.framework, r.method) for r in rows})
    out = []
    for framework, method in keys:
        mine = [r for r in rows if (r.framework, r.method) == (framework, method)]
        errors = [abs(r.error) for r in mine if r.error is not None]
        thumbs = [abs(r.thumb_error) for r in mine if r.thumb_error is not None]
        out.append(
            Group(
                framework,
                method,
                len(mine),
                statistics.median(errors),
                p90(errors),
                statistics.median(thumbs),
                p90(thumbs),
            )
        )
    return out
