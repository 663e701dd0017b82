"""Where a model's architecture comes from, in the order a user expects: a local config.json,
the catalog or a bare size, then the Hugging Face Hub (cached; network only when not cached)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from estimator.errors import EstimatorError
from estimator.models import config_json, lookup
from estimator.result import Note

MAX_CONFIG_BYTES = 2_000_000
_HF_ID = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,96}$")


def read_config(path: Path) -> dict:
    """The JSON object in a config.json file (or a folder holding one)."""
    if path.is_dir():
        path = path / "config.json"
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise EstimatorError("config_too_large", path=str(path))
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise EstimatorError("config_not_found", path=str(path)) from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise EstimatorError(
            "config_unreadable", path=str(path), reason=type(exc).__name__
        ) from exc
    if not isinstance(raw, dict):
        raise EstimatorError("config_not_object")
    return raw


def _written_as_path(text: str) -> bool:
    return text.endswith(".json") or text.startswith((".", "/", "~"))


def needs_download(text: str) -> bool:
    """Whether `resolve_model(text)` may go to the Hugging Face Hub (slow: callers in an event
    loop run it in a thread)."""
    return bool(_HF_ID.match(text)) and lookup.find(text) is None


def resolve_model(text: str, *, hub: bool = True, files: bool = True) -> lookup.ModelChoice:
    """The architecture `text` names; raises EstimatorError with suggestions when none.
    `files` False refuses paths without touching the disk: a Telegram user must not make the
    bot read, or probe for, files on its server."""
    text = text.strip() if isinstance(text, str) else text
    if isinstance(text, str) and text and not files and _written_as_path(text):
        raise EstimatorError("config_local_only")
    if isinstance(text, str) and text and files and (_written_as_path(text) or Path(text).exists()):
        path = Path(text).expanduser()
        raw = read_config(path)
        # A folder names the model (models/Qwen2.5-7B holds config.json), as does the folder a
        # config.json file is in.
        folder = path if path.is_dir() else path.resolve().parent
        name = str(raw.get("_name_or_path") or folder.resolve().name or path.stem)
        arch = config_json.from_dict(raw, name.rsplit("/", 1)[-1])
        return lookup.ModelChoice(arch, (Note("config_model", {"path": str(path)}),))
    choice = lookup.find(text)
    if choice is not None:
        return choice
    if hub and _HF_ID.match(text):
        from .hub import fetch_config

        raw = fetch_config(text)
        arch = config_json.from_dict(raw, text.rsplit("/", 1)[-1])
        return lookup.ModelChoice(arch, (Note("hub_model", {"model": text}),))
    return lookup.require(text)
