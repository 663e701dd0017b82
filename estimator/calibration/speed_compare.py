"""Run the published speed rows through the speed model."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from ..estimate import estimate
from ..hardware.catalog import machine
from ..resolve import resolve
from ..speed import Range, Speed, inference_speed
from ..workload import Workload
from .compare import _architecture
from .speed_rows import SPEED_ROWS, SpeedRow

# The target: single-sequence decode within a factor 1.5 of the measurement.
FACTOR_TARGET = 1.5


@dataclass(frozen=True, slots=True)
class SpeedResult:
    id: str
    model: str
    hardware: str
    engine: str
    measured: float  # tokens/s
    estimated: Range
    factor: float  # max(mid/measured, measured/mid), mid the range's geometric middle
    inside: bool  # the measurement lies within the range
    kind: str  # decode or prefill
    note: str


@cache
def speed_measurements() -> dict[str, dict[str, str]]:
    text = resources.files("estimator.calibration").joinpath("speed_measurements.csv").read_text()
    return {r["id"]: r for r in csv.DictReader(text.splitlines())}


def _speed(row: SpeedRow, workload: Workload) -> Speed:
    hardware = machine(gpu=row.gpu, gpus=row.gpus, ram_gb=row.ram, cpu=row.cpu)
    # Every row names catalog hardware, whose memory bandwidth is known.
    assert hardware is not None, row.id
    speed = inference_speed(resolve(workload, hardware), hardware, estimate(workload, hardware))
    assert speed is not None, row.id
    return speed


def _result(
    row: SpeedRow, kind: str, measured: float, estimated: Range, engine: str
) -> SpeedResult:
    mid = math.sqrt(estimated.low * estimated.high)
    return SpeedResult(
        row.id,
        row.model,
        row.gpu if row.gpus == 1 else f"{row.gpus}x {row.gpu}",
        engine,
        measured,
        estimated,
        max(mid / measured, measured / mid),
        estimated.low <= measured <= estimated.high,
        kind,
        row.note,
    )


def run_speed() -> list[SpeedResult]:
    out = []
    for row in SPEED_ROWS:
        source = speed_measurements()[row.id]
        workload = Workload(model=_architecture(row.model), **row.workload)
        engine = row.workload["engine"]
        decode = _speed(row, workload).decode_per_sequence
        out.append(_result(row, "decode", float(source["decode_tokens_per_s"]), decode, engine))
        if row.prefill_context and source["prefill_tokens_per_s"]:
            prompt = replace(
                workload, context=row.prefill_context, prompt_tokens=row.prefill_context
            )
            prefill = _speed(row, prompt).prefill
            if prefill is not None:
                out.append(
                    _result(row, "prefill", float(source["prefill_tokens_per_s"]), prefill, engine)
                )
    return out
