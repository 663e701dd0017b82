"""Answers off the event loop within a time budget: an answer past it is stopped (its worker
free for the next), the reader gets one line in their language, and nothing is lost."""

import asyncio
import contextlib
import threading
import time

import pytest

from bot.conversation import service
from bot.conversation.service import Conversation
from bot.conversation.time_budget import AnswerPool, OverBudget
from bot.render import numbers
from tests.bot.conversation.talk import message


def forever() -> None:
    while True:
        pass


async def test_an_answer_past_its_budget_is_stopped_and_its_worker_freed():
    pool = AnswerPool(workers=1, budget_s=0.2)
    started = time.monotonic()
    with pytest.raises(OverBudget):
        await pool.run(forever)
    assert time.monotonic() - started < 2
    # The one worker answers again: the endless answer no longer holds it.
    assert await asyncio.wait_for(pool.run(sum, [1, 2, 3]), 5) == 6


async def test_the_answer_its_errors_and_the_readers_context_come_back():
    pool = AnswerPool(workers=2, budget_s=5)
    numbers.UNITS.set("GB")
    assert await pool.run(numbers.UNITS.get) == "GB"
    assert await pool.run(threading.current_thread) is not threading.current_thread()
    with pytest.raises(ZeroDivisionError):
        await pool.run(divmod, 1, 0)


async def test_stops_at_any_moment_leave_every_worker_working():
    pool = AnswerPool(workers=2, budget_s=0)
    for i in range(200):  # stopped before, while and just after running
        pool.budget_s = 0.0005 * (i % 7)
        with contextlib.suppress(OverBudget):
            await pool.run(sum, range(20_000))
    pool.budget_s = 5
    assert await asyncio.gather(*(pool.run(abs, -i) for i in range(20))) == list(range(20))


async def test_an_answer_nobody_waits_for_does_not_run():
    pool = AnswerPool(workers=1, budget_s=0.3)
    ran: list[int] = []
    busy = asyncio.ensure_future(pool.run(forever))
    waiting = asyncio.ensure_future(pool.run(ran.append, 1))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(OverBudget):
        await busy
    await pool.run(ran.append, 2)
    assert ran == [2]


@pytest.mark.parametrize(
    ("question", "lang", "start"),
    [
        ("can I run it on an RTX 4090?", "en", "That took too long"),
        ("kan ik het draaien op een RTX 4090?", "nl", "Dat kostte te lang"),
    ],
)
async def test_over_budget_is_one_line_and_the_question_is_kept(
    storage, monkeypatch, question, lang, start
):
    conversation = Conversation(storage, pool=AnswerPool(budget_s=0.2))
    ask = await conversation.handle(message(question))
    assert ask.status == "need_more"
    quick = service.answer
    monkeypatch.setattr(service, "answer", lambda *args: forever())
    over = await conversation.handle(message("Qwen2.5-14B"))
    assert over.status == "error" and over.text.startswith(start) and "\n" not in over.text
    monkeypatch.setattr(service, "answer", quick)
    answered = await conversation.handle(message("Qwen2.5-14B"))
    assert answered.status == "answered" and answered.language == lang
    assert answered.body["inputs"]["gpu"] == "GeForce RTX 4090"
