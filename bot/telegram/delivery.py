"""Requests to the Bot API that outlast its bad moments.

Telegram's flood limits are PTB's AIORateLimiter (it waits out a 429's retry_after, pausing the
other requests too). On top of it, a request that failed for a reason that passes (a 5xx, a
network error, a timeout, a 429 beyond the limiter's own retries) is tried again with growing
pauses, for up to a window; a request Telegram refused for what it is (400 Bad Request, 403
blocked) is not. What still fails after the window is the caller's to keep (the outbox).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import BadRequest, NetworkError, RetryAfter
from telegram.ext import AIORateLimiter

log = logging.getLogger(__name__)

FIRST_PAUSE_S = 0.1
MAX_PAUSE_S = 8.0
# 429s the limiter waits out itself before this class sees one: five in a row lost an answer
# with PTB's default of none.
LIMITER_RETRIES = 5


def passing(error: BaseException) -> bool:
    """Whether trying again later may succeed: server errors, the network, timeouts, 429s."""
    if isinstance(error, RetryAfter):
        return True
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


def pause_after(error: BaseException, previous: float) -> float:
    """How long to wait before the next try: Telegram's retry_after when it gave one, else
    twice the previous pause (from FIRST_PAUSE_S up to MAX_PAUSE_S)."""
    if isinstance(error, RetryAfter):
        wait = error.retry_after  # seconds, or a timedelta when PTB_TIMEDELTA is set
        return float(wait) if isinstance(wait, int | float) else wait.total_seconds()
    return min(MAX_PAUSE_S, previous * 2) if previous else FIRST_PAUSE_S


class PatientLimiter(AIORateLimiter):
    """AIORateLimiter, with requests that failed for a passing reason tried again for up to
    `window_s` seconds."""

    def __init__(self, *, window_s: float, overall_max_rate: float) -> None:
        super().__init__(
            overall_max_rate=overall_max_rate, overall_time_period=1, max_retries=LIMITER_RETRIES
        )
        self.window_s = window_s

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.window_s
        pause = 0.0
        while True:
            try:
                return await super().process_request(
                    callback, args, kwargs, endpoint, data, rate_limit_args
                )
            except (NetworkError, RetryAfter) as error:
                if not passing(error):
                    raise
                pause = pause_after(error, pause)
                if loop.time() + pause > deadline:
                    raise
                log.warning("%s failed (%s); trying again in %.2f s", endpoint, error, pause)
                await asyncio.sleep(pause)
