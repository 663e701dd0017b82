"""Turn a dialogue step and its outcome into a Reply: the question to ask with its choices, or
the answer as sections (headline, verdict, breakdown, advice, speed, assumptions, follow-ups)
with its JSON contract and what its chart draws."""

from __future__ import annotations

from typing import Any

from estimator.models import catalog
from estimator.result import COMPONENTS, Estimate
from rules import Advice, Recommendation

from .. import answers, questions
from ..i18n import t
from ..render import estimate_json, notes, numbers, report_text
from ..render.recommendations import texts
from .answer import Outcome
from .dialogue import Turn
from .refine import Refinement
from .reply import Choice, Item, Reply, Section

SHOWN_RECOMMENDATIONS = 4
_MODEL_CHOICES = ("Llama-3.1-8B", "Qwen2.5-7B", "Mistral-7B-v0.3", "Llama-3.1-70B")
_GPU_CHOICES = ("RTX 4090", "RTX 3090", "A100 80GB", "M3 Max 64GB")
_LAPTOP_CHOICES = ("RTX 4060 Laptop", "RTX 4090 Laptop", "M3 Pro 18GB")


def _choices(slot: str, laptop: bool, lang: str) -> list[Choice]:
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
    return [Choice(label=f"{gb}GB RAM", message=f"{gb}GB RAM") for gb in (16, 32, 64)]


def question(turn: Turn, lang: str) -> Reply:
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


def _headline(est: Estimate, lang: str) -> Section:
    i = est.inputs
    hardware = i.machine or t("reply.no_hardware", lang)
    if i.gpu_count > 1:
        hardware = f"{i.gpu_count}x {hardware}"
    task = t(f"task.{i.task}", lang) + (f" ({i.method})" if i.task == "training" else "")
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
    return Section(kind="headline", items=[Item(text=text)])


def _verdict(est: Estimate, lang: str) -> Item:
    fullest = max(est.devices, key=lambda d: d.components.total)
    if fullest.usable_bytes is None:
        text = t("reply.verdict_no_hardware", lang, total=numbers.size(est.total_bytes, lang))
        return Item(text=text)
    text = t(
        "reply.verdict",
        lang,
        verdict=t(f"verdict.{est.verdict}", lang),
        per_device=numbers.size(fullest.components.total, lang),
        usable=numbers.size(fullest.usable_bytes, lang),
    )
    return Item(text=text, primary=True)


def _breakdown(est: Estimate, lang: str) -> Section:
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


def _item(rec: Recommendation, est: Estimate | None, lang: str) -> Item:
    title, detail = texts(rec, est, lang)
    return Item(text=title, detail=detail, rule=rec.rule, primary=rec.primary)


def _advice(advice: Advice, lang: str) -> list[Section]:
    recs = sorted(advice.recommendations, key=lambda r: not r.primary)[:SHOWN_RECOMMENDATIONS]
    if not recs:
        return []
    items = [_item(rec, advice.estimate, lang) for rec in recs]
    return [Section(kind="advice", title=t("reply.recommendations", lang), items=items)]


def all_recommendations(outcome: Outcome, lang: str) -> list[Section]:
    """Every recommendation of an answer, not only the first few."""
    advice = outcome.ml or (outcome.workload.advice if outcome.workload else None)
    if advice is None or not advice.recommendations:
        return [Section(kind="text", items=[Item(text=t("reply.nothing_to_show", lang))])]
    items = [_item(rec, advice.estimate, lang) for rec in advice.recommendations]
    return [Section(kind="advice", title=t("reply.recommendations", lang), items=items)]


def refinement_phrase(r: Refinement, lang: str) -> str:
    return t(f"refine.{r.key}", lang, value=r.value)


def _refinements(found: list[Refinement], lang: str) -> tuple[list[Section], list[Choice]]:
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


def _assumed(est: Estimate, lang: str) -> list[Section]:
    if not est.assumptions:
        return []
    items = [Item(text=f"- {notes.assumption(a, lang)}") for a in est.assumptions]
    return [Section(kind="assumptions", title=t("reply.assumed", lang), items=items)]


def _lines(kind: Any, title: str, lines: list[str]) -> list[Section]:
    return [Section(kind=kind, title=title, items=[Item(text=x) for x in lines])] if lines else []


def answered(outcome: Outcome, found: list[Refinement], lang: str) -> Reply:
    if outcome.ml is not None:
        return _ml(outcome, lang)
    if outcome.inverse is not None:
        return _inverse(outcome, lang)
    ans = outcome.workload
    est = ans.estimate
    verdict = [_verdict(est, lang)]
    if outcome.smallest_gpu is not None:
        gpu = questions.plain_value(outcome.smallest_gpu)
        if gpu is not None:
            verdict.append(Item(text=t("reply.smallest_gpu", lang, gpu=gpu)))
    sections = [_headline(est, lang), Section(kind="verdict", items=verdict), _breakdown(est, lang)]
    sections += _advice(ans.advice, lang)
    if est.verdict != "does_not_fit":  # no speed for what cannot run
        sections += _lines("speed", t("table.speed", lang), report_text.speed(ans.report, lang))
    sections += _assumed(est, lang)
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
        .with_body(lambda: answers.as_json(ans, lang).model_dump(mode="json"))
        .with_drawing(lambda: answers.drawing(ans))
    )


def _inverse(outcome: Outcome, lang: str) -> Reply:
    found = outcome.inverse
    sentence = questions.sentence(outcome.question, found, lang)
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
        sections += [
            _headline(est, lang),
            Section(kind="verdict", items=[Item(text=at_value)]),
            _breakdown(est, lang),
            *_assumed(est, lang),
        ]

    def body() -> dict[str, Any]:
        inverse = {
            "question": outcome.question,
            "answer": questions.plain_value(found),
            "answer_text": sentence,
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


def _ml(outcome: Outcome, lang: str) -> Reply:
    advice = outcome.ml
    items, recs = [], []
    for rec in advice.recommendations:
        title, detail = texts(rec, None, lang)
        items.append(Item(text=title, detail=detail, rule=rec.rule))
        recs.append({"rule": rec.rule, "title": title, "detail": detail})
    return Reply(
        status="answered",
        language=lang,
        sections=[Section(kind="advice", title=t("reply.ml", lang), items=items)],
        parsed=outcome.draft,
        verdict="unknown",
    ).with_body(lambda: {"verdict": "unknown", "recommendations": recs})
