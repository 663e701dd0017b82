"""The whole question read and answered, through the service on a real database: training
settings that reach the estimator, conversation acts between answers, comparisons, the data a
question describes, saved and named machines, refusals, and numbered choices."""

import pytest

from bot.conversation.service import Conversation
from storage.schemas import HardwareSpec
from tests.bot.conversation.talk import message, say

GIB = 2**30
LLAMA_8B = 8_030_261_248  # Llama-3.1-8B's parameters (config.json of meta-llama/Llama-3.1-8B)


async def test_zero_3_in_words_shards_the_states_over_the_gpus(storage):
    """ZeRO-3 partitions weights, gradients and optimizer states over the 8 GPUs: each holds
    2 bytes x 8.03B / 8 of bf16 weights, where without it every GPU held all 16 GB."""
    (reply,) = await say(storage, "full finetune llama 3.1 8b on 8x a100 80gb met zero-3")
    body = reply.body
    assert body["inputs"]["zero"] == 3
    assert body["inputs"]["gpu_count"] == 8
    device = body["memory"]["devices"][0]["components"]
    assert device["weights"] == 2 * LLAMA_8B // 8
    assert body["verdict"] == "fits"


async def test_without_gradient_checkpointing_in_dutch_keeps_every_activation(storage):
    (off, on) = await say(
        storage,
        "LoRA mistral 7b zonder gradient checkpointing, 4k, op een 4090",
        "LoRA mistral 7b met gradient checkpointing, 4k, op een 4090",
    )
    assert off.language == "nl"
    assert off.body["inputs"]["grad_checkpointing"] is False
    assert on.body["inputs"]["grad_checkpointing"] is True
    assert off.body["inputs"]["context"] == 4096
    assert off.verdict == "does_not_fit" and on.verdict == "fits"
    # Checkpointing keeps one layer input per layer instead of every intermediate.
    assert (
        off.body["memory"]["components"]["activations"]
        > 4 * on.body["memory"]["components"]["activations"]
    )


async def test_inputs_carry_every_setting_read_or_assumed(storage):
    (reply,) = await say(storage, "qlora llama 3.1 8b rank 64, paged adamw 8bit, on a 4090")
    inputs = reply.body["inputs"]
    for key in (
        "zero",
        "offload",
        "grad_checkpointing",
        "optimizer",
        "engine",
        "gpu",
        "gpu_count",
        "device_memory_bytes",
    ):
        assert key in inputs
    assert (inputs["lora_rank"], inputs["optimizer"]) == (64, "paged_adamw_8bit")
    assert inputs["device_memory_bytes"] == 24 * GIB
    assert any("gradient checkpointing" in a for a in inputs["assumed"])


async def test_the_data_described_sets_the_training_tokens_and_the_price(storage):
    """50,000 examples of 2,000 tokens is 100,000,000 tokens; the price per kWh as said."""
    (reply,) = await say(
        storage,
        "fifty thousand examples, each around two thousand tokens, lora llama 3.1 8b on a "
        "4090, electricity about 0.35 per kWh",
    )
    body = reply.body
    assert body["speed"]["training"]["tokens"] == 50_000 * 2_000
    assert body["cost"]["electricity"]["kwh_price_usd"] == 0.35
    # The advice prices the 4090's 450 W at it too: 0.45 kW x 0.35 = 0.1575 per hour.
    assert "0.158 USD per hour at 0.35 USD/kWh" in reply.text
    assert body["inputs"]["context"] == 2000
    assert "--tokens" not in reply.text and "--kwh-price" not in reply.text


async def test_an_alignment_objective_and_a_framework_reach_the_estimate(storage):
    full, lora, unsloth = await say(
        storage,
        "dpo full fine-tune llama 3.1 8b on an a100 80gb",
        "dpo on llama 3.1 8b with lora on an a100 80gb",
        "qlora llama 3.1 8b with unsloth on a 4090",
    )
    assert full.body["inputs"]["objective"] == "dpo"
    assert "training (full, DPO)" in full.text
    # DPO keeps a frozen reference copy of the policy: 8.03e9 parameters x 2 bytes (BF16).
    params = full.body["inputs"]["params"]
    assert full.body["memory"]["components"]["frozen_models"] == 2 * params
    # With LoRA the reference is the base without its adapters: no second copy.
    assert lora.body["inputs"]["objective"] == "dpo"
    assert lora.body["memory"]["components"]["frozen_models"] == 0
    assert unsloth.body["inputs"]["engine"] == "unsloth"
    assert "training (qlora, Unsloth)" in unsloth.text


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("hello", "en", "Hello!"),
        ("hoi", "nl", "Hallo!"),
        ("what can you do?", "en", "Ask me about a model"),
        ("wat kun je?", "nl", "Vraag me naar een model"),
        ("what's the weather in amsterdam", "en", "I can only answer"),
    ],
)
async def test_acts_get_their_answer_and_no_estimate(storage, text, language, words):
    (reply,) = await say(storage, text)
    assert reply.status == "info"
    assert reply.language == language
    assert words in reply.text
    assert reply.verdict is None and reply.body is None
    assert reply.as_json()["status"] == "info"


