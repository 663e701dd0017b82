"""Comparisons of hardware are made between what runs on each option: the planner's plan where
as asked it does not, and then each option's own best plan, so formats are not compared as
cards."""

from bot.conversation import compare
from bot.conversation.answer import answer
from bot.conversation.dialogue import State, step
from bot.conversation.parse import parse

GIB = 2**30


def _rows(text: str, lang: str = "en") -> list[compare.Row]:
    turn = step(State(), parse(text), text)
    outcome = answer(turn.state.draft)
    assert outcome.options, "read as a comparison"
    return compare.rows(outcome.options, lang)


def test_two_24_gb_cards_for_a_32b_model_are_compared_in_the_4_bit_format_that_fits():
    # Qwen2.5-32B in BF16 is 32.8e9 x 2 bytes = 61 GiB, on neither card; in 4 to 6 bits per
    # weight it is 15.3 to 22.9 GiB, which both 24 GB cards hold.
    rows = _rows("3090 or 4090 for qwen2.5 32b")
    assert [r.label for r in rows] == ["RTX 3090", "RTX 4090"]
    for r in rows:
        assert r.plan is not None and r.verdict in ("fits", "tight")
        assert 32.8e9 * 4 / 8 < r.per_device_bytes < 24 * GIB
    assert rows[0].plan == rows[1].plan
    assert "either will do" in compare.verdict_line(rows, "en")


def test_the_engine_named_is_the_one_compared():
    # Qwen2.5-32B for 50 users of 4,096 tokens on vLLM: 64 layers x 8 KV heads x 128 x 2 x 2
    # bytes = 256 KiB per token, 50 GiB of BF16 cache; the A100's 80 GB holds it in FP8 with
    # an FP8 cache, the L40S's 48 GB not on vLLM, whatever llama.cpp would fit there.
    rows = _rows("L40S vs A100 80GB for vllm serving qwen2.5 32b, expecting ~50 concurrent users")
    assert all("llama.cpp" not in (r.plan or "") for r in rows)
    l40s, a100 = rows
    assert a100.verdict in ("fits", "tight") and "vLLM" in (a100.plan or "")
    assert l40s.verdict == "does_not_fit"


def test_a_card_that_runs_it_as_asked_beats_one_that_needs_8_bits():
    # Llama-3.1-8B in BF16: 8.03e9 x 2 bytes = 15.0 GiB of weights, over the T4's 15 GiB; the
    # L4's 24 GB holds it. The T4 runs it only in 8 bits (8 GiB of weights), faster per token,
    # but that compares formats, not cards.
    rows = _rows("L4 or T4 for llama 3.1 8b")
    l4, t4 = rows
    assert l4.as_asked and l4.precision == "bf16"
    assert not t4.as_asked and "8-bit" in (t4.plan or "")
    line = compare.verdict_line(rows, "en")
    assert line.startswith("Better: L4, it runs it as asked (BF16); Tesla T4 only as ")
    nl = compare.verdict_line(_rows("L4 of T4 voor llama 3.1 8b", "nl"), "nl")
    assert nl.startswith("Beter: L4, die draait het zoals gevraagd (BF16)")


def test_options_that_are_settings_are_compared_as_asked():
    rows = _rows("full finetune llama 3.1 8b on 2x 4090 with zero-2 or zero-3")
    assert [r.label for r in rows] == ["ZeRO-2", "ZeRO-3"]
    assert all(r.plan is None for r in rows)


def test_a_card_and_a_mac_whose_defaults_differ_in_format_are_compared_each_as_its_plan():
    """As asked the 4090 runs BF16 on transformers and the Mac Q4_K_M on llama.cpp, which would
    compare 16 bits with 4.9. As plans both are 16-bit: 16 GB read a token at 1,008 GB/s
    against 400 GB/s, so the 4090 is the faster, by about 2.5 times."""
    rows = _rows("whats faster for llama 8b, 4090 or m3 max")
    assert [r.label for r in rows] == ["RTX 4090", "M3 Max"]
    assert all(r.plan is not None for r in rows)
    assert rows[0].speed is not None and rows[1].speed is not None
    assert rows[0].speed > 2 * rows[1].speed
    assert compare.verdict_line(rows, "en").startswith("Better: RTX 4090")


def test_which_is_faster_is_answered_by_speed_whatever_format_each_runs():
    """A 4070 (12 GB) holds Llama 8B only in 8 bits, the M4 Pro also in 16: "which is faster"
    asks about speed, and at 504 GB/s against 273 the 4070 is, in either format."""
    rows = _rows("wat is sneller voor llama 8b, m4 pro 24gb of rtx 4070 12gb??", "nl")
    assert compare.verdict_line(rows, "nl").startswith("Beter: RTX 4070, die is sneller")


def test_better_than_compares_as_or_does():
    # "X better than Y" is the question "X or Y", in either language.
    for text in (
        "is 2x 5060 ti 16gb better than one used 3090 for qwen3 14b",
        "is 2x 5060 ti 16gb beter dan een 3090 voor qwen3 14b",
    ):
        options = parse(text).compare
        assert options is not None
        assert [(o.gpu, o.gpus) for o in options] == [
            ("GeForce RTX 5060 Ti 16GB", 2),
            ("GeForce RTX 3090", None),
        ]
    assert [o.engine for o in parse("is vllm faster than llama.cpp for llama 8b").compare] == [
        "vllm",
        "llama.cpp",
    ]


def test_an_option_chosen_for_its_room_says_the_other_is_faster():
    # On a 4090 Qwen2.5-Coder-32B in AWQ fits with room, Q5_K_M only just and decodes faster:
    # the line must not call the slower one faster.
    text = "awq or gguf q5_k_m for qwen2.5 coder 32b on a 4090, which is faster"
    rows = _rows(text)
    awq, q5 = rows
    assert (awq.verdict, q5.verdict) == ("fits", "tight") and q5.speed > awq.speed
    line = compare.verdict_line(rows, "en")
    assert line.startswith("Better: AWQ, it leaves room to spare")
    assert "Q5_K_M is faster" in line and "it is faster" not in line


def test_between_x_and_y_compares_x_and_y():
    for text in (
        "difference between a 3090 and a 4090 for llama 70b",
        "verschil tussen 3090 en 4090",
    ):
        assert [o.gpu for o in parse(text).compare] == ["GeForce RTX 3090", "GeForce RTX 4090"]
    # "and" without "between" joins, it does not compare.
    assert parse("run llama 8b and qwen 7b on a 4090").compare is None


def test_a_memory_alone_beside_a_chip_or_card_is_that_chip_or_card_with_it():
    d = parse("gpt-oss-20b op macbook pro m3 pro 18gb past dat of moet ik de 36gb versie")
    assert [o.apple for o in d.compare] == ["M3 Pro 18GB", "M3 Pro 36GB"]
    d = parse("4060 ti 8gb or the 16gb one for llama 8b")
    assert [o.gpu for o in d.compare] == ["GeForce RTX 4060 Ti 8GB", "GeForce RTX 4060 Ti 16GB"]
    # No 3090 has 16 GB, a 4090 is 24 GB already: another card, known by its memory.
    for text, gb in (("3090 or a 16gb card for llama 8b", 16), ("4090 or a 24gb card", 24)):
        assert parse(text).compare[1].gpu_memory_gb == gb
    # Out of range it stays a memory, which the answer refuses with the range.
    d = parse("m3 pro 18gb or the 99999999999999gb version for llama 8b")
    assert d.compare[1].apple is None and d.compare[1].gpu_memory_gb == 1e12
