"""The structured reply: compose builds sections, and each front end lays them out itself (the
terminal as numbered plain text, Telegram as HTML) without guessing the layout back from lines."""

from bot.conversation.answer import answer
from bot.conversation.compose import answered, question
from bot.conversation.dialogue import State, step
from bot.conversation.parse import parse
from bot.conversation.refine import refinements
from bot.conversation.reply import Item, Reply, Section
from bot.render import plain
from bot.telegram import html


def _reply(text: str, lang: str = "en") -> Reply:
    turn = step(State(), parse(text), text)
    if turn.missing:
        return question(turn, lang)
    outcome = answer(turn.state.draft)
    found = refinements(turn.state.draft, outcome.workload.estimate.per_device_bytes)
    return answered(outcome, found, lang)


def test_an_answer_is_made_of_sections_in_reading_order():
    reply = _reply("can I fine-tune 7B on 24GB?")
    kinds = [s.kind for s in reply.sections]
    assert kinds[:4] == ["headline", "verdict", "breakdown", "plan"]
    assert kinds.index("plan") < kinds.index("assumptions") < kinds.index("refinements")
    assert kinds[-1] == "hint"
    plan = reply.section("plan")
    assert plan.title == "Yes, like this:"
    lead = plan.items[0]
    assert lead.rule == "plan_yours" and lead.primary
    assert lead.text.startswith("LoRA") and "LoraConfig(" in lead.command
    # At most two alternatives, each one line, none of them the lead again.
    assert 1 <= len(plan.items) <= 3
    assert all(i.text.startswith("Or: ") and not i.command for i in plan.items[1:])


def test_the_plan_is_in_the_first_telegram_message_with_its_command():
    reply = _reply("Llama 3.3 70B on 2x3090 with 32k context")
    first = html.reply(reply)[0]
    assert "Yes, like this:" in first
    assert "<code>llama-server -m Llama-3.3-70B-Q4_K_M.gguf -c 32768" in first
    assert "--cache-type-k q8_0" in first


def test_the_terminal_numbers_each_follow_up_once_and_hides_rule_ids():
    reply = _reply("can I fine-tune 7B on 24GB?")
    refine = reply.section("refinements")
    text = plain.render(reply)
    for n, item in enumerate(refine.items, 1):
        assert text.count(item.text) == 1
        assert f"  {n}) {item.text}" in text
    assert "[plan_yours]" not in text
    assert text.endswith("Say “details” for the whole calculation.")
    assert plain.render(reply, "oneshot").endswith("“llm-sizer ask 1” for a choice.")


def test_a_question_lists_its_choices_as_numbers_in_the_terminal():
    reply = _reply("can I run it on an RTX 4090?")
    assert reply.status == "need_more"
    text = plain.render(reply)
    assert "  1) Llama-3.1-8B" in text
    assert text.splitlines()[0] == reply.question_to_user


def test_telegram_bolds_the_headline_and_the_verdict_whatever_their_wording():
    reply = Reply(
        status="answered",
        language="en",
        sections=[
            Section(kind="headline", items=[Item(text="Qwen <7B> on a 4090")]),
            Section(kind="verdict", items=[Item(text="Past niet: 30 GiB", primary=True)]),
            Section(kind="breakdown", items=[Item(text="weights 14 GiB")]),
            Section(
                kind="advice",
                title="What I recommend:",
                items=[Item(text="Use vLLM", detail="fits", command="vllm serve x", primary=True)],
            ),
            Section(kind="choices", items=[Item(text="with QLoRA")]),
            Section(kind="hint"),
        ],
    )
    (message,) = html.reply(reply)
    lines = message.split("\n")
    assert lines[0] == "<b>Qwen &lt;7B&gt; on a 4090</b>"
    assert lines[1] == "<b>Past niet: 30 GiB</b>"
    assert "<i>What I recommend:</i>" in lines
    assert "<b>→1. Use vLLM</b>" in lines
    assert "<code>vllm serve x</code>" in lines
    assert "with QLoRA" not in message  # buttons carry the choices
    assert "details" not in message


def test_adding_a_section_renders_the_text_anew():
    reply = _reply("can I run llama 3 8b on a 4090?")
    more = reply.with_section(Section(kind="team", items=[Item(text="On the team's machines:")]))
    assert more.text.startswith(reply.text)
    assert more.text.endswith("On the team's machines:")
    assert more.body == reply.body


def test_the_chart_draws_the_answers_own_estimate():
    reply = _reply("can I run llama 3 8b on a 4090 with 8k context?")
    drawing = reply.drawing()
    assert drawing.estimate.per_device_bytes == reply.per_device_bytes
    assert drawing.curve and drawing.curve[0][0] == 1024


def test_what_fits_as_asked_but_runs_clearly_faster_elsewhere_says_so():
    # Llama-3.1-8B in BF16 on a 4090: transformers decodes about 24-31 tokens/s, vLLM with the
    # same BF16 weights about 39-52 (1.5 times the middle of the range or more).
    reply = _reply("llama 3.1 8b on a 4090")
    assert reply.verdict == "fits"
    plan = reply.section("plan")
    assert plan.title == "It fits as asked; faster at the same quality:"
    lead = plan.items[0]
    assert lead.rule == "plan_faster" and lead.text.startswith("BF16 on vLLM")
    assert lead.command.startswith("vllm serve meta-llama/Llama-3.1-8B")
    assert all("transformers" not in i.text for i in plan.items[1:])


