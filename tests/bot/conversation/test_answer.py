"""Advice for the one who asks: owners of a card are not told to buy it or to split over GPUs
they do not have; someone choosing a data-centre GPU is."""

import pytest

from bot.conversation.answer import answer, situation
from bot.conversation.answer import machine as make_machine
from bot.conversation.dialogue import State, step
from bot.conversation.parse import parse
from bot.conversation.slots import Draft
from estimator.errors import EstimatorError


def _draft(text):
    return step(State(), parse(text), text).state.draft


def _rules(text, from_profile=False):
    outcome = answer(_draft(text), from_profile=from_profile)
    return [r.rule for r in outcome.workload.advice.recommendations]


def test_a_consumer_card_named_in_the_question_is_owned():
    draft = _draft("can i run llama 3.1 70b on my rtx 3060")
    s = situation(draft, make_machine(draft), from_profile=False)
    assert s.owns_hardware and not s.asked_gpu_count
    assert "infer_tensor_parallel" not in _rules("can i run llama 3.1 70b on my rtx 3060")


def test_a_data_centre_gpu_in_a_question_is_rented_or_bought():
    draft = _draft("llama 3.1 8b on an H100")
    assert not situation(draft, make_machine(draft), from_profile=False).owns_hardware
    assert situation(draft, make_machine(draft), from_profile=True).owns_hardware


@pytest.mark.parametrize(
    "text",
    [
        "run qwen 2.5 7b op colab t4",
        "run llama 3.1 8b on a kaggle t4",
        "run llama 3.1 70b on a rented 2x a100 80gb on runpod",
    ],
)
def test_a_rented_or_hosted_gpu_gets_no_power_bill_or_wall_circuit(text):
    draft = _draft(text)
    assert situation(draft, make_machine(draft), from_profile=False).rented
    outcome = answer(draft)
    assert outcome.workload is not None
    rules = {r.rule for r in outcome.workload.advice.recommendations}
    assert not rules & {"electricity", "power_and_cooling"}
    assert "default_kwh_price" not in {n.key for n in outcome.workload.estimate.assumptions}


def test_an_owned_desktop_keeps_its_power_notes():
    rules = _rules("can i run llama 3.1 70b on my 4x rtx 4090")
    assert {"electricity", "power_and_cooling"} <= set(rules)


def test_asking_about_more_gpus_brings_them_into_scope():
    draft = _draft("llama 3.1 70b on 2x rtx 3090")
    assert situation(draft, make_machine(draft), from_profile=False).asked_gpu_count


def test_an_owner_gets_no_buy_or_rent_advice():
    assert "cloud_or_buy" not in _rules("qwen2.5 7b on my 4090", from_profile=True)


def test_a_budget_without_hardware_answers_on_the_card_it_buys():

    found = answer(Draft(model="Qwen2.5-14B", task="inference", budget=1000, budget_currency="EUR"))
    assert found.bought is not None and found.bought.gpu.name == "Radeon RX 7900 XTX"
    assert found.workload is not None
    assert found.workload.machine is not None
    assert found.workload.machine.name == "Radeon RX 7900 XTX"


def test_a_budget_alone_asks_for_the_biggest_model_on_that_card():

    found = answer(Draft(task="inference", budget=2000))
    assert found.bought is not None and found.bought.gpu.name == "GeForce RTX 5090"
    assert found.question == "model" and found.inverse is not None
    assert found.inverse.value is not None


def test_a_budget_below_every_card_says_the_cheapest():

    with pytest.raises(EstimatorError) as raised:
        answer(Draft(model="Qwen2.5-7B", task="inference", budget=60))
    assert raised.value.code == "budget_buys_no_card"
    assert raised.value.params["gpu"] == "Arc A380"


def test_named_hardware_wins_over_a_budget():

    found = answer(
        Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 3060 12GB", budget=2000)
    )
    assert found.bought is None


def test_how_much_ram_on_a_cpu_is_answered_with_the_least_usual_amount_that_fits():
    # Llama 3.1 70B in Q4_K_M: 41.7 GiB with its cache, in the 46 GiB a 48 GB machine leaves.
    outcome = answer(_draft("how much ram do i need to run llama 3.1 70b q4_k_m cpu only"))
    sized = outcome.workload
    assert sized.machine.kind == "cpu"
    assert sized.machine.ram_bytes == 48 * (1 << 30)
    assert sized.report.estimate.verdict in ("fits", "tight")
    (note,) = [n for n in sized.estimate.assumptions if n.key == "ram_asked"]
    assert note.params["ram_bytes"] == 48 * (1 << 30)


def test_a_phone_is_answered_on_the_smallest_ram_it_is_sold_with():
    # The iPhone 15 Pro comes with 8 GB only; a generic smartphone with 6 to 16 GB.
    sized = answer(_draft("llama 3.2 1b on iphone 15 pro")).workload
    assert sized.machine.ram_bytes == 8 * (1 << 30)
    sized = answer(_draft("kan ik phi-3 mini draaien op mijn telefoon")).workload
    assert sized.machine.ram_bytes == 6 * (1 << 30)


def test_a_reference_said_loaded_beside_adapters_is_their_own_base():
    # "met het referentiemodel erbij" for LoRA DPO: TRL takes the base with the adapters off
    # as the reference (no second copy), and the answer says so.
    outcome = answer(
        _draft("hoeveel vram voor dpo op qwen3 14b met lora rank 64 en het referentiemodel erbij")
    )
    est = outcome.workload.estimate
    assert est.components.frozen_models == 0
    assert "reference_shared" in [n.key for n in est.assumptions]
    full = answer(_draft("full dpo on qwen3 14b with the reference model on 4x h100"))
    assert full.workload.estimate.components.frozen_models == 2 * 14_768_307_200


def test_an_answer_that_chooses_hardware_says_how_fast_it_runs_there():
    # "I need 20 tokens/s": the cheapest instance's own speed is the answer's to give.
    outcome = answer(_draft("cheapest cloud to run llama 3.1 70b for inference per hour"))
    assert outcome.question == "cloud" and outcome.inverse_speed is not None
    chosen = outcome.inverse.estimate.inputs
    assert chosen.machine_kind == "gpu"
    assert outcome.inverse_speed.decode_per_sequence.low > 0
    smallest = answer(_draft("smallest gpu for qwen2.5 14b in q4"))
    assert smallest.inverse_speed is not None
