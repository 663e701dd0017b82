"""What reading one message gives: the question's slots (a Draft), the conversation act when the
message is not a question, and the values refused because they are out of range."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .slots import Draft

# "own_hardware": the user describes their machine ("my pc has a 4090 and 64GB RAM").
# "other_model": a speech or image model named (Whisper, Stable Diffusion), which is not sized.
Act = Literal["greeting", "help", "thanks", "out_of_scope", "own_hardware", "other_model"]
# Why a text cannot be read at all.
Unreadable = Literal["control_characters", "surrogates"]


# The Draft's slots that hold whole numbers.
_COUNTS = frozenset(
    name for name, info in Draft.model_fields.items() if info.annotation == (int | None)
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A value the message gives that no answer can use: said back with its range."""

    slot: str  # the slot it was meant for: "context", "concurrency", "gpus", ...
    value: str  # as written, cut short
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Reading:
    draft: Draft
    act: Act | None = None
    refused: tuple[Refusal, ...] = ()
    unreadable: Unreadable | None = None
    profile_label: str | None = None  # what the user calls the machine they describe
    # The message asks about running the model: speed, memory, context, users, "is it doable".
    running: bool = False
    follow_up: bool = False  # it starts as a follow-up does: "and ...", "what about ..."


@dataclass(slots=True)
class Found:
    """The slots read so far from one text, and what was refused on the way."""

    slots: dict[str, object] = field(default_factory=dict)
    refused: list[Refusal] = field(default_factory=list)

    def set(self, slot: str, value: object) -> None:
        self.slots[slot] = value

    def get(self, slot: str) -> object:
        return self.slots.get(slot)

    def bounded(
        self, slot: str, value: float | None, written: str, low: float, high: float
    ) -> bool:
        """Sets `slot` when `value` lies in [low, high]; otherwise refuses it (None is a number
        too large to read). A count is rounded ("1.1593k tokens" is 1,187 tokens)."""
        if value is None or not low <= value <= high:
            self.refused.append(Refusal(slot, written.strip()[:30], low, high))
            return False
        whole = float(value).is_integer() or slot in _COUNTS
        self.slots[slot] = round(value) if whole else value
        return True
