"""Answers computed off the event loop, each within a time budget.

Working out an answer is pure Python (estimates, plans, rules, the reply's text): run on the
event loop it stalls every other chat for as long as it takes, and a question that makes it
take long would stall them for good. So answers run in a few worker threads, and one that is
still running when its budget is spent is stopped: the awaiting side gives up at once with
`OverBudget`, and the worker thread gets `OverBudget` raised inside the answer (CPython's
PyThreadState_SetAsyncExc, which takes effect at the next bytecode the thread runs), so it is
free for the next answer instead of finishing work nobody waits for.

The worker threads share the GIL with the event loop, which gets its turn at least every
switch interval (sys.getswitchinterval, 5 ms), so a long answer delays other chats by
milliseconds, not by its whole length. A stopped answer leaves nothing half-written: answers
compute and return values; storing them is the awaiting side's work."""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import queue
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import Any, TypeVar

R = TypeVar("R")

# The slowest answers measured take about 0.5 s of CPU (2,000 characters of noise, a group's
# team verdicts, bench/conversation_speed.py and the 200-540 ms); with the other
# workers and the event loop sharing the GIL an answer's wall time can be a few times its CPU.
# Ten times the slowest leaves room for that on two busy cores.
BUDGET_S = 5.0
# Several at once, so that one slow answer is not in the way of the quick ones behind it; more
# would not add speed, since they share one GIL.
WORKERS = 4
# How long a worker waits for a stop that is still on its way (it arrives at the next
# bytecode; a stop an answer swallowed never arrives).
_ABSORB_S = 1.0


class OverBudget(BaseException):
    """An answer ran past its time budget and was stopped. A BaseException, like
    KeyboardInterrupt, so that the answer's own `except Exception` cannot swallow it."""


def _interrupt(thread_id: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(OverBudget)
    )


def _settle(future: asyncio.Future[Any], outcome: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(outcome)
    else:
        future.set_exception(error)


class _Job:
    def __init__(self, loop: asyncio.AbstractEventLoop, work: Callable[[], Any]) -> None:
        self.loop = loop
        self.work = work
        self.started: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[Any] = loop.create_future()
        self._lock = threading.Lock()
        self._thread: int | None = None
        self._stopped = False

    def _report(
        self, future: asyncio.Future[Any], outcome: Any, error: BaseException | None = None
    ) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(_settle, future, outcome, error)

    def run(self) -> None:
        """In a worker thread."""
        with self._lock:
            if self._stopped:
                return  # given up before it began
            self._thread = threading.get_ident()
        self._report(self.started, None)
        outcome, error = None, None
        try:
            outcome = self.work()
        except BaseException as exc:  # handed to the awaiting side
            error = exc
        with self._lock:
            self._thread = None
            stopped = self._stopped
        if stopped:
            if not isinstance(error, OverBudget):
                _absorb()
            return
        self._report(self.done, outcome, error)

    def stop(self) -> None:
        """Nobody waits for this answer any more: it does not start, or it is interrupted."""
        with self._lock:
            self._stopped = True
            if self._thread is not None:
                _interrupt(self._thread)


def _absorb() -> None:
    """Takes the stop that was sent while the answer was ending, so that it cannot land in the
    next one."""
    until = time.monotonic() + _ABSORB_S
    try:
        while time.monotonic() < until:
            time.sleep(0.001)
    except OverBudget:
        pass


class AnswerPool:
    """`await run(work, *args)`: `work(*args)` in a worker thread, with this context (units,
    files), stopped with OverBudget past `budget_s` of running."""

    def __init__(self, workers: int = WORKERS, budget_s: float = BUDGET_S) -> None:
        self.workers = workers
        self.budget_s = budget_s
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self.workers:
                thread = threading.Thread(target=self._serve, name="answer", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            with suppress(OverBudget):  # a stop that landed as the answer was handed back
                job.run()

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        self._start()
        context = contextvars.copy_context()
        job = _Job(asyncio.get_running_loop(), partial(context.run, work, *args))
        self._jobs.put(job)
        try:
            await job.started
            result: R = await asyncio.wait_for(job.done, self.budget_s)
        except TimeoutError:
            job.stop()
            raise OverBudget from None
        except BaseException:
            job.stop()
            raise
        return result


_shared: AnswerPool | None = None


def shared_pool() -> AnswerPool:
    """The process's answer workers, shared by every conversation in it."""
    global _shared
    if _shared is None:
        _shared = AnswerPool()
    return _shared
