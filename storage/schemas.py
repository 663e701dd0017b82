"""What goes in and comes out of the repositories: pydantic objects, never ORM rows.

Input models (HardwareSpec, NewQuery) check their values on construction and refuse bad ones
with a StorageError; output models are frozen snapshots that stay valid after the session ends.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator, model_validator

from . import checks
from .errors import StorageError

Platform = Literal["telegram", "local"]
ChatType = Literal["private", "group", "supergroup", "channel", "terminal"]
QueryStatus = Literal["answered", "need_more"]
Verdict = Literal["fits", "tight", "offload", "does_not_fit", "unknown"]

MAX_GPUS = 4096
MAX_MEMORY_GB = 1_000_000.0
# One kind of card in a mixed set: "2x GeForce RTX 3090" or "GeForce RTX 3060 12GB".
_CARD = re.compile(r"(?:(\d{1,6})x\s+)?(.+)")
CARD_JOIN = " + "


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True)


class HardwareSpec(_Frozen):
    """A machine: `gpu_count` GPUs (catalog name, or just their memory), or an Apple chip, plus
    RAM and a CPU. Memory is in GB as people say it (GiB on the cards, as in the estimator).

    A machine with different GPUs names them all in `gpu`, joined by " + " with each count
    ("2x GeForce RTX 3090 + GeForce RTX 3060 12GB"); `gpu_count` is then all of them and
    `gpu_memory_gb` the memory of the largest. Profiles saved before this read as before."""

    gpu: str | None = None
    gpu_count: int = 0
    gpu_memory_gb: float | None = None
    ram_gb: float | None = None
    apple_chip: str | None = None
    apple_memory_gb: int | None = None
    cpu: str | None = None

    @field_validator("gpu", "apple_chip", "cpu")
    @classmethod
    def _one_line(cls, value: str | None, info: ValidationInfo) -> str | None:
        return checks.label(value, str(info.field_name))

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        checks.in_range("gpu_count", self.gpu_count, 0, MAX_GPUS)
        for field in ("gpu_memory_gb", "ram_gb", "apple_memory_gb"):
            value = getattr(self, field)
            if value is not None:
                checks.in_range(field, value, 0.1, MAX_MEMORY_GB)
        has_gpu = self.gpu is not None or self.gpu_memory_gb is not None
        if has_gpu != (self.gpu_count > 0):
            raise StorageError("hardware_gpu_count", gpu_count=self.gpu_count)
        if has_gpu and self.gpu_memory_gb is None:
            # Every answer about a GPU starts from its memory.
            raise StorageError("hardware_gpu_memory")
        if (self.apple_chip is None) != (self.apple_memory_gb is None):
            raise StorageError("hardware_apple_memory")
        if has_gpu and self.apple_chip is not None:
            raise StorageError("hardware_gpu_and_apple")
        if len(self.cards) > 1 and sum(n for n, _ in self.cards) != self.gpu_count:
            raise StorageError("hardware_gpu_count", gpu_count=self.gpu_count)
        return self

    @property
    def cards(self) -> list[tuple[int, str]]:
        """Each kind of GPU with its count; one entry (all `gpu_count` cards) unless mixed."""
        if self.gpu is None:
            return []
        if CARD_JOIN not in self.gpu:
            return [(self.gpu_count, self.gpu)]
        found = []
        for part in self.gpu.split(CARD_JOIN):
            m = _CARD.fullmatch(part.strip())
            assert m is not None  # the pattern takes any text
            found.append((int(m.group(1) or 1), m.group(2)))
        return found

    @property
    def is_empty(self) -> bool:
        return self.hardware() == HardwareSpec()

    def hardware(self) -> HardwareSpec:
        """Just the hardware fields (subclasses, like a parsed description, may carry more)."""
        return HardwareSpec.model_validate(self.model_dump(include=set(HardwareSpec.model_fields)))


class User(_Frozen):
    id: int
    platform: Platform
    external_id: str
    language: str | None
    settings: dict[str, Any]
    created_at: datetime
    updated_at: datetime


class Profile(_Frozen):
    id: int
    user_id: int
    name: str
    is_default: bool
    text: str
    hardware: HardwareSpec
    created_at: datetime
    updated_at: datetime


class Chat(_Frozen):
    id: int
    platform: Platform
    external_id: str
    type: ChatType
    title: str | None
    language: str | None
    settings: dict[str, Any]
    created_at: datetime
    updated_at: datetime


class Membership(_Frozen):
    chat_id: int
    user_id: int
    shares_profile: bool
    shared_profile_id: int | None
    created_at: datetime
    updated_at: datetime


class SharedProfile(_Frozen):
    """A team member's hardware, shared with the team by their opt-in."""

    user: User
    profile: Profile


class TeamHardware(_Frozen):
    id: int
    chat_id: int
    name: str
    text: str
    hardware: HardwareSpec
    added_by: int | None
    created_at: datetime
    updated_at: datetime


class _QueryFields(_Frozen):
    user_id: int
    chat_id: int | None = None
    text: str
    inputs: dict[str, Any] = {}
    status: QueryStatus = "answered"
    verdict: Verdict | None = None
    total_bytes: int | None = None
    per_device_bytes: int | None = None


class NewQuery(_QueryFields):
    """A question to save: who asked, where, the text, the parsed inputs and the answer."""

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return checks.free_text(value, "text", checks.QUERY_TEXT_MAX)

    @field_validator("inputs")
    @classmethod
    def _inputs(cls, value: dict[str, Any]) -> dict[str, Any]:
        return checks.document(value, "inputs")

    @field_validator("total_bytes", "per_device_bytes")
    @classmethod
    def _bytes(cls, value: int | None, info: ValidationInfo) -> int | None:
        # BIGINT's range: an absurd number is refused here, not by the driver.
        if value is not None:
            checks.in_range(str(info.field_name), value, 0, 2**63 - 1)
        return value


class Query(_QueryFields):
    """A saved question. Not re-checked on the way out: a later, stricter limit must not make
    stored history unreadable."""

    id: int
    created_at: datetime


class ConversationState(_Frozen):
    chat_id: int
    user_id: int
    state: dict[str, Any]
    updated_at: datetime


class SharedQuestion(_Frozen):
    """A question its author shared: what a share link opens."""

    token: str
    user_id: int
    text: str
    inputs: dict[str, Any]
    created_at: datetime


class OutboxMessage(_Frozen):
    """A message waiting to be sent: the API method and its parameters, and a file if any."""

    id: int
    platform: Platform
    chat_key: str
    method: str
    params: dict[str, Any]
    body: bytes | None
    created_at: datetime


class UserExport(_Frozen):
    """Everything stored about one person (`llm-sizer export`, and the bot's /export). `chats`
    holds their own private chats and the teams they are in."""

    exported_at: datetime
    user: User | None
    profiles: list[Profile]
    chats: list[Chat]
    memberships: list[Membership]
    team_hardware_added: list[TeamHardware]
    queries: list[Query]
    conversation_states: list[ConversationState]
    shared_questions: list[SharedQuestion] = []

    @classmethod
    def empty(cls) -> UserExport:
        """The export for someone nothing is stored about."""
        return cls(
            exported_at=datetime.now(UTC),
            user=None,
            profiles=[],
            chats=[],
            memberships=[],
            team_hardware_added=[],
            queries=[],
            conversation_states=[],
            shared_questions=[],
        )


class ForgetSummary(_Frozen):
    """What `forget` is about to delete, so a front end can say it before asking."""

    profiles: int
    queries: int
    memberships: int
    conversation_states: int
