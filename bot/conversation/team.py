"""A team's pool of machines (the hardware a group added, and the profiles members chose to
share) and which of them can run a question: for "who in the team can run this?" and for the
line every answer in a group ends with."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.vocabulary import FITTING
from storage import Storage

from ..i18n import t
from ..profile_text import describe
from ..render import numbers
from .answer import machine, workload
from .saved_hardware import profile_draft
from .slots import HARDWARE_SLOTS, Draft


@dataclass(frozen=True, slots=True)
class TeamMachine:
    name: str
    description: str  # "2 × A100 80GB PCIe (80 GB each)"
    hardware: Draft


@dataclass(frozen=True, slots=True)
class Verdict:
    machine: TeamMachine
    verdict: str  # the estimator's, or "unknown" when it could not say
    per_device_bytes: int | None


async def machines(storage: Storage, chat_id: int, lang: str) -> list[TeamMachine]:
    """The team hardware first, then the shared profiles; a member's profile appears only when
    they opted in with /share."""
    pool = [
        TeamMachine(hw.name, describe(hw.hardware, lang), profile_draft(hw.hardware))
        for hw in await storage.team_hardware.of_chat(chat_id)
    ]
    pool += [
        TeamMachine(
            s.profile.name, describe(s.profile.hardware, lang), profile_draft(s.profile.hardware)
        )
        for s in await storage.chats.shared_profiles(chat_id)
    ]
    return pool


def verdicts(draft: Draft, pool: list[TeamMachine]) -> list[Verdict]:
    """The question on each machine of the pool, the ones it fits first."""
    question = draft.model_copy(update={slot: None for slot in HARDWARE_SLOTS})
    out = []
    for m in pool:
        on_it = m.hardware.merged_over(question)
        try:
            est = estimate(workload(on_it)[0], machine(on_it))
        except EstimatorError:
            out.append(Verdict(m, "unknown", None))
            continue
        fullest = max(d.components.total for d in est.devices)
        out.append(Verdict(m, est.verdict, fullest))
    return sorted(out, key=lambda v: v.verdict not in FITTING)


def lines(found: list[Verdict], lang: str) -> list[str]:
    if not found:
        return [t("team.no_hardware", lang)]
    out = [t("team.on_hardware", lang)]
    for v in found:
        size = "" if v.per_device_bytes is None else numbers.size(v.per_device_bytes, lang)
        out.append(
            "  "
            + t(
                "team.verdict_line",
                lang,
                mark="✓" if v.verdict in FITTING else "✗",
                name=v.machine.name,
                hardware=v.machine.description,
                verdict=t(f"verdict.{v.verdict}", lang),
                per_device=size,
            )
        )
    return out
