"""Turn a dialogue step and its outcome into a Reply: the question to ask with its choices, or
the answer as sections (headline, verdict, breakdown, advice, speed, assumptions, follow-ups)
with its JSON contract and what its chart draws."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from estimator.inverse import Answer as InverseAnswer
from estimator.models import catalog
from estimator.precision import weight_format
from rules import Advice

from .. import searches, sizing
from ..i18n import Language, has, t
from ..render import budget, estimate_json, notes, numbers, plans, report_text
from ..render.recommendations import texts
from . import compare
from . import sections as answer_sections
from .answer import Outcome
from .dialogue import Turn
from .refine import Refinement
from .reply import Choice, Item, Reply, Section
from .slots import Draft

_MODEL_CHOICES = ("Llama-3.1-8B", "Qwen2.5-7B", "Mistral-7B-v0.3", "Llama-3.1-70B")
_GPU_CHOICES = ("RTX 4090", "RTX 3090", "A100 80GB", "M3 Max 64GB")
_LAPTOP_CHOICES = ("RTX 4060 Laptop", "RTX 4090 Laptop", "M3 Pro 18GB")
_FEATURE_CHOICES = (10, 50, 200, 1000)


def _choices(slot: str, laptop: bool, lang: Language) -> list[Choice]:
    if slot == "task":
        return [
            Choice(label=t(f"choice.{task}", lang), message=t(f"choice.{task}.message", lang))
            for task in ("inference", "training")
        ]
    if slot == "model":
        return [Choice(label=name, message=name) for name in _MODEL_CHOICES]
    if slot == "hardware":
        names = _LAPTOP_CHOICES if laptop else _GPU_CHOICES
        cpu = t("choice.laptop_cpu" if laptop else "choice.cpu", lang)
        return [Choice(label=n, message=n) for n in (*names, cpu)]
    if slot == "features":
        return [
            Choice(label=t("choice.features", lang, count=n), message=str(n))
            for n in _FEATURE_CHOICES
        ]
    return [Choice(label=f"{gb}GB RAM", message=f"{gb}GB RAM") for gb in (16, 32, 64)]


def question(turn: Turn, lang: Language) -> Reply:
    slot = turn.missing[0]
    draft = turn.state.draft
    key = "ask.laptop" if slot == "hardware" and draft.laptop else f"ask.{slot}"
    lines = []
    if turn.unknown_model:
        suggestions = catalog.suggest(turn.unknown_model)
        lines.append(
            t(
                "ask.unknown_model_suggest",
                lang,
                model=turn.unknown_model,
                suggestions=", ".join(suggestions),
            )
            if suggestions
            else t("ask.unknown_model", lang, model=turn.unknown_model)
        )
    asked = t(key, lang)
    choices = _choices(slot, bool(draft.laptop), lang)
    return Reply(
        status="need_more",
        language=lang,
        sections=[
            Section(kind="text", items=[Item(text=line) for line in [*lines, asked]]),
            Section(kind="choices", items=[Item(text=c.label) for c in choices]),
        ],
        missing=list(turn.missing),
        question_to_user=asked,
        choices=choices,
        parsed=draft,
    )


def all_recommendations(outcome: Outcome, lang: Language) -> list[Section]:
    """Every recommendation of an answer, not only the first few."""
    advice = outcome.ml or (outcome.workload.advice if outcome.workload else None)
    if advice is None or not advice.recommendations:
        return [Section(kind="text", items=[Item(text=t("reply.nothing_to_show", lang))])]
    items = [answer_sections.item(rec, advice.estimate, lang) for rec in advice.recommendations]
    return [Section(kind="advice", title=t("reply.recommendations", lang), items=items)]


def refinement_phrase(r: Refinement, lang: Language) -> str:
    return t(f"refine.{r.key}", lang, value=r.value)


def _refinements(found: list[Refinement], lang: Language) -> tuple[list[Section], list[Choice]]:
    if not found:
        return [], []
    items, choices = [], []
    for r in found:
        phrase = refinement_phrase(r, lang)
        text = t(
            "reply.refine_item",
            lang,
            phrase=phrase,
            memory=numbers.size(r.per_device_bytes, lang),
            verdict=t(f"verdict.{r.verdict}", lang),
        )
        items.append(Item(text=text))
        choices.append(Choice(label=phrase, message=phrase))
    return [Section(kind="refinements", title=t("reply.refine", lang), items=items)], choices


def info(act: str, lang: Language, parsed: Draft | None = None) -> Reply:
    """The answer to a conversation act: a greeting, help, thanks, or a message out of scope.
    Never an estimate."""
    return Reply(status="info", language=lang, text=t(f"act.{act}", lang), parsed=parsed or Draft())


def _question(outcome: Outcome, lang: Language) -> str:
    """What the options are compared for: "Llama-3.1-8B, inference"."""
    if outcome.workload is None:
        return outcome.draft.model or "?"
    i = outcome.workload.estimate.inputs
    method = t(f"method.{i.method}", lang) if has(f"method.{i.method}", lang) else i.method
    task = t(f"task.{i.task}", lang) + (f" ({method})" if i.task == "training" else "")
    if any(o.varied.model for o in outcome.options):
        return task
    return f"{i.model}, {task}"


def compared(outcome: Outcome, lang: Language) -> Reply:
    """A comparison: the options side by side, which is better and why, then what was assumed
    for the better one."""
    rows = compare.rows(outcome.options, lang)
    labels = [r.label for r in rows]
    options = t("compare.joined", lang, first=", ".join(labels[:-1]), last=labels[-1])
    title = t("compare.title", lang, options=options, question=_question(outcome, lang))
    sections = [
        Section(
            kind="comparison",
            title=title,
            items=[Item(text=line) for line in compare.table(rows, lang)],
        ),
        Section(kind="verdict", items=[Item(text=compare.verdict_line(rows, lang), primary=True)]),
    ]
    ans = outcome.workload
    if ans is not None:
        sections += answer_sections.assumed(ans.estimate, lang)
    reply = Reply(
        status="answered",
        language=lang,
        sections=sections,
        parsed=outcome.draft,
        verdict=None if ans is None else ans.estimate.verdict,
        comparison=compare.as_json(list(outcome.options), lang),
    )
    if ans is None:
        return reply
    return reply.with_body(lambda: sizing.as_json(ans, lang).model_dump(mode="json"))


def answered(outcome: Outcome, found: list[Refinement], lang: Language) -> Reply:
    reply = _answered(outcome, found, lang)
    if outcome.bought is None:
        return reply
    d = outcome.draft
    said = budget.sentence(outcome.bought, d.budget or 0, d.budget_currency, lang)
    return reply.with_section(Section(kind="verdict", items=[Item(text=said)]), first=True)


def _answered(outcome: Outcome, found: list[Refinement], lang: Language) -> Reply:
    if outcome.options:
        return compared(outcome, lang)
    if outcome.ml is not None:
        return _ml(outcome, outcome.ml, lang)
    if outcome.question is not None and outcome.inverse is not None:
        if outcome.inverse.value is None and outcome.workload is not None:
            return _nothing_fits(outcome, outcome.question, outcome.inverse, found, lang)
        return _inverse(outcome, outcome.question, outcome.inverse, lang)
    ans = outcome.workload
    # answer.answer gives an outcome without a comparison, ML advice or inverse answer a
    # workload answer.
    assert ans is not None
    est = ans.estimate
    lead = next(
        (r.plan for r in ans.advice.recommendations if r.rule == "plan_yours" and r.plan), None
    )
    verdict = answer_sections.verdict(est, lang, outcome.draft, lead)
    served = ans.serving
    if served is not None:
        verdict.append(Item(text=answer_sections.serving(served, est, lang)))
    if outcome.smallest_gpu is not None and outcome.smallest_gpu.value is not None:
        # With the format and engine that give it: the 16-bit model may need a far larger one.
        verdict.append(Item(text=searches.sentence("gpu", outcome.smallest_gpu, lang)))
    sections = [
        answer_sections.headline(est, lang),
        Section(kind="verdict", items=verdict),
        answer_sections.breakdown(est, lang),
    ]
    plan = answer_sections.plan(ans, lang)
    sections += plan
    sections += answer_sections.advice(ans, lang)
    # No speed for what cannot run, nor for the assumed format when the plan leads: the plan
    # says its own.
    if est.verdict != "does_not_fit" and not answer_sections.leads_with_plan(
        est, outcome.draft, lead
    ):
        sections += answer_sections.lines(
            "speed", t("table.speed", lang), report_text.speed(ans.report, lang)
        )
    if ans.report.rented:
        # "on a rented H100": what renting that machine costs (for the plan that runs there when
        # the question as asked does not), for the job when it is known.
        sections += answer_sections.lines(
            "cost", t("table.cost", lang), report_text.rented(ans.report, lang)
        )
    sections += answer_sections.assumed(est, lang)
    if plan:
        # Beside a plan that runs, a follow-up that does not ("in int4" on transformers while
        # Q4_K_M on llama.cpp fits) reads as a contradiction.
        found = [r for r in found if r.verdict != "does_not_fit"]
    refine, choices = _refinements(found, lang)
    sections += [*refine, Section(kind="hint")]
    fullest = max(est.devices, key=lambda d: d.components.total)
    return (
        Reply(
            status="answered",
            language=lang,
            sections=sections,
            choices=choices,
            parsed=outcome.draft,
            verdict=est.verdict,
            total_bytes=est.total_bytes,
            per_device_bytes=fullest.components.total,
        )
        .with_body(lambda: sizing.as_json(ans, lang).model_dump(mode="json"))
        .with_drawing(lambda: sizing.drawing(ans))
    )


def _nothing_fits(
    outcome: Outcome, question: str, found: InverseAnswer, refine: list[Refinement], lang: Language
) -> Reply:
    """An inverse question nothing answers on the hardware ("how many users for a 70B on a
    4090"): said first, then the workload itself with the plan that runs elsewhere."""
    forward = answered(replace(outcome, question=None, inverse=None), refine, lang)
    text = t("fit.none_here", lang)
    if outcome.draft.precision and outcome.workload is not None:
        # Only the format named was searched: saying nothing of 4 bits or more runs would be
        # wrong when the plan below runs in 4 bits.
        label = weight_format(outcome.workload.estimate.inputs.precision).label
        text = t("fit.none_as_asked", lang, format=label)
    none = Section(kind="inverse", items=[Item(text=text, primary=True)])
    inverse = {"question": question, "answer": None, "answer_text": none.items[0].text}
    reply = forward.with_section(none, first=True)
    return reply.with_body(lambda: {"inverse": inverse, **(forward.body or {})})


def _inverse(outcome: Outcome, question: str, found: InverseAnswer, lang: Language) -> Reply:
    sentence = searches.sentence(question, found, lang)
    sections = [Section(kind="inverse", items=[Item(text=sentence, primary=True)])]
    est = found.estimate
    if est is not None:
        fullest = max(est.devices, key=lambda d: d.components.total)
        at_value = t(
            "reply.inverse_estimate",
            lang,
            per_device=numbers.size(fullest.components.total, lang),
            verdict=t(f"verdict.{est.verdict}", lang),
        )
        verdict = [Item(text=at_value)]
        speed = outcome.inverse_speed
        if speed is not None:
            text = "; ".join(plans.rates(speed.decode_per_sequence, speed.prefill, lang))
            verdict.append(Item(text=text[:1].upper() + text[1:]))
        sections += [
            answer_sections.headline(est, lang),
            Section(kind="verdict", items=verdict),
            answer_sections.breakdown(est, lang),
            *answer_sections.assumed(est, lang),
        ]

    def body() -> dict[str, Any]:
        inverse = {
            "question": question,
            "answer": searches.plain_value(found),
            "answer_text": sentence,
            **searches.fields(found),
        }
        out = {} if est is None else estimate_json.answer(est, lang).model_dump(mode="json")
        return {"inverse": inverse, **out}

    return Reply(
        status="answered",
        language=lang,
        sections=sections,
        parsed=outcome.draft,
        verdict=None if est is None else est.verdict,
        total_bytes=None if est is None else est.total_bytes,
    ).with_body(body)


def _ml(outcome: Outcome, advice: Advice, lang: Language) -> Reply:
    items, recs = [], []
    for rec in advice.recommendations:
        title, detail = texts(rec, None, lang)
        items.append(Item(text=title, detail=detail, rule=rec.rule))
        recs.append({"rule": rec.rule, "title": title, "detail": detail})
    sections = []
    data_bytes = advice.fact.get("data_bytes", 0)
    if outcome.draft.asks_ram and data_bytes:
        # "How much RAM": the table as float64 (the rules' data size), and the copy to add.
        text = t("reply.ml_ram", lang, data=numbers.size(data_bytes, lang))
        sections.append(Section(kind="verdict", items=[Item(text=text, primary=True)]))
    sections.append(Section(kind="advice", title=t("reply.ml", lang), items=items))
    assumed = [Item(text=f"- {notes.assumption(n, lang)}") for n in outcome.ml_notes]
    if assumed:
        sections.append(Section(kind="assumptions", title=t("reply.assumed", lang), items=assumed))
    body = {"verdict": "unknown", "recommendations": recs, "memory": {"data_bytes": data_bytes}}
    return Reply(
        status="answered",
        language=lang,
        sections=sections,
        parsed=outcome.draft,
        verdict="unknown",
    ).with_body(lambda: body)
