"""Shared questions: a question its author shared, found again by the token in a link.

The token is a 128-bit digest of the author and the question, not a counter: the same question
shared twice gets the same link, and nobody can walk through tokens to read other people's
questions (computing one needs the question it opens).
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import SharedQuestionRow, utcnow
from ..schemas import SharedQuestion
from .dialect import insert_on_conflict

TOKEN_BYTES = 16  # 22 characters of URL-safe base64: far inside a 64-character link payload
_SHARE = insert_on_conflict(
    SharedQuestionRow.__table__,
    ("token", "user_id", "text", "inputs", "created_at"),
    ("token",),
)


def token(user_id: int, inputs: dict[str, Any]) -> str:
    """The link token of `inputs` shared by `user_id`: URL-safe, 22 characters."""
    canonical = json.dumps([user_id, inputs], sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(canonical.encode(), digest_size=TOKEN_BYTES, person=b"llm-sizer-q")
    return base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()


class SharedQuestionRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def share(self, user_id: int, text: str, inputs: dict[str, Any]) -> SharedQuestion:
        """The shared question (stored on first share); its token goes in the link."""
        key = token(user_id, inputs)
        values = {
            "token": key,
            "user_id": user_id,
            "text": checks.free_text(text, "text", checks.QUERY_TEXT_MAX),
            "inputs": checks.document(inputs, "inputs"),
            "created_at": utcnow(),
        }
        await self._db.run(lambda connection: connection.execute(_SHARE, values), write=True)
        found = await self.find(key)
        if found is None:  # /forget ran between the two statements
            raise StorageError("user_not_found", user_id=user_id)
        return found

    async def find(self, token: str) -> SharedQuestion | None:
        if not token or len(token) > 32:
            return None
        async with self._db.read() as session:
            row = await session.get(SharedQuestionRow, token)
            return None if row is None else SharedQuestion.model_validate(row)
