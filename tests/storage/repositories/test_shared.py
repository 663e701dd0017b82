"""Shared questions: a token per author and question (the same link when shared again), found
by it, refused when malformed, and gone with its author."""

import re

from storage import Storage
from storage.repositories.shared import token

INPUTS = {"model": "Qwen2.5-7B", "task": "training", "gpu_memory_gb": 24.0}


async def test_sharing_twice_gives_one_link(storage: Storage):
    alice = await storage.users.ensure("telegram", 1)
    first = await storage.shared.share(alice.id, "can I fine-tune 7B on 24GB?", INPUTS)
    again = await storage.shared.share(alice.id, "can I fine-tune 7B on 24GB?", dict(INPUTS))
    assert first.token == again.token
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", first.token)
    found = await storage.shared.find(first.token)
    assert found is not None and found.inputs == INPUTS and found.user_id == alice.id


async def test_the_token_depends_on_author_and_question():
    assert token(1, INPUTS) != token(2, INPUTS)
    assert token(1, INPUTS) != token(1, {**INPUTS, "gpu_memory_gb": 48.0})
    assert token(1, INPUTS) == token(1, dict(reversed(INPUTS.items())))  # key order is no part


async def test_unknown_and_malformed_tokens_find_nothing(storage: Storage):
    assert await storage.shared.find("A" * 22) is None
    assert await storage.shared.find("") is None
    assert await storage.shared.find("x" * 500) is None


async def test_a_shared_question_goes_with_its_author(storage: Storage):
    alice = await storage.users.ensure("telegram", 1)
    shared = await storage.shared.share(alice.id, "7B on 24GB?", INPUTS)
    await storage.privacy.forget(alice.id)
    assert await storage.shared.find(shared.token) is None
