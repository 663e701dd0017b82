"""What one message reads and writes (storage.turns), against the repositories it stands in for,
on SQLite and PostgreSQL."""

from datetime import timedelta

import pytest

from storage import HardwareSpec, NewQuery, Storage, StorageError

RTX_4090 = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64)
M3_MAX = HardwareSpec(apple_chip="M3 Max", apple_memory_gb=64)


def question(user_id: int, chat_id: int, text: str = "can I fine-tune 7B on 24GB?") -> NewQuery:
    return NewQuery(
        user_id=user_id, chat_id=chat_id, text=text, inputs={"model": "7B"}, status="answered"
    )


async def test_first_message_creates_the_user_and_the_chat(storage: Storage):
    found = await storage.turns.load("telegram", 42, 42, "private", language="nl")
    assert found.user == await storage.users.find("telegram", 42)
    assert found.chat == await storage.chats.find("telegram", 42)
    assert found.user.language == "nl" and found.chat.type == "private"
    assert found.state is None and found.default_profile is None


async def test_reads_what_the_repositories_read(storage: Storage):
    user = await storage.users.ensure("telegram", 7)
    await storage.profiles.save(user.id, "laptop", M3_MAX)
    await storage.profiles.save(user.id, "desk", RTX_4090, text="RTX 4090", make_default=True)
    chat = await storage.chats.ensure("telegram", -100, "supergroup", title="ML team")
    await storage.conversations.put(chat.id, user.id, {"draft": {"model": "7B"}})

    found = await storage.turns.load("telegram", 7, -100, "supergroup", title="ML team")
    assert found.user == await storage.users.get(user.id)
    assert found.chat == await storage.chats.get(chat.id)
    assert found.default_profile == await storage.profiles.default(user.id)
    assert found.default_profile.name == "desk" and found.default_profile.text == "RTX 4090"
    assert found.state == await storage.conversations.get(chat.id, user.id)


async def test_another_users_state_and_profile_stay_theirs(storage: Storage):
    alice = await storage.users.ensure("telegram", 1)
    await storage.profiles.save(alice.id, "desk", RTX_4090)
    group = await storage.chats.ensure("telegram", -5, "group")
    await storage.conversations.put(group.id, alice.id, {"draft": {"model": "70B"}})
    private = await storage.chats.ensure("telegram", 1, "private")

    bob = await storage.turns.load("telegram", 2, -5, "group")
    assert bob.state is None and bob.default_profile is None
    alice_alone = await storage.turns.load("telegram", 1, 1, "private")
    assert alice_alone.chat.id == private.id and alice_alone.state is None
    assert alice_alone.default_profile is not None


async def test_language_title_and_type_follow_the_platform(storage: Storage):
    await storage.turns.load("telegram", 3, -9, "group", language="en", title="Lab")
    found = await storage.turns.load("telegram", 3, -9, "supergroup", language="nl", title="Lab 2")
    assert found.user.language == "nl"
    assert (found.chat.type, found.chat.title) == ("supergroup", "Lab 2")
    unchanged = await storage.turns.load("telegram", 3, -9, "supergroup", title="Lab 2")
    assert unchanged.user.language == "nl"  # no language sent: the stored one stays
    assert unchanged.user.id == found.user.id and unchanged.chat.id == found.chat.id


async def test_save_stores_the_state_and_the_question_together(storage: Storage):
    found = await storage.turns.load("local", "alice", "terminal", "private")
    user_id, chat_id = found.user.id, found.chat.id
    await storage.turns.save(
        chat_id, user_id, {"draft": {"model": "7B"}}, question(user_id, chat_id)
    )
    await storage.turns.save(
        chat_id, user_id, {"draft": {"model": "13B"}}, question(user_id, chat_id, "and 13B?")
    )
    again = await storage.turns.load("local", "alice", "terminal", "private")
    assert again.state.state == {"draft": {"model": "13B"}}
    assert [q.text for q in await storage.queries.recent_for_user(user_id)] == [
        "and 13B?",
        "can I fine-tune 7B on 24GB?",
    ]


async def test_an_old_state_is_not_read(storage: Storage):
    found = await storage.turns.load("local", "bob", "terminal", "private")
    await storage.turns.save(
        found.chat.id, found.user.id, {"draft": {}}, question(found.user.id, found.chat.id)
    )
    args = ("local", "bob", "terminal", "private")
    assert (await storage.turns.load(*args, max_age=timedelta(hours=12))).state is not None
    assert (await storage.turns.load(*args, max_age=timedelta(0))).state is None
    assert (await storage.turns.load(*args)).state is not None


async def test_a_refused_state_stores_neither(storage: Storage):
    found = await storage.turns.load("local", "carol", "terminal", "private")
    user_id, chat_id = found.user.id, found.chat.id
    await storage.turns.save(
        chat_id, user_id, {"draft": {"model": "7B"}}, question(user_id, chat_id)
    )
    with pytest.raises(StorageError) as refused:
        await storage.turns.save(
            chat_id, user_id, {"big": "x" * 70_000}, question(user_id, chat_id, "lost?")
        )
    assert refused.value.code == "document_too_large"
    again = await storage.turns.load("local", "carol", "terminal", "private")
    assert again.state.state == {"draft": {"model": "7B"}}
    assert len(await storage.queries.recent_for_user(user_id)) == 1


async def test_bad_ids_are_refused(storage: Storage):
    with pytest.raises(StorageError) as refused:
        await storage.turns.load("telegram", "", 1, "private")
    assert refused.value.code == "name_empty"
    with pytest.raises(StorageError) as refused:
        await storage.turns.load("telegram", 1, 1, "private", language="klingon!")
    assert refused.value.code == "bad_language"


async def test_a_failed_question_rolls_the_state_back(storage: Storage):
    found = await storage.turns.load("local", "dave", "terminal", "private")
    user_id, chat_id = found.user.id, found.chat.id
    await storage.turns.save(
        chat_id, user_id, {"draft": {"model": "7B"}}, question(user_id, chat_id)
    )
    with pytest.raises(StorageError) as refused:  # the question names a user that is not there
        await storage.turns.save(
            chat_id, user_id, {"draft": {"model": "70B"}}, question(user_id + 1000, chat_id)
        )
    assert refused.value.code == "db_conflict"
    again = await storage.turns.load("local", "dave", "terminal", "private")
    assert again.state.state == {"draft": {"model": "7B"}}
