"""`llm-sizer chat`: the bot's conversation in the terminal, with the same storage, line editing
and input history, numbered choices, and `details`, `history`, `new` and `quit`.

Keys as in other interactive prompts (Python's, psql's, ollama's): Ctrl-D leaves; Ctrl-C drops
the line being typed (it never reaches the history) or stops the answer being worked out, and
says how to leave."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import logging
import os
import re
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar

from ..i18n import t
from ..render import saved_queries
from . import terminal
from .ask import incoming
from .storage_context import Context, run_with_storage, when

if TYPE_CHECKING:
    from ..detect.readings import Detected

# Yes to a [Y/n] question: Enter alone, or yes in English or Dutch.
YES = frozenset({"", "y", "yes", "j", "ja"})
QUIT = re.compile(r"^\s*/?(quit|exit|stop|bye|doei|stoppen)\s*$", re.IGNORECASE)
HISTORY = re.compile(r"^\s*/?(history|geschiedenis)\s*$", re.IGNORECASE)
HISTORY_SHOWN = 10


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("chat", help="the conversation in the terminal")
    p.add_argument("--lang", help="en or nl, when a question does not show it")
    p.set_defaults(func=run)


def history_path() -> Path:
    """Where the typed lines are kept between chats (`forget` deletes the file)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("llm-sizer")) / "chat_history"


def _line_editing() -> Callable[[], None]:
    """Arrow keys and a persistent input history where the platform has readline; returns what
    saves the history (also run at exit)."""
    try:
        import readline
    except ImportError:
        return lambda: None
    path = history_path()
    try:
        # The typed questions are this user's alone: the folder is closed to others.
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if path.exists():
            readline.read_history_file(path)
    except OSError:
        return lambda: None
    import atexit

    save = functools.partial(_save_history, readline, path)
    atexit.register(save)
    return save


def _save_history(readline: object, path: Path) -> None:
    # A read-only home must not turn leaving the chat into a traceback.
    with contextlib.suppress(OSError):
        readline.write_history_file(path)  # type: ignore[attr-defined]


R = TypeVar("R")
Interrupted = Literal["interrupted"]
INTERRUPTED: Interrupted = "interrupted"


def _read(prompt: str, *, remember: bool = True) -> str | Interrupted | None:
    """A line from the terminal; None at Ctrl-D (end of input), INTERRUPTED at Ctrl-C. With
    `remember` false the line stays out of the input history.

    It reads on the event loop's own thread, which waits meanwhile (nothing else runs between
    two messages), with Python's own SIGINT handler, so that Ctrl-C interrupts the typing at
    once: in a thread, as before, it went unseen until the next Enter."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with contextlib.nullcontext() if remember else _unremembered():
            return input(prompt)
    except EOFError:
        return None
    except KeyboardInterrupt:
        return INTERRUPTED
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _unremembered() -> Iterator[None]:
    """readline adds no line typed meanwhile to the history (the arrow keys would bring back a
    "y" to the first run's question among the questions)."""
    try:
        import readline
    except ImportError:
        yield
        return
    readline.set_auto_history(False)
    try:
        yield
    finally:
        readline.set_auto_history(True)


async def _interruptible(work: Coroutine[Any, Any, R]) -> R | Interrupted:
    """`work`, or INTERRUPTED when Ctrl-C stops it first. (Event loops without signal handlers,
    as on Windows, let Ctrl-C end the chat instead.)"""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)
    try:
        loop.add_signal_handler(signal.SIGINT, task.cancel)
    except NotImplementedError:
        return await task
    try:
        return await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():  # the chat itself is being stopped
            raise
        return INTERRUPTED
    finally:
        loop.remove_signal_handler(signal.SIGINT)


