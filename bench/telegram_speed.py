"""Benchmark: the Telegram bot through the loopback fake Bot API, on SQLite, charts off.

Targets: at least 100 answered questions per second; no update lost or answered twice
over 5,000 updates from 200 users; memory growth under 20 MB over the run (traced by
tracemalloc over 2,000 more updates, the fake's own records left out); reply latency p50
under 50 ms. Every 25th update is delivered twice, so de-duplication is part of what is timed. Latency is
measured one question at a time; throughput with all 5,000 queued at once. The fake server runs
in the same process and event loop as the bot, so its work counts against the bot's figures.
`ptb_floor_questions_per_s` is the same PTB application and fake with a handler that only sends a
fixed reply: the ceiling of any bot on this machine with this harness.
Prints the figures and writes bench/results/telegram_speed.json.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fake Bot API lives with the tests

from results_file import write  # noqa: E402
from telegram import Update  # noqa: E402
from telegram.ext import ContextTypes, MessageHandler, filters  # noqa: E402

from bot.telegram.app import bare, build, start_polling, stop_polling  # noqa: E402
from bot.telegram.settings import BotSettings  # noqa: E402
from storage import Storage  # noqa: E402
from tests.telegram.fake_bot_api import FakeBotApi  # noqa: E402

TOKEN = "123456:bench"
USERS = 200
UPDATES = int(os.environ.get("BENCH_UPDATES", "5000"))
DUPLICATE_EVERY = 25
WARMUP = 100
LATENCY_SAMPLES = 200
MEMORY_UPDATES = 2000
# The fake has no flood limit; Telegram's 30 messages/s would cap the figure at 30 (see README).
MAX_RATE = 1000.0


def questions() -> list[str]:
    rows = []
    for path in sorted((ROOT / "tests" / "bot" / "conversation").glob("*phrasings*.json")):
        rows += json.loads(path.read_text(encoding="utf-8"))
    return [r["text"] for r in rows]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def latency(fake: FakeBotApi, texts: list[str]) -> list[float]:
    """Milliseconds from a question to its reply, one question at a time (no queue)."""
    samples = []
    for i in range(LATENCY_SAMPLES):
        user = 1 + i % USERS
        before = len(fake.messages(user))
        start = time.perf_counter()
        fake.send_text(user, texts[i % len(texts)])
        await fake.wait_messages(user, before + 1, timeout=30)
        samples.append((time.perf_counter() - start) * 1000)
    return sorted(samples)


async def traced_growth(fake: FakeBotApi, texts: list[str]) -> float:
    """MB still allocated by the bot after MEMORY_UPDATES more updates, traced by tracemalloc;
    the fake's own records (it keeps every message it is sent) are left out."""
    ignore = [
        tracemalloc.Filter(False, "*/tests/telegram/*"),
        tracemalloc.Filter(False, "*/aiohttp/*"),
    ]
    tracemalloc.start()
    before = tracemalloc.take_snapshot().filter_traces(ignore)
    base = len(fake.sent)
    for i in range(MEMORY_UPDATES):
        fake.send_text(1 + i % USERS, texts[(i * 7) % len(texts)])
    await fake.wait_for(lambda: len(fake.sent) >= base + MEMORY_UPDATES, timeout=900)
    gc.collect()
    after = tracemalloc.take_snapshot().filter_traces(ignore)
    tracemalloc.stop()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename")) / 2**20


def bench_settings(fake: FakeBotApi) -> BotSettings:
    return BotSettings(
        telegram_bot_token=TOKEN,
        telegram_api_base_url=fake.base_url,
        telegram_api_file_url=fake.base_file_url,
        telegram_max_messages_per_s=MAX_RATE,
    )


async def ptb_floor(texts: list[str]) -> float:
    """Questions per second of the same PTB application and fake when the handler only sends a
    fixed 600-character reply: no database, no answer. What the bot can do is below this."""
    reply = ("verdict: fits on 1x RTX 4090, 17.4 GiB of 24 GiB\n" * 12)[:600]

    async def fixed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await context.bot.send_message(update.effective_chat.id, reply)

    async with FakeBotApi(token=TOKEN) as fake:
        app = bare(bench_settings(fake))
        app.add_handler(MessageHandler(filters.TEXT, fixed))
        async with app:
            await app.start()
            await app.updater.start_polling(poll_interval=0.0, timeout=10)
            for i in range(WARMUP):
                fake.send_text(1 + i % USERS, texts[i % len(texts)])
            await fake.wait_for(lambda: len(fake.sent) >= WARMUP, timeout=120)
            start = time.perf_counter()
            for i in range(UPDATES):
                fake.send_text(1 + i % USERS, texts[i % len(texts)])
                if i % 500 == 0:
                    fake.calls.clear()
            await fake.wait_for(lambda: len(fake.sent) >= WARMUP + UPDATES, timeout=900)
            elapsed = time.perf_counter() - start
            await app.updater.stop()
            await app.stop()
    return UPDATES / elapsed


async def run(db: str) -> dict:
    texts = questions()
    async with await Storage.open(db) as storage, FakeBotApi(token=TOKEN) as fake:
        for user in range(1, USERS + 1):
            row = await storage.users.ensure("telegram", user)
            await storage.users.set_settings(row.id, {"charts": False})
        app = build(bench_settings(fake), storage)
        async with app:
            await start_polling(app)
            for i in range(WARMUP):
                fake.send_text(1 + i % USERS, texts[i % len(texts)])
            await fake.wait_for(lambda: len(fake.sent) >= WARMUP, timeout=120)
            waits = await latency(fake, texts)
            base = len(fake.sent)
            fake.calls.clear()
            memory_before = rss_mb()
            start = time.perf_counter()
            for i in range(UPDATES):
                update = fake.send_text(1 + i % USERS, texts[i % len(texts)])
                if i % DUPLICATE_EVERY == 0:
                    fake.enqueue(update)
                if i % 500 == 0:
                    fake.calls.clear()  # the fake's request log is not the bot's memory
            await fake.wait_for(lambda: len(fake.sent) >= base + UPDATES, timeout=900)
            elapsed = time.perf_counter() - start
            await asyncio.sleep(2)  # anything answered twice would arrive now
            replies = fake.sent[base:]
            fake.calls.clear()
            rss_growth = rss_mb() - memory_before
            growth = await traced_growth(fake, texts)
            await stop_polling(app)
    per_chat: dict[int, int] = {}
    for m in replies:
        per_chat[m.chat_id] = per_chat.get(m.chat_id, 0) + 1
    expected = UPDATES // USERS
    return {
        "updates": UPDATES,
        "duplicates_delivered": len(range(0, UPDATES, DUPLICATE_EVERY)),
        "users": USERS,
        "replies": len(replies),
        "chats_answered_twice_or_lost": sum(1 for n in per_chat.values() if n != expected),
        "questions_per_s": round(UPDATES / elapsed, 1),
        "ptb_floor_questions_per_s": round(await ptb_floor(texts), 1),
        "latency_p50_ms": round(statistics.median(waits), 1),
        "latency_p99_ms": round(waits[int(len(waits) * 0.99)], 1),
        "memory_growth_mb": round(growth, 1),
        "rss_growth_mb_with_the_fake": round(rss_growth, 1),
        "targets": {"questions_per_s": 100, "latency_p50_ms": 50, "memory_growth_mb": 20},
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(f"sqlite+aiosqlite:///{tmp}/bench.db"))
    print(json.dumps(result, indent=2))
    write("telegram_speed", result)


if __name__ == "__main__":
    main()
