"""ORM rows (or a joined row's share of a table's columns) -> domain objects, and hardware specs
-> columns. The only place that knows both."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import Row

from ..models import (
    ChatRow,
    ConversationStateRow,
    HardwareColumns,
    MembershipRow,
    ProfileRow,
    QueryRow,
    TeamHardwareRow,
    UserRow,
)
from ..schemas import (
    Chat,
    ConversationState,
    HardwareSpec,
    Membership,
    Profile,
    Query,
    TeamHardware,
    User,
)

HARDWARE_FIELDS = tuple(HardwareSpec.model_fields)


def hardware_columns(spec: HardwareSpec) -> dict[str, Any]:
    return spec.hardware().model_dump()


def hardware(row: HardwareColumns | Row[Any] | SimpleNamespace) -> HardwareSpec:
    return HardwareSpec.model_validate({f: getattr(row, f) for f in HARDWARE_FIELDS})


def user(row: UserRow | SimpleNamespace) -> User:
    return User.model_validate(row)


def profile(row: ProfileRow | Row[Any] | SimpleNamespace) -> Profile:
    """From an ORM row, a Core row of the same table, or its columns as attributes."""
    return Profile(
        id=row.id,
        user_id=row.user_id,
        name=row.name,
        is_default=row.is_default,
        text=row.text,
        hardware=hardware(row),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def chat(row: ChatRow | SimpleNamespace) -> Chat:
    return Chat.model_validate(row)


def membership(row: MembershipRow) -> Membership:
    return Membership.model_validate(row)


def team_hardware(row: TeamHardwareRow) -> TeamHardware:
    return TeamHardware(
        id=row.id,
        chat_id=row.chat_id,
        name=row.name,
        text=row.text,
        hardware=hardware(row),
        added_by=row.added_by,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def query(row: QueryRow) -> Query:
    return Query.model_validate(row)


def state(row: ConversationStateRow) -> ConversationState:
    return ConversationState.model_validate(row)
