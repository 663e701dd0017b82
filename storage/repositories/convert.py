"""ORM rows -> domain objects, and hardware specs -> columns. The only place that knows both."""

from __future__ import annotations

from collections.abc import Mapping
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


def hardware(row: HardwareColumns | Row[Any]) -> HardwareSpec:
    return HardwareSpec.model_validate({f: getattr(row, f) for f in HARDWARE_FIELDS})


def user(row: UserRow) -> User:
    return User.model_validate(row)


def profile(row: ProfileRow | Row[Any]) -> Profile:
    """From an ORM row, or a Core row of the same table."""
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


def profile_values(values: Mapping[str, Any]) -> Profile:
    """From a profile's columns by name (a joined Core row's share of them)."""
    return Profile.model_validate({**values, "hardware": {f: values[f] for f in HARDWARE_FIELDS}})


def chat(row: ChatRow) -> Chat:
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
