"""A per-user rate limit: everyone gets a burst of messages and then a steady rate; what comes
faster is not answered, and the sender is told so once, politely.

A token bucket per user (`burst` tokens, refilled at `per_minute` a minute; the bot's settings
say how many): a person typing questions and pressing buttons stays far inside it, a script
sending hundreds does not. Kept
in memory, per process, for the users seen lately (a bounded map): it protects this process's
time, and a restart forgiving a burst costs nothing.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

KEPT_USERS = 100_000


class Verdict(Enum):
    ANSWER = "answer"
    REFUSE_AND_SAY = "refuse_and_say"  # the first refusal since the last answered message
    REFUSE = "refuse"


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    told: bool = False


class Throttle:
    def __init__(
        self, burst: int, per_minute: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_minute / 60
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def check(self, user: str) -> Verdict:
        """Whether to answer this message of `user` (and spend a token on it)."""
        now = self._clock()
        bucket = self._buckets.pop(user, None) or _Bucket(float(self.burst), now)
        self._buckets[user] = bucket  # the most recent last, for dropping the oldest
        if len(self._buckets) > KEPT_USERS:
            self._buckets.popitem(last=False)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.per_second)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.told = False
            return Verdict.ANSWER
        if bucket.told:
            return Verdict.REFUSE
        bucket.told = True
        return Verdict.REFUSE_AND_SAY

    def wait_s(self, user: str) -> float:
        """Seconds until `user` may send the next message."""
        bucket = self._buckets.get(user)
        if bucket is None or bucket.tokens >= 1:
            return 0.0
        return (1 - bucket.tokens) / self.per_second