def test_an_inverse_question_nothing_answers_here_gives_the_workload_and_its_plan():
    """ "How many users" for a 70B on one 4090: no 4-bit format holds even one sequence, so
    the answer says so and then answers the workload, with the plan that does run."""
    text = "how many users llama 70b on a 4090"
    outcome = answer(step(State(), parse(text), text).state.draft)
    reply = answered(outcome, [], "en")
    kinds = [s.kind for s in reply.sections]
    assert kinds[0] == "inverse" and "plan" in kinds and "headline" in kinds
    assert reply.sections[0].items[0].text.startswith("Nothing in 4 bits or more")
    body = reply.body
    assert body["inverse"]["answer"] is None and body["inverse"]["question"] == "concurrency"
    assert body["plans"] and body["verdict"] == "does_not_fit"


def test_an_inverse_question_in_a_named_format_says_that_format_does_not_run():
    """Qwen2.5 72B in FP8 on one H100: 70.0 GiB of weights and 2.8 GiB of activations over
    vLLM's 71.3 GiB, at any context; AWQ 4-bit runs, so "nothing in 4 bits" would be false."""
    text = "h100 80gb qwen2.5 72b fp8 vllm, max context?"
    outcome = answer(step(State(), parse(text), text).state.draft)
    reply = answered(outcome, [], "en")
    assert reply.sections[0].items[0].text.startswith("In FP8 that does not run on this hardware")
    assert "AWQ" in reply.section("plan").items[0].text


def test_the_best_precision_is_named_as_people_name_it_with_what_3_bits_cost():
    """Llama 3.3 70B on a 5090 (32 GB): 70.6B x 3.5 bits = 28.8 GiB fits, 4 bits (32.9 GiB)
    does not. The answer says "EXL2 3.5 bpw", not its key, and that 3 bits cost quality."""
    text = "beste kwantisatie voor llama 3.3 70b op een 5090"
    reply = answered(answer(step(State(), parse(text), text).state.draft), [], "nl")
    line = reply.sections[0].items[0].text
    assert line.startswith("Beste precisie die past: EXL2 3.5 bpw op ExLlamaV2")
    assert "exl2_3.5bpw" not in line and "3 bits kosten merkbaar kwaliteit" in line


def test_a_mac_answer_starts_mlx_with_llama_cpp_beside_it():
    reply = _reply("can i run qwen3 30b a3b on my macbook pro m3 max 64gb")
    advice = reply.section("advice")
    start, other = advice.items[0], advice.items[1]
    assert start.text == "Start it with MLX (mlx-lm)"
    assert start.detail == "mlx_lm.server --model mlx-community/Qwen3-30B-A3B-4bit"
    assert other.text.startswith("Or: GGUF ") and "on llama.cpp" in other.text


def test_a_plan_on_the_users_hardware_too_slow_to_lead_is_still_shown_with_its_speed():
    # DeepSeek-R1 Q4_K_M with its experts in 512 GB of dual-channel DDR5: a few tokens a second,
    # slower than people read, so renting leads; the user's own way comes beside it.
    plan = _reply("deepseek r1 on a 4090 with 512gb ddr5").section("plan")
    own = next(i for i in plan.items[1:] if "on llama.cpp" in i.text)
    assert "in CPU RAM (MoE experts)" in own.text
    assert own.detail is not None and own.detail.endswith("tokens/s per sequence")


def test_a_verdict_short_of_cpu_ram_says_so_not_the_gpu_figure():
    """ZeRO-3 offload of a 70B full fine-tune: about 9.5 GiB per GPU fits a 40 GB card, but
    18 bytes per parameter (fp16 parameters, fp32 gradients, masters and Adam moments) do not fit
    in 1 TB of RAM."""
    for lang, words, ram in (("en", "CPU RAM", "1,182.7 GiB"), ("nl", "CPU-RAM", "1.182,7 GiB")):
        reply = _reply("full finetune 70b with zero-3 offload on 8x a100 40gb 1tb ram", lang)
        verdict = reply.section("verdict").items[0].text
        assert words in verdict and ram in verdict


def test_beside_a_plan_under_4_bits_the_alternative_keeps_4_bits_with_its_ram_bound():
    # A 70B on "24 GB": EXL2 2.5 bpw fits; IQ1_S (fits too, at 1 bit) is the same trade-off,
    # Q4_K_M with 35 of 80 layers in RAM is the other one, bounded by the RAM (3.5 tokens/s at
    # most, estimator/test_speed.py), in both languages.
    for lang, bound in (("en", "at most 3.5 tokens/s"), ("nl", "hoogstens 3,5 tokens/s")):
        plan = _reply("70b on 24gb vram and 128gb ram", lang).section("plan")
        assert "EXL2 2.5 bpw" in plan.items[0].text
        assert not any("IQ1_S" in i.text or "IQ2" in i.text for i in plan.items[1:])
        q4 = plan.items[1]
        assert "GGUF Q4_K_M" in q4.text and q4.detail is not None and q4.detail.startswith(bound)
