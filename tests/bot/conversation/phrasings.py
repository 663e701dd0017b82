"""Phrasing tables (message -> expected slots) and how a parse is scored against one.

Expected names are written as people write them ("RTX 4090", "Mistral-7B"); they are resolved
through the same catalogs as the parser's output before comparing, so a table states meaning,
not the catalog's spelling.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.conversation.dialogue import State, step
from bot.conversation.parse import parse, read
from estimator.hardware.catalog import find_gpu
from estimator.models import catalog

HERE = Path(__file__).parent
IGNORED = {"language"}
# The slots the helper who wrote the unseen table was asked to label; the parser's other slots
# (laptop, features, batch, ...) are not scored on it.
UNSEEN_SCHEMA = frozenset(
    [
        "model",
        "task",
        "method",
        "precision",
        "context",
        "concurrency",
        "gpu",
        "gpus",
        "gpu_memory_gb",
        "ram_gb",
        "apple",
        "cpu_only",
        "cloud",
        "inverse",
        "ml_kind",
        "rows",
    ]
)


def load(name: str) -> list[dict[str, Any]]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def _canonical(slot: str, value: Any) -> Any:
    if slot == "model" and isinstance(value, str):
        found = catalog.find(value)
        return found.name if found else value.upper() if value[-1:].lower() in "bm" else value
    if slot == "gpu" and isinstance(value, str):
        found = find_gpu(value)
        return found.name if found else value
    if slot == "apple" and isinstance(value, str):
        return value.lower().replace(" ", "")
    if slot == "compare" and isinstance(value, list):
        return [slots(option) for option in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def slots(values: dict[str, Any], schema: frozenset[str] | None = None) -> dict[str, Any]:
    return {
        k: _canonical(k, v)
        for k, v in values.items()
        if k not in IGNORED and (schema is None or k in schema)
    }


def mismatches(
    row: dict[str, Any], schema: frozenset[str] | None = None
) -> dict[str, tuple[Any, Any]]:
    """{slot: (expected, parsed)} for every slot the parse got wrong, missed or added."""
    expected = slots(row["expected"], schema)
    parsed = slots(parse(row["text"]).model_dump(exclude_none=True), schema)
    return {
        k: (expected.get(k), parsed.get(k))
        for k in expected.keys() | parsed.keys()
        if expected.get(k) != parsed.get(k)
    }


def accuracy(
    rows: list[dict[str, Any]], schema: frozenset[str] | None = None
) -> tuple[float, float]:
    """(share of expected slots filled right, share of phrasings parsed exactly), where a slot
    the parser adds that the table does not expect counts as a wrong slot."""
    right = total = exact = 0
    for row in rows:
        wrong = mismatches(row, schema)
        expected = len(row["expected"].keys() - IGNORED)
        extra = sum(1 for k, (want, _) in wrong.items() if want is None)
        total += expected + extra
        right += expected - (len(wrong) - extra)
        exact += not wrong
    return right / total, exact / len(rows)


def observed(text: str) -> dict[str, Any]:
    """Everything one message gives, as the big phrasing table states it: its slots (with the
    task the dialogue implies), its conversation act, and the slots it refuses."""
    reading = read(text)
    turn = step(State(), reading, text)
    out = reading.draft.model_dump(exclude_none=True)
    if turn.implied_task and "task" not in out:
        out["task"] = "inference"
    if turn.act is not None:
        out["act"] = turn.act
    if reading.refused:
        out["refused"] = [r.slot for r in reading.refused]
    return out


def table_mismatches(row: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """{slot: (expected, observed)} for every slot the message got wrong, missed or added."""
    expected = slots(row["expected"])
    got = slots(observed(row["text"]))
    return {
        k: (expected.get(k), got.get(k))
        for k in expected.keys() | got.keys()
        if expected.get(k) != got.get(k)
    }
