"""The messages the benchmarks send: every phrasing table the tests read."""

from __future__ import annotations

import json
from pathlib import Path

TABLES = Path(__file__).resolve().parent.parent / "tests" / "bot" / "conversation"


def messages() -> list[str]:
    rows = []
    for path in sorted([*TABLES.glob("*phrasings*.json"), TABLES / "phrasing_table.json"]):
        rows += json.loads(path.read_text(encoding="utf-8"))
    return [r["text"] for r in rows]
