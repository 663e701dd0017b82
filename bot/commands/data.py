"""`llm-sizer export` and `llm-sizer forget`: everything stored about the local user, out as JSON
or deleted for good."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import language, t
from .storage_context import Context, run_with_storage


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Adds `export` and `forget` to the CLI's subcommands."""
    export = subparsers.add_parser("export", help="everything stored about you, as JSON")
    export.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")
    export.set_defaults(func=run, data_command="export")
    forget = subparsers.add_parser(
        "forget",
        help="delete everything stored about you (asks first; exit 1 when you say no)",
    )
    forget.add_argument("--yes", action="store_true", help="do not ask; needed without a terminal")
    forget.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")
    forget.set_defaults(func=run, data_command="forget")


def run(args: argparse.Namespace) -> int:
    if args.data_command == "export":
        return run_with_storage(args, _export)
    # Refuse before touching anything: a script without --yes must get neither a prompt it
    # cannot answer nor a deletion it did not ask for.
    if not args.yes and not sys.stdin.isatty():
        print(f"error: {t('error.forget_needs_yes', language(args.lang))}", file=sys.stderr)
        return 2
    return run_with_storage(args, _forget)


async def _export(s: Context) -> int:
    from storage.schemas import UserExport

    user = await s.storage.users.find("local", s.os_user)
    if user is None:
        print(t("export.nothing", s.lang, user=s.os_user), file=sys.stderr)
        export = UserExport.empty()
    else:
        export = await s.storage.privacy.export(user.id)
    print(export.model_dump_json(indent=2))
    return 0


async def _forget(s: Context) -> int:
    from .chat import history_path

    # The chat's typed lines are kept in a file beside the database, not in it.
    typed = history_path()
    user = await s.storage.users.find("local", s.os_user)
    if user is None and not typed.exists():
        print(t("forget.nothing", s.lang, user=s.os_user))
        return 0
    if not s.args.yes:
        if user is not None:
            summary = await s.storage.privacy.summary(user.id)
            print(
                t(
                    "forget.summary",
                    s.lang,
                    user=s.os_user,
                    profiles=summary.profiles,
                    queries=summary.queries,
                    memberships=summary.memberships,
                    states=summary.conversation_states,
                )
            )
        if typed.exists():
            print(t("forget.typed_lines", s.lang, path=typed))
        if not _confirmed(s.lang):
            print(t("forget.cancelled", s.lang))
            return 1
    if user is not None:
        await s.storage.privacy.forget(user.id)
    typed.unlink(missing_ok=True)
    print(t("forget.done", s.lang, user=s.os_user))
    return 0


def _confirmed(lang: str) -> bool:
    try:
        answer = input(t("forget.confirm", lang))
    except EOFError:
        return False
    return answer.strip().lower() in t("forget.yes_words", lang).split(",")
