"""A reply worked out once is given again to whoever asks the same question, and only then: not
to a follow-up that means something else, a reader with other units, a group's team, or a
question that reads the Hub or the disk."""

from bot.conversation.dialogue import State, step
from bot.conversation.parse import read
from bot.conversation.preferences import Preferences
from bot.conversation.reply import Reply
from bot.conversation.reply_cache import ReplyCache
from bot.conversation.service import Conversation, Incoming
from tests.bot.conversation.talk import message

QUESTION = "can I run llama 3.1 8b on a 4090 with 32k context?"


def incoming(text: str, user: str, chat: str | None = None, chat_type="private") -> Incoming:
    return Incoming(
        platform="telegram",
        chat_id=chat or user,
        chat_type=chat_type,
        user_id=user,
        text=text,
        language="en",
    )


async def test_the_same_question_from_another_user_is_answered_from_the_first(storage):
    conversation = Conversation(storage)
    first = await conversation.handle(incoming(QUESTION, "1"))
    second = await conversation.handle(incoming(QUESTION, "2"))

    assert (conversation.replies.misses, conversation.replies.hits) == (1, 1)
    assert second.text == first.text and second.verdict == first.verdict is not None
    # Each asker's question is stored, answered from the cache or not.
    for user in ("1", "2"):
        row = await storage.users.find("telegram", user)
        assert [q.text for q in await storage.queries.recent_for_user(row.id)] == [QUESTION]


async def test_a_follow_up_is_answered_for_the_question_it_follows(storage):
    conversation = Conversation(storage)
    await conversation.handle(incoming("can I run llama 3.1 8b on a 4090?", "1"))
    on_8b = await conversation.handle(incoming("and with 32k context?", "1"))
    await conversation.handle(incoming("can I run qwen2.5 32b on a 4090?", "2"))
    on_32b = await conversation.handle(incoming("and with 32k context?", "2"))

    assert conversation.replies.hits == 0
    assert on_8b.parsed.model == "Llama-3.1-8B" and on_32b.parsed.model == "Qwen2.5-32B"
    assert on_8b.total_bytes != on_32b.total_bytes


async def test_readers_with_other_units_get_their_own_numbers(storage):
    conversation = Conversation(storage)
    gib = await conversation.handle(incoming(QUESTION, "1"))
    user = await storage.users.ensure("telegram", "2")
    await storage.users.set_settings(user.id, {"units": "GB"})
    gb = await conversation.handle(incoming(QUESTION, "2"))

    assert conversation.replies.hits == 0
    assert "GiB" in gib.text and "GiB" not in gb.text and " GB" in gb.text


async def test_a_groups_team_lines_stay_in_the_group(storage):
    conversation = Conversation(storage)
    group = await conversation.handle(incoming(QUESTION, "1", chat="-100", chat_type="group"))
    alone = await conversation.handle(incoming(QUESTION, "2"))

    assert conversation.replies.hits == 1
    assert group.section("team") is not None
    assert alone.section("team") is None


async def test_the_terminal_keeps_nothing(storage):
    """A question in the terminal may name a file on disk, which may change in between."""
    conversation = Conversation(storage, local_files=True)
    for _ in range(2):
        await conversation.handle(message(QUESTION))
    assert (conversation.replies.hits, conversation.replies.misses) == (0, 0)


def key_of(text: str) -> object:
    turn = step(State(), read(text), text)
    return ReplyCache.key(turn, None, Preferences(), "en", ())


def test_a_hub_repository_is_never_kept():
    assert key_of("can I run someorg/some-new-model on a 4090?") is None
    assert key_of("can I run meta-llama/Llama-3.1-8B on a 4090?") is not None  # the catalog's


def test_settings_that_change_numbers_are_in_the_key():
    turn = step(State(), read(QUESTION), QUESTION)
    keys = {
        ReplyCache.key(turn, None, prefs, lang, ())
        for prefs in (Preferences(), Preferences(units="GB"), Preferences(engine="vllm"))
        for lang in ("en", "nl")
    }
    keys.add(ReplyCache.key(turn, None, Preferences(kwh_price=0.3), "en", ()))
    assert len(keys) == 7
    # Charts and the chosen language are the front end's, not the answer's.
    assert ReplyCache.key(turn, None, Preferences(charts=False, language="nl"), "en", ()) in keys


def test_the_oldest_reply_goes_first():
    cache = ReplyCache(size=2)
    replies = [Reply(status="answered", language="en", text=str(i)) for i in range(3)]
    for i, reply in enumerate(replies[:2]):
        cache.put(i, reply)
    assert cache.get(0) is replies[0]  # now the newest
    cache.put(2, replies[2])
    assert cache.get(1) is None
    assert cache.get(0) is replies[0] and cache.get(2) is replies[2]
