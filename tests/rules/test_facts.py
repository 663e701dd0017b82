"""The fact the rules see: which plans it recommends, the faster plan, and its real units."""

from dataclasses import replace

import pytest

from estimator.hardware.catalog import machine
from estimator.models import lookup
from estimator.planner import CLOUD, MORE_GPUS, YOURS, plans
from estimator.report import report
from estimator.speed import Range
from estimator.workload import Workload
from rules.facts import FASTER, best_plans, faster_plan, llm_facts, ml_fact


def _work(model: str, **kw) -> Workload:
    return Workload(model=lookup.require(model).architecture, task="inference", **kw)


@pytest.fixture(scope="module")
def big_on_4090():
    m = machine(gpu="GeForce RTX 4090")
    return _work("Llama-3.1-405B"), m, plans(_work("Llama-3.1-405B"), m)


def test_best_plans_takes_the_first_that_runs_in_each_place(big_on_4090):
    _, _, found = big_on_4090
    best = best_plans(found)
    for where, plan in best.items():
        first = next(
            p
            for p in found
            if p.runs and (p.hardware if p.hardware in (CLOUD, MORE_GPUS) else YOURS) == where
        )
        assert plan is first
    assert CLOUD in best


def test_the_question_as_asked_is_never_recommended(big_on_4090):
    _, _, found = big_on_4090
    asked = next(p for p in found if p.kind == "as_asked")
    fitting = replace(asked, verdict="fits", hardware=YOURS)
    assert YOURS not in best_plans((fitting,))


def test_a_slow_plan_in_ram_gives_way_to_one_elsewhere(big_on_4090):
    _, _, found = big_on_4090
    cloud = next(p for p in found if p.hardware == CLOUD and p.runs)
    yours = next(p for p in found if p.hardware == YOURS and p.kind != "as_asked")
    # 0.2-0.4 tokens/s is far below the 5.3 tokens/s people read.
    slow = replace(yours, verdict="offload", decode=Range(0.2, 0.4), hardware=YOURS)
    assert best_plans((slow, cloud)) == {CLOUD: cloud}
    # With nothing elsewhere it stays the user's plan.
    assert best_plans((slow,)) == {YOURS: slow}


def test_faster_plan_needs_half_again_the_asked_speed_and_no_less_quality():
    m = machine(gpu="A100 80GB SXM4")
    found = plans(_work("Qwen2.5-7B"), m)
    asked = next(p for p in found if p.kind == "as_asked")
    assert asked.decode is not None
    other = next(p for p in found if p.kind != "as_asked" and p.hardware == asked.hardware)
    base = asked.decode.low + asked.decode.high
    quick = replace(other, verdict="fits", quality_bits=asked.quality_bits)
    at = replace(quick, decode=Range(0.75 * base, 0.75 * base))  # exactly 1.5x the sum
    below = replace(quick, decode=Range(0.74 * base, 0.75 * base))
    assert faster_plan((asked, at)) is at
    assert faster_plan((asked, below)) is None
    worse = replace(at, quality_bits=asked.quality_bits - 12)
    assert faster_plan((asked, worse)) is None
    assert faster_plan((replace(asked, verdict="does_not_fit"), at)) is None


def test_llm_facts_carry_bytes_and_the_answers_own_cheapest_instance(big_on_4090):
    w, m, found = big_on_4090
    rep = report(w, m)
    facts = llm_facts(w, m, rep, found)
    f = facts.fact
    assert f["per_device_bytes"] == facts.estimate.per_device_bytes
    assert f["params_m"] == round(facts.estimate.inputs.params / 1e6)
    assert f["gpu_count"] == 1 and f["device"] == "gpu"
    assert f["plan_runs"] == 1 and f["plan_cloud_runs"] == int(CLOUD in facts.plans)
    if "cloud_instance" in f:
        cheapest = rep.cloud[0].instance
        assert f["cloud_instance"] == f"{cheapest.provider} {cheapest.instance}"
        assert f["cloud_usd_per_hour"] == cheapest.usd_per_hour
    assert FASTER not in facts.plans or facts.plans[FASTER].hardware == YOURS


def test_no_hardware_has_no_device_and_no_cost():
    w = _work("Qwen2.5-7B")
    f = llm_facts(w, None, report(w, None)).fact
    assert f["device"] == "none" and f["gpu_count"] == 0
    assert "purchase_usd" not in f and "power_usd_per_hour" not in f


def test_ml_fact_holds_the_data_as_float64():
    # 1,000,000 rows x 50 features x 8 bytes = 400,000,000 bytes.
    f = ml_fact("classical", 1_000_000, 50, 0, retrain_often=True)
    assert f["data_bytes"] == 400_000_000 and f["retrain_often"] == 1
    assert ml_fact("neural_net", -5, 3, 2_500_000, False)["data_bytes"] == 0
    assert ml_fact("neural_net", 10, 3, 2_500_000, False)["params_m"] == 2.5
    with pytest.raises(ValueError):
        ml_fact("quantum", 1, 1, 1, False)


@pytest.mark.parametrize(
    ("gpu", "gpus", "desktop"),
    [("GeForce RTX 4090", 4, 1), ("RTX A6000", 2, 1), ("A100 80GB SXM4", 8, 0), ("Tesla T4", 1, 0)],
)
def test_consumer_and_workstation_cards_are_a_desktops_on_a_wall_circuit(gpu, gpus, desktop):
    w = _work("Llama-3.1-8B")
    m = machine(gpu=gpu, gpus=gpus)
    assert llm_facts(w, m, report(w, m)).fact["gpu_desktop"] == desktop