async def _history(s: Context, lang: str) -> None:
    user = await s.storage.users.find("local", s.os_user)
    queries = await s.storage.queries.recent_for_user(user.id, HISTORY_SHOWN) if user else []
    if not queries:
        print(t("history.empty", lang))
    for q in reversed(queries):
        print(f"  {when(q.created_at)}  {saved_queries.line(q, lang)}")


class _ThisMachine:
    """The detected hardware in question words, read once, on the first need."""

    def __init__(self) -> None:
        self._words: str | None = None
        self._found: Detected | None = None

    def found(self) -> Detected:
        if self._found is None:
            from ..detect import detect

            self._found = detect()
        return self._found

    def words(self) -> str:
        if self._words is None:
            from ..detect.profile import profile, words

            self._words = words(profile(self.found()).spec)
        return self._words


async def _offer_this_machine(s: Context, machine: _ThisMachine) -> None:
    """On a first run (no profile saved), the detected hardware as the default profile."""
    from ..detect.profile import profile, words
    from ..profile_text import describe

    user = await s.storage.users.find("local", s.os_user)
    if user is not None and await s.storage.profiles.of_user(user.id):
        return
    spec = profile(machine.found()).spec
    answer = _read(t("chat.detect_offer", s.lang, hardware=describe(spec, s.lang)), remember=False)
    if answer is INTERRUPTED or answer is None:
        print()
    if not isinstance(answer, str) or answer.strip().lower() not in YES:
        print(terminal.render(t("chat.detect_skipped", s.lang)))
        return
    user = await s.storage.users.ensure("local", s.os_user)
    saved = await s.storage.profiles.save(
        user.id, t("detect.profile_name", s.lang), spec, text=words(spec), make_default=True
    )
    print(t("profile.saved", s.lang, name=saved.name, hardware=describe(saved.hardware, s.lang)))
    print(t("profile.now_default", s.lang, name=saved.name))


async def _chat(s: Context, save_history: Callable[[], None]) -> int:
    from ..conversation.service import Conversation
    from ..detect import mention

    conversation = Conversation(s.storage, local_files=True)
    lang = s.lang
    machine = _ThisMachine()
    print(terminal.render(t("chat.welcome", lang)))
    if sys.stdin.isatty():
        await _offer_this_machine(s, machine)
    choices: list[str] = []
    abandoned = False  # an answer stopped with Ctrl-C, maybe still waiting in its thread
    while True:
        text = _read("> ")
        if text is INTERRUPTED:
            # The prompt line stays as typed; the hint goes on a line of its own.
            print()
            print(t("chat.interrupt_hint", lang))
            continue
        if text is None or QUIT.match(text):
            if text is None:
                print()
            print(t("chat.bye", lang))
            if abandoned:
                _leave_now(save_history)
            return 0
        if HISTORY.match(text):
            await _history(s, lang)
            continue
        number = text.strip()
        if number.isdigit() and 1 <= int(number) <= len(choices):
            text = choices[int(number) - 1]
            print(f"  ({text})")
        if mention.mentions(text):
            text = mention.replace(text, machine.words())
        reply = await _interruptible(conversation.handle(incoming(s, text)))
        if isinstance(reply, str):  # INTERRUPTED
            print(t("chat.interrupted", lang))
            abandoned = True
            continue
        lang = reply.language
        print(terminal.render(reply.text, reply))
        choices = [c.message for c in reply.choices]
        print()


def _leave_now(save_history: Callable[[], None]) -> NoReturn:
    """Ends the process at once: a stopped answer's thread may be waiting on the network (a
    Hub download retries for half a minute), and a normal exit would wait for it."""
    save_history()
    sys.stdout.flush()
    os._exit(0)


def run(args: argparse.Namespace) -> int:
    # A Hub download's retries warn on stderr, which here is the conversation's screen; its
    # failure reaches the user as the answer's one-line reason.
    logging.getLogger("huggingface_hub").setLevel(logging.ERROR)
    save_history = _line_editing()
    return run_with_storage(args, functools.partial(_chat, save_history=save_history))
