"""One workload answered: memory, speed and cost, the rules' advice, and every assumption made
on the way, shared by `llm-sizer estimate` and the conversation."""

from __future__ import annotations

from dataclasses import dataclass, replace

from estimator.cost import DEFAULT_KWH_PRICE_USD, rented_as
from estimator.curve import context_curve
from estimator.hardware.types import Machine
from estimator.planner import YOURS, Plan, plans
from estimator.planner.serving import Capacity, capacity
from estimator.report import Report, report
from estimator.resolve import resolve
from estimator.result import Estimate, Note
from estimator.training_time import TrainingData, TrainingTime, training_time
from estimator.workload import Workload
from rules import Advice, Situation, advise

from .conversation.reply import Drawing
from .render import estimate_json, estimate_text, report_json, report_text
from .schemas import AnswerOut


@dataclass(frozen=True, slots=True)
class Sizing:
    report: Report
    advice: Advice
    estimate: Estimate  # the report's estimate with all notes and the speed and time steps
    workload: Workload
    machine: Machine | None
    plans: tuple[Plan, ...] = ()  # the planner's ways to run it, best first
    serving: Capacity | None = None  # a queueing server with more users than fit at once
    tokens: int | TrainingData | None = None  # the training data the question described


def size(
    workload: Workload,
    machine: Machine | None,
    notes: tuple[Note, ...] = (),
    *,
    tokens: int | TrainingData | None = None,
    kwh_price: float | None = None,
    situation: Situation | None = None,
) -> Sizing:
    price = DEFAULT_KWH_PRICE_USD if kwh_price is None else kwh_price
    who = situation or Situation()
    rep = report(workload, machine, training_tokens=tokens, kwh_price=price, rented=who.rented)
    found = plans(workload, machine, gpu_count_asked=who.asked_gpu_count, cloud=who.cloud_allowed)
    if who.rented and machine is not None and not rep.rented:
        # The question as asked does not run on the rented machine: its instances priced for
        # the plan that does run there (BF16 with an FP8 KV cache for 50 users on an L40S).
        runs = next((p for p in found if p.hardware == YOURS and p.runs), None)
        if runs is not None:
            rep = replace(rep, rented=rented_as(runs.workload, machine, tokens))
    advice = advise(workload, machine, situation, rep, found)
    all_notes = (
        list(notes)
        + list(machine.notes if machine else ())
        + list(rep.estimate.assumptions)
        + list(rep.speed.assumptions if rep.speed else ())
    )
    if rep.training is not None and tokens is None:
        all_notes.append(Note("default_tokens", {"tokens": rep.training.tokens}))
    if kwh_price is None and rep.electricity is not None and not who.rented:
        all_notes.append(Note("default_kwh_price", {"price": price}))
    speed_steps = (rep.speed.steps if rep.speed else ()) + (
        rep.training.steps if rep.training else ()
    )
    est = replace(
        rep.estimate, assumptions=tuple(all_notes), steps=rep.estimate.steps + speed_steps
    )
    served = capacity(workload, machine) if machine is not None else None
    return Sizing(rep, advice, est, workload, machine, found, served, tokens)


def plan_training(ans: Sizing, plan: Plan) -> TrainingTime | None:
    """How long a training plan that runs takes on its hardware, on the answer's data (the
    asked workload's time says nothing of a plan with another method or machine)."""
    if plan.workload.task != "training" or not plan.runs or plan.machine is None:
        return None
    return training_time(resolve(plan.workload, plan.machine), plan.machine, ans.tokens)


def drawing(ans: Sizing) -> Drawing:
    """What the answer's chart draws: its estimate and, for inference, memory against context."""
    inference = ans.workload.task == "inference"
    curve = context_curve(ans.workload, ans.machine) if inference else None
    return Drawing(ans.estimate, curve)


def as_json(ans: Sizing, lang: str) -> AnswerOut:
    out = estimate_json.answer(ans.estimate, lang)
    out.recommendations = estimate_json.recommendations(ans.advice, lang)
    out.speed = report_json.speed(ans.report)
    out.cost = report_json.cost(ans.report)
    out.plans = estimate_json.plans(ans.plans, lang)
    out.serving = estimate_json.serving(ans.serving)
    return out


def as_text(ans: Sizing, lang: str) -> str:
    return "\n".join(
        [
            estimate_text.render(ans.estimate, lang),
            *estimate_text.recommendations(ans.advice, lang),
            *report_text.lines(ans.report, lang),
        ]
    )
