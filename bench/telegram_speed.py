"""Benchmark: the Telegram bot through the loopback fake Bot API, on SQLite.

Charts off: 5,000 updates from 200 users, every 25th delivered twice (de-duplication is part of
what is timed); no update lost or answered twice; memory growth (traced by tracemalloc over
2,000 more updates, the fake's own records left out); reply latency one question at a time.
Its CPU per answer is compared with PTB's own: `ptb_*` is the same PTB application and fake with
a handler that only sends a fixed reply (no database, no answer), the ceiling of any bot with
this harness. Target: the bot's own CPU per answer (its total minus PTB's per update) at most
PTB's per update. PTB alone runs in a process of its own (so neither side's CPU or heap counts
against the other) and the two take turns, BLOCK updates each: on a shared machine whose speed
drifts by 10-25% from minute to minute (PTB's figure alone, measured four times in a row:
2.67-3.39 ms), measuring one after the other compared the drift, not the bots. Those 5,000
start nearly cold: the first time a question comes (as merged with the one before it in that
chat) it is worked out, after that it is given again (bot.conversation.reply_cache);
`replies_worked_out` and `replies_given_again` count both, and `*_asked_before` is the CPU per
answer of 2,000 more once every question has come before, against PTB's over the same 2,000.

Charts on (the default for users): 200 users x 10 questions, every chart sent. Target: at least
25 answers a second, counted from the first question until the last text and the last chart
arrived. Charts are drawn in the worker processes (started before the clock), so that figure
depends on the cores there are. Also: the CPU one chart takes to draw (p50 over distinct
estimates) and how long after its text a chart arrives (p50).

The fake runs in the same process and event loop as the bot, so its work counts against the
bot's figures. Prints the figures and writes bench/results/telegram_speed.json.
"""

from __future__ import annotations

import asyncio
import gc
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fake Bot API lives with the tests

from results_file import write  # noqa: E402
from telegram import Update  # noqa: E402
from telegram.ext import ContextTypes, MessageHandler, filters  # noqa: E402

from bot.conversation.service import Conversation, Incoming  # noqa: E402
from bot.render.chart import memory_chart  # noqa: E402
from bot.telegram.app import bare, build  # noqa: E402
from bot.telegram.charts import shared_pool  # noqa: E402
from bot.telegram.settings import BotSettings  # noqa: E402
from storage import Storage  # noqa: E402
from tests.bot.telegram.fake_bot_api import FakeBotApi  # noqa: E402

TOKEN = "123456:bench"
USERS = 200
UPDATES = int(os.environ.get("BENCH_UPDATES", "5000"))
CHART_QUESTIONS = int(os.environ.get("BENCH_CHART_QUESTIONS", "10"))  # per user
DUPLICATE_EVERY = 25
WARMUP = 100
LATENCY_SAMPLES = 200
MEMORY_UPDATES = 2000
AGAIN_UPDATES = 2000
BLOCK = 500
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


def bench_settings(fake: FakeBotApi) -> BotSettings:
    return BotSettings(
        telegram_bot_token=TOKEN,
        telegram_api_base_url=fake.base_url,
        telegram_api_file_url=fake.base_file_url,
        telegram_max_messages_per_s=MAX_RATE,
        telegram_user_burst=100_000,  # the users here ask all their questions at once
    )


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
        tracemalloc.Filter(False, "*/tests/bot/telegram/*"),
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


class Tally:
    """Wall and CPU seconds over the blocks of one side."""

    def __init__(self) -> None:
        self.updates = 0
        self.wall = 0.0
        self.cpu = 0.0

    async def block(
        self, fake: FakeBotApi, texts: list[str], first: int, n: int, duplicates: bool
    ) -> None:
        """Updates first..first+n-1 (the i-th from user 1 + i % USERS; with `duplicates`,
        every DUPLICATE_EVERY-th delivered twice), until all are answered."""
        base = len(fake.sent)
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(first, first + n):
            update = fake.send_text(1 + i % USERS, texts[i % len(texts)])
            if duplicates and i % DUPLICATE_EVERY == 0:
                fake.enqueue(update)
        await fake.wait_for(lambda: len(fake.sent) >= base + n, timeout=900)
        self.wall += time.perf_counter() - start
        self.cpu += time.process_time() - cpu
        self.updates += n
        fake.calls.clear()  # the fake's request log is not the bot's memory

    @property
    def cpu_ms(self) -> float:
        return self.cpu / self.updates * 1000


