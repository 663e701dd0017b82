"""Scoring the held-out phrasings (holdout_phrasings.json): 80 messages with the slots they say
or imply, written by someone who never saw the parser, in that writer's schema.

The writer's schema differs from the Draft in a few names, mapped here and nowhere else:
`act` is the dialogue's conversation act; `method` may be an alignment objective ("dpo"),
which the Draft keeps apart from full/LoRA/QLoRA; `compare` lists the options as strings,
each read back with the parser. A row's earlier `turns` are sent first, through the dialogue,
and the final message is scored on the question the dialogue holds after it (what the writer
labelled); a message without turns on what it says itself plus the task the dialogue implies.

Run `python -m tests.bot.conversation.holdout` for the accuracy and every mismatch.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.conversation.dialogue import State, step
from bot.conversation.parse import read

from .phrasings import _canonical

HERE = Path(__file__).parent
TABLE = HERE / "holdout_phrasings.json"
# The slots of the writer's schema that name a Draft slot of the same meaning.
SAME = (
    "model",
    "task",
    "framework",
    "engine",
    "precision",
    "kv_precision",
    "context",
    "batch",
    "concurrency",
    "gpu",
    "gpus",
    "gpu_memory_gb",
    "ram_gb",
    "apple",
    "cpu_only",
    "laptop",
    "zero",
    "offload",
    "grad_checkpointing",
    "optimizer",
    "lora_rank",
    "inverse",
)
_NEUTRAL = frozenset({"language", "task"})


def load() -> list[dict[str, Any]]:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def _option(slots: dict[str, Any]) -> frozenset[tuple[str, Any]]:
    return frozenset(
        (k, _canonical(k, v)) for k, v in slots.items() if v is not None and k not in _NEUTRAL
    )


def observed(row: dict[str, Any]) -> dict[str, Any]:
    """What the final message of `row` gives, in the writer's schema."""
    state = State()
    for earlier in row.get("turns") or []:
        state = step(state, read(earlier), earlier).state
    reading = read(row["text"])
    turn = step(state, reading, row["text"])
    draft = turn.state.draft if row.get("turns") else reading.draft
    out: dict[str, Any] = {k: getattr(draft, k) for k in SAME if getattr(draft, k) is not None}
    if isinstance(out.get("gpu"), str) and " + " in out["gpu"]:
        # A set of different GPUs: the hardware reader joins them with " + " and a count.
        out["gpu"] = [re.sub(r"^\d+x ", "", part) for part in out["gpu"].split(" + ")]
    if turn.act in ("greeting", "help", "thanks", "out_of_scope"):
        out["act"] = turn.act
    if turn.implied_task and draft.task is None:
        out["task"] = "inference"
    if draft.objective and draft.objective != "sft":
        out["method"] = draft.objective
    elif draft.method:
        out["method"] = draft.method
    if draft.compare:
        # The Draft reads as its first option beside the options; the writer's schema has the
        # options only.
        for option in draft.compare:
            for key in option.model_dump(exclude_none=True):
                out.pop(key, None)
        out["compare"] = [_option(o.model_dump(exclude_none=True)) for o in draft.compare]
    return out


def _expected_compare(options: list[str]) -> list[frozenset[tuple[str, Any]]]:
    return [_option(read(o).draft.model_dump(exclude_none=True)) for o in options]


def _same(slot: str, want: Any, got: Any, row: dict[str, Any]) -> bool:
    if slot == "gpu" and isinstance(want, list) and isinstance(got, list):
        return [_canonical(slot, w) for w in want] == [_canonical(slot, g) for g in got]
    if slot == "compare":
        wanted = _expected_compare(want)
        return len(wanted) == len(got) and all(
            w and w <= g for w, g in zip(wanted, got, strict=True)
        )
    if slot == "method" and want != got:
        # "DPO with LoRA": the writer may label either the objective or the method.
        draft = read(row["text"]).draft
        return want in (draft.method, draft.objective)
    return _canonical(slot, want) == _canonical(slot, got)


def mismatches(row: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """{slot: (expected, observed)} for every slot wrong, missed or added."""
    expected = row["expect"]
    got = observed(row)
    return {
        k: (expected.get(k), got.get(k))
        for k in expected.keys() | got.keys()
        if k not in expected or k not in got or not _same(k, expected[k], got[k], row)
    }


def accuracy(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """(share of slots right, counting a slot the parser adds as wrong; share of rows exact)."""
    right = total = exact = 0
    for row in rows:
        wrong = mismatches(row)
        extra = sum(1 for want, _ in wrong.values() if want is None)
        total += len(row["expect"]) + extra
        right += len(row["expect"]) - (len(wrong) - extra)
        exact += not wrong
    return right / total, exact / len(rows)


def main() -> None:
    rows = load()
    slots, exact = accuracy(rows)
    for row in rows:
        wrong = mismatches(row)
        if wrong:
            print(f"{row['id']} [{row['lang']}] {row['text']!r}\n    {wrong}")
    print(f"slots right: {slots:.1%}, phrasings exact: {exact:.1%} ({len(rows)} phrasings)")


if __name__ == "__main__":
    main()
