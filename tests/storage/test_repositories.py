"""Each repository against a real database, on SQLite and PostgreSQL."""

from datetime import UTC, datetime, timedelta

import pytest

from storage import HardwareSpec, NewQuery, Storage, StorageError

RTX_4090 = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64)
TWO_3090 = HardwareSpec(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24, ram_gb=128)
M3_MAX = HardwareSpec(apple_chip="M3 Max", apple_memory_gb=64)


async def test_users_are_created_once_and_keep_their_language(storage: Storage):
    first = await storage.users.ensure("telegram", 42, language="nl")
    again = await storage.users.ensure("telegram", "42")
    assert again.id == first.id and again.language == "nl"
    switched = await storage.users.ensure("telegram", 42, language="en")
    assert switched.id == first.id and switched.language == "en"
    other = await storage.users.ensure("local", "42")
    assert other.id != first.id and other.platform == "local"
    assert await storage.users.find("telegram", 43) is None
    assert first.created_at.tzinfo is not None


async def test_user_settings_round_trip(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    updated = await storage.users.set_settings(user.id, {"units": "GiB", "nested": {"a": [1, 2]}})
    assert (await storage.users.get(user.id)).settings == updated.settings
    assert updated.settings["nested"] == {"a": [1, 2]}
    with pytest.raises(StorageError) as refused:
        await storage.users.set_language(user.id, "not a language")
    assert refused.value.code == "bad_language"


async def test_first_profile_is_the_default_and_use_moves_it(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    laptop = await storage.profiles.save(user.id, "Laptop", RTX_4090, text="RTX 4090, 64GB RAM")
    lab = await storage.profiles.save(user.id, "lab server", TWO_3090)
    assert laptop.is_default and not lab.is_default
    assert laptop.name == "laptop" and laptop.text == "RTX 4090, 64GB RAM"
    assert (await storage.profiles.default(user.id)).name == "laptop"
    await storage.profiles.use(user.id, "LAB  server")
    profiles = await storage.profiles.of_user(user.id)
    assert [(p.name, p.is_default) for p in profiles] == [("lab server", True), ("laptop", False)]
    assert (await storage.profiles.default(user.id)).hardware == TWO_3090


async def test_saving_an_existing_name_replaces_its_hardware(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    first = await storage.profiles.save(user.id, "desk", RTX_4090)
    second = await storage.profiles.save(user.id, "desk", M3_MAX, text="M3 Max 64GB")
    assert second.id == first.id and second.hardware == M3_MAX and second.is_default
    assert len(await storage.profiles.of_user(user.id)) == 1


async def test_make_default_on_save(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(user.id, "a", RTX_4090)
    b = await storage.profiles.save(user.id, "b", M3_MAX, make_default=True)
    assert b.is_default
    assert [p.name for p in await storage.profiles.of_user(user.id) if p.is_default] == ["b"]


async def test_deleting_the_default_promotes_another(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(user.id, "a", RTX_4090)
    await storage.profiles.save(user.id, "b", M3_MAX)
    after = await storage.profiles.delete(user.id, "a")
    assert after is not None and after.name == "b" and after.is_default
    assert await storage.profiles.delete(user.id, "b") is None
    assert await storage.profiles.of_user(user.id) == []


async def test_unknown_profile_names_the_known_ones(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    with pytest.raises(StorageError) as none:
        await storage.profiles.use(user.id, "x")
    assert none.value.code == "profile_none"
    await storage.profiles.save(user.id, "laptop", RTX_4090)
    assert (await storage.profiles.named(user.id, " Laptop ")).hardware == RTX_4090
    with pytest.raises(StorageError) as unknown:
        await storage.profiles.named(user.id, "desk")
    assert unknown.value.params == {"name": "desk", "known": ["laptop"]}
    with pytest.raises(StorageError) as unknown:
        await storage.profiles.delete(user.id, "desk")
    assert unknown.value.code == "profile_not_found"
    assert unknown.value.params == {"name": "desk", "known": ["laptop"]}


async def test_profiles_of_a_missing_user_are_refused(storage: Storage):
    with pytest.raises(StorageError) as refused:
        await storage.profiles.save(999, "x", RTX_4090)
    assert refused.value.code == "user_not_found"


async def test_hardware_spec_checks_itself():
    with pytest.raises(StorageError) as count:
        HardwareSpec(gpu="GeForce RTX 4090", gpu_count=0)
    assert count.value.code == "hardware_gpu_count"
    with pytest.raises(StorageError) as both:
        HardwareSpec(gpu="A100", gpu_count=1, gpu_memory_gb=80, apple_chip="M3", apple_memory_gb=8)
    assert both.value.code == "hardware_gpu_and_apple"
    with pytest.raises(StorageError) as unknown_memory:
        HardwareSpec(gpu="A100", gpu_count=1)
    assert unknown_memory.value.code == "hardware_gpu_memory"
    with pytest.raises(StorageError) as memory:
        HardwareSpec(ram_gb=-1)
    assert memory.value.code == "out_of_range"
    with pytest.raises(StorageError) as too_many:
        HardwareSpec(gpu="H100", gpu_count=5000)
    assert too_many.value.code == "out_of_range"
    assert HardwareSpec().is_empty and not RTX_4090.is_empty


async def test_queries_newest_first_per_user_and_per_chat(storage: Storage):
    alice = await storage.users.ensure("telegram", 1)
    bob = await storage.users.ensure("telegram", 2)
    team = await storage.chats.ensure("telegram", -100, "supergroup", title="Lab")
    for i in range(3):
        await storage.queries.save(
            NewQuery(
                user_id=alice.id,
                chat_id=team.id,
                text=f"q{i}",
                inputs={"model": "qwen2.5-7b", "context": 4096 * (i + 1)},
                verdict="fits",
                total_bytes=15_000_000_000 + i,
                per_device_bytes=15_000_000_000 + i,
            )
        )
    await storage.queries.save(NewQuery(user_id=bob.id, text="private", status="need_more"))
    mine = await storage.queries.recent_for_user(alice.id, limit=2)
    assert [q.text for q in mine] == ["q2", "q1"]
    assert mine[0].inputs == {"model": "qwen2.5-7b", "context": 12288}
    assert mine[0].total_bytes == 15_000_000_002 and mine[0].verdict == "fits"
    assert [q.text for q in await storage.queries.recent_for_chat(team.id)] == ["q2", "q1", "q0"]
    bobs = await storage.queries.recent_for_user(bob.id)
    assert bobs[0].status == "need_more" and bobs[0].chat_id is None and bobs[0].verdict is None
    with pytest.raises(StorageError):
        await storage.queries.recent_for_user(alice.id, limit=0)


async def test_chats_follow_type_and_title(storage: Storage):
    group = await storage.chats.ensure("telegram", -5, "group", title="Old")
    moved = await storage.chats.ensure("telegram", -5, "supergroup", title="New")
    assert moved.id == group.id and moved.type == "supergroup" and moved.title == "New"
    await storage.chats.set_language(group.id, "nl")
    await storage.chats.set_settings(group.id, {"answers": "short"})
    stored = await storage.chats.get(group.id)
    assert stored.language == "nl" and stored.settings == {"answers": "short"}


async def test_members_share_profiles_with_the_team(storage: Storage):
    team = await storage.chats.ensure("telegram", -7, "group", title="Team")
    alice = await storage.users.ensure("telegram", 1)
    bob = await storage.users.ensure("telegram", 2)
    carol = await storage.users.ensure("telegram", 3)
    await storage.profiles.save(alice.id, "desk", RTX_4090)
    await storage.profiles.save(alice.id, "mac", M3_MAX)
    await storage.profiles.save(bob.id, "lab", TWO_3090)
    await storage.profiles.save(carol.id, "own", RTX_4090)
    await storage.chats.share_profile(team.id, alice.id, "mac")
    await storage.chats.share_profile(team.id, bob.id)
    await storage.chats.join(team.id, carol.id)
    shared = await storage.chats.shared_profiles(team.id)
    assert [(s.user.id, s.profile.name) for s in shared] == [(alice.id, "mac"), (bob.id, "lab")]
    assert len(await storage.chats.members(team.id)) == 3
    await storage.chats.stop_sharing(team.id, alice.id)
    assert [s.user.id for s in await storage.chats.shared_profiles(team.id)] == [bob.id]
    assert await storage.chats.leave(team.id, bob.id)
    assert await storage.chats.shared_profiles(team.id) == []


async def test_sharing_follows_the_default_when_no_profile_is_named(storage: Storage):
    team = await storage.chats.ensure("telegram", -8, "group")
    alice = await storage.users.ensure("telegram", 1)
    await storage.profiles.save(alice.id, "a", RTX_4090)
    await storage.profiles.save(alice.id, "b", M3_MAX)
    await storage.chats.share_profile(team.id, alice.id)
    await storage.profiles.use(alice.id, "b")
    assert [s.profile.name for s in await storage.chats.shared_profiles(team.id)] == ["b"]


async def test_team_hardware_pool(storage: Storage):
    team = await storage.chats.ensure("telegram", -9, "group")
    alice = await storage.users.ensure("telegram", 1)
    server = await storage.team_hardware.save(
        team.id, "GPU server", TWO_3090, text="2x 3090", added_by=alice.id
    )
    assert server.name == "gpu server" and server.added_by == alice.id
    await storage.team_hardware.save(team.id, "cloud", RTX_4090)
    assert [h.name for h in await storage.team_hardware.of_chat(team.id)] == ["cloud", "gpu server"]
    await storage.team_hardware.remove(team.id, "cloud")
    with pytest.raises(StorageError) as missing:
        await storage.team_hardware.remove(team.id, "cloud")
    assert missing.value.code == "team_hardware_not_found"


async def test_deleting_a_chat_keeps_its_members_queries(storage: Storage):
    team = await storage.chats.ensure("telegram", -10, "group")
    alice = await storage.users.ensure("telegram", 1)
    await storage.chats.join(team.id, alice.id)
    await storage.team_hardware.save(team.id, "server", RTX_4090)
    await storage.conversations.put(team.id, alice.id, {"slot": "model"})
    await storage.queries.save(NewQuery(user_id=alice.id, chat_id=team.id, text="q"))
    assert await storage.chats.delete(team.id)
    (query,) = await storage.queries.recent_for_user(alice.id)
    assert query.chat_id is None
    assert await storage.conversations.get(team.id, alice.id) is None


async def test_conversation_state_per_chat_and_user(storage: Storage):
    chat = await storage.chats.ensure("telegram", 1, "private")
    alice = await storage.users.ensure("telegram", 1)
    bob = await storage.users.ensure("telegram", 2)
    assert await storage.conversations.get(chat.id, alice.id) is None
    await storage.conversations.put(chat.id, alice.id, {"missing": ["model"]})
    await storage.conversations.put(chat.id, alice.id, {"missing": ["task"], "model": "7B"})
    await storage.conversations.put(chat.id, bob.id, {"missing": []})
    state = await storage.conversations.get(chat.id, alice.id)
    assert state.state == {"missing": ["task"], "model": "7B"}
    assert await storage.conversations.get(chat.id, alice.id, max_age=timedelta(hours=1))
    assert await storage.conversations.get(chat.id, alice.id, max_age=timedelta(0)) is None
    assert await storage.conversations.prune(timedelta(0)) == 2
    assert not await storage.conversations.clear(chat.id, alice.id)


async def test_update_ids_are_claimed_once_per_source(storage: Storage):
    assert await storage.updates.claim("telegram", 1001)
    assert not await storage.updates.claim("telegram", 1001)
    assert await storage.updates.claim("slack", 1001)
    assert await storage.updates.claim("telegram", 2**62)
    assert await storage.updates.prune(timedelta(0)) == 3
    assert await storage.updates.claim("telegram", 1001)


async def test_times_come_back_as_aware_utc(storage: Storage):
    before = datetime.now(UTC)
    user = await storage.users.ensure("local", "alice")
    stored = await storage.users.get(user.id)
    assert stored.created_at.tzinfo is not None
    assert before - timedelta(seconds=5) <= stored.created_at <= datetime.now(UTC)
