"""The plumbing the storage commands (`profile`, `history`, `export`, `forget`, `ask`, `chat`,
`detect`) share: who the local user is, opening (and migrating) storage, and turning every
refusal into one line on stderr with exit code 2."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from estimator.errors import EstimatorError

from ..i18n import language, t
from ..render import errors

# Storage pulls in SQLAlchemy; importing it only when a command runs keeps `llm-sizer estimate`
# and `--help` as fast as before.
if TYPE_CHECKING:
    from storage import Storage


@dataclass(frozen=True)
class Context:
    """What a storage command works with: storage, the local user, their language, the flags."""

    storage: Storage
    os_user: str
    lang: str
    args: argparse.Namespace


Work = Callable[[Context], Awaitable[int]]


def run_with_storage(args: argparse.Namespace, work: Work) -> int:
    """Runs `work` against storage for the local OS user; any refusal is one line, exit 2."""
    from storage import StorageError

    lang = language(args.lang)
    try:
        os_user = getpass.getuser()
    except (KeyError, OSError) as exc:
        _fail(t("error.os_user_unknown", lang, reason=type(exc).__name__))
        return 2
    try:
        return asyncio.run(_open_and_run(work, os_user, lang, args))
    except StorageError as exc:
        _fail(errors.storage_message(exc, lang))
    except EstimatorError as exc:
        _fail(errors.message(exc, lang))
    return 2


async def _open_and_run(work: Work, os_user: str, lang: str, args: argparse.Namespace) -> int:
    from storage import Storage

    async with await Storage.open() as storage:
        return await work(Context(storage, os_user, lang, args))


def _fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)


def when(moment: datetime) -> str:
    """A stored time in the local time zone, minutes precision (same in every language)."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
