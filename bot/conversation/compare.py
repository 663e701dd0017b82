"""The options of a comparison side by side: each option's label, verdict, memory per device
and speed, which one is better for the question, and why, in words the numbers support.

Hardware or models compared: an option that does not run as asked but runs in another format or
engine (the planner's plan on that hardware) is compared as that plan, which the table names.

Better means, in this order: it runs as asked (fits before tight before offload before does not
fit); then faster (decode tokens/s for inference, fewer hours for training) when the speeds
differ by more than SAME_SPEED; then less memory per device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from estimator.engines import canonical
from estimator.hardware.catalog import find_gpu
from estimator.planner import ANY, YOURS, Plan
from estimator.vocabulary import FITTING

from ..i18n import t
from ..render import numbers, plans

if TYPE_CHECKING:
    from .answer import Option
    from .slots import Draft

VERDICT_ORDER = ("fits", "tight", "offload", "does_not_fit", "unknown")
# Speeds within this share of each other are the same for a choice (the estimates are ranges);
# memory within SAME_MEMORY too.
SAME_SPEED = 0.10
SAME_MEMORY = 0.02
_METHODS = {"full": "full", "lora": "LoRA", "qlora": "QLoRA", "freeze": "freeze"}
# Slots that are a way of running: options that differ in them are compared as asked.
_SETTINGS = (
    "method",
    "precision",
    "kv_precision",
    "zero",
    "framework",
    "engine",
    "optimizer",
    "objective",
)


@dataclass(frozen=True, slots=True)
class Row:
    """One option as the table and the JSON show it."""

    label: str
    verdict: str
    per_device_bytes: int | None
    speed: float | None  # tokens/s for inference, or training hours (midpoint of the range)
    speed_unit: str | None  # "tokens_per_s" or "hours"
    error: str | None = None  # why this option could not be answered
    precision: str | None = None  # the weights' format it was sized in
    plan: str | None = None  # the plan it was compared as, when not as asked
    as_asked: bool = True  # runs as asked (its plan keeps the question's format)


def label(varied: Draft, lang: str) -> str:
    """What makes the option, in words: "2x RTX 3090", "AWQ", "ZeRO-3", "Llama-3.1-8B"."""
    parts: list[str] = []
    if varied.model:
        parts.append(varied.model)
    if varied.gpu:
        # The catalog's name ("A100 80GB SXM4"), not the words the variant was assumed from.
        found = find_gpu(varied.gpu)
        name = (found.name if found else varied.gpu).removeprefix("GeForce ")
        parts.append(f"{varied.gpus}x {name}" if varied.gpus and varied.gpus > 1 else name)
    elif varied.gpus:
        parts.append(t("compare.gpu_count", lang, count=varied.gpus))
    if varied.apple:
        parts.append(varied.apple)
    if varied.gpu_memory_gb and not varied.gpu:
        parts.append(t("compare.memory", lang, gb=numbers.number(varied.gpu_memory_gb, lang)))
    if varied.cpu_only:
        parts.append(t("compare.cpu", lang))
    if varied.method:
        parts.append(_METHODS.get(varied.method, varied.method))
    if varied.precision:
        parts.append(varied.precision.upper())
    if varied.kv_precision:
        parts.append(t("compare.kv", lang, precision=varied.kv_precision))
    if varied.zero is not None:
        parts.append(f"ZeRO-{varied.zero}")
    if varied.framework:
        parts.append(varied.framework.upper() if varied.framework == "fsdp" else varied.framework)
    if varied.engine:
        parts.append(varied.engine)
    if varied.optimizer:
        parts.append(varied.optimizer)
    if varied.objective:
        parts.append(varied.objective.upper())
    return " ".join(parts) or "?"


def rows(options: list[Option] | tuple[Option, ...], lang: str) -> list[Row]:
    """The options' rows; when one is compared as a plan, or their defaults differ in format
    (BF16 on a 4090 against Q4_K_M on a Mac), every one is, each as its own best plan (bf16 on
    one card against 8-bit on the other would compare formats, not cards)."""
    plain = [row(o, lang) for o in options]
    formats = {
        o.outcome.workload.estimate.inputs.precision
        for o in options
        if o.outcome is not None and o.outcome.workload is not None
    }
    if not any(r.plan for r in plain) and len(formats) <= 1:
        return plain
    return [row(o, lang, planned=True) for o in options]


def _plan_of(option: Option, planned: bool) -> Plan | None:
    """The plan an option is compared as: for hardware or models compared, the plan that runs
    where as asked it does not, or (`planned`) the best plan on its hardware."""
    ans = option.outcome.workload if option.outcome is not None else None
    if ans is None or option.draft.precision:
        return None
    if any(getattr(option.varied, slot) is not None for slot in _SETTINGS):
        return None
    lead = next((r.plan for r in ans.advice.recommendations if r.rule == "plan_yours"), None)
    if lead is None and planned:
        lead = next((p for p in ans.plans if p.runs and p.hardware in (YOURS, ANY)), None)
    named = option.draft.engine and (canonical(option.draft.engine) or option.draft.engine)
    if named and lead is not None and lead.engine != named:
        # The engine the question named is the one compared ("L40S vs A100 for vLLM"): its
        # own best plan, else the option as asked.
        lead = next(
            (p for p in ans.plans if p.runs and p.hardware in (YOURS, ANY) and p.engine == named),
            None,
        )
    return lead


def row(option: Option, lang: str, *, planned: bool = False) -> Row:
    from ..render import errors

    name = label(option.varied, lang)
    if option.outcome is None or option.outcome.workload is None:
        error = errors.message(option.error, lang) if option.error else None
        return Row(name, "unknown", None, None, None, error)
    ans = option.outcome.workload
    est = ans.estimate
    lead = _plan_of(option, planned)
    if lead is not None:
        # An option is worth what it runs: the row is that plan, named.
        speed = None if lead.decode is None else (lead.decode.low + lead.decode.high) / 2
        return Row(
            name,
            lead.verdict,
            lead.per_device_bytes,
            speed,
            "tokens_per_s" if speed is not None else None,
            precision=lead.precision,
            plan=plans.summary(lead, lang),
            # "Which is faster" is asked about what each runs, in whatever format it runs.
            as_asked=ans.estimate.verdict in FITTING or bool(option.draft.asks_faster),
        )
    fullest = max(d.components.total for d in est.devices)
    speed = unit = None
    if ans.report.speed is not None:
        r = ans.report.speed.decode_per_sequence
        speed, unit = (r.low + r.high) / 2, "tokens_per_s"
    elif ans.report.training is not None:
        r = ans.report.training.hours
        speed, unit = (r.low + r.high) / 2, "hours"
    return Row(name, est.verdict, fullest, speed, unit, precision=est.inputs.precision)


def _rank(r: Row) -> tuple[int, float]:
    order = VERDICT_ORDER.index(r.verdict) if r.verdict in VERDICT_ORDER else len(VERDICT_ORDER)
    return order, float(r.per_device_bytes or 0)


def best(options: list[Option]) -> Option | None:
    """The better option (see the module's docstring), or None when none could be answered."""
    answered = [o for o in options if o.outcome is not None]
    if not answered:
        return None
    return answered[_best_index(rows(answered, "en"))]


def _as_asked_only(rows: list[Row]) -> bool:
    """Some options run as asked and others only in another format: those that run as asked
    are the ones to choose between (a faster 8-bit plan is not a faster card)."""
    fitting = [r for r in rows if r.verdict in FITTING]
    return any(r.as_asked for r in fitting) and not all(r.as_asked for r in fitting)


def _best_index(rows: list[Row]) -> int:
    strict = _as_asked_only(rows)
    ranked = sorted(
        range(len(rows)),
        key=lambda i: (
            strict and not (rows[i].as_asked and rows[i].verdict in FITTING),
            _rank(rows[i]),
        ),
    )
    top = ranked[0]
    ties = [
        i
        for i in ranked
        if rows[i].verdict == rows[top].verdict and rows[i].as_asked == rows[top].as_asked
    ]
    if len(ties) > 1 and rows[top].verdict in FITTING:
        faster = _fastest(rows, ties)
        if faster is not None:
            return faster
    return top


def _fastest(rows: list[Row], ties: list[int]) -> int | None:
    """The clearly fastest of options with equal verdicts, None when the speeds are alike."""
    timed = [i for i in ties if rows[i].speed]
    if len(timed) < 2:
        return None
    hours = rows[timed[0]].speed_unit == "hours"
    ordered = sorted(timed, key=lambda i: rows[i].speed or 0, reverse=not hours)
    first, second = rows[ordered[0]].speed or 0, rows[ordered[1]].speed or 0
    if abs(first - second) <= SAME_SPEED * max(first, second):
        return None
    return ordered[0]


def verdict_line(rows: list[Row], lang: str) -> str:
    """ "Better: L4, the only one that fits." and the like, or that the options are alike."""
    if not rows:
        return t("compare.none_answered", lang)
    chosen = rows[_best_index(rows)]
    fitting = [r for r in rows if r.verdict in FITTING]
    per_device = numbers.size(chosen.per_device_bytes or 0, lang)
    if all(r.verdict == "unknown" for r in rows):
        return _without_hardware(rows, lang)
    if not fitting:
        key, params = "compare.reason.none_fit", {"per_device": per_device}
    elif _as_asked_only(rows) and chosen.as_asked:
        others = [r for r in fitting if not r.as_asked]
        key = "compare.reason.as_asked"
        params = {
            "precision": (chosen.precision or "").upper(),
            "other_label": others[0].label,
            "other_plan": others[0].plan or "",
        }
    elif len(fitting) == 1:
        key, params = "compare.reason.only_fits", {}
    elif (fastest := _fastest(rows, [rows.index(r) for r in fitting])) is not None:
        if rows[fastest] is chosen:
            other = max(
                (r for r in fitting if r is not chosen and r.speed), key=lambda r: r.speed or 0
            )
            key = "compare.reason.faster_" + (chosen.speed_unit or "tokens_per_s")
        else:
            # Chosen for its room over a faster one that only just fits: both are said.
            other = rows[fastest]
            key = "compare.reason.roomier"
        params = {"speed": _speed(chosen, lang), "other": _speed(other, lang)}
        params.update(other_label=other.label, per_device=per_device)
    elif _alike(fitting):
        first = ", ".join(r.label for r in fitting[:-1])
        options = t("compare.joined", lang, first=first, last=fitting[-1].label)
        return t("compare.alike", lang, options=options, per_device=per_device)
    else:
        key, params = "compare.reason.less_memory", {"per_device": per_device}
    return t("compare.better", lang, option=chosen.label, reason=t(key, lang, **params))


def _without_hardware(rows: list[Row], lang: str) -> str:
    """No hardware was given: the options compared by the memory they need."""
    answered = [r for r in rows if r.per_device_bytes]
    if len(answered) < 2:
        return t("compare.none_answered", lang)
    if _alike(answered):
        first = ", ".join(r.label for r in answered[:-1])
        options = t("compare.joined", lang, first=first, last=answered[-1].label)
        size = numbers.size(answered[0].per_device_bytes or 0, lang)
        return t("compare.alike_no_hardware", lang, options=options, per_device=size)
    least = min(answered, key=lambda r: r.per_device_bytes or 0)
    other = min((r for r in answered if r is not least), key=lambda r: r.per_device_bytes or 0)
    return t(
        "compare.less_memory_no_hardware",
        lang,
        option=least.label,
        per_device=numbers.size(least.per_device_bytes or 0, lang),
        other=numbers.size(other.per_device_bytes or 0, lang),
        other_label=other.label,
    )


def _alike(rows: list[Row]) -> bool:
    """Options whose memory per device differs by at most SAME_MEMORY."""
    sizes = [r.per_device_bytes or 0 for r in rows]
    return max(sizes) - min(sizes) <= SAME_MEMORY * max(sizes)


def _speed(r: Row, lang: str) -> str:
    if r.speed is None:
        return "?"
    value = numbers.significant(r.speed, lang)
    return t(f"compare.speed_{r.speed_unit}", lang, value=value)


def table(rows: list[Row], lang: str) -> list[str]:
    """The options as plain aligned columns."""
    header = [
        t("compare.col.option", lang),
        t("compare.col.verdict", lang),
        t("compare.col.per_device", lang),
        t("compare.col.speed", lang),
    ]
    # Options sized in different formats say which (an engine's default format differs).
    formats = len({r.precision for r in rows if r.precision}) > 1
    cells = [
        [
            f"{r.label} ({r.plan})"
            if r.plan
            else f"{r.label} ({r.precision})"
            if formats and r.precision and r.precision.upper() != r.label
            else r.label,
            t(f"verdict.{r.verdict}", lang),
            numbers.size(r.per_device_bytes, lang) if r.per_device_bytes is not None else "-",
            _speed(r, lang) if r.speed is not None else "-",
        ]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    for line, r in zip(cells, rows, strict=True):
        out.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
        if r.error:
            out.append(f"  {r.error}")
    return out


def as_json(options: list[Option], lang: str) -> list[dict[str, Any]]:
    """The `comparison` list of `ask --json`: one entry per option with its own inputs,
    verdict, memory and speed."""
    from ..render import errors, estimate_json, report_json

    out = []
    for option, r in zip(options, rows(options, lang), strict=True):
        entry: dict[str, Any] = {"option": r.label, "verdict": r.verdict}
        if r.plan is not None:
            entry["plan"] = r.plan  # verdict, memory and speed are this plan's
        ans = option.outcome.workload if option.outcome else None
        if ans is not None:
            body = estimate_json.answer(ans.estimate, lang)
            entry["inputs"] = body.inputs.model_dump(mode="json")
            entry["memory"] = {
                "total_bytes": body.memory.total_bytes,
                "per_device_bytes": r.per_device_bytes,
            }
            speed = report_json.speed(ans.report)
            entry["speed"] = None if speed is None else speed.model_dump(mode="json")
        else:
            entry.update(inputs=option.draft.model_dump(exclude_none=True), memory=None, speed=None)
            if option.error is not None:
                entry["error"] = errors.message(option.error, lang)
        out.append(entry)
    return out
