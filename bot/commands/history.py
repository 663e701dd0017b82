"""`llm-sizer history [--json] [--limit N]`: the local user's saved questions, newest first."""

from __future__ import annotations

import argparse
import json
from typing import Any

from estimator.errors import EstimatorError

from ..i18n import t
from ..render import saved_queries
from .storage_context import Context, run_with_storage, when

DEFAULT_LIMIT = 20
MAX_LIMIT = 1000
# Long questions are cut in the table; --json has them whole.
TEXT_WIDTH = 80


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Adds `history` to the CLI's subcommands."""
    p = subparsers.add_parser("history", help="your saved questions and their verdicts")
    p.add_argument("--json", action="store_true", help="print the questions as JSON")
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"how many, newest first (default {DEFAULT_LIMIT}, at most {MAX_LIMIT})",
    )
    p.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_with_storage(args, _history)


async def _history(s: Context) -> int:
    limit = s.args.limit
    if not 1 <= limit <= MAX_LIMIT:
        raise EstimatorError("out_of_range", field="limit", value=limit, low=1, high=MAX_LIMIT)
    user = await s.storage.users.find("local", s.os_user)
    queries = [] if user is None else await s.storage.queries.recent_for_user(user.id, limit)
    if s.args.json:
        print(json.dumps({"queries": [q.model_dump(mode="json") for q in queries]}, indent=2))
        return 0
    if not queries:
        print(t("history.empty", s.lang))
        return 0
    for q in queries:
        if q.status == "need_more":
            verdict = t("history.need_more", s.lang)
        else:
            verdict = t(f"verdict.{q.verdict or 'unknown'}", s.lang)
        total = saved_queries.memory(q, s.lang) or t("history.no_total", s.lang)
        text = " ".join(q.text.split())
        if len(text) > TEXT_WIDTH:
            text = text[: TEXT_WIDTH - 1] + "…"
        print(
            t(
                "history.line",
                s.lang,
                when=when(q.created_at),
                verdict=verdict,
                total=total,
                text=text,
            )
        )
    return 0
