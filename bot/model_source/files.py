"""Opening what a terminal user names on their own disk, safely: only a regular file or a
folder, never a device, FIFO or socket (reading /dev/zero never ends, opening a FIFO blocks),
size-capped, and every OSError (a name too long, no permission) turned into a one-line reason."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from estimator.errors import EstimatorError

MAX_CONFIG_BYTES = 2_000_000
MAX_PATH_CHARS = 4096


def kind(path: Path) -> str | None:
    """ "file", "dir", or None when nothing is there; refuses anything else."""
    if len(str(path)) > MAX_PATH_CHARS:
        raise EstimatorError("path_unusable", path=str(path)[:80], reason="name too long")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # ENAMETOOLONG, EACCES, NUL in the name
        raise EstimatorError("path_unusable", path=str(path)[:80], reason=_reason(exc)) from exc
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    raise EstimatorError("path_unusable", path=str(path)[:80], reason="not a regular file")


def exists(text: str) -> bool:
    """Whether `text` names something on disk; False for text that cannot be a path."""
    try:
        return kind(Path(text).expanduser()) is not None
    except EstimatorError:
        return False


def read_bytes(path: Path, limit: int, *, start: int = 0, length: int | None = None) -> bytes:
    """At most `limit` bytes of a regular file (from `start`), or a one-line reason."""
    if kind(path) != "file":
        raise EstimatorError("config_not_found", path=str(path)[:200])
    try:
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read(min(limit, length) + 1 if length is not None else limit + 1)
    except OSError as exc:
        raise EstimatorError("path_unusable", path=str(path)[:80], reason=_reason(exc)) from exc
    if length is None and len(data) > limit:
        raise EstimatorError("config_too_large", path=str(path)[:200])
    return data[: length if length is not None else limit]


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(data: bytes | str, where: str) -> Any:
    """Strict JSON: NaN and Infinity refused, integers past Python's digit limit refused."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return json.loads(text, parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise EstimatorError("config_unreadable", path=where[:200], reason=_reason(exc)) from exc


def read_config(path: Path) -> dict:
    """The JSON object in a config.json file (or a folder holding one)."""
    if kind(path) == "dir":
        path = path / "config.json"
    raw = loads(read_bytes(path, MAX_CONFIG_BYTES), str(path))
    if not isinstance(raw, dict):
        raise EstimatorError("config_not_object")
    return raw


def _reason(exc: BaseException) -> str:
    return (getattr(exc, "strerror", None) or type(exc).__name__)[:60]
