"""Speed and cost of a Report as lines for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from estimator.cost import CloudOption
from estimator.report import Report
from estimator.speed import Range

from ..i18n import t
from . import numbers


def _n(x: float, lang: str) -> str:
    return numbers.significant(x, lang)


def _ends(r: Range, low: str, high: str, lang: str) -> dict[str, str]:
    """A range's two ends under the template's names, to the same decimals."""
    first, last = numbers.ends(r.low, r.high, lang)
    return {low: first, high: last}


def lines(rep: Report, lang: str) -> list[str]:
    """Speed and cost under their titles, each block after a blank line."""
    out: list[str] = []
    for title, items in (
        (t("table.speed", lang), speed(rep, lang)),
        (t("table.cost", lang), cost(rep, lang)),
    ):
        if items:
            out += ["", title, *(f"  {item}" for item in items)]
    return out


def speed(rep: Report, lang: str) -> list[str]:
    """Decode, prefill and training-time lines (empty when nothing was estimated)."""
    out: list[str] = []
    s, tr = rep.speed, rep.training
    if s is not None:
        seqs = rep.estimate.inputs.concurrency * rep.estimate.inputs.batch
        out.append(
            t(
                "table.decode",
                lang,
                **_ends(s.decode_per_sequence, "low", "high", lang),
                **_ends(s.decode_total, "total_low", "total_high", lang),
                sequences=seqs,
            )
        )
        if s.prefill is not None and s.time_to_first_token is not None:
            out.append(
                t(
                    "table.prefill",
                    lang,
                    **_ends(s.prefill, "low", "high", lang),
                    **_ends(s.time_to_first_token, "ttft_low", "ttft_high", lang),
                )
            )
    if tr is not None:
        out.append(
            t(
                "table.training_time",
                lang,
                tokens=numbers.integer(tr.tokens, lang),
                time=numbers.duration(tr.hours.low, tr.hours.high, lang),
                **_ends(tr.tokens_per_second, "rate_low", "rate_high", lang),
            )
        )
    return out


# Hours in an average month: 8,760 a year over 12.
HOURS_A_MONTH = 730


def rented(rep: Report, lang: str) -> list[str]:
    """The cloud lines of the instances with the machine's own GPUs, cheapest first; a server
    (no training job) also says what a month around the clock costs."""
    out = []
    for o in rep.rented:
        line = _cloud_line(o, lang)
        if line is not None and rep.training is None:
            month = numbers.integer(o.usd_per_hour * HOURS_A_MONTH, lang)
            line += t("table.cloud_month", lang, month=month)
        if line is not None:
            out.append(line)
    return out


def _cloud_lines(options: Sequence[CloudOption], lang: str) -> list[str]:
    return [line for o in options if (line := _cloud_line(o, lang)) is not None]


def _cloud_line(o: CloudOption, lang: str) -> str | None:
    price = numbers.usd(o.usd_per_hour, lang)
    common = {
        "provider": o.instance.provider,
        "instance": o.instance.instance,
        "price": price,
        "verdict": t(f"verdict.{o.verdict}", lang),
    }
    if o.job_usd is not None:
        return t(
            "table.cloud_job",
            lang,
            low=numbers.usd(o.job_usd.low, lang),
            high=numbers.usd(o.job_usd.high, lang),
            **common,
        )
    if o.usd_per_million_tokens is not None:
        r = o.usd_per_million_tokens
        return t("table.cloud_tokens", lang, **_ends(r, "low", "high", lang), **common)
    return None


def cost(rep: Report, lang: str) -> list[str]:
    """Cloud, electricity and purchase lines."""
    out = [] if rep.cloud else [t("table.cloud_none", lang)]
    out += _cloud_lines(rep.cloud, lang)
    power = rep.electricity
    if power is not None:
        text = t(
            "table.electricity",
            lang,
            watts=numbers.integer(power.watts, lang),
            price=numbers.number(power.kwh_price, lang),
            per_hour=_n(power.per_hour, lang),
        )
        if power.job is not None:
            text += t(
                "table.electricity_job",
                lang,
                **_ends(power.job, "low", "high", lang),
            )
        out.append(text)
    buy = rep.purchase
    if buy is not None:
        key = "table.purchase" if buy.verified else "table.purchase_unverified"
        text = t(key, lang, usd=numbers.integer(buy.usd, lang))
        rented = buy.rented
        if buy.break_even_hours is not None and rented is not None:
            text += t(
                "table.break_even",
                lang,
                hours=numbers.integer(buy.break_even_hours, lang),
                instance=f"{rented.provider} {rented.instance}",
            )
        out.append(text)
    return out
