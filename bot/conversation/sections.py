"""The sections of one sized workload's reply: the headline, the verdict (the plan that runs
first where the question named no format), the breakdown, a queueing server's line, the plan
with its alternatives, the advice, and the assumptions."""

from __future__ import annotations

from typing import Any

from estimator import engines
from estimator.frameworks import FRAMEWORKS
from estimator.planner import YOURS, Plan
from estimator.planner.serving import Capacity
from estimator.precision import weight_format
from estimator.result import COMPONENTS, Estimate
from estimator.vocabulary import FITTING
from rules import Recommendation

from .. import sizing
from ..i18n import Language, has, t
from ..render import notes, numbers, plans
from ..render.hardware import label as hardware_label
from ..render.recommendations import texts
from .reply import Item, Section
from .slots import Draft

SHOWN_RECOMMENDATIONS = 4
# Alternatives shown beside the plan that leads.
SHOWN_ALTERNATIVES = 2


def serving(served: Capacity, est: Estimate, lang: Language) -> str:
    """A queueing server with more users than fit: what runs at once, and at what speed."""
    text = t(
        "reply.serving",
        lang,
        engine=engines.get(est.inputs.engine).label,
        at_once=served.at_once,
        context=numbers.integer(served.context, lang),
        queued=served.asked - min(served.asked, served.at_once),
        average=numbers.integer(served.average_tokens, lang),
        at_average=served.at_average,
    )
    if served.decode is not None:
        low, high = numbers.ends(served.decode.low, served.decode.high, lang)
        running = min(served.asked, served.at_average)
        total_low, total_high = numbers.ends(
            served.decode.low * running, served.decode.high * running, lang
        )
        text += t(
            "reply.serving_speed",
            lang,
            low=low,
            high=high,
            total_low=total_low,
            total_high=total_high,
        )
    return text


def headline(est: Estimate, lang: Language) -> Section:
    i = est.inputs
    hardware = hardware_label(i.machine, i.gpu_count) if i.machine else t("reply.no_hardware", lang)
    method = t(f"method.{i.method}", lang) if has(f"method.{i.method}", lang) else i.method
    if i.task == "training":
        # What shapes the memory beyond the method: the objective's extra models, and the
        # framework when it is not the Hugging Face Trainer.
        parts = [method]
        if i.objective and i.objective != "sft":
            parts.append(i.objective.upper())
        if i.engine != "transformers" and i.engine in FRAMEWORKS:
            parts.append(FRAMEWORKS[i.engine].label)
        task = f"{t('task.training', lang)} ({', '.join(parts)})"
    else:
        task = t(f"task.{i.task}", lang)
    text = t(
        "reply.headline",
        lang,
        model=i.model,
        params=numbers.count(i.params, lang),
        task=task,
        precision=i.precision,
        context=numbers.integer(i.context, lang),
        hardware=hardware,
    )
    if i.concurrency > 1:
        text += t("reply.headline_users", lang, count=i.concurrency)
    return Section(kind="headline", items=[Item(text=text)])


def _assumed(est: Estimate, draft: Draft | None) -> bool:
    """Not fitting (or only partly in RAM) in a format and engine the question did not name."""
    return (
        draft is not None
        and est.verdict not in FITTING
        and not (draft.precision or draft.engine or draft.task == "training")
    )


def leads_with_plan(est: Estimate, draft: Draft | None, lead: Plan | None) -> bool:
    """Whether the verdict is the plan's (`lead`) rather than the assumed format's: it fits
    where the assumed one does not, or runs partly in RAM faster than people read where the
    assumed one does not run or crawls (Qwen3 14B on an 8 GB laptop GPU: Q4_K_M with 31 of 40 layers on it at
    11-16 tokens/s, BF16 at 1 token/s). A plan below 4 bits per weight (a 72B in IQ1_S on
    24 GB) is no verdict to lead with."""
    if lead is None or lead.low_bits or not _assumed(est, draft):
        return False
    if lead.verdict in FITTING:
        return True
    other = (lead.engine, lead.precision) != (est.inputs.engine, est.inputs.precision)
    return lead.verdict == "offload" and not lead.slow_offload and other


