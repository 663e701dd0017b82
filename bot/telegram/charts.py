"""The memory chart of an answer: the answer's own estimate, drawn in worker processes,
cached per estimate.

Drawing takes matplotlib a tenth of a second or more of CPU: on the event loop (or in a thread,
holding the GIL for most of it) that stalls every other chat. The workers are separate
processes, started on first use; a chart that takes longer than its time limit ends its pool,
the stuck worker with it, and the next chart starts a fresh one. Most answers repeat a question
somebody asked before ("7B on a 4090"), so a drawn chart is kept per estimate: its PNG until
Telegram has it, then only Telegram's file id, which sends it again without an upload.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from multiprocessing.pool import Pool
from typing import Any

from estimator.result import Estimate

from ..conversation import time_budget
from ..conversation.reply import Reply
from ..render import numbers

log = logging.getLogger(__name__)
TIME_LIMIT_S = 10.0
CACHE_SIZE = 1024  # entries; a PNG is ~40-80 kB and is dropped once Telegram has the file id


def worker_count() -> int:
    """Leave a core to the event loop; at least one worker, at most four."""
    return max(1, min(4, len(os.sched_getaffinity(0)) - 1))


def _warm() -> None:
    """Pays matplotlib's import in the worker before the first chart waits for it."""
    from ..render import chart  # noqa: F401


def _draw(est: Estimate, lang: str, units: str, curve: list[tuple[int, int]] | None) -> bytes:
    """In a worker: the PNG."""
    from ..render.chart import memory_chart

    numbers.UNITS.set(units)
    return memory_chart(est, lang, curve)


class ChartPool:
    """Worker processes for charts, shared by every bot in the process."""

    def __init__(self, workers: int, time_limit_s: float = TIME_LIMIT_S) -> None:
        self.workers = workers
        self.time_limit_s = time_limit_s
        self._pool: Pool | None = None
        self._lock = threading.Lock()

    def started(self) -> Pool:
        """The workers, started now if they are not (a bot starts them when it starts, so that
        its first chart does not wait for them)."""
        with self._lock:
            if self._pool is None:
                # spawn, not fork: the bot's process has threads (database drivers, HTTP).
                context = multiprocessing.get_context("spawn")
                self._pool = context.Pool(self.workers, initializer=_warm)
                atexit.register(self.close)
            return self._pool

    async def draw(
        self, est: Estimate, lang: str, units: str, curve: list[tuple[int, int]] | None
    ) -> bytes:
        """The chart's PNG; TimeoutError past the time limit."""
        pool = self.started()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bytes] = loop.create_future()

        def settle(outcome: Any, failed: bool) -> None:
            if done.done():
                return
            if failed:
                done.set_exception(outcome)
            else:
                done.set_result(outcome)

        def report(outcome: Any, failed: bool = False) -> None:
            # Called on the pool's result thread.
            if not loop.is_closed():
                loop.call_soon_threadsafe(settle, outcome, failed)

        pool.apply_async(
            _draw,
            (est, lang, units, curve),
            callback=report,
            error_callback=lambda error: report(error, True),
        )
        try:
            return await asyncio.wait_for(done, self.time_limit_s)
        except TimeoutError:
            log.warning("a chart took over %.0f s: its workers are replaced", self.time_limit_s)
            self._end(pool)
            raise

    def _end(self, pool: Pool) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.terminate()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()


_shared: ChartPool | None = None


def shared_pool() -> ChartPool:
    global _shared
    if _shared is None:
        _shared = ChartPool(worker_count())
    return _shared


@dataclass(frozen=True, slots=True)
class ChartJob:
    key: str
    est: Estimate | None  # None when the chart is kept: nothing to draw
    lang: str
    units: str
    curve: list[tuple[int, int]] | None


@dataclass(slots=True)
class _Kept:
    png: bytes | None
    file_id: str | None = None


class Charts:
    """The charts of one bot: its own cache (Telegram's file ids belong to one bot), the
    process's shared pool."""

    def __init__(self, pool: ChartPool | None = None) -> None:
        self._pool = pool or shared_pool()
        self._kept: OrderedDict[str, _Kept] = OrderedDict()

    def start(self) -> None:
        self._pool.started()

    @staticmethod
    def wanted(reply: Reply) -> bool:
        """Answers about one workload have a chart, when the reader wants charts; questions,
        inverse answers and classical machine learning have no single breakdown to draw."""
        return reply.charts and reply.about_one_workload

    async def prepare(self, reply: Reply) -> ChartJob | None:
        """What to draw for `reply`; None when nothing (an estimate the chart cannot make)."""
        draft = reply.parsed.model_dump_json(exclude_none=True)
        key = "|".join((draft, reply.language, reply.units))
        if key in self._kept:
            self._kept.move_to_end(key)
            return ChartJob(key, None, reply.language, reply.units, None)
        # The drawing's memory-against-context curve takes a dozen estimates: off the loop.
        try:
            drawing = await time_budget.shared_pool().run(reply.drawing)
        except time_budget.OverBudget:
            return None
        if drawing is None:
            return None
        return ChartJob(key, drawing.estimate, reply.language, reply.units, drawing.curve)

    async def photo(self, job: ChartJob) -> bytes | str | None:
        """Telegram's file id when it has the chart, else its PNG (drawn now unless kept);
        None when it could not be drawn in time."""
        kept = self._kept.get(job.key)
        if kept is not None:
            if kept.file_id is not None:
                return kept.file_id
            if kept.png is not None:
                return kept.png
        if job.est is None:
            return None
        try:
            png = await self._pool.draw(job.est, job.lang, job.units, job.curve)
        except TimeoutError:
            return None
        self._keep(job.key, _Kept(png))
        return png

    def remember(self, job: ChartJob, file_id: str) -> None:
        """Telegram has the chart now: keep its file id, drop the PNG."""
        self._keep(job.key, _Kept(None, file_id))

    def forget(self, job: ChartJob) -> None:
        self._kept.pop(job.key, None)

    def _keep(self, key: str, kept: _Kept) -> None:
        self._kept[key] = kept
        self._kept.move_to_end(key)
        while len(self._kept) > CACHE_SIZE:
            self._kept.popitem(last=False)
