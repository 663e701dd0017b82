"""Advice for a workload: facts from the estimator, rules from the rule base, recommendations
ordered by priority, the planner's plan (or else the first rung of a fit ladder that fits)
marked as the recommendation."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from durable import lang

from estimator.hardware.types import Machine
from estimator.planner import Plan
from estimator.report import Report, report
from estimator.result import Estimate
from estimator.vocabulary import FITTING
from estimator.workload import Workload

from .engine import RuleEngine
from .facts import Facts, llm_facts, ml_fact
from .ruleset import BY_ID, RULES
from .situation import Situation

RULESET = "llm_sizer_advice"


@dataclass(frozen=True, slots=True)
class Recommendation:
    rule: str
    priority: int
    group: str
    memory_bytes: int | None  # per device, for the alternative it recommends
    verdict: str | None  # that alternative's verdict
    primary: bool  # the plan that leads, or the first rung of a fit ladder that fits
    params: dict[str, Any] = field(default_factory=dict)  # numbers for the message
    plan: Plan | None = None  # the planner's plan a plan rule recommends


@dataclass(frozen=True, slots=True)
class Advice:
    estimate: Estimate | None
    recommendations: tuple[Recommendation, ...]
    fact: dict[str, Any]


def _action(rule_id: str) -> Any:
    # One parameter only: durable treats a two-parameter action as asynchronous (c, complete).
    def action(c: Any) -> None:
        c.s.advice = [*(c.s.advice or []), rule_id]

    return action


def _define() -> None:
    for rule in RULES:
        lang.when_all(lang.pri(rule.priority), rule.when())(_action(rule.id))


@cache
def engine() -> RuleEngine:
    """The ruleset, defined once per process (durable's ruleset names are process-global)."""
    return RuleEngine(RULESET, _define)


def _recommendations(facts: Facts, fired: list[str]) -> tuple[Recommendation, ...]:
    out = []
    primary_taken = False
    order = {rule.id: n for n, rule in enumerate(RULES)}
    for rule in sorted(
        (BY_ID[i] for i in dict.fromkeys(fired)), key=lambda r: (r.priority, order[r.id])
    ):
        alt = facts.alternatives.get(rule.alternative) if rule.alternative else None
        plan = facts.plans.get(rule.plan) if rule.plan else None
        params = dict(facts.fact)
        memory = verdict = None
        if plan is not None:
            memory, verdict = plan.per_device_bytes, plan.verdict
            params.update(memory=memory, alt_verdict=verdict)
        if alt is not None:
            params.update(alt.params)
            memory = max(d.components.total for d in alt.estimate.devices)
            verdict = alt.verdict
            params.update(memory=memory, alt_verdict=verdict)
            if alt.estimate.offload is not None:
                params["ram_bytes"] = alt.estimate.offload.ram_bytes
        # A rung of the fit ladder is the one to do only when the question as asked does not
        # fit: beside a run that fits (a fused loss that frees room) it is advice.
        primary = (
            rule.group in ("plan", "ladder")
            and not primary_taken
            and verdict in ("fits", "tight", "offload")
            and (rule.group != "ladder" or facts.fact.get("verdict") not in FITTING)
        )
        primary_taken = primary_taken or primary
        out.append(
            Recommendation(
                rule.id, rule.priority, rule.group, memory, verdict, primary, params, plan
            )
        )
    return tuple(out)


def advise(
    workload: Workload,
    machine: Machine | None,
    situation: Situation | None = None,
    costs: Report | None = None,
    plans: tuple[Plan, ...] = (),
) -> Advice:
    """Advice for `workload` on `machine`, for someone in `situation` (by default: choosing
    hardware, cloud allowed), quoting the answer's own cost figures `costs` (by default those
    of `report(workload, machine)`), with the planner's `plans` (best first) when there are
    any."""
    facts = llm_facts(workload, machine, costs or report(workload, machine), plans)
    facts.fact.update((situation or Situation()).fields())
    state = engine().evaluate(facts.fact)
    return Advice(facts.estimate, _recommendations(facts, state.get("advice", [])), facts.fact)


def advise_ml(
    kind: str, rows: int = 0, features: int = 0, params: int = 0, retrain_often: bool = False
) -> Advice:
    """CPU-versus-GPU guidance for classical machine learning ("classical") and small neural
    networks ("neural_net")."""
    facts = Facts(ml_fact(kind, rows, features, params, retrain_often), None, {})
    state = engine().evaluate(facts.fact)
    return Advice(None, _recommendations(facts, state.get("advice", [])), facts.fact)