def verdict(
    est: Estimate, lang: Language, draft: Draft | None = None, lead: Plan | None = None
) -> list[Item]:
    """The verdict as asked; where it does not fit in a format and engine the question did not
    name, the verdict of the plan that runs on the user's own hardware (`lead`) comes first,
    then the assumed format and engine's, which the breakdown below it adds up."""
    fullest = max(est.devices, key=lambda d: d.components.total)
    if fullest.usable_bytes is None:
        text = t("reply.verdict_no_hardware", lang, total=numbers.size(est.total_bytes, lang))
        return [Item(text=text)]
    assumed = _assumed(est, draft)
    if lead is not None and leads_with_plan(est, draft, lead):
        runs = t(
            "reply.verdict_plan",
            lang,
            verdict=t(f"verdict.{lead.verdict}", lang),
            plan=plans.summary(lead, lang),
            per_device=numbers.size(lead.per_device_bytes, lang),
            usable=numbers.size(fullest.usable_bytes, lang),
        )
        released = t(
            "reply.verdict_as_released",
            lang,
            verdict=t(f"verdict.{est.verdict}", lang),
            format=weight_format(est.inputs.precision).label,
            engine=engines.get(est.inputs.engine).label,
            asked=numbers.size(fullest.components.total, lang),
        )
        return [Item(text=runs, primary=True), Item(text=released)]
    off = est.offload
    short_of_ram = (
        est.verdict == "does_not_fit"
        and off is not None
        and off.ram_usable_bytes is not None
        and off.ram_bytes > off.ram_usable_bytes
        and all(d.usable_bytes is None or d.components.total <= d.usable_bytes for d in est.devices)
    )
    key = (
        "reply.verdict_ram"
        if short_of_ram
        else "reply.verdict_assumed"
        if assumed
        else "reply.verdict"
    )
    text = t(
        key,
        lang,
        verdict=t(f"verdict.{est.verdict}", lang),
        per_device=numbers.size(fullest.components.total, lang),
        usable=numbers.size(fullest.usable_bytes, lang),
        format=weight_format(est.inputs.precision).label,
        engine=engines.get(est.inputs.engine).label if est.inputs.task == "inference" else "",
        ram=numbers.size(off.ram_bytes if off is not None else 0, lang),
        ram_usable=numbers.size((off.ram_usable_bytes or 0) if off is not None else 0, lang),
    )
    return [Item(text=text, primary=True)]


def breakdown(est: Estimate, lang: Language) -> Section:
    """Memory by component of the device the verdict is about (the fullest one): a job total
    over several GPUs beside a per-GPU verdict would read as a contradiction."""
    fullest = max(est.devices, key=lambda d: d.components.total)
    parts = [
        f"{t(f'component.{name}', lang)} {numbers.size(getattr(fullest.components, name), lang)}"
        for name in COMPONENTS
        if getattr(fullest.components, name)
    ]
    text = " · ".join(parts)
    if len(est.devices) > 1:
        text = f"{t('reply.breakdown_per_gpu', lang, devices=len(est.devices))} {text}"
    return Section(kind="breakdown", items=[Item(text=text)])


def item(rec: Recommendation, est: Estimate | None, lang: Language) -> Item:
    title, detail = texts(rec, est, lang)
    return Item(text=title, detail=detail, rule=rec.rule, primary=rec.primary)