async def _floor_serve(conn: Connection) -> None:
    """PTB's application and fake, running, with a handler that only sends a fixed
    600-character reply (no database, no answer); runs the blocks `conn` asks for and answers
    with their wall and CPU seconds."""
    reply = ("verdict: fits on 1x RTX 4090, 17.4 GiB of 24 GiB\n" * 12)[:600]

    async def fixed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await context.bot.send_message(update.effective_chat.id, reply)

    texts = questions()
    loop = asyncio.get_running_loop()
    async with FakeBotApi(token=TOKEN) as fake:
        app = bare(bench_settings(fake))
        app.add_handler(MessageHandler(filters.TEXT, fixed))
        async with app:
            await app.start()
            await app.updater.start_polling(poll_interval=0.0, timeout=10)
            for i in range(WARMUP):
                fake.send_text(1 + i % USERS, texts[i % len(texts)])
            await fake.wait_for(lambda: len(fake.sent) >= WARMUP, timeout=120)
            fake.calls.clear()
            conn.send("ready")
            while (asked := await loop.run_in_executor(None, conn.recv)) is not None:
                tally = Tally()
                await tally.block(fake, texts, *asked, duplicates=False)
                conn.send((tally.wall, tally.cpu))
            await app.updater.stop()
            await app.stop()


def _floor_process(conn: Connection) -> None:
    asyncio.run(_floor_serve(conn))


class PtbAlone:
    """PTB alone in a process of its own: its CPU is measured without the bot's heap and
    threads, and the bot's without its. `block` runs updates there while this side waits."""

    def __init__(self) -> None:
        spawn = multiprocessing.get_context("spawn")
        self._conn, child = spawn.Pipe()
        self._process = spawn.Process(target=_floor_process, args=(child,), daemon=True)

    async def _recv(self) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, self._conn.recv)

    async def __aenter__(self) -> PtbAlone:
        self._process.start()
        assert await self._recv() == "ready"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._conn.send(None)
        await asyncio.get_running_loop().run_in_executor(None, self._process.join, 60)

    async def block(self, tally: Tally, first: int, n: int) -> None:
        self._conn.send((first, n))
        wall, cpu = await self._recv()
        tally.wall += wall
        tally.cpu += cpu
        tally.updates += n


async def taking_turns(
    ours: FakeBotApi, ptb: PtbAlone, texts: list[str], n: int, duplicates: bool
) -> tuple[Tally, Tally]:
    """n updates to the bot and the same n to PTB alone, BLOCK at a time, taking turns."""
    bot, alone = Tally(), Tally()
    for first in range(0, n, BLOCK):
        size = min(BLOCK, n - first)
        await bot.block(ours, texts, first, size, duplicates)
        await ptb.block(alone, first, size)  # without duplicates: PTB alone keeps no record
    return bot, alone


async def without_charts(db: str, texts: list[str]) -> tuple[dict, tuple[Tally, Tally]]:
    """The bot's figures, and PTB alone's over the blocks that alternated with the cold and the
    asked-before phase."""
    async with (
        await Storage.open(db) as storage,
        FakeBotApi(token=TOKEN) as fake,
        PtbAlone() as floor,
    ):
        for user in range(1, USERS + 1):
            row = await storage.users.ensure("telegram", user)
            await storage.users.set_settings(row.id, {"charts": False})
        async with build(bench_settings(fake), storage) as bot:
            await bot.start()
            for i in range(WARMUP):
                fake.send_text(1 + i % USERS, texts[i % len(texts)])
            await fake.wait_for(lambda: len(fake.sent) >= WARMUP, timeout=120)
            waits = await latency(fake, texts)
            base = len(fake.sent)
            fake.calls.clear()
            memory_before = rss_mb()
            ours, ptb = await taking_turns(fake, floor, texts, UPDATES, duplicates=True)
            await asyncio.sleep(2)  # anything answered twice would arrive now
            replies = fake.sent[base:]
            fake.calls.clear()
            kept = bot.conversation.replies
            worked_out, given_again = kept.misses, kept.hits
            # The same questions again: by now every one (as merged with the one before it)
            # has been answered once.
            again, ptb_again = await taking_turns(
                fake, floor, texts, AGAIN_UPDATES, duplicates=False
            )
            rss_growth = rss_mb() - memory_before
            growth = await traced_growth(fake, texts)
            await bot.stop()
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
        "questions_per_s": round(UPDATES / ours.wall, 1),
        "cpu_ms_per_answer": round(ours.cpu_ms, 2),
        "replies_worked_out": worked_out,
        "replies_given_again": given_again,
        "cpu_ms_per_answer_asked_before": round(again.cpu_ms, 2),
        "latency_p50_ms": round(statistics.median(waits), 1),
        "latency_p99_ms": round(waits[int(len(waits) * 0.99)], 1),
        "memory_growth_mb": round(growth, 1),
        "rss_growth_mb_with_the_fake": round(rss_growth, 1),
    }, (ptb, ptb_again)


