"""An answered question as sections: which sections, in what order, and what they carry."""

from bot.conversation.answer import answer
from bot.conversation.compose import answered, refinement_phrase
from bot.conversation.refine import refinements
from bot.conversation.slots import Draft


def _kinds(reply):
    return [s.kind for s in reply.sections]


def test_a_fitting_answer_reads_headline_verdict_breakdown_speed_then_assumptions():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="A100 80GB SXM4")
    outcome = answer(d)
    reply = answered(outcome, refinements(d, outcome.workload.estimate.per_device_bytes), "en")
    kinds = _kinds(reply)
    assert kinds[:3] == ["headline", "verdict", "breakdown"]
    assert kinds.index("speed") < kinds.index("assumptions") < kinds.index("refinements")
    assert kinds[-1] == "hint"
    est = outcome.workload.estimate
    assert reply.verdict == est.verdict == "fits"
    assert reply.per_device_bytes == max(dev.components.total for dev in est.devices)
    assert reply.sections[1].items[0].primary


def test_what_cannot_run_has_a_plan_and_no_speed():
    d = Draft(model="Llama-3.1-405B", task="inference", gpu="GeForce RTX 4090")
    reply = answered(answer(d), [], "en")
    assert reply.verdict == "does_not_fit"
    assert "plan" in _kinds(reply) and "speed" not in _kinds(reply)


def test_a_follow_up_that_does_not_fit_is_dropped_beside_a_plan_that_runs():
    # 70B in bf16 on two 4090s does not fit; a plan (a 4-bit format) does, so "in int8" on
    # transformers, which does not fit either, would read as a contradiction.
    d = Draft(model="Llama-3.1-70B", task="inference", gpu="GeForce RTX 4090", gpus=2)
    outcome = answer(d)
    found = refinements(d, outcome.workload.estimate.per_device_bytes)
    assert any(r.verdict == "does_not_fit" for r in found)
    reply = answered(outcome, found, "en")
    shown = {c.message for c in reply.choices}
    assert shown == {refinement_phrase(r, "en") for r in found if r.verdict != "does_not_fit"}
    assert shown


def test_the_same_answer_in_dutch_has_the_same_sections():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="A100 80GB SXM4")
    outcome = answer(d)
    en, nl = answered(outcome, [], "en"), answered(outcome, [], "nl")
    assert _kinds(en) == _kinds(nl) and en.text != nl.text
