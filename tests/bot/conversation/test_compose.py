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


def test_a_training_plan_that_leads_says_its_training_time():
    """LoRA of Llama-3-8B does not fit a 4080, so the answer has no speed section; the QLoRA
    plan that leads says how long the question's data takes on it."""
    d = Draft(model="Llama-3-8B", task="training", method="lora", gpu="GeForce RTX 4080")
    outcome = answer(d)
    assert outcome.workload.estimate.verdict == "does_not_fit"
    reply = answered(outcome, [], "en")
    assert "speed" not in _kinds(reply)
    lead = next(s for s in reply.sections if s.kind == "plan").items[0]
    assert "QLoRA" in lead.text and "training 1,000,000 tokens in " in lead.detail


def test_the_cheapest_instance_for_a_training_job_says_its_hours_and_total():
    d = Draft(
        model="Qwen2.5-32B",
        task="training",
        method="qlora",
        inverse="cheapest_cloud",
        dataset_tokens=50_000_000,
    )
    reply = answered(answer(d), [], "en")
    text = reply.sections[0].items[0].text
    assert text.startswith("Cheapest cloud instance for the whole job: Lambda 1x GH200")
    assert "The job takes 6.8–10.8 hours there: 10.1–16.1 USD in all" in text
    assert "The cheapest per hour, Lambda 1x RTX A6000 (gpu_1x_a6000) at 0.80 USD/h" in text


def test_a_rented_machine_is_priced_for_the_plan_that_runs_there():
    # Llama 3.1 8B for 50 users on an L40S does not fit as asked (BF16 KV cache), the plan with
    # an FP8 KV cache does: the L40S instances are priced for that plan, with a month's cost.
    d = Draft(model="Llama-3.1-8B", task="inference", gpu="L40S", concurrency=50, cloud=True)
    outcome = answer(d)
    assert outcome.workload.estimate.verdict == "does_not_fit"
    reply = answered(outcome, [], "en")
    cost = next(s for s in reply.sections if s.kind == "cost")
    assert all("L40S" in i.text or "g6e" in i.text for i in cost.items)
    assert all("a month around the clock" in i.text for i in cost.items)
    # Not rented: no such lines.
    owned = answered(answer(d.model_copy(update={"cloud": None})), [], "en")
    assert "cost" not in [s.kind for s in owned.sections]