def plan(ans: sizing.Sizing, lang: Language) -> list[Section]:
    """ "Yes, like this:": the plan the first plan rule recommends, with its figures, speed and
    command, then at most two alternatives that run differently (another engine, method or
    place), from the places the plan rules allowed and the user's own hardware (a plan partly
    in RAM too slow to lead, with its speed): the best other way on the same hardware and the
    best elsewhere, in the planner's order."""
    recs = [(r.rule, r.plan) for r in ans.advice.recommendations if r.plan is not None]
    if not recs:
        return []
    rule, lead = recs[0]
    places = {plan.hardware for _, plan in recs} | {YOURS}
    seen = {(lead.hardware, lead.engine, lead.method)}
    pool = []
    for p in ans.plans:
        key = (p.hardware, p.engine, p.method)
        # Under 4 bits already, another under-4-bit way (IQ1_S beside EXL2 2.5 bpw) is the
        # same trade-off: the way that keeps 4 bits (partly in RAM, say) is the alternative.
        same_loss = lead.low_bits and p.low_bits and p.hardware == lead.hardware
        wanted = p.runs and p.kind != "as_asked" and p.hardware in places
        if wanted and key not in seen and not same_loss:
            seen.add(key)
            pool.append(p)
    same = [p for p in pool if p.hardware == lead.hardware]
    other = [p for p in pool if p.hardware != lead.hardware]
    alternatives = (same[:1] + other[:1] + same[1:] + other[1:])[:SHOWN_ALTERNATIVES]
    detail = plans.speed(lead, lang)
    trained = sizing.plan_training(ans, lead)
    if trained is not None:
        said = plans.training(trained, lead, lang)
        detail = f"{detail}; {said}" if detail else said[:1].upper() + said[1:]
    items = [
        Item(
            text=f"{plans.summary(lead, lang)}: {plans.figures(lead, lang)}",
            detail=detail,
            command=lead.command,
            rule=rule,
            primary=True,
        ),
        *(alternative(p, lang) for p in alternatives),
    ]
    title = {"plan_yours": "plan.title", "plan_faster": "plan.title_faster"}.get(
        rule, "plan.title_rented" if ans.estimate.verdict == "unknown" else "plan.title_elsewhere"
    )
    return [Section(kind="plan", title=t(title, lang), items=items)]


def alternative(plan: Plan, lang: Language) -> Item:
    """One line for an alternative plan; one partly in RAM says how fast it decodes."""
    said = plans.rates(plan.decode, None, lang) or plans.bound(plan, lang)
    detail = said[0] if plan.offload is not None and said else None
    return Item(text=plans.line(plan, lang), detail=detail)


def advice(ans: sizing.Sizing, lang: Language) -> list[Section]:
    advice = ans.advice
    shown = [r for r in advice.recommendations if r.group != "plan"]
    recs = sorted(shown, key=lambda r: not r.primary)[:SHOWN_RECOMMENDATIONS]
    if not recs:
        return []
    items = [item(rec, advice.estimate, lang) for rec in recs]
    if any(rec.rule == "launch" for rec in recs):
        items += other_engine(ans, lang)
    return [Section(kind="advice", title=t("reply.recommendations", lang), items=items)]


def other_engine(ans: sizing.Sizing, lang: Language) -> list[Item]:
    """Beside the command that starts the answer's engine, the best way to run it on the same
    hardware in another engine ("Or: GGUF Q4_K_M on llama.cpp" beside MLX)."""
    engine = ans.estimate.inputs.engine
    for p in ans.plans:
        if p.runs and p.hardware == YOURS and p.engine != engine and p.kind != "as_asked":
            return [alternative(p, lang)]
    return []


def assumed(est: Estimate, lang: Language) -> list[Section]:
    if not est.assumptions:
        return []
    items = [Item(text=f"- {notes.assumption(a, lang)}") for a in est.assumptions]
    return [Section(kind="assumptions", title=t("reply.assumed", lang), items=items)]


def lines(kind: Any, title: str, lines: list[str]) -> list[Section]:
    return [Section(kind=kind, title=title, items=[Item(text=x) for x in lines])] if lines else []
