"""`llm-sizer chat`: the bot's conversation in the terminal, with the same storage, line editing
and input history, numbered choices, and `details`, `history`, `new` and `quit`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
from pathlib import Path

from ..i18n import t
from ..render import questions_list
from .ask import incoming
from .profile import Context, run_with_storage, when

QUIT = re.compile(r"^\s*/?(quit|exit|stop|bye|doei|stoppen)\s*$", re.IGNORECASE)
HISTORY = re.compile(r"^\s*/?(history|geschiedenis)\s*$", re.IGNORECASE)
HISTORY_SHOWN = 10


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("chat", help="the conversation in the terminal")
    p.add_argument("--lang", help="en or nl, when a question does not show it")
    p.set_defaults(func=run)


def _line_editing() -> None:
    """Arrow keys and a persistent input history where the platform has readline."""
    try:
        import readline
    except ImportError:
        return
    from platformdirs import user_data_dir

    path = Path(user_data_dir("llm-sizer")) / "chat_history"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            readline.read_history_file(path)
    except OSError:
        return
    import atexit

    atexit.register(_save_history, readline, path)


def _save_history(readline: object, path: Path) -> None:
    # A read-only home must not turn leaving the chat into a traceback.
    with contextlib.suppress(OSError):
        readline.write_history_file(path)  # type: ignore[attr-defined]


async def _read(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


async def _history(s: Context, lang: str) -> None:
    user = await s.storage.users.find("local", s.os_user)
    queries = await s.storage.queries.recent_for_user(user.id, HISTORY_SHOWN) if user else []
    if not queries:
        print(t("history.empty", lang))
    for q in reversed(queries):
        print(f"  {when(q.created_at)}  {questions_list.line(q, lang)}")


async def _chat(s: Context) -> int:
    from ..conversation.service import Conversation

    conversation = Conversation(s.storage, local_files=True)
    lang = s.lang
    print(t("chat.welcome", lang))
    choices: list[str] = []
    while True:
        text = await _read("> ")
        if text is None or QUIT.match(text):
            print(t("chat.bye", lang))
            return 0
        if HISTORY.match(text):
            await _history(s, lang)
            continue
        number = text.strip()
        if number.isdigit() and 1 <= int(number) <= len(choices):
            text = choices[int(number) - 1]
            print(f"  ({text})")
        reply = await conversation.handle(incoming(s, text))
        lang = reply.language
        print(reply.text)
        choices = [c.message for c in reply.choices]
        print()


def run(args: argparse.Namespace) -> int:
    _line_editing()
    return run_with_storage(args, _chat)
