"""Questions naming Hugging Face Hub repositories, through the service against a loopback fake
Hub: each user's lookups limited where the service is given a limit (Telegram), not at the
terminal; follow-ups about a fetched repository cost nothing."""

import pytest

from bot.conversation.service import Conversation
from bot.model_source import Hub, hub
from bot.model_source.limiter import HubLimiter
from bot.model_source.lookups import HubLookups
from tests.bot.conversation.talk import message
from tests.bot.model_source.fake_hub import FakeHub, running
from tests.bot.model_source.test_hub import TINY

LIMITED = "too many Hugging Face Hub lookups"


def configs(fake: FakeHub, repo: str) -> int:
    return fake.hits.count(f"/{repo}/resolve/main/config.json")


@pytest.fixture
def fake(monkeypatch):
    found = FakeHub()
    found.configs["someone/tiny"] = TINY
    with running(found):
        monkeypatch.setattr(hub, "_default", Hub(found.url, token=""))
        yield found


async def test_each_user_has_a_limit_on_new_repositories(storage, fake):
    bot = Conversation(storage, hub_limiter=HubLimiter(per_minute=1, burst=2), lookups=HubLookups())
    first = await bot.handle(message("can I run someone/tiny on a 4090?"))
    assert first.status == "answered"
    for follow_up in ("and with 8k context?", "and in int4?"):
        assert (await bot.handle(message(follow_up))).status == "answered"
    missing = await bot.handle(message("can I run someone/missing-a on a 4090?"))
    assert missing.status == "error" and LIMITED not in missing.text
    limited = await bot.handle(message("can I run someone/missing-b on a 4090?"))
    assert limited.status == "error" and limited.text.startswith(LIMITED)
    other = await bot.handle(message("can I run someone/missing-b on a 4090?", user="bob"))
    assert other.status == "error" and LIMITED not in other.text
    assert configs(fake, "someone/tiny") == 1
    assert configs(fake, "someone/missing-b") == 1  # bob's; alice's was refused before asking


async def test_the_terminal_has_no_limit(storage, fake):
    terminal = Conversation(storage, local_files=True, lookups=HubLookups())
    for n in range(5):
        reply = await terminal.handle(message(f"can I run someone/missing-{n} on a 4090?"))
        assert reply.status == "error" and LIMITED not in reply.text
