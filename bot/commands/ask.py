"""`llm-sizer ask "QUESTION" [--json]`: one question in plain English or Dutch, answered with
the saved profile, as text or as the JSON contract. A follow-up ("and with QLoRA?") continues
the previous question, and a printed choice's number picks it (`llm-sizer ask 2`); a new
question starts afresh, on its own hardware or the saved profile."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..render import plain
from . import output
from .storage_context import Context, run_with_storage

if TYPE_CHECKING:
    from ..conversation.reply import Reply
    from ..conversation.service import Incoming

TERMINAL_CHAT = "terminal"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("ask", help="one question in plain language (English or Dutch)")
    p.add_argument(
        "question", help='for example "can I fine-tune 7B on 24GB?", or the number of a choice'
    )
    p.add_argument("--json", action="store_true", help="print the JSON contract")
    output.add_format(p)
    p.add_argument("--lang", help="en or nl, when the question does not show it")
    p.set_defaults(func=run)


def incoming(s: Context, text: str, *, one_shot: bool = False) -> Incoming:
    """A terminal message from the local OS user, in their own terminal chat."""
    from ..conversation.service import Incoming

    return Incoming(
        platform="local",
        chat_id=f"{TERMINAL_CHAT}:{s.os_user}",
        chat_type="terminal",
        user_id=s.os_user,
        text=text,
        language=s.args.lang,
        one_shot=one_shot,
    )


async def _ask(s: Context) -> int:
    from ..conversation.service import Conversation

    conversation = Conversation(s.storage, local_files=True)
    reply = await conversation.handle(incoming(s, s.args.question, one_shot=True))
    if reply.status == "error":
        print(f"error: {reply.text}", file=sys.stderr)
        return 2
    match output.chosen(s.args):
        case "json":
            print(json.dumps(reply.as_json(), indent=2, ensure_ascii=False))
        case "markdown":
            from ..render import markdown

            print(markdown.render(reply), end="")
        case _:
            print(plain.render(reply, "oneshot"))
    return _exit_code(reply)


def _exit_code(reply: Reply) -> int:
    """0 for an answer; fit's NOTHING_FITS for an inverse question that found nothing."""
    from .fit import NOTHING_FITS

    inverse = (reply.body or {}).get("inverse")
    return NOTHING_FITS if inverse is not None and inverse["answer"] is None else 0


def run(args: argparse.Namespace) -> int:
    return run_with_storage(args, _ask)
