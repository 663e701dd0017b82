"""Whole conversations through the service on a real database: follow-ups, corrections,
language switches, a saved profile, errors that lose nothing, and what gets stored."""

import pytest

from bot.conversation.service import Conversation, Incoming
from storage.schemas import HardwareSpec
from tests.bot.conversation.talk import message, say
from tests.conftest import FIXTURES


async def test_fine_tune_follow_ups(storage):
    first, qlora, longer = await say(
        storage, "can I fine-tune 7B on 24GB?", "and with QLoRA?", "make it 8k context"
    )
    assert first.status == "answered"
    assert first.verdict == "does_not_fit"  # full fine-tuning of 7.6B needs ~118 GiB
    assert first.body["recommendations"][0]["rule"] == "plan_yours"
    assert first.body["plans"][0]["method"] == "lora"
    assert [c.message for c in first.choices][:2] == ["with QLoRA", "with LoRA"]
    assert qlora.verdict == "fits"
    assert qlora.body["inputs"]["method"] == "qlora"
    assert longer.body["inputs"]["context"] == 8192
    assert longer.body["inputs"]["method"] == "qlora"


async def test_asks_only_for_what_is_missing_and_continues(storage):
    ask, answer = await say(storage, "can I run it on an RTX 4090?", "Qwen2.5-14B in int4")
    assert ask.status == "need_more"
    assert ask.missing == ["model"]
    assert answer.status == "answered"
    assert answer.body["inputs"]["gpu"] == "GeForce RTX 4090"


async def test_language_follows_each_message(storage):
    en, nl = await say(storage, "can I run llama 3 8b on a 4090?", "en met 8k context?")
    assert (en.language, nl.language) == ("en", "nl")
    assert "Oordeel" in nl.text
    assert nl.body["inputs"]["context"] == 8192


async def test_a_message_without_language_uses_the_users_setting(storage):
    (reply,) = await say(storage, "Qwen2.5-7B", language="nl")
    assert reply.language == "nl"
    assert reply.status == "need_more"


