"""Benchmark: "save a query" and "read the default profile" through the repositories, and what
one chat message costs: reading its context and saving its state and question (storage.turns).

Targets: p50 under 2 ms on SQLite, under 5 ms on PostgreSQL. SQLite runs on a
temporary file; PostgreSQL on a temporary database on the server of LLM_SIZER_TEST_POSTGRES_URL,
when that is set. Prints the figures and writes bench/results/storage_speed.json.
Run: .venv/bin/python bench/storage_speed.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the scratch databases live with the tests

from results_file import write  # noqa: E402

from storage import HardwareSpec, NewQuery, Storage  # noqa: E402
from tests.scratch import temporary_database  # noqa: E402

ROUNDS = 2000
WARMUP = 100
TARGET_P50_MS = {"sqlite": 2.0, "postgresql": 5.0}
PROFILE = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64)
INPUTS = {
    "model": "Qwen/Qwen2.5-7B-Instruct",
    "task": "inference",
    "precision": "bf16",
    "context": 32768,
    "gpu": "GeForce RTX 4090",
    "gpu_count": 1,
}


async def _time(work: Callable[[int], Awaitable[object]]) -> dict[str, float]:
    for i in range(WARMUP):
        await work(i)
    samples = []
    for i in range(ROUNDS):
        start = time.perf_counter()
        await work(i)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {"p50_ms": statistics.median(samples), "p99_ms": samples[int(0.99 * len(samples))]}


async def measure(url: str) -> dict[str, dict[str, float]]:
    async with await Storage.open(url) as storage:
        user = await storage.users.ensure("local", "bench")
        await storage.profiles.save(user.id, "desk", PROFILE, text="RTX 4090, 64GB RAM")

        async def save_query(i: int) -> object:
            return await storage.queries.save(
                NewQuery(
                    user_id=user.id,
                    text=f"can I run qwen 7b with 32k context on my 4090? #{i}",
                    inputs=INPUTS,
                    verdict="fits",
                    total_bytes=20_000_000_000,
                    per_device_bytes=20_000_000_000,
                )
            )

        async def read_default(_: int) -> object:
            return await storage.profiles.default(user.id)

        async def load_turn(_: int) -> object:
            return await storage.turns.load("local", "bench", "terminal", "private")

        chat = (await storage.turns.load("local", "bench", "terminal", "private")).chat

        async def save_turn(i: int) -> object:
            query = NewQuery(
                user_id=user.id,
                chat_id=chat.id,
                text=f"and with 32k context? #{i}",
                inputs=INPUTS,
                verdict="fits",
            )
            return await storage.turns.save(chat.id, user.id, {"draft": INPUTS}, query)

        return {
            "save_query": await _time(save_query),
            "read_default_profile": await _time(read_default),
            "message_context_read": await _time(load_turn),
            "message_state_and_question_saved": await _time(save_turn),
        }


async def main() -> None:
    results: dict[str, object] = {"rounds": ROUNDS, "target_p50_ms": TARGET_P50_MS}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = await measure(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
    server = os.environ.get("LLM_SIZER_TEST_POSTGRES_URL")
    if server:
        async with temporary_database(server) as url:
            results["postgresql"] = await measure(url.render_as_string(hide_password=False))
    else:
        results["postgresql"] = None
        print("PostgreSQL skipped: set LLM_SIZER_TEST_POSTGRES_URL to measure it")
    out = write("storage_speed", results)
    for backend, target in TARGET_P50_MS.items():
        figures = results[backend]
        if not isinstance(figures, dict):
            continue
        for operation, f in figures.items():
            print(
                f"{backend} {operation}: p50 {f['p50_ms']:.3f} ms, p99 {f['p99_ms']:.3f} ms "
                f"(target p50 < {target:g} ms)"
            )
    print(f"written to {out}")


if __name__ == "__main__":
    asyncio.run(main())
