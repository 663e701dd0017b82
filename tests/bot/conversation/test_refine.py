"""The follow-ups offered after an answer: which are tried, what each says, and their order."""

from bot.conversation.answer import machine, workload
from bot.conversation.refine import LIMIT, _candidates, refinements
from bot.conversation.slots import Draft
from estimator.estimate import estimate


def _per_device(d: Draft) -> int:
    return estimate(workload(d)[0], machine(d)).per_device_bytes


def test_full_fine_tune_offers_qlora_first_then_lora():
    # 8B full fine-tune: 16 bytes a parameter of states against QLoRA's ~0.5 byte weights plus
    # adapters, so QLoRA changes the memory most, then LoRA (2-byte frozen weights).
    d = Draft(model="Llama-3.1-8B", task="training", method="full", gpu="H100")
    found = refinements(d, _per_device(d))
    assert [(r.key, r.value) for r in found[:2]] == [("method", "QLoRA"), ("method", "LoRA")]
    assert found[0].per_device_bytes < found[1].per_device_bytes < _per_device(d)


def test_each_refinement_carries_its_own_estimate():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090")
    for r in refinements(d, _per_device(d)):
        assert r.per_device_bytes == _per_device(r.draft)


def test_context_grows_fourfold_and_reads_back_in_k():
    # 4,096 tokens by default for inference: x4 is 16,384, said as "16k" in both languages.
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090")
    every = {key: (value, changed) for key, value, changed in refinements_all(d)}
    assert every["context"][0] == "16k"
    assert every["context"][1].context == 16_384


def test_no_longer_context_past_the_assumed_longest():
    # 65,536 x 4 = 262,144 is beyond the 131,072 a model is assumed to take.
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090", context=65_536)
    assert "context" not in {key for key, _, _ in refinements_all(d)}


def test_more_gpus_only_for_inference_on_named_hardware():
    infer = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090", gpus=2)
    assert {key: value for key, value, _ in refinements_all(infer)}["gpus"] == "4"
    train = Draft(model="Qwen2.5-7B", task="training", method="lora", gpu="GeForce RTX 4090")
    assert "gpus" not in {key for key, _, _ in refinements_all(train)}
    bare = Draft(model="Qwen2.5-7B", task="inference")
    assert "gpus" not in {key for key, _, _ in refinements_all(bare)}


def test_users_are_eight_times_as_many():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="A100 80GB SXM4", concurrency=4)
    assert {key: value for key, value, _ in refinements_all(d)}["users"] == "32"


def test_nothing_for_inverse_or_machine_learning_questions_or_a_zero_size():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090")
    assert refinements(d, 0) == []
    assert refinements(d.model_copy(update={"inverse": "context"}), 10**9) == []
    assert refinements(d.model_copy(update={"ml_kind": "classical"}), 10**9) == []


def test_at_most_limit_and_largest_change_first():
    d = Draft(model="Qwen2.5-7B", task="inference", gpu="GeForce RTX 4090")
    base = _per_device(d)
    found = refinements(d, base)
    assert len(found) == LIMIT
    changes = [abs(r.per_device_bytes / base - 1) for r in found]
    assert changes == sorted(changes, reverse=True)


def refinements_all(d: Draft) -> list[tuple[str, str, Draft]]:
    """Every follow-up tried, before the estimates rank and cut them."""
    return _candidates(d)
