"""What an answering command (`estimate`, `fit`, `ask`) prints: text, the JSON contract, or
Markdown to paste into GitHub, Slack or Discord."""

from __future__ import annotations

import argparse
from typing import Literal

Format = Literal["text", "json", "markdown"]
FORMATS: tuple[Format, ...] = ("text", "json", "markdown")


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="text (default), json (as --json) or markdown (to paste into GitHub, Slack, Discord)",
    )


def chosen(args: argparse.Namespace) -> Format:
    """The format asked for: --json is --format json."""
    if getattr(args, "json", False):
        return "json"
    return getattr(args, "format", None) or "text"
