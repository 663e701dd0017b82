"""Checks on what people type before it is stored: length, control characters, JSON size.

Everything reaches the database as a bound parameter, so SQL-looking text is stored verbatim and
never executed; these checks exist to keep rows small and printable, and to refuse what one
backend would store and the other would reject (PostgreSQL refuses NUL in text and in jsonb).
Refusals are StorageErrors whose codes have messages in the front ends' catalogs.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import StorageError

NAME_MAX = 64
HARDWARE_TEXT_MAX = 500
QUERY_TEXT_MAX = 10_000
TITLE_MAX = 256
LABEL_MAX = 128
JSON_MAX_BYTES = 64 * 1024

_SPACES = re.compile(r"\s+")
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{1,4})?")
# Unicode's control characters (category Cc: U+0000-U+001F and U+007F-U+009F); a regular
# expression finds one at C speed, where asking unicodedata per character cost 0.3 ms per
# saved question. Line breaks and tabs are fine in a question.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _bounded(field: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise StorageError("text_too_long", field=field, length=len(text), limit=limit)


def name(value: str, field: str = "name") -> str:
    """A profile or hardware name: trimmed, single spaces, lower case, 1 to 64 characters."""
    _bounded(field, value, NAME_MAX * 4)
    if _CONTROL.search(value):
        raise StorageError("text_control_chars", field=field)
    cleaned = _SPACES.sub(" ", value).strip().lower()
    if not cleaned:
        raise StorageError("name_empty", field=field)
    _bounded(field, cleaned, NAME_MAX)
    return cleaned


def label(value: str | None, field: str, limit: int = LABEL_MAX) -> str | None:
    """A one-line label (a chat title, a CPU model); None and blank stay None."""
    if value is None:
        return None
    _bounded(field, value, limit * 4)
    if _CONTROL.search(value):
        raise StorageError("text_control_chars", field=field)
    cleaned = _SPACES.sub(" ", value).strip()
    _bounded(field, cleaned, limit)
    return cleaned or None


def free_text(value: str, field: str, limit: int) -> str:
    """Text stored exactly as typed (line breaks and tabs allowed), at most `limit` characters."""
    _bounded(field, value, limit)
    if CONTROL_IN_TEXT.search(value):
        raise StorageError("text_control_chars", field=field)
    return value


def language(value: str | None) -> str | None:
    """An IETF language tag as Telegram sends it ("en", "nl", "pt-br"), lower case."""
    if value is None or not value.strip():
        return None
    cleaned = value.strip().lower()
    if not _LANGUAGE.fullmatch(cleaned):
        raise StorageError("bad_language", language=cleaned[:20])
    return cleaned


def document(value: dict[str, Any], field: str) -> dict[str, Any]:
    """A JSON object both backends store alike: finite numbers, no NUL, at most 64 KiB."""
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        raise StorageError("not_json", field=field) from None
    if "\\u0000" in encoded:
        raise StorageError("text_control_chars", field=field)
    size = len(encoded.encode())
    if size > JSON_MAX_BYTES:
        raise StorageError("document_too_large", field=field, size=size, limit=JSON_MAX_BYTES)
    return value


def in_range(field: str, value: float, low: float, high: float) -> None:
    if not (math.isfinite(value) and low <= value <= high):
        raise StorageError("out_of_range", field=field, value=value, low=low, high=high)
