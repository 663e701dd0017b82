"""The slot-filling state machine: one message in, the question so far out, and either the one
missing slot to ask for or a complete question. Pure: the caller loads and stores the State."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from estimator.errors import EstimatorError
from estimator.models import lookup

from .. import questions
from .parse import normalise
from .slots import FIT_QUESTION, HARDWARE_SLOTS, Draft

Slot = Literal["model", "task", "hardware", "ram"]
# Inverse questions answered from the hardware: without it there is nothing to search.
NEED_HARDWARE = frozenset(k for k, q in FIT_QUESTION.items() if q in questions.NEED_HARDWARE)
RESET = re.compile(
    r"^\s*/?(new|nieuw|reset|start\s+over|opnieuw|nieuwe\s+vraag|new\s+question|begin\s+opnieuw)\s*[.!]?\s*$"
)
INFERENCE_FORMATS = frozenset({"awq", "gptq", "int4", "int8", "fp8"})
_ONLY_NUMBER = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(?:gb|gib)?\s*$")


class State(BaseModel):
    """What is stored per (chat, user) between messages."""

    model_config = ConfigDict(extra="ignore")

    draft: Draft = Draft()
    awaiting: Slot | None = None
    answered: bool = False
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    state: State
    missing: tuple[Slot, ...]  # empty when the question can be answered
    from_profile: bool  # the hardware came from the saved profile
    implied_task: bool = False  # inference was read from the question, not said
    reset: bool = False
    unknown_model: str | None = None  # the text we tried as a model name, when it named none


def _hardware(draft: Draft) -> Draft:
    return Draft.model_validate(draft.model_dump(include=set(HARDWARE_SLOTS), exclude_none=True))


def _answer_to_question(state: State, msg: Draft, text: str) -> tuple[Draft, str | None]:
    """Read a short reply as the answer to the slot we asked for, when the parser found none."""
    if state.awaiting == "model" and msg.model is None:
        candidate = text.strip()
        try:
            found = lookup.find(candidate) if candidate else None
        except EstimatorError:
            found = None
        if found is None:
            return msg, candidate[:80] or None
        return msg.model_copy(update={"model": candidate}), None
    if state.awaiting in ("hardware", "ram"):
        m = _ONLY_NUMBER.match(normalise(text))
        if m and not msg.has_hardware() and msg.ram_gb is None:
            value = float(m.group(1).replace(",", "."))
            slot = "ram_gb" if state.awaiting == "ram" else "gpu_memory_gb"
            return msg.model_copy(update={slot: value}), None
    return msg, None


def _is_new_question(state: State, msg: Draft) -> bool:
    if not state.answered and state.awaiting is not None:
        return False
    return bool((msg.model and msg.task) or msg.ml_kind or (msg.inverse and msg.task))


def _merge(base: Draft, msg: Draft) -> Draft:
    if msg.has_hardware():
        # A new machine replaces the old one, it does not mix with it.
        base = base.model_copy(
            update={s: None for s in ("gpu", "gpus", "gpu_memory_gb", "apple", "cpu", "cpu_only")}
        )
    if msg.task and msg.task != base.task and msg.method is None:
        base = base.model_copy(update={"method": None})
    if msg.model and base.ml_kind:
        base = base.model_copy(update={"ml_kind": None, "rows": None, "features": None})
    merged = msg.merged_over(base)
    # A message that sets what the inverse question computes asks a forward question instead
    # (asking for the cloud is not choosing an instance).
    computed = FIT_QUESTION.get(merged.inverse or "")
    if (
        computed not in (None, "cloud")
        and msg.inverse is None
        and getattr(msg, computed) is not None
    ):
        merged = merged.model_copy(update={"inverse": None})
    if merged.method and merged.task is None:
        merged = merged.model_copy(update={"task": "training"})
    return merged


def _implies_inference(draft: Draft) -> bool:
    """Users, a serving format or a serving question mean running the model; asking "inference
    or training?" then would only be in the way (the answer says what it assumed)."""
    return bool(
        draft.concurrency
        or draft.kv_precision
        or draft.inverse in ("max_context", "max_concurrency", "best_precision")
        or draft.precision in INFERENCE_FORMATS
        or (draft.precision and draft.precision.startswith(("q", "iq")))
    )


def _missing(draft: Draft) -> tuple[Slot, ...]:
    if draft.ml_kind:
        return ()
    missing: list[Slot] = []
    if draft.model is None and draft.inverse != "largest_model":
        missing.append("model")
    if draft.task is None:
        missing.append("task")
    hardware_needed = draft.inverse in NEED_HARDWARE or (draft.laptop and draft.inverse is None)
    if hardware_needed and not draft.has_hardware():
        missing.append("hardware")
    if draft.cpu_only and draft.ram_gb is None:
        missing.append("ram")
    return tuple(missing)


def step(state: State, msg: Draft, text: str, profile: Draft | None = None) -> Turn:
    """The next state after the message `text` (parsed as `msg`), with the saved `profile`."""
    if RESET.match(normalise(text)):
        return Turn(State(language=msg.language or state.language), (), False, reset=True)
    msg, unknown = _answer_to_question(state, msg, text)
    base = _hardware(state.draft) if _is_new_question(state, msg) else state.draft
    draft = _merge(base, msg)
    implied = draft.task is None and not draft.ml_kind and _implies_inference(draft)
    if implied:
        draft = draft.model_copy(update={"task": "inference"})
    from_profile = False
    if not draft.has_hardware() and profile is not None and profile.has_hardware():
        draft = draft.merged_over(profile)
        from_profile = True
    missing = _missing(draft)
    new = State(
        draft=draft,
        awaiting=missing[0] if missing else None,
        answered=not missing,
        language=msg.language or state.language,
    )
    return Turn(new, missing, from_profile, implied_task=implied, unknown_model=unknown)
