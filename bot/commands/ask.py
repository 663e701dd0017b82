"""`llm-sizer ask "QUESTION" [--json]`: one question in plain English or Dutch, answered with
the saved profile and the conversation so far, as text or as the JSON contract."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..render import plain
from .profile import Context, run_with_storage

if TYPE_CHECKING:
    from ..conversation.reply import Reply
    from ..conversation.service import Incoming

TERMINAL_CHAT = "terminal"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("ask", help="one question in plain language (English or Dutch)")
    p.add_argument("question", help='for example "can I fine-tune 7B on 24GB?"')
    p.add_argument("--json", action="store_true", help="print the JSON contract")
    p.add_argument("--lang", help="en or nl, when the question does not show it")
    p.set_defaults(func=run)


def incoming(s: Context, text: str) -> Incoming:
    """A terminal message from the local OS user, in their own terminal chat."""
    from ..conversation.service import Incoming

    return Incoming(
        platform="local",
        chat_id=f"{TERMINAL_CHAT}:{s.os_user}",
        chat_type="terminal",
        user_id=s.os_user,
        text=text,
        language=s.args.lang,
    )


async def _ask(s: Context) -> int:
    from ..conversation.service import Conversation

    reply = await Conversation(s.storage, local_files=True).handle(incoming(s, s.args.question))
    if reply.status == "error":
        print(f"error: {reply.text}", file=sys.stderr)
        return 2
    if s.args.json:
        print(json.dumps(reply.as_json(), indent=2, ensure_ascii=False))
    else:
        print(plain.render(reply, "oneshot"))
    return _exit_code(reply)


def _exit_code(reply: Reply) -> int:
    """0 for an answer; fit's NOTHING_FITS for an inverse question that found nothing."""
    from .fit import NOTHING_FITS

    inverse = (reply.body or {}).get("inverse")
    return NOTHING_FITS if inverse is not None and inverse["answer"] is None else 0


def run(args: argparse.Namespace) -> int:
    return run_with_storage(args, _ask)
