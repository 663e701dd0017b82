"""Hub lookups for the bot against a loopback fake Hub: one request per repository however many
ask at once, a user's limit spent only on requests, in threads of their own."""

import asyncio
import threading

import pytest

from bot.model_source import Hub
from bot.model_source.limiter import HubLimiter
from bot.model_source.lookups import HubLookups
from estimator.errors import EstimatorError
from tests.bot.model_source.fake_hub import FakeHub, running
from tests.bot.model_source.test_hub import TINY


@pytest.fixture
def hub():
    fake = FakeHub()
    fake.configs["someone/tiny"] = TINY
    with running(fake):
        yield fake


def config_hits(fake: FakeHub, repo: str) -> int:
    return sum(1 for path in fake.hits if path == f"/{repo}/resolve/main/config.json")


async def test_ten_messages_naming_one_missing_repository_make_one_request(hub):
    # The client's own memory of failures off: only the lookups' single flight saves requests.
    lookups = HubLookups(client=Hub(hub.url, token="", failure_ttl_s=0))
    await asyncio.gather(*(lookups.fetch(["someone/missing-7b"]) for _ in range(10)))
    assert config_hits(hub, "someone/missing-7b") == 1
    for _ in range(10):  # and after it, for the Hub client's FAILURE_TTL_S
        await lookups.fetch(["someone/missing-7b"])
    assert config_hits(hub, "someone/missing-7b") == 1


async def test_a_found_repository_is_looked_up_once_and_fills_the_clients_cache(hub):
    client = Hub(hub.url, token="")
    lookups = HubLookups(client=client)
    await asyncio.gather(*(lookups.fetch(["someone/tiny", None, "7B"]) for _ in range(5)))
    assert client.requests == 2  # its config and its parameter count; "7B" needs no Hub
    await lookups.fetch(["someone/tiny"])
    assert client.requests == 2


async def test_the_limit_is_spent_only_on_requests(hub):
    limiter = HubLimiter(per_minute=1, burst=2)
    asked: list[str] = []

    def allowed() -> bool:
        asked.append("u")
        return limiter.allow("u", now=0)

    lookups = HubLookups(client=Hub(hub.url, token=""))
    await lookups.fetch(["someone/tiny"], allowed)
    for _ in range(5):  # follow-ups about a repository fetched already cost nothing
        await lookups.fetch(["someone/tiny"], allowed)
    await lookups.fetch(["someone/missing-a"], allowed)
    assert len(asked) == 2
    with pytest.raises(EstimatorError) as e:
        await lookups.fetch(["someone/missing-b"], allowed)
    assert e.value.code == "hub_rate_limited"
    assert config_hits(hub, "someone/missing-b") == 0
    # Catalog models and sizes never ask.
    await lookups.fetch(["Qwen/Qwen2.5-7B-Instruct", "70B"], allowed)
    assert len(asked) == 3


async def test_lookups_wait_in_their_own_threads(hub):
    names: list[str] = []

    class Recording(Hub):
        def config(self, repo: str) -> dict:
            names.append(threading.current_thread().name)
            return super().config(repo)

    await HubLookups(client=Recording(hub.url, token="")).fetch(["someone/tiny"])
    assert len(names) == 1 and names[0].startswith("hub")