async def test_thanks_and_hello_after_an_answer_do_not_repeat_it(storage):
    answer, thanks, hello, follow_up = await say(
        storage,
        "can I run llama 3.1 8b on a 4090?",
        "thanks",
        "hello",
        "and with 32k context?",
    )
    assert answer.status == "answered"
    assert thanks.status == hello.status == "info"
    assert "Verdict" not in thanks.text and "Verdict" not in hello.text
    # The question survives the courtesy: the follow-up continues it.
    assert follow_up.body["inputs"]["model"] == "Llama-3.1-8B"
    assert follow_up.body["inputs"]["context"] == 32768


async def test_a_short_message_keeps_the_dutch_of_the_conversation(storage):
    answer, thanks, training = await say(
        storage, "kan ik llama 3.1 8b draaien op een 4090?", "thanks", "training"
    )
    assert (answer.language, thanks.language, training.language) == ("nl", "nl", "nl")
    assert thanks.text.startswith("Graag gedaan")


async def test_a_comparison_after_an_answer_answers_each_option(storage):
    first, compared, thanks = await say(
        storage,
        "can I run mistral 7b on a 4090?",
        "and on an L4 or a T4?",
        "bedankt",
    )
    assert first.status == "answered"
    options = compared.as_json()["comparison"]
    assert [o["option"] for o in options] == ["L4", "Tesla T4"]
    for option in options:
        assert option["inputs"]["model"] == "Mistral-7B-v0.3"
        assert option["memory"]["per_device_bytes"] > 0
        assert option["verdict"] in ("fits", "tight", "offload", "does_not_fit")
    assert [o["inputs"]["gpu"] for o in options] == ["L4", "Tesla T4"]
    assert "Better:" in compared.text or "alike" in compared.text
    assert thanks.status == "info"


async def test_the_better_option_is_the_one_that_fits(storage):
    """Llama-3.1-70B in int4 is about 37 GiB of weights: it fits an 80 GB A100, not a 24 GB
    4090."""
    (reply,) = await say(storage, "4090 or a100 80gb for llama 3.1 70b in int4?")
    rtx, a100 = reply.as_json()["comparison"]
    assert rtx["verdict"] == "does_not_fit"
    assert a100["verdict"] in ("fits", "tight")
    assert f"Better: {a100['option']}, the only one that fits." in reply.text


async def test_out_of_range_is_refused_and_the_question_kept(storage):
    first, refused, after = await say(
        storage,
        "can I run llama 3.1 8b on a 4090?",
        "with 1000000k context",
        "with 16 users",
    )
    assert refused.status == "error"
    assert "\n" not in refused.text
    assert "10,000,000" in refused.text
    assert after.body["inputs"]["concurrency"] == 16
    assert after.body["inputs"]["context"] == first.body["inputs"]["context"]


async def test_text_that_is_not_text_gets_a_reason(storage):
    (reply,) = await say(storage, "run 7b \ud800 on a 4090")
    assert reply.status == "error"
    assert "not text" in reply.text


async def test_describing_my_machine_saves_it_and_questions_use_it(storage):
    saved, question = await say(
        storage, "my computer has an RTX 4090 and 64GB RAM", "can I run qwen2.5 14b?"
    )
    assert saved.status == "info"
    assert "computer" in saved.text
    user = await storage.users.find("local", "alice")
    (profile,) = await storage.profiles.of_user(user.id)
    assert (profile.name, profile.hardware.gpu, profile.hardware.ram_gb) == (
        "computer",
        "GeForce RTX 4090",
        64,
    )
    assert question.body["inputs"]["gpu"] == "GeForce RTX 4090"


