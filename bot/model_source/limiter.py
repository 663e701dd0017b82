"""A per-user limit on Hub lookups (a token bucket per key): Telegram users name repositories
freely, and each lookup costs the Hub and up to a few seconds; the catalog needs no limit."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict


class HubLimiter:
    """`allow(key)` is True for at most `burst` lookups at once and `per_minute` a minute.

    The defaults leave a person comparing a few fine-tunes of their own untouched (a lookup is
    only spent on a repository the process has not fetched lately, see lookups.HubLookups)
    while a script naming repository after repository costs the Hub one request every 10 s;
    `max_keys` bounds the memory the buckets take (about 100 bytes each)."""

    def __init__(self, per_minute: float = 6, burst: int = 3, max_keys: int = 10_000) -> None:
        self._rate = per_minute / 60
        self._burst = burst
        self._max_keys = max_keys
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: object, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(key, (float(self._burst), now))
            tokens = min(self._burst, tokens + (now - last) * self._rate)
            allowed = tokens >= 1
            self._buckets[key] = (tokens - 1 if allowed else tokens, now)
            while len(self._buckets) > self._max_keys:
                self._buckets.popitem(last=False)
        return allowed
