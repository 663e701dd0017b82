"""Charts: drawn in worker processes within a time limit (a chart past it ends its pool, the
next starts a fresh one), kept per estimate so a repeated question is not drawn again."""

from bot.conversation.service import Conversation
from bot.telegram.charts import ChartJob, ChartPool, Charts
from tests.bot.conversation.talk import message

PNG = b"\x89PNG"


async def answered(storage, text: str):
    reply = await Conversation(storage).handle(message(text))
    assert reply.about_one_workload
    return reply


async def test_a_chart_past_its_time_limit_ends_its_pool_and_the_next_is_drawn(storage):
    drawing = (await answered(storage, "can I run llama 3 8b on a 4090?")).drawing()
    assert drawing is not None
    # A fresh worker first imports matplotlib (about a second): far past 1 ms.
    pool = ChartPool(workers=1, time_limit_s=0.001)
    try:
        charts = Charts(pool)
        job = ChartJob("k", drawing.estimate, "en", "GiB", drawing.curve)
        assert await charts.photo(job) is None
        pool.time_limit_s = 60
        png = await charts.photo(job)
        assert isinstance(png, bytes) and png.startswith(PNG)
    finally:
        pool.close()


async def test_a_chart_is_kept_per_estimate_and_then_by_telegrams_file_id(storage):
    pool = ChartPool(workers=1)
    try:
        charts = Charts(pool)
        reply = await answered(storage, "can I run llama 3 8b on a 4090?")
        first = await charts.prepare(reply)
        assert first is not None and first.est is not None
        png = await charts.photo(first)
        assert isinstance(png, bytes) and png.startswith(PNG)
        again = await charts.prepare(await answered(storage, "can I run llama 3 8b on a 4090?"))
        assert again is not None and again.est is None  # nothing to draw
        assert await charts.photo(again) == png
        charts.remember(again, "file-id-1")
        assert await charts.photo(again) == "file-id-1"
        other = await charts.prepare(await answered(storage, "can I run llama 3 70b on a 4090?"))
        assert other is not None and other.key != first.key and other.est is not None
    finally:
        pool.close()