async def render_cpu_ms(db: str, texts: list[str]) -> list[float]:
    """CPU milliseconds to draw the chart of each distinct question that has one."""
    samples = []
    async with await Storage.open(db) as storage:
        conversation = Conversation(storage)
        for i, text in enumerate(texts):
            message = Incoming(
                platform="telegram", chat_id=str(i), chat_type="private", user_id=str(i), text=text
            )
            drawing = (await conversation.handle(message)).drawing()
            if drawing is None:
                continue
            memory_chart(drawing.estimate, "en", drawing.curve)  # fonts loaded, caches warm
            start = time.process_time()
            memory_chart(drawing.estimate, "en", drawing.curve)
            samples.append((time.process_time() - start) * 1000)
    return sorted(samples)


def chart_waits(fake: FakeBotApi) -> list[float]:
    """Milliseconds from each answer's text to its chart, per chat in order."""
    texts: dict[int, list[float]] = {}
    photos: dict[int, list[float]] = {}
    for call in fake.calls:
        if not call.ok:
            continue
        method = call.method.lower()
        chat = call.params.get("chat_id")
        if method == "sendmessage" and "v:why" in json.dumps(call.params.get("reply_markup")):
            texts.setdefault(chat, []).append(call.time)
        elif method == "sendphoto":
            photos.setdefault(chat, []).append(call.time)
    waits = [
        (photo - text) * 1000
        for chat, sent in photos.items()
        for text, photo in zip(texts.get(chat, []), sent, strict=False)
    ]
    return sorted(waits)


async def with_charts(db: str, texts: list[str]) -> dict:
    """USERS x CHART_QUESTIONS questions, charts on: until every text and every chart is in."""
    total = USERS * CHART_QUESTIONS
    async with await Storage.open(db) as storage, FakeBotApi(token=TOKEN) as fake:
        shared_pool().started()  # the workers start before the clock, as they do in a bot
        async with build(bench_settings(fake), storage) as bot:
            await bot.start()
            start = time.perf_counter()
            for i in range(total):
                fake.send_text(1 + i % USERS, texts[(i * 7) % len(texts)])
            answered = lambda: [m for m in fake.messages() if m.chat_id <= USERS]  # noqa: E731
            await fake.wait_for(lambda: len(answered()) >= total, timeout=900)
            expected = sum(1 for m in answered() if "v:why" in m.callback_data)
            await fake.wait_for(lambda: len(fake.photos()) >= expected, timeout=900)
            elapsed = time.perf_counter() - start
            await asyncio.sleep(1)
            photos = len(fake.photos())
            waits = chart_waits(fake)
            await bot.stop()
    return {
        "questions": total,
        "answers_per_s": round(total / elapsed, 1),
        "charts_expected": expected,
        "charts_sent": photos,
        "chart_after_text_p50_ms": round(statistics.median(waits), 1) if waits else None,
        "chart_workers": shared_pool().workers,
    }


async def run(tmp: str) -> dict:
    texts = questions()
    plain, (ptb, ptb_again) = await without_charts(f"sqlite+aiosqlite:///{tmp}/plain.db", texts)
    charts = await with_charts(f"sqlite+aiosqlite:///{tmp}/charts.db", texts)
    renders = await render_cpu_ms(f"sqlite+aiosqlite:///{tmp}/render.db", texts)
    ours = plain["cpu_ms_per_answer"] - ptb.cpu_ms
    ours_again = plain["cpu_ms_per_answer_asked_before"] - ptb_again.cpu_ms
    return {
        "without_charts": plain,
        "ptb_floor_questions_per_s": round(ptb.updates / ptb.wall, 1),
        "ptb_cpu_ms_per_update": round(ptb.cpu_ms, 2),
        "ptb_cpu_ms_per_update_asked_before": round(ptb_again.cpu_ms, 2),
        "our_cpu_ms_per_answer": round(ours, 2),
        "our_cpu_ms_per_answer_asked_before": round(ours_again, 2),
        "with_charts": {
            **charts,
            "chart_render_cpu_p50_ms": round(statistics.median(renders), 1),
            "chart_render_cpu_p90_ms": round(renders[int(len(renders) * 0.9)], 1),
            "distinct_charts_drawn": len(renders),
        },
        "targets": {
            "with_charts.answers_per_s": 25,
            "our_cpu_ms_per_answer": "at most ptb_cpu_ms_per_update",
            "our_cpu_ms_per_answer_asked_before": "at most ptb_cpu_ms_per_update_asked_before",
            "chart_render_cpu_p50_ms": 60,
        },
        "cores": len(os.sched_getaffinity(0)),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(tmp))
    print(json.dumps(result, indent=2))
    write("telegram_speed", result)


if __name__ == "__main__":
    main()
