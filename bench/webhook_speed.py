"""Benchmark: two webhook replicas on one PostgreSQL (LLM_SIZER_TEST_POSTGRES_URL; a scratch
database is made and dropped), charts off, 5,000 updates from 200 chats, every tenth delivered
twice to a random replica. Each chat's updates are posted one after another, 32 chats at once.

Target: at least 150 answered questions per second together; zero duplicates and
zero losses. Each replica is its own `llm-sizer bot --webhook` process, as deployed; the fake
Bot API and the sender share this process. All of them and PostgreSQL share this machine's
cores. Prints the figures and writes bench/results/webhook_speed.json.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fake Bot API and the replica harness live with the tests

from results_file import write  # noqa: E402

from bot.telegram.webhook import SECRET_HEADER  # noqa: E402
from storage import Storage  # noqa: E402
from tests.bot.telegram.fake_bot_api import FakeBotApi  # noqa: E402
from tests.bot.telegram.test_webhook import SECRET, question  # noqa: E402
from tests.scratch import create_database, drop_database  # noqa: E402

TOKEN = "123456:SECRET-token-never-logged"
CHATS = 200
UPDATES = int(os.environ.get("BENCH_UPDATES", "5000"))
SENDERS = 32
DUPLICATES = 0.1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.asynccontextmanager
async def replica(fake: FakeBotApi, url: str) -> AsyncIterator[str]:
    """A `llm-sizer bot --webhook` process on `url`; yields its endpoint once it is healthy."""
    port = free_port()
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "TELEGRAM_API_FILE_URL": fake.base_file_url,
        "TELEGRAM_MAX_MESSAGES_PER_S": "1000",  # the fake has no flood limit
        "TELEGRAM_USER_BURST": "100000",  # each chat sends its 25 questions at once
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
        "TELEGRAM_WEBHOOK_PORT": str(port),
        "DATABASE_URL": url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "bot", "--webhook", env=env, cwd=ROOT
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(600):
                if process.returncode is not None:
                    raise SystemExit(f"a replica exited with {process.returncode}")
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as r:
                        if r.status == 200:
                            break
                await asyncio.sleep(0.1)
        yield f"http://127.0.0.1:{port}/telegram"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        await process.wait()


async def run(url: str) -> dict:
    rng = random.Random(1)
    async with FakeBotApi(token=TOKEN) as fake:
        async with await Storage.open(url) as storage:
            for user in range(1, CHATS + 1):
                row = await storage.users.ensure("telegram", user)
                await storage.users.set_settings(row.id, {"charts": False})
        chats = {user: [] for user in range(1, CHATS + 1)}
        for i in range(UPDATES):
            user = 1 + i % CHATS
            chats[user].append(fake.send_text(user, question(len(chats[user]) % 32)))
        async with replica(fake, url) as one, replica(fake, url) as two:
            order = rng.sample(sorted(chats), len(chats))
            deliveries = 0

            async def sender(session: aiohttp.ClientSession) -> None:
                nonlocal deliveries
                while order:
                    for update in chats[order.pop()]:
                        for _ in range(2 if rng.random() < DUPLICATES else 1):
                            target = rng.choice((one, two))
                            headers = {SECRET_HEADER: SECRET}
                            async with session.post(target, json=update, headers=headers) as r:
                                assert r.status == 200
                            deliveries += 1

            start = time.perf_counter()
            async with aiohttp.ClientSession() as session:
                await asyncio.gather(*(sender(session) for _ in range(SENDERS)))
            elapsed = time.perf_counter() - start
        per_chat = {user: len(fake.messages(user)) for user in chats}
    return {
        "updates": UPDATES,
        "deliveries_with_duplicates": deliveries,
        "replicas": 2,
        "answered": sum(per_chat.values()),
        "answered_twice": sum(max(0, per_chat[u] - len(chats[u])) for u in chats),
        "lost": sum(max(0, len(chats[u]) - per_chat[u]) for u in chats),
        "questions_per_s": round(UPDATES / elapsed, 1),
        "targets": {"questions_per_s": 150, "answered_twice": 0, "lost": 0},
    }


async def main_async() -> dict:
    server = os.environ.get("LLM_SIZER_TEST_POSTGRES_URL")
    if not server:
        raise SystemExit(
            "set LLM_SIZER_TEST_POSTGRES_URL (a PostgreSQL server to make a scratch database on)"
        )
    url = await create_database(server)
    try:
        return await run(url.render_as_string(hide_password=False))
    finally:
        await drop_database(url)


def main() -> None:
    result = asyncio.run(main_async())
    print(json.dumps(result, indent=2))
    write("webhook_speed", result)


if __name__ == "__main__":
    main()
