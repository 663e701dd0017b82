"""How many rows a DELETE or UPDATE run through a session touched."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Result


def rowcount(result: Result[Any]) -> int:
    # AsyncSession.execute is typed to return a Result for every statement; for a Core DML
    # statement without RETURNING it is a CursorResult, the only kind that has rowcount.
    return cast(CursorResult[Any], result).rowcount
