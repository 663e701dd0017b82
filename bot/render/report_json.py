"""Speed and cost of a Report as the `--json` contract's `speed` and `cost` keys."""

from __future__ import annotations

from typing import overload

from estimator.report import Report
from estimator.speed import Range

from ..schemas import (
    CloudOut,
    CostOut,
    ElectricityOut,
    PurchaseOut,
    RangeOut,
    SpeedOut,
    TrainingTimeOut,
)


@overload
def _range(r: Range) -> RangeOut: ...
@overload
def _range(r: Range | None) -> RangeOut | None: ...
def _range(r: Range | None) -> RangeOut | None:
    return None if r is None else RangeOut(low=r.low, high=r.high)


def speed(rep: Report) -> SpeedOut | None:
    s, t = rep.speed, rep.training
    if s is None and t is None:
        return None
    return SpeedOut(
        decode_tokens_per_s=_range(s.decode_per_sequence) if s else None,
        decode_total_tokens_per_s=_range(s.decode_total) if s else None,
        prefill_tokens_per_s=_range(s.prefill) if s else None,
        time_to_first_token_s=_range(s.time_to_first_token) if s else None,
        training=None
        if t is None
        else TrainingTimeOut(
            tokens=t.tokens, tokens_per_s=_range(t.tokens_per_second), hours=_range(t.hours)
        ),
    )


def cost(rep: Report) -> CostOut:
    power, buy = rep.electricity, rep.purchase
    return CostOut(
        cloud=[
            CloudOut(
                provider=o.instance.provider,
                instance=o.instance.instance,
                gpu=o.instance.gpu,
                gpu_count=o.instance.gpu_count,
                usd_per_hour=o.usd_per_hour,
                price_date=o.instance.price_date,
                verdict=o.verdict,
                job_usd=_range(o.job_usd),
                usd_per_million_tokens=_range(o.usd_per_million_tokens),
            )
            for o in rep.cloud
        ],
        electricity=None
        if power is None
        else ElectricityOut(
            watts=power.watts,
            kwh_price_usd=power.kwh_price,
            usd_per_hour=power.per_hour,
            job_usd=_range(power.job),
        ),
        purchase=None
        if buy is None
        else PurchaseOut(usd=buy.usd, verified=buy.verified, break_even_hours=buy.break_even_hours),
    )