async def test_the_saved_profile_answers_for_the_hardware(storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(
        user.id,
        "rig",
        HardwareSpec(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24, ram_gb=64),
        text="2x 3090",
    )
    (reply,) = await say(storage, "can I run llama 3 70b in int4?")
    assert reply.status == "answered"
    assert reply.body["inputs"]["gpu_count"] == 2
    assert any("2x 3090" in a for a in reply.body["inputs"]["assumed"])


async def test_an_error_keeps_the_conversation(storage):
    _, bad, after = await say(
        storage, "can I run llama 3 8b on a 4090?", "and on an M3 Max 40GB?", "and with 16 users?"
    )
    assert bad.status == "error"
    assert "M3 Max" in bad.text and "\n" not in bad.text
    assert after.status == "answered"
    assert after.body["inputs"]["gpu"] == "GeForce RTX 4090"
    assert after.body["inputs"]["concurrency"] == 16


async def test_absurd_size_is_one_friendly_line(storage):
    (reply,) = await say(storage, "run a 99999999b model on a 4090")
    assert reply.status == "error"
    assert "\n" not in reply.text


async def test_empty_message_gets_the_example(storage):
    (reply,) = await say(storage, "   ")
    assert reply.status == "error"
    assert "7B" in reply.text


@pytest.mark.parametrize("asked", ["why", "why?", "how did you get that", "waarom", "Waarom?"])
async def test_why_gives_the_whole_calculation(storage, asked):
    _, why = await say(storage, "can I fine-tune 7B on 24GB?", asked)
    assert why.section("calculation") is not None


async def test_details_give_the_whole_calculation(storage):
    _, details = await say(storage, "can I fine-tune 7B on 24GB?", "details")
    assert "How it adds up" in details.text
    assert "16 bytes" in details.text or "Optimizer" in details.text or "optimizer" in details.text


async def test_queries_and_state_are_stored_per_chat_and_user(storage):
    await say(storage, "can I fine-tune 7B on 24GB?", user="alice", chat="team")
    await say(storage, "and with QLoRA?", user="bob", chat="team")  # bob has no question yet
    alice = await storage.users.find("local", "alice")
    bob = await storage.users.find("local", "bob")
    chat = await storage.chats.find("local", "team")
    assert [q.status for q in await storage.queries.recent_for_user(alice.id)] == ["answered"]
    assert [q.status for q in await storage.queries.recent_for_user(bob.id)] == ["need_more"]
    state = await storage.conversations.get(chat.id, alice.id)
    assert state.state["draft"]["model"] == "7B"


async def test_reset_forgets_the_question(storage):
    _, reset, after = await say(
        storage, "can I fine-tune 7B on 24GB?", "new question", "and with QLoRA?"
    )
    assert reset.status == "reset"
    assert after.status == "need_more"
    assert after.missing == ["model"]


@pytest.mark.parametrize(
    "text",
    ["random forest on 1M rows, do I need a GPU?", "wat is het grootste model voor mijn RTX 3090?"],
)
async def test_other_kinds_of_question(storage, text):
    (reply,) = await say(storage, text)
    assert reply.status == "answered"
    assert reply.body["verdict"] in ("unknown", "fits", "tight")


async def test_a_config_path_is_read_in_the_terminal_only(storage):
    path = FIXTURES / "configs" / "llama-3.1-8b" / "config.json"
    question = f"can I run {path} on an RTX 4090?"
    terminal = await Conversation(storage, local_files=True).handle(message(question))
    assert terminal.status == "answered"
    assert str(path) in terminal.text  # "architecture read from ..."
    remote = Incoming(
        platform="telegram", chat_id="5", chat_type="private", user_id="5", text=question
    )
    refused = await Conversation(storage).handle(remote)
    assert refused.status == "error"
    assert "terminal" in refused.text and "llama" not in refused.text.lower()


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "qwen3 235b a22b on 2x rtx 6000 ada 48gb? using it for agentic coding so need 64k ctx",
            ("YaRN at factor 2 on 32,768 positions", "quality on short texts"),
        ),
        (
            "qwen3 235b a22b op 2x rtx 6000 ada 48gb met 64k context voor agentic coding",
            ("YaRN met factor 2 op 32.768 posities", "kwaliteit bij korte teksten"),
        ),
    ],
)
async def test_a_context_past_the_config_is_answered_on_the_cards_yarn(storage, question, words):
    """Qwen3-235B-A22B's config stops at 40,960 tokens; its card documents YaRN to 131,072.
    64k is answered, says so with the card's caveat, and every plan's command enables it."""
    (reply,) = await say(storage, question)
    assert reply.status == "answered", reply.text
    assert reply.body["inputs"]["context"] == 65_536
    assert all(word in reply.text for word in words)
    commands = [plan["command"] for plan in reply.body["plans"]]
    assert commands
    for command in commands:
        assert (
            '"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 32768'
            in command
            or "--rope-scaling yarn --rope-scale 2 --yarn-orig-ctx 32768" in command
            or "'rope_type': 'yarn', 'factor': 2.0" in command
        ), command


@pytest.mark.parametrize(
    ("question", "words"),
    [
        # Past the card's scaled length: refused with both maximums.
        ("qwen3 235b a22b on 2x rtx 6000 ada with 200k context", ("131072", "40960", "YaRN")),
        ("qwen3 235b a22b op 2x rtx 6000 ada met 200k context", ("131072", "40960", "YaRN")),
        # No scaling on the card: today's refusal at the config's maximum.
        ("qwen3 0.6b on an rtx 4090 with 64k context", ("40960",)),
    ],
)
async def test_past_what_the_card_documents_is_refused_with_the_maximum(storage, question, words):
    (reply,) = await say(storage, question)
    assert reply.status == "error"
    assert all(word in reply.text for word in words), reply.text


async def test_a_budget_out_of_range_is_refused_with_its_range_in_each_language(storage):
    (en,) = await say(storage, "a gpu for $5")
    assert en.status == "error" and "between 50 and 10,000,000" in en.text
    (nl,) = await say(storage, "een gpu voor 20 euro", user="bob")
    assert nl.status == "error" and "tussen 50 en 10.000.000" in nl.text
