"""Hub lookups for a service answering many people: in their own few threads, one request per
repository however many ask for it at once, and within each user's limit.

A lookup is mostly waiting (up to the Hub client's timeout), so it runs in a pool of its own:
waiting on the Hub takes no thread an answer or a chart needs. Messages naming the same
repository while its lookup is under way wait for that lookup instead of making their own. A
user's limit is spent only on lookups that go to the Hub: a follow-up about a repository the
process has fetched (or failed to fetch, remembered for the Hub client's FAILURE_TTL_S) costs
nothing. The lookup fills the Hub client's caches; the answer then resolves the model from
them without waiting."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from estimator.errors import EstimatorError

from . import needs_download, resolve_model
from .hub import CACHE_SIZE, FAILURE_TTL_S, Hub

# Lookups at once: each waits up to the Hub client's TIMEOUT_S; a few keep a burst of new
# repositories moving without opening many connections to the Hub.
WORKERS = 4
# The Hub client keeps CACHE_SIZE responses, two per repository (its config and its counts).
KNOWN = CACHE_SIZE // 2


class HubLookups:
    """`await fetch(models, allowed)` before answering: the Hub's models among `models` looked
    up; raises EstimatorError("hub_rate_limited") when a lookup is due and `allowed()` (a
    user's HubLimiter) says no. Failures are not raised here: the answer meets them,
    remembered, where it resolves the model."""

    def __init__(self, *, client: Hub | None = None, workers: int = WORKERS) -> None:
        self._client = client
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="hub")
        self._flights: dict[str, asyncio.Future[None]] = {}
        self._known: OrderedDict[str, float] = OrderedDict()  # repository -> known until
        self._lock = threading.Lock()

    async def fetch(
        self, models: Iterable[str | None], allowed: Callable[[], bool] | None = None
    ) -> None:
        wanted = {m.strip() for m in models if m and needs_download(m.strip())}
        await asyncio.gather(*(self._one(repo, allowed) for repo in sorted(wanted)))

    async def _one(self, repo: str, allowed: Callable[[], bool] | None) -> None:
        if self._is_known(repo):
            return
        flight = self._flights.get(repo)
        if flight is None:
            if allowed is not None and not allowed():
                raise EstimatorError("hub_rate_limited")
            loop = asyncio.get_running_loop()
            flight = asyncio.ensure_future(loop.run_in_executor(self._pool, self._look_up, repo))
            self._flights[repo] = flight
            flight.add_done_callback(lambda _: self._flights.pop(repo, None))
        await asyncio.shield(flight)

    def _look_up(self, repo: str) -> None:
        """In the pool: the lookup, whose outcome the Hub client keeps."""
        try:
            resolve_model(repo, files=False, client=self._client)
            until = float("inf")
        except EstimatorError:
            until = time.monotonic() + FAILURE_TTL_S
        except Exception:
            return  # not remembered: the answer meets it, and says so, where it resolves the model
        with self._lock:
            self._known[repo] = until
            self._known.move_to_end(repo)
            while len(self._known) > KNOWN:
                self._known.popitem(last=False)

    def _is_known(self, repo: str) -> bool:
        with self._lock:
            until = self._known.get(repo)
            if until is None:
                return False
            if until <= time.monotonic():
                del self._known[repo]
                return False
            self._known.move_to_end(repo)
            return True


_shared: HubLookups | None = None


def shared_lookups() -> HubLookups:
    """The process's lookups, shared by every conversation in it (one flight per repository)."""
    global _shared
    if _shared is None:
        _shared = HubLookups()
    return _shared
