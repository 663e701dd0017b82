"""Where a model's architecture comes from, in the order a user expects: a file or folder on
the terminal user's disk, the catalog or a bare size, then the Hugging Face Hub (cached, with
a short timeout; only for `org/name`-shaped ids)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from estimator.errors import EstimatorError
from estimator.models import config_json, lookup
from estimator.precision import GGUF_BPW
from estimator.result import Note

from . import gguf_repo, local
from .files import exists
from .hub import Hub, default_hub
from .limiter import HubLimiter

__all__ = ["Hub", "HubLimiter", "is_hub_id", "needs_download", "resolve_model"]

HF_ID = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,96}$")


def _written_as_path(text: str) -> bool:
    """A config.json or a path; a bare GGUF file name ("...Q4_K_M.gguf") is a path only when
    it is on disk, otherwise a name of the model it packages."""
    return text.endswith(".json") or text.startswith((".", "/", "~"))


# Slashed words that are rates, fractions or shorthand, never a repository ("tokens/s",
# "gb/s", "and/or", "24/7").
_NOT_ORGS = frozenset({"and", "en", "of", "or", "w", "km", "kb", "mb", "gb", "tb", "tok", "token"})
_NOT_ORGS |= frozenset({"tokens", "it", "req", "requests", "queries", "users", "q"})
_NOT_NAMES = frozenset({"s", "sec", "second", "seconde", "h", "hr", "hour", "uur", "min", "o"})
_NOT_NAMES |= frozenset({"or", "of", "day", "dag", "month", "maand", "user", "gebruiker"})


def is_hub_id(text: str) -> bool:
    """Whether `text` is shaped like a Hub repository id ("org/name"), the only text ever
    looked up there: not "tokens/s", "24/7" or a path."""
    if not HF_ID.match(text) or _written_as_path(text):
        return False
    org, name = text.lower().split("/")
    return not (org.isdigit() or name.isdigit() or org in _NOT_ORGS or name in _NOT_NAMES)


def needs_download(text: str) -> bool:
    """Whether `resolve_model(text)` may go to the Hugging Face Hub (slow: callers in an event
    loop run it in a thread)."""
    try:
        return is_hub_id(text) and (gguf_repo.is_gguf_repo(text) or lookup.find(text) is None)
    except EstimatorError:
        return False


def resolve_model(
    text: str,
    *,
    hub: bool = True,
    files: bool = True,
    client: Hub | None = None,
    hub_allowed: Callable[[], bool] | None = None,
    precision: str | None = None,
) -> lookup.ModelChoice:
    """The architecture `text` names; raises EstimatorError with suggestions when none.
    `files` False refuses paths without touching the disk: a Telegram user must not make the
    bot read, or probe for, files on its server. `hub_allowed` is asked just before a Hub
    lookup (a per-user HubLimiter's allow); False refuses it with a polite reason. A GGUF
    repository is read on the Hub first, its file in `precision` when that is a GGUF format,
    and falls back to the catalog model its name maps to."""
    text = text.strip() if isinstance(text, str) else text
    if isinstance(text, str) and text and not files and _written_as_path(text):
        raise EstimatorError("config_local_only" if text.endswith(".json") else "path_local_only")
    if isinstance(text, str) and text and files and (_written_as_path(text) or _on_disk(text)):
        return local.from_path(Path(text).expanduser())
    choice = _as_asked(lookup.find(text), precision)
    if hub and is_hub_id(text) and gguf_repo.is_gguf_repo(text):
        return _gguf_repo(text, choice, client, hub_allowed, precision)
    if choice is not None:
        return choice
    if hub and is_hub_id(text):
        if hub_allowed is not None and not hub_allowed():
            raise EstimatorError("hub_rate_limited")
        return _from_hub(text, client or default_hub())
    return lookup.require(text)


def _on_disk(text: str) -> bool:
    return "\n" not in text and exists(text)


def _as_asked(
    choice: lookup.ModelChoice | None, precision: str | None
) -> lookup.ModelChoice | None:
    """A GGUF or Ollama name's note in the format asked, not the one its name implies."""
    asked = precision.strip().lower() if precision else None
    if choice is None or asked not in GGUF_BPW:
        return choice
    notes = tuple(
        Note(n.key, {**n.params, "precision": str(asked).upper()})
        if n.key in ("gguf_name", "ollama_tag")
        else n
        for n in choice.notes
    )
    return replace(choice, notes=notes)


def _gguf_repo(
    repo: str,
    choice: lookup.ModelChoice | None,
    client: Hub | None,
    hub_allowed: Callable[[], bool] | None,
    precision: str | None,
) -> lookup.ModelChoice:
    asked = precision.strip().lower() if precision else None
    try:
        if hub_allowed is not None and not hub_allowed():
            raise EstimatorError("hub_rate_limited")
        return gguf_repo.from_hub(
            repo, asked if asked in GGUF_BPW else None, client or default_hub()
        )
    except EstimatorError as error:
        if choice is None:
            raise
        return gguf_repo.fallback(repo, error, choice)


def _from_hub(repo: str, client: Hub) -> lookup.ModelChoice:
    arch = config_json.from_dict(client.config(repo), repo.rsplit("/", 1)[-1])
    notes = [Note("hub_model", {"model": repo})]
    summary = client.safetensors(repo)
    if summary is not None:
        arch = local.measured(arch, summary)
        notes.append(local.weights_note(arch))
    return lookup.ModelChoice(arch, (*notes, *lookup.describe(arch)))
