"""What one message needs from storage, in two transactions instead of six: one read for who is
asking, where, what they asked before and their default hardware; one write for the new state
and the question. Every message of every user comes through here, so the statements are Core
and built once (the ORM's unit of work and a fresh statement per call cost more than the SQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Table, and_, bindparam, insert, select, true

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import ChatRow, ConversationStateRow, ProfileRow, QueryRow, UserRow, utcnow
from ..schemas import Chat, ChatType, ConversationState, NewQuery, Platform, Profile, User
from ..sqlite_statements import Statements
from . import convert
from .chats import ChatRepository
from .conversations import put_state
from .platform_ids import external_key
from .users import UserRepository

_USERS: Table = UserRow.__table__
_CHATS: Table = ChatRow.__table__
_STATES: Table = ConversationStateRow.__table__
_PROFILES: Table = ProfileRow.__table__
_PARTS = {"user": _USERS, "chat": _CHATS, "profile": _PROFILES}

_LOAD = (
    select(
        *(c.label(f"{part}_{c.name}") for part, table in _PARTS.items() for c in table.c),
        _STATES.c.state.label("state_state"),
        _STATES.c.updated_at.label("state_updated_at"),
    )
    .select_from(
        _USERS.join(_CHATS, true())
        .outerjoin(
            _STATES, and_(_STATES.c.chat_id == _CHATS.c.id, _STATES.c.user_id == _USERS.c.id)
        )
        .outerjoin(_PROFILES, and_(_PROFILES.c.user_id == _USERS.c.id, _PROFILES.c.is_default))
    )
    .where(
        _USERS.c.platform == bindparam("platform"),
        _USERS.c.external_id == bindparam("user_key"),
        _CHATS.c.platform == bindparam("platform"),
        _CHATS.c.external_id == bindparam("chat_key"),
    )
)
_SAVE_QUERY = insert(QueryRow.__table__)


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Everything a message is answered from."""

    user: User
    chat: Chat
    state: ConversationState | None  # None when there is none, or it is older than max_age
    default_profile: Profile | None


class TurnRepository:
    def __init__(self, db: Database, users: UserRepository, chats: ChatRepository) -> None:
        self._db = db
        self._users = users
        self._chats = chats

    async def load(
        self,
        platform: Platform,
        user_id: str | int,
        chat_id: str | int,
        chat_type: ChatType,
        *,
        language: str | None = None,
        title: str | None = None,
        max_age: timedelta | None = None,
    ) -> TurnContext:
        """The user and the chat as `UserRepository.ensure` and `ChatRepository.ensure` would
        leave them, their conversation state and the user's default profile. Costs one read
        transaction once the user and chat are known and unchanged; the first message, a new
        language or a renamed group add the writes that record them."""
        params = {
            "platform": platform,
            "user_key": external_key(user_id),
            "chat_key": external_key(chat_id),
        }
        lang = checks.language(language)
        title = checks.label(title, "title", checks.TITLE_MAX)
        row = await self._read(params)
        if row is None or (lang is not None and row.user_language != lang):
            await self._users.ensure(platform, user_id, language=lang)
            row = None
        if row is None or (row.chat_type, row.chat_title) != (chat_type, title):
            await self._chats.ensure(platform, chat_id, chat_type, title=title)
            row = None
        row = row or await self._read(params)
        if row is None:  # /forget ran between the writes above and this read
            raise StorageError("user_not_found", user_id=params["user_key"])
        return _context(row, max_age)

    async def save(
        self, chat_id: int, user_id: int, state: dict[str, Any], query: NewQuery
    ) -> None:
        """Stores the conversation's new state and the question, in one transaction."""

        def write(connection: Statements) -> None:
            stored = put_state(connection, chat_id, user_id, state)
            connection.execute(_SAVE_QUERY, {**query.model_dump(), "created_at": stored.updated_at})

        await self._db.run(write, write=True)

    async def _read(self, params: dict[str, str]) -> Any:
        return await self._db.run(
            lambda connection: connection.execute(_LOAD, params).first(), write=False
        )


def _columns(row: Any, part: str) -> SimpleNamespace:
    """One table's share of the joined row, as a row of that table for `convert`."""
    prefix = f"{part}_"
    return SimpleNamespace(
        **{k.removeprefix(prefix): v for k, v in row._asdict().items() if k.startswith(prefix)}
    )


def _context(row: Any, max_age: timedelta | None) -> TurnContext:
    user, chat = convert.user(_columns(row, "user")), convert.chat(_columns(row, "chat"))
    state = None
    fresh = max_age is None or (
        row.state_updated_at is not None and row.state_updated_at >= utcnow() - max_age
    )
    if row.state_state is not None and fresh:
        state = ConversationState(
            chat_id=chat.id, user_id=user.id, state=row.state_state, updated_at=row.state_updated_at
        )
    profile = None if row.profile_id is None else convert.profile(_columns(row, "profile"))
    return TurnContext(user, chat, state, profile)