async def test_a_named_profile_answers_for_on_my_mac(storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(
        user.id,
        "rig",
        HardwareSpec(gpu="GeForce RTX 3090", gpu_count=1, gpu_memory_gb=24),
        make_default=True,
    )
    await storage.profiles.save(
        user.id, "mac", HardwareSpec(apple_chip="M3 Max", apple_memory_gb=64)
    )
    on_mac, _, unknown = await say(
        storage,
        "can I run llama 3.1 8b on my mac?",
        "new",
        "can I run llama 3.1 8b on my laptop?",
    )
    assert "M3 Max" in on_mac.body["inputs"]["gpu"]
    assert any("mac" in a for a in on_mac.body["inputs"]["assumed"])
    # No profile called "laptop": the question asks what is in it, never the rig's 3090.
    assert unknown.status == "need_more" and unknown.missing == ["hardware"]


async def test_a_printed_choice_number_picks_it(storage):
    asked, picked = await say(storage, "Qwen2.5-7B", "1")
    assert asked.status == "need_more" and asked.missing == ["task"]
    assert picked.status == "answered"
    assert picked.body["inputs"]["task"] == "inference"


async def test_one_shot_questions_do_not_inherit_the_previous_machine(storage):
    first, second = await say(
        storage,
        "can I run llama 3.1 8b on an RTX 4090 with 64GB RAM?",
        "can I fine-tune qwen2.5 7b?",
        one_shot=True,
    )
    assert first.body["inputs"]["gpu"] == "GeForce RTX 4090"
    assert second.parsed.gpu is None and second.parsed.ram_gb is None


async def test_a_chat_says_when_a_new_question_runs_on_the_previous_machine(storage):
    _, second = await say(
        storage, "can I run llama 3.1 8b on an RTX 4090?", "can I fine-tune qwen2.5 7b?"
    )
    assert second.body["inputs"]["gpu"] == "GeForce RTX 4090"
    assert any("previous question" in a for a in second.body["inputs"]["assumed"])


async def test_classical_ml_without_features_assumes_and_says_so(storage):
    (reply,) = await say(storage, "random forest on 1M rows, do I need a GPU?")
    assert reply.status == "answered"
    assert "100 features per row (not given" in reply.text


async def test_how_much_ram_for_xgboost_asks_for_the_width(storage):
    asked, answered = await say(storage, "xgboost on 1M rows, how much RAM do I need?", "50")
    assert asked.status == "need_more" and asked.missing == ["features"]
    assert answered.status == "answered"
    assert answered.parsed.features == 50
    # 1,000,000 rows x 50 features x 8 bytes (float64) = 400,000,000 bytes = 381 MiB.
    assert answered.body["memory"]["data_bytes"] == 400_000_000
    assert "RAM: the table takes 381 MiB as float64" in answered.text


async def test_a_clearly_dutch_word_answers_in_dutch_even_after_english(storage):
    _, hoi, ok = await say(storage, "can I run llama 3.1 8b on a 4090?", "hoi", "ok")
    assert (hoi.language, ok.language) == ("nl", "nl")


async def test_options_without_hardware_are_compared_by_their_memory(storage):
    """Without hardware, NF4 weights of Llama-3.1-8B take about 0.6 bytes a parameter against
    bf16's 2: int4 needs less."""
    (reply,) = await say(storage, "int4 or bf16 for llama 3.1 8b?")
    assert "Without hardware given: INT4 needs the least memory" in reply.text


async def test_who_can_refuses_and_greets_like_a_question(storage):
    conversation = Conversation(storage)
    hello = await conversation.who_can(message("hello", chat="team"))
    absurd = await conversation.who_can(message("run llama 3.1 8b for 10^12 users", chat="team"))
    assert hello.status == "info"
    assert absurd.status == "error" and "100,000" in absurd.text


def test_a_dutch_cheapest_cloud_answer_has_no_english_price_fragments():
    from bot.conversation.answer import answer
    from bot.conversation.compose import answered
    from bot.conversation.dialogue import State, step
    from bot.conversation.parse import parse

    text = "wat is de goedkoopste cloud gpu om qwen2.5 72b te draaien"
    turn = step(State(), parse(text), text)
    reply = answered(answer(turn.state.draft), [], "nl")
    first = reply.sections[0].items[0].text
    assert first.startswith("Goedkoopste cloudinstantie die past:")
    assert "USD/u" in first and "USD/h" not in first and "snapshot" not in first


def test_a_data_file_size_sizes_the_classical_ml_table():
    from bot.conversation.answer import answer
    from bot.conversation.dialogue import State, step
    from bot.conversation.parse import parse

    text = "train a random forest on a 10GB csv"
    turn = step(State(), parse(text), text)
    assert turn.state.draft.data_gb == 10 and turn.state.draft.gpu is None
    outcome = answer(turn.state.draft)
    # 10e9 bytes / (100 assumed features x 8 bytes of float64) = 12.5 million rows.
    assert outcome.ml.fact["rows"] == 12_500_000
    assert outcome.ml.fact["data_bytes"] == 10 * 10**9
    assert [r.rule for r in outcome.ml.recommendations] == ["classical_ml_large"]
