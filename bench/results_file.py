"""Where every bench leaves its figures: bench/results/NAME.json, made on first use (the folder
is not in git)."""

from __future__ import annotations

import json
from pathlib import Path


def write(name: str, result: object) -> Path:
    out = Path(__file__).parent / "results" / f"{name}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return out
